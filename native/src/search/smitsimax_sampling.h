/*
 * smitsimax_sampling.h — Smitsimax's sampling policies, Exp3 and regret
 * matching (RM, RM+), after Lanctot et al.'s SM-MCTS (tutorial §10-§11):
 * the strategy at a node, the sampled pick, and the update after the
 * iteration. Static inline: the serial iteration (smitsimax_iterate.c)
 * compiles one copy of its loop per policy with these inside. RM's
 * counterfactual returns, computed once an iteration at most, are
 * smitsimax_sampling.c's. The CFR kernel (cfr_kernel.h) is not used here,
 * though the regret step looks like CFR+'s: RM's regrets may be negative
 * (the kernel's regret matching assumes floored ones), the expectation is
 * under the mixed p, not sigma, and R + (xhat - ev) rounds differently
 * from the kernel's (R + cfv) - ev, so sharing it would change results.
 */
#ifndef SBX_SMITSIMAX_SAMPLING_H
#define SBX_SMITSIMAX_SAMPLING_H

#include "smitsimax_tree.h"

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

/* Exp3 / RM after the iteration, at every sampled step of one agent's path:
 * the picked child a = path[k] earned x = its backed-up value vals[k]
 * normalised to [0, 1] by the range of the values backed up at its depth
 * (norm_values: whatever `bounds` says, since a depth's values are
 * discounted once per step above their leaf and the leaf range is not
 * theirs; the range includes vals[k], so x needs no clamp). Exp3: G_a +=
 * x / p_a (the importance-weighted reward estimate).
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

/* ------------------------------------------------------------ smitsimax_sampling.c */

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
void smx_counterfactuals(const sbx_search *s, smx *x, const smx_tree *trees,
                         uint32_t (*path)[SBX_MAX_DEPTH + 1], const int *plen,
                         const uint32_t *step_node, const uint8_t *joint, int depth,
                         int at_limit, double (*cfv)[SBX_MAX_MOVES], int *cf_k);

#endif
