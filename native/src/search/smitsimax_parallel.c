/*
 * smitsimax_parallel.c — Smitsimax's parallel modes: sbx_search_run with
 * parallel != serial (api.c calls the vtable's run_parallel).
 *
 * Each of `threads` workers (worker 0 is the calling thread) loops over
 * whole iterations itself: select, simulate, back up. WU-UCT (Liu et al.
 * 2020) has a master that selects and backs up while workers only
 * simulate, because its simulations (Atari emulator rollouts) cost far
 * more than the tree work; ours cost a few microseconds, so a master
 * would be the bottleneck. What we keep is the paper's statistic: every
 * node counts the simulations selected through it and not yet backed up,
 * O (the "incomplete update", +1 at selection in every agent's tree, -1 at
 * the "complete update" after the backup), and selection reads it.
 *
 * Smitsimax already counts a visit when a node is selected (tutorial §7),
 * so a node's `visits` is the paper's N + O and `visits - O` its completed
 * count N:
 *   wu_uct  value = total / N (completed simulations only), exploration
 *           C sqrt(ln(N_parent + O_parent)) / sqrt(N + O): the paper's rule;
 *   tree    each in-flight simulation counts as virtual_loss visits of the
 *           worst normalised value: n' = N + vl O, value = (total - lo N) /
 *           (scale n'), exploration C sqrt(ln n'_parent) / sqrt(n');
 *   root    no sharing: a tree set per worker, its own seed; the root's
 *           children are merged (visits, totals) for the move and stats;
 *   leaf    one worker selects; at the point where every live agent has
 *           left its tree (rollout on), the other workers play a rollout
 *           each from that state, and all are backed up.
 * With O = 0 (one thread) every formula is the serial one, and the serial
 * code's RNG draws happen in the same order: threads = 1 gives the serial
 * search's result in every mode (tests/native/test_parallel.py).
 *
 * Shared trees: no lock. Counts and totals are updated with atomics
 * (relaxed: they are statistics; a reader may see a total one backup
 * behind its count), a node is expanded by the worker that wins a CAS of
 * its first_child from 0 to CLAIM (the others wait for the block to be
 * published with a release store), and child blocks come from the
 * worker's own chunk of the arena (see chunk_ready: the order rule, a
 * block after its parent, is kept).
 */
#include "smitsimax_parallel.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "smitsimax_iterate.h"

#define CLAIM UINT32_MAX
#define LD(ptr) __atomic_load_n((ptr), __ATOMIC_RELAXED)
#define ADD(ptr, v) __atomic_fetch_add((ptr), (v), __ATOMIC_RELAXED)

static inline double ld_double(double *p) {
    double v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}
static inline void add_double(double *p, double v) {
    double old = ld_double(p), nv;
    do {
        nv = old + v;
    } while (!__atomic_compare_exchange(p, &old, &nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}
static inline void min_double(double *p, double v) {
    double old = ld_double(p);
    while (v < old &&
           !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
static inline void max_double(double *p, double v) {
    double old = ld_double(p);
    while (v > old &&
           !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* visits + 1 and O + 1 in one atomic add: the two 32-bit counts are
 * adjacent at an 8-aligned offset (visits never nears 2^32, so no carry
 * crosses into O). */
_Static_assert(offsetof(smx_node, inflight) == offsetof(smx_node, visits) + 4 &&
                   offsetof(smx_node, visits) % 8 == 0,
               "visits and the in-flight count must share one 8-aligned word");
static inline void select_count(smx_node *n) {
    __atomic_fetch_add((uint64_t *)(void *)&n->visits,
                       (uint64_t)1 | ((uint64_t)1 << 32), __ATOMIC_RELAXED);
}

typedef struct par_run par_run;

typedef struct par_worker {
    par_run *run;
    int id;
    uint64_t rng;
    void *sim;
    smx_tree *trees;     /* its tree set: x->t, or root parallelism's own  */
    sbx_neteval *ev;     /* its value-net batches: the search's own for
                            worker 0, x->wev[j] for helper j              */
    int64_t iterations, turns;
    double wait_ms, busy_ms;
    double root_total[SBX_MAX_AGENTS]; /* workers >= 1: backed up at the roots,
                                          added after the run (see below) */
    uint32_t chunk_pos[SBX_MAX_AGENTS], chunk_end[SBX_MAX_AGENTS]; /* its
                                          own slice of each shared arena */
    pthread_t thread;
    int started;
    char pad[128]; /* neighbours' counters on other cache lines */
} par_worker;

/* leaf parallelism: one rollout job per iteration, handed from worker 0 */
typedef struct leaf_job {
    int depth;                            /* turns already simulated      */
    uint8_t alive[SBX_MAX_AGENTS], frozen[SBX_MAX_AGENTS];
    int leaf_depth[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
} leaf_job;

typedef struct leaf_result {
    int depth;                            /* turns simulated in all       */
    uint8_t frozen[SBX_MAX_AGENTS];
    int leaf_depth[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
} leaf_result;

struct par_run {
    sbx_search *s;
    int mode, nthreads;
    int64_t max_iterations;
    double max_ms, t0;
    uint32_t need;               /* arena room one iteration may take, per
                                    tree                                    */
    char pad0[128];
    int64_t claimed;             /* iterations handed out (atomic)         */
    char pad1[128];              /* bumped each iteration: a line alone    */
    int done;                    /* atomic: workers stop                   */
    int reason;                  /* atomic: the first stop reason          */
    /* leaf */
    void *leaf_state;            /* the state at the leaf point            */
    leaf_job job;
    int job_gen;                 /* atomic: bumped when a job is posted    */
    int job_left;                /* atomic: helpers still rolling out      */
    int job_claim[SBX_MAX_THREADS]; /* atomic: slot j's rollout taken (by
                                   helper j, or by worker 0 when helper j
                                   has not started it: a helper that lost
                                   its core does not stall the iteration) */
    leaf_result results[SBX_MAX_THREADS];
    par_worker w[SBX_MAX_THREADS];
};

static void par_stop(par_run *r, int reason) {
    sbx_par_stop(&r->reason, &r->done, reason);
}

/* Node allocation on a shared arena. Each worker bump-allocates from its
 * own chunk (taken from the arena's end with one CAS before an iteration),
 * so expansions do not fight over `used`. The arena's order rule (a block
 * after its parent: re-rooting relies on it) holds because a block goes in
 * the chunk only when the chunk lies after the parent; a parent made by
 * another worker in a later chunk gets its block from the arena's end with
 * an atomic add (rare). Room: before every iteration each worker needs
 * room for one iteration in its chunk AND need x threads at the arena's
 * end (the direct adds all workers' current iterations may make); a chunk
 * never takes that reserve. With one thread the chunk is the whole free
 * arena and no block is ever added directly: the serial layout. */
#define CHUNK_NODES 4096u

static int chunk_ready(par_run *r, par_worker *w, smx_tree *t, int a) {
    const uint32_t need = r->need;
    const uint32_t reserve = r->nthreads > 1 ? need * (uint32_t)r->nthreads : 0;
    uint32_t old = __atomic_load_n(&t->used, __ATOMIC_RELAXED);
    if (w->chunk_end[a] - w->chunk_pos[a] >= need) {
        return t->cap - old >= reserve;
    }
    for (;;) {
        if (t->cap - old < need + reserve) return 0;
        uint32_t take = r->nthreads > 1 ? CHUNK_NODES : t->cap - old;
        if (take > t->cap - old - reserve) take = t->cap - old - reserve;
        if (take < need) take = need;
        if (__atomic_compare_exchange_n(&t->used, &old, old + take, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            w->chunk_pos[a] = old; /* the old chunk's tail is left unused */
            w->chunk_end[a] = old + take;
            return 1;
        }
    }
}

static inline uint32_t node_alloc(par_worker *w, smx_tree *t, int a, uint32_t parent,
                                  uint32_t k) {
    if (w->chunk_pos[a] > parent) {
        const uint32_t first = w->chunk_pos[a];
        w->chunk_pos[a] += k;
        return first;
    }
    return ADD(&t->used, k);
}

/* Gives the unused tail of the worker's chunk back if it is the arena's
 * end (always with one thread: its arena ends where the serial one would). */
static void chunk_return(par_worker *w, smx_tree *t, int a) {
    uint32_t end = w->chunk_end[a];
    if (end > w->chunk_pos[a]) {
        __atomic_compare_exchange_n(&t->used, &end, w->chunk_pos[a], 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED);
    }
    w->chunk_pos[a] = w->chunk_end[a] = 0;
}

/* The first child of `idx`, expanding it with `k` moves if this worker is
 * the first to get there (*expanded = 1). */
static uint32_t shared_expand(par_worker *w, smx_tree *t, int a, uint32_t idx,
                              const uint8_t *moves, int k, int *expanded, double *wait_ms) {
    smx_node *nd = &t->nodes[idx];
    uint32_t first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE);
    *expanded = 0;
    if (first == 0) {
        uint32_t zero = 0;
        if (__atomic_compare_exchange_n(&nd->first_child, &zero, CLAIM, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE)) {
            first = node_alloc(w, t, a, idx, (uint32_t)k);
            const uint8_t depth = (uint8_t)(nd->depth + 1);
            for (int i = 0; i < k; i++) {
                smx_node *c = &t->nodes[first + (uint32_t)i];
                memset(c, 0, sizeof *c);
                c->move = moves[i];
                c->depth = depth;
            }
            __atomic_store_n(&nd->nchildren, (uint8_t)k, __ATOMIC_RELAXED);
            __atomic_store_n(&nd->first_child, first, __ATOMIC_RELEASE);
            *expanded = 1;
            return first;
        }
        first = zero;
    }
    if (first == CLAIM) {
        SBX_WAIT_UNTIL((first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE)) != CLAIM,
                       wait_ms);
    }
    return first;
}

static uint32_t shared_pass(par_worker *w, smx_tree *t, int a, uint32_t idx,
                            double *wait_ms) {
    smx_node *nd = &t->nodes[idx];
    uint32_t c = __atomic_load_n(&nd->pass_child, __ATOMIC_ACQUIRE);
    if (c == 0) {
        uint32_t zero = 0;
        if (__atomic_compare_exchange_n(&nd->pass_child, &zero, CLAIM, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE)) {
            c = node_alloc(w, t, a, idx, 1u);
            smx_node *n = &t->nodes[c];
            memset(n, 0, sizeof *n);
            n->move = SBX_MOVE_NONE;
            n->flags = SBX_NODE_PASS;
            n->depth = (uint8_t)(nd->depth + 1);
            __atomic_store_n(&nd->pass_child, c, __ATOMIC_RELEASE);
            return c;
        }
        c = zero;
    }
    if (c == CLAIM) {
        SBX_WAIT_UNTIL((c = __atomic_load_n(&nd->pass_child, __ATOMIC_ACQUIRE)) != CLAIM,
                       wait_ms);
    }
    return c;
}

static inline int shared_doomed(smx_node *c, int min_visits) {
    const uint8_t f = LD(&c->flags);
    return (f & SBX_NODE_DOOMED) ||
           ((f & (SBX_NODE_DIED | SBX_NODE_SURVIVED)) == SBX_NODE_DIED &&
            LD(&c->visits) >= (uint32_t)min_visits);
}

static inline void shared_norm(smx_tree *t, int mode, int depth, double *lo, double *scale) {
    double hi;
    if (mode == SBX_BOUNDS_DEPTH) {
        *lo = ld_double(&t->dmin[depth]);
        hi = ld_double(&t->dmax[depth]);
    } else {
        *lo = ld_double(&t->smin);
        hi = ld_double(&t->smax);
    }
    *scale = sbx_norm_scale(lo, hi);
}

/* select_ucb (UCB1, backup mean) on a shared tree; see the banner for how
 * wu_uct and tree read the in-flight count O. */
static uint32_t shared_select(smx_tree *t, uint32_t cur, uint32_t first, int k,
                              const sbx_search_params *p, uint64_t *rng, int mode,
                              uint32_t fatal) {
    smx_node *node = &t->nodes[cur];
    smx_node *ch = &t->nodes[first];
    const uint32_t pv = LD(&node->visits);
    if (pv < (uint32_t)p->random_threshold) {
        if (p->death_penalty || fatal) { /* as select_ucb */
            int ok[SBX_MAX_MOVES], safe[SBX_MAX_MOVES], m = 0, ms = 0;
            for (int i = 0; i < k; i++) {
                if ((fatal >> ch[i].move) & 1u) continue;
                safe[ms++] = i;
                if (!(p->death_penalty && shared_doomed(&ch[i], p->death_min_visits))) {
                    ok[m++] = i;
                }
            }
            if (m > 0 && m < k) return first + (uint32_t)ok[sbx_rng_below(rng, (uint32_t)m)];
            if (ms > 0 && ms < k) return first + (uint32_t)safe[sbx_rng_below(rng, (uint32_t)ms)];
        }
        return first + sbx_rng_below(rng, (uint32_t)k);
    }
    if (fatal) { /* as select_ucb: the safe untried children first */
        int untried[SBX_MAX_MOVES], m = 0;
        for (int i = 0; i < k; i++) {
            if (!((fatal >> ch[i].move) & 1u) && LD(&ch[i].visits) == 0) untried[m++] = i;
        }
        if (m > 0) return first + (uint32_t)untried[sbx_rng_below(rng, (uint32_t)m)];
    }
    double lo, scale;
    shared_norm(t, p->bounds, node->depth + 1, &lo, &scale);
    const double inv_scale = 1.0 / scale;
    const double vl = p->virtual_loss;
    double explore = p->c * sqrt_ln_n(pv);
    if (mode == SBX_PAR_TREE) {
        const uint32_t po = LD(&t->nodes[cur].inflight[0]);
        if (po) {
            double pn = (double)(int64_t)(pv - po) + vl * (double)po;
            explore = p->c * sqrt(log(pn > 1.0 ? pn : 1.0));
        }
    }
    uint32_t best = first, ties = 1;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        smx_node *c = &ch[i];
        if (fatal && ((fatal >> c->move) & 1u)) continue;
        const uint32_t cv = LD(&c->visits);
        if (cv == 0) {
            /* sbx_random_untried with atomic reads: the same draw as the
             * serial search; a child another worker visited since still
             * counts as untried once, for child i */
            int untried[SBX_MAX_MOVES], m = 0;
            for (int j = i; j < k; j++) {
                if (j == i || LD(&ch[j].visits) == 0) untried[m++] = j;
            }
            return first + (uint32_t)untried[sbx_rng_below(rng, (uint32_t)m)];
        }
        const uint32_t o = LD(&t->nodes[first + (uint32_t)i].inflight[0]);
        const double total = ld_double(&c->total);
        double v;
        if (o == 0) { /* the serial formula, bit for bit */
            v = (total / (double)cv - lo) * inv_scale + explore * rsqrt_n(cv);
        } else {
            const double nc = (double)(int64_t)(cv - o); /* completed */
            if (mode == SBX_PAR_WU_UCT) {
                const double mean = nc > 0.0 ? (total / nc - lo) * inv_scale : 0.0;
                v = mean + explore * rsqrt_n(cv);
            } else {
                const double nv = (nc > 0.0 ? nc : 0.0) + vl * (double)o;
                if (!(nv > 0.0)) return first + (uint32_t)i; /* vl 0, all in flight */
                v = (nc > 0.0 ? (total - lo * nc) * inv_scale : 0.0) / nv +
                    explore / sqrt(nv);
            }
        }
        if (p->death_penalty && shared_doomed(c, p->death_min_visits)) {
            v -= p->death_penalty_value;
        }
        sbx_keep_max_fair(&best, &best_v, &ties, rng, first + (uint32_t)i, v);
    }
    return best;
}

static void leaf_rollout(par_run *r, par_worker *w, int slot);

/* One iteration of the serial loop (UCB1, backup mean) on shared trees, or,
 * for leaf parallelism on worker 0, with the other workers' rollouts. */
static int shared_iterate(par_run *r, par_worker *w) {
    sbx_search *s = r->s;
    smx_tree *trees = w->trees;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents, mode = r->mode;
    const int leaf = mode == SBX_PAR_LEAF;
    for (int a = 0; a < n; a++) {
        if (!chunk_ready(r, w, &trees[a], a)) return SBX_STOP_NODE_CAP;
    }
    void *sim = w->sim;
    uint64_t *rng = &w->rng;
    memcpy(sim, s->root, s->state_size);
    vt->reseed(sim, sbx_rng_next(rng));

    uint32_t path[SBX_MAX_AGENTS][SBX_MAX_DEPTH + 1];
    int plen[SBX_MAX_AGENTS], leaf_depth[SBX_MAX_AGENTS];
    uint8_t in_tree[SBX_MAX_AGENTS], alive[SBX_MAX_AGENTS], frozen[SBX_MAX_AGENTS];
    uint32_t step_node[SBX_MAX_AGENTS];
    double score[SBX_MAX_AGENTS];
    uint8_t joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    const int safe = p->safe_moves && vt->fatal_moves != NULL;
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    if (vt->fixed_moves) {
        for (int m = 0; m < s->max_moves; m++) moves[m] = (uint8_t)m;
    }
    for (int a = 0; a < n; a++) {
        /* The root line is the one every iteration of every worker writes:
         * it gets the visit only. Its own O is not kept (nothing reads it:
         * tree mode's parent count at the root is its visits, N+O), and
         * its total, which selection never reads, is summed per worker
         * and added after the run (worker 0 adds at once, as the serial
         * search does, so one thread stays bit-identical). */
        ADD(&trees[a].nodes[0].visits, 1u);
        path[a][0] = 0;
        plen[a] = 1;
        alive[a] = (uint8_t)((vt->alive_mask(cfg, sim) >> a) & 1u);
        in_tree[a] = (uint8_t)(alive[a] || !freeze);
        frozen[a] = 0;
    }
    /* leaf: plens at the leaf point (helpers back up this common part) */
    int leaf_plen[SBX_MAX_AGENTS];
    int helpers = 0;

    int depth = 0;
    for (int d = 0; d < p->max_depth; d++) {
        if (leaf && !helpers && r->nthreads > 1) {
            int any = 0;
            for (int a = 0; a < n; a++) any |= alive[a] && in_tree[a];
            if (!any) { /* the leaf point: post the rollouts */
                memcpy(r->leaf_state, sim, s->state_size);
                r->job.depth = d;
                for (int a = 0; a < n; a++) {
                    r->job.alive[a] = alive[a];
                    r->job.frozen[a] = frozen[a];
                    r->job.leaf_depth[a] = frozen[a] ? leaf_depth[a] : 0;
                    r->job.score[a] = frozen[a] ? score[a] : 0.0;
                    leaf_plen[a] = plen[a];
                }
                helpers = r->nthreads - 1;
                /* job_left BEFORE the slots open: a helper still waking for
                 * an earlier job (which worker 0 rolled out itself) can claim
                 * a slot the moment it reopens, ahead of the job_gen bump,
                 * and its decrement must find the count already set. With
                 * the count stored after the slots, that decrement could land
                 * first and be overwritten: worker 0 then waited for a count
                 * that never fell, the helper for a job that never came (a
                 * hang found by a 100-game series at 5 ms a turn). The
                 * release store of each slot publishes the job and the
                 * count to the CAS (acquire) that claims it. */
                __atomic_store_n(&r->job_left, helpers, __ATOMIC_RELAXED);
                for (int h = 1; h <= helpers; h++) {
                    __atomic_store_n(&r->job_claim[h], 0, __ATOMIC_RELEASE); /* after the job */
                }
                __atomic_fetch_add(&r->job_gen, 1, __ATOMIC_RELEASE);
            }
        }
        for (int a = 0; a < n; a++) {
            smx_tree *t = &trees[a];
            step_node[a] = 0;
            int k = !alive[a]         ? 0
                    : vt->fixed_moves ? s->max_moves
                                      : vt->legal_moves(cfg, sim, a, moves);
            uint32_t fatal = 0;
            if (k > 0 && safe) {
                fatal = vt->fatal_moves(cfg, sim, a);
                if (all_fatal(fatal, moves, k)) fatal = 0;
            }
            if (k == 0) {
                joint[a] = SBX_MOVE_NONE;
                if (in_tree[a]) {
                    uint32_t c = shared_pass(w, t, a, path[a][plen[a] - 1], &w->wait_ms);
                    select_count(&t->nodes[c]);
                    path[a][plen[a]++] = c;
                }
            } else if (in_tree[a]) {
                uint32_t cur = path[a][plen[a] - 1];
                int expanded;
                uint32_t first = shared_expand(w, t, a, cur, moves, k, &expanded, &w->wait_ms);
                uint32_t c = shared_select(t, cur, first, LD(&t->nodes[cur].nchildren), p,
                                           rng, mode, fatal);
                select_count(&t->nodes[c]);
                joint[a] = t->nodes[c].move;
                path[a][plen[a]++] = c;
                step_node[a] = c;
                if (p->rollout && expanded) in_tree[a] = 0;
            } else {
                joint[a] = fatal ? random_safe(rng, moves, k, fatal)
                                 : moves[sbx_rng_below(rng, (uint32_t)k)];
            }
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        int newly_frozen = 0;
        const uint32_t alive_now = vt->alive_mask(cfg, sim);
        for (int a = 0; a < n; a++) {
            if (!alive[a]) continue;
            int now = (int)((alive_now >> a) & 1u);
            if (step_node[a]) { /* written only when it changes: a hot line */
                uint8_t *f = &trees[a].nodes[step_node[a]].flags;
                const uint8_t bit = (uint8_t)(now ? SBX_NODE_SURVIVED : SBX_NODE_DIED);
                if (!(LD(f) & bit)) __atomic_fetch_or(f, bit, __ATOMIC_RELAXED);
            }
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
            double at_death[SBX_MAX_AGENTS];
            sbx_search_evaluate_on(s, w->ev, sim, at_death);
            for (int a = 0; a < n; a++) {
                if (frozen[a] == 1) {
                    score[a] = at_death[a];
                    frozen[a] = 2;
                }
            }
        }
        if (vt->is_terminal(cfg, sim)) break;
    }
    w->turns += depth;

    double final_scores[SBX_MAX_AGENTS];
    sbx_search_evaluate_on(s, w->ev, sim, final_scores); /* the leaf */
    for (int a = 0; a < n; a++) {
        if (!frozen[a]) {
            score[a] = final_scores[a];
            leaf_depth[a] = depth;
        }
        if (p->depth_normalize) score[a] /= (double)(leaf_depth[a] > 1 ? leaf_depth[a] : 1);
    }
    for (int h = 1; h <= helpers; h++) { /* rollouts no helper has started */
        int free_slot = 0;
        if (__atomic_compare_exchange_n(&r->job_claim[h], &free_slot, 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            leaf_rollout(r, w, h);
            __atomic_fetch_sub(&r->job_left, 1, __ATOMIC_RELEASE);
        }
    }
    if (helpers) {
        SBX_WAIT_UNTIL(__atomic_load_n(&r->job_left, __ATOMIC_ACQUIRE) == 0, &w->wait_ms);
    }
    const double gamma = p->gamma;
    for (int h = 0; h <= helpers; h++) {
        const double *sc = score;
        const int *ld = leaf_depth;
        const int *pl = plen;
        if (h > 0) {
            const leaf_result *lr = &r->results[h];
            w->turns += lr->depth - r->job.depth;
            sc = lr->score;
            ld = lr->leaf_depth;
            pl = leaf_plen;
        }
        for (int a = 0; a < n; a++) {
            smx_tree *t = &trees[a];
            min_double(&t->smin, sc[a]);
            max_double(&t->smax, sc[a]);
            double v = sc[a];
            for (int k = ld[a] - t->nodes[path[a][pl[a] - 1]].depth; k > 0; k--) v *= gamma;
            for (int k = pl[a] - 1; k >= 0; k--) {
                smx_node *nd = &t->nodes[path[a][k]];
                if (h > 0) ADD(&nd->visits, 1u); /* each rollout is a visit */
                if (k == 0 && w->id > 0) w->root_total[a] += v;
                else add_double(&nd->total, v);
                if (p->bounds == SBX_BOUNDS_DEPTH) {
                    min_double(&t->dmin[k], v);
                    max_double(&t->dmax[k], v);
                }
                v *= gamma;
            }
        }
    }
    for (int a = 0; a < n; a++) {
        smx_tree *t = &trees[a];
        /* the complete update: this simulation is no longer in flight */
        for (int k = plen[a] - 1; k >= 1; k--) {
            __atomic_fetch_sub(&t->nodes[path[a][k]].inflight[0], 1u, __ATOMIC_RELEASE);
        }
        for (int k = plen[a] - 2; k >= 0; k--) {
            smx_node *nd = &t->nodes[path[a][k]];
            smx_node *onpath = &t->nodes[path[a][k + 1]];
            const int kids = LD(&nd->nchildren);
            const uint32_t first = __atomic_load_n(&nd->first_child, __ATOMIC_ACQUIRE);
            int all = kids > 0 && first != CLAIM &&
                      ((LD(&onpath->flags) & SBX_NODE_PASS) ||
                       shared_doomed(onpath, p->death_min_visits));
            for (int i = 0; all && i < kids; i++) {
                all = shared_doomed(&t->nodes[first + (uint32_t)i], p->death_min_visits);
            }
            const uint8_t f = LD(&nd->flags);
            if (all && !(f & SBX_NODE_DOOMED)) {
                __atomic_fetch_or(&nd->flags, (uint8_t)SBX_NODE_DOOMED, __ATOMIC_RELAXED);
            } else if (!all && (f & SBX_NODE_DOOMED)) {
                __atomic_fetch_and(&nd->flags, (uint8_t)~SBX_NODE_DOOMED, __ATOMIC_RELAXED);
            }
        }
        int32_t leafd = t->nodes[path[a][plen[a] - 1]].depth;
        int32_t old = LD(&t->depth_reached);
        while (leafd > old && !__atomic_compare_exchange_n(&t->depth_reached, &old, leafd, 1,
                                                           __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    }
    return SBX_STOP_NONE;
}

/* Leaf helper: the rest of the simulation from the posted leaf state,
 * random moves for the live agents (they are all out of their trees). */
static void leaf_rollout(par_run *r, par_worker *w, int slot) {
    sbx_search *s = r->s;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    const int freeze = p->elimination == SBX_ELIM_FREEZE;
    leaf_result *res = &r->results[slot];
    const leaf_job *job = &r->job;
    void *sim = w->sim;
    memcpy(sim, r->leaf_state, s->state_size);
    vt->reseed(sim, sbx_rng_next(&w->rng)); /* its own chance events */
    uint8_t alive[SBX_MAX_AGENTS], joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    for (int a = 0; a < n; a++) {
        alive[a] = job->alive[a];
        res->frozen[a] = job->frozen[a];
        res->leaf_depth[a] = job->leaf_depth[a];
        res->score[a] = job->score[a];
    }
    int depth = job->depth;
    for (int d = job->depth; d < p->max_depth && !vt->is_terminal(cfg, sim); d++) {
        for (int a = 0; a < n; a++) {
            int k = alive[a] ? vt->legal_moves(cfg, sim, a, moves) : 0;
            uint32_t fatal = 0;
            if (k > 0 && p->safe_moves && vt->fatal_moves) {
                fatal = vt->fatal_moves(cfg, sim, a);
                if (all_fatal(fatal, moves, k)) fatal = 0;
            }
            joint[a] = !k     ? SBX_MOVE_NONE
                       : fatal ? random_safe(&w->rng, moves, k, fatal)
                               : moves[sbx_rng_below(&w->rng, (uint32_t)k)];
        }
        vt->step(cfg, sim, joint, NULL);
        depth = d + 1;
        const uint32_t alive_now = vt->alive_mask(cfg, sim);
        int newly = 0;
        for (int a = 0; a < n; a++) {
            if (alive[a] && !((alive_now >> a) & 1u)) {
                alive[a] = 0;
                if (freeze) {
                    res->frozen[a] = 1;
                    res->leaf_depth[a] = depth;
                    newly = 1;
                }
            }
        }
        if (newly) {
            double at_death[SBX_MAX_AGENTS];
            sbx_search_evaluate_on(s, w->ev, sim, at_death);
            for (int a = 0; a < n; a++) {
                if (res->frozen[a] == 1) {
                    res->score[a] = at_death[a];
                    res->frozen[a] = 2;
                }
            }
        }
    }
    double final_scores[SBX_MAX_AGENTS];
    sbx_search_evaluate_on(s, w->ev, sim, final_scores); /* the leaf */
    for (int a = 0; a < n; a++) {
        if (!res->frozen[a]) {
            res->score[a] = final_scores[a];
            res->leaf_depth[a] = depth;
        }
        if (p->depth_normalize) {
            res->score[a] /= (double)(res->leaf_depth[a] > 1 ? res->leaf_depth[a] : 1);
        }
    }
    res->depth = depth;
}

static void *leaf_helper(void *arg) {
    par_worker *w = arg;
    par_run *r = w->run;
    int seen = 0;
    const double t0 = sbx_now_ms();
    for (;;) {
        int gen;
        SBX_WAIT_UNTIL((gen = __atomic_load_n(&r->job_gen, __ATOMIC_ACQUIRE)) != seen ||
                           __atomic_load_n(&r->done, __ATOMIC_ACQUIRE),
                       &w->wait_ms);
        if (gen == seen) break; /* done */
        seen = gen;
        int free_slot = 0;
        if (!__atomic_compare_exchange_n(&r->job_claim[w->id], &free_slot, 1, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            continue; /* worker 0 took it */
        }
        leaf_rollout(r, w, w->id);
        w->iterations++;
        __atomic_fetch_sub(&r->job_left, 1, __ATOMIC_RELEASE);
    }
    w->busy_ms = sbx_now_ms() - t0;
    return NULL;
}

/* The budget loop of one worker: the serial loop's checks in its order
 * (iterations, the clock by sbx_time_up over its own iterations, stop). */
static void *worker_main(void *arg) {
    par_worker *w = arg;
    par_run *r = w->run;
    sbx_search *s = r->s;
    const int tci = s->p.time_check_interval;
    const double t0 = sbx_now_ms();
    int64_t next_clock = 0;
    while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
        if (r->max_iterations > 0 && ADD(&r->claimed, 1) >= r->max_iterations) {
            par_stop(r, SBX_STOP_ITERATIONS);
            break;
        }
        if (r->max_ms > 0.0 &&
            sbx_time_up((int64_t)w->iterations, &next_clock, tci, r->t0, r->max_ms)) {
            par_stop(r, SBX_STOP_TIME);
            break;
        }
        if (atomic_load_explicit(&s->stop_flag, memory_order_relaxed)) {
            par_stop(r, SBX_STOP_REQUESTED);
            break;
        }
        int64_t turns = 0;
        int rc = r->mode == SBX_PAR_ROOT
                     ? smx_iterate_on(s, w->trees, &w->rng, w->sim, w->ev, &turns)
                     : shared_iterate(r, w);
        w->turns += turns;
        if (rc != SBX_STOP_NONE) {
            par_stop(r, rc);
            break;
        }
        w->iterations++;
    }
    w->busy_ms = sbx_now_ms() - t0;
    return NULL;
}

int smx_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
                     int64_t *iterations, int64_t *turns, int *reason) {
    smx *x = s->algo;
    const int mode = s->p.parallel;
    if ((mode != SBX_PAR_ROOT && (s->policy != SBX_POLICY_UCB1 || power_on(s) ||
                                  puct_on(s))) ||
        (mode == SBX_PAR_ROOT && IS_SAMPLING(s->policy))) {
        /* a policy change waiting for the next turn keeps the old one in
         * force, which this mode cannot run: serial until then (likewise
         * priors, set while another algorithm waited to take over: the
         * shared-tree expansion sets none) */
        return SBX_OK;
    }
    par_run *r = calloc(1, sizeof *r);
    if (!r) return sbx_fail(SBX_ERR_MEMORY, "out of memory starting a parallel run");
    const int nt = s->p.threads;
    r->s = s;
    r->mode = mode;
    r->nthreads = nt;
    r->max_iterations = max_iterations;
    r->max_ms = max_ms;
    r->t0 = t0;
    /* every worker may be mid-iteration when one checks the room */
    r->need = (uint32_t)smx_iteration_nodes(&s->p, s->num_agents, s->max_moves);
    int rc = SBX_OK;
    if (mode == SBX_PAR_LEAF && nt > 1 && !(r->leaf_state = malloc(s->state_size))) {
        rc = sbx_fail(SBX_ERR_MEMORY, "out of memory starting a parallel run");
    }
    for (int j = 0; j < nt && rc == SBX_OK; j++) {
        par_worker *w = &r->w[j];
        w->run = r;
        w->id = j;
        w->trees = x->t;
        if (j == 0) { /* the serial search's RNG, state and evaluator */
            w->rng = s->rng;
            w->sim = s->sim;
            w->ev = &s->ev;
            continue;
        }
        /* a helper asks the net on its own batches: the net is read-only
         * and shared, an evaluator's buffers are not */
        if (s->net && (rc = sbx_neteval_attach(&x->wev[j], s->net, &s->net_states)) != SBX_OK) break;
        w->ev = &x->wev[j];
        uint64_t h = s->rng ^ (0x9E3779B97F4A7C15ULL * (uint64_t)j);
        w->rng = sbx_rng_next(&h);
        if (!x->sims[j] && !(x->sims[j] = malloc(s->state_size))) {
            rc = sbx_fail(SBX_ERR_MEMORY, "out of memory for thread %d's state", j);
            break;
        }
        w->sim = x->sims[j];
        if (mode == SBX_PAR_ROOT) {
            if (!x->rootset[j]) {
                smx_tree *set = calloc(SBX_MAX_AGENTS, sizeof *set);
                int ok = set != NULL;
                for (int a = 0; ok && a < s->num_agents; a++) {
                    ok = smx_tree_alloc(&set[a], (uint32_t)s->p.node_cap) == SBX_OK;
                    if (ok) smx_tree_clear(&set[a]);
                }
                if (!ok) {
                    if (set) {
                        for (int a = 0; a < SBX_MAX_AGENTS; a++) smx_tree_free(&set[a]);
                    }
                    free(set);
                    rc = sbx_fail(SBX_ERR_MEMORY,
                                  "out of memory for thread %d's trees (root parallelism "
                                  "keeps a tree set per thread)", j);
                    break;
                }
                x->rootset[j] = set;
            }
            w->trees = x->rootset[j];
        }
    }
    if (rc != SBX_OK) {
        free(r->leaf_state);
        free(r);
        return rc;
    }
    /* Helpers that cannot be started leave the run to fewer threads (for
     * leaf parallelism, fewer rollouts per iteration). */
    int started = 1;
    for (int j = 1; j < nt; j++) {
        r->w[j].started =
            pthread_create(&r->w[j].thread, NULL,
                           mode == SBX_PAR_LEAF ? leaf_helper : worker_main, &r->w[j]) == 0;
        if (!r->w[j].started) break;
        started++;
    }
    if (mode == SBX_PAR_LEAF) r->nthreads = started;
    worker_main(&r->w[0]);
    if (mode == SBX_PAR_LEAF) __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
    s->run_threads = started;
    s->run_wait_ms = s->run_busy_ms = 0.0;
    for (int j = 0; j < nt; j++) {
        par_worker *w = &r->w[j];
        if (j > 0 && w->started) pthread_join(w->thread, NULL);
        s->run_thread_iterations[j] = w->iterations;
        for (int a = 0; mode != SBX_PAR_ROOT && a < s->num_agents; a++) {
            chunk_return(w, &x->t[a], a);
        }
        for (int a = 0; j > 0 && mode != SBX_PAR_ROOT && a < s->num_agents; a++) {
            x->t[a].nodes[0].total += w->root_total[a];
        }
        s->run_wait_ms += w->wait_ms;
        s->run_busy_ms += w->busy_ms;
        if (mode != SBX_PAR_LEAF) *iterations += w->iterations;
        *turns += w->turns;
    }
    if (mode == SBX_PAR_LEAF) *iterations += r->w[0].iterations;
    s->rng = r->w[0].rng;
    *reason = __atomic_load_n(&r->reason, __ATOMIC_ACQUIRE);
    free(r->leaf_state);
    free(r);
    return SBX_OK;
}
