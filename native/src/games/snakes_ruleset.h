/*
 * snakes_ruleset.h — internal: the interface between the `snakes` game
 * (snakes.c) and a ruleset kept in a file of its own (today: snakebyte.c).
 *
 * snakes.c owns the game's vtable and the `ruleset=` parameter; for a
 * ruleset other than `standard` it calls that ruleset through the table
 * below, which the ruleset's file fills and exports as one constant. The
 * ruleset's file calls nothing in snakes.c and the registry: it sees the
 * game contract (game.h: types; emit.h: the export emitter) and this
 * header, so the dependencies run one way, registry.c -> snakes.c ->
 * snakebyte.c.
 *
 * Every config starts with `int ruleset` and every state with
 * `uint64_t rng; int32_t turn;`, so snakes.c can tell the configs apart
 * (SNAKES_RULESET_*) and answer reseed()/turn(), which get no config, for
 * any ruleset. The entries mean what the same entries of sbx_game_vt mean.
 */
#ifndef SBX_SNAKES_RULESET_H
#define SBX_SNAKES_RULESET_H

#include <stddef.h>
#include <stdint.h>

#define SNAKES_RULESET_STANDARD 0
#define SNAKES_RULESET_SNAKEBYTE 1

typedef struct snakes_ruleset {
    const char *name;   /* the value of `ruleset=` */
    int (*configure)(void *cfg, const char *params);
    void (*describe)(const void *cfg, char *buf, size_t cap);
    size_t (*state_size)(const void *cfg);
    int (*num_agents)(const void *cfg);
    int (*init)(const void *cfg, void *state, uint64_t seed);
    int (*legal_moves)(const void *cfg, const void *state, int agent, uint8_t *out);
    void (*step)(const void *cfg, void *state, const uint8_t *joint, double *rewards);
    int (*is_terminal)(const void *cfg, const void *state);
    int (*is_alive)(const void *cfg, const void *state, int agent);
    uint32_t (*alive_mask)(const void *cfg, const void *state);
    void (*evaluate)(const void *cfg, const void *state, double *scores);
    void (*ranking)(const void *cfg, const void *state, int32_t *rank);
    int (*side)(const void *cfg, int agent);
    uint64_t (*hash)(const void *cfg, const void *state);
    int (*export_state)(const void *cfg, const void *state, int32_t *buf, int cap);
    int (*import_state)(const void *cfg, void *state, const int32_t *buf, int len);
    const char *(*move_name)(const void *cfg, int agent, int move);
} snakes_ruleset;

#endif
