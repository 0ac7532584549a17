/*
 * The host's own round trips between two threads, the physical limits of a
 * figure that crosses threads (a Channel's, a Queue's, a Ractor's):
 *
 *   spin  two threads answer each other through one shared word, each
 *         spinning until the word says its turn (the fastest a round trip
 *         can be: about two cache-line transfers);
 *   cond  the same over a mutex and two condition variables, each side
 *         sleeping until woken (a futex wake-up and a scheduler's switch).
 *
 * Hosts of one kind differ here by an order of magnitude (a few us to 29 us
 * for cond), so every figure that crosses threads prints these beside it.
 *
 *   cc -O2 -pthread -o hostrt benchmark/lib/hostrt.c
 *   hostrt [ROUNDS [TRIPS]]   -> "spin_us=0.52 cond_us=27.8" (medians of
 *                                ROUNDS, default 5, of TRIPS round trips)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic long turn;   /* spin: odd = the answerer's turn */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t to_answerer = PTHREAD_COND_INITIALIZER, to_asker = PTHREAD_COND_INITIALIZER;
static long cturn;           /* cond: the same, under lock */
static long trips;

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *
spin_answerer(void *arg)
{
    for (long i = 0; i < trips; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
    }
    return arg;
}

static double
spin_round(void)
{
    pthread_t t;
    atomic_store(&turn, 0);
    pthread_create(&t, NULL, spin_answerer, NULL);
    double t0 = now();
    for (long i = 0; i < trips; i++) {
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    double t1 = now();
    pthread_join(t, NULL);
    return (t1 - t0) / trips * 1e6;
}

static void *
cond_answerer(void *arg)
{
    pthread_mutex_lock(&lock);
    for (long i = 0; i < trips; i++) {
        while (cturn != 2 * i + 1) pthread_cond_wait(&to_answerer, &lock);
        cturn = 2 * i + 2;
        pthread_cond_signal(&to_asker);
    }
    pthread_mutex_unlock(&lock);
    return arg;
}

static double
cond_round(void)
{
    pthread_t t;
    cturn = 0;
    pthread_create(&t, NULL, cond_answerer, NULL);
    double t0 = now();
    pthread_mutex_lock(&lock);
    for (long i = 0; i < trips; i++) {
        cturn = 2 * i + 1;
        pthread_cond_signal(&to_answerer);
        while (cturn != 2 * i + 2) pthread_cond_wait(&to_asker, &lock);
    }
    pthread_mutex_unlock(&lock);
    double t1 = now();
    pthread_join(t, NULL);
    return (t1 - t0) / trips * 1e6;
}

static int
cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double
median(double (*round)(void), int rounds)
{
    double v[rounds];
    for (int i = 0; i < rounds; i++) v[i] = round();
    qsort(v, rounds, sizeof(v[0]), cmp);
    return rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;
}

int
main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    long n = argc > 2 ? atol(argv[2]) : 20000;
    if (rounds < 1 || rounds > 1000 || n < 1) {
        fprintf(stderr, "usage: %s [ROUNDS [TRIPS]]\n", argv[0]);
        return 2;
    }
    trips = n;
    double spin = median(spin_round, rounds);
    trips = n / 10 > 0 ? n / 10 : 1;   /* a sleep each way: fewer, they are slow */
    double cond = median(cond_round, rounds);
    printf("spin_us=%.2f cond_us=%.2f\n", spin, cond);
    return 0;
}
