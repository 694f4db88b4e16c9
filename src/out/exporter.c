/* The /metrics endpoint: bounded, non-blocking, answered from the last tick, never collecting. */
#include "config.h"
#include "out/exporter.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "util/selfcost.h"
#include "util/xalloc.h"

/* After the answer, what the client still sends is read and dropped for this long, so the close
 * does not reset the connection before the answer is read; at most this many bytes. */
#define EXPORTER_LINGER_MS 1000
#define EXPORTER_LINGER_BYTES 65536
/* Accepting stops this long when the process is out of descriptors. */
#define EXPORTER_ACCEPT_PAUSE_MS 100

/* One rendering of the metrics, shared by the connections still sending it. */
struct exporter_body {
	unsigned refs;
	size_t len;
	char *data; /* owned */
};

enum exporter_state {
	EXPORTER_READING,   /* the request head */
	EXPORTER_WRITING,   /* the answer */
	EXPORTER_LINGERING, /* answered; dropping what the client still sends */
};

struct exporter_conn {
	int fd;
	enum exporter_state state;
	uint64_t seq;	   /* accept order: the oldest reader is evicted first */
	uint64_t deadline; /* monotonic ms */
	size_t reqlen;
	char head[256]; /* the status line and headers of the answer */
	size_t headlen, headoff;
	struct exporter_body *body;	/* a reference, NULL for none */
	size_t bodylen, bodyoff;	/* 0 for HEAD and errors without a body */
	size_t dropped;			/* bytes read while lingering */
	char req[EXPORTER_MAX_REQUEST]; /* last: only the part read is ever looked at */
};

struct exporter {
	int lfd;
	char addr[64];
	bool local; /* bound to a loopback address */
	struct exporter_conn *conns[EXPORTER_MAX_CONNS];
	size_t nconns;
	uint64_t seq;
	uint64_t accept_after;	       /* monotonic ms; 0: accepting */
	struct exporter_body *body[2]; /* per format; NULL before the first tick */
	struct exposition *expo;       /* NULL until the first update */
};

static uint64_t exporter_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- pure parsing ---- */

static int exporter_parse_port(const char *s, unsigned *port)
{
	unsigned long v = 0;

	if (!*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || p - s >= 5)
			return -EINVAL;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (v > 65535)
		return -EINVAL;
	*port = (unsigned)v;
	return 0;
}

int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen,
			  char *err, size_t errsize)
{
	char host[64];
	const char *port_s, *colon;
	unsigned port;

	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host)) {
			snprintf(err, errsize,
				 "invalid address '%s' for --listen: write an IPv6 "
				 "address as [ADDR]:PORT, e.g. [::1]:%d",
				 spec, EXPORTER_PORT);
			return -EINVAL;
		}
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		port_s = close + 2;
	} else if ((colon = strrchr(spec, ':'))) {
		if (colon == spec || (size_t)(colon - spec) >= sizeof(host) ||
		    memchr(spec, ':', (size_t)(colon - spec))) {
			snprintf(err, errsize,
				 "invalid address '%s' for --listen: give [ADDR:]PORT, e.g. %d, "
				 "127.0.0.1:%d or [::1]:%d (0.0.0.0:PORT for every interface)",
				 spec, EXPORTER_PORT, EXPORTER_PORT, EXPORTER_PORT);
			return -EINVAL;
		}
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		port_s = colon + 1;
	} else {
		snprintf(host, sizeof(host), "127.0.0.1");
		port_s = spec;
	}
	if (exporter_parse_port(port_s, &port)) {
		snprintf(err, errsize, "invalid port '%s' for --listen: give 0 to 65535", port_s);
		return -EINVAL;
	}
	if (!strcmp(host, "localhost"))
		snprintf(host, sizeof(host), "127.0.0.1");
	if (spec[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1) {
			snprintf(err, errsize, "invalid IPv6 address '%s' for --listen", host);
			return -EINVAL;
		}
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*sslen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
			snprintf(err, errsize,
				 "invalid address '%s' for --listen: give a numeric IPv4 address, "
				 "localhost, or [IPv6]; names are not looked up",
				 host);
			return -EINVAL;
		}
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		*sslen = sizeof(*a);
	}
	return 0;
}

static bool exporter_ieq(const char *a, size_t alen, const char *b)
{
	return alen == strlen(b) && !strncasecmp(a, b, alen);
}

static void exporter_trim(const char **s, const char **end)
{
	while (*s < *end && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*end > *s && ((*end)[-1] == ' ' || (*end)[-1] == '\t'))
		(*end)--;
}

/* q of one media range's parameters [p, end): 1 by default, 0 when it is not a number. */
static double exporter_range_q(const char *p, const char *end, bool *version_ok, bool om)
{
	double q = 1;

	*version_ok = true;
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p)), *pend = semi ? semi : end;
		const char *eq = memchr(p, '=', (size_t)(pend - p));
		const char *n = p, *nend = eq ? eq : pend, *v = eq ? eq + 1 : pend, *vend = pend;

		exporter_trim(&n, &nend);
		exporter_trim(&v, &vend);
		if (vend - v >= 2 && *v == '"' && vend[-1] == '"') {
			v++;
			vend--;
		}
		if (exporter_ieq(n, (size_t)(nend - n), "q")) {
			char num[8];
			char *e;
			size_t l = (size_t)(vend - v);

			if (!l || l >= sizeof(num))
				return 0;
			memcpy(num, v, l);
			num[l] = '\0';
			q = strtod(num, &e);
			if (*e || !(q >= 0) || q > 1)
				return 0;
		} else if (exporter_ieq(n, (size_t)(nend - n), "version")) {
			size_t l = (size_t)(vend - v);

			if (om)
				*version_ok =
					exporter_ieq(v, l, "1.0.0") || exporter_ieq(v, l, "0.0.1");
			else
				*version_ok = exporter_ieq(v, l, "0.0.4");
		}
		p = semi ? semi + 1 : end;
	}
	return q;
}

/* Weigh one Accept list into the best q of OpenMetrics and of the 0.0.4 text so far. */
static void exporter_weigh(const char *accept, size_t len, double *om, double *text)
{
	const char *p = accept, *end = accept + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *rend = comma ? comma : end;
		const char *semi = memchr(p, ';', (size_t)(rend - p));
		const char *t = p, *tend = semi ? semi : rend;
		bool is_om, is_text, version_ok;
		double q;

		exporter_trim(&t, &tend);
		is_om = exporter_ieq(t, (size_t)(tend - t), "application/openmetrics-text");
		is_text = exporter_ieq(t, (size_t)(tend - t), "text/plain") ||
			  exporter_ieq(t, (size_t)(tend - t), "text/*") ||
			  exporter_ieq(t, (size_t)(tend - t), "*/*");
		if (is_om || is_text) {
			q = exporter_range_q(semi ? semi + 1 : rend, rend, &version_ok, is_om);
			if (version_ok && is_om && q > *om)
				*om = q;
			if (version_ok && is_text && q > *text)
				*text = q;
		}
		p = comma ? comma + 1 : end;
	}
}

static enum exposition_format exporter_choose(double om, double text)
{
	return om > 0 && om >= text ? EXPOSITION_OPENMETRICS : EXPOSITION_PROMETHEUS;
}

enum exposition_format exporter_negotiate(const char *accept, size_t len)
{
	double om = 0, text = 0;

	exporter_weigh(accept, len, &om, &text);
	return exporter_choose(om, text);
}

/* The end of the line at p (its LF), or NULL; *next is the next line's start. */
static const char *exporter_line(const char *p, const char *end, const char **next)
{
	const char *lf = memchr(p, '\n', (size_t)(end - p));

	if (!lf)
		return NULL;
	*next = lf + 1;
	return lf > p && lf[-1] == '\r' ? lf - 1 : lf;
}

static bool exporter_tchar(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

int exporter_parse_request(const char *buf, size_t len, struct exporter_request *req)
{
	const char *p = buf, *end = buf + len, *next, *lend, *sp1, *sp2, *path_end;
	double om = 0, text = 0;

	memset(req, 0, sizeof(req[0]));
	req->method = EXPORTER_OTHER;
	req->fmt = EXPOSITION_PROMETHEUS;
	/* complete only with the empty line that ends the head */
	if (!memmem(buf, len, "\r\n\r\n", 4) && !memmem(buf, len, "\n\n", 2)) {
		if (memchr(buf, '\0', len))
			return 400;
		return 0;
	}
	if (memchr(buf, '\0', len))
		return 400;
	while (p < end && (*p == '\r' || *p == '\n')) /* empty lines before it are allowed */
		p++;
	lend = exporter_line(p, end, &next);
	if (!lend)
		return 0;
	sp1 = memchr(p, ' ', (size_t)(lend - p));
	sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(lend - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || sp1 == p || sp1 - p > 16 || sp2 == sp1 + 1 ||
	    memchr(sp2 + 1, ' ', (size_t)(lend - sp2 - 1)))
		return 400;
	for (const char *c = p; c < sp1; c++)
		if (!exporter_tchar(*c))
			return 400;
	for (const char *c = sp1 + 1; c < sp2; c++)
		if ((unsigned char)*c <= 0x20 || *c == 0x7f)
			return 400;
	if (lend - sp2 - 1 != 8 || memcmp(sp2 + 1, "HTTP/", 5))
		return 400;
	if (memcmp(sp2 + 1, "HTTP/1.0", 8) && memcmp(sp2 + 1, "HTTP/1.1", 8))
		return 505;
	if (sp1 - p == 3 && !memcmp(p, "GET", 3))
		req->method = EXPORTER_GET;
	else if (sp1 - p == 4 && !memcmp(p, "HEAD", 4))
		req->method = EXPORTER_HEAD;
	if (sp1[1] != '/')
		return 400;
	path_end = sp1 + 1;
	while (path_end < sp2 && *path_end != '?' && *path_end != '#')
		path_end++;
	req->metrics = path_end - sp1 - 1 == 8 && !memcmp(sp1 + 1, "/metrics", 8);
	/* the header fields, up to the empty line */
	for (p = next; (lend = exporter_line(p, end, &next)) && lend > p; p = next) {
		const char *colon = memchr(p, ':', (size_t)(lend - p)), *v, *vend = lend;

		if (!colon || colon == p)
			return 400; /* no name, or an obsolete folded line */
		for (const char *c = p; c < colon; c++)
			if (!exporter_tchar(*c))
				return 400;
		v = colon + 1;
		exporter_trim(&v, &vend);
		/* several Accept fields weigh as one list */
		if (exporter_ieq(p, (size_t)(colon - p), "accept"))
			exporter_weigh(v, (size_t)(vend - v), &om, &text);
	}
	if (!lend)
		return 0;
	req->fmt = exporter_choose(om, text);
	if (!req->metrics)
		return 404;
	if (req->method == EXPORTER_OTHER)
		return 405;
	return 200;
}

/* ---- the server ---- */

static const char *const EXPORTER_CONTENT_TYPES[] = {
	[EXPOSITION_PROMETHEUS] = "text/plain; version=0.0.4; charset=utf-8",
	[EXPOSITION_OPENMETRICS] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
};

static void exporter_body_put(struct exporter_body *b)
{
	if (b && !--b->refs) {
		free(b->data);
		free(b);
	}
}

static void exporter_close(struct exporter *x, size_t i)
{
	struct exporter_conn *c = x->conns[i];

	close(c->fd);
	exporter_body_put(c->body);
	free(c);
	x->conns[i] = x->conns[--x->nconns];
}

static int exporter_listen(struct exporter *x, const struct sockaddr_storage *ss, socklen_t len)
{
	int one = 1;
	struct sockaddr_storage bound;
	socklen_t blen = sizeof(bound);
	char ip[INET6_ADDRSTRLEN];

	x->lfd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (x->lfd < 0)
		return -errno;
	setsockopt(x->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss->ss_family == AF_INET6)
		setsockopt(x->lfd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(x->lfd, (const struct sockaddr *)ss, len) < 0 || listen(x->lfd, 128) < 0 ||
	    getsockname(x->lfd, (struct sockaddr *)&bound, &blen) < 0) {
		int err = errno;

		close(x->lfd);
		x->lfd = -1;
		return -err;
	}
	if (bound.ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&bound;

		inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof(ip));
		snprintf(x->addr, sizeof(x->addr), "[%s]:%u", ip, ntohs(a->sin6_port));
		x->local = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr) ||
			   (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr) && a->sin6_addr.s6_addr[12] == 127);
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)&bound;

		inet_ntop(AF_INET, &a->sin_addr, ip, sizeof(ip));
		snprintf(x->addr, sizeof(x->addr), "%s:%u", ip, ntohs(a->sin_port));
		x->local = (ntohl(a->sin_addr.s_addr) >> 24) == 127;
	}
	return 0;
}

struct exporter *exporter_new(const char *spec, char *err, size_t errsize)
{
	struct sockaddr_storage ss;
	socklen_t len;
	struct exporter *x;
	int r;

	if (exporter_parse_listen(spec, &ss, &len, err, errsize))
		return NULL;
	x = xcalloc(1, sizeof(*x));
	r = exporter_listen(x, &ss, len);
	if (r) {
		snprintf(err, errsize, "cannot listen on '%s': %s", spec, strerror(-r));
		free(x);
		return NULL;
	}
	return x;
}

bool exporter_local(const struct exporter *x)
{
	return x->local;
}

void exporter_free(struct exporter *x)
{
	if (!x)
		return;
	while (x->nconns)
		exporter_close(x, x->nconns - 1);
	exporter_body_put(x->body[0]);
	exporter_body_put(x->body[1]);
	exposition_free(x->expo);
	close(x->lfd);
	free(x);
}

const char *exporter_address(const struct exporter *x)
{
	return x->addr;
}

void exporter_self(struct exposition_self *s)
{
	struct selfcost c;

	selfcost_read(&c, NULL, 0);
	s->cpu_seconds = c.cpu_seconds;
	s->rss_bytes = c.rss_bytes;
	s->open_fds = c.open_fds;
	s->max_fds = c.max_fds;
}

void exporter_update(struct exporter *x, const struct model *m, const struct exposition_info *info)
{
	struct exposition_info in = *info;

	if (!x->expo)
		x->expo = exposition_new(m->ev.n);
	exposition_update(x->expo, m);
	exporter_self(&in.self);
	for (int fmt = 0; fmt < 2; fmt++) {
		struct exporter_body *b = xcalloc(1, sizeof(*b));
		FILE *f = open_memstream(&b->data, &b->len);

		if (!f) {
			free(b);
			continue; /* the last tick's stays */
		}
		exposition_render(x->expo, f, (enum exposition_format)fmt, m, &in);
		if (fclose(f)) {
			free(b->data);
			free(b);
			continue;
		}
		b->refs = 1;
		exporter_body_put(x->body[fmt]);
		x->body[fmt] = b;
	}
}

size_t exporter_poll_fds(const struct exporter *x, struct pollfd *pfd, size_t max)
{
	size_t n = 0;

	if (n < max && (!x->accept_after || exporter_now() >= x->accept_after))
		pfd[n++] = (struct pollfd){ .fd = x->lfd, .events = POLLIN };
	for (size_t i = 0; i < x->nconns && n < max; i++) {
		const struct exporter_conn *c = x->conns[i];

		pfd[n++] = (struct pollfd){
			.fd = c->fd,
			.events = c->state == EXPORTER_WRITING ? POLLOUT : POLLIN,
		};
	}
	return n;
}

int exporter_timeout(const struct exporter *x)
{
	uint64_t now = exporter_now(), first = UINT64_MAX;

	if (x->accept_after)
		first = x->accept_after;
	for (size_t i = 0; i < x->nconns; i++)
		if (x->conns[i]->deadline < first)
			first = x->conns[i]->deadline;
	if (first == UINT64_MAX)
		return -1;
	return first <= now ? 0 : first - now > 60000 ? 60000 : (int)(first - now);
}

static const char *exporter_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	case 503:
		return "Service Unavailable";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Error";
	}
}

/* Start the answer: the head, and the body unless HEAD was asked. */
static void exporter_answer(struct exporter *x, struct exporter_conn *c, int status,
			    const struct exporter_request *req)
{
	static const char *const ERROR_BODIES[] = { "only /metrics is served\n" };
	const struct exporter_body *b = status == 200 ? x->body[req->fmt] : NULL;
	char text[96];
	const char *type = "text/plain; charset=utf-8";
	size_t len;

	if (status == 200 && !b)
		status = 503; /* no snapshot yet */
	if (status == 200) {
		type = EXPORTER_CONTENT_TYPES[req->fmt];
		len = b->len;
		c->body = x->body[req->fmt];
		c->body->refs++;
	} else {
		snprintf(text, sizeof(text), "%s\n",
			 status == 404 ? ERROR_BODIES[0] : exporter_reason(status));
		len = strlen(text);
	}
	c->headlen = (size_t)snprintf(c->head, sizeof(c->head),
				      "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
				      "Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
				      status, exporter_reason(status), type, len,
				      status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (status != 200 && req->method != EXPORTER_HEAD && c->headlen + len < sizeof(c->head)) {
		memcpy(c->head + c->headlen, text, len);
		c->headlen += len;
	}
	c->bodylen = status == 200 && req->method != EXPORTER_HEAD ? len : 0;
	c->headoff = c->bodyoff = 0;
	c->state = EXPORTER_WRITING;
	c->deadline = exporter_now() + EXPORTER_WRITE_MS;
}

/* Send what the socket takes; false when the connection is to be closed. */
static bool exporter_send(struct exporter_conn *c)
{
	while (c->headoff < c->headlen || c->bodyoff < c->bodylen) {
		bool head = c->headoff < c->headlen;
		const char *p = head ? c->head + c->headoff : c->body->data + c->bodyoff;
		size_t left = head ? c->headlen - c->headoff : c->bodylen - c->bodyoff;
		ssize_t n = send(c->fd, p, left, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (head)
			c->headoff += (size_t)n;
		else
			c->bodyoff += (size_t)n;
	}
	/* all sent: say so, and drop what the client still sends until it closes */
	shutdown(c->fd, SHUT_WR);
	c->state = EXPORTER_LINGERING;
	c->deadline = exporter_now() + EXPORTER_LINGER_MS;
	return true;
}

/* Read the request head, or what comes after the answer; false to close. */
static bool exporter_recv(struct exporter *x, struct exporter_conn *c)
{
	for (;;) {
		char sink[4096];
		char *p = c->state == EXPORTER_READING ? c->req + c->reqlen : sink;
		size_t room =
			c->state == EXPORTER_READING ? sizeof(c->req) - c->reqlen : sizeof(sink);
		ssize_t n;
		struct exporter_request req;
		int status;

		if (!room)
			return true; /* a full head is answered below, never read further */
		n = recv(c->fd, p, room, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (n == 0)
			return false; /* the client closed: nothing to answer */
		if (c->state == EXPORTER_LINGERING) {
			c->dropped += (size_t)n;
			if (c->dropped > EXPORTER_LINGER_BYTES)
				return false;
			continue;
		}
		c->reqlen += (size_t)n;
		status = exporter_parse_request(c->req, c->reqlen, &req);
		if (!status && c->reqlen == sizeof(c->req))
			status = 431;
		if (status) {
			exporter_answer(x, c, status, &req);
			return exporter_send(c);
		}
	}
}

/* The oldest connection still sending its request, or -1. */
static long exporter_oldest_reader(const struct exporter *x)
{
	long best = -1;

	for (size_t i = 0; i < x->nconns; i++)
		if (x->conns[i]->state == EXPORTER_READING &&
		    (best < 0 || x->conns[i]->seq < x->conns[best]->seq))
			best = (long)i;
	return best;
}

static void exporter_accept(struct exporter *x)
{
	static const char BUSY[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
				   "Connection: close\r\n\r\n";

	for (int k = 0; k < EXPORTER_MAX_CONNS; k++) {
		int fd = accept4(x->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct exporter_conn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				x->accept_after = exporter_now() + EXPORTER_ACCEPT_PAUSE_MS;
			return;
		}
		if (x->nconns == EXPORTER_MAX_CONNS) {
			long old = exporter_oldest_reader(x);

			if (old < 0) {
				/* every slot is answering: this one is told to come back */
				ssize_t sent = send(fd, BUSY, sizeof(BUSY) - 1,
						    MSG_NOSIGNAL | MSG_DONTWAIT);

				(void)sent; /* best effort: it is closed either way */
				close(fd);
				continue;
			}
			exporter_close(x, (size_t)old);
		}
		c = xmalloc(sizeof(*c));
		memset(c, 0, offsetof(struct exporter_conn, req));
		c->fd = fd;
		c->state = EXPORTER_READING;
		c->seq = ++x->seq;
		c->deadline = exporter_now() + EXPORTER_READ_MS;
		x->conns[x->nconns++] = c;
	}
}

void exporter_handle(struct exporter *x, const struct pollfd *pfd, size_t n)
{
	bool accept = false;
	uint64_t now;

	for (size_t k = 0; k < n; k++) {
		size_t i;

		if (!pfd[k].revents)
			continue;
		if (pfd[k].fd == x->lfd) {
			accept = true;
			continue;
		}
		for (i = 0; i < x->nconns && x->conns[i]->fd != pfd[k].fd; i++)
			;
		if (i == x->nconns)
			continue;
		if (pfd[k].revents & (POLLERR | POLLNVAL)) {
			exporter_close(x, i);
			continue;
		}
		if (x->conns[i]->state == EXPORTER_WRITING ? !exporter_send(x->conns[i])
							   : !exporter_recv(x, x->conns[i]))
			exporter_close(x, i);
	}
	now = exporter_now();
	if (x->accept_after && now >= x->accept_after)
		x->accept_after = 0;
	for (size_t i = x->nconns; i-- > 0;)
		if (x->conns[i]->deadline <= now)
			exporter_close(x, i);
	if (accept)
		exporter_accept(x);
}
