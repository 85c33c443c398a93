/*
 * mcgs_parallel.c — MCGS's parallel run (wu_uct and tree on one shared
 * graph; the rules are below), with its own selection and backup: the
 * serial ones of mcgs_select.c with atomic loads and stores and the
 * in-flight counts.
 */
#include "mcgs_parallel.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "mcgs_select.h"

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
        mcgs_keep_best(v, i, &best_v, &best, &ties, rng);
    }
    return best;
}

/* ------------------------------------------------------------ the run */

/*
 * sbx_search_run with parallel = wu_uct or tree (api.c calls
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
    sbx_neteval *ev;      /* its value-net batches; NULL: no net           */
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
    if (r->s->p.priors != SBX_PRIORS_UNIFORM &&
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
    if (!mcgs_grow_more(x)) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
    const uint64_t ow = 4 * nt * (uint64_t)s->p.max_depth;
    if (!mcgs_grow_kids(x, x->kused > ow ? x->kused : ow, cap) && !mcgs_grow_kids(x, cap - x->kused, cap)) {
        if (x->kcap < cap) return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the graph");
    }
    r->kid_lim = x->kcap < cap ? x->kcap : (uint32_t)cap;
    if (s->p.priors != SBX_PRIORS_UNIFORM) {
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
        mcgs_table_rebuild(x, r->node_lim) != SBX_OK) {
        return sbx_fail(SBX_ERR_MEMORY, "out of memory growing the transposition table");
    }
    return SBX_OK;
}

/* The table's find-or-insert under the home bucket's shard lock: the node
 * holding `hash`, or else `node` inserted (node == UINT32_MAX: a new node
 * taken from the array and zeroed, with its hash; *added = 1). Taking the
 * new node under the lock keeps the array free of nodes that lost a race. */
static pthread_mutex_t *shard_of(mcgs *x, uint64_t hash) {
    const uint32_t home = (uint32_t)mcgs_mix(hash) & x->tmask;
    const int bits = __builtin_ctz(x->tmask + 1); /* >= 10: the table has >= 1024 slots */
    return &x->shard[home >> (bits - 6)]; /* 64 shards */
}

/* table_find_or_add's body; the caller holds shard_of(hash). */
static uint32_t table_find_or_add_locked(mcgs *x, uint64_t hash, uint32_t node, int *added) {
    const uint32_t home = (uint32_t)mcgs_mix(hash) & x->tmask;
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
    const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1, w->ev};
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
        mcgs_evaluate_node(s, x, child, sim, &cx);
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
    mcgs_eval(s, sim, b);
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
        const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1, w->ev};
        mcgs_evaluate_node(s, x, x->kids[k - 1].child, sim, &cx);
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

/* One playout of worker w on the shared graph (mcgs_playout's steps,
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
        const mcgs_ctx cx = {&w->rng, w->tmp, w->tmp2, 1, w->ev};
        x->nodes[0].hash = vt->hash(s->cfg, sim);
        mcgs_evaluate_node(s, x, 0, sim, &cx);
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

int mcgs_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
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
            w->ev = s->net ? &s->ev : NULL;
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
        w->ev = NULL;
        if (s->net) {
            if ((rc = sbx_neteval_attach(&x->wev[j], s->net, &s->net_states)) != SBX_OK) break;
            w->ev = &x->wev[j];
        }
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
