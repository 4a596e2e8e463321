#!/bin/bash
# Makes sure a Docker engine answers. Idempotent:
#  - if `docker info` answers, it does nothing (it never touches an engine that already runs);
#  - else, as root on a Debian-like machine with apt, it installs Debian's docker.io (and iptables), starts
#    dockerd detached with its log in /var/log/vitals-dockerd.log, and waits (bounded) until it answers;
#  - anywhere else it exits non-zero saying what to install.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

DOCKERD_LOG="${VITALS_DOCKERD_LOG:-/var/log/vitals-dockerd.log}"
WAIT_SECONDS="${VITALS_DOCKERD_WAIT:-60}"

if docker info >/dev/null 2>&1; then
  vitals_log "Docker engine already answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null)); leaving it alone"
  exit 0
fi

if [[ -n "${DOCKER_HOST:-}" && "${DOCKER_HOST}" != unix://* ]]; then
  vitals_die "DOCKER_HOST=$DOCKER_HOST does not answer; start that engine, or unset DOCKER_HOST to use a local one"
fi

if [[ "$(id -u)" -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  vitals_die "no Docker engine answers. Install and start Docker (https://docs.docker.com/engine/install/), \
or run this script as root on a Debian/Ubuntu machine so it can install Debian's docker.io itself."
fi

if ! command -v dockerd >/dev/null 2>&1; then
  start="$(vitals_now)"
  vitals_log "installing Debian's docker.io and iptables (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends docker.io iptables >/dev/null
  vitals_took "install docker.io" "$start"
fi
# docker.io's client may be shadowed by another docker binary; both speak to the same socket.
command -v docker >/dev/null 2>&1 || vitals_die "the docker client is missing after installing docker.io"

start="$(vitals_now)"
mkdir -p "$(dirname "$DOCKERD_LOG")"
vitals_log "starting dockerd (log: $DOCKERD_LOG)"
# setsid detaches it from this script's session, so it keeps running for the next command.
setsid dockerd >>"$DOCKERD_LOG" 2>&1 < /dev/null &
for ((i = 0; i < WAIT_SECONDS * 2; i++)); do
  if docker info >/dev/null 2>&1; then
    vitals_took "start dockerd" "$start"
    exit 0
  fi
  sleep 0.5
done
tail -n 30 "$DOCKERD_LOG" >&2 || true
vitals_die "dockerd did not answer within ${WAIT_SECONDS} s; see $DOCKERD_LOG"
