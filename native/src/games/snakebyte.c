/*
 * snakebyte.c — the `snakes` game, ruleset `snakebyte` (docs/games.md, SnakeByte,
 * modelled on CodinGame's Winter Challenge 2026): a side view with gravity,
 * two players of 2-4 snakes each. Reached through snakes.c, which calls
 * the table sbx_snakebyte_ruleset at the end of this file (see snakebyte.h
 * for why the ruleset has a file of its own, snakes_ruleset.h for the
 * interface).
 *
 * Agents are snakes: agent a is snake a % K of player a / K (K snakes per
 * player). Every snake of a player gets the same evaluation and the same
 * rank: the team score, as pods does for its 2v2 races, so a Smitsimax
 * search with one tree per snake plays a team.
 *
 * Coordinates: x to the right, y DOWNWARD (row 0 is the top); "up" is y-1.
 * Cells beside and above the grid are open air: a snake may reach out of
 * the grid there, nothing outside holds it up, and a snake that falls
 * wholly below the grid (y >= H: only possible off the sides, the bottom
 * row being wall) dies.
 *
 * One turn (docs/games.md, SnakeByte, in this order):
 *   1. move: every live snake moves at once; a move straight back into its
 *      neck is replaced by continuing forward. A head arriving on an apple
 *      keeps the tail (growth), else the tail goes.
 *   2. eat: apples under live heads disappear (several heads on one apple
 *      all grew in 1).
 *   3. behead: decided for all heads together on the bodies after 1: a head
 *      on a wall, on any cell of another live snake (its head included, so
 *      head-on beheads both) or on its own body loses its head segment; a
 *      snake of length <= 3 (after 1) dies instead. Each lost part counts
 *      one loss for its owner (a death loses every part).
 *   4. gravity: a snake is grounded if a cell of it has a wall, an apple or
 *      a cell of another GROUNDED snake directly below (its own body never
 *      holds it); grounding is iterated to a fixed point, then every
 *      airborne snake falls one row together; repeat until none is
 *      airborne. A snake wholly below the grid dies (losing every part).
 * The game ends when no apple is left, a player has no snake, or at
 * max_turns (200). Score: total length of the live snakes, ties broken by
 * fewer losses.
 *
 * State (one blob, clone = memcpy): the header (rng, turn, apples as a
 * bitboard, per-player losses, per-snake records), then the bodies: per
 * snake maxlen (x, y) int16 pairs, head first. maxlen = 3 + apples on the
 * map, the longest any snake can grow. The map (walls, start) is config.
 * Off the grid a body reaches at most the total length of all snakes (a
 * snake held only by another, held by another, ...), SB_REACH, well inside
 * int16.
 */
#include "snakebyte.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

#define SB_MIN_H_GEN 10
#define SB_MAX_H_GEN 24
#define SB_MAX_TURNS 100000
/* How far off the grid a body can reach: every snake at its longest. */
#define SB_REACH (SBX_MAX_AGENTS * (3 + SB_MAX_APPLES))

/* The ruleset's entries (sbx_snakebyte_ruleset, at the end of the file). */
static int sb_configure(void *cfg, const char *params);
static void sb_describe(const void *cfg, char *buf, size_t cap);
static size_t sb_state_size(const void *cfg);
static int sb_num_agents(const void *cfg);
static int sb_init(const void *cfg, void *state, uint64_t seed);
static int sb_legal_moves(const void *cfg, const void *state, int agent, uint8_t *out);
static void sb_step(const void *cfg, void *state, const uint8_t *joint, double *rewards);
static int sb_is_terminal(const void *cfg, const void *state);
static int sb_is_alive(const void *cfg, const void *state, int agent);
static uint32_t sb_alive_mask(const void *cfg, const void *state);
static void sb_evaluate(const void *cfg, const void *state, double *scores);
static void sb_ranking(const void *cfg, const void *state, int32_t *rank);
static int sb_side(const void *cfg, int agent);
static uint64_t sb_hash(const void *cfg, const void *state);
static int sb_export(const void *cfg, const void *state, int32_t *buf, int cap);
static int sb_import(const void *cfg, void *state, const int32_t *buf, int len);
static const char *sb_move_name(const void *cfg, int agent, int move);

typedef struct sb_snake {
    int32_t death_turn; /* -1 while alive */
    uint16_t fell;      /* rows fallen in the last turn */
    uint8_t alive;
    uint8_t len;
    uint8_t cause;      /* SBX_SNAKEBYTE_CAUSE_* */
    uint8_t lost;       /* parts lost in the last turn */
    uint8_t pad[2];
} sb_snake;

typedef struct sb_state {
    uint64_t rng;       /* first two fields as snakes_state (snakebyte.h) */
    int32_t turn;
    int32_t napples;
    int32_t losses[2];
    uint64_t apple_bb[SB_BB_WORDS];
    sb_snake s[SBX_MAX_AGENTS];
} sb_state;

/* y grows downward here (the standard ruleset's grows upward). */
static const int DX[4] = {0, 0, -1, 1};
static const int DY[4] = {-1, 1, 0, 0};
static const char *const MOVE_NAMES[4] = {"up", "down", "left", "right"};

#define BODY(cfg, st, i) \
    ((int16_t *)((uint8_t *)(st) + sizeof(sb_state)) + (size_t)(i) * 2 * (cfg)->maxlen)

static inline int in_grid(const sb_cfg *c, int x, int y) {
    return x >= 0 && y >= 0 && x < c->width && y < c->height;
}
static inline int is_wall(const sb_cfg *c, int x, int y) {
    return in_grid(c, x, y) && c->wall[y * c->width + x];
}
static inline int has_apple(const sb_cfg *c, const sb_state *st, int x, int y) {
    if (!in_grid(c, x, y)) return 0;
    int cell = y * c->width + x;
    return (int)((st->apple_bb[cell >> 6] >> (cell & 63)) & 1u);
}
static inline void apple_clear(const sb_cfg *c, sb_state *st, int x, int y) {
    int cell = y * c->width + x;
    uint64_t bit = 1ULL << (cell & 63);
    if (st->apple_bb[cell >> 6] & bit) {
        st->apple_bb[cell >> 6] &= ~bit;
        st->napples--;
    }
}
static inline int player_of(const sb_cfg *c, int agent) { return agent / c->per_player; }

/* A player's snakes are one team. */
static int sb_side(const void *cfgv, int agent) { return player_of(cfgv, agent); }

/* ------------------------------------------------------------ parameters */

/* The parameter doc: SB_PARAMS_DOC_TEXT in snakebyte.h (snakes.c's doc
 * ends with it). */

static int parse_row(sb_cfg *c, const char *key, const char *value) {
    char *end = NULL;
    long y = strtol(key + 3, &end, 10);
    if (!end || *end || y < 0 || y >= SB_MAX_H) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: row number out of range 0..%d", key,
                        SB_MAX_H - 1);
    }
    if (c->width < 4 || c->height < 4) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "%s: width and height (4 or more) must come before the rows", key);
    }
    if (y >= c->height) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: the map has %d rows", key, c->height);
    }
    if ((int)strlen(value) != c->width) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: %d characters, the width is %d", key,
                        (int)strlen(value), c->width);
    }
    if (c->rows_seen[y]) return sbx_fail(SBX_ERR_ARGUMENT, "%s: given twice", key);
    c->rows_seen[y] = 1;
    c->from_rows = 1;
    for (int x = 0; x < c->width; x++) {
        const char ch = value[x];
        const int cell = (int)y * c->width + x;
        if (ch == '#') {
            c->wall[cell] = 1;
        } else if (ch == '*') {
            c->apple0[cell] = 1;
        } else if ((ch >= 'a' && ch <= 'd') || (ch >= 'A' && ch <= 'D')) {
            const int player = ch <= 'D', k = player ? ch - 'A' : ch - 'a';
            /* agents are numbered once every row is read (finish_rows) */
            const int slot = player * SB_MAX_PER_PLAYER + k;
            if (c->start[slot][0] >= 0) {
                return sbx_fail(SBX_ERR_ARGUMENT, "%s: head '%c' appears twice", key, ch);
            }
            c->start[slot][0] = (int8_t)x;
            c->start[slot][1] = (int8_t)y;
        } else if (ch != '.') {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: x=%d '%c' is not one of . # * a-d A-D", key, x, ch);
        }
    }
    return SBX_OK;
}

static int set_param(void *ctx, const char *key, const char *value) {
    sb_cfg *c = ctx;
    struct {
        const char *name;
        int *ip;
        double *dp;
        long lo, hi;
    } table[] = {
        {"max_turns", &c->max_turns, NULL, 1, SB_MAX_TURNS},
        {"w_length", NULL, &c->w_length, -1000, 1000},
        {"w_loss", NULL, &c->w_loss, -1000, 1000},
        {"w_apple", NULL, &c->w_apple, -1000, 1000},
        {"w_win", NULL, &c->w_win, -1000, 1000},
    };
    if (strcmp(key, "ruleset") == 0) return SBX_OK; /* snakes.c checked it */
    if (strcmp(key, "map_seed") == 0) {
        char *end = NULL;
        long long v = strtoll(value, &end, 10);
        if (!end || *end || v < 0 || v > (1LL << 62)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "map_seed: '%s' is not an integer in 0..2^62", value);
        }
        c->map_seed = v;
        return SBX_OK;
    }
    if (strcmp(key, "snakes_per_player") == 0) {
        c->per_player_given = 1;
        return sbx_kv_int(key, value, 2, SB_MAX_PER_PLAYER, &c->per_player);
    }
    if ((strcmp(key, "width") == 0 || strcmp(key, "height") == 0) &&
        memchr(c->rows_seen, 1, sizeof c->rows_seen)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: must come before the rows", key);
    }
    /* 0 for height: drawn from map_seed; width only for hand-made maps */
    if (strcmp(key, "height") == 0) return sbx_kv_int(key, value, 0, SB_MAX_H, &c->height);
    if (strcmp(key, "width") == 0) return sbx_kv_int(key, value, 0, SB_MAX_W, &c->width);
    if (strncmp(key, "row", 3) == 0 && key[3]) return parse_row(c, key, value);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(key, table[i].name) != 0) continue;
        if (table[i].ip) {
            return sbx_kv_int(key, value, table[i].lo, table[i].hi, table[i].ip);
        }
        return sbx_kv_double(key, value, (double)table[i].lo, (double)table[i].hi,
                             table[i].dp);
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown snakebyte parameter '%s'", key);
}

/* A hand-made map: every row given, the bottom row wall, heads a..a+K-1 of
 * player 0 and A..A+K-1 of player 1 each with two free cells below. The
 * parse kept head k of player p in start[4p + k]; agents are assigned
 * here, player 0's first. */
static int finish_rows(sb_cfg *c) {
    const int W = c->width, H = c->height;
    for (int y = 0; y < H; y++) {
        if (!c->rows_seen[y]) return sbx_fail(SBX_ERR_ARGUMENT, "row%d: missing", y);
    }
    for (int x = 0; x < W; x++) {
        if (!c->wall[(H - 1) * W + x]) {
            return sbx_fail(SBX_ERR_ARGUMENT, "row%d: the bottom row must be all wall", H - 1);
        }
    }
    int8_t heads[2][SB_MAX_PER_PLAYER][2];
    int count[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < SB_MAX_PER_PLAYER; k++) {
            const int8_t *h = c->start[p * SB_MAX_PER_PLAYER + k];
            if (h[0] < 0) break;
            heads[p][k][0] = h[0];
            heads[p][k][1] = h[1];
            count[p] = k + 1;
        }
        for (int k = count[p]; k < SB_MAX_PER_PLAYER; k++) {
            if (c->start[p * SB_MAX_PER_PLAYER + k][0] >= 0) {
                return sbx_fail(SBX_ERR_ARGUMENT, "map: head '%c' without '%c'",
                                (p == 0 ? 'a' : 'A') + k, (p == 0 ? 'a' : 'A') + count[p]);
            }
        }
    }
    if (count[0] != count[1] || count[0] < 2) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "map: %d heads for player 0 (a-d) and %d for player 1 (A-D); "
                        "each needs the same number, 2..4", count[0], count[1]);
    }
    if (c->per_player_given && c->per_player != count[0]) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "snakes_per_player: %d, the map has %d snakes per player",
                        c->per_player, count[0]);
    }
    c->per_player = count[0];
    memset(c->start, 0, sizeof c->start);
    uint8_t used[SB_MAX_CELLS] = {0};
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < count[p]; k++) {
            const int x = heads[p][k][0], y = heads[p][k][1];
            const char name = (char)((p == 0 ? 'a' : 'A') + k);
            for (int j = 0; j < 3; j++) {
                if (y + j >= H || c->wall[(y + j) * W + x] || c->apple0[(y + j) * W + x] ||
                    used[(y + j) * W + x]) {
                    return sbx_fail(SBX_ERR_ARGUMENT,
                                    "row%d: snake '%c' needs its head and the 2 cells below "
                                    "it free", y, name);
                }
                used[(y + j) * W + x] = 1;
            }
            c->start[p * count[p] + k][0] = (int8_t)x;
            c->start[p * count[p] + k][1] = (int8_t)y;
        }
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ generator */

/* A map in the spirit of the contest's referee: seeded, mirrored left to
 * right; a ground of columns whose heights change by at most one from one
 * column to the next (a snake of three can climb every step), floating
 * platforms above it, apples in mirrored pairs, snakes standing on the
 * ground, player 1's the mirror image of player 0's. */
static int generate(sb_cfg *c) {
    uint64_t r = (uint64_t)c->map_seed * 0x9E3779B97F4A7C15ULL + 0x5B5B;
    /* drawn even when given, so `map_seed=S` and its description
     * `map_seed=S height=H` make the same map */
    const int drawn = SB_MIN_H_GEN + (int)sbx_rng_below(&r, SB_MAX_H_GEN - SB_MIN_H_GEN + 1);
    const int H = c->height ? c->height : drawn;
    int W = (18 * H + 9) / 10; /* ceil(1.8 H) */
    W += W & 1;
    const int half = W / 2;
    c->height = H;
    c->width = W;
    int ground[SB_MAX_W];
    const int gmax = H / 4 > 2 ? H / 4 : 2;
    int g = 1 + (int)sbx_rng_below(&r, 2);
    for (int x = 0; x < half; x++) {
        g += (int)sbx_rng_below(&r, 3) - 1;
        g = g < 1 ? 1 : g > gmax ? gmax : g;
        ground[x] = g;
        for (int y = H - g; y < H; y++) c->wall[y * W + x] = 1;
    }
    /* floating platforms, each with at least 3 rows of air below it */
    const int nplat = 1 + H / 6 + (int)sbx_rng_below(&r, 2);
    for (int k = 0; k < nplat; k++) {
        int len = 2 + (int)sbx_rng_below(&r, 4);
        int x0 = (int)sbx_rng_below(&r, (uint32_t)(half - len + 1));
        int top_ground = 0;
        for (int x = x0; x < x0 + len; x++) top_ground = ground[x] > top_ground ? ground[x] : top_ground;
        int ymax = H - top_ground - 4, ymin = 3;
        if (ymax < ymin) continue;
        int y = ymin + (int)sbx_rng_below(&r, (uint32_t)(ymax - ymin + 1));
        for (int x = x0; x < x0 + len; x++) c->wall[y * W + x] = 1;
    }
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < half; x++) c->wall[y * W + W - 1 - x] = c->wall[y * W + x];
    }
    /* snakes on the ground, two columns apart at least */
    uint8_t used[SB_MAX_CELLS] = {0};
    int placed = 0, cols[SB_MAX_PER_PLAYER];
    for (int tries = 0; placed < c->per_player && tries < 400; tries++) {
        int x = tries < 300 ? 1 + (int)sbx_rng_below(&r, (uint32_t)(half - 2))
                            : (tries - 300) % half;
        int head = H - ground[x] - 3, ok = head >= 1;
        for (int j = 0; j < placed && ok; j++) ok = abs(cols[j] - x) >= 2 || tries >= 300;
        for (int j = 0; j < 3 && ok; j++) ok = !c->wall[(head + j) * W + x] && !used[(head + j) * W + x];
        if (!ok) continue;
        cols[placed] = x;
        for (int j = 0; j < 3; j++) {
            used[(head + j) * W + x] = 1;
            used[(head + j) * W + W - 1 - x] = 1;
        }
        c->start[placed][0] = (int8_t)x;
        c->start[placed][1] = (int8_t)head;
        c->start[c->per_player + placed][0] = (int8_t)(W - 1 - x);
        c->start[c->per_player + placed][1] = (int8_t)head;
        placed++;
    }
    /* platforms keep 3 rows of air above the ground, so every column of
     * 1..half-2 (7 or more) takes a snake: four always fit */
    if (placed < c->per_player) {
        return sbx_fail(SBX_ERR_INTERNAL, "map_seed %lld: no room for the snakes",
                        (long long)c->map_seed);
    }
    /* apples in mirrored pairs: half of them on a surface, half in the air */
    int pairs = 4 + (int)sbx_rng_below(&r, (uint32_t)(H / 2));
    if (pairs > SB_MAX_APPLES / 2) pairs = SB_MAX_APPLES / 2;
    for (int k = 0, tries = 0; k < pairs && tries < 2000; tries++) {
        int x = (int)sbx_rng_below(&r, (uint32_t)half);
        int y = 1 + (int)sbx_rng_below(&r, (uint32_t)(H - 2));
        int cell = y * W + x;
        if (c->wall[cell] || c->apple0[cell] || used[cell]) continue;
        int on_surface = c->wall[cell + W];
        if ((k & 1) == 0 && !on_surface && tries < 1000) continue;
        c->apple0[cell] = 1;
        c->apple0[y * W + W - 1 - x] = 1;
        k++;
    }
    return SBX_OK;
}

static int sb_configure(void *cfgv, const char *params) {
    sb_cfg *c = cfgv;
    memset(c, 0, sizeof *c);
    c->ruleset = SNAKES_RULESET_SNAKEBYTE;
    c->per_player = 2;
    c->max_turns = 200;
    c->map_seed = 1;
    c->w_length = 1.0;
    c->w_loss = 0.2;
    c->w_apple = 0.5;
    c->w_win = 10.0;
    memset(c->start, -1, sizeof c->start);
    int rc = sbx_parse_kv(params, set_param, c);
    if (rc != SBX_OK) return rc;
    if (c->from_rows) {
        rc = finish_rows(c);
        if (rc != SBX_OK) return rc;
    } else {
        if (c->width != 0) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "width: only for a hand-made map (with row<y>); a generated "
                            "map's width follows its height");
        }
        if (c->height != 0 && (c->height < SB_MIN_H_GEN || c->height > SB_MAX_H_GEN)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "height: %d, a generated map is %d..%d rows (0: from map_seed)",
                            c->height, SB_MIN_H_GEN, SB_MAX_H_GEN);
        }
        memset(c->start, 0, sizeof c->start);
        rc = generate(c);
        if (rc != SBX_OK) return rc;
    }
    memset(c->rows_seen, 0, sizeof c->rows_seen);
    c->per_player_given = 0;
    c->agents = 2 * c->per_player;
    c->ncells = c->width * c->height;
    c->napples0 = 0;
    for (int i = 0; i < c->ncells; i++) c->napples0 += c->apple0[i];
    if (c->napples0 == 0 || c->napples0 > SB_MAX_APPLES) {
        return sbx_fail(SBX_ERR_ARGUMENT, "map: %d apples, want 1..%d", c->napples0,
                        SB_MAX_APPLES);
    }
    c->maxlen = 3 + c->napples0;
    c->size = sizeof(sb_state) + (size_t)c->agents * 2 * (size_t)c->maxlen * sizeof(int16_t);
    c->size = (c->size + 7) & ~(size_t)7;
    return SBX_OK;
}

static void sb_describe(const void *cfgv, char *buf, size_t cap) {
    const sb_cfg *c = cfgv;
    int n = snprintf(buf, cap,
                     "ruleset=snakebyte snakes_per_player=%d max_turns=%d "
                     "w_length=%.17g w_loss=%.17g w_apple=%.17g w_win=%.17g",
                     c->per_player, c->max_turns, c->w_length, c->w_loss, c->w_apple,
                     c->w_win);
    if (!c->from_rows) {
        if (n > 0 && (size_t)n < cap) {
            snprintf(buf + n, cap - (size_t)n, " map_seed=%lld height=%d",
                     (long long)c->map_seed, c->height);
        }
        return;
    }
    /* a hand-made map is its rows (so the description re-makes the game) */
    if (n > 0 && (size_t)n < cap) {
        n += snprintf(buf + n, cap - (size_t)n, " width=%d height=%d", c->width, c->height);
    }
    char row[SB_MAX_W + 1];
    for (int y = 0; y < c->height && n > 0 && (size_t)n < cap; y++) {
        for (int x = 0; x < c->width; x++) {
            const int cell = y * c->width + x;
            row[x] = c->wall[cell] ? '#' : c->apple0[cell] ? '*' : '.';
        }
        for (int a = 0; a < c->agents; a++) {
            if (c->start[a][1] == y) {
                row[c->start[a][0]] = (char)((a < c->per_player ? 'a' : 'A') + a % c->per_player);
            }
        }
        row[c->width] = 0;
        n += snprintf(buf + n, cap - (size_t)n, " row%d=%s", y, row);
    }
}

static size_t sb_state_size(const void *cfgv) { return ((const sb_cfg *)cfgv)->size; }
static int sb_num_agents(const void *cfgv) { return ((const sb_cfg *)cfgv)->agents; }

/* ------------------------------------------------------------ init */

static int sb_init(const void *cfgv, void *stv, uint64_t seed) {
    const sb_cfg *c = cfgv;
    sb_state *st = stv;
    memset(st, 0, c->size);
    st->rng = seed; /* no chance events: the seed only names the match */
    for (int cell = 0; cell < c->ncells; cell++) {
        if (c->apple0[cell]) st->apple_bb[cell >> 6] |= 1ULL << (cell & 63);
    }
    st->napples = c->napples0;
    for (int a = 0; a < c->agents; a++) {
        sb_snake *s = &st->s[a];
        int16_t *b = BODY(c, st, a);
        s->alive = 1;
        s->len = 3;
        s->death_turn = -1;
        for (int j = 0; j < 3; j++) { /* vertical, head on top, facing up */
            b[2 * j] = c->start[a][0];
            b[2 * j + 1] = (int16_t)(c->start[a][1] + j);
        }
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ step */

static int sb_legal_moves(const void *cfgv, const void *stv, int agent, uint8_t *out) {
    (void)cfgv;
    const sb_state *st = stv;
    if (!st->s[agent].alive) return 0;
    for (int m = 0; m < 4; m++) out[m] = (uint8_t)m;
    return 4;
}

static int alive_of(const sb_cfg *c, const sb_state *st, int player) {
    int n = 0;
    for (int k = 0; k < c->per_player; k++) n += st->s[player * c->per_player + k].alive;
    return n;
}

static int sb_is_terminal(const void *cfgv, const void *stv) {
    const sb_cfg *c = cfgv;
    const sb_state *st = stv;
    return st->turn >= c->max_turns || st->napples == 0 || alive_of(c, st, 0) == 0 ||
           alive_of(c, st, 1) == 0;
}

static int sb_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    return ((const sb_state *)stv)->s[agent].alive;
}

static uint32_t sb_alive_mask(const void *cfgv, const void *stv) {
    const sb_cfg *c = cfgv;
    const sb_state *st = stv;
    uint32_t m = 0;
    for (int a = 0; a < c->agents; a++) m |= (uint32_t)st->s[a].alive << a;
    return m;
}

static void sb_kill(const sb_cfg *c, sb_state *st, int a, int cause, int turn) {
    sb_snake *s = &st->s[a];
    s->alive = 0;
    s->cause = (uint8_t)cause;
    s->death_turn = turn;
    s->lost = (uint8_t)(s->lost + s->len);
    st->losses[player_of(c, a)] += s->len;
}

/* Is any cell of snake i directly above a cell of snake j? */
static int rests_on(const sb_cfg *c, const sb_state *st, int i, int j) {
    const int16_t *bi = BODY(c, st, i), *bj = BODY(c, st, j);
    const int li = st->s[i].len, lj = st->s[j].len;
    for (int p = 0; p < li; p++) {
        const int x = bi[2 * p], y = bi[2 * p + 1] + 1;
        for (int q = 0; q < lj; q++) {
            if (bj[2 * q] == x && bj[2 * q + 1] == y) return 1;
        }
    }
    return 0;
}

static void gravity(const sb_cfg *c, sb_state *st, int turn) {
    const int n = c->agents;
    for (;;) {
        uint32_t grounded = 0, live = 0;
        for (int a = 0; a < n; a++) {
            if (!st->s[a].alive) continue;
            live |= 1u << a;
            const int16_t *b = BODY(c, st, a);
            for (int p = 0; p < st->s[a].len; p++) {
                const int x = b[2 * p], y = b[2 * p + 1] + 1;
                if (is_wall(c, x, y) || has_apple(c, st, x, y)) {
                    grounded |= 1u << a;
                    break;
                }
            }
        }
        /* grounding spreads through other snakes to a fixed point */
        for (int changed = 1; changed;) {
            changed = 0;
            for (int a = 0; a < n; a++) {
                if (!((live & ~grounded) >> a & 1u)) continue;
                for (int o = 0; o < n; o++) {
                    if (o != a && (grounded >> o & 1u) && rests_on(c, st, a, o)) {
                        grounded |= 1u << a;
                        changed = 1;
                        break;
                    }
                }
            }
        }
        const uint32_t airborne = live & ~grounded;
        if (!airborne) return;
        for (int a = 0; a < n; a++) {
            if (!(airborne >> a & 1u)) continue;
            sb_snake *s = &st->s[a];
            int16_t *b = BODY(c, st, a);
            int top = 1 << 30;
            for (int p = 0; p < s->len; p++) {
                b[2 * p + 1]++;
                if (b[2 * p + 1] < top) top = b[2 * p + 1];
            }
            s->fell++;
            if (top >= c->height) sb_kill(c, st, a, SBX_SNAKEBYTE_CAUSE_FELL, turn);
        }
    }
}

static void sb_step(const void *cfgv, void *stv, const uint8_t *joint, double *rewards) {
    const sb_cfg *c = cfgv;
    sb_state *st = stv;
    const int n = c->agents;
    const int turn = st->turn + 1;

    /* 1. move (growth on an apple) */
    for (int a = 0; a < n; a++) {
        sb_snake *s = &st->s[a];
        s->fell = 0;
        s->lost = 0;
        if (!s->alive) continue;
        int16_t *b = BODY(c, st, a);
        const int hx = b[0], hy = b[1], d = joint[a] & 3;
        int tx = hx + DX[d], ty = hy + DY[d];
        if (tx == b[2] && ty == b[3]) { /* back into the neck: keep going */
            tx = hx + (hx - b[2]);
            ty = hy + (hy - b[3]);
        }
        const int grow = has_apple(c, st, tx, ty) && s->len < c->maxlen;
        const int keep = grow ? s->len : s->len - 1;
        memmove(b + 2, b, (size_t)keep * 2 * sizeof *b);
        b[0] = (int16_t)tx;
        b[1] = (int16_t)ty;
        s->len = (uint8_t)(keep + 1);
    }
    /* 2. eat: every apple under a live head (shared apples fed them all) */
    for (int a = 0; a < n; a++) {
        if (!st->s[a].alive) continue;
        const int16_t *b = BODY(c, st, a);
        if (has_apple(c, st, b[0], b[1])) apple_clear(c, st, b[0], b[1]);
    }
    /* 3. behead: decided on the bodies after the move, applied together */
    uint32_t hit = 0;
    for (int a = 0; a < n; a++) {
        if (!st->s[a].alive) continue;
        const int16_t *b = BODY(c, st, a);
        const int x = b[0], y = b[1];
        int h = is_wall(c, x, y);
        for (int o = 0; o < n && !h; o++) {
            if (!st->s[o].alive) continue;
            const int16_t *ob = BODY(c, st, o);
            for (int p = o == a ? 1 : 0; p < st->s[o].len; p++) {
                if (ob[2 * p] == x && ob[2 * p + 1] == y) {
                    h = 1;
                    break;
                }
            }
        }
        hit |= (uint32_t)h << a;
    }
    for (int a = 0; a < n; a++) {
        if (!(hit >> a & 1u)) continue;
        sb_snake *s = &st->s[a];
        if (s->len <= 3) {
            sb_kill(c, st, a, SBX_SNAKEBYTE_CAUSE_BEHEADED, turn);
            continue;
        }
        int16_t *b = BODY(c, st, a);
        memmove(b, b + 2, (size_t)(s->len - 1) * 2 * sizeof *b);
        s->len--;
        s->lost = 1;
        st->losses[player_of(c, a)]++;
    }
    /* 4. gravity */
    gravity(c, st, turn);
    st->turn = turn;

    if (rewards) {
        double r[2] = {0.0, 0.0};
        if (sb_is_terminal(c, st)) {
            int32_t rank[SBX_MAX_AGENTS];
            sb_ranking(c, st, rank);
            const int r0 = rank[0], r1 = rank[c->per_player];
            r[0] = r0 < r1 ? 1.0 : r0 > r1 ? -1.0 : 0.0;
            r[1] = -r[0];
        }
        for (int a = 0; a < n; a++) rewards[a] = r[player_of(c, a)];
    }
}

/* ------------------------------------------------------------ evaluate */

static void team_totals(const sb_cfg *c, const sb_state *st, int *len) {
    len[0] = len[1] = 0;
    for (int a = 0; a < c->agents; a++) {
        if (st->s[a].alive) len[player_of(c, a)] += st->s[a].len;
    }
}

/* +1 if player 0 is ahead by the score rule, -1 if behind, 0 if level. */
static int compare(const sb_cfg *c, const sb_state *st) {
    int len[2];
    team_totals(c, st, len);
    if (len[0] != len[1]) return len[0] > len[1] ? 1 : -1;
    if (st->losses[0] != st->losses[1]) return st->losses[0] < st->losses[1] ? 1 : -1;
    return 0;
}

static void sb_evaluate(const void *cfgv, const void *stv, double *out) {
    const sb_cfg *c = cfgv;
    const sb_state *st = stv;
    int len[2];
    team_totals(c, st, len);
    double near[2] = {0.0, 0.0};
    if (c->w_apple != 0.0 && st->napples > 0) {
        const double span = (double)(c->width + c->height);
        for (int a = 0; a < c->agents; a++) {
            if (!st->s[a].alive) continue;
            const int16_t *b = BODY(c, st, a);
            int best = 1 << 30;
            for (int w = 0; w < SB_BB_WORDS; w++) {
                for (uint64_t bits = st->apple_bb[w]; bits; bits &= bits - 1) {
                    const int cell = w * 64 + __builtin_ctzll(bits);
                    const int d = abs(cell % c->width - b[0]) + abs(cell / c->width - b[1]);
                    if (d < best) best = d;
                }
            }
            double v = 1.0 - (double)best / span;
            near[player_of(c, a)] += v > 0.0 ? v : 0.0;
        }
    }
    const int outcome = sb_is_terminal(c, st) ? compare(c, st) : 0;
    for (int p = 0; p < 2; p++) {
        const int q = 1 - p;
        double v = c->w_length * (double)(len[p] - len[q]) -
                   c->w_loss * (double)(st->losses[p] - st->losses[q]) +
                   c->w_apple * (near[p] - near[q]) +
                   c->w_win * (double)(p == 0 ? outcome : -outcome);
        for (int k = 0; k < c->per_player; k++) out[p * c->per_player + k] = v;
    }
}

/* Competition ranking over snakes: the snakes of the player behind are
 * behind every snake of the player ahead; a level score shares rank 0. */
static void sb_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    const sb_cfg *c = cfgv;
    const int cmp = compare(c, stv);
    for (int a = 0; a < c->agents; a++) {
        const int p = player_of(c, a);
        const int behind = (p == 0 && cmp < 0) || (p == 1 && cmp > 0);
        rank[a] = behind ? c->per_player : 0;
    }
}

/* ------------------------------------------------------------ export */

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const sb_cfg *c = cfgv;
    const sb_state *st = stv;
    const int W = c->width;
    sbx_emit(e, SBX_SNAKEBYTE_EXPORT_VERSION);
    sbx_emit(e, W);
    sbx_emit(e, c->height);
    sbx_emit(e, c->per_player);
    sbx_emit(e, st->turn);
    sbx_emit(e, c->max_turns);
    sbx_emit(e, st->napples);
    for (int y = 0; y < c->height; y++) {
        uint32_t lo = 0, hi = 0;
        for (int x = 0; x < W; x++) {
            if (!c->wall[y * W + x]) continue;
            if (x < 32) lo |= 1u << x;
            else hi |= 1u << (x - 32);
        }
        sbx_emit(e, (int32_t)lo);
        sbx_emit(e, (int32_t)hi);
    }
    for (int w = 0; w < SB_BB_WORDS; w++) {
        for (uint64_t bits = st->apple_bb[w]; bits; bits &= bits - 1) {
            const int cell = w * 64 + __builtin_ctzll(bits);
            sbx_emit(e, cell % W);
            sbx_emit(e, cell / W);
        }
    }
    sbx_emit(e, st->losses[0]);
    sbx_emit(e, st->losses[1]);
    for (int a = 0; a < c->agents; a++) {
        const sb_snake *s = &st->s[a];
        const int16_t *b = BODY(c, st, a);
        sbx_emit(e, s->alive);
        sbx_emit(e, s->len);
        sbx_emit(e, s->death_turn);
        sbx_emit(e, s->cause);
        sbx_emit(e, s->fell);
        sbx_emit(e, s->lost);
        for (int p = 0; p < s->len; p++) {
            sbx_emit(e, b[2 * p]);
            sbx_emit(e, b[2 * p + 1]);
        }
    }
}

static int sb_export(const void *cfgv, const void *stv, int32_t *buf, int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static uint64_t sb_hash(const void *cfgv, const void *stv) {
    return sbx_hash_with(write_export, cfgv, stv);
}

static int import_into(const sb_cfg *c, sb_state *st, const int32_t *buf, int len) {
    const int W = c->width, H = c->height;
    int p = 0;
#define NEED(k)                                                                   \
    do {                                                                          \
        if (p + (k) > len)                                                        \
            return sbx_fail(SBX_ERR_ARGUMENT, "import: data ends early at word %d", p); \
    } while (0)
    if (len > SBX_EXPORT_MAX) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: %d words, more than an export may hold (%d)", len,
                        SBX_EXPORT_MAX);
    }
    NEED(7);
    if (buf[0] != SBX_SNAKEBYTE_EXPORT_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: not a snakebyte export (version %d)",
                        (int)buf[0]);
    }
    if (buf[1] != W || buf[2] != H || buf[3] != c->per_player || buf[5] != c->max_turns) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: map %dx%d, %d snakes a player, %d turns: the game has "
                        "%dx%d, %d, %d", (int)buf[1], (int)buf[2], (int)buf[3],
                        (int)buf[5], W, H, c->per_player, c->max_turns);
    }
    const int turn = buf[4], napples = buf[6];
    if (turn < 0 || turn > SB_MAX_TURNS) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range", turn);
    }
    if (napples < 0 || napples > c->napples0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d apples, the map has %d", napples,
                        c->napples0);
    }
    st->turn = turn;
    p = 7;
    NEED(2 * H);
    for (int y = 0; y < H; y++, p += 2) {
        uint32_t lo = 0, hi = 0;
        for (int x = 0; x < W; x++) {
            if (!c->wall[y * W + x]) continue;
            if (x < 32) lo |= 1u << x;
            else hi |= 1u << (x - 32);
        }
        if ((uint32_t)buf[p] != lo || (uint32_t)buf[p + 1] != hi) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: the walls of row %d differ from "
                            "the game's map", y);
        }
    }
    NEED(2 * napples);
    int last = -1;
    for (int k = 0; k < napples; k++, p += 2) {
        const int x = buf[p], y = buf[p + 1];
        if (!in_grid(c, x, y) || c->wall[y * W + x]) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: apple (%d,%d) off the grid or in "
                            "a wall", x, y);
        }
        if (y * W + x <= last) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: apples not in increasing cell order "
                            "at (%d,%d)", x, y);
        }
        last = y * W + x;
        st->apple_bb[last >> 6] |= 1ULL << (last & 63);
    }
    st->napples = napples;
    NEED(2);
    for (int q = 0; q < 2; q++, p++) {
        if (buf[p] < 0 || buf[p] > 1000000) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: player %d losses %d", q, (int)buf[p]);
        }
        st->losses[q] = buf[p];
    }
    for (int a = 0; a < c->agents; a++) {
        NEED(6);
        const int alive = buf[p], L = buf[p + 1], death = buf[p + 2], cause = buf[p + 3];
        const int fell = buf[p + 4], lost = buf[p + 5];
        p += 6;
        if (alive != 0 && alive != 1) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d alive flag %d", a, alive);
        }
        if (L < (alive ? 3 : 1) || L > c->maxlen) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d length %d (%d..%d)", a, L,
                            alive ? 3 : 1, c->maxlen);
        }
        if (alive ? (death != -1 || cause != 0)
                  : (death < 0 || death > turn || cause < SBX_SNAKEBYTE_CAUSE_BEHEADED ||
                     cause > SBX_SNAKEBYTE_CAUSE_FELL)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: snake %d death turn %d / cause %d inconsistent", a,
                            death, cause);
        }
        if (fell < 0 || fell > H + 2 * SB_REACH || lost < 0 || lost > c->maxlen) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: snake %d fell %d / lost %d out of "
                            "range", a, fell, lost);
        }
        NEED(2 * L);
        sb_snake *s = &st->s[a];
        int16_t *b = BODY(c, st, a);
        s->alive = (uint8_t)alive;
        s->len = (uint8_t)L;
        s->death_turn = death;
        s->cause = (uint8_t)cause;
        s->fell = (uint8_t)fell;
        s->lost = (uint8_t)lost;
        for (int k = 0; k < L; k++, p += 2) {
            const int x = buf[p], y = buf[p + 1];
            /* the window a body can reach (SB_REACH off each side and the top) */
            if (x < -SB_REACH || x >= W + SB_REACH || y < -SB_REACH || y >= H + SB_REACH) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: snake %d part %d (%d,%d) too far off the grid", a, k,
                                x, y);
            }
            if (k > 0 && abs(x - b[2 * k - 2]) + abs(y - b[2 * k - 1]) != 1) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: snake %d parts %d and %d not adjacent", a, k - 1, k);
            }
            b[2 * k] = (int16_t)x;
            b[2 * k + 1] = (int16_t)y;
        }
    }
    if (p != len) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words expected, got %d", p, len);
    }
    return SBX_OK;
#undef NEED
}

static int sb_import(const void *cfgv, void *stv, const int32_t *buf, int len) {
    const sb_cfg *c = cfgv;
    sb_state *nst = calloc(1, c->size);
    if (!nst) return sbx_fail(SBX_ERR_MEMORY, "import: out of memory");
    int rc = import_into(c, nst, buf, len);
    if (rc == SBX_OK) {
        nst->rng = ((sb_state *)stv)->rng;
        memcpy(stv, nst, c->size);
    }
    free(nst);
    return rc;
}

static const char *sb_move_name(const void *cfgv, int agent, int move) {
    (void)cfgv;
    (void)agent;
    return (move >= 0 && move < 4) ? MOVE_NAMES[move] : "?";
}

const snakes_ruleset sbx_snakebyte_ruleset = {
    .name = "snakebyte",
    .configure = sb_configure,
    .describe = sb_describe,
    .state_size = sb_state_size,
    .num_agents = sb_num_agents,
    .init = sb_init,
    .legal_moves = sb_legal_moves,
    .step = sb_step,
    .is_terminal = sb_is_terminal,
    .is_alive = sb_is_alive,
    .alive_mask = sb_alive_mask,
    .evaluate = sb_evaluate,
    .ranking = sb_ranking,
    .side = sb_side,
    .hash = sb_hash,
    .export_state = sb_export,
    .import_state = sb_import,
    .move_name = sb_move_name,
};
