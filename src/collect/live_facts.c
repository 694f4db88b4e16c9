/* Live source, facts: what collection tells, kept for recordings and queued as messages. */
#include "config.h"
#include "collect/live.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void live_tell(struct live *l, const struct fact *f)
{
	char msg[1024];

	/* CPUs going on and off line can tell facts all run long: keep the latest */
	if (l->nfacts == LIVE_MAX_FACTS)
		memmove(l->facts, l->facts + 1, --l->nfacts * sizeof(*l->facts));
	l->facts = xgrow(l->facts, &l->factcap, l->nfacts + 1, sizeof(*l->facts));
	l->facts[l->nfacts++] = *f;
	source_message(&l->base, "%s", fact_text(msg, sizeof(msg), f));
}

void live_tell_err(struct live *l, enum fact_what what, int err, const char *name)
{
	struct fact f;

	live_tell(l, fact_set(&f, what, err, name, l->paranoid));
}

void live_facts_free(struct live *l)
{
	free(l->facts);
	l->facts = NULL;
	l->nfacts = l->factcap = 0;
}

void live_backend_declined(struct live *l, const struct fact *f)
{
	if (l->nbe_declined < LIVE_BE_DECLINED)
		l->be_declined[l->nbe_declined++] = *f;
}
