/* Layout maths: which columns fit a width, how the core meters fold. Pure functions. */
#ifndef PMCTOP_LAYOUT_H
#define PMCTOP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

struct layout_col {
	int id;	   /* the caller's column id */
	int width; /* cells, without the separating blank */
	int prio;  /* lower is dropped first when the width is short */
};

/*
 * Keep the columns of cand (in display order) that fit in width together
 * with a last column at least min_last wide, dropping the lowest priority
 * first. Writes the kept ids in display order to out; returns how many.
 */
size_t layout_fit(const struct layout_col *cand, size_t n, int width, int min_last, int *out);

struct layout_cores {
	int cols;   /* meters per line */
	int rows;   /* lines */
	int cell_w; /* width of one meter */
};

/*
 * Fold ncpus meters of at least min_w cells into width, using at most
 * max_rows lines. Returns 0, or -1 when they do not fit (hide the pane).
 */
int layout_cores(int ncpus, int width, int max_rows, int min_w, struct layout_cores *out);

#endif
