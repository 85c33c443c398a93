/*
 * sbx.h — the one public header of the sandbox's C search core.
 *
 * The block between SBX_CDEF_BEGIN and SBX_CDEF_END is read verbatim by
 * cffi's cdef() (native/build_ffi.py) and by the C compiler, so it holds only
 * plain declarations: integer #defines, enums, structs and prototypes. No
 * expression macros, no includes, no inline code in that block.
 *
 * Conventions
 *   - Symbols are sbx_<object>_<verb>; constants SBX_UPPER; handles opaque.
 *   - Functions that can fail return int: SBX_OK (0) or a negative SBX_ERR_*.
 *     The message of the last failure on the calling OS thread is returned by
 *     sbx_last_error(). Bad input never aborts or crashes.
 *   - Thread-safety is stated per section. In short: one object is used by one
 *     thread at a time, except sbx_search_set_params() and sbx_search_stop(),
 *     which may be called from any thread while sbx_search_run() is running.
 *   - Every object takes an explicit seed; there is no global RNG. With an
 *     iteration budget the same inputs give bit-identical trees and moves.
 */
#ifndef SBX_H
#define SBX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SBX_CDEF_BEGIN */

/* ---------------------------------------------------------------- limits -- */
#define SBX_MAX_AGENTS 8        /* agents per game (snakes 1..8, goofspiel 2..4) */
#define SBX_MAX_MOVES 16        /* distinct moves per agent                   */
#define SBX_MAX_DEPTH 64        /* search depth limit                         */
#define SBX_MOVE_NONE 255       /* "no action" (dead agent, pass node)        */
#define SBX_EXPORT_MAX 16384    /* int32 words an export can need (any game) */

/* ---------------------------------------------------------------- status -- */
#define SBX_OK 0
#define SBX_ERR_ARGUMENT -1     /* bad argument or parameter value            */
#define SBX_ERR_STATE -2        /* call not valid in the object's state       */
#define SBX_ERR_MEMORY -3       /* allocation failed                          */
#define SBX_ERR_INTERNAL -4     /* invariant broken (a bug: please report)    */

/* Message of the last failed call on this OS thread ("" if none). The string
 * stays valid until the next failing call on the same thread. */
const char *sbx_last_error(void);

/* Version of the core, e.g. "0.1.0"; changes when behaviour changes. */
const char *sbx_version(void);

/* ============================================================== 1. Games ==
 * Implemented in src/games/registry.c (the games by name), src/games/game.c
 * (the checked calls on a game) and one file per game.
 * A game object owns one state. Not thread-safe: one thread per object.
 */
typedef struct sbx_game sbx_game;

/* Registered game kinds, in registration order; NULL past the end. */
const char *sbx_game_kind_name(int index);
/* Human-readable parameter list with defaults and ranges for a kind. */
const char *sbx_game_kind_params_doc(const char *kind);

/* params: "key=value" pairs separated by spaces, commas or semicolons, e.g.
 * "width=11 height=11 snakes=4". Unknown keys and out-of-range values fail
 * with a message naming the key. */
int sbx_game_new(const char *kind, const char *params, uint64_t seed,
                 sbx_game **out);
int sbx_game_clone(const sbx_game *game, sbx_game **out);
void sbx_game_free(sbx_game *game);                /* NULL is fine */
/* Copy src's state into dst (same kind and parameters). */
int sbx_game_copy_state(sbx_game *dst, const sbx_game *src);

const char *sbx_game_kind(const sbx_game *game);
int sbx_game_num_agents(const sbx_game *game);
int sbx_game_turn(const sbx_game *game);
/* Writes up to cap legal move ids of agent into out; *n_out gets the count
 * (0 for an eliminated agent). Move ids are small integers, see move_name. */
int sbx_game_legal_moves(const sbx_game *game, int agent, int32_t *out,
                         int cap, int *n_out);
/* One simultaneous turn. joint_moves has num_agents entries; entries of
 * eliminated agents are ignored. rewards_out (may be NULL) gets one reward
 * per agent for this step. Fails on a terminal state or an illegal move. */
int sbx_game_step(sbx_game *game, const int32_t *joint_moves,
                  double *rewards_out);
/* Free (continuous) moves: a move outside the game's move table, for people
 * and outside bots (pods: a target point and a thrust, as the Coders Strike
 * Back referee takes them). The searches keep the table; a game without
 * free moves refuses sbx_game_step_free with SBX_ERR_STATE.
 * One entry per agent: kind SBX_FREE_TABLE plays table move `move` (checked
 * like sbx_game_step; SBX_MOVE_NONE for an agent out of the game), the other
 * kinds steer toward (x, y): SBX_FREE_THRUST with `thrust` (a whole number,
 * 0..the game's max_thrust), SBX_FREE_BOOST, SBX_FREE_SHIELD. Every field is
 * checked (kind, a finite target within 1e9 of the origin on each axis,
 * thrust); a refusal changes
 * nothing and says which agent and field. Entries of agents out of the game
 * are ignored. */
#define SBX_FREE_TABLE 0
#define SBX_FREE_THRUST 1
#define SBX_FREE_BOOST 2
#define SBX_FREE_SHIELD 3
typedef struct sbx_free_move {
    int32_t kind;               /* SBX_FREE_*                                 */
    int32_t move;               /* SBX_FREE_TABLE: the move id                */
    double x, y;                /* the target point (the other kinds)         */
    double thrust;              /* SBX_FREE_THRUST: 0..max_thrust, whole      */
} sbx_free_move;
/* 1 if games of this kind take free moves, else 0. */
int sbx_game_has_free_moves(const char *kind);
int sbx_game_step_free(sbx_game *game, const sbx_free_move *moves,
                       double *rewards_out);
int sbx_game_is_terminal(const sbx_game *game);
int sbx_game_is_alive(const sbx_game *game, int agent);
/* Per-agent evaluation (the search's leaf score), one double per agent. */
int sbx_game_evaluate(const sbx_game *game, double *scores_out);
/* Final ranking, 0 = best, equal ranks for ties (valid at any time: it
 * ranks the current standings). */
int sbx_game_ranking(const sbx_game *game, int32_t *rank_out);
uint64_t sbx_game_hash(const sbx_game *game);
/* Flat int32 export of the state (layout documented per game, see
 * SBX_SNAKES_*, SBX_GOOFSPIEL_*, SBX_MATRIX_*, SBX_DEPTHBIAS_*, SBX_MAZE_* and
 * SBX_PODS_* below);
 * *len_out gets the number of words written. */
int sbx_game_export(const sbx_game *game, int32_t *buf, int cap, int *len_out);
/* Set the state from an export; validated, the state is unchanged on error. */
int sbx_game_import(sbx_game *game, const int32_t *buf, int len);
/* Name of a move id for an agent ("up", "left", ...); "?" if unknown. */
const char *sbx_game_move_name(const sbx_game *game, int agent, int move);
/* 1 if games of this kind have a heuristic bot (a scenario's controller =
 * "bot"), else 0. */
int sbx_game_has_bot(const char *kind);
/* The move the game's own heuristic bot plays for agent now (pods: steer at
 * the next checkpoint corrected for velocity); SBX_MOVE_NONE for an agent
 * out of the game or a terminal state. SBX_ERR_STATE if the game has no bot.
 * Deterministic: a function of the state. */
int sbx_game_bot_move(const sbx_game *game, int agent, int32_t *move_out);
/* The moves that lose agent the game this turn whatever the others play
 * (snakes: off the board, into a body that stays, starving), as a mask
 * over move ids (bit m: move m); 0 for a game that knows none, an agent
 * out of the game or a terminal state. What safe_moves skips. */
int sbx_game_fatal_moves(const sbx_game *game, int agent, uint32_t *mask_out);
/* Replace the state's own RNG stream (chance events such as food spawns). */
int sbx_game_reseed(sbx_game *game, uint64_t seed);
/* 1 if the game keeps information from some seats (goofspiel imp_info=1),
 * else 0. */
int sbx_game_hidden_info(const sbx_game *game);
/* Replaces the state by one drawn, with the given seed, from the states
 * seat cannot tell apart from it (its own private information and the
 * public record kept, the others' hidden information resampled: the
 * determinization the searches use, docs/algorithms.md). SBX_ERR_STATE on a
 * game without hidden information; the state is unchanged on error. */
int sbx_game_determinize(sbx_game *game, int seat, uint64_t seed);
/* Plays uniformly random legal moves from the current state (mutating it)
 * until terminal or max_steps; *steps_out gets the turns played. Used for
 * playouts and by the benchmark to time the engine without Python. */
int sbx_game_playout(sbx_game *game, int64_t max_steps, uint64_t seed,
                     int64_t *steps_out);
/* Runs n_playouts random playouts (as sbx_game_playout) from the current
 * state, restoring it after each, so the game is unchanged; *steps_out gets
 * the total turns played. One C loop: the engine benchmark. */
int sbx_game_playouts(sbx_game *game, int64_t n_playouts, int64_t max_steps,
                      uint64_t seed, int64_t *steps_out);
/* Effective parameters as a "key=value ..." string (for replays). */
const char *sbx_game_params(const sbx_game *game);

/* Features: a state as a fixed-length float vector, the input of a learned
 * network (section 7). Games that have them: goofspiel, snakes (ruleset
 * standard), matrix; the others refuse with SBX_ERR_STATE and a message.
 *
 * The layout is a function of the game's parameters alone:
 *   planes x height x width board planes first (plane-major, then row-major,
 *   cell y*width + x), then `scalars` plain numbers; size = their sum.
 * A view orders the players: SBX_VIEW_CANONICAL writes agent k as player k;
 * view a (an agent) writes agent a as player 0, then a+1, ... wrapping. A
 * network's outputs follow the same order (player k of its values and
 * policies is the view's player k).
 *
 * Only public information, whatever the view: in a game that hides
 * information (goofspiel imp_info=1) two states that differ only in private
 * information (the hidden bids, so the hands) have the same features. The
 * private part reaches a network only as ranges: per seat, a probability
 * for each private state the seat may hold, in `slots` entries, placed after
 * the features (seat 0's slots, then seat 1's; see section 7); the slot of
 * a private state id (the ids of sbx_search_pubcfr_node_range) is
 * sbx_game_private_slot's. slots is 0 in a game with perfect information.
 *
 * Goofspiel, N cards, P players (size 1 + 2N + P(1 + N), plus P*N with
 *   public bids; no planes):
 *   [0] rounds played / N
 *   [1 + v-1] 1 if prize v is the current prize
 *   [1 + N + v-1] 1 if prize v is still face down (the current one excluded)
 *   then per player k in view order, 1 + N numbers: points / (1+...+N), and
 *     1 at v-1 for every prize v it won
 *   then, only when the bids are public (imp_info=0), per player k in view
 *     order N numbers: 1 at c-1 for every card c in its hand
 *   With imp_info=1, slots = C(N, floor(N/2)): a hand of k cards (the
 *   private state id is its mask, bit c-1 for card c) has the slot of its
 *   rank among the k-card hands in colexicographic order (the sum over its
 *   cards c_1 < ... < c_k of C(c_i - 1, i)), so the slots of one public
 *   state (every hand there has N - rounds played cards) never collide.
 * Snakes (standard ruleset), W x H board, S snakes: planes 2 + 2S, then 3S
 *   scalars:
 *   plane 0: 1 on every cell (the board's extent, for convolutions)
 *   plane 1: 1 where food lies
 *   then per snake k in view order two planes: its head (1, alive snakes
 *     only), its body: segment i of a snake of length L (0 the head) is
 *     (L - i) / L, the share of the body still to pass over the cell, the
 *     largest where segments stack (alive snakes only)
 *   then per snake k in view order: alive (0|1), health / max_health,
 *   length / (W*H)
 * Matrix, R x C table (size 1 + R*C + R + C; no planes): with view 1 the
 *   table is seen transposed (the view's own actions first):
 *   [0] rounds played / repeats
 *   then the counts of each joint action / repeats, own action major
 *   then the last round's own action one-hot (R, or C for view 1), then the
 *   other's (zeros before the first round) */
#define SBX_VIEW_CANONICAL -1

typedef struct sbx_features_layout {
    int32_t size;               /* floats sbx_game_features writes           */
    int32_t planes, height, width; /* board planes (0 0 0: none)             */
    int32_t scalars;            /* numbers after the planes                  */
    int32_t players;            /* the game's agents                         */
    int32_t moves;              /* move ids per agent (policy logits)        */
    int32_t slots;              /* private states per seat (0: perfect
                                   information)                              */
} sbx_features_layout;

/* The layout for this game's parameters; SBX_ERR_STATE (with the reason) if
 * the game has no features. */
int sbx_game_features_layout(const sbx_game *game, sbx_features_layout *out);
/* Writes the layout's size floats for the current state from view's order
 * (SBX_VIEW_CANONICAL or an agent) into out, which holds cap floats. */
int sbx_game_features(const sbx_game *game, int view, float *out, int cap);
/* The slot (0..slots-1) of a seat's private state id in the current public
 * state; SBX_ERR_ARGUMENT if the id cannot be held here, SBX_ERR_STATE if the
 * game has no slots (perfect information or no features). */
int sbx_game_private_slot(const sbx_game *game, uint32_t id, int32_t *slot_out);
/* The private state id `seat` holds now (goofspiel: its hand mask): what a
 * network's value for that seat is read at (sbx_game_private_slot). Not
 * public: for training targets and for a seat's own use. SBX_ERR_STATE if
 * the game has no private states. */
int sbx_game_private_state(const sbx_game *game, int seat, uint32_t *id_out);

/* Snakes export layout (int32 words), version SBX_SNAKES_EXPORT_VERSION:
 *   [0] version  [1] width  [2] height  [3] snakes  [4] turn  [5] food count F
 *   then F pairs (x, y) of food, in increasing cell order (cell = y*width+x)
 *   then per snake, in agent order, the record
 *     alive, health, length L, death_turn (-1 if alive), death_cause,
 *     L pairs (x, y), head first
 *   A dead snake keeps the body it had when it died; its head may lie off
 *   the board (out of bounds). death_cause is one of SBX_SNAKES_CAUSE_*.
 *   The RNG stream is not exported; import keeps the game's current one.
 * Version SBX_SNAKES_EXPORT_VERSION_HAZARDS (a game whose ruleset or map has
 * hazards: royale, the hz_* maps, healing_pools, sinkholes, arcade_maze, ...)
 * is the same layout with version 2, followed by
 *   Z, the number of hazard cells, then Z triples (x, y, stack) in
 *   increasing cell order (stack >= 1: a cell listed k times by the official
 *   engine; each layer deals hazard_damage; on snail_mode, cells with
 *   y >= height are the trail's cells to come, at y - height, as the
 *   official engine keeps them), then four words of the map's
 *   progress (SBX_SNAKES_MAP_WORDS): royale, the safe zone min_x, max_x,
 *   min_y, max_y; hz_spiral, hz_expand_box, hz_expand_scatter, the origin
 *   x, y (-1 -1 before it is drawn) and 0 0; hz_grow_box, the box min_x,
 *   max_x, min_y, max_y (-1 before it is drawn); other maps 0 0 0 0. */
#define SBX_SNAKES_EXPORT_VERSION 1
#define SBX_SNAKES_EXPORT_VERSION_HAZARDS 2
#define SBX_SNAKES_MAP_WORDS 4
#define SBX_SNAKES_CAUSE_NONE 0
#define SBX_SNAKES_CAUSE_STARVED 1
#define SBX_SNAKES_CAUSE_OUT_OF_BOUNDS 2
#define SBX_SNAKES_CAUSE_SELF_COLLISION 3
#define SBX_SNAKES_CAUSE_BODY_COLLISION 4
#define SBX_SNAKES_CAUSE_HEAD_TO_HEAD 5
#define SBX_SNAKES_CAUSE_HAZARD 6
#define SBX_SNAKES_MOVE_UP 0
#define SBX_SNAKES_MOVE_DOWN 1
#define SBX_SNAKES_MOVE_LEFT 2
#define SBX_SNAKES_MOVE_RIGHT 3

/* Snakes ruleset `snakebyte` export layout (int32 words), version
 * SBX_SNAKEBYTE_EXPORT_VERSION (docs/games.md, SnakeByte; y grows DOWNWARD, "up" is y-1):
 *   [0] version  [1] width W  [2] height H  [3] snakes per player K
 *   [4] turn  [5] max_turns  [6] apples left A
 *   then per row y = 0..H-1 two words: the wall bits of x = 0..31 and of
 *   x = 32..W-1 (bit x or x-32 set: a wall; the map belongs to the
 *   parameters, an import must repeat it)
 *   then A pairs (x, y) of apples, in increasing cell order (y*W + x)
 *   then per player (2): losses (body parts lost so far)
 *   then per snake, agent order (agent a = snake a%K of player a/K):
 *     alive, length L, death_turn (-1 while alive), death_cause,
 *     fell (rows it fell in the last turn), lost (parts it lost in the last
 *     turn), then L pairs (x, y), head first; cells may lie off the grid
 *     (open air beside and above it). A dead snake keeps its last body.
 *   Move ids as the standard ruleset: 0 up, 1 down, 2 left, 3 right. */
#define SBX_SNAKEBYTE_EXPORT_VERSION 201
#define SBX_SNAKEBYTE_CAUSE_BEHEADED 1
#define SBX_SNAKEBYTE_CAUSE_FELL 2

/* Goofspiel export layout (int32 words), version SBX_GOOFSPIEL_EXPORT_VERSION:
 *   [0] version  [1] num_cards N  [2] players P  [3] turn T (rounds played)
 *   [4] points_order (SBX_GOOFSPIEL_ORDER_*)
 *   [5] returns_type (SBX_GOOFSPIEL_RETURNS_*)
 *   [6] current prize (1..N; 0 when terminal, i.e. T == N)
 *   [7] bitmask of the prizes not yet revealed, the current one excluded
 *       (bit v-1 = prize v)
 *   then per player, in agent order: points, hand bitmask (bit c-1 = card c)
 *   then T round records, oldest first: prize, winner (agent, -1 if the
 *   highest bid was tied and the prize discarded), P bids (card values)
 *   Length 8 + 2P + T(2 + P). Move id = card - 1.
 *   The RNG stream is not exported; import keeps the game's current one. */
#define SBX_GOOFSPIEL_EXPORT_VERSION 1
#define SBX_GOOFSPIEL_ORDER_DESCENDING 0
#define SBX_GOOFSPIEL_ORDER_ASCENDING 1
#define SBX_GOOFSPIEL_ORDER_RANDOM 2
#define SBX_GOOFSPIEL_RETURNS_WIN_LOSS 0
#define SBX_GOOFSPIEL_RETURNS_POINT_DIFFERENCE 1
#define SBX_GOOFSPIEL_RETURNS_TOTAL_POINTS 2

/* Matrix export layout (int32 words), version SBX_MATRIX_EXPORT_VERSION,
 * 7 + 3*R*C words for an R x C game:
 *   [0] version  [1] rows R  [2] cols C  [3] repeats  [4] turn (rounds
 *   played)  [5] last row  [6] last column (-1 -1 before the first round)
 *   then R*C counts: times each joint action (r, c) was played, row-major
 *   (index r*C + c); they sum to turn
 *   then the row player's payoffs a, R*C words row-major, then the column
 *   player's b, likewise, each in milli-units: round(x * 1000) half away
 *   from zero, clamped to int32. They are for renderers; the game's
 *   parameters hold the exact doubles, and an import must repeat them.
 *   Agent 0 plays rows (move r), agent 1 columns. Totals are not exported:
 *   they follow from the counts and the tables. The RNG stream (the game has
 *   no chance events) is not exported; import keeps the game's own. */
#define SBX_MATRIX_EXPORT_VERSION 1

/* Depthbias export layout (int32 words), version SBX_DEPTHBIAS_EXPORT_VERSION,
 * always 14 words (the tutorial's §13 widget: one agent, three actions):
 *   [0] version  [1] turn (turns played)  [2] choice (0 sprint, 1 march,
 *   2 siege; -1 before the choice)  [3] length L, the episode's turns, the
 *   choice turn included (0 before the choice)  [4] points so far
 *   (= turn * the choice's per-turn points)
 *   then per action, sprint, march, siege: min, max, per-turn points (the
 *   game's parameters, for renderers; an import must repeat them).
 *   Move ids: 0 sprint, 1 march, 2 siege (turn 0 only), 3 go (after).
 *   The RNG stream (it draws L at the choice) is not exported; import keeps
 *   the game's own. */
#define SBX_DEPTHBIAS_EXPORT_VERSION 1

/* Maze export layout (int32 words), version SBX_MAZE_EXPORT_VERSION,
 * 8 + 4P + W*H words:
 *   [0] version  [1] width W  [2] height H  [3] players P  [4] turn
 *   [5] max_turns  [6] cheese at the start  [7] cheese left
 *   then per player, in agent order: x, y, stuck (turns it must still stay
 *   because of mud), score in twelfths of a cheese (shares 1/2, 1/3, 1/4)
 *   then per cell, cell = y*W + x (y upwards, "up" is y+1), one word:
 *   bits 0-3 passage right, bits 4-7 passage up (0 wall or off the grid,
 *   1 open, N >= 2 mud costing N turns), bit 8 cheese now, bit 9 cheese at
 *   the start. The layout belongs to the parameters: an import must repeat
 *   it. Move ids: 0 up, 1 down, 2 left, 3 right, 4 stay.
 *   The hash is a Zobrist key over positions, cheese left, stuck counters
 *   and the turn (native/src/games/maze.c), not a hash of these words. */
#define SBX_MAZE_EXPORT_VERSION 1

/* Pods export layout (int32 words), version SBX_PODS_EXPORT_VERSION,
 * 14 + 2N + 2P + 12*P*K words for P players of K pods and N checkpoints:
 *   [0] version  [1] players P  [2] pods_per_player K  [3] laps
 *   [4] checkpoints N  [5] turn  [6] max_turns  [7] timeout  [8] max_thrust
 *   [9] winner (the player whose pod finished; -1 while racing)
 *   [10] rotations (1|3|5)  [11] thrust levels (1|2|3)  [12] boost move on
 *   [13] shield move on (the move set, parameters an import must repeat)
 *   then N pairs (x, y): the checkpoints, 0 = start and finish
 *   then per player: clock (turns left to pass a checkpoint), out turn
 *   (the turn count at which it timed out, -1 while in)
 *   then per pod, agent order (agent a = pod a%K of player a/K):
 *     x, y, vx, vy (integers after the turn's rounding), the angle in
 *     degrees as the two halves (low, high) of its IEEE-754 double, next
 *     checkpoint, checkpoints passed since the start, shield (turns it still
 *     blocks thrust), boost used (0|1), thrust applied on the last turn
 *     (650 for a boost), flags of the last turn (1 shield raised, 2 boosted)
 *   The map belongs to the parameters: an import must repeat it. Move ids:
 *   rotations x thrust levels, then boost, then shield (move_name). */
#define SBX_PODS_EXPORT_VERSION 1

/* ===================================================== 2. Search params ==
 * One flat struct; every knob of every algorithm lives here. Ranges and
 * defaults are declared once (src/search/params.c) and listed through
 * sbx_search_param_info, which the Python mirror is tested against.
 */
#define SBX_ELIM_PASS 0         /* dead agent descends through pass nodes    */
#define SBX_ELIM_FREEZE 1       /* dead agent's tree stops at its death      */

#define SBX_BOUNDS_LEAF 0       /* UCB normalised by the leaf scores' range  */
#define SBX_BOUNDS_DEPTH 1      /* ... by the range of the (discounted)
                                   scores backed up at each depth            */

/* algorithm: which search runs behind the API (one C file each) */
#define SBX_ALGO_SMITSIMAX 0    /* decoupled trees, one per agent (smitsimax.c) */
#define SBX_ALGO_SUCT 1         /* sequential UCT: agents serialised, one tree  */
#define SBX_ALGO_JOINT 2        /* joint-action MCTS: a child per joint action
                                   (refused above 4096 joint actions a node) */
#define SBX_ALGO_RANDOM 3       /* uniform random legal move, no search         */
#define SBX_ALGO_GREEDY 4       /* best one-ply evaluation vs random opponents  */
#define SBX_ALGO_MCGS 5         /* Monte-Carlo graph search, two players: one
                                   graph of states, n1 x n2 edges (mcgs.c)   */
#define SBX_ALGO_UCT 6          /* textbook sequential UCT, untuned: the
                                   outside yardstick (uct.c)                 */
#define SBX_ALGO_GTCFR 7        /* growing-tree CFR (Student of Games' search,
                                   no network), two players (gtcfr.c)        */
#define SBX_ALGO_PUBCFR 8       /* CFR+ over public states with ranges, two
                                   players, hidden information (pubcfr.c)    */

/* expand_children: what GT-CFR adds when it expands a leaf (the paper's k) */
#define SBX_EXPAND_ONE 0        /* the joint action of the highest prior     */
#define SBX_EXPAND_ALL 1        /* every child                               */

/* policy: Smitsimax's selection policy at every node */
#define SBX_POLICY_UCB1 0       /* UCB1 on normalised scores (tutorial §6-§7)   */
#define SBX_POLICY_UCB1_TUNED 1 /* UCB1-Tuned: variance-aware exploration       */
#define SBX_POLICY_EXP3 2       /* Exp3 (tutorial §10)                          */
#define SBX_POLICY_RM 3         /* regret matching (tutorial §11)               */
#define SBX_POLICY_RM_PLUS 4    /* regret matching+, regrets floored at 0       */

/* final_move: how Exp3 / RM pick the move to play from the average strategy */
#define SBX_FINAL_ARGMAX 0
#define SBX_FINAL_SAMPLE 1

/* avg_weight: the weight of one selection's sampling distribution in the
 * average strategy of Exp3 / RM (t = the parent's visit count then) */
#define SBX_AVG_AUTO 0          /* sqrt for rm_plus, uniform for exp3 and rm  */
#define SBX_AVG_UNIFORM 1       /* 1 (Hart and Mas-Colell's plain average)    */
#define SBX_AVG_SQRT 2          /* sqrt(t)                                    */
#define SBX_AVG_LINEAR 3        /* t (CFR+'s linear average)                  */

/* counterfactual: where RM / RM+ take every alternative's exact return
 * (the state before the step re-stepped with it) instead of an estimate */
#define SBX_CF_OFF 0            /* nowhere: sampled estimates everywhere      */
#define SBX_CF_TERMINAL 1       /* at a step that ends the game              */
#define SBX_CF_LAST_STEP 2      /* at an iteration's last step: the game's end
                                   or max_depth (the leaf's evaluation)      */

/* backup: how a node's value is formed from what is below it */
#define SBX_BACKUP_MEAN 0       /* arithmetic mean of backed-up scores          */
#define SBX_BACKUP_POWER 1      /* power mean of the children (Dam et al.);
                                   policy ucb1 only (validate refuses others:
                                   the value takes the node's spare bytes)    */

/* priors: where MCGS's PUCT priors come from */
#define SBX_PRIORS_UNIFORM 0    /* 1 / outcomes                              */
#define SBX_PRIORS_HEURISTIC 1  /* softmax of the game's move scores (a game
                                   without them is refused)                  */
#define SBX_PRIORS_NET 2        /* softmax of the value net's policy head
                                   over the legal moves (sbx_search_set_net;
                                   uniform while no net is attached)         */

/* parallel: how Smitsimax uses `threads`; MCGS runs WU_UCT and TREE and
 * refuses ROOT and LEAF; other algorithms run serially */
#define SBX_PAR_SERIAL 0        /* one thread, the classic loop              */
#define SBX_PAR_WU_UCT 1        /* shared trees, in-flight counts O in UCB's
                                   exploration term (WU-UCT)                 */
#define SBX_PAR_TREE 2          /* shared trees, virtual loss                */
#define SBX_PAR_ROOT 3          /* one tree set per thread, merged at root   */
#define SBX_PAR_LEAF 4          /* one selection, a rollout per thread       */
#define SBX_MAX_THREADS 64

typedef struct sbx_search_params {
    double c;                   /* UCB1 exploration constant                 */
    double gamma;               /* discount per step from leaf toward root   */
    double death_penalty_value; /* subtracted from a doomed child's UCB      */
    double reuse_decay;         /* kept subtree's statistics x this at re-root*/
    int32_t max_depth;          /* simulated turns per iteration             */
    int32_t random_threshold;   /* parent visits below which pick at random  */
    int32_t depth_normalize;    /* 1: leaf score / depth reached             */
    int32_t bounds;             /* SBX_BOUNDS_LEAF or SBX_BOUNDS_DEPTH       */
    int32_t elimination;        /* SBX_ELIM_PASS or SBX_ELIM_FREEZE          */
    int32_t death_penalty;      /* 1: penalise children of certain death     */
    int32_t death_min_visits;   /* visits, all fatal, before "certain death" */
    int32_t rollout;            /* 1: one new node per tree per iteration,
                                      uniformly random moves below it        */
    int32_t tree_reuse;         /* 1: keep the played subtree between turns  */
    int32_t node_cap;           /* nodes per agent tree (arena size)         */
    int32_t time_check_interval;/* iterations between clock reads            */
    double exploration;         /* Exp3/RM: uniform share mixed into sampling */
    double power_p;             /* backup=power: exponent p >= 1             */
    int32_t algorithm;          /* SBX_ALGO_*                                */
    int32_t policy;             /* SBX_POLICY_* (Smitsimax)                  */
    int32_t final_move;         /* SBX_FINAL_* (Exp3 / RM)                   */
    int32_t avg_weight;         /* SBX_AVG_* (Exp3 / RM's average strategy)  */
    int32_t backup;             /* SBX_BACKUP_*                              */
    int32_t lead;               /* SUCT, UCT: agent serialised first (-1: agent 0,
                                   or the seat, filled in by the controller) */
    double c_puct;              /* MCGS: PUCT exploration constant           */
    double fpu_offset;          /* MCGS: unvisited outcome Q = node Q - this */
    double temperature;         /* MCGS, gtcfr final_move=sample: pi^(1/T)   */
    int32_t rollout_steps;      /* MCGS: random turns before a leaf's eval   */
    int32_t short_circuit;      /* MCGS: 1: child better known than the edge:
                                   count the edge, do not descend            */
    int32_t transpositions;     /* MCGS: 1: states found again share a node  */
    int32_t priors;             /* MCGS: SBX_PRIORS_* (PUCT's priors)        */
    double prior_temperature;   /* MCGS priors=heuristic: softmax(score / T) */
    int32_t threads;            /* C threads inside one run (1..64, <= cores)*/
    int32_t parallel;           /* SBX_PAR_* (Smitsimax)                     */
    double virtual_loss;        /* parallel=tree: losses per in-flight visit */
    int32_t counterfactual;     /* SBX_CF_* (RM / RM+, tutorial §11)         */
    double expansions_per_update; /* GT-CFR: c of SoG(s, c), may be < 1     */
    int32_t expand_children;    /* GT-CFR: SBX_EXPAND_*                      */
    int32_t alternating;        /* GT-CFR: 1 alternating CFR+ updates, 0
                                   simultaneous (the paper's)               */
    int32_t leaf_rollouts;      /* GT-CFR, rollout on: rollouts averaged
                                   into a frontier leaf's value            */
    int32_t expand_after;       /* GT-CFR: simulations a frontier leaf
                                   takes (each refining its value) before
                                   the one that expands it                 */
    int32_t grow_tree;          /* pubcfr: 1 grows the public tree by
                                   expansion simulations (GT-CFR), 0 builds
                                   it breadth-first, level by level        */
    int32_t info_seat;          /* hidden-information games: the seat whose
                                   information the search may use (-1: the
                                   seat it plays for, filled in by the
                                   controller; agent 0 for a bare search)   */
    double exploration_decay;   /* RM / RM+ / Exp3: a young node's uniform
                                   share, decay * sqrt(K / n), floored at
                                   exploration                              */
    int32_t safe_moves;         /* 1: skip the game's fatal moves (game.h
                                   fatal_moves) in selection, random picks
                                   and rollouts while another move is left */
    double resolve_mix;         /* pubcfr, continual re-solving: the share
                                   of the gadget's range in the opponent's
                                   range of the re-solved subgame (the
                                   rest: its range in the previous search;
                                   1: the gadget alone)                     */
    int32_t relative_scores;    /* Smitsimax: 1 scores each agent's leaf as
                                   its evaluation minus the mean of the
                                   others' (a duel's zero-sum view)         */
} sbx_search_params;

#define SBX_PARAM_FLOAT 0
#define SBX_PARAM_INT 1
#define SBX_PARAM_BOOL 2
#define SBX_PARAM_CHOICE 3

typedef struct sbx_param_info {
    const char *name;           /* field name in sbx_search_params           */
    int32_t type;               /* SBX_PARAM_*                               */
    double min_value;           /* inclusive                                 */
    double max_value;           /* inclusive                                 */
    double default_value;
    const char *doc;            /* one line                                  */
} sbx_param_info;

void sbx_search_params_default(sbx_search_params *out);
/* 0 if every field is in range, else SBX_ERR_ARGUMENT naming the field. */
int sbx_search_params_validate(const sbx_search_params *params);
int sbx_search_param_count(void);
int sbx_search_param_info(int index, sbx_param_info *out);
/* Online processors, capped at SBX_MAX_THREADS: the most `threads` this
 * machine accepts. Any thread. */
int sbx_cores(void);
/* The one-way latency of a cache line moving between two cores, in ns: two
 * threads pass a counter back and forth round_trips times (1..10^8; one
 * more round trip first, untimed, waits for the second thread). What a
 * shared-tree parallel search pays per node the other thread has written
 * (bench --parallel); a busy second core inflates it (a time slice per
 * move). SBX_ERR_STATE if this process has fewer than two CPUs to run on,
 * or the threads did not finish in 10 s. */
int sbx_line_transfer_ns(int64_t round_trips, double *out_ns);
/* The vector paths this process runs, decided once when first needed:
 * "snakes territory: avx2" (or "scalar (no AVX2)", "scalar (SBX_NO_AVX2)",
 * "scalar (not an x86-64 build)"). Any thread. */
const char *sbx_simd_paths(void);

/* ==================================================== 3. Search: lifecycle
 * Implemented in src/search/api.c (dispatch, budgets, hot-swap),
 * src/search/registry.c (the algorithms by id) and a file or a family of
 * files per algorithm (smitsimax.c, mcgs*.c, ...). A search owns a copy of
 * its root state and its algorithm's trees; it never mallocs per node.
 * Thread-safety: one thread drives a search (run, step_traced, advance,
 * inspect). set_params and stop may be called from any other thread.
 * With params.parallel != SBX_PAR_SERIAL (Smitsimax, MCGS) a run starts
 * threads - 1 helper threads of its own and joins them before it returns;
 * params set during such a run apply from the next run.
 */
typedef struct sbx_search sbx_search;

int sbx_search_new(const sbx_game *root, const sbx_search_params *params,
                   uint64_t seed, sbx_search **out);
void sbx_search_free(sbx_search *search);          /* NULL is fine */
/* Validated, then applied from the next iteration, even if a run is in
 * progress on another thread (hot-swap). */
int sbx_search_set_params(sbx_search *search, const sbx_search_params *params);
/* The checks set_params makes (ranges, and what depends on this search's
 * game: node_cap against the algorithm's worst iteration, joint-action
 * MCTS's branching, SUCT's lead), without setting anything. Reads only what
 * is constant for the search's life: any thread. */
int sbx_search_check_params(const sbx_search *search,
                            const sbx_search_params *params);
/* The parameters in force now (pending ones are applied first). */
int sbx_search_get_params(sbx_search *search, sbx_search_params *out);
/* Ask a running sbx_search_run to return after its current iteration. */
void sbx_search_stop(sbx_search *search);
/* Tree reuse: the real game took joint_moves. Each tree's root becomes the
 * child matching its agent's move (or a fresh root if there is none or
 * reuse is off). The root state becomes new_root's state, or, if new_root is
 * NULL, the old root stepped with joint_moves using the search's RNG. */
int sbx_search_advance(sbx_search *search, const int32_t *joint_moves,
                       const sbx_game *new_root);
/* Drop all trees and take root's state (same kind and parameters). */
int sbx_search_reset(sbx_search *search, const sbx_game *root);
/* Copy the search's root state into game (same kind and parameters). */
int sbx_search_root_state(const sbx_search *search, sbx_game *game);
/* Take `like`'s parameters for this search (the same game with other
 * evaluation weights: a player that values states its own way), from the
 * next iteration; the trees are kept. `like` must be the same kind with the
 * same state layout, and the search's root state must carry over (exported
 * under the old parameters, imported under the new ones: what belongs to the
 * parameters, a maze's layout or a pods map, must not change). The games it
 * re-roots on afterwards (advance, reset) must have the new parameters.
 * Driving thread, between runs. */
int sbx_search_set_game(sbx_search *search, const sbx_game *like);

/* =========================================================== 4. Search: run */
#define SBX_STOP_NONE 0
#define SBX_STOP_ITERATIONS 1   /* iteration budget used                     */
#define SBX_STOP_TIME 2         /* time budget used                          */
#define SBX_STOP_NODE_CAP 3     /* an agent's arena cannot hold an iteration */
#define SBX_STOP_TERMINAL 4     /* the root state is terminal                */
#define SBX_STOP_REQUESTED 5    /* sbx_search_stop was called                */

typedef struct sbx_run_result {
    int64_t iterations;         /* iterations done in this call              */
    int64_t sim_turns;          /* simulated game turns in this call         */
    double elapsed_ms;
    int32_t stop_reason;        /* SBX_STOP_*                                */
    int32_t nodes_added;        /* over all trees, in this call              */
} sbx_run_result;

/* Runs until max_iterations (0: no limit) or max_ms (0: no limit) is used;
 * at least one must be positive. The clock is read every
 * time_check_interval iterations. Blocks; cffi releases the GIL. */
int sbx_search_run(sbx_search *search, int64_t max_iterations, double max_ms,
                   sbx_run_result *out);

/* One iteration, traced for the step-by-step view. Per agent: the tree path
 * (node ids from the root), the move chosen at each depth, how it was chosen
 * and whether the node was expanded there; the joint action per depth; the
 * leaf scores. Replaying joint[] on the root state reseeded with sim_seed
 * reproduces the simulated states exactly. */
#define SBX_PICK_NONE 0         /* agent was outside its tree at this depth  */
#define SBX_PICK_RANDOM 1       /* below random_threshold                    */
#define SBX_PICK_UCB 2
#define SBX_PICK_PASS 3         /* eliminated agent: pass node               */
#define SBX_PICK_ROLLOUT 4      /* below the tree: uniform random move       */
#define SBX_PICK_SAMPLE 5       /* sampled from the Exp3 / RM strategy       */
/* SUCT and joint-action MCTS keep one tree: its path is path[0] (SUCT: one
 * node per agent per turn, in the serialised order; joint: one per turn),
 * path_len of the other agents is 0; moves/pick still hold every agent's.
 * UCT traces as SUCT, but its rollout runs to the game's end whatever
 * max_depth says: a trace holds the first SBX_MAX_DEPTH turns (terminal 0
 * when the game went on past them).
 * SUCT's path can be longer than one row (agents x max_depth + 1 nodes): it
 * runs on into path[1], path[2], ... as one flat array of path_len[0]
 * entries. Greedy traces its one simulated turn (depth 1, no path); random
 * traces nothing (depth 0). */

typedef struct sbx_trace {
    int32_t num_agents;
    int32_t depth;                                  /* turns simulated       */
    int32_t terminal;                               /* sim ended terminal    */
    int32_t path_len[SBX_MAX_AGENTS];               /* nodes incl. root      */
    int32_t path[SBX_MAX_AGENTS][SBX_MAX_DEPTH + 1];/* node ids              */
    int32_t moves[SBX_MAX_AGENTS][SBX_MAX_DEPTH];   /* joint action per depth*/
    int8_t pick[SBX_MAX_AGENTS][SBX_MAX_DEPTH];     /* SBX_PICK_*            */
    int8_t expanded[SBX_MAX_AGENTS][SBX_MAX_DEPTH]; /* node expanded here    */
    int8_t alive_after[SBX_MAX_AGENTS][SBX_MAX_DEPTH];
    double score[SBX_MAX_AGENTS];                   /* leaf score backed up  */
    double norm_min[SBX_MAX_AGENTS];                /* bounds after update
                                                       (bounds=depth: of the
                                                       root's children)      */
    double norm_max[SBX_MAX_AGENTS];
    uint64_t sim_seed;
    int32_t stop_reason;        /* SBX_STOP_NONE if the iteration ran        */
    /* The regret-update phase that ran before the simulation (GT-CFR;
     * every other algorithm leaves these 0: has_update 0, no such phase).
     * update_sweeps: regret updates (CFR+ passes) this iteration, 0 when
     * the credit of 1/c per iteration did not reach one; update_nodes:
     * interior nodes those passes visited. Per player p, over its
     * update_k[p] root moves (update_moves[p][i]): the current strategy
     * (regret matching+ of the root's regrets) and the average strategy
     * just before the sweeps and just after them. */
    int32_t has_update;
    int32_t update_sweeps;
    int64_t update_nodes;
    int32_t update_k[2];
    int32_t update_moves[2][SBX_MAX_MOVES];
    double current_before[2][SBX_MAX_MOVES];
    double current_after[2][SBX_MAX_MOVES];
    double average_before[2][SBX_MAX_MOVES];
    double average_after[2][SBX_MAX_MOVES];
    /* GT-CFR's expansion phase with expand_after > 1: the simulation ended on
     * a frontier leaf that took one more leaf value instead of expanding
     * (refined 1; every other iteration and algorithm leaves 0).
     * leaf_visits: simulations that reached the leaf, this one included
     * (the one that makes it visit expand_after expands it); leaf_samples:
     * the values in its mean, this one included. leaf_value: player 0's
     * zero-sum value the new sample gave, leaf_mean the leaf's mean after
     * it (what the next sweep reads). */
    int32_t refined;
    int32_t leaf_visits;
    int32_t leaf_samples;
    int32_t expand_after;
    double leaf_value;
    double leaf_mean;
} sbx_trace;

int sbx_search_step_traced(sbx_search *search, sbx_trace *out);

/* ======================================================= 5. Search: inspect
 * Between run slices only (same thread as run).
 */
typedef struct sbx_move_stat {
    int32_t move;
    int32_t visits;
    double mean;                /* mean backed-up score (its value)          */
    double prob;                /* share of visits                           */
    double policy;              /* the policy's probability of this move:
                                   the average strategy for Exp3/RM, the
                                   share of visits for the UCB family, 1 for
                                   the move a greedy/random agent plays      */
} sbx_move_stat;

typedef struct sbx_search_stats {
    int64_t iterations;         /* since creation                            */
    int64_t sim_turns;          /* since creation                            */
    int64_t iterations_root;    /* since the last advance/reset              */
    int32_t num_agents;
    int32_t node_cap;           /* per tree                                  */
    int32_t cap_reached;        /* the last run stopped on SBX_STOP_NODE_CAP */
    int32_t node_bytes;         /* bytes of one tree node (algorithm, policy)*/
    int32_t algorithm;          /* SBX_ALGO_* in force (a requested change
                                   takes effect at the next advance/reset,
                                   or at once before the turn's first
                                   iteration)                                */
    int32_t policy;             /* SBX_POLICY_* in force (likewise)          */
    int32_t trees;              /* trees kept: agents (smitsimax), 1 (SUCT,
                                   joint, UCT), 0 (random, greedy)           */
    int32_t nodes[SBX_MAX_AGENTS]; /* per agent's tree; with one tree (SUCT,
                                   joint) every agent's entry is its size;
                                   random and greedy: 1 (the root row)       */
    int32_t root_visits[SBX_MAX_AGENTS];
    int32_t max_depth_reached[SBX_MAX_AGENTS];
    double norm_min[SBX_MAX_AGENTS];
    double norm_max[SBX_MAX_AGENTS];
    int64_t transposition_hits; /* MCGS: edges (or an edge's further chance
                                   children) linked to a node that already
                                   existed (a state reached again by another
                                   move order), since the graph was started
                                   or re-rooted; 0 for the tree searches    */
    int64_t edge_bytes;         /* MCGS: bytes of edge arrays in use (the
                                   nodes' n1 x n2 arrays, and in games with
                                   chance the edges' further children;
                                   nodes: node_bytes x nodes); GT-CFR: its
                                   statistics pool (regrets, averages,
                                   joint-action values, child ids)           */
    int64_t prior_bytes;        /* MCGS: bytes of stored priors in use (0
                                   with priors=uniform)                      */
    int64_t table_bytes;        /* MCGS: transposition table size           */
    /* the last run's threads (parallel Smitsimax; 0: it ran serially) */
    int32_t run_threads;
    int32_t run_pad;
    int64_t run_thread_iterations[SBX_MAX_THREADS]; /* per thread; leaf:
                                   worker 0 selections, others rollouts */
    double run_wait_ms;         /* summed over threads: spinning or yielding
                                   on another thread (a claimed expansion,
                                   leaf's hand-off)                          */
    double run_busy_ms;         /* summed over threads: time in the run     */
    int64_t update_nodes;       /* GT-CFR: interior nodes its regret updates
                                   visited since creation (a pass over the
                                   tree counts each node it descends into);
                                   0 for the other searches                  */
    int64_t net_states;         /* states the value net valued since
                                   creation, every thread's (0: no net)      */
} sbx_search_stats;

/* Most-visited root child per agent (ties: higher mean, then the earlier
 * child in legal-move order); SUCT and joint: most-visited move of the
 * agent's root marginal; UCT: the most-visited child (ties: the lower move)
 * along the most-visited line of the first turn's levels; greedy: highest mean (ties: more samples, then the
 * earlier move); random: the turn's draw (search seed and turn count).
 * SBX_MOVE_NONE for an agent without legal moves. */
int sbx_search_best_moves(sbx_search *search, int32_t *moves_out);
int sbx_search_root_stats(sbx_search *search, int agent, sbx_move_stat *out,
                          int cap, int *n_out);
int sbx_search_stats_get(sbx_search *search, sbx_search_stats *out);

/* Everything a controller publishes between slices, in one call: the stats,
 * the best moves and every agent's root statistics (rows [a][0..counts[a])).
 * One call instead of 2 + num_agents matters to Python callers: each cffi
 * call releases the GIL and must win it back from the UI and the other
 * searches. */
typedef struct sbx_search_summary {
    sbx_search_stats stats;
    int32_t best_moves[SBX_MAX_AGENTS];
    int32_t root_counts[SBX_MAX_AGENTS];
    sbx_move_stat root[SBX_MAX_AGENTS][SBX_MAX_MOVES + 1]; /* + a pass child */
} sbx_search_summary;

int sbx_search_summary_get(sbx_search *search, sbx_search_summary *out);

/* One row of a tree snapshot; rows come parents-first (breadth-first, siblings
 * in move order), row 0 is the root (parent -1). */
typedef struct sbx_snapshot_node {
    int32_t node;               /* stable id inside this tree until advance  */
    int32_t parent;             /* row of the parent, -1 for the root        */
    int32_t visits;
    float mean;                 /* mean backed-up score                      */
    float prob;                 /* share of the parent's child visits        */
    int16_t depth;
    uint8_t move;               /* SBX_MOVE_NONE for the root and pass nodes */
    uint8_t flags;              /* SBX_NODE_* bits                           */
    int8_t agent;               /* whose move the node is; -1 for the root.
                                   Smitsimax: the tree's agent. SUCT: the
                                   agent of that row of the serialised tree.
                                   Joint: -1 (every agent moves, see joint) */
    uint8_t joint[SBX_MAX_AGENTS]; /* joint-action nodes: each agent's move
                                   (SBX_MOVE_NONE for an agent without one);
                                   all SBX_MOVE_NONE for other algorithms   */
    float prior;                /* with SBX_NODE_PRIOR: the prior the search
                                   gave this node's move when it expanded the
                                   parent (priors = heuristic or net). Rows of
                                   one agent's move (Smitsimax, SUCT): that
                                   agent's prior; joint-action rows (joint,
                                   MCGS, gtcfr): the joint action's, the
                                   product of the players' priors. 0 without */
} sbx_snapshot_node;

#define SBX_NODE_PASS 1         /* pass node of an eliminated agent          */
#define SBX_NODE_DIED 2         /* the agent died on this node's move        */
#define SBX_NODE_SURVIVED 4     /* the agent survived this node's move       */
#define SBX_NODE_DOOMED 8       /* certain death (all children fatal)        */
#define SBX_NODE_TRUNCATED 16   /* has children not in the snapshot          */
#define SBX_NODE_SHARED 32      /* MCGS: the node has more than one parent in
                                   the graph; it appears once, under the
                                   first parent met breadth-first            */
#define SBX_NODE_PRIOR 64       /* `prior` holds the search's prior        */

/* The top of agent's tree: the (at most) max_nodes most-visited nodes with
 * visits >= min_visits, which always form a connected tree under the root.
 * *n_out gets the rows written. SUCT, UCT: the one tree for any agent (rows
 * say whose move they are). Joint: the one tree, with move and mean taken from
 * the asking agent's side (its own move in the joint action, its own
 * score). Random and greedy: the root row alone. */
int sbx_search_snapshot(sbx_search *search, int agent, int max_nodes,
                        int min_visits, sbx_snapshot_node *out, int *n_out);

/* The top of the subtree under node `node` (a row's `node` id from a
 * snapshot or sbx_search_find_path, valid until the next advance), chosen as
 * sbx_search_snapshot chooses from the root: row 0 is that node (parent -1,
 * prob 1, move and joint SBX_MOVE_NONE, its depth below the root; MCGS: 0, a
 * graph node has no one depth), then its most-visited descendants (for MCGS,
 * reachable through visited edges). Node 0 is the root: the same rows as
 * sbx_search_snapshot. SBX_ERR_ARGUMENT (with a message) for an id that
 * names no node of agent's tree; random and greedy have the root alone. */
int sbx_search_snapshot_at(sbx_search *search, int agent, int node, int max_nodes,
                           int min_visits, sbx_snapshot_node *out, int *n_out);

/* The node reached from the root of agent's tree by a path of `steps` moves,
 * each `stride` bytes of `path`: Smitsimax and SUCT read one move per step
 * (the mover's; SBX_MOVE_NONE = a pass node), joint-action searches (joint,
 * mcgs) one move per agent (stride >= the number of agents; MCGS matches the
 * outcome whose representative move it is). *node_out gets its id (0 for an
 * empty path). SBX_ERR_ARGUMENT with a message naming the first step that
 * leads nowhere (no such child, or a child the search never created). */
int sbx_search_find_path(sbx_search *search, int agent, const uint8_t *path, int steps,
                         int stride, int32_t *node_out);

/* Extra parent links of a graph among snapshot rows: for each row r (in
 * `rows`, n_rows of them, as sbx_search_snapshot wrote them for this search
 * since its last advance), every visited edge from r's node to the node of
 * another row whose snapshot parent is not r, once per (r, child) pair, as
 * pairs_out[2i] = r, pairs_out[2i+1] = the child's row. A node reached from
 * two parents is one row under its first parent; these are the others.
 * joints_out (may be NULL; else 2 bytes a pair): each player's move on that
 * link, joints_out[2i + p] (the child row's `joint` is its first parent's
 * edge, not this one's; of several edges from r into the child, the most
 * visited). MCGS only; the tree searches have none (*n_out = 0). Rows
 * naming nodes the search no longer has are skipped; at most cap_pairs
 * pairs are written (the rest dropped, *n_out says how many were written). */
int sbx_search_snapshot_links(sbx_search *search, const sbx_snapshot_node *rows,
                              int n_rows, int32_t *pairs_out, uint8_t *joints_out,
                              int cap_pairs, int *n_out);

/* The root of a two-player search as an n1 x n2 matrix of joint actions:
 * MCGS (cells are outcome pairs, sbx.h's SBX_ALGO_MCGS) and joint-action
 * MCTS with two agents (cells are the two agents' legal moves), GT-CFR
 * (its root's joint actions). Values are absolute (the scale of root
 * stats' `mean`): a cell's value is the player's evaluation after that
 * joint action plus its value-to-go (MCGS), its mean backed-up score
 * (joint), or its zero-sum value from the last regret update (GT-CFR; a
 * cell's visits are its child node's, 0 for a terminal; marginal values
 * are each move's value against the other's current strategy). n = {0, 0}
 * before the first iteration. SBX_ERR_STATE for other algorithms or agent
 * counts. */
typedef struct sbx_root_matrix {
    int32_t n[2];               /* rows (player 0), columns (player 1)       */
    int32_t visits;             /* root visits: the sum of the cells         */
    uint8_t act[2][SBX_MAX_MOVES]; /* row/column -> the move it stands for
                                   (an MCGS outcome's representative)        */
    int32_t cell_visits[SBX_MAX_MOVES * SBX_MAX_MOVES]; /* row-major i*n2+j */
    float cell_value[2][SBX_MAX_MOVES * SBX_MAX_MOVES]; /* NaN: unvisited  */
    int32_t marginal_visits[2][SBX_MAX_MOVES];
    double marginal_value[2][SBX_MAX_MOVES]; /* MCGS: Option D's marginal
                                   value, FPU's where unvisited (what PUCT
                                   sees); joint: the marginal mean, NaN
                                   where unvisited                           */
    double prior[2][SBX_MAX_MOVES]; /* PUCT's priors (joint: uniform)        */
    double value[2];            /* the root's value per player               */
} sbx_root_matrix;

int sbx_search_root_matrix(sbx_search *search, sbx_root_matrix *out);

/* ============================================================ 7. Networks ==
 * Implemented in src/net/ (netfile.c: the file; forward.c: the pass).
 * A small value-and-policy network over a game's features (section 1):
 * optional convolutions over the board planes, dense layers, a value head
 * and a policy head. A loaded net is read-only: any number of threads may
 * evaluate one net at once.
 *
 * Input, per state (input_size floats): the game's features from some view,
 * then for a game with slots > 0 each player's range (slots floats each,
 * player 0's first, in the same view order; all zeros is "no range").
 * Outputs, per state:
 *   values[players][value_slots]: value_slots = max(1, slots). A player's
 *     expected value in the scale of the game's evaluation (for a private
 *     state: given that the player holds it, against the opponent's range;
 *     a counterfactual value is this times the opponent's reach).
 *   logits[players][moves]: the player's policy prior over move ids, before
 *     the softmax; a consumer takes the softmax over the moves legal in the
 *     state (or private state) it asks about. One head per player, shared by
 *     that player's private states.
 *
 * The pass: x = the input. With conv_layers > 0 the planes part of x
 * (planes*height*width floats) goes through conv_layers convolutions of
 * `channels` outputs, kernel x kernel, stride 1, zero padding (kernel-1)/2
 * (cross-correlation: out[c][y][x] = b[c] + sum over i, dy, dx of
 * w[c][i][dy][dx] * in[i][y+dy-(kernel-1)/2][x+dx-(kernel-1)/2]), each
 * followed by ReLU; its output (channel-major) replaces the planes in x.
 * Then dense_layers layers h = ReLU(h W + b) of `hidden` units each, then
 * values = h Wv + bv and logits = h Wp + bp (no activation).
 *
 * File format (little-endian; version SBX_NET_VERSION):
 *   8 bytes  magic "SBXNET01"
 *   16 int32 version, players (1..8), moves (1..16), slots (0..65536),
 *            features (1..2^20), planes, height, width (0 0 0, or each >= 1
 *            with planes*height*width <= features), conv_layers (0..8),
 *            kernel (odd, 1..9; 0 without convolutions), channels (1..256;
 *            0 without), dense_layers (0..8), hidden (1..4096; 0 without),
 *            meta_bytes (0..65536), two words 0
 *   32 bytes the game kind, NUL-padded ("goofspiel")
 *   meta_bytes bytes of UTF-8 text for people (what trained it); ignored
 *   float32 tensors, each row-major, in this order:
 *     per convolution: w[channels][in][kernel][kernel] (in: planes for the
 *       first, channels after), b[channels]
 *     per dense layer: W[in][hidden], b[hidden] (in: the width of x after
 *       the convolutions for the first, hidden after)
 *     value head: W[h][players*value_slots], b[players*value_slots]
 *     policy head: W[h][players*moves], b[players*moves] (h: hidden, or the
 *       width of x without dense layers)
 *   8 bytes  FNV-1a 64 of every byte before it (offset 0xcbf29ce484222325,
 *            prime 0x100000001b3)
 * A file that is short, long, damaged or out of these ranges, or holds a
 * weight that is not finite, is refused with a message; nothing crashes. */
#define SBX_NET_VERSION 1
#define SBX_NET_MAX_BATCH 65536

typedef struct sbx_net sbx_net;

typedef struct sbx_net_info {
    int32_t version, players, moves, slots, value_slots;
    int32_t features, planes, height, width;
    int32_t conv_layers, kernel, channels, dense_layers, hidden;
    int32_t input_size;         /* features + players * slots                */
    int64_t parameters;         /* weights and biases                        */
    char kind[32];
} sbx_net_info;

/* Load a network file; *out is NULL on failure. */
int sbx_net_load(const char *path, sbx_net **out);
/* The same from bytes in memory (a copy is taken). */
int sbx_net_from_bytes(const uint8_t *data, size_t len, sbx_net **out);
void sbx_net_free(sbx_net *net);                  /* NULL is fine */
int sbx_net_get_info(const sbx_net *net, sbx_net_info *out);
/* The file's meta text ("" if none); valid while the net lives. */
const char *sbx_net_meta(const sbx_net *net);
/* SBX_OK if the net takes this game's features (kind and layout agree),
 * else SBX_ERR_ARGUMENT naming the first difference. */
int sbx_net_check_game(const sbx_net *net, const sbx_game *game);
/* n states (1..SBX_NET_MAX_BATCH): inputs[n][input_size] in,
 * values[n][players][value_slots] and logits[n][players][moves] out (either
 * may be NULL). Thread-safe on one net. */
int sbx_net_forward(const sbx_net *net, const float *inputs, int n, float *values,
                    float *logits);
/* n games' current states (each must pass sbx_net_check_game) from view
 * (SBX_VIEW_CANONICAL or an agent, the same for all), with ranges[n][players *
 * slots] (NULL: zeros) after the features; outputs as sbx_net_forward. */
int sbx_net_evaluate(const sbx_net *net, sbx_game *const *games, int n, int view,
                     const float *ranges, float *values, float *logits);
/* A search's value net (the `value_net` setting of the Python layer): the
 * net that values its frontier or leaves (gtcfr, pubcfr: frontier values;
 * mcgs: leaf values; smitsimax, suct, joint: the value at the end of each
 * descent) and gives its PUCT priors (priors = SBX_PRIORS_NET; uniform while
 * no net is attached), from the next iteration, as set_params does; any
 * thread. NULL detaches it (the searches go back to the game's evaluation
 * and rollouts). Refused (SBX_ERR_ARGUMENT) unless sbx_net_check_game
 * accepts the search's game. The caller keeps the net alive while the
 * search may use it: until the search is freed, or until another net (or
 * NULL) has been set and applied (by the next run, step or get_params on
 * the driving thread). */
int sbx_search_set_net(sbx_search *search, const sbx_net *net);
/* The net in force (a pending one applied first); NULL: none. Driving
 * thread. */
int sbx_search_get_net(sbx_search *search, const sbx_net **out);

/* The benchmark (python -m sandbox bench --net): passes over inputs[n] in
 * calls of `batch` states (the last may be shorter), `repeats` times, one
 * scratch for all, as a search would call it; *ms_out gets the time taken. */
int sbx_net_time(const sbx_net *net, const float *inputs, int n, int batch, int repeats,
                 double *ms_out);
/* The vector path of the net's dense layers in this process, decided once
 * when first needed: "dense: avx2" (or "scalar (no AVX2)", "scalar
 * (SBX_NO_AVX2)", "scalar (not an x86-64 build)"); either gives the same
 * bits. Any thread. */
const char *sbx_net_simd_path(void);

/* ================================================== 6. Test-only entries
 * NOT for applications: introspection of MCGS's graph for the tests
 * (tests/native/test_mcgs.py). SBX_ERR_STATE if the search is not running
 * mcgs. Node ids are those of snapshot rows and trace paths. */
typedef struct sbx_mcgs_debug_node {
    int32_t n1, n2;             /* outcomes per player                       */
    int32_t visits;             /* sum of the edge visits                    */
    int32_t flags;              /* 1 evaluated, 2 terminal                   */
    uint64_t hash;
    int64_t hits;               /* graph-wide: transposition hits            */
    double q[2], u[2], base[2]; /* Q, leaf value U, evaluate() of the state  */
    uint8_t act[2][SBX_MAX_MOVES]; /* outcome -> move                         */
    int32_t edge_visits[SBX_MAX_MOVES * SBX_MAX_MOVES]; /* row-major i*n2+j */
    int32_t edge_child[SBX_MAX_MOVES * SBX_MAX_MOVES];  /* 0: none          */
    float edge_r[SBX_MAX_MOVES * SBX_MAX_MOVES][2];
    double prior[2][SBX_MAX_MOVES]; /* PUCT's prior per outcome (0 for a
                                   terminal or unevaluated node)             */
} sbx_mcgs_debug_node;

int sbx_search_debug_mcgs_node(sbx_search *search, int node,
                               sbx_mcgs_debug_node *out);
/* Runs the backup's Q recomputation on one node. */
int sbx_search_debug_mcgs_recompute(sbx_search *search, int node);
/* The children of edge `edge` (row-major i*n2+j) of `node`: one per
 * successor state the edge met (more than one only in games with chance),
 * the edge's own child first (edge_child / edge_r above, with the edge's
 * visits minus the others'), then the later ones, most recent first. Writes
 * up to `cap` (child, visits, reward pair) entries; *n_out = how many there
 * are (0: the edge is not linked). */
int sbx_search_debug_mcgs_children(sbx_search *search, int node, int edge,
                                   int32_t *child, int32_t *visits, float *r,
                                   int cap, int *n_out);

/* GT-CFR's node (tests/native/test_gtcfr.py). SBX_ERR_STATE if the search
 * is not running gtcfr. kind 0 frontier, 1 interior, 2 terminal; per
 * interior node and player its moves and their statistics; child[a*k1+b]
 * the joint action's node id, -1 a terminal, -2 a state left out of the
 * tree (expand_children=one), slot_value its value (player 0's: the
 * draw-weighted average over its chance outcomes). */
typedef struct sbx_gtcfr_debug_node {
    int32_t kind, parent, visits, depth;
    int64_t updates;            /* regret updates run on this tree           */
    double value;               /* player 0's                                */
    int32_t k[2];
    uint8_t moves[2][SBX_MAX_MOVES];
    double regret[2][SBX_MAX_MOVES];
    double avg_sum[2][SBX_MAX_MOVES];
    double current[2][SBX_MAX_MOVES];
    double q[2][SBX_MAX_MOVES];
    double prior[2][SBX_MAX_MOVES];
    double move_visits[2][SBX_MAX_MOVES];
    double virtual_loss[2][SBX_MAX_MOVES]; /* this batch's, until the update */
    int32_t child[SBX_MAX_MOVES * SBX_MAX_MOVES];
    double slot_value[SBX_MAX_MOVES * SBX_MAX_MOVES];
    /* chance: a joint action's outcomes are a chain from child[i] */
    int32_t next;               /* the next outcome of this node's joint
                                   action, -1 none                           */
    int32_t met;                /* simulations that drew this outcome        */
    uint64_t hash;              /* the node's state hash                     */
} sbx_gtcfr_debug_node;

int sbx_search_debug_gtcfr_node(sbx_search *search, int node,
                                sbx_gtcfr_debug_node *out);

/* pubcfr's root range of a seat (tests/native/test_pubcfr.py): the game's
 * private state ids (goofspiel: hand masks, bit c-1 for card c) and their
 * probabilities, at most cap of them; *n_out = how many there are.
 * SBX_ERR_STATE if the search is not running pubcfr. */
int sbx_search_debug_pubcfr_range(sbx_search *search, int seat, uint32_t *ids,
                                  double *probs, int cap, int *n_out);

/* pubcfr's public belief states (the app's range view; Search.public_nodes,
 * Search.node_ranges). Its public nodes, in the order they were made (0:
 * the root): each one's parent (-1 for the root), depth in rounds below the
 * root, histories, 1 if they have their children (interior) else 0, and
 * its probability under both seats' root ranges and average strategies
 * (the sum over its histories of the two information states' reaches,
 * divided by the root's; 0 everywhere if the root's is 0); at most cap of
 * them, *n_out = how many there are. SBX_ERR_STATE if the search is not
 * running pubcfr or has no tree. */
int sbx_search_pubcfr_nodes(sbx_search *search, int32_t *parent, int32_t *depth,
                            int32_t *hists, int32_t *expanded, double *reach, int cap,
                            int *n_out);

/* A seat's range at a public node: each private state id it may hold there
 * (goofspiel: hand masks) with its probability, ids ascending; at most cap
 * of them, *n_out = how many there are. belief 0: the range CFR carries,
 * the seat's own reach of each of its information states there (its root
 * range times its own average probabilities of the moves on the way),
 * summed per id and normalised. belief 1: the posterior given the public
 * state, each information state weighted by the sum over its histories
 * there of both seats' reaches (the opponent's reach counts: in goofspiel
 * with hidden bids "seat 0 won" says its bid was the higher), normalised. */
int sbx_search_pubcfr_node_range(sbx_search *search, int node, int seat, int belief,
                                 uint32_t *ids, double *probs, int cap, int *n_out);

/* Copy a public node's state into game (same kind and parameters): its
 * public part is the node's; its private part (goofspiel: the hands) is one
 * history's there, whichever, so read only the public part. */
int sbx_search_pubcfr_node_state(const sbx_search *search, int node, sbx_game *game);

/* pubcfr's histories (tests/native/test_pubcfr_grow.py), in the order they
 * were made: each one's public node, 1 if it has children (interior) else
 * 0, its depth in rounds below the root, its parent history (-1: a root
 * history) and the growing tree's simulations that passed through it; at
 * most cap of them, *n_out = how many there are. Root histories come first;
 * on a fresh root every pair, seat 0's information states outer and seat
 * 1's inner, each in the order of sbx_search_debug_pubcfr_range.
 * SBX_ERR_STATE if the search is not running pubcfr. */
int sbx_search_debug_pubcfr_hists(sbx_search *search, int32_t *node, int32_t *interior,
                                  int32_t *depth, int32_t *parent, int32_t *sims, int cap,
                                  int *n_out);

/* Query solving over public belief states (sandbox/learn/solve.py; Student
 * of Games' per-private-state targets). A public node's belief state under
 * both seats' average strategies (current 0) or under the strategies the
 * next iteration plays (current 1: regret matching of the regrets so far,
 * the ranges a value net is asked with at that iteration): each seat's
 * information states there (seat 0's first, then seat 1's: n_out[0] and
 * n_out[1] of them; ids the game's private states, weights each one's own
 * reach -- its root range times its own probabilities on the way --
 * normalised per seat)
 * and its histories as pairs of indices into the two lists (pairs[2h] into
 * seat 0's, pairs[2h + 1] into seat 1's; *nh_out of them). At most cap
 * entries and pair_cap pairs are written; the counts are always the whole.
 * SBX_ERR_STATE if the search is not running pubcfr or has no tree. */
int sbx_search_pubcfr_node_pbs(sbx_search *search, int node, int current, uint32_t *ids,
                               double *weights, int cap, uint32_t *pairs, int pair_cap,
                               int *n_out, int *nh_out);

/* Start the search afresh on a given public belief state at its root:
 * n[0] information states of seat 0 then n[1] of seat 1 (ids, weights:
 * each seat's range, normalised here; negative or non-finite weights, or a
 * seat whose weights sum to 0, are refused), and nh histories as pairs of
 * indices (as sbx_search_pubcfr_node_pbs writes them; each pair once). The
 * root state's public part is the search's root (set it first: reset);
 * the ids must be private states the game can compose there. Fresh
 * statistics and no re-solving gadget: both ranges are held fixed, as a
 * query is solved. Settings queued by sbx_search_set_params are applied
 * first. It holds until the next advance, reset or change of a setting
 * that rebuilds the tree (node_cap, max_depth, grow_tree, info_seat). A
 * belief refused by the checks changes nothing; one the game cannot
 * compose leaves the search on its usual root. */
int sbx_search_pubcfr_set_beliefs(sbx_search *search, const uint32_t *ids,
                                  const double *weights, const int *n, const uint32_t *pairs,
                                  int nh);

/* After a run: each root information state of `seat` (in the order they
 * were given), its private state id, range weight, the opponent's range
 * mass over its histories (oreach), its value -- the seat's expected value
 * holding it under both seats' average strategies, its counterfactual
 * value over oreach (0 where oreach is 0), on player 0's zero-sum scale
 * turned to the seat's side, frontier values from the game's evaluation or
 * the value net -- its average strategy over move ids (SBX_MAX_MOVES per
 * row, 0 off its legal moves) and its legal moves (bit m for move id m).
 * At most cap rows; *n_out how many
 * there are. SBX_ERR_STATE if the search is not running pubcfr or has no
 * tree. */
int sbx_search_pubcfr_root_values(sbx_search *search, int seat, uint32_t *ids,
                                  double *weight, double *oreach, double *value,
                                  double *policy, uint32_t *legal, int cap, int *n_out);

/* SBX_CDEF_END */

#ifdef __cplusplus
}
#endif

#endif /* SBX_H */
