/* The list on screen: its rows after the filters, the tree, and the selection that keeps its line. */
#ifndef PMCTOP_VIEW_LIST_H
#define PMCTOP_VIEW_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct ui;

/* A row's place in the tree view. */
struct ui_tree_pos {
	unsigned depth; /* 0 for a process whose parent is not listed */
	uint32_t more;	/* bit d: at depth d (its own and its ancestors') later siblings follow */
};

/* The rows a view lists, after the interactive filters. */
struct ui_list {
	const struct model_row **v;
	size_t n, cap;
	struct ui_tree_pos *tree; /* one per row in the tree view, else unused */
	size_t tcap;
	bool is_tree;		  /* the rows are in tree order and tree is filled */
	struct model_users users; /* the per-user rows v points to, in the per-user view */
};

/* Build the visible list for the current view from m (pointers into m). */
void list_build(const struct ui *u, const struct model *m, struct ui_list *l);
void list_release(struct ui_list *l);
/*
 * After rows moved: the selection keeps its line and the rows move under it, as in htop,
 * unless F follows a process or a key just chose one (sel_pin); fix scrolling.
 */
void list_sync(struct ui *u, const struct ui_list *l);
/* Take the page size of the layout (0 keeps it); with a list on screen, sync the selection. */
void list_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list);
/* Take the screen's width and the line of the list's titles (-1: no list on screen). */
void list_set_screen(struct ui *u, int width, int list_y);
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
/*
 * The entry a movement key (Up, Down, PgUp, PgDn, Home, End) takes the highlight of a menu or
 * pane of n entries to from sel, page entries a page; sel for any other key, or when n is 0.
 */
size_t list_step(size_t sel, size_t n, size_t page, int key);

#endif
