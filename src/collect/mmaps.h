/* The mappings of a sampled process as they were at each moment of its ring: an interval map. */
#ifndef PMCTOP_MMAPS_H
#define PMCTOP_MMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"

/*
 * Sorted, non-overlapping areas of one process. An area put over others
 * replaces what it covers, as the kernel's mmap does (munmap writes no
 * record: a range stays named until something is mapped over it).
 */
struct mmaps {
	int pid;
	struct mem_area *v; /* owned, with their names */
	size_t n, cap;
};

void mmaps_init(struct mmaps *m, int pid);
void mmaps_release(struct mmaps *m);
/* Forget every area (an exec replaced the address space). */
void mmaps_clear(struct mmaps *m);
/*
 * Put a over [a->start, a->end): areas it covers go, those it overlaps are
 * cut (a file's offset moves with its start). The name (name_len bytes, not
 * necessarily NUL-terminated) is copied; an empty range is ignored.
 */
void mmaps_insert(struct mmaps *m, const struct mem_area *a, const char *name, size_t name_len);
/* The area holding addr, or NULL. Borrowed: valid until the next change. */
const struct mem_area *mmaps_find(const struct mmaps *m, uint64_t addr);
/*
 * Parse /proc/PID/maps text (bytes, len: fuzzable) into m. gaps_only: keep
 * what m has and add only the lines that overlap none of it (the file is
 * newer than the ring: it may not overwrite what the ring said). Names have
 * no length limit. Lines that cannot be parsed are skipped. Returns the
 * areas added.
 */
size_t mmaps_parse_proc(struct mmaps *m, const char *buf, size_t len, bool gaps_only);

#endif
