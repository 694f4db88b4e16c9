/* cgroup v2: where the hierarchy is mounted, where a process sits in it, and its directories. */
#ifndef PMCTOP_CGROUPFS_H
#define PMCTOP_CGROUPFS_H

#include <stdbool.h>
#include <stddef.h>

#define CGROUPFS_PATH_MAX 1024 /* bytes of a cgroup path pmctop keeps, with its NUL */
#define CGROUPFS_DEPTH_MAX 16  /* levels below the root a walk may go */

/* Where a cgroup2 filesystem is mounted, and which cgroup is its root. */
struct cgroupfs_mount {
	char dir[4096];		      /* the mount point: "/sys/fs/cgroup/unified" */
	char root[CGROUPFS_PATH_MAX]; /* the cgroup at the mount point: "/" unless a subtree */
};

/*
 * Find the cgroup v2 hierarchy in the text of /proc/self/mountinfo: the
 * first cgroup2 mount whose root is the hierarchy's root, else the first
 * cgroup2 mount. Octal escapes of the paths (\040 for a space, \011, \012,
 * \134) are undone. Pure. 0, -ENOENT when there is none, -EINVAL when the
 * cgroup2 line is malformed, -ENAMETOOLONG when a path does not fit.
 */
int cgroupfs_parse_mountinfo(const char *buf, size_t len, struct cgroupfs_mount *out);

/*
 * The cgroup v2 path in the text of /proc/PID/cgroup (its "0::PATH" line)
 * into out. Pure. 0, -ENOENT when the process has no v2 line (a v1-only
 * system), -ENAMETOOLONG when the path does not fit in size.
 */
int cgroupfs_parse_proc(const char *buf, size_t len, char *out, size_t size);

/*
 * A path as the /proc files of processes give it, made relative to the
 * mount's root (the mount shows a subtree): "/a/b" with root "/a" is "/b";
 * a path outside the root is -ENOENT. Pure. 0 or -errno.
 */
int cgroupfs_relative(const struct cgroupfs_mount *mnt, const char *path, char *out, size_t size);

/*
 * A cgroup path as a user gives it, in pmctop's form: "/a/b" below the
 * mount. Accepted: "a/b", "/a/b", "/a/b/", and the directory itself under
 * the mount point ("/sys/fs/cgroup/unified/a/b" when mounted there; mount
 * may be NULL). Repeated slashes collapse. Pure. 0, -EINVAL for an empty
 * path or a "." or ".." component, -ENAMETOOLONG.
 */
int cgroupfs_normalize(const char *mount, const char *in, char *out, size_t size);

/* One directory of the hierarchy. */
struct cgroupfs_entry {
	char *path; /* owned: "/a/b" below the mount */
	unsigned long long ino;
	int depth; /* 1 for a child of the root */
};

/*
 * The cgroups below the mount's directory mntfd down to depth levels (1:
 * the children of the root), sorted by path (strcmp). *out is grown and
 * owned by the caller (cgroupfs_entries_free). A directory that vanishes
 * while walked is left out. Returns how many, or -errno when the root
 * cannot be listed.
 */
long cgroupfs_walk(int mntfd, int depth, struct cgroupfs_entry **out, size_t *cap);
void cgroupfs_entries_free(struct cgroupfs_entry *v, size_t n);
/* Sort entries by path (strcmp). */
void cgroupfs_sort(struct cgroupfs_entry *v, size_t n);

#endif
