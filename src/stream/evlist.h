/* The list of events pmctop counts: names, groups and the metric role each plays. */
#ifndef PMCTOP_EVLIST_H
#define PMCTOP_EVLIST_H

#include <stdbool.h>
#include <stddef.h>

/* What an event is used for; EV_RAW events are shown as plain counts. */
enum ev_role {
	EV_RAW = 0,
	EV_TASK_CLOCK,
	EV_CYCLES,
	EV_INSTRUCTIONS,
	EV_CACHE_REFS,
	EV_CACHE_MISSES,
	EV_L1D_LOADS,
	EV_L1D_MISSES,
	EV_DTLB_LOADS,
	EV_DTLB_MISSES,
	EV_BRANCHES,
	EV_BRANCH_MISSES,
	EV_PAGE_FAULTS,
	EV_CTX_SWITCHES,
	EV_MIGRATIONS,
	EV_ROLE_MAX
};

struct ev {
	char *name; /* as the user or the default set spells it */
	int group;  /* events of one group are scheduled together */
	enum ev_role role;
	bool hw;   /* needs a hardware PMU */
	bool user; /* asked for with -e: gets a raw-count column */
	int err;   /* 0, or -errno: why it cannot be counted at all */
};

struct evlist {
	struct ev *ev;
	size_t n, cap;
	int ngroups;
	int role_idx[EV_ROLE_MAX]; /* index into ev, -1 when absent */
};

void evlist_init(struct evlist *l);
void evlist_release(struct evlist *l);
/* Append an event; returns its index. The role comes from the name. */
int evlist_add(struct evlist *l, const char *name, int group, bool hw, bool user);
/* Index of the event spelled name, or -1. */
int evlist_find(const struct evlist *l, const char *name);
/* Add the default groups: software always, hardware when with_hw. */
void evlist_add_defaults(struct evlist *l, bool with_hw);
/* Role of a canonical perf event name (EV_RAW when none). */
enum ev_role evlist_role_of(const char *name);
/* The canonical name of a role, or NULL for EV_RAW. */
const char *evlist_role_name(enum ev_role role);
/* True when the event of role r is present and countable. */
bool evlist_has(const struct evlist *l, enum ev_role r);
/* Whether any hardware event is countable. */
bool evlist_any_hw(const struct evlist *l);
/* Copy src into dst (dst is released first). */
void evlist_copy(struct evlist *dst, const struct evlist *src);

#endif
