/*
 * snakes_std.h — internal: the Battlesnake rulesets' config and state, shared
 * by snakes.c (the vtable, the turn's stages, evaluation, export) and
 * snakes_maps.c (the official maps: start positions, food and hazards).
 * Nothing outside these two files includes it.
 */
#ifndef SBX_SNAKES_STD_H
#define SBX_SNAKES_STD_H

#include <stddef.h>
#include <stdint.h>

#include "../../include/sbx.h"

#define FOOD_BIT 0x80u
#define BODY_MASK 0x7Fu
#define OFF_BOARD 0xFFFFu
#define MAX_SIDE 25
#define BB_WORDS 10 /* 625 cells of a 25x25 board, one bit each */
#define HZ_MAX_STACK 100 /* hazard layers on one cell */

/* The official rulesets (the pipeline of stages each runs). */
enum { MODE_STANDARD, MODE_SOLO, MODE_ROYALE, MODE_CONSTRICTOR, MODE_WRAPPED,
       MODE_WRAPPED_CONSTRICTOR, MODE_COUNT };

/* The official maps we model, in the official list's (alphabetical) order. */
enum { MAP_ARCADE_MAZE, MAP_EMPTY, MAP_HEALING_POOLS, MAP_HZ_CASTLE_WALL,
       MAP_HZ_CASTLE_WALL_LG, MAP_HZ_CASTLE_WALL_XL, MAP_HZ_COLUMNS,
       MAP_HZ_EXPAND_BOX, MAP_HZ_EXPAND_SCATTER, MAP_HZ_GROW_BOX,
       MAP_HZ_HAZARD_PITS, MAP_HZ_INNER_WALL, MAP_HZ_ISLANDS_BRIDGES,
       MAP_HZ_ISLANDS_BRIDGES_LG, MAP_HZ_RINGS, MAP_HZ_RIVERS_BRIDGES,
       MAP_HZ_RIVERS_BRIDGES_LG, MAP_HZ_RIVERS_BRIDGES_XL, MAP_HZ_SCATTER,
       MAP_HZ_SPIRAL, MAP_ROYALE, MAP_SINKHOLES, MAP_SNAIL_MODE, MAP_STANDARD, MAP_COUNT };

typedef struct snakes_cfg {
    int ruleset;           /* SNAKES_RULESET_STANDARD; first, as in sb_cfg */
    int mode;              /* MODE_* */
    int map;               /* MAP_* */
    int width, height, snakes;
    int food_spawn_chance; /* percent: the official engine's (chance - 1)% */
    int minimum_food;
    int initial_food;      /* 1: the map's start food; 0: none (goldens) */
    int max_turns;         /* 0: no limit */
    int max_health;
    int hazard_damage;     /* health a hazard layer takes per turn (< 0 heals) */
    int shrink_every;      /* royale, hazard pits, healing pools, sinkholes */
    double w_alive, w_dead, w_outlived, w_length, w_health, w_food, w_space;
    /* derived */
    int wrapped, constrictor, solo_end; /* solo_end: over when none is left */
    int shrinks;           /* the royale safe zone closes in (ruleset or map) */
    int has_hazards;       /* the state keeps hazard stacks (export v2) */
    int ncells, ring_cap, bb_words;
    int fits128;           /* board <= 128 cells, rows < 64: territory128 */
    size_t off_cells, off_hz, off_pend, off_food, off_ring, size;
    uint64_t bb_board[BB_WORDS];    /* every cell of the board   */
    uint64_t bb_not_left[BB_WORDS]; /* cells with x > 0          */
    uint64_t bb_not_right[BB_WORDS];/* cells with x < width - 1  */
    uint64_t bb_left[BB_WORDS];     /* cells with x == 0 (wrapped) */
    uint64_t bb_right[BB_WORDS];    /* cells with x == width - 1 */
    uint64_t bb_bottom[BB_WORDS];   /* cells with y == 0 */
    uint64_t bb_top[BB_WORDS];      /* cells with y == height - 1 */
} snakes_cfg;

typedef struct snake {
    int32_t death_turn;  /* -1 while alive */
    int16_t health;
    uint16_t head;       /* ring index of the head */
    uint16_t length;
    int8_t hx, hy;       /* head coordinates; off the board after OOB death */
    uint8_t alive;
    uint8_t cause;       /* SBX_SNAKES_CAUSE_* */
    uint8_t pad[2];
} snake;

typedef struct snakes_state {
    uint64_t rng;
    int32_t turn;
    int16_t food_count;
    int16_t alive_count;
    int16_t hazard_cells;   /* cells whose stack is non-zero */
    int16_t mapw[SBX_SNAKES_MAP_WORDS]; /* the map's progress (sbx.h) */
    int16_t pad;
    snake s[SBX_MAX_AGENTS];
    uint64_t body_bb[BB_WORDS]; /* cells whose body count is non-zero */
} snakes_state;

#define CELLS(cfg, st) ((uint8_t *)(st) + (cfg)->off_cells)
#define HZ(cfg, st) ((uint8_t *)(st) + (cfg)->off_hz)
/* snail_mode: the tails left last turn, their layers to come (the official
 * engine keeps them off the board, at y + height) */
#define PEND(cfg, st) ((uint8_t *)(st) + (cfg)->off_pend)
#define FOODL(cfg, st) ((uint16_t *)((uint8_t *)(st) + (cfg)->off_food))
#define RING(cfg, st, i) \
    ((uint16_t *)((uint8_t *)(st) + (cfg)->off_ring) + (size_t)(i) * (cfg)->ring_cap)

/* the shared pieces of snakes.c, snakes_board.c and snakes_maps.c */
/* Every change of a body count goes through these two, keeping body_bb. */
static inline void body_inc(uint8_t *cells, snakes_state *st, int c) {
    if (!(cells[c]++ & BODY_MASK)) st->body_bb[c >> 6] |= 1ULL << (c & 63);
}
static inline void body_dec(uint8_t *cells, snakes_state *st, int c) {
    if (!(--cells[c] & BODY_MASK)) st->body_bb[c >> 6] &= ~(1ULL << (c & 63));
}

/* snakes_board.c */
void snakes_food_add(const snakes_cfg *cfg, snakes_state *st, int cell);
void snakes_food_remove(const snakes_cfg *cfg, snakes_state *st, int cell);
void snakes_food_clear(const snakes_cfg *cfg, snakes_state *st);
void snakes_place_fixed(const snakes_cfg *cfg, snakes_state *st);
void snakes_place_at(const snakes_cfg *cfg, snakes_state *st, const int (*xy)[2]);
void snakes_food_fixed(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards);
int snakes_spawn_one(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards);
void snakes_standard_food(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards);

/* snakes_maps.c */
extern const char *const snakes_map_names[MAP_COUNT];
/* Checks the board and snake count a map needs (configure). */
int snakes_map_check(const snakes_cfg *cfg);
/* Whether a map ever has hazards. */
int snakes_map_has_hazards(int map);
/* The map's start: snakes, start food, start hazards (init). */
void snakes_map_setup(const snakes_cfg *cfg, snakes_state *st);
/* After a turn's rules (turn = the turn just produced): the map's food and
 * hazards, and the royale safe zone. */
void snakes_map_update(const snakes_cfg *cfg, snakes_state *st, int turn);
/* Sets a cell's hazard stack, keeping hazard_cells. */
void snakes_hz_set(const snakes_cfg *cfg, snakes_state *st, int cell, int stack);
/* Checks the map words of an imported state (0, or an sbx_fail code). */
int snakes_map_check_words(const snakes_cfg *cfg, const int16_t *w);

#endif
