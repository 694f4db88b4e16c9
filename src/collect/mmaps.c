/* Mappings per sampled process: a sorted array of areas, replaced where new ones land. */
#include "config.h"
#include "collect/mmaps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void mmaps_init(struct mmaps *m, int pid)
{
	memset(m, 0, sizeof(*m));
	m->pid = pid;
}

void mmaps_clear(struct mmaps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	m->n = 0;
}

void mmaps_release(struct mmaps *m)
{
	mmaps_clear(m);
	free(m->v);
	m->v = NULL;
	m->cap = 0;
}

/* The first area that ends after addr (n when none does). */
static size_t mmaps_lower(const struct mmaps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Open a hole of k slots at i. */
static void mmaps_open(struct mmaps *m, size_t i, size_t k)
{
	m->v = xgrow(m->v, &m->cap, m->n + k, sizeof(*m->v));
	memmove(&m->v[i + k], &m->v[i], (m->n - i) * sizeof(*m->v));
	m->n += k;
}

static char *mmaps_name(const char *name, size_t len)
{
	char *s = xmalloc(len + 1);

	memcpy(s, name, len);
	s[len] = '\0';
	/* the kernel names anonymous memory "//anon"; /proc leaves it blank */
	if (!strcmp(s, "//anon"))
		s[0] = '\0';
	return s;
}

void mmaps_insert(struct mmaps *m, const struct mem_area *a, const char *name, size_t name_len)
{
	size_t i, j;

	if (a->end <= a->start)
		return;
	i = mmaps_lower(m, a->start);
	/* an area that begins before a and reaches past it: keep both ends */
	if (i < m->n && m->v[i].start < a->start && m->v[i].end > a->end) {
		struct mem_area *l;

		mmaps_open(m, i, 1);
		l = &m->v[i];
		*l = m->v[i + 1];
		l->name = xstrdup(l->name);
		l->end = a->start;
		m->v[i + 1].pgoff += a->end - m->v[i + 1].start;
		m->v[i + 1].start = a->end;
		i++;
	} else if (i < m->n && m->v[i].start < a->start) {
		m->v[i].end = a->start;
		i++;
	}
	/* areas inside a go; one that begins inside and ends after it loses its head */
	for (j = i; j < m->n && m->v[j].end <= a->end; j++)
		free(m->v[j].name);
	if (j < m->n && m->v[j].start < a->end) {
		m->v[j].pgoff += a->end - m->v[j].start;
		m->v[j].start = a->end;
	}
	if (j == i) {
		mmaps_open(m, i, 1);
	} else if (j > i + 1) {
		memmove(&m->v[i + 1], &m->v[j], (m->n - j) * sizeof(*m->v));
		m->n -= j - i - 1;
	}
	m->v[i] = *a;
	m->v[i].name = mmaps_name(name ? name : "", name ? name_len : 0);
}

const struct mem_area *mmaps_find(const struct mmaps *m, uint64_t addr)
{
	size_t i = mmaps_lower(m, addr);

	return i < m->n && m->v[i].start <= addr ? &m->v[i] : NULL;
}

/* Whether [start, end) overlaps any area of m. */
static bool mmaps_overlaps(const struct mmaps *m, uint64_t start, uint64_t end)
{
	size_t i = mmaps_lower(m, start);

	return i < m->n && m->v[i].start < end;
}

size_t mmaps_parse_proc(struct mmaps *m, const char *buf, size_t len, bool gaps_only)
{
	const char *p = buf, *end = buf + len;
	size_t added = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		char head[256];
		size_t hl = (size_t)(eol - p);
		unsigned long long a, b, off, ino;
		unsigned maj, min;
		int name_at = -1;
		struct mem_area x;

		/* start-end perms offset maj:min inode name: the name may be of any length */
		if (hl >= sizeof(head))
			hl = sizeof(head) - 1;
		memcpy(head, p, hl);
		head[hl] = '\0';
		if (sscanf(head, "%llx-%llx %*s %llx %x:%x %llu %n", &a, &b, &off, &maj, &min, &ino,
			   &name_at) < 6 ||
		    name_at < 0 || b <= a) {
			p = eol + 1;
			continue;
		}
		if (!gaps_only || !mmaps_overlaps(m, a, b)) {
			const char *name = p + name_at;

			if (name > eol)
				name = eol;
			x = (struct mem_area){ a, b, off, maj, min, ino, NULL };
			mmaps_insert(m, &x, name, (size_t)(eol - name));
			added++;
		}
		p = eol + 1;
	}
	return added;
}
