/* -- CMD: the command pmctop runs, held before its exec until pmctop watches it. */
#include "config.h"
#include "app/command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/textsafe.h"

static double command_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 0 when file can be executed, -EACCES when it is there but cannot, -ENOENT when it is not. */
static int command_try(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		return errno == EACCES ? -EACCES : -ENOENT;
	if (S_ISDIR(st.st_mode) || access(file, X_OK) < 0)
		return -EACCES;
	return 0;
}

int command_find(const char *name, const char *path_env, char *out, size_t size)
{
	const char *p;
	int found = -ENOENT;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		snprintf(out, size, "%s", name);
		return command_try(name);
	}
	p = path_env && *path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
	while (p) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char file[4096];
		int r;

		/* an empty entry is the current directory, as for a shell */
		snprintf(file, sizeof(file), "%.*s%s%s", (int)len, len ? p : ".", "/", name);
		r = command_try(file);
		if (!r) {
			snprintf(out, size, "%s", file);
			return 0;
		}
		/* as a shell: one that cannot be run is reported only if no other can */
		if (r == -EACCES && found == -ENOENT) {
			snprintf(out, size, "%s", file);
			found = -EACCES;
		}
		p = colon ? colon + 1 : NULL;
	}
	return found;
}

/* In the child: wait for the go, then become the command. Never returns. */
static void command_child(struct command *c, int in)
{
	sigset_t none;
	char b;
	ssize_t n;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* pmctop ignores SIGPIPE; an ignored signal would stay ignored across the exec */
	signal(SIGPIPE, SIG_DFL);
	do
		n = read(in, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* pmctop went away before it watched */
	close(in);
	execv(c->file, c->argv);
	textsafe_fprintf(stderr, "pmctop: cannot run '%s': %s\n", c->argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

int command_start(struct command *c, char *const *argv)
{
	int p[2];
	sigset_t chld;

	c->argv = argv;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	fflush(NULL);
	c->start = command_now();
	c->pid = fork();
	if (c->pid < 0) {
		int err = errno;

		close(p[0]);
		close(p[1]);
		c->pid = 0;
		return -err;
	}
	if (!c->pid) {
		close(p[1]);
		command_child(c, p[0]);
	}
	close(p[0]);
	c->go = p[1];
	return 0;
}

void command_go(struct command *c)
{
	char b = 1;

	if (c->go < 0)
		return;
	while (write(c->go, &b, 1) < 0 && errno == EINTR)
		;
	close(c->go);
	c->go = -1;
}

int command_wait(struct command *c, struct summary_run *run)
{
	struct rusage ru;
	int st;

	if (c->go >= 0) {
		/* never let go: closing the pipe makes it leave without running anything */
		close(c->go);
		c->go = -1;
	}
	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	run->wall_s = command_now() - c->start;
	run->status = st;
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
		run->ru.user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
		run->ru.sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		run->ru.faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
		run->ru.csw = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	}
	return st;
}

int command_exit_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return WEXITSTATUS(wstatus);
}
