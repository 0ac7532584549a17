#!/usr/bin/env bash
# make bench-vmstack-memory: seed 000's memory figures (tables 1 and 2,
# fig. 8) and the shrink after a spike, fork (linked) vs the copy and fixed
# layouts vs vanilla, into results/vmstack-*.md and .png.  Needs make,
# make vanilla, and builds of the copy and fixed layouts in $COPY and $FIXED
# (make vmstack-copy vmstack-fixed).
set -eu
cd "$(dirname "$0")/../.."
FORK=${FORK:-_install/bin/ruby}
COPY=${COPY:-build/_copy/bin/ruby}
FIXED=${FIXED:-build/_fixed/bin/ruby}
VANILLA=${VANILLA:-_vanilla/bin/ruby}
# vanilla last: run.rb takes the last ruby as the base of the ratios
R="--ruby fork=$FORK --ruby copy=$COPY --ruby fixed=$FIXED --only fork,copy,fixed --ruby vanilla=$VANILLA"
set -x
ruby benchmark/run.rb vmstack-table1 benchmark/vmstack/sleeping_threads.rb --runs 3 \
    --param THREADS=0,2000,4000,6000,8000,10000 $R --title "Seed 000 table 1: peak RSS of N sleeping threads"
ruby benchmark/run.rb vmstack-table2 benchmark/vmstack/depth_model.rb --runs 3 \
    --param MODEL=linear,exponential $R \
    --title "Seed 000 table 2: 1024 threads at the depths of the linear and exponential models"
ruby benchmark/run.rb vmstack-fig8 benchmark/vmstack/initial_size.rb --runs 2 \
    --param RUBY_THREAD_VM_STACK_INITIAL_SIZE=128,256,512,1024,2048,4096,8192,16384,65536,131072,262144,1048576 \
    --only fork --ruby fork=$FORK --logscale \
    --title "Seed 000 fig. 8: peak RSS of 10,000 sleeping threads against the initial VM stack size (linked)"
ruby benchmark/run.rb vmstack-fig8-copy benchmark/vmstack/initial_size.rb --runs 2 \
    --param RUBY_THREAD_VM_STACK_INITIAL_SIZE=128,256,512,1024,2048,4096,8192,16384,65536,131072,262144,1048576 \
    --only none --ruby copy=$COPY --logscale \
    --title "Seed 000 fig. 8: peak RSS of 10,000 sleeping threads against the initial VM stack size (copy)"
# The same maximum for all: vanilla's thread VM stack must hold 100,000 calls.
ruby benchmark/run.rb vmstack-shrink benchmark/vmstack/shrink.rb --runs 3 $R \
    --env RUBY_THREAD_VM_STACK_SIZE=67108864 --env DEPTH=100000 --env CYCLES=3 \
    --title "Shrink: a thread recursing 100,000 deep three times, RSS at start, at the first bottom, at the end"
ruby benchmark/vmstack/shrink_plot.rb results/vmstack-shrink-series.png \
    fork=$FORK copy=$COPY fixed=$FIXED vanilla=$VANILLA -- RUBY_THREAD_VM_STACK_SIZE=67108864 DEPTH=100000 CYCLES=3
