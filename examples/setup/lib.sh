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

# Prints each failed or errored test in the given JUnit XML reports with the first lines of its message, so that a
# log that only ends in "JUnit exit 1" (CI keeps the log, not the reports) still says what broke and why.
vitals_junit_failures() {
  python3 - "$@" <<'PY' >&2
import sys
import xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    try:
        cases = ET.parse(path).iter("testcase")
    except (OSError, ET.ParseError) as e:
        print(f"[vitals]   {path}: unreadable ({e})")
        continue
    for case in cases:
        for verdict in case:
            if verdict.tag not in ("failure", "error"):
                continue
            text = (verdict.get("message") or verdict.text or "").strip().splitlines()
            name = case.get("classname", "").rsplit(".", 1)[-1] + "." + case.get("name", "")
            print(f"[vitals]   {verdict.tag}: {name}")
            for line in text[:6]:
                print(f"[vitals]     {line[:300]}")
PY
}
