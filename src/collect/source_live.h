/* The live source: perf_event_open counters on real processes and CPUs. */
#ifndef PMCTOP_SOURCE_LIVE_H
#define PMCTOP_SOURCE_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/sysops.h"
#include "stream/evlist.h"
#include "stream/source.h"
#include "collect/fact.h"

/*
 * Where process and thread counts come from (--task-counts). Zero, as a
 * zeroed live_opts has it, is per-task events: the way before /proc counts.
 */
enum live_task_counts {
	LIVE_COUNTS_PERF = 0, /* per-task perf events */
	/* BPF where permitted and loadable, else /proc when it keeps every event, else perf */
	LIVE_COUNTS_AUTO,
	LIVE_COUNTS_PROC, /* /proc: an event it does not keep is an error */
	/* BPF at context switches (--bpf): where it cannot be, per-task events, said once */
	LIVE_COUNTS_BPF,
};

struct live_opts {
	const char *proc_root;	  /* "/proc" unless testing */
	const char *sysfs_root;	  /* "/sys" unless testing (NULL: "/sys") */
	const struct sysops *ops; /* borrowed, outlives the source; NULL: the real calls */
	const char *kmsg; /* the kernel log, for its PMU line ("/dev/kmsg"); NULL: not read */
	const int *pids;  /* borrowed; attach only to these when npids > 0 */
	size_t npids;
	bool by_uid; /* attach only to processes of uid */
	unsigned uid;
	bool per_cpu;  /* try per-CPU counters */
	bool threads;  /* thread rows from the start: budget a thread's set beside its process's */
	bool read_all; /* read every process every tick, also those that did not run */
	/* descriptors the caller may open beside the source's, left out of its budget (the exporter's) */
	size_t fd_keep;
	bool kernel_threads; /* list kernel threads too (--kernel-threads) */
	/* cgroups of the v2 hierarchy, counted per CPU with PERF_FLAG_PID_CGROUP */
	bool cgroups;	       /* count cgroups and read which cgroup each process is in */
	bool cgroups_required; /* asked for by the user: no hierarchy is an error, not a notice */
	int cgroup_depth;      /* levels below the root walked (1: the top-level cgroups) */
	const char *const *cgroup_paths; /* borrowed; also these ("/a/b", or under the mount) */
	size_t ncgroup_paths;
	bool no_tasks; /* count no processes at all: cgroups and CPUs only */
	/*
	 * --hw-top K: hardware events for the K busiest processes only, the others
	 * software events alone; 0: for every process while the descriptors hold
	 */
	unsigned hw_top;
	/*
	 * the per-task backend's reads in turn of a big process's threads: one
	 * in this many ticks at most, while its threads keep to their rates
	 * (0: LIVE_TASK_PACE_MOST; 1: every tick it runs)
	 */
	unsigned turn_pace;
	/*
	 * and of a process of fewer threads (all of them at once, or none),
	 * from a tick in which at least this many processes ran, until
	 * fewer than half as many do (0: LIVE_TASK_PACE_FROM; 1: from the
	 * first tick in which any ran)
	 */
	unsigned pace_few_from;
	enum live_task_counts task_counts;
	/* NULL, or set true when the source is refused for a choice of the options' */
	bool *usage_err;
};

/*
 * Probe which events of req this machine can count, then return a source
 * that counts them per process and per CPU. Events that cannot be counted
 * stay in the list with err set; the reasons are queued as messages.
 * Returns NULL with err filled (the fact's sentence) when nothing at all can
 * be counted.
 */
struct source *source_live_new(const struct evlist *req, const struct live_opts *o, char *err,
			       size_t errsize);
/* The perf_event_paranoid value read at start (-2 when unknown). */
int source_live_paranoid(const struct source *s);
/* The facts behind s->mode. */
const struct errmsg_mode *source_live_mode(const struct source *s);
/*
 * The facts told so far (the latest 256), oldest first; the messages are
 * their sentences. *n gets the count; the array is valid until the next read.
 */
const struct fact *source_live_facts(const struct source *s, size_t *n);

#endif
