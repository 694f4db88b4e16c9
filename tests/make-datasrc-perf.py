#!/usr/bin/env python3
# Writes a perf.data (file format) whose samples carry a table of PERF_SAMPLE_DATA_SRC values
# covering every field, for tests/datasrc.sh to have perf decode and compare with pmctop.
# usage: make-datasrc-perf.py OUT
#
# The layout of the file and of its records is the kernel's (include/uapi/linux/perf_event.h)
# and perf's (tools/perf/util/header.h: struct perf_file_header, perf_file_attr). Each sample
# lies on a page of its own, so pmctop's per-page data source is that sample's.
import struct
import sys

# the fields of a data source: (shift, width)
F = {'op': (0, 5), 'lvl': (5, 14), 'snoop': (19, 5), 'lock': (24, 2), 'tlb': (26, 7),
     'lvlnum': (33, 4), 'remote': (37, 1), 'snoopx': (38, 2), 'blk': (40, 3), 'hops': (43, 3)}

OP_NA, OP_LOAD, OP_STORE, OP_PFETCH, OP_EXEC = 0x1, 0x2, 0x4, 0x8, 0x10
LVL = {'NA': 0x1, 'HIT': 0x2, 'MISS': 0x4, 'L1': 0x8, 'LFB': 0x10, 'L2': 0x20, 'L3': 0x40,
       'LOC_RAM': 0x80, 'REM_RAM1': 0x100, 'REM_RAM2': 0x200, 'REM_CCE1': 0x400,
       'REM_CCE2': 0x800, 'IO': 0x1000, 'UNC': 0x2000}
SNP_NA, SNP_NONE, SNP_HIT, SNP_MISS, SNP_HITM = 0x1, 0x2, 0x4, 0x8, 0x10
LN_L1, LN_L2, LN_L3, LN_L4 = 1, 2, 3, 4
LN_ANY, LN_LFB, LN_RAM, LN_PMEM, LN_CXL, LN_IO, LN_UNC, LN_NA = 0xb, 0xc, 0xd, 0xe, 9, 0xa, 8, 0xf
SNPX_FWD, SNPX_PEER = 0x1, 0x2
TLB_NA, TLB_HIT, TLB_MISS, TLB_L1, TLB_L2, TLB_WK, TLB_OS = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40


def src(**kw):
    v = 0
    for k, x in kw.items():
        shift, width = F[k]
        assert 0 <= x < 1 << width, (k, x)
        v |= x << shift
    return v


def lvl(*names):
    v = 0
    for n in names:
        v |= LVL[n]
    return v


def table():
    t = []
    # tools/perf/tests/mem.c's cases (they leave op, snoop, TLB and lock 0)
    t.append(src(lvl=LVL['HIT'], lvlnum=LN_L4))
    t.append(src(lvl=LVL['HIT'], lvlnum=LN_L4, remote=1))
    t.append(src(lvl=LVL['MISS'], lvlnum=LN_PMEM))
    t.append(src(lvl=LVL['MISS'], lvlnum=LN_PMEM, remote=1))
    t.append(src(lvl=LVL['MISS'], lvlnum=LN_RAM, remote=1, snoopx=SNPX_FWD))

    # values of the kind the x86 drivers write (arch/x86/events/intel/ds.c, amd/ibs.c)
    ld = dict(op=OP_LOAD, tlb=TLB_L1 | TLB_L2 | TLB_HIT, lock=0x1)
    for lv, ln, snp, rem in [
            (('NA', 'HIT'), LN_NA, SNP_NA, 0), (('L1', 'HIT'), LN_L1, SNP_NONE, 0),
            (('LFB', 'HIT'), LN_LFB, SNP_NONE, 0), (('L2', 'HIT'), LN_L2, SNP_NONE, 0),
            (('L3', 'HIT'), LN_L3, SNP_NONE, 0), (('L3', 'HIT'), LN_L3, SNP_MISS, 0),
            (('L3', 'HIT'), LN_L3, SNP_HIT, 0), (('L3', 'HIT'), LN_L3, SNP_HITM, 0),
            (('REM_CCE1', 'HIT'), LN_L3, SNP_HIT, 1), (('REM_CCE1', 'HIT'), LN_L3, SNP_HITM, 1),
            (('LOC_RAM', 'HIT'), LN_RAM, SNP_HIT, 0), (('REM_RAM1', 'HIT'), LN_L3, SNP_HIT, 1),
            (('LOC_RAM', 'HIT'), LN_RAM, SNP_NONE | SNP_MISS, 0),
            (('REM_RAM1', 'HIT'), LN_L3, SNP_NONE | SNP_MISS, 1),
            (('IO', 'HIT'), LN_NA, SNP_NONE, 0), (('UNC', 'HIT'), LN_NA, SNP_NONE, 0),
            (('HIT',), LN_L4, SNP_HIT, 0), (('HIT',), LN_PMEM, SNP_HIT, 1),
            (('HIT',), LN_RAM, SNP_NONE, 1), (('HIT',), LN_ANY, SNP_HITM, 1)]:
        t.append(src(lvl=lvl(*lv), lvlnum=ln, snoop=snp, remote=rem, **ld))
    t.append(src(op=OP_LOAD, lvlnum=LN_ANY, remote=1, snoopx=SNPX_FWD, lvl=LVL['HIT']))
    # stores: L1 hit or miss, with the TLB and the lock
    for hit in (LVL['HIT'], LVL['MISS']):
        for tlb in (TLB_L1 | TLB_HIT, TLB_L2 | TLB_MISS, TLB_WK | TLB_OS | TLB_MISS):
            t.append(src(op=OP_STORE, lvl=LVL['L1'] | hit, lvlnum=LN_L1, snoop=SNP_NA, tlb=tlb,
                         lock=0x2 if tlb & TLB_MISS else 0x1))
    # AMD IBS op: L1, L2, the CCX's L3, a near and a far CCX, DRAM near and far, CXL, I/O
    for lv, ln, rem, hops in [('L1', LN_L1, 0, 0), ('L2', LN_L2, 0, 0), ('L3', LN_L3, 0, 0),
                              ('REM_CCE1', LN_ANY, 1, 1), ('REM_CCE2', LN_ANY, 1, 2),
                              ('LOC_RAM', LN_RAM, 0, 0), ('REM_RAM1', LN_RAM, 1, 2),
                              ('NA', LN_CXL, 0, 0), ('IO', LN_IO, 0, 0)]:
        t.append(src(op=OP_LOAD, lvl=lvl(lv, 'HIT'), lvlnum=ln, remote=rem, hops=hops,
                     tlb=TLB_L1 | TLB_L2 | TLB_MISS, snoop=SNP_NA))

    # each field alone, every value it defines and some combinations, on a load
    for v in (OP_NA, OP_LOAD, OP_STORE, OP_PFETCH, OP_EXEC, OP_LOAD | OP_STORE, OP_NA | OP_LOAD):
        t.append(src(op=v, lvl=lvl('L1', 'HIT')))
    for v in (SNP_NA, SNP_NONE, SNP_HIT, SNP_MISS, SNP_HITM, SNP_HIT | SNP_HITM):
        t.append(src(op=OP_LOAD, snoop=v, lvl=lvl('L2', 'HIT')))
    for v in (0x1, 0x2, 0x3):
        t.append(src(op=OP_LOAD, lock=v, lvl=lvl('L1', 'HIT')))
    for v in (TLB_NA, TLB_HIT, TLB_MISS, TLB_L1 | TLB_HIT, TLB_L2 | TLB_HIT, TLB_WK | TLB_MISS,
              TLB_OS | TLB_MISS, TLB_L1 | TLB_L2 | TLB_WK | TLB_OS | TLB_MISS):
        t.append(src(op=OP_LOAD, tlb=v, lvl=lvl('L1', 'HIT')))
    for v in (0x1, 0x2, 0x4, 0x6):
        t.append(src(op=OP_LOAD, blk=v, lvl=lvl('L1', 'HIT'), lvlnum=LN_L1))
    for v in (SNPX_FWD, SNPX_PEER):
        for ln in (LN_L3, LN_ANY, LN_RAM):
            t.append(src(op=OP_LOAD, snoopx=v, lvlnum=ln, lvl=LVL['HIT']))
    # the level bits: each level, hit or miss, with and without a HITM snoop and the remote bit
    for name in ('NA', 'L1', 'LFB', 'L2', 'L3', 'LOC_RAM', 'REM_RAM1', 'REM_RAM2', 'REM_CCE1',
                 'REM_CCE2', 'IO', 'UNC'):
        for hm in ('HIT', 'MISS'):
            for snp in (SNP_HIT, SNP_HITM):
                t.append(src(op=OP_STORE if hm == 'MISS' else OP_LOAD, lvl=lvl(name, hm),
                             snoop=snp))
            t.append(src(op=OP_LOAD, lvl=lvl(name, hm), remote=1))
    for pair in (('L1', 'L2'), ('L3', 'LOC_RAM'), ('REM_RAM1', 'REM_CCE1'), ('LFB', 'L3'),
                 ('L2', 'REM_CCE2')):
        t.append(src(op=OP_LOAD, lvl=lvl(*pair, 'HIT')))
    # the level number: each value, hit, miss or neither, local or remote, each hop count
    i = 0
    snoops = [(SNP_NA, 0), (SNP_NONE, 0), (SNP_HIT, 0), (SNP_MISS, 0), (SNP_HITM, 0),
              (0, SNPX_FWD), (0, SNPX_PEER)]
    for ln in range(0, 16):
        for hm in (0, LVL['HIT'], LVL['MISS']):
            for rem in (0, 1):
                for hops in range(0, 5):
                    if hops and ln in (0, LN_NA):
                        # perf prints no level bits beside the hops: nothing to compare with
                        continue
                    snp, snpx = snoops[i % len(snoops)]
                    i += 1
                    t.append(src(op=OP_LOAD, lvl=hm | (LVL['NA'] if not hm else 0), lvlnum=ln,
                                 remote=rem, hops=hops, snoop=snp, snoopx=snpx))
    return t


def attr_bytes():
    sample_type = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 8) | (1 << 14) | (1 << 15)
    # disabled, exclude_kernel, exclude_hv, precise_ip 2, sample_id_all, mmap2, comm_exec
    flags = (1 << 0) | (1 << 5) | (1 << 6) | (2 << 15) | (1 << 18) | (1 << 23) | (1 << 24)
    # type raw, mem-loads (event 0xcd umask 0x01) with a latency threshold of 30 in config1
    a = struct.pack('<IIQQQQQIIQQ', 4, 128, 0x1cd, 1, sample_type, 0, flags, 0, 0, 30, 0)
    return a + b'\0' * (128 - len(a)), sample_type


def record(rtype, misc, body):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def name_bytes(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)


def main(out):
    attr, sample_type = attr_bytes()
    data = b''
    srcs = table()
    per_pid = 200
    base = 0x7f0000000000
    t0 = 1000000000000
    pids = sorted({1000 + i // per_pid for i in range(len(srcs))})
    for pid in pids:
        idt = struct.pack('<IIQ', pid, pid, t0)
        data += record(3, 0, struct.pack('<II', pid, pid) + name_bytes('datasrc') + idt)
        # MMAP2: a file-less mapping over the sampled pages, and the code
        data += record(10, 2, struct.pack('<IIQQQIIQQII', pid, pid, base, len(srcs) << 12, 0,
                                          0, 0, 0, 0, 3, 0x21) + name_bytes('//anon') + idt)
    for i, v in enumerate(srcs):
        pid = 1000 + i // per_pid
        time = t0 + 1000 + i * 1000
        body = struct.pack('<QIIQQQQQ', 0x400000 + 4 * i, pid, pid, time, base + (i << 12) + 8 * i,
                           1, 10 + i, v)
        data += record(9, 2, body)
    header = struct.pack('<8sQQ', b'PERFILE2', 104, len(attr) + 16)
    attrs_off = 104
    data_off = attrs_off + len(attr) + 16
    header += struct.pack('<QQQQQQ', attrs_off, len(attr) + 16, data_off, len(data), 0, 0)
    header += b'\0' * 32
    assert len(header) == 104
    with open(out, 'wb') as f:
        f.write(header + attr + struct.pack('<QQ', 0, 0) + data)


if __name__ == '__main__':
    main(sys.argv[1])
