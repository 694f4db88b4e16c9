/* Allocation helpers that die on out-of-memory, so callers never handle NULL. */
#ifndef PMCTOP_XALLOC_H
#define PMCTOP_XALLOC_H

#include <stddef.h>

/* Never return NULL: print a message and exit(1) when memory runs out. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array to hold at least want elements; *cap is updated. */
void *xgrow(void *p, size_t *cap, size_t want, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
