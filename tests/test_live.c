/* Tests of the live source on fixture /proc and sysfs trees, with the system calls faked. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
#include "fake_kernel.h"
#include "stream/snapshot.h"
#include "testutil.h"
#include "collect/fact.h"
#include "collect/live_tasks.h"

/* The fake kernel of these tests: software events only, and no rings. */
static struct fake_kernel *fake_new(void)
{
	struct fake_kernel *f = fake_kernel_new();

	f->mmap_err = -ENODEV;
	return f;
}

/* The fixture: a /proc tree and a sysfs tree in a temporary directory. */
struct tree {
	char dir[256], proc[300], sys[300];
};

static void put(const char *path, const char *text)
{
	fake_kernel_write(path, text);
}

static void tree_mkdir(const char *base, const char *sub, int pid, int tid)
{
	char path[512];

	if (pid && tid)
		snprintf(path, sizeof(path), "%s/%d/%s/%d", base, pid, sub, tid);
	else if (pid)
		snprintf(path, sizeof(path), "%s/%d%s", base, pid, sub);
	else
		snprintf(path, sizeof(path), "%s%s", base, sub);
	ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/* A process pid with threads tids (the first is pid), start time and CPU ticks used. */
static void tree_proc(struct tree *t, int pid, const int *tids, int ntids, unsigned long long start,
		      unsigned long long ticks)
{
	fake_kernel_add_task(t->proc, pid, tids, ntids, start, ticks);
}

static void tree_online(struct tree *t, const char *list)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", t->sys);
	put(path, list);
}

static void tree_init(struct tree *t)
{
	char path[512];

	snprintf(t->dir, sizeof(t->dir), "/tmp/pmctop-live-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->dir);
	snprintf(t->sys, sizeof(t->sys), "%s/sys", t->dir);
	tree_mkdir(t->dir, "/proc", 0, 0);
	tree_mkdir(t->dir, "/proc/sys", 0, 0);
	tree_mkdir(t->dir, "/proc/sys/kernel", 0, 0);
	tree_mkdir(t->dir, "/sys", 0, 0);
	tree_mkdir(t->dir, "/sys/devices", 0, 0);
	tree_mkdir(t->dir, "/sys/devices/system", 0, 0);
	tree_mkdir(t->dir, "/sys/devices/system/cpu", 0, 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", t->proc);
	put(path, "2\n");
	snprintf(path, sizeof(path), "%s/stat", t->proc);
	put(path, "cpu  300 0 100 1000 50 0 0 0 0 0\ncpu0 100 0 50 500 20 0 0 0 0 0\n"
		  "cpu1 200 0 50 500 30 0 0 5 7 0\nctxt 999\n");
	snprintf(path, sizeof(path), "%s/loadavg", t->proc);
	put(path, "0.50 0.25 0.10 1/100 42\n");
	snprintf(path, sizeof(path), "%s/uptime", t->proc);
	put(path, "1000.00 1500.00\n");
	tree_online(t, "0-1\n");
}

static void tree_free(struct tree *t)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * A test's end: its snapshot and source go, every descriptor opened through
 * the fake kernel is closed by then, and the fixture goes.
 */
static void live_test_end(struct source *s, struct snapshot *snap, struct fake_kernel *f,
			  struct tree *t)
{
	snapshot_release(snap);
	source_free(s);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(t);
	fake_kernel_free(f);
}

/* Descriptors the sources live_new makes leave to their caller (live_opts.fd_keep). */
static size_t live_new_keep;

/* A live source on the fixture counting task-clock and page-faults (and hw events when asked). */
static struct source *live_new(struct tree *t, struct fake_kernel *f, bool hw, bool per_cpu)
{
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512];

	evlist_init(&ev);
	if (hw)
		evlist_add(&ev, "cycles", 1, true, false);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t->proc;
	o.sysfs_root = t->sys;
	o.ops = &f->ops;
	o.per_cpu = per_cpu;
	o.fd_keep = live_new_keep;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

static const struct snap_task *find_task(const struct snapshot *snap, int pid)
{
	for (size_t i = 0; i < snap->ntasks; i++)
		if (snap->tasks[i].pid == pid)
			return &snap->tasks[i];
	return NULL;
}

/* How many facts of what (and err, unless 0) were told. */
static size_t count_facts(const struct source *s, enum fact_what what, int err,
			  const struct fact **last)
{
	size_t n, k = 0;
	const struct fact *f = source_live_facts(s, &n);

	for (size_t i = 0; i < n; i++)
		if (f[i].what == what && (!err || f[i].err == err)) {
			k++;
			if (last)
				*last = &f[i];
		}
	return k;
}

/* Whether a queued message contains text; the messages are taken. */
static bool said(struct source *s, const char *text)
{
	size_t n;
	char **m = source_take_messages(s, &n);
	bool found = false;

	for (size_t i = 0; i < n; i++) {
		found |= strstr(m[i], text) != NULL;
		free(m[i]);
	}
	free(m);
	return found;
}

/* The descriptors a live source leaves to others (LIVE_FD_RESERVE in live.h). */
#define LIVE_TEST_FD_RESERVE 24

static const int T10[] = { 10 }, T11[] = { 11 }, T12[] = { 12 }, T13[] = { 13 }, T20[] = { 20 };

static void four_procs(struct tree *t)
{
	/* busiest first: 10 used the most CPU time */
	tree_proc(t, 10, T10, 1, 100, 800);
	tree_proc(t, 11, T11, 1, 100, 400);
	tree_proc(t, 12, T12, 1, 100, 200);
	tree_proc(t, 13, T13, 1, 100, 100);
}

START_TEST(test_emfile_leaves_the_rest_not_counted_and_says_how_many)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct fact *fact = NULL;
	int counted = 0, out = 0, opens, ticks;

	tree_init(&t);
	four_procs(&t);
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->max_open = 4; /* two events a process: the two busiest fit */
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.ntasks, 4);
	for (size_t i = 0; i < snap.ntasks; i++) {
		counted += snap.tasks[i].err == 0;
		out += snap.tasks[i].err == -EMFILE;
	}
	ck_assert_int_eq(counted, 2);
	ck_assert_int_eq(out, 2);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_int_eq(find_task(&snap, 13)->err, -EMFILE);
	ck_assert_int_eq(find_task(&snap, 13)->c[0].err, -EMFILE);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, -EMFILE, &fact), 1);
	ck_assert_int_eq(fact->tasks.left_out, 2);
	ck_assert(said(s, "out of file descriptors: some processes are not counted"));
	/*
	 * said once; not tried again each tick (that opened and closed counters
	 * for nothing), but after 16 ticks, and counted once descriptors are back
	 */
	opens = f->opens_of[12] + f->opens_of[13];
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, -EMFILE, NULL), 1);
	f->max_open = 0;
	for (ticks = 0; ticks < 20 && find_task(&snap, 13)->err; ticks++) {
		ck_assert_int_eq(f->opens_of[12] + f->opens_of[13], opens);
		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_int_eq(find_task(&snap, 12)->err, find_task(&snap, 13)->err);
	}
	ck_assert_int_eq(ticks, 15);
	ck_assert_int_eq(f->opens_of[12] + f->opens_of[13], opens + 4);
	ck_assert_int_eq(find_task(&snap, 13)->err, 0);
	ck_assert_int_eq(find_task(&snap, 13)->c[1].err, 0);
	ck_assert_uint_gt(find_task(&snap, 13)->c[1].value, 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * An attach the kernel refused (EMFILE at the open) is tried again later;
 * when that try finds the budget taken by then, it waits once more. Its
 * list of threads, freed at that try, is not freed again at the next one
 * or at the end (a double free before). Every budget from too small for
 * any process to enough for all.
 */
START_TEST(test_a_retry_that_finds_no_room_waits_again)
{
	struct rlimit rl0;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl0), 0);
	for (int room = 2; room <= 14; room++) {
		struct tree t;
		struct fake_kernel *f;
		struct source *s;
		struct snapshot snap;
		int counted = 0;

		tree_init(&t);
		four_procs(&t);
		f = fake_new();
		struct rlimit rl = rl0;

		rl.rlim_cur = LIVE_TEST_FD_RESERVE + (rlim_t)room;
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
		s = live_new(&t, f, false, false);
		/* the kernel takes two counters a process at first: the two busiest */
		f->max_open = 4;
		snapshot_init(&snap, s->ev.n);
		ck_assert_int_eq(source_read(s, &snap), 0);
		f->max_open = 0;
		for (int i = 0; i < 40; i++)
			ck_assert_int_eq(source_read(s, &snap), 0);
		for (size_t i = 0; i < snap.ntasks; i++) {
			ck_assert(snap.tasks[i].err == 0 || snap.tasks[i].err == -EMFILE);
			counted += snap.tasks[i].err == 0;
		}
		ck_assert_int_ge(counted, room >= 6 ? 2 : 0);
		live_test_end(s, &snap, f, &t);
	}
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
}
END_TEST

START_TEST(test_esrch_drops_a_vanished_task_without_error)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	size_t nfacts;

	tree_init(&t);
	four_procs(&t);
	f = fake_new();
	s = live_new(&t, f, false, false);
	source_live_facts(s, &nfacts);
	f->err_pid = 11;
	f->err = -ESRCH;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.ntasks, 3);
	ck_assert_ptr_null(find_task(&snap, 11));
	ck_assert_int_eq(find_task(&snap, 12)->err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, 0, NULL), 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* Make pid's owner (real, effective, saved and filesystem uid) uid. */
static void tree_owner(struct tree *t, int pid, unsigned uid)
{
	char path[512], text[128];

	snprintf(path, sizeof(path), "%s/%d/status", t->proc, pid);
	snprintf(text, sizeof(text), "Name:\twork\nUid:\t%u\t%u\t%u\t%u\n", uid, uid, uid, uid);
	put(path, text);
}

START_TEST(test_eacces_gives_the_permission_fact_with_paranoid)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct fact *fact = NULL;

	tree_init(&t);
	four_procs(&t);
	/* a process of pmctop's own user refused: not ptrace, the paranoid advice stays */
	tree_owner(&t, 12, (unsigned)getuid());
	f = fake_new();
	s = live_new(&t, f, false, false);
	ck_assert_int_eq(source_live_paranoid(s), 2);
	f->err_pid = 12;
	f->err = -EACCES;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 12)->err, -EACCES);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, -EACCES, &fact), 1);
	ck_assert_int_eq(fact->paranoid, 2);
	ck_assert(said(s, "some processes cannot be counted: permission denied; "
			  "kernel.perf_event_paranoid is 2"));
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_another_users_process_refused_names_ptrace_not_paranoid)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct fact *fact = NULL;
	unsigned me = (unsigned)getuid(), other = me + 1;
	char want[128], text[1024];

	tree_init(&t);
	four_procs(&t);
	for (int pid = 10; pid <= 13; pid++)
		tree_owner(&t, pid, me);
	tree_owner(&t, 12, other);
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->err_pid = 12;
	f->err = -EACCES;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 12)->err, -EACCES);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, -EACCES, &fact), 1);
	ck_assert_int_eq(fact->tasks.pid, 12);
	ck_assert_int_eq(fact->tasks.owner, other);
	ck_assert_int_eq(fact->tasks.uid, me);
	ck_assert_int_eq(fact->tasks.others, 1);
	snprintf(want, sizeof(want), "other users' processes cannot be counted (pid 12 of uid %u)",
		 other);
	fact_text(text, sizeof(text), fact);
	ck_assert_ptr_nonnull(strstr(text, want));
	ck_assert_ptr_nonnull(strstr(text, "needs ptrace access to it, which no "
					   "kernel.perf_event_paranoid setting gives; run pmctop "
					   "as that user or as root"));
	ck_assert_ptr_nonnull(strstr(text, "setcap cap_perfmon+ep pmctop"));
	/* the sysctl cannot help: it is not suggested */
	ck_assert_ptr_null(strstr(text, "sysctl kernel.perf_event_paranoid"));
	ck_assert(said(s, want));
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_enoent_for_hardware_events_gives_software_only_mode)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	const struct errmsg_mode *m;
	const struct fact *fact = NULL;
	char text[512];

	tree_init(&t);
	f = fake_new();
	f->deny_kernel = true;
	s = live_new(&t, f, true, false);
	m = source_live_mode(s);
	ck_assert(!m->hw);
	ck_assert(m->hw_asked);
	ck_assert(!m->kernel);
	ck_assert_int_eq(m->why.err, -ENOENT);
	ck_assert_str_eq(m->why.name, "cycles");
	ck_assert_str_eq(s->mode, "no hardware PMU: software events only ('cycles': not supported "
				  "by this PMU), user mode only, per-task events");
	ck_assert_str_eq(errmsg_mode(text, sizeof(text), m), s->mode);
	ck_assert_int_eq(s->ev.ev[0].err, -ENOENT);
	ck_assert_int_eq(s->ev.ev[1].err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_NO_PMU, -ENOENT, &fact), 1);
	ck_assert_str_eq(fact->name, "cycles");
	ck_assert(said(s, "no hardware PMU: counting software events only"));
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_nothing_countable_fails_with_the_fact_of_the_first_event)
{
	struct tree t;
	struct fake_kernel *f;
	struct evlist ev;
	struct live_opts o;
	char err[512];

	tree_init(&t);
	f = fake_new();
	evlist_init(&ev);
	evlist_add(&ev, "cycles", 0, true, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t.proc;
	o.sysfs_root = t.sys;
	o.ops = &f->ops;
	ck_assert_ptr_null(source_live_new(&ev, &o, err, sizeof(err)));
	ck_assert_str_eq(err, "no event can be counted on this machine: 'cycles': not supported by "
			      "this PMU");
	evlist_release(&ev);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_echild_on_the_first_group_read_reopens_the_group)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;

	tree_init(&t);
	tree_proc(&t, 10, T10, 1, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->echild_pid = 10;
	f->echild_reads = 1;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	/* two members opened twice: the group read once after the build said ECHILD */
	ck_assert_int_eq(f->opens_of[10], 4);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_int_eq(find_task(&snap, 10)->c[0].err, 0);
	ck_assert_int_eq(f->nopen, 2);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_shr_is_read_only_while_wanted)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *e;
	char path[512];
	unsigned long long kib = 30ULL * (unsigned long long)sysconf(_SC_PAGESIZE) / 1024;

	tree_init(&t);
	tree_proc(&t, 10, T10, 1, 100, 800);
	snprintf(path, sizeof(path), "%s/10/statm", t.proc);
	put(path, "100 50 30 1 0 20 0\n");
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	/* until told otherwise, a live source reads every fact */
	ck_assert_int_eq(source_read(s, &snap), 0);
	e = find_task(&snap, 10);
	ck_assert(e->pflags & SNAP_TASK_SHR);
	ck_assert_uint_eq(e->shr_kib, kib);
	/* nothing shows SHR: its file is not read, and the value is unknown, not 0 */
	source_extras(s, 0);
	put(path, "100 50 40 1 0 20 0\n");
	ck_assert_int_eq(source_read(s, &snap), 0);
	e = find_task(&snap, 10);
	ck_assert(!(e->pflags & SNAP_TASK_SHR));
	/* shown again: read at the next tick, even of a process that did not run */
	source_extras(s, SOURCE_EXTRA_SHR);
	ck_assert_int_eq(source_read(s, &snap), 0);
	e = find_task(&snap, 10);
	ck_assert(e->pflags & SNAP_TASK_SHR);
	ck_assert_uint_eq(e->shr_kib, kib * 40 / 30);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_enodev_of_a_thread_exiting_during_attach_is_retried_next_tick)
{
	static const int tids[] = { 13, 14 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char path[512];

	tree_init(&t);
	tree_proc(&t, 13, tids, 2, 100, 100);
	f = fake_new();
	s = live_new(&t, f, false, true);
	f->err_pid = 14;
	f->err = -ENODEV;
	f->err_times = 1;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 13)->err, -EAGAIN);
	ck_assert_str_eq(errmsg_short(find_task(&snap, 13)->err), "attaching");
	ck_assert_int_eq(f->nopen, 2); /* page-faults on each CPU; nothing of 13 left open */
	/* the thread is gone by the next tick: the process is attached, no error left */
	snprintf(path, sizeof(path), "%s/13/task/14", t.proc);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 13)->err, 0);
	ck_assert_int_eq(find_task(&snap, 13)->c[1].err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_CPU_OFFLINE, 0, NULL), 0);
	ck_assert_uint_eq(count_facts(s, FACT_TASKS, 0, NULL), 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_a_kernel_without_inherit_thread_counts_without_it_and_says_so)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct fact *fact = NULL;
	char text[512];

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	f->linux_5_10 = true;
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_int_eq(find_task(&snap, 10)->c[0].err, 0);
	ck_assert_int_eq(find_task(&snap, 10)->c[1].err, 0);
	/* 2 events on each thread, none refused */
	ck_assert_int_eq(f->opens_of[10], 2);
	ck_assert_int_eq(f->opens_of[11], 2);
	ck_assert_int_eq(source_read(s, &snap), 0);
	/* said once, with what it costs */
	ck_assert_uint_eq(count_facts(s, FACT_NO_INHERIT_THREAD, 0, &fact), 1);
	fact_text(text, sizeof(text), fact);
	ck_assert_ptr_nonnull(strstr(text, "children it forks"));
	ck_assert(said(s, "inherit_thread needs Linux 5.13"));
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_an_event_asked_again_with_e_reuses_the_built_in_counter)
{
	static const int tids[] = { 10 };
	struct tree t;
	struct fake_kernel *f;
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	char err[512];

	tree_init(&t);
	tree_proc(&t, 10, tids, 1, 100, 800);
	f = fake_new();
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	/* the same event by another of its names, and one that is new */
	evlist_add(&ev, "faults", 1, false, true);
	evlist_add(&ev, "context-switches", 2, false, true);
	memset(&o, 0, sizeof(o));
	o.proc_root = t.proc;
	o.sysfs_root = t.sys;
	o.ops = &f->ops;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	/* task-clock, page-faults and context-switches: "faults" is not opened again */
	ck_assert_int_eq(f->opens_of[10], 3);
	ck_assert_int_eq(source_read(s, &snap), 0);
	task = find_task(&snap, 10);
	ck_assert_ptr_nonnull(task);
	ck_assert_int_eq(task->c[2].err, 0);
	ck_assert_uint_eq(task->c[2].value, task->c[1].value);
	ck_assert_uint_eq(task->c[2].enabled, task->c[1].enabled);
	ck_assert_uint_eq(task->c[2].running, task->c[1].running);
	ck_assert_uint_gt(task->c[2].value, 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A modifier is part of an event's identity: page-faults:k counts kernel
 * mode only, so it is a counter of its own beside the built-in page-faults
 * (which counts both modes), and so is faults:u; only the same event with
 * the same modifiers (faults) shares the built-in counter.
 */
START_TEST(test_an_event_with_a_modifier_is_a_counter_of_its_own)
{
	static const int tids[] = { 10 };
	struct tree t;
	struct fake_kernel *f;
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	char err[512];

	tree_init(&t);
	tree_proc(&t, 10, tids, 1, 100, 800);
	f = fake_new();
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	evlist_add(&ev, "page-faults:k", 1, false, true);
	evlist_add(&ev, "faults:u", 1, false, true);
	evlist_add(&ev, "faults", 1, false, true);
	memset(&o, 0, sizeof(o));
	o.proc_root = t.proc;
	o.sysfs_root = t.sys;
	o.ops = &f->ops;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	/* task-clock, page-faults, page-faults:k and faults:u; faults is page-faults */
	ck_assert_int_eq(f->opens_of[10], 4);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Every process row and CPU row carries the time of its own read: the
 * tick's time is taken before anything is read, and under load the reads
 * of one tick spread over much of it, so a rate divided by the tick's
 * interval is off by however far the row's read moved within its tick.
 */
START_TEST(test_each_row_carries_the_time_of_its_own_read)
{
	static const int tids10[] = { 10 }, tids20[] = { 20 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *a, *b;
	uint64_t t0;

	tree_init(&t);
	tree_proc(&t, 10, tids10, 1, 100, 800);
	tree_proc(&t, 20, tids20, 1, 100, 800);
	f = fake_new();
	f->now_ns = 5000000000ull;
	f->read_ns = 7000000; /* 7 ms a group read: a loaded machine */
	s = live_new(&t, f, false, true);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	f->now_ns += 1000000000ull;
	t0 = f->now_ns;
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.t_ns, t0);
	a = find_task(&snap, 10);
	b = find_task(&snap, 20);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	/* read after the tick began, 20 after 10, each by the group reads before it */
	ck_assert_uint_gt(a->t_ns, t0);
	ck_assert_uint_ge(b->t_ns, a->t_ns + f->read_ns);
	ck_assert_uint_le(b->t_ns, f->now_ns);
	for (size_t i = 0; i < snap.ncpus; i++)
		ck_assert_uint_ge(snap.cpus[i].t_ns, t0);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* Tick s once more; the counts of pid 10, which must be there. */
static const struct snap_task *tick10(struct source *s, struct snapshot *snap)
{
	const struct snap_task *t;

	ck_assert_int_eq(source_read(s, snap), 0);
	t = find_task(snap, 10);
	ck_assert_ptr_nonnull(t);
	return t;
}

/*
 * A process's row is stamped with the moment its counts are of, the middle
 * of its group reads, not a time taken after them: pmctop preempted after
 * a read would otherwise divide this interval's counts by a time too long,
 * and the next interval's by one too short. A read that took far longer
 * than the usual (the stall) is made again, once; a read as usual is made
 * once. _i: with the process's CPU clock (the fill reads the gate group)
 * or without it (the idle check reads it, and the fill takes that read).
 */
START_TEST(test_a_row_is_stamped_at_its_reads_and_a_stalled_read_is_made_again)
{
	static const int tids[] = { 10 };
	const uint64_t read_ns = 50000, stall_ns = 300000000;
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	int usual = 0;

	tree_init(&t);
	tree_proc(&t, 10, tids, 1, 100, 800);
	f = fake_new();
	f->clock = _i;
	f->read_ns = read_ns;
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	for (int tick = 0; tick < 8; tick++) {
		const struct snap_task *row;
		int reads = f->reads_of[10];
		bool stall = tick == 5;

		f->now_ns += 1000000000ull;
		f->clock_ns[10] += 1000000; /* it runs: read in full each tick */
		if (stall) {
			f->stall_pid = 10;
			f->stall_ns = stall_ns;
		}
		row = tick10(s, &snap);
		reads = f->reads_of[10] - reads;
		if (tick < 2)
			continue; /* attached, then read once with nothing usual yet */
		if (!usual)
			usual = reads;
		ck_assert_int_gt(usual, 0);
		/* the counts the row holds are of its last group read, a read's time at most away */
		ck_assert_uint_le(row->t_ns, f->read_at[10] + read_ns);
		ck_assert_uint_ge(row->t_ns + read_ns, f->read_at[10]);
		/* once as usual; twice when the first read stalled, never more */
		ck_assert_int_eq(reads, stall ? 2 * usual : usual);
	}
	ck_assert_uint_eq(f->stall_ns, 0);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/*
 * A setuid in a tick whose uid read was left for later, then sleep: the uid
 * is read once more as the process rests, not at the idle refresh ticks on.
 */
START_TEST(test_a_setuid_before_a_sleep_is_seen_at_the_next_tick)
{
	static const int tids[] = { 10 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;

	tree_init(&t);
	tree_proc(&t, 10, tids, 1, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	task = tick10(s, &snap);
	ck_assert_uint_eq(task->uid, 0);
	/* it runs, becomes uid 4242, then sleeps */
	tree_owner(&t, 10, 4242);
	task = tick10(s, &snap);
	f->frozen = 1ull << 10;
	task = tick10(s, &snap);
	ck_assert_uint_eq(task->uid, 4242);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_a_process_that_did_not_run_is_not_read_again_and_keeps_its_counts)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	uint64_t tc, pf;
	int reads, preads;

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	task = tick10(s, &snap);
	/* from now on neither thread runs */
	f->frozen = 1ull << 10 | 1ull << 11;
	tc = task->c[0].value;
	pf = task->c[1].value;
	reads = f->reads_of[10] + f->reads_of[11];
	preads = f->stat_preads[10];
	for (int i = 0; i < 10; i++) {
		task = tick10(s, &snap);
		ck_assert_uint_eq(task->c[0].value, tc);
		ck_assert_uint_eq(task->c[1].value, pf);
		ck_assert_int_eq(task->c[0].err, 0);
	}
	/* one group (task-clock's) per attach-time thread per tick, and no stat read */
	ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] - reads, 10 * 2);
	ck_assert_int_eq(f->stat_preads[10] - preads, 0);
	/* one thread runs again: read in full, and its counts move */
	f->frozen = 1ull << 10;
	task = tick10(s, &snap);
	ck_assert_uint_gt(task->c[0].value, tc);
	ck_assert_int_eq(f->stat_preads[10] - preads, 1);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* A schedstat file (tid 0: self's): run time in ns, wait, timeslices. */
static void pfs_put_schedstat(const char *dir, int pid, int tid, unsigned long long run_ns)
{
	char path[512], text[128];

	if (tid)
		snprintf(path, sizeof(path), "%s/%d/task/%d/schedstat", dir, pid, tid);
	else
		snprintf(path, sizeof(path), "%s/self/schedstat", dir);
	snprintf(text, sizeof(text), "%llu 1000 7\n", run_ns);
	put(path, text);
}

/*
 * A process of 20 threads (tids 10 to 29) counted per task on a timed fake
 * kernel: each thread that is not frozen counts 10 and runs BIG_UNIT ns an
 * epoch (1 ms, more than the 1 ms by which a process's run time may pass
 * what its threads' rates make before it is read in full), whenever its
 * group is read, and the process clock says as much.
 */
#define BIG_THREADS 20
#define BIG_UNIT 1000000

/* The run time of each thread of the big process so far, as its schedstat says, and its tree. */
static uint64_t big_run[BIG_THREADS];
static const char *big_proc;

/*
 * The pace of the reads in turn of the big process (live_opts.turn_pace):
 * one a tick for the tests of what the reads in turn do, the default for
 * those of their pace.
 */
static unsigned big_pace = 1;
/*
 * Its threads (BIG_THREADS at most; fewer for a process of few threads),
 * and live_opts.pace_few_from
 */
static int big_n = BIG_THREADS;
static unsigned big_few_from;

static struct source *big_new(struct tree *t, struct fake_kernel **fp, bool read_all)
{
	int tids[BIG_THREADS];
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512];

	for (int i = 0; i < big_n; i++)
		tids[i] = 10 + i;
	tree_init(t);
	tree_proc(t, 10, tids, big_n, 100, 800);
	/* the threads' run times, in the process clock's units: the kernel has schedstats */
	tree_mkdir(t->proc, "/self", 0, 0);
	pfs_put_schedstat(t->proc, 0, 0, 123456);
	big_proc = t->proc;
	for (int i = 0; i < big_n; i++) {
		big_run[i] = 0;
		pfs_put_schedstat(t->proc, 10, 10 + i, 0);
	}
	*fp = fake_new();
	(*fp)->timed = true;
	(*fp)->clock = true;
	(*fp)->clock_ns[10] = 5 * BIG_UNIT;
	(*fp)->epoch_ns = BIG_UNIT;
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t->proc;
	o.sysfs_root = t->sys;
	o.ops = &(*fp)->ops;
	o.read_all = read_all;
	o.turn_pace = big_pace;
	o.pace_few_from = big_few_from;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	return s;
}

/*
 * The process clock's time a running thread adds an epoch (its schedstat's
 * too), in thousandths of BIG_UNIT, where its groups' enabled and running
 * time grow by 1000 of them: more on
 * the kernel, whose clock takes in the switches around each run that perf
 * does not.
 */
static uint64_t big_clock_per = 1000;
/* Where not 0, thread 10 + i's own ns of the clock an epoch instead. */
static uint64_t big_clock_of[BIG_THREADS];
/* A thread whose run is all in threads it started after the attach (its groups count them). */
static int big_parent;

/* One epoch of the big process: the threads not frozen run; its row after a tick. */
static const struct snap_task *big_tick(struct source *s, struct snapshot *snap,
					struct fake_kernel *f, int *reads)
{
	int before = 0, after = 0, running = 0;
	const struct snap_task *task;

	f->epoch++;
	for (int tid = 10; tid < 10 + big_n; tid++) {
		bool runs = !(f->frozen >> tid & 1);
		uint64_t per = (big_clock_of[tid - 10] ? big_clock_of[tid - 10] : big_clock_per) *
			       BIG_UNIT / 1000;

		running += runs;
		before += f->reads_of[tid];
		if (runs)
			f->clock_ns[10] += per;
		/* the one that runs in threads it started has none of it in its schedstat */
		if (runs && tid != big_parent) {
			big_run[tid - 10] += per;
			pfs_put_schedstat(big_proc, 10, tid, big_run[tid - 10]);
		}
	}
	task = tick10(s, snap);
	for (int tid = 10; tid < 10 + big_n; tid++)
		after += f->reads_of[tid];
	*reads = after - before;
	return task;
}

/* A count never falls; its change over a tick scaled as the model does (est: scaled up). */
static double big_delta(const struct snap_count *prev, const struct snap_count *cur, bool *est)
{
	ck_assert_int_eq(cur->err, 0);
	ck_assert_uint_ge(cur->value, prev->value);
	ck_assert_uint_ge(cur->enabled, prev->enabled);
	ck_assert_uint_ge(cur->running, prev->running);
	ck_assert_uint_ge(cur->enabled - prev->enabled, cur->running - prev->running);
	*est = cur->enabled - prev->enabled > cur->running - prev->running;
	return (double)(cur->value - prev->value) * (double)(cur->enabled - prev->enabled) /
	       (double)(cur->running - prev->running);
}

/*
 * This tick's counts of both events (task), against those before (prev,
 * then set to these): want a tick, within 1 %, and marked estimated.
 */
static void big_expect(struct snap_count *prev, const struct snap_task *task, double want, int i)
{
	bool est;

	for (int e = 0; e < 2; e++) {
		double d = big_delta(&prev[e], &task->c[e], &est);

		ck_assert_msg(d > 0.99 * want && d < 1.01 * want,
			      "tick %d event %d: %.2f a tick, not %.0f", i, e, d, want);
		ck_assert(est);
	}
	memcpy(prev, task->c, 2 * sizeof(*prev));
}

/* The big process stops: every thread is read at the next tick; its row then. */
static const struct snap_task *big_stop(struct source *s, struct snapshot *snap,
					struct fake_kernel *f)
{
	const struct snap_task *task;
	int reads;

	fake_kernel_settle(f);
	f->frozen = ((1ull << big_n) - 1) << 10;
	task = big_tick(s, snap, f, &reads);
	ck_assert_int_eq(reads, big_n);
	return task;
}

/*
 * A process of more than 8 threads that runs has one of its threads'
 * groups read a tick, in turn, when they are about as busy: every thread
 * within 20 ticks; what the others counted since their reads is guessed
 * from the run time the process clock says they had and marked estimated:
 * 20 threads that count 10 a tick each give 200 a tick. When it stops, the
 * threads not yet read are read at once, and its count is the kernel's, to
 * the unit; then the idle gate reads nothing.
 */
START_TEST(test_a_big_busy_process_has_a_thread_read_a_tick_and_the_rest_guessed)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, seen[BIG_THREADS] = { 0 };
	bool est;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	/* the attach; then every thread read once more, for its run time */
	big_tick(s, &snap, f, &reads);
	task = big_tick(s, &snap, f, &reads);
	ck_assert_int_eq(reads, BIG_THREADS);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 40; i++) {
		int before[BIG_THREADS];

		for (int k = 0; k < BIG_THREADS; k++)
			before[k] = f->reads_of[10 + k];
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 1);
		for (int k = 0; k < BIG_THREADS; k++)
			if (f->reads_of[10 + k] > before[k])
				seen[k] = i;
		big_expect(prev, task, 200, i);
		/* in turn: none waits longer than a tick a thread for its read */
		if (i >= BIG_THREADS)
			for (int k = 0; k < BIG_THREADS; k++)
				ck_assert_int_ge(seen[k], i - BIG_THREADS);
	}
	/* it stops: the threads not read since they ran are read now, and then none */
	task = big_stop(s, &snap, f);
	/* every thread counted 10 an epoch since the one of its attach (the first) */
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	ck_assert_uint_eq(task->c[1].value, task->c[0].value);
	big_delta(&prev[0], &task->c[0], &est);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 5; i++) {
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 0);
		ck_assert_uint_eq(task->c[0].value, prev[0].value);
		ck_assert_uint_eq(task->c[0].enabled, prev[0].enabled);
	}
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);

	/* --read-all: every thread every tick, and plain counts */
	s = big_new(&t, &f, true);
	snapshot_init(&snap, s->ev.n);
	big_tick(s, &snap, f, &reads);
	task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 10; i++) {
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, BIG_THREADS);
		ck_assert_double_eq(big_delta(&prev[0], &task->c[0], &est), 200);
		ck_assert(!est);
		memcpy(prev, task->c, sizeof(prev));
	}
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* The big process at the pace of the reads in turn (live_opts.turn_pace 0). */
static struct source *big_paced(struct tree *t, struct fake_kernel **fp, struct snapshot *snap)
{
	struct source *s;

	big_pace = 0;
	s = big_new(t, fp, false);
	big_pace = 1;
	snapshot_init(snap, s->ev.n);
	return s;
}

/* It stops: its count is the kernel's, every thread's 10 an epoch since its attach. */
static void big_paced_end(struct source *s, struct snapshot *snap, struct fake_kernel *f,
			  struct tree *t)
{
	const struct snap_task *task = big_stop(s, snap, f);

	ck_assert_uint_eq(task->c[0].value, 10ull * (uint64_t)big_n * (f->epoch - 2));
	live_test_end(s, snap, f, t);
}

/*
 * At the pace of the reads in turn (live_opts.turn_pace 0): threads that
 * keep to their rates (each counts 10 an epoch in its running time) are
 * read one tick in two, then one in four, each within four turns, and the
 * count is still 200 a tick to the unit and the kernel's at the stop.
 */
START_TEST(test_a_big_process_in_steady_work_is_read_one_tick_in_four)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, sum = 0, last[BIG_THREADS] = { 0 };

	s = big_paced(&t, &f, &snap);
	for (int i = 0; i < 3; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 8 * BIG_THREADS; i++) {
		int before[BIG_THREADS];

		for (int k = 0; k < BIG_THREADS; k++)
			before[k] = f->reads_of[10 + k];
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_le(reads, 1);
		big_expect(prev, task, 200, i);
		for (int k = 0; k < BIG_THREADS; k++)
			if (f->reads_of[10 + k] > before[k]) {
				/* in turn: none waits longer than four turns */
				ck_assert_int_le(i - last[k], 4 * BIG_THREADS);
				last[k] = i;
			}
		/* the last four turns: one tick in four */
		if (i >= 4 * BIG_THREADS)
			sum += reads;
	}
	ck_assert_int_eq(sum, BIG_THREADS);
	for (int k = 0; k < BIG_THREADS; k++)
		ck_assert_int_ge(last[k], 4 * BIG_THREADS);
	big_paced_end(s, &snap, f, &t);
}
END_TEST

/*
 * Threads that count more in their running time than their rates make:
 * here every one's page faults, three times as many from one epoch on (the
 * fake kernel's rate_from). A thread read in turn whose span has enough of
 * the new work sets the pace back to one a tick, and it stays there while
 * the threads read bring rates of both; the count of page faults goes to
 * 600 a tick, never falls, and is the kernel's at the stop. Then one tick
 * in four again.
 */
START_TEST(test_a_big_process_whose_work_changes_is_read_every_tick_again)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, sum = 0, at = -1, run = 0, most = 0;
	uint64_t faults = 0;

	s = big_paced(&t, &f, &snap);
	for (int i = 0; i < 3 + 4 * BIG_THREADS; i++) {
		task = big_tick(s, &snap, f, &reads);
		sum += i >= 3 + 3 * BIG_THREADS ? reads : 0;
	}
	ck_assert_int_eq(sum, BIG_THREADS / 4);
	fake_kernel_settle(f);
	for (int i = 0; i < f->nev; i++) {
		struct fake_ev *m = &f->ev[i];

		if (m->pid < 10 || m->attr.type != PERF_TYPE_SOFTWARE ||
		    m->attr.config != PERF_COUNT_SW_PAGE_FAULTS)
			continue;
		m->rate_was = 10;
		m->rate = 30;
		m->rate_from = f->ev[m->leader - FAKE_KERNEL_FD0].reads;
	}
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 8 * BIG_THREADS; i++) {
		bool est;
		double d;

		task = big_tick(s, &snap, f, &reads);
		d = big_delta(&prev[1], &task->c[1], &est);
		memcpy(prev, task->c, sizeof(prev));
		/* the longest run of ticks each with a read in turn, and where it began */
		run = reads ? run + 1 : 0;
		if (run > most) {
			most = run;
			at = i + 1 - run;
		}
		/* the last two turns: 600 a tick, and one read in four ticks */
		if (i >= 6 * BIG_THREADS) {
			ck_assert_msg(d > 0.99 * 600 && d < 1.01 * 600, "tick %d: %.2f", i, d);
			sum += reads;
		}
	}
	/* the reads were one a tick for a turn at least, from within a turn of the change */
	ck_assert_int_ge(most, BIG_THREADS);
	ck_assert_int_lt(at, BIG_THREADS);
	ck_assert_int_eq(sum, BIG_THREADS / 4 + 2 * BIG_THREADS / 4);
	task = big_stop(s, &snap, f);
	for (int i = 0; i < f->nev; i++) {
		const struct fake_ev *m = &f->ev[i];

		if (m->rate_from)
			faults += 10 * m->rate_from +
				  30 * (f->ev[m->leader - FAKE_KERNEL_FD0].reads - m->rate_from);
	}
	ck_assert_uint_eq(task->c[1].value, faults);
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Its page faults at rate from the next epoch on, where they were was (the
 * fake kernel's rate_from): thread tid's, or every thread's (0).
 */
static void big_faults_from(struct fake_kernel *f, uint64_t was, uint64_t rate, int tid)
{
	fake_kernel_settle(f);
	for (int i = 0; i < f->nev; i++) {
		struct fake_ev *m = &f->ev[i];

		if (m->pid < 10 || (tid && m->pid != tid) || m->attr.type != PERF_TYPE_SOFTWARE ||
		    m->attr.config != PERF_COUNT_SW_PAGE_FAULTS)
			continue;
		m->rate_was = was;
		m->rate = rate;
		m->rate_from = f->ev[m->leader - FAKE_KERNEL_FD0].reads;
	}
}

/*
 * One tick of a process of few threads at the pace: none of its threads
 * read, or all; each event's count right to 1 % (task-clock 1000 a thread
 * a tick, page faults faults a tick where not below 0), estimated on a
 * tick none was read and exact on one all were. The threads read.
 */
static int few_tick(struct source *s, struct snapshot *snap, struct fake_kernel *f,
		    struct snap_count *prev, double faults, int i)
{
	const struct snap_task *task;
	int reads;

	task = big_tick(s, snap, f, &reads);
	ck_assert_msg(reads == 0 || reads == big_n, "tick %d: %d threads read of %d", i, reads,
		      big_n);
	for (int e = 0; e < 2; e++) {
		double want = e ? faults : 1000.0 * big_n;
		bool est;
		double d = big_delta(&prev[e], &task->c[e], &est);

		if (want < 0)
			continue;
		ck_assert_msg(d > 0.99 * want && d < 1.01 * want,
			      "tick %d event %d: %.2f a tick, not %.0f", i, e, d, want);
		ck_assert_msg(est == !reads, "tick %d event %d: estimated %d, %d read", i, e, est,
			      reads);
	}
	memcpy(prev, task->c, 2 * sizeof(*prev));
	return reads;
}

/* The page faults the fake kernel counted: 100 an epoch, or a rate from an epoch on. */
static uint64_t few_faults(const struct fake_kernel *f)
{
	uint64_t n = 0;

	for (int i = 0; i < f->nev; i++) {
		const struct fake_ev *m = &f->ev[i];
		uint64_t r = f->ev[m->leader - FAKE_KERNEL_FD0].reads;

		if (m->pid < 10 || m->attr.type != PERF_TYPE_SOFTWARE ||
		    m->attr.config != PERF_COUNT_SW_PAGE_FAULTS)
			continue;
		n += m->rate_from ? m->rate_was * m->rate_from + m->rate * (r - m->rate_from)
				  : 100 * r;
	}
	return n;
}

/*
 * A guess over, held when the pace of few threads stops: one thread's page
 * faults fall from 100 to 10 an epoch just after a read; the three ticks
 * resting guess 100 each, and the read after them brings 30. The count
 * given stands, marked estimated, while the reads pass it; also on the tick
 * after one on which no process ran (the pace of few threads is off then:
 * every thread read, nothing guessed), where it would fall to the reads'
 * sum. At the stop the counts are the kernel's.
 */
static void few_held(struct tree *t)
{
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads = 0, rested = 0;
	uint64_t clk = 0;
	bool est;

	big_n = 1;
	big_few_from = 1;
	s = big_paced(t, &f, &snap);
	fake_kernel_set_rate(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1000);
	fake_kernel_set_rate(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 100);
	for (int i = 0; i < 3; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	/* at the pace: a tick read just after one that rested */
	for (int i = 0; i < 40 && !(rested && reads); i++) {
		rested |= !reads;
		reads = few_tick(s, &snap, f, prev, 100, i);
	}
	ck_assert(rested && reads);
	big_faults_from(f, 100, 10, 0);
	for (int i = 0; i < 3; i++) {
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 0);
		ck_assert_double_eq_tol(big_delta(&prev[1], &task->c[1], &est), 100, 1);
		memcpy(prev, task->c, sizeof(prev));
	}
	/* the read brings 30 where 300 were given: the count stands */
	task = big_tick(s, &snap, f, &reads);
	ck_assert_int_eq(reads, 1);
	ck_assert_uint_eq(task->c[1].value, prev[1].value);
	memcpy(prev, task->c, sizeof(prev));
	/* two ticks it does not run: after the second, no process ran */
	fake_kernel_settle(f);
	f->frozen = 1ull << 10;
	for (int i = 0; i < 2; i++) {
		task = big_tick(s, &snap, f, &reads);
		big_delta(&prev[1], &task->c[1], &est);
		memcpy(prev, task->c, sizeof(prev));
	}
	fake_kernel_settle(f);
	f->frozen = 0;
	/* read without the pace: the count still stands, marked, and never falls */
	task = big_tick(s, &snap, f, &reads);
	ck_assert_int_eq(reads, 1);
	ck_assert_uint_eq(task->c[1].value, prev[1].value);
	ck_assert_uint_gt(task->c[1].enabled, task->c[1].running);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 40; i++) {
		task = big_tick(s, &snap, f, &reads);
		big_delta(&prev[1], &task->c[1], &est);
		memcpy(prev, task->c, sizeof(prev));
	}
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[1].value, few_faults(f));
	for (int i = 0; i < f->nev; i++)
		if (f->ev[i].pid == 10 && f->ev[i].leader == f->ev[i].fd)
			clk = 1000ull * f->ev[i].reads;
	ck_assert_uint_eq(task->c[0].value, clk);
	live_test_end(s, &snap, f, t);
}

/*
 * Where hundreds of processes run every tick (live_opts.pace_few_from, 1
 * here, 128 by default), a process of few threads (1, then 3) is read at
 * the pace too, all its threads at once: one tick in four while they keep
 * to their rates, each tick's count right, guessed on the ticks between
 * (marked estimated) and the reads' own on the ticks read. Its page faults
 * tripled (100 to 300 a thread a tick): read at the next tick too after
 * the read that sees it, and at 300 from there on; one tick in four again
 * after; the kernel's counts at the
 * stop. Among fewer processes than that it is read every tick, exactly.
 */
START_TEST(test_a_process_of_few_threads_is_read_at_the_pace_among_many)
{
	static const int ns[] = { 1, 3 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;

	for (size_t k = 0; k < 2; k++) {
		int sum = 0, each = 0, first = -1;

		big_n = ns[k];
		big_few_from = 1;
		s = big_paced(&t, &f, &snap);
		/* counts that weigh in the pace (LIVE_TASK_PACE_MIN): task-clock's ns, say */
		fake_kernel_set_rate(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1000);
		fake_kernel_set_rate(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 100);
		for (int i = 0; i < 3; i++)
			task = big_tick(s, &snap, f, &reads);
		memcpy(prev, task->c, sizeof(prev));
		for (int i = 0; i < 40; i++) {
			reads = few_tick(s, &snap, f, prev, 100.0 * big_n, i);
			if (i >= 24)
				sum += reads / big_n;
		}
		/* the last 16 ticks: one read in four */
		ck_assert_int_eq(sum, 4);
		/* of its last thread alone: any thread unlike its rates sets the pace back */
		big_faults_from(f, 100, 300, 10 + big_n - 1);
		sum = 0;
		for (int i = 0; i < 40; i++) {
			/*
			 * guessed at the rate before until the first read after
			 * the change, which brings the rest; then at the new
			 */
			reads = few_tick(s, &snap, f, prev,
					 first < 0 || i <= first ? -1 : 100.0 * big_n + 200, i);
			if (reads && first < 0)
				first = i;
			/* the tick after that read too: its rates were of both */
			if (first >= 0 && i == first + 1)
				each = reads;
			if (i >= 24)
				sum += reads / big_n;
		}
		ck_assert_int_lt(first, 4);
		ck_assert_int_eq(each, big_n);
		ck_assert_int_eq(sum, 4);
		/* one thread: its run time from the process clock, never its schedstat */
		if (big_n == 1)
			ck_assert_int_eq(f->schedstat_preads[10], 0);
		else
			ck_assert_int_gt(f->schedstat_preads[10], 0);
		task = big_stop(s, &snap, f);
		ck_assert_uint_eq(task->c[1].value, few_faults(f));
		ck_assert_uint_eq(task->c[0].value, 1000ull * (uint64_t)big_n * (f->epoch - 2));
		live_test_end(s, &snap, f, &t);
	}
	few_held(&t);
	/* fewer processes ran than pace_few_from (2, then the default): every tick, exact */
	for (int k = 0; k < 2; k++) {
		big_n = 1;
		big_few_from = k ? 0 : 2;
		s = big_paced(&t, &f, &snap);
		fake_kernel_set_rate(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1000);
		for (int i = 0; i < 3; i++)
			task = big_tick(s, &snap, f, &reads);
		memcpy(prev, task->c, sizeof(prev));
		for (int i = 0; i < 20; i++) {
			bool est;

			task = big_tick(s, &snap, f, &reads);
			ck_assert_int_eq(reads, 1);
			ck_assert_double_eq(big_delta(&prev[0], &task->c[0], &est), 1000);
			ck_assert(!est);
			memcpy(prev, task->c, sizeof(prev));
		}
		live_test_end(s, &snap, f, &t);
	}
	big_n = BIG_THREADS;
	big_few_from = 0;
}
END_TEST

/*
 * The pace of few threads turns on where LIVE_TASK_PACE_FROM (128)
 * processes ran in a tick, and off only once fewer than half of that do:
 * a population about the threshold does not switch it at every tick.
 */
START_TEST(test_the_pace_of_few_threads_turns_off_below_half_its_threshold)
{
	static const struct {
		bool on;
		size_t ran;
		bool next;
	} step[] = {
		{ false, 127, false }, { false, 128, true }, { true, 127, true },
		{ true, 64, true },    { true, 63, false },  { false, 64, false },
		{ false, 0, false },   { true, 0, false },   { true, 5000, true },
	};

	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++)
		ck_assert_msg(live_pace_few_next(step[i].on, step[i].ran, LIVE_TASK_PACE_FROM) ==
				      step[i].next,
			      "step %zu: on %d, %zu ran", i, step[i].on, step[i].ran);
	/* an odd threshold: half of 5 is 2.5, so 3 keep it on */
	ck_assert(live_pace_few_next(true, 3, 5));
	ck_assert(!live_pace_few_next(true, 2, 5));
}
END_TEST

/*
 * The guesses are in the process clock's own units. On the kernel a
 * thread's perf enabled time grows by less than its share of the process
 * clock (45 % to 89 % on the test VM: the clock takes in the switches
 * around each run). Here the clock moves 1600 ns a thread an epoch and the
 * groups' time 1000: the count of 20 threads that count 10 an epoch each
 * is still 200 a tick, not the 320 a run time taken from the clock would
 * make of it, and at the stop it is the kernel's to the unit. Once a
 * thread's own ratio is known (its first two reads), its schedstat is read
 * at one of its reads in four, its run time at the others its groups'
 * time by that ratio: over four turns, 20 schedstat reads, not 80.
 */
START_TEST(test_a_big_process_guessed_in_its_clock_units_is_not_overcounted)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, before = 0;

	big_clock_per = 1600;
	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 3; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 5 * BIG_THREADS; i++) {
		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 1);
		big_expect(prev, task, 200, i);
		if (i == BIG_THREADS - 1)
			before = f->schedstat_preads[10];
	}
	ck_assert_int_ge(f->schedstat_preads[10] - before, BIG_THREADS - 2);
	ck_assert_int_le(f->schedstat_preads[10] - before, BIG_THREADS + 2);
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	big_clock_per = 1000;
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Threads started after the attach count in their creator's groups, and
 * their run time is in the process clock but not in the creator's
 * schedstat. Here thread 10 runs only in such threads: what its groups
 * were enabled, in the kernel's units by the ratio the other threads show
 * (1000 of perf's time a 1600 of the clock), leaves the run time of
 * the threads not read. So the count stays 200 a tick; taken as perf's
 * time, 600 an epoch would stay unread for ever and the guesses climb.
 */
START_TEST(test_a_big_process_whose_thread_runs_in_threads_it_started_is_not_overcounted)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;

	big_clock_per = 1600;
	big_parent = 10;
	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 3; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 6 * BIG_THREADS; i++) {
		bool est;
		double d;

		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 1);
		d = big_delta(&prev[0], &task->c[0], &est);
		ck_assert_msg(est && d > 0.98 * 200 && d < 1.02 * 200, "tick %d: %.2f", i, d);
		/* the ratio is known from the threads read: within the first turn */
		if (i >= BIG_THREADS)
			big_expect(prev, task, 200, i);
		memcpy(prev, task->c, sizeof(prev));
	}
	big_clock_per = 1000;
	big_parent = 0;
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Half the threads of a big process stop: its count halves at the next
 * tick, before the threads that stopped are read again (the guesses follow
 * the process clock, which moves half as much, times what the threads
 * read count a ns of run time), and at the stop it is the kernel's. A
 * guess of each thread at its own last rate would count the stopped ones
 * on until they are read, and the others' new rates on top (95 to 176 a
 * tick here).
 */
START_TEST(test_a_big_process_that_runs_half_as_much_counts_half_at_once)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;
	bool est;
	double sum = 0;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 3 + BIG_THREADS; i++)
		task = big_tick(s, &snap, f, &reads);
	fake_kernel_settle(f);
	/* threads 20 to 29 stop */
	f->frozen = ((1ull << (BIG_THREADS / 2)) - 1) << (10 + BIG_THREADS / 2);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 2 * BIG_THREADS; i++) {
		double d;

		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_le(reads, 2);
		d = big_delta(&prev[0], &task->c[0], &est);
		ck_assert(est);
		/* the threads alike count alike a ns of run time: the guess is exact */
		ck_assert_msg(d > 99 && d < 101, "tick %d after: %.2f, not 100", i, d);
		sum += d;
		memcpy(prev, task->c, sizeof(prev));
	}
	ck_assert_msg(sum > 100 * 2 * BIG_THREADS - 2 && sum < 100 * 2 * BIG_THREADS + 2,
		      "%.0f over %d ticks, not %d", sum, 2 * BIG_THREADS, 100 * 2 * BIG_THREADS);
	task = big_stop(s, &snap, f);
	{
		/* 20 threads from the attach to the change, then 10 */
		uint64_t k = 10ull * BIG_THREADS * (2 + BIG_THREADS) +
			     10ull * (BIG_THREADS / 2) * 2 * BIG_THREADS;

		ck_assert_uint_eq(task->c[0].value, k);
	}
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Threads whose groups' time is a different share of their run time (one
 * that switches often loses more of it to the switches): half the threads
 * of the big process run 1000 of the clock an epoch, half 2500, for
 * the same 1000 of perf's time and the same 10 counts. Each thread's run
 * time between its schedstat reads is taken by its own ratio, and the run
 * time not read is shared out among the threads as they ran, each part
 * at its own thread's rate: the count is 200 a tick. One pool of counts a
 * ns of run time for the process swings with the kind of thread read last
 * (224 and 104 by turns here); the process's one ratio took the threads
 * that switch less for threads that started others.
 */
START_TEST(test_threads_that_switch_more_or_less_are_each_taken_by_their_own_ratio)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;

	for (int i = 0; i < BIG_THREADS; i++)
		big_clock_of[i] = i % 2 ? 2500 : 1000;
	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 2 + BIG_THREADS; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 6 * BIG_THREADS; i++) {
		bool est;
		double d;

		task = big_tick(s, &snap, f, &reads);
		ck_assert_int_eq(reads, 1);
		/* within a tenth at first (the ratios known, the rates not yet), then to 1 % */
		d = big_delta(&prev[0], &task->c[0], &est);
		ck_assert_msg(est && d > 0.9 * 200 && d < 1.1 * 200, "tick %d: %.2f", i, d);
		if (i >= BIG_THREADS)
			big_expect(prev, task, 200, i);
		memcpy(prev, task->c, sizeof(prev));
	}
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	memset(big_clock_of, 0, sizeof(big_clock_of));
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Per-thread ratios that are learned late and that change. Threads 20 to
 * 29 (2500 of the clock an epoch each) sleep through the attach, then
 * start at once: the process runs 2.4 times what its threads' rates make,
 * and is read in full once or twice, each thread with its schedstat (a
 * thread that switches less than the process's threads on the whole is
 * not taken for one that started threads); then one or two a tick again.
 * Later every thread's ratio changes, five of them up and fifteen down
 * (a thread's run time guessed too high comes back
 * to the run time not read at its next schedstat read, one guessed too
 * low leaves it; a ratio that moved is read again at the next turn). Each
 * time the count is back to 200 a tick within from turns (8 at one read a
 * tick; it swings up to three times that on the way: the guesses are
 * marked), it never falls, and at the stop it is the kernel's. Each
 * change runs turns turns.
 */
static void big_ratios(int turns, int from)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;

	for (int i = 0; i < BIG_THREADS; i++)
		big_clock_of[i] = i % 2 || i >= BIG_THREADS / 2 ? 2500 : 1000;
	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	f->frozen = ((1ull << (BIG_THREADS / 2)) - 1) << (10 + BIG_THREADS / 2);
	for (int i = 0; i < 2 + BIG_THREADS; i++)
		task = big_tick(s, &snap, f, &reads);
	fake_kernel_settle(f);
	f->frozen = 0;
	for (int round = 0; round < 2; round++) {
		int full = 0;

		memcpy(prev, task->c, sizeof(prev));
		for (int i = 0; i < turns * BIG_THREADS; i++) {
			bool est;

			task = big_tick(s, &snap, f, &reads);
			full += reads >= BIG_THREADS;
			if (round || i >= 2)
				ck_assert_int_le(reads, 2);
			if (i >= from * BIG_THREADS)
				big_expect(prev, task, 200, i);
			big_delta(&prev[0], &task->c[0], &est);
			memcpy(prev, task->c, sizeof(prev));
		}
		ck_assert_int_ge(full, !round);
		ck_assert_int_le(full, round ? 0 : 2);
		/* every thread's ratio changes: 1000 of the clock an epoch to 2500, and back */
		for (int i = 0; i < BIG_THREADS; i++)
			big_clock_of[i] = big_clock_of[i] == 1000 ? 2500 : 1000;
	}
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[0].value,
			  10ull * (BIG_THREADS / 2) * (f->epoch - 2) +
				  10ull * (BIG_THREADS / 2) * (f->epoch - 3 - BIG_THREADS));
	memset(big_clock_of, 0, sizeof(big_clock_of));
	live_test_end(s, &snap, f, &t);
}

START_TEST(test_threads_whose_ratios_are_learned_late_and_change_count_right)
{
	big_ratios(10, 8);
}
END_TEST

/*
 * The same at the pace of the reads in turn (live_opts.turn_pace 0): each
 * change of the ratios shows in the process's clock, which then runs
 * unlike its threads' rates, and the reads go back to one a tick; but the
 * pace grows again between the schedstat reads that take the new ratios,
 * so the count is back to 200 a tick within 12 turns, not 8.
 */
START_TEST(test_threads_whose_ratios_change_count_right_at_the_pace)
{
	big_pace = 0;
	big_ratios(16, 12);
	big_pace = 1;
}
END_TEST

/*
 * The threads of a big process take 2.5 times the run time for what they
 * count (a machine that got slower, or more work for each thing they
 * count): the process runs far more than its threads' rates make, so it
 * is read in full, each thread with its schedstat, until the rates are of
 * the new work, and the count is 200 a tick throughout; then one or two
 * threads a tick are read again, and each one's next read takes its ratio
 * of perf's time to its run time anew (the span of the full read had some
 * of the work before): every read of that turn reads a schedstat, and a
 * quarter of the next turn's (at turns apart again, not all in one turn
 * of four). Guessed
 * by the rates of before, the run time not read counted 2.5 times what it
 * did (500 a tick at the first, held).
 */
START_TEST(test_a_process_that_runs_far_more_than_its_rates_make_is_read_in_full)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, full = 0, last = -1, before = 0;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 2 + 2 * BIG_THREADS; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	big_clock_per = 2500;
	for (int i = 0; i < 3 * BIG_THREADS; i++) {
		bool est;
		double d;

		task = big_tick(s, &snap, f, &reads);
		full += reads >= BIG_THREADS;
		if (reads >= BIG_THREADS) {
			last = i;
			before = f->schedstat_preads[10];
		}
		if (i == last + BIG_THREADS) {
			ck_assert_int_eq(f->schedstat_preads[10] - before, BIG_THREADS);
			before = f->schedstat_preads[10];
		}
		/* then at turns apart: a quarter of the threads in the turn after */
		if (i == last + 2 * BIG_THREADS) {
			ck_assert_int_ge(f->schedstat_preads[10] - before, BIG_THREADS / 4 - 2);
			ck_assert_int_le(f->schedstat_preads[10] - before, BIG_THREADS / 4 + 2);
		}
		if (i >= 3)
			ck_assert_int_le(reads, 2);
		d = big_delta(&prev[0], &task->c[0], &est);
		ck_assert_msg(d > 0.99 * 200 && d < 1.01 * 200, "tick %d: %.2f", i, d);
		memcpy(prev, task->c, sizeof(prev));
	}
	ck_assert_int_ge(full, 1);
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	big_clock_per = 1000;
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A big process whose run time comes in bursts: one tick in 8 its threads
 * run 50 times what they run in the others. Each burst is a jump (12 in 96
 * ticks, each read in full without the limit); read in full for jumps at
 * most twice at once and then once in 16 reads, it is read in full at the
 * bursts alone, 2 + 96 / 16 times at most (7 here). Its counts never fall,
 * and at the stop they are the kernel's or over by what the guesses of the
 * bursts gave too much (held).
 */
START_TEST(test_a_process_whose_run_time_comes_in_bursts_is_read_in_full_seldom)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, full = 0;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 2 + 2 * BIG_THREADS; i++)
		task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 96; i++) {
		bool est;

		big_clock_per = i % 8 == 7 ? 5000 : 100;
		task = big_tick(s, &snap, f, &reads);
		full += reads >= BIG_THREADS;
		if (i % 8 != 7)
			ck_assert_int_le(reads, 2);
		big_delta(&prev[0], &task->c[0], &est);
		memcpy(prev, task->c, sizeof(prev));
	}
	ck_assert_int_ge(full, 6);
	ck_assert_int_le(full, 2 + 96 / 16);
	task = big_stop(s, &snap, f);
	ck_assert_uint_ge(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	big_clock_per = 1000;
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A big process whose clock is read late in a tick: the reads before it
 * took long (other processes read in full), so its clock came 300 ms after
 * the tick began, where the ticks begin 100 ms apart, and it ran 400 ms
 * worth since its clock read before, as its rates make. Weighed by the
 * ticks' times it ran four times what its rates make and was read in full
 * (each late read then made the next processes' later still: 46 of 50
 * processes in one tick beside 50 x 100 busy threads); weighed by its
 * clock reads' own times it did not jump, so it is read in turn, and its
 * guessed count is the four epochs' 800 all the same, then 200 again.
 */
START_TEST(test_a_clock_read_late_in_a_long_tick_is_no_jump)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	/* ticks 100 ms apart: the fake clock's own steps (1 us a look) are small beside them */
	for (int i = 0; i < 2 + 2 * BIG_THREADS; i++) {
		f->now_ns += 100000000;
		task = big_tick(s, &snap, f, &reads);
	}
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 8; i++) {
		bool est;
		double d, want = i == 4 ? 800 : 200;

		f->now_ns += 100000000;
		if (i == 4) {
			/* three epochs more before this tick's, their run in the clock at its late read */
			f->epoch += 3;
			for (int tid = 10; tid < 10 + BIG_THREADS; tid++) {
				big_run[tid - 10] += 3 * BIG_UNIT;
				pfs_put_schedstat(big_proc, 10, tid, big_run[tid - 10]);
			}
			f->hook_pid = 10;
			f->hook_ns = 3ull * BIG_THREADS * BIG_UNIT;
			f->hook_late_ns = 300000000;
		}
		task = big_tick(s, &snap, f, &reads);
		ck_assert_msg(reads <= 2, "tick %d: %d threads read", i, reads);
		d = big_delta(&prev[0], &task->c[0], &est);
		/* guessed for the threads not read, as a read in turn is */
		ck_assert(est);
		ck_assert_msg(d > 0.99 * want && d < 1.01 * want, "tick %d: %.2f", i, d);
		memcpy(prev, task->c, sizeof(prev));
	}
	task = big_stop(s, &snap, f);
	ck_assert_uint_eq(task->c[0].value, 10ull * BIG_THREADS * (f->epoch - 2));
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * One thread of the 20 runs, the others sleep: once the sleepers' rates
 * are known to be nil, it is read every tick besides the one in turn, so
 * the count follows it (10 a tick), while the sleepers are read in turn.
 */
START_TEST(test_the_busiest_thread_of_a_big_process_is_read_every_tick)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct snap_count prev[2];
	const struct snap_task *task;
	int reads, sleepers = 0;
	bool est;

	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	big_tick(s, &snap, f, &reads);
	big_tick(s, &snap, f, &reads);
	/* from now on thread 10 alone runs */
	fake_kernel_settle(f);
	f->frozen = ((1ull << BIG_THREADS) - 1) << 11;
	task = big_tick(s, &snap, f, &reads);
	memcpy(prev, task->c, sizeof(prev));
	for (int i = 0; i < 40; i++) {
		int r10 = f->reads_of[10];

		task = big_tick(s, &snap, f, &reads);
		/*
		 * the sleepers' last rates are of when they ran: once they are
		 * read again (one a tick, in turn), thread 10 is the busiest
		 */
		ck_assert_int_le(reads, 2);
		if (i < BIG_THREADS) {
			big_delta(&prev[0], &task->c[0], &est);
			memcpy(prev, task->c, sizeof(prev));
			continue;
		}
		ck_assert_int_eq(reads, 2);
		ck_assert_int_eq(f->reads_of[10] - r10, 1);
		sleepers += reads - 1;
		ck_assert_double_eq_tol(big_delta(&prev[0], &task->c[0], &est), 10, 0.01);
		memcpy(prev, task->c, sizeof(prev));
	}
	ck_assert_int_eq(sleepers, 40 - BIG_THREADS);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A thread read in turn keeps its schedstat file open, one descriptor
 * more; counters have the descriptors first. With room for the big
 * process's sets and files alone, a process started later finds none:
 * the files are closed at the end of that tick (and are opened for each
 * read from then on), and the new process is counted at its next try.
 * Kept, they held its room for ever.
 */
START_TEST(test_the_schedstat_files_of_threads_read_in_turn_give_way_to_counters)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl0;
	int reads, ticks, late[1] = { 40 };
	const struct snap_task *task;

	/* each thread: a set of two counters and its schedstat */
	testutil_fd_limit(LIVE_TEST_FD_RESERVE + 3 * BIG_THREADS, &rl0);
	s = big_new(&t, &f, false);
	snapshot_init(&snap, s->ev.n);
	for (int i = 0; i < 4; i++)
		big_tick(s, &snap, f, &reads);
	ck_assert_int_eq(f->nopen, 2 * BIG_THREADS);
	tree_proc(&t, 40, late, 1, 900, 100);
	task = big_tick(s, &snap, f, &reads);
	ck_assert_int_eq(find_task(&snap, 40)->err, -EMFILE);
	for (ticks = 0; ticks < 20 && find_task(&snap, 40)->err; ticks++)
		task = big_tick(s, &snap, f, &reads);
	ck_assert_int_lt(ticks, 20);
	ck_assert_int_eq(find_task(&snap, 40)->err, 0);
	/* the big process counts on, one thread read a tick */
	ck_assert_int_eq(task->err, 0);
	ck_assert_int_eq(reads, 1);
	live_test_end(s, &snap, f, &t);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
}
END_TEST

/*
 * The per-task backend reads the process clock every tick the process ran:
 * that is its CPU time (TIME+), to the clock tick, not its stat file's
 * (which walks every thread): the leader's stat is read instead, and the
 * process's own never again after the first tick, not even every 16.
 */
START_TEST(test_per_task_cpu_time_is_the_process_clock)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	int opens;

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	f->clock = true;
	f->clock_ns[10] = 20000000000ull;
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	opens = f->stat_opens[10];
	for (int i = 1; i <= 40; i++) {
		f->clock_ns[10] += 30000000; /* 3 clock ticks */
		task = tick10(s, &snap);
		ck_assert_uint_eq(task->cpu_ns, 20000000000ull + 30000000ull * (uint64_t)i);
	}
	ck_assert_int_eq(f->stat_opens[10], opens);
	ck_assert_int_ge(f->stat_preads[10], 40);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Where the kernel gives a process CPU clock, an idle process costs that one
 * call a tick: no group of any thread is read, and -H rows are not listed or
 * read either; the clock moving reads the process in full.
 */
START_TEST(test_the_process_cpu_clock_gates_the_reads_of_all_its_threads)
{
	static const int tids[] = { 10, 11, 12 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	uint64_t tc, th11;
	int reads, preads;

	tree_init(&t);
	tree_proc(&t, 10, tids, 3, 100, 800);
	f = fake_new();
	f->clock = true;
	f->clock_ns[10] = 5000;
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	tick10(s, &snap);
	task = tick10(s, &snap);
	/* the threads are idle; the clock stands */
	f->frozen = 1ull << 10 | 1ull << 11 | 1ull << 12;
	task = tick10(s, &snap);
	tc = task->c[0].value;
	reads = f->reads_of[10] + f->reads_of[11] + f->reads_of[12];
	preads = f->stat_preads[10];
	for (int i = 0; i < 10; i++) {
		task = tick10(s, &snap);
		ck_assert_uint_eq(task->c[0].value, tc);
		ck_assert_int_eq(task->c[0].err, 0);
	}
	ck_assert_int_ge(f->clock_reads[10], 10);
	/* not one group read, not one stat read */
	ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] + f->reads_of[12] - reads, 0);
	ck_assert_int_eq(f->stat_preads[10] - preads, 0);
	/* the clock moves (thread 11 ran): read in full, and the counts move */
	f->frozen = 1ull << 10 | 1ull << 12;
	f->clock_ns[10] += 1000;
	task = tick10(s, &snap);
	ck_assert_uint_gt(task->c[0].value, tc);
	ck_assert_int_eq(f->stat_preads[10] - preads, 1);
	ck_assert_int_gt(f->reads_of[11] + f->reads_of[10] + f->reads_of[12] - reads, 0);
	tc = task->c[0].value;
	/*
	 * it stands again: its stat is read every 16 ticks (a parent may die),
	 * its counters not once
	 */
	tick10(s, &snap);
	preads = f->stat_preads[10];
	reads = f->reads_of[10] + f->reads_of[11] + f->reads_of[12];
	for (int i = 0; i < 34; i++)
		ck_assert_uint_eq(tick10(s, &snap)->c[0].value, tc);
	ck_assert_int_eq(f->stat_preads[10] - preads, 2);
	ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] + f->reads_of[12] - reads, 0);

	/* per-thread rows: an idle process's rows come back as they were, unread */
	for (int i = 0; i < 3; i++) {
		char path[512], text[160];

		snprintf(path, sizeof(path), "%s/10/task/%d/stat", t.proc, tids[i]);
		snprintf(text, sizeof(text),
			 "%d (w%d) S 1 10 10 0 -1 4194304 5 0 0 0 50 0 0 0 20 0 3 0 100 1000 100 "
			 "0\n",
			 tids[i], tids[i]);
		put(path, text);
	}
	source_threads(s, 0, true);
	tick10(s, &snap);
	f->frozen = 0;
	f->clock_ns[10] += 1000;
	tick10(s, &snap);
	tick10(s, &snap);
	f->frozen = 1ull << 10 | 1ull << 11 | 1ull << 12;
	f->clock_ns[10] += 1000;
	tick10(s, &snap);
	ck_assert_ptr_nonnull(snapshot_find_thread(&snap, 11));
	th11 = snapshot_find_thread(&snap, 11)->c[0].value;
	reads = f->reads_of[10] + f->reads_of[11] + f->reads_of[12];
	for (int i = 0; i < 5; i++) {
		const struct snap_task *e;

		tick10(s, &snap);
		ck_assert_uint_eq(snap.nthreads, 3);
		e = snapshot_find_thread(&snap, 11);
		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(e->c[0].err, 0);
		ck_assert_uint_eq(e->c[0].value, th11);
	}
	ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] + f->reads_of[12] - reads, 0);
	/* a thread that ran moves the clock, and its row its counts */
	f->frozen = 1ull << 10 | 1ull << 12;
	f->clock_ns[10] += 1000;
	tick10(s, &snap);
	ck_assert_uint_gt(snapshot_find_thread(&snap, 11)->c[0].value, th11);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_an_idle_process_is_still_read_in_full_every_16_ticks_and_with_read_all)
{
	static const int tids[] = { 10 };
	struct tree t;
	struct fake_kernel *f;
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	struct snapshot snap;
	char err[512];
	int preads;

	tree_init(&t);
	tree_proc(&t, 10, tids, 1, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	tick10(s, &snap);
	f->frozen = 1ull << 10;
	preads = f->stat_preads[10];
	for (int i = 0; i < 34; i++)
		tick10(s, &snap);
	/* 16 idle ticks, then a full read: its stat again, for a parent that may have died */
	ck_assert_int_eq(f->stat_preads[10] - preads, 2);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(f->nopen, 0);

	/* --read-all: every tick in full */
	fake_kernel_free(f);
	f = fake_new();
	f->frozen = 1ull << 10;
	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t.proc;
	o.sysfs_root = t.sys;
	o.ops = &f->ops;
	o.read_all = true;
	s = source_live_new(&ev, &o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	evlist_release(&ev);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	preads = f->stat_preads[10];
	for (int i = 0; i < 5; i++)
		tick10(s, &snap);
	ck_assert_int_eq(f->stat_preads[10] - preads, 5);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_a_kernel_with_inherit_thread_gets_it_on_every_inherited_group)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;

	tree_init(&t);
	tree_proc(&t, 10, T10, 1, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->opens_inherit_thread = 0;
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(find_task(&snap, 10)->err, 0);
	ck_assert_int_eq(f->opens_inherit_thread, 2);
	ck_assert_uint_eq(count_facts(s, FACT_NO_INHERIT_THREAD, 0, NULL), 0);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* With thread rows, a thread's counts of the interval in which it exits stay in that frame. */
START_TEST(test_a_thread_that_exits_shows_its_final_counts_once)
{
	static const int tids[] = { 13, 14 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *e;
	uint64_t before;
	char path[512];

	tree_init(&t);
	tree_proc(&t, 13, tids, 2, 100, 100);
	snprintf(path, sizeof(path), "%s/13/task/14/stat", t.proc);
	put(path, "14 (worker) R 1 13 13 0 -1 4194304 5 0 0 0 50 0 0 0 20 0 2 0 100 1000 100 0\n");
	snprintf(path, sizeof(path), "%s/13/task/13/stat", t.proc);
	put(path, "13 (work13) S 1 13 13 0 -1 4194304 5 0 0 0 50 0 0 0 20 0 2 0 100 1000 100 0\n");
	f = fake_new();
	s = live_new(&t, f, false, false);
	source_threads(s, 0, true);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.nthreads, 2);
	e = snapshot_find_thread(&snap, 14);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->c[0].err, 0);
	before = e->c[0].value;
	/* 14 exits: its fds keep the final counts */
	snprintf(path, sizeof(path), "rm -r '%s/13/task/14'", t.proc);
	ck_assert_int_eq(system(path), 0);
	ck_assert_int_eq(source_read(s, &snap), 0);
	e = snapshot_find_thread(&snap, 14);
	ck_assert_msg(e != NULL, "the exiting thread's last counts were dropped");
	ck_assert_int_eq(e->err, 0);
	ck_assert_int_eq(e->c[0].err, 0);
	ck_assert_uint_gt(e->c[0].value, before);
	ck_assert_int_eq(e->state, 'X');
	ck_assert_str_eq(e->comm, "worker");
	ck_assert_int_eq(e->tgid, 13);
	/* shown once, then gone with its descriptors */
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_ptr_null(snapshot_find_thread(&snap, 14));
	ck_assert_ptr_nonnull(snapshot_find_thread(&snap, 13));
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_cpus_follow_the_online_map_of_the_sysfs_root)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct fact *fact = NULL;
	int on1 = 0;

	tree_init(&t);
	f = fake_new();
	s = live_new(&t, f, false, true);
	for (int i = 0; i < f->nev; i++)
		on1 += f->ev[i].open && f->ev[i].cpu == 1;
	ck_assert_int_eq(on1, 1); /* task-clock is not counted per CPU */
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.ncpus, 2);
	ck_assert_int_eq(snap.cpus[1].c[1].err, 0);
	tree_online(&t, "0\n");
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(count_facts(s, FACT_CPU_OFFLINE, 0, &fact), 1);
	ck_assert_int_eq(fact->cpu.cpu, 1);
	ck_assert(said(s, "CPU 1 went offline"));
	ck_assert_int_eq(snap.cpus[1].c[1].err, -ENOENT);
	tree_online(&t, "0-1\n");
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(count_facts(s, FACT_CPU_ONLINE, 0, &fact), 1);
	ck_assert_int_eq(fact->cpu.cpu, 1);
	ck_assert(said(s, "CPU 1 is online: counting it again"));
	ck_assert_int_eq(snap.cpus[1].c[1].err, 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A machine of 1500 CPUs and 12000 interrupts: /proc/stat is some 160 KiB,
 * and every CPU's line is read whole, the last one too.
 */
START_TEST(test_cpus_past_64_kib_of_proc_stat)
{
	enum { NCPU = 1500, NIRQ = 12000 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	size_t size = 4096 + NCPU * 64 + NIRQ * 12, len;
	char *text = malloc(size), path[512];

	ck_assert_ptr_nonnull(text);
	tree_init(&t);
	len = (size_t)snprintf(text, size, "cpu  1 0 1 1 0 0 0 0 0 0\n");
	/* each CPU's numbers long enough that one cut short would be smaller */
	for (int c = 0; c < NCPU; c++)
		len += (size_t)snprintf(text + len, size - len,
					"cpu%d 1000000%d 0 2000000 3000000000 4000000 0 0 0 0 0\n",
					c, c % 10);
	len += (size_t)snprintf(text + len, size - len, "intr 123456789");
	for (int i = 0; i < NIRQ; i++)
		len += (size_t)snprintf(text + len, size - len, " %d", i);
	snprintf(text + len, size - len, "\nctxt 999\n");
	ck_assert_uint_gt(strlen(text), 2 * 65536);
	snprintf(path, sizeof(path), "%s/stat", t.proc);
	put(path, text);
	tree_online(&t, "0-1499\n");
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.ncpus, NCPU);
	for (size_t i = 0; i < snap.ncpus; i++) {
		unsigned long long busy = 10000000ull + (unsigned long long)(snap.cpus[i].cpu % 10);

		busy += 2000000;
		ck_assert_uint_eq(snap.cpus[i].busy, busy);
		ck_assert_uint_eq(snap.cpus[i].total, busy + 3000000000ull + 4000000);
	}
	ck_assert_int_eq(snap.cpus[NCPU - 1].cpu, NCPU - 1);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
	free(text);
}
END_TEST

/* A cgroup v2 hierarchy in the fixture: mountinfo names a directory tree made here. */
static void tree_cgroups(struct tree *t, char *mnt, size_t size)
{
	static const char *const DIRS[] = { "", "/a", "/b", "/a/deep" };
	char path[512], text[1024];

	snprintf(mnt, size, "%s/cg", t->dir);
	for (size_t i = 0; i < sizeof(DIRS) / sizeof(DIRS[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", mnt, DIRS[i]);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	tree_mkdir(t->proc, "/self", 0, 0);
	snprintf(path, sizeof(path), "%s/self/mountinfo", t->proc);
	snprintf(text, sizeof(text),
		 "22 1 0:21 / /sys rw - sysfs sysfs rw\n"
		 "40 30 0:37 / %s rw,relatime shared:9 - cgroup2 cgroup2 rw\n",
		 mnt);
	put(path, text);
}

static struct source *live_cgroups_new(struct tree *t, struct fake_kernel *f,
				       const char *const *named, size_t nnamed, bool no_tasks,
				       char *err, size_t errsize)
{
	struct evlist ev;
	struct live_opts o;
	struct source *s;

	evlist_init(&ev);
	evlist_add(&ev, "task-clock", 0, false, false);
	evlist_add(&ev, "page-faults", 0, false, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t->proc;
	o.sysfs_root = t->sys;
	o.ops = &f->ops;
	o.cgroups = true;
	o.cgroups_required = true;
	o.cgroup_depth = 1;
	o.cgroup_paths = named;
	o.ncgroup_paths = nnamed;
	o.no_tasks = no_tasks;
	s = source_live_new(&ev, &o, err, errsize);
	evlist_release(&ev);
	return s;
}

START_TEST(test_cgroups_are_counted_per_cpu_on_their_directories)
{
	static const char *const NAMED[] = { "a/deep", "/nothere" };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char mnt[300], path[600], err[512];
	const struct snap_cgroup *g;
	int tids[] = { 10 };
	int before;

	tree_init(&t);
	f = fake_new();
	tree_cgroups(&t, mnt, sizeof(mnt));
	tree_proc(&t, 10, tids, 1, 5, 1);
	snprintf(path, sizeof(path), "%s/10/cgroup", t.proc);
	put(path, "4:memory:/x\n0::/a/deep\n");
	s = live_cgroups_new(&t, f, NAMED, 2, false, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert(snap.cg.on);
	/* the top level, and the one named below it; the missing one is said once */
	ck_assert_uint_eq(snap.cg.n, 3);
	ck_assert_str_eq(snap.cg.v[0].path, "/a");
	ck_assert_str_eq(snap.cg.v[1].path, "/a/deep");
	ck_assert_str_eq(snap.cg.v[2].path, "/b");
	ck_assert_uint_eq(count_facts(s, FACT_CGROUP_MISSING, 0, NULL), 1);
	/* one group of two events per CPU per cgroup: 3 x 2 x 2 descriptors */
	ck_assert_int_eq(f->cgroup_opens, 12);
	ck_assert_uint_eq(snap.cg.fds, 12);
	ck_assert_uint_eq(count_facts(s, FACT_CGROUP_COST, 0, NULL), 1);
	/* each CPU's group read once: 10 per read, summed over the two CPUs; times too */
	g = snapshot_find_cgroup(&snap, "/b");
	ck_assert_int_eq(g->err, 0);
	ck_assert_uint_eq(g->c[0].value, 20);
	ck_assert_uint_eq(g->c[0].enabled, 2000);
	ck_assert_uint_eq(g->c[1].running, 2000);
	ck_assert_str_eq(find_task(&snap, 10)->cgroup, "/a/deep");
	/* b removed, c made: b's descriptors go back, c gets its own, no error */
	snprintf(path, sizeof(path), "%s/b", mnt);
	ck_assert_int_eq(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/c", mnt);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	before = f->nopen;
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.cg.n, 3);
	ck_assert_ptr_null(snapshot_find_cgroup(&snap, "/b"));
	ck_assert_ptr_nonnull(snapshot_find_cgroup(&snap, "/c"));
	ck_assert_int_eq(f->nopen, before); /* 4 closed, 4 opened */
	ck_assert_uint_eq(snap.cg.fds, 12);
	ck_assert_uint_eq(count_facts(s, FACT_CGROUPS, 0, NULL), 0);
	/* a cgroup kept from tick to tick is not reopened: its counts go on */
	ck_assert_uint_eq(snapshot_find_cgroup(&snap, "/a")->c[1].value, 40);
	ck_assert_int_eq(f->cgroup_opens, 16);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_cgroups_without_permission_or_hierarchy)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char mnt[300], path[600], err[512];
	const struct fact *fact = NULL;

	tree_init(&t);
	f = fake_new();
	/* no cgroup2 line: asked for, it is an error naming mountinfo */
	tree_mkdir(t.proc, "/self", 0, 0);
	snprintf(path, sizeof(path), "%s/self/mountinfo", t.proc);
	put(path, "22 1 0:21 / /sys rw - sysfs sysfs rw\n");
	ck_assert_ptr_null(live_cgroups_new(&t, f, NULL, 0, true, err, sizeof(err)));
	ck_assert_msg(strstr(err, "no cgroup v2 hierarchy is mounted") && strstr(err, "mountinfo"),
		      "%s", err);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);

	tree_init(&t);
	fake_kernel_free(f);
	f = fake_new();
	tree_cgroups(&t, mnt, sizeof(mnt));
	f->cgroup_err = -EACCES;
	s = live_cgroups_new(&t, f, NULL, 0, true, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(snap.cg.n, 2);
	ck_assert_int_eq(snap.cg.v[0].err, -EACCES);
	ck_assert_int_eq(snap.cg.v[0].c[1].err, -EACCES);
	ck_assert_uint_eq(snap.cg.fds, 0);
	ck_assert_uint_eq(snap.ntasks, 0); /* no_tasks: no processes looked at */
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_uint_eq(count_facts(s, FACT_CGROUPS, -EACCES, &fact), 1);
	ck_assert(said(s, "cgroups cannot be counted"));
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_per_cpu_eacces_is_said_once_with_the_advice)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;

	tree_init(&t);
	f = fake_new();
	f->cpu_err = -EACCES;
	s = live_new(&t, f, false, true);
	ck_assert_uint_eq(count_facts(s, FACT_CPUS, -EACCES, NULL), 1);
	ck_assert(said(s, "per-core counters: kernel.perf_event_paranoid is 2"));
	snapshot_init(&snap, s->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(snap.cpus[0].c[1].err, -EACCES);
	ck_assert_uint_eq(count_facts(s, FACT_CPUS, 0, NULL), 1);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* Write the stat file of thread tid of pid, with its CPU ticks. */
static void tree_thread_stat(struct tree *t, int pid, int tid, unsigned long long ticks)
{
	char path[512], text[512];

	snprintf(path, sizeof(path), "%s/%d/task/%d/stat", t->proc, pid, tid);
	snprintf(text, sizeof(text),
		 "%d (work%d) S 1 %d %d 0 -1 4194304 5 0 0 0 %llu 0 0 0 20 0 1 0 100 1000 100 0\n",
		 tid, pid, pid, pid, ticks);
	put(path, text);
}

START_TEST(test_sim_groups_open_and_read_the_software_set_as_n_groups_and_count_it_once)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f, *g;
	struct source *s, *plain;
	struct snapshot snap, ref;
	int reads;

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	g = fake_new();
	plain = live_new(&t, g, false, false);
	setenv("PMCTOP_SIM_GROUPS", "3", 1);
	s = live_new(&t, f, false, false);
	unsetenv("PMCTOP_SIM_GROUPS");
	snapshot_init(&snap, s->ev.n);
	snapshot_init(&ref, plain->ev.n);
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(source_read(plain, &ref), 0);
	/* per thread: the set of 2 events, then 2 groups of 2 copies: 6 descriptors, 3 groups */
	ck_assert_int_eq(f->opens_of[10], 6);
	ck_assert_int_eq(f->opens_of[11], 6);
	ck_assert_int_eq(g->opens_of[10], 2);
	reads = f->reads_of[10];
	ck_assert_int_eq(source_read(s, &snap), 0);
	ck_assert_int_eq(source_read(plain, &ref), 0);
	ck_assert_int_eq(f->reads_of[10] - reads, 3);
	/* the copies are read, never added: the counts are the plain layout's */
	for (int e = 0; e < 2; e++) {
		ck_assert_int_eq(find_task(&snap, 10)->c[e].err, 0);
		ck_assert_uint_eq(find_task(&snap, 10)->c[e].value,
				  find_task(&ref, 10)->c[e].value);
		ck_assert_uint_eq(find_task(&snap, 10)->c[e].enabled,
				  find_task(&ref, 10)->c[e].enabled);
	}
	snapshot_release(&snap);
	snapshot_release(&ref);
	source_free(s);
	source_free(plain);
	ck_assert_int_eq(f->nopen, 0);
	ck_assert_int_eq(g->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);
	fake_kernel_free(g);
}
END_TEST

START_TEST(test_a_running_process_reads_each_group_once_a_tick_the_gate_read_is_reused)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	uint64_t last = 0;

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	tick10(s, &snap);
	for (int i = 0; i < 10; i++) {
		int reads = f->reads_of[10] + f->reads_of[11];
		const struct snap_task *task;

		/*
		 * from the sixth tick the stat read between the gate reads and the
		 * sums is slow (0.3 ms, as under a lock): the reads stay as they are
		 */
		if (i == 5) {
			f->read_ns = 5000;
			f->pread_ns = 300000;
		}
		task = tick10(s, &snap);
		/* one group per thread, read once: by the gate, its read then summed */
		ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] - reads, 2);
		ck_assert_int_eq(task->c[0].err, 0);
		ck_assert_uint_gt(task->c[0].value, last);
		last = task->c[0].value;
	}
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* Threads 10-19 of process 10, of so many ticks of CPU each (15 and 17 the busiest). */
static const int TIDS10[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };

/* The fixture of process 10 of ten threads of unequal CPU time, and process 20 of one. */
static void tree_ten_threads(struct tree *t)
{
	static const unsigned long long busy[] = { 0, 5, 1, 7, 2, 900, 3, 800, 4, 6 };

	tree_init(t);
	tree_proc(t, 10, TIDS10, 10, 100, 1721);
	tree_proc(t, 20, T20, 1, 100, 10);
	for (int i = 0; i < 10; i++)
		tree_thread_stat(t, 10, TIDS10[i], busy[i]);
}

/*
 * The descriptors its caller keeps (the exporter's 65) are not the
 * counters': with 65 more allowed and 65 kept, the process of 10 threads
 * fits 6, as with neither.
 */
START_TEST(test_the_descriptors_the_caller_keeps_are_left_out_of_the_budget)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl, rl0;
	const struct fact *fact = NULL;

	tree_ten_threads(&t);
	for (int keep = 0; keep <= 1; keep++) {
		f = fake_new();
		ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
		rl0 = rl;
		/* 38 with nothing kept: 14 for counters (as above); 103, 65 of them kept: 14 again */
		rl.rlim_cur = 38 + (keep ? 65 : 0);
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
		live_new_keep = keep ? 65 : 0;
		s = live_new(&t, f, false, false);
		live_new_keep = 0;
		snapshot_init(&snap, s->ev.n);
		tick10(s, &snap);
		ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, 0, &fact), 1);
		ck_assert_int_eq(fact->partial.counted, 6);
		snapshot_release(&snap);
		source_free(s);
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
		ck_assert_int_eq(f->nopen, 0);
		fake_kernel_free(f);
	}
	tree_free(&t);
}
END_TEST

START_TEST(test_a_process_whose_threads_do_not_fit_counts_its_busiest_once_and_says_so)
{
	const int *tids = TIDS10;
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl, rl0;
	const struct snap_task *task;
	const struct fact *fact = NULL;
	int opens = 0;

	tree_ten_threads(&t);
	f = fake_new();
	/* 38 descriptors, 14 of them for counters: 7 sets of 2 events for 10 threads */
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl0 = rl;
	rl.rlim_cur = 38;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	task = tick10(s, &snap);
	/*
	 * what is left less a set for process 20, attached after it: the main thread and the
	 * five busiest, not the four idlest (12, 14, 16, 18)
	 */
	ck_assert_int_eq(f->opens_of[20], 2);
	ck_assert_int_eq(find_task(&snap, 20)->err, 0);
	for (int i = 0; i < 10; i++) {
		int want = tids[i] == 12 || tids[i] == 14 || tids[i] == 16 || tids[i] == 18 ? 0 : 2;

		ck_assert_msg(f->opens_of[tids[i]] == want, "thread %d: %d opens", tids[i],
			      f->opens_of[tids[i]]);
		opens += f->opens_of[tids[i]];
	}
	ck_assert_int_eq(task->err, 0);
	ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, 0, &fact), 1);
	ck_assert_int_eq(fact->partial.pid, 10);
	ck_assert_int_eq(fact->partial.counted, 6);
	ck_assert_int_eq(fact->partial.total, 10);
	ck_assert(said(s, "'work10' (pid 10) has 10 threads and the file descriptors left fit 6"));
	/* the process used 100 more ticks of CPU: its counts are scaled to that time, marked */
	tree_proc(&t, 10, tids, 10, 100, 1821);
	for (int i = 0; i < 5; i++) {
		task = tick10(s, &snap);
		ck_assert_int_eq(task->err, 0);
		for (int e = 0; e < 2; e++) {
			ck_assert_int_eq(task->c[e].err, 0);
			ck_assert_uint_lt(task->c[e].running, task->c[e].enabled);
			ck_assert_uint_ge(task->c[e].enabled,
					  100ull *
						  (1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK)));
		}
	}
	/* never attached again, nor said again */
	for (int i = 0; i < 10; i++)
		opens -= f->opens_of[tids[i]];
	ck_assert_int_eq(opens, 0);
	ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, 0, NULL), 1);
	snapshot_release(&snap);
	source_free(s);
	/* the limit back, should the tests share a process (CK_FORK=no) */
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/*
 * A partial process is read in full every tick, but its CPU time is its clock
 * all the same: its own stat file (a walk of every thread) is not opened
 * each tick besides its leader's.
 */
START_TEST(test_a_partial_process_takes_its_cpu_time_from_its_clock)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl0;
	const struct snap_task *task;
	int opens;

	tree_ten_threads(&t);
	f = fake_new();
	f->clock = true;
	f->clock_ns[10] = 20000000000ull;
	/* 39: 6 sets of the 10 threads' fit, and the stat file is kept open */
	testutil_fd_limit(39, &rl0);
	s = live_new(&t, f, false, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	tick10(s, &snap);
	ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, 0, NULL), 1);
	ck_assert_int_gt(f->stat_preads[10], 0);
	opens = f->stat_opens[10];
	for (int i = 1; i <= 10; i++) {
		f->clock_ns[10] += 30000000;
		task = tick10(s, &snap);
		ck_assert_int_eq(task->err, 0);
		ck_assert_uint_eq(task->cpu_ns, 20000000000ull + 30000000ull * (uint64_t)i);
	}
	ck_assert_int_eq(f->stat_opens[10], opens);
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_attaching_spreads_over_ticks_busiest_first_and_the_rest_are_not_counted_yet)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	size_t attached = 0, ticks = 0;

	tree_init(&t);
	/* 40 processes, 20 to 59, the higher the busier; 2 opens of 5 ms each to attach one */
	for (int pid = 20; pid < 60; pid++) {
		int tid = pid;

		tree_proc(&t, pid, &tid, 1, 100, (unsigned long long)pid * 10);
	}
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->open_ns = 5000000;
	snapshot_init(&snap, s->ev.n);
	while (attached < 40) {
		size_t now = 0;
		int lowest = 60;

		ck_assert_int_eq(source_read(s, &snap), 0);
		ticks++;
		ck_assert_uint_eq(snap.ntasks, 40);
		for (size_t i = 0; i < snap.ntasks; i++) {
			const struct snap_task *task = &snap.tasks[i];

			if (task->err == 0) {
				now++;
				if (task->pid < lowest)
					lowest = task->pid;
				continue;
			}
			/* shown from /proc, its counts not attached yet: never a 0 */
			ck_assert_int_eq(task->err, -EINPROGRESS);
			for (size_t e = 0; e < s->ev.n; e++)
				ck_assert_int_eq(task->c[e].err, -EINPROGRESS);
			ck_assert_uint_gt(task->cpu_ns, 0);
		}
		/* at least one more each tick, and the busiest ones */
		ck_assert_uint_gt(now, attached);
		ck_assert_int_eq(lowest, 60 - (int)now);
		attached = now;
	}
	/* 400 ms of opens do not fit one tick's 40 ms */
	ck_assert_uint_gt(ticks, 1);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_thread_rows_that_did_not_run_are_not_read_again)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	int reads;
	uint64_t v11 = 0, tick_ns = 1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK);

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	tree_thread_stat(&t, 10, 10, 500);
	tree_thread_stat(&t, 10, 11, 300);
	f = fake_new();
	s = live_new(&t, f, false, false);
	source_threads(s, 10, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	tick10(s, &snap);
	ck_assert_uint_eq(snap.nthreads, 2);
	f->frozen = 1ull << 10 | 1ull << 11;
	tick10(s, &snap);
	reads = f->reads_of[10] + f->reads_of[11];
	/* its stat file is not read while it does not run: what it says now is not seen */
	tree_thread_stat(&t, 10, 11, 999);
	for (int i = 0; i < 5; i++) {
		tick10(s, &snap);
		ck_assert_uint_eq(snap.nthreads, 2);
		for (size_t k = 0; k < snap.nthreads; k++) {
			ck_assert_int_eq(snap.threads[k].err, 0);
			ck_assert_uint_gt(snap.threads[k].c[0].value, 0);
			if (snap.threads[k].pid == 11) {
				ck_assert(!v11 || snap.threads[k].c[0].value == v11);
				v11 = snap.threads[k].c[0].value;
				ck_assert_uint_eq(snap.threads[k].cpu_ns, 300 * tick_ns);
			}
		}
	}
	/* a tick: the process's gate group per thread, and each thread row's gate group */
	ck_assert_int_eq(f->reads_of[10] + f->reads_of[11] - reads, 5 * 4);
	/* it runs: read in full, its stat too */
	f->frozen = 1ull << 10;
	tick10(s, &snap);
	for (size_t k = 0; k < snap.nthreads; k++)
		if (snap.threads[k].pid == 11) {
			ck_assert_uint_gt(snap.threads[k].c[0].value, v11);
			ck_assert_uint_eq(snap.threads[k].cpu_ns, 999 * tick_ns);
		}
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_a_process_of_many_threads_is_attached_over_several_ticks_each_thread_once)
{
	static int tids[200];
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	int ticks = 0, opens = 0;

	tree_init(&t);
	for (int i = 0; i < 200; i++)
		tids[i] = 10 + i;
	tree_proc(&t, 10, tids, 200, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	/* 200 threads of 2 events at 1 ms an open: 400 ms, past a tick's 40 ms of attaching */
	f->open_ns = 1000000;
	snapshot_init(&snap, s->ev.n);
	do {
		task = tick10(s, &snap);
		ticks++;
		if (task->err) {
			ck_assert_int_eq(task->err, -EINPROGRESS);
			ck_assert_int_eq(task->c[0].err, -EINPROGRESS);
		}
	} while (task->err && ticks < 20);
	ck_assert_int_gt(ticks, 1);
	/* at least 64 threads a tick: done within 4 ticks, each thread opened once */
	ck_assert_int_le(ticks, 4);
	for (int i = 0; i < 200 && tids[i] < 64; i++)
		opens += f->opens_of[tids[i]];
	ck_assert_int_eq(opens, 2 * 54);
	ck_assert_int_eq(f->nopen, 400);
	ck_assert_int_eq(task->c[0].err, 0);
	ck_assert_int_eq(task->c[1].err, 0);
	task = tick10(s, &snap);
	ck_assert_uint_gt(task->c[0].value, 0);
	ck_assert_int_eq(f->nopen, 400);
	/* no thread started meanwhile: every thread counted, nothing estimated */
	ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, 0, NULL), 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Threads started while an attach goes on over several ticks may come from a
 * thread not attached yet, so not counted: the process is then estimated, said once.
 */
START_TEST(test_threads_started_during_an_attach_over_several_ticks_make_it_an_estimate)
{
	static int tids[210];
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *task;
	const struct fact *fact = NULL;
	int ticks = 0;

	tree_init(&t);
	for (int i = 0; i < 210; i++)
		tids[i] = 10 + i;
	tree_proc(&t, 10, tids, 200, 100, 800);
	f = fake_new();
	s = live_new(&t, f, false, false);
	f->open_ns = 1000000; /* 400 ms of opens: several ticks */
	snapshot_init(&snap, s->ev.n);
	task = tick10(s, &snap);
	ck_assert_int_eq(task->err, -EINPROGRESS);
	/* ten threads more, started by threads still waiting for their counters */
	tree_proc(&t, 10, tids, 210, 100, 900);
	do {
		task = tick10(s, &snap);
		ticks++;
	} while (task->err && ticks < 20);
	ck_assert_int_eq(task->err, 0);
	/* the ten were not in the list being attached: they are not opened */
	ck_assert_int_eq(f->nopen, 400);
	ck_assert_uint_eq(count_facts(s, FACT_PARTIAL, -EINPROGRESS, &fact), 1);
	ck_assert_int_eq(fact->partial.pid, 10);
	ck_assert_int_eq(fact->partial.counted, 200);
	ck_assert_int_eq(fact->partial.total, 210);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* A thread's sched file as the kernel writes it: run time in ms with six decimals. */
static void tree_sched(const char *dir, int pid, int tid, unsigned long long sw,
		       unsigned long long mig, unsigned long long run_ns)
{
	char path[512], text[2048];

	if (tid)
		snprintf(path, sizeof(path), "%s/%d/task/%d/sched", dir, pid, tid);
	else
		snprintf(path, sizeof(path), "%s/self/sched", dir);
	snprintf(text, sizeof(text),
		 "work (%d, #threads: 2)\n"
		 "-------------------------------------------------------------------\n"
		 "se.exec_start                                :      34681785.422826\n"
		 "se.vruntime                                  :          1545.666411\n"
		 "se.sum_exec_runtime                          :    %12llu.%06llu\n"
		 "se.nr_migrations                             :             %8llu\n"
		 "nr_switches                                  :             %8llu\n"
		 "nr_voluntary_switches                        :             %8llu\n"
		 "nr_involuntary_switches                      :                    0\n"
		 "se.load.weight                               :              1048576\n",
		 tid, run_ns / 1000000, run_ns % 1000000, mig, sw, sw);
	put(path, text);
}

/* PID/stat (tid 0) or PID/task/TID/stat with faults and CPU ticks. */
static void tree_faults(const char *dir, int pid, int tid, unsigned long long minflt,
			unsigned long long majflt, unsigned long long ticks)
{
	char path[512], text[512];

	if (tid)
		snprintf(path, sizeof(path), "%s/%d/task/%d/stat", dir, pid, tid);
	else
		snprintf(path, sizeof(path), "%s/%d/stat", dir, pid);
	snprintf(text, sizeof(text),
		 "%d (work%d) S 1 %d %d 0 -1 4194304 %llu 0 %llu 0 %llu 0 0 0 20 0 2 0 100 "
		 "1000 100 0\n",
		 tid ? tid : pid, pid, pid, pid, minflt, majflt, ticks);
	put(path, text);
}

static const char *const PFS_EVENTS[] = { "task-clock",	    "page-faults",  "context-switches",
					  "cpu-migrations", "minor-faults", "major-faults" };
enum { PFS_TC, PFS_PF, PFS_CS, PFS_MIG, PFS_MIN, PFS_MAJ, PFS_N };

/* A live source on the fixture counting the software set, choosing as told; NULL with err. */
static struct source *pfs_new(struct tree *t, struct fake_kernel *f, enum live_task_counts how,
			      const char *extra, char *err, size_t errsize, bool *usage)
{
	struct evlist ev;
	struct live_opts o;
	struct source *s;

	evlist_init(&ev);
	for (int i = 0; i < PFS_N; i++)
		evlist_add(&ev, PFS_EVENTS[i], 0, false, false);
	if (extra)
		evlist_add(&ev, extra, 0, true, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t->proc;
	o.sysfs_root = t->sys;
	o.ops = &f->ops;
	o.per_cpu = true;
	o.task_counts = how;
	o.usage_err = usage;
	s = source_live_new(&ev, &o, err, errsize);
	evlist_release(&ev);
	return s;
}

/* The fixture for proc counting: process 10 with threads 10 and 11, and a kernel with sched files. */
static struct fake_kernel *pfs_tree(struct tree *t)
{
	static const int tids[] = { 10, 11 };
	struct fake_kernel *f;

	tree_init(t);
	tree_proc(t, 10, tids, 2, 100, 800);
	tree_mkdir(t->proc, "/self", 0, 0);
	tree_sched(t->proc, 0, 0, 0, 0, 0);
	tree_sched(t->proc, 10, 10, 100, 10, 5000000);
	tree_sched(t->proc, 10, 11, 200, 20, 7000000);
	tree_faults(t->proc, 10, 0, 1000, 10, 800);
	tree_faults(t->proc, 10, 10, 600, 4, 500);
	tree_faults(t->proc, 10, 11, 400, 6, 300);
	f = fake_new();
	f->clock = true;
	f->clock_ns[10] = 50000000;
	return f;
}

static void pfs_exact(const struct snap_task *p, int e)
{
	ck_assert_int_eq(p->c[e].err, 0);
	ck_assert_uint_gt(p->c[e].enabled, 0);
	ck_assert_uint_eq(p->c[e].running, p->c[e].enabled);
}

START_TEST(test_proc_counting_sums_threads_by_tid_skips_the_idle_and_opens_no_task_event)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	char err[512];
	uint64_t run0, en0;
	int opens;

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_msg(strstr(s->mode, "task counts from /proc (no per-task events)"), "%s",
		      s->mode);
	ck_assert(source_live_mode(s)->proc);
	snapshot_init(&snap, s->ev.n);
	p = tick10(s, &snap);
	/* counted from the first read: nothing yet, and no attach to wait for */
	ck_assert_int_eq(p->err, 0);
	for (int e = 0; e < PFS_N; e++) {
		ck_assert_int_eq(p->c[e].err, 0);
		ck_assert_uint_eq(p->c[e].value, 0);
	}
	ck_assert_int_eq(f->sched_opens[10], 2);
	ck_assert_int_eq(f->sched_preads[10], 2);
	/* it ran: 3 ms more, switches and migrations on both threads, faults in its stat */
	f->clock_ns[10] += 3000000;
	tree_sched(t.proc, 10, 10, 105, 11, 6000000);
	tree_sched(t.proc, 10, 11, 207, 22, 9000000);
	tree_faults(t.proc, 10, 0, 1100, 12, 801);
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_TC].value, 3000000);
	ck_assert_uint_eq(p->c[PFS_CS].value, 12);
	ck_assert_uint_eq(p->c[PFS_MIG].value, 3);
	ck_assert_uint_eq(p->c[PFS_PF].value, 102);
	ck_assert_uint_eq(p->c[PFS_MIN].value, 100);
	ck_assert_uint_eq(p->c[PFS_MAJ].value, 2);
	for (int e = 0; e < PFS_N; e++)
		pfs_exact(p, e);
	/* kept open: read again without a path walk */
	ck_assert_int_eq(f->sched_opens[10], 2);
	ck_assert_int_eq(f->sched_preads[10], 4);
	/* its clock did not move: no thread file is read, what they say now is not seen */
	tree_sched(t.proc, 10, 10, 999, 99, 9000000);
	for (int i = 0; i < 3; i++) {
		p = tick10(s, &snap);
		ck_assert_uint_eq(p->c[PFS_CS].value, 12);
		ck_assert_uint_eq(p->c[PFS_MIG].value, 3);
		ck_assert_uint_eq(p->c[PFS_TC].value, 3000000);
	}
	ck_assert_int_eq(f->sched_preads[10], 4);
	ck_assert_int_eq(f->stat_preads[10], 1);
	/* its clock moves (by what thread 10 ran: no other thread did): read again */
	tree_sched(t.proc, 10, 10, 106, 11, 6500000);
	f->clock_ns[10] += 500000;
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 13);
	ck_assert_uint_eq(p->c[PFS_TC].value, 3500000);
	pfs_exact(p, PFS_CS);
	ck_assert_int_eq(f->sched_preads[10], 6);
	ck_assert_int_eq(f->sched_opens[10], 2);
	/* thread 11 exits with its last switches: that interval is not exact, never shown as such */
	run0 = p->c[PFS_CS].running;
	en0 = p->c[PFS_CS].enabled;
	tree_sched(t.proc, 10, 10, 107, 11, 7000000);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s/10/task/11'", t.proc);
		ck_assert_int_eq(system(cmd), 0);
	}
	f->clock_ns[10] += 1000000;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 14);
	ck_assert_uint_gt(p->c[PFS_CS].enabled, en0);
	ck_assert_uint_eq(p->c[PFS_CS].running, run0);
	ck_assert_uint_lt(p->c[PFS_CS].running, p->c[PFS_CS].enabled);
	/* the clock and the faults are the whole process's, dead threads too: exact */
	pfs_exact(p, PFS_TC);
	pfs_exact(p, PFS_PF);
	/* a thread started since counts all it did; a tid reused counts from 0: not exact */
	tree_mkdir(t.proc, "task", 10, 12);
	tree_sched(t.proc, 10, 12, 4, 1, 1000000);
	tree_sched(t.proc, 10, 10, 2, 0, 500000);
	f->clock_ns[10] += 1000000;
	run0 = p->c[PFS_CS].running;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 14 + 4 + 2);
	ck_assert_uint_eq(p->c[PFS_MIG].value, 3 + 1);
	ck_assert_uint_eq(p->c[PFS_CS].running, run0);
	/* and counted from there, exact again */
	tree_sched(t.proc, 10, 10, 5, 0, 900000);
	f->clock_ns[10] += 400000;
	run0 = p->c[PFS_CS].running;
	en0 = p->c[PFS_CS].enabled;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 23);
	ck_assert_uint_eq(p->c[PFS_CS].running - run0, p->c[PFS_CS].enabled - en0);
	/* no task event was ever opened: the per-CPU sets and the probes of pmctop itself only */
	ck_assert_int_eq(f->task_opens, 0);
	ck_assert_int_eq(f->opens_of[10], 0);
	opens = 0;
	for (int i = 0; i < f->nev; i++)
		opens += f->ev[i].pid > 0;
	ck_assert_int_eq(opens, 0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * A thread that lives and dies unseen, on pfs_tree's process 10 after a first
 * tick: thread 10 runs 1 ms and switches 10 times (the clock moves by as much:
 * exact), then runs 1 ms more and switches 10 more while a thread no listing
 * shows runs 0.2 ms and exits: 20 switches, that interval not exact. The last
 * row; *run0 the switches' running time before that interval. mig: the
 * migrations are counted too (not in user mode), and exact at first.
 */
static const struct snap_task *pfs_unseen_death(struct source *s, struct tree *t,
						struct fake_kernel *f, struct snapshot *snap,
						bool mig, uint64_t *run0)
{
	const struct snap_task *p;
	uint64_t en0;

	tick10(s, snap);
	tree_sched(t->proc, 10, 10, 110, 10, 6000000);
	f->clock_ns[10] += 1000000;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 10);
	pfs_exact(p, PFS_CS);
	if (mig)
		pfs_exact(p, PFS_MIG);
	*run0 = p->c[PFS_CS].running;
	en0 = p->c[PFS_CS].enabled;
	tree_sched(t->proc, 10, 10, 120, 10, 7000000);
	f->clock_ns[10] += 1200000;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 20);
	ck_assert_uint_eq(p->c[PFS_CS].running, *run0);
	ck_assert_uint_gt(p->c[PFS_CS].enabled, en0);
	return p;
}

/*
 * A thread that starts and ends between two reads is in no listing: its
 * switches went with it. Its run time is in the process clock, and more of
 * it than the threads read account for marks the interval not exact.
 */
START_TEST(test_proc_counting_sees_a_thread_that_lived_and_died_between_two_reads)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	char err[512];
	uint64_t run0, en0;

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	p = pfs_unseen_death(s, &t, f, &snap, true, &run0);
	ck_assert_uint_eq(p->c[PFS_MIG].running, run0);
	/* the clock and the faults hold the dead thread's: still exact */
	pfs_exact(p, PFS_TC);
	ck_assert_uint_eq(p->c[PFS_TC].value, 2200000);
	/* no thread died since: exact again from there */
	run0 = p->c[PFS_CS].running;
	en0 = p->c[PFS_CS].enabled;
	tree_sched(t.proc, 10, 11, 230, 20, 9000000);
	f->clock_ns[10] += 2000000;
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 50);
	ck_assert_uint_eq(p->c[PFS_CS].running - run0, p->c[PFS_CS].enabled - en0);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/*
 * Per-task events in user mode only: switches come from the threads' sched
 * files, and a thread that lived and died between two reads (more run time
 * in the process clock than its listed threads had) makes the interval not
 * exact, as from /proc.
 */
START_TEST(test_user_mode_switches_see_a_thread_that_lived_and_died_between_two_reads)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char err[512];
	uint64_t run0;

	f = pfs_tree(&t);
	f->deny_kernel = true;
	s = pfs_new(&t, f, LIVE_COUNTS_PERF, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert(!source_live_mode(s)->proc);
	ck_assert(!source_live_mode(s)->kernel);
	snapshot_init(&snap, s->ev.n);
	pfs_unseen_death(s, &t, f, &snap, false, &run0);
	live_test_end(s, &snap, f, &t);
}
END_TEST

START_TEST(test_proc_counting_thread_rows_sum_to_the_process_with_faults_from_their_stat)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	char err[512];
	uint64_t sum[PFS_N] = { 0 };

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	source_threads(s, 10, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	ck_assert_uint_eq(snap.nthreads, 2);
	f->clock_ns[10] += 4000000;
	tree_sched(t.proc, 10, 10, 105, 11, 6000000);
	tree_sched(t.proc, 10, 11, 207, 22, 10000000);
	tree_faults(t.proc, 10, 10, 650, 5, 501);
	tree_faults(t.proc, 10, 11, 420, 6, 302);
	p = tick10(s, &snap);
	ck_assert_uint_eq(snap.nthreads, 2);
	for (size_t k = 0; k < snap.nthreads; k++) {
		ck_assert_int_eq(snap.threads[k].tgid, 10);
		for (int e = 0; e < PFS_N; e++) {
			pfs_exact(&snap.threads[k], e);
			sum[e] += snap.threads[k].c[e].value;
		}
		if (snap.threads[k].pid == 11)
			ck_assert_uint_eq(snap.threads[k].c[PFS_TC].value, 3000000);
	}
	/* switches and migrations add up exactly; faults are the threads' own stat */
	ck_assert_uint_eq(sum[PFS_CS], p->c[PFS_CS].value);
	ck_assert_uint_eq(sum[PFS_MIG], p->c[PFS_MIG].value);
	ck_assert_uint_eq(sum[PFS_CS], 12);
	ck_assert_uint_eq(sum[PFS_MIN], 70);
	ck_assert_uint_eq(sum[PFS_MAJ], 1);
	ck_assert_uint_eq(sum[PFS_PF], 71);
	ck_assert_uint_eq(sum[PFS_TC], 4000000);
	ck_assert_int_eq(f->task_opens, 0);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_proc_counting_is_refused_or_not_chosen_where_proc_cannot_count)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char err[512], path[512];
	bool usage = false;
	const struct fact *fact = NULL;

	f = pfs_tree(&t);
	/* an event /proc does not keep: asked for, an error naming it; else per-task events */
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, "cpu-clock", err, sizeof(err), &usage);
	ck_assert_ptr_null(s);
	ck_assert(usage);
	ck_assert_msg(strstr(err, "'cpu-clock'") && strstr(err, "--task-counts=perf"), "%s", err);
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, "cpu-clock", err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(!source_live_mode(s)->proc);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	ck_assert_int_gt(f->opens_of[10], 0);
	snapshot_release(&snap);
	source_free(s);
	/* perf asked for: per-task events */
	f->opens_of[10] = 0;
	s = pfs_new(&t, f, LIVE_COUNTS_PERF, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(!source_live_mode(s)->proc);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	ck_assert_int_gt(f->opens_of[10], 0);
	snapshot_release(&snap);
	source_free(s);
	/* a kernel without sched files: switches cannot come from /proc, said once */
	snprintf(path, sizeof(path), "%s/self/sched", t.proc);
	ck_assert_int_eq(unlink(path), 0);
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(!source_live_mode(s)->proc);
	ck_assert_uint_eq(count_facts(s, FACT_PROC_COUNTS, 0, &fact), 1);
	ck_assert_int_eq(fact->way.step, FACT_PROC_SCHED);
	ck_assert(said(s, "no /proc/PID/sched"));
	source_free(s);
	usage = false;
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), &usage);
	ck_assert_ptr_null(s);
	ck_assert(usage);
	ck_assert_msg(strstr(err, "no /proc/PID/sched"), "%s", err);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* The fake's answer to whether BPF may be loaded: not permitted. */
static int fake_may_not_bpf(void *ctx)
{
	(void)ctx;
	return 0;
}

/*
 * auto asks BPF first: where it is not permitted it says so once, with the
 * way that counts instead (/proc for the software set; per-task events,
 * with /proc's reason too, for an event /proc does not keep), and the mode
 * line names that way. Asked for, it is tried whatever the capabilities.
 */
START_TEST(test_auto_says_why_bpf_does_not_count_and_which_way_does)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	char err[512];
	const struct fact *fact = NULL;

	f = pfs_tree(&t);
	/* a fake that cannot tell (no may_bpf): nothing said, as on a fixture */
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(count_facts(s, FACT_BPF, 0, &fact), 0);
	source_free(s);
	f->ops.may_bpf = fake_may_not_bpf;
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(source_live_mode(s)->proc);
	ck_assert(!source_live_mode(s)->bpf);
	ck_assert_uint_eq(count_facts(s, FACT_BPF, 0, &fact), 1);
	ck_assert_int_eq(fact->way.step, FACT_BPF_PERM);
	ck_assert_int_eq(fact->way.instead, FACT_COUNTS_PROC);
	ck_assert(!fact->way.asked);
	ck_assert(said(s, "BPF: not permitted (needs CAP_BPF and CAP_PERFMON, or root); task "
			  "counts from /proc instead"));
	ck_assert_uint_eq(count_facts(s, FACT_PROC_COUNTS, 0, &fact), 0);
	source_free(s);
	/* an event /proc does not keep: per-task events, and both ways say why not */
	s = pfs_new(&t, f, LIVE_COUNTS_AUTO, "cpu-clock", err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(source_live_mode(s)->per_task);
	ck_assert_msg(strstr(s->mode, ", per-task events"), "%s", s->mode);
	ck_assert_uint_eq(count_facts(s, FACT_BPF, 0, &fact), 1);
	ck_assert_int_eq(fact->way.instead, FACT_COUNTS_PERF);
	ck_assert(said(s, "BPF: not permitted (needs CAP_BPF and CAP_PERFMON, or root); counting "
			  "per thread instead"));
	ck_assert_uint_eq(count_facts(s, FACT_PROC_COUNTS, 0, &fact), 1);
	ck_assert_int_eq(fact->way.step, FACT_PROC_EVENT);
	ck_assert_int_eq(fact->way.instead, FACT_COUNTS_PERF);
	/* the messages were taken above: the sentence from the fact */
	fact_text(err, sizeof(err), fact);
	ck_assert_msg(strstr(err, "task counts from /proc: 'cpu-clock' is not one /proc keeps") &&
			      strstr(err, "processes are counted with per-task perf events"),
		      "%s", err);
	source_free(s);
	/* per-task events or /proc asked for: BPF is not asked, nothing said of it */
	s = pfs_new(&t, f, LIVE_COUNTS_PERF, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(count_facts(s, FACT_BPF, 0, &fact), 0);
	source_free(s);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(count_facts(s, FACT_BPF, 0, &fact), 0);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_proc_counting_a_thread_read_failing_midway_keeps_the_sums_as_they_were)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	char err[512], path[512];

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	/* thread 10 switches 10 times; thread 11's file, read after it, cannot be parsed */
	f->clock_ns[10] += 1000000;
	tree_sched(t.proc, 10, 10, 110, 10, 6000000);
	snprintf(path, sizeof(path), "%s/10/task/11/sched", t.proc);
	put(path, "garbage\n");
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_int_eq(p->c[PFS_CS].err, -EINVAL);
	/*
	 * readable again and unchanged, and nothing ran since (its counts of the
	 * last tick were an error: read in full all the same): thread 10's 10
	 * switches count once
	 */
	tree_sched(t.proc, 10, 11, 200, 20, 7000000);
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 10);
	ck_assert_uint_eq(p->c[PFS_MIG].value, 0);
	pfs_exact(p, PFS_CS);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_proc_counting_a_tid_reused_by_a_later_thread_is_a_new_thread)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p, *r = NULL;
	char err[512], path[512];

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	source_threads(s, 10, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	/* thread 11 exited and a new 11 (started at 900) has more of everything: no count fell */
	f->clock_ns[10] += 9000000;
	tree_sched(t.proc, 10, 11, 250, 30, 9000000);
	snprintf(path, sizeof(path), "%s/10/task/11/stat", t.proc);
	put(path,
	    "11 (work10) S 1 10 10 0 -1 4194304 500 0 7 0 300 0 0 0 20 0 2 0 900 1000 100 0\n");
	fake_kernel_advance(f, 2000000);
	p = tick10(s, &snap);
	/* the old thread's last switches are lost: the interval is not exact */
	ck_assert_int_eq(p->c[PFS_CS].err, 0);
	ck_assert_uint_lt(p->c[PFS_CS].running, p->c[PFS_CS].enabled);
	ck_assert_uint_eq(p->c[PFS_CS].value, 250);
	for (size_t k = 0; k < snap.nthreads; k++)
		if (snap.threads[k].pid == 11)
			r = &snap.threads[k];
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->start, 900);
	/* the new thread counts from 0, never the difference with the old one */
	ck_assert_uint_eq(r->c[PFS_CS].value, 250);
	ck_assert_uint_eq(r->c[PFS_MIG].value, 30);
	ck_assert_uint_eq(r->c[PFS_MIN].value, 500);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/* Ticks until process 10's page faults read want, exact on each tick; -1 if not within max. */
static int pfs_ticks_until_faults(struct fake_kernel *f, struct source *s, struct snapshot *snap,
				  uint64_t want, int max)
{
	for (int i = 1; i <= max; i++) {
		const struct snap_task *p;

		fake_kernel_advance(f, 1000000);
		p = tick10(s, snap);
		ck_assert_int_eq(p->c[PFS_PF].err, 0);
		ck_assert_uint_eq(p->c[PFS_PF].running, p->c[PFS_PF].enabled);
		if (p->c[PFS_PF].value == want)
			return i;
	}
	return -1;
}

START_TEST(test_proc_counting_faults_between_the_stat_and_the_clock_show_the_next_tick)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char err[512], path[512];
	static const char *const late = "10 (work10) S 1 10 10 0 -1 4194304 1005 0 10 0 801 0 0 0 "
					"20 0 2 0 100 1000 100 0\n";
	static const char *const later = "10 (work10) S 1 10 10 0 -1 4194304 1009 0 10 0 802 0 0 0 "
					 "20 0 2 0 100 1000 100 0\n";

	f = pfs_tree(&t);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	/* a new process: it faults 5 times after its stat is read, before any clock read */
	snprintf(path, sizeof(path), "%s/10/stat", t.proc);
	f->hook_pid = 10;
	f->hook_path = path;
	f->hook_text = late;
	f->hook_ns = 100000;
	tick10(s, &snap);
	ck_assert_int_eq(pfs_ticks_until_faults(f, s, &snap, 5, 20), 1);
	/*
	 * 16 idle ticks (the clock stands: its stat is not read); on the 17th its
	 * stat is read again all the same, and it faults 4 times more after that
	 * read, before a clock read
	 */
	for (int i = 0; i < 16; i++) {
		int reads = f->stat_preads[10];

		ck_assert_int_eq(pfs_ticks_until_faults(f, s, &snap, 5, 1), 1);
		ck_assert_int_eq(f->stat_preads[10], reads);
	}
	f->hook_pid = 10;
	f->hook_path = path;
	f->hook_text = later;
	f->hook_ns = 100000;
	ck_assert_int_eq(pfs_ticks_until_faults(f, s, &snap, 9, 40), 1);
	snapshot_release(&snap);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

START_TEST(test_proc_counting_refuses_or_does_not_choose_an_event_of_one_mode)
{
	static const char *const one[] = { "page-faults:u", "context-switches:k",
					   "minor-faults:u" };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	char err[512];
	bool usage;

	f = pfs_tree(&t);
	for (size_t i = 0; i < sizeof(one) / sizeof(*one); i++) {
		char name[64];

		/* /proc has user and kernel mode in one count: asked for, an error naming it */
		usage = false;
		s = pfs_new(&t, f, LIVE_COUNTS_PROC, one[i], err, sizeof(err), &usage);
		ck_assert_ptr_null(s);
		ck_assert(usage);
		snprintf(name, sizeof(name), "'%s'", one[i]);
		ck_assert_msg(strstr(err, name) && strstr(err, "user and kernel mode") &&
				      strstr(err, "--task-counts=perf"),
			      "%s", err);
		/* else per-task events, which count one mode */
		f->opens_of[10] = 0;
		s = pfs_new(&t, f, LIVE_COUNTS_AUTO, one[i], err, sizeof(err), NULL);
		ck_assert_msg(s != NULL, "%s", err);
		ck_assert(!source_live_mode(s)->proc);
		snapshot_init(&snap, s->ev.n);
		tick10(s, &snap);
		ck_assert_int_gt(f->opens_of[10], 0);
		snapshot_release(&snap);
		source_free(s);
	}
	/* both modes named: what /proc counts */
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, "page-faults:u:k", err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert(source_live_mode(s)->proc);
	source_free(s);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

/*
 * The /proc backend on a busy process: thread files kept open and re-read,
 * an unchanged thread asked by its schedstat alone, the threads not listed
 * again while the stat's count stands. The fake kernel counts the reads.
 */
/* the descriptors the live source leaves for everything but counters and kept files */

/* Thread tid of process 10 ran: its sched and schedstat files say so. */
static void pfs_ran(struct tree *t, int tid, unsigned long long sw, unsigned long long mig,
		    unsigned long long run_ns)
{
	tree_sched(t->proc, 10, tid, sw, mig, run_ns);
	pfs_put_schedstat(t->proc, 10, tid, run_ns);
}

/* Process 10's stat with nthreads threads. */
static void pfs_put_threads(struct tree *t, int nthreads)
{
	char path[512], text[512];

	snprintf(path, sizeof(path), "%s/10/stat", t->proc);
	snprintf(text, sizeof(text),
		 "10 (work10) S 1 10 10 0 -1 4194304 1000 0 10 0 800 0 0 0 20 0 %d 0 100 "
		 "1000 100 0\n",
		 nthreads);
	put(path, text);
}

START_TEST(test_proc_counting_reads_an_unchanged_thread_by_its_schedstat_alone)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	char err[512];

	f = pfs_tree(&t);
	pfs_put_schedstat(t.proc, 0, 0, 123456);
	pfs_put_schedstat(t.proc, 10, 10, 5000000);
	pfs_put_schedstat(t.proc, 10, 11, 7000000);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	/* both run, then thread 11 stops: each read in full, once a tick, each opened once */
	f->clock_ns[10] += 4000000;
	pfs_ran(&t, 10, 105, 11, 6000000);
	pfs_ran(&t, 11, 207, 22, 10000000);
	fake_kernel_advance(f, 1000000);
	tick10(s, &snap);
	f->clock_ns[10] += 1000000;
	pfs_ran(&t, 10, 110, 12, 7000000);
	fake_kernel_advance(f, 1000000);
	p = tick10(s, &snap);
	ck_assert_int_eq(f->sched_preads[10], 6);
	ck_assert_int_eq(f->schedstat_preads[10], 0);
	ck_assert_uint_eq(p->c[PFS_CS].value, 10 + 7);
	/* thread 11 did not run at its last read: asked by its schedstat, its sched not read */
	for (int i = 1; i <= 3; i++) {
		f->clock_ns[10] += 1000000;
		pfs_ran(&t, 10, 110 + 5 * i, 12 + i, 7000000 + 1000000 * i);
		fake_kernel_advance(f, 1000000);
		p = tick10(s, &snap);
		ck_assert_int_eq(f->sched_preads[10], 6 + i);
		ck_assert_int_eq(f->schedstat_preads[10], i);
		ck_assert_uint_eq(p->c[PFS_CS].value, 17 + 5 * i);
		ck_assert_uint_eq(p->c[PFS_MIG].value, 4 + i);
		pfs_exact(p, PFS_CS);
		pfs_exact(p, PFS_MIG);
	}
	/* it runs again: its schedstat moves, its sched file is read, its switches counted */
	f->clock_ns[10] += 500000;
	pfs_ran(&t, 11, 210, 23, 10500000);
	fake_kernel_advance(f, 1000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 32 + 3);
	ck_assert_uint_eq(p->c[PFS_MIG].value, 7 + 1);
	ck_assert_uint_eq(p->c[PFS_TC].value, 4000000 + 1000000 + 3000000 + 500000);
	pfs_exact(p, PFS_CS);
	/* never opened again: kept open and re-read */
	ck_assert_int_eq(f->sched_opens[10], 2);
	/*
	 * A thread that starts after the stat read is not listed while the
	 * stat's count stands; once it says 3, it is, with all it did
	 */
	tree_mkdir(t.proc, "task", 10, 12);
	pfs_ran(&t, 12, 4, 1, 1000000);
	f->clock_ns[10] += 1000000;
	fake_kernel_advance(f, 1000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 35);
	pfs_put_threads(&t, 3);
	f->clock_ns[10] += 1;
	fake_kernel_advance(f, 1000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[PFS_CS].value, 35 + 4);
	ck_assert_uint_eq(p->c[PFS_MIG].value, 8 + 1);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* A schedstat file of thread tid of process 10: run time, wait, and the times it was put on a CPU. */
static void pfs_put_slices(struct tree *t, int tid, unsigned long long run_ns,
			   unsigned long long slices)
{
	char path[512], text[128];

	snprintf(path, sizeof(path), "%s/10/task/%d/schedstat", t->proc, tid);
	snprintf(text, sizeof(text), "%llu 1000 %llu\n", run_ns, slices);
	put(path, text);
}

/* A source counting task-clock and context-switches from /proc (switches from schedstat). */
static struct source *pfs_new_switches(struct tree *t, struct fake_kernel *f, bool read_all)
{
	static const char *const names[] = { "task-clock", "context-switches" };
	struct evlist ev;
	struct live_opts o;
	struct source *s;
	char err[512];

	evlist_init(&ev);
	for (size_t i = 0; i < 2; i++)
		evlist_add(&ev, names[i], 0, false, false);
	memset(&o, 0, sizeof(o));
	o.proc_root = t->proc;
	o.sysfs_root = t->sys;
	o.ops = &f->ops;
	o.task_counts = LIVE_COUNTS_PROC;
	o.read_all = read_all;
	s = source_live_new(&ev, &o, err, sizeof(err));
	evlist_release(&ev);
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert(source_live_mode(s)->proc);
	return s;
}

/*
 * Switches without migrations (as an ordinary user counts): from each
 * thread's schedstat, its times on a CPU, and no sched file read at all.
 */
START_TEST(test_proc_counting_without_migrations_reads_switches_from_schedstat)
{
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;

	f = pfs_tree(&t);
	pfs_put_schedstat(t.proc, 0, 0, 123456);
	/* the sched files say other numbers: read, they would show */
	pfs_put_slices(&t, 10, 5000000, 1000);
	pfs_put_slices(&t, 11, 7000000, 2000);
	s = pfs_new_switches(&t, f, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	for (int i = 1; i <= 3; i++) {
		f->clock_ns[10] += 2000000;
		pfs_put_slices(&t, 10, 5000000 + 1000000ull * i, 1000 + 5ull * i);
		pfs_put_slices(&t, 11, 7000000 + 1000000ull * i, 2000 + 7ull * i);
		tree_sched(t.proc, 10, 10, 100 + 50ull * i, 10, 5000000 + 1000000ull * i);
		tree_sched(t.proc, 10, 11, 200 + 50ull * i, 20, 7000000 + 1000000ull * i);
		fake_kernel_advance(f, 1000000);
		p = tick10(s, &snap);
		ck_assert_uint_eq(p->c[1].value, 12ull * i);
		pfs_exact(p, 1);
	}
	/* one that did not run: its count stands */
	f->clock_ns[10] += 1000000;
	pfs_put_slices(&t, 10, 9000000, 1016);
	fake_kernel_advance(f, 1000000);
	p = tick10(s, &snap);
	ck_assert_uint_eq(p->c[1].value, 36 + 1);
	ck_assert_int_eq(f->sched_opens[10], 0);
	ck_assert_int_eq(f->sched_preads[10], 0);
	/* each thread's schedstat opened once and kept */
	ck_assert_int_ge(f->schedstat_preads[10], 2 * 3);
	live_test_end(s, &snap, f, &t);
}
END_TEST

/* For nftw: remove path, a file or an emptied directory. */
static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/*
 * A process of more threads than LIVE_TEST_THR_WHOLE has LIVE_TEST_THR_READS read a tick by
 * the /proc backend (LIVE_THR_WHOLE and LIVE_THR_READS of src/collect/live.h)
 */
#define LIVE_TEST_THR_WHOLE 8
#define LIVE_TEST_THR_READS 2

/*
 * A process of more threads than the /proc backend reads whole a tick
 * (LIVE_TEST_THR_WHOLE) has LIVE_TEST_THR_READS read: the others are guessed from the rates of their last
 * two reads, within the run time the process's clock says they had, and
 * the counts are marked estimated. Threads that count steadily, then stop
 * but one: the guess is the kernel's count at every tick, and it never
 * falls. With --read-all, every thread is read and nothing is estimated.
 */
START_TEST(test_proc_counting_reads_a_budget_of_threads_and_guesses_the_rest)
{
	enum { N = 20 };
	int tids[N];
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	unsigned long long sw[N] = { 0 }, run[N] = { 0 }, total = 0;
	uint64_t en = 0, rn = 0, last = 0;

	ck_assert_int_lt(LIVE_TEST_THR_WHOLE, N / 2);
	for (int pass = 0; pass < 2; pass++) {
		bool all = pass == 1;

		tree_init(&t);
		for (int i = 0; i < N; i++)
			tids[i] = 10 + i;
		tree_proc(&t, 10, tids, N, 100, 800);
		tree_mkdir(t.proc, "/self", 0, 0);
		pfs_put_schedstat(t.proc, 0, 0, 123456);
		for (int i = 0; i < N; i++) {
			sw[i] = 100;
			run[i] = 1000000;
			pfs_put_slices(&t, 10 + i, run[i], sw[i]);
		}
		f = fake_new();
		f->clock = true;
		f->clock_step = 0; /* ticks 1 ms apart exactly: steady rates are guessed exactly */
		f->clock_ns[10] = 50000000;
		s = pfs_new_switches(&t, f, all);
		snapshot_init(&snap, s->ev.n);
		p = tick10(s, &snap);
		en = p->c[1].enabled;
		rn = p->c[1].running;
		last = p->c[1].value;
		total = 0;
		for (int k = 1; k <= 40; k++) {
			int before = f->schedstat_preads[10];
			/* from tick 20 on, thread 10 alone runs */
			int busy = k < 20 ? N : 1;

			for (int i = 0; i < busy; i++) {
				sw[i] += 5;
				run[i] += 1000000;
				total += 5;
				pfs_put_slices(&t, 10 + i, run[i], sw[i]);
			}
			f->clock_ns[10] += busy * 1000000ull;
			fake_kernel_advance(f, 1000000);
			p = tick10(s, &snap);
			ck_assert_int_eq(p->c[1].err, 0);
			/* the first two reads read every thread: each one's rate is known then */
			if (all || k == 1) {
				ck_assert_int_eq(f->schedstat_preads[10] - before, N);
				ck_assert_uint_eq(p->c[1].running - rn, p->c[1].enabled - en);
			} else {
				ck_assert_int_eq(f->schedstat_preads[10] - before,
						 LIVE_TEST_THR_READS);
				ck_assert_uint_lt(p->c[1].running - rn, p->c[1].enabled - en);
			}
			ck_assert_uint_gt(p->c[1].enabled, en);
			ck_assert_msg(p->c[1].value == total,
				      "tick %d: %llu switches, the kernel's %llu", k,
				      (unsigned long long)p->c[1].value, total);
			ck_assert_uint_ge(p->c[1].value, last);
			en = p->c[1].enabled;
			rn = p->c[1].running;
			last = p->c[1].value;
		}
		/* none runs: the threads not read since it last ran are read, then none */
		for (int k = 1; k <= N / LIVE_TEST_THR_READS + 2; k++) {
			int before = f->schedstat_preads[10];

			fake_kernel_advance(f, 1000000);
			p = tick10(s, &snap);
			ck_assert_uint_eq(p->c[1].value, total);
			if (k == N / LIVE_TEST_THR_READS + 2)
				ck_assert_int_eq(f->schedstat_preads[10] - before, 0);
			else if (!all)
				ck_assert_int_le(f->schedstat_preads[10] - before,
						 LIVE_TEST_THR_READS);
		}
		en = p->c[1].enabled;
		rn = p->c[1].running;
		/* as many threads left as are read whole: after one tick, every tick is exact */
		for (int i = LIVE_TEST_THR_WHOLE; i < N && !all; i++) {
			char path[600];

			snprintf(path, sizeof(path), "%s/10/task/%d", t.proc, 10 + i);
			ck_assert_int_eq(nftw(path, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
		}
		pfs_put_threads(&t, all ? N : LIVE_TEST_THR_WHOLE);
		for (int k = 1; k <= 4; k++) {
			sw[0] += 5;
			run[0] += 1000000;
			total += 5;
			pfs_put_slices(&t, 10, run[0], sw[0]);
			f->clock_ns[10] += 1000000;
			fake_kernel_advance(f, 1000000);
			p = tick10(s, &snap);
			ck_assert_uint_eq(p->c[1].value, total);
			if (k > 2 || all)
				ck_assert_uint_eq(p->c[1].running - rn, p->c[1].enabled - en);
			en = p->c[1].enabled;
			rn = p->c[1].running;
		}
		live_test_end(s, &snap, f, &t);
	}
}
END_TEST

/* The team of the budget tests: process 10 of n threads (tids 10...), each with its files. */
static struct fake_kernel *pfs_team(struct tree *t, int n, unsigned long long *sw,
				    unsigned long long *run)
{
	int tids[128];
	struct fake_kernel *f;

	ck_assert_int_le(n, 128);
	tree_init(t);
	for (int i = 0; i < n; i++)
		tids[i] = 10 + i;
	tree_proc(t, 10, tids, n, 100, 800);
	tree_mkdir(t->proc, "/self", 0, 0);
	pfs_put_schedstat(t->proc, 0, 0, 123456);
	for (int i = 0; i < n; i++) {
		sw[i] = 100;
		run[i] = 1000000;
		pfs_put_slices(t, 10 + i, run[i], sw[i]);
		tree_faults(t->proc, 10, 10 + i, 10, 0, 1);
	}
	f = fake_new();
	f->clock = true;
	f->clock_step = 0;
	f->clock_ns[10] = 50000000;
	return f;
}

/*
 * Threads of which half switch 4 times a ms of run, then once: the
 * guesses miss, and the count never falls for it, also when thread rows
 * read every thread a while and then stop; it is marked estimated while a
 * guess holds it above the kernel's; at the end it is never below the
 * kernel's. Threads idle while more than 64 run are read in turn all the
 * same: what they do when they wake is counted. Rows asked for later, while
 * the process is idle, have every thread's name.
 */
START_TEST(test_proc_counting_guesses_never_fall_and_no_thread_waits_for_ever)
{
	enum { N = 20, M = 75, BUSY = 70 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	const struct snap_task *p;
	unsigned long long sw[M], run[M], total = 0, last = 0;
	uint64_t en, rn;

	f = pfs_team(&t, N, sw, run);
	s = pfs_new_switches(&t, f, false);
	snapshot_init(&snap, s->ev.n);
	p = tick10(s, &snap);
	en = p->c[1].enabled;
	rn = p->c[1].running;
	for (int k = 1; k <= 54; k++) {
		bool idle = k > 45;

		/* ticks 21-23 with thread rows, which read every thread */
		if (k == 21)
			source_threads(s, 10, false);
		if (k == 24)
			source_threads(s, 0, false);
		for (int i = 0; i < N && !idle; i++) {
			/* half of them slow down: their guesses overshoot until they are read */
			int rate = i % 2 == 0 && k <= 15 ? 4 : 1;

			sw[i] += rate;
			run[i] += 1000000;
			total += rate;
			pfs_put_slices(&t, 10 + i, run[i], sw[i]);
		}
		if (!idle)
			f->clock_ns[10] += N * 1000000ull;
		fake_kernel_advance(f, 1000000);
		p = tick10(s, &snap);
		ck_assert_int_eq(p->c[1].err, 0);
		ck_assert_msg(p->c[1].value >= last, "tick %d: %llu after %llu", k,
			      (unsigned long long)p->c[1].value, last);
		ck_assert_uint_ge(p->c[1].running, rn);
		ck_assert_uint_ge(p->c[1].enabled, en);
		/* above the kernel's count: an estimate, never a plain number */
		if (p->c[1].value > total)
			ck_assert_uint_lt(p->c[1].running - rn, p->c[1].enabled - en);
		if (!idle && k > 2)
			ck_assert_msg(p->c[1].value >= total * 8 / 10 &&
					      p->c[1].value <= total * 12 / 10,
				      "tick %d: %llu switches, the kernel's %llu", k,
				      (unsigned long long)p->c[1].value, total);
		last = p->c[1].value;
		en = p->c[1].enabled;
		rn = p->c[1].running;
	}
	ck_assert_uint_ge(last, total);
	live_test_end(s, &snap, f, &t);

	/* 70 threads busy, 5 idle until tick 30, when each switches 100 times, then sleeps again */
	f = pfs_team(&t, M, sw, run);
	s = pfs_new_switches(&t, f, false);
	snapshot_init(&snap, s->ev.n);
	tick10(s, &snap);
	total = 0;
	for (int k = 1; k <= 80; k++) {
		for (int i = 0; i < M; i++) {
			bool wake = i >= BUSY && k == 30;

			if (i >= BUSY && !wake)
				continue;
			sw[i] += wake ? 100 : 2;
			run[i] += 1000000;
			total += wake ? 100 : 2;
			pfs_put_slices(&t, 10 + i, run[i], sw[i]);
			f->clock_ns[10] += 1000000;
		}
		fake_kernel_advance(f, 1000000);
		p = tick10(s, &snap);
	}
	/* each read in turn, every M / LIVE_TEST_THR_READS ticks: the five's 500 switches are in */
	ck_assert_msg(p->c[1].value >= total && p->c[1].value <= total + total / 100,
		      "%llu switches, the kernel's %llu", (unsigned long long)p->c[1].value, total);
	/* idle: the threads not read since it last ran are read, then none (6 ticks idle) */
	for (int k = 0; k < M / LIVE_TEST_THR_READS + 6; k++) {
		fake_kernel_advance(f, 1000000);
		tick10(s, &snap);
	}
	/* rows asked for while it is idle: every thread's, from its stat */
	source_threads(s, 10, false);
	fake_kernel_advance(f, 1000000);
	tick10(s, &snap);
	for (int i = 0; i < M; i++) {
		const struct snap_task *r = snapshot_find_thread(&snap, 10 + i);

		ck_assert_msg(r && r->tgid == 10 && r->comm[0],
			      "thread %d has no row with its name", 10 + i);
	}
	live_test_end(s, &snap, f, &t);
}
END_TEST

/*
 * Per-task groups of a process that runs: a thread whose gate group was not
 * enabled longer since its last read is not read beyond that group, and the
 * process's counts are those of reading it all.
 */
START_TEST(test_an_idle_thread_of_a_running_process_is_read_by_its_gate_group_alone)
{
	static const int tids[] = { 10, 11 };
	struct tree t;
	struct fake_kernel *f, *g;
	struct source *s, *plain;
	struct snapshot snap, ref;

	tree_init(&t);
	tree_proc(&t, 10, tids, 2, 100, 800);
	f = fake_new();
	g = fake_new();
	plain = live_new(&t, g, false, false);
	setenv("PMCTOP_SIM_GROUPS", "3", 1);
	s = live_new(&t, f, false, false);
	unsetenv("PMCTOP_SIM_GROUPS");
	snapshot_init(&snap, s->ev.n);
	snapshot_init(&ref, plain->ev.n);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_int_eq(source_read(plain, &ref), 0);
	}
	/* thread 11 stops; thread 10 runs on */
	f->frozen = g->frozen = 1ull << 11;
	for (int i = 0; i < 4; i++) {
		int r10 = f->reads_of[10], r11 = f->reads_of[11];

		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_int_eq(source_read(plain, &ref), 0);
		ck_assert_int_eq(f->reads_of[10] - r10, 3);
		/* its gate group alone */
		ck_assert_int_eq(f->reads_of[11] - r11, 1);
		for (int e = 0; e < 2; e++) {
			ck_assert_int_eq(find_task(&snap, 10)->c[e].err, 0);
			ck_assert_uint_eq(find_task(&snap, 10)->c[e].value,
					  find_task(&ref, 10)->c[e].value);
			ck_assert_uint_eq(find_task(&snap, 10)->c[e].enabled,
					  find_task(&ref, 10)->c[e].enabled);
		}
	}
	/* it runs again: read in full */
	f->frozen = g->frozen = 0;
	{
		int r11 = f->reads_of[11];

		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_int_eq(source_read(plain, &ref), 0);
		ck_assert_int_eq(f->reads_of[11] - r11, 3);
		ck_assert_uint_eq(find_task(&snap, 10)->c[0].value,
				  find_task(&ref, 10)->c[0].value);
	}
	snapshot_release(&snap);
	snapshot_release(&ref);
	source_free(s);
	source_free(plain);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);
	fake_kernel_free(g);
}
END_TEST

/*
 * Thread files kept open within the budget: two fit. Process 10's threads
 * take them; process 20, running while 10 sleeps, reads its files without
 * keeping them, and takes the descriptors of 10 (read longest ago) from the
 * next tick on; and the other way round.
 */
START_TEST(test_proc_counting_gives_kept_thread_files_to_the_processes_that_run)
{
	static const int tids20[] = { 20, 21 };
	struct tree t;
	struct fake_kernel *f;
	struct source *s;
	struct snapshot snap;
	struct rlimit rl, rl0;
	char err[512];
	/* per tick: whose clock moves, and the opens of each one's sched files after it */
	static const struct {
		bool run10, run20;
		int opens10, opens20;
	} step[] = {
		{ true, true, 2, 2 },  /* 10 keeps its files; 20 cannot */
		{ false, true, 2, 4 }, /* 20 again cannot; 10, idle, gives its files up */
		{ false, true, 2, 6 }, /* 20 keeps them */
		{ false, true, 2, 6 }, /* read without an open */
		{ true, false, 4, 6 }, /* 10 cannot now; 20 gives them up */
		{ true, false, 6, 6 }, { true, false, 6, 6 },
	};

	f = pfs_tree(&t);
	tree_proc(&t, 20, tids20, 2, 100, 800);
	tree_sched(t.proc, 20, 20, 100, 10, 5000000);
	tree_sched(t.proc, 20, 21, 200, 20, 7000000);
	tree_faults(t.proc, 20, 0, 1000, 10, 800);
	f->clock_ns[20] = 50000000;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl0 = rl;
	rl.rlim_cur = LIVE_TEST_FD_RESERVE + 2;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	s = pfs_new(&t, f, LIVE_COUNTS_PROC, NULL, err, sizeof(err), NULL);
	ck_assert_msg(s != NULL, "%s", err);
	snapshot_init(&snap, s->ev.n);
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		unsigned long long k = 1000 + i;

		if (step[i].run10) {
			f->clock_ns[10] += 1000000;
			tree_sched(t.proc, 10, 10, k, 10, 5000000 + 1000 * k);
		}
		if (step[i].run20) {
			f->clock_ns[20] += 1000000;
			tree_sched(t.proc, 20, 20, k, 10, 5000000 + 1000 * k);
		}
		fake_kernel_advance(f, 1000000);
		ck_assert_int_eq(source_read(s, &snap), 0);
		ck_assert_msg(f->sched_opens[10] == step[i].opens10 &&
				      f->sched_opens[20] == step[i].opens20,
			      "tick %zu: opens %d %d", i, f->sched_opens[10], f->sched_opens[20]);
		/* the counts are read all the same: one switch a tick of thread 10 or 20 */
		if (i)
			ck_assert_uint_eq(
				find_task(&snap, step[i].run10 ? 10 : 20)->c[PFS_CS].value, i);
	}
	snapshot_release(&snap);
	source_free(s);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl0), 0);
	ck_assert_int_eq(f->nopen, 0);
	tree_free(&t);
	fake_kernel_free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("faked");

	if (events_init())
		return 1;
	tcase_add_test(tc, test_emfile_leaves_the_rest_not_counted_and_says_how_many);
	tcase_add_test(tc, test_a_retry_that_finds_no_room_waits_again);
	tcase_add_test(
		tc, test_threads_started_during_an_attach_over_several_ticks_make_it_an_estimate);
	tcase_add_test(tc, test_esrch_drops_a_vanished_task_without_error);
	tcase_add_test(tc, test_eacces_gives_the_permission_fact_with_paranoid);
	tcase_add_test(tc, test_another_users_process_refused_names_ptrace_not_paranoid);
	tcase_add_test(tc, test_enoent_for_hardware_events_gives_software_only_mode);
	tcase_add_test(tc, test_nothing_countable_fails_with_the_fact_of_the_first_event);
	tcase_add_test(tc, test_echild_on_the_first_group_read_reopens_the_group);
	tcase_add_test(tc, test_shr_is_read_only_while_wanted);
	tcase_add_test(tc, test_an_event_asked_again_with_e_reuses_the_built_in_counter);
	tcase_add_test(tc, test_an_event_with_a_modifier_is_a_counter_of_its_own);
	tcase_add_test(tc, test_each_row_carries_the_time_of_its_own_read);
	tcase_add_loop_test(tc, test_a_row_is_stamped_at_its_reads_and_a_stalled_read_is_made_again,
			    0, 2);
	tcase_add_test(tc, test_a_process_that_did_not_run_is_not_read_again_and_keeps_its_counts);
	tcase_add_test(tc, test_a_setuid_before_a_sleep_is_seen_at_the_next_tick);
	tcase_add_test(tc,
		       test_an_idle_process_is_still_read_in_full_every_16_ticks_and_with_read_all);
	tcase_add_test(tc, test_the_process_cpu_clock_gates_the_reads_of_all_its_threads);
	tcase_add_test(tc, test_per_task_cpu_time_is_the_process_clock);
	tcase_add_test(tc, test_a_big_busy_process_has_a_thread_read_a_tick_and_the_rest_guessed);
	tcase_add_test(tc, test_a_big_process_guessed_in_its_clock_units_is_not_overcounted);
	tcase_add_test(tc, test_a_big_process_that_runs_half_as_much_counts_half_at_once);
	tcase_add_test(tc, test_threads_that_switch_more_or_less_are_each_taken_by_their_own_ratio);
	tcase_add_test(tc, test_threads_whose_ratios_are_learned_late_and_change_count_right);
	tcase_add_test(tc, test_a_big_process_in_steady_work_is_read_one_tick_in_four);
	tcase_add_test(tc, test_a_big_process_whose_work_changes_is_read_every_tick_again);
	tcase_add_test(tc, test_a_process_of_few_threads_is_read_at_the_pace_among_many);
	tcase_add_test(tc, test_the_pace_of_few_threads_turns_off_below_half_its_threshold);
	tcase_add_test(tc, test_threads_whose_ratios_change_count_right_at_the_pace);
	tcase_add_test(tc, test_a_process_that_runs_far_more_than_its_rates_make_is_read_in_full);
	tcase_add_test(tc, test_a_process_whose_run_time_comes_in_bursts_is_read_in_full_seldom);
	tcase_add_test(tc, test_a_clock_read_late_in_a_long_tick_is_no_jump);
	tcase_add_test(
		tc, test_a_big_process_whose_thread_runs_in_threads_it_started_is_not_overcounted);
	tcase_add_test(tc, test_the_busiest_thread_of_a_big_process_is_read_every_tick);
	tcase_add_test(tc, test_the_schedstat_files_of_threads_read_in_turn_give_way_to_counters);
	tcase_add_test(tc, test_enodev_of_a_thread_exiting_during_attach_is_retried_next_tick);
	tcase_add_test(tc, test_a_kernel_without_inherit_thread_counts_without_it_and_says_so);
	tcase_add_test(tc, test_a_kernel_with_inherit_thread_gets_it_on_every_inherited_group);
	tcase_add_test(tc, test_a_thread_that_exits_shows_its_final_counts_once);
	tcase_add_test(tc, test_cpus_follow_the_online_map_of_the_sysfs_root);
	tcase_add_test(tc, test_cpus_past_64_kib_of_proc_stat);
	tcase_add_test(tc, test_per_cpu_eacces_is_said_once_with_the_advice);
	tcase_add_test(tc, test_cgroups_are_counted_per_cpu_on_their_directories);
	tcase_add_test(tc, test_cgroups_without_permission_or_hierarchy);
	tcase_add_test(
		tc, test_sim_groups_open_and_read_the_software_set_as_n_groups_and_count_it_once);
	tcase_add_test(tc,
		       test_a_running_process_reads_each_group_once_a_tick_the_gate_read_is_reused);
	tcase_add_test(tc,
		       test_a_process_whose_threads_do_not_fit_counts_its_busiest_once_and_says_so);
	tcase_add_test(tc, test_a_partial_process_takes_its_cpu_time_from_its_clock);
	tcase_add_test(tc, test_the_descriptors_the_caller_keeps_are_left_out_of_the_budget);
	tcase_add_test(
		tc,
		test_attaching_spreads_over_ticks_busiest_first_and_the_rest_are_not_counted_yet);
	tcase_add_test(tc, test_thread_rows_that_did_not_run_are_not_read_again);
	tcase_add_test(
		tc, test_a_process_of_many_threads_is_attached_over_several_ticks_each_thread_once);
	tcase_add_test(
		tc, test_proc_counting_sums_threads_by_tid_skips_the_idle_and_opens_no_task_event);
	tcase_add_test(tc, test_proc_counting_sees_a_thread_that_lived_and_died_between_two_reads);
	tcase_add_test(tc,
		       test_user_mode_switches_see_a_thread_that_lived_and_died_between_two_reads);
	tcase_add_test(
		tc, test_proc_counting_thread_rows_sum_to_the_process_with_faults_from_their_stat);
	tcase_add_test(tc, test_proc_counting_is_refused_or_not_chosen_where_proc_cannot_count);
	tcase_add_test(tc, test_proc_counting_refuses_or_does_not_choose_an_event_of_one_mode);
	tcase_add_test(tc, test_auto_says_why_bpf_does_not_count_and_which_way_does);
	tcase_add_test(tc,
		       test_proc_counting_a_thread_read_failing_midway_keeps_the_sums_as_they_were);
	tcase_add_test(tc, test_proc_counting_a_tid_reused_by_a_later_thread_is_a_new_thread);
	tcase_add_test(tc,
		       test_proc_counting_faults_between_the_stat_and_the_clock_show_the_next_tick);
	tcase_add_test(tc, test_proc_counting_reads_an_unchanged_thread_by_its_schedstat_alone);
	tcase_add_test(tc, test_proc_counting_without_migrations_reads_switches_from_schedstat);
	tcase_add_test(tc, test_proc_counting_reads_a_budget_of_threads_and_guesses_the_rest);
	tcase_add_test(tc, test_proc_counting_guesses_never_fall_and_no_thread_waits_for_ever);
	tcase_add_test(tc,
		       test_an_idle_thread_of_a_running_process_is_read_by_its_gate_group_alone);
	tcase_add_test(tc, test_proc_counting_gives_kept_thread_files_to_the_processes_that_run);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
