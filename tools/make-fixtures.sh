#!/bin/bash
# Record real console/results logs of broken boots, for the driver's
# host-side tests (matrix/t/fixtures).  Boots a built kernel under TCG with
# initramfs images that fail on purpose:
#   panic     /init missing: "No working init found" panic
#   hang      /init says hello, then sleeps: the driver must time out
#   oom       a process is OOM-killed (the OOM report prints Call Trace:)
#   bootfail  the kernel is told to run a missing init= and stops silently? no:
#             a truncated bzImage, QEMU never gets a kernel running
#   flood     /init writes to the console without end
# Usage: tools/make-fixtures.sh BZIMAGE
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1
fix=$top/matrix/t/fixtures
work=$(mktemp -d /tmp/fixtures.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkimg() {	# mkimg NAME INIT-SCRIPT
	local root=$work/$1
	mkdir -p "$root"/{bin,proc,sys,dev,tmp}
	cp /bin/busybox "$root/bin/"
	if [ -n "$2" ]; then printf '%s\n' "$2" > "$root/init"; chmod 755 "$root/init"; fi
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/$1.gz"
}

boot() {	# boot NAME KERNEL TIMEOUT
	timeout "$3" qemu-system-x86_64 -nodefaults -no-reboot -display none \
		-accel tcg -cpu max -smp 1 -m 256 -kernel "$2" -initrd "$work/$1.gz" \
		-append "console=ttyS0 panic=-1" \
		-serial "file:$work/$1.console" -serial "file:$work/$1.results" || true
	head -c 200000 "$work/$1.console" > "$fix/$1.console"
	tr -d '\r' < "$work/$1.results" > "$fix/$1.results"
}

pre='#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t devtmpfs d /dev; mount -t sysfs s /sys
say() { echo "$*" > /dev/ttyS1; }
say "@@vmab hello variant=fixture kernel=$(uname -r) modes=noswap-classic"'

mkimg panic ''
boot panic "$kernel" 60

mkimg hang "$pre
say '@@vmab begin mode=noswap-classic prog=base_test'
sleep 1000"
boot hang "$kernel" 20

mkimg oom "$pre
say '@@vmab begin mode=noswap-classic prog=hog'
say 'TAP version 13'
say '1..1'
mkdir /tmp/cg; mount -t cgroup2 c /tmp/cg; echo +memory > /tmp/cg/cgroup.subtree_control
mkdir /tmp/cg/hog; echo 16M > /tmp/cg/hog/memory.max
sh -c 'echo \$\$ > /tmp/cg/hog/cgroup.procs; exec dd if=/dev/zero bs=64M count=1 of=/dev/null'
[ \$? -eq 137 ] && say 'ok 1 hog_oom_killed' || say 'not ok 1 hog_oom_killed'
say \"@@vmab end mode=noswap-classic prog=hog rc=0 ms=0\"
say '@@vmab done'
reboot -f"
boot oom "$kernel" 120

head -c 300000 "$kernel" > "$work/truncated.bzImage"
mkimg bootfail ''
boot bootfail "$work/truncated.bzImage" 20

mkimg flood "$pre
while :; do echo 'flood flood flood flood flood flood flood flood' > /dev/console; done"
boot flood "$kernel" 15
ls -la "$fix"
