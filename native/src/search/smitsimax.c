/*
 * smitsimax.c — Smitsimax: one decoupled tree per agent
 * (smitsimax-tutorial.txt §5–§7, §12–§13).
 *
 * Each iteration: clone the root state (fresh chance seed), then for every
 * depth up to max_depth every agent descends its OWN tree (expanding a node
 * the first time it is reached, picking uniformly at random while the parent
 * has fewer than random_threshold visits, UCB1 on normalised scores after);
 * the picks form the joint action that steps the shared state. At the end
 * (max depth or terminal) each agent's score is backed up its own path,
 * multiplied by gamma per step toward the root. Eliminated agents descend
 * through pass nodes (default) or have their tree frozen at their death.
 *
 * Node storage — one arena per agent, nodes addressed by 32-bit index:
 *
 *   index:  0      1  2  3  4     5        6  7  8  9    ...
 *          [root][ c0 c1 c2 c3 ][ pass ][ d0 d1 d2 d3 ] ...
 *                  ^ root.first_child = 1, nchildren = 4
 *                                 ^ some node's pass_child (single node)
 *
 *   - children of a node are contiguous, in legal-move order;
 *   - every node is stored after its parent (allocation order), which lets
 *     tree reuse compact the kept subtree in place (reroot() in
 *     smitsimax_tree.c);
 *   - index 0 is always the root and never a child, so 0 means "none".
 *   No malloc per node: an iteration first checks that each arena can hold
 *   its worst case (max_depth * (moves + 1) nodes) and otherwise stops the
 *   search with SBX_STOP_NODE_CAP.
 *
 * Files, lowest first (one algorithm behind the one vtable below):
 *   smitsimax_tree.h/.c      the node, the arenas and their tables, tree
 *                            reuse; what every file reads inline, the leaf
 *                            evaluation (sbx_search_evaluate) among it
 *   smitsimax_sampling.h/.c  Exp3, RM and RM+: strategies, sampled picks,
 *                            the updates, RM's counterfactual returns
 *   smitsimax_iterate.c      the serial iteration: descent, UCB1 and
 *                            UCB1-Tuned selection, the step, the backup
 *                            (power mean, certain death); a copy per policy
 *   smitsimax_parallel.c     the parallel modes (wu_uct, tree, root, leaf)
 *   smitsimax_view.c         the move played, root stats, stats, snapshots,
 *                            move paths
 *   smitsimax.c              this file: making and freeing the trees, a
 *                            change of settings, the vtable
 */
#include <stdlib.h>

#include "smitsimax_iterate.h"
#include "smitsimax_parallel.h"
#include "smitsimax_tree.h"
#include "smitsimax_view.h"

static void smx_destroy(sbx_search *s) {
    smx *x = s->algo;
    if (!x) return;
    for (int a = 0; a < SBX_MAX_AGENTS; a++) smx_tree_free(&x->t[a]);
    smx_rootsets_free(x);
    for (int j = 0; j < SBX_MAX_THREADS; j++) {
        free(x->sims[j]);
        sbx_neteval_free(&x->wev[j]);
    }
    free(x->cf_pre);
    free(x->cf_alt);
    free(x);
    s->algo = NULL;
}

static int smx_create(sbx_search *s) {
    smx_tables_init();
    smx *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating trees");
    s->algo = x;
    x->cf_pre = malloc(s->state_size);
    x->cf_alt = malloc(s->state_size);
    if (!x->cf_pre || !x->cf_alt) {
        smx_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating trees");
    }
    for (int a = 0; a < s->num_agents; a++) {
        if (smx_tree_alloc(&x->t[a], (uint32_t)s->p.node_cap) != SBX_OK) {
            smx_destroy(s);
            return sbx_fail(SBX_ERR_MEMORY,
                            "out of memory allocating a %d-node tree arena",
                            s->p.node_cap);
        }
        smx_tree_clear(&x->t[a]);
    }
    return SBX_OK;
}

static int smx_params_changed(sbx_search *s, const sbx_search_params *old) {
    smx *x = s->algo;
    /* Root parallelism's extra tree sets start afresh on anything that
     * would need them resized or their ranges reset (made again at the
     * next root-parallel run). */
    if (s->p.node_cap != old->node_cap || s->p.depth_normalize != old->depth_normalize ||
        s->p.bounds != old->bounds || s->p.backup != old->backup) {
        smx_rootsets_free(x);
    }
    if (s->p.relative_scores != old->relative_scores || sbx_priors_changed(&s->p, old)) {
        /* the trees' totals are on the old scale (own or relative scores),
         * or their priors were set at expansion under the old setting:
         * every tree afresh, its ranges included (smx_tree_clear), as
         * MCGS's graph and a net change do */
        smx_reset_all(s);
    }
    if (s->p.depth_normalize != old->depth_normalize ||
        s->p.bounds != old->bounds) {
        /* Scores per turn and raw scores live on different scales (§13):
         * bounds gathered on one would squash the other. A change of bounds
         * mode starts the ranges afresh too (they are gathered differently). */
        for (int a = 0; a < s->num_agents; a++) smx_bounds_reset(&x->t[a]);
    }
    if (s->policy == SBX_POLICY_UCB1 && s->p.backup == SBX_BACKUP_POWER &&
        old->backup != SBX_BACKUP_POWER) {
        /* power backup switched on mid-search: every node's value starts as
         * its mean and the path's power means are recomputed as it is
         * visited (UCB1 left the bytes unused, so nothing else is lost) */
        for (int a = 0; a < s->num_agents; a++) {
            smx_tree *t = &x->t[a];
            for (uint32_t i = 0; i < t->used; i++) {
                smx_node *nd = &t->nodes[i];
                aux_set(nd, nd->visits ? nd->total / (double)nd->visits : 0.0);
            }
        }
    }
    if (s->p.node_cap == old->node_cap) return SBX_OK;
    for (int a = 0; a < s->num_agents; a++) {
        smx_tree *t = &x->t[a];
        if (t->used > (uint32_t)s->p.node_cap) smx_tree_clear(t);
        if (smx_tree_alloc(t, (uint32_t)s->p.node_cap) != SBX_OK) {
            /* This tree keeps its old arena and cap (iterate checks each
             * tree against its own cap, so mixed caps are safe). */
            s->p.node_cap = (int32_t)t->cap;
            return sbx_fail(SBX_ERR_MEMORY,
                            "out of memory resizing tree arenas; node_cap "
                            "stays %d", old->node_cap);
        }
    }
    return SBX_OK;
}

/* A value net attached, replaced or detached: the trees' scores and
 * ranges came from the old values, so they start afresh. */
static void smx_net_changed(sbx_search *s) {
    smx *x = s->algo;
    if (!x) return;
    smx_reset_all(s); /* the trees and their ranges */
    /* the helpers' batches are made again for the new net at the next
     * parallel run */
    for (int j = 0; j < SBX_MAX_THREADS; j++) sbx_neteval_free(&x->wev[j]);
}

/* Heuristic priors read the game's move scores. */
static int smx_check(const sbx_search_params *p, const sbx_game_vt *game, int num_agents,
                     int max_moves) {
    (void)num_agents;
    (void)max_moves;
    return sbx_priors_check(p, game);
}

const sbx_algo_vt sbx_smitsimax_vt = {
    .name = "smitsimax",
    .check = smx_check,
    .net_changed = smx_net_changed,
    .iteration_nodes = smx_iteration_nodes,
    .create = smx_create,
    .destroy = smx_destroy,
    .params_changed = smx_params_changed,
    .iterate = smx_iterate,
    .iterate_traced = smx_iterate_traced,
    .advance = smx_advance,
    .reset_all = smx_reset_all,
    .best_moves = smx_best_moves,
    .root_stats = smx_root_stats,
    .snapshot = smx_snapshot,
    .find_path = smx_find_path,
    .fill_stats = smx_fill_stats,
    .node_count = smx_node_count,
    .run_parallel = smx_run_parallel,
};
