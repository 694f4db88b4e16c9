/* libFuzzer harness: ring images (sample_type in the first 8 bytes) through the record walker, every record kind decoded. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "kernel/ring.h"

static void fuzz_ring_cb(const struct perfrec_sample *s, void *arg)
{
	*(uint64_t *)arg += s->addr;
}

static void fuzz_ring_mmap(const struct perfrec_mmap *m, void *arg)
{
	/* touch every byte of the name the decoder vouched for */
	for (size_t i = 0; i < m->name_len; i++)
		*(uint64_t *)arg += (unsigned char)m->name[i];
}

static void fuzz_ring_task(const struct perfrec_task *t, void *arg)
{
	for (size_t i = 0; i < t->comm_len; i++)
		*(uint64_t *)arg += (unsigned char)t->comm[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint64_t type, size = 8, tail, sum = 0;
	struct perfrec_stats st;

	if (len < 16)
		return 0;
	memcpy(&type, data, 8);
	data += 8;
	len -= 8;
	while (size * 2 <= len)
		size *= 2;
	memset(&st, 0, sizeof(st));
	/* the start varies with the data, so records straddle the end */
	tail = data[0] % size;
	{
		/* samples, mappings, comm and exit records; the trailer as the type says */
		struct perfrec_cbs cbs = { fuzz_ring_cb, fuzz_ring_mmap, fuzz_ring_task, &sum,
					   type };

		ring_walk_records(data, size, tail + size, &tail, type, &cbs, &st);
	}
	return 0;
}
