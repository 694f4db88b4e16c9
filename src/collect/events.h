/* Event names to perf_event_attr through libpfm4; listing and suggestions. */
#ifndef PMCTOP_EVENTS_H
#define PMCTOP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "collect/perf_compat.h"

/* Initialise libpfm4 once; 0 or -EIO when it cannot start. */
int events_init(void);
void events_fini(void);
/*
 * Encode name (with any libpfm4 modifiers) into attr. kernel says whether
 * kernel-mode counting is permitted, used when the name gives no :u/:k.
 * *hw is set when the event needs a hardware PMU. attr->size is set.
 * Returns 0, -ENOENT for an unknown name or -EINVAL for a bad modifier.
 */
int events_encode(const char *name, bool kernel, struct perf_event_attr *attr, bool *hw);
/*
 * Up to max names close to the unknown name, best first, written into
 * out[i] (each size long). Returns how many.
 */
size_t events_suggest(const char *name, char (*out)[128], size_t max);
/* Print present PMUs' events (with descriptions) whose name contains pattern
 * (case-insensitive; NULL for all). Returns the number printed. */
size_t events_list(FILE *f, const char *pattern);
/* Name of the first present hardware PMU and its generic counters; NULL when none. */
const char *events_hw_pmu(int *counters);
/* Levenshtein distance, case-insensitive (exported for tests). */
size_t events_distance(const char *a, const char *b);

#endif
