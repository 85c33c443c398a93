"""The Coders Strike Back text protocol ("codingame-csb"): an unmodified
contest bot plays a pods team through it (docs/bots.md, "Coders Strike Back bots").

What the bot reads and writes, as the contest's referee has it:

    start   laps
            checkpointCount
            x y                   one line per checkpoint, 0 = start/finish
    turn    x y vx vy angle nextCheckPointId
                                  one line per pod: the bot's own two pods
                                  first, then the opponent's two
    reply   X Y THRUST | X Y BOOST | X Y SHIELD [message]
                                  one line per own pod, in the same order

Positions and velocities are the state's integers (positions rounded,
velocities truncated at the end of each turn). The angle is the pod's
heading in whole degrees (0 east, 90 south: clockwise, y points down),
rounded half up, so 359.6 is sent as 360; on the first turn it is -1, as the
pods have no heading before their first move (they then face their target
directly). Nothing is sent at the end: the bot is stopped. Time limits: 1000
ms for the first turn, 75 ms for each later one (default_first_turn_ms,
default_timeout_ms; a process player's config may set others).

Only the contest's setup: two players of two pods each, the bot's agents one
team's pods. Anything else is refused with one line (CodinGameCSB.refusal).
A reply that is not the protocol's shape raises ReplyError("garbage", ...);
a thrust outside 0..max_thrust ReplyError("illegal", ...); fewer lines
than pods by the deadline ReplyError("missing", ...), more written with
them ReplyError("extra", ...); the text after the command is the pod's
message, kept as debug. Numbers are ASCII digits, as the contest's.
"""
from __future__ import annotations

import math
import re
from typing import Any

from ..native import FreeMove, InvalidArgument
from ..games.pods.view import PodsView

from .protocol import BotReply, BotStart, BotTurn, Protocol, ReplyError

# "X Y COMMAND[ message]": whole numbers (a sign allowed), one space between
# (ASCII: other scripts' digits and spaces are not the contest's)
_REPLY = re.compile(r"^\s*(-?\d{1,10})\s+(-?\d{1,10})\s+(\S+)(?:\s+(.*?))?\s*$", re.ASCII)
MAX_MESSAGE = 300             # characters of a pod's message kept


class CodinGameCSB(Protocol):
    name = "codingame-csb"
    games = ("pods",)
    exact_lines = True          # the referee reads one line per pod: one more is a failure
    default_first_turn_ms = 1000.0
    default_timeout_ms = 75.0

    def __init__(self) -> None:
        self.own: tuple[int, ...] = ()
        self.opponent: tuple[int, ...] = ()
        self.max_thrust = 200

    # -- the setup -------------------------------------------------------------
    @staticmethod
    def refusal(view: PodsView, agents: tuple[int, ...]) -> str:
        """Why this race cannot be played through the protocol ("" if it can)."""
        return _refusal(view.players, view.per_player, agents)

    @classmethod
    def setup_problem(cls, params: Any, agents: tuple[int, ...]) -> str:
        # the same rule, on the scenario's parameters when it loads
        return _refusal(params.players, params.pods_per_player, agents)

    def start_lines(self, s: BotStart) -> list[str]:
        view = s.view
        if s.kind != "pods" or not isinstance(view, PodsView):
            raise InvalidArgument(f"codingame-csb: a Coders Strike Back protocol, not for "
                                  f"the game '{s.kind}'")
        why = self.refusal(view, tuple(s.agents))
        if why:
            raise InvalidArgument(why)
        self.own = tuple(sorted(s.agents))
        self.opponent = (2, 3) if self.own == (0, 1) else (0, 1)
        self.max_thrust = view.max_thrust
        return [str(view.laps), str(len(view.checkpoints))] + [
            f"{x} {y}" for x, y in view.checkpoints]

    # -- a turn ------------------------------------------------------------------
    def turn_lines(self, t: BotTurn) -> list[str]:
        view: PodsView = t.view
        n_cp = len(view.checkpoints)
        out = []
        for a in self.own + self.opponent:
            q = view.pods[a]
            angle = -1 if view.turn == 0 else heading_degrees(q.angle)
            out.append(f"{q.x} {q.y} {q.vx} {q.vy} {angle} {q.next_cp % n_cp}")
        return out

    def reply_line_count(self, t: BotTurn) -> int:
        return len(self.own)

    def parse_reply(self, lines: list[str], t: BotTurn) -> BotReply:
        if len(lines) < len(self.own):
            raise ReplyError("missing", f"{len(lines)} line(s) for {len(self.own)} pods")
        if len(lines) > len(self.own):
            raise ReplyError("extra", f"{len(lines)} lines for {len(self.own)} pods")
        moves: dict[int, Any] = {}
        messages: dict[str, str] = {}
        for a, line in zip(self.own, lines):
            move, message = self._parse_line(a, line)
            if a in t.legal:            # a pod whose team is out takes no move
                moves[a] = move
            if message:
                messages[str(a)] = message
        debug = None
        if messages:
            debug = {"message": " | ".join(messages.values()), "pod_messages": messages}
        return BotReply(moves, debug)

    def _parse_line(self, agent: int, line: str) -> tuple[FreeMove, str]:
        m = _REPLY.match(line)
        if m is None:
            raise ReplyError("garbage", f"pod {agent}: expected 'X Y THRUST', 'X Y BOOST' or "
                             f"'X Y SHIELD', got {_clip(line)!r}")
        x, y, command, message = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if abs(x) > 10**9 or abs(y) > 10**9:
            raise ReplyError("garbage", f"pod {agent}: the target ({x}, {y}) is beyond 1e9")
        if command == "BOOST":
            move = FreeMove.boost(x, y)
        elif command == "SHIELD":
            move = FreeMove.shield(x, y)
        elif re.fullmatch(r"-?\d{1,10}", command, re.ASCII):
            thrust = int(command)
            if not 0 <= thrust <= self.max_thrust:
                raise ReplyError("illegal", f"pod {agent}: thrust {thrust} is outside "
                                 f"0..{self.max_thrust}")
            move = FreeMove(x, y, thrust)
        else:
            raise ReplyError("garbage", f"pod {agent}: {_clip(command)!r} is not a thrust "
                             f"0..{self.max_thrust}, BOOST or SHIELD")
        text = "".join(c if c.isprintable() else " " for c in (message or ""))[:MAX_MESSAGE]
        return move, text.strip()

    def end_lines(self, ranking: tuple[int, ...], scores: tuple[float, ...]) -> list[str]:
        return []                       # the contest stops its bots; nothing is said


def heading_degrees(angle: float) -> int:
    """A pod's angle as the protocol sends it: whole degrees, half up (the
    referee's rounding), so 0..360."""
    return int(math.floor(angle + 0.5))


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _refusal(players: int, per_player: int, agents: tuple[int, ...]) -> str:
    if players != 2 or per_player != 2:
        return (f"codingame-csb: Coders Strike Back is 2 players x 2 pods; this race has "
                f"{players} player(s) x {per_player} pod(s)")
    if sorted(agents) not in ([0, 1], [2, 3]):
        return (f"codingame-csb: a bot drives one team's two pods (agents [0, 1] or "
                f"[2, 3]), not {list(agents)}")
    return ""
