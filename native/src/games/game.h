/*
 * game.h — the contract between games and search algorithms.
 *
 * A game is a small vtable over two plain blobs:
 *   cfg   — immutable parameters (parsed once, copied by value, cfg_size);
 *   state — a fixed-size plain struct whose size depends only on cfg, so a
 *           clone is one memcpy of state_size bytes.
 * Algorithms see only this interface. The hot-path entries (legal_moves,
 * step, is_alive, is_terminal, evaluate) do no validation; the public API in
 * game.c checks every argument before calling them.
 *
 * Registering a game: implement a vtable in its own file and add it to the
 * table in registry.c. A game file depends on this contract, emit.h (its
 * export and hash) and core only; registry.c, above the games, names them.
 * game.c, below the games, is the checked API over a game object.
 */
#ifndef SBX_GAME_H
#define SBX_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "emit.h"
#include "sbx.h"

typedef struct sbx_game_vt {
    const char *name;
    const char *params_doc;
    size_t cfg_size;

    /* Fill cfg with defaults, then apply params (may be NULL). On failure
     * call sbx_fail with a message naming the key. */
    int (*configure)(void *cfg, const char *params);
    /* Effective parameters as "key=value ..." into buf. */
    void (*describe)(const void *cfg, char *buf, size_t cap);
    size_t (*state_size)(const void *cfg);
    int (*num_agents)(const void *cfg);
    int (*max_moves)(const void *cfg);
    /* 1 if an alive agent's legal moves are always 0..max_moves-1 and a dead
     * agent has none, so searches may skip legal_moves (snakes, pods). */
    int fixed_moves;

    /* Initial state for a seed (layout, initial chance events). */
    int (*init)(const void *cfg, void *state, uint64_t seed);
    void (*reseed)(void *state, uint64_t seed);
    int (*turn)(const void *state);

    /* Hot path. legal_moves writes move ids, returns the count (0 if dead);
     * out always holds SBX_MAX_MOVES bytes, and a game may write scratch
     * past the count within them (goofspiel stores 8 ids at a time).
     * step takes one move per agent (ignored for dead agents), assumes they
     * are legal, and writes per-agent rewards if rewards != NULL. */
    int (*legal_moves)(const void *cfg, const void *state, int agent,
                       uint8_t *out);
    void (*step)(const void *cfg, void *state, const uint8_t *joint,
                 double *rewards);
    int (*is_terminal)(const void *cfg, const void *state);
    int (*is_alive)(const void *cfg, const void *state, int agent);
    /* Bit a set for every alive agent a (one call instead of n). */
    uint32_t (*alive_mask)(const void *cfg, const void *state);
    void (*evaluate)(const void *cfg, const void *state, double *scores);

    void (*ranking)(const void *cfg, const void *state, int32_t *rank);
    uint64_t (*hash)(const void *cfg, const void *state);
    /* Returns words written, or a negative status (buffer too small). */
    int (*export_state)(const void *cfg, const void *state, int32_t *buf,
                        int cap);
    /* Validates fully; writes state only on success. */
    int (*import_state)(const void *cfg, void *state, const int32_t *buf,
                        int len);
    const char *(*move_name)(const void *cfg, int agent, int move);

    /* Optional (NULL: none). A heuristic score per legal move of agent,
     * higher = better, in legal_moves' order; returns the count written
     * (legal_moves' count). MCGS's priors=heuristic turns them into PUCT
     * priors (softmax over score / prior_temperature) and refuses a game
     * without them. Not on the hot path of the tree searches. */
    int (*move_scores)(const void *cfg, const void *state, int agent,
                       double *out);
    /* Optional (NULL: the game has none): the move of the game's own
     * heuristic bot for an alive agent (sbx_game_bot_move). */
    int (*bot_move)(const void *cfg, const void *state, int agent);
    /* Optional (NULL: every agent is its own side): the side (player, team)
     * agent plays for, 0..agents-1; agents of one side win or lose
     * together. A search that scores by win/loss (uct.c) compares sides,
     * not agents, so team mates are not each other's opponents. */
    int (*side)(const void *cfg, int agent);
    /* Optional (NULL: none known): the moves of an alive agent that lose
     * it the game this turn whatever the other agents play, as a mask over
     * move ids (bit m: move m); a game may leave out a case it cannot tell
     * cheaply, never add one that can survive. Searches with safe_moves
     * skip them in selection, random picks and rollouts while some move is
     * not fatal (snakes: walls, bodies that stay, starving). Hot path. */
    uint32_t (*fatal_moves)(const void *cfg, const void *state, int agent);
    /* Optional (NULL: the game has no free moves): one turn from free moves
     * (sbx_free_move, one per agent; game.c has checked the kinds and the
     * table moves). Validates the free fields itself (their ranges are the
     * game's) before changing anything: on a refusal the state is
     * unchanged and the return is a status from sbx_fail. */
    int (*step_free)(const void *cfg, void *state, const sbx_free_move *moves,
                     double *rewards);
    /* Optional (NULL: perfect information; also a NULL return of 0): 1 if
     * this configuration keeps information from some seats (goofspiel's
     * imp_info: the bids). Searches then refuse the game unless they run
     * determinized (search.c check_fits, docs/algorithms.md). */
    int (*hidden_info)(const void *cfg);
    /* Optional, required when hidden_info says 1: writes to out (which may
     * be state itself) a full state drawn from the states seat cannot tell
     * from `state` -- its own private information and the public record
     * kept, everyone else's hidden information resampled consistently
     * with them, using only *rng for randomness. It must read only what
     * seat may see, so two states of one information set give the same
     * samples for the same rng. SBX_OK, or a status from sbx_fail. */
    int (*determinize)(const void *cfg, const void *state, int seat,
                       uint64_t *rng, void *out);
    /* Optional, all three or none (NULL: the game offers no public-state
     * view, and public-state searches refuse it; pubcfr.c). A state split
     * into the public state -- what every seat sees -- and one private
     * state per seat, named by a 32-bit id the game chooses (goofspiel:
     * the mask of the cards still in the hand). None reads anything the
     * seat it is asked for may not see.
     *
     * public_key: a hash of the public part of state alone; two states
     *   every seat sees alike have the same key, two that some seat can
     *   tell apart by public information differ.
     * private_states: reading only what `seat` may see in `state`, the
     *   private states `who` may hold, at most cap of them, into ids, and
     *   with each the number of who's own histories consistent with seat's
     *   view that end in it into weights (who == seat: its own one, weight
     *   1). Returns the count, or a negative status from sbx_fail: more
     *   than cap (the message names the count and the cap), or a state the
     *   game cannot split (one whose next step draws chance).
     * compose: out (may be state) = the public part of state with seat
     *   a's private state set to ids[a] for every seat and every other
     *   hidden record cleared: a state to step, list moves of and
     *   evaluate, not to export. SBX_OK, or a status from sbx_fail for an
     *   id that does not fit the public state. */
    uint64_t (*public_key)(const void *cfg, const void *state);
    int (*private_states)(const void *cfg, const void *state, int seat, int who,
                          uint32_t *ids, double *weights, int cap);
    int (*compose)(const void *cfg, const void *state, const uint32_t *ids, void *out);
    /* Optional (NULL: plain C only): which vector path the game's hot loop
     * takes in this process, decided once, e.g. "territory: avx2" (snakes);
     * sbx_simd_paths reports it after the game's name. Any thread. */
    const char *(*simd_path)(void);
    /* Optional, both or neither (NULL: the game has no features; sbx.h
     * section 1 documents each game's layout). A network's input.
     * feature_layout: the sizes for cfg (players and moves filled by
     *   game.c), or a status from sbx_fail if this configuration has none.
     * features: writes layout.size floats for state in view's player order
     *   (SBX_VIEW_CANONICAL, or an agent first); public information only.
     * Not on the hot path of today's searches; a search that evaluates a
     * net calls features once per leaf it evaluates. */
    int (*feature_layout)(const void *cfg, sbx_features_layout *out);
    void (*features)(const void *cfg, const void *state, int view, float *out);
    /* Optional, required when feature_layout gives slots > 0: the slot of
     * private state id in the public state of `state` (0..slots-1), or -1
     * if no seat can hold id there. */
    int (*private_slot)(const void *cfg, const void *state, uint32_t id);
} sbx_game_vt;

struct sbx_game {
    const sbx_game_vt *vt;
    void *cfg;
    void *state;
    size_t state_size;
    /* Effective parameters (describe). Large enough for the longest game
     * description: a 16x16 general-sum matrix table spelled out in full. */
    char params[16384];
};

/* A new game of the kind vt names (registry.c's sbx_game_new finds vt by
 * name): configured from params, in its initial state for seed. */
int sbx_game_make(const sbx_game_vt *vt, const char *params, uint64_t seed,
                  sbx_game **out);

/* The features layout of a configuration, players and moves included
 * (SBX_ERR_STATE with a message for a game without features). Shared by
 * game.c and the network code. */
int sbx_game_vt_layout(const sbx_game_vt *vt, const void *cfg, sbx_features_layout *out);

/* Shared by game.c and the search: is every live agent's move legal? */
int sbx_game_check_joint(const sbx_game_vt *vt, const void *cfg,
                         const void *state, const int32_t *joint,
                         uint8_t *joint8_out);

#endif
