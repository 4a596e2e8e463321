#!/bin/bash
# The verdicts-over-time harness (docs/benchmarks.md, "Verdicts over time"): builds of one short TensorFlow workload
# (examples/.../fleet/FleetBuildWorkload: one epoch three times, a memory limit and no CPU limit) on two testbeds
# that differ as CI runners do, written into run histories the way CI writes them, then replayed by the library's
# own classes (extension's HistoryReplay) for what a fleet of runners cares about:
#   cross    N builds alternating between testbed A (the first engine: 2 CPUs) and testbed B (an engine and a test JVM
#            confined to CPU 0 with taskset: 1 CPU, as a 1-core runner), one history: false regressions (must be 0),
#            and what judging across testbeds would have flagged instead
#   single   N builds on testbed A, the first half quiet, the second next to a busy core (`yes`): false alarms, and
#            the hold-out of suggested budgets (a budget from the first k builds against the builds after them)
#   inject   N builds on A with +10 % peak memory, then N with +25 % CPU time, every second one next to a busy
#            core as in single (--inject-quiet: none), each judged against the single
#            history (not added to it): detections in the first build; and 10 histories made of the single builds
#            with the memory builds spliced in at a known build: does the change-point analysis name that build
# Each build is one JVM (the console launcher, no Maven), as CI runs one build, with vitals.runId, vitals.commit and
# vitals.branch set as a CI would. Peak memory's minimum effect is 5 % here (vitals.tolerance.peakMemory): its
# spread on one testbed is well under 1 % (the replay prints it), and a +10 % step must be caught.
#
# Before the phases, one warm-up build on each testbed they use (--warmup 0: none), in no history: the first build
# after the workload's image reaches an engine reads the image's files from disk, and the page cache it fills is
# charged to that build's container (its peak memory was 105.0 MiB against a median of 92.2 MiB on 2026-12-03). A
# persistent runner pays that once after each image change; the phases measure the runner after it, and the replay
# prints the warm-up builds' figures beside them.
#
# Usage: run.sh testbeds [--phases cross,single,inject] [--cross N] [--single N] [--inject N] [--warmup N] [--inject-quiet]
# Output: target/testbeds/<phase>/<build>/ (each build's reports and console log), target/testbeds/*.jsonl (the
# histories), target/testbeds/summary.txt (the replay's figures). Needs root (the confined engine). Not part of CI:
# 70-odd builds take about 25 minutes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

phases="cross,single,inject"
cross=32
single=20
inject=10
warmup=1
inject_mixed=true
while [[ $# -gt 0 ]]; do
  case "$1" in
    --phases) phases="$2"; shift 2 ;;
    --cross) cross="$2"; shift 2 ;;
    --single) single="$2"; shift 2 ;;
    --inject) inject="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --inject-quiet) inject_mixed=false; shift ;;
    *) vitals_die "unknown argument $1 (usage: run.sh testbeds [--phases cross,single,inject] [--cross N] [--single N] [--inject N] [--warmup N] [--inject-quiet])" ;;
  esac
done

out="$root/target/testbeds"
one_cpu_engine="tcp://127.0.0.1:23754"
mkdir -p "$out"

# Testbed B: an engine whose dockerd (and so containerd, runc and every container) may run on CPU 0 only. docker
# info then says NCPU 1, and the container sees one CPU, as on a 1-core runner.
taskset -c 0 bash "$here/extra-engine.sh" "one-CPU engine" "$one_cpu_engine" 4 /var/log/vitals-dockerd4.log 90
want="$(docker image inspect --format '{{.Id}}' vitals/tensorflow:latest)"
if [[ "$(docker -H "$one_cpu_engine" image inspect --format '{{.Id}}' vitals/tensorflow:latest 2>/dev/null || true)" != "$want" ]]; then
  start="$(vitals_now)"
  docker save vitals/tensorflow:latest | docker -H "$one_cpu_engine" load -q >/dev/null
  vitals_took "load vitals/tensorflow:latest into the one-CPU engine" "$start"
fi

cd "$root"
start="$(vitals_now)"
mvn -B -ntp -q -Dstyle.color=never install -DskipTests -pl extension -am
(cd examples && mvn -B -ntp -q -Dstyle.color=never -Pconsole test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/console-cp.txt -Dmdep.includeScope=test)
(cd extension && mvn -B -ntp -q -Dstyle.color=never test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/replay-cp.txt -Dmdep.includeScope=test)
vitals_took "build the workload and the replay" "$start"
workload_cp="$root/examples/target/test-classes:$(cat "$root/examples/target/console-cp.txt")"
replay_cp="$root/extension/target/test-classes:$root/extension/target/classes:$(cat "$root/extension/target/replay-cp.txt")"

# build PHASE LABEL TESTBED HISTORY UPDATE [java option...]: one build, its reports under $out/PHASE/LABEL
build() {
  local phase="$1" label="$2" testbed="$3" history="$4" update="$5"
  shift 5
  local dir="$out/$phase/$label"
  rm -rf "$dir"
  mkdir -p "$dir"
  local cmd=(java -cp "$workload_cp" -Dvitals.requireDocker=true -Dvitals.console=off -Dvitals.probe=host_cgroup
    "-Dvitals.reportDir=$dir/vitals" "-Dvitals.history=$history" "-Dvitals.history.update=$update"
    "-Dvitals.runId=$label" "-Dvitals.commit=$(printf '%s' "$label" | sha1sum | cut -c1-12)" -Dvitals.branch=main
    -Dvitals.tolerance.peakMemory=5% "$@"
    org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=none
    --select-class io.vitals.examples.fleet.FleetBuildWorkload --reports-dir "$dir/junit")
  local start status=0
  start="$(vitals_now)"
  if [[ "$testbed" == B ]]; then
    DOCKER_HOST="$one_cpu_engine" TESTCONTAINERS_RYUK_DISABLED=true taskset -c 0 "${cmd[@]}" >"$dir/console.log" 2>&1 \
      || status=$?
  else
    (source "$here/testcontainers-env.sh" && "${cmd[@]}") >"$dir/console.log" 2>&1 || status=$?
  fi
  echo "$status" >"$dir/exit-code"
  echo "$testbed $(cut -d' ' -f1 /proc/loadavg)" >"$dir/testbed-and-load"
  vitals_took "$phase $label on testbed $testbed (exit $status)" "$start"
}

busy_pid=""
start_busy() { (exec yes >/dev/null) & busy_pid=$!; }
stop_busy() { [[ -n "$busy_pid" ]] && kill "$busy_pid" 2>/dev/null || true; busy_pid=""; }
trap stop_busy EXIT

IFS=',' read -r -a phase_list <<<"$phases"
rm -rf "$out/warmup" "$out/warmup.jsonl"
warmup_testbeds="A"
[[ ",$phases," == *,cross,* ]] && warmup_testbeds="A B"
n=0
for i in $(seq 1 "$warmup"); do
  for testbed in $warmup_testbeds; do
    n=$((n + 1))
    build warmup "warmup-$n" "$testbed" "$out/warmup.jsonl" true
  done
done
for phase in "${phase_list[@]}"; do
  case "$phase" in
    cross)
      rm -f "$out/cross.jsonl"
      for i in $(seq 1 "$cross"); do
        testbed=A; (( i % 2 == 0 )) && testbed=B
        build cross "cross-$i" "$testbed" "$out/cross.jsonl" true
      done ;;
    single)
      rm -f "$out/single.jsonl"
      for i in $(seq 1 "$single"); do
        (( i > single / 2 )) && start_busy
        build single "single-$i" A "$out/single.jsonl" true
        stop_busy
      done ;;
    inject)
      # every second injected build next to a busy core, as half the single builds it is judged against: a
      # regression lands on a runner whose neighbours vary as before (CPU time is some 10 % higher next to a busy
      # core, so injected builds all quiet would be judged against a norm half of them never saw)
      for i in $(seq 1 "$inject"); do
        [[ "$inject_mixed" == true ]] && (( i % 2 == 0 )) && start_busy
        build inject "mem10-$i" A "$out/single.jsonl" false "-Dvitals.tensorflow.trainArgs=--extra-memory-percent 10"
        stop_busy
      done
      for i in $(seq 1 "$inject"); do
        [[ "$inject_mixed" == true ]] && (( i % 2 == 0 )) && start_busy
        build inject "cpu25-$i" A "$out/single.jsonl" false "-Dvitals.tensorflow.trainArgs=--extra-cpu-percent 25"
        stop_busy
      done ;;
    *) vitals_die "unknown phase $phase (cross, single, inject)" ;;
  esac
done

java -cp "$replay_cp" io.vitals.internal.regression.HistoryReplay "$out" | tee "$out/summary.txt"
