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
/* in a PID namespace: the processes whose exiting threads are still charged */
#define BPFPROG_ALIASES 16384

#endif
