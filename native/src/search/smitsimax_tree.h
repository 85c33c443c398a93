/*
 * smitsimax_tree.h — Smitsimax's trees (smitsimax.c has the overview and
 * the storage diagram): the node, one arena per agent, the family's struct,
 * and what every file of the family reads inline (the policies' bytes, the
 * visit-count tables, the normalisation ranges, safe_moves' helpers, the
 * leaf evaluation). smitsimax_tree.c makes, clears, re-roots and advances
 * the arenas; the rest of the family sits above it (smitsimax_sampling.h/.c:
 * Exp3 / RM / RM+, smitsimax_iterate.c: the serial iteration,
 * smitsimax_parallel.c: the parallel modes, smitsimax_view.c: inspection,
 * smitsimax.c: the vtable).
 */
#ifndef SBX_SMITSIMAX_TREE_H
#define SBX_SMITSIMAX_TREE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"

typedef struct smx_node {
    double total;          /* sum of backed-up (discounted) scores            */
    uint32_t visits;       /* incremented when selected, as in tutorial §7    */
    union {
    float policy[2];       /* the policy's 8 bytes, by policy in force:
                              ucb1 + backup=mean: unused (zero), but
                              inflight[0] during a shared-tree parallel run
                              (see the parallel section)
                              ucb1 + backup=power: the node's value (double)
                              ucb1_tuned: sum of squared backed-up values
                              (double); exp3 / rm / rm_plus: unused (their
                              sums are doubles in the tree's side array,
                              smx_tree.samp). Doubles go through
                              aux_get/aux_set (memcpy: offset 12 is not
                              8-aligned). tuned and power would both need
                              the double, so params.c refuses the pair.  */
    uint32_t inflight[2];  /* [0]: WU-UCT's O, simulations selected through
                              this node and not yet backed up; 0 again when
                              the run ends (the float 0.0 ucb1 left there).
                              Right after visits: selection bumps both
                              with one 64-bit atomic add.                 */
    };
    uint32_t first_child;  /* 0: not expanded                                 */
    uint32_t pass_child;   /* 0: none                                         */
    uint8_t move;          /* SBX_MOVE_NONE for root and pass nodes           */
    uint8_t nchildren;
    uint8_t flags;         /* SBX_NODE_PASS | _DIED | _SURVIVED | _DOOMED     */
    uint8_t depth;         /* distance from the current root                  */
} smx_node;

_Static_assert(sizeof(smx_node) == 32, "tree nodes must stay 32 bytes");

typedef struct smx_tree {
    smx_node *nodes;
    /* `used` is bumped by every expansion of a shared-tree run; the pads
     * keep it off the cache line of the fields every selection reads
     * (nodes, cap, the bounds), which it would otherwise invalidate. */
    char pad_before[64];
    uint32_t used;
    char pad_after[64];
    uint32_t cap;
    uint64_t *mark;        /* one bit per node: reroot and snapshot marks     */
    uint32_t *rank;        /* per 64-node word: marked nodes before it        */
    /* Exp3 / RM / RM+ only: two doubles per node, beside the arena (index
     * i's are samp[2i], samp[2i+1]): [0] Exp3's cumulative importance-
     * weighted reward G or RM's cumulative regret R, [1] the average-
     * strategy sum. Doubles, not the node's spare float bytes: a float sum
     * stops growing at 2^24 (16.7 M unit updates) and loses the small ones
     * long before, so a long search's average strategy froze where it
     * stood. Allocated with the arena (untouched pages cost address space
     * only) and written only under a sampling policy: UCB1's 32-byte node
     * and its loop are unchanged, a sampling node costs 48 bytes. */
    double *samp;
    double smin, smax;     /* running bounds of backed-up leaf scores         */
    /* per depth (from the current root), the range of the discounted
     * values added to node totals there, i.e. the scale that node means at
     * that depth actually live on: UCB's with bounds=depth, and always the
     * sampling policies' and the power mean's (see norm_values) */
    double dmin[SBX_MAX_DEPTH + 1], dmax[SBX_MAX_DEPTH + 1];
    int32_t depth_reached; /* deepest node since the last re-root             */
} smx_tree;

typedef struct smx {
    smx_tree t[SBX_MAX_AGENTS];
    /* root parallelism: thread j >= 1 searches its own tree set rootset[j]
     * (thread 0 searches t); made at the first root-parallel run, dropped
     * when node_cap or the score scale changes */
    smx_tree *rootset[SBX_MAX_THREADS];
    void *sims[SBX_MAX_THREADS]; /* thread j >= 1's simulation state        */
    sbx_neteval wev[SBX_MAX_THREADS]; /* thread j >= 1's value-net batches
                                   (made for the net at a parallel run)    */
    /* RM / RM+ counterfactuals (serial only, like every sampling policy):
     * the state before the current step, and the one an alternative is
     * stepped in */
    void *cf_pre, *cf_alt;
} smx;

static inline double aux_get(const smx_node *n) {
    double d;
    memcpy(&d, n->policy, sizeof d);
    return d;
}
static inline void aux_set(smx_node *n, double d) { memcpy(n->policy, &d, sizeof d); }

/* A sampling policy's per-child statistic (G or R) and average-strategy
 * sum: node i's pair in the side array. */
#define STAT(t, i) ((t)->samp[2 * (size_t)(i)])
#define AVG(t, i) ((t)->samp[2 * (size_t)(i) + 1])

/* Exp3 and regret matching sample from a distribution; UCB1 and UCB1-Tuned
 * pick by an index (the "UCB family": random_threshold, death_penalty and
 * backup=power apply to them only). */
#define IS_SAMPLING(policy) ((policy) >= SBX_POLICY_EXP3)

/* A double in [0, 1) from the top 53 bits (mirrored by the reference). */
static inline double rng_unit(uint64_t *state) {
    return (double)(sbx_rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* sqrt(ln n) (a parent's count) and 1/sqrt(n) (a child's) for the visit
 * counts selection meets. Past a table the same expressions are computed
 * directly, so a value never depends on which path produced it (the Python
 * reference computes them directly throughout). The sizes are measured: with
 * tree reuse a root passes 65,536 visits within a few turns of a 30,000-
 * iteration match, and its log each iteration then cost 3.5% of the snakes
 * headline; with 2,048-entry tables (before) the children's 1/sqrt(n) cost
 * about 10%. 2.5 MB in all, filled once per process (about 1 ms). */
#define SQRT2 1.4142135623730951
#define SQRT_LN_N (1 << 18)
#define RSQRT_N (1 << 16)
/* Filled once per process by smx_tables_init (smitsimax_tree.c). Hidden
 * like every symbol of the library (-fvisibility=hidden), but said here
 * too: a declaration the compiler cannot see is hidden is read through the
 * GOT, one more load per lookup in the hot loop. */
extern double smx_sqrt_ln_table[SQRT_LN_N] __attribute__((visibility("hidden")));
extern double smx_rsqrt_table[RSQRT_N] __attribute__((visibility("hidden")));
void smx_tables_init(void);

static inline double sqrt_ln_n(uint32_t n) {
    return n < SQRT_LN_N ? smx_sqrt_ln_table[n] : sqrt(log((double)n));
}
static inline double rsqrt_n(uint32_t n) {
    return n < RSQRT_N ? smx_rsqrt_table[n] : 1.0 / sqrt((double)n);
}

/* The vtable's iteration_nodes: a child block and a pass node per depth,
 * in every agent's tree (the room an iteration checks for first). */
static inline int64_t smx_iteration_nodes(const sbx_search_params *p, int num_agents,
                                          int max_moves) {
    return (int64_t)p->max_depth * (max_moves + 1) + 1;
}

/* backup=power counts only under UCB1: a pending policy change keeps the
 * old policy in force to the turn's end, and its bytes hold other things. */
static inline int power_on(const sbx_search *s) {
    return s->policy == SBX_POLICY_UCB1 && s->p.backup == SBX_BACKUP_POWER;
}

/* priors (heuristic or net) turn UCB1 into decoupled PUCT; a child's prior
 * is the first double of its side-array pair (STAT), which UCB1 leaves
 * unused (params.c refuses priors with the other policies) */
static inline int puct_on(const sbx_search *s) {
    return s->policy == SBX_POLICY_UCB1 && s->p.priors != SBX_PRIORS_UNIFORM;
}

/* ------------------------------------------------------------ ranges */

/* The range the UCB exploitation term is normalised by, for children at
 * `depth`: the leaf scores' (tutorial §7) or that depth's (bounds=depth).
 * With gamma < 1 a node's mean is a leaf score discounted once per step
 * above the leaf, so near the root it sits on a narrower scale than the
 * leaf range: with bounds=leaf the exploitation term shrinks toward the
 * root and C weighs relatively more there. */
static inline void norm_range(const smx_tree *t, int mode, int depth, double *lo,
                              double *hi) {
    if (mode == SBX_BOUNDS_DEPTH) {
        *lo = t->dmin[depth];
        *hi = t->dmax[depth];
    } else {
        *lo = t->smin;
        *hi = t->smax;
    }
}

/* The normalisation of values at `depth`: lo and 1/scale, with the same
 * fallbacks selection has always used (no range yet: scale 1; no score
 * yet: lo 0). Shared by UCB selection, the Exp3 / RM rewards and the power
 * mean so that all three see one scale. */
FORCE_INLINE void norm_at(const smx_tree *t, int mode, int depth, double *lo,
                          double *scale) {
    double hi;
    norm_range(t, mode, depth, lo, &hi);
    *scale = sbx_norm_scale(lo, hi);
}

/* The normalisation of the values backed up at `depth` for the sampling
 * policies' rewards and the power mean, which need values in [0, 1]: the
 * range of the discounted values added at that depth (dmin / dmax, kept
 * for them in both bounds modes). The leaf scores' range is not theirs
 * with gamma < 1: a value n steps above its leaf is the score times
 * gamma^n, so where the scores are one-signed it falls outside the leaf
 * range and a clamp flattened every shallow value to one bound. `bounds`
 * chooses UCB's exploitation scale only (an unclamped shift and scale). */
FORCE_INLINE void norm_values(const smx_tree *t, int depth, double *lo, double *scale) {
    norm_at(t, SBX_BOUNDS_DEPTH, depth, lo, scale);
}

/* ------------------------------------------------------------ safe_moves */

/* safe_moves: is every one of the k moves in the fatal mask? */
FORCE_INLINE int all_fatal(uint32_t fatal, const uint8_t *moves, int k) {
    for (int i = 0; i < k; i++) {
        if (!((fatal >> moves[i]) & 1u)) return 0;
    }
    return 1;
}

/* A uniform draw among the moves not in the fatal mask (some is not). */
FORCE_INLINE uint8_t random_safe(uint64_t *rng, const uint8_t *moves, int k, uint32_t fatal) {
    uint8_t ok[SBX_MAX_MOVES];
    int m = 0;
    for (int i = 0; i < k; i++) {
        if (!((fatal >> moves[i]) & 1u)) ok[m++] = moves[i];
    }
    return ok[sbx_rng_below(rng, (uint32_t)m)];
}

/* ------------------------------------------------------------ the leaf evaluation */

/* Every score Smitsimax backs up comes from sbx_search_evaluate (search.h):
 * the state an iteration ends in (the serial iteration, the shared-tree
 * modes, each of leaf parallelism's rollouts), an agent's state when it
 * dies with elimination=freeze, and RM's counterfactual alternatives, which
 * are scored "as the leaf is". A parallel worker asks the net on its own
 * evaluator (sbx_search_evaluate_on); the counterfactuals run serial only. */

/* ------------------------------------------------------------ smitsimax_tree.c */

void smx_bounds_reset(smx_tree *t);
/* Only the root, zeroed; bounds and depth reached reset. */
void smx_tree_clear(smx_tree *t);
/* (Re)size the arena (nodes, bitmaps, the sampling side array) to cap
 * nodes; on failure the tree keeps its old arena and cap. */
int smx_tree_alloc(smx_tree *t, uint32_t cap);
void smx_tree_free(smx_tree *t);
/* Root parallelism's tree sets, all dropped. */
void smx_rootsets_free(smx *x);
/* The vtable's advance and reset_all: every tree set re-rooted on the
 * joint played (tree reuse) or cleared. */
void smx_advance(sbx_search *s, const uint8_t *joint);
void smx_reset_all(sbx_search *s);

#endif
