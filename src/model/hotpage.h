/* The hot-page histogram: decayed sample counts per page, bounded, with top-N and per-mapping views. */
#ifndef PMCTOP_HOTPAGE_H
#define PMCTOP_HOTPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"
#include "stream/snapshot.h"

#define HOTPAGE_IPS 4 /* instructions kept per page */

struct hotpage_entry {
	uint64_t page;	  /* address >> shift */
	double weight;	  /* decayed events: each sample counts its own period */
	uint64_t samples; /* samples ever seen on the page */
	uint64_t loads, stores;
	uint64_t lat_sum, lat_n; /* latency in cycles, where the source gives it */
	uint32_t level[MEM_LVL_MAX];
	/*
	 * The instructions that touched the page most, approximately: a new one
	 * takes the place of the least counted and inherits its count, so an
	 * instruction that keeps coming stays (space-saving counts).
	 */
	uint64_t ip[HOTPAGE_IPS];
	uint32_t ip_n[HOTPAGE_IPS];
	/*
	 * 1 + index into the histogram's names: the mapping the page lay in at
	 * its latest sample, kept when the mapping is gone; 0 when not known
	 */
	uint32_t name;
	/* 1 + the NUMA node the page lived on when last located; 0 never located */
	uint16_t node;
	uint64_t located; /* samples whose page and CPU nodes are both known */
	uint64_t remote;  /* of those, taken on a CPU of another node than the page's */
	bool used;
};

struct hotpage {
	unsigned shift;	 /* 12 for 4 KiB pages, 21 for 2 MiB */
	double halflife; /* seconds */
	size_t cap;	 /* pages kept after eviction */
	struct hotpage_entry *tab;
	size_t size; /* slots, a power of two, 4 x cap */
	size_t count;
	double total;		  /* sum of the weights */
	uint64_t samples;	  /* samples added */
	uint64_t evicted;	  /* pages dropped to keep the cap */
	uint64_t located, remote; /* samples, as per page, over all pages ever (not decayed) */
	uint64_t placed;	  /* samples whose page's node is known */
	char **names;		  /* owned: the labels of the mappings pages were named by */
	size_t nnames, ncap;
};

#define HOTPAGE_MAX_NAMES 8192 /* mapping labels kept; pages beyond are named at draw time */

/* A histogram of pages of 1 << shift bytes keeping about cap pages. Never NULL. */
struct hotpage *hotpage_new(unsigned shift, double halflife, size_t cap);
void hotpage_free(struct hotpage *h);
/* Forget everything (and take a new page size). */
void hotpage_reset(struct hotpage *h, unsigned shift);
/* Count one sample: O(1), amortised over the rare eviction. Weighs s->period events. */
void hotpage_add(struct hotpage *h, const struct snap_sample *s);
/*
 * The number of the label of mapping a (mem_area_label: any length), kept
 * from now on; 0 when a is NULL or HOTPAGE_MAX_NAMES are kept.
 */
uint32_t hotpage_name(struct hotpage *h, const struct mem_area *a);
/* hotpage_add, the page named name (from hotpage_name; 0: keep what it had). */
void hotpage_add_named(struct hotpage *h, const struct snap_sample *s, uint32_t name);
/* The label of the mapping e lay in when sampled, NULL when not known. */
const char *hotpage_entry_name(const struct hotpage *h, const struct hotpage_entry *e);
/*
 * The label of e for the user: its own name, else from maps (sorted, the
 * mappings now), else "[unmapped]". buf (size bytes) holds it when made up.
 */
const char *hotpage_label(const struct hotpage *h, const struct hotpage_entry *e,
			  const struct mem_map *maps, size_t nmaps, char *buf, size_t size);
/* Age every page by dt seconds: weights halve each half-life; faint pages go. */
void hotpage_decay(struct hotpage *h, double dt);
/* Copy the n hottest pages, hottest first, into out; returns how many (0 when n is 0). */
size_t hotpage_top(const struct hotpage *h, struct hotpage_entry *out, size_t n);
/* Every page, hottest first, in an array the caller frees; *n gets how many. NULL for none. */
struct hotpage_entry *hotpage_sorted(const struct hotpage *h, size_t *n);
/* e's instructions, most counted first, into ip and count (max each); returns how many. */
size_t hotpage_ips(const struct hotpage_entry *e, uint64_t *ip, uint32_t *count, size_t max);
struct hotpage_cells {
	char loads[24], stores[24], latency[24];
};

/*
 * Table cells for loads, stores and average latency: "-" where the source
 * does not say (page faults and IBS without a data source give no op, and
 * only some sources give a latency).
 */
void hotpage_cells(uint64_t loads, uint64_t stores, uint64_t lat_sum, uint64_t lat_n,
		   struct hotpage_cells *out);
/*
 * Mark the cells a source cannot fill (flags SNAP_SMP_NO_*) "n/a" instead
 * of "-", so an absent latency is not taken for a missing sample.
 */
void hotpage_cells_na(struct hotpage_cells *c, unsigned flags);
/* The SOURCE cell of e: its dominant level, "n/a" when the source gives none, else "-". */
const char *hotpage_source_cell(const struct hotpage_entry *e, unsigned flags);
/* The level most samples of e came from, or MEM_LVL_NA. */
enum mem_level hotpage_dominant_level(const struct hotpage_entry *e);

struct hotpage_numa_cells {
	char node[12], remote[16];
};

/*
 * The NODE and REMOTE% cells of e: its page's node and the share of its
 * located samples taken on another node's CPU, "-" where not known.
 */
void hotpage_numa_cells(const struct hotpage_entry *e, struct hotpage_numa_cells *out);
/* Whether any sample said where its page lives: else there is no node column. */
bool hotpage_has_nodes(const struct hotpage *h);
/* The share (0-1) of the located samples that were remote; NAN when none was located. */
double hotpage_remote_share(const struct hotpage *h);

struct hotpage_group {
	const char *name; /* borrowed from the histogram or the maps; "[unmapped]" when none */
	const struct mem_map *map; /* borrowed; NULL when unmapped. Anonymous ones group alone */
	double weight;
	uint64_t loads, stores, lat_sum, lat_n;
	size_t pages;
};

/*
 * Sum the pages per mapping name of maps (sorted), hottest first, into out
 * (at most n); each anonymous mapping is a group of its own (see
 * mem_map_label). Returns how many groups.
 */
size_t hotpage_by_mapping(const struct hotpage *h, const struct mem_map *maps, size_t nmaps,
			  struct hotpage_group *out, size_t n);

#endif
