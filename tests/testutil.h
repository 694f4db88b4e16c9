/* Shared runner for the Check suites: TAP on stdout when CK_TAP_LOG_FILE_NAME=- is set. */
#ifndef PMCTOP_TESTUTIL_H
#define PMCTOP_TESTUTIL_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

static inline int testutil_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

/*
 * Set the soft limit of file descriptors to cur; the limit before into
 * *was, for the test to set back (setrlimit) before it ends.
 */
static inline void testutil_fd_limit(rlim_t cur, struct rlimit *was)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	*was = rl;
	rl.rlim_cur = cur;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

/*
 * The hotplug test takes CPU 1 away for a moment and holds tests/.hotplug-lock while it does.
 * Suites whose cases depend on the set of online CPUs hold that lock shared for their whole run,
 * taken here in main() and outside any case, so waiting for it never eats into a case's
 * timeout. The descriptor stays open until the process exits.
 */
static inline void testutil_hold_hotplug_lock(void)
{
	const char *dir = getenv("top_builddir");
	char lock[4096];
	int fd;

	if (!dir)
		return;
	snprintf(lock, sizeof(lock), "%s/tests/.hotplug-lock", dir);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		flock(fd, LOCK_SH);
}

/* Read a whole file into a NUL-terminated buffer the caller frees; NULL when missing. */
static inline char *testutil_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, 4096, f);

		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/*
 * Compare got with tests/golden/NAME; with PMCTOP_GENERATE set, write it
 * instead (to regenerate after an intended change).
 */
static inline void testutil_golden(const char *name, const char *got)
{
	char path[512];
	char *want;

	snprintf(path, sizeof(path), "%s/golden/%s", TEST_SRCDIR, name);
	if (getenv("PMCTOP_GENERATE")) {
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs(got, f);
		fclose(f);
		return;
	}
	want = testutil_slurp(path, NULL);
	ck_assert_msg(want != NULL, "missing %s: run with PMCTOP_GENERATE=1", path);
	ck_assert_msg(!strcmp(want, got), "%s differs; got:\n%s", name, got);
	free(want);
}

/*
 * tests/data/hw.rec with its -e event renamed to a name too long for a column
 * title (cpu_core/mem_load_retired.l3_miss/) and its ticks 2 s apart, not 1:
 * a rate and a count differ. Written to a new file under /tmp whose path goes
 * to path; the caller removes it.
 */
#define TESTUTIL_LONG_EVENT "cpu_core/mem_load_retired.l3_miss/"
static inline void testutil_long_event_rec(char *path, size_t size)
{
	char in[512], line[8192];
	FILE *f, *out;
	int fd;

	snprintf(in, sizeof(in), "%s/data/hw.rec", TEST_SRCDIR);
	snprintf(path, size, "/tmp/pmctop-test-long-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	f = fopen(in, "r");
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long ns;
		int at;

		if (sscanf(line, "tick %llu %n", &ns, &at) == 1)
			fprintf(out, "tick %llu %s", ns * 2, line + at);
		else if (!strcmp(line, "event 14 6 hw user ok LLC-load-misses\n"))
			fprintf(out, "event 14 6 hw user ok %s\n", TESTUTIL_LONG_EVENT);
		else
			fputs(line, out);
	}
	fclose(f);
	ck_assert_int_eq(fclose(out), 0);
}

#if defined(PMCTOP_MODEL_H) && defined(PMCTOP_SOURCE_REPLAY_H)
/*
 * The model after every tick of the recording tests/data/NAME; *src is the
 * replay source (the caller frees both).
 */
static inline struct model *testutil_replay_model(const char *name, struct source **src)
{
	char path[512], err[256];
	FILE *f;
	struct snapshot s;
	struct model *m;

	/* a name is under tests/data; a path (from testutil_long_event_rec) is itself */
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/data/%s", TEST_SRCDIR, name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	*src = source_replay_new(f, name, err, sizeof(err));
	ck_assert_msg(*src != NULL, "%s", err);
	m = model_new(&(*src)->ev);
	snapshot_init(&s, (*src)->ev.n);
	while (source_read(*src, &s) == 0)
		model_update(m, &s);
	snapshot_release(&s);
	return m;
}
#endif

#endif
