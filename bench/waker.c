/* A busy server's shape for the benchmarks: threads that each wake every period and touch memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What each thread touches per wake: a few cache lines over two pages of its own. */
#define WAKER_BYTES (2 * 4096)

static long waker_period_ns;

static void waker_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/*
 * Wake on a fixed cadence (absolute deadlines, so the threads do not drift
 * into lockstep with pmctop's tick), write a little, sleep again.
 */
static void *waker_thread(void *arg)
{
	unsigned char *buf = malloc(WAKER_BYTES);
	unsigned seed = (unsigned)(unsigned long)arg;
	struct timespec next;

	if (!buf)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &next);
	/* spread the first wakes over one period */
	waker_add(&next, (long)(rand_r(&seed) % (unsigned)(waker_period_ns / 1000)) * 1000);
	for (unsigned n = 0;; n++) {
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		for (size_t i = 0; i < WAKER_BYTES; i += 256)
			buf[i] = (unsigned char)(n + i);
		waker_add(&next, waker_period_ns);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t at;
	pthread_t t;
	int threads;
	double period_ms, seconds;

	if (argc != 4 || (threads = atoi(argv[1])) < 1 || (period_ms = atof(argv[2])) < 1 ||
	    (seconds = atof(argv[3])) <= 0) {
		fprintf(stderr, "usage: waker THREADS PERIOD_MS SECONDS\n");
		return 2;
	}
	waker_period_ns = (long)(period_ms * 1e6);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 << 10);
	for (int i = 0; i < threads; i++) {
		int r = pthread_create(&t, &at, waker_thread,
				       (void *)(unsigned long)(getpid() + i));

		if (r) {
			fprintf(stderr, "waker: thread %d: %s\n", i, strerror(r));
			return 1;
		}
	}
	{
		struct timespec ts = { (time_t)seconds,
				       (long)((seconds - (double)(time_t)seconds) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	return 0;
}
