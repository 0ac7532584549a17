#!/usr/bin/env bash
# Write build/src's commits (upstream..HEAD) back into patches/.
#
# A commit belongs to the feature folder named by its "Feature:" trailer:
#
#     git commit --trailer "Feature: vmstack"
#
# Commits of one feature must be contiguous and features appear in the
# order of the series; patches/series is rewritten from that order.
# Output is normalised (no commit hashes, no signature, full blob ids, and
# no user or system git configuration), so re-exporting an unchanged
# commit changes no byte and unchanged files are not even rewritten.
. "$(dirname "$0")/common.sh"

[ -d "$SRC/.git" ] || die "$SRC does not exist; run 'make src' first."
cd "$SRC"
git rev-parse -q --verify upstream >/dev/null || die "$SRC has no 'upstream' tag; recreate it with 'make src FORCE=1'."
[ ! -d .git/rebase-apply ] && [ ! -d .git/rebase-merge ] ||
    die "$SRC is in the middle of a rebase or git am; finish or abort it first."
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    git status --short --untracked-files=no >&2
    die "$SRC has uncommitted changes (above); commit them with a 'Feature:' trailer, or stash them, then export."
fi
untracked=$(git status --porcelain | grep '^??' || true)
if [ -n "$untracked" ]; then
    echo "warning: untracked files in $SRC are not exported:" >&2
    echo "$untracked" | sed 's/^/  /' >&2
fi

features=()
declare -A first last
prev=""
while read -r c; do
    f=$(fgit log -1 --format='%(trailers:key=Feature,valueonly,separator=%x2C)' "$c" | tr -d '[:space:]')
    subj=$(git log -1 --format=%s "$c")
    [ -n "$f" ] || die "commit $(git rev-parse --short "$c") \"$subj\" has no 'Feature: <folder>' trailer; add one with 'git commit --amend --trailer \"Feature: NAME\"' (or git rebase -i upstream)."
    [[ "$f" =~ ^[a-z0-9][a-z0-9_-]*$ ]] || die "commit $(git rev-parse --short "$c") \"$subj\": feature '$f' must be one lowercase word (a-z, 0-9, -, _)."
    if [ "$f" != "$prev" ]; then
        [ -z "${first[$f]:-}" ] ||
            die "commit $(git rev-parse --short "$c") \"$subj\" (feature $f) comes after commits of another feature; reorder with 'git rebase -i upstream' so each feature's commits are together."
        first[$f]=$c
        features+=("$f")
    fi
    last[$f]=$c
    prev=$f
done < <(git rev-list --reverse upstream..HEAD)

out=$(mktemp -d "${TMPDIR:-/tmp}/fork-export.XXXXXX")
trap 'rm -rf "$out"' EXIT
: > "$out/series"
for f in "${features[@]}"; do
    mkdir -p "$out/$f"
    fgit format-patch -q --zero-commit --no-signature --no-numbered \
        --full-index --diff-algorithm=myers --no-renames --stat=80 \
        --start-number=1 -o "$out/$f" "${first[$f]}^..${last[$f]}"
    (cd "$out" && ls "$f"/*.patch) >> "$out/series"
done

mkdir -p "$PATCHES"
changed=0
# Remove patch files that are no longer in the series, then feature
# folders left empty.
for p in "$PATCHES"/*/*.patch; do
    [ -f "$p" ] || continue
    rel=${p#"$PATCHES"/}
    if [ ! -f "$out/$rel" ]; then
        rm -f "$p"
        echo "  removed patches/$rel"
        changed=1
    fi
done
for d in "$PATCHES"/*/; do
    [ -d "$d" ] || continue
    rmdir "$d" 2>/dev/null || true
done
while read -r p; do
    mkdir -p "$PATCHES/$(dirname "$p")"
    if ! cmp -s "$out/$p" "$PATCHES/$p"; then
        cp "$out/$p" "$PATCHES/$p"
        echo "  wrote patches/$p"
        changed=1
    fi
done < "$out/series"
{
    echo "# The fork, in the order git am applies it (written by 'make export')."
    cat "$out/series"
} > "$out/series.full"
if ! cmp -s "$out/series.full" "$SERIES"; then
    cp "$out/series.full" "$SERIES"
    echo "  wrote patches/series"
    changed=1
fi

# A tag per feature at its last commit, as src.sh makes them: a rebase
# leaves the old ones on commits that are no longer in the series.
for f in "${features[@]}"; do
    fgit tag -f "$f" "${last[$f]}" >/dev/null
done
echo "$(series_fingerprint) $(git rev-parse 'HEAD^{tree}')" > "$SRC/.git/fork-stamp"
n=$(grep -vc '^#' "$SERIES" || true)
if [ "$changed" = 1 ]; then
    note "exported $n patches in ${#features[@]} features (${features[*]:-none})"
else
    note "patches/ already holds build/src ($n patches); nothing changed"
fi
