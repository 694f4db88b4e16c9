/* libFuzzer harness: settings files, read as pmctop reads them; what it would write reads back. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/rcfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/*
 * Whether a and b show the same columns in the same order: where a hidden
 * column sits in the order is no setting (the file lists the shown ones).
 */
static int fuzz_same_columns(const struct col_choice *a, const struct col_choice *b)
{
	size_t i = 0, j = 0;

	if (a->hidden != b->hidden)
		return 0;
	for (;;) {
		while (i < COL_MAX && (a->hidden >> a->order[i] & 1))
			i++;
		while (j < COL_MAX && (b->hidden >> b->order[j] & 1))
			j++;
		if (i == COL_MAX || j == COL_MAX)
			return i == j;
		if (a->order[i++] != b->order[j++])
			return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct rcfile rc, back;
	char msg[1024];
	size_t n;
	char *text;

	rcfile_init(&rc);
	rcfile_parse(&rc, (const char *)data, len, "fuzz", msg, sizeof(msg));
	/* whatever was taken from the file, the file written from it is good to read */
	text = rcfile_format(&rc, &n);
	rcfile_init(&back);
	if (rcfile_parse(&back, text, n, "fuzz", msg, sizeof(msg)) ||
	    !fuzz_same_columns(&back.cols, &rc.cols) || back.scheme != rc.scheme)
		abort();
	free(text);
	return 0;
}
