/*
 * snakes_board.c -- the snakes board's food and start layout: adding,
 * removing and spawning food as the official engine does, the standard
 * placement of the snakes and of the start food. Below snakes.c (the rules)
 * and snakes_maps.c (the official maps), which both use it.
 */
#include <stdlib.h>

#include "../core/common.h"
#include "snakes_std.h"

/* ------------------------------------------------------------ food */

void snakes_food_add(const snakes_cfg *cfg, snakes_state *st, int cell) {
    CELLS(cfg, st)[cell] |= FOOD_BIT;
    FOODL(cfg, st)[st->food_count++] = (uint16_t)cell;
}
#define food_add snakes_food_add

void snakes_food_remove(const snakes_cfg *cfg, snakes_state *st, int cell) {
    CELLS(cfg, st)[cell] &= (uint8_t)~FOOD_BIT;
    uint16_t *fl = FOODL(cfg, st);
    for (int k = 0; k < st->food_count; k++) {
        if (fl[k] == cell) {
            fl[k] = fl[--st->food_count];
            return;
        }
    }
}

void snakes_food_clear(const snakes_cfg *cfg, snakes_state *st) {
    uint8_t *cells = CELLS(cfg, st);
    const uint16_t *fl = FOODL(cfg, st);
    for (int k = 0; k < st->food_count; k++) cells[fl[k]] &= (uint8_t)~FOOD_BIT;
    st->food_count = 0;
}

/* The official engine's free cell for new food: no food, no live body, not
 * next to a live head (next as on a plain board, also in wrapped games), and
 * on maps that say so no hazard. */
static int spawn_ok(const snakes_cfg *cfg, const snakes_state *st, int cell,
                    int avoid_hazards) {
    const uint8_t *cells = CELLS(cfg, st);
    if (cells[cell]) return 0;
    if (avoid_hazards && HZ(cfg, st)[cell]) return 0;
    int x = cell % cfg->width, y = cell / cfg->width;
    for (int i = 0; i < cfg->snakes; i++) {
        const snake *s = &st->s[i];
        if (!s->alive) continue;
        int d = abs(s->hx - x) + abs(s->hy - y);
        if (d <= 1) return 0;
    }
    return 1;
}

/* Uniform over eligible cells: a few rejection-sampling tries (cheap when
 * the board is open), then an exact scan. Returns 1 if food was placed. */
int snakes_spawn_one(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards) {
    uint32_t n = (uint32_t)cfg->ncells;
    for (int t = 0; t < 16; t++) {
        int c = (int)sbx_rng_below(&st->rng, n);
        if (spawn_ok(cfg, st, c, avoid_hazards)) {
            food_add(cfg, st, c);
            return 1;
        }
    }
    uint32_t count = 0;
    for (int c = 0; c < cfg->ncells; c++) count += (uint32_t)spawn_ok(cfg, st, c, avoid_hazards);
    if (count == 0) return 0;
    uint32_t k = sbx_rng_below(&st->rng, count);
    for (int c = 0; c < cfg->ncells; c++) {
        if (spawn_ok(cfg, st, c, avoid_hazards) && k-- == 0) {
            food_add(cfg, st, c);
            return 1;
        }
    }
    return 0; /* unreachable */
}

/* The standard map's food after a turn: below minimum_food the missing
 * ones; otherwise one with probability (food_spawn_chance - 1)%, as the
 * official engine draws it (100 - uniform(0..99) < chance). */
void snakes_standard_food(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards) {
    if (st->food_count < cfg->minimum_food) {
        int missing = cfg->minimum_food - st->food_count;
        for (int k = 0; k < missing; k++) snakes_spawn_one(cfg, st, avoid_hazards);
    } else if (cfg->food_spawn_chance > 0 &&
               100 - (int)sbx_rng_below(&st->rng, 100) < cfg->food_spawn_chance) {
        snakes_spawn_one(cfg, st, avoid_hazards);
    }
}

/* ------------------------------------------------------------ init */

/* Snake i on xy[i], its three segments stacked, full health. */
void snakes_place_at(const snakes_cfg *cfg, snakes_state *st, const int (*xy)[2]) {
    uint8_t *cells = CELLS(cfg, st);
    for (int i = 0; i < cfg->snakes; i++) {
        int x = xy[i][0], y = xy[i][1];
        snake *s = &st->s[i];
        uint16_t *ring = RING(cfg, st, i);
        s->head = 0;
        s->length = 3;
        s->health = (int16_t)cfg->max_health;
        s->hx = (int8_t)x;
        s->hy = (int8_t)y;
        s->alive = 1;
        s->death_turn = -1;
        for (int j = 0; j < 3; j++) ring[j] = (uint16_t)(y * cfg->width + x);
        body_inc(cells, st, y * cfg->width + x); /* the two non-head segments */
        body_inc(cells, st, y * cfg->width + x);
    }
    st->alive_count = (int16_t)cfg->snakes;
}

/* The standard placement: the four corners (1 in from the edges) and the
 * four edge midpoints, each group shuffled, a coin for which goes first. */
void snakes_place_fixed(const snakes_cfg *cfg, snakes_state *st) {
    int W = cfg->width, H = cfg->height;
    int lo = 1, hx = W - 2, hy = H - 2, mx = (W - 1) / 2, my = (H - 1) / 2;
    int corners[4][2] = {{lo, lo}, {lo, hy}, {hx, lo}, {hx, hy}};
    int mids[4][2] = {{lo, my}, {mx, lo}, {mx, hy}, {hx, my}};
    for (int g = 0; g < 2; g++) {
        int(*grp)[2] = g == 0 ? corners : mids;
        for (int i = 3; i > 0; i--) {
            int j = (int)sbx_rng_below(&st->rng, (uint32_t)(i + 1));
            int t0 = grp[i][0], t1 = grp[i][1];
            grp[i][0] = grp[j][0];
            grp[i][1] = grp[j][1];
            grp[j][0] = t0;
            grp[j][1] = t1;
        }
    }
    int corners_first = sbx_rng_below(&st->rng, 2) == 0;
    int xy[SBX_MAX_AGENTS][2];
    for (int i = 0; i < cfg->snakes; i++) {
        int k = i % 4;
        int use_corners = (i < 4) == corners_first;
        xy[i][0] = use_corners ? corners[k][0] : mids[k][0];
        xy[i][1] = use_corners ? corners[k][1] : mids[k][1];
    }
    snakes_place_at(cfg, st, (const int(*)[2])xy);
}

/* The start food: one diagonal to each head, farther from the centre on an
 * axis, never a corner or the centre (skipped with more than four snakes
 * on a board under 11x11 cells), then one on the centre if it is free.
 * avoid_hazards: also not on a hazard (the newer maps' variant). */
void snakes_food_fixed(const snakes_cfg *cfg, snakes_state *st, int avoid_hazards) {
    const int W = cfg->width, H = cfg->height;
    const uint8_t *cells = CELLS(cfg, st);
    int cx = (W - 1) / 2, cy = (H - 1) / 2;
    int small = W * H < 11 * 11;
    for (int i = 0; i < cfg->snakes && (cfg->snakes <= 4 || !small); i++) {
        const snake *s = &st->s[i];
        int cand[4], nc = 0;
        static const int DD[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
        for (int d = 0; d < 4; d++) {
            int x = s->hx + DD[d][0], y = s->hy + DD[d][1];
            if (x < 0 || y < 0 || x >= W || y >= H) continue;
            int c = y * W + x;
            if (cells[c]) continue; /* body or food */
            if (avoid_hazards && HZ(cfg, st)[c]) continue;
            int head_here = 0;
            for (int j = 0; j < cfg->snakes; j++) {
                head_here |= (st->s[j].hx == x && st->s[j].hy == y);
            }
            if (head_here) continue;
            if (x == cx && y == cy) continue;
            if ((x == 0 || x == W - 1) && (y == 0 || y == H - 1)) continue;
            int away = (x < s->hx && s->hx < cx) || (cx < s->hx && s->hx < x) ||
                       (y < s->hy && s->hy < cy) || (cy < s->hy && s->hy < y);
            if (!away) continue;
            cand[nc++] = c;
        }
        if (nc > 0) food_add(cfg, st, cand[sbx_rng_below(&st->rng, (uint32_t)nc)]);
    }
    int cc = cy * W + cx, centre_taken = (cells[cc] != 0);
    if (avoid_hazards) centre_taken |= HZ(cfg, st)[cc] != 0;
    for (int j = 0; j < cfg->snakes; j++) {
        centre_taken |= (st->s[j].hx == cx && st->s[j].hy == cy);
    }
    if (!centre_taken) food_add(cfg, st, cc);
}

