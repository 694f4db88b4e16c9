/* What each key and click does: the actions of the key table, across the screens. */
#include "config.h"
#include "view/ui.h"

#include <stdio.h>
#include <string.h>

#include "view/drill.h"
#include "view/input.h"
#include "view/list.h"
#include "view/pager.h"
#include "view/setup.h"
#include "view/sortmenu.h"
#include "view/table.h"
#include "view/tags.h"
#include "view/usermenu.h"

void ui_init(struct ui *u, int sort_col, bool reverse, double delay)
{
	memset(u, 0, sizeof(*u));
	u->view = UI_VIEW_TABLE;
	u->back = UI_VIEW_TABLE;
	u->sort_col = sort_col;
	u->reverse = reverse;
	u->delay = delay;
	u->show_cpus = true;
	u->sel_id = -1;
	u->page = 10;
	u->drill.page_shift = 12;
	u->drill.halflife = 2.0;
	u->width = 80;
	u->list_y = -1;
	columns_choice_default(&u->setup.cols);
}

static void ui_enter_view(struct ui *u, enum ui_view v)
{
	if (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_DRILL || u->view == UI_VIEW_CGROUPS)
		u->back = u->view;
	u->view = v;
	u->pager.scroll = 0;
}

/* Back to the cgroup view, on the cgroup whose processes were shown. */
static void ui_leave_cgroup(struct ui *u, const struct model *m)
{
	u->sel_id = -1;
	for (size_t i = 0; i < m->ncgroups; i++)
		if (m->cgroups[i].cgroup && !strcmp(m->cgroups[i].cgroup, u->cgroup))
			u->sel_id = m->cgroups[i].id;
	u->sel_pin = true;
	u->cgroup[0] = '\0';
	u->view = UI_VIEW_CGROUPS;
	u->top = 0;
}

unsigned ui_prune(struct ui *u, const struct model *m)
{
	unsigned act = 0;
	bool drilled = u->drill.open || u->view == UI_VIEW_DRILL;

	tags_prune(u, m);
	if (drilled && !u->drill.known) {
		/* --drill PID: the process is the one found there first */
		u->drill.known = list_process_start(m, u->drill.pid, &u->drill.start);
	} else if (drilled &&
		   model_ident_check(m, &(struct model_ident){ u->drill.pid, u->drill.start })) {
		snprintf(u->status, sizeof(u->status),
			 "process %d exited: its drill-down is closed", u->drill.pid);
		u->drill.open = false;
		if (u->view == UI_VIEW_DRILL) {
			u->view = UI_VIEW_TABLE;
			u->sel_id = -1;
			act |= UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		if (u->back == UI_VIEW_DRILL)
			u->back = UI_VIEW_TABLE;
	}
	if (u->input.prompt != UI_PROMPT_SIGNAL &&
	    (u->input.prompt != UI_PROMPT_CONFIRM || u->sig.ask_gone))
		return act;
	for (size_t i = 0; i < u->tags.ntargets; i++) {
		if (!model_ident_check(m, &u->tags.targets[i]))
			continue;
		/* the question stays, saying so, until a key: y must not send it to a newcomer */
		snprintf(u->sig.ask, sizeof(u->sig.ask),
			 "process %d exited: nothing will be sent (any key)",
			 u->tags.targets[i].id);
		u->sig.ask_gone = true;
		u->input.prompt = UI_PROMPT_CONFIRM;
		break;
	}
	return act;
}

static void ui_hscroll(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	struct table_layout t;
	int room, text, most;

	if (key == UI_KEY_LEFT) {
		if (u->hscroll > 0)
			u->hscroll--;
		return;
	}
	table_layout(m, u->width, list_rows(u), u->hscroll, &t);
	room = u->width - t.rest_x;
	text = list_longest_text(u, l);
	/* past the last column stop, steps of the text while some of it is still cut off */
	most = t.last_col + (text > room ? (text - room + t.text_step - 1) / t.text_step : 0);
	if (u->hscroll < t.last_col)
		u->hscroll = u->hscroll + 1;
	else if (u->hscroll < most)
		u->hscroll++;
}

/*
 * The data screens Tab goes through, in order, and the action that opens each: to add a
 * screen, add a line. Shift-Tab goes backwards. A screen that cannot open is passed over: the
 * drill-down unless one is open (Enter opened it, Esc did not close it: Tab never starts
 * sampling a process), the cgroups where they are not known. Help, the log and the events
 * are no screens of the cycle but pages over one (their keys take them back).
 */
static const struct {
	enum ui_view view;
	enum ui_do open;
} UI_SCREEN_CYCLE[] = {
	{ UI_VIEW_TABLE, UI_DO_TABLE },
	{ UI_VIEW_DRILL, UI_DO_REDRILL },
	{ UI_VIEW_CGROUPS, UI_DO_CGROUPS },
};

#define UI_NSCREENS (sizeof(UI_SCREEN_CYCLE) / sizeof(UI_SCREEN_CYCLE[0]))

static unsigned ui_do(struct ui *u, const struct ui_binding *b, int key, const struct model *m,
		      const struct ui_list *l);

static unsigned ui_next_screen(struct ui *u, int dir, const struct model *m,
			       const struct ui_list *l)
{
	size_t at = 0;

	for (size_t i = 0; i < UI_NSCREENS; i++)
		if (UI_SCREEN_CYCLE[i].view == u->view)
			at = i;
	for (size_t k = 1; k < UI_NSCREENS; k++) {
		size_t i = (at + (dir > 0 ? k : UI_NSCREENS - k)) % UI_NSCREENS;
		struct ui_binding open = { .what = UI_SCREEN_CYCLE[i].open };
		unsigned act;

		/* the cgroup view only where cgroups are known (not in an older recording) */
		if (UI_SCREEN_CYCLE[i].view == UI_VIEW_CGROUPS && !m->have_cgroups)
			continue;
		act = ui_do(u, &open, 0, m, l);

		if (u->view == UI_SCREEN_CYCLE[i].view)
			return act;
	}
	return 0;
}

/*
 * Whether the rows are a user's totals, whose ids are uids: a tag, a follow, a signal or a nice
 * value given one would reach the process whose pid happens to equal the uid. False, with the
 * reason in status, when they are; what is named is the key's action.
 */
static bool ui_process_rows(struct ui *u, const char *what)
{
	if (u->view == UI_VIEW_CGROUPS) {
		snprintf(u->status, sizeof(u->status),
			 "%s needs processes, not a cgroup: Enter lists its processes", what);
		return false;
	}
	if (!u->per_user || u->view != UI_VIEW_TABLE)
		return true;
	snprintf(u->status, sizeof(u->status),
		 "%s needs processes, not a user's totals: W shows the processes", what);
	return false;
}

static unsigned ui_do(struct ui *u, const struct ui_binding *b, int key, const struct model *m,
		      const struct ui_list *l)
{
	switch (b->what) {
	case UI_DO_QUIT:
		return UI_ACT_QUIT;
	case UI_DO_BACK:
		u->view = u->back;
		return 0;
	case UI_DO_SCROLL:
		pager_scroll(u, key);
		return 0;
	case UI_DO_HELP:
		ui_enter_view(u, UI_VIEW_HELP);
		return 0;
	case UI_DO_LOG:
		ui_enter_view(u, UI_VIEW_ERRORS);
		return 0;
	case UI_DO_EVENTS:
		ui_enter_view(u, UI_VIEW_EVENTS);
		return 0;
	case UI_DO_STEP:
		/* a frame looked at frame by frame holds still */
		u->paused = true;
		u->step = key == 'j' ? 1 : -1;
		return UI_ACT_STEP;
	case UI_DO_SEEK:
		input_start(u, UI_PROMPT_TIME, "");
		return 0;
	case UI_DO_MOVE:
		if (u->view == UI_VIEW_DRILL && u->drill.mode == UI_DRILL_PAGES)
			drill_page_move(u, m, key);
		else
			list_move_key(u, l, key);
		return 0;
	case UI_DO_SORT_CYCLE:
		return sortmenu_cycle(u, m, key == '<' || key == UI_KEY_LEFT ? -1 : 1);
	case UI_DO_SORT_BY:
		return sortmenu_by(u, m, b->col);
	case UI_DO_REVERSE:
		u->reverse = !u->reverse;
		return UI_ACT_SORT;
	case UI_DO_SEARCH:
		input_start(u, UI_PROMPT_SEARCH, "");
		return 0;
	case UI_DO_FILTER:
		input_start(u, UI_PROMPT_FILTER, u->filter);
		return 0;
	case UI_DO_USER:
		usermenu_open(u, m);
		return 0;
	case UI_DO_DELAY:
		input_start(u, UI_PROMPT_DELAY, "");
		return 0;
	case UI_DO_THREADS:
		u->threads = !u->threads;
		if (u->view == UI_VIEW_TABLE)
			u->sel_id = -1;
		return UI_ACT_THREADS;
	case UI_DO_CMDLINE:
		u->cmdline = !u->cmdline;
		return 0;
	case UI_DO_CPUS:
		u->show_cpus = !u->show_cpus;
		return 0;
	case UI_DO_PAUSE:
		u->paused = !u->paused;
		return 0;
	case UI_DO_KTHREADS:
		u->kthreads = !u->kthreads;
		snprintf(u->status, sizeof(u->status), "kernel threads %s",
			 u->kthreads ? "listed (live: from the next tick)" : "hidden");
		return UI_ACT_KTHREADS;
	case UI_DO_PER_USER:
		u->per_user = !u->per_user;
		u->sel_id = -1;
		u->top = 0;
		return 0;
	case UI_DO_DRILL:
		if (u->per_user) {
			snprintf(u->status, sizeof(u->status),
				 "a user's totals have no drill-down: W shows the processes");
			return 0;
		}
		if (!l->n)
			return 0;
		u->drill.pid = l->v[u->sel]->tgid;
		u->drill.known = list_process_start(m, u->drill.pid, &u->drill.start);
		u->drill.open = true;
		u->view = UI_VIEW_DRILL;
		u->drill.mode = UI_DRILL_PAGES;
		u->sel_id = -1;
		u->top = 0;
		u->drill.page_chosen = false;
		u->drill.page_top = 0;
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_LEAVE:
		u->drill.open = false;
		u->view = UI_VIEW_TABLE;
		u->sel_id = u->drill.pid;
		u->sel_pin = true;
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_TABLE:
		if (u->view == UI_VIEW_DRILL) {
			/* its sampling and thread counts stop; Tab comes back to it */
			u->view = UI_VIEW_TABLE;
			u->sel_id = u->drill.pid;
			u->sel_pin = true;
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		/* from the cgroups, as G goes back: all the processes */
		return ui_do(u, &(struct ui_binding){ .what = UI_DO_CGROUPS }, key, m, l);
	case UI_DO_REDRILL:
		if (!u->drill.open)
			return 0;
		u->view = UI_VIEW_DRILL;
		u->sel_id = -1;
		u->top = 0;
		u->drill.page_chosen = false;
		u->drill.page_top = 0;
		/* its sampling (and thread counts) start again, in the mode it was left in */
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_CLEAR:
		if (u->view == UI_VIEW_TABLE && u->cgroup[0]) {
			ui_leave_cgroup(u, m);
			return 0;
		}
		/* Esc on the table clears the filters, as in htop */
		u->filter[0] = '\0';
		u->user[0] = '\0';
		return 0;
	case UI_DO_CGROUPS:
		if (u->view == UI_VIEW_CGROUPS) {
			u->view = UI_VIEW_TABLE;
			u->cgroup[0] = '\0';
			u->sel_id = -1;
			u->top = 0;
			return 0;
		}
		/* G says "again: processes": the per-user totals end here, as W would end them */
		u->per_user = false;
		if (u->view == UI_VIEW_DRILL) {
			/* Tab from the drill-down: its sampling and thread counts stop */
			ui_leave_cgroup(u, m);
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		ui_leave_cgroup(u, m);
		return 0;
	case UI_DO_CGROUP_DRILL:
		if (!l->n)
			return 0;
		snprintf(u->cgroup, sizeof(u->cgroup), "%s",
			 l->v[u->sel]->cgroup ? l->v[u->sel]->cgroup : "/");
		u->view = UI_VIEW_TABLE;
		u->sel_id = -1;
		u->top = 0;
		return 0;
	case UI_DO_DRILL_THREADS:
		u->drill.mode =
			u->drill.mode == UI_DRILL_THREADS ? UI_DRILL_PAGES : UI_DRILL_THREADS;
		return 0;
	case UI_DO_DRILL_MAPPINGS:
		u->drill.mode =
			u->drill.mode == UI_DRILL_MAPPINGS ? UI_DRILL_PAGES : UI_DRILL_MAPPINGS;
		return 0;
	case UI_DO_PERIOD:
		if (!u->drill.sample_period)
			u->drill.sample_period = u->drill.sample_default;
		if (key == '+' && u->drill.sample_period < 1000000000ull / 2)
			u->drill.sample_period *= 2;
		else if (key == '-' && u->drill.sample_period > 1)
			u->drill.sample_period /= 2;
		snprintf(u->status, sizeof(u->status), "sample period %llu",
			 u->drill.sample_period);
		return UI_ACT_SAMPLE;
	case UI_DO_HALFLIFE:
		if (key == ']' && u->drill.halflife < 3600)
			u->drill.halflife *= 2;
		else if (key == '[' && u->drill.halflife > 0.125)
			u->drill.halflife /= 2;
		snprintf(u->status, sizeof(u->status), "half-life %.3g s", u->drill.halflife);
		return UI_ACT_HISTOGRAM;
	case UI_DO_PAGE_SIZE:
		u->drill.page_shift = u->drill.page_shift == 12 ? 21 : 12;
		u->drill.page_chosen = false;
		snprintf(u->status, sizeof(u->status), "%s pages: the histogram starts afresh",
			 u->drill.page_shift == 12 ? "4 KiB" : "2 MiB");
		return UI_ACT_HISTOGRAM;
	case UI_DO_HSCROLL:
		ui_hscroll(u, key, m, l);
		return 0;
	case UI_DO_TREE:
		u->tree = !u->tree;
		return 0;
	case UI_DO_FOLLOW:
		if (!ui_process_rows(u, "following"))
			return 0;
		if (u->follow) {
			u->follow = false;
			snprintf(u->status, sizeof(u->status), "no longer following pid %d",
				 u->follow_id);
		} else if (l->n) {
			u->follow = true;
			u->follow_id = l->v[u->sel]->id;
		}
		return 0;
	case UI_DO_TAG:
		if (ui_process_rows(u, "tagging"))
			tags_toggle(u, l);
		return 0;
	case UI_DO_UNTAG:
		u->tags.n = 0;
		return 0;
	case UI_DO_SIGNAL:
		if (!ui_process_rows(u, "a signal") || !tags_targets(u, m, l))
			return 0;
		u->input.prompt = UI_PROMPT_SIGNAL;
		u->sig.sel = 0;
		u->sig.typed = 0;
		return 0;
	case UI_DO_NICE:
		if (!ui_process_rows(u, "a nice value") || !tags_targets(u, m, l))
			return 0;
		u->act_nice = key == UI_KEY_F7 ? -1 : 1;
		return UI_ACT_NICE;
	case UI_DO_NEXT_SCREEN:
		return ui_next_screen(u, key == UI_KEY_BTAB ? -1 : 1, m, l);
	case UI_DO_SETUP:
		ui_enter_view(u, UI_VIEW_SETUP);
		return 0;
	case UI_DO_SETUP_MOVE:
		setup_move(u, key);
		return 0;
	case UI_DO_SETUP_SECTION:
		u->setup.sec = (u->setup.sec +
				(key == UI_KEY_LEFT || key == UI_KEY_BTAB ? UI_SETUP_MAX - 1 : 1)) %
			       UI_SETUP_MAX;
		return 0;
	case UI_DO_SETUP_TOGGLE:
		return setup_toggle(u);
	case UI_DO_SETUP_ORDER:
		setup_order(u, key == UI_KEY_F7 || key == '[' ? -1 : 1);
		return UI_ACT_COLUMNS;
	case UI_DO_SETUP_WRITE:
		return UI_ACT_WRITE;
	case UI_DO_SETUP_DONE:
		u->view = u->back;
		return UI_ACT_WRITE;
	case UI_DO_SORT_MENU:
		sortmenu_open(u, m);
		return 0;
	}
	return 0;
}

unsigned ui_click(struct ui *u, int x, int y, const struct model *m, const struct ui_list *l)
{
	struct table_layout t;
	int col;

	u->status[0] = '\0';
	/* a prompt or menu waits for its keys; only lists have titles and rows to click */
	if (u->input.prompt != UI_PROMPT_NONE || u->list_y < 0 || y < u->list_y ||
	    !(UI_IN(u->view) & UI_IN_LISTS))
		return 0;
	table_layout(m, u->width, list_rows(u), u->hscroll, &t);
	if (y > u->list_y) {
		size_t line = (size_t)(y - u->list_y - 1), row = u->top + line;

		/* only the rows on screen: not the footer under a long list */
		if (line < u->page && row < l->n) {
			u->follow = false;
			u->sel = row;
			u->sel_id = l->v[row]->id;
			list_sync(u, l);
		}
		return 0;
	}
	/* the scroll marks at the ends of the title line scroll */
	if (x == 0 && t.more_left) {
		ui_hscroll(u, UI_KEY_LEFT, m, l);
		return 0;
	}
	if (x == u->width - 1 && t.more_right) {
		ui_hscroll(u, UI_KEY_RIGHT, m, l);
		return 0;
	}
	col = table_column_at(&t, x);
	return col < 0 ? 0 : sortmenu_by(u, m, col);
}

unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	const struct ui_binding *b;

	u->status[0] = '\0';
	if (u->input.prompt != UI_PROMPT_NONE)
		return input_key(u, key, m, l);
	b = keys_find(u->view, key);
	if (b)
		return ui_do(u, b, key, m, l);
	if ((UI_IN(u->view) & (UI_IN_LISTS | UI_IN(UI_VIEW_SETUP))) && key >= 0x20 && key < 0x7f)
		snprintf(u->status, sizeof(u->status), "unknown key '%c': press h for help", key);
	return 0;
}
