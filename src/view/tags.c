/* Tagged processes, and who a signal or a nice value goes to. */
#include "config.h"
#include "view/tags.h"

#include <stdio.h>
#include <string.h>

#include "view/list.h"
#include "view/ui.h"

bool tags_has(const struct ui *u, int id)
{
	for (size_t i = 0; i < u->ntags; i++)
		if (u->tags[i].id == id)
			return true;
	return false;
}

void tags_toggle(struct ui *u, const struct ui_list *l)
{
	int id;

	if (!l->n)
		return;
	id = l->v[u->sel]->id;
	for (size_t i = 0; i < u->ntags; i++)
		if (u->tags[i].id == id) {
			memmove(&u->tags[i], &u->tags[i + 1],
				(u->ntags - i - 1) * sizeof(*u->tags));
			u->ntags--;
			list_move(u, l, 1);
			return;
		}
	if (u->ntags == UI_MAX_TAGS) {
		snprintf(u->status, sizeof(u->status),
			 "%d processes are tagged, the most there can be: U untags them",
			 UI_MAX_TAGS);
		return;
	}
	u->tags[u->ntags++] = (struct model_ident){ id, l->v[u->sel]->start };
	list_move(u, l, 1);
}

/*
 * Tags of processes that exited are dropped, never carried over to a newcomer given the pid;
 * the status line names the first. Returns how many were dropped.
 */
size_t tags_prune(struct ui *u, const struct model *m)
{
	size_t kept = 0, n = u->ntags;

	for (size_t i = 0; i < n; i++) {
		if (!model_ident_check(m, &u->tags[i])) {
			u->tags[kept++] = u->tags[i];
			continue;
		}
		if (kept == i) /* the first one dropped */
			snprintf(u->status, sizeof(u->status),
				 "process %d exited: its tag is dropped", u->tags[i].id);
	}
	u->ntags = kept;
	return n - kept;
}

/*
 * What a signal or nice value goes to: the tagged processes still there, else the selected
 * one. False, with the reason in status, when there is none or the processes are not here.
 */
bool tags_targets(struct ui *u, const struct model *m, const struct ui_list *l)
{
	/* a cgroup's or a user's row is no process: its id is not a pid to signal */
	if (u->view == UI_VIEW_CGROUPS || (u->per_user && u->view == UI_VIEW_TABLE)) {
		snprintf(u->status, sizeof(u->status),
			 u->view == UI_VIEW_CGROUPS
				 ? "a cgroup is no process: Enter lists its processes"
				 : "a user's totals are no process: W lists the processes");
		return false;
	}
	if (!u->live) {
		snprintf(u->status, sizeof(u->status),
			 "not in a replay: signals and nice values go to live processes only");
		return false;
	}
	/* tags of processes that exited are dropped, so a reused pid is never hit */
	if (tags_prune(u, m) && !u->ntags)
		return false;
	u->ntargets = 0;
	u->act_threads = false;
	if (u->ntags && u->view == UI_VIEW_TABLE) {
		memcpy(u->targets, u->tags, u->ntags * sizeof(*u->tags));
		u->ntargets = u->ntags;
		u->act_threads = u->threads;
	} else if (u->view == UI_VIEW_DRILL && u->drill_mode != UI_DRILL_THREADS) {
		/* the process the pane is about */
		if (!u->drill_known && !list_process_start(m, u->drill, &u->drill_start)) {
			snprintf(u->status, sizeof(u->status), "process %d is gone", u->drill);
			return false;
		}
		u->drill_known = true;
		u->targets[u->ntargets++] = (struct model_ident){ u->drill, u->drill_start };
	} else if (l->n) {
		u->targets[u->ntargets++] =
			(struct model_ident){ l->v[u->sel]->id, l->v[u->sel]->start };
		u->act_threads = list_thread_rows(u);
	}
	if (!u->ntargets)
		snprintf(u->status, sizeof(u->status), "no process is selected");
	return u->ntargets > 0;
}
