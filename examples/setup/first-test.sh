#!/bin/bash
# Follows docs/first-test.md as a new user would, in a new project outside the repository: the page's pom.xml and
# its test class (the snippet regions of examples/src/test/java/io/vitals/docs/firsttest/StressServiceIT.java),
# then every way the page says to run it:
#   mvn verify                                        Failsafe runs StressServiceIT
#   mvn test -Dtest='StressServiceIT#holds...'        Surefire runs the one test (as an IDE does)
#   mvn verify -Dtest='StressServiceIT#holds...'      Surefire runs it, then Failsafe (the issue's way)
#   mvn verify -Dit.test='StressServiceIT#holds...'   Failsafe runs the one test
# each green, with the console table and the reports, and without Testcontainers' settings from this shell: the
# pom's own <environmentVariables> must carry them, under Surefire as well as Failsafe. It also checks every path
# docs/ci.md's workflows read against what the run wrote. Needs Vitals in the local Maven repository (mvn install
# -pl extension -am) and the image vitals/stress:latest. About 1-2 minutes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

project="$(mktemp -d /tmp/first-vitals.XXXXXX)"
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/src/test/java/com/example"

python3 - "$root" "$project" <<'PY'
import pathlib, re, sys
root, project = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
page = (root / "docs/first-test.md").read_text()
# the pom: the first xml block after the line "`pom.xml`:"
pom = re.search(r"^`pom\.xml`:\n\n```xml\n(.*?)^```", page, re.S | re.M)
if not pom:
    sys.exit("docs/first-test.md: no ```xml block after `pom.xml`:")
(project / "pom.xml").write_text(pom.group(1))
source = (root / "examples/src/test/java/io/vitals/docs/firsttest/StressServiceIT.java").read_text()
def region(tag):
    m = re.search(r"// tag::%s\[\]\n(.*?)// end::%s\[\]" % (tag, tag), source, re.S)
    if not m:
        sys.exit("StressServiceIT.java: no region " + tag)
    return m.group(1)
(project / "src/test/java/com/example/StressServiceIT.java").write_text(
    "package com.example;\n\n" + region("imports") + "\n" + region("class"))
PY

one='StressServiceIT#holdsAHundredMebibytes'
# what the page's pom must provide itself
clean_env=(env -u TESTCONTAINERS_RYUK_DISABLED -u TESTCONTAINERS_HOST_OVERRIDE)
status=0
run() {
  local name="$1"; shift
  local log="$project/$name.log" start
  start="$(vitals_now)"
  if ! (cd "$project" && "${clean_env[@]}" mvn -B -ntp -Dstyle.color=never "$@" >"$log" 2>&1); then
    vitals_log "ERROR: first-test.md, mvn $*: failed; the last lines:"
    tail -n 40 "$log" >&2
    status=1
    return 1
  fi
  vitals_took "first-test.md: mvn $*" "$start"
  if ! grep -q '^Vitals: com.example.StressServiceIT$' "$log"; then
    vitals_log "ERROR: first-test.md, mvn $*: no console table for com.example.StressServiceIT"
    status=1
    return 1
  fi
  if grep -q 'Retrying pull for image' "$log"; then
    vitals_log "ERROR: first-test.md, mvn $*: Testcontainers tried to pull an image (the pom's settings missing?)"
    status=1
  fi
}

if run verify clean verify; then
  sed -n '/^Vitals: com.example.StressServiceIT$/,/^\[/p' "$project/verify.log" | sed '$d' >&2
  # every path docs/ci.md's workflows read, against what this run wrote (globs as the CI runners expand them)
  python3 - "$root/docs/ci.md" "$project" <<'PY' || status=1
import glob, pathlib, re, sys
page, project = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
blocks = re.findall(r"^```yaml\n(.*?)^```", page, re.S | re.M)
# the whole path, so that this repository's extension/target/... is not read as target/...; find's -path '*/x'
# matches at any depth, as the glob **/x does
found = {m.rstrip("/'\"") for b in blocks for m in re.findall(r"[A-Za-z0-9_.*/-]*target/[A-Za-z0-9_.*/-]+", b)}
paths = sorted({"**/" + p[2:] if p.startswith("*/") else p for p in found})
missing = [p for p in paths if not glob.glob(str(project / p), recursive=True)]
for p in paths:
    print(f"[vitals] docs/ci.md reads {p}: {'MISSING' if p in missing else 'found'} in a new project", file=sys.stderr)
if not paths or missing:
    sys.exit(1)
PY
fi
run test-one test -Dtest="$one" || true
if [[ -f "$project/test-one.log" ]] && ! grep -q 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0' "$project/test-one.log"; then
  vitals_log "ERROR: first-test.md, mvn test -Dtest=$one: not exactly one test run"
  status=1
fi
# the way the page's first reader ran one test: Surefire runs it, then Failsafe every *IT (here the same class)
run verify-dtest verify -Dtest="$one" || true
if [[ -f "$project/verify-dtest.log" ]] \
    && [[ "$(grep -c -- '-- in com.example.StressServiceIT$' "$project/verify-dtest.log")" -lt 2 ]]; then
  vitals_log "ERROR: first-test.md, mvn verify -Dtest=$one: the class did not run in both Surefire and Failsafe"
  status=1
fi
run verify-one verify -Dit.test="$one" || true
if [[ -f "$project/verify-one.log" ]] && ! grep -q 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0' "$project/verify-one.log"; then
  vitals_log "ERROR: first-test.md, mvn verify -Dit.test=$one: not exactly one test run"
  status=1
fi
exit $status
