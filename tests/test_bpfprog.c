/* Tests of the context-switch program, loaded for real: what it counts, against the kernel. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/bpfcount.h"
#include "kernel/cpumap.h"
#include "testutil.h"

/* Capability bits of CapEff (linux/capability.h) that --bpf's load needs */
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_PERFMON 38
#define CAP_BIT_BPF 39

/* This process's effective capabilities, from /proc/self/status; 0 when not found. */
static unsigned long long cap_effective(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

static bool cap_has(unsigned long long caps, int bit)
{
	return caps >> bit & 1;
}

static struct perf_event_attr sw_attr(unsigned long long config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	return a;
}

/*
 * Load the program for nev events on every online CPU. True with *out when
 * it loaded; false when this build or this process may not (a refusal's
 * step and errno are checked then: without the capabilities the kernel
 * must refuse, with EPERM or EACCES). A load refused to root fails.
 */
static bool open_real(struct bpfcount **out, const struct perf_event_attr *attrs, int nev)
{
	const struct perf_event_attr *ap[BPFPROG_MAX_EVENTS + 1];
	struct cpumap on = { 0 };
	struct bpfcount_why why;
	unsigned long long caps;
	int r;

	for (int i = 0; i < nev; i++)
		ap[i] = &attrs[i];
	ck_assert_int_eq(cpumap_online(&on, sysops_real(), NULL, -1), 0);
	r = bpfcount_open(out, sysops_real(), NULL, ap, nev, on.cpu, on.n, &why);
	cpumap_release(&on);
#ifndef PMCTOP_BPF
	ck_assert_int_eq(r, -ENOSYS);
	ck_assert_int_eq(why.step, BPFCOUNT_NOT_BUILT);
	return false;
#endif
	/*
	 * Not root but maybe allowed: what decides is CAP_SYS_ADMIN, or CAP_BPF
	 * with CAP_PERFMON; with none of the three the kernel must refuse, and
	 * with one of a pair alone either outcome may be right
	 */
	caps = cap_effective();
	if (!cap_has(caps, CAP_BIT_SYS_ADMIN) &&
	    !(cap_has(caps, CAP_BIT_BPF) && cap_has(caps, CAP_BIT_PERFMON))) {
		if (!cap_has(caps, CAP_BIT_BPF) && !cap_has(caps, CAP_BIT_PERFMON))
			ck_assert_int_ne(r, 0);
		if (r) {
			ck_assert(why.err == -EPERM || why.err == -EACCES);
			return false;
		}
	}
	ck_assert_msg(r == 0, "load failed at step %d: %s (%s)", why.step, strerror(-why.err),
		      why.log);
	return true;
}

/* Flush and read; this process's sums (nev x 3), copied into s, zero when it has no entry. */
static void read_own(struct bpfcount *b, int nev, uint64_t *s)
{
	struct bpfcount_why why;
	const uint64_t *v;

	ck_assert_int_eq(bpfcount_read(b, &why), 0);
	v = bpfcount_get(b, getpid());
	for (int k = 0; k < nev * BPFPROG_FIELDS; k++)
		s[k] = v ? v[k] : 0;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin for ms of this process's CPU time. */
static void spin(unsigned ms)
{
	uint64_t end = cpu_ns() + ms * 1000000ull;
	volatile unsigned long x = 0;

	while (cpu_ns() < end)
		x++;
}

/* Touch pages fresh pages: one minor fault each. */
static void fault_pages(size_t pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert(buf != MAP_FAILED);
	madvise(buf, pages * (size_t)page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < pages; i++)
		buf[i * (size_t)page] = 1;
	munmap(buf, pages * (size_t)page);
}

/* The context switches the kernel counted for this process between two getrusage calls. */
static unsigned long long switches_between(const struct rusage *r0, const struct rusage *r1)
{
	return (unsigned long long)(r1->ru_nvcsw - r0->ru_nvcsw + r1->ru_nivcsw - r0->ru_nivcsw);
}

/* Sleep n times for 1 ms: n voluntary context switches at least. */
static void sleeps(int n)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < n; i++)
		nanosleep(&ms, NULL);
}

/*
 * The page faults this process makes are counted into its entry, between
 * the faults the pages must take and what the kernel says the process took
 * from before the first read to after the second (the reads' own too).
 */
START_TEST(test_counts_own_page_faults)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct bpfcount *b;
	uint64_t s0[BPFPROG_FIELDS], s1[BPFPROG_FIELDS];
	unsigned long long minflt;
	struct rusage r0, r1;
	size_t pages = 3000;

	if (!open_real(&b, &a, 1))
		return;
	getrusage(RUSAGE_SELF, &r0);
	read_own(b, 1, s0);
	fault_pages(pages);
	read_own(b, 1, s1);
	getrusage(RUSAGE_SELF, &r1);
	minflt = (unsigned long long)(r1.ru_minflt - r0.ru_minflt);
	ck_assert_msg(s1[0] - s0[0] >= pages && s1[0] - s0[0] <= minflt + 20,
		      "%llu faults counted for %zu pages (the kernel says %llu)",
		      (unsigned long long)(s1[0] - s0[0]), pages, minflt);
	/* enabled and running: the time it was on a CPU, all of it on the PMU */
	ck_assert_uint_gt(s1[1], s0[1]);
	ck_assert_uint_eq(s1[1] - s0[1], s1[2] - s0[2]);
	bpfcount_close(b);
}
END_TEST

/*
 * Four events in one program, each summed in its own slot: the faults,
 * switches and CPU time of known work, against the kernel's accounts of
 * this process. A slot mixed up with another fails by orders of magnitude.
 * The first is the program's clock (read with its times); the switches and
 * the task-clock are what each switch tells, not read; the second faults
 * event is a counter read alone, with the clock's times.
 */
START_TEST(test_counts_each_event_in_its_own_slot)
{
	struct perf_event_attr a[4] = { sw_attr(PERF_COUNT_SW_PAGE_FAULTS),
					sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES),
					sw_attr(PERF_COUNT_SW_TASK_CLOCK),
					sw_attr(PERF_COUNT_SW_PAGE_FAULTS) };
	struct bpfcount *b;
	uint64_t s0[4 * BPFPROG_FIELDS], s1[4 * BPFPROG_FIELDS], t0, t1;
	unsigned long long flt, csw, pf, pf2, cs, ns, cpu;
	struct rusage r0, r1;

	if (!open_real(&b, a, 4))
		return;
	getrusage(RUSAGE_SELF, &r0);
	t0 = cpu_ns();
	read_own(b, 4, s0);
	fault_pages(2000);
	sleeps(200);
	spin(150);
	read_own(b, 4, s1);
	t1 = cpu_ns();
	getrusage(RUSAGE_SELF, &r1);
	flt = (unsigned long long)(r1.ru_minflt - r0.ru_minflt);
	csw = switches_between(&r0, &r1);
	pf = s1[0] - s0[0];
	cs = s1[BPFPROG_FIELDS] - s0[BPFPROG_FIELDS];
	ns = s1[2 * BPFPROG_FIELDS] - s0[2 * BPFPROG_FIELDS];
	pf2 = s1[3 * BPFPROG_FIELDS] - s0[3 * BPFPROG_FIELDS];
	cpu = t1 - t0;
	ck_assert_msg(pf >= 2000 && pf <= flt + 20, "faults: %llu counted, the kernel says %llu",
		      pf, flt);
	ck_assert_msg(pf2 == pf, "faults read alone: %llu, with times: %llu", pf2, pf);
	/*
	 * each switch is the task's that leaves the CPU, as the kernel counts
	 * them: only those between getrusage and the reads differ
	 */
	ck_assert_msg(cs >= 200 && cs + 3 >= csw && cs <= csw + 3,
		      "switches: %llu counted, the kernel says %llu", cs, csw);
	/*
	 * task-clock: from one switch to the next; the process's CPU clock
	 * also runs through the switch path (25 us a switch, as live_bpf.sh)
	 */
	ck_assert_msg(ns >= 150000000ull && ns <= cpu + cpu / 50 + csw * 25000,
		      "task-clock: %llu ns counted, the process took %llu ns", ns, cpu);
	/* the times of every event are the clock's: each event is always counting */
	for (int e = 1; e < 4; e++)
		for (int f = 1; f < BPFPROG_FIELDS; f++)
			ck_assert_uint_eq(s1[e * BPFPROG_FIELDS + f] - s0[e * BPFPROG_FIELDS + f],
					  s1[1] - s0[1]);
	bpfcount_close(b);
}
END_TEST

/*
 * pmctop runs the program on each CPU before it reads the sums: that run
 * switches no task out, so however many reads, the switches counted are
 * the kernel's.
 */
START_TEST(test_a_read_counts_no_switch)
{
	struct perf_event_attr a[2] = { sw_attr(PERF_COUNT_SW_PAGE_FAULTS),
					sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES) };
	struct bpfcount *b;
	uint64_t s0[2 * BPFPROG_FIELDS], s1[2 * BPFPROG_FIELDS];
	unsigned long long csw, cs;
	struct rusage r0, r1;

	if (!open_real(&b, a, 2))
		return;
	getrusage(RUSAGE_SELF, &r0);
	read_own(b, 2, s0);
	for (int i = 0; i < 200; i++)
		read_own(b, 2, s1);
	getrusage(RUSAGE_SELF, &r1);
	csw = switches_between(&r0, &r1);
	cs = s1[BPFPROG_FIELDS] - s0[BPFPROG_FIELDS];
	ck_assert_msg(cs <= csw + 3, "switches: %llu counted over 200 reads, the kernel says %llu",
		      cs, csw);
	bpfcount_close(b);
}
END_TEST

/* This thread's migrations as the kernel counts them (se.nr_migrations of /proc/self/sched). */
static unsigned long long own_migrations(void)
{
	char buf[8192];
	FILE *f = fopen("/proc/self/sched", "r");
	size_t n;
	const char *p;
	unsigned long long v = 0;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "\nse.nr_migrations");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, ':');
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p + 1, "%llu", &v), 1);
	return v;
}

/*
 * Migrations: the kernel counts one when a task that moved is switched in
 * on its new CPU, and the program charges it at that task's switch out
 * (never at the idle task's, which it does not read them for). A thread
 * that moves itself between two CPUs 100 times is charged what its sched
 * file says, two fewer at most (its last moves may not be charged yet at
 * the second read) and one more at most: a move the kernel counted before
 * the first read (the balancer's, beside a busy machine) is charged at the
 * thread's next switch out, after it (CI saw 100 charged where the file
 * said 99, once).
 */
START_TEST(test_counts_migrations)
{
	struct perf_event_attr a[2] = { sw_attr(PERF_COUNT_SW_PAGE_FAULTS),
					sw_attr(PERF_COUNT_SW_CPU_MIGRATIONS) };
	struct bpfcount *b;
	uint64_t s0[2 * BPFPROG_FIELDS], s1[2 * BPFPROG_FIELDS];
	unsigned long long m0, m1, mig;
	cpu_set_t all, one;
	int cpu[2], n = 0;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all))
			cpu[n++] = c;
	/* one CPU: nowhere to move to (this machine and CI have two) */
	if (n < 2)
		return;
	if (!open_real(&b, a, 2))
		return;
	m0 = own_migrations();
	read_own(b, 2, s0);
	for (int i = 0; i < 100; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpu[i % 2], &one);
		ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	}
	read_own(b, 2, s1);
	m1 = own_migrations();
	ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
	mig = s1[BPFPROG_FIELDS] - s0[BPFPROG_FIELDS];
	/* the first move may find it where it is already */
	ck_assert_msg(m1 - m0 >= 99, "the kernel says %llu migrations", m1 - m0);
	ck_assert_msg(mig + 2 >= m1 - m0 && mig <= m1 - m0 + 1,
		      "migrations: %llu counted, the kernel says %llu", mig, m1 - m0);
	bpfcount_close(b);
}
END_TEST

/*
 * The verifier takes the largest program (BPFPROG_MAX_EVENTS events, each
 * slot read: cpu-clocks, whose counters are read alone with the clock's
 * times, between page faults, which the idle task's switches do not read),
 * and each slot counts: the cpu-clocks agree with each other, as do the
 * faults.
 */
START_TEST(test_counts_with_the_most_events)
{
	struct perf_event_attr a[BPFPROG_MAX_EVENTS];
	struct bpfcount *b;
	uint64_t s0[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS], s1[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS];
	uint64_t first, faults, t0, t1;

	for (int i = 0; i < BPFPROG_MAX_EVENTS; i++)
		a[i] = sw_attr(i % 2 ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CPU_CLOCK);
	if (!open_real(&b, a, BPFPROG_MAX_EVENTS))
		return;
	t0 = cpu_ns();
	read_own(b, BPFPROG_MAX_EVENTS, s0);
	fault_pages(500);
	spin(50);
	read_own(b, BPFPROG_MAX_EVENTS, s1);
	t1 = cpu_ns();
	first = s1[0] - s0[0];
	faults = s1[BPFPROG_FIELDS] - s0[BPFPROG_FIELDS];
	/*
	 * 50 ms and the faults of the process's CPU clock, which also runs
	 * through the switch path that the clocks leave out: preempted often on
	 * a loaded machine, the spin is counted a little short (49.99 ms beside
	 * stress-ng)
	 */
	ck_assert_uint_ge(first, 45000000u);
	ck_assert_msg(first <= t1 - t0 + 5000000u, "cpu-clock %llu ns, the process took %llu",
		      (unsigned long long)first, (unsigned long long)(t1 - t0));
	ck_assert_uint_ge(faults, 500u);
	for (int i = 2; i < BPFPROG_MAX_EVENTS; i++) {
		uint64_t d = s1[i * BPFPROG_FIELDS] - s0[i * BPFPROG_FIELDS];

		/* the counters are read one after another: microseconds apart */
		if (i % 2)
			ck_assert_msg(d == faults, "event %d counted %llu faults, event 1 %llu", i,
				      (unsigned long long)d, (unsigned long long)faults);
		else
			ck_assert_msg(d + 2000000 > first && d < first + 2000000,
				      "event %d counted %llu ns, event 0 %llu", i,
				      (unsigned long long)d, (unsigned long long)first);
	}
	bpfcount_close(b);
}
END_TEST

/*
 * Nothing read but what each switch tells (context switches alone): the
 * switches still go to the task leaving, none to a read.
 */
START_TEST(test_counts_switches_alone)
{
	struct perf_event_attr a[1] = { sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES) };
	struct bpfcount *b;
	uint64_t s0[BPFPROG_FIELDS], s1[BPFPROG_FIELDS];
	unsigned long long csw, cs;
	struct rusage r0, r1;

	if (!open_real(&b, a, 1))
		return;
	getrusage(RUSAGE_SELF, &r0);
	read_own(b, 1, s0);
	sleeps(100);
	for (int i = 0; i < 100; i++)
		read_own(b, 1, s1);
	getrusage(RUSAGE_SELF, &r1);
	csw = switches_between(&r0, &r1);
	cs = s1[0] - s0[0];
	ck_assert_msg(cs >= 100 && cs + 3 >= csw && cs <= csw + 3,
		      "switches: %llu counted, the kernel says %llu", cs, csw);
	ck_assert_uint_gt(s1[1], s0[1]);
	bpfcount_close(b);
}
END_TEST

/* No event, or more than the program's stack holds: refused before any load. */
START_TEST(test_event_limits)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	const struct perf_event_attr *ap[BPFPROG_MAX_EVENTS + 1];
	struct bpfcount *b = (struct bpfcount *)&a;
	struct bpfcount_why why;
	int cpu = 0;

	for (int i = 0; i <= BPFPROG_MAX_EVENTS; i++)
		ap[i] = &a;
	ck_assert_int_ne(bpfcount_open(&b, sysops_real(), NULL, ap, 0, &cpu, 1, &why), 0);
	ck_assert_ptr_null(b);
	ck_assert_int_ne(
		bpfcount_open(&b, sysops_real(), NULL, ap, BPFPROG_MAX_EVENTS + 1, &cpu, 1, &why),
		0);
	ck_assert_ptr_null(b);
}
END_TEST

/*
 * A process's entry dropped (it exited) is begun again from nothing at its
 * next switch: what it held is gone, what follows is counted.
 */
START_TEST(test_forget_drops_the_sums)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct bpfcount *b;
	uint64_t s0[BPFPROG_FIELDS], s1[BPFPROG_FIELDS];

	if (!open_real(&b, &a, 1))
		return;
	spin(100);
	read_own(b, 1, s0);
	ck_assert_uint_ge(s0[0], 100000000u);
	ck_assert_int_eq(bpfcount_forget(b, getpid()), 0);
	spin(20);
	read_own(b, 1, s1);
	ck_assert_uint_ge(s1[0], 20000000u);
	ck_assert_msg(s1[0] < 80000000u, "%llu ns after the drop: the old sums came back",
		      (unsigned long long)s1[0]);
	/* an entry that is not there: nothing to do */
	ck_assert_int_eq(bpfcount_forget(b, 0x7ffffff0), 0);
	bpfcount_close(b);
}
END_TEST

/*
 * In a PID namespace of its own the program keys processes by the ids that
 * namespace gives them: a child that is pid 1 there finds its faults under
 * 1, not under the kernel's id. The child reports through a pipe.
 */
START_TEST(test_keys_by_the_pid_namespace)
{
	struct perf_event_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	unsigned long long got[3] = { 0, 0, 0 };
	int fds[2], status;
	pid_t outer;

	if (getuid() != 0)
		return; /* no namespace to make: the loader's other tests stand */
	ck_assert_int_eq(pipe(fds), 0);
	/*
	 * The namespace is made by a child of the test, not the test itself: once
	 * its pid 1 has exited, nothing more can be forked into it, and the leak
	 * checker of a sanitizer build forks a tracer at the test's exit.
	 */
	outer = fork();
	ck_assert_int_ge(outer, 0);
	if (outer == 0) {
		unsigned long long none[3] = { 0, 0, 2 };
		pid_t child;

		close(fds[0]);
		if (unshare(CLONE_NEWPID) != 0) {
			/* no namespace here: say so, the loader's other tests stand */
			_exit(write(fds[1], none, sizeof(none)) == (ssize_t)sizeof(none) ? 0 : 2);
		}
		child = fork();
		if (child < 0)
			_exit(3);
		if (child == 0) {
			struct bpfcount *b;
			uint64_t s0[BPFPROG_FIELDS], s1[BPFPROG_FIELDS];
			unsigned long long r[3] = { 0, 0, 0 };

			if (open_real(&b, &a, 1)) {
				read_own(b, 1, s0);
				fault_pages(1500);
				read_own(b, 1, s1);
				r[0] = (unsigned long long)getpid();
				r[1] = s1[0] - s0[0];
				r[2] = 1;
				bpfcount_close(b);
			}
			if (write(fds[1], r, sizeof(r)) != (ssize_t)sizeof(r))
				_exit(2);
			_exit(0);
		}
		_exit(waitpid(child, &status, 0) == child && WIFEXITED(status) ? WEXITSTATUS(status)
									       : 4);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], got, sizeof(got)), (ssize_t)sizeof(got));
	close(fds[0]);
	ck_assert_int_eq(waitpid(outer, &status, 0), outer);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (got[2] != 1)
		return; /* not built (the child checked the refusal), or no namespace */
	ck_assert_uint_eq(got[0], 1);
	ck_assert_msg(got[1] >= 1500, "pid 1 of the namespace: %llu faults counted", got[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bpfprog");
	TCase *tc = tcase_create("counts");

	tcase_add_test(tc, test_counts_own_page_faults);
	tcase_add_test(tc, test_counts_each_event_in_its_own_slot);
	tcase_add_test(tc, test_a_read_counts_no_switch);
	tcase_add_test(tc, test_counts_migrations);
	tcase_add_test(tc, test_counts_switches_alone);
	tcase_add_test(tc, test_counts_with_the_most_events);
	tcase_add_test(tc, test_event_limits);
	tcase_add_test(tc, test_forget_drops_the_sums);
	tcase_add_test(tc, test_keys_by_the_pid_namespace);
	suite_add_tcase(s, tc);
	testutil_hold_hotplug_lock();
	return testutil_run(s);
}
