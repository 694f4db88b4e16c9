/* The table of processes, threads, users or cgroups as drawn: titles, rows, the tree's guides. */
#ifndef PMCTOP_VIEW_TABLEVIEW_H
#define PMCTOP_VIEW_TABLEVIEW_H

#include <stdbool.h>

#include "view/view.h"

/* The attribute of a numeric cell of column c holding v: its severity's colour, DIM for n/a. */
int tableview_cell_attr(const struct column *c, double v, bool na);
/* Draw v->list's rows of kind rows on lines y .. y + h - 1: titles, then from u->top on. */
void tableview_draw(struct canvas *c, int y, int h, const struct view_ctx *v, enum col_rows rows);
/* Draw the cgroup view on lines y .. y + h - 1: its list, or why there is none. */
void tableview_cgroups(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
