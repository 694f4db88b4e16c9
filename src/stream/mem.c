/* Memory levels and mappings of sampled addresses: names and lookup, shared by collection and the model. */
#include "config.h"

#include "stream/mem.h"

#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

const char *mem_level_name(enum mem_level l)
{
	static const char *const NAMES[MEM_LVL_MAX] = {
		[MEM_LVL_NA] = "-",
		[MEM_LVL_L1] = "L1",
		[MEM_LVL_LFB] = "LFB",
		[MEM_LVL_L2] = "L2",
		[MEM_LVL_L3] = "L3",
		[MEM_LVL_LOCAL_RAM] = "DRAM",
		[MEM_LVL_REMOTE_RAM] = "remote DRAM",
		[MEM_LVL_REMOTE_CACHE] = "remote cache",
		[MEM_LVL_IO] = "I/O",
		[MEM_LVL_L4] = "L4",
		[MEM_LVL_CXL] = "CXL",
		[MEM_LVL_PMEM] = "PMEM",
		[MEM_LVL_CACHE] = "cache",
		[MEM_LVL_PEER_CACHE] = "peer cache",
		[MEM_LVL_HITM] = "HITM",
		[MEM_LVL_L1_MISS] = "L1 miss",
		[MEM_LVL_L2_MISS] = "L2 miss",
		[MEM_LVL_L3_MISS] = "L3 miss",
		[MEM_LVL_UNCACHED] = "uncached",
		[MEM_LVL_L2_MHB] = "L2 MHB",
		[MEM_LVL_MSC] = "MSC",
	};

	return l < MEM_LVL_MAX ? NAMES[l] : "-";
}

bool mem_level_far(enum mem_level l)
{
	switch (l) {
	case MEM_LVL_LOCAL_RAM:
	case MEM_LVL_REMOTE_RAM:
	case MEM_LVL_REMOTE_CACHE:
	case MEM_LVL_IO:
	case MEM_LVL_CXL:
	case MEM_LVL_PMEM:
	case MEM_LVL_HITM:
	case MEM_LVL_L3_MISS:
	case MEM_LVL_UNCACHED:
	case MEM_LVL_MSC:
		return true;
	default:
		return false;
	}
}

const struct mem_map *mem_find_map(const struct mem_map *maps, size_t n, unsigned long long addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < maps[mid].start)
			hi = mid;
		else if (addr >= maps[mid].end)
			lo = mid + 1;
		else
			return &maps[mid];
	}
	return NULL;
}

bool mem_map_anon(const struct mem_map *m)
{
	return !m->name[0] || !strcmp(m->name, "[anon]");
}

const char *mem_map_label(const struct mem_map *m, char *buf, size_t size)
{
	if (mem_map_anon(m))
		snprintf(buf, size, "[anon %llx-%llx]", m->start, m->end);
	else
		snprintf(buf, size, "%s", m->name);
	return buf;
}

char *mem_area_label(const struct mem_area *a)
{
	const char *n = a->name ? a->name : "";
	size_t len = strlen(n) + 64;
	char *buf = xmalloc(len);

	if (!n[0] || !strcmp(n, "[anon]") || !strcmp(n, "//anon"))
		snprintf(buf, len, "[anon %llx-%llx]", a->start, a->end);
	else
		snprintf(buf, len, "%s", n);
	return buf;
}
