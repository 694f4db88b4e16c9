/* Common part of every snapshot source. */
#include "config.h"
#include "source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

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

int source_read(struct source *s, struct snapshot *snap)
{
	return s->ops->read(s, snap);
}

void source_threads(struct source *s, int pid, bool all)
{
	if (s->ops->threads)
		s->ops->threads(s, pid, all);
}

void source_free(struct source *s)
{
	if (s)
		s->ops->free(s);
}
