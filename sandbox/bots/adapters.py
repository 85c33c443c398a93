"""The protocol adapters by name: which wire formats the sandbox speaks, and
for which games.

An adapter translates between a game's view and a wire format: the generic
JSON lines (protocol.py, every game, through its plugin's bot_view), the
Coders Strike Back text protocol (codingame.py, pods) and the Battlesnake
API (battlesnake/, snakes: a user's snake server as a player, our agents
served as snake servers, a /move body as a start position). Games know
none of them; this table is the one place that says which game each one
speaks, so the scenario check (sandbox.config), the players (players.py)
and the commands (serve, --start-position) ask here.

This module is the wire layer only (formats and checks): it imports no
controller, so the config layer below the match may read it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from ..games.base import StartPosition
from ..native import InvalidArgument
from .battlesnake.position_file import read_position
from .codingame import CodinGameCSB
from .protocol import JsonLinesProtocol, Protocol

# protocols a process player may speak (`protocol = NAME`, docs/bots.md)
PROTOCOLS: dict[str, type[Protocol]] = {p.name: p for p in (JsonLinesProtocol, CodinGameCSB)}


def protocol_names(kind: str | None = None) -> list[str]:
    """The protocols a process player of a game of `kind` may speak (None: all)."""
    return [n for n, cls in PROTOCOLS.items()
            if kind is None or not cls.games or kind in cls.games]


def protocol_class(name: str, kind: str) -> type[Protocol]:
    """The protocol `name` for a game of `kind`. ValueError (one line) if none."""
    found = protocol_names(kind)
    if name not in found:
        raise ValueError(f"protocol: {name!r} is not a protocol of {kind} "
                         f"(it has: {', '.join(found)})")
    return PROTOCOLS[name]


@dataclass(frozen=True)
class RemotePlayers:
    """A controller that is a program elsewhere, reached over the network
    (`controller = NAME`, `url = ...`): the games it plays and why a game of
    those cannot be played (the game's validated Params -> a reason, "" if
    it can)."""
    games: tuple[str, ...]
    setup_problem: Callable[[Any], str]


def _battlesnake_problem(params: Any) -> str:
    if params.family != "standard":
        return "a Battlesnake server plays the Battlesnake rulesets, not snakebyte"
    return ""


REMOTE_PLAYERS: dict[str, RemotePlayers] = {
    "battlesnake": RemotePlayers(("snakes",), _battlesnake_problem),
}

# what `python -m sandbox serve NAME` serves an agent as: NAME -> the game it plays
SERVERS: dict[str, str] = {"battlesnake": "snakes"}

# positions read from a file (`--start-position FILE`): game -> reader
START_POSITIONS: dict[str, Callable[["str | os.PathLike"], StartPosition]] = {
    "snakes": read_position,
}


def start_position(kind: str, path: "str | os.PathLike") -> StartPosition:
    """A position of a game of `kind` read from `path` (StartPosition);
    InvalidArgument in one line for a bad file or a game that reads none."""
    reader = START_POSITIONS.get(kind)
    if reader is None:
        raise InvalidArgument(f"{kind} reads no start positions")
    return reader(path)
