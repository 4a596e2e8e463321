# Shared helpers for the setup scripts. Sourced, not run.

# Monotonic-enough seconds with fractions, for step timings.
vitals_now() { date +%s.%N; }

# Prints "<what> took N.N s" since the given start time, to stderr.
vitals_took() {
  local what="$1" start="$2"
  awk -v what="$what" -v a="$start" -v b="$(vitals_now)" \
    'BEGIN { printf "[vitals] %-40s %6.1f s\n", what, b - a }' >&2
}

vitals_log() { echo "[vitals] $*" >&2; }

vitals_die() {
  echo "[vitals] ERROR: $*" >&2
  exit 1
}

# The label on every container the project creates; leftovers are removed by it.
VITALS_LABEL="io.vitals.managed=true"
