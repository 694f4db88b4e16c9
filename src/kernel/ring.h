/* The perf mmap ring: a pure record walker over stream/perfrec's decoder, and the live ring. */
#ifndef PMCTOP_RING_H
#define PMCTOP_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/sysops.h"
#include "stream/mem.h"
#include "stream/perfrec.h"

/* The decoded records are perf.data's too: stream/perfrec.h decodes both. */
/*
 * Walk the records between *tail and head of a ring data area of size
 * bytes (a power of two), copying out records that wrap past the end.
 * Samples go to cb; counts to st. *tail is advanced past what was read.
 * Pure over the bytes: tests hand it synthetic ring images.
 */
void ring_walk(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
	       uint64_t sample_type, perfrec_sample_cb cb, void *arg, struct perfrec_stats *st);

/* ring_walk with every kind of record decoded; the callbacks are called in ring order. */
void ring_walk_records(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
		       uint64_t sample_type, const struct perfrec_cbs *cbs,
		       struct perfrec_stats *st);

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
void ring_drain(struct ring *r, perfrec_sample_cb cb, void *arg, struct perfrec_stats *st);
/* The same with every kind of record (cbs->id_type as the events were opened). */
void ring_drain_records(struct ring *r, const struct perfrec_cbs *cbs, struct perfrec_stats *st);

#endif
