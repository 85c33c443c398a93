/*
 * smitsimax_iterate.c — Smitsimax's serial iteration: each agent's descent
 * of its own tree (UCB1 / UCB1-Tuned selection here, Exp3 / RM / RM+ from
 * smitsimax_sampling.h), the joint step, the leaf's evaluation and the
 * discounted backup (with the power mean and the certain-death flags).
 * One copy of the loop per policy, all in this file so that the hot
 * functions inline into it.
 */
#include "smitsimax_iterate.h"

#include <math.h>
#include <string.h>

#include "smitsimax_sampling.h"

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

/* Decoupled PUCT: a new node's children's priors, from the state that
 * expanded it (agent a's moves there), in their side-array slots. With a
 * net, one pass per simulated state serves every agent expanding in it
 * (*net_pass: -1 not asked yet, then whether ev holds the state's). */
FORCE_INLINE void set_priors(const sbx_search *s, sbx_neteval *ev, smx_tree *t, uint32_t idx,
                             const void *state, int a, const uint8_t *moves, int k,
                             int *net_pass) {
    if (*net_pass < 0) {
        *net_pass = s->p.priors == SBX_PRIORS_NET && sbx_search_net_pass(s, ev, state);
    }
    double pr[SBX_MAX_MOVES];
    sbx_search_agent_priors(s, ev, *net_pass, state, a, k, moves, pr);
    const uint32_t first = t->nodes[idx].first_child;
    for (int i = 0; i < k; i++) STAT(t, first + (uint32_t)i) = pr[i];
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
    if (nd->visits < SQRT_LN_N) __builtin_prefetch(&smx_sqrt_ln_table[nd->visits]);
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
                                 const int policy, const int power, const int puct,
                                 const uint32_t fatal) {
    const uint32_t first = node->first_child;
    const int k = node->nchildren;
    const smx_node *ch = &t->nodes[first];
    if (!puct && node->visits < (uint32_t)p->random_threshold) {
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
    if (fatal && !puct) {
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
    if (puct) {
        /* Decoupled PUCT (priors; search.h's sbx_puct), P the child's prior
         * (its side-array slot). The prior orders the first visits, so no
         * random warm-up. */
        uint32_t sum = 0;
        double sum_total = 0.0;
        for (int i = 0; i < k; i++) {
            sum += ch[i].visits;
            sum_total += ch[i].total;
        }
        const sbx_puct pc =
            sbx_puct_begin(p, sum, sum ? (sum_total / sum - lo) * inv_scale : 0.0);
        uint32_t best = first, ties = 1;
        double best_v = -INFINITY;
        for (int i = 0; i < k; i++) {
            const smx_node *c = &ch[i];
            if (fatal && ((fatal >> c->move) & 1u)) continue;
            const double q = c->visits ? (node_value(c, power) - lo) * inv_scale : 0.0;
            double v = sbx_puct_score(&pc, q, STAT(t, first + (uint32_t)i), c->visits);
            if (p->death_penalty && is_doomed(c, p->death_min_visits)) {
                v -= p->death_penalty_value;
            }
            sbx_keep_max_fair(&best, &best_v, &ties, rng, first + (uint32_t)i, v);
        }
        return best;
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
    uint32_t ties = 1;
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
        sbx_keep_max_fair(&best, &best_v, &ties, rng, first + (uint32_t)i, v);
    }
    return best;
}

/* ------------------------------------------------------------ backup */

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

/* One iteration. `policy` (SBX_POLICY_*) and `power` (backup=power in force
 * for UCB1) are constants at every call but the traced one, so each policy
 * gets its own copy of the loop (smx_iterate dispatches once per iteration)
 * and UCB1's is the loop it always was. */
FORCE_INLINE int smx_iterate_impl(sbx_search *s, smx_tree *trees, uint64_t *rng,
                                  void *sim, sbx_neteval *ev, int64_t *turns,
                                  sbx_trace *tr, const int policy, const int power,
                                  const int puct) {
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
        int net_pass = -1; /* priors=net: this state's pass, asked once */
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
                    if (puct) set_priors(s, ev, t, cur, sim, a, moves, k, &net_pass);
                    expanded = 1;
                }
                uint32_t c;
                if (IS_SAMPLING(policy)) {
                    c = select_sample(t, &t->nodes[cur], p, rng, &pick,
                                      &psel[a][plen[a]], policy);
                } else {
                    c = select_ucb(t, &t->nodes[cur], p, rng, &pick, leaf_norm[a],
                                   policy, power, puct, fatal);
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
            sbx_search_evaluate_on(s, ev, sim, at_death);
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
                smx_counterfactuals(s, x, trees, path, plen, step_node, joint, depth,
                                    at_limit, cfv, cf_k);
            }
        }
        if (ends) {
            terminal = 1;
            break;
        }
    }
    *turns += depth;

    double final_scores[SBX_MAX_AGENTS];
    sbx_search_evaluate_on(s, ev, sim, final_scores); /* the leaf */
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

#define ITER_ARGS \
    sbx_search *s, smx_tree *trees, uint64_t *rng, void *sim, sbx_neteval *ev, int64_t *turns
static __attribute__((noinline)) int iter_ucb1(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_UCB1, 0, 0);
}
static __attribute__((noinline)) int iter_ucb1_power(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_UCB1, 1, 0);
}
static __attribute__((noinline)) int iter_puct(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_UCB1, 0, 1);
}
static __attribute__((noinline)) int iter_puct_power(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_UCB1, 1, 1);
}
static __attribute__((noinline)) int iter_tuned(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_UCB1_TUNED, 0, 0);
}
static __attribute__((noinline)) int iter_exp3(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_EXP3, 0, 0);
}
static __attribute__((noinline)) int iter_rm(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_RM, 0, 0);
}
static __attribute__((noinline)) int iter_rm_plus(ITER_ARGS) {
    return smx_iterate_impl(s, trees, rng, sim, ev, turns, NULL, SBX_POLICY_RM_PLUS, 0, 0);
}

/* One serial iteration on a tree set with a worker's RNG, state and value
 * net evaluator (root parallelism runs this on every thread's own trees). */
int smx_iterate_on(ITER_ARGS) {
    switch (s->policy) {
    case SBX_POLICY_UCB1_TUNED: return iter_tuned(s, trees, rng, sim, ev, turns);
    case SBX_POLICY_EXP3: return iter_exp3(s, trees, rng, sim, ev, turns);
    case SBX_POLICY_RM: return iter_rm(s, trees, rng, sim, ev, turns);
    case SBX_POLICY_RM_PLUS: return iter_rm_plus(s, trees, rng, sim, ev, turns);
    default:
        if (puct_on(s)) {
            return power_on(s) ? iter_puct_power(s, trees, rng, sim, ev, turns)
                               : iter_puct(s, trees, rng, sim, ev, turns);
        }
        return power_on(s) ? iter_ucb1_power(s, trees, rng, sim, ev, turns)
                           : iter_ucb1(s, trees, rng, sim, ev, turns);
    }
}
#undef ITER_ARGS

int smx_iterate(sbx_search *s, int64_t *turns) {
    smx *x = s->algo;
    return smx_iterate_on(s, x->t, &s->rng, s->sim, &s->ev, turns);
}

/* The step-by-step view is not hot: one copy with the policy at run time. */
int smx_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    smx *x = s->algo;
    return smx_iterate_impl(s, x->t, &s->rng, s->sim, &s->ev, turns, tr, s->policy,
                            power_on(s), puct_on(s));
}
