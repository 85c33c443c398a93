/*
 * greedy.c — greedy one-ply: the best immediate evaluation against random
 * opponents.
 *
 * Each iteration draws every alive agent's move uniformly at random, steps
 * one turn from the root (chance reseeded, as every search iteration),
 * evaluates, and adds each agent's evaluation to the move it drew. Every
 * agent then plays the move with the highest mean (ties: more samples, then
 * the earlier legal move): its best reply to uniformly random opponents,
 * one turn ahead. No tree; max_depth, c and the other tree knobs are unused.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"

typedef struct grd {
    uint32_t visits[SBX_MAX_AGENTS][SBX_MAX_MOVES];  /* by move id */
    double total[SBX_MAX_AGENTS][SBX_MAX_MOVES];
    uint32_t samples;
} grd;

static int64_t grd_iteration_nodes(const sbx_search_params *p, int num_agents,
                                   int max_moves) {
    return 0;
}

static void grd_destroy(sbx_search *s) {
    free(s->algo);
    s->algo = NULL;
}

static int grd_create(sbx_search *s) {
    grd *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a greedy player");
    s->algo = x;
    return SBX_OK;
}

static int grd_params_changed(sbx_search *s, const sbx_search_params *old) {
    return SBX_OK;
}

static int grd_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    grd *x = s->algo;
    const sbx_game_vt *vt = s->vt;
    const int n = s->num_agents;
    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;
    uint8_t joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    const uint32_t alive0 = vt->alive_mask(s->cfg, sim);
    for (int a = 0; a < n; a++) {
        int k = (alive0 >> a) & 1u ? vt->legal_moves(s->cfg, sim, a, moves) : 0;
        joint[a] = k ? moves[sbx_rng_below(&s->rng, (uint32_t)k)] : SBX_MOVE_NONE;
    }
    vt->step(s->cfg, sim, joint, NULL);
    *turns += 1;
    double score[SBX_MAX_AGENTS];
    vt->evaluate(s->cfg, sim, score);
    x->samples++;
    for (int a = 0; a < n; a++) {
        if (joint[a] == SBX_MOVE_NONE) continue;
        x->visits[a][joint[a]]++;
        x->total[a][joint[a]] += score[a];
    }
    if (tr) {
        const uint32_t alive_now = vt->alive_mask(s->cfg, sim);
        tr->depth = 1;
        tr->terminal = vt->is_terminal(s->cfg, sim);
        tr->sim_seed = sim_seed;
        for (int a = 0; a < n; a++) {
            tr->moves[a][0] = joint[a] == SBX_MOVE_NONE ? -1 : joint[a];
            tr->pick[a][0] = joint[a] == SBX_MOVE_NONE ? SBX_PICK_NONE : SBX_PICK_RANDOM;
            tr->alive_after[a][0] = (int8_t)((alive_now >> a) & 1u);
            tr->score[a] = score[a];
        }
    }
    return SBX_STOP_NONE;
}

static int grd_iterate(sbx_search *s, int64_t *turns) {
    return grd_iterate_impl(s, turns, NULL);
}

static int grd_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return grd_iterate_impl(s, turns, tr);
}

static void grd_reset_all(sbx_search *s) {
    memset(s->algo, 0, sizeof(grd));
}

static void grd_advance(sbx_search *s, const uint8_t *joint) { grd_reset_all(s); }

/* Index into moves[] of agent's best move, or -1 if none was sampled. */
static int best_index(const grd *x, int a, const uint8_t *moves, int k) {
    int best = -1;
    for (int i = 0; i < k; i++) {
        uint32_t v = x->visits[a][moves[i]];
        if (v == 0) continue;
        if (best < 0) {
            best = i;
            continue;
        }
        uint32_t bv = x->visits[a][moves[best]];
        double m = x->total[a][moves[i]] / v, bm = x->total[a][moves[best]] / bv;
        if (m > bm || (m == bm && v > bv)) best = i;
    }
    return best;
}

static void grd_best_moves(sbx_search *s, int32_t *out) {
    grd *x = s->algo;
    uint8_t moves[SBX_MAX_MOVES];
    for (int a = 0; a < s->num_agents; a++) {
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        if (k == 0) {
            out[a] = SBX_MOVE_NONE;
            continue;
        }
        int b = best_index(x, a, moves, k);
        out[a] = moves[b < 0 ? 0 : b];
    }
}

/* Samples and means per legal move; policy 1 on the move it would play. */
static int grd_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                          int *n_out) {
    grd *x = s->algo;
    uint8_t moves[SBX_MAX_MOVES];
    int k = s->vt->legal_moves(s->cfg, s->root, agent, moves);
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    int b = best_index(x, agent, moves, k);
    if (b < 0) b = 0;
    double sum = 0;
    for (int i = 0; i < k; i++) sum += x->visits[agent][moves[i]];
    for (int i = 0; i < k; i++) {
        uint32_t v = x->visits[agent][moves[i]];
        out[i] = (sbx_move_stat){moves[i], (int32_t)v, v ? x->total[agent][moves[i]] / v : 0.0,
                                 sum > 0 ? v / sum : 0.0, i == b ? 1.0 : 0.0};
    }
    *n_out = k;
    return SBX_OK;
}

static int grd_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    grd *x = s->algo;
    int rc = sbx_root_only_snapshot(s, top, "keeps no tree, only its root (node 0)", out, n_out);
    if (rc == SBX_OK) out[0].visits = (int32_t)x->samples;
    return rc;
}

static void grd_fill_stats(sbx_search *s, sbx_search_stats *out) {
    grd *x = s->algo;
    out->node_bytes = 0;
    out->trees = 0;
    /* no tree: a snapshot is the root row alone */
    for (int a = 0; a < s->num_agents; a++) out->nodes[a] = 1;
    for (int a = 0; a < s->num_agents; a++) {
        out->root_visits[a] = (int32_t)x->samples;
        out->max_depth_reached[a] = x->samples ? 1 : 0;
    }
}

static int64_t grd_node_count(sbx_search *s) { return 0; }

const sbx_algo_vt sbx_greedy_vt = {
    .name = "greedy",
    .iteration_nodes = grd_iteration_nodes,
    .create = grd_create,
    .destroy = grd_destroy,
    .params_changed = grd_params_changed,
    .iterate = grd_iterate,
    .iterate_traced = grd_iterate_traced,
    .advance = grd_advance,
    .reset_all = grd_reset_all,
    .best_moves = grd_best_moves,
    .root_stats = grd_root_stats,
    .snapshot = grd_snapshot,
    .fill_stats = grd_fill_stats,
    .node_count = grd_node_count,
};
