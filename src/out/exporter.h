/* GET /metrics over HTTP/1.x: non-blocking sockets served from pmctop's one poll loop. */
#ifndef PMCTOP_EXPORTER_H
#define PMCTOP_EXPORTER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "model/model.h"
#include "out/exposition.h"

/* The port the documentation suggests (a choice, see doc/exporter.md; not a registration). */
#define EXPORTER_PORT 10185
/* Connections served at once; one more evicts the oldest still sending its request. */
#define EXPORTER_MAX_CONNS 64
/* The longest request head taken; a longer one is answered 431. */
#define EXPORTER_MAX_REQUEST 8192
/* Time for a client to send its whole request head, and to take the whole answer. */
#define EXPORTER_READ_MS 5000
#define EXPORTER_WRITE_MS 10000
/* The fds exporter_poll_fds may fill: the listening socket and the connections. */
#define EXPORTER_MAX_FDS (1 + EXPORTER_MAX_CONNS)

enum exporter_method {
	EXPORTER_GET,
	EXPORTER_HEAD,
	EXPORTER_OTHER,
};

/* What a request head asks for. */
struct exporter_request {
	enum exporter_method method;
	bool metrics;		    /* the path is /metrics (any query is ignored) */
	enum exposition_format fmt; /* from the Accept header */
};

struct exporter;

/*
 * "[ADDR:]PORT" -> a socket address: PORT alone is 127.0.0.1, ADDR is a
 * numeric IPv4 address, "localhost", or an IPv6 address in brackets
 * ("[::1]:PORT"); no name is looked up. Port 0 lets the kernel choose.
 * 0, or -EINVAL with the reason in err. Pure.
 */
int exporter_parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen,
			  char *err, size_t errsize);
/*
 * The format an Accept header value (len bytes, not NUL-terminated)
 * prefers: OpenMetrics when application/openmetrics-text weighs at least
 * as much as text/plain, and more than nothing; the 0.0.4 text otherwise,
 * and for an empty or missing header. Pure.
 */
enum exposition_format exporter_negotiate(const char *accept, size_t len);
/*
 * Parse the request head in buf (len bytes, not NUL-terminated, at most
 * EXPORTER_MAX_REQUEST). Returns 0 while the head is incomplete, else the
 * status to answer: 200, 400 (malformed), 404 (not /metrics), 405 (not
 * GET or HEAD) or 505 (not HTTP/1.x); req is filled as far as it could be
 * read. Pure.
 */
int exporter_parse_request(const char *buf, size_t len, struct exporter_request *req);

/*
 * Listen on spec ("[ADDR:]PORT", non-blocking). NULL, with the reason in
 * err, when the address is bad or cannot be bound.
 */
struct exporter *exporter_new(const char *spec, char *err, size_t errsize);
/* Close the listening socket and every connection. exporter_free(NULL) is a no-op. */
void exporter_free(struct exporter *x);
/* The bound address, "127.0.0.1:10185" or "[::1]:10185" (the real port when 0 was asked). */
const char *exporter_address(const struct exporter *x);
/* Whether that address is a loopback one (127.0.0.0/8, ::1): the metrics stay on this machine. */
bool exporter_local(const struct exporter *x);
/*
 * Render the model's latest snapshot in both formats: what requests get
 * until the next update. Call after every model_update, the first too.
 * info is borrowed for the call; its self part is filled here.
 */
void exporter_update(struct exporter *x, const struct model *m, const struct exposition_info *info);
/* Fill up to max pollfds with the sockets to wait on; returns how many. */
size_t exporter_poll_fds(const struct exporter *x, struct pollfd *pfd, size_t max);
/*
 * Serve what poll reported on the n pollfds exporter_poll_fds filled, and
 * close connections past their time. Never blocks.
 */
void exporter_handle(struct exporter *x, const struct pollfd *pfd, size_t n);
/* Milliseconds until the next connection's time is up (for poll); -1 when none waits. */
int exporter_timeout(const struct exporter *x);
/* pmctop's own CPU time, resident memory, open fds and fd budget; NAN for what is unknown. */
void exporter_self(struct exposition_self *s);

#endif
