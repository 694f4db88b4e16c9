/* New and gone processes from the kernel's process events, so /proc is not listed every tick. */
#ifndef PMCTOP_PROCEVENTS_H
#define PMCTOP_PROCEVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct procevents;

/*
 * Listen to the kernel's process events (netlink connector, CN_IDX_PROC)
 * for the /proc open at rootfd, listing /proc again at least every
 * rescan_s seconds. 0 and *pe, or -errno and *pe NULL where they cannot
 * be had: no connector, no CAP_NET_ADMIN (-EPERM), a PID namespace other
 * than the initial one (-EXDEV: the events carry the initial namespace's
 * pids and are not sent to others), PMCTOP_NO_PROC_EVENTS set
 * (-ECANCELED). Callers then list /proc every tick, through
 * procevents_ids(NULL, ...); so does pe until a pid its events announced
 * is seen in a listing (a kernel that ignores the request sends none).
 */
int procevents_open(struct procevents **pe, int rootfd, double rescan_s);
/*
 * procevents over fd, a socket already receiving the events (tests give
 * one end of a socket pair); pe owns fd from then on.
 */
void procevents_attach(struct procevents **pe, int fd, double rescan_s);
/*
 * Ask the kernel for the events over pe's socket (procevents_open does):
 * 0, or -errno (-EPERM: refused). procevents_close then asks it to stop.
 */
int procevents_listen(struct procevents *pe);
/*
 * A datagram from sa (salen bytes) may carry events: a netlink sender
 * must be the kernel (port 0); other families (the tests' socket pairs)
 * are let through.
 */
bool procevents_from_kernel(const struct sockaddr *sa, socklen_t salen);
/*
 * The sorted pids of /proc in *ids (of *cap, grown with xgrow), given
 * those of the last call (n of them, < 0 for none): the last ones
 * updated by the events since, or a listing of /proc (pe NULL, the first
 * call, rescan_s passed, or events lost because the socket overflowed).
 * The count, or -errno as proc_list_ids().
 */
long procevents_ids(struct procevents *pe, int rootfd, int **ids, size_t *cap, long n);
/* Listings of /proc done by pe so far (for tests and the benchmark). */
unsigned long procevents_listings(const struct procevents *pe);
/* Exited leaders still watched until /proc drops them (for tests). */
size_t procevents_watched(const struct procevents *pe);
void procevents_close(struct procevents *pe);

#endif
