/* The list on screen: its rows after the filters, the tree, and the selection that keeps its line. */
#ifndef PMCTOP_VIEW_LIST_H
#define PMCTOP_VIEW_LIST_H

#include "view/ui.h"

void list_move(struct ui *u, const struct ui_list *l, long delta);

/* Whether the table's rows are threads. */
bool list_thread_rows(const struct ui *u);

/* The kind of rows the list on screen shows, for its layout. */
enum col_rows list_rows(const struct ui *u);

void list_move_key(struct ui *u, const struct ui_list *l, int key);

/* The start time of process pid in m; false when m has no such process. */
bool list_process_start(const struct model *m, int pid, unsigned long long *start);

#endif
