/* Safe file writing: no link, FIFO or other user's directory can turn a write elsewhere. */
#include "config.h"
#include "util/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Whether a directory may hold the file (last) or lie on the way to it: owned by the
 * effective user (or root, on the way) and writable by no one else (on the way, a sticky
 * directory may be: what the effective user or root owns in it, no one else renames).
 */
static int safefile_dir_check(const struct stat *st, const char *path, bool last, char *why,
			      size_t whysize)
{
	unsigned me = (unsigned)geteuid();

	if (st->st_uid != me && (last || st->st_uid != 0)) {
		snprintf(why, whysize,
			 "the directory '%s' is owned by uid %u, not by uid %u who runs pmctop",
			 path, (unsigned)st->st_uid, me);
		return -EPERM;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st->st_mode & S_ISVTX))) {
		snprintf(why, whysize, "the directory '%s' is writable by %s (mode %04o)", path,
			 st->st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/*
 * The deepest directory of dir that exists, resolved into real, followed by the components
 * still to be made ("" when none): the whole path to walk, into full.
 */
static int safefile_resolve(const char *dir, char *full, size_t size, char *why, size_t whysize)
{
	char base[PATH_MAX], real[PATH_MAX];
	const char *todo = "";

	if (snprintf(base, sizeof(base), "%s", dir[0] ? dir : ".") >= (int)sizeof(base))
		goto out_long;
	while (!realpath(base, real)) {
		size_t n = strlen(base);
		char *slash;

		if (errno != ENOENT || !strcmp(base, ".")) {
			int r = -errno;

			snprintf(why, whysize, "cannot resolve the directory '%s': %s", base,
				 strerror(-r));
			return r;
		}
		while (n > 1 && base[n - 1] == '/')
			base[--n] = '\0';
		slash = strrchr(base, '/');
		/* base is always a prefix of dir: what was cut off is the rest of dir */
		todo = dir + (slash ? (size_t)(slash + 1 - base) : 0);
		if (!slash)
			snprintf(base, sizeof(base), ".");
		else if (slash == base)
			base[1] = '\0';
		else
			*slash = '\0';
	}
	if (snprintf(full, size, "%s/%s", real, todo) >= (int)size)
		goto out_long;
	return 0;
out_long:
	snprintf(why, whysize, "the directory '%s' has too long a name", dir);
	return -ENAMETOOLONG;
}

int safefile_dir_open(const char *dir, char *why, size_t whysize)
{
	char full[PATH_MAX * 2], at[PATH_MAX * 2] = "/";
	struct stat st;
	char *p;
	int fd, r;

	r = safefile_resolve(dir, full, sizeof(full), why, whysize);
	if (r)
		return r;
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		r = -errno;
		snprintf(why, whysize, "cannot open the directory '/': %s", strerror(-r));
		goto out_close;
	}
	p = full;
	while (*p == '/')
		p++;
	r = safefile_dir_check(&st, "/", !*p, why, whysize);
	while (!r && *p) {
		char *comp = p;
		size_t atl = strlen(at);
		int nfd;

		p += strcspn(p, "/");
		if (*p)
			*p++ = '\0';
		while (*p == '/')
			p++;
		if (!strcmp(comp, "."))
			continue;
		if (snprintf(at + atl, sizeof(at) - atl, "%s%s", atl > 1 ? "/" : "", comp) >=
		    (int)(sizeof(at) - atl)) {
			snprintf(why, whysize, "the directory '%s' has too long a name", dir);
			r = -ENAMETOOLONG;
			break;
		}
		if (!strcmp(comp, "..")) {
			snprintf(why, whysize, "the directory '%s' to make goes up with '..'", dir);
			r = -EINVAL;
			break;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* made only below a directory that passed: never in another user's */
		if (nfd < 0 && errno == ENOENT) {
			if (mkdirat(fd, comp, 0700) && errno != EEXIST) {
				r = -errno;
				snprintf(why, whysize, "cannot make the directory '%s': %s", at,
					 strerror(-r));
				break;
			}
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0) {
			r = -errno;
			snprintf(why, whysize, "cannot open the directory '%s': %s", at,
				 errno == ELOOP ? "it became a symbolic link while it was checked"
						: strerror(-r));
			break;
		}
		close(fd);
		fd = nfd;
		if (fstat(fd, &st)) {
			r = -errno;
			snprintf(why, whysize, "cannot open the directory '%s': %s", at,
				 strerror(-r));
			break;
		}
		r = safefile_dir_check(&st, at, !*p, why, whysize);
	}
	if (!r)
		return fd;
out_close:
	if (fd >= 0)
		close(fd);
	return r;
}

int safefile_open_read(const char *path, struct stat *st, void (*checked)(void *arg), void *arg,
		       char *why, size_t whysize)
{
	char real[PATH_MAX], *slash;
	const char *name;
	struct stat pre;
	int dirfd, fd, r;

	if (!realpath(path, real)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		return r;
	}
	slash = strrchr(real, '/');
	name = slash[1] ? slash + 1 : ".";
	if (slash == real)
		dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else {
		*slash = '\0';
		dirfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (dirfd < 0) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		return r;
	}
	/* looked at, not opened: opening a device acts (a watchdog starts, a tape rewinds) */
	if (fstatat(dirfd, name, &pre, AT_SYMLINK_NOFOLLOW)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		goto out_close;
	}
	if (!S_ISREG(pre.st_mode)) {
		*st = pre;
		r = S_ISDIR(pre.st_mode) ? -EISDIR : -EINVAL;
		snprintf(why, whysize, "%s",
			 r == -EISDIR ? "is a directory" : "is not a regular file");
		goto out_close;
	}
	if (checked)
		checked(arg);
	/* what is read is what is checked from here on: the descriptor's own file */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(why, whysize, "%s",
			 r == -ELOOP ? "became a symbolic link while it was opened" : strerror(-r));
		goto out_close;
	}
	if (fstat(fd, st)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		close(fd);
		goto out_close;
	}
	if (!S_ISREG(st->st_mode) || st->st_dev != pre.st_dev || st->st_ino != pre.st_ino) {
		r = S_ISREG(st->st_mode) ? -ESTALE : -EINVAL;
		snprintf(why, whysize, "%s",
			 r == -ESTALE ? "was replaced while it was opened"
				      : "is not a regular file");
		close(fd);
		goto out_close;
	}
	close(dirfd);
	return fd;
out_close:
	close(dirfd);
	return r;
}

int safefile_replace(int dirfd, const char *name, const void *buf, size_t len, mode_t mode,
		     char *why, size_t whysize)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	size_t off = 0;
	int fd = -1, r = 0;

	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(why, whysize,
				 "it is a symbolic link, and pmctop does not write through one");
			return -ELOOP;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, whysize, "it is not a regular file");
			return -EINVAL;
		}
		if (st.st_uid != geteuid()) {
			snprintf(why, whysize,
				 "it is owned by uid %u, not by uid %u who runs pmctop",
				 (unsigned)st.st_uid, (unsigned)geteuid());
			return -EPERM;
		}
	} else if (errno != ENOENT) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		return r;
	}
	/* the directory is ours alone: a new name beside the file cannot be taken by another */
	for (unsigned i = 0; fd < 0 && i < 100; i++) {
		snprintf(tmp, sizeof(tmp), ".%.200s.%ld.%u", name, (long)getpid(), i);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		return r;
	}
	while (off < len && !r) {
		ssize_t w = write(fd, (const char *)buf + off, len - off);

		if (w < 0 && errno != EINTR)
			r = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (!r && renameat(dirfd, tmp, dirfd, name))
		r = -errno;
	if (r) {
		unlinkat(dirfd, tmp, 0);
		snprintf(why, whysize, "%s", strerror(-r));
	}
	return r;
}

/* The device and inode of what fd is: whether name in dirfd is still that file. */
static bool safefile_same(int dirfd, const char *name, const struct stat *st)
{
	struct stat nst;

	return !fstatat(dirfd, name, &nst, AT_SYMLINK_NOFOLLOW) && S_ISREG(nst.st_mode) &&
	       nst.st_dev == st->st_dev && nst.st_ino == st->st_ino;
}

/* Split path into its directory (into dir, "." when none) and its last component (returned). */
static const char *safefile_split(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, size, ".");
		return path;
	}
	snprintf(dir, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return slash + 1;
}

/*
 * Where the regular file fd (st) that path named through one's own link really is: a
 * directory fd, and its name there into name. The kernel says where it opened it; that
 * name is then checked to be the very file, so no later rename can redirect a rotation.
 */
static int safefile_locate(int fd, const char *path, const struct stat *st, char *name,
			   size_t namesize, char *why, size_t whysize)
{
	char proc[64], real[PATH_MAX], dir[PATH_MAX];
	const char *leaf;
	ssize_t n;
	int dfd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n > 0 && real[0] == '/') {
		real[n] = '\0';
	} else if (!realpath(path, real)) {
		int r = -errno;

		snprintf(why, whysize, "cannot tell where the link leads: %s", strerror(-r));
		return r;
	}
	leaf = safefile_split(real, dir, sizeof(dir));
	if (snprintf(name, namesize, "%s", leaf) >= (int)namesize) {
		snprintf(why, whysize, "the file it links to has too long a name");
		return -ENAMETOOLONG;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !safefile_same(dfd, name, st)) {
		if (dfd >= 0)
			close(dfd);
		snprintf(why, whysize, "the file it links to was moved while it was opened");
		return -ESTALE;
	}
	return dfd;
}

int safefile_open_private(const char *path, int *dirfd, char *name, size_t namesize, char *why,
			  size_t whysize)
{
	const int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	unsigned me = (unsigned)geteuid();
	char dir[PATH_MAX];
	const char *leaf = safefile_split(path, dir, sizeof(dir));
	struct stat dst, lst, st;
	bool shared, special = false, link = false;
	int dfd, fd = -1, r;

	if (!*leaf) {
		snprintf(why, whysize, "it names a directory, not a file");
		return -EISDIR;
	}
	/* one descriptor of the directory: every check and the open look at the same one */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &dst)) {
		r = -errno;
		snprintf(why, whysize, "cannot open the directory '%s': %s", dir, strerror(-r));
		goto out_close;
	}
	/* is it one that every user writes in, like /tmp? */
	shared = (dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH);
	for (int tries = 0; tries < 3; tries++) {
		if (!fstatat(dfd, leaf, &lst, AT_SYMLINK_NOFOLLOW)) {
			link = S_ISLNK(lst.st_mode);
			if (link && shared && lst.st_uid != me && lst.st_uid != dst.st_uid) {
				snprintf(why, whysize,
					 "it is a symbolic link of uid %u in the directory '%s' "
					 "that every user may write in, and pmctop follows no "
					 "other user's link there",
					 (unsigned)lst.st_uid, dir);
				r = -EPERM;
				goto out_close;
			}
			/* never opened: a FIFO's writer would wait, a device's open acts; one's
			 * own link is followed, and what it names made, as open(2) does */
			special = !link && !S_ISREG(lst.st_mode);
			if (!special)
				fd = openat(dfd, leaf, flags | (link ? O_CREAT : O_NOFOLLOW), 0600);
			break;
		}
		if (errno != ENOENT) {
			r = -errno;
			snprintf(why, whysize, "%s", strerror(-r));
			goto out_close;
		}
		fd = openat(dfd, leaf, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
		/* something was put there since it was looked at: look again */
	}
	/* a FIFO with no reader, or a socket, behind a link */
	if (special || (fd < 0 && errno == ENXIO))
		goto out_special;
	if (fd < 0) {
		r = -errno;
		snprintf(why, whysize, "%s",
			 errno == ELOOP ? "it became a symbolic link while it was opened"
					: strerror(-r));
		goto out_close;
	}
	if (fstat(fd, &st)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode))
		goto out_special;
	if (link) {
		/* from here on, the directory the file is really in */
		r = safefile_locate(fd, path, &st, name, namesize, why, whysize);
		if (r < 0)
			goto out_close;
		close(dfd);
		dfd = r;
		if (fstat(dfd, &dst)) {
			r = -errno;
			snprintf(why, whysize, "%s", strerror(-r));
			goto out_close;
		}
		shared = (dst.st_mode & S_ISVTX) && (dst.st_mode & S_IWOTH);
	} else if (snprintf(name, namesize, "%s", leaf) >= (int)namesize) {
		snprintf(why, whysize, "its name is too long");
		r = -ENAMETOOLONG;
		goto out_close;
	}
	if (shared && st.st_uid != me && st.st_uid != dst.st_uid) {
		snprintf(why, whysize,
			 "it is a file of uid %u in the directory '%s' that every user may "
			 "write in, and its owner could read what is written",
			 (unsigned)st.st_uid, dir);
		r = -EPERM;
		goto out_close;
	}
	/* another name of a file elsewhere (/etc/shadow linked in where links are not
	 * protected): truncating it here would empty it there */
	if (st.st_nlink > 1) {
		snprintf(why, whysize,
			 "it has %lu hard links, and pmctop empties no file that has another name",
			 (unsigned long)st.st_nlink);
		r = -EMLINK;
		goto out_close;
	}
	if (ftruncate(fd, 0) ||
	    (st.st_uid == me && (st.st_mode & 07777) != 0600 && fchmod(fd, 0600)) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		goto out_close;
	}
	if (dirfd)
		*dirfd = dfd;
	else
		close(dfd);
	return fd;
out_special:
	snprintf(why, whysize, "it is not a regular file (a FIFO, device, socket or directory)");
	r = -EINVAL;
out_close:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return r;
}

int safefile_rotate(int dirfd, const char *name, int fd, char *why, size_t whysize)
{
	char old[NAME_MAX + 1];
	struct stat st;
	int nfd;

	if (snprintf(old, sizeof(old), "%s.1", name) >= (int)sizeof(old)) {
		snprintf(why, whysize, "its name is too long to add '.1'");
		return -ENAMETOOLONG;
	}
	if (fstat(fd, &st))
		goto out_errno;
	if (!safefile_same(dirfd, name, &st)) {
		snprintf(why, whysize, "it was moved or replaced since it was opened");
		return -ESTALE;
	}
	if (renameat(dirfd, name, dirfd, old)) {
		int r = -errno;

		snprintf(why, whysize, "cannot rename it to '%s': %s", old, strerror(-r));
		return r;
	}
	/* a name taken since (another user's link in /tmp) is never followed nor opened */
	nfd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
		     0600);
	if (nfd < 0)
		goto out_errno;
	return nfd;
out_errno:
	nfd = -errno;
	snprintf(why, whysize, "%s",
		 nfd == -EEXIST ? "something was put in its place once it was renamed"
				: strerror(-nfd));
	return nfd;
}
