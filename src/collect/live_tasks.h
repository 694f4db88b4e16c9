/* The per-task backend's state, shared by its files (be_tasks, attach, idle, threads, policy). */
#ifndef PMCTOP_LIVE_TASKS_H
#define PMCTOP_LIVE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/live.h"
#include "util/xalloc.h"

/*
 * A thread's group set: with inheritance for the threads of a process at
 * attach, without for per-thread rows (where start and err are kept too).
 */
struct live_thread {
	int tid;
	/*
	 * first, in one cache line, what a tick reads of a thread it leaves
	 * unread (live_tasks_pick, live_sum_groups): a process's thread, read
	 * in turn, and its last reads
	 */
	bool pick;		  /* read in this tick's read of the process */
	bool rseen;		  /* read once at least: rtick, rns and ren hold */
	bool rated;		  /* rrun is known: it was read twice */
	bool keep_ok;		  /* keep stands: no group of it failed at that read */
	bool rr_ok;		  /* rr holds (below) */
	bool rr_clk;		  /* rr, rr0 are of its process's CPU clock, not its schedstat */
	unsigned long long rtick; /* l->tick of its last read */
	uint64_t rns, ren;	  /* that read's time and its gate group's enabled time, ns */
	double rrun;		  /* run time a ns between its last two reads */
	/*
	 * a process's thread: its groups' last reads, member by member in the
	 * order of the layout (err: the group's read)
	 */
	struct snap_count *keep;
	/*
	 * and what they added: per event (err: none), then per group its first
	 * member (the starving check's); NULL after a read that failed
	 */
	struct snap_count *csum;
	uint64_t keep_gate; /* its gate group's enabled time at that read */
	/*
	 * a thread of a process whose threads are read in turn: its run time
	 * (ns, the kernel's, from its schedstat) at its last read, while rr_ok,
	 * given by the reads since (live_thread_ran), and that file kept open
	 * (1 + fd; 0: none)
	 */
	uint64_t rr;
	int rfd;
	/* reads since its last schedstat read (LIVE_TASK_RUN_EVERY) */
	unsigned char rskip;
	bool rsure; /* this read reads its schedstat (live_thread_sure) */
	/* its ratio is taken anew at its next read: its last was read in full for a jump */
	bool rnew;
	/*
	 * this read's schedstat moved its ratio by more than a quarter, or its
	 * groups' time was over its run time (live_thread_ran)
	 */
	bool rmoved;
	/* that read's run time and its gate group's enabled time (ns) */
	uint64_t rr0, rr0_en;
	/* its gate group's enabled time a ns of run time between its last two (0: not known) */
	double ralpha;
	/*
	 * what it counted a ns between its last two reads, per event (value,
	 * enabled, running), then its run time a ns (live_thread_rates; owned)
	 */
	double *ra;
	unsigned long long start;
	int err;
	char state;		/* per-thread rows: the last stat read, for the row after exit */
	unsigned long long cpu; /* its utime + stime, clock ticks, from the same read */
	char comm[64];
	struct counters_group *g; /* one per task group definition */
	struct snap_count *cnt;	  /* per-thread rows: the counts of the last full read; owned */
	uint64_t gate;		  /* the enabled time of its gate group at that read */
	unsigned idle;		  /* ticks since, in which it did not run */
};

/*
 * What every thread of a process added at its last read (their csum
 * summed): a tick that reads a few of them starts from it, less what those
 * few added before. ok: it holds (every thread has its csum).
 */
struct live_tot {
	bool ok;
	struct snap_count *c; /* per event, then per group (live_thread.csum's layout) */
	size_t n;	      /* of c */
	uint64_t gate;	      /* their keep_gate summed */
};

/*
 * The task group definitions a set is opened with: every event (l->tg), or
 * the software ones alone (l->sw) for a process outside the hardware top.
 */
struct live_layout {
	const struct live_gdef *tg;
	size_t ntg;
	size_t set_fds; /* descriptors a set takes */
	int gate_set;	/* the group read first, whose enabled time gates the rest; -1: none */
	bool lite;
};

/* One thread's read of the gate group: kept, so the full read does not read it again. */
struct live_gread {
	int r;
	struct snap_count v[COUNTERS_MAX_GROUP]; /* by member */
};

/* A process counted with a group set per thread: live_proc.be. */
struct live_tasks_proc {
	size_t nthr;
	struct live_thread *thr;
	size_t ntt;
	struct live_thread *tt;	 /* sorted by tid; while per-thread rows are wanted */
	struct live_tsum *ctxsw; /* context switches from /proc, user mode only; owned */
	uint64_t clk;		 /* its CPU clock (ns) read before the last full read */
	bool clk_ok;		 /* clk holds it */
	uint64_t clk_now;	 /* the clock read this tick, before its counters */
	bool clk_now_ok;
	/*
	 * when clk_now was read, and when the clock was last read at clk (at
	 * its last read, or at its last tick whose clock stood): CLOCK_MONOTONIC
	 */
	uint64_t clk_ns, clk_now_ns;
	/* some threads did not fit the descriptors: the busiest are counted */
	bool partial;
	bool attach_split; /* its attach went on over more than one tick */
	int partial_why; /* -EMFILE: no descriptors for all; -EINPROGRESS: threads started during a split attach */
	size_t thr_all;	    /* threads it had at attach */
	uint64_t part_cpu0; /* its CPU time (ns) at attach */
	uint64_t part_max;  /* the most CPU time since attach seen in a stat read */
	uint64_t *part_raw; /* per event: the counted threads' enabled time at the last read */
	uint64_t *part_out; /* per event: the enabled time given at the last read */
	bool lite;	    /* opened with the software events only (not in the hardware top) */
	unsigned long long hw_cpu0; /* its CPU ticks at the last choice of the hardware top */
	uint64_t hw_clk0;	    /* and its CPU clock (ns), while hw_clk_ok */
	bool hw_clk_ok;
	uint64_t hw_busy; /* its CPU time in the choices' intervals, each half the one after (ns) */
	unsigned char hw_fresh; /* attached, not read with its clock since: reads left to wait */
	unsigned long long hw_base_tick; /* the tick that read took hw_clk0 */
	/* an attach in progress over several ticks: the threads still to open */
	int *todo;
	size_t ntodo, todo_i, want, gone;
	int attach_err; /* the last error of that attach */
	bool told_partial;
	/*
	 * more than LIVE_THR_WHOLE threads: a few of them read a tick while it
	 * runs (live_tasks_pick), the others' kept reads standing for theirs,
	 * and what they counted since guessed from the process's CPU clock and
	 * each one's last rate (live_tasks_est)
	 */
	unsigned long long updates; /* reads since the attach */
	bool skipped;		    /* this read left threads unread */
	bool est_ok;		    /* est holds */
	/* the run time (ns) the threads not read had since their last reads */
	double unread;
	/*
	 * per event x 3 (value, enabled, running): what the threads read
	 * counted, then [3 x events] the run time they counted it in, each
	 * tick's weighing LIVE_TASK_POOL as much as the one before (double);
	 * the counts given at the last read, then the reads' sums then (est)
	 */
	double *pool;
	/* their rates (live_thread.ra) summed, and summed each times its read's time from t0 */
	double *sa, *sb;
	long sn;   /* how many of those rates have a run time */
	bool more; /* the process has more threads than it has sets (started since the attach) */
	uint64_t t0;
	bool jumped;  /* this read reads every thread and its schedstat (live_tasks_jumped) */
	double jumps; /* reads in full for jumps, less 1 / LIVE_TASK_JUMP_EVERY a tick in turn */
	int taskfd;   /* its task directory, kept for the threads' schedstat (1 + fd; 0: none) */
	/* perf's enabled time and the kernel's run time of the threads read, pooled likewise */
	double alpha[2];
	uint64_t *est;
	struct live_tot tot;
	size_t *picks; /* the threads this tick reads (live_thread.pick), npick of them */
	size_t npick, pickcap;
	/* the one of them read in turn ((size_t)-1: none this tick) */
	size_t turn;
	/*
	 * the reads in turn one in pace ticks (0 or 1: every tick), pace_wait
	 * the ticks still to wait for the next (live_tasks_paced)
	 */
	unsigned pace, pace_wait;
};

/* The running time a guessed count takes when the guesses of running time ran ahead (ns). */
#define LIVE_TASK_NOMINAL_NS 1000
/* What a process's pool of counts per run time keeps of a tick at the next. */
#define LIVE_TASK_POOL 0.9
/* A thread read in turn reads its schedstat at one read in this many, its ratio known. */
#define LIVE_TASK_RUN_EVERY 4
/* The least ratio of perf's time to the kernel's a thread's run time is taken by. */
#define LIVE_TASK_RATIO_MIN 0.05
/*
 * A process whose threads ran this many times what their rates make, and
 * LIVE_TASK_JUMP_NS more, between its last two clock reads, is read in full.
 */
#define LIVE_TASK_JUMP 2.0
#define LIVE_TASK_JUMP_NS 1000000
/*
 * Reads in full for jumps: LIVE_TASK_JUMP_MOST at once (a change of work
 * takes two: the rates of the first are of spans mostly of before), and
 * one more each LIVE_TASK_JUMP_EVERY ticks in turn in which the process
 * ran, so that one whose run time comes in bursts costs no more than that.
 */
#define LIVE_TASK_JUMP_MOST 2.0
#define LIVE_TASK_JUMP_EVERY 16
/*
 * Reads in turn one in LIVE_TASK_PACE_MOST ticks at most, while each
 * thread read counted, a ns of its running time, what it did at its read
 * before within LIVE_TASK_PACE_TOL of it and three times the square root of
 * the count (counts below LIVE_TASK_PACE_MIN both are not weighed: switches
 * and migrations of a thread scatter by more than that)
 */
#define LIVE_TASK_PACE_MOST 4
#define LIVE_TASK_PACE_TOL 0.25
#define LIVE_TASK_PACE_MIN 100.0
/* and while the process ran what its threads' rates make within this part and ns */
#define LIVE_TASK_PACE_RUN_TOL 0.25
#define LIVE_TASK_PACE_SLACK_NS 200000
/*
 * Processes of LIVE_THR_WHOLE threads or fewer are read at the pace too,
 * all their threads at once or none, while at least this many processes
 * ran a tick (live_opts.pace_few_from), until fewer than half as many do:
 * where hundreds of processes run every tick, their group reads cost more
 * than all that top reads of them; a few processes are read every tick.
 */
#define LIVE_TASK_PACE_FROM 128

/*
 * Whether processes of few threads are read at the pace next tick, on now
 * or not, ran of them having run this tick: on at from, off below half of it.
 */
static inline bool live_pace_few_next(bool on, size_t ran, unsigned from)
{
	return ran >= from || (on && 2 * ran >= from);
}
/* The sums of the threads' rates are made anew at reads this many apart, against rounding. */
#define LIVE_TASK_RESUM 256

/* A read of a process's sets this much slower than twice the usual was interrupted (ns). */
#define LIVE_READ_SLACK_NS 200000

/* p's per-task state, made on first use (a process new to the backend has none). */
static inline struct live_tasks_proc *live_tasks_of(struct live_proc *p)
{
	if (!p->be)
		p->be = xcalloc(1, sizeof(struct live_tasks_proc));
	return p->be;
}

/* The group definitions of a set: every event, or the software ones (lite). */
struct live_layout live_ly(const struct live *l, bool lite);
/*
 * Open every task group of layout lite on thread tid into *out (owned by the
 * caller, closed with live_close_groups); 0 or -errno with nothing left open
 * (-EMFILE without trying when the budget would be passed).
 */
int live_open_groups(struct live *l, struct counters_group **out, int tid, unsigned flags,
		     bool lite);
/* Close a thread's group set (either layout), free it and set *g NULL; NULL is a no-op. */
void live_close_groups(struct live *l, struct counters_group **g);
/* Close a process thread's group set and let its kept reads go. */
void live_close_thread(struct live *l, struct live_thread *t);
/*
 * Open p's counters: a set per thread, within the budget (l->reserve kept for
 * the processes after it), until l->attach_until. 0; LIVE_UNATTACHED when the
 * slice ran out (it goes on next tick); -errno with nothing open.
 */
int live_attach(struct live *l, struct live_proc *p, const struct proc_stat *st);
/* Give up an attach in progress: its sets closed, its list freed. */
void live_attach_drop(struct live *l, struct live_tasks_proc *tp);
/*
 * Sum the reads of the sets of thr[0..nthr) (layout ly) into counts c, the
 * gate group's enabled time into *gate; stash: the gate reads live_idle kept
 * for this process stand for the gate group's. keep: each thread's reads are
 * kept (thr[].keep), and a thread whose gate group was enabled no longer
 * since is not read beyond its gate group, nor one not picked
 * (thr[].pick) at all: its kept reads stand.
 */
void live_sum_groups(struct live *l, const struct live_layout *ly, struct live_thread *thr,
		     size_t nthr, struct snap_count *c, bool stash, uint64_t *gate, bool keep);
/*
 * The same for a process's threads tp->thr, their reads kept: where
 * tp->tot holds, only the threads picked (tp->picks) are looked at, the
 * others' last reads standing in tp->tot; else every thread, and tp->tot
 * is made anew.
 */
void live_sum_proc(struct live *l, const struct live_layout *ly, struct live_tasks_proc *tp,
		   struct snap_count *c, bool stash, uint64_t *gate);
/* A partial process's counts c (nev) scaled up to the CPU time the whole process had. */
void live_partial_scale(struct live_tasks_proc *tp, const struct proc_stat *st,
			struct snap_count *c, size_t nev);

/*
 * live_idle.c: whether counted process p has not run since its last full
 * read (its last counts then stand); clock_only: by its CPU clock alone.
 */
bool live_idle(struct live *l, struct live_proc *p, bool clock_only);
/*
 * Keep counts c read in full in *cnt (owned), and gate in *keep_gate, for the
 * ticks the task does not run; none when a set did not read.
 */
void live_keep_counts(const struct live *l, const struct snap_count *c, struct snap_count **cnt,
		      uint64_t *keep_gate, uint64_t gate);

/* live_threads.c: per-thread rows (-H, or the focused process). */
/* Add a row per thread of p to snap, each thread with a set of its own. */
void live_fill_threads(struct live *l, struct live_proc *p, struct snapshot *snap);
/* Close the sets of p's thread rows and forget them. */
void live_close_tthreads(struct live *l, struct live_tasks_proc *tp);

/*
 * live_policy.c, after a tick: split a task group that was enabled and never
 * ran for LIVE_STARVED_TICKS ticks (it cannot get its counters), and reattach.
 */
void live_check_starved(struct live *l);
/*
 * After a tick, every LIVE_HWTOP_TICKS while limited: choose again by CPU
 * time which processes count hardware events, with hysteresis; a process
 * that changes is attached again next tick. After any tick that left
 * processes waiting for descriptors: the least busy give theirs up.
 */
void live_hw_top(struct live *l);

#endif
