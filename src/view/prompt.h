/* The line a prompt edits: UTF-8 text typed a character at a time. */
#ifndef PMCTOP_PROMPT_H
#define PMCTOP_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of typed text, the terminating NUL included: 42 CJK characters, 31 emoji. */
#define PROMPT_MAX 128

struct prompt {
	char text[PROMPT_MAX]; /* valid UTF-8, NUL-terminated */
	size_t len;	       /* bytes of text */
};

/* Start the line with text, cut at the last whole character that fits; invalid bytes dropped. */
void prompt_set(struct prompt *p, const char *text);
/*
 * Append code point cp as UTF-8. Returns false, the line unchanged, for what is no typed text (a
 * control, a bidirectional control, a surrogate, a key code above U+10FFFF) or when it does not
 * fit whole.
 */
bool prompt_add(struct prompt *p, uint32_t cp);
/* Remove the last character, all of its bytes; false when the line is empty. */
bool prompt_back(struct prompt *p);
/* The cells the text takes on the screen: the cursor's column after it (canvas_cells). */
int prompt_cells(const struct prompt *p);

#endif
