/* The canvas: a cell grid with abstract attributes, dumpable as text. */
#include "config.h"
#include "view/canvas.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/textsafe.h"
#include "util/xalloc.h"

struct canvas *canvas_new(int w, int h)
{
	struct canvas *c = xcalloc(1, sizeof(*c));

	c->w = w < 1 ? 1 : w;
	c->h = h < 1 ? 1 : h;
	c->cells = xcalloc((size_t)c->w * (size_t)c->h, sizeof(*c->cells));
	return c;
}

void canvas_free(struct canvas *c)
{
	if (!c)
		return;
	free(c->cells);
	free(c);
}

void canvas_clear(struct canvas *c)
{
	memset(c->cells, 0, (size_t)c->w * (size_t)c->h * sizeof(*c->cells));
}

int canvas_glyph(const char *s, size_t n, size_t *len, uint32_t *cp)
{
	mbstate_t st;
	wchar_t wc;
	size_t r;
	int w;

	if ((unsigned char)s[0] < 0x80) {
		*len = 1;
		*cp = textsafe_unsafe((unsigned char)s[0]) ? '?' : (unsigned char)s[0];
		return 1;
	}
	/* in the locale's codeset, as the terminal shows it: under LANG=C, none but ASCII */
	memset(&st, 0, sizeof(st));
	r = mbrtowc(&wc, s, n, &st);
	if (r == 0 || r == (size_t)-1 || r == (size_t)-2) {
		*len = 1;
		*cp = '?';
		return 1;
	}
	*len = r;
	w = wcwidth(wc);
	/* a control, a bidi override, a combining or unassigned character: one '?' */
	if (w < 1 || w > 2 || textsafe_unsafe((int32_t)wc)) {
		*cp = '?';
		return 1;
	}
	*cp = (uint32_t)wc;
	return w;
}

/* Cell x of row y is about to change: a wide character it holds half of loses its other half. */
static void canvas_unwide(struct canvas *c, int x, int y)
{
	struct canvas_cell *row = &c->cells[(size_t)y * (size_t)c->w];

	if (row[x].ch == CANVAS_WIDE_TAIL && x > 0)
		row[x - 1].ch = ' ';
	else if (x + 1 < c->w && row[x + 1].ch == CANVAS_WIDE_TAIL)
		row[x + 1].ch = ' ';
}

int canvas_put(struct canvas *c, int x, int y, const char *text, int attr, int maxw)
{
	char small[1024], *safe = small;
	const char *p;
	size_t n, size;
	int cols = 0, room = c->w - x;

	if (y < 0 || y >= c->h || room <= 0)
		return 0;
	if (maxw >= 0 && maxw < room)
		room = maxw;
	/*
	 * The one escaping of text from outside first: never let a name move the
	 * cursor (controls, C1, bidi; every byte >= 0x80 on an ascii screen); at
	 * most room characters, which take room cells or more.
	 */
	size = 4 * (size_t)room + 1;
	if (size > sizeof(small))
		safe = xmalloc(size);
	textsafe_escape(safe, size, text, strlen(text),
			TEXTSAFE_MARK | (c->ascii ? TEXTSAFE_ASCII : 0), room);
	p = safe;
	n = strlen(safe);
	while (n) {
		size_t len;
		uint32_t cp;
		int w = canvas_glyph(p, n, &len, &cp);
		struct canvas_cell *cell;

		/* a character whole or not at all: never half a wide one */
		if ((maxw >= 0 && cols + w > maxw) || x + cols + w > c->w)
			break;
		for (int k = 0; k < w; k++)
			if (x + cols + k >= 0) {
				canvas_unwide(c, x + cols + k, y);
				cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)(x + cols + k)];
				/* the left half cut off by the edge: a blank instead */
				cell->ch = k ? CANVAS_WIDE_TAIL : cp;
				if (k && x + cols < 0)
					cell->ch = ' ';
				cell->attr = (uint8_t)attr;
			}
		cols += w;
		p += len;
		n -= len;
	}
	if (safe != small)
		free(safe);
	return cols;
}

int canvas_cells(const char *text)
{
	size_t n = strlen(text);
	int cols = 0;

	while (n) {
		size_t len;
		uint32_t cp;

		cols += canvas_glyph(text, n, &len, &cp);
		text += len;
		n -= len;
	}
	return cols;
}

int canvas_printf(struct canvas *c, int x, int y, int attr, int maxw, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return canvas_put(c, x, y, buf, attr, maxw);
}

/* Clip the span x0..x1 of row y to the canvas; false when nothing is left. */
static bool canvas_clip(const struct canvas *c, int y, int *x0, int *x1)
{
	if (y < 0 || y >= c->h)
		return false;
	if (*x0 < 0)
		*x0 = 0;
	if (*x1 > c->w)
		*x1 = c->w;
	return *x0 < *x1;
}

void canvas_attr(struct canvas *c, int y, int x0, int x1, int attr)
{
	if (!canvas_clip(c, y, &x0, &x1))
		return;
	for (int x = x0; x < x1; x++)
		c->cells[(size_t)y * (size_t)c->w + (size_t)x].attr = (uint8_t)attr;
}

void canvas_fill(struct canvas *c, int y, int x0, int x1, uint32_t ch, int attr)
{
	if (!canvas_clip(c, y, &x0, &x1))
		return;
	for (int x = x0; x < x1; x++) {
		canvas_unwide(c, x, y);
		c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch = ch;
		c->cells[(size_t)y * (size_t)c->w + (size_t)x].attr = (uint8_t)attr;
	}
}

const struct canvas_cell *canvas_at(const struct canvas *c, int x, int y)
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return NULL;
	return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

static size_t canvas_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t canvas_row_text(const struct canvas *c, int y, char *buf, size_t size)
{
	size_t o = 0, keep = 0;

	if (!size)
		return 0;
	for (int x = 0; x < c->w && y >= 0 && y < c->h; x++) {
		uint32_t cp = c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch;
		char tmp[4];
		size_t n;

		/* a wide character's right half: the character before took both cells */
		if (cp == CANVAS_WIDE_TAIL)
			continue;
		n = canvas_encode(cp ? cp : ' ', tmp);
		if (o + n + 1 > size)
			break;
		memcpy(buf + o, tmp, n);
		o += n;
		if (cp && cp != ' ')
			keep = o;
	}
	buf[keep] = '\0';
	return keep;
}

void canvas_dump(const struct canvas *c, FILE *f)
{
	size_t size = (size_t)c->w * 4 + 1;
	char *buf = xmalloc(size);

	for (int y = 0; y < c->h; y++) {
		canvas_row_text(c, y, buf, size);
		fprintf(f, "%s\n", buf);
	}
	free(buf);
}
