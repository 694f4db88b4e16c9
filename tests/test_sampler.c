/* Tests of sampling attributes under forced PMU models, and of page-fault sampling on this machine. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "events.h"
#include "sampler.h"
#include "testutil.h"

static void force(const char *pmu)
{
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	ck_assert_int_eq(events_init(), 0);
}

START_TEST(test_pebs_attrs_on_skylake)
{
	struct sampler_attrs a;

	force("skl");
	ck_assert_int_eq(sampler_pebs_attrs(3, 0, false, &a), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_uint_eq(a.attr[0].type, PERF_TYPE_RAW);
	ck_assert_uint_eq(a.attr[0].config, 0x81d0); /* MEM_INST_RETIRED.ALL_LOADS */
	ck_assert_uint_eq(a.attr[1].config, 0x82d0); /* MEM_INST_RETIRED.ALL_STORES */
	ck_assert_int_eq(a.op[0], RING_OP_LOAD);
	ck_assert_int_eq(a.op[1], RING_OP_STORE);
	ck_assert_uint_eq(a.attr[0].precise_ip, 3);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_ADDR);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_DATA_SRC);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_WEIGHT);
	ck_assert(!(a.attr[0].sample_type & PERF_SAMPLE_WEIGHT_STRUCT));
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_IDENTIFIER);
	ck_assert(a.attr[0].exclude_kernel);
	ck_assert_uint_eq(a.attr[0].sample_period, 10007);
	ck_assert_int_eq(sampler_pebs_attrs(1, 500, true, &a), 0);
	ck_assert_uint_eq(a.attr[1].precise_ip, 1);
	ck_assert_uint_eq(a.attr[1].sample_period, 500);
	ck_assert(!a.attr[1].exclude_kernel);
	events_fini();
}
END_TEST

START_TEST(test_pebs_attrs_on_icelake_and_sapphire_rapids)
{
	struct sampler_attrs a;

	force("icl");
	ck_assert_int_eq(sampler_pebs_attrs(2, 0, false, &a), 0);
	ck_assert_uint_eq(a.attr[0].config, 0x81d0);
	events_fini();
	force("spr");
	ck_assert_int_eq(sampler_pebs_attrs(2, 0, false, &a), 0);
	ck_assert_uint_eq(a.attr[0].config, 0x81d0);
	ck_assert_uint_eq(a.attr[1].config, 0x82d0);
	events_fini();
}
END_TEST

START_TEST(test_no_pebs_on_amd)
{
	struct sampler_attrs a;

	force("amd64_fam19h_zen3");
	ck_assert_int_eq(sampler_pebs_attrs(3, 0, false, &a), -ENOENT);
	events_fini();
}
END_TEST

START_TEST(test_ibs_attrs)
{
	struct sampler_attrs a;

	sampler_ibs_attrs(11, 100001, &a);
	ck_assert_uint_eq(a.n, 1);
	ck_assert_uint_eq(a.attr[0].type, 11);
	ck_assert_uint_eq(a.attr[0].sample_period % 16, 0);
	ck_assert_uint_eq(a.attr[0].sample_period, 100000);
	/* IBS refuses any exclude_* bit */
	ck_assert(!a.attr[0].exclude_kernel && !a.attr[0].exclude_user && !a.attr[0].exclude_hv);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_ADDR);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_DATA_SRC);
	sampler_ibs_attrs(11, 3, &a);
	ck_assert_uint_eq(a.attr[0].sample_period, 16);
}
END_TEST

START_TEST(test_fault_attrs)
{
	struct sampler_attrs a;

	sampler_fault_attrs(0, false, &a);
	ck_assert_uint_eq(a.attr[0].type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a.attr[0].config, PERF_COUNT_SW_PAGE_FAULTS);
	ck_assert_uint_eq(a.attr[0].sample_period, 1);
	ck_assert(a.attr[0].sample_type & PERF_SAMPLE_ADDR);
	ck_assert(!(a.attr[0].sample_type & PERF_SAMPLE_DATA_SRC));
	ck_assert(a.attr[0].exclude_kernel);
}
END_TEST

struct seen {
	uint64_t want;
	size_t hits, total;
};

static void count(const struct ring_sample *s, void *arg)
{
	struct seen *c = arg;

	c->total++;
	if ((s->addr & ~4095ull) == c->want)
		c->hits++;
}

START_TEST(test_live_fault_samples_of_ourselves)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false };
	char notes[256], err[256];
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	struct seen c = { (uint64_t)(uintptr_t)p, 0, 0 };

	ck_assert_int_eq(
		sampler_open(&smp, root, getpid(), &req, notes, sizeof(notes), err, sizeof(err)),
		0);
	ck_assert_int_eq(sampler_kind(smp), SAMPLE_FAULTS);
	for (int i = 0; i < 50; i++) {
		madvise(p, (size_t)page, MADV_DONTNEED);
		p[0] = (char)i;
	}
	sampler_drain(smp, count, &c);
	ck_assert_uint_eq(c.hits, 50);
	ck_assert_uint_eq(sampler_stats(smp)->lost, 0);
	sampler_close(smp);
	munmap(p, (size_t)page);
	close(root);
}
END_TEST

struct toucher {
	char *page;
	size_t page_size;
	pid_t tid;
};

static void *touch_thread(void *arg)
{
	struct toucher *t = arg;

	t->tid = gettid();
	for (int i = 0; i < 30; i++) {
		madvise(t->page, t->page_size, MADV_DONTNEED);
		t->page[0] = (char)i;
	}
	return NULL;
}

struct by_tid {
	pid_t tid;
	size_t hits;
};

static void count_tid(const struct ring_sample *s, void *arg)
{
	struct by_tid *b = arg;

	if ((pid_t)s->tid == b->tid)
		b->hits++;
}

START_TEST(test_threads_created_while_sampling_are_sampled)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false };
	char notes[256], err[256];
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	struct toucher t;
	struct by_tid b;
	pthread_t th;

	t.page_size = (size_t)sysconf(_SC_PAGESIZE);
	t.page =
		mmap(NULL, t.page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_int_eq(
		sampler_open(&smp, root, getpid(), &req, notes, sizeof(notes), err, sizeof(err)),
		0);
	/* the thread is born after the events were opened: inheritance covers it */
	ck_assert_int_eq(pthread_create(&th, NULL, touch_thread, &t), 0);
	pthread_join(th, NULL);
	b.tid = t.tid;
	b.hits = 0;
	sampler_drain(smp, count_tid, &b);
	ck_assert_uint_ge(b.hits, 30);
	sampler_close(smp);
	close(root);
}
END_TEST

START_TEST(test_hung_up_rings_are_not_polled_but_drained)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false };
	char notes[256], err[256];
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	size_t max = (size_t)(ncpus > 0 ? ncpus : 1) + 1, n;
	int *fds = calloc(max, sizeof(*fds));
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	struct seen c = { (uint64_t)(uintptr_t)p, 0, 0 };

	ck_assert_ptr_nonnull(fds);
	ck_assert(p != MAP_FAILED);
	ck_assert_int_eq(
		sampler_open(&smp, root, getpid(), &req, notes, sizeof(notes), err, sizeof(err)),
		0);
	/* one ring per online CPU, all polled at first */
	n = sampler_poll_fds(smp, fds, max);
	ck_assert_uint_eq(n, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
	/* one hangup takes exactly that ring out of the poll set */
	sampler_hangup(smp, fds[0]);
	ck_assert_uint_eq(sampler_poll_fds(smp, fds, max), n - 1);
	/* hang up every ring, whichever CPU the faults below land on */
	for (size_t i = 0; i < n - 1; i++)
		sampler_hangup(smp, fds[i]);
	ck_assert_uint_eq(sampler_poll_fds(smp, fds, max), 0);
	for (int i = 0; i < 40; i++) {
		madvise(p, (size_t)page, MADV_DONTNEED);
		p[0] = (char)i;
	}
	/* not polled any more, but the samples are still drained */
	sampler_drain(smp, count, &c);
	ck_assert_uint_eq(c.hits, 40);
	ck_assert_uint_eq(sampler_stats(smp)->lost, 0);
	sampler_close(smp);
	munmap(p, (size_t)page);
	free(fds);
	close(root);
}
END_TEST

START_TEST(test_missing_pid_is_esrch)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_AUTO, 0, "/sys", false };
	char notes[256], err[256];
	int root = open("/proc", O_RDONLY | O_DIRECTORY);

	ck_assert_int_eq(
		sampler_open(&smp, root, 0x3ffffff0, &req, notes, sizeof(notes), err, sizeof(err)),
		-ESRCH);
	ck_assert_ptr_nonnull(strstr(err, "no process with pid"));
	close(root);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("attrs");

	tcase_add_test(tc, test_pebs_attrs_on_skylake);
	tcase_add_test(tc, test_pebs_attrs_on_icelake_and_sapphire_rapids);
	tcase_add_test(tc, test_no_pebs_on_amd);
	tcase_add_test(tc, test_ibs_attrs);
	tcase_add_test(tc, test_fault_attrs);
	tcase_add_test(tc, test_live_fault_samples_of_ourselves);
	tcase_add_test(tc, test_threads_created_while_sampling_are_sampled);
	tcase_add_test(tc, test_hung_up_rings_are_not_polled_but_drained);
	tcase_add_test(tc, test_missing_pid_is_esrch);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
