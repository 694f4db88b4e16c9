/* <linux/perf_event.h> with what headers older than pmctop's needs lack (Linux 5.10 and up). */
#ifndef PMCTOP_PERF_COMPAT_H
#define PMCTOP_PERF_COMPAT_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

/*
 * configure says which names the installed header has (HAVE_DECL_* are 0
 * or 1, HAVE_STRUCT_* defined or not). The values below are the kernel's,
 * from include/uapi/linux/perf_event.h; the kernel the program runs on may
 * still refuse them, which the callers probe for.
 */

/* enum perf_event_sample_format: 5.11 and 5.12 */
#if defined(HAVE_DECL_PERF_SAMPLE_DATA_PAGE_SIZE) && !HAVE_DECL_PERF_SAMPLE_DATA_PAGE_SIZE
#define PERF_SAMPLE_DATA_PAGE_SIZE (1U << 22)
#endif
#if defined(HAVE_DECL_PERF_SAMPLE_WEIGHT_STRUCT) && !HAVE_DECL_PERF_SAMPLE_WEIGHT_STRUCT
#define PERF_SAMPLE_WEIGHT_STRUCT (1U << 24)
#endif

/* enum perf_event_read_format: 6.0 */
#if defined(HAVE_DECL_PERF_FORMAT_LOST) && !HAVE_DECL_PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/* memory levels of PERF_SAMPLE_DATA_SRC (macros): 6.1 */
/* build ids in MMAP2 records came with 5.12 */
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif
#ifndef PERF_MEM_LVLNUM_CXL
#define PERF_MEM_LVLNUM_CXL 0x09
#endif
#ifndef PERF_MEM_LVLNUM_IO
#define PERF_MEM_LVLNUM_IO 0x0a
#endif
/* L2's miss handling buffer, a memory-side cache, uncached: 6.8 */
#ifndef PERF_MEM_LVLNUM_L2_MHB
#define PERF_MEM_LVLNUM_L2_MHB 0x05
#define PERF_MEM_LVLNUM_MSC 0x06
#endif
#ifndef PERF_MEM_LVLNUM_UNC
#define PERF_MEM_LVLNUM_UNC 0x08
#endif

/* snoop extension and hops of PERF_SAMPLE_DATA_SRC: 4.14, 5.16 and 5.17 */
#ifndef PERF_MEM_SNOOPX_FWD
#define PERF_MEM_SNOOPX_FWD 0x01
#define PERF_MEM_SNOOPX_SHIFT 38
#endif
#ifndef PERF_MEM_SNOOPX_PEER
#define PERF_MEM_SNOOPX_PEER 0x02
#endif
#ifndef PERF_MEM_HOPS_0
#define PERF_MEM_HOPS_0 0x01
#define PERF_MEM_HOPS_SHIFT 43
#endif
#ifndef PERF_MEM_HOPS_1
#define PERF_MEM_HOPS_1 0x02
#define PERF_MEM_HOPS_2 0x03
#define PERF_MEM_HOPS_3 0x04
#endif
#ifndef PERF_MEM_LVLNUM_ANY_CACHE
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b
#define PERF_MEM_LVLNUM_LFB 0x0c
#define PERF_MEM_LVLNUM_RAM 0x0d
#define PERF_MEM_LVLNUM_PMEM 0x0e
#define PERF_MEM_LVLNUM_NA 0x0f
#endif

/*
 * attr.inherit_thread (5.13): bit 35 of the flag word that follows
 * read_format, counted from the first bit-field the way the ABI lays them
 * out. Older headers have no member to name it by.
 */
#define PERF_COMPAT_INHERIT_THREAD_BIT 35
#define PERF_COMPAT_FLAGS_OFFSET 40 /* after type, size, config, period, sample_type, read_format */

#ifndef HAVE_STRUCT_PERF_EVENT_ATTR_INHERIT_THREAD
/* The mask of inherit_thread in the flag word, as the compiler lays bit-fields out. */
static inline uint64_t perf_compat_inherit_thread_mask(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return 1ull << (63 - PERF_COMPAT_INHERIT_THREAD_BIT);
#else
	return 1ull << PERF_COMPAT_INHERIT_THREAD_BIT;
#endif
}
#endif

static inline void perf_compat_set_inherit_thread(struct perf_event_attr *a, unsigned v)
{
#ifdef HAVE_STRUCT_PERF_EVENT_ATTR_INHERIT_THREAD
	a->inherit_thread = v ? 1 : 0;
#else
	uint64_t flags, bit = perf_compat_inherit_thread_mask();

	memcpy(&flags, (unsigned char *)a + PERF_COMPAT_FLAGS_OFFSET, sizeof(flags));
	flags = v ? flags | bit : flags & ~bit;
	memcpy((unsigned char *)a + PERF_COMPAT_FLAGS_OFFSET, &flags, sizeof(flags));
#endif
}

static inline unsigned perf_compat_inherit_thread(const struct perf_event_attr *a)
{
#ifdef HAVE_STRUCT_PERF_EVENT_ATTR_INHERIT_THREAD
	return a->inherit_thread;
#else
	uint64_t flags, bit = perf_compat_inherit_thread_mask();

	memcpy(&flags, (const unsigned char *)a + PERF_COMPAT_FLAGS_OFFSET, sizeof(flags));
	return (flags & bit) != 0;
#endif
}

#endif
