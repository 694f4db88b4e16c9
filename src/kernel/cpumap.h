/* The online CPUs: the kernel's cpulist format ("0-3,5,7-8") from sysfs, one map for all. */
#ifndef PMCTOP_CPUMAP_H
#define PMCTOP_CPUMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/sysops.h"

#define CPUMAP_MAX_CPU 65535 /* larger numbers are taken for garbage */

struct cpumap {
	int *cpu; /* ascending, no repeats */
	size_t n, cap;
};

/*
 * Parse a cpulist of len bytes (trailing whitespace allowed, "" is empty)
 * into m, replacing what it held. Pure. 0, or -EINVAL with m emptied.
 */
int cpumap_parse(const char *buf, size_t len, struct cpumap *m);
/*
 * The online CPUs from SYSFS/devices/system/cpu/online (sysfs "/sys" when
 * NULL); when that cannot be read, the cpuN lines of /proc/stat below
 * procfd. 0 or -errno, m emptied on failure.
 */
int cpumap_online(struct cpumap *m, const struct sysops *ops, const char *sysfs, int procfd);
/*
 * The same, read each tick: on the real sysfs (sysfs NULL) the file stays
 * open in *fd (-1 at first; close it when done) and is read with one pread.
 */
int cpumap_online_kept(struct cpumap *m, const struct sysops *ops, const char *sysfs, int procfd,
		       int *fd);
bool cpumap_has(const struct cpumap *m, int cpu);
/* Free the array; m may be reused after. */
void cpumap_release(struct cpumap *m);

#endif
