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
 * *
 * A playout stops at a node met for the first time (it is evaluated there),
 * at a terminal, at max_depth turns below the root, when the game's chance
 * made the simulated state differ from the edge's stored child (its hash;
 * snakes' food, goofspiel's random prize order: the edge keeps the first
 * outcome met, and this visit only counts) or, with short_circuit, when the
 * child has more visits than the edge (the child's Q is already estimated
 * from its other parents: KataGo's shortcut). gamma, c, random_threshold,
 * policy and elimination do not apply.
 *
 * Memory: nodes and edges live in two arrays grown by doubling (never a
 * malloc per node); node_cap bounds the nodes (SBX_STOP_NODE_CAP when
 * full). Heuristic priors live in a third array, of floats, made only when
 * priors=heuristic: n_1 + n_2 per node (player 0's outcomes, then player
 * 1's) from the node's `prior` index, so the node stays 104 bytes and a
 * uniform search pays nothing. Priors are fixed when a node is made: a
 * change of priors or prior_temperature starts the graph afresh. Tree reuse re-roots at the node of the new root state (a table
 * look-up), keeps what is reachable from it and compacts both arrays.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"

#define MCGS_EVALUATED 1
#define MCGS_TERMINAL 2

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

typedef struct mcgs {
    mcgs_node *nodes;
    uint32_t used, cap;       /* cap: allocated; s->p.node_cap: the limit */
    mcgs_edge *edges;
    uint32_t eused, ecap;
    float *priors;            /* priors=heuristic only (NULL until needed) */
    uint32_t pused, pcap;
    uint32_t *table;          /* open addressing: node index + 1, 0 empty */
    uint32_t tmask;
    uint32_t depth_reached;
    int64_t hits;             /* transposition hits (edges linked to an
                                 existing node)                           */
    void *tmp, *tmp2;         /* state buffers: outcome detection, rollout */
} mcgs;

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
    free(x->table);
    free(x->tmp);
    free(x->tmp2);
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
    if (!x->nodes || !x->edges || !x->tmp || !x->tmp2 || table_rebuild(x, 1) != SBX_OK) {
        mcgs_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a graph");
    }
    clear(x);
    return SBX_OK;
}

static int mcgs_params_changed(sbx_search *s, const sbx_search_params *old) {
    mcgs *x = s->algo;
    if (x->used > (uint32_t)s->p.node_cap) clear(x);
    /* the transposition switch changes what a node is: start afresh */
    if (s->p.transpositions != old->transpositions) clear(x);
    /* priors are fixed when a node is made */
    if (s->p.priors != old->priors || s->p.prior_temperature != old->prior_temperature) {
        clear(x);
    }
    return SBX_OK;
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
static int outcomes(sbx_search *s, mcgs *x, const void *state, int a,
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
        memcpy(x->tmp, state, s->state_size);
        s->vt->step(s->cfg, x->tmp, joint, NULL);
        const uint64_t hi = s->vt->hash(s->cfg, x->tmp);
        int same = -1;
        for (int c = 0; c < n && same < 0; c++) {
            if (h[c] != hi) continue;
            joint[a] = act[c];
            memcpy(x->tmp2, state, s->state_size);
            s->vt->step(s->cfg, x->tmp2, joint, NULL);
            if (memcmp(x->tmp, x->tmp2, s->state_size) == 0) same = c;
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
 * The caller reserved room for SBX_MAX_MOVES^2 edges (and the priors). */
static void evaluate_node(sbx_search *s, mcgs *x, uint32_t ni, const void *state) {
    mcgs_node *nd = &x->nodes[ni];
    const sbx_game_vt *vt = s->vt;
    s->vt->evaluate(s->cfg, state, nd->base);
    nd->flags = MCGS_EVALUATED;
    nd->visits = 0;
    if (vt->is_terminal(s->cfg, state)) {
        nd->flags |= MCGS_TERMINAL;
        nd->n[0] = nd->n[1] = 0;
        nd->edges = x->eused;
        nd->u[0] = nd->u[1] = 0.0;
        nd->q[0] = nd->q[1] = 0.0;
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
        nd->n[a] = (uint8_t)outcomes(s, x, state, a, mv[a], k[a], opp, nd->act[a], cls[a]);
    }
    if (s->p.priors == SBX_PRIORS_HEURISTIC) {
        nd->prior = x->pused;
        heuristic_priors(s, state, 0, k[0], cls[0], nd->n[0], &x->priors[x->pused]);
        heuristic_priors(s, state, 1, k[1], cls[1], nd->n[1], &x->priors[x->pused + nd->n[0]]);
        x->pused += (uint32_t)nd->n[0] + nd->n[1];
    }
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    nd->edges = x->eused;
    memset(&x->edges[x->eused], 0, ne * sizeof *x->edges);
    x->eused += ne;
    /* U: evaluation change over a K-step uniformly random rollout */
    double end[2] = {nd->base[0], nd->base[1]};
    if (s->p.rollout_steps > 0) {
        memcpy(x->tmp2, state, s->state_size);
        for (int t = 0; t < s->p.rollout_steps && !vt->is_terminal(s->cfg, x->tmp2); t++) {
            uint8_t joint[2];
            for (int a = 0; a < 2; a++) {
                uint8_t m[SBX_MAX_MOVES];
                int kk = vt->is_alive(s->cfg, x->tmp2, a) ? vt->legal_moves(s->cfg, x->tmp2, a, m) : 0;
                joint[a] = kk ? m[sbx_rng_below(&s->rng, (uint32_t)kk)] : SBX_MOVE_NONE;
            }
            vt->step(s->cfg, x->tmp2, joint, NULL);
        }
        vt->evaluate(s->cfg, x->tmp2, end);
    }
    for (int a = 0; a < 2; a++) {
        nd->u[a] = end[a] - nd->base[a];
        nd->q[a] = nd->u[a];
    }
}

/* ------------------------------------------------------------ backup */

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
        const mcgs_node *ch = &x->nodes[ed->child];
        total += ed->visits;
        sum[0] += ed->visits * ((double)ed->r[0] + ch->q[0]);
        sum[1] += ed->visits * ((double)ed->r[1] + ch->q[1]);
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
            const mcgs_edge *ed = &x->edges[nd->edges + (uint32_t)(r * n2 + c)];
            if (!ed->visits) continue;
            v += ed->visits;
            sum += ed->visits * ((double)ed->r[a] + x->nodes[ed->child].q[a]);
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
        if (v > best_v) {
            best_v = v;
            best = i;
            ties = 1;
        } else if (v == best_v && sbx_rng_below(rng, (uint32_t)++ties) == 0) {
            best = i; /* uniform among equal scores (reservoir) */
        }
    }
    return best;
}

/* ------------------------------------------------------------ playout */

static int mcgs_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    mcgs *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const uint32_t room = SBX_MAX_MOVES * SBX_MAX_MOVES;
    if (!reserve(s, x, 2 * room, 4 * SBX_MAX_MOVES)) return SBX_STOP_NODE_CAP;

    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;

    uint32_t path[SBX_MAX_DEPTH + 1];
    uint32_t pedge[SBX_MAX_DEPTH];
    int plen = 1, depth = 0, terminal = 0;
    path[0] = 0;
    if (!(x->nodes[0].flags & MCGS_EVALUATED)) {
        x->nodes[0].hash = vt->hash(s->cfg, sim);
        evaluate_node(s, x, 0, sim);
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
        uint32_t child = x->edges[ei].child;
        if (!child) {
            const uint64_t h = vt->hash(s->cfg, sim);
            uint32_t found = p->transpositions ? table_find(x, h) : 0;
            if (found) {
                child = found - 1;
                x->hits++;
            } else {
                child = x->used++;
                memset(&x->nodes[child], 0, sizeof x->nodes[child]);
                x->nodes[child].hash = h;
                if (p->transpositions) table_put(x, child);
                evaluate_node(s, x, child, sim);
                expanded = 1;
                stop = 1; /* a new node: evaluated, the playout ends */
            }
            mcgs_edge *ed = &x->edges[ei];
            ed->child = child;
            ed->r[0] = (float)(x->nodes[child].base[0] - base0);
            ed->r[1] = (float)(x->nodes[child].base[1] - base1);
        } else if (vt->hash(s->cfg, sim) != x->nodes[child].hash) {
            stop = 1; /* chance: not the state this edge stored */
        } else if (p->short_circuit && x->nodes[child].visits + 1 > x->edges[ei].visits) {
            stop = 1; /* the child is known better than the edge: count only */
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
    if (!ne_arr) {
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
            }
            nd->edges = eused;
            eused += ne;
        }
    }
    memcpy(x->edges, ne_arr, (size_t)eused * sizeof *ne_arr);
    free(ne_arr);
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
    out->edge_bytes = (int64_t)x->eused * (int64_t)sizeof(mcgs_edge);
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
        for (int a = 0; a < 2; a++) {
            out->cell_value[a][e] =
                ed->visits ? (float)(r->base[a] + ed->r[a] + x->nodes[ed->child].q[a]) : NAN;
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
            const mcgs_edge *ed = &x->edges[nd->edges + e];
            if (!ed->visits || !ed->child || !row_of[ed->child]) continue;
            const uint32_t c = row_of[ed->child] - 1;
            if (rows[c].parent == r) continue;
            const uint8_t m0 = nd->act[0][e / nd->n[1]], m1 = nd->act[1][e % nd->n[1]];
            if (seen[ed->child] == (uint32_t)r + 1) {
                /* another edge from r into the same child: the pair shows
                 * the most visited one's joint */
                const uint32_t k = slot[ed->child];
                if (k != UINT32_MAX && joints && ed->visits > kept[ed->child]) {
                    joints[2 * k] = m0;
                    joints[2 * k + 1] = m1;
                    kept[ed->child] = ed->visits;
                }
                continue;
            }
            seen[ed->child] = (uint32_t)r + 1;
            slot[ed->child] = UINT32_MAX;
            kept[ed->child] = ed->visits;
            if (count < cap) {
                pairs[2 * count] = r;
                pairs[2 * count + 1] = (int32_t)c;
                if (joints) {
                    joints[2 * count] = m0;
                    joints[2 * count + 1] = m1;
                }
                slot[ed->child] = (uint32_t)count;
                count++;
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
    size_t bytes = (size_t)n * (1 + 4 + 4) + ((size_t)x->eused + 2) * sizeof(heap_item);
    unsigned char *buf = sbx_search_scratch(s, bytes);
    if (!buf) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    heap_item *heap = (heap_item *)buf;
    uint32_t *parents = (uint32_t *)(heap + x->eused + 2);
    uint32_t *lastp = parents + n;
    uint8_t *mark = (uint8_t *)(lastp + n);
    memset(parents, 0, (size_t)n * 4);
    memset(lastp, 0xFF, (size_t)n * 4);
    memset(mark, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        const mcgs_node *nd = &x->nodes[i];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c = x->edges[nd->edges + e].child;
            if (c && lastp[c] != i) {
                lastp[c] = i;
                parents[c]++;
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
            const mcgs_edge *ed = &x->edges[nd->edges + e];
            if (!ed->visits || mark[ed->child]) continue;
            if (hn >= (int)x->eused + 1) break;
            heap_item ni = {NVIS(ed->child), ed->child, 0};
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
            const mcgs_edge *ed = &x->edges[nd->edges + e];
            if (!ed->visits) continue;
            const uint32_t c = ed->child;
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
            row->prob = nd->visits ? (float)ed->visits / (float)nd->visits : 0.0f;
            row->depth = (int16_t)(out[head].depth + 1);
            row->agent = -1;
            memset(row->joint, SBX_MOVE_NONE, sizeof row->joint);
            row->joint[0] = nd->act[0][i];
            row->joint[1] = nd->act[1][j];
            row->move = row->joint[agent];
            if (parents[c] > 1) row->flags |= SBX_NODE_SHARED;
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
        const uint32_t child =
            oi >= 0 && oj >= 0 ? x->edges[nd->edges + (uint32_t)(oi * nd->n[1] + oj)].child : 0;
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
