#!/usr/bin/env bash
# Child VMs under valgrind's memcheck: N VMs created and joined, the process
# ended with RUBY_FREE_AT_EXIT=1 so that the first VM frees what it has too.
# Fails on any invalid read, write or free (memcheck's errors, leaks aside),
# and when the bytes definitely lost grow with the number of VMs: it runs
# SMALL VMs and N VMs and compares.
#
#   tool/mvm-valgrind.sh RUBY [N=1000] [SMALL=10]
#   tool/mvm-valgrind.sh --embed PREFIX [N=1000] [SMALL=10]
#
# With --embed, the VMs are those of a C program that embeds PREFIX's ruby
# (test/embed/vm_embed.c, built by tool/embed.sh): N create/run/destruct
# cycles of ruby/vm.h on one thread of the program.
. "$(dirname "$0")/common.sh"

embed=
if [ "${1:-}" = --embed ]; then embed=1; shift; fi
ruby=${1:?usage: tool/mvm-valgrind.sh [--embed] RUBY|PREFIX [N] [SMALL]}
n=${2:-1000}
small=${3:-10}
command -v valgrind >/dev/null || die "valgrind is not installed (make deps)"
out=$(mktemp -d "${TMPDIR:-/tmp}/mvm-valgrind.XXXXXX")
trap 'rm -rf "$out"' EXIT
if [ -n "$embed" ]; then
    "$TOOLDIR/embed.sh" "$ruby" "$out/vm_embed" || exit 1
fi

# a VM that makes a thread, a fiber and a Symbol, and requires an MVM-safe
# extension: what a child's end must give back
code='
n = Integer(ARGV[0])
child = %q{Thread.new { 1 }.join; Fiber.new { Fiber.yield 1 }.resume; "s#{rand}".to_sym; require "stringio"}
n.times { |i| RubyVM.new("v#{i}", "--disable-gems", "-e", child).start.join == 0 or abort "VM #{i} failed" }
'

lost() {
    sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$1" | tr -d , | tail -1
}

run() {
    local count=$1 log=$out/memcheck-$1.log
    local cmd=("$ruby" --disable-gems -e "$code" "$count")
    if [ -n "$embed" ]; then
        echo "==> memcheck: $count VMs made, run and freed by a program that embeds ruby" >&2
        cmd=("$out/vm_embed" 1 "$count")
    else
        echo "==> memcheck: $count VMs created and joined" >&2
    fi
    RUBY_FREE_AT_EXIT=1 RUBY_MVM_PREBOOT=0 valgrind --tool=memcheck --leak-check=full \
        --errors-for-leak-kinds=none --error-exitcode=99 --num-callers=30 \
        --suppressions="$FORK_ROOT/tool/mvm-valgrind.supp" \
        --log-file="$log" "${cmd[@]}" >&2
    local rc=$?
    grep -E "ERROR SUMMARY|definitely lost|indirectly lost" "$log" >&2
    if [ $rc -ne 0 ]; then
        sed -n '/^==[0-9]*== \(Invalid\|Mismatched\|Conditional\|Syscall\|Source and destination\)/,/^==[0-9]*== $/p' "$log" | head -80 >&2
        cp "$log" "${TMPDIR:-/tmp}/mvm-valgrind-$count.log"
        die "memcheck found errors with $count VMs (exit $rc); log: ${TMPDIR:-/tmp}/mvm-valgrind-$count.log"
    fi
    lost "$log"
}

a=$(run "$small") || exit 1
b=$(run "$n") || exit 1
a=${a:-0}; b=${b:-0}
per=$(( (b - a) / (n - small) ))
echo "definitely lost: ${a} B with $small VMs, ${b} B with $n VMs: $per B per VM"
# a few bytes per VM would be rounding of a constant: anything above 8 B a VM grows
[ $(( b - a )) -le $(( 8 * (n - small) )) ] || die "definitely-lost bytes grow with the number of VMs ($per B per VM)"
echo "==> no invalid access, and nothing lost per VM"
