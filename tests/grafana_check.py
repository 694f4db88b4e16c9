#!/usr/bin/env python3
# Checks contrib/grafana-pmctop.json and contrib/pmctop.rules.yml for tests/grafana.sh.
#   lint BOARD: the board's structure (datasources, targets, variables, no hard-coded job)
#   run PMCTOP BOARD RULES TMP REC...: every panel query and recording rule, run by promtool on
#     the exposition pmctop --listen serves for each frame of each recording, against the
#     numbers pmctop -b -o json prints for the same frames
# Prints "PASS<tab>what" or "FAIL<tab>what" per check, "# ..." lines to explain.
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

JOB, INSTANCE, K = "pmctop", "replay:10185", "2"
STEP = 60  # seconds between frames in the unit test: a [1m] range holds two frames exactly
REL = 0.01  # relative tolerance; an absolute one covers the digits pmctop's JSON rounds off


def say(ok, what):
    print("%s\t%s" % ("PASS" if ok else "FAIL", what), flush=True)


def targets(board):
    for p in board["panels"]:
        for t in p.get("targets", []):
            yield p, t


def lint(path):
    with open(path) as f:
        board = json.load(f)
    names = {v["name"] for v in board["templating"]["list"]}
    inputs = {"${%s}" % i["name"] for i in board.get("__inputs", [])}
    ids, problems = set(), []
    for p in board["panels"]:
        what = "panel %r" % p.get("title")
        if p.get("id") in ids:
            problems.append("%s: id %s twice" % (what, p.get("id")))
        ids.add(p.get("id"))
        for k in ("title", "type", "gridPos", "datasource"):
            if k not in p:
                problems.append("%s has no %s" % (what, k))
        if p.get("datasource", {}).get("uid") not in inputs:
            problems.append("%s: datasource is not an input of the board" % what)
        if not p.get("targets"):
            problems.append("%s has no targets" % what)
        refs = [t.get("refId") for t in p.get("targets", [])]
        if len(set(refs)) != len(refs):
            problems.append("%s: refIds repeat" % what)
        for t in p.get("targets", []):
            e = t.get("expr", "")
            if not e.strip():
                problems.append("%s %s has no expr" % (what, t.get("refId")))
            if t.get("datasource", {}).get("uid") not in inputs:
                problems.append("%s %s: datasource is not an input" % (what, t.get("refId")))
            if re.search(r'\bjob\s*=~?\s*"(?!\$job")', e) or "job=" in e.replace(" ", "") and '"$job"' not in e:
                problems.append("%s %s: hard-coded job" % (what, t.get("refId")))
            for sel in re.findall(r'\{([^}]*)\}', e):
                if "job" not in sel or "instance" not in sel:
                    problems.append("%s %s: a selector without $job and $instance: {%s}" %
                                    (what, t.get("refId"), sel))
            for v in re.findall(r'\$(\w+)', e):
                if v not in names:
                    problems.append("%s %s: unknown variable $%s" % (what, t.get("refId"), v))
    for v in board["templating"]["list"]:
        if v["type"] == "query" and v.get("datasource", {}).get("uid") not in inputs:
            problems.append("variable %s: datasource is not an input" % v["name"])
    cells = set()
    for p in board["panels"]:
        g = p["gridPos"]
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells or x >= 24:
                    problems.append("panel %r overlaps another or the edge" % p["title"])
                cells.add((x, y))
    for pr in problems:
        print("# " + pr)
    say(not problems, "the board's %d panels have a datasource, targets with expr, and use "
        "$job and $instance in every selector" % len(board["panels"]))
    say({"job", "instance"} <= names, "the board has the variables $job and $instance")


def substitute(expr):
    return expr.replace("$job", JOB).replace("$instance", INSTANCE).replace("$k", K)


# --- the exposition of each frame -----------------------------------------------------------

def ticks_of(path):
    """The recording's header and its tick blocks."""
    head, blocks = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("tick "):
                blocks.append([])
            (blocks[-1] if blocks else head).append(line)
    return head, blocks


def serve(pmctop, rec, nticks, opts, tmp):
    """What pmctop --listen serves after replaying rec (nticks ticks) to its end."""
    err = open(os.path.join(tmp, "listen.err"), "w+")
    p = subprocess.Popen([pmctop, "--replay", rec, "--listen", "127.0.0.1:0", "-d", "0"] + opts,
                         stdout=subprocess.DEVNULL, stderr=err)
    deadline, addr, text = time.time() + 20, None, None
    try:
        while time.time() < deadline and p.poll() is None:
            err.seek(0)
            m = re.search(r"serving metrics on http://(\S+)/metrics", err.read())
            if m:
                addr = m.group(1)
                # the replay has ended when the tick count is the recording's
                with urllib.request.urlopen("http://%s/metrics" % addr, timeout=5) as r:
                    body = r.read().decode()
                if re.search(r"^pmctop_ticks_total %d$" % nticks, body, re.M):
                    text = body
                    break
            time.sleep(0.05)
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait()
        err.close()
    return text


LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """{(name, labels string with job and instance): value}, and {(name, ((k, v), ...)): value}."""
    series = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        name, labels, value = m.group(1), m.group(2) or "", m.group(3)
        lab = tuple(LABEL.findall(labels))
        series[(name, lab)] = float(value)
    return series


def selector(name, lab):
    parts = ['job="%s"' % JOB, 'instance="%s"' % INSTANCE] + ['%s="%s"' % kv for kv in lab]
    return "%s{%s}" % (name, ",".join(parts))


def num(v):
    if math.isnan(v):
        return "NaN"
    return repr(v) if v != int(v) else "%d" % v


# --- pmctop's own numbers and what each query should give -----------------------------------

EVENT_COLS = {"page-faults": "pf", "context-switches": "cs", "cpu-migrations": "mig"}
DP = {"ipc": 3, "cpi": 3, "ghz": 3, "cache": 2, "l1d": 2, "dtlb": 2, "brmis": 2, "cpu": 2,
      "busy": 2, "pf": 1, "cs": 1, "mig": 1, "counted": 1}
RATIO_COLS = {"ipc": ("ipc", 1), "cpi": ("cpi", 1), "ghz": ("ghz", 1),
              "cache_miss_ratio": ("cache", 0.01), "l1d_miss_ratio": ("l1d", 0.01),
              "dtlb_miss_ratio": ("dtlb", 0.01), "branch_miss_ratio": ("brmis", 0.01)}
# scope: the labels a result is told apart by, and the raw family whose series name its rows
SCOPES = {"all": ((), "pmctop_cpu_event_count_total"),
          "cpu": (("cpu",), "pmctop_cpu_event_count_total"),
          "event": (("event",), "pmctop_cpu_event_count_total"),
          "cpu_event": (("cpu", "event"), "pmctop_cpu_event_count_total"),
          "process": (("pid",), "pmctop_process_event_count_total"),
          "process_event": (("pid", "event"), "pmctop_process_event_count_total"),
          "cgroup": (("cgroup",), "pmctop_cgroup_event_count_total"),
          "cgroup_event": (("cgroup", "event"), "pmctop_cgroup_event_count_total"),
          "status": (("event",), "pmctop_event_status")}


def oracle_of_rule(name):
    """(scope, column, factor, kind) for a recording rule: kind "ratio" is a ratio of rates
    (the stretch of time cancels), "rate" a per-second rate (it is STEP / interval times
    smaller than pmctop's), "min" a counted share (checked as its minimum), None unchecked."""
    m = re.match(r"pmctop:(?:(cpu|process|cgroup):)?(\w+?)1m$", name)
    if m and m.group(2) in RATIO_COLS:
        col, f = RATIO_COLS[m.group(2)]
        return (m.group(1) or "all", col, f, "ratio")
    table = {
        "pmctop:cpu_event:rate1m": ("cpu_event", None, 1, "rate"),
        "pmctop:event:rate1m": ("event", None, 1, "rate"),
        "pmctop:process_event:rate1m": ("process_event", None, 1, "rate"),
        "pmctop:cgroup_event:rate1m": ("cgroup_event", None, 1, "rate"),
        "pmctop:cpu:busy_ratio1m": ("cpu", "busy", 0.01, "rate"),
        "pmctop:busy_cpus1m": ("all", "busy", 0.01, "rate_sum"),
        "pmctop:process:cpus1m": ("process", "cpu", 0.01, "rate"),
        "pmctop:cgroup:cpus1m": ("cgroup", "cpu", 0.01, "rate"),
        "pmctop:cpu_event:counted_ratio1m": ("cpu", "counted", 0.01, "min"),
        "pmctop:event:counted_ratio1m": ("all", "counted", 0.01, "min"),
    }
    return table.get(name)


PANEL_ORACLES = {
    "Top processes by CPI": ("process", "cpi", 1, "topk"),
    "Top processes by %CPU": ("process", "cpu", 1, "topk_rate"),
    "Event status": ("status", None, 1, None),
    ("pmctop itself", "A"): ("all", None, 1, None),
    ("pmctop itself", "B"): ("all", "fds", 1, "fds"),
}


def oracle_of_target(p, t, rules):
    e = substitute(t["expr"])
    m = re.match(r'^([a-z_:0-9]+)\{job=~"%s",instance=~"%s"\}$' % (JOB, re.escape(INSTANCE)), e)
    if m and m.group(1) in rules:
        return oracle_of_rule(m.group(1))
    return PANEL_ORACLES.get((p["title"], t["refId"])) or PANEL_ORACLES.get(p["title"])


def rows_of(frame, scope):
    if scope in ("all",):
        return {(): next(c for c in frame["cpus"] if c["cpu"] == "all")}
    if scope.startswith("cpu"):
        return {(str(c["cpu"]),): c for c in frame["cpus"] if c["cpu"] != "all"}
    if scope.startswith("process"):
        return {(str(c["pid"]),): c for c in frame.get("processes", [])}
    if scope.startswith("cgroup"):
        return {(c["cgroup"],): c for c in frame.get("cgroups", [])}
    return {}


def expected(oracle, frames, expo, j):
    """{key: value (NaN: none), None: present, any value}, and the absolute tolerance."""
    scope, col, factor, kind = oracle
    labels, family = SCOPES[scope]
    keys = None
    for s in (expo[j - 1], expo[j]) if scope != "status" else (expo[j],):
        ks = {tuple(dict(lab).get(n) for n in labels) for (name, lab) in s if name == family}
        keys = ks if keys is None else keys & ks
    frame = frames[j]
    stretch = frame["interval"] / STEP
    out, tol = {}, 0.0
    rows = {}
    for fr in frames[j]["_all"]:
        rows.update(rows_of(fr, scope))
    for key in keys:
        v = None
        if kind in ("ratio", "rate", "min", "topk", "topk_rate") and scope in (
                "all", "cpu", "process", "cgroup"):
            row = rows.get(key)
            x = row.get(col) if row else None
            v = float("nan") if x is None else x * factor
            if kind in ("rate", "topk_rate"):
                v *= stretch
            tol = 0.6 * 10 ** -DP[col] * factor * (stretch if "rate" in kind else 1)
        elif kind == "rate" and scope.endswith("event"):
            ev = key[-1]
            row = rows.get(key[:-1])
            if ev in EVENT_COLS and row is not None:
                x = row.get(EVENT_COLS[ev])
                v = float("nan") if x is None else x * stretch
                tol = 0.6 * 10 ** -DP[EVENT_COLS[ev]] * stretch
        elif kind == "rate_sum":
            v = sum(r["busy"] for r in rows_of(frame, "cpu").values()) * factor * stretch
            tol = 0.6 * 10 ** -DP["busy"] * factor * stretch * len(rows_of(frame, "cpu"))
        elif kind == "fds":
            val = {n: x for (n, lab), x in expo[j].items()}
            v = val["process_open_fds"] / val["process_max_fds"]
        out[key] = v
    if kind in ("topk", "topk_rate"):
        ranked = sorted((k for k in out if not math.isnan(out[k])), key=lambda k: -out[k])
        out = {k: out[k] for k in ranked[:int(K)]}
    return labels, out, tol


def wrap(oracle, q):
    if oracle[3] == "min":
        return "min without (event, pmu) (%s)" % q
    return q


def promtool_test(name, q, oracle, frames, expo, inputs, tmp, nframes):
    """One promtool unit test of query q over every frame; returns its complaints."""
    tests, extra = [], []
    on = ", ".join(("job", "instance") + SCOPES[oracle[0]][0])
    for j in range(1, nframes):
        labels, exp, tol = expected(oracle, frames, expo, j)
        qq = wrap(oracle, q)
        check = "c%d" % j
        vals = {k: v for k, v in exp.items() if v is not None}
        for k, v in vals.items():
            lab = tuple(zip(labels, k)) + (("check", check),)
            extra.append((selector("pmctop_expected", lab), " ".join(["_"] * j + [num(v)])))
        E = 'pmctop_expected{check="%s"}' % check
        nnan = sum(1 for v in vals.values() if math.isnan(v))
        nval = len(vals) - nnan
        t = lambda expr, n: {"expr": expr, "eval_time": "%ds" % (j * STEP), "exp_samples":
                             [{"labels": "{}", "value": n}] if n else []}
        tests.append(t("count(%s)" % qq, len(exp)) if exp else
                     {"expr": qq, "eval_time": "%ds" % (j * STEP), "exp_samples": []})
        tests.append(t("count((%s) == (%s) and on (%s) (%s == %s))" % (qq, qq, on, E, E), nval))
        tests.append(t("count((%s) != (%s) and on (%s) (%s != %s))" % (qq, qq, on, E, E), nnan))
        tests.append({"expr": "abs((%s) - on (%s) %s) > on (%s) (%g * abs(%s) + %g)" %
                      (qq, on, E, on, REL, E, tol), "eval_time": "%ds" % (j * STEP),
                      "exp_samples": []})
    doc = {"rule_files": [os.path.abspath(RULES)], "evaluation_interval": "%ds" % STEP,
           "tests": [{"interval": "%ds" % STEP,
                      "input_series": [{"series": s, "values": v} for s, v in inputs + extra],
                      "promql_expr_test": tests}]}
    path = os.path.join(tmp, re.sub(r"\W+", "_", name) + ".yml")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)  # YAML reads JSON
    r = subprocess.run(["promtool", "test", "rules", path], capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stdout + r.stderr)


def run(pmctop, board_path, rules_path, tmp, recs):
    global RULES
    RULES = rules_path
    with open(board_path) as f:
        board = json.load(f)
    rules = []
    with open(rules_path) as f:
        rules = re.findall(r"^\s*- record: (\S+)$", f.read(), re.M)
    queries = []
    for p, t in targets(board):
        queries.append(("panel %r %s" % (p["title"], t["refId"]), substitute(t["expr"]),
                        oracle_of_target(p, t, rules)))
    for r in rules:
        queries.append(("rule %s" % r, r, oracle_of_rule(r)))
    for what, q, o in queries:
        if o is None:
            say(False, "%s has something to be checked against" % what)
    seen = {}
    for rec in recs:
        head, blocks = ticks_of(rec)
        expo = []
        for k in range(1, len(blocks) + 1):
            part = os.path.join(tmp, "part.rec")
            with open(part, "w") as f:
                f.writelines(head + [l for b in blocks[:k] for l in b])
            text = serve(pmctop, part, k, ["--export-processes", "10"], tmp)
            if text is None:
                say(False, "pmctop --listen served the %d ticks of %s" % (k, rec))
                return
            expo.append(parse(text))
        say(True, "pmctop --listen served each of the %d frames of %s" % (len(blocks), rec))
        frames = []
        for opts in ([], ["--cgroups"]):
            out = subprocess.run([pmctop, "-b", "-o", "json", "-d", "0", "--replay", rec] + opts,
                                 capture_output=True, text=True, check=True).stdout
            for j, line in enumerate(out.splitlines()):
                fr = json.loads(line)
                if not opts:
                    fr["_all"] = [fr]
                    frames.append(fr)
                else:
                    frames[j]["_all"].append(fr)
        # every series of every frame, one value per frame ("stale" after it goes)
        names = sorted({k for s in expo for k in s}, key=lambda k: selector(*k))
        inputs = []
        for key in names:
            vals, was = [], False
            for s in expo:
                if key in s:
                    vals.append(num(s[key]))
                    was = True
                else:
                    vals.append("stale" if was else "_")
                    was = False
            inputs.append((selector(*key), " ".join(vals)))
        for what, q, o in queries:
            if o is None:
                continue
            err = promtool_test(what + " " + os.path.basename(rec), q, o, frames, expo, inputs,
                                tmp, len(blocks))
            if err:
                print("# " + "\n# ".join(err.splitlines()[:40]))
            seen.setdefault(what, []).append(err is None)
    for what, q, o in queries:
        if o is not None:
            say(all(seen.get(what, [False])), "%s agrees with pmctop's own numbers" % what)


if __name__ == "__main__":
    if sys.argv[1] == "lint":
        lint(sys.argv[2])
    else:
        run(*sys.argv[2:6], sys.argv[6:])
