/* Live source, BPF: process and thread counts from the context-switch program, no task groups. */
#include "config.h"
#include "collect/live.h"
#include "kernel/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/* bpfcount's steps are told as facts under the same numbers */
_Static_assert((int)FACT_BPF_NOT_BUILT == (int)BPFCOUNT_NOT_BUILT &&
		       (int)FACT_BPF_MAP == (int)BPFCOUNT_MAP &&
		       (int)FACT_BPF_LOAD == (int)BPFCOUNT_LOAD &&
		       (int)FACT_BPF_TEST_RUN == (int)BPFCOUNT_TEST_RUN &&
		       (int)FACT_BPF_READ == (int)BPFCOUNT_READ &&
		       (int)FACT_BPF_KERNEL == (int)BPFCOUNT_KERNEL,
	       "fact_bpf_step and bpfcount_step differ");

/* A thread row's state: what its last stat said, and its sums when first seen (its zero). */
struct live_bpf_thr {
	int tid;
	unsigned long long start;
	char state;
	unsigned long long cpu; /* utime + stime, clock ticks */
	char comm[64];
	uint64_t *zero; /* nev x BPFPROG_FIELDS */
	int statfd;	/* its stat file kept open for a pread a tick; -1: none */
	uint64_t *last; /* its sums at the last tick its rows were made (zeros: no entry) */
	unsigned long long read_tick; /* the tick its stat was last read (l->tick) */
};

/* A process counted by the program: live_proc.be. */
struct live_bpf_proc {
	uint64_t *zero; /* its sums when first seen, nev x BPFPROG_FIELDS; NULL: none yet */
	bool wanted;	/* named in the program's table of processes whose threads it sums */
	int want_err;	/* why it could not be named (the table full), until want_retry */
	unsigned long long want_retry;
	unsigned long long tick;  /* the tick of its last full read (l->tick) */
	struct live_bpf_thr *thr; /* its thread rows, sorted by tid */
	size_t nthr;
	bool thr_open;	/* every row's stat file kept open: the listing may be skipped */
	uint64_t *last; /* its sums at the last tick its thread rows were made */
	/* its leader thread's stat as read for its row at tick lead_tick, for the leader's row */
	struct proc_stat lead;
	unsigned long long lead_tick;
	/* its CPU time: cpu_base clock ticks when its sums' enabled time was gate_base */
	bool cpu_ok;
	unsigned long long cpu_base;
	uint64_t gate_base;
};

static struct live_bpf_proc *live_bpf_of(struct live_proc *p)
{
	if (!p->be)
		p->be = xcalloc(1, sizeof(struct live_bpf_proc));
	return p->be;
}

/*
 * The fact that BPF does not count: asked for, or chosen by auto; what counts is said later.
 * num is the CPU of the step, or for FACT_BPF_EVENTS how many events were asked.
 */
static void live_bpf_fact(struct live *l, struct fact *f, enum fact_bpf_step step, int err,
			  const char *name, long long num)
{
	fact_set(f, FACT_BPF, err, name, l->paranoid);
	f->way.step = step;
	if (step == FACT_BPF_EVENTS)
		f->way.events = num;
	else
		f->way.cpu = num;
	f->way.asked = l->o.task_counts == LIVE_COUNTS_BPF;
}

/* Why the program does not count, told once the way that does is chosen. */
static void live_bpf_decline(struct live *l, enum fact_bpf_step step, int err, const char *name,
			     long long num)
{
	struct fact f;

	live_bpf_fact(l, &f, step, err, name, num);
	live_backend_declined(l, &f);
}

/*
 * Whether the program may count, before anything is tried: asked for, it
 * is tried whatever the capabilities (the kernel's refusal is the fact);
 * chosen by auto, not where it is not permitted (said), nor for a fixture
 * /proc or a fake kernel, whose processes are not this kernel's (silently).
 */
static bool live_bpf_wanted(struct live *l)
{
	int r;

	if (l->o.task_counts == LIVE_COUNTS_BPF)
		return true;
	if (l->o.task_counts != LIVE_COUNTS_AUTO || l->o.no_tasks)
		return false;
	r = sysops_may_bpf(l->ops);
	if (r == -ENOSYS)
		return false;
	if (r <= 0) {
		live_bpf_decline(l, FACT_BPF_PERM, r < 0 ? r : -EPERM, NULL, 0);
		return false;
	}
	/* the program would count this kernel's tasks, not a fixture's or a fake's */
	if ((l->o.proc_root && strcmp(l->o.proc_root, "/proc")) || l->o.ops)
		return false;
	/* PMCTOP_SIM_GROUPS measures the cost of per-task groups: it needs them (silently) */
	if (l->sim_groups)
		return false;
	return true;
}

/* Load the program for every event opened, or say why not (0 with l->bpf NULL). */
static void live_bpf_init(struct live *l)
{
	const struct perf_event_attr *attrs[BPFPROG_MAX_EVENTS];
	const struct evlist *ev = &l->base.ev;
	struct bpfcount_why why;
	int nev = 0, r;

	if (!live_bpf_wanted(l))
		return;
	if (l->o.no_tasks) {
		/* --cgroups with -b or --listen: no process is counted, so nothing is summed */
		live_bpf_decline(l, FACT_BPF_NO_PROCS, 0, NULL, 0);
		return;
	}
	if (l->hybrid) {
		live_bpf_decline(l, FACT_BPF_HYBRID, -EOPNOTSUPP, NULL, 0);
		return;
	}
	for (size_t i = 0; i < ev->n; i++)
		nev += live_opens(l, i);
	if (nev > BPFPROG_MAX_EVENTS) {
		live_bpf_decline(l, FACT_BPF_EVENTS, -E2BIG, NULL, nev);
		return;
	}
	if (!nev)
		return; /* nothing is counted per process: nothing to sum */
	l->bpf_ev = xcalloc((size_t)nev, sizeof(*l->bpf_ev));
	nev = 0;
	/* one core PMU (a hybrid machine was refused): the events as encoded */
	for (size_t i = 0; i < ev->n; i++)
		if (live_opens(l, i)) {
			attrs[nev] = &l->attr[i];
			l->bpf_ev[nev++] = (int)i;
		}
	if (cpumap_online(&l->online, l->ops, l->o.sysfs_root, l->rootfd) || !l->online.n) {
		live_bpf_decline(l, FACT_BPF_POSSIBLE, -ENOENT, NULL, 0);
		goto out_free;
	}
	r = bpfcount_open(&l->bpf, l->ops, l->o.sysfs_root, attrs, nev, l->online.cpu, l->online.n,
			  &why);
	if (r) {
		bool evs = why.step == BPFCOUNT_EVENT || why.step == BPFCOUNT_ARRAY;

		live_bpf_decline(l, (enum fact_bpf_step)why.step, why.err,
				 evs && why.ev >= 0 ? ev->ev[l->bpf_ev[why.ev]].name : why.log,
				 why.cpu);
		goto out_free;
	}
	l->bpf_nev = nev;
	l->fds_open += bpfcount_fds(l->bpf);
	return;
out_free:
	free(l->bpf_ev);
	l->bpf_ev = NULL;
}

/* A read this much slower than twice the last one was interrupted (ns). */
#define LIVE_BPF_READ_SLACK_NS 200000

/* Whether the program sums every process's threads (-H, nothing filtered): none is named. */
static bool live_bpf_all_wanted(const struct live *l)
{
	return l->all_threads && !l->o.npids && !l->o.by_uid;
}

static void live_bpf_read(struct live *l)
{
	struct bpfcount_why why;
	int r;

	if (!l->bpf)
		return;
	/*
	 * every process's threads summed by tid while -H is on and nothing is
	 * filtered; else those whose rows are shown, named one by one
	 */
	bpfcount_want_all(l->bpf, live_bpf_all_wanted(l));
	/* the keys before this read: an entry not among them was made since */
	l->bpf_prev_ok = l->bpf_read_ns && !l->bpf_err;
	if (l->bpf_prev_ok) {
		size_t n;
		const int *keys = bpfcount_keys(l->bpf, &n);

		l->bpf_prev = xgrow(l->bpf_prev, &l->bpf_prevcap, n + 1, sizeof(*l->bpf_prev));
		if (n)
			memcpy(l->bpf_prev, keys, n * sizeof(*keys));
		l->nbpf_prev = n;
	}
	/*
	 * The sums are of some moment between t0 and t1. pmctop preempted
	 * there (a loaded machine) lets the processes run on: a time taken
	 * after that is later than the counts, and the next interval's rate too
	 * high. A read much slower than the last was interrupted: read again
	 * (once; a read as slow is taken as the new usual time).
	 */
	for (int tries = 0;; tries++) {
		uint64_t t0 = sysops_now(l->ops), t1;

		r = bpfcount_read(l->bpf, &why);
		t1 = sysops_now(l->ops);
		l->bpf_read_ns = t0 + (t1 - t0) / 2;
		if (r || tries || t1 - t0 <= 2 * l->bpf_read_dur + LIVE_BPF_READ_SLACK_NS) {
			l->bpf_read_dur = t1 - t0;
			break;
		}
	}
	l->bpf_err = r;
	if (r && !l->told_bpf_read) {
		struct fact f;

		l->told_bpf_read = true;
		live_bpf_fact(l, &f, FACT_BPF_READ, r, NULL, 0);
		live_tell(l, &f);
	}
}

/* The enabled time of the first event: it grows whenever the process runs. */
static uint64_t live_bpf_gate(const uint64_t *s)
{
	return s ? s[1] : 0;
}

/* Whether p has not run since its last full read (its sums did not move). */
static bool live_bpf_idle(struct live *l, struct live_proc *p, bool clock_only)
{
	if (p->err || !p->cnt || p->idle >= LIVE_IDLE_REFRESH || l->bpf_err || l->o.read_all)
		return false;
	if (live_bpf_gate(bpfcount_get(l->bpf, p->pid)) != p->gate)
		return false;
	p->idle++;
	return true;
}

/*
 * Take what an entry (s, NULL: none) holds now as its zero in *zero. The
 * entry may hold the sums of an exited process or thread whose id this one
 * reuses, or counts from before it was listed: per task, counting starts at
 * the attach, when the task is first seen, so a first row never shows more
 * than since then.
 */
static void live_bpf_base(struct live *l, uint64_t **zero, const uint64_t *s)
{
	size_t n = (size_t)l->bpf_nev * BPFPROG_FIELDS;

	if (!*zero)
		*zero = xcalloc(n ? n : 1, sizeof(**zero));
	for (size_t k = 0; k < n; k++)
		(*zero)[k] = s ? s[k] : 0;
}

/*
 * Counts c (one per event) of an entry s since its zero, taken now when it
 * has none; an entry below its zero was dropped and begun again: it counts
 * from 0.
 */
static void live_bpf_counts(struct live *l, uint64_t **zero, const uint64_t *s,
			    struct snap_count *c)
{
	size_t nf = (size_t)l->bpf_nev * BPFPROG_FIELDS;

	if (!l->bpf_err) {
		bool behind = false;

		for (size_t k = 0; *zero && k < nf; k++)
			behind |= (s ? s[k] : 0) < (*zero)[k];
		if (!*zero)
			live_bpf_base(l, zero, s);
		else if (behind)
			live_bpf_base(l, zero, NULL);
	}
	for (int j = 0; j < l->bpf_nev; j++) {
		struct snap_count *d = &c[l->bpf_ev[j]];
		const uint64_t *b = *zero ? &(*zero)[j * BPFPROG_FIELDS] : NULL;
		uint64_t v[BPFPROG_FIELDS];

		/* no entry: it has not run since counting began */
		for (int f = 0; f < BPFPROG_FIELDS; f++)
			v[f] = (s ? s[j * BPFPROG_FIELDS + f] : 0) - (b ? b[f] : 0);
		d->err = l->bpf_err;
		d->value = v[0];
		d->enabled = v[1];
		d->running = v[2];
	}
}

/*
 * Fill p's counts from its sums, kept with the enabled time of the first
 * event as the gate of the idle skip; the time of the row is the read's.
 */
static void live_bpf_fill(struct live *l, struct live_proc *p, const struct proc_stat *st,
			  const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns)
{
	struct live_bpf_proc *bp = live_bpf_of(p);
	const uint64_t *s = bpfcount_get(l->bpf, p->pid);

	/*
	 * First seen with an entry the read before did not have: the entry was
	 * made since, at the first switch of a process forked since (found by
	 * its key, a tick after it began) or of one that had not run since
	 * counting began, so all of it is this process's: counted whole
	 */
	if (!bp->zero && s && l->bpf_prev_ok && !l->bpf_err &&
	    !bsearch(&p->pid, l->bpf_prev, l->nbpf_prev, sizeof(int), proc_cmp_int))
		live_bpf_base(l, &bp->zero, NULL);
	live_bpf_counts(l, &bp->zero, s, c);
	bp->tick = l->tick;
	/* kept for the ticks it does not run: neither its stat nor its sums move then */
	live_keep_all(l, p, c, l->bpf_err != 0);
	if (p->cnt)
		p->gate = live_bpf_gate(s);
	*t_ns = l->bpf_read_ns;
}

/*
 * p's CPU time for a read of its leader's stat, which counts the leader's
 * alone: the time of the last read of the process's own file (full: st is
 * one, taken as it is), plus the time its threads have run since by its sums
 * (their enabled time grows by each slice a thread runs, to the ns). Sums
 * begun again (p's entry dropped and made anew) count on from the last time
 * given.
 */
static bool live_bpf_cpu_time(struct live *l, struct live_proc *p, struct proc_stat *st, bool full)
{
	struct live_bpf_proc *bp = live_bpf_of(p);
	uint64_t gate, tick_ns = live_ticks_ns(1);
	const uint64_t *s;

	/* the leader's own stat, read for p's row this tick: its thread row needs no read of it */
	if (!full) {
		bp->lead = *st;
		bp->lead_tick = l->tick;
	}
	bp->cpu_ok &= !l->bpf_err;
	if (l->bpf_err || !tick_ns)
		return false;
	s = bpfcount_get(l->bpf, p->pid);
	gate = live_bpf_gate(s);
	/*
	 * no entry (the table full, or a task of a nested PID namespace, which
	 * the program keys 0): its threads' time is nowhere, read the kernel's
	 */
	if (!s && !full)
		return false;
	if (full) {
		bp->cpu_ok = true;
		bp->cpu_base = st->cpu;
		bp->gate_base = gate;
		/*
		 * the sums run ahead of the kernel's time (the stat is read after
		 * them; their clock takes in IRQ and steal time): TIME+ holds
		 * until the kernel's catches up, never going back
		 */
		if (st->cpu < p->last.cpu && p->start == st->start)
			st->cpu = p->last.cpu;
		return true;
	}
	if (!bp->cpu_ok)
		return false;
	if (gate < bp->gate_base) {
		bp->cpu_base = p->last.cpu;
		bp->gate_base = 0;
	}
	st->cpu = bp->cpu_base + (gate - bp->gate_base) / tick_ns;
	if (st->cpu < p->last.cpu)
		st->cpu = p->last.cpu;
	return true;
}

/* Keep tid among the threads whose rows this tick shows: their sums are not swept. */
static void live_bpf_seen(struct live *l, int tid)
{
	l->bpf_tseen =
		xgrow(l->bpf_tseen, &l->bpf_tseencap, l->nbpf_tseen + 1, sizeof(*l->bpf_tseen));
	l->bpf_tseen[l->nbpf_tseen++] = tid;
}

/*
 * The row of thread t of p: its sums since it was first seen, its stat as
 * last read; not counted while the program could not be told to sum p's
 * threads.
 */
static void live_bpf_row(struct live *l, const struct live_proc *p, struct live_bpf_thr *t,
			 struct snapshot *snap)
{
	const struct live_bpf_proc *bp = p->be;
	int err = bp && !bp->wanted && !live_bpf_all_wanted(l) ? bp->want_err : 0;
	struct snap_task *e =
		live_thread_row(l, p, t->tid, t->state, t->start, t->comm, t->cpu, err, snap);

	live_bpf_counts(l, &t->zero, bpfcount_thread(l->bpf, t->tid), e->c);
	for (size_t k = 0; err && k < l->base.ev.n; k++)
		e->c[k].err = err;
	e->t_ns = l->bpf_read_ns;
	live_bpf_seen(l, t->tid);
}

/* Descriptors kept for thread stat files leave this many for counters, cgroups and samples. */
#define LIVE_BPF_FD_RESERVE 256

static void live_bpf_close_thr(struct live *l, struct live_bpf_thr *t)
{
	if (t->statfd >= 0) {
		l->ops->close(l->ops->ctx, t->statfd);
		l->fds_open--;
	}
	t->statfd = -1;
}

/* Keep t's stat file open where descriptors are to spare (the path read is 4 system calls). */
static void live_bpf_keep_thr(struct live *l, int pid, struct live_bpf_thr *t)
{
	char path[64];

	if (t->statfd >= 0 || l->fds_open + 1 + LIVE_BPF_FD_RESERVE > l->fd_budget)
		return;
	snprintf(path, sizeof(path), "%d/task/%d/stat", pid, t->tid);
	t->statfd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
	if (t->statfd >= 0)
		l->fds_open++;
	else
		t->statfd = -1;
}

static void live_bpf_free_thr(struct live *l, struct live_bpf_proc *bp)
{
	for (size_t i = 0; i < bp->nthr; i++) {
		live_bpf_close_thr(l, &bp->thr[i]);
		free(bp->thr[i].zero);
		free(bp->thr[i].last);
	}
	free(bp->thr);
	bp->thr = NULL;
	bp->nthr = 0;
}

/* p's threads are no longer shown: the program stops summing them, and their sums go. */
static void live_bpf_unwant(struct live *l, struct live_proc *p)
{
	struct live_bpf_proc *bp = p->be;

	if (!bp || !l->bpf)
		return;
	if (bp->wanted)
		bpfcount_want(l->bpf, p->pid, false);
	bp->wanted = false;
	for (size_t i = 0; i < bp->nthr; i++)
		bpfcount_forget_thread(l->bpf, bp->thr[i].tid);
	live_bpf_free_thr(l, bp);
	free(bp->last);
	bp->last = NULL;
}

/*
 * Thread tid's stat (fd: its file kept open, or -1): the leader's is the one
 * read for p's own row this tick, where it was (the same file, read once).
 */
static int live_bpf_thr_stat(struct live *l, const struct live_proc *p,
			     const struct live_bpf_proc *bp, int tid, int fd, struct proc_stat *st)
{
	if (tid == p->pid && bp->lead_tick == l->tick) {
		*st = bp->lead;
		return 0;
	}
	if (fd >= 0)
		return live_pread_stat(l, fd, st);
	return proc_read_stat(l->rootfd, p->pid, tid, st);
}

/* Keep what p's and its rows' sums are now, to tell next tick which rows' threads ran. */
static void live_bpf_remember(struct live *l, const struct live_proc *p, struct live_bpf_proc *bp)
{
	live_bpf_base(l, &bp->last, bpfcount_get(l->bpf, p->pid));
	for (size_t i = 0; i < bp->nthr; i++)
		live_bpf_base(l, &bp->thr[i].last, bpfcount_thread(l->bpf, bp->thr[i].tid));
}

/*
 * Whether every move of p's sums since its rows were last made is a move of
 * its rows' own sums: then no thread outside the rows ran (one come since,
 * or one whose last slice after its exit went to the process alone), and a
 * row whose sums did not move is of a thread that has not run. The sums of
 * p and of its threads are read apart, so a switch between the two reads
 * also says no: its rows are then all read.
 */
static bool live_bpf_rows_whole(struct live *l, const struct live_proc *p,
				const struct live_bpf_proc *bp)
{
	size_t nf = (size_t)l->bpf_nev * BPFPROG_FIELDS;
	uint64_t d[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS];
	const uint64_t *s = bpfcount_get(l->bpf, p->pid);

	if (l->bpf_err || !bp->last || !s || nf > sizeof(d) / sizeof(*d))
		return false;
	for (size_t k = 0; k < nf; k++)
		d[k] = s[k] - bp->last[k];
	for (size_t i = 0; i < bp->nthr; i++) {
		const struct live_bpf_thr *t = &bp->thr[i];
		const uint64_t *ts = bpfcount_thread(l->bpf, t->tid);

		if (!t->last)
			return false;
		for (size_t k = 0; k < nf; k++)
			d[k] -= (ts ? ts[k] : 0) - t->last[k];
	}
	for (size_t k = 0; k < nf; k++)
		if (d[k])
			return false;
	return true;
}

/*
 * Whether row t's thread has not run since its rows were last made (its
 * sums did not move), its stat read within LIVE_IDLE_REFRESH ticks (a name
 * written to its comm file from outside); never with --read-all.
 */
static bool live_bpf_thr_idle(struct live *l, const struct live_bpf_thr *t)
{
	size_t nf = (size_t)l->bpf_nev * BPFPROG_FIELDS;
	const uint64_t *ts = bpfcount_thread(l->bpf, t->tid);

	if (!t->last || l->tick - t->read_tick >= LIVE_IDLE_REFRESH || l->o.read_all)
		return false;
	for (size_t k = 0; k < nf; k++)
		if ((ts ? ts[k] : 0) != t->last[k])
			return false;
	return true;
}

/*
 * p's thread rows from the stat files kept open, without listing its
 * threads: only while every row has its file, no read fails (a thread that
 * died reads ESRCH) and p's stat counts as many threads as there are rows,
 * so that no thread can have come. A row whose thread has not run since
 * the last tick, while no thread outside the rows ran, keeps its stat
 * unread (its state, CPU time and name as last read) for up to
 * LIVE_IDLE_REFRESH ticks: to die or to be stopped, a thread runs. false:
 * list them.
 */
static bool live_bpf_threads_kept(struct live *l, struct live_proc *p, struct live_bpf_proc *bp,
				  struct snapshot *snap)
{
	struct proc_stat st;
	bool whole;

	if (!bp->thr || !bp->thr_open || (size_t)p->last.threads != bp->nthr)
		return false;
	if (l->nkept < bp->nthr) {
		free(l->kept);
		l->kept = xcalloc(bp->nthr, sizeof(*l->kept));
		l->nkept = bp->nthr;
	}
	whole = live_bpf_rows_whole(l, p, bp);
	for (size_t i = 0; i < bp->nthr; i++) {
		const struct live_bpf_thr *t = &bp->thr[i];

		if (whole && t->tid != p->pid && live_bpf_thr_idle(l, t)) {
			/* not read: pid 0 marks it */
			memset(&st, 0, sizeof(st));
			st.state = t->state;
			st.cpu = t->cpu;
			snprintf(st.comm, sizeof(st.comm), "%s", t->comm);
		} else if (live_bpf_thr_stat(l, p, bp, t->tid, t->statfd, &st) ||
			   st.start != t->start) {
			return false;
		}
		l->kept[i] = st;
	}
	for (size_t i = 0; i < bp->nthr; i++) {
		struct live_bpf_thr *t = &bp->thr[i];

		if (l->kept[i].pid)
			t->read_tick = l->tick;
		t->state = l->kept[i].state;
		t->cpu = l->kept[i].cpu;
		snprintf(t->comm, sizeof(t->comm), "%s", l->kept[i].comm);
		live_bpf_row(l, p, t, snap);
	}
	live_bpf_remember(l, p, bp);
	return true;
}

/*
 * p's thread rows: each thread's sums by tid since its row began (the
 * program sums them from the switch after p is wanted). A thread gone since
 * the last tick is shown once more with what it counted, so that the rows
 * add up to the process's; a process that did not run shows its last rows
 * without its threads being listed again.
 */
static void live_bpf_threads(struct live *l, struct live_proc *p, struct snapshot *snap, bool want)
{
	struct live_bpf_proc *bp;
	struct live_bpf_thr *next;
	size_t nn = 0, old = 0;
	char path[64];
	long n;

	if (!want) {
		live_bpf_unwant(l, p);
		return;
	}
	if (!l->bpf || p->err || p->skip)
		return;
	bp = live_bpf_of(p);
	/*
	 * named, unless every process's threads are summed; the table full
	 * (BPFPROG_MAX_WANTED), its rows are not counted and the naming is tried
	 * again LIVE_RETRY_TICKS later, not each tick
	 */
	if (!bp->wanted && !live_bpf_all_wanted(l) && l->tick >= bp->want_retry) {
		int r = bpfcount_want(l->bpf, p->pid, true);

		bp->wanted = r == 0;
		bp->want_err = r == -E2BIG || r == -ENOSPC ? LIVE_BPF_NO_ROOM : r;
		bp->want_retry = r ? l->tick + LIVE_RETRY_TICKS : 0;
	}
	if (bp->thr && bp->tick != l->tick) {
		for (size_t i = 0; i < bp->nthr; i++)
			live_bpf_row(l, p, &bp->thr[i], snap);
		return;
	}
	if (live_bpf_threads_kept(l, p, bp, snap))
		return;
	snprintf(path, sizeof(path), "%d/task", p->pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0)
		n = 0;
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		int tid = l->tids[i];
		struct live_bpf_thr *t = &next[nn];
		struct proc_stat st;

		while (old < bp->nthr && bp->thr[old].tid < tid) {
			/* gone: once more with its last sums */
			bp->thr[old].state = 'X';
			live_bpf_row(l, p, &bp->thr[old], snap);
			live_bpf_close_thr(l, &bp->thr[old]);
			free(bp->thr[old].last);
			free(bp->thr[old++].zero);
		}
		t->statfd = -1;
		if (old < bp->nthr && bp->thr[old].tid == tid) {
			struct live_bpf_thr *o = &bp->thr[old++];

			/* its own file, if kept: a thread that died reads ESRCH, whoever took its tid */
			if (o->statfd >= 0 && live_bpf_thr_stat(l, p, bp, tid, o->statfd, &st))
				live_bpf_close_thr(l, o);
			if (o->statfd < 0 && live_bpf_thr_stat(l, p, bp, tid, -1, &st)) {
				free(o->zero);
				free(o->last);
				continue;
			}
			/* the same thread, or a new one with its tid: that one starts from now */
			if (o->start == st.start) {
				*t = *o;
			} else {
				live_bpf_close_thr(l, o);
				free(o->zero);
				free(o->last);
			}
		} else if (live_bpf_thr_stat(l, p, bp, tid, -1, &st)) {
			continue;
		}
		t->tid = tid;
		t->read_tick = l->tick;
		live_bpf_keep_thr(l, p->pid, t);
		t->start = st.start;
		t->state = st.state;
		t->cpu = st.cpu;
		snprintf(t->comm, sizeof(t->comm), "%s", st.comm);
		live_bpf_row(l, p, t, snap);
		nn++;
	}
	while (old < bp->nthr) {
		bp->thr[old].state = 'X';
		live_bpf_row(l, p, &bp->thr[old], snap);
		live_bpf_close_thr(l, &bp->thr[old]);
		free(bp->thr[old].last);
		free(bp->thr[old++].zero);
	}
	free(bp->thr);
	bp->thr = next;
	bp->nthr = nn;
	bp->thr_open = true;
	for (size_t i = 0; i < nn; i++)
		bp->thr_open &= next[i].statfd >= 0;
	live_bpf_remember(l, p, bp);
}

/* Whether pid is in the last listing of /proc (all of it, whatever -p or -u keep). */
static bool live_bpf_listed(const struct live *l, int pid)
{
	return l->nids > 0 &&
	       bsearch(&pid, l->ids, (size_t)l->nids, sizeof(*l->ids), proc_cmp_int) != NULL;
}

/* Whether thread tid still exists, whatever process it is in (/proc/TID is there). */
static bool live_bpf_tid_alive(const struct live *l, int tid)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", tid);
	return faccessat(l->rootfd, name, F_OK, 0) == 0;
}

/*
 * Drop the sums of threads no row showed this tick nor the last one: gone,
 * or their process's rows no longer shown. While every process's threads
 * are summed (-H) a thread of a process not shown (a kernel thread) keeps
 * its sums while it lives: dropped, the program would make them again at
 * its next switch, a delete each tick.
 */
static void live_bpf_sweep_threads(struct live *l)
{
	const int *keys;
	size_t n, na = 0;
	int *absent;

	keys = bpfcount_tids(l->bpf, &n);
	if (l->nbpf_tseen)
		qsort(l->bpf_tseen, l->nbpf_tseen, sizeof(int), proc_cmp_int);
	absent = xcalloc(n + 1, sizeof(*absent));
	for (size_t k = 0; k < n; k++) {
		int tid = keys[k];

		if (l->nbpf_tseen &&
		    bsearch(&tid, l->bpf_tseen, l->nbpf_tseen, sizeof(int), proc_cmp_int))
			continue;
		if (!l->nbpf_tabsent ||
		    !bsearch(&tid, l->bpf_tabsent, l->nbpf_tabsent, sizeof(int), proc_cmp_int))
			absent[na++] = tid;
		else if (!l->all_threads || !live_bpf_tid_alive(l, tid))
			bpfcount_forget_thread(l->bpf, tid);
		else
			absent[na++] = tid;
	}
	free(l->bpf_tabsent);
	l->bpf_tabsent = absent;
	l->nbpf_tabsent = na;
	l->nbpf_tseen = 0;
}

/* Drop the sums of processes gone, after the scan. */
static void live_bpf_sweep(struct live *l)
{
	const int *keys;
	size_t n, na = 0;
	int *absent;

	if (!l->bpf || l->bpf_err)
		return;
	live_bpf_sweep_threads(l);
	keys = bpfcount_keys(l->bpf, &n);
	absent = xcalloc(n + 1, sizeof(*absent));
	/*
	 * An entry whose process /proc did not list is dropped when it was
	 * missing at the last read too: a process started between the scan and
	 * the read is not yet in the list, and keeps what it counted. Processes
	 * listed but not shown (-p, -u) keep theirs: dropped, the program would
	 * only make them again at their next switch.
	 */
	for (size_t k = 0; k < n; k++) {
		int pid = keys[k];

		/* pid 0: the idle tasks, never a row */
		if (pid == 0 || live_bpf_listed(l, pid))
			continue;
		if (l->nbpf_absent &&
		    bsearch(&pid, l->bpf_absent, l->nbpf_absent, sizeof(int), proc_cmp_int))
			bpfcount_forget(l->bpf, pid);
		else
			absent[na++] = pid;
	}
	free(l->bpf_absent);
	l->bpf_absent = absent;
	l->nbpf_absent = na;
}

static void live_bpf_free(struct live *l)
{
	if (l->bpf)
		l->fds_open -= bpfcount_fds(l->bpf);
	bpfcount_close(l->bpf);
	l->bpf = NULL;
	free(l->bpf_ev);
	free(l->bpf_absent);
	free(l->bpf_prev);
	free(l->bpf_tabsent);
	free(l->bpf_tseen);
	free(l->kept);
}

static void live_bpf_proc_free(struct live *l, struct live_proc *p)
{
	struct live_bpf_proc *bp = p->be;

	if (!bp)
		return;
	/* gone or renewed: a process that takes its pid is wanted again when its rows are shown */
	if (bp->wanted && l->bpf)
		bpfcount_want(l->bpf, p->pid, false);
	live_bpf_free_thr(l, bp);
	free(bp->zero);
	free(bp->last);
	free(bp);
	p->be = NULL;
}

/* The processes that ran since the program was loaded: the keys of its sums at the last read. */
static const int *live_bpf_keys(struct live *l, size_t *n, bool *full)
{
	static const int none[1];
	const int *keys;

	*n = 0;
	if (!l->bpf || l->bpf_err)
		return NULL;
	keys = bpfcount_keys(l->bpf, n);
	/* at BPFPROG_MAX_PROCS the program sums new processes into its spill, keyless */
	*full = *n >= BPFPROG_MAX_PROCS;
	return *n ? keys : none;
}

/* Load the program once the events are probed, or say why not (0: the next way is asked). */
static int live_bpf_choose(struct live *l, struct fact *why)
{
	(void)why;
	live_bpf_init(l);
	return l->bpf != NULL;
}

/*
 * First in auto where permitted: per CPU, it counts hardware events as
 * well as software ones, kernel threads and every process at the cost of a
 * program run per switch, with no descriptor per task.
 */
const struct live_backend LIVE_BE_BPF = {
	.name = "bpf",
	.when = LIVE_BE_AT_PROBE,
	.counts = FACT_COUNTS_BPF,
	.flags = LIVE_BE_NO_ATTACH,
	.init = live_bpf_choose,
	.tick_begin = live_bpf_read,
	.idle = live_bpf_idle,
	.fill = live_bpf_fill,
	.cpu_time = live_bpf_cpu_time,
	.threads = live_bpf_threads,
	.tick_end = live_bpf_sweep,
	.proc_free = live_bpf_proc_free,
	.free = live_bpf_free,
	.keys = live_bpf_keys,
};
