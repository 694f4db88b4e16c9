/* perf_event_open groups: open complete before enabling, read with one read(). */
#include "config.h"
#include "kernel/counters.h"

#include <errno.h>
#include <string.h>

#define COUNTERS_FMT                                                                               \
	(PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

size_t counters_group_size(int nr)
{
	return (3 + 2 * (size_t)nr) * sizeof(uint64_t);
}

void counters_close_group(struct counters_group *g)
{
	const struct sysops *ops = sysops_or_real(g->ops);

	/* members first: closing the leader first would orphan them briefly */
	for (int i = g->nr - 1; i >= 0; i--)
		if (g->fd[i] >= 0)
			ops->close(ops->ctx, g->fd[i]);
	g->nr = 0;
}

static int counters_try_open(struct counters_group *g, const struct perf_event_attr *const *attrs,
			     const int *ev, int nr, int pid, int cpu, unsigned flags, bool grouped,
			     int *bad)
{
	for (int i = 0; i < nr; i++) {
		struct perf_event_attr a = *attrs[i];
		int fd, r;

		a.size = sizeof(a);
		a.read_format = COUNTERS_FMT | (grouped ? PERF_FORMAT_GROUP : 0);
		a.disabled = i == 0;
		a.inherit = (flags & COUNTERS_INHERIT) ? 1 : 0;
		perf_compat_set_inherit_thread(&a,
					       a.inherit && !(flags & COUNTERS_NO_INHERIT_THREAD));
		/* only a leader can be pinned: the group stays on the PMU or goes to error */
		a.pinned = (flags & COUNTERS_PINNED) && i == 0;
		fd = sysops_perf_open_flags(g->ops, &a, pid, cpu, i == 0 ? -1 : g->fd[0],
					    (flags & COUNTERS_CGROUP) ? PERF_FLAG_PID_CGROUP : 0);
		if (fd < 0) {
			*bad = i;
			counters_close_group(g);
			return fd;
		}
		g->fd[i] = fd;
		g->ev[i] = ev[i];
		g->nr = i + 1;
		r = g->ops->ioctl(g->ops->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)&g->id[i]);
		if (r < 0) {
			*bad = i;
			counters_close_group(g);
			return r;
		}
	}
	return 0;
}

static int counters_read_fd(const struct counters_group *g, int fd, void *buf, size_t size,
			    size_t *got);

/* Read the group once, values unused: 0 or -errno. */
static int counters_read_check(const struct counters_group *g)
{
	uint64_t buf[3 + 2 * COUNTERS_MAX_GROUP];
	size_t got;
	int r = 0;

	if (!g->single)
		return counters_read_fd(g, g->fd[0], buf, counters_group_size(g->nr), &got);
	for (int i = 0; i < g->nr && !r; i++)
		r = counters_read_fd(g, g->fd[i], buf, 4 * sizeof(uint64_t), &got);
	return r;
}

static int counters_build(struct counters_group *g, const struct perf_event_attr *const *attrs,
			  const int *ev, int nr, int pid, int cpu, unsigned flags, int *bad)
{
	int r;

	r = counters_try_open(g, attrs, ev, nr, pid, cpu, flags, true, bad);
	if (r == -EINVAL && (flags & COUNTERS_INHERIT)) {
		/* kernels before inherit+GROUP support: read members one by one */
		r = counters_try_open(g, attrs, ev, nr, pid, cpu, flags, false, bad);
		g->single = r == 0;
	}
	if (r)
		return r;
	r = g->ops->ioctl(g->ops->ctx, g->fd[0], PERF_EVENT_IOC_ENABLE, 0);
	if (r < 0) {
		counters_close_group(g);
		return r;
	}
	return 0;
}

int counters_open_group(struct counters_group *g, const struct sysops *ops,
			const struct perf_event_attr *const *attrs, const int *ev, int nr, int pid,
			int cpu, unsigned flags, int *bad)
{
	int r;

	memset(g, 0, sizeof(*g));
	g->ops = sysops_or_real(ops);
	*bad = 0;
	if (nr <= 0 || nr > COUNTERS_MAX_GROUP)
		return -EINVAL;
	for (int tries = 0;; tries++) {
		r = counters_build(g, attrs, ev, nr, pid, cpu, flags, bad);
		if (r || !(flags & COUNTERS_INHERIT))
			return r;
		/*
		 * A thread cloned while the group was being built leaves it
		 * unreadable (ECHILD, since the CVE-2023-5717 fix): build it again.
		 */
		if (counters_read_check(g) != -ECHILD || tries + 1 >= COUNTERS_ECHILD_TRIES)
			return 0;
		counters_close_group(g);
		g->ops = sysops_or_real(ops);
	}
}

int counters_parse_group(const void *buf, size_t len, const struct counters_group *g,
			 struct snap_count *out)
{
	uint64_t hdr[3];
	const unsigned char *p = buf;

	if (len < sizeof(hdr))
		return -EINVAL;
	memcpy(hdr, p, sizeof(hdr));
	if (hdr[0] != (uint64_t)g->nr || len < counters_group_size(g->nr))
		return -EINVAL;
	for (int i = 0; i < g->nr; i++) {
		uint64_t pair[2];
		int m = -1;

		memcpy(pair, p + sizeof(hdr) + (size_t)i * sizeof(pair), sizeof(pair));
		for (int k = 0; k < g->nr; k++)
			if (g->id[k] == pair[1]) {
				m = k;
				break;
			}
		if (m < 0)
			return -EINVAL;
		out[g->ev[m]].value = pair[0];
		out[g->ev[m]].enabled = hdr[1];
		out[g->ev[m]].running = hdr[2];
		out[g->ev[m]].err = 0;
	}
	return 0;
}

int counters_parse_single(const void *buf, size_t len, const struct counters_group *g, int i,
			  struct snap_count *out)
{
	uint64_t v[4];

	if (len < sizeof(v) || i < 0 || i >= g->nr)
		return -EINVAL;
	memcpy(v, buf, sizeof(v));
	if (v[3] != g->id[i])
		return -EINVAL;
	out[g->ev[i]].value = v[0];
	out[g->ev[i]].enabled = v[1];
	out[g->ev[i]].running = v[2];
	out[g->ev[i]].err = 0;
	return 0;
}

static int counters_read_fd(const struct counters_group *g, int fd, void *buf, size_t size,
			    size_t *got)
{
	long r = sysops_read(sysops_or_real(g->ops), fd, buf, size);

	if (r < 0)
		return (int)r;
	if (r == 0)
		return -ENODATA;
	*got = (size_t)r;
	return 0;
}

int counters_read_group(const struct counters_group *g, struct snap_count *out)
{
	uint64_t buf[3 + 2 * COUNTERS_MAX_GROUP];
	size_t got = 0;
	int r;

	if (g->nr <= 0)
		return -EBADF;
	if (g->single) {
		for (int i = 0; i < g->nr; i++) {
			r = counters_read_fd(g, g->fd[i], buf, 4 * sizeof(uint64_t), &got);
			if (!r)
				r = counters_parse_single(buf, got, g, i, out);
			if (r)
				return r;
		}
		return 0;
	}
	r = counters_read_fd(g, g->fd[0], buf, counters_group_size(g->nr), &got);
	if (r)
		return r;
	return counters_parse_group(buf, got, g, out);
}

bool counters_attr_same(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config && a->config1 == b->config1 &&
	       a->config2 == b->config2 && a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel && a->exclude_hv == b->exclude_hv &&
	       a->exclude_idle == b->exclude_idle && a->exclude_host == b->exclude_host &&
	       a->exclude_guest == b->exclude_guest && a->precise_ip == b->precise_ip;
}
