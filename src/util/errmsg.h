/* The one place that turns an errno from collection into text for the user. */
#ifndef PMCTOP_ERRMSG_H
#define PMCTOP_ERRMSG_H

#include <stddef.h>

/*
 * Explain err (negative or positive errno) met while counting subject (an
 * event name or "pid 123"). paranoid is the perf_event_paranoid value, or
 * a value below -1 when unknown. Writes into buf and returns it.
 */
const char *errmsg_perf(char *buf, size_t size, int err, const char *subject, int paranoid);
/* Short reason for a count that is missing, for headers: "not supported", ... */
const char *errmsg_short(int err);
/* Symbolic errno name ("EACCES"), or NULL when not one pmctop records. */
const char *errmsg_errno_name(int err);
/* Inverse of errmsg_errno_name: the positive errno, or 0 when unknown. */
int errmsg_errno_value(const char *name);
/* The advice for permission errors, naming the paranoid level. */
const char *errmsg_permission_advice(char *buf, size_t size, int paranoid);

#endif
