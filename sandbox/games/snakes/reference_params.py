"""The snakes twin's parameters (sandbox/games/snakes/reference.py): the table of snakes.c's
set_param(), the C-exact parsing of a `key=value` string (strtol / strtod semantics, the same
separators and messages) and SnakesParams, with defaults and ranges as in snakes.c."""
from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, fields
from typing import Any, Mapping


from sandbox.native.errors import InvalidArgument


MAX_AGENTS = 8  # SBX_MAX_AGENTS
MAX_SIDE = 25

# (name, type, lo, hi): the table of snakes.c set_param().
PARAM_TABLE: tuple[tuple[str, type, int, int], ...] = (
    ("width", int, 5, MAX_SIDE),
    ("height", int, 5, MAX_SIDE),
    ("snakes", int, 1, MAX_AGENTS),
    ("food_spawn_chance", int, 0, 100),
    ("minimum_food", int, 0, 100),
    ("initial_food", int, 0, 1),
    ("max_turns", int, 0, 100000),
    ("max_health", int, 1, 1000),
    ("hazard_damage", int, -1000, 1000),
    ("shrink_every", int, 1, 1000),
    ("w_alive", float, -1000, 1000),
    ("w_dead", float, -1000, 1000),
    ("w_outlived", float, -1000, 1000),
    ("w_length", float, -1000, 1000),
    ("w_health", float, -1000, 1000),
    ("w_food", float, -1000, 1000),
    ("w_space", float, -1000, 1000),
)

_SEPARATORS = " ,;\t\n\r"
_C_SPACE = " \t\n\v\f\r"
_INT_RE = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")
_DEC_FLOAT_RE = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]*)(\.?)([0-9]*)([eE][+-]?[0-9]+)?")
_HEX_FLOAT_RE = re.compile(
    r"[ \t\n\v\f\r]*[+-]?0[xX]([0-9a-fA-F]*\.?[0-9a-fA-F]*)([pP][+-]?[0-9]+)?")
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1

# snakes.c's MODE_NAMES and snakes_maps.c's map names, in their orders
RULESETS = ("standard", "solo", "royale", "constrictor", "wrapped", "wrapped_constrictor")
MAPS = ("arcade_maze", "empty", "healing_pools", "hz_castle_wall", "hz_castle_wall_lg",
        "hz_castle_wall_xl", "hz_columns", "hz_expand_box", "hz_expand_scatter", "hz_grow_box",
        "hz_hazard_pits", "hz_inner_wall", "hz_islands_bridges", "hz_islands_bridges_lg",
        "hz_rings", "hz_rivers_bridges", "hz_rivers_bridges_lg", "hz_rivers_bridges_xl",
        "hz_scatter", "hz_spiral", "royale", "sinkholes", "snail_mode", "standard")


def _format_value(value: Any) -> str:
    """A Python value as the wrapper writes it into the C parameter string."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    return f"{value}"


def _parse_kv(text: str) -> list[tuple[str, str]]:
    """sbx_parse_kv: "key=value" pairs separated by spaces, commas or
    semicolons, with the same failures and messages."""
    pairs = []
    p, n = 0, len(text)
    while True:
        while p < n and text[p] in _SEPARATORS:
            p += 1
        if p >= n:
            return pairs
        k0 = p
        while p < n and text[p] != "=" and text[p] not in _SEPARATORS:
            p += 1
        key = text[k0:p]
        if p >= n or text[p] != "=":
            raise InvalidArgument(f"parameter '{key[:60]}': expected key=value")
        if len(key) == 0 or len(key) >= 64:
            raise InvalidArgument("parameter name empty or too long")
        p += 1
        v0 = p
        while p < n and text[p] not in _SEPARATORS:
            p += 1
        value = text[v0:p]
        if len(value) == 0 or len(value) >= 128:
            raise InvalidArgument(f"{key}: value empty or too long")
        pairs.append((key, value))


def _strtol(key: str, value: str, lo: int, hi: int) -> int:
    """sbx_kv_int: the whole value must be a base-10 long within [lo, hi]."""
    if not _INT_RE.fullmatch(value) or not LONG_MIN <= int(value) <= LONG_MAX:
        raise InvalidArgument(f"{key}: expected an integer (got '{value}')")
    v = int(value)
    if v < lo or v > hi:
        raise InvalidArgument(f"{key}: must be in {lo}..{hi} (got {v})")
    return v


def _strtod_number(value: str) -> float | None:
    """strtod over the whole string, None where C would reject it (no
    number, trailing characters, out of range, not finite)."""
    m = _DEC_FLOAT_RE.fullmatch(value)
    if m and (m.group(2) or m.group(4)):
        v = float(value.strip(_C_SPACE))
        mantissa_nonzero = any(ch in "123456789" for ch in m.group(2) + m.group(4))
        underflow = (v == 0.0 and mantissa_nonzero) or 0.0 < abs(v) < sys.float_info.min
        if math.isinf(v) or underflow:
            return None  # glibc sets ERANGE: overflow, or a zero/subnormal result
        return v
    m = _HEX_FLOAT_RE.fullmatch(value)
    if m and m.group(1).strip("."):
        text = value.strip(_C_SPACE)
        if not m.group(2):
            text += "p0"
        try:
            v = float.fromhex(text)
        except OverflowError:
            return None
        return v
    return None  # inf, nan and anything else: not a finite number


def _strtod(key: str, value: str, lo: float, hi: float) -> float:
    """sbx_kv_double: a finite number within [lo, hi]."""
    v = _strtod_number(value)
    if v is None:
        raise InvalidArgument(f"{key}: expected a number (got '{value}')")
    if v < lo or v > hi:
        raise InvalidArgument(f"{key}: must be in {'%g' % lo}..{'%g' % hi} (got {'%g' % v})")
    return v


@dataclass(frozen=True)
class SnakesParams:
    """The game's parameters, defaults and ranges as in snakes.c."""

    ruleset: str = "standard"
    map: str = "standard"
    width: int = 11
    height: int = 11
    snakes: int = 4
    food_spawn_chance: int = 15   # percent per turn
    minimum_food: int = 1
    initial_food: int = 1         # 1: the rules' start food (docs/games.md); 0: none
    max_turns: int = 0            # 0: no limit
    max_health: int = 100
    hazard_damage: int = 14       # health a hazard layer takes a turn (< 0 heals)
    shrink_every: int = 25        # turns between hazard changes
    w_alive: float = 1.0
    w_dead: float = -1.0
    w_outlived: float = 0.5
    w_length: float = 0.01
    w_health: float = 0.1
    w_food: float = 0.3
    w_space: float = 0.5

    @classmethod
    def parse(cls, params: Mapping[str, Any] | str | None = None) -> "SnakesParams":
        """From a dict ({"width": 7}) or a C-style string ("width=7 snakes=2").
        A dict goes through the same text form the wrapper sends to C, so both
        accept and reject exactly the same values, with the same messages."""
        if params is None:
            text = ""
        elif isinstance(params, str):
            text = params
        else:
            text = " ".join(f"{k}={_format_value(v)}" for k, v in params.items())
        values: dict[str, Any] = {}
        table = {name: (kind, lo, hi) for name, kind, lo, hi in PARAM_TABLE}
        pairs = _parse_kv(text)
        for key, value in pairs:            # snakes_configure's first pass
            if key == "ruleset" and value != "snakebyte" and value not in RULESETS:
                raise InvalidArgument(
                    f"ruleset: '{value}' is not available (have: standard, solo, royale, "
                    "constrictor, wrapped, wrapped_constrictor, snakebyte)")
            if key == "ruleset" and value == "snakebyte":   # its own twin
                raise InvalidArgument("ruleset: this reference is the Battlesnake rulesets'; "
                                      "snakebyte's is reference_byte.SnakeByteGame")
        for key, value in pairs:
            if key == "ruleset":
                values[key] = value
                continue
            if key == "map":
                if value not in MAPS:
                    raise InvalidArgument(
                        f"map: '{value}' is not a Battlesnake map we model (have: standard, "
                        "empty, royale, arcade_maze, healing_pools, sinkholes and the hz_* "
                        "maps, snail_mode; not solo_maze)")
                values[key] = value
                continue
            if key not in table:
                raise InvalidArgument(f"unknown snakes parameter '{key}'")
            kind, lo, hi = table[key]
            if kind is int:
                values[key] = _strtol(key, value, lo, hi)
            else:
                values[key] = _strtod(key, value, float(lo), float(hi))
        p = cls(**values)
        p._check_map()
        return p

    def _check_map(self) -> None:
        """snakes_configure's checks of the ruleset and map (snakes_map_check)."""
        W, H, n, m = self.width, self.height, self.snakes, self.map
        if self.ruleset == "royale" and m not in ("standard", "empty", "royale"):
            raise InvalidArgument(f"map: '{m}' with ruleset royale is not modelled (royale "
                                  "plays on the standard, empty or royale map)")
        from .reference_maps import LAYOUTS
        lay = LAYOUTS.get(m)
        if lay is not None:
            if (W, H) != (lay["width"], lay["height"]):
                raise InvalidArgument(f"map: {m} is played on {lay['width']}x{lay['height']} "
                                      f"only (not {W}x{H})")
            if n > lay["max_snakes"]:
                raise InvalidArgument(f"map: {m} seats 1..{lay['max_snakes']} snakes")
        if m == "arcade_maze":
            if (W, H) != (19, 21):
                raise InvalidArgument(f"map: {m} is played on 19x21 only (not {W}x{H})")
            if n > 6:
                raise InvalidArgument(f"map: {m} seats 1..6 snakes")
        elif m == "healing_pools" and not (W == H and W in (7, 11, 19)):
            raise InvalidArgument(f"map: {m} is played on 7x7, 11x11 or 19x19 (not {W}x{H})")
        elif m == "hz_hazard_pits":
            if (W, H) != (11, 11):
                raise InvalidArgument(f"map: {m} is played on 11x11 only (not {W}x{H})")
            if n > 4:
                raise InvalidArgument(f"map: {m} seats 1..4 snakes")
        elif m == "sinkholes":
            r = self.sinkhole_rings
            if W // 2 < r or W // 2 + r > W - 1 or H // 2 < r or H // 2 + r > H - 1:
                raise InvalidArgument(f"map: {m}'s sinkhole ({r} rings) does not fit a "
                                      f"{W}x{H} board")
        elif m in ("hz_expand_box", "hz_expand_scatter") and W != H:
            raise InvalidArgument(f"map: {m} is played on square boards (not {W}x{H})")
        elif m == "hz_rings" and any(o >= H - 1 for o in range(2, W // 2, 2)):
            raise InvalidArgument(f"map: {m}'s rings do not fit a {W}x{H} board")

    # -- what the ruleset and map make of the turn ---------------------------
    @property
    def wrapped(self) -> bool:
        return self.ruleset in ("wrapped", "wrapped_constrictor")

    @property
    def constrictor(self) -> bool:
        return self.ruleset in ("constrictor", "wrapped_constrictor")

    @property
    def solo_end(self) -> bool:
        """The game goes on until no snake is left (solo, or one snake)."""
        return self.ruleset == "solo" or self.snakes < 2

    @property
    def shrinks(self) -> bool:
        """Royale's safe zone closes in (the ruleset or the map)."""
        return self.ruleset == "royale" or self.map == "royale"

    @property
    def has_hazards(self) -> bool:
        return self.shrinks or self.map not in ("standard", "empty")

    @property
    def sinkhole_rings(self) -> int:
        return 3 if self.width == 7 else 7 if self.width == 19 else 5

    @property
    def ncells(self) -> int:
        return self.width * self.height

    @property
    def ring_cap(self) -> int:
        """C's ring-buffer size (a power of two >= ncells + 4); it bounds the
        length import accepts."""
        cap = 1
        while cap < self.ncells + 4:
            cap <<= 1
        return cap

    def describe(self) -> str:
        """The effective parameters as C's snakes_describe writes them."""
        ints = ("width", "height", "snakes", "food_spawn_chance", "minimum_food",
                "initial_food", "hazard_damage", "shrink_every", "max_turns", "max_health")
        order = ("ruleset", "map", "width", "height", "snakes", "food_spawn_chance",
                 "minimum_food", "initial_food", "hazard_damage", "shrink_every", "max_turns",
                 "max_health", "w_alive", "w_dead", "w_outlived", "w_length", "w_health",
                 "w_food", "w_space")
        parts = []
        for name in order:
            v = getattr(self, name)
            if isinstance(v, str) or name in ints:
                parts.append(f"{name}={v}")
            else:
                parts.append(f"{name}={'%.17g' % v}")
        return " ".join(parts)
