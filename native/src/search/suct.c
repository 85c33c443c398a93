/*
 * suct.c — Sequential UCT (smitsimax-tutorial.txt §4, "Approach 1"): the
 * simultaneous turn serialised into one tree level per agent.
 *
 * ONE tree. Each simulated turn is a run of levels, one per agent, in the
 * fixed order lead, lead+1, ... (mod agents; lead = params.lead, -1 => 0;
 * inside a match the controller gives it the seat it plays for). A level's
 * children are the legal moves of the agent that moves there; an eliminated
 * agent's level is a single pass child (elimination=pass) or is skipped
 * (elimination=freeze: its score is the evaluation when it died). The joint
 * action is complete when the turn's last level is chosen; then the
 * simulation steps.
 *
 *   root ─ lead's moves (turn 1) ─ next agent's moves (turn 1) ─ ... ─
 *          lead's moves (turn 2) ─ ...
 *
 * A node holds the score of the agent that moved there (its own
 * perspective), so each level is a UCB1 bandit for its mover, normalised by
 * that agent's running score bounds (tutorial §7; bounds always "leaf" here)
 * and discounted by gamma per simulated turn. random_threshold, c, gamma,
 * max_depth, depth_normalize, rollout (one new node per iteration, uniform
 * moves below it), node_cap and tree_reuse work as in Smitsimax. The
 * selection policy is UCB1, or UCB1-Tuned with policy=ucb1_tuned (the same
 * formula as smitsimax.c's, so the two structures can be compared with the
 * same bandit); the sampling policies (Exp3, RM) fall back to UCB1 here.
 * With priors=heuristic or net a level is a PUCT bandit for its mover
 * instead (as joint's and Smitsimax's decoupled PUCT): Q + c_puct * P *
 * sqrt(N) / (1 + n), Q normalised to [0, 1] as UCB1's mean, P the mover's
 * prior at the simulated state (fixed when the level is expanded), an
 * untried child's Q its tried siblings' mean less fpu_offset. The prior
 * takes UCB1-Tuned's sum of squares' bytes, so params.c refuses the pair.
 * death_penalty and bounds=depth are Smitsimax's only.
 *
 * THE INFORMATION LEAK (the reason this is a baseline, not a method): an
 * agent later in the order chooses in a subtree that already knows the moves
 * of the agents before it in the same turn. In rock-paper-scissors the
 * second mover "always wins" (tutorial §4): its statistics are those of a
 * game it cannot lose, and the first mover, assuming it will be countered,
 * sees every move as equally lost. Give `lead` to the seat the search
 * plays for: then only its opponents get to peek, which makes the search
 * pessimistic for itself rather than overconfident.
 *
 * Chance events (snakes' food) can make a stored node's children disagree
 * with the simulated state (a snake that starved in one iteration is alive
 * in another): the iteration then leaves the tree and plays uniformly random
 * legal moves for the rest of it, as below a rollout node.
 *
 * Root statistics: the lead's are its root children; any other agent's are
 * its marginal over its first level (visits and totals of every turn-1 node
 * where it moved, summed by move).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"
#include "tree.h"

typedef struct suct_node {
    sbx_tree_hdr h;        /* first_child, visits, nchildren, depth (level) */
    uint8_t move;          /* SBX_MOVE_NONE for the root and pass nodes     */
    int8_t agent;          /* who moved here; -1 for the root               */
    uint8_t turn;          /* simulated turn of the move, 1..; root 0       */
    uint8_t flags;         /* SBX_NODE_PASS | _DIED | _SURVIVED             */
    double total;          /* the mover's backed-up (discounted) scores     */
    union {
        double sumsq;      /* ... and their squares (UCB1-Tuned's variance)  */
        double prior;      /* or, with priors, the mover's prior of it      */
    };
} suct_node;

_Static_assert(sizeof(suct_node) == 32, "SUCT nodes are 32 bytes");

typedef struct suct {
    sbx_one_tree base;     /* the tree, depth reached, bounds (tree.h)     */
    int32_t lead;          /* the order the tree was built in              */
} suct;

#define NODE(x, i) ((suct_node *)sbx_tree_at(&(x)->base.t, (i)))

/* -1 => 0. A lead past the agents is refused when SUCT is asked for, but
 * params meant for another algorithm reach a running SUCT too (the switch
 * waits for the next turn): the order then stays a valid one. */
static int lead_of(const sbx_search_params *p, int n) {
    return p->lead < 0 || p->lead >= n ? 0 : p->lead;
}

static void clear(suct *x) {
    sbx_tree_clear(&x->base.t);
    suct_node *r = NODE(x, 0);
    r->move = SBX_MOVE_NONE;
    r->agent = -1;
    x->base.depth_reached = 0;
}

static int suct_check(const sbx_search_params *p, const sbx_game_vt *game,
                      int num_agents, int max_moves) {
    if (sbx_priors_check(p, game) != SBX_OK) return SBX_ERR_ARGUMENT;
    if (p->lead >= num_agents) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "lead: agent %d is not in this %d-agent game (SUCT "
                        "serialises agents 0..%d)",
                        p->lead, num_agents, num_agents - 1);
    }
    return SBX_OK;
}

/* One child block per level (agents x max_depth levels), or one block in
 * all with rollout; a pass level is one node. */
static int64_t suct_iteration_nodes(const sbx_search_params *p, int num_agents,
                                    int max_moves) {
    int64_t blocks = p->rollout ? 1 : (int64_t)p->max_depth * num_agents;
    return blocks * (max_moves > 1 ? max_moves : 1) + 1;
}

static int suct_create(sbx_search *s) {
    const int rc = sbx_one_tree_create(s, sizeof(suct), sizeof(suct_node), "SUCT");
    if (rc != SBX_OK) return rc;
    suct *x = s->algo;
    x->lead = lead_of(&s->p, s->num_agents);
    clear(x);
    return SBX_OK;
}

static void suct_reset_all(sbx_search *s); /* below, with the tree lifecycle */

static int suct_params_changed(sbx_search *s, const sbx_search_params *old) {
    suct *x = s->algo;
    if (s->p.depth_normalize != old->depth_normalize) sbx_one_tree_bounds_reset(&x->base);
    if (s->p.relative_scores != old->relative_scores || sbx_priors_changed(&s->p, old)) {
        /* the tree's totals and ranges are on the old scale (own or
         * relative scores), or its priors were set at expansion under the
         * old setting: afresh, as a net change does */
        suct_reset_all(s);
    }
    if (lead_of(&s->p, s->num_agents) != x->lead) {
        /* another order is another tree */
        x->lead = lead_of(&s->p, s->num_agents);
        clear(x);
    }
    if (x->base.t.used > (uint32_t)s->p.node_cap) clear(x); /* the cap shrank below it */
    return sbx_tree_follow_cap(s, &x->base.t, old->node_cap);
}

/* ------------------------------------------------------------ iteration */

/* Do the stored children of `node` stand for `agent`'s legal moves now (k of
 * them; 0: a pass level)? Chance can make them disagree. */
static int children_match(const suct *x, const suct_node *node, int agent,
                          const uint8_t *moves, int k) {
    const suct_node *ch = NODE(x, node->h.first_child);
    if (ch->agent != agent) return 0;
    if (k == 0) return node->h.nchildren == 1 && ch->move == SBX_MOVE_NONE;
    if (node->h.nchildren != k) return 0;
    for (int i = 0; i < k; i++) {
        if (ch[i].move != moves[i]) return 0;
    }
    return 1;
}

/* PUCT for the mover's bandit (see the top of the file); no random
 * warm-up: the prior orders the first visits. */
static uint32_t select_puct(const suct *x, const suct_node *node, int agent,
                            const sbx_search_params *p) {
    const uint32_t first = node->h.first_child;
    const int k = node->h.nchildren;
    const suct_node *ch = NODE(x, first);
    double lo = x->base.smin[agent];
    const double scale = sbx_norm_scale(&lo, x->base.smax[agent]);
    uint32_t sum = 0;
    double sum_total = 0.0;
    for (int i = 0; i < k; i++) {
        sum += ch[i].h.visits;
        sum_total += ch[i].total;
    }
    const sbx_puct pc = sbx_puct_begin(p, sum, sum ? (sum_total / sum - lo) / scale : 0.0);
    uint32_t best = first;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const suct_node *c = &ch[i];
        const double q = c->h.visits ? (c->total / c->h.visits - lo) / scale : 0.0;
        sbx_keep_max(&best, &best_v, first + (uint32_t)i,
                     sbx_puct_score(&pc, q, c->prior, c->h.visits));
    }
    return best;
}

/* Tutorial §7 selectChild for the mover's bandit (as smitsimax.c). */
static uint32_t select_child(const suct *x, const suct_node *node, int agent,
                             const sbx_search_params *p, int policy, uint64_t *rng,
                             int *pick) {
    const uint32_t first = node->h.first_child;
    const int k = node->h.nchildren;
    if (p->priors != SBX_PRIORS_UNIFORM) {
        *pick = SBX_PICK_UCB;
        return select_puct(x, node, agent, p);
    }
    if (node->h.visits < (uint32_t)p->random_threshold) {
        *pick = SBX_PICK_RANDOM;
        return first + sbx_rng_below(rng, (uint32_t)k);
    }
    *pick = SBX_PICK_UCB;
    double lo = x->base.smin[agent];
    const double scale = sbx_norm_scale(&lo, x->base.smax[agent]);
    const double ln_n = log((double)node->h.visits);
    const double explore = p->c * sqrt(ln_n);
    const suct_node *ch = NODE(x, first);
    uint32_t best = first;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const suct_node *c = &ch[i];
        if (c->h.visits == 0) {
            return first + sbx_random_untried(rng, &ch[0].h.visits, sizeof *ch, i, k);
        }
        const double n = (double)c->h.visits;
        double v;
        if (policy == SBX_POLICY_UCB1_TUNED) {
            /* Auer et al.: C * sqrt(ln N / n * min(1/4, V)), V the variance
             * on the normalised scale plus sqrt(2 ln N / n) */
            const double mean = c->total / n;
            double var = c->sumsq / n - mean * mean;
            if (var < 0.0) var = 0.0;
            double vb = var / (scale * scale) + sqrt(2.0 * ln_n / n);
            if (vb > 0.25) vb = 0.25;
            v = (mean - lo) / scale + p->c * sqrt(ln_n / n * vb);
        } else {
            v = (c->total / n - lo) / scale + explore / sqrt(n);
        }
        sbx_keep_max(&best, &best_v, first + (uint32_t)i, v);
    }
    return best;
}

static int suct_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    suct *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    const int64_t need = suct_iteration_nodes(p, n, s->max_moves);
    if ((int64_t)(x->base.t.cap - x->base.t.used) < need) return SBX_STOP_NODE_CAP;

    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;

    /* one node per level: at most max_depth * agents, plus the root */
    uint32_t path[SBX_MAX_DEPTH * SBX_MAX_AGENTS + 1];
    int plen = 1, in_tree = 1, depth = 0, terminal = 0;
    uint8_t joint[SBX_MAX_AGENTS];
    uint8_t moves[SBX_MAX_MOVES];
    uint32_t step_node[SBX_MAX_AGENTS];
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    sbx_outcome o;
    sbx_outcome_start(&o, s, sim);
    const uint8_t *alive = o.alive;
    const int *leaf_depth = o.leaf_depth;
    const double *score = o.score;
    path[0] = 0;
    NODE(x, 0)->h.visits++;
    const int priors = p->priors != SBX_PRIORS_UNIFORM;

    for (int d = 0; d < p->max_depth; d++) {
        int net_pass = -1; /* priors=net: this turn's state's pass, asked once */
        for (int j = 0; j < n; j++) {
            const int a = (x->lead + j) % n;
            int pick = SBX_PICK_NONE, expanded = 0;
            step_node[a] = 0;
            joint[a] = SBX_MOVE_NONE;
            int k = 0;
            if (alive[a]) {
                if (vt->fixed_moves) {
                    k = s->max_moves;
                    for (int m = 0; m < k; m++) moves[m] = (uint8_t)m;
                } else {
                    k = vt->legal_moves(cfg, sim, a, moves);
                }
            }
            const int has_level = k > 0 || !freeze;
            if (has_level && in_tree) {
                suct_node *node = NODE(x, path[plen - 1]);
                if (node->h.first_child == 0) {
                    int kk = k > 0 ? k : 1;
                    uint32_t first = sbx_tree_push(&x->base.t, kk, node->h.depth + 1);
                    double pr[SBX_MAX_MOVES] = {1.0};
                    if (priors && k > 0) {
                        if (net_pass < 0) {
                            net_pass = p->priors == SBX_PRIORS_NET &&
                                       sbx_search_net_pass(s, &s->ev, sim);
                        }
                        sbx_search_agent_priors(s, &s->ev, net_pass, sim, a, k, moves, pr);
                    }
                    for (int i = 0; i < kk; i++) {
                        suct_node *c = NODE(x, first + (uint32_t)i);
                        c->move = k > 0 ? moves[i] : SBX_MOVE_NONE;
                        c->agent = (int8_t)a;
                        c->turn = (uint8_t)(d + 1);
                        c->flags = k > 0 ? 0 : SBX_NODE_PASS;
                        if (priors) c->prior = pr[i];
                    }
                    node = NODE(x, path[plen - 1]); /* (the arena never moves here) */
                    node->h.first_child = first;
                    node->h.nchildren = (uint16_t)kk;
                    expanded = 1;
                } else if (!children_match(x, node, a, moves, k)) {
                    in_tree = 0; /* chance made this node another state */
                }
                if (in_tree) {
                    uint32_t c = select_child(x, node, a, p, s->policy, &s->rng, &pick);
                    if (k == 0) pick = SBX_PICK_PASS;
                    suct_node *cn = NODE(x, c);
                    cn->h.visits++;
                    joint[a] = cn->move;
                    path[plen++] = c;
                    step_node[a] = c;
                    if (p->rollout && expanded) in_tree = 0;
                }
            }
            if (!step_node[a] && k > 0) {
                joint[a] = moves[sbx_rng_below(&s->rng, (uint32_t)k)];
                pick = SBX_PICK_ROLLOUT;
            }
            if (tr) {
                tr->moves[a][d] = joint[a] == SBX_MOVE_NONE ? -1 : joint[a];
                tr->pick[a][d] = (int8_t)pick;
                tr->expanded[a][d] = (int8_t)expanded;
            }
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        uint32_t alive_before = 0;
        for (int a = 0; a < n; a++) alive_before |= (uint32_t)alive[a] << a;
        const uint32_t died = sbx_outcome_step(&o, s, sim, depth, tr);
        for (int a = 0; a < n; a++) {
            if (step_node[a] && ((alive_before >> a) & 1u)) {
                NODE(x, step_node[a])->flags |= ((died >> a) & 1u) ? SBX_NODE_DIED
                                                                    : SBX_NODE_SURVIVED;
            }
        }
        if (vt->is_terminal(cfg, sim)) {
            terminal = 1;
            break;
        }
    }
    *turns += depth;

    sbx_outcome_finish(&o, s, sim, depth, x->base.smin, x->base.smax);
    double gpow[SBX_MAX_DEPTH + 1];
    sbx_gamma_powers(p->gamma, gpow);
    /* Each node takes its mover's score, discounted once per turn between
     * the node's turn and the turn the score was taken (tutorial §13). */
    for (int i = 1; i < plen; i++) {
        suct_node *nd = NODE(x, path[i]);
        const int a = nd->agent;
        int k = leaf_depth[a] - nd->turn;
        const double v = score[a] * gpow[k > 0 ? k : 0];
        nd->total += v;
        if (!priors) nd->sumsq += v * v;
    }
    NODE(x, 0)->total += score[x->lead] * gpow[leaf_depth[x->lead]];
    const int reached = NODE(x, path[plen - 1])->turn;
    if (reached > x->base.depth_reached) x->base.depth_reached = reached;

    /* the serialised path may pass SBX_MAX_DEPTH + 1 entries: sbx_one_tree_trace
     * continues it in the next agents' rows */
    if (tr) sbx_one_tree_trace(&x->base, n, tr, depth, terminal, sim_seed, path, plen, score);
    return SBX_STOP_NONE;
}

static int suct_iterate(sbx_search *s, int64_t *turns) {
    return suct_iterate_impl(s, turns, NULL);
}

static int suct_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return suct_iterate_impl(s, turns, tr);
}

/* ------------------------------------------------------------ tree reuse */

static void suct_advance(sbx_search *s, const uint8_t *joint) {
    suct *x = s->algo;
    const int n = s->num_agents;
    sbx_one_tree_bounds_reset(&x->base);
    if (!s->p.tree_reuse) {
        clear(x);
        return;
    }
    /* Follow the real joint action through the first turn's levels: one per
     * agent (pass), or per agent that had moves (freeze). */
    const int freeze = s->p.elimination == SBX_ELIM_FREEZE;
    int levels = 0;
    for (int a = 0; a < n; a++) levels += !freeze || joint[a] != SBX_MOVE_NONE;
    uint32_t cur = 0;
    for (int l = 0; l < levels && cur != UINT32_MAX; l++) {
        const suct_node *nd = NODE(x, cur);
        uint32_t next = UINT32_MAX;
        for (uint32_t c = 0; c < nd->h.nchildren; c++) {
            const suct_node *ch = NODE(x, nd->h.first_child + c);
            if (ch->turn == 1 && ch->move == joint[ch->agent]) next = nd->h.first_child + c;
        }
        cur = next;
    }
    if (cur == UINT32_MAX || cur == 0) {
        clear(x);
        return;
    }
    sbx_tree_reroot(&x->base.t, cur);
    const double decay = s->p.reuse_decay;
    for (uint32_t i = 1; i < x->base.t.used; i++) {
        suct_node *nd = NODE(x, i);
        nd->turn = (uint8_t)(nd->turn - 1);
        if (decay < 1.0) {
            uint32_t v = (uint32_t)((double)nd->h.visits * decay);
            nd->total = v ? nd->total * ((double)v / (double)nd->h.visits) : 0.0;
            if (s->p.priors == SBX_PRIORS_UNIFORM) { /* a prior is not a sum */
                nd->sumsq = v ? nd->sumsq * ((double)v / (double)nd->h.visits) : 0.0;
            }
            nd->h.visits = v;
        }
    }
    /* The new root is what its kept children say (as smitsimax.c's). */
    suct_node *r = NODE(x, 0);
    uint32_t visits = 0;
    double total = 0.0;
    for (uint32_t c = 0; c < r->h.nchildren; c++) {
        visits += NODE(x, r->h.first_child + c)->h.visits;
        total += NODE(x, r->h.first_child + c)->total;
    }
    r->h.visits = visits;
    r->total = s->p.gamma * total;
    r->sumsq = 0.0;        /* a root is never a selected child */
    r->move = SBX_MOVE_NONE;
    r->agent = -1;
    r->turn = 0;
    r->flags = 0;
    x->base.depth_reached = 0;
    /* The first level must be the first mover's legal moves at the new root
     * (a caller's new_root need not follow from the joint; an agent may have
     * died in the real game and not in the kept iterations). Deeper levels
     * are checked as iterations pass them. */
    if (r->h.nchildren) {
        const uint32_t alive = s->vt->alive_mask(s->cfg, s->root);
        uint8_t moves[SBX_MAX_MOVES];
        int ok = 0;
        for (int j = 0; j < n; j++) {
            int a = (x->lead + j) % n;
            int k = (alive >> a) & 1u ? s->vt->legal_moves(s->cfg, s->root, a, moves) : 0;
            if (k == 0 && freeze) continue;
            ok = children_match(x, r, a, moves, k);
            break;
        }
        if (!ok) clear(x);
    }
}

static void suct_reset_all(sbx_search *s) {
    suct *x = s->algo;
    clear(x);
    sbx_one_tree_bounds_reset(&x->base);
}

/* ------------------------------------------------------------ inspection */

#define PASS_SLOT SBX_MAX_MOVES

typedef struct marginal {
    uint32_t visits[SBX_MAX_MOVES + 1];
    double total[SBX_MAX_MOVES + 1];
    uint8_t present[SBX_MAX_MOVES + 1];
} marginal;

/* agent's statistics over its first level: every turn-1 node where it moved,
 * summed by move (for the lead: the root's children). Returns 0 on memory
 * failure. */
static int first_level(sbx_search *s, int agent, marginal *m) {
    suct *x = s->algo;
    memset(m, 0, sizeof *m);
    uint32_t *stack = sbx_search_scratch(s, (size_t)x->base.t.used * sizeof *stack);
    if (!stack) return 0;
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const suct_node *nd = NODE(x, stack[--sp]);
        for (uint32_t c = 0; c < nd->h.nchildren; c++) {
            uint32_t ci = nd->h.first_child + c;
            const suct_node *ch = NODE(x, ci);
            if (ch->turn != 1) break; /* siblings share their turn */
            if (ch->agent == agent) {
                int slot = ch->move == SBX_MOVE_NONE ? PASS_SLOT : ch->move;
                m->visits[slot] += ch->h.visits;
                m->total[slot] += ch->total;
                m->present[slot] = 1;
            } else {
                stack[sp++] = ci;
            }
        }
    }
    return 1;
}

static void suct_best_moves(sbx_search *s, int32_t *out) {
    uint8_t moves[SBX_MAX_MOVES];
    marginal m;
    for (int a = 0; a < s->num_agents; a++) {
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        if (k == 0) {
            out[a] = SBX_MOVE_NONE;
            continue;
        }
        out[a] = moves[0];
        if (!first_level(s, a, &m)) continue; /* no memory: still a legal move */
        int best = -1;
        for (int i = 0; i < k; i++) {
            int mv = moves[i];
            if (m.visits[mv] == 0) continue;
            if (best < 0 || m.visits[mv] > m.visits[best] ||
                (m.visits[mv] == m.visits[best] &&
                 m.total[mv] / m.visits[mv] > m.total[best] / m.visits[best])) {
                best = mv;
            }
        }
        if (best >= 0) out[a] = best;
    }
}

static int suct_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                           int *n_out) {
    uint8_t moves[SBX_MAX_MOVES + 1];
    marginal m;
    if (!first_level(s, agent, &m)) return sbx_fail(SBX_ERR_MEMORY, "out of memory for root stats");
    int k = s->vt->legal_moves(s->cfg, s->root, agent, moves);
    int slots[SBX_MAX_MOVES + 1], rows = 0;
    for (int i = 0; i < k; i++) {
        if (m.present[moves[i]]) slots[rows++] = moves[i];
    }
    if (k == 0 && m.present[PASS_SLOT]) slots[rows++] = PASS_SLOT;
    if (rows > cap) {
        return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, rows);
    }
    double sum = 0;
    for (int i = 0; i < rows; i++) sum += m.visits[slots[i]];
    for (int i = 0; i < rows; i++) {
        int sl = slots[i];
        out[i].move = sl == PASS_SLOT ? -1 : sl;
        out[i].visits = (int32_t)m.visits[sl];
        out[i].mean = m.visits[sl] ? m.total[sl] / m.visits[sl] : 0.0;
        out[i].prob = sum > 0 ? m.visits[sl] / sum : 0.0;
        out[i].policy = out[i].prob;
    }
    *n_out = rows;
    return SBX_OK;
}

static void suct_fill_stats(sbx_search *s, sbx_search_stats *out) {
    const suct *x = s->algo;
    sbx_one_tree_fill_stats(&x->base, s->num_agents, out);
}

static void fill_row(const void *ctx, const sbx_tree *t, uint32_t node,
                     sbx_snapshot_node *row) {
    const suct_node *nd = sbx_tree_at(t, node);
    row->mean = nd->h.visits ? (float)(nd->total / nd->h.visits) : 0.0f;
    row->move = nd->move;
    row->agent = nd->agent;
    row->flags |= (uint8_t)(nd->flags & 0x07);
    /* the union holds the prior; a pass (one move) has none to show, as
     * in Smitsimax */
    if (*(const int *)ctx && nd->agent >= 0 && nd->move != SBX_MOVE_NONE) {
        row->prior = (float)nd->prior;
        row->flags |= SBX_NODE_PRIOR;
    }
}

/* The one tree, whichever agent asks; rows say whose move they are. */
static int suct_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                         int min_visits, sbx_snapshot_node *out, int *n_out) {
    suct *x = s->algo;
    const int priors = s->p.priors != SBX_PRIORS_UNIFORM;
    return sbx_tree_snapshot(s, &x->base.t, top, max_nodes, min_visits, out, n_out, fill_row,
                             &priors);
}

/* A path step is the mover's move at that level (SBX_MOVE_NONE: its pass). */
static int step_matches(const void *ctx, const sbx_tree *t, uint32_t node,
                        const uint8_t *step) {
    return ((const suct_node *)sbx_tree_at(t, node))->move == step[0];
}

static int suct_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                          int stride, int32_t *node_out) {
    suct *x = s->algo;
    return sbx_tree_find_path(&x->base.t, path, steps, stride, step_matches, NULL, node_out);
}

static int64_t suct_node_count(sbx_search *s) {
    suct *x = s->algo;
    return x->base.t.used;
}

/* A value net attached, replaced or detached: the tree's scores and ranges
 * came from the old values, so it starts afresh. */
static void suct_net_changed(sbx_search *s) {
    if (s->algo) suct_reset_all(s);
}

const sbx_algo_vt sbx_suct_vt = {
    .name = "suct",
    .net_changed = suct_net_changed,
    .check = suct_check,
    .iteration_nodes = suct_iteration_nodes,
    .create = suct_create,
    .destroy = sbx_one_tree_destroy,
    .params_changed = suct_params_changed,
    .iterate = suct_iterate,
    .iterate_traced = suct_iterate_traced,
    .advance = suct_advance,
    .reset_all = suct_reset_all,
    .best_moves = suct_best_moves,
    .root_stats = suct_root_stats,
    .snapshot = suct_snapshot,
    .find_path = suct_find_path,
    .fill_stats = suct_fill_stats,
    .node_count = suct_node_count,
};
