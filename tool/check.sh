#!/usr/bin/env bash
# make check: the tooling's tests, MRI's `make test`, `make test-all` (-j2)
# and `make test-spec` on the fork's build, and the drop-in checks on the
# installed ruby.  Prints each suite's counts and ends with one line
# "N passed, N failed, N skipped" summing all suites; fails if any fails.
#
#   CHECK_SUITES="tools test test-all test-spec dropin"  which suites to run
#   OBJ=build/obj PREFIX=_install                        which build to test
#   TEST_JOBS=2                                          test-all's and bootstraptest's -j
#   TESTOPTS=... MSPECOPT=...                            passed through
#   TESTS=... (test-all) BTESTS=... (bootstraptest files) which tests to run
#   RUN_OPTS=...                                         the tested ruby's options
#                                                        in test and test-all (e.g. YJIT's)
#
# Known failures that also happen on vanilla 3.3.8 here are listed, each
# with its reason, in test/exclusions.txt; they are skipped by name only.
. "$(dirname "$0")/common.sh"

OBJ=${OBJ:-$BUILD/obj}
case $OBJ in /*) ;; *) OBJ=$FORK_ROOT/$OBJ ;; esac
PREFIX=${PREFIX:-$FORK_ROOT/_install}
SUITES=${CHECK_SUITES:-tools test test-all test-spec dropin}
TEST_JOBS=${TEST_JOBS:-2}
EXCLUSIONS=${CHECK_EXCLUSIONS:-$FORK_ROOT/test/exclusions.txt}   # /dev/null: skip nothing
LOGS=${CHECK_LOGS:-$BUILD/check}
mkdir -p "$LOGS"
LOGS=$(cd "$LOGS" && pwd)   # the suites run in $OBJ

[ -f "$OBJ/Makefile" ] || die "$OBJ is not a configured build; run 'make' first."

# test/exclusions.txt: "<suite> <name> -- <reason>", '#' comments.
exclusions() {   # suite -> "name<TAB>reason" lines
    [ -f "$EXCLUSIONS" ] || return 0
    sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$EXCLUSIONS" |
        awk -v s="$1" '$1 == s { sub(/^[^ \t]+[ \t]+/, ""); sub(/[ \t]+--[ \t]+/, "\t"); print }'
}

# test-all: one excludes file per test class, as MRI's --excludes-dir wants.
excludes_dir=$LOGS/excludes
rm -rf "$excludes_dir"
mkdir -p "$excludes_dir"
while IFS=$'\t' read -r name reason; do
    [ -n "$name" ] || continue
    class=${name%%#*} method=${name#*#}
    [ "$class" != "$name" ] || die "test/exclusions.txt: test-all entry '$name' is not Class#method"
    mkdir -p "$excludes_dir/$(dirname "${class//:://}")"
    printf 'exclude(:%s, %s)\n' "$method" "$(printf '%s' "$reason" | ruby -e 'print STDIN.read.dump')" \
        >> "$excludes_dir/${class//:://}.rb"
done < <(exclusions test-all)

# test-spec: mspec -E excludes examples whose description contains the text.
mspec_excludes=""
while IFS=$'\t' read -r name _; do
    [ -n "$name" ] || continue
    case $name in *"'"*) die "test/exclusions.txt: test-spec entry may not contain a single quote: $name" ;; esac
    mspec_excludes+=" -E '$name'"
done < <(exclusions test-spec)

declare -A P F S RAW
status=0
record() {   # suite passed failed skipped raw rc
    P[$1]=$2 F[$1]=$3 S[$1]=$4 RAW[$1]=$5
    if [ "$6" != 0 ] || [ "$3" != 0 ]; then
        status=1
        echo "*** $1 FAILED (exit $6); log: $7"
    fi
}

# Our own scripts end with "<suite>: N passed, N failed".
record_own() {   # suite rc log
    local line p f
    line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$3" | tail -1)
    p=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$line"); f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    record "$1" "${p:-0}" "${f:-1}" 0 "${line:-no summary line}" "$2" "$3"
}

run_suite() {   # suite log command...
    local suite=$1 log=$2
    shift 2
    echo
    echo "=== $suite: ${SUITE_LABEL:-$*}"
    local t0=$SECONDS
    set +e
    "$@" > "$log" 2>&1 < /dev/null
    local rc=$?
    set -e
    # The counts, and what failed; the whole output is in the log.
    grep -aE '^(PASS all|FAIL [0-9]|[0-9]+ (tests|files?), |  (ok|FAIL) |[a-z]+: [0-9]+ passed)' "$log" || true
    grep -aE -A1 '^ *[0-9]+\) (Failure|Error):' "$log" | grep -avE '^(--|.*\) (Failure|Error):)$' | head -40 || true
    [ $rc = 0 ] || { echo "--- last lines of $log:"; tail -25 "$log"; }
    echo "=== $suite finished in $((SECONDS - t0)) s (exit $rc)"
    return $rc
}

for suite in $SUITES; do
    log=$LOGS/$suite.log
    case $suite in
    tools)
        rc=0; run_suite tools "$log" "$TOOLDIR/test/run.sh" || rc=$?
        record_own tools "$rc" "$log"
        ;;
    test)
        rc=0; run_suite test "$log" make -C "$OBJ" test TESTOPTS="${BTESTOPTS:--j$TEST_JOBS}" ${BTESTS:+BTESTS="$BTESTS"} \
            ${RUN_OPTS:+RUN_OPTS="$RUN_OPTS"} || rc=$?
        # bootstraptest: "PASS all N tests" or "FAIL m/N tests failed".
        line=$(grep -E '^(PASS all [0-9]+ tests|FAIL [0-9]+/[0-9]+ tests failed)' "$log" | head -1)
        if [[ $line =~ ^PASS\ all\ ([0-9]+) ]]; then p=${BASH_REMATCH[1]} f=0
        elif [[ $line =~ ^FAIL\ ([0-9]+)/([0-9]+) ]]; then f=${BASH_REMATCH[1]} p=$((BASH_REMATCH[2] - BASH_REMATCH[1]))
        else p=0 f=1; fi
        basic=$(grep -c '^test succeeded' "$log" || true)
        record test "$((p + basic))" "$f" 0 "bootstraptest: ${line:-no summary}; test-basic: $basic" "$rc" "$log"
        ;;
    test-all)
        rc=0; run_suite test-all "$log" make -C "$OBJ" test-all \
            TESTOPTS="-j$TEST_JOBS --excludes-dir=$excludes_dir ${TESTOPTS:-}" ${TESTS:+TESTS="$TESTS"} \
            ${RUN_OPTS:+RUN_OPTS="$RUN_OPTS"} || rc=$?
        line=$(grep -E '^[0-9]+ tests, [0-9]+ assertions, [0-9]+ failures, [0-9]+ errors, [0-9]+ skips' "$log" | tail -1)
        if [[ $line =~ ^([0-9]+)\ tests,\ [0-9]+\ assertions,\ ([0-9]+)\ failures,\ ([0-9]+)\ errors,\ ([0-9]+)\ skips ]]; then
            t=${BASH_REMATCH[1]} fl=${BASH_REMATCH[2]} er=${BASH_REMATCH[3]} sk=${BASH_REMATCH[4]}
            record test-all "$((t - fl - er - sk))" "$((fl + er))" "$sk" "$line" "$rc" "$log"
        else
            record test-all 0 1 0 "no summary line" "$rc" "$log"
        fi
        ;;
    test-spec)
        n_spec_excl=$(exclusions test-spec | grep -c . || true)
        rc=0; SUITE_LABEL="make -C $OBJ test-spec MSPECOPT=\"<$n_spec_excl -E exclusions> ${MSPECOPT:-}\"" \
            run_suite test-spec "$log" make -C "$OBJ" test-spec MSPECOPT="$mspec_excludes ${MSPECOPT:-}" || rc=$?
        line=$(grep -E '^[0-9]+ files?, [0-9]+ examples?, [0-9]+ expectations?, [0-9]+ failures?, [0-9]+ errors?, [0-9]+ tagged' "$log" | tail -1)
        if [[ $line =~ ^[0-9]+\ files?,\ ([0-9]+)\ examples?,\ [0-9]+\ expectations?,\ ([0-9]+)\ failures?,\ ([0-9]+)\ errors? ]]; then
            t=${BASH_REMATCH[1]} fl=${BASH_REMATCH[2]} er=${BASH_REMATCH[3]}
            record test-spec "$((t - fl - er))" "$((fl + er))" 0 "$line" "$rc" "$log"
        else
            record test-spec 0 1 0 "no summary line" "$rc" "$log"
        fi
        ;;
    dropin)
        rc=0; run_suite dropin "$log" "$FORK_ROOT/test/dropin.sh" "$PREFIX" || rc=$?
        record_own dropin "$rc" "$log"
        ;;
    *)
        die "unknown suite '$suite' in CHECK_SUITES (tools test test-all test-spec dropin)"
        ;;
    esac
done

echo
echo "=== summary ($("$PREFIX/bin/ruby" -v 2>/dev/null || echo "no ruby in $PREFIX"))"
printf '%-10s %8s %8s %8s   %s\n' suite passed failed skipped "suite's own count"
tp=0 tf=0 ts=0
for suite in $SUITES; do
    printf '%-10s %8s %8s %8s   %s\n' "$suite" "${P[$suite]}" "${F[$suite]}" "${S[$suite]}" "${RAW[$suite]}"
    tp=$((tp + P[$suite])) tf=$((tf + F[$suite])) ts=$((ts + S[$suite]))
done
n_excl=$( (exclusions test-all; exclusions test-spec) | grep -c . || true)
echo "($n_excl known failures of vanilla 3.3.8 skipped by name: test/exclusions.txt)"
echo "$tp passed, $tf failed, $ts skipped"
exit $status
