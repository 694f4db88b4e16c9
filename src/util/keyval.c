/* KEY=VALUE settings files: every byte of the file is checked, nothing in it is trusted. */
#include "config.h"
#include "util/keyval.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void keyval_problem(struct keyval *kv, unsigned line, const char *fmt, ...)
{
	va_list ap;

	kv->problems++;
	if (kv->bad_line || kv->bad[0])
		return;
	kv->bad_line = line;
	va_start(ap, fmt);
	vsnprintf(kv->bad, sizeof(kv->bad), fmt, ap);
	va_end(ap);
}

void keyval_release(struct keyval *kv)
{
	for (size_t i = 0; i < kv->n; i++) {
		free(kv->v[i].key);
		free(kv->v[i].value);
	}
	free(kv->v);
	memset(kv, 0, sizeof(*kv));
}

static bool keyval_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s[0..*len) without blanks at either end; returns the new start. */
static const char *keyval_trim(const char *s, size_t *len)
{
	while (*len && keyval_blank(*s)) {
		s++;
		(*len)--;
	}
	while (*len && keyval_blank(s[*len - 1]))
		(*len)--;
	return s;
}

/* The header: "MAGIC VERSION" exactly. 0, or -EINVAL after recording why not. */
static int keyval_header(struct keyval *kv, const char *p, size_t len, const char *magic,
			 unsigned version)
{
	size_t ml = strlen(magic);
	unsigned v = 0;
	size_t i;

	p = keyval_trim(p, &len);
	if (len > ml + 1 && !memcmp(p, magic, ml) && p[ml] == ' ') {
		for (i = ml + 1; i < len && p[i] >= '0' && p[i] <= '9' && v < 100000; i++)
			v = v * 10 + (unsigned)(p[i] - '0');
		if (i == len && v > 0) {
			kv->version = v;
			if (v <= version)
				return 0;
			keyval_problem(kv, 1,
				       "was written by a newer pmctop (settings version %u; this "
				       "one reads %u)",
				       v, version);
			return -EINVAL;
		}
	}
	keyval_problem(kv, 1, "is not a pmctop settings file: its first line must be '%s %u'",
		       magic, version);
	return -EINVAL;
}

/* One line after the header: a comment, or KEY=VALUE; anything else is a problem. */
static void keyval_line(struct keyval *kv, const char *p, size_t len, unsigned line)
{
	const char *eq, *key, *val;
	size_t klen, vlen;

	if (len > KEYVAL_LINE_MAX) {
		keyval_problem(kv, line, "is longer than %d bytes", KEYVAL_LINE_MAX);
		return;
	}
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f) {
			keyval_problem(kv, line, "has a control character (0x%02x)",
				       (unsigned char)p[i]);
			return;
		}
	klen = len;
	key = keyval_trim(p, &klen);
	if (!klen || key[0] == '#')
		return;
	eq = memchr(key, '=', klen);
	if (!eq) {
		keyval_problem(kv, line, "has no '=': write KEY=VALUE");
		return;
	}
	vlen = klen - (size_t)(eq + 1 - key);
	val = keyval_trim(eq + 1, &vlen);
	klen = (size_t)(eq - key);
	key = keyval_trim(key, &klen);
	if (!klen) {
		keyval_problem(kv, line, "has no key before '='");
		return;
	}
	kv->v = xgrow(kv->v, &kv->cap, kv->n + 1, sizeof(*kv->v));
	kv->v[kv->n++] = (struct keyval_entry){
		.key = xstrndup(key, klen),
		.value = xstrndup(val, vlen),
		.line = line,
	};
}

/* Drop the entries, keeping why: the whole file is refused. */
static int keyval_refuse(struct keyval *kv)
{
	for (size_t i = 0; i < kv->n; i++) {
		free(kv->v[i].key);
		free(kv->v[i].value);
	}
	free(kv->v);
	kv->v = NULL;
	kv->n = kv->cap = 0;
	return -EINVAL;
}

int keyval_parse(struct keyval *kv, const char *text, size_t len, const char *magic,
		 unsigned version)
{
	const char *nul = memchr(text, '\0', len);
	unsigned line = 1;
	/* a byte-order mark, as some Windows editors write, is no part of the header */
	size_t start = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;

	memset(kv, 0, sizeof(*kv));
	/* binary data: none of it is taken, whatever its first line says */
	if (nul) {
		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		keyval_problem(kv, line, "has a NUL byte on line %u: it is no text file", line);
		return -EINVAL;
	}
	for (size_t off = start; off < len; line++) {
		const char *p = text + off, *nl = memchr(p, '\n', len - off);
		size_t l = nl ? (size_t)(nl - p) : len - off;

		off += l + (nl ? 1 : 0);
		if (l && p[l - 1] == '\r')
			l--;
		if (line == 1) {
			if (keyval_header(kv, p, l, magic, version))
				return keyval_refuse(kv);
			continue;
		}
		keyval_line(kv, p, l, line);
	}
	if (line == 1) {
		keyval_problem(kv, 1, "is empty: its first line must be '%s %u'", magic, version);
		return keyval_refuse(kv);
	}
	return 0;
}

static bool keyval_clean(const char *s, bool key)
{
	size_t len = strlen(s);

	if (len && (keyval_blank(s[0]) || keyval_blank(s[len - 1])))
		return false;
	if (key && (!len || s[0] == '#' || strchr(s, '=')))
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

int keyval_append(char **buf, size_t *len, const char *key, const char *value)
{
	size_t need = strlen(key) + 1 + strlen(value);
	size_t cap;

	if (!keyval_clean(key, true) || !keyval_clean(value, false) || need > KEYVAL_LINE_MAX)
		return -EINVAL;
	cap = *len + need + 2;
	*buf = xrealloc(*buf, cap);
	*len += (size_t)snprintf(*buf + *len, cap - *len, "%s=%s\n", key, value);
	return 0;
}
