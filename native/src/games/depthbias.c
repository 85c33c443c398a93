/*
 * depthbias.c — the `depthbias` game: the tutorial's §13 depth-bias widget
 * as a real game, so the C search core shows the bias of raw backups.
 *
 * Rules
 *   - One agent. On turn 0 it chooses one of three actions:
 *       move 0 sprint, move 1 march, move 2 siege.
 *   - The choice fixes the episode's length L: L turns in total, the choice
 *     turn included, drawn uniformly from the action's range [min, max] by
 *     the state's own RNG at the moment of the choice. The search reseeds its
 *     simulation copy every iteration, so its iterations sample different
 *     lengths; the real game draws one.
 *   - Every turn (the choice turn included) earns the action's per-turn
 *     points. After the choice the only legal move is `go` (move 3).
 *   - Terminal after L turns. evaluate() = points so far; the ranking is
 *     trivial (one agent, rank 0); the reward of a step is the points that
 *     turn earned, so the rewards add up to the evaluation.
 *   Defaults: sprint 2..5 turns at 10 points, march 6..10 at 8, siege 13..18
 *   at 7. Sprint earns the most per turn but the fewest in total: expected
 *   totals 10 * 3.5 = 35, 8 * 8 = 64, 7 * 15.5 = 108.5, so raw totals make
 *   Siege look about 3x better than Sprint, while per turn (the tutorial's
 *   depth normalisation) Sprint is best (10 > 8 > 7).
 *
 * State storage (one plain struct; clone = memcpy):
 *   rng     the state's own stream (drawn once, at the choice)
 *   turn    turns played
 *   choice  -1 before the choice, else 0..2
 *   length  L (0 before the choice)
 *   points  points earned so far (= turn * per-turn points of the choice)
 *
 * The export echoes the nine parameters after the state words: the renderer
 * only sees the export and draws each action's range and rate from them
 * (as matrix.c exports its tables). An import must repeat them exactly.
 */
#include <stdio.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"

#define NUM_ACTIONS 3
#define MOVE_GO 3
#define MAX_LEN 60
#define MAX_POINTS 1000

static const char *const MOVE_NAMES[NUM_ACTIONS + 1] = {"sprint", "march",
                                                        "siege", "go"};
static const char *const ACTION_KEYS[NUM_ACTIONS] = {"sprint", "march",
                                                     "siege"};

typedef struct db_cfg {
    int min[NUM_ACTIONS], max[NUM_ACTIONS], points[NUM_ACTIONS];
} db_cfg;

typedef struct db_state {
    uint64_t rng;
    int32_t turn;
    int32_t choice;
    int32_t length;
    int32_t points;
} db_state;

/* ------------------------------------------------------------ parameters */

static const char PARAMS_DOC[] =
    "sprint_min=2 sprint_max=5   turns a sprint lasts (the choice included),\n"
    "                            1 <= min <= max <= 60\n"
    "sprint_points=10            points per turn of a sprint, 1..1000\n"
    "march_min=6 march_max=10    likewise for a march\n"
    "march_points=8\n"
    "siege_min=13 siege_max=18   likewise for a siege\n"
    "siege_points=7\n"
    "One agent. Turn 0: move 0 sprint, 1 march or 2 siege; the episode then\n"
    "lasts L turns in total, L drawn uniformly from the action's min..max by\n"
    "the state's RNG at the choice (each search iteration samples it anew).\n"
    "Every turn, the choice turn included, earns the action's points; after\n"
    "the choice the only move is 3 `go`. Evaluation: points so far.\n"
    "With the defaults raw totals favour siege (7 * 15.5 = 108.5 expected)\n"
    "over sprint (10 * 3.5 = 35), per turn sprint is best (10 > 8 > 7).\n";

static int set_param(void *ctx, const char *key, const char *value) {
    db_cfg *c = ctx;
    for (int i = 0; i < NUM_ACTIONS; i++) {
        const size_t n = strlen(ACTION_KEYS[i]);
        if (strncmp(key, ACTION_KEYS[i], n) != 0 || key[n] != '_') continue;
        const char *what = key + n + 1;
        if (strcmp(what, "min") == 0) {
            return sbx_kv_int(key, value, 1, MAX_LEN, &c->min[i]);
        }
        if (strcmp(what, "max") == 0) {
            return sbx_kv_int(key, value, 1, MAX_LEN, &c->max[i]);
        }
        if (strcmp(what, "points") == 0) {
            return sbx_kv_int(key, value, 1, MAX_POINTS, &c->points[i]);
        }
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown depthbias parameter '%s'", key);
}

static int db_configure(void *cfgv, const char *params) {
    static const int MIN[NUM_ACTIONS] = {2, 6, 13}, MAX[NUM_ACTIONS] = {5, 10, 18},
                     PTS[NUM_ACTIONS] = {10, 8, 7};
    db_cfg *c = cfgv;
    memset(c, 0, sizeof *c); /* configs are compared bytewise */
    for (int i = 0; i < NUM_ACTIONS; i++) {
        c->min[i] = MIN[i];
        c->max[i] = MAX[i];
        c->points[i] = PTS[i];
    }
    int rc = sbx_parse_kv(params, set_param, c);
    if (rc != SBX_OK) return rc;
    /* Checked after every key is read, so the order of the keys does not
     * matter ("siege_max=30 siege_min=20" is as good as the reverse). */
    for (int i = 0; i < NUM_ACTIONS; i++) {
        if (c->min[i] > c->max[i]) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s_min=%d is greater than %s_max=%d (need min <= "
                            "max)", ACTION_KEYS[i], c->min[i], ACTION_KEYS[i],
                            c->max[i]);
        }
    }
    return SBX_OK;
}

static void db_describe(const void *cfgv, char *buf, size_t cap) {
    const db_cfg *c = cfgv;
    snprintf(buf, cap,
             "sprint_min=%d sprint_max=%d sprint_points=%d "
             "march_min=%d march_max=%d march_points=%d "
             "siege_min=%d siege_max=%d siege_points=%d",
             c->min[0], c->max[0], c->points[0], c->min[1], c->max[1],
             c->points[1], c->min[2], c->max[2], c->points[2]);
}

static size_t db_state_size(const void *cfgv) {
    (void)cfgv;
    return sizeof(db_state);
}
static int db_num_agents(const void *cfgv) {
    (void)cfgv;
    return 1;
}
static int db_max_moves(const void *cfgv) {
    (void)cfgv;
    return NUM_ACTIONS + 1; /* ids 0..3; `go` is 3 */
}

/* ------------------------------------------------------------ play */

static int db_init(const void *cfgv, void *stv, uint64_t seed) {
    (void)cfgv;
    db_state *st = stv;
    memset(st, 0, sizeof *st);
    st->rng = seed;
    st->choice = -1;
    return SBX_OK;
}

static void db_reseed(void *stv, uint64_t seed) {
    ((db_state *)stv)->rng = seed;
}
static int db_turn(const void *stv) { return ((const db_state *)stv)->turn; }

static int db_is_terminal(const void *cfgv, const void *stv) {
    (void)cfgv;
    const db_state *st = stv;
    return st->choice >= 0 && st->turn >= st->length;
}

static int db_legal_moves(const void *cfgv, const void *stv, int agent,
                          uint8_t *out) {
    (void)agent;
    const db_state *st = stv;
    if (st->choice < 0) {
        out[0] = 0;
        out[1] = 1;
        out[2] = 2;
        return NUM_ACTIONS;
    }
    if (db_is_terminal(cfgv, stv)) return 0;
    out[0] = MOVE_GO;
    return 1;
}

static int db_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    (void)stv;
    (void)agent;
    return 1; /* nobody is eliminated; the episode just ends */
}

static uint32_t db_alive_mask(const void *cfgv, const void *stv) {
    (void)cfgv;
    (void)stv;
    return 1u;
}

static void db_step(const void *cfgv, void *stv, const uint8_t *joint,
                    double *rewards) {
    const db_cfg *cfg = cfgv;
    db_state *st = stv;
    if (st->choice < 0) {
        /* moves are assumed legal (game.c checks them); the clamp only keeps
         * a bad id from indexing out of range */
        const int a = joint[0] < NUM_ACTIONS ? joint[0] : 0;
        const uint32_t span = (uint32_t)(cfg->max[a] - cfg->min[a] + 1);
        st->choice = a;
        st->length = cfg->min[a] + (int32_t)sbx_rng_below(&st->rng, span);
    }
    const int earned = cfg->points[st->choice];
    st->points += earned;
    st->turn++;
    if (rewards) rewards[0] = (double)earned;
}

static void db_evaluate(const void *cfgv, const void *stv, double *scores) {
    (void)cfgv;
    scores[0] = (double)((const db_state *)stv)->points;
}

static void db_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    (void)cfgv;
    (void)stv;
    rank[0] = 0;
}

/* ------------------------------------------------------------ export */

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const db_cfg *cfg = cfgv;
    const db_state *st = stv;
    sbx_emit(e, SBX_DEPTHBIAS_EXPORT_VERSION);
    sbx_emit(e, st->turn);
    sbx_emit(e, st->choice);
    sbx_emit(e, st->length);
    sbx_emit(e, st->points);
    for (int i = 0; i < NUM_ACTIONS; i++) {
        sbx_emit(e, cfg->min[i]);
        sbx_emit(e, cfg->max[i]);
        sbx_emit(e, cfg->points[i]);
    }
}

static int db_export(const void *cfgv, const void *stv, int32_t *buf, int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static uint64_t db_hash(const void *cfgv, const void *stv) {
    return sbx_hash_with(write_export, cfgv, stv);
}

#define EXPORT_WORDS (5 + 3 * NUM_ACTIONS)

static int db_import(const void *cfgv, void *stv, const int32_t *buf,
                     int len) {
    const db_cfg *cfg = cfgv;
    if (len != EXPORT_WORDS) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words, a depthbias "
                        "export has %d", len, EXPORT_WORDS);
    }
    if (buf[0] != SBX_DEPTHBIAS_EXPORT_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: unknown export version %d",
                        (int)buf[0]);
    }
    for (int i = 0; i < NUM_ACTIONS; i++) {
        const int32_t *p = &buf[5 + 3 * i];
        if (p[0] != cfg->min[i] || p[1] != cfg->max[i] ||
            p[2] != cfg->points[i]) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: %s %d..%d at %d points does not match the "
                            "game's %d..%d at %d", ACTION_KEYS[i], (int)p[0],
                            (int)p[1], (int)p[2], cfg->min[i], cfg->max[i],
                            cfg->points[i]);
        }
    }
    const int32_t turn = buf[1], choice = buf[2], length = buf[3],
                  points = buf[4];
    if (choice < 0 || turn == 0) {
        if (turn != 0 || choice != -1 || length != 0 || points != 0) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: before the choice turn, choice, length "
                            "and points must be 0, -1, 0, 0 (got %d, %d, %d, "
                            "%d)", (int)turn, (int)choice, (int)length,
                            (int)points);
        }
    } else {
        if (choice >= NUM_ACTIONS) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: choice %d out of range "
                            "-1..%d", (int)choice, NUM_ACTIONS - 1);
        }
        if (length < cfg->min[choice] || length > cfg->max[choice]) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: length %d outside %s's "
                            "%d..%d", (int)length, ACTION_KEYS[choice],
                            cfg->min[choice], cfg->max[choice]);
        }
        if (turn < 1 || turn > length) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range "
                            "1..%d", (int)turn, (int)length);
        }
        if ((int64_t)points != (int64_t)turn * cfg->points[choice]) {
            return sbx_fail(SBX_ERR_ARGUMENT, "import: %d points after %d "
                            "turns of %s, the rules give %d", (int)points,
                            (int)turn, ACTION_KEYS[choice],
                            (int)turn * cfg->points[choice]);
        }
    }
    db_state *st = stv;
    st->turn = turn; /* rng kept: the chance stream is not exported */
    st->choice = choice;
    st->length = length;
    st->points = points;
    return SBX_OK;
}

static const char *db_move_name(const void *cfgv, int agent, int move) {
    (void)cfgv;
    (void)agent;
    return (move >= 0 && move <= MOVE_GO) ? MOVE_NAMES[move] : "?";
}

const sbx_game_vt sbx_depthbias_vt = {
    .name = "depthbias",
    .params_doc = PARAMS_DOC,
    .cfg_size = sizeof(db_cfg),
    .configure = db_configure,
    .describe = db_describe,
    .state_size = db_state_size,
    .num_agents = db_num_agents,
    .max_moves = db_max_moves,
    .fixed_moves = 0,
    .init = db_init,
    .reseed = db_reseed,
    .turn = db_turn,
    .legal_moves = db_legal_moves,
    .step = db_step,
    .is_terminal = db_is_terminal,
    .is_alive = db_is_alive,
    .alive_mask = db_alive_mask,
    .evaluate = db_evaluate,
    .ranking = db_ranking,
    .hash = db_hash,
    .export_state = db_export,
    .import_state = db_import,
    .move_name = db_move_name,
};
