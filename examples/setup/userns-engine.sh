#!/bin/bash
# Makes sure a Docker engine that REMAPS USERS (dockerd --userns-remap=default) answers on tcp://127.0.0.1:23751, for
# AgentRefusedIT: such an engine refuses the Vitals agent's --pid=host ("cannot share the host PID namespace when
# user namespaces are enabled"), which is a real refusal of the agent's settings to test the warning against.
# Idempotent, like second-engine.sh (whose layout it follows): starts nothing when the engine answers; else starts a
# third dockerd with its own data root, exec root, pid file, containerd and bridge (never docker0), no iptables
# rules, listening on loopback only; then loads vitals/stress:latest and vitals/agent:latest from the first engine
# when missing. dockerd creates the 'dockremap' user and its subordinate IDs itself. Root is required.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

USERNS_HOST="${VITALS_USERNS_ENGINE:-tcp://127.0.0.1:23751}"
DATA_ROOT=/var/lib/vitals-docker3
EXEC_ROOT=/var/run/vitals-docker3
PIDFILE=/var/run/vitals-docker3.pid
DOCKERD3_LOG="${VITALS_DOCKERD3_LOG:-/var/log/vitals-dockerd3.log}"
BRIDGE=vitals-br3
WAIT_SECONDS="${VITALS_DOCKERD3_WAIT:-60}"

third() { docker -H "$USERNS_HOST" "$@"; }

if third info >/dev/null 2>&1; then
  vitals_log "user-remapping engine already answers on $USERNS_HOST; not starting one"
else
  [[ "$(id -u)" -eq 0 ]] || vitals_die "no engine answers on $USERNS_HOST and starting one needs root; run $0 as root"
  command -v dockerd >/dev/null 2>&1 || vitals_die "dockerd is missing; run docker-engine.sh first"
  if [[ -f "$PIDFILE" ]] && ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    rm -f "$PIDFILE"
  fi
  start="$(vitals_now)"
  mkdir -p "$(dirname "$DOCKERD3_LOG")" "$DATA_ROOT" "$EXEC_ROOT"
  vitals_log "starting a user-remapping dockerd on $USERNS_HOST (log: $DOCKERD3_LOG)"
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add name "$BRIDGE" type bridge
    ip addr add 198.18.251.1/24 dev "$BRIDGE"
    ip link set "$BRIDGE" up
  fi
  setsid dockerd \
    --data-root "$DATA_ROOT" \
    --exec-root "$EXEC_ROOT" \
    --pidfile "$PIDFILE" \
    -H "$USERNS_HOST" \
    --bridge "$BRIDGE" --iptables=false --ip-masq=false \
    --userns-remap=default \
    >>"$DOCKERD3_LOG" 2>&1 </dev/null &
  answered=false
  for ((i = 0; i < WAIT_SECONDS * 2; i++)); do
    if third info >/dev/null 2>&1; then
      answered=true
      break
    fi
    sleep 0.5
  done
  if [[ "$answered" != true ]]; then
    tail -n 30 "$DOCKERD3_LOG" >&2 || true
    vitals_die "the user-remapping dockerd did not answer on $USERNS_HOST within ${WAIT_SECONDS} s; see $DOCKERD3_LOG"
  fi
  vitals_took "start user-remapping dockerd" "$start"
fi

for image in vitals/stress:latest vitals/agent:latest; do
  want="$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null)" \
    || vitals_die "$image is missing on the first engine; run images.sh first"
  if [[ "$(third image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)" == "$want" ]]; then
    vitals_log "$image is up to date in the user-remapping engine"
  else
    start="$(vitals_now)"
    docker save "$image" | third load -q >/dev/null
    vitals_took "load $image into the user-remapping engine" "$start"
  fi
done
