/* Live source, the idle gate: whether a process ran since its last full read; kept counts. */
#include "config.h"
#include "collect/live.h"
#include "collect/live_tasks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Whether counted process p has not run since its last full read: its CPU
 * clock stands (p->clk_idle: its counts stand, even on a tick that reads
 * its stat again), or, without the clock, the gate group of each of its
 * sets, read alone, was enabled no longer than then (a task's events are
 * enabled only while it runs). Every per-task count moves only while the
 * task runs, so the last counts stand; a process that ran is read in full,
 * and the gate reads made here are kept for that read. clock_only: the
 * clock or nothing (its stat file is not kept open).
 */
bool live_idle(struct live *l, struct live_proc *p, bool clock_only)
{
	struct live_tasks_proc *tp = live_tasks_of(p);
	const struct live_gdef *gd;
	struct live_layout ly = live_ly(l, tp->lite);
	uint64_t sum = 0;
	bool bad = false;
	int r;

	l->gread_pid = 0;
	p->clk_idle = tp->clk_now_ok = false;
	if (p->err)
		return false;
	/*
	 * The process's CPU clock, one call whatever its threads: its CPU time
	 * (live_tasks_cpu_time) in any case; and, where it gates, when it did
	 * not move since the last full read, no thread ran (so none started or
	 * exited either), and no group needs reading. A thread that started to
	 * run on another CPU within a scheduler tick of this read has not
	 * moved it yet: what it counts shows one tick later, never lost.
	 * Read before the counters, so that a full read misses nothing the
	 * next tick's clock does not see.
	 */
	r = sysops_cpuclock(l->ops, p->pid, &tp->clk_now);
	tp->clk_now_ns = sysops_now(l->ops);
	/*
	 * gone (its stat says so), or not gated: a partial process is read
	 * every tick, its scaled counts moving by 1 ns of enabled time at
	 * least, so that no interval of it is ever plain
	 */
	if (r == -ESRCH || ly.gate_set < 0 || !p->cnt || tp->partial) {
		tp->clk_now_ok = !r;
		return false;
	}
	if (!r) {
		tp->clk_now_ok = true;
		/* not while the last read left threads unread: they are read all now */
		if (tp->clk_ok && tp->clk_now == tp->clk && !tp->skipped) {
			/* its counts stand; its stat is read again now and then all the same */
			p->clk_idle = true;
			/* none of its threads ran: what their rates make is from here */
			tp->clk_ns = tp->clk_now_ns;
			if (p->idle >= LIVE_IDLE_REFRESH)
				return false;
			p->idle++;
			return true;
		}
		if (tp->clk_ok)
			return false; /* it ran: read in full, no gate group read first */
	}
	if (clock_only)
		return false;
	gd = &ly.tg[ly.gate_set];
	/* the full read that takes these gate reads is of the moments from here on */
	l->gread_t0 = sysops_now(l->ops);
	l->gread_n0 = l->task_reads;
	l->task_reads += tp->nthr;
	l->gread = xgrow(l->gread, &l->greadcap, tp->nthr ? tp->nthr : 1, sizeof(*l->gread));
	for (size_t th = 0; th < tp->nthr; th++) {
		struct live_gread *g = &l->gread[th];

		g->r = counters_read_group(&tp->thr[th].g[ly.gate_set], l->tmp);
		if (g->r) {
			bad = true;
			continue;
		}
		for (int i = 0; i < gd->nr; i++)
			g->v[i] = l->tmp[gd->ev[i]];
		sum += g->v[0].enabled;
	}
	l->gread_pid = p->pid;
	if (bad || sum != p->gate || p->idle >= LIVE_IDLE_REFRESH) {
		/* the full read follows: the scan's reads from here on are not the counters' */
		l->gread_t1 = sysops_now(l->ops);
		return false;
	}
	p->idle++;
	/* nothing ran since the counts kept: they go with the clock read before the gates */
	tp->clk = tp->clk_now;
	tp->clk_ns = tp->clk_now_ns;
	tp->clk_ok = tp->clk_now_ok;
	return true;
}

/*
 * Keep counts c (nev) read in full, and the gate's enabled time, for the ticks
 * the task does not run; a set that did not read is read in full again.
 */
void live_keep_counts(const struct live *l, const struct snap_count *c, struct snap_count **cnt,
		      uint64_t *keep_gate, uint64_t gate)
{
	size_t nev = l->base.ev.n;

	for (size_t e = 0; e < nev; e++)
		if (c[e].err && c[e].err != LIVE_NOT_TOP && !l->base.ev.ev[e].err) {
			free(*cnt);
			*cnt = NULL;
			return;
		}
	if (!*cnt)
		*cnt = xcalloc(nev ? nev : 1, sizeof(**cnt));
	memcpy(*cnt, c, nev * sizeof(*c));
	*keep_gate = gate;
}

void live_keep_all(struct live *l, struct live_proc *p, const struct snap_count *c, bool bad)
{
	size_t nev = l->base.ev.n;

	p->idle = 0;
	if (bad) {
		free(p->cnt);
		p->cnt = NULL;
		return;
	}
	if (!p->cnt)
		p->cnt = xcalloc(nev ? nev : 1, sizeof(*p->cnt));
	memcpy(p->cnt, c, nev * sizeof(*c));
}
