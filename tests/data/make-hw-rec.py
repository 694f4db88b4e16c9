#!/usr/bin/env python3
# Writes hw.rec: a hand-made pmctop recording with hardware-like counts, for tests and demos.
# Rates are per second; the file holds cumulative counts as the kernel reports them.
names = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "cycles",
         "instructions", "cache-references", "cache-misses", "L1-dcache-loads",
         "L1-dcache-load-misses", "dTLB-loads", "dTLB-load-misses", "branches", "branch-misses",
         "LLC-load-misses"]
groups = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
hw = [g > 0 for g in groups]
# task-clock ns, faults, switches, migrations, cycles, instructions, cache refs, cache misses,
# L1d loads, L1d misses, dTLB loads, dTLB misses, branches, branch misses, LLC load misses
rates = {
    101: (900000000, 120, 400, 10, 2700000000, 5400000000, 1000000, 20000, 1500000000,
          15000000, 1500000000, 150000, 900000000, 4500000, 10000),
    202: (950000000, 2500, 30, 1, 2850000000, 1140000000, 50000000, 20000000, 400000000,
          60000000, 400000000, 8000000, 100000000, 6000000, 15000000),
    303: (0,) * 15,
    2: (5000000, 0, 40, 2, 10000000, 6000000, 20000, 2000, 2000000, 20000, 2000000, 200,
        1000000, 10000, 100),
    505: (100000000, 5000, 50, 3, 200000000, 300000000, 100000, 5000, 60000000, 600000,
          60000000, 30000, 30000000, 300000, 2000),
}
info = {2: (0, 0, "root", "S", 1, 2, "kthreadd", ""),
        101: (1, 1000, "alice", "S", 4, 5000, "db-server", "/usr/bin/db-server --port 5432"),
        202: (1, 1001, "bob", "R", 1, 6000, "stream", "./stream -n 100000000"),
        303: (1, 1002, "carol", "S", 1, 7000, "idle-daemon", "idle-daemon"),
        404: (1, 0, "root", "S", 1, 100, "secret", "secret"),
        505: (101, 1000, "alice", "R", 2, 9000, "newproc", "newproc --fast")}
cpu_of = {101: 0, 202: 1, 303: 0, 505: 0}  # the kernel thread's bit is left out of the cores
# /proc's facts: resident KiB and CPU time before the recording began (ns); pid 2 is a kernel
# thread, listed with --kernel-threads or K
res = {2: 0, 101: 524288, 202: 3355443, 303: 1800, 404: 12000, 505: 64000}
cpu0 = {2: 1230000000, 101: 4925670000000, 202: 61200000000, 303: 450000000, 404: 80000000,
        505: 0}
MEMTOTAL = 16 * 1024 * 1024
HEAP, STACK, LIBC = 0x55d0c1000000, 0x7ffc00000000, 0x7f0000200000
MAPS = [(0x55d0c0000000, 0x55d0c0002000, "/home/bob/stream"),
        (0x55d0c0002000, 0x55d0c0008000, "/home/bob/stream"),
        (HEAP, HEAP + 0x2000000, "[heap]"),
        (LIBC, LIBC + 0x1e0000, "/usr/lib/x86_64-linux-gnu/libc.so.6"),
        (STACK, STACK + 0x21000, "[stack]")]

out = ["pmctop-recording 1",
       "# Hand-made by tests/data/make-hw-rec.py: hardware-like counts for tests and demos.",
       "# pid 101 runs at IPC 2; pid 202 at IPC 0.4 with 40% cache misses; pid 303 sleeps;",
       "# pid 404 cannot be counted; pid 505 starts in the last tick; in the last tick the",
       "# cache group of pid 101 ran half the time (multiplexed) and its L1 group never ran.",
       "# Thread lines show pid 101's four threads, as recorded while looking at it.",
       "# Pid 2 is a kernel thread (procinfo flag 1); procinfo lines give RES and TIME+.",
       "# Sample lines are PEBS-like load/store samples of pid 202 (a STREAM-like kernel):",
       "# loads of its arrays miss to DRAM (~280 cycles), stores hit L1.",
       "host demo-server 6.1.0-demo",
       "mode hardware events (skl), recorded by hand"]
for i, n in enumerate(names):
    out.append(f"event {i} {groups[i]} {'hw' if hw[i] else 'sw'} "
               f"{'user' if n == 'LLC-load-misses' else 'default'} ok {n}")
cum = {p: [[0, 0, 0] for _ in names] for p in rates}
# pid 101's threads: the main thread idles, three workers share its work 50:30:20
shares = {101: 0, 102: 50, 103: 30, 104: 20}
tcum = {t: [[0, 0, 0] for _ in names] for t in shares}
cpucum = [[[0, 0, 0] for _ in names] for _ in range(2)]
busy, total = [0, 0], [0, 0]
for tick in range(3):
    out.append(f"tick {(tick + 1) * 1000000000} {1763770000 + tick}.000000 1.50 1.20 0.90")
    out.append(f"memtotal {MEMTOTAL}")
    inc = [[0] * len(names) for _ in range(2)]
    ran = [0, 0]
    tasks = [2, 101, 202, 303, 404] + ([505] if tick == 2 else [])
    lines = []
    for p in tasks:
        if p in rates and tick > 0:
            r = rates[p]
            for i in range(len(names)):
                en = run = r[0]
                if p == 101 and tick == 2 and groups[i] == 2:
                    run = en // 2
                if p == 101 and tick == 2 and groups[i] == 3:
                    run = 0
                v = r[i] * run // en if en else 0
                cum[p][i][0] += v
                cum[p][i][1] += en
                cum[p][i][2] += run
                if p in cpu_of:
                    inc[cpu_of[p]][i] += r[i]
            if p in cpu_of:
                ran[cpu_of[p]] += r[0]
        ppid, uid, user, st, thr, start, comm, cmd = info[p]
        if p == 404:
            counts, err = " ".join(["-EACCES"] * len(names)), "EACCES"
        else:
            counts, err = " ".join(f"{a}/{b}/{c}" for a, b, c in cum[p]), "ok"
        lines.append(f"task {p} {ppid} {uid} {user} {st} {thr} {start} {err} {counts} "
                     f"{comm} {cmd.replace(' ', '%20') or '%'}")
        # the kernel's CPU time is in clock ticks (10 ms): round the task-clock down to them
        spent = cum[p][0][0] if p in cum else 0
        lines.append(f"procinfo {res[p]} {cpu0[p] + spent // 10000000 * 10000000} "
                     f"{1 if p == 2 else 0}")
    for c in range(2):
        if tick > 0:
            busy[c] += ran[c] * 100 // 1000000000
            total[c] += 100
            for i in range(len(names)):
                cpucum[c][i][0] += inc[c][i]
                cpucum[c][i][1] += 1000000000
                cpucum[c][i][2] += 1000000000
        counts = " ".join(f"{a}/{b}/{cc}" for a, b, cc in cpucum[c])
        out.append(f"cpu {c} {busy[c]} {total[c]} {counts}")
    out.extend(lines)
    for tid, share in shares.items():
        if tick > 0:
            r = rates[101]
            for i in range(len(names)):
                en = r[0] * share // 100
                tcum[tid][i][0] += r[i] * share // 100
                tcum[tid][i][1] += en
                tcum[tid][i][2] += en
        counts = " ".join(f"{a}/{b}/{c}" for a, b, c in tcum[tid])
        name = "db-server" if tid == 101 else f"worker-{tid - 101}"
        out.append(f"thread {tid} 101 1000 alice {'S' if share == 0 else 'R'} 1 {5000 + tid - 101} "
                   f"ok {counts} {name} /usr/bin/db-server%20--port%205432")
        out.append(f"procinfo {res[101]} {tcum[tid][0][0] // 10000000 * 10000000} 0")
    # sampling pid 202: ops 1 load, 2 store; levels 1 L1, 4 L3, 5 DRAM
    out.append(f"sampling 202 10007 {3 * tick} 0 Intel%20PEBS")
    if tick == 0:
        for start, end, name in MAPS:
            out.append(f"map {start:x} {end:x} {name}")
    seed = 12345 + tick
    for i in range(300 if tick else 0):
        seed = (seed * 1103515245 + 12345) & 0x7fffffff
        r = seed % 100
        if r < 60:   # loads of a[] and b[]: the first eight heap pages, DRAM
            page = HEAP + (seed >> 8) % 8 * 4096
            out.append(f"sample 202 1 {page + seed % 4096:x} 55d0c0003120 {250 + seed % 60} 1 5")
        elif r < 85:  # stores to c[]: next four pages, L1
            page = HEAP + (8 + (seed >> 8) % 4) * 4096
            out.append(f"sample 202 1 {page + seed % 4096:x} 55d0c0003140 0 2 1")
        elif r < 95:  # the stack, L1
            out.append(f"sample 202 1 {STACK + 0x1f000 + seed % 4096:x} 55d0c00031a0 6 1 1")
        else:         # libc data, L3
            out.append(f"sample 202 1 {LIBC + 0x1c000 + seed % 4096:x} 7f00002a1000 40 1 4")
    out.append("end")
with open("hw.rec", "w") as f:
    f.write("\n".join(out) + "\n")
