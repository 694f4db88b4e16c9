/* NUMA nodes: the CPU-to-node map from sysfs and the nodes of sampled pages by move_pages(2). */
#include "config.h"
#include "collect/numa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpumap.h"
#include "util/xalloc.h"

#define NUMA_NODE_MAX 65534 /* a node number kept as 1 + node in 16 bits */

int numa_load(struct numa *n, const struct sysops *ops, const char *sysfs)
{
	struct cpumap nodes = { 0 }, cpus = { 0 };
	char path[4096], buf[8192];
	long len;
	int r;

	memset(n, 0, sizeof(*n));
	if (!sysfs)
		sysfs = "/sys";
	snprintf(path, sizeof(path), "%s/devices/system/node/online", sysfs);
	len = sysops_read_path(ops, path, 0, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	r = cpumap_parse(buf, (size_t)len, &nodes);
	if (r)
		goto out;
	for (size_t i = 0; i < nodes.n; i++) {
		int node = nodes.cpu[i];

		if (node > NUMA_NODE_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", sysfs, node);
		len = sysops_read_path(ops, path, 0, buf, sizeof(buf));
		/* a node of memory alone has no CPUs: an empty list, or none to read */
		if (len < 0 || cpumap_parse(buf, (size_t)len, &cpus))
			continue;
		for (size_t k = 0; k < cpus.n; k++) {
			size_t c = (size_t)cpus.cpu[k];

			if (c >= n->ncpu) {
				size_t old = n->ncpu;

				n->cpu_node = xrealloc(n->cpu_node, (c + 1) * sizeof(*n->cpu_node));
				memset(n->cpu_node + old, 0, (c + 1 - old) * sizeof(*n->cpu_node));
				n->ncpu = c + 1;
			}
			n->cpu_node[c] = (uint16_t)(node + 1);
		}
	}
	n->nodes = (int)nodes.n;
	n->first = nodes.n ? nodes.cpu[0] : 0;
	r = nodes.n ? 0 : -ENOENT;
out:
	cpumap_release(&nodes);
	cpumap_release(&cpus);
	if (r)
		numa_release(n);
	return r;
}

void numa_release(struct numa *n)
{
	free(n->cpu_node);
	free(n->pages);
	free(n->status);
	memset(n, 0, sizeof(*n));
}

int numa_cpu_node(const struct numa *n, uint32_t cpu)
{
	return cpu < n->ncpu && n->cpu_node[cpu] ? n->cpu_node[cpu] - 1 : -1;
}

struct numa_page {
	uint64_t page;
	size_t count;
};

static int numa_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int numa_cmp_count(const void *a, const void *b)
{
	const struct numa_page *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->page > y->page) - (x->page < y->page);
}

static int numa_cmp_page(const void *a, const void *b)
{
	const struct numa_page *x = a, *y = b;

	return (x->page > y->page) - (x->page < y->page);
}

/* The distinct pages of the samples with their counts, by page; at most NUMA_MAX_PAGES. */
static size_t numa_pages(const struct snap_sample *v, size_t nv, uint64_t mask,
			 struct numa_page **out)
{
	uint64_t *a = xmalloc(nv * sizeof(*a));
	struct numa_page *p;
	size_t na = 0, np = 0;

	for (size_t i = 0; i < nv; i++)
		if (v[i].addr & mask) /* page 0 is never mapped: no address */
			a[na++] = v[i].addr & mask;
	if (na > 1)
		qsort(a, na, sizeof(*a), numa_cmp_u64);
	p = xmalloc((na ? na : 1) * sizeof(*p));
	for (size_t i = 0; i < na; i++) {
		if (np && p[np - 1].page == a[i]) {
			p[np - 1].count++;
			continue;
		}
		p[np].page = a[i];
		p[np++].count = 1;
	}
	free(a);
	if (np > NUMA_MAX_PAGES) {
		qsort(p, np, sizeof(*p), numa_cmp_count);
		np = NUMA_MAX_PAGES;
		qsort(p, np, sizeof(*p), numa_cmp_page);
	}
	*out = p;
	return np;
}

int numa_locate(struct numa *n, const struct sysops *ops, int pid, uint64_t page_size,
		struct snap_sample *v, size_t nv)
{
	uint64_t mask = ~(page_size ? page_size - 1 : 4095);
	struct numa_page *p = NULL;
	size_t np;
	int r = 0;

	for (size_t i = 0; i < nv; i++) {
		int c = numa_cpu_node(n, v[i].cpu);

		v[i].cpu_node = (uint16_t)(c + 1);
		v[i].page_node = 0;
	}
	if (!nv)
		return 0;
	np = numa_pages(v, nv, mask, &p);
	if (!np)
		goto out;
	n->pages = xgrow(n->pages, &n->pagecap, np, sizeof(*n->pages));
	n->status = xgrow(n->status, &n->statuscap, np, sizeof(*n->status));
	for (size_t i = 0; i < np; i++) {
		n->pages[i] = (void *)(uintptr_t)p[i].page;
		n->status[i] = -ENOENT;
	}
	r = sysops_page_nodes(ops, pid, np, n->pages, n->status);
	if (r)
		goto out;
	for (size_t i = 0; i < nv; i++) {
		struct numa_page key = { v[i].addr & mask, 0 }, *hit;

		hit = bsearch(&key, p, np, sizeof(*p), numa_cmp_page);
		if (hit) {
			int st = n->status[hit - p];

			/* -ENOENT (not present), -EFAULT (unmapped since): not known */
			if (st >= 0 && st <= NUMA_NODE_MAX)
				v[i].page_node = (uint16_t)(st + 1);
		}
	}
out:
	free(p);
	return r;
}
