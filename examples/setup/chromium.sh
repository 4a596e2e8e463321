#!/bin/bash
# Makes sure a headless Chromium is there for the HTML report test (HtmlReportChromiumIT): Debian's chromium
# package, installed with apt when missing and this runs as root; anywhere else it says what to install.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
if [[ "$(id -u)" -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  vitals_die "Chromium is missing: install it (Debian/Ubuntu: apt-get install chromium) for the HTML report test"
fi
start="$(vitals_now)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends chromium >/dev/null
vitals_took "install chromium" "$start"
