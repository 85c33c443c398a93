/*
 * goofspiel.c — the `goofspiel` game (docs/games.md, Goofspiel, the Game of Pure Strategy
 * with OpenSpiel's parameterisation: num_cards, players, points_order,
 * returns_type, imp_info).
 *
 * imp_info=1 changes no rule, only who may see what: the bids stay private,
 * each round's outcome (who won the prize, or a tie) is public. The state
 * keeps everything (exports, hashes and replays are of the full state); a
 * seat's view is derived from it (sandbox/games/goofspiel/info.py), and
 * `determinize` draws the full states a seat cannot tell apart, for the
 * searches (docs/algorithms.md, determinization).
 *
 * State storage (one fixed-size plain struct, the same size for every
 * configuration; clone = memcpy):
 *
 *   +---------------------------+  rng: the state's own stream, used only
 *   | rng, turn                 |  for random prize reveals
 *   | prize, unrevealed, left   |  current prize value (0 when terminal),
 *   |                           |  bitmask of prizes still face down (bit
 *   |                           |  v-1 = prize v, current excluded) and their
 *   |                           |  total value plus the current prize's
 *   +---------------------------+
 *   | hand[4]     uint16        |  bit c-1 set while card c is held
 *   | hand_sum[4] int16         |  sum of the cards held (leaf evaluation)
 *   | points[4]   int16         |  sum of the prizes won
 *   +---------------------------+
 *   | hist[16]  {prize, winner, |  one record per round played, appended by
 *   |            bid[4]}        |  step; only the export and hash read it
 *   +---------------------------+
 *
 * Everything the hot path needs (legal moves, a step, the evaluation) is a
 * handful of bit operations on the masks and the cached sums: legal moves
 * are the set bits of one hand, the next prize is the lowest or highest set
 * bit of `unrevealed` (or a uniformly drawn one), and a step never walks the
 * history. The cached sums are redundant with the masks; import rebuilds
 * them from the masks.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"

#define MAX_CARDS SBX_MAX_MOVES /* move id = card - 1 */
#define MAX_PLAYERS 4

_Static_assert(MAX_CARDS <= 16, "hands and prize sets are 16-bit masks");

enum { ORDER_DESC = SBX_GOOFSPIEL_ORDER_DESCENDING,
       ORDER_ASC = SBX_GOOFSPIEL_ORDER_ASCENDING,
       ORDER_RANDOM = SBX_GOOFSPIEL_ORDER_RANDOM };
enum { RET_WIN_LOSS = SBX_GOOFSPIEL_RETURNS_WIN_LOSS,
       RET_POINT_DIFF = SBX_GOOFSPIEL_RETURNS_POINT_DIFFERENCE,
       RET_TOTAL = SBX_GOOFSPIEL_RETURNS_TOTAL_POINTS };

static const char *const ORDER_NAMES[3] = {"descending", "ascending", "random"};
static const char *const RETURNS_NAMES[3] = {"win_loss", "point_difference",
                                             "total_points"};
static const char *const CARD_NAMES[MAX_CARDS] = {
    "1", "2", "3", "4", "5", "6", "7", "8",
    "9", "10", "11", "12", "13", "14", "15", "16"};

typedef struct goof_cfg {
    int num_cards, players, order, returns, imp_info;
    double w_expected, w_pairs;
    /* derived */
    uint32_t full;       /* bits 0..num_cards-1            */
    int total;           /* 1 + 2 + ... + num_cards        */
} goof_cfg;

typedef struct goof_round {
    uint8_t prize;               /* 1..num_cards                      */
    int8_t winner;               /* -1: tie for the highest bid       */
    uint8_t bid[MAX_PLAYERS];    /* card values                       */
} goof_round;

typedef struct goof_state {
    uint64_t rng;
    int32_t turn;                /* rounds played                     */
    int32_t left;                /* prize + value of `unrevealed`     */
    uint16_t unrevealed;
    uint8_t prize;               /* 0 when terminal                   */
    uint8_t pad;
    uint16_t hand[MAX_PLAYERS];
    int16_t hand_sum[MAX_PLAYERS];
    int16_t points[MAX_PLAYERS];
    goof_round hist[MAX_CARDS];
} goof_state;

static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int top_bit32(uint32_t x) { return 31 - __builtin_clz(x); }

/* Legal moves without a loop over the hand's bits (the search asks for them
 * per agent per depth): BYTE_MOVES[b] holds the set bit positions of byte b
 * packed into the low bytes of a word, so each half of the hand is one
 * 8-byte store, the high half shifted up by 8 in every byte at once (ids stay
 * below 16, no carries). Stores land at out[k], k <= 8, so they stay inside
 * the caller's SBX_MAX_MOVES-byte buffer. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "BYTE_MOVES stores rely on little-endian byte order");
static uint64_t BYTE_MOVES[256];
static uint8_t BYTE_COUNT[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void) {
    for (int b = 0; b < 256; b++) {
        uint64_t w = 0;
        int k = 0;
        for (int i = 0; i < 8; i++) {
            if (b >> i & 1) w |= (uint64_t)i << (8 * k++);
        }
        BYTE_MOVES[b] = w;
        BYTE_COUNT[b] = (uint8_t)k;
    }
}

/* ------------------------------------------------------------ parameters */

static const char PARAMS_DOC[] =
    "num_cards=13              cards per hand and prizes, 1..16\n"
    "players=2                 2..4\n"
    "points_order=descending   prize reveal order: descending|ascending|random\n"
    "                          (random: drawn from the state's own RNG, so\n"
    "                          every search iteration samples it anew)\n"
    "returns_type=win_loss     win_loss|point_difference|total_points, as in\n"
    "                          OpenSpiel: win_loss gives the k players with the\n"
    "                          most points +1/k each and the others -1/(n-k)\n"
    "                          each (all 0 if everyone ties); point_difference\n"
    "                          gives points - mean(points); total_points gives\n"
    "                          points\n"
    "imp_info=0                0|1: 1 keeps the bids private (two players\n"
    "                          only); each round's winner (or a tie), the\n"
    "                          prizes and the points stay public\n"
    "w_expected=1              0..1, weight of the expected share below\n"
    "w_pairs=0                 0..1, weight of the pairs in share_i below\n"
    "                          (more than 0: two players only)\n"
    "Moves: card c has move id c-1 and is named \"c\".\n"
    "Evaluation (the search's leaf score): the returns at a terminal state;\n"
    "otherwise, with R = value still to be awarded (current + unrevealed\n"
    "prizes), sums_i = (sum of i's cards) / (sum of everyone's cards) and\n"
    "pairs_i = the fraction of the pairs (i's card, the other's card) that\n"
    "i's card wins, ties counting half:\n"
    "  share_i = (1 - w_pairs) * sums_i + w_pairs * pairs_i\n"
    "  est_i = points_i + w_expected * R * share_i\n"
    "  total_points:     est_i\n"
    "  point_difference: est_i - mean(est)\n"
    "  win_loss:         clamp((est_i - max_{j!=i} est_j) / (R + 1), -1, 1)\n";

static int pick_name(const char *key, const char *value,
                     const char *const *names, int count, int *out) {
    for (int i = 0; i < count; i++) {
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return SBX_OK;
        }
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "%s: '%s' is not one of %s|%s|%s", key,
                    value, names[0], names[1], names[2]);
}

static int set_param(void *ctx, const char *key, const char *value) {
    goof_cfg *c = ctx;
    if (strcmp(key, "num_cards") == 0) {
        return sbx_kv_int(key, value, 1, MAX_CARDS, &c->num_cards);
    }
    if (strcmp(key, "players") == 0) {
        return sbx_kv_int(key, value, 2, MAX_PLAYERS, &c->players);
    }
    if (strcmp(key, "points_order") == 0) {
        return pick_name(key, value, ORDER_NAMES, 3, &c->order);
    }
    if (strcmp(key, "returns_type") == 0) {
        return pick_name(key, value, RETURNS_NAMES, 3, &c->returns);
    }
    if (strcmp(key, "imp_info") == 0) {
        return sbx_kv_int(key, value, 0, 1, &c->imp_info);
    }
    if (strcmp(key, "w_expected") == 0) {
        return sbx_kv_double(key, value, 0.0, 1.0, &c->w_expected);
    }
    if (strcmp(key, "w_pairs") == 0) {
        return sbx_kv_double(key, value, 0.0, 1.0, &c->w_pairs);
    }
    return sbx_fail(SBX_ERR_ARGUMENT, "unknown goofspiel parameter '%s'", key);
}

static int goof_configure(void *cfgv, const char *params) {
    goof_cfg *c = cfgv;
    pthread_once(&tables_once, fill_tables); /* before any state exists */
    memset(c, 0, sizeof *c); /* padding too: configs are compared bytewise */
    c->num_cards = 13;
    c->players = 2;
    c->order = ORDER_DESC;
    c->returns = RET_WIN_LOSS;
    c->w_expected = 1.0;
    int rc = sbx_parse_kv(params, set_param, c);
    if (rc != SBX_OK) return rc;
    if (c->w_pairs > 0.0 && c->players != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT, "w_pairs: pairs of cards need players=2 "
                        "(got players=%d)", c->players);
    }
    if (c->imp_info && c->players != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT, "imp_info: hidden bids need players=2 "
                        "(got players=%d)", c->players);
    }
    c->full = (1u << c->num_cards) - 1u;
    c->total = c->num_cards * (c->num_cards + 1) / 2;
    return SBX_OK;
}

/* imp_info and w_pairs are named only when set, so a game without them keeps
 * the description recorded replays hold; a game with them must name them, or
 * one rebuilt from its description would be another game. */
static void goof_describe(const void *cfgv, char *buf, size_t cap) {
    const goof_cfg *c = cfgv;
    char pairs[40] = "";
    if (c->w_pairs != 0.0) snprintf(pairs, sizeof pairs, " w_pairs=%.17g", c->w_pairs);
    snprintf(buf, cap,
             "num_cards=%d players=%d points_order=%s returns_type=%s "
             "%sw_expected=%.17g%s",
             c->num_cards, c->players, ORDER_NAMES[c->order],
             RETURNS_NAMES[c->returns], c->imp_info ? "imp_info=1 " : "",
             c->w_expected, pairs);
}

static size_t goof_state_size(const void *cfgv) {
    (void)cfgv;
    return sizeof(goof_state);
}
static int goof_num_agents(const void *cfgv) {
    return ((const goof_cfg *)cfgv)->players;
}
static int goof_max_moves(const void *cfgv) {
    return ((const goof_cfg *)cfgv)->num_cards;
}

/* ------------------------------------------------------------ init */

/* Turns the next prize face up: the highest or lowest still face down, or a
 * uniformly drawn one (the chance event) from the state's RNG. */
static inline void reveal_next(const goof_cfg *cfg, goof_state *st) {
    uint32_t m = st->unrevealed;
    if (m == 0) {
        st->prize = 0;
        return;
    }
    int bit;
    if (cfg->order == ORDER_DESC) {
        bit = top_bit32(m);
    } else if (cfg->order == ORDER_ASC) {
        bit = ctz32(m);
    } else {
        uint32_t k = sbx_rng_below(&st->rng, (uint32_t)sbx_popcount64(m));
        while (k--) m &= m - 1; /* drop the k lowest set bits */
        bit = ctz32(m);
    }
    st->unrevealed = (uint16_t)(st->unrevealed & ~(1u << bit));
    st->prize = (uint8_t)(bit + 1);
}

static int goof_init(const void *cfgv, void *stv, uint64_t seed) {
    const goof_cfg *cfg = cfgv;
    goof_state *st = stv;
    memset(st, 0, sizeof *st);
    st->rng = seed;
    for (int a = 0; a < cfg->players; a++) {
        st->hand[a] = (uint16_t)cfg->full;
        st->hand_sum[a] = (int16_t)cfg->total;
    }
    st->unrevealed = (uint16_t)cfg->full;
    st->left = cfg->total;
    reveal_next(cfg, st);
    return SBX_OK;
}

static void goof_reseed(void *stv, uint64_t seed) {
    ((goof_state *)stv)->rng = seed;
}
static int goof_turn(const void *stv) {
    return ((const goof_state *)stv)->turn;
}

/* ------------------------------------------------------------ returns */

/* Final returns as OpenSpiel defines them (see PARAMS_DOC). */
static void goof_returns(const goof_cfg *cfg, const goof_state *st,
                         double *out) {
    const int n = cfg->players;
    if (cfg->returns == RET_TOTAL) {
        for (int i = 0; i < n; i++) out[i] = st->points[i];
        return;
    }
    if (cfg->returns == RET_POINT_DIFF) {
        double sum = 0;
        for (int i = 0; i < n; i++) sum += st->points[i];
        for (int i = 0; i < n; i++) out[i] = (double)st->points[i] - sum / n;
        return;
    }
    int best = st->points[0];
    for (int i = 1; i < n; i++) best = st->points[i] > best ? st->points[i] : best;
    int winners = 0;
    for (int i = 0; i < n; i++) winners += st->points[i] == best;
    if (winners == n) { /* everyone tied: a draw */
        for (int i = 0; i < n; i++) out[i] = 0.0;
        return;
    }
    const double win = 1.0 / winners, lose = -1.0 / (n - winners);
    for (int i = 0; i < n; i++) out[i] = st->points[i] == best ? win : lose;
}

/* ------------------------------------------------------------ step */

static int goof_is_terminal(const void *cfgv, const void *stv) {
    return ((const goof_state *)stv)->turn >= ((const goof_cfg *)cfgv)->num_cards;
}

static int goof_legal_moves(const void *cfgv, const void *stv, int agent,
                            uint8_t *out) {
    (void)cfgv;
    const uint32_t h = ((const goof_state *)stv)->hand[agent];
    const uint64_t lo = BYTE_MOVES[h & 0xFF];
    const uint64_t hi = BYTE_MOVES[h >> 8] + 0x0808080808080808ULL;
    const int k = BYTE_COUNT[h & 0xFF];
    memcpy(out, &lo, 8);
    memcpy(out + k, &hi, 8);
    return k + BYTE_COUNT[h >> 8]; /* empty hand <=> terminal */
}

static int goof_is_alive(const void *cfgv, const void *stv, int agent) {
    (void)cfgv;
    (void)stv;
    (void)agent;
    return 1; /* nobody is eliminated, not even at the end */
}

static uint32_t goof_alive_mask(const void *cfgv, const void *stv) {
    (void)stv;
    return (1u << ((const goof_cfg *)cfgv)->players) - 1u;
}

static void goof_step(const void *cfgv, void *stv, const uint8_t *joint,
                      double *rewards) {
    const goof_cfg *cfg = cfgv;
    goof_state *st = stv;
    const int n = cfg->players;
    goof_round *r = &st->hist[st->turn];
    int best = 0, count = 0, who = -1;
    for (int a = 0; a < n; a++) {
        /* & 15: moves are assumed legal (game.c checks them); the mask only
         * keeps a bad id from shifting out of range. */
        const int m = joint[a] & 15, card = m + 1;
        r->bid[a] = (uint8_t)card;
        st->hand[a] = (uint16_t)(st->hand[a] & ~(1u << m));
        st->hand_sum[a] = (int16_t)(st->hand_sum[a] - card);
        if (card > best) {
            best = card;
            count = 1;
            who = a;
        } else if (card == best) {
            count++;
        }
    }
    const int v = st->prize;
    r->prize = (uint8_t)v;
    if (count != 1) who = -1; /* a tie for the highest bid discards the prize */
    r->winner = (int8_t)who;
    if (who >= 0) st->points[who] = (int16_t)(st->points[who] + v);
    st->left -= v;
    st->turn++;
    reveal_next(cfg, st);

    if (!rewards) return;
    /* Per-step rewards that add up to the final returns. */
    switch (cfg->returns) {
    case RET_TOTAL:
        for (int a = 0; a < n; a++) rewards[a] = a == who ? (double)v : 0.0;
        break;
    case RET_POINT_DIFF: {
        /* the winner's gain minus everyone's share of it: summed over the
         * rounds, points_i - (sum of points) / n */
        const double mean = who >= 0 ? (double)v / n : 0.0;
        for (int a = 0; a < n; a++) rewards[a] = (a == who ? (double)v : 0.0) - mean;
        break;
    }
    default:
        if (st->turn >= cfg->num_cards) goof_returns(cfg, st, rewards);
        else for (int a = 0; a < n; a++) rewards[a] = 0.0;
        break;
    }
}

/* ------------------------------------------------------------ evaluate */

/* Leaf score. Terminal: the returns. Otherwise each player is credited with
 * the points it has plus a share of the value still in play (R) in
 * proportion to the card strength it has left: the one who kept the bigger
 * cards can still outbid the others for more of R. This is the expected
 * outcome if prizes went to players with probability proportional to their
 * remaining card sums; cheap (a few multiplications) and exact at the end
 * (R = 0). w_expected scales how much that estimate is trusted. w_pairs (two
 * players) blends into the share the fraction of the pairs (own card,
 * other's card) the own card wins, ties half.
 *   total_points:     est_i
 *   point_difference: est_i - mean(est)      (OpenSpiel's point_difference
 *                                             applied to the estimates)
 *   win_loss:         the lead over the best other player, relative to what
 *                     is still in play: (est_i - max_{j!=i} est_j) / (R + 1)
 *                     clamped to [-1, 1]; a lead larger than R is nearly a
 *                     sure win, a lead of 0 a coin flip. */
static void goof_evaluate(const void *cfgv, const void *stv, double *out) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    const int n = cfg->players;
    if (st->turn >= cfg->num_cards) {
        goof_returns(cfg, st, out);
        return;
    }
    int tot = 0;
    for (int i = 0; i < n; i++) tot += st->hand_sum[i]; /* >= n: all hold cards */
    const double R = (double)st->left;
    const double scale = cfg->w_expected * R / (double)tot;
    double est[MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        est[i] = (double)st->points[i] + scale * (double)st->hand_sum[i];
    }
    if (cfg->w_pairs > 0.0) {
        /* Card sums undervalue high cards: {1..5} against {9..13} holds 15/70
         * of the sums and wins none of the bids. The share of pairs a card
         * wins ranks the hands instead (a search on random prize order spent
         * its high cards early on the sums; docs/measuring-strength.md). */
        const uint32_t a = st->hand[0], b = st->hand[1];
        double w = 0.0;
        for (int c = 0; c < cfg->num_cards; c++) {
            if ((a >> c) & 1u) {
                w += __builtin_popcount(b & ((1u << c) - 1u)) + 0.5 * ((b >> c) & 1u);
            }
        }
        w /= (double)(__builtin_popcount(a) * __builtin_popcount(b));
        const double s0 = (1.0 - cfg->w_pairs) * st->hand_sum[0] / (double)tot +
                          cfg->w_pairs * w;
        est[0] = (double)st->points[0] + cfg->w_expected * R * s0;
        est[1] = (double)st->points[1] + cfg->w_expected * R * (1.0 - s0);
    }
    if (cfg->returns == RET_TOTAL) {
        for (int i = 0; i < n; i++) out[i] = est[i];
    } else if (cfg->returns == RET_POINT_DIFF) {
        double sum = 0;
        for (int i = 0; i < n; i++) sum += est[i];
        for (int i = 0; i < n; i++) out[i] = est[i] - sum / n;
    } else {
        /* max over the others = the overall best, or the runner-up for the
         * best player itself */
        int top = 0;
        for (int i = 1; i < n; i++) top = est[i] > est[top] ? i : top;
        double second = -1e300;
        for (int i = 0; i < n; i++) {
            if (i != top && est[i] > second) second = est[i];
        }
        for (int i = 0; i < n; i++) {
            double m = (est[i] - (i == top ? second : est[top])) / (R + 1.0);
            out[i] = m > 1.0 ? 1.0 : m < -1.0 ? -1.0 : m;
        }
    }
}

/* Rank = number of players with strictly more points (ties share a rank). */
static void goof_ranking(const void *cfgv, const void *stv, int32_t *rank) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    for (int i = 0; i < cfg->players; i++) {
        int r = 0;
        for (int j = 0; j < cfg->players; j++) r += st->points[j] > st->points[i];
        rank[i] = r;
    }
}

/* ------------------------------------------------------------ export */

static void write_export(const void *cfgv, const void *stv, sbx_emitter *e) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    sbx_emit(e, SBX_GOOFSPIEL_EXPORT_VERSION);
    sbx_emit(e, cfg->num_cards);
    sbx_emit(e, cfg->players);
    sbx_emit(e, st->turn);
    sbx_emit(e, cfg->order);
    sbx_emit(e, cfg->returns);
    sbx_emit(e, st->prize);
    sbx_emit(e, st->unrevealed);
    for (int a = 0; a < cfg->players; a++) {
        sbx_emit(e, st->points[a]);
        sbx_emit(e, st->hand[a]);
    }
    for (int t = 0; t < st->turn; t++) {
        const goof_round *r = &st->hist[t];
        sbx_emit(e, r->prize);
        sbx_emit(e, r->winner);
        for (int a = 0; a < cfg->players; a++) sbx_emit(e, r->bid[a]);
    }
}

static int goof_export(const void *cfgv, const void *stv, int32_t *buf,
                       int cap) {
    return sbx_export_with(write_export, cfgv, stv, buf, cap);
}

static uint64_t goof_hash(const void *cfgv, const void *stv) {
    return sbx_hash_with(write_export, cfgv, stv);
}

/* Sum of the card values whose bits are set in m. */
static int mask_value(uint32_t m) {
    int v = 0;
    for (; m; m &= m - 1) v += ctz32(m) + 1;
    return v;
}

/* Validates buf completely while building the state into nst (zeroed). Every
 * word is range-checked before it is used as a shift or an index. */
static int import_into(const goof_cfg *cfg, goof_state *nst,
                       const int32_t *buf, int len) {
    const int N = cfg->num_cards, n = cfg->players;
    const uint32_t full = cfg->full;
    if (len < 8) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: %d words, the header alone "
                        "has 8", len);
    }
    if (buf[0] != SBX_GOOFSPIEL_EXPORT_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: unknown export version %d",
                        (int)buf[0]);
    }
    if (buf[1] != N || buf[2] != n || buf[4] != cfg->order ||
        buf[5] != cfg->returns) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: num_cards %d, players %d, points_order %d, "
                        "returns_type %d do not match the game's %d, %d, %d, %d",
                        (int)buf[1], (int)buf[2], (int)buf[4], (int)buf[5], N, n,
                        cfg->order, cfg->returns);
    }
    const int32_t turn = buf[3];
    if (turn < 0 || turn > N) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: turn %d out of range 0..%d",
                        (int)turn, N);
    }
    const int expect = 8 + 2 * n + turn * (2 + n);
    if (len != expect) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: %d words expected for turn %d, got %d", expect,
                        (int)turn, len);
    }
    const int terminal = turn == N;
    const int32_t prize = buf[6], unrev = buf[7];
    if (terminal ? prize != 0 : (prize < 1 || prize > N)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "import: current prize %d %s",
                        (int)prize, terminal ? "at a terminal state (want 0)"
                                             : "out of range");
    }
    if (unrev < 0 || ((uint32_t)unrev & ~full) ||
        sbx_popcount64((uint32_t)unrev) != (terminal ? 0 : N - turn - 1) ||
        (!terminal && ((uint32_t)unrev >> (prize - 1)) & 1u)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: unrevealed prize mask 0x%x does not hold the "
                        "%d prizes still face down", (unsigned)unrev,
                        terminal ? 0 : N - turn - 1);
    }
    nst->turn = turn;
    nst->prize = (uint8_t)prize;
    nst->unrevealed = (uint16_t)unrev;
    int p = 8;
    int32_t points[MAX_PLAYERS];
    for (int a = 0; a < n; a++) {
        points[a] = buf[p];
        const int32_t hand = buf[p + 1];
        p += 2;
        if (hand < 0 || ((uint32_t)hand & ~full) ||
            sbx_popcount64((uint32_t)hand) != N - turn) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: player %d hand mask 0x%x does not hold %d "
                            "cards of 1..%d", a, (unsigned)hand, N - turn, N);
        }
        nst->hand[a] = (uint16_t)hand;
        nst->hand_sum[a] = (int16_t)mask_value((uint32_t)hand);
    }
    /* History: prizes and bids each used once; winners follow the bids. */
    uint32_t prizes_seen = 0, bids_seen[MAX_PLAYERS] = {0};
    int won[MAX_PLAYERS] = {0};
    for (int t = 0; t < turn; t++) {
        const int32_t rp = buf[p], rw = buf[p + 1];
        const int32_t *bids = &buf[p + 2];
        p += 2 + n;
        if (rp < 1 || rp > N || ((prizes_seen >> (rp - 1)) & 1u)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: round %d prize %d out of range or repeated",
                            t, (int)rp);
        }
        const int want = cfg->order == ORDER_DESC ? N - t
                         : cfg->order == ORDER_ASC ? t + 1
                                                   : (int)rp;
        if (rp != want) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: round %d prize %d, the %s order gives %d",
                            t, (int)rp, ORDER_NAMES[cfg->order], want);
        }
        prizes_seen |= 1u << (rp - 1);
        int best = 0, count = 0, who = -1;
        goof_round *r = &nst->hist[t];
        for (int a = 0; a < n; a++) {
            const int32_t b = bids[a];
            if (b < 1 || b > N || ((bids_seen[a] >> (b - 1)) & 1u) ||
                ((nst->hand[a] >> (b - 1)) & 1u)) {
                return sbx_fail(SBX_ERR_ARGUMENT,
                                "import: round %d player %d bid %d is out of "
                                "range, bid before or still in the hand",
                                t, a, (int)b);
            }
            bids_seen[a] |= 1u << (b - 1);
            r->bid[a] = (uint8_t)b;
            if (b > best) {
                best = b;
                count = 1;
                who = a;
            } else if (b == best) {
                count++;
            }
        }
        if (count != 1) who = -1;
        if (rw != who) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: round %d winner %d, the bids give %d", t,
                            (int)rw, who);
        }
        if (who >= 0) won[who] += rp;
        r->prize = (uint8_t)rp;
        r->winner = (int8_t)who;
    }
    if (!terminal) {
        const int want = cfg->order == ORDER_DESC ? N - turn
                         : cfg->order == ORDER_ASC ? turn + 1
                                                   : (int)prize;
        if (prize != want || ((prizes_seen >> (prize - 1)) & 1u)) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: current prize %d was played before or is "
                            "not next in the %s order", (int)prize,
                            ORDER_NAMES[cfg->order]);
        }
    }
    const uint32_t cur = terminal ? 0u : 1u << (prize - 1);
    if ((prizes_seen & (uint32_t)unrev) || (prizes_seen | cur | (uint32_t)unrev) != full) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "import: played, current and unrevealed prizes are not "
                        "1..%d exactly once", N);
    }
    for (int a = 0; a < n; a++) {
        if (points[a] != won[a]) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "import: player %d has %d points, the history gives "
                            "%d", a, (int)points[a], won[a]);
        }
        nst->points[a] = (int16_t)won[a];
    }
    nst->left = (int32_t)(prize + mask_value((uint32_t)unrev));
    return SBX_OK;
}

static int goof_import(const void *cfgv, void *stv, const int32_t *buf,
                       int len) {
    /* Build into a scratch state so the game is unchanged on error. */
    goof_state nst;
    memset(&nst, 0, sizeof nst);
    int rc = import_into(cfgv, &nst, buf, len);
    if (rc == SBX_OK) {
        nst.rng = ((goof_state *)stv)->rng; /* chance stream is not exported */
        memcpy(stv, &nst, sizeof nst);
    }
    return rc;
}

static const char *goof_move_name(const void *cfgv, int agent, int move) {
    (void)agent;
    const goof_cfg *cfg = cfgv;
    return (move >= 0 && move < cfg->num_cards) ? CARD_NAMES[move] : "?";
}

/* ------------------------------------------------------------ hidden bids */

static int goof_hidden_info(const void *cfgv) {
    return ((const goof_cfg *)cfgv)->imp_info;
}

/* What seat knows of round t's opponent bid c: c < own bid if seat won,
 * c == own bid on a tie, c > own bid if the opponent won. */
static inline uint32_t allowed_bids(const goof_cfg *cfg, const goof_round *r,
                                    int seat) {
    const int b = r->bid[seat];
    if (b == 0) {
        /* the seat's own bid is not known: a public state (compose clears
         * hidden bids, so a public-state search's node states have none).
         * Only the outcome is, and who may have bid any card that leaves
         * the seat a bid to match it: a tie any, a win of the seat's not
         * the top card, a win of who's not card 1. */
        if (r->winner == -1) return cfg->full;
        if (r->winner == seat) return cfg->full & ~(1u << (cfg->num_cards - 1));
        return cfg->full & ~1u;
    }
    if (r->winner == -1) return 1u << (b - 1);
    if (r->winner == seat) return (1u << (b - 1)) - 1u;      /* 1 .. b-1 */
    return cfg->full & ~((1u << b) - 1u);                    /* b+1 .. N */
}

/* Exact sampling up to this many cards: the completions are counted per set
 * of opponent cards already placed (2^N counts, N x 2^N work per sample). */
#define EXACT_MAX_CARDS 8
#define MAX_RESTARTS 100000

/* ways[used]: the number of ways to give rounds popcount(used)..turn-1 an
 * opponent bid each, distinct, allowed, and outside `used` (-1: unknown). */
static double count_ways(const uint32_t *allow, int turn, uint32_t used,
                         double *ways) {
    if (ways[used] >= 0) return ways[used];
    const int t = sbx_popcount64(used);
    double w = 0;
    if (t == turn) {
        w = 1;
    } else {
        for (uint32_t m = allow[t] & ~used; m; m &= m - 1) {
            w += count_ways(allow, turn, used | (m & -m), ways);
        }
    }
    ways[used] = w;
    return w;
}

/* The opponent's bid sequences consistent with what seat saw:
 *   num_cards <= 8: exactly uniform over all of them (counted as above, then
 *     each round's bid drawn with probability proportional to the number of
 *     completions it leaves);
 *   larger hands: sequential sampling -- ties fixed, then each round in
 *     play order draws uniformly among the allowed cards not yet used,
 *     starting over on a dead end. Every sequence it returns is consistent;
 *     the distribution is not exactly uniform (sequences with more choices
 *     early are favoured), which docs/algorithms.md states.
 * Reads only seat's bids, the winners and the prizes: never the opponent's
 * real bids, so every state of one information set samples alike. */
static int goof_determinize(const void *cfgv, const void *stv, int seat,
                            uint64_t *rng, void *outv) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    if (!cfg->imp_info) {
        return sbx_fail(SBX_ERR_STATE, "goofspiel: determinize needs imp_info=1");
    }
    if (seat < 0 || seat > 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: seat %d is not 0 or 1", seat);
    }
    const int opp = 1 - seat, turn = st->turn;
    uint32_t allow[MAX_CARDS];
    for (int t = 0; t < turn; t++) allow[t] = allowed_bids(cfg, &st->hist[t], seat);
    uint8_t bid[MAX_CARDS];
    uint32_t used = 0;
    if (cfg->num_cards <= EXACT_MAX_CARDS) {
        double ways[1u << EXACT_MAX_CARDS];
        for (uint32_t i = 0; i < (1u << cfg->num_cards); i++) ways[i] = -1;
        double total = count_ways(allow, turn, 0, ways);
        if (!(total >= 1)) {
            return sbx_fail(SBX_ERR_STATE, "goofspiel: no opponent bids fit seat %d's "
                            "record (an inconsistent state)", seat);
        }
        for (int t = 0; t < turn; t++) {
            double u = (double)(sbx_rng_next(rng) >> 11) * 0x1.0p-53 * ways[used], acc = 0;
            uint32_t pick = 0;
            for (uint32_t m = allow[t] & ~used; m; m &= m - 1) {
                const uint32_t b = m & -m;
                pick = b;       /* the last candidate absorbs rounding */
                acc += ways[used | b];
                if (u < acc) break;
            }
            used |= pick;
            bid[t] = (uint8_t)(ctz32(pick) + 1);
        }
    } else {
        int ok = 0;
        for (int tries = 0; tries < MAX_RESTARTS && !ok; tries++) {
            used = 0;
            for (int t = 0; t < turn; t++) {
                if (st->hist[t].winner == -1) used |= allow[t];
            }
            ok = 1;
            for (int t = 0; t < turn && ok; t++) {
                if (st->hist[t].winner == -1) {
                    bid[t] = st->hist[t].bid[seat];
                    continue;
                }
                uint32_t m = allow[t] & ~used;
                if (!m) {
                    ok = 0;
                    break;
                }
                uint32_t k = sbx_rng_below(rng, (uint32_t)sbx_popcount64(m));
                while (k--) m &= m - 1;
                const uint32_t b = m & -m;
                used |= b;
                bid[t] = (uint8_t)(ctz32(b) + 1);
            }
        }
        if (!ok) {
            return sbx_fail(SBX_ERR_STATE, "goofspiel: no opponent bids fit seat %d's "
                            "record after %d tries", seat, MAX_RESTARTS);
        }
    }
    goof_state *out = outv;
    if (out != st) memcpy(out, st, sizeof *out);
    for (int t = 0; t < turn; t++) out->hist[t].bid[opp] = bid[t];
    out->hand[opp] = (uint16_t)(cfg->full & ~used);
    out->hand_sum[opp] = (int16_t)mask_value(cfg->full & ~used);
    return SBX_OK;
}

/* ------------------------------------------------------------ public states */

/* The public state: the turn, the current and unplayed prizes, the points,
 * and each round's prize and winner (-1 a tie); the bids only when they are
 * public (imp_info=0). */
static uint64_t goof_public_key(const void *cfgv, const void *stv) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    uint64_t h = sbx_hash_word(SBX_HASH_INIT, st->turn);
    h = sbx_hash_word(h, st->prize);
    h = sbx_hash_word(h, st->unrevealed);
    for (int a = 0; a < cfg->players; a++) h = sbx_hash_word(h, st->points[a]);
    for (int t = 0; t < st->turn; t++) {
        h = sbx_hash_word(h, st->hist[t].prize);
        h = sbx_hash_word(h, st->hist[t].winner);
        if (!cfg->imp_info) { /* the bids are public too */
            for (int a = 0; a < cfg->players; a++) h = sbx_hash_word(h, st->hist[t].bid[a]);
        }
    }
    return sbx_hash_finish(h);
}

static int public_fits(const goof_cfg *cfg, const goof_state *st) {
    if (cfg->players != 2) {
        return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: public states are split for two "
                        "players (players=%d)", cfg->players);
    }
    if (cfg->order == ORDER_RANDOM && st->unrevealed) {
        return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: a public-state search needs a fixed "
                        "prize order (points_order=random draws the next prize inside the "
                        "step)");
    }
    return SBX_OK;
}

/* who's possible hands from seat's view, each weighted by the number of
 * who's bid sequences that fit seat's record and end in it: a forward
 * count over the sets of cards who has played (masks of popcount t after
 * t rounds), so the work is bounded by the number of such sets, at most
 * C(16, 8) per round. */
static int goof_private_states(const void *cfgv, const void *stv, int seat, int who,
                               uint32_t *ids, double *weights, int cap) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    int rc = public_fits(cfg, st);
    if (rc) return rc;
    if (seat < 0 || seat > 1 || who < 0 || who > 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: seats are 0 and 1 (seat %d, who %d)",
                        seat, who);
    }
    if (cap < 1) return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: no room for a private state");
    if (who == seat) {
        ids[0] = st->hand[seat];
        weights[0] = 1.0;
        return 1;
    }
    const int N = cfg->num_cards, turn = st->turn;
    uint32_t allow[MAX_CARDS];
    for (int t = 0; t < turn; t++) {
        allow[t] = cfg->imp_info ? allowed_bids(cfg, &st->hist[t], seat)
                                 : 1u << (st->hist[t].bid[who] - 1);
    }
    double *f = calloc((size_t)1 << N, sizeof *f);
    uint32_t *cur = malloc(((size_t)1 << N) * sizeof *cur);
    uint32_t *nxt = malloc(((size_t)1 << N) * sizeof *nxt);
    if (!f || !cur || !nxt) {
        free(f);
        free(cur);
        free(nxt);
        return sbx_fail(SBX_ERR_MEMORY, "goofspiel: out of memory counting hands");
    }
    f[0] = 1.0;
    cur[0] = 0;
    int ncur = 1;
    for (int t = 0; t < turn; t++) {
        int nn = 0;
        for (int i = 0; i < ncur; i++) {
            const uint32_t m = cur[i];
            for (uint32_t b = allow[t] & ~m; b; b &= b - 1) {
                const uint32_t nm = m | (b & -b);
                if (f[nm] == 0.0) nxt[nn++] = nm;
                f[nm] += f[m];
            }
        }
        uint32_t *sw = cur;
        cur = nxt;
        nxt = sw;
        ncur = nn;
    }
    int n = 0;
    if (ncur > cap) {
        rc = sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: seat %d may hold %d hands here, more "
                      "than the %d a public-state search takes", who, ncur, cap);
    } else if (ncur == 0) {
        rc = sbx_fail(SBX_ERR_STATE, "goofspiel: no hand of seat %d fits seat %d's record "
                      "(an inconsistent state)", who, seat);
    } else {
        for (int i = 0; i < ncur; i++) {
            ids[n] = cfg->full & ~cur[i];
            weights[n++] = f[cur[i]];
        }
    }
    free(f);
    free(cur);
    free(nxt);
    return rc ? rc : n;
}

static int goof_compose(const void *cfgv, const void *stv, const uint32_t *ids, void *outv) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    int rc = public_fits(cfg, st);
    if (rc) return rc;
    const int left = cfg->num_cards - st->turn;
    for (int a = 0; a < 2; a++) {
        if ((ids[a] & ~cfg->full) || sbx_popcount64(ids[a]) != left) {
            return sbx_fail(SBX_ERR_ARGUMENT, "goofspiel: hand 0x%x of seat %d is not %d of "
                            "the cards 1..%d", (unsigned)ids[a], a, left, cfg->num_cards);
        }
    }
    goof_state *out = outv;
    if (out != st) memcpy(out, st, sizeof *out);
    for (int a = 0; a < 2; a++) {
        out->hand[a] = (uint16_t)ids[a];
        out->hand_sum[a] = (int16_t)mask_value(ids[a]);
        if (cfg->imp_info) { /* hidden bids are not known: cleared */
            for (int t = 0; t < out->turn; t++) out->hist[t].bid[a] = 0;
        }
    }
    return SBX_OK;
}

/* ------------------------------------------------------------ features */

/* C(n, k) for n, k <= 16: the slots of hidden hands. */
static uint32_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return (uint32_t)r;
}

static int goof_feature_layout(const void *cfgv, sbx_features_layout *out) {
    const goof_cfg *cfg = cfgv;
    const int N = cfg->num_cards, P = cfg->players;
    out->scalars = 1 + 2 * N + P * (1 + N) + (cfg->imp_info ? 0 : P * N);
    out->size = out->scalars;
    out->slots = cfg->imp_info ? (int32_t)choose(N, N / 2) : 0;
    return SBX_OK;
}

/* sbx.h section 1 gives the layout. Reads the public record only (turn,
 * prizes, points, each round's prize and winner) and, when the bids are
 * public, the hands; never a hidden bid or hand. */
static void goof_features(const void *cfgv, const void *stv, int view, float *out) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    const int N = cfg->num_cards, P = cfg->players;
    const int first = view < 0 ? 0 : view;
    float *o = out;
    *o++ = (float)st->turn / (float)N;
    for (int v = 1; v <= N; v++) *o++ = st->prize == v ? 1.0f : 0.0f;
    for (int v = 1; v <= N; v++) *o++ = (float)((st->unrevealed >> (v - 1)) & 1u);
    for (int k = 0; k < P; k++) {
        const int a = (first + k) % P;
        *o++ = (float)st->points[a] / (float)cfg->total;
        float *won = o;
        for (int v = 0; v < N; v++) won[v] = 0.0f;
        for (int t = 0; t < st->turn; t++) {
            if (st->hist[t].winner == a) won[st->hist[t].prize - 1] = 1.0f;
        }
        o += N;
    }
    if (!cfg->imp_info) {
        for (int k = 0; k < P; k++) {
            const int a = (first + k) % P;
            for (int c = 0; c < N; c++) *o++ = (float)((st->hand[a] >> c) & 1u);
        }
    }
}

/* The colexicographic rank of a hand among the hands of its size. */
static int goof_private_slot(const void *cfgv, const void *stv, uint32_t id) {
    const goof_cfg *cfg = cfgv;
    const goof_state *st = stv;
    if (!cfg->imp_info || (id & ~cfg->full) ||
        sbx_popcount64(id) != cfg->num_cards - st->turn) {
        return -1;
    }
    uint32_t rank = 0;
    int i = 1;
    for (uint32_t m = id; m; m &= m - 1, i++) rank += choose(ctz32(m), i);
    return (int)rank;
}

const sbx_game_vt sbx_goofspiel_vt = {
    .name = "goofspiel",
    .params_doc = PARAMS_DOC,
    .cfg_size = sizeof(goof_cfg),
    .configure = goof_configure,
    .describe = goof_describe,
    .state_size = goof_state_size,
    .num_agents = goof_num_agents,
    .max_moves = goof_max_moves,
    .fixed_moves = 0,
    .init = goof_init,
    .reseed = goof_reseed,
    .turn = goof_turn,
    .legal_moves = goof_legal_moves,
    .step = goof_step,
    .is_terminal = goof_is_terminal,
    .is_alive = goof_is_alive,
    .alive_mask = goof_alive_mask,
    .evaluate = goof_evaluate,
    .ranking = goof_ranking,
    .hash = goof_hash,
    .export_state = goof_export,
    .import_state = goof_import,
    .move_name = goof_move_name,
    .hidden_info = goof_hidden_info,
    .determinize = goof_determinize,
    .public_key = goof_public_key,
    .private_states = goof_private_states,
    .compose = goof_compose,
    .feature_layout = goof_feature_layout,
    .features = goof_features,
    .private_slot = goof_private_slot,
};
