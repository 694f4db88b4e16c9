/* Sorting: by a column, the next or previous one, the sort menu (F6) and its drawing. */
#include "config.h"
#include "view/sortmenu.h"

#include <stdio.h>

#include "view/canvas.h"
#include "view/list.h"
#include "view/table.h"
#include "view/ui.h"
#include "view/view.h"

size_t sortmenu_sortable(const struct model *m, int *out, size_t max)
{
	return model_columns(m, out, max);
}

/* A sort column hidden for width is scrolled into view; one that cannot fit is named. */
static void sortmenu_reveal(struct ui *u, const struct model *m)
{
	int p = table_reveal(m, u->width, list_rows(u), u->hscroll, u->sort_col);

	if (p < 0 && u->sort_col < COL_MAX && !columns_choice_shown(&m->cols, u->sort_col)) {
		snprintf(u->status, sizeof(u->status),
			 "sorted by %s, a column hidden in the setup (F2 shows it again)",
			 model_column_title(m, u->sort_col, list_rows(u)));
		return;
	}
	if (p >= 0) {
		u->hscroll = p;
		return;
	}
	snprintf(u->status, sizeof(u->status),
		 "sorted by %s, which does not fit %d columns: widen the terminal to see it",
		 model_column_title(m, u->sort_col, list_rows(u)), u->width);
}

unsigned sortmenu_by(struct ui *u, const struct model *m, int col)
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
	sortmenu_reveal(u, m);
	return UI_ACT_SORT;
}

size_t sortmenu_entries(const struct ui *u, const struct model *m, int *out, size_t max)
{
	size_t n = sortmenu_sortable(m, out, max), k = 0;

	if (u->view != UI_VIEW_CGROUPS)
		return n;
	/* cgroups are sorted by their own columns only */
	for (size_t i = 0; i < n; i++)
		if (columns_on_rows(model_column(m, out[i]), COL_ROWS_CGROUPS))
			out[k++] = out[i];
	return k;
}

unsigned sortmenu_cycle(struct ui *u, const struct model *m, int dir)
{
	int cols[COL_MAX + 64];
	size_t n = sortmenu_entries(u, m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t i;

	for (i = 0; i < n && cols[i] != u->sort_col; i++)
		;
	if (i == n)
		i = 0;
	else
		i = (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	u->sort_col = cols[i];
	u->reverse = false;
	sortmenu_reveal(u, m);
	return UI_ACT_SORT;
}

/* F6: the sort menu opens on the column sorted by. */
void sortmenu_open(struct ui *u, const struct model *m)
{
	int cols[COL_MAX + 64];
	size_t n = sortmenu_entries(u, m, cols, sizeof(cols) / sizeof(cols[0]));

	u->sort.sel = 0;
	for (size_t i = 0; i < n; i++)
		if (cols[i] == u->sort_col)
			u->sort.sel = i;
	u->input.prompt = UI_PROMPT_SORT;
}

/* A key in the sort menu: move, Enter sorts by the entry (as its key would), Esc closes. */
unsigned sortmenu_key(struct ui *u, int key, const struct model *m)
{
	int cols[COL_MAX + 64];
	size_t n = sortmenu_entries(u, m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t page = u->page ? u->page : 1;

	if (!n) {
		u->input.prompt = UI_PROMPT_NONE;
		return 0;
	}
	if (u->sort.sel >= n)
		u->sort.sel = n - 1;
	switch (key) {
	case UI_KEY_ESC:
	case UI_KEY_F6:
	case UI_KEY_F10:
	case 'q':
		u->input.prompt = UI_PROMPT_NONE;
		return 0;
	case UI_KEY_ENTER:
	case '\r':
		u->input.prompt = UI_PROMPT_NONE;
		if (cols[u->sort.sel] == u->sort_col)
			return 0; /* the order stays: R reverses it */
		u->sort_col = cols[u->sort.sel];
		u->reverse = false;
		sortmenu_reveal(u, m);
		return UI_ACT_SORT;
	default:
		u->sort.sel = list_step(u->sort.sel, n, page, key);
		return 0;
	}
}

/* The sort menu (F6) over the left of the body, from line y: the columns, the highlighted lit. */
void sortmenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	int cols[COL_MAX + 64];
	const struct ui *u = v->u;
	size_t n = sortmenu_entries(u, v->m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t rows = h > 1 ? (size_t)h - 1 : 0, top;
	const int w = 18;

	if (!rows)
		return;
	/* a menu longer than the screen scrolls with its highlight */
	top = u->sort.sel >= rows ? u->sort.sel - rows + 1 : 0;
	canvas_fill(c, y, 0, w, ' ', CANVAS_TITLE);
	canvas_put(c, 0, y, "Sort by", CANVAS_TITLE, w);
	for (size_t i = top; i < n && i - top < rows; i++) {
		int row = y + 1 + (int)(i - top);

		canvas_fill(c, row, 0, w, ' ', CANVAS_NORMAL);
		canvas_printf(c, 0, row, CANVAS_NORMAL, w, " %s%s",
			      model_column_title(v->m, cols[i], list_rows(u)),
			      cols[i] == u->sort_col ? (u->reverse ? " (rev)" : " *") : "");
		canvas_attr(c, row, 0, w, i == u->sort.sel ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
}
