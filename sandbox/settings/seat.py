"""A player's settings as its search receives them.

A scenario's player (or an agent file, a served agent, a replayed player)
says which search settings and evaluation weights it plays with; a search
needs them in C's terms: the seat filled in where a setting says "the seat
this search plays for" (-1), and the game parameters with the player's own
weights on top, in a game of its own that holds the real state. Everything
that starts a search from a player's settings (the live controller, the
replay's re-search and its what-ifs, a served Battlesnake agent) goes
through here, so all of them build the same search from the same settings.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from pydantic import ValidationError

from ..games import plugin
from ..native import Game, InvalidArgument, SearchParams
from ..native.errors import field_name, one_line


def params_for_seat(params: SearchParams, agents: Sequence[int],
                    hidden: bool = False) -> SearchParams:
    """What C gets from a player's settings: SUCT's (and UCT's) lead -1
    means the seat this search plays for (its first agent), so the seat
    moves first and cannot peek at the others' moves (suct.c: the
    information leak; uct.c: the textbook's own player first). info_seat
    -1 likewise on a hidden-information game (`hidden`): a determinized
    search samples what that seat cannot see."""
    if params.lead == -1 and params.algorithm in ("suct", "uct"):
        params = params.replace(lead=agents[0])
    if hidden and params.info_seat == -1:
        params = params.replace(info_seat=agents[0])
    return params


def weights_problem(kind: str, base: Mapping[str, Any], weights: Mapping[str, Any],
                    where: str = "weights") -> str:
    """Why `weights` cannot go on a game of `kind` with parameters `base`, in
    one line naming `where`.NAME ("" if they can): a name that is no weight
    of the game, a value out of its range."""
    p = plugin(kind)
    names = p.weight_names(base)
    bad = [k for k in weights if k not in names]
    if bad:
        return (f"{where}.{field_name(bad[0])}: not an evaluation weight of {kind} (its "
                f"weights: {', '.join(names) or 'none'})")
    try:
        p.Params.model_validate({**dict(base), **dict(weights)})
    except ValidationError as exc:
        return one_line(exc, prefix=f"{where}.")
    return ""


def weighted_params(kind: str, base: Mapping[str, Any], weights: Mapping[str, float]) -> str:
    """The C parameter string of `base` game parameters with `weights` on
    top (InvalidArgument: weights_problem)."""
    why = weights_problem(kind, base, weights)
    if why:
        raise InvalidArgument(why)
    return plugin(kind).Params.model_validate({**dict(base), **dict(weights)}).c_params()


def weight_value(kind: str, base: Mapping[str, Any], name: str) -> float:
    """The weight `name` as a game of `kind` with parameters `base` uses it
    when a player sets none of its own."""
    return plugin(kind).weight_value(base, name)


def player_game(kind: str, params: str, state: Sequence[int]) -> Game:
    """A game with a player's own parameters (the scenario's with its
    evaluation weights) holding the world's state: what a search with its
    own weights roots on. Seed 0: its random stream is not the world's, and
    a replay's re-search builds the same one."""
    g = Game(kind, params, seed=0)
    try:
        g.import_state(state)
    except BaseException:
        g.close()
        raise
    return g
