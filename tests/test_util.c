/* Tests of the helpers every layer shares: terminal-safe text and the small parsers. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "util/errmsg.h"
#include "util/numfmt.h"
#include "util/parse.h"
#include "util/selfcost.h"
#include "util/textsafe.h"

static const struct {
	int line;
	const char *in;
	int maxcols;
	size_t size;
	const char *want;
	size_t cols;
} SAFE[] = {
	{ __LINE__, "plain name", -1, 64, "plain name", 10 },
	{ __LINE__, "a\033]0;title\007b", -1, 64, "a?]0;title?b", 12 },
	{ __LINE__, "line\nforged", -1, 64, "line?forged", 11 },
	{ __LINE__, "del\177", -1, 64, "del?", 4 },
	{ __LINE__, "c1 \302\233 csi", -1, 64, "c1 ? csi", 8 },		 /* U+009B, the 8-bit CSI */
	{ __LINE__, "rlo \342\200\256 txt", -1, 64, "rlo ? txt", 9 },	 /* U+202E */
	{ __LINE__, "isolate \342\201\246x", -1, 64, "isolate ?x", 10 }, /* U+2066 */
	{ __LINE__, "bad \377 byte", -1, 64, "bad ? byte", 10 },
	{ __LINE__, "cut \303\251t\303\251", 6, 64, "cut \303\251t",
	  6 }, /* never half a character */
	{ __LINE__, "\303\251\303\251\303\251", -1, 5, "\303\251\303\251", 2 }, /* room for two */
	{ __LINE__, "caf\303\251 \346\227\245\346\234\254", -1, 64,
	  "caf\303\251 \346\227\245\346\234\254", 7 },
	{ __LINE__, "", -1, 64, "", 0 },
};

START_TEST(test_textsafe_copies_as_ps_shows_names)
{
	for (size_t i = 0; i < sizeof(SAFE) / sizeof(SAFE[0]); i++) {
		char out[64];
		size_t cols = textsafe_copy(SAFE[i].in, out, SAFE[i].size, SAFE[i].maxcols);

		ck_assert_msg(!strcmp(out, SAFE[i].want), "line %d: got '%s'", SAFE[i].line, out);
		ck_assert_msg(cols == SAFE[i].cols, "line %d: %zu columns", SAFE[i].line, cols);
	}
}
END_TEST

/* textsafe_escape: each style, the ASCII flag, and a short buffer that never splits. */
static const struct {
	int line;
	const char *in;
	size_t len;
	unsigned how;
	int maxcols;
	size_t size;
	const char *out;
	size_t kept;
} ESCAPE[] = {
#define E(in, how, maxcols, size, out, kept)                                                       \
	{                                                                                          \
		__LINE__, in, sizeof(in) - 1, how, maxcols, size, out, kept                        \
	}
	/* MARK: one '?' for each unsafe character or invalid byte */
	E("a\x1b]0;x\x07"
	  "b",
	  TEXTSAFE_MARK, -1, 64, "a?]0;x?b", 8),
	E("a\0b", TEXTSAFE_MARK, -1, 64, "a?b", 3),
	E("\x7f", TEXTSAFE_MARK, -1, 64, "?", 1),
	E("\xc2\x9b", TEXTSAFE_MARK, -1, 64, "?", 1),
	E("\x9b", TEXTSAFE_MARK, -1, 64, "?", 1),
	E("\xc2\x80\xc2\x9f\xc2\xa0", TEXTSAFE_MARK, -1, 64, "??\xc2\xa0", 3),
	E("\xe2\x80\xae"
	  "ab\xe2\x81\xa6\xd8\x9c\xe2\x80\x8f",
	  TEXTSAFE_MARK, -1, 64, "?ab???", 6),
	E("\xc3\xa9", TEXTSAFE_MARK, -1, 64, "\xc3\xa9", 1),
	E("\xe6\x97\xa5", TEXTSAFE_MARK, -1, 64, "\xe6\x97\xa5", 1),
	/* overlong encodings (of '/' and of CSI), surrogates, past U+10FFFF, a cut sequence */
	E("\xc0\xaf", TEXTSAFE_MARK, -1, 64, "??", 2),
	E("\xc1\x9b", TEXTSAFE_MARK, -1, 64, "??", 2),
	E("\xe0\x80\xaf", TEXTSAFE_MARK, -1, 64, "???", 3),
	E("\xf0\x80\x80\xaf", TEXTSAFE_MARK, -1, 64, "????", 4),
	E("\xed\xa0\x80\xed\xbf\xbf", TEXTSAFE_MARK, -1, 64, "??????", 6),
	E("\xf4\x90\x80\x80", TEXTSAFE_MARK, -1, 64, "????", 4),
	E("a\xe2\x80", TEXTSAFE_MARK, -1, 64, "a??", 3),
	E("\xf8\x88\x80\x80\x80", TEXTSAFE_MARK, -1, 64, "?????", 5),
	/* ASCII: a reader whose terminal is not UTF-8 gets no byte >= 0x80 at all */
	E("\xc3\xa9", TEXTSAFE_MARK | TEXTSAFE_ASCII, -1, 64, "??", 2),
	E("\xc3\x9b"
	  "x",
	  TEXTSAFE_MARK | TEXTSAFE_ASCII, -1, 64, "??x", 3),
	E("\xc3\x9b", TEXTSAFE_HEX | TEXTSAFE_ASCII, -1, 64, "\\xc3\\x9b", 2),
	E("\xc3\xa9", TEXTSAFE_JSON | TEXTSAFE_ASCII, -1, 64, "\\u00e9", 1),
	E("\xf0\x9f\x98\x80", TEXTSAFE_JSON | TEXTSAFE_ASCII, -1, 64, "\\ud83d\\ude00", 1),
	E("\x9b", TEXTSAFE_JSON | TEXTSAFE_ASCII, -1, 64, "\\ufffd", 1),
	/* LINES: a message of several lines keeps them, and nothing else */
	E("a\nb\tc\rd\x1b", TEXTSAFE_MARK | TEXTSAFE_LINES, -1, 64, "a\nb\tc?d?", 8),
	E("a\nb", TEXTSAFE_MARK, -1, 64, "a?b", 3),
	/* HEX: each byte of what is unsafe, and a '\' doubled only where it would mislead */
	E("a\x1b"
	  "b",
	  TEXTSAFE_HEX, -1, 64, "a\\x1bb", 3),
	E("a\0b", TEXTSAFE_HEX, -1, 64, "a\\x00b", 3),
	E("\xc2\x9b\x9b", TEXTSAFE_HEX, -1, 64, "\\xc2\\x9b\\x9b", 2),
	E("\xc3\xa9\"", TEXTSAFE_HEX, -1, 64, "\xc3\xa9\"", 2),
	E("\\x2d", TEXTSAFE_HEX, -1, 64, "\\x2d", 4),
	E("\\x1b", TEXTSAFE_HEX, -1, 64, "\\\\x1b", 4),
	E("\\xe9", TEXTSAFE_HEX, -1, 64, "\\\\xe9", 4),
	E("\\\\", TEXTSAFE_HEX, -1, 64, "\\\\\\", 2),
	E("\\\x1b", TEXTSAFE_HEX, -1, 64, "\\\\\\x1b", 2),
	E("a\\", TEXTSAFE_HEX, -1, 64, "a\\", 2),
	/* JSON: the body of a string; invalid bytes as U+FFFD, one each */
	E("a\"b\\c", TEXTSAFE_JSON, -1, 64, "a\\\"b\\\\c", 5),
	E("\x1b\x7f", TEXTSAFE_JSON, -1, 64, "\\u001b\\u007f", 2),
	E("a\0b", TEXTSAFE_JSON, -1, 64, "a\\u0000b", 3),
	E("\xc2\x9b", TEXTSAFE_JSON, -1, 64, "\\u009b", 1),
	E("\xe2\x80\xae", TEXTSAFE_JSON, -1, 64, "\\u202e", 1),
	E("\xed\xa0\x80", TEXTSAFE_JSON, -1, 64, "\\ufffd\\ufffd\\ufffd", 3),
	E("\xc0\xaf", TEXTSAFE_JSON, -1, 64, "\\ufffd\\ufffd", 2),
	E("\xf0\x9f\x98\x80", TEXTSAFE_JSON, -1, 64, "\xf0\x9f\x98\x80", 1),
	/* a short buffer: whole characters and whole escapes only, always NUL-terminated */
	E("abcdef", TEXTSAFE_MARK, -1, 4, "abc", 3),
	E("a\xc3\xa9", TEXTSAFE_MARK, -1, 3, "a", 1),
	E("a\xe6\x97\xa5", TEXTSAFE_MARK, -1, 4, "a", 1),
	E("ab\x1b", TEXTSAFE_HEX, -1, 6, "ab", 2),
	E("ab\x1b", TEXTSAFE_HEX, -1, 7, "ab\\x1b", 3),
	E("a\\\\", TEXTSAFE_HEX, -1, 3, "a", 1),
	E("\x1b", TEXTSAFE_JSON, -1, 6, "", 0),
	E("a\"", TEXTSAFE_JSON, -1, 3, "a", 1),
	E("\xf0\x9f\x98\x80", TEXTSAFE_JSON | TEXTSAFE_ASCII, -1, 12, "", 0),
	E("\xf0\x9f\x98\x80", TEXTSAFE_JSON | TEXTSAFE_ASCII, -1, 13, "\\ud83d\\ude00", 1),
	E("\xc3\xa9", TEXTSAFE_HEX | TEXTSAFE_ASCII, -1, 8, "\\xc3", 1),
	E("abc", TEXTSAFE_MARK, -1, 1, "", 0),
	/* maxcols: characters of the input, an escape counting as one */
	E("abcdef", TEXTSAFE_MARK, 2, 64, "ab", 2),
	E("a\x1b"
	  "bc",
	  TEXTSAFE_MARK, 2, 64, "a?", 2),
	E("\xc3\xa9\xc3\xa9\xc3\xa9", TEXTSAFE_MARK, 2, 64, "\xc3\xa9\xc3\xa9", 2),
	E("\x1b\x1b\x1b", TEXTSAFE_HEX, 2, 64, "\\x1b\\x1b", 2),
	E("abc", TEXTSAFE_MARK, 0, 64, "", 0),
#undef E
};

START_TEST(test_textsafe_escape_styles_and_bounds)
{
	char out[64];
	size_t kept;

	memset(out, 'Z', sizeof(out));
	kept = textsafe_escape(out, ESCAPE[_i].size, ESCAPE[_i].in, ESCAPE[_i].len, ESCAPE[_i].how,
			       ESCAPE[_i].maxcols);
	ck_assert_msg(!strcmp(out, ESCAPE[_i].out), "line %d: '%s', not '%s'", ESCAPE[_i].line, out,
		      ESCAPE[_i].out);
	ck_assert_msg(kept == ESCAPE[_i].kept, "line %d: %zu kept, not %zu", ESCAPE[_i].line, kept,
		      ESCAPE[_i].kept);
	/* nothing is written past the size given */
	for (size_t i = ESCAPE[_i].size; i < sizeof(out); i++)
		ck_assert_msg(out[i] == 'Z', "line %d: byte %zu written", ESCAPE[_i].line, i);
}
END_TEST

/* A size of 0 writes nothing; TEXTSAFE_MAX is enough for the worst input of every style. */
START_TEST(test_textsafe_escape_fits_in_its_max)
{
	static const unsigned HOW[] = { TEXTSAFE_MARK, TEXTSAFE_HEX, TEXTSAFE_JSON };
	static const char WORST[] = "\x1b\x9b\xc0\\\"\xf0\x9f\x98\x80\xed\xa0\x80\x7f\\x1b";
	char out[TEXTSAFE_MAX(sizeof(WORST) - 1)], big[1024], z = 'Z';

	ck_assert_int_eq(textsafe_escape(&z, 0, "abc", 3, TEXTSAFE_MARK, -1), 0);
	ck_assert_int_eq(z, 'Z');
	for (size_t i = 0; i < sizeof(HOW) / sizeof(HOW[0]); i++) {
		for (unsigned ascii = 0; ascii <= TEXTSAFE_ASCII; ascii += TEXTSAFE_ASCII) {
			size_t a = textsafe_escape(out, sizeof(out), WORST, sizeof(WORST) - 1,
						   HOW[i] | ascii, -1);
			size_t b = textsafe_escape(big, sizeof(big), WORST, sizeof(WORST) - 1,
						   HOW[i] | ascii, -1);

			ck_assert_msg(a == b && !strcmp(out, big), "style %zu%s: cut to '%s'", i,
				      ascii ? " ASCII" : "", out);
		}
	}
}
END_TEST

START_TEST(test_textsafe_names_the_unsafe_code_points)
{
	ck_assert(textsafe_unsafe(0x1b));
	ck_assert(textsafe_unsafe(0x9b));
	ck_assert(textsafe_unsafe(0x202e));
	ck_assert(textsafe_unsafe(0x2069));
	ck_assert(textsafe_unsafe(0x200f));
	ck_assert(!textsafe_unsafe('a'));
	ck_assert(!textsafe_unsafe(0xe9));
	ck_assert(!textsafe_unsafe(0x2070));
	ck_assert(!textsafe_unsafe(0x65e5));
}
END_TEST

START_TEST(test_parse_pid_takes_only_what_linux_can_give)
{
	static const struct {
		int line;
		const char *in;
		int ok;
		int pid;
	} T[] = {
		{ __LINE__, "1", 1, 1 },
		{ __LINE__, "4194304", 1, 4194304 },
		{ __LINE__, "4194305", 0, 0 },
		{ __LINE__, "4294967297", 0, 0 }, /* wrapped to 1 in an int once */
		{ __LINE__, "0", 0, 0 },
		{ __LINE__, "-5", 0, 0 },
		{ __LINE__, "+5", 0, 0 },
		{ __LINE__, " 5", 0, 0 },
		{ __LINE__, "x", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		const char *end;
		int pid = 0;
		int r = parse_pid(T[i].in, &end, &pid);

		ck_assert_msg((r == 0) == T[i].ok, "line %d: %d", T[i].line, r);
		if (T[i].ok)
			ck_assert_msg(pid == T[i].pid && !*end, "line %d", T[i].line);
	}
}
END_TEST

/* The status lines of signals and nice values: what was done, or the first refusal and why. */
START_TEST(test_errmsg_says_what_signals_and_nice_values_did)
{
	const int one[] = { 4242 }, three[] = { 11, 0, 13 };
	char buf[256], name[32];

	ck_assert_str_eq(errmsg_signal_name(name, sizeof(name), 15, "TERM"), "SIGTERM");
	ck_assert_str_eq(errmsg_signal_name(name, sizeof(name), 34, NULL), "signal 34");
	{
		const char sug[2][128] = { "cycles", "cpu-cycles" };
		char ev[1024];

		ck_assert_str_eq(
			errmsg_bad_event(ev, sizeof(ev), "cylces", -ENOENT, false, sug, 2),
			"pmctop: unknown event 'cylces'; did you mean 'cycles', 'cpu-cycles'\n"
			"List the events with 'pmctop --list-events'.\n");
		ck_assert_str_eq(
			errmsg_bad_event(ev, sizeof(ev), "cycles:q", -EINVAL, false, NULL, 0),
			"pmctop: invalid event 'cycles:q' (check its modifiers)\n"
			"List the events with 'pmctop --list-events'.\n");
		ck_assert_ptr_nonnull(
			strstr(errmsg_bad_event(ev, sizeof(ev), "x/y/", -EINVAL, true, NULL, 0),
			       "invalid event 'x/y/': a PMU/TERMS/ event names a PMU"));
	}
	ck_assert_str_eq(errmsg_no_signal(buf, sizeof(buf), 0, 64),
			 "no signal 0: give a number from 1 to 64");
	ck_assert_str_eq(errmsg_signalled(buf, sizeof(buf), "SIGSTOP", one,
					  &(struct errmsg_acted){ .n = 1, .done = 1 }),
			 "sent SIGSTOP to pid 4242");
	ck_assert_str_eq(errmsg_signalled(buf, sizeof(buf), "SIGKILL", three,
					  &(struct errmsg_acted){ .n = 3, .done = 3 }),
			 "sent SIGKILL to 3 processes");
	ck_assert_str_eq(
		errmsg_signalled(buf, sizeof(buf), "SIGTERM", one,
				 &(struct errmsg_acted){ .n = 1, .err = ESRCH, .err_id = 4242 }),
		"cannot send SIGTERM to pid 4242: no such process (it has exited)");
	ck_assert_str_eq(errmsg_signalled(buf, sizeof(buf), "SIGKILL", three,
					  &(struct errmsg_acted){
						  .n = 3, .done = 2, .err = EINVAL, .err_id = 0 }),
			 "sent SIGKILL to 2 of 3 processes; pid 0: not a process id");
	ck_assert_str_eq(errmsg_reniced(buf, sizeof(buf), 1, false, one, 5,
					&(struct errmsg_acted){ .n = 1, .done = 1 }),
			 "pid 4242: nice 5");
	ck_assert_str_eq(errmsg_reniced(buf, sizeof(buf), -1, true, one, -2,
					&(struct errmsg_acted){ .n = 1, .done = 1 }),
			 "thread 4242: nice -2");
	ck_assert_str_eq(errmsg_reniced(buf, sizeof(buf), -1, false, three, 0,
					&(struct errmsg_acted){ .n = 3, .done = 3 }),
			 "nice value lowered by one for 3 processes");
	ck_assert_str_eq(
		errmsg_reniced(buf, sizeof(buf), -1, false, one, 0,
			       &(struct errmsg_acted){ .n = 1, .err = EACCES, .err_id = 4242 }),
		"cannot lower the nice value of pid 4242: permission denied: lowering a nice "
		"value needs root or CAP_SYS_NICE");
	ck_assert_str_eq(errmsg_reniced(buf, sizeof(buf), 1, false, three, 0,
					&(struct errmsg_acted){
						.n = 3, .done = 1, .err = EPERM, .err_id = 11 }),
			 "nice value changed for 1 of 3 processes; 11: permission denied: it "
			 "belongs to another user (run pmctop as root)");
}
END_TEST

/* numfmt_fixed must write what snprintf's %.*f writes: the batch goldens depend on it. */
static void check_fixed(double v, int prec)
{
	char got[NUMFMT_MAX], want[NUMFMT_MAX];
	size_t n = numfmt_fixed(got, v, prec);

	snprintf(want, sizeof(want), "%.*f", prec, v);
	ck_assert_msg(!strcmp(got, want) && n == strlen(want), "%%.%df of %a: '%s', not '%s'", prec,
		      v, got, want);
}

/* Descriptors open now, counted by listing /proc/self/fd (less the listing's own). */
static int listed_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

START_TEST(test_selfcost_counts_the_open_descriptors)
{
	struct selfcost a, b;
	int fds[7];

	selfcost_read(&a, NULL, 0);
	ck_assert_int_eq((int)a.open_fds, listed_fds());
	for (int i = 0; i < 7; i++)
		ck_assert_int_ge(fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC), 0);
	selfcost_read(&b, &a, 1.0);
	ck_assert_int_eq((int)b.open_fds, (int)a.open_fds + 7);
	ck_assert_int_eq((int)b.open_fds, listed_fds());
	for (int i = 0; i < 7; i++)
		close(fds[i]);
	ck_assert(b.rss_bytes > 0 && b.max_fds >= b.open_fds);
}
END_TEST

START_TEST(test_numfmt_writes_what_printf_writes)
{
	static const double EDGE[] = {
		0,
		-0.0,
		0.5,
		1.5,
		2.5,
		-0.5,
		-2.5,
		0.125,
		0.375,
		-0.125,
		1.005,
		2.675,
		0.045,
		0.05,
		0.15,
		0.25,
		0.35,
		9.5,
		99.95,
		999.9995,
		9.9999999995,
		0.0005,
		0.00049999999,
		1e-5,
		-1e-5,
		1e-300,
		5e-324,
		123456789.123456789,
		1779400000.1235,
		4.6e18,
		0x1p62,
		-0x1p62,
		0x1p62 - 1024,
		1e300,
		-1e300,
		INFINITY,
		-INFINITY,
		NAN,
		/* counts as the model holds them: integers and rates in doubles */
		18446744073709551615.0,
		4294967296.0,
		65535.5,
		0.995,
		0.9949999999999999,
	};
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int prec = 0; prec <= 10; prec++)
		for (size_t i = 0; i < sizeof(EDGE) / sizeof(EDGE[0]); i++)
			check_fixed(EDGE[i], prec);
	/* many values of every kind: random bit patterns, halves and thousandths near ties */
	for (int i = 0; i < 300000; i++) {
		double v;
		int prec;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		prec = (int)(x % 10);
		switch ((x >> 8) % 4) {
		case 0:
			memcpy(&v, &x, sizeof(v));
			break;
		case 1:
			v = ldexp((double)(int64_t)(x >> 20), -(int)((x >> 4) % 64));
			break;
		case 2:
			v = (double)((x >> 16) % 1000000) / 1000.0 + ((x >> 12) & 1 ? 0.0005 : 0);
			break;
		default:
			v = (double)(x >> 11) * ((x >> 3) & 1 ? 1e-3 : 1.0);
			break;
		}
		check_fixed(v, prec);
	}
}
END_TEST

START_TEST(test_numfmt_writes_integers_as_printf)
{
	static const long long V[] = { 0,	1,	   -1,	      9,
				       10,	-10,	   4194304,   INT_MAX,
				       INT_MIN, LLONG_MAX, LLONG_MIN, 1000000000000LL };
	char got[32], want[32];

	for (size_t i = 0; i < sizeof(V) / sizeof(V[0]); i++) {
		size_t n = numfmt_int(got, V[i]);

		snprintf(want, sizeof(want), "%lld", V[i]);
		ck_assert_msg(!strcmp(got, want) && n == strlen(want), "'%s' not '%s'", got, want);
	}
	numfmt_uint(got, ULLONG_MAX);
	ck_assert_str_eq(got, "18446744073709551615");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");

	tcase_add_test(tc, test_textsafe_copies_as_ps_shows_names);
	tcase_add_test(tc, test_textsafe_names_the_unsafe_code_points);
	tcase_add_loop_test(tc, test_textsafe_escape_styles_and_bounds, 0,
			    sizeof(ESCAPE) / sizeof(ESCAPE[0]));
	tcase_add_test(tc, test_textsafe_escape_fits_in_its_max);
	tcase_add_test(tc, test_parse_pid_takes_only_what_linux_can_give);
	tcase_add_test(tc, test_errmsg_says_what_signals_and_nice_values_did);
	tcase_add_test(tc, test_numfmt_writes_what_printf_writes);
	tcase_add_test(tc, test_numfmt_writes_integers_as_printf);
	tcase_add_test(tc, test_selfcost_counts_the_open_descriptors);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
