/* /proc parsing: pure parsers over bytes plus thin readers below a root fd. */
#include "config.h"
#include "kernel/proc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/xalloc.h"

/* Parse an unsigned decimal field; advances *p past it and one separator. */
static int proc_next_ull(const char **p, const char *end, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;
	bool neg = false;

	while (s < end && *s == ' ')
		s++;
	if (s < end && *s == '-') {
		neg = true;
		s++;
	}
	if (s >= end || !isdigit((unsigned char)*s))
		return -EINVAL;
	while (s < end && isdigit((unsigned char)*s)) {
		x = x * 10 + (unsigned long long)(*s - '0');
		s++;
	}
	*v = neg ? (unsigned long long)-(long long)x : x;
	*p = s;
	return 0;
}

int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out)
{
	const char *end = buf + len, *open, *close, *p;
	unsigned long long v;
	size_t n;

	memset(out, 0, sizeof(*out));
	p = buf;
	if (proc_next_ull(&p, end, &v) || v > 0x7fffffff)
		return -EINVAL;
	out->pid = (int)v;
	open = memchr(buf, '(', len);
	/* comm may itself contain ')' and spaces: the last ')' ends it */
	close = NULL;
	for (const char *q = end; q > buf; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';
	p = close + 1;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || !isalpha((unsigned char)*p))
		return -EINVAL;
	out->state = *p++;
	/*
	 * fields 4.. after the state: ppid is 4, flags 9, minflt 10, majflt 12, utime
	 * and stime 14 and 15,
	 * nice 19, num_threads 20, starttime 22; then, where the kernel writes them, vsize
	 * 23, rss 24, startcode 26, startstack 28 and processor 39
	 */
	for (int field = 4; field <= 39; field++) {
		if (proc_next_ull(&p, end, &v)) {
			if (field > 22)
				break;
			return -EINVAL;
		}
		switch (field) {
		case 4:
			out->ppid = (int)v;
			break;
		case 9:
			out->flags = (unsigned)v;
			break;
		case 10:
			out->minflt = v;
			break;
		case 12:
			out->majflt = v;
			break;
		case 14:
		case 15:
			out->cpu += v;
			break;
		case 19:
			out->nice = (int)(long long)v;
			break;
		case 20:
			out->threads = (int)v;
			break;
		case 22:
			out->start = v;
			break;
		case 23:
			out->vsize = v;
			break;
		case 24:
			out->rss = v;
			break;
		case 26:
			out->start_code = v;
			break;
		case 28:
			out->start_stack = v;
			break;
		case 39:
			out->processor = (int)v;
			break;
		default:
			break;
		}
	}
	return 0;
}

int proc_parse_statm(const char *buf, size_t len, unsigned long long *shared)
{
	const char *p = buf, *end = buf + len;
	unsigned long long v;

	/* size resident shared text lib data dt, in pages */
	for (int field = 1; field <= 3; field++)
		if (proc_next_ull(&p, end, &v))
			return -EINVAL;
	*shared = v;
	return 0;
}

int proc_read_statm(int rootfd, int pid, unsigned long long *shared)
{
	char path[32], buf[256];
	long n;

	snprintf(path, sizeof(path), "%d/statm", pid);
	n = proc_read_file(rootfd, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return proc_parse_statm(buf, (size_t)n, shared);
}

int proc_parse_status_uid(const char *buf, size_t len, unsigned *uid)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol - p > 4 && !memcmp(p, "Uid:", 4)) {
			unsigned long long real, eff;
			const char *q = p + 4;

			while (q < eol && (*q == '\t' || *q == ' '))
				q++;
			if (proc_next_ull(&q, eol, &real))
				return -EINVAL;
			while (q < eol && (*q == '\t' || *q == ' '))
				q++;
			if (proc_next_ull(&q, eol, &eff) || eff > 0xffffffffu)
				return -EINVAL;
			*uid = (unsigned)eff;
			return 0;
		}
		p = eol + 1;
	}
	return -EINVAL;
}

int proc_parse_meminfo(const char *buf, size_t len, unsigned long long *total_kib)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol - p > 9 && !memcmp(p, "MemTotal:", 9)) {
			const char *q = p + 9;

			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (proc_next_ull(&q, eol, total_kib))
				return -EINVAL;
			while (q < eol && *q == ' ')
				q++;
			/* the kernel writes kB (KiB); any other unit is not this file */
			if (eol - q != 2 || memcmp(q, "kB", 2))
				return -EINVAL;
			return 0;
		}
		p = eol + 1;
	}
	return -EINVAL;
}

int proc_read_memtotal(int rootfd, unsigned long long *total_kib)
{
	char buf[4096];
	long n = proc_read_file(rootfd, "meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return proc_parse_meminfo(buf, (size_t)n, total_kib);
}

int proc_parse_meminfo_all(const char *buf, size_t len, struct proc_meminfo *out)
{
	static const struct {
		const char *key;
		size_t off;
	} PROC_MEMINFO_KEYS[] = {
		{ "MemTotal:", offsetof(struct proc_meminfo, total) },
		{ "MemFree:", offsetof(struct proc_meminfo, free) },
		{ "Buffers:", offsetof(struct proc_meminfo, buffers) },
		{ "Cached:", offsetof(struct proc_meminfo, cached) },
		{ "SReclaimable:", offsetof(struct proc_meminfo, sreclaimable) },
		{ "SwapTotal:", offsetof(struct proc_meminfo, swap_total) },
		{ "SwapFree:", offsetof(struct proc_meminfo, swap_free) },
		{ "MemAvailable:", offsetof(struct proc_meminfo, available) },
	};
	const char *p = buf, *end = buf + len;
	unsigned seen = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		for (size_t k = 0; k < sizeof(PROC_MEMINFO_KEYS) / sizeof(PROC_MEMINFO_KEYS[0]);
		     k++) {
			size_t kl = strlen(PROC_MEMINFO_KEYS[k].key);
			const char *q = p + kl;
			unsigned long long v;

			if ((size_t)(eol - p) <= kl || memcmp(p, PROC_MEMINFO_KEYS[k].key, kl))
				continue;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (proc_next_ull(&q, eol, &v))
				return -EINVAL;
			while (q < eol && *q == ' ')
				q++;
			/* the kernel writes kB (KiB); any other unit is not this file */
			if (eol - q != 2 || memcmp(q, "kB", 2))
				return -EINVAL;
			*(unsigned long long *)((char *)out + PROC_MEMINFO_KEYS[k].off) = v;
			seen |= 1u << k;
			break;
		}
		p = eol + 1;
	}
	return seen == (1u << (sizeof(PROC_MEMINFO_KEYS) / sizeof(PROC_MEMINFO_KEYS[0]))) - 1
		       ? 0
		       : -EINVAL;
}

int proc_read_meminfo(int rootfd, struct proc_meminfo *out)
{
	char buf[8192];
	long n = proc_read_file(rootfd, "meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return proc_parse_meminfo_all(buf, (size_t)n, out);
}

int proc_parse_cpustat(const char *buf, size_t len, struct proc_cpustat **out, size_t *cap)
{
	const char *p = buf, *end = buf + len;
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		/* a last line without its newline was cut short (the file is longer than was read) */
		if (!nl)
			break;
		if (eol - p > 3 && !memcmp(p, "cpu", 3) && isdigit((unsigned char)p[3])) {
			const char *q = p + 3;
			unsigned long long id, v[10] = { 0 }, total = 0;
			int k;

			if (proc_next_ull(&q, eol, &id) || id > 1u << 20)
				return -EINVAL;
			for (k = 0; k < 10; k++)
				if (proc_next_ull(&q, eol, &v[k]))
					break;
			if (k < 4)
				return -EINVAL;
			/* guest and guest_nice (8, 9) are already in user and nice */
			for (int i = 0; i < k && i < 8; i++)
				total += v[i];
			*out = xgrow(*out, cap, (size_t)n + 1, sizeof(**out));
			(*out)[n].cpu = (int)id;
			(*out)[n].total = total;
			(*out)[n].busy = total - v[3] - (k > 4 ? v[4] : 0);
			n++;
		}
		p = eol + 1;
	}
	return n ? n : -EINVAL;
}

int proc_parse_loadavg(const char *buf, size_t len, double load[3])
{
	char tmp[128];

	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (sscanf(tmp, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
		return -EINVAL;
	return 0;
}

int proc_parse_loadavg_pid(const char *buf, size_t len, long *pid)
{
	char tmp[128];
	int a, b;

	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (sscanf(tmp, "%*f %*f %*f %d/%d %ld", &a, &b, pid) != 3 || *pid < 0)
		return -EINVAL;
	return 0;
}

int proc_parse_uptime(const char *buf, size_t len, double *up)
{
	char tmp[64];

	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (sscanf(tmp, "%lf", up) != 1 || *up < 0)
		return -EINVAL;
	return 0;
}

size_t proc_cmdline_flatten(char *buf, size_t len)
{
	while (len && buf[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\0' || buf[i] == '\n' || buf[i] == '\t')
			buf[i] = ' ';
	buf[len] = '\0';
	return len;
}

long proc_parse_maps(const char *buf, size_t len, struct mem_map **out, size_t *cap)
{
	const char *p = buf, *end = buf + len;
	long n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		char line[512];
		size_t ll = (size_t)(eol - p);
		unsigned long long a, b, off = 0, ino = 0;
		unsigned maj = 0, min = 0;
		int name_at = -1;
		struct mem_map *m;
		bool cut = ll >= sizeof(line);

		if (ll == 0) {
			p = eol + 1;
			continue;
		}
		if (ll >= sizeof(line))
			ll = sizeof(line) - 1;
		memcpy(line, p, ll);
		line[ll] = '\0';
		/* start-end perms offset dev inode [name] */
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu %n", &a, &b, &off, &maj, &min, &ino,
			   &name_at) < 6 ||
		    name_at < 0) {
			/* fields that are not numbers: the file's identity is not known */
			off = ino = 0;
			maj = min = 0;
			name_at = -1;
			if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &a, &b, &name_at) < 2)
				return -EINVAL;
		}
		if (name_at < 0 || b < a)
			return -EINVAL;
		*out = xgrow(*out, cap, (size_t)n + 1, sizeof(**out));
		m = &(*out)[n++];
		memset(m, 0, sizeof(*m));
		m->start = a;
		m->end = b;
		m->pgoff = off;
		m->maj = maj;
		m->min = min;
		m->ino = ino;
		/* a name cut here names another file, or none: it is shown, never opened */
		m->cut = cut || strlen(line + name_at) >= sizeof(m->name);
		snprintf(m->name, sizeof(m->name), "%s", line[name_at] ? line + name_at : "[anon]");
		p = eol + 1;
	}
	return n;
}

bool proc_is_own(int rootfd)
{
	char buf[32], want[32];
	ssize_t n = readlinkat(rootfd, "self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	snprintf(want, sizeof(want), "%d", (int)getpid());
	return !strcmp(buf, want);
}

long proc_read_file(int rootfd, const char *path, char *buf, size_t size)
{
	int fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got + 1 < size) {
		ssize_t r = read(fd, buf + got, size - 1 - got);

		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			/* a task that exits mid-read reads as gone */
			return e == ESRCH ? -ENOENT : -e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (long)got;
}

void proc_kept_init(struct proc_kept *k, bool keep)
{
	k->fd = -1;
	k->keep = keep;
}

void proc_kept_close(struct proc_kept *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

long proc_kept_read(struct proc_kept *k, int rootfd, const char *path, char *buf, size_t size)
{
	size_t got = 0;

	if (!k->keep)
		return proc_read_file(rootfd, path, buf, size);
	if (k->fd < 0) {
		k->fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
		if (k->fd < 0)
			return -errno;
	}
	while (got + 1 < size) {
		size_t want = size - 1 - got;
		ssize_t r = pread(k->fd, buf + got, want, (off_t)got);

		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			proc_kept_close(k);
			return -e;
		}
		got += (size_t)r;
		/*
		 * a file of one record (these are) comes whole in one read when
		 * the buffer holds it: a short read is its end
		 */
		if (r == 0 || (size_t)r < want)
			break;
	}
	buf[got] = '\0';
	return (long)got;
}

long proc_kept_read_all(struct proc_kept *k, int rootfd, const char *path, char **buf, size_t *cap)
{
	long len;

	if (!*buf) {
		*cap = 65536;
		*buf = xmalloc(*cap);
	}
	while ((len = proc_kept_read(k, rootfd, path, *buf, *cap)) >= 0 &&
	       (size_t)len + 1 >= *cap && *cap < (16u << 20)) {
		*cap *= 2;
		*buf = xrealloc(*buf, *cap);
	}
	return len;
}

int proc_kept_meminfo(struct proc_kept *k, int rootfd, struct proc_meminfo *out)
{
	char buf[8192];
	long n = proc_kept_read(k, rootfd, "meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return proc_parse_meminfo_all(buf, (size_t)n, out);
}

int proc_read_stat(int rootfd, int pid, int tid, struct proc_stat *out)
{
	char path[64], buf[1024];
	long n;

	if (tid > 0)
		snprintf(path, sizeof(path), "%d/task/%d/stat", pid, tid);
	else
		snprintf(path, sizeof(path), "%d/stat", pid);
	n = proc_read_file(rootfd, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENOENT;
	return proc_parse_stat(buf, (size_t)n, out);
}

int proc_pread_stat(int fd, struct proc_stat *out)
{
	char buf[1024];
	ssize_t n;

	do
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	if (n == 0)
		return -ESRCH;
	buf[n] = '\0';
	return proc_parse_stat(buf, (size_t)n, out);
}

/* statfs(2)'s f_type of a procfs */
#define PROC_SUPER_MAGIC_ 0x9fa0

bool proc_is_procfs(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC_;
}

int proc_read_owner(int rootfd, int pid, unsigned *uid)
{
	char name[16];
	struct stat sb;

	snprintf(name, sizeof(name), "%d", pid);
	if (fstatat(rootfd, name, &sb, 0))
		return -errno;
	*uid = (unsigned)sb.st_uid;
	return 0;
}

int proc_read_uid(int rootfd, int pid, unsigned *uid)
{
	char path[64], buf[4096];
	long n;

	snprintf(path, sizeof(path), "%d/status", pid);
	n = proc_read_file(rootfd, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return proc_parse_status_uid(buf, (size_t)n, uid);
}

int proc_read_cmdline(int rootfd, int pid, char *buf, size_t size)
{
	char path[64];
	long n;

	snprintf(path, sizeof(path), "%d/cmdline", pid);
	n = proc_read_file(rootfd, path, buf, size);
	if (n < 0) {
		buf[0] = '\0';
		return (int)n;
	}
	proc_cmdline_flatten(buf, (size_t)n);
	return 0;
}

int proc_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

long proc_list_ids(int rootfd, const char *path, int **ids, size_t *cap)
{
	int fd = openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *de;
	size_t n = 0;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		char *endp;
		long v;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = strtol(de->d_name, &endp, 10);
		if (*endp || v <= 0 || v > 0x7fffffff)
			continue;
		*ids = xgrow(*ids, cap, n + 1, sizeof(**ids));
		(*ids)[n++] = (int)v;
	}
	closedir(d);
	if (n > 1)
		qsort(*ids, n, sizeof(**ids), proc_cmp_int);
	return (long)n;
}
