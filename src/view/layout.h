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

/*
 * The same at horizontal scroll position pos. The first pinned columns of cand stay put.
 * Position 0 is layout_fit's fit by priority. Position p > 0 scrolls the p - 1 columns after
 * the pinned ones off to the left and keeps the next one whatever its priority, so that every
 * column comes into view at some position; the rest are fit as layout_fit fits them. Writes
 * the kept ids in display order to out and returns how many; *dropped tells whether some
 * column not scrolled off was left out for width.
 */
size_t layout_scroll(const struct layout_col *cand, size_t n, size_t pinned, size_t pos, int width,
		     int min_last, int *out, bool *dropped);
/*
 * The scroll positions worth stopping at, in order: 0, then each position whose columns differ
 * from those of the stop before, up to the first at which nothing is dropped for width (the
 * last stop). Writes at most max positions to stops (max >= 1) and returns how many.
 */
size_t layout_scroll_stops(const struct layout_col *cand, size_t n, size_t pinned, int width,
			   int min_last, size_t *stops, size_t max);

/* A field of a header line: a piece of text dropped whole, never cut, when the line is short. */
struct layout_field {
	int cells;	 /* its text's */
	int short_cells; /* a shorter form's; 0 for none */
	int prio;	 /* lower gives way first; LAYOUT_KEEP never does */
};
#define LAYOUT_KEEP 1000

/*
 * Which fields of a line (in display order) fit width: while they do not, the
 * lowest priority (of equals, the rightmost) takes its shorter form where it has
 * one, else is dropped; a LAYOUT_KEEP field stays. Then, highest priority first,
 * a field that gave way takes back its text or short form where the room left
 * allows. choice[i] gets 0 (dropped), 1 (its text) or 2 (its shorter form). Returns the cells of what is kept, which is
 * wider than width only when the LAYOUT_KEEP fields alone are.
 */
int layout_fields(const struct layout_field *f, size_t n, int width, int *choice);

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
