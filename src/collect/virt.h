/* Why a machine has no PMU: the facts that say it is a virtual machine, and what its kernel said. */
#ifndef PMCTOP_VIRT_H
#define PMCTOP_VIRT_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/sysops.h"
#include "util/errmsg.h"

/*
 * Whether the "flags" line of /proc/cpuinfo text has the hypervisor flag
 * (x86 CPUs set it under every hypervisor). Pure.
 */
bool virt_parse_cpuinfo(const char *buf, size_t len);
/*
 * The kernel's boot line about its PMU in /dev/kmsg text ("PRI,SEQ,TIME,-;
 * MESSAGE" records): the message after "Performance Events: " (x86) or
 * "hw perfevents: " (arm), copied into out (size bytes). Returns whether
 * one was found. Pure.
 */
bool virt_parse_kmsg(const char *buf, size_t len, char *out, size_t size);
/*
 * Fill v from proc (the /proc root), sysfs (the /sys root) and kmsg (the
 * kernel log device; NULL: not read) through ops. What cannot be read
 * stays unknown; never fails.
 */
void virt_detect(const struct sysops *ops, const char *proc, const char *sysfs, const char *kmsg,
		 struct errmsg_virt *v);

#endif
