/* The list on screen: its rows after the filters, the tree, and the selection that keeps its line. */
#ifndef PMCTOP_VIEW_LIST_H
#define PMCTOP_VIEW_LIST_H

#include <stdbool.h>

#include "view/ui.h"

/* Whether the list's rows are threads (H, or the drill-down's threads). */
bool list_thread_rows(const struct ui *u);
/* The kind of rows the list on screen shows, for its layout and its titles. */
enum col_rows list_rows(const struct ui *u);
/* Move the selection by delta rows, within l; ends following a process. */
void list_move(struct ui *u, const struct ui_list *l, long delta);
/* A movement key (Up, Down, PgUp, PgDn, Home, End) on the list l. */
void list_move_key(struct ui *u, const struct ui_list *l, int key);
/* The row of process pid in m (borrowed: until m's next update); NULL when there is none. */
const struct model_row *list_find_process(const struct model *m, int pid);
/* The start time of process pid in m into *start; false, *start untouched, when m has none. */
bool list_process_start(const struct model *m, int pid, unsigned long long *start);
/* The cells text takes in the rest column, after the tree's guides of tp (NULL: no tree). */
int list_text_cells(const char *text, const struct ui_tree_pos *tp);
/* The cells of the longest text of l's rest column (name, command line, path, tree). */
int list_longest_text(const struct ui *u, const struct ui_list *l);

#endif
