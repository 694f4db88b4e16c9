/* The event list: default groups and role lookup by canonical name. */
#include "config.h"
#include "stream/evlist.h"

#include <string.h>
#include <stdlib.h>

#include "util/xalloc.h"

static const struct {
	enum ev_role role;
	const char *name;
} EVLIST_ROLES[] = {
	{ EV_TASK_CLOCK, "task-clock" },
	{ EV_CYCLES, "cycles" },
	{ EV_INSTRUCTIONS, "instructions" },
	{ EV_CACHE_REFS, "cache-references" },
	{ EV_CACHE_MISSES, "cache-misses" },
	{ EV_L1D_LOADS, "L1-dcache-loads" },
	{ EV_L1D_MISSES, "L1-dcache-load-misses" },
	{ EV_DTLB_LOADS, "dTLB-loads" },
	{ EV_DTLB_MISSES, "dTLB-load-misses" },
	{ EV_BRANCHES, "branches" },
	{ EV_BRANCH_MISSES, "branch-misses" },
	{ EV_PAGE_FAULTS, "page-faults" },
	{ EV_CTX_SWITCHES, "context-switches" },
	{ EV_MIGRATIONS, "cpu-migrations" },
};

/*
 * Ratios are only sound between events of one group, so each pair that
 * forms a ratio is a group of its own; software events share one group.
 */
static const struct {
	const char *name;
	int group;
	bool hw;
} EVLIST_DEFAULTS[] = {
	{ "task-clock", 0, false },
	{ "page-faults", 0, false },
	{ "context-switches", 0, false },
	{ "cpu-migrations", 0, false },
	{ "cycles", 1, true },
	{ "instructions", 1, true },
	{ "cache-references", 2, true },
	{ "cache-misses", 2, true },
	{ "L1-dcache-loads", 3, true },
	{ "L1-dcache-load-misses", 3, true },
	{ "dTLB-loads", 4, true },
	{ "dTLB-load-misses", 4, true },
	{ "branches", 5, true },
	{ "branch-misses", 5, true },
};

void evlist_init(struct evlist *l)
{
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < EV_ROLE_MAX; i++)
		l->role_idx[i] = -1;
}

void evlist_release(struct evlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ev[i].name);
	free(l->ev);
	evlist_init(l);
}

enum ev_role evlist_role_of(const char *name)
{
	for (size_t i = 0; i < sizeof(EVLIST_ROLES) / sizeof(EVLIST_ROLES[0]); i++)
		if (!strcmp(EVLIST_ROLES[i].name, name))
			return EVLIST_ROLES[i].role;
	return EV_RAW;
}

const char *evlist_role_name(enum ev_role role)
{
	for (size_t i = 0; i < sizeof(EVLIST_ROLES) / sizeof(EVLIST_ROLES[0]); i++)
		if (EVLIST_ROLES[i].role == role)
			return EVLIST_ROLES[i].name;
	return NULL;
}

int evlist_add(struct evlist *l, const char *name, int group, bool hw, bool user)
{
	struct ev *e;
	enum ev_role role = evlist_role_of(name);

	l->ev = xgrow(l->ev, &l->cap, l->n + 1, sizeof(*l->ev));
	e = &l->ev[l->n];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->group = group;
	e->role = role;
	e->hw = hw;
	e->user = user;
	if (role != EV_RAW && l->role_idx[role] < 0)
		l->role_idx[role] = (int)l->n;
	if (group >= l->ngroups)
		l->ngroups = group + 1;
	return (int)l->n++;
}

int evlist_find(const struct evlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->ev[i].name, name))
			return (int)i;
	return -1;
}

void evlist_add_defaults(struct evlist *l, bool with_hw)
{
	int base = l->ngroups;

	for (size_t i = 0; i < sizeof(EVLIST_DEFAULTS) / sizeof(EVLIST_DEFAULTS[0]); i++) {
		if (EVLIST_DEFAULTS[i].hw && !with_hw)
			continue;
		evlist_add(l, EVLIST_DEFAULTS[i].name, base + EVLIST_DEFAULTS[i].group,
			   EVLIST_DEFAULTS[i].hw, false);
	}
	/* group numbers must stay dense when the hardware groups are left out */
	l->ngroups = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].group >= l->ngroups)
			l->ngroups = l->ev[i].group + 1;
}

bool evlist_has(const struct evlist *l, enum ev_role r)
{
	int i = l->role_idx[r];

	return i >= 0 && l->ev[i].err == 0;
}

bool evlist_any_hw(const struct evlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].hw && !l->ev[i].err)
			return true;
	return false;
}

void evlist_copy(struct evlist *dst, const struct evlist *src)
{
	evlist_release(dst);
	for (size_t i = 0; i < src->n; i++) {
		int k = evlist_add(dst, src->ev[i].name, src->ev[i].group, src->ev[i].hw,
				   src->ev[i].user);
		dst->ev[k].err = src->ev[i].err;
	}
	dst->ngroups = src->ngroups;
}
