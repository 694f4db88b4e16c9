/* The context-switch program's table layout, shared by the program (bpfcount.bpf.c) and pmctop. */
#ifndef PMCTOP_BPFPROG_H
#define PMCTOP_BPFPROG_H

/* events counted at most: the zero value of a new entry is kept on the 512-byte stack */
#define BPFPROG_MAX_EVENTS 16
/* per event: counter, time enabled, time running */
#define BPFPROG_FIELDS 3
/* bytes of one process's value (and of the per-CPU last reads) */
#define BPFPROG_VALUE_SIZE(nev) ((unsigned long)(nev)*BPFPROG_FIELDS * 8)
/* bytes of the entry of last: the last reads, and the sums no entry took */
#define BPFPROG_LAST_SIZE(nev) (2 * BPFPROG_VALUE_SIZE(nev))
/* processes counted at once: the kernel sizes its buckets by it */
#define BPFPROG_MAX_PROCS (1 << 16)
/* threads summed by tid at once (those of the processes whose thread rows are shown) */
#define BPFPROG_MAX_THREADS (1 << 16)
/* processes named one by one whose threads are summed too (the drill-down's) */
#define BPFPROG_MAX_WANTED 1024
/* wanting: whose threads are summed by tid besides their process */
#define BPFPROG_WANT_NONE 0
#define BPFPROG_WANT_SOME 1 /* the tgids in the wanted table */
#define BPFPROG_WANT_ALL 2  /* every process's (-H) */
/*
 * How the program takes each event's growth at a switch (kinds, set by
 * pmctop). Each helper call costs the switch a read of a counter with
 * interrupts off; what the switch itself tells is not read:
 */
#define BPFPROG_READ_TIMED 0 /* counter, enabled and running read (hardware: multiplexed) */
#define BPFPROG_READ_COUNT 1 /* counter read; always running: times are the clock event's */
#define BPFPROG_SWITCHES 2   /* context-switches: one for the task switched out, no read */
#define BPFPROG_CLOCK 3	     /* task-clock of a CPU: the clock event's enabled time, no read */
#define BPFPROG_READ_TASK                                                                          \
	4 /* counter read, but not when the idle task leaves (faults, migrations) */
/* ctx[0] of a run on demand (the tracepoint's is preempt, 0 or 1): no task is switched out */
#define BPFPROG_FLUSH 2

/* in a PID namespace: the processes whose exiting threads are still charged */
#define BPFPROG_ALIASES 16384

#endif
