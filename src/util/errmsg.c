/* errno -> user text for perf_event_open failures. */
#include "config.h"
#include "util/errmsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	int err;
	const char *name;
	const char *brief;
} ERRMSG_TABLE[] = {
	{ ENOENT, "ENOENT", "not supported" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "not supported" },
	{ EACCES, "EACCES", "permission denied" },
	{ EPERM, "EPERM", "not permitted" },
	{ EINVAL, "EINVAL", "invalid attributes" },
	{ EMFILE, "EMFILE", "out of file descriptors" },
	{ ENFILE, "ENFILE", "out of file descriptors" },
	{ ESRCH, "ESRCH", "task gone" },
	{ ENODEV, "ENODEV", "device offline" },
	{ EBUSY, "EBUSY", "PMU busy" },
	{ ENOSPC, "ENOSPC", "buffer too small" },
	{ ECHILD, "ECHILD", "inherited group changed" },
	{ ENODATA, "ENODATA", "group in error state" },
	{ ENOSYS, "ENOSYS", "no perf_event_open" },
	{ E2BIG, "E2BIG", "attribute size refused" },
	{ EBADF, "EBADF", "not open" },
};

static int errmsg_abs(int err)
{
	return err < 0 ? -err : err;
}

const char *errmsg_errno_name(int err)
{
	err = errmsg_abs(err);
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (ERRMSG_TABLE[i].err == err)
			return ERRMSG_TABLE[i].name;
	return NULL;
}

int errmsg_errno_value(const char *name)
{
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (!strcmp(ERRMSG_TABLE[i].name, name))
			return ERRMSG_TABLE[i].err;
	return 0;
}

const char *errmsg_short(int err)
{
	err = errmsg_abs(err);
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (ERRMSG_TABLE[i].err == err)
			return ERRMSG_TABLE[i].brief;
	return "not counted";
}

const char *errmsg_permission_advice(char *buf, size_t size, int paranoid)
{
	char level[32];

	if (paranoid >= -1)
		snprintf(level, sizeof(level), "%d", paranoid);
	else
		snprintf(level, sizeof(level), "unknown");
	snprintf(buf, size,
		 "kernel.perf_event_paranoid is %s; to count more: run pmctop as root, "
		 "or lower the limit with 'sysctl kernel.perf_event_paranoid=1' "
		 "(0 for per-core counts), or grant the capability with "
		 "'setcap cap_perfmon+ep pmctop'",
		 level);
	return buf;
}

const char *errmsg_perf(char *buf, size_t size, int err, const char *subject, int paranoid)
{
	char adv[320];

	err = errmsg_abs(err);
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		snprintf(buf, size, "'%s': not supported by this PMU", subject);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, size, "'%s': permission denied; %s", subject,
			 errmsg_permission_advice(adv, sizeof(adv), paranoid));
		break;
	case EINVAL:
		snprintf(buf, size, "'%s': the kernel refused the event attributes", subject);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, size,
			 "'%s': out of file descriptors; raise the limit with 'ulimit -n' "
			 "or watch fewer processes with -p or -u",
			 subject);
		break;
	case ESRCH:
		snprintf(buf, size, "'%s': no such process (it exited)", subject);
		break;
	case ENODEV:
		snprintf(buf, size, "'%s': the CPU is offline", subject);
		break;
	case EBUSY:
		snprintf(buf, size, "'%s': the PMU is held exclusively by another user", subject);
		break;
	case ENOSYS:
		snprintf(buf, size, "'%s': this kernel or sandbox has no perf_event_open", subject);
		break;
	case ENODATA:
		snprintf(buf, size, "'%s': the counter group went into error state", subject);
		break;
	default:
		snprintf(buf, size, "'%s': %s", subject, strerror(err));
		break;
	}
	return buf;
}
