#!/usr/bin/env python3
"""Compares a run's Vitals reports with the JUnit XML of the same run (the ground truth).

usage: matrix_check.py [OPTION...] CONFIG_NAME REPORT_DIR XML_DIR...
       matrix_check.py [OPTION...] CONFIG_NAME PROJECT_DIR   (PROJECT_DIR/target/vitals and .../target/*-reports)

options:
  --overlapped=none       no test's window may have overlapped another's (parallel execution with container locks)
  --overlapped=some       at least one must have (parallel execution under @SharedLoad: the opt-in did its work)
  --peaks-as=DIR:MIB      each test's peak memory on each container within MIB MiB of the same test's in the
                          report directory DIR (a serial run of the same fixture); prints the largest difference

Reads every TEST-*.xml in the XML_DIRs (Surefire's, Failsafe's or the console launcher's reports of the run) and,
in REPORT_DIR (target/vitals, or a merged directory), vitals.json, summary.md, index.html and
vitals-history.jsonl. Prints one row:
CONFIG  junit N  index N  summary N  page N  history N  ok|MISMATCH (what differs)
and exits 1 on any difference: a count, or a class whose tests the index lists a different number of times.
"""
import collections
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET


def junit_tests(xml_dirs):
    per_class = collections.Counter()
    for path in [p for d in xml_dirs for p in glob.glob(os.path.join(d, "TEST-*.xml"))]:
        for case in ET.parse(path).iter("testcase"):
            per_class[case.get("classname")] += 1
    return per_class


def peaks(reports):
    """{(uniqueId, container): peak memory bytes} of a report directory's vitals.json."""
    index = json.load(open(os.path.join(reports, "vitals.json"), encoding="utf-8"))
    return {(t["uniqueId"], c["name"]): c.get("peakMemoryBytes")
            for t in index["tests"] for c in (t.get("containers") or [])}


def main():
    options = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    name, reports, xml_dirs = args[0], args[1], args[2:]
    if not xml_dirs:  # a Maven project: its report directory and its plugins' XML
        project = reports
        reports = os.path.join(project, "target", "vitals")
        xml_dirs = glob.glob(os.path.join(project, "target", "*-reports"))
    junit = junit_tests(xml_dirs)
    problems = []
    try:
        index = json.load(open(os.path.join(reports, "vitals.json"), encoding="utf-8"))
        indexed = collections.Counter(t["className"] for t in index["tests"])
        if index["testCount"] != len(index["tests"]):
            problems.append(f"testCount {index['testCount']} but {len(index['tests'])} entries")
    except (OSError, ValueError, KeyError) as e:
        index, indexed = None, collections.Counter()
        problems.append(f"vitals.json unreadable: {e}")
    summary_count = page_count = history_count = -1
    try:
        first = open(os.path.join(reports, "summary.md"), encoding="utf-8").read()
        m = re.search(r"^(\d+) tests?,", first, re.M)
        summary_count = int(m.group(1)) if m else -1
    except OSError as e:
        problems.append(f"summary.md unreadable: {e}")
    try:
        page = open(os.path.join(reports, "index.html"), encoding="utf-8").read()
        page_count = len(re.findall(r'<details id="t\d+"', page))
    except OSError as e:
        problems.append(f"index.html unreadable: {e}")
    history = os.path.join(reports, "vitals-history.jsonl")
    if os.path.exists(history):
        # the measured executions: a repeated test is one history key with a value per repetition, so the values
        # of one whole-test metric are counted (each fixture test watches one container)
        runs = set()
        history_count = 0
        with open(history, encoding="utf-8") as f:
            next(f)
            for line in f:
                row = json.loads(line)
                if "test" not in row:
                    continue  # a testbed or build line (vitals-history/2)
                runs.update(r["id"] for r in row["runs"])
                if row["metric"] == "cpuTime" and row["phase"] == "":
                    history_count += sum(len(r["values"]) for r in row["runs"])
        if len(runs) != 1:
            problems.append(f"the history holds {len(runs)} runs of this one run: {sorted(runs)}")
    # figures of tests whose windows overlapped on a shared container belong to several tests and stay out of the
    # history by design (docs/metrics.md); so do tests measured nowhere (a failure before any container)
    overlapped = 0
    unmeasured = 0
    for test in (index or {}).get("tests", []):
        containers = test.get("containers") or []
        if not containers:
            unmeasured += 1
        elif any(c.get("overlappedWith") for c in containers):
            overlapped += 1
    total = sum(junit.values())
    if total == 0:
        problems.append("the JUnit XML lists no test")
    for what, count, expected in (("index", sum(indexed.values()), total), ("summary", summary_count, total),
                                  ("page", page_count, total),
                                  ("history", history_count, total - overlapped - unmeasured)):
        if count != expected:
            problems.append(f"{what} {count} != {expected}" + ("" if expected == total else
                            f" (junit {total} less {overlapped} overlapped, {unmeasured} unmeasured)"))
    peak_note = ""
    for option in options:
        if option == "--overlapped=none" and overlapped:
            problems.append(f"{overlapped} tests overlapped, none may")
        elif option == "--overlapped=some" and not overlapped and index is not None:
            problems.append("no test overlapped another (the configuration did not do what it is for)")
        elif option.startswith("--peaks-as="):
            other, tolerance = option[len("--peaks-as="):].rsplit(":", 1)
            mine, theirs = peaks(reports), peaks(other)
            worst = 0.0
            for key in sorted(set(mine) | set(theirs)):
                a, b = mine.get(key), theirs.get(key)
                if a is None or b is None:
                    problems.append(f"peak of {key[0]} on {key[1]}: {a} here, {b} in {other}")
                    continue
                diff = abs(a - b) / 2**20
                worst = max(worst, diff)
                if diff > float(tolerance):
                    problems.append(f"peak of {key[0]} on {key[1]}: {a / 2**20:.1f} MiB, "
                                    f"{b / 2**20:.1f} MiB in {other}")
            peak_note = f"  peaks within {worst:.1f} MiB of {os.path.basename(other.rstrip('/'))}"
        elif not option.startswith(("--overlapped=", "--peaks-as=")):
            problems.append(f"unknown option {option}")
    for cls in sorted(set(junit) | set(indexed)):
        if junit[cls] != indexed[cls]:
            problems.append(f"{cls}: junit {junit[cls]}, index {indexed[cls]}")
    verdict = "ok" if not problems else "MISMATCH (" + "; ".join(problems) + ")"
    history_note = f"history {history_count:>2}" + (f" (+{overlapped} overlapped)" if overlapped else "")
    print(f"{name:<40} junit {total:>2}  index {sum(indexed.values()):>2}  summary {summary_count:>2}  "
          f"page {page_count:>2}  {history_note}{peak_note}  {verdict}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
