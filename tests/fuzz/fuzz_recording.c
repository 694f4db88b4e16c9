/* libFuzzer harness: recordings, line by line, through the reader that --replay uses. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "stream/recording.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct recording_reader r;
	struct snapshot s;
	const char *p = (const char *)data, *end = p + len;

	recording_reader_init(&r);
	snapshot_init(&s, 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (recording_feed(&r, p, l, &s) < 0)
			break;
		p += l + 1;
	}
	snapshot_release(&s);
	recording_reader_release(&r);
	return 0;
}
