/*
 * snakebyte.h — internal: the `snakebyte` ruleset of the `snakes` game
 * (docs/games.md, SnakeByte), implemented in snakebyte.c and reached only through
 * snakes.c, which dispatches on the `ruleset` parameter and calls the
 * ruleset through the table sbx_snakebyte_ruleset (snakes_ruleset.h). What
 * snakes.c needs besides the table is compile-time only: the config's type
 * (its size: one config blob holds either ruleset's) and the parameter doc.
 *
 * Why a file of its own: the ruleset shares the game's name, its move ids
 * and its parameter string with `standard`, but not one line of its state
 * or its turn (gravity, teams, apples that never come back, losses, cells
 * off the grid), so the two rulesets are two readable files behind one
 * vtable rather than one file full of `if (snakebyte)`.
 *
 * Both configs start with `int ruleset` and both states with
 * `uint64_t rng; int32_t turn;` so snakes.c can tell them apart and answer
 * reseed()/turn(), which get no config, for either (snakes_ruleset.h).
 */
#ifndef SBX_SNAKEBYTE_H
#define SBX_SNAKEBYTE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "snakes_ruleset.h"

#define SB_MAX_W 48
#define SB_MAX_H 24
#define SB_MAX_CELLS (SB_MAX_W * SB_MAX_H)
#define SB_BB_WORDS (SB_MAX_CELLS / 64)
/* Apples bound a snake's length (3 + every apple), so a state's size. */
#define SB_MAX_APPLES 60
#define SB_MAX_PER_PLAYER 4

typedef struct sb_cfg {
    int ruleset;          /* SNAKES_RULESET_SNAKEBYTE; first, as in snakes_cfg */
    int width, height;    /* the map's; height 0 while parsing: from map_seed */
    int per_player;       /* snakes per player, 2..4 */
    int max_turns;
    int from_rows;        /* 1: a hand-made map (row<y> parameters) */
    int per_player_given; /* parsing: snakes_per_player was set */
    int64_t map_seed;
    double w_length, w_loss, w_apple, w_win;
    /* the map (made at configure) */
    int agents, ncells, napples0, maxlen;
    int8_t start[SBX_MAX_AGENTS][2];   /* head cell of each snake at turn 0 */
    uint8_t wall[SB_MAX_CELLS];
    uint8_t apple0[SB_MAX_CELLS];
    uint8_t rows_seen[SB_MAX_H];       /* parsing only; zero afterwards */
    size_t size;          /* state bytes */
} sb_cfg;

/* Appended to the snakes game's parameter doc. */
#define SB_PARAMS_DOC_TEXT \
    "ruleset=snakebyte         docs/games.md, SnakeByte: gravity, 2 teams, y grows downward\n" \
    "  map_seed=1              0..2^62, the map generator's seed\n" \
    "  height=0                10..24 (0: drawn from map_seed); width = 1.8 x\n" \
    "                          height rounded up to even\n" \
    "  snakes_per_player=2     2..4 (agents: 2 x this; agent a is player a/K's)\n" \
    "  max_turns=200           1..100000\n" \
    "  width=W height=H row0=... row<H-1>=...  a hand-made map instead (4..48\n" \
    "                          x 4..24; rows top first; '.' air, '#' wall,\n" \
    "                          '*' apple, 'a'-'d' player 0's heads, 'A'-'D'\n" \
    "                          player 1's; a snake hangs 2 cells below its head)\n" \
    "  w_length=1 w_loss=0.2 w_apple=0.5 w_win=10   evaluation weights, -1000..1000\n" \
    "  Evaluation of every snake of player p against q (team score):\n" \
    "    w_length*(len_p-len_q) - w_loss*(losses_p-losses_q)\n" \
    "    + w_apple*(near_p-near_q) + w_win*(+1 won, -1 lost, 0 else: at the end)\n" \
    "    len: total length of live snakes; near: sum over live snakes of\n" \
    "    1 - d/(W+H), d the head's Manhattan distance to the nearest apple\n"

/* The snakebyte ruleset's entries (snakebyte.c); snakes.c's vtable calls
 * them through this table when the config's ruleset is snakebyte. */
extern const snakes_ruleset sbx_snakebyte_ruleset;

#endif
