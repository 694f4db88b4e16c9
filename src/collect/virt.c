/* Facts for the no-PMU notice: the hypervisor flag, the machine's vendor, the kernel's own words. */
#include "config.h"
#include "collect/virt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool virt_parse_cpuinfo(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if ((size_t)(eol - p) > 5 && !strncmp(p, "flags", 5)) {
			/* " hypervisor" as a whole word in the flags line */
			for (const char *q = p; q + 11 <= eol; q++)
				if (!strncmp(q, " hypervisor", 11) &&
				    (q + 11 == eol || q[11] == ' '))
					return true;
			return false;
		}
		p = eol + 1;
	}
	return false;
}

bool virt_parse_kmsg(const char *buf, size_t len, char *out, size_t size)
{
	static const char *const KEYS[] = { "Performance Events: ", "hw perfevents: " };
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *msg = memchr(p, ';', (size_t)(eol - p));

		for (size_t k = 0; msg && k < sizeof(KEYS) / sizeof(KEYS[0]); k++) {
			size_t kl = strlen(KEYS[k]);

			if ((size_t)(eol - msg - 1) > kl && !strncmp(msg + 1, KEYS[k], kl)) {
				size_t n = (size_t)(eol - (msg + 1 + kl));

				/* the kernel's words, kept printable: they go into a message */
				snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1),
					 msg + 1 + kl);
				for (char *c = out; *c; c++)
					if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
						*c = '?';
				return true;
			}
		}
		p = eol + 1;
	}
	return false;
}

/* Drain the kernel log without waiting; each read returns one record. */
static void virt_read_kmsg(const struct sysops *ops, const char *kmsg, struct errmsg_virt *v)
{
	char all[65536], rec[1024];
	size_t n = 0;
	int fd = ops->openat(ops->ctx, AT_FDCWD, kmsg, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return; /* no permission (dmesg_restrict) or no such device: unknown */
	for (int i = 0; i < 4096; i++) {
		long r = ops->read(ops->ctx, fd, rec, sizeof(rec));

		if (r == -EPIPE)
			continue; /* records overwritten while reading: go on */
		if (r <= 0)
			break;
		if (n + (size_t)r + 1 > sizeof(all))
			break; /* the PMU line comes early in the boot: enough */
		memcpy(all + n, rec, (size_t)r);
		n += (size_t)r;
		if (all[n - 1] != '\n')
			all[n++] = '\n';
	}
	ops->close(ops->ctx, fd);
	virt_parse_kmsg(all, n, v->kernel_said, sizeof(v->kernel_said));
}

void virt_detect(const struct sysops *ops, const char *proc, const char *sysfs, const char *kmsg,
		 struct errmsg_virt *v)
{
	static const char *const VENDOR_FILES[] = { "class/dmi/id/sys_vendor", "hypervisor/type" };
	char path[4096], buf[65536];
	long n;

	ops = sysops_or_real(ops);
	memset(v, 0, sizeof(*v));
	snprintf(path, sizeof(path), "%s/cpuinfo", proc ? proc : "/proc");
	n = sysops_read_path(ops, path, 0, buf, sizeof(buf));
	v->vm = n > 0 && virt_parse_cpuinfo(buf, (size_t)n);
	for (size_t i = 0; i < sizeof(VENDOR_FILES) / sizeof(VENDOR_FILES[0]) && !v->vendor[0];
	     i++) {
		snprintf(path, sizeof(path), "%s/%s", sysfs ? sysfs : "/sys", VENDOR_FILES[i]);
		n = sysops_read_path(ops, path, 0, buf, sizeof(v->vendor));
		if (n <= 0)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		for (char *c = buf; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		snprintf(v->vendor, sizeof(v->vendor), "%.*s", (int)sizeof(v->vendor) - 1, buf);
	}
	if (kmsg)
		virt_read_kmsg(ops, kmsg, v);
}
