/* Tagged processes, and who a signal or a nice value goes to. */
#ifndef PMCTOP_VIEW_TAGS_H
#define PMCTOP_VIEW_TAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* Processes that can be tagged at once. */
#define TAGS_MAX 256

/* The tags' part of struct ui, and who a signal or nice value goes to. */
struct tags_state {
	struct model_ident ids[TAGS_MAX]; /* tagged processes, in tagging order */
	size_t n;
	struct model_ident targets[TAGS_MAX]; /* UI_ACT_SIGNAL, UI_ACT_NICE: who they go to */
	size_t ntargets;
	bool target_threads; /* the targets are threads (nice: only them, not their process) */
};

struct ui;
struct ui_list;

/* Whether id is tagged. */
bool tags_has(const struct ui *u, int id);
/* Tag the selected row of l, or untag it, and move down; says so in status when full. */
void tags_toggle(struct ui *u, const struct ui_list *l);
/*
 * Tags of processes that exited are dropped, never carried over to a newcomer given the pid;
 * the status line names the first. Returns how many were dropped.
 */
size_t tags_prune(struct ui *u, const struct model *m);
/*
 * Set u->tags.targets, what a signal or nice value goes to: the tagged processes still there, else
 * the selected one. False, with the reason in status, when there is none or the processes are
 * not on this machine.
 */
bool tags_targets(struct ui *u, const struct model *m, const struct ui_list *l);

#endif
