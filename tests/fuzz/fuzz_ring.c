/* libFuzzer harness: ring images (sample_type in the first 8 bytes) through the record walker. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "collect/ring.h"

static void fuzz_ring_cb(const struct ring_sample *s, void *arg)
{
	*(uint64_t *)arg += s->addr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint64_t type, size = 8, tail, sum = 0;
	struct ring_stats st;

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
	ring_walk(data, size, tail + size, &tail, type, fuzz_ring_cb, &sum, &st);
	return 0;
}
