#!/bin/bash
# Writes a root filesystem tar of a slim stress image to $1: stress-ng, bash and the few tools the container tests
# call (dd, sleep, head, seq, awk, ...), each with exactly the shared libraries it links, copied out of
# vitals/stress:latest. The guest imports it as vitals/stress:latest. Why not the image itself: `docker load` of its
# 240 MB takes minutes under software emulation; this tar is a few MB and the binaries are the very same ones.
set -euo pipefail
out="$1"
image="${VITALS_STRESS_IMAGE:-vitals/stress:latest}"
docker run --rm --network none --label io.vitals.managed=true --entrypoint bash "$image" -c '
  set -euo pipefail
  tools="bash stress-ng sleep dd head tail seq cat awk mawk sync rm ls mkdir env true false wc grep sed printf
         echo tr cut sort uniq kill ps nproc id date stat df du mount sh"
  files=()
  for t in $tools; do p="$(command -v "$t" || true)"; [[ -n "$p" && -f "$p" ]] && files+=("$(readlink -f "$p")"); done
  libs="$(ldd "${files[@]}" 2>/dev/null | grep -o "/[^ ]*" | grep -v ":\$" | sort -u)"
  mkdir -p /slim/usr/bin /slim/bin /slim/tmp /slim/etc /slim/proc /slim/sys /slim/dev
  chmod 1777 /slim/tmp
  for f in "${files[@]}"; do cp -L "$f" /slim/usr/bin/; done
  for t in $tools; do p="$(command -v "$t" || true)"; [[ -n "$p" && -f "$p" ]] && [[ ! -e /slim/usr/bin/$t ]] \
    && ln -s "$(basename "$(readlink -f "$p")")" "/slim/usr/bin/$t"; done
  for l in $libs; do cp -L --parents "$l" /slim/ ; done
  ln -sf /usr/bin/bash /slim/bin/bash; ln -sf /usr/bin/bash /slim/bin/sh
  cp /etc/passwd /etc/group /slim/etc/
  tar -C /slim -c .
' >"$out"
