/* Numbers as printf's %d and %.Nf write them, without printf: the batch formats' hot path. */
#ifndef PMCTOP_NUMFMT_H
#define PMCTOP_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any number numfmt writes, its '\0' included (%.9f of -DBL_MAX is 320 bytes). */
#define NUMFMT_MAX 352

/*
 * v as "%.*f" with prec digits writes it, byte for byte (rounding the
 * exact binary value to nearest, ties to even; "-0.00"; "inf", "nan"),
 * into buf of NUMFMT_MAX bytes; returns its length. Values past 2^62 or
 * more than 9 digits are rare here and go to snprintf.
 */
size_t numfmt_fixed(char *buf, double v, int prec);
/* v as "%lld" writes it; buf of at least 21 bytes; returns the length. */
size_t numfmt_int(char *buf, long long v);
/* v as "%llu" writes it; buf of at least 21 bytes; returns the length. */
size_t numfmt_uint(char *buf, unsigned long long v);

#endif
