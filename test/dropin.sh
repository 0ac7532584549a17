#!/usr/bin/env bash
# Drop-in checks on an installed ruby: the commands people run every day,
# the bundled gems with C extensions, and a C-extension gem built and
# installed with RubyGems against it.
#
#   test/dropin.sh [PREFIX]     (default: _install/)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${1:-${PREFIX:-$ROOT/_install}}
BIN=$PREFIX/bin
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fork-dropin.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Nothing from the caller's environment may pick another ruby or gem home.
unset RUBYOPT RUBYLIB GEM_HOME GEM_PATH BUNDLE_GEMFILE BUNDLE_PATH
export HOME=$WORK/home
mkdir -p "$HOME"

# As a user of this ruby would have it: its bin/ first on PATH.
export PATH=$BIN:$PATH

pass=0 fail=0
# check description regexp command...: passes when the command exits 0 and
# its output matches.  Its standard input is $STDIN (empty by default).
STDIN=
check() {
    local what=$1 want=$2 out
    shift 2
    out=$(printf '%s' "$STDIN" | "$@" 2>&1)
    local rc=$?
    STDIN=
    if [ $rc -eq 0 ] && grep -qE -- "$want" <<<"$out"; then
        pass=$((pass + 1)); echo "  ok    $what"
    else
        fail=$((fail + 1)); echo "  FAIL  $what (exit $rc)"; sed 's/^/        /' <<<"$out" | tail -15
    fi
}

echo "drop-in checks on $PREFIX"
check "ruby -v carries the fork marker" '^ruby 3\.3\.8 .* \+fork\[[^]]*\] .*\[x86_64-linux\]$' "$BIN/ruby" -v
check "ruby runs a script" '^42$' "$BIN/ruby" -e 'puts [6, 7].inject(:*)'
check "RbConfig names the install prefix" "^$PREFIX\$" "$BIN/ruby" -rrbconfig -e 'puts RbConfig::CONFIG["prefix"]'
check "ruby --yjit compiles" '^\+YJIT true 6765$' "$BIN/ruby" --yjit --yjit-call-threshold=1 \
    -e 'def f(n) = n < 2 ? n : f(n - 1) + f(n - 2); puts [RUBY_DESCRIPTION[/\+YJIT/], RubyVM::YJIT.enabled?, f(20)].join(" ")'
check "RUBY_YJIT_ENABLE=1 turns YJIT on" '^true$' env RUBY_YJIT_ENABLE=1 "$BIN/ruby" -e 'p RubyVM::YJIT.enabled?'
check "RubyVM::YJIT.enable" '^false true$' "$BIN/ruby" -e 'a = RubyVM::YJIT.enabled?; RubyVM::YJIT.enable; puts "#{a} #{RubyVM::YJIT.enabled?}"'
check "gem works" '^3\.' "$BIN/gem" --version
STDIN=$'puts 6 * 7\n'
check "irb evaluates its input" '^42$' "$BIN/irb" -f --noprompt --noecho --no-pager
check "bundle works" 'Bundler version 2\.' "$BIN/bundle" --version
check "erb, rake, rdoc, ri are installed" 'ok' bash -c "for c in erb rake rdoc ri racc rbs rdbg; do [ -x '$BIN'/\$c ] || { echo missing \$c; exit 1; }; done; echo ok"
check "bundled gems debug, rbs, racc are installed" '^debug [0-9.]+ racc [0-9.]+ rbs [0-9.]+$' \
    "$BIN/ruby" -e 'puts %w[debug rbs racc].map { |g| s = Gem::Specification.find_by_name(g); "#{g} #{s.version}" }.sort.join(" ")'
check "debug's C extension loads" '^ok$' "$BIN/ruby" -e 'gem "debug"; require "debug/frame_info"; require "debug/debug.so"; DEBUGGER__.respond_to?(:capture_frames) and puts :ok'
check "the debugger stops and evaluates" '^=> 420$' "$BIN/ruby" -e 'require "debug"; x = 6 * 7; binding.break(do: "p x * 10")'
check "racc's C extension parses" '^ok$' "$BIN/ruby" -e 'require "racc/cparse"; puts(Racc::Parser::Racc_Runtime_Core_Version_C ? :ok : :ng)'
check "rbs's C extension parses" '^Integer$' "$BIN/ruby" -e 'require "rbs"; puts RBS::Parser.parse_type("Integer").to_s'
check "default gems' C extensions load" '^ok$' "$BIN/ruby" -e 'require "openssl"; require "psych"; require "zlib"; require "fiddle"; require "date"; require "json"; require "ripper"; puts :ok'
check "openssl does a SHA-256" '^9f86d081' "$BIN/ruby" -ropenssl -e 'puts OpenSSL::Digest::SHA256.hexdigest("test")'
# A C program that embeds this ruby and owns VMs (ruby/vm.h), built with pkg-config:
# four threads of its own make, run and free 25 VMs each (doc/mvm.md in the tree)
check "a C program embeds VMs (test/embed/vm_embed.c, pkg-config)" '^ok: 102 VMs on 4 threads$' \
    bash -c "'$ROOT/tool/embed.sh' '$PREFIX' '$WORK/vm_embed' && '$WORK/vm_embed' 4 25"

# A Gemfile with a path gem, resolved and run without any network.
mkdir -p "$WORK/app/vendor/hello/lib"
cat > "$WORK/app/vendor/hello/hello.gemspec" <<'EOT'
Gem::Specification.new { |s| s.name = "hello"; s.version = "1.0"; s.summary = "hi"; s.authors = ["x"]; s.files = ["lib/hello.rb"] }
EOT
echo 'module Hello; def self.hi = "hi from bundler"; end' > "$WORK/app/vendor/hello/lib/hello.rb"
printf 'gem "hello", path: "vendor/hello"\n' > "$WORK/app/Gemfile"
check "bundle install --local and bundle exec" '^hi from bundler$' \
    bash -c "cd '$WORK/app' && '$BIN/bundle' install --local --quiet && '$BIN/bundle' exec ruby -e 'require \"hello\"; puts Hello.hi'"

# The C-extension gem kept in test/cext-gem.
cp -r "$ROOT/test/cext-gem" "$WORK/cext"
check "gem build of a C-extension gem" 'forkcheck-0\.1\.0\.gem' bash -c "cd '$WORK/cext' && '$BIN/gem' build forkcheck.gemspec"
check "gem install --local compiles it" 'Successfully installed forkcheck' \
    "$BIN/gem" install --local --no-document --install-dir "$WORK/gems" "$WORK/cext/forkcheck-0.1.0.gem"
check "the C extension runs" '^6 \[2, 4, 6\] \+fork' env GEM_HOME="$WORK/gems" GEM_PATH="$WORK/gems" \
    "$BIN/ruby" -e 'require "forkcheck"; print Forkcheck.sum([1, 2, 3]), " ", Forkcheck.map(1..3) { |x| x * 2 }.inspect, " ", Forkcheck.description[/\+fork/], "\n"'

echo "dropin: $pass passed, $fail failed"
[ $fail -eq 0 ]
