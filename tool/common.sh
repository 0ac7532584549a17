# Sourced by the tool/*.sh scripts.
#
# FORK_ROOT is the checkout the scripts work on (default: the one holding
# this file).  The tooling tests point it at a scratch project with a tiny
# synthetic tarball, so every script reads all of its paths from here.

set -eu

TOOLDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FORK_ROOT=${FORK_ROOT:-$(cd "$TOOLDIR/.." && pwd)}
UPSTREAM_FILE=$FORK_ROOT/UPSTREAM
PATCHES=$FORK_ROOT/patches
SERIES=$PATCHES/series
BUILD=$FORK_ROOT/build
SRC=${FORK_SRC:-$BUILD/src}
DIST=${FORK_DIST:-$FORK_ROOT/dist}
# What tool/insns2vm.rb generates from insns.def; the tarball ships them in
# the tree (see build.sh).
INSNS_GENERATED="insns.inc insns_info.inc optinsn.inc optunifs.inc vm.inc vmtc.inc"

die() {
    echo "error: $*" >&2
    exit 1
}

note() {
    echo "==> $*"
}

[ -f "$UPSTREAM_FILE" ] || die "$UPSTREAM_FILE is missing; it names the pinned upstream tarball."
# shellcheck source=/dev/null
. "$UPSTREAM_FILE"
: "${VERSION:?UPSTREAM lacks VERSION}" "${TARBALL:?UPSTREAM lacks TARBALL}"
: "${TARBALL_TOPDIR:?UPSTREAM lacks TARBALL_TOPDIR}" "${SHA256:?UPSTREAM lacks SHA256}"

TARBALL_PATH=$DIST/$TARBALL

sha256_of() {
    sha256sum "$1" | cut -d' ' -f1
}

# Deterministic git: no user or system configuration may change what
# export writes or what the commits made by src look like.
fgit() {
    GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
    GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-upstream} \
    GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-upstream@invalid} \
    GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-fork} \
    GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-fork@invalid} \
    git "$@"
}

# The fingerprint of patches/: series plus every patch it names.
series_fingerprint() {
    {
        if [ -f "$SERIES" ]; then
            cat "$SERIES"
            series_patches | while read -r p; do
                cat "$PATCHES/$p"
            done
        fi
    } | sha256sum | cut -d' ' -f1
}

# The patches named by patches/series, in order, without comments.
series_patches() {
    [ -f "$SERIES" ] || return 0
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES"
}
