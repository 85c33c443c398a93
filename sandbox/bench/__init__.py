"""`python -m sandbox bench`: the project's own speed and memory figures.

Everything is measured as a ratio or rate inside one run on this machine. The
games come from the registry: each plugin lists its BenchCase(s)
(sandbox/games/<name>/__init__.py). One case is the primary one (the default
scenario's game: 4 snakes, 11x11, Smitsimax at depth 10); its figures are the
top-level keys, as they always were:

  engine_steps_per_s         random-move turns of the C engine (C loop)
  smitsimax_turns_per_s      simulated turns per second, one thread, over a
                             short match (the search re-roots every turn)
  smitsimax_iterations_per_s iterations per second in the same run
  python_reference_*         the same search in pure Python (the plugin's
                             reference twin); python_reference_ratio is the
                             reference's time over C's time for the SAME
                             workload (same seed, turns and iterations; the
                             iterations, simulated turns and nodes created
                             are checked equal on both sides)
  search_share_of_engine     smitsimax simulated turns/s / engine steps/s of
                             this run: the share of the engine's raw speed
                             the search keeps (the median of three engine-
                             then-match pairs' own ratios; the engine and
                             match figures are that pair's)
  bytes_per_node             sizeof(tree node); rss_bytes_per_node measures it
  snapshot_4000_ms           C cost of a 4,000-node tree snapshot
  signature                  nodes created by a fixed-seed, fixed-iteration run:
                             changes exactly when the search's behaviour does

"policies" -> name (ucb1, ucb1_tuned, exp3, rm, rm_plus, ucb1_power: UCB1
with backup=power) -> kind (every registered game's first bench case, the
primary one for the default game, with only the policy changed): iterations/s and simulated turns/s of the
first half of the same short match, and bytes_per_node (per policy: 32 for the UCB family,
48 for Exp3 / RM / RM+, whose two double sums sit beside the node).

Every other game's case reports under "games" -> kind (a game's further
case under "kind:label", e.g. "snakes:snakebyte 2v2"): its engine steps/s,
the same short match, and the iterations/s of a fresh search from the start
position at each of its first-move budgets. `--game NAME` runs one game.

"mcgs" (for the first case that declares MCGS settings, BenchCase.mcgs: the
medium maze, maze_seed 1, with the maze_medium_duel scenario's settings,
depth 20, c_puct 1): Monte-Carlo graph search, one thread, fresh searches
from the start position of a fixed number of playouts (100,000; --quick
20,000), seed 1:
  playouts_per_s         uniform priors / heuristic priors (median of 3 runs),
                         with each one's mean playout depth and node count
  nodes                  nodes allocated by those playouts with the
                         transposition table and without it (a tree), and
                         the saving in % (nodes_per_100k: scaled to 100,000)
  bytes_per_node         from the arenas' real use (C's stats): node struct +
                         edge arrays in use + stored priors, over the nodes;
                         the transposition table apart (table_bytes_per_node)
Each game's figures also give its engine speed in agent-turns/s (engine
steps/s x agents: the pods race's pod-turns/s, held against the case's
agent_turns_target), and, for a case that names a bundled scenario, that
scenario's search settings over a short self-play match (iterations/s,
simulated agent-turns/s) and the iterations a fresh search makes in the
scenario's turn budget ("scenario").

"process_agent" (every run without --game): the time a turn of a process
player (docs/bots.md) takes on top of its bot's own thinking, over 1,000
turns (--quick 300) of an instant-reply bot moving the default scenario's
agents (sandbox/bots/bench.py): p50 and p95 in ms, target p95 <= 1 ms.

With --tournament it also measures tournament games/s through the Executor
runner: 1 and 2 local worker processes and a 2-worker Dask LocalCluster
(sandbox/tournament/benchcase.py; targets 1.8x and 1.6x of one worker).

With --recording it also plays the default scenario at 50 ms per player per
turn with and without a replay recorder (sandbox.replay.overhead) and reports
the recorder's share of the turn time (target <= 5%).
"""
