#!/bin/bash
# Checks that the library can be published to Maven Central (issue 22): builds the extension module with the release
# profile (no tests, no install; javadoc fails on any warning, japicmp on a binary-incompatible API change), then
# checks, with no network and no further Maven run:
#   - the main jar (with Automatic-Module-Name), the -sources.jar and the -javadoc.jar exist, and the javadoc jar
#     leaves io.vitals.internal out;
#   - the library's effective POM (what its published POM and its parent give a consumer) and the parent POM itself
#     (published with it, as the library's parent) carry every element Central requires: groupId, artifactId,
#     version, name, description, url, a licence (name and url), a developer, and scm connection,
#     developerConnection and url.
# Exits non-zero naming each thing missing. About a minute with a warm Maven cache.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

cd "$root"
target="$root/extension/target"
effective="$target/release-check/effective-pom.xml"
mkdir -p "$(dirname "$effective")"
rm -f "$effective" "$target"/*.jar # no jar of an earlier build may pass for this one's
mvn -B -ntp -Dstyle.color=never -q -P release -DskipTests verify \
  org.apache.maven.plugins:maven-help-plugin:3.5.2:effective-pom -Doutput="$effective" -pl extension \
  || vitals_die "release build failed (mvn -P release -DskipTests verify -pl extension)"

python3 - "$effective" "$root/pom.xml" "$target" <<'PY'
import sys
import zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

effective, parent, target = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
REQUIRED = [
    "groupId", "artifactId", "version", "name", "description", "url",
    "licenses/license/name", "licenses/license/url",
    "developers/developer",
    "scm/connection", "scm/developerConnection", "scm/url",
]
missing = []


def text(project, path):
    node = project.find("/".join("m:" + part for part in path.split("/")), NS)
    if node is None:
        return ""
    if len(node):  # an element with children (developer): present if any child has text
        return " ".join((child.text or "").strip() for child in node).strip()
    return (node.text or "").strip()


def check_pom(label, project):
    for path in REQUIRED:
        if not text(project, path):
            missing.append(f"{label}: <{path}>")


if not effective.is_file():
    sys.exit(f"[vitals] ERROR: no effective POM at {effective}")
library = ET.parse(effective).getroot()
if library.tag != "{%s}project" % NS["m"]:  # help:effective-pom of one module writes the project itself
    library = library.find("m:project", NS)
check_pom("library effective POM", library)
check_pom("parent POM (pom.xml)", ET.parse(parent).getroot())

artifact, version = text(library, "artifactId"), text(library, "version")
jars = {kind: target / f"{artifact}-{version}{suffix}.jar"
        for kind, suffix in (("main jar", ""), ("sources jar", "-sources"), ("javadoc jar", "-javadoc"))}
for kind, jar in jars.items():
    if not jar.is_file():
        missing.append(f"{kind}: {jar.name}")
if jars["main jar"].is_file():
    with zipfile.ZipFile(jars["main jar"]) as z:
        manifest = z.read("META-INF/MANIFEST.MF").decode()
    if "Automatic-Module-Name: io.vitals.junit" not in manifest:
        missing.append("main jar: Automatic-Module-Name: io.vitals.junit in its manifest")
if jars["javadoc jar"].is_file():
    with zipfile.ZipFile(jars["javadoc jar"]) as z:
        names = z.namelist()
    # javadoc lays the pages out under the jar's module name (io.vitals.junit/io/vitals/...)
    if any("io/vitals/internal/" in name for name in names):
        missing.append("javadoc jar: io.vitals.internal must be left out")
    if not any(name.endswith("io/vitals/package-summary.html") for name in names):
        missing.append("javadoc jar: io/vitals/package-summary.html")

if missing:
    for item in missing:
        print(f"[vitals] ERROR: release check: missing {item}", file=sys.stderr)
    sys.exit(1)
sizes = ", ".join(f"{jar.name} ({jar.stat().st_size // 1024} KiB)" for jar in jars.values())
print(f"[vitals] release check passed: {sizes}; the POM carries every element Central requires", file=sys.stderr)
PY
