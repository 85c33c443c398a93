/*
 * pubcfr.c — CFR+ over public states, for two-player games with hidden
 * information that split their states into a public part and one private
 * state per seat (game.h: public_key, private_states, compose; goofspiel
 * with imp_info=1: the hand). docs/algorithms.md, "public-state CFR".
 *
 * The search plays for one seat, s = info_seat, and reads only what s may
 * see. At the root it asks the game for
 *   s's own private state (a point mass: s knows its hand), and
 *   the opponent's private states consistent with s's view, each weighted
 *     by the number of the opponent's histories that end in it -- the
 *     opponent's range if it had played uniformly at random so far (the
 *     unsafe re-solving assumption; with tree_reuse on, the previous
 *     search's summary and the gadget of safe re-solving replace it after
 *     the first turn: pc_advance).
 * The root's histories are the pairs (own private state, opponent private
 * state), weighted by the product of the two ranges.
 *
 * Tree (default). Breadth-first from the root, one level (round) at a time, up to
 * max_depth levels while the level's histories fit node_cap (a level that
 * would not fit is left as the frontier). A history is a pair of
 * information states (one per seat) at one public node; its joint actions
 * are stepped on a state the game composes from the node's public state and
 * the pair's private states, and each child is filed under the public node
 * of its public key (one per public outcome: in goofspiel who won the
 * prize). An information state is a seat's private state at the search
 * root followed by its own moves since: two of them are one only if both
 * coincide (perfect recall). Keying information states by the current
 * private state alone (the hand) would merge different own histories that
 * lead to the same hand and lose which opponent histories they are
 * compatible with; each information state here still knows its private
 * state (the hand) for the game. Terminal children hold their exact value,
 * frontier histories the game's evaluate() of the composed state. Every
 * value is player 0's zero-sum part u = (e0 - e1) / 2 of the evaluation.
 *
 * Growing mode (grow_tree; Student of Games' growing-tree CFR over public
 * states, the knobs named as gtcfr.c's). The tree starts as the root public
 * node with its histories expanded one round. One search iteration is the
 * regret-update phase, 1/c CFR+ iterations (c = expansions_per_update,
 * credited across iterations as gtcfr.c does), then one expansion
 * simulation: a root history drawn by the product of the two root ranges,
 * then at each interior history each seat's move at its information state,
 * a fair coin choosing between the PUCT argmax (Q = the move's
 * counterfactual value over the opponent's reach of the information state,
 * mapped onto [0, 1] by the range of values in the tree; uniform priors;
 * visits counted per information state) and a draw from the average
 * strategy, down to the first frontier history. Its whole public node is
 * expanded: every history there gets its children, so an information state
 * (which lives at one public node) never has some histories expanded and
 * others not. A terminal joint action, a frontier at max_depth rounds or a
 * whole tree ends the simulation without expanding; an expansion that might
 * not fit node_cap stops the run (SBX_STOP_NODE_CAP). Frontier values are
 * the evaluation, as above (no rollouts, no expand_after: the evaluation is
 * deterministic, so refining it would add nothing), and no virtual losses.
 * All draws come from the search's RNG: same seed, same tree.
 *
 * One CFR+ iteration has alternating updates (seat 0's
 * pass, then seat 1's against seat 0's new strategy), as imperfect.py's
 * tabular CFR+ does:
 *   current strategy: regret matching+ of each information state's regrets;
 *   reach, top-down: a root information state's reach is its range weight,
 *     a child's its parent's times the parent's probability of the move;
 *   values, bottom-up over the histories: U[a][b] per joint action, the
 *     history's value v = sum sigma0(a) sigma1(b) U[a][b], and the
 *     counterfactual value of the updating seat's information state I
 *     and move a, summed over the histories h in I:
 *       cfv(I, a) += reach_opp(h) * sum_b sigma_opp(b) U_i[a][b]
 *     (the opponent's reach includes its root range);
 *   regrets: r(I, a) = max(r(I, a) + cfv(I, a) - sum_a' sigma(a') cfv(I, a'), 0);
 *   average: avg(I) += t * reach_i(I) * sigma(I) (linear averaging).
 * Chance is not handled: the game's private_states refuses a state whose
 * step would draw (goofspiel's random prize order).
 *
 * Playing: a draw from the average strategy of s's root information state
 * (final_move=sample; the same however often asked) or its argmax. Between
 * turns the tree is rebuilt (or, growing, started again) from the new root
 * with fresh statistics: with tree_reuse off every decision re-solves with
 * the uniform-play opponent range above, on from the previous search's
 * summary with the gadget (summarize, root_from_carry). For the
 * other seat the search does not decide: root_stats gives its average
 * strategy mixed over its root range (what s expects it to play), and
 * best_moves its first legal move.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "cfr_kernel.h"
#include "search.h"

/* Documented limit: a seat may hold at most this many private states at the
 * root (goofspiel-13 needs at most C(13, 6) = 1716 hands). */
#define PC_MAX_PRIVATE 2048

#define H_FRONTIER 0
#define H_INTERIOR 1

/* per information state and move: regret, average-strategy sum, current
 * strategy, this pass's counterfactual value, the last pass's; growing mode
 * (grow_tree): PUCT's Q (the move's value against the opponent's current
 * strategy, the seat's side) and the simulations that took the move */
enum { A_REGRET, A_AVG, A_CUR, A_CFV, A_LAST, A_Q, A_VISITS, A_PRIOR, A_COUNT };

typedef struct pc_info {
    int32_t parent;        /* information state at the parent node, -1: root */
    int32_t slot;          /* its private state's slot in the value net's
                              ranges (-2: not looked up yet)                 */
    uint32_t node;         /* public node                                    */
    uint32_t id;           /* the game's private state (goofspiel: hand)     */
    uint32_t off;          /* first of its A_COUNT * k doubles               */
    double weight;         /* root: range weight (normalised); else 0        */
    double reach;          /* this pass: own reach                           */
    double oreach;         /* this pass: the opponent's reach, summed over
                              its histories (growing mode's Q)               */
    uint32_t nh;           /* this pass: its interior histories              */
    uint8_t act;           /* the move index taken at the parent             */
    uint8_t k;             /* legal moves                                    */
    uint8_t interior;      /* some history of it is expanded                 */
    uint8_t seat;
    uint8_t mv[SBX_MAX_MOVES];
} pc_info;

typedef struct pc_hist {
    uint32_t node;
    uint32_t i[2];         /* information states of seat 0 and seat 1        */
    uint32_t slot;         /* interior: first of its k0 * k1 slots           */
    int32_t next;          /* the next history at its public node, -1: last  */
    uint32_t sims;         /* growing mode: simulations that passed here     */
    uint16_t depth;
    uint8_t kind;
    double value;          /* player 0's: frontier's evaluation (with a value
                              net: the net's, for the seat this pass
                              updates), or this pass's value of an interior
                              history                                        */
    double base;           /* frontier: the game's evaluation                */
} pc_hist;

typedef struct pc_node {
    uint64_t key;          /* the game's public key                          */
    int32_t parent, child, sibling;
    uint32_t state;        /* its public state: a composed state (index)     */
    int32_t hfirst, hlast; /* its histories, a list through pc_hist.next     */
    uint16_t depth;
    uint8_t expanded;      /* its histories have their children              */
} pc_node;

typedef struct pubcfr {
    pc_node *nodes;
    pc_info *infos;
    pc_hist *hists;
    int32_t *slot_child;   /* child history, or -1: terminal (slot_value)    */
    double *slot_value;
    double *dpool;
    unsigned char *states;
    size_t n_nodes, c_nodes, n_infos, c_infos, n_hists, c_hists, n_slots, c_slots,
        n_d, c_d, n_states, c_states;
    /* (node, parent information state, move) -> information state */
    uint64_t *map_key;
    uint32_t *map_val;
    size_t map_cap, map_used;
    cfr_core c;            /* CFR+ iterations run on this tree (t), growing
                              mode's credit and value range, the seed, scratch */
    int seat;              /* the seat the search plays for                  */
    uint32_t actual;       /* its information state at the root              */
    /* the re-solving gadget (continual re-solving, tree_reuse on): per
     * opponent root information state j (infos[g_first + j]) the value it
     * may take instead of playing (v, the previous search's counterfactual
     * value), its range in the previous search (normalised), the regrets
     * of follow and terminate (g_r[2j], g_r[2j + 1]), and this pass's reach */
    int g_n;
    uint32_t g_first;
    double *g_v, *g_prev, *g_r, *g_reach;
    double mix;            /* resolve_mix in force (the gadget's share)      */
    int depth_built;
    int growing;           /* grow_tree when the tree was built              */
    /* the belief view (sbx_search_pubcfr_node_range): each information
     * state's reach under the average strategies, kept while the tree and
     * its iteration count are those it was computed for */
    double *b_reach;
    double *b_node;        /* per public node: the sum of r0 * r1 over its
                              histories, then how many there are          */
    size_t b_n, b_h;
    int64_t b_t;
    int broken;            /* the root could not be split (after an advance) */
} pubcfr;

/* ------------------------------------------------------------ storage */

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

static double *ARR(const pubcfr *x, const pc_info *in, int which) {
    return x->dpool + in->off + (size_t)which * in->k;
}

static void *STATE(const pubcfr *x, uint32_t i, size_t size) {
    return x->states + (size_t)i * size;
}

static int map_grow(pubcfr *x) {
    const size_t cap = x->map_cap ? x->map_cap * 2 : 1024;
    uint64_t *k = malloc(cap * sizeof *k);
    uint32_t *v = malloc(cap * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return 0;
    }
    memset(k, 0xFF, cap * sizeof *k);
    for (size_t i = 0; i < x->map_cap; i++) {
        if (x->map_key[i] == UINT64_MAX) continue;
        size_t j = cfr_mix64(x->map_key[i]) & (cap - 1);
        while (k[j] != UINT64_MAX) j = (j + 1) & (cap - 1);
        k[j] = x->map_key[i];
        v[j] = x->map_val[i];
    }
    free(x->map_key);
    free(x->map_val);
    x->map_key = k;
    x->map_val = v;
    x->map_cap = cap;
    return 1;
}

static void free_tree(pubcfr *x) {
    free(x->nodes);
    free(x->infos);
    free(x->hists);
    free(x->slot_child);
    free(x->slot_value);
    free(x->dpool);
    free(x->states);
    free(x->map_key);
    free(x->map_val);
    free(x->b_reach);
    free(x->b_node);
    x->b_reach = x->b_node = NULL;
    x->b_n = x->b_h = 0;
    x->nodes = NULL;
    x->infos = NULL;
    x->hists = NULL;
    x->slot_child = NULL;
    x->slot_value = NULL;
    x->dpool = NULL;
    x->states = NULL;
    x->map_key = NULL;
    x->map_val = NULL;
    x->n_nodes = x->c_nodes = x->n_infos = x->c_infos = x->n_hists = x->c_hists = 0;
    x->n_slots = x->c_slots = x->n_d = x->c_d = x->n_states = x->c_states = 0;
    x->map_cap = x->map_used = 0;
}

/* The summary a search leaves for the next one at the public state the game
 * reached (continual re-solving): both seats' information states there with
 * their reach under the average strategies, the opponent's counterfactual
 * values, the histories (compatible pairs), and which one is the seat's. */
typedef struct pc_carry {
    int n[2];
    uint32_t *ids[2];
    double *w[2];
    double *v;             /* opponent's counterfactual values (NULL: a
                              query's beliefs, solved without the gadget)   */
    int nh;
    uint32_t *pairs;       /* 2 per history: indices into the lists above   */
    int actual;            /* the seat's own information state (its list)    */
} pc_carry;

static void carry_free(pc_carry *c) {
    for (int p = 0; p < 2; p++) {
        free(c->ids[p]);
        free(c->w[p]);
    }
    free(c->v);
    free(c->pairs);
    memset(c, 0, sizeof *c);
}

static void gadget_free(pubcfr *x) {
    free(x->g_v);
    free(x->g_prev);
    free(x->g_r);
    free(x->g_reach);
    x->g_v = x->g_prev = x->g_r = x->g_reach = NULL;
    x->g_n = 0;
}

static int oom(void) { return sbx_fail(SBX_ERR_MEMORY, "out of memory building a pubcfr tree"); }

static int new_node(sbx_search *s, pubcfr *x, int32_t parent, uint64_t key, const void *st,
                    int depth, uint32_t *out) {
    if (!grow((void **)&x->nodes, &x->c_nodes, x->n_nodes + 1, sizeof *x->nodes) ||
        !grow((void **)&x->states, &x->c_states, x->n_states + 1, s->state_size)) {
        return oom();
    }
    const uint32_t id = (uint32_t)x->n_nodes++;
    pc_node *nd = &x->nodes[id];
    nd->key = key;
    nd->parent = parent;
    nd->child = -1;
    nd->sibling = -1;
    nd->depth = (uint16_t)depth;
    nd->hfirst = nd->hlast = -1;
    nd->expanded = 0;
    nd->state = (uint32_t)x->n_states++;
    memcpy(STATE(x, nd->state, s->state_size), st, s->state_size);
    if (parent >= 0) {
        nd->sibling = x->nodes[parent].child;
        x->nodes[parent].child = (int32_t)id;
    }
    *out = id;
    return SBX_OK;
}

/* An information state of seat p at node, private state id; its legal
 * moves from `st` (a state holding that private state). */
static int new_info(sbx_search *s, pubcfr *x, uint32_t node, int p, int32_t parent, int act,
                    uint32_t id, const void *st, uint32_t *out) {
    if (!grow((void **)&x->infos, &x->c_infos, x->n_infos + 1, sizeof *x->infos)) return oom();
    pc_info *in = &x->infos[x->n_infos];
    memset(in, 0, sizeof *in);
    in->parent = parent;
    in->node = node;
    in->id = id;
    in->act = (uint8_t)act;
    in->seat = (uint8_t)p;
    in->slot = -2;
    uint8_t mv[SBX_MAX_MOVES + 8];
    const int k = s->vt->is_terminal(s->cfg, st) ? 0 : s->vt->legal_moves(s->cfg, st, p, mv);
    in->k = (uint8_t)k;
    memcpy(in->mv, mv, (size_t)k);
    if (!grow((void **)&x->dpool, &x->c_d, x->n_d + (size_t)A_COUNT * k, sizeof *x->dpool)) {
        return oom();
    }
    in->off = (uint32_t)x->n_d;
    memset(x->dpool + x->n_d, 0, (size_t)A_COUNT * k * sizeof *x->dpool);
    for (int a = 0; a < k; a++) x->dpool[x->n_d + (size_t)A_PRIOR * k + a] = 1.0 / k;
    x->n_d += (size_t)A_COUNT * k;
    *out = (uint32_t)x->n_infos++;
    return SBX_OK;
}

static int new_hist(pubcfr *x, uint32_t node, uint32_t i0, uint32_t i1, int depth,
                    uint32_t *out) {
    if (!grow((void **)&x->hists, &x->c_hists, x->n_hists + 1, sizeof *x->hists)) return oom();
    pc_hist *h = &x->hists[x->n_hists];
    memset(h, 0, sizeof *h);
    h->node = node;
    h->i[0] = i0;
    h->i[1] = i1;
    h->depth = (uint16_t)depth;
    h->kind = H_FRONTIER;
    h->next = -1;
    pc_node *nd = &x->nodes[node];
    if (nd->hlast >= 0) {
        x->hists[nd->hlast].next = (int32_t)x->n_hists;
    } else {
        nd->hfirst = (int32_t)x->n_hists;
    }
    nd->hlast = (int32_t)x->n_hists;
    *out = (uint32_t)x->n_hists++;
    return SBX_OK;
}

/* ------------------------------------------------------------ building */

/* x->c.tmp = the state of history h: its node's public state, its pair's
 * private states. */
static int compose_hist(sbx_search *s, pubcfr *x, const pc_hist *h, void *out) {
    const uint32_t ids[2] = {x->infos[h->i[0]].id, x->infos[h->i[1]].id};
    return s->vt->compose(s->cfg, STATE(x, x->nodes[h->node].state, s->state_size), ids, out);
}

static int own_id(sbx_search *s, const void *st, int p, uint32_t *id) {
    double w;
    const int n = s->vt->private_states(s->cfg, st, p, p, id, &w, 1);
    return n == 1 ? SBX_OK : (n < 0 ? n : sbx_fail(SBX_ERR_STATE, "no private state"));
}

/* The child information state of seat p under (node, parent, move). */
static int child_info(sbx_search *s, pubcfr *x, uint32_t node, int p, uint32_t parent, int act,
                      const void *st, uint32_t *out) {
    if (x->map_used * 2 >= x->map_cap && !map_grow(x)) return oom();
    const uint64_t key = ((uint64_t)node << 40) ^ ((uint64_t)parent << 8) ^ (uint64_t)act;
    size_t j = cfr_mix64(key) & (x->map_cap - 1);
    while (x->map_key[j] != UINT64_MAX) {
        if (x->map_key[j] == key) {
            *out = x->map_val[j];
            return SBX_OK;
        }
        j = (j + 1) & (x->map_cap - 1);
    }
    uint32_t id;
    int rc = own_id(s, st, p, &id);
    if (rc) return rc;
    if ((rc = new_info(s, x, node, p, (int32_t)parent, act, id, st, out)) != SBX_OK) return rc;
    x->map_key[j] = key;
    x->map_val[j] = *out;
    x->map_used++;
    return SBX_OK;
}

/* Expands interior history hid: every joint action stepped, children filed
 * under their public nodes. */
static int expand(sbx_search *s, pubcfr *x, uint32_t hid) {
    pc_hist h = x->hists[hid];
    const pc_info *in0 = &x->infos[h.i[0]], *in1 = &x->infos[h.i[1]];
    const int k0 = in0->k, k1 = in1->k;
    uint8_t mv0[SBX_MAX_MOVES], mv1[SBX_MAX_MOVES];
    memcpy(mv0, in0->mv, (size_t)k0);
    memcpy(mv1, in1->mv, (size_t)k1);
    const size_t kk = (size_t)k0 * k1;
    if (!grow((void **)&x->slot_child, &x->c_slots, x->n_slots + kk, sizeof *x->slot_child)) {
        return oom();
    }
    size_t vcap = x->c_slots; /* slot_value grows alongside */
    double *sv = realloc(x->slot_value, vcap * sizeof *sv);
    if (!sv) return oom();
    x->slot_value = sv;
    const uint32_t slot = (uint32_t)x->n_slots;
    x->n_slots += kk;
    x->hists[hid].slot = slot;
    x->hists[hid].kind = H_INTERIOR;
    x->nodes[h.node].expanded = 1;
    x->infos[h.i[0]].interior = 1;
    x->infos[h.i[1]].interior = 1;
    int rc = compose_hist(s, x, &h, x->c.tmp);
    if (rc) return rc;
    for (int a = 0; a < k0; a++) {
        for (int b = 0; b < k1; b++) {
            const size_t sl = slot + (size_t)a * k1 + b;
            memcpy(x->c.tmp2, x->c.tmp, s->state_size);
            const uint8_t joint[2] = {mv0[a], mv1[b]};
            s->vt->step(s->cfg, x->c.tmp2, joint, NULL);
            if (s->vt->is_terminal(s->cfg, x->c.tmp2)) {
                x->slot_child[sl] = -1;
                x->slot_value[sl] = cfr_zero_sum(s, x->c.tmp2);
                cfr_range_see(&x->c.range, x->slot_value[sl]);
                continue;
            }
            const uint64_t key = s->vt->public_key(s->cfg, x->c.tmp2);
            int32_t c = x->nodes[h.node].child;
            while (c >= 0 && x->nodes[c].key != key) c = x->nodes[c].sibling;
            uint32_t node;
            if (c >= 0) {
                node = (uint32_t)c;
            } else if ((rc = new_node(s, x, (int32_t)h.node, key, x->c.tmp2, h.depth + 1,
                                      &node)) != SBX_OK) {
                return rc;
            }
            uint32_t c0, c1, ch = 0;
            if ((rc = child_info(s, x, node, 0, h.i[0], a, x->c.tmp2, &c0)) != SBX_OK ||
                (rc = child_info(s, x, node, 1, h.i[1], b, x->c.tmp2, &c1)) != SBX_OK ||
                (rc = new_hist(x, node, c0, c1, h.depth + 1, &ch)) != SBX_OK) {
                return rc;
            }
            x->hists[ch].value = x->hists[ch].base = cfr_zero_sum(s, x->c.tmp2);
            cfr_range_see(&x->c.range, x->hists[ch].value);
            x->slot_child[sl] = (int32_t)ch;
            x->slot_value[sl] = 0.0;
        }
    }
    return SBX_OK;
}

/* The root from a carried summary: its information states with their
 * ranges, its histories, the gadget for the opponent's. */
static int root_from_carry(sbx_search *s, pubcfr *x, const pc_carry *c, uint32_t root) {
    const int me = x->seat, opp = 1 - me;
    uint32_t first[2];
    int rc;
    for (int p = 0; p < 2; p++) {
        for (int j = 0; j < c->n[p]; j++) {
            uint32_t pair[2] = {c->ids[0][0], c->ids[1][0]};
            pair[p] = c->ids[p][j];
            if ((rc = s->vt->compose(s->cfg, s->root, pair, x->c.tmp)) != SBX_OK) return rc;
            uint32_t in;
            if ((rc = new_info(s, x, root, p, -1, 0, c->ids[p][j], x->c.tmp, &in)) != SBX_OK) {
                return rc;
            }
            x->infos[in].weight = c->w[p][j];
            if (j == 0) first[p] = in;
        }
    }
    x->actual = first[me] + (uint32_t)c->actual;
    for (int h = 0; h < c->nh; h++) {
        uint32_t id;
        if ((rc = new_hist(x, root, first[0] + c->pairs[2 * h], first[1] + c->pairs[2 * h + 1], 0,
                           &id)) != SBX_OK) {
            return rc;
        }
    }
    if (!c->v) return SBX_OK; /* a query's beliefs (set_beliefs): no gadget */
    const int n = c->n[opp];
    x->g_n = n;
    x->g_first = first[opp];
    x->g_v = malloc((size_t)n * sizeof(double));
    x->g_prev = malloc((size_t)n * sizeof(double));
    x->g_r = calloc(2 * (size_t)n, sizeof(double));
    x->g_reach = malloc((size_t)n * sizeof(double));
    if (!x->g_v || !x->g_prev || !x->g_r || !x->g_reach) return oom();
    double tot = 0.0;
    for (int j = 0; j < n; j++) tot += c->w[opp][j];
    for (int j = 0; j < n; j++) {
        x->g_v[j] = c->v[j];
        x->g_prev[j] = tot > 0.0 ? c->w[opp][j] / tot : 1.0 / n;
    }
    return SBX_OK;
}

static int grow_levels(sbx_search *s, pubcfr *x);
static int grow_start(sbx_search *s, pubcfr *x);
static void net_query(sbx_search *s, pubcfr *x, int persp, int priors, int root);

static int build(sbx_search *s, const pc_carry *carry) {
    pubcfr *x = s->algo;
    free_tree(x);
    gadget_free(x);
    cfr_core_restart(&x->c, &s->rng);
    x->broken = 0;
    x->depth_built = 0;
    x->seat = sbx_info_seat(&s->p);
    x->growing = s->p.grow_tree;
    if (s->vt->is_terminal(s->cfg, s->root)) return SBX_OK;
    int rc;
    if (carry) {
        uint32_t root;
        rc = new_node(s, x, -1, s->vt->public_key(s->cfg, s->root), s->root, 0, &root);
        if (rc || (rc = root_from_carry(s, x, carry, root)) != SBX_OK) return rc;
        return x->growing ? grow_start(s, x) : grow_levels(s, x);
    }
    uint32_t ids[2][PC_MAX_PRIVATE];
    double w[2][PC_MAX_PRIVATE];
    int n[2];
    for (int p = 0; p < 2; p++) {
        n[p] = s->vt->private_states(s->cfg, s->root, x->seat, p, ids[p], w[p], PC_MAX_PRIVATE);
        if (n[p] < 0) return n[p];
    }
    uint32_t root;
    rc = new_node(s, x, -1, s->vt->public_key(s->cfg, s->root), s->root, 0, &root);
    if (rc) return rc;
    uint32_t first[2];
    for (int p = 0; p < 2; p++) {
        double tot = 0.0;
        for (int j = 0; j < n[p]; j++) tot += w[p][j];
        for (int j = 0; j < n[p]; j++) {
            /* a state holding this private state, for its legal moves */
            uint32_t pair[2] = {ids[0][0], ids[1][0]};
            pair[p] = ids[p][j];
            if ((rc = s->vt->compose(s->cfg, s->root, pair, x->c.tmp)) != SBX_OK) return rc;
            uint32_t in;
            if ((rc = new_info(s, x, root, p, -1, 0, ids[p][j], x->c.tmp, &in)) != SBX_OK) return rc;
            x->infos[in].weight = w[p][j] / tot;
            if (j == 0) first[p] = in;
        }
    }
    x->actual = first[x->seat];
    for (int a = 0; a < n[0]; a++) {
        for (int b = 0; b < n[1]; b++) {
            uint32_t h;
            if ((rc = new_hist(x, root, first[0] + (uint32_t)a, first[1] + (uint32_t)b, 0, &h))) {
                return rc;
            }
        }
    }
    return x->growing ? grow_start(s, x) : grow_levels(s, x);
}

/* One level at a time from the root's histories: a level is expanded whole
 * or not at all. */
static int grow_levels(sbx_search *s, pubcfr *x) {
    int rc;
    size_t lo = 0, hi = x->n_hists;
    for (int d = 0; d < s->p.max_depth && lo < hi; d++) {
        size_t need = 0;
        for (size_t h = lo; h < hi; h++) {
            need += (size_t)x->infos[x->hists[h].i[0]].k * x->infos[x->hists[h].i[1]].k;
        }
        if (x->n_hists + need > (size_t)s->p.node_cap) break;
        for (size_t h = lo; h < hi; h++) {
            if ((rc = expand(s, x, (uint32_t)h)) != SBX_OK) return rc;
        }
        x->depth_built = d + 1;
        lo = hi;
        hi = x->n_hists;
    }
    return SBX_OK;
}

/* Growing mode: every history of public node nd gets its children (an
 * information state lives at one public node, so expanding all of the
 * node's histories keeps each information state's histories alike: all
 * interior or all frontier). *fits = 0 and nothing is added when the
 * children might not fit node_cap (the bound counts every joint action,
 * as grow_levels does). */
static int expand_node(sbx_search *s, pubcfr *x, uint32_t nd, int *fits) {
    size_t need = 0;
    for (int32_t h = x->nodes[nd].hfirst; h >= 0; h = x->hists[h].next) {
        need += (size_t)x->infos[x->hists[h].i[0]].k * x->infos[x->hists[h].i[1]].k;
    }
    *fits = x->n_hists + need <= (size_t)s->p.node_cap;
    if (!*fits) return SBX_OK;
    for (int32_t h = x->nodes[nd].hfirst; h >= 0; h = x->hists[h].next) {
        if (x->hists[h].kind != H_FRONTIER) continue;
        const int rc = expand(s, x, (uint32_t)h);
        if (rc) return rc;
    }
    x->nodes[nd].expanded = 1;
    if (x->nodes[nd].depth + 1 > x->depth_built) x->depth_built = x->nodes[nd].depth + 1;
    return SBX_OK;
}

/* Growing mode with net priors: the root's information states' priors
 * from the value net, under the root ranges (done again when a net is
 * attached to a tree already built). */
static void root_priors(sbx_search *s, pubcfr *x) {
    if (!s->net || s->p.priors != SBX_PRIORS_NET || x->n_nodes == 0) return;
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        in->reach = in->parent < 0 ? in->weight : 0.0;
    }
    net_query(s, x, 0, 1, 1);
}

/* Growing mode's start (the paper's L0): the root public node with its
 * histories expanded one round. A root that does not fit node_cap stays a
 * leaf, and the first iteration stops at the cap. */
static int grow_start(sbx_search *s, pubcfr *x) {
    if (s->p.max_depth < 1 || x->n_nodes == 0) return SBX_OK;
    root_priors(s, x);
    int fits;
    return expand_node(s, x, 0, &fits);
}

/* ------------------------------------------------------------ CFR+ */

/* One pass: seat i's regrets and average against the other's current
 * strategy. */
/* The gadget's opponent range: each root information state follows with
 * the regret-matching+ probability of its follow/terminate regrets
 * (cfr_gadget_follow); that range, normalised, is mixed with its range in
 * the previous search, resolve_mix of the first (Student of Games'
 * modified gadget, alpha = 1/2 there; 1: the gadget alone). */
static void gadget_range(pubcfr *x) {
    double tot = 0.0;
    const double alpha = x->mix;
    for (int j = 0; j < x->g_n; j++) tot += cfr_gadget_follow(&x->g_r[2 * j]);
    for (int j = 0; j < x->g_n; j++) {
        const double r = tot > 0.0 ? cfr_gadget_follow(&x->g_r[2 * j]) / tot : x->g_prev[j];
        x->g_reach[j] = alpha * r + (1.0 - alpha) * x->g_prev[j];
        x->infos[x->g_first + (uint32_t)j].weight = x->g_reach[j];
    }
}

/* Each information state's reach under the A_CUR strategies: its weight at
 * the root, else its parent's reach times the parent's probability of the
 * action leading to it (a parent comes before its children). */
static void reach_under_current(pubcfr *x) {
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        in->reach = in->parent < 0 ? in->weight
                                   : x->infos[in->parent].reach *
                                         ARR(x, &x->infos[in->parent], A_CUR)[in->act];
    }
}

/* ------------------------------------------------------------ value net */

/* Information state j's slot in the value net's ranges (cached). */
static int info_slot(sbx_search *s, pubcfr *x, uint32_t j) {
    pc_info *in = &x->infos[j];
    if (in->slot == -2) {
        in->slot = s->ev.slots == 0
                       ? 0
                       : s->vt->private_slot(s->cfg, STATE(x, x->nodes[in->node].state,
                                                           s->state_size), in->id);
    }
    return in->slot;
}

/* The value net at every frontier public node (one not expanded), in one
 * batch: the node's public features, and each seat's range there -- the
 * reaches (in->reach, under the strategies the caller set) of its
 * information states summed per slot and normalised -- as Student of
 * Games' CVPN reads a public belief state. Each frontier history then
 * holds the value of the information state of seat `persp` in it, from
 * that seat's head (player 0's side: seat 1's value negated): summed over
 * an information state's histories with the opponent's reach as weight,
 * that is the net's value times the opponent's reach, its counterfactual
 * value. The pass for seat 0 and the pass for seat 1 each ask afresh (the
 * ranges change with every update). priors: also store each frontier
 * information state's policy prior (growing mode's PUCT, when the node is
 * expanded later). root: the root alone, for its priors (its histories'
 * values are left alone). Without memory for the batch the values stay as
 * they were. */
static void net_query(sbx_search *s, pubcfr *x, int persp, int priors, int root) {
    sbx_neteval *e = &s->ev;
    int32_t *row = malloc((x->n_nodes ? x->n_nodes : 1) * sizeof *row);
    if (!row) return;
    sbx_neteval_clear(e);
    const int slots = e->slots;
    int ok = 1;
    for (size_t n = 0; n < x->n_nodes; n++) {
        const pc_node *nd = &x->nodes[n];
        row[n] = -1;
        if (root ? n != 0 : nd->expanded || nd->hfirst < 0) continue;
        if (!sbx_neteval_push(e, s->vt, s->cfg, STATE(x, nd->state, s->state_size))) {
            ok = 0;
            break;
        }
        row[n] = e->n - 1;
    }
    if (!ok || e->n == 0) {
        free(row);
        return;
    }
    /* the ranges: after every push (the buffer may have moved) */
    for (size_t j = 0; j < x->n_infos && slots > 0; j++) {
        const pc_info *in = &x->infos[j];
        const int r = row[in->node];
        if (r < 0) continue;
        const int sl = info_slot(s, x, (uint32_t)j);
        if (sl < 0 || sl >= slots) continue;
        float *rg = e->in + (size_t)r * e->input + e->features + (size_t)in->seat * slots;
        rg[sl] += (float)in->reach;
    }
    for (int r = 0; r < e->n && slots > 0; r++) {
        for (int p = 0; p < 2; p++) {
            float *rg = e->in + (size_t)r * e->input + e->features + (size_t)p * slots;
            double tot = 0.0;
            for (int k = 0; k < slots; k++) tot += rg[k];
            if (tot > 0.0) {
                for (int k = 0; k < slots; k++) rg[k] = (float)(rg[k] / tot);
            }
        }
    }
    sbx_neteval_run(e);
    for (size_t hh = 0; hh < x->n_hists && !root; hh++) {
        pc_hist *h = &x->hists[hh];
        const int r = row[h->node];
        if (r < 0 || h->kind != H_FRONTIER) continue;
        const int sl = info_slot(s, x, h->i[persp]);
        const float *v = sbx_neteval_values(e, r) + (size_t)persp * e->value_slots;
        const double u = sl >= 0 && sl < e->value_slots ? v[sl] : h->base;
        h->value = persp == 0 ? u : -u;
    }
    if (priors) {
        for (size_t j = 0; j < x->n_infos; j++) {
            pc_info *in = &x->infos[j];
            const int r = row[in->node];
            if (r >= 0 && in->k > 1) sbx_neteval_priors(e, r, in->seat, in->mv, in->k,
                                                         ARR(x, in, A_PRIOR));
        }
    }
    free(row);
}

static void pass(sbx_search *s, pubcfr *x, int i) {
    if (x->g_n) gadget_range(x);
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        if (in->k) cfr_regret_match(ARR(x, in, A_REGRET), in->k, ARR(x, in, A_CUR));
        if (x->growing && in->seat == i) {
            memset(ARR(x, in, A_Q), 0, (size_t)in->k * sizeof(double));
            in->oreach = 0.0;
            in->nh = 0;
        }
    }
    reach_under_current(x);
    if (s->net) net_query(s, x, i, s->p.priors == SBX_PRIORS_NET, 0);
    for (size_t hh = x->n_hists; hh-- > 0;) {
        pc_hist *h = &x->hists[hh];
        if (h->kind != H_INTERIOR) continue;
        pc_info *in0 = &x->infos[h->i[0]], *in1 = &x->infos[h->i[1]];
        const int k0 = in0->k, k1 = in1->k;
        const double *s0 = ARR(x, in0, A_CUR), *s1 = ARR(x, in1, A_CUR);
        const int32_t *sc = x->slot_child + h->slot;
        const double *svv = x->slot_value + h->slot;
        double col[SBX_MAX_MOVES] = {0};
        double v = 0.0;
        pc_info *upd = i == 0 ? in0 : in1;
        double *cfv = ARR(x, upd, A_CFV);
        const double ro = i == 0 ? in1->reach : in0->reach;
        /* growing mode: Q's fallback where the opponent never reaches the
         * state, the plain mean of the move's value over its histories */
        double *q = x->growing ? ARR(x, upd, A_Q) : NULL;
        for (int a = 0; a < k0; a++) {
            double row = 0.0;
            for (int b = 0; b < k1; b++) {
                const int32_t c = sc[a * k1 + b];
                const double u = c < 0 ? svv[a * k1 + b] : x->hists[c].value;
                row += s1[b] * u;
                col[b] += s0[a] * u;
            }
            v += s0[a] * row;
            if (i == 0) cfv[a] += ro * row;
            if (i == 0 && q) q[a] += row;
        }
        if (i == 1) {
            for (int b = 0; b < k1; b++) cfv[b] -= ro * col[b];
        }
        if (q) {
            if (i == 1) {
                for (int b = 0; b < k1; b++) q[b] -= col[b];
            }
            upd->oreach += ro;
            upd->nh++;
        }
        h->value = v;
    }
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        if (in->seat != i || !in->interior) continue;
        double *cur = ARR(x, in, A_CUR), *cfv = ARR(x, in, A_CFV), *last = ARR(x, in, A_LAST);
        const double ev = cfr_value(cur, cfv, in->k);
        if (x->g_n && in->parent < 0 && j >= x->g_first && j < x->g_first + (size_t)x->g_n) {
            /* the gadget: follow (play on, ev) or terminate (take v) */
            const size_t g = j - x->g_first;
            cfr_gadget_step(&x->g_r[2 * g], ev, x->g_v[g]);
        }
        cfr_plus_update(ARR(x, in, A_REGRET), ARR(x, in, A_AVG), cur, cfv, ev,
                        (double)x->c.t * in->reach, in->k);
        /* growing mode's Q: the move's value against the opponent's
         * current strategy, cfv over the opponent's reach (gtcfr.c's Q) */
        double *q = ARR(x, in, A_Q);
        for (int a = 0; a < in->k; a++) {
            last[a] = cfv[a];
            if (x->growing && in->nh) {
                q[a] = in->oreach > 0.0 ? cfv[a] / in->oreach : q[a] / in->nh;
            }
            cfv[a] = 0.0;
        }
    }
}

/* ------------------------------------------------------------ re-solving */

/* The value of slot (a, b) of interior history h, player 0's: a terminal's
 * exact value or its child history's. */
static double slot_u(const pubcfr *x, const pc_hist *h, int k1, int a, int b) {
    const size_t sl = h->slot + (size_t)a * k1 + b;
    const int32_t ch = x->slot_child[sl];
    return ch < 0 ? x->slot_value[sl] : x->hists[ch].value;
}

/* The average strategies in place of the current ones (A_CUR, scratch that
 * the next pass's regret matching overwrites), each information state's
 * reach under them, and with a net the frontier's values for seat persp
 * under those ranges: what re-solving's summary and the query values read. */
static void average_as_current(sbx_search *s, pubcfr *x, int persp) {
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        if (in->k) cfr_average(ARR(x, in, A_AVG), in->k, ARR(x, in, A_CUR));
    }
    reach_under_current(x);
    if (s->net) net_query(s, x, persp, 0, 0);
}

/* The opponent's best response below public node `top` to the seat's
 * strategy in A_CUR (the average, set by the caller with the reaches):
 * every history's value there (player 0's) with the opponent, at each of
 * its information states, taking the move of the highest counterfactual
 * value summed over the state's histories (the seat's reach weighs each).
 * Public nodes deepest first: a node's children come after it, and all the
 * histories of a node are made by one expansion of its parent's, so when a
 * node is met every history below it has its value. Frontier values stay
 * as they are. These are the values the re-solving gadget must offer
 * (Burch et al.'s safe re-solving): under the average strategies instead,
 * an information state the opponent's average never reaches plays
 * uniformly below, and the gadget would promise it less than it can take.
 * 0: out of memory. */
static int best_response_values(pubcfr *x, uint32_t top, int opp) {
    const int me = 1 - opp;
    uint8_t *inside = calloc(x->n_nodes, 1);
    if (!inside) return 0;
    inside[top] = 1;
    for (size_t n = top + 1; n < x->n_nodes; n++) {
        const int32_t par = x->nodes[n].parent;
        inside[n] = par >= 0 && inside[par];
    }
    for (size_t n = x->n_nodes; n-- > top;) {
        if (!inside[n]) continue;
        const pc_node *nd = &x->nodes[n];
        /* the opponent's counterfactual values per move, over its
         * histories here */
        for (int32_t hh = nd->hfirst; hh >= 0; hh = x->hists[hh].next) {
            const pc_hist *h = &x->hists[hh];
            if (h->kind != H_INTERIOR) continue;
            memset(ARR(x, &x->infos[h->i[opp]], A_CFV), 0,
                   (size_t)x->infos[h->i[opp]].k * sizeof(double));
        }
        for (int32_t hh = nd->hfirst; hh >= 0; hh = x->hists[hh].next) {
            const pc_hist *h = &x->hists[hh];
            if (h->kind != H_INTERIOR) continue;
            const pc_info *io = &x->infos[h->i[opp]], *im = &x->infos[h->i[me]];
            const int k1 = x->infos[h->i[1]].k;
            const double *sm = ARR(x, im, A_CUR);
            double *cfv = ARR(x, io, A_CFV);
            for (int a = 0; a < io->k; a++) {
                double v = 0.0;
                for (int b = 0; b < im->k; b++) {
                    const double u = opp == 0 ? slot_u(x, h, k1, a, b) : -slot_u(x, h, k1, b, a);
                    v += sm[b] * u;
                }
                cfv[a] += im->reach * v;
            }
        }
        for (int32_t hh = nd->hfirst; hh >= 0; hh = x->hists[hh].next) {
            pc_hist *h = &x->hists[hh];
            if (h->kind != H_INTERIOR) continue;
            const pc_info *io = &x->infos[h->i[opp]], *im = &x->infos[h->i[me]];
            const double *cfv = ARR(x, io, A_CFV);
            int best = 0;
            for (int a = 1; a < io->k; a++) best = cfv[a] > cfv[best] ? a : best;
            const int k1 = x->infos[h->i[1]].k;
            const double *sm = ARR(x, im, A_CUR);
            double v = 0.0;
            for (int b = 0; b < im->k; b++) {
                v += sm[b] * (opp == 0 ? slot_u(x, h, k1, best, b) : slot_u(x, h, k1, b, best));
            }
            h->value = v;
        }
    }
    for (size_t j = 0; j < x->n_infos; j++) {
        pc_info *in = &x->infos[j];
        memset(ARR(x, in, A_CFV), 0, (size_t)in->k * sizeof(double));
    }
    free(inside);
    return 1;
}

/* The summary for the public state the game reached after the seat played
 * joint[seat] (continual re-solving): under both seats' average strategies,
 * every information state's reach (top-down), and below the child node
 * every history's value with the opponent best-responding to the seat's
 * average (best_response_values), then at the child node each information
 * state's reach and the opponent's counterfactual best-response values,
 * what the gadget offers it next search. 0 if there is none to carry (no
 * tree, the state not in it): the next search starts from the uniform-play
 * range. Reads the opponent's move nowhere. */
static int summarize(sbx_search *s, const uint8_t *joint, pc_carry *c) {
    pubcfr *x = s->algo;
    memset(c, 0, sizeof *c);
    if (x->broken || x->n_nodes == 0 || x->depth_built < 1 || x->n_infos == 0) return 0;
    if (s->vt->is_terminal(s->cfg, s->root)) return 0;
    const int me = x->seat, opp = 1 - me;
    const uint64_t key = s->vt->public_key(s->cfg, s->root);
    int32_t node = x->nodes[0].child;
    while (node >= 0 && x->nodes[node].key != key) node = x->nodes[node].sibling;
    if (node < 0) return 0;
    const pc_info *act = &x->infos[x->actual];
    int m = -1;
    for (int a = 0; a < act->k; a++) {
        if (act->mv[a] == joint[me]) m = a;
    }
    if (m < 0 || x->map_cap == 0) return 0;
    const uint64_t mk = ((uint64_t)node << 40) ^ ((uint64_t)x->actual << 8) ^ (uint64_t)m;
    size_t q = cfr_mix64(mk) & (x->map_cap - 1);
    while (x->map_key[q] != UINT64_MAX && x->map_key[q] != mk) q = (q + 1) & (x->map_cap - 1);
    if (x->map_key[q] != mk) return 0;
    const uint32_t mine = x->map_val[q];
    /* reach and values under the average strategies (the tree is dropped
     * next) */
    average_as_current(s, x, opp);
    if (!best_response_values(x, (uint32_t)node, opp)) return 0;
    /* the child's information states, renumbered per seat */
    uint32_t *index = malloc(x->n_infos * sizeof *index);
    for (int p = 0; p < 2; p++) {
        c->ids[p] = malloc(x->n_infos * sizeof(uint32_t));
        c->w[p] = malloc(x->n_infos * sizeof(double));
    }
    c->v = calloc(x->n_infos, sizeof(double));
    c->pairs = malloc(2 * x->n_hists * sizeof(uint32_t));
    if (!index || !c->ids[0] || !c->ids[1] || !c->w[0] || !c->w[1] || !c->v || !c->pairs) {
        free(index);
        carry_free(c);
        return 0;
    }
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        if (in->node != (uint32_t)node) continue;
        const int p = in->seat;
        index[j] = (uint32_t)c->n[p];
        if (j == mine) c->actual = c->n[p];
        c->ids[p][c->n[p]] = in->id;
        c->w[p][c->n[p]] = in->reach;
        c->n[p]++;
    }
    for (size_t hh = 0; hh < x->n_hists; hh++) {
        const pc_hist *h = &x->hists[hh];
        if (h->node != (uint32_t)node) continue;
        c->pairs[2 * c->nh] = index[h->i[0]];
        c->pairs[2 * c->nh + 1] = index[h->i[1]];
        c->nh++;
        const double u_opp = opp == 0 ? h->value : -h->value;
        c->v[index[h->i[opp]]] += x->infos[h->i[me]].reach * u_opp;
    }
    free(index);
    if (c->n[0] > 0 && c->n[1] > 0 && c->nh > 0) return 1;
    carry_free(c);
    return 0;
}

/* ------------------------------------------------------------ vtable */

static int pc_check(const sbx_search_params *p, const sbx_game_vt *game, int num_agents,
                    int max_moves) {
    (void)p;
    (void)max_moves;
    if (num_agents != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "algorithm: pubcfr solves two-player games (this game has %d agents)",
                        num_agents);
    }
    if (!game->public_key || !game->private_states || !game->compose) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "algorithm: pubcfr needs a game that splits its states into public "
                        "and private parts (%s does not)", game->name);
    }
    return SBX_OK;
}

/* Breadth-first, the whole tree is built when the search starts or re-roots,
 * bounded by node_cap (histories), and an iteration adds nothing; growing,
 * an iteration adds one public node, its size known only when it is met
 * (simulate checks it against node_cap). */
static int64_t pc_iteration_nodes(const sbx_search_params *p, int num_agents, int max_moves) {
    (void)p;
    (void)num_agents;
    (void)max_moves;
    return 0;
}

static void pc_destroy(sbx_search *s) {
    pubcfr *x = s->algo;
    if (!x) return;
    free_tree(x);
    gadget_free(x);
    cfr_core_close(&x->c);
    free(x);
    s->algo = NULL;
}

static int pc_create(sbx_search *s) {
    pubcfr *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a pubcfr search");
    s->algo = x;
    if (!cfr_core_open(&x->c, s->state_size)) {
        pc_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a pubcfr search");
    }
    int rc = build(s, NULL);
    if (rc) {
        pc_destroy(s);
        return rc;
    }
    return SBX_OK;
}

/* A failed rebuild (after an advance or a change of parameters) leaves an
 * empty tree; iterations then stop with SBX_STOP_NODE_CAP. */
static void rebuild(sbx_search *s) {
    pubcfr *x = s->algo;
    if (build(s, NULL) != SBX_OK) {
        free_tree(x);
        x->broken = 1;
    }
}

static int pc_params_changed(sbx_search *s, const sbx_search_params *old) {
    if (s->p.node_cap != old->node_cap || s->p.max_depth != old->max_depth ||
        s->p.grow_tree != old->grow_tree || sbx_info_seat(&s->p) != sbx_info_seat(old)) {
        pubcfr *x = s->algo;
        int rc = build(s, NULL);
        if (rc) {
            free_tree(x);
            x->broken = 1;
            return rc;
        }
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ growing */

/* A root history drawn with probability proportional to the product of its
 * two information states' range weights (uniformly if every product is 0). */
static uint32_t draw_root(sbx_search *s, pubcfr *x) {
    const pc_node *r = &x->nodes[0];
    double tot = 0.0;
    int n = 0;
    for (int32_t h = r->hfirst; h >= 0; h = x->hists[h].next, n++) {
        tot += x->infos[x->hists[h].i[0]].weight * x->infos[x->hists[h].i[1]].weight;
    }
    const double u = sbx_unit(sbx_rng_next(&s->rng));
    int32_t h = r->hfirst, last = h;
    if (tot > 0.0) {
        double acc = 0.0;
        for (; h >= 0; h = x->hists[h].next) {
            const double w =
                x->infos[x->hists[h].i[0]].weight * x->infos[x->hists[h].i[1]].weight;
            acc += w / tot;
            if (w > 0.0) last = h;
            if (u < acc && w > 0.0) return (uint32_t)h;
        }
        return (uint32_t)last;
    }
    for (int j = (int)(u * n); j > 0 && x->hists[h].next >= 0; j--) h = x->hists[h].next;
    return (uint32_t)h;
}

/* Seat in->seat's move at information state `in`: a fair coin picks the
 * PUCT argmax or a draw from the average strategy (cfr_expansion_pick, as
 * gtcfr.c). PUCT with uniform priors and no virtual losses: n counts the
 * simulations that took the move at this information state (over all its
 * histories). */
static int select_move(sbx_search *s, const pubcfr *x, const pc_info *in) {
    const double *prior = s->p.priors == SBX_PRIORS_NET ? ARR(x, in, A_PRIOR) : NULL;
    const cfr_puct puct = {ARR(x, in, A_Q), ARR(x, in, A_VISITS), prior, NULL, 0.0,
                           s->p.c_puct, &x->c.range, in->seat};
    int8_t pick;
    return cfr_expansion_pick(&s->rng, ARR(x, in, A_AVG), in->k, &puct, &pick);
}

/* One expansion simulation: from a root history drawn by the ranges, each
 * seat's move by select_move at its information state, down to the first
 * frontier history, whose whole public node is expanded. Ends without
 * expanding at a terminal joint action or a frontier at max_depth rounds
 * (and, once the tree is whole, always so). SBX_STOP_NODE_CAP when the
 * expansion would not fit node_cap. */
static int simulate(sbx_search *s, pubcfr *x) {
    if (x->n_nodes == 0 || x->nodes[0].hfirst < 0) return SBX_STOP_NODE_CAP;
    uint32_t h = draw_root(s, x);
    for (;;) {
        x->hists[h].sims++;
        if (x->hists[h].kind != H_INTERIOR) break;
        const pc_hist *hh = &x->hists[h];
        pc_info *in0 = &x->infos[hh->i[0]], *in1 = &x->infos[hh->i[1]];
        const int a = select_move(s, x, in0), b = select_move(s, x, in1);
        ARR(x, in0, A_VISITS)[a] += 1.0;
        ARR(x, in1, A_VISITS)[b] += 1.0;
        const int32_t c = x->slot_child[hh->slot + (size_t)a * in1->k + b];
        if (c < 0) return SBX_STOP_NONE; /* terminal */
        h = (uint32_t)c;
    }
    if (x->hists[h].depth >= s->p.max_depth) return SBX_STOP_NONE;
    int fits;
    if (expand_node(s, x, x->hists[h].node, &fits) != SBX_OK) {
        /* a half-expanded node would break the information states */
        free_tree(x);
        x->broken = 1;
        return SBX_STOP_NODE_CAP;
    }
    return fits ? SBX_STOP_NONE : SBX_STOP_NODE_CAP;
}

/* One CFR+ iteration: seat 0's pass, then seat 1's (alternating). */
static void cfr_plus_iteration(sbx_search *s, pubcfr *x) {
    x->c.t++;
    pass(s, x, 0);
    pass(s, x, 1);
}

/* Breadth-first: one CFR+ iteration. Growing: the regret-update phase (1/c
 * CFR+ iterations, credited across iterations as gtcfr.c does, so c = 2.5
 * runs one every 2 or 3 iterations), then one expansion simulation. */
static int pc_iterate(sbx_search *s, int64_t *turns) {
    (void)turns;
    pubcfr *x = s->algo;
    if (x->broken) return SBX_STOP_NODE_CAP;
    x->mix = s->p.resolve_mix;
    if (!x->growing) {
        cfr_plus_iteration(s, x);
        return SBX_STOP_NONE;
    }
    for (int n = cfr_updates_due(&x->c.credit, s->p.expansions_per_update); n > 0; n--) {
        cfr_plus_iteration(s, x);
    }
    return simulate(s, x);
}

/* A value net attached, replaced or detached: without one the frontier
 * takes the game's evaluation again; with one the next pass asks it, and a
 * growing tree's root takes its priors. */
static void pc_net_changed(sbx_search *s) {
    pubcfr *x = s->algo;
    if (!x) return;
    for (size_t h = 0; h < x->n_hists && !s->net; h++) {
        if (x->hists[h].kind == H_FRONTIER) x->hists[h].value = x->hists[h].base;
    }
    for (size_t j = 0; j < x->n_infos; j++) x->infos[j].slot = -2;
    if (x->growing) root_priors(s, x);
}

static int pc_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    (void)tr;
    return pc_iterate(s, turns);
}

/* tree_reuse on: continual re-solving with the gadget from this search's
 * summary; off (or nothing to carry): a fresh root with the uniform-play
 * range. */
static void pc_advance(sbx_search *s, const uint8_t *joint) {
    pc_carry c;
    if (s->p.tree_reuse && summarize(s, joint, &c)) {
        const int rc = build(s, &c);
        carry_free(&c);
        if (rc == SBX_OK) return;
    }
    rebuild(s);
}

static void pc_reset_all(sbx_search *s) { rebuild(s); }

/* The searching seat's root information state, or NULL (no tree). */
static const pc_info *root_info(const pubcfr *x, int p) {
    if (p != x->seat || x->n_infos == 0 || !x->infos[x->actual].k) return NULL;
    return &x->infos[x->actual];
}

static void pc_best_moves(sbx_search *s, int32_t *out) {
    pubcfr *x = s->algo;
    for (int p = 0; p < s->num_agents; p++) {
        uint8_t mv[SBX_MAX_MOVES + 8];
        const int k = s->vt->legal_moves(s->cfg, s->root, p, mv);
        out[p] = k > 0 ? mv[0] : SBX_MOVE_NONE;
        const pc_info *in = p == x->seat ? root_info(x, p) : NULL;
        if (!in) continue;
        double avg[SBX_MAX_MOVES];
        cfr_average(ARR(x, in, A_AVG), in->k, avg);
        const int pick = cfr_final_pick(avg, in->k, s->p.final_move == SBX_FINAL_SAMPLE,
                                        s->p.temperature, x->c.tree_seed, s->iterations_root, p);
        out[p] = in->mv[pick];
    }
}

/* The searching seat: its root average strategy, mean = the counterfactual
 * value of each move in the last pass (against the opponent's strategy and
 * range: the move's expected value). The other seat: its average strategy
 * mixed over its root range. Growing mode: visits = the expansion
 * simulations that took the move at the seat's root information states
 * (0 breadth-first). */
static int pc_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap, int *n_out) {
    pubcfr *x = s->algo;
    *n_out = 0;
    double mix[SBX_MAX_MOVES] = {0}, mean[SBX_MAX_MOVES] = {0}, vis[SBX_MAX_MOVES] = {0};
    int seen[SBX_MAX_MOVES] = {0};
    for (size_t j = 0; j < x->n_infos && x->infos[j].parent < 0; j++) {
        const pc_info *in = &x->infos[j];
        if (in->seat != agent || !in->k || (agent == x->seat && j != x->actual)) continue;
        double avg[SBX_MAX_MOVES];
        cfr_average(ARR(x, in, A_AVG), in->k, avg);
        for (int a = 0; a < in->k; a++) {
            mix[in->mv[a]] += in->weight * avg[a];
            mean[in->mv[a]] += agent == x->seat ? ARR(x, in, A_LAST)[a] : 0.0;
            vis[in->mv[a]] += ARR(x, in, A_VISITS)[a]; /* growing: simulations */
            seen[in->mv[a]] = 1;
        }
    }
    int n = 0;
    for (int m = 0; m < SBX_MAX_MOVES; m++) n += seen[m];
    if (n > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, n);
    double tot = 0.0;
    for (int m = 0; m < SBX_MAX_MOVES; m++) tot += mix[m];
    int moves[SBX_MAX_MOVES];
    double v[SBX_MAX_MOVES], u[SBX_MAX_MOVES], pol[SBX_MAX_MOVES];
    for (int m = 0; m < SBX_MAX_MOVES; m++) {
        if (!seen[m]) continue;
        moves[*n_out] = m;
        v[*n_out] = vis[m];
        u[*n_out] = mean[m];
        pol[*n_out] = tot > 0.0 ? mix[m] / tot : 0.0;
        (*n_out)++;
    }
    cfr_root_rows(out, moves, v, u, pol, *n_out);
    return SBX_OK;
}

static int pc_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes, int min_visits,
                       sbx_snapshot_node *out, int *n_out) {
    (void)agent;
    (void)max_nodes;
    (void)min_visits;
    return sbx_root_only_snapshot(s, top, "shows only its root (node 0)", out, n_out);
}

static void pc_fill_stats(sbx_search *s, sbx_search_stats *out) {
    pubcfr *x = s->algo;
    out->node_bytes = (int32_t)sizeof(pc_hist);
    out->trees = 1;
    out->edge_bytes = (int64_t)(x->n_slots * (sizeof(int32_t) + sizeof(double)) +
                                x->n_d * sizeof(double) + x->n_infos * sizeof(pc_info));
    for (int a = 0; a < 2; a++) {
        out->nodes[a] = (int32_t)x->n_hists;
        out->root_visits[a] = (int32_t)x->c.t;
        out->max_depth_reached[a] = x->depth_built;
        out->norm_min[a] = 0.0;
        out->norm_max[a] = 1.0;
    }
}

static int64_t pc_node_count(sbx_search *s) {
    pubcfr *x = s->algo;
    return (int64_t)x->n_hists;
}

/* ------------------------------------------------------------ test entry */

int sbx_search_debug_pubcfr_range(sbx_search *s, int seat, uint32_t *ids, double *probs,
                                  int cap, int *n_out) {
    if (!s || !ids || !probs || !n_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "search, ids, probs and n_out must not be NULL");
    }
    if (s->algo_id != SBX_ALGO_PUBCFR || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running pubcfr");
    }
    if (seat < 0 || seat > 1) return sbx_fail(SBX_ERR_ARGUMENT, "seat %d is not 0 or 1", seat);
    const pubcfr *x = s->algo;
    int n = 0;
    for (size_t j = 0; j < x->n_infos && x->infos[j].parent < 0; j++) {
        const pc_info *in = &x->infos[j];
        if (in->seat != seat) continue;
        if (n < cap) {
            ids[n] = in->id;
            probs[n] = in->weight;
        }
        n++;
    }
    *n_out = n;
    return SBX_OK;
}

int sbx_search_debug_pubcfr_hists(sbx_search *s, int32_t *node, int32_t *interior,
                                  int32_t *depth, int32_t *parent, int32_t *sims, int cap,
                                  int *n_out) {
    if (!s || !node || !interior || !depth || !parent || !sims || !n_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "no argument may be NULL, cap must be >= 0");
    }
    if (s->algo_id != SBX_ALGO_PUBCFR || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "the search is not running pubcfr");
    }
    const pubcfr *x = s->algo;
    const size_t n = x->n_hists < (size_t)cap ? x->n_hists : (size_t)cap;
    for (size_t h = 0; h < n; h++) parent[h] = -1;
    for (size_t h = 0; h < n; h++) {
        const pc_hist *hh = &x->hists[h];
        node[h] = (int32_t)hh->node;
        interior[h] = hh->kind == H_INTERIOR;
        depth[h] = hh->depth;
        sims[h] = (int32_t)hh->sims;
        if (hh->kind != H_INTERIOR) continue;
        const size_t kk = (size_t)x->infos[hh->i[0]].k * x->infos[hh->i[1]].k;
        for (size_t j = 0; j < kk; j++) {
            const int32_t c = x->slot_child[hh->slot + j];
            if (c >= 0 && (size_t)c < n) parent[c] = (int32_t)h;
        }
    }
    *n_out = (int)x->n_hists;
    return SBX_OK;
}

/* ------------------------------------------------------------ belief view */

/* Each information state's reach under the average strategies: its root
 * weight (its range) times its own average probabilities of the moves that
 * lead to it (a parent comes before its children). Cached until the tree or
 * its iteration count changes. NULL: out of memory. */
static const double *belief_reach(pubcfr *x) {
    if (x->b_reach && x->b_n == x->n_infos && x->b_h == x->n_hists && x->b_t == x->c.t) {
        return x->b_reach;
    }
    free(x->b_reach);
    free(x->b_node);
    const size_t n = x->n_infos ? x->n_infos : 1;
    x->b_reach = malloc(3 * n * sizeof *x->b_reach);
    x->b_node = calloc(2 * (x->n_nodes ? x->n_nodes : 1), sizeof *x->b_node);
    x->b_n = 0;
    if (!x->b_reach || !x->b_node) {
        free(x->b_reach);
        free(x->b_node);
        x->b_reach = x->b_node = NULL;
        return NULL;
    }
    double *tot = x->b_reach + n;    /* each one's average-strategy sum */
    double *joint = x->b_reach + 2 * n; /* the sum over its histories of r0 * r1 */
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        const double *sum = ARR(x, in, A_AVG);
        tot[j] = 0.0;
        for (int a = 0; a < in->k; a++) tot[j] += sum[a];
        if (in->parent < 0) {
            x->b_reach[j] = in->weight;
            continue;
        }
        const pc_info *up = &x->infos[in->parent];
        const double t = tot[in->parent];
        x->b_reach[j] = x->b_reach[in->parent] *
                        (t > 0.0 ? ARR(x, up, A_AVG)[in->act] / t : 1.0 / up->k);
    }
    for (size_t j = 0; j < x->n_infos; j++) joint[j] = 0.0;
    for (size_t h = 0; h < x->n_hists; h++) { /* in storage order: one sweep */
        const pc_hist *hh = &x->hists[h];
        const double w = x->b_reach[hh->i[0]] * x->b_reach[hh->i[1]];
        joint[hh->i[0]] += w;
        joint[hh->i[1]] += w;
        x->b_node[2 * hh->node] += w;
        x->b_node[2 * hh->node + 1] += 1.0;
    }
    x->b_n = x->n_infos;
    x->b_h = x->n_hists;
    x->b_t = x->c.t;
    return x->b_reach;
}

static int belief_args(const sbx_search *s, const char *what) {
    if (!s) return sbx_fail(SBX_ERR_ARGUMENT, "%s: search is NULL", what);
    if (s->algo_id != SBX_ALGO_PUBCFR || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "%s: the search is not running pubcfr", what);
    }
    const pubcfr *x = s->algo;
    if (x->n_nodes == 0 || x->n_infos == 0) {
        return sbx_fail(SBX_ERR_STATE, "%s: the search has no public tree (its root could "
                        "not be split)", what);
    }
    return SBX_OK;
}

int sbx_search_pubcfr_nodes(sbx_search *s, int32_t *parent, int32_t *depth, int32_t *hists,
                            int32_t *expanded, double *reach, int cap, int *n_out) {
    if (!parent || !depth || !hists || !expanded || !reach || !n_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr nodes: no buffer may be NULL, cap >= 0");
    }
    int rc = belief_args(s, "pubcfr nodes");
    if (rc) return rc;
    pubcfr *x = s->algo;
    const double *r = belief_reach(x);
    if (!r) return sbx_fail(SBX_ERR_MEMORY, "pubcfr nodes: out of memory");
    const size_t n = x->n_nodes < (size_t)cap ? x->n_nodes : (size_t)cap;
    const double root = x->b_node[0];
    for (size_t i = 0; i < n; i++) {
        const pc_node *nd = &x->nodes[i];
        parent[i] = nd->parent;
        depth[i] = nd->depth;
        expanded[i] = nd->expanded;
        hists[i] = (int32_t)x->b_node[2 * i + 1];
        /* every root weight 0: no probabilities (0 everywhere) */
        reach[i] = root > 0.0 ? x->b_node[2 * i] / root : 0.0;
    }
    *n_out = (int)x->n_nodes;
    return SBX_OK;
}

/* One information state's entry in a range: its private state id, weight. */
typedef struct pc_rec {
    uint32_t id;
    double p;
} pc_rec;

static int by_id(const void *a, const void *b) {
    const uint32_t x = ((const pc_rec *)a)->id, y = ((const pc_rec *)b)->id;
    return (x > y) - (x < y);
}

int sbx_search_pubcfr_node_range(sbx_search *s, int node, int seat, int belief,
                                 uint32_t *ids, double *probs, int cap, int *n_out) {
    if (!ids || !probs || !n_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node range: no buffer may be NULL, cap >= 0");
    }
    int rc = belief_args(s, "pubcfr node range");
    if (rc) return rc;
    pubcfr *x = s->algo;
    if (node < 0 || (size_t)node >= x->n_nodes) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node range: node %d out of range 0..%zu",
                        node, x->n_nodes - 1);
    }
    if (seat < 0 || seat > 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node range: seat %d is not 0 or 1", seat);
    }
    if (belief != 0 && belief != 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node range: belief %d is not 0 or 1", belief);
    }
    const double *r = belief_reach(x);
    if (!r) return sbx_fail(SBX_ERR_MEMORY, "pubcfr node range: out of memory");
    /* one record per information state of the seat at the node: its id and
     * weight (its own reach, or with belief the sum over its histories of
     * both seats' reaches, kept by belief_reach), then sorted by id and
     * summed per id; sequential scans, where walking the node's histories
     * would chase a pointer per history */
    const double *joint = r + 2 * (x->n_infos ? x->n_infos : 1);
    size_t m = 0;
    for (size_t j = 0; j < x->n_infos; j++) {
        m += x->infos[j].node == (uint32_t)node && x->infos[j].seat == seat;
    }
    pc_rec *v = malloc((m ? m : 1) * sizeof *v);
    if (!v) return sbx_fail(SBX_ERR_MEMORY, "pubcfr node range: out of memory");
    m = 0;
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        if (in->node != (uint32_t)node || in->seat != seat) continue;
        v[m].id = in->id;
        v[m].p = belief ? joint[j] : r[j];
        m++;
    }
    double tot = 0.0;
    for (size_t j = 0; j < m; j++) tot += v[j].p;
    qsort(v, m, sizeof *v, by_id);
    int n = 0;
    for (size_t j = 0; j < m; j++) {
        const double p = tot > 0.0 ? v[j].p / tot : 0.0;
        if (j > 0 && v[j].id == v[j - 1].id) {
            if (n - 1 < cap) probs[n - 1] += p;
            continue;
        }
        if (n < cap) {
            ids[n] = v[j].id;
            probs[n] = p;
        }
        n++;
    }
    free(v);
    *n_out = n;
    return SBX_OK;
}

/* ------------------------------------------------------------ query solving */

/* Each information state's reach under the strategies the next update
 * will play (regret matching of the regrets so far), from the root's
 * weights as the last update set them: the ranges the value net is asked
 * with inside a solve, at this iteration. A new array (NULL without
 * memory); the caller frees it. */
static double *reach_under_regrets(pubcfr *x) {
    const size_t n = x->n_infos ? x->n_infos : 1;
    double *reach = malloc(n * sizeof *reach);
    double *cur = malloc(SBX_MAX_MOVES * sizeof *cur);
    if (!reach || !cur) {
        free(reach);
        free(cur);
        return NULL;
    }
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        if (in->parent < 0) {
            reach[j] = in->weight;
            continue;
        }
        const pc_info *up = &x->infos[in->parent];
        cfr_regret_match(ARR(x, up, A_REGRET), up->k, cur);
        reach[j] = reach[in->parent] * cur[in->act];
    }
    free(cur);
    return reach;
}

int sbx_search_pubcfr_node_pbs(sbx_search *s, int node, int current, uint32_t *ids,
                               double *weights, int cap, uint32_t *pairs, int pair_cap,
                               int *n_out, int *nh_out) {
    if (!ids || !weights || !pairs || !n_out || !nh_out || cap < 0 || pair_cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node pbs: no buffer may be NULL, caps >= 0");
    }
    if (current != 0 && current != 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node pbs: current must be 0 or 1 (got %d)",
                        current);
    }
    int rc = belief_args(s, "pubcfr node pbs");
    if (rc) return rc;
    pubcfr *x = s->algo;
    if (node < 0 || (size_t)node >= x->n_nodes) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node pbs: node %d out of range 0..%zu", node,
                        x->n_nodes - 1);
    }
    double *own = current ? reach_under_regrets(x) : NULL;
    const double *r = current ? own : belief_reach(x);
    int32_t *index = malloc((x->n_infos ? x->n_infos : 1) * sizeof *index);
    if (!r || !index) {
        free(index);
        free(own);
        return sbx_fail(SBX_ERR_MEMORY, "pubcfr node pbs: out of memory");
    }
    /* each seat's information states at the node, seat 0's first: their
     * index in the seat's list, and each seat's reach total */
    int n[2] = {0, 0};
    double tot[2] = {0.0, 0.0};
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        index[j] = -1;
        if (in->node != (uint32_t)node) continue;
        index[j] = n[in->seat]++;
        tot[in->seat] += r[j];
    }
    for (size_t j = 0; j < x->n_infos; j++) {
        const pc_info *in = &x->infos[j];
        if (index[j] < 0) continue;
        const int at = (in->seat == 0 ? 0 : n[0]) + index[j];
        if (at >= cap) continue;
        ids[at] = in->id;
        /* every reach 0 (a node the strategies never reach):
         * uniform, so the belief state is still one to solve */
        weights[at] = tot[in->seat] > 0.0 ? r[j] / tot[in->seat] : 1.0 / n[in->seat];
    }
    int nh = 0;
    for (int32_t h = x->nodes[node].hfirst; h >= 0; h = x->hists[h].next, nh++) {
        if (nh >= pair_cap) continue;
        pairs[2 * nh] = (uint32_t)index[x->hists[h].i[0]];
        pairs[2 * nh + 1] = (uint32_t)index[x->hists[h].i[1]];
    }
    free(index);
    free(own);
    n_out[0] = n[0];
    n_out[1] = n[1];
    *nh_out = nh;
    return SBX_OK;
}

/* The checks of set_beliefs on what it was given (a message for each). */
static int pbs_check(const double *weights, const int *n, const uint32_t *pairs, int nh) {
    for (int p = 0; p < 2; p++) {
        if (n[p] < 1 || n[p] > PC_MAX_PRIVATE) {
            return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: seat %d has %d private states "
                            "(1..%d)", p, n[p], PC_MAX_PRIVATE);
        }
    }
    if (nh < 1 || (int64_t)nh > (int64_t)n[0] * n[1]) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: %d histories (1..%lld for %d x %d "
                        "information states)", nh, (long long)n[0] * n[1], n[0], n[1]);
    }
    for (int p = 0, off = 0; p < 2; off += n[p], p++) {
        double tot = 0.0;
        for (int j = 0; j < n[p]; j++) {
            const double w = weights[off + j];
            if (!isfinite(w) || w < 0.0) {
                return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: seat %d's weight %d is %g "
                                "(finite and >= 0)", p, j, w);
            }
            tot += w;
        }
        if (!(tot > 0.0)) {
            return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: seat %d's weights sum to 0", p);
        }
    }
    const size_t cells = (size_t)n[0] * (size_t)n[1];
    uint8_t *seen = calloc((cells + 7) / 8, 1);
    if (!seen) return sbx_fail(SBX_ERR_MEMORY, "pubcfr beliefs: out of memory");
    int rc = SBX_OK;
    for (int h = 0; h < nh && rc == SBX_OK; h++) {
        const uint32_t a = pairs[2 * h], b = pairs[2 * h + 1];
        if (a >= (uint32_t)n[0] || b >= (uint32_t)n[1]) {
            rc = sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: history %d pairs %u and %u "
                          "(0..%d, 0..%d)", h, a, b, n[0] - 1, n[1] - 1);
            break;
        }
        const size_t cell = (size_t)a * (size_t)n[1] + b;
        if (seen[cell / 8] & (1u << (cell % 8))) {
            rc = sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: history %d repeats the pair "
                          "(%u, %u)", h, a, b);
        }
        seen[cell / 8] |= (uint8_t)(1u << (cell % 8));
    }
    free(seen);
    return rc;
}

int sbx_pubcfr_set_beliefs(sbx_search *s, const uint32_t *ids, const double *weights,
                           const int *n, const uint32_t *pairs, int nh) {
    if (!s || !ids || !weights || !n || !pairs) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: no argument may be NULL");
    }
    if (s->algo_id != SBX_ALGO_PUBCFR || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "pubcfr beliefs: the search is not running pubcfr");
    }
    if (s->vt->is_terminal(s->cfg, s->root)) {
        return sbx_fail(SBX_ERR_STATE, "pubcfr beliefs: the search's root is terminal");
    }
    int rc = pbs_check(weights, n, pairs, nh);
    if (rc) return rc;
    pc_carry c;
    memset(&c, 0, sizeof c);
    for (int p = 0, off = 0; p < 2; off += n[p], p++) {
        c.n[p] = n[p];
        c.ids[p] = malloc((size_t)n[p] * sizeof(uint32_t));
        c.w[p] = malloc((size_t)n[p] * sizeof(double));
        if (!c.ids[p] || !c.w[p]) break;
        double tot = 0.0;
        for (int j = 0; j < n[p]; j++) tot += weights[off + j];
        for (int j = 0; j < n[p]; j++) {
            c.ids[p][j] = ids[off + j];
            c.w[p][j] = weights[off + j] / tot;
        }
    }
    c.nh = nh;
    c.pairs = malloc(2 * (size_t)nh * sizeof(uint32_t));
    if (!c.ids[0] || !c.ids[1] || !c.w[0] || !c.w[1] || !c.pairs) {
        carry_free(&c);
        return sbx_fail(SBX_ERR_MEMORY, "pubcfr beliefs: out of memory");
    }
    memcpy(c.pairs, pairs, 2 * (size_t)nh * sizeof(uint32_t));
    rc = build(s, &c);
    carry_free(&c);
    s->iterations_root = 0;
    s->last_stop = SBX_STOP_NONE;
    if (rc) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sbx_last_error());
        rebuild(s);
        return sbx_fail(rc, "pubcfr beliefs: %s", msg);
    }
    return SBX_OK;
}

/* Every history's value (player 0's) under both seats' average strategies,
 * bottom-up (average_as_current's scratch, which the next pass recomputes),
 * frontier values from the game's evaluation or the net for seat persp. */
static void evaluate_average(sbx_search *s, pubcfr *x, int persp) {
    average_as_current(s, x, persp);
    for (size_t hh = x->n_hists; hh-- > 0;) {
        pc_hist *h = &x->hists[hh];
        if (h->kind != H_INTERIOR) continue;
        const pc_info *in0 = &x->infos[h->i[0]], *in1 = &x->infos[h->i[1]];
        const double *s0 = ARR(x, in0, A_CUR), *s1 = ARR(x, in1, A_CUR);
        double v = 0.0;
        for (int a = 0; a < in0->k; a++) {
            for (int b = 0; b < in1->k; b++) v += s0[a] * s1[b] * slot_u(x, h, in1->k, a, b);
        }
        h->value = v;
    }
}

int sbx_search_pubcfr_root_values(sbx_search *s, int seat, uint32_t *ids, double *weight,
                                  double *oreach, double *value, double *policy,
                                  uint32_t *legal, int cap, int *n_out) {
    if (!ids || !weight || !oreach || !value || !policy || !legal || !n_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr root values: no buffer may be NULL, cap >= 0");
    }
    int rc = belief_args(s, "pubcfr root values");
    if (rc) return rc;
    if (seat < 0 || seat > 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr root values: seat %d is not 0 or 1", seat);
    }
    pubcfr *x = s->algo;
    size_t roots = 0;
    while (roots < x->n_infos && x->infos[roots].parent < 0) roots++;
    int32_t *index = malloc((roots ? roots : 1) * sizeof *index);
    double *acc = calloc(2 * (roots ? roots : 1), sizeof *acc);
    if (!index || !acc) {
        free(index);
        free(acc);
        return sbx_fail(SBX_ERR_MEMORY, "pubcfr root values: out of memory");
    }
    evaluate_average(s, x, seat);
    int n = 0;
    for (size_t j = 0; j < roots; j++) index[j] = x->infos[j].seat == seat ? n++ : -1;
    for (int32_t hh = x->nodes[0].hfirst; hh >= 0; hh = x->hists[hh].next) {
        const pc_hist *h = &x->hists[hh];
        const uint32_t mine = h->i[seat];
        const double ro = x->infos[h->i[1 - seat]].reach;
        if (mine >= roots || index[mine] < 0) continue;
        acc[2 * index[mine]] += ro * (seat == 0 ? h->value : -h->value);
        acc[2 * index[mine] + 1] += ro;
    }
    for (size_t j = 0; j < roots; j++) {
        const int at = index[j];
        if (at < 0 || at >= cap) continue;
        const pc_info *in = &x->infos[j];
        ids[at] = in->id;
        weight[at] = in->weight;
        oreach[at] = acc[2 * at + 1];
        value[at] = acc[2 * at + 1] > 0.0 ? acc[2 * at] / acc[2 * at + 1] : 0.0;
        double *row = policy + (size_t)at * SBX_MAX_MOVES;
        for (int m = 0; m < SBX_MAX_MOVES; m++) row[m] = 0.0;
        legal[at] = 0;
        for (int a = 0; a < in->k; a++) {
            row[in->mv[a]] = ARR(x, in, A_CUR)[a];
            legal[at] |= 1u << in->mv[a];
        }
    }
    free(index);
    free(acc);
    *n_out = n;
    return SBX_OK;
}

/* sbx_algo_vt.public_state (api.c's sbx_search_pubcfr_node_state). */
static int pc_public_state(const sbx_search *s, int node, const void **out) {
    int rc = belief_args(s, "pubcfr node state");
    if (rc) return rc;
    const pubcfr *x = s->algo;
    if (node < 0 || (size_t)node >= x->n_nodes) {
        return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr node state: node %d out of range 0..%zu",
                        node, x->n_nodes - 1);
    }
    *out = STATE(x, x->nodes[node].state, s->state_size);
    return SBX_OK;
}

const sbx_algo_vt sbx_pubcfr_vt = {
    .name = "pubcfr",
    .check = pc_check,
    .iteration_nodes = pc_iteration_nodes,
    .create = pc_create,
    .destroy = pc_destroy,
    .params_changed = pc_params_changed,
    .iterate = pc_iterate,
    .iterate_traced = pc_iterate_traced,
    .advance = pc_advance,
    .reset_all = pc_reset_all,
    .best_moves = pc_best_moves,
    .root_stats = pc_root_stats,
    .snapshot = pc_snapshot,
    .fill_stats = pc_fill_stats,
    .node_count = pc_node_count,
    .public_state = pc_public_state,
    .net_changed = pc_net_changed,
};
