#!/bin/bash
# Bisectability check: does every patch of the series build on its own?
#
#   tools/check-series-builds.sh [--no-off] [WORKDIR]      (WORKDIR: ${TMPDIR:-/tmp}/vmab-bisect)
#
# Clones out/src/linux (git clone --shared) into WORKDIR/src, checks out the
# `pristine` tag on a new branch, then applies patches/{common,vrange,madv-free}
# one patch at a time (git am, in `series` order) and after each one runs
#   make O=WORKDIR/build ARCH=x86_64 'CC=ccache gcc' olddefconfig bzImage
# with WORKDIR/build/.config seeded from out/build/both/.config and
# CONFIG_VRANGE / CONFIG_MADV_FREE re-asserted to y whenever Kconfig declares
# them.  Prints "OK <patch> <seconds>s" or "FAIL <patch>" plus the first error
# lines, and any "warning:" in files the patch touches.  Unless --no-off is
# given, it finally builds the fully patched tree once with both designs off
# (CONFIG_VRANGE=n, CONFIG_MADV_FREE=n).  Per-step logs: WORKDIR/logs/.
# WORKDIR/src and WORKDIR/build are deleted and recreated on every run.
# Exits non-zero if any build fails.  Builds are slow; run it under
# `nice -n 19` on a shared machine.  JOBS (default 2) sets make -j.
# FROM=N applies patches 1..N-1 without building them (they were checked
# before) and builds from the Nth on.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
do_off=1
if [ "${1:-}" = --no-off ]; then do_off=0; shift; fi
work=${1:-${TMPDIR:-/tmp}/vmab-bisect}
jobs=${JOBS:-2}
linux=$top/out/src/linux
seedcfg=$top/out/build/both/.config

[ -s "$seedcfg" ] || { echo "no $seedcfg: build the both variant first (matrix/vmab build --variants both)" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
case $work in /|"$top"|"$top"/*) echo "refusing WORKDIR $work" >&2; exit 2;; esac
src=$work/src build=$work/build logs=$work/logs
rm -rf "$src" "$build" "$logs"
mkdir -p "$build" "$logs"

export KBUILD_BUILD_TIMESTAMP=vmab KBUILD_BUILD_USER=vmab KBUILD_BUILD_HOST=vmab
git clone -q --shared "$linux" "$src"
git -C "$src" checkout -q -b bisect-check pristine
cp "$seedcfg" "$build/.config"

mk() { make -C "$src" O="$build" ARCH=x86_64 'CC=ccache gcc' -j"$jobs" "$@"; }

# olddefconfig, then force the wanted state of the two design symbols if
# Kconfig knows them (mm/Kconfig is where the common patch declares them).
configure() { # y|n
	mk olddefconfig || return
	local sym flag args=()
	[ "$1" = y ] && flag=--enable || flag=--disable
	for sym in VRANGE MADV_FREE; do
		if grep -rqs --include='Kconfig*' -E "^[[:space:]]*config[[:space:]]+$sym\$" "$src"; then
			args+=("$flag" "$sym")
		fi
	done
	if [ ${#args[@]} -gt 0 ]; then
		"$src/scripts/config" --file "$build/.config" "${args[@]}" || return
		mk olddefconfig || return
	fi
}

errors() { # log
	grep -E 'error:|Error [0-9]+|undefined reference|undefined symbol|No rule to make' "$1" | head -n 15 | sed 's/^/    /'
}

# "warning:" lines of log whose file is one of the files the patch changed
touched_warnings() { # log files...
	local log=$1; shift
	local f
	for f in "$@"; do
		grep -F -e "$src/$f:" -e "../src/$f:" "$log" | grep -F 'warning:' || true
		grep -E "^$f:[0-9]+(:[0-9]+)?: warning:" "$log" || true
	done | sort -u | sed 's/^/    /'
}

fails=0
step() { # name log touched-files...
	local name=$1 log=$2; shift 2
	local t0=$SECONDS rc=0
	{ configure "$cfgstate" && mk bzImage; } >"$log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		echo "OK $name $((SECONDS - t0))s"
	else
		echo "FAIL $name (after $((SECONDS - t0))s, log $log)"
		errors "$log"
		fails=$((fails + 1))
	fi
	local w
	w=$(touched_warnings "$log" "$@")
	if [ -n "$w" ]; then echo "  warnings in touched files:"; echo "$w"; fi
}

cfgstate=y
n=0
for s in common vrange madv-free; do
	while read -r p; do
		case $p in ''|'#'*) continue;; esac
		n=$((n + 1))
		name=$s/$p
		log=$logs/$(printf '%02d' $n)-$s-${p%.patch}.log
		if ! git -C "$src" -c user.name=vmab -c user.email=vmab@localhost \
			am -q "$top/patches/$s/$p" >"$log" 2>&1; then
			echo "FAIL $name (git am)"; sed 's/^/    /' "$log" | head -n 15
			exit 1
		fi
		if [ "$n" -lt "${FROM:-1}" ]; then
			echo "applied $name (not built: FROM=$FROM)"
			continue
		fi
		mapfile -t files < <(git -C "$src" diff --name-only HEAD~1 HEAD)
		step "$name" "$log.build" "${files[@]}"
	done <"$top/patches/$s/series"
done

if [ $do_off = 1 ]; then
	cfgstate=n
	mapfile -t files < <(git -C "$src" diff --name-only pristine HEAD)
	step "all-patches-with-VRANGE=n,MADV_FREE=n" "$logs/off.log" "${files[@]}"
	grep -E '^# CONFIG_(VRANGE|MADV_FREE) is not set' "$build/.config" | sed 's/^/    /'
fi

[ $fails -eq 0 ] || { echo "$fails build(s) failed"; exit 1; }
echo "all builds OK"
