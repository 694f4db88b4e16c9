/* Every spelling of an event pmctop takes, to one perf_event_attr; and the list of them all. */
#ifndef PMCTOP_EVSPEC_H
#define PMCTOP_EVSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel/perf_compat.h"
#include "kernel/sysops.h"

/* How an event was spelled, which decides who may share its group. */
enum evspec_kind {
	EVSPEC_NAMED, /* libpfm4's or perf's name (cycles, INST_RETIRED:ANY_P, page-faults:p) */
	EVSPEC_PMU,   /* the kernel's sysfs spelling, PMU/TERMS/ */
	EVSPEC_TRACEPOINT, /* SUBSYSTEM:EVENT of tracefs (sched:sched_switch) */
};

/*
 * Encode name into a, under SYSFS ("/sys" when NULL; tracefs is its
 * kernel/tracing, or kernel/debug/tracing), reading files through ops (NULL:
 * the real ones). kernel: kernel mode may be counted. *kind says which
 * spelling it was; *hw is set for a named event that needs a hardware PMU
 * (the caller decides for a PMU's own spelling). 0, -ENOENT for an unknown
 * event, -EINVAL for a bad modifier or term, -EACCES for a tracepoint whose
 * id may not be read or a PMU spelling of kernel mode alone without kernel.
 */
int evspec_encode(const struct sysops *ops, const char *sysfs, const char *name, bool kernel,
		  struct perf_event_attr *a, enum evspec_kind *kind, bool *hw);
/* Whether name is spelled as a tracepoint: SUBSYSTEM:EVENT, one colon, no slash. */
bool evspec_is_tracepoint(const char *name);
/*
 * Print the events pmctop takes, each once, grouped as `perf list` groups
 * them: hardware, software and hardware cache events, the kernel's PMU
 * events of sysfs, libpfm4's tables of the PMUs present, and tracepoints;
 * those whose name contains pattern (case-insensitive; NULL for all, and
 * then tracepoints, which are thousands, are counted, not listed). Returns
 * the number of events printed.
 */
size_t evspec_list(FILE *f, const char *sysfs, const char *pattern);

#endif
