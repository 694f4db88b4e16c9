/* Prints what pmctop decodes of a perf.data, one line per record, for tests/perfdata.sh to compare with perf script. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/perfdata.h"
#include "stream/perfrec.h"

static void dump_sample(const struct perfrec_sample *s, void *arg)
{
	const struct perfdata *pd = arg;
	struct perfrec_src d;

	perfrec_src_split(s->data_src, &d);
	/* times as perf script prints them: seconds with microseconds */
	printf("S %" PRIu32 " %" PRIu32 " %" PRIu64 ".%06" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64
	       " %" PRIu64 " 0x%" PRIx64 " %s",
	       s->pid, s->tid, s->time / 1000000000, s->time % 1000000000 / 1000, s->ip, s->addr,
	       s->weight, s->data_src, pd->ev[s->attr].name);
	printf(" op=%u lvl=%u snoop=%u lock=%u tlb=%u lvlnum=%u remote=%u snoopx=%u blk=%u hops=%u "
	       "level=%s\n",
	       d.op, d.lvl, d.snoop, d.lock, d.tlb, d.lvl_num, d.remote, d.snoopx, d.blk, d.hops,
	       mem_level_name(s->level));
}

static void dump_mmap(const struct perfrec_mmap *m, void *arg)
{
	(void)arg;
	printf("M %" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " %.*s\n", m->pid, m->addr, m->len,
	       (int)m->name_len, m->name);
}

static void dump_task(const struct perfrec_task *t, void *arg)
{
	(void)arg;
	if (t->type == PERFREC_COMM)
		printf("C %" PRIu32 " %" PRIu32 " %.*s\n", t->pid, t->tid, (int)t->comm_len,
		       t->comm);
}

int main(int argc, char **argv)
{
	struct perfdata pd;
	char err[512];
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int r;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: perfdata_dump FILE\n");
		return 2;
	}
	do {
		if (cap - len < 65536)
			buf = realloc(buf, cap = cap * 2 + 65536);
		if (!buf)
			return 2;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	if (perfdata_open(&pd, buf, len, err, sizeof(err))) {
		fprintf(stderr, "perfdata_dump: %s\n", err);
		return 2;
	}
	{
		const struct perfrec_cbs cbs = { dump_sample, dump_mmap, dump_task, &pd, 0 };

		while ((r = perfdata_next(&pd, &cbs, err, sizeof(err))) > 0)
			;
	}
	printf("H host=%s kernel=%s cpu=%s events=%zu lost=%" PRIu64 " aux=%" PRIu64
	       " unknown=%" PRIu64 "\n",
	       pd.host, pd.kernel, pd.cpudesc, pd.nev, pd.st.lost, pd.skipped.aux,
	       pd.skipped.unknown);
	/* the NUMA topology: each CPU's node, and each node's memory blocks as ranges */
	for (size_t c = 0; c < pd.ncpu_node; c++)
		if (perfdata_cpu_node(&pd, (uint32_t)c) >= 0)
			printf("N cpu %zu node %d\n", c, perfdata_cpu_node(&pd, (uint32_t)c));
	if (pd.mem_block)
		printf("B size 0x%" PRIx64 "\n", pd.mem_block);
	for (size_t i = 0; i < pd.nmemnodes; i++) {
		const struct perfdata_memnode *m = &pd.memnodes[i];
		const char *sep = "";

		printf("B node %" PRIu64 " ", m->node);
		for (uint64_t b = 0; b < m->nbits; b++) {
			uint64_t e = b;

			if (!(m->bits[b / 64] >> (b % 64) & 1))
				continue;
			while (e + 1 < m->nbits && (m->bits[(e + 1) / 64] >> ((e + 1) % 64) & 1))
				e++;
			if (e > b)
				printf("%s%" PRIu64 "-%" PRIu64, sep, b, e);
			else
				printf("%s%" PRIu64, sep, b);
			sep = ",";
			b = e;
		}
		printf("\n");
	}
	if (r < 0)
		fprintf(stderr, "perfdata_dump: %s\n", err);
	perfdata_release(&pd);
	free(buf);
	return r < 0 ? 2 : 0;
}
