/* Live source, the per-task backend: a group set per thread, inherited by the threads it starts. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		live_sum_proc(l, ly, tp, c, stash, gate);
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
 * Whether tp's threads are read in turn (live_tasks_pick): more than
 * LIVE_THR_WHOLE of them, or fewer while processes of few threads are read
 * at the pace too (l->pace_few: all of them at once, or none); all counted
 * (not a partial process), with a gate group and thread schedstat files
 * that hold run times, not --read-all.
 */
static bool live_tasks_turns(struct live *l, const struct live_tasks_proc *tp,
			     const struct live_layout *ly)
{
	return !tp->partial && !l->o.read_all && ly->gate_set >= 0 && tp->nthr &&
	       (tp->nthr > LIVE_THR_WHOLE || l->pace_few) && live_schedstat_runs(l);
}

/* Whether tp's reads in turn read all its threads at once (few of them), or none. */
static bool live_tasks_whole(const struct live_tasks_proc *tp)
{
	return tp->nthr <= LIVE_THR_WHOLE;
}

/*
 * How much tp's threads ran between its last two clock reads (ran) and how
 * much their rates make of that time (want), in ns; false where either is
 * not known.
 */
static bool live_tasks_ran(const struct live *l, const struct live_tasks_proc *tp, double *ran,
			   double *want)
{
	if (!tp->sa || tp->clk_now_ns <= tp->clk_ns || tp->clk_now < tp->clk)
		return false;
	*ran = (double)(tp->clk_now - tp->clk);
	*want = tp->sa[3 * l->base.ev.n] * (double)(tp->clk_now_ns - tp->clk_ns);
	return true;
}

/*
 * Whether tp's threads ran more between its last two clock reads than
 * their rates at their reads make (LIVE_TASK_JUMP times that, and
 * LIVE_TASK_JUMP_NS more): its work changed (a team's threads that start
 * their work, or that take longer for each thing they do), so that what
 * its threads counted a ns of run time and their ratios of perf's time to
 * it may be of before. Guessed by those, the run time not read was counted
 * as the work before would have (15 % over in a team's work that took
 * twice the run time for a few ticks, held). The time is the clock reads'
 * own, not the ticks': a tick that reads some processes in full reads the
 * clocks of the ones after them later, and by the ticks' times they all
 * ran more than their rates make (46 processes of 50 in one tick, each
 * then read in full, beside 50 x 100 busy threads). Two at once, then one
 * in LIVE_TASK_JUMP_EVERY ticks in turn at most (ticks the process ran in
 * which its threads may be read in turn, a thread read or none at the
 * pace: the only ones that call it).
 */
static bool live_tasks_jumped(const struct live *l, struct live_tasks_proc *tp)
{
	double ran, want;

	tp->jumps =
		tp->jumps > 1.0 / LIVE_TASK_JUMP_EVERY ? tp->jumps - 1.0 / LIVE_TASK_JUMP_EVERY : 0;
	if (tp->jumps + 1 > LIVE_TASK_JUMP_MOST || !live_tasks_ran(l, tp, &ran, &want) ||
	    ran <= LIVE_TASK_JUMP * want + LIVE_TASK_JUMP_NS)
		return false;
	tp->jumps += 1;
	return true;
}

/*
 * Whether tp's threads ran, between its last two clock reads, what their
 * rates make within LIVE_TASK_PACE_RUN_TOL and LIVE_TASK_PACE_SLACK_NS: where
 * not, their work or their ratios changed, and the reads in turn go back
 * to one a tick (live_tasks_paced) to learn the new rates.
 */
static bool live_tasks_steady(const struct live *l, const struct live_tasks_proc *tp)
{
	double ran, want, slack;

	if (!live_tasks_ran(l, tp, &ran, &want))
		return false;
	slack = LIVE_TASK_PACE_RUN_TOL * want + LIVE_TASK_PACE_SLACK_NS;
	return ran <= want + slack && want <= ran + slack;
}

/*
 * Mark which of tp's threads this tick's read takes (live_thread.pick):
 * every one, but where the process ran since its last read (its CPU clock
 * moved), was read since its attach and its threads may be read in turn
 * (live_tasks_turns). Then one of them, the one read longest ago, at the
 * pace of the reads in turn (live_tasks_paced: every tick, or fewer while
 * the threads keep to their rates and the process's clock to them,
 * live_tasks_steady), and the busiest besides (the most run time a ns
 * between its last two reads, read on a tick the pace rests too, oldest
 * or not) where it ran more than all the others together; and every one never
 * read, whose last read failed or whose run time is not known. The
 * others' kept reads stand for theirs, and what they counted since is
 * guessed (live_tasks_est): the busiest is read every tick, so that a
 * process that runs is not left to guesses of threads that sleep, while
 * the others are read in turn. Not for a partial process (its counts are
 * scaled already), with --read-all, without a gate group or the process's
 * clock, nor with the gate reads of the idle check (made for every
 * thread), nor at the first two reads after an attach (the second has
 * each thread's ratio of perf's time to its run time, live_thread_ran,
 * and its rates, so that the turns guess and read as they will from the
 * first on), nor where the process ran far more than its threads' rates
 * make (live_tasks_jumped: each thread is read with its schedstat, and
 * its next read takes its ratio anew). A process of few threads
 * (live_tasks_whole, read in turn while many processes run) has all of
 * them read in turn, or none while the pace rests. Whether some were left
 * unread.
 */
static bool live_tasks_pick(struct live *l, struct live_tasks_proc *tp,
			    const struct live_layout *ly, bool stash)
{
	/*
	 * in turn, oldest first (then the lowest index): a thread's last rate
	 * says little of what it did since (one that slept then may run now,
	 * and wait long for its turn); the clock says how much all ran
	 */
	size_t old1 = (size_t)-1, old2 = (size_t)-1, hot = (size_t)-1;
	double hrun = 0, rsum = 0;
	bool rest = false;
	bool budget = live_tasks_turns(l, tp, ly) && !stash && tp->updates >= 2 && tp->est_ok &&
		      tp->clk_ok && tp->clk_now_ok && tp->clk_now != tp->clk;

	tp->jumped = budget && live_tasks_jumped(l, tp);
	budget &= !tp->jumped;
	if (budget && tp->pace_wait && !live_tasks_steady(l, tp))
		tp->pace = 1, tp->pace_wait = 0;

	tp->picks = xgrow(tp->picks, &tp->pickcap, tp->nthr + 1, sizeof(*tp->picks));
	tp->npick = 0;
	tp->turn = (size_t)-1;
	if (!budget) {
		/* every thread read: the pace starts again from one a tick */
		tp->pace = 1;
		tp->pace_wait = 0;
		for (size_t i = 0; i < tp->nthr; i++) {
			tp->thr[i].pick = true;
			tp->picks[tp->npick++] = i;
		}
		return false;
	}
	if (live_tasks_whole(tp)) {
		/*
		 * few threads: all of them are read in turn, or none while the
		 * pace rests and each one's run time and rates are known
		 */
		rest = tp->pace_wait > 0;
		for (size_t i = 0; i < tp->nthr; i++) {
			const struct live_thread *t = &tp->thr[i];

			rest &= t->keep && t->keep_ok && t->rseen && t->rr_ok;
		}
		if (rest) {
			tp->pace_wait--;
			l->rested = true;
		}
		for (size_t i = 0; i < tp->nthr; i++) {
			tp->thr[i].pick = !rest;
			if (!rest)
				tp->picks[tp->npick++] = i;
		}
		tp->turn = rest ? (size_t)-1 : 0;
		return rest;
	}
	for (size_t i = 0; i < tp->nthr; i++) {
		struct live_thread *t = &tp->thr[i];

		/* one that did not read, or whose run time is not known, is read */
		t->pick = !t->keep || !t->keep_ok || !t->rseen || !t->rr_ok;
		if (t->pick) {
			tp->picks[tp->npick++] = i;
			continue;
		}
		if (old1 == (size_t)-1 || t->rtick < tp->thr[old1].rtick) {
			old2 = old1;
			old1 = i;
		} else if (old2 == (size_t)-1 || t->rtick < tp->thr[old2].rtick) {
			old2 = i;
		}
		/* the busiest by its last rate; of rates alike, the one read last (its rate is news) */
		rsum += t->rrun;
		if (t->rrun > 0 && (hot == (size_t)-1 || t->rrun > hrun ||
				    (t->rrun == hrun && t->rtick > tp->thr[hot].rtick))) {
			hot = i;
			hrun = t->rrun;
		}
	}
	/*
	 * one in turn, and the busiest besides where it ran more than all the
	 * others together (threads about as busy are read in turn alone); the
	 * next in turn where the busiest is the one
	 */
	if (old1 != (size_t)-1 && tp->pace_wait) {
		tp->pace_wait--;
		rest = true;
		l->rested = true;
	}
	if (hot != (size_t)-1 && 2 * hrun > rsum && hot == old1 && !rest)
		hot = old2;
	else if (hot != (size_t)-1 && 2 * hrun <= rsum)
		hot = (size_t)-1;
	if (old1 != (size_t)-1 && !rest) {
		tp->thr[old1].pick = true;
		tp->picks[tp->npick++] = old1;
		tp->turn = old1;
	}
	if (hot != (size_t)-1) {
		tp->thr[hot].pick = true;
		tp->picks[tp->npick++] = hot;
	}
	return tp->npick < tp->nthr;
}

/* After a read at t_ns: when each thread read was read, how much it runs. */
static void live_tasks_rate(const struct live *l, struct live_tasks_proc *tp, uint64_t t_ns)
{
	for (size_t i = 0; i < tp->npick; i++) {
		struct live_thread *t = &tp->thr[tp->picks[i]];

		if (!t->keep_ok)
			continue;
		t->rated = t->rseen && t_ns > t->rns && t->keep_gate >= t->ren;
		t->rrun = t->rated ? (double)(t->keep_gate - t->ren) / (double)(t_ns - t->rns) : 0;
		t->rseen = true;
		t->ren = t->keep_gate;
		t->rns = t_ns;
		t->rtick = l->tick;
	}
}

/* Before the read: what each thread picked had added at its last read (err: nothing kept). */
static void live_tasks_save(struct live *l, const struct live_tasks_proc *tp)
{
	size_t nev = l->base.ev.n;

	l->tk_old = xgrow(l->tk_old, &l->tk_oldcap, tp->npick * nev + 1, sizeof(*l->tk_old));
	for (size_t j = 0; j < tp->npick; j++) {
		const struct live_thread *t = &tp->thr[tp->picks[j]];
		struct snap_count *o = &l->tk_old[j * nev];

		for (size_t e = 0; e < nev; e++)
			o[e] = t->csum ? t->csum[e] : (struct snap_count){ .err = -ESRCH };
	}
}

/*
 * How much thread t ran since its read before (0: it did not), in the
 * units of the process's CPU clock: returned, this read's own run time
 * (for its rates), and into *gone what leaves the run time not read (its
 * kept rr, the run time given up to its last schedstat read and since,
 * follows). From its schedstat (the kernel's run time; of a process of one
 * thread, its CPU clock, at every read: live_tasks_one) at one read in
 * LIVE_TASK_RUN_EVERY, the reads since that guessed set right, up or
 * down; at the others, and where the file does not read, from its gate
 * group's enabled time by the ratio its last two schedstat reads showed
 * (each thread its own: one that runs long between switches has perf's
 * time near the clock's, one that switches often far below). So a
 * schedstat file is opened (where none can be kept) for a quarter of the
 * reads, each thread's at turns apart from the others'; a thread without
 * a ratio of its own yet is read at each of its reads (live_thread_sure:
 * guessed by the process's ratio, the work of a team that lasted a few
 * turns was counted up to 14 % over). A thread's groups have more than it ran where it started threads
 * since its attach (they count in its groups, not in its schedstat): more
 * than its run time, or, where the process has threads not counted by
 * their own (tp->more), a quarter more than its ratio makes of it (else
 * that is a new ratio of its own); then their time counts, by its ratio
 * (the process's, alpha, until it has one). A thread gone has its
 * run time from its groups (it runs no more); one whose read failed waits
 * for its next (its kept reads stand, its gate too).
 */
static bool live_thread_sure(const struct live_thread *t)
{
	return !t->rr_ok || t->rskip + 1 >= LIVE_TASK_RUN_EVERY || t->ralpha <= 0 || t->rnew;
}

/*
 * Whether tp is a process of one thread (no more threads now than its
 * sets, and its clock read this tick), whose CPU clock is its thread's run
 * time (and that of threads gone before, which no longer moves): one call,
 * no file, so each of its reads takes its run time so (live_thread_runtime).
 */
static bool live_tasks_one(const struct live_tasks_proc *tp)
{
	return tp->nthr == 1 && !tp->more && tp->clk_now_ok;
}

/*
 * Thread t's run time (ns): of a process of one thread, its clock read now
 * (*clk set); else its schedstat. The two differ by the run time of the
 * threads gone before, so a thread whose run time changes from one to the
 * other takes it anew, as at its first read (live_thread_ran).
 */
static int live_thread_runtime(struct live *l, struct live_tasks_proc *tp, struct live_thread *t,
			       int pid, uint64_t *run, bool *clk)
{
	/* after the group reads, as the schedstat read is: the run time has all they counted */
	*clk = live_tasks_one(tp) && !sysops_cpuclock(l->ops, pid, run);
	if (*clk)
		return 0;
	return live_thread_run(l, pid, t->tid, &tp->taskfd, &t->rfd, run);
}

static uint64_t live_thread_ran(struct live *l, struct live_tasks_proc *tp, struct live_thread *t,
				int pid, double alpha, double *gone)
{
	bool ran = !t->rseen || t->keep_gate != t->ren;
	bool sure = t->rsure;
	uint64_t run = 0, den_gate = t->rseen && t->keep_gate >= t->ren ? t->keep_gate - t->ren : 0;
	double ratio = t->ralpha > 0 ? t->ralpha : alpha, own;
	uint64_t span, span_en, given;
	bool over, ahead, whole, clk = false;
	int r;

	*gone = 0;
	t->rmoved = false;
	/* one whose schedstat never read is read, run or not: its run time is had from then */
	if ((!ran && t->rr_ok) || !t->keep_ok)
		return 0;
	if (ratio < LIVE_TASK_RATIO_MIN)
		ratio = LIVE_TASK_RATIO_MIN;
	own = (double)den_gate / ratio;
	r = sure ? live_thread_runtime(l, tp, t, pid, &run, &clk) : -EAGAIN;
	if (r) {
		if (!t->rr_ok && r != -ESRCH)
			return 0;
		t->rr += (uint64_t)own;
		t->rskip++;
		/* one whose file did not read is read again at its next turn */
		if (r != -EAGAIN && r != -ESRCH)
			t->rskip = LIVE_TASK_RUN_EVERY;
		t->rr_ok = true;
		*gone = own;
		return (uint64_t)own;
	}
	/* the first run time, or one of the other kind than the last (clock, schedstat) */
	if (!t->rr_ok || t->rr_clk != clk) {
		t->rr = t->rr0 = run;
		t->rr0_en = t->keep_gate;
		t->rr_ok = true;
		t->rr_clk = clk;
		/* its schedstat read at turns apart from the other threads' */
		t->rskip = (unsigned char)((unsigned)t->tid % LIVE_TASK_RUN_EVERY);
		/* after a first read that failed: what it ran since its read before, by its groups */
		*gone = own;
		return (uint64_t)own;
	}
	span = run >= t->rr0 ? run - t->rr0 : 0;
	span_en = t->keep_gate >= t->rr0_en ? t->keep_gate - t->rr0_en : 0;
	given = t->rr >= t->rr0 ? t->rr - t->rr0 : 0;
	/* the read before was one of its schedstat too: the span is this read's own */
	whole = t->rr0_en == t->ren;
	t->rskip = 0;
	/* beyond what the two reads' moments apart may put between them */
	over = span_en > span + span / 1024;
	ahead = !over && tp->more && t->ralpha > 0 &&
		(double)span_en > 1.25 * t->ralpha * (double)span;
	t->rmoved = over || ahead;
	if (over || ahead) {
		span = (uint64_t)((double)span_en / ratio);
	} else if (span && span_en && !tp->jumped) {
		/* of a thread that started none since, the ratio of perf's time to the kernel's */
		tp->alpha[0] += (double)span_en;
		tp->alpha[1] += (double)span;
		double was = t->ralpha;

		t->ralpha = (double)span_en / (double)span;
		/*
		 * the first ratio known, or the first after a read in full for a
		 * jump (rnew): its schedstat read at turns apart from the other
		 * threads'; one that moved by more than a quarter (the span may
		 * have had some of the old) is read again at its next turn
		 */
		if (was <= 0 || t->rnew)
			t->rskip = (unsigned char)((unsigned)t->tid % LIVE_TASK_RUN_EVERY);
		else if (t->ralpha > 1.25 * was || was > 1.25 * t->ralpha)
			t->rskip = LIVE_TASK_RUN_EVERY - 1, t->rmoved = true;
		own = (double)den_gate / t->ralpha;
	}
	/*
	 * read in full for a jump, its span had some of the work before: its
	 * ratio is not taken from it (nor pooled), but at its next read, which
	 * reads its schedstat (live_thread_sure), and from there at turns
	 * apart as the first is; its ratio before stands meanwhile
	 */
	t->rnew = tp->jumped;
	*gone = (double)span - (double)given;
	t->rr = t->rr0 = run;
	t->rr0_en = t->keep_gate;
	return whole ? span : (uint64_t)own;
}

/* Whether count b, read after a, holds and grew from it in value and both times. */
static bool live_count_grew(const struct snap_count *a, const struct snap_count *b)
{
	return !a->err && !b->err && b->value >= a->value && b->enabled >= a->enabled &&
	       b->running >= a->running;
}

/*
 * Thread t's rates (t->ra, of its read at t->rns) into the process's sums,
 * or out of them (sign -1): their sum, and their sum each times its read's
 * time from tp->t0, so that what every thread's rates weigh by the time
 * since its read is had at once (live_tasks_shares).
 */
static void live_thread_sums(struct live_tasks_proc *tp, const struct live_thread *t, size_t n,
			     double sign)
{
	double at;

	if (!t->ra || !t->rseen)
		return;
	at = sign * ((double)t->rns - (double)tp->t0);
	if (t->ra[n - 1] > 0)
		tp->sn += (long)sign;
	for (size_t x = 0; x < n; x++) {
		tp->sa[x] += sign * t->ra[x];
		tp->sb[x] += at * t->ra[x];
	}
}

/*
 * Thread t, read at t_ns, added what o held: what it counted a ns since its
 * read before, per event (value, enabled, running), then its run time (dr)
 * a ns, into t->ra; nothing where it was not read before or did not run.
 * The process's sums take the new rates for the old.
 */
static void live_thread_rates(const struct live *l, struct live_tasks_proc *tp,
			      struct live_thread *t, const struct snap_count *o, uint64_t dr,
			      uint64_t t_ns)
{
	size_t nev = l->base.ev.n, n = 3 * nev + 1;
	double dt = t->rseen && t_ns > t->rns ? (double)(t_ns - t->rns) : 0;
	bool was = t->rseen;
	uint64_t rns = t->rns;

	/* not read: its rates stand, as its read's time does (live_tasks_rate) */
	if (!t->keep_ok)
		return;
	live_thread_sums(tp, t, n, -1);
	if (!t->ra)
		t->ra = xcalloc(n, sizeof(*t->ra));
	memset(t->ra, 0, n * sizeof(*t->ra));
	if (dt && dr && t->csum) {
		for (size_t e = 0; e < nev; e++) {
			const struct snap_count *a = &o[e], *b = &t->csum[e];

			if (!live_count_grew(a, b))
				continue;
			t->ra[3 * e] = (double)(b->value - a->value) / dt;
			t->ra[3 * e + 1] = (double)(b->enabled - a->enabled) / dt;
			t->ra[3 * e + 2] = (double)(b->running - a->running) / dt;
		}
		t->ra[3 * nev] = (double)dr / dt;
	}
	/* in at its read's time, as live_tasks_rate keeps it next */
	t->rns = t_ns;
	t->rseen = true;
	live_thread_sums(tp, t, n, 1);
	t->rns = rns;
	t->rseen = was;
}

/* What thread t counted since its read before (o) and its run time dr, into the process's pool. */
static void live_tasks_pool(const struct live *l, struct live_tasks_proc *tp,
			    const struct live_thread *t, const struct snap_count *o, uint64_t dr)
{
	size_t nev = l->base.ev.n;
	double *den = tp->pool + 3 * nev;

	for (size_t e = 0; e < nev; e++) {
		const struct snap_count *a = &o[e], *b = &t->csum[e];

		if (!live_count_grew(a, b))
			continue;
		tp->pool[3 * e] += (double)(b->value - a->value);
		tp->pool[3 * e + 1] += (double)(b->enabled - a->enabled);
		tp->pool[3 * e + 2] += (double)(b->running - a->running);
		den[e] += (double)dr;
	}
}

/*
 * Whether thread t, read in turn, counted since its read before (o) what
 * its rates at that read (ra, before this read's) make of its running time
 * since: each event that grew, a ns of its running time (so that neither
 * multiplexing nor the thread's ratio of perf's time to the kernel's weighs
 * on it), within LIVE_TASK_PACE_TOL and three times the square root of the
 * count (counts that come singly, as switches do, scatter by that much).
 * 1: alike; 0: not; -1: nothing to tell (no count of LIVE_TASK_PACE_MIN,
 * a thread that slept).
 */
static int live_tasks_alike(const struct live *l, const struct live_thread *t,
			    const struct snap_count *o, const double *ra)
{
	size_t nev = l->base.ev.n;
	int any = -1;

	for (size_t e = 0; e < nev; e++) {
		const struct snap_count *a = &o[e], *b = &t->csum[e];
		double want, got, slack;

		if (!live_count_grew(a, b) || b->running == a->running || !(ra[3 * e + 2] > 0))
			continue;
		want = ra[3 * e] / ra[3 * e + 2] * (double)(b->running - a->running);
		got = (double)(b->value - a->value);
		if (want < LIVE_TASK_PACE_MIN && got < LIVE_TASK_PACE_MIN)
			continue;
		slack = LIVE_TASK_PACE_TOL * want + 3 * sqrt(want);
		if (got > want + slack || want > got + slack)
			return 0;
		any = 1;
	}
	return any;
}

/*
 * After a read in turn: the next one a tick later, or, where the thread
 * read counted as its rates before make of its running time
 * (live_tasks_alike) and its ratio of perf's time to the kernel's did not
 * move (moved), twice as many ticks later as the last, up to
 * LIVE_TASK_PACE_MOST (live_opts.turn_pace): threads in steady work are
 * guessed as well from the clock and their rates as from one more read,
 * and a process of them costs a group set's reads one tick in four. A
 * thread unlike its rates or whose ratio moved sets the pace back to one
 * a tick, as a jump, a read in full and a clock unlike the rates do
 * (live_tasks_steady, live_tasks_pick), and so do threads started since
 * the attach, at every read in turn while the process has more threads
 * than sets (their counts are in their starters' groups); a thread that tells
 * nothing (alike -1: it slept, or counted too little to weigh) leaves the
 * pace as it was. Of a process of few threads, all read at once, any
 * thread unlike sets the pace back, and any alike with none unlike lets
 * it grow.
 */
static void live_tasks_paced(const struct live *l, struct live_tasks_proc *tp, int alike,
			     bool moved)
{
	unsigned pace = tp->pace > 1 ? tp->pace : 1;
	unsigned most = l->o.turn_pace ? l->o.turn_pace : LIVE_TASK_PACE_MOST;

	if (moved || !alike || tp->more)
		tp->pace = 1;
	else if (alike > 0)
		tp->pace = 2 * pace < most ? 2 * pace : most;
	tp->pace_wait = tp->pace > 1 ? tp->pace - 1 : 0;
}

/*
 * After the read at t_ns, before live_tasks_rate: each thread picked ran dr
 * since its read before (live_thread_ran). What it counted meanwhile and
 * dr, a ns, are its rates (live_thread_rates), and go to the process's
 * pool of counts per run time (tp->pool, older ticks weighing less); dr
 * leaves the run time of the threads not read (tp->unread), to which the
 * process clock adds what it moved since the last read. A read of every
 * thread leaves none unread.
 */
static void live_tasks_runs(struct live *l, struct live_tasks_proc *tp, int pid, uint64_t t_ns)
{
	size_t nev = l->base.ev.n, n3 = 3 * nev;
	bool moved = false, whole = live_tasks_whole(tp);
	int alike = -1;

	for (size_t x = 0; x < n3 + nev; x++)
		tp->pool[x] *= LIVE_TASK_POOL;
	tp->alpha[0] *= LIVE_TASK_POOL;
	tp->alpha[1] *= LIVE_TASK_POOL;
	if (tp->clk_ok && tp->clk_now_ok && tp->clk_now >= tp->clk)
		tp->unread += (double)(tp->clk_now - tp->clk);
	/*
	 * the sums of the threads' rates anew where every thread is read (so at
	 * an attach) and every LIVE_TASK_RESUM reads, against rounding
	 */
	if (tp->npick == tp->nthr || !(tp->updates % LIVE_TASK_RESUM)) {
		memset(tp->sa, 0, (n3 + 1) * sizeof(*tp->sa));
		memset(tp->sb, 0, (n3 + 1) * sizeof(*tp->sb));
		tp->sn = 0;
		tp->t0 = t_ns;
		for (size_t i = 0; i < tp->nthr; i++)
			live_thread_sums(tp, &tp->thr[i], n3 + 1, 1);
	}
	/*
	 * the threads whose schedstat is read first, then the others by the
	 * ratio of perf's time a ns of run time lately, theirs included (1
	 * until known)
	 */
	for (size_t j = 0; j < tp->npick; j++)
		tp->thr[tp->picks[j]].rsure = tp->jumped || live_tasks_one(tp) ||
					      live_thread_sure(&tp->thr[tp->picks[j]]);
	for (int k = 0; k < 2; k++) {
		double alpha = tp->alpha[1] > 0 ? tp->alpha[0] / tp->alpha[1] : 1;

		for (size_t j = 0; j < tp->npick; j++) {
			struct live_thread *t = &tp->thr[tp->picks[j]];
			const struct snap_count *o = &l->tk_old[j * nev];
			bool based = t->rr_ok;
			double gone;
			uint64_t dr;

			if (t->rsure != !k)
				continue;
			dr = live_thread_ran(l, tp, t, pid, alpha, &gone);
			/*
			 * for the pace of the reads in turn: by its rates before
			 * this read's; of few threads, each read (any unlike sets
			 * the pace back, any alike and none unlike lets it grow)
			 */
			if (tp->picks[j] == tp->turn || (whole && tp->turn != (size_t)-1)) {
				int a = t->ra && t->rseen && based && t->csum && dr
						? live_tasks_alike(l, t, o, t->ra)
						: -1;

				alike = !a || !alike ? 0 : a > alike ? a : alike;
				moved |= t->rmoved;
			}
			live_thread_rates(l, tp, t, o, based ? dr : 0, t_ns);
			if (based && t->csum && dr)
				live_tasks_pool(l, tp, t, o, dr);
			tp->unread -= gone;
		}
	}
	if (tp->turn != (size_t)-1)
		live_tasks_paced(l, tp, alike, moved);
	/* below 0: guessed too much, which the next schedstat reads give back */
	if (tp->npick == tp->nthr)
		tp->unread = 0;
}

/*
 * What the threads not read counted a ns of their run time, into r (per
 * event: value, enabled, running): each one's rates at its last read,
 * weighed by the run time it had since as those rates make it (its run a
 * ns times the time since its read), so that the run time not read is
 * shared out among the threads as they ran, each part at its own thread's
 * rates. Threads alike or not: a thread that counts more a ns of its run
 * time counts more in the guess only as much as it ran. False where none
 * of them ran at its last read (the pool is taken then).
 */
static bool live_tasks_shares(const struct live *l, const struct live_tasks_proc *tp, uint64_t t_ns,
			      double *r)
{
	size_t n3 = 3 * l->base.ev.n;
	double at = (double)t_ns - (double)tp->t0;
	double run = at * tp->sa[n3] - tp->sb[n3];

	/*
	 * none that ran at its last read: what the sums hold is rounding; the
	 * threads read at t_ns weigh nothing
	 */
	if (tp->sn <= 0 || !(run > 1e-6 * at * tp->sa[n3]))
		return false;
	for (size_t x = 0; x < n3; x++) {
		r[x] = (at * tp->sa[x] - tp->sb[x]) / run;
		if (r[x] < 0)
			r[x] = 0;
	}
	return true;
}

/*
 * After each read of tp's sets into c (the sums of every thread's last
 * read): when the read left threads unread, what they counted since their
 * last reads is guessed: the run time they had (the process clock's part
 * that no read has, live_tasks_runs) times what they counted a ns of run
 * time at their last reads, each as much as it ran (live_tasks_shares;
 * the pool of the reads lately where none ran then). So a process whose
 * threads run half as much counts half as much at once, and every time is
 * in the kernel's units (perf's enabled time grows by less than the clock,
 * which takes in the switches around each run). The guesses are added to
 * the reads' sums, marked estimated (the enabled time grows by 1 ns more
 * than the running time), and never taken back: a count given never
 * falls, and when a thread read later brings less than was guessed for
 * it, the counts stand (still marked) until the reads pass them. So summed
 * over the ticks they are the kernel's. A read of every thread that
 * guessed nothing before gives the sums as they are.
 */
static void live_tasks_est(const struct live *l, struct live_tasks_proc *tp, struct snap_count *c,
			   uint64_t t_ns)
{
	size_t nev = l->base.ev.n, n3 = 3 * nev;
	double *sh = l->tk_shares;
	bool shared = tp->skipped && live_tasks_shares(l, tp, t_ns, sh);

	for (size_t e = 0; e < nev; e++) {
		uint64_t *d = &tp->est[3 * e], *k = &tp->est[n3 + 3 * e], g[3], dr, de;
		uint64_t r[3] = { c[e].value, c[e].enabled, c[e].running };
		double den = tp->pool[n3 + e];
		bool fell = !tp->est_ok, est;

		if (c[e].err)
			continue;
		for (int x = 0; x < 3; x++) {
			double o = !tp->skipped ? 0
				   : shared	? sh[3 * e + x] * tp->unread
				   : den > 0	? tp->pool[3 * e + x] / den * tp->unread
						: 0;

			fell |= r[x] < k[x];
			k[x] = r[x];
			g[x] = r[x] + (o > 0 ? (uint64_t)(o + 0.5) : 0);
		}
		/* a sum that fell lost a group or was opened again: passed on as it is */
		if (fell) {
			memcpy(d, g, sizeof(g));
			continue;
		}
		est = tp->skipped || d[0] > g[0];
		dr = g[2] > d[2] ? g[2] - d[2] : 0;
		de = g[1] > d[1] ? g[1] - d[1] : 0;
		if (de < dr)
			de = dr;
		/*
		 * a count guessed, or one that grew, where the running time
		 * given is ahead of the reads' (guessed over): 1 us of it,
		 * enabled by the ratio the pool has, so that the count (or
		 * the 0 of one held) is not an n/a
		 */
		if (!dr && (est || g[0] > d[0])) {
			double run = tp->pool[3 * e + 2], en = tp->pool[3 * e + 1];

			dr = LIVE_TASK_NOMINAL_NS;
			de = run > 0 && en > run ? (uint64_t)((double)dr * en / run + 0.5) : dr;
		}
		d[0] = d[0] > g[0] ? d[0] : g[0];
		d[1] += de + est;
		d[2] += dr;
		c[e].value = d[0];
		c[e].enabled = d[1];
		c[e].running = d[2];
	}
	tp->est_ok = true;
}

/*
 * A process new to the hardware top's choices: its CPU time at the next one
 * counts from its first read with its clock (the attach's own read has
 * none), or by its stat's clock ticks where the read after has none either.
 */
static void live_tasks_fresh(const struct live *l, struct live_tasks_proc *tp)
{
	if (tp->hw_fresh && (tp->clk_ok || !--tp->hw_fresh)) {
		tp->hw_fresh = 0;
		tp->hw_clk0 = tp->clk;
		tp->hw_clk_ok = tp->clk_ok;
		tp->hw_base_tick = l->tick;
	}
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
	bool turns = live_tasks_turns(l, tp, &ly);

	l->gread_pid = 0;
	tp->skipped = live_tasks_pick(l, tp, &ly, stash);
	if (turns) {
		if (!tp->pool) {
			tp->pool = xcalloc(4 * nev + 1, sizeof(*tp->pool));
			tp->est = xcalloc(6 * nev + 1, sizeof(*tp->est));
			tp->sa = xcalloc(3 * nev + 1, sizeof(*tp->sa));
			tp->sb = xcalloc(3 * nev + 1, sizeof(*tp->sb));
		}
		l->tk_shares =
			xgrow(l->tk_shares, &l->tk_sharescap, 3 * nev + 1, sizeof(*l->tk_shares));
		live_tasks_save(l, tp);
	}
	live_tasks_read(l, tp, &ly, stash, c, &gate, t_ns);
	/* threads started since the attach count in the groups of the threads that started them */
	tp->more = st->threads > 0 && (size_t)st->threads > tp->nthr;
	if (turns)
		live_tasks_runs(l, tp, p->pid, *t_ns);
	live_tasks_rate(l, tp, *t_ns);
	tp->updates++;
	l->ran_now++;
	if (tp->partial)
		live_partial_scale(tp, st, c, nev);
	else if (turns || tp->est_ok)
		/* reads in turn that stopped hold what they guessed over until the reads pass it */
		live_tasks_est(l, tp, c, *t_ns);
	/* the perf event reads 0 without kernel mode: take the kernel's own counts */
	if (!l->kernel && l->base.ev.role_idx[EV_CTX_SWITCHES] >= 0)
		live_ctxsw_fill(l, p->pid, &tp->ctxsw, snap->t_ns,
				&c[l->base.ev.role_idx[EV_CTX_SWITCHES]]);
	if (ly.gate_set < 0) {
		live_tasks_fresh(l, tp);
		return;
	}
	/* what the gate compares with next tick */
	p->idle = 0;
	live_keep_counts(l, c, &p->cnt, &p->gate, gate);
	tp->clk = tp->clk_now;
	tp->clk_ns = tp->clk_now_ns;
	tp->clk_ok = tp->clk_now_ok && p->cnt;
	tp->clk_now_ok = false;
	live_tasks_fresh(l, tp);
}

/*
 * Before a tick's attaches: how many of the processes it keeps have
 * hardware sets, and how many are counted without their stat file kept.
 */
static void live_tasks_attach_begin(struct live *l, const struct live_proc *procs, size_t n)
{
	l->hw_nfull = l->stat_missing = 0;
	for (size_t i = 0; i < n; i++) {
		const struct live_tasks_proc *tp = procs[i].be;

		l->hw_nfull += !procs[i].skip && !procs[i].err && tp && tp->nthr && !tp->lite;
		l->stat_missing += !procs[i].skip && !procs[i].err && procs[i].statfd < 0;
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
	/* new (not moved between layouts): its CPU time counts from a read (live_tasks_fresh) */
	tp->hw_fresh = p->err != LIVE_RETRY ? 2 : 0;
	tp->hw_cpu0 = st->cpu;
	r = live_attach(l, p, st);
	l->hw_nfull += !r && !tp->lite;
	/* its stat file is opened after the tick's attaches (live_keep_stat) */
	l->stat_missing += !r && p->statfd < 0;
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

/*
 * After a tick: where counters found too few descriptors, the schedstat
 * files (and task directories) kept for threads read in turn closed, for
 * them; whether processes of few threads are read at the pace next tick
 * (LIVE_TASK_PACE_FROM); the groups that never ran split, the hardware top
 * chosen again.
 */
static void live_tasks_tick_end(struct live *l)
{
	unsigned from = l->o.pace_few_from ? l->o.pace_few_from : LIVE_TASK_PACE_FROM;

	for (size_t i = 0;
	     i < l->nprocs && ((l->run_nokeep && l->run_fds) || (l->run_short && l->run_dirs));
	     i++) {
		struct live_tasks_proc *tp = l->procs[i].be;

		for (size_t k = 0; tp && k < tp->nthr; k++)
			live_thread_run_close(l, &tp->thr[k].rfd);
		if (tp && l->run_short)
			live_thread_dir_close(l, &tp->taskfd);
	}
	/* processes of few threads at the pace: on at from that ran, off below half */
	l->pace_few = live_pace_few_next(l->pace_few, l->ran_now, from);
	l->ran_now = 0;
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
	live_thread_dir_close(l, &tp->taskfd);
	free(tp->thr);
	free(tp->todo);
	free(tp->part_raw);
	free(tp->part_out);
	free(tp->est);
	free(tp->pool);
	free(tp->sa);
	free(tp->sb);
	free(tp->tot.c);
	free(tp->picks);
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
