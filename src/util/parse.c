/* Parsing of the small values that several layers read from users. */
#include "config.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int parse_delay(const char *s, bool allow_zero, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || isnan(v) || v < 0 || v > 86400 ||
	    (v == 0 && !allow_zero) || (v > 0 && v < 0.01))
		return -EINVAL;
	*out = v;
	return 0;
}
