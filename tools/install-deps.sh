#!/bin/bash
# make deps: install the Debian packages the project needs, when any is
# missing.  Every target that builds or boots depends on it, and it is the
# only place that installs anything; it says what it is about to install
# before it starts.
set -euo pipefail
pkgs=(linux-source qemu-system-x86 busybox-static ccache flex bison bc
      libelf-dev libssl-dev cpio gzip xz-utils gnuplot-nox perl gcc make git
      kconfig-frontends libnuma-dev libcap-dev distcc chromium
      libjemalloc2 stress-ng groff-base)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "make deps: about to install ${#missing[@]} Debian package(s) with apt-get" \
	"(root, or sudo): ${missing[*]}"
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
