/* Tests of the canvas: clipping, UTF-8, control characters and text dumps. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/canvas.h"
#include "testutil.h"
#include "util/utf8.h"

START_TEST(test_put_clips_to_width_and_limit)
{
	struct canvas *c = canvas_new(10, 2);
	char row[64];

	ck_assert_int_eq(canvas_put(c, 0, 0, "hello world", CANVAS_NORMAL, -1), 10);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "hello worl");
	ck_assert_int_eq(canvas_put(c, 7, 1, "abcdef", CANVAS_HOT, -1), 3);
	ck_assert_int_eq(canvas_put(c, 0, 1, "xyz", CANVAS_HOT, 2), 2);
	canvas_row_text(c, 1, row, sizeof(row));
	ck_assert_str_eq(row, "xy     abc");
	ck_assert_int_eq(canvas_at(c, 8, 1)->attr, CANVAS_HOT);
	ck_assert_int_eq(canvas_put(c, 0, 5, "off", 0, -1), 0);
	ck_assert_ptr_null(canvas_at(c, 10, 0));
	canvas_free(c);
}
END_TEST

START_TEST(test_utf8_and_controls)
{
	struct canvas *c = canvas_new(20, 1);
	char row[128];

	/* one cell per code point; escape sequences can never reach the terminal */
	ck_assert_int_eq(canvas_put(c, 0, 0, "\u2588x\033[2Jy\xff", 0, -1), 8);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "\u2588x?[2Jy?");
	ck_assert_uint_eq(canvas_at(c, 0, 0)->ch, 0x2588);
	canvas_free(c);
}
END_TEST

/*
 * A name from outside on the screen: C1 controls (U+009B as UTF-8 and a lone 0x9b) and bidi
 * controls are one '?' each; for a terminal that is not UTF-8 (ascii) every byte >= 0x80 is,
 * so no CSI byte of an 8-bit terminal (nor what a legacy charset maps to one) is drawn.
 */
START_TEST(test_hostile_names_reach_no_terminal)
{
	static const char NAME[] = "a\xc2\x9b\x9b\xe2\x80\xae\xc3\x9b\xe2\x8c\xa1z";
	struct canvas *c = canvas_new(20, 1);
	char row[64];

	ck_assert_int_eq(canvas_put(c, 0, 0, NAME, CANVAS_NORMAL, -1), 7);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "a???\xc3\x9b\xe2\x8c\xa1z");
	canvas_clear(c);
	c->ascii = true;
	ck_assert_int_eq(canvas_put(c, 0, 0, NAME, CANVAS_NORMAL, -1), 13);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "a???????????z");
	for (int x = 0; x < c->w; x++)
		ck_assert_uint_lt(canvas_at(c, x, 0)->ch, 0x80);
	/* clipped to the row and to maxw as before */
	canvas_clear(c);
	ck_assert_int_eq(canvas_put(c, 15, 0, NAME, CANVAS_NORMAL, -1), 5);
	ck_assert_int_eq(canvas_put(c, 0, 0, NAME, CANVAS_NORMAL, 3), 3);
	canvas_free(c);
}
END_TEST

/* Text is measured in cells: CJK and emoji take two, and are never cut in half. */
START_TEST(test_wide_characters_take_two_cells)
{
	struct canvas *c = canvas_new(10, 3);
	char row[128];

	ck_assert_int_eq(canvas_cells("a\u4e2d\u6587b"), 6);
	ck_assert_int_eq(canvas_cells("\U0001f600"), 2);
	ck_assert_int_eq(canvas_put(c, 0, 0, "a\u4e2d\u6587b|", 0, -1), 7);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "a\u4e2d\u6587b|");
	ck_assert_uint_eq(canvas_at(c, 1, 0)->ch, 0x4e2d);
	ck_assert_uint_eq(canvas_at(c, 2, 0)->ch, CANVAS_WIDE_TAIL);
	ck_assert_uint_eq(canvas_at(c, 6, 0)->ch, '|'); /* the column after lines up */
	/* a limit or an edge inside a wide character leaves it out whole */
	ck_assert_int_eq(canvas_put(c, 0, 1, "a\u4e2d\u6587", 0, 4), 3);
	ck_assert_int_eq(canvas_put(c, 7, 2, "x\U0001f600\U0001f600", 0, -1), 3);
	canvas_row_text(c, 2, row, sizeof(row));
	ck_assert_str_eq(row, "       x\U0001f600");
	ck_assert_uint_eq(canvas_at(c, 9, 2)->ch, CANVAS_WIDE_TAIL);
	/* writing over either half of a wide character blanks the other */
	canvas_put(c, 2, 0, "x", 0, -1);
	canvas_put(c, 3, 0, "y", 0, -1);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "a xy b|");
	canvas_fill(c, 2, 9, 10, '-', 0);
	canvas_row_text(c, 2, row, sizeof(row));
	ck_assert_str_eq(row, "       x -");
	canvas_free(c);
}
END_TEST

/* Under LANG=C the terminal cannot show what is not ASCII: each character is one '?', as ps. */
START_TEST(test_c_locale_shows_question_marks)
{
	struct canvas *c = canvas_new(10, 1);
	char row[128];

	ck_assert_ptr_nonnull(setlocale(LC_CTYPE, "C"));
	ck_assert_int_eq(canvas_cells("\u4e2d\u6587"), 6); /* one per byte, as invalid */
	ck_assert_int_eq(canvas_put(c, 0, 0, "a\u4e2d", 0, -1), 4);
	canvas_row_text(c, 0, row, sizeof(row));
	ck_assert_str_eq(row, "a???");
	ck_assert_ptr_nonnull(setlocale(LC_CTYPE, "C.UTF-8"));
	canvas_free(c);
}
END_TEST

START_TEST(test_fill_attr_and_dump)
{
	struct canvas *c = canvas_new(6, 3);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	canvas_put(c, 1, 0, "ab", 0, -1);
	canvas_fill(c, 1, 0, 6, '-', CANVAS_TITLE);
	canvas_attr(c, 2, 0, 100, CANVAS_SELECTED);
	canvas_dump(c, f);
	fclose(f);
	ck_assert_str_eq(buf, " ab\n------\n\n");
	ck_assert_int_eq(canvas_at(c, 5, 2)->attr, CANVAS_SELECTED);
	canvas_clear(c);
	ck_assert_int_eq(canvas_at(c, 1, 0)->ch, 0);
	free(buf);
	canvas_free(c);
}
END_TEST

static const struct {
	int line;
	const char *s;
	int32_t cp;
	size_t len;
} UTF8[] = {
	{ __LINE__, "A", 'A', 1 },
	{ __LINE__, "\xc3\xa9", 0xe9, 2 },
	{ __LINE__, "\xe2\x96\x88", 0x2588, 3 },
	{ __LINE__, "\xf0\x9f\x98\x80", 0x1f600, 4 },
	{ __LINE__, "\xc0\xaf", -1, 1 },     /* overlong '/' */
	{ __LINE__, "\xed\xa0\x80", -1, 1 }, /* a surrogate */
	{ __LINE__, "\xe2\x96", -1, 1 },     /* truncated */
	{ __LINE__, "\xff", -1, 1 },
	{ __LINE__, "\x80", -1, 1 }, /* a lone continuation byte */
};

START_TEST(test_utf8_table)
{
	size_t len;
	int32_t cp = utf8_decode((const unsigned char *)UTF8[_i].s, strlen(UTF8[_i].s), &len);

	ck_assert_msg(cp == UTF8[_i].cp && len == UTF8[_i].len, "line %d: %d/%zu", UTF8[_i].line,
		      cp, len);
}
END_TEST

int main(void)
{
	Suite *s;

	/* the screen of a UTF-8 terminal, whatever the locale the tests run in (LC_ALL=C) */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "the C.UTF-8 locale is needed\n");
		return 99;
	}
	s = suite_create("canvas");
	TCase *tc = tcase_create("cells");

	tcase_add_test(tc, test_put_clips_to_width_and_limit);
	tcase_add_test(tc, test_utf8_and_controls);
	tcase_add_test(tc, test_hostile_names_reach_no_terminal);
	tcase_add_test(tc, test_wide_characters_take_two_cells);
	tcase_add_test(tc, test_c_locale_shows_question_marks);
	tcase_add_test(tc, test_fill_attr_and_dump);
	tcase_add_loop_test(tc, test_utf8_table, 0, sizeof(UTF8) / sizeof(UTF8[0]));
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
