"""What plays behind a served snake: one sandbox agent (its controller,
search settings, budget and evaluation weights, as an agent file holds
them), deciding one move per /move request on our own state converted from
the request, within a wall-time deadline.

A fresh search per request: the official engine may skip, repeat or
reorder nothing, but a server restarted mid-game, or a game we joined at
/move, must answer the same way, so nothing is carried from turn to turn.
With an iteration budget the move is a function of the request (seeded by
the game id and turn); with the time budget it depends on the machine."""
from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ...native import InvalidArgument, Search, SearchParams
from ...settings.seat import params_for_seat, player_game, weighted_params, weights_problem
from .convert import Position

KIND = "snakes"


@dataclass(frozen=True)
class Decision:
    move: int
    iterations: int
    search_ms: float
    stop_reason: str


@dataclass(frozen=True)
class ServedAgent:
    """A player's keys (as sandbox.tournament.agents.Entrant.player):
    controller "smitsimax" (any search algorithm) or "random"."""
    name: str
    controller: str = "smitsimax"
    search: Mapping[str, Any] = field(default_factory=dict)
    iterations: int = 0                  # > 0: at most this many a move
    ms: float = 0.0                      # > 0: at most this long a move
    weights: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_player(cls, name: str, player: Mapping[str, Any]) -> "ServedAgent":
        """InvalidArgument (one line) for what cannot play a served snake."""
        if not isinstance(player, Mapping):
            raise InvalidArgument(f"agent {name}: expected a player's keys, got {player!r}")
        ctl = player.get("controller", "smitsimax")
        if ctl not in ("smitsimax", "random"):
            raise InvalidArgument(f"agent {name}: controller {ctl!r} cannot be served (a "
                                  "search or random can)")
        search = dict(player.get("search") or {})
        try:
            SearchParams(**search)
        except (TypeError, ValueError) as exc:
            raise InvalidArgument(f"agent {name}: search: {str(exc).splitlines()[0]}") from None
        budget = player.get("budget") or {}
        weights = player.get("weights") or {}
        if not isinstance(budget, Mapping) or not isinstance(weights, Mapping):
            raise InvalidArgument(f"agent {name}: budget and weights are tables")
        try:
            iterations = int(budget.get("iterations") or 0)
            ms = float(budget.get("ms") or 0.0)
            weights = {k: float(v) for k, v in weights.items()}
        except (TypeError, ValueError):
            raise InvalidArgument(f"agent {name}: budget and weights hold numbers") from None
        why = weights_problem(KIND, {}, weights)
        if why:
            raise InvalidArgument(f"agent {name}: {why}")
        return cls(name, ctl, search, iterations, ms if "budget" in player else 0.0, weights)

    def c_params(self, pos: Position) -> str:
        return weighted_params(KIND, pos.game_params, self.weights)

    def seed(self, game_id: str, turn: int) -> int:
        return (zlib.crc32(game_id.encode("utf-8")) * 1_000_003 + turn) % 2**63

    def decide(self, pos: Position, game_id: str, turn: int, deadline: float) -> Decision:
        """Our move for agent pos.you, done by `deadline` (time.perf_counter)."""
        t0 = time.perf_counter()
        with player_game(KIND, self.c_params(pos), pos.words) as g:
            legal = g.legal_moves(pos.you)
            if self.controller == "random":
                rng = np.random.default_rng(self.seed(game_id, turn))
                return Decision(int(legal[rng.integers(len(legal))]), 0, 0.0, "random")
            ms = max(1.0, (deadline - time.perf_counter()) * 1000.0)
            if self.ms > 0:
                ms = min(ms, self.ms)
            # the seat filled in as for any player (SUCT's lead: this snake)
            params = params_for_seat(SearchParams(**self.search), [pos.you])
            with Search(g, params, seed=self.seed(game_id, turn)) as s:
                r = s.run(iterations=self.iterations or None, ms=ms)
                move = s.best_moves()[pos.you]
        if move is None or move not in legal:
            move = int(legal[0])
        return Decision(int(move), r.iterations, (time.perf_counter() - t0) * 1000.0,
                        r.stop_reason)
