/*
 * tree.h — one node arena for the one-tree baselines (suct.c, joint.c), and
 * what every node arena shares (Smitsimax's too, smitsimax_tree.c): the
 * mark bitmaps and ranks that re-root in place, and the snapshot's heap.
 *
 * Nodes are `stride` bytes (an algorithm's own struct, which may grow with
 * the number of agents) and begin with sbx_tree_hdr. Storage follows
 * Smitsimax's rules (smitsimax.c has the diagram, smitsimax_tree.c the
 * arenas): index 0 is the root, children of a node are contiguous, every
 * node is stored after its parent, no malloc per node. Those rules let
 * reroot() keep the played subtree by sliding it to the front of the arena
 * in place, and snapshot() pick the most-visited connected top of the tree
 * with one heap.
 */
#ifndef SBX_TREE_H
#define SBX_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "../core/common.h"
#include "search.h"

/* ------------------------------------------------------------ every arena's */

/* One bit per node: what re-rooting keeps, what a snapshot shows. */
static inline int sbx_bit_get(const uint64_t *m, uint32_t i) {
    return (int)((m[i >> 6] >> (i & 63)) & 1u);
}
static inline void sbx_bit_set(uint64_t *m, uint32_t i) { m[i >> 6] |= 1ULL << (i & 63); }
static inline void sbx_bit_clear(uint64_t *m, uint32_t i) { m[i >> 6] &= ~(1ULL << (i & 63)); }

/* Zeroed bitmaps for an arena of cap nodes: *mark, a bit per node, and
 * *rank, a count per 64-node word. 0 (nothing made) when out of memory;
 * made before the arena is resized, so that a failure leaves it whole. */
int sbx_marks_alloc(uint64_t **mark, uint32_t **rank, uint32_t cap);
/* Frees an arena's bitmaps and installs new ones (its resize succeeded). */
void sbx_marks_replace(uint64_t **mark, uint32_t **rank, uint64_t *new_mark,
                       uint32_t *new_rank);
/* rank[w] = the bits set before word w, for the first `words` words;
 * returns all the bits set in them (the nodes kept). */
uint32_t sbx_mark_ranks(const uint64_t *mark, uint32_t *rank, size_t words);
/* Where a kept node i goes when the kept nodes slide to the front: the
 * kept nodes before it. Never above i, so moving in index order never
 * overwrites a kept node not yet moved. */
static inline uint32_t sbx_mark_rank(const uint64_t *mark, const uint32_t *rank, uint32_t i) {
    return rank[i >> 6] + (uint32_t)sbx_popcount64(mark[i >> 6] & ((1ULL << (i & 63)) - 1));
}

/* A snapshot's max-heap of nodes by visits (ties: the lower index). */
typedef struct sbx_heap_item {
    uint32_t visits, node;
} sbx_heap_item;
void sbx_heap_push(sbx_heap_item *h, int *n, sbx_heap_item it);
sbx_heap_item sbx_heap_pop(sbx_heap_item *h, int *n);

/* ------------------------------------------------------------ the baselines' arena */

typedef struct sbx_tree_hdr {
    uint32_t first_child;  /* 0: not expanded                               */
    uint32_t visits;       /* incremented when selected (as Smitsimax)      */
    uint16_t nchildren;    /* up to 4096 (joint actions)                    */
    uint16_t depth;        /* levels below the current root                 */
} sbx_tree_hdr;

typedef struct sbx_tree {
    unsigned char *nodes;
    size_t stride;         /* bytes per node, a multiple of 8               */
    uint32_t used, cap;
    uint64_t *mark;        /* one bit per node: reroot and snapshot marks   */
    uint32_t *rank;        /* per 64-node word: marked nodes before it      */
} sbx_tree;

static inline void *sbx_tree_at(const sbx_tree *t, uint32_t i) {
    return t->nodes + (size_t)i * t->stride;
}
static inline sbx_tree_hdr *sbx_tree_hdr_at(const sbx_tree *t, uint32_t i) {
    return (sbx_tree_hdr *)sbx_tree_at(t, i);
}

/* (Re)size the arena to cap nodes of t->stride bytes. On failure the tree
 * keeps its old arena and cap and SBX_ERR_MEMORY is returned (no message). */
int sbx_tree_alloc(sbx_tree *t, uint32_t cap);
void sbx_tree_free(sbx_tree *t);
/* params_changed's node_cap part: resize the arena to s->p.node_cap if it
 * changed from old_cap (the caller first clears a tree that no longer
 * fits). On failure the arena and node_cap stay as they were. */
int sbx_tree_follow_cap(sbx_search *s, sbx_tree *t, int32_t old_cap);
/* Only the root, zeroed (visits 0, not expanded). */
void sbx_tree_clear(sbx_tree *t);
/* Append a block of k zeroed nodes at depth `depth`; the caller has checked
 * the room. Returns the first index. */
uint32_t sbx_tree_push(sbx_tree *t, int k, int depth);
/* Keep only the subtree under new_root (> 0), moved to the front in index
 * order: new_root becomes 0, depths shift by new_root's, first_child ids are
 * renumbered. Other fields are copied as they are. */
void sbx_tree_reroot(sbx_tree *t, uint32_t new_root);

/* Fills an algorithm's own fields of a snapshot row (mean, move, flags,
 * agent, joint); node, parent, visits, prob and depth are filled already. */
typedef void (*sbx_tree_row_fn)(const void *ctx, const sbx_tree *t,
                                uint32_t node, sbx_snapshot_node *row);
/* sbx_search_snapshot_at for one tree: the (at most) max_nodes most-visited
 * nodes with visits >= min_visits, connected under node `top` (0: the
 * root), written parents first with siblings in storage order. */
int sbx_tree_snapshot(sbx_search *s, sbx_tree *t, uint32_t top, int max_nodes,
                      int min_visits, sbx_snapshot_node *out, int *n_out,
                      sbx_tree_row_fn fill, const void *ctx);
/* Does child `node` stand for this step of a move path (sbx_search_find_path)? */
typedef int (*sbx_tree_step_fn)(const void *ctx, const sbx_tree *t, uint32_t node,
                                const uint8_t *step);
/* sbx_search_find_path for one tree, matching children with `match`. */
int sbx_tree_find_path(const sbx_tree *t, const uint8_t *path, int steps, int stride,
                       sbx_tree_step_fn match, const void *ctx, int32_t *node_out);

/* ------------------------------------------------------------ a one-tree search */

/* What SUCT and joint keep beside their one tree; each algorithm's struct
 * begins with it (`base`), so the lifecycle below works on either. */
typedef struct sbx_one_tree {
    sbx_tree t;
    int32_t depth_reached;  /* turns, since the last re-root                */
    double smin[SBX_MAX_AGENTS], smax[SBX_MAX_AGENTS]; /* leaf score bounds */
} sbx_one_tree;

/* s->algo = a zeroed `size`-byte struct beginning with sbx_one_tree, its
 * arena of s->p.node_cap nodes of `stride` bytes made, bounds reset.
 * SBX_ERR_MEMORY with a message naming `what` on failure (nothing kept). */
int sbx_one_tree_create(sbx_search *s, size_t size, size_t stride, const char *what);
void sbx_one_tree_destroy(sbx_search *s);
/* No bounds yet: each agent's range is empty (reported as 0..0). */
void sbx_one_tree_bounds_reset(sbx_one_tree *o);
/* The stats every agent shares: one tree, its nodes and root visits, the
 * depth reached, each agent's bounds. */
void sbx_one_tree_fill_stats(const sbx_one_tree *o, int num_agents, sbx_search_stats *out);
/* A traced iteration's end: depth, terminal, seed, the path (one row; a
 * path longer than a row continues in the next agents' rows, path_len[0]
 * says how long it is), each agent's score and bounds. */
void sbx_one_tree_trace(const sbx_one_tree *o, int num_agents, sbx_trace *tr, int depth,
                        int terminal, uint64_t sim_seed, const uint32_t *path, int plen,
                        const double *score);

/* Who is alive and what each agent scores in one simulated iteration of a
 * one-tree baseline (Smitsimax keeps its own, fused with its hot loop). An
 * agent eliminated while `freeze` is on keeps the evaluation at its death
 * (tutorial §13) and the turn it died; every other agent the evaluation at
 * the end. Both are sbx_search_evaluate's (the net's values with a
 * value_net, relative_scores applied), as Smitsimax's are. */
typedef struct sbx_outcome {
    uint8_t alive[SBX_MAX_AGENTS];
    uint8_t frozen[SBX_MAX_AGENTS];  /* 1: died this step (freeze), 2: scored */
    int leaf_depth[SBX_MAX_AGENTS];  /* the turn each score is taken at       */
    double score[SBX_MAX_AGENTS];
} sbx_outcome;

/* Alive flags from the simulation's start state. */
void sbx_outcome_start(sbx_outcome *o, const sbx_search *s, const void *sim);
/* After the step that ended turn `depth` (trace row depth - 1 if tr):
 * marks the agents that died; with freeze, scores them now. Returns the
 * mask of agents that died in this step. */
uint32_t sbx_outcome_step(sbx_outcome *o, const sbx_search *s, const void *sim,
                          int depth, sbx_trace *tr);
/* At the end (depth turns simulated): every unfrozen agent's score, depth
 * normalisation, and the running bounds smin/smax (per agent). */
void sbx_outcome_finish(sbx_outcome *o, const sbx_search *s, const void *sim,
                        int depth, double *smin, double *smax);
/* gpow[k] = gamma^k for k = 0..SBX_MAX_DEPTH: one multiply per turn
 * between a node and the turn its score was taken. */
void sbx_gamma_powers(double gamma, double *gpow);

#endif
