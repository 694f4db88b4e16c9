/* Live source, context switches from /proc where perf cannot count them (user mode only). */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Without kernel-mode counting, a software context-switches event carries
 * kernel registers and is never counted: it reads 0. The kernel's own
 * per-task counts (task->nvcsw + nivcsw) are in /proc/PID/task/TID/status;
 * /proc/PID/status shows the thread-group leader's alone (fs/proc/array.c),
 * so the threads are summed. The counts of a thread that exits go with it:
 * an interval in which one exited is not exact, and is given as not running.
 */
struct live_ctxsw_thr {
	int tid;
	uint64_t n;
};

struct live_ctxsw {
	uint64_t t0;	  /* ns of the first read */
	uint64_t sum;	  /* switches counted since */
	uint64_t lost_ns; /* intervals in which a thread exited */
	uint64_t last_ns;
	size_t nthr;
	struct live_ctxsw_thr *thr; /* sorted by tid */
};

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

void live_ctxsw_fill(struct live *l, struct live_proc *p, uint64_t t_ns, struct snap_count *c)
{
	struct live_ctxsw *cs = p->ctxsw;
	struct live_ctxsw_thr *next;
	char path[96], buf[4096];
	long n;
	size_t nn = 0, old = 0;
	bool first = !cs, exact = true;

	if (!cs) {
		cs = p->ctxsw = xcalloc(1, sizeof(*cs));
		cs->t0 = cs->last_ns = t_ns;
	}
	snprintf(path, sizeof(path), "%d/task", p->pid);
	n = proc_list_ids(l->rootfd, path, &l->tids, &l->tidcap);
	if (n < 0) {
		c->err = (int)n;
		return;
	}
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		int tid = l->tids[i];
		long got;
		uint64_t v;

		snprintf(path, sizeof(path), "%d/task/%d/status", p->pid, tid);
		got = proc_read_file(l->rootfd, path, buf, sizeof(buf) - 1);
		if (got <= 0)
			continue; /* exited between the listing and the read */
		buf[got] = '\0';
		if (live_ctxsw_parse(buf, &v))
			continue;
		while (old < cs->nthr && cs->thr[old].tid < tid)
			old++, exact = false; /* gone, with its last switches */
		if (old < cs->nthr && cs->thr[old].tid == tid) {
			/* a tid reused within one interval starts lower: count it from 0 */
			cs->sum += v >= cs->thr[old].n ? v - cs->thr[old].n : v;
			old++;
		} else if (!first) {
			cs->sum += v; /* created since the last read */
		}
		next[nn].tid = tid;
		next[nn++].n = v;
	}
	if (old < cs->nthr)
		exact = false;
	free(cs->thr);
	cs->thr = next;
	cs->nthr = nn;
	if (!exact && t_ns > cs->last_ns)
		cs->lost_ns += t_ns - cs->last_ns;
	cs->last_ns = t_ns;
	c->value = cs->sum;
	c->enabled = t_ns - cs->t0;
	c->running = c->enabled - cs->lost_ns;
	c->err = 0;
}

void live_ctxsw_free(struct live_proc *p)
{
	if (p->ctxsw)
		free(p->ctxsw->thr);
	free(p->ctxsw);
	p->ctxsw = NULL;
}
