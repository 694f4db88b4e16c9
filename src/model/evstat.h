/* What each event did in the last interval: the share of time it was counted, and its status. */
#ifndef PMCTOP_EVSTAT_H
#define PMCTOP_EVSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/evlist.h"
#include "stream/snapshot.h"

/* One event over the last interval, summed over the processes and over the CPUs. */
struct evstat {
	uint64_t en_tasks, run_tasks; /* ns enabled and running, over every process */
	uint64_t en_cpus, run_cpus;   /* the same over the per-CPU counters */
	uint64_t value;		      /* the count over every process (not scaled) */
	size_t tasks;		      /* processes it was counted in */
	size_t tasks_failed;	      /* processes counted where this event was not */
	int task_err;		      /* the reason of the first of those, -errno */
	bool suspect;		      /* a hardware event that never counted while work went on */
};

/* The status of an event, most serious first. */
enum evstat_status {
	EVSTAT_UNSUPPORTED, /* the PMU or kernel has no such event */
	EVSTAT_FAILED,	    /* it could not be opened (permission, descriptors, ...) */
	EVSTAT_SUSPECT,	    /* a hardware event that has never counted anything */
	EVSTAT_NEVER_RAN,   /* enabled in the interval, never on the PMU */
	EVSTAT_MULTIPLEXED, /* on the PMU part of the time: its counts are scaled */
	EVSTAT_COUNTED,	    /* on the PMU all the time it was enabled */
	EVSTAT_IDLE,	    /* nothing it counts in ran in the interval */
};

/*
 * Fill st (one per event of ev) from the counts of prev and cur: deltas of
 * the time each event was enabled and running, over the processes present in
 * both (same start time) and over the CPUs present in both. A count that went
 * backwards (reopened) adds nothing.
 */
void evstat_update(struct evstat *st, const struct evlist *ev, const struct snapshot *prev,
		   const struct snapshot *cur);
/* The status of event i with stats st (NULL before the first interval). */
enum evstat_status evstat_status(const struct ev *e, const struct evstat *st);
/* The short name of a status: "counted", "multiplexed", "not supported", ... */
const char *evstat_status_name(enum evstat_status s);
/* running / enabled of st over the processes (cpus false) or CPUs; NAN when never enabled. */
double evstat_share(const struct evstat *st, bool cpus);

#endif
