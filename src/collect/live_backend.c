/* Live source, the table of ways to count processes, and the choice of one. */
#include "config.h"
#include "collect/live_backend.h"

#include <stddef.h>

#include "collect/live.h"

/*
 * Asked in this order, each at its stage; a new way of counting is a file
 * and a line here. The last needs nothing and counts when no other does.
 */
static const struct live_backend *const LIVE_BACKENDS[] = {
	&LIVE_BE_PROCFS,
	&LIVE_BE_BPF,
	&LIVE_BE_TASKS,
};

#define LIVE_NBACKENDS (sizeof(LIVE_BACKENDS) / sizeof(LIVE_BACKENDS[0]))

void live_backend_default(struct live *l)
{
	l->be = LIVE_BACKENDS[LIVE_NBACKENDS - 1];
}

int live_backend_choose(struct live *l, enum live_be_when when, struct errmsg_fact *why)
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
