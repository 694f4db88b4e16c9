/* Live source, policy after each tick: split starved groups, choose the hardware top. */
#include "config.h"
#include "collect/live.h"
#include "collect/live_tasks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* Split group g of the event list in two halves; the name of what was split in name. */
static void live_split_group(struct live *l, int g, char *name, size_t size)
{
	struct evlist *ev = &l->base.ev;
	int nr = 0, half, seen = 0, ng = ev->ngroups++;
	size_t len = 0;

	name[0] = '\0';
	for (size_t i = 0; i < ev->n; i++)
		if (ev->ev[i].group == g && live_opens(l, i)) {
			nr++;
			if (len < size)
				len += (size_t)snprintf(name + len, size - len, "%s%s",
							len ? "," : "", ev->ev[i].name);
		}
	half = nr / 2;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->ev[i].group == g && live_opens(l, i) && seen++ >= half)
			ev->ev[i].group = ng;
}

void live_check_starved(struct live *l)
{
	int split = -1, unpack = 0;
	unsigned ticks = 0;
	char name[256];

	for (size_t k = 0; k < l->ntg; k++) {
		bool ran = l->tg_run[k] > l->tg_run0[k], on = l->tg_en[k] > l->tg_en0[k];

		/*
		 * a tick whose reads brought no enabled time while big processes
		 * rested from their reads in turn (live_tasks_paced) says
		 * nothing: the count stands
		 */
		l->tg_starved[k] = on && !ran	      ? l->tg_starved[k] + 1
				   : !on && l->rested ? l->tg_starved[k]
						      : 0;
		l->tg_en0[k] = l->tg_en[k];
		l->tg_run0[k] = l->tg_run[k];
		l->tg_en[k] = l->tg_run[k] = 0;
		if (split < 0 && !unpack && l->tg_starved[k] >= LIVE_STARVED_TICKS &&
		    l->tg[k].nr > 1) {
			int g = l->base.ev.ev[l->tg[k].ev[0]].group;

			for (int m = 0; m < l->tg[k].nr; m++)
				if (l->base.ev.ev[l->tg[k].ev[m]].group != g)
					g = -1;
			if (g >= 0) {
				split = g;
				ticks = l->tg_starved[k];
			} else {
				/* groups packed together: pack no more, back to the groups asked for */
				unpack = (int)k + 1;
				ticks = l->tg_starved[k];
			}
		}
	}
	l->rested = false;
	if (split < 0 && !unpack)
		return;
	/* the sets are built from the group definitions: close them all, reattach next tick */
	for (size_t i = 0; i < l->nprocs; i++) {
		struct live_proc *p = &l->procs[i];
		struct live_tasks_proc *tp = p->be;

		if (tp && tp->todo)
			live_attach_drop(l, tp); /* halfway: begun again with the new groups */
		if (p->skip || p->err)
			continue;
		tp = live_tasks_of(p);
		live_close_tthreads(l, tp);
		for (size_t t = 0; t < tp->nthr; t++)
			live_close_thread(l, &tp->thr[t]);
		tp->nthr = 0;
		p->err = LIVE_RETRY;
	}
	if (split >= 0) {
		live_split_group(l, split, name, sizeof(name));
	} else {
		const struct live_gdef *d = &l->tg[unpack - 1];
		size_t len = 0;

		name[0] = '\0';
		for (int m = 0; m < d->nr && len < sizeof(name); m++)
			len += (size_t)snprintf(name + len, sizeof(name) - len, "%s%s",
						m ? "," : "", l->base.ev.ev[d->ev[m]].name);
		l->pack_cap = 0;
	}
	live_build_task_groups(l);
	live_cgroups_reset(l);
	{
		struct fact f;

		fact_set(&f, FACT_STARVED, 0, name, l->paranoid);
		f.starved.ticks = ticks;
		f.starved.unpacked = split < 0;
		live_tell(l, &f);
	}
}

struct live_rank {
	size_t idx;
	uint64_t recent; /* CPU time lately (live_tasks_proc.hw_busy), ns */
	bool unknown;	 /* none seen: attached since the last choice, no clock interval */
};

static int live_cmp_rank(const void *a, const void *b)
{
	const struct live_rank *x = a, *y = b;

	if (x->recent != y->recent)
		return x->recent < y->recent ? 1 : -1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * Close p's sets and have it attached again next tick with the other
 * layout: what it will take is spoken for (live_fd_spare) until then.
 */
static void live_switch_layout(struct live *l, struct live_proc *p)
{
	struct live_tasks_proc *tp = live_tasks_of(p);

	live_close_tthreads(l, tp);
	for (size_t t = 0; t < tp->nthr; t++)
		live_close_thread(l, &tp->thr[t]);
	l->fd_spoken += tp->nthr * live_ly(l, !tp->lite).set_fds;
	tp->nthr = 0;
	p->err = LIVE_RETRY;
	tp->lite = !tp->lite;
	free(p->cnt);
	p->cnt = NULL;
}

void live_hw_top(struct live *l)
{
	struct live_rank *r;
	size_t n = 0, k, margin, nfull = 0,
	       extra = l->set_fds > l->sw_fds ? l->set_fds - l->sw_fds : 0;
	size_t left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;
	size_t need = 0, stats = 0, spoken0 = l->fd_spoken;
	/* room for a few new processes: the top grows only past it */
	size_t slack = LIVE_HWTOP_SLACK * (l->sw_fds + 1);
	uint64_t least;
	bool freed = false, attaching = false, waiting = false, choose;

	if (!l->hw_limit || !l->nsw)
		return;
	if (slack > l->fd_budget / 64)
		slack = l->fd_budget / 64;
	/*
	 * processes waiting for descriptors are given them at the end of the
	 * tick that found too few, not at the next choice (up to
	 * LIVE_HWTOP_TICKS later): the least busy go to the software set
	 * then, ranked as a choice would rank them (nothing of it kept)
	 */
	for (size_t i = 0; i < l->nprocs && !waiting; i++)
		waiting = !l->procs[i].skip &&
			  (l->procs[i].err == -EMFILE || l->procs[i].err == -ENFILE);
	choose = !(l->tick % LIVE_HWTOP_TICKS);
	if (!choose && !waiting)
		return;
	r = xcalloc(l->nprocs + 1, sizeof(*r));
	for (size_t i = 0; i < l->nprocs; i++) {
		struct live_proc *p = &l->procs[i];
		struct live_tasks_proc *tp;
		uint64_t recent;

		if (p->skip || p->err || !(tp = live_tasks_of(p))->nthr)
			continue;
		/*
		 * since the last choice: by the process's CPU clock where its
		 * reads have it (a thread waking every 100 ms runs less than a
		 * clock tick in 5 ticks), else by its stat's clock ticks; the
		 * intervals before count half as much each, so that processes
		 * about as busy do not trade places by chance
		 */
		if (tp->clk_ok && tp->hw_clk_ok && tp->clk >= tp->hw_clk0)
			recent = tp->clk - tp->hw_clk0;
		else
			recent = live_ticks_ns(p->last.cpu > tp->hw_cpu0 ? p->last.cpu - tp->hw_cpu0
									 : 0);
		r[n].idx = i;
		r[n].recent = tp->hw_busy / 2 + recent;
		/*
		 * one attached since the last choice and not read with its clock
		 * since, or first so read this tick, shows no time for want of a
		 * clock interval (its stat's clock ticks are coarser than a server
		 * thread's run): not known to be idle
		 */
		r[n].unknown = !r[n].recent && (tp->hw_fresh || tp->hw_base_tick == l->tick);
		n++;
		/* between choices (processes wait): ranked as if chosen now, nothing kept */
		if (!choose)
			continue;
		/* its clock from here on, where it has one: known at the next choice */
		if (tp->clk_ok)
			tp->hw_fresh = 0;
		tp->hw_cpu0 = p->last.cpu;
		tp->hw_clk0 = tp->clk;
		tp->hw_clk_ok = tp->clk_ok;
		tp->hw_busy = r[n - 1].recent;
	}
	qsort(r, n, sizeof(*r), live_cmp_rank);
	/*
	 * by the budget: the busiest whose hardware sets fit, as if none had
	 * them, once the processes still waiting for descriptors have their
	 * software sets: no process goes uncounted so that another can have
	 * its hardware events
	 */
	for (size_t i = 0; i < l->nprocs; i++) {
		const struct live_proc *p = &l->procs[i];

		if (!p->skip && (p->err == -EMFILE || p->err == -ENFILE))
			need += (p->last.threads > 0 ? (size_t)p->last.threads : 1) * l->sw_fds;
		/* the stat files of the counted come before hardware sets (live_keep_stat) */
		stats += !p->skip && !p->err && p->statfd < 0;
		/* an attach goes on over ticks: its processes' descriptors are spoken for */
		attaching |= !p->skip && (p->err == LIVE_UNATTACHED ||
					  (p->be && ((const struct live_tasks_proc *)p->be)->todo));
	}
	if (!l->o.hw_top) {
		size_t room = left;

		for (size_t i = 0; i < n; i++)
			if (!live_tasks_of(&l->procs[r[i].idx])->lite)
				room += live_tasks_of(&l->procs[r[i].idx])->nthr * extra;
		room = room > need + stats + slack ? room - need - stats - slack : 0;
		for (k = 0; k < n && live_tasks_of(&l->procs[r[k].idx])->nthr * extra <= room; k++)
			room -= live_tasks_of(&l->procs[r[k].idx])->nthr * extra;
		l->hw_k = k;
	}
	k = l->hw_k;
	/*
	 * hysteresis: one in the top leaves it only when it falls a quarter of
	 * k below it and has run less than three quarters of the k-th busiest
	 * (so that many about as busy keep their places), or not at all (one
	 * not seen yet stays until it is); not while processes wait for
	 * descriptors
	 */
	margin = need ? 0 : k / 4 + 1;
	least = k && k <= n ? r[k - 1].recent : 0;
	for (size_t i = 0; i < n; i++) {
		struct live_proc *p = &l->procs[r[i].idx];
		struct live_tasks_proc *tp = live_tasks_of(p);

		if (!tp->lite && i >= k + margin &&
		    (need ||
		     (!r[i].unknown && (!r[i].recent || r[i].recent < least - least / 4)))) {
			live_switch_layout(l, p);
			freed = true;
		} else if (!tp->lite) {
			nfull++;
		}
	}
	/*
	 * still short for the processes waiting, or for the stat files of the
	 * counted: the least busy with hardware sets go to the software set,
	 * until what they give back covers them (what those gone to it above
	 * take again is spoken for); not for the slack, which the top only
	 * leaves when it grows (a process started and gone would otherwise
	 * move one out at a choice and in again at the next)
	 */
	left = l->fd_budget > l->fds_open + (l->fd_spoken - spoken0)
		       ? l->fd_budget - l->fds_open - (l->fd_spoken - spoken0)
		       : 0;
	for (size_t i = n; need + stats > left && i-- > 0;) {
		struct live_proc *p = &l->procs[r[i].idx];
		struct live_tasks_proc *tp = live_tasks_of(p);

		if (tp->lite)
			continue;
		left += tp->nthr * extra;
		live_switch_layout(l, p);
		freed = true;
		nfull--;
	}
	/*
	 * descriptors were given back, or enough are free (kept files closed,
	 * processes gone): who waits for them tries now, not in 16 ticks
	 */
	left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;
	freed |= need && need <= left;
	for (size_t i = 0; freed && i < l->nprocs; i++)
		if (l->procs[i].err == -EMFILE || l->procs[i].err == -ENFILE)
			l->procs[i].retry = l->tick;
	/*
	 * into the top, while it has room: not while processes wait (the
	 * descriptors given back are theirs), nor while some are still to
	 * attach (they come first: one let in now would find its room taken
	 * and go back to the software set)
	 */
	left = l->fd_budget > l->fds_open + stats + slack + (l->fd_spoken - spoken0)
		       ? l->fd_budget - l->fds_open - stats - slack - (l->fd_spoken - spoken0)
		       : 0;
	for (size_t i = 0; !need && !attaching && i < n && i < k && nfull < k; i++) {
		struct live_proc *p = &l->procs[r[i].idx];
		struct live_tasks_proc *tp = live_tasks_of(p);

		/* not one moved out above (it has no sets now: its room is not known) */
		if (p->err || !tp->lite || tp->partial ||
		    tp->nthr * l->set_fds > left + tp->nthr * l->sw_fds)
			continue;
		left = left + tp->nthr * l->sw_fds - tp->nthr * l->set_fds;
		live_switch_layout(l, p);
		nfull++;
	}
	free(r);
}
