#!/usr/bin/env bash
# make check-asan: the fork built with gcc's -fsanitize=address,undefined
# (build/obj-asan, installed into build/_asan; no YJIT, whose Rust code the
# sanitizers do not see), running MRI's bootstraptest, the fork's own tests of
# test-all (VM stack, fibers, MVM, Channels, heap), the MVM soak and a slice of
# test-all in child VMs.  Every process writes what the sanitizers report to
# build/check-asan/reports/; the check fails on a report that test/exclusions.txt
# does not list (suite "asan", the report's kind and its first frame in the
# tree: what vanilla 3.3.8 built the same way reports too), and on a failing
# suite.
#
#   ASAN_SRC=build/src        the tree to build (build/vanilla/src: vanilla's)
#   ASAN_OBJ=build/obj-asan ASAN_PREFIX=build/_asan
#   ASAN_SUITES="test test-all soak mvm-test-all"
#   ASAN_TESTS=...            test-all's files (default: the list below)
#   ASAN_LOGS=build/check-asan
#   ASAN_EXCLUSIONS=test/exclusions.txt (/dev/null: report everything)
. "$(dirname "$0")/common.sh"

SRC=${ASAN_SRC:-$BUILD/src}
OBJ=${ASAN_OBJ:-$BUILD/obj-asan}
PREFIX=${ASAN_PREFIX:-$BUILD/_asan}
LOGS=${ASAN_LOGS:-$BUILD/check-asan}
SUITES=${ASAN_SUITES:-test test-all soak mvm-test-all}
EXCLUSIONS=${ASAN_EXCLUSIONS:-$FORK_ROOT/test/exclusions.txt}
case $SRC in /*) ;; *) SRC=$FORK_ROOT/$SRC ;; esac
case $OBJ in /*) ;; *) OBJ=$FORK_ROOT/$OBJ ;; esac
case $PREFIX in /*) ;; *) PREFIX=$FORK_ROOT/$PREFIX ;; esac
case $LOGS in /*) ;; *) LOGS=$FORK_ROOT/$LOGS ;; esac
reports=$LOGS/reports
rm -rf "$reports"
mkdir -p "$reports"

# Leaks are not checked: ruby frees little at exit by design (memcheck's
# make check-mvm-valgrind measures what VMs leave behind).  ASan's own
# alternate signal stack would replace the one each thread of ruby carves
# for its stack overflow handler.  A sanitizer's report goes to a file of
# the process that made it, and the process goes on: UBSan's by default,
# ASan's as built with -fsanitize-recover=address (halt_on_error=0), so
# that a report test/exclusions.txt lists (vanilla's) does not end a test
# worker and the files after it.
# An ODR violation is reported only between globals of different sizes:
# erb/escape and cgi/escape, both named escape, each define their own
# ruby_mvm_safe_escape, by design.
san="log_path=$reports/report:log_exe_name=1:detect_leaks=0:use_sigaltstack=0:handle_segv=0:allow_user_segv_handler=1"
export ASAN_OPTIONS="$san:halt_on_error=0:detect_stack_use_after_return=0:strict_string_checks=0:detect_odr_violation=1"
export UBSAN_OPTIONS="$san:print_stacktrace=1:report_error_type=1"

# -O1 keeps the runs short and the reports exact enough; the frame pointer
# gives the stacks.  Without M:N threads (USE_MN_THREADS=0), as upstream
# builds for ASan: their switches between stacks are not told to ASan, which
# then reports false errors on every thread's stack.  Without UBSan's
# alignment check: ruby reads unaligned words where the CPU allows it, on
# purpose (UNALIGNED_WORD_ACCESS: siphash, string search, packed catch
# tables), and gcc's UBSan writes its reports to stderr whatever log_path
# says, where tests that compare a child's stderr would fail on them.
"$TOOLDIR/build.sh" "$SRC" "$OBJ" "$PREFIX" --disable-yjit --disable-install-doc \
    "cppflags=-fsanitize=address,undefined -fsanitize-recover=address -fno-sanitize=alignment -fno-omit-frame-pointer -DUSE_MN_THREADS=0" \
    optflags=-O1 "LDFLAGS=-fsanitize=address,undefined"
rm -f "$reports"/*   # the build's own runs of miniruby

# The fork's own test files (vanilla's tree lacks some; they are left out
# there), and upstream's that work the same parts hardest.
TESTS_ASAN=${ASAN_TESTS:-"ruby/test_vm_stack.rb ruby/test_fiber_stack.rb ruby/test_fiber.rb fiber
  ruby/test_rubyvm_mvm.rb ruby/test_rubyvm_child.rb ruby/test_rubyvm_channel.rb
  ruby/test_rubyvm_process.rb ruby/test_rubyvm_cwd.rb ruby/test_rubyvm_ext.rb -ext-/vm
  ruby/test_gc_arena.rb ruby/test_gc_whole_page.rb ruby/test_gc.rb ruby/test_gc_compact.rb
  ruby/test_thread.rb ruby/test_stack.rb ruby/test_continuation.rb ruby/test_enumerator.rb"}
tests=""
for t in $TESTS_ASAN; do [ -e "$SRC/test/$t" ] && tests+="$t "; done
# The child VMs' slice: files whose tests exercise what VMs share.
MVM_TA_ASAN=${MVM_TA_ASAN:-test/ruby/test_array.rb test/ruby/test_hash.rb test/ruby/test_string.rb \
  test/ruby/test_env.rb test/ruby/test_signal.rb test/ruby/test_io.rb test/ruby/test_thread_queue.rb}

status=0
for suite in $SUITES; do
    echo
    case $suite in
    test|test-all)
        OBJ=$OBJ PREFIX=$PREFIX CHECK_SUITES=$suite TESTS="$tests" \
            CHECK_LOGS=$LOGS/$suite CHECK_EXCLUSIONS=$EXCLUSIONS "$TOOLDIR/check.sh" || status=1
        ;;
    soak)
        echo "=== soak: tool/mvm-soak.rb 20 4"
        "$PREFIX/bin/ruby" "$FORK_ROOT/tool/mvm-soak.rb" 20 4 > "$LOGS/soak.log" 2>&1 || { status=1; tail -20 "$LOGS/soak.log"; }
        tail -3 "$LOGS/soak.log"
        ;;
    mvm-test-all)
        echo "=== mvm-test-all: $MVM_TA_ASAN"
        ( cd "$OBJ" && R="$OBJ/miniruby -I$SRC/lib -I. -I.ext/common $SRC/tool/runruby.rb --extout=.ext -- --disable-gems" &&
          $R "$FORK_ROOT/tool/mvm-test-all/run.rb" -j 2 --ruby="$R" "$SRC" $(for f in $MVM_TA_ASAN; do echo "$SRC/$f"; done)
        ) > "$LOGS/mvm-test-all.log" 2>&1 || { status=1; tail -20 "$LOGS/mvm-test-all.log"; }
        tail -3 "$LOGS/mvm-test-all.log"
        ;;
    *) die "unknown suite '$suite' in ASAN_SUITES (test test-all soak mvm-test-all)" ;;
    esac
done

echo
# (the reader's own reports, if any, go beside the directory it reads)
ASAN_OPTIONS=detect_leaks=0:log_path=$LOGS/reader UBSAN_OPTIONS=log_path=$LOGS/reader \
    "$PREFIX/bin/ruby" "$TOOLDIR/asan-reports.rb" "$reports" "$EXCLUSIONS" "$SRC" "$LOGS" 2> "$LOGS/reader.err" |
    tee "$LOGS/reports.txt"
[ "${PIPESTATUS[0]}" = 0 ] || status=1
exit $status
