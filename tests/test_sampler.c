/* Tests of sampling attributes under forced PMU models, and of page-fault sampling on this machine. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/events.h"
#include "collect/sampler.h"
#include "fake_kernel.h"
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
	ck_assert_int_eq(a.op[0], MEM_OP_LOAD);
	ck_assert_int_eq(a.op[1], MEM_OP_STORE);
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

static void count(const struct perfrec_sample *s, void *arg)
{
	struct seen *c = arg;

	c->total++;
	if ((s->addr & ~4095ull) == c->want)
		c->hits++;
}

START_TEST(test_live_fault_samples_of_ourselves)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false, NULL, 0, false, false, 0 };
	struct fact_notes notes;
	struct fact err;
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	struct seen c = { (uint64_t)(uintptr_t)p, 0, 0 };

	ck_assert_int_eq(sampler_open(&smp, root, getpid(), &req, &notes, &err), 0);
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

static void count_tid(const struct perfrec_sample *s, void *arg)
{
	struct by_tid *b = arg;

	if ((pid_t)s->tid == b->tid)
		b->hits++;
}

START_TEST(test_threads_created_while_sampling_are_sampled)
{
	struct sampler *smp;
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false, NULL, 0, false, false, 0 };
	struct fact_notes notes;
	struct fact err;
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	struct toucher t;
	struct by_tid b;
	pthread_t th;

	t.page_size = (size_t)sysconf(_SC_PAGESIZE);
	t.page =
		mmap(NULL, t.page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_int_eq(sampler_open(&smp, root, getpid(), &req, &notes, &err), 0);
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
	struct sampler_req req = { SAMPLE_FAULTS, 1, "/sys", false, NULL, 0, false, false, 0 };
	struct fact_notes notes;
	struct fact err;
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
	ck_assert_int_eq(sampler_open(&smp, root, getpid(), &req, &notes, &err), 0);
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
	struct sampler_req req = { SAMPLE_AUTO, 0, "/sys", false, NULL, 0, false, false, 0 };
	struct fact_notes notes;
	struct fact err;
	char text[512];
	int root = open("/proc", O_RDONLY | O_DIRECTORY);

	ck_assert_int_eq(sampler_open(&smp, root, 0x3ffffff0, &req, &notes, &err), -ESRCH);
	ck_assert_int_eq(err.what, FACT_SAMPLE_TASK);
	ck_assert_int_eq(err.err, -ESRCH);
	ck_assert_ptr_nonnull(
		strstr(fact_sample_error(text, sizeof(text), &err, &notes), "no process with pid"));
	close(root);
}
END_TEST

/* ---- the seam: fake perf_event_open, ioctl and mmap over sysfs fixture trees ---- */

/* The fake kernel of every test below: any event opens, as rule allows. */
static struct fake_kernel *fake_new(int (*rule)(const struct perf_event_attr *a, int group))
{
	struct fake_kernel *f = fake_kernel_new();

	f->any_event = true;
	f->rule = rule;
	return f;
}

static const char *fixture(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/data/sysfs/%s", TEST_SRCDIR, name);
	return path;
}

/* Open our own process under a fixture tree with the fake; the result of sampler_open. */
static int fake_sample(struct fake_kernel *f, const char *tree, enum sample_kind kind,
		       size_t max_fds, struct sampler **smp, struct fact_notes *notes,
		       struct fact *err)
{
	struct sampler_req req = {
		kind, 0, fixture(tree), false, &f->ops, max_fds, false, false, 0
	};
	int root = open("/proc", O_RDONLY | O_DIRECTORY);
	int r;

	r = sampler_open(smp, root, getpid(), &req, notes, err);
	close(root);
	return r;
}

static const struct fake_ev *fake_find(const struct fake_kernel *f, uint32_t type, uint64_t config,
				       size_t nth)
{
	for (int i = 0; i < f->nev; i++)
		if (f->ev[i].attr.type == type && f->ev[i].attr.config == config && !nth--)
			return &f->ev[i];
	return NULL;
}

/* The kernel's rule on Sapphire Rapids: mem-loads with a data source must have the aux leader. */
static int spr_rule(const struct perf_event_attr *a, int group)
{
	if (a->type == 4 && a->config == 0x1cd && (a->sample_type & PERF_SAMPLE_DATA_SRC) &&
	    group < 0)
		return -ENODATA;
	return 0;
}

START_TEST(test_sapphire_rapids_loads_are_led_by_mem_loads_aux)
{
	struct fake_kernel *f = fake_new(spr_rule);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	const struct fake_ev *aux, *ld, *st;

	ck_assert_int_eq(fake_sample(f, "spr", SAMPLE_AUTO, 0, &smp, &notes, &err), 0);
	ck_assert_int_eq(sampler_kind(smp), SAMPLE_PEBS);
	aux = fake_find(f, 4, 0x8203, 0);
	ld = fake_find(f, 4, 0x1cd, 0);
	st = fake_find(f, 4, 0x2cd, 0);
	ck_assert_ptr_nonnull(aux);
	ck_assert_ptr_nonnull(ld);
	ck_assert_ptr_nonnull(st);
	/* the leader only counts; mem-loads samples in its group, above perf's threshold */
	ck_assert_uint_eq(aux->attr.sample_period, 0);
	ck_assert_int_eq(aux->group_fd, -1);
	ck_assert_int_eq(ld->group_fd, aux->fd);
	ck_assert_uint_eq(ld->attr.config1, SAMPLER_LDLAT);
	ck_assert_uint_eq(ld->attr.precise_ip, 3);
	ck_assert(ld->attr.sample_type & PERF_SAMPLE_WEIGHT);
	ck_assert(ld->attr.sample_type & PERF_SAMPLE_DATA_SRC);
	ck_assert_int_eq(st->group_fd, -1);
	/* latency and data source come with these events */
	ck_assert_uint_eq(sampler_flags(smp), 0);
	/* 2 CPUs x 1 thread x 3 events; one ring per CPU */
	ck_assert_uint_eq(sampler_nfds(smp), 6);
	ck_assert_uint_eq(f->nmap, 2);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_skylake_takes_the_sysfs_aliases_without_a_leader)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	const struct fake_ev *ld;

	ck_assert_int_eq(fake_sample(f, "skl", SAMPLE_PEBS, 0, &smp, &notes, &err), 0);
	ld = fake_find(f, 4, 0x1cd, 0);
	ck_assert_ptr_nonnull(ld);
	ck_assert_int_eq(ld->group_fd, -1);
	ck_assert_uint_eq(ld->attr.config1, 30);
	ck_assert_ptr_nonnull(fake_find(f, 4, 0x82d0, 0));
	ck_assert_ptr_null(fake_find(f, 4, 0x8203, 0));
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_hybrid_pmus_sample_only_on_their_own_cpus)
{
	struct fake_kernel *f = fake_new(spr_rule);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;

	ck_assert_int_eq(fake_sample(f, "adl", SAMPLE_PEBS, 0, &smp, &notes, &err), 0);
	for (int i = 0; i < f->nev; i++) {
		/* cpu_core (type 4) lists CPU 0, cpu_atom (type 8) CPU 1 */
		ck_assert_int_eq(f->ev[i].cpu, f->ev[i].attr.type == 4 ? 0 : 1);
		ck_assert(f->ev[i].attr.type == 4 || f->ev[i].attr.type == 8);
	}
	ck_assert_ptr_nonnull(fake_find(f, 8, 0x5d0, 0));  /* the E-core loads */
	ck_assert_ptr_nonnull(fake_find(f, 4, 0x8203, 0)); /* the P-core aux leader */
	ck_assert_ptr_null(fake_find(f, 8, 0x8203, 0));
	ck_assert_uint_eq(f->nmap, 2);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

/* No load-latency facility: mem-loads and mem-stores refused at every precise level. */
static int no_ldlat_rule(const struct perf_event_attr *a, int group)
{
	(void)group;
	if (a->type == 4 && a->config == 0x1cd)
		return -EOPNOTSUPP;
	return 0;
}

START_TEST(test_fallback_to_all_loads_says_latency_and_source_are_not_available)
{
	struct fake_kernel *f = fake_new(no_ldlat_rule);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	char text[1200];

	force("skl");
	ck_assert_int_eq(fake_sample(f, "skl", SAMPLE_PEBS, 0, &smp, &notes, &err), 0);
	ck_assert_ptr_nonnull(fake_find(f, PERF_TYPE_RAW, 0x81d0, 0));
	ck_assert_uint_eq(sampler_flags(smp), SNAP_SMP_NO_LATENCY | SNAP_SMP_NO_SOURCE);
	ck_assert_ptr_nonnull(
		strstr(fact_notes(text, sizeof(text), &notes), "PEBS: mem-loads: not supported"));
	sampler_close(smp);
	events_fini();
	fake_kernel_free(f);
}
END_TEST

/* Write one IBS sample (BASE | DATA_SRC | WEIGHT_STRUCT) at the head of a mapped ring. */
static void put_ibs_sample(void *map, uint64_t addr, uint64_t src)
{
	struct perf_event_mmap_page *pc = map;
	uint8_t *data = (uint8_t *)map + pc->data_offset;
	uint64_t body[9] = { 1, 0x401000, 0, 1, addr, 0, 4096, 5, src };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 + 9 * 8 };

	/* identifier ip pid/tid time addr cpu period weight data_src */
	memcpy(data + pc->data_head, &h, sizeof(h));
	memcpy(data + pc->data_head + 8, body, 72);
	pc->data_head += 80;
}

struct levels {
	size_t n;
	uint64_t addr[8];
	enum mem_level lvl[8];
};

static void take_level(const struct perfrec_sample *s, void *arg)
{
	struct levels *l = arg;

	if (l->n < 8) {
		l->addr[l->n] = s->addr;
		l->lvl[l->n++] = s->level;
	}
}

START_TEST(test_ibs_drops_ops_without_an_address_and_a_near_ccx_is_not_remote)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	struct levels got = { 0 };
	uint64_t near = (uint64_t)PERF_MEM_OP_LOAD |
			(uint64_t)(PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_HIT) << PERF_MEM_LVL_SHIFT |
			(uint64_t)PERF_MEM_LVLNUM_ANY_CACHE << PERF_MEM_LVLNUM_SHIFT |
			(uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT |
			(uint64_t)PERF_MEM_HOPS_0 << PERF_MEM_HOPS_SHIFT;

	ck_assert_int_eq(fake_sample(f, "zen4", SAMPLE_IBS, 0, &smp, &notes, &err), 0);
	ck_assert_int_eq(sampler_kind(smp), SAMPLE_IBS);
	ck_assert_ptr_nonnull(fake_find(f, 10, 0, 0)); /* ibs_op is type 10 in the zen4 tree */
	put_ibs_sample(f->map[0], 0, 0);	       /* a branch: no memory touched */
	put_ibs_sample(f->map[0], 0, 0);
	put_ibs_sample(f->map[0], 0x7f0000001000, near);
	sampler_drain(smp, take_level, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_uint_eq(got.addr[0], 0x7f0000001000);
	ck_assert_int_eq(got.lvl[0], MEM_LVL_PEER_CACHE);
	ck_assert_uint_eq(sampler_nonmem(smp), 2);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_sampling_fds_come_out_of_the_budget)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	char text[1200];

	/* page faults on 2 CPUs for 1 thread take 2 descriptors; 1 is left */
	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 1, &smp, &notes, &err), -EMFILE);
	ck_assert_uint_eq(f->nev, 0);
	ck_assert_int_eq(err.what, FACT_SAMPLE_FDS);
	ck_assert_int_eq(err.sample_fds.fds, 2);
	ck_assert_ptr_nonnull(strstr(fact_sample_error(text, sizeof(text), &err, &notes),
				     "needs 2 file descriptors"));
	ck_assert_ptr_nonnull(strstr(text, "ulimit -n"));
	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 2, &smp, &notes, &err), 0);
	ck_assert_uint_eq(sampler_nfds(smp), 2);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_rings_are_512_kib_and_halve_under_the_mlock_budget)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;

	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	ck_assert_uint_eq(sampler_ring_bytes(smp), 512u << 10);
	sampler_close(smp);
	fake_kernel_free(f);
	f = fake_new(NULL);
	f->refuse_mmap_above = 200u << 10;
	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	ck_assert_uint_eq(sampler_ring_bytes(smp), 128u << 10);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

static const struct {
	int line;
	uint64_t period;
	double rate;
	uint64_t want;
} STEER[] = {
	{ __LINE__, 1, 2000, 1 },	       /* inside the band: kept */
	{ __LINE__, 1, 40000, 8 },	       /* 16 times too many: at most 8 times a step */
	{ __LINE__, 10, 5000, 20 },	       /* twice the middle (2500) */
	{ __LINE__, 100, 500, 20 },	       /* a fifth of it */
	{ __LINE__, 100, 0, 100 },	       /* an idle process says nothing */
	{ __LINE__, 2, 600, 1 },	       /* never below the minimum */
	{ __LINE__, 1u << 20, 1e9, 1u << 20 }, /* nor above the maximum */
	{ __LINE__, 1, 4500, 2 },	       /* a period of 1 still grows */
};

START_TEST(test_period_steers_to_the_target_rate)
{
	struct sampler_rate r = { 1000, 4000, 1, 1u << 20 };

	ck_assert_msg(
		sampler_next_period(STEER[_i].period, STEER[_i].rate, &r) == STEER[_i].want,
		"line %d: got %llu", STEER[_i].line,
		(unsigned long long)sampler_next_period(STEER[_i].period, STEER[_i].rate, &r));
}
END_TEST

/* Page-fault samples written straight into a ring, as the kernel would. */
static void put_fault_sample(void *map, uint64_t addr)
{
	struct perf_event_mmap_page *pc = map;
	uint8_t *data = (uint8_t *)map + pc->data_offset;
	uint64_t body[6] = { 1, 0x401000, 0, 1, addr, 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 + 6 * 8 };

	memcpy(data + pc->data_head, &h, sizeof(h));
	memcpy(data + pc->data_head + 8, body, 48);
	pc->data_head += 56;
}

START_TEST(test_adapt_sets_the_period_on_every_sampling_fd)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;

	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	ck_assert_uint_eq(sampler_period(smp), 1);
	for (int i = 0; i < 1000; i++)
		put_fault_sample(f->map[i % 2], 0x1000 * (uint64_t)i);
	sampler_drain(smp, NULL, NULL);
	/* 1000 samples in 0.1 s: 10000/s, four times the middle of 1000-4000 */
	ck_assert_uint_eq(sampler_adapt(smp, 0.1), 4);
	ck_assert_uint_eq(sampler_period(smp), 4);
	/* a short period is applied here: the kernel goes on sampling every fault */
	ck_assert_uint_eq(f->nperiod, 0);
	/* nothing new in the next interval: kept */
	ck_assert_uint_eq(sampler_adapt(smp, 0.1), 4);
	/* about 250 of 1000 kept in 10 ms: 8 times more, past the short periods: to the kernel */
	for (int i = 0; i < 1000; i++)
		put_fault_sample(f->map[i % 2], 0x1000 * (uint64_t)i);
	sampler_drain(smp, NULL, NULL);
	ck_assert_uint_eq(sampler_adapt(smp, 0.01), 32);
	ck_assert_uint_eq(f->nperiod, 2);
	ck_assert_uint_eq(f->period_set[0], 32);
	ck_assert_uint_eq(f->period_set[1], 32);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

/* A page-fault sample of process pid at time t from the event with id, written into a ring. */
static void put_fault_at(void *map, uint32_t pid, uint64_t addr, uint64_t t, uint64_t id)
{
	struct perf_event_mmap_page *pc = map;
	uint8_t *data = (uint8_t *)map + pc->data_offset;
	uint32_t pidtid[2] = { pid, pid };
	uint64_t body[6] = { id, 0x401000, 0, t, addr, 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 + 6 * 8 };

	memcpy(&body[2], pidtid, 8);
	memcpy(data + pc->data_head, &h, sizeof(h));
	memcpy(data + pc->data_head + 8, body, 48);
	pc->data_head += 56;
}

/* An MMAP2 record (with mmap_data) of process pid at time t, with the fault events' trailer. */
static void put_mmap2_at(void *map, uint32_t pid, uint64_t addr, uint64_t len, const char *name,
			 uint64_t t)
{
	struct perf_event_mmap_page *pc = map;
	uint8_t *data = (uint8_t *)map + pc->data_offset, *p;
	uint32_t pidtid[2] = { pid, pid };
	uint64_t fixed[8] = { 0, addr, len, 0, 0, 77, 0, 3 }; /* pid/tid ... ino, gen, prot */
	size_t nlen = (strlen(name) + 8) & ~(size_t)7;
	uint64_t trailer[4] = { 0, t, 0, 1 }; /* tid, time, cpu, identifier */
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_DATA,
				       (uint16_t)(8 + 64 + nlen + 32) };

	memcpy(&fixed[0], pidtid, 8);
	memcpy(&trailer[0], pidtid, 8);
	p = data + pc->data_head;
	memcpy(p, &h, 8);
	memcpy(p + 8, fixed, 64);
	memset(p + 72, 0, nlen);
	memcpy(p + 72, name, strlen(name));
	memcpy(p + 72 + nlen, trailer, 32);
	pc->data_head += h.size;
}

struct names {
	size_t n;
	char name[8][64];
};

static void take_name(const struct perfrec_sample *s, void *arg)
{
	struct names *g = arg;

	if (g->n < 8)
		snprintf(g->name[g->n++], 64, "%s", s->area ? s->area->name : "(none)");
}

START_TEST(test_samples_are_named_by_the_mapping_of_their_time_across_rings)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	struct names got = { 0 };
	uint32_t me = (uint32_t)getpid();
	const uint64_t a = 0x100000000000ull; /* mapped by nothing of this process */

	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	ck_assert_uint_eq(f->nmap, 2);
	/* CPU 0: the file is mapped and touched; later the heap takes its first half */
	put_mmap2_at(f->map[0], me, a, 4 << 20, "/tmp/data.bin", 10);
	put_fault_at(f->map[0], me, a + 0x1000, 11, 1);
	/* CPU 1 wrote the heap's record before CPU 0's last sample: time, not ring, decides */
	put_mmap2_at(f->map[1], me, a, 2 << 20, "[heap]", 20);
	put_fault_at(f->map[1], me, a + 0x1000, 21, 1);
	put_fault_at(f->map[1], me, a + (3 << 20), 22, 1);
	put_fault_at(f->map[0], me, a + 0x2000, 25, 1);
	sampler_drain(smp, take_name, &got);
	ck_assert_uint_eq(got.n, 4);
	ck_assert_str_eq(got.name[0], "/tmp/data.bin");
	ck_assert_str_eq(got.name[1], "[heap]");
	/* the part of the file the heap did not cover is still the file */
	ck_assert_str_eq(got.name[2], "/tmp/data.bin");
	ck_assert_str_eq(got.name[3], "[heap]");
	/* a mapping that is gone by the next drain: its range keeps the last name it had */
	got.n = 0;
	put_fault_at(f->map[0], me, a + 0x5000, 30, 1);
	sampler_drain(smp, take_name, &got);
	ck_assert_uint_eq(got.n, 1);
	ck_assert_str_eq(got.name[0], "[heap]");
	ck_assert_uint_eq(sampler_stats(smp)->mmaps, 2);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_dither_keeps_the_mean_and_varies)
{
	static const struct {
		int line;
		uint64_t mean, max, step;
	} T[] = {
		{ __LINE__, 2, 1u << 20, 1 },
		{ __LINE__, 3, 1u << 20, 1 },
		{ __LINE__, 8, 1u << 20, 1 },
		{ __LINE__, 10007, 1ull << 30, 1 },
		{ __LINE__, 4096, 0xffff0, 16 },
		{ __LINE__, 0xfff00, 0xffff0, 16 }, /* near the maximum: narrower, still centred */
	};
	uint64_t rng = 12345;

	for (size_t k = 0; k < sizeof(T) / sizeof(T[0]); k++) {
		double sum = 0;
		uint64_t lo = UINT64_MAX, hi = 0;
		const int n = 200000;

		for (int i = 0; i < n; i++) {
			uint64_t p = sampler_dither(&rng, T[k].mean, T[k].max, T[k].step);

			ck_assert_msg(p > 0 && p % T[k].step == 0 && p <= T[k].max, "line %d: %llu",
				      T[k].line, (unsigned long long)p);
			sum += (double)p;
			lo = p < lo ? p : lo;
			hi = p > hi ? p : hi;
		}
		ck_assert_msg(fabs(sum / n / (double)T[k].mean - 1) < 0.02, "line %d: mean %f",
			      T[k].line, sum / n);
		ck_assert_msg(lo < T[k].mean && hi > T[k].mean, "line %d: %llu-%llu", T[k].line,
			      (unsigned long long)lo, (unsigned long long)hi);
	}
	/* a mean of 1 has nothing to spread */
	ck_assert_uint_eq(sampler_dither(&rng, 1, 1u << 20, 1), 1);
}
END_TEST

START_TEST(test_each_drain_gives_the_event_a_new_period)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	uint64_t fd0, lo = UINT64_MAX, hi = 0;
	double sum = 0;
	size_t n = 0, first;

	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	fd0 = (uint64_t)f->ev[0].fd; /* the fake's ids are the fds; CPU 0's event owns ring 0 */
	for (int i = 0; i < 1000; i++)
		put_fault_sample(f->map[0], 0x1000 * (uint64_t)i);
	sampler_drain(smp, NULL, NULL);
	/* 1000 samples in a millisecond: the period goes up 8 times, to 8, then to 64 */
	ck_assert_uint_eq(sampler_adapt(smp, 0.001), 8);
	for (int i = 0; i < 1000; i++)
		put_fault_sample(f->map[0], 0x1000 * (uint64_t)i);
	sampler_drain(smp, NULL, NULL);
	ck_assert_uint_eq(sampler_adapt(smp, 0.001), 64);
	first = f->nperiod;
	for (int i = 0; i < 3000; i++) {
		struct perf_event_mmap_page *pc = f->map[0];

		pc->data_head = pc->data_tail = 0;
		put_fault_at(f->map[0], 0, 0x1000, (uint64_t)i, fd0);
		sampler_drain(smp, NULL, NULL);
	}
	for (size_t i = first; i < f->nperiod; i++) {
		uint64_t p = f->period_set[i];

		ck_assert_int_eq(f->period_fd[i], (int)fd0);
		ck_assert_uint_gt(p, 0);
		sum += (double)p;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
		n++;
	}
	/* one new period per drain that brought the event's samples */
	ck_assert_uint_eq(n, 3000);
	ck_assert_msg(fabs(sum / (double)n / 64 - 1) < 0.05, "mean %f", sum / (double)n);
	ck_assert_uint_eq(lo, 32);
	ck_assert_uint_eq(hi, 96);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

struct kept {
	size_t n;
	double sum;
	uint64_t lo, hi;
};

static void take_period(const struct perfrec_sample *s, void *arg)
{
	struct kept *k = arg;

	k->n++;
	k->sum += (double)s->period;
	k->lo = s->period < k->lo ? s->period : k->lo;
	k->hi = s->period > k->hi ? s->period : k->hi;
}

START_TEST(test_short_fault_periods_are_dithered_sample_by_sample)
{
	struct fake_kernel *f = fake_new(NULL);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	struct kept k = { 0, 0, UINT64_MAX, 0 };
	const int n = 40000;

	ck_assert_int_eq(fake_sample(f, "zen2", SAMPLE_FAULTS, 0, &smp, &notes, &err), 0);
	for (int i = 0; i < 1000; i++)
		put_fault_sample(f->map[0], 0x1000);
	sampler_drain(smp, NULL, NULL);
	ck_assert_uint_eq(sampler_adapt(smp, 0.1), 4);
	for (int i = 0; i < n; i++) {
		struct perf_event_mmap_page *pc = f->map[0];

		put_fault_sample(f->map[0], 0x1000 * (uint64_t)(i % 8190));
		if (i % 4096 == 4095 || i == n - 1) {
			sampler_drain(smp, take_period, &k);
			pc->data_head = pc->data_tail = 0;
		}
	}
	/* a quarter kept, each standing for the faults since the last: all of them in sum */
	ck_assert_msg(fabs((double)k.n / (n / 4.0) - 1) < 0.05, "kept %zu", k.n);
	ck_assert_msg(fabs(k.sum / n - 1) < 0.01, "sum %f", k.sum);
	ck_assert_uint_eq(k.lo, 2);
	ck_assert_uint_eq(k.hi, 6);
	/* and the kernel's period stays 1: no ioctl restarts its count */
	ck_assert_uint_eq(f->nperiod, 0);
	sampler_close(smp);
	fake_kernel_free(f);
}
END_TEST

/* Every source refused: permission for page faults, after PEBS and IBS were not there. */
static int deny_all(const struct perf_event_attr *a, int group)
{
	(void)a;
	(void)group;
	return -EACCES;
}

START_TEST(test_another_users_process_needs_ptrace_not_paranoid)
{
	struct fact_notes notes = { 0 };
	struct fact err;
	char text[2048];

	fact_set(&err, FACT_SAMPLE, -EACCES, "page-faults", 2)->sample.pid = 1234;
	err.sample.owner = 0;
	err.sample.uid = 65534;
	fact_sample_error(text, sizeof(text), &err, &notes);
	ck_assert_ptr_nonnull(strstr(text, "pid 1234 belongs to uid 0"));
	ck_assert_ptr_nonnull(strstr(text, "needs ptrace access"));
	ck_assert_ptr_nonnull(strstr(text, "setcap cap_perfmon+ep"));
	/* the sysctl cannot help: not advised */
	ck_assert_ptr_null(strstr(text, "sysctl"));
	ck_assert_ptr_null(strstr(text, "or as uid"));
	err.sample.owner = 1000;
	fact_sample_error(text, sizeof(text), &err, &notes);
	ck_assert_ptr_nonnull(strstr(text, "run pmctop as root or as uid 1000"));
	/* one's own process: the limit is the paranoid level */
	err.sample.owner = 65534;
	fact_sample_error(text, sizeof(text), &err, &notes);
	ck_assert_ptr_nonnull(strstr(text, "sysctl kernel.perf_event_paranoid=1"));
}
END_TEST

START_TEST(test_error_gives_the_last_sources_reason_first_with_the_way_out)
{
	struct fake_kernel *f = fake_new(deny_all);
	struct sampler *smp;
	struct fact_notes notes;
	struct fact err;
	char text[1600];
	char want[64];

	ck_assert_int_eq(fake_sample(f, "zen4", SAMPLE_AUTO, 0, &smp, &notes, &err), -EACCES);
	err.paranoid = 2;
	fact_sample_error(text, sizeof(text), &err, &notes);
	snprintf(want, sizeof(want), "cannot sample pid %d: 'page-faults': permission denied; ",
		 getpid());
	ck_assert_msg(!strncmp(text, want, strlen(want)), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "perf_event_paranoid is 2"));
	ck_assert_ptr_nonnull(strstr(text, "(tried before: PEBS:"));
	ck_assert_ptr_nonnull(strstr(text, "IBS: permission denied"));
	ck_assert_ptr_null(strstr(text, "Permission denied")); /* plain words, not strerror */
	fake_kernel_free(f);
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
	tcase_add_test(tc, test_sapphire_rapids_loads_are_led_by_mem_loads_aux);
	tcase_add_test(tc, test_skylake_takes_the_sysfs_aliases_without_a_leader);
	tcase_add_test(tc, test_hybrid_pmus_sample_only_on_their_own_cpus);
	tcase_add_test(tc, test_fallback_to_all_loads_says_latency_and_source_are_not_available);
	tcase_add_test(tc, test_ibs_drops_ops_without_an_address_and_a_near_ccx_is_not_remote);
	tcase_add_test(tc, test_sampling_fds_come_out_of_the_budget);
	tcase_add_test(tc, test_rings_are_512_kib_and_halve_under_the_mlock_budget);
	tcase_add_loop_test(tc, test_period_steers_to_the_target_rate, 0,
			    sizeof(STEER) / sizeof(STEER[0]));
	tcase_add_test(tc, test_adapt_sets_the_period_on_every_sampling_fd);
	tcase_add_test(tc, test_samples_are_named_by_the_mapping_of_their_time_across_rings);
	tcase_add_test(tc, test_dither_keeps_the_mean_and_varies);
	tcase_add_test(tc, test_each_drain_gives_the_event_a_new_period);
	tcase_add_test(tc, test_short_fault_periods_are_dithered_sample_by_sample);
	tcase_add_test(tc, test_error_gives_the_last_sources_reason_first_with_the_way_out);
	tcase_add_test(tc, test_another_users_process_needs_ptrace_not_paranoid);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
