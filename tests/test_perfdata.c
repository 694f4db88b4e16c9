/* Tests of perf.data's NUMA sections, built in memory: CPU lists and memory blocks per node. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "stream/perfdata.h"
#include "testutil.h"

struct buf {
	uint8_t b[1024];
	size_t n;
};

static void put32(struct buf *b, uint32_t v)
{
	memcpy(b->b + b->n, &v, 4);
	b->n += 4;
}

static void put64(struct buf *b, uint64_t v)
{
	memcpy(b->b + b->n, &v, 8);
	b->n += 8;
}

/* perf's string: u32 length (padded to 64 bytes, NUL included), then the bytes */
static void putstr(struct buf *b, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);

	put32(b, len);
	memset(b->b + b->n, 0, len);
	memcpy(b->b + b->n, s, strlen(s));
	b->n += len;
}

static void numa_node(struct buf *b, uint32_t node, const char *cpus)
{
	put32(b, node);
	put64(b, 1 << 20); /* mem_total */
	put64(b, 1 << 19); /* mem_free */
	putstr(b, cpus);
}

START_TEST(test_cpus_get_the_node_of_their_list)
{
	struct perfdata pd;
	struct buf b = { .n = 0 };

	memset(&pd, 0, sizeof(pd));
	put32(&b, 2);
	numa_node(&b, 0, "0-2,6");
	numa_node(&b, 1, "3-5,7");
	ck_assert_int_eq(perfdata_numa_topology(&pd, b.b, b.n), 0);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 0), 0);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 2), 0);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 3), 1);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 6), 0);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 7), 1);
	/* a CPU no list names is on no node, not on node 0 */
	ck_assert_int_eq(perfdata_cpu_node(&pd, 8), -1);
	ck_assert_int_eq(perfdata_cpu_node(&pd, 100000), -1);
	perfdata_release(&pd);
}
END_TEST

START_TEST(test_a_bad_numa_section_leaves_no_node)
{
	static const char *const bad[] = { "0-", "3-1", "a", "0,,1", "99999999", "0 1" };
	struct perfdata pd;
	struct buf b;

	memset(&pd, 0, sizeof(pd));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.n = 0;
		put32(&b, 2);
		numa_node(&b, 0, "0-1");
		numa_node(&b, 1, bad[i]);
		ck_assert_msg(perfdata_numa_topology(&pd, b.b, b.n) == -EINVAL, "%s", bad[i]);
		ck_assert_int_eq(perfdata_cpu_node(&pd, 0), -1);
	}
	/* more nodes than bytes, and every cut short */
	b.n = 0;
	put32(&b, 1);
	numa_node(&b, 0, "0-1");
	for (size_t n = 0; n < b.n; n++)
		ck_assert_int_eq(perfdata_numa_topology(&pd, b.b, n), -EINVAL);
	memcpy(b.b, &(uint32_t){ 1000 }, 4);
	ck_assert_int_eq(perfdata_numa_topology(&pd, b.b, b.n), -EINVAL);
	perfdata_release(&pd);
}
END_TEST

/* { version, block size, nr; { node, size; bitmap { size, words } } x nr } */
static void mem_node(struct buf *b, uint64_t node, uint64_t bits, const uint64_t *words)
{
	put64(b, node);
	put64(b, bits);
	put64(b, bits);
	for (uint64_t i = 0; i < (bits + 63) / 64; i++)
		put64(b, words[i]);
}

START_TEST(test_a_physical_address_is_on_the_node_of_its_block)
{
	const uint64_t n0[2] = { 0x3, 0x1 };	   /* blocks 0, 1 and 64 */
	const uint64_t n1[2] = { 0xcull, 0x2ull }; /* blocks 2, 3 and 65 */
	const uint64_t bs = 0x8000000;		   /* 128 MiB */
	struct perfdata pd;
	struct buf b = { .n = 0 };

	memset(&pd, 0, sizeof(pd));
	put64(&b, 1);
	put64(&b, bs);
	put64(&b, 2);
	mem_node(&b, 0, 66, n0);
	mem_node(&b, 1, 66, n1);
	ck_assert_int_eq(perfdata_mem_topology(&pd, b.b, b.n), 0);
	ck_assert_uint_eq(pd.mem_block, bs);
	ck_assert_int_eq(perfdata_phys_node(&pd, 0x1000), 0);
	ck_assert_int_eq(perfdata_phys_node(&pd, bs + 5), 0);
	ck_assert_int_eq(perfdata_phys_node(&pd, 2 * bs), 1);
	ck_assert_int_eq(perfdata_phys_node(&pd, 4 * bs - 1), 1);
	ck_assert_int_eq(perfdata_phys_node(&pd, 64 * bs), 0);
	ck_assert_int_eq(perfdata_phys_node(&pd, 65 * bs + 7), 1);
	/* a block in no node's map, beyond every map, and no address at all */
	ck_assert_int_eq(perfdata_phys_node(&pd, 4 * bs), -1);
	ck_assert_int_eq(perfdata_phys_node(&pd, 1000 * bs), -1);
	ck_assert_int_eq(perfdata_phys_node(&pd, 0), -1);
	/* cut anywhere: refused whole, nothing kept */
	for (size_t n = 0; n < b.n; n++) {
		ck_assert_int_eq(perfdata_mem_topology(&pd, b.b, n), -EINVAL);
		ck_assert_int_eq(perfdata_phys_node(&pd, 0x1000), -1);
	}
	/* a bitmap whose size is not the node's */
	memcpy(b.b + 24 + 16, &(uint64_t){ 65 }, 8);
	ck_assert_int_eq(perfdata_mem_topology(&pd, b.b, b.n), -EINVAL);
	perfdata_release(&pd);
	/* without the section nothing is located */
	memset(&pd, 0, sizeof(pd));
	ck_assert_int_eq(perfdata_phys_node(&pd, 0x1000), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perfdata");
	TCase *tc = tcase_create("numa");

	tcase_add_test(tc, test_cpus_get_the_node_of_their_list);
	tcase_add_test(tc, test_a_bad_numa_section_leaves_no_node);
	tcase_add_test(tc, test_a_physical_address_is_on_the_node_of_its_block);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
