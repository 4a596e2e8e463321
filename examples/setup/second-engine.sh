#!/bin/bash
# Makes sure a SECOND Docker engine answers on tcp://127.0.0.1:23750, for EngineApiProbeIT (the Engine API probe
# measured against an engine it reaches over TCP, as with a remote DOCKER_HOST) and the agent's tests (AgentProbeIT,
# the matrix's agent cell). Idempotent (extra-engine.sh does the work):
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
exec bash "$here/extra-engine.sh" "second engine" "${VITALS_SECOND_ENGINE:-tcp://127.0.0.1:23750}" 2 \
  "${VITALS_DOCKERD2_LOG:-/var/log/vitals-dockerd2.log}" "${VITALS_DOCKERD2_WAIT:-60}"
