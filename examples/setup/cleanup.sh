#!/bin/bash
# Removes containers the project created (label io.vitals.managed=true) that are still there, and prints how
# many it found. With Ryuk disabled nothing else would, so this runs after every test command.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

# The second engine (second-engine.sh, for the Engine API probe and agent tests) and the user-remapping one
# (userns-engine.sh, for AgentRefusedIT) are cleaned too, when they answer.
for other in "${VITALS_SECOND_ENGINE:-tcp://127.0.0.1:23750}" "${VITALS_USERNS_ENGINE:-tcp://127.0.0.1:23751}"; do
  if docker -H "$other" info >/dev/null 2>&1; then
    # shellcheck disable=SC2046
    docker -H "$other" rm -f $(docker -H "$other" ps -aq --filter "label=$VITALS_LABEL") >/dev/null 2>&1 || true
  fi
done

ids="$(docker ps -aq --filter "label=$VITALS_LABEL" 2>/dev/null || true)"
if [[ -z "$ids" ]]; then
  vitals_log "no leftover containers"
  exit 0
fi
count="$(wc -w <<<"$ids")"
vitals_log "removing $count leftover container(s) labelled $VITALS_LABEL"
# shellcheck disable=SC2086
docker rm -f $ids >/dev/null
echo "$count"
