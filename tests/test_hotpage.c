/* Tests of the hot-page histogram: decay, eviction, top-N, per-mapping groups, maps parsing. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/proc.h"
#include "model/hotpage.h"
#include "testutil.h"

static void add(struct hotpage *h, uint64_t addr, int n, enum mem_op op, uint64_t lat,
		enum mem_level lvl)
{
	struct snap_sample s;

	memset(&s, 0, sizeof(s));
	s.addr = addr;
	s.op = op;
	s.weight = lat;
	s.level = lvl;
	for (int i = 0; i < n; i++)
		hotpage_add(h, &s);
}

START_TEST(test_counts_per_page_and_top)
{
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	struct hotpage_entry top[4];
	size_t n;

	add(h, 0x10000, 5, MEM_OP_LOAD, 100, MEM_LVL_L1);
	add(h, 0x10fff, 5, MEM_OP_STORE, 300, MEM_LVL_L1); /* same 4 KiB page */
	add(h, 0x20000, 7, MEM_OP_LOAD, 0, MEM_LVL_LOCAL_RAM);
	add(h, 0x30000, 1, MEM_OP_NA, 0, MEM_LVL_NA);
	n = hotpage_top(h, top, 4);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(top[0].page, 0x10);
	ck_assert(top[0].weight == 10);
	ck_assert_uint_eq(top[0].loads, 5);
	ck_assert_uint_eq(top[0].stores, 5);
	ck_assert_uint_eq(top[0].lat_sum / top[0].lat_n, 200);
	ck_assert_int_eq(hotpage_dominant_level(&top[0]), MEM_LVL_L1);
	ck_assert_uint_eq(top[1].page, 0x20);
	ck_assert_int_eq(hotpage_dominant_level(&top[1]), MEM_LVL_LOCAL_RAM);
	ck_assert_int_eq(hotpage_dominant_level(&top[2]), MEM_LVL_NA);
	ck_assert(h->total == 18);
	/* no room at all: nothing is written, not even before out */
	ck_assert_uint_eq(hotpage_top(h, top + 1, 0), 0);
	ck_assert_uint_eq(top[0].page, 0x10);
	/* 2 MiB pages fold them all together */
	hotpage_reset(h, 21);
	add(h, 0x10000, 1, MEM_OP_NA, 0, 0);
	add(h, 0x1fffff, 1, MEM_OP_NA, 0, 0);
	ck_assert_uint_eq(hotpage_top(h, top, 4), 1);
	ck_assert(top[0].weight == 2);
	hotpage_free(h);
}
END_TEST

START_TEST(test_decay_halves_each_half_life_and_forgets_faint_pages)
{
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	struct hotpage_entry top[2];

	add(h, 0x1000, 64, MEM_OP_NA, 0, 0);
	hotpage_decay(h, 2.0);
	hotpage_top(h, top, 1);
	ck_assert(fabs(top[0].weight - 32) < 1e-9);
	hotpage_decay(h, 1.0);
	hotpage_top(h, top, 1);
	ck_assert(fabs(top[0].weight - 32 / sqrt(2)) < 1e-9);
	ck_assert(fabs(h->total - top[0].weight) < 1e-9);
	/* what is hot now beats what was hot long ago */
	add(h, 0x2000, 10, MEM_OP_NA, 0, 0);
	hotpage_decay(h, 10.0);
	add(h, 0x3000, 3, MEM_OP_NA, 0, 0);
	hotpage_top(h, top, 2);
	ck_assert_uint_eq(top[0].page, 3);
	/* 40 half-lives later everything is gone */
	hotpage_decay(h, 80.0);
	ck_assert_uint_eq(h->count, 0);
	hotpage_free(h);
}
END_TEST

START_TEST(test_memory_is_bounded_and_the_coldest_go)
{
	struct hotpage *h = hotpage_new(12, 2.0, 64);
	struct hotpage_entry top[8];

	/* eight hot pages, then a flood of single-sample pages */
	for (int p = 0; p < 8; p++)
		add(h, (uint64_t)(p + 1) << 30, 50, MEM_OP_NA, 0, 0);
	for (uint64_t p = 0; p < 100000; p++)
		add(h, 0x1000000000ull + (p << 12), 1, MEM_OP_NA, 0, 0);
	ck_assert_uint_le(h->count, 2 * 64);
	ck_assert_uint_gt(h->evicted, 0);
	hotpage_decay(h, 0.001);
	ck_assert_uint_le(h->count, 64);
	ck_assert_uint_eq(hotpage_top(h, top, 8), 8);
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(top[i].page >> 18, (uint64_t)(i + 1));
	hotpage_free(h);
}
END_TEST

static const char MAPS[] = "55d0c0000000-55d0c0002000 r--p 00000000 fe:00 123  /usr/bin/app\n"
			   "55d0c0002000-55d0c0008000 r-xp 00002000 fe:00 123  /usr/bin/app\n"
			   "55d0c1000000-55d0c1100000 rw-p 00000000 00:00 0    [heap]\n"
			   "7f0000000000-7f0000100000 rw-p 00000000 00:00 0 \n"
			   "7f0000200000-7f0000300000 r-xp 00000000 fe:00 77   /usr/lib/libc.so.6\n"
			   "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0    [stack]\n";

START_TEST(test_maps_parse_and_lookup)
{
	struct mem_map *m = NULL;
	size_t cap = 0;
	long n = proc_parse_maps(MAPS, strlen(MAPS), &m, &cap);

	ck_assert_int_eq(n, 6);
	ck_assert_str_eq(m[0].name, "/usr/bin/app");
	ck_assert_str_eq(m[3].name, "[anon]");
	ck_assert_str_eq(mem_find_map(m, 6, 0x55d0c0003000ull)->name, "/usr/bin/app");
	ck_assert_str_eq(mem_find_map(m, 6, 0x55d0c10fffffull)->name, "[heap]");
	ck_assert_str_eq(mem_find_map(m, 6, 0x7f0000000123ull)->name, "[anon]");
	ck_assert_str_eq(mem_find_map(m, 6, 0x7ffc00020fffull)->name, "[stack]");
	ck_assert_ptr_null(mem_find_map(m, 6, 0x7f0000100000ull)); /* end is exclusive */
	ck_assert_ptr_null(mem_find_map(m, 6, 0x1000));
	ck_assert_int_eq(proc_parse_maps("garbage\n", 8, &m, &cap), -EINVAL);
	ck_assert_int_eq(proc_parse_maps("2000-1000 r--p 0 0:0 0\n", 23, &m, &cap), -EINVAL);
	free(m);
}
END_TEST

START_TEST(test_group_by_mapping)
{
	struct mem_map *m = NULL;
	size_t cap = 0;
	long n = proc_parse_maps(MAPS, strlen(MAPS), &m, &cap);
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	struct hotpage_group g[8];
	size_t ng;

	add(h, 0x55d0c1000000ull, 3, MEM_OP_LOAD, 0, 0);
	add(h, 0x55d0c1001000ull, 4, MEM_OP_STORE, 0, 0);
	add(h, 0x7ffc00000100ull, 2, MEM_OP_LOAD, 0, 0);
	add(h, 0x1000, 1, MEM_OP_LOAD, 0, 0);
	ng = hotpage_by_mapping(h, m, (size_t)n, g, 8);
	ck_assert_uint_eq(ng, 3);
	ck_assert_str_eq(g[0].name, "[heap]");
	ck_assert(g[0].weight == 7);
	ck_assert_uint_eq(g[0].pages, 2);
	ck_assert_uint_eq(g[0].stores, 4);
	ck_assert_str_eq(g[1].name, "[stack]");
	ck_assert_str_eq(g[2].name, "[unmapped]");
	hotpage_free(h);
	free(m);
}
END_TEST

/*
 * The instructions of a page: counted exactly while they fit, and once they do not, one that
 * keeps coming displaces the rare ones; the list is most counted first. The sorted copy of every
 * page agrees with the top-N.
 */
START_TEST(test_a_page_keeps_the_name_of_its_mapping_when_sampled)
{
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	char longname[400], buf[128];
	struct mem_area file = { 0x7f0000000000ull, 0x7f0000400000ull, 0, 8, 1, 42, longname };
	struct mem_area heap = { 0x7f0000000000ull, 0x7f0000200000ull, 0, 0, 0, 0, "[heap]" };
	struct mem_area anon = { 0x7e0000000000ull, 0x7e0000001000ull, 0, 0, 0, 0, "" };
	struct snap_sample s = { 0 };
	struct hotpage_entry top[4];
	struct hotpage_group g[4];
	size_t n;

	/* a path longer than any fixed buffer the mappings had */
	memset(longname, 'd', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	s.addr = 0x7f0000001000ull;
	s.period = 3;
	hotpage_add_named(h, &s, hotpage_name(h, &file));
	s.addr = 0x7f0000002000ull;
	s.period = 1;
	hotpage_add_named(h, &s, hotpage_name(h, &heap));
	s.addr = 0x7e0000000000ull;
	hotpage_add_named(h, &s, hotpage_name(h, &anon));
	/* both mappings are gone: no maps at all, the names stay, whole */
	n = hotpage_top(h, top, 4);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(hotpage_label(h, &top[0], NULL, 0, buf, sizeof(buf)), longname);
	/* each sample weighs its own period */
	ck_assert(top[0].weight == 3);
	ck_assert_uint_eq(top[0].samples, 1);
	ck_assert(h->total == 5);
	ck_assert_str_eq(hotpage_label(h, &top[1], NULL, 0, buf, sizeof(buf)),
			 "[anon 7e0000000000-7e0000001000]");
	ck_assert_str_eq(hotpage_label(h, &top[2], NULL, 0, buf, sizeof(buf)), "[heap]");
	n = hotpage_by_mapping(h, NULL, 0, g, 4);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(g[0].name, longname);
	/* a page sampled again in another mapping takes the newer name */
	s.addr = 0x7f0000001000ull;
	hotpage_add_named(h, &s, hotpage_name(h, &heap));
	n = hotpage_top(h, top, 1);
	ck_assert_str_eq(hotpage_label(h, &top[0], NULL, 0, buf, sizeof(buf)), "[heap]");
	/* a page with no name is found in the maps now, as before */
	s.addr = 0x1000;
	hotpage_add(h, &s);
	ck_assert_uint_eq(h->nnames, 3);
	hotpage_free(h);
}
END_TEST

START_TEST(test_instructions_per_page)
{
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	struct hotpage_entry top[2], *all;
	struct snap_sample s;
	uint64_t ip[HOTPAGE_IPS];
	uint32_t cnt[HOTPAGE_IPS];
	size_t n;

	memset(&s, 0, sizeof(s));
	s.addr = 0x5000;
	for (int i = 0; i < 3; i++) {
		s.ip = 0x401000 + (uint64_t)i * 0x10;
		for (int k = 0; k <= i; k++)
			hotpage_add(h, &s);
	}
	/* no instruction address (an old recording): not counted as one */
	s.ip = 0;
	hotpage_add(h, &s);
	n = hotpage_top(h, top, 2);
	ck_assert_uint_eq(n, 1);
	n = hotpage_ips(&top[0], ip, cnt, HOTPAGE_IPS);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(ip[0], 0x401020);
	ck_assert_uint_eq(cnt[0], 3);
	ck_assert_uint_eq(ip[2], 0x401000);
	ck_assert_uint_eq(cnt[2], 1);
	/* fewer asked for: the most counted */
	ck_assert_uint_eq(hotpage_ips(&top[0], ip, cnt, 1), 1);
	ck_assert_uint_eq(ip[0], 0x401020);
	/* more instructions than slots, one frequent among many rare ones: it ends on top */
	for (int i = 0; i < 40; i++) {
		s.ip = 0x500000 + (uint64_t)i * 4;
		hotpage_add(h, &s);
		s.ip = 0x600000;
		hotpage_add(h, &s);
	}
	hotpage_top(h, top, 1);
	n = hotpage_ips(&top[0], ip, cnt, HOTPAGE_IPS);
	ck_assert_uint_eq(n, HOTPAGE_IPS);
	ck_assert_uint_eq(ip[0], 0x600000);
	ck_assert_uint_ge(cnt[0], 40);
	/* a second page: the sorted copy holds both, hottest first, as the top-N has them */
	s.addr = 0x9000;
	hotpage_add(h, &s);
	all = hotpage_sorted(h, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(all[0].page, 5);
	ck_assert_uint_eq(all[1].page, 9);
	free(all);
	hotpage_reset(h, 12);
	ck_assert_ptr_null(hotpage_sorted(h, &n));
	ck_assert_uint_eq(n, 0);
	hotpage_free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hotpage");
	TCase *tc = tcase_create("histogram");

	tcase_add_test(tc, test_counts_per_page_and_top);
	tcase_add_test(tc, test_decay_halves_each_half_life_and_forgets_faint_pages);
	tcase_add_test(tc, test_memory_is_bounded_and_the_coldest_go);
	tcase_add_test(tc, test_maps_parse_and_lookup);
	tcase_add_test(tc, test_group_by_mapping);
	tcase_add_test(tc, test_instructions_per_page);
	tcase_add_test(tc, test_a_page_keeps_the_name_of_its_mapping_when_sampled);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
