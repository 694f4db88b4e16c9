/* libFuzzer harness: the ELF reader a slice at a time through a reader callback, and lookups. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/elfsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

struct fuzz_file {
	const uint8_t *buf;
	size_t len;    /* what can be read: the file may shrink while it is read */
	size_t calls;  /* reads so far */
	size_t cut_at; /* after this many reads the file is truncated to half */
};

static int fuzz_read(void *arg, void *buf, size_t len, uint64_t off)
{
	struct fuzz_file *f = arg;

	if (++f->calls == f->cut_at)
		f->len /= 2;
	if (off > f->len || len > f->len - off)
		return -EIO;
	memcpy(buf, f->buf + off, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fuzz_file f = { 0 };
	struct elfsym_parse p;
	struct elfsym e;
	uint8_t *copy;
	size_t budget, max;
	uint64_t off, v;
	int r, steps = 0;

	/* the first bytes choose the slice, the memory cap and when the file shrinks */
	if (len < 3)
		return 0;
	budget = (size_t)1 + data[0] * 97u;
	max = data[1] & 1 ? SIZE_MAX : (size_t)64 << ((data[1] >> 1) % 32);
	f.cut_at = data[2];
	data += 3;
	len -= 3;
	/* a copy of exactly len bytes, so reading one past the end is caught */
	copy = malloc(len ? len : 1);
	memcpy(copy, data, len);
	f.buf = copy;
	f.len = len;
	elfsym_parse_begin(&p, len, fuzz_read, &f, max);
	do
		r = elfsym_parse_step(&p, &e, budget);
	while (r == -EAGAIN && ++steps < 100000);
	if (r == -EAGAIN)
		elfsym_parse_release(&p);
	if (!r) {
		for (size_t i = 0; i < e.nfn; i++) {
			elfsym_find(&e, e.fn[i].addr, &off);
			(void)strlen(e.fn[i].name);
		}
		for (size_t i = 0; i < e.nload; i++)
			if (elfsym_vaddr(&e, e.load[i].offset, &v))
				elfsym_find(&e, v, &off);
		elfsym_vaddr(&e, UINT64_MAX, &v);
		elfsym_release(&e);
	}
	free(copy);
	return 0;
}
