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

/* What a swap between the look at a file and its open puts there, and what then comes out. */
static const struct {
	int line;
	const char *what; /* none, fifo, link, other, dir, null: what replaces the file */
	int want;
	const char *why;
} SWAP[] = {
	{ __LINE__, "none", 0, "" },
	{ __LINE__, "fifo", -EINVAL, "is not a regular file" },
	{ __LINE__, "link", -ELOOP, "became a symbolic link while it was opened" },
	{ __LINE__, "other", -ESTALE, "was replaced while it was opened" },
	{ __LINE__, "dir", -EINVAL, "is not a regular file" },
	{ __LINE__, "null", -EINVAL, "is not a regular file" },
};

struct swap {
	char dir[PATH_MAX];
	const char *what;
	bool done;
};

/* The hook between the look and the open: put SWAP's thing where the file was. */
static void swap_file(void *arg)
{
	struct swap *sw = arg;
	char p[PATH_MAX * 2], q[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/rc", sw->dir);
	sw->done = true;
	if (!strcmp(sw->what, "none"))
		return;
	ck_assert_int_eq(unlink(p), 0);
	if (!strcmp(sw->what, "link")) {
		snprintf(q, sizeof(q), "%s/secret", sw->dir);
		ck_assert_int_eq(symlink(q, p), 0);
	} else if (!strcmp(sw->what, "other")) {
		snprintf(q, sizeof(q), "%s/secret", sw->dir);
		ck_assert_int_eq(link(q, p), 0);
	} else if (!strcmp(sw->what, "fifo")) {
		ck_assert_int_eq(mkfifo(p, 0600), 0);
	} else if (!strcmp(sw->what, "dir")) {
		ck_assert_int_eq(mkdir(p, 0700), 0);
	} else {
		ck_assert_int_eq(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	}
}

/*
 * The settings are read through the descriptor that was checked: a FIFO, link, another file,
 * directory or device put in the file's place after the look is refused, at once (a FIFO
 * with no writer does not block), and nothing of what it names is read.
 */
START_TEST(test_a_file_swapped_after_the_look_is_not_read)
{
	struct swap sw = { .what = SWAP[_i].what };
	char p[PATH_MAX * 2], q[PATH_MAX * 2], why[256] = "", buf[64];
	struct stat st;
	int fd;

	snprintf(sw.dir, sizeof(sw.dir), "%s", tmpdir());
	snprintf(p, sizeof(p), "%s/rc", sw.dir);
	snprintf(q, sizeof(q), "%s/secret", sw.dir);
	put(p, "mine\n");
	put(q, "root:secret\n");
	if (!strcmp(sw.what, "null") && geteuid())
		return; /* a device node needs CAP_MKNOD */
	fd = safefile_open_read(p, &st, swap_file, &sw, why, sizeof(why));
	ck_assert(sw.done);
	if (!SWAP[_i].want) {
		ssize_t n;

		ck_assert_msg(fd >= 0, "line %d: %s", SWAP[_i].line, why);
		ck_assert(S_ISREG(st.st_mode));
		n = read(fd, buf, sizeof(buf) - 1);
		ck_assert_int_eq(n, 5);
		buf[n] = '\0';
		ck_assert_str_eq(buf, "mine\n");
		close(fd);
		return;
	}
	ck_assert_msg(fd == SWAP[_i].want, "line %d: %d (%s)", SWAP[_i].line, fd, why);
	ck_assert_msg(strstr(why, SWAP[_i].why), "line %d: %s", SWAP[_i].line, why);
	/* the secret is untouched and the link (if any) still there: nothing followed */
	ck_assert_str_eq(get(q), "root:secret\n");
}
END_TEST

/* Before any swap: a link the user set up is followed once; what is no file is never opened. */
START_TEST(test_reading_follows_ones_own_link_once_and_opens_no_special_file)
{
	char d[1024], p[PATH_MAX * 2], q[PATH_MAX * 2], why[256];
	struct stat st;
	int fd;

	snprintf(d, sizeof(d), "%s", tmpdir());
	snprintf(q, sizeof(q), "%s/real", d);
	snprintf(p, sizeof(p), "%s/rc", d);
	put(q, "x");
	ck_assert_int_eq(symlink("real", p), 0);
	fd = safefile_open_read(p, &st, NULL, NULL, why, sizeof(why));
	ck_assert_msg(fd >= 0, "%s", why);
	ck_assert_int_eq(st.st_size, 1);
	close(fd);
	snprintf(p, sizeof(p), "%s/none", d);
	ck_assert_int_eq(safefile_open_read(p, &st, NULL, NULL, why, sizeof(why)), -ENOENT);
	ck_assert(special(d, "fifo"));
	snprintf(p, sizeof(p), "%s/fifo", d);
	ck_assert_int_eq(safefile_open_read(p, &st, NULL, NULL, why, sizeof(why)), -EINVAL);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert(special(d, "dir"));
	snprintf(p, sizeof(p), "%s/dir", d);
	ck_assert_int_eq(safefile_open_read(p, &st, NULL, NULL, why, sizeof(why)), -EISDIR);
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
	tcase_add_loop_test(tc, test_a_file_swapped_after_the_look_is_not_read, 0,
			    sizeof(SWAP) / sizeof(SWAP[0]));
	tcase_add_test(tc, test_reading_follows_ones_own_link_once_and_opens_no_special_file);
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
