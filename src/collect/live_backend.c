/* Live source, the table of ways to count processes, and the choice of one. */
#include "config.h"
#include "collect/live_backend.h"

#include <stddef.h>

#include "collect/live.h"
#include "util/errmsg.h"

/*
 * Asked in this order, each at its stage; a new way of counting is a file
 * and a line here. BPF first where it is permitted and loads: it counts
 * every event (hardware too) and costs the watched processes least; then
 * /proc where it keeps every event; the last needs nothing and counts when
 * no other does.
 */
static const struct live_backend *const LIVE_BACKENDS[] = {
	&LIVE_BE_BPF,
	&LIVE_BE_PROCFS,
	&LIVE_BE_TASKS,
};

#define LIVE_NBACKENDS (sizeof(LIVE_BACKENDS) / sizeof(LIVE_BACKENDS[0]))

void live_backend_default(struct live *l)
{
	l->be = LIVE_BACKENDS[LIVE_NBACKENDS - 1];
}

/* Tell why the backends before the one chosen do not count, each with what does. */
static void live_backend_tell(struct live *l)
{
	for (size_t i = 0; i < l->nbe_declined; i++) {
		struct fact f = l->be_declined[i];

		f.way.instead = l->be->counts;
		live_tell(l, &f);
	}
	l->nbe_declined = 0;
}

/* Offer the counting to the backends of stage when, in order, until one takes it. */
static int live_backend_pick(struct live *l, enum live_be_when when, struct fact *why)
{
	for (size_t i = 0; i < LIVE_NBACKENDS - 1; i++) {
		const struct live_backend *b = LIVE_BACKENDS[i];
		int r;

		if (l->be != LIVE_BACKENDS[LIVE_NBACKENDS - 1])
			return 0; /* chosen at an earlier stage */
		if (b->when != when || !b->init)
			continue;
		r = b->init(l, why);
		if (r < 0)
			return r;
		if (r > 0)
			l->be = b;
	}
	return 0;
}

int live_backend_choose(struct live *l, enum live_be_when when, struct fact *why)
{
	int r = live_backend_pick(l, when, why);

	/* told when the choice is made: a later stage's backend may still count */
	if (!r && (l->be != LIVE_BACKENDS[LIVE_NBACKENDS - 1] || when == LIVE_BE_AT_OPEN))
		live_backend_tell(l);
	return r;
}
