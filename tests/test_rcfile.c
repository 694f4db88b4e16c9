/* Tests of the settings file: the KEY=VALUE format, the column choice, reading and writing. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "app/rcfile.h"
#include "model/columns.h"
#include "testutil.h"
#include "util/keyval.h"

#define HDR "# pmctop config 1\n"

static int parse(struct keyval *kv, const char *text, size_t len)
{
	return keyval_parse(kv, text, len, RCFILE_MAGIC, RCFILE_VERSION);
}

START_TEST(test_keyval_reads_keys_values_and_comments)
{
	static const char T[] = HDR "# a comment\n\n  sort = cpi  \ncolumns=pid,user\r\n"
				    "empty=\nlast=no newline";
	struct keyval kv;

	ck_assert_int_eq(parse(&kv, T, sizeof(T) - 1), 0);
	ck_assert_uint_eq(kv.problems, 0);
	ck_assert_uint_eq(kv.version, 1);
	ck_assert_uint_eq(kv.n, 4);
	ck_assert_str_eq(kv.v[0].key, "sort");
	ck_assert_str_eq(kv.v[0].value, "cpi");
	ck_assert_uint_eq(kv.v[0].line, 4);
	/* a CR before the newline is no part of the value (a file edited on Windows) */
	ck_assert_str_eq(kv.v[1].value, "pid,user");
	ck_assert_str_eq(kv.v[2].key, "empty");
	ck_assert_str_eq(kv.v[2].value, "");
	ck_assert_str_eq(kv.v[3].value, "no newline");
	ck_assert_uint_eq(kv.v[3].line, 7);
	keyval_release(&kv);
}
END_TEST

/* Each kind of bad line is skipped and named by its line; the good lines around it count. */
START_TEST(test_keyval_bad_lines_are_skipped_and_named)
{
	static const struct {
		int src;
		const char *line;
		const char *why;
	} T[] = {
		{ __LINE__, "no equals sign", "has no '='" },
		{ __LINE__, "=value", "has no key before '='" },
		{ __LINE__, "  = value", "has no key before '='" },
		{ __LINE__, "key=va\x01lue", "has a control character (0x01)" },
		{ __LINE__, "key=\x1b[31mred", "has a control character (0x1b)" },
		{ __LINE__, "key=del\x7f", "has a control character (0x7f)" },
		{ __LINE__, "key=a\rb", "has a control character (0x0d)" },
	};

	for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		char text[256];
		struct keyval kv;
		int len = snprintf(text, sizeof(text), HDR "a=1\n%s\nb=2\n", T[i].line);

		ck_assert_msg(parse(&kv, text, (size_t)len) == 0, "line %d", T[i].src);
		ck_assert_msg(kv.problems == 1 && kv.bad_line == 3, "line %d: %u problems, line %u",
			      T[i].src, kv.problems, kv.bad_line);
		ck_assert_msg(strstr(kv.bad, T[i].why), "line %d: %s", T[i].src, kv.bad);
		ck_assert_msg(kv.n == 2 && !strcmp(kv.v[0].key, "a") && !strcmp(kv.v[1].key, "b"),
			      "line %d", T[i].src);
		keyval_release(&kv);
	}
}
END_TEST

START_TEST(test_keyval_long_lines_are_refused_not_cut)
{
	size_t len = strlen(HDR) + KEYVAL_LINE_MAX + 32;
	char *text = malloc(len + 1);
	struct keyval kv;
	size_t o = (size_t)sprintf(text, HDR "key=");

	/* a line one byte too long, then a good one */
	memset(text + o, 'x', KEYVAL_LINE_MAX - 3);
	o += KEYVAL_LINE_MAX - 3;
	o += (size_t)sprintf(text + o, "\nok=1\n");
	ck_assert_int_eq(parse(&kv, text, o), 0);
	ck_assert_uint_eq(kv.problems, 1);
	ck_assert_uint_eq(kv.bad_line, 2);
	ck_assert_ptr_nonnull(strstr(kv.bad, "longer than 1024 bytes"));
	ck_assert_uint_eq(kv.n, 1);
	ck_assert_str_eq(kv.v[0].key, "ok");
	keyval_release(&kv);
	/* exactly the longest line is kept */
	o = (size_t)sprintf(text, HDR "key=");
	memset(text + o, 'x', KEYVAL_LINE_MAX - 4);
	o += KEYVAL_LINE_MAX - 4;
	ck_assert_int_eq(parse(&kv, text, o), 0);
	ck_assert_uint_eq(kv.problems, 0);
	ck_assert_uint_eq(strlen(kv.v[0].value), KEYVAL_LINE_MAX - 4);
	keyval_release(&kv);
	free(text);
}
END_TEST

/* Files that are no settings file at all: none of their lines is taken. */
START_TEST(test_keyval_foreign_files_are_refused_whole)
{
	static const struct {
		int src;
		const char *text;
		size_t len;
		const char *why;
		unsigned line;
	} T[] = {
		{ __LINE__, "", 0, "is empty", 1 },
		{ __LINE__, "sort=cpi\n", 9, "is not a pmctop settings file", 1 },
		{ __LINE__, "# htop config\nsort=cpi\n", 23,
		  "first line must be '# pmctop config 1'", 1 },
		{ __LINE__, "# pmctop config x\n", 18, "is not a pmctop settings file", 1 },
		{ __LINE__, "# pmctop config 0\n", 18, "is not a pmctop settings file", 1 },
		{ __LINE__, "# pmctop config 2\nsort=cpi\n", 27,
		  "newer pmctop (settings version 2; this one reads 1)", 1 },
		{ __LINE__, HDR "sort=cpi\n\0\xff\xfe", sizeof(HDR) - 1 + 12,
		  "has a NUL byte on line 3", 3 },
		{ __LINE__,
		  "\x7f"
		  "ELF\x02\x01\x01\0\0\0",
		  10, "NUL byte on line 1", 1 },
	};

	for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		struct keyval kv;

		ck_assert_msg(parse(&kv, T[i].text, T[i].len) == -EINVAL, "line %d", T[i].src);
		ck_assert_msg(kv.n == 0 && kv.v == NULL, "line %d", T[i].src);
		ck_assert_msg(strstr(kv.bad, T[i].why), "line %d: %s", T[i].src, kv.bad);
		ck_assert_msg(kv.bad_line == T[i].line, "line %d: %u", T[i].src, kv.bad_line);
		keyval_release(&kv);
	}
	/* a byte-order mark before the header, as Windows editors write one */
	{
		static const char BOM[] = "\xef\xbb\xbf" HDR "sort=cpi\r\n";
		struct keyval kv;

		ck_assert_int_eq(parse(&kv, BOM, sizeof(BOM) - 1), 0);
		ck_assert_uint_eq(kv.n, 1);
		ck_assert_str_eq(kv.v[0].value, "cpi");
		keyval_release(&kv);
		/* only at the very start */
		ck_assert_int_eq(parse(&kv, "\n\xef\xbb\xbf" HDR, sizeof(HDR) + 3), -EINVAL);
		keyval_release(&kv);
	}
	/* the header may end in CRLF too, and be followed by nothing */
	{
		struct keyval kv;

		ck_assert_int_eq(parse(&kv, "# pmctop config 1\r\n", 19), 0);
		ck_assert_uint_eq(kv.n, 0);
		keyval_release(&kv);
	}
}
END_TEST

START_TEST(test_keyval_append_writes_only_what_reads_back)
{
	char *buf = NULL;
	size_t len = 0;
	struct keyval kv;

	ck_assert_int_eq(keyval_append(&buf, &len, "a", "1"), 0);
	ck_assert_int_eq(keyval_append(&buf, &len, "b", ""), 0);
	ck_assert_int_eq(keyval_append(&buf, &len, "", "x"), -EINVAL);
	ck_assert_int_eq(keyval_append(&buf, &len, "k=v", "x"), -EINVAL);
	ck_assert_int_eq(keyval_append(&buf, &len, "#k", "x"), -EINVAL);
	ck_assert_int_eq(keyval_append(&buf, &len, "k", "two\nlines"), -EINVAL);
	ck_assert_int_eq(keyval_append(&buf, &len, "k", " padded"), -EINVAL);
	ck_assert_str_eq(buf, "a=1\nb=\n");
	ck_assert_uint_eq(len, 7);
	buf = realloc(buf, len + sizeof(HDR));
	memmove(buf + strlen(HDR), buf, len + 1);
	memcpy(buf, HDR, strlen(HDR));
	ck_assert_int_eq(parse(&kv, buf, strlen(buf)), 0);
	ck_assert_uint_eq(kv.n, 2);
	ck_assert_str_eq(kv.v[1].key, "b");
	keyval_release(&kv);
	free(buf);
}
END_TEST

START_TEST(test_column_choice_parse_and_format)
{
	struct col_choice c;
	char buf[512], bad[64];

	columns_choice_default(&c);
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)),
			 "pid,user,threads,state,res,mem,cputime,cpu,ghz,ipc,cpi,cache,l1d,dtlb,"
			 "brmis,pf,cs,mig,counted,cgroup,command");
	/* keys or titles, any case; the others hidden after them; COMMAND always last */
	ck_assert_int_eq(columns_choice_parse(&c, "CPI, pid ,%CPU,command,user", bad, sizeof(bad)),
			 0);
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)), "cpi,pid,cpu,user,command");
	ck_assert_int_eq(c.order[0], COL_CPI);
	ck_assert_int_eq(c.order[COL_MAX - 1], COL_COMMAND);
	ck_assert(!columns_choice_shown(&c, COL_THR));
	ck_assert(columns_choice_shown(&c, COL_COMMAND));
	/* the hidden ones follow in table order */
	ck_assert_int_eq(c.order[4], COL_THR);
	/* an unknown or repeated name is passed over; the rest count */
	ck_assert_int_eq(columns_choice_parse(&c, "pid,speed,cpi,pid", bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "speed");
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)), "pid,cpi,command");
	ck_assert_int_eq(columns_choice_parse(&c, "pid,cpi,pid", bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "pid");
	/* nothing listed: only COMMAND, which cannot be hidden */
	ck_assert_int_eq(columns_choice_parse(&c, "", bad, sizeof(bad)), 0);
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)), "command");
	ck_assert_int_eq(columns_choice_parse(&c, ",,", bad, sizeof(bad)), 0);
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)), "command");
}
END_TEST

START_TEST(test_column_choice_moves_but_command_stays_last)
{
	struct col_choice c;
	char buf[512];

	columns_choice_default(&c);
	ck_assert(!columns_choice_move(&c, 0, -1));
	ck_assert(columns_choice_move(&c, 0, 1));
	ck_assert_int_eq(c.order[0], COL_USER);
	ck_assert_int_eq(c.order[1], COL_PID);
	ck_assert(columns_choice_move(&c, 1, -1));
	ck_assert_int_eq(c.order[0], COL_PID);
	/* nothing goes past COMMAND, and COMMAND goes nowhere */
	ck_assert(!columns_choice_move(&c, COL_MAX - 2, 1));
	ck_assert(!columns_choice_move(&c, COL_MAX - 1, -1));
	ck_assert(!columns_choice_move(&c, COL_MAX - 1, 1));
	ck_assert(!columns_choice_move(&c, COL_MAX, -1));
	ck_assert_str_eq(columns_choice_format(&c, buf, sizeof(buf)),
			 "pid,user,threads,state,res,mem,cputime,cpu,ghz,ipc,cpi,cache,l1d,dtlb,"
			 "brmis,pf,cs,mig,counted,cgroup,command");
}
END_TEST

START_TEST(test_rcfile_path_follows_xdg)
{
	char buf[128];

	ck_assert_int_eq(rcfile_path("/x/cfg", "/home/a", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/x/cfg/pmctop/pmctoprc");
	/* a relative XDG_CONFIG_HOME is no XDG_CONFIG_HOME */
	ck_assert_int_eq(rcfile_path("cfg", "/home/a", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/home/a/.config/pmctop/pmctoprc");
	ck_assert_int_eq(rcfile_path("", "/home/a", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/home/a/.config/pmctop/pmctoprc");
	ck_assert_int_eq(rcfile_path(NULL, NULL, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(rcfile_path(NULL, "", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(rcfile_path(NULL, "/home/a", buf, 8), -ENAMETOOLONG);
}
END_TEST

/* The same columns shown in the same order, the same hidden: what the file keeps. */
static bool same_cols(const struct col_choice *a, const struct col_choice *b)
{
	char fa[512], fb[512];

	return !strcmp(columns_choice_format(a, fa, sizeof(fa)),
		       columns_choice_format(b, fb, sizeof(fb))) &&
	       a->hidden == b->hidden;
}

/*
 * The memory meter came after the first settings files: one that does not name it keeps it
 * shown; "-memory" (what is written when it is hidden) hides it, and reads back.
 */
START_TEST(test_rcfile_later_meters_keep_their_default)
{
	struct rcfile rc;
	char msg[512];
	const char *old = "# pmctop config 1\nmeters=cpus,load\n";
	const char *hid = "# pmctop config 1\nmeters=load,-memory\n";
	size_t len;
	char *text;

	rcfile_init(&rc);
	ck_assert_int_eq(rcfile_parse(&rc, old, strlen(old), "f", msg, sizeof(msg)), 0);
	ck_assert(rc.show_cpus);
	ck_assert_uint_eq(rc.meters_off, (1u << UI_METER_UPTIME) | (1u << UI_METER_SELF));
	rcfile_init(&rc);
	ck_assert_int_eq(rcfile_parse(&rc, hid, strlen(hid), "f", msg, sizeof(msg)), 0);
	ck_assert(!rc.show_cpus);
	ck_assert_uint_eq(rc.meters_off, (1u << UI_METER_UPTIME) | (1u << UI_METER_SELF) |
						 (1u << UI_METER_MEMORY));
	text = rcfile_format(&rc, &len);
	ck_assert_ptr_nonnull(strstr(text, "\nmeters=load,-memory\n"));
	free(text);
}
END_TEST

/* What is written reads back the same, settings the defaults do not have included. */
START_TEST(test_rcfile_round_trip)
{
	struct rcfile rc, back;
	char msg[512], bad[64];
	size_t len;
	char *text;

	rcfile_init(&rc);
	columns_choice_parse(&rc.cols, "pid,cpi,user,ipc", bad, sizeof(bad));
	rc.show_cpus = false;
	rc.meters_off = 1u << UI_METER_SELF;
	rc.scheme = UI_SCHEME_LIGHT;
	snprintf(rc.sort, sizeof(rc.sort), "cpi");
	rc.reverse = true;
	rc.delay = 2.5;
	text = rcfile_format(&rc, &len);
	ck_assert_str_eq(text, "# pmctop config 1\n"
			       "columns=pid,cpi,user,ipc,command\n"
			       "meters=uptime,load,memory\n"
			       "colours=light\n"
			       "sort=cpi\n"
			       "reverse=yes\n"
			       "delay=2.5\n");
	rcfile_init(&back);
	ck_assert_int_eq(rcfile_parse(&back, text, len, "f", msg, sizeof(msg)), 0);
	ck_assert(same_cols(&back.cols, &rc.cols));
	ck_assert(back.cols_set && back.meters_set && back.scheme_set && back.sort_set &&
		  back.reverse_set && back.delay_set);
	ck_assert(!back.show_cpus);
	ck_assert_uint_eq(back.meters_off, rc.meters_off);
	ck_assert_int_eq(back.scheme, UI_SCHEME_LIGHT);
	ck_assert_str_eq(back.sort, "cpi");
	ck_assert(back.reverse);
	ck_assert(back.delay == 2.5);
	ck_assert(!back.foreign);
	free(text);
	/* the defaults too */
	rcfile_init(&rc);
	text = rcfile_format(&rc, &len);
	rcfile_init(&back);
	ck_assert_int_eq(rcfile_parse(&back, text, len, "f", msg, sizeof(msg)), 0);
	ck_assert(same_cols(&back.cols, &rc.cols));
	ck_assert(back.show_cpus);
	ck_assert_uint_eq(back.meters_off, 0);
	free(text);
}
END_TEST

/* Each bad setting: one message naming the file, the line and what; the others still count. */
START_TEST(test_rcfile_bad_settings_keep_their_defaults)
{
	static const struct {
		int src;
		const char *line;
		const char *why;
	} T[] = {
		{ __LINE__, "frobnicate=1", "unknown setting 'frobnicate' (use columns, meters," },
		{ __LINE__, "columns=pid,speed", "unknown column 'speed' (known: pid, user," },
		{ __LINE__, "columns=pid,pid", "column 'pid' is listed twice" },
		{ __LINE__, "meters=cpus,fan",
		  "unknown meter 'fan' (use cpus, uptime, load, self, memory)" },
		{ __LINE__, "colours=rainbow", "unknown colour scheme 'rainbow'" },
		{ __LINE__, "sort=speed", "unknown sort column 'speed'" },
		{ __LINE__, "reverse=maybe", "reverse is 'maybe': use yes or no" },
		{ __LINE__, "delay=0", "invalid delay '0'" },
		{ __LINE__, "delay=fast", "invalid delay 'fast'" },
		{ __LINE__, "columns", "has no '='" },
		{ __LINE__, "columns=", "no column listed" },
		{ __LINE__, "columns=speed,fan", "unknown column 'speed' (known: pid, user," },
		/* what came from the file is quoted safe for a terminal */
		{ __LINE__,
		  "colours=\xe2\x80\xae"
		  "evil",
		  "unknown colour scheme '?evil'" },
	};

	for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		char text[256], msg[1024], want[128];
		struct rcfile rc;
		int len =
			snprintf(text, sizeof(text), HDR "sort=cpi\n%s\ncolours=mono\n", T[i].line);

		rcfile_init(&rc);
		ck_assert_msg(rcfile_parse(&rc, text, (size_t)len, "/cfg/pmctoprc", msg,
					   sizeof(msg)) == -EINVAL,
			      "line %d", T[i].src);
		snprintf(want, sizeof(want), "settings file '/cfg/pmctoprc' line 3: %s", T[i].why);
		ck_assert_msg(!strncmp(msg, want, strlen(want)), "line %d: %s", T[i].src, msg);
		ck_assert_msg(strstr(msg, "the defaults stand for what is wrong"), "line %d",
			      T[i].src);
		ck_assert_msg(!strchr(msg, '\x1b'), "line %d", T[i].src);
		/* the lines around it still count */
		ck_assert_msg(rc.sort_set && !strcmp(rc.sort, "cpi"), "line %d", T[i].src);
		ck_assert_msg(rc.scheme == UI_SCHEME_MONO, "line %d", T[i].src);
		ck_assert_msg(!rc.foreign, "line %d", T[i].src);
	}
}
END_TEST

START_TEST(test_rcfile_one_message_for_many_problems)
{
	static const char T[] = HDR "a=1\nb=2\ncolumns=cpi,pid\n";
	struct rcfile rc;
	char msg[1024], buf[256];

	rcfile_init(&rc);
	ck_assert_int_eq(rcfile_parse(&rc, T, sizeof(T) - 1, "p", msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg,
			 "settings file 'p' line 2 (first of 2 bad lines): unknown setting 'a' "
			 "(use columns, meters, colours, sort, reverse, delay); the defaults "
			 "stand for what is wrong");
	ck_assert_str_eq(columns_choice_format(&rc.cols, buf, sizeof(buf)), "cpi,pid,command");
}
END_TEST

static char dir[PATH_MAX];

static void tmp_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pmctop-rcfile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void tmp_teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

START_TEST(test_rcfile_save_makes_the_directory_and_loads_back)
{
	char path[PATH_MAX + 64], msg[1024], cmd[PATH_MAX + 64];
	struct rcfile rc, back;
	struct stat st;

	snprintf(path, sizeof(path), "%s/cfg/pmctop/pmctoprc", dir);
	/* no file: the defaults, no message */
	ck_assert_int_eq(rcfile_load(&back, path, msg, sizeof(msg)), 0);
	ck_assert_str_eq(msg, "");
	ck_assert(!back.foreign);
	rcfile_init(&rc);
	rc.scheme = UI_SCHEME_MONO;
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), 0);
	ck_assert_ptr_nonnull(strstr(msg, "settings written to"));
	snprintf(cmd, sizeof(cmd), "%s/cfg/pmctop", dir);
	ck_assert_int_eq(stat(cmd, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
	ck_assert_int_eq(rcfile_load(&back, path, msg, sizeof(msg)), 0);
	ck_assert_int_eq(back.scheme, UI_SCHEME_MONO);
	/* no temporary file is left beside it */
	snprintf(cmd, sizeof(cmd), "ls -A '%s/cfg/pmctop' | grep -qv '^pmctoprc$'", dir);
	ck_assert_int_ne(system(cmd), 0);
}
END_TEST

START_TEST(test_rcfile_load_refuses_what_is_no_settings_file)
{
	char path[PATH_MAX + 64], msg[1024];
	struct rcfile rc;
	char *big;

	/* a directory where the file should be */
	snprintf(path, sizeof(path), "%s/d", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EISDIR);
	ck_assert_ptr_nonnull(strstr(msg, "is a directory; pmctop starts with the defaults"));
	ck_assert(rc.foreign);
	ck_assert(rc.show_cpus && rc.scheme == UI_SCHEME_DEFAULT);
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EEXIST);
	ck_assert_ptr_nonnull(strstr(msg, "is not a pmctop settings file"));
	/* a FIFO: not opened for long, and no hang */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "is not a regular file"));
	/* binary data, and a foreign file, are never overwritten */
	snprintf(path, sizeof(path), "%s/bin", dir);
	put(path,
	    "\x7f"
	    "ELF\0\0\0",
	    7);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "has a NUL byte on line 1"));
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EEXIST);
	/* too big to be one */
	snprintf(path, sizeof(path), "%s/big", dir);
	big = malloc(RCFILE_SIZE_MAX + 10);
	memset(big, '#', RCFILE_SIZE_MAX + 10);
	put(path, big, RCFILE_SIZE_MAX + 10);
	free(big);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EFBIG);
	ck_assert_ptr_nonnull(strstr(msg, "larger than 64 KiB"));
	/* unreadable (root reads anything: then the file is simply read) */
	snprintf(path, sizeof(path), "%s/locked", dir);
	put(path, HDR "colours=mono\n", sizeof(HDR) - 1 + 13);
	ck_assert_int_eq(chmod(path, 0), 0);
	if (geteuid()) {
		ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EACCES);
		ck_assert_ptr_nonnull(strstr(msg, "cannot read the settings file"));
		ck_assert_ptr_nonnull(strstr(msg, "Permission denied"));
	} else {
		ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), 0);
		ck_assert_int_eq(rc.scheme, UI_SCHEME_MONO);
	}
}
END_TEST

/*
 * Where root's settings path lies in a directory another user writes (sudo keeping HOME,
 * --config), that user may put a link there: to a device, which is never opened (opening
 * one acts: a watchdog starts), or to settings of their own, which do not steer root's.
 */
START_TEST(test_rcfile_load_opens_no_device_and_no_other_users_file)
{
	char path[PATH_MAX + 64], target[PATH_MAX + 64], msg[1024];
	struct rcfile rc;

	if (geteuid())
		return; /* a device node and another user's file need root to make */
	/* a character device of no driver: opening it would fail with ENXIO */
	snprintf(target, sizeof(target), "%s/dev", dir);
	ck_assert_int_eq(mknod(target, S_IFCHR | 0600, makedev(240, 77)), 0);
	snprintf(path, sizeof(path), "%s/devlink", dir);
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strstr(msg, "is not a regular file; pmctop starts with the defaults"), "%s",
		      msg);
	ck_assert(rc.foreign);
	/* another user's settings file, through a link */
	snprintf(target, sizeof(target), "%s/theirs", dir);
	put(target, HDR "colours=mono\n", sizeof(HDR) - 1 + 13);
	ck_assert_int_eq(chown(target, 65534, 65534), 0);
	snprintf(path, sizeof(path), "%s/theirlink", dir);
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "is owned by uid 65534, not by uid 0 who runs pmctop"), "%s",
		      msg);
	ck_assert_int_eq(rc.scheme, UI_SCHEME_DEFAULT);
	ck_assert(rc.foreign);
}
END_TEST

/* The hook between the look at the settings and their open: a link or FIFO put there. */
static void swap_settings(void *arg)
{
	const char *what = arg;
	char path[PATH_MAX + 64], target[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/swapped", dir);
	snprintf(target, sizeof(target), "%s/planted", dir);
	ck_assert_int_eq(unlink(path), 0);
	if (!strcmp(what, "link"))
		ck_assert_int_eq(symlink(target, path), 0);
	else
		ck_assert_int_eq(mkfifo(path, 0600), 0);
}

/*
 * The settings are judged and read through one descriptor: a link to settings planted
 * elsewhere, or a FIFO, swapped in between the look and the open is not read (and the FIFO
 * does not hang the start); pmctop starts with the defaults and says why.
 */
START_TEST(test_rcfile_load_reads_what_it_checked)
{
	char path[PATH_MAX + 64], target[PATH_MAX + 64], msg[1024];
	struct rcfile rc;

	snprintf(path, sizeof(path), "%s/swapped", dir);
	snprintf(target, sizeof(target), "%s/planted", dir);
	put(target, HDR "colours=mono\n", sizeof(HDR) - 1 + 13);
	put(path, HDR "delay=3\n", sizeof(HDR) - 1 + 8);
	ck_assert_int_eq(
		rcfile_load_checked(&rc, path, swap_settings, (void *)"link", msg, sizeof(msg)),
		-ELOOP);
	ck_assert_msg(strstr(msg, "became a symbolic link while it was opened; pmctop starts "
				  "with the defaults"),
		      "%s", msg);
	ck_assert_int_eq(rc.scheme, UI_SCHEME_DEFAULT);
	ck_assert(rc.delay != 3);
	ck_assert(rc.foreign);
	unlink(path);
	put(path, HDR "delay=3\n", sizeof(HDR) - 1 + 8);
	ck_assert_int_eq(
		rcfile_load_checked(&rc, path, swap_settings, (void *)"fifo", msg, sizeof(msg)),
		-EINVAL);
	ck_assert_msg(strstr(msg, "is not a regular file; pmctop starts with the defaults"), "%s",
		      msg);
	ck_assert(rc.delay != 3);
	unlink(path);
	/* with nothing swapped, the same file is read */
	put(path, HDR "delay=3\n", sizeof(HDR) - 1 + 8);
	ck_assert_int_eq(rcfile_load(&rc, path, msg, sizeof(msg)), 0);
	ck_assert(rc.delay == 3);
}
END_TEST

/*
 * A symbolic link where the file should be is never written through, whether it names a
 * file (another user's, say /etc/shadow to root) or nothing yet: refused, with why and what
 * to do, and neither the link nor what it names changes.
 */
START_TEST(test_rcfile_save_refuses_a_link)
{
	static const char OTHER[] = "root:secret\n";
	char link[PATH_MAX + 64], target[PATH_MAX + 64], msg[1024];
	struct rcfile rc, back;
	struct stat st;
	char *now;

	snprintf(target, sizeof(target), "%s/shadow", dir);
	snprintf(link, sizeof(link), "%s/pmctoprc", dir);
	put(target, OTHER, sizeof(OTHER) - 1);
	ck_assert_int_eq(chmod(target, 0640), 0);
	ck_assert_int_eq(symlink(target, link), 0);
	rcfile_init(&rc);
	rc.delay = 3;
	ck_assert_int_eq(rcfile_save(&rc, link, msg, sizeof(msg)), -ELOOP);
	ck_assert_msg(strstr(msg, "not written: '") && strstr(msg, link), "%s", msg);
	ck_assert_msg(strstr(msg, "is a symbolic link, and pmctop does not write through one"),
		      "%s", msg);
	ck_assert_msg(strstr(msg, "replace the link with the file itself"), "%s", msg);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	now = testutil_slurp(target, NULL);
	ck_assert_str_eq(now, OTHER);
	free(now);
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	/* a link to nothing: no file is made where it points */
	unlink(link);
	ck_assert_int_eq(symlink("not-yet-pmctoprc", link), 0);
	ck_assert_int_eq(rcfile_save(&rc, link, msg, sizeof(msg)), -ELOOP);
	snprintf(target, sizeof(target), "%s/not-yet-pmctoprc", dir);
	ck_assert_int_eq(lstat(target, &st), -1);
	/* the file itself, once the link is replaced by it, is written */
	unlink(link);
	ck_assert_int_eq(rcfile_save(&rc, link, msg, sizeof(msg)), 0);
	ck_assert_int_eq(rcfile_load(&back, link, msg, sizeof(msg)), 0);
	ck_assert(back.delay == 3);
	/* a corrupt file of pmctop's own is rewritten whole */
	put(link, HDR "colours=rainbow\n", sizeof(HDR) - 1 + 16);
	ck_assert_int_eq(rcfile_load(&back, link, msg, sizeof(msg)), -EINVAL);
	ck_assert(!back.foreign);
	ck_assert_int_eq(rcfile_save(&back, link, msg, sizeof(msg)), 0);
	ck_assert_int_eq(rcfile_load(&back, link, msg, sizeof(msg)), 0);
}
END_TEST

/*
 * Only a directory of the user's own, on a path no one else can change, takes the file:
 * not one of another owner (root with a user's HOME), not one others may write in, nor a
 * file there of another owner. Nothing is made or changed when refused.
 */
START_TEST(test_rcfile_save_only_into_a_directory_of_ones_own)
{
	char path[2 * PATH_MAX], sub[PATH_MAX + 64], msg[1024];
	unsigned other = geteuid() ? 0 : 65534;
	struct rcfile rc;
	struct stat st;

	rcfile_init(&rc);
	/* another user's directory: root must not write in it */
	snprintf(sub, sizeof(sub), "%s/home", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/.config/pmctop/pmctoprc", sub);
	if (!geteuid()) {
		ck_assert_int_eq(chown(sub, other, other), 0);
		ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "not written: '") && strstr(msg, path), "%s", msg);
		ck_assert_msg(strstr(msg, "is owned by uid 65534, not by uid 0 who runs pmctop"),
			      "%s", msg);
		ck_assert_msg(strstr(msg, "run it as the user whose file it is"), "%s", msg);
		/* not even the missing directories are made there */
		snprintf(path, sizeof(path), "%s/.config", sub);
		ck_assert_int_eq(lstat(path, &st), -1);
		ck_assert_int_eq(chown(sub, 0, 0), 0);
	}
	/* a directory every user may write in, without the sticky bit */
	ck_assert_int_eq(chmod(sub, 0777), 0);
	snprintf(path, sizeof(path), "%s/.config/pmctop/pmctoprc", sub);
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "is writable by every user (mode 0777)"), "%s", msg);
	snprintf(path, sizeof(path), "%s/.config", sub);
	ck_assert_int_eq(lstat(path, &st), -1);
	/* the file's own directory writable by its group */
	ck_assert_int_eq(chmod(sub, 0775), 0);
	snprintf(path, sizeof(path), "%s/pmctoprc", sub);
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EPERM);
	ck_assert_msg(strstr(msg, "is writable by its group (mode 0775)"), "%s", msg);
	/* a sticky directory such as /tmp is fine on the way, not to hold the file */
	ck_assert_int_eq(chmod(sub, 01777), 0);
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EPERM);
	snprintf(path, sizeof(path), "%s/mine/pmctoprc", sub);
	ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), 0);
	/* a file of another owner in one's own directory is not replaced */
	if (!geteuid()) {
		ck_assert_int_eq(chown(path, other, other), 0);
		ck_assert_int_eq(rcfile_save(&rc, path, msg, sizeof(msg)), -EPERM);
		ck_assert_msg(strstr(msg, "it is owned by uid 65534, not by uid 0"), "%s", msg);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(st.st_uid, other);
	}
}
END_TEST

/* A list with no known column keeps the default columns; "cpus, load" reads as written. */
START_TEST(test_rcfile_lists_as_a_hand_writes_them)
{
	static const char T1[] = HDR "columns=speed,fan\n";
	static const char T2[] = HDR "meters=cpus, load\n";
	char msg[1024];
	struct rcfile rc;

	rcfile_init(&rc);
	ck_assert_int_eq(rcfile_parse(&rc, T1, sizeof(T1) - 1, "p", msg, sizeof(msg)), -EINVAL);
	ck_assert(!rc.cols_set);
	rcfile_init(&rc);
	ck_assert_int_eq(rcfile_parse(&rc, T2, sizeof(T2) - 1, "p", msg, sizeof(msg)), 0);
	ck_assert(rc.meters_set && rc.show_cpus);
	ck_assert(!(rc.meters_off & (1u << UI_METER_LOAD)));
	ck_assert(rc.meters_off & (1u << UI_METER_SELF));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rcfile");
	TCase *tc = tcase_create("format");
	TCase *tf = tcase_create("files");

	tcase_add_test(tc, test_keyval_reads_keys_values_and_comments);
	tcase_add_test(tc, test_rcfile_lists_as_a_hand_writes_them);
	tcase_add_test(tc, test_keyval_bad_lines_are_skipped_and_named);
	tcase_add_test(tc, test_keyval_long_lines_are_refused_not_cut);
	tcase_add_test(tc, test_keyval_foreign_files_are_refused_whole);
	tcase_add_test(tc, test_keyval_append_writes_only_what_reads_back);
	tcase_add_test(tc, test_column_choice_parse_and_format);
	tcase_add_test(tc, test_column_choice_moves_but_command_stays_last);
	tcase_add_test(tc, test_rcfile_path_follows_xdg);
	tcase_add_test(tc, test_rcfile_round_trip);
	tcase_add_test(tc, test_rcfile_later_meters_keep_their_default);
	tcase_add_test(tc, test_rcfile_bad_settings_keep_their_defaults);
	tcase_add_test(tc, test_rcfile_one_message_for_many_problems);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, tmp_setup, tmp_teardown);
	tcase_add_test(tf, test_rcfile_save_makes_the_directory_and_loads_back);
	tcase_add_test(tf, test_rcfile_load_refuses_what_is_no_settings_file);
	tcase_add_test(tf, test_rcfile_load_opens_no_device_and_no_other_users_file);
	tcase_add_test(tf, test_rcfile_load_reads_what_it_checked);
	tcase_add_test(tf, test_rcfile_save_refuses_a_link);
	tcase_add_test(tf, test_rcfile_save_only_into_a_directory_of_ones_own);
	suite_add_tcase(s, tf);
	return testutil_run(s);
}
