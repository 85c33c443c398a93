/*
 * joint.c — joint-action MCTS (smitsimax-tutorial.txt §4, "Approach 2"):
 * ONE tree whose node children are every joint action.
 *
 * A node's children are the product of the agents' legal moves (an agent
 * without moves contributes one "none"), stored in mixed-radix order with
 * the last agent's move varying fastest, so child index = sum over agents of
 * (index of its move) x (product of the later agents' move counts). With m
 * moves and k agents that is m^k children per node: the branching the
 * tutorial warns about. A game whose worst case exceeds JOINT_MAX_CHILDREN
 * (4096: 8 snakes have 4^8 = 65536) is refused when the algorithm is asked
 * for, with a message.
 *
 * Selection is DUCT statistics over a joint-action tree (the choice made
 * here; a single UCB over m^k joint children would need every one visited
 * before it learns anything): at a node, each agent runs UCB1 on ITS
 * marginal statistics (visits and its own score totals per own move, summed
 * over the joint children with that move, normalised by its running bounds
 * as in tutorial §7), the picks form a joint action, and the iteration
 * descends into that joint child. Unlike Smitsimax the node is a state, not
 * an information set: below it every agent knows the joint action played.
 *
 * With priors=heuristic or net each agent instead runs PUCT on its
 * marginal (decoupled PUCT, as alpharat searches simultaneous-move games):
 * Q + c_puct * P * sqrt(N) / (1 + n), Q the marginal mean normalised to
 * [0, 1] by the agent's running bounds, an untried move's Q the visited
 * moves' mean less fpu_offset, P the agent's prior at the node's state
 * (the game's move scores or the value net's policy head). The random
 * warm-up (random_threshold) still comes first here, as measured on the
 * maze; Smitsimax and SUCT skip it with priors. A node's state
 * is the first one the node was expanded from (chance may differ later):
 * each joint child keeps the product of the agents' priors of its moves,
 * so summing it over the children, as the marginals sum visits, gives each
 * agent's own prior back whatever the number of agents.
 * random_threshold, c, gamma, max_depth, depth_normalize, rollout, node_cap,
 * tree_reuse (re-root to the joint child played) and elimination (freeze:
 * a dead agent's score is taken when it died) work as in Smitsimax; the
 * selection policy is UCB1 (`policy` is ignored), or decoupled PUCT with
 * priors (below).
 *
 * A node keeps one score total per agent, so it grows with the agents:
 * 24 bytes + 8 per agent (node_bytes in the stats). Chance events can make a
 * stored node's children disagree with the simulated state: the iteration
 * then leaves the tree and plays uniformly random legal moves.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"
#include "tree.h"

#define JOINT_MAX_CHILDREN 4096

typedef struct jnt_node {
    sbx_tree_hdr h;                /* first_child, visits, nchildren, depth  */
    float prior;                   /* the product of its moves' priors       */
    uint8_t joint[SBX_MAX_AGENTS]; /* each agent's move (SBX_MOVE_NONE: none)*/
    double total[];                /* per agent: its backed-up scores        */
} jnt_node;

_Static_assert(offsetof(jnt_node, total) == 24, "joint nodes: 24 bytes + 8 per agent");

typedef struct jnt {
    sbx_one_tree base;     /* the tree, depth reached, bounds (tree.h)     */
} jnt;

#define NODE(x, i) ((jnt_node *)sbx_tree_at(&(x)->base.t, (i)))

/* Moves of one agent at a state, as the tree stores them: at least one
 * entry (SBX_MOVE_NONE for an agent without moves). */
typedef struct agent_moves {
    int k[SBX_MAX_AGENTS];
    int radix[SBX_MAX_AGENTS];     /* child index stride of each agent       */
    uint8_t m[SBX_MAX_AGENTS][SBX_MAX_MOVES];
    int product;
} agent_moves;

static void moves_at(const sbx_search *s, const void *state, const uint8_t *alive,
                     agent_moves *am) {
    const int n = s->num_agents;
    for (int a = 0; a < n; a++) {
        int k = 0;
        if (alive[a]) {
            if (s->vt->fixed_moves) {
                k = s->max_moves;
                for (int i = 0; i < k; i++) am->m[a][i] = (uint8_t)i;
            } else {
                k = s->vt->legal_moves(s->cfg, state, a, am->m[a]);
            }
        }
        if (k == 0) {
            am->m[a][0] = SBX_MOVE_NONE;
            k = 1;
        }
        am->k[a] = k;
    }
    int r = 1;
    for (int a = n - 1; a >= 0; a--) {
        am->radix[a] = r;
        r *= am->k[a];
    }
    am->product = r;
}

static int64_t worst_children(int num_agents, int max_moves) {
    int64_t prod = 1;
    for (int a = 0; a < num_agents && prod <= JOINT_MAX_CHILDREN; a++) {
        prod *= max_moves > 1 ? max_moves : 1;
    }
    return prod;
}

static int jnt_check(const sbx_search_params *p, const sbx_game_vt *game,
                     int num_agents, int max_moves) {
    if (sbx_priors_check(p, game) != SBX_OK) return SBX_ERR_ARGUMENT;
    if (worst_children(num_agents, max_moves) > JOINT_MAX_CHILDREN) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "algorithm: joint-action MCTS needs a child per joint "
                        "action, and %d agents with up to %d moves each make "
                        "more than %d (the limit); use smitsimax or suct",
                        num_agents, max_moves, JOINT_MAX_CHILDREN);
    }
    return SBX_OK;
}

static int64_t jnt_iteration_nodes(const sbx_search_params *p, int num_agents,
                                   int max_moves) {
    int64_t blocks = p->rollout ? 1 : p->max_depth;
    return blocks * worst_children(num_agents, max_moves) + 1;
}

static void clear(jnt *x) {
    sbx_tree_clear(&x->base.t);
    memset(NODE(x, 0)->joint, SBX_MOVE_NONE, SBX_MAX_AGENTS);
    x->base.depth_reached = 0;
}

static int jnt_create(sbx_search *s) {
    const int rc = sbx_one_tree_create(
        s, sizeof(jnt), sizeof(jnt_node) + (size_t)s->num_agents * sizeof(double),
        "joint-action");
    if (rc == SBX_OK) clear(s->algo);
    return rc;
}

static void jnt_reset_all(sbx_search *s); /* below, with the tree lifecycle */

static int jnt_params_changed(sbx_search *s, const sbx_search_params *old) {
    jnt *x = s->algo;
    if (s->p.depth_normalize != old->depth_normalize) sbx_one_tree_bounds_reset(&x->base);
    if (s->p.relative_scores != old->relative_scores || sbx_priors_changed(&s->p, old)) {
        /* the tree's totals and ranges are on the old scale (own or
         * relative scores), or its priors were fixed at expansion under the
         * old setting: afresh, as a net change does */
        jnt_reset_all(s);
    }
    if (x->base.t.used > (uint32_t)s->p.node_cap) clear(x); /* the cap shrank below it */
    return sbx_tree_follow_cap(s, &x->base.t, old->node_cap);
}

/* ------------------------------------------------------------ iteration */

/* Do node's children stand for these moves (chance may disagree)? */
static int children_match(const jnt *x, const jnt_node *node, int n,
                          const agent_moves *am) {
    if (node->h.nchildren != am->product) return 0;
    for (int a = 0; a < n; a++) {
        for (int i = 0; i < am->k[a]; i++) {
            const jnt_node *c = NODE(x, node->h.first_child + (uint32_t)(i * am->radix[a]));
            if (c->joint[a] != am->m[a][i]) return 0;
        }
    }
    return 1;
}

/* Each agent's marginal at a node: visits and its own totals per own move
 * index, summed over the joint children (one pass, digits counted up in
 * storage order). */
typedef struct marg {
    uint32_t visits[SBX_MAX_AGENTS][SBX_MAX_MOVES];
    double total[SBX_MAX_AGENTS][SBX_MAX_MOVES];
    double prior[SBX_MAX_AGENTS][SBX_MAX_MOVES]; /* with `priors` only */
} marg;

static void marginals(const jnt *x, const jnt_node *node, int n,
                      const agent_moves *am, marg *mg, int priors) {
    for (int a = 0; a < n; a++) {
        memset(mg->visits[a], 0, sizeof mg->visits[a]);
        memset(mg->total[a], 0, sizeof mg->total[a]);
        if (priors) memset(mg->prior[a], 0, sizeof mg->prior[a]);
    }
    int digit[SBX_MAX_AGENTS] = {0};
    for (int c = 0; c < node->h.nchildren; c++) {
        const jnt_node *ch = NODE(x, node->h.first_child + (uint32_t)c);
        for (int a = 0; a < n; a++) {
            mg->visits[a][digit[a]] += ch->h.visits;
            mg->total[a][digit[a]] += ch->total[a];
            if (priors) mg->prior[a][digit[a]] += ch->prior;
        }
        for (int a = n - 1; a >= 0; a--) { /* last agent fastest */
            if (++digit[a] < am->k[a]) break;
            digit[a] = 0;
        }
    }
}

/* Tutorial §7 selectChild on one agent's marginal. */
static int select_move(const jnt *x, int a, int k, const uint32_t *visits,
                       const double *total, double c, uint64_t *rng) {
    double lo = x->base.smin[a];
    const double scale = sbx_norm_scale(&lo, x->base.smax[a]);
    uint32_t sum = 0;
    for (int i = 0; i < k; i++) sum += visits[i];
    const double explore = c * sqrt(log((double)(sum > 0 ? sum : 1)));
    uint32_t best = 0, ties = 1;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        if (visits[i] == 0) return (int)sbx_random_untried(rng, visits, sizeof *visits, i, k);
        double v = (total[i] / (double)visits[i] - lo) / scale +
                   explore / sqrt((double)visits[i]);
        /* ties drawn: in a symmetric position the agents' marginals are
         * alike, and ties kept by index paired equal moves only */
        sbx_keep_max_fair(&best, &best_v, &ties, rng, (uint32_t)i, v);
    }
    return (int)best;
}

/* Decoupled PUCT on one agent's marginal (see the top of the file). */
static int select_puct(const jnt *x, int a, int k, const uint32_t *visits,
                       const double *total, const double *prior,
                       const sbx_search_params *p, uint64_t *rng) {
    double lo = x->base.smin[a];
    const double scale = sbx_norm_scale(&lo, x->base.smax[a]);
    uint32_t sum = 0;
    double sum_total = 0.0;
    for (int i = 0; i < k; i++) {
        sum += visits[i];
        sum_total += total[i];
    }
    const sbx_puct pc = sbx_puct_begin(p, sum, sum ? (sum_total / sum - lo) / scale : 0.0);
    uint32_t best = 0, ties = 1;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const double q = visits[i] ? (total[i] / (double)visits[i] - lo) / scale : 0.0;
        sbx_keep_max_fair(&best, &best_v, &ties, rng, (uint32_t)i,
                          sbx_puct_score(&pc, q, prior[i], visits[i]));
    }
    return (int)best;
}

/* A new node's children: each joint action in mixed-radix order, with the
 * product of its moves' priors (uniform: 1 / product, never read). */
static void expand(sbx_search *s, jnt *x, uint32_t cur, const agent_moves *am,
                   const void *state) {
    const int n = s->num_agents;
    double pr[SBX_MAX_AGENTS][SBX_MAX_MOVES];
    if (s->p.priors != SBX_PRIORS_UNIFORM) {
        sbx_search_priors(s, &s->ev, state, am->k, am->m, pr);
    } else {
        for (int a = 0; a < n; a++) {
            for (int i = 0; i < am->k[a]; i++) pr[a][i] = 1.0 / am->k[a];
        }
    }
    uint32_t first = sbx_tree_push(&x->base.t, am->product, NODE(x, cur)->h.depth + 1);
    int digit[SBX_MAX_AGENTS] = {0};
    for (int c = 0; c < am->product; c++) {
        jnt_node *ch = NODE(x, first + (uint32_t)c);
        memset(ch->joint, SBX_MOVE_NONE, SBX_MAX_AGENTS);
        double prod = 1.0;
        for (int a = 0; a < n; a++) {
            ch->joint[a] = am->m[a][digit[a]];
            prod *= pr[a][digit[a]];
        }
        ch->prior = (float)prod;
        for (int a = n - 1; a >= 0; a--) {
            if (++digit[a] < am->k[a]) break;
            digit[a] = 0;
        }
    }
    jnt_node *node = NODE(x, cur);
    node->h.first_child = first;
    node->h.nchildren = (uint16_t)am->product;
}

static int jnt_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    jnt *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    const int64_t need = jnt_iteration_nodes(p, n, s->max_moves);
    if ((int64_t)(x->base.t.cap - x->base.t.used) < need) return SBX_STOP_NODE_CAP;

    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;

    uint32_t path[SBX_MAX_DEPTH + 1];
    int plen = 1, in_tree = 1, depth = 0, terminal = 0;
    const int puct = p->priors != SBX_PRIORS_UNIFORM;
    uint8_t joint[SBX_MAX_AGENTS];
    int idx[SBX_MAX_AGENTS];
    agent_moves am;
    marg mg;
    sbx_outcome o;
    sbx_outcome_start(&o, s, sim);
    const uint8_t *alive = o.alive;
    const int *leaf_depth = o.leaf_depth;
    const double *score = o.score;
    path[0] = 0;
    NODE(x, 0)->h.visits++;

    for (int d = 0; d < p->max_depth; d++) {
        moves_at(s, sim, alive, &am);
        int expanded = 0, pick_tree = 0;
        uint32_t stepped = 0;
        if (in_tree) {
            const uint32_t cur = path[plen - 1];
            jnt_node *node = NODE(x, cur);
            if (node->h.first_child == 0) {
                expand(s, x, cur, &am, sim);
                node = NODE(x, cur);
                expanded = 1;
            } else if (!children_match(x, node, n, &am)) {
                in_tree = 0;
            }
            if (in_tree) {
                if (node->h.visits < (uint32_t)p->random_threshold) {
                    pick_tree = SBX_PICK_RANDOM;
                    for (int a = 0; a < n; a++) idx[a] = (int)sbx_rng_below(&s->rng, (uint32_t)am.k[a]);
                } else {
                    pick_tree = SBX_PICK_UCB;
                    marginals(x, node, n, &am, &mg, puct);
                    for (int a = 0; a < n; a++) {
                        idx[a] = puct ? select_puct(x, a, am.k[a], mg.visits[a], mg.total[a],
                                                    mg.prior[a], p, &s->rng)
                                      : select_move(x, a, am.k[a], mg.visits[a], mg.total[a],
                                                    p->c, &s->rng);
                    }
                }
                uint32_t c = node->h.first_child;
                for (int a = 0; a < n; a++) c += (uint32_t)(idx[a] * am.radix[a]);
                NODE(x, c)->h.visits++;
                path[plen++] = c;
                stepped = c;
                for (int a = 0; a < n; a++) joint[a] = am.m[a][idx[a]];
                if (p->rollout && expanded) in_tree = 0;
            }
        }
        if (!stepped) {
            for (int a = 0; a < n; a++) {
                joint[a] = am.m[a][sbx_rng_below(&s->rng, (uint32_t)am.k[a])];
            }
        }
        if (tr) {
            for (int a = 0; a < n; a++) {
                int pick = joint[a] == SBX_MOVE_NONE ? (stepped ? SBX_PICK_PASS : SBX_PICK_NONE)
                           : stepped               ? pick_tree
                                                   : SBX_PICK_ROLLOUT;
                tr->moves[a][d] = joint[a] == SBX_MOVE_NONE ? -1 : joint[a];
                tr->pick[a][d] = (int8_t)pick;
                tr->expanded[a][d] = (int8_t)expanded;
            }
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        sbx_outcome_step(&o, s, sim, depth, tr);
        if (vt->is_terminal(cfg, sim)) {
            terminal = 1;
            break;
        }
    }
    *turns += depth;

    sbx_outcome_finish(&o, s, sim, depth, x->base.smin, x->base.smax);
    double gpow[SBX_MAX_DEPTH + 1];
    sbx_gamma_powers(p->gamma, gpow);
    /* path[i] is at depth i: discounted once per turn between it and the
     * turn each agent's score was taken (tutorial §13) */
    for (int i = 0; i < plen; i++) {
        jnt_node *nd = NODE(x, path[i]);
        for (int a = 0; a < n; a++) {
            int k = leaf_depth[a] - i;
            nd->total[a] += score[a] * gpow[k > 0 ? k : 0];
        }
    }
    if (plen - 1 > x->base.depth_reached) x->base.depth_reached = plen - 1;

    if (tr) sbx_one_tree_trace(&x->base, n, tr, depth, terminal, sim_seed, path, plen, score);
    return SBX_STOP_NONE;
}

static int jnt_iterate(sbx_search *s, int64_t *turns) {
    return jnt_iterate_impl(s, turns, NULL);
}

static int jnt_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return jnt_iterate_impl(s, turns, tr);
}

/* ------------------------------------------------------------ tree reuse */

static void root_moves(const sbx_search *s, agent_moves *am) {
    uint8_t alive[SBX_MAX_AGENTS];
    const uint32_t mask = s->vt->alive_mask(s->cfg, s->root);
    for (int a = 0; a < s->num_agents; a++) alive[a] = (uint8_t)((mask >> a) & 1u);
    moves_at(s, s->root, alive, am);
}

static void jnt_advance(sbx_search *s, const uint8_t *joint) {
    jnt *x = s->algo;
    const int n = s->num_agents;
    sbx_one_tree_bounds_reset(&x->base);
    uint32_t target = 0;
    if (s->p.tree_reuse) {
        const jnt_node *r = NODE(x, 0);
        for (uint32_t c = 0; c < r->h.nchildren && !target; c++) {
            const jnt_node *ch = NODE(x, r->h.first_child + c);
            int same = 1;
            for (int a = 0; a < n && same; a++) same = ch->joint[a] == joint[a];
            if (same) target = r->h.first_child + c;
        }
    }
    if (!target) {
        clear(x);
        return;
    }
    sbx_tree_reroot(&x->base.t, target);
    const double decay = s->p.reuse_decay;
    if (decay < 1.0) {
        for (uint32_t i = 1; i < x->base.t.used; i++) {
            jnt_node *nd = NODE(x, i);
            uint32_t v = (uint32_t)((double)nd->h.visits * decay);
            for (int a = 0; a < n; a++) {
                nd->total[a] = v ? nd->total[a] * ((double)v / (double)nd->h.visits) : 0.0;
            }
            nd->h.visits = v;
        }
    }
    jnt_node *r = NODE(x, 0);
    uint32_t visits = 0;
    double total[SBX_MAX_AGENTS] = {0};
    for (uint32_t c = 0; c < r->h.nchildren; c++) {
        const jnt_node *ch = NODE(x, r->h.first_child + c);
        visits += ch->h.visits;
        for (int a = 0; a < n; a++) total[a] += ch->total[a];
    }
    r->h.visits = visits;
    for (int a = 0; a < n; a++) r->total[a] = s->p.gamma * total[a];
    memset(r->joint, SBX_MOVE_NONE, SBX_MAX_AGENTS);
    x->base.depth_reached = 0;
    if (r->h.nchildren) {
        agent_moves am;
        root_moves(s, &am);
        if (!children_match(x, r, n, &am)) clear(x);
    }
}

static void jnt_reset_all(sbx_search *s) {
    jnt *x = s->algo;
    clear(x);
    sbx_one_tree_bounds_reset(&x->base);
}

/* ------------------------------------------------------------ inspection */

/* The root's marginals and the moves they are for; 0 if the root is not
 * expanded (or, after a caller's new_root, does not match). */
static int root_marginals(sbx_search *s, agent_moves *am, marg *mg) {
    jnt *x = s->algo;
    root_moves(s, am);
    const jnt_node *r = NODE(x, 0);
    if (!r->h.nchildren || !children_match(x, r, s->num_agents, am)) return 0;
    marginals(x, r, s->num_agents, am, mg, 1);
    return 1;
}

static void jnt_best_moves(sbx_search *s, int32_t *out) {
    agent_moves am;
    marg mg;
    const int have = root_marginals(s, &am, &mg);
    for (int a = 0; a < s->num_agents; a++) {
        out[a] = am.m[a][0]; /* SBX_MOVE_NONE for an agent without moves */
        if (!have) continue;
        int best = -1;
        for (int i = 0; i < am.k[a]; i++) {
            uint32_t v = mg.visits[a][i];
            if (v == 0) continue;
            if (best < 0 || v > mg.visits[a][best] ||
                (v == mg.visits[a][best] &&
                 mg.total[a][i] / v > mg.total[a][best] / mg.visits[a][best])) {
                best = i;
            }
        }
        if (best >= 0) out[a] = am.m[a][best];
    }
}

/* Two agents: the root's children as sbx.h's matrix (child i*k2 + j is
 * agent 0's move i with agent 1's move j: the mixed-radix order above). */
static int jnt_root_matrix(sbx_search *s, sbx_root_matrix *out) {
    jnt *x = s->algo;
    agent_moves am;
    marg mg;
    if (!root_marginals(s, &am, &mg)) return SBX_OK; /* 0 x 0 */
    const jnt_node *r = NODE(x, 0);
    uint64_t total_visits = 0;
    double sum[2] = {0.0, 0.0};
    for (int c = 0; c < r->h.nchildren; c++) {
        const jnt_node *ch = NODE(x, r->h.first_child + (uint32_t)c);
        out->cell_visits[c] = (int32_t)ch->h.visits;
        total_visits += ch->h.visits;
        for (int a = 0; a < 2; a++) {
            out->cell_value[a][c] = ch->h.visits ? (float)(ch->total[a] / ch->h.visits) : NAN;
            sum[a] += ch->total[a];
        }
    }
    out->visits = (int32_t)total_visits;
    for (int a = 0; a < 2; a++) {
        out->n[a] = am.k[a];
        out->value[a] = total_visits ? sum[a] / (double)total_visits : NAN;
        for (int i = 0; i < am.k[a]; i++) {
            out->act[a][i] = am.m[a][i];
            out->marginal_visits[a][i] = (int32_t)mg.visits[a][i];
            out->marginal_value[a][i] =
                mg.visits[a][i] ? mg.total[a][i] / mg.visits[a][i] : NAN;
            out->prior[a][i] = s->p.priors != SBX_PRIORS_UNIFORM ? mg.prior[a][i]
                                                                 : 1.0 / am.k[a];
        }
    }
    return SBX_OK;
}

static int jnt_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                          int *n_out) {
    agent_moves am;
    marg mg;
    if (!root_marginals(s, &am, &mg)) {
        *n_out = 0;
        return SBX_OK;
    }
    const int k = am.k[agent];
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    double sum = 0;
    for (int i = 0; i < k; i++) sum += mg.visits[agent][i];
    for (int i = 0; i < k; i++) {
        uint32_t v = mg.visits[agent][i];
        out[i].move = am.m[agent][i] == SBX_MOVE_NONE ? -1 : am.m[agent][i];
        out[i].visits = (int32_t)v;
        out[i].mean = v ? mg.total[agent][i] / v : 0.0;
        out[i].prob = sum > 0 ? v / sum : 0.0;
        out[i].policy = out[i].prob;
    }
    *n_out = k;
    return SBX_OK;
}

static void jnt_fill_stats(sbx_search *s, sbx_search_stats *out) {
    const jnt *x = s->algo;
    sbx_one_tree_fill_stats(&x->base, s->num_agents, out);
}

typedef struct row_ctx {
    int agent, n, priors;
} row_ctx;

/* Rows: agent -1 (everyone moves), joint[] each agent's move; move and mean
 * are the asking agent's (its own move, its own score). */
static void fill_row(const void *ctx, const sbx_tree *t, uint32_t node,
                     sbx_snapshot_node *row) {
    const row_ctx *rc = ctx;
    const jnt_node *nd = sbx_tree_at(t, node);
    row->mean = nd->h.visits ? (float)(nd->total[rc->agent] / nd->h.visits) : 0.0f;
    row->agent = -1;
    if (node != 0) {
        row->move = nd->joint[rc->agent];
        for (int a = 0; a < rc->n; a++) row->joint[a] = nd->joint[a];
        if (rc->priors) {
            row->prior = nd->prior;
            row->flags |= SBX_NODE_PRIOR;
        }
    }
}

static int jnt_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    jnt *x = s->algo;
    row_ctx rc = {agent, s->num_agents, s->p.priors != SBX_PRIORS_UNIFORM};
    return sbx_tree_snapshot(s, &x->base.t, top, max_nodes, min_visits, out, n_out, fill_row, &rc);
}

/* A path step is the joint action: every agent's move. */
static int step_matches(const void *ctx, const sbx_tree *t, uint32_t node,
                        const uint8_t *step) {
    const jnt_node *nd = sbx_tree_at(t, node);
    const int n = *(const int *)ctx;
    for (int a = 0; a < n; a++)
        if (nd->joint[a] != step[a]) return 0;
    return 1;
}

static int jnt_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                         int stride, int32_t *node_out) {
    jnt *x = s->algo;
    if (stride < s->num_agents) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "find_path: a joint-action step needs %d moves (one per agent), got %d",
                        s->num_agents, stride);
    }
    return sbx_tree_find_path(&x->base.t, path, steps, stride, step_matches, &s->num_agents,
                              node_out);
}

static int64_t jnt_node_count(sbx_search *s) {
    jnt *x = s->algo;
    return x->base.t.used;
}

/* A value net attached, replaced or detached: the tree's scores and ranges
 * came from the old values, so it starts afresh. */
static void jnt_net_changed(sbx_search *s) {
    if (s->algo) jnt_reset_all(s);
}

const sbx_algo_vt sbx_joint_vt = {
    .name = "joint",
    .net_changed = jnt_net_changed,
    .check = jnt_check,
    .iteration_nodes = jnt_iteration_nodes,
    .create = jnt_create,
    .destroy = sbx_one_tree_destroy,
    .params_changed = jnt_params_changed,
    .iterate = jnt_iterate,
    .iterate_traced = jnt_iterate_traced,
    .advance = jnt_advance,
    .reset_all = jnt_reset_all,
    .best_moves = jnt_best_moves,
    .root_stats = jnt_root_stats,
    .root_matrix = jnt_root_matrix,
    .snapshot = jnt_snapshot,
    .find_path = jnt_find_path,
    .fill_stats = jnt_fill_stats,
    .node_count = jnt_node_count,
};
