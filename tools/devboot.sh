#!/bin/bash
# Developer helper: boot a kernel under QEMU (TCG) with a throw-away initramfs
# that runs the given programs once per mode, and print what they say.
#   tools/devboot.sh BZIMAGE PROG... [-- MODES]
# A dynamically linked program gets its shared libraries, and the guest the
# host files of suite/host-files.txt (libjemalloc, stress-ng), as in
# VMAB::Guest.  RUNLIST=FILE: run.list from FILE (programs with arguments,
# "once" lines) instead of each PROG once without arguments.
# MODES defaults to swap-classic (comma-separated, see suite/init.sh).
# Not the matrix driver: that is matrix/vmab; this is for quick iterations.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1; shift
progs=(); modes=${MODES:-swap-classic}
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then modes=$2; break; fi
	progs+=("$1"); shift
done
work=$(mktemp -d /tmp/devboot.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/root"/{bin,suite,proc,sys,dev,tmp}
cp /bin/busybox "$work/root/bin/busybox"
install -m 0755 "$top/suite/init.sh" "$work/root/init"
for p in "${progs[@]}"; do
	cp "$p" "$work/root/suite/"
	basename "$p" >> "$work/root/suite/run.list"
done
[ -n "${RUNLIST:-}" ] && cp "$RUNLIST" "$work/root/suite/run.list"
perl -I"$top/matrix/lib" -MVMAB::Guest=ldd_closure,copy_host_files,read_host_files -e '
	my ($root, $list, @progs) = @ARGV;
	copy_host_files($root, ldd_closure(read_host_files($list), @progs));
' "$work/root" "$top/suite/host-files.txt" "${progs[@]}"
(cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"
truncate -s 512M "$work/swap.img"
# The kernel command line the driver gives its guests, clock arguments and
# all (VMAB::Qemu::kernel_cmdline: the host's TSC rate, tsc=reliable).
cmdline=$(perl -I"$top/matrix/lib" -MVMAB::Qemu=kernel_cmdline -e 'print kernel_cmdline($ARGV[0])' \
	"vmab_variant=dev vmab_modes=$modes")
echo "devboot: kernel command line: $cmdline"
timeout "${TIMEOUT:-900}" qemu-system-x86_64 -nodefaults -no-reboot -display none \
	-accel tcg -cpu max -smp 2 -m 2048 \
	-kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "$cmdline" \
	-serial "file:$work/console.log" -serial "file:$work/results.log" \
	-drive "file=$work/swap.img,if=virtio,format=raw" || echo "devboot: qemu exited $?"
echo "===== console (ttyS0) ====="
cat "$work/console.log"; cp "$work/console.log" /tmp/devboot-last-console.log; cp "$work/results.log" /tmp/devboot-last-results.log
echo "===== results (ttyS1) ====="
tr -d '\r' < "$work/results.log"
