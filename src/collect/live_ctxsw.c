/* Live source, per-thread counts from /proc summed by process (switches, migrations, faults). */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * The kernel keeps some counts per thread only (/proc/PID/status shows the
 * thread-group leader's switches alone, fs/proc/array.c), so a process's are
 * the sum over its threads' files. Each thread's last read is kept by tid and
 * the sum grows by each thread's change. The counts of a thread that exits go
 * with it: an interval in which one exited is not exact, and is given as not
 * running (running < enabled), never as an exact count.
 */

int live_tsum_update(struct live *l, struct live_tsum *ts, int pid, uint64_t t_ns,
		     live_tsum_read rd, bool stat)
{
	struct live_tsum_thr *next;
	char path[64];
	long n;
	size_t nn = 0, old = 0, ng = 0;
	bool first = !ts->read, exact = true;

	if (first)
		ts->t0 = ts->last_ns = t_ns;
	snprintf(path, sizeof(path), "%d/task", pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	ts->ngone = 0;
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		struct live_tsum_thr *e = &next[nn], *o = NULL;
		bool fell = false;

		/* the slot of a thread whose read failed is used again: nothing of it stays */
		memset(e, 0, sizeof(*e));
		e->tid = l->tids[i];
		int r = rd(l, pid, e, stat);

		if (r == -ENOENT || r == -ESRCH)
			continue; /* exited between the listing and the read */
		if (r) {
			/* a thread that cannot be read (EACCES): no sum that leaves it out */
			free(next);
			return r;
		}
		while (old < ts->nthr && ts->thr[old].tid < e->tid) {
			exact = false; /* gone, with its last counts */
			ts->thr[old].state = 'X';
			ts->gone = xgrow(ts->gone, &ts->gonecap, ng + 1, sizeof(*ts->gone));
			ts->gone[ng++] = ts->thr[old++];
		}
		if (old < ts->nthr && ts->thr[old].tid == e->tid)
			o = &ts->thr[old++];
		for (int k = 0; o && k < LIVE_TS_MAX; k++)
			fell |= (k < LIVE_TS_MINFLT || (stat && o->stat)) && e->v[k] < o->v[k];
		if (o && fell) {
			/* a tid reused by a new thread: the old one exited, the new one counts from 0 */
			exact = false;
			o = NULL;
			memset(e->v0, 0, sizeof(e->v0));
			for (int k = 0; k < LIVE_TS_MAX; k++)
				ts->sum[k] += e->v[k];
		} else if (o) {
			for (int k = 0; k < LIVE_TS_MAX; k++) {
				bool known = k < LIVE_TS_MINFLT || o->stat;

				/* faults first read now (thread rows asked for later): they count from here */
				e->v0[k] = known ? o->v0[k] : e->v[k];
				ts->sum[k] += known ? e->v[k] - o->v[k] : 0;
			}
		} else if (first) {
			memcpy(e->v0, e->v, sizeof(e->v0));
		} else {
			/* created since the last read: all it did is new */
			for (int k = 0; k < LIVE_TS_MAX; k++)
				ts->sum[k] += e->v[k];
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
		ts->thr[old].state = 'X';
		ts->gone = xgrow(ts->gone, &ts->gonecap, ng + 1, sizeof(*ts->gone));
		ts->gone[ng++] = ts->thr[old++];
	}
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

void live_tsum_count(const struct live_tsum *ts, int k, struct snap_count *c)
{
	c->value = ts->sum[k];
	c->enabled = ts->last_ns - ts->t0;
	c->running = c->enabled - (ts->lost_ns < c->enabled ? ts->lost_ns : c->enabled);
	c->err = 0;
}

void live_tsum_free(struct live_tsum *ts)
{
	free(ts->thr);
	free(ts->gone);
	memset(ts, 0, sizeof(*ts));
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
static int live_ctxsw_read(struct live *l, int pid, struct live_tsum_thr *e, bool stat)
{
	char path[96], buf[4096];
	long got;

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
void live_ctxsw_fill(struct live *l, struct live_proc *p, uint64_t t_ns, struct snap_count *c)
{
	int r;

	if (!p->ctxsw)
		p->ctxsw = xcalloc(1, sizeof(*p->ctxsw));
	r = live_tsum_update(l, p->ctxsw, p->pid, t_ns, live_ctxsw_read, false);
	if (r) {
		c->err = r;
		return;
	}
	live_tsum_count(p->ctxsw, LIVE_TS_SW, c);
}

void live_ctxsw_free(struct live_proc *p)
{
	if (p->ctxsw)
		live_tsum_free(p->ctxsw);
	free(p->ctxsw);
	p->ctxsw = NULL;
}
