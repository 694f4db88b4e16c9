/* eBPF instructions as C initialisers, from the kernel's documented encoding (no assembler). */
#ifndef PMCTOP_BPF_INSN_H
#define PMCTOP_BPF_INSN_H

#include <stdint.h>

/*
 * One instruction as the kernel reads it: an opcode byte (class | size or
 * operation | mode or source), the destination and source registers in one
 * byte (as bitfields declared in the kernel's order, so that the host's
 * compiler lays them out as the kernel's own header does), a signed 16-bit
 * offset and a signed 32-bit immediate.
 */
struct bpfi {
	uint8_t code;
	uint8_t dst : 4;
	uint8_t src : 4;
	int16_t off;
	int32_t imm;
};

/* classes */
#define BPFI_LD 0x00
#define BPFI_LDX 0x01
#define BPFI_ST 0x02
#define BPFI_STX 0x03
#define BPFI_ALU 0x04
#define BPFI_JMP 0x05
#define BPFI_ALU64 0x07
/* sizes for loads and stores */
#define BPFI_W 0x00
#define BPFI_DW 0x18
/* modes */
#define BPFI_IMM 0x00
#define BPFI_MEM 0x60
/* the operand: the immediate (K) or the source register (X) */
#define BPFI_K 0x00
#define BPFI_X 0x08
/* ALU operations */
#define BPFI_ADD 0x00
#define BPFI_SUB 0x10
#define BPFI_RSH 0x70
#define BPFI_MOV 0xb0
/* jumps */
#define BPFI_JA 0x00
#define BPFI_JEQ 0x10
#define BPFI_JNE 0x50
#define BPFI_JSLT 0xc0
#define BPFI_CALL 0x80
#define BPFI_EXIT 0x90

/* The source register of the first half of a 64-bit load that names a map by its fd. */
#define BPFI_PSEUDO_MAP_FD 1

/* registers: r0 return value, r1-r5 arguments (clobbered by calls), r6-r9 kept, r10 frame */
#define BPFI_R0 0
#define BPFI_R1 1
#define BPFI_R2 2
#define BPFI_R3 3
#define BPFI_R4 4
#define BPFI_R6 6
#define BPFI_R7 7
#define BPFI_R8 8
#define BPFI_R10 10

#define BPFI_RAW(c, d, s, o, i)                                                                    \
	((struct bpfi){ .code = (c), .dst = (d), .src = (s), .off = (o), .imm = (i) })

/* dst = src (64 bits) */
#define BPFI_MOV64_REG(d, s) BPFI_RAW(BPFI_ALU64 | BPFI_MOV | BPFI_X, d, s, 0, 0)
/* dst = imm, sign-extended to 64 bits */
#define BPFI_MOV64_IMM(d, i) BPFI_RAW(BPFI_ALU64 | BPFI_MOV | BPFI_K, d, 0, 0, i)
/* dst = (uint32_t)imm: the upper half is zeroed, so -1 gives 0xffffffff */
#define BPFI_MOV32_IMM(d, i) BPFI_RAW(BPFI_ALU | BPFI_MOV | BPFI_K, d, 0, 0, i)
#define BPFI_ADD64_IMM(d, i) BPFI_RAW(BPFI_ALU64 | BPFI_ADD | BPFI_K, d, 0, 0, i)
#define BPFI_ADD64_REG(d, s) BPFI_RAW(BPFI_ALU64 | BPFI_ADD | BPFI_X, d, s, 0, 0)
#define BPFI_SUB64_REG(d, s) BPFI_RAW(BPFI_ALU64 | BPFI_SUB | BPFI_X, d, s, 0, 0)
#define BPFI_RSH64_IMM(d, i) BPFI_RAW(BPFI_ALU64 | BPFI_RSH | BPFI_K, d, 0, 0, i)
/* dst = *(uint64_t *)(src + off) */
#define BPFI_LDX_DW(d, s, o) BPFI_RAW(BPFI_LDX | BPFI_MEM | BPFI_DW, d, s, o, 0)
/* dst = *(uint32_t *)(src + off) */
#define BPFI_LDX_W(d, s, o) BPFI_RAW(BPFI_LDX | BPFI_MEM | BPFI_W, d, s, o, 0)
/* *(uint64_t *)(dst + off) = src */
#define BPFI_STX_DW(d, o, s) BPFI_RAW(BPFI_STX | BPFI_MEM | BPFI_DW, d, s, o, 0)
/* *(uint32_t *)(dst + off) = src */
#define BPFI_STX_W(d, o, s) BPFI_RAW(BPFI_STX | BPFI_MEM | BPFI_W, d, s, o, 0)
/* *(uint64_t *)(dst + off) = imm */
#define BPFI_ST_DW(d, o, i) BPFI_RAW(BPFI_ST | BPFI_MEM | BPFI_DW, d, 0, o, i)
/* *(uint32_t *)(dst + off) = imm */
#define BPFI_ST_W(d, o, i) BPFI_RAW(BPFI_ST | BPFI_MEM | BPFI_W, d, 0, o, i)
/* the two halves of dst = the map whose descriptor is fd */
#define BPFI_LD_MAP_FD0(d, fd) BPFI_RAW(BPFI_LD | BPFI_IMM | BPFI_DW, d, BPFI_PSEUDO_MAP_FD, 0, fd)
#define BPFI_LD_MAP_FD1() BPFI_RAW(0, 0, 0, 0, 0)
/* the two halves of dst = a 64-bit constant: the low word first */
#define BPFI_LD_IMM64_0(d, v)                                                                      \
	BPFI_RAW(BPFI_LD | BPFI_IMM | BPFI_DW, d, 0, 0, (int32_t)(uint32_t)(v))
#define BPFI_LD_IMM64_1(v) BPFI_RAW(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))
/* if (dst OP imm) skip off instructions */
#define BPFI_JMP_IMM(op, d, i, o) BPFI_RAW(BPFI_JMP | (op) | BPFI_K, d, 0, o, i)
#define BPFI_CALL_HELPER(id) BPFI_RAW(BPFI_JMP | BPFI_CALL, 0, 0, 0, id)
#define BPFI_EXIT_INSN() BPFI_RAW(BPFI_JMP | BPFI_EXIT, 0, 0, 0, 0)

/* helper numbers (the kernel's enum bpf_func_id: fixed, new ones are only appended) */
#define BPFI_FN_MAP_LOOKUP_ELEM 1
#define BPFI_FN_MAP_UPDATE_ELEM 2
#define BPFI_FN_GET_CURRENT_PID_TGID 14
#define BPFI_FN_PERF_EVENT_READ_VALUE 55
#define BPFI_FN_GET_NS_CURRENT_PID_TGID 120

#endif
