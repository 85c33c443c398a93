/*
 * common.h — internal helpers shared by every part of the core: error
 * reporting, the deterministic RNG, the clock and "key=value" parsing.
 * Implemented in common.c (except the inline RNG).
 */
#ifndef SBX_COMMON_H
#define SBX_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "sbx.h"

/* Sets the thread-local message read by sbx_last_error(); returns code so a
 * failing path can be written `return sbx_fail(SBX_ERR_ARGUMENT, ...)`. */
int sbx_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* For the few small helpers on the hottest paths (the leaf evaluation), where
 * an inlining heuristic's miss would cost every iteration a call. */
#define FORCE_INLINE static inline __attribute__((always_inline))

/* splitmix64: one 64-bit word of state, passes BigCrush, trivial to mirror
 * bit-for-bit in the pure-Python reference (sandbox/reference/rng.py). */
static inline uint64_t sbx_rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform-enough integer in [0, n): multiply-shift on the high 32 bits
 * (bias below 2^-32 for the small n used here; no division in the hot path). */
static inline uint32_t sbx_rng_below(uint64_t *state, uint32_t n) {
    return (uint32_t)(((sbx_rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* Population count without relying on a popcnt instruction (the default
 * x86-64 target lacks it and __builtin_popcountll becomes a libgcc call). */
static inline int sbx_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Monotonic clock in milliseconds. */
double sbx_now_ms(void);

/* Whether this process may take an AVX2 path (machine.c): the CPU and OS
 * have AVX2 and SBX_NO_AVX2 is not set (or "0") in the environment. *why
 * (may be NULL) gets "avx2" or "scalar (SBX_NO_AVX2)", "scalar (no AVX2)",
 * "scalar (not an x86-64 build)". Reads the environment: a caller decides
 * once per process (pthread_once), so every thread sees one path. */
int sbx_avx2_usable(const char **why);

/* "key=value" parsing for game parameters. Pairs are separated by spaces,
 * commas or semicolons. The callback gets each pair and returns SBX_OK or a
 * failure (having called sbx_fail with a message naming the key). */
typedef int (*sbx_kv_fn)(void *ctx, const char *key, const char *value);
int sbx_parse_kv(const char *text, sbx_kv_fn fn, void *ctx);

/* Strict number parsing of a parameter value within [lo, hi]; fails naming
 * the key. */
int sbx_kv_int(const char *key, const char *value, long lo, long hi, int *out);
int sbx_kv_double(const char *key, const char *value, double lo, double hi,
                  double *out);

#endif
