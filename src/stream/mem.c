/* Memory levels and mappings of sampled addresses: names and lookup, shared by collection and the model. */
#include "config.h"

#include "stream/mem.h"

const char *mem_level_name(enum mem_level l)
{
	static const char *const NAMES[MEM_LVL_MAX] = {
		"-", "L1", "LFB", "L2", "L3", "DRAM", "remote DRAM", "remote cache", "I/O",
	};

	return l < MEM_LVL_MAX ? NAMES[l] : "-";
}

const struct mem_map *mem_find_map(const struct mem_map *maps, size_t n,
				   unsigned long long addr)
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
