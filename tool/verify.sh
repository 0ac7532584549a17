#!/usr/bin/env bash
# Prove that tarball + patches/series rebuild exactly build/src's HEAD.
#
# The tree is rebuilt from scratch in build/verify and compared with
# build/src HEAD tree for tree; any difference is named file by file.
# Uncommitted changes or untracked files in build/src are reported too,
# since they are not part of what the series can reproduce.
. "$(dirname "$0")/common.sh"

[ -d "$SRC/.git" ] || die "$SRC does not exist; run 'make src' first."
scratch=$BUILD/verify
trap 'rm -rf "$scratch"' EXIT
note "rebuilding the tree from $TARBALL and patches/series in $scratch"
"$TOOLDIR/src.sh" --into "$scratch" >/dev/null

want=$(git -C "$SRC" rev-parse 'HEAD^{tree}')
got=$(git -C "$scratch" rev-parse 'HEAD^{tree}')
status=0
if [ "$want" != "$got" ]; then
    (cd "$SRC" && fgit fetch -q --no-tags "$scratch" HEAD)
    echo "error: tarball + patches/series do not rebuild build/src HEAD; these files differ:" >&2
    git -C "$SRC" diff --name-status FETCH_HEAD HEAD | sed 's/^/  /' >&2
    echo "run 'make export' to write build/src's commits to patches/." >&2
    status=1
fi
dirty=$(git -C "$SRC" status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
    echo "error: build/src has uncommitted changes that no patch holds:" >&2
    echo "$dirty" | sed 's/^/  /' >&2
    status=1
fi
untracked=$(git -C "$SRC" status --porcelain | grep '^??' || true)
if [ -n "$untracked" ]; then
    echo "warning: untracked files in build/src (not part of any patch):" >&2
    echo "$untracked" | sed 's/^/  /' >&2
fi
n_src=$(git -C "$SRC" rev-list --count upstream..HEAD)
n_series=$(series_patches | wc -l)
if [ "$n_src" != "$n_series" ]; then
    echo "error: build/src has $n_src commits on upstream, patches/series has $n_series patches; run 'make export'." >&2
    status=1
fi
[ "$status" = 0 ] || exit 1
note "verified: tarball + $n_series patches rebuild build/src HEAD exactly (tree $want)"
