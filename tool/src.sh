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
# A tree is always made in a scratch directory and only then moved or
# fetched into build/src, so a 'make src' that stops half way (a patch that
# does not apply, ^C, a full disk) leaves build/src as it was, or absent.
# Updating an existing build/src resets it to the new series in place, so
# files that did not change keep their timestamps and rebuilds stay small.
. "$(dirname "$0")/common.sh"

STAMP_NAME=fork-stamp       # in .git: "<series fingerprint> <tree of HEAD>"
UPDATING_NAME=fork-updating # in .git while src.sh replaces build/src's tree

# Fixed identities and dates make the commits (and so their hashes) the
# same on every machine for the same tarball and series, whatever the
# environment says; they also tell the commits made here from a user's.
export GIT_AUTHOR_DATE="1970-01-01T00:00:00Z" GIT_COMMITTER_DATE="1970-01-01T00:00:00Z"
export GIT_AUTHOR_NAME=upstream GIT_AUTHOR_EMAIL=upstream@invalid
export GIT_COMMITTER_NAME=fork GIT_COMMITTER_EMAIL=fork@invalid
TOOL_COMMITTER="fork fork@invalid"

# The settings of every repository made here.  Upstream files are committed
# as they are: no line-ending rule of anybody's configuration may alter
# them.  And git starts no work of its own in the background: the first
# commit leaves some 10,000 loose objects, enough for every later commit,
# am or fetch to start 'gc --auto', which then races the next git am for
# the index.  The objects stay loose; git reads them as fast for our use.
configure_repo() {   # dir
    (
        cd "$1"
        fgit config core.autocrlf false
        fgit config core.safecrlf false
        fgit config am.keepcr true
        fgit config gc.auto 0
        fgit config gc.autoDetach false
        fgit config maintenance.auto false
    )
}

# Run a git command in DIR; while another git process holds one of the
# repository's lock files (an editor's 'git status', a gc somebody started),
# wait for it, up to FORK_GIT_LOCK_WAIT seconds (60).
git_waiting() {   # dir, git arguments...
    local dir=$1 waited=0 limit=${FORK_GIT_LOCK_WAIT:-60} err
    shift
    err=$(mktemp "${TMPDIR:-/tmp}/fork-git.XXXXXX")
    while :; do
        if (cd "$dir" && fgit "$@") 2> "$err"; then
            rm -f "$err"
            return 0
        fi
        # 'File exists' from most commands, 'unable to write index file'
        # from git am
        if grep -Eq "\.lock': File exists|unable to write index file" "$err" &&
           [ "$waited" -lt "$((limit * 10))" ]; then
            # git am stops with its patch half begun: start it again
            [ "$1" != am ] || [ ! -d "$dir/.git/rebase-apply" ] ||
                (cd "$dir" && fgit am --quit) >/dev/null 2>&1 || true
            sleep 0.1
            waited=$((waited + 1))
            continue
        fi
        cat "$err" >&2
        rm -f "$err"
        return 1
    done
}

make_tree() {   # dest
    local dest=$1
    [ -f "$TARBALL_PATH" ] || die "$TARBALL_PATH is missing; run 'make fetch' first."
    [ "$(sha256_of "$TARBALL_PATH")" = "$SHA256" ] ||
        die "$TARBALL_PATH does not match UPSTREAM's sha256; delete it and run 'make fetch'."
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -xf "$TARBALL_PATH" -C "$dest" --strip-components=1 "$TARBALL_TOPDIR" ||
        die "could not unpack $TARBALL_TOPDIR/ from $TARBALL_PATH"
    (cd "$dest" && fgit init -q)
    configure_repo "$dest"
    git_waiting "$dest" add -A -f .
    git_waiting "$dest" commit -q --no-verify -m "Ruby $VERSION, pristine $TARBALL" \
        -m "Debian source package ${DEBIAN_SOURCE:-?} ${DEBIAN_VERSION:-?}, sha256 $SHA256."
    git_waiting "$dest" tag upstream
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
        [ ! -f "$1/$f" ] || git_waiting "$1" update-index --skip-worktree "$f"
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
            git_waiting "$dest" tag -f "$prev" >/dev/null
        fi
        if ! git_waiting "$dest" am -q --keep-cr --committer-date-is-author-date "$PATCHES/$p" > "$dest/.git/am.log" 2>&1; then
            sed 's/^/  /' "$dest/.git/am.log" >&2
            (cd "$dest" && fgit am --abort) >/dev/null 2>&1 || true
            die "patch $p does not apply (to $(cd "$dest" && git log -1 --format=%s)); fix or refresh it in patches/."
        fi
        prev=$feature
    done < <(series_patches)
    if [ -n "$prev" ]; then
        git_waiting "$dest" tag -f "$prev" >/dev/null
    fi
    rm -f "$dest/.git/am.log"
}

write_stamp() {   # dir
    echo "$(series_fingerprint) $(git -C "$1" rev-parse 'HEAD^{tree}')" > "$1/.git/$STAMP_NAME"
}

# The commits on upstream that this script did not make: a user's.
foreign_commits() {   # dir
    git -C "$1" log --format="%h %cn %ce %s" upstream..HEAD 2>/dev/null |
        while read -r h cn ce s; do
            [ "$cn $ce" = "$TOOL_COMMITTER" ] || echo "$h $s"
        done
}

# What in DIR that patches/ does not hold, one line each; nothing when the
# tree is what this script or 'make export' left.  Commits this script
# made came from a series, so they hold nothing of a user's even when the
# stamp is missing (a tree an older src.sh left half made).
local_work() {   # dir
    local dir=$1 tree
    git -C "$dir" status --porcelain --untracked-files=no | sed 's/^/uncommitted: /'
    tree=$(cut -d' ' -f2 "$dir/.git/$STAMP_NAME" 2>/dev/null || true)
    if [ "$tree" != "$(git -C "$dir" rev-parse -q --verify 'HEAD^{tree}' 2>/dev/null)" ]; then
        foreign_commits "$dir" | sed 's/^/not exported: /'
    fi
}

if [ "${1:-}" = "--into" ]; then
    [ -n "${2:-}" ] || die "--into needs a directory"
    make_tree "$2"
    exit 0
fi

scratch=$BUILD/.src-new
trap 'rm -rf "$scratch"' EXIT

# A tree an older src.sh began and never finished: no upstream tag, so no
# commit of anybody's on it.  It is made again below.
if [ -d "$SRC/.git" ] && ! git -C "$SRC" rev-parse -q --verify upstream >/dev/null; then
    [ -z "$(git -C "$SRC" rev-list --all 2>/dev/null)" ] || [ -n "${FORCE:-}" ] ||
        die "$SRC has commits but no 'upstream' tag, so its work cannot be told from upstream's; move it away, or run 'make src FORCE=1' to discard it."
    note "$SRC was left half made by an interrupted 'make src': making it again"
    rm -rf "$SRC"
fi

if [ ! -d "$SRC/.git" ]; then
    [ ! -e "$SRC" ] || die "$SRC exists but is not a git repository; move it away."
    note "creating $SRC from $TARBALL and patches/series"
    make_tree "$scratch"
    mv "$scratch" "$SRC"
    note "build/src at $(git -C "$SRC" describe --tags --always)"
    exit 0
fi

configure_repo "$SRC"   # trees made before these settings
fp=$(series_fingerprint)
if [ ! -f "$SRC/.git/$UPDATING_NAME" ] && [ -f "$SRC/.git/$STAMP_NAME" ] &&
   [ "$(cut -d' ' -f1 "$SRC/.git/$STAMP_NAME")" = "$fp" ]; then
    note "build/src is up to date with patches/ ($(git -C "$SRC" describe --tags --always))"
    exit 0
fi

if [ -f "$SRC/.git/$UPDATING_NAME" ]; then
    # An update that stopped half way: what is in the tree is ours.
    note "finishing the update of $SRC that an interrupted 'make src' began"
elif [ -d "$SRC/.git/rebase-apply" ] && [ -z "$(foreign_commits "$SRC")" ] && [ ! -f "$SRC/.git/$STAMP_NAME" ]; then
    note "$SRC was left half made by an interrupted or failed 'make src' (git am stopped): making it again"
else
    work=$(local_work "$SRC")
    if [ -n "$work" ] && [ -z "${FORCE:-}" ]; then
        echo "$work" | head -20 | sed 's/^/  /' >&2
        die "patches/ changed, but build/src holds work that is not in patches/ (above); run 'make export' to keep it, or 'make src FORCE=1' to discard it."
    fi
    [ -f "$SRC/.git/$STAMP_NAME" ] || [ -n "$work" ] ||
        note "$SRC was left half made by an interrupted 'make src': bringing it up to date"
fi

note "patches/ changed: updating $SRC in place"
make_tree "$scratch"
: > "$SRC/.git/$UPDATING_NAME"
(cd "$SRC" && fgit am --abort) >/dev/null 2>&1 || true
for f in $GENERATED; do git -C "$SRC" update-index --no-skip-worktree "$f" 2>/dev/null || true; done
git_waiting "$SRC" fetch -q --no-tags "$scratch" HEAD
git_waiting "$SRC" reset -q --hard FETCH_HEAD
git -C "$SRC" tag -l | xargs -r git -C "$SRC" tag -d >/dev/null
git_waiting "$SRC" fetch -q --tags "$scratch"
mark_generated "$SRC"
write_stamp "$SRC"
rm -f "$SRC/.git/$UPDATING_NAME"
note "build/src at $(git -C "$SRC" describe --tags --always)"
