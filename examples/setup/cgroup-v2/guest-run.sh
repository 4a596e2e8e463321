#!/bin/bash
# Runs INSIDE a cgroup v2 guest, from the payload disk mounted at /payload (see run-guest.sh): imports the slim
# stress image, then runs the JUnit suite once per entry of /payload/users: "root" and "user" (the non-root user
# "vitals", docker group) against Docker; "podman" as root against Podman's Docker-compatible API socket;
# "podman-user" as "vitals" against its own rootless Podman (systemd user session, delegated controllers). Each
# writes JUnit XML and Vitals reports under /payload/results/<who>/. Its output goes to the serial console.
# "dind" runs as root against a Docker engine inside a privileged container of the guest's Docker (Docker-in-Docker),
# reached over TCP on 127.0.0.1:2375, as CI jobs reach a docker:dind service. Every cell passes its engine to the
# tests as -Dvitals.it.agentEngine (AgentProbeIT starts the Vitals agent there); a cell whose classes include the
# agent's tests imports the slim agent image (slim-agent.sh) into its engine first.
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

# The test classes of a cell: classes-<who>.txt where the host wrote one (the users other than root run fewer),
# else classes.txt; a line is a class, or one method as class#method
# (classes-<who>-<guest>.txt first: a class that runs in one guest's cell only)
classes_of() {
  local file="$P/classes-$1-$(cat "$P/guest-name").txt"
  [[ -f "$file" ]] || file="$P/classes-$1.txt"
  [[ -f "$file" ]] || file="$classes_file"
  echo "$file"
}
selectors_of() {
  local file cls
  file="$(classes_of "$1")"
  selectors=()
  while read -r cls; do
    if [[ "$cls" == *"#"* ]]; then selectors+=(--select-method "$cls"); elif [[ -n "$cls" ]]; then selectors+=(--select-class "$cls"); fi
  done <"$file"
}

# A JVM killed by a signal under software emulation (SIGSEGV in JIT-compiled JDK code, exit 134) is the emulator's
# fault, not the tests': such a run is repeated, up to two more times, and says so. It was seen once in a Podman cell
# whose rerun passed, and on 2026-12-02 in two runs in a row of the rootless Podman cell, 4-8 s after the JVM started.
run_as() {
  run_once "$@"
  local rc attempt crashed
  for attempt in 2 3; do
    rc="$(cat "$P/results/$1/exit-code")"
    [[ "$rc" -ge 128 ]] || break
    log "suite as $1: the JVM died of a signal (exit $rc; $(grep -h -m1 'Problematic frame' -A1 "$P/results/$1"/work/hs_err_pid*.log 2>/dev/null | tail -n 1)); running it again (attempt $attempt of 3)"
    crashed="$P/results/$1-crashed"
    [[ "$attempt" -eq 2 ]] || crashed="$crashed-$((attempt - 1))"
    mkdir -p "$crashed" && mv "$P/results/$1"/* "$crashed/"
    run_once "$@"
  done
}

run_once() {
  local who="$1" out="$P/results/$1"
  selectors_of "$who"
  mkdir -p "$out/work" && chmod -R 0777 "$out"
  # C1 only: under software emulation C2's compiler threads cost more guest CPU than the code they speed up in a
  # suite of a few minutes; what the tests measure is the containers' cgroups, not this JVM
  local engine=unix:///var/run/docker.sock
  case "$who" in
    podman) engine="unix://$PODMAN_SOCKET" ;;
    podman-user) engine="unix://$USER_PODMAN_SOCKET" ;;
    dind) engine="$DIND_ENGINE" ;;
  esac
  local cmd=(java -Xmx1g -XX:TieredStopAtLevel=1 -Dvitals.requireDocker=true -Dvitals.reportDir="$out/vitals"
    -Dvitals.v2.guest="$(cat "$P/guest-name")" -Dvitals.v2.user="$who" -Dvitals.it.agentEngine="$engine"
    -cp "$P/test-classes:$P/classes:$P/lib/*" org.junit.platform.console.ConsoleLauncher execute
    --disable-banner --details=tree --reports-dir "$out/junit" "${selectors[@]}")
  local start=$SECONDS rc
  log "suite as $who: ${#selectors[@]} selectors"
  if [[ "$who" == root ]]; then
    (cd "$out/work" && env TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") \
      >"$out/console.txt" 2>&1
  elif [[ "$who" == dind ]]; then
    (cd "$out/work" && env DOCKER_HOST="$DIND_ENGINE" TESTCONTAINERS_RYUK_DISABLED=true \
      TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") >"$out/console.txt" 2>&1
  elif [[ "$who" == podman ]]; then
    (cd "$out/work" && env DOCKER_HOST="unix://$PODMAN_SOCKET" TESTCONTAINERS_RYUK_DISABLED=true \
      TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") >"$out/console.txt" 2>&1
  elif [[ "$who" == podman-user ]]; then
    (cd "$out/work" && runuser -u vitals -- env HOME=/home/vitals XDG_RUNTIME_DIR="$USER_RUNTIME" \
      DBUS_SESSION_BUS_ADDRESS="unix:path=$USER_RUNTIME/bus" DOCKER_HOST="unix://$USER_PODMAN_SOCKET" \
      TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") >"$out/console.txt" 2>&1
  else
    (cd "$out/work" && runuser -u vitals -- env HOME=/home/vitals TESTCONTAINERS_RYUK_DISABLED=true \
      TESTCONTAINERS_HOST_OVERRIDE=localhost "${cmd[@]}") >"$out/console.txt" 2>&1
  fi
  rc=$?
  echo "$rc" >"$out/exit-code"
  # on the payload disk now, not in the page cache: a guest kernel that panics after a cell (Debian 13's 6.12 under
  # the emulator did, 1 s after its root cell passed, on 2026-12-04) must not take the cell's results with it, or
  # the second boot runs the cell again (17 min)
  sync
  log "suite as $who: exit $rc after $((SECONDS - start)) s"
  tail -n 25 "$out/console.txt"
  # containers the tests left behind would skew the next run (the DinD engine's own container stays for a rerun)
  if [[ "$who" == dind ]]; then
    docker -H "$DIND_ENGINE" ps -aq --filter label=io.vitals.managed=true | xargs -r docker -H "$DIND_ENGINE" rm -f \
      >/dev/null 2>&1
  fi
  docker ps -aq --filter label=io.vitals.managed=true | grep -vx "$(docker ps -aq --filter name='^vitals-dind$')" \
    | xargs -r docker rm -f >/dev/null 2>&1
  if [[ "$who" == podman ]]; then
    podman ps -aq --filter label=io.vitals.managed=true | xargs -r podman rm -f >/dev/null 2>&1
  fi
  if [[ "$who" == podman-user ]]; then
    as_user sh -c 'podman ps -aq --filter label=io.vitals.managed=true | xargs -r podman rm -f' >/dev/null 2>&1
  fi
}

# Podman's API service (rootful), with the stress image in Podman's own store
PODMAN_SOCKET=/run/podman/podman.sock
start_podman() {
  command -v podman >/dev/null || { log "ERROR: a podman run was asked for, but this guest has no podman"; return 1; }
  log "podman $(podman version --format '{{.Server.Version}}' 2>&1), cgroup manager $(podman info --format '{{.Host.CgroupManager}} {{.Host.CgroupsVersion}}' 2>&1)"
  mkdir -p "$(dirname "$PODMAN_SOCKET")"
  podman system service --time=0 "unix://$PODMAN_SOCKET" >"$P/results/podman-service.log" 2>&1 &
  for _ in $(seq 60); do [[ -S "$PODMAN_SOCKET" ]] && break; sleep 1; done
  [[ -S "$PODMAN_SOCKET" ]] || { log "ERROR: the podman service did not start: $(tail -n 3 \
    "$P/results/podman-service.log")"; return 1; }
  podman import --change 'CMD ["sleep","infinity"]' --change 'LABEL io.vitals.image=stress' \
    "$P/stress-rootfs.tar" vitals/stress:latest >/dev/null || { log "ERROR: podman import failed"; return 1; }
  log "podman API at $PODMAN_SOCKET, stress image imported"
}

# Rootless Podman of the user "vitals": its user manager (started at boot by linger) owns a delegated cgroup
# subtree; the API service runs as the user, with the stress image in the user's own store
USER_RUNTIME="/run/user/$(id -u vitals 2>/dev/null || echo 1000)"
USER_PODMAN_SOCKET="$USER_RUNTIME/podman/podman.sock"
as_user() {
  runuser -u vitals -- env HOME=/home/vitals XDG_RUNTIME_DIR="$USER_RUNTIME" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$USER_RUNTIME/bus" "$@"
}
start_podman_rootless() {
  command -v podman >/dev/null || { log "ERROR: a podman-user run was asked for, but this guest has no podman"; return 1; }
  for _ in $(seq 60); do [[ -S "$USER_RUNTIME/bus" ]] && break; sleep 1; done
  [[ -S "$USER_RUNTIME/bus" ]] || { log "ERROR: no user session for vitals ($USER_RUNTIME/bus); is linger on?"; return 1; }
  local delegated
  delegated="$(cat "/sys/fs/cgroup/user.slice/user-$(id -u vitals).slice/user@$(id -u vitals).service/cgroup.controllers" 2>&1)"
  log "rootless podman $(as_user podman version --format '{{.Server.Version}}' 2>&1), $(as_user podman info \
    --format 'cgroup manager {{.Host.CgroupManager}} {{.Host.CgroupsVersion}}, rootless {{.Host.Security.Rootless}}' 2>&1);" \
    "controllers delegated to the user: $delegated"
  # podman binds its socket without creating the directory; without it the service exits at once, and
  # Testcontainers would fall back to the rootful Docker socket (Vitals refuses that: the engine named must answer)
  as_user mkdir -p "$(dirname "$USER_PODMAN_SOCKET")"
  as_user podman system service --time=0 "unix://$USER_PODMAN_SOCKET" >"$P/results/podman-user-service.log" 2>&1 &
  for _ in $(seq 60); do [[ -S "$USER_PODMAN_SOCKET" ]] && break; sleep 1; done
  [[ -S "$USER_PODMAN_SOCKET" ]] || { log "ERROR: the rootless podman service did not start: $(tail -n 3 \
    "$P/results/podman-user-service.log")"; return 1; }
  as_user podman import --change 'CMD ["sleep","infinity"]' --change 'LABEL io.vitals.image=stress' \
    "$P/stress-rootfs.tar" vitals/stress:latest >/dev/null || { log "ERROR: rootless podman import failed"; return 1; }
  log "rootless podman API at $USER_PODMAN_SOCKET, stress image imported"
}

# The slim agent image (a jlinked JRE, slim-agent.sh) as vitals/agent:latest on an engine, for the cells that run
# the agent's tests; imported once per engine
agent_image_for() {
  local who="$1" engine="$2" start=$SECONDS
  grep -q 'io\.vitals\.internal\.agent\.' "$(classes_of "$who")" || return 0
  [[ -f "$P/agent-rootfs.tar" ]] || { log "ERROR: the $who cell runs the agent's tests, but the payload has no agent-rootfs.tar"; return 0; }
  docker -H "$engine" image inspect vitals/agent:latest >/dev/null 2>&1 && return 0
  docker -H "$engine" import --change 'LABEL io.vitals.image=agent' "$P/agent-rootfs.tar" vitals/agent:latest \
    >/dev/null || { log "ERROR: docker import of the agent image into $engine failed"; return 0; }
  log "agent image imported into $engine in $((SECONDS - start)) s"
}

# Docker-in-Docker: a privileged container of the guest's engine runs a second dockerd, whose API it publishes on
# 127.0.0.1:2375 (host network: the inner engine makes no bridge, and the tests' containers run with --network
# none). The image is the guest's own Docker: a copy of /etc and the merged-/usr symlinks, with the guest's /usr
# bind-mounted read-only, so nothing is copied but a few MB. The inner engine keeps its layers in a directory of
# the guest (overlay2 cannot stack on the container's own overlay root).
DIND_ENGINE=tcp://127.0.0.1:2375
start_dind() {
  local start=$SECONDS r=/tmp/vitals-dind-root d
  rm -rf "$r" && mkdir -p "$r"/{usr,var/lib/docker,run,tmp,proc,sys,dev,root}
  chmod 1777 "$r/tmp"
  for d in bin sbin lib lib32 lib64; do [[ -L "/$d" ]] && cp -P "/$d" "$r/$d"; done
  cp -a /etc "$r/etc"
  ln -s /run "$r/var/run"
  # cgroup v2: the container is the root of its own cgroup namespace (private by default on v2), and a cgroup with
  # processes of its own cannot hand controllers to children; so its processes move to a leaf, "init", and every
  # controller is delegated below the root, as docker:dind's entrypoint does. The inner dockerd (no systemd here:
  # the cgroupfs driver) then puts each container in /docker/<id> of that namespace.
  cat >"$r/dind.sh" <<'DIND'
#!/bin/sh
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  mkdir -p /sys/fs/cgroup/init
  xargs -rn1 </sys/fs/cgroup/cgroup.procs >/sys/fs/cgroup/init/cgroup.procs 2>/dev/null || true
  sed -e 's/ / +/g' -e 's/^/+/' </sys/fs/cgroup/cgroup.controllers >/sys/fs/cgroup/cgroup.subtree_control
fi
exec dockerd --host=unix:///var/run/docker.sock --host=tcp://127.0.0.1:2375 --iptables=false --bridge=none
DIND
  tar -C "$r" -c . | docker import --change 'ENTRYPOINT ["/bin/sh", "/dind.sh"]' --change 'LABEL io.vitals.image=dind' \
    - vitals/dind:latest >/dev/null || { log "ERROR: docker import of the DinD image failed"; return 1; }
  rm -rf "$r"
  mkdir -p /var/lib/vitals-dind
  docker run -d --name vitals-dind --label io.vitals.managed=true --privileged --network host \
    -v /usr:/usr:ro -v /var/lib/vitals-dind:/var/lib/docker vitals/dind:latest >/dev/null \
    || { log "ERROR: the DinD container did not start"; return 1; }
  for _ in $(seq 180); do docker -H "$DIND_ENGINE" info >/dev/null 2>&1 && break; sleep 1; done
  docker -H "$DIND_ENGINE" info >/dev/null 2>&1 || { log "ERROR: the DinD engine does not answer on $DIND_ENGINE:" \
    "$(docker logs --tail 5 vitals-dind 2>&1)"; return 1; }
  log "DinD engine up after $((SECONDS - start)) s: docker $(docker -H "$DIND_ENGINE" version --format '{{.Server.Version}}'), $(docker -H "$DIND_ENGINE" info --format 'cgroup driver {{.CgroupDriver}} v{{.CgroupVersion}}, storage {{.Driver}}'); its cgroup: $(docker exec vitals-dind cat /proc/1/cgroup)"
  start=$SECONDS
  docker -H "$DIND_ENGINE" import --change 'CMD ["sleep","infinity"]' --change 'LABEL io.vitals.image=stress' \
    "$P/stress-rootfs.tar" vitals/stress:latest >/dev/null || { log "ERROR: import of the stress image into DinD failed"; return 1; }
  log "stress image imported into DinD in $((SECONDS - start)) s"
}

mkdir -p "$P/results"
for who in $(cat "$P/users"); do
  if [[ "$who" == dind ]] && ! start_dind; then
    mkdir -p "$P/results/dind" && echo 1 >"$P/results/dind/exit-code"
    docker logs vitals-dind >"$P/results/dind/dind-engine.log" 2>&1
    continue
  fi
  if [[ "$who" == podman ]] && ! start_podman; then
    mkdir -p "$P/results/podman" && echo 1 >"$P/results/podman/exit-code"
    continue
  fi
  if [[ "$who" == podman-user ]] && ! start_podman_rootless; then
    mkdir -p "$P/results/podman-user" && echo 1 >"$P/results/podman-user/exit-code"
    continue
  fi
  case "$who" in
    root|user) agent_image_for "$who" unix:///var/run/docker.sock ;;
    podman) agent_image_for "$who" "unix://$PODMAN_SOCKET" ;;
    dind) agent_image_for "$who" "$DIND_ENGINE" ;;
  esac
  run_as "$who"
  if [[ "$who" == dind ]]; then
    docker logs vitals-dind >"$P/results/dind/dind-engine.log" 2>&1
    docker rm -f vitals-dind >/dev/null 2>&1
  fi
done
sync
log "done"
