/* Numbers as printf's %d and %.Nf write them, without printf: the batch formats' hot path. */
#include "config.h"
#include "util/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t numfmt_uint(char *buf, unsigned long long v)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

size_t numfmt_int(char *buf, long long v)
{
	if (v >= 0)
		return numfmt_uint(buf, (unsigned long long)v);
	buf[0] = '-';
	/* -(v + 1) + 1 stays in range for LLONG_MIN */
	return 1 + numfmt_uint(buf + 1, (unsigned long long)(-(v + 1)) + 1);
}

static const uint32_t NUMFMT_POW10[] = { 1,	 10,	  100,	    1000,      10000,
					 100000, 1000000, 10000000, 100000000, 1000000000 };

size_t numfmt_fixed(char *buf, double v, int prec)
{
	double a = fabs(v), frac;
	unsigned long long ip;
	uint64_t q = 0;
	size_t n = 0;

	if (!isfinite(v) || a >= 0x1p62 || prec < 0 || prec > 9)
		return (size_t)snprintf(buf, NUMFMT_MAX, "%.*f", prec, v);
	if (signbit(v))
		buf[n++] = '-';
	ip = (unsigned long long)a;
	/* exact: the fraction of a double is a double */
	frac = a - (double)ip;
	if (frac > 0 && prec > 0) {
		/*
		 * frac = m / 2^e exactly, m < 2^53; frac * 10^prec rounded as
		 * printf does, on the exact value: m * 10^prec / 2^e in 128 bits
		 * (under 2^83), the remainder against half of 2^e, a tie to even.
		 * Past e = 100 the product is under 2^-17: it rounds to 0.
		 */
		int exp;
		double mant = frexp(frac, &exp);
		uint64_t m = (uint64_t)ldexp(mant, 53);
		int e = 53 - exp;

		if (e <= 100) {
			unsigned __int128 p = (unsigned __int128)m * NUMFMT_POW10[prec];
			unsigned __int128 one = (unsigned __int128)1 << e;
			unsigned __int128 r = p & (one - 1), half = one >> 1;

			q = (uint64_t)(p >> e);
			if (r > half || (r == half && (q & 1)))
				q++;
		}
	}
	if (prec == 0) {
		/* %.0f: the fraction rounds the integer itself, a tie to even */
		if (frac > 0.5 || (frac == 0.5 && (ip & 1)))
			ip++;
	} else if (q >= NUMFMT_POW10[prec]) {
		q -= NUMFMT_POW10[prec];
		ip++;
	}
	n += numfmt_uint(buf + n, ip);
	if (prec > 0) {
		buf[n++] = '.';
		for (int i = prec - 1; i >= 0; i--) {
			buf[n + (size_t)i] = (char)('0' + q % 10);
			q /= 10;
		}
		n += (size_t)prec;
		buf[n] = '\0';
	}
	return n;
}
