#!/bin/bash
# Builds the images the tests need, each only when its inputs changed (an image carries the hash of its inputs
# in the label io.vitals.inputs-hash; a second run finds them equal and takes seconds):
#   vitals/base:bookworm       debian:bookworm-slim when a registry answers, else debootstrap + docker import
#   vitals/stress:latest       base + stress-ng, for ground-truth tests
#   vitals/tensorflow:latest   base + JRE 17 + TensorFlow Java 1.1.0 + the training workload
#   vitals/agent:latest        base + a headless JRE 17, for the Vitals agent (docs/agent.md)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
examples="$(cd "$here/.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

BASE=vitals/base:bookworm
STRESS=vitals/stress:latest
TENSORFLOW=vitals/tensorflow:latest
AGENT=vitals/agent:latest

label_of() { docker image inspect --format '{{ index .Config.Labels "io.vitals.inputs-hash" }}' "$1" 2>/dev/null || true; }
image_id() { docker image inspect --format '{{.Id}}' "$1"; }
hash_files() { (cd "$1" && shift && sha256sum "$@" | sha256sum | cut -c1-16); }

build_base() {
  local want="debian-bookworm-minbase-1"
  if [[ "$(label_of "$BASE")" == "$want" ]]; then
    vitals_log "$BASE is up to date"
    return
  fi
  local start
  start="$(vitals_now)"
  if timeout 60 docker pull -q debian:bookworm-slim >/dev/null 2>&1; then
    printf 'FROM debian:bookworm-slim\nLABEL io.vitals.inputs-hash=%s\n' "$want" | docker build -q -t "$BASE" - >/dev/null
    vitals_took "base image (pulled debian:bookworm-slim)" "$start"
    return
  fi
  vitals_log "no registry answers: making $BASE with debootstrap"
  if ! command -v debootstrap >/dev/null 2>&1; then
    [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1 \
      || vitals_die "debootstrap is missing; install it (apt-get install debootstrap) or make $BASE yourself"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
  fi
  local rootfs
  rootfs="$(mktemp -d /tmp/vitals-rootfs.XXXXXX)"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/tmp/vitals-debootstrap.log 2>&1 \
    || { tail -n 20 /tmp/vitals-debootstrap.log >&2; vitals_die "debootstrap failed; log: /tmp/vitals-debootstrap.log"; }
  tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' -c "LABEL io.vitals.inputs-hash=$want" - "$BASE" >/dev/null
  rm -rf "$rootfs"
  vitals_took "base image (debootstrap + import)" "$start"
}

# An image made of the base and one Dockerfile: rebuilt only when that Dockerfile or the base image changes. The
# agent image is one (it holds only a JRE: Vitals copies its own jar in when it starts the agent, so the image does
# not change with Vitals' version), the stress image another.
build_from_base() {
  local image="$1" dir="$2" what="$3" want
  want="$(hash_files "$dir" Dockerfile)-$(image_id "$BASE" | cut -c8-19)"
  if [[ "$(label_of "$image")" == "$want" ]]; then
    vitals_log "$image is up to date"
    return
  fi
  local start
  start="$(vitals_now)"
  docker build -q --network=host --build-arg "BASE_IMAGE=$BASE" --label "io.vitals.inputs-hash=$want" \
    -t "$image" "$dir" >/dev/null
  vitals_took "$what" "$start"
}

build_tensorflow() {
  local dir="$examples/tensorflow-image" want
  want="$(cd "$dir" && find Dockerfile train.sh pom.xml .dockerignore src -type f | LC_ALL=C sort \
    | xargs sha256sum | sha256sum | cut -c1-16)-$(image_id "$BASE" | cut -c8-19)"
  if [[ "$(label_of "$TENSORFLOW")" == "$want" ]]; then
    vitals_log "$TENSORFLOW is up to date"
    return
  fi
  local start
  start="$(vitals_now)"
  VITALS_INPUTS_HASH="$want" bash "$dir/build.sh" "$BASE" "$TENSORFLOW" >/tmp/vitals-tensorflow-build.log 2>&1 \
    || { tail -n 40 /tmp/vitals-tensorflow-build.log >&2; vitals_die "TensorFlow image build failed; log: /tmp/vitals-tensorflow-build.log"; }
  vitals_took "tensorflow image" "$start"
}

# The kernel charges a page of the page cache to the cgroup that first reads it, for as long as the page stays
# cached. On a machine that has not run the TensorFlow image since boot (every fresh CI runner), the first
# container to train reads the JRE and TensorFlow's native libraries from disk and is charged for them: measured on
# this project's CI host after `echo 3 > /proc/sys/vm/drop_caches`, 511 MiB charged, 223 MiB of it active file
# cache (so in MEM USAGE) after a second run, against 0 MiB for the next container (docs/troubleshooting.md). The
# example suite's memory budgets are derived from runs on a warm cache, so one throwaway container trains first
# and takes that charge away with it; a CI job can do the same with one `docker run --rm` before its tests.
warm_page_cache() {
  local start
  start="$(vitals_now)"
  docker run --rm --label "$VITALS_LABEL" "$TENSORFLOW" train --epochs 1 >/tmp/vitals-warmup.log 2>&1 \
    || { tail -n 20 /tmp/vitals-warmup.log >&2; vitals_die "warming the page cache failed; log: /tmp/vitals-warmup.log"; }
  vitals_took "page cache warmed (one throwaway training run)" "$start"
}

# `images.sh stress` builds only what the cgroup v2 guests need (base + stress + agent); no argument builds everything
build_base
build_from_base "$STRESS" "$examples/stress-image" "stress image"
build_from_base "$AGENT" "$examples/agent-image" "agent image"
if [[ "${1:-all}" != stress ]]; then
  build_tensorflow
  warm_page_cache
fi
