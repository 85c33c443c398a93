/*
 * cfr_kernel.h — the CFR+ machinery the two CFR searches share, gtcfr.c
 * (growing-tree CFR over the game tree of joint actions) and pubcfr.c
 * (CFR+ over public states with ranges). Static inline: the per-node
 * loops stay as fast as the copies they replace, and each search's results
 * stay what they were, bit for bit (the operations and their order are the
 * ones each search had). What is not here belongs to one search alone: the
 * trees, the values' propagation, pubcfr's ranges, histories and the
 * re-solving gadget's bookkeeping (its 2-action step is here).
 *
 * Values are player 0's, zero-sum: player 1's are their negation.
 */
#ifndef SBX_CFR_KERNEL_H
#define SBX_CFR_KERNEL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "search.h"

/* ------------------------------------------------------------ strategies */

/* Regret matching+: the current strategy in proportion to the regrets,
 * uniform while they are all 0. The regrets are CFR+'s, never negative:
 * every update floors them at 0 (cfr_plus_update, cfr_plus_regrets), so
 * there is no positive part to take (the one behaviour both searches had:
 * pubcfr took it anyway, a no-op on floored regrets; the sum alone is the
 * cheaper loop in gtcfr's per-node update). */
static inline void cfr_regret_match(const double *regret, int k, double *out) {
    double tot = 0.0;
    for (int i = 0; i < k; i++) tot += regret[i];
    for (int i = 0; i < k; i++) out[i] = tot > 0.0 ? regret[i] / tot : 1.0 / k;
}

/* The average strategy: the average-strategy sums normalised, uniform
 * while they are all 0 (no update has weighed the decision yet). */
static inline void cfr_average(const double *sum, int k, double *out) {
    double tot = 0.0;
    for (int i = 0; i < k; i++) tot += sum[i];
    for (int i = 0; i < k; i++) out[i] = tot > 0.0 ? sum[i] / tot : 1.0 / k;
}

/* ------------------------------------------------------------ one decision's update */

/* The decision's value under sigma: sum_a sigma[a] v[a]. */
static inline double cfr_value(const double *sigma, const double *v, int k) {
    double ev = 0.0;
    for (int a = 0; a < k; a++) ev += sigma[a] * v[a];
    return ev;
}

/* CFR+'s regret update at one decision: each move's regret gains its
 * counterfactual value over the decision's, r[a] = max(r[a] + cfv[a] - ev,
 * 0), with ev = cfr_value(sigma, cfv). cfv and ev are already weighted by
 * the others' reach (pubcfr sums them over an information state's
 * histories). */
static inline void cfr_plus_regrets(double *regret, const double *cfv, double ev, int k) {
    for (int a = 0; a < k; a++) {
        const double r = regret[a] + cfv[a] - ev;
        regret[a] = r > 0.0 ? r : 0.0;
    }
}

/* One decision's whole CFR+ update in one sweep over its arrays: the
 * regret step above and the linear average, avg[a] += w sigma[a], w = t
 * times the player's own reach of the decision (update t weighs t). */
static inline void cfr_plus_update(double *regret, double *avg, const double *sigma,
                                   const double *cfv, double ev, double w, int k) {
    for (int a = 0; a < k; a++) {
        const double r = regret[a] + cfv[a] - ev;
        regret[a] = r > 0.0 ? r : 0.0;
        avg[a] += w * sigma[a];
    }
}

/* The same where the values are those of one state and the weight rw (the
 * others' and chance's reach of it) is applied here: r[a] = max(r[a] +
 * rw (q[a] - v), 0), v the decision's value (gtcfr: a node is one state,
 * both players' decision). The two spellings round differently; each
 * search keeps the one its results were computed with. */
static inline void cfr_plus_update_at(double *regret, double *avg, const double *sigma,
                                      const double *q, double v, double rw, double w, int k) {
    for (int a = 0; a < k; a++) {
        const double r = regret[a] + rw * (q[a] - v);
        regret[a] = r > 0.0 ? r : 0.0;
        avg[a] += w * sigma[a];
    }
}

/* The re-solving gadget's decision for one opponent information state
 * (pubcfr.c): follow (play on, worth ev) or terminate (take T), regrets
 * r[0] and r[1]. Its strategy is regret matching+ of the two, follow with
 * probability p and terminate with 1 - p. */
static inline double cfr_gadget_follow(const double *r) {
    double sigma[2];
    cfr_regret_match(r, 2, sigma);
    return sigma[0];
}

static inline void cfr_gadget_step(double *r, double ev, double T) {
    const double p = cfr_gadget_follow(r);
    const double sigma[2] = {p, 1.0 - p}, cfv[2] = {ev, T};
    cfr_plus_regrets(r, cfv, cfr_value(sigma, cfv, 2), 2);
}

/* How many regret updates an iteration runs: 1/c each (c =
 * expansions_per_update), credited across iterations, so c = 2.5 runs one
 * every 2 or 3 iterations and c = 0.1 ten an iteration. */
static inline int cfr_updates_due(double *credit, double c) {
    *credit += 1.0 / c;
    int n = 0;
    while (*credit >= 1.0 - 1e-9) {
        *credit -= 1.0;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------ values */

/* The zero-sum part of the evaluation, player 0's side: u = (e0 - e1) / 2,
 * exactly player 0's score in a zero-sum game (e1 = -e0). */
static inline double cfr_zero_sum(const sbx_search *s, const void *st) {
    double e[SBX_MAX_AGENTS];
    s->vt->evaluate(s->cfg, st, e);
    return 0.5 * (e[0] - e[1]);
}

/* The range of values the tree holds (player 0's side): PUCT maps Q onto
 * [0, 1] with it. */
typedef struct cfr_range {
    double lo, hi;
} cfr_range;

static inline void cfr_range_clear(cfr_range *r) {
    r->lo = INFINITY;
    r->hi = -INFINITY;
}

static inline void cfr_range_see(cfr_range *r, double v) {
    if (v < r->lo) r->lo = v;
    if (v > r->hi) r->hi = v;
}

/* Seat `seat`'s side of the range, its values being player 0's negated for
 * seat 1: [-hi, -lo]. *lo gets its bottom, the return is its width
 * (sbx_norm_scale: 1 while the range is a point or empty). */
static inline double cfr_range_seat(const cfr_range *r, int seat, double *lo) {
    double l = r->lo, h = r->hi;
    if (seat == 1) {
        l = -r->hi;
        h = -r->lo;
    }
    const double scale = sbx_norm_scale(&l, h);
    *lo = l;
    return scale;
}

/* What both CFR searches keep beside their trees. */
typedef struct cfr_core {
    int64_t t;           /* CFR+ updates since the statistics began: update t
                            weighs t in the linear average                    */
    double credit;       /* updates owed, 1/c an iteration (cfr_updates_due)  */
    cfr_range range;     /* the values in the tree (PUCT's Q scale)           */
    uint64_t tree_seed;  /* the tree's seed: the final-move draw's            */
    void *tmp, *tmp2;    /* two scratch states                                */
} cfr_core;

/* Scratch states for a search over states of state_size bytes; 0: out of
 * memory (cfr_core_close frees what was made). */
static inline int cfr_core_open(cfr_core *c, size_t state_size) {
    c->tmp = malloc(state_size);
    c->tmp2 = malloc(state_size);
    return c->tmp && c->tmp2;
}

static inline void cfr_core_close(cfr_core *c) {
    free(c->tmp);
    free(c->tmp2);
    c->tmp = c->tmp2 = NULL;
}

/* A fresh tree's statistics: no updates, nothing owed, no values seen, a
 * new seed drawn from the search's RNG. */
static inline void cfr_core_restart(cfr_core *c, uint64_t *rng) {
    c->t = 0;
    c->credit = 0.0;
    cfr_range_clear(&c->range);
    c->tree_seed = sbx_rng_next(rng);
}

/* ------------------------------------------------------------ expansion */

/* What PUCT reads at one decision: per move Q (the move's value against the
 * others' current strategy, the seat's side), the simulations that took it
 * (n), the prior (NULL: uniform 1/k) and virtual losses (NULL: none; else
 * vl[i] of them, each `vloss` visits of value 0). */
typedef struct cfr_puct {
    const double *q, *n, *prior, *vl;
    double vloss, c_puct;
    const cfr_range *range;
    int seat;
} cfr_puct;

/* PUCT's argmax: Qn + c_puct prior sqrt(max(N, 1)) / (1 + n + loss), Qn = Q
 * mapped onto [0, 1] by the seat's side of the range (and a move's virtual
 * losses averaged in at value 0), N the decision's visits and losses.
 * Ties keep the first (sbx_keep_max). */
static inline int cfr_puct_argmax(const cfr_puct *in, int k) {
    double lo;
    const double scale = cfr_range_seat(in->range, in->seat, &lo);
    double total = 0.0;
    for (int i = 0; i < k; i++) total += in->n[i] + (in->vl ? in->vloss * in->vl[i] : 0.0);
    const double sq = sqrt(total > 1.0 ? total : 1.0);
    uint32_t best = 0;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const double n = in->n[i], loss = in->vl ? in->vloss * in->vl[i] : 0.0;
        double qn = (in->q[i] - lo) / scale;
        if (loss > 0.0) qn = qn * n / (n + loss);
        const double prior = in->prior ? in->prior[i] : 1.0 / k;
        const double u = qn + in->c_puct * prior * sq / (1.0 + n + loss);
        sbx_keep_max(&best, &best_v, (uint32_t)i, u);
    }
    return (int)best;
}

/* A player's move at a decision of an expansion simulation (Student of
 * Games' pi_select = 1/2 pi_PUCT + 1/2 pi_avg): a fair coin (the RNG's top
 * bit) picks a draw from the average strategy or the PUCT argmax. One move
 * draws nothing. *pick says which (SBX_PICK_*). */
static inline int cfr_expansion_pick(uint64_t *rng, const double *avg_sum, int k,
                                     const cfr_puct *puct, int8_t *pick) {
    if (k == 1) {
        *pick = SBX_PICK_PASS;
        return 0;
    }
    if (sbx_rng_next(rng) >> 63) {
        double avg[SBX_MAX_MOVES];
        cfr_average(avg_sum, k, avg);
        *pick = SBX_PICK_SAMPLE;
        return sbx_draw_at(avg, k, sbx_unit(sbx_rng_next(rng)));
    }
    *pick = SBX_PICK_UCB;
    return cfr_puct_argmax(puct, k);
}

/* ------------------------------------------------------------ playing */

/* splitmix64's finaliser: a 64-bit hash of a 64-bit key. */
static inline uint64_t cfr_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* p <- p^e / sum(p^e) over k entries; zeros stay zero. Powers are taken of
 * p / max(p) (in (0, 1]), so a large e underflows the small entries to 0
 * rather than overflowing, and the largest entry keeps weight 1. */
static inline void cfr_sharpen(double *p, int k, double e) {
    double mx = 0.0, sum = 0.0;
    for (int i = 0; i < k; i++) mx = p[i] > mx ? p[i] : mx;
    if (mx <= 0.0) return;
    for (int i = 0; i < k; i++) {
        p[i] = p[i] > 0.0 ? pow(p[i] / mx, e) : 0.0;
        sum += p[i];
    }
    for (int i = 0; i < k; i++) p[i] /= sum;
}

/* The move a CFR search plays from the root's average strategy avg
 * (normalised; sharpened in place when sampled at a temperature): its
 * argmax (the first of equal ones), or with `sample` a draw from
 * avg^(1/temperature) renormalised (temperature 1: avg itself; below 1
 * less of what the average keeps from the early, noisy updates). The draw
 * is a hash of the tree's seed, the root's iteration count and the seat,
 * never the search's RNG, so asking twice gives the same move. */
static inline int cfr_final_pick(double *avg, int k, int sample, double temperature,
                                 uint64_t tree_seed, int64_t iterations_root, int seat) {
    int pick = 0;
    if (sample) {
        const uint64_t h = tree_seed ^ ((uint64_t)iterations_root * 2 + (uint64_t)seat);
        if (temperature != 1.0) cfr_sharpen(avg, k, 1.0 / temperature);
        /* sbx_draw_at: where rounding leaves the sum below u it picks the
         * last move the strategy plays, never one it does not */
        pick = sbx_draw_at(avg, k, sbx_unit(cfr_mix64(cfr_mix64(h))));
    } else {
        for (int i = 1; i < k; i++) pick = avg[i] > avg[pick] ? i : pick;
    }
    return pick;
}

/* Root-stats rows (sbx_move_stat) for k moves: each move's simulations
 * and their share of all of them (0 when there are none), its value and
 * its probability in the strategy shown. */
static inline void cfr_root_rows(sbx_move_stat *out, const int *moves, const double *visits,
                                 const double *mean, const double *policy, int k) {
    double total = 0.0;
    for (int i = 0; i < k; i++) total += visits[i];
    for (int i = 0; i < k; i++) {
        out[i] = (sbx_move_stat){moves[i], (int32_t)visits[i], mean[i],
                                 total > 0.0 ? visits[i] / total : 0.0, policy[i]};
    }
}

#endif
