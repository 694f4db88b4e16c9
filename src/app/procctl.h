/* What the screen does to processes on the user's word: send signals, change nice values. */
#ifndef PMCTOP_PROCCTL_H
#define PMCTOP_PROCCTL_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/sysops.h"
#include "model/model.h"

/*
 * Both act on processes as the user chose them, pid and start time, never on a bare pid: each
 * is opened as a pidfd, its start time read again once the pidfd holds it, and acted on through
 * the pidfd only when the two agree, so one that exited is never mistaken for a newcomer given
 * its pid. Where the kernel has no pidfds (before Linux 5.3; for a thread's id, before 6.9) the
 * start time is checked just before acting: a pid freed and reused in that instant would still
 * be hit. ops is the system-call table (NULL: the real one).
 */

/*
 * Send sig to each of the n processes who. One line for the user goes to msg: what was sent,
 * or for the first that failed, why. Returns 0 when every one got it, else the -errno of the
 * first failure (-ESRCH exited, its pid maybe another's now; -EPERM another user's; -EINVAL
 * not a pid or not a signal).
 */
int procctl_signal(const struct sysops *ops, const struct model_ident *who, size_t n, int sig,
		   char *msg, size_t size);
/*
 * Change the nice value of each of the n processes who by delta, within -20..19: every thread
 * of each process, or only the thread itself when threads is set. One line for the user goes
 * to msg. Returns 0, or the -errno of the first failure (-ESRCH exited, -EACCES lowering needs
 * CAP_SYS_NICE).
 */
int procctl_renice(const struct sysops *ops, const struct model_ident *who, size_t n, int delta,
		   bool threads, char *msg, size_t size);

#endif
