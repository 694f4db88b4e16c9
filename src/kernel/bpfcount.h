/* Process counts summed at each context switch by a BPF program: maps, load, attach, read. */
#ifndef PMCTOP_BPFCOUNT_H
#define PMCTOP_BPFCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/bpfprog.h"
#include "kernel/perf_compat.h"
#include "kernel/sysops.h"

/* The step that failed, for the message that says why --bpf is not used. */
enum bpfcount_step {
	BPFCOUNT_NOT_BUILT = 0, /* pmctop was built without it (configure --disable-bpf) */
	BPFCOUNT_POSSIBLE,	/* reading the possible CPUs from sysfs */
	BPFCOUNT_MAP,		/* creating a map (EPERM: not root nor CAP_BPF) */
	BPFCOUNT_EVENT,		/* opening event ev on cpu */
	BPFCOUNT_ARRAY,		/* putting event ev of cpu into its array (the helper refuses it) */
	BPFCOUNT_LOAD,		/* loading the program (the verifier's last words in log) */
	BPFCOUNT_ATTACH,	/* attaching to sched_switch */
	BPFCOUNT_TEST_RUN,	/* running it on cpu on demand (Linux 5.10) */
	BPFCOUNT_READ,		/* reading the map */
	/* the kernel lacks what the program needs (libbpf's probes name it in log) */
	BPFCOUNT_KERNEL = 13,
};

struct bpfcount_why {
	enum bpfcount_step step;
	int err; /* -errno */
	int ev, cpu;
	/* BPFCOUNT_LOAD: the verifier's last line, "" when none; BPFCOUNT_KERNEL: what is missing */
	char log[160];
};

struct bpfcount;

/*
 * Open attrs[0..nev) on every CPU of cpus (one descriptor per event per CPU,
 * counting every task there), load the program and attach it to
 * sched_switch. The attrs are copied and made per-CPU and enabled.
 * 0 with *out, or -errno with *why filled and nothing left open.
 */
int bpfcount_open(struct bpfcount **out, const struct sysops *ops, const char *sysfs,
		  const struct perf_event_attr *const *attrs, int nev, const int *cpus,
		  size_t ncpus, struct bpfcount_why *why);
/* Descriptors it holds. */
size_t bpfcount_fds(const struct bpfcount *b);
/*
 * Flush what the tasks running now counted (the program run on each CPU
 * of cpus), then read every process's sums. 0 or -errno (*why filled).
 */
int bpfcount_read(struct bpfcount *b, struct bpfcount_why *why);
/*
 * The sums of tgid at the last read: nev x BPFPROG_FIELDS values (counter,
 * enabled, running), or NULL when it counted nothing.
 */
const uint64_t *bpfcount_get(const struct bpfcount *b, int tgid);
/* The tgids of the last read, ascending; *n their count. */
const int *bpfcount_keys(const struct bpfcount *b, size_t *n);
/* Drop the sums of a process that exited. 0 or -errno. */
int bpfcount_forget(struct bpfcount *b, int tgid);
/*
 * Sum the threads of process tgid by tid too (on), from the next switch,
 * or no longer; at most BPFPROG_MAX_WANTED processes. 0 or -errno.
 */
int bpfcount_want(struct bpfcount *b, int tgid, bool on);
/* Sum the threads of every process by tid (on), or only those wanted one by one. */
int bpfcount_want_all(struct bpfcount *b, bool on);
/*
 * The sums of thread tid at the last read (since its process was first
 * wanted), as bpfcount_get gives a process's; NULL when it has none.
 */
const uint64_t *bpfcount_thread(const struct bpfcount *b, int tid);
/* The tids of the last read, ascending; *n their count. */
const int *bpfcount_tids(const struct bpfcount *b, size_t *n);
/* Drop the sums of a thread (gone, or its process no longer wanted). 0 or -errno. */
int bpfcount_forget_thread(struct bpfcount *b, int tid);
void bpfcount_close(struct bpfcount *b);

#endif
