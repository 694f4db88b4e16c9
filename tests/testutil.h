/* Shared runner for the Check suites: TAP on stdout when CK_TAP_LOG_FILE_NAME=- is set. */
#ifndef PMCTOP_TESTUTIL_H
#define PMCTOP_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int testutil_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
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

#endif
