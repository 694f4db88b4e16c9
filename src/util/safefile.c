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

int safefile_open_private(const char *path, char *why, size_t whysize)
{
	const int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	const char *slash = strrchr(path, '/');
	unsigned me = (unsigned)geteuid();
	char dir[PATH_MAX];
	struct stat dst, lst, st;
	bool shared = false, special = false;
	int fd = -1, r;

	/* the directory the name is in: is it one that every user writes in, like /tmp? */
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (!stat(dir, &dst) && S_ISDIR(dst.st_mode) && (dst.st_mode & S_ISVTX) &&
	    (dst.st_mode & S_IWOTH))
		shared = true;
	for (int tries = 0; tries < 3; tries++) {
		if (!lstat(path, &lst)) {
			bool link = S_ISLNK(lst.st_mode);

			if (link && shared && lst.st_uid != me && lst.st_uid != dst.st_uid) {
				snprintf(why, whysize,
					 "it is a symbolic link of uid %u in the directory '%s' "
					 "that every user may write in, and pmctop follows no "
					 "other user's link there",
					 (unsigned)lst.st_uid, dir);
				return -EPERM;
			}
			/* never opened: a FIFO's writer would wait, a device's open acts; one's
			 * own link is followed, and what it names made, as open(2) does */
			special = !link && !S_ISREG(lst.st_mode);
			if (!special)
				fd = open(path, flags | (link ? O_CREAT : O_NOFOLLOW), 0600);
			break;
		}
		if (errno != ENOENT) {
			r = -errno;
			snprintf(why, whysize, "%s", strerror(-r));
			return r;
		}
		fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
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
		return r;
	}
	if (fstat(fd, &st)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode))
		goto out_special;
	if (shared && st.st_uid != me && st.st_uid != dst.st_uid) {
		snprintf(why, whysize,
			 "it is a file of uid %u in the directory '%s' that every user may "
			 "write in, and its owner could read what is written",
			 (unsigned)st.st_uid, dir);
		r = -EPERM;
		goto out_close;
	}
	if (ftruncate(fd, 0) ||
	    (st.st_uid == me && (st.st_mode & 07777) != 0600 && fchmod(fd, 0600)) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		r = -errno;
		snprintf(why, whysize, "%s", strerror(-r));
		goto out_close;
	}
	return fd;
out_special:
	snprintf(why, whysize, "it is not a regular file (a FIFO, device, socket or directory)");
	r = -EINVAL;
out_close:
	if (fd >= 0)
		close(fd);
	return r;
}
