/* The context-switch counting program, built instruction by instruction (pure). */
#ifndef PMCTOP_BPFPROG_H
#define PMCTOP_BPFPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/bpf_insn.h"

#define BPFPROG_MAX_EVENTS 16 /* the deltas kept on the program's 512-byte stack */
#define BPFPROG_FIELDS 3      /* per event: counter, time enabled, time running */
/* bytes of one process's value (and of the per-CPU last reads) */
#define BPFPROG_VALUE_SIZE(nev) ((size_t)(nev)*BPFPROG_FIELDS * 8)
/* bytes of the entry of last: the last reads, and the sums no entry took */
#define BPFPROG_LAST_SIZE(nev) (2 * BPFPROG_VALUE_SIZE(nev))
/* instructions the program of nev events takes; ns: tgids as a PID namespace sees them */
#define BPFPROG_INSNS(nev, ns)                                                                     \
	(36 + ((ns) ? 35 : 0) + (BPFPROG_FIELDS + 8 + 7 * BPFPROG_FIELDS) * (size_t)(nev))

/*
 * The maps the program works on, by descriptor: last, a per-CPU array of one
 * entry holding the last counter, enabled and running read of each event on
 * that CPU, then as much again for the sums of tasks that found no entry in
 * acc (BPFPROG_LAST_SIZE); acc, a per-CPU hash from tgid to the sums of the differences;
 * perf[i], event i's perf event array indexed by CPU.
 */
struct bpfprog_maps {
	int last;
	int acc;
	const int *perf;
	int nev;
	/*
	 * When ns: key by the tgid in the PID namespace whose nsfs file has
	 * device ns_dev and inode ns_ino (the /proc pmctop reads shows those);
	 * a task of any other namespace is charged to key 0, as idle is.
	 */
	bool ns;
	uint64_t ns_dev, ns_ino;
	/*
	 * When ns: an LRU hash from the kernel's tgid to the namespace's, filled
	 * as processes enter acc, for a thread's last switch after its exit has
	 * taken it out of the namespace
	 */
	int alias;
};

/*
 * Write the program into out (room for max instructions): run at each
 * context switch (and on demand on each CPU), it reads every event's
 * counter on the current CPU and adds what it grew since the last read to
 * the entry of the task that is current, which at sched_switch is the one
 * leaving the CPU. The number of instructions, or -E2BIG (too many events
 * or too little room), -EINVAL (no event).
 */
int bpfprog_build(const struct bpfprog_maps *m, struct bpfi *out, size_t max);

#endif
