/* New and gone processes from the kernel's process events, so /proc is not listed every tick. */
#include "config.h"
#include "collect/procevents.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel/proc.h"
#include "util/xalloc.h"

/*
 * Listing /proc is a getdents64 walk over every process each tick; with
 * the kernel's fork and exit events the list is kept up to date instead:
 * a fork of a new process (child pid == its tgid) adds its pid; the exit
 * of a process's leader puts the pid on a watch list, and a watched pid
 * goes when /proc no longer has it (a zombie stays listed until reaped,
 * a leader that exited before its threads stays while they run, as in a
 * listing). /proc is still listed every rescan_s seconds, and at once
 * when the socket overflowed (ENOBUFS: events were lost) or a datagram
 * came truncated. Only the kernel's datagrams (netlink port 0) are read:
 * another local socket could send forged events to this one.
 */
struct procevents {
	int fd;
	double rescan_s, last_list;
	unsigned long listings;
	bool overrun, listed;
	unsigned seq;	  /* of our LISTEN */
	bool refused;	  /* the kernel acknowledged it with an error */
	bool listening;	  /* LISTEN sent and not refused: IGNORE is owed on close */
	bool trusted;	  /* a forked pid was seen in a listing: the events are this /proc's */
	int *add, *watch; /* forked since the last tick; leaders that exited, still to check */
	size_t nadd, addcap, nwatch, watchcap;
};

static double procevents_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The inode of the initial PID namespace (PROC_PID_INIT_INO). */
#define PROCEVENTS_INIT_PIDNS 0xeffffffcu

/*
 * A PID namespace below the initial one: this process's is not the
 * initial one, or NSpid has more than one pid (it shows only the levels
 * from the /proc's namespace down: a /proc mounted in the namespace shows
 * one).
 */
static bool procevents_nested_pidns(int rootfd)
{
	char line[256];
	struct stat st;
	FILE *f;
	bool nested = true; /* unknown: do not trust the events' pids */

	if (fstatat(rootfd, "self/ns/pid", &st, 0) == 0 && st.st_ino != PROCEVENTS_INIT_PIDNS)
		return true;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return nested;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			int a, b;

			nested = sscanf(line + 6, "%d %d", &a, &b) == 2;
			break;
		}
	fclose(f);
	return nested;
}

/* LISTEN or IGNORE: the kernel counts listeners machine-wide, IGNORE alone lowers the count */
static int procevents_send_op(int fd, unsigned seq, enum proc_cn_mcast_op op)
{
	struct {
		struct nlmsghdr nl;
		struct cn_msg cn;
		enum proc_cn_mcast_op op;
	} __attribute__((packed)) msg;

	memset(&msg, 0, sizeof(msg));
	msg.nl.nlmsg_len = sizeof(msg);
	msg.nl.nlmsg_type = NLMSG_DONE;
	msg.nl.nlmsg_pid = 0;
	msg.cn.id.idx = CN_IDX_PROC;
	msg.cn.id.val = CN_VAL_PROC;
	msg.cn.seq = seq;
	msg.cn.len = sizeof(msg.op);
	msg.op = op;
	return send(fd, &msg, sizeof(msg), 0) == (ssize_t)sizeof(msg) ? 0 : -errno;
}

static void procevents_push(int **v, size_t *n, size_t *cap, int pid)
{
	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = pid;
}

static void procevents_drop(int *v, size_t *n, int pid)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == pid)
			v[i--] = v[--*n];
}

/* The event holds its header and the event_data member of size need (fork, exit, ack). */
static bool procevents_covers(const struct cn_msg *cn, size_t need)
{
	return cn->len >= offsetof(struct proc_event, event_data) + need;
}

/*
 * One datagram's events into pe; an acknowledgement of our LISTEN with an
 * error (the kernel refused it) sets pe->refused. A message is read only
 * as far as both its netlink length and its cn_msg length reach.
 */
static void procevents_parse(struct procevents *pe, const char *buf, size_t len)
{
	const struct nlmsghdr *nl = (const struct nlmsghdr *)buf;
	int left = (int)len;

	for (; NLMSG_OK(nl, left); nl = NLMSG_NEXT(nl, left)) {
		const struct cn_msg *cn = NLMSG_DATA(nl);
		/*
		 * The event follows the 20-byte cn_msg, 4-aligned, and holds 64-bit
		 * members: read from a copy (zeroed past cn->len), never in place.
		 */
		struct proc_event evc;
		const struct proc_event *ev = &evc;

		if (nl->nlmsg_len < NLMSG_LENGTH(sizeof(*cn)) || cn->id.idx != CN_IDX_PROC ||
		    cn->id.val != CN_VAL_PROC ||
		    nl->nlmsg_len < NLMSG_LENGTH(sizeof(*cn) + cn->len) ||
		    cn->len < offsetof(struct proc_event, what) + sizeof(ev->what))
			continue;
		memset(&evc, 0, sizeof(evc));
		memcpy(&evc, cn->data, cn->len < sizeof(evc) ? cn->len : sizeof(evc));
		switch (ev->what) {
		case PROC_EVENT_NONE:
			if (procevents_covers(cn, sizeof(ev->event_data.ack)) &&
			    cn->seq == pe->seq && cn->ack == 1 && ev->event_data.ack.err)
				pe->refused = true;
			break;
		case PROC_EVENT_FORK:
			if (procevents_covers(cn, sizeof(ev->event_data.fork)) &&
			    ev->event_data.fork.child_pid == ev->event_data.fork.child_tgid) {
				int pid = ev->event_data.fork.child_tgid;

				procevents_drop(pe->watch, &pe->nwatch, pid);
				procevents_push(&pe->add, &pe->nadd, &pe->addcap, pid);
			}
			break;
		case PROC_EVENT_EXIT:
			if (procevents_covers(cn, sizeof(ev->event_data.exit)) &&
			    ev->event_data.exit.process_pid == ev->event_data.exit.process_tgid)
				procevents_push(&pe->watch, &pe->nwatch, &pe->watchcap,
						ev->event_data.exit.process_tgid);
			break;
		default:
			break;
		}
	}
}

bool procevents_from_kernel(const struct sockaddr *sa, socklen_t salen)
{
	const struct sockaddr_nl *nl = (const struct sockaddr_nl *)sa;

	/* another netlink address is a local process; the tests' socket pairs are not netlink */
	if (salen < sizeof(sa->sa_family) || sa->sa_family != AF_NETLINK)
		return true;
	return salen >= sizeof(*nl) && nl->nl_pid == 0;
}

/*
 * Every event waiting, from the kernel alone; ENOBUFS (the socket
 * overflowed) or a truncated datagram (events not read) marks a listing
 * as due.
 */
static void procevents_drain(struct procevents *pe)
{
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));

	for (;;) {
		struct sockaddr_storage from;
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr mh = { .msg_name = &from, .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n;

		mh.msg_namelen = sizeof(from);
		n = recvmsg(pe->fd, &mh, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			pe->overrun = true;
			continue;
		}
		if (n <= 0)
			return;
		if (!procevents_from_kernel((struct sockaddr *)&from, mh.msg_namelen))
			continue;
		if (mh.msg_flags & MSG_TRUNC) {
			pe->overrun = true;
			continue;
		}
		procevents_parse(pe, buf, (size_t)n);
	}
}

void procevents_attach(struct procevents **pe, int fd, double rescan_s)
{
	struct procevents *p = xcalloc(1, sizeof(*p));

	p->fd = fd;
	p->rescan_s = rescan_s;
	*pe = p;
}

int procevents_listen(struct procevents *pe)
{
	struct pollfd pfd = { .fd = pe->fd, .events = POLLIN };
	int err;

	pe->seq = (unsigned)getpid();
	err = procevents_send_op(pe->fd, pe->seq, PROC_CN_MCAST_LISTEN);
	if (err)
		return err;
	/*
	 * A refused LISTEN (no CAP_NET_ADMIN) is acknowledged with an error,
	 * soon, and not counted by the kernel; one from another namespace is
	 * ignored in silence. The events are trusted once a pid they
	 * announced turns up in a listing of this /proc: until then /proc is
	 * listed every tick as before.
	 */
	if (poll(&pfd, 1, 20) > 0)
		procevents_drain(pe);
	if (pe->refused)
		return -EPERM;
	pe->listening = true;
	pe->nadd = pe->nwatch = 0;
	return 0;
}

int procevents_open(struct procevents **pe, int rootfd, double rescan_s)
{
	struct procevents *p;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	int size = 4 << 20, err, fd;

	*pe = NULL;
	if (getenv("PMCTOP_NO_PROC_EVENTS"))
		return -ECANCELED;
	/* events carry the initial namespace's pids, and are not sent to other namespaces */
	if (procevents_nested_pidns(rootfd) || !proc_is_own(rootfd))
		return -EXDEV;
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0)
		return -errno;
	procevents_attach(&p, fd, rescan_s);
	/* room for a burst of forks between two ticks; more is an overrun and a listing */
	if (setsockopt(p->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(p->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		goto fail;
	}
	err = procevents_listen(p);
	if (err)
		goto fail;
	*pe = p;
	return 0;
fail:
	procevents_close(p);
	return err;
}

long procevents_ids(struct procevents *pe, int rootfd, int **ids, size_t *cap, long n)
{
	size_t k = 0, w = 0;
	double now;

	if (!pe || pe->refused)
		return proc_list_ids(rootfd, ".", ids, cap);
	procevents_drain(pe);
	now = procevents_now();
	if (!pe->trusted || !pe->listed || n < 0 || pe->overrun ||
	    now - pe->last_list >= pe->rescan_s) {
		long r = proc_list_ids(rootfd, ".", ids, cap);

		/* a process the events announced, alive in the listing: they can be trusted */
		for (size_t i = 0; r > 0 && !pe->trusted && i < pe->nadd; i++)
			pe->trusted = bsearch(&pe->add[i], *ids, (size_t)r, sizeof(**ids),
					      proc_cmp_int) != NULL;
		if (r >= 0) {
			size_t kept = 0;

			/*
			 * a watched pid not listed is gone: without this the
			 * list grows with every exit while the events are not
			 * used; a zombie listed now stays watched (once) until
			 * reaped
			 */
			if (pe->nwatch) /* watch is NULL until the first exit */
				qsort(pe->watch, pe->nwatch, sizeof(*pe->watch), proc_cmp_int);
			for (size_t i = 0; i < pe->nwatch; i++)
				if ((!kept || pe->watch[kept - 1] != pe->watch[i]) && r > 0 &&
				    bsearch(&pe->watch[i], *ids, (size_t)r, sizeof(**ids),
					    proc_cmp_int))
					pe->watch[kept++] = pe->watch[i];
			pe->nwatch = kept;
			pe->listed = true;
			pe->overrun = false;
			pe->last_list = now;
			pe->listings++;
			pe->nadd = 0;
		}
		return r;
	}
	/* the new pids, then the leaders that exited and are gone from /proc */
	for (size_t i = 0; i < pe->nadd; i++) {
		*ids = xgrow(*ids, cap, (size_t)n + 1, sizeof(**ids));
		(*ids)[n++] = pe->add[i];
	}
	pe->nadd = 0;
	for (size_t i = 0; i < pe->nwatch; i++) {
		char name[16];
		int pid = pe->watch[i];

		snprintf(name, sizeof(name), "%d", pid);
		if (faccessat(rootfd, name, F_OK, 0) == 0) {
			pe->watch[w++] = pid; /* a zombie, or threads still run: look again */
			continue;
		}
		for (long j = 0; j < n; j++)
			if ((*ids)[j] == pid)
				(*ids)[j] = 0;
	}
	pe->nwatch = w;
	if (n > 0)
		qsort(*ids, (size_t)n, sizeof(**ids), proc_cmp_int);
	/* drop the gone (0) and the twice-told */
	for (long j = 0; j < n; j++)
		if ((*ids)[j] > 0 && (!k || (*ids)[k - 1] != (*ids)[j]))
			(*ids)[k++] = (*ids)[j];
	return (long)k;
}

unsigned long procevents_listings(const struct procevents *pe)
{
	return pe ? pe->listings : 0;
}

size_t procevents_watched(const struct procevents *pe)
{
	return pe ? pe->nwatch : 0;
}

void procevents_close(struct procevents *pe)
{
	if (!pe)
		return;
	/* without IGNORE the kernel keeps sending every process's events after we are gone */
	if (pe->listening)
		procevents_send_op(pe->fd, pe->seq, PROC_CN_MCAST_IGNORE);
	if (pe->fd >= 0)
		close(pe->fd);
	free(pe->add);
	free(pe->watch);
	free(pe);
}
