#!/usr/bin/env bash
# Build pristine upstream from the same tarball, with the same flags as the
# fork, into the given prefix (default _vanilla/): the baseline of every
# comparison.  The tree is a plain unpacked tarball in build/vanilla/src.
. "$(dirname "$0")/common.sh"

# --src-only: only unpack the tree (check-asan-vanilla builds it its own way).
src_only=false
[ "${1:-}" = --src-only ] && { src_only=true; shift; }
prefix=${1:-$FORK_ROOT/_vanilla}
vsrc=$BUILD/vanilla/src
if [ "$(cat "$vsrc/.fork-tarball-sha256" 2>/dev/null)" != "$SHA256" ]; then
    [ -f "$TARBALL_PATH" ] || die "$TARBALL_PATH is missing; run 'make fetch' first."
    rm -rf "$vsrc"
    mkdir -p "$vsrc"
    tar -xf "$TARBALL_PATH" -C "$vsrc" --strip-components=1 "$TARBALL_TOPDIR"
    echo "$SHA256" > "$vsrc/.fork-tarball-sha256"
fi
$src_only && exit 0
exec "$TOOLDIR/build.sh" "$vsrc" "$BUILD/vanilla/obj" "$prefix" ${VANILLA_CONFIGURE_ARGS:-}
