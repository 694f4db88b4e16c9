/* Live source, the per-task backend: a group set per thread, inherited by the threads it starts. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdlib.h>

#include "collect/live_tasks.h"

/*
 * Read the sets of tp's threads into c (live_sum_groups) and the moment
 * they are of into *t_ns. The counts are of some moment between the first
 * group read and the last: pmctop preempted in between lets the process
 * run on, so a time taken after the reads is later than the counts, this
 * interval's rate too low and the next one's too high. So the reads are
 * stamped before and after, the row at the midpoint, and a read much
 * slower than the usual (by group reads) is taken as interrupted and
 * made again, once, without the gate reads of the idle check (which are
 * of before it); a read as slow is the new usual. With the gate reads, the
 * time the scan took between them and this read (its stat and uid reads)
 * is not the reads'.
 */
static void live_tasks_read(struct live *l, struct live_tasks_proc *tp,
			    const struct live_layout *ly, bool stash, struct snap_count *c,
			    uint64_t *gate, uint64_t *t_ns)
{
	/* with the idle check's gate reads, the counts go back to those */
	uint64_t t0 = stash ? l->gread_t0 : sysops_now(l->ops), t1;
	uint64_t gap = stash ? sysops_now(l->ops) - l->gread_t1 : 0;
	size_t n0 = stash ? l->gread_n0 : l->task_reads, n;

	/* what the starving check sums must take one read only */
	l->tg_keep = xgrow(l->tg_keep, &l->tg_keepcap, 2 * l->ntg + 1, sizeof(*l->tg_keep));
	for (size_t k = 0; k < l->ntg; k++) {
		l->tg_keep[2 * k] = l->tg_en[k];
		l->tg_keep[2 * k + 1] = l->tg_run[k];
	}
	for (int tries = 0;; tries++) {
		live_sum_groups(l, ly, tp->thr, tp->nthr, c, stash, gate, true);
		t1 = sysops_now(l->ops);
		n = l->task_reads - n0;
		if (tries || t1 - t0 - gap <= 2 * n * l->read_unit + LIVE_READ_SLACK_NS)
			break;
		for (size_t k = 0; k < l->ntg; k++) {
			l->tg_en[k] = l->tg_keep[2 * k];
			l->tg_run[k] = l->tg_keep[2 * k + 1];
		}
		stash = false;
		gap = 0;
		t0 = sysops_now(l->ops);
		n0 = l->task_reads;
	}
	if (n)
		l->read_unit = (t1 - t0 - gap) / n;
	*t_ns = t0 + (t1 - t0) / 2;
}

/*
 * Sum the sets of p's threads into c; a partial process's counts scaled up
 * to the CPU time of all its threads; without kernel mode, the switches the
 * kernel keeps per thread instead of the event's 0. Kept for the idle gate.
 */
static void live_tasks_fill(struct live *l, struct live_proc *p, const struct proc_stat *st,
			    const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns)
{
	struct live_tasks_proc *tp = live_tasks_of(p);
	size_t nev = l->base.ev.n;
	uint64_t gate;
	bool stash = l->gread_pid == p->pid;
	struct live_layout ly = live_ly(l, tp->lite);

	l->gread_pid = 0;
	live_tasks_read(l, tp, &ly, stash, c, &gate, t_ns);
	if (tp->partial)
		live_partial_scale(tp, st, c, nev);
	/* the perf event reads 0 without kernel mode: take the kernel's own counts */
	if (!l->kernel && l->base.ev.role_idx[EV_CTX_SWITCHES] >= 0)
		live_ctxsw_fill(l, p->pid, &tp->ctxsw, snap->t_ns,
				&c[l->base.ev.role_idx[EV_CTX_SWITCHES]]);
	if (ly.gate_set < 0)
		return;
	/* what the gate compares with next tick */
	p->idle = 0;
	live_keep_counts(l, c, &p->cnt, &p->gate, gate);
	tp->clk = tp->clk_now;
	tp->clk_ok = tp->clk_now_ok && p->cnt;
	tp->clk_now_ok = false;
}

/* Before a tick's attaches: how many of the processes it keeps have hardware sets. */
static void live_tasks_attach_begin(struct live *l, const struct live_proc *procs, size_t n)
{
	l->hw_nfull = 0;
	for (size_t i = 0; i < n; i++) {
		const struct live_tasks_proc *tp = procs[i].be;

		l->hw_nfull += !procs[i].skip && !procs[i].err && tp && tp->nthr && !tp->lite;
	}
}

/*
 * A process new, or one that found no descriptors, gets hardware events
 * while the hardware top has room; a partial attach is told once.
 */
static int live_tasks_attach(struct live *l, struct live_proc *p, const struct proc_stat *st)
{
	struct live_tasks_proc *tp = live_tasks_of(p);
	int r;

	if (p->err != LIVE_RETRY && !tp->todo)
		tp->lite = l->nsw && l->hw_limit && l->hw_nfull >= l->hw_k;
	tp->hw_cpu0 = st->cpu;
	r = live_attach(l, p, st);
	l->hw_nfull += !r && !tp->lite;
	if (r != -ESRCH && tp->partial && !tp->told_partial) {
		struct fact f;

		tp->told_partial = true;
		fact_set(&f, FACT_PARTIAL, tp->partial_why, p->comm, l->paranoid);
		f.partial.pid = p->pid;
		f.partial.counted = (long long)tp->nthr;
		f.partial.total = (long long)tp->thr_all;
		live_tell(l, &f);
	}
	return r;
}

/* Thread rows with a set of their own each, while wanted; closed when not. */
static void live_tasks_threads(struct live *l, struct live_proc *p, struct snapshot *snap,
			       bool want)
{
	struct live_tasks_proc *tp = p->be;

	if (want)
		live_fill_threads(l, p, snap);
	else if (tp && tp->tt)
		live_close_tthreads(l, tp);
}

/* After a tick: the groups that never ran split, the hardware top chosen again. */
static void live_tasks_tick_end(struct live *l)
{
	live_check_starved(l);
	live_hw_top(l);
}

static void live_tasks_proc_free(struct live *l, struct live_proc *p)
{
	struct live_tasks_proc *tp = p->be;

	if (!tp)
		return;
	live_close_tthreads(l, tp);
	for (size_t i = 0; i < tp->nthr; i++)
		live_close_thread(l, &tp->thr[i]);
	free(tp->thr);
	free(tp->todo);
	free(tp->part_raw);
	free(tp->part_out);
	live_ctxsw_free(&tp->ctxsw);
	free(tp);
	p->be = NULL;
}

/*
 * p's CPU time for a read of its leader's stat, which counts the leader's
 * alone: its CPU clock read this tick by the idle check (live_idle, before
 * the stat), in clock ticks: the kernel's own time, so the process's file
 * is not read now and then besides (LIVE_BE_KERNEL_TIME). Without the
 * clock (not read, or not this tick) the process's own file is read. It
 * never goes back: a time the kernel's file gave holds until the clock
 * passes it.
 */
static bool live_tasks_cpu_time(struct live *l, struct live_proc *p, struct proc_stat *st,
				bool full)
{
	struct live_tasks_proc *tp = p->be;
	uint64_t tick_ns = live_ticks_ns(1);

	(void)l;
	if (full || !tp || !tp->clk_now_ok || !tick_ns)
		return false;
	st->cpu = tp->clk_now / tick_ns;
	if (st->cpu < p->last.cpu && p->start == st->start)
		st->cpu = p->last.cpu;
	return true;
}

/* The default: no init, it counts whenever no other backend does. */
const struct live_backend LIVE_BE_TASKS = {
	.name = "tasks",
	.counts = FACT_COUNTS_PERF,
	.flags = LIVE_BE_KERNEL_TIME,
	.attach_begin = live_tasks_attach_begin,
	.attach = live_tasks_attach,
	.idle = live_idle,
	.fill = live_tasks_fill,
	.cpu_time = live_tasks_cpu_time,
	.threads = live_tasks_threads,
	.tick_end = live_tasks_tick_end,
	.proc_free = live_tasks_proc_free,
};
