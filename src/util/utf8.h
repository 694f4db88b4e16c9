/* UTF-8 decoding shared by the canvas and the JSON writer. */
#ifndef PMCTOP_UTF8_H
#define PMCTOP_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the sequence at s (n bytes left, n >= 1): the code point, or -1
 * for an invalid, overlong, surrogate or truncated sequence. *len is the
 * bytes it takes (1 when invalid, to step over the bad byte). Pure.
 */
int32_t utf8_decode(const unsigned char *s, size_t n, size_t *len);

#endif
