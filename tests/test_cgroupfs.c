/* Tests of cgroup v2 parsing over bytes (mountinfo, /proc/PID/cgroup, paths) and the walk. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/cgroupfs.h"
#include "util/parse.h"
#include "testutil.h"

/* A hybrid system as on the machine pmctop is developed on: v1 controllers and v2 at unified. */
static const char HYBRID[] =
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const struct {
	int line;
	const char *text;
	int ret;
	const char *dir, *root;
} MOUNT_CASES[] = {
	{ __LINE__, HYBRID, 0, "/sys/fs/cgroup/unified", "/" },
	/* unified: optional fields (shared:N) before the separator */
	{ __LINE__,
	  "25 20 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
	  "rw,nsdelegate,memory_recursiveprot\n",
	  0, "/sys/fs/cgroup", "/" },
	/* a space in the mount point is \040, a backslash \134 */
	{ __LINE__, "40 30 0:37 / /mnt/my\\040cg\\134x rw - cgroup2 none rw\n", 0, "/mnt/my cg\\x",
	  "/" },
	/* a bind mount of a subtree loses to the whole hierarchy, in whatever order */
	{ __LINE__,
	  "41 30 0:37 /kubepods /run/cg rw - cgroup2 cgroup2 rw\n"
	  "42 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
	  0, "/sys/fs/cgroup", "/" },
	{ __LINE__, "41 30 0:37 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw", 0,
	  "/sys/fs/cgroup", "/docker/abc" },
	/* v1 only, or cgroup2 only as a source name or option: none */
	{ __LINE__, "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup2 rw,cpu\n", -ENOENT, NULL,
	  NULL },
	{ __LINE__, "", -ENOENT, NULL, NULL },
	{ __LINE__, "garbage\n\n - cgroup2\n", -ENOENT, NULL, NULL },
	/* a malformed escape in the cgroup2 line */
	{ __LINE__, "40 30 0:37 / /sys/fs/c\\04 rw - cgroup2 cgroup2 rw\n", -EINVAL, NULL, NULL },
	{ __LINE__, "40 30 0:37 / /sys/fs/c\\000 rw - cgroup2 cgroup2 rw\n", -EINVAL, NULL, NULL },
	{ __LINE__, "40 30 0:37 / relative rw - cgroup2 cgroup2 rw\n", -EINVAL, NULL, NULL },
};

START_TEST(test_parse_mountinfo_table)
{
	struct cgroupfs_mount m;
	int r;

	memset(&m, 0, sizeof(m));
	r = cgroupfs_parse_mountinfo(MOUNT_CASES[_i].text, strlen(MOUNT_CASES[_i].text), &m);
	ck_assert_msg(r == MOUNT_CASES[_i].ret, "line %d: %d", MOUNT_CASES[_i].line, r);
	if (r)
		return;
	ck_assert_str_eq(m.dir, MOUNT_CASES[_i].dir);
	ck_assert_str_eq(m.root, MOUNT_CASES[_i].root);
}
END_TEST

START_TEST(test_parse_mountinfo_reads_only_len_bytes)
{
	struct cgroupfs_mount m;
	size_t cut = strlen(HYBRID) - strlen("40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - "
					     "cgroup2 cgroup2 rw\n");

	ck_assert_int_eq(cgroupfs_parse_mountinfo(HYBRID, cut, &m), -ENOENT);
	/* cut inside the line: the fstype is not there */
	ck_assert_int_eq(cgroupfs_parse_mountinfo(HYBRID, strlen(HYBRID) - 18, &m), -ENOENT);
}
END_TEST

START_TEST(test_parse_mountinfo_path_too_long)
{
	char *line = malloc(9000);
	struct cgroupfs_mount m;
	int o = snprintf(line, 9000, "40 30 0:37 / /");

	memset(line + o, 'a', 5000);
	snprintf(line + o + 5000, 9000 - (size_t)o - 5000, " rw - cgroup2 cgroup2 rw\n");
	ck_assert_int_eq(cgroupfs_parse_mountinfo(line, strlen(line), &m), -ENAMETOOLONG);
	free(line);
}
END_TEST

static const struct {
	int line;
	const char *text;
	int ret;
	const char *path;
} PROC_CASES[] = {
	{ __LINE__, "0::/\n", 0, "/" },
	{ __LINE__,
	  "12:pids:/user.slice\n4:memory:/process_api/ad39\n1:name=systemd:/x\n0::/user.slice/"
	  "user-1000.slice/session-2.scope\n",
	  0, "/user.slice/user-1000.slice/session-2.scope" },
	{ __LINE__, "0::/a b/c", 0, "/a b/c" }, /* no newline at the end; a space is kept */
	{ __LINE__, "4:memory:/x\n1:cpu:/\n", -ENOENT, NULL }, /* v1 only */
	{ __LINE__, "10::/not-v2\n", -ENOENT, NULL },
	{ __LINE__, "0::\n", -ENOENT, NULL },
	{ __LINE__, "", -ENOENT, NULL },
};

START_TEST(test_parse_proc_table)
{
	char out[CGROUPFS_PATH_MAX];
	int r = cgroupfs_parse_proc(PROC_CASES[_i].text, strlen(PROC_CASES[_i].text), out,
				    sizeof(out));

	ck_assert_msg(r == PROC_CASES[_i].ret, "line %d: %d", PROC_CASES[_i].line, r);
	if (!r)
		ck_assert_str_eq(out, PROC_CASES[_i].path);
}
END_TEST

START_TEST(test_parse_proc_bounds)
{
	char out[8];

	ck_assert_int_eq(cgroupfs_parse_proc("0::/abcdefgh\n", 13, out, sizeof(out)),
			 -ENAMETOOLONG);
	ck_assert_int_eq(cgroupfs_parse_proc("0::/abcdef\n", 10, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/abcdef");
	/* len stops before the line: nothing is read past it */
	ck_assert_int_eq(cgroupfs_parse_proc("1:x:/\n0::/a\n", 6, out, sizeof(out)), -ENOENT);
}
END_TEST

START_TEST(test_relative_to_a_subtree_mount)
{
	struct cgroupfs_mount m = { .dir = "/sys/fs/cgroup", .root = "/docker/abc" };
	char out[64];

	ck_assert_int_eq(cgroupfs_relative(&m, "/docker/abc/web", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/web");
	ck_assert_int_eq(cgroupfs_relative(&m, "/docker/abc", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/");
	ck_assert_int_eq(cgroupfs_relative(&m, "/docker/abcd", out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(cgroupfs_relative(&m, "/other", out, sizeof(out)), -ENOENT);
	snprintf(m.root, sizeof(m.root), "/");
	ck_assert_int_eq(cgroupfs_relative(&m, "/a/b", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/a/b");
	ck_assert_int_eq(cgroupfs_relative(&m, "/a/b", out, 3), -ENAMETOOLONG);
}
END_TEST

static const struct {
	int line;
	const char *mount, *in;
	int ret;
	const char *out;
} NORM_CASES[] = {
	{ __LINE__, NULL, "/a/b", 0, "/a/b" },
	{ __LINE__, NULL, "a/b", 0, "/a/b" },
	{ __LINE__, NULL, "//a///b/", 0, "/a/b" },
	{ __LINE__, NULL, "/", 0, "/" },
	{ __LINE__, "/sys/fs/cgroup/unified", "/sys/fs/cgroup/unified/system.slice/x.service", 0,
	  "/system.slice/x.service" },
	{ __LINE__, "/sys/fs/cgroup/unified/", "/sys/fs/cgroup/unified", 0, "/" },
	/* a name that only starts like the mount point is a cgroup path */
	{ __LINE__, "/sys/fs/cgroup", "/sys/fs/cgroupx/a", 0, "/sys/fs/cgroupx/a" },
	{ __LINE__, NULL, "", -EINVAL, NULL },
	{ __LINE__, NULL, "/a/../b", -EINVAL, NULL },
	{ __LINE__, NULL, "./a", -EINVAL, NULL },
	{ __LINE__, NULL, "/a/..", -EINVAL, NULL },
	{ __LINE__, NULL, "/a/.b/..c", 0, "/a/.b/..c" },
};

START_TEST(test_normalize_table)
{
	char out[64];
	int r = cgroupfs_normalize(NORM_CASES[_i].mount, NORM_CASES[_i].in, out, sizeof(out));

	ck_assert_msg(r == NORM_CASES[_i].ret, "line %d: %d", NORM_CASES[_i].line, r);
	if (!r)
		ck_assert_str_eq(out, NORM_CASES[_i].out);
}
END_TEST

START_TEST(test_normalize_too_long)
{
	char out[8];

	ck_assert_int_eq(cgroupfs_normalize(NULL, "/abcdefgh", out, sizeof(out)), -ENAMETOOLONG);
}
END_TEST

START_TEST(test_path_under_by_components)
{
	ck_assert(parse_path_under("/a/b", "/a"));
	ck_assert(parse_path_under("/a", "/a"));
	ck_assert(parse_path_under("/a", "/a/"));
	ck_assert(parse_path_under("/a/b/c", "/"));
	ck_assert(parse_path_under("/", "/"));
	ck_assert(!parse_path_under("/ab", "/a"));
	ck_assert(!parse_path_under("/a", "/a/b"));
	ck_assert(!parse_path_under("/b", "/a"));
}
END_TEST

/* The walk over a directory tree made here, as a cgroup hierarchy's mount would be. */
START_TEST(test_walk_to_a_depth_sorted)
{
	char root[] = "/tmp/pmctop-cgroupfs.XXXXXX";
	static const char *const DIRS[] = { "b", "a", "a/x", "a/y", "a/x/deep", "c d" };
	struct cgroupfs_entry *v = NULL;
	size_t cap = 0;
	char path[256];
	long n;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(root));
	for (size_t i = 0; i < sizeof(DIRS) / sizeof(DIRS[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, DIRS[i]);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/a/cgroup.procs", root);
	close(open(path, O_CREAT | O_WRONLY, 0644)); /* files are not cgroups */
	fd = open(root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	n = cgroupfs_walk(fd, 1, &v, &cap);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(v[0].path, "/a");
	ck_assert_str_eq(v[1].path, "/b");
	ck_assert_str_eq(v[2].path, "/c d");
	ck_assert_int_eq(v[0].depth, 1);
	for (long i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s%s", root, v[i].path);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(v[i].ino, (unsigned long long)st.st_ino);
		free(v[i].path);
	}
	n = cgroupfs_walk(fd, 2, &v, &cap);
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(v[1].path, "/a/x");
	ck_assert_str_eq(v[2].path, "/a/y");
	ck_assert_int_eq(v[2].depth, 2);
	for (long i = 0; i < n; i++)
		free(v[i].path);
	n = cgroupfs_walk(fd, 0, &v, &cap);
	ck_assert_int_eq(n, 0);
	n = cgroupfs_walk(fd, 99, &v, &cap);
	ck_assert_int_eq(n, 6);
	cgroupfs_entries_free(v, (size_t)n);
	close(fd);
	snprintf(path, sizeof(path), "%s/a/cgroup.procs", root);
	unlink(path);
	for (size_t i = sizeof(DIRS) / sizeof(DIRS[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", root, DIRS[i]);
		rmdir(path);
	}
	ck_assert_int_eq(rmdir(root), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroupfs");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_parse_mountinfo_table, 0,
			    sizeof(MOUNT_CASES) / sizeof(MOUNT_CASES[0]));
	tcase_add_test(tc, test_parse_mountinfo_reads_only_len_bytes);
	tcase_add_test(tc, test_parse_mountinfo_path_too_long);
	tcase_add_loop_test(tc, test_parse_proc_table, 0,
			    sizeof(PROC_CASES) / sizeof(PROC_CASES[0]));
	tcase_add_test(tc, test_parse_proc_bounds);
	tcase_add_test(tc, test_relative_to_a_subtree_mount);
	tcase_add_loop_test(tc, test_normalize_table, 0,
			    sizeof(NORM_CASES) / sizeof(NORM_CASES[0]));
	tcase_add_test(tc, test_normalize_too_long);
	tcase_add_test(tc, test_path_under_by_components);
	tcase_add_test(tc, test_walk_to_a_depth_sorted);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
