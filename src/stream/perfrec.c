/* perf's records decoded in the sample_type order of the uapi header: the ring's and perf.data's. */
#include "config.h"
#include "stream/perfrec.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define PERFREC_MAX_RECORD 65536 /* header.size is a u16 */

struct perfrec_cursor {
	const uint8_t *p;
	size_t left;
};

static int perfrec_u64(struct perfrec_cursor *c, uint64_t *v)
{
	if (c->left < 8)
		return -EINVAL;
	memcpy(v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return 0;
}

static int perfrec_skip(struct perfrec_cursor *c, size_t n)
{
	if (c->left < n)
		return -EINVAL;
	c->p += n;
	c->left -= n;
	return 0;
}

/* popcount of a register mask: how many u64 registers a REGS_* block holds */
static size_t perfrec_nregs(uint64_t mask)
{
	size_t n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* { u64 abi; u64 regs[weight(mask)]; }: no registers when abi is 0 (a kernel thread) */
static int perfrec_skip_regs(struct perfrec_cursor *c, uint64_t mask)
{
	uint64_t abi;

	if (perfrec_u64(c, &abi))
		return -EINVAL;
	return abi ? perfrec_skip(c, perfrec_nregs(mask) * 8) : 0;
}

/* { u64 n; u64 v[n]; } with a bound on n, so a hostile n cannot overflow the size */
static int perfrec_skip_array(struct perfrec_cursor *c, size_t each)
{
	uint64_t n;

	if (perfrec_u64(c, &n) || n > PERFREC_MAX_RECORD / each)
		return -EINVAL;
	return perfrec_skip(c, (size_t)n * each);
}

/* struct read_format as read_format lays it out */
static int perfrec_skip_read(struct perfrec_cursor *c, uint64_t rf)
{
	size_t each = 8 + ((rf & PERFREC_FORMAT_ID) ? 8 : 0) + ((rf & PERFREC_FORMAT_LOST) ? 8 : 0);
	size_t times = ((rf & PERFREC_FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
		       ((rf & PERFREC_FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);
	uint64_t nr;

	if (!(rf & PERFREC_FORMAT_GROUP))
		return perfrec_skip(c, each + times);
	/* { u64 nr; [enabled]; [running]; { value, [id], [lost] } cnt[nr]; } */
	if (perfrec_u64(c, &nr) || nr > PERFREC_MAX_RECORD / each || perfrec_skip(c, times))
		return -EINVAL;
	return perfrec_skip(c, (size_t)nr * each);
}

static int perfrec_skip_branches(struct perfrec_cursor *c, uint64_t bst)
{
	uint64_t nr;

	/* { u64 nr; [u64 hw_idx;] { u64 from, to, flags; } lbr[nr]; [u64 counters[nr]]; } */
	if (perfrec_u64(c, &nr) || nr > PERFREC_MAX_RECORD / 24)
		return -EINVAL;
	if ((bst & PERFREC_BRANCH_HW_INDEX) && perfrec_skip(c, 8))
		return -EINVAL;
	if (perfrec_skip(c, (size_t)nr * 24))
		return -EINVAL;
	return (bst & PERFREC_BRANCH_COUNTERS) ? perfrec_skip(c, (size_t)nr * 8) : 0;
}

int perfrec_parse_sample(const void *body, size_t len, const struct perfrec_fmt *fmt,
			 struct perfrec_sample *s)
{
	const uint64_t t = fmt->sample_type;
	struct perfrec_cursor c = { body, len };
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (t & ~PERFREC_SAMPLE_KNOWN)
		return -ENOTSUP;
	if ((t & PERFREC_SAMPLE_WEIGHT) && (t & PERFREC_SAMPLE_WEIGHT_STRUCT))
		return -EINVAL; /* the kernel refuses both */
	if ((t & PERFREC_SAMPLE_IDENTIFIER) && perfrec_u64(&c, &s->id))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_IP) && perfrec_u64(&c, &s->ip))
		return -EINVAL;
	if (t & PERFREC_SAMPLE_TID) {
		if (perfrec_u64(&c, &v))
			return -EINVAL;
		/* { u32 pid, tid; } in memory order */
		memcpy(&s->pid, (const uint8_t *)&v, 4);
		memcpy(&s->tid, (const uint8_t *)&v + 4, 4);
	}
	if ((t & PERFREC_SAMPLE_TIME) && perfrec_u64(&c, &s->time))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_ADDR) && perfrec_u64(&c, &s->addr))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_ID) && perfrec_u64(&c, &s->id))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_STREAM_ID) && perfrec_u64(&c, &v))
		return -EINVAL;
	if (t & PERFREC_SAMPLE_CPU) {
		if (perfrec_u64(&c, &v))
			return -EINVAL;
		memcpy(&s->cpu, &v, 4);
	}
	if ((t & PERFREC_SAMPLE_PERIOD) && perfrec_u64(&c, &s->period))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_READ) && perfrec_skip_read(&c, fmt->read_format))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_CALLCHAIN) && perfrec_skip_array(&c, 8))
		return -EINVAL;
	if (t & PERFREC_SAMPLE_RAW) {
		uint32_t n;

		if (c.left < 4)
			return -EINVAL;
		memcpy(&n, c.p, 4);
		/* u32 size plus data, padded to 8 bytes by the kernel */
		if (perfrec_skip(&c, 4) || perfrec_skip(&c, n))
			return -EINVAL;
	}
	if ((t & PERFREC_SAMPLE_BRANCH_STACK) && perfrec_skip_branches(&c, fmt->branch_sample_type))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_REGS_USER) && perfrec_skip_regs(&c, fmt->regs_user))
		return -EINVAL;
	if (t & PERFREC_SAMPLE_STACK_USER) {
		/* { u64 size; char data[size]; u64 dyn_size; }: no dyn_size when size is 0 */
		if (perfrec_u64(&c, &v) || v > PERFREC_MAX_RECORD || perfrec_skip(&c, (size_t)v) ||
		    (v && perfrec_skip(&c, 8)))
			return -EINVAL;
	}
	if (t & (PERFREC_SAMPLE_WEIGHT | PERFREC_SAMPLE_WEIGHT_STRUCT)) {
		if (perfrec_u64(&c, &v))
			return -EINVAL;
		/* the struct form: { u32 var1_dw; u16 var2_w; u16 var3_w; }, latency first */
		s->weight = (t & PERFREC_SAMPLE_WEIGHT_STRUCT) ? (v & 0xffffffffu) : v;
		s->weight2 = (t & PERFREC_SAMPLE_WEIGHT_STRUCT) ? ((v >> 32) & 0xffff) : 0;
	}
	if ((t & PERFREC_SAMPLE_DATA_SRC) && perfrec_u64(&c, &s->data_src))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_TRANSACTION) && perfrec_u64(&c, &v))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_REGS_INTR) && perfrec_skip_regs(&c, fmt->regs_intr))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_PHYS_ADDR) && perfrec_u64(&c, &s->phys_addr))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_CGROUP) && perfrec_u64(&c, &v))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_DATA_PAGE_SIZE) && perfrec_u64(&c, &s->page_size))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_CODE_PAGE_SIZE) && perfrec_u64(&c, &v))
		return -EINVAL;
	if ((t & PERFREC_SAMPLE_AUX) && perfrec_skip_array(&c, 1))
		return -EINVAL;
	s->op = perfrec_data_op(s->data_src);
	s->level = perfrec_data_level(s->data_src);
	return 0;
}

/* Bytes of the sample_id trailer that sample_id_all appends to non-sample records. */
size_t perfrec_id_size(uint64_t t)
{
	size_t n = 0;

	n += (t & PERFREC_SAMPLE_TID) ? 8 : 0;
	n += (t & PERFREC_SAMPLE_TIME) ? 8 : 0;
	n += (t & PERFREC_SAMPLE_ID) ? 8 : 0;
	n += (t & PERFREC_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERFREC_SAMPLE_CPU) ? 8 : 0;
	n += (t & PERFREC_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

/* The time of a sample_id trailer of id_type, 0 when it has none. */
static uint64_t perfrec_id_time(const uint8_t *trailer, uint64_t t)
{
	uint64_t v = 0;

	if (!(t & PERFREC_SAMPLE_TIME))
		return 0;
	memcpy(&v, trailer + ((t & PERFREC_SAMPLE_TID) ? 8 : 0), 8);
	return v;
}

/*
 * Split a record body into its fields and its sample_id trailer: *fields
 * gets how many bytes come before the trailer, *time the trailer's time.
 */
static int perfrec_split_id(const uint8_t *p, size_t len, uint64_t id_type, size_t *fields,
			    uint64_t *time)
{
	size_t id = perfrec_id_size(id_type);

	if (len < id)
		return -EINVAL;
	*fields = len - id;
	*time = id ? perfrec_id_time(p + *fields, id_type) : 0;
	return 0;
}

int perfrec_parse_mmap(const void *body, size_t len, bool mmap2, uint16_t misc, uint64_t id_type,
		       struct perfrec_mmap *m)
{
	const uint8_t *p = body;
	struct perfrec_cursor c;
	size_t fields;
	uint64_t v;

	memset(m, 0, sizeof(*m));
	if (perfrec_split_id(p, len, id_type, &fields, &m->time))
		return -EINVAL;
	c = (struct perfrec_cursor){ p, fields };
	/* { u32 pid, tid; u64 addr, len, pgoff; } */
	if (perfrec_u64(&c, &v))
		return -EINVAL;
	memcpy(&m->pid, (const uint8_t *)&v, 4);
	memcpy(&m->tid, (const uint8_t *)&v + 4, 4);
	if (perfrec_u64(&c, &m->addr) || perfrec_u64(&c, &m->len) || perfrec_u64(&c, &m->pgoff))
		return -EINVAL;
	if (mmap2) {
		/* { u32 maj, min; u64 ino, ino_generation; } or { u8 size, pad[3]; u8 id[20]; } */
		if (c.left < 24)
			return -EINVAL;
		if (misc & PERFREC_MISC_MMAP_BUILD_ID) {
			m->build_id_size = c.p[0] > 20 ? 20 : c.p[0];
			memcpy(m->build_id, c.p + 4, 20);
		} else {
			memcpy(&m->maj, c.p, 4);
			memcpy(&m->min, c.p + 4, 4);
			memcpy(&m->ino, c.p + 8, 8);
			memcpy(&m->ino_generation, c.p + 16, 8);
		}
		if (perfrec_skip(&c, 24) || c.left < 8)
			return -EINVAL;
		memcpy(&m->prot, c.p, 4);
		memcpy(&m->flags, c.p + 4, 4);
		perfrec_skip(&c, 8);
	}
	/* the name is NUL-padded to 8 bytes; the kernel always leaves a NUL */
	m->name = (const char *)c.p;
	m->name_len = c.left ? strnlen(m->name, c.left) : 0;
	m->exec = !(misc & PERFREC_MISC_MMAP_DATA);
	if (m->addr + m->len < m->addr)
		return -EINVAL; /* a range past the end of the address space */
	return 0;
}

int perfrec_parse_task(const void *body, size_t len, uint32_t type, uint16_t misc, uint64_t id_type,
		       struct perfrec_task *t)
{
	const uint8_t *p = body;
	struct perfrec_cursor c;
	size_t fields;
	uint64_t v;

	memset(t, 0, sizeof(*t));
	t->type = type;
	if (perfrec_split_id(p, len, id_type, &fields, &t->time))
		return -EINVAL;
	c = (struct perfrec_cursor){ p, fields };
	/* COMM: { u32 pid, tid; char comm[]; }  EXIT, FORK: { u32 pid, ppid, tid, ptid; u64 time; } */
	if (perfrec_u64(&c, &v))
		return -EINVAL;
	memcpy(&t->pid, (const uint8_t *)&v, 4);
	memcpy(&t->ppid, (const uint8_t *)&v + 4, 4);
	if (type == PERFREC_COMM) {
		t->ppid = 0;
		memcpy(&t->tid, (const uint8_t *)&v + 4, 4);
		t->exec = misc & PERFREC_MISC_COMM_EXEC;
		t->comm = (const char *)c.p;
		t->comm_len = c.left ? strnlen(t->comm, c.left) : 0;
		return 0;
	}
	if ((type != PERFREC_EXIT && type != PERFREC_FORK) || perfrec_u64(&c, &v))
		return -EINVAL;
	memcpy(&t->tid, &v, 4);
	memcpy(&t->ptid, (const uint8_t *)&v + 4, 4);
	if (perfrec_u64(&c, &v))
		return -EINVAL;
	if (!t->time)
		t->time = v;
	return 0;
}

enum mem_op perfrec_data_op(uint64_t src)
{
	uint64_t op = (src >> PERFREC_MEM_OP_SHIFT) & 0x1f;

	if (!src || (op & PERFREC_MEM_OP_NA) || !op)
		return MEM_OP_NA;
	if (op & PERFREC_MEM_OP_LOAD)
		return MEM_OP_LOAD;
	if (op & PERFREC_MEM_OP_STORE)
		return MEM_OP_STORE;
	return MEM_OP_OTHER;
}

/* The fields of a data source the level depends on, taken apart once. */
struct perfrec_lv {
	uint64_t lvl, num, snoop, snoopx, hops;
	bool hit, miss, remote;
};

/*
 * A cache hit, placed by who holds the line: a modified line in another
 * core's cache is HITM; hops say how far (HOPS_0, another core of this
 * node, is near: AMD's near-CCX cache comes with the remote bit and
 * HOPS_0); the remote bit alone, with no hops, means another node.
 */
static enum mem_level perfrec_cache(const struct perfrec_lv *d, enum mem_level here)
{
	if (d->snoop & PERFREC_MEM_SNOOP_HITM)
		return MEM_LVL_HITM;
	if (d->hops >= PERFREC_MEM_HOPS_1)
		return MEM_LVL_REMOTE_CACHE;
	if (d->hops == PERFREC_MEM_HOPS_0)
		return MEM_LVL_PEER_CACHE;
	if (d->remote)
		return MEM_LVL_REMOTE_CACHE;
	if ((d->snoop & PERFREC_MEM_SNOOP_HIT) ||
	    (d->snoopx & (PERFREC_MEM_SNOOPX_FWD | PERFREC_MEM_SNOOPX_PEER)))
		return MEM_LVL_PEER_CACHE;
	return here;
}

static bool perfrec_far(const struct perfrec_lv *d)
{
	return d->hops >= PERFREC_MEM_HOPS_1 || (d->remote && d->hops != PERFREC_MEM_HOPS_0);
}

/* The level-number field (4.14+): one level, hit or miss. */
static enum mem_level perfrec_level_num(const struct perfrec_lv *d)
{
	switch (d->num) {
	case PERFREC_MEM_LVLNUM_L1:
		return d->miss ? MEM_LVL_L1_MISS : MEM_LVL_L1;
	case PERFREC_MEM_LVLNUM_LFB:
		/* a fill buffer hit is a line already on its way from beyond L1 */
		return MEM_LVL_LFB;
	case PERFREC_MEM_LVLNUM_L2:
		return d->miss ? MEM_LVL_L2_MISS : perfrec_cache(d, MEM_LVL_L2);
	case PERFREC_MEM_LVLNUM_L3:
		/*
		 * The kernel's older PEBS table (0x0b and 0x0d, L3 miss served
		 * by remote DRAM) writes level number L3 beside the REM_RAM bits;
		 * from Skylake on it writes RAM: the bits say which it was.
		 */
		if (!d->miss && (d->lvl & (PERFREC_MEM_LVL_REM_RAM1 | PERFREC_MEM_LVL_REM_RAM2)))
			return MEM_LVL_REMOTE_RAM;
		return d->miss ? MEM_LVL_L3_MISS : perfrec_cache(d, MEM_LVL_L3);
	case PERFREC_MEM_LVLNUM_L4:
		/* missing L4 means L3 was missed too */
		return d->miss ? MEM_LVL_L3_MISS : perfrec_cache(d, MEM_LVL_L4);
	case PERFREC_MEM_LVLNUM_L2_MHB:
		/* L2's miss handling buffer: a line already on its way from beyond L2 */
		return MEM_LVL_L2_MHB;
	case PERFREC_MEM_LVLNUM_MSC:
		return MEM_LVL_MSC;
	case PERFREC_MEM_LVLNUM_UNC:
		return MEM_LVL_UNCACHED;
	case PERFREC_MEM_LVLNUM_ANY_CACHE:
		return d->miss ? MEM_LVL_NA : perfrec_cache(d, MEM_LVL_CACHE);
	case PERFREC_MEM_LVLNUM_RAM:
		return perfrec_far(d) ? MEM_LVL_REMOTE_RAM : MEM_LVL_LOCAL_RAM;
	case PERFREC_MEM_LVLNUM_PMEM:
		return MEM_LVL_PMEM;
	case PERFREC_MEM_LVLNUM_CXL:
		return MEM_LVL_CXL;
	case PERFREC_MEM_LVLNUM_IO:
		return MEM_LVL_IO;
	default:
		return MEM_LVL_NA;
	}
}

/* The older level bits: the first level named, with HIT or MISS beside it. */
static enum mem_level perfrec_level_bits(const struct perfrec_lv *d)
{
	uint64_t l = d->lvl;

	if (l & PERFREC_MEM_LVL_L1)
		return d->miss ? MEM_LVL_L1_MISS : MEM_LVL_L1;
	if (l & PERFREC_MEM_LVL_LFB)
		return MEM_LVL_LFB;
	if (l & PERFREC_MEM_LVL_L2)
		return d->miss ? MEM_LVL_L2_MISS : perfrec_cache(d, MEM_LVL_L2);
	if (l & PERFREC_MEM_LVL_L3)
		return d->miss ? MEM_LVL_L3_MISS : perfrec_cache(d, MEM_LVL_L3);
	if (l & PERFREC_MEM_LVL_LOC_RAM)
		return perfrec_far(d) ? MEM_LVL_REMOTE_RAM : MEM_LVL_LOCAL_RAM;
	if (l & (PERFREC_MEM_LVL_REM_RAM1 | PERFREC_MEM_LVL_REM_RAM2))
		return MEM_LVL_REMOTE_RAM;
	if (l & PERFREC_MEM_LVL_REM_CCE1) {
		/* one hop: another core's cache when the hops field says so */
		if (d->hops == PERFREC_MEM_HOPS_0)
			return MEM_LVL_PEER_CACHE;
		return (d->snoop & PERFREC_MEM_SNOOP_HITM) ? MEM_LVL_HITM : MEM_LVL_REMOTE_CACHE;
	}
	if (l & PERFREC_MEM_LVL_REM_CCE2)
		return (d->snoop & PERFREC_MEM_SNOOP_HITM) ? MEM_LVL_HITM : MEM_LVL_REMOTE_CACHE;
	if (l & PERFREC_MEM_LVL_IO)
		return MEM_LVL_IO;
	if (l & PERFREC_MEM_LVL_UNC)
		return MEM_LVL_UNCACHED;
	return MEM_LVL_NA;
}

enum mem_level perfrec_data_level(uint64_t src)
{
	struct perfrec_lv d;
	enum mem_level l;

	if (!src)
		return MEM_LVL_NA;
	d.lvl = (src >> PERFREC_MEM_LVL_SHIFT) & 0x3fff;
	d.num = (src >> PERFREC_MEM_LVLNUM_SHIFT) & 0xf;
	d.snoop = (src >> PERFREC_MEM_SNOOP_SHIFT) & 0x1f;
	d.snoopx = (src >> PERFREC_MEM_SNOOPX_SHIFT) & 0x3;
	d.hops = (src >> PERFREC_MEM_HOPS_SHIFT) & 0x7;
	d.remote = (src >> PERFREC_MEM_REMOTE_SHIFT) & 1;
	d.hit = d.lvl & PERFREC_MEM_LVL_HIT;
	/* a miss at a level says where the access was not served, never where it was */
	d.miss = (d.lvl & PERFREC_MEM_LVL_MISS) && !d.hit;
	if (d.lvl & PERFREC_MEM_LVL_NA)
		d.lvl = 0;
	/* the level-number field wins where the PMU fills it (0 and NA: it does not) */
	l = d.num && d.num != PERFREC_MEM_LVLNUM_NA ? perfrec_level_num(&d) : MEM_LVL_NA;
	return l != MEM_LVL_NA ? l : perfrec_level_bits(&d);
}

void perfrec_src_split(uint64_t src, struct perfrec_src *d)
{
	d->op = (unsigned)(src >> PERFREC_MEM_OP_SHIFT) & 0x1f;
	d->lvl = (unsigned)(src >> PERFREC_MEM_LVL_SHIFT) & 0x3fff;
	d->snoop = (unsigned)(src >> PERFREC_MEM_SNOOP_SHIFT) & 0x1f;
	d->lock = (unsigned)(src >> PERFREC_MEM_LOCK_SHIFT) & 0x3;
	d->tlb = (unsigned)(src >> PERFREC_MEM_TLB_SHIFT) & 0x7f;
	d->lvl_num = (unsigned)(src >> PERFREC_MEM_LVLNUM_SHIFT) & 0xf;
	d->remote = (unsigned)(src >> PERFREC_MEM_REMOTE_SHIFT) & 0x1;
	d->snoopx = (unsigned)(src >> PERFREC_MEM_SNOOPX_SHIFT) & 0x3;
	d->blk = (unsigned)(src >> PERFREC_MEM_BLK_SHIFT) & 0x7;
	d->hops = (unsigned)(src >> PERFREC_MEM_HOPS_SHIFT) & 0x7;
}

int perfrec_record(const void *rec, size_t len, const struct perfrec_fmt *fmt,
		   const struct perfrec_cbs *cbs, struct perfrec_stats *st)
{
	const uint8_t *p = rec;
	const uint8_t *body = p + 8;
	size_t blen = len - 8;
	uint32_t type;
	uint16_t misc;

	if (len < 8)
		return -EINVAL;
	/* struct perf_event_header { u32 type; u16 misc; u16 size; } */
	memcpy(&type, p, 4);
	memcpy(&misc, p + 4, 2);
	switch (type) {
	case PERFREC_SAMPLE: {
		struct perfrec_sample s;

		if (perfrec_parse_sample(body, blen, fmt, &s))
			goto out_corrupt;
		st->samples++;
		if (cbs->sample)
			cbs->sample(&s, cbs->arg);
		break;
	}
	case PERFREC_LOST: {
		uint64_t v[2]; /* id, lost */

		if (blen < sizeof(v))
			goto out_corrupt;
		memcpy(v, body, sizeof(v));
		st->lost += v[1];
		break;
	}
	case PERFREC_LOST_SAMPLES: {
		uint64_t lost;

		if (blen < sizeof(lost))
			goto out_corrupt;
		memcpy(&lost, body, sizeof(lost));
		st->lost += lost;
		break;
	}
	case PERFREC_THROTTLE:
		st->throttled++;
		break;
	case PERFREC_UNTHROTTLE:
		st->unthrottled++;
		break;
	case PERFREC_MMAP:
	case PERFREC_MMAP2: {
		struct perfrec_mmap m;

		if (perfrec_parse_mmap(body, blen, type == PERFREC_MMAP2, misc, cbs->id_type, &m))
			goto out_corrupt;
		st->mmaps++;
		if (cbs->mmap)
			cbs->mmap(&m, cbs->arg);
		break;
	}
	case PERFREC_COMM:
	case PERFREC_EXIT:
	case PERFREC_FORK: {
		struct perfrec_task tk;

		if (perfrec_parse_task(body, blen, type, misc, cbs->id_type, &tk))
			goto out_corrupt;
		if (type == PERFREC_EXIT)
			st->exits++;
		else if (type == PERFREC_FORK)
			st->forks++;
		else
			st->comms++;
		if (cbs->task)
			cbs->task(&tk, cbs->arg);
		break;
	}
	default:
		st->other++;
		break;
	}
	return (int)type;
out_corrupt:
	st->corrupt++;
	return -EINVAL;
}
