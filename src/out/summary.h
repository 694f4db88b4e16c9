/* The end of a command's run: its totals in perf stat's layout. */
#ifndef PMCTOP_SUMMARY_H
#define PMCTOP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/evlist.h"
#include "stream/snapshot.h"

/* What the kernel kept of the command's waited-for processes (getrusage RUSAGE_CHILDREN). */
struct summary_rusage {
	double user_s, sys_s;
	uint64_t faults; /* ru_minflt + ru_majflt */
	uint64_t csw;	 /* ru_nvcsw + ru_nivcsw */
};

struct summary_run {
	const char *const *argv;      /* borrowed; the command, NULL-terminated */
	double wall_s;		      /* from its fork to its end */
	const struct evlist *ev;      /* borrowed */
	const struct snap_count *cnt; /* borrowed; one per event of ev: the inherited counters */
	struct summary_rusage ru;
	int status; /* the wait status */
};

/*
 * Print the summary to f as perf stat does: the command, then one line per
 * event (value, name, comment: CPUs utilized, rates, IPC, miss ratios, and
 * the share of the run a multiplexed counter ran when it was scaled), then
 * the elapsed, user and sys seconds. task-clock, page-faults and
 * context-switches come from the rusage when their counter did not count.
 * Pure but for writing to f.
 */
void summary_print(FILE *f, const struct summary_run *r);

#endif
