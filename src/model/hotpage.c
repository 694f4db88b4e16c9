/* Hot pages: an open-addressing table keyed by page number, decayed per tick. */
#include "config.h"
#include "model/hotpage.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define HOTPAGE_FAINT 0.01 /* weights below this are forgotten at decay */

static size_t hotpage_slots(size_t cap)
{
	size_t s = 16;

	while (s < cap * 4)
		s <<= 1;
	return s;
}

struct hotpage *hotpage_new(unsigned shift, double halflife, size_t cap)
{
	struct hotpage *h = xcalloc(1, sizeof(*h));

	h->cap = cap ? cap : 1;
	h->halflife = halflife > 0 ? halflife : 1;
	h->size = hotpage_slots(h->cap);
	h->tab = xcalloc(h->size, sizeof(*h->tab));
	h->shift = shift;
	return h;
}

static void hotpage_forget_names(struct hotpage *h)
{
	for (size_t i = 0; i < h->nnames; i++)
		free(h->names[i]);
	h->nnames = 0;
}

void hotpage_free(struct hotpage *h)
{
	if (!h)
		return;
	hotpage_forget_names(h);
	free(h->names);
	free(h->tab);
	free(h);
}

void hotpage_reset(struct hotpage *h, unsigned shift)
{
	memset(h->tab, 0, h->size * sizeof(*h->tab));
	h->count = 0;
	h->total = 0;
	h->samples = 0;
	h->evicted = 0;
	h->located = 0;
	h->remote = 0;
	h->placed = 0;
	h->shift = shift;
	hotpage_forget_names(h);
}

uint32_t hotpage_name(struct hotpage *h, const struct mem_area *a)
{
	char *label;

	if (!a)
		return 0;
	label = mem_area_label(a);
	for (size_t i = 0; i < h->nnames; i++)
		if (!strcmp(h->names[i], label)) {
			free(label);
			return (uint32_t)i + 1;
		}
	if (h->nnames >= HOTPAGE_MAX_NAMES) {
		free(label);
		return 0;
	}
	h->names = xgrow(h->names, &h->ncap, h->nnames + 1, sizeof(*h->names));
	h->names[h->nnames++] = label;
	return (uint32_t)h->nnames;
}

const char *hotpage_entry_name(const struct hotpage *h, const struct hotpage_entry *e)
{
	return e->name && e->name <= h->nnames ? h->names[e->name - 1] : NULL;
}

const char *hotpage_label(const struct hotpage *h, const struct hotpage_entry *e,
			  const struct mem_map *maps, size_t nmaps, char *buf, size_t size)
{
	const char *own = hotpage_entry_name(h, e);
	const struct mem_map *m;

	if (own)
		return own;
	m = mem_find_map(maps, nmaps, (unsigned long long)(e->page << h->shift));
	return m ? mem_map_label(m, buf, size) : "[unmapped]";
}

static size_t hotpage_hash(uint64_t page, size_t size)
{
	/* Fibonacci hashing spreads neighbouring pages over the table */
	return (size_t)((page * 0x9e3779b97f4a7c15ull) >> 17) & (size - 1);
}

static void hotpage_insert(struct hotpage *h, const struct hotpage_entry *e)
{
	size_t k = hotpage_hash(e->page, h->size);

	while (h->tab[k].used)
		k = (k + 1) & (h->size - 1);
	h->tab[k] = *e;
	h->count++;
	h->total += e->weight;
}

/*
 * Rebuild the table from the entries above floor, then those equal to it
 * while fewer than limit are kept (ties must not empty the table).
 */
static void hotpage_rebuild(struct hotpage *h, double floor, size_t limit)
{
	struct hotpage_entry *old = h->tab;
	size_t n = h->size;

	h->tab = xcalloc(h->size, sizeof(*h->tab));
	h->count = 0;
	h->total = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].used && old[i].weight > floor)
			hotpage_insert(h, &old[i]);
	for (size_t i = 0; i < n && h->count < limit; i++)
		if (old[i].used && old[i].weight == floor)
			hotpage_insert(h, &old[i]);
	free(old);
}

static int hotpage_cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* Keep the cap hottest pages: runs once per cap new pages, so O(1) amortised. */
static void hotpage_evict(struct hotpage *h)
{
	double *w = xmalloc(h->count * sizeof(*w));
	size_t n = 0, before = h->count;

	for (size_t i = 0; i < h->size; i++)
		if (h->tab[i].used)
			w[n++] = h->tab[i].weight;
	qsort(w, n, sizeof(*w), hotpage_cmp_desc);
	hotpage_rebuild(h, w[h->cap - 1], h->cap);
	h->evicted += before - h->count;
	free(w);
}

/* Space-saving count of the page's instructions: a bounded top list that keeps the frequent. */
static void hotpage_count_ip(struct hotpage_entry *e, uint64_t ip)
{
	size_t least = 0;

	if (!ip)
		return;
	for (size_t i = 0; i < HOTPAGE_IPS; i++) {
		if (e->ip_n[i] && e->ip[i] == ip) {
			e->ip_n[i]++;
			return;
		}
		if (e->ip_n[i] < e->ip_n[least])
			least = i;
	}
	e->ip[least] = ip;
	e->ip_n[least]++;
}

void hotpage_add(struct hotpage *h, const struct snap_sample *s)
{
	hotpage_add_named(h, s, 0);
}

void hotpage_add_named(struct hotpage *h, const struct snap_sample *s, uint32_t name)
{
	double w = s->period ? (double)s->period : 1.0;
	uint64_t page = s->addr >> h->shift;
	size_t k = hotpage_hash(page, h->size);
	struct hotpage_entry *e;

	while (h->tab[k].used && h->tab[k].page != page)
		k = (k + 1) & (h->size - 1);
	e = &h->tab[k];
	if (!e->used) {
		if (h->count >= 2 * h->cap) {
			hotpage_evict(h);
			hotpage_add_named(h, s, name);
			return;
		}
		e->used = true;
		e->page = page;
		h->count++;
	}
	/* each sample stands for its own period: shares stay fair while the period moves */
	e->weight += w;
	e->samples++;
	h->total += w;
	if (name)
		e->name = name;
	h->samples++;
	if (s->op == MEM_OP_LOAD)
		e->loads++;
	else if (s->op == MEM_OP_STORE)
		e->stores++;
	if (s->weight) {
		e->lat_sum += s->weight;
		e->lat_n++;
	}
	if (s->level < MEM_LVL_MAX)
		e->level[s->level]++;
	hotpage_count_ip(e, s->ip);
	if (s->page_node) {
		e->node = s->page_node;
		h->placed++;
		if (s->cpu_node) {
			bool remote = s->page_node != s->cpu_node;

			e->located++;
			e->remote += remote;
			h->located++;
			h->remote += remote;
		}
	}
}

void hotpage_numa_cells(const struct hotpage_entry *e, struct hotpage_numa_cells *out)
{
	snprintf(out->node, sizeof(out->node), "-");
	snprintf(out->remote, sizeof(out->remote), "-");
	if (e->node)
		snprintf(out->node, sizeof(out->node), "%u", e->node - 1u);
	if (e->located)
		snprintf(out->remote, sizeof(out->remote), "%.0f",
			 100.0 * (double)e->remote / (double)e->located);
}

bool hotpage_has_nodes(const struct hotpage *h)
{
	return h->placed > 0;
}

double hotpage_remote_share(const struct hotpage *h)
{
	return h->located ? (double)h->remote / (double)h->located : NAN;
}

void hotpage_decay(struct hotpage *h, double dt)
{
	double f;
	bool faint = false;

	if (!(dt > 0))
		return;
	f = pow(0.5, dt / h->halflife);
	h->total = 0;
	for (size_t i = 0; i < h->size; i++) {
		if (!h->tab[i].used)
			continue;
		h->tab[i].weight *= f;
		h->total += h->tab[i].weight;
		faint |= h->tab[i].weight < HOTPAGE_FAINT;
	}
	if (faint)
		hotpage_rebuild(h, HOTPAGE_FAINT, (size_t)-1);
	if (h->count > h->cap)
		hotpage_evict(h);
}

static int hotpage_cmp_entry(const void *a, const void *b)
{
	const struct hotpage_entry *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return (x->page > y->page) - (x->page < y->page);
}

size_t hotpage_top(const struct hotpage *h, struct hotpage_entry *out, size_t n)
{
	size_t k = 0;

	if (!n) /* a pane with no room: out may have no element at all */
		return 0;
	/* keep out sorted while scanning: n is small (a screenful) */
	for (size_t i = 0; i < h->size; i++) {
		const struct hotpage_entry *e = &h->tab[i];
		size_t pos;

		if (!e->used)
			continue;
		if (k == n && hotpage_cmp_entry(e, &out[n - 1]) >= 0)
			continue;
		pos = k < n ? k++ : n - 1;
		while (pos > 0 && hotpage_cmp_entry(e, &out[pos - 1]) < 0) {
			out[pos] = out[pos - 1];
			pos--;
		}
		out[pos] = *e;
	}
	return k;
}

struct hotpage_entry *hotpage_sorted(const struct hotpage *h, size_t *n)
{
	struct hotpage_entry *v;

	*n = 0;
	if (!h->count)
		return NULL;
	v = xmalloc(h->count * sizeof(*v));
	for (size_t i = 0; i < h->size && *n < h->count; i++)
		if (h->tab[i].used)
			v[(*n)++] = h->tab[i];
	qsort(v, *n, sizeof(*v), hotpage_cmp_entry);
	return v;
}

size_t hotpage_ips(const struct hotpage_entry *e, uint64_t *ip, uint32_t *count, size_t max)
{
	uint64_t v[HOTPAGE_IPS];
	uint32_t c[HOTPAGE_IPS];
	size_t n = 0;

	/* a handful of entries: insertion by count, then by address */
	for (size_t i = 0; i < HOTPAGE_IPS; i++) {
		size_t pos;

		if (!e->ip_n[i])
			continue;
		for (pos = n++; pos > 0 && (c[pos - 1] < e->ip_n[i] ||
					    (c[pos - 1] == e->ip_n[i] && v[pos - 1] > e->ip[i]));
		     pos--) {
			v[pos] = v[pos - 1];
			c[pos] = c[pos - 1];
		}
		v[pos] = e->ip[i];
		c[pos] = e->ip_n[i];
	}
	if (n > max)
		n = max;
	memcpy(ip, v, n * sizeof(*ip));
	memcpy(count, c, n * sizeof(*count));
	return n;
}

void hotpage_cells(uint64_t loads, uint64_t stores, uint64_t lat_sum, uint64_t lat_n,
		   struct hotpage_cells *out)
{
	snprintf(out->loads, sizeof(out->loads), "-");
	snprintf(out->stores, sizeof(out->stores), "-");
	snprintf(out->latency, sizeof(out->latency), "-");
	if (loads + stores) {
		snprintf(out->loads, sizeof(out->loads), "%" PRIu64, loads);
		snprintf(out->stores, sizeof(out->stores), "%" PRIu64, stores);
	}
	if (lat_n)
		snprintf(out->latency, sizeof(out->latency), "%.0f",
			 (double)lat_sum / (double)lat_n);
}

void hotpage_cells_na(struct hotpage_cells *c, unsigned flags)
{
	if ((flags & SNAP_SMP_NO_LATENCY) && !strcmp(c->latency, "-"))
		snprintf(c->latency, sizeof(c->latency), "n/a");
}

const char *hotpage_source_cell(const struct hotpage_entry *e, unsigned flags)
{
	enum mem_level l = hotpage_dominant_level(e);

	if (l == MEM_LVL_NA && (flags & SNAP_SMP_NO_SOURCE))
		return "n/a";
	return mem_level_name(l);
}

enum mem_level hotpage_dominant_level(const struct hotpage_entry *e)
{
	enum mem_level best = MEM_LVL_NA;

	for (int l = MEM_LVL_L1; l < MEM_LVL_MAX; l++)
		if (e->level[l] > e->level[best] || (best == MEM_LVL_NA && e->level[l]))
			best = (enum mem_level)l;
	return best;
}

static int hotpage_cmp_group(const void *a, const void *b)
{
	const struct hotpage_group *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return strcmp(x->name, y->name);
}

size_t hotpage_by_mapping(const struct hotpage *h, const struct mem_map *maps, size_t nmaps,
			  struct hotpage_group *out, size_t n)
{
	struct hotpage_group *g = NULL;
	size_t ng = 0, cap = 0;

	for (size_t i = 0; i < h->size; i++) {
		const struct hotpage_entry *e = &h->tab[i];
		const struct mem_map *m;
		const char *name;
		size_t k;

		if (!e->used)
			continue;
		name = hotpage_entry_name(h, e);
		/* a page named when sampled keeps that name; the others are looked up now */
		m = name ? NULL
			 : mem_find_map(maps, nmaps, (unsigned long long)(e->page << h->shift));
		if (!name)
			name = m ? m->name : "[unmapped]";
		/* files by name (a library maps several times); anonymous memory one by one */
		for (k = 0;
		     k < ng && (strcmp(g[k].name, name) || (m && mem_map_anon(m) && g[k].map != m));
		     k++)
			;
		if (k == ng) {
			g = xgrow(g, &cap, ng + 1, sizeof(*g));
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].map = m;
			g[ng++].name = name;
		}
		g[k].weight += e->weight;
		g[k].loads += e->loads;
		g[k].stores += e->stores;
		g[k].lat_sum += e->lat_sum;
		g[k].lat_n += e->lat_n;
		g[k].pages++;
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), hotpage_cmp_group);
	if (ng > n)
		ng = n;
	if (ng)
		memcpy(out, g, ng * sizeof(*g));
	free(g);
	return ng;
}
