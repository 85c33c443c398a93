/*
 * random.c — the uniform random baseline: every agent plays a uniformly
 * random legal move; no tree, and iterations do nothing (a run still spends
 * its budget, so a match against it keeps the usual pace).
 *
 * The move of a turn is drawn from a stream seeded by the search's seed and
 * the number of turns advanced since the search was made, so asking for the
 * best moves any number of times gives the same answer, and two searches
 * with the same seed play the same game.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"

typedef struct rnd {
    uint64_t seed;         /* drawn from the search's RNG when made        */
    uint64_t turn;         /* advances since then                          */
} rnd;

static int64_t rnd_iteration_nodes(const sbx_search_params *p, int num_agents,
                                   int max_moves) {
    return 0;
}

static void rnd_destroy(sbx_search *s) {
    free(s->algo);
    s->algo = NULL;
}

static int rnd_create(sbx_search *s) {
    rnd *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a random player");
    x->seed = sbx_rng_next(&s->rng);
    s->algo = x;
    return SBX_OK;
}

static int rnd_params_changed(sbx_search *s, const sbx_search_params *old) {
    return SBX_OK;
}

static int rnd_iterate(sbx_search *s, int64_t *turns) { return SBX_STOP_NONE; }

static int rnd_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return SBX_STOP_NONE;
}

static void rnd_advance(sbx_search *s, const uint8_t *joint) {
    rnd *x = s->algo;
    x->turn++;
}

static void rnd_reset_all(sbx_search *s) {}

static void rnd_best_moves(sbx_search *s, int32_t *out) {
    rnd *x = s->algo;
    uint64_t rng = x->seed ^ (x->turn * 0xD1B54A32D192ED03ULL);
    uint8_t moves[SBX_MAX_MOVES];
    for (int a = 0; a < s->num_agents; a++) {
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        out[a] = k ? moves[sbx_rng_below(&rng, (uint32_t)k)] : SBX_MOVE_NONE;
    }
}

/* Every legal move with the uniform policy's probability; nothing visited. */
static int rnd_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                          int *n_out) {
    uint8_t moves[SBX_MAX_MOVES];
    int k = s->vt->legal_moves(s->cfg, s->root, agent, moves);
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    for (int i = 0; i < k; i++) {
        out[i] = (sbx_move_stat){moves[i], 0, 0.0, 0.0, 1.0 / k};
    }
    *n_out = k;
    return SBX_OK;
}

/* No tree: the root row only. */
static int rnd_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    return sbx_root_only_snapshot(s, top, "keeps no tree, only its root (node 0)", out, n_out);
}

static void rnd_fill_stats(sbx_search *s, sbx_search_stats *out) {
    out->node_bytes = 0;
    out->trees = 0;
    /* no tree: a snapshot is the root row alone */
    for (int a = 0; a < s->num_agents; a++) out->nodes[a] = 1;
}

static int64_t rnd_node_count(sbx_search *s) { return 0; }

const sbx_algo_vt sbx_random_vt = {
    .name = "random",
    .iteration_nodes = rnd_iteration_nodes,
    .create = rnd_create,
    .destroy = rnd_destroy,
    .params_changed = rnd_params_changed,
    .iterate = rnd_iterate,
    .iterate_traced = rnd_iterate_traced,
    .advance = rnd_advance,
    .reset_all = rnd_reset_all,
    .best_moves = rnd_best_moves,
    .root_stats = rnd_root_stats,
    .snapshot = rnd_snapshot,
    .fill_stats = rnd_fill_stats,
    .node_count = rnd_node_count,
};
