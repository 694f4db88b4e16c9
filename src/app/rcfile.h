/* The settings file (pmctoprc): where it is, what its lines mean, reading and writing it. */
#ifndef PMCTOP_RCFILE_H
#define PMCTOP_RCFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/columns.h"
#include "view/ui.h"

#define RCFILE_MAGIC "# pmctop config"
#define RCFILE_VERSION 1u
/* No settings file is this big: a larger one is something else, and is not read. */
#define RCFILE_SIZE_MAX (64 * 1024)

/* The settings, each with whether the file gave it (a setting it lacks keeps the default). */
struct rcfile {
	struct col_choice cols; /* columns= */
	bool cols_set;
	bool show_cpus;	     /* meters=: the per-core meters */
	unsigned meters_off; /* meters=: bit per enum ui_meter not listed */
	bool meters_set;
	enum ui_scheme scheme; /* colours= */
	bool scheme_set;
	char sort[32]; /* sort=: a column's key */
	bool sort_set;
	bool reverse; /* reverse= */
	bool reverse_set;
	double delay; /* delay= seconds */
	bool delay_set;
	/*
	 * The file there is not a pmctop settings file (another kind, binary, a newer
	 * version, not a regular file): writing over it would destroy it, so rcfile_save
	 * refuses to.
	 */
	bool foreign;
};

/* Every setting at its default, none set. */
void rcfile_init(struct rcfile *rc);
/*
 * The file's path: $XDG_CONFIG_HOME/pmctop/pmctoprc when xdg is an absolute path, else
 * $HOME/.config/pmctop/pmctoprc. 0, or -ENOENT when neither is set. Pure.
 */
int rcfile_path(const char *xdg, const char *home, char *buf, size_t size);
/*
 * The settings in len bytes of text (read from path, named in the message). Returns 0 when
 * every line was good; else -EINVAL with one message in msg naming path, the line and what
 * was wrong: the good settings are in rc, the bad ones keep their defaults. Pure.
 */
int rcfile_parse(struct rcfile *rc, const char *text, size_t len, const char *path, char *msg,
		 size_t msgsize);
/*
 * Read the file at path into rc (initialised here). A missing file is no settings: 0. Else
 * 0, or -errno with one message in msg (an unreadable file, a directory, a corrupt or foreign
 * file); rc then holds what could be used, and the defaults for the rest.
 */
int rcfile_load(struct rcfile *rc, const char *path, char *msg, size_t msgsize);
/* rcfile_load with checked (arg) called between the look at the file and its open: tests. */
int rcfile_load_checked(struct rcfile *rc, const char *path, void (*checked)(void *arg), void *arg,
			char *msg, size_t msgsize);
/* The text of the file for rc, every setting written; the caller frees it. */
char *rcfile_format(const struct rcfile *rc, size_t *len);
/*
 * Write rc to path at once (a temporary file renamed over it), making its directory (mode
 * 0700) when missing, and only where no other user can change what is written: path's
 * directory must be the effective user's and the directories above it the user's or root's,
 * writable by no one else (safefile_dir_open). A symbolic link at path is never followed:
 * it is refused (-ELOOP), as is a file of another owner (-EPERM) and one that rcfile_load
 * found foreign (-EEXIST). 0, or -errno, with a message in msg either way.
 */
int rcfile_save(const struct rcfile *rc, const char *path, char *msg, size_t msgsize);

#endif
