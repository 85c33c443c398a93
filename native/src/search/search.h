/*
 * search.h — the contract between the search API (api.c: lifecycle,
 * budgets, hot-swap, the checked public API) and the algorithms (one file
 * or family each: smitsimax.c, suct.c, joint.c, random.c, greedy.c, uct.c,
 * mcgs*.c, gtcfr.c, pubcfr.c): the search object, sbx_algo_vt and the
 * helpers every algorithm shares (inline here, the rest in search.c). An
 * algorithm implements sbx_algo_vt and keeps its trees in s->algo;
 * registry.c lists the algorithms by id. Dependencies run one way:
 * api.c -> registry.c -> an algorithm -> search.h/search.c.
 *
 * Fields are grouped by who writes them:
 *   constant for the search's life ........ vt, sizes, counts; cfg (but
 *                                            sbx_search_set_game, between
 *                                            runs on the driving thread)
 *   written by the driving thread only ..... everything else but:
 *   written by any thread .................. pending/has_pending (under
 *                                            lock), stop_flag (atomic)
 */
#ifndef SBX_SEARCH_H
#define SBX_SEARCH_H

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../core/common.h"
#include "../games/game.h"
#include "neteval.h"
#include "sbx.h"

typedef struct sbx_algo_vt sbx_algo_vt;

struct sbx_search {
    /* constant */
    const sbx_game_vt *vt;
    void *cfg;
    size_t state_size;
    int num_agents;
    int max_moves;
    int hidden;                 /* the game hides information (determinize) */

    /* driving thread */
    const sbx_algo_vt *algo_vt; /* the algorithm in force ...               */
    int32_t algo_id;            /* ... its SBX_ALGO_* (p.algorithm may be a
                                   requested one that waits for the turn)   */
    int32_t policy;             /* SBX_POLICY_* in force (likewise)         */
    void *root;                 /* root state                               */
    void *sim;                  /* scratch state for one iteration          */
    sbx_search_params p;        /* in force                                 */
    uint64_t rng;
    int64_t iterations, sim_turns, iterations_root;
    int32_t last_stop;
    void *algo;                 /* algorithm data (trees); NULL until made  */
    void *scratch;              /* reusable buffer (snapshot heap, ...)     */
    size_t scratch_cap;
    /* the value net in force (NULL: none) and the search's own evaluator
     * of it (neteval.h); s->ev.net is s->net */
    const sbx_net *net;
    sbx_neteval ev;
    int64_t net_states;         /* states the net valued, every thread's   */
    /* the last parallel run's meters (threads 0: the last run was serial) */
    int32_t run_threads;
    int64_t run_thread_iterations[SBX_MAX_THREADS];
    double run_wait_ms, run_busy_ms; /* summed over threads */

    /* any thread */
    pthread_mutex_t lock;
    int lock_ready;
    sbx_search_params pending;
    atomic_int has_pending;
    const sbx_net *pending_net; /* set_net's, under lock                  */
    atomic_int has_pending_net;
    atomic_int stop_flag;
};

struct sbx_algo_vt {
    const char *name;
    /* Refuse a game or parameters this algorithm cannot search (a message
     * naming the parameter); NULL: any. Called before create and on every
     * set_params that asks for this algorithm. */
    int (*check)(const sbx_search_params *p, const sbx_game_vt *game,
                 int num_agents, int max_moves);
    /* The most nodes one iteration may add to one of its arenas: a node_cap
     * below it is refused up front, and before every iteration each arena
     * must have that much room (else SBX_STOP_NODE_CAP). */
    int64_t (*iteration_nodes)(const sbx_search_params *p, int num_agents,
                               int max_moves);
    int (*create)(sbx_search *s);
    void (*destroy)(sbx_search *s);
    /* New params are in s->p; old ones given (e.g. node_cap changed). */
    int (*params_changed)(sbx_search *s, const sbx_search_params *old);
    /* One iteration; returns SBX_STOP_NONE, or the reason it could not run
     * (SBX_STOP_NODE_CAP). Adds the simulated turns to *turns. trace may be
     * NULL (the hot path). */
    int (*iterate)(sbx_search *s, int64_t *turns);
    int (*iterate_traced)(sbx_search *s, int64_t *turns, sbx_trace *trace);
    /* Re-root every tree after the real joint action (SBX_MOVE_NONE for
     * agents without moves); s->root already holds the new state.
     * reset_all drops every tree. */
    void (*advance)(sbx_search *s, const uint8_t *joint);
    void (*reset_all)(sbx_search *s);
    void (*best_moves)(sbx_search *s, int32_t *out);
    int (*root_stats)(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                      int *n_out);
    /* The top of the subtree under node `top` (0: the root); the algorithm
     * refuses a `top` that names no node (SBX_ERR_ARGUMENT). */
    int (*snapshot)(sbx_search *s, int agent, uint32_t top, int max_nodes,
                    int min_visits, sbx_snapshot_node *out, int *n_out);
    /* Optional (NULL: no tree below the root): the node reached from the
     * root by a move path (sbx.h's sbx_search_find_path), or -1. */
    int (*find_path)(sbx_search *s, int agent, const uint8_t *path, int steps,
                     int stride, int32_t *node_out);
    void (*fill_stats)(sbx_search *s, sbx_search_stats *out);
    int64_t (*node_count)(sbx_search *s); /* over all trees */
    /* Optional (NULL: SBX_ERR_STATE / no links): sbx.h's root matrix and
     * snapshot links; arguments already checked. */
    int (*root_matrix)(sbx_search *s, sbx_root_matrix *out);
    int (*snapshot_links)(sbx_search *s, const sbx_snapshot_node *rows, int n_rows,
                          int32_t *pairs, uint8_t *joints, int cap, int *n_out);
    /* Optional (NULL: the algorithm always runs serially): one run with
     * p.parallel != SBX_PAR_SERIAL, on p.threads C threads (the calling one
     * included), under the same budgets as the serial loop (t0: the run's
     * start). Sets *reason (SBX_STOP_*), adds the iterations and simulated
     * turns done; returns SBX_OK or an error status with its message. */
    int (*run_parallel)(sbx_search *s, int64_t max_iterations, double max_ms,
                        double t0, int64_t *iterations, int64_t *turns,
                        int *reason);
    /* Optional (NULL: nothing to do): s->net has just changed (attached,
     * detached or replaced), from the next iteration. */
    void (*net_changed)(sbx_search *s);
    /* Optional (NULL: the search keeps no public tree; pubcfr has one): the
     * state of public node `node` (its public part and the private states
     * of one of its histories) in *out, for sbx_search_pubcfr_node_state;
     * an error status when the node does not exist. */
    int (*public_state)(const sbx_search *s, int node, const void **out);
};

/* The snapshot of a search that keeps no tree, only a root row: out[0] is
 * the root (no parent, no move, visits 0), *n_out = 1; a node other than 0
 * is refused, the message saying "<algorithm> <why>" (e.g. "keeps no tree,
 * only its root (node 0)"). Random, greedy and pubcfr share it. */
int sbx_root_only_snapshot(sbx_search *s, uint32_t top, const char *why,
                           sbx_snapshot_node *out, int *n_out);

/* pubcfr.c's part of sbx_search_pubcfr_set_beliefs (api.c applies the
 * queued settings first, so a queued change cannot undo the beliefs at the
 * next run). */
int sbx_pubcfr_set_beliefs(sbx_search *s, const uint32_t *ids, const double *weights,
                           const int *n, const uint32_t *pairs, int nh);

/* The clock under a time budget: read at iteration *next, which is at most
 * time_check_interval iterations after the last read and fewer when
 * iterations are slow -- half of what the time left holds at the pace so
 * far -- so a run of long iterations (a GT-CFR expansion valuing 169 leaves
 * by rollouts, a deep MCGS playout) passes its budget by about one
 * iteration, not by time_check_interval of them. The first reads come at
 * iterations 0 and 1, before the pace is known. 1: time is up. */
static inline int sbx_time_up(int64_t it, int64_t *next, int interval, double t0,
                              double max_ms) {
    if (it < *next) return 0;
    const double el = sbx_now_ms() - t0;
    if (el >= max_ms) return 1;
    int64_t step = it > 0 ? interval : 1;
    if (it > 0 && el > 0.0) {
        const double fit = (max_ms - el) * (double)it / el / 2.0;
        if (fit < (double)step) step = fit >= 1.0 ? (int64_t)fit : 1;
    }
    *next = it + step;
    return 0;
}

/* A uniform double in [0, 1) from 64 random bits (the top 53). */
static inline double sbx_unit(uint64_t bits) { return (double)(bits >> 11) * 0x1.0p-53; }

/* A draw from the distribution p over k entries, for u in [0, 1): the index
 * where p's running sum passes u. When rounding leaves the sum at or below
 * u, the last entry with positive probability (never a move the strategy
 * does not play), or 0. The CFR searches sample their strategies with it. */
static inline int sbx_draw_at(const double *p, int k, double u) {
    double acc = 0.0;
    for (int i = 0; i < k; i++) {
        acc += p[i];
        if (u < acc) return i;
    }
    for (int i = k - 1; i > 0; i--) {
        if (p[i] > 0.0) return i;
    }
    return 0;
}

/* A uniformly random untried child, given that child i0 is the first of
 * the k with no visits (visits read through a byte stride, so every tree
 * layout shares this). Textbook UCT tries untried moves in random order;
 * index order made every search open with the same moves -- in goofspiel the
 * lowest bids first -- a bias the opponent could read off the move list. The
 * draw costs nothing once every child has been tried. */
static inline uint32_t sbx_random_untried(uint64_t *rng, const void *visits0, size_t stride,
                                          int i0, int k) {
    const unsigned char *v = (const unsigned char *)visits0;
#define SBX_VISITS_AT(i) (*(const uint32_t *)(const void *)(v + (size_t)(i) * stride))
    uint32_t untried = 0;
    for (int i = i0; i < k; i++) untried += SBX_VISITS_AT(i) == 0;
    uint32_t r = sbx_rng_below(rng, untried);
    for (int i = i0; i < k; i++) {
        if (SBX_VISITS_AT(i) == 0 && r-- == 0) return (uint32_t)i;
    }
#undef SBX_VISITS_AT
    return (uint32_t)i0;   /* not reached: child i0 is untried */
}

/* One step of a UCB argmax: (best, best_v) <- (i, v) when v > best_v
 * (strictly: ties keep the earlier child; a NaN never wins). Which child
 * wins is data, a coin flip to the branch predictor, and gcc keeps a branch
 * for the plain if even when told it is unpredictable; on x86-64 this is a
 * compare and a conditional move instead: measured 11% faster on the
 * snakes headline (bench.search_run, same trees), where the mispredicted
 * argmax branches were the largest cost left in selection. */
static inline __attribute__((always_inline)) void sbx_keep_max(uint32_t *best, double *best_v,
                                                                uint32_t i, double v) {
#if defined(__x86_64__) && defined(__SSE2__)
    uint32_t b = *best;
    /* comisd: "above" only when v > best_v (unordered sets CF and ZF) */
    __asm__("comisd %[bv], %[v]\n\tcmova %[i], %[b]"
            : [b] "+r"(b)
            : [v] "x"(v), [bv] "x"(*best_v), [i] "r"(i)
            : "cc");
    *best = b;
    *best_v = v > *best_v ? v : *best_v;
#else
    if (v > *best_v) {
        *best_v = v;
        *best = i;
    }
#endif
}

/* sbx_keep_max with exact ties broken uniformly at random: each tie is a
 * reservoir draw (the t-th equal value wins with probability 1/t), so no
 * draw is made while the values differ. Smitsimax and joint-action MCTS need
 * it (joint's per-agent marginals are alike in the same way): the two trees of
 * a symmetric position (goofspiel after tied bids: the same hands, the same
 * points) hold the same statistics, and with ties kept by index both trees
 * picked the same child at every step, so only equal joint moves were ever
 * simulated and every move looked a draw. `ties` starts at 1 with `best`. */
static inline __attribute__((always_inline)) void sbx_keep_max_fair(uint32_t *best,
                                                                     double *best_v,
                                                                     uint32_t *ties,
                                                                     uint64_t *rng,
                                                                     uint32_t i, double v) {
    if (__builtin_expect(v == *best_v, 0)) {
        if (sbx_rng_below(rng, ++*ties) == 0) *best = i;
        return;
    }
    sbx_keep_max(best, best_v, i, v);
    *ties = *best == i ? 1u : *ties;
}

/* Starts one iteration's simulation: the root state copied into s->sim and
 * reseeded from the search's RNG, so chance events differ between
 * iterations. Returns the seed (a trace records it: replaying the joint
 * actions on the root reseeded with it reproduces the simulation). */
static inline uint64_t sbx_sim_begin(sbx_search *s) {
    memcpy(s->sim, s->root, s->state_size);
    const uint64_t seed = sbx_rng_next(&s->rng);
    s->vt->reseed(s->sim, seed);
    return seed;
}

/* The seat a determinized search samples for (params info_seat, -1 =
 * agent 0). */
static inline int sbx_info_seat(const sbx_search_params *p) {
    return p->info_seat < 0 ? 0 : p->info_seat;
}

/* On a hidden-information game, replaces the iteration's state (already a
 * copy of the root) by one drawn from the info seat's information set: one
 * determinization per iteration. search.c has tried it on the root when the
 * search was made; should the game refuse later, the copy of the root
 * stays. */
static inline void sbx_sim_determinize(sbx_search *s, void *sim, uint64_t *rng) {
    if (s->hidden) (void)s->vt->determinize(s->cfg, sim, sbx_info_seat(&s->p), rng, sim);
}

/* UCB's score normalisation (tutorial §7): the scale of the running range
 * [*lo, hi]; 1 while it is a point or empty, and *lo becomes 0 before any
 * score was seen (lo = +INF, hi = -INF). */
static inline double sbx_norm_scale(double *lo, double hi) {
    double scale = hi - *lo;
    if (!(scale > 0.0)) {
        scale = 1.0;
        if (!(*lo <= hi)) *lo = 0.0;
    }
    return scale;
}

/* Decoupled PUCT, one player's bandit over its children (joint's marginals,
 * SUCT's levels, Smitsimax's trees; MCGS and the CFR searches have their
 * own): score = Q + c_puct * P * sqrt(N) / (1 + n), Q the child's mean
 * normalised to [0, 1], P its prior, n its visits, N the children's. A
 * child not yet tried takes the first-play urgency: the tried children's
 * mean, less fpu_offset (assumed a little worse than what was tried).
 * sbx_puct_begin computes what is per parent (the urgency and
 * c_puct * sqrt(N), N at least 1 so the priors order the first visit). */
typedef struct sbx_puct {
    double fpu, u;
} sbx_puct;

static inline sbx_puct sbx_puct_begin(const sbx_search_params *p, uint32_t visits,
                                      double mean) {
    sbx_puct r;
    /* mean: the tried children's mean, normalised as their Q is (each
     * caller normalises in its own way, so the bits match its Q's) */
    r.fpu = visits ? mean - p->fpu_offset : 0.0;
    r.u = p->c_puct * sqrt((double)(visits ? visits : 1));
    return r;
}

static inline double sbx_puct_score(const sbx_puct *pc, double q, double prior,
                                    uint32_t visits) {
    return (visits ? q : pc->fpu) + pc->u * prior / (1.0 + visits);
}

/* The relative_scores setting: each agent's score becomes its own minus the
 * mean of the others' (v_i - mean_{j != i} v_j = (n v_i - sum) / (n - 1)),
 * so the scores of a duel add to 0 as the match's result does, whatever
 * the game's evaluation credits each agent with on its own. */
static inline void sbx_relative_scores(double *scores, int n) {
    if (n < 2) return;
    double sum = 0.0;
    for (int a = 0; a < n; a++) sum += scores[a];
    for (int a = 0; a < n; a++) scores[a] = ((double)n * scores[a] - sum) / (double)(n - 1);
}

/* The value net's values of a non-terminal state for every agent, asked on
 * evaluator ev (the search's own, s->ev, or a parallel worker's); the
 * game's evaluation when the batch cannot grow or a hand has no slot in the
 * net (search.c). */
void sbx_search_net_evaluate(const sbx_search *s, sbx_neteval *ev, const void *state,
                             double *scores);

/* Every search that reads `priors` refuses heuristic ones on a game
 * without move scores (its vtable check calls this): SBX_OK or the error. */
int sbx_priors_check(const sbx_search_params *p, const sbx_game_vt *game);

/* Agent's PUCT priors over its k legal moves at state without a net:
 * priors=heuristic, the softmax of the game's move scores over
 * prior_temperature (uniform when the game gives none); else uniform. */
void sbx_search_move_priors(const sbx_search *s, const void *state, int agent, int k,
                            double *out);

/* The value net's pass over state alone on ev (row 0; each seat's own
 * hand as its belief, as sbx_search_net_evaluate asks): 1 when ev now
 * holds its outputs, 0 without a net, out of memory or for a hand the net
 * has no slot for. */
int sbx_search_net_pass(const sbx_search *s, sbx_neteval *ev, const void *state);

/* One agent's priors over its k moves at state: 1 for an agent whose one
 * move is SBX_MOVE_NONE; with priors=net and have_pass (ev's row 0 holds
 * state's pass) the softmax of its policy head over the moves; otherwise
 * sbx_search_move_priors. */
void sbx_search_agent_priors(const sbx_search *s, const sbx_neteval *ev, int have_pass,
                             const void *state, int agent, int k, const uint8_t *moves,
                             double *out);

/* Would the priors a tree set at expansion differ under p from old: the
 * kind, or the temperature heuristic priors read? */
static inline int sbx_priors_changed(const sbx_search_params *p,
                                     const sbx_search_params *old) {
    return p->priors != old->priors ||
           (p->priors == SBX_PRIORS_HEURISTIC && p->prior_temperature != old->prior_temperature);
}

/* Every agent's priors at state (sbx_search_agent_priors), with one net
 * pass for all. */
void sbx_search_priors(const sbx_search *s, sbx_neteval *ev, const void *state,
                       const int *k, const uint8_t (*moves)[SBX_MAX_MOVES],
                       double (*out)[SBX_MAX_MOVES]);

/* Every leaf score Smitsimax, SUCT and joint back up comes from here: the
 * game's evaluation, or with a value_net the net's values of a state that
 * is not terminal (a terminal state's evaluation is its result, which no
 * net improves); then relative_scores. (MCGS batches its net queries and
 * has its own, mcgs_graph.h.) */
FORCE_INLINE void sbx_search_evaluate_on(const sbx_search *s, sbx_neteval *ev,
                                         const void *state, double *scores) {
    if (s->net && !s->vt->is_terminal(s->cfg, state)) {
        sbx_search_net_evaluate(s, ev, state, scores);
    } else {
        s->vt->evaluate(s->cfg, state, scores);
    }
    if (s->p.relative_scores) sbx_relative_scores(scores, s->num_agents);
}

/* The same on the search's own evaluator: the serial run (a parallel
 * worker asks on its own, as one evaluator's batch cannot be shared). */
FORCE_INLINE void sbx_search_evaluate(const sbx_search *s, const void *state,
                                      double *scores) {
    sbx_search_evaluate_on(s, (sbx_neteval *)&s->ev, state, scores);
}

/* A scratch buffer of at least `bytes`, reused between calls. */
void *sbx_search_scratch(sbx_search *s, size_t bytes);

/* Parallel runs (smitsimax_parallel.c, mcgs_parallel.c) --------------------------- */

/* Stops a parallel run's workers: the first reason given wins. */
static inline void sbx_par_stop(int *reason, int *done, int why) {
    int none = SBX_STOP_NONE;
    __atomic_compare_exchange_n(reason, &none, why, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    __atomic_store_n(done, 1, __ATOMIC_RELEASE);
}

/* Waits for `cond`, yielding the core after a short spin (the machine may
 * have fewer free cores than workers), and adds the time to *wait_ms. */
#define SBX_WAIT_UNTIL(cond, wait_ms)                               \
    do {                                                            \
        if (!(cond)) {                                              \
            const double w0_ = sbx_now_ms();                        \
            for (int spin_ = 0; !(cond); spin_++) {                 \
                if (spin_ > 64) sched_yield();                      \
            }                                                       \
            *(wait_ms) += sbx_now_ms() - w0_;                       \
        }                                                           \
    } while (0)

#endif
