"""Immutable records of what happened in a match, turn by turn."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..native import FreeMove, MoveStat, TreeSnapshot
from .controller import SettingsChange

# Who chose a played move: the player's search, its random draw, a person's
# key, or (a person's agent left unsteered) what the game does by default.
# bot: the game's own (C); external: a program outside (a Battlesnake server);
# process: a program of the user's over a pipe (docs/bots.md), its failed turns "default"
CHOOSERS = ("search", "random", "person", "default", "bot", "external", "process")


@dataclass(frozen=True)
class PlayerTurn:
    player: int
    controller: str
    moves: dict[int, "int | FreeMove | None"]  # agent -> move (a FreeMove: a free move,
                                              # where the game takes them)
    iterations: int
    sim_turns: int
    search_ms: float
    wall_ms: float
    stop_reason: str
    root_stats: dict[int, tuple[MoveStat, ...]]  # own agents' root children
    tree_nodes: dict[int, int]
    changes: tuple[SettingsChange, ...]
    # own agents' top-of-tree when the thinking ended (Match(record_trees=N) only)
    trees: Mapping[int, TreeSnapshot] = field(default_factory=dict)
    # own agents: who chose the move actually played (CHOOSERS); `moves` is
    # what this player's controller decided, which a person may have overridden
    chosen_by: Mapping[int, str] = field(default_factory=dict)
    # a player whose moves come from outside (sandbox.bots.external.BotTurnInfo):
    # its answer's latency, its failures, its debug object, its forfeits
    bot: Any = None


@dataclass(frozen=True)
class TurnRecord:
    turn: int                       # the turn the decision was made in
    joint: tuple["int | FreeMove | None", ...]  # as played (free moves where some were)
    players: tuple[PlayerTurn, ...]
    state_hash: int                 # after the step
    scores: tuple[float, ...]       # evaluation after the step
    alive: tuple[bool, ...]
    eliminated: tuple[int, ...]     # agents eliminated by this step
    rewards: tuple[float, ...]
    # a world that replays cannot re-simulate (pods, physics = "pymunk"): the
    # state words after the step, and per agent how far the world moved it
    # from where the C model predicted (None for the C world)
    state: tuple[int, ...] | None = None
    divergence: tuple[float, ...] | None = None
    # agents whose player forfeited in this turn (a bot's failure with
    # on_failure = "eliminate"): out of the match's ranking from here on
    forfeits: tuple[int, ...] = ()


def forfeit_ranking(ranking: Sequence[int], forfeits: Mapping[int, int]) -> tuple[int, ...]:
    """The match's ranking (0 = best, ties equal) once agents forfeited:
    the game's ranking among the agents that did not, then the forfeited
    ones below all of them, a later forfeit above an earlier one (agents
    that forfeited in the same turn tie). `forfeits`: agent -> turn."""
    n = len(ranking)
    stay = [a for a in range(n) if a not in forfeits]
    out = [0] * n
    for a in stay:
        out[a] = sum(1 for b in stay if ranking[b] < ranking[a])
    for a, t in forfeits.items():
        out[a] = len(stay) + sum(1 for b, u in forfeits.items() if u > t)
    return tuple(out)


@dataclass(frozen=True)
class MatchResult:
    turns: int
    ranking: tuple[int, ...]        # per agent, 0 = best
    winner: int | None              # the single best agent, if there is one
    final_hash: int
    terminal: bool                  # the game ended (vs. a turn limit)
    names: tuple[str, ...]          # per agent

    def placement(self) -> str:
        """Agents best first, '=' between ties: '2>0>1=3'."""
        order = sorted(range(len(self.ranking)), key=lambda a: (self.ranking[a], a))
        out = str(order[0])
        for prev, a in zip(order, order[1:]):
            out += ("=" if self.ranking[a] == self.ranking[prev] else ">") + str(a)
        return out

    def line(self) -> str:
        best = [a for a, r in enumerate(self.ranking) if r == 0]
        if self.winner is not None:
            win = f"winner={self.winner}({self.names[self.winner]})"
        elif len(best) > 1 and len({self.names[a] for a in best}) == 1:
            # one player's agents share first place (a pods team): that player won
            win = f"winner={','.join(map(str, best))}({self.names[best[0]]})"
        else:
            win = "winner=none"
        return (f"result: {win} ranking={self.placement()} turns={self.turns} "
                f"final_hash={self.final_hash:016x}")
