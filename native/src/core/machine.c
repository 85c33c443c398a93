/* machine.c — what this machine charges for sharing memory between cores.
 *
 * A shared-tree parallel search (smitsimax_parallel.c, mcgs_parallel.c) writes counters that
 * the other threads read on their next pass, so each such node costs a
 * cache line moving between cores. How much that is depends on the machine
 * (two cores of one chiplet, two sockets, a VM's vCPUs), and it decides how
 * far shared trees scale on fast iterations: `bench --parallel` reports it
 * beside the scaling table. Measured as a ping-pong: two threads take
 * turns writing one counter, each waiting to see the other's write, so a
 * round trip is two line transfers (and the wake-up of a spinning load). */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity: the CPUs this process may use */
#include <sched.h>
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../include/sbx.h"
#include "common.h"

typedef struct pingpong {
    _Alignas(64) uint64_t turn; /* odd: the helper's move; even: the caller's */
    char pad[64 - sizeof(uint64_t)];
    int64_t round_trips;        /* timed ones; one more goes first, untimed */
    int stop;                   /* atomic: the caller gave up (time limit)  */
} pingpong;

/* A process with one CPU to run on passes the turn by preemption only (a
 * time slice per move): past this the caller stops and says so. */
#define LIMIT_MS 10000.0

static void *pong(void *arg) {
    pingpong *pp = arg;
    const uint64_t end = 2 * (uint64_t)(pp->round_trips + 1);
    for (uint64_t i = 1; i < end; i += 2) {
        for (uint32_t spin = 1; __atomic_load_n(&pp->turn, __ATOMIC_ACQUIRE) != i; spin++) {
            if ((spin & 0x3ff) == 0 && __atomic_load_n(&pp->stop, __ATOMIC_RELAXED)) return NULL;
        }
        __atomic_store_n(&pp->turn, i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* The cores online, at most SBX_MAX_THREADS (sbx.h): the most threads a
 * parallel search may ask for. */
int sbx_cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > SBX_MAX_THREADS ? SBX_MAX_THREADS : (int)n;
}

static int usable_cpus(void) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    return sbx_cores();
}

int sbx_line_transfer_ns(int64_t round_trips, double *out_ns) {
    if (out_ns == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out_ns is NULL");
    if (round_trips < 1 || round_trips > 100000000) {
        return sbx_fail(SBX_ERR_ARGUMENT, "round_trips: %lld is outside 1..100000000",
                        (long long)round_trips);
    }
    if (usable_cpus() < 2) {
        return sbx_fail(SBX_ERR_STATE, "line transfer: needs two cores this process may use");
    }
    static pingpong pp; /* static: the aligned line, and no stack lines near it */
    static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&busy); /* one measurement at a time per process */
    pp.turn = 0;
    pp.stop = 0;
    pp.round_trips = round_trips;
    pthread_t t;
    if (pthread_create(&t, NULL, pong, &pp) != 0) {
        pthread_mutex_unlock(&busy);
        return sbx_fail(SBX_ERR_STATE, "line transfer: could not start a thread");
    }
    /* Round trip 0 is untimed: it waits for the helper to start. The clock
     * is read in every wait that spins long and every 1,024 round trips,
     * so a run slow on every move stops too. */
    const double start = sbx_now_ms();
    double t0 = start;
    const uint64_t end = 2 * (uint64_t)(round_trips + 1);
    int late = 0;
    for (uint64_t i = 0; i <= end && !late; i += 2) {
        for (uint32_t spin = 1; __atomic_load_n(&pp.turn, __ATOMIC_ACQUIRE) != i; spin++) {
            if ((spin & 0xffff) == 0 && sbx_now_ms() - start > LIMIT_MS) {
                late = 1;
                break;
            }
        }
        if (i == 2) t0 = sbx_now_ms(); /* the helper has answered once */
        if ((i & 0x7ff) == 0 && i > 2 && sbx_now_ms() - start > LIMIT_MS) late = 1;
        if (i < end && !late) __atomic_store_n(&pp.turn, i + 1, __ATOMIC_RELEASE);
    }
    const double ms = sbx_now_ms() - t0;
    __atomic_store_n(&pp.stop, 1, __ATOMIC_RELAXED);
    pthread_join(t, NULL);
    pthread_mutex_unlock(&busy);
    if (late) {
        return sbx_fail(SBX_ERR_STATE,
                        "line transfer: not done in %.0f s (do the two threads have a core "
                        "each?)", LIMIT_MS / 1000.0);
    }
    *out_ns = ms * 1e6 / (2.0 * (double)round_trips);
    return SBX_OK;
}

/* ------------------------------------------------------------ AVX2 */

int sbx_avx2_usable(const char **why) {
    const char *reason = "scalar (not an x86-64 build)";
    int on = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    const char *off = getenv("SBX_NO_AVX2");
    if (off && *off && strcmp(off, "0") != 0) {
        reason = "scalar (SBX_NO_AVX2)";
    } else {
        __builtin_cpu_init();
        on = __builtin_cpu_supports("avx2") != 0;
        reason = on ? "avx2" : "scalar (no AVX2)";
    }
#endif
    if (why) *why = reason;
    return on;
}
