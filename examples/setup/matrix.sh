#!/bin/bash
# The execution-configuration matrix (run.sh matrix, part of run.sh all): the fixture project examples/matrix (four
# classes of two tests on the stress image) run the ways users run JUnit, each run's reports compared with the JUnit
# XML of the same run (matrix_check.py): forks (Surefire and Failsafe, forkCount 1, 2 and 4, reuseForks true and
# false), JUnit parallel execution (classes, then methods concurrent) and one method selected as an IDE does.
# Needs the engine and the stress image (run.sh sets them up) and installs vitals-junit into the local repository.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"
# shellcheck source=testcontainers-env.sh
source "$here/testcontainers-env.sh"

mvn_args=(-B -ntp -q -Dstyle.color=never)
start="$(vitals_now)"
(cd "$root" && mvn "${mvn_args[@]}" install -DskipTests -pl extension -am)
vitals_took "install vitals-junit" "$start"

fixture="$root/examples/matrix"
everything='**/*Check.java'
parallel_classes=(-Djunit.jupiter.execution.parallel.enabled=true
  -Djunit.jupiter.execution.parallel.mode.default=same_thread
  -Djunit.jupiter.execution.parallel.mode.classes.default=concurrent)
parallel_methods=(-Djunit.jupiter.execution.parallel.enabled=true
  -Djunit.jupiter.execution.parallel.mode.default=concurrent
  -Djunit.jupiter.execution.parallel.mode.classes.default=same_thread)

# name | plugin | arguments
configs=(
  "surefire forkCount=1 reuseForks=true|surefire|-DforkCount=1 -DreuseForks=true"
  "surefire forkCount=2 reuseForks=true|surefire|-DforkCount=2 -DreuseForks=true"
  "surefire forkCount=2 reuseForks=false|surefire|-DforkCount=2 -DreuseForks=false"
  "surefire forkCount=4 reuseForks=false|surefire|-DforkCount=4 -DreuseForks=false"
  "failsafe forkCount=1 reuseForks=false|failsafe|-DforkCount=1 -DreuseForks=false"
  "failsafe forkCount=4 reuseForks=true|failsafe|-DforkCount=4 -DreuseForks=true"
  "surefire classes concurrent|surefire|${parallel_classes[*]}"
  "surefire methods concurrent|surefire|${parallel_methods[*]}"
  "surefire one method (-Dtest=AlphaCheck#first)|surefire|-Dtest=AlphaCheck#first"
)

status=0
rows=()
for config in "${configs[@]}"; do
  IFS='|' read -r name plugin args <<<"$config"
  rm -rf "$fixture/target"
  log="$(mktemp)"
  start="$(vitals_now)"
  # shellcheck disable=SC2086 # the arguments are words
  if ! (cd "$fixture" && mvn "${mvn_args[@]}" verify "-Dmatrix.$plugin=$everything" -Dvitals.requireDocker=true \
      -Dvitals.console=off "-Dvitals.history=$fixture/target/history.jsonl" -Dvitals.history.update=true \
      $args) >"$log" 2>&1; then
    vitals_log "ERROR: $name: the build failed"
    tail -n 40 "$log" >&2
    vitals_junit_failures "$fixture"/target/*-reports/TEST-*.xml
    status=1
  fi
  vitals_took "matrix: $name" "$start"
  if grep -q 'WARNING' "$log"; then
    vitals_log "$name: Vitals warned:"
    grep 'WARNING' "$log" | sed 's/^/[vitals]   /' >&2
  fi
  rows+=("$(python3 "$here/matrix_check.py" "$name" "$fixture")") || status=1
  rm -f "$log"
done
echo
echo "Execution-configuration matrix: tests in the JUnit XML against tests in each report"
printf '%s\n' "${rows[@]}"
for row in "${rows[@]}"; do
  [[ "$row" == *" ok" ]] || status=1
done
exit $status  # leftover containers are counted, and fail the run, by run.sh
