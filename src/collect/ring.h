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
};

struct ring_stats {
	uint64_t samples;
	uint64_t lost;	    /* from PERF_RECORD_LOST and LOST_SAMPLES */
	uint64_t throttled; /* THROTTLE records */
	uint64_t unthrottled;
	uint64_t exits;
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

#endif
