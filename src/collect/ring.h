/* The perf mmap ring: a pure record walker and sample decoder, and the live ring around it. */
#ifndef PMCTOP_RING_H
#define PMCTOP_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/sysops.h"
#include "stream/mem.h"

struct ring_sample {
	uint64_t ip, addr, time, id, period;
	uint64_t weight;   /* latency in cycles, 0 when not given */
	uint64_t data_src; /* raw PERF_SAMPLE_DATA_SRC, 0 when not given */
	uint64_t phys_addr, page_size;
	uint32_t pid, tid, cpu;
	enum mem_op op;
	enum mem_level level;
	/*
	 * borrowed, set by the sampler: the mapping addr lay in when the sample
	 * was taken, valid during the callback only; NULL when not known
	 */
	const struct mem_area *area;
};

/*
 * A PERF_RECORD_MMAP or MMAP2: a mapping made (or brk grown) at time in
 * process pid. Nothing says when one goes: munmap writes no record.
 */
struct ring_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min; /* 0 when not given (MMAP, or a build id instead) */
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id_size; /* PERF_RECORD_MISC_MMAP_BUILD_ID: the id instead of dev/inode */
	uint8_t build_id[20];
	bool exec;	  /* not PERF_RECORD_MISC_MMAP_DATA */
	const char *name; /* borrowed from the record: name_len bytes, not NUL-terminated */
	size_t name_len;
	uint64_t time; /* from sample_id_all; 0 when not given */
};

/* A PERF_RECORD_COMM (exec: a new address space) or PERF_RECORD_EXIT. */
struct ring_task {
	uint32_t type; /* PERF_RECORD_COMM or PERF_RECORD_EXIT */
	uint32_t pid, tid;
	bool exec;	  /* COMM from an exec: the old mappings are gone */
	const char *comm; /* borrowed; comm_len bytes; COMM only */
	size_t comm_len;
	uint64_t time;
};

struct ring_stats {
	uint64_t samples;
	uint64_t lost;	    /* from PERF_RECORD_LOST and LOST_SAMPLES */
	uint64_t throttled; /* THROTTLE records */
	uint64_t unthrottled;
	uint64_t exits;
	uint64_t mmaps; /* MMAP and MMAP2 records */
	uint64_t comms;
	uint64_t other;	  /* records of other types, skipped by size */
	uint64_t corrupt; /* records with a bad size: the rest of the data was dropped */
};

typedef void (*ring_sample_cb)(const struct ring_sample *s, void *arg);

/*
 * Decode a PERF_RECORD_SAMPLE body (after the 8-byte header) laid out by
 * sample_type. Pure. 0, -EINVAL when the record is too short, -ENOTSUP for
 * sample fields pmctop never asks for.
 */
int ring_parse_sample(const void *body, size_t len, uint64_t sample_type, struct ring_sample *out);
/*
 * Decode the body (after the header) of an MMAP (mmap2 false) or MMAP2
 * record with header misc; id_type is the sample_type of the sample_id
 * trailer (0 when sample_id_all is off). Every field read is checked
 * against len. Pure. 0 or -EINVAL.
 */
int ring_parse_mmap(const void *body, size_t len, bool mmap2, uint16_t misc, uint64_t id_type,
		    struct ring_mmap *out);
/* The same for COMM and EXIT records (type), with their sample_id trailer. 0 or -EINVAL. */
int ring_parse_task(const void *body, size_t len, uint32_t type, uint16_t misc, uint64_t id_type,
		    struct ring_task *out);
/* Coarse level and operation of a PERF_SAMPLE_DATA_SRC value. Pure. */
enum mem_level ring_data_level(uint64_t data_src);
enum mem_op ring_data_op(uint64_t data_src);

/*
 * Walk the records between *tail and head of a ring data area of size
 * bytes (a power of two), copying out records that wrap past the end.
 * Samples go to cb; counts to st. *tail is advanced past what was read.
 * Pure over the bytes: tests hand it synthetic ring images.
 */
void ring_walk(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
	       uint64_t sample_type, ring_sample_cb cb, void *arg, struct ring_stats *st);

/* What a walk hands out: samples and the records that say how the address space changed. */
struct ring_cbs {
	ring_sample_cb sample; /* may be NULL */
	void (*mmap)(const struct ring_mmap *m, void *arg);
	void (*task)(const struct ring_task *t, void *arg);
	void *arg;
	uint64_t id_type; /* sample_type when the events have sample_id_all, else 0 */
};

/* ring_walk with every kind of record decoded; the callbacks are called in ring order. */
void ring_walk_records(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
		       uint64_t sample_type, const struct ring_cbs *cbs, struct ring_stats *st);

/* A live ring: the mmap of one perf fd. */
struct ring {
	const struct sysops *ops; /* borrowed: maps and unmaps */
	int fd;			  /* borrowed */
	void *base;		  /* the mmap: control page + data */
	size_t len;
	uint64_t sample_type;
};

/*
 * Map the ring of fd through ops (NULL: the real mmap) with 2^order data
 * pages, halving on EPERM (the mlock budget) down to one page. 0 or -errno.
 */
int ring_map(struct ring *r, const struct sysops *ops, int fd, unsigned order,
	     uint64_t sample_type);
void ring_unmap(struct ring *r);
/* Read what the kernel wrote since the last drain (acquire head, release tail). */
void ring_drain(struct ring *r, ring_sample_cb cb, void *arg, struct ring_stats *st);
/* The same with every kind of record (cbs->id_type as the events were opened). */
void ring_drain_records(struct ring *r, const struct ring_cbs *cbs, struct ring_stats *st);

#endif
