/* perf.data reader: every offset and size from the file is checked before it is used. */
#include "config.h"
#include "stream/perfdata.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The file format (tools/perf/util/header.h): sizes of its fixed parts. */
#define PERFDATA_FILE_HEADER 104 /* magic, size, attr_size, 3 sections, 256-bit feature map */
#define PERFDATA_PIPE_HEADER 16	 /* magic, size */
#define PERFDATA_ATTR_MIN 64	 /* PERF_ATTR_SIZE_VER0 */
#define PERFDATA_ATTR_MAX 4096
#define PERFDATA_MAX_EVENTS 4096
#define PERFDATA_FEAT_BITS 256
#define PERFDATA_FEAT_KNOWN 31 /* HEADER_PMU_CAPS, the last id perf 6.x writes */

/* perf's own record types, above the kernel's */
enum perfdata_user_type {
	PERFDATA_HEADER_ATTR = 64,
	PERFDATA_HEADER_TRACING_DATA = 66,
	PERFDATA_AUXTRACE_INFO = 70,
	PERFDATA_AUXTRACE = 71,
	PERFDATA_AUXTRACE_ERROR = 72,
	PERFDATA_HEADER_FEATURE = 80,
	PERFDATA_COMPRESSED = 81,
	PERFDATA_COMPRESSED2 = 83,
	PERFDATA_USER_LAST = 83,
};

/* the kernel's record types pmctop knows and has no use for */
#define PERFDATA_KERNEL_LAST 22 /* PERF_RECORD_CALLCHAIN_DEFERRED, 6.17 */

/* feature ids (enum HEADER_*) whose contents are read */
enum perfdata_feat {
	PERFDATA_FEAT_HOSTNAME = 3,
	PERFDATA_FEAT_OSRELEASE = 4,
	PERFDATA_FEAT_VERSION = 5,
	PERFDATA_FEAT_ARCH = 6,
	PERFDATA_FEAT_NRCPUS = 7,
	PERFDATA_FEAT_CPUDESC = 8,
	PERFDATA_FEAT_CPUID = 9,
	PERFDATA_FEAT_EVENT_DESC = 12,
	PERFDATA_FEAT_NUMA_TOPOLOGY = 14,
	PERFDATA_FEAT_MEM_TOPOLOGY = 22,
};

#define PERFDATA_NODE_MAX 65534	       /* a node kept as 1 + node in 16 bits */
#define PERFDATA_CPU_MAX 65535	       /* CPU numbers above are taken for garbage */
#define PERFDATA_MEM_BITS (1ull << 32) /* memory blocks per node kept at most */

struct perfdata_id {
	uint64_t id;
	size_t ev;
};

static int perfdata_fail(char *err, size_t errsize, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perfdata_fail(char *err, size_t errsize, size_t off, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, errsize, "offset %zu: %s", off, what);
	return -EINVAL;
}

static uint64_t perfdata_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t perfdata_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Whether [off, off + n) lies inside a buffer of len bytes, without overflow. */
static bool perfdata_within(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

bool perfdata_magic(const void *p, size_t n)
{
	return n >= 8 && !memcmp(p, PERFDATA_MAGIC, 8);
}

/* A name for an event the capture does not describe: perf's for the generic ones. */
static char *perfdata_event_name(uint32_t type, uint64_t config)
{
	static const char *const hw[] = { "cycles",
					  "instructions",
					  "cache-references",
					  "cache-misses",
					  "branches",
					  "branch-misses",
					  "bus-cycles",
					  "stalled-cycles-frontend",
					  "stalled-cycles-backend",
					  "ref-cycles" };
	static const char *const sw[] = {
		"cpu-clock",	    "task-clock",   "page-faults",  "context-switches",
		"cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy",	    "bpf-output",   "cgroup-switches"
	};
	char buf[64];

	if (type == 0 && config < sizeof(hw) / sizeof(hw[0]))
		return xstrdup(hw[config]);
	if (type == 1 && config < sizeof(sw) / sizeof(sw[0]))
		return xstrdup(sw[config]);
	snprintf(buf, sizeof(buf), "event %" PRIu32 ":0x%" PRIx64, type, config);
	return xstrdup(buf);
}

/*
 * One perf_event_attr of size bytes at p (size checked by the caller): the
 * fields a sample's layout depends on, each read only when the attr is
 * large enough to hold it.
 */
static void perfdata_attr(struct perfdata_event *e, const uint8_t *p, size_t size)
{
	uint64_t flags;

	memset(e, 0, sizeof(*e));
	e->type = perfdata_u32(p);
	e->config = perfdata_u64(p + 8);
	e->period = perfdata_u64(p + 16);
	e->fmt.sample_type = perfdata_u64(p + 24);
	e->fmt.read_format = perfdata_u64(p + 32);
	flags = perfdata_u64(p + 40);
	e->freq = flags & (1ull << 10);
	e->sample_id_all = flags & (1ull << 18);
	if (size >= 80)
		e->fmt.branch_sample_type = perfdata_u64(p + 72);
	if (size >= 88)
		e->fmt.regs_user = perfdata_u64(p + 80);
	if (size >= 104)
		e->fmt.regs_intr = perfdata_u64(p + 96);
}

static void perfdata_add_event(struct perfdata *pd, const uint8_t *attr, size_t size,
			       const uint8_t *ids, size_t nids)
{
	struct perfdata_event *e;

	pd->ev = xgrow(pd->ev, &pd->evcap, pd->nev + 1, sizeof(*pd->ev));
	e = &pd->ev[pd->nev];
	perfdata_attr(e, attr, size);
	e->name = perfdata_event_name(e->type, e->config);
	for (size_t i = 0; i < nids; i++) {
		pd->ids = xgrow(pd->ids, &pd->idcap, pd->nids + 1, sizeof(*pd->ids));
		pd->ids[pd->nids].id = perfdata_u64(ids + 8 * i);
		pd->ids[pd->nids++].ev = pd->nev;
	}
	pd->ids_sorted = false;
	pd->nev++;
}

static int perfdata_id_cmp(const void *a, const void *b)
{
	const struct perfdata_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The attr of size bytes at off must fit in len and say a size no larger. */
static int perfdata_check_attr(const uint8_t *buf, size_t len, size_t off, size_t size, char *err,
			       size_t errsize)
{
	uint32_t own;

	if (size < PERFDATA_ATTR_MIN || size > PERFDATA_ATTR_MAX ||
	    !perfdata_within(len, off, size))
		return perfdata_fail(err, errsize, off, "an event attr of %zu bytes does not fit",
				     size);
	own = perfdata_u32(buf + off + 4);
	if (own && own > size)
		return perfdata_fail(err, errsize, off,
				     "an event attr says it is %" PRIu32 " bytes, in %zu", own,
				     size);
	return 0;
}

/* A feature string { u32 len; char s[len]; } at p of left bytes, into out. */
static int perfdata_string(const uint8_t *p, size_t left, char *out, size_t outsize, size_t *used)
{
	uint32_t n;
	size_t k;

	if (left < 4)
		return -EINVAL;
	n = perfdata_u32(p);
	if (n > left - 4)
		return -EINVAL;
	k = strnlen((const char *)p + 4, n);
	if (out)
		snprintf(out, outsize, "%.*s", (int)(k < outsize ? k : outsize - 1),
			 (const char *)p + 4);
	if (used)
		*used = 4 + (size_t)n;
	return 0;
}

/* EVENT_DESC: { u32 nr, attr_size; { attr; u32 nr_ids; string name; u64 ids[]; } x nr } */
static int perfdata_event_desc(struct perfdata *pd, const uint8_t *p, size_t n)
{
	uint32_t nr, sz;
	size_t at = 8;

	if (n < 8)
		return -EINVAL;
	nr = perfdata_u32(p);
	sz = perfdata_u32(p + 4);
	if (sz < PERFDATA_ATTR_MIN || sz > PERFDATA_ATTR_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		char name[256];
		uint32_t nids;
		size_t used;

		if (!perfdata_within(n, at, (uint64_t)sz + 4))
			return -EINVAL;
		nids = perfdata_u32(p + at + sz);
		at += sz + 4;
		if (perfdata_string(p + at, n - at, name, sizeof(name), &used))
			return -EINVAL;
		at += used;
		if (!perfdata_within(n, at, (uint64_t)nids * 8))
			return -EINVAL;
		at += (size_t)nids * 8;
		/* the descriptions come in the order of the attrs */
		if (i < pd->nev && name[0]) {
			free(pd->ev[i].name);
			pd->ev[i].name = xstrdup(name);
		}
	}
	return 0;
}

/* Mark the CPUs of list (a cpulist, "0-27,56-83", len bytes) as on node. 0 or -EINVAL. */
static int perfdata_cpulist(struct perfdata *pd, const char *list, size_t len, uint32_t node)
{
	size_t i = 0;

	while (i < len && list[i]) {
		unsigned long lo = 0, hi;
		size_t d = i;

		while (i < len && list[i] >= '0' && list[i] <= '9' && lo <= PERFDATA_CPU_MAX)
			lo = lo * 10 + (unsigned long)(list[i++] - '0');
		if (i == d || lo > PERFDATA_CPU_MAX)
			return -EINVAL;
		hi = lo;
		if (i < len && list[i] == '-') {
			d = ++i;
			hi = 0;
			while (i < len && list[i] >= '0' && list[i] <= '9' &&
			       hi <= PERFDATA_CPU_MAX)
				hi = hi * 10 + (unsigned long)(list[i++] - '0');
			if (i == d || hi > PERFDATA_CPU_MAX || hi < lo)
				return -EINVAL;
		}
		if (hi >= pd->ncpu_node) {
			size_t old = pd->ncpu_node;

			pd->cpu_node = xrealloc(pd->cpu_node, (hi + 1) * sizeof(*pd->cpu_node));
			memset(pd->cpu_node + old, 0, (hi + 1 - old) * sizeof(*pd->cpu_node));
			pd->ncpu_node = hi + 1;
		}
		for (unsigned long c = lo; c <= hi; c++)
			pd->cpu_node[c] = (uint16_t)(node + 1);
		if (i < len && list[i] == ',')
			i++;
		else if (i < len && list[i] && list[i] != '\n')
			return -EINVAL;
		else
			break;
	}
	return 0;
}

static void perfdata_forget_numa(struct perfdata *pd)
{
	free(pd->cpu_node);
	pd->cpu_node = NULL;
	pd->ncpu_node = 0;
}

int perfdata_numa_topology(struct perfdata *pd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	size_t at = 4;
	uint32_t nr;

	perfdata_forget_numa(pd);
	if (n < 4)
		return -EINVAL;
	nr = perfdata_u32(p);
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t node, len;

		if (!perfdata_within(n, at, 4 + 16 + 4))
			goto out_bad;
		node = perfdata_u32(p + at);
		at += 4 + 16; /* mem_total, mem_free */
		len = perfdata_u32(p + at);
		if (!perfdata_within(n, at + 4, len))
			goto out_bad;
		if (node <= PERFDATA_NODE_MAX &&
		    perfdata_cpulist(pd, (const char *)p + at + 4, len, node))
			goto out_bad;
		at += 4 + (size_t)len;
	}
	return 0;
out_bad:
	perfdata_forget_numa(pd);
	return -EINVAL;
}

static void perfdata_forget_mem(struct perfdata *pd)
{
	for (size_t i = 0; i < pd->nmemnodes; i++)
		free(pd->memnodes[i].bits);
	free(pd->memnodes);
	pd->memnodes = NULL;
	pd->nmemnodes = 0;
	pd->mem_block = 0;
}

int perfdata_mem_topology(struct perfdata *pd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	uint64_t block, nr;
	size_t at = 24;

	perfdata_forget_mem(pd);
	if (n < 24)
		return -EINVAL;
	block = perfdata_u64(p + 8);
	nr = perfdata_u64(p + 16);
	/* each node takes 24 bytes at least: a count beyond the section is garbage */
	if (!block || nr > (n - 24) / 24)
		return -EINVAL;
	pd->memnodes = xcalloc(nr ? nr : 1, sizeof(*pd->memnodes));
	for (uint64_t i = 0; i < nr; i++) {
		struct perfdata_memnode *m = &pd->memnodes[pd->nmemnodes];
		uint64_t words, size;

		if (!perfdata_within(n, at, 24))
			goto out_bad;
		m->node = perfdata_u64(p + at);
		size = perfdata_u64(p + at + 16); /* the bitmap's own size, as the node's */
		if (size != perfdata_u64(p + at + 8) || size > PERFDATA_MEM_BITS)
			goto out_bad;
		words = (size + 63) / 64;
		at += 24;
		if (!perfdata_within(n, at, words * 8))
			goto out_bad;
		m->nbits = size;
		m->bits = xmalloc(words ? words * 8 : 1);
		if (words)
			memcpy(m->bits, p + at, words * 8);
		pd->nmemnodes++;
		at += words * 8;
	}
	pd->mem_block = block;
	return 0;
out_bad:
	perfdata_forget_mem(pd);
	return -EINVAL;
}

int perfdata_cpu_node(const struct perfdata *pd, uint32_t cpu)
{
	return cpu < pd->ncpu_node && pd->cpu_node[cpu] ? pd->cpu_node[cpu] - 1 : -1;
}

int perfdata_phys_node(const struct perfdata *pd, uint64_t phys)
{
	uint64_t b;

	if (!phys || !pd->mem_block)
		return -1;
	b = phys / pd->mem_block;
	for (size_t i = 0; i < pd->nmemnodes; i++) {
		const struct perfdata_memnode *m = &pd->memnodes[i];

		if (b < m->nbits && (m->bits[b / 64] >> (b % 64) & 1))
			return m->node <= PERFDATA_NODE_MAX ? (int)m->node : -1;
	}
	return -1;
}

/* One feature section (id feat, n bytes at p); unknown ids are counted. */
static int perfdata_feature(struct perfdata *pd, unsigned feat, const uint8_t *p, size_t n)
{
	switch (feat) {
	case PERFDATA_FEAT_HOSTNAME:
		return perfdata_string(p, n, pd->host, sizeof(pd->host), NULL);
	case PERFDATA_FEAT_OSRELEASE:
		return perfdata_string(p, n, pd->kernel, sizeof(pd->kernel), NULL);
	case PERFDATA_FEAT_VERSION:
		return perfdata_string(p, n, pd->version, sizeof(pd->version), NULL);
	case PERFDATA_FEAT_ARCH:
		return perfdata_string(p, n, pd->arch, sizeof(pd->arch), NULL);
	case PERFDATA_FEAT_CPUDESC:
		return perfdata_string(p, n, pd->cpudesc, sizeof(pd->cpudesc), NULL);
	case PERFDATA_FEAT_CPUID:
		return perfdata_string(p, n, pd->cpuid, sizeof(pd->cpuid), NULL);
	case PERFDATA_FEAT_NRCPUS:
		/* { u32 nr_cpus_avail, nr_cpus_online; } */
		if (n < 8)
			return -EINVAL;
		pd->nrcpus = perfdata_u32(p + 4);
		return 0;
	case PERFDATA_FEAT_EVENT_DESC:
		return perfdata_event_desc(pd, p, n);
	case PERFDATA_FEAT_NUMA_TOPOLOGY:
		return perfdata_numa_topology(pd, p, n);
	case PERFDATA_FEAT_MEM_TOPOLOGY:
		return perfdata_mem_topology(pd, p, n);
	default:
		if (feat > PERFDATA_FEAT_KNOWN)
			pd->skipped.features++;
		return 0;
	}
}

/* The file format: header, attrs with their ids, feature sections after the data. */
static int perfdata_open_file(struct perfdata *pd, char *err, size_t errsize)
{
	const uint8_t *b = pd->buf;
	uint64_t hsize, attr_size, aoff, asize, doff, dsize, foff;
	size_t nfeat = 0;

	if (pd->len < PERFDATA_FILE_HEADER)
		return perfdata_fail(err, errsize, 0,
				     "%zu bytes, too short for the %d-byte perf.data header",
				     pd->len, PERFDATA_FILE_HEADER);
	hsize = perfdata_u64(b + 8);
	if (hsize < PERFDATA_FILE_HEADER || hsize > pd->len)
		return perfdata_fail(err, errsize, 8, "a header size of %" PRIu64 " bytes", hsize);
	attr_size = perfdata_u64(b + 16);
	aoff = perfdata_u64(b + 24);
	asize = perfdata_u64(b + 32);
	doff = perfdata_u64(b + 40);
	dsize = perfdata_u64(b + 48);
	/* struct perf_file_attr { attr; struct perf_file_section ids; } */
	if (attr_size < PERFDATA_ATTR_MIN + 16 || attr_size > PERFDATA_ATTR_MAX + 16)
		return perfdata_fail(err, errsize, 16, "an attr size of %" PRIu64 " bytes",
				     attr_size);
	if (!perfdata_within(pd->len, aoff, asize) || asize % attr_size ||
	    asize / attr_size > PERFDATA_MAX_EVENTS)
		return perfdata_fail(err, errsize, 24,
				     "the event attrs (%" PRIu64 " bytes at %" PRIu64
				     ") do not fit in the %zu-byte file",
				     asize, aoff, pd->len);
	if (!asize)
		return perfdata_fail(err, errsize, 32, "no events");
	for (uint64_t a = aoff; a < aoff + asize; a += attr_size) {
		size_t sz = (size_t)attr_size - 16;
		uint64_t ioff = perfdata_u64(b + a + sz), isize = perfdata_u64(b + a + sz + 8);
		int e = perfdata_check_attr(b, pd->len, (size_t)a, sz, err, errsize);

		if (e)
			return e;
		if (!perfdata_within(pd->len, ioff, isize) || isize % 8)
			return perfdata_fail(err, errsize, (size_t)a + sz,
					     "the ids of an event (%" PRIu64 " bytes at %" PRIu64
					     ") do not fit in the file",
					     isize, ioff);
		perfdata_add_event(pd, b + a, sz, b + ioff, (size_t)isize / 8);
	}
	if (!perfdata_within(pd->len, doff, dsize))
		return perfdata_fail(err, errsize, 40,
				     "the data section (%" PRIu64 " bytes at %" PRIu64
				     ") runs past the end of the %zu-byte file: truncated",
				     dsize, doff, pd->len);
	pd->off = (size_t)doff;
	pd->end = (size_t)(doff + dsize);
	/* the feature map (after the event_types section, unused since 2.6.x): one
	 * perf_file_section after the data per bit set, in bit order */
	foff = doff + dsize;
	for (unsigned bit = 0; bit < PERFDATA_FEAT_BITS; bit++) {
		uint64_t at, off, size;

		if (!(b[72 + bit / 8] & (1u << (bit % 8))))
			continue;
		at = foff + 16 * (uint64_t)nfeat++;
		/*
		 * features describe the capture and are not needed to read it:
		 * one that is cut short or does not parse (old perfs wrote some
		 * oddly) is skipped and counted, as perf shows "(null)" for it
		 */
		if (!perfdata_within(pd->len, at, 16)) {
			pd->skipped.features++;
			continue;
		}
		off = perfdata_u64(b + at);
		size = perfdata_u64(b + at + 8);
		if (!perfdata_within(pd->len, off, size) ||
		    perfdata_feature(pd, bit, b + off, (size_t)size))
			pd->skipped.features++;
	}
	return 0;
}

/* A HEADER_ATTR record of the pipe format: { attr; u64 ids[]; } */
static int perfdata_pipe_attr(struct perfdata *pd, size_t off, size_t size, char *err,
			      size_t errsize)
{
	const uint8_t *p = pd->buf + off + 8;
	size_t body = size - 8;
	uint32_t asz;
	int e;

	if (body < 8)
		return perfdata_fail(err, errsize, off, "an event attr record of %zu bytes", size);
	asz = perfdata_u32(p + 4);
	if (asz > body || (body - asz) % 8)
		return perfdata_fail(err, errsize, off,
				     "an event attr of %" PRIu32 " bytes in a record of %zu", asz,
				     size);
	e = perfdata_check_attr(pd->buf, pd->len, off + 8, asz, err, errsize);
	if (e)
		return e;
	if (pd->nev >= PERFDATA_MAX_EVENTS)
		return perfdata_fail(err, errsize, off, "more than %d events", PERFDATA_MAX_EVENTS);
	perfdata_add_event(pd, p, asz, p + asz, (body - asz) / 8);
	return 0;
}

int perfdata_open(struct perfdata *pd, const void *buf, size_t len, char *err, size_t errsize)
{
	const uint8_t *b = buf;

	memset(pd, 0, sizeof(*pd));
	pd->buf = buf;
	pd->len = len;
	if (len < 16 || !perfdata_magic(b, len)) {
		if (len >= 8 && !memcmp(b, "2ELIFREP", 8))
			return perfdata_fail(err, errsize, 0,
					     "a capture from a big-endian machine: not supported");
		return perfdata_fail(err, errsize, 0, "no perf.data header (magic PERFILE2)");
	}
	if (perfdata_u64(b + 8) == PERFDATA_PIPE_HEADER) {
		/* the events come as records: read them with the others */
		pd->pipe = true;
		pd->off = PERFDATA_PIPE_HEADER;
		pd->end = len;
		return 0;
	}
	return perfdata_open_file(pd, err, errsize);
}

void perfdata_release(struct perfdata *pd)
{
	for (size_t i = 0; i < pd->nev; i++)
		free(pd->ev[i].name);
	free(pd->ev);
	free(pd->ids);
	perfdata_forget_numa(pd);
	perfdata_forget_mem(pd);
	memset(pd, 0, sizeof(*pd));
}

/* The event a sample of body (n bytes) belongs to, by its id; 0 when there is one event. */
static size_t perfdata_sample_event(struct perfdata *pd, const uint8_t *body, size_t n)
{
	uint64_t t, id;
	size_t at = 0;
	struct perfdata_id key, *hit;

	if (pd->nev <= 1)
		return 0;
	/* perf requires every event to put the id in one place (evlist__id_pos) */
	t = pd->ev[0].fmt.sample_type;
	if (!(t & PERFREC_SAMPLE_IDENTIFIER)) {
		if (!(t & PERFREC_SAMPLE_ID))
			return 0;
		at = 8 * (!!(t & PERFREC_SAMPLE_IP) + !!(t & PERFREC_SAMPLE_TID) +
			  !!(t & PERFREC_SAMPLE_TIME) + !!(t & PERFREC_SAMPLE_ADDR));
	}
	if (n < at + 8)
		return 0;
	id = perfdata_u64(body + at);
	if (!pd->ids_sorted) {
		if (pd->nids > 1)
			qsort(pd->ids, pd->nids, sizeof(*pd->ids), perfdata_id_cmp);
		pd->ids_sorted = true;
	}
	key.id = id;
	hit = pd->nids ? bsearch(&key, pd->ids, pd->nids, sizeof(*pd->ids), perfdata_id_cmp) : NULL;
	return hit ? hit->ev : 0;
}

/* perf's own records (type 64 and up): events and features in a pipe, the rest skipped. */
static int perfdata_user_record(struct perfdata *pd, uint32_t type, size_t off, size_t size,
				size_t *extra, char *err, size_t errsize)
{
	const uint8_t *body = pd->buf + off + 8;
	size_t blen = size - 8;

	switch (type) {
	case PERFDATA_HEADER_ATTR:
		return perfdata_pipe_attr(pd, off, size, err, errsize);
	case PERFDATA_HEADER_FEATURE:
		/* { u64 feat_id; data as in the file's section } */
		if (blen < 8)
			return perfdata_fail(err, errsize, off, "a feature record of %zu bytes",
					     size);
		if (perfdata_u64(body) >= PERFDATA_FEAT_BITS) {
			pd->skipped.features++;
			return 0;
		}
		if (perfdata_feature(pd, (unsigned)perfdata_u64(body), body + 8, blen - 8))
			pd->skipped.features++;
		return 0;
	case PERFDATA_HEADER_TRACING_DATA: {
		/* { u32 size; } and then size bytes of tracing data, padded to 8 */
		uint64_t n;

		if (blen < 4)
			return perfdata_fail(err, errsize, off,
					     "a tracing data record of %zu bytes", size);
		n = (perfdata_u32(body) + 7ull) & ~7ull;
		*extra = (size_t)n;
		return 0;
	}
	case PERFDATA_AUXTRACE:
		/* { u64 size, offset, reference; u32 idx, tid, cpu, reserved; } then size bytes */
		if (blen < 8)
			return perfdata_fail(err, errsize, off, "an AUX trace record of %zu bytes",
					     size);
		*extra = (size_t)perfdata_u64(body);
		if ((uint64_t)*extra != perfdata_u64(body))
			*extra = SIZE_MAX;
		pd->skipped.aux++;
		return 0;
	case PERFDATA_AUXTRACE_INFO:
	case PERFDATA_AUXTRACE_ERROR:
		pd->skipped.aux++;
		return 0;
	case PERFDATA_COMPRESSED:
	case PERFDATA_COMPRESSED2:
		pd->skipped.compressed++;
		return 0;
	default:
		if (type > PERFDATA_USER_LAST)
			pd->skipped.unknown++;
		return 0;
	}
}

int perfdata_next(struct perfdata *pd, const struct perfrec_cbs *cbs, char *err, size_t errsize)
{
	struct perfrec_cbs c = *cbs;
	uint32_t type;
	uint16_t size;
	size_t off = pd->off, extra = 0;

	if (off >= pd->end)
		return 0;
	if (pd->end - off < 8)
		return perfdata_fail(err, errsize, off,
				     "%zu bytes left, too few for a record header: truncated",
				     pd->end - off);
	type = perfdata_u32(pd->buf + off);
	memcpy(&size, pd->buf + off + 6, 2);
	if (size < 8)
		return perfdata_fail(err, errsize, off,
				     "a record of type %" PRIu32 " says it is %u bytes long", type,
				     size);
	if (size > pd->end - off)
		return perfdata_fail(err, errsize, off,
				     "a record of type %" PRIu32
				     " and %u bytes runs past the end of the data: truncated",
				     type, size);
	if (type >= PERFDATA_HEADER_ATTR) {
		int e = perfdata_user_record(pd, type, off, size, &extra, err, errsize);

		if (e)
			return e;
		if (extra > pd->end - off - size)
			return perfdata_fail(err, errsize, off,
					     "a record of type %" PRIu32
					     " is followed by %zu bytes the data does not hold: "
					     "truncated",
					     type, extra);
		pd->off = off + size + extra;
		return 1;
	}
	if (!pd->nev)
		return perfdata_fail(err, errsize, off, "a record before any event attr");
	c.id_type = pd->ev[0].sample_id_all ? pd->ev[0].fmt.sample_type : 0;
	if (type == PERFREC_SAMPLE) {
		const uint8_t *body = pd->buf + off + 8;
		size_t ev = perfdata_sample_event(pd, body, size - 8u);
		struct perfrec_sample s;
		int e = perfrec_parse_sample(body, size - 8u, &pd->ev[ev].fmt, &s);

		if (e)
			return perfdata_fail(err, errsize, off,
					     "a sample of %u bytes does not match its event's "
					     "sample_type 0x%" PRIx64 "%s",
					     size, pd->ev[ev].fmt.sample_type,
					     e == -ENOTSUP ? " (fields newer than pmctop)" : "");
		s.attr = (uint32_t)ev;
		pd->st.samples++;
		if (c.sample)
			c.sample(&s, c.arg);
	} else {
		if (perfrec_record(pd->buf + off, size, &pd->ev[0].fmt, &c, &pd->st) < 0)
			return perfdata_fail(err, errsize, off,
					     "a record of type %" PRIu32
					     " and %u bytes is malformed",
					     type, size);
		if (type == PERFREC_AUX || type == PERFREC_ITRACE_START)
			pd->skipped.aux++;
		else if (type > PERFDATA_KERNEL_LAST)
			pd->skipped.unknown++;
	}
	pd->off = off + size;
	return 1;
}
