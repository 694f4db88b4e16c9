/* A line of fields, each drawn whole or left out where the line is short. */
#ifndef PMCTOP_VIEW_FIELDS_H
#define PMCTOP_VIEW_FIELDS_H

#include <stddef.h>

#include "view/canvas.h"
#include "view/layout.h"

/*
 * A header line as fields, each drawn whole or left out where the line is short
 * (layout_fields): a narrow screen never shows part of a number.
 */
#define FIELDS_MAX 16
struct fields {
	size_t n;
	struct layout_field lay[FIELDS_MAX];
	int attr[FIELDS_MAX];
	char text[FIELDS_MAX][1100];
	char shorter[FIELDS_MAX][96];
};

/* Add a field of priority prio (LAYOUT_KEEP: always there); returns its index. */
size_t fields_add(struct fields *f, int prio, int attr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The shorter form field i takes before it is dropped. */
void fields_short(struct fields *f, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Text in at most room cells: whole, else up to the last blank that lets it fit,
 * so that a word (a number) is whole or absent; a text of one word without a digit
 * is cut. Returns the cells drawn.
 */
int fields_put_words(struct canvas *c, int x, int y, const char *text, int attr, int room);

void fields_draw(struct canvas *c, int y, const struct fields *f);

#endif
