/*
 * snakes_maps.c — the official Battlesnake maps for the `snakes` game
 * (snakes.c): where snakes start, the start food and hazards, and after each
 * turn the map's food and hazards, with the royale safe zone closing in.
 *
 * The official engine draws a map's random choices (the royale side that
 * closes, a spiral's origin, a scatter's next cell) from a generator seeded
 * once per game, so they are fixed for the game but unknown to the players.
 * Here each choice is drawn from the game's own stream when it is made, one
 * draw per event: the same distribution, and a search, which reseeds the
 * stream each iteration, samples the choices it cannot know. What a map has
 * already decided is state (the hazard stacks and the four map words of
 * sbx.h), so an imported position goes on as the official game would.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "snakes_std.h"

const char *const snakes_map_names[MAP_COUNT] = {
    "arcade_maze", "empty", "healing_pools", "hz_castle_wall", "hz_castle_wall_lg",
    "hz_castle_wall_xl", "hz_columns", "hz_expand_box", "hz_expand_scatter", "hz_grow_box",
    "hz_hazard_pits", "hz_inner_wall", "hz_islands_bridges", "hz_islands_bridges_lg",
    "hz_rings", "hz_rivers_bridges", "hz_rivers_bridges_lg", "hz_rivers_bridges_xl",
    "hz_scatter", "hz_spiral", "royale", "sinkholes", "snail_mode", "standard"};

/* The maps' fixed layouts. */
static const int PITS_STARTS[4][2] = {{1, 1}, {9, 1}, {1, 9}, {9, 9}};
static const int ARCADE_STARTS[6][2] = {{4, 7}, {14, 7}, {4, 17}, {14, 17}, {9, 9}, {9, 13}};
static const int ARCADE_FOOD[12][2] = {{1, 1}, {3, 11}, {4, 7}, {4, 17}, {9, 1}, {9, 5},
                                       {9, 11}, {9, 17}, {14, 7}, {14, 17}, {15, 11}, {17, 1}};
/* arcade_maze's walls of hazard, one string per row, top (y = 20) first */
static const char *const ARCADE_ROWS[21] = {
    "#.###############.#", "#........#........#", "#.##.###.#.###.##.#",
    "#.................#", "#.##.#.#####.#.##.#", "#....#...#...#....#",
    "#..#.###.#.###.#..#", "#..#.#.......#.#..#", "####.#.#.#.#.#.####",
    ".......#...#.......", "####.#.#.#.#.#.####", "#..#.#.......#.#..#",
    "#..#.#.#####.#.#..#", "#........#........#", "#.##.###.#.###.##.#",
    "#..#...........#..#", "##.#.#.#####.#.#.##", "#....#...#...#....#",
    "#.######.#.######.#", "#.................#", "#.###############.#"};
/* healing_pools: per board size, the pool layouts one is drawn from */
static const int POOLS_7[1][4][2] = {{{3, 3}, {-1, -1}, {-1, -1}, {-1, -1}}};
static const int POOLS_11[4][4][2] = {
    {{3, 3}, {7, 7}, {-1, -1}, {-1, -1}}, {{3, 7}, {7, 3}, {-1, -1}, {-1, -1}},
    {{3, 5}, {7, 5}, {-1, -1}, {-1, -1}}, {{5, 7}, {5, 3}, {-1, -1}, {-1, -1}}};
static const int POOLS_19[2][4][2] = {{{5, 5}, {13, 13}, {5, 13}, {13, 5}},
                                      {{5, 10}, {13, 10}, {10, 13}, {10, 5}}};

/* The castle-wall and rivers/islands-and-bridges maps: fixed walls of
 * hazard (a cell listed twice is two layers), start spots in groups, and
 * for the castles twelve-odd food spots. Castles: group 0 (and 1 with five
 * snakes or more, 2 with nine or more), shuffled, snake i on spot i; food
 * from turn 11 on, whenever fewer than max_food lie there, on a random
 * spot off every body and head's neighbours and away from other food.
 * Rivers and islands: the groups are quadrants, snakes dealt round them
 * from a random one, each a random spot of it; the start food as standard
 * but off hazards, and food after each turn as standard but off hazards. */
static const int CASTLE_WALL_STARTS[][2] = {{1, 1}, {1, 9}, {9, 1}, {9, 9}, {1, 5}, {5, 1}, {5, 9}, {9, 5}};
static const int CASTLE_WALL_FOOD[][2] = {{2, 5}, {5, 2}, {5, 8}, {8, 5}};
static const int CASTLE_WALL_HZ[][2] = {{2, 2}, {2, 3}, {2, 4}, {2, 6}, {2, 7}, {2, 8}, {3, 2}, {3, 8}, {4, 2}, {4, 8}, {6, 2}, {6, 8}, {7, 2}, {7, 8}, {8, 2}, {8, 3}, {8, 4}, {8, 6}, {8, 7}, {8, 8}, {2, 4}, {2, 6}, {4, 2}, {4, 8}, {6, 2}, {6, 8}, {8, 4}, {8, 6}};
static const int CASTLE_WALL_LG_STARTS[][2] = {{1, 1}, {1, 17}, {17, 1}, {17, 17}, {1, 9}, {9, 1}, {9, 17}, {17, 9}};
static const int CASTLE_WALL_LG_FOOD[][2] = {{2, 8}, {2, 10}, {3, 8}, {3, 10}, {8, 2}, {8, 3}, {8, 15}, {8, 16}, {10, 2}, {10, 3}, {10, 15}, {10, 16}, {15, 8}, {15, 10}, {16, 8}, {16, 10}};
static const int CASTLE_WALL_LG_HZ[][2] = {{2, 11}, {2, 12}, {2, 13}, {2, 14}, {2, 15}, {2, 16}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {2, 6}, {2, 7}, {2, 9}, {3, 11}, {3, 12}, {3, 13}, {3, 14}, {3, 15}, {3, 16}, {3, 2}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7}, {3, 9}, {4, 15}, {4, 16}, {4, 2}, {4, 3}, {5, 15}, {5, 16}, {5, 2}, {5, 3}, {6, 15}, {6, 16}, {6, 2}, {6, 3}, {7, 15}, {7, 16}, {7, 2}, {7, 3}, {9, 15}, {9, 16}, {9, 2}, {9, 3}, {11, 15}, {11, 16}, {11, 2}, {11, 3}, {12, 15}, {12, 16}, {12, 2}, {12, 3}, {13, 15}, {13, 16}, {13, 2}, {13, 3}, {14, 15}, {14, 16}, {14, 2}, {14, 3}, {15, 11}, {15, 12}, {15, 13}, {15, 14}, {15, 15}, {15, 16}, {15, 2}, {15, 3}, {15, 4}, {15, 5}, {15, 6}, {15, 7}, {15, 9}, {16, 11}, {16, 12}, {16, 13}, {16, 14}, {16, 15}, {16, 16}, {16, 2}, {16, 3}, {16, 4}, {16, 5}, {16, 6}, {16, 7}, {16, 9}, {2, 7}, {2, 9}, {2, 11}, {3, 7}, {3, 9}, {3, 11}, {7, 2}, {7, 3}, {7, 15}, {7, 16}, {9, 2}, {9, 3}, {9, 15}, {9, 16}, {11, 2}, {11, 3}, {11, 15}, {11, 16}, {15, 7}, {15, 9}, {15, 11}, {16, 7}, {16, 9}, {16, 11}};
static const int CASTLE_WALL_XL_STARTS[][2] = {{1, 5}, {1, 19}, {23, 5}, {23, 19}, {5, 1}, {5, 23}, {19, 1}, {19, 23}, {1, 12}, {12, 23}, {12, 1}, {23, 12}};
static const int CASTLE_WALL_XL_FOOD[][2] = {{3, 8}, {3, 12}, {3, 16}, {4, 8}, {4, 12}, {4, 16}, {8, 3}, {8, 4}, {8, 20}, {8, 21}, {12, 3}, {12, 4}, {12, 20}, {12, 21}, {16, 3}, {16, 4}, {16, 20}, {16, 21}, {20, 8}, {20, 12}, {20, 16}, {21, 8}, {21, 12}, {21, 16}};
static const int CASTLE_WALL_XL_HZ[][2] = {{3, 10}, {3, 11}, {3, 13}, {3, 14}, {3, 15}, {3, 17}, {3, 18}, {3, 19}, {3, 20}, {3, 21}, {3, 3}, {3, 4}, {3, 5}, {3, 6}, {3, 7}, {3, 9}, {4, 10}, {4, 11}, {4, 13}, {4, 14}, {4, 15}, {4, 17}, {4, 18}, {4, 19}, {4, 20}, {4, 21}, {4, 3}, {4, 4}, {4, 5}, {4, 6}, {4, 7}, {4, 9}, {5, 20}, {5, 21}, {5, 3}, {5, 4}, {6, 20}, {6, 21}, {6, 3}, {6, 4}, {7, 20}, {7, 21}, {7, 3}, {7, 4}, {9, 20}, {9, 21}, {9, 3}, {9, 4}, {10, 20}, {10, 21}, {10, 3}, {10, 4}, {11, 20}, {11, 21}, {11, 3}, {11, 4}, {13, 20}, {13, 21}, {13, 3}, {13, 4}, {14, 20}, {14, 21}, {14, 3}, {14, 4}, {15, 20}, {15, 21}, {15, 3}, {15, 4}, {17, 20}, {17, 21}, {17, 3}, {17, 4}, {18, 20}, {18, 21}, {18, 3}, {18, 4}, {19, 20}, {19, 21}, {19, 3}, {19, 4}, {20, 10}, {20, 11}, {20, 13}, {20, 14}, {20, 15}, {20, 17}, {20, 18}, {20, 19}, {20, 20}, {20, 21}, {20, 3}, {20, 4}, {20, 5}, {20, 6}, {20, 7}, {20, 9}, {21, 10}, {21, 11}, {21, 13}, {21, 14}, {21, 15}, {21, 17}, {21, 18}, {21, 19}, {21, 20}, {21, 21}, {21, 3}, {21, 4}, {21, 5}, {21, 6}, {21, 7}, {21, 9}, {3, 7}, {3, 9}, {3, 11}, {3, 13}, {3, 15}, {3, 17}, {4, 7}, {4, 9}, {4, 11}, {4, 13}, {4, 15}, {4, 17}, {7, 3}, {7, 4}, {7, 20}, {7, 21}, {9, 3}, {9, 4}, {9, 20}, {9, 21}, {11, 3}, {11, 4}, {11, 20}, {11, 21}, {13, 3}, {13, 4}, {13, 20}, {13, 21}, {15, 3}, {15, 4}, {15, 20}, {15, 21}, {17, 3}, {17, 4}, {17, 20}, {17, 21}, {20, 7}, {20, 9}, {20, 11}, {20, 13}, {20, 15}, {20, 17}, {21, 7}, {21, 9}, {21, 11}, {21, 13}, {21, 15}, {21, 17}};
static const int RIVERS_BRIDGES_STARTS[][2] = {{1, 1}, {3, 3}, {9, 9}, {7, 7}, {1, 9}, {3, 9}, {9, 1}, {7, 3}};
static const int RIVERS_BRIDGES_HZ[][2] = {{5, 10}, {5, 9}, {5, 7}, {5, 6}, {5, 5}, {5, 4}, {5, 3}, {5, 0}, {5, 1}, {6, 5}, {7, 5}, {9, 5}, {10, 5}, {4, 5}, {3, 5}, {1, 5}, {0, 5}};
static const int RIVERS_BRIDGES_LG_STARTS[][2] = {{1, 1}, {5, 1}, {1, 5}, {5, 5}, {17, 1}, {17, 5}, {13, 5}, {13, 1}, {1, 17}, {5, 17}, {1, 13}, {5, 13}, {17, 17}, {17, 13}, {13, 17}, {13, 13}};
static const int RIVERS_BRIDGES_LG_HZ[][2] = {{9, 0}, {9, 1}, {9, 2}, {9, 5}, {9, 6}, {9, 7}, {9, 9}, {9, 8}, {9, 10}, {9, 12}, {9, 11}, {9, 13}, {9, 14}, {9, 16}, {9, 17}, {9, 18}, {0, 9}, {2, 9}, {1, 9}, {3, 9}, {5, 9}, {6, 9}, {7, 9}, {8, 9}, {10, 9}, {13, 9}, {12, 9}, {11, 9}, {15, 9}, {16, 9}, {17, 9}, {18, 9}, {9, 4}, {8, 10}, {8, 8}, {10, 8}, {10, 10}};
static const int RIVERS_BRIDGES_XL_STARTS[][2] = {{1, 1}, {9, 9}, {9, 1}, {1, 9}, {23, 23}, {15, 15}, {23, 15}, {15, 23}, {15, 1}, {15, 9}, {23, 9}, {23, 1}, {9, 23}, {1, 23}, {9, 15}, {1, 15}};
static const int RIVERS_BRIDGES_XL_HZ[][2] = {{12, 24}, {12, 21}, {12, 20}, {12, 19}, {12, 18}, {12, 15}, {12, 14}, {12, 13}, {12, 12}, {12, 11}, {12, 10}, {12, 9}, {12, 5}, {12, 4}, {12, 3}, {12, 0}, {0, 12}, {3, 12}, {4, 12}, {5, 12}, {6, 12}, {9, 12}, {10, 12}, {11, 12}, {13, 12}, {14, 12}, {15, 12}, {18, 12}, {20, 12}, {19, 12}, {21, 12}, {24, 12}, {11, 14}, {10, 13}, {11, 13}, {10, 11}, {11, 11}, {11, 10}, {13, 10}, {14, 11}, {13, 11}, {13, 13}, {14, 13}, {13, 14}, {12, 6}, {12, 2}, {2, 12}, {22, 12}, {12, 22}, {16, 12}, {12, 8}, {8, 12}, {12, 16}};
static const int ISLANDS_BRIDGES_STARTS[][2] = {{3, 1}, {1, 3}, {9, 7}, {7, 9}, {3, 9}, {1, 7}, {7, 1}, {9, 3}};
static const int ISLANDS_BRIDGES_HZ[][2] = {{5, 10}, {5, 9}, {5, 7}, {5, 6}, {5, 5}, {5, 4}, {5, 3}, {5, 0}, {5, 1}, {6, 5}, {7, 5}, {9, 5}, {10, 5}, {4, 5}, {3, 5}, {1, 5}, {0, 5}, {1, 10}, {9, 10}, {1, 0}, {9, 0}, {10, 1}, {10, 0}, {10, 10}, {10, 9}, {0, 10}, {0, 9}, {0, 1}, {0, 0}, {0, 6}, {0, 4}, {10, 6}, {10, 4}, {6, 10}, {4, 10}, {6, 0}, {4, 0}};
static const int ISLANDS_BRIDGES_LG_STARTS[][2] = {{2, 2}, {2, 6}, {6, 2}, {6, 6}, {12, 2}, {16, 2}, {16, 6}, {12, 6}, {16, 16}, {16, 12}, {12, 12}, {12, 16}, {2, 16}, {6, 16}, {6, 12}, {2, 12}};
static const int ISLANDS_BRIDGES_LG_HZ[][2] = {{9, 18}, {9, 0}, {9, 1}, {9, 2}, {9, 3}, {9, 5}, {9, 6}, {9, 8}, {9, 7}, {9, 9}, {9, 10}, {9, 11}, {9, 12}, {9, 13}, {9, 15}, {9, 16}, {9, 17}, {2, 9}, {1, 9}, {0, 9}, {3, 9}, {5, 9}, {6, 9}, {7, 9}, {8, 9}, {10, 9}, {16, 9}, {15, 9}, {13, 9}, {12, 9}, {11, 9}, {17, 9}, {18, 9}, {10, 8}, {8, 8}, {8, 10}, {10, 10}, {18, 8}, {18, 7}, {18, 6}, {18, 10}, {18, 11}, {18, 12}, {0, 10}, {0, 11}, {0, 12}, {0, 8}, {0, 7}, {0, 6}, {6, 0}, {7, 0}, {8, 0}, {10, 0}, {11, 0}, {12, 0}, {10, 18}, {11, 18}, {12, 18}, {8, 18}, {7, 18}, {6, 18}, {0, 18}, {0, 17}, {0, 16}, {0, 15}, {1, 18}, {2, 18}, {3, 18}, {1, 17}, {15, 18}, {16, 18}, {17, 18}, {18, 18}, {18, 17}, {18, 16}, {18, 15}, {17, 17}, {18, 3}, {18, 2}, {18, 1}, {18, 0}, {17, 0}, {16, 0}, {15, 0}, {17, 1}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {10, 1}, {8, 1}, {8, 17}, {10, 17}, {17, 10}, {17, 8}, {1, 8}, {1, 10}};

enum { LAYOUT_CASTLE, LAYOUT_RIVERS };
typedef struct fixed_layout {
    int map, kind, width, height, max_snakes, groups, group_size;
    const int (*starts)[2];
    int nfood, max_food;
    const int (*food)[2];
    int nhz;
    const int (*hz)[2];
} fixed_layout;
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const fixed_layout LAYOUTS[] = {
    {MAP_HZ_CASTLE_WALL, LAYOUT_CASTLE, 11, 11, 8, 2, 4, CASTLE_WALL_STARTS,
     N(CASTLE_WALL_FOOD), 2, CASTLE_WALL_FOOD, N(CASTLE_WALL_HZ), CASTLE_WALL_HZ},
    {MAP_HZ_CASTLE_WALL_LG, LAYOUT_CASTLE, 19, 19, 8, 2, 4, CASTLE_WALL_LG_STARTS,
     N(CASTLE_WALL_LG_FOOD), 2, CASTLE_WALL_LG_FOOD, N(CASTLE_WALL_LG_HZ), CASTLE_WALL_LG_HZ},
    {MAP_HZ_CASTLE_WALL_XL, LAYOUT_CASTLE, 25, 25, 12, 3, 4, CASTLE_WALL_XL_STARTS,
     N(CASTLE_WALL_XL_FOOD), 4, CASTLE_WALL_XL_FOOD, N(CASTLE_WALL_XL_HZ), CASTLE_WALL_XL_HZ},
    {MAP_HZ_RIVERS_BRIDGES, LAYOUT_RIVERS, 11, 11, 8, 4, 2, RIVERS_BRIDGES_STARTS,
     0, 0, NULL, N(RIVERS_BRIDGES_HZ), RIVERS_BRIDGES_HZ},
    {MAP_HZ_RIVERS_BRIDGES_LG, LAYOUT_RIVERS, 19, 19, 12, 4, 4, RIVERS_BRIDGES_LG_STARTS,
     0, 0, NULL, N(RIVERS_BRIDGES_LG_HZ), RIVERS_BRIDGES_LG_HZ},
    {MAP_HZ_RIVERS_BRIDGES_XL, LAYOUT_RIVERS, 25, 25, 12, 4, 4, RIVERS_BRIDGES_XL_STARTS,
     0, 0, NULL, N(RIVERS_BRIDGES_XL_HZ), RIVERS_BRIDGES_XL_HZ},
    {MAP_HZ_ISLANDS_BRIDGES, LAYOUT_RIVERS, 11, 11, 4, 4, 2, ISLANDS_BRIDGES_STARTS,
     0, 0, NULL, N(ISLANDS_BRIDGES_HZ), ISLANDS_BRIDGES_HZ},
    {MAP_HZ_ISLANDS_BRIDGES_LG, LAYOUT_RIVERS, 19, 19, 16, 4, 4, ISLANDS_BRIDGES_LG_STARTS,
     0, 0, NULL, N(ISLANDS_BRIDGES_LG_HZ), ISLANDS_BRIDGES_LG_HZ},
};
#undef N

static const fixed_layout *layout_of(int map) {
    for (size_t k = 0; k < sizeof LAYOUTS / sizeof LAYOUTS[0]; k++) {
        if (LAYOUTS[k].map == map) return &LAYOUTS[k];
    }
    return NULL;
}

int snakes_map_has_hazards(int map) {
    return map != MAP_STANDARD && map != MAP_EMPTY;
}

static int sinkhole_rings(const snakes_cfg *cfg) {
    return cfg->width == 7 ? 3 : cfg->width == 19 ? 7 : 5;
}

int snakes_map_check(const snakes_cfg *cfg) {
    const int W = cfg->width, H = cfg->height, n = cfg->snakes;
    const char *name = snakes_map_names[cfg->map];
    const fixed_layout *lay = layout_of(cfg->map);
    if (lay) {
        if (W != lay->width || H != lay->height)
            return sbx_fail(SBX_ERR_ARGUMENT, "map: %s is played on %dx%d only (not %dx%d)",
                            name, lay->width, lay->height, W, H);
        if (n > lay->max_snakes)
            return sbx_fail(SBX_ERR_ARGUMENT, "map: %s seats 1..%d snakes", name,
                            lay->max_snakes);
    }
    switch (cfg->map) {
    case MAP_ARCADE_MAZE:
        if (W != 19 || H != 21)
            return sbx_fail(SBX_ERR_ARGUMENT, "map: %s is played on 19x21 only (not %dx%d)",
                            name, W, H);
        if (n > 6) return sbx_fail(SBX_ERR_ARGUMENT, "map: %s seats 1..6 snakes", name);
        break;
    case MAP_HEALING_POOLS:
        if (!(W == H && (W == 7 || W == 11 || W == 19)))
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "map: %s is played on 7x7, 11x11 or 19x19 (not %dx%d)", name, W, H);
        break;
    case MAP_HZ_HAZARD_PITS:
        if (W != 11 || H != 11)
            return sbx_fail(SBX_ERR_ARGUMENT, "map: %s is played on 11x11 only (not %dx%d)",
                            name, W, H);
        if (n > 4) return sbx_fail(SBX_ERR_ARGUMENT, "map: %s seats 1..4 snakes", name);
        break;
    case MAP_SINKHOLES: {
        int r = sinkhole_rings(cfg);
        if (W / 2 < r || W / 2 + r > W - 1 || H / 2 < r || H / 2 + r > H - 1)
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "map: %s's sinkhole (%d rings) does not fit a %dx%d board",
                            name, r, W, H);
        break;
    }
    case MAP_HZ_EXPAND_BOX:
    case MAP_HZ_EXPAND_SCATTER:
        if (W != H)
            return sbx_fail(SBX_ERR_ARGUMENT, "map: %s is played on square boards (not %dx%d)",
                            name, W, H);
        break;
    case MAP_HZ_RINGS:
        for (int o = 2; o < W / 2; o += 2) {
            if (o >= H - 1)
                return sbx_fail(SBX_ERR_ARGUMENT, "map: %s's rings do not fit a %dx%d board",
                                name, W, H);
        }
        break;
    default:
        break;
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ hazards */

void snakes_hz_set(const snakes_cfg *cfg, snakes_state *st, int cell, int stack) {
    uint8_t *hz = HZ(cfg, st);
    if (stack > HZ_MAX_STACK) stack = HZ_MAX_STACK;
    if (stack < 0) stack = 0;
    st->hazard_cells += (int16_t)((stack != 0) - (hz[cell] != 0));
    hz[cell] = (uint8_t)stack;
}

static void hz_add(const snakes_cfg *cfg, snakes_state *st, int x, int y) {
    if (x < 0 || y < 0 || x >= cfg->width || y >= cfg->height) return;
    int c = y * cfg->width + x;
    snakes_hz_set(cfg, st, c, HZ(cfg, st)[c] + 1);
}

static void hz_clear(const snakes_cfg *cfg, snakes_state *st) {
    memset(HZ(cfg, st), 0, (size_t)cfg->ncells);
    st->hazard_cells = 0;
}

/* A ring `offset` cells in from the edges (the official drawRing): rows
 * offset-1 and H-offset, columns offset-1 and W-offset, between them. */
static void hz_ring(const snakes_cfg *cfg, snakes_state *st, int offset) {
    int x0 = offset - 1, x1 = cfg->width - offset, y0 = offset - 1, y1 = cfg->height - offset;
    for (int x = x0; x <= x1; x++) {
        hz_add(cfg, st, x, y0);
        hz_add(cfg, st, x, y1);
    }
    for (int y = y0 + 1; y <= y1 - 1; y++) {
        hz_add(cfg, st, x0, y);
        hz_add(cfg, st, x1, y);
    }
}

/* Every cell at Chebyshev distance `offset` from (sx, sy), on the board. */
static void hz_square(const snakes_cfg *cfg, snakes_state *st, int sx, int sy, int offset) {
    for (int x = sx - offset; x <= sx + offset; x++) {
        for (int y = sy - offset; y <= sy + offset; y++) {
            if (abs(x - sx) == offset || abs(y - sy) == offset) hz_add(cfg, st, x, y);
        }
    }
}

/* One side of the royale safe zone moves in (left, right, bottom or top,
 * drawn evenly): the strip it leaves becomes one hazard layer (only the
 * strip: everything outside the zone is hazard already). Once the zone is
 * empty the board is all hazard and stays so. */
static void royale_shrink(const snakes_cfg *cfg, snakes_state *st) {
    int16_t *m = st->mapw;
    if (m[0] > m[1] || m[2] > m[3]) return;
    int side = (int)sbx_rng_below(&st->rng, 4);
    int vertical = side < 2, at = side == 0 ? m[0]++ : side == 1 ? m[1]-- :
                                  side == 2 ? m[2]++ : m[3]--;
    int lo = vertical ? m[2] : m[0], hi = vertical ? m[3] : m[1];
    for (int k = lo; k <= hi; k++) {
        int c = vertical ? k * cfg->width + at : at * cfg->width + k;
        if (!HZ(cfg, st)[c]) snakes_hz_set(cfg, st, c, 1);
    }
}

/* hz_spiral: the k-th cell (k >= 1) of the clockwise spiral around (sx, sy):
 * ring r (r = 0, 1, ...) holds 8(r+1) cells, starting just right of its
 * top-left corner and going right, down, left, then up to that corner. */
static void spiral_cell(int sx, int sy, int k, int *x, int *y) {
    int r = 0;
    while (4 * (r + 1) * (r + 2) < k) r++;
    int o = r + 1, j = k - 1 - 4 * r * (r + 1);
    if (j < 2 * o) {
        *x = sx - o + 1 + j;
        *y = sy + o;
    } else if (j < 4 * o) {
        *x = sx + o;
        *y = sy + o - (j - 2 * o + 1);
    } else if (j < 6 * o) {
        *x = sx + o - (j - 4 * o + 1);
        *y = sy - o;
    } else {
        *x = sx - o;
        *y = sy - o + (j - 6 * o + 1);
    }
}

static int max4(int a, int b, int c, int d) {
    int m = a > b ? a : b;
    m = m > c ? m : c;
    return m > d ? m : d;
}

/* A uniformly drawn cell among those `ok` accepts; -1 if none. */
static int draw_cell(const snakes_cfg *cfg, snakes_state *st,
                     int (*ok)(const snakes_cfg *, const snakes_state *, int, const void *),
                     const void *arg) {
    int count = 0;
    for (int c = 0; c < cfg->ncells; c++) count += ok(cfg, st, c, arg);
    if (count == 0) return -1;
    int k = (int)sbx_rng_below(&st->rng, (uint32_t)count);
    for (int c = 0; c < cfg->ncells; c++) {
        if (ok(cfg, st, c, arg) && k-- == 0) return c;
    }
    return -1;
}

static int no_hazard(const snakes_cfg *cfg, const snakes_state *st, int c, const void *arg) {
    (void)arg;
    return HZ(cfg, st)[c] == 0;
}

/* hz_expand_scatter: a cell of ring `*(int *)arg` around the origin that
 * has no hazard yet. */
static int ring_free(const snakes_cfg *cfg, const snakes_state *st, int c, const void *arg) {
    int o = *(const int *)arg, x = c % cfg->width, y = c / cfg->width;
    int d = abs(x - st->mapw[0]) > abs(y - st->mapw[1]) ? abs(x - st->mapw[0])
                                                        : abs(y - st->mapw[1]);
    return d == o && HZ(cfg, st)[c] == 0;
}

/* Cells of the ring at distance o around (sx, sy) on the board. */
static int ring_size(const snakes_cfg *cfg, int sx, int sy, int o) {
    int n = 0;
    for (int x = sx - o; x <= sx + o; x++) {
        for (int y = sy - o; y <= sy + o; y++) {
            if ((abs(x - sx) == o || abs(y - sy) == o) && x >= 0 && y >= 0 &&
                x < cfg->width && y < cfg->height)
                n++;
        }
    }
    return n;
}

static int hazard_layers(const snakes_cfg *cfg, const snakes_state *st) {
    int n = 0;
    for (int c = 0; c < cfg->ncells; c++) n += HZ(cfg, st)[c];
    return n;
}

/* ------------------------------------------------------------ setup */

static void shuffle_xy(snakes_state *st, int (*xy)[2], int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sbx_rng_below(&st->rng, (uint32_t)(i + 1));
        int t0 = xy[i][0], t1 = xy[i][1];
        xy[i][0] = xy[j][0];
        xy[i][1] = xy[j][1];
        xy[j][0] = t0;
        xy[j][1] = t1;
    }
}

static void pits_paint(const snakes_cfg *cfg, snakes_state *st, int layers) {
    hz_clear(cfg, st);
    for (int x = 1; x < cfg->width; x += 2) {
        for (int y = 1; y < cfg->height; y += 2) {
            int start = 0;
            for (int k = 0; k < 4; k++) start |= PITS_STARTS[k][0] == x && PITS_STARTS[k][1] == y;
            if (!start && layers) snakes_hz_set(cfg, st, y * cfg->width + x, layers);
        }
    }
}

static void layout_setup(const snakes_cfg *cfg, snakes_state *st, const fixed_layout *lay) {
    int xy[16][2];
    if (lay->kind == LAYOUT_CASTLE) {
        int groups = cfg->snakes > 8 ? 3 : cfg->snakes >= 5 ? 2 : 1;
        int n = groups * lay->group_size;
        memcpy(xy, lay->starts, sizeof(int[2]) * (size_t)n);
        shuffle_xy(st, xy, n);
        snakes_place_at(cfg, st, (const int(*)[2])xy);
        for (int k = 0; k < lay->nhz; k++) hz_add(cfg, st, lay->hz[k][0], lay->hz[k][1]);
        return;
    }
    /* quadrants: dealt round from a random one, a random spot of each */
    int left[4], spot[4][4][2];
    for (int q = 0; q < 4; q++) {
        left[q] = lay->group_size;
        memcpy(spot[q], lay->starts + q * lay->group_size,
               sizeof(int[2]) * (size_t)lay->group_size);
    }
    int q = (int)sbx_rng_below(&st->rng, 4);
    for (int i = 0; i < cfg->snakes; i++) {
        int k = (int)sbx_rng_below(&st->rng, (uint32_t)left[q]);
        xy[i][0] = spot[q][k][0];
        xy[i][1] = spot[q][k][1];
        left[q]--;
        spot[q][k][0] = spot[q][left[q]][0];
        spot[q][k][1] = spot[q][left[q]][1];
        q = (q + 1) % 4;
    }
    snakes_place_at(cfg, st, (const int(*)[2])xy);
    for (int k = 0; k < lay->nhz; k++) hz_add(cfg, st, lay->hz[k][0], lay->hz[k][1]);
    if (cfg->initial_food) snakes_food_fixed(cfg, st, 1);
}

void snakes_map_setup(const snakes_cfg *cfg, snakes_state *st) {
    const int W = cfg->width, H = cfg->height;
    int16_t *m = st->mapw;
    int xy[8][2];
    const fixed_layout *lay = layout_of(cfg->map);
    if (lay) {
        layout_setup(cfg, st, lay);
        return;
    }
    switch (cfg->map) {
    case MAP_HZ_HAZARD_PITS:
        memcpy(xy, PITS_STARTS, sizeof PITS_STARTS);
        shuffle_xy(st, xy, 4);
        snakes_place_at(cfg, st, (const int(*)[2])xy);
        if (cfg->initial_food) snakes_food_fixed(cfg, st, 0);
        break;
    case MAP_ARCADE_MAZE:
        memcpy(xy, ARCADE_STARTS, sizeof ARCADE_STARTS);
        shuffle_xy(st, xy, 4); /* the last two are always last */
        snakes_place_at(cfg, st, (const int(*)[2])xy);
        for (int r = 0; r < 21; r++) {
            for (int x = 0; x < 19; x++) {
                if (ARCADE_ROWS[r][x] == '#') hz_add(cfg, st, x, 20 - r);
            }
        }
        if (cfg->initial_food && cfg->minimum_food > 0) snakes_food_add(cfg, st, 11 * W + 9);
        break;
    case MAP_EMPTY:
        snakes_place_fixed(cfg, st);
        break;
    default:
        snakes_place_fixed(cfg, st);
        if (cfg->initial_food) snakes_food_fixed(cfg, st, 0);
        break;
    }
    switch (cfg->map) {
    case MAP_HZ_INNER_WALL:
        hz_ring(cfg, st, 2);
        break;
    case MAP_HZ_RINGS:
        for (int o = 2; o < W / 2; o += 2) hz_ring(cfg, st, o);
        break;
    case MAP_HZ_COLUMNS:
        for (int x = 1; x < W; x += 2) {
            for (int y = 1; y < H; y += 2) hz_add(cfg, st, x, y);
        }
        break;
    case MAP_HEALING_POOLS: {
        const int(*opt)[4][2] = W == 7 ? POOLS_7 : W == 11 ? POOLS_11 : POOLS_19;
        int nopt = W == 7 ? 1 : W == 11 ? 4 : 2;
        const int(*pools)[2] = opt[sbx_rng_below(&st->rng, (uint32_t)nopt)];
        for (int k = 0; k < 4 && pools[k][0] >= 0; k++) hz_add(cfg, st, pools[k][0], pools[k][1]);
        break;
    }
    case MAP_HZ_SPIRAL:
    case MAP_HZ_EXPAND_BOX:
    case MAP_HZ_EXPAND_SCATTER:
        m[0] = m[1] = -1;
        break;
    case MAP_HZ_GROW_BOX:
        m[0] = m[1] = m[2] = m[3] = -1;
        break;
    default:
        break;
    }
    if (cfg->shrinks) {
        m[0] = 0;
        m[1] = (int16_t)(W - 1);
        m[2] = 0;
        m[3] = (int16_t)(H - 1);
    }
}

int snakes_map_check_words(const snakes_cfg *cfg, const int16_t *m) {
    const int W = cfg->width, H = cfg->height;
    if (cfg->shrinks) {
        if (m[0] < 0 || m[1] >= W || m[2] < 0 || m[3] >= H)
            return sbx_fail(SBX_ERR_ARGUMENT, "import: royale zone x %d..%d y %d..%d "
                            "reaches off the board", m[0], m[1], m[2], m[3]);
        return SBX_OK;
    }
    switch (cfg->map) {
    case MAP_HZ_SPIRAL:
    case MAP_HZ_EXPAND_BOX:
    case MAP_HZ_EXPAND_SCATTER:
        if (!((m[0] == -1 && m[1] == -1) || (m[0] >= 0 && m[0] < W && m[1] >= 0 && m[1] < H)) ||
            m[2] || m[3])
            return sbx_fail(SBX_ERR_ARGUMENT, "import: map origin (%d,%d) is neither unset "
                            "(-1,-1) nor on the board", m[0], m[1]);
        break;
    case MAP_HZ_GROW_BOX:
        if (!((m[0] == -1 && m[1] == -1 && m[2] == -1 && m[3] == -1) ||
              (0 <= m[0] && m[0] <= m[1] && m[1] < W && 0 <= m[2] && m[2] <= m[3] && m[3] < H)))
            return sbx_fail(SBX_ERR_ARGUMENT, "import: grow box x %d..%d y %d..%d is neither "
                            "unset nor on the board", m[0], m[1], m[2], m[3]);
        break;
    default:
        if (m[0] || m[1] || m[2] || m[3])
            return sbx_fail(SBX_ERR_ARGUMENT, "import: map %s keeps no map words (got %d %d "
                            "%d %d)", snakes_map_names[cfg->map], m[0], m[1], m[2], m[3]);
        break;
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ each turn */

/* arcade_maze's food: with probability (chance + 1)% one food on a free
 * spot of its twelve (no food, no snake's body, dead snakes' included). */
static void arcade_food(const snakes_cfg *cfg, snakes_state *st) {
    if (cfg->food_spawn_chance == 0 ||
        (int)sbx_rng_below(&st->rng, 100) > cfg->food_spawn_chance)
        return;
    int free_spots[12], nf = 0;
    const uint8_t *cells = CELLS(cfg, st);
    for (int k = 0; k < 12; k++) {
        int c = ARCADE_FOOD[k][1] * cfg->width + ARCADE_FOOD[k][0];
        int taken = (cells[c] & FOOD_BIT) != 0;
        for (int i = 0; i < cfg->snakes && !taken; i++) {
            const snake *s = &st->s[i];
            const uint16_t *ring = RING(cfg, st, i);
            for (unsigned j = 0; j < s->length && !taken; j++)
                taken = ring[(s->head + j) & ((unsigned)cfg->ring_cap - 1)] == c;
        }
        if (!taken) free_spots[nf++] = c;
    }
    if (nf) snakes_food_add(cfg, st, free_spots[sbx_rng_below(&st->rng, (uint32_t)nf)]);
}

/* A castle's food spot is free: no snake's body on it, no snake's head
 * next to it (eliminated snakes' too, as they lie), no food on it or next
 * to it. */
static int castle_spot_free(const snakes_cfg *cfg, const snakes_state *st, int x, int y) {
    const unsigned mask = (unsigned)cfg->ring_cap - 1;
    const int c = y * cfg->width + x;
    for (int i = 0; i < cfg->snakes; i++) {
        const snake *s = &st->s[i];
        if (abs(s->hx - x) + abs(s->hy - y) <= 1) return 0;
        const uint16_t *ring = RING(cfg, st, i);
        for (unsigned j = 1; j < s->length; j++) {
            if (ring[(s->head + j) & mask] == c) return 0;
        }
    }
    const uint16_t *fl = FOODL(cfg, st);
    for (int k = 0; k < st->food_count; k++) {
        int fx = fl[k] % cfg->width, fy = fl[k] / cfg->width;
        if (abs(fx - x) + abs(fy - y) <= 1) return 0;
    }
    return 1;
}

static void castle_food(const snakes_cfg *cfg, snakes_state *st, const fixed_layout *lay,
                        int last) {
    if (last < 10 || st->food_count == lay->max_food) return;
    int free_spots[32], nf = 0;
    for (int k = 0; k < lay->nfood; k++) {
        if (castle_spot_free(cfg, st, lay->food[k][0], lay->food[k][1])) free_spots[nf++] = k;
    }
    if (!nf) return;
    int k = free_spots[sbx_rng_below(&st->rng, (uint32_t)nf)];
    snakes_food_add(cfg, st, lay->food[k][1] * cfg->width + lay->food[k][0]);
}

void snakes_map_update(const snakes_cfg *cfg, snakes_state *st, int turn) {
    const int W = cfg->width, H = cfg->height, every = cfg->shrink_every;
    const int last = turn - 1; /* the official maps' "last board's turn" */
    int16_t *m = st->mapw;
    const fixed_layout *lay = layout_of(cfg->map);
    if (lay) {   /* fixed walls: only food */
        if (lay->kind == LAYOUT_CASTLE) castle_food(cfg, st, lay, last);
        else snakes_standard_food(cfg, st, 1);
        return;
    }
    if (cfg->shrinks && turn >= every && turn % every == 0) royale_shrink(cfg, st);
    if (cfg->map == MAP_ARCADE_MAZE) arcade_food(cfg, st);
    else if (cfg->map != MAP_EMPTY) snakes_standard_food(cfg, st, 0);
    switch (cfg->map) {
    case MAP_HZ_SPIRAL:
        if (turn < 3 || turn % 3) break;
        if (turn == 3) {
            int ox = W * 3 / 10, oy = H * 3 / 10;
            m[0] = (int16_t)(ox + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 2 * ox)));
            m[1] = (int16_t)(oy + (int)sbx_rng_below(&st->rng, (uint32_t)(H - 2 * oy)));
            hz_add(cfg, st, m[0], m[1]);
        } else if (m[0] >= 0) {
            int k = turn / 3 - 1, x, y;
            int rings = max4(m[0], m[1], W - m[0], H - m[1]);
            if (k <= 4 * rings * (rings + 1)) {
                spiral_cell(m[0], m[1], k, &x, &y);
                hz_add(cfg, st, x, y);
            }
        }
        break;
    case MAP_HZ_SCATTER:
        if (turn >= 2 && turn % 2 == 0) {
            int c = draw_cell(cfg, st, no_hazard, NULL);
            if (c >= 0) hz_add(cfg, st, c % W, c / W);
        }
        break;
    case MAP_HZ_GROW_BOX:
        if ((turn - 1) % 12 || st->hazard_cells == cfg->ncells) break;
        if (turn == 1) {
            m[0] = m[1] = (int16_t)(2 + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 3)));
            m[2] = m[3] = (int16_t)(2 + (int)sbx_rng_below(&st->rng, (uint32_t)(H - 3)));
            hz_add(cfg, st, m[0], m[2]);
        } else if (m[0] >= 0) {
            int dirs[4], nd = 0; /* 0 left, 1 up, 2 right, 3 down */
            if (m[0] > 0) dirs[nd++] = 0;
            if (m[3] < H - 1) dirs[nd++] = 1;
            if (m[1] < W - 1) dirs[nd++] = 2;
            if (m[2] > 0) dirs[nd++] = 3;
            if (!nd) break;
            switch (dirs[sbx_rng_below(&st->rng, (uint32_t)nd)]) {
            case 0: m[0]--; for (int y = m[2]; y <= m[3]; y++) hz_add(cfg, st, m[0], y); break;
            case 1: m[3]++; for (int x = m[0]; x <= m[1]; x++) hz_add(cfg, st, x, m[3]); break;
            case 2: m[1]++; for (int y = m[2]; y <= m[3]; y++) hz_add(cfg, st, m[1], y); break;
            default: m[2]--; for (int x = m[0]; x <= m[1]; x++) hz_add(cfg, st, x, m[2]); break;
            }
        }
        break;
    case MAP_HZ_EXPAND_BOX:
        if ((turn - 1) % 20 || st->hazard_cells == cfg->ncells) break;
        if (turn == 1) {
            m[0] = (int16_t)(2 + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 3)));
            m[1] = (int16_t)(2 + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 3)));
            hz_add(cfg, st, m[0], m[1]);
        } else if (m[0] >= 0 && turn / 20 <= max4(m[0], m[1], W - m[0], H - m[1])) {
            hz_square(cfg, st, m[0], m[1], turn / 20);
        }
        break;
    case MAP_HZ_EXPAND_SCATTER:
        if ((turn - 1) % 2 || st->hazard_cells == cfg->ncells) break;
        if (turn == 1) {
            m[0] = (int16_t)(1 + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 1)));
            m[1] = (int16_t)(1 + (int)sbx_rng_below(&st->rng, (uint32_t)(W - 1)));
            hz_add(cfg, st, m[0], m[1]);
        } else if (m[0] >= 0) {
            /* the k-th cell of the rings around the origin, inner ring
             * first, each ring in random order */
            int k = turn / 2 - 1, rings = max4(m[0], m[1], W - m[0], H - m[1]);
            for (int o = 1; o <= rings; o++) {
                int n = ring_size(cfg, m[0], m[1], o);
                if (k < n) {
                    int c = draw_cell(cfg, st, ring_free, &o);
                    if (c >= 0) hz_add(cfg, st, c % W, c / W);
                    break;
                }
                k -= n;
            }
        }
        break;
    case MAP_HZ_HAZARD_PITS:
        if (last % every == 0) {
            int layers = (last / every) % 7;
            pits_paint(cfg, st, layers > 4 ? 4 : layers);
        }
        break;
    case MAP_HEALING_POOLS:
        if (last > 0 && last % every == 0 && st->hazard_cells) {
            /* one pool dries up: drawn over the layers, all of its cell goes */
            int k = (int)sbx_rng_below(&st->rng, (uint32_t)hazard_layers(cfg, st));
            for (int c = 0; c < cfg->ncells; c++) {
                k -= HZ(cfg, st)[c];
                if (k < 0) {
                    snakes_hz_set(cfg, st, c, 0);
                    break;
                }
            }
        }
        break;
    case MAP_SNAIL_MODE: {
        /* every layer wears off by one; the tails left last turn become
         * that many layers (the snake's length then), but not under a live
         * head; then each live snake whose tail is not doubled leaves its
         * tail for the next turn */
        uint8_t *hz = HZ(cfg, st), *pend = PEND(cfg, st);
        for (int c = 0; c < cfg->ncells; c++) {
            int k = hz[c] ? hz[c] - 1 : 0;
            if (pend[c]) {
                int head = 0;
                for (int i = 0; i < cfg->snakes; i++) {
                    const snake *s = &st->s[i];
                    head |= s->alive && s->hy * W + s->hx == c;
                }
                if (!head) k += pend[c];
                pend[c] = 0;
            }
            snakes_hz_set(cfg, st, c, k);
        }
        const unsigned mask = (unsigned)cfg->ring_cap - 1;
        for (int i = 0; i < cfg->snakes; i++) {
            const snake *s = &st->s[i];
            if (!s->alive || s->length < 2) continue;
            const uint16_t *ring = RING(cfg, st, i);
            uint16_t tail = ring[(s->head + s->length - 1) & mask];
            if (ring[(s->head + s->length - 2) & mask] == tail) continue;
            int k = pend[tail] + s->length;
            pend[tail] = (uint8_t)(k > HZ_MAX_STACK ? HZ_MAX_STACK : k);
        }
        break;
    }
    case MAP_SINKHOLES: {
        int cx = W / 2, cy = H / 2, rings = sinkhole_rings(cfg);
        if (last == 1) {
            hz_add(cfg, st, cx, cy);
        } else if (last > 1 && last <= every * rings && (last - 1) % every == 0) {
            int o = (last - 1) / every;
            for (int x = cx - o; x <= cx + o; x++) {
                for (int y = cy - o; y <= cy + o; y++) {
                    if (abs(x - cx) == o && abs(y - cy) == o) continue; /* rounded */
                    hz_add(cfg, st, x, y);
                }
            }
        }
        break;
    }
    default:
        break;
    }
}
