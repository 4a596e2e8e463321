#!/bin/bash
# Installs what the cgroup v2 harness needs on the host, when missing (Debian/Ubuntu, as root):
#   qemu-system-x86   the guests run under qemu (software emulation when KVM does not boot them)
#   debootstrap       builds the guests' root filesystems
#   e2fsprogs         mkfs.ext4 -d (disk images from directories) and debugfs (results out of the payload disk)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$here/../lib.sh"

missing=()
command -v qemu-system-x86_64 >/dev/null 2>&1 || missing+=(qemu-system-x86)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
{ command -v mkfs.ext4 && command -v debugfs; } >/dev/null 2>&1 || missing+=(e2fsprogs)
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
[[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1 \
  || vitals_die "the cgroup v2 harness needs ${missing[*]}; install them (apt-get install ${missing[*]}) and run as root"
start="$(vitals_now)"
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
vitals_took "host packages (${missing[*]})" "$start"
