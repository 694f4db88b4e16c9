/* Tagged processes, and who a signal or a nice value goes to. */
#include "config.h"
#include "view/tags.h"

#include <stdio.h>
#include <string.h>

#include "view/list.h"
#include "view/ui.h"

bool tags_has(const struct ui *u, int id)
{
	for (size_t i = 0; i < u->tags.n; i++)
		if (u->tags.ids[i].id == id)
			return true;
	return false;
}

void tags_toggle(struct ui *u, const struct ui_list *l)
{
	int id;

	if (!l->n)
		return;
	id = l->v[u->sel]->id;
	for (size_t i = 0; i < u->tags.n; i++)
		if (u->tags.ids[i].id == id) {
			memmove(&u->tags.ids[i], &u->tags.ids[i + 1],
				(u->tags.n - i - 1) * sizeof(*u->tags.ids));
			u->tags.n--;
			list_move(u, l, 1);
			return;
		}
	if (u->tags.n == TAGS_MAX) {
		snprintf(u->status, sizeof(u->status),
			 "%d processes are tagged, the most there can be: U untags them", TAGS_MAX);
		return;
	}
	u->tags.ids[u->tags.n++] = (struct model_ident){ id, l->v[u->sel]->start };
	list_move(u, l, 1);
}

/*
 * Tags of processes that exited are dropped, never carried over to a newcomer given the pid;
 * the status line names the first. Returns how many were dropped.
 */
size_t tags_prune(struct ui *u, const struct model *m)
{
	size_t kept = 0, n = u->tags.n;

	for (size_t i = 0; i < n; i++) {
		if (!model_ident_check(m, &u->tags.ids[i])) {
			u->tags.ids[kept++] = u->tags.ids[i];
			continue;
		}
		if (kept == i) /* the first one dropped */
			snprintf(u->status, sizeof(u->status),
				 "process %d exited: its tag is dropped", u->tags.ids[i].id);
	}
	u->tags.n = kept;
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
	if (tags_prune(u, m) && !u->tags.n)
		return false;
	u->tags.ntargets = 0;
	u->tags.target_threads = false;
	if (u->tags.n && u->view == UI_VIEW_TABLE) {
		memcpy(u->tags.targets, u->tags.ids, u->tags.n * sizeof(*u->tags.ids));
		u->tags.ntargets = u->tags.n;
		u->tags.target_threads = u->threads;
	} else if (u->view == UI_VIEW_DRILL && u->drill.mode != UI_DRILL_THREADS) {
		/* the process the pane is about */
		if (!u->drill.known && !list_process_start(m, u->drill.pid, &u->drill.start)) {
			snprintf(u->status, sizeof(u->status), "process %d is gone", u->drill.pid);
			return false;
		}
		u->drill.known = true;
		u->tags.targets[u->tags.ntargets++] =
			(struct model_ident){ u->drill.pid, u->drill.start };
	} else if (l->n) {
		u->tags.targets[u->tags.ntargets++] =
			(struct model_ident){ l->v[u->sel]->id, l->v[u->sel]->start };
		u->tags.target_threads = list_thread_rows(u);
	}
	if (!u->tags.ntargets)
		snprintf(u->status, sizeof(u->status), "no process is selected");
	return u->tags.ntargets > 0;
}
