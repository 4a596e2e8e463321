#!/bin/bash
# Wall time of the matrix fixture (examples/matrix: 19 tests in 8 classes, 6 containers) run serially, under JUnit's
# parallel execution (classes and methods concurrent) with the default container locks, and the same with the
# fixture under @SharedLoad (no locks, overlapped windows marked): the figures in docs/benchmarks.md.
# RUNS rounds (default 3), each the three configurations in turn, so that a change of the machine's load falls on
# all three. The fixture's tests wait a second each (-Dmatrix.work=wait) unless WORK=stress (stress-ng for a second).
# The fixture is compiled before the clock starts; what is timed is `mvn surefire:test`: Maven's start, the test
# JVM, the containers' starts and the tests. Each run's reports are checked against its JUnit XML (matrix_check.py,
# --overlapped=none for the locks; with PEAKS_AS=DIR:MIB each test's peak memory against a serial run's too).
# Prints one line a run: configuration, seconds, the load average before it, matrix_check.py's verdict.
# Needs the engine and the stress image, and vitals-junit installed (matrix.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=testcontainers-env.sh
source "$here/testcontainers-env.sh"

fixture="$root/examples/matrix"
mvn_args=(-B -ntp -q -Dstyle.color=never "-Dmatrix.surefire=**/*Check.java" -Dvitals.requireDocker=true
  -Dvitals.console=off "-Dmatrix.work=${WORK:-wait}")
both="-Djunit.jupiter.execution.parallel.enabled=true -Djunit.jupiter.execution.parallel.mode.default=concurrent
  -Djunit.jupiter.execution.parallel.mode.classes.default=concurrent"
# PARALLELISM=N: N threads (JUnit's fixed strategy) instead of JUnit's default, one per core
if [[ -n "${PARALLELISM:-}" ]]; then
  both+=" -Djunit.jupiter.execution.parallel.config.strategy=fixed"
  both+=" -Djunit.jupiter.execution.parallel.config.fixed.parallelism=$PARALLELISM"
fi
configs=("serial|" "locks|$both" "shared|-Dmatrix.windows=shared $both")
# ONLY (a bash regex on serial, locks, shared) runs some of them

for round in $(seq 1 "${RUNS:-3}"); do
  for config in "${configs[@]}"; do
    IFS='|' read -r name args <<<"$config"
    [[ -z "${ONLY:-}" || "$name" =~ $ONLY ]] || continue
    rm -rf "$fixture/target"
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$fixture" && mvn "${mvn_args[@]}" test-compile $args) >/dev/null
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    start="$(date +%s%N)"
    # shellcheck disable=SC2086 # the arguments are words
    if ! (cd "$fixture" && mvn "${mvn_args[@]}" surefire:test $args) >"$fixture/target/bench.log" 2>&1; then
      echo "$name: the build failed" >&2
      tail -n 30 "$fixture/target/bench.log" >&2
    fi
    seconds="$(( ($(date +%s%N) - start) / 1000000 ))"
    check=()
    [[ "$name" == locks ]] && check+=(--overlapped=none)
    [[ "$name" == locks && -n "${PEAKS_AS:-}" ]] && check+=("--peaks-as=$PEAKS_AS")
    verdict="$(python3 "$here/matrix_check.py" "${check[@]}" "$name" "$fixture/target/vitals" \
      "$fixture/target/surefire-reports" || true)"
    printf '%s\t%-6s\t%6.1f s\tload %s\t%s\n' "$round" "$name" "$(bc -l <<<"$seconds / 1000")" "$load" \
      "${verdict#"$name"}"
    if [[ -n "${KEEP:-}" ]]; then
      rm -rf "$KEEP/$name-$round"
      mkdir -p "$KEEP" && cp -a "$fixture/target/vitals" "$KEEP/$name-$round"
    fi
  done
done
