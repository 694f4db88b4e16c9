/* Text that others chose (process, file, cgroup, user and event names) made safe to show. */
#ifndef PMCTOP_TEXTSAFE_H
#define PMCTOP_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How textsafe_escape writes what is unsafe (the low bits of its how). */
enum textsafe_style {
	/* '?' for each unsafe character or byte, as ps shows names: for people */
	TEXTSAFE_MARK = 0,
	/*
	 * \xHH for each byte of one, and a '\' doubled only where it would
	 * read as such an escape or as a doubled '\': reversible, so two
	 * names never become one (systemd's "\x2d" stays as it is)
	 */
	TEXTSAFE_HEX = 1,
	/* the body of a JSON string: \" \\ \uXXXX, \ufffd for a byte of invalid UTF-8 */
	TEXTSAFE_JSON = 2,
};
#define TEXTSAFE_STYLE 0x0fu
/* the reader's terminal is not UTF-8: every byte >= 0x80 is unsafe (0x9b is CSI on 8-bit ones) */
#define TEXTSAFE_ASCII 0x10u
/* newlines and tabs are kept (a message of several lines), in MARK style */
#define TEXTSAFE_LINES 0x20u
/* The bytes textsafe_escape may need for len bytes of input, its NUL included. */
#define TEXTSAFE_MAX(len) (6 * (len) + 1)

/*
 * Whether code point cp must never reach a terminal as it is: C0 and C1
 * controls and DEL (they move the cursor, retitle the window, write the
 * clipboard), and the bidirectional controls that reorder the text after
 * them (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). Pure.
 */
bool textsafe_unsafe(int32_t cp);
/*
 * The one escaping of text from outside pmctop: copy len bytes of s into
 * out (size bytes, NUL-terminated), each unsafe code point, byte of
 * invalid UTF-8 and, with TEXTSAFE_ASCII, byte >= 0x80 written as the
 * style in how says. At most maxcols characters of s are kept (< 0: no
 * limit); a character is never split, nor cut by a short out. Returns the
 * characters of s kept (the cells, in MARK style). Pure.
 */
size_t textsafe_escape(char *out, size_t size, const char *s, size_t len, unsigned how,
		       int maxcols);
/* textsafe_escape of the string s in MARK style, for a UTF-8 reader. */
size_t textsafe_copy(const char *s, char *out, size_t size, int maxcols);
/* TEXTSAFE_ASCII unless LC_CTYPE's codeset is UTF-8: the flags for this process's terminal. */
unsigned textsafe_locale(void);
/* fprintf to f with the whole message escaped for the locale's terminal, lines kept. */
__attribute__((format(printf, 2, 3))) void textsafe_fprintf(FILE *f, const char *fmt, ...);

#endif
