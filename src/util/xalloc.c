/* Allocation helpers that die on out-of-memory. */
#include "config.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void xalloc_die(size_t n)
{
	fprintf(stderr, "pmctop: out of memory allocating %zu bytes\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_die(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		xalloc_die(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		xalloc_die(n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t want, size_t size)
{
	size_t ncap = *cap ? *cap : 8;

	if (want <= *cap)
		return p;
	while (ncap < want)
		ncap *= 2;
	if (ncap > (size_t)-1 / size)
		xalloc_die((size_t)-1);
	p = xrealloc(p, ncap * size);
	*cap = ncap;
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
