/*
 * api.c — the checked public search API (sbx.h §3–§5): lifecycle, budgets,
 * hot-swap, inspection. The algorithm itself lives behind sbx_algo_vt,
 * found by id in registry.c; nothing below calls back up into this file.
 */
#include "registry.h"
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

static int check_algo(int algorithm) {
    if (!sbx_algo_for(algorithm)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "algorithm: %d is not built into this core",
                        algorithm);
    }
    return SBX_OK;
}

/* Statistics gathered under one algorithm or selection policy mean nothing to
 * another (Exp3's reward estimates are not regrets, a joint-action tree is
 * not a decoupled one): a change of either waits for a fresh turn (advance,
 * reset), or applies at once while this turn has no iterations yet. The new
 * one starts with fresh trees. On failure (memory) the old one stays. */
static int sync_active(sbx_search *s) {
    if (s->p.algorithm != s->algo_id) {
        const sbx_algo_vt *nv = sbx_algo_for(s->p.algorithm);
        if (!nv) return check_algo(s->p.algorithm);
        void *old = s->algo;
        const sbx_algo_vt *ov = s->algo_vt;
        const int32_t old_policy = s->policy;
        s->algo = NULL;
        s->algo_vt = nv;
        s->policy = s->p.policy;
        int rc = nv->create(s); /* cleans up after itself on failure */
        void *made = s->algo;
        s->algo = old;
        if (rc) {
            s->algo_vt = ov;
            s->policy = old_policy;
            return rc;
        }
        ov->destroy(s);
        s->algo = made;
        s->algo_id = s->p.algorithm;
    } else if (s->p.policy != s->policy) {
        s->policy = s->p.policy;
        s->algo_vt->reset_all(s);
    }
    return SBX_OK;
}

static int same_game(const sbx_search *s, const sbx_game *g) {
    return g && g->vt == s->vt && g->state_size == s->state_size &&
           memcmp(g->cfg, s->cfg, s->vt->cfg_size) == 0;
}

/* Everything about params that depends on the game and the algorithm asked
 * for: the algorithm is built in, accepts this game and these params (SUCT's
 * lead, joint-action MCTS's branching), and node_cap holds one iteration's
 * worst case in each of its arenas (each algorithm states its own; a cap
 * below it could never run one). */
/* Hidden information (goofspiel imp_info=1): a search must not read what
 * its seat cannot see. Smitsimax (serial) runs determinized -- every
 * iteration starts from a state sampled from the seat's information set
 * (sbx_sim_determinize) -- and random reads only the seat's own legal
 * moves; pubcfr searches public states and asks the game only for what
 * the seat may see (game.h's private_states); every other algorithm would
 * search the true state (a peek) and is refused. */
static int check_hidden(const sbx_search_params *p, const sbx_game_vt *game,
                        const void *cfg, int num_agents) {
    if (!game->hidden_info || !game->hidden_info(cfg)) return SBX_OK;
    const sbx_algo_vt *vt = sbx_algo_for(p->algorithm);
    if (!game->determinize) {
        return sbx_fail(SBX_ERR_ARGUMENT, "algorithm: %s hides information and "
                        "cannot determinize: no search may run on it", game->name);
    }
    if (p->algorithm != SBX_ALGO_SMITSIMAX && p->algorithm != SBX_ALGO_RANDOM &&
        p->algorithm != SBX_ALGO_PUBCFR) {
        return sbx_fail(SBX_ERR_ARGUMENT, "algorithm: %s would see the hidden "
                        "information of this %s game; on hidden-information games "
                        "only smitsimax (determinized), pubcfr and random run", vt->name,
                        game->name);
    }
    if (p->algorithm == SBX_ALGO_SMITSIMAX && p->parallel != SBX_PAR_SERIAL) {
        return sbx_fail(SBX_ERR_ARGUMENT, "parallel: determinized smitsimax runs "
                        "serially only (parallel=serial) on hidden-information games");
    }
    return SBX_OK;
}

static int check_fits(const sbx_search_params *p, const sbx_game_vt *game,
                      const void *cfg, int num_agents, int max_moves) {
    int rc = check_algo(p->algorithm);
    if (rc) return rc;
    /* On every game, not only hidden-information ones: pubcfr plays for
     * info_seat on a public game too, and a seat past the agents reached the
     * game's private-state hook when the change was applied */
    if (p->info_seat >= num_agents) {
        return sbx_fail(SBX_ERR_ARGUMENT, "info_seat: %d is past the game's agents "
                        "0..%d", p->info_seat, num_agents - 1);
    }
    if ((rc = check_hidden(p, game, cfg, num_agents)) != SBX_OK) return rc;
    const sbx_algo_vt *vt = sbx_algo_for(p->algorithm);
    if (vt->check && (rc = vt->check(p, game, num_agents, max_moves)) != SBX_OK) return rc;
    int64_t need = vt->iteration_nodes(p, num_agents, max_moves);
    if (p->node_cap < need) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "node_cap: %d nodes cannot hold one %s iteration at "
                        "max_depth %d (needs %lld)",
                        p->node_cap, vt->name, p->max_depth, (long long)need);
    }
    return SBX_OK;
}

int sbx_search_new(const sbx_game *root, const sbx_search_params *params,
                   uint64_t seed, sbx_search **out) {
    if (out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out is NULL");
    *out = NULL;
    if (root == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "root game is NULL");
    sbx_search_params p;
    if (params) {
        int rc = sbx_search_params_validate(params);
        if (rc) return rc;
        p = *params;
    } else {
        sbx_search_params_default(&p);
    }
    int rc0 = check_fits(&p, root->vt, root->cfg, root->vt->num_agents(root->cfg),
                         root->vt->max_moves(root->cfg));
    if (rc0) return rc0;
    const int hidden = root->vt->hidden_info && root->vt->hidden_info(root->cfg);
    if (hidden) { /* a root the game cannot determinize is refused up front */
        void *probe = malloc(root->state_size);
        if (!probe) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a search");
        uint64_t r = seed;
        int rc = root->vt->determinize(root->cfg, root->state, sbx_info_seat(&p), &r, probe);
        free(probe);
        if (rc) return rc;
    }
    sbx_search *s = calloc(1, sizeof *s);
    if (!s) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a search");
    s->vt = root->vt;
    s->state_size = root->state_size;
    s->num_agents = root->vt->num_agents(root->cfg);
    s->max_moves = root->vt->max_moves(root->cfg);
    s->hidden = hidden;
    s->algo_vt = sbx_algo_for(p.algorithm);
    s->algo_id = p.algorithm;
    s->policy = p.policy;
    s->p = p;
    pthread_mutex_init(&s->lock, NULL);
    s->lock_ready = 1;
    s->rng = seed;
    s->cfg = malloc(root->vt->cfg_size);
    s->root = malloc(s->state_size);
    s->sim = malloc(s->state_size);
    if (!s->cfg || !s->root || !s->sim) {
        sbx_search_free(s);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a search");
    }
    memcpy(s->cfg, root->cfg, root->vt->cfg_size);
    memcpy(s->root, root->state, s->state_size);
    atomic_init(&s->has_pending, 0);
    atomic_init(&s->has_pending_net, 0);
    atomic_init(&s->stop_flag, 0);
    int rc = s->algo_vt->create(s); /* cleans up after itself on failure */
    if (rc) {
        sbx_search_free(s);
        return rc;
    }
    *out = s;
    return SBX_OK;
}

void sbx_search_free(sbx_search *s) {
    if (s == NULL) return;
    if (s->algo) s->algo_vt->destroy(s);
    sbx_neteval_free(&s->ev);
    if (s->lock_ready) pthread_mutex_destroy(&s->lock);
    free(s->scratch);
    free(s->sim);
    free(s->root);
    free(s->cfg);
    free(s);
}

/* A net set from any thread takes effect here, on the driving thread. */
static int apply_pending_net(sbx_search *s) {
    if (!atomic_load_explicit(&s->has_pending_net, memory_order_acquire)) return SBX_OK;
    pthread_mutex_lock(&s->lock);
    const sbx_net *net = s->pending_net;
    atomic_store_explicit(&s->has_pending_net, 0, memory_order_release);
    pthread_mutex_unlock(&s->lock);
    if (net == s->net) return SBX_OK;
    int rc = sbx_neteval_attach(&s->ev, net, &s->net_states);
    s->net = s->ev.net; /* NULL when the evaluator could not be made */
    if (s->algo_vt->net_changed) s->algo_vt->net_changed(s);
    return rc;
}

/* Called by the driving thread between iterations. */
static int apply_pending(sbx_search *s) {
    int rc0 = apply_pending_net(s);
    if (rc0) return rc0;
    if (!atomic_load_explicit(&s->has_pending, memory_order_acquire)) {
        return SBX_OK;
    }
    pthread_mutex_lock(&s->lock);
    sbx_search_params old = s->p;
    s->p = s->pending;
    atomic_store_explicit(&s->has_pending, 0, memory_order_release);
    pthread_mutex_unlock(&s->lock);
    int rc = s->algo_vt->params_changed(s, &old);
    if (rc == SBX_OK && s->iterations_root == 0) rc = sync_active(s);
    return rc;
}

int sbx_search_set_params(sbx_search *s, const sbx_search_params *params) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    int rc = sbx_search_params_validate(params);
    if (rc) return rc;
    rc = check_fits(params, s->vt, s->cfg, s->num_agents, s->max_moves);
    if (rc) return rc;
    pthread_mutex_lock(&s->lock);
    s->pending = *params;
    atomic_store_explicit(&s->has_pending, 1, memory_order_release);
    pthread_mutex_unlock(&s->lock);
    return SBX_OK;
}

int sbx_search_set_net(sbx_search *s, const sbx_net *net) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (net) {
        int rc = sbx_net_check_config(net, s->vt, s->cfg);
        if (rc) return rc;
    }
    pthread_mutex_lock(&s->lock);
    s->pending_net = net;
    atomic_store_explicit(&s->has_pending_net, 1, memory_order_release);
    pthread_mutex_unlock(&s->lock);
    return SBX_OK;
}

int sbx_search_get_net(sbx_search *s, const sbx_net **out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    int rc = apply_pending(s);
    *out = s->net;
    return rc;
}

int sbx_search_check_params(const sbx_search *s, const sbx_search_params *params) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    int rc = sbx_search_params_validate(params);
    if (rc) return rc;
    return check_fits(params, s->vt, s->cfg, s->num_agents, s->max_moves);
}

int sbx_search_get_params(sbx_search *s, sbx_search_params *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    int rc = apply_pending(s);
    *out = s->p;
    return rc;
}

void sbx_search_stop(sbx_search *s) {
    if (s) atomic_store_explicit(&s->stop_flag, 1, memory_order_release);
}

int sbx_search_run(sbx_search *s, int64_t max_iterations, double max_ms,
                   sbx_run_result *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    memset(out, 0, sizeof *out);
    if (max_iterations < 0 || !(max_ms >= 0.0) || !isfinite(max_ms)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "budget must be >= 0 (iterations %lld, ms %g)",
                        (long long)max_iterations, max_ms);
    }
    if (max_iterations == 0 && max_ms == 0.0) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "give an iteration budget, a time budget, or both");
    }
    /* A stop requested before this run began is not for this run. */
    atomic_store_explicit(&s->stop_flag, 0, memory_order_relaxed);
    int rc = apply_pending(s);
    if (rc) return rc;
    const double t0 = sbx_now_ms();
    const int64_t nodes0 = s->algo_vt->node_count(s);
    int64_t it = 0, turns = 0, next_clock = 0;
    int reason = SBX_STOP_NONE;
    if (s->vt->is_terminal(s->cfg, s->root)) reason = SBX_STOP_TERMINAL;
    s->run_threads = 0; /* the meters describe the last run */
    s->run_wait_ms = s->run_busy_ms = 0.0;
    if (reason == SBX_STOP_NONE && s->p.parallel != SBX_PAR_SERIAL &&
        s->algo_vt->run_parallel) {
        /* Hot-swapped params wait for the next run (a slice is a few ms):
         * the workers read s->p without a lock. */
        rc = s->algo_vt->run_parallel(s, max_iterations, max_ms, t0, &it, &turns,
                                      &reason);
    }
    while (reason == SBX_STOP_NONE && rc == SBX_OK) {
        if (max_iterations > 0 && it >= max_iterations) {
            reason = SBX_STOP_ITERATIONS;
            break;
        }
        if (max_ms > 0.0 &&
            sbx_time_up(it, &next_clock, s->p.time_check_interval, t0, max_ms)) {
            reason = SBX_STOP_TIME;
            break;
        }
        if (atomic_load_explicit(&s->stop_flag, memory_order_relaxed)) {
            reason = SBX_STOP_REQUESTED;
            break;
        }
        if ((rc = apply_pending(s)) != SBX_OK) break;
        int r = s->algo_vt->iterate(s, &turns);
        if (r != SBX_STOP_NONE) {
            reason = r;
            break;
        }
        it++;
    }
    s->iterations += it;
    s->iterations_root += it;
    s->sim_turns += turns;
    s->last_stop = reason;
    out->iterations = it;
    out->sim_turns = turns;
    out->elapsed_ms = sbx_now_ms() - t0;
    out->stop_reason = reason;
    out->nodes_added = (int32_t)(s->algo_vt->node_count(s) - nodes0);
    return rc;
}

int sbx_search_step_traced(sbx_search *s, sbx_trace *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    memset(out, 0, sizeof *out);
    int rc = apply_pending(s);
    if (rc) return rc;
    out->num_agents = s->num_agents;
    if (s->vt->is_terminal(s->cfg, s->root)) {
        out->stop_reason = SBX_STOP_TERMINAL;
        return SBX_OK;
    }
    int64_t turns = 0;
    int r = s->algo_vt->iterate_traced(s, &turns, out);
    out->stop_reason = r;
    s->last_stop = r;
    if (r == SBX_STOP_NONE) {
        s->iterations++;
        s->iterations_root++;
        s->sim_turns += turns;
    }
    return SBX_OK;
}

int sbx_search_advance(sbx_search *s, const int32_t *joint_moves,
                       const sbx_game *new_root) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (new_root && !same_game(s, new_root)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "new root is a different game or has other parameters");
    }
    int rc = apply_pending(s);
    if (rc) return rc;
    if (s->vt->is_terminal(s->cfg, s->root)) {
        return sbx_fail(SBX_ERR_STATE, "the search's root state is terminal");
    }
    uint8_t joint[SBX_MAX_AGENTS];
    rc = sbx_game_check_joint(s->vt, s->cfg, s->root, joint_moves, joint);
    if (rc) return rc;
    if (new_root) {
        memcpy(s->root, new_root->state, s->state_size);
    } else {
        s->vt->reseed(s->root, sbx_rng_next(&s->rng));
        s->vt->step(s->cfg, s->root, joint, NULL);
    }
    if (s->hidden && s->algo_id != SBX_ALGO_PUBCFR) {
        /* The trees were grown on sampled states, and the opponents' trees
         * would be re-rooted by moves the seat never saw: start afresh.
         * (pubcfr's advance reads only its seat's move and the public
         * state: it carries its summary to the next search.) */
        s->algo_vt->reset_all(s);
    } else {
        s->algo_vt->advance(s, joint); /* sees the new root state */
    }
    s->iterations_root = 0;
    s->last_stop = SBX_STOP_NONE;
    return sync_active(s);
}

int sbx_search_set_game(sbx_search *s, const sbx_game *like) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (like == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "like is NULL");
    if (like->vt != s->vt || like->state_size != s->state_size ||
        like->vt->num_agents(like->cfg) != s->num_agents ||
        like->vt->max_moves(like->cfg) != s->max_moves) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "like: another game or another state layout than the "
                        "search's");
    }
    int rc = apply_pending(s);
    if (rc) return rc;
    /* The root carries over: exported under the search's parameters and
     * imported under like's into a copy (an import keeps the state's own
     * random stream, so the copy starts as the root). */
    int32_t *buf = malloc(sizeof(int32_t) * SBX_EXPORT_MAX);
    void *tmp = malloc(s->state_size);
    if (!buf || !tmp) {
        free(buf);
        free(tmp);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory checking a game change");
    }
    memcpy(tmp, s->root, s->state_size);
    int n = s->vt->export_state(s->cfg, s->root, buf, SBX_EXPORT_MAX);
    rc = n < 0 ? SBX_ERR_STATE : s->vt->import_state(like->cfg, tmp, buf, n);
    free(buf);
    free(tmp);
    if (rc != SBX_OK) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "like: the search's state does not carry over to its "
                        "parameters (only evaluation may differ)");
    }
    memcpy(s->cfg, like->cfg, s->vt->cfg_size);
    return SBX_OK;
}

int sbx_search_reset(sbx_search *s, const sbx_game *root) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (!same_game(s, root)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "root is a different game or has other parameters");
    }
    int rc = apply_pending(s);
    if (rc) return rc;
    memcpy(s->root, root->state, s->state_size);
    s->algo_vt->reset_all(s);
    s->iterations_root = 0;
    s->last_stop = SBX_STOP_NONE;
    return sync_active(s);
}

int sbx_search_root_state(const sbx_search *s, sbx_game *game) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (!same_game(s, game)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "game is a different game or has other parameters");
    }
    memcpy(game->state, s->root, s->state_size);
    return SBX_OK;
}

int sbx_search_pubcfr_node_state(const sbx_search *s, int node, sbx_game *game) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (!same_game(s, game)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "game is a different game or has other parameters");
    }
    if (!s->algo_vt->public_state || !s->algo) {
        return sbx_fail(SBX_ERR_STATE, "pubcfr node state: the search is not running pubcfr");
    }
    const void *st = NULL;
    int rc = s->algo_vt->public_state(s, node, &st);
    if (rc) return rc;
    memcpy(game->state, st, s->state_size);
    return SBX_OK;
}

int sbx_search_pubcfr_set_beliefs(sbx_search *s, const uint32_t *ids, const double *weights,
                                  const int *n, const uint32_t *pairs, int nh) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "pubcfr beliefs: search is NULL");
    /* queued settings first: one that rebuilds the tree (max_depth, ...)
     * would otherwise drop the beliefs at the next run */
    int rc = apply_pending(s);
    if (rc) return rc;
    return sbx_pubcfr_set_beliefs(s, ids, weights, n, pairs, nh);
}

int sbx_search_best_moves(sbx_search *s, int32_t *moves_out) {
    if (s == NULL || moves_out == NULL) {
        return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    }
    s->algo_vt->best_moves(s, moves_out);
    return SBX_OK;
}

static int check_agent(const sbx_search *s, int agent) {
    if (s == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "search is NULL");
    if (agent < 0 || agent >= s->num_agents) {
        return sbx_fail(SBX_ERR_ARGUMENT, "agent %d out of range 0..%d", agent,
                        s->num_agents - 1);
    }
    return SBX_OK;
}

int sbx_search_root_stats(sbx_search *s, int agent, sbx_move_stat *out,
                          int cap, int *n_out) {
    int rc = check_agent(s, agent);
    if (rc) return rc;
    if (n_out == NULL || cap < 0 || (out == NULL && cap > 0)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "bad output buffer");
    }
    return s->algo_vt->root_stats(s, agent, out, cap, n_out);
}

int sbx_search_stats_get(sbx_search *s, sbx_search_stats *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    memset(out, 0, sizeof *out);
    out->iterations = s->iterations;
    out->sim_turns = s->sim_turns;
    out->iterations_root = s->iterations_root;
    out->num_agents = s->num_agents;
    out->node_cap = s->p.node_cap;
    out->cap_reached = s->last_stop == SBX_STOP_NODE_CAP;
    out->algorithm = s->algo_id;
    out->policy = s->policy;
    out->run_threads = s->run_threads;
    for (int j = 0; j < s->run_threads && j < SBX_MAX_THREADS; j++) {
        out->run_thread_iterations[j] = s->run_thread_iterations[j];
    }
    out->run_wait_ms = s->run_wait_ms;
    out->run_busy_ms = s->run_busy_ms;
    out->net_states = s->net_states;
    s->algo_vt->fill_stats(s, out);
    return SBX_OK;
}

int sbx_search_summary_get(sbx_search *s, sbx_search_summary *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    int rc = sbx_search_stats_get(s, &out->stats);
    if (rc) return rc;
    s->algo_vt->best_moves(s, out->best_moves);
    for (int a = 0; a < s->num_agents; a++) {
        int n = 0;
        rc = s->algo_vt->root_stats(s, a, out->root[a], SBX_MAX_MOVES + 1, &n);
        if (rc) return rc;
        out->root_counts[a] = n;
    }
    return SBX_OK;
}

int sbx_search_snapshot(sbx_search *s, int agent, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out) {
    return sbx_search_snapshot_at(s, agent, 0, max_nodes, min_visits, out, n_out);
}

int sbx_search_snapshot_at(sbx_search *s, int agent, int node, int max_nodes,
                           int min_visits, sbx_snapshot_node *out, int *n_out) {
    int rc = check_agent(s, agent);
    if (rc) return rc;
    if (out == NULL || n_out == NULL || max_nodes < 1) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "snapshot needs an output buffer of at least one row");
    }
    if (min_visits < 0) return sbx_fail(SBX_ERR_ARGUMENT, "min_visits must be >= 0");
    if (node < 0) return sbx_fail(SBX_ERR_ARGUMENT, "snapshot: node id %d is negative", node);
    return s->algo_vt->snapshot(s, agent, (uint32_t)node, max_nodes, min_visits, out, n_out);
}

int sbx_search_find_path(sbx_search *s, int agent, const uint8_t *path, int steps,
                         int stride, int32_t *node_out) {
    int rc = check_agent(s, agent);
    if (rc) return rc;
    if (node_out == NULL || steps < 0 || (steps > 0 && (path == NULL || stride < 1))) {
        return sbx_fail(SBX_ERR_ARGUMENT, "find_path: bad path or output");
    }
    *node_out = 0;
    if (steps == 0) return SBX_OK;
    if (!s->algo_vt->find_path) {
        return sbx_fail(SBX_ERR_ARGUMENT, "find_path: %s keeps no tree below the root",
                        s->algo_vt->name);
    }
    *node_out = -1;
    return s->algo_vt->find_path(s, agent, path, steps, stride, node_out);
}

int sbx_search_snapshot_links(sbx_search *s, const sbx_snapshot_node *rows, int n_rows,
                              int32_t *pairs_out, uint8_t *joints_out, int cap_pairs,
                              int *n_out) {
    if (s == NULL || n_out == NULL || n_rows < 0 || cap_pairs < 0 ||
        (rows == NULL && n_rows > 0) || (pairs_out == NULL && cap_pairs > 0)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "snapshot links: bad rows or output buffer");
    }
    *n_out = 0;
    if (!s->algo_vt->snapshot_links || n_rows == 0) return SBX_OK;
    return s->algo_vt->snapshot_links(s, rows, n_rows, pairs_out, joints_out, cap_pairs,
                                      n_out);
}

int sbx_search_root_matrix(sbx_search *s, sbx_root_matrix *out) {
    if (s == NULL || out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    if (!s->algo_vt->root_matrix || s->num_agents != 2) {
        return sbx_fail(SBX_ERR_STATE,
                        "root matrix: %s with %d agents keeps no joint-action matrix at the "
                        "root (mcgs, or joint with two agents)",
                        s->algo_vt->name, s->num_agents);
    }
    memset(out, 0, sizeof *out);
    return s->algo_vt->root_matrix(s, out);
}
