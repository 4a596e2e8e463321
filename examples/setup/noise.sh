#!/bin/bash
# The noise-and-power harness (docs/benchmarks.md, "Noise and detection power"). Runs the example suite (or the
# classes given) N times in each mode and keeps every run's reports:
#   quiet   nothing else on purpose
#   hog     a noisy neighbour: a busy loop on one core, plus a memory hog (1 GiB touched) and an I/O hog
#           (direct writes in a loop)
#   cpu20   every training run burns 20 % more CPU time (workload flag --extra-cpu-percent 20)
#   mem20   every training run raises its peak resident memory by 20 % (--extra-memory-percent 20)
# The quiet runs write a run history (-Dvitals.history, see docs/ci.md); the injected modes are compared with
# it, so they say whether Vitals' statistical baseline would have flagged the regression. Run quiet first. At the end it prints, per test and metric, the
# spread (median, min, max, coefficient of variation), the failed runs of quiet and hog (false failures) and
# the runs of cpu20 / mem20 whose baseline comparison flagged the metric (detections).
#
# Usage: run.sh noise [--runs N] [--modes quiet,hog,cpu20,mem20] [--it ClassIT,OtherIT]
# Output: target/noise/<mode>/run-<i>/ (each run's target/vitals and failsafe XML), target/noise/summary.md,
# target/noise/vitals-history.jsonl (the quiet runs' history). A mode run again replaces its own runs only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

runs=10
modes="quiet,hog,cpu20,mem20"
its=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --it) its="$2"; shift 2 ;;
    *) vitals_die "unknown argument $1 (usage: run.sh noise [--runs N] [--modes quiet,hog,cpu20,mem20] [--it A,B])" ;;
  esac
done

out="$root/target/noise"
history="$out/vitals-history.jsonl"
mkdir -p "$out"

hog_pids=()
start_hogs() {
  # a busy loop keeps one core busy; a memory hog holds 1 GiB of touched pages; an I/O hog writes 256 MiB
  # with O_DIRECT again and again (so it reaches the disk, not only the page cache)
  (exec sh -c 'while :; do :; done') & hog_pids+=($!)
  (exec python3 -c 'import time; b = bytearray(1 << 30); [b.__setitem__(i, 1) for i in range(0, len(b), 4096)]; time.sleep(86400)') & hog_pids+=($!)
  (exec sh -c 'while :; do dd if=/dev/zero of=/tmp/vitals-io-hog bs=1M count=256 oflag=direct status=none; done') & hog_pids+=($!)
}
stop_hogs() {
  if [[ ${#hog_pids[@]} -gt 0 ]]; then
    kill "${hog_pids[@]}" 2>/dev/null || true
    wait "${hog_pids[@]}" 2>/dev/null || true
  fi
  hog_pids=()
  rm -f /tmp/vitals-io-hog
}
trap stop_hogs EXIT

cd "$root"
mvn_args=(-B -ntp -q -Dstyle.color=never -Dvitals.requireDocker=true -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false)
[[ -n "$its" ]] && mvn_args+=("-Dit.test=$its")
mvn -B -ntp -q -Dstyle.color=never install -DskipTests -pl extension -am

IFS=',' read -r -a mode_list <<<"$modes"
for mode in "${mode_list[@]}"; do
  rm -rf "${out:?}/$mode"
  [[ "$mode" == "quiet" ]] && rm -f "$history" # the quiet runs start a new history
  for i in $(seq 1 "$runs"); do
    extra=()
    case "$mode" in
      # the quiet runs build the history (one run each); the injected runs are compared with it, never added
      quiet) extra=("-Dvitals.history=$history" "-Dvitals.history.update=true" "-Dvitals.runId=quiet-$i") ;;
      hog) ;;
      cpu20) extra=("-Dvitals.tensorflow.trainArgs=--extra-cpu-percent 20" "-Dvitals.history=$history") ;;
      mem20) extra=("-Dvitals.tensorflow.trainArgs=--extra-memory-percent 20" "-Dvitals.history=$history") ;;
      *) vitals_die "unknown mode $mode (quiet, hog, cpu20, mem20)" ;;
    esac
    [[ "$mode" == "hog" ]] && start_hogs
    start="$(vitals_now)"
    status=0
    mvn "${mvn_args[@]}" "${extra[@]}" verify -pl examples >"$out/last-run.log" 2>&1 || status=$?
    [[ "$mode" == "hog" ]] && stop_hogs
    dir="$out/$mode/run-$i"
    mkdir -p "$dir"
    cp -r examples/target/vitals "$dir/vitals" 2>/dev/null || true
    cp -r examples/target/failsafe-reports "$dir/failsafe-reports" 2>/dev/null || true
    cp "$out/last-run.log" "$dir/maven.log"
    echo "$status" >"$dir/exit-code"
    vitals_took "noise $mode run $i/$runs (mvn exit $status)" "$start"
  done
done

python3 "$here/noise_summary.py" "$out" | tee "$out/summary.md"
