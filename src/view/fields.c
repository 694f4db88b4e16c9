/* A line of fields, each drawn whole or left out where the line is short. */
#include "config.h"
#include "view/fields.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/utf8.h"

size_t fields_add(struct fields *f, int prio, int attr, const char *fmt, ...)
{
	/* the header adds a known handful; more would overwrite the last, never overflow */
	size_t i = f->n < FIELDS_MAX ? f->n++ : FIELDS_MAX - 1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->text[i], sizeof(f->text[i]), fmt, ap);
	va_end(ap);
	f->shorter[i][0] = '\0';
	f->attr[i] = attr;
	f->lay[i] = (struct layout_field){ .cells = canvas_cells(f->text[i]), .prio = prio };
	return i;
}

void fields_short(struct fields *f, size_t i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->shorter[i], sizeof(f->shorter[i]), fmt, ap);
	va_end(ap);
	f->lay[i].short_cells = canvas_cells(f->shorter[i]);
}

/*
 * Text in at most room cells: whole, else up to the last blank that lets it fit,
 * so that a word (a number) is whole or absent; a text of one word without a digit
 * is cut. Returns the cells drawn.
 */
int fields_put_words(struct canvas *c, int x, int y, const char *text, int attr, int room)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strlen(text), cut = 0;
	int cells = 0;

	if (room <= 0)
		return 0;
	if (canvas_cells(text) <= room)
		return canvas_put(c, x, y, text, attr, -1);
	for (size_t o = 0; o < n && cells <= room; cells++) {
		size_t len;

		if (text[o] == ' ')
			cut = o;
		utf8_decode(p + o, n - o, &len);
		o += len;
	}
	if (cut) {
		char buf[1100];

		snprintf(buf, sizeof(buf), "%.*s", (int)cut, text);
		return canvas_put(c, x, y, buf, attr, -1);
	}
	return strpbrk(text, "0123456789") ? 0 : canvas_put(c, x, y, text, attr, room);
}

void fields_draw(struct canvas *c, int y, const struct fields *f)
{
	int choice[FIELDS_MAX], x = 0;

	layout_fields(f->lay, f->n, c->w, choice);
	for (size_t i = 0; i < f->n; i++)
		if (choice[i])
			x += fields_put_words(c, x, y, choice[i] == 2 ? f->shorter[i] : f->text[i],
					      f->attr[i], c->w - x);
}
