#!/bin/bash
# Writes a root filesystem tar of a slim Vitals agent image to $1: a Java runtime cut by jlink to the modules the
# agent loads, with exactly the shared libraries it links, and `java` on the PATH. The cgroup v2 guests import it as
# vitals/agent:latest (guest-run.sh), into their own engine and into the Docker-in-Docker engine. Why not
# vitals/agent itself: `docker load` of its ~250 MB (Debian + a full headless JRE) takes minutes under software
# emulation, while the agent only needs java.base and the JVM; this tar is some 30-40 MB. Vitals copies its own jar
# into the container when it starts it, as with the full image (docs/agent.md).
# Needs the JDK's jlink on this host (the build's JDK 17; VITALS_JLINK names another).
set -euo pipefail
out="$1"
jlink="${VITALS_JLINK:-$(command -v jlink || true)}"
[[ -x "$jlink" ]] || { echo "slim-agent.sh: no jlink (a JDK 17+) on this host; set VITALS_JLINK" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
slim="$work/slim"
mkdir -p "$slim/opt" "$slim/usr/bin" "$slim/tmp" "$slim/etc" "$slim/proc" "$slim/sys" "$slim/dev"
chmod 1777 "$slim/tmp"
# java.base is all the agent's classes use (jdeps of io.vitals.internal.agent and io.vitals.internal.probe);
# jdk.unsupported for sun.misc.Unsafe in libraries that probe for it. The CDS archive saves a few seconds of
# class loading per start under emulation.
"$jlink" --add-modules java.base,jdk.unsupported --strip-debug --no-header-files --no-man-pages \
  --generate-cds-archive --output "$slim/opt/java" >/dev/null 2>&1 \
  || "$jlink" --add-modules java.base,jdk.unsupported --strip-debug --no-header-files --no-man-pages \
    --output "$slim/opt/java" >&2
# the archive for heaps over 32 GiB is never used: the agent runs with -Xmx48m
rm -f "$slim/opt/java/lib/server/classes_nocoops.jsa"
ln -s /opt/java/bin/java "$slim/usr/bin/java"
# the libraries the JVM and its native parts link, at their own paths (the dynamic loader included)
mapfile -t natives < <(find "$slim/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \))
ldd "${natives[@]}" 2>/dev/null | grep -o '/[^ ]*' | grep -v ':$' | grep -v "^$slim" | sort -u \
  | while read -r lib; do cp -L --parents "$lib" "$slim/"; done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$slim/etc/passwd"
printf 'root:x:0:\n' >"$slim/etc/group"
tar -C "$slim" -c . >"$out"
