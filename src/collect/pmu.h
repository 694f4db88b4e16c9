/* The core PMUs as the kernel names them: sysfs bus/event_source/devices, read below a root. */
#ifndef PMCTOP_PMU_H
#define PMCTOP_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/cpumap.h"
#include "collect/sysops.h"

#define PMU_MAX 8 /* core PMUs kept; more are ignored */

/*
 * A core PMU: one that counts on CPUs (a directory with a "cpus" file, as
 * hybrid x86 and arm_pmu give, or the one named "cpu"). Uncore PMUs have a
 * "cpumask" instead and are not core PMUs.
 */
struct pmu_core {
	char name[64];
	uint32_t type;	    /* perf_event_attr.type of its events */
	bool all_cpus;	    /* no cpus file: it counts on every CPU */
	struct cpumap cpus; /* its CPUs when !all_cpus */
};

struct pmu_set {
	size_t n;
	struct pmu_core pmu[PMU_MAX]; /* by type, lowest first */
};

/*
 * Find the core PMUs under SYSFS/bus/event_source/devices (sysfs "/sys"
 * when NULL), reading files through ops. s is emptied first. 0, or -errno
 * when the directory cannot be listed (then s is empty); PMUs whose type
 * cannot be read are left out.
 */
int pmu_scan(struct pmu_set *s, const struct sysops *ops, const char *sysfs);
/* Free what s holds; s is empty after. */
void pmu_set_release(struct pmu_set *s);
/* The index of the PMU that counts on cpu, or -1 when none does. */
int pmu_of_cpu(const struct pmu_set *s, int cpu);
/* Whether PMU i counts on cpu. */
bool pmu_has_cpu(const struct pmu_set *s, size_t i, int cpu);
/* The names joined by "+" ("cpu_core+cpu_atom") into buf, "" when none. Returns buf. */
const char *pmu_names(const struct pmu_set *s, char *buf, size_t size);

#endif
