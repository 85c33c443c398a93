/*
 * maze.c — the `maze` game (docs/games.md, Maze, modelled on PyRat): explorers in a
 * walled grid with mud collect cheese, 2-4 players, simultaneous moves.
 *
 * Storage:
 *   cfg   — the whole layout: per cell and direction the passage cost
 *           (0 wall or off the grid, 1 open, N >= 2 mud costing N turns),
 *           the initial cheese cells, sizes, the turn limit. The layout is
 *           made once at configure (generated from maze_seed, or given by
 *           width/height/row<y> tokens, which the Python plugin writes from
 *           a maze file), so every state of one game shares it and a clone
 *           copies only the small state.
 *   state — turn, cheese left, per player cell / stuck counter / score (in
 *           twelfths, so 1/2, 1/3 and 1/4 shares stay exact integers), the
 *           Zobrist key, then the remaining-cheese bitset (one bit a cell,
 *           ceil(cells/64) words: state_size depends on the cfg).
 *
 * Coordinates: cell = y*W + x, x to the right, y upwards ("up" is y+1).
 * Mud: a move through a passage of cost N arrives at once and leaves the
 * player stuck for N-1 turns (stay is then its only move); a player collects
 * cheese only when it is not stuck, so cheese at the far end of mud is taken
 * when the counter reaches 0 (N turns in total, as in PyRat).
 *
 * Hash (the state key of docs/games.md, Maze, for graph search): Zobrist over player
 * cells, remaining cheese, non-zero stuck counters, the turn and non-zero
 * scores. The scores are in the key because they are not history: the end
 * condition (more than half the cheese) and the evaluation read them, so two
 * states that differ only in how the cheese was split so far have different
 * futures and must not share a graph node (MCGS merged them before). Key number
 * i is the i-th output of splitmix64 seeded with MAZE_ZOBRIST_SEED, which is
 * random access (mix(seed + (i+1)*gamma)), so there is no table and a Python
 * oracle recomputes it from the export. step updates the key incrementally.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"

#define MAX_PLAYERS 4
#define MAX_SIDE 64
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define MAX_TURNS 100000
#define MAX_COST 9
enum { UP = 0, DOWN = 1, LEFT = 2, RIGHT = 3, STAY = 4 };

static const char *const MOVE_NAMES[5] = {"up", "down", "left", "right", "stay"};
static const char *const SIZE_NAMES[5] = {"tiny", "small", "medium", "large", "huge"};
static const int PRESET_W[5] = {11, 15, 21, 31, 41};
static const int PRESET_H[5] = {9, 13, 15, 21, 31};
static const int PRESET_CHEESE[5] = {13, 21, 41, 85, 165};
static const int PRESET_TURNS[5] = {150, 200, 300, 400, 500};

/* Zobrist key numbering (see the header comment; mirrored in tests). */
#define MAZE_ZOBRIST_SEED 0x6D617A655A6F6272ULL /* "mazeZobr" */
#define ZK_POS(p, c) ((uint64_t)(p) * MAX_CELLS + (uint64_t)(c))
#define ZK_CHEESE(c) ((uint64_t)MAX_PLAYERS * MAX_CELLS + (uint64_t)(c))
#define ZK_STUCK(p, v) ((uint64_t)(MAX_PLAYERS + 1) * MAX_CELLS + (uint64_t)(p) * 16 + (v))
#define ZK_TURN(t) ((uint64_t)(MAX_PLAYERS + 1) * MAX_CELLS + 64 + (uint64_t)(t))
#define ZK_SCORE(p, s)                                                     \
    ((uint64_t)(MAX_PLAYERS + 1) * MAX_CELLS + 64 + MAX_TURNS + 1 +          \
     (uint64_t)(p) * (12 * MAX_CELLS + 1) + (uint64_t)(s))

static inline uint64_t zkey(uint64_t i) {
    uint64_t z = MAZE_ZOBRIST_SEED + (i + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct maze_cfg {
    /* parameters */
    int size, players, max_turns, cheese_param, symmetric, mud_range;
    int given; /* 1: layout from width/height/row tokens */
    int64_t maze_seed;
    double wall_density, mud_density, w_expected, claim_decay;
    /* layout */
    int W, H, cells, words, cheese_total;
    uint8_t cost[MAX_CELLS][4];   /* by move direction; 0 = no passage */
    uint8_t cheese0[MAX_CELLS];   /* initial cheese */
    int16_t start[MAX_PLAYERS];
    uint8_t rows_seen[MAX_SIDE];  /* parsing only */
} maze_cfg;

typedef struct maze_state {
    uint64_t hash;
    int32_t turn, left;
    int32_t score12[MAX_PLAYERS];
    int16_t pos[MAX_PLAYERS];
    uint8_t stuck[MAX_PLAYERS];
    uint64_t cheese[]; /* cfg->words words */
} maze_state;

static inline int has_cheese(const maze_state *st, int c) {
    return (int)(st->cheese[c >> 6] >> (c & 63) & 1u);
}

/* ------------------------------------------------------------ parameters */

static const char PARAMS_DOC[] =
    "size=medium        tiny 11x9, 13 cheese, 150 turns | small 15x13, 21, 200 |\n"
    "                   medium 21x15, 41, 300 | large 31x21, 85, 400 |\n"
    "                   huge 41x31, 165, 500\n"
    "players=2          2..4; starts (0,0), (W-1,H-1), (W-1,0), (0,H-1)\n"
    "maze_seed=1        0..2^62, the generator's seed (the layout is part of the\n"
    "                   parameters: every game with them plays the same maze)\n"
    "wall_density=0.7   0..1; each cell opens a passage right and up with\n"
    "                   probability 1 - wall_density\n"
    "mud_density=0.1    0..1, chance that a passage is mud\n"
    "mud_range=3        2..9, mud costs are uniform in 2..mud_range turns\n"
    "symmetric=1        0|1, mirror passages by 180-degree rotation\n"
    "cheese=0           0 = the preset's count; else 1..cells-4 (mirrored\n"
    "                   pairs plus the centre when odd; never on a corner)\n"
    "max_turns=0        0 = the preset's limit; else 1..100000\n"
    "w_expected=1       0..1, weight of the claimed cheese in the evaluation\n"
    "claim_decay=1      0..1, a claimed cheese d turns away counts\n"
    "                   claim_decay^d (1: distance does not matter)\n"
    "Given layout (the plugin writes it from a maze file): width=W height=H\n"
    "(2..64) and row<y>=... for y = 0..H-1, 3 characters a cell, x = 0..W-1:\n"
    "right passage, up passage ('0' wall, '1' open, '2'..'9' mud cost), then\n"
    "'c' cheese or '.'; the generator's keys are then ignored. The maze must\n"
    "be connected, hold cheese, none on a start corner.\n"
    "Moves: up (y+1), down, left, right, stay; into a wall or off the grid is\n"
    "a stay. Mud N: arrive at once, stuck N-1 turns (only stay), no cheese\n"
    "while stuck. k players on a cheese able to act share it 1/k each.\n"
    "End: a player holds more than half the cheese, none is left, or the turn\n"
    "limit. Score and reward: cheese collected.\n"
    "Evaluation (the search's leaf score): at the end the scores; otherwise\n"
    "score_i + w_expected * (sum over the remaining cheese of i's claim x\n"
    "claim_decay^d): a cheese is claimed by the players with the smallest\n"
    "d = stuck + BFS distance (in moves, mud counted as its cost), shared\n"
    "equally when tied. With claim_decay = 1 a claimed cheese is worth as\n"
    "much as a held one, so a search with a fixed horizon loses the reason to\n"
    "fetch it now rather than later and can put it off for ever.\n";

static int set_param(void *ctx, const char *key, const char *value) {
    maze_cfg *c = ctx;
    if (strcmp(key, "size") == 0) {
        for (int i = 0; i < 5; i++) {
            if (strcmp(value, SIZE_NAMES[i]) == 0) {
                c->size = i;
                return SBX_OK;
            }
        }
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "size: '%s' is not one of tiny|small|medium|large|huge",
                        value);
    }
    if (strcmp(key, "players") == 0) return sbx_kv_int(key, value, 2, MAX_PLAYERS, &c->players);
    if (strcmp(key, "maze_seed") == 0) {
        char *end = NULL;
        long long v = strtoll(value, &end, 10);
        if (!end || *end || v < 0 || v > (1LL << 62)) {
            return sbx_fail(SBX_ERR_ARGUMENT, "maze_seed: '%s' is not an integer "
                            "in 0..2^62", value);
        }
        c->maze_seed = v;
        return SBX_OK;
    }
    if (strcmp(key, "wall_density") == 0) return sbx_kv_double(key, value, 0, 1, &c->wall_density);
    if (strcmp(key, "mud_density") == 0) return sbx_kv_double(key, value, 0, 1, &c->mud_density);
    if (strcmp(key, "mud_range") == 0) return sbx_kv_int(key, value, 2, MAX_COST, &c->mud_range);
    if (strcmp(key, "symmetric") == 0) return sbx_kv_int(key, value, 0, 1, &c->symmetric);
    if (strcmp(key, "cheese") == 0) return sbx_kv_int(key, value, 0, MAX_CELLS, &c->cheese_param);
    if (strcmp(key, "max_turns") == 0) return sbx_kv_int(key, value, 0, MAX_TURNS, &c->max_turns);
    if (strcmp(key, "w_expected") == 0) return sbx_kv_double(key, value, 0, 1, &c->w_expected);
    if (strcmp(key, "claim_decay") == 0) return sbx_kv_double(key, value, 0, 1, &c->claim_decay);
    if ((strcmp(key, "width") == 0 || strcmp(key, "height") == 0) &&
        memchr(c->rows_seen, 1, sizeof c->rows_seen)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: must come before the rows", key);
    }
    if (strcmp(key, "width") == 0) {
        c->given = 1;
        return sbx_kv_int(key, value, 2, MAX_SIDE, &c->W);
    }
    if (strcmp(key, "height") == 0) {
        c->given = 1;
        return sbx_kv_int(key, value, 2, MAX_SIDE, &c->H);
    }
    if (strncmp(key, "row", 3) == 0 && key[3]) {
        char *end = NULL;
        long y = strtol(key + 3, &end, 10);
        if (!end || *end || y < 0 || y >= MAX_SIDE) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: row number out of range 0..%d",
                            key, MAX_SIDE - 1);
        }
        if (c->W < 2 || c->H < 2) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: width and height must come "
                            "before the rows", key);
        }
        if (y >= c->H) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: the maze has %d rows", key, c->H);
        }
        if ((int)strlen(value) != 3 * c->W) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: %d characters, want 3 a cell "
                            "= %d", key, (int)strlen(value), 3 * c->W);
        }
        if (c->rows_seen[y]) return sbx_fail(SBX_ERR_ARGUMENT, "%s: given twice", key);
        c->rows_seen[y] = 1;
        for (int x = 0; x < c->W; x++) {
            const char r = value[3 * x], u = value[3 * x + 1], ch = value[3 * x + 2];
            if (r < '0' || r > '9' || u < '0' || u > '9' || (ch != 'c' && ch != '.')) {
                return sbx_fail(SBX_ERR_ARGUMENT, "%s: cell x=%d '%.3s' is not "
                                "<right 0-9><up 0-9><c|.>", key, x, value + 3 * x);
            }
            if ((x == c->W - 1 && r != '0') || (y == c->H - 1 && u != '0')) {
                return sbx_fail(SBX_ERR_ARGUMENT, "%s: cell x=%d opens a passage "
                                "off the grid", key, x);
            }
            const int cell = (int)y * c->W + x;
            c->cost[cell][RIGHT] = (uint8_t)(r - '0');
            c->cost[cell][UP] = (uint8_t)(u - '0');
            c->cheese0[cell] = ch == 'c';
        }
        return SBX_OK;
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown maze parameter '%s'", key);
}

/* Fills the reverse directions from the right/up ones. */
static void link_reverse(maze_cfg *c) {
    for (int cell = 0; cell < c->cells; cell++) {
        const int x = cell % c->W, y = cell / c->W;
        c->cost[cell][LEFT] = x > 0 ? c->cost[cell - 1][RIGHT] : 0;
        c->cost[cell][DOWN] = y > 0 ? c->cost[cell - c->W][UP] : 0;
    }
}

static inline int neighbour(const maze_cfg *c, int cell, int dir) {
    switch (dir) {
    case UP: return cell + c->W;
    case DOWN: return cell - c->W;
    case LEFT: return cell - 1;
    default: return cell + 1;
    }
}

/* Marks the cells reachable from cell 0; returns their count. */
static int flood(const maze_cfg *c, uint8_t *seen) {
    int16_t queue[MAX_CELLS];
    memset(seen, 0, (size_t)c->cells);
    int head = 0, tail = 0;
    queue[tail++] = 0;
    seen[0] = 1;
    while (head < tail) {
        const int cell = queue[head++];
        for (int d = 0; d < 4; d++) {
            if (!c->cost[cell][d]) continue;
            const int nb = neighbour(c, cell, d);
            if (!seen[nb]) {
                seen[nb] = 1;
                queue[tail++] = (int16_t)nb;
            }
        }
    }
    return tail;
}

static inline int mirror(const maze_cfg *c, int cell) { return c->cells - 1 - cell; }

/* Sets the passage (cell, dir) and, in symmetric mode, its mirror image. */
static void set_passage(maze_cfg *c, int cell, int dir, int cost) {
    const int nb = neighbour(c, cell, dir);
    const int rev = dir ^ 1; /* UP<->DOWN, LEFT<->RIGHT */
    c->cost[cell][dir] = (uint8_t)cost;
    c->cost[nb][rev] = (uint8_t)cost;
    if (c->symmetric) {
        c->cost[mirror(c, cell)][rev] = (uint8_t)cost;
        c->cost[mirror(c, nb)][dir] = (uint8_t)cost;
    }
}

static void generate(maze_cfg *c) {
    uint64_t rng = (uint64_t)c->maze_seed;
    const int W = c->W, H = c->H;
    /* Passages right and up; in symmetric mode the second of a mirrored pair
     * (the one with the larger cell id) copies the first. */
    for (int cell = 0; cell < c->cells; cell++) {
        const int x = cell % W, y = cell / W;
        for (int k = 0; k < 2; k++) {
            const int dir = k ? UP : RIGHT;
            if (dir == RIGHT ? x == W - 1 : y == H - 1) continue;
            const int nb = neighbour(c, cell, dir);
            const double open = (double)(sbx_rng_next(&rng) >> 11) * 0x1.0p-53;
            const double mud = (double)(sbx_rng_next(&rng) >> 11) * 0x1.0p-53;
            const int mcost = 2 + (int)sbx_rng_below(&rng, (uint32_t)(c->mud_range - 1));
            /* the mirror of passage cell->nb is mirror(nb)->mirror(cell), a
             * passage of cell mirror(nb) in the same direction */
            if (c->symmetric && mirror(c, nb) < cell) continue;
            int cost = open < 1.0 - c->wall_density ? (mud < c->mud_density ? mcost : 1) : 0;
            set_passage(c, cell, dir, cost);
        }
    }
    /* Connectivity: open a random wall on the border of the region reachable
     * from (0,0), mirrored, until every cell is reached. */
    uint8_t seen[MAX_CELLS];
    int32_t border[2 * MAX_CELLS];
    while (flood(c, seen) < c->cells) {
        int n = 0;
        for (int cell = 0; cell < c->cells; cell++) {
            if (!seen[cell]) continue;
            const int x = cell % W, y = cell / W;
            for (int d = 0; d < 4; d++) {
                if ((d == UP && y == H - 1) || (d == DOWN && y == 0) ||
                    (d == LEFT && x == 0) || (d == RIGHT && x == W - 1)) continue;
                if (!seen[neighbour(c, cell, d)]) border[n++] = cell * 4 + d;
            }
        }
        const int pick = border[sbx_rng_below(&rng, (uint32_t)n)];
        set_passage(c, pick / 4, pick % 4, 1);
    }
    /* Cheese: mirrored pairs, the centre when the count is odd. Corners are
     * never used (the start cells of 2-4 players). */
    int want = c->cheese_total;
    if (want & 1) {
        c->cheese0[c->cells / 2] = 1; /* presets have odd sides: a centre cell */
        want--;
    }
    while (want > 0) {
        const int cell = (int)sbx_rng_below(&rng, (uint32_t)c->cells);
        const int m = mirror(c, cell);
        const int x = cell % W, y = cell / W;
        const int corner = (x == 0 || x == W - 1) && (y == 0 || y == H - 1);
        if (corner || cell == m || c->cheese0[cell] || c->cheese0[m]) continue;
        c->cheese0[cell] = c->cheese0[m] = 1;
        want -= 2;
    }
}

/* The generator's parameters at their defaults (the medium preset). */
static void generator_defaults(maze_cfg *c) {
    c->size = 2;
    c->maze_seed = 1;
    c->wall_density = 0.7;
    c->mud_density = 0.1;
    c->mud_range = 3;
    c->symmetric = 1;
}

static int maze_configure(void *cfgv, const char *params) {
    maze_cfg *c = cfgv;
    memset(c, 0, sizeof *c);
    generator_defaults(c);
    c->players = 2;
    c->w_expected = 1.0;
    c->claim_decay = 1.0;
    int rc = sbx_parse_kv(params, set_param, c);
    if (rc != SBX_OK) return rc;
    if (!c->max_turns) c->max_turns = PRESET_TURNS[c->size];
    if (c->given) {
        if (c->W < 2 || c->H < 2) {
            return sbx_fail(SBX_ERR_ARGUMENT, "a given layout needs width and height");
        }
        for (int y = 0; y < c->H; y++) {
            if (!c->rows_seen[y]) {
                return sbx_fail(SBX_ERR_ARGUMENT, "row%d missing from the layout", y);
            }
        }
        c->cells = c->W * c->H;
        link_reverse(c);
        uint8_t seen[MAX_CELLS];
        if (flood(c, seen) < c->cells) {
            return sbx_fail(SBX_ERR_ARGUMENT, "the layout is not connected");
        }
        for (int i = 0; i < c->cells; i++) c->cheese_total += c->cheese0[i];
        if (c->cheese_total == 0) return sbx_fail(SBX_ERR_ARGUMENT, "the layout has no cheese");
    } else {
        c->W = PRESET_W[c->size];
        c->H = PRESET_H[c->size];
        c->cells = c->W * c->H;
        c->cheese_total = c->cheese_param ? c->cheese_param : PRESET_CHEESE[c->size];
        if (c->cheese_total > c->cells - 4) {
            return sbx_fail(SBX_ERR_ARGUMENT, "cheese: %d does not fit, the %s maze "
                            "holds at most %d", c->cheese_total, SIZE_NAMES[c->size],
                            c->cells - 4);
        }
        generate(c);
    }
    const int W = c->W, H = c->H;
    c->start[0] = 0;
    c->start[1] = (int16_t)(c->cells - 1);
    c->start[2] = (int16_t)(W - 1);
    c->start[3] = (int16_t)((H - 1) * W);
    for (int p = 0; p < MAX_PLAYERS; p++) {
        if (c->cheese0[c->start[p]] && p < c->players) {
            return sbx_fail(SBX_ERR_ARGUMENT, "cheese on the start cell of player %d", p);
        }
    }
    c->words = (c->cells + 63) / 64;
    /* Normalise what describe writes, so a game rebuilt from sbx_game_params
     * has a bytewise-equal cfg (searches compare cfgs). */
    memset(c->rows_seen, 0, sizeof c->rows_seen);
    c->cheese_param = c->cheese_total;
    if (c->given) generator_defaults(c); /* a given layout ignores them */
    return SBX_OK;
}

static void maze_describe(const void *cfgv, char *buf, size_t cap) {
    const maze_cfg *c = cfgv;
    size_t n;
    if (!c->given) {
        snprintf(buf, cap,
                 "size=%s players=%d maze_seed=%lld wall_density=%.17g "
                 "mud_density=%.17g mud_range=%d symmetric=%d cheese=%d "
                 "max_turns=%d w_expected=%.17g claim_decay=%.17g",
                 SIZE_NAMES[c->size], c->players, (long long)c->maze_seed,
                 c->wall_density, c->mud_density, c->mud_range, c->symmetric,
                 c->cheese_total, c->max_turns, c->w_expected, c->claim_decay);
        return;
    }
    n = (size_t)snprintf(buf, cap,
                         "players=%d max_turns=%d w_expected=%.17g claim_decay=%.17g "
                         "width=%d height=%d",
                         c->players, c->max_turns, c->w_expected, c->claim_decay, c->W, c->H);
    for (int y = 0; y < c->H && n + 8 + 3 * (size_t)c->W < cap; y++) {
        n += (size_t)snprintf(buf + n, cap - n, " row%d=", y);
        for (int x = 0; x < c->W; x++) {
            const int cell = y * c->W + x;
            buf[n++] = (char)('0' + c->cost[cell][RIGHT]);
            buf[n++] = (char)('0' + c->cost[cell][UP]);
            buf[n++] = c->cheese0[cell] ? 'c' : '.';
        }
        buf[n] = 0;
    }
}

static size_t maze_state_size(const void *cfgv) {
    return sizeof(maze_state) + (size_t)((const maze_cfg *)cfgv)->words * 8;
}
static int maze_num_agents(const void *cfgv) { return ((const maze_cfg *)cfgv)->players; }
static int maze_max_moves(const void *cfgv) {
    (void)cfgv;
    return 5;
}

/* ------------------------------------------------------------ state */

/* The Zobrist key from scratch (init, import; step keeps it incrementally). */
static uint64_t full_hash(const maze_cfg *c, const maze_state *st) {
    uint64_t h = zkey(ZK_TURN(st->turn));
    for (int p = 0; p < c->players; p++) {
        h ^= zkey(ZK_POS(p, st->pos[p]));
        if (st->stuck[p]) h ^= zkey(ZK_STUCK(p, st->stuck[p]));
        if (st->score12[p]) h ^= zkey(ZK_SCORE(p, st->score12[p]));
    }
    for (int w = 0; w < c->words; w++) {
        for (uint64_t m = st->cheese[w]; m; m &= m - 1) {
            h ^= zkey(ZK_CHEESE(w * 64 + __builtin_ctzll(m)));
        }
    }
    return h;
}

static int maze_init(const void *cfgv, void *stv, uint64_t seed) {
    (void)seed; /* no chance events: the layout is the parameters' */
    const maze_cfg *c = cfgv;
    maze_state *st = stv;
    memset(st, 0, maze_state_size(c));
    for (int p = 0; p < c->players; p++) st->pos[p] = c->start[p];
    for (int i = 0; i < c->cells; i++) {
        if (c->cheese0[i]) st->cheese[i >> 6] |= 1ULL << (i & 63);
    }
    st->left = c->cheese_total;
    st->hash = full_hash(c, st);
    return SBX_OK;
}

static void maze_reseed(void *stv, uint64_t seed) {
    (void)stv;
    (void)seed;
}
static int maze_turn(const void *stv) { return ((const maze_state *)stv)->turn; }

static int maze_is_terminal(const void *cfgv, const void *stv) {
    const maze_cfg *c = cfgv;
    const maze_state *st = stv;
    if (st->left == 0 || st->turn >= c->max_turns) return 1;
    for (int p = 0; p < c->players; p++) {
        if (st->score12[p] > 6 * c->cheese_total) return 1; /* > half */
    }
    return 0;
}

static int maze_legal_moves(const void *cfgv, const void *stv, int agent, uint8_t *out) {
    (void)cfgv;
    const maze_state *st = stv;
    if (st->stuck[agent]) {
        out[0] = STAY;
        return 1;
    }
    for (int m = 0; m < 5; m++) out[m] = (uint8_t)m;
    return 5;
}

static int maze_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    (void)stv;
    (void)agent;
    return 1;
}
static uint32_t maze_alive_mask(const void *cfgv, const void *stv) {
    (void)stv;
    return (1u << ((const maze_cfg *)cfgv)->players) - 1u;
}

static void maze_step(const void *cfgv, void *stv, const uint8_t *joint, double *rewards) {
    const maze_cfg *c = cfgv;
    maze_state *st = stv;
    const int n = c->players;
    uint64_t h = st->hash ^ zkey(ZK_TURN(st->turn)) ^ zkey(ZK_TURN(st->turn + 1));
    for (int p = 0; p < n; p++) {
        if (rewards) rewards[p] = 0.0;
        const int s = st->stuck[p];
        if (s) {
            h ^= zkey(ZK_STUCK(p, s));
            if (s > 1) h ^= zkey(ZK_STUCK(p, s - 1));
            st->stuck[p] = (uint8_t)(s - 1);
            continue;
        }
        const int m = joint[p];
        if (m >= STAY) continue;
        const int cell = st->pos[p];
        const int cost = c->cost[cell][m];
        if (!cost) continue; /* wall or off the grid: a stay */
        const int to = neighbour(c, cell, m);
        h ^= zkey(ZK_POS(p, cell)) ^ zkey(ZK_POS(p, to));
        st->pos[p] = (int16_t)to;
        if (cost > 1) {
            st->stuck[p] = (uint8_t)(cost - 1);
            h ^= zkey(ZK_STUCK(p, cost - 1));
        }
    }
    /* Collection by the players able to act, shared 1/k. */
    for (int p = 0; p < n; p++) {
        const int cell = st->pos[p];
        if (st->stuck[p] || !has_cheese(st, cell)) continue;
        int k = 0;
        for (int q = 0; q < n; q++) k += st->pos[q] == cell && !st->stuck[q];
        for (int q = 0; q < n; q++) {
            if (st->pos[q] == cell && !st->stuck[q]) {
                if (st->score12[q]) h ^= zkey(ZK_SCORE(q, st->score12[q]));
                st->score12[q] += 12 / k;
                h ^= zkey(ZK_SCORE(q, st->score12[q]));
                if (rewards) rewards[q] += 1.0 / k;
            }
        }
        st->cheese[cell >> 6] &= ~(1ULL << (cell & 63));
        st->left--;
        h ^= zkey(ZK_CHEESE(cell));
    }
    st->turn++;
    st->hash = h;
}

/* ------------------------------------------------------------ evaluate */

/* Turns from the nearest of `sources` to every cell (mud counted as its
 * cost; passages cost the same both ways): Dial's algorithm with
 * MAX_COST + 1 circular buckets. A bucket holds one distance at a time and
 * a cell enters it at most once per distance, so MAX_CELLS entries do. */
static void dial(const maze_cfg *c, const int16_t *sources, int n_sources, int16_t *dist) {
    static const int NB = MAX_COST + 1;
    int16_t bucket[MAX_COST + 1][MAX_CELLS];
    int len[MAX_COST + 1] = {0};
    for (int i = 0; i < c->cells; i++) dist[i] = INT16_MAX;
    for (int i = 0; i < n_sources; i++) {
        if (dist[sources[i]] == 0) continue;
        dist[sources[i]] = 0;
        bucket[0][len[0]++] = sources[i];
    }
    int pending = len[0];
    for (int d = 0; pending; d++) {
        const int b = d % NB;
        for (int i = 0; i < len[b]; i++) {
            const int cell = bucket[b][i];
            pending--;
            if (dist[cell] != d) continue; /* stale entry */
            for (int dir = 0; dir < 4; dir++) {
                const int cost = c->cost[cell][dir];
                if (!cost) continue;
                const int nb = neighbour(c, cell, dir);
                if (d + cost < dist[nb]) {
                    dist[nb] = (int16_t)(d + cost);
                    const int nbk = (d + cost) % NB;
                    bucket[nbk][len[nbk]++] = (int16_t)nb;
                    pending++;
                }
            }
        }
        len[b] = 0;
    }
}

static void distances(const maze_cfg *c, int from, int16_t *dist) {
    const int16_t src = (int16_t)from;
    dial(c, &src, 1, dist);
}

/* MCGS's heuristic priors (game.h move_scores): a move's score is minus the
 * turns until the player can stand on a cheese if it plays that move first
 * and then walks the shortest way: the move's own cost (1, mud N, a stay or
 * a move into a wall 1) plus the travel time from the cell it leads to, to
 * the nearest remaining cheese (one multi-source Dial from the cheese). A
 * stuck player's only move (stay) scores stuck + that time. The opponents
 * are ignored (the evaluation's claim race already weighs them). */
static int maze_move_scores(const void *cfgv, const void *stv, int agent, double *out) {
    const maze_cfg *c = cfgv;
    const maze_state *st = stv;
    int16_t src[MAX_CELLS], dist[MAX_CELLS];
    int n = 0;
    for (int w = 0; w < c->words; w++) {
        for (uint64_t m = st->cheese[w]; m; m &= m - 1) src[n++] = (int16_t)(w * 64 + __builtin_ctzll(m));
    }
    dial(c, src, n, dist);
    const int cell = st->pos[agent];
    if (st->stuck[agent]) {
        out[0] = -(double)(st->stuck[agent] + dist[cell]);
        return 1;
    }
    for (int m = 0; m < 5; m++) {
        const int cost = m == STAY ? 0 : c->cost[cell][m];
        out[m] = cost ? -(double)(cost + dist[neighbour(c, cell, m)])
                      : -(double)(1 + dist[cell]);
    }
    return 5;
}

static void maze_evaluate(const void *cfgv, const void *stv, double *out) {
    const maze_cfg *c = cfgv;
    const maze_state *st = stv;
    const int n = c->players;
    for (int p = 0; p < n; p++) out[p] = st->score12[p] / 12.0;
    if (maze_is_terminal(c, st) || c->w_expected == 0.0) return;
    int16_t dist[MAX_PLAYERS][MAX_CELLS];
    for (int p = 0; p < n; p++) distances(c, st->pos[p], dist[p]);
    for (int w = 0; w < c->words; w++) {
        for (uint64_t m = st->cheese[w]; m; m &= m - 1) {
            const int cell = w * 64 + __builtin_ctzll(m);
            int best = INT32_MAX, k = 0;
            int d[MAX_PLAYERS];
            for (int p = 0; p < n; p++) {
                d[p] = dist[p][cell] + st->stuck[p];
                if (d[p] < best) {
                    best = d[p];
                    k = 1;
                } else if (d[p] == best) {
                    k++;
                }
            }
            const double worth = c->w_expected * pow(c->claim_decay, best) / k;
            for (int p = 0; p < n; p++) {
                if (d[p] == best) out[p] += worth;
            }
        }
    }
}

/* Rank = players with strictly more cheese (ties share a rank). */
static void maze_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    const maze_cfg *c = cfgv;
    const maze_state *st = stv;
    for (int i = 0; i < c->players; i++) {
        int r = 0;
        for (int j = 0; j < c->players; j++) r += st->score12[j] > st->score12[i];
        rank[i] = r;
    }
}

static uint64_t maze_hash(const void *cfgv, const void *stv) {
    (void)cfgv;
    return ((const maze_state *)stv)->hash;
}

/* ------------------------------------------------------------ export */

#define HEADER 8

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const maze_cfg *c = cfgv;
    const maze_state *st = stv;
    sbx_emit(e, SBX_MAZE_EXPORT_VERSION);
    sbx_emit(e, c->W);
    sbx_emit(e, c->H);
    sbx_emit(e, c->players);
    sbx_emit(e, st->turn);
    sbx_emit(e, c->max_turns);
    sbx_emit(e, c->cheese_total);
    sbx_emit(e, st->left);
    for (int p = 0; p < c->players; p++) {
        sbx_emit(e, st->pos[p] % c->W);
        sbx_emit(e, st->pos[p] / c->W);
        sbx_emit(e, st->stuck[p]);
        sbx_emit(e, st->score12[p]);
    }
    for (int i = 0; i < c->cells; i++) {
        sbx_emit(e, c->cost[i][RIGHT] | c->cost[i][UP] << 4 | has_cheese(st, i) << 8 |
                        c->cheese0[i] << 9);
    }
}

static int maze_export(const void *cfgv, const void *stv, int32_t *buf, int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static int import_into(const maze_cfg *c, maze_state *nst, const int32_t *buf, int len) {
    const int n = c->players;
    const int expect = HEADER + 4 * n + c->cells;
    if (len < HEADER || buf[0] != SBX_MAZE_EXPORT_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: not a maze export of version %d",
                        SBX_MAZE_EXPORT_VERSION);
    }
    if (buf[1] != c->W || buf[2] != c->H || buf[3] != n || buf[5] != c->max_turns ||
        buf[6] != c->cheese_total) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: size %dx%d, players %d, max_turns %d, "
                        "cheese %d do not match the game's %dx%d, %d, %d, %d",
                        (int)buf[1], (int)buf[2], (int)buf[3], (int)buf[5], (int)buf[6],
                        c->W, c->H, n, c->max_turns, c->cheese_total);
    }
    if (len != expect) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words expected, got %d", expect, len);
    }
    if (buf[4] < 0 || buf[4] > c->max_turns) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range 0..%d",
                        (int)buf[4], c->max_turns);
    }
    nst->turn = buf[4];
    int64_t scores = 0;
    for (int p = 0; p < n; p++) {
        const int32_t *r = &buf[HEADER + 4 * p];
        if (r[0] < 0 || r[0] >= c->W || r[1] < 0 || r[1] >= c->H) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: player %d at (%d,%d) is off the grid",
                            p, (int)r[0], (int)r[1]);
        }
        if (r[2] < 0 || r[2] >= MAX_COST) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: player %d stuck %d out of range 0..%d",
                            p, (int)r[2], MAX_COST - 1);
        }
        if (r[3] < 0 || r[3] > 12 * c->cheese_total) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: player %d score %d/12 out of range",
                            p, (int)r[3]);
        }
        nst->pos[p] = (int16_t)(r[1] * c->W + r[0]);
        nst->stuck[p] = (uint8_t)r[2];
        nst->score12[p] = r[3];
        scores += r[3];
    }
    int left = 0;
    const int32_t *cells = &buf[HEADER + 4 * n];
    for (int i = 0; i < c->cells; i++) {
        const int32_t w = cells[i];
        const int want = c->cost[i][RIGHT] | c->cost[i][UP] << 4 | c->cheese0[i] << 9;
        if ((w & ~0x100) != want || ((w & 0x100) && !c->cheese0[i])) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: cell %d word 0x%x does not match the "
                            "game's layout", i, (unsigned)w);
        }
        if (w & 0x100) {
            nst->cheese[i >> 6] |= 1ULL << (i & 63);
            left++;
        }
    }
    if (left != buf[7]) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d cheese left, the cells hold %d",
                        (int)buf[7], left);
    }
    if (scores != 12LL * (c->cheese_total - left)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: scores add up to %lld/12, %d cheese "
                        "were collected", (long long)scores, c->cheese_total - left);
    }
    nst->left = left;
    nst->hash = full_hash(c, nst);
    return SBX_OK;
}

static int maze_import(const void *cfgv, void *stv, const int32_t *buf, int len) {
    const maze_cfg *c = cfgv;
    const size_t size = maze_state_size(c);
    maze_state *nst = calloc(1, size);
    if (!nst) return sbx_fail(SBX_ERR_MEMORY, "out of memory importing a maze state");
    int rc = import_into(c, nst, buf, len);
    if (rc == SBX_OK) memcpy(stv, nst, size);
    free(nst);
    return rc;
}

static const char *maze_move_name(const void *cfgv, int agent, int move) {
    (void)cfgv;
    (void)agent;
    return (move >= 0 && move < 5) ? MOVE_NAMES[move] : "?";
}

const sbx_game_vt sbx_maze_vt = {
    .name = "maze",
    .params_doc = PARAMS_DOC,
    .cfg_size = sizeof(maze_cfg),
    .configure = maze_configure,
    .describe = maze_describe,
    .state_size = maze_state_size,
    .num_agents = maze_num_agents,
    .max_moves = maze_max_moves,
    .fixed_moves = 0, /* a player stuck in mud may only stay */
    .init = maze_init,
    .reseed = maze_reseed,
    .turn = maze_turn,
    .legal_moves = maze_legal_moves,
    .step = maze_step,
    .is_terminal = maze_is_terminal,
    .is_alive = maze_is_alive,
    .alive_mask = maze_alive_mask,
    .evaluate = maze_evaluate,
    .ranking = maze_ranking,
    .hash = maze_hash,
    .export_state = maze_export,
    .import_state = maze_import,
    .move_name = maze_move_name,
    .move_scores = maze_move_scores,
};
