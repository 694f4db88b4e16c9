/* The one escaping of text from outside: for terminals, JSON and Prometheus labels. */
#include "config.h"
#include "util/textsafe.h"

#include <langinfo.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xalloc.h"

bool textsafe_unsafe(int32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x61c ||
	       cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

struct textsafe_unit {
	int32_t cp; /* -1: a byte of invalid UTF-8, or a byte on its own (TEXTSAFE_ASCII) */
	size_t len;
	bool safe;
};

static void textsafe_unit(const unsigned char *p, size_t left, unsigned how,
			  struct textsafe_unit *u)
{
	u->cp = utf8_decode(p, left, &u->len);
	if ((how & TEXTSAFE_ASCII) && *p >= 0x80) {
		/* JSON names the code point (\u00e9); the others each byte */
		if ((how & TEXTSAFE_STYLE) != TEXTSAFE_JSON) {
			u->cp = -1;
			u->len = 1;
		}
		u->safe = false;
		return;
	}
	u->safe = u->cp >= 0 && (!textsafe_unsafe(u->cp) ||
				 ((how & TEXTSAFE_LINES) && (u->cp == '\n' || u->cp == '\t')));
}

static int textsafe_hexval(unsigned char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * In HEX style, whether a '\' followed by q (left bytes) must be doubled:
 * when what follows is written starting with '\', or is "xHH" naming a
 * byte that this style escapes (a control or >= 0x80).
 */
static bool textsafe_hex_ambiguous(const unsigned char *q, size_t left, unsigned how)
{
	struct textsafe_unit u;
	int hi, lo, v;

	if (!left)
		return false;
	textsafe_unit(q, left, how, &u);
	if (!u.safe || *q == '\\')
		return true;
	if (*q != 'x' || left < 3 || (hi = textsafe_hexval(q[1])) < 0 ||
	    (lo = textsafe_hexval(q[2])) < 0)
		return false;
	v = hi << 4 | lo;
	return v < 0x20 || v >= 0x7f;
}

/* Unit u at p written in the style: its bytes in t (of 32), their number returned. */
static size_t textsafe_unit_text(const unsigned char *p, size_t left, const struct textsafe_unit *u,
				 unsigned how, char *t)
{
	static const char hex[] = "0123456789abcdef";
	unsigned style = how & TEXTSAFE_STYLE;
	size_t n = 0;

	if (u->safe) {
		if ((style == TEXTSAFE_JSON && (*p == '"' || *p == '\\')) ||
		    (style == TEXTSAFE_HEX && *p == '\\' &&
		     textsafe_hex_ambiguous(p + 1, left - 1, how)))
			t[n++] = '\\';
		memcpy(t + n, p, u->len);
		return n + u->len;
	}
	if (style == TEXTSAFE_MARK) {
		t[0] = '?';
		return 1;
	}
	if (style == TEXTSAFE_HEX) {
		for (size_t i = 0; i < u->len; i++) {
			t[n++] = '\\';
			t[n++] = 'x';
			t[n++] = hex[p[i] >> 4];
			t[n++] = hex[p[i] & 15];
		}
		return n;
	}
	if (u->cp < 0)
		return (size_t)snprintf(t, 32, "\\ufffd");
	if (u->cp >= 0x10000)
		return (size_t)snprintf(t, 32, "\\u%04x\\u%04x", 0xd800 + ((u->cp - 0x10000) >> 10),
					0xdc00 + ((u->cp - 0x10000) & 0x3ff));
	return (size_t)snprintf(t, 32, "\\u%04x", (unsigned)u->cp);
}

size_t textsafe_escape(char *out, size_t size, const char *s, size_t len, unsigned how, int maxcols)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, kept = 0;

	if (!size)
		return 0;
	while (len && (maxcols < 0 || kept < (size_t)maxcols)) {
		struct textsafe_unit u;
		size_t run = 0, tn;
		char t[32];

		/* a run of printable ASCII that no style escapes is copied as it is */
		while (run < len && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '\\' &&
		       p[run] != '"' && (maxcols < 0 || kept + run < (size_t)maxcols))
			run++;
		if (run) {
			if (run > size - 1 - o)
				run = size - 1 - o;
			if (!run)
				break;
			memcpy(out + o, p, run);
			o += run;
			kept += run;
			p += run;
			len -= run;
			continue;
		}
		textsafe_unit(p, len, how, &u);
		tn = textsafe_unit_text(p, len, &u, how, t);
		if (o + tn >= size)
			break;
		memcpy(out + o, t, tn);
		o += tn;
		kept++;
		p += u.len;
		len -= u.len;
	}
	out[o] = '\0';
	return kept;
}

size_t textsafe_copy(const char *s, char *out, size_t size, int maxcols)
{
	return textsafe_escape(out, size, s, strlen(s), TEXTSAFE_MARK, maxcols);
}

unsigned textsafe_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && !strcmp(cs, "UTF-8") ? 0 : TEXTSAFE_ASCII;
}

void textsafe_fprintf(FILE *f, const char *fmt, ...)
{
	char small[1024], *msg = small, *safe;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k >= sizeof(small)) {
		msg = xmalloc((size_t)k + 1);
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)k + 1, fmt, ap);
		va_end(ap);
	}
	safe = xmalloc(TEXTSAFE_MAX((size_t)k));
	textsafe_escape(safe, TEXTSAFE_MAX((size_t)k), msg, (size_t)k,
			TEXTSAFE_MARK | TEXTSAFE_LINES | textsafe_locale(), -1);
	fputs(safe, f);
	free(safe);
	if (msg != small)
		free(msg);
}
