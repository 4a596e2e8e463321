#!/bin/bash
# The execution-configuration matrix (run.sh matrix, part of run.sh all): the fixture project examples/matrix (four
# classes of two tests on the stress image) run the ways users run JUnit, each run's reports compared with the JUnit
# XML of the same run (matrix_check.py): forks (Surefire and Failsafe, forkCount 1, 2 and 4, reuseForks true and
# false), JUnit parallel execution (classes, methods, both concurrent with the default container locks; classes,
# methods concurrent with the fixture under @SharedLoad; Failsafe's four forks with classes and methods concurrent),
# a rerun of a test that fails once, and one method selected as an IDE does; the Vitals agent (-Dvitals.probe=agent,
# two forks) against the second engine; then the console launcher (classes and methods concurrent, under the
# locks), and a two-module reactor built with -T 2 whose reports MergeReports merges. The fixture holds
# plain, parameterized, repeated and @Nested tests, a PER_CLASS class with its container in a superclass, and two
# classes sharing a singleton container.
# Needs the engine and the stress image (run.sh sets them up) and installs vitals-junit into the local repository.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=testcontainers-env.sh
source "$here/testcontainers-env.sh"

mvn_args=(-B -ntp -q -Dstyle.color=never)
# MATRIX_INSTALL=false runs the fixture against the vitals-junit already in the local repository (one cell by hand)
if [[ "${MATRIX_INSTALL:-true}" != false ]]; then
  start="$(vitals_now)"
  (cd "$root" && mvn "${mvn_args[@]}" install -DskipTests -pl extension -am)
  vitals_took "install vitals-junit" "$start"
fi

fixture="$root/examples/matrix"
everything='**/*Check.java'
parallel_classes=(-Djunit.jupiter.execution.parallel.enabled=true
  -Djunit.jupiter.execution.parallel.mode.default=same_thread
  -Djunit.jupiter.execution.parallel.mode.classes.default=concurrent)
parallel_methods=(-Djunit.jupiter.execution.parallel.enabled=true
  -Djunit.jupiter.execution.parallel.mode.default=concurrent
  -Djunit.jupiter.execution.parallel.mode.classes.default=same_thread)
parallel_both=(-Djunit.jupiter.execution.parallel.enabled=true
  -Djunit.jupiter.execution.parallel.mode.default=concurrent
  -Djunit.jupiter.execution.parallel.mode.classes.default=concurrent)

# name | plugin | arguments | a text the JUnit XML must hold (the premise of the configuration), if any | options of
# matrix_check.py. Parallel execution runs twice: with the default, where the tests sharing a container take its
# lock (--overlapped=none: not one window may overlap another), and with -Dmatrix.windows=shared, the fixture under
# @SharedLoad, where they overlap and are marked (methods concurrent: --overlapped=some, the opt-in did its work).
# MATRIX_ONLY (a bash regex on the names) runs a subset, e.g. MATRIX_ONLY='console|reactor'; MATRIX_ARGS adds
# arguments to each of these cells (-Dmatrix.work=wait: tests that wait instead of working). MATRIX_PEAKS_AS=DIR:MIB
# also compares each test's peak memory in the cells with locks with a serial run's reports in DIR (matrix_check.py).
configs=(
  "surefire forkCount=1 reuseForks=true|surefire|-DforkCount=1 -DreuseForks=true"
  "surefire forkCount=2 reuseForks=true|surefire|-DforkCount=2 -DreuseForks=true"
  "surefire forkCount=2 reuseForks=false|surefire|-DforkCount=2 -DreuseForks=false"
  "surefire forkCount=4 reuseForks=false|surefire|-DforkCount=4 -DreuseForks=false"
  "failsafe forkCount=1 reuseForks=false|failsafe|-DforkCount=1 -DreuseForks=false"
  "failsafe forkCount=4 reuseForks=true, classes and methods concurrent|failsafe|-DforkCount=4 -DreuseForks=true ${parallel_both[*]}||--overlapped=none"
  "surefire classes concurrent, locks|surefire|${parallel_classes[*]}||--overlapped=none"
  "surefire methods concurrent, locks|surefire|${parallel_methods[*]}||--overlapped=none"
  "surefire classes and methods concurrent, locks|surefire|${parallel_both[*]}||--overlapped=none"
  "surefire classes concurrent, shared load|surefire|-Dmatrix.windows=shared ${parallel_classes[*]}"
  "surefire methods concurrent, shared load|surefire|-Dmatrix.windows=shared ${parallel_methods[*]}||--overlapped=some"
  "surefire rerun, a test failing once|surefire|-Dsurefire.rerunFailingTestsCount=2 -Dmatrix.flaky=$fixture/target/flaky|<flakyFailure"
  "surefire one method (-Dtest=AlphaCheck#first)|surefire|-Dtest=AlphaCheck#first"
)

status=0
rows=()
for config in "${configs[@]}"; do
  IFS='|' read -r name plugin args premise check <<<"$config"
  [[ -z "${MATRIX_ONLY:-}" || "$name" =~ $MATRIX_ONLY ]] || continue
  rm -rf "$fixture/target"
  log="$(mktemp)"
  start="$(vitals_now)"
  # shellcheck disable=SC2086 # the arguments are words
  if ! (cd "$fixture" && mvn "${mvn_args[@]}" verify "-Dmatrix.$plugin=$everything" -Dvitals.requireDocker=true \
      -Dvitals.console=off "-Dvitals.history=$fixture/target/history.jsonl" -Dvitals.history.update=true \
      $args ${MATRIX_ARGS:-}) >"$log" 2>&1; then
    vitals_log "ERROR: $name: the build failed"
    tail -n 40 "$log" >&2
    vitals_junit_failures "$fixture"/target/*-reports/TEST-*.xml
    status=1
  fi
  vitals_took "matrix: $name" "$start"
  # Vitals' warnings: "WARN io.vitals..." through slf4j-simple (the fixture's binding), "[vitals] WARNING:" without one
  if grep -qE 'WARNING|WARN io\.vitals' "$log"; then
    vitals_log "$name: Vitals warned:"
    grep -E 'WARNING|WARN io\.vitals' "$log" | sed 's/^/[vitals]   /' >&2
  fi
  if [[ -n "${MATRIX_PEAKS_AS:-}" && "$check" == *overlapped=none* ]]; then
    check+=" --peaks-as=$MATRIX_PEAKS_AS"
  fi
  # shellcheck disable=SC2086 # the options are words
  rows+=("$(python3 "$here/matrix_check.py" $check "$name" "$fixture")") || status=1
  if [[ -n "$premise" ]] && ! grep -qs -- "$premise" "$fixture"/target/*-reports/TEST-*.xml; then
    rows+=("$name: MISMATCH (the JUnit XML holds no '$premise': the configuration did not do what it is for)")
  fi
  rm -f "$log"
done
# The Vitals agent: the fixture against the second engine (examples/setup/second-engine.sh), which it reaches only
# through DOCKER_HOST=tcp://..., so the host probe cannot be used; -Dvitals.probe=agent, two forks, so two test JVMs
# share the engine, each with its own agent (one per JVM: its launcher session's, shared by the classes it runs).
# Every container of every report must name the agent's probe, the reports must be complete (matrix_check.py), at
# most two agents may have read them, and no agent container may be left on the engine after the run.
name="agent on the second engine, forkCount=2"
if [[ -z "${MATRIX_ONLY:-}" || "$name" =~ $MATRIX_ONLY ]]; then
  second_host="${VITALS_SECOND_ENGINE:-tcp://127.0.0.1:23750}"
  bash "$here/second-engine.sh" >&2 # starts it if none answers, loads the stress and agent images if missing
  rm -rf "$fixture/target"
  log="$(mktemp)"
  start="$(vitals_now)"
  # what other users of the engine run (their agents among them) is not this run's: compared by ID afterwards
  second_before="$(docker -H "$second_host" ps -aq --no-trunc | sort)"
  new_on_second() {
    comm -13 <(echo "$second_before") <(docker -H "$second_host" ps -aq --no-trunc "$@" | sort)
  }
  # Ryuk's image is not on the second engine; the fixture's containers stop with their JVM (shutdown hooks), and
  # what a crash leaves is counted below. The second engine has no bridge networking: --network none
  if ! (cd "$fixture" && DOCKER_HOST="$second_host" TESTCONTAINERS_RYUK_DISABLED=true mvn "${mvn_args[@]}" verify \
      "-Dmatrix.surefire=$everything" -DforkCount=2 -DreuseForks=true -Dmatrix.network=none -Dvitals.probe=agent \
      -Dvitals.requireDocker=true -Dvitals.console=off "-Dvitals.history=$fixture/target/history.jsonl" \
      -Dvitals.history.update=true) >"$log" 2>&1; then
    vitals_log "ERROR: $name: the build failed"
    tail -n 40 "$log" >&2
    vitals_junit_failures "$fixture"/target/*-reports/TEST-*.xml
    status=1
  fi
  if grep -qE 'WARNING|WARN io\.vitals' "$log"; then
    vitals_log "$name: Vitals warned:"
    grep -E 'WARNING|WARN io\.vitals' "$log" | sed 's/^/[vitals]   /' >&2
  fi
  # the agent exits when its stdin closes and the engine removes it (AutoRemove): give that a moment
  agents=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    agents="$(new_on_second --filter label=io.vitals.role=agent)"
    [[ -z "$agents" ]] && break
    sleep 0.5
  done
  left_agents="$(wc -w <<<"$agents")"
  rows+=("$(python3 "$here/matrix_check.py" "$name" "$fixture")") || status=1
  rows+=("$(python3 "$here/matrix_probe_check.py" "$name: probe" "$fixture/target/vitals" AGENT_CGROUP_V1 \
    "$left_agents" 2)") || status=1
  leftovers="$(new_on_second --filter label=org.testcontainers=true)"
  if [[ -n "$leftovers" ]]; then
    vitals_log "$name: removing $(wc -w <<<"$leftovers") container(s) left on $second_host"
    # shellcheck disable=SC2086 # one ID a word
    docker -H "$second_host" rm -f $leftovers >/dev/null
  fi
  rm -f "$log"
  vitals_took "matrix: $name" "$start"
fi
# A fork killed (SIGKILL) once it has finished a class: the build fails (Surefire says the fork crashed), and every
# file the run leaves parses, the history holding one run; the tests the killed fork finished stay in the index
name="a fork killed mid-run"
if [[ -z "${MATRIX_ONLY:-}" || "$name" =~ $MATRIX_ONLY ]]; then
  rm -rf "$fixture/target"
  start="$(vitals_now)"
  log="$(mktemp)"
  (cd "$fixture" && exec mvn "${mvn_args[@]}" verify "-Dmatrix.surefire=$everything" -DforkCount=2 -DreuseForks=true \
    -Dvitals.requireDocker=true -Dvitals.console=off "-Dvitals.history=$fixture/target/history.jsonl" \
    -Dvitals.history.update=true) >"$log" 2>&1 &
  build=$!
  killed=""
  for _ in $(seq 1 240); do
    if find "$fixture/target/vitals/.vitals-run" -name 'part-*.part' -size +0 2>/dev/null | grep -q .; then
      # the fork's own JVM, not the /bin/sh -c that started it
      killed="$(pgrep -f "^[^ ]*java -jar $fixture/target/surefire/surefirebooter" | head -n 1 || true)"
      [[ -n "$killed" ]] && kill -9 "$killed"
      break
    fi
    sleep 0.5
  done
  build_status=0
  wait "$build" || build_status=$?
  verdict="$(python3 - "$fixture/target/vitals" <<'PY'
import glob, json, os, sys
reports = sys.argv[1]
problems, runs = [], set()
for path in glob.glob(os.path.join(reports, "**", "*.json"), recursive=True):
    try:
        json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        problems.append(f"{path}: {e}")
history = os.path.join(reports, "vitals-history.jsonl")
if os.path.exists(history):
    for n, line in enumerate(open(history, encoding="utf-8"), 1):
        try:
            row = json.loads(line)
            runs.update(r["id"] for r in row.get("runs", []))
        except ValueError as e:
            problems.append(f"{history} line {n}: {e}")
if len(runs) > 1:
    problems.append(f"the history holds {len(runs)} runs")
if glob.glob(os.path.join(reports, "**", "*.tmp"), recursive=True):
    problems.append("temporary files left")
tests = json.load(open(os.path.join(reports, "vitals.json")))["testCount"] if os.path.exists(os.path.join(reports, "vitals.json")) else 0
print(("ok" if not problems and tests > 0 else "MISMATCH (" + "; ".join(problems or ["no test listed"]) + ")"), tests)
PY
)"
  # a JVM killed with SIGKILL runs no shutdown hook: Testcontainers' reaper (Ryuk, off on this machine) would remove
  # its containers; cleanup.sh does here, and says how many
  left="$(bash "$here/cleanup.sh" | tail -n 1)"; left="${left:-0}"
  vitals_log "$name: removed $left container(s) the killed fork left (what Ryuk removes where it runs)"
  if [[ -z "$killed" ]]; then
    rows+=("$name: MISMATCH (no fork was found to kill)")
  elif [[ $build_status -eq 0 ]]; then
    rows+=("$name: MISMATCH (the build passed although fork $killed was killed)")
  else
    rows+=("$(printf '%-40s killed fork %s; every file parses, index lists %s tests  %s' "$name" "$killed" \
      "${verdict##* }" "${verdict% *}")")
  fi
  rm -f "$log"
  vitals_took "matrix: $name" "$start"
fi

# The console launcher, as a plain JVM outside any build tool runs it, with classes and methods concurrent: the
# container locks without Surefire (no window may overlap)
name="console launcher, classes and methods concurrent, locks"
if [[ -z "${MATRIX_ONLY:-}" || "$name" =~ $MATRIX_ONLY ]]; then
rm -rf "$fixture/target"
start="$(vitals_now)"
log="$(mktemp)"
if (cd "$fixture" && mvn "${mvn_args[@]}" -Pconsole test-compile dependency:build-classpath \
      -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test \
    && java -cp "target/test-classes:$(cat target/cp.txt)" -Dvitals.requireDocker=true -Dvitals.console=off \
      "-Dvitals.history=$fixture/target/history.jsonl" -Dvitals.history.update=true \
      org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=none \
      --config=junit.jupiter.execution.parallel.enabled=true \
      --config=junit.jupiter.execution.parallel.mode.default=concurrent \
      --config=junit.jupiter.execution.parallel.mode.classes.default=concurrent \
      --scan-classpath target/test-classes --include-classname '.*Check' --reports-dir target/console-reports) \
    >"$log" 2>&1; then
  rows+=("$(python3 "$here/matrix_check.py" --overlapped=none "$name" "$fixture/target/vitals" \
    "$fixture/target/console-reports")") \
    || status=1
else
  vitals_log "ERROR: $name: the run failed"
  tail -n 40 "$log" >&2
  status=1
  rows+=("$name: the run failed")
fi
rm -f "$log"
vitals_took "matrix: $name" "$start"
fi

# A multi-module reactor built with -T 2, each module with its own report, merged with MergeReports
name="reactor -T 2, merged with MergeReports"
if [[ -z "${MATRIX_ONLY:-}" || "$name" =~ $MATRIX_ONLY ]]; then
reactor="$fixture/reactor"
rm -rf "$reactor"/*/target "$reactor/target"
start="$(vitals_now)"
log="$(mktemp)"
if (cd "$reactor" && mvn "${mvn_args[@]}" -T 2 verify -Dvitals.requireDocker=true -Dvitals.console=off \
      -Dvitals.runId=matrix-reactor -Dvitals.history=target/history.jsonl -Dvitals.history.update=true \
    && cd one && mvn "${mvn_args[@]}" dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
      -Dmdep.includeScope=test \
    && java -cp "$(cat target/cp.txt)" io.vitals.report.MergeReports --out "$reactor/target/vitals-merged" \
      "$reactor/one/target/vitals" "$reactor/two/target/vitals") >"$log" 2>&1; then
  rows+=("$(python3 "$here/matrix_check.py" "$name" "$reactor/target/vitals-merged" \
    "$reactor/one/target/surefire-reports" "$reactor/two/target/surefire-reports")") || status=1
else
  vitals_log "ERROR: $name: the build or the merge failed"
  tail -n 40 "$log" >&2
  status=1
  rows+=("$name: the build or the merge failed")
fi
rm -f "$log"
vitals_took "matrix: $name" "$start"
fi

echo
echo "Execution-configuration matrix: tests in the JUnit XML against tests in each report"
printf '%s\n' "${rows[@]}"
for row in "${rows[@]}"; do
  [[ "$row" == *" ok" ]] || status=1
done
exit $status  # leftover containers are counted, and fail the run, by run.sh
