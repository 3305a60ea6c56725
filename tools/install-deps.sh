#!/bin/bash
# Install the Debian packages the project needs, when any is missing.
set -euo pipefail
pkgs=(linux-source qemu-system-x86 busybox-static ccache flex bison bc
      libelf-dev libssl-dev cpio gzip xz-utils gnuplot-nox perl gcc make git
      kconfig-frontends libnuma-dev libcap-dev distcc chromium
      libjemalloc2 stress-ng)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
