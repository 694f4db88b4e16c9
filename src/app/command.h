/* -- CMD: the command pmctop runs, held before its exec until pmctop watches it. */
#ifndef PMCTOP_COMMAND_H
#define PMCTOP_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

#include "out/summary.h"

struct command {
	pid_t pid;	   /* 0 when not started */
	int go;		   /* the pipe's end the child waits on; -1 once it was let go */
	double start;	   /* CLOCK_MONOTONIC seconds at the fork */
	char file[4096];   /* what is executed: argv[0] found in PATH */
	char *const *argv; /* borrowed */
};

/*
 * Find name as a shell would: as a path when it has a slash, else in each
 * directory of path_env (NULL or "": the default path). 0 with the file in
 * out; -ENOENT when there is none, -EACCES when one is there but cannot be
 * executed (out names it). Touches nothing but the file system.
 */
int command_find(const char *name, const char *path_env, char *out, size_t size);

/*
 * Fork the child, which waits until command_go and then executes file
 * with argv (its signals back to their defaults, none blocked); when the
 * exec fails it says why and exits 126 or 127. SIGCHLD is blocked in the
 * caller from here on, so that the command's end waits in the loop's
 * signalfd. 0, or -errno of pipe or fork.
 */
int command_start(struct command *c, char *const *argv);
/* Let the child execute the command. */
void command_go(struct command *c);
/*
 * Wait for the command's end and fill the summary's times: the wall time
 * since the fork, the rusage of the children pmctop waited for (the command,
 * and every descendant it waited for in turn). A child not let go is told to
 * end. The wait status, or -errno.
 */
int command_wait(struct command *c, struct summary_run *run);
/* The shell's exit status for a wait status: the code, or 128 + the signal. */
int command_exit_status(int wstatus);

#endif
