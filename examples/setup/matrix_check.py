#!/usr/bin/env python3
"""Compares a run's Vitals reports with the JUnit XML of the same run (the ground truth).

usage: matrix_check.py CONFIG_NAME PROJECT_DIR

Reads every TEST-*.xml under PROJECT_DIR/target/{surefire,failsafe}-reports and, in PROJECT_DIR/target/vitals,
vitals.json, summary.md, index.html and vitals-history.jsonl. Prints one row:
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


def junit_tests(project):
    per_class = collections.Counter()
    for path in glob.glob(os.path.join(project, "target", "*-reports", "TEST-*.xml")):
        for case in ET.parse(path).iter("testcase"):
            per_class[case.get("classname")] += 1
    return per_class


def main():
    name, project = sys.argv[1], sys.argv[2]
    reports = os.path.join(project, "target", "vitals")
    junit = junit_tests(project)
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
        tests, runs = set(), set()
        with open(history, encoding="utf-8") as f:
            next(f)
            for line in f:
                row = json.loads(line)
                tests.add(row["test"])
                runs.update(r["id"] for r in row["runs"])
        history_count = len(tests)
        if len(runs) != 1:
            problems.append(f"the history holds {len(runs)} runs of this one run: {sorted(runs)}")
    total = sum(junit.values())
    if total == 0:
        problems.append("the JUnit XML lists no test")
    for what, count in (("index", sum(indexed.values())), ("summary", summary_count), ("page", page_count),
                        ("history", history_count)):
        if count != total:
            problems.append(f"{what} {count} != junit {total}")
    for cls in sorted(set(junit) | set(indexed)):
        if junit[cls] != indexed[cls]:
            problems.append(f"{cls}: junit {junit[cls]}, index {indexed[cls]}")
    verdict = "ok" if not problems else "MISMATCH (" + "; ".join(problems) + ")"
    print(f"{name:<40} junit {total:>2}  index {sum(indexed.values()):>2}  summary {summary_count:>2}  "
          f"page {page_count:>2}  history {history_count:>2}  {verdict}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
