/* Tests of safe file writing: what a hostile user can put in the way never redirects a write. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/safefile.h"
#include "testutil.h"

/* The suite's directory, made in main and removed at its end; every case works below it. */
static char base[1024];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* A fresh directory of the test's own, mode 0700; the path is static, the caller copies it. */
static const char *tmpdir(void)
{
	static char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/caseXXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole of a file, or "" when missing; static. */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static uid_t nobody(void)
{
	struct passwd *pw = getpwnam("nobody");

	return pw ? pw->pw_uid : 65534;
}

/*
 * The directory is opened once: swapped for a link to elsewhere after the checks, it still
 * gets the file, and the place the link names gets nothing.
 */
START_TEST(test_a_directory_swapped_for_a_link_does_not_redirect_the_write)
{
	char d[1024], conf[PATH_MAX], moved[PATH_MAX], elsewhere[PATH_MAX], p[PATH_MAX * 2],
		why[256];
	int dfd;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(conf, sizeof(conf), "%s/conf", d);
	snprintf(moved, sizeof(moved), "%s/moved", d);
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", d);
	ck_assert_int_eq(mkdir(elsewhere, 0700), 0);
	dfd = safefile_dir_open(conf, why, sizeof(why));
	ck_assert_msg(dfd >= 0, "%s", why);
	ck_assert_int_eq(rename(conf, moved), 0);
	ck_assert_int_eq(symlink(elsewhere, conf), 0);
	ck_assert_int_eq(safefile_replace(dfd, "rc", "x=1\n", 4, 0600, why, sizeof(why)), 0);
	snprintf(p, sizeof(p), "%s/rc", moved);
	ck_assert_str_eq(get(p), "x=1\n");
	snprintf(p, sizeof(p), "%s/rc", elsewhere);
	ck_assert_int_eq(access(p, F_OK), -1);
	close(dfd);
}
END_TEST

/* A path through a directory of another user, or one its group may write in, is refused. */
START_TEST(test_a_directory_another_may_change_is_refused)
{
	char d[1024], sub[PATH_MAX], why[256];

	if (geteuid())
		return; /* another user's directory needs root to make */
	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(sub, sizeof(sub), "%s/theirs", d);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(chown(sub, nobody(), 0), 0);
	strcat(sub, "/conf");
	ck_assert_int_eq(safefile_dir_open(sub, why, sizeof(why)), -EPERM);
	ck_assert_msg(strstr(why, "is owned by uid"), "%s", why);
	snprintf(sub, sizeof(sub), "%s/group", d);
	ck_assert_int_eq(mkdir(sub, 0770), 0);
	ck_assert_int_eq(chmod(sub, 0770), 0);
	strcat(sub, "/conf");
	ck_assert_int_eq(safefile_dir_open(sub, why, sizeof(why)), -EPERM);
	ck_assert_msg(strstr(why, "is writable by its group"), "%s", why);
}
END_TEST

/* Make a FIFO, a device node, a socket and a directory at d/NAME; whether the node was made. */
static bool special(const char *d, const char *name)
{
	char p[PATH_MAX * 2];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s;

	snprintf(p, sizeof(p), "%s/%s", d, name);
	if (!strcmp(name, "fifo"))
		return !mkfifo(p, 0666);
	if (!strcmp(name, "null"))
		return !mknod(p, S_IFCHR | 0666, makedev(1, 3));
	if (!strcmp(name, "dir"))
		return !mkdir(p, 0700);
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p) >= (int)sizeof(sa.sun_path))
		return false;
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(s);
	return true;
}

static const char *const SPECIAL[] = { "fifo", "null", "sock", "dir" };

/* Neither a recording nor the settings go into a FIFO (no wait), device, socket or directory. */
START_TEST(test_anything_but_a_regular_file_is_refused_at_once)
{
	const char *name = SPECIAL[_i];
	char d[1024], p[PATH_MAX * 2], leaf[NAME_MAX + 1], why[256];
	struct stat before, after;
	int dfd = -1;

	snprintf(d, sizeof(d), "%s", tmpdir());
	if (!special(d, name))
		return; /* a device node needs CAP_MKNOD; a socket a short path */
	snprintf(p, sizeof(p), "%s/%s", d, name);
	ck_assert_int_eq(lstat(p, &before), 0);
	ck_assert_int_eq(safefile_open_private(p, &dfd, leaf, sizeof(leaf), why, sizeof(why)),
			 -EINVAL);
	ck_assert_msg(strstr(why, "not a regular file"), "%s", why);
	ck_assert_int_eq(dfd, -1);
	dfd = open(d, O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(safefile_replace(dfd, name, "x", 1, 0600, why, sizeof(why)), -EINVAL);
	close(dfd);
	ck_assert_int_eq(lstat(p, &after), 0);
	ck_assert_int_eq(after.st_ino, before.st_ino);
	ck_assert_int_eq(after.st_mode, before.st_mode);
}
END_TEST

/*
 * A hard link in the user's directory to a file elsewhere (root's, where protected_hardlinks
 * is off): the recording would empty that file, so it is refused and the file is as it was.
 */
START_TEST(test_a_file_with_another_name_is_never_emptied)
{
	char d[1024], victim[PATH_MAX], rec[PATH_MAX], leaf[NAME_MAX + 1], why[256];
	struct stat st;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(victim, sizeof(victim), "%s/shadow", d);
	snprintf(rec, sizeof(rec), "%s/x.rec", d);
	put(victim, "root:secret\n");
	ck_assert_int_eq(chmod(victim, 0640), 0);
	ck_assert_int_eq(link(victim, rec), 0);
	ck_assert_int_eq(safefile_open_private(rec, NULL, leaf, sizeof(leaf), why, sizeof(why)),
			 -EMLINK);
	ck_assert_msg(strstr(why, "it has 2 hard links"), "%s", why);
	ck_assert_str_eq(get(victim), "root:secret\n");
	ck_assert_int_eq(stat(victim, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
}
END_TEST

/* In a sticky directory every user writes in, another user's link is never followed. */
START_TEST(test_another_users_link_in_a_sticky_directory_is_refused)
{
	char d[1024], shared[2048], victim[PATH_MAX], rec[PATH_MAX], leaf[NAME_MAX + 1], why[256];

	if (geteuid())
		return; /* another user's link needs root to make */
	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(shared, sizeof(shared), "%s/shared", d);
	ck_assert_int_eq(mkdir(shared, 0700), 0);
	ck_assert_int_eq(chmod(shared, 01777), 0);
	snprintf(victim, sizeof(victim), "%s/victim", d);
	put(victim, "keep\n");
	snprintf(rec, sizeof(rec), "%s/x.rec", shared);
	ck_assert_int_eq(symlink(victim, rec), 0);
	ck_assert_int_eq(lchown(rec, nobody(), nobody()), 0);
	ck_assert_int_eq(safefile_open_private(rec, NULL, leaf, sizeof(leaf), why, sizeof(why)),
			 -EPERM);
	ck_assert_str_eq(get(victim), "keep\n");
}
END_TEST

/*
 * One's own link is followed, and the file is rotated where it really is: the link stays a
 * link, to the new file, and the old one is beside it as NAME.1.
 */
START_TEST(test_rotation_through_ones_own_link_rotates_the_file_not_the_link)
{
	char d[1024], real[PATH_MAX], link[PATH_MAX], p[PATH_MAX * 2], leaf[NAME_MAX + 1], why[256];
	struct stat st;
	int dfd = -1, fd, nfd;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(real, sizeof(real), "%s/data", d);
	ck_assert_int_eq(mkdir(real, 0700), 0);
	strcat(real, "/r.rec");
	snprintf(link, sizeof(link), "%s/r.rec", d);
	ck_assert_int_eq(symlink(real, link), 0);
	fd = safefile_open_private(link, &dfd, leaf, sizeof(leaf), why, sizeof(why));
	ck_assert_msg(fd >= 0, "%s", why);
	ck_assert_str_eq(leaf, "r.rec");
	ck_assert_int_eq(write(fd, "one\n", 4), 4);
	nfd = safefile_rotate(dfd, leaf, fd, why, sizeof(why));
	ck_assert_msg(nfd >= 0, "%s", why);
	close(fd);
	ck_assert_int_eq(write(nfd, "two\n", 4), 4);
	close(nfd);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_str_eq(get(link), "two\n");
	snprintf(p, sizeof(p), "%s.1", real);
	ck_assert_str_eq(get(p), "one\n");
	ck_assert_int_eq(stat(real, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	snprintf(p, sizeof(p), "%s.1", link);
	ck_assert_int_eq(access(p, F_OK), -1);
	close(dfd);
}
END_TEST

/*
 * Rotation goes through the directory the file was opened in: that directory swapped for a
 * link to elsewhere puts nothing elsewhere; and a file put in the recording's place since is
 * left alone (-ESTALE), never renamed.
 */
START_TEST(test_rotation_renames_only_the_file_opened_where_it_was_opened)
{
	char d[1024], sub[PATH_MAX], moved[PATH_MAX], elsewhere[PATH_MAX], rec[PATH_MAX * 2],
		p[PATH_MAX * 2], leaf[NAME_MAX + 1], why[256];
	int dfd = -1, fd, nfd;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(sub, sizeof(sub), "%s/sub", d);
	snprintf(moved, sizeof(moved), "%s/moved", d);
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", d);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(mkdir(elsewhere, 0700), 0);
	snprintf(rec, sizeof(rec), "%s/r.rec", sub);
	fd = safefile_open_private(rec, &dfd, leaf, sizeof(leaf), why, sizeof(why));
	ck_assert_msg(fd >= 0, "%s", why);
	ck_assert_int_eq(rename(sub, moved), 0);
	ck_assert_int_eq(symlink(elsewhere, sub), 0);
	nfd = safefile_rotate(dfd, leaf, fd, why, sizeof(why));
	ck_assert_msg(nfd >= 0, "%s", why);
	close(nfd);
	snprintf(p, sizeof(p), "%s/r.rec.1", moved);
	ck_assert_int_eq(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/r.rec", elsewhere);
	ck_assert_int_eq(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/r.rec.1", elsewhere);
	ck_assert_int_eq(access(p, F_OK), -1);

	/* the file is replaced under its name: nothing is renamed */
	snprintf(p, sizeof(p), "%s/r.rec", moved);
	ck_assert_int_eq(unlink(p), 0);
	put(p, "not ours\n");
	ck_assert_int_eq(safefile_rotate(dfd, leaf, fd, why, sizeof(why)), -ESTALE);
	ck_assert_str_eq(get(p), "not ours\n");
	close(fd);
	close(dfd);
}
END_TEST

/* A name too long for ".1" is refused before anything moves. */
START_TEST(test_rotation_refuses_a_name_too_long_for_its_suffix)
{
	char d[1024], rec[PATH_MAX], p[PATH_MAX * 2], leaf[NAME_MAX + 1], why[256];
	int dfd = -1, fd;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(rec, sizeof(rec), "%s/r.rec", d);
	fd = safefile_open_private(rec, &dfd, leaf, sizeof(leaf), why, sizeof(why));
	ck_assert_msg(fd >= 0, "%s", why);
	memset(p, 'a', NAME_MAX);
	p[NAME_MAX] = '\0';
	ck_assert_int_eq(safefile_rotate(dfd, p, fd, why, sizeof(why)), -ENAMETOOLONG);
	close(fd);
	close(dfd);
}
END_TEST

static Suite *safefile_suite(void)
{
	Suite *s = suite_create("safefile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_a_directory_swapped_for_a_link_does_not_redirect_the_write);
	tcase_add_test(tc, test_a_directory_another_may_change_is_refused);
	tcase_add_loop_test(tc, test_anything_but_a_regular_file_is_refused_at_once, 0,
			    sizeof(SPECIAL) / sizeof(SPECIAL[0]));
	tcase_add_test(tc, test_a_file_with_another_name_is_never_emptied);
	tcase_add_test(tc, test_another_users_link_in_a_sticky_directory_is_refused);
	tcase_add_test(tc, test_rotation_through_ones_own_link_rotates_the_file_not_the_link);
	tcase_add_test(tc, test_rotation_renames_only_the_file_opened_where_it_was_opened);
	tcase_add_test(tc, test_rotation_refuses_a_name_too_long_for_its_suffix);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int r;

	snprintf(base, sizeof(base), "%s/pmctop-safefileXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(base))
		return 99;
	r = testutil_run(safefile_suite());
	nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return r;
}
