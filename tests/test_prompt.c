/* Tests of the prompt's line: UTF-8 typed a character at a time, erased a character at a time. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "util/utf8.h"
#include "view/prompt.h"

/* Characters of 1 to 4 bytes go in whole; the cursor moves by their cells, not bytes. */
START_TEST(test_append_utf8_and_cursor_in_cells)
{
	struct prompt p;

	prompt_set(&p, "");
	ck_assert_uint_eq(p.len, 0);
	ck_assert_int_eq(prompt_cells(&p), 0);
	ck_assert(prompt_add(&p, 'a'));
	ck_assert(prompt_add(&p, 0xe9));    /* é: 2 bytes, 1 cell */
	ck_assert(prompt_add(&p, 0x6f22));  /* 漢: 3 bytes, 2 cells */
	ck_assert(prompt_add(&p, 0x1f600)); /* 😀: 4 bytes, 2 cells */
	ck_assert_str_eq(p.text, "a\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80");
	ck_assert_uint_eq(p.len, 10);
	ck_assert_int_eq(prompt_cells(&p), 6);
}
END_TEST

/* Backspace takes the whole last character: 4 bytes of an emoji, 3 of a CJK character. */
START_TEST(test_backspace_removes_whole_characters)
{
	struct prompt p;

	prompt_set(&p, "x\xe6\xbc\xa2\xf0\x9f\x98\x80"); /* x漢😀 */
	ck_assert_uint_eq(p.len, 8);
	ck_assert_int_eq(prompt_cells(&p), 5);
	ck_assert(prompt_back(&p));
	ck_assert_str_eq(p.text, "x\xe6\xbc\xa2");
	ck_assert_uint_eq(p.len, 4);
	ck_assert_int_eq(prompt_cells(&p), 3);
	ck_assert(prompt_back(&p));
	ck_assert_str_eq(p.text, "x");
	ck_assert_int_eq(prompt_cells(&p), 1);
	ck_assert(prompt_back(&p));
	ck_assert_str_eq(p.text, "");
	ck_assert(!prompt_back(&p));
	ck_assert_uint_eq(p.len, 0);
}
END_TEST

/* What is no text is refused and leaves the line as it was: controls, surrogates, key codes. */
static const struct {
	int line;
	uint32_t cp;
} REFUSED[] = {
	{ __LINE__, 0x1b },	/* Esc */
	{ __LINE__, '\n' },	/* Enter */
	{ __LINE__, 0x7f },	/* DEL */
	{ __LINE__, 0x9b },	/* C1 CSI */
	{ __LINE__, 0x202e },	/* right-to-left override */
	{ __LINE__, 0xd800 },	/* a surrogate */
	{ __LINE__, 0x110000 }, /* above Unicode: the first of pmctop's own key codes */
};

START_TEST(test_refuses_what_is_no_text)
{
	struct prompt p;

	prompt_set(&p, "ab");
	ck_assert_msg(!prompt_add(&p, REFUSED[_i].cp), "line %d", REFUSED[_i].line);
	ck_assert_str_eq(p.text, "ab");
	ck_assert_uint_eq(p.len, 2);
}
END_TEST

/* A full line takes no part of a character: what does not fit whole is refused. */
START_TEST(test_full_line_keeps_whole_characters)
{
	struct prompt p;
	size_t n = 0;

	prompt_set(&p, "");
	while (prompt_add(&p, 0x6f22))
		n++;
	ck_assert_uint_eq(n, (PROMPT_MAX - 1) / 3);
	ck_assert_uint_eq(p.len, n * 3);
	ck_assert_uint_eq(strlen(p.text), p.len);
	/* one byte is left: an ASCII letter fits, a 2-byte letter does not */
	ck_assert(!prompt_add(&p, 0xe9));
	ck_assert(prompt_add(&p, 'z'));
	ck_assert_uint_eq(p.len, PROMPT_MAX - 1);
	ck_assert(!prompt_add(&p, 'z'));
}
END_TEST

/* Text set from elsewhere (a filter on the command line) keeps its valid characters only. */
START_TEST(test_set_drops_invalid_bytes)
{
	struct prompt p;
	char long_text[PROMPT_MAX * 2];

	prompt_set(&p, "a\xff\xe6\xbc"
		       "b\xe6\xbc\xa2");
	ck_assert_str_eq(p.text, "ab\xe6\xbc\xa2");
	memset(long_text, 0, sizeof(long_text));
	for (size_t i = 0; i + 3 < sizeof(long_text); i += 3)
		memcpy(long_text + i, "\xe6\xbc\xa2", 3);
	prompt_set(&p, long_text);
	ck_assert_uint_eq(p.len, (PROMPT_MAX - 1) / 3 * 3);
	ck_assert_uint_eq(strlen(p.text), p.len);
}
END_TEST

/* utf8_encode gives back what utf8_decode reads, at each length's ends. */
START_TEST(test_encode_round_trip)
{
	static const uint32_t CPS[] = { 0x1, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff };
	char b[4];

	for (size_t i = 0; i < sizeof(CPS) / sizeof(CPS[0]); i++) {
		size_t n = utf8_encode(CPS[i], b), len;

		ck_assert_uint_gt(n, 0);
		ck_assert_int_eq(utf8_decode((const unsigned char *)b, n, &len), (int32_t)CPS[i]);
		ck_assert_uint_eq(len, n);
	}
	ck_assert_uint_eq(utf8_encode(0xdfff, b), 0);
	ck_assert_uint_eq(utf8_encode(0x110000, b), 0);
}
END_TEST

int main(void)
{
	Suite *s;

	/* cells as a UTF-8 terminal shows them, whatever the locale the tests run in */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "the C.UTF-8 locale is needed\n");
		return 99;
	}
	s = suite_create("prompt");
	TCase *tc = tcase_create("line");

	tcase_add_test(tc, test_append_utf8_and_cursor_in_cells);
	tcase_add_test(tc, test_backspace_removes_whole_characters);
	tcase_add_loop_test(tc, test_refuses_what_is_no_text, 0,
			    sizeof(REFUSED) / sizeof(REFUSED[0]));
	tcase_add_test(tc, test_full_line_keeps_whole_characters);
	tcase_add_test(tc, test_set_drops_invalid_bytes);
	tcase_add_test(tc, test_encode_round_trip);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
