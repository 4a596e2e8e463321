#!/bin/bash
# Assembles what a JUnit run outside Maven needs into <dir>: the extension's classes and test classes, every test
# dependency and the JUnit console launcher, under <dir>/{classes,test-classes,lib}. Used to run the measurement
# tests where Maven's repository is not at hand: inside the cgroup v2 guests (cgroup-v2.sh) and as a non-root user
# on this host (v1-user.sh). Usage: test-payload.sh <dir> [junit-platform-version]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
payload="$1"
junit_platform="${2:-${VITALS_JUNIT_PLATFORM_VERSION:-1.14.4}}"

mkdir -p "$payload/lib"
cd "$root"
mvn_args=(-B -ntp -q -Dstyle.color=never)
mvn "${mvn_args[@]}" -pl extension -am test-compile
mvn "${mvn_args[@]}" -pl extension dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$payload/classpath.txt" >/dev/null
tr ':' '\n' <"$payload/classpath.txt" | xargs -I{} cp {} "$payload/lib/"
for artifact in junit-platform-console junit-platform-reporting; do
  mvn "${mvn_args[@]}" dependency:copy -Dartifact="org.junit.platform:$artifact:$junit_platform" \
    -DoutputDirectory="$payload/lib" >/dev/null
done
rm -rf "$payload/classes" "$payload/test-classes"
cp -r extension/target/classes "$payload/classes"
cp -r extension/target/test-classes "$payload/test-classes"
