#!/bin/busybox sh
# shellcheck shell=dash
# stressng: Debian's stress-ng (0.15) as a second opinion, from stressors
# written for other kernels.
# One TAP result a stressor, named stressng/<stressor> by the host:
#   ok      stress-ng exited 0 and said no "fail:" line (--verify checks
#           what the stressors read back)
#   not ok  any other exit status, or a failure line; its output follows
#   SKIP    the kernel lacks what the stressor needs, naming the option
#           (ksm without CONFIG_KSM: the lean variant)
# and one "# @data" line each: exit status and bogo operations per second.
#   stressng [-t SECONDS] [STRESSOR...]
# STRESSOR is one of madvise vm mmap mremap fork userfaultfd ksm (default
# all, in that order); ksm is stress-ng's vm stressor with
# --vm-madvise mergeable while ksmd runs.  The binary and its shared
# libraries come from the host (suite/host-files.list, VMAB::Guest).
# What each stressor needs, for the host's judge (matrix/lib/VMAB/Needs.pm
# reads these comments as it reads the C programs' VMAB_NEEDS lines):
# VMAB_NEEDS("*", "");
# VMAB_NEEDS("ksm", "ksm");
t=3
while getopts t: o; do
	case $o in
	t) t=$OPTARG ;;
	*) echo "usage: stressng [-t SECONDS] [STRESSOR...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- madvise vm mmap mremap fork userfaultfd ksm
SNG=${STRESSNG:-/usr/bin/stress-ng}
log=/tmp/stressng.$$

echo "TAP version 13"
echo "1..$#"
n=0
for s in "$@"; do
	n=$((n + 1))
	why=
	case $s in
	madvise) args="--madvise 1" ;;
	vm) args="--vm 1 --vm-bytes 32M" ;;
	mmap) args="--mmap 1 --mmap-bytes 16M" ;;
	mremap) args="--mremap 1 --mremap-bytes 16M" ;;
	fork) args="--fork 2" ;;
	userfaultfd) args="--userfaultfd 1 --userfaultfd-bytes 8M" ;;
	ksm)
		if [ -w /sys/kernel/mm/ksm/run ]; then
			echo 1 > /sys/kernel/mm/ksm/run
			echo 10 > /sys/kernel/mm/ksm/sleep_millisecs 2> /dev/null
		else
			why="needs CONFIG_KSM (no /sys/kernel/mm/ksm)"
		fi
		args="--vm 1 --vm-bytes 16M --vm-madvise mergeable" ;;
	*) echo "not ok $n $s # unknown stressor"; continue ;;
	esac
	if [ -n "$why" ]; then
		echo "ok $n $s # SKIP $why"
		continue
	fi
	if [ ! -x "$SNG" ]; then
		echo "# no $SNG in the guest: install stress-ng on the host"
		echo "not ok $n $s"
		continue
	fi
	# shellcheck disable=SC2086
	$SNG $args --timeout "${t}s" --verify --metrics-brief --temp-path /tmp \
		> $log 2>&1
	rc=$?
	[ "$s" = ksm ] && echo 0 > /sys/kernel/mm/ksm/run
	# "metrc: [pid] NAME bogo-ops real usr sys ops/s ops/s(cpu)"
	ops=$(awk '$2 == "metrc:" && $5 ~ /^[0-9]+$/ { print $5, $9; exit }' $log)
	set -f
	# shellcheck disable=SC2086
	set -- $ops
	set +f
	echo "# @data {\"kind\":\"stressng\",\"stressor\":\"$s\",\"seconds\":$t,\"rc\":$rc,\"bogo_ops\":${1:-null},\"bogo_ops_per_s\":${2:-null}}"
	if [ $rc -eq 0 ] && ! grep -q ' fail: ' $log; then
		echo "ok $n $s"
	else
		sed 's/^/# /' $log
		echo "not ok $n $s # stress-ng exit status $rc"
	fi
	rm -f $log
done
