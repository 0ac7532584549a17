# The fork's driver.  `make` builds and installs the fork; `make check`
# tests it.  Everything below build/, dist/, _install/ and _vanilla/ is made,
# never committed.  See README.md.

SHELL          := /bin/bash
PREFIX         ?= $(CURDIR)/_install
VANILLA_PREFIX ?= $(CURDIR)/_vanilla
JOBS           ?= $(shell nproc)
# Extra configure arguments for the fork's build (e.g. --with-vm-stack=copy).
CONFIGURE_ARGS ?=
OBJ            ?= build/obj

comma := ,
# The debug and sjlj builds exist for their checks: they leave out YJIT and
# the extensions that neither bootstraptest nor their test files load, to
# shorten their cold builds.  CHECK_BUILD_ARGS= builds everything (needed for
# DEBUG_TESTS=all or SJLJ_TESTS=all).
CHECK_BUILD_ARGS ?= --disable-yjit --with-out-ext=openssl,ripper,nkf,psych,bigdecimal,syslog,win32ole

export JOBS PREFIX VANILLA_PREFIX

.PHONY: all deps fetch src build install vanilla check check-vanilla check-tools check-slow \
        check-vmstack-debug check-shared check-asan check-asan-vanilla check-yjit check-mvm-soak check-mvm-valgrind check-mvm-embed check-mvm-gems check-mvm-test-all export verify bench bench-quick bench-vmstack bench-vmstack-memory bench-vmstack-icount vmstack-fixed vmstack-copy \
        fiber-sjlj fiber-ucontext check-fiber-sjlj bench-fiber bench-mvm bench-heap bench-channel \
        clean distclean help

all: deps fetch src build
	@echo "installed: $(PREFIX)/bin/ruby"
	@$(PREFIX)/bin/ruby -v

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## make              deps, fetch, src, configure, build, install; prints ruby -v
## make deps         install build and test dependencies with apt-get
deps:
	@tool/deps.sh

## make fetch        get the pinned tarball into dist/ (RUBY_TARBALL=path to use a copy)
fetch:
	@tool/fetch.sh

## make src          create or update build/src from the tarball and patches/series
src: fetch
	@tool/src.sh

## make build        configure (out of tree, in build/obj), build and install into PREFIX
build install: src
	@tool/build.sh build/src $(OBJ) $(PREFIX) $(CONFIGURE_ARGS)

## make vanilla      build pristine 3.3.8, same flags, into _vanilla/ (for comparisons)
vanilla: fetch
	@tool/vanilla.sh $(VANILLA_PREFIX)

## make check        tooling tests, MRI's test, test-all, test-spec, drop-in checks
check: build
	@tool/check.sh

## make check-vanilla  MRI's suites on _vanilla's build, nothing excluded (to vet test/exclusions.txt)
check-vanilla: vanilla
	@OBJ=build/vanilla/obj PREFIX=$(VANILLA_PREFIX) CHECK_SUITES="test test-all test-spec" \
	  CHECK_EXCLUSIONS=/dev/null CHECK_LOGS=build/check-vanilla tool/check.sh

## make check-vmstack-debug  build with --enable-vm-stack-debug (build/obj-debug); run MRI's
##                   bootstraptest with RUBY_VM_STACK_DEBUG=protect,move (protect is slow;
##                   see doc/vm_stack.md in the tree), then test-all's DEBUG_TESTS (default
##                   test/ruby) with DEBUG_MODE (default move); DEBUG_TESTS= skips that,
##                   DEBUG_TESTS=all DEBUG_MODE=protect,move is the whole of test-all;
##                   DEBUG_LAYOUT=copy checks the copy layout instead of linked
# protect costs two mprotect calls per frame push: the two JIT torture tests
# (a million calls each, 5 minutes each with protect) and the ractor tests
# (8 ractors allocating in parallel, over 10 minutes) run with move only.
BTESTS_MOVE_ONLY = $(wildcard build/src/bootstraptest/test_yjit_30k_*.rb) build/src/bootstraptest/test_ractor.rb
BTESTS_PROTECT = $(filter-out $(BTESTS_MOVE_ONLY),$(wildcard build/src/bootstraptest/test_*.rb))
DEBUG_TESTS ?= ruby
# DEBUG_TESTS=vmstack: the files of test/ruby that work the VM stack hardest (deep
# recursion, frames held across calls, fibers, threads, non-local exits, tracing, C
# methods that yield); check-slow runs these.
DEBUG_TESTS_VMSTACK = $(addprefix ruby/test_,vm_stack.rb stack.rb fiber.rb thread.rb \
    exception.rb proc.rb method.rb call.rb keyword.rb eval.rb backtrace.rb settracefunc.rb \
    iterator.rb enumerator.rb lazy_enumerator.rb continuation.rb super.rb yield.rb \
    lambda.rb gc.rb array.rb hash.rb enum.rb rubyvm_mvm.rb)
DEBUG_MODE ?= move
# Subprocess and worker timeouts, for the debug modes' own slowness only.
DEBUG_TIMEOUT_SCALE ?= 4
# DEBUG_LAYOUT=copy checks the copy layout (build/obj-debug-copy).
DEBUG_LAYOUT ?= linked
DEBUG_SUFFIX = $(if $(filter-out linked,$(DEBUG_LAYOUT)),-$(DEBUG_LAYOUT))
DEBUG_OBJ = build/obj-debug$(DEBUG_SUFFIX)
DEBUG_PREFIX = build/_debug$(DEBUG_SUFFIX)
DEBUG_LOGS = build/check-vmstack-debug$(DEBUG_SUFFIX)
check-vmstack-debug: src
	@tool/build.sh build/src $(DEBUG_OBJ) $(DEBUG_PREFIX) --enable-vm-stack-debug \
	  $(if $(filter-out linked,$(DEBUG_LAYOUT)),--with-vm-stack=$(DEBUG_LAYOUT)) \
	  $(CHECK_BUILD_ARGS) $(CONFIGURE_ARGS)
	@RUBY_VM_STACK_DEBUG=protect,move OBJ=$(DEBUG_OBJ) PREFIX=$(DEBUG_PREFIX) \
	  BTESTS="$(abspath $(BTESTS_PROTECT))" CHECK_SUITES="test" \
	  CHECK_LOGS=$(DEBUG_LOGS)/protect-move tool/check.sh
	@RUBY_VM_STACK_DEBUG=move OBJ=$(DEBUG_OBJ) PREFIX=$(DEBUG_PREFIX) \
	  BTESTS="$(abspath $(BTESTS_MOVE_ONLY))" CHECK_SUITES="test" \
	  CHECK_LOGS=$(DEBUG_LOGS)/move tool/check.sh
	@if [ -n "$(DEBUG_TESTS)" ]; then \
	  RUBY_VM_STACK_DEBUG=$(DEBUG_MODE) RUBY_TEST_TIMEOUT_SCALE=$(DEBUG_TIMEOUT_SCALE) \
	  OBJ=$(DEBUG_OBJ) PREFIX=$(DEBUG_PREFIX) \
	  $(if $(filter all,$(DEBUG_TESTS)),,TESTS="$(if $(filter vmstack,$(DEBUG_TESTS)),$(DEBUG_TESTS_VMSTACK),$(DEBUG_TESTS))") \
	  CHECK_SUITES="test-all" \
	  CHECK_LOGS=$(DEBUG_LOGS)/$(subst $(comma),-,$(DEBUG_MODE))-test-all tool/check.sh; fi

## make check-shared  the fork built as distributions build it, --enable-shared (build/obj-shared,
##                   installed into build/_shared): make check's suites (CHECK_SUITES) on it, then
##                   the example embedder linked to its libruby.so (check-mvm-embed's RSS check
##                   with EMBED_SHARED_VMS (1000) VMs)
SHARED_OBJ = build/obj-shared
SHARED_PREFIX = build/_shared
EMBED_SHARED_VMS ?= 1000
check-shared: src
	@tool/build.sh build/src $(SHARED_OBJ) $(SHARED_PREFIX) --enable-shared $(CONFIGURE_ARGS)
	@OBJ=$(SHARED_OBJ) PREFIX=$(SHARED_PREFIX) CHECK_LOGS=build/check-shared tool/check.sh
	@tool/mvm-embed-rss.sh $(SHARED_PREFIX) $(EMBED_SHARED_VMS) 100

## make check-asan  the fork built with gcc's -fsanitize=address,undefined (build/obj-asan, no YJIT,
##                   no M:N threads; tool/check-asan.sh): bootstraptest, the fork's own test files
##                   of test-all and upstream's that work the same parts, the MVM soak and a slice
##                   of test-all in child VMs; fails on a failing suite or on a sanitizer report
##                   that test/exclusions.txt does not list (ASAN_SUITES= some of "test test-all
##                   soak mvm-test-all"); check-asan-vanilla: the same on vanilla 3.3.8
check-asan: src
	@tool/check-asan.sh

check-asan-vanilla: fetch
	@tool/vanilla.sh --src-only
	@ASAN_SRC=build/vanilla/src ASAN_OBJ=build/vanilla/obj-asan ASAN_PREFIX=build/_vanilla-asan \
	  ASAN_LOGS=build/check-asan-vanilla ASAN_SUITES="test test-all" ASAN_EXCLUSIONS=/dev/null tool/check-asan.sh

## make check-slow  what CI leaves out for its time (README, "CI"): check-mvm-gems,
##                   test-all's files that touch what VMs share, each in a child VM
##                   (MVM_TA_FILES_SHARED), the VM stack's debug modes
##                   (check-vmstack-debug DEBUG_TESTS=vmstack), check-fiber-sjlj and the
##                   whole of test-all under YJIT (check-yjit YJIT_TESTS=all)
MVM_TA_FILES_SHARED = test/ruby/test_env.rb test/ruby/test_signal.rb test/ruby/test_process.rb \
    test/ruby/test_io.rb test/ruby/test_io_m17n.rb test/ruby/test_encoding.rb \
    test/ruby/test_transcode.rb test/ruby/test_gc.rb test/ruby/test_gc_compact.rb \
    test/ruby/test_thread.rb test/ruby/test_thread_queue.rb test/ruby/test_fiber.rb \
    test/-ext-/thread test/test_pty.rb test/ruby/test_rubyvm_process.rb
check-slow:
	@$(MAKE) --no-print-directory check-mvm-gems
	@$(MAKE) --no-print-directory check-mvm-embed
	@$(MAKE) --no-print-directory check-mvm-test-all MVM_TA_FILES="$(MVM_TA_FILES_SHARED)"
	@$(MAKE) --no-print-directory check-vmstack-debug DEBUG_TESTS=vmstack
	@$(MAKE) --no-print-directory check-fiber-sjlj
	@$(MAKE) --no-print-directory check-yjit YJIT_TESTS=all

## make check-yjit  YJIT on the fork's build, as upstream's CI runs it (YJIT_RUN_OPTS,
##                   --yjit-call-threshold=1): MRI's test (bootstraptest) and test-all's
##                   YJIT_TESTS: YJIT's own, the VM stack's (deep recursion, fibers, threads,
##                   non-local exits) and the MVM tests with YJIT in the first VM;
##                   YJIT_TESTS=all is the whole of test-all; CI runs it
YJIT_RUN_OPTS ?= --yjit-call-threshold=1
YJIT_TESTS ?= ruby/test_yjit.rb ruby/test_yjit_exit_locations.rb $(DEBUG_TESTS_VMSTACK) \
    ruby/test_rubyvm.rb ruby/test_rubyvm_child.rb \
    ruby/test_rubyvm_channel.rb ruby/test_rubyvm_yjit.rb
check-yjit: build
	@$(PREFIX)/bin/ruby --yjit -e 'exit RubyVM::YJIT.enabled?' 2>/dev/null || \
	  { echo "error: $(PREFIX)/bin/ruby has no YJIT: configure found no rustc >= 1.58 (make deps installs one)" >&2; exit 1; }
	@RUN_OPTS="$(YJIT_RUN_OPTS)" CHECK_SUITES="test test-all" \
	  $(if $(filter all,$(YJIT_TESTS)),,TESTS="$(YJIT_TESTS)") \
	  CHECK_LOGS=build/check-yjit tool/check.sh

## make check-tools  only the tooling's own tests
check-tools:
	@tool/test/run.sh

## make check-mvm-bootstraptest  bootstraptest with every program in a child VM of one process
##                   (tool/mvm-bt; MVM_BT_FILES=... to run some files, MVM_BT_JOBS the
##                   runner's -j, 2); CI runs it
MVM_BT_FILES ?= $(wildcard build/src/bootstraptest/test_*.rb)
# the runner's -j: one client starts while the server runs another's program (one
# at a time, as ENV and the working directory are the process's)
MVM_BT_JOBS ?= 2
check-mvm-bootstraptest: build
	@tool/mvm-bt/run.sh $(PREFIX)/bin/ruby build/src -j$(MVM_BT_JOBS) $(MVM_BT_FILES)

## make check-mvm-soak  SOAK_VMS (4) child VMs for SOAK_SECS (60) seconds, each mixing ENV,
##                   requires, Symbols, encodings, GC, threads and signals while the first VM
##                   makes short VMs (tool/mvm-soak.rb); CI runs it for 10 s
SOAK_SECS ?= 60
SOAK_VMS ?= 4
check-mvm-soak: build
	@$(PREFIX)/bin/ruby tool/mvm-soak.rb $(SOAK_SECS) $(SOAK_VMS)

## make check-mvm-valgrind  VALGRIND_VMS (1000) child VMs created and joined under memcheck
##                   with RUBY_FREE_AT_EXIT=1: no invalid access, and no definitely-lost bytes
##                   that grow with the number of VMs (tool/mvm-valgrind.sh)
VALGRIND_VMS ?= 1000
check-mvm-valgrind: build
	@tool/mvm-valgrind.sh $(PREFIX)/bin/ruby $(VALGRIND_VMS)

## make check-mvm-embed  a C program that embeds ruby (test/embed/vm_embed.c in the tree,
##                   built with pkg-config by tool/embed.sh): VALGRIND_VMS (1000) VMs made, run
##                   and freed under memcheck (as check-mvm-valgrind judges them), then the
##                   RSS after EMBED_RSS_VMS (10000) within 1 MB of the RSS after 100
EMBED_RSS_VMS ?= 10000
check-mvm-embed: build
	@tool/mvm-valgrind.sh --embed $(PREFIX) $(VALGRIND_VMS)
	@tool/mvm-embed-rss.sh $(PREFIX) $(EMBED_RSS_VMS) 100

## make check-mvm-gems  msgpack and oj from RubyGems, built for this ruby into build/gems,
##                   used by two child VMs at once (each loads a private copy of their shared
##                   objects), and the bundled gems' extensions (tool/mvm-gems.rb); CI runs it
MVM_GEMS ?= msgpack oj
check-mvm-gems: build
	@$(PREFIX)/bin/gem install --no-document --install-dir build/gems $(MVM_GEMS) >/dev/null
	@GEM_HOME=$(CURDIR)/build/gems $(PREFIX)/bin/ruby tool/mvm-gems.rb

## make check-mvm-test-all  test-all with each file in a child VM of one long-lived process,
##                   MVM_TA_JOBS (2) VMs at a time (tool/mvm-test-all/run.rb); the tests that
##                   cannot run in a child by design are in tool/mvm-test-all/exclusions.txt;
##                   MVM_TA_FILES (test) names files or directories of the tree; CI runs a slice
MVM_TA_JOBS ?= 2
MVM_TA_FILES ?= test
check-mvm-test-all: build
	@cd $(OBJ) && R="$$PWD/miniruby -I$(CURDIR)/build/src/lib -I. -I.ext/common $(CURDIR)/build/src/tool/runruby.rb --extout=.ext -- --disable-gems" && \
	  $$R $(CURDIR)/tool/mvm-test-all/run.rb -j $(MVM_TA_JOBS) --ruby="$$R" $(CURDIR)/build/src \
	    $(addprefix $(CURDIR)/build/src/,$(MVM_TA_FILES))

## make export       write build/src's commits to patches/
export:
	@tool/export.sh

## make verify       prove tarball + patches/series rebuild build/src HEAD exactly
verify: fetch
	@tool/verify.sh

## make bench        full benchmark/ suite, fork vs vanilla -> results/benchmark-suite.md
bench: build vanilla
	@benchmark/suite.sh full

## make bench-quick  a small subset of the suite, for iteration
bench-quick: build vanilla
	@benchmark/suite.sh quick

## make bench-vmstack  seed 000 figs. 10-13: the suite's app_, so_ and vm_ files on the fork
##                     (first VM stacks small, and as large as the maximum), on the copy and
##                     fixed layouts (build/_copy, build/_fixed), and on vanilla
##                     -> results/vmstack-suite.md (benchmark/vmstack/run.rb, as the two below)
VMSTACK_FIXED ?= $(CURDIR)/build/_fixed
vmstack-fixed:
	@$(MAKE) --no-print-directory build OBJ=build/obj-fixed PREFIX=$(VMSTACK_FIXED) \
	    CONFIGURE_ARGS=--with-vm-stack=fixed
## make vmstack-copy  the copy layout (method 1) into build/_copy
VMSTACK_COPY ?= $(CURDIR)/build/_copy
vmstack-copy:
	@$(MAKE) --no-print-directory build OBJ=build/obj-copy PREFIX=$(VMSTACK_COPY) \
	    CONFIGURE_ARGS=--with-vm-stack=copy
VMSTACK_RUN = FORK=$(PREFIX)/bin/ruby VANILLA=$(VANILLA_PREFIX)/bin/ruby COPY=$(VMSTACK_COPY)/bin/ruby \
    FIXED=$(VMSTACK_FIXED)/bin/ruby $(VANILLA_PREFIX)/bin/ruby benchmark/vmstack/run.rb
bench-vmstack: build vanilla vmstack-fixed vmstack-copy
	@$(VMSTACK_RUN) suite

## make bench-vmstack-memory  seed 000 tables 1-2, fig. 8 and the shrink after a spike
##                     (fork, copy and fixed layouts, vanilla) -> results/vmstack-*.md, .png
bench-vmstack-memory: build vanilla vmstack-fixed vmstack-copy
	@$(VMSTACK_RUN) table1 table2 fig8 shrink

## make bench-vmstack-icount  the same files' instructions per iteration, counted by valgrind
##                     (fork, copy and fixed vs vanilla; noise-free, unlike times; 1-2 hours)
##                     -> results/vmstack-icount.md
bench-vmstack-icount: build vanilla vmstack-fixed vmstack-copy
	@$(VMSTACK_RUN) icount --jobs $(JOBS)

## make fiber-sjlj   the sjlj coroutine backend (--with-coroutine=sjlj) into build/_sjlj
FIBER_SJLJ ?= $(CURDIR)/build/_sjlj
fiber-sjlj:
	@$(MAKE) --no-print-directory build OBJ=build/obj-sjlj PREFIX=$(FIBER_SJLJ) \
	    CONFIGURE_ARGS="--with-coroutine=sjlj $(CHECK_BUILD_ARGS)"
## make fiber-ucontext  upstream's ucontext backend, for comparison, into build/_ucontext
FIBER_UCONTEXT ?= $(CURDIR)/build/_ucontext
fiber-ucontext:
	@$(MAKE) --no-print-directory build OBJ=build/obj-ucontext PREFIX=$(FIBER_UCONTEXT) \
	    CONFIGURE_ARGS=--with-coroutine=ucontext

## make check-fiber-sjlj  MRI's bootstraptest and the fiber tests of test-all on the sjlj
##                   backend; SJLJ_TESTS=all runs the whole of test-all
SJLJ_TESTS ?= ruby/test_fiber.rb ruby/test_fiber_stack.rb fiber ruby/test_enumerator.rb \
    ruby/test_continuation.rb
check-fiber-sjlj: fiber-sjlj
	@OBJ=build/obj-sjlj PREFIX=$(FIBER_SJLJ) CHECK_SUITES="test test-all" \
	  $(if $(filter all,$(SJLJ_TESTS)),,TESTS="$(SJLJ_TESTS)") \
	  CHECK_LOGS=build/check-fiber-sjlj tool/check.sh

## make bench-fiber  seed 002 figs. 4-11 and seed 001 tables 2-4 with fibers: the fork (amd64),
##                   its sjlj and ucontext backends, the fork without the stack cache,
##                   and vanilla -> results/fiber-*.md, .png (benchmark/fiber/run.rb; about 25 minutes;
##                   FIGS="fig4 fig10" for some)
bench-fiber: build vanilla fiber-sjlj fiber-ucontext
	@FORK=$(PREFIX)/bin/ruby SJLJ=$(FIBER_SJLJ)/bin/ruby UCONTEXT=$(FIBER_UCONTEXT)/bin/ruby \
	    VANILLA=$(VANILLA_PREFIX)/bin/ruby $(VANILLA_PREFIX)/bin/ruby benchmark/fiber/run.rb $(FIGS)

## make bench-mvm    seed 004 table 2, the split of a VM's start and GC beside other VMs
##                   -> results/mvm-*.md, .png (benchmark/mvm/run.rb)
bench-mvm: build vanilla
	@for fig in "table2 --runs 3 --n 500" "split --runs 3" "gc --runs 5"; do \
	    FORK=$(PREFIX)/bin/ruby VANILLA=$(VANILLA_PREFIX)/bin/ruby \
	    $(VANILLA_PREFIX)/bin/ruby benchmark/mvm/run.rb $$fig || exit 1; done

## make bench-heap   seed 003 fig. 4 and the spike's memory given back
##                   -> results/heap-*.md, .png (figs. 5 and 7 need root and a cgroup:
##                   results/heap.md gives their commands)
bench-heap: build vanilla
	@FORK=$(PREFIX)/bin/ruby VANILLA=$(VANILLA_PREFIX)/bin/ruby \
	    $(VANILLA_PREFIX)/bin/ruby benchmark/heap/run.rb fig4 --runs 9 --n 50000000 --temp float
	@FORK=$(PREFIX)/bin/ruby VANILLA=$(VANILLA_PREFIX)/bin/ruby \
	    $(VANILLA_PREFIX)/bin/ruby benchmark/heap/spike_run.rb --runs 3 --mb 1024 --idle 30 --on fiber

## make bench-channel  seed 004 section 5: table 3, figs. 8-10, throughput, HTTP, RSS
##                   -> results/channel-*.md, .png (benchmark/channel/run.rb; about 40 minutes;
##                   FIGS="fig9" for some)
bench-channel: build vanilla
	@FORK=$(PREFIX)/bin/ruby VANILLA=$(VANILLA_PREFIX)/bin/ruby \
	    $(VANILLA_PREFIX)/bin/ruby benchmark/channel/run.rb $(FIGS)

## make clean        remove build/ (keeps dist/, _install/, _vanilla/)
clean:
	rm -rf build

distclean: clean
	rm -rf dist _install _vanilla
