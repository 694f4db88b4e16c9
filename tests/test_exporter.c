/* Tests of the exporter: the renderer on replayed models, the request parser, a served request. */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "model/model.h"
#include "out/exporter.h"
#include "out/exposition.h"
#include "stream/source_replay.h"
#include "util/utf8.h"
#include "testutil.h"

/* Fixed costs, so the rendering is the same on every machine. */
static struct exposition_info test_info(size_t top)
{
	struct exposition_info in = {
		.version = "9.9",
		.mode = NULL,
		.hw_pmu = "skl",
		.top_processes = top,
		.self = { 1.5, 4096 * 1000, 12, 1024 },
	};

	return in;
}

/* Replay the recording (a file under tests/data, or text when it starts with "pmctop-") and
 * render the model after its last tick. */
static char *render_rec(const char *rec, enum exposition_format fmt, size_t top)
{
	char path[512], err[256], *buf = NULL;
	size_t len = 0;
	FILE *in, *out;
	struct source *src;
	struct model *m;
	struct snapshot s;
	struct exposition *x;
	struct exposition_info info = test_info(top);

	if (!strncmp(rec, "pmctop-", 7)) {
		in = fmemopen((void *)rec, strlen(rec), "r");
	} else {
		snprintf(path, sizeof(path), "%s/data/%s", TEST_SRCDIR, rec);
		in = fopen(path, "r");
	}
	ck_assert_ptr_nonnull(in);
	src = source_replay_new(in, "test.rec", err, sizeof(err));
	ck_assert_msg(src != NULL, "%s", err);
	m = model_new(&src->ev);
	x = exposition_new(src->ev.n);
	snapshot_init(&s, src->ev.n);
	while (source_read(src, &s) == 0) {
		model_update(m, &s);
		exposition_update(x, m);
	}
	info.mode = src->mode;
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(exposition_render(x, out, fmt, m, &info), 0);
	fclose(out);
	snapshot_release(&s);
	exposition_free(x);
	model_free(m);
	source_free(src);
	return buf;
}

static void has(const char *text, const char *line)
{
	ck_assert_msg(strstr(text, line) != NULL, "missing \"%s\" in:\n%s", line, text);
}

static void hasnt(const char *text, const char *part)
{
	ck_assert_msg(strstr(text, part) == NULL, "unexpected \"%s\" in:\n%s", part, text);
}

START_TEST(test_golden_prometheus_text_of_the_hardware_recording)
{
	char *s = render_rec("hw.rec", EXPOSITION_PROMETHEUS, 2);

	testutil_golden("hw.prom", s);
	/* the raw cumulative counts of the last tick, as recorded */
	has(s, "\npmctop_cpu_event_count_total{cpu=\"0\",pmu=\"skl\",event=\"cycles\"} "
	       "5600000000\n");
	has(s, "\npmctop_cpu_event_enabled_seconds_total{cpu=\"1\",pmu=\"software\","
	       "event=\"page-faults\"} 2.000000000\n");
	has(s, "\n# TYPE pmctop_cpu_event_count_total counter\n");
	has(s, "\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.5\n");
	has(s, "\nprocess_max_fds 1024\n");
	hasnt(s, "# EOF");
	hasnt(s, "# UNIT");
	free(s);
}
END_TEST

/* Per cgroup: raw counts summed over the CPUs, labelled with the path; none for a cgroup not counted. */
START_TEST(test_golden_cgroups)
{
	char *s = render_rec("cgroup.rec", EXPOSITION_OPENMETRICS, 0);
	char *p = render_rec("cgroup.rec", EXPOSITION_PROMETHEUS, 0);
	char *hw = render_rec("hw.rec", EXPOSITION_PROMETHEUS, 0);

	testutil_golden("cgroup.om", s);
	/* 3 s of 2500 faults a second; enabled while the cgroup ran: 0.9 s a second */
	has(s, "\npmctop_cgroup_event_count_total{cgroup=\"/system.slice/db.service\","
	       "pmu=\"software\",event=\"page-faults\"} 7500\n");
	has(s, "\npmctop_cgroup_event_enabled_seconds_total{cgroup=\"/system.slice/db.service\","
	       "pmu=\"software\",event=\"page-faults\"} 2.700000000\n");
	has(s, "\n# TYPE pmctop_cgroup_event_count counter\n");
	has(s, "\n# UNIT pmctop_cgroup_event_running_seconds seconds\n");
	has(s, "\npmctop_cgroups 4\n");
	hasnt(s, "cgroup=\"/web.slice\""); /* not counted: no series, still in the gauge */
	hasnt(s, "event=\"cycles\"}");	   /* not supported here: no series either */
	has(p, "\n# TYPE pmctop_cgroup_event_count_total counter\n");
	/* a recording without cgroups has no cgroup families */
	hasnt(hw, "pmctop_cgroup");
	free(s);
	free(p);
	free(hw);
}
END_TEST

START_TEST(test_golden_openmetrics_of_the_hardware_recording)
{
	char *s = render_rec("hw.rec", EXPOSITION_OPENMETRICS, 2);
	size_t n = strlen(s);

	testutil_golden("hw.om", s);
	/* families are named without _total; samples keep it; info is a type of its own */
	has(s, "\n# TYPE pmctop_cpu_event_count counter\n");
	has(s, "\npmctop_cpu_event_count_total{cpu=\"0\",pmu=\"skl\",event=\"cycles\"} "
	       "5600000000\n");
	has(s, "# TYPE pmctop_build info\npmctop_build_info{version=\"9.9\"} 1\n");
	has(s, "\n# UNIT pmctop_cpu_event_running_seconds seconds\n");
	ck_assert(n > 6 && !strcmp(s + n - 6, "# EOF\n"));
	free(s);
}
END_TEST

/* The non-idle time of each CPU, from /proc/stat's clock ticks: what GHz and busy % are over. */
START_TEST(test_busy_seconds_of_each_cpu)
{
	char *s = render_rec("hw.rec", EXPOSITION_OPENMETRICS, 0);
	char line[128];
	long hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;

	has(s,
	    "\n# TYPE pmctop_cpu_busy_seconds counter\n# UNIT pmctop_cpu_busy_seconds seconds\n");
	/* cpu 0 was busy 90 then 100 ticks of 100, cpu 1 95 and 95 */
	snprintf(line, sizeof(line), "\npmctop_cpu_busy_seconds_total{cpu=\"0\"} %.9g\n",
		 190.0 / hz);
	has(s, line);
	snprintf(line, sizeof(line), "\npmctop_cpu_busy_seconds_total{cpu=\"1\"} %.9g\n",
		 190.0 / hz);
	has(s, line);
	free(s);
}
END_TEST

START_TEST(test_every_family_has_help_and_type_before_its_samples)
{
	char *s = render_rec("hw.rec", EXPOSITION_PROMETHEUS, 3);
	char *save = NULL, *line, last[128] = "";

	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		size_t len = strcspn(line, "{ ");

		if (line[0] == '#') {
			char kind[8];

			ck_assert_int_eq(sscanf(line, "# %7s %127s", kind, name), 2);
			if (!strcmp(kind, "HELP"))
				snprintf(last, sizeof(last), "%s", name);
			else
				ck_assert_str_eq(name, last); /* TYPE right after its HELP */
			continue;
		}
		ck_assert(len < sizeof(name));
		memcpy(name, line, len);
		name[len] = '\0';
		ck_assert_msg(!strcmp(name, last), "sample %s after the HELP of %s", name, last);
		/* name{labels} value: no timestamp */
		ck_assert_msg(
			!strchr(strrchr(line, '}') ? strrchr(line, '}') + 2 : line + len + 1, ' '),
			"a timestamp or extra field: %s", line);
	}
	free(s);
}
END_TEST

START_TEST(test_software_recording_says_hardware_events_are_not_supported)
{
	char *s = render_rec("sw.rec", EXPOSITION_PROMETHEUS, 0);

	has(s, "pmctop_event_status{event=\"page-faults\",pmu=\"software\","
	       "status=\"counted\"} 1\n");
	has(s, "pmctop_event_status{event=\"cycles\",pmu=\"skl\",status=\"not_supported\","
	       "reason=\"not supported\"} 1\n");
	/* no series for what was never counted, and none per process unless asked */
	hasnt(s, "event=\"cycles\"} ");
	hasnt(s, "pmctop_process_event");
	hasnt(s, "pmctop_processes_omitted");
	has(s, "pmctop_cpu_event_count_total{cpu=\"1\",pmu=\"software\",event=\"page-faults\"}");
	free(s);
}
END_TEST

START_TEST(test_task_clock_counted_per_process_is_counted_not_unsupported)
{
	/* a CPU has no task-clock: the CPUs fail it, the processes count it and it is served */
	char *s = render_rec("sw.rec", EXPOSITION_PROMETHEUS, 3);

	has(s, "pmctop_event_status{event=\"task-clock\",pmu=\"software\","
	       "status=\"counted\"} 1\n");
	hasnt(s, "event=\"task-clock\",pmu=\"software\",status=\"not_supported\"");
	has(s, "pmu=\"software\",event=\"task-clock\"} ");
	free(s);
}
END_TEST

/* One CPU: cycles multiplexed, instructions ran and counted 0, cache-misses never ran. */
static const char STATUS_REC[] =
	"pmctop-recording 1\n"
	"mode hardware events (test)\n"
	"event 0 0 sw default ok task-clock\n"
	"event 1 1 hw default ok cycles\n"
	"event 2 2 hw default ok instructions\n"
	"event 3 3 hw default ok cache-misses\n"
	"event 4 4 hw default ENOENT branches\n"
	"tick 1000000000 1763770000.0 0 0 0\n"
	"cpu 0 0 0 0/0/0 0/0/0 0/0/0 0/0/0 -ENOENT\n"
	"end\n"
	"tick 2000000000 1763770001.0 0 0 0\n"
	"cpu 0 100 100 1000/1000000000/1000000000 500/1000000000/500000000 "
	"0/1000000000/1000000000 0/1000000000/0 -ENOENT\n"
	"end\n";

START_TEST(test_statuses_of_the_last_interval)
{
	char *s = render_rec(STATUS_REC, EXPOSITION_PROMETHEUS, 0);

	has(s, "{event=\"task-clock\",pmu=\"software\",status=\"counted\"} 1\n");
	has(s, "{event=\"cycles\",pmu=\"skl\",status=\"multiplexed\"} 1\n");
	has(s, "{event=\"instructions\",pmu=\"skl\",status=\"suspect_zero\",reason=");
	has(s, "{event=\"cache-misses\",pmu=\"skl\",status=\"never_ran\",reason=");
	has(s, "{event=\"branches\",pmu=\"skl\",status=\"not_supported\","
	       "reason=\"not supported\"}");
	/* the times that let PromQL scale: cycles ran half the time it was enabled */
	has(s, "pmctop_cpu_event_enabled_seconds_total{cpu=\"0\",pmu=\"skl\",event=\"cycles\"} "
	       "1.000000000\n");
	has(s, "pmctop_cpu_event_running_seconds_total{cpu=\"0\",pmu=\"skl\",event=\"cycles\"} "
	       "0.500000000\n");
	free(s);
}
END_TEST

START_TEST(test_top_processes_by_cpu_and_how_many_were_left_out)
{
	char *s = render_rec("hw.rec", EXPOSITION_PROMETHEUS, 1);

	/* pid 202 and 101 are the busiest of the last tick; K = 1 keeps one, and 404 is not
	 * counted, so four of the five are left out */
	has(s, "pmctop_process_event_count_total{pid=\"202\",comm=\"stream\",pmu=\"skl\","
	       "event=\"cycles\"} 5700000000\n");
	hasnt(s, "pid=\"101\"");
	hasnt(s, "pid=\"404\"");
	has(s, "\npmctop_processes_omitted 4\n");
	free(s);
}
END_TEST

static char *label(const char *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	exposition_label_value(f, v);
	fclose(f);
	return buf;
}

START_TEST(test_label_values_are_escaped_and_safe)
{
	static const struct {
		int line;
		const char *in, *out;
	} cases[] = {
		{ __LINE__, "plain", "\"plain\"" },
		{ __LINE__, "a\\b", "\"a\\\\b\"" },
		{ __LINE__, "say \"hi\"", "\"say \\\"hi\\\"\"" },
		{ __LINE__, "two\nlines", "\"two\\\\x0alines\"" },
		{ __LINE__, "esc\x1b[2Jx", "\"esc\\\\x1b[2Jx\"" },
		{ __LINE__, "bad\xff", "\"bad\\\\xff\"" },
		{ __LINE__, "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ __LINE__, "rtl\xe2\x80\xaex", "\"rtl\\\\xe2\\\\x80\\\\xaex\"" },
		/* systemd's own escapes name no unsafe byte: kept as they are */
		{ __LINE__, "systemd\\x2dcryptsetup.slice", "\"systemd\\\\x2dcryptsetup.slice\"" },
		/* the text of an escape is told from the byte by its doubled backslash */
		{ __LINE__, "lit\\x1b", "\"lit\\\\\\\\x1b\"" },
		{ __LINE__, "", "\"\"" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = label(cases[i].in);

		ck_assert_msg(!strcmp(got, cases[i].out), "line %d: got %s", cases[i].line, got);
		free(got);
	}
}
END_TEST

/* A label value back to the name: the format's escapes, then textsafe's \\ and \xHH. */
static size_t unlabel(const char *l, char *out)
{
	char mid[512];
	size_t m = 0, n = 0;

	ck_assert(*l++ == '"');
	for (; *l != '"'; l++) {
		ck_assert(*l);
		if (*l == '\\') {
			l++;
			ck_assert(*l == '\\' || *l == '"');
		}
		mid[m++] = *l;
	}
	ck_assert(!strcmp(l, "\""));
	for (size_t i = 0; i < m; i++) {
		unsigned v;

		if (mid[i] == '\\' && i + 1 < m && mid[i + 1] == '\\') {
			out[n++] = '\\';
			i++;
		} else if (mid[i] == '\\' && i + 3 < m && mid[i + 1] == 'x' &&
			   strspn(mid + i + 2, "0123456789abcdef") >= 2 &&
			   sscanf(mid + i + 2, "%2x", &v) == 1 && (v < 0x20 || v >= 0x7f)) {
			out[n++] = (char)v;
			i += 3;
		} else {
			out[n++] = mid[i];
		}
	}
	out[n] = '\0';
	return n;
}

START_TEST(test_label_values_never_merge_two_names)
{
	/* names a lossy escaping ('?', '_', U+FFFD) makes one: they differ only where it replaced */
	static const char *const names[] = {
		"/a.slice/x",
		"/a.slice/x\x1b",
		"/a.slice/x\x07",
		"/a.slice/x\x9b",
		"/a.slice/x\xc2\x9b",
		"/a.slice/x\xff",
		"/a.slice/x\xfe",
		"/a.slice/x?",
		"/a.slice/x_",
		"/a.slice/x\xef\xbf\xbd",
		"/a.slice/x\\x1b",
		"/a.slice/x\\\x1b",
		"/a.slice/x\\",
		"/a.slice/x\\\\",
		"/a.slice/x\\xff",
		"/a.slice/x\\x2d",
		"/a.slice/x-",
		"/a.slice/x\n",
		"/a.slice/x\\n",
		"/a.slice/x\\\\x1b",
		"/a.slice/x\xe2\x80\xae",
		"/a.slice/x\\xe2\\x80\\xae",
		"/a.slice/x\"",
		"/a.slice/x\\\"",
		"/a.slice/x\x7f",
		"/a.slice/x\\x7f",
		"/a.slice/x\xc3",
		"/a.slice/x\xc3\xa9",
	};
	size_t n = sizeof(names) / sizeof(names[0]);
	char *l[sizeof(names) / sizeof(names[0])];

	for (size_t i = 0; i < n; i++) {
		char back[512];
		const unsigned char *p;

		l[i] = label(names[i]);
		/* the name comes back whole: the escaping is reversible, so injective */
		unlabel(l[i], back);
		ck_assert_msg(!strcmp(back, names[i]), "%zu: %s gave back %s", i, l[i], back);
		/* valid UTF-8 without a control character, as the formats and a terminal want */
		p = (const unsigned char *)l[i];
		for (size_t left = strlen(l[i]), k; left; p += k, left -= k) {
			int32_t cp = utf8_decode(p, left, &k);

			ck_assert_msg(cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0),
				      "%zu: %s", i, l[i]);
		}
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(strcmp(l[i], l[j]), "%zu and %zu are both %s", i, j, l[i]);
	}
	for (size_t i = 0; i < n; i++)
		free(l[i]);
}
END_TEST

#define TEXT EXPOSITION_PROMETHEUS
#define OM EXPOSITION_OPENMETRICS

START_TEST(test_requests)
{
	static const char PROM_ACCEPT[] =
		"Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		"version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n";
	static const struct {
		int line;
		const char *req;
		int status;
		enum exposition_format fmt;
	} cases[] = {
		{ __LINE__, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 200, TEXT },
		{ __LINE__, "HEAD /metrics HTTP/1.0\r\n\r\n", 200, TEXT },
		{ __LINE__, "GET /metrics?x=1 HTTP/1.1\n\n", 200, TEXT },
		{ __LINE__, "GET /metrics HTTP/1.1\r\nHost: x\r\n", 0, TEXT },
		{ __LINE__, "GET /metr", 0, TEXT },
		{ __LINE__, "POST /metrics HTTP/1.1\r\n\r\n", 405, TEXT },
		{ __LINE__, "GET / HTTP/1.1\r\n\r\n", 404, TEXT },
		{ __LINE__, "GET /metricsx HTTP/1.1\r\n\r\n", 404, TEXT },
		{ __LINE__, "GET /metrics HTTP/2.0\r\n\r\n", 505, TEXT },
		{ __LINE__, "GET /metrics\r\n\r\n", 400, TEXT },
		{ __LINE__, "GET  /metrics HTTP/1.1\r\n\r\n", 400, TEXT },
		{ __LINE__, "GET /metrics HTTP/1.1\r\n folded\r\n\r\n", 400, TEXT },
		{ __LINE__, "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", 400, TEXT },
		{ __LINE__, "G\x01T /metrics HTTP/1.1\r\n\r\n", 400, TEXT },
		{ __LINE__, "GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text\r\n\r\n",
		  200, OM },
		{ __LINE__,
		  "GET /metrics HTTP/1.1\r\naccept: Application/OpenMetrics-Text; "
		  "version=1.0.0\r\n\r\n",
		  200, OM },
		{ __LINE__, "GET /metrics HTTP/1.1\r\nAccept: */*\r\n\r\n", 200, TEXT },
		{ __LINE__,
		  "GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text;"
		  "q=0\r\n\r\n",
		  200, TEXT },
		{ __LINE__,
		  "GET /metrics HTTP/1.1\r\nAccept: text/plain;q=0.5, "
		  "application/openmetrics-text;q=0.4\r\n\r\n",
		  200, TEXT },
		{ __LINE__,
		  "GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text;"
		  "version=9.9\r\n\r\n",
		  200, TEXT },
		{ __LINE__,
		  "GET /metrics HTTP/1.1\r\nAccept: application/json\r\n"
		  "Accept: application/openmetrics-text\r\n\r\n",
		  200, OM },
	};
	char prom[512];
	struct exporter_request req;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = exporter_parse_request(cases[i].req, strlen(cases[i].req), &req);

		ck_assert_msg(st == cases[i].status, "line %d: status %d", cases[i].line, st);
		if (st == 200)
			ck_assert_msg(req.fmt == cases[i].fmt, "line %d: format %d", cases[i].line,
				      req.fmt);
	}
	/* what Prometheus itself sends */
	snprintf(prom, sizeof(prom), "GET /metrics HTTP/1.1\r\nHost: a\r\n%s\r\n", PROM_ACCEPT);
	ck_assert_int_eq(exporter_parse_request(prom, strlen(prom), &req), 200);
	ck_assert_int_eq(req.fmt, EXPOSITION_OPENMETRICS);
	ck_assert_int_eq(req.method, EXPORTER_GET);
	/* a NUL in the head is malformed, complete or not */
	ck_assert_int_eq(exporter_parse_request("GET /\0", 6, &req), 400);
}
END_TEST

#undef TEXT
#undef OM

START_TEST(test_listen_addresses)
{
	static const struct {
		int line;
		const char *spec;
		int family; /* 0: rejected */
		const char *ip;
		unsigned port;
	} cases[] = {
		{ __LINE__, "10185", AF_INET, "127.0.0.1", 10185 },
		{ __LINE__, "0", AF_INET, "127.0.0.1", 0 },
		{ __LINE__, "0.0.0.0:9", AF_INET, "0.0.0.0", 9 },
		{ __LINE__, "localhost:80", AF_INET, "127.0.0.1", 80 },
		{ __LINE__, "[::1]:10185", AF_INET6, "::1", 10185 },
		{ __LINE__, "[::]:1", AF_INET6, "::", 1 },
		{ __LINE__, "", 0, NULL, 0 },
		{ __LINE__, ":80", 0, NULL, 0 },
		{ __LINE__, "::1:80", 0, NULL, 0 },
		{ __LINE__, "[::1]80", 0, NULL, 0 },
		{ __LINE__, "[::1]:", 0, NULL, 0 },
		{ __LINE__, "1.2.3:80", 0, NULL, 0 },
		{ __LINE__, "example.org:80", 0, NULL, 0 },
		{ __LINE__, "65536", 0, NULL, 0 },
		{ __LINE__, "-1", 0, NULL, 0 },
		{ __LINE__, "80x", 0, NULL, 0 },
		{ __LINE__, "127.0.0.1:000080", 0, NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sockaddr_storage ss;
		socklen_t len;
		char err[256] = "", ip[64];
		int r = exporter_parse_listen(cases[i].spec, &ss, &len, err, sizeof(err));

		if (!cases[i].family) {
			ck_assert_msg(r == -EINVAL && err[0], "line %d: accepted", cases[i].line);
			continue;
		}
		ck_assert_msg(r == 0, "line %d: %s", cases[i].line, err);
		ck_assert_int_eq(ss.ss_family, cases[i].family);
		if (ss.ss_family == AF_INET) {
			const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &a->sin_addr, ip, sizeof(ip));
			ck_assert_uint_eq(ntohs(a->sin_port), cases[i].port);
		} else {
			const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof(ip));
			ck_assert_uint_eq(ntohs(a->sin6_port), cases[i].port);
		}
		ck_assert_msg(!strcmp(ip, cases[i].ip), "line %d: %s", cases[i].line, ip);
	}
}
END_TEST

/* Drive the exporter's side of the loop until the client's socket has an answer or closes. */
static void serve_until(struct exporter *x, int client)
{
	for (int round = 0; round < 200; round++) {
		struct pollfd pfd[EXPORTER_MAX_FDS + 1];
		size_t n = exporter_poll_fds(x, pfd, EXPORTER_MAX_FDS);

		pfd[n] = (struct pollfd){ .fd = client, .events = POLLIN };
		ck_assert_int_ge(poll(pfd, n + 1, 100), 0);
		exporter_handle(x, pfd, n);
		if (pfd[n].revents)
			return;
	}
	ck_abort_msg("no answer");
}

static int connect_to(const struct exporter *x)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unsigned port;

	ck_assert_int_eq(sscanf(exporter_address(x), "127.0.0.1:%u", &port), 1);
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Everything the server sends until it closes. */
static char *answer(struct exporter *x, int fd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (;;) {
		char chunk[4096];
		ssize_t n;

		serve_until(x, fd);
		n = recv(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
		if (n <= 0 && !(n < 0 && errno == EAGAIN))
			break;
		if (n > 0)
			fwrite(chunk, 1, (size_t)n, f);
	}
	fclose(f);
	return buf;
}

START_TEST(test_served_from_the_last_update_with_limits)
{
	char err[256], *got, *big;
	struct exporter *x = exporter_new("127.0.0.1:0", err, sizeof(err));
	struct source *src;
	struct model *m = testutil_replay_model("hw.rec", &src);
	struct exposition_info info = test_info(0);
	int fd;

	ck_assert_msg(x != NULL, "%s", err);
	/* before the first snapshot: 503, never a collection on demand */
	fd = connect_to(x);
	ck_assert_int_eq(send(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25, 0), 25);
	got = answer(x, fd);
	ck_assert_msg(!strncmp(got, "HTTP/1.1 503 ", 13), "%s", got);
	free(got);
	close(fd);

	info.mode = src->mode;
	exporter_update(x, m, &info);
	fd = connect_to(x);
	ck_assert_int_eq(send(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25, 0), 25);
	got = answer(x, fd);
	ck_assert_msg(!strncmp(got, "HTTP/1.1 200 OK\r\n", 17), "%s", got);
	has(got, "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n");
	has(got, "\r\n\r\n# HELP pmctop_build_info ");
	has(got, "pmctop_ticks_total 1\n");
	free(got);
	close(fd);

	/* a head over 8 KiB */
	fd = connect_to(x);
	big = malloc(EXPORTER_MAX_REQUEST + 100);
	memset(big, 'a', EXPORTER_MAX_REQUEST + 100);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	ck_assert_int_eq(send(fd, big, EXPORTER_MAX_REQUEST + 100, 0), EXPORTER_MAX_REQUEST + 100);
	got = answer(x, fd);
	ck_assert_msg(!strncmp(got, "HTTP/1.1 431 ", 13), "%s", got);
	free(got);
	free(big);
	close(fd);

	/* HEAD: the head alone, with the body's length */
	fd = connect_to(x);
	ck_assert_int_eq(send(fd, "HEAD /metrics HTTP/1.0\r\n\r\n", 26, 0), 26);
	got = answer(x, fd);
	ck_assert_msg(!strncmp(got, "HTTP/1.1 200 OK\r\n", 17), "%s", got);
	ck_assert(strlen(strstr(got, "\r\n\r\n")) == 4);
	free(got);
	close(fd);

	exporter_free(x);
	model_free(m);
	source_free(src);
}
END_TEST

START_TEST(test_a_connection_past_the_limit_evicts_the_oldest_reader)
{
	char err[256], *got;
	struct exporter *x = exporter_new("0", err, sizeof(err));
	struct source *src;
	struct model *m = testutil_replay_model("sw.rec", &src);
	struct exposition_info info = test_info(0);
	int idle[EXPORTER_MAX_CONNS], fd;
	char byte;

	ck_assert_msg(x != NULL, "%s", err);
	exporter_update(x, m, &info);
	for (int i = 0; i < EXPORTER_MAX_CONNS; i++) {
		struct pollfd pfd[EXPORTER_MAX_FDS];
		size_t n;

		idle[i] = connect_to(x);
		n = exporter_poll_fds(x, pfd, EXPORTER_MAX_FDS);
		ck_assert_int_ge(poll(pfd, n, 1000), 1);
		exporter_handle(x, pfd, n);
	}
	/* all 64 slots hold idle readers; one more is served, the first idle one is closed */
	fd = connect_to(x);
	ck_assert_int_eq(send(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25, 0), 25);
	got = answer(x, fd);
	ck_assert_msg(!strncmp(got, "HTTP/1.1 200 OK\r\n", 17), "%s", got);
	free(got);
	ck_assert_int_eq(recv(idle[0], &byte, 1, MSG_DONTWAIT), 0);
	ck_assert_int_eq(recv(idle[1], &byte, 1, MSG_DONTWAIT), -1);
	ck_assert_int_eq(errno, EAGAIN);
	close(fd);
	for (int i = 0; i < EXPORTER_MAX_CONNS; i++)
		close(idle[i]);
	exporter_free(x);
	model_free(m);
	source_free(src);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("exporter");
	TCase *tc = tcase_create("exporter");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_golden_prometheus_text_of_the_hardware_recording);
	tcase_add_test(tc, test_golden_openmetrics_of_the_hardware_recording);
	tcase_add_test(tc, test_golden_cgroups);
	tcase_add_test(tc, test_busy_seconds_of_each_cpu);
	tcase_add_test(tc, test_every_family_has_help_and_type_before_its_samples);
	tcase_add_test(tc, test_software_recording_says_hardware_events_are_not_supported);
	tcase_add_test(tc, test_task_clock_counted_per_process_is_counted_not_unsupported);
	tcase_add_test(tc, test_statuses_of_the_last_interval);
	tcase_add_test(tc, test_top_processes_by_cpu_and_how_many_were_left_out);
	tcase_add_test(tc, test_label_values_are_escaped_and_safe);
	tcase_add_test(tc, test_label_values_never_merge_two_names);
	tcase_add_test(tc, test_requests);
	tcase_add_test(tc, test_listen_addresses);
	tcase_add_test(tc, test_served_from_the_last_update_with_limits);
	tcase_add_test(tc, test_a_connection_past_the_limit_evicts_the_oldest_reader);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
