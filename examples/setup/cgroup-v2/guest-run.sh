#!/bin/bash
# Runs INSIDE a cgroup v2 guest, from the payload disk mounted at /payload (see run-guest.sh): imports the slim
# stress image, then runs the JUnit suite twice, as root and as the non-root user "vitals" (docker group), each
# writing JUnit XML and Vitals reports under /payload/results/<root|user>/. Its output goes to the serial console.
set -uo pipefail
P=/payload
classes_file="$P/classes.txt"
log() { echo "[guest $(date +%T)] $*"; }

log "kernel $(uname -r); $(grep -h PRETTY_NAME /etc/os-release)"
log "cgroup2 controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
for _ in $(seq 120); do docker info >/dev/null 2>&1 && break; sleep 1; done
log "docker $(docker version --format '{{.Server.Version}}' 2>&1), cgroup driver $(docker info --format '{{.CgroupDriver}} v{{.CgroupVersion}}' 2>&1)"
log "java: $(java -version 2>&1 | head -n 1)"
docker import --change 'CMD ["sleep","infinity"]' --change 'LABEL io.vitals.image=stress' \
  "$P/stress-rootfs.tar" vitals/stress:latest >/dev/null || log "ERROR: docker import of the stress image failed"
log "stress image imported"

selectors=()
while read -r cls; do [[ -n "$cls" ]] && selectors+=(--select-class "$cls"); done <"$classes_file"

run_as() {
  local who="$1" out="$P/results/$1"
  mkdir -p "$out/work" && chmod -R 0777 "$out"
  local cmd=(java -Xmx1g -Dvitals.requireDocker=true -Dvitals.reportDir="$out/vitals"
    -Dvitals.v2.guest="$(cat "$P/guest-name")" -Dvitals.v2.user="$who"
    -cp "$P/test-classes:$P/classes:$P/lib/*" org.junit.platform.console.ConsoleLauncher execute
    --disable-banner --details=tree --reports-dir "$out/junit" "${selectors[@]}")
  local start=$SECONDS rc
  log "suite as $who: ${#selectors[@]} selectors"
  if [[ "$who" == root ]]; then
    (cd "$out/work" && env TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") \
      >"$out/console.txt" 2>&1
  else
    (cd "$out/work" && runuser -u vitals -- env HOME=/home/vitals TESTCONTAINERS_RYUK_DISABLED=true \
      TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") >"$out/console.txt" 2>&1
  fi
  rc=$?
  echo "$rc" >"$out/exit-code"
  log "suite as $who: exit $rc after $((SECONDS - start)) s"
  tail -n 25 "$out/console.txt"
  # containers the tests left behind would skew the next run
  docker ps -aq --filter label=io.vitals.managed=true | xargs -r docker rm -f >/dev/null 2>&1
}

for who in $(cat "$P/users"); do run_as "$who"; done
sync
log "done"
