#!/bin/sh
# Developer helper, kept for the habit: boot a kernel with only the given
# programs, once per mode, and print what they said.  It is
#   matrix/vmab boot --kernel BZIMAGE --prog PROG... [--modes MODES]
# (see matrix/vmab --help): a PROG is a suite program's name or a path,
# MODES defaults to swap-classic, RUNLIST=FILE runs that list instead.
#   tools/devboot.sh BZIMAGE PROG... [-- MODES]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1; shift
set -- "$@" --end--
while [ "$1" != --end-- ]; do
	case $1 in
	--) set -- "$@" --modes "$2"; shift 2 ;;
	*) set -- "$@" --prog "$1"; shift ;;
	esac
done
shift
exec perl "$top/matrix/vmab" boot --kernel "$kernel" ${RUNLIST:+--run-list "$RUNLIST"} "$@"
