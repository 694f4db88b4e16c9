/* cgroup v2 parsing over bytes (mountinfo, /proc/PID/cgroup, user paths) and the directory walk. */
#include "config.h"
#include "kernel/cgroupfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define CGROUPFS_FIELDS 64 /* fields of a mountinfo line we look at */

/* Copy a mountinfo field with its octal escapes (\040 ...) undone; 0, -EINVAL or -ENAMETOOLONG. */
static int cgroupfs_unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\') {
			int v = 0;

			for (int k = 1; k <= 3; k++) {
				if (i + (size_t)k >= len || s[i + k] < '0' || s[i + k] > '7')
					return -EINVAL;
				v = v * 8 + (s[i + k] - '0');
			}
			if (v == 0 || v > 255)
				return -EINVAL;
			c = (char)v;
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

/* Split one line at single spaces into at most max fields; returns how many. */
static size_t cgroupfs_split(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		size_t s;

		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		s = i;
		while (i < len && line[i] != ' ')
			i++;
		f[n] = line + s;
		flen[n++] = i - s;
	}
	return n;
}

int cgroupfs_parse_mountinfo(const char *buf, size_t len, struct cgroupfs_mount *out)
{
	const char *p = buf, *end = buf + len;
	int found = -ENOENT;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *f[CGROUPFS_FIELDS];
		size_t fl[CGROUPFS_FIELDS], n = cgroupfs_split(p, ll, f, fl, CGROUPFS_FIELDS), dash;
		struct cgroupfs_mount m;
		int r;

		p += ll + (nl ? 1 : 0);
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER */
		for (dash = 6; dash < n && !(fl[dash] == 1 && f[dash][0] == '-'); dash++)
			;
		if (dash + 1 >= n || fl[dash + 1] != 7 || memcmp(f[dash + 1], "cgroup2", 7))
			continue;
		r = cgroupfs_unescape(f[3], fl[3], m.root, sizeof(m.root));
		if (!r)
			r = cgroupfs_unescape(f[4], fl[4], m.dir, sizeof(m.dir));
		if (r)
			return r;
		if (m.root[0] != '/' || m.dir[0] != '/')
			return -EINVAL;
		/* a mount of the whole hierarchy beats a bind mount of a subtree */
		if (found == -ENOENT || (strcmp(out->root, "/") && !strcmp(m.root, "/"))) {
			*out = m;
			found = 0;
		}
	}
	return found;
}

int cgroupfs_parse_proc(const char *buf, size_t len, char *out, size_t size)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* "0::/a/b": hierarchy 0, no controllers, the path; v1 lines have other ids */
		if (ll >= 3 && !memcmp(p, "0::", 3)) {
			size_t pl = ll - 3;

			if (pl == 0 || p[3] != '/')
				return -ENOENT;
			if (pl + 1 > size)
				return -ENAMETOOLONG;
			memcpy(out, p + 3, pl);
			out[pl] = '\0';
			return 0;
		}
		p += ll + (nl ? 1 : 0);
	}
	return -ENOENT;
}

int cgroupfs_relative(const struct cgroupfs_mount *mnt, const char *path, char *out, size_t size)
{
	size_t n = strlen(mnt->root);

	while (n && mnt->root[n - 1] == '/')
		n--;
	if (strncmp(path, mnt->root, n) || (path[n] && path[n] != '/'))
		return -ENOENT;
	path += n;
	if (snprintf(out, size, "%s", *path ? path : "/") >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int cgroupfs_normalize(const char *mount, const char *in, char *out, size_t size)
{
	size_t o = 0, ml = mount ? strlen(mount) : 0;
	const char *p = in;

	if (!*in || size < 2)
		return -EINVAL;
	while (ml && mount[ml - 1] == '/')
		ml--;
	/* the directory under the mount point names the cgroup below it */
	if (ml && !strncmp(in, mount, ml) && (in[ml] == '/' || in[ml] == '\0'))
		p = in + ml;
	out[o++] = '/';
	while (*p) {
		size_t cl;

		while (*p == '/')
			p++;
		cl = strcspn(p, "/");
		if (!cl)
			break;
		if ((cl == 1 && p[0] == '.') || (cl == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
		if (o > 1)
			out[o++] = '/';
		if (o + cl + 1 > size)
			return -ENAMETOOLONG;
		memcpy(out + o, p, cl);
		o += cl;
		p += cl;
	}
	out[o] = '\0';
	return 0;
}

void cgroupfs_entries_free(struct cgroupfs_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

static int cgroupfs_cmp(const void *a, const void *b)
{
	const struct cgroupfs_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

void cgroupfs_sort(struct cgroupfs_entry *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cgroupfs_cmp);
}

/* Append the subdirectories of the cgroup at rel (below mntfd), then walk into them. */
static void cgroupfs_walk_dir(int mntfd, const char *path, int depth, int max,
			      struct cgroupfs_entry **out, size_t *n, size_t *cap)
{
	int fd = openat(mntfd, path[1] ? path + 1 : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t first = *n, last;
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return; /* removed while walked */
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		char child[CGROUPFS_PATH_MAX];
		struct cgroupfs_entry *c;
		unsigned char type = e->d_type;

		if (e->d_name[0] == '.' &&
		    (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
		}
		if (type != DT_DIR)
			continue;
		/* a path too long to keep is left out, not cut: a cut path names another cgroup */
		if (snprintf(child, sizeof(child), "%s/%s", path[1] ? path : "", e->d_name) >=
		    (int)sizeof(child))
			continue;
		*out = xgrow(*out, cap, *n + 1, sizeof(**out));
		c = &(*out)[(*n)++];
		c->path = xstrdup(child);
		c->ino = (unsigned long long)e->d_ino;
		c->depth = depth;
	}
	closedir(d);
	if (depth >= max)
		return;
	last = *n;
	for (size_t i = first; i < last; i++) {
		char *child = xstrdup((*out)[i].path);

		cgroupfs_walk_dir(mntfd, child, depth + 1, max, out, n, cap);
		free(child);
	}
}

long cgroupfs_walk(int mntfd, int depth, struct cgroupfs_entry **out, size_t *cap)
{
	size_t n = 0;
	int fd;

	fd = openat(mntfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	if (depth > CGROUPFS_DEPTH_MAX)
		depth = CGROUPFS_DEPTH_MAX;
	if (depth > 0)
		cgroupfs_walk_dir(mntfd, "/", 1, depth, out, &n, cap);
	cgroupfs_sort(*out, n);
	return (long)n;
}
