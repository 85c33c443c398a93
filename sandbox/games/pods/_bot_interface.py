"""The bot-protocol interface, for this package alone until sandbox.bots is
in the tree (the process-agent machinery, developed alongside: its
sandbox/bots/protocol.py defines these same names with these same fields,
and codingame.py imports them from there when it exists). Delete this file
once sandbox.bots is merged."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BotStart:
    kind: str
    params: dict
    player: int
    agents: tuple[int, ...]
    num_agents: int
    move_names: tuple[tuple[str, ...], ...]
    seed: int
    view: object
    timeout_ms: float
    first_turn_ms: float


@dataclass(frozen=True)
class BotTurn:
    turn: int
    view: object
    legal: dict[int, tuple[int, ...]]
    time_ms: float
    agents: tuple[int, ...]


@dataclass(frozen=True)
class BotReply:
    moves: dict[int, Any]
    debug: dict | None = None


class ReplyError(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Protocol:
    name = "base"

    def start_lines(self, s: BotStart) -> list[str]:
        raise NotImplementedError

    def turn_lines(self, t: BotTurn) -> list[str]:
        raise NotImplementedError

    def reply_line_count(self, t: BotTurn) -> int:
        return 1

    def parse_reply(self, lines: list[str], t: BotTurn) -> BotReply:
        raise NotImplementedError

    def end_lines(self, ranking: tuple[int, ...], scores: tuple[float, ...]) -> list[str]:
        return []
