#!/bin/bash
# Runs the accuracy suite on THIS host as a non-root user in the docker group, as jobs on CI runners run: the
# "cgroup v1, non-root" row of docs/metrics.md's exactness matrix (the v2 rows come from cgroup-v2.sh's guests).
# Needs root to create the user "vitals" (once) and to hand it the payload; the tests themselves run as "vitals".
# Results: target/cgroup-v1/user/{junit,vitals,console.txt,exit-code}.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

# the accuracy suite, and the reports end to end (they name the host shape: here "cgroup-v1-nonroot")
classes="${VITALS_V1_USER_CLASSES:-io.vitals.internal.probe.CgroupV2AccuracyIT io.vitals.internal.report.ReportsEndToEndIT}"
out="$root/target/cgroup-v1/user"

[[ "$(id -u)" -eq 0 ]] || vitals_die "v1-user.sh needs root (it creates the user 'vitals' and runs the suite as it)"
getent group docker >/dev/null || vitals_die "no 'docker' group: run docker-engine.sh first"
id vitals >/dev/null 2>&1 || useradd --create-home --shell /bin/bash --groups docker vitals
id -nG vitals | tr ' ' '\n' | grep -qx docker || usermod -aG docker vitals

start="$(vitals_now)"
payload="$(mktemp -d /var/tmp/vitals-v1-user.XXXXXX)"
# the user writes under /var/tmp, not into the checkout: its parent directories (a CI workspace under a root-only
# directory, say) need not be open to other users; the results are copied back afterwards
results="$(mktemp -d /var/tmp/vitals-v1-user-results.XXXXXX)"
trap 'rm -rf "$payload" "$results"' EXIT
bash "$here/test-payload.sh" "$payload"
bash "$here/images.sh" stress
mkdir -p "$results/work"
chmod -R a+rX "$payload" && chown -R vitals "$results"
vitals_took "payload (test classes, jars)" "$start"

selectors=()
for cls in $classes; do selectors+=(--select-class "$cls"); done
start="$(vitals_now)"
status=0
(cd "$results/work" && runuser -u vitals -- env HOME=/home/vitals TESTCONTAINERS_RYUK_DISABLED=true \
  TESTCONTAINERS_HOST_OVERRIDE=localhost java -Xmx1g -Dvitals.requireDocker=true \
  -Dvitals.reportDir="$results/vitals" -cp "$payload/test-classes:$payload/classes:$payload/lib/*" \
  org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree \
  --reports-dir "$results/junit" "${selectors[@]}") >"$results/console.txt" 2>&1 || status=$?
echo "$status" >"$results/exit-code"
rm -rf "$out" && mkdir -p "$out" && cp -r "$results/." "$out/" && chown -R "$(id -u):$(id -g)" "$out"
vitals_took "suite as vitals (uid $(id -u vitals), groups: $(id -nG vitals))" "$start"
grep -E '^\[accuracy\]' "$out/console.txt" || true
tail -n 15 "$out/console.txt"
exit $status
