/* libFuzzer harness: perf.data captures (file or pipe format) through the reader, every record decoded. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "stream/perfdata.h"

static void fuzz_perfdata_sample(const struct perfrec_sample *s, void *arg)
{
	*(uint64_t *)arg += s->addr + s->attr;
}

static void fuzz_perfdata_mmap(const struct perfrec_mmap *m, void *arg)
{
	/* touch every byte of the name the decoder vouched for */
	for (size_t i = 0; i < m->name_len; i++)
		*(uint64_t *)arg += (unsigned char)m->name[i];
}

static void fuzz_perfdata_task(const struct perfrec_task *t, void *arg)
{
	for (size_t i = 0; i < t->comm_len; i++)
		*(uint64_t *)arg += (unsigned char)t->comm[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const struct perfrec_cbs cbs = { fuzz_perfdata_sample, fuzz_perfdata_mmap,
					 fuzz_perfdata_task, NULL, 0 };
	struct perfrec_cbs c = cbs;
	struct perfdata pd;
	char err[256];
	uint64_t sum = 0;

	c.arg = &sum;
	if (perfdata_open(&pd, data, len, err, sizeof(err)) == 0) {
		while (perfdata_next(&pd, &c, err, sizeof(err)) > 0)
			;
	}
	perfdata_release(&pd);
	return 0;
}
