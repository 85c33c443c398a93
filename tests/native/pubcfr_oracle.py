"""The exact judge of a public-state CFR search on hidden-bid goofspiel,
shared by the pubcfr tests: imperfect.py's information-state tree and best
response (their own code, independent of pubcfr.c), and exploit_imp.py's
collection of the search's strategy at every information state."""
from __future__ import annotations

from sandbox.analysis.exploit_imp import continual, info_strategies
from sandbox.analysis.imperfect import build_info_tree, evaluate_strategy
from sandbox.games import plugin
from sandbox.native import Game, SearchParams

P = plugin("goofspiel")


def imp_game(n: int, extra: str = "") -> Game:
    """Hidden-bid goofspiel with n cards (descending prizes)."""
    return Game("goofspiel", f"num_cards={n} imp_info=1 {extra}".strip(), seed=1)


def exact_nashconv(n: int, params: SearchParams, iterations: int) -> float:
    """NashConv of the strategy the search plays at every information state
    of goofspiel-n: a fresh search at each (tree_reuse off: re-solving from
    the uniform-play range), or along each seat's history (on: continual
    re-solving with the gadget), `iterations` a search, seed 1."""
    tree = build_info_tree(imp_game(n), P.info_key)
    assert continual(params) == params.tree_reuse
    _, policy, _ = info_strategies(tree, params, iterations, seed=1)
    return evaluate_strategy(tree, lambda s, k: policy[s][k]).nashconv
