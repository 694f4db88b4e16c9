/* The process table's columns on screen: fit by priority, scrolled by stops, hit by the mouse. */
#include "config.h"
#include "view/table.h"

#include <stdlib.h>
#include <string.h>

#include "view/layout.h"

/* The first column (PID or TID) stays when the others scroll: it names the row. */
#define TABLE_PINNED 1

/* The candidate columns of the table, and the rest column's id and least width. */
static size_t table_candidates(const struct model *m, enum col_rows rows, struct layout_col *cand,
			       int *rest_id, int *min_last)
{
	int ids[TABLE_MAX_COLS];
	size_t n = model_columns(m, ids, TABLE_MAX_COLS), nc = 0;

	*rest_id = COL_COMMAND;
	*min_last = 0;
	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, ids[i]);

		/* a cgroup or a user row has some columns only */
		if (!columns_on_rows(col, rows))
			continue;
		/* the rest column is drawn after the others, in what is left of the line */
		if (col->rest) {
			*rest_id = ids[i];
			*min_last = col->width;
			continue;
		}
		cand[nc++] = (struct layout_col){
			.id = ids[i],
			.width = model_column_width(m, ids[i], rows),
			.prio = col->prio,
		};
	}
	return nc;
}

void table_layout(const struct model *m, int width, enum col_rows rows, int hscroll,
		  struct table_layout *t)
{
	struct layout_col cand[TABLE_MAX_COLS];
	size_t stops[TABLE_MAX_COLS + 1], nstops, stop;
	int min_last, x = 0;
	size_t nc = table_candidates(m, rows, cand, &t->rest_id, &min_last);
	bool dropped;

	nstops = layout_scroll_stops(cand, nc, TABLE_PINNED, width, min_last, stops,
				     sizeof(stops) / sizeof(stops[0]));
	if (hscroll < 0)
		hscroll = 0;
	stop = (size_t)hscroll < nstops ? (size_t)hscroll : nstops - 1;
	t->n = layout_scroll(cand, nc, TABLE_PINNED, stops[stop], width, min_last, t->ids,
			     &dropped);
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < nc; k++)
			if (cand[k].id == t->ids[i])
				t->w[i] = cand[k].width;
		t->x[i] = x;
		x += t->w[i] + 1;
	}
	t->rest_x = x;
	t->last_col = (int)nstops - 1;
	/* a step never moves more than half the room: text is not skipped unseen */
	t->text_step = width - x >= 2 * TABLE_TEXT_STEP ? TABLE_TEXT_STEP
		       : width - x >= 2			? (width - x) / 2
							: 1;
	t->text_off = hscroll > t->last_col ? (hscroll - t->last_col) * t->text_step : 0;
	t->more_left = hscroll > 0;
	t->more_right = stop + 1 < nstops;
}

int table_column_at(const struct table_layout *t, int x)
{
	if (x < 0)
		return -1;
	if (x >= t->rest_x)
		return t->rest_id;
	for (size_t i = 0; i < t->n; i++)
		if (x >= t->x[i] && x < t->x[i] + t->w[i])
			return t->ids[i];
	return -1;
}

bool table_shows(const struct table_layout *t, int col)
{
	if (col == t->rest_id)
		return true;
	for (size_t i = 0; i < t->n; i++)
		if (t->ids[i] == col)
			return true;
	return false;
}

int table_reveal(const struct model *m, int width, enum col_rows rows, int hscroll, int col)
{
	struct table_layout t;
	int best = -1;

	table_layout(m, width, rows, hscroll, &t);
	if (table_shows(&t, col))
		return hscroll;
	/* the nearest column stop that shows it; text steps show the columns of the last stop */
	for (int p = 0; p <= t.last_col; p++) {
		struct table_layout at;

		table_layout(m, width, rows, p, &at);
		if (!table_shows(&at, col))
			continue;
		if (best < 0 || abs(p - hscroll) < abs(best - hscroll))
			best = p;
	}
	return best;
}
