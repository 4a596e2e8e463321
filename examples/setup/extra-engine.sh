#!/bin/bash
# Makes sure an extra Docker engine, beside the first, answers on HOST, and holds the stress and agent images; the
# body of second-engine.sh and userns-engine.sh, which say what each engine is for.
#   usage: extra-engine.sh NAME HOST N LOG WAIT_SECONDS [dockerd option...]
#   NAME          what the log lines call it ("second engine")
#   N             its number: data root /var/lib/vitals-dockerN, exec root /var/run/vitals-dockerN (its containerd's
#                 socket lives there too), pid file /var/run/vitals-dockerN.pid, bridge vitals-brN on
#                 198.18.(248+N).1/24
# Idempotent:
#  - if `docker -H HOST info` answers, it starts nothing;
#  - else it starts a dockerd with its own data root, exec root, pid file and containerd, listening on HOST, with a
#    bridge of its own (never docker0), no iptables rules and no masquerading (so it leaves the first engine's
#    networking alone; its containers run with --network none), and waits at most WAIT_SECONDS;
#  - then it loads vitals/stress:latest and vitals/agent:latest from the first engine into it when missing (no
#    registry is needed).
# Root is required (dockerd, cgroups, mounts).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

[[ $# -ge 5 ]] || vitals_die "usage: $0 NAME HOST N LOG WAIT_SECONDS [dockerd option...]"
name="$1" host="$2" n="$3" log="$4" wait_seconds="$5"
shift 5
data_root="/var/lib/vitals-docker$n"
exec_root="/var/run/vitals-docker$n"
pidfile="/var/run/vitals-docker$n.pid"
bridge="vitals-br$n"

engine() { docker -H "$host" "$@"; }

if engine info >/dev/null 2>&1; then
  vitals_log "$name already answers on $host ($(engine version --format '{{.Server.Version}}' 2>/dev/null)); not starting one"
else
  [[ "$(id -u)" -eq 0 ]] || vitals_die "no engine answers on $host and starting one needs root; run $0 as root"
  command -v dockerd >/dev/null 2>&1 || vitals_die "dockerd is missing; run docker-engine.sh first"
  if [[ -f "$pidfile" ]] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    rm -f "$pidfile" # left by a dockerd that died; dockerd refuses to start while it exists
  fi
  start="$(vitals_now)"
  mkdir -p "$(dirname "$log")" "$data_root" "$exec_root"
  vitals_log "starting the $name: a dockerd on $host (log: $log)"
  # setsid detaches it from this script's session, so it keeps running for the next command.
  # A dockerd started with --bridge none DELETES an existing docker0 (libnetwork removes the default bridge
  # when it is disabled), which breaks the first engine's networking. So each extra engine gets a bridge of its
  # own, which nothing here uses: its test containers run with --network none.
  if ! ip link show "$bridge" >/dev/null 2>&1; then
    ip link add name "$bridge" type bridge
    ip addr add "198.18.$((248 + n)).1/24" dev "$bridge"
    ip link set "$bridge" up
  fi
  setsid dockerd \
    --data-root "$data_root" \
    --exec-root "$exec_root" \
    --pidfile "$pidfile" \
    -H "$host" \
    --bridge "$bridge" --iptables=false --ip-masq=false \
    "$@" \
    >>"$log" 2>&1 </dev/null &
  answered=false
  for ((i = 0; i < wait_seconds * 2; i++)); do
    if engine info >/dev/null 2>&1; then
      answered=true
      break
    fi
    sleep 0.5
  done
  if [[ "$answered" != true ]]; then
    tail -n 30 "$log" >&2 || true
    vitals_die "the $name did not answer on $host within ${wait_seconds} s; see $log"
  fi
  vitals_took "start the $name" "$start"
fi

# The stress image for the tests' containers, the agent image for the agent's tests (docs/agent.md).
for image in vitals/stress:latest vitals/agent:latest; do
  want="$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null)" \
    || vitals_die "$image is missing on the first engine; run images.sh first"
  if [[ "$(engine image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)" == "$want" ]]; then
    vitals_log "$image is up to date in the $name"
  else
    start="$(vitals_now)"
    docker save "$image" | engine load -q >/dev/null
    vitals_took "load $image into the $name" "$start"
  fi
done
