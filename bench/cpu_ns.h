/* The CPU time of a process, for the benchmarks (bench/runstat.c, bench/qemu_guest.c). */
#ifndef PMCTOP_BENCH_CPU_NS_H
#define PMCTOP_BENCH_CPU_NS_H

#include <dirent.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Nanoseconds on a CPU of every thread of pid, from each thread's
 * schedstat (ns, where /usr/bin/time rounds to clock ticks); -1 when it
 * cannot be read.
 */
static inline double bench_cpu_ns(pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	double sum = 0;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[300];
		FILE *f;
		double ns;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lf", &ns) == 1) {
			sum += ns;
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n ? sum : -1;
}

#endif
