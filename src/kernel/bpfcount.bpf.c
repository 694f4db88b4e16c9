/* The context-switch counting program: per-CPU counter growth added to the task leaving the CPU. */
/*
 * It reads no kernel structure, so it needs neither BTF nor CO-RE and loads
 * as it is from Linux 5.10 on (5.7 for the PID namespace helper): the
 * outgoing task at sched_switch is current, and its ids come from helpers.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpfprog.h"

#define BPFCOUNT_ENOENT 2

/* Set by pmctop before the load; the verifier sees them as constants. */
const volatile __u32 nev = 1;	 /* events counted, at most BPFPROG_MAX_EVENTS */
const volatile __u32 stride = 1; /* entries of events per event: CPU numbers are below it */
/* BPFPROG_READ_TIMED ... of each event, and the event whose enabled time is the clock */
const volatile __u8 kinds[BPFPROG_MAX_EVENTS] = { 0 };
const volatile __u32 clock_ev = 0;
/* Key by the tgids of the PID namespace whose nsfs file has this device and inode. */
const volatile __u8 ns = 0;
const volatile __u64 ns_dev = 0, ns_ino = 0;
/* Written by pmctop while the program runs: BPFPROG_WANT_NONE, _SOME or _ALL. */
__u32 wanting = BPFPROG_WANT_NONE;

/*
 * The last counter, enabled and running read of each event on this CPU,
 * then as much again for the sums of tasks that found no entry in acc
 * (value size BPFPROG_LAST_SIZE(nev), set by pmctop).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, 1);
} last SEC(".maps");

/* tgid -> the sums of the differences, per CPU (value size BPFPROG_VALUE_SIZE(nev)) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, BPFPROG_MAX_PROCS);
	/* allocated as processes come: a table sized for pid_max would be large, and idle */
	__uint(map_flags, BPF_F_NO_PREALLOC);
} acc SEC(".maps");

/*
 * tid -> the sums of the differences, per CPU, for the threads of the
 * processes whose thread rows are shown only: the switches of every other
 * process cost no more than without thread rows
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, BPFPROG_MAX_THREADS);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} thr SEC(".maps");

/* The tgids whose threads go into thr while wanting is BPFPROG_WANT_SOME (written by pmctop). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u8));
	__uint(max_entries, BPFPROG_MAX_WANTED);
} wanted SEC(".maps");

/* Event i of CPU c at index i * stride + c. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} events SEC(".maps");

/*
 * In a PID namespace: the kernel's tgid -> the namespace's, filled as
 * processes enter acc, for a thread's last switch after its exit has taken
 * it out of the namespace; least recently used first out, so a lost entry
 * costs one thread's last slice.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, BPFPROG_ALIASES);
} alias SEC(".maps");

/*
 * The process the current task belongs to, as pmctop's /proc numbers it; 0
 * for none. *tid: the task itself, numbered alike; 0 when not known.
 */
static __always_inline __u32 bpfcount_key(__u32 *tid)
{
	struct bpf_pidns_info ni;
	__u32 global, *a;
	__u64 id;
	long r;

	*tid = 0;
	if (!ns) {
		id = bpf_get_current_pid_tgid();
		*tid = (__u32)id;
		return id >> 32;
	}
	r = bpf_get_ns_current_pid_tgid(ns_dev, ns_ino, &ni, sizeof(ni));
	if (r == 0) {
		*tid = ni.pid;
		return ni.tgid;
	}
	/* another namespace's task (EINVAL), or idle: key 0 */
	if (r != -BPFCOUNT_ENOENT)
		return 0;
	/*
	 * a thread past the point of its exit where it left the namespace: by
	 * the kernel's tgid; its last slice goes to its process, not its row
	 */
	global = bpf_get_current_pid_tgid() >> 32;
	a = bpf_map_lookup_elem(&alias, &global);
	return a ? *a : 0;
}

/* Read event i on cpu into now (counter, enabled, running): 0, or the helper's error. */
static __always_inline long event_read(__u32 i, __u32 cpu, __u64 *now)
{
	struct bpf_perf_event_value v;
	long r = bpf_perf_event_read_value(&events, i * stride + cpu, &v, sizeof(v));

	now[0] = v.counter;
	now[1] = v.enabled;
	now[2] = v.running;
	return r;
}

SEC("raw_tp/sched_switch")
int bpfcount_switch(__u64 *ctx)
{
	__u64 zero[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS], clock[BPFPROG_FIELDS];
	__u32 tid, key = bpfcount_key(&tid), k0 = 0, cpu;
	__u64 *lr, *sum, *tsum = NULL;
	/* a run on demand reads the counters for the task on the CPU: it switched nothing */
	__u64 switched = ctx[0] != BPFPROG_FLUSH;
	long clock_err;

	/*
	 * The idle task leaving (half the switches of a CPU that waits): no
	 * process's, and it never faults nor migrates, so those events are not
	 * read (the clock, hardware events and the other software ones are)
	 */
	__u8 idle = !key && (!ns || !(__u32)bpf_get_current_pid_tgid());

	lr = bpf_map_lookup_elem(&last, &k0);
	if (!lr)
		return 0;
	sum = idle ? NULL : bpf_map_lookup_elem(&acc, &key);
	if (!sum && !idle) {
		__builtin_memset(zero, 0, sizeof(zero));
		if (ns && key) {
			/* a process new to the table: remember its kernel tgid for its threads' exits */
			__u32 global = bpf_get_current_pid_tgid() >> 32;

			bpf_map_update_elem(&alias, &global, &key, BPF_ANY);
		}
		/* BPF_NOEXIST: a racing insert wins */
		bpf_map_update_elem(&acc, &key, zero, BPF_NOEXIST);
		sum = bpf_map_lookup_elem(&acc, &key);
	}
	/*
	 * No entry to be had (the table full, or no memory to grow it), or the
	 * idle task: the counters are read all the same, into the spill half of
	 * this CPU's last reads, so that the growth is not charged to the next task
	 */
	if (!sum)
		sum = lr + nev * BPFPROG_FIELDS;
	/* a thread of a process whose thread rows are shown: its own sums too, by tid */
	if (wanting != BPFPROG_WANT_NONE && key && tid &&
	    (wanting == BPFPROG_WANT_ALL || bpf_map_lookup_elem(&wanted, &key))) {
		tsum = bpf_map_lookup_elem(&thr, &tid);
		if (!tsum) {
			__builtin_memset(zero, 0, sizeof(zero));
			bpf_map_update_elem(&thr, &tid, zero, BPF_NOEXIST);
			/* no entry to be had: the process still gets the whole growth */
			tsum = bpf_map_lookup_elem(&thr, &tid);
		}
	}
	cpu = bpf_get_smp_processor_id();
	/* the clock: one event's enabled time, the times of every event not read with its own */
	clock_err = event_read(clock_ev, cpu, clock);
#pragma unroll
	for (__u32 i = 0; i < BPFPROG_MAX_EVENTS; i++) {
		__u64 now[BPFPROG_FIELDS];
		__u8 kind;

		if (i >= nev)
			break;
		kind = kinds[i];
		if (i == clock_ev) {
			if (clock_err)
				continue;
			now[1] = clock[1];
			now[2] = clock[2];
			/* a clock that is the switches or task-clock (nothing else read): as below */
			if (kind == BPFPROG_SWITCHES)
				now[0] = lr[i * BPFPROG_FIELDS] + (switched && !idle);
			else if (kind == BPFPROG_CLOCK)
				now[0] = clock[1];
			else
				now[0] = clock[0];
		} else if (kind == BPFPROG_READ_TIMED) {
			/* not readable on this CPU now: nothing moves, the next read takes the growth */
			if (event_read(i, cpu, now))
				continue;
		} else {
			/* an always-running event: the clock's time, enabled and running alike */
			now[1] = now[2] = clock_err ? lr[i * BPFPROG_FIELDS + 1] : clock[1];
			if (kind == BPFPROG_SWITCHES) {
				now[0] = lr[i * BPFPROG_FIELDS] + (switched && !idle);
			} else if (kind == BPFPROG_READ_TASK && idle) {
				now[0] = lr[i * BPFPROG_FIELDS];
			} else if (kind == BPFPROG_CLOCK) {
				if (clock_err)
					continue;
				now[0] = clock[1];
			} else {
				__u64 c = bpf_perf_event_read(&events, i * stride + cpu);

				/* the helper's errors are the top 4095 values of a count */
				if (c >= (__u64)-4095)
					continue;
				now[0] = c;
			}
		}
#pragma unroll
		for (__u32 f = 0; f < BPFPROG_FIELDS; f++) {
			__u32 off = i * BPFPROG_FIELDS + f;
			__u64 d = now[f] - lr[off];

			lr[off] = now[f];
			sum[off] += d;
			if (tsum)
				tsum[off] += d;
		}
	}
	return 0;
}

/* the counter-reading helper is offered to GPL programs only; pmctop is GPL-2 */
char LICENSE[] SEC("license") = "GPL";
