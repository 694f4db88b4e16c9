/* Tests of /proc parsing, over literal text and over the fixture tree in tests/data/proc. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/cpumap.h"
#include "kernel/proc.h"
#include "collect/pidkeys.h"
#include "collect/procevents.h"
#include "testutil.h"

static const struct {
	int line;
	const char *text;
	int ret;
	int pid;
	const char *comm;
	char state;
	int ppid;
	int threads;
	unsigned long long start;
} STAT_CASES[] = {
	{ __LINE__, "1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 5 1000 100\n", 0, 1,
	  "init", 'S', 0, 1, 5 },
	{ __LINE__, "7 (a b) c) R 3 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 9 0 77 0 0\n", 0, 7, "a b) c",
	  'R', 3, 9, 77 },
	{ __LINE__, "8 () Z 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 10 0 0", 0, 8, "", 'Z', 1, 1,
	  10 },
	{ __LINE__, "9 (short) S 1 1", -EINVAL, 0, NULL, 0, 0, 0, 0 },
	{ __LINE__, "x (bad) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 10 0 0", -EINVAL, 0, NULL, 0,
	  0, 0, 0 },
	{ __LINE__, "10 noparen S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 10 0 0", -EINVAL, 0, NULL,
	  0, 0, 0, 0 },
	{ __LINE__, "", -EINVAL, 0, NULL, 0, 0, 0, 0 },
	{ __LINE__, "11 (x) 5 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 10 0 0", -EINVAL, 0, NULL, 0, 0,
	  0, 0 },
};

START_TEST(test_parse_stat_table)
{
	struct proc_stat st;
	int r = proc_parse_stat(STAT_CASES[_i].text, strlen(STAT_CASES[_i].text), &st);

	ck_assert_msg(r == STAT_CASES[_i].ret, "line %d: ret %d", STAT_CASES[_i].line, r);
	if (r)
		return;
	ck_assert_int_eq(st.pid, STAT_CASES[_i].pid);
	ck_assert_str_eq(st.comm, STAT_CASES[_i].comm);
	ck_assert_int_eq(st.state, STAT_CASES[_i].state);
	ck_assert_int_eq(st.ppid, STAT_CASES[_i].ppid);
	ck_assert_int_eq(st.threads, STAT_CASES[_i].threads);
	ck_assert_uint_eq(st.start, STAT_CASES[_i].start);
}
END_TEST

START_TEST(test_parse_stat_long_comm_is_truncated)
{
	char buf[512];
	struct proc_stat st;

	snprintf(buf, sizeof(buf), "5 (%0100d) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 10 0 0", 0);
	ck_assert_int_eq(proc_parse_stat(buf, strlen(buf), &st), 0);
	ck_assert_uint_eq(strlen(st.comm), sizeof(st.comm) - 1);
}
END_TEST

START_TEST(test_parse_status_uid_takes_effective)
{
	const char *s = "Name:\tx\nUid:\t1000\t1001\t1000\t1000\nGid:\t5\t5\t5\t5\n";
	unsigned uid = 0;

	ck_assert_int_eq(proc_parse_status_uid(s, strlen(s), &uid), 0);
	ck_assert_uint_eq(uid, 1001);
	ck_assert_int_eq(proc_parse_status_uid("Name:\tx\n", 8, &uid), -EINVAL);
	ck_assert_int_eq(proc_parse_status_uid("Uid:\tabc\n", 9, &uid), -EINVAL);
}
END_TEST

START_TEST(test_parse_cpustat_busy_excludes_idle_and_iowait)
{
	const char *s = "cpu  1 2 3 4 5 6 7 8 9 10\n"
			"cpu0 100 10 50 500 20 1 2 3 40 0\n"
			"cpu3 1 0 1 8 0 0 0 0\n"
			"intr 1\n";
	struct proc_cpustat *cs = NULL;
	size_t cap = 0;
	int n = proc_parse_cpustat(s, strlen(s), &cs, &cap);

	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(cs[0].cpu, 0);
	/* user nice system idle iowait irq softirq steal; guest is inside user */
	ck_assert_uint_eq(cs[0].total, 100 + 10 + 50 + 500 + 20 + 1 + 2 + 3);
	ck_assert_uint_eq(cs[0].busy, 100 + 10 + 50 + 1 + 2 + 3);
	ck_assert_int_eq(cs[1].cpu, 3);
	ck_assert_uint_eq(cs[1].busy, 2);
	free(cs);
	cs = NULL;
	cap = 0;
	ck_assert_int_eq(proc_parse_cpustat("intr 1\n", 7, &cs, &cap), -EINVAL);
	ck_assert_int_eq(proc_parse_cpustat("cpu0 1 2\n", 9, &cs, &cap), -EINVAL);
	/* a line cut short (no newline) is not taken: its numbers would be too small */
	ck_assert_int_eq(proc_parse_cpustat("cpu0 1 2 3 4\ncpu1 5 6 7 8", 25, &cs, &cap), 1);
	ck_assert_uint_eq(cs[0].total, 10);
	free(cs);
}
END_TEST

/* The fields after starttime, as a 6.x kernel writes them: rss, startcode, startstack. */
START_TEST(test_parse_stat_memory_and_program_fields)
{
	const char *full = "15908 (cat) R 15905 15905 5295 0 -1 4194304 100 0 0 0 7 3 0 0 20 0 1 0 "
			   "1161606 3133440 408 18446744073709551615 94193751605248 "
			   "94193751625129 140734026968704 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 "
			   "94193751641136 94193751642752 94194516238336 140734026971578 "
			   "140734026971598 140734026971598 140734026973163 0\n";
	const char *old = "1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 5\n";
	struct proc_stat st;

	ck_assert_int_eq(proc_parse_stat(full, strlen(full), &st), 0);
	ck_assert_uint_eq(st.cpu, 10);
	ck_assert_uint_eq(st.rss, 408);
	ck_assert_uint_eq(st.start_code, 94193751605248ull);
	ck_assert_uint_eq(st.start_stack, 140734026968704ull);
	/* a line that stops at starttime (a short fixture, an old kernel): they are 0 */
	ck_assert_int_eq(proc_parse_stat(old, strlen(old), &st), 0);
	ck_assert_uint_eq(st.start, 5);
	ck_assert_uint_eq(st.rss, 0);
	ck_assert_uint_eq(st.start_stack, 0);
}
END_TEST

/* top's NI, VIRT and P: nice (19, signed), vsize (23, bytes) and processor (39). */
START_TEST(test_parse_stat_nice_vsize_processor)
{
	const char *line =
		"15908 (cat) R 15905 15905 5295 0 -1 4194304 100 0 0 0 7 3 0 0 25 -5 1 0 "
		"1161606 3133440 408 18446744073709551615 94193751605248 "
		"94193751625129 140734026968704 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n";
	const char *old = "1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 5\n";
	unsigned long long shr = 0;
	struct proc_stat st;

	ck_assert_int_eq(proc_parse_stat(line, strlen(line), &st), 0);
	ck_assert_int_eq(st.nice, -5);
	ck_assert_uint_eq(st.vsize, 3133440);
	ck_assert_int_eq(st.processor, 3);
	ck_assert_int_eq(st.threads, 1);
	ck_assert_int_eq(proc_parse_stat(old, strlen(old), &st), 0);
	ck_assert_uint_eq(st.vsize, 0);
	ck_assert_int_eq(st.processor, 0);
	/* statm: size resident shared ..., in pages */
	ck_assert_int_eq(proc_parse_statm("1310 321 189 4 0 262 0\n", 24, &shr), 0);
	ck_assert_uint_eq(shr, 189);
	ck_assert_int_eq(proc_parse_statm("1310 321\n", 9, &shr), -EINVAL);
}
END_TEST

START_TEST(test_parse_meminfo_total)
{
	const char *m = "MemFree:  5 kB\nMemTotal:       24683620 kB\nSwapTotal: 0 kB\n";
	unsigned long long kib = 0;

	ck_assert_int_eq(proc_parse_meminfo(m, strlen(m), &kib), 0);
	ck_assert_uint_eq(kib, 24683620);
	ck_assert_int_eq(proc_parse_meminfo("MemFree: 5 kB\n", 14, &kib), -EINVAL);
	ck_assert_int_eq(proc_parse_meminfo("MemTotal: x kB\n", 15, &kib), -EINVAL);
	ck_assert_int_eq(proc_parse_meminfo("MemTotal: 5 MB\n", 15, &kib), -EINVAL);
	ck_assert_int_eq(proc_parse_meminfo("MemTotal: 5", 11, &kib), -EINVAL);
}
END_TEST

/* The memory meters' eight lines, each needed: a missing or malformed one gives no meters. */
START_TEST(test_parse_meminfo_meters)
{
	const char *m = "MemTotal:       16000000 kB\nMemFree:         2000000 kB\n"
			"MemAvailable:    9000000 kB\nBuffers:          300000 kB\n"
			"Cached:          5000000 kB\nSwapCached:          100 kB\n"
			"SwapTotal:       4000000 kB\nSwapFree:        3500000 kB\n"
			"Shmem:             12345 kB\nSReclaimable:     700000 kB\n";
	struct proc_meminfo mi;
	char buf[1024];

	ck_assert_int_eq(proc_parse_meminfo_all(m, strlen(m), &mi), 0);
	ck_assert_uint_eq(mi.total, 16000000);
	ck_assert_uint_eq(mi.free, 2000000);
	ck_assert_uint_eq(mi.available, 9000000);
	ck_assert_uint_eq(mi.buffers, 300000);
	ck_assert_uint_eq(mi.cached, 5000000); /* not SwapCached */
	ck_assert_uint_eq(mi.swap_total, 4000000);
	ck_assert_uint_eq(mi.swap_free, 3500000);
	ck_assert_uint_eq(mi.sreclaimable, 700000);
	/* a kernel before MemAvailable (3.14): no meters rather than a guess */
	snprintf(buf, sizeof(buf), "%.*s%s", (int)(strstr(m, "MemAvailable") - m), m,
		 strstr(m, "Buffers"));
	ck_assert_int_eq(proc_parse_meminfo_all(buf, strlen(buf), &mi), -EINVAL);
	ck_assert_int_eq(proc_parse_meminfo("MemFree: 5 kB\nCached: 5 MB\n", 27, &mi.total),
			 -EINVAL);
	snprintf(buf, sizeof(buf), "%sCached: x kB\n", m);
	ck_assert_int_eq(proc_parse_meminfo_all(buf, strlen(buf), &mi), -EINVAL);
}
END_TEST

START_TEST(test_parse_loadavg)
{
	double l[3];

	ck_assert_int_eq(proc_parse_loadavg("0.50 1.25 3.00 1/2 3\n", 21, l), 0);
	ck_assert(l[0] == 0.5 && l[1] == 1.25 && l[2] == 3.0);
	ck_assert_int_eq(proc_parse_loadavg("x", 1, l), -EINVAL);
}
END_TEST

/* The last field of loadavg: the pid given last (what /proc is listed again on). */
START_TEST(test_parse_loadavg_last_pid)
{
	static const char real[] = "0.52 0.58 0.59 2/1103 4194303\n";
	long pid = 7;

	ck_assert_int_eq(proc_parse_loadavg_pid(real, strlen(real), &pid), 0);
	ck_assert_int_eq(pid, 4194303);
	ck_assert_int_eq(proc_parse_loadavg_pid("0.50 1.25 3.00 1/2 3\n", 21, &pid), 0);
	ck_assert_int_eq(pid, 3);
	/* a field missing, cut short, or not a number: not known */
	ck_assert_int_eq(proc_parse_loadavg_pid("0.50 1.25 3.00 1/2\n", 19, &pid), -EINVAL);
	ck_assert_int_eq(proc_parse_loadavg_pid("0.50 1.25 3.00 1/2 3\n", 10, &pid), -EINVAL);
	ck_assert_int_eq(proc_parse_loadavg_pid("0.50 1.25 3.00 1/2 x\n", 21, &pid), -EINVAL);
	ck_assert_int_eq(proc_parse_loadavg_pid("0.50 1.25 3.00 1/2 -4\n", 22, &pid), -EINVAL);
}
END_TEST

START_TEST(test_cmdline_flatten_replaces_nuls)
{
	char buf[32];

	memcpy(buf, "a\0b c\0\0", 8);
	ck_assert_uint_eq(proc_cmdline_flatten(buf, 7), 5);
	ck_assert_str_eq(buf, "a b c");
}
END_TEST

static int fixture_fd(void)
{
	int fd = open(TEST_SRCDIR "/data/proc", O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	return fd;
}

START_TEST(test_fixture_lists_numeric_entries_sorted)
{
	int fd = fixture_fd(), *ids = NULL;
	size_t cap = 0;
	long n = proc_list_ids(fd, ".", &ids, &cap);

	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(ids[0], 1);
	ck_assert_int_eq(ids[1], 2);
	ck_assert_int_eq(ids[2], 42);
	n = proc_list_ids(fd, "42/task", &ids, &cap);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(ids[0], 42);
	ck_assert_int_eq(ids[1], 43);
	ck_assert_int_eq(proc_list_ids(fd, "999/task", &ids, &cap), -ENOENT);
	free(ids);
	close(fd);
}
END_TEST

START_TEST(test_fixture_reads_process)
{
	int fd = fixture_fd();
	struct proc_stat st;
	unsigned uid;
	char cmd[64];

	ck_assert_int_eq(proc_read_stat(fd, 42, 0, &st), 0);
	ck_assert_str_eq(st.comm, "my (weird) prog");
	ck_assert_int_eq(st.threads, 2);
	ck_assert_uint_eq(st.start, 1234567);
	ck_assert_uint_eq(st.cpu, 3);
	ck_assert_uint_eq(st.rss, 100);
	ck_assert_uint_eq(st.start_code, 94250000000000ull);
	ck_assert_uint_eq(st.start_stack, 140730000000000ull);
	ck_assert_int_eq(proc_read_uid(fd, 42, &uid), 0);
	ck_assert_uint_eq(uid, 1001);
	ck_assert_int_eq(proc_read_cmdline(fd, 42, cmd, sizeof(cmd)), 0);
	ck_assert_str_eq(cmd, "prog --flag with space");
	ck_assert_int_eq(proc_read_stat(fd, 2, 0, &st), 0);
	ck_assert(st.flags & PROC_PF_KTHREAD);
	ck_assert_int_eq(proc_read_cmdline(fd, 2, cmd, sizeof(cmd)), 0);
	ck_assert_str_eq(cmd, "");
	ck_assert_int_eq(proc_read_stat(fd, 1, 0, &st), 0);
	ck_assert(!(st.flags & PROC_PF_KTHREAD));
	ck_assert_int_eq(proc_read_stat(fd, 77, 0, &st), -ENOENT);
	{
		unsigned long long kib = 0;

		ck_assert_int_eq(proc_read_memtotal(fd, &kib), 0);
		ck_assert_uint_eq(kib, 8000000);
	}
	close(fd);
}
END_TEST

START_TEST(test_live_self_stat)
{
	int fd = open("/proc", O_RDONLY | O_DIRECTORY);
	struct proc_stat st;

	ck_assert_int_eq(proc_read_stat(fd, getpid(), 0, &st), 0);
	ck_assert_int_eq(st.pid, getpid());
	ck_assert_int_eq(st.ppid, getppid());
	ck_assert_int_ge(st.threads, 1);
	close(fd);
}
END_TEST

static const struct {
	int line;
	const char *text;
	int ret;
	const char *cpus; /* the CPUs, comma-separated, when ret is 0 */
} CPULIST_CASES[] = {
	{ __LINE__, "0-3,5,7-8\n", 0, "0,1,2,3,5,7,8" },
	{ __LINE__, "0\n", 0, "0" },
	{ __LINE__, "0-1", 0, "0,1" },
	{ __LINE__, "2,0-1\n", 0, "0,1,2" },
	{ __LINE__, "0-2,1-3", 0, "0,1,2,3" },
	{ __LINE__, "", 0, "" },
	{ __LINE__, "\n", 0, "" },
	{ __LINE__, "12-12\n", 0, "12" },
	{ __LINE__, "3-1", -EINVAL, NULL },
	{ __LINE__, "0-", -EINVAL, NULL },
	{ __LINE__, "-1", -EINVAL, NULL },
	{ __LINE__, "0,,1", -EINVAL, NULL },
	{ __LINE__, "0,", -EINVAL, NULL },
	{ __LINE__, "a", -EINVAL, NULL },
	{ __LINE__, "0 1", -EINVAL, NULL },
	{ __LINE__, "0-3:2/4", -EINVAL, NULL },
	{ __LINE__, "99999999999999999999", -EINVAL, NULL },
	{ __LINE__, "0-70000", -EINVAL, NULL },
};

START_TEST(test_parse_cpulist_table)
{
	struct cpumap m = { NULL, 0, 0 };
	char got[256] = "";
	size_t len = 0;

	ck_assert_int_eq(cpumap_parse("9", 1, &m), 0); /* parsing replaces what was there */
	ck_assert_msg(cpumap_parse(CPULIST_CASES[_i].text, strlen(CPULIST_CASES[_i].text), &m) ==
			      CPULIST_CASES[_i].ret,
		      "line %d", CPULIST_CASES[_i].line);
	if (CPULIST_CASES[_i].ret) {
		ck_assert_uint_eq(m.n, 0);
	} else {
		for (size_t i = 0; i < m.n; i++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%d", i ? "," : "",
						m.cpu[i]);
		ck_assert_msg(!strcmp(got, CPULIST_CASES[_i].cpus), "line %d: got %s",
			      CPULIST_CASES[_i].line, got);
	}
	cpumap_release(&m);
}
END_TEST

START_TEST(test_online_cpus_from_the_sysfs_root_else_proc_stat)
{
	char dir[] = "/tmp/pmctop-cpumap-XXXXXX", path[512], cmd[600];
	struct cpumap m = { NULL, 0, 0 };
	int procfd = open(TEST_SRCDIR "/data/proc", O_RDONLY | O_DIRECTORY);
	FILE *f;

	ck_assert_int_ge(procfd, 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* no sysfs file: the cpuN lines of the fixture's /proc/stat */
	ck_assert_int_eq(cpumap_online(&m, sysops_real(), dir, procfd), 0);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_int_eq(m.cpu[1], 1);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/system/cpu", dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("0,2-3\n", f);
	fclose(f);
	ck_assert_int_eq(cpumap_online(&m, sysops_real(), dir, procfd), 0);
	ck_assert_uint_eq(m.n, 3);
	ck_assert(cpumap_has(&m, 2));
	ck_assert(!cpumap_has(&m, 1));
	cpumap_release(&m);
	close(procfd);
	/* no sysfs file and a /proc/stat of 1500 CPUs, past 64 KiB: every CPU */
	snprintf(path, sizeof(path), "%s/proc", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/stat", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("cpu  1 0 1 1 0 0 0 0 0 0\n", f);
	for (int c = 0; c < 1500; c++)
		fprintf(f, "cpu%d 1000000 0 2000000 3000000000 4000000 0 0 0 0 0\n", c);
	fclose(f);
	snprintf(path, sizeof(path), "%s/proc", dir);
	procfd = open(path, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(procfd, 0);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(cpumap_online(&m, sysops_real(), path, procfd), 0);
	ck_assert_uint_eq(m.n, 1500);
	ck_assert(cpumap_has(&m, 1499));
	cpumap_release(&m);
	close(procfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * One process event as the kernel sends it at buf: a netlink message
 * holding a cn_msg and a proc_event whose cn_msg says cnlen bytes (the
 * whole event for a well-formed one); its netlink length is returned.
 */
static size_t build_event(char *buf, unsigned what, int pid, int tgid, size_t cnlen)
{
	struct nlmsghdr *nl = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nl);
	/* as the kernel lays it out: 4-aligned after the cn_msg, so written from a copy */
	struct proc_event ev;

	memset(buf, 0, NLMSG_SPACE(sizeof(*cn) + sizeof(ev)));
	memset(&ev, 0, sizeof(ev));
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(ev));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = (unsigned short)cnlen;
	ev.what = what;
	if (what == PROC_EVENT_FORK) {
		ev.event_data.fork.child_pid = pid;
		ev.event_data.fork.child_tgid = tgid;
	} else {
		ev.event_data.exit.process_pid = pid;
		ev.event_data.exit.process_tgid = tgid;
	}
	memcpy(cn->data, &ev, sizeof(ev));
	return nl->nlmsg_len;
}

#define EVENT_SPACE NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(struct proc_event))

static void send_event_len(int fd, unsigned what, int pid, int tgid, size_t cnlen)
{
	char buf[EVENT_SPACE] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len = build_event(buf, what, pid, tgid, cnlen);

	ck_assert_int_eq(send(fd, buf, len, 0), (ssize_t)len);
}

static void send_event(int fd, unsigned what, int pid, int tgid)
{
	send_event_len(fd, what, pid, tgid, sizeof(struct proc_event));
}

static void proc_dir(const char *root, int pid, bool make)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/%d", root, pid);
	ck_assert_int_eq(make ? mkdir(p, 0755) : rmdir(p), 0);
}

/* ids as "a b c", to compare with what a test expects */
static const char *ids_text(const int *ids, long n, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (long i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%d", i ? " " : "", ids[i]);
	return buf;
}

START_TEST(test_procevents_keep_the_list_without_listing)
{
	char root[] = "/tmp/pmctop-procev.XXXXXX", got[256];
	int sv[2], rootfd, *ids = NULL;
	size_t cap = 0;
	long n;
	struct procevents *pe;

	ck_assert_ptr_nonnull(mkdtemp(root));
	proc_dir(root, 10, true);
	proc_dir(root, 20, true);
	rootfd = open(root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(rootfd, 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	procevents_attach(&pe, sv[0], 1000);

	/* the first call lists */
	n = procevents_ids(pe, rootfd, &ids, &cap, -1);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 20");
	ck_assert_uint_eq(procevents_listings(pe), 1);
	/* not trusted yet: listed again, until an announced pid is in the listing */
	proc_dir(root, 30, true);
	send_event(sv[1], PROC_EVENT_FORK, 30, 30);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 20 30");
	ck_assert_uint_eq(procevents_listings(pe), 2);
	/* trusted: a fork adds its pid without a listing (41, unannounced, is not seen) */
	proc_dir(root, 40, true);
	proc_dir(root, 41, true);
	send_event(sv[1], PROC_EVENT_FORK, 40, 40);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 20 30 40");
	ck_assert_uint_eq(procevents_listings(pe), 2);
	/* a thread's fork and exit change nothing; a second fork event adds no duplicate */
	send_event(sv[1], PROC_EVENT_FORK, 51, 40);
	send_event(sv[1], PROC_EVENT_EXIT, 51, 40);
	send_event(sv[1], PROC_EVENT_FORK, 40, 40);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 20 30 40");
	/* a leader's exit: kept while /proc has it (a zombie), dropped once it is gone */
	send_event(sv[1], PROC_EVENT_EXIT, 20, 20);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 20 30 40");
	proc_dir(root, 20, false);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 30 40");
	/* a pid that ends and comes back within one tick is there */
	send_event(sv[1], PROC_EVENT_EXIT, 30, 30);
	send_event(sv[1], PROC_EVENT_FORK, 30, 30);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 30 40");
	/* a process made and ended between two ticks never shows */
	send_event(sv[1], PROC_EVENT_FORK, 60, 60);
	send_event(sv[1], PROC_EVENT_EXIT, 60, 60);
	n = procevents_ids(pe, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 30 40");
	ck_assert_uint_eq(procevents_listings(pe), 2);
	procevents_close(pe);
	close(sv[1]);

	/* the periodic listing (here every call) finds what no event told */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	procevents_attach(&pe, sv[0], 0);
	n = procevents_ids(pe, rootfd, &ids, &cap, -1);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 30 40 41");
	/* without events (NULL): the listing */
	n = procevents_ids(NULL, rootfd, &ids, &cap, n);
	ck_assert_str_eq(ids_text(ids, n, got, sizeof(got)), "10 30 40 41");
	procevents_close(pe);
	close(sv[1]);
	for (int pid = 10; pid <= 41; pid++) {
		char p[600];

		snprintf(p, sizeof(p), "%s/%d", root, pid);
		rmdir(p);
	}
	close(rootfd);
	rmdir(root);
	free(ids);
}
END_TEST

/* A root of pid directories 10 and 41, and a procevents over a socket pair that trusts its events. */
struct evfix {
	char root[32];
	int sv[2], rootfd, *ids;
	size_t cap;
	long n;
	struct procevents *pe;
};

static void evfix_open(struct evfix *f, bool trust)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->root, sizeof(f->root), "/tmp/pmctop-procev.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->root));
	proc_dir(f->root, 10, true);
	proc_dir(f->root, 41, true);
	f->rootfd = open(f->root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(f->rootfd, 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, f->sv), 0);
	procevents_attach(&f->pe, f->sv[0], 1000);
	f->n = procevents_ids(f->pe, f->rootfd, &f->ids, &f->cap, -1);
	ck_assert_int_eq(f->n, 2);
	if (trust) {
		proc_dir(f->root, 30, true);
		send_event(f->sv[1], PROC_EVENT_FORK, 30, 30);
		f->n = procevents_ids(f->pe, f->rootfd, &f->ids, &f->cap, f->n);
		ck_assert_int_eq(f->n, 3);
	}
}

static void evfix_close(struct evfix *f)
{
	procevents_close(f->pe);
	close(f->sv[1]);
	for (int pid = 1; pid < 100; pid++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/%d", f->root, pid);
		rmdir(p);
	}
	close(f->rootfd);
	ck_assert_int_eq(rmdir(f->root), 0);
	free(f->ids);
}

START_TEST(test_procevents_read_only_whole_events)
{
	struct evfix f;
	char got[256], buf[20000] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t head = offsetof(struct proc_event, event_data);
	unsigned long listings;

	evfix_open(&f, true);
	listings = procevents_listings(f.pe);
	ck_assert_str_eq(ids_text(f.ids, f.n, got, sizeof(got)), "10 30 41");
	/* short: part of a netlink header; a header and a cn_msg with no event */
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(send(f.sv[1], buf, 8, 0), 8);
	build_event(buf, PROC_EVENT_FORK, 70, 70, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_LENGTH(sizeof(struct cn_msg));
	ck_assert_int_eq(send(f.sv[1], buf, NLMSG_LENGTH(sizeof(struct cn_msg)), 0),
			 (ssize_t)NLMSG_LENGTH(sizeof(struct cn_msg)));
	/* a cn_msg too short for the fork or exit it names, though the datagram holds it */
	send_event_len(f.sv[1], PROC_EVENT_FORK, 71, 71, sizeof(((struct proc_event *)0)->what));
	send_event_len(f.sv[1], PROC_EVENT_FORK, 72, 72,
		       head + sizeof(((struct proc_event *)0)->event_data.fork) - 1);
	proc_dir(f.root, 10, false);
	send_event_len(f.sv[1], PROC_EVENT_EXIT, 10, 10,
		       head + sizeof(((struct proc_event *)0)->event_data.exit) - 1);
	f.n = procevents_ids(f.pe, f.rootfd, &f.ids, &f.cap, f.n);
	ck_assert_str_eq(ids_text(f.ids, f.n, got, sizeof(got)), "10 30 41");
	ck_assert_uint_eq(procevents_listings(f.pe), listings);
	/* a cn_msg that just covers them is read */
	send_event_len(f.sv[1], PROC_EVENT_FORK, 73, 73,
		       head + sizeof(((struct proc_event *)0)->event_data.fork));
	send_event_len(f.sv[1], PROC_EVENT_EXIT, 10, 10,
		       head + sizeof(((struct proc_event *)0)->event_data.exit));
	f.n = procevents_ids(f.pe, f.rootfd, &f.ids, &f.cap, f.n);
	ck_assert_str_eq(ids_text(f.ids, f.n, got, sizeof(got)), "30 41 73");
	ck_assert_uint_eq(procevents_listings(f.pe), listings);
	/*
	 * a datagram larger than pmctop reads: its tail is lost, so /proc is
	 * listed (74, announced at its head, has no directory; 41 has)
	 */
	memset(buf, 0, sizeof(buf));
	build_event(buf, PROC_EVENT_FORK, 74, 74, sizeof(struct proc_event));
	ck_assert_int_eq(send(f.sv[1], buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	f.n = procevents_ids(f.pe, f.rootfd, &f.ids, &f.cap, f.n);
	ck_assert_str_eq(ids_text(f.ids, f.n, got, sizeof(got)), "30 41");
	ck_assert_uint_eq(procevents_listings(f.pe), listings + 1);
	evfix_close(&f);
}
END_TEST

START_TEST(test_procevents_only_the_kernel_sends)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = 0 };
	struct sockaddr_storage un = { .ss_family = AF_UNIX };

	ck_assert(procevents_from_kernel((struct sockaddr *)&nl, sizeof(nl)));
	/* another process's netlink socket */
	nl.nl_pid = 4242;
	ck_assert(!procevents_from_kernel((struct sockaddr *)&nl, sizeof(nl)));
	/* a netlink address cut short cannot be told */
	nl.nl_pid = 0;
	ck_assert(!procevents_from_kernel((struct sockaddr *)&nl, sizeof(nl) - 4));
	/* not netlink: the tests' socket pairs */
	ck_assert(procevents_from_kernel((struct sockaddr *)&un, sizeof(un)));
	ck_assert(procevents_from_kernel((struct sockaddr *)&un, 0));
}
END_TEST

/*
 * The attack itself: another netlink socket of this machine unicasts a
 * forged acknowledgement saying the kernel refused LISTEN. Sending to
 * another port needs CAP_NET_ADMIN; without it (or without the
 * connector) there is no such sender, and the pure check above stands.
 */
START_TEST(test_procevents_drop_forged_netlink_sender)
{
	char buf[EVENT_SPACE] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct cn_msg *cn = NLMSG_DATA((struct nlmsghdr *)buf);
	struct proc_event ev;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	struct procevents *pe;
	int a, b;
	size_t len;

	a = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (a < 0) {
		fprintf(stderr, "# no netlink connector socket (%s): forged sender not tried\n",
			strerror(errno));
		return;
	}
	ck_assert_int_eq(bind(a, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(a, (struct sockaddr *)&sa, &salen), 0);
	ck_assert_uint_ne(sa.nl_pid, 0);
	b = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	ck_assert_int_ge(b, 0);
	len = build_event(buf, PROC_EVENT_NONE, 0, 0, sizeof(ev));
	cn->seq = (unsigned)getpid();
	cn->ack = 1;
	memcpy(&ev, cn->data, sizeof(ev));
	ev.event_data.ack.err = EPERM;
	memcpy(cn->data, &ev, sizeof(ev));
	if (sendto(b, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ck_assert_int_eq(errno, EPERM);
		fprintf(stderr, "# no CAP_NET_ADMIN: no local sender can forge events here\n");
		close(a);
		close(b);
		return;
	}
	/* the forged refusal waits on a; LISTEN goes to the kernel, IGNORE on close */
	procevents_attach(&pe, a, 1000);
	ck_assert_int_eq(procevents_listen(pe), 0);
	procevents_close(pe);
	close(b);
}
END_TEST

/* The next request pmctop sent to the kernel: its op (LISTEN, IGNORE), or -1 for none. */
static int sent_op(int fd)
{
	char buf[256] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	const struct nlmsghdr *nl = (const struct nlmsghdr *)buf;
	const struct cn_msg *cn = NLMSG_DATA(nl);
	unsigned op;

	if (n <= 0)
		return -1;
	ck_assert_int_ge(n, NLMSG_LENGTH(sizeof(*cn) + sizeof(op)));
	ck_assert_uint_eq(cn->id.idx, CN_IDX_PROC);
	ck_assert_uint_eq(cn->id.val, CN_VAL_PROC);
	ck_assert_uint_eq(cn->len, sizeof(op));
	memcpy(&op, cn->data, sizeof(op));
	return (int)op;
}

START_TEST(test_procevents_stop_listening_on_close)
{
	char buf[EVENT_SPACE] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct cn_msg *cn = NLMSG_DATA((struct nlmsghdr *)buf);
	struct proc_event ev;
	struct procevents *pe;
	int sv[2];
	size_t len;

	/* LISTEN sent (no answer is no refusal): IGNORE on close */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	procevents_attach(&pe, sv[0], 1000);
	ck_assert_int_eq(procevents_listen(pe), 0);
	ck_assert_int_eq(sent_op(sv[1]), PROC_CN_MCAST_LISTEN);
	ck_assert_int_eq(sent_op(sv[1]), -1);
	procevents_close(pe);
	ck_assert_int_eq(sent_op(sv[1]), PROC_CN_MCAST_IGNORE);
	ck_assert_int_eq(sent_op(sv[1]), -1);
	close(sv[1]);

	/* a LISTEN the kernel refused is not counted: nothing on close */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	procevents_attach(&pe, sv[0], 1000);
	len = build_event(buf, PROC_EVENT_NONE, 0, 0, sizeof(ev));
	cn->seq = (unsigned)getpid();
	cn->ack = 1;
	memcpy(&ev, cn->data, sizeof(ev));
	ev.event_data.ack.err = EPERM;
	memcpy(cn->data, &ev, sizeof(ev));
	ck_assert_int_eq(send(sv[1], buf, len, 0), (ssize_t)len);
	ck_assert_int_eq(procevents_listen(pe), -EPERM);
	ck_assert_int_eq(sent_op(sv[1]), PROC_CN_MCAST_LISTEN);
	procevents_close(pe);
	ck_assert_int_eq(sent_op(sv[1]), -1);
	close(sv[1]);

	/* never asked (a socket given by the caller): nothing on close */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	procevents_attach(&pe, sv[0], 1000);
	procevents_close(pe);
	ck_assert_int_eq(sent_op(sv[1]), -1);
	close(sv[1]);
}
END_TEST

START_TEST(test_procevents_watch_list_bounded_by_listings)
{
	struct evfix f;
	char buf[100 * EVENT_SPACE] __attribute__((aligned(NLMSG_ALIGNTO)));

	/* never trusted: /proc is listed every call, each exit still watched */
	evfix_open(&f, false);
	for (int round = 0; round < 20; round++) {
		size_t len = 0;

		/* 99 leaders that are gone, and 10, listed (a zombie) */
		for (int i = 0; i < 99; i++)
			len += NLMSG_ALIGN(
				build_event(buf + len, PROC_EVENT_EXIT, 1000 + round * 100 + i,
					    1000 + round * 100 + i, sizeof(struct proc_event)));
		len += build_event(buf + len, PROC_EVENT_EXIT, 10, 10, sizeof(struct proc_event));
		ck_assert_int_eq(send(f.sv[1], buf, len, 0), (ssize_t)len);
		f.n = procevents_ids(f.pe, f.rootfd, &f.ids, &f.cap, f.n);
		ck_assert_int_eq(f.n, 2);
		/* only 10, listed, is still watched (once, however often it was told) */
		ck_assert_uint_eq(procevents_watched(f.pe), 1);
	}
	ck_assert_uint_eq(procevents_listings(f.pe), 21);
	/* reaped: the next listing drops it */
	proc_dir(f.root, 10, false);
	f.n = procevents_ids(f.pe, f.rootfd, &f.ids, &f.cap, f.n);
	ck_assert_int_eq(f.n, 1);
	ck_assert_uint_eq(procevents_watched(f.pe), 0);
	evfix_close(&f);
}
END_TEST

/* A process dir pid under root whose status names tgid as its process (pid itself: a process). */
static void key_proc(const char *root, int pid, int tgid)
{
	char p[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%d", root, pid);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/%d/status", root, pid);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\n", tgid);
	fclose(f);
}

static void key_gone(const char *root, int pid)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/%d/status", root, pid);
	unlink(p);
	snprintf(p, sizeof(p), "%s/%d", root, pid);
	ck_assert_int_eq(rmdir(p), 0);
}

/* A root of processes 10 and 41, a pidkeys over it, and the first call (a listing) made. */
struct keyfix {
	char root[32];
	int rootfd, *ids;
	size_t cap;
	long n;
	struct pidkeys *pk;
};

static void keyfix_open(struct keyfix *f, double rescan_s)
{
	static const int keys[] = { 0, 41 };

	memset(f, 0, sizeof(*f));
	snprintf(f->root, sizeof(f->root), "/tmp/pmctop-keys.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->root));
	key_proc(f->root, 10, 10);
	key_proc(f->root, 41, 41);
	f->rootfd = open(f->root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(f->rootfd, 0);
	f->pk = pidkeys_new(rescan_s);
	f->n = pidkeys_ids(f->pk, f->rootfd, keys, 2, false, &f->ids, &f->cap, -1);
	ck_assert_int_eq(f->n, 2);
	ck_assert_uint_eq(pidkeys_listings(f->pk), 1);
}

static void keyfix_close(struct keyfix *f)
{
	pidkeys_close(f->pk);
	for (int pid = 1; pid < 100; pid++) {
		char p[64];

		snprintf(p, sizeof(p), "%s/%d/status", f->root, pid);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%d", f->root, pid);
		rmdir(p);
	}
	close(f->rootfd);
	ck_assert_int_eq(rmdir(f->root), 0);
	free(f->ids);
}

/* n pids of the last list kept, and keys: the call's answer as text */
static const char *keyfix_call(struct keyfix *f, const int *keys, size_t nkeys, bool full,
			       char *buf, size_t size)
{
	f->n = pidkeys_ids(f->pk, f->rootfd, keys, nkeys, full, &f->ids, &f->cap, f->n);
	ck_assert_int_ge(f->n, 0);
	return ids_text(f->ids, f->n, buf, size);
}

START_TEST(test_pidkeys_new_processes_from_keys_without_listing)
{
	struct keyfix f;
	char got[256];
	static const int k1[] = { 0, 5, 10, 30, 41, 50, 60, 70, 99 };
	static const int k2[] = { 5, 10, 30, 41, 50, 60 };

	keyfix_open(&f, 1000);
	/* new: 5, 50 (processes); 30 ended since its switch; 60 is a thread of 50; 70, 99 gone */
	key_proc(f.root, 5, 5);
	key_proc(f.root, 50, 50);
	key_proc(f.root, 60, 50);
	/* 20 has not run since counting began: no key, so not found until a listing */
	key_proc(f.root, 20, 20);
	ck_assert_str_eq(keyfix_call(&f, k1, 9, false, got, sizeof(got)), "5 10 41 50");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 1);
	/* the caller took out 41, found gone by its scan: the keys do not bring it back */
	key_gone(f.root, 41);
	f.ids[2] = 50;
	f.n = 3;
	ck_assert_str_eq(keyfix_call(&f, k2, 6, false, got, sizeof(got)), "5 10 50");
	/* a pid taken again by a process: found by its key */
	key_gone(f.root, 60);
	key_proc(f.root, 60, 60);
	ck_assert_str_eq(keyfix_call(&f, k2, 6, false, got, sizeof(got)), "5 10 50 60");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 1);
	keyfix_close(&f);
}
END_TEST

START_TEST(test_pidkeys_list_when_the_keys_may_miss_some)
{
	struct keyfix f;
	char got[256];
	static const int k[] = { 10, 41 };

	keyfix_open(&f, 1000);
	key_proc(f.root, 20, 20); /* never ran: only a listing finds it */
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 1);
	/* no keys this tick (the read failed): listed */
	ck_assert_str_eq(keyfix_call(&f, NULL, 0, false, got, sizeof(got)), "10 20 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 2);
	/* the table full: listed, and once more after */
	key_proc(f.root, 30, 30);
	ck_assert_str_eq(keyfix_call(&f, k, 2, true, got, sizeof(got)), "10 20 30 41");
	key_proc(f.root, 31, 31);
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 20 30 31 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 4);
	key_proc(f.root, 32, 32);
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 20 30 31 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 4);
	/* no last list: listed */
	f.n = -1;
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 20 30 31 32 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 5);
	keyfix_close(&f);
}
END_TEST

START_TEST(test_pidkeys_rescan_and_trust)
{
	struct keyfix f;
	char got[256];
	static const int other[] = { 7000, 7001 }, k[] = { 10, 41 };

	/* rescan_s 0: every call lists */
	keyfix_open(&f, 0);
	key_proc(f.root, 20, 20);
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 20 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 2);
	keyfix_close(&f);
	/* keys no listing ever held (not this /proc's numbers): listed every call */
	keyfix_open(&f, 1000);
	pidkeys_close(f.pk);
	f.pk = pidkeys_new(1000);
	for (int i = 0; i < 3; i++)
		ck_assert_str_eq(keyfix_call(&f, other, 2, false, got, sizeof(got)), "10 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 3);
	/* one that does: trusted from then on */
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 41");
	ck_assert_str_eq(keyfix_call(&f, k, 2, false, got, sizeof(got)), "10 41");
	ck_assert_uint_eq(pidkeys_listings(f.pk), 4);
	keyfix_close(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("proc");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_parse_stat_table, 0,
			    sizeof(STAT_CASES) / sizeof(STAT_CASES[0]));
	tcase_add_test(tc, test_parse_stat_long_comm_is_truncated);
	tcase_add_test(tc, test_parse_status_uid_takes_effective);
	tcase_add_test(tc, test_parse_cpustat_busy_excludes_idle_and_iowait);
	tcase_add_test(tc, test_parse_loadavg);
	tcase_add_test(tc, test_parse_loadavg_last_pid);
	tcase_add_test(tc, test_parse_stat_memory_and_program_fields);
	tcase_add_test(tc, test_parse_stat_nice_vsize_processor);
	tcase_add_test(tc, test_parse_meminfo_total);
	tcase_add_test(tc, test_parse_meminfo_meters);
	tcase_add_test(tc, test_cmdline_flatten_replaces_nuls);
	tcase_add_test(tc, test_fixture_lists_numeric_entries_sorted);
	tcase_add_test(tc, test_fixture_reads_process);
	tcase_add_test(tc, test_live_self_stat);
	tcase_add_test(tc, test_procevents_keep_the_list_without_listing);
	tcase_add_test(tc, test_procevents_read_only_whole_events);
	tcase_add_test(tc, test_procevents_only_the_kernel_sends);
	tcase_add_test(tc, test_procevents_drop_forged_netlink_sender);
	tcase_add_test(tc, test_procevents_stop_listening_on_close);
	tcase_add_test(tc, test_procevents_watch_list_bounded_by_listings);
	tcase_add_test(tc, test_pidkeys_new_processes_from_keys_without_listing);
	tcase_add_test(tc, test_pidkeys_list_when_the_keys_may_miss_some);
	tcase_add_test(tc, test_pidkeys_rescan_and_trust);
	tcase_add_loop_test(tc, test_parse_cpulist_table, 0,
			    sizeof(CPULIST_CASES) / sizeof(CPULIST_CASES[0]));
	tcase_add_test(tc, test_online_cpus_from_the_sysfs_root_else_proc_stat);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
