/* An in-memory grid of cells with abstract attributes; views draw here, tui.c shows it. */
#ifndef PMCTOP_CANVAS_H
#define PMCTOP_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum canvas_attr {
	CANVAS_NORMAL = 0,
	CANVAS_HEADER,	   /* header text */
	CANVAS_LABEL,	   /* header labels */
	CANVAS_TITLE,	   /* column titles */
	CANVAS_TITLE_SORT, /* the sort column's title */
	CANVAS_SELECTED,   /* the highlighted row */
	CANVAS_DIM,	   /* "-", "n/a", not counted */
	CANVAS_GOOD,
	CANVAS_WARN,
	CANVAS_HOT,	/* bad values: low IPC, high miss ratios */
	CANVAS_BAR,	/* meter bars */
	CANVAS_KEY,	/* footer keys */
	CANVAS_KEYTEXT, /* footer descriptions */
	CANVAS_ERROR,	/* messages that need attention */
	CANVAS_TAGGED,	/* rows tagged for a signal or nice value */
	CANVAS_ATTR_MAX
};

/* The right half of a wide character: the cell before holds the character. */
#define CANVAS_WIDE_TAIL 0xffffffffu

struct canvas_cell {
	uint32_t ch; /* Unicode code point; 0 is a blank; CANVAS_WIDE_TAIL (see above) */
	uint8_t attr;
};

struct canvas {
	int w, h;
	/* the reader's terminal is not UTF-8: text keeps no byte >= 0x80 (TEXTSAFE_ASCII) */
	bool ascii;
	struct canvas_cell *cells;
};

/* A blank canvas of w x h (both at least 1). Never NULL. */
struct canvas *canvas_new(int w, int h);
void canvas_free(struct canvas *c);
/* Blank every cell. */
void canvas_clear(struct canvas *c);
/*
 * Write UTF-8 text at x, y in attr, clipped to the canvas and to maxw cells (maxw < 0: no
 * limit), through textsafe_escape first: each invalid byte and unsafe character (controls, C1,
 * bidi) shows as '?', and so does each byte >= 0x80 on an ascii canvas. A character takes the
 * cells wcwidth gives it, and is never cut: a wide one that does not fit whole is left out;
 * characters the locale cannot show (all but ASCII under LANG=C) are '?', one cell each. A
 * character written over half of a wide one blanks its other half. Returns the cells written.
 */
int canvas_put(struct canvas *c, int x, int y, const char *text, int attr, int maxw);
/* The cells canvas_put takes for text, unclipped: what a caller measures before drawing. */
int canvas_cells(const char *text);
/*
 * The first character of s (n >= 1 bytes) as canvas_put draws it: the code point into *cp ('?'
 * for what cannot be shown), the bytes it takes into *len (1 for an invalid byte); returns its
 * cells, 1 or 2.
 */
int canvas_glyph(const char *s, size_t n, size_t *len, uint32_t *cp);
/* printf into the canvas; same clipping as canvas_put. */
int canvas_printf(struct canvas *c, int x, int y, int attr, int maxw, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Set the attribute of cells x0..x1-1 on row y (blanks included). */
void canvas_attr(struct canvas *c, int y, int x0, int x1, int attr);
/* Fill cells x0..x1-1 on row y with code point ch. */
void canvas_fill(struct canvas *c, int y, int x0, int x1, uint32_t ch, int attr);
/* The cell at x, y, or NULL outside. */
const struct canvas_cell *canvas_at(const struct canvas *c, int x, int y);
/* Write the text of row y as UTF-8 into buf, trailing blanks dropped. */
size_t canvas_row_text(const struct canvas *c, int y, char *buf, size_t size);
/* Dump every row as text lines (for tests and golden files). */
void canvas_dump(const struct canvas *c, FILE *f);

#endif
