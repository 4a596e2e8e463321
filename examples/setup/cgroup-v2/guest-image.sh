#!/bin/bash
# Builds (or finds in the cache) the disk image of one cgroup v2 guest: Debian + its cloud kernel + Docker + a JRE
# (+ Podman on debian-13) + a non-root user "vitals" in the docker group + a oneshot unit that runs /payload/run.sh from the second disk
# and powers off. Prints the cache directory holding vmlinuz, initrd.img and rootfs.ext4.
#
#   guest-image.sh debian-12|debian-13
#
# The cache key is a hash of everything that goes into the image (this script and the guest's package list), so a
# second run takes no time; the cache lives outside the repository (VITALS_VM_CACHE, default /var/cache/vitals-vm)
# and survives `mvn clean` and fresh clones. Needs root (debootstrap, chroot) and the packages listed in
# host-packages.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
source "$here/../lib.sh"

guest="${1:-}"
case "$guest" in
  # bookworm: kernel 6.1 (memory.peak without per-descriptor reset), docker.io 20.10, JRE 17
  debian-12) suite=bookworm; jre=openjdk-17-jre-headless ;;
  # trixie: kernel 6.12 (memory.peak resets per descriptor), docker.io 26, JRE 21 (the tests are Java 17 bytecode);
  # its docker.io only recommends the CLI, which moved to docker-cli. Also Podman 5 with its Docker-compatible API
  # (the "podman" run of guest-run.sh): crun, and netavark (with nft, its firewall driver on trixie) for its default
  # bridge network. Rootless Podman (the "podman-user" run) also needs newuidmap/newgidmap (uidmap), a user-mode
  # network (slirp4netns: the guest has no network card for pasta to copy) and a systemd user session for cgroup
  # delegation (dbus-user-session)
  debian-13) suite=trixie
    jre="openjdk-21-jre-headless,docker-cli,podman,crun,netavark,aardvark-dns,nftables,uidmap,slirp4netns,dbus-user-session" ;;
  *) vitals_die "usage: $0 debian-12|debian-13" ;;
esac
mirror="${VITALS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
packages="linux-image-cloud-amd64,systemd-sysv,udev,kmod,dbus,e2fsprogs,procps,docker.io,$jre"
cache_root="${VITALS_VM_CACHE:-/var/cache/vitals-vm}"
key="$( (cat "${BASH_SOURCE[0]}"; echo "$suite $packages $mirror") | sha256sum | cut -c1-16)"
dir="$cache_root/$guest-$key"
if [[ -f "$dir/rootfs.ext4" && -f "$dir/vmlinuz" && -f "$dir/initrd.img" ]]; then
  vitals_log "$guest image is cached: $dir"
  echo "$dir"
  exit 0
fi

start="$(vitals_now)"
mkdir -p "$cache_root"
work="$(mktemp -d "$cache_root/.build-$guest.XXXXXX")"
trap 'umount -l "$work/rootfs/proc" 2>/dev/null || true; rm -rf "$work"' EXIT
rootfs="$work/rootfs"
log="$cache_root/$guest-build.log"
vitals_log "building the $guest guest image (debootstrap $suite; log: $log)"
# A minimal base first, then apt in the chroot: debootstrap's own resolver copes badly with docker.io's and the
# JRE's dependency trees.
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" >"$log" 2>&1 \
  || { tail -n 20 "$log" >&2; vitals_die "debootstrap $suite failed; log: $log"; }
# no service may start inside the chroot
printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
chmod +x "$rootfs/usr/sbin/policy-rc.d"
mount -t proc proc "$rootfs/proc"
chroot "$rootfs" /bin/sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends ${packages//,/ } && apt-get clean" >>"$log" 2>&1 \
  || { tail -n 20 "$log" >&2; vitals_die "apt-get install in the $guest chroot failed; log: $log"; }
umount "$rootfs/proc"
rm -f "$rootfs/usr/sbin/policy-rc.d"
rm -rf "$rootfs/var/lib/apt/lists/"*

echo "vitals-$guest" >"$rootfs/etc/hostname"
printf '/dev/vda / ext4 rw,noatime 0 1\n' >"$rootfs/etc/fstab"
chroot "$rootfs" passwd -d root >/dev/null
# the non-root user of the "user" runs: in the docker group, as on a CI runner
chroot "$rootfs" useradd --create-home --shell /bin/bash --groups docker vitals
if [[ "$guest" == debian-13 ]]; then
  # rootless Podman: subordinate IDs for the user namespace, a user manager started at boot (linger) so that systemd
  # delegates cgroup controllers to the user, and slirp4netns as the rootless network
  grep -q '^vitals:' "$rootfs/etc/subuid" || echo 'vitals:100000:65536' >>"$rootfs/etc/subuid"
  grep -q '^vitals:' "$rootfs/etc/subgid" || echo 'vitals:100000:65536' >>"$rootfs/etc/subgid"
  mkdir -p "$rootfs/var/lib/systemd/linger" && touch "$rootfs/var/lib/systemd/linger/vitals"
  # systemd delegates only memory, pids and cpu to a user by default; Podman's rootless guide adds cpuset and io,
  # without which a rootless container has no io.stat (no block I/O figures) and no cpuset
  mkdir -p "$rootfs/etc/systemd/system/user@.service.d"
  printf '[Service]\nDelegate=cpu cpuset io memory pids\n' >"$rootfs/etc/systemd/system/user@.service.d/delegate.conf"
  mkdir -p "$rootfs/etc/containers/containers.conf.d"
  printf '[network]\ndefault_rootless_network_cmd = "slirp4netns"\n' \
    >"$rootfs/etc/containers/containers.conf.d/50-vitals-rootless.conf"
fi
# The guest has no network card; docker needs none for local containers. Nothing but the payload should run.
for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer man-db.timer \
  systemd-timesyncd.service; do
  chroot "$rootfs" systemctl mask "$unit" >/dev/null 2>&1 || true
done
cat >"$rootfs/etc/systemd/system/vitals-payload.service" <<'UNIT'
[Unit]
Description=Vitals cgroup v2 payload (runs /payload/run.sh from the second disk, then powers off)
After=docker.service multi-user.target
Wants=docker.service

[Service]
Type=oneshot
StandardOutput=journal+console
StandardError=journal+console
ExecStartPre=/bin/mkdir -p /payload
ExecStartPre=/bin/mount /dev/vdb /payload
ExecStart=/bin/bash /payload/run.sh
ExecStopPost=/bin/sync
ExecStopPost=/bin/umount /payload
ExecStopPost=/bin/systemctl --no-block poweroff
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
UNIT
chroot "$rootfs" systemctl enable vitals-payload.service >/dev/null 2>&1
ln -sf /dev/null "$rootfs/etc/systemd/system/serial-getty@ttyS0.service"

cp -L "$rootfs/vmlinuz" "$work/vmlinuz"
cp -L "$rootfs/initrd.img" "$work/initrd.img"
# 4 GiB sparse: the rootfs is ~1 GiB; the rest is room for docker's layers and the tests' writes
# mke2fs says "Creating regular file …" on stdout even with -q, and stdout is this script's answer (the directory)
mkfs.ext4 -q -F -L vitals-root -d "$rootfs" "$work/rootfs.ext4" 4G >&2
rm -rf "$rootfs"
mv "$work" "$dir"
trap - EXIT
vitals_took "$guest guest image" "$start"
echo "$dir"
