/* Live source: one counter group set per thread (inherited by new threads) and per CPU. */
#include "config.h"
#include "collect/source_live.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "collect/counters.h"
#include "util/errmsg.h"
#include "collect/events.h"
#include "collect/proc.h"
#include "collect/sampler.h"
#include "util/xalloc.h"

struct live_gdef {
	int nr;
	int ev[COUNTERS_MAX_GROUP];
};

/*
 * A thread's group set: with inheritance for the threads of a process at
 * attach, without for per-thread rows (where start and err are kept too).
 */
struct live_thread {
	int tid;
	unsigned long long start;
	int err;
	struct counters_group *g;	/* one per task group definition */
};

struct live_proc {
	int pid;
	unsigned long long start;
	int statfd;		/* /proc/PID/stat, re-read each tick without a path walk */
	struct proc_stat last;	/* the last stat read, for a tick that cannot read it */
	bool skip;		/* a kernel thread, or filtered out: kept only to know it */
	int err;
	unsigned uid;
	char user[33];
	char comm[64];
	char *cmdline;
	size_t nthr;
	struct live_thread *thr;
	size_t ntt;
	struct live_thread *tt;	/* sorted by tid; while per-thread rows are wanted */
};

struct live_cpu {
	int cpu;
	int err;
	uint64_t last_enabled;	/* of the first group: stops growing once detached */
	struct counters_group *g;	/* one per CPU group definition */
	int *gerr;
};

struct live_user {
	unsigned uid;
	char name[33];
};

struct live {
	struct source base;
	struct live_opts o;
	int *pids_copy;
	int rootfd;
	int paranoid;
	bool kernel;
	struct perf_event_attr *attr;
	size_t ntg;
	struct live_gdef *tg;	/* groups for tasks */
	size_t ncg;
	struct live_gdef *cg;	/* groups for CPUs: task-clock means nothing there */
	struct live_proc *procs;
	size_t nprocs, pcap;
	int *ids, *tids;
	size_t idcap, tidcap;
	struct live_cpu *cpus;
	size_t ncpus, cpucap;
	struct proc_cpustat *cs;
	size_t cscap;
	struct live_user *users;
	size_t nusers, ucap;
	struct snap_count *tmp;
	bool told_perm, told_fds, told_cpu;
	size_t set_fds;		/* descriptors one thread's group set takes */
	size_t fds_open;	/* descriptors of counters and stat files */
	size_t fd_budget;	/* what they may take: the limit less a reserve */
	long nids;		/* pids found by the last good scan of /proc */
	int focus;		/* pid whose threads get rows of their own, 0 for none */
	bool all_threads;	/* every process's threads get rows */
	struct sampler *smp;	/* data-address sampling of one process */
	int smp_pid;
	struct snap_sample *pend;	/* drained since the last read */
	size_t npend, pendcap;
	uint64_t dropped;	/* samples beyond the pending cap */
	uint64_t maps_hash;
	char *mapsbuf;
};

#define LIVE_FD_RESERVE 24	/* descriptors counters leave for everything else */
#define LIVE_UNATTACHED (-EINPROGRESS)	/* found this tick, counters not open yet */
#define LIVE_MAX_PENDING (1u << 21)	/* samples kept between two ticks */
#define LIVE_MAPS_MAX (4u << 20)

static int live_read_int(int rootfd, const char *path, int *v)
{
	char buf[64];
	long n = proc_read_file(rootfd, path, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
	if (sscanf(buf, "%d", v) != 1)
		return -EINVAL;
	return 0;
}

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

/* Close a thread's group set (as live_open_groups opened it) and free it. */
static void live_close_groups(struct live *l, struct counters_group **g)
{
	if (!*g)
		return;
	for (size_t k = 0; k < l->ntg; k++)
		counters_close_group(&(*g)[k]);
	l->fds_open -= l->set_fds;
	free(*g);
	*g = NULL;
}

static void live_close_tthread(struct live *l, struct live_thread *t)
{
	live_close_groups(l, &t->g);
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
		close(p->statfd);
		l->fds_open--;
	}
	live_close_tthreads(l, p);
	for (size_t i = 0; i < p->nthr; i++)
		live_close_groups(l, &p->thr[i].g);
	free(p->thr);
	free(p->cmdline);
	memset(p, 0, sizeof(*p));
	p->statfd = -1;
}

/*
 * Open every task group on one thread; 0 or -errno with nothing left open.
 * -EMFILE without trying when the descriptors pmctop keeps for itself would
 * be touched: scanning /proc must go on when counters run out.
 */
static int live_open_groups(struct live *l, struct counters_group **out, int tid, unsigned flags)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct counters_group *g;

	*out = NULL;
	if (l->fds_open + l->set_fds > l->fd_budget)
		return -EMFILE;
	g = xcalloc(l->ntg ? l->ntg : 1, sizeof(*g));
	for (size_t k = 0; k < l->ntg; k++) {
		int bad, r;

		for (int i = 0; i < l->tg[k].nr; i++)
			a[i] = &l->attr[l->tg[k].ev[i]];
		r = counters_open_group(&g[k], a, l->tg[k].ev, l->tg[k].nr, tid, -1, flags, &bad);
		if (r) {
			while (k-- > 0)
				counters_close_group(&g[k]);
			free(g);
			return r;
		}
	}
	l->fds_open += l->set_fds;
	*out = g;
	return 0;
}

/* Open the inherited group set of one thread that exists at attach. */
static int live_open_thread(struct live *l, struct live_thread *t, int tid)
{
	t->tid = tid;
	return live_open_groups(l, &t->g, tid, COUNTERS_INHERIT);
}

/*
 * Threads that exist now get a group set each; threads created later are
 * counted by inheritance into their creator's set, so no rescans are needed.
 */
static int live_attach(struct live *l, struct live_proc *p)
{
	char path[64];
	long n;
	int last = -ESRCH;

	snprintf(path, sizeof(path), "%d/task", p->pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	free(p->thr);	/* a retry after running out of descriptors */
	p->nthr = 0;
	p->thr = xcalloc((size_t)n ? (size_t)n : 1, sizeof(*p->thr));
	for (long i = 0; i < n; i++) {
		int r = live_open_thread(l, &p->thr[p->nthr], l->tids[i]);

		if (r == 0) {
			p->nthr++;
			continue;
		}
		last = r;
		if (r == -ESRCH)
			continue;	/* the thread exited meanwhile */
		for (size_t k = 0; k < p->nthr; k++)
			live_close_groups(l, &p->thr[k].g);
		p->nthr = 0;
		return r;
	}
	return p->nthr ? 0 : last;
}

static void live_note_task_error(struct live *l, int err)
{
	char adv[320];

	if ((err == -EACCES || err == -EPERM) && !l->told_perm) {
		l->told_perm = true;
		source_message(&l->base, "some processes cannot be counted: permission denied; %s",
			       errmsg_permission_advice(adv, sizeof(adv), l->paranoid));
	} else if ((err == -EMFILE || err == -ENFILE) && !l->told_fds) {
		l->told_fds = true;
		source_message(&l->base,
			       "out of file descriptors: some processes are not counted; raise "
			       "'ulimit -n' or watch fewer processes with -p or -u");
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
 * Set up a process seen for the first time. Kernel threads and processes
 * the filters exclude are kept as skip entries, so that they are not looked
 * at again. Its counters are opened later (live_attach_pending). False
 * when it vanished.
 */
static bool live_new_proc(struct live *l, struct live_proc *p, const struct proc_stat *st)
{
	memset(p, 0, sizeof(*p));
	p->pid = st->pid;
	p->start = st->start;
	p->statfd = -1;
	p->last = *st;
	if (st->flags & PROC_PF_KTHREAD) {
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
	p->err = LIVE_UNATTACHED;	/* attached after the scan, busiest first */
	return true;
}

/* Sum the group reads of every set in sets into counts c (one per event). */
static void live_sum_groups(struct live *l, const struct live_thread *thr, size_t nthr,
			    struct snap_count *c)
{
	for (size_t k = 0; k < l->ntg; k++) {
		const struct live_gdef *gd = &l->tg[k];
		int last = 0;
		bool any = false;

		for (int i = 0; i < gd->nr; i++) {
			c[gd->ev[i]].value = 0;
			c[gd->ev[i]].enabled = 0;
			c[gd->ev[i]].running = 0;
		}
		for (size_t th = 0; th < nthr; th++) {
			int r = counters_read_group(&thr[th].g[k], l->tmp);

			if (r) {
				last = r;
				continue;
			}
			any = true;
			for (int i = 0; i < gd->nr; i++) {
				struct snap_count *dst = &c[gd->ev[i]];
				const struct snap_count *src = &l->tmp[gd->ev[i]];

				dst->value += src->value;
				dst->enabled += src->enabled;
				dst->running += src->running;
			}
		}
		for (int i = 0; i < gd->nr; i++)
			c[gd->ev[i]].err = any ? 0 : (last ? last : -ESRCH);
	}
}

static void live_fill_task(struct live *l, struct live_proc *p, const struct proc_stat *st,
			   struct snapshot *snap)
{
	struct snap_task *t = snapshot_add_task(snap, p->pid);
	size_t nev = l->base.ev.n;

	t->ppid = st->ppid;
	t->uid = p->uid;
	snprintf(t->user, sizeof(t->user), "%s", p->user);
	t->state = st->state;
	t->threads = st->threads;
	t->start = st->start;
	snprintf(t->comm, sizeof(t->comm), "%s", st->comm);
	snapshot_task_set_cmdline(t, p->cmdline);
	t->err = p->err;
	for (size_t e = 0; e < nev; e++)
		t->c[e].err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err : p->err;
	if (p->err)
		return;
	live_sum_groups(l, p->thr, p->nthr, t->c);
}

/*
 * Per-thread rows: every current thread of p gets a set of its own (no
 * inheritance), kept across ticks and closed when the thread is gone.
 */
static void live_fill_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	char path[64];
	long n;
	struct live_thread *next;
	size_t nn = 0, old = 0;

	snprintf(path, sizeof(path), "%d/task", p->pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0)
		n = 0;
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		int tid = l->tids[i];
		struct proc_stat st;
		struct live_thread *t = &next[nn];
		struct snap_task *e;

		while (old < p->ntt && p->tt[old].tid < tid)
			live_close_tthread(l, &p->tt[old++]);
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
			t->err = live_open_groups(l, &t->g, tid, 0);
			if (t->err == -ESRCH)
				continue;
		}
		nn++;
		e = snapshot_add_thread(snap, tid, p->pid);
		e->uid = p->uid;
		snprintf(e->user, sizeof(e->user), "%s", p->user);
		e->state = st.state;
		e->threads = 1;
		e->start = st.start;
		snprintf(e->comm, sizeof(e->comm), "%s", st.comm);
		snapshot_task_set_cmdline(e, p->cmdline);
		e->err = t->err;
		for (size_t k = 0; k < l->base.ev.n; k++)
			e->c[k].err = l->base.ev.ev[k].err ? l->base.ev.ev[k].err : t->err;
		if (!t->err)
			live_sum_groups(l, t, 1, e->c);
	}
	while (old < p->ntt)
		live_close_tthread(l, &p->tt[old++]);
	free(p->tt);
	p->tt = next;
	p->ntt = nn;
}

static void live_maybe_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	if (l->all_threads || l->focus == p->pid)
		live_fill_threads(l, p, snap);
	else if (p->tt)
		live_close_tthreads(l, p);
}

struct live_pend {
	size_t idx;			/* into the new process list */
	struct proc_stat st;
	double busy;			/* CPU time over its lifetime: how busy it is */
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

static bool live_needs_attach(const struct live_proc *p)
{
	return p->err == LIVE_UNATTACHED || p->err == -EMFILE || p->err == -ENFILE;
}

/*
 * Open the counters of processes found this tick, and retry those that
 * found no descriptors, busiest first: when descriptors run out, the
 * processes that matter most are the ones counted.
 */
static size_t live_attach_pending(struct live *l, struct live_proc *procs, size_t n,
				  struct live_pend *pend, size_t npend, struct snapshot *snap)
{
	size_t gone = 0;

	if (npend > 1) {
		unsigned long long now = live_now_ticks(l);

		for (size_t i = 0; i < npend; i++) {
			unsigned long long age = now > pend[i].st.start ? now - pend[i].st.start : 1;

			pend[i].busy = (double)pend[i].st.cpu / (double)age;
		}
		qsort(pend, npend, sizeof(*pend), live_cmp_pend);
	}
	for (size_t i = 0; i < npend; i++) {
		struct live_proc *p = &procs[pend[i].idx];

		p->err = live_attach(l, p);
		if (p->err == -ESRCH) {
			live_close_proc(l, p);
			p->pid = 0;	/* dropped below */
			gone++;
			continue;
		}
		if (p->err)
			live_note_task_error(l, p->err);
		live_fill_task(l, p, &pend[i].st, snap);
		live_maybe_threads(l, p, snap);
	}
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
		p->statfd = openat(l->rootfd, path, O_RDONLY | O_CLOEXEC);
		if (p->statfd >= 0)
			l->fds_open++;
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

static void live_scan(struct live *l, struct snapshot *snap)
{
	long n = proc_list_ids(l->rootfd, ".", &l->ids, &l->idcap);
	struct live_proc *next = NULL;
	struct live_pend *pend = NULL;
	size_t nnext = 0, ncap = 0, old = 0, npend = 0, pcap = 0;

	/* a failed listing (no descriptor to open /proc with) keeps the last one */
	if (n < 0)
		n = l->nids;
	l->nids = n;
	for (long i = 0; i < n; i++) {
		int pid = l->ids[i];
		struct proc_stat st;
		struct live_proc *p;

		if (!live_wanted_pid(l, pid))
			continue;
		/* both lists are sorted: drop old processes that vanished */
		while (old < l->nprocs && l->procs[old].pid < pid)
			live_close_proc(l, &l->procs[old++]);
		next = xgrow(next, &ncap, nnext + 1, sizeof(*next));
		p = &next[nnext];
		if (old < l->nprocs && l->procs[old].pid == pid) {
			struct live_proc *o = &l->procs[old++];

			/* the stat fd of a process that died reads ESRCH, even if its pid came back */
			int r = o->statfd >= 0 ? proc_pread_stat(o->statfd, &st)
					       : proc_read_stat(l->rootfd, pid, 0, &st);

			if (r == -EMFILE || r == -ENFILE) {
				/* no descriptor to look with: it is not gone; show it as last seen */
				st = o->last;
				r = 0;
			}
			if (r == 0 && o->start == st.start) {
				*p = *o;
				memset(o, 0, sizeof(*o));
				o->statfd = -1;
				p->last = st;
				nnext++;
				if (p->skip)
					continue;
				if (strcmp(p->comm, st.comm)) {
					/* exec or prctl: the command line may have changed too */
					snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
					live_read_cmdline(l, p);
				}
				if (live_needs_attach(p))
					goto defer;
				live_fill_task(l, p, &st, snap);
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

/* Open the per-CPU groups of c->cpu; permission errors are said once. */
static void live_open_cpu(struct live *l, struct live_cpu *c)
{
	c->err = 0;
	c->last_enabled = 0;
	if (!l->o.per_cpu) {
		c->err = -ENOENT;
		return;
	}
	c->g = xcalloc(l->ncg ? l->ncg : 1, sizeof(*c->g));
	c->gerr = xcalloc(l->ncg ? l->ncg : 1, sizeof(*c->gerr));
	for (size_t k = 0; k < l->ncg; k++) {
		const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
		int bad;

		for (int m = 0; m < l->cg[k].nr; m++)
			a[m] = &l->attr[l->cg[k].ev[m]];
		c->gerr[k] = counters_open_group(&c->g[k], a, l->cg[k].ev, l->cg[k].nr, -1, c->cpu,
						 0, &bad);
		if (c->gerr[k] == -EACCES || c->gerr[k] == -EPERM) {
			for (size_t j = 0; j < k; j++)
				if (!c->gerr[j])
					counters_close_group(&c->g[j]);
			c->err = c->gerr[k];
			for (size_t j = 0; j < l->ncg; j++)
				c->gerr[j] = c->err;
			break;
		}
	}
	if (c->err && !l->told_cpu) {
		char adv[320];

		l->told_cpu = true;
		source_message(&l->base, "per-core counters: %s",
			       errmsg_permission_advice(adv, sizeof(adv), l->paranoid));
	}
}

static void live_close_cpu(struct live *l, struct live_cpu *c)
{
	if (c->g && !c->err)
		for (size_t k = 0; k < l->ncg; k++)
			if (!c->gerr[k])
				counters_close_group(&c->g[k]);
	free(c->g);
	free(c->gerr);
	c->g = NULL;
	c->gerr = NULL;
}

static int live_cmp_cpu(const void *a, const void *b)
{
	const struct live_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * Follow CPU hotplug: /proc/stat lists the online CPUs. Events of a CPU that
 * went offline are detached by the kernel and never come back, so a CPU that
 * returns gets new ones.
 */
static void live_sync_cpus(struct live *l, int n, bool quiet)
{
	for (size_t k = 0; k < l->ncpus; k++) {
		bool online = false;

		for (int i = 0; i < n && !online; i++)
			online = l->cs[i].cpu == l->cpus[k].cpu;
		if (online)
			continue;
		source_message(&l->base, "CPU %d went offline", l->cpus[k].cpu);
		live_close_cpu(l, &l->cpus[k]);
		l->cpus[k] = l->cpus[--l->ncpus];
		k--;
	}
	for (int i = 0; i < n; i++) {
		bool known = false;
		struct live_cpu *c;

		for (size_t k = 0; k < l->ncpus && !known; k++)
			known = l->cpus[k].cpu == l->cs[i].cpu;
		if (known)
			continue;
		l->cpus = xgrow(l->cpus, &l->cpucap, l->ncpus + 1, sizeof(*l->cpus));
		c = &l->cpus[l->ncpus++];
		memset(c, 0, sizeof(*c));
		c->cpu = l->cs[i].cpu;
		live_open_cpu(l, c);
		if (!quiet)
			source_message(&l->base, "CPU %d is online: counting it again", c->cpu);
	}
	if (l->ncpus > 1)
		qsort(l->cpus, l->ncpus, sizeof(*l->cpus), live_cmp_cpu);
}

static void live_open_cpus(struct live *l)
{
	char buf[65536];
	long len = proc_read_file(l->rootfd, "stat", buf, sizeof(buf));
	int n = len > 0 ? proc_parse_cpustat(buf, (size_t)len, &l->cs, &l->cscap) : 0;

	if (n > 0)
		live_sync_cpus(l, n, true);
}

static void live_read_cpus(struct live *l, struct snapshot *snap)
{
	char buf[65536];
	long len = proc_read_file(l->rootfd, "stat", buf, sizeof(buf));
	int n = len > 0 ? proc_parse_cpustat(buf, (size_t)len, &l->cs, &l->cscap) : -EINVAL;

	if (n > 0)
		live_sync_cpus(l, n, false);
	for (int i = 0; i < n; i++) {
		struct snap_cpu *c = snapshot_add_cpu(snap, l->cs[i].cpu);
		struct live_cpu *lc = NULL;

		c->busy = l->cs[i].busy;
		c->total = l->cs[i].total;
		for (size_t k = 0; k < l->ncpus; k++)
			if (l->cpus[k].cpu == c->cpu)
				lc = &l->cpus[k];
		for (size_t e = 0; e < l->base.ev.n; e++)
			c->c[e].err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err
			: lc && lc->err ? lc->err : -ENOENT;
		if (!lc || lc->err)
			continue;
		for (size_t k = 0; k < l->ncg; k++) {
			int r = lc->gerr[k] ? lc->gerr[k] : counters_read_group(&lc->g[k], l->tmp);

			if (k == 0 && !r) {
				uint64_t en = l->tmp[l->cg[0].ev[0]].enabled;

				/* offline and back between two ticks: the old events are dead */
				if (lc->last_enabled && en == lc->last_enabled) {
					source_message(&l->base, "CPU %d went offline and came back: "
						       "counting it again", lc->cpu);
					live_close_cpu(l, lc);
					live_open_cpu(l, lc);
					for (int m = 0; m < l->cg[k].nr; m++)
						c->c[l->cg[k].ev[m]].err = -ENODEV;
					break;
				}
				lc->last_enabled = en;
			}
			for (int m = 0; m < l->cg[k].nr; m++) {
				int e = l->cg[k].ev[m];

				if (r)
					c->c[e].err = r;
				else
					c->c[e] = l->tmp[e];
			}
		}
	}
}

static void live_take_sample(const struct ring_sample *r, void *arg)
{
	struct live *l = arg;
	struct snap_sample *x;

	if (l->npend >= LIVE_MAX_PENDING) {
		l->dropped++;
		return;
	}
	l->pend = xgrow(l->pend, &l->pendcap, l->npend + 1, sizeof(*l->pend));
	x = &l->pend[l->npend++];
	x->addr = r->addr;
	x->ip = r->ip;
	x->weight = r->weight;
	x->tid = r->tid;
	x->cpu = r->cpu;
	x->op = (uint8_t)r->op;
	x->level = (uint8_t)r->level;
}

static uint64_t live_hash(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

/* Move the drained samples and, when they changed, the mappings into snap. */
static void live_fill_samples(struct live *l, struct snapshot *snap)
{
	const struct ring_stats *st;
	char path[64];
	long n;

	if (!l->smp)
		return;
	sampler_drain(l->smp, live_take_sample, l);
	st = sampler_stats(l->smp);
	snap->smp.pid = l->smp_pid;
	snprintf(snap->smp.source, sizeof(snap->smp.source), "%s",
		 sample_kind_name(sampler_kind(l->smp)));
	snap->smp.period = sampler_period(l->smp);
	snap->smp.lost = sampler_lost(l->smp) + l->dropped;
	snap->smp.throttled = st->throttled;
	for (size_t i = 0; i < l->npend; i++)
		*snapshot_add_sample(snap) = l->pend[i];
	l->npend = 0;
	if (!l->mapsbuf)
		l->mapsbuf = xmalloc(LIVE_MAPS_MAX);
	snprintf(path, sizeof(path), "%d/maps", l->smp_pid);
	n = proc_read_file(l->rootfd, path, l->mapsbuf, LIVE_MAPS_MAX);
	if (n > 0) {
		uint64_t h = live_hash(l->mapsbuf, (size_t)n);
		struct mem_map *maps = NULL;
		size_t cap = 0;
		long nm;

		if (h == l->maps_hash)
			return;
		nm = proc_parse_maps(l->mapsbuf, (size_t)n, &maps, &cap);
		for (long i = 0; i < nm; i++)
			*snapshot_add_map(snap) = maps[i];
		free(maps);
		snap->smp.maps_changed = nm >= 0;
		l->maps_hash = h;
	}
}

static int live_sample(struct source *s, int pid, const struct sample_req *req, char *err,
		       size_t errsize)
{
	struct live *l = (struct live *)s;
	struct sampler_req sr = { req->kind, req->period, NULL, l->kernel };
	char notes[512];
	int r;

	if (l->smp && pid == l->smp_pid && req->kind == SAMPLE_AUTO && !req->period)
		return 0;
	sampler_close(l->smp);
	l->smp = NULL;
	l->smp_pid = 0;
	l->npend = 0;
	l->dropped = 0;
	l->maps_hash = 0;
	if (!pid)
		return 0;
	r = sampler_open(&l->smp, l->rootfd, pid, &sr, notes, sizeof(notes), err, errsize);
	if (r)
		return r;
	l->smp_pid = pid;
	source_message(s, "sampling pid %d with %s: %s%s%s", pid,
		       sample_kind_name(sampler_kind(l->smp)),
		       sample_kind_meaning(sampler_kind(l->smp)), notes[0] ? "; not used: " : "",
		       notes);
	return 0;
}

static size_t live_poll_fds(struct source *s, int *fds, size_t max)
{
	struct live *l = (struct live *)s;

	return l->smp ? sampler_poll_fds(l->smp, fds, max) : 0;
}

static void live_wake(struct source *s, int fd, bool hup)
{
	struct live *l = (struct live *)s;

	if (!l->smp)
		return;
	/* drain the ring that fired (a hangup comes without POLLIN: drain it too) */
	sampler_drain(l->smp, live_take_sample, l);
	if (hup)
		sampler_hangup(l->smp, fd);
}

static int live_read(struct source *s, struct snapshot *snap)
{
	struct live *l = (struct live *)s;
	struct timespec ts;
	char buf[256];
	long n;

	snapshot_clear(snap);
	snap->nev = s->ev.n;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snap->t_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &ts);
	snap->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	n = proc_read_file(l->rootfd, "loadavg", buf, sizeof(buf));
	if (n > 0)
		proc_parse_loadavg(buf, (size_t)n, snap->load);
	n = proc_read_file(l->rootfd, "uptime", buf, sizeof(buf));
	if (n <= 0 || proc_parse_uptime(buf, (size_t)n, &snap->uptime))
		snap->uptime = -1;
	live_read_cpus(l, snap);
	live_scan(l, snap);
	/* tids of different processes interleave */
	snapshot_sort(snap);
	live_fill_samples(l, snap);
	return 0;
}

static void live_threads(struct source *s, int pid, bool all)
{
	struct live *l = (struct live *)s;

	l->focus = pid;
	l->all_threads = all;
}

static void live_free(struct source *s)
{
	struct live *l = (struct live *)s;

	for (size_t i = 0; i < l->nprocs; i++)
		live_close_proc(l, &l->procs[i]);
	free(l->procs);
	for (size_t i = 0; i < l->ncpus; i++)
		live_close_cpu(l, &l->cpus[i]);
	free(l->cpus);
	free(l->cs);
	free(l->ids);
	free(l->tids);
	free(l->users);
	free(l->tmp);
	free(l->attr);
	free(l->tg);
	free(l->cg);
	free(l->pids_copy);
	sampler_close(l->smp);
	free(l->pend);
	free(l->mapsbuf);
	if (l->rootfd >= 0)
		close(l->rootfd);
	source_release(&l->base);
	free(l);
}

static const struct source_ops LIVE_OPS = {
	.read = live_read,
	.threads = live_threads,
	.sample = live_sample,
	.poll_fds = live_poll_fds,
	.wake = live_wake,
	.free = live_free,
};

/* Try one group definition on ourselves; 0 or -errno with *bad the failing member. */
static int live_try_group(struct live *l, const int *ev, int nr, int pid, int cpu, unsigned flags,
			  int *bad)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct counters_group g;
	int r;

	for (int i = 0; i < nr; i++)
		a[i] = &l->attr[ev[i]];
	r = counters_open_group(&g, a, ev, nr, pid, cpu, flags, bad);
	if (!r)
		counters_close_group(&g);
	return r;
}

/*
 * Find what this kernel and PMU accept: members that fail alone are marked
 * unsupported; a group that still fails whole (more events than counters)
 * is split into single events.
 */
static void live_probe_groups(struct live *l)
{
	struct evlist *ev = &l->base.ev;
	int ngroups = ev->ngroups;

	for (int g = 0; g < ngroups; g++) {
		int mem[COUNTERS_MAX_GROUP], nr = 0, bad, r;

		for (size_t i = 0; i < ev->n && nr < COUNTERS_MAX_GROUP; i++)
			if (ev->ev[i].group == g && !ev->ev[i].err)
				mem[nr++] = (int)i;
		if (!nr)
			continue;
		r = live_try_group(l, mem, nr, 0, -1, COUNTERS_INHERIT, &bad);
		if (!r)
			continue;
		int keep = 0;

		for (int i = 0; i < nr; i++) {
			int one = mem[i];

			r = live_try_group(l, &one, 1, 0, -1, COUNTERS_INHERIT, &bad);
			if (r)
				ev->ev[one].err = r;
			else
				mem[keep++] = one;
		}
		if (keep > 1 && live_try_group(l, mem, keep, 0, -1, COUNTERS_INHERIT, &bad)) {
			for (int i = 1; i < keep; i++)
				ev->ev[mem[i]].group = ev->ngroups++;
		}
	}
}

static void live_build_gdefs(struct live *l, struct live_gdef **out, size_t *nout, bool for_cpu)
{
	const struct evlist *ev = &l->base.ev;

	*out = xcalloc((size_t)ev->ngroups + 1, sizeof(**out));
	*nout = 0;
	for (int g = 0; g < ev->ngroups; g++) {
		struct live_gdef *d = &(*out)[*nout];

		d->nr = 0;
		for (size_t i = 0; i < ev->n && d->nr < COUNTERS_MAX_GROUP; i++) {
			if (ev->ev[i].group != g || ev->ev[i].err)
				continue;
			if (for_cpu && ev->ev[i].role == EV_TASK_CLOCK)
				continue;
			d->ev[d->nr++] = (int)i;
		}
		if (d->nr)
			(*nout)++;
	}
}

static bool live_kernel_permitted(void)
{
	struct perf_event_attr a;
	const struct perf_event_attr *ap = &a;
	struct counters_group g;
	int ev = 0, bad;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	if (counters_open_group(&g, &ap, &ev, 1, 0, -1, 0, &bad))
		return false;
	counters_close_group(&g);
	return true;
}

static void live_describe(struct live *l)
{
	const struct evlist *ev = &l->base.ev;
	char why[300] = "", msg[400];
	int pmu_counters = 0;
	const char *pmu = events_hw_pmu(&pmu_counters);
	bool any_hw_asked = false;

	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].hw)
			continue;
		any_hw_asked = true;
		if (ev->ev[i].err && !why[0])
			errmsg_perf(why, sizeof(why), ev->ev[i].err, ev->ev[i].name, l->paranoid);
	}
	if (evlist_any_hw(ev)) {
		snprintf(l->base.mode, sizeof(l->base.mode), "hardware events (%s)%s",
			 pmu ? pmu : "PMU", l->kernel ? "" : ", user mode only");
	} else if (any_hw_asked) {
		snprintf(l->base.mode, sizeof(l->base.mode),
			 "no hardware PMU: software events only (%s)%s", why,
			 l->kernel ? "" : ", user mode only");
		snprintf(msg, sizeof(msg),
			 "no hardware PMU: counting software events only (%s); IPC, GHz and miss "
			 "ratios need hardware counters (a VM without a virtual PMU has none)",
			 why);
		source_message(&l->base, "%s", msg);
	} else {
		snprintf(l->base.mode, sizeof(l->base.mode), "software events%s",
			 l->kernel ? "" : ", user mode only");
	}
	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].err || (!ev->ev[i].user && ev->ev[i].hw))
			continue;
		errmsg_perf(msg, sizeof(msg), ev->ev[i].err, ev->ev[i].name, l->paranoid);
		source_message(&l->base, "%s", msg);
	}
}

struct source *source_live_new(const struct evlist *req, const struct live_opts *o, char *err,
			       size_t errsize)
{
	struct live *l = xcalloc(1, sizeof(*l));
	struct utsname un;
	bool any = false;

	source_init(&l->base, &LIVE_OPS);
	l->base.caps = SOURCE_CAP_SAMPLE | SOURCE_CAP_THREADS;
	l->rootfd = -1;
	l->o = *o;
	if (o->npids) {
		l->pids_copy = xmalloc(o->npids * sizeof(int));
		memcpy(l->pids_copy, o->pids, o->npids * sizeof(int));
		l->o.pids = l->pids_copy;
	}
	l->rootfd = open(o->proc_root ? o->proc_root : "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->rootfd < 0) {
		snprintf(err, errsize, "cannot open '%s': %s", o->proc_root ? o->proc_root : "/proc",
			 strerror(errno));
		goto out_free;
	}
	if (live_read_int(l->rootfd, "sys/kernel/perf_event_paranoid", &l->paranoid))
		l->paranoid = -2;
	l->kernel = live_kernel_permitted();
	if (uname(&un) == 0) {
		snprintf(l->base.host, sizeof(l->base.host), "%s", un.nodename);
		snprintf(l->base.kernel, sizeof(l->base.kernel), "%s", un.release);
	}
	evlist_copy(&l->base.ev, req);
	l->attr = xcalloc(req->n ? req->n : 1, sizeof(*l->attr));
	for (size_t i = 0; i < req->n; i++) {
		bool hw;
		int r = events_encode(req->ev[i].name, l->kernel, &l->attr[i], &hw);

		if (r) {
			l->base.ev.ev[i].err = r;
			continue;
		}
		l->base.ev.ev[i].hw = hw;
		/* time spent in a hypervisor is not the task's */
		l->attr[i].exclude_hv = 1;
	}
	live_probe_groups(l);
	for (size_t i = 0; i < l->base.ev.n; i++)
		any |= !l->base.ev.ev[i].err;
	if (!any) {
		char why[300];

		errmsg_perf(why, sizeof(why), l->base.ev.ev[0].err, l->base.ev.ev[0].name,
			    l->paranoid);
		snprintf(err, errsize, "no event can be counted on this machine: %s", why);
		goto out_free;
	}
	live_build_gdefs(l, &l->tg, &l->ntg, false);
	live_build_gdefs(l, &l->cg, &l->ncg, true);
	l->tmp = xcalloc(l->base.ev.n, sizeof(*l->tmp));
	for (size_t k = 0; k < l->ntg; k++)
		l->set_fds += (size_t)l->tg[k].nr;
	{
		struct rlimit rl;

		/* keep a reserve for /proc, the output, recordings and the screen */
		l->fd_budget = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
					       rl.rlim_cur > LIVE_FD_RESERVE
				       ? (size_t)(rl.rlim_cur - LIVE_FD_RESERVE)
				       : rl.rlim_cur == RLIM_INFINITY ? (size_t)-1 : 0;
	}
	live_describe(l);
	live_open_cpus(l);
	return &l->base;
out_free:
	live_free(&l->base);
	return NULL;
}

int source_live_paranoid(const struct source *s)
{
	return ((const struct live *)s)->paranoid;
}
