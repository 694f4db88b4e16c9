/*
 * Tests of signals and nice values sent to real child processes, the reasons for refusals, and,
 * through a fake system-call table, a pid that names another process by the time of the act.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/procctl.h"
#include "kernel/proc.h"
#include "testutil.h"

/* The process p as the screen would choose it: its pid and start time. */
static struct model_ident ident(pid_t p)
{
	struct proc_stat st;
	char path[64], buf[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	ck_assert_int_eq(proc_parse_stat(buf, n, &st), 0);
	return (struct model_ident){ (int)p, st.start };
}

/* A child that does nothing until a signal ends it. */
static pid_t child(void)
{
	pid_t p = fork();

	ck_assert_int_ge(p, 0);
	if (p == 0) {
		/* the test runner's handlers would act for the child: the default, as a process has */
		static const int SIGS[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM, SIGUSR1, SIGUSR2 };

		for (size_t i = 0; i < sizeof(SIGS) / sizeof(SIGS[0]); i++)
			signal(SIGS[i], SIG_DFL);
		for (;;)
			pause();
	}
	return p;
}

/* The state letter of /proc/PID/stat, '?' when it is gone. */
static char state_of(pid_t p)
{
	char path[64], buf[512], *rp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' ? rp[2] : '?';
}

/* Wait (up to 10 s, for a loaded machine) until the child is in state want. */
static bool reaches(pid_t p, char want)
{
	for (int i = 0; i < 1000; i++) {
		if (state_of(p) == want)
			return true;
		usleep(10000);
	}
	return false;
}

START_TEST(test_signals_reach_the_process)
{
	pid_t p = child();
	struct model_ident w = ident(p);
	int pid = (int)p, status;
	char msg[256], want[64];

	ck_assert_int_eq(procctl_signal(NULL, &w, 1, SIGSTOP, msg, sizeof(msg)), 0);
	snprintf(want, sizeof(want), "sent SIGSTOP to pid %d", pid);
	ck_assert_str_eq(msg, want);
	ck_assert(reaches(p, 'T'));
	ck_assert_int_eq(procctl_signal(NULL, &w, 1, SIGCONT, msg, sizeof(msg)), 0);
	ck_assert(reaches(p, 'S'));
	ck_assert_int_eq(procctl_signal(NULL, &w, 1, SIGTERM, msg, sizeof(msg)), 0);
	ck_assert_int_eq(waitpid(p, &status, 0), p);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	/* reaped: the pid names no process now (nothing could reuse it this fast unseen) */
	ck_assert_int_eq(procctl_signal(NULL, &w, 1, SIGTERM, msg, sizeof(msg)), -ESRCH);
	snprintf(want, sizeof(want), "cannot send SIGTERM to pid %d: no such process", pid);
	ck_assert_msg(!strncmp(msg, want, strlen(want)), "%s", msg);
}
END_TEST

START_TEST(test_several_pids_and_bad_ones)
{
	pid_t a = child(), b = child();
	struct model_ident pids[3] = { ident(a), ident(b), { 0, 0 } };
	int status;
	char msg[256];

	/* pid 0 would be the process group: refused, the others still get the signal */
	ck_assert_int_eq(procctl_signal(NULL, pids, 3, SIGKILL, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strstr(msg, "sent SIGKILL to 2 of 3 processes; pid 0: not a process id"),
		      "%s", msg);
	ck_assert_int_eq(waitpid(a, &status, 0), a);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(waitpid(b, &status, 0), b);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(procctl_signal(NULL, pids, 1, 0, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "no signal 0"));
	pids[0].id = -1; /* never every process */
	ck_assert_int_eq(procctl_signal(NULL, pids, 1, SIGTERM, msg, sizeof(msg)), -EINVAL);
}
END_TEST

/* Nice values: every thread of the process moves, and the status line says where to. */
START_TEST(test_renice_the_child)
{
	pid_t p = child();
	struct model_ident w = ident(p);
	int pid = (int)p, status;
	char msg[256], want[64];

	errno = 0;
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)p), 0);
	ck_assert_int_eq(procctl_renice(NULL, &w, 1, 1, false, msg, sizeof(msg)), 0);
	snprintf(want, sizeof(want), "pid %d: nice 1", pid);
	ck_assert_str_eq(msg, want);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)p), 1);
	ck_assert_int_eq(procctl_renice(NULL, &w, 1, 1, true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, (id_t)p), 2);
	kill(p, SIGKILL);
	waitpid(p, &status, 0);
	ck_assert_int_eq(procctl_renice(NULL, &w, 1, 1, false, msg, sizeof(msg)), -ESRCH);
	ck_assert_ptr_nonnull(strstr(msg, "no such process"));
}
END_TEST

/*
 * Refusals as another user: signalling someone else's process (EPERM) and lowering one's own
 * nice value (EACCES) give sentences that say why. Run in a child that drops root.
 */
START_TEST(test_refusals_name_the_reason)
{
	pid_t victim, tester;
	struct model_ident vw;
	int status;

	if (geteuid() != 0) {
		/* unprivileged already: pid 1 is someone else's */
		struct model_ident one = ident(1);
		char msg[256];

		ck_assert_int_eq(procctl_signal(NULL, &one, 1, SIGCONT, msg, sizeof(msg)), -EPERM);
		ck_assert_ptr_nonnull(strstr(msg, "permission denied"));
		return;
	}
	victim = child();
	vw = ident(victim);
	tester = fork();
	ck_assert_int_ge(tester, 0);
	if (tester == 0) {
		struct model_ident self = ident(getpid());
		char msg[256];

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (procctl_signal(NULL, &vw, 1, SIGKILL, msg, sizeof(msg)) != -EPERM ||
		    !strstr(msg, "permission denied: it belongs to another user"))
			_exit(11);
		if (procctl_renice(NULL, &self, 1, -1, false, msg, sizeof(msg)) != -EACCES ||
		    !strstr(msg, "cannot lower the nice value") ||
		    !strstr(msg, "needs root or CAP_SYS_NICE"))
			_exit(12);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(tester, &status, 0), tester);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the unprivileged child: %d",
		      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	/* the victim lived through it */
	ck_assert(reaches(victim, 'S'));
	kill(victim, SIGKILL);
	waitpid(victim, &status, 0);
}
END_TEST

/*
 * A fake kernel with one process, pid FAKE_PID: its start time as /proc says it, which the
 * test can change at pidfd_open (the chosen process exits and a newcomer takes its pid right
 * then), whether pidfds exist, and what was done.
 */
#define FAKE_PID 4242
#define FAKE_STAT_FD 900
#define FAKE_PIDFD 901

struct fake {
	unsigned long long start;	/* the start time of whoever has FAKE_PID now */
	unsigned long long start_after; /* nonzero: FAKE_PID's start once pidfd_open ran */
	bool no_pidfd;			/* pidfd_open says ENOSYS */
	bool not_leader;		/* FAKE_PID is a thread: only PIDFD_THREAD opens it */
	bool exits_meanwhile;		/* the pidfd polls readable after the act */
	int opened, closed;		/* pidfds */
	int sent, sent_flags, killed, nice, niced;
};

static int fake_openat(void *ctx, int dirfd, const char *path, int flags)
{
	char want[64];

	(void)ctx;
	(void)dirfd;
	(void)flags;
	snprintf(want, sizeof(want), "/proc/%d/stat", FAKE_PID);
	return strcmp(path, want) ? -ENOENT : FAKE_STAT_FD;
}

static long fake_pread(void *ctx, int fd, void *buf, size_t size, long long off)
{
	struct fake *f = ctx;
	int n;

	ck_assert_int_eq(fd, FAKE_STAT_FD);
	ck_assert_int_eq(off, 0);
	/* fields 4..21, then starttime (22) and a few after it */
	n = snprintf(buf, size,
		     "%d (sleeper) S 1 %d %d 0 -1 4194304 10 0 0 0 1 2 0 0 20 0 1 0 %llu "
		     "1000 100\n",
		     FAKE_PID, FAKE_PID, FAKE_PID, f->start);
	return n < (int)size ? n : (long)size - 1;
}

static int fake_close(void *ctx, int fd)
{
	struct fake *f = ctx;

	if (fd == FAKE_PIDFD)
		f->closed++;
	return 0;
}

static int fake_pidfd_open(void *ctx, int pid, unsigned flags)
{
	struct fake *f = ctx;

	if (f->no_pidfd)
		return -ENOSYS;
	if (pid != FAKE_PID)
		return -ESRCH;
	if (f->not_leader && !(flags & O_EXCL))
		return -EINVAL;
	if (f->start_after)
		f->start = f->start_after;
	f->opened++;
	return FAKE_PIDFD;
}

static int fake_pidfd_send_signal(void *ctx, int pidfd, int sig, unsigned flags)
{
	struct fake *f = ctx;

	ck_assert_int_eq(pidfd, FAKE_PIDFD);
	f->sent = sig;
	f->sent_flags = (int)flags;
	return 0;
}

static int fake_kill(void *ctx, int pid, int sig)
{
	struct fake *f = ctx;

	ck_assert_int_eq(pid, FAKE_PID);
	f->killed = sig;
	return 0;
}

static int fake_getnice(void *ctx, int tid, int *nice)
{
	struct fake *f = ctx;

	ck_assert_int_eq(tid, FAKE_PID);
	*nice = f->nice;
	return 0;
}

static int fake_setnice(void *ctx, int tid, int nice)
{
	struct fake *f = ctx;

	ck_assert_int_eq(tid, FAKE_PID);
	f->nice = nice;
	f->niced++;
	return 0;
}

static int fake_pidfd_exited(void *ctx, int pidfd)
{
	struct fake *f = ctx;

	ck_assert_int_eq(pidfd, FAKE_PIDFD);
	return f->exits_meanwhile;
}

static struct sysops fake_ops(struct fake *f)
{
	return (struct sysops){ .ctx = f,
				.openat = fake_openat,
				.pread = fake_pread,
				.close = fake_close,
				.pidfd_open = fake_pidfd_open,
				.pidfd_send_signal = fake_pidfd_send_signal,
				.kill = fake_kill,
				.getnice = fake_getnice,
				.setnice = fake_setnice,
				.pidfd_exited = fake_pidfd_exited };
}

/* The process chosen: FAKE_PID as it was, started at tick 100. */
static const struct model_ident CHOSEN = { FAKE_PID, 100 };

/* Chosen, then exited; its pid names a newcomer by the time of the act: nothing is sent. */
START_TEST(test_pid_reused_before_the_act_gets_nothing)
{
	struct fake f = { .start = 250 };
	struct sysops ops = fake_ops(&f);
	char msg[256], want[128];

	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGTERM, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.sent, 0);
	ck_assert_int_eq(f.killed, 0);
	ck_assert_int_eq(f.opened, f.closed);
	snprintf(want, sizeof(want),
		 "cannot send SIGTERM to pid %d: process %d exited; its pid names "
		 "another process now, left alone",
		 FAKE_PID, FAKE_PID);
	ck_assert_str_eq(msg, want);
	/* the nice value likewise */
	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, 1, false, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.niced, 0);
	ck_assert_ptr_nonnull(strstr(msg, "process 4242 exited"));
}
END_TEST

/*
 * The pid changes hands in the very instant the pidfd is opened, so the pidfd holds the
 * newcomer: the start time read after the open tells, and nothing goes through it.
 */
START_TEST(test_pid_reused_at_the_open_gets_nothing)
{
	struct fake f = { .start = 100, .start_after = 250 };
	struct sysops ops = fake_ops(&f);
	char msg[256];

	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGKILL, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.opened, 1);
	ck_assert_int_eq(f.closed, 1);
	ck_assert_int_eq(f.sent, 0);
	ck_assert_int_eq(f.killed, 0);
	ck_assert_ptr_nonnull(strstr(msg, "process 4242 exited"));
	f.start = 100;
	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, 1, true, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.niced, 0);
}
END_TEST

/* The same process: the signal goes through its pidfd, never kill(2) on the number. */
START_TEST(test_same_process_is_signalled_through_its_pidfd)
{
	struct fake f = { .start = 100 };
	struct sysops ops = fake_ops(&f);
	char msg[256];

	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGTERM, msg, sizeof(msg)), 0);
	ck_assert_int_eq(f.sent, SIGTERM);
	ck_assert_int_eq(f.sent_flags, 0);
	ck_assert_int_eq(f.killed, 0);
	ck_assert_int_eq(f.opened, 1);
	ck_assert_int_eq(f.closed, 1);
	ck_assert_str_eq(msg, "sent SIGTERM to pid 4242");
	/* a thread that leads no process: a thread's pidfd, the signal to its whole process */
	f.not_leader = true;
	f.sent = 0;
	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGHUP, msg, sizeof(msg)), 0);
	ck_assert_int_eq(f.sent, SIGHUP);
	ck_assert_int_eq(f.sent_flags, 1 << 1); /* PIDFD_SIGNAL_THREAD_GROUP */
	ck_assert_int_eq(f.killed, 0);
	ck_assert_int_eq(f.opened, f.closed);
}
END_TEST

/* Renice holds the pidfd across setpriority; one that exited meanwhile is reported. */
START_TEST(test_renice_holds_the_process)
{
	struct fake f = { .start = 100, .nice = 3 };
	struct sysops ops = fake_ops(&f);
	char msg[256];

	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, 1, true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(f.nice, 4);
	ck_assert_str_eq(msg, "thread 4242: nice 4");
	ck_assert_int_eq(f.opened, 1);
	ck_assert_int_eq(f.closed, 1);
	f.exits_meanwhile = true;
	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, 1, true, msg, sizeof(msg)), -ESRCH);
	ck_assert_ptr_nonnull(strstr(msg, "no such process"));
	ck_assert_int_eq(f.opened, f.closed);
}
END_TEST

/* No pidfds (before Linux 5.3): checked just before acting, and the status line says so. */
START_TEST(test_without_pidfds_the_start_time_is_checked)
{
	struct fake f = { .start = 100, .no_pidfd = true };
	struct sysops ops = fake_ops(&f);
	char msg[256];

	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGTERM, msg, sizeof(msg)), 0);
	ck_assert_int_eq(f.killed, SIGTERM);
	ck_assert_int_eq(f.sent, 0);
	ck_assert_str_eq(msg, "sent SIGTERM to pid 4242 (no pidfds: checked just before)");
	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, -1, true, msg, sizeof(msg)), 0);
	ck_assert_int_eq(f.nice, -1);
	ck_assert_ptr_nonnull(strstr(msg, "(no pidfds: checked just before)"));
	/* a newcomer on the pid: nothing */
	f.killed = 0;
	f.niced = 0;
	f.start = 250;
	ck_assert_int_eq(procctl_signal(&ops, &CHOSEN, 1, SIGTERM, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.killed, 0);
	ck_assert_ptr_nonnull(strstr(msg, "process 4242 exited"));
	ck_assert_int_eq(procctl_renice(&ops, &CHOSEN, 1, 1, true, msg, sizeof(msg)), -ESRCH);
	ck_assert_int_eq(f.niced, 0);
	ck_assert_int_eq(f.opened, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("procctl");
	TCase *tc = tcase_create("children");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_signals_reach_the_process);
	tcase_add_test(tc, test_several_pids_and_bad_ones);
	tcase_add_test(tc, test_renice_the_child);
	tcase_add_test(tc, test_refusals_name_the_reason);
	suite_add_tcase(s, tc);
	tc = tcase_create("identity");
	tcase_add_test(tc, test_pid_reused_before_the_act_gets_nothing);
	tcase_add_test(tc, test_pid_reused_at_the_open_gets_nothing);
	tcase_add_test(tc, test_same_process_is_signalled_through_its_pidfd);
	tcase_add_test(tc, test_renice_holds_the_process);
	tcase_add_test(tc, test_without_pidfds_the_start_time_is_checked);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
