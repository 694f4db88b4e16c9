/* Common part of every snapshot source. */
#include "config.h"
#include "stream/source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "util/textsafe.h"

int sample_kind_parse(const char *s, enum sample_kind *k)
{
	static const char *const NAMES[] = { "auto", "pebs", "ibs", "faults" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, NAMES[i])) {
			*k = (enum sample_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *sample_kind_name(enum sample_kind k)
{
	switch (k) {
	case SAMPLE_PEBS:
		return "Intel PEBS";
	case SAMPLE_IBS:
		return "AMD IBS";
	case SAMPLE_FAULTS:
		return "page faults";
	default:
		return "auto";
	}
}

const char *sample_kind_meaning(enum sample_kind k)
{
	switch (k) {
	case SAMPLE_PEBS:
		return "sampled loads and stores with their data addresses";
	case SAMPLE_IBS:
		return "sampled micro-ops with their data addresses";
	case SAMPLE_FAULTS:
		return "first touches, copy-on-write and refaults, not access frequency";
	default:
		return "";
	}
}

void source_init(struct source *s, const struct source_ops *ops)
{
	memset(s, 0, sizeof(*s));
	s->ops = ops;
	evlist_init(&s->ev);
}

void source_release(struct source *s)
{
	for (size_t i = 0; i < s->nmsgs; i++)
		free(s->msgs[i]);
	free(s->msgs);
	evlist_release(&s->ev);
}

void source_message(struct source *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->msgs = xgrow(s->msgs, &s->msgcap, s->nmsgs + 1, sizeof(*s->msgs));
	s->msgs[s->nmsgs++] = xstrdup(buf);
}

char **source_take_messages(struct source *s, size_t *n)
{
	char **m = s->msgs;

	*n = s->nmsgs;
	s->msgs = NULL;
	s->nmsgs = 0;
	s->msgcap = 0;
	return m;
}

void source_print_messages(struct source *s, FILE *f)
{
	size_t n;
	char **m = source_take_messages(s, &n);

	for (size_t i = 0; i < n; i++) {
		textsafe_fprintf(f, "pmctop: %s\n", m[i]);
		free(m[i]);
	}
	free(m);
	fflush(f);
}

void source_move_messages(struct source *to, struct source *from)
{
	size_t n;
	char **m = source_take_messages(from, &n);

	for (size_t i = 0; i < n; i++) {
		to->msgs = xgrow(to->msgs, &to->msgcap, to->nmsgs + 1, sizeof(*to->msgs));
		to->msgs[to->nmsgs++] = m[i];
	}
	free(m);
}

int source_read(struct source *s, struct snapshot *snap)
{
	int r;

	s->err[0] = '\0';
	r = s->ops->read(s, snap);
	if (r < 0 && !s->err[0])
		snprintf(s->err, sizeof(s->err), "reading the counters failed: %s", strerror(-r));
	if (r == 0) {
		if (!snap->host[0])
			memcpy(snap->host, s->host, sizeof(snap->host));
		if (!snap->kernel[0])
			memcpy(snap->kernel, s->kernel, sizeof(snap->kernel));
	}
	return r;
}

const char *source_error(const struct source *s)
{
	return s->err;
}

unsigned source_caps(const struct source *s)
{
	return s->caps;
}

void source_threads(struct source *s, int pid, bool all)
{
	if (s->ops->threads)
		s->ops->threads(s, pid, all);
}

int source_seek(struct source *s, size_t tick)
{
	int r;

	if (!(s->caps & SOURCE_CAP_SEEK) || !s->ops->seek)
		return -ESPIPE;
	s->err[0] = '\0';
	r = s->ops->seek(s, tick);
	if (r < 0 && r != -ERANGE && !s->err[0])
		snprintf(s->err, sizeof(s->err), "cannot go to tick %zu: %s", tick, strerror(-r));
	return r;
}

int source_tick_time(struct source *s, size_t tick, uint64_t *t_ns, double *wall)
{
	if (!(s->caps & SOURCE_CAP_SEEK) || !s->ops->tick_time)
		return -ESPIPE;
	return s->ops->tick_time(s, tick, t_ns, wall);
}

void source_kernel_threads(struct source *s, bool on)
{
	if (s->ops->kernel_threads)
		s->ops->kernel_threads(s, on);
}

void source_extras(struct source *s, unsigned extras)
{
	if (s->ops->extras)
		s->ops->extras(s, extras);
}

void source_free(struct source *s)
{
	if (s)
		s->ops->free(s);
}

int source_sample(struct source *s, int pid, const struct sample_req *req, char *err,
		  size_t errsize)
{
	if (!s->ops->sample) {
		snprintf(err, errsize, "this source cannot sample");
		return -EOPNOTSUPP;
	}
	return s->ops->sample(s, pid, req, err, errsize);
}

size_t source_poll_fds(struct source *s, int *fds, size_t max)
{
	return s->ops->poll_fds ? s->ops->poll_fds(s, fds, max) : 0;
}

void source_wake(struct source *s, int fd, bool hup)
{
	if (s->ops->wake)
		s->ops->wake(s, fd, hup);
}
