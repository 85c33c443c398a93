/* machine.c — what the machine charges for sharing memory between cores.
 *
 * A shared-tree parallel search (smitsimax.c, mcgs.c) writes counters that
 * the other threads read on their next pass, so each such node costs a
 * cache line moving between cores. How much that is depends on the machine
 * (two cores of one chiplet, two sockets, a VM's vCPUs), and it decides how
 * far shared trees scale on fast iterations: `bench --parallel` reports it
 * beside the scaling table. Measured as a ping-pong: two threads take
 * turns writing one counter, each waiting to see the other's write, so a
 * round trip is two line transfers (and the wake-up of a spinning load). */
#define _GNU_SOURCE /* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "../../include/sbx.h"
#include "common.h"

typedef struct pingpong {
    _Alignas(64) uint64_t turn; /* odd: the helper's move; even: the caller's */
    char pad[64 - sizeof(uint64_t)];
    int64_t round_trips;
    int stop; /* atomic: the caller gave up (see the time limit) */
} pingpong;

/* A process allowed one CPU would pass the turn by preemption only (a time
 * slice per move): the caller stops after this long and says so. */
#define LIMIT_MS 10000.0

static void *pong(void *arg) {
    pingpong *pp = arg;
    const uint64_t end = 2 * (uint64_t)pp->round_trips;
    for (uint64_t i = 1; i < end; i += 2) {
        for (uint32_t spin = 1; __atomic_load_n(&pp->turn, __ATOMIC_ACQUIRE) != i; spin++) {
            if ((spin & 0xffff) == 0 && __atomic_load_n(&pp->stop, __ATOMIC_RELAXED)) return NULL;
        }
        __atomic_store_n(&pp->turn, i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

int sbx_line_transfer_ns(int64_t round_trips, double *out_ns) {
    if (out_ns == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out_ns is NULL");
    if (round_trips < 1 || round_trips > 100000000) {
        return sbx_fail(SBX_ERR_ARGUMENT, "round_trips: %lld is outside 1..100000000",
                        (long long)round_trips);
    }
    cpu_set_t set;
    if (sbx_cores() < 2 ||
        (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) < 2)) {
        return sbx_fail(SBX_ERR_STATE, "line transfer: needs two cores this process may use");
    }
    static pingpong pp; /* static: the aligned line, and no stack lines near it */
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&once); /* one measurement at a time per process */
    pp.turn = 0;
    pp.stop = 0;
    pp.round_trips = round_trips;
    pthread_t t;
    if (pthread_create(&t, NULL, pong, &pp) != 0) {
        pthread_mutex_unlock(&once);
        return sbx_fail(SBX_ERR_STATE, "line transfer: could not start a thread");
    }
    const double t0 = sbx_now_ms();
    const uint64_t end = 2 * (uint64_t)round_trips;
    int late = 0;
    for (uint64_t i = 0; i <= end && !late; i += 2) {
        for (uint32_t spin = 1; __atomic_load_n(&pp.turn, __ATOMIC_ACQUIRE) != i; spin++) {
            if ((spin & 0xffff) == 0 && sbx_now_ms() - t0 > LIMIT_MS) {
                late = 1;
                break;
            }
        }
        if (i < end && !late) __atomic_store_n(&pp.turn, i + 1, __ATOMIC_RELEASE);
    }
    const double ms = sbx_now_ms() - t0;
    __atomic_store_n(&pp.stop, 1, __ATOMIC_RELAXED);
    pthread_join(t, NULL);
    pthread_mutex_unlock(&once);
    if (late) {
        return sbx_fail(SBX_ERR_STATE,
                        "line transfer: not done in %.0f s (do the two threads have a core "
                        "each?)", LIMIT_MS / 1000.0);
    }
    *out_ns = ms * 1e6 / (2.0 * (double)round_trips);
    return SBX_OK;
}
