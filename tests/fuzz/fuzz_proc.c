/* libFuzzer harness: every /proc parser on the same bytes. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cgroupfs.h"
#include "kernel/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const char *s = (const char *)data;
	struct proc_stat st;
	struct proc_cpustat *cs = NULL;
	struct mem_map *maps = NULL;
	size_t cap = 0, mcap = 0;
	unsigned uid;
	double load[3], up;
	char *buf;
	long n;

	proc_parse_stat(s, len, &st);
	proc_parse_status_uid(s, len, &uid);
	proc_parse_cpustat(s, len, &cs, &cap);
	proc_parse_loadavg(s, len, load);
	proc_parse_uptime(s, len, &up);
	{
		/* the cgroup v2 parsers read the same kinds of /proc text */
		static struct cgroupfs_mount mnt;
		char path[CGROUPFS_PATH_MAX], rel[CGROUPFS_PATH_MAX], *z = malloc(len + 1);

		if (!cgroupfs_parse_mountinfo(s, len, &mnt) &&
		    !cgroupfs_parse_proc(s, len, path, sizeof(path)))
			cgroupfs_relative(&mnt, path, rel, sizeof(rel));
		memcpy(z, data, len);
		z[len] = '\0';
		cgroupfs_normalize(mnt.dir, z, path, sizeof(path));
		free(z);
	}
	n = proc_parse_maps(s, len, &maps, &mcap);
	for (long i = 0; i < n; i++)
		mem_find_map(maps, (size_t)n, maps[i].start);
	buf = malloc(len + 1);
	memcpy(buf, data, len);
	proc_cmdline_flatten(buf, len);
	free(buf);
	free(cs);
	free(maps);
	return 0;
}
