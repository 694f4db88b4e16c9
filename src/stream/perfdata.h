/* perf.data as perf record writes it (a file, or a pipe with -o -): header, events, records. */
#ifndef PMCTOP_PERFDATA_H
#define PMCTOP_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/perfrec.h"

#define PERFDATA_MAGIC "PERFILE2" /* both formats start with it */

/* One event of the capture (a perf_event_attr and the ids of its instances). */
struct perfdata_event {
	char *name; /* owned: from the capture's event descriptions, else made from type/config */
	uint32_t type;
	uint64_t config;
	uint64_t period; /* sample_period, or sample_freq when freq */
	bool freq;
	bool sample_id_all;
	struct perfrec_fmt fmt;
};

/* What a capture holds that pmctop does not use: skipped, counted, told once. */
struct perfdata_skipped {
	uint64_t aux;	     /* AUX trace data (Intel PT, Arm SPE, CoreSight) and its records */
	uint64_t unknown;    /* records of types pmctop does not know */
	uint64_t compressed; /* zstd-compressed records (perf record -z) */
	uint64_t features;   /* feature sections pmctop does not know, or that do not parse */
};

/* The physical memory blocks of one node, from the MEM_TOPOLOGY feature. */
struct perfdata_memnode {
	uint64_t node;
	uint64_t nbits; /* blocks the bitmap covers */
	uint64_t *bits; /* owned: bit b set when block b (of mem_block bytes) is on node */
};

struct perfdata {
	const uint8_t *buf; /* borrowed: the whole capture, valid while records are read */
	size_t len;
	bool pipe; /* the pipe format: events and features come as records */
	struct perfdata_event *ev;
	size_t nev, evcap;
	struct perfdata_id *ids; /* sorted by id once the events are known */
	size_t nids, idcap;
	bool ids_sorted;
	char host[65], kernel[65], arch[33], version[65], cpudesc[129], cpuid[65];
	uint32_t nrcpus;
	uint16_t *cpu_node; /* owned; 1 + the node of each CPU (NUMA_TOPOLOGY), 0 not known */
	size_t ncpu_node;
	uint64_t mem_block; /* MEM_TOPOLOGY's block size in bytes; 0 when the capture has none */
	struct perfdata_memnode *memnodes; /* owned */
	size_t nmemnodes;
	size_t off, end; /* the next record; the end of the records */
	struct perfrec_stats st;
	struct perfdata_skipped skipped;
};

/*
 * Read the header of the capture in buf (len bytes, borrowed until
 * perfdata_release): the file format's header, event attrs and feature
 * sections, or the pipe format's leading records. 0, or -EINVAL with
 * "offset N: what was wrong" in err. Pure over the bytes.
 */
int perfdata_open(struct perfdata *pd, const void *buf, size_t len, char *err, size_t errsize);
/*
 * Decode the next record into cbs (samples carry their event's index in
 * attr; cbs->id_type is ignored: the capture's own is used). 1 when a
 * record was read, 0 at the end, -EINVAL with "offset N: what" in err for a
 * truncated or malformed record. Records pmctop does not use are counted in
 * pd->skipped and read past.
 */
int perfdata_next(struct perfdata *pd, const struct perfrec_cbs *cbs, char *err, size_t errsize);
void perfdata_release(struct perfdata *pd);
/*
 * The NUMA_TOPOLOGY feature section, n bytes at p: { u32 nr; { u32 node;
 * u64 mem_total, mem_free; string cpus; } x nr }, into pd's CPU map. 0 or
 * -EINVAL (pd's map then empty). Pure over the bytes.
 */
int perfdata_numa_topology(struct perfdata *pd, const void *p, size_t n);
/*
 * The MEM_TOPOLOGY feature section: { u64 version, block_size, nr; { u64
 * node, size; bitmap { u64 size; u64 words[]; } } x nr }, into pd's memory
 * nodes. 0 or -EINVAL (pd's nodes then empty). Pure over the bytes.
 */
int perfdata_mem_topology(struct perfdata *pd, const void *p, size_t n);
/* The node of cpu in the capture, or -1 when not known. */
int perfdata_cpu_node(const struct perfdata *pd, uint32_t cpu);
/* The node of physical address phys in the capture, or -1 when not known (0 is never known). */
int perfdata_phys_node(const struct perfdata *pd, uint64_t phys);
/* Whether the first bytes of a stream (n of them) are perf.data's magic. */
bool perfdata_magic(const void *p, size_t n);

#endif
