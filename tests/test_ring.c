/* Tests of the ring walker and sample decoder on synthetic ring images built in memory. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ring.h"
#include "testutil.h"

#define TYPE                                                                                       \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

/* A ring image: writes records at head, wrapping like the kernel does. */
struct image {
	uint8_t data[4096];
	uint64_t size, head;
};

static void put(struct image *im, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		im->data[(im->head + i) & (im->size - 1)] = ((const uint8_t *)p)[i];
	im->head += n;
}

static void put_u64(struct image *im, uint64_t v)
{
	put(im, &v, 8);
}

static void put_header(struct image *im, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { type, 0, size };

	put(im, &h, sizeof(h));
}

/* A sample of TYPE: 8 fields after the header. */
static void put_sample(struct image *im, uint64_t addr, uint32_t tid, uint64_t weight,
		       uint64_t data_src)
{
	uint32_t pidtid[2] = { 100, tid };
	uint32_t cpu[2] = { 1, 0 };

	put_header(im, PERF_RECORD_SAMPLE, 8 + 8 * 8);
	put_u64(im, 42);       /* identifier */
	put_u64(im, 0x401000); /* ip */
	put(im, pidtid, 8);
	put_u64(im, 123456789); /* time */
	put_u64(im, addr);
	put(im, cpu, 8);
	put_u64(im, weight);
	put_u64(im, data_src);
}

/*
 * An MMAP2 record of a mapping of process 100 with the sample_id trailer of
 * TYPE (tid, time, cpu, identifier); len_cut bytes short when len_cut > 0.
 */
static void put_mmap2(struct image *im, uint64_t addr, uint64_t len, const char *name,
		      uint64_t time, size_t cut)
{
	uint32_t pidtid[2] = { 100, 100 }, cpu[2] = { 1, 0 }, dev[2] = { 8, 1 }, prot[2] = { 3, 1 };
	char fname[64] = { 0 };
	size_t nlen = (strlen(name) + 8) & ~(size_t)7;
	uint16_t size = (uint16_t)(8 + 8 + 24 + 24 + 8 + nlen + 4 * 8 - cut);

	snprintf(fname, sizeof(fname), "%s", name);
	put_header(im, PERF_RECORD_MMAP2, size);
	/* the mapping does not go in whole when cut: the walker must not read past the size */
	put(im, pidtid, 8);
	put_u64(im, addr);
	put_u64(im, len);
	put_u64(im, 0x2000); /* pgoff */
	put(im, dev, 8);
	put_u64(im, 4242); /* ino */
	put_u64(im, 1);	   /* ino generation */
	put(im, prot, 8);
	put(im, fname, nlen);
	/* sample_id: tid, time, cpu, identifier */
	put(im, pidtid, 8);
	put_u64(im, time);
	put(im, cpu, 8);
	put_u64(im, 42);
	im->head -= cut;
}

struct got {
	struct perfrec_sample s[64];
	size_t n;
	struct perfrec_mmap m[8];
	char names[8][64];
	size_t nm;
	struct perfrec_task t[8];
	size_t nt;
};

static void collect(const struct perfrec_sample *s, void *arg)
{
	struct got *g = arg;

	if (g->n < 64)
		g->s[g->n++] = *s;
}

static void collect_mmap(const struct perfrec_mmap *m, void *arg)
{
	struct got *g = arg;

	if (g->nm < 8) {
		g->m[g->nm] = *m;
		snprintf(g->names[g->nm], 64, "%.*s", (int)m->name_len, m->name);
		g->nm++;
	}
}

static void collect_task(const struct perfrec_task *t, void *arg)
{
	struct got *g = arg;

	if (g->nt < 8)
		g->t[g->nt++] = *t;
}

/* data_src for a load that hit the given lvl bits */
static uint64_t src_load(uint64_t lvl)
{
	return (uint64_t)PERF_MEM_OP_LOAD << PERF_MEM_OP_SHIFT | lvl << PERF_MEM_LVL_SHIFT;
}

START_TEST(test_samples_decode_in_uapi_order)
{
	struct image im = { .size = 4096 };
	struct got g = { .n = 0 };
	struct perfrec_stats st = { 0 };
	uint64_t tail = 0;

	put_sample(&im, 0xdead000, 7, 120, src_load(PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT));
	ring_walk(im.data, im.size, im.head, &tail, TYPE, collect, &g, &st);
	ck_assert_uint_eq(tail, im.head);
	ck_assert_uint_eq(g.n, 1);
	ck_assert_uint_eq(g.s[0].id, 42);
	ck_assert_uint_eq(g.s[0].ip, 0x401000);
	ck_assert_uint_eq(g.s[0].pid, 100);
	ck_assert_uint_eq(g.s[0].tid, 7);
	ck_assert_uint_eq(g.s[0].time, 123456789);
	ck_assert_uint_eq(g.s[0].addr, 0xdead000);
	ck_assert_uint_eq(g.s[0].cpu, 1);
	ck_assert_uint_eq(g.s[0].weight, 120);
	ck_assert_int_eq(g.s[0].op, MEM_OP_LOAD);
	ck_assert_int_eq(g.s[0].level, MEM_LVL_L3);
	ck_assert_uint_eq(st.samples, 1);
}
END_TEST

START_TEST(test_mmap2_records_decode_between_samples_in_ring_order)
{
	struct image im = { .size = 4096 };
	struct got g = { .n = 0 };
	struct perfrec_stats st = { 0 };
	struct perfrec_cbs cbs = { collect, collect_mmap, collect_task, &g, TYPE };
	uint64_t tail = 0;

	put_mmap2(&im, 0x7f0000000000, 4 << 20, "/tmp/data.bin", 5, 0);
	put_sample(&im, 0x7f0000001000, 7, 0, 0);
	put_mmap2(&im, 0x7f0000000000, 2 << 20, "[heap]", 6, 0);
	ring_walk_records(im.data, im.size, im.head, &tail, TYPE, &cbs, &st);
	ck_assert_uint_eq(tail, im.head);
	ck_assert_uint_eq(st.mmaps, 2);
	ck_assert_uint_eq(st.samples, 1);
	ck_assert_uint_eq(st.corrupt, 0);
	ck_assert_uint_eq(g.nm, 2);
	ck_assert_str_eq(g.names[0], "/tmp/data.bin");
	ck_assert_str_eq(g.names[1], "[heap]");
	ck_assert_uint_eq(g.m[0].pid, 100);
	ck_assert_uint_eq(g.m[0].addr, 0x7f0000000000);
	ck_assert_uint_eq(g.m[0].len, 4 << 20);
	ck_assert_uint_eq(g.m[0].pgoff, 0x2000);
	ck_assert_uint_eq(g.m[0].maj, 8);
	ck_assert_uint_eq(g.m[0].min, 1);
	ck_assert_uint_eq(g.m[0].ino, 4242);
	ck_assert_uint_eq(g.m[0].prot, 3);
	/* the time is the sample_id trailer's, so records sort with samples */
	ck_assert_uint_eq(g.m[0].time, 5);
	ck_assert_uint_eq(g.m[1].time, 6);
}
END_TEST

START_TEST(test_short_mmap2_records_are_corrupt_not_read_past)
{
	/* every cut of the record, from the trailer into the fixed fields */
	for (size_t cut = 8; cut <= 80; cut += 8) {
		struct image im = { .size = 4096 };
		struct got g = { .n = 0 };
		struct perfrec_stats st = { 0 };
		struct perfrec_cbs cbs = { collect, collect_mmap, collect_task, &g, TYPE };
		uint64_t tail = 0;

		put_mmap2(&im, 0x1000, 0x1000, "x", 1, cut);
		ring_walk_records(im.data, im.size, im.head, &tail, TYPE, &cbs, &st);
		ck_assert_uint_eq(tail, im.head);
		/* a record cut into its name still holds a (shorter) name; below it, none */
		if (g.nm)
			ck_assert_uint_le(g.m[0].name_len, 1);
		else
			ck_assert_uint_eq(st.corrupt, 1);
	}
}
END_TEST

START_TEST(test_comm_exec_and_exit_records)
{
	struct image im = { .size = 4096 };
	struct got g = { .n = 0 };
	struct perfrec_stats st = { 0 };
	struct perfrec_cbs cbs = { NULL, NULL, collect_task, &g, TYPE };
	uint32_t pidtid[2] = { 100, 101 }, cpu[2] = { 1, 0 }, exit4[4] = { 100, 1, 100, 1 };
	char comm[16] = "newname";
	struct perf_event_header h = { PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC,
				       8 + 8 + 16 + 32 };
	uint64_t tail = 0;

	put(&im, &h, sizeof(h));
	put(&im, pidtid, 8);
	put(&im, comm, 16);
	put(&im, pidtid, 8);
	put_u64(&im, 77);
	put(&im, cpu, 8);
	put_u64(&im, 42);
	put_header(&im, PERF_RECORD_EXIT, 8 + 24 + 32);
	put(&im, exit4, 16);
	put_u64(&im, 88);
	put(&im, pidtid, 8);
	put_u64(&im, 88);
	put(&im, cpu, 8);
	put_u64(&im, 42);
	ring_walk_records(im.data, im.size, im.head, &tail, TYPE, &cbs, &st);
	ck_assert_uint_eq(g.nt, 2);
	ck_assert(g.t[0].exec);
	ck_assert_uint_eq(g.t[0].pid, 100);
	ck_assert_uint_eq(g.t[0].time, 77);
	ck_assert_uint_eq(g.t[0].comm_len, 7);
	ck_assert_uint_eq(g.t[1].type, PERF_RECORD_EXIT);
	ck_assert_uint_eq(g.t[1].pid, 100);
	ck_assert_uint_eq(g.t[1].tid, 100);
	ck_assert_uint_eq(st.exits, 1);
	ck_assert_uint_eq(st.comms, 1);
}
END_TEST

START_TEST(test_record_split_across_the_end_is_copied_whole)
{
	struct image im = { .size = 4096 };
	struct got g = { .n = 0 };
	struct perfrec_stats st = { 0 };
	uint64_t tail;

	/* start 24 bytes before the end: header and fields straddle the wrap */
	im.head = 4096 * 3 - 24;
	tail = im.head;
	put_sample(&im, 0xbeef000, 9, 0, 0);
	put_sample(&im, 0xcafe000, 10, 0, 0);
	ring_walk(im.data, im.size, im.head, &tail, TYPE, collect, &g, &st);
	ck_assert_uint_eq(g.n, 2);
	ck_assert_uint_eq(g.s[0].addr, 0xbeef000);
	ck_assert_uint_eq(g.s[0].tid, 9);
	ck_assert_uint_eq(g.s[1].addr, 0xcafe000);
	ck_assert_uint_eq(st.corrupt, 0);
	/* and a header split in the middle */
	g.n = 0;
	im.head = 4096 * 5 - 4;
	tail = im.head;
	put_sample(&im, 0xf00d000, 11, 0, 0);
	ring_walk(im.data, im.size, im.head, &tail, TYPE, collect, &g, &st);
	ck_assert_uint_eq(g.n, 1);
	ck_assert_uint_eq(g.s[0].addr, 0xf00d000);
}
END_TEST

START_TEST(test_lost_throttle_and_unknown_records)
{
	struct image im = { .size = 4096 };
	struct got g = { .n = 0 };
	struct perfrec_stats st = { 0 };
	uint64_t tail = 0;

	put_header(&im, PERF_RECORD_LOST, 8 + 16);
	put_u64(&im, 42);
	put_u64(&im, 17);
	put_header(&im, PERF_RECORD_LOST_SAMPLES, 8 + 8);
	put_u64(&im, 3);
	put_header(&im, PERF_RECORD_THROTTLE, 8 + 24);
	put_u64(&im, 1);
	put_u64(&im, 42);
	put_u64(&im, 42);
	put_header(&im, PERF_RECORD_UNTHROTTLE, 8 + 24);
	put_u64(&im, 2);
	put_u64(&im, 42);
	put_u64(&im, 42);
	/* a type from the future, 40 bytes long: skipped by its size */
	put_header(&im, 250, 40);
	put_u64(&im, 1);
	put_u64(&im, 2);
	put_u64(&im, 3);
	put_u64(&im, 4);
	put_sample(&im, 0x1000, 1, 0, 0);
	ring_walk(im.data, im.size, im.head, &tail, TYPE, collect, &g, &st);
	ck_assert_uint_eq(st.lost, 20);
	ck_assert_uint_eq(st.throttled, 1);
	ck_assert_uint_eq(st.unthrottled, 1);
	ck_assert_uint_eq(st.other, 1);
	ck_assert_uint_eq(g.n, 1);
	ck_assert_uint_eq(g.s[0].addr, 0x1000);
	ck_assert_uint_eq(tail, im.head);
}
END_TEST

START_TEST(test_zero_size_header_does_not_loop)
{
	struct image im = { .size = 4096 };
	struct perfrec_stats st = { 0 };
	uint64_t tail = 0;

	put_header(&im, PERF_RECORD_SAMPLE, 0);
	put_u64(&im, 0);
	ring_walk(im.data, im.size, im.head, &tail, TYPE, NULL, NULL, &st);
	ck_assert_uint_eq(tail, im.head);
	ck_assert_uint_eq(st.corrupt, 1);
	/* a size running past head is refused too */
	im.head = tail = 0;
	put_header(&im, PERF_RECORD_SAMPLE, 200);
	ring_walk(im.data, im.size, im.head, &tail, TYPE, NULL, NULL, &st);
	ck_assert_uint_eq(tail, im.head);
	ck_assert_uint_eq(st.corrupt, 2);
}
END_TEST

/* The decoder under a bare sample_type, as the live rings open their events. */
static int parse(const void *body, size_t len, uint64_t type, struct perfrec_sample *s)
{
	const struct perfrec_fmt fmt = { .sample_type = type };

	return perfrec_parse_sample(body, len, &fmt, s);
}

START_TEST(test_short_and_unsupported_samples)
{
	uint64_t body[8] = { 0 };
	struct perfrec_sample s;

	ck_assert_int_eq(parse(body, 64, TYPE, &s), 0);
	ck_assert_int_eq(parse(body, 56, TYPE, &s), -EINVAL);
	/* a sample_type bit newer than the decoder: its layout is not known */
	ck_assert_int_eq(parse(body, 64, TYPE | (1ull << 30), &s), -ENOTSUP);
	ck_assert_int_eq(parse(body, 64, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, &s),
			 -EINVAL);
	/* WEIGHT_STRUCT keeps the latency in the low 32 bits, the instruction latency above */
	body[0] = 0x0000beef00000123ull;
	ck_assert_int_eq(parse(body, 8, PERF_SAMPLE_WEIGHT_STRUCT, &s), 0);
	ck_assert_uint_eq(s.weight, 0x123);
	ck_assert_uint_eq(s.weight2, 0xbeef);
	/* a callchain is skipped by its length */
	body[0] = 2;
	body[3] = 0x5000;
	ck_assert_int_eq(parse(body, 16, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_DATA_SRC, &s),
			 -EINVAL);
	ck_assert_int_eq(parse(body, 32, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_DATA_SRC, &s), 0);
	ck_assert_uint_eq(s.data_src, 0x5000);
}
END_TEST

START_TEST(test_read_branches_and_registers_are_skipped_by_the_format)
{
	uint64_t body[16] = { 0 };
	struct perfrec_fmt fmt = { 0 };
	struct perfrec_sample s;

	/* a group read of 2 with ids: { nr, enabled, { value, id } x 2 }, then the address */
	fmt.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_ADDR;
	fmt.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	body[0] = 0xa000; /* addr comes before READ */
	body[1] = 2;
	body[7] = 0xdead;
	ck_assert_int_eq(perfrec_parse_sample(body, 7 * 8, &fmt, &s), 0);
	ck_assert_uint_eq(s.addr, 0xa000);
	ck_assert_int_eq(perfrec_parse_sample(body, 6 * 8, &fmt, &s), -EINVAL);
	/* a hostile group count cannot wrap the size */
	body[1] = ~0ull;
	ck_assert_int_eq(perfrec_parse_sample(body, 128, &fmt, &s), -EINVAL);
	/* branches with hw_idx, user registers of a 3-bit mask, then the data source */
	memset(body, 0, sizeof(body));
	fmt = (struct perfrec_fmt){ .sample_type = PERF_SAMPLE_BRANCH_STACK |
						   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_DATA_SRC,
				    .branch_sample_type = PERFREC_BRANCH_HW_INDEX,
				    .regs_user = 0x70 };
	body[0] = 1; /* nr */
	body[5] = 2; /* abi */
	body[9] = 0x77;
	ck_assert_int_eq(perfrec_parse_sample(body, 10 * 8, &fmt, &s), 0);
	ck_assert_uint_eq(s.data_src, 0x77);
	/* abi 0 (a kernel thread): no registers follow */
	body[5] = 0;
	body[6] = 0x99;
	ck_assert_int_eq(perfrec_parse_sample(body, 7 * 8, &fmt, &s), 0);
	ck_assert_uint_eq(s.data_src, 0x99);
}
END_TEST

#define LOAD ((uint64_t)PERF_MEM_OP_LOAD << PERF_MEM_OP_SHIFT)
#define STORE ((uint64_t)PERF_MEM_OP_STORE << PERF_MEM_OP_SHIFT)
#define LVL(x) ((uint64_t)PERF_MEM_LVL_##x << PERF_MEM_LVL_SHIFT)
#define NUM(x) ((uint64_t)PERF_MEM_LVLNUM_##x << PERF_MEM_LVLNUM_SHIFT)
#define SNOOP(x) ((uint64_t)PERF_MEM_SNOOP_##x << PERF_MEM_SNOOP_SHIFT)
#define SNOOPX(x) ((uint64_t)PERF_MEM_SNOOPX_##x << PERF_MEM_SNOOPX_SHIFT)
#define HOPS(x) ((uint64_t)PERF_MEM_HOPS_##x << PERF_MEM_HOPS_SHIFT)
#define REMOTE ((uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT)

static const struct {
	int line;
	uint64_t src;
	enum mem_level lvl;
	enum mem_op op;
} SRC[] = {
	{ __LINE__, 0, MEM_LVL_NA, MEM_OP_NA },
	{ __LINE__,
	  (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)(PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT)
					       << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_L1, MEM_OP_LOAD },
	{ __LINE__, (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVL_LFB << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_LFB, MEM_OP_LOAD },
	{ __LINE__, (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVL_L2 << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_L2, MEM_OP_LOAD },
	{ __LINE__,
	  (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVL_LOC_RAM << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_LOCAL_RAM, MEM_OP_LOAD },
	{ __LINE__,
	  (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVL_REM_RAM1 << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_REMOTE_RAM, MEM_OP_LOAD },
	{ __LINE__, (uint64_t)PERF_MEM_OP_STORE | (uint64_t)PERF_MEM_LVL_L1 << PERF_MEM_LVL_SHIFT,
	  MEM_LVL_L1, MEM_OP_STORE },
	/* the level-number field wins: RAM with the remote bit is remote DRAM */
	{ __LINE__,
	  (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVLNUM_RAM << PERF_MEM_LVLNUM_SHIFT |
		  (uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT,
	  MEM_LVL_REMOTE_RAM, MEM_OP_LOAD },
	{ __LINE__,
	  (uint64_t)PERF_MEM_OP_LOAD | (uint64_t)PERF_MEM_LVLNUM_L3 << PERF_MEM_LVLNUM_SHIFT,
	  MEM_LVL_L3, MEM_OP_LOAD },
	{ __LINE__, (uint64_t)PERF_MEM_OP_NA, MEM_LVL_NA, MEM_OP_NA },
	/* a store that missed L1 (Skylake's 0x82d0 says only hit or miss): never "L1" */
	{ __LINE__, STORE | LVL(L1) | LVL(MISS), MEM_LVL_L1_MISS, MEM_OP_STORE },
	{ __LINE__, STORE | LVL(L1) | LVL(HIT), MEM_LVL_L1, MEM_OP_STORE },
	{ __LINE__, STORE | LVL(L1) | LVL(MISS) | NUM(L1), MEM_LVL_L1_MISS, MEM_OP_STORE },
	{ __LINE__, LOAD | LVL(L2) | LVL(MISS), MEM_LVL_L2_MISS, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(MISS) | NUM(L3), MEM_LVL_L3_MISS, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(L4) | LVL(MISS), MEM_LVL_L3_MISS, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(L4) | LVL(HIT), MEM_LVL_L4, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(L2) | LVL(HIT), MEM_LVL_L2, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(L1) | LVL(HIT), MEM_LVL_L1, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(LFB) | LVL(HIT), MEM_LVL_LFB, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(CXL), MEM_LVL_CXL, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(IO) | LVL(IO), MEM_LVL_IO, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(PMEM), MEM_LVL_PMEM, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(RAM) | LVL(LOC_RAM) | LVL(HIT), MEM_LVL_LOCAL_RAM, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(ANY_CACHE) | LVL(HIT), MEM_LVL_CACHE, MEM_OP_LOAD },
	/* LVLNUM NA: the older bits decide */
	{ __LINE__, LOAD | NUM(NA) | LVL(L2) | LVL(HIT), MEM_LVL_L2, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(UNC) | LVL(HIT), MEM_LVL_UNCACHED, MEM_OP_LOAD },
	/* snoops: a modified line in another core's cache; a clean one forwarded */
	{ __LINE__, LOAD | LVL(L3) | LVL(HIT) | NUM(L3) | SNOOP(HITM), MEM_LVL_HITM, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(HIT) | NUM(L3) | SNOOP(HIT), MEM_LVL_PEER_CACHE,
	  MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(HIT) | NUM(L3) | SNOOPX(FWD), MEM_LVL_PEER_CACHE,
	  MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(HIT) | NUM(L3) | SNOOP(NONE), MEM_LVL_L3, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(REM_CCE1) | LVL(HIT) | SNOOP(HITM), MEM_LVL_HITM, MEM_OP_LOAD },
	/* AMD IBS (the kernel's table): a near CCX is HOPS_0, not remote; a far one is */
	{ __LINE__, LOAD | LVL(REM_CCE1) | LVL(HIT) | NUM(ANY_CACHE) | REMOTE | HOPS(0),
	  MEM_LVL_PEER_CACHE, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(REM_CCE2) | LVL(HIT) | NUM(ANY_CACHE) | REMOTE | HOPS(1),
	  MEM_LVL_REMOTE_CACHE, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(REM_CCE1) | LVL(HIT) | NUM(ANY_CACHE) | HOPS(0),
	  MEM_LVL_PEER_CACHE, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(L3) | LVL(HIT) | NUM(L3), MEM_LVL_L3, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(REM_RAM1) | LVL(HIT) | NUM(RAM) | REMOTE | HOPS(1),
	  MEM_LVL_REMOTE_RAM, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(RAM) | HOPS(2), MEM_LVL_REMOTE_RAM, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(L2) | LVL(HIT) | HOPS(3), MEM_LVL_REMOTE_CACHE, MEM_OP_LOAD },
	/* level numbers of 6.8: L2's miss handling buffer, a memory-side cache, uncached */
	{ __LINE__, LOAD | NUM(L2_MHB) | LVL(HIT), MEM_LVL_L2_MHB, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(MSC) | LVL(HIT), MEM_LVL_MSC, MEM_OP_LOAD },
	{ __LINE__, LOAD | NUM(UNC) | LVL(HIT), MEM_LVL_UNCACHED, MEM_OP_LOAD },
	/* Intel's older table: remote DRAM as level number L3 beside REM_RAM1 (0x0b, 0x0d) */
	{ __LINE__, LOAD | LVL(REM_RAM1) | LVL(HIT) | NUM(L3) | REMOTE | SNOOP(HIT),
	  MEM_LVL_REMOTE_RAM, MEM_OP_LOAD },
	{ __LINE__, LOAD | LVL(REM_CCE1) | LVL(HIT) | NUM(L3) | REMOTE | SNOOP(HIT),
	  MEM_LVL_REMOTE_CACHE, MEM_OP_LOAD },
	/* the older remote cache bit without hops: another node */
	{ __LINE__, LOAD | LVL(REM_CCE1) | LVL(HIT), MEM_LVL_REMOTE_CACHE, MEM_OP_LOAD },
};

START_TEST(test_data_source_table)
{
	ck_assert_msg(perfrec_data_level(SRC[_i].src) == SRC[_i].lvl, "line %d: level %d",
		      SRC[_i].line, perfrec_data_level(SRC[_i].src));
	ck_assert_msg(perfrec_data_op(SRC[_i].src) == SRC[_i].op, "line %d", SRC[_i].line);
}
END_TEST

START_TEST(test_every_level_has_a_name_and_misses_are_not_hits)
{
	for (int l = 0; l < MEM_LVL_MAX; l++)
		ck_assert_msg(mem_level_name((enum mem_level)l)[0], "level %d", l);
	ck_assert_str_eq(mem_level_name(MEM_LVL_L1_MISS), "L1 miss");
	ck_assert_str_eq(mem_level_name(MEM_LVL_PEER_CACHE), "peer cache");
	ck_assert(mem_level_far(MEM_LVL_REMOTE_CACHE));
	ck_assert(!mem_level_far(MEM_LVL_PEER_CACHE));
	ck_assert(!mem_level_far(MEM_LVL_L4));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, test_samples_decode_in_uapi_order);
	tcase_add_test(tc, test_record_split_across_the_end_is_copied_whole);
	tcase_add_test(tc, test_mmap2_records_decode_between_samples_in_ring_order);
	tcase_add_test(tc, test_short_mmap2_records_are_corrupt_not_read_past);
	tcase_add_test(tc, test_comm_exec_and_exit_records);
	tcase_add_test(tc, test_lost_throttle_and_unknown_records);
	tcase_add_test(tc, test_zero_size_header_does_not_loop);
	tcase_add_test(tc, test_short_and_unsupported_samples);
	tcase_add_test(tc, test_read_branches_and_registers_are_skipped_by_the_format);
	tcase_add_loop_test(tc, test_data_source_table, 0, sizeof(SRC) / sizeof(SRC[0]));
	tcase_add_test(tc, test_every_level_has_a_name_and_misses_are_not_hits);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
