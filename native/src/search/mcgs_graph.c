/*
 * mcgs_graph.c — MCGS's storage (mcgs_graph.h): the transposition table,
 * the doubling arrays, a node's making and evaluation, and re-rooting.
 */
#include "mcgs_graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

uint64_t mcgs_mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}

uint32_t mcgs_table_find(const mcgs *x, uint64_t hash) {
    for (uint32_t i = (uint32_t)mcgs_mix(hash) & x->tmask;; i = (i + 1) & x->tmask) {
        uint32_t v = x->table[i];
        if (!v) return 0;
        if (x->nodes[v - 1].hash == hash) return v;
    }
}

void mcgs_table_put(mcgs *x, uint32_t node) {
    uint32_t i = (uint32_t)mcgs_mix(x->nodes[node].hash) & x->tmask;
    while (x->table[i]) i = (i + 1) & x->tmask;
    x->table[i] = node + 1;
}

/* Table of at least twice the nodes; rebuilt from the node array. */
int mcgs_table_rebuild(mcgs *x, uint32_t want_nodes) {
    uint32_t size = 1024;
    while (size < 2 * want_nodes) size <<= 1;
    if (size - 1 != x->tmask || !x->table) {
        uint32_t *t = calloc(size, sizeof *t);
        if (!t) return SBX_ERR_MEMORY;
        free(x->table);
        x->table = t;
        x->tmask = size - 1;
    } else {
        memset(x->table, 0, (size_t)size * sizeof *x->table);
    }
    for (uint32_t i = 0; i < x->used; i++) mcgs_table_put(x, i);
    return SBX_OK;
}

void mcgs_clear(mcgs *x) {
    x->used = 1;
    x->eused = 0;
    x->pused = 0;
    x->kused = 0; /* `more` entries are zeroed when their edges are made */
    memset(&x->nodes[0], 0, sizeof x->nodes[0]);
    if (x->table) memset(x->table, 0, ((size_t)x->tmask + 1) * sizeof *x->table);
    x->depth_reached = 0;
    x->hits = 0;
}

/* `more` as long as the edge array (the new entries zeroed); 0: no memory. */
int mcgs_grow_more(mcgs *x) {
    if (x->mcap >= x->ecap) return 1;
    uint32_t *m = realloc(x->more, (size_t)x->ecap * sizeof *m);
    if (!m) return 0;
    memset(m + x->mcap, 0, (size_t)(x->ecap - x->mcap) * sizeof *m);
    x->more = m;
    x->mcap = x->ecap;
    return 1;
}

/* The child array with room for `n` more, doubled up to `limit`; 0 if
 * the limit or memory says no. */
int mcgs_grow_kids(mcgs *x, uint64_t n, uint64_t limit) {
    const uint64_t want = (uint64_t)x->kused + n;
    if (want > limit) return 0;
    if (want <= x->kcap) return 1;
    uint64_t nc = x->kcap ? x->kcap : 1024;
    while (nc < want) nc *= 2;
    if (nc > limit) nc = limit;
    mcgs_kid *o = realloc(x->kids, (size_t)nc * sizeof *o);
    if (!o) return 0;
    x->kids = o;
    x->kcap = (uint32_t)nc;
    return 1;
}

/* Serial search: room for one more chance child (the first one met makes
 * `more`). 0 when node_cap's count of children is reached or memory fails. */
int mcgs_chance_room(sbx_search *s, mcgs *x) {
    return mcgs_grow_more(x) && mcgs_grow_kids(x, 1, (uint64_t)s->p.node_cap);
}

/* Room for one more node, `edges` more edges and, with heuristic priors,
 * `priors` more floats; 0 if not (cap or memory). */
int mcgs_reserve(sbx_search *s, mcgs *x, uint32_t edges, uint32_t priors) {
    if (x->used >= (uint32_t)s->p.node_cap) return 0;
    if (x->used == x->cap) {
        uint32_t nc = x->cap * 2;
        if (nc > (uint32_t)s->p.node_cap) nc = (uint32_t)s->p.node_cap;
        mcgs_node *n = realloc(x->nodes, (size_t)nc * sizeof *n);
        if (!n) return 0;
        x->nodes = n;
        x->cap = nc;
    }
    if ((uint64_t)x->eused + edges > x->ecap) {
        uint64_t nc = x->ecap;
        while (nc < (uint64_t)x->eused + edges) nc *= 2;
        if (nc > UINT32_MAX) return 0;
        mcgs_edge *e = realloc(x->edges, (size_t)nc * sizeof *e);
        if (!e) return 0;
        x->edges = e;
        x->ecap = (uint32_t)nc;
    }
    if (x->more && !mcgs_grow_more(x)) return 0;
    if (s->p.priors != SBX_PRIORS_UNIFORM && (uint64_t)x->pused + priors > x->pcap) {
        uint64_t nc = x->pcap ? x->pcap : 4096;
        while (nc < (uint64_t)x->pused + priors) nc *= 2;
        if (nc > UINT32_MAX) return 0;
        float *pr = realloc(x->priors, (size_t)nc * sizeof *pr);
        if (!pr) return 0;
        x->priors = pr;
        x->pcap = (uint32_t)nc;
    }
    if (2 * (x->used + 1) > x->tmask + 1 && mcgs_table_rebuild(x, x->used + 1) != SBX_OK) return 0;
    return 1;
}

/* ------------------------------------------------------------ evaluation */

/* Outcome classes of player a at state: moves stepped against the
 * opponent's first legal move on a copy; equal resulting states => one
 * outcome. The hash sorts out the distinct ones cheaply; a hash match is
 * confirmed by comparing the two states byte for byte (the earlier one is
 * stepped again into tmp2), so a collision never merges two outcomes. This
 * used to compare evaluations instead, which cost one game evaluation per
 * move (a BFS per player on the maze) and made outcome detection most of a
 * new node's cost. Both copies start from the same bytes, so padding is
 * equal too. A player without moves gets one outcome, SBX_MOVE_NONE.
 * cls[i] = the outcome of legal move i. */
static int outcomes(sbx_search *s, const mcgs_ctx *cx, const void *state, int a,
                    const uint8_t *own, int k, uint8_t opp, uint8_t *act,
                    uint8_t *cls) {
    if (k == 0) {
        act[0] = SBX_MOVE_NONE;
        return 1;
    }
    if (k == 1) {
        act[0] = own[0];
        cls[0] = 0;
        return 1;
    }
    uint64_t h[SBX_MAX_MOVES];
    int n = 0;
    uint8_t joint[2];
    joint[1 - a] = opp;
    for (int i = 0; i < k; i++) {
        joint[a] = own[i];
        memcpy(cx->tmp, state, s->state_size);
        s->vt->step(s->cfg, cx->tmp, joint, NULL);
        const uint64_t hi = s->vt->hash(s->cfg, cx->tmp);
        int same = -1;
        for (int c = 0; c < n && same < 0; c++) {
            if (h[c] != hi) continue;
            joint[a] = act[c];
            memcpy(cx->tmp2, state, s->state_size);
            s->vt->step(s->cfg, cx->tmp2, joint, NULL);
            if (memcmp(cx->tmp, cx->tmp2, s->state_size) == 0) same = c;
        }
        if (same >= 0) {
            cls[i] = (uint8_t)same;
            continue;
        }
        cls[i] = (uint8_t)n;
        h[n] = hi;
        act[n++] = own[i];
    }
    return n;
}

/* Player a's heuristic priors at a new node: softmax of the game's move
 * scores / prior_temperature, each move's share added to its outcome. */
static void heuristic_priors(sbx_search *s, const void *state, int a, int k,
                             const uint8_t *cls, int n, float *out) {
    double sc[SBX_MAX_MOVES];
    for (int i = 0; i < n; i++) out[i] = 0.0f;
    if (n <= 1 || s->vt->move_scores(s->cfg, state, a, sc) != k) {
        for (int i = 0; i < n; i++) out[i] = 1.0f / (float)n; /* defensive */
        return;
    }
    double mx = sc[0], w[SBX_MAX_MOVES], sum = 0.0;
    for (int i = 1; i < k; i++) mx = sc[i] > mx ? sc[i] : mx;
    for (int i = 0; i < k; i++) {
        w[i] = exp((sc[i] - mx) / s->p.prior_temperature); /* <= 1: no overflow */
        sum += w[i];
    }
    for (int i = 0; i < k; i++) out[cls[i]] += (float)(w[i] / sum);
}

/* Player a's priors from the value net's policy head (row 0 of ev's
 * batch): the softmax over its k legal moves, each move's share added to
 * its outcome; uniform over the outcomes without a net. */
static void net_priors(const sbx_neteval *ev, int a, const uint8_t *mv, int k,
                       const uint8_t *cls, int n, float *out) {
    for (int i = 0; i < n; i++) out[i] = ev ? 0.0f : 1.0f / (float)n;
    if (!ev) return;
    double w[SBX_MAX_MOVES];
    sbx_neteval_priors(ev, 0, a, mv, k, w);
    for (int i = 0; i < k; i++) out[cls[i]] += (float)w[i];
}

/* First visit: outcome indexing, edges, priors, U (after a random rollout;
 * with a value net: the net's values at the state less its evaluation).
 * The caller reserved room for SBX_MAX_MOVES^2 edges (and the priors). The
 * flags go last, with a release store: in a parallel run they publish the
 * node to the threads that found it in the table. */
void mcgs_evaluate_node(sbx_search *s, mcgs *x, uint32_t ni, const void *state,
                          const mcgs_ctx *cx) {
    mcgs_node *nd = &x->nodes[ni];
    const sbx_game_vt *vt = s->vt;
    mcgs_eval(s, state, nd->base);
    nd->visits = 0;
    if (vt->is_terminal(s->cfg, state)) {
        nd->n[0] = nd->n[1] = 0;
        nd->edges = LD(&x->eused);
        nd->u[0] = nd->u[1] = 0.0;
        nd->q[0] = nd->q[1] = 0.0;
        __atomic_store_n(&nd->flags, (uint8_t)(MCGS_EVALUATED | MCGS_TERMINAL), __ATOMIC_RELEASE);
        return;
    }
    uint8_t mv[2][SBX_MAX_MOVES];
    int k[2];
    for (int a = 0; a < 2; a++) {
        k[a] = vt->is_alive(s->cfg, state, a) ? vt->legal_moves(s->cfg, state, a, mv[a]) : 0;
    }
    uint8_t cls[2][SBX_MAX_MOVES];
    for (int a = 0; a < 2; a++) {
        uint8_t opp = k[1 - a] ? mv[1 - a][0] : SBX_MOVE_NONE;
        nd->n[a] = (uint8_t)outcomes(s, cx, state, a, mv[a], k[a], opp, nd->act[a], cls[a]);
    }
    /* the net's one-state batch: its values and policy logits */
    sbx_neteval *ev = cx->ev;
    if (ev) {
        sbx_neteval_clear(ev);
        if (sbx_neteval_push(ev, vt, s->cfg, state)) {
            sbx_neteval_run(ev);
        } else {
            ev = NULL; /* out of memory: this node as without a net */
        }
    }
    if (s->p.priors == SBX_PRIORS_HEURISTIC) {
        nd->prior = take(&x->pused, (uint32_t)nd->n[0] + nd->n[1], cx->par);
        heuristic_priors(s, state, 0, k[0], cls[0], nd->n[0], &x->priors[nd->prior]);
        heuristic_priors(s, state, 1, k[1], cls[1], nd->n[1], &x->priors[nd->prior + nd->n[0]]);
    } else if (s->p.priors == SBX_PRIORS_NET) {
        nd->prior = take(&x->pused, (uint32_t)nd->n[0] + nd->n[1], cx->par);
        net_priors(ev, 0, mv[0], k[0], cls[0], nd->n[0], &x->priors[nd->prior]);
        net_priors(ev, 1, mv[1], k[1], cls[1], nd->n[1], &x->priors[nd->prior + nd->n[0]]);
    }
    const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
    nd->edges = take(&x->eused, ne, cx->par);
    memset(&x->edges[nd->edges], 0, ne * sizeof *x->edges);
    if (x->more) memset(&x->more[nd->edges], 0, ne * sizeof *x->more);
    /* U: evaluation change over a K-step uniformly random rollout */
    double end[2] = {nd->base[0], nd->base[1]};
    if (ev) {
        for (int a = 0; a < 2; a++) end[a] = sbx_neteval_value(ev, 0, a);
        if (s->p.relative_scores) sbx_relative_scores(end, 2);
    } else if (s->p.rollout_steps > 0) {
        void *ro = cx->tmp2;
        memcpy(ro, state, s->state_size);
        for (int t = 0; t < s->p.rollout_steps && !vt->is_terminal(s->cfg, ro); t++) {
            uint8_t joint[2];
            for (int a = 0; a < 2; a++) {
                uint8_t m[SBX_MAX_MOVES];
                int kk = vt->is_alive(s->cfg, ro, a) ? vt->legal_moves(s->cfg, ro, a, m) : 0;
                joint[a] = kk ? m[sbx_rng_below(cx->rng, (uint32_t)kk)] : SBX_MOVE_NONE;
            }
            vt->step(s->cfg, ro, joint, NULL);
        }
        mcgs_eval(s, ro, end);
    }
    for (int a = 0; a < 2; a++) {
        nd->u[a] = end[a] - nd->base[a];
        nd->q[a] = nd->u[a];
    }
    __atomic_store_n(&nd->flags, (uint8_t)MCGS_EVALUATED, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ reuse */

/* Keep what is reachable from node `keep` (the new root, index 0 after),
 * compact nodes and edges in order, rebuild the table. */
void mcgs_reroot(mcgs *x, uint32_t keep) {
    uint32_t *map = calloc(x->used, sizeof *map);   /* old -> new + 1 */
    uint32_t *stack = malloc((size_t)x->used * sizeof *stack);
    if (!map || !stack) {
        free(map);
        free(stack);
        mcgs_clear(x);
        return;
    }
    /* mark (DFS), numbering the new root 0 */
    uint32_t sp = 0, count = 0;
    map[keep] = ++count;
    stack[sp++] = keep;
    while (sp) {
        const mcgs_node *nd = &x->nodes[stack[--sp]];
        const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
        for (uint32_t e = 0; e < ne; e++) {
            uint32_t c = x->edges[nd->edges + e].child;
            if (c && !map[c]) {
                map[c] = 0xFFFFFFFFu; /* seen, numbered below in index order */
                stack[sp++] = c;
            }
            for (uint32_t k = more_of(x, nd->edges + e); k; k = x->kids[k - 1].next) {
                c = x->kids[k - 1].child;
                if (!map[c]) {
                    map[c] = 0xFFFFFFFFu;
                    stack[sp++] = c;
                }
            }
        }
    }
    for (uint32_t i = 0; i < x->used; i++) {
        if (map[i] == 0xFFFFFFFFu) map[i] = ++count;
    }
    /* compact: new index = map - 1 ascending (root first, then by old
     * index, so a move never overwrites a node not yet moved) */
    mcgs_node root = x->nodes[keep];
    uint32_t eused = 0;
    /* edges: root's first, then the others in old node order */
    mcgs_edge *ne_arr = malloc((size_t)(x->eused ? x->eused : 1) * sizeof *ne_arr);
    /* chance children: each kept edge's list copied in order, after the
     * edge's new index, into a compacted child array */
    uint32_t *nm_arr = x->more ? malloc((size_t)(x->eused ? x->eused : 1) * sizeof *nm_arr) : NULL;
    mcgs_kid *nk_arr = x->more ? malloc((size_t)(x->kused ? x->kused : 1) * sizeof *nk_arr) : NULL;
    uint32_t kused = 0;
    if (!ne_arr || (x->more && (!nm_arr || !nk_arr))) {
        free(ne_arr);
        free(nm_arr);
        free(nk_arr);
        free(map);
        free(stack);
        mcgs_clear(x);
        return;
    }
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < x->used; i++) {
            if (!map[i] || (pass == 0) != (i == keep)) continue;
            mcgs_node *nd = i == keep ? &root : &x->nodes[i];
            const uint32_t ne = (uint32_t)nd->n[0] * nd->n[1];
            for (uint32_t e = 0; e < ne; e++) {
                mcgs_edge ed = x->edges[nd->edges + e];
                ed.child = ed.child ? map[ed.child] - 1 : 0;
                ne_arr[eused + e] = ed;
                if (!nm_arr) continue;
                nm_arr[eused + e] = 0;
                uint32_t *link = &nm_arr[eused + e];
                for (uint32_t k = x->more[nd->edges + e]; k; k = x->kids[k - 1].next) {
                    mcgs_kid o = x->kids[k - 1];
                    o.child = map[o.child] - 1;
                    o.next = 0;
                    nk_arr[kused] = o;
                    *link = ++kused;
                    link = &nk_arr[kused - 1].next;
                }
            }
            nd->edges = eused;
            eused += ne;
        }
    }
    memcpy(x->edges, ne_arr, (size_t)eused * sizeof *ne_arr);
    free(ne_arr);
    if (nm_arr) {
        memcpy(x->more, nm_arr, (size_t)eused * sizeof *nm_arr);
        memset(x->more + eused, 0, (size_t)(x->mcap - eused) * sizeof *x->more);
        memcpy(x->kids, nk_arr, (size_t)kused * sizeof *nk_arr);
        x->kused = kused;
        free(nm_arr);
        free(nk_arr);
    }
    /* priors: the same order as the edges (root first) */
    if (x->priors && x->pused) {
        float *np = malloc((size_t)x->pused * sizeof *np);
        if (!np) {
            free(map);
            free(stack);
            mcgs_clear(x);
            return;
        }
        uint32_t pused = 0;
        for (uint32_t pass = 0; pass < 2; pass++) {
            for (uint32_t i = 0; i < x->used; i++) {
                if (!map[i] || (pass == 0) != (i == keep)) continue;
                mcgs_node *nd = i == keep ? &root : &x->nodes[i];
                if (!(nd->flags & MCGS_EVALUATED) || (nd->flags & MCGS_TERMINAL)) continue;
                const uint32_t np_ = (uint32_t)nd->n[0] + nd->n[1];
                memcpy(&np[pused], &x->priors[nd->prior], np_ * sizeof *np);
                nd->prior = pused;
                pused += np_;
            }
        }
        memcpy(x->priors, np, (size_t)pused * sizeof *np);
        free(np);
        x->pused = pused;
    }
    for (uint32_t i = 0; i < x->used; i++) {
        if (!map[i] || i == keep) continue;
        x->nodes[map[i] - 1] = x->nodes[i]; /* map[i]-1 <= i for i != keep */
    }
    x->nodes[0] = root;
    x->used = count;
    x->eused = eused;
    free(map);
    free(stack);
    mcgs_table_rebuild(x, x->used);
}
