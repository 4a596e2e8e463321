#!/usr/bin/env python3
"""Checks that every container of every test report in a run names one probe kind, and that the run left no agent.

usage: matrix_probe_check.py CONFIG_NAME REPORT_DIR PROBE_KIND LEFT_AGENTS [MAX_AGENTS]

Reads every per-test JSON report under REPORT_DIR (a file holding "schema", "test" and "containers") and compares each
container's "probe" with PROBE_KIND (AGENT_CGROUP_V1, say); LEFT_AGENTS is the number of agent containers
(label io.vitals.role=agent) still on the engine after the run, which must be 0. Prints one row:
CONFIG  reports N  containers N  probe KIND  agents N  agents left N  ok|MISMATCH (what differs)
where "agents" counts the distinct agent containers the reports name: one per test JVM (launcher session), however
many classes it runs, so at most MAX_AGENTS (the fork count) when given.
and exits 1 on any difference. matrix_check.py checks the reports' completeness against the JUnit XML.
"""
import collections
import glob
import json
import os
import re
import sys


def main():
    name, reports, kind, left = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    max_agents = int(sys.argv[5]) if len(sys.argv) > 5 else None
    problems, kinds, tests, agents = [], collections.Counter(), 0, set()
    for path in glob.glob(os.path.join(reports, "**", "*.json"), recursive=True):
        try:
            report = json.load(open(path, encoding="utf-8"))
        except ValueError as e:
            problems.append(f"{path}: {e}")
            continue
        if not isinstance(report, dict) or not {"schema", "test", "containers"} <= report.keys():
            continue  # the run's index, the history, a schema
        tests += 1
        if not report["containers"]:
            problems.append(f"{os.path.basename(path)}: no container measured")
        for container in report["containers"]:
            kinds[container.get("probe")] += 1
            # "... via the Vitals agent container (the Vitals agent container 3f2c9e0d8b7a)": which agent read it
            agent = re.search(r"agent container ([0-9a-f]{12})", container.get("probeDescription", ""))
            if agent:
                agents.add(agent.group(1))
    if tests == 0:
        problems.append("no test report")
    others = {k: n for k, n in kinds.items() if k != kind}
    if others:
        problems.append(f"containers read by another probe than {kind}: {others}")
    if left:
        problems.append(f"{left} agent container(s) left on the engine")
    if max_agents is not None and len(agents) > max_agents:
        problems.append(f"{len(agents)} agents for at most {max_agents} test JVMs: one started per class?")
    verdict = "ok" if not problems else "MISMATCH (" + "; ".join(problems) + ")"
    print(f"{name:<40} reports {tests:>2}  containers {sum(kinds.values()):>2}  probe {kind}  agents {len(agents)}  "
          f"agents left {left}  {verdict}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
