/* libFuzzer harness: request heads and Accept lists as a client sends them, and --listen specs. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "out/exporter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct exporter_request req;
	struct sockaddr_storage ss;
	socklen_t sslen;
	char err[256], *spec;
	/* the server never hands the parser more than its buffer: an exact-size copy finds overreads */
	size_t n = len < EXPORTER_MAX_REQUEST ? len : EXPORTER_MAX_REQUEST;
	char *head = malloc(n ? n : 1);

	memcpy(head, data, n);
	exporter_parse_request(head, n, &req);
	exporter_negotiate(head, n);
	free(head);
	spec = malloc(len + 1);
	memcpy(spec, data, len);
	spec[len] = '\0';
	exporter_parse_listen(spec, &ss, &sslen, err, sizeof(err));
	free(spec);
	return 0;
}
