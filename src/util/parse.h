/* Parsing of the small values that several layers read from users: delays in seconds. */
#ifndef PMCTOP_PARSE_H
#define PMCTOP_PARSE_H

#include <stdbool.h>

/*
 * Parse a delay in seconds (0.01 to 86400; 0 only when allow_zero, as
 * replays at full speed take). 0, or -EINVAL leaving *out alone. Pure.
 */
int parse_delay(const char *s, bool allow_zero, double *out);

/* The largest pid Linux can give (PID_MAX_LIMIT on 64-bit kernels). */
#define PARSE_PID_MAX 4194304

/* Parse one pid, 1 to PARSE_PID_MAX, ending at end (',' or NUL); 0 or -EINVAL. Pure. */
int parse_pid(const char *s, const char **end, int *pid);

/*
 * Whether the '/'-separated path is prefix or lies below it, by whole
 * components ("/a/bc" is not below "/a/b"; every path is below "/"). Pure.
 */
bool parse_path_under(const char *path, const char *prefix);

#endif
