/* Sorting: by a column, the next or previous one, the sort menu (F6) and its drawing. */
#ifndef PMCTOP_VIEW_SORTMENU_H
#define PMCTOP_VIEW_SORTMENU_H

#include "view/view.h"

unsigned ui_sort_by(struct ui *u, const struct model *m, int col);

unsigned ui_cycle_sort(struct ui *u, const struct model *m, int dir);

/* F6: the sort menu opens on the column sorted by. */
void ui_sort_menu_open(struct ui *u, const struct model *m);

/* A key in the sort menu: move, Enter sorts by the entry (as its key would), Esc closes. */
unsigned ui_sort_menu_key(struct ui *u, int key, const struct model *m);

/* The sort menu (F6) over the left of the body, from line y: the columns, the highlighted lit. */
void view_sort_menu(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
