/*
 * emit.h — the one writer behind every game's export and hash (emit.c).
 * A game writes its export words through sbx_emit; sbx_export_with fills a
 * buffer with them, sbx_hash_with only hashes them, so the hash is always
 * the hash of the export and hashing needs no buffer. It sits below the
 * games and below the registry that lists them: a game depends on it and on
 * game.h, never on the registry.
 */
#ifndef SBX_EMIT_H
#define SBX_EMIT_H

#include <stdint.h>

/* State hashes: FNV-1a over the exported 32-bit words, finished with the
 * splitmix64 mixer (mirrored in sandbox/reference/rng.py). */
#define SBX_HASH_INIT 0xCBF29CE484222325ULL
static inline uint64_t sbx_hash_word(uint64_t h, int32_t w) {
    return (h ^ (uint32_t)w) * 0x100000001B3ULL;
}
static inline uint64_t sbx_hash_finish(uint64_t h) {
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

/* The writer's state: a buffer to fill (or none) and the running hash. */
typedef struct sbx_emitter {
    int32_t *buf;       /* NULL: hash only */
    int cap, n;
    uint64_t h;
} sbx_emitter;

static inline void sbx_emit(sbx_emitter *e, int32_t w) {
    if (e->buf && e->n < e->cap) e->buf[e->n] = w;
    e->n++;
    e->h = sbx_hash_word(e->h, w);
}

typedef void (*sbx_export_writer)(const void *cfg, const void *state,
                                  sbx_emitter *e);
/* Words written, or SBX_ERR_ARGUMENT if cap is too small. */
int sbx_export_with(sbx_export_writer write, const void *cfg, const void *state,
                    int32_t *buf, int cap);
uint64_t sbx_hash_with(sbx_export_writer write, const void *cfg,
                       const void *state);

#endif
