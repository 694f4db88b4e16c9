/* The table of processes, threads, users or cgroups as drawn: titles, rows, the tree's guides. */
#include "config.h"
#include "view/tableview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"
#include "model/metrics.h"
#include "view/canvas.h"
#include "view/list.h"
#include "view/table.h"
#include "view/ui.h"
#include "view/view.h"

/* The value of a numeric cell and whether its counter did not run. */
static double tableview_value(const struct model *m, const struct model_row *r, int id, bool *na)
{
	if (id >= COL_MAX) {
		size_t k = (size_t)(id - COL_MAX);

		*na = r->raw_fl[k] & MODEL_F_NA;
		return model_event_rate(m, r, k);
	}
	*na = r->na & (1u << id);
	return r->v[id];
}

int tableview_cell_attr(const struct column *c, double v, bool na)
{
	if (na || isnan(v))
		return CANVAS_DIM;
	switch (columns_severity(c, v)) {
	case METRICS_SEV_GOOD:
		return CANVAS_GOOD;
	case METRICS_SEV_WARN:
		return CANVAS_WARN;
	case METRICS_SEV_BAD:
		return CANVAS_HOT;
	default:
		return CANVAS_NORMAL;
	}
}

static void tableview_titles(struct canvas *c, int y, const struct model *m,
			     const struct table_layout *t, enum col_rows rows, const struct ui *u)
{
	const struct column *rest = model_column(m, t->rest_id);

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	for (size_t i = 0; i < t->n; i++) {
		const struct column *col = model_column(m, t->ids[i]);
		int w = t->w[i];
		char title[64];
		int attr = t->ids[i] == u->sort_col ? CANVAS_TITLE_SORT : CANVAS_TITLE;

		model_column_head(m, t->ids[i], rows, title, sizeof(title));
		canvas_printf(c, t->x[i], y, attr, w, col->left ? "%-*.*s" : "%*.*s", w, w, title);
	}
	canvas_put(c, t->rest_x, y,
		   u->cmdline && rest->cmdline_title && rows != COL_ROWS_CGROUPS
			   ? rest->cmdline_title
			   : columns_title(rest, rows),
		   u->sort_col == t->rest_id ? CANVAS_TITLE_SORT : CANVAS_TITLE, -1);
	/* what Left and Right would bring into view */
	if (t->more_left)
		canvas_put(c, 0, y, "<", CANVAS_TITLE_SORT, 1);
	if (t->more_right)
		canvas_put(c, c->w - 1, y, ">", CANVAS_TITLE_SORT, 1);
}

/*
 * Draw text from x on, its first *skip cells left out (and taken off *skip); returns the cells.
 * A wide character the skip cuts in two shows its visible half as a blank.
 */
static int tableview_put_skip(struct canvas *c, int x, int y, const char *text, int attr, int *skip)
{
	size_t n = strlen(text);
	int pad = 0;

	while (n && *skip > 0) {
		size_t len;
		uint32_t cp;
		int w = canvas_glyph(text, n, &len, &cp);

		pad = w > *skip ? w - *skip : 0;
		*skip = w > *skip ? 0 : *skip - w;
		text += len;
		n -= len;
	}
	if (pad)
		canvas_put(c, x, y, " ", attr, 1);
	return pad + canvas_put(c, x + pad, y, text, attr, -1);
}

/* The tree's guides before a row's name: a bar for each ancestor with siblings still to come. */
static int tableview_tree_prefix(struct canvas *c, int x, int y, const struct ui_tree_pos *tp,
				 bool utf8, int *skip)
{
	unsigned depth = tp->depth < 32 ? tp->depth : 31;
	int used = 0;

	for (unsigned d = 1; d <= depth; d++) {
		bool more = tp->more & (1u << d);
		const char *g = d < depth ? (more ? (utf8 ? "\u2502  " : "|  ") : "   ")
					  : (more ? (utf8 ? "\u251c\u2500 " : "|- ")
						  : (utf8 ? "\u2514\u2500 " : "`- "));

		used += tableview_put_skip(c, x + used, y, g, CANVAS_DIM, skip);
	}
	return used;
}

struct tableview_style {
	enum col_rows rows; /* processes, threads, users or cgroups */
	bool cmdline, selected, tagged, utf8;
	const struct ui_tree_pos *tree; /* NULL outside the tree view */
};

static void tableview_row(struct canvas *c, int y, const struct model *m, const struct model_row *r,
			  const struct table_layout *t, const struct tableview_style *st)
{
	int x, skip = t->text_off;
	const char *text;

	for (size_t i = 0; i < t->n; i++) {
		const struct column *col = model_column(m, t->ids[i]);
		int w = t->w[i];
		char cell[48], buf[64];
		int attr = CANVAS_NORMAL;

		if (col->type == COL_TYPE_NUM && !col->proc && r->err) {
			snprintf(cell, sizeof(cell), "-");
			attr = CANVAS_DIM;
		} else {
			model_format_cell(m, r, t->ids[i], st->rows, w, cell, sizeof(cell));
			if (col->type == COL_TYPE_NUM) {
				bool na;
				double v = tableview_value(m, r, t->ids[i], &na);

				attr = tableview_cell_attr(col, v, na);
			}
		}
		if (col->left)
			snprintf(buf, sizeof(buf), "%-*.*s", w, w, cell);
		else
			snprintf(buf, sizeof(buf), "%*s", w, cell);
		canvas_put(c, t->x[i], y, buf, attr, w);
	}
	x = t->rest_x;
	if (st->tree)
		x += tableview_tree_prefix(c, x, y, st->tree, st->utf8, &skip);
	text = st->cmdline && r->cmdline[0] ? r->cmdline : r->comm;
	x += tableview_put_skip(c, x, y, text, CANVAS_NORMAL, &skip);
	/* the text goes on past the edge: '>' says so, as '<' says it was scrolled */
	if (x - t->rest_x + t->text_off < list_text_cells(text, st->tree))
		canvas_put(c, c->w - 1, y, ">", CANVAS_DIM, 1);
	if (t->text_off > 0 && list_text_cells(text, st->tree) > 0)
		canvas_put(c, t->rest_x, y, "<", CANVAS_DIM, 1);
	if (r->err)
		canvas_printf(c, x, y, CANVAS_DIM, -1, " [not counted: %s]", errmsg_short(r->err));
	if (st->tagged) {
		const struct canvas_cell *first = canvas_at(c, 0, y);

		canvas_attr(c, y, 0, c->w, CANVAS_TAGGED);
		/* the mark takes the blank before a PID; a pid of seven digits keeps the colour */
		if (first && (!first->ch || first->ch == ' '))
			canvas_put(c, 0, y, "*", CANVAS_TAGGED, 1);
	}
	if (st->selected)
		canvas_attr(c, y, 0, c->w, CANVAS_SELECTED);
}

/* Draw the list from y to y + h, from the first row the selection keeps on screen. */
void tableview_draw(struct canvas *c, int y, int h, const struct view_ctx *v, enum col_rows rows)
{
	struct table_layout t;
	const struct ui *u = v->u;

	if (h < 1)
		return;
	table_layout(v->m, c->w, rows, u->hscroll, &t);
	/* the last step of the text stops where the longest one ends at the edge, not past */
	if (t.text_off > 0) {
		int end = list_longest_text(u, v->list) - (c->w - t.rest_x);

		if (t.text_off > end)
			t.text_off = end > 0 ? end : 0;
	}
	tableview_titles(c, y, v->m, &t, rows, u);
	for (size_t i = u->top; i < v->list->n && (int)(i - u->top) < h - 1; i++) {
		const struct tableview_style st = {
			.rows = rows,
			/* a cgroup's rest column is its path, kept in the command line */
			.cmdline = u->cmdline || rows == COL_ROWS_CGROUPS,
			.selected = i == u->sel,
			/* a user's row carries a uid, which a tagged pid may equal */
			.tagged = u->view == UI_VIEW_TABLE && !u->per_user &&
				  tags_has(u, v->list->v[i]->id),
			.utf8 = v->utf8,
			.tree = v->list->is_tree ? &v->list->tree[i] : NULL,
		};

		tableview_row(c, y + 1 + (int)(i - u->top), v->m, v->list->v[i], &t, &st);
	}
}

/* The cgroup view: its list, or why there is none. */
void tableview_cgroups(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;

	if (h < 2)
		return;
	if (!m->have_cgroups) {
		canvas_put(c, 0, y + 1,
			   v->replay ? "this recording has no cgroup rows"
				     : "cgroups are not counted here (e: log says why)",
			   CANVAS_DIM, -1);
		return;
	}
	tableview_draw(c, y, h, v, COL_ROWS_CGROUPS);
	if (!m->ncgroups)
		canvas_put(c, 0, y + 2,
			   "no cgroups at this depth of the hierarchy (see --cgroup-depth and "
			   "--cgroup)",
			   CANVAS_DIM, -1);
}
