/*
 * A C ping-pong between two coroutines through a backend's
 * coroutine_transfer, with DEPTH C frames between each side's loop and the
 * transfer (Ruby has about six: fiber_setcontext, fiber_switch,
 * rb_fiber_m_resume, ... the VM).  Prints ns per round trip (two
 * switches).  Built against a build directory's Context.o by
 * benchmark/fiber/pingpong.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "Context.h"

static struct coroutine_context main_context, fiber_context;
static int depth;

__attribute__((noinline))
static void
transfer_at(int d, struct coroutine_context *from, struct coroutine_context *to)
{
    if (d > 0) {
        transfer_at(d - 1, from, to);
        __asm__ volatile ("" ::: "memory"); /* not a tail call */
    }
    else {
        coroutine_transfer(from, to);
    }
}

static COROUTINE
fiber_entry(struct coroutine_context *from, struct coroutine_context *self)
{
    for (;;) transfer_at(depth, self, from);
}

int
main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 5000000;
    size_t size = 256 * 1024;
    void *stack = aligned_alloc(4096, size);
    struct timespec t0, t1;

    depth = argc > 2 ? atoi(argv[2]) : 0;
    coroutine_initialize_main(&main_context);
    coroutine_initialize(&fiber_context, fiber_entry, stack, size);
    transfer_at(depth, &main_context, &fiber_context);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < count; i++) transfer_at(depth, &main_context, &fiber_context);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.1f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / count);
    return 0;
}
