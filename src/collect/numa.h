/* NUMA nodes: which node each CPU is on (sysfs), and where a process's sampled pages live. */
#ifndef PMCTOP_NUMA_H
#define PMCTOP_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/sysops.h"
#include "stream/snapshot.h"

#define NUMA_MAX_PAGES 1024 /* distinct pages located per call; the most sampled first */

struct numa {
	uint16_t *cpu_node; /* owned; 1 + the node of each CPU, 0 when not known */
	size_t ncpu;
	int nodes;    /* online nodes; 0 when the kernel shows none (no NUMA) */
	int first;    /* the lowest online node */
	void **pages; /* owned scratch of numa_locate */
	int *status;  /* owned scratch: each page's node or -errno */
	size_t pagecap, statuscap;
};

/*
 * The CPUs of each online node from SYSFS/devices/system/node (sysfs "/sys"
 * when NULL): node/online, then nodeN/cpulist. 0, or -errno with n empty
 * (-ENOENT: a kernel without NUMA shows no nodes). n is zeroed first.
 */
int numa_load(struct numa *n, const struct sysops *ops, const char *sysfs);
/* Free what n holds; n may be loaded again after. */
void numa_release(struct numa *n);
/* The node of cpu, or -1 when not known. */
int numa_cpu_node(const struct numa *n, uint32_t cpu);
/*
 * Fill page_node and cpu_node of the nv samples v of process pid: the
 * node each sample's page (of page_size bytes) lives on now, asked of the
 * kernel in one batch for at most NUMA_MAX_PAGES distinct pages (the most
 * sampled; the others stay not known, as do pages the kernel has none for),
 * and the node of the CPU that took it. 0, or the -errno of the one system
 * call (-ENOSYS: no NUMA, -EPERM: not permitted on pid), page nodes then
 * all not known.
 */
int numa_locate(struct numa *n, const struct sysops *ops, int pid, uint64_t page_size,
		struct snap_sample *v, size_t nv);

#endif
