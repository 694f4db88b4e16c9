/* Terminal-safe copies of text that processes name themselves. */
#include "config.h"
#include "util/textsafe.h"

#include <string.h>

#include "util/utf8.h"

bool textsafe_unsafe(int32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x61c ||
	       cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t textsafe_copy(const char *s, char *out, size_t size, int maxcols)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), o = 0, cols = 0;

	if (!size)
		return 0;
	while (left && (maxcols < 0 || cols < (size_t)maxcols)) {
		size_t len;
		int32_t cp = utf8_decode(p, left, &len);
		bool bad = cp < 0 || textsafe_unsafe(cp);
		size_t need = bad ? 1 : len;

		if (o + need >= size)
			break;
		if (bad)
			out[o] = '?';
		else
			memcpy(out + o, p, len);
		o += need;
		cols++;
		p += len;
		left -= len;
	}
	out[o] = '\0';
	return cols;
}
