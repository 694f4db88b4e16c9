#!/usr/bin/env python3
# HTTP clients for the exporter's end-to-end tests, friendly and hostile; loopback only.
#
#   exporter_client.py get HOST:PORT PATH [--accept A] [--method M] [--out FILE]
#       one request; prints "STATUS<TAB>CONTENT-TYPE<TAB>ALLOW"; the body goes to FILE
#   exporter_client.py siege HOST:PORT CONNS SECONDS
#       opens CONNS idle connections, then a slowloris client sending a byte a second, and
#       scrapes /metrics every second meanwhile; prints "scrape STATUS TICKS" per scrape and
#       "slowloris closed AFTER" (seconds) or "slowloris open"
import http.client
import re
import socket
import sys
import time


def split(addr):
    host, _, port = addr.rpartition(':')
    return host.strip('[]'), int(port)


def request(addr, path, method='GET', accept=None, timeout=20):
    host, port = split(addr)
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    headers = {'Accept': accept} if accept else {}
    conn.request(method, path, headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, resp.getheader('Content-Type', ''), resp.getheader('Allow', ''), body


def ticks_of(body):
    m = re.search(rb'^pmctop_ticks_total (\d+)$', body, re.M)
    return int(m.group(1)) if m else -1


def get(argv):
    addr, path = argv[0], argv[1]
    opts = dict(zip(argv[2::2], argv[3::2]))
    status, ctype, allow, body = request(addr, path, opts.get('--method', 'GET'),
                                         opts.get('--accept'))
    if '--out' in opts:
        with open(opts['--out'], 'wb') as f:
            f.write(body)
    print('%d\t%s\t%s' % (status, ctype, allow))
    return 0


def siege(argv):
    addr, conns, seconds = argv[0], int(argv[1]), float(argv[2])
    host, port = split(addr)
    family = socket.AF_INET6 if ':' in host else socket.AF_INET
    idle = []
    for _ in range(conns):
        s = socket.socket(family, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect((host, port))
        idle.append(s)
    slow = socket.socket(family, socket.SOCK_STREAM)
    slow.connect((host, port))
    slow.setblocking(False)
    opened = time.monotonic()
    head = b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ' + b'a' * 100
    sent = 0
    closed_after = None
    next_scrape = opened + 1
    while time.monotonic() - opened < seconds:
        if closed_after is None:
            try:
                if slow.recv(1) == b'':
                    closed_after = time.monotonic() - opened
            except BlockingIOError:
                pass
            except OSError:
                closed_after = time.monotonic() - opened
        if closed_after is None and sent < len(head):
            try:
                slow.send(head[sent:sent + 1])
                sent += 1
            except OSError:
                closed_after = time.monotonic() - opened
        if time.monotonic() >= next_scrape:
            try:
                status, _, _, body = request(addr, '/metrics', timeout=10)
                print('scrape %d %d' % (status, ticks_of(body)), flush=True)
            except OSError as e:
                print('scrape 0 -1 %s' % e, flush=True)
            next_scrape += 1
        time.sleep(max(0.0, min(1.0, next_scrape - time.monotonic())))
    print('slowloris ' + ('closed %.1f' % closed_after if closed_after is not None else 'open'))
    for s in idle:
        s.close()
    slow.close()
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ('get', 'siege'):
        print('usage: exporter_client.py get|siege ...', file=sys.stderr)
        return 2
    return {'get': get, 'siege': siege}[sys.argv[1]](sys.argv[2:])


if __name__ == '__main__':
    sys.exit(main())
