/* Sorting: by a column, the next or previous one, the sort menu (F6) and its drawing. */
#ifndef PMCTOP_VIEW_SORTMENU_H
#define PMCTOP_VIEW_SORTMENU_H

#include "view/view.h"

unsigned sortmenu_by(struct ui *u, const struct model *m, int col);

unsigned sortmenu_cycle(struct ui *u, const struct model *m, int dir);

/* F6: the sort menu opens on the column sorted by. */
void sortmenu_open(struct ui *u, const struct model *m);

/* A key in the sort menu: move, Enter sorts by the entry (as its key would), Esc closes. */
unsigned sortmenu_key(struct ui *u, int key, const struct model *m);

/* The sort menu (F6) over the left of the body, from line y: the columns, the highlighted lit. */
void sortmenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
