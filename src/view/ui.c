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
	const struct model_filter f = { .user = u->user, .name = u->filter };
	const struct model_row *rows = m->rows;
	size_t n = m->nrows;

	l->n = 0;
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

static unsigned ui_sort_by(struct ui *u, const struct model *m, int col, const char *what)
{
	if (col < COL_MAX && columns_get(col)->type == COL_TYPE_NUM && !model_column_shown(m, col)) {
		snprintf(u->status, sizeof(u->status),
			 "%s needs hardware counters, which this machine does not provide", what);
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
	size_t i;

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
	if (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_DRILL)
		u->back = u->view;
	u->view = v;
	u->scroll = 0;
}

unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	u->status[0] = '\0';
	if (u->prompt != UI_PROMPT_NONE)
		return ui_prompt_key(u, key, l);
	if (key == 'q' || key == 'Q' || key == UI_KEY_F10)
		return UI_ACT_QUIT;
	if (u->view == UI_VIEW_HELP || u->view == UI_VIEW_ERRORS) {
		switch (key) {
		case UI_KEY_ESC:
		case 'h':
		case '?':
		case UI_KEY_F1:
		case 'e':
			u->view = u->back;
			break;
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
		case UI_KEY_PGDN:
		case ' ':
			u->scroll += u->page;
			break;
		case UI_KEY_HOME:
			u->scroll = 0;
			break;
		default:
			break;
		}
		return 0;
	}
	if (u->view == UI_VIEW_DRILL) {
		switch (key) {
		case 't':
			u->drill_mode = u->drill_mode == UI_DRILL_THREADS ? UI_DRILL_PAGES
									  : UI_DRILL_THREADS;
			return 0;
		case 'm':
			u->drill_mode = u->drill_mode == UI_DRILL_MAPPINGS ? UI_DRILL_PAGES
									   : UI_DRILL_MAPPINGS;
			return 0;
		case '+':
		case '-':
			if (!u->sample_period)
				u->sample_period = u->sample_default;
			if (key == '+' && u->sample_period < 1000000000ull / 2)
				u->sample_period *= 2;
			else if (key == '-' && u->sample_period > 1)
				u->sample_period /= 2;
			snprintf(u->status, sizeof(u->status), "sample period %llu", u->sample_period);
			return UI_ACT_SAMPLE;
		case ']':
		case '[':
			if (key == ']' && u->halflife < 3600)
				u->halflife *= 2;
			else if (key == '[' && u->halflife > 0.125)
				u->halflife /= 2;
			snprintf(u->status, sizeof(u->status), "half-life %.3g s", u->halflife);
			return UI_ACT_HISTOGRAM;
		case 'g':
			u->page_shift = u->page_shift == 12 ? 21 : 12;
			snprintf(u->status, sizeof(u->status), "%s pages: the histogram starts afresh",
				 u->page_shift == 12 ? "4 KiB" : "2 MiB");
			return UI_ACT_HISTOGRAM;
		default:
			break;
		}
	}
	switch (key) {
	case 'h':
	case '?':
	case UI_KEY_F1:
		ui_enter_view(u, UI_VIEW_HELP);
		return 0;
	case 'e':
		ui_enter_view(u, UI_VIEW_ERRORS);
		return 0;
	case UI_KEY_UP:
		ui_move(u, l, -1);
		return 0;
	case UI_KEY_DOWN:
		ui_move(u, l, 1);
		return 0;
	case UI_KEY_PGUP:
		ui_move(u, l, -(long)(u->page ? u->page : 1));
		return 0;
	case UI_KEY_PGDN:
		ui_move(u, l, (long)(u->page ? u->page : 1));
		return 0;
	case UI_KEY_HOME:
		ui_move(u, l, -(long)l->n);
		return 0;
	case UI_KEY_END:
		ui_move(u, l, (long)l->n);
		return 0;
	case '<':
	case UI_KEY_LEFT:
		return ui_cycle_sort(u, m, -1);
	case '>':
	case UI_KEY_RIGHT:
	case UI_KEY_F6:
		return ui_cycle_sort(u, m, 1);
	case 'R':
	case 'I':
		u->reverse = !u->reverse;
		return UI_ACT_SORT;
	case 'C':
		return ui_sort_by(u, m, COL_CPI, "sorting by CPI");
	case 'P':
		return ui_sort_by(u, m, COL_CPU, "sorting by %CPU");
	case 'M':
		return ui_sort_by(u, m, COL_CACHE, "sorting by cache-miss %");
	case '/':
		ui_start_prompt(u, UI_PROMPT_SEARCH, "");
		return 0;
	case '\\':
		ui_start_prompt(u, UI_PROMPT_FILTER, u->filter);
		return 0;
	case 'u':
		ui_start_prompt(u, UI_PROMPT_USER, u->user);
		return 0;
	case 'd':
	case 's':
		ui_start_prompt(u, UI_PROMPT_DELAY, "");
		return 0;
	case 'H':
		u->threads = !u->threads;
		if (u->view == UI_VIEW_TABLE)
			u->sel_id = -1;
		return UI_ACT_THREADS;
	case 'c':
		u->cmdline = !u->cmdline;
		return 0;
	case '1':
		u->show_cpus = !u->show_cpus;
		return 0;
	case ' ':
	case 'Z':
	case 'z':
		u->paused = !u->paused;
		return 0;
	case UI_KEY_ENTER:
	case '\r':
		if (u->view == UI_VIEW_TABLE && l->n) {
			u->drill = l->v[u->sel]->tgid;
			u->view = UI_VIEW_DRILL;
			u->drill_mode = UI_DRILL_PAGES;
			u->sel_id = -1;
			u->top = 0;
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		return 0;
	case UI_KEY_ESC:
		if (u->view == UI_VIEW_DRILL) {
			u->view = UI_VIEW_TABLE;
			u->sel_id = u->drill;
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		if (u->filter[0] || u->user[0]) {
			/* Esc on the table clears the filters first, as in htop */
			u->filter[0] = '\0';
			u->user[0] = '\0';
		}
		return 0;
	default:
		if (key >= 0x20 && key < 0x7f)
			snprintf(u->status, sizeof(u->status), "unknown key '%c': press h for help",
				 key);
		return 0;
	}
}
