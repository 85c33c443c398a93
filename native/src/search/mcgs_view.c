/*
 * mcgs_view.c — what MCGS shows between runs: the move to play, root stats,
 * statistics, the root matrix, snapshots and their links, paths, and the
 * test-only hooks (sbx.h section 6).
 */
#include "mcgs_view.h"

#include <math.h>
#include <string.h>

#include "../core/common.h"
#include "mcgs_select.h"

/* The root, if it is evaluated and is the search's root state (a caller's
 * new_root without reuse leaves it fresh). */
static const mcgs_node *root_node(sbx_search *s) {
    mcgs *x = s->algo;
    const mcgs_node *r = &x->nodes[0];
    return (r->flags & MCGS_EVALUATED) ? r : NULL;
}

/* The marginal visit distribution's pick: argmax (ties: higher marginal Q,
 * then the lower index), or a draw from pi^(1/temperature) seeded by the
 * search's RNG word and iteration counts (the same however often asked). */
static int final_outcome(sbx_search *s, const mcgs_node *r, int a) {
    mcgs *x = s->algo;
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    mcgs_marginal(x, r, a, s->p.fpu_offset, mv, mq);
    const int k = r->n[a];
    int best = 0;
    for (int i = 1; i < k; i++) {
        if (mv[i] > mv[best] || (mv[i] == mv[best] && mq[i] > mq[best])) best = i;
    }
    if (s->p.final_move != SBX_FINAL_SAMPLE || r->visits == 0 || s->p.temperature <= 0.0) {
        return best;
    }
    double w[SBX_MAX_MOVES], sum = 0.0;
    for (int i = 0; i < k; i++) {
        w[i] = mv[i] ? pow((double)mv[i] / r->visits, 1.0 / s->p.temperature) : 0.0;
        sum += w[i];
    }
    if (!(sum > 0.0) || !isfinite(sum)) return best;
    uint64_t rng = s->rng ^ ((uint64_t)s->iterations * 0x9E3779B97F4A7C15ULL) ^
                   ((uint64_t)(a + 1) * 0xD1B54A32D192ED03ULL);
    double u = (sbx_rng_next(&rng) >> 11) * (1.0 / 9007199254740992.0) * sum;
    for (int i = 0; i < k; i++) {
        if (w[i] <= 0.0) continue;
        if (u < w[i]) return i;
        u -= w[i];
    }
    return best;
}

void mcgs_best_moves(sbx_search *s, int32_t *out) {
    const mcgs_node *r = root_node(s);
    for (int a = 0; a < 2; a++) {
        uint8_t m[SBX_MAX_MOVES];
        int k = s->vt->is_alive(s->cfg, s->root, a) ? s->vt->legal_moves(s->cfg, s->root, a, m) : 0;
        out[a] = k ? m[0] : SBX_MOVE_NONE;
        if (r && r->visits && r->act[a][0] != SBX_MOVE_NONE) out[a] = r->act[a][final_outcome(s, r, a)];
    }
}

/* One row per outcome (its representative move): marginal visits, the
 * absolute value evaluate(root) + Option D's marginal Q, the visit share as
 * prob and policy. */
int mcgs_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                           int *n_out) {
    mcgs *x = s->algo;
    const mcgs_node *r = root_node(s);
    if (!r || r->act[agent][0] == SBX_MOVE_NONE || (r->flags & MCGS_TERMINAL)) {
        *n_out = 0;
        return SBX_OK;
    }
    const int k = r->n[agent];
    if (k > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, k);
    uint32_t mv[SBX_MAX_MOVES];
    double mq[SBX_MAX_MOVES];
    mcgs_marginal(x, r, agent, s->p.fpu_offset, mv, mq);
    for (int i = 0; i < k; i++) {
        out[i].move = r->act[agent][i];
        out[i].visits = (int32_t)mv[i];
        out[i].mean = mv[i] ? r->base[agent] + mq[i] : 0.0;
        out[i].prob = r->visits ? (double)mv[i] / r->visits : 0.0;
        out[i].policy = out[i].prob;
    }
    *n_out = k;
    return SBX_OK;
}

void mcgs_fill_stats(sbx_search *s, sbx_search_stats *out) {
    mcgs *x = s->algo;
    out->node_bytes = (int32_t)sizeof(mcgs_node);
    out->trees = 1;
    for (int a = 0; a < 2; a++) {
        out->nodes[a] = (int32_t)x->used;
        out->root_visits[a] = (int32_t)x->nodes[0].visits;
        out->max_depth_reached[a] = (int32_t)x->depth_reached;
        out->norm_min[a] = 0.0;
        out->norm_max[a] = 0.0;
    }
    out->transposition_hits = x->hits;
    /* chance children count as edges: their array and `more`, when made */
    out->edge_bytes = (int64_t)x->eused * (int64_t)sizeof(mcgs_edge) +
                      (x->more ? (int64_t)x->eused * (int64_t)sizeof *x->more +
                                     (int64_t)x->kused * (int64_t)sizeof(mcgs_kid)
                               : 0);
    out->prior_bytes = (int64_t)x->pused * (int64_t)sizeof(float);
    out->table_bytes = ((int64_t)x->tmask + 1) * (int64_t)sizeof(uint32_t);
}

/* The root's edges as sbx.h's matrix: cells are outcome pairs. */
int mcgs_root_matrix(sbx_search *s, sbx_root_matrix *out) {
    mcgs *x = s->algo;
    const mcgs_node *r = root_node(s);
    if (!r || (r->flags & MCGS_TERMINAL)) return SBX_OK; /* 0 x 0 */
    const int n2 = r->n[1];
    out->n[0] = r->n[0];
    out->n[1] = n2;
    out->visits = (int32_t)r->visits;
    for (int a = 0; a < 2; a++) {
        uint32_t mv[SBX_MAX_MOVES];
        double mq[SBX_MAX_MOVES];
        mcgs_marginal(x, r, a, s->p.fpu_offset, mv, mq);
        out->value[a] = r->base[a] + r->q[a];
        for (int i = 0; i < r->n[a]; i++) {
            out->act[a][i] = r->act[a][i];
            out->marginal_visits[a][i] = (int32_t)mv[i];
            out->marginal_value[a][i] = r->base[a] + mq[i];
            out->prior[a][i] = prior_of(x, r, a, i, &s->p); /* PUCT's prior */
        }
    }
    for (int e = 0; e < r->n[0] * n2; e++) {
        const mcgs_edge *ed = &x->edges[r->edges + (uint32_t)e];
        out->cell_visits[e] = (int32_t)ed->visits;
        const uint32_t ei = r->edges + (uint32_t)e;
        for (int a = 0; a < 2; a++) {
            /* chance: the expectation its children estimate (edge_sum) */
            out->cell_value[a][e] =
                !ed->visits ? NAN
                : more_of(x, ei) ? (float)(r->base[a] + edge_sum(x, ei, a) / ed->visits)
                : (float)(r->base[a] + ed->r[a] + x->nodes[ed->child].q[a]);
        }
    }
    return SBX_OK;
}

/* sbx.h: every visited edge between two rows that is not the child row's
 * snapshot parent, once per (parent row, child row), with its joint action
 * (the most visited such edge's). */
int mcgs_snapshot_links(sbx_search *s, const sbx_snapshot_node *rows, int n_rows,
                               int32_t *pairs, uint8_t *joints, int cap, int *n_out) {
    mcgs *x = s->algo;
    const uint32_t n = x->used;
    /* row_of[node] = row + 1 (0: not a row); seen[child] = parent row + 1;
     * slot[child] = the pair written for (that parent row, child), or
     * UINT32_MAX if it was dropped; kept[child] = the visits of the edge
     * whose joint that pair holds */
    uint32_t *row_of = sbx_search_scratch(s, (size_t)n * 4 * sizeof *row_of);
    if (!row_of) return sbx_fail(SBX_ERR_MEMORY, "out of memory for snapshot links");
    uint32_t *seen = row_of + n, *slot = seen + n, *kept = slot + n;
    memset(row_of, 0, (size_t)n * 2 * sizeof *row_of);
    for (int r = 0; r < n_rows; r++) {
        const int32_t id = rows[r].node;
        if (id >= 0 && (uint32_t)id < n && !row_of[id]) row_of[id] = (uint32_t)r + 1;
    }
    int count = 0;
    for (int r = 0; r < n_rows; r++) {
        const int32_t id = rows[r].node;
        if (id < 0 || (uint32_t)id >= n || row_of[id] != (uint32_t)r + 1) continue;
        const mcgs_node *nd = &x->nodes[id];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            /* each child of the edge (one without chance) */
            uint32_t ch, ov;
            for (uint32_t it = KID_START; next_kid(x, nd->edges + e, &it, &ch, &ov);) {
                if (!ov || !ch || !row_of[ch]) continue;
                const uint32_t c = row_of[ch] - 1;
                if (rows[c].parent == r) continue;
                const uint8_t m0 = nd->act[0][e / nd->n[1]], m1 = nd->act[1][e % nd->n[1]];
                if (seen[ch] == (uint32_t)r + 1) {
                    /* another edge from r into the same child: the pair shows
                     * the most visited one's joint */
                    const uint32_t k = slot[ch];
                    if (k != UINT32_MAX && joints && ov > kept[ch]) {
                        joints[2 * k] = m0;
                        joints[2 * k + 1] = m1;
                        kept[ch] = ov;
                    }
                    continue;
                }
                seen[ch] = (uint32_t)r + 1;
                slot[ch] = UINT32_MAX;
                kept[ch] = ov;
                if (count < cap) {
                    pairs[2 * count] = r;
                    pairs[2 * count + 1] = (int32_t)c;
                    if (joints) {
                        joints[2 * count] = m0;
                        joints[2 * count + 1] = m1;
                    }
                    slot[ch] = (uint32_t)count;
                    count++;
                }
            }
        }
    }
    *n_out = count;
    return SBX_OK;
}

typedef struct heap_item {
    uint32_t visits, node, parent_row_hint;
} heap_item;

/* The graph's top: the max_nodes most-visited nodes (N = 1 + edge visits)
 * reachable through visited edges, chosen best-first from the root, then
 * written breadth-first. A node reachable from two parents appears once:
 * its row's parent is the first parent met in that order, and
 * SBX_NODE_SHARED says it has more than one parent in the graph. */
int mcgs_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                         int min_visits, sbx_snapshot_node *out, int *n_out) {
    mcgs *x = s->algo;
    const uint32_t n = x->used;
    if (top >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "snapshot: node %u is not in the graph (ids 0..%u)",
                        top, n - 1);
    }
    if ((uint32_t)max_nodes > n) max_nodes = (int)n;
    /* scratch: chosen/emitted marks, parent counts, last parent, a heap */
    const size_t links = (size_t)x->eused + (x->more ? x->kused : 0); /* edges + children */
    size_t bytes = (size_t)n * (1 + 4 + 4) + (links + 2) * sizeof(heap_item);
    unsigned char *buf = sbx_search_scratch(s, bytes);
    if (!buf) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    heap_item *heap = (heap_item *)buf;
    uint32_t *parents = (uint32_t *)(heap + links + 2);
    uint32_t *lastp = parents + n;
    uint8_t *mark = (uint8_t *)(lastp + n);
    memset(parents, 0, (size_t)n * 4);
    memset(lastp, 0xFF, (size_t)n * 4);
    memset(mark, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        const mcgs_node *nd = &x->nodes[i];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, v;
            for (uint32_t it = KID_START; next_kid(x, nd->edges + e, &it, &c, &v);) {
                if (c && lastp[c] != i) {
                    lastp[c] = i;
                    parents[c]++;
                }
            }
        }
    }
    const uint32_t floor = (uint32_t)(min_visits > 0 ? min_visits : 0);
#define NVIS(i) (x->nodes[i].visits + ((x->nodes[i].flags & MCGS_EVALUATED) ? 1u : 0u))
    /* best-first selection (a binary max-heap on visits) */
    int hn = 0, count = 0;
    heap[hn++] = (heap_item){NVIS(top), top, 0};
    while (hn > 0 && count < max_nodes) {
        heap_item it = heap[0];
        heap[0] = heap[--hn];
        for (int i = 0;;) { /* sift down */
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < hn && heap[l].visits > heap[m].visits) m = l;
            if (r < hn && heap[r].visits > heap[m].visits) m = r;
            if (m == i) break;
            heap_item t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
        if (mark[it.node]) continue;
        if (it.node != top && it.visits < floor) break;
        mark[it.node] = 1;
        count++;
        const mcgs_node *nd = &x->nodes[it.node];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, v;
            for (uint32_t oi = KID_START; next_kid(x, nd->edges + e, &oi, &c, &v);) {
                if (!v || mark[c]) continue;
                if (hn >= (int)links + 1) break;
                heap_item ni = {NVIS(c), c, 0};
                int i = hn++;
                heap[i] = ni;
                while (i > 0 && heap[(i - 1) / 2].visits < heap[i].visits) { /* sift up */
                    heap_item t = heap[i];
                    heap[i] = heap[(i - 1) / 2];
                    heap[(i - 1) / 2] = t;
                    i = (i - 1) / 2;
                }
            }
        }
    }
    /* breadth-first write-out; `out` is the queue; mark 1 = chosen, 2 = written */
    const mcgs_node *r0 = &x->nodes[top];
    memset(&out[0], 0, sizeof out[0]);
    out[0].node = (int32_t)top;
    out[0].parent = -1;
    out[0].visits = (int32_t)NVIS(top);
    out[0].mean = (float)(r0->base[agent] + r0->q[agent]);
    out[0].prob = 1.0f;
    out[0].move = SBX_MOVE_NONE;
    out[0].agent = -1;
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    mark[top] = 2;
    int rows = 1;
    for (int head = 0; head < rows; head++) {
        const mcgs_node *nd = &x->nodes[out[head].node];
        for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
            uint32_t c, ov; /* each child of the edge: a row per state met */
            for (uint32_t oi = KID_START; next_kid(x, nd->edges + e, &oi, &c, &ov);) {
                if (!ov) continue;
                if (mark[c] == 0) out[head].flags |= SBX_NODE_TRUNCATED;
                if (mark[c] != 1) continue;
                mark[c] = 2;
                const mcgs_node *ch = &x->nodes[c];
                const int i = (int)(e / nd->n[1]), j = (int)(e % nd->n[1]);
                sbx_snapshot_node *row = &out[rows++];
                memset(row, 0, sizeof *row);
                row->node = (int32_t)c;
                row->parent = head;
                row->visits = (int32_t)NVIS(c);
                row->mean = (float)(ch->base[agent] + ch->q[agent]);
                row->prob = nd->visits ? (float)ov / (float)nd->visits : 0.0f;
                row->depth = (int16_t)(out[head].depth + 1);
                row->agent = -1;
                memset(row->joint, SBX_MOVE_NONE, sizeof row->joint);
                row->joint[0] = nd->act[0][i];
                row->joint[1] = nd->act[1][j];
                row->move = row->joint[agent];
                if (parents[c] > 1) row->flags |= SBX_NODE_SHARED;
                if (s->p.priors != SBX_PRIORS_UNIFORM) { /* the joint action's */
                    row->prior = (float)(prior_of(x, nd, 0, i, &s->p) *
                                         prior_of(x, nd, 1, j, &s->p));
                    row->flags |= SBX_NODE_PRIOR;
                }
            }
        }
    }
#undef NVIS
    *n_out = rows;
    return SBX_OK;
}

/* A path step is the joint action; each player's move matches the outcome
 * it is the representative of (the move the snapshot rows show). */
int mcgs_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                          int stride, int32_t *node_out) {
    mcgs *x = s->algo;
    if (stride < 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "find_path: an mcgs step needs 2 moves (one per player), got %d", stride);
    }
    uint32_t node = 0;
    for (int k = 0; k < steps; k++) {
        const mcgs_node *nd = &x->nodes[node];
        const uint8_t *st = path + (size_t)k * (size_t)stride;
        int oi = -1, oj = -1;
        for (int i = 0; i < nd->n[0] && oi < 0; i++)
            if (nd->act[0][i] == st[0]) oi = i;
        for (int j = 0; j < nd->n[1] && oj < 0; j++)
            if (nd->act[1][j] == st[1]) oj = j;
        /* a path names no chance: an edge with several children leads to
         * its most visited one (on a tie the edge's own, then the newest) */
        uint32_t child = 0, best = 0, c, v;
        if (oi >= 0 && oj >= 0) {
            const uint32_t ei = nd->edges + (uint32_t)(oi * nd->n[1] + oj);
            for (uint32_t it = KID_START; next_kid(x, ei, &it, &c, &v);) {
                if (c && (!child || v > best)) {
                    child = c;
                    best = v;
                }
            }
        }
        if (!child) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d (moves %u/%u) leads to no node of the "
                            "graph (node %u)", k + 1, steps, (unsigned)st[0], (unsigned)st[1],
                            node);
        }
        node = child;
    }
    *node_out = (int32_t)node;
    return SBX_OK;
}

int64_t mcgs_node_count(sbx_search *s) {
    mcgs *x = s->algo;
    return x->used;
}

/* ------------------------------------------------------------ test hooks */

/* TEST ONLY (sbx.h, section 6): one node's raw data, and one Q
 * recomputation of one node, for tests that check the formulas against an
 * independent Python recomputation. */
int sbx_search_debug_mcgs_node(sbx_search *s, int node, sbx_mcgs_debug_node *out) {
    if (!s || !out) return sbx_fail(SBX_ERR_ARGUMENT, "search or out is NULL");
    if (s->algo_id != SBX_ALGO_MCGS || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    }
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range (0..%u)", node, x->used - 1);
    }
    const mcgs_node *nd = &x->nodes[node];
    memset(out, 0, sizeof *out);
    out->n1 = nd->n[0];
    out->n2 = nd->n[1];
    out->visits = (int32_t)nd->visits;
    out->flags = nd->flags;
    out->hash = nd->hash;
    out->hits = x->hits;
    for (int a = 0; a < 2; a++) {
        out->q[a] = nd->q[a];
        out->u[a] = nd->u[a];
        out->base[a] = nd->base[a];
        for (int i = 0; i < nd->n[a]; i++) {
            out->act[a][i] = nd->act[a][i];
            const int has = (nd->flags & MCGS_EVALUATED) && !(nd->flags & MCGS_TERMINAL);
            out->prior[a][i] = has ? prior_of(x, nd, a, i, &s->p) : 0.0;
        }
    }
    for (uint32_t e = 0; e < (uint32_t)nd->n[0] * nd->n[1]; e++) {
        const mcgs_edge *ed = &x->edges[nd->edges + e];
        out->edge_visits[e] = (int32_t)ed->visits;
        out->edge_child[e] = (int32_t)ed->child;
        out->edge_r[e][0] = ed->r[0];
        out->edge_r[e][1] = ed->r[1];
    }
    return SBX_OK;
}

int sbx_search_debug_mcgs_recompute(sbx_search *s, int node) {
    if (!s) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (s->algo_id != SBX_ALGO_MCGS || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    }
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range", node);
    }
    mcgs_recompute_q(x, &x->nodes[node]);
    return SBX_OK;
}

/* TEST ONLY (sbx.h, section 6): the children of one edge, the edge's own
 * child first (with the visits the others do not hold), then the states met
 * later, most recent first. */
int sbx_search_debug_mcgs_children(sbx_search *s, int node, int edge, int32_t *child,
                                   int32_t *visits, float *r, int cap, int *n_out) {
    if (!s || !n_out) return sbx_fail(SBX_ERR_ARGUMENT, "search or n_out is NULL");
    if (s->algo_id != SBX_ALGO_MCGS || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running mcgs");
    }
    if (cap < 0 || (cap > 0 && (!child || !visits || !r))) {
        return sbx_fail(SBX_ERR_ARGUMENT, "child buffers: NULL or a negative cap (%d)", cap);
    }
    mcgs *x = s->algo;
    if (node < 0 || (uint32_t)node >= x->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "node %d out of range (0..%u)", node, x->used - 1);
    }
    const mcgs_node *nd = &x->nodes[node];
    const int ne = (nd->flags & MCGS_EVALUATED) ? nd->n[0] * nd->n[1] : 0;
    if (edge < 0 || edge >= ne) {
        return sbx_fail(SBX_ERR_ARGUMENT, "edge %d out of range (node %d has %d edges)", edge,
                        node, ne);
    }
    const uint32_t ei = nd->edges + (uint32_t)edge;
    int n = 0;
    const mcgs_edge *ed = &x->edges[ei];
    if (ed->child) { /* linked: its own child is the first child */
        if (n < cap) {
            child[n] = (int32_t)ed->child;
            visits[n] = (int32_t)kid_visits(x, ei, 0);
            r[2 * n] = ed->r[0];
            r[2 * n + 1] = ed->r[1];
        }
        n++;
        for (uint32_t k = more_of(x, ei); k; k = x->kids[k - 1].next, n++) {
            if (n >= cap) continue;
            const mcgs_kid *o = &x->kids[k - 1];
            child[n] = (int32_t)o->child;
            visits[n] = (int32_t)o->visits;
            r[2 * n] = o->r[0];
            r[2 * n + 1] = o->r[1];
        }
    }
    *n_out = n;
    return SBX_OK;
}
