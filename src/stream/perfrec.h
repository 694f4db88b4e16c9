/* perf's records, as the ring and perf.data hold them: one pure decoder over (bytes, length). */
#ifndef PMCTOP_PERFREC_H
#define PMCTOP_PERFREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"

/*
 * The kernel's ABI numbers (include/uapi/linux/perf_event.h), spelled here
 * because stream/ may not include <linux/perf_event.h>: a perf.data file is
 * read where the kernel's headers are older than the capture.
 * kernel/ring.c checks at build time that they are the kernel's.
 */
#define PERFREC_SAMPLE_IP (1ull << 0)
#define PERFREC_SAMPLE_TID (1ull << 1)
#define PERFREC_SAMPLE_TIME (1ull << 2)
#define PERFREC_SAMPLE_ADDR (1ull << 3)
#define PERFREC_SAMPLE_READ (1ull << 4)
#define PERFREC_SAMPLE_CALLCHAIN (1ull << 5)
#define PERFREC_SAMPLE_ID (1ull << 6)
#define PERFREC_SAMPLE_CPU (1ull << 7)
#define PERFREC_SAMPLE_PERIOD (1ull << 8)
#define PERFREC_SAMPLE_STREAM_ID (1ull << 9)
#define PERFREC_SAMPLE_RAW (1ull << 10)
#define PERFREC_SAMPLE_BRANCH_STACK (1ull << 11)
#define PERFREC_SAMPLE_REGS_USER (1ull << 12)
#define PERFREC_SAMPLE_STACK_USER (1ull << 13)
#define PERFREC_SAMPLE_WEIGHT (1ull << 14)
#define PERFREC_SAMPLE_DATA_SRC (1ull << 15)
#define PERFREC_SAMPLE_IDENTIFIER (1ull << 16)
#define PERFREC_SAMPLE_TRANSACTION (1ull << 17)
#define PERFREC_SAMPLE_REGS_INTR (1ull << 18)
#define PERFREC_SAMPLE_PHYS_ADDR (1ull << 19)
#define PERFREC_SAMPLE_AUX (1ull << 20)
#define PERFREC_SAMPLE_CGROUP (1ull << 21)
#define PERFREC_SAMPLE_DATA_PAGE_SIZE (1ull << 22)
#define PERFREC_SAMPLE_CODE_PAGE_SIZE (1ull << 23)
#define PERFREC_SAMPLE_WEIGHT_STRUCT (1ull << 24)
#define PERFREC_SAMPLE_KNOWN ((1ull << 25) - 1)

#define PERFREC_FORMAT_TOTAL_TIME_ENABLED (1ull << 0)
#define PERFREC_FORMAT_TOTAL_TIME_RUNNING (1ull << 1)
#define PERFREC_FORMAT_ID (1ull << 2)
#define PERFREC_FORMAT_GROUP (1ull << 3)
#define PERFREC_FORMAT_LOST (1ull << 4)

#define PERFREC_BRANCH_HW_INDEX (1ull << 17) /* branch_sample_type: hw_idx before the entries */
#define PERFREC_BRANCH_COUNTERS (1ull << 19) /* one u64 of counters per entry after them */

enum perfrec_type {
	PERFREC_MMAP = 1,
	PERFREC_LOST = 2,
	PERFREC_COMM = 3,
	PERFREC_EXIT = 4,
	PERFREC_THROTTLE = 5,
	PERFREC_UNTHROTTLE = 6,
	PERFREC_FORK = 7,
	PERFREC_READ = 8,
	PERFREC_SAMPLE = 9,
	PERFREC_MMAP2 = 10,
	PERFREC_AUX = 11,
	PERFREC_ITRACE_START = 12,
	PERFREC_LOST_SAMPLES = 13,
};

#define PERFREC_MISC_MMAP_DATA (1u << 13)
#define PERFREC_MISC_COMM_EXEC (1u << 13)
#define PERFREC_MISC_MMAP_BUILD_ID (1u << 14)

/* PERF_SAMPLE_DATA_SRC: shifts and values of its fields */
#define PERFREC_MEM_OP_SHIFT 0
#define PERFREC_MEM_OP_NA 0x01
#define PERFREC_MEM_OP_LOAD 0x02
#define PERFREC_MEM_OP_STORE 0x04
#define PERFREC_MEM_OP_PFETCH 0x08
#define PERFREC_MEM_OP_EXEC 0x10
#define PERFREC_MEM_LVL_SHIFT 5
#define PERFREC_MEM_LVL_NA 0x01
#define PERFREC_MEM_LVL_HIT 0x02
#define PERFREC_MEM_LVL_MISS 0x04
#define PERFREC_MEM_LVL_L1 0x08
#define PERFREC_MEM_LVL_LFB 0x10
#define PERFREC_MEM_LVL_L2 0x20
#define PERFREC_MEM_LVL_L3 0x40
#define PERFREC_MEM_LVL_LOC_RAM 0x80
#define PERFREC_MEM_LVL_REM_RAM1 0x100
#define PERFREC_MEM_LVL_REM_RAM2 0x200
#define PERFREC_MEM_LVL_REM_CCE1 0x400
#define PERFREC_MEM_LVL_REM_CCE2 0x800
#define PERFREC_MEM_LVL_IO 0x1000
#define PERFREC_MEM_LVL_UNC 0x2000
#define PERFREC_MEM_SNOOP_SHIFT 19
#define PERFREC_MEM_SNOOP_NA 0x01
#define PERFREC_MEM_SNOOP_NONE 0x02
#define PERFREC_MEM_SNOOP_HIT 0x04
#define PERFREC_MEM_SNOOP_MISS 0x08
#define PERFREC_MEM_SNOOP_HITM 0x10
#define PERFREC_MEM_LOCK_SHIFT 24
#define PERFREC_MEM_LOCK_NA 0x01
#define PERFREC_MEM_LOCK_LOCKED 0x02
#define PERFREC_MEM_TLB_SHIFT 26
#define PERFREC_MEM_TLB_NA 0x01
#define PERFREC_MEM_TLB_HIT 0x02
#define PERFREC_MEM_TLB_MISS 0x04
#define PERFREC_MEM_TLB_L1 0x08
#define PERFREC_MEM_TLB_L2 0x10
#define PERFREC_MEM_TLB_WK 0x20
#define PERFREC_MEM_TLB_OS 0x40
#define PERFREC_MEM_LVLNUM_SHIFT 33
#define PERFREC_MEM_LVLNUM_L1 0x01
#define PERFREC_MEM_LVLNUM_L2 0x02
#define PERFREC_MEM_LVLNUM_L3 0x03
#define PERFREC_MEM_LVLNUM_L4 0x04
#define PERFREC_MEM_LVLNUM_L2_MHB 0x05
#define PERFREC_MEM_LVLNUM_MSC 0x06
#define PERFREC_MEM_LVLNUM_UNC 0x08
#define PERFREC_MEM_LVLNUM_CXL 0x09
#define PERFREC_MEM_LVLNUM_IO 0x0a
#define PERFREC_MEM_LVLNUM_ANY_CACHE 0x0b
#define PERFREC_MEM_LVLNUM_LFB 0x0c
#define PERFREC_MEM_LVLNUM_RAM 0x0d
#define PERFREC_MEM_LVLNUM_PMEM 0x0e
#define PERFREC_MEM_LVLNUM_NA 0x0f
#define PERFREC_MEM_REMOTE_SHIFT 37
#define PERFREC_MEM_SNOOPX_SHIFT 38
#define PERFREC_MEM_SNOOPX_FWD 0x01
#define PERFREC_MEM_SNOOPX_PEER 0x02
#define PERFREC_MEM_BLK_SHIFT 40
#define PERFREC_MEM_BLK_NA 0x01
#define PERFREC_MEM_BLK_DATA 0x02
#define PERFREC_MEM_BLK_ADDR 0x04
#define PERFREC_MEM_HOPS_SHIFT 43
#define PERFREC_MEM_HOPS_0 0x01
#define PERFREC_MEM_HOPS_1 0x02
#define PERFREC_MEM_HOPS_2 0x03
#define PERFREC_MEM_HOPS_3 0x04

/* What an event's samples hold: the attr fields the layout of a sample depends on. */
struct perfrec_fmt {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user, regs_intr; /* sample_regs_user and sample_regs_intr masks */
};

struct perfrec_sample {
	uint64_t ip, addr, time, id, period;
	uint64_t weight;   /* latency in cycles, 0 when not given */
	uint64_t weight2;  /* WEIGHT_STRUCT's second field (instruction latency); else 0 */
	uint64_t data_src; /* raw PERF_SAMPLE_DATA_SRC, 0 when not given */
	uint64_t phys_addr, page_size;
	uint32_t pid, tid, cpu;
	uint32_t attr; /* a perf.data file's event (its index); 0 in the ring */
	enum mem_op op;
	enum mem_level level;
	/*
	 * borrowed, set by whoever tracks mappings: the mapping addr lay in when
	 * the sample was taken, valid during the callback only; NULL when not known
	 */
	const struct mem_area *area;
};

/*
 * A PERF_RECORD_MMAP or MMAP2: a mapping made (or brk grown) at time in
 * process pid. Nothing says when one goes: munmap writes no record.
 */
struct perfrec_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min; /* 0 when not given (MMAP, or a build id instead) */
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id_size; /* PERF_RECORD_MISC_MMAP_BUILD_ID: the id instead of dev/inode */
	uint8_t build_id[20];
	bool exec;	  /* not PERF_RECORD_MISC_MMAP_DATA */
	const char *name; /* borrowed from the record: name_len bytes, not NUL-terminated */
	size_t name_len;
	uint64_t time; /* from sample_id_all; 0 when not given */
};

/* A PERF_RECORD_COMM (exec: a new address space), EXIT or FORK. */
struct perfrec_task {
	uint32_t type; /* PERFREC_COMM, PERFREC_EXIT or PERFREC_FORK */
	uint32_t pid, tid;
	uint32_t ppid, ptid; /* EXIT and FORK: the parent */
	bool exec;	     /* COMM from an exec: the old mappings are gone */
	const char *comm;    /* borrowed; comm_len bytes; COMM only */
	size_t comm_len;
	uint64_t time;
};

struct perfrec_stats {
	uint64_t samples;
	uint64_t lost;	    /* from PERF_RECORD_LOST and LOST_SAMPLES */
	uint64_t throttled; /* THROTTLE records */
	uint64_t unthrottled;
	uint64_t exits;
	uint64_t forks;
	uint64_t mmaps; /* MMAP and MMAP2 records */
	uint64_t comms;
	uint64_t other;	  /* records of other types, skipped by size */
	uint64_t corrupt; /* records that did not decode (or, in a ring, a bad size) */
};

typedef void (*perfrec_sample_cb)(const struct perfrec_sample *s, void *arg);

/* What a walk hands out: samples and the records that say how the address space changed. */
struct perfrec_cbs {
	perfrec_sample_cb sample; /* each may be NULL */
	void (*mmap)(const struct perfrec_mmap *m, void *arg);
	void (*task)(const struct perfrec_task *t, void *arg);
	void *arg;
	uint64_t id_type; /* sample_type when the events have sample_id_all, else 0 */
};

/*
 * Decode a PERF_RECORD_SAMPLE body (after the 8-byte header) laid out as fmt
 * says. Pure. 0, -EINVAL when the record is too short for its fields,
 * -ENOTSUP for sample_type bits newer than this decoder.
 */
int perfrec_parse_sample(const void *body, size_t len, const struct perfrec_fmt *fmt,
			 struct perfrec_sample *out);
/*
 * Decode the body (after the header) of an MMAP (mmap2 false) or MMAP2
 * record with header misc; id_type is the sample_type of the sample_id
 * trailer (0 when sample_id_all is off). Every field read is checked
 * against len. Pure. 0 or -EINVAL.
 */
int perfrec_parse_mmap(const void *body, size_t len, bool mmap2, uint16_t misc, uint64_t id_type,
		       struct perfrec_mmap *out);
/* The same for COMM, EXIT and FORK records (type), with their sample_id trailer. 0 or -EINVAL. */
int perfrec_parse_task(const void *body, size_t len, uint32_t type, uint16_t misc, uint64_t id_type,
		       struct perfrec_task *out);
/*
 * Decode one whole record (its 8-byte header first, len bytes in all, len
 * equal to the header's size) and hand it to cbs; counts go to st. Unknown
 * types are counted in st->other, records that do not decode in
 * st->corrupt. Returns the record's type, or -EINVAL when it did not decode.
 */
int perfrec_record(const void *rec, size_t len, const struct perfrec_fmt *fmt,
		   const struct perfrec_cbs *cbs, struct perfrec_stats *st);
/* Bytes of the sample_id trailer that sample_id_all appends to non-sample records of id_type. */
size_t perfrec_id_size(uint64_t id_type);

/* Coarse level and operation of a PERF_SAMPLE_DATA_SRC value. Pure. */
enum mem_level perfrec_data_level(uint64_t data_src);
enum mem_op perfrec_data_op(uint64_t data_src);

/* A data source taken apart into its fields, each as the ABI encodes it. */
struct perfrec_src {
	unsigned op, lvl, snoop, lock, tlb, lvl_num, remote, snoopx, blk, hops;
};

void perfrec_src_split(uint64_t data_src, struct perfrec_src *out);

#endif
