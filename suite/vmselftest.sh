#!/bin/sh
# Runs one of 6.1's mm selftests (built by suite/selftests-vm.mk into
# /suite/vm/) and reports it as one TAP 13 result named NAME, its own output
# indented as "# " lines, as the kselftest runner does (so that a nested
# "ok" line is never taken for ours).  Lines of suite/selftests.list:
#   vmselftest NAME [OPTION...] PROG [ARG...]
# Options:
#   timeout=S     the program fails if it has not ended after S seconds
#                 (default 300)
#   stress=S      the program runs until it is stopped: stop it after S
#                 seconds, and that is a pass (transhuge-stress)
#   hugepages=N   reserve N huge pages and mount hugetlbfs on ./huge, the
#                 working folder's, for the run; undo both afterwards
#   needs=WHAT[,WHAT...]  skip, saying why, unless the guest has each:
#                 swap  an active swap device
#                 thp   CONFIG_TRANSPARENT_HUGEPAGE (khugepaged,
#                       transhuge-stress: without it they fail, not skip)
#                 ksm   CONFIG_KSM (ksm_tests fails without /sys/kernel/mm/ksm)
#                 vrange     CONFIG_VRANGE (pgvrange_purged in /proc/vmstat)
#                 madv_free  CONFIG_MADV_FREE (nr_lazyfree in /proc/vmstat)
#                 the `lean` variant has neither THP nor KSM (docs/contract.md 6)
#   overcommit=M  run with /proc/sys/vm/overcommit_memory at M, then restore
#   failcount     the exit status counts failures (khugepaged): 4 is a
#                 failure, not kselftest's "skip"
#   cpu0          run pinned to CPU 0 (taskset): khugepaged checks that
#                 MADV_PAGEOUT swapped out every page it asked for, and a
#                 page still in another CPU's LRU batch (the process moved
#                 after faulting it) is not paged out.  The suite's own
#                 tests pin themselves for the same reason.
# Exit status as kselftest: 0 pass, 4 skip, 1 fail.  The program runs in
# a fresh folder under /tmp, where some write their files.
# The THP and khugepaged settings are put back as they were afterwards: a
# program that exits early on a failure (khugepaged does, in many places)
# leaves its own (khugepaged scanning every 10 ms), and the tests after it
# would run against those.  What had to be put back is printed.
# (VMSELFTEST_THP_DIR, VMSELFTEST_KSM_DIR, VMSELFTEST_SWAPS and
# VMSELFTEST_VMSTAT stand in for the sysfs folders, /proc/swaps and
# /proc/vmstat in matrix/t/vmselftest.t.)
thp=${VMSELFTEST_THP_DIR:-/sys/kernel/mm/transparent_hugepage}
ksm=${VMSELFTEST_KSM_DIR:-/sys/kernel/mm/ksm}
swaps=${VMSELFTEST_SWAPS:-/proc/swaps}
vmstat=${VMSELFTEST_VMSTAT:-/proc/vmstat}
# need_why WHAT: prints why the guest lacks WHAT, nothing if it has it.
need_why() {
	case $1 in
	swap) grep -qs '^/' "$swaps" || echo "needs an active swap device" ;;
	thp) [ -e "$thp/enabled" ] ||
		echo "needs CONFIG_TRANSPARENT_HUGEPAGE (no $thp)" ;;
	ksm) [ -e "$ksm/run" ] || echo "needs CONFIG_KSM (no $ksm)" ;;
	vrange) grep -qs '^pgvrange_purged ' "$vmstat" ||
		echo "needs CONFIG_VRANGE (no pgvrange_purged in $vmstat)" ;;
	madv_free) grep -qs '^nr_lazyfree ' "$vmstat" ||
		echo "needs CONFIG_MADV_FREE (no nr_lazyfree in $vmstat)" ;;
	*) echo "unknown needs=$1 (vmselftest.sh knows swap, thp, ksm, vrange, madv_free)" ;;
	esac
}
# thp_settings: "FILE VALUE" for each setting; for a choice ("always
# [madvise] never") the chosen one.
thp_settings() {
	for f in enabled defrag use_zero_page shmem_enabled khugepaged/defrag \
		 khugepaged/max_ptes_none khugepaged/max_ptes_swap \
		 khugepaged/max_ptes_shared khugepaged/pages_to_scan \
		 khugepaged/scan_sleep_millisecs \
		 khugepaged/alloc_sleep_millisecs; do
		[ -f "$thp/$f" ] || continue
		v=$(cat "$thp/$f")
		case $v in *\[*) v=${v#*[}; v=${v%%]*} ;; esac
		echo "$f $v"
	done
}
thp_restore() {
	thp_settings | while read -r f now; do
		was=$(grep "^$f " "$1" | cut -d' ' -f2)
		[ "$now" = "$was" ] && continue
		echo "$was" > "$thp/$f"
		echo "# vmselftest: $prog left $f at $now, put back to $was"
	done
}
name=$1
shift
limit=300 stress= huge= needs= overcommit= failcount= pin=
while :; do
	case $1 in
	timeout=*) limit=${1#timeout=} ;;
	stress=*) stress=${1#stress=} ;;
	hugepages=*) huge=${1#hugepages=} ;;
	needs=*) needs=${1#needs=} ;;
	overcommit=*) overcommit=${1#overcommit=} ;;
	failcount) failcount=y ;;
	cpu0) pin="taskset 1" ;;
	*) break ;;
	esac
	shift
done
prog=$1
shift
echo "TAP version 13"
echo "1..1"
bin=/suite/vm/$prog
[ -x "$bin" ] || bin=$(dirname "$0")/vm/$prog
if [ ! -x "$bin" ]; then
	echo "ok 1 $name # SKIP $prog was not built (see selftests-vm.mk)"
	exit 4
fi
for what in $(echo "$needs" | tr , ' '); do
	why=$(need_why "$what")
	[ -n "$why" ] || continue
	case $why in
	unknown*) echo "not ok 1 $name # $why"; exit 1 ;;
	esac
	echo "ok 1 $name # SKIP $why"
	exit 4
done
dir=/tmp/vmselftest.$$
mkdir -p "$dir/huge" && cd "$dir" || exit 1
log=$dir.log
old_huge=
if [ -n "$huge" ]; then
	old_huge=$(cat /proc/sys/vm/nr_hugepages)
	echo 3 > /proc/sys/vm/drop_caches
	echo "$huge" > /proc/sys/vm/nr_hugepages
	got=$(cat /proc/sys/vm/nr_hugepages)
	if [ "$got" -lt "$huge" ]; then
		echo "$old_huge" > /proc/sys/vm/nr_hugepages
		echo "ok 1 $name # SKIP only $got of $huge huge pages could be reserved"
		exit 4
	fi
	mount -t hugetlbfs none "$dir/huge" || exit 1
fi
old_oc=
if [ -n "$overcommit" ]; then
	old_oc=$(cat /proc/sys/vm/overcommit_memory)
	echo "$overcommit" > /proc/sys/vm/overcommit_memory
fi
thp_saved=$dir.thp
thp_settings > "$thp_saved"
echo "# $prog $*"
t=$limit
[ -n "$stress" ] && t=$stress
# shellcheck disable=SC2086
timeout "$t" $pin "$bin" "$@" > "$log" 2>&1 < /dev/null
rc=$?
sed 's/^/# /' "$log"
last=$(grep -i 'skip' "$log" | head -n 1 | tr -d '#')
[ -n "$last" ] || last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | tr -d '#')
[ -n "$old_oc" ] && echo "$old_oc" > /proc/sys/vm/overcommit_memory
if [ -n "$huge" ]; then
	umount "$dir/huge"
	echo "$old_huge" > /proc/sys/vm/nr_hugepages
fi
thp_restore "$thp_saved"
cd / && rm -rf "$dir" "$log" "$thp_saved"
# busybox timeout: the program was killed by SIGTERM (143; 124 elsewhere)
timed_out=
[ $rc -eq 143 ] || [ $rc -eq 124 ] && timed_out=y
if [ -n "$stress" ] && [ -n "$timed_out" ]; then
	echo "ok 1 $name # ran ${stress}s and was stopped"
	exit 0
fi
case $rc${failcount:+-counted} in
0*) echo "ok 1 $name"; exit 0 ;;
4) echo "ok 1 $name # SKIP ${last:-$prog exited 4 (skip)}"; exit 4 ;;
esac
if [ -n "$timed_out" ]; then
	echo "not ok 1 $name # did not end within ${limit}s"
else
	echo "not ok 1 $name # exit status $rc"
fi
exit 1
