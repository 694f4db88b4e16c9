/* What a data-address sample says about memory: where it was served from, and the mappings it falls in. */
#ifndef PMCTOP_MEM_H
#define PMCTOP_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where a sampled access was served from, coarsened from PERF_SAMPLE_DATA_SRC.
 * The numbers are written to recordings: new levels go at the end.
 */
enum mem_level {
	MEM_LVL_NA = 0,
	MEM_LVL_L1,
	MEM_LVL_LFB,
	MEM_LVL_L2,
	MEM_LVL_L3,
	MEM_LVL_LOCAL_RAM,
	MEM_LVL_REMOTE_RAM,
	MEM_LVL_REMOTE_CACHE, /* a cache one hop or more away: another node, socket or board */
	MEM_LVL_IO,
	MEM_LVL_L4,
	MEM_LVL_CXL,
	MEM_LVL_PMEM,
	MEM_LVL_CACHE,	    /* some cache, the PMU does not say which */
	MEM_LVL_PEER_CACHE, /* another core's cache on this node (a near CCX on AMD) */
	MEM_LVL_HITM,	    /* a line modified in another core's cache */
	MEM_LVL_L1_MISS,    /* missed L1, no more is known: never shown as L1 */
	MEM_LVL_L2_MISS,
	MEM_LVL_L3_MISS,
	MEM_LVL_UNCACHED,
	MEM_LVL_L2_MHB, /* L2's miss handling buffer: on its way from beyond L2 */
	MEM_LVL_MSC,	/* a memory-side cache, in front of memory */
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
/* Whether l lies beyond this core's caches (memory, another node, a modified peer line). */
bool mem_level_far(enum mem_level l);

struct mem_map {
	unsigned long long start, end;
	unsigned long long pgoff; /* file offset of start */
	unsigned maj, min;	  /* device of the file; 0:0 when not known (a recording) */
	unsigned long long ino;	  /* inode of the file; 0 when not known */
	bool cut;		  /* name is the start of a longer one: no path to open */
	char name[96];		  /* path, [heap], [stack], [vdso] ..., or [anon] */
};

/*
 * A mapping as it was when a sample was taken (from the ring's MMAP2 records,
 * or /proc/PID/maps where they say nothing): what names a sampled page.
 */
struct mem_area {
	unsigned long long start, end;
	unsigned long long pgoff; /* file offset of start */
	unsigned maj, min;	  /* device of the file; 0 for memory that is no file */
	unsigned long long ino;
	char *name; /* owned by the holder: the path or [heap] ..., any length; "" when anonymous */
};

/*
 * a's name for the user, as mem_map_label says it (an anonymous one by its
 * range), in a new string the caller frees.
 */
char *mem_area_label(const struct mem_area *a);

/* Whether m has no name of its own: an anonymous mapping ("[anon]" or ""). */
bool mem_map_anon(const struct mem_map *m);
/*
 * m's name for the user: its own, or its address range for an anonymous one
 * ("[anon 7f12a000-7f13b000]"), so two of them are told apart. Returns buf.
 */
const char *mem_map_label(const struct mem_map *m, char *buf, size_t size);
/* The mapping that holds addr, or NULL. maps must be sorted by address. */
const struct mem_map *mem_find_map(const struct mem_map *maps, size_t n, unsigned long long addr);

#endif
