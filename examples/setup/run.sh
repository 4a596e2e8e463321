#!/bin/bash
# The project's two entry points (see README, Quick start):
#   run.sh examples   the main job: the TensorFlow example suite, then the per-test table and the report path
#   run.sh all        every test: unit tests and container tests of the extension, and the examples; the release
#                     check (release-check.sh: sources/javadoc jars, Central's POM elements); docs/first-test.md
#                     in a new project (first-test.sh); as root, then
#                     the accuracy suite and the reports once more as a non-root user of the docker group; then the
#                     measurement tests inside the cgroup v2 guests (what run.sh v2 runs)
#   run.sh noise      the noise-and-power harness (noise.sh): the example suite N times, quiet, next to a noisy
#                     neighbour and with injected regressions; prints spread, false failures and detections
#   run.sh testbeds   the verdicts-over-time harness (testbeds.sh): builds on two testbeds (2 CPUs, and an engine
#                     confined to one CPU), quiet, next to a busy core and with injected regressions, replayed for
#                     false regressions, detections, change points and suggested budgets held out (about 25 min)
#   run.sh matrix     the execution-configuration matrix (matrix.sh): a fixture project under forks, parallel
#                     execution, reruns, the console launcher and a -T 2 reactor, each run's reports against its
#                     JUnit XML
#   run.sh v1-user    the accuracy suite on this host as a non-root user in the docker group (v1-user.sh)
#   run.sh v2         the measurement tests inside cgroup v2 guests (Debian 12 / kernel 6.1, Debian 13 / kernel
#                     6.12), as root and as a non-root user, and against Podman (rootful and rootless) in the
#                     Debian 13 guest; the Vitals agent beside the Engine API probe against the Debian 13 guest's
#                     engine (root cell: what kernel 6.12 changes) and, all of its tests, against a
#                     Docker-in-Docker engine in the Debian 12 guest (dind cell); see
#                     cgroup-v2.sh (needs root and qemu; 11 min with cached guest images on a quiet 2-core
#                     machine on 2026-12-02; next to a busy core on 2026-12-04 about 35 min, the images built
#                     beforehand by run.sh all, 5-7 min, in the background of the Docker images)
# Each sets up what it needs (Docker engine, images) and prints how long each step took. Container tests fail,
# never skip, when no engine answers (vitals.requireDocker=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

mode="${1:-}"
case "$mode" in
  examples|all|noise|testbeds) ;;
  v1-user)
    bash "$here/docker-engine.sh"
    exec bash "$here/v1-user.sh"
    ;;
  matrix)
    total="$(vitals_now)"
    bash "$here/docker-engine.sh"
    start="$(vitals_now)"; bash "$here/images.sh"; vitals_took "images (total)" "$start"
    status=0
    bash "$here/matrix.sh" || status=$?
    vitals_took "total" "$total"
    exit $status
    ;;
  v2)
    total="$(vitals_now)"
    bash "$here/docker-engine.sh"
    status=0
    bash "$here/cgroup-v2.sh" || status=$?
    vitals_took "total" "$total"
    exit $status
    ;;
  *) echo "usage: $0 examples|all|noise|testbeds|matrix|v2|v1-user [noise.sh or testbeds.sh options]" >&2; exit 2 ;;
esac

total="$(vitals_now)"
bash "$here/docker-engine.sh"
guest_images_pid=""
if [[ "$mode" == "all" && "$(id -u)" -eq 0 ]]; then
  # The cgroup v2 guests' images (debootstrap, apt in a chroot, mkfs: 5 min on a fresh runner, cached after) are
  # built in the background while the Docker images, the extra engines and Chromium are made, both at once, and
  # waited for before the first test, so that no test runs beside them. The host's packages first, in the
  # foreground: chromium.sh's apt-get would wait on the same dpkg lock. cgroup-v2.sh finds them cached later, or
  # builds them itself if a build here failed (its log says why).
  bash "$here/cgroup-v2/host-packages.sh"
  guest_images_start="$(vitals_now)"
  guest_images_log="$root/target/guest-images.log"
  mkdir -p "$root/target"
  (
    builds=()
    for guest in ${VITALS_V2_GUESTS:-debian-12 debian-13}; do
      bash "$here/cgroup-v2/guest-image.sh" "$guest" >/dev/null &
      builds+=($!)
    done
    failed=0
    for build in "${builds[@]}"; do wait "$build" || failed=1; done
    exit $failed
  ) >"$guest_images_log" 2>&1 &
  guest_images_pid=$!
fi
start="$(vitals_now)"; bash "$here/images.sh"; vitals_took "images (total)" "$start"
if [[ "$mode" == "all" ]]; then
  # the Engine API probe and the Vitals agent are tested against a second engine on a loopback TCP port, the HTML
  # report in Chromium
  bash "$here/second-engine.sh"
  # the Vitals agent's refusal test needs an engine that refuses its --pid=host: one that remaps users
  bash "$here/userns-engine.sh"
  bash "$here/chromium.sh"
fi
# shellcheck source=testcontainers-env.sh
source "$here/testcontainers-env.sh"
bash "$here/cleanup.sh" >/dev/null
if [[ "$mode" == "noise" ]]; then
  shift
  exec bash "$here/noise.sh" "$@"
fi
if [[ "$mode" == "testbeds" ]]; then
  shift
  exec bash "$here/testbeds.sh" "$@"
fi

if [[ -n "$guest_images_pid" ]]; then
  start="$(vitals_now)"
  wait "$guest_images_pid" || vitals_log "building the guest images in the background failed; cgroup-v2.sh builds" \
    "them again (log: $guest_images_log)"
  grep -h '^\[vitals\]' "$guest_images_log" >&2 || true
  vitals_took "guest images, built in the background (waited for them)" "$start"
  vitals_took "guest images, background build from start to end" "$guest_images_start"
fi

mvn_args=(-B -ntp -Dstyle.color=never -Dvitals.requireDocker=true)
status=0
# One more part of `run.sh all`, run only while every part before it passed; says how long it took.
next_step() {
  local label="$1" script="$2" start
  [[ $status -eq 0 ]] || return 0
  start="$(vitals_now)"
  bash "$here/$script" || status=$?
  vitals_took "$label" "$start"
}

start="$(vitals_now)"
cd "$root"
if [[ "$mode" == "examples" ]]; then
  mvn "${mvn_args[@]}" -q install -DskipTests -pl extension -am || status=$?
  if [[ $status -eq 0 ]]; then
    mvn "${mvn_args[@]}" verify -pl examples || status=$?
  fi
else
  mvn "${mvn_args[@]}" verify || status=$?
fi
vitals_took "maven ($mode)" "$start"
if [[ "$mode" == "all" ]]; then
  # the library as Maven Central would take it: sources and javadoc jars (javadoc free of warnings), the POM's
  # required elements, the API against its baseline; no tests, about a minute
  next_step "release check (release-check.sh)" release-check.sh
  # every way users run JUnit: forks, parallel execution, reruns, the console launcher, a -T 2 reactor
  next_step "execution-configuration matrix (matrix.sh)" matrix.sh
  # docs/first-test.md followed in a new project outside the repository: its pom under mvn verify, -Dtest
  # (Surefire, as an IDE runs it) and -Dit.test, and docs/ci.md's paths against its output; uses the vitals-junit
  # matrix.sh installed; 1-2 min here (2026-12-03, next to other builds)
  next_step "first-test.md in a new project (first-test.sh)" first-test.sh
  if [[ "$(id -u)" -eq 0 ]]; then
    # CI jobs usually run as a non-root user of the docker group: the accuracy suite and the reports as such a user
    next_step "non-root run (v1-user.sh)" v1-user.sh
  fi
  # Hosted CI runners are cgroup v2 machines, and this host is not: the measurement tests inside real cgroup v2
  # kernels (Debian 12 / 6.1 and Debian 13 / 6.12, as root, as a non-root user, and against Podman), under
  # software emulation. 11 minutes on a quiet 2-core machine with cached images (2026-12-02), about 35 next to a
  # busy core (2026-12-04), Debian 13's four cells the longest; a failure there fails the run like any other test.
  next_step "cgroup v2 guests (cgroup-v2.sh)" cgroup-v2.sh
fi

leftovers="$(bash "$here/cleanup.sh" | tail -n 1)"
if [[ "$leftovers" =~ ^[0-9]+$ && "$leftovers" -gt 0 ]]; then
  vitals_log "ERROR: the tests left $leftovers container(s) behind (removed now)"
  status=1
fi

report="$root/examples/target/vitals"
if [[ -f "$report/summary.md" ]]; then
  if [[ "$mode" == "examples" ]]; then
    echo
    cat "$report/summary.md" # the per-test table of the run, breaches and OOM kills first
    echo
  fi
  vitals_log "example suite report: $report/index.html (summary: $report/summary.md)"
fi
vitals_took "total" "$total"
exit $status
