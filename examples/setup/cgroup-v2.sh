#!/bin/bash
# The cgroup v2 job (`run.sh v2`, and the last step of `run.sh all`): the cgroup accuracy suite and the extension's
# measurement tests inside real cgroup v2 kernels, as root and as a non-root user in the docker group (and against
# rootful and rootless Podman in debian-13):
#   debian-12  kernel 6.1   (memory.peak covers the cgroup's lifetime)
#   debian-13  kernel 6.12  (memory.peak resets per open file)
# The Vitals agent (AgentProbeIT: the agent beside the Engine API probe) runs in the debian-13 root cell against the
# guest's own engine, and in a "dind" cell of debian-12 against a Docker-in-Docker engine (a privileged container
# of the guest's Docker running a second dockerd, its API on 127.0.0.1:2375), both with the slim agent image
# (slim-agent.sh: a jlinked JRE, imported into each engine by guest-run.sh).
# Results: target/cgroup-v2/<guest>/<cell>/{junit,vitals,console.txt,exit-code} (cells: root, user, podman,
# podman-user, dind) and <guest>/console.log.
# Guest images are built once and cached by a hash of their inputs (VITALS_VM_CACHE, default /var/cache/vitals-vm).
# VITALS_V2_GUESTS and VITALS_V2_USERS narrow the matrix (defaults: "debian-12 debian-13", "root user").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

guests="${VITALS_V2_GUESTS:-debian-12 debian-13}"
# VITALS_VM_TIMEOUT (run-guest.sh) bounds each guest's run, 5400 s by default; VITALS_VM_NICE sets qemu's niceness
# (0 by default; 19 to give a workstation's owner the CPU first)
# who runs the suite in each guest: root and a non-root user against Docker, and, in the guests that have Podman
# (debian-13), root against Podman's Docker-compatible API and the non-root user against its own rootless Podman;
# and, in one guest, root against a Docker-in-Docker engine ("dind", the agent's tests only): in debian-12, whose
# guest has two other cells to debian-13's four, so that the guests, booted side by side, end at about the same time
dind_guest=debian-12
users="${VITALS_V2_USERS:-}"
guest_users() {
  local cells
  if [[ -n "$users" ]]; then echo "$users"; return; fi
  if [[ "$1" == debian-13 ]]; then cells="root user podman podman-user"; else cells="root user"; fi
  [[ "$1" == "$dind_guest" ]] && cells="$cells dind"
  echo "$cells"
}
# What each cell runs: in each guest, what its kernel and its user change, and nothing twice that reads the same
# files the same way. Under software emulation each container start costs 10-80 s, so every test here is paid for in
# minutes of CI (.ci/run is to stay under an hour next to a busy core); the full suites run on this host.
# - As root, in both guests: the accuracy suite (every figure against the kernel's own counters) and the
#   extension's measurement tests against ground truth (a 300 MiB spike, CPU time, 50 forks, phases, an OOM kill,
#   major page faults and the peak's composition), since kernel 6.12 changes what the peak's mark covers.
#   In debian-12 also the absent-figure check (block writes measured, in every report format, and budgets
#   suggested from five builds): io.stat and the reports do not change with the kernel.
# - As the other users (a plain user, rootful and rootless Podman): the accuracy suite, which finds and reads each
#   one's cgroups and judges a budget end to end. In debian-13 the plain user runs its two peak tests only: a user
#   who may not write memory.peak cannot reset the mark 6.12 would reset; its other five read what debian-12's user
#   reads.
# - Not the others (BudgetsIT, FaultsIT, LifecycleIT, ...): BudgetsIT's CPU budgets are calibrated in stress-ng
#   operations per second of this host's CPUs, which an emulated CPU runs some 20-40 times slower.
# VITALS_V2_CLASSES (space-separated) replaces the list for every cell; an entry may name one method, as
# class#method.
accuracy=io.vitals.internal.probe.CgroupV2AccuracyIT
measurement="$accuracy io.vitals.internal.sampling.MeasurementAccuracyIT io.vitals.internal.sampling.OomKillIT io.vitals.internal.sampling.SourcedFiguresIT"
classes="${VITALS_V2_CLASSES:-$measurement io.vitals.junit.AbsentFigureIT}"
user_classes="${VITALS_V2_CLASSES:-$accuracy}"
user_6_12_classes="${VITALS_V2_CLASSES:-$accuracy#peakOfAContainerStartedByTheTest $accuracy#peakOfASharedContainer}"
# The Vitals agent (docs/agent.md): AgentProbeIT, the agent beside the Engine API probe, measured against the
# kernel's counters. Against a Docker-in-Docker engine in debian-12's "dind" cell (guest-run.sh): every test that
# measures. In the root cell of the guest with kernel 6.12, against the guest's own engine, only what that kernel
# changes: memory.peak resettable per window (the spikes) or left alone (the read-only mounts). What fails the same
# way on any engine (one round trip per tick; the agent killed mid-window and a missing agent image, AgentFaultsIT)
# runs on this host, against the second engine, with the rest of AgentProbeIT. Each test costs 40-140 s in a guest; debian-13's root
# cell was the run's longest (CI runs of 2026-12-03, next to a busy core).
agent=io.vitals.internal.agent.AgentProbeIT
agent_guest=debian-13
agent_kernel_methods="probeKind spike fiveMillisecondSpikes readOnlyByDefault lifetimeMarkThroughReadOnlyAgent"
agent_measuring_methods="$agent_kernel_methods cpuTime oomKill"
agent_root_classes="${VITALS_V2_CLASSES:-$measurement $(printf "$agent#%s " $agent_kernel_methods)}"
dind_classes="${VITALS_V2_CLASSES:-$(printf "$agent#%s " $agent_measuring_methods)}"
junit_platform="${VITALS_JUNIT_PLATFORM_VERSION:-1.14.4}"
out="$root/target/cgroup-v2"

[[ "$(id -u)" -eq 0 ]] || vitals_die "run.sh v2 needs root (debootstrap, chroot, mkfs of the guest images)"
bash "$here/cgroup-v2/host-packages.sh"

start="$(vitals_now)"
cache="${VITALS_VM_CACHE:-/var/cache/vitals-vm}"
for guest in $guests; do
  dir="$(bash "$here/cgroup-v2/guest-image.sh" "$guest")"
  # a stray line on guest-image.sh's stdout would make the cleanup below delete the image it just built
  [[ -d "$dir" ]] || vitals_die "guest-image.sh $guest answered '$dir', which is not a directory"
  # images of older inputs are never used again (a few GiB each)
  for old in "$cache/$guest"-*/; do
    [[ -d "$old" && "${old%/}" != "$dir" ]] && rm -rf "$old"
  done
done
vitals_took "guest images" "$start"

start="$(vitals_now)"
payload="$(mktemp -d /var/tmp/vitals-v2-payload.XXXXXX)"
trap 'rm -rf "$payload" "$payload"-debian-*' EXIT
bash "$here/test-payload.sh" "$payload" "$junit_platform"
cd "$root"
bash "$here/images.sh" stress
bash "$here/cgroup-v2/slim-stress.sh" "$payload/stress-rootfs.tar"
bash "$here/cgroup-v2/slim-agent.sh" "$payload/agent-rootfs.tar"
cp "$here/cgroup-v2/guest-run.sh" "$payload/run.sh"
tr ' ' '\n' <<<"$classes" >"$payload/classes.txt"
for who in user podman podman-user; do
  tr ' ' '\n' <<<"$user_classes" >"$payload/classes-$who.txt"
done
tr ' ' '\n' <<<"$user_6_12_classes" >"$payload/classes-user-debian-13.txt"
tr ' ' '\n' <<<"$dind_classes" >"$payload/classes-dind.txt"
tr ' ' '\n' <<<"$agent_root_classes" >"$payload/classes-root-$agent_guest.txt"
vitals_took "payload (test classes, jars, stress and agent images)" "$start"

# Boots a guest; if it ended without the results of some of its cells (a guest kernel that panicked or hung under
# the emulator, qemu gone), boots it once more for those cells alone and says so. A cell whose tests ran and failed
# has its results, and is not repeated.
run_guest() {
  local guest="$1" payload="$2" results="$3" missing=() who started=$SECONDS
  bash "$here/cgroup-v2/run-guest.sh" "$guest" "$payload" "$results" || true
  for who in $(cat "$payload/users"); do
    [[ -f "$results/$who/exit-code" ]] || missing+=("$who")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  # a crash ends early; a guest that ran for more than half its time limit was slow or hung, and a second boot
  # would take CI past its own limit
  if (( SECONDS - started > ${VITALS_VM_TIMEOUT:-5400} / 2 )); then
    vitals_log "$guest: the guest ended without results for: ${missing[*]} after $((SECONDS - started)) s; not booting it again"
    return 1
  fi
  vitals_log "$guest: the guest ended without results for: ${missing[*]} (console: $results/console-first-boot.log);" \
    "booting it once more for them"
  mv "$results/console.log" "$results/console-first-boot.log" 2>/dev/null || true
  echo "${missing[*]}" | tee "$payload/users" >"$results/second-boot"
  bash "$here/cgroup-v2/run-guest.sh" "$guest" "$payload" "$results"
}

status=0
# VITALS_V2_PARALLEL=1 (the default; 0 runs them one after the other) boots the guests side by side, each with its own copy of the payload: on a machine whose
# cores are busy with other (higher-priority) work, two niced guests pick up more of the idle time than one
pids=()
for guest in $guests; do
  rm -rf "${out:?}/$guest"
  if [[ "${VITALS_V2_PARALLEL:-1}" == 1 ]]; then
    cp -r "$payload" "$payload-$guest"
    guest_users "$guest" >"$payload-$guest/users"
    run_guest "$guest" "$payload-$guest" "$out/$guest" &
    pids+=($!)
  else
    guest_users "$guest" >"$payload/users"
    run_guest "$guest" "$payload" "$out/$guest" || status=1
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for guest in $guests; do
  rm -rf "$payload-$guest"
  for who in $(guest_users "$guest"); do
    dir="$out/$guest/$who"
    rc="$(cat "$dir/exit-code" 2>/dev/null || echo missing)"
    tests="$(cat "$dir"/junit/*.xml 2>/dev/null | grep -o 'tests="[0-9]*"' | head -n 1 || true)"
    rerun=""
    [[ -d "$out/$guest/$who-crashed" ]] && rerun=", after a rerun: the first JVM died of a signal (see $who-crashed)"
    if grep -qw -- "$who" "$out/$guest/second-boot" 2>/dev/null; then
      rerun="$rerun, after a second boot: the first ended without its results (see console-first-boot.log)"
    fi
    vitals_log "$guest as $who: JUnit exit $rc ($tests; $dir$rerun)"
    if [[ "$rc" != 0 ]]; then
      status=1
      vitals_junit_failures "$dir"/junit/*.xml
    fi
  done
done
exit $status
