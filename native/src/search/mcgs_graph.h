/*
 * mcgs_graph.h — MCGS's graph (mcgs.c has the overview): nodes, edges over
 * outcome pairs, chance children, heuristic priors, the transposition
 * table, and what reads them on every playout (inline here). mcgs_graph.c
 * grows the arrays, keeps the table, makes and evaluates nodes and
 * re-roots; the rest of the family (mcgs_select.c: selection and backup,
 * mcgs_parallel.c: the parallel run, mcgs_view.c: inspection, mcgs.c: the
 * vtable) sits above it.
 */
#ifndef SBX_MCGS_GRAPH_H
#define SBX_MCGS_GRAPH_H

#include <pthread.h>
#include <stdint.h>

#include "search.h"

#define MCGS_EVALUATED 1
#define MCGS_TERMINAL 2
#define MCGS_SHARDS 64 /* transposition-table locks (power of two) */

typedef struct mcgs_edge {
    uint32_t visits;
    uint32_t child;     /* node index; 0: not expanded (the root is never a
                           child: turns only increase)                    */
    float r[2];         /* reward per player on this transition           */
} mcgs_edge;

typedef struct mcgs_node {
    uint64_t hash;
    double q[2];        /* recomputed on backup                           */
    double u[2];        /* leaf value, frozen after evaluation            */
    double base[2];     /* evaluate() of the node's state                 */
    uint32_t edges;     /* first of n[0]*n[1] edges, row-major (i*n2 + j) */
    uint32_t visits;    /* sum of the edge visits                         */
    uint8_t n[2];       /* outcomes per player                            */
    uint8_t flags;
    uint8_t pad;
    uint32_t prior;     /* priors=heuristic: first of n[0]+n[1] floats in
                           the prior array                                */
    uint8_t act[2][SBX_MAX_MOVES]; /* outcome -> representative move      */
} mcgs_node;

/* The README's and bench's bytes per node assume it (8-byte fields first). */
_Static_assert(sizeof(mcgs_node) == 104, "mcgs_node must stay 104 bytes");

/* A child of an edge beyond its first, made when a step of the edge met a
 * state it had not met (chance: snakes' food, goofspiel's random prizes).
 * The edge's own child, r and the visits its other children do not hold
 * are its first child; the others come in a list per edge (x->more[edge] =
 * index + 1 of the newest, `next` = the one before it). */
typedef struct mcgs_kid {
    uint32_t child;     /* node index (set before the kid is listed)      */
    uint32_t visits;    /* the edge's visits that met this child          */
    float r[2];         /* reward per player into this child              */
    uint32_t next;      /* index + 1 of the edge's previous kid; 0: end   */
} mcgs_kid;

typedef struct mcgs {
    mcgs_node *nodes;
    uint32_t used, cap;       /* cap: allocated; s->p.node_cap: the limit */
    mcgs_edge *edges;
    uint32_t eused, ecap;
    float *priors;            /* priors=heuristic or net only (NULL until
                                 needed)                                   */
    uint32_t pused, pcap;
    uint32_t *more;           /* per edge: its newest chance child + 1
                                 (NULL until a serial search meets chance;
                                 a parallel run always makes it)          */
    uint32_t mcap;            /* entries of `more` allocated (zeroed)      */
    mcgs_kid *kids;           /* the chance children, a doubling array;
                                 node_cap bounds their count as it bounds
                                 the nodes                                 */
    uint32_t kused, kcap;
    uint32_t *table;          /* open addressing: node index + 1, 0 empty */
    uint32_t tmask;
    uint32_t depth_reached;
    int64_t hits;             /* transposition hits (edges linked to an
                                 existing node)                           */
    void *tmp, *tmp2;         /* state buffers: outcome detection, rollout */
    /* parallel runs only (mcgs_run_parallel) */
    uint32_t *inflight;       /* per edge: simulations selected through it
                                 and not yet backed up; all 0 between runs */
    uint32_t icap;            /* entries allocated (zeroed)                */
    void *wbuf[SBX_MAX_THREADS]; /* helper j's sim, tmp, tmp2              */
    sbx_neteval wev[SBX_MAX_THREADS]; /* helper j's value-net batches (the
                                 driving thread uses the search's own)     */
    pthread_mutex_t shard[MCGS_SHARDS]; /* transposition table shards     */
    int shards_ready;
} mcgs;

/* Atomics of the parallel run (relaxed: statistics; a node or an edge's
 * child is published with a release store, read with an acquire load).
 * The serial code reads through the same helpers: on x86-64 a relaxed
 * load is a plain load, so the serial search pays nothing. */
#define LD(ptr) __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define LDA(ptr) __atomic_load_n((ptr), __ATOMIC_ACQUIRE)
#define CLAIM UINT32_MAX /* an edge's child while one thread links it */

static inline double ld_double(const double *p) {
    double v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}
static inline void st_double(double *p, double v) { __atomic_store(p, &v, __ATOMIC_RELAXED); }

/* One playout's private things: the RNG, two scratch states and whether
 * other threads share the graph (then counters move by atomic adds). */
typedef struct mcgs_ctx {
    uint64_t *rng;
    void *tmp, *tmp2;
    int par;
    sbx_neteval *ev;   /* this thread's value-net batches; NULL: no net */
} mcgs_ctx;

/* Bump allocation from a shared array: serial, a plain add; in a parallel
 * run an atomic add (the run made the room beforehand, see room_ok). */
static inline uint32_t take(uint32_t *ctr, uint32_t n, int par) {
    if (!par) {
        const uint32_t v = *ctr;
        *ctr = v + n;
        return v;
    }
    return __atomic_fetch_add(ctr, n, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ reading edges */

/* The head of edge ei's list of further chance children (0: the edge has
 * met one successor state only). */
static inline uint32_t more_of(const mcgs *x, uint32_t ei) {
    return x->more ? x->more[ei] : 0;
}

/* Edge ei's visits times its value for player a: the visit-weighted sum of
 * r_a + Q_a(child) over the children it met (the first's visits are the
 * edge's minus the others'), so the edge's value is the average of what its
 * sampled successor states returned, an estimate of the expectation over
 * chance.
 * With one child this is the formalisation's N(i,j) (r + Q(child)), the
 * same floating-point operations. */
static inline double edge_sum(const mcgs *x, uint32_t ei, int a) {
    const mcgs_edge *ed = &x->edges[ei];
    uint32_t k = more_of(x, ei);
    if (!k) return ed->visits * ((double)ed->r[a] + x->nodes[ed->child].q[a]);
    uint32_t first = ed->visits;
    double sum = 0.0;
    for (; k; k = x->kids[k - 1].next) {
        const mcgs_kid *o = &x->kids[k - 1];
        if (!o->visits) continue;
        first -= o->visits;
        sum += o->visits * ((double)o->r[a] + x->nodes[o->child].q[a]);
    }
    if (first) sum += first * ((double)ed->r[a] + x->nodes[ed->child].q[a]);
    return sum;
}

/* The visits of edge ei that met child k (0: the edge's own child). */
static inline uint32_t kid_visits(const mcgs *x, uint32_t ei, uint32_t k) {
    if (k) return x->kids[k - 1].visits;
    uint32_t v = x->edges[ei].visits;
    for (uint32_t m = more_of(x, ei); m; m = x->kids[m - 1].next) v -= x->kids[m - 1].visits;
    return v;
}

/* Edge ei's children one at a time, for the inspection entries: *k =
 * KID_START first (the edge's own child and the visits the list does not
 * hold), then its list; 0 after the last. */
#define KID_START UINT32_MAX
static inline int next_kid(const mcgs *x, uint32_t ei, uint32_t *k, uint32_t *child,
                    uint32_t *visits) {
    if (*k == KID_START) {
        *child = x->edges[ei].child;
        *visits = kid_visits(x, ei, 0);
        *k = more_of(x, ei);
        return 1;
    }
    if (!*k) return 0;
    const mcgs_kid *o = &x->kids[*k - 1];
    *child = o->child;
    *visits = o->visits;
    *k = o->next;
    return 1;
}

/* PUCT's prior of player a's outcome i (the search's priors setting). */
static inline double prior_of(const mcgs *x, const mcgs_node *nd, int a, int i,
                              const sbx_search_params *p) {
    if (p->priors == SBX_PRIORS_UNIFORM) return 1.0 / nd->n[a];
    return x->priors[nd->prior + (a ? nd->n[0] : 0) + (uint32_t)i];
}

/* The game's evaluation as the search values it: with relative_scores each
 * player's own minus the other's (a duel's zero-sum view; see params.c).
 * Every figure the graph holds (base, U, rewards) comes from here, so they
 * all stay on the one scale. */
static inline void mcgs_eval(const sbx_search *s, const void *state, double *out) {
    s->vt->evaluate(s->cfg, state, out);
    if (s->p.relative_scores) sbx_relative_scores(out, 2);
}

/* ------------------------------------------------------------ mcgs_graph.c */

/* The table's hash mixer (its home bucket; a parallel run's shard). */
uint64_t mcgs_mix(uint64_t h);
/* The node holding `hash` + 1, or 0. */
uint32_t mcgs_table_find(const mcgs *x, uint64_t hash);
void mcgs_table_put(mcgs *x, uint32_t node);
/* A table of at least twice want_nodes, rebuilt from the node array. */
int mcgs_table_rebuild(mcgs *x, uint32_t want_nodes);
/* An empty graph: the root unevaluated, the table empty. */
void mcgs_clear(mcgs *x);
int mcgs_grow_more(mcgs *x);
int mcgs_grow_kids(mcgs *x, uint64_t n, uint64_t limit);
int mcgs_chance_room(sbx_search *s, mcgs *x);
int mcgs_reserve(sbx_search *s, mcgs *x, uint32_t edges, uint32_t priors);
/* A node's first visit: outcomes, edges, priors, its leaf value U. */
void mcgs_evaluate_node(sbx_search *s, mcgs *x, uint32_t ni, const void *state,
                        const mcgs_ctx *cx);
/* Keeps what is reachable from node `keep` (the new root), compacted. */
void mcgs_reroot(mcgs *x, uint32_t keep);

#endif
