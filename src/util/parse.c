/* Parsing of the small values that several layers read from users. */
#include "config.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int parse_pid(const char *s, const char **end, int *pid)
{
	char *e;
	long long v;

	if (*s < '0' || *s > '9') /* no sign, no blanks: strtoll would take them */
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &e, 10);
	if (e == s || errno || v < 1 || v > PARSE_PID_MAX)
		return -EINVAL;
	*end = e;
	*pid = (int)v;
	return 0;
}

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

bool parse_path_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n && prefix[n - 1] == '/')
		n--;
	if (strncmp(path, prefix, n))
		return false;
	return path[n] == '\0' || path[n] == '/';
}
