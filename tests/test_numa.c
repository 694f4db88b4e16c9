/* Tests of NUMA nodes: the CPU map from a sysfs tree, and pages located by a faked move_pages. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/numa.h"
#include "model/hotpage.h"
#include "util/errmsg.h"
#include "testutil.h"

/* A kernel whose pages live on node (page number & 1), with holes and errors on request. */
struct fake {
	struct sysops ops;
	int calls;
	int pid;
	unsigned long count, most; /* pages asked in the last call, and in the largest */
	int err;		   /* what the call returns */
	uint64_t absent, unmapped; /* pages the kernel says -ENOENT and -EFAULT for */
};

static int fake_page_nodes(void *ctx, int pid, unsigned long count, void **pages, int *status)
{
	struct fake *f = ctx;

	f->calls++;
	f->pid = pid;
	f->count = count;
	if (count > f->most)
		f->most = count;
	if (f->err)
		return f->err;
	for (unsigned long i = 0; i < count; i++) {
		uint64_t a = (uint64_t)(uintptr_t)pages[i];

		ck_assert_uint_eq(a & 4095, 0);
		status[i] = a == f->absent     ? -ENOENT
			    : a == f->unmapped ? -EFAULT
					       : (int)((a >> 12) & 1);
	}
	return 0;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->ops = *sysops_real();
	f->ops.ctx = f;
	f->ops.page_nodes = fake_page_nodes;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

/* SYS/devices/system/node with nodes 0 (CPUs 0-1) and 1 (CPUs 2-3), and node 2 memory alone. */
static char *sysfs_tree(bool memory_node)
{
	char *root = strdup("/tmp/pmctop-numa-XXXXXX"), path[512];

	ck_assert_ptr_nonnull(mkdtemp(root));
	const char *dirs[] = { "devices",
			       "devices/system",
			       "devices/system/node",
			       "devices/system/node/node0",
			       "devices/system/node/node1",
			       "devices/system/node/node2" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	put(root, "devices/system/node/online", memory_node ? "0-2\n" : "0-1\n");
	put(root, "devices/system/node/node0/cpulist", "0-1\n");
	put(root, "devices/system/node/node1/cpulist", "2-3\n");
	put(root, "devices/system/node/node2/cpulist", "\n");
	return root;
}

static void sysfs_rm(char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	free(root);
}

static void sample(struct snap_sample *s, uint64_t addr, uint32_t cpu)
{
	memset(s, 0, sizeof(*s));
	s->addr = addr;
	s->cpu = cpu;
	s->period = 1;
	/* what a stale value would claim, so the test sees it overwritten */
	s->page_node = 9;
	s->cpu_node = 9;
}

START_TEST(test_cpus_map_to_the_nodes_of_the_sysfs_tree)
{
	char *root = sysfs_tree(true);
	struct numa n;

	ck_assert_int_eq(numa_load(&n, NULL, root), 0);
	ck_assert_int_eq(n.nodes, 3);
	ck_assert_int_eq(n.first, 0);
	ck_assert_int_eq(numa_cpu_node(&n, 0), 0);
	ck_assert_int_eq(numa_cpu_node(&n, 1), 0);
	ck_assert_int_eq(numa_cpu_node(&n, 2), 1);
	ck_assert_int_eq(numa_cpu_node(&n, 3), 1);
	/* a CPU no node lists is not on node 0 */
	ck_assert_int_eq(numa_cpu_node(&n, 4), -1);
	ck_assert_int_eq(numa_cpu_node(&n, 65535), -1);
	numa_release(&n);
	numa_release(&n); /* twice is harmless */
	sysfs_rm(root);
}
END_TEST

START_TEST(test_a_kernel_without_nodes_loads_none)
{
	char *root = strdup("/tmp/pmctop-numa-XXXXXX");
	struct numa n;

	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(numa_load(&n, NULL, root), -ENOENT);
	ck_assert_int_eq(n.nodes, 0);
	ck_assert_int_eq(numa_cpu_node(&n, 0), -1);
	sysfs_rm(root);
}
END_TEST

START_TEST(test_each_sample_gets_its_page_node_and_its_cpu_node_in_one_call)
{
	char *root = sysfs_tree(false);
	struct numa n;
	struct fake f;
	struct snap_sample v[7];

	fake_init(&f);
	f.absent = 0x7000;
	f.unmapped = 0x9000;
	ck_assert_int_eq(numa_load(&n, &f.ops, root), 0);
	sample(&v[0], 0x2010, 0); /* page 2: node 0, CPU on node 0 */
	sample(&v[1], 0x2ff8, 3); /* the same page from node 1's CPU */
	sample(&v[2], 0x3000, 1); /* page 3: node 1 */
	sample(&v[3], 0x7123, 2); /* not present */
	sample(&v[4], 0x9123, 2); /* unmapped since */
	sample(&v[5], 0x0, 2);	  /* no address: never asked */
	sample(&v[6], 0x3004, 7); /* a CPU of no node */
	ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, 7), 0);
	ck_assert_int_eq(f.calls, 1);
	ck_assert_int_eq(f.pid, 42);
	ck_assert_uint_eq(f.count, 4); /* 0x2000, 0x3000, 0x7000, 0x9000 */
	ck_assert_uint_eq(v[0].page_node, 1);
	ck_assert_uint_eq(v[0].cpu_node, 1);
	ck_assert_uint_eq(v[1].page_node, 1);
	ck_assert_uint_eq(v[1].cpu_node, 2);
	ck_assert_uint_eq(v[2].page_node, 2);
	ck_assert_uint_eq(v[2].cpu_node, 1);
	ck_assert_uint_eq(v[3].page_node, 0);
	ck_assert_uint_eq(v[4].page_node, 0);
	ck_assert_uint_eq(v[5].page_node, 0);
	ck_assert_uint_eq(v[5].cpu_node, 2);
	ck_assert_uint_eq(v[6].page_node, 2);
	ck_assert_uint_eq(v[6].cpu_node, 0);
	/* nothing drained: nothing asked */
	ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, 0), 0);
	ck_assert_int_eq(f.calls, 1);
	numa_release(&n);
	sysfs_rm(root);
}
END_TEST

START_TEST(test_a_failed_call_leaves_every_page_not_known)
{
	static const int errs[] = { -ENOSYS, -EPERM, -ESRCH };
	char *root = sysfs_tree(false);
	struct numa n;
	struct fake f;
	struct snap_sample v[2];

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_init(&f);
		f.err = errs[i];
		ck_assert_int_eq(numa_load(&n, &f.ops, root), 0);
		sample(&v[0], 0x2000, 0);
		sample(&v[1], 0x3000, 2);
		ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, 2), errs[i]);
		ck_assert_uint_eq(v[0].page_node, 0);
		ck_assert_uint_eq(v[1].page_node, 0);
		/* the CPU's node is known all the same */
		ck_assert_uint_eq(v[1].cpu_node, 2);
		numa_release(&n);
	}
	/* a table without the call is a kernel without NUMA */
	fake_init(&f);
	f.ops.page_nodes = NULL;
	ck_assert_int_eq(numa_load(&n, &f.ops, root), 0);
	sample(&v[0], 0x2000, 0);
	ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, 1), -ENOSYS);
	ck_assert_uint_eq(v[0].page_node, 0);
	numa_release(&n);
	sysfs_rm(root);
}
END_TEST

START_TEST(test_beyond_the_batch_the_most_sampled_pages_are_asked)
{
	char *root = sysfs_tree(false);
	size_t nv = NUMA_MAX_PAGES + 100 + 50, k = 0;
	struct snap_sample *v = calloc(nv, sizeof(*v));
	struct numa n;
	struct fake f;

	fake_init(&f);
	ck_assert_int_eq(numa_load(&n, &f.ops, root), 0);
	/* 50 pages sampled twice, then NUMA_MAX_PAGES + 50 pages once */
	for (size_t i = 0; i < 50; i++) {
		sample(&v[k++], 0x100000000ull + i * 4096, 0);
		sample(&v[k++], 0x100000000ull + i * 4096 + 8, 0);
	}
	for (size_t i = 0; k < nv; i++)
		sample(&v[k++], 0x200000000ull + i * 4096, 0);
	ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, nv), 0);
	ck_assert_int_eq(f.calls, 1);
	ck_assert_uint_eq(f.count, NUMA_MAX_PAGES);
	for (size_t i = 0; i < 100; i++)
		ck_assert_uint_ne(v[i].page_node, 0);
	k = 0;
	for (size_t i = 100; i < nv; i++)
		k += v[i].page_node != 0;
	ck_assert_uint_eq(k, NUMA_MAX_PAGES - 50);
	numa_release(&n);
	free(v);
	sysfs_rm(root);
}
END_TEST

START_TEST(test_the_histogram_counts_remote_samples_per_page_and_in_all)
{
	char *root = sysfs_tree(false);
	struct hotpage *h = hotpage_new(12, 2.0, 100);
	struct hotpage_entry top[4];
	struct hotpage_numa_cells nc;
	struct snap_sample v[6];
	struct numa n;
	struct fake f;

	fake_init(&f);
	ck_assert_int_eq(numa_load(&n, &f.ops, root), 0);
	/* nothing located yet: no node column, no share */
	ck_assert(!hotpage_has_nodes(h));
	ck_assert(isnan(hotpage_remote_share(h)));
	sample(&v[0], 0x3000, 0); /* page on node 1, three CPUs of node 0: remote */
	sample(&v[1], 0x3008, 1);
	sample(&v[2], 0x3010, 0);
	sample(&v[3], 0x3018, 2); /* and one of node 1: local */
	sample(&v[4], 0x2000, 1); /* page on node 0, local */
	sample(&v[5], 0x2000, 9); /* a CPU of no node: its page is placed, not located */
	ck_assert_int_eq(numa_locate(&n, &f.ops, 42, 4096, v, 6), 0);
	for (size_t i = 0; i < 6; i++)
		hotpage_add(h, &v[i]);
	ck_assert(hotpage_has_nodes(h));
	ck_assert_uint_eq(h->located, 5);
	ck_assert_uint_eq(h->remote, 3);
	ck_assert_double_eq_tol(hotpage_remote_share(h), 0.6, 1e-9);
	ck_assert_uint_eq(hotpage_top(h, top, 4), 2);
	ck_assert_uint_eq(top[0].page, 3);
	hotpage_numa_cells(&top[0], &nc);
	ck_assert_str_eq(nc.node, "1");
	ck_assert_str_eq(nc.remote, "75");
	ck_assert_uint_eq(top[1].page, 2);
	hotpage_numa_cells(&top[1], &nc);
	ck_assert_str_eq(nc.node, "0");
	ck_assert_str_eq(nc.remote, "0");
	/* a page never located shows no node, not node 0 */
	sample(&v[0], 0x5000, 0);
	v[0].page_node = v[0].cpu_node = 0;
	hotpage_add(h, &v[0]);
	hotpage_add(h, &v[0]);
	hotpage_add(h, &v[0]);
	ck_assert_uint_eq(hotpage_top(h, top, 4), 3);
	ck_assert_uint_eq(top[1].page, 5);
	hotpage_numa_cells(&top[1], &nc);
	ck_assert_str_eq(nc.node, "-");
	ck_assert_str_eq(nc.remote, "-");
	ck_assert_uint_eq(h->located, 5);
	hotpage_reset(h, 12);
	ck_assert(!hotpage_has_nodes(h));
	ck_assert_uint_eq(h->located, 0);
	hotpage_free(h);
	numa_release(&n);
	sysfs_rm(root);
}
END_TEST

START_TEST(test_the_notice_says_what_was_measured)
{
	char buf[300];

	errmsg_numa(buf, sizeof(buf), 7, -ENOSYS, 0, 0);
	ck_assert_ptr_nonnull(strstr(buf, "no NUMA nodes"));
	errmsg_numa(buf, sizeof(buf), 7, -ENOENT, 0, 0);
	ck_assert_ptr_nonnull(strstr(buf, "no NUMA nodes"));
	errmsg_numa(buf, sizeof(buf), 7, -EPERM, 2, 0);
	ck_assert_ptr_nonnull(strstr(buf, "EPERM"));
	errmsg_numa(buf, sizeof(buf), 7, 0, 1, 0);
	ck_assert_ptr_nonnull(strstr(buf, "one node (node 0)"));
	errmsg_numa(buf, sizeof(buf), 7, 0, 2, 0);
	ck_assert_ptr_nonnull(strstr(buf, "2 nodes"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("numa");
	TCase *tc = tcase_create("nodes");

	tcase_add_test(tc, test_cpus_map_to_the_nodes_of_the_sysfs_tree);
	tcase_add_test(tc, test_a_kernel_without_nodes_loads_none);
	tcase_add_test(tc, test_each_sample_gets_its_page_node_and_its_cpu_node_in_one_call);
	tcase_add_test(tc, test_a_failed_call_leaves_every_page_not_known);
	tcase_add_test(tc, test_beyond_the_batch_the_most_sampled_pages_are_asked);
	tcase_add_test(tc, test_the_histogram_counts_remote_samples_per_page_and_in_all);
	tcase_add_test(tc, test_the_notice_says_what_was_measured);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
