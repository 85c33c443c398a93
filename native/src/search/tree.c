/*
 * tree.c — the node arena of the one-tree baselines (see tree.h).
 */
#include "tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

/* ------------------------------------------------------------ every arena's */

int sbx_marks_alloc(uint64_t **mark, uint32_t **rank, uint32_t cap) {
    const size_t words = ((size_t)cap + 63) / 64;
    /* calloc'd pages are committed only as they are touched, as an
     * arena's nodes are: a large cap costs address space, not memory */
    *mark = calloc(words, sizeof **mark);
    *rank = calloc(words, sizeof **rank);
    if (*mark && *rank) return 1;
    free(*mark);
    free(*rank);
    *mark = NULL;
    *rank = NULL;
    return 0;
}

void sbx_marks_replace(uint64_t **mark, uint32_t **rank, uint64_t *new_mark,
                       uint32_t *new_rank) {
    free(*mark);
    free(*rank);
    *mark = new_mark;
    *rank = new_rank;
}

uint32_t sbx_mark_ranks(const uint64_t *mark, uint32_t *rank, size_t words) {
    uint32_t kept = 0;
    for (size_t w = 0; w < words; w++) {
        rank[w] = kept;
        kept += (uint32_t)sbx_popcount64(mark[w]);
    }
    return kept;
}

static inline int heap_before(sbx_heap_item a, sbx_heap_item b) {
    return a.visits > b.visits || (a.visits == b.visits && a.node < b.node);
}

void sbx_heap_push(sbx_heap_item *h, int *n, sbx_heap_item it) {
    int i = (*n)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_before(it, h[parent])) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = it;
}

sbx_heap_item sbx_heap_pop(sbx_heap_item *h, int *n) {
    sbx_heap_item top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        sbx_heap_item best = last;
        if (l < *n && heap_before(h[l], best)) {
            m = l;
            best = h[l];
        }
        if (r < *n && heap_before(h[r], best)) m = r;
        if (m == i) break;
        h[i] = h[m];
        i = m;
    }
    if (*n > 0) h[i] = last;
    return top;
}

/* ------------------------------------------------------------ the baselines' arena */

int sbx_tree_alloc(sbx_tree *t, uint32_t cap) {
    /* bitmaps first, so that a failure leaves the old arena whole */
    uint64_t *mark;
    uint32_t *rank;
    if (!sbx_marks_alloc(&mark, &rank, cap)) return SBX_ERR_MEMORY;
    unsigned char *nodes = realloc(t->nodes, (size_t)cap * t->stride);
    if (!nodes) {
        free(mark);
        free(rank);
        return SBX_ERR_MEMORY;
    }
    t->nodes = nodes;
    sbx_marks_replace(&t->mark, &t->rank, mark, rank);
    t->cap = cap;
    return SBX_OK;
}

int sbx_tree_follow_cap(sbx_search *s, sbx_tree *t, int32_t old_cap) {
    if (s->p.node_cap == old_cap) return SBX_OK;
    if (sbx_tree_alloc(t, (uint32_t)s->p.node_cap) != SBX_OK) {
        s->p.node_cap = (int32_t)t->cap;
        return sbx_fail(SBX_ERR_MEMORY,
                        "out of memory resizing the tree arena; node_cap stays %d", old_cap);
    }
    return SBX_OK;
}

void sbx_tree_free(sbx_tree *t) {
    free(t->nodes);
    free(t->mark);
    free(t->rank);
    t->nodes = NULL;
    t->mark = NULL;
    t->rank = NULL;
    t->used = t->cap = 0;
}

void sbx_tree_clear(sbx_tree *t) {
    memset(t->nodes, 0, t->stride);
    t->used = 1;
}

uint32_t sbx_tree_push(sbx_tree *t, int k, int depth) {
    uint32_t first = t->used;
    memset(sbx_tree_at(t, first), 0, (size_t)k * t->stride);
    for (int i = 0; i < k; i++) sbx_tree_hdr_at(t, first + (uint32_t)i)->depth = (uint16_t)depth;
    t->used += (uint32_t)k;
    return first;
}

/* Smitsimax's reroot (smitsimax_tree.c) for nodes of any stride: one forward pass
 * marks the kept nodes (a child is always after its parent), ranks give the
 * new indices, which are never above the old ones, so moving in index order
 * never overwrites a kept node not yet moved. */
void sbx_tree_reroot(sbx_tree *t, uint32_t new_root) {
    const uint32_t used = t->used;
    const size_t words = ((size_t)used + 63) / 64;
    const uint16_t shift = sbx_tree_hdr_at(t, new_root)->depth;
    memset(t->mark, 0, words * sizeof *t->mark);
    sbx_bit_set(t->mark, new_root);
    for (uint32_t i = new_root; i < used; i++) {
        if ((i & 63) == 0 && t->mark[i >> 6] == 0) {
            i += 63;
            continue;
        }
        if (!sbx_bit_get(t->mark, i)) continue;
        const sbx_tree_hdr *h = sbx_tree_hdr_at(t, i);
        for (uint32_t c = 0; c < h->nchildren; c++) sbx_bit_set(t->mark, h->first_child + c);
    }
    const uint32_t kept = sbx_mark_ranks(t->mark, t->rank, words);
    for (uint32_t i = new_root; i < used; i++) {
        if (!sbx_bit_get(t->mark, i)) continue;
        uint32_t to = sbx_mark_rank(t->mark, t->rank, i);
        sbx_tree_hdr *h = sbx_tree_hdr_at(t, i);
        if (h->first_child) h->first_child = sbx_mark_rank(t->mark, t->rank, h->first_child);
        h->depth = (uint16_t)(h->depth - shift);
        if (to != i) memmove(sbx_tree_at(t, to), h, t->stride);
    }
    memset(t->mark, 0, words * sizeof *t->mark);
    t->used = kept;
}

/* ------------------------------------------------------------ snapshot */

int sbx_tree_snapshot(sbx_search *s, sbx_tree *t, uint32_t top, int max_nodes,
                      int min_visits, sbx_snapshot_node *out, int *n_out,
                      sbx_tree_row_fn fill, const void *ctx) {
    if (top >= t->used) {
        return sbx_fail(SBX_ERR_ARGUMENT, "snapshot: node %u is not in the tree (ids 0..%u)",
                        top, t->used - 1);
    }
    if ((uint32_t)max_nodes > t->used) max_nodes = (int)t->used;
    /* every node is pushed at most once */
    sbx_heap_item *heap = sbx_search_scratch(s, ((size_t)t->used + 1) * sizeof *heap);
    if (!heap) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    const uint32_t floor = (uint32_t)(min_visits > 0 ? min_visits : 0);

    int hn = 0, count = 0;
    sbx_heap_push(heap, &hn, (sbx_heap_item){sbx_tree_hdr_at(t, top)->visits, top});
    while (hn > 0 && count < max_nodes) {
        sbx_heap_item it = sbx_heap_pop(heap, &hn);
        if (it.node != top && it.visits < floor) break;
        sbx_bit_set(t->mark, it.node);
        count++;
        const sbx_tree_hdr *h = sbx_tree_hdr_at(t, it.node);
        for (uint32_t c = 0; c < h->nchildren; c++) {
            uint32_t ci = h->first_child + c;
            uint32_t v = sbx_tree_hdr_at(t, ci)->visits;
            if (v >= floor && (v > 0 || floor == 0)) {
                sbx_heap_push(heap, &hn, (sbx_heap_item){v, ci});
            }
        }
    }

    /* Breadth-first write-out; `out` doubles as the queue. */
    int rows = 0;
    const sbx_tree_hdr *root = sbx_tree_hdr_at(t, top);
    memset(&out[0], 0, sizeof out[0]);
    out[0].node = (int32_t)top;
    out[0].parent = -1;
    out[0].visits = (int32_t)root->visits;
    out[0].prob = 1.0f;
    out[0].depth = (int16_t)root->depth;
    out[0].move = SBX_MOVE_NONE;
    out[0].agent = -1;
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    fill(ctx, t, top, &out[0]);
    /* the top row is the view's root: no move, joint or prior of its own */
    out[0].flags &= (uint8_t)~SBX_NODE_PRIOR;
    out[0].prior = 0.0f;
    out[0].move = SBX_MOVE_NONE;
    out[0].agent = -1;
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    rows = 1;
    sbx_bit_clear(t->mark, top);
    for (int head = 0; head < rows; head++) {
        const sbx_tree_hdr *h = sbx_tree_hdr_at(t, (uint32_t)out[head].node);
        double sum = 0;
        for (uint32_t c = 0; c < h->nchildren; c++) sum += sbx_tree_hdr_at(t, h->first_child + c)->visits;
        for (uint32_t c = 0; c < h->nchildren; c++) {
            uint32_t ci = h->first_child + c;
            const sbx_tree_hdr *ch = sbx_tree_hdr_at(t, ci);
            if (!sbx_bit_get(t->mark, ci)) {
                if (ch->visits > 0) out[head].flags |= SBX_NODE_TRUNCATED;
                continue;
            }
            sbx_bit_clear(t->mark, ci);
            sbx_snapshot_node *r = &out[rows];
            memset(r, 0, sizeof *r);
            r->node = (int32_t)ci;
            r->parent = head;
            r->visits = (int32_t)ch->visits;
            r->prob = sum > 0 ? (float)(ch->visits / sum) : 0.0f;
            r->depth = (int16_t)ch->depth;
            r->move = SBX_MOVE_NONE;
            r->agent = -1;
            memset(r->joint, SBX_MOVE_NONE, sizeof r->joint);
            fill(ctx, t, ci, r);
            rows++;
        }
    }
    *n_out = rows;
    return SBX_OK;
}

int sbx_tree_find_path(const sbx_tree *t, const uint8_t *path, int steps, int stride,
                       sbx_tree_step_fn match, const void *ctx, int32_t *node_out) {
    uint32_t node = 0;
    for (int k = 0; k < steps; k++) {
        const sbx_tree_hdr *h = sbx_tree_hdr_at(t, node);
        uint32_t next = 0;
        for (uint32_t c = 0; c < h->nchildren && !next; c++) {
            if (match(ctx, t, h->first_child + c, path + (size_t)k * (size_t)stride))
                next = h->first_child + c;
        }
        if (!next) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d leads to no node (node %u has %u "
                            "children, none for that move)", k + 1, steps, node,
                            (unsigned)h->nchildren);
        }
        node = next;
    }
    *node_out = (int32_t)node;
    return SBX_OK;
}

/* ------------------------------------------------------------ a one-tree search */

int sbx_one_tree_create(sbx_search *s, size_t size, size_t stride, const char *what) {
    sbx_one_tree *o = calloc(1, size);
    if (!o) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a %s tree", what);
    s->algo = o;
    o->t.stride = stride;
    if (sbx_tree_alloc(&o->t, (uint32_t)s->p.node_cap) != SBX_OK) {
        sbx_one_tree_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory allocating a %d-node tree arena",
                        s->p.node_cap);
    }
    sbx_one_tree_bounds_reset(o);
    return SBX_OK;
}

void sbx_one_tree_destroy(sbx_search *s) {
    sbx_one_tree *o = s->algo;
    if (!o) return;
    sbx_tree_free(&o->t);
    free(o);
    s->algo = NULL;
}

void sbx_one_tree_bounds_reset(sbx_one_tree *o) {
    for (int a = 0; a < SBX_MAX_AGENTS; a++) {
        o->smin[a] = INFINITY;
        o->smax[a] = -INFINITY;
    }
}

/* An agent's bounds as reported: 0..0 while none is known. */
static void bounds_out(const sbx_one_tree *o, int n, double *lo, double *hi) {
    for (int a = 0; a < n; a++) {
        lo[a] = o->smin[a] <= o->smax[a] ? o->smin[a] : 0.0;
        hi[a] = o->smin[a] <= o->smax[a] ? o->smax[a] : 0.0;
    }
}

void sbx_one_tree_fill_stats(const sbx_one_tree *o, int num_agents, sbx_search_stats *out) {
    out->node_bytes = (int32_t)o->t.stride;
    out->trees = 1;
    /* one tree holds every agent's statistics: each agent's view of it */
    for (int a = 0; a < num_agents; a++) {
        out->nodes[a] = (int32_t)o->t.used;
        out->root_visits[a] = (int32_t)sbx_tree_hdr_at(&o->t, 0)->visits;
        out->max_depth_reached[a] = o->depth_reached;
    }
    bounds_out(o, num_agents, out->norm_min, out->norm_max);
}

void sbx_one_tree_trace(const sbx_one_tree *o, int num_agents, sbx_trace *tr, int depth,
                        int terminal, uint64_t sim_seed, const uint32_t *path, int plen,
                        const double *score) {
    tr->depth = depth;
    tr->terminal = terminal;
    tr->sim_seed = sim_seed;
    tr->path_len[0] = plen;
    int32_t *flat = &tr->path[0][0];
    for (int i = 0; i < plen; i++) flat[i] = (int32_t)path[i];
    for (int a = 0; a < num_agents; a++) tr->score[a] = score[a];
    bounds_out(o, num_agents, tr->norm_min, tr->norm_max);
}

/* ------------------------------------------------------------ outcomes */

void sbx_outcome_start(sbx_outcome *o, const sbx_search *s, const void *sim) {
    const uint32_t alive0 = s->vt->alive_mask(s->cfg, sim);
    for (int a = 0; a < s->num_agents; a++) {
        o->alive[a] = (uint8_t)((alive0 >> a) & 1u);
        o->frozen[a] = 0;
    }
}

uint32_t sbx_outcome_step(sbx_outcome *o, const sbx_search *s, const void *sim,
                          int depth, sbx_trace *tr) {
    const int d = depth - 1;
    const int freeze = s->p.elimination == SBX_ELIM_FREEZE;
    const uint32_t alive_now = s->vt->alive_mask(s->cfg, sim);
    uint32_t died = 0;
    int newly_frozen = 0;
    for (int a = 0; a < s->num_agents; a++) {
        if (!o->alive[a]) {
            if (tr) tr->alive_after[a][d] = 0;
            continue;
        }
        const int now = (int)((alive_now >> a) & 1u);
        if (tr) tr->alive_after[a][d] = (int8_t)now;
        if (!now) {
            died |= 1u << a;
            o->alive[a] = 0;
            if (freeze) {
                o->frozen[a] = 1;
                o->leaf_depth[a] = depth;
                newly_frozen = 1;
            }
        }
    }
    if (newly_frozen) {
        double at_death[SBX_MAX_AGENTS];
        sbx_search_evaluate(s, sim, at_death);
        for (int a = 0; a < s->num_agents; a++) {
            if (o->frozen[a] == 1) {
                o->score[a] = at_death[a];
                o->frozen[a] = 2;
            }
        }
    }
    return died;
}

void sbx_outcome_finish(sbx_outcome *o, const sbx_search *s, const void *sim,
                        int depth, double *smin, double *smax) {
    double final_scores[SBX_MAX_AGENTS];
    sbx_search_evaluate(s, sim, final_scores);
    for (int a = 0; a < s->num_agents; a++) {
        if (!o->frozen[a]) {
            o->score[a] = final_scores[a];
            o->leaf_depth[a] = depth;
        }
        if (s->p.depth_normalize) {
            o->score[a] /= (double)(o->leaf_depth[a] > 1 ? o->leaf_depth[a] : 1);
        }
        if (o->score[a] < smin[a]) smin[a] = o->score[a];
        if (o->score[a] > smax[a]) smax[a] = o->score[a];
    }
}

void sbx_gamma_powers(double gamma, double *gpow) {
    gpow[0] = 1.0;
    for (int i = 1; i <= SBX_MAX_DEPTH; i++) gpow[i] = gpow[i - 1] * gamma;
}
