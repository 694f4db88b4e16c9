/* UTF-8 decoding shared by the canvas and the JSON writer; encoding for typed text. */
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

/*
 * Encode code point cp as UTF-8 into out: the bytes written (1 to 4), or 0 for a surrogate or a
 * value above U+10FFFF, which have no encoding. Pure.
 */
size_t utf8_encode(uint32_t cp, char out[4]);

#endif
