#!/usr/bin/env bash
# Configure (out of tree), build and install one Ruby tree.
#
#   tool/build.sh SRC OBJ PREFIX [extra configure arguments...]
#
# configure runs again only when its arguments change or config.status is
# missing; everything else is left to the tree's own make, so a rebuild
# after a patch change redoes only what the change touches.  Compilers run
# through ccache when it is installed (its masquerade directory comes first
# in PATH, so RbConfig still names plain gcc for extensions built later).
. "$(dirname "$0")/common.sh"

[ $# -ge 3 ] || die "usage: tool/build.sh SRC OBJ PREFIX [configure args...]"
src=$(cd "$1" && pwd) || die "no source tree at $1"
obj=$2
prefix=$3
shift 3
mkdir -p "$obj" "$prefix"
obj=$(cd "$obj" && pwd)
prefix=$(cd "$prefix" && pwd)
JOBS=${JOBS:-$(nproc)}

if [ -d /usr/lib/ccache ]; then
    export PATH=/usr/lib/ccache:$PATH
    export CCACHE_BASEDIR=$FORK_ROOT CCACHE_NOHASHDIR=1
fi

# configure.ac changed by a patch: regenerate configure in the tree (src.sh
# marks it skip-worktree there, since it is generated).  The fingerprint of
# the inputs decides, not timestamps, which git checkouts do not preserve.
if [ -d "$src/.git" ]; then
    inputs=$(cd "$src" && cat configure.ac aclocal.m4 tool/m4/*.m4 2>/dev/null | sha256sum | cut -d' ' -f1)
    stamp=$src/.git/fork-configure-inputs
    if git -C "$src" diff --quiet upstream -- configure.ac aclocal.m4 tool/m4 &&
       [ -z "$(git -C "$src" ls-files --others -- tool/m4)" ]; then
        if [ -f "$stamp" ]; then
            note "configure.ac is upstream's again: restoring upstream's configure"
            git -C "$src" show upstream:configure > "$src/configure"
            rm -f "$stamp"
        fi
    elif [ "$(cat "$stamp" 2>/dev/null)" != "$inputs" ]; then
        command -v autoconf >/dev/null || die "a patch changes configure.ac, and autoconf is not installed; run 'make deps'."
        note "configure.ac differs from upstream: regenerating configure"
        (cd "$src" && autoconf -o configure.tmp && mv configure.tmp configure && chmod +x configure)
        echo "$inputs" > "$stamp"
        rm -f "$obj/config.status"   # configure again with the new script
    fi
    # autoconf, here or in the tree's own make rule, leaves its cache there.
    grep -qx 'autom4te.cache/' "$src/.git/info/exclude" 2>/dev/null ||
        echo 'autom4te.cache/' >> "$src/.git/info/exclude"
fi

# The tarball also carries the instruction tables ($INSNS_GENERATED), and
# vm_exec.c's #include "vm.inc" finds the tree's copy before the build
# directory's.  When a patch changes insns.def or the generator, the tree's
# copies are stale: they are removed from the tree (src.sh marks them
# skip-worktree) and the build generates its own.  A build directory that
# compiled against the tree's copies drops its own once (the stamp), so that
# what includes them is compiled again.
if [ -d "$src/.git" ]; then
    insns_stamp=$obj/.fork-insns-generated
    if git -C "$src" diff --quiet upstream -- insns.def defs/opt_operand.def defs/opt_insn_unif.def tool/ruby_vm; then
        for f in $INSNS_GENERATED; do
            [ -f "$src/$f" ] || git -C "$src" show "upstream:$f" > "$src/$f"
        done
        if [ -f "$insns_stamp" ]; then
            for f in $INSNS_GENERATED; do rm -f "$obj/$f"; done
            rm -f "$insns_stamp"
        fi
    else
        for f in $INSNS_GENERATED; do rm -f "$src/$f"; done
        if [ ! -f "$insns_stamp" ]; then
            note "insns.def differs from upstream: $obj generates the instruction tables, not the tarball's"
            for f in $INSNS_GENERATED; do rm -f "$obj/$f"; done
            touch "$insns_stamp"
        fi
    fi
fi

# parse.c too: the tarball ships it, generated from its parse.y, and make
# regenerates it in the build directory only when the tree's copy is older
# than parse.y.  A git operation that rewrites the tree's copy makes it the
# newer, and a new build directory would compile upstream's parser.  When a
# patch changes parse.y the tree's copy goes (skip-worktree, as src.sh marks
# the instruction tables), so that every build directory generates its own.
if [ -d "$src/.git" ] && [ -f "$src/parse.c" ] && ! git -C "$src" diff --quiet upstream -- parse.y; then
    git -C "$src" update-index --skip-worktree parse.c
    rm -f "$src/parse.c"
fi

# YJIT is built where rustc >= 1.58 is found, as upstream decides (make deps
# installs Debian's); --disable-yjit in the arguments leaves it out.
args=(--prefix="$prefix" --disable-install-doc "$@")
argsfile=$obj/.fork-configure-args
if [ ! -f "$obj/config.status" ] || [ ! -f "$obj/Makefile" ] ||
   [ "$(cat "$argsfile" 2>/dev/null)" != "${args[*]}" ] || [ "$src/configure" -nt "$obj/config.status" ]; then
    note "configure ${args[*]}"
    rm -f "$argsfile"
    (cd "$obj" && "$src/configure" "${args[@]}" > configure.log 2>&1) || {
        tail -30 "$obj/configure.log" >&2
        die "configure failed; the whole log is $obj/configure.log"
    }
    echo "${args[*]}" > "$argsfile"
fi

note "make -j$JOBS in $obj"
(cd "$obj" && make -j"$JOBS" > make.log 2>&1) || {
    tail -40 "$obj/make.log" >&2
    die "the build failed; the whole log is $obj/make.log"
}
note "make install into $prefix"
# Debian's orig tarball carries the bundled gems unpacked in .bundle/ but
# not their .gem files, which upstream's install would download from
# rubygems.org (prepare-gems) only to install the unpacked copies anyway.
# An empty bundled-gems list skips that download; rbinstall still installs
# every bundled gem, C extensions included, from .bundle/.
(cd "$obj" && make install bundled-gems= > install.log 2>&1) || {
    tail -40 "$obj/install.log" >&2
    die "make install failed; the whole log is $obj/install.log"
}
"$prefix/bin/ruby" -v
