/* Ring-buffer records: decoded in the sample_type order of the uapi header. */
#include "config.h"
#include "kernel/ring.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "kernel/perf_compat.h"

#define RING_MAX_RECORD 65536 /* header.size is a u16 */

/* stream/perfrec.h spells the ABI itself; it must be the kernel's */
_Static_assert(PERFREC_SAMPLE_IP == PERF_SAMPLE_IP, "sample_type");
_Static_assert(PERFREC_SAMPLE_READ == PERF_SAMPLE_READ, "sample_type");
_Static_assert(PERFREC_SAMPLE_DATA_SRC == PERF_SAMPLE_DATA_SRC, "sample_type");
_Static_assert(PERFREC_SAMPLE_IDENTIFIER == PERF_SAMPLE_IDENTIFIER, "sample_type");
_Static_assert(PERFREC_SAMPLE_PHYS_ADDR == PERF_SAMPLE_PHYS_ADDR, "sample_type");
_Static_assert(PERFREC_SAMPLE_DATA_PAGE_SIZE == PERF_SAMPLE_DATA_PAGE_SIZE, "sample_type");
_Static_assert(PERFREC_SAMPLE_WEIGHT_STRUCT == PERF_SAMPLE_WEIGHT_STRUCT, "sample_type");
_Static_assert(PERFREC_FORMAT_LOST == PERF_FORMAT_LOST, "read_format");
_Static_assert((int)PERFREC_MMAP2 == (int)PERF_RECORD_MMAP2, "record types");
_Static_assert((int)PERFREC_LOST_SAMPLES == (int)PERF_RECORD_LOST_SAMPLES, "record types");
_Static_assert(PERFREC_MISC_MMAP_BUILD_ID == PERF_RECORD_MISC_MMAP_BUILD_ID, "misc");
_Static_assert(PERFREC_MEM_HOPS_SHIFT == PERF_MEM_HOPS_SHIFT, "data_src");
_Static_assert(PERFREC_MEM_SNOOPX_SHIFT == PERF_MEM_SNOOPX_SHIFT, "data_src");
_Static_assert(PERFREC_MEM_LVLNUM_SHIFT == PERF_MEM_LVLNUM_SHIFT, "data_src");
_Static_assert(PERFREC_MEM_LVLNUM_LFB == PERF_MEM_LVLNUM_LFB, "data_src");
_Static_assert(PERFREC_MEM_LVLNUM_L2_MHB == PERF_MEM_LVLNUM_L2_MHB, "data_src");
_Static_assert(PERFREC_MEM_LVLNUM_MSC == PERF_MEM_LVLNUM_MSC, "data_src");
_Static_assert(PERFREC_MEM_LVLNUM_UNC == PERF_MEM_LVLNUM_UNC, "data_src");

void ring_walk(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
	       uint64_t sample_type, perfrec_sample_cb cb, void *arg, struct perfrec_stats *st)
{
	struct perfrec_cbs cbs = { cb, NULL, NULL, arg, 0 };

	ring_walk_records(data, size, head, tail, sample_type, &cbs, st);
}

void ring_walk_records(const uint8_t *data, uint64_t size, uint64_t head, uint64_t *tail,
		       uint64_t sample_type, const struct perfrec_cbs *cbs,
		       struct perfrec_stats *st)
{
	const struct perfrec_fmt fmt = { .sample_type = sample_type };
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
		perfrec_record(rec, h.size, &fmt, cbs, st);
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

void ring_drain(struct ring *r, perfrec_sample_cb cb, void *arg, struct perfrec_stats *st)
{
	struct perfrec_cbs cbs = { cb, NULL, NULL, arg, 0 };

	ring_drain_records(r, &cbs, st);
}

void ring_drain_records(struct ring *r, const struct perfrec_cbs *cbs, struct perfrec_stats *st)
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
