/* The context-switch counting program, built instruction by instruction (pure). */
#include "config.h"
#include "collect/bpfprog.h"

#include <errno.h>

/* stack layout below the frame pointer r10 */
#define KEY_TGID (-4)	 /* u32: the current tgid, the key of acc */
#define KEY_ZERO (-8)	 /* u32 0: the key of last */
#define KEY_GLOBAL (-12) /* u32: the tgid as the kernel numbers it, the key of alias */
#define READ_BUF (-40)	 /* the counter, enabled and running bpf_perf_event_read_value fills */
#define ZERO_TOP (-16)	 /* the zero value of a new entry ends here */

struct emit {
	struct bpfi *out;
	size_t n, max;
};

static void emit(struct emit *e, struct bpfi i)
{
	if (e->n < e->max)
		e->out[e->n] = i;
	e->n++;
}

static void emit_map(struct emit *e, int reg, int fd)
{
	emit(e, BPFI_LD_MAP_FD0(reg, fd));
	emit(e, BPFI_LD_MAP_FD1());
}

/* r1 = map fd, r2 = &stack[key]: the first two arguments of a map helper */
static void emit_map_key(struct emit *e, int fd, int key)
{
	emit_map(e, BPFI_R1, fd);
	emit(e, BPFI_MOV64_REG(BPFI_R2, BPFI_R10));
	emit(e, BPFI_ADD64_IMM(BPFI_R2, key));
}

/* Point jump at index j to index target (offsets count from the next instruction). */
static void patch(struct emit *e, size_t j, size_t target)
{
	if (j < e->max)
		e->out[j].off = (int16_t)((long)target - (long)j - 1);
}

int bpfprog_build(const struct bpfprog_maps *m, struct bpfi *out, size_t max)
{
	struct emit e = { out, 0, max };
	int vwords = m->nev * BPFPROG_FIELDS;
	int zero = ZERO_TOP - vwords * 8; /* the zero value for a new entry, below the keys */
	size_t ok = 0, done[3], ndone = 0, skip = 0;
	size_t to_out[1], nto = 0, have;

	if (m->nev <= 0)
		return -EINVAL;
	if (m->nev > BPFPROG_MAX_EVENTS || max < BPFPROG_INSNS(m->nev, m->ns))
		return -E2BIG;
	if (m->ns) {
		/* struct bpf_pidns_info { u32 pid, tgid; } in the read buffer */
		emit(&e, BPFI_LD_IMM64_0(BPFI_R1, m->ns_dev));
		emit(&e, BPFI_LD_IMM64_1(m->ns_dev));
		emit(&e, BPFI_LD_IMM64_0(BPFI_R2, m->ns_ino));
		emit(&e, BPFI_LD_IMM64_1(m->ns_ino));
		emit(&e, BPFI_MOV64_REG(BPFI_R3, BPFI_R10));
		emit(&e, BPFI_ADD64_IMM(BPFI_R3, READ_BUF));
		emit(&e, BPFI_MOV64_IMM(BPFI_R4, 8));
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_GET_NS_CURRENT_PID_TGID));
		/* another namespace's task (EINVAL), or idle: key 0 */
		emit(&e, BPFI_ST_W(BPFI_R10, KEY_TGID, 0));
		ok = e.n;
		emit(&e, BPFI_JMP_IMM(BPFI_JEQ, BPFI_R0, 0, 0));
		done[ndone++] = e.n;
		emit(&e, BPFI_JMP_IMM(BPFI_JNE, BPFI_R0, -ENOENT, 0));
		/*
		 * ENOENT: a thread past the point of its exit where it left the
		 * namespace, in its last switch: the process by the kernel's number
		 */
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_GET_CURRENT_PID_TGID));
		emit(&e, BPFI_RSH64_IMM(BPFI_R0, 32));
		emit(&e, BPFI_STX_W(BPFI_R10, KEY_GLOBAL, BPFI_R0));
		emit_map_key(&e, m->alias, KEY_GLOBAL);
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_LOOKUP_ELEM));
		done[ndone++] = e.n;
		emit(&e, BPFI_JMP_IMM(BPFI_JEQ, BPFI_R0, 0, 0));
		emit(&e, BPFI_LDX_W(BPFI_R1, BPFI_R0, 0));
		emit(&e, BPFI_STX_W(BPFI_R10, KEY_TGID, BPFI_R1));
		done[ndone++] = e.n;
		emit(&e, BPFI_JMP_IMM(BPFI_JA, 0, 0, 0));
		patch(&e, ok, e.n);
		emit(&e, BPFI_LDX_W(BPFI_R1, BPFI_R10, READ_BUF + 4));
		emit(&e, BPFI_STX_W(BPFI_R10, KEY_TGID, BPFI_R1));
		for (size_t k = 0; k < ndone; k++)
			patch(&e, done[k], e.n);
	} else {
		/* the tgid in the upper half of pid_tgid; the tid is ignored: processes are counted */
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_GET_CURRENT_PID_TGID));
		emit(&e, BPFI_RSH64_IMM(BPFI_R0, 32));
		emit(&e, BPFI_STX_W(BPFI_R10, KEY_TGID, BPFI_R0));
	}
	emit(&e, BPFI_ST_W(BPFI_R10, KEY_ZERO, 0));
	/* r7 = this CPU's last reads */
	emit_map_key(&e, m->last, KEY_ZERO);
	emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_LOOKUP_ELEM));
	to_out[nto++] = e.n;
	emit(&e, BPFI_JMP_IMM(BPFI_JEQ, BPFI_R0, 0, 0));
	emit(&e, BPFI_MOV64_REG(BPFI_R7, BPFI_R0));
	/* r8 = the task's sums on this CPU, made zero first when it has none */
	emit_map_key(&e, m->acc, KEY_TGID);
	emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_LOOKUP_ELEM));
	have = e.n;
	emit(&e, BPFI_JMP_IMM(BPFI_JNE, BPFI_R0, 0, 0));
	for (int w = 0; w < vwords; w++)
		emit(&e, BPFI_ST_DW(BPFI_R10, zero + 8 * w, 0));
	if (m->ns) {
		/* a process new to the table: remember its kernel number for its threads' exits */
		emit(&e, BPFI_LDX_W(BPFI_R1, BPFI_R10, KEY_TGID));
		skip = e.n;
		emit(&e, BPFI_JMP_IMM(BPFI_JEQ, BPFI_R1, 0, 0));
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_GET_CURRENT_PID_TGID));
		emit(&e, BPFI_RSH64_IMM(BPFI_R0, 32));
		emit(&e, BPFI_STX_W(BPFI_R10, KEY_GLOBAL, BPFI_R0));
		emit_map_key(&e, m->alias, KEY_GLOBAL);
		emit(&e, BPFI_MOV64_REG(BPFI_R3, BPFI_R10));
		emit(&e, BPFI_ADD64_IMM(BPFI_R3, KEY_TGID));
		emit(&e, BPFI_MOV64_IMM(BPFI_R4, 0)); /* BPF_ANY */
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_UPDATE_ELEM));
		patch(&e, skip, e.n);
	}
	emit_map_key(&e, m->acc, KEY_TGID);
	emit(&e, BPFI_MOV64_REG(BPFI_R3, BPFI_R10));
	emit(&e, BPFI_ADD64_IMM(BPFI_R3, zero));
	emit(&e, BPFI_MOV64_IMM(BPFI_R4, 1)); /* BPF_NOEXIST: a racing insert wins */
	emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_UPDATE_ELEM));
	emit_map_key(&e, m->acc, KEY_TGID);
	emit(&e, BPFI_CALL_HELPER(BPFI_FN_MAP_LOOKUP_ELEM));
	/*
	 * No entry to be had (the table full, or no memory to grow it): the
	 * counters are read all the same, into the spill half of this CPU's
	 * last reads, so that the growth is not charged to the next task
	 */
	emit(&e, BPFI_JMP_IMM(BPFI_JNE, BPFI_R0, 0, 2));
	emit(&e, BPFI_MOV64_REG(BPFI_R0, BPFI_R7));
	emit(&e, BPFI_ADD64_IMM(BPFI_R0, vwords * 8));
	patch(&e, have, e.n);
	emit(&e, BPFI_MOV64_REG(BPFI_R8, BPFI_R0));
	for (int i = 0; i < m->nev; i++) {
		emit_map(&e, BPFI_R1, m->perf[i]);
		emit(&e, BPFI_MOV32_IMM(BPFI_R2, -1)); /* BPF_F_CURRENT_CPU */
		emit(&e, BPFI_MOV64_REG(BPFI_R3, BPFI_R10));
		emit(&e, BPFI_ADD64_IMM(BPFI_R3, READ_BUF));
		emit(&e, BPFI_MOV64_IMM(BPFI_R4, 24));
		emit(&e, BPFI_CALL_HELPER(BPFI_FN_PERF_EVENT_READ_VALUE));
		/* not readable on this CPU now: nothing moves, the next read takes the growth */
		emit(&e, BPFI_JMP_IMM(BPFI_JSLT, BPFI_R0, 0, 7 * BPFPROG_FIELDS));
		for (int f = 0; f < BPFPROG_FIELDS; f++) {
			int off = (i * BPFPROG_FIELDS + f) * 8;

			emit(&e, BPFI_LDX_DW(BPFI_R1, BPFI_R10, READ_BUF + 8 * f));
			emit(&e, BPFI_LDX_DW(BPFI_R2, BPFI_R7, off));
			emit(&e, BPFI_STX_DW(BPFI_R7, off, BPFI_R1));
			emit(&e, BPFI_SUB64_REG(BPFI_R1, BPFI_R2));
			emit(&e, BPFI_LDX_DW(BPFI_R2, BPFI_R8, off));
			emit(&e, BPFI_ADD64_REG(BPFI_R2, BPFI_R1));
			emit(&e, BPFI_STX_DW(BPFI_R8, off, BPFI_R2));
		}
	}
	for (size_t k = 0; k < nto; k++)
		patch(&e, to_out[k], e.n);
	emit(&e, BPFI_MOV64_IMM(BPFI_R0, 0));
	emit(&e, BPFI_EXIT_INSN());
	return (int)e.n;
}
