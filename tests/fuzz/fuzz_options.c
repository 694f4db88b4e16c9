/* libFuzzer harness: option values and event lists, NUL-separated arguments into argv. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *copy = malloc(len + 1), *argv[34];
	int argc = 1;
	struct options o;
	char err[512];

	memcpy(copy, data, len);
	copy[len] = '\0';
	argv[0] = (char *)"pmctop";
	for (size_t i = 0, start = 0; i <= len && argc < 33; i++)
		if (i == len || copy[i] == '\0') {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	options_parse(&o, argc, argv, err, sizeof(err));
	options_release(&o);
	free(copy);
	return 0;
}
