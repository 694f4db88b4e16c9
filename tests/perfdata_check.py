#!/usr/bin/env python3
# Compares what pmctop decodes of a perf.data (tests/perfdata_dump) with what perf script prints.
# usage: perfdata_check.py samples DUMP SCRIPT   (perf script -F pid,tid,time,ip,addr)
#        perfdata_check.py mem DUMP SCRIPT       (perf script -F pid,tid,time,addr,data_src,weight)
#        perfdata_check.py pages JSON SCRIPT PID (perf script -F pid,addr; the last JSON frame)
#        perfdata_check.py numa DUMP HEADER      (perf report --header-only -I)
#        perfdata_check.py nodes JSON SCRIPT HEADER PID (perf script -F pid,addr,phys_addr)
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


def ranges(text):
    """A cpulist-style set of numbers ("0-27,56-83") as a set."""
    out = set()
    for part in text.strip().split(','):
        if part:
            lo, _, hi = part.partition('-')
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def numa(dump, header):
    """The capture's NUMA topology as pmctop reads it and as perf report -I prints it."""
    cpus, blocks, bsize = {}, {}, None
    for line in open(dump):
        f = line.split()
        if f[:2] == ['N', 'cpu']:
            cpus[int(f[2])] = int(f[4])
        elif f[:2] == ['B', 'size']:
            bsize = int(f[2], 16)
        elif f[:2] == ['B', 'node']:
            blocks[int(f[2])] = ranges(f[3] if len(f) > 3 else '')
    want_cpus, want_blocks, want_bsize, in_mem = {}, {}, None, False
    for line in open(header):
        m = re.match(r'# node(\d+) cpu list : (\S*)', line)
        if m:
            for c in ranges(m.group(2)):
                want_cpus[c] = int(m.group(1))
        m = re.match(r'# memory nodes \(nr \d+, block size (0x[0-9a-f]+)\)', line)
        if m:
            want_bsize, in_mem = int(m.group(1), 16), True
            continue
        m = re.match(r'#\s+(\d+) \[[^]]*\]: (\S*)', line)
        if in_mem and m:
            want_blocks[int(m.group(1))] = ranges(m.group(2))
        elif in_mem:
            in_mem = False
    if not want_cpus:
        fail('perf prints no NUMA topology for this capture')
    if cpus != want_cpus:
        fail('CPU nodes differ: pmctop %s, perf %s' % (sorted(cpus.items())[:8],
                                                      sorted(want_cpus.items())[:8]))
    if bsize != want_bsize or blocks != want_blocks:
        fail('memory nodes differ: pmctop block %s %s, perf block %s %s'
             % (bsize, {k: len(v) for k, v in blocks.items()}, want_bsize,
                {k: len(v) for k, v in want_blocks.items()}))
    print('%d CPUs on %d nodes and %d nodes of memory blocks agree with perf'
          % (len(cpus), len(set(cpus.values())), len(blocks)))


def nodes(path, script, header, pid):
    """Each page's node in pmctop's last frame: the node perf's memory map gives the physical
    address of its samples; pages none of whose samples has one have none."""
    bsize, blocks, in_mem = None, {}, False
    for line in open(header):
        m = re.match(r'# memory nodes \(nr \d+, block size (0x[0-9a-f]+)\)', line)
        if m:
            bsize, in_mem = int(m.group(1), 16), True
            continue
        m = re.match(r'#\s+(\d+) \[[^]]*\]: (\S*)', line)
        if in_mem and m:
            blocks[int(m.group(1))] = ranges(m.group(2))
        elif in_mem:
            in_mem = False
    want = {}
    for line in open(script):
        f = line.split()
        if len(f) != 3 or int(f[0]) != pid:
            continue
        page, phys = int(f[1], 16) >> 12, int(f[2], 16)
        want.setdefault(page, set())
        if phys and bsize:
            want[page].update(n for n, b in blocks.items() if phys // bsize in b)
    frame = json.loads(open(path).read().splitlines()[-1])
    shown = {int(p['page'], 16) >> 12: p.get('node') for p in frame['pages']}
    located = 0
    for page, node in shown.items():
        if page not in want:
            fail('page 0x%x is not in perf script' % (page << 12))
        if node is None and want[page]:
            fail('page 0x%x has no node, perf maps its samples to %s' % (page << 12, want[page]))
        if node is not None and node not in want[page]:
            fail('page 0x%x on node %s, perf maps its samples to %s'
                 % (page << 12, node, want[page] or 'none'))
        located += node is not None
    if not located and any(want[p] for p in shown):
        fail('no page has a node')
    print('%d of %d pages located as perf\'s memory map says' % (located, len(shown)))


if __name__ == '__main__':
    mode = sys.argv[1]
    if mode == 'samples':
        samples(sys.argv[2], sys.argv[3])
    elif mode == 'mem':
        mem(sys.argv[2], sys.argv[3])
    elif mode == 'numa':
        numa(sys.argv[2], sys.argv[3])
    elif mode == 'nodes':
        nodes(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        pages(sys.argv[2], sys.argv[3], int(sys.argv[4]))
