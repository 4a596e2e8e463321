#!/usr/bin/env python3
"""Summarises the runs of noise.sh: spread per test/container/phase/metric, false failures, detections.

Reads target/noise/<mode>/run-<i>/vitals/**/*.json (the per-test reports, schema vitals-test/1),
run-<i>/failsafe-reports/*.xml (which tests failed) and run-<i>/exit-code. Prints Markdown.
"""
import glob
import json
import os
import statistics
import sys
import xml.etree.ElementTree as ET

METRICS = [  # (key, label, extractor from a usage object, formatter)
    ("cpuTime", "CPU time", lambda u: u["cpuSeconds"], lambda v: f"{v:.2f} s"),
    ("wallTime", "wall time", lambda u: u["wallSeconds"], lambda v: f"{v:.2f} s"),
    ("averageCpu", "average CPU", lambda u: u["averageCpuPercent"], lambda v: f"{v:.0f} %"),
    ("peakMemory", "peak memory", lambda u: u["peakMemory"]["bytes"], lambda v: f"{v / 2**20:.1f} MiB"),
    ("peakPids", "peak PIDs", lambda u: u["peakPids"], lambda v: f"{v:.0f}"),
    ("cpuPressure", "CPU pressure (some)",
     lambda u: (u.get("pressureStall") or {}).get("cpu", {}) and u["pressureStall"]["cpu"]["someSeconds"],
     lambda v: f"{v:.2f} s"),
]


def runs(root, mode):
    return sorted(glob.glob(os.path.join(root, mode, "run-*")), key=lambda p: int(p.rsplit("-", 1)[1]))


def usages(run_dir):
    """Yields (test, container, phase, usage) for every test of one run: the files its run index lists (the
    directory can also hold reports of earlier runs of classes this run did not select)."""
    index = os.path.join(run_dir, "vitals", "vitals.json")
    if not os.path.exists(index):
        return
    with open(index) as f:
        listed = [entry["json"] for entry in json.load(f).get("tests", [])]
    for path in (os.path.join(run_dir, "vitals", name) for name in listed):
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        if doc.get("schema", "").split("/")[0] != "vitals-test":
            continue
        test = doc["test"]["className"].rsplit(".", 1)[-1] + "." + doc["test"]["methodName"]
        if doc["test"].get("parameters"):  # one row per invocation of a parameterized test
            test += " " + doc["test"]["displayName"]
        for c in doc["containers"]:
            yield test, c["name"], "(test)", c["usage"]
            for p in c["phases"]:
                yield test, c["name"], p["name"], p["usage"]


def failures(run_dir):
    """Failed or errored tests of one run, with the first line of their message."""
    failed = []
    for path in glob.glob(os.path.join(run_dir, "failsafe-reports", "TEST-*.xml")):
        for case in ET.parse(path).getroot().iter("testcase"):
            for kind in ("failure", "error"):
                el = case.find(kind)
                if el is not None:
                    msg = (el.get("message") or "").strip().splitlines()
                    failed.append(f"{case.get('classname').rsplit('.', 1)[-1]}.{case.get('name')}: "
                                  f"{msg[0][:160] if msg else kind}")
    return failed


def detections(run_dir):
    """(test, container, phase, metric) of every regression the run's history comparison flagged."""
    index = os.path.join(run_dir, "vitals", "vitals.json")
    if not os.path.exists(index):
        return set()
    with open(index) as f:
        doc = json.load(f)
    found = set()
    for entry in doc.get("tests", []):
        for finding in ((entry.get("baseline") or {}).get("findings") or []):
            if finding.get("kind") == "REGRESSION":
                found.add((entry.get("className", "").rsplit(".", 1)[-1] + "." + entry.get("methodName", ""),
                           finding["container"], finding.get("phase") or "(test)", finding["metric"]))
    return found


def spread(values):
    med = statistics.median(values)
    cv = statistics.pstdev(values) / statistics.mean(values) * 100 if len(values) > 1 and statistics.mean(values) else 0.0
    return med, min(values), max(values), cv


def main(root):
    modes = [m for m in ("quiet", "hog", "cpu20", "mem20") if runs(root, m)]
    series = {}  # (mode, test, container, phase, metric) -> [values]
    for mode in modes:
        for run in runs(root, mode):
            for test, container, phase, usage in usages(run):
                for key, _, extract, _ in METRICS:
                    value = extract(usage)
                    if value is None or value == {}:
                        continue
                    series.setdefault((mode, test, container, phase, key), []).append(float(value))

    print("# Noise and detection power\n")
    print("Runs per mode: " + ", ".join(f"{m} {len(runs(root, m))}" for m in modes) + "\n")
    print("## False failures (quiet and hog)\n")
    for mode in ("quiet", "hog"):
        if mode not in modes:
            continue
        bad = [(os.path.basename(r), failures(r)) for r in runs(root, mode)]
        failed_runs = [b for b in bad if b[1]]
        print(f"- {mode}: {len(failed_runs)} of {len(bad)} runs had a failing test")
        for run, fails in failed_runs:
            for f in fails:
                print(f"  - {run}: {f}")
    print()
    if "quiet" in modes:
        # each quiet run is compared with the quiet runs before it (it only warns, since it updates the history):
        # a regression flagged there is a false alarm of the statistical baseline
        quiet = [detections(r) for r in runs(root, "quiet")]
        print("## False alarms of the history comparison (quiet runs against the quiet runs before them)\n")
        for metric in ("cpuTime", "peakMemory"):
            alarms = [sorted(k for k in found if k[3] == metric) for found in quiet]
            print(f"- {metric}: flagged in {sum(1 for a in alarms if a)} of {len(quiet)} quiet runs"
                  + "".join(f"\n  - run-{i + 1}: " + ", ".join(f"{t} / {c} / {p}" for t, c, p, _ in a)
                            for i, a in enumerate(alarms) if a))
        others = sorted({(i + 1, k[0], k[3]) for i, found in enumerate(quiet) for k in found
                         if k[3] not in ("cpuTime", "peakMemory")})
        print(f"- any other metric: flagged in {len({i for i, _, _ in others})} of {len(quiet)} quiet runs"
              + "".join(f"\n  - run-{i}: {t} {m}" for i, t, m in others))
        print()
    for mode, metric in (("cpu20", "cpuTime"), ("mem20", "peakMemory")):
        if mode not in modes:
            continue
        print(f"## Detections: {mode} (+20 % injected), metric {metric}\n")
        per_run = [detections(r) for r in runs(root, mode)]
        flagged_runs = sum(1 for found in per_run if any(k[3] == metric for k in found))
        print(f"- runs in which the history comparison flagged {metric} in at least one test: "
              f"{flagged_runs} of {len(per_run)}")
        per_key = {}
        for found in per_run:
            for key in found:
                if key[3] == metric:
                    per_key[key] = per_key.get(key, 0) + 1
        for (test, container, phase, _), count in sorted(per_key.items()):
            print(f"  - {test} / {container} / {phase}: flagged in {count} of {len(per_run)} runs")
        others = sorted({k for found in per_run for k in found if k[3] != metric})
        if others:
            print(f"- other metrics flagged (by-products of the injection): "
                  + ", ".join(f"{t} {m}" for t, _, _, m in others[:12]))
        print()
    print("## Spread per test, container, phase and metric\n")
    header = "| test | container | phase | metric | " + " | ".join(
        f"{m}: median [min, max] CV" for m in modes) + " |"
    print(header)
    print("|" + "---|" * (4 + len(modes)))
    keys = sorted({k[1:] for k in series})
    for test, container, phase, key in keys:
        label, fmt = next((l, f) for k, l, _, f in METRICS if k == key)
        cells = []
        for mode in modes:
            values = series.get((mode, test, container, phase, key))
            if not values:
                cells.append("–")
                continue
            med, lo, hi, cv = spread(values)
            cells.append(f"{fmt(med)} [{fmt(lo)}, {fmt(hi)}] {cv:.0f} %")
        print(f"| {test} | {container} | {phase} | {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/noise")
