/* Where the table's columns are on screen at a horizontal scroll position. Pure. */
#ifndef PMCTOP_TABLE_H
#define PMCTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

#define TABLE_MAX_COLS MODEL_MAX_COLS
/* Cells the rest column's text moves per step once every column is in view (at most). */
#define TABLE_TEXT_STEP 16

/*
 * The columns of one table line. Horizontal scrolling goes by stops: from stop 0 (the fit by
 * priority) each Right scrolls columns off to the left, the first (PID) staying put, until
 * every column left fits; from there on each step moves the rest column's text (the command)
 * by text_step cells: TABLE_TEXT_STEP, less where the text has less room than that.
 */
struct table_layout {
	size_t n; /* columns before the rest column */
	int ids[TABLE_MAX_COLS];
	int x[TABLE_MAX_COLS]; /* first cell of each */
	int w[TABLE_MAX_COLS];
	int rest_id;	 /* the rest column, drawn after the others */
	int rest_x;	 /* its first cell */
	int text_off;	 /* cells of its text scrolled off to the left */
	int text_step;	 /* cells a step moves the text */
	bool more_left;	 /* scrolled: Left shows more */
	bool more_right; /* columns are hidden for width that Right brings into view */
	int last_col;	 /* the scroll position of the last column stop */
};

/* Lay out the table of m (its rows of kind rows) on width cells at scroll position hscroll. */
void table_layout(const struct model *m, int width, enum col_rows rows, int hscroll,
		  struct table_layout *t);
/* The column whose title or cells cover x: its id, the rest column's past rest_x, -1 between. */
int table_column_at(const struct table_layout *t, int x);
/* Whether column col is on screen in t. */
bool table_shows(const struct table_layout *t, int col);
/*
 * The scroll position nearest hscroll at which col is on screen: hscroll itself when it
 * already is; -1 when col does not fit this width at any position.
 */
int table_reveal(const struct model *m, int width, enum col_rows rows, int hscroll, int col);

#endif
