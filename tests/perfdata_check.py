#!/usr/bin/env python3
# Compares what pmctop decodes of a perf.data (tests/perfdata_dump) with what perf script prints.
# usage: perfdata_check.py samples DUMP SCRIPT   (perf script -F pid,tid,time,ip,addr)
#        perfdata_check.py mem DUMP SCRIPT       (perf script -F pid,tid,time,addr,data_src,weight)
#        perfdata_check.py pages JSON SCRIPT PID (perf script -F pid,addr; the last JSON frame)
import json
import re
import sys
from collections import Counter


def dump_samples(path):
    out = []
    for line in open(path):
        f = line.split()
        if f[0] != 'S':
            continue
        fields = dict(kv.split('=', 1) for kv in f[9:] if '=' in kv)
        out.append({'pid': int(f[1]), 'tid': int(f[2]), 'time': f[3], 'ip': int(f[4], 16),
                    'addr': int(f[5], 16), 'weight': int(f[6]), 'src': int(f[7], 16),
                    'f': {k: int(v) for k, v in fields.items() if k != 'level'},
                    'level': fields.get('level')})
    return out


HEAD = re.compile(r'^\s*(\d+)/(\d+)\s+(\d+\.\d+):\s*(.*)$')


def script_lines(path):
    for line in open(path):
        m = HEAD.match(line)
        if m:
            yield int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)


def fail(msg):
    print(msg)
    sys.exit(1)


def samples(dump, script):
    got = sorted((s['time'], s['pid'], s['tid'], s['addr'], s['ip']) for s in dump_samples(dump))
    want = []
    for pid, tid, time, rest in script_lines(script):
        w = rest.split()
        # -F ...,ip,addr prints the address, then the ip
        addr = int(w[0], 16) if len(w) > 1 else 0
        ip = int(w[-1], 16)
        want.append((time, pid, tid, addr, ip))
    want.sort()
    if len(got) != len(want):
        fail('pmctop decoded %d samples, perf script printed %d' % (len(got), len(want)))
    for g, w in zip(got, want):
        if g != w:
            fail('sample differs: pmctop %r, perf %r' % (g, w))
    print('%d samples agree' % len(got))


# perf's words for each field of a data source (tools/perf/util/mem-events.c), by bit
OP = {0x1: 'N/A', 0x2: 'LOAD', 0x4: 'STORE', 0x8: 'PFETCH', 0x10: 'EXEC'}
SNP = {0x2: 'None', 0x4: 'Hit', 0x8: 'Miss', 0x10: 'HitM'}
SNPX = {0x1: 'Fwd', 0x2: 'Peer'}
TLB = {0x2: 'hit', 0x4: 'miss', 0x8: 'L1', 0x10: 'L2', 0x20: 'Walker', 0x40: 'Fault'}
LVLNUM = {0x1: 'L1', 0x2: 'L2', 0x3: 'L3', 0x4: 'L4', 0x9: 'CXL', 0xa: 'I/O',
          0xb: 'Any cache', 0xc: 'LFB/MAB', 0xd: 'RAM', 0xe: 'PMEM'}


def section(s, name):
    m = re.search(r'\|%s ([^|]*)' % name, s)
    return m.group(1).strip() if m else ''


def check_src(s, text):
    f = s['f']
    errs = []

    def same(what, have, shown):
        if have != shown:
            errs.append('%s: pmctop %s, perf %s' % (what, 'set' if have else 'clear',
                                                     'shows it' if shown else 'does not'))

    op = section(text, 'OP')
    for bit, word in OP.items():
        same('OP ' + word, bool(f['op'] & bit), word in op.split(' or ') or word in op.split())
    lvl = section(text, 'LVL')
    same('LVL hit', bool(f['lvl'] & 0x2), lvl.endswith('hit'))
    same('LVL miss', bool(f['lvl'] & 0x4), lvl.endswith('miss'))
    if f['lvlnum'] in LVLNUM:
        same('LVL ' + LVLNUM[f['lvlnum']], True, LVLNUM[f['lvlnum']] in lvl)
    same('remote', bool(f['remote']), 'Remote' in lvl and f['lvlnum'] in LVLNUM)
    snp = section(text, 'SNP')
    for bit, word in SNP.items():
        same('SNP ' + word, bool(f['snoop'] & bit), word in snp.split())
    for bit, word in SNPX.items():
        same('SNP ' + word, bool(f['snoopx'] & bit), word in snp.split())
    tlb = section(text, 'TLB')
    for bit, word in TLB.items():
        same('TLB ' + word, bool(f['tlb'] & bit), word in tlb.replace('/', ' ').split())
    lck = section(text, 'LCK')
    same('LCK Yes', bool(f['lock'] & 0x2), lck == 'Yes')
    return errs


def mem(dump, script):
    got = {}
    for s in dump_samples(dump):
        got.setdefault((s['time'], s['tid'], s['addr']), []).append(s)
    n = 0
    for pid, tid, time, rest in script_lines(script):
        w = rest.split()
        addr, src = int(w[0], 16), int(w[1], 16)
        # the decoded fields, '|'-separated, then the weight
        text = rest[rest.index('|'):rest.rstrip().rindex(' ')] + '|'
        weight = int(w[-1])
        cands = got.get((time, tid, addr))
        if not cands:
            fail('perf has a sample pmctop does not: %s %d 0x%x' % (time, tid, addr))
        s = cands.pop()
        if s['src'] != src or s['weight'] != weight:
            fail('sample %s %d: pmctop data_src 0x%x weight %d, perf 0x%x %d'
                 % (time, tid, s['src'], s['weight'], src, weight))
        errs = check_src(s, text)
        if errs:
            fail('sample %s %d data_src 0x%x %s: %s' % (time, tid, src, text, '; '.join(errs)))
        n += 1
    left = sum(len(v) for v in got.values())
    if left:
        fail('pmctop has %d samples perf does not' % left)
    print('%d samples agree: address, latency and every data-source field' % n)


def pages(path, script, pid):
    frames = [json.loads(line) for line in open(path) if line.startswith('{')]
    last = [f for f in frames if f.get('pid') == pid and f.get('pages')][-1]
    shift = last['page_size'].bit_length() - 1
    want = Counter()
    for p, tid, time, rest in script_lines(script):
        if p == pid:
            want[int(rest.split()[0], 16) >> shift << shift] += 1
    shown = last['pages']
    for pg in shown:
        a = int(pg['page'], 16)
        if pg['samples'] != want[a]:
            fail('page 0x%x: pmctop %d samples, perf %d' % (a, pg['samples'], want[a]))
    if len(shown) != min(len(want), 256):
        fail('pmctop lists %d pages, perf has %d' % (len(shown), len(want)))
    top = sorted(want.values(), reverse=True)[:len(shown)]
    if sorted((p['samples'] for p in shown), reverse=True) != top:
        fail('the hottest pages differ from perf\'s')
    print('%d pages agree with perf (%d samples)' % (len(shown), sum(want.values())))


if __name__ == '__main__':
    mode = sys.argv[1]
    if mode == 'samples':
        samples(sys.argv[2], sys.argv[3])
    elif mode == 'mem':
        mem(sys.argv[2], sys.argv[3])
    else:
        pages(sys.argv[2], sys.argv[3], int(sys.argv[4]))
