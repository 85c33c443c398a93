"""FreeMove: a move outside a game's move table (sbx_free_move in sbx.h).

The searches plan with each game's discrete move table; people and outside
bots may play a *free* move instead, where the game takes them (pods: steer
toward a target point with a thrust, or BOOST, or SHIELD toward it, as the
Coders Strike Back referee does). Game.step takes, per agent, a table move
(int) or a FreeMove; C checks the ranges that depend on the game (pods: the
thrust against max_thrust) and refuses a game without free moves.

The shape is checked here, when the value is made, so a FreeMove that exists
is well-formed: finite target coordinates, a kind of KINDS, a whole thrust
for "thrust" and none for the others.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Mapping

from ._handle import show
from .errors import InvalidArgument

KINDS = ("thrust", "boost", "shield")
# the C kinds (SBX_FREE_*): 0 is a table move
C_KIND = {"thrust": 1, "boost": 2, "shield": 3}
# a target's coordinates, per axis (C's limit: far beyond any map)
TARGET_LIMIT = 1e9
# a thrust beyond any game's (pods: max_thrust <= 650); C checks the game's own
THRUST_LIMIT = 100_000


def _coord(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgument(f"FreeMove.{name}: expected a number (got {show(value)})")
    v = float(value)
    if not math.isfinite(v) or abs(v) > TARGET_LIMIT:
        raise InvalidArgument(f"FreeMove.{name}: {value!r} is not a finite coordinate within "
                              f"1e9")
    return v


@dataclass(frozen=True)
class FreeMove:
    """Steer toward (x, y): kind "thrust" with `thrust` (a whole number; the
    game's range, pods 0..max_thrust), "boost" or "shield" (thrust None)."""
    x: float
    y: float
    thrust: int | None = None
    kind: str = "thrust"

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise InvalidArgument(f"FreeMove.kind: {show(self.kind)} is not one of "
                                  f"{', '.join(KINDS)}")
        object.__setattr__(self, "x", _coord("x", self.x))
        object.__setattr__(self, "y", _coord("y", self.y))
        t = self.thrust
        if self.kind == "thrust":
            if isinstance(t, bool) or not isinstance(t, numbers.Integral):
                raise InvalidArgument(f"FreeMove.thrust: expected a whole number (got "
                                      f"{show(t)})")
            t = int(t)
            if not 0 <= t <= THRUST_LIMIT:
                raise InvalidArgument(f"FreeMove.thrust: {t} is negative or absurd")
            object.__setattr__(self, "thrust", t)
        elif t is not None:
            raise InvalidArgument(f"FreeMove.thrust: a {self.kind} has no thrust (got "
                                  f"{show(t)})")

    @classmethod
    def boost(cls, x: float, y: float) -> "FreeMove":
        return cls(x, y, None, "boost")

    @classmethod
    def shield(cls, x: float, y: float) -> "FreeMove":
        return cls(x, y, None, "shield")

    # -- the replay's spelling ---------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """{"x": .., "y": .., "thrust": ..} or {"x", "y", "kind": "boost"};
        whole coordinates as ints."""
        out: dict[str, Any] = {"x": _num(self.x), "y": _num(self.y)}
        if self.kind == "thrust":
            out["thrust"] = self.thrust
        else:
            out["kind"] = self.kind
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "FreeMove":
        if not isinstance(obj, Mapping):
            raise InvalidArgument(f"a free move is an object (got {show(obj)})")
        extra = set(obj) - {"x", "y", "thrust", "kind"}
        if extra:
            raise InvalidArgument(f"a free move has no field {sorted(extra)[0]!r}")
        if "x" not in obj or "y" not in obj:
            raise InvalidArgument("a free move needs x and y")
        kind = obj.get("kind", "thrust")
        if kind == "thrust" and "thrust" not in obj:
            raise InvalidArgument("a thrust free move needs its thrust")
        return cls(obj["x"], obj["y"], obj.get("thrust"), kind)

    def text(self) -> str:
        """The move as a CodinGame-style line: 'X Y THRUST' / 'X Y BOOST'."""
        what = str(self.thrust) if self.kind == "thrust" else self.kind.upper()
        return f"{_num(self.x)} {_num(self.y)} {what}"


def _num(v: float) -> int | float:
    return int(v) if v == int(v) else v
