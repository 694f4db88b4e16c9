/* What the screen does to processes on the user's word: send signals, change nice values. */
#ifndef PMCTOP_PROCCTL_H
#define PMCTOP_PROCCTL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Send sig to each of the n pids. One line for the user goes to msg: what was sent, or for
 * the first that failed, why. Returns 0 when every pid got it, else the -errno of the first
 * failure (-ESRCH gone, -EPERM another user's, -EINVAL not a pid or not a signal).
 */
int procctl_signal(const int *pids, size_t n, int sig, char *msg, size_t size);
/*
 * Change the nice value of each of the n ids by delta, within -20..19: every thread of each
 * process, or only the thread itself when threads is set. One line for the user goes to msg.
 * Returns 0, or the -errno of the first failure (-EACCES lowering needs CAP_SYS_NICE).
 */
int procctl_renice(const int *ids, size_t n, int delta, bool threads, char *msg, size_t size);

#endif
