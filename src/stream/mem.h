/* What a data-address sample says about memory: where it was served from, and the mappings it falls in. */
#ifndef PMCTOP_MEM_H
#define PMCTOP_MEM_H

#include <stddef.h>

/* Where a sampled access was served from, coarsened from PERF_SAMPLE_DATA_SRC. */
enum mem_level {
	MEM_LVL_NA = 0,
	MEM_LVL_L1,
	MEM_LVL_LFB,
	MEM_LVL_L2,
	MEM_LVL_L3,
	MEM_LVL_LOCAL_RAM,
	MEM_LVL_REMOTE_RAM,
	MEM_LVL_REMOTE_CACHE,
	MEM_LVL_IO,
	MEM_LVL_MAX
};

enum mem_op {
	MEM_OP_NA = 0,
	MEM_OP_LOAD,
	MEM_OP_STORE,
	MEM_OP_OTHER,
};

/* Short name of a level: "L1", "LFB", "L2", "L3", "DRAM", "remote DRAM", ...; "-" when not known. */
const char *mem_level_name(enum mem_level l);

struct mem_map {
	unsigned long long start, end;
	char name[96];	/* path, [heap], [stack], [vdso] ..., or [anon] */
};

/* The mapping that holds addr, or NULL. maps must be sorted by address. */
const struct mem_map *mem_find_map(const struct mem_map *maps, size_t n,
				   unsigned long long addr);

#endif
