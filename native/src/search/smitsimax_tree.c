/*
 * smitsimax_tree.c — Smitsimax's arenas (smitsimax_tree.h): the visit-count
 * tables, making and clearing a tree, and tree reuse (re-rooting each
 * agent's tree on the move it played, in place).
 */
#include "smitsimax_tree.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

double smx_sqrt_ln_table[SQRT_LN_N], smx_rsqrt_table[RSQRT_N];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void) {
    for (int n = 1; n < SQRT_LN_N; n++) smx_sqrt_ln_table[n] = sqrt(log((double)n));
    for (int n = 1; n < RSQRT_N; n++) smx_rsqrt_table[n] = 1.0 / sqrt((double)n);
}

void smx_tables_init(void) { pthread_once(&tables_once, fill_tables); }

/* ------------------------------------------------------------ arenas */

void smx_bounds_reset(smx_tree *t) {
    t->smin = INFINITY;
    t->smax = -INFINITY;
    for (int d = 0; d <= SBX_MAX_DEPTH; d++) {
        t->dmin[d] = INFINITY;
        t->dmax[d] = -INFINITY;
    }
}

void smx_tree_clear(smx_tree *t) {
    t->used = 1;
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->nodes[0].move = SBX_MOVE_NONE;
    smx_bounds_reset(t);
    t->depth_reached = 0;
}

int smx_tree_alloc(smx_tree *t, uint32_t cap) {
    /* Nothing here is touched up front: malloc'd nodes and calloc'd bitmaps
     * are only committed by the OS as the tree actually grows, so a large
     * cap costs address space, not memory. The bitmaps come first: if any
     * allocation fails the tree keeps its old arena and its old cap (nodes,
     * bitmaps and cap always describe the same size). */
    uint64_t *mark;
    uint32_t *rank;
    if (!sbx_marks_alloc(&mark, &rank, cap)) return SBX_ERR_MEMORY;
    /* The side array never shrinks below the old cap, so it holds every
     * node whether or not the nodes' realloc below succeeds. */
    const uint32_t samp_cap = cap > t->cap ? cap : t->cap;
    double *samp = realloc(t->samp, (size_t)samp_cap * 2 * sizeof *samp);
    if (samp) t->samp = samp;
    smx_node *nodes = samp ? realloc(t->nodes, (size_t)cap * sizeof *nodes) : NULL;
    if (!nodes) {
        free(mark);
        free(rank);
        return SBX_ERR_MEMORY;
    }
    t->nodes = nodes;
    sbx_marks_replace(&t->mark, &t->rank, mark, rank);
    t->cap = cap;
    return SBX_OK;
}

void smx_tree_free(smx_tree *t) {
    free(t->nodes);
    free(t->samp);
    free(t->mark);
    free(t->rank);
    memset(t, 0, sizeof *t);
}

void smx_rootsets_free(smx *x) {
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (!x->rootset[j]) continue;
        for (int a = 0; a < SBX_MAX_AGENTS; a++) smx_tree_free(&x->rootset[j][a]);
        free(x->rootset[j]);
        x->rootset[j] = NULL;
    }
}

/* ------------------------------------------------------------ tree reuse */

/* Keeps the subtree under new_root and slides it, in index order, to the
 * front of the arena. Because every node sits after its parent, the kept
 * nodes are found in one forward pass, and a node's new index (its rank
 * among kept nodes) is never above its old one, so moving in index order
 * never overwrites a kept node not yet moved. Children blocks are kept or
 * dropped whole, so they stay contiguous. */
static void reroot(smx_tree *t, uint32_t new_root, int alive, double gamma,
                   double decay, int policy, int puct) {
    /* The real game has settled what was uncertain when these statistics
     * were gathered: an agent alive at the new root will not descend its
     * pass node, a dead one will not pick moves. Drop the branch that can no
     * longer be reached (the new root's visits and total are derived from
     * what is kept, after the compaction below). */
    smx_node *nr = &t->nodes[new_root];
    if (alive && nr->pass_child) {
        nr->pass_child = 0;
    } else if (!alive && nr->nchildren) {
        nr->first_child = 0;
        nr->nchildren = 0;
    }
    const uint32_t used = t->used;
    const size_t words = ((size_t)used + 63) / 64;
    memset(t->mark, 0, words * sizeof *t->mark);
    sbx_bit_set(t->mark, new_root);
    for (uint32_t i = new_root; i < used; i++) {
        if ((i & 63) == 0 && t->mark[i >> 6] == 0) { /* nothing marked here */
            i += 63;
            continue;
        }
        if (!sbx_bit_get(t->mark, i)) continue;
        const smx_node *nd = &t->nodes[i];
        for (uint32_t c = 0; c < nd->nchildren; c++) sbx_bit_set(t->mark, nd->first_child + c);
        if (nd->pass_child) sbx_bit_set(t->mark, nd->pass_child);
    }
    const uint32_t kept = sbx_mark_ranks(t->mark, t->rank, words);
    for (uint32_t i = new_root; i < used; i++) {
        if (!sbx_bit_get(t->mark, i)) continue;
        smx_node nd = t->nodes[i];
        if (nd.first_child) nd.first_child = sbx_mark_rank(t->mark, t->rank, nd.first_child);
        if (nd.pass_child) nd.pass_child = sbx_mark_rank(t->mark, t->rank, nd.pass_child);
        nd.depth = (uint8_t)(nd.depth - 1);
        const uint32_t to = sbx_mark_rank(t->mark, t->rank, i);
        t->nodes[to] = nd;
        if (IS_SAMPLING(policy) || puct) { /* the side array's pairs (the
                                              * priors too) move with them */
            STAT(t, to) = STAT(t, i);
            AVG(t, to) = AVG(t, i);
        }
    }
    memset(t->mark, 0, words * sizeof *t->mark);
    t->used = kept;
    /* Old turns' visits were gathered against opponent moves that were not
     * played: reuse_decay < 1 lets new search outweigh them. Visits round
     * down (a child never ends above its parent); totals scale with the
     * visits kept, so every mean stays what it was. The policies' sums
     * follow: UCB1-Tuned's sum of squares like the total (the variance
     * stays); Exp3's reward estimates, RM's regrets and both average-
     * strategy sums by decay itself (siblings by one factor, so RM's
     * strategy stays and Exp3's softens). A power-mean value is a value,
     * not a sum: it stays. */
    if (decay < 1.0) {
        for (uint32_t i = 1; i < kept; i++) {
            smx_node *nd = &t->nodes[i];
            uint32_t v = (uint32_t)((double)nd->visits * decay);
            const double f = v ? (double)v / (double)nd->visits : 0.0;
            nd->total = v ? nd->total * f : 0.0;
            if (policy == SBX_POLICY_UCB1_TUNED) aux_set(nd, v ? aux_get(nd) * f : 0.0);
            if (IS_SAMPLING(policy)) {
                STAT(t, i) *= decay;
                AVG(t, i) *= decay;
            }
            nd->visits = v;
        }
    }
    /* The new root is what its kept children say: every simulation that
     * went on below it. Iterations that ended at it (a simulated death in
     * freeze mode, a terminal state) did not happen in the real game and
     * would inflate ln N. A childless new root starts at 0 visits, so its
     * first random_threshold visits are random again. */
    smx_node *root = &t->nodes[0];
    uint32_t visits = 0;
    double total = 0.0;
    for (uint32_t c = 0; c < root->nchildren; c++) {
        visits += t->nodes[root->first_child + c].visits;
        total += t->nodes[root->first_child + c].total;
    }
    if (root->pass_child) {
        visits += t->nodes[root->pass_child].visits;
        total += t->nodes[root->pass_child].total;
    }
    root->visits = visits;
    root->total = gamma * total;
    root->move = SBX_MOVE_NONE; /* a root is nobody's move */
    root->flags = 0;
    root->policy[0] = root->policy[1] = 0.0f; /* a root is nobody's child */
    if (IS_SAMPLING(policy)) STAT(t, 0) = AVG(t, 0) = 0.0;
    t->depth_reached = 0;
}

static void advance_set(sbx_search *s, smx_tree *set, const uint8_t *joint) {
    const uint32_t alive = s->vt->alive_mask(s->cfg, s->root); /* the new root */
    for (int a = 0; a < s->num_agents; a++) {
        smx_tree *t = &set[a];
        const smx_node *root = &t->nodes[0];
        uint32_t target = 0;
        if (s->p.tree_reuse) {
            if (joint[a] == SBX_MOVE_NONE) {
                target = root->pass_child;
            } else {
                for (uint32_t c = 0; c < root->nchildren; c++) {
                    if (t->nodes[root->first_child + c].move == joint[a]) {
                        target = root->first_child + c;
                    }
                }
            }
        }
        if (target) {
            reroot(t, target, (int)((alive >> a) & 1u), s->p.gamma, s->p.reuse_decay,
                   s->policy, puct_on(s));
            /* The kept children were expanded from the legal moves of the
             * states this node stood for. A new root the joint does not lead
             * to (the caller's new_root is only checked for kind and
             * parameters) can have other moves, e.g. a goofspiel hand that
             * still holds the card the joint says was played: then the kept
             * tree would propose illegal moves, so it starts afresh. */
            const smx_node *r = &t->nodes[0];
            if (r->nchildren) {
                uint8_t moves[SBX_MAX_MOVES];
                int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
                int same = k == r->nchildren;
                for (int i = 0; same && i < k; i++) {
                    same = t->nodes[r->first_child + (uint32_t)i].move == moves[i];
                }
                if (!same) smx_tree_clear(t);
            }
        } else {
            smx_tree_clear(t);
        }
        /* Bounds belong to one turn's search (tutorial §7 starts every
         * search at +INF/-INF): carried over a long game they only ever
         * widen, and a stale range squashes the exploitation term. */
        smx_bounds_reset(t);
    }
}

void smx_advance(sbx_search *s, const uint8_t *joint) {
    smx *x = s->algo;
    advance_set(s, x->t, joint);
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (x->rootset[j]) advance_set(s, x->rootset[j], joint);
    }
}

void smx_reset_all(sbx_search *s) {
    smx *x = s->algo;
    for (int a = 0; a < s->num_agents; a++) smx_tree_clear(&x->t[a]);
    /* Root parallelism's extra tree sets go (made again at the next
     * root-parallel run): cleared, each would still hold a root, and a
     * reset search would count more nodes than a new one in the same state. */
    smx_rootsets_free(x);
}
