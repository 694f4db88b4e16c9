/* Tests of the loop's ring polling with a fake source of many sampling fds. */
#include "config.h"

#include <check.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "app/loop.h"
#include "testutil.h"

#define NFDS 300 /* more than the 256 rings the loop once stopped at */

struct fake_src {
	struct source base;
	int fd[NFDS];
	int woke[NFDS];
	bool hup[NFDS];
	size_t nwoke;
};

static size_t fake_poll_fds(struct source *s, int *fds, size_t max)
{
	struct fake_src *f = (struct fake_src *)s;
	size_t n = 0;

	for (; n < NFDS && n < max; n++)
		fds[n] = f->fd[n];
	return n;
}

static void fake_wake(struct source *s, int fd, bool hup)
{
	struct fake_src *f = (struct fake_src *)s;

	f->hup[f->nwoke] = hup;
	f->woke[f->nwoke++] = fd;
}

static const struct source_ops FAKE_OPS = {
	.poll_fds = fake_poll_fds,
	.wake = fake_wake,
};

START_TEST(test_every_ring_is_polled_past_256)
{
	static struct fake_src f;
	struct loop_rings r = { 0 };
	int base[2];
	uint64_t one = 1;
	size_t n;

	memset(&f, 0, sizeof(f));
	source_init(&f.base, &FAKE_OPS);
	for (int i = 0; i < NFDS; i++) {
		f.fd[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		ck_assert_int_ge(f.fd[i], 0);
	}
	base[0] = eventfd(0, EFD_CLOEXEC);
	base[1] = eventfd(0, EFD_CLOEXEC);
	n = loop_rings_collect(&r, &f.base, base, 2);
	ck_assert_uint_eq(n, 2 + NFDS);
	ck_assert_uint_eq(r.n, NFDS);
	ck_assert_int_eq(r.pfd[0].fd, base[0]);
	ck_assert_int_eq(r.pfd[2 + NFDS - 1].fd, f.fd[NFDS - 1]);
	/* the last ring fires: it is drained */
	ck_assert_int_eq(write(f.fd[NFDS - 1], &one, sizeof(one)), sizeof(one));
	ck_assert_int_eq(poll(r.pfd, n, 1000), 1);
	loop_rings_wake(&r, &f.base);
	ck_assert_uint_eq(f.nwoke, 1);
	ck_assert_int_eq(f.woke[0], f.fd[NFDS - 1]);
	ck_assert(!f.hup[0]);
	/* a second collect reuses the arrays and still sees them all */
	ck_assert_uint_eq(loop_rings_collect(&r, &f.base, base, 2), 2 + NFDS);
	loop_rings_release(&r);
	for (int i = 0; i < NFDS; i++)
		close(f.fd[i]);
	close(base[0]);
	close(base[1]);
	source_release(&f.base);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loop");
	TCase *tc = tcase_create("rings");

	tcase_add_test(tc, test_every_ring_is_polled_past_256);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
