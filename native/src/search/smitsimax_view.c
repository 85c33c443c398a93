/*
 * smitsimax_view.c — what Smitsimax shows of its trees: the move played,
 * root stats (summed over root parallelism's tree sets), the stats, tree
 * snapshots and move paths.
 */
#include "smitsimax_view.h"

#include <math.h>
#include <string.h>

#include "tree.h"

/* Root parallelism merges the root statistics of the tree sets in use
 * (threads 1..threads-1 that exist and share the root's children: all
 * expanded from one root state, in legal-move order). Set 0 is x->t. */
static int merged_sets(const sbx_search *s, const smx_tree **sets, int agent) {
    const smx *x = s->algo;
    int n = 0;
    sets[n++] = &x->t[agent];
    if (s->p.parallel != SBX_PAR_ROOT) return n;
    const smx_node *r0 = &x->t[agent].nodes[0];
    for (int j = 1; j < s->p.threads; j++) {
        if (!x->rootset[j]) continue;
        const smx_tree *t = &x->rootset[j][agent];
        const smx_node *r = &t->nodes[0];
        if (r->nchildren == 0 && r->pass_child == 0) continue; /* nothing yet */
        if (r0->nchildren == 0 && r0->pass_child == 0) { /* set 0 empty: lead */
            sets[0] = t;
            r0 = r;
            continue;
        }
        if (r->nchildren != r0->nchildren) continue;
        sets[n++] = t;
    }
    return n;
}

/* A root child's visits and total summed over the merged sets: index
 * c < nchildren, or nchildren for the pass child. */
static void merged_child(const smx_tree **sets, int n, uint32_t c, uint32_t *visits,
                         double *total) {
    *visits = 0;
    *total = 0.0;
    for (int j = 0; j < n; j++) {
        const smx_node *r = &sets[j]->nodes[0];
        uint32_t idx = c < r->nchildren ? r->first_child + c : r->pass_child;
        if (idx == 0) continue;
        *visits += sets[j]->nodes[idx].visits;
        *total += sets[j]->nodes[idx].total;
    }
}

/* ------------------------------------------------------------ inspection */

/* The sample of final_move=sample: a pure function of the search's state
 * (its RNG word, not advanced, and the iteration counters) and the agent,
 * so asking again, or asking summary and best_moves, gives the same move. */
static double final_draw(const sbx_search *s, int agent) {
    uint64_t h = s->rng ^ ((uint64_t)s->iterations * 0xD1B54A32D192ED03ULL) ^
                 ((uint64_t)s->iterations_root << 20) ^ (uint64_t)agent;
    return rng_unit(&h);
}

/* Exp3 / RM: the average strategy's argmax (ties: the earlier move) or a
 * draw from it; -1 if it is still empty. */
static int average_pick(const sbx_search *s, const smx_tree *t, int agent) {
    const smx_node *root = &t->nodes[0];
    const double *avg = &AVG(t, root->first_child); /* child i's: avg[2 * i] */
    double sum = 0.0;
    int best = -1;
    for (int i = 0; i < root->nchildren; i++) {
        sum += avg[2 * i];
        if (avg[2 * i] > 0.0 && (best < 0 || avg[2 * i] > avg[2 * best])) best = i;
    }
    if (best < 0 || s->p.final_move == SBX_FINAL_ARGMAX) return best;
    /* temperature sharpens (< 1) or flattens (> 1) the draw, as MCGS's and
     * gtcfr's; 1 draws from the average itself, bit for bit as before */
    const double inv_t = 1.0 / s->p.temperature;
    double w[SBX_MAX_MOVES];
    if (inv_t != 1.0) {
        sum = 0.0;
        for (int i = 0; i < root->nchildren; i++) {
            w[i] = avg[2 * i] > 0.0 ? pow(avg[2 * i], inv_t) : 0.0;
            sum += w[i];
        }
        if (!(sum > 0.0) || !isfinite(sum)) return best;
    } else {
        for (int i = 0; i < root->nchildren; i++) w[i] = avg[2 * i];
    }
    const double u = final_draw(s, agent) * sum;
    double acc = 0.0;
    for (int i = 0; i < root->nchildren; i++) {
        acc += w[i];
        if (w[i] > 0.0 && u < acc) return i;
    }
    return best; /* rounding at the top end */
}

/* UCB with final_move=sample: a draw from the root children's visit
 * shares, visits^(1/temperature) (as MCGS's). A most-visited move is a
 * pure strategy, and in a simultaneous game a pure strategy is what an
 * opponent can read; the visit shares are the mixed strategy the search
 * spent its time on. The same draw however often it is asked
 * (final_draw). `best`: the most visited, kept where rounding leaves the
 * draw past the end. */
static int visits_pick(const sbx_search *s, const smx_tree **sets, int nsets, int k,
                       int agent, int best) {
    double w[SBX_MAX_MOVES], sum = 0.0;
    const double inv_t = 1.0 / s->p.temperature;
    for (int c = 0; c < k; c++) {
        uint32_t v;
        double tot;
        merged_child(sets, nsets, (uint32_t)c, &v, &tot);
        w[c] = v ? pow((double)v, inv_t) : 0.0;
        sum += w[c];
    }
    if (!(sum > 0.0) || !isfinite(sum)) return best;
    const double u = final_draw(s, agent) * sum;
    double acc = 0.0;
    for (int c = 0; c < k; c++) {
        acc += w[c];
        if (w[c] > 0.0 && u < acc) return c;
    }
    return best;
}

void smx_best_moves(sbx_search *s, int32_t *out) {
    smx *x = s->algo;
    uint8_t moves[SBX_MAX_MOVES];
    for (int a = 0; a < s->num_agents; a++) {
        const smx_tree *t = &x->t[a];
        const smx_node *root = &t->nodes[0];
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        if (k == 0) {
            out[a] = SBX_MOVE_NONE;
            continue;
        }
        out[a] = moves[0]; /* no visits yet: first legal move */
        if (IS_SAMPLING(s->policy)) {
            int i = average_pick(s, t, a);
            if (i >= 0) out[a] = t->nodes[root->first_child + (uint32_t)i].move;
            continue;
        }
        const smx_tree *sets[SBX_MAX_THREADS];
        const int nsets = merged_sets(s, sets, a);
        const smx_node *r0 = &sets[0]->nodes[0];
        int best = -1;
        uint32_t best_v = 0;
        double best_t = 0.0;
        for (uint32_t c = 0; c < r0->nchildren; c++) {
            uint32_t v;
            double tot;
            merged_child(sets, nsets, c, &v, &tot);
            if (v == 0) continue;
            if (best < 0 || v > best_v || (v == best_v && tot / v > best_t / best_v)) {
                best = (int)c;
                best_v = v;
                best_t = tot;
            }
        }
        if (best >= 0 && s->p.final_move == SBX_FINAL_SAMPLE) {
            best = visits_pick(s, sets, nsets, r0->nchildren, a, best);
        }
        if (best >= 0) out[a] = sets[0]->nodes[r0->first_child + (uint32_t)best].move;
    }
}

int smx_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap, int *n_out) {
    /* root parallelism: visits and totals summed over the threads' sets */
    const smx_tree *sets[SBX_MAX_THREADS];
    const int nsets = merged_sets(s, sets, agent);
    const smx_tree *t = sets[0];
    const smx_node *root = &t->nodes[0];
    int k = root->nchildren + (root->pass_child ? 1 : 0);
    if (k > cap) {
        return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap,
                        k);
    }
    uint32_t mv[SBX_MAX_MOVES + 1];
    double mt[SBX_MAX_MOVES + 1];
    double sum = 0, avg = 0;
    const int sampling = IS_SAMPLING(s->policy);
    for (int i = 0; i < k; i++) {
        merged_child(sets, nsets, (uint32_t)i, &mv[i], &mt[i]);
        sum += mv[i];
        if (sampling && i < root->nchildren) avg += AVG(t, root->first_child + (uint32_t)i);
    }
    for (int i = 0; i < k; i++) {
        uint32_t idx = i < root->nchildren ? root->first_child + (uint32_t)i
                                           : root->pass_child;
        const smx_node *c = &t->nodes[idx];
        out[i].move = c->move == SBX_MOVE_NONE ? -1 : c->move;
        out[i].visits = (int32_t)mv[i];
        out[i].mean = mv[i] ? mt[i] / mv[i] : 0.0;
        out[i].prob = sum > 0 ? mv[i] / sum : 0.0;
        /* Exp3 / RM: the normalised average strategy (a pass child is
         * not a strategy's move: its visit share) */
        out[i].policy = sampling && i < root->nchildren
                            ? (avg > 0 ? AVG(t, idx) / avg : 0.0)
                            : out[i].prob;
    }
    *n_out = k;
    return SBX_OK;
}

void smx_fill_stats(sbx_search *s, sbx_search_stats *out) {
    smx *x = s->algo;
    /* a sampling policy's node has its two doubles in the side array, and
     * a prior's node its prior there (the pair's pages are touched) */
    out->node_bytes = (int32_t)(sizeof(smx_node) +
                                (IS_SAMPLING(s->policy) || puct_on(s) ? 2 * sizeof(double) : 0));
    out->trees = s->num_agents;
    for (int a = 0; a < s->num_agents; a++) {
        const smx_tree *t = &x->t[a];
        out->nodes[a] = (int32_t)t->used;
        out->root_visits[a] = (int32_t)t->nodes[0].visits;
        for (int j = 1; s->p.parallel == SBX_PAR_ROOT && j < s->p.threads; j++) {
            if (!x->rootset[j]) continue; /* root parallelism: every set's */
            out->nodes[a] += (int32_t)x->rootset[j][a].used;
            out->root_visits[a] += (int32_t)x->rootset[j][a].nodes[0].visits;
        }
        out->max_depth_reached[a] = t->depth_reached;
        double lo, hi;
        norm_range(t, s->p.bounds, 1, &lo, &hi);
        out->norm_min[a] = lo <= hi ? lo : 0.0;
        out->norm_max[a] = lo <= hi ? hi : 0.0;
    }
}

/* Snapshot: best-first by visits from the root (a max-heap), so the rows are
 * the most-visited nodes and always a connected tree (a child never has more
 * visits than its parent); then a breadth-first pass writes them parents
 * first with siblings in move order. */
int smx_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes, int min_visits,
                 sbx_snapshot_node *out, int *n_out) {
    smx *x = s->algo;
    smx_tree *t = &x->t[agent];
    const int puct = puct_on(s);
    if (top >= t->used) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "snapshot: node %u is not in agent %d's tree (ids 0..%u)", top, agent,
                        t->used - 1);
    }
    if ((uint32_t)max_nodes > t->used) max_nodes = (int)t->used;
    size_t heap_cap = (size_t)max_nodes * (size_t)(s->max_moves + 1) + 1;
    sbx_heap_item *heap = sbx_search_scratch(s, heap_cap * sizeof *heap);
    if (!heap) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a snapshot");
    const uint32_t floor = (uint32_t)(min_visits > 0 ? min_visits : 0);

    int hn = 0, count = 0;
    sbx_heap_push(heap, &hn, (sbx_heap_item){t->nodes[top].visits, top});
    while (hn > 0 && count < max_nodes) {
        sbx_heap_item it = sbx_heap_pop(heap, &hn);
        if (it.node != top && it.visits < floor) break;
        sbx_bit_set(t->mark, it.node);
        count++;
        const smx_node *nd = &t->nodes[it.node];
        for (uint32_t c = 0; c < nd->nchildren; c++) {
            uint32_t ci = nd->first_child + c;
            if (t->nodes[ci].visits >= floor && (t->nodes[ci].visits > 0 || floor == 0))
                sbx_heap_push(heap, &hn, (sbx_heap_item){t->nodes[ci].visits, ci});
        }
        if (nd->pass_child) {
            uint32_t ci = nd->pass_child;
            if (t->nodes[ci].visits >= floor && (t->nodes[ci].visits > 0 || floor == 0))
                sbx_heap_push(heap, &hn, (sbx_heap_item){t->nodes[ci].visits, ci});
        }
    }

    /* Breadth-first write-out; `out` doubles as the queue. */
    int rows = 0;
    const smx_node *root = &t->nodes[top];
    out[rows++] = (sbx_snapshot_node){(int32_t)top, -1, (int32_t)root->visits,
                                      root->visits ? (float)(root->total / root->visits) : 0.0f,
                                      1.0f, (int16_t)root->depth, SBX_MOVE_NONE,
                                      (uint8_t)(top ? root->flags & 0x0F : 0), -1, {0}, 0.0f};
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    sbx_bit_clear(t->mark, top);
    for (int head = 0; head < rows; head++) {
        const smx_node *nd = &t->nodes[out[head].node];
        double sum = 0;
        for (uint32_t c = 0; c < nd->nchildren; c++) sum += t->nodes[nd->first_child + c].visits;
        if (nd->pass_child) sum += t->nodes[nd->pass_child].visits;
        int total_children = nd->nchildren + (nd->pass_child ? 1 : 0);
        for (int c = 0; c < total_children; c++) {
            uint32_t ci = c < nd->nchildren ? nd->first_child + (uint32_t)c
                                            : nd->pass_child;
            const smx_node *ch = &t->nodes[ci];
            if (!sbx_bit_get(t->mark, ci)) {
                if (ch->visits > 0) out[head].flags |= SBX_NODE_TRUNCATED;
                continue;
            }
            sbx_bit_clear(t->mark, ci);
            out[rows++] = (sbx_snapshot_node){
                (int32_t)ci,
                head,
                (int32_t)ch->visits,
                ch->visits ? (float)(ch->total / ch->visits) : 0.0f,
                sum > 0 ? (float)(ch->visits / sum) : 0.0f,
                (int16_t)ch->depth,
                ch->move,
                (uint8_t)(ch->flags & 0x0F),
                (int8_t)agent,
                {0},
                0.0f};
            memset(out[rows - 1].joint, SBX_MOVE_NONE, sizeof out[rows - 1].joint);
            if (puct && ci != nd->pass_child) { /* its side-array slot (set_priors) */
                out[rows - 1].prior = (float)STAT(t, ci);
                out[rows - 1].flags |= SBX_NODE_PRIOR;
            }
        }
    }
    *n_out = rows;
    return SBX_OK;
}

/* A path step is this tree's agent's move (SBX_MOVE_NONE: its pass node). */
int smx_find_path(sbx_search *s, int agent, const uint8_t *path, int steps, int stride,
                  int32_t *node_out) {
    smx *x = s->algo;
    const smx_tree *t = &x->t[agent];
    uint32_t node = 0;
    for (int k = 0; k < steps; k++) {
        const smx_node *nd = &t->nodes[node];
        const uint8_t m = path[(size_t)k * (size_t)stride];
        uint32_t next = 0;
        if (m == SBX_MOVE_NONE) {
            next = nd->pass_child;
        } else {
            for (uint32_t c = 0; c < nd->nchildren && !next; c++)
                if (t->nodes[nd->first_child + c].move == m) next = nd->first_child + c;
        }
        if (!next) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "find_path: step %d of %d (move %u) leads to no node of agent %d's "
                            "tree (node %u has %u children)", k + 1, steps, (unsigned)m, agent,
                            node, (unsigned)nd->nchildren);
        }
        node = next;
    }
    *node_out = (int32_t)node;
    return SBX_OK;
}

int64_t smx_node_count(sbx_search *s) {
    smx *x = s->algo;
    int64_t n = 0;
    for (int a = 0; a < s->num_agents; a++) n += x->t[a].used;
    for (int j = 1; j < SBX_MAX_THREADS; j++) {
        if (!x->rootset[j]) continue;
        for (int a = 0; a < s->num_agents; a++) n += x->rootset[j][a].used;
    }
    return n;
}
