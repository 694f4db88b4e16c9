/* Tests of the live source on machines with several core PMUs, against a fake kernel. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/events.h"
#include "collect/source_live.h"
#include "kernel/sysops.h"
#include "stream/snapshot.h"
#include "fake_kernel.h"
#include "testutil.h"
#include "collect/fact.h"

/*
 * Alder Lake as tests/data/sysfs/alderlake has it: cpu_core 0-15, cpu_atom
 * 16-23, on the fake kernel. Each PMU counts on its CPUs only (per-CPU
 * events elsewhere: ENOENT) and validates a group against its counters
 * (EINVAL). A task runs half its time on each PMU; P-cores retire three
 * times as much. No process clock: the gate groups.
 */
static void hw_alderlake(struct fake_kernel *k)
{
	k->npmu = 0;
	fake_kernel_add_pmu(k, 4, 0, 15, 9);   /* 8 general (HT off) + fixed cycles */
	fake_kernel_add_pmu(k, 10, 16, 23, 7); /* 6 general + fixed cycles */
	k->pmu_value[0] = 30;
	k->pmu_value[1] = 10;
	k->pmu_running[0] = k->pmu_running[1] = 500;
	k->mmap_err = -ENODEV;
}

/* proc/rel of the fake kernel's tree gets text. */
static void put(struct fake_kernel *k, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "proc/%s", rel);
	fake_kernel_put(k, path, text);
}

/* A fake kernel whose /proc has one process, pid (of one thread), and CPUs 0 and 16. */
static struct fake_kernel *proc_tree_of(int pid)
{
	struct fake_kernel *k = fake_kernel_new();
	char rel[64], text[256];

	put(k, "sys/kernel/perf_event_paranoid", "0\n");
	put(k, "stat",
	    "cpu  300 0 100 1000 50 0 0 0 0 0\ncpu0 100 0 50 500 20 0 0 0 0 0\n"
	    "cpu16 200 0 50 500 30 0 0 0 0 0\nctxt 999\n");
	put(k, "loadavg", "0.50 0.25 0.10 1/100 42\n");
	put(k, "uptime", "1000.00 1500.00\n");
	fake_kernel_add_task(k->proc, pid, &pid, 1, 100, 800);
	snprintf(text, sizeof(text),
		 "%d (work) R 1 %d %d 0 -1 4194304 5 0 0 0 800 0 0 0 20 0 1 0 100 1000 100 0\n",
		 pid, pid, pid);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	put(k, rel, text);
	snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, pid);
	put(k, rel, text);
	return k;
}

/* The same with process 100. */
static struct fake_kernel *proc_tree_init(void)
{
	return proc_tree_of(100);
}

/* task-clock, then {cycles, instructions}: a live source on machine's sysfs fixture. */
static struct source *hw_live(struct fake_kernel *k, const char *machine, bool per_cpu)
{
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512], sys[512];

	snprintf(sys, sizeof(sys), "%s/data/sysfs/%s", TEST_SRCDIR, machine);
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "instructions", 1, true, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = k->proc;
	o.sysfs_root = sys;
	o.ops = &k->ops;
	o.per_cpu = per_cpu;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

static const struct snap_task *task_of(const struct snapshot *snap, int pid)
{
	for (size_t i = 0; i < snap->ntasks; i++)
		if (snap->tasks[i].pid == pid)
			return &snap->tasks[i];
	return NULL;
}

START_TEST(test_hybrid_task_counts_are_summed_over_the_core_pmus_and_not_estimates)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;

	k = proc_tree_init();
	hw_alderlake(k);
	s = hw_live(k, "alderlake", false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(source_read(s, &snap), 0);
	task = task_of(&snap, 100);
	ck_assert_ptr_nonnull(task);
	for (int e = 1; e <= 2; e++) {
		const struct snap_count *c = &task->c[e];

		ck_assert_int_eq(c->err, 0);
		/* half the time on each PMU: the copies' running times add up to the task's time */
		ck_assert_uint_eq(c->running, c->enabled);
		/* 30 per read on cpu_core and 10 on cpu_atom, both read as often */
		ck_assert_uint_eq(c->value * 1000, c->enabled * 40);
	}
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_hybrid_per_cpu_groups_open_only_on_their_pmus_cpus)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;

	k = proc_tree_init();
	hw_alderlake(k);
	s = hw_live(k, "alderlake", true);
	ck_assert_int_eq(k->wrong_cpu, 0);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.ncpus, 2);
	for (size_t i = 0; i < snap.ncpus; i++) {
		ck_assert_msg(snap.cpus[i].c[1].err == 0, "CPU %d: %d", snap.cpus[i].cpu,
			      snap.cpus[i].c[1].err);
		ck_assert_uint_gt(snap.cpus[i].c[1].value, 0);
		ck_assert_uint_eq(snap.cpus[i].c[1].running, snap.cpus[i].c[1].enabled);
	}
	ck_assert_int_eq(k->wrong_cpu, 0);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_the_header_names_the_core_pmus_as_the_kernel_does)
{
	struct fake_kernel *k;
	struct source *s;

	k = proc_tree_init();
	hw_alderlake(k);
	s = hw_live(k, "alderlake", false);
	ck_assert_str_eq(source_live_mode(s)->pmu, "cpu_core+cpu_atom");
	ck_assert_msg(strstr(s->mode, "cpu_core+cpu_atom") != NULL, "%s", s->mode);
	source_free(s);
	/* one PMU: the QEMU bed's armv8_pmuv3, for which libpfm4 has no table */
	hw_alderlake(k);
	k->npmu = 1;
	k->type[0] = 8;
	k->last[0] = 0;
	k->counters[0] = 7;
	s = hw_live(k, "qemu-virt", false);
	ck_assert_msg(strstr(s->mode, "hardware events (armv8_pmuv3") != NULL, "%s", s->mode);
	source_free(s);
	fake_kernel_free(k);
}
END_TEST

/* How many FACT_ONE_PMU facts name event on pmu, no_extended: the kernel refused that type. */
static size_t one_pmu_facts(const struct source *s, const char *event, const char *pmu,
			    bool no_extended)
{
	size_t nf, k = 0;
	const struct fact *f = source_live_facts(s, &nf);

	for (size_t i = 0; i < nf; i++)
		k += f[i].what == FACT_ONE_PMU && !strcmp(f[i].name, event) &&
		     !strcmp(f[i].one_pmu.pmu, pmu) && f[i].one_pmu.no_extended == no_extended;
	return k;
}

START_TEST(test_an_event_of_one_core_pmu_counts_there_only_and_is_said)
{
	struct fake_kernel *k;
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	char err[512], sys[512], text[512];
	size_t nf;
	const struct fact *f;

	k = proc_tree_init();
	hw_alderlake(k);
	k->type[1] = 8; /* the adl fixture's cpu_atom */
	snprintf(sys, sizeof(sys), "%s/data/sysfs/adl", TEST_SRCDIR);
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "instructions", 1, true, false);
	evlist_add(&ev, "cpu_atom/event=0xc0,umask=0x0/", 2, true, true);
	memset(&o, 0, sizeof(o));
	o.proc_root = k->proc;
	o.sysfs_root = sys;
	o.ops = &k->ops;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	ck_assert(s->ev.ev[3].hw);
	/* the generic pair goes to both PMUs; the atom's own event to the atom only */
	ck_assert_uint_eq(one_pmu_facts(s, "cycles", "cpu_core", true), 0);
	ck_assert_uint_eq(one_pmu_facts(s, "cpu_atom/event=0xc0,umask=0x0/", "cpu_atom", false), 1);
	f = source_live_facts(s, &nf);
	for (size_t i = 0; i < nf; i++)
		if (f[i].what == FACT_ONE_PMU)
			fact_text(text, sizeof(text), &f[i]);
	ck_assert_msg(strstr(text, "counted on cpu_atom only") && strstr(text, "marked *"), "%s",
		      text);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(source_read(s, &snap), 0);
	task = task_of(&snap, 100);
	ck_assert_ptr_nonnull(task);
	ck_assert_int_eq(task->c[3].err, 0);
	/* it ran half the time, the time on the atom: short of enabled, so an estimate */
	ck_assert_uint_lt(task->c[3].running, task->c[3].enabled);
	ck_assert_uint_eq(task->c[1].running, task->c[1].enabled);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_without_the_extended_type_legacy_events_are_kept)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;

	k = proc_tree_init();
	hw_alderlake(k);
	k->no_ext = true;
	s = hw_live(k, "alderlake", false);
	ck_assert_int_eq(s->ev.ev[1].err, 0);
	/* counted on cpu_core only, and said for each event, with why */
	ck_assert_uint_eq(one_pmu_facts(s, "cycles", "cpu_core", true), 1);
	ck_assert_uint_eq(one_pmu_facts(s, "instructions", "cpu_core", true), 1);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	task = task_of(&snap, 100);
	ck_assert_ptr_nonnull(task);
	ck_assert_int_eq(task->c[1].err, 0);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/* The QEMU bed's PMU: armv8_pmuv3, 7 counters, on CPU 0. */
static void hw_qemu(struct fake_kernel *k)
{
	hw_alderlake(k);
	k->npmu = 1;
	k->type[0] = 8;
	k->last[0] = 0;
	k->counters[0] = 7;
}

/* live_opts.pace_few_from of the sources hw_live_many makes (0: the default) */
static unsigned hw_pace_from;

/* task-clock; {cycles, instructions}; six generic events asked for as one group. */
static struct source *hw_live_many(struct fake_kernel *k, bool per_cpu)
{
	static const char *const MORE[] = { "cache-references", "cache-misses", "branches",
					    "branch-misses",	"bus-cycles",	"ref-cycles" };
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512], sys[512];

	snprintf(sys, sizeof(sys), "%s/data/sysfs/qemu-virt", TEST_SRCDIR);
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "instructions", 1, true, false);
	for (size_t i = 0; i < 6; i++)
		evlist_add(&ev, MORE[i], 2, true, true);
	memset(&o, 0, sizeof(o));
	o.proc_root = k->proc;
	o.sysfs_root = sys;
	o.ops = &k->ops;
	o.per_cpu = per_cpu;
	o.pace_few_from = hw_pace_from;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

/* The most hardware events in one open group of pid (-1: per CPU). */
static int hw_largest_group(const struct fake_kernel *k, int pid)
{
	int most = 0;

	for (int i = 0; i < k->nev; i++) {
		int n = 0;

		if (!k->ev[i].open || k->ev[i].leader != k->ev[i].fd || k->ev[i].pid != pid)
			continue;
		for (int j = 0; j < k->nev; j++)
			n += k->ev[j].open && k->ev[j].leader == k->ev[i].fd && k->ev[j].pmu >= 0;
		if (n > most)
			most = n;
	}
	return most;
}

static int hw_open_on_cpu(const struct fake_kernel *k, int cpu)
{
	int n = 0;

	for (int i = 0; i < k->nev; i++)
		n += k->ev[i].open && k->ev[i].pid == -1 && k->ev[i].cpu == cpu &&
		     k->ev[i].pmu >= 0;
	return n;
}

START_TEST(test_per_cpu_sets_keep_only_what_fits_beside_the_task_groups)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;

	k = proc_tree_init();
	hw_qemu(k);
	s = hw_live_many(k, true);
	/* the per-CPU set keeps cycles and instructions; the processes get the other 5 */
	ck_assert_int_eq(hw_open_on_cpu(k, 0), 2);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_le(hw_largest_group(k, 100), 5);
	ck_assert_int_gt(hw_largest_group(k, 100), 0);
	ck_assert_int_eq(snap.cpus[0].cpu, 0);
	ck_assert_int_eq(snap.cpus[0].c[1].err, 0);
	ck_assert_int_eq(snap.cpus[0].c[5].err, -EBUSY);
	ck_assert_msg(strstr(s->mode, "armv8_pmuv3; 7 counters: 2 per core, 5 for processes; "
				      "8 events time-share them: * marks estimates") != NULL,
		      "%s", s->mode);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_without_per_cpu_sets_task_groups_fit_all_counters)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;

	k = proc_tree_init();
	hw_qemu(k);
	s = hw_live_many(k, false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_le(hw_largest_group(k, 100), 7);
	ck_assert_msg(strstr(s->mode, "7 counters: 7 for processes; 8 events time-share") != NULL,
		      "%s", s->mode);
	snapshot_release(&snap);
	source_free(s);
	fake_kernel_free(k);
}
END_TEST

/* task-clock; {cycles, instructions}; branches: three hardware events, threads as rows or not. */
static struct source *hw_live_three(struct fake_kernel *k, bool threads)
{
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512], sys[512];

	snprintf(sys, sizeof(sys), "%s/data/sysfs/qemu-virt", TEST_SRCDIR);
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "instructions", 1, true, false);
	evlist_add(&ev, "branches", 2, true, true);
	memset(&o, 0, sizeof(o));
	o.proc_root = k->proc;
	o.sysfs_root = sys;
	o.ops = &k->ops;
	o.per_cpu = true;
	o.threads = threads;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

START_TEST(test_with_thread_rows_the_per_cpu_set_gives_way_to_a_threads_and_its_processs_sets)
{
	struct fake_kernel *k;
	struct source *s;

	k = proc_tree_init();
	/* without thread rows 3 task events fit beside the per-CPU pair: 2 + 3 of 7 */
	hw_qemu(k);
	s = hw_live_three(k, false);
	ck_assert_int_eq(hw_open_on_cpu(k, 0), 2);
	ck_assert_msg(strstr(s->mode, "7 counters: 2 per core, 5 for processes)") != NULL, "%s",
		      s->mode);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	/*
	 * with them a running thread carries 3 of its own and 3 of its process's: 2 + 6 would
	 * time-share 7 counters, 6 alone fit, so the per-core set is not opened for hardware
	 */
	hw_qemu(k);
	s = hw_live_three(k, true);
	ck_assert_int_eq(hw_open_on_cpu(k, 0), 0);
	ck_assert_int_eq(source_live_mode(s)->cpu_hw, 0);
	ck_assert_msg(strstr(s->mode, "7 counters: 7 for processes, a thread's 3 beside its "
				      "process's 3)") != NULL,
		      "%s", s->mode);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_with_thread_rows_what_time_shares_counts_both_sets)
{
	struct fake_kernel *k;
	struct source *s;

	k = proc_tree_init();
	hw_qemu(k);
	{
		struct evlist ev;
		struct live_opts o;
		char err[512], sys[512];

		snprintf(sys, sizeof(sys), "%s/data/sysfs/qemu-virt", TEST_SRCDIR);
		evlist_init(&ev);
		evlist_add(&ev, "task-clock", 0, false, false);
		evlist_add(&ev, "cycles", 1, true, false);
		evlist_add(&ev, "instructions", 1, true, false);
		evlist_add(&ev, "branches", 2, true, true);
		evlist_add(&ev, "branch-misses", 2, true, true);
		memset(&o, 0, sizeof(o));
		o.proc_root = k->proc;
		o.sysfs_root = sys;
		o.ops = &k->ops;
		o.per_cpu = true;
		o.threads = true;
		s = source_live_new(&ev, &o, err, sizeof(err));
		ck_assert_msg(s != NULL, "%s", err);
		evlist_release(&ev);
	}
	/* 2 x 4 events do not fit 7 counters even alone: the per-core pair stays, and is said */
	ck_assert_int_eq(hw_open_on_cpu(k, 0), 2);
	ck_assert_msg(strstr(s->mode, "2 per core, 5 for processes; 8 events (a thread's and its "
				      "process's) time-share them") != NULL,
		      "%s", s->mode);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_a_counter_held_by_the_nmi_watchdog_is_named_and_left_out)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;

	k = proc_tree_init();
	put(k, "sys/kernel/nmi_watchdog", "1\n");
	hw_qemu(k);
	k->free_counters = 6;
	s = hw_live_many(k, true);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_msg(hw_largest_group(k, 100) <= 4, "%d: %s", hw_largest_group(k, 100), s->mode);
	/* 6 run beside the watchdog: the budget is what runs, the watchdog only a hint */
	ck_assert_msg(
		strstr(s->mode,
		       "6 counters (the NMI watchdog is on and may hold one: "
		       "'sysctl kernel.nmi_watchdog=0' frees it): 2 per core, 4 for processes") !=
			NULL,
		"%s", s->mode);
	snapshot_release(&snap);
	source_free(s);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_a_group_validated_larger_than_what_runs_counts_what_runs)
{
	struct fake_kernel *k;
	struct source *s;

	/* arm_pmu on 6.1 validates 8 cycles events on 7 counters; no watchdog */
	k = proc_tree_init();
	put(k, "sys/kernel/nmi_watchdog", "0\n");
	hw_qemu(k);
	k->counters[0] = 8;
	k->free_counters = 7;
	s = hw_live_many(k, true);
	ck_assert_msg(strstr(s->mode, "armv8_pmuv3; 7 counters: 2 per core, 5 for processes;") !=
			      NULL,
		      "%s", s->mode);
	source_free(s);
	fake_kernel_free(k);
}
END_TEST

START_TEST(test_a_group_that_never_runs_is_split_and_said)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	size_t n;
	const struct fact *f;
	bool told = false;

	k = proc_tree_init();
	hw_qemu(k);
	k->counters[0] = 4;
	k->starve_over = 2; /* the 4-event group validates and never gets its counters */
	s = hw_live_many(k, false);
	snapshot_init(&snap, s->ev.n);
	/* packed groups of 4 starve: unpacked; the 4 asked for as one group starve: split */
	for (int i = 0; i < 12; i++)
		ck_assert_int_eq(source_read(s, &snap), 0);
	task = task_of(&snap, 100);
	ck_assert_ptr_nonnull(task);
	/* every group of the six events was cut down until it runs */
	for (int e = 3; e <= 8; e++)
		ck_assert_msg(task->c[e].err == 0 && task->c[e].running > 0, "event %d: err %d", e,
			      task->c[e].err);
	f = source_live_facts(s, &n);
	for (size_t i = 0; i < n; i++)
		told |= f[i].what == FACT_STARVED;
	ck_assert(told);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/* The process read at the pace: a pid the fake kernel keeps clocks and reads of. */
#define HW_PACED 50

/* Its thread's schedstat: run ns of run time. */
static void hw_put_run(struct fake_kernel *k, uint64_t run)
{
	char rel[64], text[64];

	snprintf(rel, sizeof(rel), "%d/task/%d/schedstat", HW_PACED, HW_PACED);
	snprintf(text, sizeof(text), "%llu 1000 7\n", (unsigned long long)run);
	put(k, rel, text);
}

/*
 * One epoch of process HW_PACED on a timed fake kernel: it runs 1 ms, as
 * its CPU clock and its thread's schedstat say (*run: that so far); then a
 * tick. Whether its groups were read.
 */
static bool hw_epoch(struct fake_kernel *k, struct source *s, struct snapshot *snap, uint64_t *run)
{
	int before = k->reads_of[HW_PACED];

	k->epoch++;
	k->clock_ns[HW_PACED] += 1000000;
	*run += 1000000;
	hw_put_run(k, *run);
	ck_assert_int_eq(source_read(s, snap), 0);
	return k->reads_of[HW_PACED] > before;
}

/*
 * The same for a process read at the pace (live_opts.pace_few_from 1: its
 * groups one tick in four once it keeps to its rates), whose group of six
 * starts to starve only then. A tick on which it rested reads no group and
 * says nothing of the starving: the count holds (set back to 0 there, it
 * would never reach its ticks), so the group is still split, within the
 * reads of a few paces, and said.
 */
START_TEST(test_a_group_that_starves_while_read_at_the_pace_is_split)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	const struct fact *f;
	struct snap_count was[16];
	uint64_t run = 0;
	int rests = 0, split = -1;
	size_t n;

	k = proc_tree_of(HW_PACED);
	hw_qemu(k);
	k->timed = true;
	k->clock = true;
	k->epoch_ns = 1000000;
	fake_kernel_set_rate(k, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1000000);
	/* the kernel has schedstats: the thread's run time, in the clock's units */
	put(k, "self/schedstat", "123456 1000 7\n");
	hw_put_run(k, 0);
	hw_pace_from = 1;
	s = hw_live_many(k, false);
	hw_pace_from = 0;
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 40 && rests < 3; i++)
		rests += !hw_epoch(k, s, &snap, &run);
	ck_assert_int_eq(rests, 3);
	/* its group of six gets no counters from here on */
	k->starve_over = 2;
	rests = 0;
	for (int i = 0; i < 60 && split < 0; i++) {
		bool told = false;

		rests += !hw_epoch(k, s, &snap, &run);
		f = source_live_facts(s, &n);
		for (size_t j = 0; j < n; j++)
			told |= f[j].what == FACT_STARVED;
		if (told)
			split = i;
	}
	/* split after three reads that found it starved, with rests between */
	ck_assert_int_ge(split, 0);
	ck_assert_int_ge(rests, 2);
	/* split again until its groups run: then every event's running time grows */
	for (int i = 0; i < 40; i++)
		hw_epoch(k, s, &snap, &run);
	ck_assert_int_le(hw_largest_group(k, HW_PACED), 2);
	task = task_of(&snap, HW_PACED);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_le(s->ev.n, 16);
	memcpy(was, task->c, s->ev.n * sizeof(*was));
	for (int i = 0; i < 8; i++)
		hw_epoch(k, s, &snap, &run);
	task = task_of(&snap, HW_PACED);
	ck_assert_ptr_nonnull(task);
	for (int e = 3; e <= 8; e++)
		ck_assert_msg(task->c[e].err == 0 && task->c[e].running > was[e].running,
			      "event %d: err %d", e, task->c[e].err);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/* task-clock, page-faults; {cycles, instructions}; {cache-references, cache-misses}; branches. */
static struct source *hw_live_pairs(struct fake_kernel *k, bool per_cpu)
{
	static const char *const HW[] = { "cycles",	  "instructions", "cache-references",
					  "cache-misses", "branches",	  "branch-misses" };
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512], sys[512];

	snprintf(sys, sizeof(sys), "%s/data/sysfs/qemu-virt", TEST_SRCDIR);
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	for (int i = 0; i < 6; i++)
		evlist_add(&ev, HW[i], 1 + i / 2, true, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = k->proc;
	o.sysfs_root = sys;
	o.ops = &k->ops;
	o.per_cpu = per_cpu;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

/* Groups open on pid, the descriptors they hold, and how many of their leaders are software. */
static int hw_groups_of(const struct fake_kernel *k, int pid, int *fds, int *sw_leaders)
{
	int n = 0;

	*fds = *sw_leaders = 0;
	for (int i = 0; i < k->nev; i++) {
		if (!k->ev[i].open || k->ev[i].pid != pid)
			continue;
		(*fds)++;
		if (k->ev[i].leader == k->ev[i].fd) {
			n++;
			*sw_leaders += k->ev[i].pmu < 0;
		}
	}
	return n;
}

START_TEST(test_hardware_pairs_are_packed_and_software_rides_when_all_fit_one_group)
{
	struct fake_kernel *k;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	int fds, sw, reads;

	k = proc_tree_init();
	/* 7 counters for processes: the three pairs fit one group, and software rides in it */
	hw_qemu(k);
	s = hw_live_pairs(k, false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(hw_groups_of(k, 100, &fds, &sw), 1);
	ck_assert_int_eq(fds, 8);
	ck_assert_int_eq(sw, 0);
	reads = 0;
	for (int i = 0; i < k->nev; i++)
		reads -= k->ev[i].pid == 100 ? (int)k->ev[i].reads : 0;
	ck_assert_int_eq(source_read(s, &snap), 0);
	for (int i = 0; i < k->nev; i++)
		reads += k->ev[i].pid == 100 ? (int)k->ev[i].reads : 0;
	ck_assert_int_eq(reads, 1);
	task = task_of(&snap, 100);
	ck_assert_ptr_nonnull(task);
	for (size_t e = 0; e < s->ev.n; e++) {
		ck_assert_int_eq(task->c[e].err, 0);
		ck_assert_uint_gt(task->c[e].value, 0);
	}
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	/*
	 * 4 counters: the pairs pack into 4 + 2 and time-share, so the software group stays
	 * apart (its counts exact): 3 groups, not 4
	 */
	hw_qemu(k);
	k->counters[0] = 4;
	s = hw_live_pairs(k, false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(hw_groups_of(k, 100, &fds, &sw), 3);
	ck_assert_int_eq(fds, 8);
	ck_assert_int_eq(sw, 1);
	ck_assert_int_eq(hw_largest_group(k, 100), 4);
	ck_assert_int_eq(source_read(s, &snap), 0);
	task = task_of(&snap, 100);
	ck_assert_uint_eq(task->c[0].running, task->c[0].enabled);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/* Process pid in the tree, one thread, with ticks of CPU time used. */
static void proc_tree_add(struct fake_kernel *k, int pid, unsigned long long ticks)
{
	char rel[64], text[256], path[512];

	snprintf(path, sizeof(path), "%s/%d", k->proc, pid);
	if (access(path, F_OK) != 0)
		fake_kernel_add_task(k->proc, pid, &pid, 1, 100, ticks);
	snprintf(text, sizeof(text),
		 "%d (work) S 1 %d %d 0 -1 4194304 5 0 0 0 %llu 0 0 0 20 0 1 0 100 1000 100 0\n",
		 pid, pid, pid, ticks);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	put(k, rel, text);
}

/* Which of pids 100 to 104 have hardware groups open, as a bit per pid - 100. */
static unsigned hw_holders(const struct fake_kernel *k)
{
	unsigned m = 0;

	for (int pid = 100; pid <= 104; pid++)
		if (hw_largest_group(k, pid) > 0)
			m |= 1u << (pid - 100);
	return m;
}

/*
 * The hardware top's fixture: processes pid to pid + 4, busiest first, on
 * the faked QEMU PMU, and the options that count them (sys holds the sysfs
 * root).
 */
static struct fake_kernel *top_fixture_at(int pid, struct live_opts *o, char *sys, size_t size)
{
	struct fake_kernel *k = proc_tree_of(pid);
	static const unsigned long long ticks[] = { 900, 800, 300, 200, 100 };

	for (int i = 0; i < 5; i++)
		proc_tree_add(k, pid + i, ticks[i]);
	hw_qemu(k);
	snprintf(sys, size, "%s/data/sysfs/qemu-virt", TEST_SRCDIR);
	memset(o, 0, sizeof(*o));
	o->proc_root = k->proc;
	o->sysfs_root = sys;
	o->ops = &k->ops;
	return k;
}

/* The same, processes 100 to 104. */
static struct fake_kernel *top_fixture(struct live_opts *o, char *sys, size_t size)
{
	return top_fixture_at(100, o, sys, size);
}

/*
 * The end of a test of the hardware top under a descriptor limit: the
 * limit back (should the tests share a process, CK_FORK=no), every
 * counter closed.
 */
static void top_end(struct source *s, struct snapshot *snap, struct fake_kernel *k,
		    const struct rlimit *rl0)
{
	snapshot_release(snap);
	source_free(s);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, rl0), 0);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}

/* A source counting task-clock and the {cycles, instructions} pair with o. */
static struct source *top_source(const struct live_opts *o)
{
	struct evlist ev;
	struct source *s;
	char err[512];

	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "instructions", 1, true, false);
	s = source_live_new(&ev, o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

START_TEST(test_hw_top_counts_hardware_for_the_busiest_and_follows_them_with_hysteresis)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	const struct fact *f;
	char sys[512];
	size_t nf, told = 0;

	k = top_fixture(&o, sys, sizeof(sys));
	o.hw_top = 2;
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	/* the two busiest get hardware; the others software alone, hardware not counted */
	ck_assert_uint_eq(hw_holders(k), 0x3);
	for (int pid = 100; pid <= 104; pid++) {
		const struct snap_task *task = task_of(&snap, pid);

		ck_assert_ptr_nonnull(task);
		ck_assert_int_eq(task->err, 0);
		ck_assert_int_eq(task->c[0].err, 0);
		ck_assert_int_eq(task->c[1].err, pid <= 101 ? 0 : -EDQUOT);
		ck_assert_int_eq(task->c[2].err, pid <= 101 ? 0 : -EDQUOT);
	}
	f = source_live_facts(s, &nf);
	for (size_t i = 0; i < nf; i++)
		if (f[i].what == FACT_HW_TOP) {
			told++;
			ck_assert_int_eq(f[i].hw_top.busiest, 2);
		}
	ck_assert_uint_eq(told, 1);
	/* from now on 104 and 102 run, 100 and 101 do not: 103 ran a little */
	proc_tree_add(k, 104, 500);
	proc_tree_add(k, 102, 600);
	proc_tree_add(k, 103, 210);
	for (int i = 2; i <= 5; i++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		/* chosen again every 5 ticks only */
		ck_assert_uint_eq(hw_holders(k), i < 5 ? 0x3 : 0x0);
	}
	/* the tick after the choice attaches them again: 104 and 102 in, 100 and 101 out */
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 1u << 4 | 1u << 2);
	ck_assert_int_eq(task_of(&snap, 104)->c[1].err, 0);
	ck_assert_int_eq(task_of(&snap, 100)->c[1].err, -EDQUOT);
	ck_assert_int_eq(task_of(&snap, 100)->c[0].err, 0);
	/* 103 edges past 102 next time, not by a quarter of the top: 102 stays (hysteresis) */
	proc_tree_add(k, 103, 700);
	proc_tree_add(k, 102, 790);
	proc_tree_add(k, 104, 900);
	for (int i = 7; i <= 11; i++)
		ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 1u << 4 | 1u << 2);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/*
 * Processes about as busy keep their places: two in the top that run 85 %
 * as much as the three outside (their ranks the last) stay, where ranks
 * alone would trade them at every choice and attach them all again.
 */
START_TEST(test_hw_top_keeps_processes_about_as_busy_in_place)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	char sys[512];
	unsigned long long cpu[5] = { 900, 800, 300, 200, 100 };
	int opens;

	k = top_fixture(&o, sys, sizeof(sys));
	o.hw_top = 2;
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 0x3);
	opens = k->opens;
	for (int i = 0; i < 30; i++) {
		for (int pid = 100; pid <= 104; pid++) {
			cpu[pid - 100] += pid <= 101 ? 17 : 20;
			proc_tree_add(k, pid, cpu[pid - 100]);
		}
		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_uint_eq(hw_holders(k), 0x3);
	}
	ck_assert_int_eq(k->opens, opens);
	/* at half as busy, they go */
	for (int i = 0; i < 15; i++) {
		for (int pid = 100; pid <= 104; pid++) {
			cpu[pid - 100] += pid <= 101 ? 5 : 20;
			proc_tree_add(k, pid, cpu[pid - 100]);
		}
		ck_assert_int_eq(source_read(s, &snap), 0);
	}
	ck_assert_uint_eq(hw_holders(k) & 0x3, 0);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}
END_TEST

/*
 * A process let into the hardware top between two choices (a place left by
 * one that exited after tick `after`) is ranked at the next choice by its
 * CPU clock from its first read: one that ran keeps its place, though its
 * stat's clock ticks have not moved (a server's thread runs less than one
 * in 5 ticks), also where that first read is the choice's own tick; one
 * that does not run (its groups and clock still) leaves at the choice
 * after.
 */
static void new_to_the_top(int after, bool runs)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	char sys[512], cmd[400];
	int opens = 0;

	/* pids the fake kernel keeps CPU clocks of */
	k = top_fixture_at(40, &o, sys, sizeof(sys));
	k->clock = true;
	o.hw_top = 2;
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	for (int tick = 1; tick <= 12; tick++) {
		/* 40 runs, 1 ms a tick and less than a clock tick in all; 42 to 44 do not */
		k->clock_ns[40] += 1000000;
		if (runs)
			k->clock_ns[45] += 1000000;
		fake_kernel_advance(k, 100000000);
		ck_assert_int_eq(source_read(s, &snap), 0);
		if (tick == 1) {
			ck_assert_int_gt(hw_largest_group(k, 40), 0);
			ck_assert_int_gt(hw_largest_group(k, 41), 0);
		}
		if (tick == after) {
			/* 41 exits; 45, new, takes its place in the top at the next tick */
			snprintf(cmd, sizeof(cmd), "rm -rf '%s/41'", k->proc);
			ck_assert_int_eq(system(cmd), 0);
			proc_tree_add(k, 45, 50);
		}
		if (tick == after + 1) {
			ck_assert_int_gt(hw_largest_group(k, 45), 0);
			opens = k->opens_of[45];
			if (!runs)
				k->frozen |= 1ull << 45;
		}
	}
	if (runs) {
		/* the choices at ticks 5 and 10 kept it: never closed and opened again */
		ck_assert_int_gt(hw_largest_group(k, 45), 0);
		ck_assert_int_eq(k->opens_of[45], opens);
		for (int pid = 42; pid <= 44; pid++)
			ck_assert_int_eq(hw_largest_group(k, pid), 0);
		ck_assert_int_eq(task_of(&snap, 45)->c[1].err, 0);
		ck_assert_int_eq(task_of(&snap, 42)->c[1].err, -EDQUOT);
	} else {
		/* not known at the choice at tick 5, idle at tick 10: out */
		ck_assert_int_eq(hw_largest_group(k, 45), 0);
		ck_assert_int_eq(task_of(&snap, 45)->c[1].err, -EDQUOT);
	}
	ck_assert_int_gt(hw_largest_group(k, 40), 0);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	fake_kernel_free(k);
}

START_TEST(test_a_process_new_to_the_hardware_top_is_ranked_by_its_clock)
{
	/* attached at tick 2, first read with its clock at 3 */
	new_to_the_top(1, true);
	/* attached at tick 4, first read with its clock at 5, the choice's tick */
	new_to_the_top(3, true);
	/* attached at tick 2, then its groups and clock still */
	new_to_the_top(1, false);
}
END_TEST

/*
 * --hw-top 2 where two processes started later leave the descriptors short
 * of a stat file: the top gives a hardware set back for it at a choice
 * (stat files come before hardware sets), and the choices after leave it
 * so: its counters are not closed and opened again at each.
 */
START_TEST(test_the_top_gives_sets_back_for_stat_files_once)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl0;
	char sys[512];
	int opens = 0;

	/* pids the fake kernel counts the opens of */
	k = top_fixture_at(40, &o, sys, sizeof(sys));
	o.hw_top = 2;
	/* two sets of 3, three of task-clock alone and five stat files: 14, and 2 more */
	testutil_fd_limit(24 + 16, &rl0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	for (int tick = 1; tick <= 17; tick++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		if (tick == 1) {
			ck_assert_int_gt(hw_largest_group(k, 40), 0);
			ck_assert_int_gt(hw_largest_group(k, 41), 0);
			/* two more: their task-clock sets take the 2, one stat file is short */
			proc_tree_add(k, 45, 10);
			proc_tree_add(k, 46, 10);
		}
		/* the choice at tick 5 gave 41's set back; it is attached again at 6 */
		if (tick == 6) {
			ck_assert_int_gt(hw_largest_group(k, 40), 0);
			ck_assert_int_eq(hw_largest_group(k, 41), 0);
			opens = k->opens_of[40] + k->opens_of[41];
		}
		if (tick > 1)
			for (int pid = 40; pid <= 46; pid++)
				ck_assert_int_eq(task_of(&snap, pid)->c[0].err, 0);
	}
	/* the choices at ticks 10 and 15 left them so */
	ck_assert_int_gt(hw_largest_group(k, 40), 0);
	ck_assert_int_eq(hw_largest_group(k, 41), 0);
	ck_assert_int_eq(k->opens_of[40] + k->opens_of[41], opens);
	top_end(s, &snap, k, &rl0);
}
END_TEST

START_TEST(test_without_descriptors_for_every_hardware_set_the_rest_count_software_alone)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl, rl0;
	const struct fact *f;
	char sys[512];
	size_t nf, told = 0;

	k = top_fixture(&o, sys, sizeof(sys));
	/*
	 * 16 descriptors: the five processes' stat files (kept before any
	 * hardware set), three sets of 3, then two of task-clock alone
	 */
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl0 = rl;
	rl.rlim_cur = 24 + 5 + 11;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 6; i++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_uint_eq(hw_holders(k), 0x7);
		for (int pid = 100; pid <= 104; pid++) {
			const struct snap_task *task = task_of(&snap, pid);

			ck_assert_int_eq(task->err, 0);
			ck_assert_int_eq(task->c[0].err, 0);
			ck_assert_int_eq(task->c[1].err, pid <= 102 ? 0 : -EDQUOT);
		}
	}
	f = source_live_facts(s, &nf);
	for (size_t i = 0; i < nf; i++)
		if (f[i].what == FACT_HW_TOP) {
			told++;
			ck_assert_int_eq(f[i].hw_top.busiest, 0);
			ck_assert_int_eq(f[i].err, -EMFILE);
		}
	ck_assert_uint_eq(told, 1);
	top_end(s, &snap, k, &rl0);
}
END_TEST

/*
 * A process found when the descriptors are all taken does not wait for good:
 * at the end of that tick, the least busy with hardware sets (ranked as
 * the hardware top's choice ranks them) move to the software set alone
 * until what they give back covers it.
 */
START_TEST(test_a_process_waiting_for_descriptors_takes_them_from_the_hardware_top)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl, rl0;
	char sys[512];
	int waited = 0;

	k = top_fixture(&o, sys, sizeof(sys));
	/* as above: five stat files, three sets of 3 and two of task-clock alone fill the 16 */
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl0 = rl;
	rl.rlim_cur = 24 + 5 + 11;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 0x7);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);

	/*
	 * 9 descriptors for five processes' counters, 5 for their stat files:
	 * taken in order, three hardware sets would leave two uncounted; the
	 * first attach leaves the processes still to attach their software
	 * sets and stat files, so all five count from the first tick
	 */
	rl.rlim_cur = 24 + 5 + 9;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	for (int pid = 100; pid <= 104; pid++)
		ck_assert_int_eq(task_of(&snap, pid)->err, 0);
	ck_assert_uint_eq(hw_holders(k), 0x3);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(k->nopen, 0);
	rl.rlim_cur = 24 + 5 + 11;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 0x7);
	/* a new process, less busy than all: nothing left for it */
	proc_tree_add(k, 105, 50);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(task_of(&snap, 105)->err, -EMFILE);
	for (int i = 0; i < 12 && task_of(&snap, 105)->err; i++, waited++)
		ck_assert_int_eq(source_read(s, &snap), 0);
	/*
	 * the tick that found too few gives it room at its end, and it is
	 * attached at the next: not at the next choice (up to 5 ticks), nor at
	 * the 16-tick retry
	 */
	ck_assert_int_le(waited, 1);
	ck_assert_int_eq(task_of(&snap, 105)->err, 0);
	ck_assert_int_eq(task_of(&snap, 105)->c[0].err, 0);
	ck_assert_int_eq(task_of(&snap, 105)->c[1].err, -EDQUOT);
	/* the least busy of the top gave its hardware set; the busiest keep theirs */
	ck_assert_uint_eq(hw_holders(k) & 0x3, 0x3);
	ck_assert_uint_eq(hw_holders(k) & 1u << 2, 0);
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		for (int pid = 100; pid <= 105; pid++)
			ck_assert_int_eq(task_of(&snap, pid)->err, 0);
	}
	top_end(s, &snap, k, &rl0);
}
END_TEST

/*
 * Two processes busier than all appear when the descriptors are all taken:
 * they wait, the hardware top gives back sets for them, and over 40 ticks
 * of processes attached again every row is counted or says it waits, its
 * counters' state the row's (tests/test_live has the retry that finds no
 * room).
 */
START_TEST(test_a_process_attached_again_without_room_waits_and_tries_again)
{
	struct fake_kernel *k;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl0;
	char sys[512];
	int waited = 0;

	k = top_fixture(&o, sys, sizeof(sys));
	testutil_fd_limit(24 + 5 + 11, &rl0);
	s = top_source(&o);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(hw_holders(k), 0x7);
	/* two new processes, the busiest of all: no descriptor left for them */
	proc_tree_add(k, 105, 5000);
	proc_tree_add(k, 106, 5000);
	for (int i = 0; i < 40; i++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		for (int pid = 100; pid <= 106; pid++)
			waited += task_of(&snap, pid)->err == -EMFILE;
	}
	ck_assert_int_gt(waited, 0);
	/* whoever waited is counted in the end, some with software events alone */
	for (int pid = 100; pid <= 106; pid++)
		ck_assert_int_eq(task_of(&snap, pid)->c[0].err, task_of(&snap, pid)->err);
	top_end(s, &snap, k, &rl0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("live_pmu");
	TCase *tc = tcase_create("live_pmu");

	if (events_init())
		return 99;
	tcase_add_test(tc, test_hybrid_task_counts_are_summed_over_the_core_pmus_and_not_estimates);
	tcase_add_test(tc, test_hybrid_per_cpu_groups_open_only_on_their_pmus_cpus);
	tcase_add_test(tc, test_the_header_names_the_core_pmus_as_the_kernel_does);
	tcase_add_test(tc, test_without_the_extended_type_legacy_events_are_kept);
	tcase_add_test(tc, test_an_event_of_one_core_pmu_counts_there_only_and_is_said);
	tcase_add_test(
		tc,
		test_with_thread_rows_the_per_cpu_set_gives_way_to_a_threads_and_its_processs_sets);
	tcase_add_test(tc, test_with_thread_rows_what_time_shares_counts_both_sets);
	tcase_add_test(tc, test_per_cpu_sets_keep_only_what_fits_beside_the_task_groups);
	tcase_add_test(tc, test_without_per_cpu_sets_task_groups_fit_all_counters);
	tcase_add_test(tc, test_a_counter_held_by_the_nmi_watchdog_is_named_and_left_out);
	tcase_add_test(tc, test_a_group_validated_larger_than_what_runs_counts_what_runs);
	tcase_add_test(tc, test_a_group_that_never_runs_is_split_and_said);
	tcase_add_test(tc, test_a_group_that_starves_while_read_at_the_pace_is_split);
	tcase_add_test(tc,
		       test_hardware_pairs_are_packed_and_software_rides_when_all_fit_one_group);
	tcase_add_test(
		tc, test_hw_top_counts_hardware_for_the_busiest_and_follows_them_with_hysteresis);
	tcase_add_test(tc, test_hw_top_keeps_processes_about_as_busy_in_place);
	tcase_add_test(tc, test_a_process_new_to_the_hardware_top_is_ranked_by_its_clock);
	tcase_add_test(tc, test_the_top_gives_sets_back_for_stat_files_once);
	tcase_add_test(tc, test_a_process_attached_again_without_room_waits_and_tries_again);
	tcase_add_test(
		tc, test_without_descriptors_for_every_hardware_set_the_rest_count_software_alone);
	tcase_add_test(tc, test_a_process_waiting_for_descriptors_takes_them_from_the_hardware_top);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
