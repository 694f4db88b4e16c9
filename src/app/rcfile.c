/* The settings file: read with suspicion (any byte may be in it), written whole or not at all. */
#include "config.h"
#include "app/rcfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/keyval.h"
#include "util/parse.h"
#include "util/safefile.h"
#include "util/textsafe.h"
#include "util/xalloc.h"

void rcfile_init(struct rcfile *rc)
{
	memset(rc, 0, sizeof(*rc));
	columns_choice_default(&rc->cols);
	rc->show_cpus = true;
	rc->scheme = UI_SCHEME_DEFAULT;
	rc->delay = 1.0;
}

int rcfile_path(const char *xdg, const char *home, char *buf, size_t size)
{
	int n;

	/* the XDG rule: a relative XDG_CONFIG_HOME is not one, and is ignored */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/pmctop/pmctoprc", xdg);
	else if (home && home[0])
		n = snprintf(buf, size, "%s/.config/pmctop/pmctoprc", home);
	else
		return -ENOENT;
	return n > 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

/* A value from the file, quoted safely for a terminal and cut short. */
static const char *rcfile_quote(const char *s, char *buf, size_t size)
{
	textsafe_copy(s, buf, size, 40);
	return buf;
}

static int rcfile_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "on")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
	    !strcasecmp(v, "off")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/*
 * meters=: the meters listed are shown; "-NAME" hides NAME. A meter of the first version
 * (cpus, uptime, load, self) not named is hidden, as ever; one added since (memory) keeps its
 * default, shown, so that a file written before it existed does not hide it.
 */
/* The meters of the first version of the file come before this one. */
#define RCFILE_METERS_V1 UI_METER_MEMORY

static void rcfile_meters(struct rcfile *rc, struct keyval *kv, const struct keyval_entry *e)
{
	const char *p = e->value;
	char q[64];

	rc->show_cpus = false;
	rc->meters_off = 0;
	for (int k = 0; k < RCFILE_METERS_V1; k++)
		if (k != UI_METER_CPUS)
			rc->meters_off |= 1u << k;
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[32];
		int k = -1;
		bool hide;

		size_t tl = len;
		const char *t = p;

		/* "cpus, load" as a hand would write it */
		while (tl && (*t == ' ' || *t == '\t')) {
			t++;
			tl--;
		}
		while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
			tl--;
		hide = tl && *t == '-';
		if (hide) {
			t++;
			tl--;
		}
		if (tl < sizeof(name)) {
			memcpy(name, t, tl);
			name[tl] = '\0';
			k = setup_meter_find(name);
		}
		if (k == UI_METER_CPUS)
			rc->show_cpus = !hide;
		else if (k >= 0 && hide)
			rc->meters_off |= 1u << k;
		else if (k >= 0)
			rc->meters_off &= ~(1u << k);
		else if (tl) {
			snprintf(name, sizeof(name), "%.*s", (int)(tl < 31 ? tl : 31), t);
			keyval_problem(kv, e->line,
				       "unknown meter '%s' (use cpus, uptime, load, self, memory)",
				       rcfile_quote(name, q, sizeof(q)));
		}
		p += len + (p[len] == ',');
	}
	rc->meters_set = true;
}

/* One setting of the file into rc; a bad one is a problem and leaves rc alone. */
static void rcfile_entry(struct rcfile *rc, struct keyval *kv, const struct keyval_entry *e)
{
	const char *k = e->key, *v = e->value;
	char q[64], bad[80];
	int i;

	if (!strcmp(k, "columns")) {
		struct col_choice c;

		memset(&c, 0, sizeof(c));
		if (columns_choice_parse(&c, v, bad, sizeof(bad))) {
			char keys[256];

			if (columns_find(bad))
				keyval_problem(kv, e->line, "column '%s' is listed twice",
					       rcfile_quote(bad, q, sizeof(q)));
			else
				keyval_problem(kv, e->line, "unknown column '%s' (known: %s)",
					       rcfile_quote(bad, q, sizeof(q)),
					       columns_keys(keys, sizeof(keys), false));
		}
		/* a list of nothing known would leave COMMAND alone: the defaults stand */
		for (i = 0; i < COL_MAX; i++)
			if (!(c.hidden & (1u << i)) && !columns_get(i)->rest)
				break;
		if (i == COL_MAX) {
			if (!*bad)
				keyval_problem(kv, e->line, "no column listed");
			return;
		}
		rc->cols = c;
		rc->cols_set = true;
	} else if (!strcmp(k, "meters")) {
		rcfile_meters(rc, kv, e);
	} else if (!strcmp(k, "colours") || !strcmp(k, "colors")) {
		i = setup_scheme_find(v);
		if (i < 0) {
			keyval_problem(kv, e->line,
				       "unknown colour scheme '%s' (use default, mono or light)",
				       rcfile_quote(v, q, sizeof(q)));
			return;
		}
		rc->scheme = (enum ui_scheme)i;
		rc->scheme_set = true;
	} else if (!strcmp(k, "sort")) {
		const struct column *col = strlen(v) < 64 ? columns_find(v) : NULL;
		char keys[256];

		if (!col) {
			keyval_problem(kv, e->line, "unknown sort column '%s' (known: %s)",
				       rcfile_quote(v, q, sizeof(q)),
				       columns_keys(keys, sizeof(keys), false));
			return;
		}
		snprintf(rc->sort, sizeof(rc->sort), "%s", col->key);
		rc->sort_set = true;
	} else if (!strcmp(k, "reverse")) {
		if (rcfile_bool(v, &rc->reverse)) {
			keyval_problem(kv, e->line, "reverse is '%s': use yes or no",
				       rcfile_quote(v, q, sizeof(q)));
			return;
		}
		rc->reverse_set = true;
	} else if (!strcmp(k, "delay")) {
		if (parse_delay(v, false, &rc->delay)) {
			keyval_problem(kv, e->line,
				       "invalid delay '%s': give seconds from 0.01 to 86400",
				       rcfile_quote(v, q, sizeof(q)));
			return;
		}
		rc->delay_set = true;
	} else {
		keyval_problem(kv, e->line,
			       "unknown setting '%s' (use columns, meters, colours, sort, reverse, "
			       "delay)",
			       rcfile_quote(k, q, sizeof(q)));
	}
}

/* The one message for the file's problems: where, what, how many more, and what is used. */
static void rcfile_message(const struct keyval *kv, const char *path, bool whole, char *msg,
			   size_t msgsize)
{
	char more[64] = "";

	/* before what is wrong: a long list of what is known may be cut on a narrow screen */
	if (kv->problems > 1)
		snprintf(more, sizeof(more), " (first of %u bad lines)", kv->problems);
	if (whole)
		snprintf(msg, msgsize, "settings file '%s' %s; pmctop starts with the defaults",
			 path, kv->bad);
	else
		snprintf(msg, msgsize,
			 "settings file '%s' line %u%s: %s; the defaults stand for what is wrong",
			 path, kv->bad_line, more, kv->bad);
}

int rcfile_parse(struct rcfile *rc, const char *text, size_t len, const char *path, char *msg,
		 size_t msgsize)
{
	struct keyval kv;
	int r = keyval_parse(&kv, text, len, RCFILE_MAGIC, RCFILE_VERSION);

	if (r) {
		rc->foreign = true;
		rcfile_message(&kv, path, true, msg, msgsize);
		keyval_release(&kv);
		return -EINVAL;
	}
	for (size_t i = 0; i < kv.n; i++)
		rcfile_entry(rc, &kv, &kv.v[i]);
	r = kv.problems ? -EINVAL : 0;
	if (r)
		rcfile_message(&kv, path, false, msg, msgsize);
	keyval_release(&kv);
	return r;
}

int rcfile_load(struct rcfile *rc, const char *path, char *msg, size_t msgsize)
{
	return rcfile_load_checked(rc, path, NULL, NULL, msg, msgsize);
}

int rcfile_load_checked(struct rcfile *rc, const char *path, void (*checked)(void *arg), void *arg,
			char *msg, size_t msgsize)
{
	struct stat st;
	char *buf, why[256];
	size_t n = 0;
	int fd, r;

	rcfile_init(rc);
	msg[0] = '\0';
	/*
	 * Looked at before it is opened (opening a device acts), then opened without
	 * following a link and non-blocking (a FIFO put there since must not hang the
	 * start), and judged and read through that one descriptor: nothing swapped in
	 * between the look and the read is read.
	 */
	fd = safefile_open_read(path, &st, checked, arg, why, sizeof(why));
	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		r = fd;
		/* what is there cannot be read: it is not ours to overwrite either */
		rc->foreign = true;
		if (r == -EISDIR || r == -EINVAL || r == -ELOOP || r == -ESTALE)
			snprintf(msg, msgsize,
				 "settings file '%s' %s; pmctop starts with the defaults", path,
				 why);
		else
			snprintf(msg, msgsize,
				 "cannot read the settings file '%s': %s; pmctop starts with the "
				 "defaults",
				 path, why);
		return r;
	}
	if (st.st_size > RCFILE_SIZE_MAX) {
		close(fd);
		rc->foreign = true;
		snprintf(msg, msgsize,
			 "settings file '%s' is larger than 64 KiB, more than any settings file; "
			 "pmctop starts with the defaults",
			 path);
		return -EFBIG;
	}
	/* another user's settings do not steer this user's pmctop (root's, say), as ssh reads
	 * no configuration another user could write */
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		rc->foreign = true;
		snprintf(msg, msgsize,
			 "settings file '%s' is owned by uid %u, not by uid %u who runs pmctop; "
			 "pmctop starts with the defaults",
			 path, (unsigned)st.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	buf = xmalloc(RCFILE_SIZE_MAX + 1);
	for (;;) {
		ssize_t got = read(fd, buf + n, RCFILE_SIZE_MAX + 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			close(fd);
			free(buf);
			rc->foreign = true;
			snprintf(msg, msgsize,
				 "cannot read the settings file '%s': %s; pmctop starts with the "
				 "defaults",
				 path, strerror(-r));
			return r;
		}
		if (!got || (n += (size_t)got) > RCFILE_SIZE_MAX)
			break;
	}
	close(fd);
	if (n > RCFILE_SIZE_MAX) {
		free(buf);
		rc->foreign = true;
		snprintf(msg, msgsize,
			 "settings file '%s' is larger than 64 KiB, more than any settings file; "
			 "pmctop starts with the defaults",
			 path);
		return -EFBIG;
	}
	r = rcfile_parse(rc, buf, n, path, msg, msgsize);
	free(buf);
	return r;
}

char *rcfile_format(const struct rcfile *rc, size_t *len)
{
	char *buf = NULL, cols[512], meters[96] = "", delay[32];
	size_t ml = 0;

	*len = 0;
	buf = xmalloc(64);
	*len = (size_t)snprintf(buf, 64, "%s %u\n", RCFILE_MAGIC, RCFILE_VERSION);
	for (int k = 0; k < UI_METER_MAX; k++) {
		bool on = k == UI_METER_CPUS ? rc->show_cpus : !(rc->meters_off & (1u << k));

		/* a later meter hidden is said so: not naming it keeps its default */
		if (on || k >= RCFILE_METERS_V1)
			ml += (size_t)snprintf(meters + ml, sizeof(meters) - ml, "%s%s%s",
					       ml ? "," : "", on ? "" : "-",
					       setup_meter_name((enum ui_meter)k));
	}
	snprintf(delay, sizeof(delay), "%g", rc->delay);
	/* every value here comes from pmctop's own tables: each one reads back */
	keyval_append(&buf, len, "columns", columns_choice_format(&rc->cols, cols, sizeof(cols)));
	keyval_append(&buf, len, "meters", meters);
	keyval_append(&buf, len, "colours", setup_scheme_name(rc->scheme));
	if (rc->sort[0])
		keyval_append(&buf, len, "sort", rc->sort);
	keyval_append(&buf, len, "reverse", rc->reverse ? "yes" : "no");
	keyval_append(&buf, len, "delay", delay);
	return buf;
}

int rcfile_save(const struct rcfile *rc, const char *path, char *msg, size_t msgsize)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char dir[PATH_MAX], why[512];
	size_t len;
	char *text;
	int dfd, r;

	if (rc->foreign) {
		snprintf(msg, msgsize,
			 "not written: '%s' is not a pmctop settings file, and writing would "
			 "destroy it; move it away first",
			 path);
		return -EEXIST;
	}
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(msg, msgsize, "cannot write the settings file '%s': it names a directory",
			 path);
		return -EISDIR;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path),
			  path) >= (int)sizeof(dir)) {
		snprintf(msg, msgsize, "cannot write the settings file '%s': %s", path,
			 strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	/* only into the user's own directory: root with a user's HOME writes nothing there */
	dfd = safefile_dir_open(dir, why, sizeof(why));
	if (dfd < 0) {
		snprintf(msg, msgsize,
			 "not written: '%s': %s; pmctop writes settings only where no other user "
			 "can change them (run it as the user whose file it is, or give --config a "
			 "file in a directory of your own)",
			 path, why);
		return dfd;
	}
	text = rcfile_format(rc, &len);
	r = safefile_replace(dfd, name, text, len, 0600, why, sizeof(why));
	free(text);
	close(dfd);
	if (r == -ELOOP)
		snprintf(msg, msgsize,
			 "not written: '%s' is a symbolic link, and pmctop does not write through "
			 "one (another user could point it at any file); replace the link with the "
			 "file itself, or give --config the file it points to",
			 path);
	else if (r == -EPERM || r == -EINVAL)
		snprintf(msg, msgsize,
			 "not written: '%s': %s; move it away, or run pmctop as its owner", path,
			 why);
	else if (r)
		snprintf(msg, msgsize, "cannot write the settings file '%s': %s", path, why);
	else
		snprintf(msg, msgsize, "settings written to %s", path);
	return r;
}
