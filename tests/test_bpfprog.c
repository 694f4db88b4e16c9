/* Tests of the context-switch program's builder (encoding, jumps) and, as root, a real load. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "collect/bpfcount.h"
#include "collect/bpfprog.h"
#include "collect/cpumap.h"
#include "testutil.h"

#define FD_LAST 41
#define FD_ACC 42
#define FD_ALIAS 43
static const int FD_PERF[BPFPROG_MAX_EVENTS + 1] = { 50, 51, 52, 53, 54, 55, 56, 57, 58,
						     59, 60, 61, 62, 63, 64, 65, 66 };

/* Capability bits of CapEff (linux/capability.h) that --bpf's load needs: either is enough */
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

static int build(int nev, bool ns, struct bpfi *out, size_t max)
{
	struct bpfprog_maps m = { FD_LAST, FD_ACC, FD_PERF,	   nev,
				  ns,	   0x1234, 0x1effffffcull, FD_ALIAS };

	return bpfprog_build(&m, out, max);
}

/* Every jump lands inside the program, on an instruction (not a 64-bit load's second half). */
static void check_jumps(const struct bpfi *p, int n)
{
	bool second[1024] = { false };

	ck_assert_int_le(n, 1024);
	for (int i = 0; i < n; i++)
		if (p[i].code == (BPFI_LD | BPFI_IMM | BPFI_DW)) {
			ck_assert_int_lt(i + 1, n);
			ck_assert_int_eq(p[i + 1].code, 0);
			second[i + 1] = true;
		}
	for (int i = 0; i < n; i++) {
		int cls = p[i].code & 0x07, op = p[i].code & 0xf0;
		int target = i + 1 + p[i].off;

		if (cls != BPFI_JMP || op == BPFI_CALL || op == BPFI_EXIT)
			continue;
		ck_assert_msg(target > i && target < n, "jump at %d goes to %d of %d", i, target,
			      n);
		ck_assert_msg(!second[target], "jump at %d lands inside a 64-bit load", i);
	}
	ck_assert_int_eq(p[n - 1].code, BPFI_JMP | BPFI_EXIT);
	ck_assert_int_eq(p[n - 2].code, BPFI_ALU64 | BPFI_MOV | BPFI_K);
	ck_assert_int_eq(p[n - 2].dst, BPFI_R0);
}

START_TEST(test_program_size_and_encoding)
{
	struct bpfi p[1024];
	int n = build(3, false, p, 1024);
	int perf_loads = 0, reads = 0;

	ck_assert_int_eq(n, (int)BPFPROG_INSNS(3, false));
	ck_assert_int_eq(n, 36 + 32 * 3);
	/* call get_current_pid_tgid; r0 >>= 32: the tgid */
	ck_assert_int_eq(p[0].code, 0x85);
	ck_assert_int_eq(p[0].imm, 14);
	ck_assert_int_eq(p[1].code, 0x77);
	ck_assert_int_eq(p[1].imm, 32);
	for (int i = 0; i < n; i++) {
		if (p[i].code == 0x18) {
			ck_assert_int_eq(p[i].src, BPFI_PSEUDO_MAP_FD);
			if (p[i].imm >= FD_PERF[0]) {
				ck_assert_int_eq(p[i].imm, FD_PERF[perf_loads]);
				perf_loads++;
			} else {
				ck_assert(p[i].imm == FD_LAST || p[i].imm == FD_ACC);
				ck_assert_int_ne(p[i].imm, FD_ALIAS); /* only in a namespace */
			}
		}
		if (p[i].code == 0x85 && p[i].imm == 55) {
			/* flags: BPF_F_CURRENT_CPU, 0xffffffff, from a 32-bit move of -1 */
			ck_assert_int_eq(p[i - 4].code, 0xb4);
			ck_assert_int_eq(p[i - 4].dst, BPFI_R2);
			ck_assert_int_eq(p[i - 4].imm, -1);
			ck_assert_int_eq(p[i - 1].imm,
					 24); /* sizeof(struct bpf_perf_event_value) */
			reads++;
		}
	}
	ck_assert_int_eq(perf_loads, 3);
	ck_assert_int_eq(reads, 3);
	check_jumps(p, n);
}
END_TEST

START_TEST(test_program_in_a_pid_namespace)
{
	struct bpfi p[1024];
	int n = build(2, true, p, 1024);
	bool ns_call = false;

	ck_assert_int_eq(n, (int)BPFPROG_INSNS(2, true));
	/* dev then inode as 64-bit constants, low word first */
	ck_assert_int_eq(p[0].code, 0x18);
	ck_assert_int_eq(p[0].src, 0);
	ck_assert_int_eq(p[0].imm, 0x1234);
	ck_assert_int_eq(p[1].imm, 0);
	ck_assert_uint_eq((uint32_t)p[2].imm, 0xeffffffcu);
	ck_assert_int_eq(p[3].imm, 1);
	int alias = 0;

	for (int i = 0; i < n; i++) {
		if (p[i].code == 0x85 && p[i].imm == 120)
			ns_call = true;
		/* the alias table: looked up for a thread past its exit, filled for a new process */
		if (p[i].code == 0x18 && p[i].src == BPFI_PSEUDO_MAP_FD && p[i].imm == FD_ALIAS)
			alias++;
	}
	ck_assert(ns_call);
	ck_assert_int_eq(alias, 2);
	check_jumps(p, n);
}
END_TEST

START_TEST(test_program_limits)
{
	struct bpfi p[1024];

	ck_assert_int_eq(build(0, false, p, 1024), -EINVAL);
	ck_assert_int_eq(build(BPFPROG_MAX_EVENTS + 1, false, p, 1024), -E2BIG);
	ck_assert_int_eq(build(2, false, p, BPFPROG_INSNS(2, false) - 1), -E2BIG);
	ck_assert_int_eq(build(BPFPROG_MAX_EVENTS, false, p, 1024),
			 (int)BPFPROG_INSNS(BPFPROG_MAX_EVENTS, false));
	check_jumps(p, (int)BPFPROG_INSNS(BPFPROG_MAX_EVENTS, false));
}
END_TEST

/*
 * The kernel's verifier takes the program, and it counts this process's
 * page faults: as root where pmctop was built with it; otherwise the
 * refusal names the step and the errno.
 */
START_TEST(test_real_load_counts_own_page_faults)
{
	struct perf_event_attr a;
	const struct perf_event_attr *ap = &a;
	struct cpumap on = { 0 };
	struct bpfcount *b;
	struct bpfcount_why why;
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 3000;
	char *buf;
	const uint64_t *s;
	uint64_t before;
	unsigned long long minflt;
	struct rusage r0, r1;
	unsigned long long caps;
	int r;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	ck_assert_int_eq(cpumap_online(&on, sysops_real(), NULL, -1), 0);
	r = bpfcount_open(&b, sysops_real(), NULL, &ap, 1, on.cpu, on.n, &why);
#ifndef PMCTOP_BPF
	ck_assert_int_eq(r, -ENOSYS);
	ck_assert_int_eq(why.step, BPFCOUNT_NOT_BUILT);
	cpumap_release(&on);
	return;
#endif
	/*
	 * Not root but maybe allowed: what decides is CAP_SYS_ADMIN, or CAP_BPF
	 * with CAP_PERFMON; with none of the three the kernel must refuse, and
	 * with one of a pair alone either outcome may be right (a map may be
	 * made, the tracepoint program not): only a refusal's errno is checked.
	 */
	caps = cap_effective();
	if (!cap_has(caps, CAP_BIT_SYS_ADMIN) &&
	    !(cap_has(caps, CAP_BIT_BPF) && cap_has(caps, CAP_BIT_PERFMON))) {
		if (!cap_has(caps, CAP_BIT_BPF) && !cap_has(caps, CAP_BIT_PERFMON))
			ck_assert_int_ne(r, 0);
		if (r) {
			ck_assert(why.err == -EPERM || why.err == -EACCES);
			cpumap_release(&on);
			return;
		}
	}
	ck_assert_msg(r == 0, "load failed at step %d: %s (%s)", why.step, strerror(-why.err),
		      why.log);
	/*
	 * what the process counted so far (Check's fork left copy-on-write faults);
	 * the kernel's account from before this read to after the next one holds
	 * every fault the two reads can count between them (their own too)
	 */
	getrusage(RUSAGE_SELF, &r0);
	ck_assert_int_eq(bpfcount_read(b, &why), 0);
	s = bpfcount_get(b, getpid());
	before = s ? s[0] : 0;
	buf = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	ck_assert(buf != MAP_FAILED);
	madvise(buf, pages * (size_t)page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < pages; i++)
		buf[i * (size_t)page] = 1;
	ck_assert_int_eq(bpfcount_read(b, &why), 0);
	getrusage(RUSAGE_SELF, &r1);
	s = bpfcount_get(b, getpid());
	ck_assert_ptr_nonnull(s);
	minflt = (unsigned long long)(r1.ru_minflt - r0.ru_minflt);
	ck_assert_msg(s[0] - before >= pages && s[0] - before <= minflt + 20,
		      "%llu faults counted for %zu pages (the kernel says %llu)",
		      (unsigned long long)(s[0] - before), pages, minflt);
	/* enabled and running: the time it was on a CPU, all of it on the PMU */
	ck_assert_uint_gt(s[1], 0);
	ck_assert_uint_eq(s[1], s[2]);
	munmap(buf, pages * (size_t)page);
	bpfcount_close(b);
	cpumap_release(&on);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bpfprog");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_program_size_and_encoding);
	tcase_add_test(tc, test_program_in_a_pid_namespace);
	tcase_add_test(tc, test_program_limits);
	tcase_add_test(tc, test_real_load_counts_own_page_faults);
	suite_add_tcase(s, tc);
	testutil_hold_hotplug_lock();
	return testutil_run(s);
}
