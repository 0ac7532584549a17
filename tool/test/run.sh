#!/usr/bin/env bash
# The tooling's own tests: fetch, src, export and verify, run against a
# scratch project with a tiny synthetic "upstream" tarball, so they take
# seconds and never touch this checkout's build/ or dist/.
set -u
TOOL=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fork-tooltest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=tester GIT_AUTHOR_EMAIL=tester@invalid
export GIT_COMMITTER_NAME=tester GIT_COMMITTER_EMAIL=tester@invalid
unset RUBY_TARBALL FORK_SRC FORK_DIST FORK_APT_URIS

pass=0 fail=0 failed=()
ok()   { pass=$((pass + 1)); echo "  ok    $1"; }
nok()  { fail=$((fail + 1)); failed+=("$1"); echo "  FAIL  $1${2:+: $2}"; }

# A tiny upstream: mini-1.0/ with a few files, one of them CRLF.
mkdir -p "$WORK/up/mini-1.0/lib"
printf 'hello\n' > "$WORK/up/mini-1.0/README"
printf 'line 1\nline 2\nline 3\n' > "$WORK/up/mini-1.0/lib/a.txt"
printf 'crlf 1\r\ncrlf 2\r\n' > "$WORK/up/mini-1.0/win.bat"
printf '# generated\n' > "$WORK/up/mini-1.0/configure"
tar -C "$WORK/up" -cJf "$WORK/mini-1.0.tar.xz" mini-1.0
GOOD_SHA=$(sha256sum "$WORK/mini-1.0.tar.xz" | cut -d' ' -f1)
printf 'not a tarball\n' > "$WORK/bad.tar.xz"

new_project() {   # dir: a project using the tooling, with no patches yet
    mkdir -p "$1/patches"
    cat > "$1/UPSTREAM" <<EOT
VERSION=1.0
DEBIAN_SOURCE=mini
DEBIAN_VERSION=1.0-1
DEBIAN_SUITE=trixie
TARBALL=mini-1.0.tar.xz
TARBALL_TOPDIR=mini-1.0
SHA256=$GOOD_SHA
EOT
}
in_project() {   # dir, command...: run a tool script with FORK_ROOT=dir
    local dir=$1; shift
    FORK_ROOT=$dir "$@"
}
commit() {   # srcdir, feature ('' for none), message, file, content
    (
        cd "$1" && printf '%s' "$5" > "$4" && git add "$4" &&
        if [ -n "$2" ]; then git commit -q -m "$3" --trailer "Feature: $2"; else git commit -q -m "$3"; fi
    )
}
snapshot() { (cd "$1" && find patches -type f | sort | xargs sha256sum); }

echo "tooling tests"

# fetch ----------------------------------------------------------------
P=$WORK/p-fetch; new_project "$P"
out=$(RUBY_TARBALL=$WORK/bad.tar.xz in_project "$P" "$TOOL/fetch.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "sha256" <<<"$out" && [ -z "$(ls -A "$P/dist" 2>/dev/null)" ]; then
    ok "fetch refuses a tarball with the wrong sha256 and writes nothing"
else nok "fetch refuses a tarball with the wrong sha256 and writes nothing" "rc=$rc $out"; fi

out=$(RUBY_TARBALL=$WORK/missing.tar.xz in_project "$P" "$TOOL/fetch.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "does not exist" <<<"$out"; then ok "fetch names a missing RUBY_TARBALL"
else nok "fetch names a missing RUBY_TARBALL" "$out"; fi

out=$(RUBY_TARBALL=$WORK/mini-1.0.tar.xz in_project "$P" "$TOOL/fetch.sh" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(sha256sum < "$P/dist/mini-1.0.tar.xz" | cut -d' ' -f1)" = "$GOOD_SHA" ] &&
   [ "$(ls -A "$P/dist")" = "mini-1.0.tar.xz" ]; then
    ok "fetch copies a verified RUBY_TARBALL into dist/"
else nok "fetch copies a verified RUBY_TARBALL into dist/" "$out"; fi

printf 'corrupt' > "$P/dist/mini-1.0.tar.xz"
out=$(RUBY_TARBALL=$WORK/bad.tar.xz in_project "$P" "$TOOL/fetch.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && [ "$(cat "$P/dist/mini-1.0.tar.xz")" = corrupt ]; then
    ok "fetch with a bad RUBY_TARBALL leaves dist/ as it was"
else nok "fetch with a bad RUBY_TARBALL leaves dist/ as it was" "$out"; fi
rm -rf "$P/dist"

# No apt-get on PATH: a clear sentence pointing at RUBY_TARBALL.
mkdir -p "$WORK/noapt"
for c in bash sh env sha256sum cut mktemp cp mv rm chmod dirname cat sed awk tr id mkdir grep head tail ls; do
    ln -sf "$(command -v $c)" "$WORK/noapt/$c"
done
out=$(PATH=$WORK/noapt FORK_ROOT=$P "$WORK/noapt/bash" "$TOOL/fetch.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "apt-get is not installed.*RUBY_TARBALL" <<<"$out" && [ ! -e "$P/dist/mini-1.0.tar.xz" ]; then
    ok "fetch without apt-get says to use RUBY_TARBALL"
else nok "fetch without apt-get says to use RUBY_TARBALL" "$out"; fi

if command -v apt-get >/dev/null; then
    out=$(FORK_APT_URIS=http://127.0.0.1:9/debian in_project "$P" timeout 120 "$TOOL/fetch.sh" 2>&1); rc=$?
    if [ $rc -ne 0 ] && grep -q "could not read" <<<"$out" && [ ! -e "$P/dist/mini-1.0.tar.xz" ]; then
        ok "fetch from an unreachable mirror fails clearly and writes nothing"
    else nok "fetch from an unreachable mirror fails clearly and writes nothing" "$out"; fi
fi

# src, export, verify ----------------------------------------------------
P=$WORK/p; new_project "$P"
RUBY_TARBALL=$WORK/mini-1.0.tar.xz in_project "$P" "$TOOL/fetch.sh" >/dev/null
out=$(in_project "$P" "$TOOL/src.sh" 2>&1); rc=$?
S=$P/build/src
if [ $rc -eq 0 ] && [ "$(git -C "$S" rev-list --count HEAD)" = 1 ] &&
   [ "$(git -C "$S" describe --tags)" = upstream ] && cmp -s "$S/win.bat" "$WORK/up/mini-1.0/win.bat" &&
   [ -z "$(git -C "$S" status --porcelain)" ]; then
    ok "src makes the pristine tree the first commit, tagged upstream"
else nok "src makes the pristine tree the first commit, tagged upstream" "$out"; fi

commit "$S" base "Base change" README $'hello\nfork\n'
commit "$S" alpha "Alpha one" lib/a.txt $'line 1\nline two\nline 3\n'
commit "$S" alpha "Alpha two" lib/b.txt $'new file\n'
commit "$S" beta "Beta: a CRLF file" win.bat $'crlf 1\r\ncrlf two\r\n'
out=$(in_project "$P" "$TOOL/export.sh" 2>&1); rc=$?
series=$(grep -v '^#' "$P/patches/series" | tr '\n' ' ')
if [ $rc -eq 0 ] && [ "$series" = "base/0001-Base-change.patch alpha/0001-Alpha-one.patch alpha/0002-Alpha-two.patch beta/0001-Beta-a-CRLF-file.patch " ]; then
    ok "export writes one folder per feature and the series in commit order"
else nok "export writes one folder per feature and the series in commit order" "$series $out"; fi
hashes=$(grep -rhE '^From [0-9a-f]{40} ' "$P/patches" | grep -v '^From 0\{40\} ')
if [ -z "$hashes" ] && ! grep -rqE '^-- $' "$P/patches"; then
    ok "export writes no commit hashes and no signature"
else nok "export writes no commit hashes and no signature" "$hashes"; fi

before=$(snapshot "$P")
out=$(in_project "$P" "$TOOL/export.sh" 2>&1)
if [ "$(snapshot "$P")" = "$before" ] && grep -q "nothing changed" <<<"$out"; then
    ok "re-exporting unchanged commits changes no byte"
else nok "re-exporting unchanged commits changes no byte" "$out"; fi

out=$(in_project "$P" "$TOOL/verify.sh" 2>&1); rc=$?
if [ $rc -eq 0 ]; then ok "verify passes after export"; else nok "verify passes after export" "$out"; fi

# Round trip: rebuild build/src from the patches, export again: same bytes.
head_tree=$(git -C "$S" rev-parse 'HEAD^{tree}')
rm -rf "$S"
in_project "$P" "$TOOL/src.sh" >/dev/null 2>&1
in_project "$P" "$TOOL/export.sh" >/dev/null 2>&1
if [ "$(git -C "$S" rev-parse 'HEAD^{tree}')" = "$head_tree" ] && [ "$(snapshot "$P")" = "$before" ] &&
   [ "$(git -C "$S" describe --tags)" = beta ] && [ "$(git -C "$S" rev-list --count alpha..beta)" = 1 ] &&
   [ "$(git -C "$S" rev-list --count base..alpha)" = 2 ]; then
    ok "src then export round-trips byte for byte, with a tag per feature"
else nok "src then export round-trips byte for byte, with a tag per feature"; fi

# A rebase rewrites every commit after the one it changes: export moves
# each feature's tag to the feature's last commit of the new history.
(cd "$S" && git commit -q --amend --no-edit --date=2001-01-01T00:00:00Z &&
 GIT_SEQUENCE_EDITOR="sed -i '1s/^pick/reword/'" GIT_EDITOR="sed -i '1s/\$/ (reworded)/'" git rebase -q -i upstream) >/dev/null 2>&1
out=$(in_project "$P" "$TOOL/export.sh" 2>&1); rc=$?
if [ $rc -eq 0 ] && git -C "$S" merge-base --is-ancestor base HEAD && git -C "$S" merge-base --is-ancestor alpha HEAD &&
   [ "$(git -C "$S" rev-list --count base..alpha)" = 2 ] && [ "$(git -C "$S" describe --tags)" = beta ] &&
   grep -q "(reworded)" "$P"/patches/base/0001-*.patch; then
    ok "export moves the feature tags onto a rebased history"
else nok "export moves the feature tags onto a rebased history" "rc=$rc $out $(git -C "$S" log --oneline --decorate | head -5)"; fi
before=$(snapshot "$P")

# Work that is committed but not exported: verify names the file.
commit "$S" beta "Beta two" lib/a.txt $'line 1\nline two\nline three\n'
out=$(in_project "$P" "$TOOL/verify.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "lib/a.txt" <<<"$out"; then ok "verify fails naming a file that patches/ lacks"
else nok "verify fails naming a file that patches/ lacks" "$out"; fi
printf 'dirty\n' >> "$S/README"
out=$(in_project "$P" "$TOOL/export.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "uncommitted" <<<"$out"; then ok "export refuses uncommitted changes"
else nok "export refuses uncommitted changes" "$out"; fi
git -C "$S" checkout -q README
in_project "$P" "$TOOL/export.sh" >/dev/null 2>&1
out=$(in_project "$P" "$TOOL/verify.sh" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -f "$P/patches/beta/0002-Beta-two.patch" ]; then ok "export then verify after a new commit"
else nok "export then verify after a new commit" "$out"; fi

# A commit without a Feature trailer, and features out of order.
commit "$S" "" "No trailer" lib/c.txt $'c\n'
out=$(in_project "$P" "$TOOL/export.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "No trailer.*Feature" <<<"$out"; then ok "export refuses a commit without a Feature trailer"
else nok "export refuses a commit without a Feature trailer" "$out"; fi
git -C "$S" reset -q --hard HEAD^
commit "$S" alpha "Alpha after beta" lib/c.txt $'c\n'
out=$(in_project "$P" "$TOOL/export.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "Alpha after beta.*reorder" <<<"$out"; then ok "export refuses a feature split by another"
else nok "export refuses a feature split by another" "$out"; fi
git -C "$S" reset -q --hard HEAD^

# src refuses to throw away unexported work when patches/ changes.
commit "$S" beta "Unexported" lib/d.txt $'d\n'
printf '\n' >> "$P/patches/series"
out=$(in_project "$P" "$TOOL/src.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "not in patches" <<<"$out" && grep -q "not exported: .* Unexported" <<<"$out" &&
   [ -f "$S/lib/d.txt" ]; then
    ok "src refuses to discard unexported work, naming it"
else nok "src refuses to discard unexported work, naming it" "$out"; fi

# Updating in place keeps untouched files' timestamps (small rebuilds).
touch -d '2001-01-01' "$S/README"
out=$(FORCE=1 in_project "$P" "$TOOL/src.sh" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ ! -e "$S/lib/d.txt" ] && [ "$(date -r "$S/README" +%Y)" = 2001 ]; then
    ok "src FORCE=1 updates in place and leaves unchanged files alone"
else nok "src FORCE=1 updates in place and leaves unchanged files alone" "$out"; fi

# A patch that no longer applies is reported by name.
sed -i 's/^-line 2$/-line 2 changed upstream/' "$P/patches/alpha/0001-Alpha-one.patch"
out=$(in_project "$P" "$TOOL/src.sh" --into "$WORK/scratch" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "patch alpha/0001-Alpha-one.patch does not apply" <<<"$out"; then
    ok "a broken patch is reported by name"
else nok "a broken patch is reported by name" "$out"; fi
out=$(in_project "$P" "$TOOL/verify.sh" 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "alpha/0001-Alpha-one.patch" <<<"$out"; then ok "verify fails on a broken patch, naming it"
else nok "verify fails on a broken patch, naming it" "$out"; fi

# A make src that stops half way, and git processes beside it ------------
# A git on PATH in front of the real one: with SHIM_KILL="cmd n" it kills
# src.sh's whole process group (as ^C or a lost terminal would) when the
# n-th 'git cmd' starts; with SHIM_LOCK=n the n-th 'git am' finds the
# index locked by another git process for a second, as an editor's 'git
# status' or a gc would hold it.
REALGIT=$(command -v git)
mkdir -p "$WORK/shim"
cat > "$WORK/shim/git" <<EOT
#!/usr/bin/env bash
count() { local n=\$(( \$(cat "\$1" 2>/dev/null || echo 0) + 1 )); echo \$n > "\$1"; echo \$n; }
if [ -n "\${SHIM_KILL:-}" ] && [ "\$1" = "\${SHIM_KILL% *}" ] &&
   [ "\$(count "$WORK/shim/kill.\$1")" = "\${SHIM_KILL#* }" ]; then
    kill -KILL 0
fi
if [ -n "\${SHIM_LOCK:-}" ] && [ "\$1" = am ] && [ "\$(count "$WORK/shim/lock.am")" = "\$SHIM_LOCK" ]; then
    : > .git/index.lock
    (sleep 1; rm -f .git/index.lock) &
fi
exec "$REALGIT" "\$@"
EOT
chmod +x "$WORK/shim/git"
Q=$WORK/q; new_project "$Q"
RUBY_TARBALL=$WORK/mini-1.0.tar.xz in_project "$Q" "$TOOL/fetch.sh" >/dev/null
in_project "$Q" "$TOOL/src.sh" >/dev/null
QS=$Q/build/src
commit "$QS" alpha "Q one" lib/a.txt $'line 1\nline two\nline 3\n'
commit "$QS" alpha "Q two" lib/b.txt $'b\n'
commit "$QS" beta "Q three" lib/c.txt $'c\n'
in_project "$Q" "$TOOL/export.sh" >/dev/null
want=$(git -C "$QS" rev-parse 'HEAD^{tree}')

rm -rf "$QS"
(export SHIM_KILL="am 2"; rm -f "$WORK"/shim/kill.*; setsid --wait env PATH="$WORK/shim:$PATH" FORK_ROOT="$Q" "$TOOL/src.sh" >/dev/null 2>&1) 2>/dev/null
left=$([ -e "$QS" ] && echo "build/src exists")
out=$(in_project "$Q" "$TOOL/src.sh" 2>&1); rc=$?
if [ -z "$left" ] && [ $rc -eq 0 ] && [ "$(git -C "$QS" rev-parse 'HEAD^{tree}')" = "$want" ] &&
   [ -z "$(git -C "$QS" status --porcelain)" ] && [ ! -e "$Q/build/.src-new" ]; then
    ok "a first make src killed during git am leaves no build/src, and the next one makes it"
else nok "a first make src killed during git am leaves no build/src, and the next one makes it" "$left rc=$rc $out"; fi

# A tree an older src.sh left: applied in place, killed half way (no stamp).
rm -rf "$QS"
(rm -f "$WORK"/shim/kill.*; SHIM_KILL="am 2" setsid --wait env PATH="$WORK/shim:$PATH" FORK_ROOT="$Q" "$TOOL/src.sh" --into "$QS" >/dev/null 2>&1) 2>/dev/null
rm -f "$QS/.git/fork-stamp"
out=$(in_project "$Q" "$TOOL/src.sh" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "half made" <<<"$out" && [ "$(git -C "$QS" rev-parse 'HEAD^{tree}')" = "$want" ] &&
   [ -z "$(git -C "$QS" status --porcelain)" ] && ! grep -q "make export" <<<"$out"; then
    ok "a half-made build/src (no stamp, git am stopped) is made again, not called unexported work"
else nok "a half-made build/src (no stamp, git am stopped) is made again, not called unexported work" "rc=$rc $out"; fi

# An update of build/src killed while applying (in scratch), then while
# resetting build/src itself: each time the next make src finishes it.
for kill_at in "am 3" "reset 1"; do
    printf '# %s\n' "$kill_at" >> "$Q/patches/series"
    (rm -f "$WORK"/shim/kill.*; SHIM_KILL="$kill_at" setsid --wait env PATH="$WORK/shim:$PATH" FORK_ROOT="$Q" "$TOOL/src.sh" >/dev/null 2>&1) 2>/dev/null
    out=$(in_project "$Q" "$TOOL/src.sh" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$(git -C "$QS" rev-parse 'HEAD^{tree}')" = "$want" ] &&
       [ -z "$(git -C "$QS" status --porcelain)" ] && [ ! -e "$QS/.git/fork-updating" ] &&
       [ "$(git -C "$QS" describe --tags)" = beta ] &&
       in_project "$Q" "$TOOL/src.sh" 2>&1 | grep -q "up to date"; then
        ok "an update of build/src killed at '$kill_at' is finished by the next make src"
    else nok "an update of build/src killed at '$kill_at' is finished by the next make src" "rc=$rc $out"; fi
done

# Another git process holds the index while git am runs: src waits for it.
out=$(rm -f "$WORK"/shim/lock.*; SHIM_LOCK=2 PATH="$WORK/shim:$PATH" in_project "$Q" "$TOOL/src.sh" --into "$WORK/locked" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(git -C "$WORK/locked" rev-parse 'HEAD^{tree}')" = "$want" ] &&
   [ "$(cat "$WORK/shim/lock.am")" -gt 3 ]; then
    ok "an apply waits for a concurrent git process that holds the index"
else nok "an apply waits for a concurrent git process that holds the index" "rc=$rc $out"; fi

# No git work in the background: an upstream with more loose objects than
# gc.auto's 6,700 would have 'git commit' and 'git am' start a detached gc.
B=$WORK/big; new_project "$B"
mkdir -p "$WORK/upbig"
cp -r "$WORK/up/mini-1.0" "$WORK/upbig/"
(cd "$WORK/upbig/mini-1.0" && for d in $(seq 1 90); do mkdir "d$d"; for f in $(seq 1 100); do echo "$d $f" > "d$d/f$f"; done; done)
tar -C "$WORK/upbig" -cJf "$WORK/big.tar.xz" mini-1.0
sed -i "s/^SHA256=.*/SHA256=$(sha256sum "$WORK/big.tar.xz" | cut -d' ' -f1)/" "$B/UPSTREAM"
cp -r "$Q/patches" "$B/"
RUBY_TARBALL=$WORK/big.tar.xz in_project "$B" "$TOOL/fetch.sh" >/dev/null
out=$(in_project "$B" "$TOOL/src.sh" 2>&1); rc=$?
sleep 2
BS=$B/build/src
if [ $rc -eq 0 ] && [ -z "$(ls "$BS/.git/objects/pack")" ] && [ ! -e "$BS/.git/gc.pid" ] && [ ! -e "$BS/.git/gc.log" ] &&
   [ "$(git -C "$BS" config gc.auto)" = 0 ] && [ "$(git -C "$BS" config maintenance.auto)" = false ]; then
    ok "src starts no gc of its own (10,000 loose objects stay loose)"
else nok "src starts no gc of its own (10,000 loose objects stay loose)" "rc=$rc $(ls "$BS/.git/objects/pack" "$BS/.git") $out"; fi

# bootstraptest in child VMs (tool/mvm-bt), with the installed fork when there is one.
ROOT=$(cd "$TOOL/.." && pwd)
RUBY_MVM=${PREFIX:-$ROOT/_install}/bin/ruby
if [ -x "$RUBY_MVM" ] && [ -f "$ROOT/build/src/bootstraptest/runner.rb" ] &&
   "$RUBY_MVM" --disable-gems -e 'exit RubyVM.respond_to?(:main?)' 2>/dev/null; then
    mkdir -p "$WORK/bt"
    cat > "$WORK/bt/test_mvm_ok.rb" <<'EOT'
assert_equal 'ok', %q{print :ok}
assert_equal 'false', %q{print RubyVM.main?}
assert_equal '3', %q{$stderr.print "e"; STDOUT.print 1 + 2}
assert_normal_exit %q{exit 0}
EOT
    cat > "$WORK/bt/test_mvm_ng.rb" <<'EOT'
assert_equal 'ok', %q{print :ng}
EOT
    out=$(cd "$WORK/bt" && "$TOOL/mvm-bt/run.sh" "$RUBY_MVM" "$ROOT/build/src" test_mvm_ok.rb 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q "PASS all 4 tests" <<<"$out"; then ok "mvm-bt runs bootstraptest programs in child VMs"
    else nok "mvm-bt runs bootstraptest programs in child VMs" "$out"; fi
    out=$(cd "$WORK/bt" && "$TOOL/mvm-bt/run.sh" "$RUBY_MVM" "$ROOT/build/src" test_mvm_ng.rb 2>&1); rc=$?
    if [ $rc -ne 0 ] && grep -q "FAIL 1/1" <<<"$out"; then ok "mvm-bt reports a failing program"
    else nok "mvm-bt reports a failing program" "$out"; fi
else
    echo "  skip  mvm-bt: no installed fork with RubyVM.new ($RUBY_MVM)"
fi

echo "tools: $pass passed, $fail failed"
[ $fail -eq 0 ]
