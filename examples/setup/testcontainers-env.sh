# Testcontainers settings this kind of machine needs. Sourced by run.sh.
#
# Inside a container (/.dockerenv exists) Testcontainers assumes the engine is reached through the container's
# gateway and starts a helper image to find it; with a local engine and no registry that fails. The engine here
# runs on this very machine, so we say so (TESTCONTAINERS_HOST_OVERRIDE=localhost). Ryuk, the reaper that removes
# containers after a crashed JVM, is an image we cannot pull here either, so it is disabled; our own cleanup.sh
# removes leftovers by label instead. On a laptop with Docker Desktop none of this applies and nothing is set.
if [[ -f /.dockerenv && -S /var/run/docker.sock && -z "${DOCKER_HOST:-}" ]]; then
  export TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-localhost}"
fi
if ! docker image inspect testcontainers/ryuk:0.14.0 >/dev/null 2>&1 \
    && ! timeout 20 docker pull -q testcontainers/ryuk:0.14.0 >/dev/null 2>&1; then
  export TESTCONTAINERS_RYUK_DISABLED="${TESTCONTAINERS_RYUK_DISABLED:-true}"
fi
