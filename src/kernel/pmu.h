/* The core PMUs as the kernel names them: sysfs bus/event_source/devices, read below a root. */
#ifndef PMCTOP_PMU_H
#define PMCTOP_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpumap.h"
#include "kernel/sysops.h"

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

struct perf_event_attr;

/*
 * Set terms ("event=0xcd,umask=0x1,ldlat=3"; a bare name is a flag of value
 * 1 or, failing that, an alias from dir/events) in a through the format
 * files of the PMU directory dir ("config:0-7,32-35" fields may be split).
 * 0, -ENOENT for a term the PMU does not know, -EINVAL for one it cannot take.
 */
int pmu_apply_terms(const struct sysops *ops, const char *dir, const char *terms,
		    struct perf_event_attr *a);
/* Fill a from the alias dir/events/NAME of a PMU of perf type type; 0, -ENOENT, -EINVAL. */
int pmu_alias(const struct sysops *ops, const char *dir, uint32_t type, const char *name,
	      struct perf_event_attr *a);
/*
 * Encode an event spelled as the kernel's sysfs names it, "PMU/TERMS/" with
 * the modifiers u or k after it (cpu/event=0x76/, cpu_atom/event=0xc0/u,
 * armv8_pmuv3/inst_retired/), under SYSFS ("/sys" when NULL). a is filled
 * with the PMU's type; counts in user mode only unless kernel. 0, -ENOENT
 * when the PMU or a term is unknown, -EINVAL when the spelling or a value
 * is not understood, -EACCES for k alone without kernel.
 */
int pmu_encode(const struct sysops *ops, const char *sysfs, const char *spec, bool kernel,
	       struct perf_event_attr *a);
/* Whether name is spelled as pmu_encode takes it ("PMU/.../", "PMU/.../u"). */
bool pmu_is_spec(const char *name);

#endif
