#!/bin/bash
# Boots one cgroup v2 guest with the test payload and brings its results back:
#
#   run-guest.sh <debian-12|debian-13> <payload dir> <results dir>
#
# The payload dir (made by cgroup-v2.sh) holds the test classes, the jars, the slim stress image and the list of
# test classes; it becomes the guest's second disk, where the guest also writes its results. The guest's root
# disk is the cached image, opened with snapshot=on so a run never changes it. qemu runs with at most 2 vCPUs and
# 4 GiB, at the niceness VITALS_VM_NICE: 0 by default, as every other test of the run. They ran at 19 until
# 2026-12-03, which left them little more than the idle core next to a busy one (25 minutes instead of 11 on
# 2026-12-02); 19 still suits a workstation whose owner wants the CPU first.
# KVM only when VITALS_VM_ACCEL=kvm, because on the machines measured so far a KVM guest hangs at kernel entry while
# software emulation (TCG) boots.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$here/../lib.sh"

guest="$1" payload="$2" results="$3"
accel="${VITALS_VM_ACCEL:-tcg}"
niceness="${VITALS_VM_NICE:-0}"
[[ "$niceness" =~ ^-?[0-9]+$ ]] || vitals_die "VITALS_VM_NICE='$niceness': expected a niceness, -20 to 19"
# a guest of four cells takes ~22 min on a quiet 2-core machine, and took 56 min next to a busy core on a slow
# day (2026-12-04, both guests side by side): the limit is there to end a hung guest, with room above the slowest run
timeout_s="${VITALS_VM_TIMEOUT:-5400}"
image="$(bash "$here/guest-image.sh" "$guest")"
[[ -d "$image" ]] || vitals_die "guest-image.sh $guest answered '$image', which is not a directory"

work="$(mktemp -d /var/tmp/vitals-vm-run.XXXXXX)"
trap 'rm -rf "$work"' EXIT
echo "$guest" >"$payload/guest-name"
rm -rf "$payload/results" && mkdir -m 0777 "$payload/results"
# room for the payload plus the reports and the tests' own writes
size_mb=$(( $(du -sm "$payload" | cut -f1) + 768 ))
mkfs.ext4 -q -F -L vitals-payload -d "$payload" "$work/payload.ext4" "${size_mb}M" >&2

mkdir -p "$results"
console="$results/console.log"
# The cloud kernel enables AppArmor, and Debian's docker.io then wants apparmor_parser for its default profile;
# the guests run nothing but the tests, so AppArmor is switched off instead of installed.
# no_timer_check: under software emulation on a busy host the kernel's IO-APIC timer check can time out and panic
# ("IO-APIC + timer doesn't work!", seen with Debian 13's 6.12 cloud kernel); the standard setting for VMs
append="apparmor=0 no_timer_check"
cpu=(-accel tcg -cpu max)
[[ "$accel" == kvm ]] && cpu=(-accel kvm -cpu host)
vitals_log "$guest: booting (${cpu[*]}; serial console: $console)"
start="$(vitals_now)"
status=0
timeout "$timeout_s" nice -n "$niceness" qemu-system-x86_64 "${cpu[@]}" -smp 2 -m 4096 -nodefaults -no-reboot \
  -display none -serial "file:$console" -nic none \
  -kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
  -append "console=ttyS0 root=/dev/vda rw panic=-1 systemd.unified_cgroup_hierarchy=1 $append" \
  -drive "file=$image/rootfs.ext4,if=virtio,format=raw,snapshot=on" \
  -drive "file=$work/payload.ext4,if=virtio,format=raw" || status=$?
vitals_took "$guest: guest run" "$start"
# whatever the guest wrote comes back, also after a timeout: partial results say how far it got
debugfs -R "rdump /results $work" "$work/payload.ext4" >/dev/null 2>&1 \
  || vitals_log "$guest: cannot read the results back from the payload disk"
[[ -d "$work/results" ]] && cp -r "$work/results/." "$results/"
if [[ $status -ne 0 ]]; then
  tail -n 30 "$console" >&2
  vitals_die "$guest: qemu ended with $status (124: it ran past ${timeout_s} s; raise VITALS_VM_TIMEOUT)"
fi
