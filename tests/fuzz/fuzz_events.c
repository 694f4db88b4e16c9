/* libFuzzer harness: event names through libpfm4 encoding and the suggestion search. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static int ready;
	struct perf_event_attr a;
	char *name, sug[3][128];
	bool hw;

	if (!ready) {
		if (events_init())
			return 0;
		ready = 1;
	}
	if (len > 256)
		return 0;
	name = malloc(len + 1);
	memcpy(name, data, len);
	name[len] = '\0';
	if (events_encode(name, false, &a, &hw))
		events_suggest(name, sug, 3);
	free(name);
	return 0;
}
