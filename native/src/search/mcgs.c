/*
 * mcgs.c — Monte-Carlo graph search for simultaneous two-player games
 * (shared/seeds/mcgs-simultaneous-formalization.md; why the backup is a
 * recomputation and not an accumulation: mcgs-katago-notes.txt).
 *
 * The search keeps ONE graph: a node is a game state (found again through a
 * transposition table keyed by the game's state hash, turn included, so
 * there are no cycles) with an n1 x n2 array of edges, one per pair of
 * OUTCOMES. An outcome is a class of a player's moves with the same result:
 * when a node is made, each own move is stepped against one fixed opponent
 * move (the opponent's first legal move) on a copy of the state, and moves
 * whose resulting states are equal (hash, then bytes) collapse into the first of
 * them (the maze's moves into a wall; goofspiel and matrix have none). The
 * rule looks at one opponent move only: cheap, and exact for games where a
 * move's own effect does not depend on the opponent's move.
 *
 * Values. Q_p is a value-to-go: the expected change of the game's
 * evaluation from this node on. An edge's reward is evaluate(child) -
 * evaluate(parent) (for games whose evaluation is the score so far, as
 * matrix, this is the step's payoff), a leaf's U_p is evaluate(after a
 * rollout_steps-step uniformly random rollout) - evaluate(leaf) (0 at once
 * with rollout_steps = 0 and at a terminal). Rewards and U telescope, so
 * Q_p(root) + evaluate(root) estimates the evaluation at the horizon; root
 * stats and snapshot means report that absolute figure.
 *
 * Backup is the idempotent recomputation
 *   Q_p(n) = (U_p(n) + sum_{visited (i,j)} N(i,j) (r_p(i,j) + Q_p(child)))
 *            / (1 + sum N(i,j))
 * on every node of the playout path, deepest first. Selection is decoupled
 * PUCT per player over its marginal: Q_p[i] weighs the visited edges of
 * row i by their conditional visit share (Option D), an unvisited outcome
 * gets FPU = Q_p(n) - fpu_offset, and score = Q_p[i] + c_puct * prior_i *
 * sqrt(N) / (1 + N_i); equal scores are broken
 * uniformly at random with the search's RNG (with a fixed rule both players
 * of a symmetric position would pick the same index for ever and only the
 * diagonal of the edge array would be visited).
 * The pair picked is the edge followed.
 *
 * Priors. priors=uniform: prior_i = 1/n_p. priors=heuristic: the game's
 * move_scores hook (game.h) scores each legal move when the node is made;
 * prior_i = the sum over the moves outcome i collapses of
 * softmax(score / prior_temperature) over all legal moves (a move into a
 * wall and stay share one outcome and add their shares: the outcome is
 * played as often as any of its moves would be). A game without the hook
 * is refused at creation and set_params.
 *
 * Chance. The formalisation assumes that a joint action leads to one
 * state; where the game's chance decides the step (snakes' food, goofspiel's
 * random prize order: each playout's simulation is reseeded) an edge leads
 * to one CHILD PER SUCCESSOR STATE IT MET, each found in or added to the
 * transposition table like any other. Its value is the visit-weighted
 * average over its children of r + Q(child): what its sampled successors
 * returned, an estimate of the expectation over chance (edge_sum; with one
 * child, exactly the formalisation's term). Selection and the backup see
 * edges only, so nothing else changes. The first child met stays in the
 * edge (a game without chance pays nothing, and its figures are bit for
 * bit what they were); later ones are 20-byte kids in a fourth doubling
 * array, listed per edge through `more` (one index per edge, made when a
 * serial search first meets chance, always in a parallel run); the first
 * child's visits are the edge's minus its kids'. node_cap bounds the kids
 * as it bounds the nodes. Why not one child per edge that every drawn
 * state shares (open loop): the players see the chance before they move (a
 * goofspiel bid is made knowing the prize), so a node standing for several
 * states would make each player answer their average. And why not stop the
 * playout where chance differs from the stored child, as the search once
 * did: most playouts then ended there (goofspiel-6 with random prizes,
 * 3,000 playouts: 1.2 turns deep against 4.8 with a fixed order, 72% of
 * the edge visits never reaching a child) and each such visit weighed the stored
 * child's value, not the one chance drew.
 *
 * A playout stops at a node met for the first time (it is evaluated there),
 * at a terminal, at max_depth turns below the root or, with short_circuit,
 * when the child has more visits (N = 1 + its edge visits) than the link
 * that reaches it (the edge, or the edge's visits that met that child): the
 * child's Q is already estimated from its other parents, so the edge is
 * counted and refreshed from it with no playout below (KataGo's rule). A
 * link made in this playout to a node of the table has 0 visits, so it
 * stops there too. gamma, c, random_threshold, policy and elimination do
 * not apply.
 *
 * Memory: nodes and edges live in two arrays grown by doubling (never a
 * malloc per node); node_cap bounds the nodes and, apart, the kids
 * (SBX_STOP_NODE_CAP when either is full; a serial playout that finds no
 * room for a kid is dropped before its backup, counting nothing).
 * Heuristic priors live in a third array, of floats, made only when
 * priors=heuristic: n_1 + n_2 per node (player 0's outcomes, then player
 * 1's) from the node's `prior` index, so the node stays 104 bytes and a
 * uniform search pays nothing. Priors are fixed when a node is made: a
 * change of priors or prior_temperature starts the graph afresh. Tree reuse re-roots at the node of the new root state (a table
 * look-up), keeps what is reachable from it and compacts both arrays.
 *
 * Files, lowest first: mcgs_graph.h/.c (the graph: storage, transposition
 * table, making and evaluating a node, re-rooting), mcgs_select.c
 * (selection, backup, the serial playout), mcgs_parallel.c (wu_uct and tree
 * on the shared graph, with the atomic twins of selection and backup),
 * mcgs_view.c (the move played, root stats,
 * snapshots, test hooks) and this file, the vtable over them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "mcgs_graph.h"
#include "mcgs_parallel.h"
#include "mcgs_select.h"
#include "mcgs_view.h"

/* ------------------------------------------------------------ lifecycle */

static int mcgs_check(const sbx_search_params *p, const sbx_game_vt *game,
                      int num_agents, int max_moves) {
    (void)max_moves;
    if (num_agents != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "algorithm: mcgs searches two-player games only (this "
                        "game has %d agents); use smitsimax or suct",
                        num_agents);
    }
    if (p->parallel == SBX_PAR_ROOT || p->parallel == SBX_PAR_LEAF) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "parallel: mcgs runs serial, wu_uct or tree (got %s); root and "
                        "leaf parallelism are smitsimax's",
                        p->parallel == SBX_PAR_ROOT ? "root" : "leaf");
    }
    if (sbx_priors_check(p, game) != SBX_OK) return SBX_ERR_ARGUMENT;
    return SBX_OK;
}

/* A playout makes at most one node (it stops at a new one) plus the root. */
static int64_t mcgs_iteration_nodes(const sbx_search_params *p, int num_agents,
                                    int max_moves) {
    return 2;
}

static void mcgs_destroy(sbx_search *s) {
    mcgs *x = s->algo;
    if (!x) return;
    free(x->nodes);
    free(x->edges);
    free(x->priors);
    free(x->more);
    free(x->kids);
    free(x->table);
    free(x->tmp);
    free(x->tmp2);
    free(x->inflight);
    for (int j = 0; j < SBX_MAX_THREADS; j++) {
        free(x->wbuf[j]);
        sbx_neteval_free(&x->wev[j]);
    }
    if (x->shards_ready) {
        for (int i = 0; i < MCGS_SHARDS; i++) pthread_mutex_destroy(&x->shard[i]);
    }
    free(x);
    s->algo = NULL;
}

static int mcgs_create(sbx_search *s) {
    mcgs *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a graph");
    s->algo = x;
    x->cap = 1024;
    x->ecap = 4096;
    x->nodes = malloc(x->cap * sizeof *x->nodes);
    x->edges = malloc(x->ecap * sizeof *x->edges);
    x->tmp = malloc(s->state_size);
    x->tmp2 = malloc(s->state_size);
    x->used = 1;
    for (int i = 0; i < MCGS_SHARDS; i++) pthread_mutex_init(&x->shard[i], NULL);
    x->shards_ready = 1;
    if (!x->nodes || !x->edges || !x->tmp || !x->tmp2 || mcgs_table_rebuild(x, 1) != SBX_OK) {
        mcgs_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a graph");
    }
    mcgs_clear(x);
    return SBX_OK;
}

static int mcgs_params_changed(sbx_search *s, const sbx_search_params *old) {
    mcgs *x = s->algo;
    if (x->used > (uint32_t)s->p.node_cap || x->kused > (uint32_t)s->p.node_cap) mcgs_clear(x);
    /* the transposition switch changes what a node is: start afresh */
    if (s->p.transpositions != old->transpositions) mcgs_clear(x);
    /* every stored figure is on the evaluation's scale: a new scale, afresh */
    if (s->p.relative_scores != old->relative_scores) mcgs_clear(x);
    /* priors are fixed when a node is made */
    if (s->p.priors != old->priors || s->p.prior_temperature != old->prior_temperature) {
        mcgs_clear(x);
    }
    return SBX_OK;
}

/* A value net attached, replaced or detached: a node's U and priors are
 * fixed when it is made, so the graph starts afresh (and the helpers'
 * batches are made again for the new net at the next parallel run). */
static void mcgs_net_changed(sbx_search *s) {
    mcgs *x = s->algo;
    if (!x) return;
    mcgs_clear(x);
    for (int j = 0; j < SBX_MAX_THREADS; j++) sbx_neteval_free(&x->wev[j]);
}

static int mcgs_iterate(sbx_search *s, int64_t *turns) {
    return mcgs_playout(s, turns, NULL);
}

static int mcgs_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return mcgs_playout(s, turns, tr);
}

static void mcgs_advance(sbx_search *s, const uint8_t *joint) {
    mcgs *x = s->algo;
    uint32_t keep = 0;
    if (s->p.tree_reuse && (x->nodes[0].flags & MCGS_EVALUATED)) {
        const uint64_t h = s->vt->hash(s->cfg, s->root);
        if (s->p.transpositions) {
            keep = mcgs_table_find(x, h);
            keep = keep ? keep - 1 : 0;
        } else {
            /* a tree: the root's child with that state */
            const mcgs_node *r = &x->nodes[0];
            for (uint32_t e = 0; e < (uint32_t)r->n[0] * r->n[1] && !keep; e++) {
                uint32_t c = x->edges[r->edges + e].child;
                if (c && x->nodes[c].hash == h) keep = c;
                for (uint32_t k = more_of(x, r->edges + e); k && !keep; k = x->kids[k - 1].next) {
                    if (x->nodes[x->kids[k - 1].child].hash == h) keep = x->kids[k - 1].child;
                }
            }
        }
        if (keep && !(x->nodes[keep].flags & MCGS_EVALUATED)) keep = 0;
    }
    if (!keep) {
        mcgs_clear(x);
        return;
    }
    mcgs_reroot(x, keep);
    x->depth_reached = 0;
}

static void mcgs_reset_all(sbx_search *s) { mcgs_clear(s->algo); }

const sbx_algo_vt sbx_mcgs_vt = {
    .name = "mcgs",
    .net_changed = mcgs_net_changed,
    .check = mcgs_check,
    .iteration_nodes = mcgs_iteration_nodes,
    .create = mcgs_create,
    .destroy = mcgs_destroy,
    .params_changed = mcgs_params_changed,
    .iterate = mcgs_iterate,
    .iterate_traced = mcgs_iterate_traced,
    .advance = mcgs_advance,
    .reset_all = mcgs_reset_all,
    .best_moves = mcgs_best_moves,
    .root_stats = mcgs_root_stats,
    .snapshot = mcgs_snapshot,
    .find_path = mcgs_find_path,
    .fill_stats = mcgs_fill_stats,
    .node_count = mcgs_node_count,
    .root_matrix = mcgs_root_matrix,
    .snapshot_links = mcgs_snapshot_links,
    .run_parallel = mcgs_run_parallel,
};
