/*
 * mcgs_select.c — MCGS's selection and backup (mcgs.c has the rules):
 * decoupled PUCT per player over its marginal, the idempotent recomputation
 * of Q, the same two with atomic loads for a parallel run (the same
 * operations in the same order, so one thread gives the serial figures bit
 * for bit), and the serial playout that runs them.
 */
#include "mcgs_select.h"

#include <math.h>
#include <string.h>

#include "../core/common.h"

/* The formalisation's recompute_Q: depends only on the node's edges and
 * its children's Q, so running it twice changes nothing. */
void mcgs_recompute_q(mcgs *x, mcgs_node *nd) {
    if (!(nd->flags & MCGS_EVALUATED)) return;
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    double sum[2] = {0.0, 0.0};
    uint64_t total = 0;
    for (uint32_t e = 0; e < ne; e++) {
        const mcgs_edge *ed = &x->edges[nd->edges + e];
        if (!ed->visits) continue;
        total += ed->visits;
        sum[0] += edge_sum(x, nd->edges + e, 0);
        sum[1] += edge_sum(x, nd->edges + e, 1);
    }
    nd->q[0] = (nd->u[0] + sum[0]) / (double)(1 + total);
    nd->q[1] = (nd->u[1] + sum[1]) / (double)(1 + total);
}

/* Player a's marginal: visits per outcome and Option D's Q (FPU if 0). */
void mcgs_marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
                     uint32_t *mv, double *mq) {
    const int n1 = nd->n[0], n2 = nd->n[1];
    const int k = nd->n[a];
    for (int i = 0; i < k; i++) {
        uint32_t v = 0;
        double sum = 0.0;
        for (int j = 0; j < nd->n[1 - a]; j++) {
            const int r = a == 0 ? i : j, c = a == 0 ? j : i;
            const uint32_t ei = nd->edges + (uint32_t)(r * n2 + c);
            const mcgs_edge *ed = &x->edges[ei];
            if (!ed->visits) continue;
            v += ed->visits;
            sum += edge_sum(x, ei, a);
        }
        mv[i] = v;
        mq[i] = v ? sum / v : nd->q[a] - fpu_offset;
    }
    (void)n1;
}

/* One step of the argmax both selections make: a higher score wins, an equal
 * one replaces the best with probability 1/ties (uniform among equal scores,
 * reservoir sampling). One copy, so that the serial and the parallel loop
 * draw from the RNG alike (threads = 1 must give the serial graph). */
static inline void keep_best(double v, int i, double *best_v, int *best, int *ties,
                             uint64_t *rng) {
    if (v > *best_v) {
        *best_v = v;
        *best = i;
        *ties = 1;
    } else if (v == *best_v && sbx_rng_below(rng, (uint32_t)++*ties) == 0) {
        *best = i;
    }
}

static int select_outcome(const mcgs *x, const mcgs_node *nd, int a,
                          const sbx_search_params *p, uint64_t *rng) {
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    mcgs_marginal(x, nd, a, p->fpu_offset, mv, mq);
    const int k = nd->n[a];
    const double explore = p->c_puct * sqrt((double)nd->visits);
    int best = 0, ties = 0;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        double v = mq[i] + explore * prior_of(x, nd, a, i, p) / (1.0 + mv[i]);
        keep_best(v, i, &best_v, &best, &ties, rng);
    }
    return best;
}

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
void mcgs_par_recompute_q(mcgs *x, mcgs_node *nd) {
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
int mcgs_select_outcome_ex(const mcgs *x, const mcgs_node *nd, int a,
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
        keep_best(v, i, &best_v, &best, &ties, rng);
    }
    return best;
}

/* ------------------------------------------------------------ playout */

/* The node of state `sim` for a new link (an edge's first child or a
 * further chance child): found in the table (a transposition hit) or
 * made and evaluated (*made = 1). The caller reserved the room. */
static uint32_t link_state(sbx_search *s, mcgs *x, const void *sim, const mcgs_ctx *cx,
                           int *made) {
    const uint64_t h = s->vt->hash(s->cfg, sim);
    const uint32_t found = s->p.transpositions ? mcgs_table_find(x, h) : 0;
    if (found) {
        x->hits++;
        return found - 1;
    }
    const uint32_t child = x->used++;
    memset(&x->nodes[child], 0, sizeof x->nodes[child]);
    x->nodes[child].hash = h;
    if (s->p.transpositions) mcgs_table_put(x, child);
    mcgs_evaluate_node(s, x, child, sim, cx);
    *made = 1;
    return child;
}

int mcgs_playout(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    mcgs *x = s->algo;
    const sbx_search_params *p = &s->p;
    const sbx_game_vt *vt = s->vt;
    const uint32_t room = SBX_MAX_MOVES * SBX_MAX_MOVES;
    if (!mcgs_reserve(s, x, 2 * room, 4 * SBX_MAX_MOVES)) return SBX_STOP_NODE_CAP;

    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;
    const mcgs_ctx cx = {&s->rng, x->tmp, x->tmp2, 0};

    uint32_t path[SBX_MAX_DEPTH + 1];
    uint32_t pedge[SBX_MAX_DEPTH], pkid[SBX_MAX_DEPTH]; /* edge, its child */
    int plen = 1, depth = 0, terminal = 0;
    path[0] = 0;
    if (!(x->nodes[0].flags & MCGS_EVALUATED)) {
        x->nodes[0].hash = vt->hash(s->cfg, sim);
        mcgs_evaluate_node(s, x, 0, sim, &cx);
        if (p->transpositions) mcgs_table_put(x, 0);
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
        uint32_t child = x->edges[ei].child, kid = 0, link_visits = 0;
        if (!child) {
            child = link_state(s, x, sim, &cx, &expanded);
            mcgs_edge *ed = &x->edges[ei];
            ed->child = child;
            ed->r[0] = (float)(x->nodes[child].base[0] - base0);
            ed->r[1] = (float)(x->nodes[child].base[1] - base1);
        } else {
            const uint64_t h = vt->hash(s->cfg, sim);
            if (h != x->nodes[child].hash) {
                /* chance: the step met another state than the edge's first;
                 * the child of that state, listed now if it is new */
                kid = more_of(x, ei);
                while (kid && x->nodes[x->kids[kid - 1].child].hash != h) {
                    kid = x->kids[kid - 1].next;
                }
                if (!kid) {
                    if (!mcgs_chance_room(s, x)) return SBX_STOP_NODE_CAP; /* nothing counted */
                    child = link_state(s, x, sim, &cx, &expanded);
                    mcgs_kid *o = &x->kids[x->kused];
                    o->child = child;
                    o->visits = 0;
                    o->r[0] = (float)(x->nodes[child].base[0] - base0);
                    o->r[1] = (float)(x->nodes[child].base[1] - base1);
                    o->next = x->more[ei];
                    kid = x->more[ei] = ++x->kused;
                }
                child = x->kids[kid - 1].child;
            }
            link_visits = kid_visits(x, ei, kid);
        }
        pkid[plen - 1] = kid;
        if (expanded) {
            stop = 1; /* a new node: evaluated, the playout ends */
        } else if (p->short_circuit && x->nodes[child].visits + 1 > link_visits) {
            /* the child is known better than this link (edge and child),
             * newly made or not: count only, KataGo's rule */
            stop = 1;
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
        if (pkid[i]) x->kids[pkid[i] - 1].visits++;
        nd->visits++;
        mcgs_recompute_q(x, nd);
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

