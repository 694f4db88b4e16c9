/* The ways the live source counts a process's tasks: one ops table each, chosen once. */
#ifndef PMCTOP_LIVE_BACKEND_H
#define PMCTOP_LIVE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fact;
struct live;
struct live_proc;
struct proc_stat;
struct snap_count;
struct snapshot;

/* When a backend is offered the processes (live_backend_choose). */
enum live_be_when {
	LIVE_BE_AT_PROBE, /* the events are encoded; the task groups are not built yet */
	LIVE_BE_AT_OPEN,  /* the task groups and the descriptor budget are known (none yet) */
};

/* What the scan and the facts must know of a backend's counts. */
enum live_be_flags {
	LIVE_BE_NO_ATTACH = 1 << 0, /* opens nothing per process: counted the tick it is found */
	LIVE_BE_ALL_MODES = 1 << 1, /* counts kernel mode without perf's permission, kthreads too */
	LIVE_BE_KERNEL_TIME =
		1 << 2, /* its cpu_time is the kernel's own: no full stat read for it */
};

/*
 * One way of counting processes. Its per-process state hangs from
 * live_proc.be, which only its own file reads; what it keeps for the whole
 * source lives in struct live. The scan calls the ops of l->be only. An op
 * left NULL has nothing to do (init, tick_begin, attach_begin, attach, threads, tick_end,
 * proc_free, free, keys); idle and fill are always given.
 */
struct live_backend {
	const char *name;
	enum live_be_when when;
	int counts;	/* enum fact_counts: what the mode line and the facts call it */
	unsigned flags; /* enum live_be_flags */
	/*
	 * Whether it counts the processes, once the source has reached when: 1
	 * it does (l->be is then this one); 0 it does not (a fact given to
	 * live_backend_declined may say why, and the next in the table is
	 * asked); -errno with *why when what was asked for cannot be done and
	 * the source must not open.
	 */
	int (*init)(struct live *l, struct fact *why);
	/* Before a tick's scan of /proc (--bpf reads its sums here). */
	void (*tick_begin)(struct live *l);
	/*
	 * Before a tick's attaches: procs[0..n) are the processes the tick
	 * keeps (not l->procs yet), those to attach among them.
	 */
	void (*attach_begin)(struct live *l, const struct live_proc *procs, size_t n);
	/*
	 * Open what counting p takes, st its stat of this tick. 0;
	 * LIVE_UNATTACHED to go on next tick; LIVE_RETRY; -errno (-ESRCH: gone,
	 * -EMFILE/-ENFILE: no descriptors, tried again later) with nothing open.
	 */
	int (*attach)(struct live *l, struct live_proc *p, const struct proc_stat *st);
	/*
	 * Whether counted p has not run since its last full read, so that its
	 * kept counts (p->cnt) stand and its stat need not be read again.
	 * clock_only: decide by its CPU clock or not at all (no stat file open).
	 * It may set p->clk_idle (cleared before): not run, though its stat is
	 * due (false returned), so its counts stand all the same.
	 */
	bool (*idle)(struct live *l, struct live_proc *p, bool clock_only);
	/*
	 * Read p's counts into c (one per event, each err set), st its stat and
	 * snap the tick's snapshot, and *t_ns the moment they are of (within
	 * their reads, not after): the row's rates are divided by the time
	 * between its own reads. Keeps what the next idle needs (p->cnt,
	 * p->gate).
	 */
	void (*fill)(struct live *l, struct live_proc *p, const struct proc_stat *st,
		     const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns);
	/*
	 * Optional: the backend times p itself. The scan then keeps p's leader
	 * thread's stat file open instead of the process's (the kernel walks no
	 * threads for it: the same fields but CPU time and faults) and, after
	 * each read of it, asks for st->cpu, p's CPU time in clock ticks; false
	 * when it cannot tell (no sums this tick, no time to count from). The
	 * process's own file is then read, and every LIVE_STAT_FULL reads
	 * anyway (not with LIVE_BE_KERNEL_TIME); each such read is given (full)
	 * as the time to count on from.
	 */
	bool (*cpu_time)(struct live *l, struct live_proc *p, struct proc_stat *st, bool full);
	/* p's thread rows: added to snap when want, else what was kept for them let go. */
	void (*threads)(struct live *l, struct live_proc *p, struct snapshot *snap, bool want);
	/* After a tick's scan: sweep, rebalance, split (the processes are l->procs). */
	void (*tick_end)(struct live *l);
	/* Free p's state (p->be) and close what it holds; p is then cleared by the caller. */
	void (*proc_free)(struct live *l, struct live_proc *p);
	/* Free what it keeps for the source, when the source is freed. */
	void (*free)(struct live *l);
	/*
	 * After tick_begin: the pids of every process that ran since counting
	 * began, ascending (*n of them), so that /proc need not be listed each
	 * tick; NULL when not known this tick. *full: some process may have run
	 * without being told. NULL op: not known.
	 */
	const int *(*keys)(struct live *l, size_t *n, bool *full);
};

/* The backends, each in its own file. */
extern const struct live_backend LIVE_BE_TASKS;	 /* live_be_tasks.c: a group set per thread */
extern const struct live_backend LIVE_BE_BPF;	 /* live_bpf.c: sums of a sched_switch program */
extern const struct live_backend LIVE_BE_PROCFS; /* live_procfs.c: the kernel's own counts */

/*
 * Keep why a backend does not count (FACT_BPF, FACT_PROC_COUNTS), told (live_facts.c)
 * once one does, with the way that does in f->way.instead.
 */
void live_backend_declined(struct live *l, const struct fact *f);
/* Count by the backend that needs nothing: per-task groups, until one is chosen. */
void live_backend_default(struct live *l);
/*
 * Offer the counting of processes to the backends of stage when, in the
 * order of the table, while none has taken it: the first whose init says 1
 * does. 0, or -errno with *why when one refuses what was asked for.
 */
int live_backend_choose(struct live *l, enum live_be_when when, struct fact *why);

#endif
