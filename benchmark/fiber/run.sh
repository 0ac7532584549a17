#!/usr/bin/env bash
# make bench-fiber: seed 002's figs. 4-11 and seed 001's tables 2-4 with
# fibers, on the fork (default backend, amd64), its sjlj and ucontext
# backends, the fork without the stack cache (RUBY_FIBER_STACK_CACHE=0,
# upstream's pool) and with the paper's 10 stacks, and vanilla 3.3.8, into
# results/fiber-*.md and .png.  Needs make, make vanilla, make fiber-sjlj
# fiber-ucontext.  FIGS picks some of them: FIGS="4 10 queue" (default: all of
# 4 6 8 10 queue pingpong).
set -eu
cd "$(dirname "$0")/../.."
FORK=${FORK:-_install/bin/ruby}
SJLJ=${SJLJ:-build/_sjlj/bin/ruby}
UCONTEXT=${UCONTEXT:-build/_ucontext/bin/ruby}
VANILLA=${VANILLA:-_vanilla/bin/ruby}
# Rubies with an environment of their own are wrappers (run.rb's --env is
# for every ruby).
mkdir -p build/bench
wrap() { # name ruby VAR=value
    printf '#!/bin/sh\nexec env %s %s "$@"\n' "$3" "$(realpath "$2")" > "build/bench/$1"
    chmod +x "build/bench/$1"
}
wrap ruby-cache0 "$FORK" RUBY_FIBER_STACK_CACHE=0
wrap ruby-cache10 "$FORK" RUBY_FIBER_STACK_CACHE=10
FIGS=${FIGS:-4 6 8 10 queue pingpong}
skip() { case " $FIGS " in *" $1 "*) return 1;; esac; return 0; } # unless FIGS names it
BACKENDS="--ruby fork=$FORK --ruby sjlj=$SJLJ --ruby ucontext=$UCONTEXT --only fork,sjlj,ucontext --ruby vanilla=$VANILLA"
set -x
skip 4 || ruby benchmark/run.rb fiber-fig4 benchmark/fiber/switch_depth.rb --runs 9 \
    --param DEPTH=0,10,25,50,100 --env COUNT=500000 $BACKENDS --plot ns_per_switch \
    --title "Seed 002 figs. 4/5: ns per resume+yield against the machine stack depth (nested 1.times)"
skip 6 || ruby benchmark/run.rb fiber-fig6 benchmark/fiber/create.rb --runs 5 \
    --param BATCH=1,3,10,30,100,300,1000 --env TOTAL=200000 --logscale \
    --ruby fork=$FORK --ruby fork-cache10=build/bench/ruby-cache10 --ruby fork-cache0=build/bench/ruby-cache0 \
    --ruby sjlj=$SJLJ --only fork,fork-cache10,fork-cache0,sjlj --ruby vanilla=$VANILLA \
    --plot first_us --plot cached_us \
    --title "Seed 002 figs. 6/7: us per fiber created and run to its end, in batches (first and cached, seed 001 table 2)"
skip 8 || ruby benchmark/run.rb fiber-fig8 benchmark/fiber/live.rb --runs 3 \
    --param COUNT=10000,100000,1000000 --logscale \
    --ruby fork=$FORK --ruby sjlj=$SJLJ --only fork,sjlj --ruby vanilla=$VANILLA \
    --plot fibers --plot kb_per_fiber \
    --title "Seed 002 figs. 8/9: live suspended fibers (GC disabled): how many, and RSS per fiber"
skip 10 || ruby benchmark/run.rb fiber-fig10 benchmark/fiber/echo.rb --runs 5 \
    --param RECURSIVE=0,100 --env ECHOES=1000000 --env CONNECTIONS=64 --env TIME_LIMIT=60 \
    $BACKENDS --plot us_per_echo \
    --title "Seed 002 figs. 10/11: select-based echo server, a fiber per connection, 64 connections, 1,000,000 echoes"
skip queue || ruby benchmark/run.rb fiber-queue benchmark/fiber/queue.rb --runs 9 --env COUNT=200000 \
    $BACKENDS \
    --title "Seed 001 tables 3/4 with fibers: Thread::Queue push+pop, and a value handed between two fibers"
skip pingpong || {
    echo "# The backends' coroutine_transfer alone: a C ping-pong"
    echo
    echo "- command: \`benchmark/fiber/pingpong.sh\` (RUNS=${RUNS:-7}); \`benchmark/fiber/pingpong.c\` linked against"
    echo "  each build directory's Context.o; 2,000,000 round trips (200,000 for ucontext)"
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); source: $(git -C build/src describe --always 2>/dev/null || echo unknown)"
    echo "- ns per round trip (two switches), median (min-max), with DEPTH C frames between each"
    echo "  side's loop and the switch"
    echo
    RUNS=${RUNS:-7} benchmark/fiber/pingpong.sh
} > results/fiber-pingpong.md
