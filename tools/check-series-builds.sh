#!/bin/bash
# Every prefix of every posted series, on its own: does it apply, is it
# checkpatch-clean, does it build?
#
#   tools/check-series-builds.sh [--no-build] [--stack] [WORKDIR]
#                                        (WORKDIR: ${TMPDIR:-/tmp}/vmab-bisect)
#
# For each series of SERIES (default "vrange madv-free droppable": the
# designs' series, each of which must apply to pristine 6.1 by itself; the
# matrix's glue in patches/common and patches/glue is not a posted series)
# it clones $LINUX (default out/src/linux; any repository with the tag
# `pristine` will do) with git clone --shared into WORKDIR/src-SERIES,
# checks out `pristine` and applies the series one patch at a time (git am,
# in `series` order).  After each patch it runs the tree's
# scripts/checkpatch.pl --strict on the patch (as matrix/xt/checkpatch.t
# does: no error, no warning but Originally-by:) and, unless --no-build is
# given,
#   make O=WORKDIR/build-SERIES ARCH=x86_64 'CC=ccache gcc' olddefconfig bzImage
# with the .config seeded from $SEEDCFG (default out/build/both/.config) and
# CONFIG_VRANGE / CONFIG_MAP_DROPPABLE set to y once Kconfig declares them.
# --stack then applies the whole stack in matrix/lib/VMAB/Tree.pm's order
# to one more clone and builds it once (the both configuration).
# Prints one table row per patch: series, n/N, am, checkpatch, build
# (seconds; "same" for a patch that touches only tools/, Documentation/
# or MAINTAINERS, which the kernel build does not read), subject.  Logs: WORKDIR/logs/.  Exits non-zero on any failure.
# Builds are slow (a cold one takes 7-10 min on 2 free cores): run it under
# `nice -n 19` on a shared machine.  JOBS (default 2) sets make -j.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
do_build=1 do_stack=0
while [ $# -gt 0 ]; do
	case $1 in
	--no-build) do_build=0; shift;;
	--stack) do_stack=1; shift;;
	*) break;;
	esac
done
work=${1:-${TMPDIR:-/tmp}/vmab-bisect}
jobs=${JOBS:-2}
linux=${LINUX:-$top/out/src/linux}
seedcfg=${SEEDCFG:-$top/out/build/both/.config}
series=${SERIES:-vrange madv-free droppable}

git -C "$linux" rev-parse -q --verify pristine >/dev/null ||
	{ echo "no tag pristine in $linux (make tree)" >&2; exit 2; }
if [ $do_build = 1 ] && [ ! -s "$seedcfg" ]; then
	echo "no $seedcfg: build the both variant first, or use --no-build" >&2; exit 2
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
case $work in /|"$top"|"$top"/*) echo "refusing WORKDIR $work" >&2; exit 2;; esac
logs=$work/logs
rm -rf "$logs"; mkdir -p "$logs"
export KBUILD_BUILD_TIMESTAMP=vmab KBUILD_BUILD_USER=vmab KBUILD_BUILD_HOST=vmab

fails=0
row() { printf '%-10s %5s  %-4s %-10s %-9s %s\n' "$@"; }

checkpatch() { # src patch -> "ok" | "FAIL"
	local out e w o
	out=$("$1/scripts/checkpatch.pl" --strict --no-tree \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID --root="$1" "$2" 2>&1)
	e=$(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1/p' <<<"$out")
	w=$(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\2/p' <<<"$out")
	o=$(grep -c '^WARNING: Non-standard signature: Originally-by:' <<<"$out")
	echo "$out" >"$3"
	if [ -n "$e" ] && [ "$e" -eq 0 ] && [ $((w - o)) -eq 0 ]; then echo ok; else echo FAIL; fi
}

build() { # src build log -> seconds, or FAIL
	local src=$1 b=$2 log=$3 t0=$SECONDS sym
	mk() { make -C "$src" O="$b" ARCH=x86_64 'CC=ccache gcc' -j"$jobs" "$@"; }
	{
		mk olddefconfig &&
		for sym in VRANGE MAP_DROPPABLE; do
			if grep -rqs --include='Kconfig*' -E "^config[[:space:]]+$sym\$" "$src/mm"; then
				"$src/scripts/config" --file "$b/.config" --enable "$sym"
			fi
		done &&
		mk olddefconfig && mk bzImage
	} >"$log" 2>&1 || { echo FAIL; return 1; }
	echo "$((SECONDS - t0))s"
}

# touches_kernel SRC: the last commit changes a file the kernel build
# reads (anything but tools/, Documentation/ and MAINTAINERS).
touches_kernel() {
	git -C "$1" diff --name-only HEAD~1 HEAD |
		grep -qvE '^(tools/|Documentation/|MAINTAINERS$)'
}

row series n/N am checkpatch build subject
for s in $series; do
	src=$work/src-$s b=$work/build-$s
	rm -rf "$src"; mkdir -p "$b"
	[ $do_build = 1 ] && cp "$seedcfg" "$b/.config"
	git clone -q --shared "$linux" "$src"
	git -C "$src" checkout -q -b check-$s pristine
	mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/patches/$s/series")
	n=0
	for p in "${patches[@]}"; do
		n=$((n + 1))
		log=$logs/$s-$(printf '%02d' $n)
		subj=$(awk '/^Subject: /{s=$0; getline; while (/^ /) {s=s $0; getline}; print s; exit}' \
			"$top/patches/$s/$p" | sed 's/^Subject: \[PATCH[^]]*\] //')
		if ! git -C "$src" am -q "$top/patches/$s/$p" >"$log.am" 2>&1; then
			row "$s" "$n/${#patches[@]}" FAIL - - "$subj"
			fails=$((fails + 1))
			break
		fi
		cp=$(checkpatch "$src" "$top/patches/$s/$p" "$log.checkpatch")
		[ "$cp" = ok ] || fails=$((fails + 1))
		bt=-
		if [ $do_build = 1 ] && ! touches_kernel "$src"; then
			# Nothing kbuild reads changed: this prefix builds as
			# the one before it did.
			bt=same
		elif [ $do_build = 1 ]; then
			bt=$(build "$src" "$b" "$log.build") || fails=$((fails + 1))
		fi
		row "$s" "$n/${#patches[@]}" ok "$cp" "$bt" "$subj"
	done
done

if [ $do_stack = 1 ]; then
	src=$work/src-stack b=$work/build-stack
	rm -rf "$src"; mkdir -p "$b"
	[ $do_build = 1 ] && cp "$seedcfg" "$b/.config"
	git clone -q --shared "$linux" "$src"
	git -C "$src" checkout -q -b check-stack pristine
	order=$(perl -I"$top/matrix/lib" -MVMAB::Tree -e 'print "@VMAB::Tree::SERIES"')
	am=ok
	for s in $order; do
		while read -r p; do
			case $p in ''|'#'*) continue;; esac
			git -C "$src" am -q "$top/patches/$s/$p" >>"$logs/stack.am" 2>&1 || { am=FAIL; break 2; }
		done <"$top/patches/$s/series"
	done
	bt=-
	if [ $am = ok ] && [ $do_build = 1 ]; then
		bt=$(build "$src" "$b" "$logs/stack.build") || fails=$((fails + 1))
	fi
	[ $am = ok ] || fails=$((fails + 1))
	row stack all "$am" - "$bt" "$order"
fi

[ $fails -eq 0 ] || { echo "$fails failure(s); logs in $logs"; exit 1; }
echo "all OK"
