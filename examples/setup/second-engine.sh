#!/bin/bash
# Makes sure a SECOND Docker engine answers on tcp://127.0.0.1:23750, for EngineApiProbeIT (the Engine API probe
# measured against an engine it reaches over TCP, as with a remote DOCKER_HOST). Idempotent:
#  - if `docker -H tcp://127.0.0.1:23750 info` answers, it starts nothing;
#  - else it starts a second dockerd beside the first one, with its own data root, exec root, pid file and
#    containerd, listening on loopback only, with a bridge of its own (never docker0), no iptables rules and no
#    masquerading (so it leaves the first engine's networking alone; its containers run with --network none),
#    and waits (bounded);
#  - then it loads vitals/stress:latest and vitals/agent:latest from the first engine into it when missing (no
#    registry is needed).
# The second dockerd starts its own containerd (dockerd does so whenever --containerd is not given): the socket
# lives under its exec root, /var/run/vitals-docker2/containerd/containerd.sock, so it never shares the first
# engine's containerd. Root is required (dockerd, cgroups, mounts).
# The engine listens without TLS; it binds 127.0.0.1 only, so only this machine can reach it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

SECOND_HOST="${VITALS_SECOND_ENGINE:-tcp://127.0.0.1:23750}"
DATA_ROOT=/var/lib/vitals-docker2
EXEC_ROOT=/var/run/vitals-docker2
PIDFILE=/var/run/vitals-docker2.pid
DOCKERD2_LOG="${VITALS_DOCKERD2_LOG:-/var/log/vitals-dockerd2.log}"
BRIDGE=vitals-br2
WAIT_SECONDS="${VITALS_DOCKERD2_WAIT:-60}"
STRESS=vitals/stress:latest
AGENT=vitals/agent:latest

second() { docker -H "$SECOND_HOST" "$@"; }

if second info >/dev/null 2>&1; then
  vitals_log "second engine already answers on $SECOND_HOST ($(second version --format '{{.Server.Version}}' 2>/dev/null)); not starting one"
else
  [[ "$(id -u)" -eq 0 ]] || vitals_die "no engine answers on $SECOND_HOST and starting one needs root; run $0 as root"
  command -v dockerd >/dev/null 2>&1 || vitals_die "dockerd is missing; run docker-engine.sh first"
  if [[ -f "$PIDFILE" ]] && ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    rm -f "$PIDFILE" # left by a dockerd that died; dockerd refuses to start while it exists
  fi
  start="$(vitals_now)"
  mkdir -p "$(dirname "$DOCKERD2_LOG")" "$DATA_ROOT" "$EXEC_ROOT"
  vitals_log "starting a second dockerd on $SECOND_HOST (log: $DOCKERD2_LOG)"
  # setsid detaches it from this script's session, so it keeps running for the next command.
  # A dockerd started with --bridge none DELETES an existing docker0 (libnetwork removes the default bridge
  # when it is disabled), which breaks the first engine's networking. So the second engine gets a bridge of its
  # own, which nothing here uses: its test containers run with --network none.
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add name "$BRIDGE" type bridge
    ip addr add 198.18.250.1/24 dev "$BRIDGE"
    ip link set "$BRIDGE" up
  fi
  setsid dockerd \
    --data-root "$DATA_ROOT" \
    --exec-root "$EXEC_ROOT" \
    --pidfile "$PIDFILE" \
    -H "$SECOND_HOST" \
    --bridge "$BRIDGE" --iptables=false --ip-masq=false \
    >>"$DOCKERD2_LOG" 2>&1 </dev/null &
  answered=false
  for ((i = 0; i < WAIT_SECONDS * 2; i++)); do
    if second info >/dev/null 2>&1; then
      answered=true
      break
    fi
    sleep 0.5
  done
  if [[ "$answered" != true ]]; then
    tail -n 30 "$DOCKERD2_LOG" >&2 || true
    vitals_die "the second dockerd did not answer on $SECOND_HOST within ${WAIT_SECONDS} s; see $DOCKERD2_LOG"
  fi
  vitals_took "start second dockerd" "$start"
fi

# The stress image for the tests' containers, the agent image for AgentProbeIT (docs/agent.md).
for image in "$STRESS" "$AGENT"; do
  want="$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null)" \
    || vitals_die "$image is missing on the first engine; run images.sh first"
  if [[ "$(second image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)" == "$want" ]]; then
    vitals_log "$image is up to date in the second engine"
  else
    start="$(vitals_now)"
    docker save "$image" | second load -q >/dev/null
    vitals_took "load $image into the second engine" "$start"
  fi
done
