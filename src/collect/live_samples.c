/* Live source, samples: data-address sampling of one process, drained into snapshots. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/* The number (1 + index) of the pending copy of area a, made now if needs be; 0 when full. */
static uint32_t live_area(struct live *l, const struct mem_area *a)
{
	struct mem_area *x;

	if (!a)
		return 0;
	for (size_t k = 0; k <= l->npareas; k++) {
		/* the one named last first, then the others in order */
		size_t i = k == 0 ? l->last_area : k;

		if (!i)
			continue;
		x = &l->pareas[i - 1];
		if (x->start == a->start && x->end == a->end && x->pgoff == a->pgoff &&
		    !strcmp(x->name, a->name)) {
			l->last_area = i;
			return (uint32_t)i;
		}
	}
	if (l->npareas >= LIVE_MAX_AREAS)
		return 0;
	l->pareas = xgrow(l->pareas, &l->pacap, l->npareas + 1, sizeof(*l->pareas));
	x = &l->pareas[l->npareas++];
	*x = *a;
	x->name = xstrdup(a->name);
	l->last_area = l->npareas;
	return (uint32_t)l->npareas;
}

static void live_forget_areas(struct live *l)
{
	for (size_t i = 0; i < l->npareas; i++)
		free(l->pareas[i].name);
	l->npareas = 0;
	l->last_area = 0;
}

static void live_take_sample(const struct perfrec_sample *r, void *arg)
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
	x->period = r->period ? r->period : 1;
	x->area = live_area(l, r->area);
	x->page_node = 0;
	x->cpu_node = 0;
}

static uint64_t live_hash(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

/*
 * Where the pending samples' pages live, asked once a tick for the pages
 * sampled in it, and the node of the CPU of each; said once per sampling.
 */
static void live_locate_samples(struct live *l, struct snapshot *snap)
{
	char msg[300];
	int r = l->numa_err;

	if (!r && l->npend) {
		r = numa_locate(&l->numa, l->ops, l->smp_pid, (uint64_t)sysconf(_SC_PAGESIZE),
				l->pend, l->npend);
		/* the process going away is no fact about NUMA */
		if (r == -ESRCH)
			r = 0;
		if (r == -ENOSYS)
			l->numa_err = r;
	}
	if (l->numa_err)
		snap->smp.flags |= SNAP_SMP_NO_NUMA;
	if (l->numa_told || (!r && !l->npend))
		return;
	l->numa_told = true;
	source_message(&l->base, "%s",
		       errmsg_numa(msg, sizeof(msg), l->smp_pid, r, l->numa.nodes, l->numa.first));
}

/* Move the drained samples and, when they changed, the mappings into snap. */
void live_fill_samples(struct live *l, struct snapshot *snap)
{
	const struct perfrec_stats *st;
	char path[64];
	long n;

	if (!l->smp)
		return;
	sampler_drain(l->smp, live_take_sample, l);
	st = sampler_stats(l->smp);
	snap->smp.pid = l->smp_pid;
	snprintf(snap->smp.source, sizeof(snap->smp.source), "%s",
		 sample_kind_name(sampler_kind(l->smp)));
	snap->smp.period =
		sampler_adapt(l->smp, l->smp_last_t && snap->t_ns > l->smp_last_t
					      ? (double)(snap->t_ns - l->smp_last_t) / 1e9
					      : 0);
	l->smp_last_t = snap->t_ns;
	snap->smp.flags = sampler_flags(l->smp);
	snap->smp.nonmem = sampler_nonmem(l->smp);
	snap->smp.lost = sampler_lost(l->smp) + l->dropped;
	snap->smp.throttled = st->throttled;
	live_locate_samples(l, snap);
	if (l->npend) {
		uint32_t base = (uint32_t)snap->smp.nareas;

		for (size_t i = 0; i < l->npareas; i++)
			snapshot_add_area(snap, &l->pareas[i]);
		for (size_t i = 0; i < l->npend; i++) {
			struct snap_sample *x = snapshot_add_sample(snap);

			*x = l->pend[i];
			if (x->area)
				x->area += base;
		}
	}
	l->npend = 0;
	live_forget_areas(l);
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

/*
 * Sampling and counting share one descriptor budget: what sampling may
 * take is what counting has left, and what it takes counts as open, so
 * counting sees the room shrink. Never 0, which would mean no limit.
 */
static size_t live_sample_fds_left(const struct live *l)
{
	return l->fd_budget > l->fds_open ? l->fd_budget - l->fds_open : 1;
}

static void live_sample_stop(struct live *l)
{
	if (l->smp)
		l->fds_open -= sampler_nfds(l->smp);
	sampler_close(l->smp);
	l->smp = NULL;
}

int live_sample(struct source *s, int pid, const struct sample_req *req, char *err, size_t errsize)
{
	struct live *l = (struct live *)s;
	struct sampler_req sr = { req->kind,
				  req->period,
				  l->o.sysfs_root,
				  l->kernel,
				  l->ops,
				  0,
				  l->cflags & COUNTERS_NO_INHERIT_THREAD,
				  l->no_format_lost,
				  0 };
	struct fact_notes notes;
	struct fact why;
	char msg[1600];
	int r;

	if (l->smp && pid == l->smp_pid && req->kind == SAMPLE_AUTO && !req->period)
		return 0;
	live_sample_stop(l);
	l->smp_pid = 0;
	l->npend = 0;
	live_forget_areas(l);
	l->dropped = 0;
	l->maps_hash = 0;
	l->smp_last_t = 0;
	numa_release(&l->numa);
	l->numa_err = 0;
	l->numa_told = false;
	if (!pid)
		return 0;
	l->numa_err = numa_load(&l->numa, l->ops, l->o.sysfs_root);
	sr.max_fds = live_sample_fds_left(l);
	r = sampler_open(&l->smp, l->rootfd, pid, &sr, &notes, &why);
	if (r) {
		why.paranoid = l->paranoid;
		fact_sample_error(err, errsize, &why, &notes);
		return r;
	}
	l->fds_open += sampler_nfds(l->smp);
	l->smp_pid = pid;
	source_message(s, "%s",
		       fact_sampling(msg, sizeof(msg), pid, sample_kind_name(sampler_kind(l->smp)),
				     sample_kind_meaning(sampler_kind(l->smp)), &notes));
	return 0;
}

size_t live_poll_fds(struct source *s, int *fds, size_t max)
{
	struct live *l = (struct live *)s;

	return l->smp ? sampler_poll_fds(l->smp, fds, max) : 0;
}

void live_wake(struct source *s, int fd, bool hup)
{
	struct live *l = (struct live *)s;

	if (!l->smp)
		return;
	/* drain the ring that fired (a hangup comes without POLLIN: drain it too) */
	sampler_drain(l->smp, live_take_sample, l);
	if (hup)
		sampler_hangup(l->smp, fd);
}

void live_samples_free(struct live *l)
{
	live_sample_stop(l);
	free(l->pend);
	live_forget_areas(l);
	free(l->pareas);
	free(l->mapsbuf);
	numa_release(&l->numa);
}
