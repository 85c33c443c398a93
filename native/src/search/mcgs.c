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
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
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
    float *priors;            /* priors=heuristic only (NULL until needed) */
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

/* ------------------------------------------------------------ storage */

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
    if (p->priors == SBX_PRIORS_HEURISTIC && !game->move_scores) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "priors: heuristic needs a game with move scores (%s "
                        "has none); use priors=uniform",
                        game->name);
    }
    return SBX_OK;
}

/* A playout makes at most one node (it stops at a new one) plus the root. */
static int64_t mcgs_iteration_nodes(const sbx_search_params *p, int num_agents,
                                    int max_moves) {
    return 2;
}

static uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}

static uint32_t table_find(const mcgs *x, uint64_t hash) {
    for (uint32_t i = (uint32_t)mix(hash) & x->tmask;; i = (i + 1) & x->tmask) {
        uint32_t v = x->table[i];
        if (!v) return 0;
        if (x->nodes[v - 1].hash == hash) return v;
    }
}

static void table_put(mcgs *x, uint32_t node) {
    uint32_t i = (uint32_t)mix(x->nodes[node].hash) & x->tmask;
    while (x->table[i]) i = (i + 1) & x->tmask;
    x->table[i] = node + 1;
}

/* Table of at least twice the nodes; rebuilt from the node array. */
static int table_rebuild(mcgs *x, uint32_t want_nodes) {
    uint32_t size = 1024;
    while (size < 2 * want_nodes) size <<= 1;
    if (size - 1 != x->tmask || !x->table) {
        uint32_t *t = calloc(size, sizeof *t);
        if (!t) return SBX_ERR_MEMORY;
        free(x->table);
        x->table = t;
        x->tmask = size - 1;
    } else {
        memset(x->table, 0, (size_t)size * sizeof *x->table);
    }
    for (uint32_t i = 0; i < x->used; i++) table_put(x, i);
    return SBX_OK;
}

static void clear(mcgs *x) {
    x->used = 1;
    x->eused = 0;
    x->pused = 0;
    x->kused = 0; /* `more` entries are zeroed when their edges are made */
    memset(&x->nodes[0], 0, sizeof x->nodes[0]);
    if (x->table) memset(x->table, 0, ((size_t)x->tmask + 1) * sizeof *x->table);
    x->depth_reached = 0;
    x->hits = 0;
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
    for (int j = 0; j < SBX_MAX_THREADS; j++) free(x->wbuf[j]);
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
    if (!x->nodes || !x->edges || !x->tmp || !x->tmp2 || table_rebuild(x, 1) != SBX_OK) {
        mcgs_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a graph");
    }
    clear(x);
    return SBX_OK;
}

static int mcgs_params_changed(sbx_search *s, const sbx_search_params *old) {
    mcgs *x = s->algo;
    if (x->used > (uint32_t)s->p.node_cap || x->kused > (uint32_t)s->p.node_cap) clear(x);
    /* the transposition switch changes what a node is: start afresh */
    if (s->p.transpositions != old->transpositions) clear(x);
    /* priors are fixed when a node is made */
    if (s->p.priors != old->priors || s->p.prior_temperature != old->prior_temperature) {
        clear(x);
    }
    return SBX_OK;
}

/* `more` as long as the edge array (the new entries zeroed); 0: no memory. */
static int grow_more(mcgs *x) {
    if (x->mcap >= x->ecap) return 1;
    uint32_t *m = realloc(x->more, (size_t)x->ecap * sizeof *m);
    if (!m) return 0;
    memset(m + x->mcap, 0, (size_t)(x->ecap - x->mcap) * sizeof *m);
    x->more = m;
    x->mcap = x->ecap;
    return 1;
}

/* The child array with room for `n` more, doubled up to `limit`; 0 if
 * the limit or memory says no. */
static int grow_kids(mcgs *x, uint64_t n, uint64_t limit) {
    const uint64_t want = (uint64_t)x->kused + n;
    if (want > limit) return 0;
    if (want <= x->kcap) return 1;
    uint64_t nc = x->kcap ? x->kcap : 1024;
    while (nc < want) nc *= 2;
    if (nc > limit) nc = limit;
    mcgs_kid *o = realloc(x->kids, (size_t)nc * sizeof *o);
    if (!o) return 0;
    x->kids = o;
    x->kcap = (uint32_t)nc;
    return 1;
}

/* Serial search: room for one more chance child (the first one met makes
 * `more`). 0 when node_cap's count of children is reached or memory fails. */
static int chance_room(sbx_search *s, mcgs *x) {
    return grow_more(x) && grow_kids(x, 1, (uint64_t)s->p.node_cap);
}

/* Room for one more node, `edges` more edges and, with heuristic priors,
 * `priors` more floats; 0 if not (cap or memory). */
static int reserve(sbx_search *s, mcgs *x, uint32_t edges, uint32_t priors) {
    if (x->used >= (uint32_t)s->p.node_cap) return 0;
    if (x->used == x->cap) {
        uint32_t nc = x->cap * 2;
        if (nc > (uint32_t)s->p.node_cap) nc = (uint32_t)s->p.node_cap;
        mcgs_node *n = realloc(x->nodes, (size_t)nc * sizeof *n);
        if (!n) return 0;
        x->nodes = n;
        x->cap = nc;
    }
    if ((uint64_t)x->eused + edges > x->ecap) {
        uint64_t nc = x->ecap;
        while (nc < (uint64_t)x->eused + edges) nc *= 2;
        if (nc > UINT32_MAX) return 0;
        mcgs_edge *e = realloc(x->edges, (size_t)nc * sizeof *e);
        if (!e) return 0;
        x->edges = e;
        x->ecap = (uint32_t)nc;
    }
    if (x->more && !grow_more(x)) return 0;
    if (s->p.priors == SBX_PRIORS_HEURISTIC && (uint64_t)x->pused + priors > x->pcap) {
        uint64_t nc = x->pcap ? x->pcap : 4096;
        while (nc < (uint64_t)x->pused + priors) nc *= 2;
        if (nc > UINT32_MAX) return 0;
        float *pr = realloc(x->priors, (size_t)nc * sizeof *pr);
        if (!pr) return 0;
        x->priors = pr;
        x->pcap = (uint32_t)nc;
    }
    if (2 * (x->used + 1) > x->tmask + 1 && table_rebuild(x, x->used + 1) != SBX_OK) return 0;
    return 1;
}

/* ------------------------------------------------------------ evaluation */

/* Outcome classes of player a at state: moves stepped against the
 * opponent's first legal move on a copy; equal resulting states => one
 * outcome. The hash sorts out the distinct ones cheaply; a hash match is
 * confirmed by comparing the two states byte for byte (the earlier one is
 * stepped again into tmp2), so a collision never merges two outcomes. This
 * used to compare evaluations instead, which cost one game evaluation per
 * move (a BFS per player on the maze) and made outcome detection most of a
 * new node's cost. Both copies start from the same bytes, so padding is
 * equal too. A player without moves gets one outcome, SBX_MOVE_NONE.
 * cls[i] = the outcome of legal move i. */
static int outcomes(sbx_search *s, const mcgs_ctx *cx, const void *state, int a,
                    const uint8_t *own, int k, uint8_t opp, uint8_t *act,
                    uint8_t *cls) {
    if (k == 0) {
        act[0] = SBX_MOVE_NONE;
        return 1;
    }
    if (k == 1) {
        act[0] = own[0];
        cls[0] = 0;
        return 1;
    }
    uint64_t h[SBX_MAX_MOVES];
    int n = 0;
    uint8_t joint[2];
    joint[1 - a] = opp;
    for (int i = 0; i < k; i++) {
        joint[a] = own[i];
        memcpy(cx->tmp, state, s->state_size);
        s->vt->step(s->cfg, cx->tmp, joint, NULL);
        const uint64_t hi = s->vt->hash(s->cfg, cx->tmp);
        int same = -1;
        for (int c = 0; c < n && same < 0; c++) {
            if (h[c] != hi) continue;
            joint[a] = act[c];
            memcpy(cx->tmp2, state, s->state_size);
            s->vt->step(s->cfg, cx->tmp2, joint, NULL);
            if (memcmp(cx->tmp, cx->tmp2, s->state_size) == 0) same = c;
        }
        if (same >= 0) {
            cls[i] = (uint8_t)same;
            continue;
        }
        cls[i] = (uint8_t)n;
        h[n] = hi;
        act[n++] = own[i];
    }
    return n;
}

/* Player a's heuristic priors at a new node: softmax of the game's move
 * scores / prior_temperature, each move's share added to its outcome. */
static void heuristic_priors(sbx_search *s, const void *state, int a, int k,
                             const uint8_t *cls, int n, float *out) {
    double sc[SBX_MAX_MOVES];
    for (int i = 0; i < n; i++) out[i] = 0.0f;
    if (n <= 1 || s->vt->move_scores(s->cfg, state, a, sc) != k) {
        for (int i = 0; i < n; i++) out[i] = 1.0f / (float)n; /* defensive */
        return;
    }
    double mx = sc[0], w[SBX_MAX_MOVES], sum = 0.0;
    for (int i = 1; i < k; i++) mx = sc[i] > mx ? sc[i] : mx;
    for (int i = 0; i < k; i++) {
        w[i] = exp((sc[i] - mx) / s->p.prior_temperature); /* <= 1: no overflow */
        sum += w[i];
    }
    for (int i = 0; i < k; i++) out[cls[i]] += (float)(w[i] / sum);
}

/* First visit: outcome indexing, edges, priors, U (after a random rollout).
 * The caller reserved room for SBX_MAX_MOVES^2 edges (and the priors). The
 * flags go last, with a release store: in a parallel run they publish the
 * node to the threads that found it in the table. */
static void evaluate_node(sbx_search *s, mcgs *x, uint32_t ni, const void *state,
                          const mcgs_ctx *cx) {
    mcgs_node *nd = &x->nodes[ni];
    const sbx_game_vt *vt = s->vt;
    s->vt->evaluate(s->cfg, state, nd->base);
    nd->visits = 0;
    if (vt->is_terminal(s->cfg, state)) {
        nd->n[0] = nd->n[1] = 0;
        nd->edges = LD(&x->eused);
        nd->u[0] = nd->u[1] = 0.0;
        nd->q[0] = nd->q[1] = 0.0;
        __atomic_store_n(&nd->flags, (uint8_t)(MCGS_EVALUATED | MCGS_TERMINAL), __ATOMIC_RELEASE);
        return;
    }
    uint8_t mv[2][SBX_MAX_MOVES];
    int k[2];
    for (int a = 0; a < 2; a++) {
        k[a] = vt->is_alive(s->cfg, state, a) ? vt->legal_moves(s->cfg, state, a, mv[a]) : 0;
    }
    uint8_t cls[2][SBX_MAX_MOVES];
    for (int a = 0; a < 2; a++) {
        uint8_t opp = k[1 - a] ? mv[1 - a][0] : SBX_MOVE_NONE;
        nd->n[a] = (uint8_t)outcomes(s, cx, state, a, mv[a], k[a], opp, nd->act[a], cls[a]);
    }
    if (s->p.priors == SBX_PRIORS_HEURISTIC) {
        nd->prior = take(&x->pused, (uint32_t)nd->n[0] + nd->n[1], cx->par);
        heuristic_priors(s, state, 0, k[0], cls[0], nd->n[0], &x->priors[nd->prior]);
        heuristic_priors(s, state, 1, k[1], cls[1], nd->n[1], &x->priors[nd->prior + nd->n[0]]);
    }
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    nd->edges = take(&x->eused, ne, cx->par);
    memset(&x->edges[nd->edges], 0, ne * sizeof *x->edges);
    if (x->more) memset(&x->more[nd->edges], 0, ne * sizeof *x->more);
    /* U: evaluation change over a K-step uniformly random rollout */
    double end[2] = {nd->base[0], nd->base[1]};
    if (s->p.rollout_steps > 0) {
        void *ro = cx->tmp2;
        memcpy(ro, state, s->state_size);
        for (int t = 0; t < s->p.rollout_steps && !vt->is_terminal(s->cfg, ro); t++) {
            uint8_t joint[2];
            for (int a = 0; a < 2; a++) {
                uint8_t m[SBX_MAX_MOVES];
                int kk = vt->is_alive(s->cfg, ro, a) ? vt->legal_moves(s->cfg, ro, a, m) : 0;
                joint[a] = kk ? m[sbx_rng_below(cx->rng, (uint32_t)kk)] : SBX_MOVE_NONE;
            }
            vt->step(s->cfg, ro, joint, NULL);
        }
        vt->evaluate(s->cfg, ro, end);
    }
    for (int a = 0; a < 2; a++) {
        nd->u[a] = end[a] - nd->base[a];
        nd->q[a] = nd->u[a];
    }
    __atomic_store_n(&nd->flags, (uint8_t)MCGS_EVALUATED, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ backup */

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
static uint32_t kid_visits(const mcgs *x, uint32_t ei, uint32_t k) {
    if (k) return x->kids[k - 1].visits;
    uint32_t v = x->edges[ei].visits;
    for (uint32_t m = more_of(x, ei); m; m = x->kids[m - 1].next) v -= x->kids[m - 1].visits;
    return v;
}

/* Edge ei's children one at a time, for the inspection entries: *k =
 * KID_START first (the edge's own child and the visits the list does not
 * hold), then its list; 0 after the last. */
#define KID_START UINT32_MAX
static int next_kid(const mcgs *x, uint32_t ei, uint32_t *k, uint32_t *child,
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

/* The formalisation's recompute_Q: depends only on the node's edges and
 * its children's Q, so running it twice changes nothing. */
static void recompute_q(mcgs *x, mcgs_node *nd) {
    if (!(nd->flags & MCGS_EVALUATED)) return;
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    double sum[2] = {0.0, 0.0};
    uint64_t total = 0;
    for (uint32_t e = 0; e < ne; e++) {
        const mcgs_edge *ed = &x->edges[nd->edges + e];
        if (!ed->visits) continue;
        total += ed->visits;
        sum[0] += edge_sum(x, nd->edges + e, 0);
        sum[1] += edge_sum(x, nd->edges + e, 1);
    }
    nd->q[0] = (nd->u[0] + sum[0]) / (double)(1 + total);
    nd->q[1] = (nd->u[1] + sum[1]) / (double)(1 + total);
}

/* Player a's marginal: visits per outcome and Option D's Q (FPU if 0). */
static void marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
                     uint32_t *mv, double *mq) {
    const int n1 = nd->n[0], n2 = nd->n[1];
    const int k = nd->n[a];
    for (int i = 0; i < k; i++) {
        uint32_t v = 0;
        double sum = 0.0;
        for (int j = 0; j < nd->n[1 - a]; j++) {
            const int r = a == 0 ? i : j, c = a == 0 ? j : i;
            const uint32_t ei = nd->edges + (uint32_t)(r * n2 + c);
            const mcgs_edge *ed = &x->edges[ei];
            if (!ed->visits) continue;
            v += ed->visits;
            sum += edge_sum(x, ei, a);
        }
        mv[i] = v;
        mq[i] = v ? sum / v : nd->q[a] - fpu_offset;
    }
    (void)n1;
}

/* PUCT's prior of player a's outcome i (the search's priors setting). */
static inline double prior_of(const mcgs *x, const mcgs_node *nd, int a, int i,
                              const sbx_search_params *p) {
    if (p->priors != SBX_PRIORS_HEURISTIC) return 1.0 / nd->n[a];
    return x->priors[nd->prior + (a ? nd->n[0] : 0) + (uint32_t)i];
}

/* One step of the argmax both selections make: a higher score wins, an equal
 * one replaces the best with probability 1/ties (uniform among equal scores,
 * reservoir sampling). One copy, so that the serial and the parallel loop
 * draw from the RNG alike (threads = 1 must give the serial graph). */
static inline void keep_best(double v, int i, double *best_v, int *best, int *ties,
                             uint64_t *rng) {
    if (v > *best_v) {
        *best_v = v;
        *best = i;
        *ties = 1;
    } else if (v == *best_v && sbx_rng_below(rng, (uint32_t)++*ties) == 0) {
        *best = i;
    }
}

static int select_outcome(const mcgs *x, const mcgs_node *nd, int a,
                          const sbx_search_params *p, uint64_t *rng) {
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    marginal(x, nd, a, p->fpu_offset, mv, mq);
    const int k = nd->n[a];
    const double explore = p->c_puct * sqrt((double)nd->visits);
    int best = 0, ties = 0;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        double v = mq[i] + explore * prior_of(x, nd, a, i, p) / (1.0 + mv[i]);
        keep_best(v, i, &best_v, &best, &ties, rng);
    }
    return best;
}

/* ---------------------------------------------- the same, for parallel runs
 * (atomic loads: a serial search keeps the plain loops above). */

/* An edge's child if the edge is linked (0: not expanded, CLAIM: being
 * linked by another thread; neither has a child to read). */
static inline uint32_t linked_child(const mcgs_edge *ed) {
    const uint32_t c = LDA(&ed->child);
    return c == CLAIM ? 0 : c;
}

/* edge_sum for a parallel run (atomic loads): c is the edge's linked child,
 * v its visits as read; *val = the edge's value (sum / v). The same
 * operations in the same order as edge_sum, so one thread gives the serial
 * figures bit for bit. A child listed before its node is evaluated
 * (par_chance_link) adds no value yet: the others' average stands for it. */
static double par_edge_sum(const mcgs *x, uint32_t ei, const mcgs_edge *ed, uint32_t c,
                           uint32_t v, int a, double *val) {
    uint32_t k = x->more ? LDA(&x->more[ei]) : 0;
    const double own = (double)ed->r[a] + ld_double(&x->nodes[c].q[a]);
    if (!k) {
        *val = own;
        return v * own;
    }
    int64_t first = v;
    uint64_t counted = 0;
    double sum = 0.0;
    for (; k; k = x->kids[k - 1].next) {
        const mcgs_kid *o = &x->kids[k - 1];
        const uint32_t ov = LD(&o->visits);
        if (!ov) continue;
        first -= ov;
        if (!(LDA(&x->nodes[o->child].flags) & MCGS_EVALUATED)) continue;
        sum += ov * ((double)o->r[a] + ld_double(&x->nodes[o->child].q[a]));
        counted += ov;
    }
    if (first > 0) { /* the counts are read one by one: never below 0 */
        sum += (double)first * own;
        counted += (uint64_t)first;
    }
    if (!counted) {
        *val = own;
        return v * own;
    }
    if (counted != v) sum = sum / (double)counted * v;
    *val = sum / v;
    return sum;
}

/* recompute_q with atomic loads and stores (two threads
 * recomputing one node at once: the later store wins, and the next backup
 * through the node recomputes it from the newer figures). */
static void par_recompute_q(mcgs *x, mcgs_node *nd) {
    if (!(LD(&nd->flags) & MCGS_EVALUATED)) return;
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    double sum[2] = {0.0, 0.0};
    uint64_t total = 0;
    for (uint32_t e = 0; e < ne; e++) {
        const mcgs_edge *ed = &x->edges[nd->edges + e];
        const uint32_t v = LD(&ed->visits);
        if (!v) continue;
        const uint32_t c = linked_child(ed);
        if (!c) continue;
        double val;
        total += v;
        sum[0] += par_edge_sum(x, nd->edges + e, ed, c, v, 0, &val);
        sum[1] += par_edge_sum(x, nd->edges + e, ed, c, v, 1, &val);
    }
    st_double(&nd->q[0], (nd->u[0] + sum[0]) / (double)(1 + total));
    st_double(&nd->q[1], (nd->u[1] + sum[1]) / (double)(1 + total));
}

/* marginal with atomic loads, and (infl: the in-flight counts per edge) the
 * in-flight simulations per outcome (mo) and, for virtual loss, the worst
 * edge value at the node (min of r_a + Q_a(child) over its visited edges,
 * Q_a(node) when none is). */
static void marginal_ex(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
                        const uint32_t *infl, uint32_t *mv, double *mq, double *sum_out,
                        uint32_t *mo, double *worst) {
    const int n2 = nd->n[1];
    const int k = nd->n[a];
    double lo = INFINITY;
    const double qn = ld_double(&nd->q[a]);
    for (int i = 0; i < k; i++) {
        uint32_t v = 0, o = 0;
        double sum = 0.0;
        for (int j = 0; j < nd->n[1 - a]; j++) {
            const int r = a == 0 ? i : j, c = a == 0 ? j : i;
            const uint32_t e = nd->edges + (uint32_t)(r * n2 + c);
            const mcgs_edge *ed = &x->edges[e];
            if (infl) o += LD(&infl[e]);
            const uint32_t ev = LD(&ed->visits);
            if (!ev) continue;
            const uint32_t ch = linked_child(ed);
            if (!ch) continue;
            double val;
            const double es = par_edge_sum(x, e, ed, ch, ev, a, &val);
            v += ev;
            sum += es;
            if (val < lo) lo = val;
        }
        mv[i] = v;
        mq[i] = v ? sum / v : qn - fpu_offset;
        if (sum_out) sum_out[i] = sum;
        if (mo) mo[i] = o;
    }
    if (worst) *worst = lo < INFINITY ? lo : qn;
}

/* Decoupled PUCT for player a in a parallel run (select_outcome's rule plus
 * the in-flight counts): with O_i the in-flight simulations through outcome i and O their sum
 * at the node:
 *   wu_uct  Q_i over completed visits; exploration sqrt(N + O) / (1 + N_i + O_i)
 *           (the paper's N+O for parent and child);
 *   tree    each in-flight simulation counts as virtual_loss visits of the
 *           worst edge value w: Q_i = (sum_i + vl O_i w) / (N_i + vl O_i),
 *           exploration sqrt(N + vl O) / (1 + N_i + vl O_i).
 * Terms with O_i = 0 (O = 0) are the serial ones, computed the same way. */
static int select_outcome_ex(const mcgs *x, const mcgs_node *nd, int a,
                             const sbx_search_params *p, uint64_t *rng,
                             const uint32_t *infl) {
    uint32_t mv[SBX_MAX_MOVES], mo[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES], sum[SBX_MAX_MOVES], worst = 0.0;
    marginal_ex(x, nd, a, p->fpu_offset, infl, mv, mq, infl ? sum : NULL, infl ? mo : NULL,
                infl ? &worst : NULL);
    const int k = nd->n[a];
    const int tree = p->parallel == SBX_PAR_TREE;
    const double w = tree ? p->virtual_loss : 1.0;
    uint32_t o_all = 0;
    if (infl) {
        for (int i = 0; i < k; i++) o_all += mo[i];
    }
    const uint32_t nv = LD(&nd->visits);
    const double explore =
        p->c_puct * sqrt(o_all ? (double)nv + w * o_all : (double)nv);
    int best = 0, ties = 0;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        double q = mq[i], n_i = 1.0 + mv[i];
        if (infl && mo[i]) {
            const double vo = w * mo[i];
            n_i += vo;
            if (tree && mv[i] + vo > 0.0) q = (sum[i] + vo * worst) / (mv[i] + vo);
        }
        double v = q + explore * prior_of(x, nd, a, i, p) / n_i;
        keep_best(v, i, &best_v, &best, &ties, rng);
    }
    return best;
}


/* ------------------------------------------------------------ playout */

/* The node of state `sim` for a new link (an edge's first child or a
 * further chance child): found in the table (a transposition hit) or
 * made and evaluated (*made = 1). The caller reserved the room. */
static uint32_t link_state(sbx_search *s, mcgs *x, const void *sim, const mcgs_ctx *cx,
                           int *made) {
    const uint64_t h = s->vt->hash(s->cfg, sim);
    const uint32_t found = s->p.transpositions ? table_find(x, h) : 0;
    if (found) {
        x->hits++;
        return found - 1;
    }
    const uint32_t child = x->used++;
    memset(&x->nodes[child], 0, sizeof x->nodes[child]);
    x->nodes[child].hash = h;
    if (s->p.transpositions) table_put(x, child);
    evaluate_node(s, x, child, sim, cx);
    *made = 1;
    return child;
}

static int mcgs_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    mcgs *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const uint32_t room = SBX_MAX_MOVES * SBX_MAX_MOVES;
    if (!reserve(s, x, 2 * room, 4 * SBX_MAX_MOVES)) return SBX_STOP_NODE_CAP;

    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;
    const mcgs_ctx cx = {&s->rng, x->tmp, x->tmp2, 0};

    uint32_t path[SBX_MAX_DEPTH + 1];
    uint32_t pedge[SBX_MAX_DEPTH], pkid[SBX_MAX_DEPTH]; /* edge, its child */
    int plen = 1, depth = 0, terminal = 0;
    path[0] = 0;
    if (!(x->nodes[0].flags & MCGS_EVALUATED)) {
        x->nodes[0].hash = vt->hash(s->cfg, sim);
        evaluate_node(s, x, 0, sim, &cx);
        if (p->transpositions) table_put(x, 0);
    }
    uint32_t cur = 0;
    while (depth < p->max_depth) {
        mcgs_node *nd = &x->nodes[cur];
        if (nd->flags & MCGS_TERMINAL) {
            terminal = 1;
            break;
        }
        const int o1 = select_outcome(x, nd, 0, p, &s->rng);
        const int o2 = select_outcome(x, nd, 1, p, &s->rng);
        const uint32_t ei = nd->edges + (uint32_t)(o1 * nd->n[1] + o2);
        uint8_t joint[2] = {nd->act[0][o1], nd->act[1][o2]};
        const double base0 = nd->base[0], base1 = nd->base[1];
        vt->step(s->cfg, sim, joint, NULL);
        depth++;
        pedge[plen - 1] = ei;
        int expanded = 0, stop = 0;
        uint32_t child = x->edges[ei].child, kid = 0, link_visits = 0;
        if (!child) {
            child = link_state(s, x, sim, &cx, &expanded);
            mcgs_edge *ed = &x->edges[ei];
            ed->child = child;
            ed->r[0] = (float)(x->nodes[child].base[0] - base0);
            ed->r[1] = (float)(x->nodes[child].base[1] - base1);
        } else {
            const uint64_t h = vt->hash(s->cfg, sim);
            if (h != x->nodes[child].hash) {
                /* chance: the step met another state than the edge's first;
                 * the child of that state, listed now if it is new */
                kid = more_of(x, ei);
                while (kid && x->nodes[x->kids[kid - 1].child].hash != h) {
                    kid = x->kids[kid - 1].next;
                }
                if (!kid) {
                    if (!chance_room(s, x)) return SBX_STOP_NODE_CAP; /* nothing counted */
                    child = link_state(s, x, sim, &cx, &expanded);
                    mcgs_kid *o = &x->kids[x->kused];
                    o->child = child;
                    o->visits = 0;
                    o->r[0] = (float)(x->nodes[child].base[0] - base0);
                    o->r[1] = (float)(x->nodes[child].base[1] - base1);
                    o->next = x->more[ei];
                    kid = x->more[ei] = ++x->kused;
                }
                child = x->kids[kid - 1].child;
            }
            link_visits = kid_visits(x, ei, kid);
        }
        pkid[plen - 1] = kid;
        if (expanded) {
            stop = 1; /* a new node: evaluated, the playout ends */
        } else if (p->short_circuit && x->nodes[child].visits + 1 > link_visits) {
            /* the child is known better than this link (edge and child),
             * newly made or not: count only, KataGo's rule */
            stop = 1;
        }
        if (tr) {
            for (int a = 0; a < 2; a++) {
                tr->moves[a][depth - 1] = joint[a] == SBX_MOVE_NONE ? -1 : joint[a];
                tr->pick[a][depth - 1] = joint[a] == SBX_MOVE_NONE ? SBX_PICK_PASS : SBX_PICK_UCB;
                tr->expanded[a][depth - 1] = (int8_t)expanded;
                tr->alive_after[a][depth - 1] = (int8_t)vt->is_alive(s->cfg, sim, a);
            }
        }
        path[plen++] = child;
        cur = child;
        if (stop) {
            if (x->nodes[child].flags & MCGS_TERMINAL) terminal = 1;
            break;
        }
    }
    *turns += depth;
    if ((uint32_t)depth > x->depth_reached) x->depth_reached = (uint32_t)depth;

    /* backup, deepest first: count the edge, recompute the node's Q */
    for (int i = plen - 2; i >= 0; i--) {
        mcgs_node *nd = &x->nodes[path[i]];
        x->edges[pedge[i]].visits++;
        if (pkid[i]) x->kids[pkid[i] - 1].visits++;
        nd->visits++;
        recompute_q(x, nd);
    }

    if (tr) {
        tr->depth = depth;
        tr->terminal = terminal;
        tr->sim_seed = sim_seed;
        tr->path_len[0] = plen;
        tr->path_len[1] = 0;
        for (int i = 0; i < plen; i++) tr->path[0][i] = (int32_t)path[i];
        /* the playout's return: rewards along the path + the leaf's U */
        const mcgs_node *leaf = &x->nodes[path[plen - 1]];
        for (int a = 0; a < 2; a++) {
            tr->score[a] = leaf->base[a] + leaf->u[a];
            tr->norm_min[a] = 0.0;
            tr->norm_max[a] = 0.0;
        }
    }
    return SBX_STOP_NONE;
}

static int mcgs_iterate(sbx_search *s, int64_t *turns) {
    return mcgs_iterate_impl(s, turns, NULL);
}

static int mcgs_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return mcgs_iterate_impl(s, turns, tr);
}

/* ------------------------------------------------------------ reuse */

/* Keep what is reachable from node `keep` (the new root, index 0 after),
 * compact nodes and edges in order, rebuild the table. */
static void reroot(mcgs *x, uint32_t keep) {
    uint32_t *map = calloc(x->used, sizeof *map);   /* old -> new + 1 */
    uint32_t *stack = malloc((size_t)x->used * sizeof *stack);
    if (!map || !stack) {
        free(map);
        free(stack);
        clear(x);
        return;
    }
    /* mark (DFS), numbering the new root 0 */
    uint32_t sp = 0, count = 0;
    map[keep] = ++count;
    stack[sp++] = keep;
    while (sp) {
        const mcgs_node *nd = &x->nodes[stack[--sp]];
        const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
        for (uint32_t e = 0; e < ne; e++) {
            uint32_t c = x->edges[nd->edges + e].child;
            if (c && !map[c]) {
                map[c] = 0xFFFFFFFFu; /* seen, numbered below in index order */
                stack[sp++] = c;
            }
            for (uint32_t k = more_of(x, nd->edges + e); k; k = x->kids[k - 1].next) {
                c = x->kids[k - 1].child;
                if (!map[c]) {
                    map[c] = 0xFFFFFFFFu;
                    stack[sp++] = c;
                }
            }
        }
    }
    for (uint32_t i = 0; i < x->used; i++) {
        if (map[i] == 0xFFFFFFFFu) map[i] = ++count;
    }
    /* compact: new index = map - 1 ascending (root first, then by old
     * index, so a move never overwrites a node not yet moved) */
    mcgs_node root = x->nodes[keep];
    uint32_t eused = 0;
    /* edges: root's first, then the others in old node order */
    mcgs_edge *ne_arr = malloc((size_t)(x->eused ? x->eused : 1) * sizeof *ne_arr);
    /* chance children: each kept edge's list copied in order, after the
     * edge's new index, into a compacted child array */
    uint32_t *nm_arr = x->more ? malloc((size_t)(x->eused ? x->eused : 1) * sizeof *nm_arr) : NULL;
    mcgs_kid *nk_arr = x->more ? malloc((size_t)(x->kused ? x->kused : 1) * sizeof *nk_arr) : NULL;
    uint32_t kused = 0;
    if (!ne_arr || (x->more && (!nm_arr || !nk_arr))) {
        free(ne_arr);
        free(nm_arr);
        free(nk_arr);
        free(map);
        free(stack);
        clear(x);
        return;
    }
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < x->used; i++) {
            if (!map[i] || (pass == 0) != (i == keep)) continue;
            mcgs_node *nd = i == keep ? &root : &x->nodes[i];
            const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
            for (uint32_t e = 0; e < ne; e++) {
                mcgs_edge ed = x->edges[nd->edges + e];
                ed.child = ed.child ? map[ed.child] - 1 : 0;
                ne_arr[eused + e] = ed;
                if (!nm_arr) continue;
                nm_arr[eused + e] = 0;
                uint32_t *link = &nm_arr[eused + e];
                for (uint32_t k = x->more[nd->edges + e]; k; k = x->kids[k - 1].next) {
                    mcgs_kid o = x->kids[k - 1];
                    o.child = map[o.child] - 1;
                    o.next = 0;
                    nk_arr[kused] = o;
                    *link = ++kused;
                    link = &nk_arr[kused - 1].next;
                }
            }
            nd->edges = eused;
            eused += ne;
        }
    }
    memcpy(x->edges, ne_arr, (size_t)eused * sizeof *ne_arr);
    free(ne_arr);
    if (nm_arr) {
        memcpy(x->more, nm_arr, (size_t)eused * sizeof *nm_arr);
        memset(x->more + eused, 0, (size_t)(x->mcap - eused) * sizeof *x->more);
        memcpy(x->kids, nk_arr, (size_t)kused * sizeof *nk_arr);
        x->kused = kused;
        free(nm_arr);
        free(nk_arr);
    }
    /* priors: the same order as the edges (root first) */
    if (x->priors && x->pused) {
        float *np = malloc((size_t)x->pused * sizeof *np);
        if (!np) {
            free(map);
            free(stack);
            clear(x);
            return;
        }
        uint32_t pused = 0;
        for (uint32_t pass = 0; pass < 2; pass++) {
            for (uint32_t i = 0; i < x->used; i++) {
                if (!map[i] || (pass == 0) != (i == keep)) continue;
                mcgs_node *nd = i == keep ? &root : &x->nodes[i];
                if (!(nd->flags & MCGS_EVALUATED) || (nd->flags & MCGS_TERMINAL)) continue;
                const uint32_t np_ = (uint32_t)nd->n[0] + nd->n[1];
                memcpy(&np[pused], &x->priors[nd->prior], np_ * sizeof *np);
                nd->prior = pused;
                pused += np_;
            }
        }
        memcpy(x->priors, np, (size_t)pused * sizeof *np);
        free(np);
        x->pused = pused;
    }
    for (uint32_t i = 0; i < x->used; i++) {
        if (!map[i] || i == keep) continue;
        x->nodes[map[i] - 1] = x->nodes[i]; /* map[i]-1 <= i for i != keep */
    }
    x->nodes[0] = root;
    x->used = count;
    x->eused = eused;
    free(map);
    free(stack);
    table_rebuild(x, x->used);
}

static void mcgs_advance(sbx_search *s, const uint8_t *joint) {
    mcgs *x = s->algo;
    uint32_t keep = 0;
    if (s->p.tree_reuse && (x->nodes[0].flags & MCGS_EVALUATED)) {
        const uint64_t h = s->vt->hash(s->cfg, s->root);
        if (s->p.transpositions) {
            keep = table_find(x, h);
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
        clear(x);
        return;
    }
    reroot(x, keep);
    x->depth_reached = 0;
}

static void mcgs_reset_all(sbx_search *s) { clear(s->algo); }

/* ------------------------------------------------------------ inspection */

/* The root, if it is evaluated and is the search's root state (a caller's
 * new_root without reuse leaves it fresh). */
static const mcgs_node *root_node(sbx_search *s) {
    mcgs *x = s->algo;
    const mcgs_node *r = &x->nodes[0];
    return (r->flags & MCGS_EVALUATED) ? r : NULL;
}

/* The marginal visit distribution's pick: argmax (ties: higher marginal Q,
 * then the lower index), or a draw from pi^(1/temperature) seeded by the
 * search's RNG word and iteration counts (the same however often asked). */
static int final_outcome(sbx_search *s, const mcgs_node *r, int a) {
    mcgs *x = s->algo;
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    marginal(x, r, a, s->p.fpu_offset, mv, mq);
    const int k = r->n[a];
    int best = 0;
    for (int i = 1; i < k; i++) {
        if (mv[i] > mv[best] || (mv[i] == mv[best] && mq[i] > mq[best])) best = i;
    }
    if (s->p.final_move != SBX_FINAL_SAMPLE || r->visits == 0 || s->p.temperature <= 0.0) {
        return best;
    }
    double w[SBX_MAX_MOVES], sum = 0.0;
    for (int i = 0; i < k; i++) {
        w[i] = mv[i] ? pow((double)mv[i] / r->visits, 1.0 / s->p.temperature) : 0.0;
        sum += w[i];
    }
    if (!(sum > 0.0) || !isfinite(sum)) return best;
    uint64_t rng = s->rng ^ ((uint64_t)s->iterations * 0x9E3779B97F4A7C15ULL) ^
                   ((uint64_t)(a + 1) * 0xD1B54A32D192ED03ULL);
    double u = (sbx_rng_next(&rng) >> 11) * (1.0 / 9007199254740992.0) * sum;
    for (int i = 0; i < k; i++) {
        if (w[i] <= 0.0) continue;
        if (u < w[i]) return i;
        u -= w[i];
    }
    return best;
}

static void mcgs_best_moves(sbx_search *s, int32_t *out) {
    const mcgs_node *r = root_node(s);
    for (int a = 0; a < 2; a++) {
        uint8_t m[SBX_MAX_MOVES];
        int k = s->vt->is_alive(s->cfg, s->root, a) ? s->vt->legal_moves(s->cfg, s->root, a, m) : 0;
        out[a] = k ? m[0] : SBX_MOVE_NONE;
        if (r && r->visits && r->act[a][0] != SBX_MOVE_NONE) out[a] = r->act[a][final_outcome(s, r, a)];
    }
}

/* One row per outcome (its representative move): marginal visits, the
 * absolute value evaluate(root) + Option D's marginal Q, the visit share as
 * prob and policy. */
static int mcgs_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                           int *n_out) {
    mcgs *x = s->algo;
    const mcgs_node *r = root_node(s);
    if (!r || r->act[agent][0] == SBX_MOVE_NONE || (r->flags & MCGS_TERMINAL)) {
        *n_out = 0;
        return SBX_OK;
    }
    const int k = r->n[agent];
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    marginal(x, r, agent, s->p.fpu_offset, mv, mq);
    for (int i = 0; i < k; i++) {
        out[i].move = r->act[agent][i];
        out[i].visits = (int32_t)mv[i];
        out[i].mean = mv[i] ? r->base[agent] + mq[i] : 0.0;
        out[i].prob = r->visits ? (double)mv[i] / r->visits : 0.0;
        out[i].policy = out[i].prob;
    }
    *n_out = k;
    return SBX_OK;
}

static void mcgs_fill_stats(sbx_search *s, sbx_search_stats *out) {
    mcgs *x = s->algo;
    out->node_bytes = (int32_t)sizeof(mcgs_node);
    out->trees = 1;
    for (int a = 0; a < 2; a++) {
        out->nodes[a] = (int32_t)x->used;
        out->root_visits[a] = (int32_t)x->nodes[0].visits;
        out->max_depth_reached[a] = (int32_t)x->depth_reached;
        out->norm_min[a] = 0.0;
        out->norm_max[a] = 0.0;
    }
    out->transposition_hits = x->hits;
    /* chance children count as edges: their array and `more`, when made */
    out->edge_bytes = (int64_t)x->eused * (int64_t)sizeof(mcgs_edge) +
                      (x->more ? (int64_t)x->eused * (int64_t)sizeof *x->more +
                                     (int64_t)x->kused * (int64_t)sizeof(mcgs_kid)
                               : 0);
    out->prior_bytes = (int64_t)x->pused * (int64_t)sizeof(float);
    out->table_bytes = ((int64_t)x->tmask + 1) * (int64_t)sizeof(uint32_t);
}

/* The root's edges as sbx.h's matrix: cells are outcome pairs. */
static int mcgs_root_matrix(sbx_search *s, sbx_root_matrix *out) {
    mcgs *x = s->algo;
    const mcgs_node *r = root_node(s);
    if (!r || (r->flags & MCGS_TERMINAL)) return SBX_OK; /* 0 x 0 */
    const int n2 = r->n[1];
    out->n[0] = r->n[0];
    out->n[1] = n2;
    out->visits = (int32_t)r->visits;
    for (int a = 0; a < 2; a++) {
        uint32_t mv[SBX_MAX_MOVES];
        double mq[SBX_MAX_MOVES];
        marginal(x, r, a, s->p.fpu_offset, mv, mq);
        out->value[a] = r->base[a] + r->q[a];
        for (int i = 0; i < r->n[a]; i++) {
            out->act[a][i] = r->act[a][i];
            out->marginal_visits[a][i] = (int32_t)mv[i];
            out->marginal_value[a][i] = r->base[a] + mq[i];
            out->prior[a][i] = prior_of(x, r, a, i, &s->p); /* PUCT's prior */
        }
    }
    for (int e = 0; e < r->n[0] * n2; e++) {
        const mcgs_edge *ed = &x->edges[r->edges + (uint32_t)e];
        out->cell_visits[e] = (int32_t)ed->visits;
        const uint32_t ei = r->edges + (uint32_t)e;
        for (int a = 0; a < 2; a++) {
            /* chance: the expectation its children estimate (edge_sum) */
            out->cell_value[a][e] =
                !ed->visits ? NAN
                : more_of(x, ei) ? (float)(r->base[a] + edge_sum(x, ei, a) / ed->visits)
                : (float)(r->base[a] + ed->r[a] + x->nodes[ed->child].q[a]);
        }
    }
    return SBX_OK;
}

/* sbx.h: every visited edge between two rows that is not the child row's
 * snapshot parent, once per (parent row, child row), with its joint action
 * (the most visited such edge's). */
static int mcgs_snapshot_links(sbx_search *s, const sbx_snapshot_node *rows, int n_rows,
                               int32_t *pairs, uint8_t *joints, int cap, int *n_out) {
    mcgs *x = s->algo;
    const uint32_t n = x->used;
    /* row_of[node] = row + 1 (0: not a row); seen[child] = parent row + 1;
     * slot[child] = the pair written for (that parent row, child), or
     * UINT32_MAX if it was dropped; kept[child] = the visits of the edge
     * whose joint that pair holds */
    uint32_t *row_of = sbx_search_scratch(s, (size_t)n * 4 * sizeof *row_of);
    if (!row_of) return sbx_fail(SBX_ERR_MEMORY, "out of memory for snapshot links");
    uint32_t *seen = row_of + n, *slot = seen + n, *kept = slot + n;
    memset(row_of, 0, (size_t)n * 2 * sizeof *row_of);
    for (int r = 0; r < n_rows; r++) {
        const int32_t id = rows[r].node;
        if (id >= 0 && (uint32_t)id < n && !row_of[id]) row_of[id] = (uint32_t)r + 1;
    }
    int count = 0;
    for (int r = 0; r < n_rows; r++) {
        const int32_t id = rows[r].node;
        if (id < 0 || (uint32_t)id >= n || row_of[id] != (uint32_t)r + 1) continue;
        const mcgs_node *nd = &x->nodes[id];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            /* each child of the edge (one without chance) */
            uint32_t ch, ov;
            for (uint32_t it = KID_START; next_kid(x, nd->edges + e, &it, &ch, &ov);) {
                if (!ov || !ch || !row_of[ch]) continue;
                const uint32_t c = row_of[ch] - 1;
                if (rows[c].parent == r) continue;
                const uint8_t m0 = nd->act[0][e / nd->n[1]], m1 = nd->act[1][e % nd->n[1]];
                if (seen[ch] == (uint32_t)r + 1) {
                    /* another edge from r into the same child: the pair shows
                     * the most visited one's joint */
                    const uint32_t k = slot[ch];
                    if (k != UINT32_MAX && joints && ov > kept[ch]) {
                        joints[2 * k] = m0;
                        joints[2 * k + 1] = m1;
                        kept[ch] = ov;
                    }
                    continue;
                }
                seen[ch] = (uint32_t)r + 1;
                slot[ch] = UINT32_MAX;
                kept[ch] = ov;
                if (count < cap) {
                    pairs[2 * count] = r;
                    pairs[2 * count + 1] = (int32_t)c;
                    if (joints) {
                        joints[2 * count] = m0;
                        joints[2 * count + 1] = m1;
                    }
                    slot[ch] = (uint32_t)count;
                    count++;
                }
            }
        }
    }
    *n_out = count;
    return SBX_OK;
}

typedef struct heap_item {
    uint32_t visits, node, parent_row_hint;
} heap_item;

/* The graph's top: the max_nodes most-visited nodes (N = 1 + edge visits)
 * reachable through visited edges, chosen best-first from the root, then
 * written breadth-first. A node reachable from two parents appears once:
 * its row's parent is the first parent met in that order, and
 * SBX_NODE_SHARED says it has more than one parent in the graph. */
static int mcgs_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                         int min_visits, sbx_snapshot_node *out, int *n_out) {
    mcgs *x = s->algo;
    const uint32_t n = x->used;
    if (top >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "snapshot: node %u is not in the graph (ids 0..%u)",
                        top, n - 1);
    }
    if ((uint32_t)max_nodes > n) max_nodes = (int)n;
    /* scratch: chosen/emitted marks, parent counts, last parent, a heap */
    const size_t links = (size_t)x->eused + (x->more ? x->kused : 0); /* edges + children */
    size_t bytes = (size_t)n * (1 + 4 + 4) + (links + 2) * sizeof(heap_item);
    unsigned char *buf = sbx_search_scratch(s, bytes);
    if (!buf) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    heap_item *heap = (heap_item *)buf;
    uint32_t *parents = (uint32_t *)(heap + links + 2);
    uint32_t *lastp = parents + n;
    uint8_t *mark = (uint8_t *)(lastp + n);
    memset(parents, 0, (size_t)n * 4);
    memset(lastp, 0xFF, (size_t)n * 4);
    memset(mark, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        const mcgs_node *nd = &x->nodes[i];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, v;
            for (uint32_t it = KID_START; next_kid(x, nd->edges + e, &it, &c, &v);) {
                if (c && lastp[c] != i) {
                    lastp[c] = i;
                    parents[c]++;
                }
            }
        }
    }
    const uint32_t floor = (uint32_t)(min_visits > 0 ? min_visits : 0);
#define NVIS(i) (x->nodes[i].visits + ((x->nodes[i].flags & MCGS_EVALUATED) ? 1u : 0u))
    /* best-first selection (a binary max-heap on visits) */
    int hn = 0, count = 0;
    heap[hn++] = (heap_item){NVIS(top), top, 0};
    while (hn > 0 && count < max_nodes) {
        heap_item it = heap[0];
        heap[0] = heap[--hn];
        for (int i = 0;;) { /* sift down */
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < hn && heap[l].visits > heap[m].visits) m = l;
            if (r < hn && heap[r].visits > heap[m].visits) m = r;
            if (m == i) break;
            heap_item t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
        if (mark[it.node]) continue;
        if (it.node != top && it.visits < floor) break;
        mark[it.node] = 1;
        count++;
        const mcgs_node *nd = &x->nodes[it.node];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, v;
            for (uint32_t oi = KID_START; next_kid(x, nd->edges + e, &oi, &c, &v);) {
                if (!v || mark[c]) continue;
                if (hn >= (int)links + 1) break;
                heap_item ni = {NVIS(c), c, 0};
                int i = hn++;
                heap[i] = ni;
                while (i > 0 && heap[(i - 1) / 2].visits < heap[i].visits) { /* sift up */
                    heap_item t = heap[i];
                    heap[i] = heap[(i - 1) / 2];
                    heap[(i - 1) / 2] = t;
                    i = (i - 1) / 2;
                }
            }
        }
    }
    /* breadth-first write-out; `out` is the queue; mark 1 = chosen, 2 = written */
    const mcgs_node *r0 = &x->nodes[top];
    memset(&out[0], 0, sizeof out[0]);
    out[0].node = (int32_t)top;
    out[0].parent = -1;
    out[0].visits = (int32_t)NVIS(top);
    out[0].mean = (float)(r0->base[agent] + r0->q[agent]);
    out[0].prob = 1.0f;
    out[0].move = SBX_MOVE_NONE;
    out[0].agent = -1;
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    mark[top] = 2;
    int rows = 1;
    for (int head = 0; head < rows; head++) {
        const mcgs_node *nd = &x->nodes[out[head].node];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, ov; /* each child of the edge: a row per state met */
            for (uint32_t oi = KID_START; next_kid(x, nd->edges + e, &oi, &c, &ov);) {
                if (!ov) continue;
                if (mark[c] == 0) out[head].flags |= SBX_NODE_TRUNCATED;
                if (mark[c] != 1) continue;
                mark[c] = 2;
                const mcgs_node *ch = &x->nodes[c];
                const int i = (int)(e / nd->n[1]), j = (int)(e % nd->n[1]);
                sbx_snapshot_node *row = &out[rows++];
                memset(row, 0, sizeof *row);
                row->node = (int32_t)c;
                row->parent = head;
                row->visits = (int32_t)NVIS(c);
                row->mean = (float)(ch->base[agent] + ch->q[agent]);
                row->prob = nd->visits ? (float)ov / (float)nd->visits : 0.0f;
                row->depth = (int16_t)(out[head].depth + 1);
                row->agent = -1;
                memset(row->joint, SBX_MOVE_NONE, sizeof row->joint);
                row->joint[0] = nd->act[0][i];
                row->joint[1] = nd->act[1][j];
                row->move = row->joint[agent];
                if (parents[c] > 1) row->flags |= SBX_NODE_SHARED;
            }
        }
    }
#undef NVIS
    *n_out = rows;
    return SBX_OK;
}

/* A path step is the joint action; each player's move matches the outcome
 * it is the representative of (the move the snapshot rows show). */
static int mcgs_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                          int stride, int32_t *node_out) {
    mcgs *x = s->algo;
    if (stride < 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "find_path: an mcgs step needs 2 moves (one per player), got %d", stride);
    }
    uint32_t node = 0;
    for (int k = 0; k < steps; k++) {
        const mcgs_node *nd = &x->nodes[node];
        const uint8_t *st = path + (size_t)k * (size_t)stride;
        int oi = -1, oj = -1;
        for (int i = 0; i < nd->n[0] && oi < 0; i++)
            if (nd->act[0][i] == st[0]) oi = i;
        for (int j = 0; j < nd->n[1] && oj < 0; j++)
            if (nd->act[1][j] == st[1]) oj = j;
        /* a path names no chance: an edge with several children leads to
         * its most visited one (on a tie the edge's own, then the newest) */
        uint32_t child = 0, best = 0, c, v;
        if (oi >= 0 && oj >= 0) {
            const uint32_t ei = nd->edges + (uint32_t)(oi * nd->n[1] + oj);
            for (uint32_t it = KID_START; next_kid(x, ei, &it, &c, &v);) {
                if (c && (!child || v > best)) {
                    child = c;
                    best = v;
                }
            }
        }
        if (!child) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d (moves %u/%u) leads to no node of the "
                            "graph (node %u)", k + 1, steps, (unsigned)st[0], (unsigned)st[1],
                            node);
        }
        node = child;
    }
    *node_out = (int32_t)node;
    return SBX_OK;
}

static int64_t mcgs_node_count(sbx_search *s) {
    mcgs *x = s->algo;
    return x->used;
}

/* ------------------------------------------------------------ parallel */

/*
 * sbx_search_run with parallel = wu_uct or tree (search.c calls
 * run_parallel; root and leaf are refused by mcgs_check). Each of `threads`
 * workers (worker 0 is the calling thread, with the search's RNG and
 * state) runs whole playouts on the one shared graph, as Smitsimax's
 * shared-tree modes do:
 *  - statistics: edge and node visits move by atomic adds, Q by atomic
 *    stores of the idempotent recomputation; per edge an in-flight count
 *    (x->inflight, an array beside the edges so that a serial search's
 *    edges stay 16 bytes) is +1 at selection and -1 after the backup, and
 *    select_outcome_ex reads it (wu_uct: N+O; tree: virtual loss);
 *  - linking an edge: the thread that wins a CAS of the edge's child from 0
 *    to CLAIM looks the state up / makes the node and publishes the child
 *    with a release store; the others wait for it (microseconds);
 *  - the transposition table: open addressing as in the serial search,
 *    with a lock per shard of buckets (the shard of a state's home
 *    bucket). A find-or-insert holds its shard's lock, so a look-up that
 *    races an insert of the same state waits and finds it: one node per
 *    state. Slots are claimed by CAS, since a probe can run into a
 *    neighbouring shard's buckets. A node is in the table before it is
 *    evaluated; a thread that finds it waits for its flags (release store
 *    last in evaluate_node);
 *  - allocation: the node, edge and prior arrays are shared bump arrays
 *    taken by atomic adds (no lock); they cannot be grown while threads
 *    read them, so a run goes in epochs: before an epoch the driving thread
 *    grows them, and a worker starts an iteration only while every worker's
 *    iteration in flight still fits (room_ok); when they do not, the
 *    workers stop, the arrays double, and the next epoch starts.
 *  - chance children: a kid is listed under the shard lock of its state's
 *    hash (two threads meeting one new state on one edge list it once) by
 *    a CAS of the edge's list head (threads listing other states on it),
 *    before its node is evaluated; readers skip a kid whose node is not
 *    evaluated yet. The kid array grows per epoch like the others; at
 *    node_cap a playout that finds it full is dropped (its in-flight counts
 *    undone, nothing counted) and the run stops with node_cap;
 * One thread takes the same path, and with every in-flight count 0 each
 * formula and RNG draw is the serial one: threads = 1 gives the serial
 * search (tests/native/test_mcgs_parallel.py).
 */
#define PAR_FULL (-1) /* internal stop reason: the epoch's arrays are full */

typedef struct mcgs_run mcgs_run;

typedef struct mcgs_worker {
    mcgs_run *run;
    int id;
    uint64_t rng;
    void *sim, *tmp, *tmp2;
    int64_t iterations, turns;
    double wait_ms, busy_ms;
    int one_shot;         /* run one iteration only (the root's first)     */
    pthread_t thread;
    int started;
    char pad[128];        /* neighbours' counters on other cache lines     */
} mcgs_worker;

struct mcgs_run {
    sbx_search *s;
    int nthreads;
    int64_t max_iterations;
    double max_ms, t0;
    uint32_t node_lim;    /* min(node array, node_cap) this epoch          */
    uint32_t kid_lim;     /* min(child array, node_cap) this epoch       */
    uint32_t room_e, room_p; /* most edges / priors one iteration adds     */
    char pad0[128];
    int64_t claimed;      /* iterations handed out (atomic)                */
    char pad1[128];
    int done;             /* atomic: workers stop                          */
    int reason;           /* atomic: the first stop reason                 */
    mcgs_worker w[SBX_MAX_THREADS];
};

static void run_stop(mcgs_run *r, int reason) {
    sbx_par_stop(&r->reason, &r->done, reason);
}

/* Room for every worker's iteration in flight: each adds at most one node,
 * room_e edges and room_p priors, and a worker checks before it starts. */
static int room_ok(const mcgs_run *r, const mcgs *x) {
    const uint64_t nt = (uint64_t)r->nthreads;
    if ((uint64_t)LD(&x->used) + nt > r->node_lim) return 0;
    /* a playout lists at most one chance child per step; below node_cap
     * the epoch stops early enough to grow the array, at node_cap a full
     * array drops the playout that finds it full (par_iterate) */
    if (r->kid_lim < (uint32_t)r->s->p.node_cap &&
        (uint64_t)LD(&x->kused) + nt * (uint64_t)r->s->p.max_depth > r->kid_lim) {
        return 0;
    }
    if (LD(&x->kused) >= r->kid_lim) return 0;
    if ((uint64_t)LD(&x->eused) + nt * r->room_e > x->ecap) return 0;
    if (r->s->p.priors == SBX_PRIORS_HEURISTIC &&
        (uint64_t)LD(&x->pused) + nt * r->room_p > x->pcap) {
        return 0;
    }
    return 1;
}

/* Before an epoch (no worker running): the arrays doubled as needed for
 * the next stretch of iterations, the in-flight array as long as the edge
 * array, the table at most half full at node_lim nodes. */
static int grow_for_epoch(mcgs_run *r, mcgs *x) {
    sbx_search *s = r->s;
    const uint64_t nt = (uint64_t)r->nthreads, cap = (uint64_t)s->p.node_cap;
    uint64_t want = (uint64_t)x->used + nt + (x->used > 1024 ? x->used : 1024);
    if (want > cap) want = cap;
    if (want > x->cap) {
        mcgs_node *n = realloc(x->nodes, (size_t)want * sizeof *n);
        if (!n) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
        x->nodes = n;
        x->cap = (uint32_t)want;
    }
    r->node_lim = x->cap < cap ? x->cap : (uint32_t)cap;
    uint64_t ew = (uint64_t)x->eused + 4 * nt * r->room_e;
    if (ew < 2 * (uint64_t)x->eused) ew = 2 * (uint64_t)x->eused;
    if (ew > x->ecap) {
        if (ew > UINT32_MAX) return sbx_fail(SBX_ERR_MEMORY, "the graph's edge array is full");
        mcgs_edge *e = realloc(x->edges, (size_t)ew * sizeof *e);
        if (!e) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
        x->edges = e;
        x->ecap = (uint32_t)ew;
    }
    if (x->icap < x->ecap) {
        uint32_t *in = realloc(x->inflight, (size_t)x->ecap * sizeof *in);
        if (!in) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
        memset(in + x->icap, 0, (size_t)(x->ecap - x->icap) * sizeof *in);
        x->inflight = in;
        x->icap = x->ecap;
    }
    /* chance children: workers cannot grow the arrays, so `more` exists in
     * every parallel run; a take past the epoch's limit left no child */
    if (x->kused > x->kcap) x->kused = x->kcap;
    if (!grow_more(x)) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
    const uint64_t ow = 4 * nt * (uint64_t)s->p.max_depth;
    if (!grow_kids(x, x->kused > ow ? x->kused : ow, cap) && !grow_kids(x, cap - x->kused, cap)) {
        if (x->kcap < cap) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
    }
    r->kid_lim = x->kcap < cap ? x->kcap : (uint32_t)cap;
    if (s->p.priors == SBX_PRIORS_HEURISTIC) {
        uint64_t pw = (uint64_t)x->pused + 4 * nt * r->room_p;
        if (pw < 2 * (uint64_t)x->pused) pw = 2 * (uint64_t)x->pused;
        if (pw > x->pcap) {
            if (pw > UINT32_MAX) return sbx_fail(SBX_ERR_MEMORY, "the prior array is full");
            float *pr = realloc(x->priors, (size_t)pw * sizeof *pr);
            if (!pr) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
            x->priors = pr;
            x->pcap = (uint32_t)pw;
        }
    }
    if (s->p.transpositions && 2 * (uint64_t)r->node_lim > (uint64_t)x->tmask + 1 &&
        table_rebuild(x, r->node_lim) != SBX_OK) {
        return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the transposition table");
    }
    return SBX_OK;
}

/* The table's find-or-insert under the home bucket's shard lock: the node
 * holding `hash`, or else `node` inserted (node == UINT32_MAX: a new node
 * taken from the array and zeroed, with its hash; *added = 1). Taking the
 * new node under the lock keeps the array free of nodes that lost a race. */
static pthread_mutex_t *shard_of(mcgs *x, uint64_t hash) {
    const uint32_t home = (uint32_t)mix(hash) & x->tmask;
    const int bits = __builtin_ctz(x->tmask + 1); /* >= 10: the table has >= 1024 slots */
    return &x->shard[home >> (bits - 6)]; /* 64 shards */
}

/* table_find_or_add's body; the caller holds shard_of(hash). */
static uint32_t table_find_or_add_locked(mcgs *x, uint64_t hash, uint32_t node, int *added) {
    const uint32_t home = (uint32_t)mix(hash) & x->tmask;
    *added = 0;
    for (uint32_t i = home;; i = (i + 1) & x->tmask) {
        uint32_t v = LDA(&x->table[i]);
        if (!v) {
            if (node == UINT32_MAX) {
                node = take(&x->used, 1, 1);
                memset(&x->nodes[node], 0, sizeof x->nodes[node]);
                x->nodes[node].hash = hash;
            }
            if (__atomic_compare_exchange_n(&x->table[i], &v, node + 1, 0, __ATOMIC_RELEASE,
                                            __ATOMIC_ACQUIRE)) {
                *added = 1;
                break;
            }
            /* a state of another shard took the slot first: v is it */
        }
        if (x->nodes[v - 1].hash == hash) {
            node = v - 1;
            break;
        }
    }
    return node;
}

static uint32_t table_find_or_add(mcgs *x, uint64_t hash, uint32_t node, int *added) {
    pthread_mutex_t *lock = shard_of(x, hash);
    pthread_mutex_lock(lock);
    node = table_find_or_add_locked(x, hash, node, added);
    pthread_mutex_unlock(lock);
    return node;
}
_Static_assert(MCGS_SHARDS == 64, "table_find_or_add takes the top 6 bits of the home bucket");

/* Links edge ei (its child CLAIMed by this thread) to the node of `sim`:
 * found in the table, or made and evaluated. Returns the child; *made: a
 * new node (the playout stops there). */
static uint32_t link_edge(mcgs_worker *w, mcgs *x, uint32_t ei, const void *sim,
                          double base0, double base1, int *made) {
    sbx_search *s = w->run->s;
    const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1};
    const uint64_t h = s->vt->hash(s->cfg, sim);
    uint32_t child;
    if (s->p.transpositions) {
        child = table_find_or_add(x, h, UINT32_MAX, made);
    } else {
        child = take(&x->used, 1, 1);
        memset(&x->nodes[child], 0, sizeof x->nodes[child]);
        x->nodes[child].hash = h;
        *made = 1;
    }
    if (*made) {
        evaluate_node(s, x, child, sim, &cx);
    } else {
        __atomic_fetch_add(&x->hits, 1, __ATOMIC_RELAXED);
        SBX_WAIT_UNTIL(LDA(&x->nodes[child].flags) & MCGS_EVALUATED, &w->wait_ms);
    }
    mcgs_edge *ed = &x->edges[ei];
    ed->r[0] = (float)(x->nodes[child].base[0] - base0);
    ed->r[1] = (float)(x->nodes[child].base[1] - base1);
    __atomic_store_n(&ed->child, child, __ATOMIC_RELEASE);
    return child;
}

/* The chance child of edge ei for state `sim` (hash h, not the edge's
 * first child) in a parallel run: found in the edge's list, or listed now.
 * Listing holds h's shard lock, so two threads that meet the same new
 * state on one edge list it once; threads listing other states on the same
 * edge meet at the CAS of the list head. The child's node is found or
 * made under the same lock (table_find_or_add's body) and the child is
 * listed before the node is evaluated: a reader of the list checks the
 * node's flags, and a thread that descends into it waits for them. Its
 * reward is evaluate(sim) - the parent's: the node's base, which a node not
 * yet evaluated does not have. Returns the child (index + 1), 0 when the
 * child array is full (this epoch's room or node_cap); *made: a new node. */
static uint32_t par_chance_link(mcgs_worker *w, mcgs *x, uint32_t ei, const void *sim,
                                uint64_t h, double base0, double base1, int *made) {
    sbx_search *s = w->run->s;
    uint32_t *head = &x->more[ei];
    int listed = 0;
    *made = 0;
    for (uint32_t k = LDA(head); k; k = x->kids[k - 1].next) { /* before locking */
        if (x->nodes[x->kids[k - 1].child].hash == h) return k;
    }
    double b[2]; /* the reward's evaluation, outside the lock */
    s->vt->evaluate(s->cfg, sim, b);
    pthread_mutex_t *lock = shard_of(x, h);
    pthread_mutex_lock(lock);
    uint32_t k = LDA(head);
    for (; k; k = x->kids[k - 1].next) { /* listed meanwhile by a thread with h */
        if (x->nodes[x->kids[k - 1].child].hash == h) break;
    }
    if (!k) {
        const uint32_t idx = take(&x->kused, 1, 1);
        if (idx >= w->run->kid_lim) {
            pthread_mutex_unlock(lock);
            return 0;
        }
        uint32_t child;
        if (s->p.transpositions) {
            child = table_find_or_add_locked(x, h, UINT32_MAX, made);
        } else {
            child = take(&x->used, 1, 1);
            memset(&x->nodes[child], 0, sizeof x->nodes[child]);
            x->nodes[child].hash = h;
            *made = 1;
        }
        mcgs_kid *o = &x->kids[idx];
        o->child = child;
        o->visits = 0;
        o->r[0] = (float)(b[0] - base0);
        o->r[1] = (float)(b[1] - base1);
        uint32_t old = LDA(head);
        do {
            o->next = old;
        } while (!__atomic_compare_exchange_n(head, &old, idx + 1, 1, __ATOMIC_RELEASE,
                                              __ATOMIC_ACQUIRE));
        k = idx + 1;
        listed = 1;
    }
    pthread_mutex_unlock(lock);
    if (*made) {
        const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1};
        evaluate_node(s, x, x->kids[k - 1].child, sim, &cx);
    } else if (listed) {
        __atomic_fetch_add(&x->hits, 1, __ATOMIC_RELAXED); /* linked to a node of the table */
    }
    return k;
}

/* The visits of edge ei that met its first child, in a parallel run. */
static uint32_t par_first_visits(const mcgs *x, uint32_t ei) {
    int64_t v = LD(&x->edges[ei].visits);
    for (uint32_t k = x->more ? LDA(&x->more[ei]) : 0; k; k = x->kids[k - 1].next) {
        v -= LD(&x->kids[k - 1].visits);
    }
    return v > 0 ? (uint32_t)v : 0; /* counts read one by one: never below 0 */
}

/* One playout of worker w on the shared graph (mcgs_iterate_impl's steps,
 * its RNG draws in the same order). Returns 0 if the playout was dropped
 * before its backup, nothing counted, because the epoch's child array is
 * full (the caller ends the epoch; the next has room, or stops at
 * node_cap, as the serial search does). */
static int par_iterate(mcgs_worker *w, int64_t *turns) {
    sbx_search *s = w->run->s;
    mcgs *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    void *sim = w->sim;
    memcpy(sim, s->root, s->state_size);
    vt->reseed(sim, sbx_rng_next(&w->rng));
    if (!(LD(&x->nodes[0].flags) & MCGS_EVALUATED)) { /* one worker alone (one_shot) */
        const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1};
        x->nodes[0].hash = vt->hash(s->cfg, sim);
        evaluate_node(s, x, 0, sim, &cx);
        int added;
        if (p->transpositions) table_find_or_add(x, x->nodes[0].hash, 0, &added);
    }
    uint32_t path[SBX_MAX_DEPTH + 1], pedge[SBX_MAX_DEPTH], pkid[SBX_MAX_DEPTH];
    int plen = 1, depth = 0;
    path[0] = 0;
    uint32_t cur = 0;
    while (depth < p->max_depth) {
        mcgs_node *nd = &x->nodes[cur];
        if (LD(&nd->flags) & MCGS_TERMINAL) break;
        const int o1 = select_outcome_ex(x, nd, 0, p, &w->rng, x->inflight);
        const int o2 = select_outcome_ex(x, nd, 1, p, &w->rng, x->inflight);
        const uint32_t ei = nd->edges + (uint32_t)(o1 * nd->n[1] + o2);
        __atomic_fetch_add(&x->inflight[ei], 1u, __ATOMIC_RELAXED); /* incomplete update */
        uint8_t joint[2] = {nd->act[0][o1], nd->act[1][o2]};
        const double base0 = nd->base[0], base1 = nd->base[1];
        vt->step(s->cfg, sim, joint, NULL);
        depth++;
        pedge[plen - 1] = ei;
        mcgs_edge *ed = &x->edges[ei];
        int made = 0;
        uint32_t kid = 0;
        uint32_t child = LDA(&ed->child);
        if (!child && __atomic_compare_exchange_n(&ed->child, &child, CLAIM, 0,
                                                  __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
            child = link_edge(w, x, ei, sim, base0, base1, &made);
        } else {
            if (child == CLAIM) SBX_WAIT_UNTIL((child = LDA(&ed->child)) != CLAIM, &w->wait_ms);
            const uint64_t h = vt->hash(s->cfg, sim);
            if (h != x->nodes[child].hash) { /* chance: another child */
                kid = par_chance_link(w, x, ei, sim, h, base0, base1, &made);
                if (!kid) { /* no room: drop the playout, undo its in-flight counts */
                    for (int i = 0; i < plen; i++) {
                        __atomic_fetch_sub(&x->inflight[pedge[i]], 1u, __ATOMIC_RELAXED);
                    }
                    return 0;
                }
                child = x->kids[kid - 1].child;
                if (!made) SBX_WAIT_UNTIL(LDA(&x->nodes[child].flags) & MCGS_EVALUATED, &w->wait_ms);
            }
        }
        pkid[plen - 1] = kid;
        int stop = made; /* a new node: evaluated, the playout ends */
        if (!stop && p->short_circuit) {
            /* the child known better than this link, newly made or not */
            const uint32_t lv = kid ? LD(&x->kids[kid - 1].visits) : par_first_visits(x, ei);
            stop = LD(&x->nodes[child].visits) + 1 > lv;
        }
        path[plen++] = child;
        cur = child;
        if (stop) break;
    }
    *turns += depth;
    uint32_t old = LD(&x->depth_reached);
    while ((uint32_t)depth > old &&
           !__atomic_compare_exchange_n(&x->depth_reached, &old, (uint32_t)depth, 1,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    /* backup, deepest first; the in-flight count goes after the node's Q
     * is recomputed (the complete update) */
    for (int i = plen - 2; i >= 0; i--) {
        mcgs_node *nd = &x->nodes[path[i]];
        /* the edge before its child: a reader that subtracts the
         * children's visits from the edge's sees the first one's at worst
         * one too high, never below its true count */
        __atomic_fetch_add(&x->edges[pedge[i]].visits, 1u, __ATOMIC_RELAXED);
        if (pkid[i]) __atomic_fetch_add(&x->kids[pkid[i] - 1].visits, 1u, __ATOMIC_RELAXED);
        __atomic_fetch_add(&nd->visits, 1u, __ATOMIC_RELAXED);
        par_recompute_q(x, nd);
        __atomic_fetch_sub(&x->inflight[pedge[i]], 1u, __ATOMIC_RELAXED);
    }
    return 1;
}

/* A worker's budget loop: the serial loop's checks in its order
 * (iterations, the clock by sbx_time_up over its own iterations, stop), after
 * the room check of the epoch. */
static void *worker_main(void *arg) {
    mcgs_worker *w = arg;
    mcgs_run *r = w->run;
    sbx_search *s = r->s;
    mcgs *x = s->algo;
    const int tci = s->p.time_check_interval;
    const double t0 = sbx_now_ms();
    int64_t next_clock = 0;
    while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
        if (!room_ok(r, x)) {
            run_stop(r, PAR_FULL);
            break;
        }
        if (r->max_iterations > 0 &&
            __atomic_fetch_add(&r->claimed, 1, __ATOMIC_RELAXED) >= r->max_iterations) {
            run_stop(r, SBX_STOP_ITERATIONS);
            break;
        }
        if (r->max_ms > 0.0 &&
            sbx_time_up((int64_t)w->iterations, &next_clock, tci, r->t0, r->max_ms)) {
            run_stop(r, SBX_STOP_TIME);
            break;
        }
        if (atomic_load_explicit(&s->stop_flag, memory_order_relaxed)) {
            run_stop(r, SBX_STOP_REQUESTED);
            break;
        }
        if (!par_iterate(w, &w->turns)) {
            if (r->max_iterations > 0) __atomic_fetch_sub(&r->claimed, 1, __ATOMIC_RELAXED);
            run_stop(r, PAR_FULL);
            break;
        }
        w->iterations++;
        if (w->one_shot) break;
    }
    w->busy_ms += sbx_now_ms() - t0;
    return NULL;
}

static int mcgs_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
                             int64_t *iterations, int64_t *turns, int *reason) {
    mcgs *x = s->algo;
    mcgs_run *r = calloc(1, sizeof *r);
    if (!r) return sbx_fail(SBX_ERR_MEMORY, "out of memory starting a parallel run");
    const int nt = s->p.threads;
    r->s = s;
    r->nthreads = nt;
    r->max_iterations = max_iterations;
    r->max_ms = max_ms;
    r->t0 = t0;
    r->room_e = (uint32_t)(s->max_moves * s->max_moves);
    r->room_p = (uint32_t)(2 * s->max_moves);
    int rc = SBX_OK;
    for (int j = 0; j < nt; j++) {
        mcgs_worker *w = &r->w[j];
        w->run = r;
        w->id = j;
        if (j == 0) { /* the serial search's RNG and buffers */
            w->rng = s->rng;
            w->sim = s->sim;
            w->tmp = x->tmp;
            w->tmp2 = x->tmp2;
            continue;
        }
        uint64_t h = s->rng ^ (0x9E3779B97F4A7C15ULL * (uint64_t)j);
        w->rng = sbx_rng_next(&h);
        if (!x->wbuf[j] && !(x->wbuf[j] = malloc(3 * s->state_size))) {
            rc = sbx_fail(SBX_ERR_MEMORY, "out of memory for thread %d's states", j);
            break;
        }
        w->sim = x->wbuf[j];
        w->tmp = (char *)x->wbuf[j] + s->state_size;
        w->tmp2 = (char *)x->wbuf[j] + 2 * s->state_size;
    }
    int started = 1;
    while (rc == SBX_OK) {
        if ((rc = grow_for_epoch(r, x)) != SBX_OK) break;
        r->done = 0;
        r->reason = SBX_STOP_NONE;
        if (!room_ok(r, x)) { /* at node_cap */
            r->reason = SBX_STOP_NODE_CAP;
            break;
        }
        if (!(x->nodes[0].flags & MCGS_EVALUATED)) {
            /* the root is evaluated by one playout before others join */
            r->w[0].one_shot = 1;
            worker_main(&r->w[0]);
            r->w[0].one_shot = 0;
            if (r->reason != SBX_STOP_NONE) {
                if (r->reason == PAR_FULL) continue;
                break;
            }
        }
        for (int j = 1; j < nt; j++) {
            r->w[j].started = pthread_create(&r->w[j].thread, NULL, worker_main, &r->w[j]) == 0;
            if (!r->w[j].started) break; /* fewer threads then */
        }
        worker_main(&r->w[0]);
        started = 1;
        for (int j = 1; j < nt; j++) {
            if (!r->w[j].started) continue;
            pthread_join(r->w[j].thread, NULL);
            r->w[j].started = 0;
            started++;
        }
        if (r->reason != PAR_FULL) break;
    }
    s->run_threads = started;
    s->run_wait_ms = s->run_busy_ms = 0.0;
    for (int j = 0; j < nt; j++) {
        mcgs_worker *w = &r->w[j];
        s->run_thread_iterations[j] = w->iterations;
        s->run_wait_ms += w->wait_ms;
        s->run_busy_ms += w->busy_ms;
        *iterations += w->iterations;
        *turns += w->turns;
    }
    s->rng = r->w[0].rng;
    *reason = r->reason == PAR_FULL ? SBX_STOP_NONE : r->reason;
    free(r);
    return rc;
}

const sbx_algo_vt sbx_mcgs_vt = {
    .name = "mcgs",
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

/* ------------------------------------------------------------ test hooks */

/* TEST ONLY (sbx.h, section 6): one node's raw data, and one Q
 * recomputation of one node, for tests that check the formulas against an
 * independent Python recomputation. */
int sbx_search_debug_mcgs_node(sbx_search *s, int node, sbx_mcgs_debug_node *out) {
    if (!s || !out) return sbx_fail(SBX_ERR_ARGUMENT, "search or out is NULL");
    if (s->algo_vt != &sbx_mcgs_vt) return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range (0..%u)", node, x->used - 1);
    }
    const mcgs_node *nd = &x->nodes[node];
    memset(out, 0, sizeof *out);
    out->n1 = nd->n[0];
    out->n2 = nd->n[1];
    out->visits = (int32_t)nd->visits;
    out->flags = nd->flags;
    out->hash = nd->hash;
    out->hits = x->hits;
    for (int a = 0; a < 2; a++) {
        out->q[a] = nd->q[a];
        out->u[a] = nd->u[a];
        out->base[a] = nd->base[a];
        for (int i = 0; i < nd->n[a]; i++) {
            out->act[a][i] = nd->act[a][i];
            const int has = (nd->flags & MCGS_EVALUATED) && !(nd->flags & MCGS_TERMINAL);
            out->prior[a][i] = has ? prior_of(x, nd, a, i, &s->p) : 0.0;
        }
    }
    for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
        const mcgs_edge *ed = &x->edges[nd->edges + e];
        out->edge_visits[e] = (int32_t)ed->visits;
        out->edge_child[e] = (int32_t)ed->child;
        out->edge_r[e][0] = ed->r[0];
        out->edge_r[e][1] = ed->r[1];
    }
    return SBX_OK;
}

int sbx_search_debug_mcgs_recompute(sbx_search *s, int node) {
    if (!s) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (s->algo_vt != &sbx_mcgs_vt) return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range", node);
    }
    recompute_q(x, &x->nodes[node]);
    return SBX_OK;
}

/* TEST ONLY (sbx.h, section 6): the children of one edge, the edge's own
 * child first (with the visits the others do not hold), then the states met
 * later, most recent first. */
int sbx_search_debug_mcgs_children(sbx_search *s, int node, int edge, int32_t *child,
                                   int32_t *visits, float *r, int cap, int *n_out) {
    if (!s || !n_out) return sbx_fail(SBX_ERR_ARGUMENT, "search or n_out is NULL");
    if (s->algo_vt != &sbx_mcgs_vt) return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    if (cap < 0 || (cap > 0 && (!child || !visits || !r))) {
        return sbx_fail(SBX_ERR_ARGUMENT, "child buffers: NULL or a negative cap (%d)", cap);
    }
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range (0..%u)", node, x->used - 1);
    }
    const mcgs_node *nd = &x->nodes[node];
    const int ne = (nd->flags & MCGS_EVALUATED) ? nd->n[0] * nd->n[1] : 0;
    if (edge < 0 || edge >= ne) {
        return sbx_fail(SBX_ERR_ARGUMENT, "edge %d out of range (node %d has %d edges)", edge,
                        node, ne);
    }
    const uint32_t ei = nd->edges + (uint32_t)edge;
    int n = 0;
    const mcgs_edge *ed = &x->edges[ei];
    if (ed->child) { /* linked: its own child is the first child */
        if (n < cap) {
            child[n] = (int32_t)ed->child;
            visits[n] = (int32_t)kid_visits(x, ei, 0);
            r[2 * n] = ed->r[0];
            r[2 * n + 1] = ed->r[1];
        }
        n++;
        for (uint32_t k = more_of(x, ei); k; k = x->kids[k - 1].next, n++) {
            if (n >= cap) continue;
            const mcgs_kid *o = &x->kids[k - 1];
            child[n] = (int32_t)o->child;
            visits[n] = (int32_t)o->visits;
            r[2 * n] = o->r[0];
            r[2 * n + 1] = o->r[1];
        }
    }
    *n_out = n;
    return SBX_OK;
}
