/* libFuzzer harness: the ELF64 symbol-table reader on any bytes, and lookups in what it read. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/elfsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* a copy of exactly len bytes, so reading one past the end is caught */
	unsigned char *buf = malloc(len ? len : 1);
	struct elfsym e;
	uint64_t off;

	memcpy(buf, data, len);
	if (!elfsym_read(&e, buf, len)) {
		for (size_t i = 0; i < e.nfn; i++) {
			elfsym_find(&e, e.fn[i].addr, &off);
			elfsym_find(&e, e.fn[i].addr + e.fn[i].size, &off);
			(void)strlen(e.fn[i].name);
		}
		elfsym_find(&e, 0, &off);
		elfsym_find(&e, UINT64_MAX, &off);
	}
	elfsym_release(&e);
	free(buf);
	return 0;
}
