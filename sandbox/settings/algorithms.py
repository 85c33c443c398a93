"""What each search algorithm and selection policy is, for the views that
offer them (the arena's pickers, the tree panels, the root bars).

The names are SearchParams' (the C table's); this module adds the labels,
the one-line explanations and the facts a view needs to draw a search:
how many trees it keeps and whether its root policy is an average strategy.
Whether an algorithm is built into the C core is asked of the core itself
(`algorithm_built`): a new baseline shows up without a change here.
"""
from __future__ import annotations

from typing import get_args

from pydantic import ValidationError

from ..native import Game, InvalidArgument, Search, SearchParams

ALGORITHMS: tuple[str, ...] = get_args(SearchParams.model_fields["algorithm"].annotation)
POLICIES: tuple[str, ...] = get_args(SearchParams.model_fields["policy"].annotation)

ALGORITHM_LABELS = {"smitsimax": "Smitsimax", "suct": "Sequential UCT", "joint": "joint-action",
                    "random": "random", "greedy": "greedy 1-ply",
                    "mcgs": "MCGS (graph)", "uct": "UCT (yardstick)", "gtcfr": "GT-CFR",
                    "pubcfr": "public-state CFR"}
ALGORITHM_TIPS = {
    "smitsimax": "decoupled trees, one per agent: no tree sees another's selection; on a "
                 "hidden-information game it runs determinized (one sampled state per "
                 "iteration)",
    "suct": "sequential UCT: the agents take turns in ONE tree, so a later mover sees the "
            "earlier movers' choices (the information leak of tutorial §4)",
    "joint": "joint-action MCTS: one tree, one child per joint action of all agents",
    "random": "a uniformly random legal move; no search, no tree (it reads only the seat's "
              "own moves, so it also runs on hidden-information games)",
    "greedy": "the best one-ply evaluation against random opponents; no tree",
    "mcgs": "Monte-Carlo graph search (two players): one graph of states, transpositions "
            "shared, decoupled PUCT over each player's marginal",
    "uct": "textbook sequential UCT, untuned (the outside yardstick): this seat moves first "
           "in one tree, UCB1 (C 2 unless set), win/loss rollouts to the end of the game, "
           "a fresh tree each turn; reads only C",
    "gtcfr": "growing-tree CFR (Student of Games' search, no network; two players): CFR+ "
             "over a tree of joint actions grown by 1/2 PUCT + 1/2 average-policy "
             "simulations; plays a draw from its average strategy",
    "pubcfr": "CFR+ over public states (two players, hidden information): the seat's own "
              "hand against the opponent's range of hands, a public tree to max_depth rounds "
              "re-solved each turn; plays a draw from its average strategy",
}
POLICY_LABELS = {"ucb1": "UCB1", "ucb1_tuned": "UCB1-Tuned", "exp3": "Exp3", "rm": "RM",
                 "rm_plus": "RM+"}
POLICY_TIPS = {
    "ucb1": "UCB1 on normalised scores; plays the most visited move",
    "ucb1_tuned": "UCB1-Tuned: exploration scaled by each move's variance; most visited move",
    "exp3": "Exp3: moves sampled from reward estimates; plays from the average strategy",
    "rm": "regret matching: moves sampled by positive regret; plays from the average strategy",
    "rm_plus": "regret matching+: regrets floored at 0; plays from the average strategy",
}
# RM / RM+'s `counterfactual`: where regrets use every move's exact return
CF_LABELS = {"terminal": "at end", "last_step": "at leaf", "off": "never"}
CF_POLICIES = ("rm", "rm_plus")

PARALLEL_LABELS = {"serial": "serial", "wu_uct": "WU-UCT", "tree": "tree + VL", "root": "root",
                   "leaf": "leaf"}


def parallel_modes(settings: SearchParams) -> tuple[str, ...]:
    """The parallel modes these settings can run: the ones SearchParams
    (C's check_parallel and mcgs_check, mirrored and tested against C)
    accepts with everything else unchanged. Leaf is judged with rollouts on:
    its need for them is left to its refusal, which names the fix. MCGS has
    one shared graph (serial, wu_uct, tree; `policy` is not its own);
    Smitsimax's shared trees keep UCB1's mean and counts with atomics, so
    UCB1-Tuned and the power mean get root parallelism only, and the
    sampling policies run serially."""
    modes = []
    for mode in PARALLEL_LABELS:
        try:
            settings.replace(parallel=mode, rollout=settings.rollout or mode == "leaf")
        except (ValidationError, InvalidArgument):
            continue
        modes.append(mode)
    return tuple(modes)


# Policies whose root probabilities are an average strategy, not visit shares
# (their final move comes from it: `final_move`, and `exploration` mixes in).
AVERAGE_STRATEGY = frozenset({"exp3", "rm", "rm_plus"})
TREE_ALGORITHMS = frozenset({"smitsimax", "suct", "joint", "mcgs", "uct", "gtcfr"})
# Tree searches that read none of the project's knobs but C (and the seat's
# lead): the textbook yardstick, whose panel offers only what it reads.
PLAIN_ALGORITHMS = frozenset({"uct"})
# Algorithms with a selection `policy` of their own (sbx.h: Smitsimax's).
POLICY_ALGORITHMS = frozenset({"smitsimax"})

_REFUSED: dict[tuple[str, str, str], str | None] = {}


def trees_kept(algorithm: str, num_agents: int) -> int:
    """As SearchStats.trees: one per agent, one shared, or none."""
    if algorithm == "smitsimax":
        return num_agents
    return 1 if algorithm in TREE_ALGORITHMS else 0


def has_root_matrix(algorithm: str, num_agents: int) -> bool:
    """Whether Search.root_matrix answers for this search (sbx.h: MCGS's
    outcome pairs, joint-action MCTS's children with two agents, GT-CFR's
    joint actions)."""
    return num_agents == 2 and algorithm in ("mcgs", "joint", "gtcfr")


def uses_average_strategy(algorithm: str, policy: str) -> bool:
    return algorithm in POLICY_ALGORITHMS and policy in AVERAGE_STRATEGY


def algorithm_refusal(game: Game, algorithm: str) -> str | None:
    """None if the C core runs `algorithm` on this game, else its one-line
    reason (e.g. joint-action MCTS refuses 8 snakes: 4^8 joint actions).
    Asked once per game kind, parameters and name, with a small search."""
    if algorithm not in ALGORITHMS:
        raise InvalidArgument(f"algorithm: {algorithm!r} is not one of {', '.join(ALGORITHMS)}")
    key = (game.kind, game.params, algorithm)
    if key not in _REFUSED:
        try:
            with Search(game, SearchParams(algorithm=algorithm, max_depth=1, node_cap=1 << 16)):
                _REFUSED[key] = None
        except InvalidArgument as exc:
            _REFUSED[key] = str(exc)
    return _REFUSED[key]


# What a tree panel says for a search that keeps no tree.
NO_TREE_NOTES = {
    "random": "no search tree: a uniformly random legal move each turn",
    "greedy": "no search tree; μ = a move's mean one-ply value vs random opponents",
}
