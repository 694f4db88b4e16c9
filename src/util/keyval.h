/* A settings file of KEY=VALUE lines under a header line: parsed and written, pure (no I/O). */
#ifndef PMCTOP_KEYVAL_H
#define PMCTOP_KEYVAL_H

#include <stddef.h>

/* The longest line kept (bytes, without the newline); a longer one is a problem, skipped. */
#define KEYVAL_LINE_MAX 1024

struct keyval_entry {
	char *key;   /* owned; trimmed of blanks */
	char *value; /* owned; trimmed of blanks; may be "" */
	unsigned line;
};

/*
 * A parsed file: its entries in file order, and the first problem met (a line that was
 * skipped, or why the whole file was). Lines that are blank or start with '#' are comments;
 * a CR before a newline is dropped (a file edited on Windows).
 */
struct keyval {
	struct keyval_entry *v;
	size_t n, cap;
	unsigned problems; /* lines skipped, or 1 when the whole file was */
	unsigned bad_line; /* the line of the first problem; 0 for none */
	char bad[192];	   /* what was wrong with it: "has no '=': write KEY=VALUE" */
	unsigned version;  /* the header's version, 0 when there was none */
};

/*
 * Parse len bytes of text whose first line must be "MAGIC VERSION" ("# pmctop config 1").
 * Returns 0 when the file is one of these (lines with problems skipped and the first
 * problem kept in kv), or -EINVAL when none of it can be used: another kind of file, a newer
 * version than version, or binary data (a NUL byte); kv then holds no entries and says why.
 * kv is initialised here; release it with keyval_release.
 */
int keyval_parse(struct keyval *kv, const char *text, size_t len, const char *magic,
		 unsigned version);
void keyval_release(struct keyval *kv);
/* Record a problem with line (for problems found in the values): the first one is kept. */
void keyval_problem(struct keyval *kv, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Append "key=value\n" to the text *buf of *len bytes (grown as needed, NUL-terminated).
 * Returns 0, or -EINVAL when key or value would not read back the same: an empty key, one
 * with '=' or '#' first, blanks at either end, a control character or a line too long.
 */
int keyval_append(char **buf, size_t *len, const char *key, const char *value);

#endif
