/* Tests of the ELF symbol reader against nm, and of naming sampled addresses and mappings. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/proc.h"
#include "collect/symbols.h"
#include "model/hotpage.h"
#include "testutil.h"
#include "util/elfsym.h"

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
	symbols_set_root(s, "/nonexistent-root");
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
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
