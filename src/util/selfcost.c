/* pmctop's own cost, from getrusage, /proc/self/statm and the size of /proc/self/fd. */
#include "config.h"
#include "util/selfcost.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void selfcost_read(struct selfcost *s, const struct selfcost *prev, double dt_s)
{
	struct rusage ru;
	struct rlimit rl;
	char buf[128];
	unsigned long long pages, rss;
	struct stat sb;
	int fd;
	DIR *d;

	s->cpu_seconds = s->cpu_pct = s->rss_bytes = s->open_fds = s->max_fds = NAN;
	if (!getrusage(RUSAGE_SELF, &ru))
		s->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
				 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (prev && dt_s > 0 && isfinite(prev->cpu_seconds) && isfinite(s->cpu_seconds))
		s->cpu_pct = (s->cpu_seconds - prev->cpu_seconds) / dt_s * 100;
	fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (n > 0) {
			buf[n] = '\0';
			if (sscanf(buf, "%llu %llu", &pages, &rss) == 2)
				s->rss_bytes = (double)rss * (double)sysconf(_SC_PAGESIZE);
		}
		close(fd);
	}
	/*
	 * Since Linux 6.2 the size of /proc/self/fd is the number of descriptors
	 * open: one stat, where listing the directory costs a getdents walk over
	 * every descriptor (20000 at scale, each tick). Before, it is 0: list.
	 */
	if (!stat("/proc/self/fd", &sb) && sb.st_size > 0) {
		s->open_fds = (double)sb.st_size;
	} else if ((d = opendir("/proc/self/fd"))) {
		struct dirent *e;
		double n = 0;

		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				n++;
		s->open_fds = n - 1; /* not the directory's own */
		closedir(d);
	}
	if (!getrlimit(RLIMIT_NOFILE, &rl))
		s->max_fds = rl.rlim_cur == RLIM_INFINITY ? INFINITY : (double)rl.rlim_cur;
}
