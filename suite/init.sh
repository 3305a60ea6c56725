#!/bin/busybox sh
# The guest's /init.  Mounts what the suite needs, then runs every program in
# /suite/run.list once per run-time mode and sends the results to the host on
# the second serial port (ttyS1), separate from the kernel console (ttyS0).
#
# Kernel command line (unknown parameters reach us as environment):
#   vmab_variant=NAME  vmab_modes=MODE[,MODE...]  vmab_list=FILE[,FILE...]
#   vmab_cpus=N (the CPUs QEMU gave: fewer online fails the boot)
# A mode is swap-classic, swap-mglru, noswap-classic or noswap-mglru.  This
# is the one place in the guest that reads a mode's name: each program gets
# what the mode set up as environment variables,
#   VMAB_SWAP=on|off  VMAB_LRU=classic|mglru  (VMAB_MODE: the name, for messages)
# (suite/lib/mode.c reads them; on the host, VMAB::Variants::mode_traits).
# Each program's output is framed by lines the host parses (matrix/lib/VMAB/Protocol.pm):
#   @@vmab begin mode=M prog=P
#   @@vmab end mode=M prog=P rc=N ms=N clocksource=C
# and the run ends with "@@vmab done".  The hello line and each end line
# name the kernel's clocksource at that moment: a benchmark that ended on
# a jiffies clock timed itself in 4 ms steps, and the judge says so
# (VMAB::Expectations; the clock arguments are VMAB::Qemu's).
# A list line "once PROG ARGS" runs PROG in the first mode only, so once per
# variant (vmab_once=0 on the command line: in none of the modes).
/bin/busybox --install -s /bin
export PATH=/bin:/suite

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev	# DEVTMPFS_MOUNT does nothing under an initramfs
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
# The memory controller for the tests' cgroups, where the kernel has one:
# without CONFIG_MEMCG (the lean variant) the tests that need it skip,
# saying so (need_memcg() in suite/lib/need.c).
grep -qw memory /sys/fs/cgroup/cgroup.controllers &&
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control

OUT=/dev/ttyS1
stty -F $OUT raw -echo 2>/dev/null
say() { echo "$*" > $OUT; }

die() {
	say "@@vmab error $*"
	echo "vmab: $*" > /dev/console
	sync
	reboot -f
}

set_swap() {
	if [ "$1" = on ]; then
		[ -b /dev/vda ] || return 1
		grep -q '^/dev/vda ' /proc/swaps && return 0
		if [ ! -e /tmp/.mkswap ]; then
			mkswap /dev/vda > /dev/null || return 1
			: > /tmp/.mkswap
		fi
		swapon /dev/vda || return 1
	else
		swapoff -a 2> /dev/null
	fi
	return 0
}

set_lru() {
	f=/sys/kernel/mm/lru_gen/enabled
	if [ "$1" = mglru ]; then
		[ -w $f ] || return 1
		echo y > $f
	else
		[ -w $f ] && echo n > $f
	fi
	return 0
}

ms() { cut -d' ' -f1 /proc/uptime | tr -d .; }
clocksource() {
	cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null ||
		echo unknown
}

# The lines of the lists in order, except that a program a later list names
# again runs only from that later list: `make matrix` runs bench_jemalloc
# from bench.list (3 rounds of 1.5 s), not twice under one name.
merged_lists() {
	awk '
	FNR == 1 { f++ }
	{
		line[f, FNR] = $0; n[f] = FNR
		split($0, w); p = (w[1] == "once") ? w[2] : w[1]
		if (p != "" && p !~ /^#/) last[p] = f
	}
	END {
		for (i = 1; i <= f; i++)
			for (j = 1; j <= n[i]; j++) {
				split(line[i, j], w)
				p = (w[1] == "once") ? w[2] : w[1]
				if (p == "" || p ~ /^#/ || last[p] == i)
					print line[i, j]
			}
	}' "$@"
}

export VMAB_VARIANT=${vmab_variant:-unknown}
lists=$(echo "${vmab_list:-/suite/run.list}" | tr , ' ')
cpus=$(grep -c ^processor /proc/cpuinfo)
say "@@vmab hello variant=$VMAB_VARIANT kernel=$(uname -r) modes=${vmab_modes:-noswap-classic} clocksource=$(clocksource) cpus=$cpus"
# Fewer CPUs than QEMU was given means no test ran across CPUs: fail.
[ "$cpus" -ge "${vmab_cpus:-1}" ] ||
	die "the guest sees $cpus CPUs, QEMU gave it ${vmab_cpus}"

once=${vmab_once:-1}
for mode in $(echo "${vmab_modes:-noswap-classic}" | tr , ' '); do
	case $mode in
	swap-*) VMAB_SWAP=on ;;
	noswap-*) VMAB_SWAP=off ;;
	*) die "unknown mode $mode" ;;
	esac
	case $mode in
	*-mglru) VMAB_LRU=mglru ;;
	*-classic) VMAB_LRU=classic ;;
	*) die "unknown mode $mode" ;;
	esac
	set_swap $VMAB_SWAP || die "mode $mode: swapon /dev/vda failed"
	set_lru $VMAB_LRU || die "mode $mode: no /sys/kernel/mm/lru_gen (CONFIG_LRU_GEN=n)"
	export VMAB_MODE=$mode VMAB_SWAP VMAB_LRU
	# shellcheck disable=SC2086
	merged_lists $lists | while read -r prog args; do
		case $prog in ''|'#'*) continue ;; esac
		if [ "$prog" = once ]; then
			[ "$once" = 1 ] || continue
			# shellcheck disable=SC2086
			set -- $args
			prog=$1
			shift
			args="$*"
		fi
		say "@@vmab begin mode=$mode prog=$prog"
		t0=$(ms)
		# shellcheck disable=SC2086
		/suite/$prog $args > $OUT 2> /dev/console < /dev/null
		rc=$?
		t1=$(ms)
		say "@@vmab end mode=$mode prog=$prog rc=$rc ms=$(( (t1 - t0) * 10 )) clocksource=$(clocksource)"
	done
	once=0
done
say "@@vmab done"
sync
reboot -f
