#!/usr/bin/env python3
# Compares pmctop's decoding of PERF_SAMPLE_DATA_SRC with perf's, sample by sample, on the
# capture tests/make-datasrc-perf.py writes (each sample on a page of its own, its weight 10 + i).
# usage: datasrc_check.py fields DUMP SCRIPT REPORT
#        datasrc_check.py shown DUMP SCRIPT REPORT JSON...
#   DUMP   tests/perfdata_dump of the capture: pmctop's split of each data source
#   SCRIPT perf script -F data_src,weight (its OP field)
#   REPORT perf report --mem-mode --sort=local_weight,mem,snoop,tlb,lock,blocked -F ... -t '|'
#   JSON   pmctop -b -o json --replay CAPTURE --sample PID, one file per process
# "fields" checks that every field pmctop takes out of a data source (op, level bits, snoop,
# lock, TLB, level number, remote, snoop extension, block, hops) is the one perf shows;
# "shown" checks the level, load or store pmctop shows per page against perf's words, mapped
# to pmctop's names as doc/output.md says.
import json
import sys

# perf's words (tools/perf/util/mem-events.c), by bit or value
OP = ['N/A', 'LOAD', 'STORE', 'PFETCH', 'EXEC']
LVL = ['N/A', 'HIT', 'MISS', 'L1', 'LFB/MAB', 'L2', 'L3', 'Local RAM', 'Remote RAM (1 hop)',
       'Remote RAM (2 hops)', 'Remote Cache (1 hop)', 'Remote Cache (2 hops)', 'I/O', 'Uncached']
# the level numbers perf 6.1 names; others it prints as L<n> (later perf: L2 MHB, MSC, Uncached)
LVLNUM = {9: 'CXL', 0xa: 'I/O', 0xb: 'Any cache', 0xc: 'LFB/MAB', 0xd: 'RAM', 0xe: 'PMEM',
          0xf: 'N/A'}
LVLNUM_LATER = {'L2 MHB': 'L5', 'Memory-side Cache': 'L6', 'Uncached': 'L8', 'LFB': 'LFB/MAB'}
HOPS = ['N/A', 'core, same node', 'node, same socket', 'socket, same board', 'board']
SNP = ['N/A', 'None', 'Hit', 'Miss', 'HitM']
SNPX = ['Fwd', 'Peer']
TLB = ['N/A', 'HIT', 'MISS', 'L1', 'L2', 'Walker', 'Fault']
BLK = ['N/A', 'Data', 'Addr']


def fail(msg):
    print(msg)
    sys.exit(1)


def bits(v, names, skip=()):
    return [names[i] for i in range(len(names)) if v >> i & 1 and i not in skip]


def dump(path):
    out = {}
    for line in open(path):
        f = line.split()
        if f[0] != 'S':
            continue
        kv = dict(x.split('=', 1) for x in f[9:] if '=' in x and not x.startswith('level='))
        d = {k: int(v) for k, v in kv.items()}
        d['addr'] = int(f[5], 16)
        d['src'] = int(f[7], 16)
        out[int(f[6]) - 10] = d
    return out


def script(path):
    out = {}
    for line in open(path):
        if '|OP ' not in line:
            continue
        op = line.split('|OP ', 1)[1].split('|', 1)[0].strip()
        out[int(line.split()[-1]) - 10] = op
    return out


def report(path):
    out = {}
    for line in open(path):
        if line.startswith('#') or '|' not in line:
            continue
        f = [x.strip() for x in line.rstrip('\n').split('|')]
        out[int(f[0]) - 10] = f[1:] + [''] * (6 - len(f))
    return out


def lvlnum_word(n):
    return LVLNUM.get(n, 'L%d' % n)


# perf's text of each field, from pmctop's split of it
def perf_mem(d):
    s = 'Remote ' if d['remote'] else ''
    names = []
    if d['hops']:
        s += HOPS[d['hops']] + ' '
    else:
        names = bits(d['lvl'], LVL, skip=(1, 2))
    if d['lvlnum']:
        names.append(lvlnum_word(d['lvlnum']))
    s += ' or '.join(names)
    s = s or 'N/A'
    if d['lvl'] & 2:
        s += ' hit'
    if d['lvl'] & 4:
        s += ' miss'
    return s


def perf_words(d):
    snp = bits(d['snoop'], SNP) + bits(d['snoopx'], SNPX)
    tlb = ' or '.join(bits(d['tlb'], TLB, skip=(1, 2))) or 'N/A'
    tlb += (' hit' if d['tlb'] & 2 else '') + (' miss' if d['tlb'] & 4 else '')
    lock = 'N/A' if d['lock'] & 1 else 'Yes' if d['lock'] & 2 else 'No'
    return [perf_mem(d), ' or '.join(snp) or 'N/A', tlb, lock,
            ' '.join(bits(d['blk'], BLK)) or 'N/A']


def perf_op(d):
    # perf names the first operation set, "No" when none is
    return (bits(d['op'], OP) or ['No'])[0]


def load(argv):
    dm, sc, rp = dump(argv[0]), script(argv[1]), report(argv[2])
    if not dm or set(dm) != set(sc) or set(dm) != set(rp):
        fail('samples differ: pmctop %d, perf script %d, perf report %d'
             % (len(dm), len(sc), len(rp)))
    return dm, sc, rp


def fields(argv):
    dm, sc, rp = load(argv)
    cut = 0
    for i in sorted(dm):
        d = dm[i]
        if sc[i] != perf_op(d):
            fail('sample %d data_src 0x%x: op: pmctop %r, perf %r' % (i, d['src'], perf_op(d), sc[i]))
        for k, (what, mine, perfs) in enumerate(zip(('level', 'snoop', 'TLB', 'lock', 'block'),
                                                    perf_words(d), rp[i])):
            # perf report cuts a long line short: a cut field is a prefix, the rest empty
            if mine != perfs and mine.startswith(perfs) and not any(rp[i][k + 1:]):
                cut += 1
                break
            if mine != perfs:
                fail('sample %d data_src 0x%x: %s: pmctop %r, perf %r'
                     % (i, d['src'], what, mine, perfs))
    print('%d data sources: every field as perf decodes it (%d fields cut short by perf '
          'report, matched as prefixes)' % (len(dm), cut))


def parse_mem(text, d):
    """perf's level text taken apart: remote, hops, level-bit names, level number, hit, miss.
    Whether a level number was printed (the last name) is known from the split checked above."""
    t = text
    hit = miss = False
    while True:
        if t.endswith(' hit'):
            hit, t = True, t[:-4]
        elif t.endswith(' miss'):
            miss, t = True, t[:-5]
        else:
            break
    remote = t.startswith('Remote ') and not t.startswith(('Remote RAM (', 'Remote Cache ('))
    if remote:
        t = t[7:]
    hops = ''
    for h in HOPS[1:]:
        if t.startswith(h + ' ') or t == h:
            hops, t = h, t[len(h):].strip()
    names = [x for x in t.split(' or ')] if t else []
    num = names.pop() if d['lvlnum'] and names else None
    num = LVLNUM_LATER.get(num, num)
    return remote, hops, [x for x in names if x != 'N/A'], num, hit, miss


def expect(mem, snp, d):
    """The level pmctop should show for perf's words, as doc/output.md maps them."""
    remote, hops, names, num, hit, miss = parse_mem(mem, d)
    snoop = set(snp.split(' or '))
    missonly = miss and not hit
    far = hops in HOPS[2:] or (remote and hops != HOPS[1])

    def cache(here):
        if 'HitM' in snoop:
            return 'HITM'
        if hops in HOPS[2:]:
            return 'remote cache'
        if hops == HOPS[1]:
            return 'peer cache'
        if remote:
            return 'remote cache'
        if snoop & {'Hit', 'Fwd', 'Peer'}:
            return 'peer cache'
        return here

    # Intel's older PEBS table writes remote DRAM as level number L3 beside the RAM bits
    if num == 'L3' and any(n.startswith('Remote RAM') for n in names) and not missonly:
        return 'remote DRAM'
    r = None
    if num == 'L1':
        r = 'L1 miss' if missonly else 'L1'
    elif num == 'LFB/MAB':
        r = 'LFB'
    elif num in ('L2', 'L3'):
        r = num + ' miss' if missonly else cache(num)
    elif num == 'L4':
        r = 'L3 miss' if missonly else cache('L4')
    elif num == 'L5':
        r = 'L2 MHB'
    elif num == 'L6':
        r = 'MSC'
    elif num == 'Any cache':
        r = None if missonly else cache('cache')
    elif num == 'RAM':
        r = 'remote DRAM' if far else 'DRAM'
    elif num in ('PMEM', 'CXL', 'I/O'):
        r = num
    elif num == 'L8':
        r = 'uncached'
    if r:
        return r
    for n in names:
        if n == 'L1':
            return 'L1 miss' if missonly else 'L1'
        if n == 'LFB/MAB':
            return 'LFB'
        if n in ('L2', 'L3'):
            return n + ' miss' if missonly else cache(n)
        if n == 'Local RAM':
            return 'remote DRAM' if far else 'DRAM'
        if n.startswith('Remote RAM'):
            return 'remote DRAM'
        if n == 'Remote Cache (1 hop)':
            if hops == HOPS[1]:
                return 'peer cache'
            return 'HITM' if 'HitM' in snoop else 'remote cache'
        if n == 'Remote Cache (2 hops)':
            return 'HITM' if 'HitM' in snoop else 'remote cache'
        if n == 'I/O':
            return 'I/O'
        if n == 'Uncached':
            return 'uncached'
    return '-'


def shown(argv):
    dm, sc, rp = load(argv[:3])
    pages = {}
    for path in argv[3:]:
        frames = [json.loads(x) for x in open(path) if x.startswith('{')]
        last = [f for f in frames if f.get('pages') is not None][-1]
        for p in last['pages']:
            pages[int(p['page'], 16)] = p
    bylevel = {}
    for i in sorted(dm):
        d = dm[i]
        p = pages.get(d['addr'] & ~0xfff)
        if p is None or p['samples'] != 1:
            fail('sample %d: pmctop shows no page of its own for it' % i)
        src = list(p['sources']) or ['-']
        want = expect(rp[i][0], rp[i][1], d)
        if src != [want]:
            fail('sample %d data_src 0x%x, perf "%s | %s": pmctop shows %r, expected %r'
                 % (i, d['src'], rp[i][0], rp[i][1], src[0], want))
        # a load or a store is counted as one; a page none of whose samples was either
        # (no op, N/A, a prefetch or an instruction fetch) shows neither count
        known = sc[i] in ('LOAD', 'STORE')
        have = (p['loads'], p['stores'])
        if have != ((int(sc[i] == 'LOAD'), int(sc[i] == 'STORE')) if known else (None, None)):
            fail('sample %d data_src 0x%x, perf OP %s: pmctop loads %r stores %r'
                 % (i, d['src'], sc[i], have[0], have[1]))
        bylevel[want] = bylevel.get(want, 0) + 1
    print('%d pages: the level, load or store pmctop shows is perf\'s (%s)'
          % (len(dm), ', '.join('%s %d' % kv for kv in sorted(bylevel.items()))))


if __name__ == '__main__':
    {'fields': fields, 'shown': shown}[sys.argv[1]](sys.argv[2:])
