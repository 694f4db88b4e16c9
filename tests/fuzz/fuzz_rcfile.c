/* libFuzzer harness: settings files, read as pmctop reads them; what it would write reads back. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/rcfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

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
	    memcmp(back.cols.order, rc.cols.order, sizeof(rc.cols.order)) ||
	    back.cols.hidden != rc.cols.hidden || back.scheme != rc.scheme)
		abort();
	free(text);
	return 0;
}
