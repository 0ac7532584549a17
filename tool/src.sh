#!/usr/bin/env bash
# Make build/src: the pristine tarball as the first commit (tag "upstream"),
# then every patch of patches/series applied with git am, with a tag named
# after each feature folder at that feature's last commit.
#
#   tool/src.sh              create build/src, or bring it up to date with
#                            patches/ (refuses if it holds unexported work)
#   tool/src.sh --into DIR   build a fresh tree in DIR (used by verify)
#   FORCE=1 tool/src.sh      discard unexported work in build/src
#
# Updating an existing build/src resets it to the new series in place, so
# files that did not change keep their timestamps and rebuilds stay small.
. "$(dirname "$0")/common.sh"

STAMP_NAME=fork-stamp   # in .git: "<series fingerprint> <tree of HEAD>"

# Fixed identities and dates make the commits (and so their hashes) the
# same on every machine for the same tarball and series.
export GIT_AUTHOR_DATE="1970-01-01T00:00:00Z" GIT_COMMITTER_DATE="1970-01-01T00:00:00Z"

make_tree() {   # dest
    local dest=$1
    [ -f "$TARBALL_PATH" ] || die "$TARBALL_PATH is missing; run 'make fetch' first."
    [ "$(sha256_of "$TARBALL_PATH")" = "$SHA256" ] ||
        die "$TARBALL_PATH does not match UPSTREAM's sha256; delete it and run 'make fetch'."
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -xf "$TARBALL_PATH" -C "$dest" --strip-components=1 "$TARBALL_TOPDIR" ||
        die "could not unpack $TARBALL_TOPDIR/ from $TARBALL_PATH"
    (
        cd "$dest"
        fgit init -q
        # Upstream files are committed as they are: no line-ending or
        # ignore rules of anybody's configuration may alter them.
        fgit config core.autocrlf false
        fgit config core.safecrlf false
        fgit config am.keepcr true
        fgit add -A -f .
        fgit commit -q --no-verify -m "Ruby $VERSION, pristine $TARBALL" \
            -m "Debian source package ${DEBIAN_SOURCE:-?} ${DEBIAN_VERSION:-?}, sha256 $SHA256."
        fgit tag upstream
    )
    apply_series "$dest"
    mark_generated "$dest"
    write_stamp "$dest"
}

# Files the build regenerates inside the tree, which are not changes of
# ours: configure (from configure.ac, when a patch changes that) and
# revision.h (upstream's file2lastrev.rb writes the git HEAD it finds
# there, as in any git checkout of CRuby), and the instruction tables
# generated from insns.def and parse.c from parse.y, which build.sh removes
# when a patch changes insns.def or parse.y.  git status ignores them.
GENERATED="configure revision.h parse.c $INSNS_GENERATED"
mark_generated() {   # dir
    local f
    for f in $GENERATED; do
        [ ! -f "$1/$f" ] || (cd "$1" && fgit update-index --skip-worktree "$f")
    done
    # autoconf's backup of configure, left when the build regenerates it
    mkdir -p "$1/.git/info"
    grep -qx 'configure~' "$1/.git/info/exclude" 2>/dev/null ||
        echo 'configure~' >> "$1/.git/info/exclude"
}

apply_series() {   # dest
    local dest=$1 prev="" p feature
    while read -r p; do
        feature=${p%%/*}
        [ "$feature" != "$p" ] || die "patches/series: '$p' is not in a feature folder (feature/NNNN-name.patch)"
        [ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
        if [ -n "$prev" ] && [ "$feature" != "$prev" ]; then
            (cd "$dest" && fgit tag -f "$prev" >/dev/null)
        fi
        if ! (cd "$dest" && fgit am -q --keep-cr --committer-date-is-author-date "$PATCHES/$p") > "$dest/.git/am.log" 2>&1; then
            sed 's/^/  /' "$dest/.git/am.log" >&2
            (cd "$dest" && fgit am --abort) >/dev/null 2>&1 || true
            die "patch $p does not apply (to $(cd "$dest" && git log -1 --format=%s)); fix or refresh it in patches/."
        fi
        prev=$feature
    done < <(series_patches)
    if [ -n "$prev" ]; then
        (cd "$dest" && fgit tag -f "$prev" >/dev/null)
    fi
    rm -f "$dest/.git/am.log"
}

write_stamp() {   # dir
    echo "$(series_fingerprint) $(git -C "$1" rev-parse 'HEAD^{tree}')" > "$1/.git/$STAMP_NAME"
}

# True when DIR has commits or changes that patches/ does not hold.
has_local_work() {   # dir
    local dir=$1 tree
    [ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ] && return 0
    [ -f "$dir/.git/$STAMP_NAME" ] || return 0
    tree=$(cut -d' ' -f2 "$dir/.git/$STAMP_NAME")
    [ "$tree" != "$(git -C "$dir" rev-parse 'HEAD^{tree}')" ]
}

if [ "${1:-}" = "--into" ]; then
    [ -n "${2:-}" ] || die "--into needs a directory"
    make_tree "$2"
    exit 0
fi

if [ ! -d "$SRC/.git" ]; then
    [ ! -e "$SRC" ] || die "$SRC exists but is not a git repository; move it away."
    note "creating $SRC from $TARBALL and patches/series"
    make_tree "$SRC"
    note "build/src at $(git -C "$SRC" describe --tags --always)"
    exit 0
fi

fp=$(series_fingerprint)
if [ -f "$SRC/.git/$STAMP_NAME" ] && [ "$(cut -d' ' -f1 "$SRC/.git/$STAMP_NAME")" = "$fp" ]; then
    note "build/src is up to date with patches/ ($(git -C "$SRC" describe --tags --always))"
    exit 0
fi

if has_local_work "$SRC" && [ -z "${FORCE:-}" ]; then
    die "patches/ changed, but build/src holds work that is not in patches/; run 'make export' to keep it, or 'make src FORCE=1' to discard it."
fi

note "patches/ changed: updating $SRC in place"
scratch=$BUILD/.src-new
trap 'rm -rf "$scratch"' EXIT
make_tree "$scratch"
(
    cd "$SRC"
    git am --abort >/dev/null 2>&1 || true
    for f in $GENERATED; do git update-index --no-skip-worktree "$f" 2>/dev/null || true; done
    fgit fetch -q --no-tags "$scratch" HEAD
    git reset -q --hard FETCH_HEAD
    git tag -l | xargs -r git tag -d >/dev/null
    fgit fetch -q --tags "$scratch"
)
mark_generated "$SRC"
write_stamp "$SRC"
note "build/src at $(git -C "$SRC" describe --tags --always)"
