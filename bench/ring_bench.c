/* Benchmark: ring-buffer walk plus hot-page histogram update on synthetic sample records. */
#include "config.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/hotpage.h"
#include "kernel/ring.h"

#define BENCH_TYPE                                                                                 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)
#define BENCH_REC 72 /* header + 8 fields */

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bench_add(const struct perfrec_sample *s, void *arg)
{
	hotpage_add(arg, s);
}

static void bench_count(const struct perfrec_sample *s, void *arg)
{
	(void)s;
	(*(size_t *)arg)++;
}

int main(int argc, char **argv)
{
	/* the data area of a ring of 512 KiB, refilled by advancing head by its size */
	const uint64_t size = 512 * 1024;
	uint8_t *data = calloc(1, size);
	size_t per_fill = 0, rounds = argc > 1 ? (size_t)atol(argv[1]) : 400, n = 0;
	struct hotpage *h = hotpage_new(12, 2.0, 4096);
	struct perfrec_stats st;
	/* start off the ring's origin so that records straddle its end */
	const uint64_t start = 1000;
	uint64_t head = start, tail, seed = 1;
	double t0, t_walk, t_all;

	/* fill with samples over 3000 pages */
	while (head + BENCH_REC - start <= size) {
		uint64_t rec[9];
		struct perf_event_header hd = { PERF_RECORD_SAMPLE, 0, BENCH_REC };

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		memcpy(&rec[0], &hd, 8);
		rec[1] = 7;
		rec[2] = 0x401000;
		rec[3] = (uint64_t)42 << 32 | 42;
		rec[4] = head;
		rec[5] = 0x7f0000000000ull + (seed >> 33) % 3000 * 4096 + (seed & 4095);
		rec[6] = 1;
		rec[7] = 200;
		rec[8] = 0x2 | (uint64_t)0x80 << 5;
		for (size_t i = 0; i < sizeof(rec); i++)
			data[(head + i) % size] = ((uint8_t *)rec)[i];
		head += BENCH_REC;
		per_fill++;
	}
	memset(&st, 0, sizeof(st));
	t0 = bench_now();
	for (size_t r = 0; r < rounds; r++) {
		tail = start;
		ring_walk(data, size, head, &tail, BENCH_TYPE, bench_count, &n, &st);
	}
	t_walk = bench_now() - t0;
	memset(&st, 0, sizeof(st));
	t0 = bench_now();
	for (size_t r = 0; r < rounds; r++) {
		tail = start;
		ring_walk(data, size, head, &tail, BENCH_TYPE, bench_add, h, &st);
		if (r % 50 == 49)
			hotpage_decay(h, 1.0);
	}
	t_all = bench_now() - t0;
	printf("records per ring fill: %zu, rounds: %zu\n", per_fill, rounds);
	printf("ring walk alone:          %6.1f million samples/s\n",
	       (double)per_fill * (double)rounds / t_walk / 1e6);
	printf("walk + hot-page update:   %6.1f million samples/s (target: 20)\n",
	       (double)per_fill * (double)rounds / t_all / 1e6);
	printf("pages tracked: %zu, corrupt records: %llu\n", h->count,
	       (unsigned long long)st.corrupt);
	hotpage_free(h);
	free(data);
	return st.corrupt ? 1 : 0;
}
