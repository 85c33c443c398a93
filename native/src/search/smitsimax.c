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
 *     tree reuse compact the kept subtree in place (see reroot());
 *   - index 0 is always the root and never a child, so 0 means "none".
 *   No malloc per node: an iteration first checks that each arena can hold
 *   its worst case (max_depth * (moves + 1) nodes) and otherwise stops the
 *   search with SBX_STOP_NODE_CAP.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
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
    /* RM / RM+ counterfactuals (serial only, like every sampling policy):
     * the state before the current step, and the one an alternative is
     * stepped in */
    void *cf_pre, *cf_alt;
} smx;

#define FORCE_INLINE static inline __attribute__((always_inline))

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
static double sqrt_ln_table[SQRT_LN_N], rsqrt_table[RSQRT_N];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void) {
    for (int n = 1; n < SQRT_LN_N; n++) sqrt_ln_table[n] = sqrt(log((double)n));
    for (int n = 1; n < RSQRT_N; n++) rsqrt_table[n] = 1.0 / sqrt((double)n);
}

static inline double sqrt_ln_n(uint32_t n) {
    return n < SQRT_LN_N ? sqrt_ln_table[n] : sqrt(log((double)n));
}
static inline double rsqrt_n(uint32_t n) {
    return n < RSQRT_N ? rsqrt_table[n] : 1.0 / sqrt((double)n);
}

/* ------------------------------------------------------------ arenas */

static void bounds_reset(smx_tree *t) {
    t->smin = INFINITY;
    t->smax = -INFINITY;
    for (int d = 0; d <= SBX_MAX_DEPTH; d++) {
        t->dmin[d] = INFINITY;
        t->dmax[d] = -INFINITY;
    }
}

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

static void tree_clear(smx_tree *t) {
    t->used = 1;
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->nodes[0].move = SBX_MOVE_NONE;
    bounds_reset(t);
    t->depth_reached = 0;
}

static int tree_alloc(smx_tree *t, uint32_t cap) {
    size_t words = ((size_t)cap + 63) / 64;
    /* Nothing here is touched up front: malloc'd nodes and calloc'd bitmaps
     * are only committed by the OS as the tree actually grows, so a large
     * cap costs address space, not memory. The bitmaps come first: if any
     * allocation fails the tree keeps its old arena and its old cap (nodes,
     * bitmaps and cap always describe the same size). */
    uint64_t *mark = calloc(words, sizeof *mark);
    uint32_t *rank = calloc(words, sizeof *rank);
    /* The side array never shrinks below the old cap, so it holds every
     * node whether or not the nodes' realloc below succeeds. */
    const uint32_t samp_cap = cap > t->cap ? cap : t->cap;
    double *samp = (mark && rank) ? realloc(t->samp, (size_t)samp_cap * 2 * sizeof *samp) : NULL;
    if (samp) t->samp = samp;
    smx_node *nodes = samp ? realloc(t->nodes, (size_t)cap * sizeof *nodes) : NULL;
    if (!nodes) {
        free(mark);
        free(rank);
        return SBX_ERR_MEMORY;
    }
    t->nodes = nodes;
    free(t->mark);
    free(t->rank);
    t->mark = mark;
    t->rank = rank;
    t->cap = cap;
    return SBX_OK;
}

static void tree_free(smx_tree *t) {
    free(t->nodes);
    free(t->samp);
    free(t->mark);
    free(t->rank);
    memset(t, 0, sizeof *t);
}

static void rootsets_free(smx *x) {
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (!x->rootset[j]) continue;
        for (int a = 0; a < SBX_MAX_AGENTS; a++) tree_free(&x->rootset[j][a]);
        free(x->rootset[j]);
        x->rootset[j] = NULL;
    }
}

static void smx_destroy(sbx_search *s) {
    smx *x = s->algo;
    if (!x) return;
    for (int a = 0; a < SBX_MAX_AGENTS; a++) tree_free(&x->t[a]);
    rootsets_free(x);
    for (int j = 0; j < SBX_MAX_THREADS; j++) free(x->sims[j]);
    free(x->cf_pre);
    free(x->cf_alt);
    free(x);
    s->algo = NULL;
}

static int smx_create(sbx_search *s) {
    pthread_once(&tables_once, fill_tables);
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
        if (tree_alloc(&x->t[a], (uint32_t)s->p.node_cap) != SBX_OK) {
            smx_destroy(s);
            return sbx_fail(SBX_ERR_MEMORY,
                            "out of memory allocating a %d-node tree arena",
                            s->p.node_cap);
        }
        tree_clear(&x->t[a]);
    }
    return SBX_OK;
}

/* A child block and a pass node per depth, in every agent's tree. */
static int64_t smx_iteration_nodes(const sbx_search_params *p, int num_agents,
                                   int max_moves) {
    return (int64_t)p->max_depth * (max_moves + 1) + 1;
}

static int smx_params_changed(sbx_search *s, const sbx_search_params *old) {
    smx *x = s->algo;
    /* Root parallelism's extra tree sets start afresh on anything that
     * would need them resized or their ranges reset (made again at the
     * next root-parallel run). */
    if (s->p.node_cap != old->node_cap || s->p.depth_normalize != old->depth_normalize ||
        s->p.bounds != old->bounds || s->p.backup != old->backup) {
        rootsets_free(x);
    }
    if (s->p.depth_normalize != old->depth_normalize ||
        s->p.bounds != old->bounds) {
        /* Scores per turn and raw scores live on different scales (§13):
         * bounds gathered on one would squash the other. A change of bounds
         * mode starts the ranges afresh too (they are gathered differently). */
        for (int a = 0; a < s->num_agents; a++) bounds_reset(&x->t[a]);
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
        if (t->used > (uint32_t)s->p.node_cap) tree_clear(t);
        if (tree_alloc(t, (uint32_t)s->p.node_cap) != SBX_OK) {
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

/* ------------------------------------------------------------ selection */


FORCE_INLINE int is_doomed(const smx_node *c, int min_visits) {
    return (c->flags & SBX_NODE_DOOMED) ||
           ((c->flags & (SBX_NODE_DIED | SBX_NODE_SURVIVED)) == SBX_NODE_DIED &&
            c->visits >= (uint32_t)min_visits);
}

/* `sampling` (a compile-time constant in every caller) zeroes the
 * children's side-array pairs too; UCB never touches them. */
FORCE_INLINE void expand(smx_tree *t, uint32_t idx, const uint8_t *moves,
                         int k, const int sampling) {
    uint32_t first = t->used;
    t->used += (uint32_t)k;
    uint8_t depth = (uint8_t)(t->nodes[idx].depth + 1);
    smx_node *ch = &t->nodes[first];
    for (int i = 0; i < k; i++) {
        memset(&ch[i], 0, sizeof ch[i]);
        ch[i].move = moves[i];
        ch[i].depth = depth;
    }
    if (sampling) memset(&t->samp[2 * (size_t)first], 0, (size_t)k * 2 * sizeof *t->samp);
    t->nodes[idx].first_child = first;
    t->nodes[idx].nchildren = (uint8_t)k;
}

FORCE_INLINE uint32_t pass_child(smx_tree *t, uint32_t idx) {
    uint32_t c = t->nodes[idx].pass_child;
    if (c) return c;
    c = t->used++;
    smx_node *n = &t->nodes[c];
    memset(n, 0, sizeof *n);
    n->move = SBX_MOVE_NONE;
    n->flags = SBX_NODE_PASS;
    n->depth = (uint8_t)(t->nodes[idx].depth + 1);
    t->nodes[idx].pass_child = c;
    return c;
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

/* A child's value as UCB sees it: its mean, or with backup=power the power
 * mean kept in its spare bytes (see backup_power()). */
FORCE_INLINE double node_value(const smx_node *c, const int power) {
    return power ? aux_get(c) : c->total / (double)c->visits;
}

/* The next depth reads c's children: ask for their cache lines now, while
 * the other agents pick and the game steps (below the top levels a tree's
 * nodes are rarely in cache; measured +6% iterations/s on the snakes
 * headline). A block of 4 children spans two lines, or three when it
 * starts mid-line, hence the block's last byte too; and c's own
 * sqrt(ln N) entry, which selection under c reads first (the 2 MB table
 * misses cache for the mid-tree counts: that load was 15% of this loop's
 * samples; with both, about 2.5% less time on the headline's fixed work).
 * Serial trees only: in a shared-tree run the same prefetch cost 2 threads
 * about 10% of their speed (it pulls lines the other thread is writing). */
FORCE_INLINE void prefetch_children(const smx_tree *t, uint32_t c) {
    const smx_node *nd = &t->nodes[c];
    const uint32_t f = nd->first_child;
    if (f) {
        const char *gc = (const char *)&t->nodes[f];
        __builtin_prefetch(gc);
        __builtin_prefetch(gc + 64);
        __builtin_prefetch(gc + (size_t)nd->nchildren * sizeof(smx_node) - 1);
    }
    if (nd->visits < SQRT_LN_N) __builtin_prefetch(&sqrt_ln_table[nd->visits]);
}

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

/* Tutorial §7 selectChild: uniform while the parent is young, then UCB1 on
 * the normalised mean, (mean - lo) / (hi - lo), plus C*sqrt(ln N / n).
 * (Subtracting lo shifts every child equally, so the pick is the
 * tutorial's.) [lo, hi] is the range of the leaf scores (bounds=leaf, the
 * tutorial's) or of the discounted values backed up at the children's depth
 * (bounds=depth), see norm_range().
 * UCB1-Tuned (Auer et al. 2002) replaces the bonus by
 * C*sqrt(ln N / n * min(1/4, V)), V = variance + sqrt(2 ln N / n), the
 * variance of the child's backed-up values on the same normalised scale
 * (raw variance / scale^2; floored at 0 against rounding). `policy` and
 * `power` are compile-time constants in every caller, so UCB1 carries no
 * trace of the others. */
FORCE_INLINE uint32_t select_ucb(const smx_tree *t, const smx_node *node,
                                 const sbx_search_params *p, uint64_t *rng,
                                 int *pick, const double *leaf_norm,
                                 const int policy, const int power, const uint32_t fatal) {
    const uint32_t first = node->first_child;
    const int k = node->nchildren;
    const smx_node *ch = &t->nodes[first];
    if (node->visits < (uint32_t)p->random_threshold) {
        *pick = SBX_PICK_RANDOM;
        if (p->death_penalty || fatal) {
            /* the safe children not doomed; else the safe ones; else all */
            int ok[SBX_MAX_MOVES], safe[SBX_MAX_MOVES], m = 0, ms = 0;
            for (int i = 0; i < k; i++) {
                if ((fatal >> ch[i].move) & 1u) continue;
                safe[ms++] = i;
                if (!(p->death_penalty && is_doomed(&ch[i], p->death_min_visits))) ok[m++] = i;
            }
            if (m > 0 && m < k) return first + (uint32_t)ok[sbx_rng_below(rng, (uint32_t)m)];
            if (ms > 0 && ms < k) return first + (uint32_t)safe[sbx_rng_below(rng, (uint32_t)ms)];
        }
        return first + sbx_rng_below(rng, (uint32_t)k);
    }
    if (fatal) {
        /* safe_moves: a fatal child is neither tried nor picked while a
         * safe one is left (the caller passes 0 when every move is fatal);
         * the untried draw is over the safe untried children only */
        int untried[SBX_MAX_MOVES], m = 0;
        for (int i = 0; i < k; i++) {
            if (!((fatal >> ch[i].move) & 1u) && ch[i].visits == 0) untried[m++] = i;
        }
        if (m > 0) {
            *pick = SBX_PICK_UCB;
            return first + (uint32_t)untried[sbx_rng_below(rng, (uint32_t)m)];
        }
    }
    *pick = SBX_PICK_UCB;
    /* bounds=leaf: the iteration's (lo, 1/scale), the same at every depth
     * and unchanged until the backup, so the caller computes it once */
    double lo, inv_scale;
    if (p->bounds == SBX_BOUNDS_DEPTH) {
        double scale;
        norm_at(t, p->bounds, node->depth + 1, &lo, &scale);
        inv_scale = 1.0 / scale;
    } else {
        lo = leaf_norm[0];
        inv_scale = leaf_norm[1];
    }
    /* C*sqrt(ln N / n) as (C*sqrt(ln N)) * (1/sqrt(n)): one sqrt per parent
     * instead of a divide and a sqrt per child. */
    const double explore =
        policy == SBX_POLICY_UCB1 ? p->c * sqrt_ln_n(node->visits) : 0.0;
    /* UCB1-Tuned from the same tables: sqrt(ln N) once per parent, 1/sqrt(n)
     * per child (1/n = its square), so a child costs one sqrt and no
     * division where the textbook spelling took two of each (the shipped
     * goofspiel agent spent 40% of its time there) */
    const double s_ln = policy == SBX_POLICY_UCB1_TUNED ? sqrt_ln_n(node->visits) : 0.0;
    uint32_t best = first;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const smx_node *c = &ch[i];
        if (fatal && ((fatal >> c->move) & 1u)) continue;
        if (c->visits == 0) {
            return first + sbx_random_untried(rng, &ch[0].visits, sizeof *ch, i, k);
        }
        double v;
        if (policy == SBX_POLICY_UCB1_TUNED) {
            const double r = rsqrt_n(c->visits);      /* 1/sqrt(n) */
            const double inv_n = r * r;
            const double mean = c->total * inv_n;
            double var = aux_get(c) * inv_n - mean * mean;
            if (var < 0.0) var = 0.0;
            const double bonus = s_ln * r;           /* sqrt(ln N / n) */
            double vb = var * inv_scale * inv_scale + SQRT2 * bonus;
            if (vb > 0.25) vb = 0.25;
            v = (mean - lo) * inv_scale + p->c * bonus * sqrt(vb);
        } else {
            v = (node_value(c, power) - lo) * inv_scale +
                explore * rsqrt_n(c->visits);
        }
        if (p->death_penalty && is_doomed(c, p->death_min_visits)) {
            v -= p->death_penalty_value;
        }
        sbx_keep_max(&best, &best_v, first + (uint32_t)i, v);
    }
    return best;
}

/* The un-mixed strategy sigma over a node's k children, in double:
 * Exp3: softmax of eta * G (eta = gamma / K, the largest G subtracted so
 * exp never overflows); RM / RM+: positive regrets normalised, uniform when
 * none is positive. */
FORCE_INLINE void strategy(const smx_tree *t, uint32_t first, int k, double gamma_x,
                           const int policy, double *sigma) {
    double sum = 0.0;
    if (policy == SBX_POLICY_EXP3) {
        const double eta = gamma_x / (double)k;
        double gmax = STAT(t, first);
        for (int i = 1; i < k; i++) {
            if (STAT(t, first + (uint32_t)i) > gmax) gmax = STAT(t, first + (uint32_t)i);
        }
        for (int i = 0; i < k; i++) {
            sigma[i] = exp(eta * (STAT(t, first + (uint32_t)i) - gmax));
            sum += sigma[i];
        }
        for (int i = 0; i < k; i++) sigma[i] = sigma[i] / sum;
    } else {
        for (int i = 0; i < k; i++) {
            const double r = STAT(t, first + (uint32_t)i);
            sigma[i] = r > 0.0 ? r : 0.0;
            sum += sigma[i];
        }
        if (sum > 0.0) {
            for (int i = 0; i < k; i++) sigma[i] = sigma[i] / sum;
        } else {
            for (int i = 0; i < k; i++) sigma[i] = 1.0 / (double)k;
        }
    }
}

/* The weight of one selection's distribution in the average strategy
 * (avg_weight; t = the parent's visits, counted before its children are
 * picked, so t >= 1). The average never feeds back into selection: the
 * weighting changes what is reported and played, not the regrets. */
static inline double avg_weight(int mode, int policy, uint32_t t) {
    if (mode == SBX_AVG_AUTO) mode = policy == SBX_POLICY_RM_PLUS ? SBX_AVG_SQRT : SBX_AVG_UNIFORM;
    switch (mode) {
    case SBX_AVG_SQRT: return sqrt((double)t);
    case SBX_AVG_LINEAR: return (double)t;
    default: return 1.0;
    }
}

/* The uniform share mixed into a sampling node's distribution, gamma in
 * p = (1 - gamma) sigma + gamma / K: `exploration`, raised to
 * exploration_decay * sqrt(K / n) while the node is young (n: its visits,
 * this one counted; at most 1, i.e. uniform). A fixed share starved the
 * subtrees of moves the node had turned away from early: on a repeated
 * matrix game with one strictly dominant row, a subtree visited 2.5% of
 * the time learned its own play too slowly to look better than the
 * well-learned subtree of the dominated row, and the root never came back
 * (32 of 200 seeds under rm at 20,000 iterations). With the decay every
 * child is still sampled about exploration_decay * 2 sqrt(n / K) times
 * besides the floor, which is enough for its subtree to learn, and the
 * average strategy (the mean of p) forgets the early uniform play. Exp3's
 * learning rate stays exploration / K. */
FORCE_INLINE double explore_share(const sbx_search_params *p, int k, uint32_t visits) {
    double g = p->exploration_decay * sqrt((double)k / (double)(visits ? visits : 1));
    if (g > 1.0) g = 1.0;
    return g > p->exploration ? g : p->exploration;
}

/* Exp3 / regret matching (Lanctot et al.'s SM-MCTS; tutorial §10-§11):
 * sample from p = (1 - gamma) sigma + gamma / K, gamma = `exploration`.
 * p itself (the uniform mix included: the empirical play frequencies, see
 * below), times avg_weight's weight, is added to each child's
 * average-strategy sum. *p_out gets the picked child's p, which the update
 * after the iteration divides by. */
FORCE_INLINE uint32_t select_sample(smx_tree *t, const smx_node *node,
                                    const sbx_search_params *p, uint64_t *rng,
                                    int *pick, double *p_out, const int policy) {
    const uint32_t first = node->first_child;
    const int k = node->nchildren;
    double sigma[SBX_MAX_MOVES];
    const double gx = explore_share(p, k, node->visits);
    strategy(t, first, k, p->exploration, policy, sigma);
    const double mix = gx / (double)k;
    const double w = avg_weight(p->avg_weight, policy, node->visits);
    const double u = rng_unit(rng);
    double acc = 0.0;
    int chosen = -1;
    double pc = 0.0;
    for (int i = 0; i < k; i++) {
        const double pi = (1.0 - gx) * sigma[i] + mix;
        /* The average strategy sums what is actually sampled, exploration
         * included: the empirical play frequencies, whose convergence in
         * self-play is what Lisy et al. (2013) prove. Regrets are measured
         * against the opponent's sampling distribution, so an average of
         * the un-mixed sigma settles where the MIXED strategy is the
         * equilibrium: a floor of NashConv 0.016 on biased RPS at
         * exploration 0.05, which this average does not have. */
        AVG(t, first + (uint32_t)i) += w * pi;
        acc += pi;
        if (chosen < 0 && u < acc) {
            chosen = i;
            pc = pi;
        }
    }
    if (chosen < 0) { /* u above a sum rounded below 1: the last child */
        chosen = k - 1;
        pc = (1.0 - gx) * sigma[k - 1] + mix;
    }
    *pick = SBX_PICK_SAMPLE;
    *p_out = pc;
    return first + (uint32_t)chosen;
}

/* ------------------------------------------------------------ backup */

/* Exp3 / RM after the iteration, at every sampled step of one agent's path:
 * the picked child a = path[k] earned x = its backed-up value vals[k]
 * normalised to [0, 1] by the range of the values backed up at its depth
 * (norm_values: whatever `bounds` says, since a depth's values are
 * discounted once per step above their leaf and the leaf range is not
 * theirs; the range includes vals[k], so x needs no clamp). Exp3: G_a += x / p_a (the importance-weighted reward estimate).
 * RM / RM+ (outcome sampling with a control variate, VR-MCCFR, Schmid et
 * al. 2019): every child i of the parent gets the estimate
 *     xhat_i = b_i + [i == a] (x - b_a) / p_a,
 * b_i = child i's mean BEFORE this iteration's backup (prev_total: the
 * picked child's total before it; its visits were already counted at
 * selection) on the same normalised scale as x, clamped; 0.5, the middle
 * of the scale, for a child with no visits yet. xhat_i is unbiased for
 * every b (the correction term has expectation 0), and with b close to the
 * true values the x / p_a blow-up only carries x - b_a: the noise that
 * held plain outcome sampling at NashConv ~0.02 on RPS. Then
 *     R_i += xhat_i - sum_j p_j xhat_j,
 * p = (1 - gamma) sigma + gamma / K the distribution the pick was drawn
 * from; RM+ floors each R_i at 0 after the update. Summed in doubles.
 * Why p and not textbook MCCFR's sigma (the un-mixed strategy, the one
 * averaged): both are unbiased, and their expectations differ only by a
 * shift common to all actions; but weighted by p the picked
 * action's amplified term p_a (x - b_a) / p_a = x - b_a carries no 1/p_a
 * at all, and it measured better on both games (NashConv / range over 5
 * seeds at 100k, gamma 0.05, mean/max: RPS rm 0.008/0.012 vs
 * 0.012/0.025, biased RPS rm 0.015/0.018 vs 0.015/0.021, rm_plus
 * 0.017/0.018 vs 0.018/0.020). With b = 0 this is the old estimator
 * (sum_j p_j xhat_j = x). What is left on biased RPS is bias, not noise:
 * the regrets are against the opponent's mixed p, so the average of sigma
 * settles where (1 - gamma) sigma + gamma / K is the equilibrium, NashConv
 * / range 0.0158 at gamma 0.05 (0.006 at 0.02, where noise costs more).
 *
 * At cf_k (RM / RM+ with `counterfactual`: a step where the picked line
 * and every alternative end; see counterfactuals()) no estimate is
 * needed: xhat_i is child i's own return against the others' actual moves,
 * normalised like x (the depth's range includes them), and
 * R_i += u(i, b) - sum_j p_j u(j, b):
 * tutorial §11's u(a, b) - u(a_t, b) with the played move's return
 * replaced by its expectation under p (equal in expectation over the pick,
 * without the pick's noise). Only the opponents' sampling is left as
 * noise: on the one-shot games RM's NashConv at 100k went from 0.0120 mean
 * / 0.0326 worst (30 seeds, RPS) to the figures in params.c's doc. */
FORCE_INLINE void update_sampling(smx_tree *t, const uint32_t *path, int plen,
                                  const double *psel, const double *vals,
                                  const double *prev_total, int cf_k, const double *cfv,
                                  const sbx_search_params *p, const int policy) {
    for (int k = plen - 1; k >= 1; k--) {
        if (psel[k] <= 0.0) continue; /* a pass node: nothing was sampled */
        double lo, scale;
        norm_values(t, k, &lo, &scale);
        const double x = (vals[k] - lo) / scale;
        const uint32_t c = path[k];
        if (policy == SBX_POLICY_EXP3) {
            STAT(t, c) += x / psel[k];
        } else {
            const smx_node *parent = &t->nodes[path[k - 1]];
            const uint32_t first = parent->first_child;
            const smx_node *ch = &t->nodes[first];
            const int kc = parent->nchildren;
            double sigma[SBX_MAX_MOVES], xhat[SBX_MAX_MOVES];
            /* the strategy the pick was drawn from: these regrets have not
             * changed since (each node's children are updated once, here) */
            const double gx = explore_share(p, kc, parent->visits);
            strategy(t, first, kc, p->exploration, policy, sigma);
            const double mix = gx / (double)kc;
            double ev = 0.0;
            for (int i = 0; i < kc; i++) {
                const int picked = first + (uint32_t)i == c;
                const uint32_t n = picked ? ch[i].visits - 1 : ch[i].visits;
                if (k == cf_k) { /* exact: every move's own return (counterfactual) */
                    xhat[i] = picked ? x : (cfv[i] - lo) / scale;
                    ev += ((1.0 - gx) * sigma[i] + mix) * xhat[i];
                    continue;
                }
                double b = 0.5;
                if (n > 0) {
                    /* a mean of values on this depth's scale; only a mean
                     * kept from before a re-root can lie outside the fresh
                     * range, and a baseline's error costs variance, never
                     * bias, so the clamp is a guard */
                    b = ((picked ? prev_total[k] : ch[i].total) / (double)n - lo) / scale;
                    if (b < 0.0) b = 0.0;
                    if (b > 1.0) b = 1.0;
                }
                xhat[i] = picked ? b + (x - b) / psel[k] : b;
                ev += ((1.0 - gx) * sigma[i] + mix) * xhat[i];
            }
            for (int i = 0; i < kc; i++) {
                double r = STAT(t, first + (uint32_t)i) + (xhat[i] - ev);
                if (policy == SBX_POLICY_RM_PLUS && r < 0.0) r = 0.0;
                STAT(t, first + (uint32_t)i) = r;
            }
        }
    }
}

/* backup=power (Dam et al. 2020; tutorial §13), bottom-up along the path:
 * a node's value is the power mean, (sum n_i x_i^p / sum n_i)^(1/p), over
 *   - each visited child i, with n_i its visits and x_i gamma times its
 *     value (a child's value lives one step further from the root), and
 *   - the playouts that ended AT the node (terminal, max_depth, a rollout
 *     or a frozen death below its last tree node), n_0 = the node's visits
 *     minus its children's, x_0 their mean: the node's total less gamma
 *     times the children's totals, over n_0.
 * Every x is normalised to [0, 1] on the node's own depth's range of
 * backed-up values (norm_values), where all of them lie, and mapped back.
 * Leaving out the playouts that ended at a node made its value that of its
 * longest lines only: on a game of variable length, p = 1 returned each
 * action's best line, not its mean. With them, p = 1 is the visit-weighted
 * mean exactly (up to rounding), on games of any depth, and a larger p
 * leans toward the best child. A node without visited children gets its
 * mean. Kept in the node's spare double, read by select_ucb in place of the
 * mean. */
static void backup_power(smx_tree *t, const uint32_t *path, int plen,
                         const sbx_search_params *p) {
    const double inv_p = 1.0 / p->power_p;
    const double gamma = p->gamma;
    for (int k = plen - 1; k >= 0; k--) {
        smx_node *nd = &t->nodes[path[k]];
        double lo, scale;
        norm_values(t, k, &lo, &scale);
        double num = 0.0, den = 0.0, child_total = 0.0;
        const int kids = nd->nchildren + (nd->pass_child ? 1 : 0);
        for (int i = 0; i < kids; i++) {
            const smx_node *c = &t->nodes[i < nd->nchildren ? nd->first_child + (uint32_t)i
                                                           : nd->pass_child];
            if (c->visits == 0) continue;
            /* the clamps guard values kept from before a re-root only */
            double x = (gamma * aux_get(c) - lo) / scale;
            if (x < 0.0) x = 0.0;
            if (x > 1.0) x = 1.0;
            num += (double)c->visits * pow(x, p->power_p);
            den += (double)c->visits;
            child_total += c->total;
        }
        if (den <= 0.0) {
            aux_set(nd, nd->total / (double)nd->visits);
            continue;
        }
        const double ended = (double)nd->visits - den;
        if (ended > 0.0) {
            double x = ((nd->total - gamma * child_total) / ended - lo) / scale;
            if (x < 0.0) x = 0.0;
            if (x > 1.0) x = 1.0;
            num += ended * pow(x, p->power_p);
            den += ended;
        }
        aux_set(nd, lo + pow(num / den, inv_p) * scale);
    }
}

/* ------------------------------------------------------------ iteration */

/* RM / RM+ at a step that ends the game (counterfactual = terminal), or at
 * an iteration's last step, max_depth included (last_step), for each agent
 * whose move there a node sampled: the return of every sibling move it
 * could have played instead, against the others' actual moves. The state
 * before the step is stepped again with the alternative (the others' moves
 * and the state's own RNG kept: the same chance draws, though an
 * alternative that frees other cells may see food spawn elsewhere) and
 * evaluated as the leaf is (depth-normalised at the same depth). That is
 * the value the search itself would back up for that line only where the
 * line ends there too: the alternative's state is terminal, or (last_step)
 * the depth limit is reached. A node with an alternative that would have
 * gone on (a snake that survives where the picked move ended the game)
 * keeps the sampled estimate for all its children: cf_k stays 0. This is
 * tutorial §11's u(a, b_t); above the last step only a simulation per
 * alternative could give it. The picked child's slot is left for the
 * iteration's own score. */
static void counterfactuals(const sbx_search *s, smx *x, const smx_tree *trees,
                            uint32_t (*path)[SBX_MAX_DEPTH + 1], const int *plen,
                            const uint32_t *step_node, const uint8_t *joint, int depth,
                            int at_limit, double (*cfv)[SBX_MAX_MOVES], int *cf_k) {
    const int n = s->num_agents;
    for (int a = 0; a < n; a++) {
        cf_k[a] = 0;
        if (!step_node[a]) continue;
        /* determinized: another seat's siblings come from an earlier sample
         * and may be illegal in this one; its node keeps sampled estimates */
        if (s->hidden && a != sbx_info_seat(&s->p)) continue;
        const smx_node *parent = &trees[a].nodes[path[a][plen[a] - 2]];
        const smx_node *ch = &trees[a].nodes[parent->first_child];
        uint8_t alt[SBX_MAX_AGENTS];
        memcpy(alt, joint, (size_t)n);
        int ends = 1;
        for (int i = 0; ends && i < parent->nchildren; i++) {
            cfv[a][i] = 0.0;
            if (parent->first_child + (uint32_t)i == step_node[a]) continue;
            memcpy(x->cf_alt, x->cf_pre, s->state_size);
            alt[a] = ch[i].move;
            s->vt->step(s->cfg, x->cf_alt, alt, NULL);
            ends = at_limit || s->vt->is_terminal(s->cfg, x->cf_alt);
            if (!ends) break; /* this line goes on: the node keeps its estimates */
            double sc[SBX_MAX_AGENTS];
            s->vt->evaluate(s->cfg, x->cf_alt, sc);
            cfv[a][i] = s->p.depth_normalize ? sc[a] / (double)(depth > 1 ? depth : 1) : sc[a];
        }
        if (ends) cf_k[a] = plen[a] - 1;
    }
}

/* One iteration. `policy` (SBX_POLICY_*) and `power` (backup=power in force
 * for UCB1) are constants at every call but the traced one, so each policy
 * gets its own copy of the loop (smx_iterate dispatches once per iteration)
 * and UCB1's is the loop it always was. */
FORCE_INLINE int smx_iterate_impl(sbx_search *s, smx_tree *trees, uint64_t *rng,
                                  void *sim, int64_t *turns, sbx_trace *tr,
                                  const int policy, const int power) {
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    const uint32_t need =
        (uint32_t)p->max_depth * (uint32_t)(s->max_moves + 1) + 1;
    for (int a = 0; a < n; a++) {
        if (trees[a].cap - trees[a].used < need) return SBX_STOP_NODE_CAP;
    }

    /* sbx_sim_begin on this worker's state and RNG (the serial search's
     * are s->sim and s->rng) */
    memcpy(sim, s->root, s->state_size);
    const uint64_t sim_seed = sbx_rng_next(rng);
    vt->reseed(sim, sim_seed);
    sbx_sim_determinize(s, sim, rng); /* hidden information: sample the seat's view */
    const int info_seat = s->hidden ? sbx_info_seat(p) : -1;

    uint32_t path[SBX_MAX_AGENTS][SBX_MAX_DEPTH + 1];
    int plen[SBX_MAX_AGENTS], leaf_depth[SBX_MAX_AGENTS];
    uint8_t in_tree[SBX_MAX_AGENTS], alive[SBX_MAX_AGENTS],
        frozen[SBX_MAX_AGENTS];
    uint32_t step_node[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
    /* Exp3 / RM: the picked child's sampling probability per path index
     * (0: not sampled there, e.g. a pass node) */
    double psel[IS_SAMPLING(policy) ? SBX_MAX_AGENTS : 1][SBX_MAX_DEPTH + 1];
    /* RM / RM+: the last step's counterfactual returns per agent and child,
     * and the path index they belong to (0: none; see counterfactuals) */
    const int cf = (policy == SBX_POLICY_RM || policy == SBX_POLICY_RM_PLUS) &&
                   p->counterfactual != SBX_CF_OFF;
    double cfv[policy == SBX_POLICY_RM || policy == SBX_POLICY_RM_PLUS ? SBX_MAX_AGENTS : 1]
              [SBX_MAX_MOVES];
    int cf_k[SBX_MAX_AGENTS] = {0};
    smx *const x = s->algo;
    uint8_t joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    const int safe = p->safe_moves && vt->fatal_moves != NULL;
    if (vt->fixed_moves) {
        for (int m = 0; m < s->max_moves; m++) moves[m] = (uint8_t)m;
    }

    double leaf_norm[SBX_MAX_AGENTS][2]; /* bounds=leaf: lo, 1/scale */
    for (int a = 0; a < n; a++) {
        double scale;
        norm_at(&trees[a], SBX_BOUNDS_LEAF, 0, &leaf_norm[a][0], &scale);
        leaf_norm[a][1] = 1.0 / scale;
        trees[a].nodes[0].visits++;
        path[a][0] = 0;
        plen[a] = 1;
        alive[a] = (uint8_t)((vt->alive_mask(cfg, sim) >> a) & 1u);
        in_tree[a] = (uint8_t)(alive[a] || !freeze);
        frozen[a] = 0;
    }

    int depth = 0, terminal = 0;
    for (int d = 0; d < p->max_depth; d++) {
        for (int a = 0; a < n; a++) {
            smx_tree *t = &trees[a];
            int pick = SBX_PICK_NONE, expanded = 0;
            step_node[a] = 0;
            int k = !alive[a]         ? 0
                    : vt->fixed_moves ? s->max_moves
                                      : vt->legal_moves(cfg, sim, a, moves);
            /* safe_moves: the moves the game knows lose at once (0 when
             * every move does: then any may be picked) */
            uint32_t fatal = 0;
            if (k > 0 && safe) {
                fatal = vt->fatal_moves(cfg, sim, a);
                if (all_fatal(fatal, moves, k)) fatal = 0;
            }
            if (k == 0) {
                joint[a] = SBX_MOVE_NONE;
                if (in_tree[a]) { /* eliminated: descend through a pass node */
                    uint32_t c = pass_child(t, path[a][plen[a] - 1]);
                    t->nodes[c].visits++;
                    if (IS_SAMPLING(policy)) psel[a][plen[a]] = 0.0;
                    path[a][plen[a]++] = c;
                    pick = SBX_PICK_PASS;
                }
            } else if (in_tree[a]) {
                uint32_t cur = path[a][plen[a] - 1];
                if (t->nodes[cur].first_child == 0) {
                    expand(t, cur, moves, k, IS_SAMPLING(policy));
                    expanded = 1;
                }
                uint32_t c;
                if (IS_SAMPLING(policy)) {
                    c = select_sample(t, &t->nodes[cur], p, rng, &pick,
                                      &psel[a][plen[a]], policy);
                } else {
                    c = select_ucb(t, &t->nodes[cur], p, rng, &pick, leaf_norm[a],
                                   policy, power, fatal);
                }
                if (info_seat >= 0 && a != info_seat &&
                    !memchr(moves, t->nodes[c].move, (size_t)k)) {
                    /* Determinized: another seat's node was expanded with the
                     * moves of an earlier sample, and this child's move is
                     * not legal in this one. That seat leaves its tree for
                     * the rest of the iteration (no visit, no update below
                     * `cur`) and plays uniformly random legal moves. */
                    in_tree[a] = 0;
                    joint[a] = moves[sbx_rng_below(rng, (uint32_t)k)];
                    pick = SBX_PICK_ROLLOUT;
                } else {
                    t->nodes[c].visits++;
                    joint[a] = t->nodes[c].move;
                    path[a][plen[a]++] = c;
                    step_node[a] = c;
                    prefetch_children(t, c);
                    if (p->rollout && expanded) in_tree[a] = 0;
                }
            } else {
                joint[a] = fatal ? random_safe(rng, moves, k, fatal)
                                 : moves[sbx_rng_below(rng, (uint32_t)k)];
                pick = SBX_PICK_ROLLOUT;
            }
            if (tr) {
                tr->moves[a][d] = joint[a] == SBX_MOVE_NONE ? -1 : joint[a];
                tr->pick[a][d] = (int8_t)pick;
                tr->expanded[a][d] = (int8_t)expanded;
            }
        }
        if (cf) { /* the state before the step, if a node picked a move in it */
            int picked = 0;
            for (int a = 0; a < n; a++) picked |= step_node[a] != 0;
            if (picked) memcpy(x->cf_pre, sim, s->state_size);
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        int newly_frozen = 0;
        const uint32_t alive_now = vt->alive_mask(cfg, sim);
        for (int a = 0; a < n; a++) {
            if (!alive[a]) {
                if (tr) tr->alive_after[a][d] = 0;
                continue;
            }
            int now = (int)((alive_now >> a) & 1u);
            if (step_node[a]) {
                trees[a].nodes[step_node[a]].flags |=
                    now ? SBX_NODE_SURVIVED : SBX_NODE_DIED;
            }
            if (tr) tr->alive_after[a][d] = (int8_t)now;
            if (!now) {
                alive[a] = 0;
                if (freeze) {
                    frozen[a] = 1;
                    in_tree[a] = 0;
                    leaf_depth[a] = depth;
                    newly_frozen = 1;
                }
            }
        }
        if (newly_frozen) {
            /* A frozen tree learns nothing after its death: its score is the
             * evaluation at the moment it died. */
            double at_death[SBX_MAX_AGENTS];
            vt->evaluate(cfg, sim, at_death);
            for (int a = 0; a < n; a++) {
                if (frozen[a] == 1) {
                    score[a] = at_death[a];
                    frozen[a] = 2;
                }
            }
        }
        const int ends = vt->is_terminal(cfg, sim);
        if (cf) {
            const int at_limit = p->counterfactual == SBX_CF_LAST_STEP && depth == p->max_depth;
            if (ends || at_limit) {
                counterfactuals(s, x, trees, path, plen, step_node, joint, depth, at_limit, cfv,
                                cf_k);
            }
        }
        if (ends) {
            terminal = 1;
            break;
        }
    }
    *turns += depth;

    double final_scores[SBX_MAX_AGENTS];
    vt->evaluate(cfg, sim, final_scores);
    const double gamma = p->gamma;
    for (int a = 0; a < n; a++) {
        smx_tree *t = &trees[a];
        if (!frozen[a]) {
            score[a] = final_scores[a];
            leaf_depth[a] = depth;
        }
        if (p->depth_normalize) {
            score[a] /= (double)(leaf_depth[a] > 1 ? leaf_depth[a] : 1);
        }
        if (score[a] < t->smin) t->smin = score[a];
        if (score[a] > t->smax) t->smax = score[a];
        if (cf && cf_k[a]) { /* the alternatives' returns are leaf scores too */
            const int k = cf_k[a];
            const smx_node *par = &t->nodes[path[a][k - 1]];
            for (int i = 0; i < par->nchildren; i++) {
                if (par->first_child + (uint32_t)i == path[a][k]) continue;
                const double u = cfv[a][i];
                if (u < t->smin) t->smin = u;
                if (u > t->smax) t->smax = u;
                /* RM normalises them on depth k's range (norm_values) */
                if (u < t->dmin[k]) t->dmin[k] = u;
                if (u > t->dmax[k]) t->dmax[k] = u;
            }
        }

        /* Discounted backpropagation (tutorial §13): the leaf gets the full
         * score, each step toward the root multiplies it by gamma. The score
         * was taken at leaf_depth; a path that left the tree earlier (a
         * rollout) is discounted for the turns played below it too, so that
         * "a score evaluated at depth 10 reaches the root multiplied by
         * gamma^10" whatever the tree's depth. */
        double v = score[a];
        for (int k = leaf_depth[a] - t->nodes[path[a][plen[a] - 1]].depth; k > 0; k--) {
            v *= gamma;
        }
        double vals[SBX_MAX_DEPTH + 1]; /* the value backed up at path[k] */
        double prev_total[SBX_MAX_DEPTH + 1]; /* path[k]'s total before it */
        /* the per-depth ranges: UCB's scale with bounds=depth, and the
         * sampling policies' and the power mean's always (norm_values); a
         * compile-time false for plain UCB1 with bounds=leaf */
        if (p->bounds == SBX_BOUNDS_DEPTH || IS_SAMPLING(policy) || power) {
            for (int k = plen[a] - 1; k >= 0; k--) { /* path[k] is at depth k */
                if (IS_SAMPLING(policy)) prev_total[k] = t->nodes[path[a][k]].total;
                t->nodes[path[a][k]].total += v;
                if (policy == SBX_POLICY_UCB1_TUNED) {
                    smx_node *nd = &t->nodes[path[a][k]];
                    aux_set(nd, aux_get(nd) + v * v);
                }
                if (IS_SAMPLING(policy)) vals[k] = v;
                if (v < t->dmin[k]) t->dmin[k] = v;
                if (v > t->dmax[k]) t->dmax[k] = v;
                v *= gamma;
            }
        } else {
            for (int k = plen[a] - 1; k >= 0; k--) {
                if (IS_SAMPLING(policy)) prev_total[k] = t->nodes[path[a][k]].total;
                t->nodes[path[a][k]].total += v;
                if (policy == SBX_POLICY_UCB1_TUNED) {
                    smx_node *nd = &t->nodes[path[a][k]];
                    aux_set(nd, aux_get(nd) + v * v);
                }
                if (IS_SAMPLING(policy)) vals[k] = v;
                v *= gamma;
            }
        }
        if (IS_SAMPLING(policy)) {
            update_sampling(t, path[a], plen[a], psel[a], vals, prev_total, cf_k[a],
                            cf ? cfv[a] : NULL, p, policy);
        }
        if (power) backup_power(t, path[a], plen[a], p);
        /* Certain death propagates up: a node all of whose children are
         * certain death is itself doomed (re-judged on every visit). */
        for (int k = plen[a] - 2; k >= 0; k--) {
            smx_node *nd = &t->nodes[path[a][k]];
            const smx_node *onpath = &t->nodes[path[a][k + 1]];
            int all = nd->nchildren > 0 &&
                      ((onpath->flags & SBX_NODE_PASS) ||
                       is_doomed(onpath, p->death_min_visits));
            for (int i = 0; all && i < nd->nchildren; i++) {
                all = is_doomed(&t->nodes[nd->first_child + i],
                                p->death_min_visits);
            }
            if (all) nd->flags |= SBX_NODE_DOOMED;
            else nd->flags &= (uint8_t)~SBX_NODE_DOOMED;
        }
        int leaf = t->nodes[path[a][plen[a] - 1]].depth;
        if (leaf > t->depth_reached) t->depth_reached = leaf;
    }

    if (tr) {
        tr->depth = depth;
        tr->terminal = terminal;
        tr->sim_seed = sim_seed;
        for (int a = 0; a < n; a++) {
            tr->path_len[a] = plen[a];
            for (int k = 0; k < plen[a]; k++) tr->path[a][k] = (int32_t)path[a][k];
            tr->score[a] = score[a];
            double lo, hi;
            norm_range(&trees[a], p->bounds, 1, &lo, &hi);
            tr->norm_min[a] = lo <= hi ? lo : 0.0;
            tr->norm_max[a] = lo <= hi ? hi : 0.0;
        }
    }
    return SBX_STOP_NONE;
}

/* backup=power counts only under UCB1: a pending policy change keeps the
 * old policy in force to the turn's end, and its bytes hold other things. */
static inline int power_on(const sbx_search *s) {
    return s->policy == SBX_POLICY_UCB1 && s->p.backup == SBX_BACKUP_POWER;
}

#define ITER_ARGS sbx_search *s, smx_tree *trees, uint64_t *rng, void *sim, int64_t *turns
static __attribute__((noinline)) int iter_ucb1(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_UCB1, 0);
}
static __attribute__((noinline)) int iter_ucb1_power(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_UCB1, 1);
}
static __attribute__((noinline)) int iter_tuned(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_UCB1_TUNED, 0);
}
static __attribute__((noinline)) int iter_exp3(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_EXP3, 0);
}
static __attribute__((noinline)) int iter_rm(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_RM, 0);
}
static __attribute__((noinline)) int iter_rm_plus(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, turns, NULL, SBX_POLICY_RM_PLUS, 0);
}

/* One serial iteration on a tree set with a worker's RNG and state (root
 * parallelism runs this on every thread's own trees). */
static int iterate_on(ITER_ARGS) {
    switch (s->policy) {
    case SBX_POLICY_UCB1_TUNED: return iter_tuned(s, trees, rng, sim, turns);
    case SBX_POLICY_EXP3: return iter_exp3(s, trees, rng, sim, turns);
    case SBX_POLICY_RM: return iter_rm(s, trees, rng, sim, turns);
    case SBX_POLICY_RM_PLUS: return iter_rm_plus(s, trees, rng, sim, turns);
    default:
        return power_on(s) ? iter_ucb1_power(s, trees, rng, sim, turns)
                           : iter_ucb1(s, trees, rng, sim, turns);
    }
}
#undef ITER_ARGS

static int smx_iterate(sbx_search *s, int64_t *turns) {
    smx *x = s->algo;
    return iterate_on(s, x->t, &s->rng, s->sim, turns);
}

/* The step-by-step view is not hot: one copy with the policy at run time. */
static int smx_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    smx *x = s->algo;
    return smx_iterate_impl(s, x->t, &s->rng, s->sim, turns, tr, s->policy, power_on(s));
}

/* ------------------------------------------------------------ tree reuse */

static inline int bit_get(const uint64_t *m, uint32_t i) {
    return (int)((m[i >> 6] >> (i & 63)) & 1u);
}
static inline void bit_set(uint64_t *m, uint32_t i) {
    m[i >> 6] |= 1ULL << (i & 63);
}
static inline void bit_clear(uint64_t *m, uint32_t i) {
    m[i >> 6] &= ~(1ULL << (i & 63));
}

/* Keeps the subtree under new_root and slides it, in index order, to the
 * front of the arena. Because every node sits after its parent, the kept
 * nodes are found in one forward pass, and a node's new index (its rank
 * among kept nodes) is never above its old one, so moving in index order
 * never overwrites a kept node not yet moved. Children blocks are kept or
 * dropped whole, so they stay contiguous. */
static void reroot(smx_tree *t, uint32_t new_root, int alive, double gamma,
                   double decay, int policy) {
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
    bit_set(t->mark, new_root);
    for (uint32_t i = new_root; i < used; i++) {
        if ((i & 63) == 0 && t->mark[i >> 6] == 0) { /* nothing marked here */
            i += 63;
            continue;
        }
        if (!bit_get(t->mark, i)) continue;
        const smx_node *nd = &t->nodes[i];
        for (uint32_t c = 0; c < nd->nchildren; c++) bit_set(t->mark, nd->first_child + c);
        if (nd->pass_child) bit_set(t->mark, nd->pass_child);
    }
    uint32_t kept = 0;
    for (size_t w = 0; w < words; w++) {
        t->rank[w] = kept;
        kept += (uint32_t)sbx_popcount64(t->mark[w]);
    }
#define RANK(i) \
    (t->rank[(i) >> 6] + \
     (uint32_t)sbx_popcount64(t->mark[(i) >> 6] & ((1ULL << ((i) & 63)) - 1)))
    for (uint32_t i = new_root; i < used; i++) {
        if (!bit_get(t->mark, i)) continue;
        smx_node nd = t->nodes[i];
        if (nd.first_child) nd.first_child = RANK(nd.first_child);
        if (nd.pass_child) nd.pass_child = RANK(nd.pass_child);
        nd.depth = (uint8_t)(nd.depth - 1);
        const uint32_t to = RANK(i);
        t->nodes[to] = nd;
        if (IS_SAMPLING(policy)) { /* the side array's pairs move with them */
            STAT(t, to) = STAT(t, i);
            AVG(t, to) = AVG(t, i);
        }
    }
#undef RANK
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
                   s->policy);
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
                if (!same) tree_clear(t);
            }
        } else {
            tree_clear(t);
        }
        /* Bounds belong to one turn's search (tutorial §7 starts every
         * search at +INF/-INF): carried over a long game they only ever
         * widen, and a stale range squashes the exploitation term. */
        bounds_reset(t);
    }
}

static void smx_advance(sbx_search *s, const uint8_t *joint) {
    smx *x = s->algo;
    advance_set(s, x->t, joint);
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (x->rootset[j]) advance_set(s, x->rootset[j], joint);
    }
}

static void smx_reset_all(sbx_search *s) {
    smx *x = s->algo;
    for (int a = 0; a < s->num_agents; a++) tree_clear(&x->t[a]);
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (!x->rootset[j]) continue;
        for (int a = 0; a < s->num_agents; a++) tree_clear(&x->rootset[j][a]);
    }
}

/* Root parallelism merges the root statistics of the tree sets in use
 * (threads 1..threads-1 that exist and share the root's children: all
 * expanded from one root state, in legal-move order). Set 0 is x->t. */
static int merged_sets(const sbx_search *s, const smx_tree **sets, int agent) {
    const smx *x = s->algo;
    int n = 0;
    sets[n++] = &x->t[agent];
    if (s->p.parallel != SBX_PAR_ROOT) return n;
    const smx_node *r0 = &x->t[agent].nodes[0];
    for (int j = 1; j < s->p.threads; j++) {
        if (!x->rootset[j]) continue;
        const smx_tree *t = &x->rootset[j][agent];
        const smx_node *r = &t->nodes[0];
        if (r->nchildren == 0 && r->pass_child == 0) continue; /* nothing yet */
        if (r0->nchildren == 0 && r0->pass_child == 0) { /* set 0 empty: lead */
            sets[0] = t;
            r0 = r;
            continue;
        }
        if (r->nchildren != r0->nchildren) continue;
        sets[n++] = t;
    }
    return n;
}

/* A root child's visits and total summed over the merged sets: index
 * c < nchildren, or nchildren for the pass child. */
static void merged_child(const smx_tree **sets, int n, uint32_t c, uint32_t *visits,
                         double *total) {
    *visits = 0;
    *total = 0.0;
    for (int j = 0; j < n; j++) {
        const smx_node *r = &sets[j]->nodes[0];
        uint32_t idx = c < r->nchildren ? r->first_child + c : r->pass_child;
        if (idx == 0) continue;
        *visits += sets[j]->nodes[idx].visits;
        *total += sets[j]->nodes[idx].total;
    }
}

/* ------------------------------------------------------------ inspection */

/* The sample of final_move=sample: a pure function of the search's state
 * (its RNG word, not advanced, and the iteration counters) and the agent,
 * so asking again, or asking summary and best_moves, gives the same move. */
static double final_draw(const sbx_search *s, int agent) {
    uint64_t h = s->rng ^ ((uint64_t)s->iterations * 0xD1B54A32D192ED03ULL) ^
                 ((uint64_t)s->iterations_root << 20) ^ (uint64_t)agent;
    return rng_unit(&h);
}

/* Exp3 / RM: the average strategy's argmax (ties: the earlier move) or a
 * draw from it; -1 if it is still empty. */
static int average_pick(const sbx_search *s, const smx_tree *t, int agent) {
    const smx_node *root = &t->nodes[0];
    const double *avg = &AVG(t, root->first_child); /* child i's: avg[2 * i] */
    double sum = 0.0;
    int best = -1;
    for (int i = 0; i < root->nchildren; i++) {
        sum += avg[2 * i];
        if (avg[2 * i] > 0.0 && (best < 0 || avg[2 * i] > avg[2 * best])) best = i;
    }
    if (best < 0 || s->p.final_move == SBX_FINAL_ARGMAX) return best;
    /* temperature sharpens (< 1) or flattens (> 1) the draw, as MCGS's and
     * gtcfr's; 1 draws from the average itself, bit for bit as before */
    const double inv_t = 1.0 / s->p.temperature;
    double w[SBX_MAX_MOVES];
    if (inv_t != 1.0) {
        sum = 0.0;
        for (int i = 0; i < root->nchildren; i++) {
            w[i] = avg[2 * i] > 0.0 ? pow(avg[2 * i], inv_t) : 0.0;
            sum += w[i];
        }
        if (!(sum > 0.0) || !isfinite(sum)) return best;
    } else {
        for (int i = 0; i < root->nchildren; i++) w[i] = avg[2 * i];
    }
    const double u = final_draw(s, agent) * sum;
    double acc = 0.0;
    for (int i = 0; i < root->nchildren; i++) {
        acc += w[i];
        if (w[i] > 0.0 && u < acc) return i;
    }
    return best; /* rounding at the top end */
}

/* UCB with final_move=sample: a draw from the root children's visit
 * shares, visits^(1/temperature) (as MCGS's). A most-visited move is a
 * pure strategy, and in a simultaneous game a pure strategy is what an
 * opponent can read; the visit shares are the mixed strategy the search
 * spent its time on. The same draw however often it is asked
 * (final_draw). `best`: the most visited, kept where rounding leaves the
 * draw past the end. */
static int visits_pick(const sbx_search *s, const smx_tree **sets, int nsets, int k,
                       int agent, int best) {
    double w[SBX_MAX_MOVES], sum = 0.0;
    const double inv_t = 1.0 / s->p.temperature;
    for (int c = 0; c < k; c++) {
        uint32_t v;
        double tot;
        merged_child(sets, nsets, (uint32_t)c, &v, &tot);
        w[c] = v ? pow((double)v, inv_t) : 0.0;
        sum += w[c];
    }
    if (!(sum > 0.0) || !isfinite(sum)) return best;
    const double u = final_draw(s, agent) * sum;
    double acc = 0.0;
    for (int c = 0; c < k; c++) {
        acc += w[c];
        if (w[c] > 0.0 && u < acc) return c;
    }
    return best;
}

static void smx_best_moves(sbx_search *s, int32_t *out) {
    smx *x = s->algo;
    uint8_t moves[SBX_MAX_MOVES];
    for (int a = 0; a < s->num_agents; a++) {
        const smx_tree *t = &x->t[a];
        const smx_node *root = &t->nodes[0];
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        if (k == 0) {
            out[a] = SBX_MOVE_NONE;
            continue;
        }
        out[a] = moves[0]; /* no visits yet: first legal move */
        if (IS_SAMPLING(s->policy)) {
            int i = average_pick(s, t, a);
            if (i >= 0) out[a] = t->nodes[root->first_child + (uint32_t)i].move;
            continue;
        }
        const smx_tree *sets[SBX_MAX_THREADS];
        const int nsets = merged_sets(s, sets, a);
        const smx_node *r0 = &sets[0]->nodes[0];
        int best = -1;
        uint32_t best_v = 0;
        double best_t = 0.0;
        for (uint32_t c = 0; c < r0->nchildren; c++) {
            uint32_t v;
            double tot;
            merged_child(sets, nsets, c, &v, &tot);
            if (v == 0) continue;
            if (best < 0 || v > best_v || (v == best_v && tot / v > best_t / best_v)) {
                best = (int)c;
                best_v = v;
                best_t = tot;
            }
        }
        if (best >= 0 && s->p.final_move == SBX_FINAL_SAMPLE) {
            best = visits_pick(s, sets, nsets, r0->nchildren, a, best);
        }
        if (best >= 0) out[a] = sets[0]->nodes[r0->first_child + (uint32_t)best].move;
    }
}

static int smx_root_stats(sbx_search *s, int agent, sbx_move_stat *out,
                          int cap, int *n_out) {
    /* root parallelism: visits and totals summed over the threads' sets */
    const smx_tree *sets[SBX_MAX_THREADS];
    const int nsets = merged_sets(s, sets, agent);
    const smx_tree *t = sets[0];
    const smx_node *root = &t->nodes[0];
    int k = root->nchildren + (root->pass_child ? 1 : 0);
    if (k > cap) {
        return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap,
                        k);
    }
    uint32_t mv[SBX_MAX_MOVES + 1];
    double mt[SBX_MAX_MOVES + 1];
    double sum = 0, avg = 0;
    const int sampling = IS_SAMPLING(s->policy);
    for (int i = 0; i < k; i++) {
        merged_child(sets, nsets, (uint32_t)i, &mv[i], &mt[i]);
        sum += mv[i];
        if (sampling && i < root->nchildren) avg += AVG(t, root->first_child + (uint32_t)i);
    }
    for (int i = 0; i < k; i++) {
        uint32_t idx = i < root->nchildren ? root->first_child + (uint32_t)i
                                           : root->pass_child;
        const smx_node *c = &t->nodes[idx];
        out[i].move = c->move == SBX_MOVE_NONE ? -1 : c->move;
        out[i].visits = (int32_t)mv[i];
        out[i].mean = mv[i] ? mt[i] / mv[i] : 0.0;
        out[i].prob = sum > 0 ? mv[i] / sum : 0.0;
        /* Exp3 / RM: the normalised average strategy (a pass child is
         * not a strategy's move: its visit share) */
        out[i].policy = sampling && i < root->nchildren
                            ? (avg > 0 ? AVG(t, idx) / avg : 0.0)
                            : out[i].prob;
    }
    *n_out = k;
    return SBX_OK;
}

static void smx_fill_stats(sbx_search *s, sbx_search_stats *out) {
    smx *x = s->algo;
    /* a sampling policy's node has its two doubles in the side array */
    out->node_bytes = (int32_t)(sizeof(smx_node) +
                                (IS_SAMPLING(s->policy) ? 2 * sizeof(double) : 0));
    out->trees = s->num_agents;
    for (int a = 0; a < s->num_agents; a++) {
        const smx_tree *t = &x->t[a];
        out->nodes[a] = (int32_t)t->used;
        out->root_visits[a] = (int32_t)t->nodes[0].visits;
        for (int j = 1; s->p.parallel == SBX_PAR_ROOT && j < s->p.threads; j++) {
            if (!x->rootset[j]) continue; /* root parallelism: every set's */
            out->nodes[a] += (int32_t)x->rootset[j][a].used;
            out->root_visits[a] += (int32_t)x->rootset[j][a].nodes[0].visits;
        }
        out->max_depth_reached[a] = t->depth_reached;
        double lo, hi;
        norm_range(t, s->p.bounds, 1, &lo, &hi);
        out->norm_min[a] = lo <= hi ? lo : 0.0;
        out->norm_max[a] = lo <= hi ? hi : 0.0;
    }
}

/* Snapshot: best-first by visits from the root (a max-heap), so the rows are
 * the most-visited nodes and always a connected tree (a child never has more
 * visits than its parent); then a breadth-first pass writes them parents
 * first with siblings in move order. */
typedef struct heap_item {
    uint32_t visits, node;
} heap_item;

static inline int heap_before(heap_item a, heap_item b) {
    return a.visits > b.visits || (a.visits == b.visits && a.node < b.node);
}

static void heap_push(heap_item *h, int *n, heap_item it) {
    int i = (*n)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_before(it, h[parent])) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = it;
}

static heap_item heap_pop(heap_item *h, int *n) {
    heap_item top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        heap_item best = last;
        if (l < *n && heap_before(h[l], best)) {
            m = l;
            best = h[l];
        }
        if (r < *n && heap_before(h[r], best)) m = r;
        if (m == i) break;
        h[i] = h[m];
        i = m;
    }
    if (*n > 0) h[i] = last;
    return top;
}

static int smx_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    smx *x = s->algo;
    smx_tree *t = &x->t[agent];
    if (top >= t->used) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "snapshot: node %u is not in agent %d's tree (ids 0..%u)", top, agent,
                        t->used - 1);
    }
    if ((uint32_t)max_nodes > t->used) max_nodes = (int)t->used;
    size_t heap_cap = (size_t)max_nodes * (size_t)(s->max_moves + 1) + 1;
    heap_item *heap = sbx_search_scratch(s, heap_cap * sizeof *heap);
    if (!heap) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    const uint32_t floor = (uint32_t)(min_visits > 0 ? min_visits : 0);

    int hn = 0, count = 0;
    heap_push(heap, &hn, (heap_item){t->nodes[top].visits, top});
    while (hn > 0 && count < max_nodes) {
        heap_item it = heap_pop(heap, &hn);
        if (it.node != top && it.visits < floor) break;
        bit_set(t->mark, it.node);
        count++;
        const smx_node *nd = &t->nodes[it.node];
        for (uint32_t c = 0; c < nd->nchildren; c++) {
            uint32_t ci = nd->first_child + c;
            if (t->nodes[ci].visits >= floor && (t->nodes[ci].visits > 0 || floor == 0))
                heap_push(heap, &hn, (heap_item){t->nodes[ci].visits, ci});
        }
        if (nd->pass_child) {
            uint32_t ci = nd->pass_child;
            if (t->nodes[ci].visits >= floor && (t->nodes[ci].visits > 0 || floor == 0))
                heap_push(heap, &hn, (heap_item){t->nodes[ci].visits, ci});
        }
    }

    /* Breadth-first write-out; `out` doubles as the queue. */
    int rows = 0;
    const smx_node *root = &t->nodes[top];
    out[rows++] = (sbx_snapshot_node){(int32_t)top, -1, (int32_t)root->visits,
                                      root->visits ? (float)(root->total / root->visits) : 0.0f,
                                      1.0f, (int16_t)root->depth, SBX_MOVE_NONE,
                                      (uint8_t)(top ? root->flags & 0x0F : 0), -1, {0}};
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    bit_clear(t->mark, top);
    for (int head = 0; head < rows; head++) {
        const smx_node *nd = &t->nodes[out[head].node];
        double sum = 0;
        for (uint32_t c = 0; c < nd->nchildren; c++) sum += t->nodes[nd->first_child + c].visits;
        if (nd->pass_child) sum += t->nodes[nd->pass_child].visits;
        int total_children = nd->nchildren + (nd->pass_child ? 1 : 0);
        for (int c = 0; c < total_children; c++) {
            uint32_t ci = c < nd->nchildren ? nd->first_child + (uint32_t)c
                                            : nd->pass_child;
            const smx_node *ch = &t->nodes[ci];
            if (!bit_get(t->mark, ci)) {
                if (ch->visits > 0) out[head].flags |= SBX_NODE_TRUNCATED;
                continue;
            }
            bit_clear(t->mark, ci);
            out[rows++] = (sbx_snapshot_node){
                (int32_t)ci,
                head,
                (int32_t)ch->visits,
                ch->visits ? (float)(ch->total / ch->visits) : 0.0f,
                sum > 0 ? (float)(ch->visits / sum) : 0.0f,
                (int16_t)ch->depth,
                ch->move,
                (uint8_t)(ch->flags & 0x0F),
                (int8_t)agent,
                {0}};
            memset(out[rows - 1].joint, SBX_MOVE_NONE, sizeof out[rows - 1].joint);
        }
    }
    *n_out = rows;
    return SBX_OK;
}

/* A path step is this tree's agent's move (SBX_MOVE_NONE: its pass node). */
static int smx_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                         int stride, int32_t *node_out) {
    smx *x = s->algo;
    const smx_tree *t = &x->t[agent];
    uint32_t node = 0;
    for (int k = 0; k < steps; k++) {
        const smx_node *nd = &t->nodes[node];
        const uint8_t m = path[(size_t)k * (size_t)stride];
        uint32_t next = 0;
        if (m == SBX_MOVE_NONE) {
            next = nd->pass_child;
        } else {
            for (uint32_t c = 0; c < nd->nchildren && !next; c++)
                if (t->nodes[nd->first_child + c].move == m) next = nd->first_child + c;
        }
        if (!next) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d (move %u) leads to no node of agent %d's "
                            "tree (node %u has %u children)", k + 1, steps, (unsigned)m, agent,
                            node, (unsigned)nd->nchildren);
        }
        node = next;
    }
    *node_out = (int32_t)node;
    return SBX_OK;
}

static int64_t smx_node_count(sbx_search *s) {
    smx *x = s->algo;
    int64_t n = 0;
    for (int a = 0; a < s->num_agents; a++) n += x->t[a].used;
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (!x->rootset[j]) continue;
        for (int a = 0; a < s->num_agents; a++) n += x->rootset[j][a].used;
    }
    return n;
}

/* ------------------------------------------------------------ parallel
 *
 * sbx_search_run with parallel != serial (api.c calls run_parallel).
 * Each of `threads` workers (worker 0 is the calling thread) loops over
 * whole iterations itself: select, simulate, back up. WU-UCT (Liu et al.
 * 2020) has a master that selects and backs up while workers only
 * simulate, because its simulations (Atari emulator rollouts) cost far
 * more than the tree work; ours cost a few microseconds, so a master
 * would be the bottleneck. What we keep is the paper's statistic: every
 * node counts the simulations selected through it and not yet backed up,
 * O (the "incomplete update", +1 at selection in every agent's tree, -1 at
 * the "complete update" after the backup), and selection reads it.
 *
 * Smitsimax already counts a visit when a node is selected (tutorial §7),
 * so a node's `visits` is the paper's N + O and `visits - O` its completed
 * count N:
 *   wu_uct  value = total / N (completed simulations only), exploration
 *           C sqrt(ln(N_parent + O_parent)) / sqrt(N + O): the paper's rule;
 *   tree    each in-flight simulation counts as virtual_loss visits of the
 *           worst normalised value: n' = N + vl O, value = (total - lo N) /
 *           (scale n'), exploration C sqrt(ln n'_parent) / sqrt(n');
 *   root    no sharing: a tree set per worker, its own seed; the root's
 *           children are merged (visits, totals) for the move and stats;
 *   leaf    one worker selects; at the point where every live agent has
 *           left its tree (rollout on), the other workers play a rollout
 *           each from that state, and all are backed up.
 * With O = 0 (one thread) every formula is the serial one, and the serial
 * code's RNG draws happen in the same order: threads = 1 gives the serial
 * search's result in every mode (tests/native/test_parallel.py).
 *
 * Shared trees: no lock. Counts and totals are updated with atomics
 * (relaxed: they are statistics; a reader may see a total one backup
 * behind its count), a node is expanded by the worker that wins a CAS of
 * its first_child from 0 to CLAIM (the others wait for the block to be
 * published with a release store), and child blocks come from the
 * worker's own chunk of the arena (see chunk_ready: the order rule, a
 * block after its parent, is kept).
 */
#define CLAIM UINT32_MAX
#define LD(ptr) __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define ADD(ptr, v) __atomic_fetch_add((ptr), (v), __ATOMIC_RELAXED)

static inline double ld_double(double *p) {
    double v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}
static inline void add_double(double *p, double v) {
    double old = ld_double(p), nv;
    do {
        nv = old + v;
    } while (!__atomic_compare_exchange(p, &old, &nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}
static inline void min_double(double *p, double v) {
    double old = ld_double(p);
    while (v < old &&
           !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
static inline void max_double(double *p, double v) {
    double old = ld_double(p);
    while (v > old &&
           !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* visits + 1 and O + 1 in one atomic add: the two 32-bit counts are
 * adjacent at an 8-aligned offset (visits never nears 2^32, so no carry
 * crosses into O). */
_Static_assert(offsetof(smx_node, inflight) == offsetof(smx_node, visits) + 4 &&
                   offsetof(smx_node, visits) % 8 == 0,
               "visits and the in-flight count must share one 8-aligned word");
static inline void select_count(smx_node *n) {
    __atomic_fetch_add((uint64_t *)(void *)&n->visits,
                       (uint64_t)1 | ((uint64_t)1 << 32), __ATOMIC_RELAXED);
}

typedef struct par_run par_run;

typedef struct par_worker {
    par_run *run;
    int id;
    uint64_t rng;
    void *sim;
    smx_tree *trees;     /* its tree set: x->t, or root parallelism's own  */
    int64_t iterations, turns;
    double wait_ms, busy_ms;
    double root_total[SBX_MAX_AGENTS]; /* workers >= 1: backed up at the roots,
                                          added after the run (see below) */
    uint32_t chunk_pos[SBX_MAX_AGENTS], chunk_end[SBX_MAX_AGENTS]; /* its
                                          own slice of each shared arena */
    pthread_t thread;
    int started;
    char pad[128]; /* neighbours' counters on other cache lines */
} par_worker;

/* leaf parallelism: one rollout job per iteration, handed from worker 0 */
typedef struct leaf_job {
    int depth;                            /* turns already simulated      */
    uint8_t alive[SBX_MAX_AGENTS], frozen[SBX_MAX_AGENTS];
    int leaf_depth[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
} leaf_job;

typedef struct leaf_result {
    int depth;                            /* turns simulated in all       */
    uint8_t frozen[SBX_MAX_AGENTS];
    int leaf_depth[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
} leaf_result;

struct par_run {
    sbx_search *s;
    int mode, nthreads;
    int64_t max_iterations;
    double max_ms, t0;
    uint32_t need;               /* arena room one iteration may take, per
                                    tree                                    */
    char pad0[128];
    int64_t claimed;             /* iterations handed out (atomic)         */
    char pad1[128];              /* bumped each iteration: a line alone    */
    int done;                    /* atomic: workers stop                   */
    int reason;                  /* atomic: the first stop reason          */
    /* leaf */
    void *leaf_state;            /* the state at the leaf point            */
    leaf_job job;
    int job_gen;                 /* atomic: bumped when a job is posted    */
    int job_left;                /* atomic: helpers still rolling out      */
    int job_claim[SBX_MAX_THREADS]; /* atomic: slot j's rollout taken (by
                                   helper j, or by worker 0 when helper j
                                   has not started it: a helper that lost
                                   its core does not stall the iteration) */
    leaf_result results[SBX_MAX_THREADS];
    par_worker w[SBX_MAX_THREADS];
};

static void par_stop(par_run *r, int reason) {
    sbx_par_stop(&r->reason, &r->done, reason);
}

/* Node allocation on a shared arena. Each worker bump-allocates from its
 * own chunk (taken from the arena's end with one CAS before an iteration),
 * so expansions do not fight over `used`. The arena's order rule (a block
 * after its parent: re-rooting relies on it) holds because a block goes in
 * the chunk only when the chunk lies after the parent; a parent made by
 * another worker in a later chunk gets its block from the arena's end with
 * an atomic add (rare). Room: before every iteration each worker needs
 * room for one iteration in its chunk AND need x threads at the arena's
 * end (the direct adds all workers' current iterations may make); a chunk
 * never takes that reserve. With one thread the chunk is the whole free
 * arena and no block is ever added directly: the serial layout. */
#define CHUNK_NODES 4096u

static int chunk_ready(par_run *r, par_worker *w, smx_tree *t, int a) {
    const uint32_t need = r->need;
    const uint32_t reserve = r->nthreads > 1 ? need * (uint32_t)r->nthreads : 0;
    uint32_t old = __atomic_load_n(&t->used, __ATOMIC_RELAXED);
    if (w->chunk_end[a] - w->chunk_pos[a] >= need) {
        return t->cap - old >= reserve;
    }
    for (;;) {
        if (t->cap - old < need + reserve) return 0;
        uint32_t take = r->nthreads > 1 ? CHUNK_NODES : t->cap - old;
        if (take > t->cap - old - reserve) take = t->cap - old - reserve;
        if (take < need) take = need;
        if (__atomic_compare_exchange_n(&t->used, &old, old + take, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            w->chunk_pos[a] = old; /* the old chunk's tail is left unused */
            w->chunk_end[a] = old + take;
            return 1;
        }
    }
}

static inline uint32_t node_alloc(par_worker *w, smx_tree *t, int a, uint32_t parent,
                                  uint32_t k) {
    if (w->chunk_pos[a] > parent) {
        const uint32_t first = w->chunk_pos[a];
        w->chunk_pos[a] += k;
        return first;
    }
    return ADD(&t->used, k);
}

/* Gives the unused tail of the worker's chunk back if it is the arena's
 * end (always with one thread: its arena ends where the serial one would). */
static void chunk_return(par_worker *w, smx_tree *t, int a) {
    uint32_t end = w->chunk_end[a];
    if (end > w->chunk_pos[a]) {
        __atomic_compare_exchange_n(&t->used, &end, w->chunk_pos[a], 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED);
    }
    w->chunk_pos[a] = w->chunk_end[a] = 0;
}

/* The first child of `idx`, expanding it with `k` moves if this worker is
 * the first to get there (*expanded = 1). */
static uint32_t shared_expand(par_worker *w, smx_tree *t, int a, uint32_t idx,
                              const uint8_t *moves, int k, int *expanded, double *wait_ms) {
    smx_node *nd = &t->nodes[idx];
    uint32_t first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE);
    *expanded = 0;
    if (first == 0) {
        uint32_t zero = 0;
        if (__atomic_compare_exchange_n(&nd->first_child, &zero, CLAIM, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE)) {
            first = node_alloc(w, t, a, idx, (uint32_t)k);
            const uint8_t depth = (uint8_t)(nd->depth + 1);
            for (int i = 0; i < k; i++) {
                smx_node *c = &t->nodes[first + (uint32_t)i];
                memset(c, 0, sizeof *c);
                c->move = moves[i];
                c->depth = depth;
            }
            __atomic_store_n(&nd->nchildren, (uint8_t)k, __ATOMIC_RELAXED);
            __atomic_store_n(&nd->first_child, first, __ATOMIC_RELEASE);
            *expanded = 1;
            return first;
        }
        first = zero;
    }
    if (first == CLAIM) {
        SBX_WAIT_UNTIL((first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE)) != CLAIM,
                       wait_ms);
    }
    return first;
}

static uint32_t shared_pass(par_worker *w, smx_tree *t, int a, uint32_t idx,
                            double *wait_ms) {
    smx_node *nd = &t->nodes[idx];
    uint32_t c = __atomic_load_n(&nd->pass_child, __ATOMIC_ACQUIRE);
    if (c == 0) {
        uint32_t zero = 0;
        if (__atomic_compare_exchange_n(&nd->pass_child, &zero, CLAIM, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE)) {
            c = node_alloc(w, t, a, idx, 1u);
            smx_node *n = &t->nodes[c];
            memset(n, 0, sizeof *n);
            n->move = SBX_MOVE_NONE;
            n->flags = SBX_NODE_PASS;
            n->depth = (uint8_t)(nd->depth + 1);
            __atomic_store_n(&nd->pass_child, c, __ATOMIC_RELEASE);
            return c;
        }
        c = zero;
    }
    if (c == CLAIM) {
        SBX_WAIT_UNTIL((c = __atomic_load_n(&nd->pass_child, __ATOMIC_ACQUIRE)) != CLAIM,
                       wait_ms);
    }
    return c;
}

static inline int shared_doomed(smx_node *c, int min_visits) {
    const uint8_t f = LD(&c->flags);
    return (f & SBX_NODE_DOOMED) ||
           ((f & (SBX_NODE_DIED | SBX_NODE_SURVIVED)) == SBX_NODE_DIED &&
            LD(&c->visits) >= (uint32_t)min_visits);
}

static inline void shared_norm(smx_tree *t, int mode, int depth, double *lo, double *scale) {
    double hi;
    if (mode == SBX_BOUNDS_DEPTH) {
        *lo = ld_double(&t->dmin[depth]);
        hi = ld_double(&t->dmax[depth]);
    } else {
        *lo = ld_double(&t->smin);
        hi = ld_double(&t->smax);
    }
    *scale = sbx_norm_scale(lo, hi);
}

/* select_ucb (UCB1, backup mean) on a shared tree; see the banner for how
 * wu_uct and tree read the in-flight count O. */
static uint32_t shared_select(smx_tree *t, uint32_t cur, uint32_t first, int k,
                              const sbx_search_params *p, uint64_t *rng, int mode,
                              uint32_t fatal) {
    smx_node *node = &t->nodes[cur];
    smx_node *ch = &t->nodes[first];
    const uint32_t pv = LD(&node->visits);
    if (pv < (uint32_t)p->random_threshold) {
        if (p->death_penalty || fatal) { /* as select_ucb */
            int ok[SBX_MAX_MOVES], safe[SBX_MAX_MOVES], m = 0, ms = 0;
            for (int i = 0; i < k; i++) {
                if ((fatal >> ch[i].move) & 1u) continue;
                safe[ms++] = i;
                if (!(p->death_penalty && shared_doomed(&ch[i], p->death_min_visits))) {
                    ok[m++] = i;
                }
            }
            if (m > 0 && m < k) return first + (uint32_t)ok[sbx_rng_below(rng, (uint32_t)m)];
            if (ms > 0 && ms < k) return first + (uint32_t)safe[sbx_rng_below(rng, (uint32_t)ms)];
        }
        return first + sbx_rng_below(rng, (uint32_t)k);
    }
    if (fatal) { /* as select_ucb: the safe untried children first */
        int untried[SBX_MAX_MOVES], m = 0;
        for (int i = 0; i < k; i++) {
            if (!((fatal >> ch[i].move) & 1u) && LD(&ch[i].visits) == 0) untried[m++] = i;
        }
        if (m > 0) return first + (uint32_t)untried[sbx_rng_below(rng, (uint32_t)m)];
    }
    double lo, scale;
    shared_norm(t, p->bounds, node->depth + 1, &lo, &scale);
    const double inv_scale = 1.0 / scale;
    const double vl = p->virtual_loss;
    double explore = p->c * sqrt_ln_n(pv);
    if (mode == SBX_PAR_TREE) {
        const uint32_t po = LD(&t->nodes[cur].inflight[0]);
        if (po) {
            double pn = (double)(int64_t)(pv - po) + vl * (double)po;
            explore = p->c * sqrt(log(pn > 1.0 ? pn : 1.0));
        }
    }
    uint32_t best = first;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        smx_node *c = &ch[i];
        if (fatal && ((fatal >> c->move) & 1u)) continue;
        const uint32_t cv = LD(&c->visits);
        if (cv == 0) {
            /* sbx_random_untried with atomic reads: the same draw as the
             * serial search; a child another worker visited since still
             * counts as untried once, for child i */
            int untried[SBX_MAX_MOVES], m = 0;
            for (int j = i; j < k; j++) {
                if (j == i || LD(&ch[j].visits) == 0) untried[m++] = j;
            }
            return first + (uint32_t)untried[sbx_rng_below(rng, (uint32_t)m)];
        }
        const uint32_t o = LD(&t->nodes[first + (uint32_t)i].inflight[0]);
        const double total = ld_double(&c->total);
        double v;
        if (o == 0) { /* the serial formula, bit for bit */
            v = (total / (double)cv - lo) * inv_scale + explore * rsqrt_n(cv);
        } else {
            const double nc = (double)(int64_t)(cv - o); /* completed */
            if (mode == SBX_PAR_WU_UCT) {
                const double mean = nc > 0.0 ? (total / nc - lo) * inv_scale : 0.0;
                v = mean + explore * rsqrt_n(cv);
            } else {
                const double nv = (nc > 0.0 ? nc : 0.0) + vl * (double)o;
                if (!(nv > 0.0)) return first + (uint32_t)i; /* vl 0, all in flight */
                v = (nc > 0.0 ? (total - lo * nc) * inv_scale : 0.0) / nv +
                    explore / sqrt(nv);
            }
        }
        if (p->death_penalty && shared_doomed(c, p->death_min_visits)) {
            v -= p->death_penalty_value;
        }
        sbx_keep_max(&best, &best_v, first + (uint32_t)i, v);
    }
    return best;
}

static void leaf_rollout(par_run *r, par_worker *w, int slot);

/* One iteration of the serial loop (UCB1, backup mean) on shared trees, or,
 * for leaf parallelism on worker 0, with the other workers' rollouts. */
static int shared_iterate(par_run *r, par_worker *w) {
    sbx_search *s = r->s;
    smx_tree *trees = w->trees;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents, mode = r->mode;
    const int leaf = mode == SBX_PAR_LEAF;
    for (int a = 0; a < n; a++) {
        if (!chunk_ready(r, w, &trees[a], a)) return SBX_STOP_NODE_CAP;
    }
    void *sim = w->sim;
    uint64_t *rng = &w->rng;
    memcpy(sim, s->root, s->state_size);
    vt->reseed(sim, sbx_rng_next(rng));

    uint32_t path[SBX_MAX_AGENTS][SBX_MAX_DEPTH + 1];
    int plen[SBX_MAX_AGENTS], leaf_depth[SBX_MAX_AGENTS];
    uint8_t in_tree[SBX_MAX_AGENTS], alive[SBX_MAX_AGENTS], frozen[SBX_MAX_AGENTS];
    uint32_t step_node[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
    uint8_t joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    const int safe = p->safe_moves && vt->fatal_moves != NULL;
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    if (vt->fixed_moves) {
        for (int m = 0; m < s->max_moves; m++) moves[m] = (uint8_t)m;
    }
    for (int a = 0; a < n; a++) {
        /* The root line is the one every iteration of every worker writes:
         * it gets the visit only. Its own O is not kept (nothing reads it:
         * tree mode's parent count at the root is its visits, N+O), and
         * its total, which selection never reads, is summed per worker
         * and added after the run (worker 0 adds at once, as the serial
         * search does, so one thread stays bit-identical). */
        ADD(&trees[a].nodes[0].visits, 1u);
        path[a][0] = 0;
        plen[a] = 1;
        alive[a] = (uint8_t)((vt->alive_mask(cfg, sim) >> a) & 1u);
        in_tree[a] = (uint8_t)(alive[a] || !freeze);
        frozen[a] = 0;
    }
    /* leaf: plens at the leaf point (helpers back up this common part) */
    int leaf_plen[SBX_MAX_AGENTS];
    int helpers = 0;

    int depth = 0;
    for (int d = 0; d < p->max_depth; d++) {
        if (leaf && !helpers && r->nthreads > 1) {
            int any = 0;
            for (int a = 0; a < n; a++) any |= alive[a] && in_tree[a];
            if (!any) { /* the leaf point: post the rollouts */
                memcpy(r->leaf_state, sim, s->state_size);
                r->job.depth = d;
                for (int a = 0; a < n; a++) {
                    r->job.alive[a] = alive[a];
                    r->job.frozen[a] = frozen[a];
                    r->job.leaf_depth[a] = frozen[a] ? leaf_depth[a] : 0;
                    r->job.score[a] = frozen[a] ? score[a] : 0.0;
                    leaf_plen[a] = plen[a];
                }
                helpers = r->nthreads - 1;
                /* job_left BEFORE the slots open: a helper still waking for
                 * an earlier job (which worker 0 rolled out itself) can claim
                 * a slot the moment it reopens, ahead of the job_gen bump,
                 * and its decrement must find the count already set. With
                 * the count stored after the slots, that decrement could land
                 * first and be overwritten: worker 0 then waited for a count
                 * that never fell, the helper for a job that never came (a
                 * hang found by a 100-game series at 5 ms a turn). The
                 * release store of each slot publishes the job and the
                 * count to the CAS (acquire) that claims it. */
                __atomic_store_n(&r->job_left, helpers, __ATOMIC_RELAXED);
                for (int h = 1; h <= helpers; h++) {
                    __atomic_store_n(&r->job_claim[h], 0, __ATOMIC_RELEASE); /* after the job */
                }
                __atomic_fetch_add(&r->job_gen, 1, __ATOMIC_RELEASE);
            }
        }
        for (int a = 0; a < n; a++) {
            smx_tree *t = &trees[a];
            step_node[a] = 0;
            int k = !alive[a]         ? 0
                    : vt->fixed_moves ? s->max_moves
                                      : vt->legal_moves(cfg, sim, a, moves);
            uint32_t fatal = 0;
            if (k > 0 && safe) {
                fatal = vt->fatal_moves(cfg, sim, a);
                if (all_fatal(fatal, moves, k)) fatal = 0;
            }
            if (k == 0) {
                joint[a] = SBX_MOVE_NONE;
                if (in_tree[a]) {
                    uint32_t c = shared_pass(w, t, a, path[a][plen[a] - 1], &w->wait_ms);
                    select_count(&t->nodes[c]);
                    path[a][plen[a]++] = c;
                }
            } else if (in_tree[a]) {
                uint32_t cur = path[a][plen[a] - 1];
                int expanded;
                uint32_t first = shared_expand(w, t, a, cur, moves, k, &expanded, &w->wait_ms);
                uint32_t c = shared_select(t, cur, first, LD(&t->nodes[cur].nchildren), p,
                                           rng, mode, fatal);
                select_count(&t->nodes[c]);
                joint[a] = t->nodes[c].move;
                path[a][plen[a]++] = c;
                step_node[a] = c;
                if (p->rollout && expanded) in_tree[a] = 0;
            } else {
                joint[a] = fatal ? random_safe(rng, moves, k, fatal)
                                 : moves[sbx_rng_below(rng, (uint32_t)k)];
            }
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        int newly_frozen = 0;
        const uint32_t alive_now = vt->alive_mask(cfg, sim);
        for (int a = 0; a < n; a++) {
            if (!alive[a]) continue;
            int now = (int)((alive_now >> a) & 1u);
            if (step_node[a]) { /* written only when it changes: a hot line */
                uint8_t *f = &trees[a].nodes[step_node[a]].flags;
                const uint8_t bit = (uint8_t)(now ? SBX_NODE_SURVIVED : SBX_NODE_DIED);
                if (!(LD(f) & bit)) __atomic_fetch_or(f, bit, __ATOMIC_RELAXED);
            }
            if (!now) {
                alive[a] = 0;
                if (freeze) {
                    frozen[a] = 1;
                    in_tree[a] = 0;
                    leaf_depth[a] = depth;
                    newly_frozen = 1;
                }
            }
        }
        if (newly_frozen) {
            double at_death[SBX_MAX_AGENTS];
            vt->evaluate(cfg, sim, at_death);
            for (int a = 0; a < n; a++) {
                if (frozen[a] == 1) {
                    score[a] = at_death[a];
                    frozen[a] = 2;
                }
            }
        }
        if (vt->is_terminal(cfg, sim)) break;
    }
    w->turns += depth;

    double final_scores[SBX_MAX_AGENTS];
    vt->evaluate(cfg, sim, final_scores);
    for (int a = 0; a < n; a++) {
        if (!frozen[a]) {
            score[a] = final_scores[a];
            leaf_depth[a] = depth;
        }
        if (p->depth_normalize) score[a] /= (double)(leaf_depth[a] > 1 ? leaf_depth[a] : 1);
    }
    for (int h = 1; h <= helpers; h++) { /* rollouts no helper has started */
        int free_slot = 0;
        if (__atomic_compare_exchange_n(&r->job_claim[h], &free_slot, 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            leaf_rollout(r, w, h);
            __atomic_fetch_sub(&r->job_left, 1, __ATOMIC_RELEASE);
        }
    }
    if (helpers) {
        SBX_WAIT_UNTIL(__atomic_load_n(&r->job_left, __ATOMIC_ACQUIRE) == 0, &w->wait_ms);
    }
    const double gamma = p->gamma;
    for (int h = 0; h <= helpers; h++) {
        const double *sc = score;
        const int *ld = leaf_depth;
        const int *pl = plen;
        if (h > 0) {
            const leaf_result *lr = &r->results[h];
            w->turns += lr->depth - r->job.depth;
            sc = lr->score;
            ld = lr->leaf_depth;
            pl = leaf_plen;
        }
        for (int a = 0; a < n; a++) {
            smx_tree *t = &trees[a];
            min_double(&t->smin, sc[a]);
            max_double(&t->smax, sc[a]);
            double v = sc[a];
            for (int k = ld[a] - t->nodes[path[a][pl[a] - 1]].depth; k > 0; k--) v *= gamma;
            for (int k = pl[a] - 1; k >= 0; k--) {
                smx_node *nd = &t->nodes[path[a][k]];
                if (h > 0) ADD(&nd->visits, 1u); /* each rollout is a visit */
                if (k == 0 && w->id > 0) w->root_total[a] += v;
                else add_double(&nd->total, v);
                if (p->bounds == SBX_BOUNDS_DEPTH) {
                    min_double(&t->dmin[k], v);
                    max_double(&t->dmax[k], v);
                }
                v *= gamma;
            }
        }
    }
    for (int a = 0; a < n; a++) {
        smx_tree *t = &trees[a];
        /* the complete update: this simulation is no longer in flight */
        for (int k = plen[a] - 1; k >= 1; k--) {
            __atomic_fetch_sub(&t->nodes[path[a][k]].inflight[0], 1u, __ATOMIC_RELEASE);
        }
        for (int k = plen[a] - 2; k >= 0; k--) {
            smx_node *nd = &t->nodes[path[a][k]];
            smx_node *onpath = &t->nodes[path[a][k + 1]];
            const int kids = LD(&nd->nchildren);
            const uint32_t first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE);
            int all = kids > 0 && first != CLAIM &&
                      ((LD(&onpath->flags) & SBX_NODE_PASS) ||
                       shared_doomed(onpath, p->death_min_visits));
            for (int i = 0; all && i < kids; i++) {
                all = shared_doomed(&t->nodes[first + (uint32_t)i], p->death_min_visits);
            }
            const uint8_t f = LD(&nd->flags);
            if (all && !(f & SBX_NODE_DOOMED)) {
                __atomic_fetch_or(&nd->flags, (uint8_t)SBX_NODE_DOOMED, __ATOMIC_RELAXED);
            } else if (!all && (f & SBX_NODE_DOOMED)) {
                __atomic_fetch_and(&nd->flags, (uint8_t)~SBX_NODE_DOOMED, __ATOMIC_RELAXED);
            }
        }
        int32_t leafd = t->nodes[path[a][plen[a] - 1]].depth;
        int32_t old = LD(&t->depth_reached);
        while (leafd > old && !__atomic_compare_exchange_n(&t->depth_reached, &old, leafd, 1,
                                                           __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    }
    return SBX_STOP_NONE;
}

/* Leaf helper: the rest of the simulation from the posted leaf state,
 * random moves for the live agents (they are all out of their trees). */
static void leaf_rollout(par_run *r, par_worker *w, int slot) {
    sbx_search *s = r->s;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    leaf_result *res = &r->results[slot];
    const leaf_job *job = &r->job;
    void *sim = w->sim;
    memcpy(sim, r->leaf_state, s->state_size);
    vt->reseed(sim, sbx_rng_next(&w->rng)); /* its own chance events */
    uint8_t alive[SBX_MAX_AGENTS], joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    for (int a = 0; a < n; a++) {
        alive[a] = job->alive[a];
        res->frozen[a] = job->frozen[a];
        res->leaf_depth[a] = job->leaf_depth[a];
        res->score[a] = job->score[a];
    }
    int depth = job->depth;
    for (int d = job->depth; d < p->max_depth && !vt->is_terminal(cfg, sim); d++) {
        for (int a = 0; a < n; a++) {
            int k = alive[a] ? vt->legal_moves(cfg, sim, a, moves) : 0;
            uint32_t fatal = 0;
            if (k > 0 && p->safe_moves && vt->fatal_moves) {
                fatal = vt->fatal_moves(cfg, sim, a);
                if (all_fatal(fatal, moves, k)) fatal = 0;
            }
            joint[a] = !k     ? SBX_MOVE_NONE
                       : fatal ? random_safe(&w->rng, moves, k, fatal)
                               : moves[sbx_rng_below(&w->rng, (uint32_t)k)];
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        const uint32_t alive_now = vt->alive_mask(cfg, sim);
        int newly = 0;
        for (int a = 0; a < n; a++) {
            if (alive[a] && !((alive_now >> a) & 1u)) {
                alive[a] = 0;
                if (freeze) {
                    res->frozen[a] = 1;
                    res->leaf_depth[a] = depth;
                    newly = 1;
                }
            }
        }
        if (newly) {
            double at_death[SBX_MAX_AGENTS];
            vt->evaluate(cfg, sim, at_death);
            for (int a = 0; a < n; a++) {
                if (res->frozen[a] == 1) {
                    res->score[a] = at_death[a];
                    res->frozen[a] = 2;
                }
            }
        }
    }
    double final_scores[SBX_MAX_AGENTS];
    vt->evaluate(cfg, sim, final_scores);
    for (int a = 0; a < n; a++) {
        if (!res->frozen[a]) {
            res->score[a] = final_scores[a];
            res->leaf_depth[a] = depth;
        }
        if (p->depth_normalize) {
            res->score[a] /= (double)(res->leaf_depth[a] > 1 ? res->leaf_depth[a] : 1);
        }
    }
    res->depth = depth;
}

static void *leaf_helper(void *arg) {
    par_worker *w = arg;
    par_run *r = w->run;
    int seen = 0;
    const double t0 = sbx_now_ms();
    for (;;) {
        int gen;
        SBX_WAIT_UNTIL((gen = __atomic_load_n(&r->job_gen, __ATOMIC_ACQUIRE)) != seen ||
                           __atomic_load_n(&r->done, __ATOMIC_ACQUIRE),
                       &w->wait_ms);
        if (gen == seen) break; /* done */
        seen = gen;
        int free_slot = 0;
        if (!__atomic_compare_exchange_n(&r->job_claim[w->id], &free_slot, 1, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            continue; /* worker 0 took it */
        }
        leaf_rollout(r, w, w->id);
        w->iterations++;
        __atomic_fetch_sub(&r->job_left, 1, __ATOMIC_RELEASE);
    }
    w->busy_ms = sbx_now_ms() - t0;
    return NULL;
}

/* The budget loop of one worker: the serial loop's checks in its order
 * (iterations, the clock by sbx_time_up over its own iterations, stop). */
static void *worker_main(void *arg) {
    par_worker *w = arg;
    par_run *r = w->run;
    sbx_search *s = r->s;
    const int tci = s->p.time_check_interval;
    const double t0 = sbx_now_ms();
    int64_t next_clock = 0;
    while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
        if (r->max_iterations > 0 && ADD(&r->claimed, 1) >= r->max_iterations) {
            par_stop(r, SBX_STOP_ITERATIONS);
            break;
        }
        if (r->max_ms > 0.0 &&
            sbx_time_up((int64_t)w->iterations, &next_clock, tci, r->t0, r->max_ms)) {
            par_stop(r, SBX_STOP_TIME);
            break;
        }
        if (atomic_load_explicit(&s->stop_flag, memory_order_relaxed)) {
            par_stop(r, SBX_STOP_REQUESTED);
            break;
        }
        int64_t turns = 0;
        int rc = r->mode == SBX_PAR_ROOT
                     ? iterate_on(s, w->trees, &w->rng, w->sim, &turns)
                     : shared_iterate(r, w);
        w->turns += turns;
        if (rc != SBX_STOP_NONE) {
            par_stop(r, rc);
            break;
        }
        w->iterations++;
    }
    w->busy_ms = sbx_now_ms() - t0;
    return NULL;
}

static int smx_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
                            int64_t *iterations, int64_t *turns, int *reason) {
    smx *x = s->algo;
    const int mode = s->p.parallel;
    if ((mode != SBX_PAR_ROOT && (s->policy != SBX_POLICY_UCB1 || power_on(s))) ||
        (mode == SBX_PAR_ROOT && IS_SAMPLING(s->policy))) {
        /* a policy change waiting for the next turn keeps the old one in
         * force, which this mode cannot run: serial until then */
        return SBX_OK;
    }
    par_run *r = calloc(1, sizeof *r);
    if (!r) return sbx_fail(SBX_ERR_MEMORY, "out of memory starting a parallel run");
    const int nt = s->p.threads;
    r->s = s;
    r->mode = mode;
    r->nthreads = nt;
    r->max_iterations = max_iterations;
    r->max_ms = max_ms;
    r->t0 = t0;
    /* every worker may be mid-iteration when one checks the room */
    r->need = (uint32_t)smx_iteration_nodes(&s->p, s->num_agents, s->max_moves);
    int rc = SBX_OK;
    if (mode == SBX_PAR_LEAF && nt > 1 && !(r->leaf_state = malloc(s->state_size))) {
        rc = sbx_fail(SBX_ERR_MEMORY, "out of memory starting a parallel run");
    }
    for (int j = 0; j < nt && rc == SBX_OK; j++) {
        par_worker *w = &r->w[j];
        w->run = r;
        w->id = j;
        w->trees = x->t;
        if (j == 0) { /* the serial search's RNG and state */
            w->rng = s->rng;
            w->sim = s->sim;
            continue;
        }
        uint64_t h = s->rng ^ (0x9E3779B97F4A7C15ULL * (uint64_t)j);
        w->rng = sbx_rng_next(&h);
        if (!x->sims[j] && !(x->sims[j] = malloc(s->state_size))) {
            rc = sbx_fail(SBX_ERR_MEMORY, "out of memory for thread %d's state", j);
            break;
        }
        w->sim = x->sims[j];
        if (mode == SBX_PAR_ROOT) {
            if (!x->rootset[j]) {
                smx_tree *set = calloc(SBX_MAX_AGENTS, sizeof *set);
                int ok = set != NULL;
                for (int a = 0; ok && a < s->num_agents; a++) {
                    ok = tree_alloc(&set[a], (uint32_t)s->p.node_cap) == SBX_OK;
                    if (ok) tree_clear(&set[a]);
                }
                if (!ok) {
                    if (set) {
                        for (int a = 0; a < SBX_MAX_AGENTS; a++) tree_free(&set[a]);
                    }
                    free(set);
                    rc = sbx_fail(SBX_ERR_MEMORY,
                                  "out of memory for thread %d's trees (root parallelism "
                                  "keeps a tree set per thread)", j);
                    break;
                }
                x->rootset[j] = set;
            }
            w->trees = x->rootset[j];
        }
    }
    if (rc != SBX_OK) {
        free(r->leaf_state);
        free(r);
        return rc;
    }
    /* Helpers that cannot be started leave the run to fewer threads (for
     * leaf parallelism, fewer rollouts per iteration). */
    int started = 1;
    for (int j = 1; j < nt; j++) {
        r->w[j].started =
            pthread_create(&r->w[j].thread, NULL,
                           mode == SBX_PAR_LEAF ? leaf_helper : worker_main, &r->w[j]) == 0;
        if (!r->w[j].started) break;
        started++;
    }
    if (mode == SBX_PAR_LEAF) r->nthreads = started;
    worker_main(&r->w[0]);
    if (mode == SBX_PAR_LEAF) __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
    s->run_threads = started;
    s->run_wait_ms = s->run_busy_ms = 0.0;
    for (int j = 0; j < nt; j++) {
        par_worker *w = &r->w[j];
        if (j > 0 && w->started) pthread_join(w->thread, NULL);
        s->run_thread_iterations[j] = w->iterations;
        for (int a = 0; mode != SBX_PAR_ROOT && a < s->num_agents; a++) {
            chunk_return(w, &x->t[a], a);
        }
        for (int a = 0; j > 0 && mode != SBX_PAR_ROOT && a < s->num_agents; a++) {
            x->t[a].nodes[0].total += w->root_total[a];
        }
        s->run_wait_ms += w->wait_ms;
        s->run_busy_ms += w->busy_ms;
        if (mode != SBX_PAR_LEAF) *iterations += w->iterations;
        *turns += w->turns;
    }
    if (mode == SBX_PAR_LEAF) *iterations += r->w[0].iterations;
    s->rng = r->w[0].rng;
    *reason = __atomic_load_n(&r->reason, __ATOMIC_ACQUIRE);
    free(r->leaf_state);
    free(r);
    return SBX_OK;
}

const sbx_algo_vt sbx_smitsimax_vt = {
    .name = "smitsimax",
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
