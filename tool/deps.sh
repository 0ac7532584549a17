#!/usr/bin/env bash
# Install what building, testing and measuring the fork need, with apt-get
# (through sudo when not root).  Quick when everything is already there.
set -eu

packages=(
    build-essential autoconf bison gperf pkg-config git xz-utils ca-certificates
    ruby                       # BASERUBY
    ccache
    libffi-dev libyaml-dev libssl-dev zlib1g-dev libgdbm-dev libreadline-dev libgmp-dev
    valgrind time gnuplot-nox procps
)

# YJIT needs rustc >= 1.58 (Debian's is 1.63); one on PATH (e.g. rustup's) is used as it is
command -v rustc >/dev/null 2>&1 || packages+=(rustc)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "==> dependencies: all ${#packages[@]} packages installed"
    exit 0
fi

command -v apt-get >/dev/null 2>&1 || {
    echo "error: these packages are missing and apt-get is not available: ${missing[*]}; install their equivalents and run make again." >&2
    exit 1
}
sudo=
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "error: missing packages (${missing[*]}) need root, and sudo is not installed; run 'make deps' as root." >&2
        exit 1
    }
    sudo="sudo"
fi
echo "==> installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q > /dev/null || {
    echo "error: apt-get update failed; check the network and /etc/apt sources, then run 'make deps' again." >&2
    exit 1
}
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" > /tmp/fork-deps.$$.log 2>&1 || {
    tail -20 /tmp/fork-deps.$$.log >&2
    echo "error: apt-get install failed (above); fix that and run 'make deps' again." >&2
    exit 1
}
rm -f /tmp/fork-deps.$$.log
echo "==> dependencies installed"
