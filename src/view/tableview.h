/* The table of processes, threads, users or cgroups as drawn: titles, rows, the tree's guides. */
#ifndef PMCTOP_VIEW_TABLEVIEW_H
#define PMCTOP_VIEW_TABLEVIEW_H

#include "view/view.h"

/* The rows the list of the current view shows. */
enum col_rows view_list_rows(const struct ui *u);

int tableview_cell_attr(const struct column *c, double v, bool na);

/* Draw the list from y to y + h, from the first row the selection keeps on screen. */
void tableview_draw(struct canvas *c, int y, int h, const struct view_ctx *v, enum col_rows rows);

/* The cgroup view: its list, or why there is none. */
void tableview_cgroups(struct canvas *c, int y, int h, const struct view_ctx *v);

const struct model_row *tableview_find_row(const struct model *m, int pid);

#endif
