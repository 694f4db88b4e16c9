/* Live source, attach: per-thread group sets within the fd budget, over ticks, partial. */
#include "config.h"
#include "collect/live.h"
#include "collect/live_tasks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/xalloc.h"

/* The group definitions of a set: every event, or the software ones (lite). */
struct live_layout live_ly(const struct live *l, bool lite)
{
	struct live_layout y = { l->tg, l->ntg, l->set_fds, l->gate_set, false };

	if (lite && l->nsw) {
		y.tg = l->sw;
		y.ntg = l->nsw;
		y.set_fds = l->sw_fds;
		y.gate_set = l->sw_gate;
		y.lite = true;
	}
	return y;
}

/* Close a thread's group set (as live_open_groups opened it, either layout) and free it. */
void live_close_groups(struct live *l, struct counters_group **g)
{
	if (!*g)
		return;
	for (size_t k = 0; k < l->slots; k++) {
		l->fds_open -= (size_t)((*g)[k].nr > 0 ? (*g)[k].nr : 0);
		counters_close_group(&(*g)[k]);
	}
	free(*g);
	*g = NULL;
}

/*
 * Open every task group on one thread; 0 or -errno with nothing left open.
 * -EMFILE without trying when the descriptors pmctop keeps for itself would
 * be touched: scanning /proc must go on when counters run out.
 */
int live_open_groups(struct live *l, struct counters_group **out, int tid, unsigned flags,
		     bool lite)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct counters_group *g;
	struct live_layout ly = live_ly(l, lite);

	*out = NULL;
	if (l->fds_open + ly.set_fds > l->fd_budget)
		return -EMFILE;
	g = xcalloc(l->slots ? l->slots : 1, sizeof(*g));
	for (size_t k = 0; k < ly.ntg; k++) {
		int bad, r;

		for (int i = 0; i < ly.tg[k].nr; i++)
			a[i] = live_attr(l, &ly.tg[k], i);
		r = counters_open_group(&g[k], l->ops, a, ly.tg[k].ev, ly.tg[k].nr, tid, -1,
					flags | l->cflags, &bad);
		if (r) {
			while (k-- > 0)
				counters_close_group(&g[k]);
			free(g);
			return r;
		}
	}
	l->fds_open += ly.set_fds;
	*out = g;
	return 0;
}

/* Open the inherited group set of one thread that exists at attach. */
static int live_open_thread(struct live *l, struct live_thread *t, int tid, bool lite)
{
	t->tid = tid;
	return live_open_groups(l, &t->g, tid, COUNTERS_INHERIT, lite);
}

/*
 * From now on hardware events go to the busiest processes only (--hw-top,
 * or the descriptors do not hold them for every process): said once.
 */
void live_hw_limit(struct live *l)
{
	if (!l->hw_limit) {
		l->hw_limit = true;
		/*
		 * the hardware sets take what is left: the schedstat files of
		 * threads read in turn are not kept (live_thread_run), nor their
		 * task directories where the descriptors ran short
		 */
		l->run_nokeep = true;
		l->run_short |= !l->o.hw_top;
		/* by the budget: as many as fit, found when attaching and at each choice */
		l->hw_k = l->o.hw_top ? l->o.hw_top : (size_t)-1;
	}
	if (!l->told_hw_top) {
		struct fact f;

		l->told_hw_top = true;
		fact_set(&f, FACT_HW_TOP, l->o.hw_top ? 0 : -EMFILE, NULL, l->paranoid);
		f.hw_top.busiest = (long long)l->o.hw_top;
		live_tell(l, &f);
	}
}

struct live_tcpu {
	int tid;
	bool main;
	unsigned long long cpu;
};

static int live_cmp_tcpu(const void *a, const void *b)
{
	const struct live_tcpu *x = a, *y = b;

	if (x->main != y->main)
		return x->main ? -1 : 1;
	return (x->cpu < y->cpu) - (x->cpu > y->cpu);
}

/*
 * Put the n thread ids of p in l->tids in the order they are counted when
 * not all fit: the main thread first (it starts most of the others, which
 * it then counts by inheritance), then the busiest by CPU time.
 */
static void live_order_threads(struct live *l, const struct live_proc *p, size_t n)
{
	struct live_tcpu *tc = xcalloc(n ? n : 1, sizeof(*tc));

	for (size_t i = 0; i < n; i++) {
		struct proc_stat st;

		tc[i].tid = l->tids[i];
		tc[i].main = l->tids[i] == p->pid;
		if (!proc_read_stat(l->rootfd, p->pid, l->tids[i], &st))
			tc[i].cpu = st.cpu;
	}
	qsort(tc, n, sizeof(*tc), live_cmp_tcpu);
	for (size_t i = 0; i < n; i++)
		l->tids[i] = tc[i].tid;
	free(tc);
}

/*
 * Threads that exist now get a group set each; threads created later are
 * counted by inheritance into their creator's set, so no rescans are needed.
 * When the descriptors left cannot take a set per thread, the process gets
 * them less what the processes still to attach this tick need (l->reserve),
 * and at least half: the main thread's and the busiest threads' sets; it is
 * partial: counted, its counts estimated. Descriptors running out halfway keep what is open,
 * never a process attached and closed again. A thread that exits meanwhile
 * gives ESRCH (skipped) or, caught halfway out, ENODEV: then nothing stays
 * open and the caller tries next tick.
 */
/* Give up an attach in progress: its sets closed, its list freed. */
void live_attach_drop(struct live *l, struct live_tasks_proc *tp)
{
	for (size_t k = 0; k < tp->nthr; k++)
		live_close_thread(l, &tp->thr[k]);
	tp->nthr = 0;
	tp->tot.ok = false;
	free(tp->todo);
	tp->todo = NULL;
	tp->ntodo = tp->todo_i = 0;
}

/* Threads an attach opens in a tick before it looks at the time: progress, however slow. */
#define LIVE_ATTACH_LEAST 64

int live_attach(struct live *l, struct live_proc *p, const struct proc_stat *st)
{
	struct live_tasks_proc *tp = live_tasks_of(p);
	size_t opened = 0, n;

	if (!tp->todo) {
		char path[64];
		long ln;
		size_t room, per,
			left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;

		snprintf(path, sizeof(path), "%d/task", p->pid);
		ln = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
		if (ln < 0)
			return ln == -ENOENT ? -ESRCH : (int)ln;
		n = (size_t)ln;
		free(tp->thr);	/* a retry after running out of descriptors */
		tp->thr = NULL; /* none while it may return before the new list */
		tp->nthr = 0;
		tp->partial = false;
		/*
		 * every thread with the software events alone (or as many as fit),
		 * rather than fewer with all, and rather than leave the processes
		 * still to attach without their software sets and stat files (and
		 * those attached without their stat files yet): the hardware
		 * events then go to the busiest processes that fit (live_hw_top)
		 */
		if (!tp->lite && l->nsw &&
		    n * l->set_fds + (p->statfd < 0) + l->reserve * l->sw_fds + l->reserve_procs +
				    l->stat_missing >
			    left) {
			tp->lite = true;
			live_hw_limit(l);
		}
		per = live_ly(l, tp->lite).set_fds;
		room = left / (per ? per : 1);
		/*
		 * too few for every thread: the schedstat files and task
		 * directories kept for threads read in turn go first (at the
		 * tick's end), and none is kept again
		 */
		if (room < n && (l->run_fds || l->run_dirs))
			l->run_nokeep = l->run_short = true;
		if (!room && n)
			return -EMFILE;
		tp->want = n;
		if (tp->want > room) {
			/* what the processes still to attach this tick need, up to half */
			tp->want = room - (l->reserve < room / 2 ? l->reserve : room / 2);
			live_order_threads(l, p, n);
		}
		tp->thr = xcalloc(n ? n : 1, sizeof(*tp->thr));
		tp->todo = xcalloc(n ? n : 1, sizeof(*tp->todo));
		memcpy(tp->todo, l->tids, n * sizeof(*tp->todo));
		tp->ntodo = n;
		tp->todo_i = tp->gone = 0;
		tp->attach_err = -ESRCH;
		tp->part_cpu0 = live_ticks_ns(st->cpu);
		free(tp->part_raw);
		free(tp->part_out);
		tp->part_raw = tp->part_out = NULL;
		free(tp->est);
		free(tp->pool);
		free(tp->sa);
		free(tp->sb);
		tp->est = NULL;
		tp->pool = NULL;
		tp->sa = tp->sb = NULL;
		tp->tot.ok = false;
		tp->updates = 0;
		tp->skipped = tp->est_ok = false;
		tp->unread = tp->alpha[0] = tp->alpha[1] = 0;
		tp->jumps = 0;
	}
	while (tp->todo_i < tp->ntodo && tp->nthr < tp->want) {
		int r;

		/* thousands of threads: the rest next tick, so that the frame does not wait */
		if (opened >= LIVE_ATTACH_LEAST && sysops_now(l->ops) > l->attach_until) {
			tp->attach_split = true;
			return LIVE_UNATTACHED;
		}
		r = live_open_thread(l, &tp->thr[tp->nthr], tp->todo[tp->todo_i++], tp->lite);
		opened++;
		if (r == 0) {
			tp->nthr++;
			continue;
		}
		tp->attach_err = r;
		if (r == -ESRCH) {
			tp->gone++; /* the thread exited meanwhile */
			continue;
		}
		if ((r == -EMFILE || r == -ENFILE) && tp->nthr)
			break;
		live_attach_drop(l, tp);
		return r;
	}
	n = tp->ntodo;
	free(tp->todo);
	tp->todo = NULL;
	if (!tp->nthr)
		return tp->attach_err;
	tp->thr_all = n - tp->gone;
	tp->partial = tp->nthr < tp->thr_all;
	tp->partial_why = -EMFILE;
	/*
	 * Over several ticks, a thread not yet attached may have started threads:
	 * not counted (those of attached threads are, by inheritance, and cannot be
	 * told apart). More threads now than were attached: estimates, said once.
	 */
	if (tp->attach_split && !tp->partial && st->threads > 0 &&
	    (size_t)st->threads > tp->thr_all) {
		tp->partial = true;
		tp->partial_why = -EINPROGRESS;
		tp->thr_all = (size_t)st->threads;
	}
	tp->attach_split = false;
	tp->part_max = 0;
	return 0;
}

/*
 * Read set k of thread th into l->tmp; the gate group of the process whose
 * gate reads live_idle kept (stash) is not read again.
 */
static int live_read_set(struct live *l, const struct live_layout *ly,
			 const struct live_thread *thr, size_t th, size_t k, bool stash)
{
	const struct live_gdef *gd = &ly->tg[k];
	const struct live_gread *g;

	if (!stash || (int)k != ly->gate_set) {
		l->task_reads++;
		return counters_read_group(&thr[th].g[k], l->tmp);
	}
	g = &l->gread[th];
	if (!g->r)
		for (int i = 0; i < gd->nr; i++)
			l->tmp[gd->ev[i]] = g->v[i];
	return g->r;
}

/* Where group k's members begin in a thread's kept reads (layout ly). */
static size_t live_keep_at(const struct live_layout *ly, size_t k)
{
	size_t at = 0;

	for (size_t j = 0; j < k; j++)
		at += (size_t)(ly->tg[j].nr > 0 ? ly->tg[j].nr : 1);
	return at;
}

/* Put thread t's kept read of group k into l->tmp; its result. */
static int live_kept_set(struct live *l, const struct live_layout *ly, const struct live_thread *t,
			 size_t k)
{
	const struct live_gdef *gd = &ly->tg[k];
	const struct snap_count *g = &t->keep[live_keep_at(ly, k)];

	if (!g->err)
		for (int i = 0; i < gd->nr; i++)
			l->tmp[gd->ev[i]] = g[i];
	return g->err;
}

/* Keep what l->tmp holds of thread t's group k, read with result r (in the first member's err). */
static void live_keep_set(struct live *l, const struct live_layout *ly, struct live_thread *t,
			  size_t k, int r)
{
	const struct live_gdef *gd = &ly->tg[k];
	struct snap_count *g;

	if (!t->keep)
		t->keep = xcalloc(live_keep_at(ly, ly->ntg) + 1, sizeof(*t->keep));
	g = &t->keep[live_keep_at(ly, k)];
	g->err = r;
	if (!r)
		for (int i = 0; i < gd->nr; i++) {
			g[i] = l->tmp[gd->ev[i]];
			g[i].err = 0;
		}
}

void live_close_thread(struct live *l, struct live_thread *t)
{
	live_close_groups(l, &t->g);
	free(t->keep);
	t->keep = NULL;
	free(t->csum);
	t->csum = NULL;
	free(t->ra);
	t->ra = NULL;
	live_thread_run_close(l, &t->rfd);
	t->rr_ok = false;
	t->ralpha = 0;
	t->rnew = false;
	t->keep_ok = false;
}

/*
 * Whether thread th of thr did not run since its reads were kept: its gate
 * group, read now (and kept), was enabled no longer than then. A task's
 * events are enabled only while it runs, and an inherited group's times
 * take in the threads it started, dead ones too, so its other groups
 * cannot have moved either and are not read.
 */
static bool live_thread_kept(struct live *l, const struct live_layout *ly, struct live_thread *thr,
			     size_t th, bool stash)
{
	struct live_thread *t = &thr[th];
	int r;

	if (ly->gate_set < 0)
		return false;
	r = live_read_set(l, ly, thr, th, (size_t)ly->gate_set, stash);
	live_keep_set(l, ly, t, (size_t)ly->gate_set, r);
	return !r && t->keep_ok && l->tmp[ly->tg[ly->gate_set].ev[0]].enabled == t->keep_gate;
}

/*
 * Where a sum of thread reads goes: counts c (one per event), the events
 * some thread read (ok), a scratch per event (en), the starving check's
 * sums of each group's first member (tg: enabled then running, per group)
 * and the gate groups' enabled time.
 */
struct live_acc {
	struct snap_count *c;
	uint64_t *ok, *en, *tg;
	uint64_t gate;
};

static void live_acc_init(struct live *l, const struct live_layout *ly, struct live_acc *a,
			  struct snap_count *c)
{
	size_t nev = l->base.ev.n;

	a->c = c;
	a->ok = xcalloc(2 * nev + 2 * ly->ntg + 1, sizeof(*a->ok));
	a->en = a->ok + nev;
	a->tg = a->en + nev;
	a->gate = 0;
	if (ly->lite)
		for (size_t e = 0; e < nev; e++)
			if (l->base.ev.ev[e].hw && !l->base.ev.ev[e].err)
				c[e].err = LIVE_NOT_TOP;
	for (size_t k = 0; k < ly->ntg; k++)
		for (int i = 0; i < ly->tg[k].nr; i++) {
			struct snap_count *d = &c[ly->tg[k].ev[i]];

			if (ly->tg[k].sim)
				continue;
			d->value = d->enabled = d->running = 0;
			d->err = -ESRCH;
		}
}

/* Hand the starving check its sums (full sets only) and the gate's time to *gate. */
static void live_acc_done(struct live *l, const struct live_layout *ly, struct live_acc *a,
			  uint64_t *gate)
{
	for (size_t k = 0; !ly->lite && k < ly->ntg; k++) {
		l->tg_en[k] += a->tg[2 * k];
		l->tg_run[k] += a->tg[2 * k + 1];
	}
	*gate = a->gate;
	free(a->ok);
}

/*
 * Add (sign 1) or take back (-1) what thread t added at its last read
 * (t->csum: each event's counts, then each group's first member): a thread
 * whose kept reads stand, none of which failed.
 */
static void live_acc_kept(struct live *l, const struct live_layout *ly, struct live_acc *a,
			  const struct live_thread *t, int sign)
{
	size_t nev = l->base.ev.n;
	const struct snap_count *cs = t->csum;

	for (size_t e = 0; e < nev; e++) {
		struct snap_count *d = &a->c[e];

		if (cs[e].err)
			continue;
		if (sign > 0) {
			a->ok[e] = 1;
			d->err = 0;
			d->value += cs[e].value;
			d->running += cs[e].running;
			d->enabled += cs[e].enabled;
		} else {
			d->value -= cs[e].value;
			d->running -= cs[e].running;
			d->enabled -= cs[e].enabled;
		}
	}
	for (size_t k = 0; k < ly->ntg; k++) {
		if (ly->tg[k].sim || cs[nev + k].err)
			continue;
		a->tg[2 * k] += sign > 0 ? cs[nev + k].enabled : -cs[nev + k].enabled;
		a->tg[2 * k + 1] += sign > 0 ? cs[nev + k].running : -cs[nev + k].running;
	}
	a->gate += sign > 0 ? t->keep_gate : -t->keep_gate;
}

/*
 * Read (or take from its kept reads) the sets of thread th of thr into a;
 * keep: its reads and what they add are kept (thr[th].keep, .csum), and
 * it is not read beyond its gate group when that did not move, nor at all
 * when not picked (live_tasks_pick).
 */
static void live_sum_thread(struct live *l, const struct live_layout *ly, struct live_thread *thr,
			    size_t th, bool stash, bool keep, struct live_acc *a)
{
	size_t nev = l->base.ev.n;
	struct live_thread *t = &thr[th];
	/* left for a later read (live_tasks_pick): its kept reads stand */
	bool rest = keep && !t->pick;
	bool kept, full = true;
	struct snap_count *cs = NULL, *c = a->c;

	if (rest && t->csum) {
		live_acc_kept(l, ly, a, t, 1);
		return;
	}
	kept = rest || (keep && live_thread_kept(l, ly, thr, th, stash));
	/* what the thread adds, kept for the ticks it is not read */
	if (keep) {
		if (!t->csum)
			t->csum = xcalloc(nev + ly->ntg + 1, sizeof(*t->csum));
		cs = t->csum;
		for (size_t e = 0; e < nev + ly->ntg; e++)
			cs[e] = (struct snap_count){ .err = -ESRCH };
	}
	memset(a->en, 0, nev * sizeof(*a->en));
	for (size_t k = 0; k < ly->ntg; k++) {
		const struct live_gdef *gd = &ly->tg[k];
		int r;

		/* the gate group was read (and kept) just now */
		if (keep && (kept || (int)k == ly->gate_set)) {
			r = live_kept_set(l, ly, t, k);
		} else {
			r = live_read_set(l, ly, thr, th, k, stash);
			if (keep)
				live_keep_set(l, ly, t, k, r);
		}
		full &= !r;
		if (keep && (int)k == ly->gate_set && !r)
			t->keep_gate = l->tmp[gd->ev[0]].enabled;

		if (gd->sim)
			continue; /* read for its cost alone */
		if (!r) {
			/* what the starving check watches: the groups of full sets */
			a->tg[2 * k] += l->tmp[gd->ev[0]].enabled;
			a->tg[2 * k + 1] += l->tmp[gd->ev[0]].running;
			if (cs)
				cs[nev + k] = l->tmp[gd->ev[0]];
			if ((int)k == ly->gate_set)
				a->gate += l->tmp[gd->ev[0]].enabled;
		}
		for (int i = 0; i < gd->nr; i++) {
			int e = gd->ev[i];
			const struct snap_count *src = &l->tmp[e];

			if (r) {
				if (!a->ok[e])
					c[e].err = r;
				continue;
			}
			a->ok[e] = 1;
			c[e].err = 0;
			c[e].value += src->value;
			c[e].running += src->running;
			if (src->enabled > a->en[e])
				a->en[e] = src->enabled;
			if (cs) {
				cs[e].err = 0;
				cs[e].value += src->value;
				cs[e].running += src->running;
			}
		}
	}
	for (size_t e = 0; e < nev; e++) {
		c[e].enabled += a->en[e];
		if (cs)
			cs[e].enabled = a->en[e];
	}
	/* a group that did not read is read again next tick, whatever the gate says */
	if (keep)
		t->keep_ok = full;
	if (keep && !full) {
		free(t->csum);
		t->csum = NULL;
	}
}

/*
 * Sum the group reads of every set in thr (of layout ly) into counts c (one
 * per event), and the gate group's enabled time into *gate. Outside the
 * hardware top, the hardware events are not counted (LIVE_NOT_TOP).
 * An event opened once per core PMU is summed over the copies: a thread runs
 * on one PMU at a time, so each copy's running time adds up to the thread's
 * time and only a sum short of it is multiplexing; the copies' enabled times
 * are each the thread's time and count once.
 */
void live_sum_groups(struct live *l, const struct live_layout *ly, struct live_thread *thr,
		     size_t nthr, struct snap_count *c, bool stash, uint64_t *gate, bool keep)
{
	struct live_acc a;

	live_acc_init(l, ly, &a, c);
	for (size_t th = 0; th < nthr; th++)
		live_sum_thread(l, ly, thr, th, stash, keep, &a);
	live_acc_done(l, ly, &a, gate);
}

/* Keep what a sum of every thread of tp came to, where each has its csum. */
static void live_tot_keep(struct live *l, const struct live_layout *ly, struct live_tasks_proc *tp,
			  const struct live_acc *a)
{
	size_t nev = l->base.ev.n;
	struct live_tot *tot = &tp->tot;

	tot->ok = true;
	for (size_t th = 0; th < tp->nthr && tot->ok; th++)
		tot->ok = tp->thr[th].csum != NULL;
	if (!tot->ok)
		return;
	/* the groups are split or packed anew now and then: sized to the layout read */
	if (tot->n != nev + ly->ntg) {
		free(tot->c);
		tot->n = nev + ly->ntg;
		tot->c = xcalloc(tot->n + 1, sizeof(*tot->c));
	}
	for (size_t e = 0; e < nev; e++) {
		tot->c[e] = a->c[e];
		tot->c[e].err = a->ok[e] ? 0 : -ESRCH;
	}
	for (size_t k = 0; k < ly->ntg; k++)
		tot->c[nev + k] =
			(struct snap_count){ .enabled = a->tg[2 * k], .running = a->tg[2 * k + 1] };
	tot->gate = a->gate;
}

void live_sum_proc(struct live *l, const struct live_layout *ly, struct live_tasks_proc *tp,
		   struct snap_count *c, bool stash, uint64_t *gate)
{
	size_t nev = l->base.ev.n;
	struct live_acc a;
	bool whole = !tp->tot.ok || tp->npick == tp->nthr;

	live_acc_init(l, ly, &a, c);
	if (whole) {
		for (size_t th = 0; th < tp->nthr; th++)
			live_sum_thread(l, ly, tp->thr, th, stash, true, &a);
	} else {
		/* the last reads of all, less what those read now added at theirs */
		for (size_t k = 0; k < ly->ntg; k++)
			for (int i = 0; i < ly->tg[k].nr; i++) {
				int e = ly->tg[k].ev[i];

				if (ly->tg[k].sim || tp->tot.c[e].err)
					continue;
				c[e] = tp->tot.c[e];
				a.ok[e] = 1;
			}
		for (size_t k = 0; k < ly->ntg; k++) {
			a.tg[2 * k] = tp->tot.c[nev + k].enabled;
			a.tg[2 * k + 1] = tp->tot.c[nev + k].running;
		}
		a.gate = tp->tot.gate;
		for (size_t i = 0; i < tp->npick; i++) {
			live_acc_kept(l, ly, &a, &tp->thr[tp->picks[i]], -1);
			live_sum_thread(l, ly, tp->thr, tp->picks[i], stash, true, &a);
		}
	}
	live_tot_keep(l, ly, tp, &a);
	live_acc_done(l, ly, &a, gate);
}

/*
 * A partial process: the counted threads' counts, each event's enabled time
 * raised to the CPU time the whole process used since the attach (as /proc
 * says), so that the counts are scaled by the share of that time the counted
 * threads had and marked as estimates, as multiplexed counts are. Kept
 * from falling, as a cumulative count must.
 */
void live_partial_scale(struct live_tasks_proc *tp, const struct proc_stat *st,
			struct snap_count *c, size_t nev)
{
	uint64_t now = live_ticks_ns(st->cpu);

	if (now > tp->part_cpu0 && now - tp->part_cpu0 > tp->part_max)
		tp->part_max = now - tp->part_cpu0;
	/*
	 * The stat's CPU time moves in clock ticks: threads not counted may have run
	 * less than one, unseen. So each read gives the enabled time the counted
	 * threads gained and 1 ns more at least, never less than the process's CPU
	 * time: no interval is taken as wholly counted (an estimate, or n/a when no
	 * counted thread ran), never a plain number.
	 */
	if (!tp->part_raw) {
		tp->part_raw = xcalloc(nev ? nev : 1, sizeof(*tp->part_raw));
		tp->part_out = xcalloc(nev ? nev : 1, sizeof(*tp->part_out));
	}
	for (size_t e = 0; e < nev; e++) {
		uint64_t en;

		if (c[e].err)
			continue;
		en = c[e].enabled > tp->part_max ? c[e].enabled : tp->part_max;
		if (c[e].enabled >= tp->part_raw[e] &&
		    en < tp->part_out[e] + (c[e].enabled - tp->part_raw[e]) + 1)
			en = tp->part_out[e] + (c[e].enabled - tp->part_raw[e]) + 1;
		tp->part_raw[e] = c[e].enabled;
		tp->part_out[e] = en;
		c[e].enabled = en;
	}
}

size_t live_fd_budget(size_t keep)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return (size_t)-1;
	/* keep a reserve for /proc, the output, recordings and the screen, and what the caller keeps */
	return rl.rlim_cur > LIVE_FD_RESERVE + keep ? (size_t)(rl.rlim_cur - LIVE_FD_RESERVE - keep)
						    : 0;
}
