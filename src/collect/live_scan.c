/* Live source, the tick's scan of processes: new, renewed, exec'd and gone ones, their rows. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void live_close_proc(struct live *l, struct live_proc *p)
{
	if (p->statfd >= 0) {
		l->ops->close(l->ops->ctx, p->statfd);
		l->fds_open--;
	}
	if (l->be->proc_free)
		l->be->proc_free(l, p);
	free(p->cmdline);
	free(p->cgroup);
	free(p->cnt);
	memset(p, 0, sizeof(*p));
	p->statfd = -1;
}

/*
 * Keep p's stat file open, to re-read it with one pread, where the
 * descriptors are spare (live_fd_spare); whether it is kept now.
 */
static bool live_keep_stat(struct live *l, struct live_proc *p)
{
	char path[64];

	if (p->statfd >= 0)
		return true;
	if (!live_fd_spare(l, 1))
		return false;
	/* where the backend times the process, its leader's: no thread is summed at a read */
	p->statfd_leader = l->be->cpu_time != NULL;
	if (p->statfd_leader)
		snprintf(path, sizeof(path), "%d/task/%d/stat", p->pid, p->pid);
	else
		snprintf(path, sizeof(path), "%d/stat", p->pid);
	p->statfd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
	if (p->statfd < 0) {
		p->statfd = -1;
		return false;
	}
	l->fds_open++;
	return true;
}

/* The first process of a tick refused with EACCES or EPERM, and who owns it. */
struct live_denied {
	int err;	 /* -EACCES or -EPERM; 0: none refused */
	int pid;	 /* the first refused process of another user, else the first refused */
	long long owner; /* its effective uid */
	long long other; /* how many refused processes belong to other users */
};

/*
 * Note a refused attach. The per-task events opened on pmctop itself at
 * start (the probe), so perf_event_paranoid is not what refuses them here:
 * for another user's process the kernel asks for ptrace access to it
 * (perf_check_permission: CAP_PERFMON, or ptrace_may_access with
 * PTRACE_MODE_READ_REALCREDS, where the real uid must match the target's
 * real, effective and saved uids).
 */
static void live_note_denied(struct live_denied *d, const struct live_proc *p, unsigned me)
{
	bool other = p->uid != me;

	if (!d->err || (other && !d->other)) {
		d->err = p->err;
		d->pid = p->pid;
		d->owner = p->uid;
	}
	d->other += other;
}

/*
 * Tell the first permission error and the first time descriptors ran out,
 * with how many processes are left uncounted (nfd) at the end of the tick.
 */
static void live_note_task_errors(struct live *l, const struct live_denied *d, size_t nfd)
{
	if (d->err && !l->told_perm) {
		struct fact f;

		l->told_perm = true;
		fact_set(&f, FACT_TASKS, d->err, NULL, l->paranoid);
		f.tasks.pid = d->pid;
		f.tasks.owner = d->owner;
		f.tasks.uid = (long long)getuid();
		f.tasks.others = d->other;
		live_tell(l, &f);
	}
	if (nfd && !l->told_fds) {
		struct fact f;

		l->told_fds = true;
		fact_set(&f, FACT_TASKS, -EMFILE, NULL, l->paranoid);
		f.tasks.left_out = (long long)nfd;
		live_tell(l, &f);
	}
}

/* pid's effective uid: its directory's owner in a kernel's /proc, else from its status file. */
static int live_read_uid(struct live *l, int pid, unsigned *uid)
{
	return l->proc_owner ? proc_read_owner(l->rootfd, pid, uid)
			     : proc_read_uid(l->rootfd, pid, uid);
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
	if (live_read_uid(l, st->pid, &p->uid)) {
		live_close_proc(l, p);
		return false;
	}
	live_pids_note(l, st->pid);
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
 * USER and the filters follow it: the uid is read when the process runs
 * after a tick it did not, and every LIVE_UID_TICKS ticks while it runs on
 * (a lookup each tick for every busy process would cost more than its
 * counters).
 */
static bool live_renew(struct live *l, struct live_proc *p, bool idle)
{
	unsigned uid;

	if (p->kthread)
		return p->skip == l->kthreads;
	/*
	 * a process that did not run made no setuid; but one that ran since its
	 * uid was last read (a setuid, then sleep) is looked at once more as it
	 * rests, or its last change would wait for the idle refresh
	 */
	if (idle && !p->uid_stale)
		return false;
	if (!idle && p->idle == 0 && ++p->uid_age < LIVE_UID_TICKS) {
		p->uid_stale = true;
		return false;
	}
	p->uid_age = 0;
	p->uid_stale = false;
	if (live_read_uid(l, p->pid, &uid) || uid == p->uid)
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
 * top's NI, P and VIRT from the stat just read, and SHR from statm while it is wanted: read
 * again each tick the process ran, kept from the last read while it is idle (its pages do not
 * move then).
 */
static void live_fill_more(struct live *l, struct live_proc *p, const struct proc_stat *st,
			   bool idle, struct snap_task *t)
{
	unsigned long long shr;

	t->nice = st->nice;
	t->processor = st->processor;
	t->virt_kib = st->vsize / 1024;
	t->pflags |= SNAP_TASK_MORE;
	if (!(l->extras & SOURCE_EXTRA_SHR)) {
		/* a file a process and tick that nothing shows: unknown, read again when wanted */
		p->shr_ok = false;
	} else if (!idle || !p->shr_ok) {
		p->shr_ok = !proc_read_statm(l->rootfd, p->pid, &shr);
		if (p->shr_ok)
			p->shr = shr;
	}
	if (p->shr_ok) {
		t->shr_kib = live_pages_kib(p->shr);
		t->pflags |= SNAP_TASK_SHR;
	}
}

static void live_fill_task(struct live *l, struct live_proc *p, const struct proc_stat *st,
			   bool idle, struct snapshot *snap)
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
	snapshot_task_set_cgroup(t, p->cgroup);
	t->pflags = SNAP_TASK_PROC | (p->kthread ? SNAP_TASK_KTHREAD : 0);
	t->rss_kib = live_pages_kib(st->rss);
	t->cpu_ns = live_ticks_ns(st->cpu);
	live_fill_more(l, p, st, idle, t);
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
	l->be->fill(l, p, st, snap, t->c, &t->t_ns);
}

/* p's thread rows, where its backend gives them: every process's (-H), or the focused one's. */
static void live_maybe_threads(struct live *l, struct live_proc *p, struct snapshot *snap)
{
	if (l->be->threads)
		l->be->threads(l, p, snap, l->all_threads || l->focus == p->pid);
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
	long n = proc_kept_read(&l->kuptime, l->rootfd, "uptime", buf, sizeof(buf));
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
	size_t gone = 0, nfd = 0, reserve = 0, stats = 0;
	struct live_denied denied = { 0, 0, -1, 0 };
	unsigned me = (unsigned)getuid();
	bool late = false;

	l->gread_pid = 0;
	/* the slice counts from here: the /proc scan before it is a cost of its own */
	l->attach_until = sysops_now(l->ops) + l->attach_slice;
	if (l->be->attach_begin)
		l->be->attach_begin(l, procs, n);
	if (npend > 1) {
		unsigned long long now = live_now_ticks(l);

		for (size_t i = 0; i < npend; i++) {
			unsigned long long age =
				now > pend[i].st.start ? now - pend[i].st.start : 1;

			pend[i].busy = (double)pend[i].st.cpu / (double)age;
		}
		qsort(pend, npend, sizeof(*pend), live_cmp_pend);
	}
	for (size_t i = 0; i < npend; i++) {
		reserve += pend[i].st.threads > 0 ? (size_t)pend[i].st.threads : 1;
		stats += procs[pend[i].idx].statfd < 0;
	}
	for (size_t i = 0; i < npend; i++) {
		struct live_proc *p = &procs[pend[i].idx];

		reserve -= pend[i].st.threads > 0 ? (size_t)pend[i].st.threads : 1;
		l->reserve = reserve;
		stats -= p->statfd < 0;
		l->reserve_procs = stats;
		/* where kernel mode is counted all the same (from /proc), nothing is refused */
		if (p->kthread && !l->kernel && !(l->be->flags & LIVE_BE_ALL_MODES)) {
			/* user mode only: a kernel thread would count nothing, and not truly 0 */
			p->err = -EPERM;
			if (!l->told_kthreads) {
				l->told_kthreads = true;
				live_tell_err(l, FACT_KTHREADS, -EPERM, NULL);
			}
			live_fill_task(l, p, &pend[i].st, false, snap);
			continue;
		}
		/* with nothing to attach (from /proc), every process is counted at once */
		late = !(l->be->flags & LIVE_BE_NO_ATTACH) &&
		       (late || (i > 0 && sysops_now(l->ops) > l->attach_until));
		if (late) {
			/* left for the next tick: counts not attached yet, never 0 */
			live_fill_task(l, p, &pend[i].st, false, snap);
			continue;
		}
		p->err = l->be->attach ? l->be->attach(l, p, &pend[i].st) : 0;
		if (p->err == -ESRCH) {
			live_close_proc(l, p);
			p->pid = 0; /* dropped below */
			gone++;
			continue;
		}
		/* a thread exiting halfway through the attach: not the device, try again */
		if (p->err == -ENODEV)
			p->err = LIVE_RETRY;
		if (p->err == -EACCES || p->err == -EPERM)
			live_note_denied(&denied, p, me);
		if (p->err == -EMFILE || p->err == -ENFILE) {
			nfd++;
			p->retry = l->tick + LIVE_RETRY_TICKS;
		}
		live_fill_task(l, p, &pend[i].st, false, snap);
		live_maybe_threads(l, p, snap);
	}
	live_note_task_errors(l, &denied, nfd);
	/*
	 * What the processes not attached yet (left for the next tick, waiting
	 * for descriptors, or to be attached again with the other layout) need
	 * at least: their software sets and stat files.
	 */
	l->fd_spoken = 0;
	for (size_t i = 0; i < n && !(l->be->flags & LIVE_BE_NO_ATTACH); i++) {
		const struct live_proc *p = &procs[i];

		if (p->pid && !p->skip &&
		    (p->err == LIVE_UNATTACHED || p->err == LIVE_RETRY || p->err == -EMFILE ||
		     p->err == -ENFILE))
			l->fd_spoken += (p->last.threads > 0 ? (size_t)p->last.threads : 1) *
						(l->nsw ? l->sw_fds : l->set_fds) +
					(p->statfd < 0);
	}
	/*
	 * Keep the stat file of each counted process open, to re-read it with one
	 * pread; counters come first, so this waits until they have their fds,
	 * and those still to attach theirs.
	 */
	for (size_t i = 0; i < npend; i++) {
		struct live_proc *p = &procs[pend[i].idx];

		if (p->pid && !p->err && !live_fd_spare(l, 1))
			break;
		if (p->pid && !p->err)
			live_keep_stat(l, p);
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

int live_pread_stat(struct live *l, int fd, struct proc_stat *st)
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

/*
 * p's stat again through its kept file. A leader thread's file (the kernel
 * walks no threads for it) gives the process's fields but its CPU time,
 * which p's backend gives; where it cannot, and every LIVE_STAT_FULL reads
 * so that the time stays the kernel's, the process's file is read.
 */
static int live_reread_stat(struct live *l, struct live_proc *p, struct proc_stat *st)
{
	int r = live_pread_stat(l, p->statfd, st);

	if (r || !p->statfd_leader)
		return r;
	if (((l->be->flags & LIVE_BE_KERNEL_TIME) || ++p->stat_reads < LIVE_STAT_FULL) &&
	    l->be->cpu_time(l, p, st, false))
		return 0;
	p->stat_reads = 0;
	r = proc_read_stat(l->rootfd, p->pid, 0, st);
	if (!r)
		l->be->cpu_time(l, p, st, true);
	return r;
}

void live_scan(struct live *l, struct snapshot *snap)
{
	long n = live_pids(l);
	struct live_proc *next = NULL;
	struct live_pend *pend = NULL;
	size_t nnext = 0, ncap = 0, old = 0, npend = 0, pcap = 0;
	uint64_t now = sysops_now(l->ops);

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
			idle = !o->skip && l->be->idle(l, o, o->statfd < 0);
			/* the stat fd of a process that died reads ESRCH, even if its pid came back */
			int r = idle		 ? (st = o->last, 0)
				: o->statfd >= 0 ? live_reread_stat(l, o, &st)
						 : proc_read_stat(l->rootfd, pid, 0, &st);

			/*
			 * counted without its stat file (the descriptors were short when
			 * its counters were opened): kept from now on, where they are
			 * spare (where nothing is opened per process, the backend's own
			 * files keep them)
			 */
			if (!r && !idle && o->statfd < 0 && !o->skip && !o->err &&
			    o->start == st.start && !(l->be->flags & LIVE_BE_NO_ATTACH))
				live_keep_stat(l, o);

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
	free(l->tg_keep);
	free(l->tk_old);
	free(l->tk_shares);
}
