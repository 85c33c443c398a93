/* game.c — the checked public API over a game object (sbx.h §1): every
 * argument validated before the vtable's unchecked hot-path entries run.
 * Below the games: it reaches a game only through the vtable it was made
 * with (registry.c finds that by name). */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "../core/common.h"


static sbx_game *alloc_game(const sbx_game_vt *vt, const void *cfg) {
    sbx_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->vt = vt;
    g->cfg = malloc(vt->cfg_size);
    if (g->cfg) {
        if (cfg) memcpy(g->cfg, cfg, vt->cfg_size);
        g->state_size = cfg ? vt->state_size(cfg) : 0;
    }
    if (!g->cfg) {
        free(g);
        return NULL;
    }
    return g;
}


int sbx_game_make(const sbx_game_vt *vt, const char *params, uint64_t seed,
                  sbx_game **out) {
    sbx_game *g = alloc_game(vt, NULL);
    if (!g) return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a game");
    int rc = vt->configure(g->cfg, params);
    if (rc != SBX_OK) {
        sbx_game_free(g);
        return rc;
    }
    g->state_size = vt->state_size(g->cfg);
    g->state = calloc(1, g->state_size);
    if (!g->state) {
        sbx_game_free(g);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory creating a game state");
    }
    rc = vt->init(g->cfg, g->state, seed);
    if (rc != SBX_OK) {
        sbx_game_free(g);
        return rc;
    }
    vt->describe(g->cfg, g->params, sizeof g->params);
    *out = g;
    return SBX_OK;
}

int sbx_game_clone(const sbx_game *game, sbx_game **out) {
    if (game == NULL || out == NULL) {
        return sbx_fail(SBX_ERR_ARGUMENT, "game or out is NULL");
    }
    *out = NULL;
    sbx_game *g = alloc_game(game->vt, game->cfg);
    if (!g) return sbx_fail(SBX_ERR_MEMORY, "out of memory cloning a game");
    g->state = malloc(game->state_size);
    if (!g->state) {
        sbx_game_free(g);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory cloning a game");
    }
    memcpy(g->state, game->state, game->state_size);
    memcpy(g->params, game->params, sizeof g->params);
    *out = g;
    return SBX_OK;
}

void sbx_game_free(sbx_game *game) {
    if (game == NULL) return;
    free(game->state);
    free(game->cfg);
    free(game);
}

int sbx_game_copy_state(sbx_game *dst, const sbx_game *src) {
    if (!dst || !src) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    if (dst->vt != src->vt || dst->state_size != src->state_size ||
        memcmp(dst->cfg, src->cfg, dst->vt->cfg_size) != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "games differ in kind or parameters");
    }
    memcpy(dst->state, src->state, src->state_size);
    return SBX_OK;
}

const char *sbx_game_kind(const sbx_game *game) {
    return game ? game->vt->name : "";
}

const char *sbx_game_params(const sbx_game *game) {
    return game ? game->params : "";
}

int sbx_game_num_agents(const sbx_game *game) {
    return game ? game->vt->num_agents(game->cfg) : 0;
}

int sbx_game_turn(const sbx_game *game) {
    return game ? game->vt->turn(game->state) : 0;
}

static int check_agent(const sbx_game *game, int agent) {
    if (game == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    int n = game->vt->num_agents(game->cfg);
    if (agent < 0 || agent >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "agent %d out of range 0..%d", agent,
                        n - 1);
    }
    return SBX_OK;
}

int sbx_game_legal_moves(const sbx_game *game, int agent, int32_t *out,
                         int cap, int *n_out) {
    int rc = check_agent(game, agent);
    if (rc) return rc;
    if (n_out == NULL || (out == NULL && cap > 0) || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "bad output buffer");
    }
    uint8_t moves[SBX_MAX_MOVES];
    int n = game->vt->legal_moves(game->cfg, game->state, agent, moves);
    if (n > cap) {
        return sbx_fail(SBX_ERR_ARGUMENT, "buffer holds %d moves, %d needed",
                        cap, n);
    }
    for (int i = 0; i < n; i++) out[i] = moves[i];
    *n_out = n;
    return SBX_OK;
}

int sbx_game_check_joint(const sbx_game_vt *vt, const void *cfg,
                         const void *state, const int32_t *joint,
                         uint8_t *joint8_out) {
    if (joint == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "joint moves is NULL");
    int n = vt->num_agents(cfg);
    for (int a = 0; a < n; a++) {
        uint8_t moves[SBX_MAX_MOVES];
        int k = vt->legal_moves(cfg, state, a, moves);
        if (k == 0) {
            joint8_out[a] = SBX_MOVE_NONE;
            continue;
        }
        int ok = 0;
        for (int i = 0; i < k; i++) ok |= (joint[a] == (int32_t)moves[i]);
        if (!ok) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "agent %d: move %d is not legal in this state", a,
                            (int)joint[a]);
        }
        joint8_out[a] = (uint8_t)joint[a];
    }
    return SBX_OK;
}

int sbx_game_step(sbx_game *game, const int32_t *joint_moves,
                  double *rewards_out) {
    if (game == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    if (game->vt->is_terminal(game->cfg, game->state)) {
        return sbx_fail(SBX_ERR_STATE, "the game is over (terminal state)");
    }
    uint8_t joint[SBX_MAX_AGENTS];
    int rc = sbx_game_check_joint(game->vt, game->cfg, game->state,
                                  joint_moves, joint);
    if (rc) return rc;
    game->vt->step(game->cfg, game->state, joint, rewards_out);
    return SBX_OK;
}


int sbx_game_step_free(sbx_game *game, const sbx_free_move *moves,
                       double *rewards_out) {
    if (game == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    if (moves == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "free moves is NULL");
    if (game->vt->step_free == NULL) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' has no free moves (only its move "
                        "table)", game->vt->name);
    }
    if (game->vt->is_terminal(game->cfg, game->state)) {
        return sbx_fail(SBX_ERR_STATE, "the game is over (terminal state)");
    }
    const int n = game->vt->num_agents(game->cfg);
    sbx_free_move checked[SBX_MAX_AGENTS];
    for (int a = 0; a < n; a++) {
        checked[a] = moves[a];
        const int32_t kind = moves[a].kind;
        if (kind < SBX_FREE_TABLE || kind > SBX_FREE_SHIELD) {
            return sbx_fail(SBX_ERR_ARGUMENT, "agent %d: free move kind %d is not one of "
                            "0 (table), 1 (thrust), 2 (boost), 3 (shield)", a, (int)kind);
        }
        uint8_t legal[SBX_MAX_MOVES];
        const int k = game->vt->legal_moves(game->cfg, game->state, a, legal);
        if (k == 0) {               /* out of the game: whatever it says is ignored */
            checked[a].kind = SBX_FREE_TABLE;
            checked[a].move = SBX_MOVE_NONE;
            continue;
        }
        if (kind == SBX_FREE_TABLE) {
            int ok = 0;
            for (int i = 0; i < k; i++) ok |= moves[a].move == (int32_t)legal[i];
            if (!ok) {
                return sbx_fail(SBX_ERR_ARGUMENT, "agent %d: move %d is not legal in this "
                                "state", a, (int)moves[a].move);
            }
        }
    }
    return game->vt->step_free(game->cfg, game->state, checked, rewards_out);
}

int sbx_game_is_terminal(const sbx_game *game) {
    return game ? game->vt->is_terminal(game->cfg, game->state) : 1;
}

int sbx_game_is_alive(const sbx_game *game, int agent) {
    if (check_agent(game, agent)) return 0;
    return game->vt->is_alive(game->cfg, game->state, agent);
}

int sbx_game_evaluate(const sbx_game *game, double *scores_out) {
    if (!game || !scores_out) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    game->vt->evaluate(game->cfg, game->state, scores_out);
    return SBX_OK;
}

int sbx_game_ranking(const sbx_game *game, int32_t *rank_out) {
    if (!game || !rank_out) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    game->vt->ranking(game->cfg, game->state, rank_out);
    return SBX_OK;
}

uint64_t sbx_game_hash(const sbx_game *game) {
    return game ? game->vt->hash(game->cfg, game->state) : 0;
}

int sbx_game_export(const sbx_game *game, int32_t *buf, int cap,
                    int *len_out) {
    if (!game || !buf || !len_out || cap < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument or negative capacity");
    }
    int n = game->vt->export_state(game->cfg, game->state, buf, cap);
    if (n < 0) return n;
    *len_out = n;
    return SBX_OK;
}

int sbx_game_import(sbx_game *game, const int32_t *buf, int len) {
    if (!game || (!buf && len > 0) || len < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "NULL buffer or negative length");
    }
    return game->vt->import_state(game->cfg, game->state, buf, len);
}

const char *sbx_game_move_name(const sbx_game *game, int agent, int move) {
    if (game == NULL) return "?";
    int n = game->vt->num_agents(game->cfg);
    if (agent < 0 || agent >= n) return "?";
    return game->vt->move_name(game->cfg, agent, move);
}


int sbx_game_bot_move(const sbx_game *game, int agent, int32_t *move_out) {
    if (!game || !move_out) return sbx_fail(SBX_ERR_ARGUMENT, "game or move_out is NULL");
    const int n = game->vt->num_agents(game->cfg);
    if (agent < 0 || agent >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "agent %d out of range 0..%d", agent, n - 1);
    }
    if (!game->vt->bot_move) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' has no bot", game->vt->name);
    }
    if (game->vt->is_terminal(game->cfg, game->state) ||
        !game->vt->is_alive(game->cfg, game->state, agent)) {
        *move_out = SBX_MOVE_NONE;
        return SBX_OK;
    }
    *move_out = game->vt->bot_move(game->cfg, game->state, agent);
    return SBX_OK;
}

int sbx_game_fatal_moves(const sbx_game *game, int agent, uint32_t *mask_out) {
    if (!game || !mask_out) return sbx_fail(SBX_ERR_ARGUMENT, "game or mask_out is NULL");
    const int n = game->vt->num_agents(game->cfg);
    if (agent < 0 || agent >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "agent %d out of range 0..%d", agent, n - 1);
    }
    *mask_out = 0;
    if (game->vt->fatal_moves && !game->vt->is_terminal(game->cfg, game->state) &&
        game->vt->is_alive(game->cfg, game->state, agent)) {
        *mask_out = game->vt->fatal_moves(game->cfg, game->state, agent);
    }
    return SBX_OK;
}

int sbx_game_reseed(sbx_game *game, uint64_t seed) {
    if (!game) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    game->vt->reseed(game->state, seed);
    return SBX_OK;
}

int sbx_game_hidden_info(const sbx_game *game) {
    if (!game) return 0;
    return game->vt->hidden_info != NULL && game->vt->hidden_info(game->cfg);
}

int sbx_game_determinize(sbx_game *game, int seat, uint64_t seed) {
    if (!game) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    const int n = game->vt->num_agents(game->cfg);
    if (seat < 0 || seat >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "seat %d out of range 0..%d", seat, n - 1);
    }
    if (!sbx_game_hidden_info(game) || !game->vt->determinize) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' (%s) hides nothing: there is "
                        "nothing to determinize", game->vt->name, game->params);
    }
    uint64_t rng = seed;
    return game->vt->determinize(game->cfg, game->state, seat, &rng, game->state);
}

/* ------------------------------------------------------------ features */

int sbx_game_vt_layout(const sbx_game_vt *vt, const void *cfg, sbx_features_layout *out) {
    memset(out, 0, sizeof *out);
    if (!vt->feature_layout || !vt->features) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' has no features (no network can "
                        "read it yet)", vt->name);
    }
    int rc = vt->feature_layout(cfg, out);
    if (rc != SBX_OK) return rc;
    out->players = vt->num_agents(cfg);
    out->moves = vt->max_moves(cfg);
    return SBX_OK;
}

int sbx_game_features_layout(const sbx_game *game, sbx_features_layout *out) {
    if (!game || !out) return sbx_fail(SBX_ERR_ARGUMENT, "game or out is NULL");
    return sbx_game_vt_layout(game->vt, game->cfg, out);
}

int sbx_game_features(const sbx_game *game, int view, float *out, int cap) {
    if (!game) return sbx_fail(SBX_ERR_ARGUMENT, "game is NULL");
    sbx_features_layout lay;
    int rc = sbx_game_vt_layout(game->vt, game->cfg, &lay);
    if (rc) return rc;
    if (view != SBX_VIEW_CANONICAL && (view < 0 || view >= lay.players)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "view %d is not -1 (canonical) or an agent "
                        "0..%d", view, lay.players - 1);
    }
    if (!out || cap < lay.size) {
        return sbx_fail(SBX_ERR_ARGUMENT, "the features need %d floats (room for %d)",
                        lay.size, out ? cap : 0);
    }
    game->vt->features(game->cfg, game->state, view, out);
    return SBX_OK;
}

int sbx_game_private_slot(const sbx_game *game, uint32_t id, int32_t *slot_out) {
    if (!game || !slot_out) return sbx_fail(SBX_ERR_ARGUMENT, "game or slot_out is NULL");
    sbx_features_layout lay;
    int rc = sbx_game_vt_layout(game->vt, game->cfg, &lay);
    if (rc) return rc;
    if (lay.slots == 0 || !game->vt->private_slot) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' (%s) has no private states to place "
                        "in slots", game->vt->name, game->params);
    }
    const int slot = game->vt->private_slot(game->cfg, game->state, id);
    if (slot < 0 || slot >= lay.slots) {
        return sbx_fail(SBX_ERR_ARGUMENT, "private state 0x%x cannot be held in this "
                        "public state", (unsigned)id);
    }
    *slot_out = slot;
    return SBX_OK;
}

int sbx_game_private_state(const sbx_game *game, int seat, uint32_t *id_out) {
    if (!game || !id_out) return sbx_fail(SBX_ERR_ARGUMENT, "game or id_out is NULL");
    const int n = game->vt->num_agents(game->cfg);
    if (seat < 0 || seat >= n) {
        return sbx_fail(SBX_ERR_ARGUMENT, "seat %d out of range 0..%d", seat, n - 1);
    }
    if (!sbx_game_hidden_info(game) || !game->vt->private_states) {
        return sbx_fail(SBX_ERR_STATE, "the game '%s' (%s) has no private states",
                        game->vt->name, game->params);
    }
    double weight;
    const int k = game->vt->private_states(game->cfg, game->state, seat, seat, id_out,
                                           &weight, 1);
    return k < 0 ? k : SBX_OK;
}

static int64_t random_playout(const sbx_game_vt *vt, const void *cfg,
                              void *state, int64_t max_steps, uint64_t *rng) {
    int n = vt->num_agents(cfg);
    uint8_t joint[SBX_MAX_AGENTS], moves[SBX_MAX_MOVES];
    int64_t steps = 0;
    while (steps < max_steps && !vt->is_terminal(cfg, state)) {
        for (int a = 0; a < n; a++) {
            int k = vt->legal_moves(cfg, state, a, moves);
            joint[a] = k ? moves[sbx_rng_below(rng, (uint32_t)k)] : SBX_MOVE_NONE;
        }
        vt->step(cfg, state, joint, NULL);
        steps++;
    }
    return steps;
}

int sbx_game_playout(sbx_game *game, int64_t max_steps, uint64_t seed,
                     int64_t *steps_out) {
    if (!game || !steps_out || max_steps < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument or negative max_steps");
    }
    uint64_t rng = seed;
    *steps_out = random_playout(game->vt, game->cfg, game->state, max_steps, &rng);
    return SBX_OK;
}

int sbx_game_playouts(sbx_game *game, int64_t n_playouts, int64_t max_steps,
                      uint64_t seed, int64_t *steps_out) {
    if (!game || !steps_out || max_steps < 0 || n_playouts < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument or negative count");
    }
    void *work = malloc(game->state_size);
    if (!work) return sbx_fail(SBX_ERR_MEMORY, "out of memory for a playout");
    uint64_t rng = seed;
    int64_t total = 0;
    for (int64_t i = 0; i < n_playouts; i++) {
        memcpy(work, game->state, game->state_size);
        game->vt->reseed(work, sbx_rng_next(&rng));
        total += random_playout(game->vt, game->cfg, work, max_steps, &rng);
    }
    free(work);
    *steps_out = total;
    return SBX_OK;
}

