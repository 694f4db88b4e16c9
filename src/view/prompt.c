/* The line a prompt edits: whole UTF-8 characters in, whole characters out. */
#include "config.h"
#include "view/prompt.h"

#include <string.h>

#include "util/textsafe.h"
#include "util/utf8.h"
#include "view/canvas.h"

void prompt_set(struct prompt *p, const char *text)
{
	size_t n = strlen(text);

	p->len = 0;
	p->text[0] = '\0';
	while (n) {
		size_t len;
		int32_t cp = utf8_decode((const unsigned char *)text, n, &len);

		if (cp >= 0 && !prompt_add(p, (uint32_t)cp) && !textsafe_unsafe(cp))
			break; /* full */
		text += len;
		n -= len;
	}
}

bool prompt_add(struct prompt *p, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp > 0x10ffff || textsafe_unsafe((int32_t)cp))
		return false;
	n = utf8_encode(cp, b);
	if (!n || p->len + n >= sizeof(p->text))
		return false;
	memcpy(p->text + p->len, b, n);
	p->len += n;
	p->text[p->len] = '\0';
	return true;
}

bool prompt_back(struct prompt *p)
{
	if (!p->len)
		return false;
	/* back over the continuation bytes (10xxxxxx) to the character's first byte */
	do
		p->len--;
	while (p->len && ((unsigned char)p->text[p->len] & 0xc0) == 0x80);
	p->text[p->len] = '\0';
	return true;
}

int prompt_cells(const struct prompt *p)
{
	return canvas_cells(p->text);
}
