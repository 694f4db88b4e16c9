/* Live source, per-thread rows: a group set per thread, kept while the thread lives. */
#include "config.h"
#include "collect/live.h"
#include "collect/live_tasks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void live_close_tthread(struct live *l, struct live_thread *t)
{
	live_close_groups(l, &t->g);
	free(t->cnt);
	t->cnt = NULL;
}

void live_close_tthreads(struct live *l, struct live_tasks_proc *tp)
{
	for (size_t i = 0; i < tp->ntt; i++)
		live_close_tthread(l, &tp->tt[i]);
	free(tp->tt);
	tp->tt = NULL;
	tp->ntt = 0;
}

struct snap_task *live_thread_row(struct live *l, const struct live_proc *p, int tid, char state,
				  unsigned long long start, const char *comm,
				  unsigned long long cpu, int err, struct snapshot *snap)
{
	struct snap_task *e = snapshot_add_thread(snap, tid, p->pid);

	e->uid = p->uid;
	snprintf(e->user, sizeof(e->user), "%s", p->user);
	e->state = state;
	e->threads = 1;
	e->start = start;
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
	snapshot_task_set_cmdline(e, p->cmdline);
	snapshot_task_set_cgroup(e, p->cgroup);
	/* a thread's own CPU time; its memory is the process's, as top shows it */
	e->pflags = SNAP_TASK_PROC | (p->kthread ? SNAP_TASK_KTHREAD : 0);
	e->rss_kib = live_pages_kib(p->last.rss);
	/* NI, P, VIRT and SHR of the process, as its memory is */
	e->nice = p->last.nice;
	e->processor = p->last.processor;
	e->virt_kib = p->last.vsize / 1024;
	e->pflags |= SNAP_TASK_MORE;
	if (p->shr_ok) {
		e->shr_kib = live_pages_kib(p->shr);
		e->pflags |= SNAP_TASK_SHR;
	}
	e->cpu_ns = live_ticks_ns(cpu);
	e->err = err;
	for (size_t k = 0; k < l->base.ev.n; k++)
		e->c[k].err = l->base.ev.ev[k].err ? l->base.ev.ev[k].err : err;
	return e;
}

/*
 * The snapshot entry of per-thread row t of p: its last counts when idle,
 * else its counts read now, kept for the ticks it does not run.
 */
static void live_thread_entry(struct live *l, const struct live_proc *p, bool lite,
			      struct live_thread *t, bool idle, struct snapshot *snap)
{
	struct snap_task *e =
		live_thread_row(l, p, t->tid, t->state, t->start, t->comm, t->cpu, t->err, snap);
	size_t nev = l->base.ev.n;
	uint64_t gate;
	struct live_layout ly = live_ly(l, lite);

	if (t->err)
		return;
	if (idle) {
		memcpy(e->c, t->cnt, nev * sizeof(*e->c));
		return;
	}
	live_sum_groups(l, &ly, t, 1, e->c, false, &gate, false);
	e->t_ns = sysops_now(l->ops);
	t->idle = 0;
	live_keep_counts(l, e->c, &t->cnt, &t->gate, gate);
}

/*
 * Whether thread row t did not run since its last full read: its gate
 * group was enabled no longer (as for processes). Then neither its stat
 * file nor its other groups are read; its stat at least every
 * LIVE_IDLE_REFRESH ticks.
 */
static bool live_thread_idle(struct live *l, bool lite, struct live_thread *t)
{
	const struct live_gdef *gd;
	struct live_layout ly = live_ly(l, lite);

	if (ly.gate_set < 0 || !t->g || t->err || !t->cnt || t->idle >= LIVE_IDLE_REFRESH)
		return false;
	gd = &ly.tg[ly.gate_set];
	if (counters_read_group(&t->g[ly.gate_set], l->tmp) || l->tmp[gd->ev[0]].enabled != t->gate)
		return false;
	t->idle++;
	return true;
}

/*
 * A thread gone since the last tick: its counters keep their final counts,
 * so its row is shown once more with what it counted before it exited (the
 * thread rows then add up to the process row), then closed.
 */
static void live_end_tthread(struct live *l, const struct live_proc *p, bool lite,
			     struct live_thread *t, struct snapshot *snap)
{
	if (t->g && !t->err) {
		t->state = 'X';
		live_thread_entry(l, p, lite, t, false, snap);
	}
	live_close_tthread(l, t);
}

/*
 * The thread rows of p when its CPU clock says no thread ran since the last
 * tick: none started or exited either, so the rows are those of the last
 * tick, each with its last counts, without listing the threads or reading
 * a group. Not when a row waits for a full read (an error, no counts yet,
 * a stat due): false, and the rows are made the usual way.
 */
static bool live_threads_idle(struct live *l, struct live_proc *p, struct live_tasks_proc *tp,
			      struct snapshot *snap)
{
	if (!tp->tt)
		return false;
	for (size_t i = 0; i < tp->ntt; i++) {
		const struct live_thread *t = &tp->tt[i];

		if (!t->g || t->err || !t->cnt || t->idle >= LIVE_IDLE_REFRESH)
			return false;
	}
	for (size_t i = 0; i < tp->ntt; i++) {
		tp->tt[i].idle++;
		live_thread_entry(l, p, tp->lite, &tp->tt[i], true, snap);
	}
	return true;
}

/*
 * Per-thread rows: every current thread of p gets a set of its own (no
 * inheritance), kept across ticks and closed when the thread is gone. A
 * thread that did not run since the last tick is not read again.
 */
void live_fill_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	struct live_tasks_proc *tp = live_tasks_of(p);
	char path[64];
	long n;
	struct live_thread *next;
	size_t nn = 0, old = 0;

	if (p->clk_idle && live_threads_idle(l, p, tp, snap))
		return;
	snprintf(path, sizeof(path), "%d/task", p->pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0)
		n = 0;
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		int tid = l->tids[i];
		struct proc_stat st;
		struct live_thread *t = &next[nn];

		while (old < tp->ntt && tp->tt[old].tid < tid)
			live_end_tthread(l, p, tp->lite, &tp->tt[old++], snap);
		if (old < tp->ntt && tp->tt[old].tid == tid &&
		    live_thread_idle(l, tp->lite, &tp->tt[old])) {
			*t = tp->tt[old];
			memset(&tp->tt[old++], 0, sizeof(*t));
			nn++;
			live_thread_entry(l, p, tp->lite, t, true, snap);
			continue;
		}
		if (proc_read_stat(l->rootfd, p->pid, tid, &st))
			continue;
		if (old < tp->ntt && tp->tt[old].tid == tid && tp->tt[old].start == st.start) {
			*t = tp->tt[old];
			memset(&tp->tt[old++], 0, sizeof(*t));
		} else {
			if (old < tp->ntt && tp->tt[old].tid == tid)
				live_close_tthread(l, &tp->tt[old++]);
			t->tid = tid;
			t->start = st.start;
			t->err = live_open_groups(l, &t->g, tid, 0, tp->lite);
			/* gone, or on its way out: not shown; a thread still there is tried next tick */
			if (t->err == -ESRCH || t->err == -ENODEV)
				continue;
		}
		nn++;
		t->state = st.state;
		t->cpu = st.cpu;
		snprintf(t->comm, sizeof(t->comm), "%s", st.comm);
		live_thread_entry(l, p, tp->lite, t, false, snap);
	}
	while (old < tp->ntt)
		live_end_tthread(l, p, tp->lite, &tp->tt[old++], snap);
	free(tp->tt);
	tp->tt = next;
	tp->ntt = nn;
}
