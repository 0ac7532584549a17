/* What a fresh page costs on this machine: 4 MiB of anonymous memory
 * touched a 4 KiB page at a time, three times (munmap'd between), again
 * after MADV_DONTNEED, and in 2 MiB huge pages (MADV_HUGEPAGE) where the
 * kernel allows them.  Free growth's floor is 4 MiB (gc.c).
 *
 *   cc -O2 -o /tmp/fault_cost benchmark/heap/fault_cost.c && taskset -c 0 /tmp/fault_cost
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

#define SIZE ((size_t)4 << 20)
#define HUGE ((size_t)2 << 20)

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
touch(char *p)
{
    double t = now();
    for (size_t i = 0; i < SIZE; i += 4096) p[i] = 1;
    return (now() - t) * 1e3;
}

int
main(void)
{
    for (int round = 0; round < 3; round++) {
        char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 1;
        double fresh = touch(p), again = touch(p), dontneed;
        madvise(p, SIZE, MADV_DONTNEED);
        dontneed = touch(p);
        munmap(p, SIZE);
        printf("4 KiB pages: fresh %.2f ms (%.2f us a page), touched again %.2f ms, after MADV_DONTNEED %.2f ms\n",
               fresh, fresh * 1e3 / (SIZE / 4096), again, dontneed);
    }
#ifdef MADV_HUGEPAGE
    for (int round = 0; round < 3; round++) {
        char *map = mmap(NULL, SIZE + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) return 1;
        char *p = (char *)(((uintptr_t)map + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
        int advised = madvise(p, SIZE, MADV_HUGEPAGE) == 0;
        printf("2 MiB pages%s: fresh %.2f ms\n", advised ? "" : " (not allowed: 4 KiB)", touch(p));
        munmap(map, SIZE + HUGE);
    }
#endif
    return 0;
}
