/*
 * snakes.c — the `snakes` game: Battlesnake's official rulesets (standard,
 * solo, royale, constrictor, wrapped, wrapped_constrictor; docs/games.md, Snakes), in
 * the official engine's order of stages. The official maps (start positions,
 * food and hazards each turn) live in snakes_maps.c; both share
 * snakes_std.h.
 *
 * State storage (one contiguous blob; clone = memcpy of state_size bytes):
 *
 *   +------------------------+  snakes_state: rng, turn, counters,
 *   | header                 |  one `snake` record per agent (fixed 8),
 *   |                        |  body_bb: bitboard of cells holding a body
 *   +------------------------+
 *   | cells[ncells]  uint8   |  bit 7: food; bits 0-6: number of NON-head
 *   |                        |  segments of live snakes on the cell
 *   +------------------------+
 *   | hz[ncells]     uint8   |  hazard layers per cell (only in games whose
 *   |                        |  ruleset or map has hazards; else 0 bytes)
 *   +------------------------+
 *   | food[ncells]   uint16  |  list of food cells (order: insertion)
 *   +------------------------+
 *   | ring[snakes][ring_cap] |  body cells per snake, a ring buffer indexed
 *   |                uint16  |  from `head`; ring_cap is a power of two
 *   +------------------------+
 *
 * Counting only non-head segments in `cells` makes the two collision rules
 * one test: a head on a cell with a non-zero count hit a body (its own or
 * another's); head-to-head is decided by comparing the (at most 8) heads.
 * body_bb mirrors "count != 0" as bits so the evaluation's territory flood
 * fill runs on whole 64-cell words (see territory()).
 *
 * The ruleset `snakebyte` (docs/games.md, SnakeByte) lives in snakebyte.c: every entry
 * of the vtable below calls it through its table (SB, snakes_ruleset.h)
 * when the config says so (IS_SB).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"
#include "snakebyte.h"
#include "snakes_std.h"

static void territory_path_decide(void);
static pthread_once_t territory_once = PTHREAD_ONCE_INIT;

static const int DX[4] = {0, 0, -1, 1};
static const int DY[4] = {1, -1, 0, 0};
static const char *const MOVE_NAMES[4] = {"up", "down", "left", "right"};


/* ------------------------------------------------------------ parameters */

static const char PARAMS_DOC[] =
    "ruleset=standard          standard, solo, royale, constrictor, wrapped,\n"
    "                          wrapped_constrictor (Battlesnake) or snakebyte\n"
    "map=standard              a Battlesnake map: standard, empty, royale,\n"
    "                          arcade_maze, healing_pools, sinkholes, hz_columns,\n"
    "                          hz_castle_wall(_lg,_xl), hz_expand_box,\n"
    "                          hz_expand_scatter, hz_grow_box, hz_hazard_pits,\n"
    "                          hz_inner_wall, hz_islands_bridges(_lg), hz_rings,\n"
    "                          hz_rivers_bridges(_lg,_xl), hz_scatter, hz_spiral,\n"
    "                          snail_mode\n"
    "width=11 height=11        board size, 5..25\n"
    "snakes=4                  1..8\n"
    "food_spawn_chance=15      a food spawns with (chance - 1) percent, 0..100\n"
    "minimum_food=1            food kept on the board, 0..100\n"
    "initial_food=1            1: the map's start food; 0: none\n"
    "hazard_damage=14          health a hazard layer takes a turn, -1000..1000\n"
    "shrink_every=25           turns between hazard changes (royale, ...), 1..1000\n"
    "max_turns=0               turn limit, 0 = none, 0..100000\n"
    "max_health=100            1..1000\n"
    "w_alive=1 w_dead=-1 w_outlived=0.5 w_length=0.01 w_health=0.1\n"
    "w_food=0.3 w_space=0.5    evaluation weights, each -1000..1000\n"
    "Evaluation of snake i (the search's leaf score):\n"
    "  alive: w_alive + w_length*length + w_health*health/max_health\n"
    "         + w_outlived*(other snakes dead)\n"
    "         + w_food*(1-health/max_health)*(1-d/(width+height))  [d: nearest food]\n"
    "         + w_space*(cells it reaches first)/(width*height)\n"
    "  dead:  w_dead + w_outlived*(other snakes that died on an earlier turn)\n"
    "  (wrapped rulesets measure d and reach across the edges)\n"
    SB_PARAMS_DOC_TEXT;

static const char *const MODE_NAMES[MODE_COUNT] = {
    "standard", "solo", "royale", "constrictor", "wrapped", "wrapped_constrictor"};

/* One config blob holds either ruleset's; both start with `ruleset`. */
typedef union snakes_any_cfg {
    snakes_cfg standard;
    sb_cfg snakebyte;
} snakes_any_cfg;

#define IS_SB(cfg) (*(const int *)(cfg) == SNAKES_RULESET_SNAKEBYTE)
/* The other ruleset, behind its interface. */
#define SB (&sbx_snakebyte_ruleset)

static int find_ruleset(void *ctx, const char *key, const char *value) {
    if (strcmp(key, "ruleset") != 0) return SBX_OK;
    if (strcmp(value, "snakebyte") == 0) {
        *(int *)ctx = SNAKES_RULESET_SNAKEBYTE;
        return SBX_OK;
    }
    for (int m = 0; m < MODE_COUNT; m++) {
        if (strcmp(value, MODE_NAMES[m]) == 0) {
            *(int *)ctx = SNAKES_RULESET_STANDARD;
            return SBX_OK;
        }
    }
    return sbx_fail(SBX_ERR_ARGUMENT,
                    "ruleset: '%s' is not available (have: standard, solo, royale, "
                    "constrictor, wrapped, wrapped_constrictor, snakebyte)", value);
}

static int set_param(void *ctx, const char *key, const char *value) {
    snakes_cfg *c = ctx;
    struct {
        const char *name;
        int *ip;
        double *dp;
        long lo, hi;
    } table[] = {
        {"width", &c->width, NULL, 5, MAX_SIDE},
        {"height", &c->height, NULL, 5, MAX_SIDE},
        {"snakes", &c->snakes, NULL, 1, SBX_MAX_AGENTS},
        {"food_spawn_chance", &c->food_spawn_chance, NULL, 0, 100},
        {"minimum_food", &c->minimum_food, NULL, 0, 100},
        {"initial_food", &c->initial_food, NULL, 0, 1},
        {"max_turns", &c->max_turns, NULL, 0, 100000},
        {"max_health", &c->max_health, NULL, 1, 1000},
        {"hazard_damage", &c->hazard_damage, NULL, -1000, 1000},
        {"shrink_every", &c->shrink_every, NULL, 1, 1000},
        {"w_alive", NULL, &c->w_alive, -1000, 1000},
        {"w_dead", NULL, &c->w_dead, -1000, 1000},
        {"w_outlived", NULL, &c->w_outlived, -1000, 1000},
        {"w_length", NULL, &c->w_length, -1000, 1000},
        {"w_health", NULL, &c->w_health, -1000, 1000},
        {"w_food", NULL, &c->w_food, -1000, 1000},
        {"w_space", NULL, &c->w_space, -1000, 1000},
    };
    if (strcmp(key, "ruleset") == 0) {
        for (int m = 0; m < MODE_COUNT; m++) {
            if (strcmp(value, MODE_NAMES[m]) == 0) {
                c->mode = m;
                return SBX_OK;
            }
        }
        return sbx_fail(SBX_ERR_ARGUMENT, "ruleset: '%s' is not available", value);
    }
    if (strcmp(key, "map") == 0) {
        for (int m = 0; m < MAP_COUNT; m++) {
            if (strcmp(value, snakes_map_names[m]) == 0) {
                c->map = m;
                return SBX_OK;
            }
        }
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "map: '%s' is not a Battlesnake map we model (have: standard, "
                        "empty, royale, arcade_maze, healing_pools, sinkholes and the "
                        "hz_* maps, snail_mode; not solo_maze)",
                        value);
    }
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(key, table[i].name) != 0) continue;
        if (table[i].ip) {
            return sbx_kv_int(key, value, table[i].lo, table[i].hi, table[i].ip);
        }
        return sbx_kv_double(key, value, (double)table[i].lo,
                             (double)table[i].hi, table[i].dp);
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown snakes parameter '%s'", key);
}

static int snakes_configure(void *cfgv, const char *params) {
    memset(cfgv, 0, sizeof(snakes_any_cfg)); /* padding too: compared bytewise */
    int ruleset = SNAKES_RULESET_STANDARD;
    int rc = sbx_parse_kv(params, find_ruleset, &ruleset);
    if (rc != SBX_OK) return rc;
    if (ruleset == SNAKES_RULESET_SNAKEBYTE) return SB->configure(cfgv, params);
    snakes_cfg *c = cfgv;
    c->width = 11;
    c->height = 11;
    c->snakes = 4;
    c->food_spawn_chance = 15;
    c->minimum_food = 1;
    c->initial_food = 1;
    c->max_turns = 0;
    c->max_health = 100;
    c->mode = MODE_STANDARD;
    c->map = MAP_STANDARD;
    c->hazard_damage = 14;   /* the official command line's defaults */
    c->shrink_every = 25;
    c->w_alive = 1.0;
    c->w_dead = -1.0;
    c->w_outlived = 0.5;
    c->w_length = 0.01;
    c->w_health = 0.1;
    c->w_food = 0.3;
    c->w_space = 0.5;
    rc = sbx_parse_kv(params, set_param, c);
    if (rc != SBX_OK) return rc;
    c->wrapped = c->mode == MODE_WRAPPED || c->mode == MODE_WRAPPED_CONSTRICTOR;
    c->constrictor = c->mode == MODE_CONSTRICTOR || c->mode == MODE_WRAPPED_CONSTRICTOR;
    c->solo_end = c->mode == MODE_SOLO || c->snakes < 2;
    c->shrinks = c->mode == MODE_ROYALE || c->map == MAP_ROYALE;
    c->has_hazards = c->shrinks || snakes_map_has_hazards(c->map);
    if (c->mode == MODE_ROYALE && c->map != MAP_STANDARD && c->map != MAP_EMPTY &&
        c->map != MAP_ROYALE) {
        /* the royale ruleset wipes the hazards every turn: a hazard map's
         * own would last one turn each (not modelled) */
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "map: '%s' with ruleset royale is not modelled (royale plays on "
                        "the standard, empty or royale map)", snakes_map_names[c->map]);
    }
    rc = snakes_map_check(c);
    if (rc != SBX_OK) return rc;
    c->ncells = c->width * c->height;
    c->bb_words = (c->ncells + 63) / 64;
    for (int cell = 0; cell < c->ncells; cell++) {
        uint64_t bit = 1ULL << (cell & 63);
        int x = cell % c->width;
        c->bb_board[cell >> 6] |= bit;
        if (x > 0) c->bb_not_left[cell >> 6] |= bit;
        if (x < c->width - 1) c->bb_not_right[cell >> 6] |= bit;
        if (x == 0) c->bb_left[cell >> 6] |= bit;
        if (x == c->width - 1) c->bb_right[cell >> 6] |= bit;
        if (cell / c->width == 0) c->bb_bottom[cell >> 6] |= bit;
        if (cell / c->width == c->height - 1) c->bb_top[cell >> 6] |= bit;
    }
    c->fits128 = c->bb_words <= 2 && c->width < 64;
    pthread_once(&territory_once, territory_path_decide);
    c->ring_cap = 1;
    while (c->ring_cap < c->ncells + 4) c->ring_cap <<= 1;
    c->off_cells = sizeof(snakes_state);
    c->off_hz = c->off_cells + (size_t)c->ncells;
    c->off_pend = c->off_hz + (c->has_hazards ? (size_t)c->ncells : 0);
    c->off_food = (c->off_pend + (c->map == MAP_SNAIL_MODE ? (size_t)c->ncells : 0) + 1) &
                  ~(size_t)1;
    c->off_ring = c->off_food + (size_t)c->ncells * 2;
    c->size = c->off_ring + (size_t)c->snakes * c->ring_cap * 2;
    c->size = (c->size + 7) & ~(size_t)7;
    return SBX_OK;
}

static void snakes_describe(const void *cfgv, char *buf, size_t cap) {
    const snakes_cfg *c = cfgv;
    snprintf(buf, cap,
             "ruleset=%s map=%s width=%d height=%d snakes=%d "
             "food_spawn_chance=%d minimum_food=%d initial_food=%d "
             "hazard_damage=%d shrink_every=%d "
             "max_turns=%d max_health=%d w_alive=%.17g w_dead=%.17g "
             "w_outlived=%.17g w_length=%.17g w_health=%.17g w_food=%.17g "
             "w_space=%.17g",
             MODE_NAMES[c->mode], snakes_map_names[c->map], c->width, c->height,
             c->snakes, c->food_spawn_chance, c->minimum_food, c->initial_food,
             c->hazard_damage, c->shrink_every, c->max_turns, c->max_health,
             c->w_alive, c->w_dead, c->w_outlived, c->w_length, c->w_health,
             c->w_food, c->w_space);
}

static size_t snakes_state_size(const void *cfgv) {
    return ((const snakes_cfg *)cfgv)->size;
}
static int snakes_num_agents(const void *cfgv) {
    return ((const snakes_cfg *)cfgv)->snakes;
}
static int snakes_max_moves(const void *cfgv) {
    (void)cfgv;
    return 4;
}

/* Food and start placement (food_add, spawning, the standard and fixed
 * layouts) live in snakes_board.c, below both this file and the maps. */
#define food_add snakes_food_add
#define food_remove snakes_food_remove
#define food_clear snakes_food_clear

static int snakes_init(const void *cfgv, void *stv, uint64_t seed) {
    const snakes_cfg *cfg = cfgv;
    snakes_state *st = stv;
    memset(st, 0, cfg->size);
    st->rng = seed;
    snakes_map_setup(cfg, st);
    return SBX_OK;
}

static void snakes_reseed(void *stv, uint64_t seed) {
    ((snakes_state *)stv)->rng = seed;
}
static int snakes_turn(const void *stv) {
    return ((const snakes_state *)stv)->turn;
}

/* ------------------------------------------------------------ step */

static int snakes_legal_moves(const void *cfgv, const void *stv, int agent,
                              uint8_t *out) {
    (void)cfgv;
    const snakes_state *st = stv;
    if (!st->s[agent].alive) return 0;
    out[0] = 0;
    out[1] = 1;
    out[2] = 2;
    out[3] = 3;
    return 4;
}

static int snakes_is_terminal(const void *cfgv, const void *stv) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    if (cfg->max_turns > 0 && st->turn >= cfg->max_turns) return 1;
    return cfg->solo_end ? st->alive_count == 0 : st->alive_count <= 1;
}

static int snakes_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    return ((const snakes_state *)stv)->s[agent].alive;
}

static uint32_t snakes_alive_mask(const void *cfgv, const void *stv) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    uint32_t m = 0;
    for (int i = 0; i < cfg->snakes; i++) m |= (uint32_t)st->s[i].alive << i;
    return m;
}

/* Removes a snake's non-head segments from the board counts. */
static void kill_snake(const snakes_cfg *cfg, snakes_state *st, int i,
                       int cause, int turn) {
    snake *s = &st->s[i];
    uint8_t *cells = CELLS(cfg, st);
    const uint16_t *ring = RING(cfg, st, i);
    unsigned mask = (unsigned)cfg->ring_cap - 1;
    for (unsigned k = 1; k < s->length; k++) body_dec(cells, st, ring[(s->head + k) & mask]);
    s->alive = 0;
    s->cause = (uint8_t)cause;
    s->death_turn = turn;
    st->alive_count--;
}

static int on_own_body(const snakes_cfg *cfg, const snakes_state *st, int i,
                       int cell) {
    const snake *s = &st->s[i];
    const uint16_t *ring = RING(cfg, st, i);
    unsigned mask = (unsigned)cfg->ring_cap - 1;
    for (unsigned k = 1; k < s->length; k++) {
        if (ring[(s->head + k) & mask] == cell) return 1;
    }
    return 0;
}

static void snakes_step(const void *cfgv, void *stv, const uint8_t *joint,
                        double *rewards) {
    const snakes_cfg *cfg = cfgv;
    snakes_state *st = stv;
    const int n = cfg->snakes, W = cfg->width, H = cfg->height;
    const unsigned mask = (unsigned)cfg->ring_cap - 1;
    uint8_t *cells = CELLS(cfg, st);
    uint8_t was_alive[SBX_MAX_AGENTS];
    const int turn = st->turn + 1; /* the turn being produced */

    /* 1. move: new head, last segment removed (its cell frees this turn);
     *    wrapped rulesets bring a head off one edge in at the opposite one */
    for (int i = 0; i < n; i++) {
        snake *s = &st->s[i];
        was_alive[i] = s->alive;
        if (!s->alive) continue;
        uint16_t *ring = RING(cfg, st, i);
        int mv = joint[i] & 3;
        int nx = s->hx + DX[mv], ny = s->hy + DY[mv];
        if (cfg->wrapped) {
            nx = nx < 0 ? W - 1 : nx >= W ? 0 : nx;
            ny = ny < 0 ? H - 1 : ny >= H ? 0 : ny;
        }
        body_inc(cells, st, ring[s->head]);                       /* old head -> body */
        body_dec(cells, st, ring[(s->head + s->length - 1) & mask]); /* tail leaves */
        s->head = (uint16_t)((s->head - 1) & mask);
        int inside = nx >= 0 && ny >= 0 && nx < W && ny < H;
        ring[s->head] = inside ? (uint16_t)(ny * W + nx) : (uint16_t)OFF_BOARD;
        s->hx = (int8_t)nx;
        s->hy = (int8_t)ny;
        /* 2. health */
        s->health--;
    }

    /* 3. hazards, before feeding: a head on a hazard cell without food loses
     *    hazard_damage per layer (a negative damage heals), health kept in
     *    0..max_health; at 0 the snake is out (cause: hazard) and eats nothing */
    if (cfg->has_hazards && st->hazard_cells) {
        const uint8_t *hz = HZ(cfg, st);
        for (int i = 0; i < n; i++) {
            snake *s = &st->s[i];
            if (!s->alive) continue;
            uint16_t c = RING(cfg, st, i)[s->head];
            if (c == OFF_BOARD || !hz[c] || (cells[c] & FOOD_BIT)) continue;
            int h = s->health - (int)hz[c] * cfg->hazard_damage;
            h = h < 0 ? 0 : h > cfg->max_health ? cfg->max_health : h;
            s->health = (int16_t)h;
            if (h <= 0) kill_snake(cfg, st, i, SBX_SNAKES_CAUSE_HAZARD, turn);
        }
    }

    /* 4. feeding, before eliminations: every head on a food eats it */
    int eaten[SBX_MAX_AGENTS], neaten = 0;
    for (int i = 0; i < n; i++) {
        snake *s = &st->s[i];
        if (!s->alive) continue;
        uint16_t *ring = RING(cfg, st, i);
        uint16_t c = ring[s->head];
        if (c == OFF_BOARD || !(cells[c] & FOOD_BIT)) continue;
        s->health = (int16_t)cfg->max_health;
        eaten[neaten++] = c;
        /* The ring holds ring_cap segments. Real play never fills it (length
         * <= ncells + 2 < ring_cap); a heavily stacked imported body could,
         * and then eats without growing rather than overwrite its head. */
        if (s->length >= cfg->ring_cap) continue;
        uint16_t tail = ring[(s->head + s->length - 1) & mask];
        ring[(s->head + s->length) & mask] = tail; /* duplicate last segment */
        s->length++;
        body_inc(cells, st, tail);
    }
    for (int k = 0; k < neaten; k++) {
        if (cells[eaten[k]] & FOOD_BIT) food_remove(cfg, st, eaten[k]);
    }

    /* 5a. out of health, out of bounds: decided together, applied at once */
    int cause[SBX_MAX_AGENTS] = {0};
    for (int i = 0; i < n; i++) {
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        if (s->health <= 0) cause[i] = SBX_SNAKES_CAUSE_STARVED;
        else if (RING(cfg, st, i)[s->head] == OFF_BOARD)
            cause[i] = SBX_SNAKES_CAUSE_OUT_OF_BOUNDS;
    }
    for (int i = 0; i < n; i++) {
        if (cause[i]) kill_snake(cfg, st, i, cause[i], turn);
    }

    /* 5b. collisions among the snakes still alive, applied at once */
    for (int i = 0; i < n; i++) {
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        uint16_t c = RING(cfg, st, i)[s->head];
        if (cells[c] & BODY_MASK) {
            cause[i] = on_own_body(cfg, st, i, c) ? SBX_SNAKES_CAUSE_SELF_COLLISION
                                                   : SBX_SNAKES_CAUSE_BODY_COLLISION;
            continue;
        }
        for (int j = 0; j < n; j++) {
            const snake *o = &st->s[j];
            if (j == i || !o->alive) continue;
            if (o->hx == s->hx && o->hy == s->hy && o->length >= s->length) {
                cause[i] = SBX_SNAKES_CAUSE_HEAD_TO_HEAD;
                break;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (cause[i] && st->s[i].alive) kill_snake(cfg, st, i, cause[i], turn);
    }

    /* 6. constrictor: no food stays, and every snake is at full health and
     *    grows (its tail doubled) unless its tail is doubled already */
    if (cfg->constrictor) {
        food_clear(cfg, st);
        for (int i = 0; i < n; i++) {
            /* the official engine does this to eliminated snakes too: their
             * record changes, they stay off the board */
            snake *s = &st->s[i];
            s->health = (int16_t)cfg->max_health;
            if (s->length < 2 || s->length >= cfg->ring_cap) continue;
            uint16_t *ring = RING(cfg, st, i);
            uint16_t tail = ring[(s->head + s->length - 1) & mask];
            if (ring[(s->head + s->length - 2) & mask] == tail) continue;
            ring[(s->head + s->length) & mask] = tail;
            s->length++;
            if (s->alive) body_inc(cells, st, tail);
        }
    }

    /* 7. the map: royale's safe zone, then the map's food and hazards */
    snakes_map_update(cfg, st, turn);
    st->turn = turn;

    if (rewards) {
        int over = snakes_is_terminal(cfg, st);
        for (int i = 0; i < n; i++) {
            rewards[i] = (was_alive[i] && !st->s[i].alive) ? -1.0
                         : (over && st->s[i].alive)        ? 1.0
                                                           : 0.0;
        }
    }
}

/* ------------------------------------------------------------ fatal moves */

/* Where move m takes snake i's head: its cell, or -1 off the board (a
 * wrapped board brings it in at the opposite edge). */
static int target_cell(const snakes_cfg *cfg, const snake *s, int m) {
    int x = s->hx + DX[m], y = s->hy + DY[m];
    if (cfg->wrapped) {
        x = x < 0 ? cfg->width - 1 : x >= cfg->width ? 0 : x;
        y = y < 0 ? cfg->height - 1 : y >= cfg->height ? 0 : y;
    }
    if (x < 0 || y < 0 || x >= cfg->width || y >= cfg->height) return -1;
    return y * cfg->width + x;
}

/* Whether snake i, moving onto cell c (-1: off the board), is out before
 * collisions are judged: off the board, or its health gone -- one point a
 * turn and, on a hazard without food, hazard_damage per layer (negative
 * heals), food restoring it (steps 1-5a of snakes_step). */
static int out_before_collisions(const snakes_cfg *cfg, const snakes_state *st, const snake *s,
                                 int c) {
    if (c < 0) return 1;
    const uint8_t *cells = CELLS(cfg, st);
    if (cells[c] & FOOD_BIT) return 0;
    int h = s->health - 1;
    if (cfg->has_hazards && st->hazard_cells) {
        const int layers = HZ(cfg, st)[c];
        if (layers) {
            h -= layers * cfg->hazard_damage;
            if (h > cfg->max_health) h = cfg->max_health;
        }
    }
    return h <= 0;
}

/* The moves that lose agent its life this turn whatever the others play
 * (game.h fatal_moves), as a mask over move ids: out before collisions
 * (off the board, starving, a hazard's damage), or onto a cell that still
 * holds a body segment after every tail has moved (a tail doubled by a meal,
 * or by constrictor, stays; every other snake's head becomes its neck). A
 * snake out before collisions whatever it does is removed before they are
 * judged, so its segments do not count. Head-to-head is never certain: the
 * other may turn away. */
static uint32_t snakes_fatal_moves(const snakes_cfg *cfg, const snakes_state *st, int agent) {
    const snake *me = &st->s[agent];
    if (!me->alive) return 0;
    const unsigned mask = (unsigned)cfg->ring_cap - 1;
    const uint8_t *cells = CELLS(cfg, st);
    int gone[SBX_MAX_AGENTS]; /* out before collisions, whatever it plays */
    for (int j = 0; j < cfg->snakes; j++) {
        const snake *o = &st->s[j];
        gone[j] = 0;
        if (j == agent || !o->alive) continue;
        gone[j] = 1;
        for (int m = 0; m < 4 && gone[j]; m++) {
            gone[j] = out_before_collisions(cfg, st, o, target_cell(cfg, o, m));
        }
    }
    uint32_t fatal = 0;
    for (int m = 0; m < 4; m++) {
        const int c = target_cell(cfg, me, m);
        if (out_before_collisions(cfg, st, me, c)) {
            fatal |= 1u << m;
            continue;
        }
        int count = cells[c] & BODY_MASK;
        for (int j = 0; j < cfg->snakes; j++) {
            const snake *o = &st->s[j];
            if (!o->alive) continue;
            const uint16_t *ring = RING(cfg, st, j);
            if (gone[j]) { /* its whole body leaves: every non-head segment on c */
                for (int k = 1; k < o->length; k++) count -= ring[(o->head + k) & mask] == c;
                continue;
            }
            count -= ring[(o->head + o->length - 1) & mask] == c; /* its tail moves on */
            count += j != agent && ring[o->head] == c;           /* its head becomes neck */
        }
        if (count > 0) fatal |= 1u << m;
    }
    return fatal;
}

/* ------------------------------------------------------------ evaluate */

/* Territory: a multi-source breadth-first flood fill from the live heads
 * over cells free of bodies, one level at a time. A cell first reached by
 * exactly one snake is that snake's; a cell reached at the same level by two
 * or more is contested (nobody's, and the fill does not continue through
 * it). Done on bitboards: each level dilates every snake's frontier by one
 * step with word shifts, so a level costs a few instructions per 64 cells. */
static inline void bb_dilate(const snakes_cfg *cfg, const uint64_t *f,
                             uint64_t *out) {
    const int nw = cfg->bb_words, W = cfg->width;
    for (int i = 0; i < nw; i++) {
        uint64_t up = f[i] << W, down = f[i] >> W;
        uint64_t fl = f[i] & cfg->bb_not_left[i], fr = f[i] & cfg->bb_not_right[i];
        uint64_t left = fl >> 1, right = fr << 1;
        if (i > 0) {
            up |= f[i - 1] >> (64 - W);
            right |= (f[i - 1] & cfg->bb_not_right[i - 1]) >> 63;
        }
        if (i + 1 < nw) {
            down |= f[i + 1] << (64 - W);
            left |= (f[i + 1] & cfg->bb_not_left[i + 1]) << 63;
        }
        out[i] = (up | down | left | right) & cfg->bb_board[i];
    }
}

/* Multi-word shifts of a board by k bits (toward higher / lower cells). */
static inline void bb_shl(const uint64_t *f, int k, uint64_t *out, int nw) {
    int w = k >> 6, b = k & 63;
    for (int i = nw - 1; i >= 0; i--) {
        uint64_t v = i - w >= 0 ? f[i - w] << b : 0;
        if (b && i - w - 1 >= 0) v |= f[i - w - 1] >> (64 - b);
        out[i] = v;
    }
}
static inline void bb_shr(const uint64_t *f, int k, uint64_t *out, int nw) {
    int w = k >> 6, b = k & 63;
    for (int i = 0; i < nw; i++) {
        uint64_t v = i + w < nw ? f[i + w] >> b : 0;
        if (b && i + w + 1 < nw) v |= f[i + w + 1] << (64 - b);
        out[i] = v;
    }
}

/* Wrapped boards: a front also reaches across each edge to the opposite one
 * (the top row's up is the bottom row, the left column's left the right). */
static void bb_dilate_wrapped(const snakes_cfg *cfg, const uint64_t *f, uint64_t *out) {
    const int nw = cfg->bb_words, W = cfg->width, across = W * (cfg->height - 1);
    uint64_t edge[BB_WORDS], moved[BB_WORDS];
    bb_dilate(cfg, f, out);
    for (int i = 0; i < nw; i++) edge[i] = f[i] & cfg->bb_top[i];
    bb_shr(edge, across, moved, nw);
    for (int i = 0; i < nw; i++) out[i] |= moved[i];
    for (int i = 0; i < nw; i++) edge[i] = f[i] & cfg->bb_bottom[i];
    bb_shl(edge, across, moved, nw);
    for (int i = 0; i < nw; i++) out[i] |= moved[i];
    for (int i = 0; i < nw; i++) edge[i] = f[i] & cfg->bb_left[i];
    bb_shl(edge, W - 1, moved, nw);
    for (int i = 0; i < nw; i++) out[i] |= moved[i];
    for (int i = 0; i < nw; i++) edge[i] = f[i] & cfg->bb_right[i];
    bb_shr(edge, W - 1, moved, nw);
    for (int i = 0; i < nw; i++) out[i] |= moved[i] & cfg->bb_board[i];
}

/* The same fill on one 128-bit word, for boards of up to 128 cells (the
 * standard 11x11 board): no word loops, shifts carry across by themselves. */
typedef unsigned __int128 u128;

static void territory128(const snakes_cfg *cfg, const snakes_state *st,
                         int *count) {
    const int W = cfg->width;
#define U128(words) ((u128)(words)[0] | ((u128)(words)[1] << 64))
    const u128 board = U128(cfg->bb_board);
    const u128 not_left = U128(cfg->bb_not_left), not_right = U128(cfg->bb_not_right);
    const u128 open = board & ~U128(st->body_bb);
    const u128 left = U128(cfg->bb_left), right = U128(cfg->bb_right);
    const u128 top = U128(cfg->bb_top), bottom = U128(cfg->bb_bottom);
#undef U128
    const int wrapped = cfg->wrapped, across = W * (cfg->height - 1);
    u128 claimed = 0, front[SBX_MAX_AGENTS], grow[SBX_MAX_AGENTS];
    u128 owned[SBX_MAX_AGENTS]; /* the cells each front has taken: the waves
                                   are disjoint, so one count at the end */
    int live[SBX_MAX_AGENTS], nl = 0;
    for (int i = 0; i < cfg->snakes; i++) {
        count[i] = 0;
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        u128 bit = (u128)1 << (s->hy * W + s->hx);
        front[nl] = bit;
        owned[nl] = 0;
        claimed |= bit;
        live[nl++] = i;
    }
    for (;;) {
        u128 once = 0, twice = 0;
        for (int k = 0; k < nl; k++) {
            u128 f = front[k];
            u128 g = (f << W) | (f >> W) | ((f & not_left) >> 1) | ((f & not_right) << 1);
            if (wrapped) {
                g |= ((f & top) >> across) | ((f & bottom) << across) |
                     ((f & left) << (W - 1)) | ((f & right) >> (W - 1));
            }
            g &= open & ~claimed;
            twice |= once & g;
            once |= g;
            grow[k] = g;
        }
        if (!once) break;
        claimed |= once;
        for (int k = 0; k < nl; k++) {
            front[k] = grow[k] & ~twice;
            owned[k] |= front[k];
        }
    }
    for (int k = 0; k < nl; k++) {
        count[live[k]] = sbx_popcount64((uint64_t)owned[k]) +
                         sbx_popcount64((uint64_t)(owned[k] >> 64));
    }
}

/* The same fill again, on AVX2: two snakes' 128-bit boards per 256-bit
 * register, so one level dilates four fronts in about the instructions
 * territory128 spends on one. The fill is most of what an evaluation
 * costs: on the bench headline it took 11.7% of the search's time (the
 * rest of evaluate 2.7%, the engine's own step 19%), 5.3% on AVX2. A
 * shift of a 128-bit lane by n bits is two 64-bit shifts and the bits
 * crossing the middle moved over by a byte shift within the lane. Results are the scalar version's, bit for bit (integer
 * work only); the differential tests run both (SBX_NO_AVX2 in the
 * environment selects the scalar one for the process). Used where the CPU
 * has AVX2 and the board fits territory128. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX2_FN static inline __attribute__((target("avx2"), always_inline))

AVX2_FN __m256i lanes_shl(__m256i f, __m128i n, __m128i rest) {
    return _mm256_or_si256(_mm256_sll_epi64(f, n),
                           _mm256_slli_si256(_mm256_srl_epi64(f, rest), 8));
}
AVX2_FN __m256i lanes_shr(__m256i f, __m128i n, __m128i rest) {
    return _mm256_or_si256(_mm256_srl_epi64(f, n),
                           _mm256_srli_si256(_mm256_sll_epi64(f, rest), 8));
}
AVX2_FN __m256i lanes_swap(__m256i v) { return _mm256_permute2x128_si256(v, v, 1); }

/* nv registers hold up to 2 * nv live snakes (an odd one out pairs with an
 * empty front, which never grows). */
AVX2_FN void territory_avx2_n(const snakes_cfg *cfg, const uint64_t (*heads)[2],
                              const int *live, int nl, int *count, const int nv) {
    const int W = cfg->width;
    const __m128i w = _mm_cvtsi32_si128(W), w_rest = _mm_cvtsi32_si128(64 - W);
    const __m128i one = _mm_cvtsi32_si128(1), one_rest = _mm_cvtsi32_si128(63);
    const __m256i not_left = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)cfg->bb_not_left));
    const __m256i not_right = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)cfg->bb_not_right));
    const __m256i open = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)heads[8]));
    __m256i front[4], grow[4], owned[4], claimed = _mm256_setzero_si256();
    for (int v = 0; v < nv; v++) {
        front[v] = _mm256_loadu_si256((const __m256i *)heads[2 * v]);
        owned[v] = _mm256_setzero_si256();
        claimed = _mm256_or_si256(claimed, front[v]);
    }
    claimed = _mm256_or_si256(claimed, lanes_swap(claimed));
    for (;;) {
        const __m256i avail = _mm256_andnot_si256(claimed, open);
        __m256i once = _mm256_setzero_si256(), twice = _mm256_setzero_si256();
        for (int v = 0; v < nv; v++) {
            const __m256i f = front[v];
            __m256i g = _mm256_or_si256(lanes_shl(f, w, w_rest), lanes_shr(f, w, w_rest));
            g = _mm256_or_si256(g, lanes_shr(_mm256_and_si256(f, not_left), one, one_rest));
            g = _mm256_or_si256(g, lanes_shl(_mm256_and_si256(f, not_right), one, one_rest));
            g = _mm256_and_si256(g, avail);
            twice = _mm256_or_si256(twice, _mm256_and_si256(once, g));
            once = _mm256_or_si256(once, g);
            grow[v] = g;
        }
        /* per lane: reached once / twice within it; across the two lanes,
         * reached by both counts as twice too */
        const __m256i so = lanes_swap(once);
        twice = _mm256_or_si256(_mm256_or_si256(twice, lanes_swap(twice)),
                                _mm256_and_si256(once, so));
        once = _mm256_or_si256(once, so);
        if (_mm256_testz_si256(once, once)) break;
        claimed = _mm256_or_si256(claimed, once);
        for (int v = 0; v < nv; v++) {
            front[v] = _mm256_andnot_si256(twice, grow[v]);
            owned[v] = _mm256_or_si256(owned[v], front[v]);
        }
    }
    uint64_t out[8][2];
    for (int v = 0; v < nv; v++) _mm256_storeu_si256((__m256i *)out[2 * v], owned[v]);
    for (int k = 0; k < nl; k++) {
        count[live[k]] = sbx_popcount64(out[k][0]) + sbx_popcount64(out[k][1]);
    }
}

__attribute__((target("avx2"))) static void territory_avx2(const snakes_cfg *cfg,
                                                          const snakes_state *st,
                                                          int *count) {
    /* rows 0..7: the live snakes' heads, one 128-bit board each (pairs load
     * as one register); row 8: the open cells */
    uint64_t heads[9][2] = {{0}};
    int live[SBX_MAX_AGENTS], nl = 0;
    for (int i = 0; i < cfg->snakes; i++) {
        count[i] = 0;
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        const int c = s->hy * cfg->width + s->hx;
        heads[nl][c >> 6] = 1ULL << (c & 63);
        live[nl++] = i;
    }
    heads[8][0] = cfg->bb_board[0] & ~st->body_bb[0];
    heads[8][1] = cfg->bb_board[1] & ~st->body_bb[1];
    /* a constant register count per copy keeps the fronts in registers */
    switch ((nl + 1) / 2) {
    case 0: return;
    case 1: territory_avx2_n(cfg, heads, live, nl, count, 1); break;
    case 2: territory_avx2_n(cfg, heads, live, nl, count, 2); break;
    case 3: territory_avx2_n(cfg, heads, live, nl, count, 3); break;
    default: territory_avx2_n(cfg, heads, live, nl, count, 4); break;
    }
}

#else
static void territory_avx2(const snakes_cfg *cfg, const snakes_state *st, int *count) {
    (void)cfg; (void)st; (void)count;
}
#endif

/* Once per process, before the first snakes game exists (so every game
 * and thread sees one value, and identical params stay identical configs):
 * AVX2 if the CPU (and OS) have it and SBX_NO_AVX2 is not set. */
static int avx2_on;
static char path_name[64] = "territory: scalar";

static void territory_path_decide(void) {
    const char *why;
    avx2_on = sbx_avx2_usable(&why);
    snprintf(path_name, sizeof path_name, "territory: %s", why);
}

/* Which territory fill evaluations run in this process (game.h simd_path). */
static const char *territory_path(void) {
    pthread_once(&territory_once, territory_path_decide);
    return path_name;
}

static void territory(const snakes_cfg *cfg, const snakes_state *st,
                      int *count) {
    const int nw = cfg->bb_words;
    uint64_t open[BB_WORDS], claimed[BB_WORDS] = {0};
    uint64_t front[SBX_MAX_AGENTS][BB_WORDS] = {{0}};
    uint64_t grow[SBX_MAX_AGENTS][BB_WORDS];
    int live[SBX_MAX_AGENTS], nl = 0;
    for (int i = 0; i < nw; i++) open[i] = cfg->bb_board[i] & ~st->body_bb[i];
    for (int i = 0; i < cfg->snakes; i++) {
        count[i] = 0;
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        int c = s->hy * cfg->width + s->hx;
        front[nl][c >> 6] |= 1ULL << (c & 63);
        claimed[c >> 6] |= 1ULL << (c & 63);
        live[nl++] = i;
    }
    for (;;) {
        uint64_t once[BB_WORDS] = {0}, twice[BB_WORDS] = {0};
        uint64_t any = 0;
        for (int k = 0; k < nl; k++) {
            if (cfg->wrapped) bb_dilate_wrapped(cfg, front[k], grow[k]);
            else bb_dilate(cfg, front[k], grow[k]);
            for (int i = 0; i < nw; i++) {
                grow[k][i] &= open[i] & ~claimed[i];
                twice[i] |= once[i] & grow[k][i];
                once[i] |= grow[k][i];
            }
        }
        for (int i = 0; i < nw; i++) {
            claimed[i] |= once[i];
            any |= once[i];
        }
        if (!any) break;
        for (int k = 0; k < nl; k++) {
            int n = 0;
            for (int i = 0; i < nw; i++) {
                front[k][i] = grow[k][i] & ~twice[i];
                n += sbx_popcount64(front[k][i]);
            }
            count[live[k]] += n;
        }
    }
}

static void snakes_evaluate(const void *cfgv, const void *stv, double *out) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    const int n = cfg->snakes;
    int terr[SBX_MAX_AGENTS] = {0};
    if (cfg->w_space != 0.0) {
        if (cfg->fits128 && avx2_on && !cfg->wrapped) territory_avx2(cfg, st, terr);
        else if (cfg->fits128) territory128(cfg, st, terr);
        else territory(cfg, st, terr);
    }
    const int dead_total = n - st->alive_count;
    const uint16_t *fl = FOODL(cfg, st);
    for (int i = 0; i < n; i++) {
        const snake *s = &st->s[i];
        double v;
        if (s->alive) {
            v = cfg->w_alive;
            v += cfg->w_length * (double)s->length;
            v += cfg->w_health * ((double)s->health / (double)cfg->max_health);
            v += cfg->w_outlived * (double)dead_total;
            if (cfg->w_food != 0.0 && st->food_count > 0) {
                int best = 1 << 30;
                for (int k = 0; k < st->food_count; k++) {
                    int fx = fl[k] % cfg->width, fy = fl[k] / cfg->width;
                    int dx = abs(fx - s->hx), dy = abs(fy - s->hy);
                    if (cfg->wrapped) {
                        dx = dx < cfg->width - dx ? dx : cfg->width - dx;
                        dy = dy < cfg->height - dy ? dy : cfg->height - dy;
                    }
                    if (dx + dy < best) best = dx + dy;
                }
                double hunger = 1.0 - (double)s->health / (double)cfg->max_health;
                v += cfg->w_food * hunger *
                     (1.0 - (double)best / (double)(cfg->width + cfg->height));
            }
            if (cfg->w_space != 0.0) {
                v += cfg->w_space * ((double)terr[i] / (double)cfg->ncells);
            }
        } else {
            int before = 0;
            for (int j = 0; j < n; j++) {
                const snake *o = &st->s[j];
                before += (j != i && !o->alive && o->death_turn < s->death_turn);
            }
            v = cfg->w_dead + cfg->w_outlived * (double)before;
        }
        out[i] = v;
    }
}

/* Rank = number of snakes strictly better placed: survivors share rank 0,
 * a dead snake is behind every snake that lived longer. */
static void snakes_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    for (int i = 0; i < cfg->snakes; i++) {
        const snake *s = &st->s[i];
        int r = 0;
        for (int j = 0; j < cfg->snakes && !s->alive; j++) {
            const snake *o = &st->s[j];
            r += o->alive || o->death_turn > s->death_turn;
        }
        rank[i] = r;
    }
}

/* ------------------------------------------------------------ export */

static int cell_x(const snakes_cfg *cfg, const snake *s, const uint16_t *ring,
                  unsigned k, int *y) {
    uint16_t c = ring[(s->head + k) & ((unsigned)cfg->ring_cap - 1)];
    if (c == OFF_BOARD) {
        *y = s->hy;
        return s->hx;
    }
    *y = c / cfg->width;
    return c % cfg->width;
}

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    const uint8_t *cells = CELLS(cfg, st);
    sbx_emit(e, cfg->has_hazards ? SBX_SNAKES_EXPORT_VERSION_HAZARDS
                                 : SBX_SNAKES_EXPORT_VERSION);
    sbx_emit(e, cfg->width);
    sbx_emit(e, cfg->height);
    sbx_emit(e, cfg->snakes);
    sbx_emit(e, st->turn);
    sbx_emit(e, st->food_count);
    for (int c = 0; c < cfg->ncells; c++) {
        if (cells[c] & FOOD_BIT) {
            sbx_emit(e, c % cfg->width);
            sbx_emit(e, c / cfg->width);
        }
    }
    for (int i = 0; i < cfg->snakes; i++) {
        const snake *s = &st->s[i];
        const uint16_t *ring = RING(cfg, st, i);
        sbx_emit(e, s->alive);
        sbx_emit(e, s->health);
        sbx_emit(e, s->length);
        sbx_emit(e, s->death_turn);
        sbx_emit(e, s->cause);
        for (unsigned k = 0; k < s->length; k++) {
            int y, x = cell_x(cfg, s, ring, k, &y);
            sbx_emit(e, x);
            sbx_emit(e, y);
        }
    }
    if (!cfg->has_hazards) return;
    const uint8_t *hz = HZ(cfg, st);
    int pending = 0;
    if (cfg->map == MAP_SNAIL_MODE) {
        for (int c = 0; c < cfg->ncells; c++) pending += PEND(cfg, st)[c] != 0;
    }
    sbx_emit(e, st->hazard_cells + pending);
    for (int c = 0; c < cfg->ncells; c++) {
        if (!hz[c]) continue;
        sbx_emit(e, c % cfg->width);
        sbx_emit(e, c / cfg->width);
        sbx_emit(e, hz[c]);
    }
    /* snail_mode's tails to come, where the official engine keeps them:
     * y + height */
    for (int c = 0; pending && c < cfg->ncells; c++) {
        if (!PEND(cfg, st)[c]) continue;
        sbx_emit(e, c % cfg->width);
        sbx_emit(e, c / cfg->width + cfg->height);
        sbx_emit(e, PEND(cfg, st)[c]);
    }
    for (int k = 0; k < SBX_SNAKES_MAP_WORDS; k++) sbx_emit(e, st->mapw[k]);
}

static int snakes_export(const void *cfgv, const void *stv, int32_t *buf,
                         int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static uint64_t snakes_hash(const void *cfgv, const void *stv) {
    return sbx_hash_with(write_export, cfgv, stv);
}

/* Validates buf completely while building the state into nst (zeroed). */
static int import_into(const snakes_cfg *cfg, snakes_state *nst,
                       const int32_t *buf, int len) {
    const int W = cfg->width, H = cfg->height;
    int p = 0;
#define NEED(k)                                                              \
    do {                                                                     \
        if (p + (k) > len)                                                   \
            return sbx_fail(SBX_ERR_ARGUMENT,                                \
                            "import: data ends early at word %d", p);        \
    } while (0)
    if (len > SBX_EXPORT_MAX) { /* every accepted state must export again */
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: %d words, more than an export may hold (%d)",
                        len, SBX_EXPORT_MAX);
    }
    NEED(6);
    const int version = cfg->has_hazards ? SBX_SNAKES_EXPORT_VERSION_HAZARDS
                                         : SBX_SNAKES_EXPORT_VERSION;
    if (buf[0] != version) {
        if (buf[0] == SBX_SNAKES_EXPORT_VERSION || buf[0] == SBX_SNAKES_EXPORT_VERSION_HAZARDS) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: export version %d, but this game (ruleset %s, map %s) "
                            "exports version %d", (int)buf[0], MODE_NAMES[cfg->mode],
                            snakes_map_names[cfg->map], version);
        }
        return sbx_fail(SBX_ERR_ARGUMENT, "import: unknown export version %d",
                        (int)buf[0]);
    }
    if (buf[1] != W || buf[2] != H || buf[3] != cfg->snakes) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: board %dx%d with %d snakes does not match the "
                        "game's %dx%d with %d",
                        (int)buf[1], (int)buf[2], (int)buf[3], W, H, cfg->snakes);
    }
    int turn = buf[4], nfood = buf[5];
    if (turn < 0 || turn > 1000000) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range", turn);
    }
    if (nfood < 0 || nfood > cfg->ncells) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: food count %d out of range",
                        nfood);
    }
    p = 6;
    nst->turn = turn;
    uint8_t *cells = CELLS(cfg, nst);
    NEED(2 * nfood);
    for (int k = 0; k < nfood; k++) {
        int x = buf[p++], y = buf[p++];
        if (x < 0 || y < 0 || x >= W || y >= H) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: food (%d,%d) off the board",
                            x, y);
        }
        if (cells[y * W + x] & FOOD_BIT) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: food (%d,%d) listed twice",
                            x, y);
        }
        food_add(cfg, nst, y * W + x);
    }
    int alive_count = 0;
    for (int i = 0; i < cfg->snakes; i++) {
        NEED(5);
        int alive = buf[p], health = buf[p + 1], length = buf[p + 2];
        int death_turn = buf[p + 3], cause = buf[p + 4];
        p += 5;
        if (alive != 0 && alive != 1) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d alive flag %d",
                            i, alive);
        }
        if (health > cfg->max_health || health < (alive ? 1 : -1000)) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d health %d", i,
                            health);
        }
        if (length < 1 || length > cfg->ring_cap - 4) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d length %d", i,
                            length);
        }
        if (alive ? (death_turn != -1 || cause != 0)
                  : (death_turn < 0 || death_turn > turn || cause < 1 ||
                     cause > SBX_SNAKES_CAUSE_HAZARD)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: snake %d death turn %d / cause %d "
                            "inconsistent", i, death_turn, cause);
        }
        NEED(2 * length);
        snake *s = &nst->s[i];
        uint16_t *ring = RING(cfg, nst, i);
        s->alive = (uint8_t)alive;
        s->health = (int16_t)health;
        s->length = (uint16_t)length;
        s->death_turn = death_turn;
        s->cause = (uint8_t)cause;
        s->head = 0;
        int px = 0, py = 0;
        for (int k = 0; k < length; k++) {
            int x = buf[p++], y = buf[p++];
            int inside = x >= 0 && y >= 0 && x < W && y < H;
            int oob_head = (k == 0 && !alive &&
                            cause == SBX_SNAKES_CAUSE_OUT_OF_BOUNDS &&
                            x >= -1 && y >= -1 && x <= W && y <= H);
            if (!inside && !oob_head) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: snake %d segment %d (%d,%d) off the board",
                                i, k, x, y);
            }
            int ddx = abs(x - px), ddy = abs(y - py);
            if (cfg->wrapped && inside) { /* across an edge is next door too */
                ddx = ddx == W - 1 ? 1 : ddx;
                ddy = ddy == H - 1 ? 1 : ddy;
            }
            if (k > 0 && ddx + ddy > 1) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: snake %d segments %d and %d not adjacent",
                                i, k - 1, k);
            }
            ring[k] = inside ? (uint16_t)(y * W + x) : (uint16_t)OFF_BOARD;
            if (k == 0) {
                s->hx = (int8_t)x;
                s->hy = (int8_t)y;
            } else if (alive) {
                /* 7 bits count segments; real play stacks at most a few */
                if ((cells[y * W + x] & BODY_MASK) >= 100) {
                    return sbx_fail(SBX_ERR_ARGUMENT,
                                    "import: too many segments on (%d,%d)", x, y);
                }
                body_inc(cells, nst, y * W + x);
            }
            px = x;
            py = y;
        }
        alive_count += alive;
    }
    if (cfg->has_hazards) {
        NEED(1);
        int nhz = buf[p++];
        if (nhz < 0 || nhz > 2 * cfg->ncells) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: hazard cell count %d out of range", nhz);
        }
        NEED(3 * nhz + SBX_SNAKES_MAP_WORDS);
        const uint8_t *hz = HZ(cfg, nst);
        const int top = cfg->map == MAP_SNAIL_MODE ? 2 * H : H; /* snail: tails to come */
        for (int k = 0; k < nhz; k++) {
            int x = buf[p++], y = buf[p++], stack = buf[p++];
            if (x < 0 || y < 0 || x >= W || y >= top) {
                return sbx_fail(SBX_ERR_ARGUMENT, "import: hazard (%d,%d) off the board",
                                x, y);
            }
            if (y >= H ? PEND(cfg, nst)[(y - H) * W + x] : hz[y * W + x]) {
                return sbx_fail(SBX_ERR_ARGUMENT, "import: hazard (%d,%d) listed twice",
                                x, y);
            }
            if (stack < 1 || stack > HZ_MAX_STACK) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: hazard (%d,%d) stack %d, expected 1..%d", x, y,
                                stack, HZ_MAX_STACK);
            }
            if (y >= H) PEND(cfg, nst)[(y - H) * W + x] = (uint8_t)stack;
            else snakes_hz_set(cfg, nst, y * W + x, stack);
        }
        for (int k = 0; k < SBX_SNAKES_MAP_WORDS; k++) {
            if (buf[p + k] < -1 || buf[p + k] > 2 * MAX_SIDE) {
                return sbx_fail(SBX_ERR_ARGUMENT, "import: map word %d is %d, out of range",
                                k, (int)buf[p + k]);
            }
            nst->mapw[k] = (int16_t)buf[p + k];
        }
        int rc = snakes_map_check_words(cfg, nst->mapw);
        if (rc != SBX_OK) return rc;
        p += SBX_SNAKES_MAP_WORDS;
    }
    if (p != len) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words expected, got %d", p,
                        len);
    }
    nst->alive_count = (int16_t)alive_count;
    return SBX_OK;
#undef NEED
}

static int snakes_import(const void *cfgv, void *stv, const int32_t *buf,
                         int len) {
    const snakes_cfg *cfg = cfgv;
    /* Build into a scratch state so the game is unchanged on error. */
    snakes_state *st = stv;
    size_t size = cfg->size;
    snakes_state *nst = calloc(1, size);
    if (!nst) return sbx_fail(SBX_ERR_MEMORY, "import: out of memory");
    int rc = import_into(cfg, nst, buf, len);
    if (rc == SBX_OK) {
        nst->rng = st->rng;
        memcpy(stv, nst, size);
    }
    free(nst);
    return rc;
}

static const char *snakes_move_name(const void *cfgv, int agent, int move) {
    (void)cfgv;
    (void)agent;
    return (move >= 0 && move < 4) ? MOVE_NAMES[move] : "?";
}

/* ------------------------------------------------------------ features */

/* sbx.h section 1 gives the layout: 2 + 2S planes, then 3S scalars. */
static int snakes_feature_layout(const void *cfgv, sbx_features_layout *out) {
    const snakes_cfg *cfg = cfgv;
    out->planes = 2 + 2 * cfg->snakes;
    out->height = cfg->height;
    out->width = cfg->width;
    out->scalars = 3 * cfg->snakes;
    out->size = out->planes * cfg->ncells + out->scalars;
    out->slots = 0;
    return SBX_OK;
}

static void snakes_features(const void *cfgv, const void *stv, int view, float *out) {
    const snakes_cfg *cfg = cfgv;
    const snakes_state *st = stv;
    const int n = cfg->snakes, nc = cfg->ncells, first = view < 0 ? 0 : view;
    const unsigned mask = (unsigned)cfg->ring_cap - 1;
    const uint8_t *cells = CELLS(cfg, st);
    memset(out, 0, (size_t)(2 + 2 * n) * (size_t)nc * sizeof *out);
    for (int c = 0; c < nc; c++) {
        out[c] = 1.0f;
        out[nc + c] = (cells[c] & FOOD_BIT) ? 1.0f : 0.0f;
    }
    float *scal = out + (size_t)(2 + 2 * n) * (size_t)nc;
    for (int k = 0; k < n; k++) {
        const int a = (first + k) % n;
        const snake *sn = &st->s[a];
        float *head = out + (size_t)(2 + 2 * k) * (size_t)nc, *body = head + nc;
        scal[3 * k] = (float)sn->alive;
        scal[3 * k + 1] = sn->alive ? (float)sn->health / (float)cfg->max_health : 0.0f;
        scal[3 * k + 2] = (float)sn->length / (float)nc;
        if (!sn->alive) continue;
        const uint16_t *ring = RING(cfg, st, a);
        head[sn->hy * cfg->width + sn->hx] = 1.0f;
        for (unsigned i = 0; i < sn->length; i++) {
            const uint16_t c = ring[(sn->head + i) & mask];
            if (c == OFF_BOARD) continue;
            const float v = (float)(sn->length - i) / (float)sn->length;
            if (v > body[c]) body[c] = v;
        }
    }
}

/* ------------------------------------------------------------ rulesets */

/* The vtable's entries: the standard ruleset above, or snakebyte.c's
 * through its table. */
static void any_describe(const void *c, char *buf, size_t cap) {
    if (IS_SB(c)) SB->describe(c, buf, cap);
    else snakes_describe(c, buf, cap);
}
static size_t any_state_size(const void *c) {
    return IS_SB(c) ? SB->state_size(c) : snakes_state_size(c);
}
static int any_num_agents(const void *c) {
    return IS_SB(c) ? SB->num_agents(c) : snakes_num_agents(c);
}
static int any_init(const void *c, void *st, uint64_t seed) {
    return IS_SB(c) ? SB->init(c, st, seed) : snakes_init(c, st, seed);
}
static int any_legal_moves(const void *c, const void *st, int agent, uint8_t *out) {
    return IS_SB(c) ? SB->legal_moves(c, st, agent, out) : snakes_legal_moves(c, st, agent, out);
}
static void any_step(const void *c, void *st, const uint8_t *joint, double *rewards) {
    if (IS_SB(c)) SB->step(c, st, joint, rewards);
    else snakes_step(c, st, joint, rewards);
}
static int any_is_terminal(const void *c, const void *st) {
    return IS_SB(c) ? SB->is_terminal(c, st) : snakes_is_terminal(c, st);
}
static int any_is_alive(const void *c, const void *st, int agent) {
    return IS_SB(c) ? SB->is_alive(c, st, agent) : snakes_is_alive(c, st, agent);
}
static uint32_t any_alive_mask(const void *c, const void *st) {
    return IS_SB(c) ? SB->alive_mask(c, st) : snakes_alive_mask(c, st);
}
static void any_evaluate(const void *c, const void *st, double *out) {
    if (IS_SB(c)) SB->evaluate(c, st, out);
    else snakes_evaluate(c, st, out);
}
static void any_ranking(const void *c, const void *st, int32_t *rank) {
    if (IS_SB(c)) SB->ranking(c, st, rank);
    else snakes_ranking(c, st, rank);
}
static uint64_t any_hash(const void *c, const void *st) {
    return IS_SB(c) ? SB->hash(c, st) : snakes_hash(c, st);
}
static int any_export(const void *c, const void *st, int32_t *buf, int cap) {
    return IS_SB(c) ? SB->export_state(c, st, buf, cap) : snakes_export(c, st, buf, cap);
}
static int any_import(const void *c, void *st, const int32_t *buf, int len) {
    return IS_SB(c) ? SB->import_state(c, st, buf, len) : snakes_import(c, st, buf, len);
}
/* Features: the standard ruleset's; SnakeByte has none yet. */
static int any_feature_layout(const void *c, sbx_features_layout *out) {
    if (IS_SB(c)) {
        return sbx_fail(SBX_ERR_STATE, "the snakes ruleset snakebyte has no features yet "
                        "(ruleset standard has)");
    }
    return snakes_feature_layout(c, out);
}
static void any_features(const void *c, const void *st, int view, float *out) {
    if (!IS_SB(c)) snakes_features(c, st, view, out);
}
/* SnakeByte's teams; a standard snake plays for itself. */
static int any_side(const void *c, int agent) {
    return IS_SB(c) ? SB->side(c, agent) : agent;
}
static uint32_t any_fatal_moves(const void *c, const void *st, int agent) {
    return IS_SB(c) ? 0u : snakes_fatal_moves(c, st, agent);
}
static const char *any_move_name(const void *c, int agent, int move) {
    return IS_SB(c) ? SB->move_name(c, agent, move) : snakes_move_name(c, agent, move);
}

const sbx_game_vt sbx_snakes_vt = {
    .name = "snakes",
    .params_doc = PARAMS_DOC,
    .cfg_size = sizeof(snakes_any_cfg),
    .configure = snakes_configure,
    .describe = any_describe,
    .state_size = any_state_size,
    .num_agents = any_num_agents,
    .max_moves = snakes_max_moves,
    .fixed_moves = 1,
    .init = any_init,
    .reseed = snakes_reseed,
    .turn = snakes_turn,
    .legal_moves = any_legal_moves,
    .step = any_step,
    .is_terminal = any_is_terminal,
    .is_alive = any_is_alive,
    .alive_mask = any_alive_mask,
    .evaluate = any_evaluate,
    .ranking = any_ranking,
    .hash = any_hash,
    .export_state = any_export,
    .import_state = any_import,
    .move_name = any_move_name,
    .side = any_side,
    .fatal_moves = any_fatal_moves,
    .simd_path = territory_path,
    .feature_layout = any_feature_layout,
    .features = any_features,
};
