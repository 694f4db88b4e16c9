/* Ring-buffer records: decoded in the sample_type order of the uapi header. */
#include "config.h"
#include "collect/ring.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "collect/perf_compat.h"

#define RING_MAX_RECORD 65536 /* header.size is a u16 */

struct ring_cursor {
	const uint8_t *p;
	size_t left;
};

static int ring_u64(struct ring_cursor *c, uint64_t *v)
{
	if (c->left < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return 0;
}

static int ring_skip(struct ring_cursor *c, size_t n)
{
	if (c->left < n)
		return -EINVAL;
	c->p += n;
	c->left -= n;
	return 0;
}

int ring_parse_sample(const void *body, size_t len, uint64_t t, struct ring_sample *s)
{
	const uint64_t unsupported = PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK |
				     PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
				     PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX;
	struct ring_cursor c = { body, len };
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (t & unsupported)
		return -ENOTSUP;
	if ((t & PERF_SAMPLE_WEIGHT) && (t & PERF_SAMPLE_WEIGHT_STRUCT))
		return -EINVAL; /* the kernel refuses both */
	if ((t & PERF_SAMPLE_IDENTIFIER) && ring_u64(&c, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IP) && ring_u64(&c, &s->ip))
		return -EINVAL;
	if (t & PERF_SAMPLE_TID) {
		if (ring_u64(&c, &v))
			return -EINVAL;
		/* { u32 pid, tid; } in memory order */
		memcpy(&s->pid, (const uint8_t *)&v, 4);
		memcpy(&s->tid, (const uint8_t *)&v + 4, 4);
	}
	if ((t & PERF_SAMPLE_TIME) && ring_u64(&c, &s->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ADDR) && ring_u64(&c, &s->addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && ring_u64(&c, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && ring_u64(&c, &v))
		return -EINVAL;
	if (t & PERF_SAMPLE_CPU) {
		if (ring_u64(&c, &v))
			return -EINVAL;
		memcpy(&s->cpu, &v, 4);
	}
	if ((t & PERF_SAMPLE_PERIOD) && ring_u64(&c, &s->period))
		return -EINVAL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (ring_u64(&c, &v) || v > RING_MAX_RECORD / 8 || ring_skip(&c, (size_t)v * 8))
			return -EINVAL;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t n;

		if (c.left < 4)
			return -EINVAL;
		memcpy(&n, c.p, 4);
		/* u32 size plus data, padded to 8 bytes by the kernel */
		if (ring_skip(&c, 4) || ring_skip(&c, n))
			return -EINVAL;
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (ring_u64(&c, &v))
			return -EINVAL;
		/* the struct form keeps the latency in its low 32 bits (var1_dw) */
		s->weight = (t & PERF_SAMPLE_WEIGHT_STRUCT) ? (v & 0xffffffffu) : v;
	}
	if ((t & PERF_SAMPLE_DATA_SRC) && ring_u64(&c, &s->data_src))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TRANSACTION) && ring_u64(&c, &v))
		return -EINVAL;
	if ((t & PERF_SAMPLE_PHYS_ADDR) && ring_u64(&c, &s->phys_addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CGROUP) && ring_u64(&c, &v))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_PAGE_SIZE) && ring_u64(&c, &s->page_size))
		return -EINVAL;
	s->op = ring_data_op(s->data_src);
	s->level = ring_data_level(s->data_src);
	return 0;
}

/* Bytes of the sample_id trailer that sample_id_all appends to non-sample records. */
static size_t ring_id_size(uint64_t t)
{
	size_t n = 0;

	n += (t & PERF_SAMPLE_TID) ? 8 : 0;
	n += (t & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (t & PERF_SAMPLE_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

/* The time of a sample_id trailer of id_type, 0 when it has none. */
static uint64_t ring_id_time(const uint8_t *trailer, uint64_t t)
{
	uint64_t v = 0;

	if (!(t & PERF_SAMPLE_TIME))
		return 0;
	memcpy(&v, trailer + ((t & PERF_SAMPLE_TID) ? 8 : 0), 8);
	return v;
}

/*
 * Split a record body into its fields and its sample_id trailer: *fields
 * gets how many bytes come before the trailer, *time the trailer's time.
 */
static int ring_split_id(const uint8_t *p, size_t len, uint64_t id_type, size_t *fields,
			 uint64_t *time)
{
	size_t id = ring_id_size(id_type);

	if (len < id)
		return -EINVAL;
	*fields = len - id;
	*time = id ? ring_id_time(p + *fields, id_type) : 0;
	return 0;
}

int ring_parse_mmap(const void *body, size_t len, bool mmap2, uint16_t misc, uint64_t id_type,
		    struct ring_mmap *m)
{
	const uint8_t *p = body;
	struct ring_cursor c;
	size_t fields;
	uint64_t v;

	memset(m, 0, sizeof(*m));
	if (ring_split_id(p, len, id_type, &fields, &m->time))
		return -EINVAL;
	c = (struct ring_cursor){ p, fields };
	/* { u32 pid, tid; u64 addr, len, pgoff; } */
	if (ring_u64(&c, &v))
		return -EINVAL;
	memcpy(&m->pid, (const uint8_t *)&v, 4);
	memcpy(&m->tid, (const uint8_t *)&v + 4, 4);
	if (ring_u64(&c, &m->addr) || ring_u64(&c, &m->len) || ring_u64(&c, &m->pgoff))
		return -EINVAL;
	if (mmap2) {
		/* { u32 maj, min; u64 ino, ino_generation; } or { u8 size, pad[3]; u8 id[20]; } */
		if (c.left < 24)
			return -EINVAL;
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->build_id_size = c.p[0] > 20 ? 20 : c.p[0];
			memcpy(m->build_id, c.p + 4, 20);
		} else {
			memcpy(&m->maj, c.p, 4);
			memcpy(&m->min, c.p + 4, 4);
			memcpy(&m->ino, c.p + 8, 8);
			memcpy(&m->ino_generation, c.p + 16, 8);
		}
		if (ring_skip(&c, 24) || c.left < 8)
			return -EINVAL;
		memcpy(&m->prot, c.p, 4);
		memcpy(&m->flags, c.p + 4, 4);
		ring_skip(&c, 8);
	}
	/* the name is NUL-padded to 8 bytes; the kernel always leaves a NUL */
	m->name = (const char *)c.p;
	m->name_len = c.left ? strnlen(m->name, c.left) : 0;
	m->exec = !(misc & PERF_RECORD_MISC_MMAP_DATA);
	if (m->addr + m->len < m->addr)
		return -EINVAL; /* a range past the end of the address space */
	return 0;
}

int ring_parse_task(const void *body, size_t len, uint32_t type, uint16_t misc, uint64_t id_type,
		    struct ring_task *t)
{
	const uint8_t *p = body;
	struct ring_cursor c;
	size_t fields;
	uint64_t v;

	memset(t, 0, sizeof(*t));
	t->type = type;
	if (ring_split_id(p, len, id_type, &fields, &t->time))
		return -EINVAL;
	c = (struct ring_cursor){ p, fields };
	/* COMM: { u32 pid, tid; char comm[]; }  EXIT: { u32 pid, ppid, tid, ptid; u64 time; } */
	if (ring_u64(&c, &v))
		return -EINVAL;
	memcpy(&t->pid, (const uint8_t *)&v, 4);
	if (type == PERF_RECORD_COMM) {
		memcpy(&t->tid, (const uint8_t *)&v + 4, 4);
		t->exec = misc & PERF_RECORD_MISC_COMM_EXEC;
		t->comm = (const char *)c.p;
		t->comm_len = c.left ? strnlen(t->comm, c.left) : 0;
		return 0;
	}
	if (type != PERF_RECORD_EXIT || ring_u64(&c, &v))
		return -EINVAL;
	memcpy(&t->tid, &v, 4);
	if (ring_u64(&c, &v))
		return -EINVAL;
	if (!t->time)
		t->time = v;
	return 0;
}

enum mem_op ring_data_op(uint64_t src)
{
	uint64_t op = (src >> PERF_MEM_OP_SHIFT) & 0x1f;

	if (!src || (op & PERF_MEM_OP_NA) || !op)
		return MEM_OP_NA;
	if (op & PERF_MEM_OP_LOAD)
		return MEM_OP_LOAD;
	if (op & PERF_MEM_OP_STORE)
		return MEM_OP_STORE;
	return MEM_OP_OTHER;
}

/* The fields of a data source the level depends on, taken apart once. */
struct ring_src {
	uint64_t lvl, num, snoop, snoopx, hops;
	bool hit, miss, remote;
};

/*
 * A cache hit, placed by who holds the line: a modified line in another
 * core's cache is HITM; hops say how far (HOPS_0, another core of this
 * node, is near: AMD's near-CCX cache comes with the remote bit and
 * HOPS_0); the remote bit alone, with no hops, means another node.
 */
static enum mem_level ring_cache(const struct ring_src *d, enum mem_level here)
{
	if (d->snoop & PERF_MEM_SNOOP_HITM)
		return MEM_LVL_HITM;
	if (d->hops >= PERF_MEM_HOPS_1)
		return MEM_LVL_REMOTE_CACHE;
	if (d->hops == PERF_MEM_HOPS_0)
		return MEM_LVL_PEER_CACHE;
	if (d->remote)
		return MEM_LVL_REMOTE_CACHE;
	if ((d->snoop & PERF_MEM_SNOOP_HIT) ||
	    (d->snoopx & (PERF_MEM_SNOOPX_FWD | PERF_MEM_SNOOPX_PEER)))
		return MEM_LVL_PEER_CACHE;
	return here;
}

static bool ring_far(const struct ring_src *d)
{
	return d->hops >= PERF_MEM_HOPS_1 || (d->remote && d->hops != PERF_MEM_HOPS_0);
}

/* The level-number field (4.14+): one level, hit or miss. */
static enum mem_level ring_level_num(const struct ring_src *d)
{
	switch (d->num) {
	case PERF_MEM_LVLNUM_L1:
		return d->miss ? MEM_LVL_L1_MISS : MEM_LVL_L1;
	case PERF_MEM_LVLNUM_LFB:
		/* a fill buffer hit is a line already on its way from beyond L1 */
		return MEM_LVL_LFB;
	case PERF_MEM_LVLNUM_L2:
		return d->miss ? MEM_LVL_L2_MISS : ring_cache(d, MEM_LVL_L2);
	case PERF_MEM_LVLNUM_L3:
		return d->miss ? MEM_LVL_L3_MISS : ring_cache(d, MEM_LVL_L3);
	case PERF_MEM_LVLNUM_L4:
		/* missing L4 means L3 was missed too */
		return d->miss ? MEM_LVL_L3_MISS : ring_cache(d, MEM_LVL_L4);
	case PERF_MEM_LVLNUM_ANY_CACHE:
		return d->miss ? MEM_LVL_NA : ring_cache(d, MEM_LVL_CACHE);
	case PERF_MEM_LVLNUM_RAM:
		return ring_far(d) ? MEM_LVL_REMOTE_RAM : MEM_LVL_LOCAL_RAM;
	case PERF_MEM_LVLNUM_PMEM:
		return MEM_LVL_PMEM;
	case PERF_MEM_LVLNUM_CXL:
		return MEM_LVL_CXL;
	case PERF_MEM_LVLNUM_IO:
		return MEM_LVL_IO;
	default:
		return MEM_LVL_NA;
	}
}

/* The older level bits: the first level named, with HIT or MISS beside it. */
static enum mem_level ring_level_bits(const struct ring_src *d)
{
	uint64_t l = d->lvl;

	if (l & PERF_MEM_LVL_L1)
		return d->miss ? MEM_LVL_L1_MISS : MEM_LVL_L1;
	if (l & PERF_MEM_LVL_LFB)
		return MEM_LVL_LFB;
	if (l & PERF_MEM_LVL_L2)
		return d->miss ? MEM_LVL_L2_MISS : ring_cache(d, MEM_LVL_L2);
	if (l & PERF_MEM_LVL_L3)
		return d->miss ? MEM_LVL_L3_MISS : ring_cache(d, MEM_LVL_L3);
	if (l & PERF_MEM_LVL_LOC_RAM)
		return ring_far(d) ? MEM_LVL_REMOTE_RAM : MEM_LVL_LOCAL_RAM;
	if (l & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		return MEM_LVL_REMOTE_RAM;
	if (l & PERF_MEM_LVL_REM_CCE1) {
		/* one hop: another core's cache when the hops field says so */
		if (d->hops == PERF_MEM_HOPS_0)
			return MEM_LVL_PEER_CACHE;
		return (d->snoop & PERF_MEM_SNOOP_HITM) ? MEM_LVL_HITM : MEM_LVL_REMOTE_CACHE;
	}
	if (l & PERF_MEM_LVL_REM_CCE2)
		return (d->snoop & PERF_MEM_SNOOP_HITM) ? MEM_LVL_HITM : MEM_LVL_REMOTE_CACHE;
	if (l & PERF_MEM_LVL_IO)
		return MEM_LVL_IO;
	if (l & PERF_MEM_LVL_UNC)
		return MEM_LVL_UNCACHED;
	return MEM_LVL_NA;
}

enum mem_level ring_data_level(uint64_t src)
{
	struct ring_src d;
	enum mem_level l;

	if (!src)
		return MEM_LVL_NA;
	d.lvl = (src >> PERF_MEM_LVL_SHIFT) & 0x3fff;
	d.num = (src >> PERF_MEM_LVLNUM_SHIFT) & 0xf;
	d.snoop = (src >> PERF_MEM_SNOOP_SHIFT) & 0x1f;
	d.snoopx = (src >> PERF_MEM_SNOOPX_SHIFT) & 0x3;
	d.hops = (src >> PERF_MEM_HOPS_SHIFT) & 0x7;
	d.remote = (src >> PERF_MEM_REMOTE_SHIFT) & 1;
	d.hit = d.lvl & PERF_MEM_LVL_HIT;
	/* a miss at a level says where the access was not served, never where it was */
	d.miss = (d.lvl & PERF_MEM_LVL_MISS) && !d.hit;
	if (d.lvl & PERF_MEM_LVL_NA)
		d.lvl = 0;
	/* the level-number field wins where the PMU fills it (0 and NA: it does not) */
	l = d.num && d.num != PERF_MEM_LVLNUM_NA ? ring_level_num(&d) : MEM_LVL_NA;
	return l != MEM_LVL_NA ? l : ring_level_bits(&d);
}

void ring_walk(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
	       uint64_t sample_type, ring_sample_cb cb, void *arg, struct ring_stats *st)
{
	struct ring_cbs cbs = { cb, NULL, NULL, arg, 0 };

	ring_walk_records(data, size, head, tail, sample_type, &cbs, st);
}

void ring_walk_records(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
		       uint64_t sample_type, const struct ring_cbs *cbs, struct ring_stats *st)
{
	uint8_t copy[RING_MAX_RECORD];
	uint64_t t = *tail;

	/* a head more than a ring ahead means the writer lapped us: the data is gone */
	if (head - t > size) {
		st->corrupt++;
		*tail = head;
		return;
	}
	while (t < head) {
		struct perf_event_header h;
		uint64_t off = t & (size - 1);
		const uint8_t *rec;

		if (head - t < sizeof(h)) {
			st->corrupt++;
			t = head;
			break;
		}
		/* the header itself may wrap */
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(off + i) & (size - 1)];
		if (h.size < sizeof(h) || h.size > head - t) {
			/* a zero or impossible size would loop forever or run past head */
			st->corrupt++;
			t = head;
			break;
		}
		if (off + h.size <= size) {
			rec = data + off;
		} else {
			size_t first = (size_t)(size - off);

			memcpy(copy, data + off, first);
			memcpy(copy + first, data, h.size - first);
			rec = copy;
		}
		switch (h.type) {
		case PERF_RECORD_SAMPLE: {
			struct ring_sample s;

			if (ring_parse_sample(rec + sizeof(h), h.size - sizeof(h), sample_type,
					      &s) == 0) {
				st->samples++;
				if (cbs->sample)
					cbs->sample(&s, cbs->arg);
			} else {
				st->corrupt++;
			}
			break;
		}
		case PERF_RECORD_LOST: {
			uint64_t v[2]; /* id, lost */

			if (h.size >= sizeof(h) + sizeof(v)) {
				memcpy(v, rec + sizeof(h), sizeof(v));
				st->lost += v[1];
			}
			break;
		}
		case PERF_RECORD_LOST_SAMPLES: {
			uint64_t lost;

			if (h.size >= sizeof(h) + sizeof(lost)) {
				memcpy(&lost, rec + sizeof(h), sizeof(lost));
				st->lost += lost;
			}
			break;
		}
		case PERF_RECORD_THROTTLE:
			st->throttled++;
			break;
		case PERF_RECORD_UNTHROTTLE:
			st->unthrottled++;
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2: {
			struct ring_mmap m;

			if (ring_parse_mmap(rec + sizeof(h), h.size - sizeof(h),
					    h.type == PERF_RECORD_MMAP2, h.misc, cbs->id_type,
					    &m)) {
				st->corrupt++;
				break;
			}
			st->mmaps++;
			if (cbs->mmap)
				cbs->mmap(&m, cbs->arg);
			break;
		}
		case PERF_RECORD_COMM:
		case PERF_RECORD_EXIT: {
			struct ring_task tk;

			if (h.type == PERF_RECORD_EXIT)
				st->exits++;
			else
				st->comms++;
			if (ring_parse_task(rec + sizeof(h), h.size - sizeof(h), h.type, h.misc,
					    cbs->id_type, &tk)) {
				st->corrupt++;
				break;
			}
			if (cbs->task)
				cbs->task(&tk, cbs->arg);
			break;
		}
		default:
			st->other++;
			break;
		}
		t += h.size;
	}
	*tail = t;
}

int ring_map(struct ring *r, const struct sysops *ops, int fd, unsigned order, uint64_t sample_type)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	ops = sysops_or_real(ops);
	for (;;) {
		size_t len = (size_t)page * ((1u << order) + 1);
		void *p = NULL;
		int e = ops->mmap(ops->ctx, fd, len, &p);

		if (!e) {
			r->ops = ops;
			r->fd = fd;
			r->base = p;
			r->len = len;
			r->sample_type = sample_type;
			return 0;
		}
		/* over the per-user mlock budget: try a smaller ring */
		if (e != -EPERM || order == 0)
			return e;
		order--;
	}
}

void ring_unmap(struct ring *r)
{
	if (r->base)
		sysops_or_real(r->ops)->munmap(sysops_or_real(r->ops)->ctx, r->base, r->len);
	r->base = NULL;
}

void ring_drain(struct ring *r, ring_sample_cb cb, void *arg, struct ring_stats *st)
{
	struct ring_cbs cbs = { cb, NULL, NULL, arg, 0 };

	ring_drain_records(r, &cbs, st);
}

void ring_drain_records(struct ring *r, const struct ring_cbs *cbs, struct ring_stats *st)
{
	struct perf_event_mmap_page *pc = r->base;
	const uint8_t *data;
	uint64_t head, tail, size;

	if (!pc)
		return;
	size = pc->data_size;
	data = (const uint8_t *)r->base + pc->data_offset;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	ring_walk_records(data, size, head, &tail, r->sample_type, cbs, st);
	/* only after the records are copied out may the kernel reuse the space */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
}
