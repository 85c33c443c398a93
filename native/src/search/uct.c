/*
 * uct.c — textbook sequential UCT, the outside yardstick.
 *
 * This file is deliberately plain and is NOT tuned by this project: it is
 * what the project's own searches are measured against, so it must stay
 * what the literature calls UCT (Kocsis and Szepesvari; Browne et al.'s
 * survey; OpenSpiel's MCTSBot) and share no selection or backup code with
 * suct.c, whose knobs are this project's. Only the arena (tree.c) and the
 * game contract are shared.
 *
 * ONE tree. A simulated turn is serialised into one tree level per agent
 * that has legal moves, in the order lead, lead+1, ... (mod agents; lead =
 * params.lead, -1 => 0; a match's controller gives it the seat's first
 * agent, so the searching player moves first in its own tree and never sees
 * the current opponent's pick; an agent without moves has no level). The
 * joint action is complete when the turn's last level is chosen; then the
 * simulation steps. Chance is drawn fresh every iteration (sbx_sim_begin):
 * the tree is over moves only, and a stored level whose agent or moves
 * disagree with the simulated state (chance made it another state) ends the
 * walk there, as a leaf would.
 *
 * One iteration:
 *   selection  UCB1 = mean + c * sqrt(ln N / n) over the mover's children;
 *              an unvisited child first (a uniformly random one of them);
 *   expansion  the first unvisited child met is the ONE node this
 *              iteration adds (the arena stores a node's children as one
 *              block, allocated when the first of them is needed; a child
 *              with no visits is not yet part of the search);
 *   rollout    uniformly random legal moves TO THE END OF THE GAME
 *              (is_terminal); no evaluation cut-off, no depth limit, no
 *              discount;
 *   backup     every node on the path gets the return of the agent that
 *              moved there.
 * Returns are win/loss in [-1, 1], from each agent's side: +1 if its
 * side's final score (the game's evaluate() at the end) beats every
 * opposing side, -1 if an opposing side is above it, 0 for a tie at the
 * top. Sides are the game's (sbx_game_vt.side: a pods or SnakeByte team);
 * a game of one side has nothing to win and every return is 0.
 *
 * The move played is the most-visited child (ties: the lower move id) along
 * the most-visited line of the first simulated turn: the lead's root child,
 * then the next agent's child below it, ... No tree reuse: the textbook
 * starts every turn from a fresh tree. Reads c, lead and node_cap (and the
 * run's budgets and the search's seed); every other knob is ignored. The
 * textbook's c for [-1, 1] returns is 2 (OpenSpiel's): the Python settings
 * give uct that c when they name none (sandbox/native/params.py); C's
 * parameter table has one default per field, so a bare C caller sets it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "search.h"
#include "tree.h"

typedef struct uct_node {
    sbx_tree_hdr h;        /* first_child, visits, nchildren, depth          */
    uint8_t move;          /* SBX_MOVE_NONE for the root                     */
    int8_t agent;          /* who moved here; -1 for the root                */
    uint16_t turn;         /* simulated turn of the move, 1..; root 0        */
    double total;          /* sum of the mover's returns                     */
} uct_node;

_Static_assert(sizeof(uct_node) == 24, "UCT nodes are 24 bytes");

/* A guard, not a depth limit: every built-in game ends by a turn limit or
 * by its own rules long before this; a game that never ended would
 * otherwise hang the search. */
#define UCT_TURN_GUARD 1000000

typedef struct uct {
    sbx_tree t;
    int32_t lead;          /* the order the tree was built in                */
    int32_t turn_reached;  /* deepest turn stored in the tree                */
    uint32_t *path;        /* the iteration's path (grows with the tree)     */
    size_t path_cap;
} uct;

#define NODE(x, i) ((uct_node *)sbx_tree_at(&(x)->t, (i)))

static int lead_of(const sbx_search_params *p, int n) {
    return p->lead < 0 || p->lead >= n ? 0 : p->lead;
}

static void clear(uct *x) {
    sbx_tree_clear(&x->t);
    uct_node *r = NODE(x, 0);
    r->move = SBX_MOVE_NONE;
    r->agent = -1;
    x->turn_reached = 0;
}

static int uct_check(const sbx_search_params *p, const sbx_game_vt *game, int num_agents,
                     int max_moves) {
    (void)game;
    (void)max_moves;
    if (p->lead >= num_agents) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "lead: agent %d is not in this %d-agent game (UCT serialises "
                        "agents 0..%d)",
                        p->lead, num_agents, num_agents - 1);
    }
    return SBX_OK;
}

/* At most one child block per iteration. */
static int64_t uct_iteration_nodes(const sbx_search_params *p, int num_agents,
                                   int max_moves) {
    (void)p;
    (void)num_agents;
    return max_moves > 1 ? max_moves : 1;
}

static void uct_destroy(sbx_search *s) {
    uct *x = s->algo;
    if (!x) return;
    sbx_tree_free(&x->t);
    free(x->path);
    free(x);
    s->algo = NULL;
}

static int uct_create(sbx_search *s) {
    uct *x = calloc(1, sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a UCT tree");
    s->algo = x;
    x->t.stride = sizeof(uct_node);
    x->path_cap = 256;
    x->path = malloc(x->path_cap * sizeof *x->path);
    if (!x->path || sbx_tree_alloc(&x->t, (uint32_t)s->p.node_cap) != SBX_OK) {
        uct_destroy(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory allocating a %d-node tree arena",
                        s->p.node_cap);
    }
    x->lead = lead_of(&s->p, s->num_agents);
    clear(x);
    return SBX_OK;
}

static int uct_params_changed(sbx_search *s, const sbx_search_params *old) {
    uct *x = s->algo;
    if (lead_of(&s->p, s->num_agents) != x->lead) {
        x->lead = lead_of(&s->p, s->num_agents); /* another order is another tree */
        clear(x);
    }
    if (x->t.used > (uint32_t)s->p.node_cap) clear(x);
    return sbx_tree_follow_cap(s, &x->t, old->node_cap);
}

/* ------------------------------------------------------------ iteration */

/* Win/loss per agent from the final scores, compared side against side. */
static void win_loss(const sbx_search *s, const void *sim, double *ret) {
    const int n = s->num_agents;
    double score[SBX_MAX_AGENTS], side_score[SBX_MAX_AGENTS];
    int side[SBX_MAX_AGENTS];
    s->vt->evaluate(s->cfg, sim, score);
    for (int a = 0; a < n; a++) {
        side[a] = s->vt->side ? s->vt->side(s->cfg, a) : a;
        side_score[a] = -INFINITY;
    }
    /* a side's score: its best agent's (the games give team mates one) */
    for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
            if (side[b] == side[a] && score[b] > side_score[a]) side_score[a] = score[b];
        }
    }
    for (int a = 0; a < n; a++) {
        double best_opp = -INFINITY;
        int opponents = 0;
        for (int b = 0; b < n; b++) {
            if (side[b] == side[a]) continue;
            opponents = 1;
            if (side_score[b] > best_opp) best_opp = side_score[b];
        }
        ret[a] = !opponents                 ? 0.0
                 : side_score[a] > best_opp ? 1.0
                 : side_score[a] < best_opp ? -1.0
                                            : 0.0;
    }
}

/* Do node's stored children stand for agent's k legal moves now? */
static int children_match(const uct *x, const uct_node *node, int agent,
                          const uint8_t *moves, int k) {
    if (node->h.nchildren != k) return 0;
    const uct_node *ch = NODE(x, node->h.first_child);
    for (int i = 0; i < k; i++) {
        if (ch[i].agent != agent || ch[i].move != moves[i]) return 0;
    }
    return 1;
}

/* UCB1 over node's children; an unvisited child (a uniformly random one)
 * before any visited one. *fresh: the child picked had no visits. */
static uint32_t select_child(const uct *x, const uct_node *node, double c, uint64_t *rng,
                             int *fresh) {
    const uint32_t first = node->h.first_child;
    const int k = node->h.nchildren;
    const uct_node *ch = NODE(x, first);
    int unvisited = 0;
    for (int i = 0; i < k; i++) unvisited += ch[i].h.visits == 0;
    if (unvisited) {
        *fresh = 1;
        int r = (int)sbx_rng_below(rng, (uint32_t)unvisited);
        for (int i = 0; i < k; i++) {
            if (ch[i].h.visits == 0 && r-- == 0) return first + (uint32_t)i;
        }
    }
    *fresh = 0;
    const double ln_n = log((double)node->h.visits);
    uint32_t best = first;
    double best_v = -INFINITY;
    for (int i = 0; i < k; i++) {
        const double n = (double)ch[i].h.visits;
        const double v = ch[i].total / n + c * sqrt(ln_n / n);
        if (v > best_v) { /* strictly: ties keep the earlier child */
            best_v = v;
            best = first + (uint32_t)i;
        }
    }
    return best;
}

static int push_path(uct *x, int plen, uint32_t node) {
    if ((size_t)plen >= x->path_cap) {
        uint32_t *p = realloc(x->path, 2 * x->path_cap * sizeof *p);
        if (!p) return 0;
        x->path = p;
        x->path_cap *= 2;
    }
    x->path[plen] = node;
    return 1;
}

static int uct_iterate_impl(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    uct *x = s->algo;
    const sbx_game_vt *vt = s->vt;
    const void *cfg = s->cfg;
    const int n = s->num_agents;
    if ((int64_t)(x->t.cap - x->t.used) < uct_iteration_nodes(&s->p, n, s->max_moves)) {
        return SBX_STOP_NODE_CAP;
    }
    const uint64_t sim_seed = sbx_sim_begin(s);
    void *sim = s->sim;
    const double c = s->p.c;

    int plen = 1, in_tree = 1, turn = 0;
    uint32_t cur = 0;
    x->path[0] = 0;
    uint8_t joint[SBX_MAX_AGENTS];
    uint8_t moves[SBX_MAX_MOVES];

    while (!vt->is_terminal(cfg, sim) && turn < UCT_TURN_GUARD) {
        turn++;
        for (int j = 0; j < n; j++) {
            const int a = (x->lead + j) % n;
            const int k = vt->legal_moves(cfg, sim, a, moves);
            int pick = SBX_PICK_NONE, expanded = 0;
            joint[a] = SBX_MOVE_NONE;
            if (k == 0) {
                /* no moves, no level */
            } else if (in_tree) {
                uct_node *node = NODE(x, cur);
                if (node->h.first_child == 0) {
                    const int depth = node->h.depth < UINT16_MAX ? node->h.depth + 1 : UINT16_MAX;
                    const uint32_t first = sbx_tree_push(&x->t, k, depth);
                    for (int i = 0; i < k; i++) {
                        uct_node *ch = NODE(x, first + (uint32_t)i);
                        ch->move = moves[i];
                        ch->agent = (int8_t)a;
                        ch->turn = (uint16_t)(turn < UINT16_MAX ? turn : UINT16_MAX);
                    }
                    node = NODE(x, cur);
                    node->h.first_child = first;
                    node->h.nchildren = (uint16_t)k;
                    if (turn > x->turn_reached) x->turn_reached = turn;
                    expanded = 1;
                } else if (!children_match(x, node, a, moves, k)) {
                    in_tree = 0; /* chance made this node another state: a leaf */
                }
                if (in_tree) {
                    int fresh = 0;
                    const uint32_t ci = select_child(x, node, c, &s->rng, &fresh);
                    if (!push_path(x, plen, ci)) {
                        in_tree = 0; /* no memory for a longer path: stop here */
                    } else {
                        plen++;
                        cur = ci;
                        joint[a] = NODE(x, ci)->move;
                        pick = SBX_PICK_UCB;
                        if (fresh) in_tree = 0; /* the one new node: roll out below it */
                    }
                }
            }
            if (k > 0 && joint[a] == SBX_MOVE_NONE) {
                joint[a] = moves[sbx_rng_below(&s->rng, (uint32_t)k)];
                pick = SBX_PICK_ROLLOUT;
            }
            if (tr && turn <= SBX_MAX_DEPTH) {
                tr->moves[a][turn - 1] = k ? joint[a] : -1;
                tr->pick[a][turn - 1] = (int8_t)pick;
                tr->expanded[a][turn - 1] = (int8_t)expanded;
            }
        }
        vt->step(cfg, sim, joint, NULL);
        if (tr && turn <= SBX_MAX_DEPTH) {
            for (int a = 0; a < n; a++) {
                tr->alive_after[a][turn - 1] = (int8_t)vt->is_alive(cfg, sim, a);
            }
        }
    }
    *turns += turn;

    double ret[SBX_MAX_AGENTS];
    win_loss(s, sim, ret);
    uct_node *root = NODE(x, 0);
    root->h.visits++;
    /* the root's value: the first mover's (the agent of its children) */
    const int root_agent = plen > 1 ? NODE(x, x->path[1])->agent : x->lead;
    root->total += ret[root_agent];
    for (int i = 1; i < plen; i++) {
        uct_node *nd = NODE(x, x->path[i]);
        nd->h.visits++;
        nd->total += ret[nd->agent];
    }

    if (tr) {
        /* a trace row holds SBX_MAX_DEPTH turns: a longer rollout is traced
         * in its first turns only (terminal 0: the rows stop short of it) */
        tr->depth = turn < SBX_MAX_DEPTH ? turn : SBX_MAX_DEPTH;
        tr->terminal = turn <= SBX_MAX_DEPTH && vt->is_terminal(cfg, sim);
        tr->sim_seed = sim_seed;
        const int cap = SBX_MAX_AGENTS * (SBX_MAX_DEPTH + 1);
        const int len = plen < cap ? plen : cap;
        tr->path_len[0] = len; /* one flat path over the rows, as suct.c's */
        int32_t *flat = &tr->path[0][0];
        for (int i = 0; i < len; i++) flat[i] = (int32_t)x->path[i];
        for (int a = 0; a < n; a++) {
            tr->score[a] = ret[a];
            tr->norm_min[a] = -1.0;
            tr->norm_max[a] = 1.0;
        }
    }
    return SBX_STOP_NONE;
}

static int uct_iterate(sbx_search *s, int64_t *turns) {
    return uct_iterate_impl(s, turns, NULL);
}

static int uct_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr) {
    return uct_iterate_impl(s, turns, tr);
}

/* No tree reuse (textbook): every turn starts from a fresh tree. */
static void uct_advance(sbx_search *s, const uint8_t *joint) {
    (void)joint;
    clear(s->algo);
}

static void uct_reset_all(sbx_search *s) { clear(s->algo); }

/* ------------------------------------------------------------ inspection */

/* The most-visited child of node (ties: the lower move id); 0 if none has
 * a visit. */
static uint32_t most_visited(const uct *x, const uct_node *node) {
    uint32_t best = 0, best_n = 0;
    int best_move = 0;
    for (uint32_t i = 0; i < node->h.nchildren; i++) {
        const uint32_t ci = node->h.first_child + i;
        const uct_node *ch = NODE(x, ci);
        if (ch->h.visits > best_n || (ch->h.visits == best_n && best_n > 0 &&
                                      ch->move < best_move)) {
            best = ci;
            best_n = ch->h.visits;
            best_move = ch->move;
        }
    }
    return best;
}

static void uct_best_moves(sbx_search *s, int32_t *out) {
    uct *x = s->algo;
    uint8_t moves[SBX_MAX_MOVES];
    int set[SBX_MAX_AGENTS] = {0};
    /* follow the most-visited line through the first turn's levels */
    uint32_t cur = 0;
    for (;;) {
        const uct_node *nd = NODE(x, cur);
        if (nd->h.nchildren == 0 || NODE(x, nd->h.first_child)->turn != 1) break;
        const uint32_t next = most_visited(x, nd);
        if (next == 0) break;
        const uct_node *ch = NODE(x, next);
        out[ch->agent] = ch->move;
        set[ch->agent] = 1;
        cur = next;
    }
    /* an agent the line never reached (no iterations yet): its lowest move */
    for (int a = 0; a < s->num_agents; a++) {
        if (set[a]) continue;
        int k = s->vt->legal_moves(s->cfg, s->root, a, moves);
        out[a] = k ? moves[0] : SBX_MOVE_NONE;
    }
}

/* agent's statistics over its first-turn level: the root's children for the
 * first mover, summed by move over every first-turn node where it moved for
 * the others (a marginal: it mixes the replies to every earlier move). */
static int uct_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap,
                          int *n_out) {
    uct *x = s->algo;
    uint32_t visits[SBX_MAX_MOVES] = {0};
    double total[SBX_MAX_MOVES] = {0};
    uint8_t present[SBX_MAX_MOVES] = {0};
    uint32_t *stack = sbx_search_scratch(s, (size_t)x->t.used * sizeof *stack);
    if (!stack) return sbx_fail(SBX_ERR_MEMORY, "out of memory for root stats");
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const uct_node *nd = NODE(x, stack[--sp]);
        for (uint32_t i = 0; i < nd->h.nchildren; i++) {
            const uint32_t ci = nd->h.first_child + i;
            const uct_node *ch = NODE(x, ci);
            if (ch->turn != 1) break; /* siblings share their turn */
            if (ch->agent == agent) {
                visits[ch->move] += ch->h.visits;
                total[ch->move] += ch->total;
                present[ch->move] = 1;
            } else if (ch->h.nchildren) {
                stack[sp++] = ci;
            }
        }
    }
    uint8_t moves[SBX_MAX_MOVES];
    const int k = s->vt->legal_moves(s->cfg, s->root, agent, moves);
    int rows = 0;
    double sum = 0.0;
    for (int i = 0; i < k; i++) {
        if (present[moves[i]]) {
            rows++;
            sum += visits[moves[i]];
        }
    }
    if (rows > cap) return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d rows, %d needed", cap, rows);
    int r = 0;
    for (int i = 0; i < k; i++) {
        const int m = moves[i];
        if (!present[m]) continue;
        out[r].move = m;
        out[r].visits = (int32_t)visits[m];
        out[r].mean = visits[m] ? total[m] / visits[m] : 0.0;
        out[r].prob = sum > 0 ? visits[m] / sum : 0.0;
        out[r].policy = out[r].prob;
        r++;
    }
    *n_out = rows;
    return SBX_OK;
}

static void uct_fill_stats(sbx_search *s, sbx_search_stats *out) {
    uct *x = s->algo;
    out->node_bytes = (int32_t)sizeof(uct_node);
    out->trees = 1;
    for (int a = 0; a < s->num_agents; a++) {
        out->nodes[a] = (int32_t)x->t.used;
        out->root_visits[a] = (int32_t)NODE(x, 0)->h.visits;
        out->max_depth_reached[a] = x->turn_reached;
        out->norm_min[a] = -1.0; /* win/loss: the returns' fixed range */
        out->norm_max[a] = 1.0;
    }
}

static void fill_row(const void *ctx, const sbx_tree *t, uint32_t node,
                     sbx_snapshot_node *row) {
    (void)ctx;
    const uct_node *nd = sbx_tree_at(t, node);
    row->mean = nd->h.visits ? (float)(nd->total / nd->h.visits) : 0.0f;
    row->move = nd->move;
    row->agent = nd->agent;
}

static int uct_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    (void)agent; /* one tree, whoever asks; rows say whose move they are */
    uct *x = s->algo;
    return sbx_tree_snapshot(s, &x->t, top, max_nodes, min_visits, out, n_out, fill_row,
                             NULL);
}

static int step_matches(const void *ctx, const sbx_tree *t, uint32_t node,
                        const uint8_t *step) {
    (void)ctx;
    return ((const uct_node *)sbx_tree_at(t, node))->move == step[0];
}

static int uct_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                         int stride, int32_t *node_out) {
    (void)agent;
    uct *x = s->algo;
    return sbx_tree_find_path(&x->t, path, steps, stride, step_matches, NULL, node_out);
}

static int64_t uct_node_count(sbx_search *s) {
    uct *x = s->algo;
    return x->t.used;
}

const sbx_algo_vt sbx_uct_vt = {
    .name = "uct",
    .check = uct_check,
    .iteration_nodes = uct_iteration_nodes,
    .create = uct_create,
    .destroy = uct_destroy,
    .params_changed = uct_params_changed,
    .iterate = uct_iterate,
    .iterate_traced = uct_iterate_traced,
    .advance = uct_advance,
    .reset_all = uct_reset_all,
    .best_moves = uct_best_moves,
    .root_stats = uct_root_stats,
    .snapshot = uct_snapshot,
    .find_path = uct_find_path,
    .fill_stats = uct_fill_stats,
    .node_count = uct_node_count,
};
