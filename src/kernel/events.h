/* Event names to perf_event_attr through libpfm4; listing and suggestions. */
#ifndef PMCTOP_EVENTS_H
#define PMCTOP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel/perf_compat.h"

/* Initialise libpfm4 once; 0 or -EIO when it cannot start. */
int events_init(void);
void events_fini(void);
/*
 * Encode name into attr: libpfm4's names and modifiers, perf's generic
 * names (alignment-faults too) and perf's modifier string after one colon
 * (u, k, h and p, pp or ppp for precise_ip: "page-faults:p", "cycles:upp"). kernel says whether
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
/* One line of --list-events: two spaces, the name, its description. */
#define EVENTS_LIST_FMT "  %-46s %s\n"
/*
 * Print name and desc under the heading section, printing the heading first
 * when *last (the heading printed last, NULL for none) is another; *last
 * becomes section, which must outlive the listing.
 */
void events_list_entry(FILE *f, const char *section, const char **last, const char *name,
		       const char *desc);
/*
 * Print perf's generic events whose name contains pattern (case-insensitive;
 * NULL for all), each once with its other spelling ("cpu-cycles OR cycles"),
 * under perf's headings: hardware, software, hardware cache. *last as for
 * events_list_entry. Returns the number printed.
 */
size_t events_list_generic(FILE *f, const char *pattern, const char **last);
/*
 * Print the events of the present PMUs libpfm4 knows beside perf's (the core
 * PMU's tables), one heading per PMU, libpfm4's aliases left out; the name
 * or the description contains pattern. Returns the number printed.
 */
size_t events_list_pmus(FILE *f, const char *pattern, const char **last);
/* Name of the first present hardware PMU and its generic counters; NULL when none. */
const char *events_hw_pmu(int *counters);
/* Levenshtein distance, case-insensitive (exported for tests). */
size_t events_distance(const char *a, const char *b);

/* Whether s holds pattern, in any case (a listing's filter); every name matches no pattern. */
bool events_match(const char *s, const char *pattern);

#endif
