/* Live source, tasks: attach and detach per process and thread, rescans, the fd budget. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"

static const char *live_user_name(struct live *l, unsigned uid)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	struct live_user *u;

	for (size_t i = 0; i < l->nusers; i++)
		if (l->users[i].uid == uid)
			return l->users[i].name;
	l->users = xgrow(l->users, &l->ucap, l->nusers + 1, sizeof(*l->users));
	u = &l->users[l->nusers++];
	u->uid = uid;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		snprintf(u->name, sizeof(u->name), "%s", res->pw_name);
	else
		snprintf(u->name, sizeof(u->name), "%u", uid);
	return u->name;
}

/* Clock ticks in ns, pages in KiB: the units of /proc/PID/stat into the snapshot's. */
uint64_t live_ticks_ns(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? (uint64_t)ticks * (1000000000ull / (uint64_t)hz) : 0;
}

uint64_t live_pages_kib(unsigned long long pages)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)pages * ((uint64_t)ps / 1024) : 0;
}

/* The group definitions of a set: every event, or the software ones (lite). */
static struct live_layout live_ly(const struct live *l, bool lite)
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

static uint64_t live_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Close a thread's group set (as live_open_groups opened it, either layout) and free it. */
static void live_close_groups(struct live *l, struct counters_group **g)
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

static void live_close_tthread(struct live *l, struct live_thread *t)
{
	live_close_groups(l, &t->g);
	free(t->cnt);
	t->cnt = NULL;
}

static void live_close_tthreads(struct live *l, struct live_proc *p)
{
	for (size_t i = 0; i < p->ntt; i++)
		live_close_tthread(l, &p->tt[i]);
	free(p->tt);
	p->tt = NULL;
	p->ntt = 0;
}

static void live_close_proc(struct live *l, struct live_proc *p)
{
	if (p->statfd >= 0) {
		l->ops->close(l->ops->ctx, p->statfd);
		l->fds_open--;
	}
	live_close_tthreads(l, p);
	for (size_t i = 0; i < p->nthr; i++)
		live_close_groups(l, &p->thr[i].g);
	free(p->thr);
	free(p->todo);
	free(p->cmdline);
	free(p->cgroup);
	free(p->cnt);
	free(p->part_raw);
	free(p->part_out);
	free(p->bpf_base);
	live_ctxsw_free(p);
	live_procfs_free(p);
	memset(p, 0, sizeof(*p));
	p->statfd = -1;
}

/*
 * Open every task group on one thread; 0 or -errno with nothing left open.
 * -EMFILE without trying when the descriptors pmctop keeps for itself would
 * be touched: scanning /proc must go on when counters run out.
 */
static int live_open_groups(struct live *l, struct counters_group **out, int tid, unsigned flags,
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
		/* by the budget: as many as fit, found when attaching and at each choice */
		l->hw_k = l->o.hw_top ? l->o.hw_top : (size_t)-1;
	}
	if (!l->told_hw_top) {
		l->told_hw_top = true;
		live_tell_err(l, ERRMSG_HW_TOP, l->o.hw_top ? 0 : -EMFILE, NULL,
			      (long long)l->o.hw_top);
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
static void live_attach_drop(struct live *l, struct live_proc *p)
{
	for (size_t k = 0; k < p->nthr; k++)
		live_close_groups(l, &p->thr[k].g);
	p->nthr = 0;
	free(p->todo);
	p->todo = NULL;
	p->ntodo = p->todo_i = 0;
}

/* Threads an attach opens in a tick before it looks at the time: progress, however slow. */
#define LIVE_ATTACH_LEAST 64

static int live_attach(struct live *l, struct live_proc *p, const struct proc_stat *st)
{
	size_t opened = 0, n;

	if (l->bpf)
		return 0; /* counted by the context-switch program: nothing to open */
	if (l->pfs)
		return 0; /* counted from /proc: nothing to open */
	if (!p->todo) {
		char path[64];
		long ln;
		size_t room, left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;

		snprintf(path, sizeof(path), "%d/task", p->pid);
		ln = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
		if (ln < 0)
			return ln == -ENOENT ? -ESRCH : (int)ln;
		n = (size_t)ln;
		free(p->thr); /* a retry after running out of descriptors */
		p->nthr = 0;
		p->partial = false;
		/*
		 * every thread with the software events alone (or as many as fit),
		 * rather than fewer with all, and rather than leave the processes
		 * still to attach without their software sets: the hardware events
		 * then go to the busiest processes that fit (live_hw_top)
		 */
		if (!p->lite && l->nsw && n * l->set_fds + l->reserve * l->sw_fds > left) {
			p->lite = true;
			live_hw_limit(l);
		}
		room = left / (live_ly(l, p->lite).set_fds ? live_ly(l, p->lite).set_fds : 1);
		if (!room && n)
			return -EMFILE;
		p->want = n;
		if (p->want > room) {
			/* what the processes still to attach this tick need, up to half */
			p->want = room - (l->reserve < room / 2 ? l->reserve : room / 2);
			live_order_threads(l, p, n);
		}
		p->thr = xcalloc(n ? n : 1, sizeof(*p->thr));
		p->todo = xcalloc(n ? n : 1, sizeof(*p->todo));
		memcpy(p->todo, l->tids, n * sizeof(*p->todo));
		p->ntodo = n;
		p->todo_i = p->gone = 0;
		p->attach_err = -ESRCH;
		p->part_cpu0 = live_ticks_ns(st->cpu);
		free(p->part_raw);
		free(p->part_out);
		p->part_raw = p->part_out = NULL;
	}
	while (p->todo_i < p->ntodo && p->nthr < p->want) {
		int r;

		/* thousands of threads: the rest next tick, so that the frame does not wait */
		if (opened >= LIVE_ATTACH_LEAST && live_now_ns() > l->attach_until) {
			p->attach_split = true;
			return LIVE_UNATTACHED;
		}
		r = live_open_thread(l, &p->thr[p->nthr], p->todo[p->todo_i++], p->lite);
		opened++;
		if (r == 0) {
			p->nthr++;
			continue;
		}
		p->attach_err = r;
		if (r == -ESRCH) {
			p->gone++; /* the thread exited meanwhile */
			continue;
		}
		if ((r == -EMFILE || r == -ENFILE) && p->nthr)
			break;
		live_attach_drop(l, p);
		return r;
	}
	n = p->ntodo;
	free(p->todo);
	p->todo = NULL;
	if (!p->nthr)
		return p->attach_err;
	p->thr_all = n - p->gone;
	p->partial = p->nthr < p->thr_all;
	p->partial_why = -EMFILE;
	/*
	 * Over several ticks, a thread not yet attached may have started threads:
	 * not counted (those of attached threads are, by inheritance, and cannot be
	 * told apart). More threads now than were attached: estimates, said once.
	 */
	if (p->attach_split && !p->partial && st->threads > 0 && (size_t)st->threads > p->thr_all) {
		p->partial = true;
		p->partial_why = -EINPROGRESS;
		p->thr_all = (size_t)st->threads;
	}
	p->attach_split = false;
	p->part_max = 0;
	return 0;
}

/*
 * Tell the first permission error and the first time descriptors ran out,
 * with how many processes are left uncounted (nfd) at the end of the tick.
 */
static void live_note_task_errors(struct live *l, int perm, size_t nfd)
{
	if (perm && !l->told_perm) {
		l->told_perm = true;
		live_tell_err(l, ERRMSG_TASKS, perm, NULL, 0);
	}
	if (nfd && !l->told_fds) {
		l->told_fds = true;
		live_tell_err(l, ERRMSG_TASKS, -EMFILE, NULL, (long long)nfd);
	}
}

static bool live_wanted_pid(const struct live *l, int pid)
{
	if (!l->o.npids)
		return true;
	for (size_t i = 0; i < l->o.npids; i++)
		if (l->o.pids[i] == pid)
			return true;
	return false;
}

static void live_read_cmdline(struct live *l, struct live_proc *p)
{
	char buf[4096];

	proc_read_cmdline(l->rootfd, p->pid, buf, sizeof(buf));
	free(p->cmdline);
	p->cmdline = xstrdup(buf);
}

/*
 * Set up a process seen for the first time. Kernel threads (unless listed)
 * and processes the filters exclude are kept as skip entries, so that they
 * are not set up again each tick. Its counters are opened later
 * (live_attach_pending). False when it vanished.
 */
static bool live_new_proc(struct live *l, struct live_proc *p, const struct proc_stat *st)
{
	memset(p, 0, sizeof(*p));
	p->pid = st->pid;
	p->start = st->start;
	p->statfd = -1;
	p->last = *st;
	p->kthread = st->flags & PROC_PF_KTHREAD;
	if (p->kthread && !l->kthreads) {
		p->skip = true;
		return true;
	}
	if (proc_read_uid(l->rootfd, st->pid, &p->uid)) {
		live_close_proc(l, p);
		return false;
	}
	if (l->o.by_uid && p->uid != l->o.uid) {
		p->skip = true;
		return true;
	}
	snprintf(p->user, sizeof(p->user), "%s", live_user_name(l, p->uid));
	snprintf(p->comm, sizeof(p->comm), "%s", st->comm);
	live_read_cmdline(l, p);
	p->cgroup = live_cgroup_of(l, p->pid);
	p->err = LIVE_UNATTACHED; /* attached after the scan, busiest first */
	return true;
}

/*
 * Whether a known process must be set up anew: kernel threads were switched
 * on or off, or, under -u, a setuid took it into or out of the user's
 * processes. Otherwise a new uid (setuid, setresuid) is taken as it is, so
 * USER and the filters follow it: status is read when the process runs
 * after a tick it did not, and every LIVE_UID_TICKS ticks while it runs on
 * (a path walk each tick for every busy process would cost more than its
 * counters).
 */
static bool live_renew(struct live *l, struct live_proc *p, bool idle)
{
	unsigned uid;

	if (p->kthread)
		return p->skip == l->kthreads;
	/* a process that did not run made no setuid */
	if (idle)
		return false;
	if (p->idle == 0 && ++p->uid_age < LIVE_UID_TICKS)
		return false;
	p->uid_age = 0;
	if (proc_read_uid(l->rootfd, p->pid, &uid) || uid == p->uid)
		return false;
	if (l->o.by_uid && p->skip != (uid != l->o.uid))
		return true;
	p->uid = uid;
	snprintf(p->user, sizeof(p->user), "%s", live_user_name(l, uid));
	return false;
}

/*
 * Whether the program changed between two reads of stat: its name, or,
 * where the kernel shows them, where its text and stack start (an exec of a
 * program with the same name). A process on its way out shows no mappings:
 * that is not an exec.
 */
static bool live_execed(const struct proc_stat *a, const struct proc_stat *b)
{
	if (strcmp(a->comm, b->comm))
		return true;
	return b->start_stack &&
	       (a->start_code != b->start_code || a->start_stack != b->start_stack);
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

	if (!stash || (int)k != ly->gate_set)
		return counters_read_group(&thr[th].g[k], l->tmp);
	g = &l->gread[th];
	if (!g->r)
		for (int i = 0; i < gd->nr; i++)
			l->tmp[gd->ev[i]] = g->v[i];
	return g->r;
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
static void live_sum_groups(struct live *l, const struct live_layout *ly,
			    const struct live_thread *thr, size_t nthr, struct snap_count *c,
			    bool stash, uint64_t *gate)
{
	size_t nev = l->base.ev.n;
	uint64_t *en = xcalloc(2 * nev + 1, sizeof(*en));
	uint64_t *ok = en + nev;

	*gate = 0;
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
	for (size_t th = 0; th < nthr; th++) {
		memset(en, 0, nev * sizeof(*en));
		for (size_t k = 0; k < ly->ntg; k++) {
			const struct live_gdef *gd = &ly->tg[k];
			int r = live_read_set(l, ly, thr, th, k, stash);

			if (gd->sim)
				continue; /* read for its cost alone */
			if (!r) {
				/* what the starving check watches: the groups of full sets */
				if (!ly->lite) {
					l->tg_en[k] += l->tmp[gd->ev[0]].enabled;
					l->tg_run[k] += l->tmp[gd->ev[0]].running;
				}
				if ((int)k == ly->gate_set)
					*gate += l->tmp[gd->ev[0]].enabled;
			}
			for (int i = 0; i < gd->nr; i++) {
				int e = gd->ev[i];
				const struct snap_count *src = &l->tmp[e];

				if (r) {
					if (!ok[e])
						c[e].err = r;
					continue;
				}
				ok[e] = 1;
				c[e].err = 0;
				c[e].value += src->value;
				c[e].running += src->running;
				if (src->enabled > en[e])
					en[e] = src->enabled;
			}
		}
		for (size_t e = 0; e < nev; e++)
			c[e].enabled += en[e];
	}
	free(en);
}

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
static bool live_idle(struct live *l, struct live_proc *p, bool clock_only)
{
	const struct live_gdef *gd;
	struct live_layout ly = live_ly(l, p->lite);
	uint64_t sum = 0;
	bool bad = false;
	int r;

	l->gread_pid = 0;
	p->clk_idle = p->clk_now_ok = false;
	if (l->bpf)
		return live_bpf_idle(l, p);
	if (l->pfs)
		return live_procfs_idle(l, p);
	/*
	 * a partial process is read every tick: its scaled counts move by 1 ns
	 * of enabled time at least, so that no interval of it is ever plain
	 */
	if (ly.gate_set < 0 || p->err || !p->cnt || p->partial)
		return false;
	/*
	 * The process's CPU clock, one call whatever its threads: when it did
	 * not move since the last full read, no thread ran (so none started or
	 * exited either), and no group needs reading. A thread that started to
	 * run on another CPU within a scheduler tick of this read has not
	 * moved it yet: what it counts shows one tick later, never lost.
	 * Read before the counters, so that a full read misses nothing the
	 * next tick's clock does not see.
	 */
	r = sysops_cpuclock(l->ops, p->pid, &p->clk_now);
	if (r == -ESRCH)
		return false; /* gone: its stat says so */
	if (!r) {
		p->clk_now_ok = true;
		if (p->clk_ok && p->clk_now == p->clk) {
			/* its counts stand; its stat is read again now and then all the same */
			p->clk_idle = true;
			if (p->idle >= LIVE_IDLE_REFRESH)
				return false;
			p->idle++;
			return true;
		}
		if (p->clk_ok)
			return false; /* it ran: read in full, no gate group read first */
	}
	if (clock_only)
		return false;
	gd = &ly.tg[ly.gate_set];
	l->gread = xgrow(l->gread, &l->greadcap, p->nthr ? p->nthr : 1, sizeof(*l->gread));
	for (size_t th = 0; th < p->nthr; th++) {
		struct live_gread *g = &l->gread[th];

		g->r = counters_read_group(&p->thr[th].g[ly.gate_set], l->tmp);
		if (g->r) {
			bad = true;
			continue;
		}
		for (int i = 0; i < gd->nr; i++)
			g->v[i] = l->tmp[gd->ev[i]];
		sum += g->v[0].enabled;
	}
	l->gread_pid = p->pid;
	if (bad || sum != p->gate || p->idle >= LIVE_IDLE_REFRESH)
		return false;
	p->idle++;
	/* nothing ran since the counts kept: they go with the clock read before the gates */
	p->clk = p->clk_now;
	p->clk_ok = p->clk_now_ok;
	return true;
}

/*
 * A partial process: the counted threads' counts, each event's enabled time
 * raised to the CPU time the whole process used since the attach (as /proc
 * says), so that the counts are scaled by the share of that time the counted
 * threads had and marked as estimates, as multiplexed counts are. Kept
 * from falling, as a cumulative count must.
 */
static void live_partial_scale(struct live_proc *p, const struct proc_stat *st,
			       struct snap_count *c, size_t nev)
{
	uint64_t now = live_ticks_ns(st->cpu);

	if (now > p->part_cpu0 && now - p->part_cpu0 > p->part_max)
		p->part_max = now - p->part_cpu0;
	/*
	 * The stat's CPU time moves in clock ticks: threads not counted may have run
	 * less than one, unseen. So each read gives the enabled time the counted
	 * threads gained and 1 ns more at least, never less than the process's CPU
	 * time: no interval is taken as wholly counted (an estimate, or n/a when no
	 * counted thread ran), never a plain number.
	 */
	if (!p->part_raw) {
		p->part_raw = xcalloc(nev ? nev : 1, sizeof(*p->part_raw));
		p->part_out = xcalloc(nev ? nev : 1, sizeof(*p->part_out));
	}
	for (size_t e = 0; e < nev; e++) {
		uint64_t en;

		if (c[e].err)
			continue;
		en = c[e].enabled > p->part_max ? c[e].enabled : p->part_max;
		if (c[e].enabled >= p->part_raw[e] &&
		    en < p->part_out[e] + (c[e].enabled - p->part_raw[e]) + 1)
			en = p->part_out[e] + (c[e].enabled - p->part_raw[e]) + 1;
		p->part_raw[e] = c[e].enabled;
		p->part_out[e] = en;
		c[e].enabled = en;
	}
}

/*
 * Keep counts c (nev) read in full, and the gate's enabled time, for the ticks
 * the task does not run; a set that did not read is read in full again.
 */
static void live_keep_counts(const struct live *l, const struct snap_count *c,
			     struct snap_count **cnt, uint64_t *keep_gate, uint64_t gate)
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

static void live_fill_task(struct live *l, struct live_proc *p, const struct proc_stat *st,
			   bool idle, struct snapshot *snap)
{
	struct snap_task *t = snapshot_add_task(snap, p->pid);
	size_t nev = l->base.ev.n;
	uint64_t gate;
	bool stash = l->gread_pid == p->pid;
	struct live_layout ly = live_ly(l, p->lite);

	l->gread_pid = 0;
	t->ppid = st->ppid;
	t->uid = p->uid;
	snprintf(t->user, sizeof(t->user), "%s", p->user);
	t->state = st->state;
	t->threads = st->threads;
	t->start = st->start;
	snprintf(t->comm, sizeof(t->comm), "%s", st->comm);
	snapshot_task_set_cmdline(t, p->cmdline);
	snapshot_task_set_cgroup(t, p->cgroup);
	t->pflags = SNAP_TASK_PROC | (p->kthread ? SNAP_TASK_KTHREAD : 0);
	t->rss_kib = live_pages_kib(st->rss);
	t->cpu_ns = live_ticks_ns(st->cpu);
	t->err = p->err;
	for (size_t e = 0; e < nev; e++)
		t->c[e].err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err : p->err;
	if (p->err)
		return;
	if (idle || p->clk_idle) {
		/* not run: the last counts (a stat read now and then does not move them) */
		memcpy(t->c, p->cnt, nev * sizeof(*t->c));
		if (!idle)
			p->idle = 0;
		return;
	}
	/*
	 * The time of the read, so that the row's rates are divided by the time
	 * between its own reads (not the tick's, which began before every
	 * process was read). An idle process keeps its counts, true at any time
	 * since its last read: its time stays the tick's.
	 */
	if (live_bpf_fill(l, p, t->c)) {
		t->t_ns = l->bpf_read_ns;
		return;
	}
	if (live_procfs_fill(l, p, st, snap->t_ns, t->c)) {
		t->t_ns = sysops_now(l->ops);
		return;
	}
	live_sum_groups(l, &ly, p->thr, p->nthr, t->c, stash, &gate);
	t->t_ns = sysops_now(l->ops);
	if (p->partial)
		live_partial_scale(p, st, t->c, nev);
	/* the perf event reads 0 without kernel mode: take the kernel's own counts */
	if (!l->kernel && l->base.ev.role_idx[EV_CTX_SWITCHES] >= 0)
		live_ctxsw_fill(l, p, snap->t_ns, &t->c[l->base.ev.role_idx[EV_CTX_SWITCHES]]);
	if (ly.gate_set < 0)
		return;
	/* what the gate compares with next tick */
	p->idle = 0;
	live_keep_counts(l, t->c, &p->cnt, &p->gate, gate);
	p->clk = p->clk_now;
	p->clk_ok = p->clk_now_ok && p->cnt;
	p->clk_now_ok = false;
}

/*
 * The snapshot entry of per-thread row t of p: its last counts when idle,
 * else its counts read now, kept for the ticks it does not run.
 */
static void live_thread_entry(struct live *l, const struct live_proc *p, struct live_thread *t,
			      bool idle, struct snapshot *snap)
{
	struct snap_task *e = snapshot_add_thread(snap, t->tid, p->pid);
	size_t nev = l->base.ev.n;
	uint64_t gate;
	struct live_layout ly = live_ly(l, p->lite);

	e->uid = p->uid;
	snprintf(e->user, sizeof(e->user), "%s", p->user);
	e->state = t->state;
	e->threads = 1;
	e->start = t->start;
	snprintf(e->comm, sizeof(e->comm), "%s", t->comm);
	snapshot_task_set_cmdline(e, p->cmdline);
	snapshot_task_set_cgroup(e, p->cgroup);
	/* a thread's own CPU time; its memory is the process's, as top shows it */
	e->pflags = SNAP_TASK_PROC | (p->kthread ? SNAP_TASK_KTHREAD : 0);
	e->rss_kib = live_pages_kib(p->last.rss);
	e->cpu_ns = live_ticks_ns(t->cpu);
	e->err = t->err;
	for (size_t k = 0; k < nev; k++)
		e->c[k].err = l->base.ev.ev[k].err ? l->base.ev.ev[k].err : t->err;
	if (t->err)
		return;
	if (idle) {
		memcpy(e->c, t->cnt, nev * sizeof(*e->c));
		return;
	}
	live_sum_groups(l, &ly, t, 1, e->c, false, &gate);
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
static void live_end_tthread(struct live *l, const struct live_proc *p, struct live_thread *t,
			     struct snapshot *snap)
{
	if (t->g && !t->err) {
		t->state = 'X';
		live_thread_entry(l, p, t, false, snap);
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
static bool live_threads_idle(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	if (!p->tt)
		return false;
	for (size_t i = 0; i < p->ntt; i++) {
		const struct live_thread *t = &p->tt[i];

		if (!t->g || t->err || !t->cnt || t->idle >= LIVE_IDLE_REFRESH)
			return false;
	}
	for (size_t i = 0; i < p->ntt; i++) {
		p->tt[i].idle++;
		live_thread_entry(l, p, &p->tt[i], true, snap);
	}
	return true;
}

/*
 * Per-thread rows: every current thread of p gets a set of its own (no
 * inheritance), kept across ticks and closed when the thread is gone. A
 * thread that did not run since the last tick is not read again.
 */
static void live_fill_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	char path[64];
	long n;
	struct live_thread *next;
	size_t nn = 0, old = 0;

	if (p->clk_idle && live_threads_idle(l, p, snap))
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

		while (old < p->ntt && p->tt[old].tid < tid)
			live_end_tthread(l, p, &p->tt[old++], snap);
		if (old < p->ntt && p->tt[old].tid == tid &&
		    live_thread_idle(l, p->lite, &p->tt[old])) {
			*t = p->tt[old];
			memset(&p->tt[old++], 0, sizeof(*t));
			nn++;
			live_thread_entry(l, p, t, true, snap);
			continue;
		}
		if (proc_read_stat(l->rootfd, p->pid, tid, &st))
			continue;
		if (old < p->ntt && p->tt[old].tid == tid && p->tt[old].start == st.start) {
			*t = p->tt[old];
			memset(&p->tt[old++], 0, sizeof(*t));
		} else {
			if (old < p->ntt && p->tt[old].tid == tid)
				live_close_tthread(l, &p->tt[old++]);
			t->tid = tid;
			t->start = st.start;
			t->err = live_open_groups(l, &t->g, tid, 0, p->lite);
			/* gone, or on its way out: not shown; a thread still there is tried next tick */
			if (t->err == -ESRCH || t->err == -ENODEV)
				continue;
		}
		nn++;
		t->state = st.state;
		t->cpu = st.cpu;
		snprintf(t->comm, sizeof(t->comm), "%s", st.comm);
		live_thread_entry(l, p, t, false, snap);
	}
	while (old < p->ntt)
		live_end_tthread(l, p, &p->tt[old++], snap);
	free(p->tt);
	p->tt = next;
	p->ntt = nn;
}

static void live_maybe_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	if (l->bpf)
		return; /* processes only: the program sums by process */
	if (l->pfs) {
		/* from the reads of its threads' /proc files, which the process row made */
		if (l->all_threads || l->focus == p->pid)
			live_procfs_threads(l, p, snap);
		return;
	}
	if (l->all_threads || l->focus == p->pid)
		live_fill_threads(l, p, snap);
	else if (p->tt)
		live_close_tthreads(l, p);
}

struct live_pend {
	size_t idx; /* into the new process list */
	struct proc_stat st;
	double busy; /* CPU time over its lifetime: how busy it is */
};

static int live_cmp_pend(const void *a, const void *b)
{
	const struct live_pend *x = a, *y = b;

	return (x->busy < y->busy) - (x->busy > y->busy);
}

/* Clock ticks since boot, from /proc/uptime; 0 when unknown. */
static unsigned long long live_now_ticks(struct live *l)
{
	char buf[64];
	long n = proc_read_file(l->rootfd, "uptime", buf, sizeof(buf));
	double up;

	if (n <= 0 || proc_parse_uptime(buf, (size_t)n, &up))
		return 0;
	return (unsigned long long)(up * (double)sysconf(_SC_CLK_TCK));
}

static int live_cmp_proc(const void *a, const void *b)
{
	const struct live_proc *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Whether p is to be attached this tick: found, or to try again; one that
 * found no descriptors, once LIVE_RETRY_TICKS ticks have passed (trying
 * each tick would open and close counters for nothing).
 */
static bool live_needs_attach(const struct live *l, const struct live_proc *p)
{
	if (p->err == -EMFILE || p->err == -ENFILE)
		return l->tick >= p->retry;
	return p->err == LIVE_UNATTACHED || p->err == LIVE_RETRY;
}

/*
 * Open the counters of processes found this tick, and retry those that
 * found no descriptors, busiest first: when descriptors run out, the
 * processes that matter most are the ones counted. A tick attaches until
 * l->attach_until and at least one process, so that the first frame does
 * not wait for thousands of attaches: the rest are shown from /proc, their
 * counts "not attached yet", and attached by the next ticks.
 */
static size_t live_attach_pending(struct live *l, struct live_proc *procs, size_t n,
				  struct live_pend *pend, size_t npend, struct snapshot *snap)
{
	size_t gone = 0, nfd = 0, nfull = 0, reserve = 0;
	int perm = 0;
	bool late = false;

	l->gread_pid = 0;
	/* the slice counts from here: the /proc scan before it is a cost of its own */
	l->attach_until = live_now_ns() + l->attach_slice;
	for (size_t i = 0; i < n; i++)
		nfull += !procs[i].skip && !procs[i].err && procs[i].nthr && !procs[i].lite;
	if (npend > 1) {
		unsigned long long now = live_now_ticks(l);

		for (size_t i = 0; i < npend; i++) {
			unsigned long long age =
				now > pend[i].st.start ? now - pend[i].st.start : 1;

			pend[i].busy = (double)pend[i].st.cpu / (double)age;
		}
		qsort(pend, npend, sizeof(*pend), live_cmp_pend);
	}
	for (size_t i = 0; i < npend; i++)
		reserve += pend[i].st.threads > 0 ? (size_t)pend[i].st.threads : 1;
	for (size_t i = 0; i < npend; i++) {
		struct live_proc *p = &procs[pend[i].idx];

		reserve -= pend[i].st.threads > 0 ? (size_t)pend[i].st.threads : 1;
		l->reserve = reserve;
		/* from /proc, kernel threads count as any task: nothing is refused */
		if (p->kthread && !l->kernel && !l->pfs) {
			/* user mode only: a kernel thread would count nothing, and not truly 0 */
			p->err = -EPERM;
			if (!l->told_kthreads) {
				l->told_kthreads = true;
				live_tell_err(l, ERRMSG_KTHREADS, -EPERM, NULL, 0);
			}
			live_fill_task(l, p, &pend[i].st, false, snap);
			continue;
		}
		/* from /proc nothing is attached: every process is counted at once */
		late = !l->pfs && (late || (i > 0 && live_now_ns() > l->attach_until));
		if (late) {
			/* left for the next tick: counts not attached yet, never 0 */
			live_fill_task(l, p, &pend[i].st, false, snap);
			continue;
		}
		/* a new process, or one that found no descriptors: hardware while the top has room */
		if (p->err != LIVE_RETRY && !p->todo)
			p->lite = l->nsw && l->hw_limit && nfull >= l->hw_k;
		p->hw_cpu0 = pend[i].st.cpu;
		p->err = live_attach(l, p, &pend[i].st);
		nfull += !p->err && !p->lite;
		if (p->err == -ESRCH) {
			live_close_proc(l, p);
			p->pid = 0; /* dropped below */
			gone++;
			continue;
		}
		/* a thread exiting halfway through the attach: not the device, try again */
		if (p->err == -ENODEV)
			p->err = LIVE_RETRY;
		if ((p->err == -EACCES || p->err == -EPERM) && !perm)
			perm = p->err;
		if (p->err == -EMFILE || p->err == -ENFILE) {
			nfd++;
			p->retry = l->tick + LIVE_RETRY_TICKS;
		}
		if (p->partial && !p->told_partial) {
			struct errmsg_fact f;

			p->told_partial = true;
			errmsg_fact_set(&f, ERRMSG_PARTIAL, p->partial_why, p->comm, l->paranoid,
					p->pid);
			f.n2 = (long long)p->nthr;
			f.n3 = (long long)p->thr_all;
			live_tell(l, &f);
		}
		live_fill_task(l, p, &pend[i].st, false, snap);
		live_maybe_threads(l, p, snap);
	}
	live_note_task_errors(l, perm, nfd);
	/*
	 * Keep the stat file of each counted process open, to re-read it with one
	 * pread; counters come first, so this waits until they have their fds.
	 */
	for (size_t i = 0; i < npend; i++) {
		struct live_proc *p = &procs[pend[i].idx];
		char path[64];

		if (!p->pid || p->err || p->statfd >= 0)
			continue;
		if (l->fds_open + 1 > l->fd_budget)
			break;
		snprintf(path, sizeof(path), "%d/stat", p->pid);
		p->statfd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
		if (p->statfd >= 0)
			l->fds_open++;
		else
			p->statfd = -1;
	}
	if (!gone)
		return n;
	/* close the gaps of processes that vanished; the list stays sorted by pid */
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (procs[i].pid)
			procs[k++] = procs[i];
	qsort(procs, k, sizeof(*procs), live_cmp_proc);
	return k;
}

/* Re-read a stat file kept open; 0 or -errno (-ESRCH when the process died). */
static int live_pread_stat(struct live *l, int fd, struct proc_stat *st)
{
	char buf[1024];
	long n;

	do
		n = l->ops->pread(l->ops->ctx, fd, buf, sizeof(buf) - 1, 0);
	while (n == -EINTR);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	if (n == 0)
		return -ESRCH;
	buf[n] = '\0';
	return proc_parse_stat(buf, (size_t)n, st);
}

void live_scan(struct live *l, struct snapshot *snap)
{
	long n = procevents_ids(l->pev, l->rootfd, &l->ids, &l->idcap, l->nids);
	struct live_proc *next = NULL;
	struct live_pend *pend = NULL;
	size_t nnext = 0, ncap = 0, old = 0, npend = 0, pcap = 0;
	uint64_t now = live_now_ns();

	/* attaching may take a quarter of the time between two ticks, or the least slice */
	l->attach_slice = LIVE_ATTACH_SLICE_NS;
	if (l->last_read_ns && now > l->last_read_ns &&
	    (now - l->last_read_ns) / 4 > l->attach_slice)
		l->attach_slice = (now - l->last_read_ns) / 4;
	l->last_read_ns = now;
	l->tick++;
	/* a failed listing (no descriptor to open /proc with) keeps the last one */
	if (n < 0)
		n = l->nids;
	l->nids = n;
	for (long i = 0; i < n; i++) {
		int pid = l->ids[i];
		struct proc_stat st;
		struct live_proc *p;

		l->gread_pid = 0; /* the gate reads of the last process are not this one's */
		if (!live_wanted_pid(l, pid))
			continue;
		/* both lists are sorted: drop old processes that vanished */
		while (old < l->nprocs && l->procs[old].pid < pid)
			live_close_proc(l, &l->procs[old++]);
		next = xgrow(next, &ncap, nnext + 1, sizeof(*next));
		p = &next[nnext];
		if (old < l->nprocs && l->procs[old].pid == pid) {
			struct live_proc *o = &l->procs[old++];

			/*
			 * not run since the last tick: neither its stat nor its counters
			 * moved. Without its stat file kept open, a dead process's pid
			 * taken again is seen only by a path read: the clock alone
			 * gates it then (the new process's clock is not the old one's).
			 */
			bool idle;

			o->clk_idle = false;
			idle = !o->skip && live_idle(l, o, o->statfd < 0);
			/* the stat fd of a process that died reads ESRCH, even if its pid came back */
			int r = idle		 ? (st = o->last, 0)
				: o->statfd >= 0 ? live_pread_stat(l, o->statfd, &st)
						 : proc_read_stat(l->rootfd, pid, 0, &st);

			if (r == -EMFILE || r == -ENFILE) {
				/* no descriptor to look with: it is not gone; show it as last seen */
				st = o->last;
				r = 0;
			}
			if (r == 0 && o->start == st.start && !live_renew(l, o, idle)) {
				bool execed = live_execed(&o->last, &st);

				*p = *o;
				memset(o, 0, sizeof(*o));
				o->statfd = -1;
				p->last = st;
				nnext++;
				if (p->skip)
					continue;
				if (execed) {
					/* exec or prctl: the command line may have changed too */
					snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
					live_read_cmdline(l, p);
				}
				/*
				 * processes move between cgroups: look again now and then;
				 * an idle process is looked at when it is next read in full,
				 * as its stat is (within LIVE_IDLE_REFRESH ticks)
				 */
				p->cg_due |= l->cg_reread;
				if (p->cg_due && !idle) {
					free(p->cgroup);
					p->cgroup = live_cgroup_of(l, pid);
					p->cg_due = false;
				}
				if (live_needs_attach(l, p))
					goto defer;
				live_fill_task(l, p, &st, idle, snap);
				live_maybe_threads(l, p, snap);
				continue;
			}
			live_close_proc(l, o);
		}
		if (proc_read_stat(l->rootfd, pid, 0, &st) || !live_new_proc(l, p, &st))
			continue;
		nnext++;
		if (p->skip)
			continue;
	defer:
		pend = xgrow(pend, &pcap, npend + 1, sizeof(*pend));
		pend[npend].idx = nnext - 1;
		pend[npend++].st = st;
	}
	while (old < l->nprocs)
		live_close_proc(l, &l->procs[old++]);
	nnext = live_attach_pending(l, next, nnext, pend, npend, snap);
	free(pend);
	free(l->procs);
	l->procs = next;
	l->nprocs = nnext;
	l->pcap = ncap;
}

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

		l->tg_starved[k] = on && !ran ? l->tg_starved[k] + 1 : 0;
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
	if (split < 0 && !unpack)
		return;
	/* the sets are built from the group definitions: close them all, reattach next tick */
	for (size_t i = 0; i < l->nprocs; i++) {
		struct live_proc *p = &l->procs[i];

		if (p->todo)
			live_attach_drop(l, p); /* halfway: begun again with the new groups */
		if (p->skip || p->err)
			continue;
		live_close_tthreads(l, p);
		for (size_t t = 0; t < p->nthr; t++)
			live_close_groups(l, &p->thr[t].g);
		p->nthr = 0;
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
		struct errmsg_fact f;

		errmsg_fact_set(&f, ERRMSG_STARVED, 0, name, l->paranoid, ticks);
		f.n2 = split < 0;
		live_tell(l, &f);
	}
}

struct live_rank {
	size_t idx;
	unsigned long long recent; /* CPU ticks since the last choice */
};

static int live_cmp_rank(const void *a, const void *b)
{
	const struct live_rank *x = a, *y = b;

	if (x->recent != y->recent)
		return x->recent < y->recent ? 1 : -1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Close p's sets and have it attached again next tick with the other layout. */
static void live_switch_layout(struct live *l, struct live_proc *p)
{
	live_close_tthreads(l, p);
	for (size_t t = 0; t < p->nthr; t++)
		live_close_groups(l, &p->thr[t].g);
	p->nthr = 0;
	p->err = LIVE_RETRY;
	p->lite = !p->lite;
	free(p->cnt);
	p->cnt = NULL;
}

void live_hw_top(struct live *l)
{
	struct live_rank *r;
	size_t n = 0, k, margin, nfull = 0,
	       extra = l->set_fds > l->sw_fds ? l->set_fds - l->sw_fds : 0;
	size_t left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;
	size_t need = 0;
	bool freed = false;

	if (!l->hw_limit || !l->nsw || l->tick % LIVE_HWTOP_TICKS)
		return;
	r = xcalloc(l->nprocs + 1, sizeof(*r));
	for (size_t i = 0; i < l->nprocs; i++) {
		struct live_proc *p = &l->procs[i];

		if (p->skip || p->err || !p->nthr)
			continue;
		r[n].idx = i;
		r[n++].recent = p->last.cpu > p->hw_cpu0 ? p->last.cpu - p->hw_cpu0 : 0;
		p->hw_cpu0 = p->last.cpu;
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
	}
	if (!l->o.hw_top) {
		size_t room = left;

		for (size_t i = 0; i < n; i++)
			if (!l->procs[r[i].idx].lite)
				room += l->procs[r[i].idx].nthr * extra;
		room = room > need ? room - need : 0;
		for (k = 0; k < n && l->procs[r[k].idx].nthr * extra <= room; k++)
			room -= l->procs[r[k].idx].nthr * extra;
		l->hw_k = k;
	}
	k = l->hw_k;
	/*
	 * hysteresis: one in the top leaves it only when it falls a quarter
	 * below; not while processes wait for descriptors
	 */
	margin = need ? 0 : k / 4 + 1;
	for (size_t i = 0; i < n; i++) {
		struct live_proc *p = &l->procs[r[i].idx];

		if (!p->lite && i >= k + margin) {
			live_switch_layout(l, p);
			freed = true;
		} else if (!p->lite) {
			nfull++;
		}
	}
	/*
	 * still short for the processes waiting: the least busy with hardware
	 * sets go to the software set, until what they give back covers them
	 */
	left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;
	for (size_t i = n; need > left && i-- > 0;) {
		struct live_proc *p = &l->procs[r[i].idx];

		if (p->lite)
			continue;
		left += p->nthr * extra;
		live_switch_layout(l, p);
		freed = true;
		nfull--;
	}
	/* descriptors were given back: who waits for them tries now, not in 16 ticks */
	for (size_t i = 0; freed && i < l->nprocs; i++)
		if (l->procs[i].err == -EMFILE || l->procs[i].err == -ENFILE)
			l->procs[i].retry = l->tick;
	/*
	 * into the top, while it has room: not while processes wait (the
	 * descriptors given back are theirs)
	 */
	left = l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 0;
	for (size_t i = 0; !need && i < n && i < k && nfull < k; i++) {
		struct live_proc *p = &l->procs[r[i].idx];

		if (!p->lite || p->partial || p->nthr * l->set_fds > left + p->nthr * l->sw_fds)
			continue;
		left = left + p->nthr * l->sw_fds - p->nthr * l->set_fds;
		live_switch_layout(l, p);
		nfull++;
	}
	free(r);
}

size_t live_fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return (size_t)-1;
	/* keep a reserve for /proc, the output, recordings and the screen */
	return rl.rlim_cur > LIVE_FD_RESERVE ? (size_t)(rl.rlim_cur - LIVE_FD_RESERVE) : 0;
}

void live_kernel_threads(struct source *s, bool on)
{
	((struct live *)s)->kthreads = on;
}

void live_tasks_free(struct live *l)
{
	for (size_t i = 0; i < l->nprocs; i++)
		live_close_proc(l, &l->procs[i]);
	free(l->procs);
	free(l->ids);
	free(l->tids);
	free(l->users);
	free(l->gread);
}
