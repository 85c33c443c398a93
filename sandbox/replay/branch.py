"""Branch a match: play on from a recorded turn.

branch_point(replay, K) says how to start a new live match from the state at
the start of turn K: the scenario the replay recorded, each search player with
the settings in force when its turn-K search began (the header's, with every
change recorded before turn K and those turn K's search began with applied),
each player's budget likewise, the match seed, and the state itself (rebuilt
from the replay and hash-checked). The new match's header records where it
branched from (file, turn, state hash) and that state as its initial_state;
`replay verify` rebuilds it from there, not from the scenario's first state.

The new match's searches start from fresh trees with their seeds from the
match seed: the continuation is a new match, not the recorded one (whose
searches' generators had advanced by every iteration before K).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import Budget, Scenario, scenario_from_dict
from ..native import Game, SandboxError, SearchParams
from ..sim.match import StartState
from .errors import ReplayError
from .format import hash_hex
from .reader import Replay

BUDGET_KEYS = {"budget_ms": "ms", "budget_iterations": "iterations"}


@dataclass(frozen=True)
class BranchPoint:
    scenario: Scenario                 # each search player with its settings at turn K
    seed: int                          # the recorded match seed (the world is rebuilt from it)
    player_budgets: dict[int, Budget]  # per player, as in force at turn K
    start: StartState                  # the state at the start of turn K, and its origin
    turn: int
    max_turns: int

    name_hint: str                     # what its replay file is named after:
                                       # "<source scenario>-branch-t<K>"
    notes: tuple[str, ...] = ()        # what the continuation cannot take from the
                                       # recording (see unrecorded_note)


def in_force(replay: Replay, player: int, turn: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(search settings, budget) of `player` when its turn-`turn` search
    began: the header's, then every change recorded in earlier turns, then
    the search changes turn `turn` recorded at iteration 0 (made before its
    search). A change recorded later in turn `turn` landed during or after
    that search, and a budget set during it is used from the next turn, so
    neither is in force at its start."""
    ph = next(p for p in replay.header.players if p.player == player)
    search = dict(ph.search) if ph.search is not None else None
    budget = dict(ph.budget)
    for t in replay.turns:
        if t.turn > turn:
            break
        pt = next((p for p in t.players if p.player == player), None)
        if pt is None:
            continue
        for ch in pt.changes:
            for k, (_, new) in ch.changes.items():
                if search is not None and k in SearchParams.model_fields:
                    if t.turn < turn or ch.iteration == 0:
                        search[k] = new
                elif k in BUDGET_KEYS and t.turn < turn:
                    # a budget set during turn K is used from K + 1's thinking
                    # (Match.set_player_budget), whatever iteration it notes
                    budget[BUDGET_KEYS[k]] = new
    return search or {}, budget


def weights_in_force(replay: Replay, player: int, turn: int) -> dict[str, float]:
    """`player`'s own evaluation weights when turn `turn` began: the
    scenario's (players.N.weights), then every weights.NAME change recorded
    before `turn` (a change recorded during a turn applies from the next)."""
    players = replay.header.scenario.get("players") or []
    row = players[player] if 0 <= player < len(players) else None
    out = dict((row.get("weights") if isinstance(row, dict) else None) or {})
    for t in replay.turns:
        if t.turn >= turn:
            break
        for pt in t.players:
            if pt.player == player:
                for ch in pt.changes:
                    out.update({k[len("weights."):]: n for k, (_, n) in ch.changes.items()
                                if k.startswith("weights.")})
    return out


def unrecorded_settings(search: dict[str, Any] | None) -> list[str]:
    """The search settings a header's player does not name: settings added
    to the core after the match was recorded. A re-run takes today's
    defaults for them, which may not be how the match was searched (a
    `counterfactual` default for an RM player recorded before it existed)."""
    if search is None:
        return []
    return [k for k in SearchParams.model_fields if k not in search]


def unrecorded_note(player: int, search: dict[str, Any] | None) -> str | None:
    """One line naming them with the defaults they get, or None."""
    missing = unrecorded_settings(search)
    if not missing:
        return None
    d = SearchParams()
    return (f"player {player}'s recording predates {', '.join(missing)}: "
            f"{'it runs' if len(missing) == 1 else 'they run'} at today's default "
            f"({', '.join(f'{k}={getattr(d, k)}' for k in missing)}); --set the values it "
            f"was played with to re-run it as it was")


def branch_point(replay: Replay, turn: int) -> BranchPoint:
    """How to play on from the start of `turn` (ReplayError: a turn that
    cannot be rebuilt, a recording this build cannot start from)."""
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise ReplayError(f"--branch-at: expected a turn number (got {turn!r})")
    h = replay.header
    if not replay.start_turn <= turn <= replay.end_turn:
        raise ReplayError(f"--branch-at {turn}: turns {replay.start_turn}..{replay.end_turn} "
                          f"can be played on from")
    data = dict(h.scenario)
    players = [dict(p) for p in data.get("players", [])]
    budgets: dict[int, Budget] = {}
    notes = tuple(n for n in (unrecorded_note(ph.player, ph.search) for ph in h.players) if n)
    for ph in h.players:
        if not 0 <= ph.player < len(players):
            raise ReplayError(f"{replay.path}: the header's player {ph.player} is not in its "
                              f"scenario")
        search, budget = in_force(replay, ph.player, turn)
        if ph.search is not None:
            players[ph.player]["search"] = search
            players[ph.player]["weights"] = weights_in_force(replay, ph.player, turn) or None
        try:
            budgets[ph.player] = Budget(**budget)
        except (TypeError, ValueError) as exc:
            raise ReplayError(f"{replay.path}: player {ph.player}'s recorded budget does not "
                              f"load: {str(exc).splitlines()[0]}") from None
    data["players"] = players
    data["max_turns"] = h.max_turns        # the recorded match's limit (a --turns override too)
    physics = data.get("physics", "csb")
    if physics != "csb" and physics not in _worlds(h.game):
        # states recorded from outside (a served Battlesnake game): no world
        # of ours made them, so the continuation is played by the C model
        data["physics"] = "csb"
        notes += (f"the recorded states came from outside ({physics}); the continuation is "
                  "played by our own rules",)
    try:
        scenario = scenario_from_dict(data, source=f"{replay.path.name}'s scenario")
        with Game(scenario.game, scenario.game_param_string(), seed=h.seed) as g:
            params = g.params          # the effective string, as the header has it
    except SandboxError as exc:
        raise ReplayError(f"{replay.path}: cannot play on from this match: {exc}") from None
    if params != h.game_params:
        raise ReplayError(f"{replay.path}: this build makes other game parameters of the "
                          f"recorded scenario ({params!r}, recorded {h.game_params!r})")
    game = replay.state_at(turn)
    with game:
        words = tuple(int(w) for w in game.export())
        got = hash_hex(game.state_hash())
        over = game.is_terminal
    if over or 0 < scenario.max_turns <= turn:
        why = "the game is over" if over else f"the scenario stops at turn {scenario.max_turns}"
        raise ReplayError(f"turn {turn}: {why} there; nothing to play on")
    origin = {"file": str(replay.path), "turn": turn, "hash": got}
    return BranchPoint(scenario=scenario, seed=h.seed, player_budgets=budgets,
                       start=StartState(words, origin), turn=turn, max_turns=h.max_turns,
                       name_hint=f"{h.scenario_source or scenario.name}-branch-t{turn}",
                       notes=notes)


def _worlds(kind: str) -> tuple[str, ...]:
    from ..games import plugin
    try:
        return tuple(plugin(kind).worlds)
    except SandboxError:
        return ()


__all__ = ["BranchPoint", "branch_point", "in_force", "unrecorded_note", "unrecorded_settings",
           "weights_in_force"]
