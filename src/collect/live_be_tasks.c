/* Live source, the per-task backend: a group set per thread, inherited by the threads it starts. */
#include "config.h"
#include "collect/live.h"

#include <stdlib.h>

/*
 * Sum the sets of p's threads into c; a partial process's counts scaled up
 * to the CPU time of all its threads; without kernel mode, the switches the
 * kernel keeps per thread instead of the event's 0. Kept for the idle gate.
 */
static void live_tasks_fill(struct live *l, struct live_proc *p, const struct proc_stat *st,
			    const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns)
{
	size_t nev = l->base.ev.n;
	uint64_t gate;
	bool stash = l->gread_pid == p->pid;
	struct live_layout ly = live_ly(l, p->lite);

	l->gread_pid = 0;
	live_sum_groups(l, &ly, p->thr, p->nthr, c, stash, &gate, true);
	*t_ns = sysops_now(l->ops);
	if (p->partial)
		live_partial_scale(p, st, c, nev);
	/* the perf event reads 0 without kernel mode: take the kernel's own counts */
	if (!l->kernel && l->base.ev.role_idx[EV_CTX_SWITCHES] >= 0)
		live_ctxsw_fill(l, p, snap->t_ns, &c[l->base.ev.role_idx[EV_CTX_SWITCHES]]);
	if (ly.gate_set < 0)
		return;
	/* what the gate compares with next tick */
	p->idle = 0;
	live_keep_counts(l, c, &p->cnt, &p->gate, gate);
	p->clk = p->clk_now;
	p->clk_ok = p->clk_now_ok && p->cnt;
	p->clk_now_ok = false;
}

/* Thread rows with a set of their own each, while wanted; closed when not. */
static void live_tasks_threads(struct live *l, struct live_proc *p, struct snapshot *snap,
			       bool want)
{
	if (want)
		live_fill_threads(l, p, snap);
	else if (p->tt)
		live_close_tthreads(l, p);
}

/* After a tick: the groups that never ran split, the hardware top chosen again. */
static void live_tasks_tick_end(struct live *l)
{
	live_check_starved(l);
	live_hw_top(l);
}

static void live_tasks_proc_free(struct live *l, struct live_proc *p)
{
	live_close_tthreads(l, p);
	for (size_t i = 0; i < p->nthr; i++)
		live_close_thread(l, &p->thr[i]);
	free(p->thr);
	free(p->todo);
	free(p->part_raw);
	free(p->part_out);
	live_ctxsw_free(p);
}

/* The default: no init, it counts whenever no other backend does. */
const struct live_backend LIVE_BE_TASKS = {
	.name = "tasks",
	.counts = FACT_COUNTS_PERF,
	.attach = live_attach,
	.idle = live_idle,
	.fill = live_tasks_fill,
	.threads = live_tasks_threads,
	.tick_end = live_tasks_tick_end,
	.proc_free = live_tasks_proc_free,
};
