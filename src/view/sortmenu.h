/* Sorting: by a column, the next or previous one, the sort menu (F6) and its drawing. */
#ifndef PMCTOP_VIEW_SORTMENU_H
#define PMCTOP_VIEW_SORTMENU_H

#include <stddef.h>

struct canvas;
struct model;
struct ui;
struct view_ctx;

/* The sort menu's part of struct ui. */
struct sortmenu_state {
	size_t sel; /* the highlighted entry */
};

/* Columns that can be sorted by in this mode, in table order; returns how many. */
size_t sortmenu_sortable(const struct model *m, int *out, size_t max);
/* The entries of the sort menu (F6) in the current view, in table order; returns how many. */
size_t sortmenu_entries(const struct ui *u, const struct model *m, int *out, size_t max);
/*
 * Sort by column col, or reverse the order when it is the one sorted by; the column is
 * scrolled into view. Returns UI_ACT_SORT, or 0 with the reason in status for a column with
 * no data in this mode.
 */
unsigned sortmenu_by(struct ui *u, const struct model *m, int col);
/* Sort by the previous (dir < 0) or next sortable column. Returns UI_ACT_SORT. */
unsigned sortmenu_cycle(struct ui *u, const struct model *m, int dir);
/* F6: open the sort menu on the column sorted by. */
void sortmenu_open(struct ui *u, const struct model *m);
/* A key in the sort menu: move, Enter sorts by the entry (as its key would), Esc closes. */
unsigned sortmenu_key(struct ui *u, int key, const struct model *m);
/* Draw the sort menu over the left of lines y .. y + h - 1: the columns, the highlighted lit. */
void sortmenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
