#!/usr/bin/env python3
# Writes steps.rec: a hand-made pmctop recording of eight ticks whose frames differ, for the
# tests of stepping and seeking a replay and of the drill-down's hot-page list.
# Frame k (the ticks k-1 and k) shows pid 100 at k * 10 %CPU and IPC k / 2; pid 300 appears in
# tick 4; the mappings of the sampled pid 100 are written in tick 0 and change in tick 5.
names = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "cycles",
         "instructions", "cache-references", "cache-misses"]
groups = [0, 0, 0, 0, 1, 1, 2, 2]
T0, WALL0, TICKS = 5000000000, 1763800000, 8
BIN, HEAP, ANON, ANON2 = 0x400000, 0x1e4b000, 0x7f12a000, 0x7f200000
MAPS = [(BIN, BIN + 0x1000, "/opt/steps/alpha"), (BIN + 0x1000, BIN + 0x3000, "/opt/steps/alpha"),
        (HEAP, HEAP + 0x21000, "[heap]"), (ANON, ANON + 0x11000, "[anon]")]
MAPS2 = MAPS + [(ANON2, ANON2 + 0x8000, "[anon]")]
out = ["pmctop-recording 1",
       "# Hand-made by tests/data/make-steps-rec.py: eight ticks whose frames differ.",
       "host steps-host 6.1.0-steps",
       "mode hardware events (demo), made by hand"]
for i, n in enumerate(names):
    out.append(f"event {i} {groups[i]} {'hw' if groups[i] else 'sw'} default ok {n}")
cum = {p: [[0, 0, 0] for _ in names] for p in (100, 200, 300)}
cpucum = [[[0, 0, 0] for _ in names] for _ in range(2)]
busy, total = [0, 0], [0, 0]
for k in range(TICKS):
    out.append(f"tick {T0 + k * 1000000000} {WALL0 + k}.000000 0.50 0.40 0.30 {3600 + k}")
    lines = []
    for p in (100, 200, 300):
        if p == 300 and k < 4:
            continue
        if k > 0 and not (p == 300 and k == 4):
            ns = {100: k * 100000000, 200: 50000000, 300: 20000000}[p]
            rate = [ns, 10 * k, 5, 0, 2 * ns, ns * k, 1000, 100 * k]
            for i in range(len(names)):
                en = run = 1000000000
                if p == 100 and k == 6 and groups[i] == 2:
                    run = en // 2
                cum[p][i][0] += rate[i] * run // en
                cum[p][i][1] += en
                cum[p][i][2] += run
                c = cpucum[p == 200]
                c[i][0] += rate[i]
                c[i][1] += 1000000000
                c[i][2] += 1000000000
        counts = " ".join(f"{a}/{b}/{c}" for a, b, c in cum[p])
        comm = {100: "alpha", 200: "beta", 300: "gamma"}[p]
        lines.append(f"task {p} 1 1000 alice R 1 {p * 10} ok {counts} {comm} ./{comm}")
    for c in range(2):
        if k > 0:
            busy[c] += 10 * k if c == 0 else 5
            total[c] += 100
        counts = " ".join(f"{a}/{b}/{cc}" for a, b, cc in cpucum[c])
        out.append(f"cpu {c} {busy[c]} {total[c]} {counts}")
    out.extend(lines)
    out.append(f"sampling 100 1 0 0 page%20faults")
    if k in (0, 5):
        for start, end, name in (MAPS if k == 0 else MAPS2):
            out.append(f"map {start:x} {end:x} {name}")
    # page-fault samples: the heap pages 0-3 from two functions of the binary, anonymous pages
    for i in range(6 * k):
        if i % 3 == 0:
            addr, ip = HEAP + (i % 4) * 4096 + 16 * i, BIN + 0x1120
        elif i % 3 == 1:
            addr, ip = HEAP + (i % 2) * 4096 + 8 * i, BIN + 0x1200 + i % 4
        else:
            addr, ip = (ANON2 if k >= 5 else ANON) + 4096 * (i % 3), BIN + 0x1480
        out.append(f"sample 100 0 {addr:x} {ip:x} 0 0 0")
    out.append("end")
with open("steps.rec", "w") as f:
    f.write("\n".join(out) + "\n")
