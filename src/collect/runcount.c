/* Counts of a command's whole run: one inherited counter per event, enabled at its exec. */
#include "config.h"
#include "collect/runcount.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/evspec.h"
#include "util/xalloc.h"

struct runcount {
	const struct sysops *ops; /* borrowed */
	size_t n;
	int *fd;  /* -1 when not counted */
	int *err; /* why not */
};

struct runcount *runcount_new(const struct sysops *ops, const struct evlist *ev, int pid)
{
	struct runcount *c = xcalloc(1, sizeof(*c));

	c->ops = sysops_or_real(ops);
	ops = c->ops;
	c->n = ev->n;
	c->fd = xmalloc((ev->n ? ev->n : 1) * sizeof(*c->fd));
	c->err = xcalloc(ev->n ? ev->n : 1, sizeof(*c->err));
	for (size_t i = 0; i < ev->n; i++) {
		struct perf_event_attr a;
		enum evspec_kind kind;
		bool hw = false;
		int r;

		c->fd[i] = -1;
		if (ev->ev[i].err) {
			c->err[i] = ev->ev[i].err;
			continue;
		}
		r = evspec_encode(ops, NULL, ev->ev[i].name, true, &a, &kind, &hw);
		if (r) {
			c->err[i] = r;
			continue;
		}
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.inherit = 1;
		a.disabled = 1;
		a.enable_on_exec = 1;
		r = sysops_perf_open(ops, &a, pid, -1, -1);
		if (r == -EACCES || r == -EPERM) {
			/* unprivileged, as perf stat: the user's own mode only */
			a.exclude_kernel = 1;
			a.exclude_hv = 1;
			r = sysops_perf_open(ops, &a, pid, -1, -1);
		}
		if (r < 0)
			c->err[i] = r;
		else
			c->fd[i] = r;
	}
	return c;
}

int runcount_read(const struct runcount *c, struct snap_count *out, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t buf[3];
		long r;

		memset(&out[i], 0, sizeof(out[i]));
		if (i >= c->n || c->fd[i] < 0) {
			out[i].err = i < c->n ? c->err[i] : -ENOENT;
			continue;
		}
		r = sysops_read(c->ops, c->fd[i], buf, sizeof(buf));
		if (r != (long)sizeof(buf)) {
			out[i].err = r < 0 ? (int)r : -EIO;
			if (!ret)
				ret = out[i].err;
			continue;
		}
		out[i].value = buf[0];
		out[i].enabled = buf[1];
		out[i].running = buf[2];
	}
	return ret;
}

void runcount_free(struct runcount *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	free(c->fd);
	free(c->err);
	free(c);
}
