/* Text that others chose (process names, command lines, user and host names) made safe for a terminal. */
#ifndef PMCTOP_TEXTSAFE_H
#define PMCTOP_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether code point cp must never reach a terminal as it is: C0 and C1
 * controls and DEL (they move the cursor, retitle the window, write the
 * clipboard), and the bidirectional controls that reorder the text after
 * them (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). Pure.
 */
bool textsafe_unsafe(int32_t cp);
/*
 * Copy s into out (size bytes, NUL-terminated) as ps shows names: each
 * unsafe code point and each byte of invalid UTF-8 becomes '?'. At most
 * maxcols code points are kept (< 0: no limit), never a character split
 * in half. Returns the code points written. Pure.
 */
size_t textsafe_copy(const char *s, char *out, size_t size, int maxcols);

#endif
