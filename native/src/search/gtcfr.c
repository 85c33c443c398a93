/*
 * gtcfr.c — growing-tree CFR (GT-CFR, Student of Games' search) without a
 * neural network, for two-player simultaneous-move games.
 *
 * Every state of our games is public (the only hidden thing is the
 * simultaneous pick), so the public tree is the game tree of joint actions
 * and each player has one information state per node: a node is a state,
 * and each player holds, over its legal moves, cumulative regrets and
 * average-strategy sums. Each joint action (a, b) of an interior node holds
 * the child node or, for a state not in the tree, its value (a terminal's
 * exact value; with expand_children=one also a non-terminal child left out).
 *
 * The tree L starts as the root and all its children (the paper's L0).
 * One search iteration is one expansion simulation; the regret-update phase
 * runs 1/c times per iteration, c = expansions_per_update (the paper's
 * SoG(s, c): c < 1 runs several updates per expansion, c > 1 one update
 * every c expansions, credited fractionally, so c = 2.5 alternates 2 and 3).
 * Each iteration runs its updates first and then its expansion, the
 * paper's order. Iterations = expansion simulations, the s of SoG(s, c).
 *
 * Regret update: one CFR+ pass over the whole current tree. Regret matching+
 * (regrets floored at 0 after every update), linear averaging (the strategy
 * of update t weighs t times the player's own reach). ALTERNATING updates by
 * default (alternating on): player 0's regrets and average in one pass,
 * then player 1's in a second pass against player 0's updated strategy.
 * The paper runs simultaneous updates (alternating off: both players'
 * regrets from one traversal, both against the other's strategy before the
 * update), which costs one pass instead of two, but measured on biased RPS
 * (10,000 updates, exact numbers, no sampling) CFR+ reaches NashConv 0.0021
 * alternating against 0.045 simultaneous (1,000 updates: 0.0096 against
 * 0.15): simultaneous RM+ oscillates around the equilibrium, and linear
 * averaging does not damp it as it does the alternating sequence (CFR+'s
 * own papers alternate for the same reason). Twice the passes for a 20
 * times smaller NashConv. Values are player 0's (zero-sum: player 1's is
 * the negation). Regrets are counterfactual: weighted by the opponent's
 * reach.
 * A subtree neither player reaches (both reaches 0) is skipped, its value
 * the last one computed.
 *
 * Values. Terminal: exact. Frontier (a non-terminal leaf of L): the game's
 * evaluate() at the leaf, or (rollout on) after uniformly random turns from
 * it, at most max_depth, with the state reseeded from the search's RNG so
 * chance is sampled afresh for that evaluation. A leaf is evaluated once,
 * when it joins the tree (Theorem 1's epsilon-noisy but fixed leaf values;
 * a leaf re-rolled every update would give CFR a moving target). Every value
 * is the zero-sum part of the evaluation, u = (e0 - e1) / 2: for a zero-sum
 * game (e1 = -e0: matrix games, goofspiel's win/loss) exactly player 0's
 * score, so a matrix game is solved in its own payoffs (the LP oracle's);
 * for a general-sum game its zero-sum projection. CFR+ is invariant to the
 * scale of the values, so no other normalisation happens there; PUCT's Q is
 * mapped onto [0, 1] by the range of values the tree has seen (below).
 * Two settings spend more on a frontier value, because CFR takes it as
 * exact and a noisy one (one rollout of goofspiel-13: a win, draw or loss)
 * becomes noise in the strategy: leaf_rollouts averages n rollouts into
 * each new leaf; expand_after = n lets the first n - 1 simulations that
 * reach a leaf each add one more leaf value to its mean (and its parent's
 * slot) and end there, the n-th expanding it. That breaks Theorem 1's fixed
 * leaf values for a while, but each leaf's value converges to its
 * expectation, and the leaves the strategies reach most are refined most
 * (as UCT's most visited moves have the most accurate means), at the cost
 * of one rollout per simulation instead of k0*k1 per expansion.
 *
 * Chance. A joint action can lead to several states (goofspiel's random
 * prize order draws the next prize in step(); snakes' food). Every
 * simulation reseeds its copy of the root from the search's RNG, so each
 * step draws chance afresh, and a joint action's slot holds a chain of
 * chance outcomes: one node per state drawn, keyed by its hash (as MCGS
 * keeps one child per successor state met), each with `met`, how many
 * simulations drew it. A simulation that draws a state not in the chain
 * adds it to L (valued as a frontier leaf) and ends there, as it ends at
 * any state not in L. The regret update values the slot as the average of
 * its outcomes weighted by their draw counts, and each outcome's share
 * enters the counterfactual reach (rc) that weighs the regrets below it;
 * the average strategy is weighted by the player's own reach only, as in
 * CFR with chance. So the values are expectations over chance, estimated
 * from the draws: sampled rather than enumerated because the game
 * interface has no list of a step's outcomes (chance happens inside
 * step() from the state's RNG), a sample works for every game that draws
 * from its RNG, including outcomes that are not uniform, and the shares
 * converge to the true probabilities at 1/sqrt(draws) (a frequently
 * played joint action's shares are accurate first, where accuracy
 * matters). A joint action whose first draw ended the game stays a
 * terminal slot with that draw's value: in the sandbox's games chance
 * acts after a step is scored and never decides whether the game ends.
 * At an advance the kept child is the outcome whose hash is the real
 * state's; only an outcome no simulation drew drops the tree.
 *
 * Expansion: `expansions_per_update` simulations per update. Each descends
 * from the root; at an interior node each player draws its move from
 * pi_select = 1/2 pi_PUCT + 1/2 pi_avg (pi_avg: the CFR average strategy,
 * pi_PUCT: the PUCT argmax as a point mass, so a fair coin picks one or a
 * draw from the other). PUCT's Q of a move is the player's counterfactual
 * value of it divided by the opponent's reach of the node: the value of the
 * move against the opponent's current strategy, which the regret update
 * computes directly as sum_b sigma_-i(b) u(a, b) (equal to the quotient
 * wherever the opponent's reach is positive, and defined where it is 0).
 * score = Qn + c_puct * prior * sqrt(max(N, 1)) / (1 + n), Qn = Q mapped
 * onto [0, 1] by the tree's value range, priors uniform or the game's move
 * scores (priors=heuristic, softmax over score / prior_temperature). The
 * simulation ends at the first frontier node (it is expanded: all its
 * children join L, or with expand_children=one only the joint action of the
 * highest prior product, the paper's k = 1, the others valued as leaves) or
 * at a left-out child (it joins L) or a terminal. Visit counts n, N grow
 * along the path. When c > 1, the ceil(c) simulations between two updates
 * see the same values, so each adds a virtual loss (virtual_loss visits of
 * value 0 to the moves it took) that the next update removes, spreading
 * the batch as AlphaZero's virtual losses spread a batch.
 *
 * Playing: a draw from the root's average strategy (final_move=sample, the
 * Python settings' default for gtcfr; a hash of the tree's seed and the
 * iteration count, so the same however often asked) or its argmax. Between
 * turns (tree_reuse on) the subtree of the state reached is kept with its
 * regrets and averages (a warm start: in a game where every state is
 * public the subgame's equilibrium does not depend on the rest of the tree,
 * so no re-solving gadget is needed); tree_reuse off keeps the subtree's
 * nodes but zeroes every statistic. Theorem 1 needs nodes never removed
 * during a search: they are not, and a full arena (node_cap) stops the run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "cfr_kernel.h"
#include "search.h"

#define KIND_FRONTIER 0
#define KIND_INTERIOR 1
#define KIND_TERMINAL 2

/* A slot's child: a node id, or a state outside the tree. */
#define SLOT_TERMINAL (-1) /* terminal: its exact value in the slot         */
#define SLOT_LEFT_OUT (-2) /* expand_children=one: not in L yet, evaluated  */

/* A guard, not a limit: the regret update recurses once per level, so a
 * deeper node is never expanded (a frontier leaf stays a leaf). */
#define GT_DEPTH_GUARD 2048

typedef struct gt_node {
    union {
        uint32_t data;    /* interior: first of its doubles in the pool   */
        uint32_t samples; /* frontier: leaf values averaged into value    */
    };
    uint32_t slots;    /* interior: first of its k0*k1 child ids          */
    int32_t parent;    /* -1 for the root                                 */
    uint32_t visits;   /* expansion simulations that reached it           */
    double value;      /* player 0's: evaluation (frontier), exact
                          (terminal root), last update's (interior)       */
    uint16_t depth;
    uint8_t kind;
    uint8_t pa, pb;    /* the parent's joint action (indices)             */
    uint8_t k[2];      /* moves per player (1: SBX_MOVE_NONE, no moves)   */
    uint8_t pad;
    uint8_t mv[2][SBX_MAX_MOVES];
    uint64_t hash;     /* the state's (a chance outcome's key)            */
    int32_t next;      /* the next chance outcome of the same joint
                          action (-1: none)                               */
    uint32_t met;      /* simulations that drew this outcome (its weight) */
} gt_node;

_Static_assert(sizeof(gt_node) == 80, "GT-CFR nodes are 80 bytes");

/* Per interior node, in the pool: for each player i, 7 arrays of k_i
 * doubles, then the k0*k1 slot values. */
enum { A_REGRET, A_AVG, A_CUR, A_Q, A_PRIOR, A_VISITS, A_VLOSS, A_COUNT };

typedef struct gt_vl {  /* one virtual loss to take back */
    uint32_t node;
    uint8_t a, b;
} gt_vl;

typedef struct gtcfr {
    gt_node *nodes;
    uint32_t used, cap;
    double *dpool;
    size_t dused, dcap;
    int32_t *ipool;
    size_t iused, icap;
    void *root_state;      /* the tree's root: chance drawn from tree_seed */
    cfr_core c;            /* updates, credit, value range, seed, scratch  */
    int32_t depth_reached;
    gt_vl *vl;             /* the batch's virtual losses                  */
    size_t vl_used, vl_cap;
    int64_t touched;       /* interior nodes the updates visited (bench)  */
} gtcfr;

static inline double *ARR(const gtcfr *x, const gt_node *nd, int player, int which) {
    const size_t k0 = nd->k[0];
    const size_t base = nd->data + (player ? (size_t)A_COUNT * k0 : 0);
    return x->dpool + base + (size_t)which * nd->k[player];
}
static inline double *SLOTV(const gtcfr *x, const gt_node *nd) {
    return x->dpool + nd->data + (size_t)A_COUNT * (nd->k[0] + nd->k[1]);
}
static inline int32_t *SLOTC(const gtcfr *x, const gt_node *nd) {
    return x->ipool + nd->slots;
}

/* After an interior node's k0*k1 child ids in the int pool: its live
 * joint actions, those whose child is interior or which have met several
 * chance outcomes, the only ones the regret update descends into (every
 * other slot is a leaf of fixed value that its slot already holds: most of
 * the tree with expand_children=all). One int holds the count, then the
 * slot indices as bytes (k0*k1 <= 256). */
static inline size_t live_ints(size_t kk) { return 1 + (kk + 3) / 4; }
static inline int32_t *LIVE_N(const gtcfr *x, const gt_node *nd) {
    return x->ipool + nd->slots + (size_t)nd->k[0] * nd->k[1];
}
static inline uint8_t *LIVE(const gtcfr *x, const gt_node *nd) {
    return (uint8_t *)(LIVE_N(x, nd) + 1);
}

/* Marks slot i of interior node `id` live (once). */
static void make_live(gtcfr *x, uint32_t id, int i) {
    const gt_node *nd = &x->nodes[id];
    int32_t *n = LIVE_N(x, nd);
    uint8_t *l = LIVE(x, nd);
    for (int j = 0; j < *n; j++) {
        if (l[j] == i) return;
    }
    l[(*n)++] = (uint8_t)i;
}

/* ------------------------------------------------------------ lifecycle */

static void clear(sbx_search *s) {
    gtcfr *x = s->algo;
    x->used = 1;
    x->dused = 0;
    x->iused = 0;
    cfr_core_restart(&x->c, &s->rng);
    x->depth_reached = 0;
    x->vl_used = 0;
    memcpy(x->root_state, s->root, s->state_size);
    s->vt->reseed(x->root_state, x->c.tree_seed);
    gt_node *r = &x->nodes[0];
    memset(r, 0, sizeof *r);
    r->parent = -1;
    r->next = -1;
    r->met = 1;
    r->hash = s->vt->hash(s->cfg, x->root_state);
    r->kind = s->vt->is_terminal(s->cfg, x->root_state) ? KIND_TERMINAL : KIND_FRONTIER;
    r->value = cfr_zero_sum(s, x->root_state);
}

static int gt_check(const sbx_search_params *p, const sbx_game_vt *game, int num_agents,
                    int max_moves) {
    (void)max_moves;
    if (num_agents != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "algorithm: gtcfr solves two-player games (this game has %d agents)",
                        num_agents);
    }
    if (sbx_priors_check(p, game) != SBX_OK) return SBX_ERR_ARGUMENT;
    return SBX_OK;
}

/* One expansion adds at most one node per joint action. */
static int64_t gt_iteration_nodes(const sbx_search_params *p, int num_agents, int max_moves) {
    (void)p;
    (void)num_agents;
    const int64_t k = max_moves > 1 ? max_moves : 1;
    return k * k;
}

static void gt_destroy(sbx_search *s) {
    gtcfr *x = s->algo;
    if (!x) return;
    free(x->nodes);
    free(x->dpool);
    free(x->ipool);
    free(x->root_state);
    cfr_core_close(&x->c);
    free(x->vl);
    free(x);
    s->algo = NULL;
}

static int gt_create(sbx_search *s) {
    gtcfr *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a GT-CFR tree");
    s->algo = x;
    x->cap = (uint32_t)s->p.node_cap;
    x->nodes = malloc((size_t)x->cap * sizeof *x->nodes);
    x->root_state = malloc(s->state_size);
    if (!cfr_core_open(&x->c, s->state_size) || !x->nodes || !x->root_state) {
        gt_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory allocating a %d-node GT-CFR arena",
                        s->p.node_cap);
    }
    clear(s);
    return SBX_OK;
}

static int gt_params_changed(sbx_search *s, const sbx_search_params *old) {
    gtcfr *x = s->algo;
    /* a node's priors (A_PRIOR) are fixed when it is expanded: after a
     * change of priors the kept ones would steer PUCT, and show in the
     * snapshot, under the old setting, so the tree starts afresh */
    if (sbx_priors_changed(&s->p, old)) clear(s);
    if (s->p.node_cap == old->node_cap) return SBX_OK;
    if (x->used > (uint32_t)s->p.node_cap) clear(s);
    gt_node *n = realloc(x->nodes, (size_t)s->p.node_cap * sizeof *n);
    if (!n) {
        s->p.node_cap = old->node_cap;
        return sbx_fail(SBX_ERR_MEMORY, "out of memory resizing the GT-CFR arena to %d nodes",
                        s->p.node_cap);
    }
    x->nodes = n;
    x->cap = (uint32_t)s->p.node_cap;
    return SBX_OK;
}

static int reserve_pools(gtcfr *x, size_t doubles, size_t ints) {
    /* nodes hold 32-bit offsets into the pools */
    if (x->dused + doubles > UINT32_MAX || x->iused + ints > UINT32_MAX) return 0;
    if (x->dused + doubles > x->dcap) {
        size_t cap = x->dcap ? x->dcap : 4096;
        while (cap < x->dused + doubles) cap *= 2;
        double *p = realloc(x->dpool, cap * sizeof *p);
        if (!p) return 0;
        x->dpool = p;
        x->dcap = cap;
    }
    if (x->iused + ints > x->icap) {
        size_t cap = x->icap ? x->icap : 4096;
        while (cap < x->iused + ints) cap *= 2;
        int32_t *p = realloc(x->ipool, cap * sizeof *p);
        if (!p) return 0;
        x->ipool = p;
        x->icap = cap;
    }
    return 1;
}

/* ------------------------------------------------------------ expansion */

static int legal(const sbx_search *s, const void *st, int agent, uint8_t *out) {
    int k = s->vt->legal_moves(s->cfg, st, agent, out);
    if (k <= 0) {
        out[0] = SBX_MOVE_NONE;
        k = 1;
    }
    return k;
}

/* The value net's value of one state, player 0's zero-sum side (v0 - v1) /
 * 2 of its two values (canonical view). */
static double net_value(sbx_search *s, const void *st) {
    sbx_neteval_clear(&s->ev);
    if (!sbx_neteval_push(&s->ev, s->vt, s->cfg, st)) return cfr_zero_sum(s, st);
    sbx_neteval_run(&s->ev);
    return 0.5 * (sbx_neteval_value(&s->ev, 0, 0) - sbx_neteval_value(&s->ev, 0, 1));
}

/* A frontier value: with a value net its value (net_value); else evaluate() at st, or (rollout on) the mean of
 * leaf_rollouts random rollouts from it, each with chance drawn afresh. The
 * leaf's value is fixed once made, and CFR treats it as exact, so its noise
 * goes straight into the equilibrium it computes: one rollout of a long
 * game (goofspiel-13: a win, draw or loss) is a very noisy value, and n
 * rollouts divide the noise's variance by n at n times the cost. */
static double leaf_value(sbx_search *s, const void *st, int64_t *turns) {
    gtcfr *x = s->algo;
    if (s->net) return net_value(s, st);
    if (!s->p.rollout) return cfr_zero_sum(s, st);
    const int n = s->p.leaf_rollouts > 1 ? s->p.leaf_rollouts : 1;
    double sum = 0.0;
    uint8_t joint[2], mv[SBX_MAX_MOVES];
    for (int r = 0; r < n; r++) {
        memcpy(x->c.tmp2, st, s->state_size);
        s->vt->reseed(x->c.tmp2, sbx_rng_next(&s->rng));
        for (int d = 0; d < s->p.max_depth && !s->vt->is_terminal(s->cfg, x->c.tmp2); d++) {
            for (int a = 0; a < 2; a++) {
                const int k = s->vt->legal_moves(s->cfg, x->c.tmp2, a, mv);
                joint[a] = k > 0 ? mv[sbx_rng_below(&s->rng, (uint32_t)k)] : SBX_MOVE_NONE;
            }
            s->vt->step(s->cfg, x->c.tmp2, joint, NULL);
            (*turns)++;
        }
        sum += cfr_zero_sum(s, x->c.tmp2);
    }
    return sum / n;
}

static uint32_t new_node(gtcfr *x, int32_t parent, int a, int b, double value,
                         uint64_t hash) {
    const uint32_t id = x->used++;
    gt_node *c = &x->nodes[id];
    memset(c, 0, sizeof *c);
    c->parent = parent;
    c->hash = hash;
    c->next = -1;
    c->met = 1;
    c->pa = (uint8_t)a;
    c->pb = (uint8_t)b;
    c->depth = (uint16_t)(x->nodes[parent].depth + 1);
    c->kind = KIND_FRONTIER;
    c->value = value;
    c->samples = 1;
    if (c->depth > x->depth_reached) x->depth_reached = c->depth;
    return id;
}

/* With a value net, one pass over st and its k0*k1 children: row 0 gives
 * st's priors (priors=net), the others the children's values (terminal
 * children are not asked: their value is exact). vals[i], hash[i] and
 * term[i] per joint action i; 0 when the batch cannot be made (out of
 * memory: the caller values them one by one). */
static int net_children(sbx_search *s, const void *st, const uint8_t mv[2][SBX_MAX_MOVES],
                        const int *k, double *vals, uint64_t *hash, uint8_t *term,
                        int64_t *turns) {
    gtcfr *x = s->algo;
    sbx_neteval *e = &s->ev;
    int row[SBX_MAX_MOVES * SBX_MAX_MOVES];
    sbx_neteval_clear(e);
    if (!sbx_neteval_push(e, s->vt, s->cfg, st)) return 0;
    uint8_t joint[2];
    for (int a = 0; a < k[0]; a++) {
        for (int b = 0; b < k[1]; b++) {
            const int i = a * k[1] + b;
            memcpy(x->c.tmp, st, s->state_size);
            joint[0] = mv[0][a];
            joint[1] = mv[1][b];
            s->vt->step(s->cfg, x->c.tmp, joint, NULL);
            (*turns)++;
            hash[i] = s->vt->hash(s->cfg, x->c.tmp);
            term[i] = (uint8_t)s->vt->is_terminal(s->cfg, x->c.tmp);
            row[i] = -1;
            if (term[i]) {
                vals[i] = cfr_zero_sum(s, x->c.tmp);
            } else if (sbx_neteval_push(e, s->vt, s->cfg, x->c.tmp)) {
                row[i] = e->n - 1;
            } else {
                return 0;
            }
        }
    }
    sbx_neteval_run(e);
    for (int i = 0; i < k[0] * k[1]; i++) {
        if (row[i] >= 0) {
            vals[i] = 0.5 * (sbx_neteval_value(e, row[i], 0) - sbx_neteval_value(e, row[i], 1));
        }
    }
    return 1;
}

/* Makes frontier node `id` (state st) interior: its statistics, and every
 * child valued; all children join the tree, or only the one of the highest
 * prior product (all = 0). With a value net every child is valued in one
 * batch with st, whose row gives the priors (priors=net). Returns 0 if the
 * pools cannot grow. */
static int expand(sbx_search *s, uint32_t id, const void *st, int all, int64_t *turns) {
    gtcfr *x = s->algo;
    gt_node *nd = &x->nodes[id];
    uint8_t mv[2][SBX_MAX_MOVES];
    int k[2];
    for (int p = 0; p < 2; p++) k[p] = legal(s, st, p, mv[p]);
    double bvals[SBX_MAX_MOVES * SBX_MAX_MOVES];
    uint64_t bhash[SBX_MAX_MOVES * SBX_MAX_MOVES];
    uint8_t bterm[SBX_MAX_MOVES * SBX_MAX_MOVES];
    const int batched = s->net && net_children(s, st, mv, k, bvals, bhash, bterm, turns);
    const size_t kk = (size_t)k[0] * k[1];
    const size_t doubles = (size_t)A_COUNT * (k[0] + k[1]) + kk;
    const size_t ints = kk + live_ints(kk);
    if (!reserve_pools(x, doubles, ints)) return 0;
    nd->data = (uint32_t)x->dused;
    nd->slots = (uint32_t)x->iused;
    x->dused += doubles;
    x->iused += ints;
    memset(x->ipool + nd->slots + kk, 0, live_ints(kk) * sizeof(int32_t));
    memset(x->dpool + nd->data, 0, doubles * sizeof(double));
    for (int p = 0; p < 2; p++) {
        nd->k[p] = (uint8_t)k[p];
        memcpy(nd->mv[p], mv[p], (size_t)k[p]);
        double *cur = ARR(x, nd, p, A_CUR), *q = ARR(x, nd, p, A_Q);
        for (int i = 0; i < k[p]; i++) {
            cur[i] = 1.0 / k[p];
            q[i] = p == 0 ? nd->value : -nd->value;
        }
        if (batched && s->p.priors == SBX_PRIORS_NET) {
            sbx_neteval_priors(&s->ev, 0, p, mv[p], k[p], ARR(x, nd, p, A_PRIOR));
        } else {
            sbx_search_move_priors(s, st, p, k[p], ARR(x, nd, p, A_PRIOR));
        }
    }
    int best = 0;
    if (!all) {
        const double *p0 = ARR(x, nd, 0, A_PRIOR), *p1 = ARR(x, nd, 1, A_PRIOR);
        double bv = -1.0;
        for (int i = 0; i < k[0] * k[1]; i++) {
            const double v = p0[i / k[1]] * p1[i % k[1]];
            if (v > bv) {
                bv = v;
                best = i;
            }
        }
    }
    uint8_t joint[2];
    for (int a = 0; a < k[0]; a++) {
        for (int b = 0; b < k[1]; b++) {
            const int i = a * k[1] + b;
            double v;
            int32_t c;
            if (batched) {
                v = bvals[i];
                c = bterm[i] ? SLOT_TERMINAL
                    : (all || i == best) ? (int32_t)new_node(x, (int32_t)id, a, b, v, bhash[i])
                                         : SLOT_LEFT_OUT;
                cfr_range_see(&x->c.range, v);
                nd = &x->nodes[id];
                SLOTV(x, nd)[i] = v;
                SLOTC(x, nd)[i] = c;
                continue;
            }
            memcpy(x->c.tmp, st, s->state_size);
            joint[0] = mv[0][a];
            joint[1] = mv[1][b];
            s->vt->step(s->cfg, x->c.tmp, joint, NULL);
            (*turns)++;
            if (s->vt->is_terminal(s->cfg, x->c.tmp)) {
                v = cfr_zero_sum(s, x->c.tmp);
                c = SLOT_TERMINAL;
            } else {
                v = leaf_value(s, x->c.tmp, turns);
                c = (all || i == best)
                        ? (int32_t)new_node(x, (int32_t)id, a, b, v, s->vt->hash(s->cfg, x->c.tmp))
                        : SLOT_LEFT_OUT;
            }
            cfr_range_see(&x->c.range, v);
            nd = &x->nodes[id];
            SLOTV(x, nd)[i] = v;
            SLOTC(x, nd)[i] = c;
        }
    }
    nd->kind = KIND_INTERIOR;
    if (nd->parent >= 0) {
        const gt_node *par = &x->nodes[nd->parent];
        make_live(x, (uint32_t)nd->parent, nd->pa * par->k[1] + nd->pb);
    }
    return 1;
}

/* ------------------------------------------------------------ regret update */

/* The share of chance outcome `o` among its joint action's outcomes
 * (first: the slot's first outcome): how often it was drawn. */
static double chance_share(const gtcfr *x, int32_t first, int32_t o) {
    double tot = 0.0;
    for (int32_t c = first; c >= 0; c = x->nodes[c].next) tot += x->nodes[c].met;
    return tot > 0.0 ? x->nodes[o].met / tot : 1.0;
}

/* One CFR+ pass over the subtree at id reached with probabilities r0, r1
 * by the players and rc by chance, updating the regrets and averages of
 * player `who` (2: both); returns its value for player 0. */
static double update(gtcfr *x, uint32_t id, double r0, double r1, double rc, int who) {
    gt_node *nd = &x->nodes[id];
    if (nd->kind != KIND_INTERIOR) return nd->value;
    if (r0 == 0.0 && r1 == 0.0) return nd->value;
    const int k0 = nd->k[0], k1 = nd->k[1];
    x->touched++;
    double *s0 = ARR(x, nd, 0, A_CUR), *s1 = ARR(x, nd, 1, A_CUR);
    cfr_regret_match(ARR(x, nd, 0, A_REGRET), k0, s0);
    cfr_regret_match(ARR(x, nd, 1, A_REGRET), k1, s1);
    double *val = SLOTV(x, nd);
    const int32_t *ch = SLOTC(x, nd);
    const int32_t nlive = *LIVE_N(x, nd);
    const uint8_t *live = LIVE(x, nd);
    for (int j = 0; j < nlive; j++) {
        const int i = live[j], a = i / k1, b = i % k1;
        const int32_t c = ch[i];
        if (x->nodes[c].next < 0) { /* one outcome, an interior node */
            val[i] = update(x, (uint32_t)c, r0 * s0[a], r1 * s1[b], rc, who);
            continue;
        }
        /* chance: the outcomes met, each weighted by how often it was
         * drawn; its share enters the counterfactual reach */
        double tot = 0.0, v = 0.0;
        for (int32_t o = c; o >= 0; o = x->nodes[o].next) tot += x->nodes[o].met;
        for (int32_t o = c; o >= 0; o = x->nodes[o].next) {
            const double pc = x->nodes[o].met / tot;
            v += pc * update(x, (uint32_t)o, r0 * s0[a], r1 * s1[b], rc * pc, who);
        }
        val[i] = v;
    }
    nd = &x->nodes[id];
    double *q0 = ARR(x, nd, 0, A_Q), *q1 = ARR(x, nd, 1, A_Q);
    /* RM+ strategies are sparse: only the moves played enter a sum (a
     * zero term adds exactly 0, so the values are the same) */
    int nz0[SBX_MAX_MOVES], nz1[SBX_MAX_MOVES], n0 = 0, n1 = 0;
    for (int a = 0; a < k0; a++) {
        if (s0[a] > 0.0) nz0[n0++] = a;
    }
    for (int b = 0; b < k1; b++) {
        if (s1[b] > 0.0) nz1[n1++] = b;
    }
    for (int a = 0; a < k0; a++) {
        const double *row = val + a * k1;
        double q = 0.0;
        for (int j = 0; j < n1; j++) q += s1[nz1[j]] * row[nz1[j]];
        q0[a] = q;
    }
    for (int b = 0; b < k1; b++) {
        double q = 0.0;
        for (int j = 0; j < n0; j++) q += s0[nz0[j]] * val[nz0[j] * k1 + b];
        q1[b] = -q;
    }
    /* player 1's value is -v0; its regrets weigh by player 0's reach */
    const double v0 = cfr_value(s0, q0, k0);
    const double w = (double)x->c.t;
    if (who != 1) {
        cfr_plus_update_at(ARR(x, nd, 0, A_REGRET), ARR(x, nd, 0, A_AVG), s0, q0, v0, r1 * rc,
                           w * r0, k0);
    }
    if (who != 0) {
        cfr_plus_update_at(ARR(x, nd, 1, A_REGRET), ARR(x, nd, 1, A_AVG), s1, q1, -v0, r0 * rc,
                           w * r1, k1);
    }
    nd->value = v0;
    return v0;
}

static void regret_update(gtcfr *x, int alternating) {
    /* the batch's virtual losses end with it */
    for (size_t i = 0; i < x->vl_used; i++) {
        gt_node *nd = &x->nodes[x->vl[i].node];
        ARR(x, nd, 0, A_VLOSS)[x->vl[i].a] -= 1.0;
        ARR(x, nd, 1, A_VLOSS)[x->vl[i].b] -= 1.0;
    }
    x->vl_used = 0;
    x->c.t++;
    if (alternating) {
        update(x, 0, 1.0, 1.0, 1.0, 0);
        update(x, 0, 1.0, 1.0, 1.0, 1); /* against player 0's updated strategy */
    } else {
        update(x, 0, 1.0, 1.0, 1.0, 2);
    }
}

/* ------------------------------------------------------------ simulation */

/* Player p's pick at interior node nd: 1/2 PUCT argmax + 1/2 average
 * (the batch's virtual losses count in PUCT). */
static int select_move(sbx_search *s, const gtcfr *x, const gt_node *nd, int p, int8_t *pick) {
    const cfr_puct puct = {ARR(x, nd, p, A_Q), ARR(x, nd, p, A_VISITS), ARR(x, nd, p, A_PRIOR),
                           ARR(x, nd, p, A_VLOSS), s->p.virtual_loss, s->p.c_puct, &x->c.range, p};
    return cfr_expansion_pick(&s->rng, ARR(x, nd, p, A_AVG), nd->k[p], &puct, pick);
}

/* A simulation that ends at frontier leaf `id` (state st) before its
 * expand_after-th visit: one more leaf value joins the leaf's mean (rollout
 * on: leaf_rollouts more rollouts), and so its parent's slot when the leaf
 * is the slot's only state (a slot of several chance outcomes is live, and
 * the update averages its outcomes' values). The leaves the strategies
 * reach most are the ones refined most, as UCT's most visited moves have
 * the most accurate means; CFR sees a leaf's value move towards its
 * expectation instead of keeping the noise of its first rollout. */
static void refine(sbx_search *s, uint32_t id, const void *st, int64_t *turns,
                   sbx_trace *tr) {
    gtcfr *x = s->algo;
    gt_node *nd = &x->nodes[id];
    /* A net gives a state the same value every time it is asked: a leaf
     * made by an expansion already holds it, so the visit counts a sample
     * without another pass (the root, valued by the game's evaluation and
     * 0 samples, asks the net once). */
    const double v = s->net && nd->samples > 0 ? nd->value : leaf_value(s, st, turns);
    nd = &x->nodes[id];
    nd->value += (v - nd->value) / (double)(nd->samples + 1);
    nd->samples++;
    cfr_range_see(&x->c.range, nd->value);
    if (tr) {
        tr->refined = 1;
        tr->leaf_visits = (int32_t)nd->visits;
        tr->leaf_samples = (int32_t)nd->samples;
        tr->expand_after = s->p.expand_after;
        tr->leaf_value = v;
        tr->leaf_mean = nd->value;
    }
    if (nd->parent < 0) return;
    const gt_node *par = &x->nodes[nd->parent];
    const int i = nd->pa * par->k[1] + nd->pb;
    if (SLOTC(x, par)[i] == (int32_t)id && nd->next < 0) SLOTV(x, par)[i] = nd->value;
}

static int push_vl(gtcfr *x, uint32_t node, int a, int b) {
    if (x->vl_used == x->vl_cap) {
        size_t cap = x->vl_cap ? 2 * x->vl_cap : 256;
        gt_vl *p = realloc(x->vl, cap * sizeof *p);
        if (!p) return 0;
        x->vl = p;
        x->vl_cap = cap;
    }
    x->vl[x->vl_used++] = (gt_vl){node, (uint8_t)a, (uint8_t)b};
    return 1;
}

/* The step view's picture of the regret-update phase: the root's current
 * (RM+ of its regrets, what the next sweep plays) and average strategies
 * per player, before (after = 0) or after (1) the sweeps. */
static void trace_root(const gtcfr *x, sbx_trace *tr, int after) {
    const gt_node *r = &x->nodes[0];
    tr->has_update = 1;
    if (r->kind != KIND_INTERIOR) return;
    for (int p = 0; p < 2; p++) {
        const int k = r->k[p];
        tr->update_k[p] = k;
        for (int i = 0; i < k; i++) {
            tr->update_moves[p][i] = r->mv[p][i] == SBX_MOVE_NONE ? -1 : r->mv[p][i];
        }
        cfr_regret_match(ARR(x, r, p, A_REGRET), k, after ? tr->current_after[p] : tr->current_before[p]);
        cfr_average(ARR(x, r, p, A_AVG), k, after ? tr->average_after[p] : tr->average_before[p]);
    }
}

static int gt_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    gtcfr *x = s->algo;
    const sbx_game_vt *vt = s->vt;
    /* one expansion; two when L0 is still to be made (the root's children,
     * then the simulation's), which only happens on a tree of one node */
    const int64_t need = gt_iteration_nodes(&s->p, 2, s->max_moves) *
                         (x->nodes[0].kind == KIND_FRONTIER ? 2 : 1);
    if ((int64_t)(x->cap - x->used) < need) return SBX_STOP_NODE_CAP;
    /* L0: the root and all its children */
    if (x->nodes[0].kind == KIND_FRONTIER) {
        if (!expand(s, 0, x->root_state, 1, turns)) return SBX_STOP_NODE_CAP;
    }
    /* regret-update phase: 1/c updates, credited across iterations */
    const double c = s->p.expansions_per_update;
    if (tr) trace_root(x, tr, 0);
    const int64_t touched0 = x->touched;
    for (int n = cfr_updates_due(&x->c.credit, c); n > 0; n--) {
        regret_update(x, s->p.alternating);
        if (tr) tr->update_sweeps++;
    }
    if (tr) {
        tr->update_nodes = x->touched - touched0;
        trace_root(x, tr, 1);
    }
    /* expansion phase: one simulation */
    void *sim = s->sim;
    memcpy(sim, x->root_state, s->state_size);
    /* chance afresh for every simulation: each joint action's outcome is a
     * new draw, met again (its weight grows) or new (it joins L) */
    const uint64_t sim_seed = sbx_rng_next(&s->rng);
    vt->reseed(sim, sim_seed);
    const int vloss = c > 1.0 && s->p.virtual_loss > 0.0;
    uint32_t cur = 0;
    int depth = 0, expanded = 0, terminal = 0;
    if (tr) {
        tr->path_len[0] = 1;
        tr->path[0][0] = 0;
        /* replaying the path on the root reseeded with it reproduces the
         * simulation's chance */
        tr->sim_seed = sim_seed;
    }
    for (;;) {
        gt_node *nd = &x->nodes[cur];
        nd->visits++;
        if (nd->kind == KIND_TERMINAL) {
            terminal = 1;
            break;
        }
        if (nd->kind == KIND_FRONTIER && nd->visits < (uint32_t)s->p.expand_after) {
            refine(s, cur, sim, turns, tr);
            break;
        }
        if (nd->kind == KIND_FRONTIER) {
            if (nd->depth < GT_DEPTH_GUARD) {
                if (!expand(s, cur, sim, s->p.expand_children, turns)) return SBX_STOP_NODE_CAP;
                expanded = 1;
            }
            break;
        }
        int8_t pick[2];
        const int a = select_move(s, x, nd, 0, &pick[0]);
        const int b = select_move(s, x, nd, 1, &pick[1]);
        ARR(x, nd, 0, A_VISITS)[a] += 1.0;
        ARR(x, nd, 1, A_VISITS)[b] += 1.0;
        if (vloss && push_vl(x, cur, a, b)) {
            ARR(x, nd, 0, A_VLOSS)[a] += 1.0;
            ARR(x, nd, 1, A_VLOSS)[b] += 1.0;
        }
        const uint8_t joint[2] = {nd->mv[0][a], nd->mv[1][b]};
        if (tr && depth < SBX_MAX_DEPTH) {
            for (int p = 0; p < 2; p++) {
                tr->moves[p][depth] = joint[p] == SBX_MOVE_NONE ? -1 : joint[p];
                tr->pick[p][depth] = pick[p];
                tr->expanded[p][depth] = 0;
            }
        }
        vt->step(s->cfg, sim, joint, NULL);
        (*turns)++;
        depth++;
        if (tr && depth <= SBX_MAX_DEPTH) {
            for (int p = 0; p < 2; p++) {
                tr->alive_after[p][depth - 1] = (int8_t)vt->is_alive(s->cfg, sim, p);
            }
        }
        const int i = a * nd->k[1] + b;
        int32_t ch = SLOTC(x, nd)[i];
        if (ch == SLOT_TERMINAL) {
            terminal = 1;
            break;
        }
        if (ch == SLOT_LEFT_OUT) {
            /* the state joins L; its value is the slot's */
            const uint32_t id = new_node(x, (int32_t)cur, a, b, SLOTV(x, nd)[i],
                                         vt->hash(s->cfg, sim));
            SLOTC(x, &x->nodes[cur])[i] = (int32_t)id;
            x->nodes[id].visits = 1;
            expanded = 1;
            if (tr && depth <= SBX_MAX_DEPTH && tr->path_len[0] <= SBX_MAX_DEPTH) {
                tr->path[0][tr->path_len[0]++] = (int32_t)id;
            }
            break;
        }
        /* the chance outcome drawn: a node met before, or a new one */
        const uint64_t h = vt->hash(s->cfg, sim);
        int32_t o = ch, last = ch;
        while (o >= 0 && x->nodes[o].hash != h) {
            last = o;
            o = x->nodes[o].next;
        }
        if (o < 0) {
            /* a new outcome joins L, valued now; the simulation ends */
            const int term = vt->is_terminal(s->cfg, sim);
            const double v = term ? cfr_zero_sum(s, sim) : leaf_value(s, sim, turns);
            cfr_range_see(&x->c.range, v);
            const uint32_t id = new_node(x, (int32_t)cur, a, b, v, h);
            if (term) x->nodes[id].kind = KIND_TERMINAL;
            x->nodes[last].next = (int32_t)id;
            make_live(x, cur, i);
            x->nodes[id].visits = 1;
            expanded = 1;
            terminal = term;
            if (tr && depth <= SBX_MAX_DEPTH && tr->path_len[0] <= SBX_MAX_DEPTH) {
                tr->path[0][tr->path_len[0]++] = (int32_t)id;
            }
            break;
        }
        x->nodes[o].met++;
        cur = (uint32_t)o;
        if (tr && tr->path_len[0] <= SBX_MAX_DEPTH) tr->path[0][tr->path_len[0]++] = (int32_t)cur;
    }
    if (tr) {
        tr->depth = depth < SBX_MAX_DEPTH ? depth : SBX_MAX_DEPTH;
        if (expanded && tr->depth > 0) {
            tr->expanded[0][tr->depth - 1] = 1;
            tr->expanded[1][tr->depth - 1] = 1;
        }
        tr->terminal = terminal && depth <= SBX_MAX_DEPTH;
        const double v = x->nodes[0].value;
        tr->score[0] = v;
        tr->score[1] = -v;
        for (int p = 0; p < 2; p++) {
            const double sc = cfr_range_seat(&x->c.range, p, &tr->norm_min[p]);
            tr->norm_max[p] = tr->norm_min[p] + sc;
        }
    }
    return SBX_STOP_NONE;
}

static int gt_iterate(sbx_search *s, int64_t *turns) { return gt_iterate_impl(s, turns, NULL); }

static int gt_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return gt_iterate_impl(s, turns, tr);
}

/* ------------------------------------------------------------ between turns */

/* Keeps the subtree under `top` (> 0), renumbered breadth-first into fresh
 * arrays; zero: every statistic starts afresh. Returns 0 on no memory. */
static int reroot(gtcfr *x, uint32_t top, int zero) {
    gt_node *nodes = malloc((size_t)x->cap * sizeof *nodes);
    uint32_t *map = malloc((size_t)x->used * sizeof *map);
    double *dp = x->dcap ? malloc(x->dcap * sizeof *dp) : NULL;
    int32_t *ip = x->icap ? malloc(x->icap * sizeof *ip) : NULL;
    if (!nodes || !map || (x->dcap && !dp) || (x->icap && !ip)) {
        free(nodes);
        free(map);
        free(dp);
        free(ip);
        return 0;
    }
    /* breadth-first: the queue is the new array itself */
    uint32_t n = 0;
    size_t du = 0, iu = 0;
    const uint16_t d0 = x->nodes[top].depth;
    nodes[n] = x->nodes[top];
    nodes[n].parent = -1;
    nodes[n].next = -1;
    nodes[n].pa = nodes[n].pb = 0;
    map[0] = top;
    n++;
    int32_t depth_reached = 0;
    for (uint32_t q = 0; q < n; q++) {
        gt_node *nd = &nodes[q];
        nd->depth = (uint16_t)(nd->depth - d0);
        if (nd->depth > depth_reached) depth_reached = nd->depth;
        if (zero) nd->visits = 0;
        if (nd->kind != KIND_INTERIOR) continue;
        const gt_node *old = &x->nodes[map[q]];
        const size_t kk = (size_t)nd->k[0] * nd->k[1];
        const size_t doubles = (size_t)A_COUNT * (nd->k[0] + nd->k[1]) + kk;
        memcpy(dp + du, x->dpool + old->data, doubles * sizeof *dp);
        nd->data = (uint32_t)du;
        nd->slots = (uint32_t)iu;
        const int32_t *och = x->ipool + old->slots;
        for (size_t i = 0; i < kk; i++) {
            if (och[i] < 0) {
                ip[iu + i] = och[i];
                continue;
            }
            /* the joint action's chance outcomes stay one chain, in order;
             * their draw counts are chance's estimate, not CFR statistics,
             * and are kept even when the statistics start afresh */
            ip[iu + i] = (int32_t)n;
            for (int32_t o = och[i]; o >= 0; o = x->nodes[o].next) {
                nodes[n] = x->nodes[o];
                nodes[n].parent = (int32_t)q;
                nodes[n].next = x->nodes[o].next >= 0 ? (int32_t)(n + 1) : -1;
                map[n] = (uint32_t)o;
                n++;
            }
        }
        /* the live list: slot indices, unchanged by the renumbering */
        memcpy(ip + iu + kk, och + kk, live_ints(kk) * sizeof *ip);
        du += doubles;
        iu += kk + live_ints(kk);
        for (int p = 0; p < 2; p++) {
            double *vl = dp + nd->data + (p ? (size_t)A_COUNT * nd->k[0] : 0) +
                         (size_t)A_VLOSS * nd->k[p];
            memset(vl, 0, nd->k[p] * sizeof *vl);
            if (zero) {
                const int k = nd->k[p];
                double *base = dp + nd->data + (p ? (size_t)A_COUNT * nd->k[0] : 0);
                memset(base + (size_t)A_REGRET * k, 0, k * sizeof *base);
                memset(base + (size_t)A_AVG * k, 0, k * sizeof *base);
                memset(base + (size_t)A_VISITS * k, 0, k * sizeof *base);
                for (int i = 0; i < k; i++) base[(size_t)A_CUR * k + i] = 1.0 / k;
            }
        }
    }
    free(map);
    /* each array replaced by its copy, with the copy's count */
    free(x->nodes);
    x->nodes = nodes;
    x->used = n;
    free(x->dpool);
    x->dpool = dp;
    x->dused = du;
    free(x->ipool);
    x->ipool = ip;
    x->iused = iu;
    x->depth_reached = depth_reached;
    x->vl_used = 0;
    return 1;
}

static void gt_advance(sbx_search *s, const uint8_t *joint) {
    gtcfr *x = s->algo;
    const gt_node *r = &x->nodes[0];
    int32_t child = -1;
    if (r->kind == KIND_INTERIOR) {
        int idx[2] = {-1, -1};
        for (int p = 0; p < 2; p++) {
            for (int i = 0; i < r->k[p]; i++) {
                if (r->mv[p][i] == joint[p]) idx[p] = i;
            }
        }
        if (idx[0] >= 0 && idx[1] >= 0) child = SLOTC(x, r)[idx[0] * r->k[1] + idx[1]];
    }
    if (child > 0) {
        /* the kept child is the chance outcome the game drew (its hash);
         * an outcome no simulation drew is not in the tree */
        const uint64_t h = s->vt->hash(s->cfg, s->root);
        while (child >= 0 && x->nodes[child].hash != h) child = x->nodes[child].next;
    }
    if (child > 0 && reroot(x, (uint32_t)child, !s->p.tree_reuse)) {
        /* the real state, its RNG the search's: each simulation reseeds
         * its own copy anyway; L0's expansion (a tree of one node) draws
         * from this one */
        memcpy(x->root_state, s->root, s->state_size);
        s->vt->reseed(x->root_state, sbx_rng_next(&s->rng));
        if (!s->p.tree_reuse) {
            x->c.t = 0;
            x->c.credit = 0.0;
        }
        return;
    }
    clear(s);
}

static void gt_reset_all(sbx_search *s) { clear(s); }

/* A value net attached, replaced or detached: every frontier value in the
 * tree came from the old values (each is asked once, when its node is
 * expanded), and CFR's regrets and averages were built on them, so the tree
 * starts afresh rather than mixing two nets' values. */
static void gt_net_changed(sbx_search *s) {
    if (s->algo) clear(s);
}

/* ------------------------------------------------------------ inspection */

static void root_average(const gtcfr *x, int p, double *out) {
    const gt_node *r = &x->nodes[0];
    cfr_average(ARR(x, r, p, A_AVG), r->k[p], out);
}

static void gt_best_moves(sbx_search *s, int32_t *out) {
    gtcfr *x = s->algo;
    const gt_node *r = &x->nodes[0];
    for (int p = 0; p < 2; p++) {
        if (r->kind != KIND_INTERIOR) {
            uint8_t mv[SBX_MAX_MOVES];
            const int k = s->vt->legal_moves(s->cfg, s->root, p, mv);
            out[p] = k > 0 ? mv[0] : SBX_MOVE_NONE;
            continue;
        }
        double avg[SBX_MAX_MOVES];
        root_average(x, p, avg);
        const int pick = cfr_final_pick(avg, r->k[p], s->p.final_move == SBX_FINAL_SAMPLE,
                                        s->p.temperature, x->c.tree_seed, s->iterations_root, p);
        out[p] = r->mv[p][pick] == SBX_MOVE_NONE ? SBX_MOVE_NONE : r->mv[p][pick];
    }
}

static int gt_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap, int *n_out) {
    gtcfr *x = s->algo;
    const gt_node *r = &x->nodes[0];
    if (r->kind != KIND_INTERIOR || r->mv[agent][0] == SBX_MOVE_NONE) {
        *n_out = 0;
        return SBX_OK;
    }
    const int k = r->k[agent];
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    double avg[SBX_MAX_MOVES];
    root_average(x, agent, avg);
    int moves[SBX_MAX_MOVES];
    for (int i = 0; i < k; i++) moves[i] = r->mv[agent][i];
    cfr_root_rows(out, moves, ARR(x, r, agent, A_VISITS), ARR(x, r, agent, A_Q), avg, k);
    *n_out = k;
    return SBX_OK;
}

static void gt_fill_stats(sbx_search *s, sbx_search_stats *out) {
    gtcfr *x = s->algo;
    out->node_bytes = (int32_t)sizeof(gt_node);
    out->trees = 1;
    out->edge_bytes = (int64_t)(x->dused * sizeof(double) + x->iused * sizeof(int32_t));
    out->update_nodes = x->touched;
    for (int a = 0; a < 2; a++) {
        out->nodes[a] = (int32_t)x->used;
        out->root_visits[a] = (int32_t)x->nodes[0].visits;
        out->max_depth_reached[a] = x->depth_reached;
        const double sc = cfr_range_seat(&x->c.range, a, &out->norm_min[a]);
        out->norm_max[a] = out->norm_min[a] + sc;
    }
}

/* The node's probability from its parent: the joint action's under the
 * parent's average strategies, times its chance outcome's share. */
static double joint_prob(const gtcfr *x, uint32_t id) {
    const gt_node *nd = &x->nodes[id];
    if (nd->parent < 0) return 1.0;
    const gt_node *par = &x->nodes[nd->parent];
    double a0[SBX_MAX_MOVES], a1[SBX_MAX_MOVES];
    cfr_average(ARR(x, par, 0, A_AVG), par->k[0], a0);
    cfr_average(ARR(x, par, 1, A_AVG), par->k[1], a1);
    const int32_t first = SLOTC(x, par)[nd->pa * par->k[1] + nd->pb];
    return a0[nd->pa] * a1[nd->pb] * chance_share(x, first, (int32_t)id);
}

/* Most-visited connected top under `top`: best-first by visits (a child
 * never has more visits than its parent), written breadth-first. */
static int gt_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes, int min_visits,
                       sbx_snapshot_node *out, int *n_out) {
    gtcfr *x = s->algo;
    if (top >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %u is not in the GT-CFR tree (%u nodes)", top,
                        x->used);
    }
    *n_out = 0;
    if (max_nodes <= 0) return SBX_OK;
    /* scratch: per node a chosen flag; a heap of candidates, a
     * breadth-first queue and each queued row's parent row */
    const size_t n4 = ((size_t)x->used + 3) & ~(size_t)3;
    unsigned char *mem = sbx_search_scratch(s, n4 + 3 * n4 * sizeof(uint32_t));
    if (!mem) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    uint8_t *chosen = mem;
    uint32_t *heap = (uint32_t *)(void *)(mem + n4);
    uint32_t *queue = heap + n4;
    uint32_t *prow = queue + n4;
    memset(chosen, 0, x->used);
    uint32_t hn = 0, taken = 0;
/* heap order: more visits first, ties to the lower node id (sbx.h) */
#define HV(i) (((uint64_t)x->nodes[heap[i]].visits << 32) | (uint32_t)~heap[i])
    heap[hn++] = top;
    while (hn > 0 && (int)taken < max_nodes) {
        const uint32_t id = heap[0];
        heap[0] = heap[--hn];
        for (uint32_t i = 0;;) { /* sift down */
            uint32_t l = 2 * i + 1, m = i;
            if (l < hn && HV(l) > HV(m)) m = l;
            if (l + 1 < hn && HV(l + 1) > HV(m)) m = l + 1;
            if (m == i) break;
            const uint32_t t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
        if (id != top && (int64_t)x->nodes[id].visits < min_visits) continue;
        chosen[id] = 1;
        taken++;
        const gt_node *nd = &x->nodes[id];
        if (nd->kind != KIND_INTERIOR) continue;
        const int kk = nd->k[0] * nd->k[1];
        for (int i = 0; i < kk; i++) {
          for (int32_t c = SLOTC(x, nd)[i]; c >= 0; c = x->nodes[c].next) {
            uint32_t j = hn++;
            heap[j] = (uint32_t)c;
            while (j > 0 && HV((j - 1) / 2) < HV(j)) { /* sift up */
                const uint32_t t = heap[j];
                heap[j] = heap[(j - 1) / 2];
                heap[(j - 1) / 2] = t;
                j = (j - 1) / 2;
            }
          }
        }
    }
#undef HV
    /* breadth-first over the chosen nodes */
    uint32_t qn = 0;
    prow[qn] = UINT32_MAX;
    queue[qn++] = top;
    for (uint32_t q = 0; q < qn; q++) {
        const uint32_t id = queue[q];
        const gt_node *nd = &x->nodes[id];
        sbx_snapshot_node *row = &out[q];
        memset(row, 0, sizeof *row);
        row->node = (int32_t)id;
        row->parent = q == 0 ? -1 : (int32_t)prow[q];
        row->visits = (int32_t)nd->visits;
        row->mean = (float)(agent == 1 ? -nd->value : nd->value);
        row->prob = q == 0 ? 1.0f : (float)joint_prob(x, id);
        row->depth = (int16_t)nd->depth; /* below the root, as sbx.h says */
        row->agent = -1;
        for (int a = 0; a < SBX_MAX_AGENTS; a++) row->joint[a] = SBX_MOVE_NONE;
        row->move = SBX_MOVE_NONE;
        if (q > 0) {
            const gt_node *par = &x->nodes[nd->parent];
            row->joint[0] = par->mv[0][nd->pa];
            row->joint[1] = par->mv[1][nd->pb];
            row->move = row->joint[agent == 1 ? 1 : 0];
            if (s->p.priors != SBX_PRIORS_UNIFORM) { /* the joint action's */
                row->prior = (float)(ARR(x, par, 0, A_PRIOR)[nd->pa] *
                                     ARR(x, par, 1, A_PRIOR)[nd->pb]);
                row->flags |= SBX_NODE_PRIOR;
            }
        }
        if (nd->kind == KIND_INTERIOR) {
            const int kk = nd->k[0] * nd->k[1];
            for (int i = 0; i < kk; i++) {
                for (int32_t c = SLOTC(x, nd)[i]; c >= 0; c = x->nodes[c].next) {
                    if (chosen[c]) {
                        prow[qn] = q;
                        queue[qn++] = (uint32_t)c;
                    } else {
                        row->flags |= SBX_NODE_TRUNCATED;
                    }
                }
            }
        }
    }
    *n_out = (int)qn;
    return SBX_OK;
}

/* The root's k0 x k1 joint actions: each cell's value (player 0's and its
 * negation), its visits (the child node's; a terminal or left-out state
 * keeps none), the players' move visits, Q (the value of a move against the
 * other's current strategy) and priors. */
static int gt_root_matrix(sbx_search *s, sbx_root_matrix *out) {
    gtcfr *x = s->algo;
    const gt_node *r = &x->nodes[0];
    if (r->kind != KIND_INTERIOR) return SBX_OK; /* 0 x 0 */
    const int kk = r->k[0] * r->k[1];
    int64_t total = 0;
    for (int i = 0; i < kk; i++) {
        const double v = SLOTV(x, r)[i];
        /* every chance outcome's visits */
        out->cell_visits[i] = 0;
        for (int32_t c = SLOTC(x, r)[i]; c > 0; c = x->nodes[c].next) {
            out->cell_visits[i] += (int32_t)x->nodes[c].visits;
        }
        total += out->cell_visits[i];
        out->cell_value[0][i] = (float)v;
        out->cell_value[1][i] = (float)-v;
    }
    out->visits = (int32_t)total;
    for (int p = 0; p < 2; p++) {
        out->n[p] = r->k[p];
        out->value[p] = p ? -r->value : r->value;
        for (int i = 0; i < r->k[p]; i++) {
            out->act[p][i] = r->mv[p][i];
            out->marginal_visits[p][i] = (int32_t)ARR(x, r, p, A_VISITS)[i];
            out->marginal_value[p][i] = ARR(x, r, p, A_Q)[i];
            out->prior[p][i] = ARR(x, r, p, A_PRIOR)[i];
        }
    }
    return SBX_OK;
}

/* A joint-action step per move of the path: each player's move. */
static int gt_find_path(sbx_search *s, int agent, const uint8_t *path, int steps, int stride,
                        int32_t *node_out) {
    (void)agent;
    gtcfr *x = s->algo;
    if (stride < 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "find_path: a gtcfr step needs 2 moves (one per player), got %d", stride);
    }
    uint32_t id = 0;
    for (int k = 0; k < steps; k++) {
        const gt_node *nd = &x->nodes[id];
        const uint8_t *st = path + (size_t)k * (size_t)stride;
        int ia = -1, ib = -1;
        if (nd->kind == KIND_INTERIOR) {
            for (int i = 0; i < nd->k[0]; i++) ia = nd->mv[0][i] == st[0] ? i : ia;
            for (int i = 0; i < nd->k[1]; i++) ib = nd->mv[1][i] == st[1] ? i : ib;
        }
        /* a path names joint actions, not chance: its first outcome */
        const int32_t c = ia >= 0 && ib >= 0 ? SLOTC(x, nd)[ia * nd->k[1] + ib] : -1;
        if (c <= 0) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d (moves %u/%u) leads to no node of the "
                            "tree (node %u)", k + 1, steps, (unsigned)st[0], (unsigned)st[1], id);
        }
        id = (uint32_t)c;
    }
    *node_out = (int32_t)id;
    return SBX_OK;
}

static int64_t gt_node_count(sbx_search *s) {
    gtcfr *x = s->algo;
    return x->used;
}

/* ------------------------------------------------------------ test entry */

int sbx_search_debug_gtcfr_node(sbx_search *s, int node, sbx_gtcfr_debug_node *out) {
    if (!s || !out) return sbx_fail(SBX_ERR_ARGUMENT, "search and out must not be NULL");
    if (s->algo_id != SBX_ALGO_GTCFR || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running gtcfr");
    }
    gtcfr *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d is not in the GT-CFR tree (%u nodes)", node,
                        x->used);
    }
    memset(out, 0, sizeof *out);
    const gt_node *nd = &x->nodes[node];
    out->kind = nd->kind;
    out->parent = nd->parent;
    out->visits = (int32_t)nd->visits;
    out->depth = nd->depth;
    out->value = nd->value;
    out->updates = x->c.t;
    out->next = nd->next;
    out->met = (int32_t)nd->met;
    out->hash = nd->hash;
    if (nd->kind != KIND_INTERIOR) return SBX_OK;
    for (int p = 0; p < 2; p++) {
        out->k[p] = nd->k[p];
        for (int i = 0; i < nd->k[p]; i++) {
            out->moves[p][i] = nd->mv[p][i];
            out->regret[p][i] = ARR(x, nd, p, A_REGRET)[i];
            out->avg_sum[p][i] = ARR(x, nd, p, A_AVG)[i];
            out->current[p][i] = ARR(x, nd, p, A_CUR)[i];
            out->q[p][i] = ARR(x, nd, p, A_Q)[i];
            out->prior[p][i] = ARR(x, nd, p, A_PRIOR)[i];
            out->move_visits[p][i] = ARR(x, nd, p, A_VISITS)[i];
            out->virtual_loss[p][i] = ARR(x, nd, p, A_VLOSS)[i];
        }
    }
    const int kk = nd->k[0] * nd->k[1];
    for (int i = 0; i < kk; i++) {
        out->child[i] = SLOTC(x, nd)[i];
        out->slot_value[i] = SLOTV(x, nd)[i];
    }
    return SBX_OK;
}

const sbx_algo_vt sbx_gtcfr_vt = {
    .name = "gtcfr",
    .net_changed = gt_net_changed,
    .check = gt_check,
    .iteration_nodes = gt_iteration_nodes,
    .create = gt_create,
    .destroy = gt_destroy,
    .params_changed = gt_params_changed,
    .iterate = gt_iterate,
    .iterate_traced = gt_iterate_traced,
    .advance = gt_advance,
    .reset_all = gt_reset_all,
    .best_moves = gt_best_moves,
    .root_stats = gt_root_stats,
    .snapshot = gt_snapshot,
    .find_path = gt_find_path,
    .root_matrix = gt_root_matrix,
    .fill_stats = gt_fill_stats,
    .node_count = gt_node_count,
};
