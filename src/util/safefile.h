/* Writing files safely, also as root among other users' directories and links. */
#ifndef PMCTOP_SAFEFILE_H
#define PMCTOP_SAFEFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Open the directory dir to keep a private file in, making it and the missing directories
 * above it (mode 0700) on the way. dir is resolved once (links the user set up are
 * followed), then walked from / one component at a time with O_NOFOLLOW, as ssh checks
 * ~/.ssh: each directory on the way must be owned by the effective user or root and
 * writable by no one else (a sticky one such as /tmp may be: no one else can rename what
 * is in it), and dir itself must be the effective user's and writable by no one else. A
 * directory fd (the caller closes it), or -errno with the reason in why ("'/home/a' is
 * owned by uid 1000, not by uid 0 who runs pmctop").
 */
int safefile_dir_open(const char *dir, char *why, size_t whysize);

/*
 * Replace name in dirfd (from safefile_dir_open) with the len bytes of buf, whole or not
 * at all: a new file (O_CREAT|O_EXCL|O_NOFOLLOW, mode) is written beside it, synced and
 * renamed over name. What is there is never followed nor written through: a symbolic link
 * is refused (-ELOOP), as is anything but a regular file (-EINVAL) and a file of another
 * owner (-EPERM). 0, or -errno with the reason in why.
 */
int safefile_replace(int dirfd, const char *name, const void *buf, size_t len, mode_t mode,
		     char *why, size_t whysize);

/*
 * Open path to read a file of settings, through the very descriptor that is checked.
 * path is resolved once (links the user set up are followed); its directory is opened,
 * and the file in it is looked at without following a link and without opening it, so
 * that a device, FIFO or directory there is refused (-EINVAL, -EISDIR) and never opened
 * (opening a device acts). Then it is opened relative to that directory with O_NOFOLLOW
 * and O_NONBLOCK (a FIFO swapped in cannot block), and what *st describes is that open
 * descriptor: a link swapped in is refused (-ELOOP), something else than the regular file
 * looked at (-ESTALE, or -EINVAL when it is no regular file). checked, when not NULL, is
 * called with arg between the look and the open (tests swap the file there). The fd
 * (O_RDONLY, O_CLOEXEC), -ENOENT when there is no file, or -errno with the reason in why.
 * Owner and size are the caller's to judge, on *st.
 */
int safefile_open_read(const char *path, struct stat *st, void (*checked)(void *arg), void *arg,
		       char *why, size_t whysize);

/*
 * Open path to write a private file (a recording): made with mode 0600, or an existing
 * regular file truncated, and made 0600 when it is the effective user's. Nothing can make
 * it block or write elsewhere: a FIFO, device, socket or directory is refused at once
 * (-EINVAL); a symbolic link in a world-writable sticky directory (/tmp) that neither the
 * effective user nor the directory's owner owns is refused (-EPERM, the kernel's
 * protected_symlinks rule, kept whatever the sysctl says), and so is a file there of
 * another owner, who could read what is written; a file with other hard links is never
 * emptied (-EMLINK: it may be another user's, or root's, linked in). Where dirfd is not
 * NULL, *dirfd gets a descriptor of the directory the file is in, after one's own link,
 * and name (namesize bytes) its name there, for safefile_rotate (the caller closes it).
 * The fd (O_WRONLY, O_CLOEXEC), or -errno with the reason in why.
 */
int safefile_open_private(const char *path, int *dirfd, char *name, size_t namesize, char *why,
			  size_t whysize);

/*
 * Rotate the private file fd, called name in dirfd (from safefile_open_private): name
 * becomes name.1 (replacing the one before) and a new, empty name is made, mode 0600,
 * never through a link nor over something put there since. Nothing is renamed unless name
 * is still fd's file (-ESTALE). The new fd (fd stays open: the caller closes it), or
 * -errno with the reason in why.
 */
int safefile_rotate(int dirfd, const char *name, int fd, char *why, size_t whysize);

#endif
