/* Tests of the ELF symbol reader against nm, and of naming sampled addresses and mappings. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/proc.h"
#include "collect/symbols.h"
#include "model/hotpage.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif
#include "util/elfsym.h"

/* ---- ELF files built by the test, laid out as a linker would, or as an attacker would ---- */

struct telf_fn {
	const char *name;
	uint64_t addr, size;
};

/* An ELF64 file: segments, functions in .symtab, sizes as given (sparse where not written). */
struct telf {
	uint64_t size;		    /* of the file; 0: just what is written */
	struct elfsym_load load[2]; /* PT_LOAD segments */
	int nload;
	const struct telf_fn *fn;
	size_t nfn;
	uint64_t symoff, symsize; /* symsize 0: just the functions */
	uint64_t stroff;
	const char *bigname;	  /* when set, every function is named by this one string */
	uint64_t shsize_override; /* when set, .symtab claims this size */
};

static void telf_put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void telf_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	ck_assert_int_eq(pwrite(fd, buf, len, (off_t)off), (ssize_t)len);
}

/* Write t to path (replacing it); returns the file's size. */
static uint64_t telf_write(const char *path, const struct telf *t)
{
	unsigned char eh[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 }, ph[2][56], sh[3][64];
	unsigned char sym[24];
	char *str;
	size_t strsize = 1, at = 1;
	uint64_t symsize = t->symsize ? t->symsize : 24 * (t->nfn + 1), end;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	ck_assert_int_ge(fd, 0);
	if (t->bigname)
		strsize += strlen(t->bigname) + 1;
	else
		for (size_t i = 0; i < t->nfn; i++)
			strsize += strlen(t->fn[i].name) + 1;
	str = calloc(1, strsize);
	telf_put(eh + 16, 3, 2); /* ET_DYN */
	telf_put(eh + 18, 62, 2);
	telf_put(eh + 32, 64, 8);    /* phoff */
	telf_put(eh + 40, 0x200, 8); /* shoff */
	telf_put(eh + 52, 64, 2);
	telf_put(eh + 54, 56, 2);
	telf_put(eh + 56, (uint64_t)t->nload, 2);
	telf_put(eh + 58, 64, 2);
	telf_put(eh + 60, 3, 2);
	telf_pwrite(fd, eh, sizeof(eh), 0);
	memset(ph, 0, sizeof(ph));
	for (int i = 0; i < t->nload; i++) {
		telf_put(ph[i], 1, 4);
		telf_put(ph[i] + 4, 5, 4);
		telf_put(ph[i] + 8, t->load[i].offset, 8);
		telf_put(ph[i] + 16, t->load[i].vaddr, 8);
		telf_put(ph[i] + 32, t->load[i].filesz, 8);
		telf_put(ph[i] + 40, t->load[i].filesz, 8);
		telf_pwrite(fd, ph[i], 56, 64 + 56 * (uint64_t)i);
	}
	memset(sh, 0, sizeof(sh));
	telf_put(sh[1] + 4, 2, 4); /* SHT_SYMTAB */
	telf_put(sh[1] + 24, t->symoff, 8);
	telf_put(sh[1] + 32, t->shsize_override ? t->shsize_override : symsize, 8);
	telf_put(sh[1] + 40, 2, 4);
	telf_put(sh[1] + 56, 24, 8);
	telf_put(sh[2] + 4, 3, 4); /* SHT_STRTAB */
	telf_put(sh[2] + 24, t->stroff, 8);
	telf_put(sh[2] + 32, strsize, 8);
	telf_pwrite(fd, sh, sizeof(sh), 0x200);
	if (t->bigname)
		memcpy(str + 1, t->bigname, strlen(t->bigname));
	for (size_t i = 0; i < t->nfn; i++) {
		memset(sym, 0, sizeof(sym));
		if (t->bigname) {
			telf_put(sym, 1, 4);
		} else {
			telf_put(sym, at, 4);
			memcpy(str + at, t->fn[i].name, strlen(t->fn[i].name));
			at += strlen(t->fn[i].name) + 1;
		}
		sym[4] = 0x12; /* global function */
		telf_put(sym + 6, 1, 2);
		telf_put(sym + 8, t->fn[i].addr, 8);
		telf_put(sym + 16, t->fn[i].size, 8);
		telf_pwrite(fd, sym, sizeof(sym), t->symoff + 24 * (i + 1));
	}
	telf_pwrite(fd, str, strsize, t->stroff);
	free(str);
	end = t->stroff + strsize;
	if (t->symoff + symsize > end)
		end = t->symoff + symsize;
	for (int i = 0; i < t->nload; i++)
		if (t->load[i].offset + t->load[i].filesz > end)
			end = t->load[i].offset + t->load[i].filesz;
	if (t->size > end)
		end = t->size;
	ck_assert_int_eq(ftruncate(fd, (off_t)end), 0);
	close(fd);
	return end;
}

/* Functions of a shared library whose text segment is loaded 0x4000 above its file offset. */
static const struct telf_fn TELF_FNS[] = { { "near_fn", 0x200, 0x40 }, { "far_fn", 0x5010, 0x20 } };
static const struct telf TELF_LIB = {
	.load = { { 0, 0x1000, 0 }, { 0x1000, 0x1000, 0x5000 } },
	.nload = 2,
	.fn = TELF_FNS,
	.nfn = 2,
	.symoff = 0x400,
	.stroff = 0x600,
};
static const struct telf_fn TELF_OTHER_FNS[] = { { "other_fn", 0x5000, 0x100 } };
static const struct telf TELF_OTHER = {
	.load = { { 0, 0x1000, 0 }, { 0x1000, 0x1000, 0x5000 } },
	.nload = 2,
	.fn = TELF_OTHER_FNS,
	.nfn = 1,
	.symoff = 0x400,
	.stroff = 0x600,
};
static const struct telf_fn TELF_SECRET_FNS[] = { { "secret_fn", 0x5000, 0x100 } };
static const struct telf TELF_SECRET = {
	.load = { { 0, 0x1000, 0 }, { 0x1000, 0x1000, 0x5000 } },
	.nload = 2,
	.fn = TELF_SECRET_FNS,
	.nfn = 1,
	.symoff = 0x400,
	.stroff = 0x600,
};

/* A fresh directory for one test's files. */
static void test_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/pmctop-symbols-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A mapping of path as a loader makes it: name, offset, and the file's identity now. */
static struct mem_map map_of(const char *name, const char *path, unsigned long long start,
			     unsigned long long end, unsigned long long pgoff)
{
	struct mem_map m = { .start = start, .end = end, .pgoff = pgoff };
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	m.maj = major(st.st_dev);
	m.min = minor(st.st_dev);
	m.ino = st.st_ino;
	snprintf(m.name, sizeof(m.name), "%s", name);
	return m;
}

/* The functions nm lists in FILE (-D: its dynamic symbols), as "ADDR NAME" lines in a buffer. */
static char *nm_functions(const char *file, bool dynamic, size_t *count)
{
	char cmd[4200], line[1024], *out = NULL;
	size_t len = 0;
	FILE *p, *o = open_memstream(&out, &len);

	*count = 0;
	snprintf(cmd, sizeof(cmd), "nm %s --format=sysv --defined-only '%s' 2>/dev/null",
		 dynamic ? "-D" : "", file);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		char *f[7], *q = line, name[512];
		unsigned long long addr;
		int nf = 0;

		/* Name | Value | Class | Type | Size | Line | Section */
		while (nf < 7 && (f[nf] = strsep(&q, "|")))
			nf++;
		if (nf < 7 || sscanf(f[0], "%511s", name) != 1 || sscanf(f[1], "%llx", &addr) != 1)
			continue;
		/* functions, and GNU indirect functions (type 10, which nm names by number) */
		if ((!strstr(f[3], "FUNC") && !strstr(f[3], ": 10")) || !addr)
			continue;
		/* nm -D adds the symbol version ("_exit@@GLIBC_2.2.5"): the table's name is before it */
		name[strcspn(name, "@")] = '\0';
		fprintf(o, "%llx %s\n", addr, name);
		(*count)++;
	}
	ck_assert_int_eq(pclose(p), 0);
	fclose(o);
	return out;
}

static struct elfsym read_file(const char *path)
{
	size_t len;
	char *buf = testutil_slurp(path, &len);
	struct elfsym e;

	ck_assert_msg(buf != NULL, "%s", path);
	ck_assert_int_eq(elfsym_read(&e, (const unsigned char *)buf, len), 0);
	free(buf);
	return e;
}

/* Every function nm lists is found at its address, and every one read is in nm's list. */
static void compare_with_nm(const char *path, bool dynamic)
{
	struct elfsym e = read_file(path);
	size_t n;
	char *nm = nm_functions(path, dynamic, &n), *line = nm;

	ck_assert_msg(n > 10, "%s: nm lists %zu functions", path, n);
	while (*line) {
		unsigned long long addr;
		char name[512], want[600];
		const struct elfsym_fn *f;
		uint64_t off = 1;

		ck_assert_int_eq(sscanf(line, "%llx %511s", &addr, name), 2);
		f = elfsym_find(&e, addr, &off);
		ck_assert_msg(f && off == 0, "%s: nothing at 0x%llx (%s)", path, addr, name);
		/* one name per address: another one nm gives there is an alias */
		snprintf(want, sizeof(want), "%llx %s\n", addr, f->name);
		ck_assert_msg(strstr(nm, want), "%s: '%s' at 0x%llx is not nm's", path, f->name,
			      addr);
		line = strchr(line, '\n') + 1;
	}
	for (size_t i = 0; i < e.nfn; i++) {
		char want[600];

		snprintf(want, sizeof(want), "%" PRIx64 " %s\n", e.fn[i].addr, e.fn[i].name);
		ck_assert_msg(strstr(nm, want), "%s: nm lacks %s", path, want);
	}
	free(nm);
	elfsym_release(&e);
}

START_TEST(test_symtab_of_this_test_binary_matches_nm)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	compare_with_nm(exe, false);
}
END_TEST

/* The path of the C library this process maps, from /proc/self/maps. */
static void libc_path(char *buf, size_t size)
{
	size_t len = 0;
	char *maps = testutil_slurp("/proc/self/maps", &len), *p = strstr(maps, "/libc.so.6");

	ck_assert_ptr_nonnull(p);
	while (p > maps && p[-1] != ' ')
		p--;
	snprintf(buf, size, "%.*s", (int)strcspn(p, "\n"), p);
	free(maps);
}

/* A shared library's exports come from .dynsym, as nm -D lists them. */
START_TEST(test_dynsym_of_libc_matches_nm)
{
	char libc[1024];

	libc_path(libc, sizeof(libc));
	compare_with_nm(libc, true);
}
END_TEST

/* Bytes that are not a whole ELF64 file are refused, never read past their end. */
START_TEST(test_truncated_and_foreign_files_are_refused)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len;
	unsigned char *buf, *cut;
	struct elfsym e;

	exe[n] = '\0';
	len = 0;
	buf = (unsigned char *)testutil_slurp(exe, &len);
	for (size_t l = 0; l < len; l = l < 256 ? l + 1 : l * 3 / 2) {
		/* each prefix in an allocation of its own size, so an overrun is caught */
		int r;

		cut = malloc(l ? l : 1);
		memcpy(cut, buf, l);
		r = elfsym_read(&e, cut, l);
		ck_assert(r == 0 || r == -ENOEXEC || r == -ENOENT);
		elfsym_release(&e);
		free(cut);
	}
	buf[4] = 1; /* ELFCLASS32 */
	ck_assert_int_eq(elfsym_read(&e, buf, len), -ENOEXEC);
	buf[4] = 2;
	buf[5] = 2; /* big-endian */
	ck_assert_int_eq(elfsym_read(&e, buf, len), -ENOEXEC);
	ck_assert_int_eq(elfsym_read(&e, (const unsigned char *)"#!/bin/sh\n", 10), -ENOEXEC);
	free(buf);
}
END_TEST

/* A function of this test, kept out of line so it has an address and a symbol of its own. */
int symbols_probe_function(int x);
__attribute__((noinline, used)) int symbols_probe_function(int x)
{
	return x * 3 + 1;
}

/* Addresses of this very process, named from the files it maps as a drill-down names samples. */
START_TEST(test_addresses_of_this_process_are_named)
{
	size_t len = 0, cap = 0;
	char *text = testutil_slurp("/proc/self/maps", &len), buf[512], want[600];
	struct mem_map *maps = NULL;
	long n = proc_parse_maps(text, len, &maps, &cap);
	struct symbols *s = symbols_new("");
	char exe[4096], *base;
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void *heap = malloc(64);
	uint64_t ip = (uint64_t)(uintptr_t)&symbols_probe_function;

	ck_assert_int_gt(n, 0);
	exe[el] = '\0';
	base = strrchr(exe, '/') + 1;
	snprintf(want, sizeof(want), "symbols_probe_function+0x0 (%s)", base);
	ck_assert_str_eq(symbols_name(s, maps, (size_t)n, ip, buf, sizeof(buf)), want);
	snprintf(want, sizeof(want), "symbols_probe_function+0x2 (%s)", base);
	ck_assert_str_eq(symbols_name(s, maps, (size_t)n, ip + 2, buf, sizeof(buf)), want);
	/* a function of the C library, by its exported name (or an alias of it) */
	symbols_name(s, maps, (size_t)n, (uint64_t)(uintptr_t)&getppid, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "getppid+0x0 (libc.so.6)"), "%s", buf);
	/* memory that is no file: the mapping and the offset */
	symbols_name(s, maps, (size_t)n, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0x0");
	free(heap);
	/* a file that cannot be read: its name and the offset from where it is loaded */
	symbols_set_root(s, "/nonexistent-root", 0);
	snprintf(want, sizeof(want), "%s+0x", base);
	symbols_name(s, maps, (size_t)n, ip, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, want, strlen(want)), "%s", buf);
	symbols_free(s);
	free(maps);
	free(text);
}
END_TEST

/* Fixture maps: anonymous mappings by their ranges, files by name, grouped accordingly. */
START_TEST(test_mappings_named_and_grouped)
{
	static const char MAPS[] = "00400000-00401000 r--p 00000000 08:01 123 /opt/app/bin\n"
				   "00401000-00403000 r-xp 00001000 08:01 123 /opt/app/bin\n"
				   "01e4b000-01e6c000 rw-p 00000000 00:00 0 [heap]\n"
				   "7f12a000-7f13b000 rw-p 00000000 00:00 0 \n"
				   "7f200000-7f208000 rw-p 00000000 00:00 0\n"
				   "7ffc0000-7ffc2000 r-xp 00000000 00:00 0 [vdso]\n";
	struct mem_map *maps = NULL;
	size_t cap = 0;
	long n = proc_parse_maps(MAPS, sizeof(MAPS) - 1, &maps, &cap);
	struct symbols *s = symbols_new("");
	struct hotpage *h = hotpage_new(12, 2.0, 64);
	struct hotpage_group g[8];
	struct snap_sample x = { 0 };
	char buf[256];
	size_t ng;

	ck_assert_int_eq(n, 6);
	ck_assert_str_eq(mem_map_label(&maps[3], buf, sizeof(buf)), "[anon 7f12a000-7f13b000]");
	ck_assert_str_eq(mem_map_label(&maps[4], buf, sizeof(buf)), "[anon 7f200000-7f208000]");
	ck_assert_str_eq(mem_map_label(&maps[2], buf, sizeof(buf)), "[heap]");
	ck_assert_str_eq(symbols_name(s, maps, 6, 0x7f12a010, buf, sizeof(buf)),
			 "[anon 7f12a000-7f13b000]+0x10");
	ck_assert_str_eq(symbols_name(s, maps, 6, 0x7ffc0100, buf, sizeof(buf)), "[vdso]+0x100");
	/* the file is not there: named from its first mapping, where it is loaded */
	ck_assert_str_eq(symbols_name(s, maps, 6, 0x401120, buf, sizeof(buf)), "bin+0x1120");
	/* samples on both anonymous mappings and both mappings of the file */
	for (int i = 0; i < 5; i++) {
		x.addr = 0x7f12a000 + 4096 * (i % 2);
		hotpage_add(h, &x);
	}
	for (int i = 0; i < 3; i++) {
		x.addr = 0x7f200000;
		hotpage_add(h, &x);
	}
	x.addr = 0x400010;
	hotpage_add(h, &x);
	x.addr = 0x402010;
	hotpage_add(h, &x);
	ng = hotpage_by_mapping(h, maps, 6, g, 8);
	ck_assert_uint_eq(ng, 3);
	ck_assert_ptr_eq(g[0].map, &maps[3]);
	ck_assert_uint_eq(g[0].pages, 2);
	ck_assert_ptr_eq(g[1].map, &maps[4]);
	ck_assert_str_eq(g[2].name, "/opt/app/bin");
	ck_assert_uint_eq(g[2].pages, 2);
	hotpage_free(h);
	symbols_free(s);
	free(maps);
}
END_TEST

/* A file offset is put where its PT_LOAD segment loads it, not guessed from the lowest mapping. */
START_TEST(test_address_translated_through_its_segment)
{
	char dir[64], path[128], buf[256];
	struct symbols *s = symbols_new("");
	struct mem_map maps[3];
	size_t len = 0;
	char *bytes;
	struct elfsym e;
	uint64_t v;

	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	telf_write(path, &TELF_LIB);
	bytes = testutil_slurp(path, &len);
	ck_assert_int_eq(elfsym_read(&e, (const unsigned char *)bytes, len), 0);
	ck_assert(elfsym_vaddr(&e, 0x1010, &v));
	ck_assert_uint_eq(v, 0x5010);
	ck_assert(elfsym_vaddr(&e, 0x200, &v));
	ck_assert_uint_eq(v, 0x200);
	ck_assert(!elfsym_vaddr(&e, 0x2000, &v));
	elfsym_release(&e);
	free(bytes);
	/* the process also maps the file for reading, lower than where it is loaded */
	maps[0] = map_of(path, path, 0x10000, 0x11000, 0);
	maps[1] = map_of(path, path, 0x7f0000000000, 0x7f0000001000, 0);
	maps[2] = map_of(path, path, 0x7f0000005000, 0x7f0000006000, 0x1000);
	ck_assert_str_eq(symbols_name(s, maps, 3, 0x7f0000005010, buf, sizeof(buf)),
			 "far_fn+0x0 (lib.so)");
	ck_assert_str_eq(symbols_name(s, maps, 3, 0x7f0000005018, buf, sizeof(buf)),
			 "far_fn+0x8 (lib.so)");
	ck_assert_str_eq(symbols_name(s, maps, 3, 0x7f0000000210, buf, sizeof(buf)),
			 "near_fn+0x10 (lib.so)");
	/* only the text mapping is known: the segment still says where it is */
	ck_assert_str_eq(symbols_name(s, &maps[2], 1, 0x7f0000005010, buf, sizeof(buf)),
			 "far_fn+0x0 (lib.so)");
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

/* A file renamed over the mapped one is said to be replaced, and its symbols are not shown. */
START_TEST(test_replaced_file_is_said_and_not_read)
{
	char dir[64], path[128], other[128], buf[256];
	struct symbols *s = symbols_new("");
	struct mem_map m;
	struct symbols_hit h;

	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	snprintf(other, sizeof(other), "%s/lib.so.new", dir);
	telf_write(path, &TELF_LIB);
	m = map_of(path, path, 0x7f0000000000, 0x7f0000002000, 0);
	telf_write(other, &TELF_OTHER);
	ck_assert_int_eq(rename(other, path), 0);
	symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
	ck_assert_int_eq(h.state, SYMBOLS_REPLACED);
	ck_assert_ptr_null(h.fn);
	ck_assert_str_eq(symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf)),
			 "lib.so+0x1010 (file replaced)");
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

/* The very file mapped, read through /proc/PID/map_files though it was deleted. */
START_TEST(test_deleted_file_read_through_map_files)
{
	char dir[64], path[128], root[64], buf[512], want[256];
	struct symbols *s = symbols_new("");
	struct mem_map *maps = NULL;
	size_t cap = 0, len = 0;
	char *text;
	long n;
	int fd;
	unsigned char *p;

	if (geteuid()) {
		fprintf(stderr, "# skipped: /proc/PID/map_files needs root\n");
		symbols_free(s);
		return;
	}
	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/gone.so", dir);
	telf_write(path, &TELF_LIB);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, 0x2000, PROT_READ, MAP_PRIVATE, fd, 0);
	ck_assert(p != MAP_FAILED);
	close(fd);
	ck_assert_int_eq(unlink(path), 0);
	text = testutil_slurp("/proc/self/maps", &len);
	n = proc_parse_maps(text, len, &maps, &cap);
	ck_assert_int_gt(n, 0);
	snprintf(root, sizeof(root), "/proc/%d/root", (int)getpid());
	symbols_set_root(s, root, (int)getpid());
	symbols_name(s, maps, (size_t)n, (uint64_t)(uintptr_t)(p + 0x1010), buf, sizeof(buf));
	snprintf(want, sizeof(want), "far_fn+0x0 (gone.so (deleted))");
	ck_assert_str_eq(buf, want);
	/* without map_files (not root), the path names nothing: said, not guessed */
	symbols_set_root(s, root, 0);
	symbols_name(s, maps, (size_t)n, (uint64_t)(uintptr_t)(p + 0x1010), buf, sizeof(buf));
	ck_assert_str_eq(buf, "gone.so (deleted)+0x1010 (file deleted)");
	munmap(p, 0x2000);
	symbols_free(s);
	free(maps);
	free(text);
	rm_rf(dir);
}
END_TEST

/*
 * A link planted in the process's root towards a root-only file is never
 * opened, even when the mapping claims that very file's identity; with
 * openat2, and walking the path as on kernels without it.
 */
START_TEST(test_planted_symlinks_are_not_followed)
{
	char dir[64], root[128], secret[160], link[200], sub[200], name[400], buf[512];
	static const unsigned flags[2] = { 0, SYMBOLS_NO_OPENAT2 };
	struct mem_map m;
	struct symbols_hit h;
	struct stat st;

	test_dir(dir, sizeof(dir));
	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(secret, sizeof(secret), "%s/secret.so", dir);
	ck_assert_int_eq(mkdir(root, 0755), 0);
	telf_write(secret, &TELF_SECRET);
	ck_assert_int_eq(chmod(secret, 0600), 0);
	for (int i = 0; i < 2; i++) {
		struct symbols *s = symbols_new(root);

		symbols_set_limits(s, 0, 0, flags[i]);
		/* the last component is the link */
		snprintf(link, sizeof(link), "%s/evil.so", root);
		unlink(link);
		ck_assert_int_eq(symlink(secret, link), 0);
		m = map_of("/evil.so", secret, 0x7f0000000000, 0x7f0000002000, 0);
		symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
		ck_assert_int_eq(h.state, SYMBOLS_REFUSED);
		ck_assert_int_eq(h.err, -ELOOP);
		symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf));
		ck_assert_msg(!strstr(buf, "secret_fn"), "%s", buf);
		ck_assert_str_eq(buf, "evil.so+0x1010 (not opened: a symbolic link)");
		/* a directory on the way is an absolute link out of the root */
		snprintf(sub, sizeof(sub), "%s/lib", root);
		unlink(sub);
		ck_assert_int_eq(symlink(dir, sub), 0);
		m = map_of("/lib/secret.so", secret, 0x7f0000000000, 0x7f0000002000, 0);
		symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
		ck_assert_int_ne(h.state, SYMBOLS_READY);
		symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf));
		ck_assert_msg(!strstr(buf, "secret_fn"), "%s", buf);
		/* /etc/shadow, the attack as it was: the link to it is not even opened */
		if (!stat("/etc/shadow", &st)) {
			unlink(link);
			ck_assert_int_eq(symlink("/etc/shadow", link), 0);
			m = map_of("/evil.so", "/etc/shadow", 0x7f0000000000, 0x7f0000002000, 0);
			symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
			ck_assert_int_eq(h.state, SYMBOLS_REFUSED);
		}
		symbols_free(s);
	}
	/* a name cut at 95 bytes whose start is the secret's path: never opened as a path */
	{
		struct symbols *s = symbols_new("");
		char maps[1024], longdir[300];
		struct mem_map *mm = NULL;
		size_t cap = 0;
		int pad = 95 - (int)strlen(dir) - (int)strlen("/secret.so") - 1;

		ck_assert_int_gt(pad, 0);
		snprintf(longdir, sizeof(longdir), "%s/%.*s", dir, pad,
			 "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
			 "ddd"
			 "ddddddddddddddddddddddddddddddd");
		ck_assert_int_eq(mkdir(longdir, 0755), 0);
		snprintf(name, sizeof(name), "%s/secret.so", longdir);
		ck_assert_int_eq(strlen(name), 95);
		ck_assert_int_eq(rename(secret, name), 0);
		ck_assert_int_eq(stat(name, &st), 0);
		snprintf(maps, sizeof(maps),
			 "7f0000000000-7f0000002000 r-xp 00000000 %02x:%02x %llu "
			 "%s/more/of/the/name.so\n",
			 major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, name);
		ck_assert_int_eq(proc_parse_maps(maps, strlen(maps), &mm, &cap), 1);
		ck_assert(mm[0].cut);
		ck_assert_str_eq(mm[0].name, name);
		symbols_lookup(s, mm, 1, 0x7f0000001010, &h);
		ck_assert_int_eq(h.state, SYMBOLS_REFUSED);
		ck_assert_int_eq(h.err, -ENAMETOOLONG);
		symbols_name(s, mm, 1, 0x7f0000001010, buf, sizeof(buf));
		ck_assert_msg(!strstr(buf, "secret_fn"), "%s", buf);
		/* and it is not passed off as the file's own name: it goes on */
		ck_assert_str_eq(buf, "secret.so...+0x1010 (not opened: name cut short)");
		free(mm);
		symbols_free(s);
	}
	rm_rf(dir);
}
END_TEST

/* A FIFO or a device under a mapping's name is refused, and opening it does not block. */
START_TEST(test_fifo_and_device_refused_without_blocking)
{
	char dir[64], fifo[128], buf[256];
	struct symbols *s;
	struct mem_map m = { .start = 0x7f0000000000, .end = 0x7f0000002000 };
	struct symbols_hit h;

	test_dir(dir, sizeof(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo.so", dir);
	ck_assert_int_eq(mkfifo(fifo, 0666), 0);
	s = symbols_new(dir);
	/* a recording's mapping: no identity to compare, the kind of file decides */
	snprintf(m.name, sizeof(m.name), "/fifo.so");
	alarm(10);
	symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
	ck_assert_int_eq(h.state, SYMBOLS_REFUSED);
	ck_assert_str_eq(symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf)),
			 "fifo.so+0x1010 (not opened: not a regular file)");
	symbols_set_root(s, "", 0);
	snprintf(m.name, sizeof(m.name), "/dev/null");
	symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
	ck_assert_int_eq(h.state, SYMBOLS_REFUSED);
	alarm(0);
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

/* A 100 MB file with a 60 MiB symbol table (sparse): its functions are given to the writer. */
static const struct telf_fn TELF_BIG_FNS[] = { { "big_fn", 0x5000, 0x100 } };
static const struct telf TELF_BIG = {
	.size = 100u << 20,
	.load = { { 0, 0x1000, 0 }, { 0x1000, 0x1000, 0x5000 } },
	.nload = 2,
	.fn = TELF_BIG_FNS,
	.nfn = 1,
	.symoff = 0x100000,
	.symsize = 60u << 20,
	.stroff = 0x3e00000,
};

/* A big file is read a slice per frame: no frame reads more than the slice and some more. */
START_TEST(test_big_file_read_in_slices)
{
	char dir[64], path[128], buf[256];
	struct symbols *s = symbols_new("");
	struct symbols_stats st;
	struct mem_map m;
	uint64_t before = 0;
	int frames = 0;

	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/big.so", dir);
	telf_write(path, &TELF_BIG);
	m = map_of(path, path, 0x7f0000000000, 0x7f0000002000, 0);
	for (;;) {
		symbols_frame(s);
		symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf));
		frames++;
		symbols_stats(s, &st);
		/* a slice, plus the headers and what the last chunk read past it */
		ck_assert_uint_le(st.bytes_read - before, SYMBOLS_SLICE_BYTES + (512u << 10));
		before = st.bytes_read;
		if (!strstr(buf, "(reading)"))
			break;
		ck_assert_int_lt(frames, 100);
	}
	ck_assert_str_eq(buf, "big_fn+0x10 (big.so)");
	/* 60 MiB in slices of 8 */
	ck_assert_int_ge(frames, 8);
	ck_assert_int_le(frames, 9);
	/* what is kept is the table, not the file */
	ck_assert_uint_lt(st.bytes, 1u << 20);
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

/* The file shrinks while it is read (its owner truncates it): no crash, no symbols. */
START_TEST(test_truncated_while_read_no_crash)
{
	char dir[64], path[128], buf[256];
	struct symbols *s = symbols_new("");
	struct symbols_hit h;
	struct mem_map m;

	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/big.so", dir);
	telf_write(path, &TELF_BIG);
	m = map_of(path, path, 0x7f0000000000, 0x7f0000002000, 0);
	symbols_name(s, &m, 1, 0x7f0000001010, buf, sizeof(buf));
	ck_assert_str_eq(buf, "big.so+0x1010 (reading)");
	ck_assert_int_eq(truncate(path, 0x200000), 0);
	for (int i = 0; i < 20; i++) {
		symbols_frame(s);
		symbols_lookup(s, &m, 1, 0x7f0000001010, &h);
	}
	ck_assert_int_eq(h.state, SYMBOLS_NONE);
	ck_assert_int_eq(h.err, -EIO);
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

/*
 * 100000 functions all named by one 4 MiB string, and a symbol table that
 * claims 2^62 bytes: what is allocated stays bounded by the file, under a
 * 512 MiB address space (copying each name would take 400 GB).
 */
START_TEST(test_hostile_sizes_bounded_allocation)
{
	char dir[64], path[128], *big = malloc((4u << 20) + 1);
	struct telf_fn *fns = calloc(100000, sizeof(*fns));
	struct telf t = {
		.load = { { 0, 0x200000, 0 } },
		.nload = 1,
		.symoff = 0x1000,
		.stroff = 0x1000 + 24 * 100001,
	};
	int status;
	pid_t pid;

	test_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/hostile.so", dir);
	memset(big, 'A', 4u << 20);
	big[4u << 20] = '\0';
	for (size_t i = 0; i < 100000; i++)
		fns[i] = (struct telf_fn){ "", 0x1000 + i, 1 };
	t.fn = fns;
	t.nfn = 100000;
	t.bigname = big;
	telf_write(path, &t);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct rlimit rl = { 512u << 20, 512u << 20 };
		struct symbols *s = symbols_new("");
		struct mem_map m = map_of(path, path, 0x7f0000000000, 0x7f0000200000, 0);
		struct symbols_hit h;

		/*
		 * AddressSanitizer reserves terabytes of address space at start, so a
		 * sanitizer build cannot run under the limit: there its allocator, which
		 * aborts on an allocation this large, stands for it.
		 */
		if (!TEST_ASAN && setrlimit(RLIMIT_AS, &rl))
			_exit(3);
		symbols_lookup(s, &m, 1, 0x7f0000001000, &h);
		if (h.state != SYMBOLS_READY || !h.fn || strlen(h.fn) != (4u << 20))
			_exit(4);
		symbols_free(s);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status 0x%x", status);
	/* a table claiming 2^62 bytes is no table */
	t.shsize_override = 1ull << 62;
	telf_write(path, &t);
	{
		size_t len = 0;
		char *bytes = testutil_slurp(path, &len);
		struct elfsym e;

		ck_assert_int_eq(elfsym_read(&e, (const unsigned char *)bytes, len), -ENOENT);
		free(bytes);
	}
	free(fns);
	free(big);
	rm_rf(dir);
}
END_TEST

/* The cache keeps tables up to its size in bytes, dropping the least recently used. */
START_TEST(test_cache_bounded_by_bytes)
{
	char dir[64], path[3][128], buf[256];
	struct symbols *s = symbols_new("");
	struct symbols_stats st;
	struct mem_map m[3];
	char *name = malloc((1u << 20) + 1);
	struct telf_fn fn = { "", 0x5000, 0x100 };
	struct telf t = TELF_OTHER;

	memset(name, 'f', 1u << 20);
	name[1u << 20] = '\0';
	t.fn = &fn;
	t.bigname = name;
	test_dir(dir, sizeof(dir));
	/* room for two tables of 1 MiB of names, not three */
	symbols_set_limits(s, (5u << 20) / 2, 0, 0);
	for (int i = 0; i < 3; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/lib%d.so", dir, i);
		telf_write(path[i], &t);
		m[i] = map_of(path[i], path[i], 0x7f0000000000 + 0x10000 * (uint64_t)i,
			      0x7f0000002000 + 0x10000 * (uint64_t)i, 0);
	}
	for (int i = 0; i < 3; i++) {
		symbols_frame(s);
		symbols_name(s, &m[i], 1, m[i].start + 0x1010, buf, sizeof(buf));
		ck_assert_msg(!strncmp(buf, "ffff", 4), "%s", buf);
		symbols_stats(s, &st);
		ck_assert_uint_le(st.bytes, (5u << 20) / 2);
	}
	ck_assert_uint_eq(st.files, 2);
	ck_assert_uint_eq(st.opens, 3);
	/* the first was dropped: read again; the third, just used, is still there */
	symbols_name(s, &m[2], 1, m[2].start + 0x1010, buf, sizeof(buf));
	symbols_stats(s, &st);
	ck_assert_uint_eq(st.opens, 3);
	symbols_name(s, &m[0], 1, m[0].start + 0x1010, buf, sizeof(buf));
	symbols_stats(s, &st);
	ck_assert_uint_eq(st.opens, 4);
	free(name);
	symbols_free(s);
	rm_rf(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc = tcase_create("elf");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_symtab_of_this_test_binary_matches_nm);
	tcase_add_test(tc, test_dynsym_of_libc_matches_nm);
	tcase_add_test(tc, test_truncated_and_foreign_files_are_refused);
	tcase_add_test(tc, test_addresses_of_this_process_are_named);
	tcase_add_test(tc, test_mappings_named_and_grouped);
	tcase_add_test(tc, test_address_translated_through_its_segment);
	tcase_add_test(tc, test_replaced_file_is_said_and_not_read);
	tcase_add_test(tc, test_deleted_file_read_through_map_files);
	tcase_add_test(tc, test_planted_symlinks_are_not_followed);
	tcase_add_test(tc, test_fifo_and_device_refused_without_blocking);
	tcase_add_test(tc, test_big_file_read_in_slices);
	tcase_add_test(tc, test_truncated_while_read_no_crash);
	tcase_add_test(tc, test_hostile_sizes_bounded_allocation);
	tcase_add_test(tc, test_cache_bounded_by_bytes);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
