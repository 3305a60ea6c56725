#!/bin/sh
# Record real console/results logs of broken boots for the driver's host
# tests (matrix/t/fixtures): panic, hang, oom, bootfail, flood (see
# matrix/lib/VMAB/Fixtures.pm).  It is
#   matrix/vmab boot --fixtures --kernel BZIMAGE
# Usage: tools/make-fixtures.sh BZIMAGE
set -eu
exec perl "$(dirname "$0")/../matrix/vmab" boot --fixtures --kernel "${1:?usage: tools/make-fixtures.sh BZIMAGE}"
