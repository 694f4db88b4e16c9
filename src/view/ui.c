/* Interactive state: selection that follows its process, prompts, sort and view changes. */
#include "config.h"
#include "view/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/xalloc.h"

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
	u->page_shift = 12;
	u->halflife = 2.0;
}

void ui_build_list(const struct ui *u, const struct model *m, struct ui_list *l)
{
	const struct model_filter f = { .user = u->user, .name = u->filter, .cgroup = u->cgroup };
	const struct model_filter fc = { .name = u->filter };
	const struct model_row *rows = m->rows;
	size_t n = m->nrows;

	l->n = 0;
	if (u->view == UI_VIEW_CGROUPS) {
		/* cgroups have no user: the name filter matches their paths */
		for (size_t i = 0; i < m->ncgroups; i++) {
			if (!model_row_wanted(&fc, &m->cgroups[i]))
				continue;
			l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
			l->v[l->n++] = &m->cgroups[i];
		}
		return;
	}
	if (u->view == UI_VIEW_DRILL || u->threads) {
		rows = m->threads;
		n = m->nthreads;
	}
	for (size_t i = 0; i < n; i++) {
		const struct model_row *r = &rows[i];

		if (u->view == UI_VIEW_DRILL && r->tgid != u->drill)
			continue;
		if (u->view != UI_VIEW_DRILL && !model_row_wanted(&f, r))
			continue;
		l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = r;
	}
}

void ui_list_release(struct ui_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ui_sync(struct ui *u, const struct ui_list *l)
{
	size_t page = u->page ? u->page : 1;

	if (!l->n) {
		u->sel = 0;
		u->top = 0;
		return;
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i]->id == u->sel_id) {
			u->sel = i;
			break;
		}
	if (u->sel >= l->n)
		u->sel = l->n - 1;
	u->sel_id = l->v[u->sel]->id;
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + page)
		u->top = u->sel - page + 1;
	if (u->top + page > l->n)
		u->top = l->n > page ? l->n - page : 0;
}

void ui_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list)
{
	if (page)
		u->page = page;
	if (list)
		ui_sync(u, l);
}

size_t ui_sortable(const struct model *m, int *out, size_t max)
{
	return model_columns(m, out, max);
}

static void ui_move(struct ui *u, const struct ui_list *l, long delta)
{
	long s = (long)u->sel + delta;

	if (!l->n)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)l->n)
		s = (long)l->n - 1;
	u->sel = (size_t)s;
	u->sel_id = l->v[u->sel]->id;
	ui_sync(u, l);
}

static unsigned ui_sort_by(struct ui *u, const struct model *m, int col)
{
	if (col < COL_MAX && columns_get(col)->type == COL_TYPE_NUM &&
	    !model_column_shown(m, col)) {
		snprintf(u->status, sizeof(u->status),
			 "sorting by %s needs hardware counters, which this machine does not "
			 "provide",
			 columns_get(col)->title);
		return 0;
	}
	if (u->sort_col == col) {
		u->reverse = !u->reverse;
	} else {
		u->sort_col = col;
		u->reverse = false;
	}
	return UI_ACT_SORT;
}

static unsigned ui_cycle_sort(struct ui *u, const struct model *m, int dir)
{
	int cols[COL_MAX + 64];
	size_t n = ui_sortable(m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t i, k = 0;

	/* cgroups are sorted by their own columns only */
	for (i = 0; i < n && u->view == UI_VIEW_CGROUPS; i++)
		if (columns_on_rows(model_column(m, cols[i]), COL_ROWS_CGROUPS))
			cols[k++] = cols[i];
	if (u->view == UI_VIEW_CGROUPS)
		n = k;

	for (i = 0; i < n && cols[i] != u->sort_col; i++)
		;
	if (i == n)
		i = 0;
	else
		i = (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	u->sort_col = cols[i];
	u->reverse = false;
	return UI_ACT_SORT;
}

static void ui_search(struct ui *u, const struct ui_list *l)
{
	const struct model_filter f = { .name = u->search };

	if (!u->search[0] || !l->n)
		return;
	for (size_t k = 1; k <= l->n; k++) {
		size_t i = (u->sel + k) % l->n;

		if (model_row_wanted(&f, l->v[i])) {
			u->sel = i;
			u->sel_id = l->v[i]->id;
			ui_sync(u, l);
			return;
		}
	}
	snprintf(u->status, sizeof(u->status), "no process matches '%s'", u->search);
}

static unsigned ui_commit_prompt(struct ui *u, const struct ui_list *l)
{
	enum ui_prompt p = u->prompt;
	double d;

	u->prompt = UI_PROMPT_NONE;
	u->input[u->ninput] = '\0';
	switch (p) {
	case UI_PROMPT_SEARCH:
		if (u->ninput)
			snprintf(u->search, sizeof(u->search), "%s", u->input);
		ui_search(u, l);
		return 0;
	case UI_PROMPT_FILTER:
		snprintf(u->filter, sizeof(u->filter), "%s", u->input);
		return 0;
	case UI_PROMPT_USER:
		snprintf(u->user, sizeof(u->user), "%.32s", u->input);
		return 0;
	case UI_PROMPT_DELAY:
		if (!u->ninput)
			return 0;
		if (parse_delay(u->input, false, &d)) {
			snprintf(u->status, sizeof(u->status),
				 "invalid delay '%s': give seconds from 0.01 to 86400", u->input);
			return 0;
		}
		u->delay = d;
		return UI_ACT_DELAY;
	case UI_PROMPT_NONE:
		break;
	}
	return 0;
}

static unsigned ui_prompt_key(struct ui *u, int key, const struct ui_list *l)
{
	if (key == UI_KEY_ESC) {
		u->prompt = UI_PROMPT_NONE;
		return 0;
	}
	if (key == UI_KEY_ENTER || key == '\r')
		return ui_commit_prompt(u, l);
	if (key == UI_KEY_BACKSPACE || key == 127 || key == 8) {
		if (u->ninput)
			u->ninput--;
		u->input[u->ninput] = '\0';
		return 0;
	}
	if (key >= 0x20 && key < 0x7f && u->ninput + 1 < sizeof(u->input)) {
		u->input[u->ninput++] = (char)key;
		u->input[u->ninput] = '\0';
	}
	return 0;
}

static void ui_start_prompt(struct ui *u, enum ui_prompt p, const char *initial)
{
	u->prompt = p;
	snprintf(u->input, sizeof(u->input), "%s", initial);
	u->ninput = strlen(u->input);
}

static void ui_enter_view(struct ui *u, enum ui_view v)
{
	if (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_DRILL || u->view == UI_VIEW_CGROUPS)
		u->back = u->view;
	u->view = v;
	u->scroll = 0;
}

/*
 * The key table: the one definition of every binding, which dispatch, the help screen and the
 * footer all read. A key may be bound in several views to different actions (Esc, Space, h);
 * the first binding for the current view wins. Each view's footer shows its bindings in table
 * order: drill-down keys first, then the list keys, the help and log keys, and quit last.
 */
static const struct ui_binding UI_BINDINGS[] = {
	{ .keys = { UI_KEY_ESC },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_LEAVE,
	  .help = "back to the table",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "Esc",
	  .footer = "Back" },
	{ .keys = { 't' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_DRILL_THREADS,
	  .help = "its threads, counted one by one; again: its hot pages",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "t",
	  .footer = "Threads" },
	{ .keys = { 'm' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_DRILL_MAPPINGS,
	  .help = "samples grouped per mapping; again: per page",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "m",
	  .footer = "Mappings" },
	{ .keys = { '+', '-' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_PERIOD,
	  .help = "double or halve the sample period",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "+-",
	  .footer = "Period" },
	{ .keys = { '[', ']' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_HALFLIFE,
	  .help = "halve or double the histogram's half-life",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "[]",
	  .footer = "Half-life" },
	{ .keys = { 'g' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_PAGE_SIZE,
	  .help = "4 KiB or 2 MiB pages",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "g",
	  .footer = "PageSize" },

	{ .keys = { UI_KEY_UP, UI_KEY_DOWN, UI_KEY_PGUP, UI_KEY_PGDN, UI_KEY_HOME, UI_KEY_END },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_MOVE,
	  .help = "move the selection (it follows its process)" },
	{ .keys = { 'h', '?', UI_KEY_F1 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_HELP,
	  .help = "this help: every key and column",
	  .footer_in = UI_IN_LISTS,
	  .footer_key = "F1",
	  .footer = "Help" },
	{ .keys = { UI_KEY_ENTER, '\r' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_DRILL,
	  .help = "drill into the selected process: its hot pages (sampled) and threads",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "Enter",
	  .footer = "Drill" },
	{ .keys = { UI_KEY_ENTER, '\r' },
	  .in = UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CGROUP_DRILL,
	  .help = "the processes of the selected cgroup and those below it (Esc: back)",
	  .footer_in = UI_IN(UI_VIEW_CGROUPS),
	  .footer_key = "Enter",
	  .footer = "Procs" },
	{ .keys = { 'G' },
	  .in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CGROUPS,
	  .help = "cgroups (v2) as rows, counted per cgroup; again: processes",
	  .footer_in = UI_IN(UI_VIEW_CGROUPS),
	  .footer_key = "G",
	  .footer = "Tasks" },
	{ .keys = { '/' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SEARCH,
	  .help = "search: select the next process whose name or command line matches",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "/",
	  .footer = "Search" },
	{ .keys = { '\\' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_FILTER,
	  .help = "filter: show only processes whose name or command line matches",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "\\",
	  .footer = "Filter" },
	{ .keys = { '<', '>', UI_KEY_F6, UI_KEY_LEFT, UI_KEY_RIGHT },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_CYCLE,
	  .help = "sort by the previous or next column",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "<>",
	  .footer = "Sort" },
	{ .keys = { 'C' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_CPI,
	  .help = "sort by cycles per instruction (CPI), highest first; again: reverse",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "C",
	  .footer = "CPI" },
	{ .keys = { 'P' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_CPU,
	  .help = "sort by %CPU; again: reverse" },
	{ .keys = { 'M' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_CACHE,
	  .help = "sort by cache-miss %; again: reverse" },
	{ .keys = { 'R', 'I' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_REVERSE,
	  .help = "reverse the sort order" },
	{ .keys = { 'H' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_THREADS,
	  .help = "show threads as rows, each counted on its own",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "H",
	  .footer = "ThrRows" },
	{ .keys = { 'u' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_USER,
	  .help = "show only one user's processes (name or uid; empty for all)" },
	{ .keys = { 'c' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_CMDLINE,
	  .help = "show command lines instead of names" },
	{ .keys = { '1' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_CPUS,
	  .help = "show or hide the per-core meters" },
	{ .keys = { 'd', 's' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_DELAY,
	  .help = "set the refresh interval in seconds" },
	{ .keys = { ' ', 'Z', 'z' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_PAUSE,
	  .help = "pause and resume (the counters keep counting)",
	  .footer_in = UI_IN_LISTS,
	  .footer_key = "Space",
	  .footer = "Pause" },
	{ .keys = { 'e' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_LOG,
	  .help = "the log: attach failures, permission problems, missing events",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "e",
	  .footer = "Log" },
	{ .keys = { UI_KEY_ESC },
	  .in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CLEAR,
	  .help = "clear the filters; in one cgroup's processes: back to the cgroups" },

	{ .keys = { UI_KEY_ESC, 'h', '?', UI_KEY_F1, 'e' },
	  .in = UI_IN_PAGERS,
	  .what = UI_DO_BACK,
	  .help = "back where you came from",
	  .footer_in = UI_IN_PAGERS,
	  .footer_key = "Esc",
	  .footer = "Back" },
	{ .keys = { UI_KEY_UP, UI_KEY_DOWN, UI_KEY_PGUP, UI_KEY_PGDN, ' ', UI_KEY_HOME },
	  .in = UI_IN_PAGERS,
	  .what = UI_DO_SCROLL,
	  .help = "scroll",
	  .footer_in = UI_IN_PAGERS,
	  .footer_key = "Up/Dn",
	  .footer = "Scroll" },

	{ .keys = { 'q', 'Q', UI_KEY_F10 },
	  .in = UI_IN_ALL,
	  .what = UI_DO_QUIT,
	  .help = "quit",
	  .footer_in = UI_IN_ALL,
	  .footer_key = "q",
	  .footer = "Quit" },
};

static const struct {
	int key;
	const char *name; /* NULL: an alias the help does not list */
} UI_KEY_NAMES[] = {
	{ UI_KEY_ESC, "Esc" },
	{ UI_KEY_ENTER, "Enter" },
	{ '\r', NULL },
	{ ' ', "Space" },
	{ UI_KEY_UP, "Up" },
	{ UI_KEY_DOWN, "Down" },
	{ UI_KEY_LEFT, "Left" },
	{ UI_KEY_RIGHT, "Right" },
	{ UI_KEY_PGUP, "PgUp" },
	{ UI_KEY_PGDN, "PgDn" },
	{ UI_KEY_HOME, "Home" },
	{ UI_KEY_END, "End" },
	{ UI_KEY_BACKSPACE, "Backspace" },
	{ UI_KEY_F1, "F1" },
	{ UI_KEY_F6, "F6" },
	{ UI_KEY_F10, "F10" },
};

const struct ui_binding *ui_bindings(size_t *n)
{
	*n = sizeof(UI_BINDINGS) / sizeof(UI_BINDINGS[0]);
	return UI_BINDINGS;
}

const struct ui_binding *ui_binding_find(enum ui_view view, int key)
{
	for (size_t i = 0; i < sizeof(UI_BINDINGS) / sizeof(UI_BINDINGS[0]); i++) {
		const struct ui_binding *b = &UI_BINDINGS[i];

		if (!(b->in & UI_IN(view)))
			continue;
		for (size_t k = 0; k < UI_BINDING_KEYS && b->keys[k]; k++)
			if (b->keys[k] == key)
				return b;
	}
	return NULL;
}

bool ui_key_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(UI_KEY_NAMES) / sizeof(UI_KEY_NAMES[0]); i++)
		if (UI_KEY_NAMES[i].key == key) {
			snprintf(buf, size, "%s", UI_KEY_NAMES[i].name ? UI_KEY_NAMES[i].name : "");
			return UI_KEY_NAMES[i].name != NULL;
		}
	snprintf(buf, size, "%c", key >= 0x20 && key < 0x7f ? key : '?');
	return true;
}

void ui_binding_keys(const struct ui_binding *b, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < UI_BINDING_KEYS && b->keys[k] && o < size; k++) {
		char name[16];

		if (ui_key_name(b->keys[k], name, sizeof(name)))
			o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? " " : "", name);
	}
}

static void ui_scroll(struct ui *u, int key)
{
	switch (key) {
	case UI_KEY_UP:
		if (u->scroll)
			u->scroll--;
		break;
	case UI_KEY_DOWN:
		u->scroll++;
		break;
	case UI_KEY_PGUP:
		u->scroll = u->scroll > u->page ? u->scroll - u->page : 0;
		break;
	case UI_KEY_HOME:
		u->scroll = 0;
		break;
	default: /* PgDn, Space */
		u->scroll += u->page;
		break;
	}
}

static void ui_move_key(struct ui *u, const struct ui_list *l, int key)
{
	long page = (long)(u->page ? u->page : 1);

	switch (key) {
	case UI_KEY_UP:
		ui_move(u, l, -1);
		break;
	case UI_KEY_DOWN:
		ui_move(u, l, 1);
		break;
	case UI_KEY_PGUP:
		ui_move(u, l, -page);
		break;
	case UI_KEY_PGDN:
		ui_move(u, l, page);
		break;
	case UI_KEY_HOME:
		ui_move(u, l, -(long)l->n);
		break;
	default: /* End */
		ui_move(u, l, (long)l->n);
		break;
	}
}

/* Back to the cgroup view, on the cgroup whose processes were shown. */
static void ui_leave_cgroup(struct ui *u, const struct model *m)
{
	u->sel_id = -1;
	for (size_t i = 0; i < m->ncgroups; i++)
		if (m->cgroups[i].cgroup && !strcmp(m->cgroups[i].cgroup, u->cgroup))
			u->sel_id = m->cgroups[i].id;
	u->cgroup[0] = '\0';
	u->view = UI_VIEW_CGROUPS;
	u->top = 0;
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
		ui_scroll(u, key);
		return 0;
	case UI_DO_HELP:
		ui_enter_view(u, UI_VIEW_HELP);
		return 0;
	case UI_DO_LOG:
		ui_enter_view(u, UI_VIEW_ERRORS);
		return 0;
	case UI_DO_MOVE:
		ui_move_key(u, l, key);
		return 0;
	case UI_DO_SORT_CYCLE:
		return ui_cycle_sort(u, m, key == '<' || key == UI_KEY_LEFT ? -1 : 1);
	case UI_DO_SORT_BY:
		return ui_sort_by(u, m, b->col);
	case UI_DO_REVERSE:
		u->reverse = !u->reverse;
		return UI_ACT_SORT;
	case UI_DO_SEARCH:
		ui_start_prompt(u, UI_PROMPT_SEARCH, "");
		return 0;
	case UI_DO_FILTER:
		ui_start_prompt(u, UI_PROMPT_FILTER, u->filter);
		return 0;
	case UI_DO_USER:
		ui_start_prompt(u, UI_PROMPT_USER, u->user);
		return 0;
	case UI_DO_DELAY:
		ui_start_prompt(u, UI_PROMPT_DELAY, "");
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
	case UI_DO_DRILL:
		if (!l->n)
			return 0;
		u->drill = l->v[u->sel]->tgid;
		u->view = UI_VIEW_DRILL;
		u->drill_mode = UI_DRILL_PAGES;
		u->sel_id = -1;
		u->top = 0;
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_LEAVE:
		u->view = UI_VIEW_TABLE;
		u->sel_id = u->drill;
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
		} else {
			ui_leave_cgroup(u, m);
		}
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
		u->drill_mode =
			u->drill_mode == UI_DRILL_THREADS ? UI_DRILL_PAGES : UI_DRILL_THREADS;
		return 0;
	case UI_DO_DRILL_MAPPINGS:
		u->drill_mode =
			u->drill_mode == UI_DRILL_MAPPINGS ? UI_DRILL_PAGES : UI_DRILL_MAPPINGS;
		return 0;
	case UI_DO_PERIOD:
		if (!u->sample_period)
			u->sample_period = u->sample_default;
		if (key == '+' && u->sample_period < 1000000000ull / 2)
			u->sample_period *= 2;
		else if (key == '-' && u->sample_period > 1)
			u->sample_period /= 2;
		snprintf(u->status, sizeof(u->status), "sample period %llu", u->sample_period);
		return UI_ACT_SAMPLE;
	case UI_DO_HALFLIFE:
		if (key == ']' && u->halflife < 3600)
			u->halflife *= 2;
		else if (key == '[' && u->halflife > 0.125)
			u->halflife /= 2;
		snprintf(u->status, sizeof(u->status), "half-life %.3g s", u->halflife);
		return UI_ACT_HISTOGRAM;
	case UI_DO_PAGE_SIZE:
		u->page_shift = u->page_shift == 12 ? 21 : 12;
		snprintf(u->status, sizeof(u->status), "%s pages: the histogram starts afresh",
			 u->page_shift == 12 ? "4 KiB" : "2 MiB");
		return UI_ACT_HISTOGRAM;
	}
	return 0;
}

unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	const struct ui_binding *b;

	u->status[0] = '\0';
	if (u->prompt != UI_PROMPT_NONE)
		return ui_prompt_key(u, key, l);
	b = ui_binding_find(u->view, key);
	if (b)
		return ui_do(u, b, key, m, l);
	if ((UI_IN(u->view) & UI_IN_LISTS) && key >= 0x20 && key < 0x7f)
		snprintf(u->status, sizeof(u->status), "unknown key '%c': press h for help", key);
	return 0;
}
