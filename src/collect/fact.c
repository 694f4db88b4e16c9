/* The facts of collection: how they are filled and the one place their sentences are written. */
#include "config.h"
#include "collect/fact.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int fact_abs(int err)
{
	return err < 0 ? -err : err;
}

/* Why a sampling event did not open, in plain words with the way out. */
static const char *fact_sample_reason(char *buf, size_t size, const struct fact *f)
{
	int err = fact_abs(f->err), paranoid = f->paranoid;
	const char *name = f->name;
	char adv[320];

	/*
	 * another user's process: the kernel asks for ptrace access to it
	 * (PTRACE_MODE_READ_REALCREDS), which no paranoid level grants
	 */
	if (err == EACCES && f->sample.owner >= 0 && f->sample.owner != f->sample.uid) {
		char as[64] = "";

		if (f->sample.owner)
			snprintf(as, sizeof(as), " or as uid %lld", f->sample.owner);
		snprintf(buf, size,
			 "permission denied: pid %lld belongs to uid %lld, and watching another "
			 "user's process needs ptrace access to it, which no "
			 "kernel.perf_event_paranoid setting gives; run pmctop as root%s, or "
			 "grant the capability with 'setcap cap_perfmon+ep pmctop' (or "
			 "cap_sys_ptrace)",
			 f->sample.pid, f->sample.owner, as);
		return buf;
	}
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		snprintf(buf, size, "not supported by this PMU or kernel");
		break;
	case EACCES:
		snprintf(buf, size, "permission denied; %s",
			 errmsg_permission_advice(adv, sizeof(adv), paranoid));
		break;
	case EPERM:
		snprintf(buf, size,
			 "not permitted: the locked memory for sampling rings is used up, or the "
			 "events are denied; raise 'ulimit -l' or kernel.perf_event_mlock_kb, "
			 "or %s",
			 errmsg_permission_advice(adv, sizeof(adv), paranoid));
		break;
	case EINVAL:
		if (!strcmp(name, "ibs_op"))
			snprintf(buf, size,
				 "the kernel refused the IBS event: sampling one "
				 "process with IBS needs Linux 6.2 or later; use --sample-source "
				 "faults");
		else
			snprintf(buf, size, "the kernel refused the event attributes");
		break;
	case ENODATA:
		snprintf(buf, size,
			 "the kernel wants mem-loads led by mem-loads-aux, and this "
			 "kernel lists no such event");
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, size, "out of file descriptors; raise 'ulimit -n'");
		break;
	case ESRCH:
		snprintf(buf, size, "the process exited");
		break;
	case EBUSY:
		snprintf(buf, size, "the PMU is held exclusively by another user");
		break;
	case ENOSYS:
		snprintf(buf, size, "this kernel or sandbox has no perf_event_open");
		break;
	default:
		snprintf(buf, size, "%s", strerror(err ? err : EINVAL));
		break;
	}
	return buf;
}

/*
 * Another user's processes refused while pmctop's own open: the kernel
 * checks ptrace access to the target (perf_check_permission in
 * kernel/events/core.c: CAP_PERFMON, or ptrace_may_access with
 * PTRACE_MODE_READ_REALCREDS, which wants the caller's real uid to be the
 * target's real, effective and saved uid, or CAP_SYS_PTRACE), and no
 * perf_event_paranoid level changes that.
 */
static void fact_tasks_foreign(char *buf, size_t size, const struct fact *f)
{
	char more[64] = "";

	if (f->tasks.others > 1)
		snprintf(more, sizeof(more), " and %lld more", f->tasks.others - 1);
	snprintf(buf, size,
		 "other users' processes cannot be counted (pid %lld of uid %lld%s): counting "
		 "another user's process needs ptrace access to it, which no "
		 "kernel.perf_event_paranoid setting gives; run pmctop as that user or as "
		 "root, or grant the capability with 'setcap cap_perfmon+ep pmctop' (or "
		 "cap_sys_ptrace)",
		 f->tasks.pid, f->tasks.owner, more);
}

struct fact *fact_set(struct fact *f, enum fact_what what, int err, const char *name, int paranoid)
{
	memset(f, 0, sizeof(*f));
	f->what = what;
	f->err = err;
	snprintf(f->name, sizeof(f->name), "%s", name ? name : "");
	f->paranoid = paranoid;
	if (what == FACT_TASKS)
		f->tasks.owner = -1;
	else if (what == FACT_SAMPLE || what == FACT_SAMPLE_TASK)
		f->sample.owner = -1;
	return f;
}

/* One note of what sampling tried: "PEBS: mem-loads: not supported". */
static void fact_note(char *buf, size_t size, const struct fact *f)
{
	int err = fact_abs(f->err);

	switch (f->what) {
	case FACT_SAMPLE_PEBS:
		snprintf(buf, size, "PEBS: %s: %s", f->name[0] ? f->name : "MEM_INST_RETIRED",
			 errmsg_short(err));
		break;
	case FACT_SAMPLE_IBS:
		if (err == ENOENT)
			snprintf(buf, size, "IBS: no ibs_op PMU");
		else if (err == EINVAL)
			snprintf(buf, size, "IBS: refused (per-task IBS needs Linux 6.2)");
		else
			snprintf(buf, size, "IBS: %s", errmsg_short(err));
		break;
	default:
		fact_text(buf, size, f);
		break;
	}
}

const char *fact_notes(char *buf, size_t size, const struct fact_notes *notes)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < notes->n && len + 1 < size; i++) {
		char one[512];

		fact_note(one, sizeof(one), &notes->note[i]);
		snprintf(buf + len, size - len, "%s%s", len ? "; " : "", one);
		len = strlen(buf);
	}
	return buf;
}

void fact_notes_add(struct fact_notes *notes, const struct fact *f)
{
	if (notes->n < FACT_MAX_NOTES)
		notes->note[notes->n++] = *f;
}

/* The no-PMU notice: what failed, why the machine has no PMU where it says so, and the way out. */
static void fact_no_pmu(char *buf, size_t size, const char *why, const struct errmsg_virt *v)
{
	char where[320] = "";

	if (v->vm || v->vendor[0])
		snprintf(where, sizeof(where), "; this is a virtual machine%s%s%s%s",
			 v->vendor[0] ? " (" : "", v->vendor, v->vendor[0] ? ")" : "",
			 v->vm ? ", the CPU's hypervisor flag is set" : "");
	if (v->kernel_said[0])
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "; the kernel said at boot: \"%s\"", v->kernel_said);
	snprintf(
		buf, size,
		"no hardware PMU: counting software events only (%s)%s; IPC, GHz and miss ratios "
		"need hardware counters%s",
		why, where,
		v->vm || v->vendor[0] || v->kernel_said[0]
			? ": give the virtual machine a virtual PMU (KVM/QEMU: -cpu host; libvirt: "
			  "<cpu mode='host-passthrough'> with <pmu state='on'/>; VMware: "
			  "\"Virtualize "
			  "CPU performance counters\"; a cloud: a bare-metal or whole-host "
			  "instance "
			  "type)"
			: " (a VM without a virtual PMU has none)");
}

/* Why tasks are not counted from /proc: an error when asked for, else what is done instead. */
static void fact_proc_counts(char *buf, size_t size, const struct fact *f)
{
	const char *then = f->way.asked ? ": use --task-counts=perf (per-task perf events)"
					: "; processes are counted with per-task perf events";

	switch ((enum fact_proc_step)f->way.step) {
	case FACT_PROC_EVENT:
		if (!f->way.asked) {
			/* auto: told only when BPF did not count either */
			snprintf(buf, size,
				 "task counts from /proc: '%s' is not one /proc keeps (it keeps "
				 "task-clock, page faults, context switches and CPU migrations)%s",
				 f->name, then);
			break;
		}
		snprintf(buf, size,
			 "--task-counts=proc cannot count '%s': /proc keeps only task-clock, page "
			 "faults, context switches and CPU migrations per task%s",
			 f->name, then);
		break;
	case FACT_PROC_SCHED:
		snprintf(buf, size,
			 "this kernel has no /proc/PID/sched (built without CONFIG_SCHED_DEBUG), "
			 "so CPU migrations (and context switches, where /proc/PID/schedstat has "
			 "no run counts) cannot be read from /proc%s",
			 then);
		break;
	case FACT_PROC_CLOCK:
		snprintf(buf, size, "the CPU clock of a process cannot be read (%s)%s",
			 errmsg_short(f->err), then);
		break;
	case FACT_PROC_MODES:
		snprintf(buf, size,
			 "--task-counts=proc cannot count '%s': /proc counts user and kernel mode "
			 "together, never one mode alone%s, or drop the modifier",
			 f->name, then);
		break;
	}
}

/* What counts processes instead, for the end of a sentence on why a way was not used. */
static const char *fact_instead(const struct fact *f)
{
	switch (f->way.instead) {
	case FACT_COUNTS_PROC:
		return "; task counts from /proc instead";
	case FACT_COUNTS_BPF:
		return "; processes by BPF instead";
	default:
		return "; counting per thread instead";
	}
}

/*
 * Why BPF counting is not used, step by step, with the way out; the run
 * goes on another way. Asked for (--bpf, --task-counts=bpf) the sentence
 * names the option; chosen by auto it says "BPF counting".
 */
static void fact_bpf(char *buf, size_t size, const struct fact *f)
{
	const char *per = fact_instead(f);
	const char *lead = f->way.asked ? "--bpf" : "BPF counting";
	const char *perm = "BPF counting needs root, or the capabilities CAP_BPF and CAP_PERFMON "
			   "(setcap cap_bpf,cap_perfmon+ep on the pmctop binary)";
	int err = fact_abs(f->err);
	const char *sym = errmsg_errno_name(err);
	int step = f->way.step;
	char e[128], why[800];

	snprintf(e, sizeof(e), "%s%s%s", sym ? sym : "", sym ? ": " : "", strerror(err));
	if (step == FACT_BPF_PERM) {
		/* known before trying: the capabilities are not there */
		snprintf(buf, size, "BPF: not permitted (needs CAP_BPF and CAP_PERFMON, or root)%s",
			 per);
		return;
	}
	if ((err == EPERM || err == EACCES) &&
	    (step == FACT_BPF_MAP || step == FACT_BPF_LOAD || step == FACT_BPF_ATTACH ||
	     step == FACT_BPF_TEST_RUN)) {
		snprintf(buf, size, "%s is not permitted: the kernel refused BPF (%s); %s%s", lead,
			 e, perm, per);
		return;
	}
	switch (step) {
	case FACT_BPF_NOT_BUILT:
		snprintf(buf, size,
			 "%s is not available: this pmctop was built without it (configure "
			 "--disable-bpf, or the build machine had no clang for the bpf target, "
			 "bpftool or libbpf)%s",
			 lead, per);
		break;
	case FACT_BPF_POSSIBLE:
		snprintf(buf, size,
			 "%s cannot be used: the possible CPUs cannot be read from sysfs "
			 "(devices/system/cpu/possible: %s)%s",
			 lead, e, per);
		break;
	case FACT_BPF_MAP:
		if (err == ENOSYS)
			snprintf(buf, size,
				 "%s cannot be used: this kernel has no bpf() system call "
				 "(CONFIG_BPF_SYSCALL)%s",
				 lead, per);
		else
			snprintf(buf, size, "%s cannot be used: creating a BPF map failed (%s)%s",
				 lead, e, per);
		break;
	case FACT_BPF_EVENT:
		snprintf(buf, size, "%s cannot be used: %s on CPU %lld%s", lead,
			 errmsg_perf(why, sizeof(why), f->err, f->name, f->paranoid), f->way.cpu,
			 per);
		break;
	case FACT_BPF_ARRAY:
		snprintf(buf, size,
			 "%s cannot be used: this kernel does not let BPF read the event '%s' "
			 "(its perf event array refused it: %s)%s",
			 lead, f->name, e, per);
		break;
	case FACT_BPF_LOAD:
		snprintf(buf, size,
			 "%s cannot be used: the kernel's BPF verifier refused pmctop's program "
			 "(%s%s%s)%s",
			 lead, e, f->name[0] ? "; it said: " : "", f->name, per);
		break;
	case FACT_BPF_ATTACH:
		snprintf(buf, size,
			 "%s cannot be used: attaching to the sched_switch tracepoint failed "
			 "(%s)%s",
			 lead, e, per);
		break;
	case FACT_BPF_TEST_RUN:
		snprintf(
			buf, size,
			"%s cannot be used: this kernel cannot run a BPF program on a chosen CPU "
			"(%s; raw tracepoint programs get BPF_F_TEST_RUN_ON_CPU in Linux 5.10), so "
			"a task that never leaves its CPU would never be counted%s",
			lead, e, per);
		break;
	case FACT_BPF_READ:
		snprintf(buf, size,
			 "reading the BPF counts failed (%s): process counts are missing this "
			 "tick",
			 e);
		break;
	case FACT_BPF_HYBRID:
		snprintf(buf, size,
			 "%s cannot be used on a machine with several core PMUs (hybrid CPUs)%s",
			 lead, per);
		break;
	case FACT_BPF_NO_PROCS:
		snprintf(
			buf, size,
			"--bpf counts processes, and --cgroups with -b or --listen counts none, so "
			"--bpf has no effect here (ask for processes too, with -p or -u, or drop "
			"--bpf)");
		break;
	case FACT_BPF_KERNEL:
		snprintf(buf, size, "%s cannot be used: this kernel lacks %s (%s)%s", lead, f->name,
			 e, per);
		break;
	case FACT_BPF_EVENTS:
		snprintf(buf, size, "%s counts at most %d events per process, %lld were asked%s",
			 f->way.asked ? "--bpf" : "BPF", 16, f->way.events, per);
		break;
	default:
		snprintf(buf, size, "%s cannot be used (%s)%s", lead, e, per);
		break;
	}
}

const char *fact_text(char *buf, size_t size, const struct fact *f)
{
	char adv[320], why[800];
	int err = fact_abs(f->err);

	switch (f->what) {
	case FACT_EVENT:
		return errmsg_perf(buf, size, f->err, f->name, f->paranoid);
	case FACT_BPF:
		fact_bpf(buf, size, f);
		break;
	case FACT_PROC_COUNTS:
		fact_proc_counts(buf, size, f);
		break;
	case FACT_NO_EVENT:
		snprintf(buf, size, "no event can be counted on this machine: %s",
			 errmsg_perf(why, sizeof(why), f->err, f->name, f->paranoid));
		break;
	case FACT_ROOT:
		snprintf(buf, size, "cannot open '%s': %s", f->name, strerror(err));
		break;
	case FACT_TASKS:
		if (err == EACCES && f->tasks.owner >= 0 && f->tasks.owner != f->tasks.uid)
			fact_tasks_foreign(buf, size, f);
		else if (err == EACCES || err == EPERM)
			snprintf(buf, size,
				 "some processes cannot be counted: permission denied; %s",
				 errmsg_permission_advice(adv, sizeof(adv), f->paranoid));
		else if (err == EMFILE || err == ENFILE)
			snprintf(buf, size,
				 "out of file descriptors: some processes are not counted; raise "
				 "'ulimit -n' or watch fewer processes with -p or -u");
		else
			snprintf(buf, size, "some processes cannot be counted: %s",
				 errmsg_short(err));
		break;
	case FACT_CPUS:
		if (err == EACCES || err == EPERM)
			snprintf(buf, size, "per-core counters: %s",
				 errmsg_permission_advice(adv, sizeof(adv), f->paranoid));
		else
			snprintf(buf, size, "per-core counters: %s", errmsg_short(err));
		break;
	case FACT_CPU_OFFLINE:
		snprintf(buf, size, "CPU %lld went offline", f->cpu.cpu);
		break;
	case FACT_CPU_ONLINE:
		snprintf(buf, size, "CPU %lld is online: counting it again", f->cpu.cpu);
		break;
	case FACT_CPU_BACK:
		snprintf(buf, size, "CPU %lld went offline and came back: counting it again",
			 f->cpu.cpu);
		break;
	case FACT_NO_PMU:
		why[0] = '\0';
		if (f->err)
			errmsg_perf(why, sizeof(why), f->err, f->name, f->paranoid);
		fact_no_pmu(buf, size, why, &f->virt);
		break;
	case FACT_SAMPLE_TASK:
		snprintf(buf, size, "no process with pid %lld", f->sample.pid);
		break;
	case FACT_SAMPLE_CPUS:
		snprintf(buf, size, "cannot find the online CPUs");
		break;
	case FACT_SAMPLE_PEBS:
	case FACT_SAMPLE_IBS:
		fact_note(buf, size, f);
		break;
	case FACT_SAMPLE:
		snprintf(buf, size, "cannot sample pid %lld: '%s': %s", f->sample.pid,
			 f->name[0] ? f->name : "no event",
			 fact_sample_reason(why, sizeof(why), f));
		break;
	case FACT_SAMPLE_FDS:
		snprintf(buf, size,
			 "cannot sample: it needs %lld file descriptors (threads x CPUs x events), "
			 "more than the limit leaves after counting; raise 'ulimit -n', or watch "
			 "fewer processes with -p or -u",
			 f->sample_fds.fds);
		break;
	case FACT_CGROUP_MOUNT:
		if (err == ENOENT)
			snprintf(buf, size,
				 "no cgroup v2 hierarchy is mounted (no cgroup2 line in '%s'): "
				 "cgroups are not counted",
				 f->name);
		else
			snprintf(buf, size,
				 "cannot open the cgroup v2 hierarchy at '%s': %s; cgroups are not "
				 "counted",
				 f->name, strerror(err));
		break;
	case FACT_CGROUPS:
		if (err == EACCES || err == EPERM)
			snprintf(buf, size,
				 "cgroups cannot be counted: their counters are per-core ones; %s",
				 errmsg_permission_advice(adv, sizeof(adv), f->paranoid));
		else if (err == EMFILE || err == ENFILE)
			snprintf(
				buf, size,
				"out of file descriptors: %lld cgroup%s not counted; raise 'ulimit "
				"-n' or count fewer with --cgroup-depth or --cgroup",
				f->cgroups.left_out, f->cgroups.left_out == 1 ? " is" : "s are");
		else
			snprintf(buf, size, "the cgroup '%s' cannot be counted: %s", f->name,
				 errmsg_short(err));
		break;
	case FACT_CGROUP_MISSING:
		snprintf(
			buf, size,
			"there is no cgroup '%s' in the cgroup v2 hierarchy: it is counted when it "
			"appears",
			f->name);
		break;
	case FACT_CGROUP_COST:
		snprintf(buf, size,
			 "counting %lld cgroup%s takes %lld file descriptors (CPUs x events x "
			 "cgroups)",
			 f->cgroup_cost.cgroups, f->cgroup_cost.cgroups == 1 ? "" : "s",
			 f->cgroup_cost.fds);
		break;
	case FACT_STARVED:
		snprintf(buf, size,
			 "the group '%s' never got the counters it needs in %lld ticks "
			 "while its processes ran (other users, the NMI watchdog or per-core "
			 "counters "
			 "hold them): %s",
			 f->name, f->starved.ticks,
			 f->starved.unpacked ? "split into the groups it was packed from"
					     : "split in two");
		break;
	case FACT_KTHREADS:
		snprintf(buf, size,
			 "kernel threads are listed but not counted: they run in kernel mode "
			 "only, which kernel.perf_event_paranoid %d does not let pmctop count "
			 "(their "
			 "user-mode counts would always be 0); %s",
			 f->paranoid, errmsg_permission_advice(adv, sizeof(adv), f->paranoid));
		break;
	case FACT_HW_TOP:
		if (f->hw_top.busiest)
			snprintf(buf, size,
				 "hardware events are counted for the %lld busiest processes "
				 "(--hw-top), chosen again by CPU time every 5 ticks; the others "
				 "count software events alone and show '-' in hardware columns",
				 f->hw_top.busiest);
		else
			snprintf(buf, size,
				 "the file descriptors do not hold hardware counters for every "
				 "thread: the busiest processes that fit get them, chosen again by "
				 "CPU time every 5 ticks; the others count software events alone "
				 "and "
				 "show '-' in hardware columns; raise 'ulimit -n', or choose how "
				 "many "
				 "with --hw-top");
		break;
	case FACT_PARTIAL:
		if (f->err == -EINPROGRESS) {
			snprintf(buf, size,
				 "'%s' (pid %lld) started threads while its %lld threads were "
				 "attached over several ticks: those started by threads not yet "
				 "attached are not counted, so its counts are scaled to its CPU "
				 "time "
				 "and marked * as estimates",
				 f->name, f->partial.pid, f->partial.counted);
			break;
		}
		snprintf(buf, size,
			 "'%s' (pid %lld) has %lld threads and the file descriptors left fit %lld: "
			 "its busiest threads are counted, and its counts are scaled to its CPU "
			 "time and marked * as estimates; raise 'ulimit -n' to count every thread",
			 f->name, f->partial.pid, f->partial.total, f->partial.counted);
		break;
	case FACT_USER_SWITCHES:
		snprintf(buf, size,
			 "kernel-mode work cannot be counted (kernel.perf_event_paranoid is %d): "
			 "context switches are read from /proc/PID/task/*/status (n/a in an "
			 "interval "
			 "in which a thread exits), CPU migrations cannot be counted",
			 f->paranoid);
		break;
	case FACT_ONE_PMU:
		snprintf(buf, size,
			 "'%s' is counted on %s only%s: a task's time on the other core PMUs is "
			 "missing from it, so its values are scaled up from the time on %s and "
			 "marked *",
			 f->name, f->one_pmu.pmu,
			 f->one_pmu.no_extended ? " (this kernel cannot open it once per core PMU)"
						: "",
			 f->one_pmu.pmu);
		break;
	case FACT_NO_INHERIT_THREAD:
		snprintf(buf, size,
			 "this kernel cannot count threads apart from forked processes "
			 "(attr.inherit_thread needs Linux 5.13): a process's row includes the "
			 "children it forks while pmctop watches");
		break;
	default:
		snprintf(buf, size, "%s%s%s", f->name, f->name[0] ? ": " : "", strerror(err));
		break;
	}
	return buf;
}

const char *fact_sample_error(char *buf, size_t size, const struct fact *f,
			      const struct fact_notes *notes)
{
	char tried[1100], last[1100];

	if (f->what != FACT_SAMPLE || !notes || !notes->n)
		return fact_text(buf, size, f);
	/* the last source's reason first: it is the one the way out is for */
	snprintf(buf, size, "%s (tried before: %s)", fact_text(last, sizeof(last), f),
		 fact_notes(tried, sizeof(tried), notes));
	return buf;
}

const char *fact_sampling(char *buf, size_t size, int pid, const char *kind, const char *meaning,
			  const struct fact_notes *notes)
{
	char tried[1100];

	fact_notes(tried, sizeof(tried), notes);
	snprintf(buf, size, "sampling pid %d with %s: %s%s%s", pid, kind, meaning,
		 tried[0] ? "; not used: " : "", tried);
	return buf;
}
