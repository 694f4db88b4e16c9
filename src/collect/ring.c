/* Ring-buffer records: decoded in the sample_type order of the uapi header. */
#include "config.h"
#include "collect/ring.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "collect/perf_compat.h"

#define RING_MAX_RECORD 65536	/* header.size is a u16 */

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
		return -EINVAL;	/* the kernel refuses both */
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

enum mem_level ring_data_level(uint64_t src)
{
	uint64_t lvl = (src >> PERF_MEM_LVL_SHIFT) & 0x3fff;
	uint64_t num = (src >> PERF_MEM_LVLNUM_SHIFT) & 0xf;
	bool remote = (src >> PERF_MEM_REMOTE_SHIFT) & 1;

	if (!src)
		return MEM_LVL_NA;
	/* the newer level-number field wins where the PMU fills it */
	switch (num) {
	case PERF_MEM_LVLNUM_L1:
		return MEM_LVL_L1;
	case PERF_MEM_LVLNUM_LFB:
		return MEM_LVL_LFB;
	case PERF_MEM_LVLNUM_L2:
		return remote ? MEM_LVL_REMOTE_CACHE : MEM_LVL_L2;
	case PERF_MEM_LVLNUM_L3:
	case PERF_MEM_LVLNUM_L4:
	case PERF_MEM_LVLNUM_ANY_CACHE:
		return remote ? MEM_LVL_REMOTE_CACHE : MEM_LVL_L3;
	case PERF_MEM_LVLNUM_RAM:
	case PERF_MEM_LVLNUM_PMEM:
	case PERF_MEM_LVLNUM_CXL:
		return remote ? MEM_LVL_REMOTE_RAM : MEM_LVL_LOCAL_RAM;
	case PERF_MEM_LVLNUM_IO:
		return MEM_LVL_IO;
	default:
		break;
	}
	if (lvl & PERF_MEM_LVL_L1)
		return MEM_LVL_L1;
	if (lvl & PERF_MEM_LVL_LFB)
		return MEM_LVL_LFB;
	if (lvl & PERF_MEM_LVL_L2)
		return MEM_LVL_L2;
	if (lvl & PERF_MEM_LVL_L3)
		return MEM_LVL_L3;
	if (lvl & PERF_MEM_LVL_LOC_RAM)
		return MEM_LVL_LOCAL_RAM;
	if (lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		return MEM_LVL_REMOTE_RAM;
	if (lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2))
		return MEM_LVL_REMOTE_CACHE;
	if (lvl & (PERF_MEM_LVL_IO | PERF_MEM_LVL_UNC))
		return MEM_LVL_IO;
	return MEM_LVL_NA;
}

void ring_walk(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
	       uint64_t sample_type, ring_sample_cb cb, void *arg, struct ring_stats *st)
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

			if (ring_parse_sample(rec + sizeof(h), h.size - sizeof(h), sample_type, &s) == 0) {
				st->samples++;
				if (cb)
					cb(&s, arg);
			} else {
				st->corrupt++;
			}
			break;
		}
		case PERF_RECORD_LOST: {
			uint64_t v[2];	/* id, lost */

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
		case PERF_RECORD_EXIT:
			st->exits++;
			break;
		default:
			st->other++;
			break;
		}
		t += h.size;
	}
	*tail = t;
}

int ring_map(struct ring *r, const struct sysops *ops, int fd, unsigned order,
	     uint64_t sample_type)
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
	struct perf_event_mmap_page *pc = r->base;
	const uint8_t *data;
	uint64_t head, tail, size;

	if (!pc)
		return;
	size = pc->data_size;
	data = (const uint8_t *)r->base + pc->data_offset;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	ring_walk(data, size, head, &tail, r->sample_type, cb, arg, st);
	/* only after the records are copied out may the kernel reuse the space */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
}
