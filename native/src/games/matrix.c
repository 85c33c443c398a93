/*
 * matrix.c — the `matrix` game (docs/games.md, Matrix games): a two-player normal-form game,
 * played once or repeated K times, from a named preset or a payoff table.
 *
 * Agent 0 picks a row r (moves 0..R-1), agent 1 a column c (moves 0..C-1),
 * simultaneously; the round pays a[r][c] to agent 0 and b[r][c] to agent 1.
 * General-sum is allowed; without b rows the game is zero-sum (b = -a).
 *
 * State storage (one contiguous blob; clone = memcpy of state_size bytes):
 *
 *   +------------------------+  matrix_state: rng (kept for reseed only —
 *   | header                 |  the game has no chance events), turn,
 *   |                        |  the last joint action (-1/-1 before round 1)
 *   +------------------------+
 *   | counts[R*C]    int32   |  times each joint action (row-major) was
 *   |                        |  played so far; they sum to turn
 *   +------------------------+
 *
 * Totals are never stored: they are recomputed from the counts (one fixed
 * summation order), so an imported state — integer words only — scores
 * bit-for-bit like the state that was exported, whatever order the rounds
 * were played in.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"

#define MAX_ACT 16        /* actions per player (SBX_MAX_MOVES)            */
#define NAME_CAP 16       /* action name: 1..15 chars + NUL                */
#define MAX_REPEATS 10000
#define PAYOFF_LIMIT 1e6  /* |payoff| bound: milli-units fit in an int32   */
#define PRESET_CUSTOM (-1)

_Static_assert(MAX_ACT <= SBX_MAX_MOVES, "moves are uint8 ids < SBX_MAX_MOVES");

/* ------------------------------------------------------------ presets
 *
 * Row player's payoff a, column player's b, actions listed row-first. The
 * equilibria are those of the one-shot game.
 */
enum { B_ZERO_SUM, B_TRANSPOSE, B_EXPLICIT };

typedef struct preset_def {
    const char *name;
    int rows, cols;
    double a[3][3];
    int b_mode;           /* how b is derived from a (or given)         */
    double b[3][3];       /* B_EXPLICIT only                            */
    const char *actions;  /* both players' names, '/'-separated         */
} preset_def;

static const preset_def PRESETS[] = {
    /* Rock-paper-scissors, zero-sum: winner +1, loser -1, tie 0. Unique
     * Nash equilibrium: uniform (1/3, 1/3, 1/3) for both, value 0. */
    {"rps", 3, 3, {{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}, B_ZERO_SUM, {{0}},
     "rock/paper/scissors"},
    /* Biased RPS (docs/games.md, Matrix games), zero-sum and antisymmetric (a^T = -a), so
     * both players share the unique equilibrium (1/16, 5/8, 5/16), value 0:
     * against it every pure row earns exactly 0, e.g. rock:
     * 0/16 - 25*10/16 + 50*5/16 = 0. */
    {"biased_rps", 3, 3, {{0, -25, 50}, {25, 0, -5}, {-50, 5, 0}}, B_ZERO_SUM,
     {{0}}, "rock/paper/scissors"},
    /* Matching pennies, zero-sum: the row player wins on a match. Unique
     * equilibrium: uniform for both, value 0. */
    {"matching_pennies", 2, 2, {{1, -1}, {-1, 1}}, B_ZERO_SUM, {{0}},
     "heads/tails"},
    /* Prisoner's dilemma, symmetric (b = a^T) with T=5 > R=3 > P=1 > S=0.
     * Defect strictly dominates: the unique equilibrium is (defect, defect)
     * paying (1, 1), Pareto-dominated by (cooperate, cooperate) = (3, 3). */
    {"prisoners_dilemma", 2, 2, {{3, 0}, {5, 1}}, B_TRANSPOSE, {{0}},
     "cooperate/defect"},
    /* Battle of the sexes: the row player prefers opera, the column player
     * football, both prefer agreeing. Equilibria: (opera, opera) = (3, 2),
     * (football, football) = (2, 3), and the mixed one — row plays opera
     * with 3/5, column with 2/5 — paying (6/5, 6/5). */
    {"battle_of_sexes", 2, 2, {{3, 0}, {0, 2}}, B_EXPLICIT, {{2, 0}, {0, 3}},
     "opera/football"},
    /* Stag hunt, symmetric (b = a^T). Equilibria: (stag, stag) = (4, 4),
     * payoff-dominant; (hare, hare) = (3, 3), risk-dominant; and the mixed
     * one, stag with 3/4 each, paying (3, 3). */
    {"stag_hunt", 2, 2, {{4, 0}, {3, 3}}, B_TRANSPOSE, {{0}}, "stag/hare"},
    /* Chicken (hawk-dove), symmetric (b = a^T). Equilibria: (swerve,
     * straight) = (-1, 1), (straight, swerve) = (1, -1), and the mixed one,
     * swerve with 9/10 each, paying (-1/10, -1/10). */
    {"chicken", 2, 2, {{0, -1}, {1, -10}}, B_TRANSPOSE, {{0}},
     "swerve/straight"},
    /* Shapley's game in rock-paper-scissors form: the winner gets 1, a tie
     * or a loss 0 (a[r][c] = 1 iff r beats c, b = a^T), so it is not
     * zero-sum. Unique equilibrium: uniform for both, paying (1/3, 1/3);
     * fictitious play does not converge on it but cycles (Shapley 1964). */
    {"shapley", 3, 3, {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, B_TRANSPOSE, {{0}},
     "rock/paper/scissors"},
};
#define NUM_PRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

/* ------------------------------------------------------------ config/state */

typedef struct matrix_cfg {
    int rows, cols, repeats;
    int preset;                    /* index into PRESETS or PRESET_CUSTOM  */
    int zero_sum;                  /* b == -a exactly                      */
    double a[MAX_ACT][MAX_ACT];    /* row player's payoffs                 */
    double b[MAX_ACT][MAX_ACT];    /* column player's payoffs              */
    int32_t a_milli[MAX_ACT][MAX_ACT]; /* export words (see milli())       */
    int32_t b_milli[MAX_ACT][MAX_ACT];
    char names[2][MAX_ACT][NAME_CAP];  /* [agent][move], NUL-padded        */
    size_t size;                   /* state_size                           */
} matrix_cfg;

typedef struct matrix_state {
    uint64_t rng;
    int32_t turn;
    int32_t last_row, last_col;    /* -1 before the first round           */
    int32_t counts[];              /* [R*C], row-major                     */
} matrix_state;

/* ------------------------------------------------------------ parameters */

static const char PARAMS_DOC[] =
    "preset=rps                rps, biased_rps, matching_pennies,\n"
    "                          prisoners_dilemma, battle_of_sexes, stag_hunt,\n"
    "                          chicken, shapley; or custom (a payoff table)\n"
    "rows=3 cols=3             payoff table size, 1..16 each (implies\n"
    "                          preset=custom; cannot be mixed with a preset)\n"
    "a0=0/-1/1 a1=... a<R-1>=  row player's payoffs, one key per row with\n"
    "                          cols values separated by '/', each finite,\n"
    "                          -1e6..1e6\n"
    "b0=... b<R-1>=            column player's payoffs, same form; all rows\n"
    "                          or none (none: zero-sum, b = -a)\n"
    "row_actions=rock/paper/scissors  action names, 1..15 chars of\n"
    "col_actions=...           A-Z a-z 0-9 _ - (default: the preset's, or\n"
    "                          r0/r1/... and c0/c1/... for a table)\n"
    "repeats=1                 rounds played (K-times repeated game), 1..10000\n"
    "Presets (row payoffs a; b = -a, a^T or given):\n"
    "  rps               [[0,-1,1],[1,0,-1],[-1,1,0]], zero-sum\n"
    "  biased_rps        [[0,-25,50],[25,0,-5],[-50,5,0]], zero-sum,\n"
    "                    Nash (1/16, 5/8, 5/16)\n"
    "  matching_pennies  [[1,-1],[-1,1]], zero-sum (row wins on a match)\n"
    "  prisoners_dilemma [[3,0],[5,1]], b = a^T (cooperate/defect)\n"
    "  battle_of_sexes   [[3,0],[0,2]], b = [[2,0],[0,3]] (opera/football)\n"
    "  stag_hunt         [[4,0],[3,3]], b = a^T (stag/hare)\n"
    "  chicken           [[0,-1],[1,-10]], b = a^T (swerve/straight)\n"
    "  shapley           winner gets 1, else 0: a[r][c] = 1 iff r beats c\n"
    "                    (rock/paper/scissors), b = a^T\n"
    "Agent 0 picks a row, agent 1 a column; each round pays a[r][c] to\n"
    "agent 0 and b[r][c] to agent 1 (the step's rewards).\n"
    "Evaluation (the search's leaf score): each agent's total payoff so\n"
    "far, i.e. the exact return once all rounds are played.\n"
    "Ranking: by total payoff, higher is better, ties share a rank.\n";

/* Everything the key=value pairs said, collected before any cross-key check
 * (keys may come in any order). Rows and names are parsed as they arrive:
 * the parser's value buffer is reused for the next pair. */
typedef struct parse_ctx {
    int preset;                    /* -2: not given                        */
    int rows, cols;                /* 0: not given                         */
    int repeats;
    double a[MAX_ACT][MAX_ACT], b[MAX_ACT][MAX_ACT];
    int a_n[MAX_ACT], b_n[MAX_ACT];/* values given per row, -1: key absent */
    int names_n[2];                /* -1: not given                        */
    char names[2][MAX_ACT][NAME_CAP];
    char table_key[8];             /* first table key seen, for messages   */
} parse_ctx;

#define PRESET_UNSET (-2)

static int name_char_ok(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
}

/* One '/'-separated item of a list value: its start and length; *p moves
 * past its separator. Returns 0 when the list is used up. */
static int next_item(const char **p, const char **start, size_t *len) {
    if (*p == NULL) return 0;
    const char *s = *p, *q = s;
    while (*q && *q != '/') q++;
    *start = s;
    *len = (size_t)(q - s);
    *p = *q ? q + 1 : NULL; /* NULL: that was the last item */
    return 1;
}

/* "rock/paper/scissors" -> names; returns the count or a failure. */
static int parse_names(const char *key, const char *value,
                       char out[MAX_ACT][NAME_CAP]) {
    int n = 0;
    const char *p = value, *s;
    size_t len;
    while (next_item(&p, &s, &len)) {
        if (n == MAX_ACT) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: more than %d names", key,
                            MAX_ACT);
        }
        if (len == 0 || len >= NAME_CAP) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: name %d must have 1..%d characters", key, n,
                            NAME_CAP - 1);
        }
        for (size_t i = 0; i < len; i++) {
            if (!name_char_ok(s[i])) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "%s: name %d '%.*s' may only use A-Z a-z 0-9 _ -",
                                key, n, (int)len, s);
            }
        }
        memset(out[n], 0, NAME_CAP);
        memcpy(out[n], s, len);
        for (int j = 0; j < n; j++) {
            if (strcmp(out[j], out[n]) == 0) {
                return sbx_fail(SBX_ERR_ARGUMENT, "%s: name '%s' given twice",
                                key, out[n]);
            }
        }
        n++;
    }
    return n;
}

/* "0/-25/50" -> values (at most MAX_ACT); returns the count or a failure. */
static int parse_row(const char *key, const char *value, double *out) {
    int n = 0;
    const char *p = value, *s;
    size_t len;
    while (next_item(&p, &s, &len)) {
        if (n == MAX_ACT) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: more than %d values", key,
                            MAX_ACT);
        }
        char num[64];
        if (len == 0 || len >= sizeof num) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: value %d is empty or too long", key, n);
        }
        memcpy(num, s, len);
        num[len] = 0;
        char *end = NULL;
        double v = strtod(num, &end);
        if (end == num || *end) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: value %d '%s' is not a number", key, n, num);
        }
        /* strtod's underflow (ERANGE) still gives a usable tiny or zero
         * value; overflow (±HUGE_VAL), inf and nan are refused here. */
        if (!isfinite(v)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: value %d '%s' is not finite", key, n, num);
        }
        if (v < -PAYOFF_LIMIT || v > PAYOFF_LIMIT) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: value %d (%s) out of range -1e6..1e6", key, n,
                            num);
        }
        out[n++] = v == 0.0 ? 0.0 : v; /* -0 -> +0: b = -a stays exact */
    }
    return n;
}

/* "a7" / "b12" -> player 0/1 and row 7/12; 0 if key is not of that form. */
static int table_key(const char *key, int *player, int *row) {
    if ((key[0] != 'a' && key[0] != 'b') || key[1] < '0' || key[1] > '9') {
        return 0;
    }
    if (key[1] == '0' && key[2]) return 0; /* no leading zeros: one spelling */
    long v = 0;
    for (const char *p = key + 1; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        if (v < 1000) v = v * 10 + (*p - '0'); /* saturates: out of range */
    }
    *player = key[0] == 'b';
    *row = (int)v;
    return 1;
}

static void note_table_key(parse_ctx *x, const char *key) {
    if (!x->table_key[0]) snprintf(x->table_key, sizeof x->table_key, "%s", key);
}

static int set_param(void *ctx, const char *key, const char *value) {
    parse_ctx *x = ctx;
    if (strcmp(key, "preset") == 0) {
        if (strcmp(value, "custom") == 0) {
            x->preset = PRESET_CUSTOM;
            return SBX_OK;
        }
        for (int i = 0; i < NUM_PRESETS; i++) {
            if (strcmp(value, PRESETS[i].name) == 0) {
                x->preset = i;
                return SBX_OK;
            }
        }
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "preset: unknown preset '%s' (have: rps, biased_rps, "
                        "matching_pennies, prisoners_dilemma, battle_of_sexes, "
                        "stag_hunt, chicken, shapley, custom)",
                        value);
    }
    if (strcmp(key, "rows") == 0 || strcmp(key, "cols") == 0) {
        note_table_key(x, key);
        return sbx_kv_int(key, value, 1, MAX_ACT,
                          key[0] == 'r' ? &x->rows : &x->cols);
    }
    if (strcmp(key, "repeats") == 0) {
        return sbx_kv_int(key, value, 1, MAX_REPEATS, &x->repeats);
    }
    if (strcmp(key, "row_actions") == 0 || strcmp(key, "col_actions") == 0) {
        int who = key[0] == 'c';
        int n = parse_names(key, value, x->names[who]);
        if (n < 0) return n;
        x->names_n[who] = n;
        return SBX_OK;
    }
    int player, row;
    if (table_key(key, &player, &row)) {
        if (row >= MAX_ACT) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: row index out of range (rows are 0..%d at most)",
                            key, MAX_ACT - 1);
        }
        note_table_key(x, key);
        double *dst = player ? x->b[row] : x->a[row];
        int n = parse_row(key, value, dst);
        if (n < 0) return n;
        (player ? x->b_n : x->a_n)[row] = n;
        return SBX_OK;
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown matrix parameter '%s'", key);
}

/* Exact milli-units for the export: round(x * 1000) half away from zero,
 * clamped to int32. Written without libm (|y| < 2^53, so the truncation and
 * the fraction are exact). */
static int32_t milli(double x) {
    double y = x * 1000.0;
    if (!(y < 2147483647.0)) return INT32_MAX; /* also catches NaN */
    if (y < -2147483648.0) return INT32_MIN;
    int64_t t = (int64_t)y;
    double frac = y - (double)t;
    if (frac >= 0.5) t++;
    else if (frac <= -0.5) t--;
    if (t > INT32_MAX) t = INT32_MAX;
    if (t < INT32_MIN) t = INT32_MIN;
    return (int32_t)t;
}

static void default_names(char names[MAX_ACT][NAME_CAP], int n, char prefix) {
    for (int i = 0; i < n; i++) {
        snprintf(names[i], NAME_CAP, "%c%d", prefix, i);
    }
}

/* Cross-key checks and the final table; c is zeroed, x fully parsed. */
static int build_cfg(matrix_cfg *c, const parse_ctx *x) {
    int has_table = x->table_key[0] != 0;
    int preset = x->preset;
    if (preset >= 0 && has_table) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "preset: preset=%s cannot be combined with a payoff "
                        "table ('%s'); use preset=custom or leave preset out",
                        PRESETS[preset].name, x->table_key);
    }
    if (preset == PRESET_UNSET) preset = has_table ? PRESET_CUSTOM : 0;
    c->preset = preset;
    c->repeats = x->repeats;
    if (preset >= 0) {
        const preset_def *ps = &PRESETS[preset];
        c->rows = ps->rows;
        c->cols = ps->cols;
        for (int r = 0; r < ps->rows; r++) {
            for (int k = 0; k < ps->cols; k++) {
                c->a[r][k] = ps->a[r][k];
                c->b[r][k] = ps->b_mode == B_ZERO_SUM ? -ps->a[r][k] + 0.0
                             : ps->b_mode == B_TRANSPOSE ? ps->a[k][r]
                                                         : ps->b[r][k];
            }
        }
        /* the built-in name lists are valid: these cannot fail */
        parse_names("preset", ps->actions, c->names[0]);
        parse_names("preset", ps->actions, c->names[1]);
    } else {
        if (x->rows == 0 || x->cols == 0) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "%s: a payoff table needs both rows= and cols=",
                            x->rows == 0 ? "rows" : "cols");
        }
        c->rows = x->rows;
        c->cols = x->cols;
        int any_b = 0;
        for (int r = 0; r < MAX_ACT; r++) {
            if (r >= c->rows && (x->a_n[r] >= 0 || x->b_n[r] >= 0)) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "%c%d: no such row (rows=%d: rows 0..%d)",
                                x->a_n[r] >= 0 ? 'a' : 'b', r, c->rows,
                                c->rows - 1);
            }
            any_b |= x->b_n[r] >= 0;
        }
        for (int pl = 0; pl < 2; pl++) {
            const int *given = pl ? x->b_n : x->a_n;
            if (pl == 1 && !any_b) break;
            for (int r = 0; r < c->rows; r++) {
                char key = pl ? 'b' : 'a';
                if (given[r] < 0) {
                    return sbx_fail(SBX_ERR_ARGUMENT,
                                    pl ? "%c%d: missing (when b rows are given, "
                                         "b0..b%d are all needed)"
                                       : "%c%d: missing (the table has rows "
                                         "a0..a%d)",
                                    key, r, c->rows - 1);
                }
                if (given[r] != c->cols) {
                    return sbx_fail(SBX_ERR_ARGUMENT,
                                    "%c%d: expected %d values (cols=%d), got %d",
                                    key, r, c->cols, c->cols, given[r]);
                }
            }
        }
        for (int r = 0; r < c->rows; r++) {
            for (int k = 0; k < c->cols; k++) {
                c->a[r][k] = x->a[r][k];
                /* -0.0 + 0.0 is +0.0: no negative zeros in the tables */
                c->b[r][k] = any_b ? x->b[r][k] : -x->a[r][k] + 0.0;
            }
        }
        default_names(c->names[0], c->rows, 'r');
        default_names(c->names[1], c->cols, 'c');
    }
    for (int who = 0; who < 2; who++) {
        int need = who ? c->cols : c->rows;
        if (x->names_n[who] < 0) continue;
        if (x->names_n[who] != need) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: expected %d names, got %d",
                            who ? "col_actions" : "row_actions", need,
                            x->names_n[who]);
        }
        memcpy(c->names[who], x->names[who], sizeof c->names[who]);
    }
    c->zero_sum = 1;
    for (int r = 0; r < c->rows; r++) {
        for (int k = 0; k < c->cols; k++) {
            c->zero_sum &= c->b[r][k] == -c->a[r][k];
            c->a_milli[r][k] = milli(c->a[r][k]);
            c->b_milli[r][k] = milli(c->b[r][k]);
        }
    }
    c->size = offsetof(matrix_state, counts) +
              (size_t)c->rows * (size_t)c->cols * sizeof(int32_t);
    c->size = (c->size + 7) & ~(size_t)7;
    return SBX_OK;
}

static int matrix_configure(void *cfgv, const char *params) {
    matrix_cfg *c = cfgv;
    memset(c, 0, sizeof *c); /* padding too: configs are compared bytewise */
    parse_ctx x;
    memset(&x, 0, sizeof x);
    x.preset = PRESET_UNSET;
    x.repeats = 1;
    for (int r = 0; r < MAX_ACT; r++) x.a_n[r] = x.b_n[r] = -1;
    x.names_n[0] = x.names_n[1] = -1;
    int rc = sbx_parse_kv(params, set_param, &x);
    if (rc != SBX_OK) return rc;
    return build_cfg(c, &x);
}

/* ------------------------------------------------------------ describe */

/* Longest describe output: the header, two name lists of 16 x 15 chars,
 * and 32 table rows of 16 numbers of at most 24 chars ("-1.2345678901234567
 * e-300" spelled out) with their separators. */
#define NUM_MAX 24
#define DESCRIBE_MAX                                                       \
    (128 + 2 * (16 + MAX_ACT * NAME_CAP) +                                 \
     2 * MAX_ACT * (8 + MAX_ACT * (NUM_MAX + 1)))
_Static_assert(DESCRIBE_MAX <= sizeof(((struct sbx_game *)0)->params),
               "sbx_game.params must hold the longest matrix description");

typedef struct out_buf {
    char *buf;
    size_t cap, n;
} out_buf;

static void put(out_buf *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(out_buf *o, const char *fmt, ...) {
    if (o->n >= o->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->buf + o->n, o->cap - o->n, fmt, ap);
    va_end(ap);
    if (k > 0) o->n += (size_t)k;
    if (o->n >= o->cap) o->n = o->cap; /* truncated; the assert rules it out */
}

/* The shortest of %.15g/%.16g/%.17g that reads back as the same double:
 * exact round trip, and "0.1" rather than "0.10000000000000001". */
static void put_number(out_buf *o, double v) {
    char s[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, v);
        if (strtod(s, NULL) == v) break;
    }
    put(o, "%s", s);
}

static void matrix_describe(const void *cfgv, char *buf, size_t cap) {
    const matrix_cfg *c = cfgv;
    out_buf o = {buf, cap, 0};
    if (cap) buf[0] = 0;
    if (c->preset >= 0) {
        put(&o, "preset=%s", PRESETS[c->preset].name);
    } else {
        put(&o, "preset=custom rows=%d cols=%d", c->rows, c->cols);
    }
    put(&o, " repeats=%d", c->repeats);
    for (int who = 0; who < 2; who++) {
        put(&o, who ? " col_actions=" : " row_actions=");
        int n = who ? c->cols : c->rows;
        for (int i = 0; i < n; i++) put(&o, "%s%s", i ? "/" : "", c->names[who][i]);
    }
    if (c->preset >= 0) return;
    for (int pl = 0; pl < (c->zero_sum ? 1 : 2); pl++) {
        for (int r = 0; r < c->rows; r++) {
            put(&o, " %c%d=", pl ? 'b' : 'a', r);
            for (int k = 0; k < c->cols; k++) {
                if (k) put(&o, "/");
                put_number(&o, pl ? c->b[r][k] : c->a[r][k]);
            }
        }
    }
}

/* ------------------------------------------------------------ basics */

static size_t matrix_state_size(const void *cfgv) {
    return ((const matrix_cfg *)cfgv)->size;
}
static int matrix_num_agents(const void *cfgv) {
    (void)cfgv;
    return 2;
}
static int matrix_max_moves(const void *cfgv) {
    const matrix_cfg *c = cfgv;
    return c->rows > c->cols ? c->rows : c->cols;
}

static int matrix_init(const void *cfgv, void *stv, uint64_t seed) {
    const matrix_cfg *c = cfgv;
    matrix_state *st = stv;
    memset(st, 0, c->size);
    st->rng = seed;
    st->last_row = st->last_col = -1;
    return SBX_OK;
}

static void matrix_reseed(void *stv, uint64_t seed) {
    ((matrix_state *)stv)->rng = seed; /* no chance events: only kept */
}
static int matrix_turn(const void *stv) {
    return ((const matrix_state *)stv)->turn;
}

static int matrix_is_terminal(const void *cfgv, const void *stv) {
    return ((const matrix_state *)stv)->turn >= ((const matrix_cfg *)cfgv)->repeats;
}

/* ------------------------------------------------------------ step */

static int matrix_legal_moves(const void *cfgv, const void *stv, int agent,
                              uint8_t *out) {
    const matrix_cfg *c = cfgv;
    if (matrix_is_terminal(cfgv, stv)) return 0;
    int n = agent == 0 ? c->rows : c->cols;
    for (int m = 0; m < n; m++) out[m] = (uint8_t)m;
    return n;
}

static void matrix_step(const void *cfgv, void *stv, const uint8_t *joint,
                        double *rewards) {
    const matrix_cfg *c = cfgv;
    matrix_state *st = stv;
    int r = joint[0], k = joint[1];
    st->counts[r * c->cols + k]++;
    st->last_row = r;
    st->last_col = k;
    st->turn++;
    if (rewards) {
        rewards[0] = c->a[r][k];
        rewards[1] = c->b[r][k];
    }
}

static int matrix_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    (void)stv;
    (void)agent;
    return 1; /* nobody is eliminated */
}

static uint32_t matrix_alive_mask(const void *cfgv, const void *stv) {
    (void)cfgv;
    (void)stv;
    return 3u;
}

/* Total payoff of each agent so far, from the counts in row-major order. */
static void totals(const matrix_cfg *c, const matrix_state *st, double *out) {
    double ta = 0.0, tb = 0.0;
    for (int r = 0; r < c->rows; r++) {
        for (int k = 0; k < c->cols; k++) {
            int32_t n = st->counts[r * c->cols + k];
            if (n == 0) continue;
            ta += (double)n * c->a[r][k];
            tb += (double)n * c->b[r][k];
        }
    }
    out[0] = ta;
    out[1] = tb;
}

/* The leaf score is the payoff collected so far: exact returns at the end
 * of the game, the partial sum of a repeated game before it. */
static void matrix_evaluate(const void *cfgv, const void *stv, double *out) {
    totals(cfgv, stv, out);
}

static void matrix_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    double t[2];
    totals(cfgv, stv, t);
    rank[0] = t[1] > t[0];
    rank[1] = t[0] > t[1];
}

/* ------------------------------------------------------------ export */

#define HEADER_WORDS 7

static int export_len(const matrix_cfg *c) {
    return HEADER_WORDS + 3 * c->rows * c->cols;
}

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const matrix_cfg *c = cfgv;
    const matrix_state *st = stv;
    sbx_emit(e, SBX_MATRIX_EXPORT_VERSION);
    sbx_emit(e, c->rows);
    sbx_emit(e, c->cols);
    sbx_emit(e, c->repeats);
    sbx_emit(e, st->turn);
    sbx_emit(e, st->last_row);
    sbx_emit(e, st->last_col);
    for (int i = 0; i < c->rows * c->cols; i++) sbx_emit(e, st->counts[i]);
    for (int r = 0; r < c->rows; r++) {
        for (int k = 0; k < c->cols; k++) sbx_emit(e, c->a_milli[r][k]);
    }
    for (int r = 0; r < c->rows; r++) {
        for (int k = 0; k < c->cols; k++) sbx_emit(e, c->b_milli[r][k]);
    }
}

static int matrix_export(const void *cfgv, const void *stv, int32_t *buf,
                         int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static uint64_t matrix_hash(const void *cfgv, const void *stv) {
    return sbx_hash_with(write_export, cfgv, stv);
}

/* Checks every word before touching the state, so a refused import leaves
 * it as it was. The payoff words only have to match the game's own: they
 * are there for renderers, the game's parameters are authoritative. */
static int matrix_import(const void *cfgv, void *stv, const int32_t *buf,
                         int len) {
    const matrix_cfg *c = cfgv;
    matrix_state *st = stv;
    const int R = c->rows, C = c->cols, n = R * C;
    if (len < HEADER_WORDS) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words, the header alone "
                        "has %d", len, HEADER_WORDS);
    }
    if (buf[0] != SBX_MATRIX_EXPORT_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: unknown export version %d",
                        (int)buf[0]);
    }
    if (buf[1] != R || buf[2] != C || buf[3] != c->repeats) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: %dx%d table with %d repeats does not match the "
                        "game's %dx%d with %d",
                        (int)buf[1], (int)buf[2], (int)buf[3], R, C, c->repeats);
    }
    if (len != export_len(c)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words expected, got %d",
                        export_len(c), len);
    }
    const int32_t turn = buf[4], lr = buf[5], lc = buf[6];
    if (turn < 0 || turn > c->repeats) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range 0..%d",
                        (int)turn, c->repeats);
    }
    const int32_t *counts = buf + HEADER_WORDS;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: count of (%d,%d) is negative (%d)", i / C,
                            i % C, (int)counts[i]);
        }
        sum += counts[i];
    }
    if (sum != turn) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: counts sum to %lld, not the turn %d",
                        (long long)sum, (int)turn);
    }
    if (turn == 0) {
        if (lr != -1 || lc != -1) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: last action (%d,%d) before any round "
                            "(must be -1,-1)", (int)lr, (int)lc);
        }
    } else if (lr < 0 || lr >= R || lc < 0 || lc >= C) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: last action (%d,%d) out of range", (int)lr,
                        (int)lc);
    } else if (counts[lr * C + lc] == 0) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: last action (%d,%d) was never played",
                        (int)lr, (int)lc);
    }
    const int32_t *pa = counts + n, *pb = pa + n;
    for (int i = 0; i < n; i++) {
        if (pa[i] != c->a_milli[i / C][i % C] || pb[i] != c->b_milli[i / C][i % C]) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: payoff words of (%d,%d) differ from the "
                            "game's table", i / C, i % C);
        }
    }
    st->turn = turn;
    st->last_row = lr;
    st->last_col = lc;
    memcpy(st->counts, counts, (size_t)n * sizeof *counts);
    return SBX_OK; /* rng: kept, as the export does not carry it */
}

static const char *matrix_move_name(const void *cfgv, int agent, int move) {
    const matrix_cfg *c = cfgv;
    int n = agent == 0 ? c->rows : c->cols;
    if (agent < 0 || agent > 1 || move < 0 || move >= n) return "?";
    return c->names[agent][move];
}

/* ------------------------------------------------------------ features */

/* sbx.h section 1 gives the layout: 1 + R*C + R + C numbers. */
static int matrix_feature_layout(const void *cfgv, sbx_features_layout *out) {
    const matrix_cfg *c = cfgv;
    out->scalars = 1 + c->rows * c->cols + c->rows + c->cols;
    out->size = out->scalars;
    return SBX_OK;
}

/* View 1 sees the table transposed: its own action is the major index. */
static void matrix_features(const void *cfgv, const void *stv, int view, float *out) {
    const matrix_cfg *c = cfgv;
    const matrix_state *st = stv;
    const int R = c->rows, C = c->cols, flip = view == 1;
    const float rep = (float)c->repeats;
    float *o = out;
    *o++ = (float)st->turn / rep;
    const int own_n = flip ? C : R, other_n = flip ? R : C;
    for (int i = 0; i < own_n; i++) {
        for (int j = 0; j < other_n; j++) {
            *o++ = (float)(flip ? st->counts[j * C + i] : st->counts[i * C + j]) / rep;
        }
    }
    const int own_last = flip ? st->last_col : st->last_row;
    const int other_last = flip ? st->last_row : st->last_col;
    for (int i = 0; i < own_n; i++) *o++ = i == own_last ? 1.0f : 0.0f;
    for (int j = 0; j < other_n; j++) *o++ = j == other_last ? 1.0f : 0.0f;
}

const sbx_game_vt sbx_matrix_vt = {
    .name = "matrix",
    .params_doc = PARAMS_DOC,
    .cfg_size = sizeof(matrix_cfg),
    .configure = matrix_configure,
    .describe = matrix_describe,
    .state_size = matrix_state_size,
    .num_agents = matrix_num_agents,
    .max_moves = matrix_max_moves,
    .fixed_moves = 0, /* the players' move counts differ */
    .init = matrix_init,
    .reseed = matrix_reseed,
    .turn = matrix_turn,
    .legal_moves = matrix_legal_moves,
    .step = matrix_step,
    .is_terminal = matrix_is_terminal,
    .is_alive = matrix_is_alive,
    .alive_mask = matrix_alive_mask,
    .evaluate = matrix_evaluate,
    .ranking = matrix_ranking,
    .hash = matrix_hash,
    .export_state = matrix_export,
    .import_state = matrix_import,
    .move_name = matrix_move_name,
    .feature_layout = matrix_feature_layout,
    .features = matrix_features,
};
