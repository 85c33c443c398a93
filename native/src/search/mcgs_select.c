/*
 * mcgs_select.c — MCGS's selection and backup (mcgs.c has the rules):
 * decoupled PUCT per player over its marginal, the idempotent recomputation
 * of Q, and the serial playout that runs them (mcgs_parallel.c has their
 * atomic twins, the same operations in the same order, so one thread gives
 * the serial figures bit for bit).
 */
#include "mcgs_select.h"

#include <math.h>
#include <string.h>

#include "../core/common.h"

/* The formalisation's recompute_Q: depends only on the node's edges and
 * its children's Q, so running it twice changes nothing. */
static void recompute_q(mcgs *x, mcgs_node *nd) {
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
static void marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
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

static int select_outcome(const mcgs *x, const mcgs_node *nd, int a,
                          const sbx_search_params *p, uint64_t *rng) {
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    marginal(x, nd, a, p->fpu_offset, mv, mq);
    const int k = nd->n[a];
    const double explore = p->c_puct * sqrt((double)nd->visits);
    int best = 0, ties = 0;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        double v = mq[i] + explore * prior_of(x, nd, a, i, p) / (1.0 + mv[i]);
        mcgs_keep_best(v, i, &best_v, &best, &ties, rng);
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
    const mcgs_ctx cx = {&s->rng, x->tmp, x->tmp2, 0, s->net ? &s->ev : NULL};

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
        recompute_q(x, nd);
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

/* The serial backup and marginal for the inspection entries (mcgs_view.c);
 * the playout above calls them directly, so they stay inlined where they
 * are hot. */
void mcgs_recompute_q(mcgs *x, mcgs_node *nd) { recompute_q(x, nd); }

void mcgs_marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset, uint32_t *mv,
                   double *mq) {
    marginal(x, nd, a, fpu_offset, mv, mq);
}
