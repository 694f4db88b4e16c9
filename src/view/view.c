/* The screen as a whole: the layout, which screen is drawn where, the legend and the footer. */
#include "config.h"
#include "view/view.h"

#include <string.h>

#include "view/canvas.h"
#include "view/drill.h"
#include "view/fields.h"
#include "view/header.h"
#include "view/layout.h"
#include "view/list.h"
#include "view/pager.h"
#include "view/setup.h"
#include "view/sigmenu.h"
#include "view/sortmenu.h"
#include "view/tableview.h"
#include "view/usermenu.h"

static void view_footer(struct canvas *c, const struct view_ctx *v)
{
	static const char *const LABEL[] = {
		[UI_PROMPT_SEARCH] = "Search: ",
		[UI_PROMPT_FILTER] = "Filter: ",
		[UI_PROMPT_USER] = "User: ",
		[UI_PROMPT_DELAY] = "Delay (seconds): ",
		[UI_PROMPT_TIME] = "Go to (HH:MM:SS or +seconds): ",
		[UI_PROMPT_SIGNAL] = "Signal: ",
		[UI_PROMPT_CONFIRM] = "",
		[UI_PROMPT_SORT] = "Sort: ",
	};
	const struct ui *u = v->u;
	int y = c->h - 1, x = 0;
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);

	/* a question or a status line too long for the screen ends at a word, a number whole */
	if (u->input.prompt == UI_PROMPT_CONFIRM) {
		fields_put_words(c, 0, y, u->sig.ask, CANVAS_ERROR, c->w);
		return;
	}
	if (u->input.prompt == UI_PROMPT_SIGNAL) {
		x = canvas_put(c, 0, y, LABEL[u->input.prompt], CANVAS_KEY, -1);
		if (u->sig.typed)
			x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, "%d ", u->sig.typed);
		canvas_put(c, x, y, "Up/Down, a number or a letter; Enter: choose; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->input.prompt == UI_PROMPT_SORT) {
		x = canvas_put(c, 0, y, LABEL[u->input.prompt], CANVAS_KEY, -1);
		canvas_put(c, x, y, "Up/Down; Enter: sort by the column; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->input.prompt == UI_PROMPT_USER) {
		x = canvas_put(c, 0, y, LABEL[u->input.prompt], CANVAS_KEY, -1);
		canvas_put(c, x, y, "Up/Down; Enter: show the user's processes; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->input.prompt != UI_PROMPT_NONE) {
		const char *text = u->input.line.text;
		int cells = prompt_cells(&u->input.line);

		x = canvas_put(c, 0, y, LABEL[u->input.prompt], CANVAS_KEY, -1);
		/* text longer than the line shows its end, where the cursor is, whole characters */
		while (*text && x + cells + 1 > c->w) {
			text++;
			while ((*text & 0xc0) == 0x80)
				text++;
			cells = canvas_cells(text);
		}
		x += canvas_put(c, x, y, text, CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, "_", CANVAS_SELECTED, -1);
		if (u->input.prompt == UI_PROMPT_SEARCH && u->input.search_miss && x + 9 <= c->w)
			canvas_put(c, x + 1, y, "no match", CANVAS_ERROR, -1);
		return;
	}
	if (u->status[0]) {
		fields_put_words(c, 0, y, u->status, CANVAS_ERROR, c->w);
		return;
	}
	for (size_t i = 0; i < n && x < c->w; i++) {
		if (!(b[i].footer_in & UI_IN(u->view)))
			continue;
		/* a key and its word whole, or neither */
		if (x + (int)strlen(b[i].footer_key) + (int)strlen(b[i].footer) > c->w)
			break;
		x += canvas_put(c, x, y, b[i].footer_key, CANVAS_KEY, -1);
		x += canvas_printf(c, x, y, CANVAS_KEYTEXT, -1, "%-*s",
				   (int)strlen(b[i].footer) + 1, b[i].footer);
	}
	canvas_fill(c, y, x, c->w, ' ', CANVAS_KEYTEXT);
}

/*
 * Lines the legend of the short -e titles takes above the footer: one where a
 * table of rows with event columns shows and an event's name is too long for
 * its title, on a screen tall enough to spare it; else 0.
 */
static int view_legend_lines(const struct view_ctx *v, int h)
{
	const struct ui *u = v->u;
	bool table = u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS ||
		     (u->view == UI_VIEW_DRILL && u->drill.mode == UI_DRILL_THREADS);

	if (!v->have_frame || !table || h < header_lines(v) + 8)
		return 0;
	for (size_t k = 0; k < v->m->nraw; k++)
		if (model_event_short(v->m, k))
			return 1;
	return 0;
}

/*
 * The legend on line y: "e1/s = NAME" for each short title, whole entries
 * while they fit, then how many did not (the events screen, E, has them all).
 */
static void view_legend(struct canvas *c, int y, const struct view_ctx *v)
{
	const struct model *m = v->m;
	size_t left = 0;
	int x = 0;

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_NORMAL);
	for (size_t k = 0; k < m->nraw; k++) {
		char head[64];
		const char *name = model_column_title(m, COL_MAX + (int)k, COL_ROWS_PROCESSES);
		int need;

		if (!model_event_short(m, k))
			continue;
		model_column_head(m, COL_MAX + (int)k, COL_ROWS_PROCESSES, head, sizeof(head));
		need = (x ? 2 : 0) + (int)strlen(head) + 3 + canvas_cells(name);
		/* the first entry is drawn as far as it goes: a title is never left unexplained */
		if (x && x + need > c->w - 12) {
			left++;
			continue;
		}
		x += canvas_put(c, x, y, x ? "  " : "", CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, head, CANVAS_LABEL, -1);
		x += canvas_put(c, x, y, " = ", CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, name, CANVAS_NORMAL, -1);
	}
	if (left)
		canvas_printf(c, x, y, CANVAS_DIM, -1, "  +%zu more (E)", left);
}

/* The page of the current view, and the line of the list's titles (-1 when no list shows). */
static size_t view_geometry(const struct view_ctx *v, int w, int h, bool *list, int *list_y)
{
	const struct ui *u = v->u;
	int body = h - header_lines(v) - 1, y = header_lines(v);
	struct layout_cores lc;

	*list = false;
	*list_y = -1;
	if (UI_IN(u->view) & UI_IN_PAGERS) {
		/* the lines a pager shows: below its title line, and the log's blank line */
		body -= u->view == UI_VIEW_ERRORS ? 3 : 1;
		return body > 1 ? (size_t)body : 1;
	}
	body -= view_legend_lines(v, h);
	if (!v->have_frame || u->view == UI_VIEW_SETUP)
		return 0;
	if (u->show_cpus && (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS)) {
		int used = header_cores_fit(v->m, w, body, &lc);

		body -= used;
		y += used;
	}
	if (u->view == UI_VIEW_DRILL) {
		bool ips;
		int rows = drill_pages_rows(body - DRILL_LINES - DRILL_SAMPLE_LINES, &ips);

		/* the hot pages page by their rows, but are no list of processes */
		if (u->drill.mode == UI_DRILL_PAGES && body >= 3)
			return rows > 0 ? (size_t)rows : 0;
		if (body < 3 || u->drill.mode != UI_DRILL_THREADS)
			return 0;
		body -= DRILL_LINES;
		y += DRILL_LINES;
	}
	if (body < 1)
		return 0;
	*list = true;
	*list_y = y;
	return body > 1 ? (size_t)(body - 1) : 1;
}

size_t view_page(const struct view_ctx *v, int w, int h, bool *list)
{
	int list_y;

	return view_geometry(v, w, h, list, &list_y);
}

int view_list_y(const struct view_ctx *v, int w, int h)
{
	bool list;
	int list_y;

	view_geometry(v, w, h, &list, &list_y);
	return list_y;
}

void view_render(struct canvas *c, const struct view_ctx *v)
{
	const struct ui *u = v->u;
	int y, body;

	canvas_clear(c);
	y = header_draw(c, v);
	body = c->h - y - 1;
	if (view_legend_lines(v, c->h)) {
		body--;
		view_legend(c, c->h - 2, v);
	}
	if (u->view == UI_VIEW_HELP) {
		pager_help(c, y + 1, body - 1, u->pager.scroll);
	} else if (u->view == UI_VIEW_ERRORS) {
		pager_log(c, y + 1, body - 1, v);
	} else if (u->view == UI_VIEW_EVENTS) {
		pager_events(c, y + 1, body - 1, v);
	} else if (u->view == UI_VIEW_SETUP) {
		setup_draw(c, y + 1, body - 1, v);
	} else if (!v->have_frame) {
		canvas_put(c, 0, y + 1, "collecting the first interval...", CANVAS_DIM, -1);
	} else {
		if (u->show_cpus && (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS)) {
			int used = header_cores(c, y, body, v);

			y += used;
			body -= used;
		}
		if (u->view == UI_VIEW_DRILL)
			drill_draw(c, y, body, v);
		else if (u->view == UI_VIEW_CGROUPS)
			tableview_cgroups(c, y, body, v);
		else
			tableview_draw(c, y, body, v, list_rows(u));
	}
	if (u->input.prompt == UI_PROMPT_SIGNAL || u->input.prompt == UI_PROMPT_CONFIRM) {
		/* over the list from its titles down, else under the header */
		int my = view_list_y(v, c->w, c->h);

		if (my < 0)
			my = header_lines(v);
		sigmenu_draw(c, my, c->h - my - 1, u);
	}
	if (u->input.prompt == UI_PROMPT_SORT || u->input.prompt == UI_PROMPT_USER) {
		int my = view_list_y(v, c->w, c->h);

		if (my < 0)
			my = header_lines(v);
		if (u->input.prompt == UI_PROMPT_SORT)
			sortmenu_draw(c, my, c->h - my - 1, v);
		else
			usermenu_draw(c, my, c->h - my - 1, v);
	}
	view_footer(c, v);
}
