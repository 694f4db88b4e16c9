/* Live source, per-thread counts from /proc summed by process (switches, migrations, faults). */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/*
 * The kernel keeps some counts per thread only (/proc/PID/status shows the
 * thread-group leader's switches alone, fs/proc/array.c), so a process's are
 * the sum over its threads' files. Each thread's last read is kept by tid and
 * the sum grows by each thread's change. The counts of a thread that exits go
 * with it: an interval in which one exited is not exact, and is given as not
 * running (running < enabled), never as an exact count.
 */

/* Keep thread o, gone since the last read, with its last counts in gone (state 'X'). */
static void live_tsum_gone(struct live_tsum_thr **gone, size_t *ng, size_t *cap,
			   const struct live_tsum_thr *o)
{
	*gone = xgrow(*gone, cap, *ng + 1, sizeof(**gone));
	(*gone)[*ng] = *o;
	(*gone)[(*ng)++].state = 'X';
}

/*
 * Whether o's tid is now another thread's: a count fell (each only grows
 * while a thread lives), or, where both reads have its stat, its start time
 * differs (a new thread with more of everything than the old one).
 */
static bool live_tsum_reused(const struct live_tsum_thr *o, const struct live_tsum_thr *e,
			     bool stat)
{
	bool both = stat && o->stat, fell = false;

	for (int k = 0; k < LIVE_TS_MAX; k++)
		fell |= (k < LIVE_TS_MINFLT || both) && e->v[k] < o->v[k];
	return fell || (both && e->start != o->start);
}

/* Close the file kept in *kfd (1 + fd) by ts. */
static void live_tsum_drop(struct live *l, struct live_tsum *ts, int *kfd)
{
	if (!*kfd)
		return;
	l->ops->close(l->ops->ctx, *kfd - 1);
	*kfd = 0;
	ts->nfds--;
	l->fds_open--;
}

/* Close the files of thread e, read no more. */
static void live_tsum_drop_thr(struct live *l, struct live_tsum *ts, struct live_tsum_thr *e)
{
	live_tsum_drop(l, ts, &e->sfd);
	live_tsum_drop(l, ts, &e->gfd);
}

void live_tsum_close(struct live *l, struct live_tsum *ts)
{
	for (size_t i = 0; i < ts->nthr; i++)
		live_tsum_drop_thr(l, ts, &ts->thr[i]);
}

/* Thread i's claim to a read, for live_tsum_pick. */
struct live_tsum_claim {
	size_t i;
	bool due;     /* not read for LIVE_IDLE_REFRESH ticks: read before others, oldest first */
	bool unrated; /* read once only: how much it runs is not known */
	double pend;  /* the run time it likely had since its last read, ns */
	unsigned long long age; /* ticks since its last read */
};

static int live_tsum_claim_cmp(const void *a, const void *b)
{
	const struct live_tsum_claim *x = a, *y = b;

	if (x->due != y->due)
		return x->due ? -1 : 1;
	/* the due in turn, oldest first: an idle one too is read while many are due */
	if (x->due && x->age != y->age)
		return x->age > y->age ? -1 : 1;
	if (x->unrated != y->unrated)
		return x->unrated ? -1 : 1;
	if (x->pend != y->pend)
		return x->pend > y->pend ? -1 : 1;
	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Mark which of ts's threads this update reads (live_tsum_thr.pick): all of
 * them but where ts has a budget and more than LIVE_THR_WHOLE threads. Then
 * as many as the budget: those not read for LIVE_IDLE_REFRESH ticks first,
 * oldest first; then those read only once (how much they run is not known);
 * then those whose run time since their last read is likely the most (how
 * much each ran a ns between its last two reads, times the ns since). So
 * the threads that run the most are read every tick, the others in turn.
 * Whether some were left unread.
 */
static bool live_tsum_pick(struct live *l, struct live_tsum *ts, uint64_t t_ns)
{
	/* the best claims so far, best first: a few, kept by insertion (no sort of them all) */
	struct live_tsum_claim best[LIVE_THR_READS];
	size_t nb = 0, want = ts->budget < LIVE_THR_READS ? ts->budget : LIVE_THR_READS;

	/* the first two updates read all: each thread's rate is known then */
	if (!ts->budget || ts->updates < 2 || ts->nthr <= LIVE_THR_WHOLE || ts->nthr <= want) {
		for (size_t i = 0; i < ts->nthr; i++)
			ts->thr[i].pick = true;
		return false;
	}
	for (size_t i = 0; i < ts->nthr; i++) {
		struct live_tsum_thr *o = &ts->thr[i];
		unsigned long long age = l->tick > o->rtick ? l->tick - o->rtick : 0;
		struct live_tsum_claim c = {
			.i = i,
			.age = age,
			.due = age >= LIVE_IDLE_REFRESH,
			.unrated = !o->rated,
			.pend = o->rate[LIVE_TS_RUN] * (double)(t_ns > o->rns ? t_ns - o->rns : 0),
		};
		size_t at = nb;

		o->pick = false;
		while (at > 0 && live_tsum_claim_cmp(&c, &best[at - 1]) < 0)
			at--;
		if (at >= want)
			continue;
		if (nb < want)
			nb++;
		memmove(&best[at + 1], &best[at], (nb - 1 - at) * sizeof(*best));
		best[at] = c;
	}
	for (size_t i = 0; i < nb; i++)
		ts->thr[best[i].i].pick = true;
	return true;
}

/* After the read of e at t_ns (o: its last read, NULL for one new): when it was, how fast it counts. */
static void live_tsum_rated(struct live *l, const struct live_tsum_thr *o, struct live_tsum_thr *e,
			    uint64_t t_ns)
{
	e->rtick = l->tick;
	e->rns = t_ns;
	e->rated = o && t_ns > o->rns;
	for (int k = 0; k < LIVE_TS_MINFLT; k++)
		e->rate[k] = e->rated && e->v[k] >= o->v[k]
				     ? (double)(e->v[k] - o->v[k]) / (double)(t_ns - o->rns)
				     : 0;
}

int live_tsum_update(struct live *l, struct live_tsum *ts, int pid, uint64_t t_ns,
		     live_tsum_read rd, bool stat, int threads)
{
	struct live_tsum_thr *next, *gone = NULL;
	char path[64];
	long n;
	size_t nn = 0, old = 0, ng = 0, gcap = 0;
	bool first = !ts->read, exact = true;
	/*
	 * As many threads as at the last read, and none of them gone since
	 * (each kept file read below would say so): none started either, so
	 * the last read's tids stand for a listing. One that starts after the
	 * stat read is listed next tick, with all it did.
	 */
	bool list = !ts->keep || first || ts->relist || threads < 0 || (size_t)threads != ts->nthr;
	/* the changes of this read: kept only when every thread could be read */
	uint64_t add[LIVE_TS_MAX] = { 0 };

	if (list) {
		snprintf(path, sizeof(path), "%d/task", pid);
		n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
		if (n < 0)
			return n == -ENOENT ? -ESRCH : (int)n;
	} else {
		n = (long)ts->nthr;
		l->tids = xgrow(l->tids, &l->tidcap, ts->nthr + 1, sizeof(*l->tids));
		for (size_t i = 0; i < ts->nthr; i++)
			l->tids[i] = ts->thr[i].tid;
	}
	ts->relist = false;
	ts->used = l->tick;
	ts->skipped_before = ts->skipped;
	ts->skipped = live_tsum_pick(l, ts, t_ns);
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		struct live_tsum_thr *e = &next[nn], *o = NULL;
		int r;

		/* the slot of a thread whose read failed is used again: nothing of it stays */
		memset(e, 0, sizeof(*e));
		e->tid = l->tids[i];
		while (old < ts->nthr && ts->thr[old].tid < e->tid) {
			exact = false; /* gone, with its last counts */
			live_tsum_drop_thr(l, ts, &ts->thr[old]);
			live_tsum_gone(&gone, &ng, &gcap, &ts->thr[old++]);
		}
		if (old < ts->nthr && ts->thr[old].tid == e->tid)
			o = &ts->thr[old++];
		if (o && !o->pick) {
			/* left for a later read, which counts what it does meanwhile */
			*e = *o;
			o->sfd = o->gfd = 0;
			nn++;
			continue;
		}
		r = rd(l, ts, pid, o, e, stat);
		/* its files go with its read: kept by the slot that is kept */
		if (o) {
			e->sfd = o->sfd;
			e->gfd = o->gfd;
			o->sfd = o->gfd = 0;
		}
		if (r == -ENOENT || r == -ESRCH) {
			/* exited between the listing and the read */
			live_tsum_drop_thr(l, ts, e);
			if (o) {
				exact = false;
				live_tsum_gone(&gone, &ng, &gcap, o);
			}
			ts->relist |= !list;
			continue;
		}
		if (r) {
			/* a thread that cannot be read (EACCES): no sum that leaves it out */
			for (size_t k = 0; k <= nn; k++)
				live_tsum_drop_thr(l, ts, &next[k]);
			free(next);
			free(gone);
			return r;
		}
		live_tsum_rated(l, o, e, t_ns);
		if (o && live_tsum_reused(o, e, stat)) {
			/* a tid reused by a new thread: the old one exited, the new one counts from 0 */
			exact = false;
			o = NULL;
			e->rated = false;
			memset(e->rate, 0, sizeof(e->rate));
			memset(e->v0, 0, sizeof(e->v0));
			for (int k = 0; k < LIVE_TS_MAX; k++)
				add[k] += e->v[k];
		} else if (o) {
			for (int k = 0; k < LIVE_TS_MAX; k++) {
				bool known = k < LIVE_TS_MINFLT || o->stat;

				/* faults first read now (thread rows asked for later): they count from here */
				e->v0[k] = known ? o->v0[k] : e->v[k];
				add[k] += known ? e->v[k] - o->v[k] : 0;
			}
		} else if (first) {
			memcpy(e->v0, e->v, sizeof(e->v0));
		} else {
			/* created since the last read: all it did is new */
			for (int k = 0; k < LIVE_TS_MAX; k++)
				add[k] += e->v[k];
		}
		if (o && !stat) {
			/* keep what the last stat read said, for the rows */
			e->stat = o->stat;
			e->state = o->state;
			e->cpu = o->cpu;
			e->start = o->start;
			memcpy(e->comm, o->comm, sizeof(e->comm));
			e->v[LIVE_TS_MINFLT] = o->v[LIVE_TS_MINFLT];
			e->v[LIVE_TS_MAJFLT] = o->v[LIVE_TS_MAJFLT];
		}
		nn++;
	}
	while (old < ts->nthr) {
		exact = false;
		live_tsum_drop_thr(l, ts, &ts->thr[old]);
		live_tsum_gone(&gone, &ng, &gcap, &ts->thr[old++]);
	}
	/* every thread read: the update is taken as a whole */
	if (first)
		ts->t0 = ts->last_ns = t_ns;
	for (int k = 0; k < LIVE_TS_MAX; k++)
		ts->sum[k] += add[k];
	ts->updates++;
	ts->oldest = l->tick;
	for (size_t i = 0; i < nn; i++)
		if (next[i].rtick < ts->oldest)
			ts->oldest = next[i].rtick;
	free(ts->gone);
	ts->gone = gone;
	ts->gonecap = gcap;
	ts->ngone = ng;
	free(ts->thr);
	ts->thr = next;
	ts->nthr = nn;
	if (!exact && t_ns > ts->last_ns)
		ts->lost_ns += t_ns - ts->last_ns;
	ts->last_ns = t_ns;
	ts->read = true;
	return 0;
}

/*
 * A thread that started and ended between two reads, or ended between the
 * listing and its read, is in no listing: its switches and migrations went
 * with it, and no /proc file keeps them. Its run time did not: the process
 * clock has every thread's, dead ones' too, so the clock less the run times
 * of the threads just read is what the dead threads ran. That is bounded by
 * the clock read before the thread files (clk: at least) and one read after
 * (at most; the threads ran meanwhile): when the least now is more than the
 * most at the last read, some thread died since. One that ran less than the
 * process did while pmctop read it is not seen.
 */
void live_tsum_unseen(struct live *l, struct live_tsum *ts, int pid, uint64_t clk, uint64_t prev_ns,
		      uint64_t lost0)
{
	uint64_t run = 0, after, lo, hi;
	bool died;

	for (size_t i = 0; i < ts->nthr; i++)
		run += ts->thr[i].v[LIVE_TS_RUN];
	/* threads not read have run since their reads: what the dead ran is not known */
	if (ts->skipped || sysops_cpuclock(l->ops, pid, &after) || after < clk) {
		ts->dead_ok = false;
		return;
	}
	lo = clk > run ? clk - run : 0;
	hi = after > run ? after - run : 0;
	died = ts->dead_ok && lo > ts->dead_hi;
	ts->dead_hi = hi;
	ts->dead_ok = true;
	if (died && ts->lost_ns == lost0 && ts->last_ns > prev_ns)
		ts->lost_ns += ts->last_ns - prev_ns;
}

void live_tsum_est(struct live_tsum *ts, uint64_t prev_ns, uint64_t lost0, uint64_t cpu_ns)
{
	double guess[LIVE_TS_MINFLT] = { 0 }, grun, scale;
	bool part = ts->skipped || ts->skipped_before, held = false;
	uint64_t unread = cpu_ns > ts->sum[LIVE_TS_RUN] ? cpu_ns - ts->sum[LIVE_TS_RUN] : 0;

	/*
	 * The threads not read likely counted at the rates they had between
	 * their last two reads, from their last read to now. How much they ran
	 * meanwhile the process's CPU clock tells (cpu_ns: all its threads' run
	 * time since the first read), less the run time the reads have and
	 * what no read had at the last update that read every thread (run
	 * time of threads gone since their last read): so the guess is never
	 * more than that, and none for threads that stopped. The sum is the
	 * kernel's count as last read plus that guess. Read later, a thread's
	 * real count replaces its guess: the sum follows the kernel's, but
	 * never falls (a count that fell would be taken for one reopened): it
	 * waits for the kernel's to pass it, and is an estimate until then.
	 */
	if (!part) {
		ts->unread0 = unread;
	} else {
		unread = unread > ts->unread0 ? unread - ts->unread0 : 0;
		for (size_t i = 0; i < ts->nthr; i++) {
			const struct live_tsum_thr *t = &ts->thr[i];
			double age = ts->last_ns > t->rns ? (double)(ts->last_ns - t->rns) : 0;

			for (int k = 0; k < LIVE_TS_MINFLT; k++)
				guess[k] += t->rate[k] * age;
		}
		grun = guess[LIVE_TS_RUN];
		scale = grun > 0 && (double)unread < grun ? (double)unread / grun
			: grun > 0			  ? 1
							  : 0;
		for (int k = 0; k < LIVE_TS_MINFLT; k++) {
			uint64_t v = ts->sum[k] + (uint64_t)(guess[k] * scale + 0.5);

			if (v > ts->esum[k])
				ts->esum[k] = v;
		}
	}
	for (int k = 0; k < LIVE_TS_MINFLT; k++)
		held |= k != LIVE_TS_RUN && ts->esum[k] > ts->sum[k];
	/* never a plain number: 1 ns of it not counted, where no thread exiting left all of it */
	if ((part || held) && ts->last_ns > prev_ns && ts->lost_ns - lost0 < ts->last_ns - prev_ns)
		ts->est_ns++;
}

void live_tsum_count(const struct live_tsum *ts, int k, struct snap_count *c)
{
	uint64_t off = ts->lost_ns + ts->est_ns;

	/* with guesses, until the kernel's count passes them: it never falls */
	c->value = k < LIVE_TS_MINFLT && ts->esum[k] > ts->sum[k] ? ts->esum[k] : ts->sum[k];
	c->enabled = ts->last_ns - ts->t0;
	c->running = c->enabled - (off < c->enabled ? off : c->enabled);
	c->err = 0;
}

void live_tsum_free(struct live_tsum *ts)
{
	free(ts->thr);
	free(ts->gone);
	memset(ts, 0, sizeof(*ts));
}

/* The value of "\nKEY<spaces>: VALUE" in a sched file; 0 or -EINVAL. */
static int live_pfs_field(const char *buf, const char *key, unsigned long long *v,
			  unsigned long long *frac, int *fdigits)
{
	char pat[64];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\n%s ", key);
	p = strstr(buf, pat);
	if (!p)
		return -EINVAL;
	/* keys have no colon: the next one is the key's own */
	p = strchr(p + 1, ':');
	if (!p)
		return -EINVAL;
	errno = 0;
	*v = strtoull(p + 1, &end, 10);
	if (end == p + 1 || errno)
		return -EINVAL;
	if (frac) {
		const char *q = end;

		*frac = 0;
		*fdigits = 0;
		if (*q == '.')
			for (q++; *q >= '0' && *q <= '9' && *fdigits < 9; q++, (*fdigits)++)
				*frac = *frac * 10 + (unsigned long long)(*q - '0');
	}
	return 0;
}

/*
 * Switches, migrations and run time (ns) of the text of a sched file. The
 * run time is in ms with six decimals (ns exact), as SPLIT_NS writes it.
 */
static int live_pfs_parse_sched(const char *buf, uint64_t *sw, uint64_t *mig, uint64_t *run)
{
	unsigned long long ms, frac, n;
	int digits;

	if (live_pfs_field(buf, "nr_switches", &n, NULL, NULL))
		return -EINVAL;
	*sw = n;
	if (live_pfs_field(buf, "se.nr_migrations", &n, NULL, NULL))
		return -EINVAL;
	*mig = n;
	if (live_pfs_field(buf, "se.sum_exec_runtime", &ms, &frac, &digits))
		return -EINVAL;
	for (; digits < 6; digits++)
		frac *= 10;
	for (; digits > 6; digits--)
		frac /= 10;
	*run = (uint64_t)ms * 1000000ull + frac;
	return 0;
}

/* Read a small file below the root through the system call table (tests count them). */
static long live_pfs_read_file(struct live *l, const char *path, char *buf, size_t size)
{
	int fd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return fd;
	n = sysops_read(l->ops, fd, buf, size - 1);
	l->ops->close(l->ops->ctx, fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return n;
}

/*
 * File name of thread tid of pid into buf, NUL-terminated: through the
 * descriptor kept in *kfd (1 + fd) when ts keeps its files, opened and kept
 * there while the budget has room, else opened for this read alone. A kept
 * file of a thread that is gone says ESRCH: its path then tells whether the
 * tid is another thread's now. Bytes or -errno.
 */
static long live_tsum_file(struct live *l, struct live_tsum *ts, int pid, int tid, const char *name,
			   int *kfd, char *buf, size_t size)
{
	char path[96];
	long n;
	int fd;

	if (*kfd) {
		n = l->ops->pread(l->ops->ctx, *kfd - 1, buf, size - 1, 0);
		if (n >= 0) {
			buf[n] = '\0';
			return n;
		}
		live_tsum_drop(l, ts, kfd);
		if (n != -ESRCH && n != -ENOENT)
			return n;
	}
	snprintf(path, sizeof(path), "%d/task/%d/%s", pid, tid, name);
	if (!ts->keep)
		return live_pfs_read_file(l, path, buf, size);
	if (l->fds_open + 1 > l->fd_budget) {
		/* the /proc backend closes the files of the processes read longest ago */
		l->tsum_short++;
		return live_pfs_read_file(l, path, buf, size);
	}
	fd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	n = l->ops->pread(l->ops->ctx, fd, buf, size - 1, 0);
	if (n < 0) {
		l->ops->close(l->ops->ctx, fd);
		return n;
	}
	*kfd = fd + 1;
	ts->nfds++;
	l->fds_open++;
	buf[n] = '\0';
	return n;
}

/* Whether thread schedstat files hold run times (the kernel has schedstats or delay accounting). */
static bool live_tsum_gate_ok(struct live *l)
{
	char buf[128];
	unsigned long long run;

	if (!l->tsum_gate)
		l->tsum_gate = live_pfs_read_file(l, "self/schedstat", buf, sizeof(buf)) > 0 &&
					       sscanf(buf, "%llu", &run) == 1 && run > 0
				       ? 1
				       : -1;
	return l->tsum_gate > 0;
}

/* Read thread tid's schedstat through pid's task directory, kept in *dfd within the budget. */
static long live_thread_run_file(struct live *l, int pid, int tid, int *dfd, char *buf, size_t size)
{
	char path[64];
	long n;
	int fd;

	if (!*dfd && !l->run_short && live_fd_spare(l, 1)) {
		snprintf(path, sizeof(path), "%d/task", pid);
		fd = l->ops->openat(l->ops->ctx, l->rootfd, path,
				    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return fd;
		*dfd = fd + 1;
		l->fds_open++;
		l->run_dirs++;
	}
	if (!*dfd) {
		snprintf(path, sizeof(path), "%d/task/%d/schedstat", pid, tid);
		return live_pfs_read_file(l, path, buf, size);
	}
	snprintf(path, sizeof(path), "%d/schedstat", tid);
	fd = l->ops->openat(l->ops->ctx, *dfd - 1, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	n = sysops_read(l->ops, fd, buf, size - 1);
	l->ops->close(l->ops->ctx, fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

void live_thread_dir_close(struct live *l, int *dfd)
{
	if (!*dfd)
		return;
	l->ops->close(l->ops->ctx, *dfd - 1);
	*dfd = 0;
	l->fds_open--;
	l->run_dirs--;
}

int live_thread_run(struct live *l, int pid, int tid, int *dfd, int *kfd, uint64_t *run)
{
	char buf[128], path[96];
	unsigned long long v;
	long n;
	int fd;

	if (!live_tsum_gate_ok(l))
		return -ENOTSUP;
	if (*kfd) {
		/* the file holds the thread, not its number: one gone is not read by its path */
		n = l->ops->pread(l->ops->ctx, *kfd - 1, buf, sizeof(buf) - 1, 0);
		if (n < 0 || l->run_nokeep)
			live_thread_run_close(l, kfd);
	} else {
		if (l->run_nokeep || !live_fd_spare(l, 1)) {
			n = live_thread_run_file(l, pid, tid, dfd, buf, sizeof(buf));
		} else {
			snprintf(path, sizeof(path), "%d/task/%d/schedstat", pid, tid);
			fd = l->ops->openat(l->ops->ctx, l->rootfd, path, O_RDONLY | O_CLOEXEC);
			n = fd < 0 ? fd : l->ops->pread(l->ops->ctx, fd, buf, sizeof(buf) - 1, 0);
			if (fd >= 0 && n < 0) {
				l->ops->close(l->ops->ctx, fd);
			} else if (fd >= 0) {
				*kfd = fd + 1;
				l->fds_open++;
				l->run_fds++;
			}
		}
	}
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &v) != 1)
		return -EINVAL;
	*run = v;
	return 0;
}

bool live_schedstat_runs(struct live *l)
{
	return live_tsum_gate_ok(l);
}

void live_thread_run_close(struct live *l, int *kfd)
{
	if (!*kfd)
		return;
	l->ops->close(l->ops->ctx, *kfd - 1);
	*kfd = 0;
	l->fds_open--;
	l->run_fds--;
}

/* Thread e's stat, for its row: faults, state, CPU, start and name. */
static int live_tsum_read_stat(struct live *l, int pid, struct live_tsum_thr *e)
{
	struct proc_stat st;
	int r = proc_read_stat(l->rootfd, pid, e->tid, &st);

	if (r)
		return r;
	e->stat = true;
	e->v[LIVE_TS_MINFLT] = st.minflt;
	e->v[LIVE_TS_MAJFLT] = st.majflt;
	e->state = st.state;
	e->cpu = st.cpu;
	e->start = st.start;
	snprintf(e->comm, sizeof(e->comm), "%s", st.comm);
	return 0;
}

/*
 * Whether threads' switches are read from their schedstat files: the
 * kernel's count of the times each was put on a CPU (sched_info.pcount),
 * three numbers where the sched file formats thirty lines. Only when
 * migrations are not counted, which the sched file alone has.
 */
static bool live_tsum_by_schedstat(struct live *l)
{
	return !l->tsum_mig && live_tsum_gate_ok(l);
}

/*
 * One thread's run time and switches from its schedstat. The kernel counts
 * a switch onto the CPU there, and perf's event a switch off it, so while a
 * thread is on a CPU its count is one ahead: a read that finds it running
 * counts the switch that put it there, and the next read does not count it
 * again. The sum over reads is the kernel's count of times it ran.
 */
static int live_tsum_read_schedstat(struct live *l, struct live_tsum *ts, int pid,
				    struct live_tsum_thr *k, struct live_tsum_thr *e)
{
	char buf[128];
	unsigned long long run, wait, slices;
	long n = live_tsum_file(l, ts, pid, e->tid, "schedstat", &k->gfd, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	if (sscanf(buf, "%llu %llu %llu", &run, &wait, &slices) != 3)
		return -EINVAL;
	e->v[LIVE_TS_RUN] = run;
	e->v[LIVE_TS_SW] = slices;
	return 0;
}

/*
 * Whether thread o did not run since its last read, by its schedstat's run
 * time: 1 (its counts are o's), 0 it ran (or the file did not parse), or
 * -errno. Switches and migrations move only while run time does, but for a
 * migration of a thread woken or balanced to another CPU that has not run
 * there yet: that one is counted once it runs.
 */
static int live_tsum_idle_thr(struct live *l, struct live_tsum *ts, int pid,
			      struct live_tsum_thr *o)
{
	struct live_tsum_thr now = { .tid = o->tid };
	int r = live_tsum_read_schedstat(l, ts, pid, o, &now);

	if (r == -EINVAL)
		return 0;
	return r ? r : now.v[LIVE_TS_RUN] == o->v[LIVE_TS_RUN];
}

/* One thread's sched file (or schedstat: live_tsum_by_schedstat), and its stat for thread rows. */
int live_tsum_read_sched(struct live *l, struct live_tsum *ts, int pid, struct live_tsum_thr *o,
			 struct live_tsum_thr *e, bool stat)
{
	struct live_tsum_thr *k = o ? o : e; /* where its files are kept */
	char buf[8192];
	long n;

	if (live_tsum_by_schedstat(l)) {
		int r = live_tsum_read_schedstat(l, ts, pid, k, e);

		if (r)
			return r;
		e->ran = !o || e->v[LIVE_TS_RUN] != o->v[LIVE_TS_RUN];
		return stat ? live_tsum_read_stat(l, pid, e) : 0;
	}
	/*
	 * One that did not run at its last read is asked first whether it ran
	 * since, by its schedstat (three numbers, not the sched file's thirty
	 * lines); one that ran then most likely runs again: read at once
	 */
	if (o && !o->ran && !stat && ts->keep && live_tsum_gate_ok(l)) {
		int r = live_tsum_idle_thr(l, ts, pid, o);

		/* gone; another error (a schedstat it may not read): its sched file says */
		if (r == -ESRCH || r == -ENOENT)
			return r;
		if (r > 0) {
			memcpy(e->v, o->v, sizeof(e->v));
			return 0;
		}
	}
	n = live_tsum_file(l, ts, pid, e->tid, "sched", &k->sfd, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	if (live_pfs_parse_sched(buf, &e->v[LIVE_TS_SW], &e->v[LIVE_TS_MIG], &e->v[LIVE_TS_RUN]))
		return -EINVAL;
	e->ran = !o || e->v[LIVE_TS_RUN] != o->v[LIVE_TS_RUN];
	return stat ? live_tsum_read_stat(l, pid, e) : 0;
}

static bool live_tsum_sched_ok(struct live *l)
{
	char buf[8192];
	uint64_t a, b, c;
	long n = live_pfs_read_file(l, "self/sched", buf, sizeof(buf));

	return n > 0 && !live_pfs_parse_sched(buf, &a, &b, &c);
}

bool live_tsum_switches_ok(struct live *l)
{
	return live_tsum_by_schedstat(l) || live_tsum_sched_ok(l);
}

/* voluntary + nonvoluntary switches of one status file; 0 or -errno. */
static int live_ctxsw_parse(const char *buf, uint64_t *n)
{
	const char *v = strstr(buf, "\nvoluntary_ctxt_switches:");
	const char *nv = strstr(buf, "\nnonvoluntary_ctxt_switches:");
	unsigned long long a, b;

	if (!v || !nv || sscanf(strchr(v, ':') + 1, "%llu", &a) != 1 ||
	    sscanf(strchr(nv, ':') + 1, "%llu", &b) != 1)
		return -EINVAL;
	*n = a + b;
	return 0;
}

/* One thread's switches from its status file. */
static int live_ctxsw_read(struct live *l, struct live_tsum *ts, int pid, struct live_tsum_thr *o,
			   struct live_tsum_thr *e, bool stat)
{
	char path[96], buf[4096];
	long got;

	(void)ts;
	(void)o;
	(void)stat;
	snprintf(path, sizeof(path), "%d/task/%d/status", pid, e->tid);
	got = proc_read_file(l->rootfd, path, buf, sizeof(buf) - 1);
	if (got <= 0)
		return got < 0 ? (int)got : -ESRCH;
	buf[got] = '\0';
	return live_ctxsw_parse(buf, &e->v[LIVE_TS_SW]);
}

/*
 * Without kernel-mode counting, a software context-switches event carries
 * kernel registers and is never counted: it reads 0. The kernel's own
 * per-task counts (task->nvcsw + nivcsw) are in /proc/PID/task/TID/status.
 */
void live_ctxsw_fill(struct live *l, int pid, struct live_tsum **tsp, uint64_t t_ns,
		     struct snap_count *c)
{
	struct live_tsum *ts;
	uint64_t clk, prev, lost;
	bool clock;
	int r;

	if (!*tsp)
		*tsp = xcalloc(1, sizeof(**tsp));
	ts = *tsp;
	/*
	 * schedstat or sched files where the kernel writes them: the same
	 * switches, and each thread's run time, which with the process clock tells a thread gone
	 * unseen (live_tsum_unseen); status files have no run time
	 */
	if (l->ctxsw_sched < 0)
		l->ctxsw_sched = live_tsum_switches_ok(l);
	clock = l->ctxsw_sched && !sysops_cpuclock(l->ops, pid, &clk);
	prev = ts->last_ns;
	lost = ts->lost_ns;
	r = live_tsum_update(l, ts, pid, t_ns,
			     l->ctxsw_sched ? live_tsum_read_sched : live_ctxsw_read, false, -1);
	if (r) {
		c->err = r;
		return;
	}
	if (clock)
		live_tsum_unseen(l, ts, pid, clk, prev, lost);
	live_tsum_count(ts, LIVE_TS_SW, c);
}

void live_ctxsw_free(struct live_tsum **ts)
{
	if (*ts)
		live_tsum_free(*ts);
	free(*ts);
	*ts = NULL;
}
