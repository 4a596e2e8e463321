#!/bin/bash
# Makes sure a Docker engine that REMAPS USERS (dockerd --userns-remap=default) answers on tcp://127.0.0.1:23751, for
# AgentRefusedIT: such an engine refuses the Vitals agent's --pid=host ("cannot share the host PID namespace when
# user namespaces are enabled"), which is a real refusal of the agent's settings to test the warning against.
# Idempotent, like second-engine.sh (extra-engine.sh does the work for both): starts nothing when the engine
# answers; else starts a third dockerd with its own data root, exec root, pid file, containerd and bridge (never
# docker0), no iptables rules, listening on loopback only; then loads vitals/stress:latest and vitals/agent:latest
# from the first engine when missing. dockerd creates the 'dockremap' user and its subordinate IDs itself. Root is required.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/extra-engine.sh" "user-remapping engine" "${VITALS_USERNS_ENGINE:-tcp://127.0.0.1:23751}" 3 \
  "${VITALS_DOCKERD3_LOG:-/var/log/vitals-dockerd3.log}" "${VITALS_DOCKERD3_WAIT:-60}" --userns-remap=default
