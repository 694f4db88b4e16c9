/* Live source, task counts from /proc: the kernel's own per-task counts, no per-task events. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/events.h"
#include "kernel/evspec.h"
#include "util/xalloc.h"

/*
 * The software events the kernel also keeps per task, whatever perf does:
 * a process's CPU clock (all its threads, dead ones too), the faults it
 * handled (/proc/PID/stat), and per thread the switches, migrations and
 * run time of /proc/PID/task/TID/sched. Read from there, the watched
 * processes pay nothing (no event is switched in and out with them), no
 * descriptor is held per thread and no perf permission is needed.
 */
enum live_pfs_kind {
	LIVE_PFS_NONE = 0,
	LIVE_PFS_CLOCK,	 /* task-clock: the process CPU clock */
	LIVE_PFS_FAULTS, /* page-faults: minflt + majflt */
	LIVE_PFS_MINFLT,
	LIVE_PFS_MAJFLT,
	LIVE_PFS_SWITCHES, /* context-switches: nvcsw + nivcsw, summed over threads */
	LIVE_PFS_MIGRATIONS,
};

/* A process's state counted from /proc: live_proc.be. */
struct live_pfs {
	bool based;		       /* the first read is taken: counting starts there */
	uint64_t t0;		       /* when (snapshot ns) */
	uint64_t clock0, clock;	       /* the CPU clock then, and at the last fill */
	unsigned long long min0, maj0; /* the faults then */
	uint64_t now;		       /* the clock live_procfs_idle read */
	unsigned long long now_tick;   /* in which tick (l->tick); 0: none */
	bool late;		       /* clock was read after the stat: not a baseline */
	uint64_t thr_clock;	       /* the clock when its threads were last read */
	unsigned long long ran_tick;   /* the last tick its clock moved in */
	struct live_tsum ts;	       /* its threads' switches, migrations, run time */
};

static enum live_pfs_kind live_pfs_kind_of(const struct perf_event_attr *a)
{
	if (a->type != PERF_TYPE_SOFTWARE)
		return LIVE_PFS_NONE;
	switch (a->config) {
	case PERF_COUNT_SW_TASK_CLOCK:
		return LIVE_PFS_CLOCK;
	case PERF_COUNT_SW_PAGE_FAULTS:
		return LIVE_PFS_FAULTS;
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		return LIVE_PFS_MINFLT;
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
		return LIVE_PFS_MAJFLT;
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		return LIVE_PFS_SWITCHES;
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		return LIVE_PFS_MIGRATIONS;
	default:
		return LIVE_PFS_NONE;
	}
}

/*
 * Whether event i counts every mode /proc's counts hold: /proc has one count
 * of user and kernel mode together, so a modifier that leaves a mode out
 * (:u, :k, exclude_idle, guest only) asks for what it cannot give. Encoded
 * again as where kernel mode may be counted: without that permission every
 * event excludes kernel mode, which the mode line says, and :u then looks
 * as the bare event does.
 */
static bool live_pfs_all_modes(struct live *l, size_t i)
{
	const char *name = l->base.ev.ev[i].name;
	struct perf_event_attr a;
	enum evspec_kind kind;
	bool hw;
	int r = evspec_encode(l->ops, l->o.sysfs_root, name, true, &a, &kind, &hw);

	return !r && !a.exclude_user && !a.exclude_kernel && !a.exclude_idle && !a.exclude_host &&
	       !l->attr[i].exclude_user && !l->attr[i].exclude_idle && !l->attr[i].exclude_host;
}

static int live_pfs_refuse(struct live *l, struct fact *why, enum fact_proc_step step, int err,
			   const char *name)
{
	bool asked = l->o.task_counts == LIVE_COUNTS_PROC;
	struct fact f;

	fact_set(&f, FACT_PROC_COUNTS, err, name, l->paranoid);
	f.way.step = step;
	f.way.asked = asked;
	if (asked) {
		*why = f;
		return err ? err : -EINVAL;
	}
	/*
	 * An event /proc does not keep is the usual case with a PMU: said only
	 * when BPF said why it does not count either, so the log tells why
	 * neither of the two ways before per-task events counts
	 */
	if ((step == FACT_PROC_EVENT || step == FACT_PROC_MODES) && !l->nbe_declined)
		return 0;
	live_backend_declined(l, &f);
	return 0;
}

/*
 * Whether processes are counted from /proc (1), after the events are
 * probed: not when an event is one /proc does not keep (0, silently), or
 * when the way is not there (0 with the fact; -errno with *why when asked).
 */
static int live_procfs_init(struct live *l, struct fact *why)
{
	const struct evlist *ev = &l->base.ev;
	bool asked = l->o.task_counts == LIVE_COUNTS_PROC, sched = false, mig = false;
	int *kind, r;
	uint64_t ns;

	/* asked for BPF: where it cannot count, per-task events, as before auto chose it */
	if (l->o.task_counts == LIVE_COUNTS_PERF || l->o.task_counts == LIVE_COUNTS_BPF ||
	    l->o.no_tasks)
		return 0;
	/*
	 * A fixture /proc with the real clocks: its pids are not this kernel's
	 * processes, so their CPU clocks are not theirs (a fake's clocks are)
	 */
	if (!asked && l->o.proc_root && strcmp(l->o.proc_root, "/proc") && !l->o.ops)
		return 0;
	/* PMCTOP_SIM_GROUPS measures the cost of per-task groups: it needs them */
	if (!asked && l->sim_groups)
		return 0;
	kind = xcalloc(ev->n + 1, sizeof(*kind));
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->ev[i].err)
			continue; /* not counted either way */
		kind[i] = live_pfs_kind_of(&l->attr[i]);
		if (kind[i] == LIVE_PFS_NONE) {
			/* per-task events it is: the usual way with a PMU */
			free(kind);
			return live_pfs_refuse(l, why, FACT_PROC_EVENT, -EOPNOTSUPP,
					       ev->ev[i].name);
		}
		if (!live_pfs_all_modes(l, i)) {
			/* per-task events count one mode alone exactly */
			free(kind);
			return live_pfs_refuse(l, why, FACT_PROC_MODES, -EOPNOTSUPP,
					       ev->ev[i].name);
		}
		sched |= kind[i] == LIVE_PFS_SWITCHES || kind[i] == LIVE_PFS_MIGRATIONS;
		mig |= kind[i] == LIVE_PFS_MIGRATIONS;
	}
	r = sysops_cpuclock(l->ops, getpid(), &ns);
	/* a table without the clock (a test's fake): per-task events, nothing to say */
	if (r == -ENOSYS && !asked) {
		free(kind);
		return 0;
	}
	/* ESRCH: a fake's processes are not this one; the clock is there */
	if (r && r != -ESRCH) {
		free(kind);
		return live_pfs_refuse(l, why, FACT_PROC_CLOCK, r, NULL);
	}
	/* switches alone: schedstat files have them where sched files are not written */
	l->tsum_mig = mig;
	if (sched && !live_tsum_switches_ok(l)) {
		free(kind);
		return live_pfs_refuse(l, why, FACT_PROC_SCHED, -ENOENT, NULL);
	}
	l->pfs_kind = kind;
	l->pfs_sched = sched;
	return 1;
}

/*
 * Whether some thread of f was last read before the process last ran: left
 * unread then (LIVE_THR_READS), it may hold counts not read yet.
 */
static bool live_pfs_unread(const struct live_pfs *f)
{
	return f->ts.skipped && f->ts.oldest < f->ran_tick;
}

/* Whether p has not run since its last full read: its CPU clock did not move. */
static bool live_procfs_idle(struct live *l, struct live_proc *p, bool clock_only)
{
	struct live_pfs *f;
	uint64_t clk;

	if (p->err)
		return false;
	if (!p->be)
		p->be = xcalloc(1, sizeof(*f));
	f = p->be;
	/*
	 * Read before its stat on every tick, read in full or not: the fill
	 * takes this read as the clock its counts go with, so a fault after the
	 * stat read moves the next tick's clock and is seen then
	 */
	if (sysops_cpuclock(l->ops, p->pid, &clk))
		return false; /* its stat read tells whether it is gone */
	/* kept for the fill of this tick: one clock read a process a tick */
	f->now = clk;
	f->now_tick = l->tick;
	/*
	 * a thread gone while as many remain: one came that no listing has
	 * seen, maybe asleep since, so the clock alone would not tell; threads
	 * left unread (LIVE_THR_READS): they may have run before the last read
	 */
	if (!p->cnt || p->idle >= LIVE_IDLE_REFRESH || l->o.read_all || f->late ||
	    clk != f->clock || f->ts.relist || live_pfs_unread(f))
		return false;
	p->idle++;
	return true;
}

/* Whether p's thread rows are wanted. */
static bool live_pfs_rows(const struct live *l, const struct live_proc *p)
{
	return l->all_threads || l->focus == p->pid;
}

/* Whether some thread of ts lacks the stat read its row needs. */
static bool live_pfs_need_stat(const struct live_tsum *ts)
{
	if (!ts->read)
		return true;
	for (size_t i = 0; i < ts->nthr; i++)
		if (!ts->thr[i].stat)
			return true;
	return false;
}

/* Fill p's counts into c, st its stat read this tick at t_ns. */
static void live_procfs_count(struct live *l, struct live_proc *p, const struct proc_stat *st,
			      uint64_t t_ns, struct snap_count *c)
{
	size_t nev = l->base.ev.n;
	struct live_pfs *f;
	uint64_t clk;
	bool rows;
	int r, terr = 0;

	if (!p->be)
		p->be = xcalloc(1, sizeof(*f));
	f = p->be;
	/*
	 * Without a read before its stat (a process new this tick), the clock
	 * read now may hold what the stat does not: the next tick reads in full
	 */
	f->late = f->now_tick != l->tick;
	r = !f->late ? (clk = f->now, 0) : sysops_cpuclock(l->ops, p->pid, &clk);
	f->now_tick = 0;
	if (r) {
		for (size_t e = 0; e < nev; e++)
			if (l->pfs_kind[e])
				c[e].err = r == -ESRCH ? -ESRCH : r;
		free(p->cnt);
		p->cnt = NULL;
		return;
	}
	if (!f->based) {
		f->based = true;
		f->ts.keep = true;
		f->t0 = t_ns;
		f->clock0 = f->clock = clk;
		f->min0 = st->minflt;
		f->maj0 = st->majflt;
	}
	if (clk > f->clock) {
		f->clock = clk;
		f->ran_tick = l->tick;
	}
	rows = live_pfs_rows(l, p);
	/*
	 * Threads are read only when the process ran since they were last: a
	 * thread that did not run neither switched nor migrated; or when one
	 * was gone while as many remained (one came that no listing saw), or
	 * some were left unread after it last ran
	 */
	if ((l->pfs_sched || rows) &&
	    (!f->ts.read || f->clock != f->thr_clock || f->ts.relist || live_pfs_unread(f) ||
	     (rows && live_pfs_need_stat(&f->ts)))) {
		uint64_t prev = f->ts.last_ns, lost = f->ts.lost_ns;

		/* thread rows read every thread; a process row of many, LIVE_THR_READS a tick */
		f->ts.budget = rows || l->o.read_all ? 0 : LIVE_THR_READS;
		terr = live_tsum_update(l, &f->ts, p->pid, t_ns, live_tsum_read_sched, rows,
					st->threads > 0 ? st->threads : -1);
		if (!terr) {
			f->thr_clock = f->clock;
			live_tsum_unseen(l, &f->ts, p->pid, clk, prev, lost);
			live_tsum_est(&f->ts, prev, lost, f->clock - f->clock0);
		}
	}
	for (size_t e = 0; e < nev; e++) {
		struct snap_count *d = &c[e];
		unsigned long long mn = st->minflt > f->min0 ? st->minflt - f->min0 : 0;
		unsigned long long mj = st->majflt > f->maj0 ? st->majflt - f->maj0 : 0;

		d->enabled = d->running = t_ns - f->t0;
		d->err = 0;
		switch ((enum live_pfs_kind)l->pfs_kind[e]) {
		case LIVE_PFS_CLOCK:
			d->value = f->clock - f->clock0;
			break;
		case LIVE_PFS_FAULTS:
			d->value = mn + mj;
			break;
		case LIVE_PFS_MINFLT:
			d->value = mn;
			break;
		case LIVE_PFS_MAJFLT:
			d->value = mj;
			break;
		case LIVE_PFS_SWITCHES:
		case LIVE_PFS_MIGRATIONS:
			if (terr || !f->ts.read) {
				d->err = terr ? terr : -ESRCH;
				break;
			}
			live_tsum_count(
				&f->ts,
				l->pfs_kind[e] == LIVE_PFS_SWITCHES ? LIVE_TS_SW : LIVE_TS_MIG, d);
			break;
		case LIVE_PFS_NONE:
			d->err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err : -EOPNOTSUPP;
			break;
		}
	}
	/* kept for the ticks it does not run: neither its clock nor its counts move then */
	live_keep_all(l, p, c, terr != 0);
}

static void live_procfs_fill(struct live *l, struct live_proc *p, const struct proc_stat *st,
			     const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns)
{
	live_procfs_count(l, p, st, snap->t_ns, c);
	*t_ns = sysops_now(l->ops);
}

/* The row of thread e of p, from its last reads. */
static void live_pfs_row(struct live *l, const struct live_proc *p, const struct live_tsum *ts,
			 const struct live_tsum_thr *e, struct snapshot *snap)
{
	struct snap_task *r =
		live_thread_row(l, p, e->tid, e->state, e->start, e->comm, e->cpu, 0, snap);
	size_t nev = l->base.ev.n;

	for (size_t k = 0; k < nev; k++) {
		struct snap_count *d = &r->c[k];
		const uint64_t *v = e->v, *v0 = e->v0;

		/* a thread's own counts, each kept by the kernel: exact */
		d->enabled = d->running = ts->last_ns - ts->t0;
		d->err = 0;
		switch ((enum live_pfs_kind)l->pfs_kind[k]) {
		case LIVE_PFS_CLOCK:
			d->value = v[LIVE_TS_RUN] - v0[LIVE_TS_RUN];
			break;
		case LIVE_PFS_SWITCHES:
			d->value = v[LIVE_TS_SW] - v0[LIVE_TS_SW];
			break;
		case LIVE_PFS_MIGRATIONS:
			d->value = v[LIVE_TS_MIG] - v0[LIVE_TS_MIG];
			break;
		case LIVE_PFS_FAULTS:
			d->value = v[LIVE_TS_MINFLT] - v0[LIVE_TS_MINFLT] + v[LIVE_TS_MAJFLT] -
				   v0[LIVE_TS_MAJFLT];
			break;
		case LIVE_PFS_MINFLT:
			d->value = v[LIVE_TS_MINFLT] - v0[LIVE_TS_MINFLT];
			break;
		case LIVE_PFS_MAJFLT:
			d->value = v[LIVE_TS_MAJFLT] - v0[LIVE_TS_MAJFLT];
			break;
		case LIVE_PFS_NONE:
			d->err = l->base.ev.ev[k].err ? l->base.ev.ev[k].err : -EOPNOTSUPP;
			break;
		}
	}
}

/* p's thread rows, from the reads of its threads' /proc files the process row made. */
static void live_procfs_threads(struct live *l, struct live_proc *p, struct snapshot *snap,
				bool want)
{
	struct live_pfs *f = p->be;

	if (!want || !f || p->err || !f->based)
		return;
	/* rows asked for while it was idle: its threads' stat files were not read yet, all */
	f->ts.budget = 0;
	if (live_pfs_need_stat(&f->ts) &&
	    live_tsum_update(l, &f->ts, p->pid, snap->t_ns, live_tsum_read_sched, true, -1))
		return;
	for (size_t i = 0; i < f->ts.nthr; i++)
		live_pfs_row(l, p, &f->ts, &f->ts.thr[i], snap);
	/* threads gone since the last read: shown once more with what they counted */
	if (f->ts.last_ns == snap->t_ns)
		for (size_t i = 0; i < f->ts.ngone; i++)
			if (f->ts.gone[i].stat)
				live_pfs_row(l, p, &f->ts, &f->ts.gone[i], snap);
}

static int live_pfs_cmp_used(const void *a, const void *b)
{
	const struct live_tsum *x = *(const struct live_tsum *const *)a;
	const struct live_tsum *y = *(const struct live_tsum *const *)b;

	return (x->used > y->used) - (x->used < y->used);
}

/*
 * After a tick in which some thread files could not be kept open for want
 * of descriptors: close those of the processes read longest ago (none read
 * this tick), as many as were wanted, so that the busy keep theirs.
 */
static void live_procfs_tick_end(struct live *l)
{
	struct live_tsum **old;
	size_t n = 0, want = l->tsum_short;

	l->tsum_short = 0;
	if (!want || !l->nprocs)
		return;
	old = xcalloc(l->nprocs, sizeof(*old));
	for (size_t i = 0; i < l->nprocs; i++) {
		struct live_pfs *f = l->procs[i].be;

		if (l->procs[i].pid && f && f->ts.nfds && f->ts.used < l->tick)
			old[n++] = &f->ts;
	}
	if (n)
		qsort(old, n, sizeof(*old), live_pfs_cmp_used);
	for (size_t i = 0; i < n && want; i++) {
		size_t had = old[i]->nfds;

		live_tsum_close(l, old[i]);
		want = had < want ? want - had : 0;
	}
	free(old);
}

static void live_procfs_proc_free(struct live *l, struct live_proc *p)
{
	struct live_pfs *f = p->be;

	if (f) {
		live_tsum_close(l, &f->ts);
		live_tsum_free(&f->ts);
	}
	free(f);
	p->be = NULL;
}

static void live_procfs_free(struct live *l)
{
	free(l->pfs_kind);
	l->pfs_kind = NULL;
}

const struct live_backend LIVE_BE_PROCFS = {
	.name = "proc",
	.when = LIVE_BE_AT_PROBE,
	.counts = FACT_COUNTS_PROC,
	.flags = LIVE_BE_NO_ATTACH | LIVE_BE_ALL_MODES,
	.init = live_procfs_init,
	.idle = live_procfs_idle,
	.fill = live_procfs_fill,
	.threads = live_procfs_threads,
	.tick_end = live_procfs_tick_end,
	.proc_free = live_procfs_proc_free,
	.free = live_procfs_free,
};
