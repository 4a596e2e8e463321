#!/bin/bash
# Builds the vitals/tensorflow workload image.
# Usage: build.sh <base-image> <target-tag>
#   e.g. build.sh vitals/base:bookworm vitals/tensorflow:latest
# The image gets the label io.vitals.inputs-hash=$VITALS_INPUTS_HASH (or "dev" when unset); callers use it
# to decide whether a rebuild is needed (this script always builds).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <base-image> <target-tag>" >&2
  exit 2
fi
base="$1"
tag="$2"
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
hash="${VITALS_INPUTS_HASH:-dev}"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t0="$(now)"
t="$(now)"
mvn -B -q -f "$dir/pom.xml" package
echo "build.sh: mvn package took $(elapsed "$t") s" >&2

t="$(now)"
docker build --network=host \
  --build-arg "BASE_IMAGE=$base" \
  --label "io.vitals.inputs-hash=$hash" \
  -t "$tag" \
  "$dir"
echo "build.sh: docker build took $(elapsed "$t") s" >&2
echo "build.sh: built $tag (base $base, inputs-hash $hash) in $(elapsed "$t0") s" >&2
