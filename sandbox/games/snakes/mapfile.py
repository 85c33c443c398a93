"""SnakeByte map files: hand-made maps as text, loaded into the game's parameters.

Format (version 1; lines starting with ';' are comments, blank lines are
ignored):

    snakebyte 1
    size W H            W 4..48, H 4..24
    rows                then exactly H lines, the TOP row (y = 0) first,
    ......*.....        W characters each:
    ..a......A..          '.' air   '#' wall   '*' apple
    ####..####..          'a'-'d' the heads of player 0's snakes,
                          'A'-'D' player 1's; each snake starts vertical,
                          length 3, its body in the 2 cells below its head

The bottom row must be all wall; both players have the same number (2..4)
of snakes, lettered from 'a' / 'A' without gaps; the 2 cells below each
head must be air; 1..60 apples. A map need not be mirrored (the bundled
ones are, like generated maps).

load_map_file(path) -> {"width", "height", "rows"}; every problem is a
MapFileError naming the file, the line and what is wrong, on one line.
resolve_map(name) finds a file or a bundled map (assets/maps/snakebyte/
NAME.txt); map_params(layout) gives the C parameters; save_map_file writes a
game's start (its export at turn 0) in the same format.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...native import InvalidArgument
from ..base import read_layout_file

MAX_W, MAX_H, MAX_APPLES = 48, 24, 60
MAP_DIR = Path(__file__).resolve().parents[3] / "assets" / "maps" / "snakebyte"
_CELLS = set(".#*abcdABCD")


class MapFileError(InvalidArgument):
    """A malformed SnakeByte map file (one line: file, line number, what is wrong)."""


def parse_map_text(text: str, name: str = "<map>") -> dict:
    def fail(line: int, msg: str):
        raise MapFileError(f"{name}:{line}: {msg}")

    lines = [(i + 1, raw.strip()) for i, raw in enumerate(text.splitlines())]
    lines = [(n, s) for n, s in lines if s and not s.startswith(";")]
    if not lines or lines[0][1].split() != ["snakebyte", "1"]:
        fail(lines[0][0] if lines else 1, "the first line must be 'snakebyte 1'")
    width = height = None
    k = 1
    while k < len(lines):
        n, s = lines[k]
        words = s.split()
        k += 1
        if words[0] == "size":
            if len(words) != 3 or not all(w.isascii() and w.isdigit() for w in words[1:]):
                fail(n, "size: expected 'size W H' with two integers")
            width, height = int(words[1]), int(words[2])
            if not (4 <= width <= MAX_W and 4 <= height <= MAX_H):
                fail(n, f"size: {width}x{height} out of range 4..{MAX_W} x 4..{MAX_H}")
        elif words == ["rows"]:
            break
        else:
            fail(n, f"unknown field '{words[0]}' (size, rows)")
    else:
        fail(lines[-1][0], "no 'rows' line")
    if width is None or height is None:
        fail(lines[k - 1][0], "size: missing before 'rows'")
    body = lines[k:]
    if len(body) != height:
        fail(body[-1][0] if body else lines[-1][0],
             f"rows: {len(body)} row lines, the size says {height}")
    rows = [s for _, s in body]
    heads: dict[str, tuple[int, int, int]] = {}
    apples = 0
    for y, (n, s) in enumerate(body):
        if len(s) != width:
            fail(n, f"row y={y}: {len(s)} characters, the width is {width}")
        for x, ch in enumerate(s):
            if ch not in _CELLS:
                fail(n, f"row y={y} x={x}: '{ch}' is not one of . # * a-d A-D")
            if ch.isalpha():
                if ch in heads:
                    fail(n, f"row y={y} x={x}: head '{ch}' appears twice "
                            f"(first on line {heads[ch][2]})")
                heads[ch] = (x, y, n)
            apples += ch == "*"
    if set(rows[-1]) != {"#"}:
        fail(body[-1][0], f"row y={height - 1}: the bottom row must be all wall '#'")
    counts = []
    for first in "aA":
        letters = [chr(ord(first) + i) for i in range(4)]
        have = [c in heads for c in letters]
        count = have.index(False) if False in have else 4
        if any(have[count:]):
            extra = letters[have.index(True, count)]
            fail(heads[extra][2], f"head '{extra}' without '{letters[count]}'")
        counts.append(count)
    if counts[0] != counts[1] or counts[0] < 2:
        fail(body[0][0], f"rows: {counts[0]} heads a-d and {counts[1]} heads A-D; each "
                         f"player needs the same number of snakes, 2..4")
    for ch, (x, y, n) in sorted(heads.items()):
        if y + 2 >= height or rows[y + 1][x] != "." or rows[y + 2][x] != ".":
            fail(n, f"row y={y} x={x}: snake '{ch}' needs air in the 2 cells below its head")
    if not 1 <= apples <= MAX_APPLES:
        fail(body[0][0], f"rows: {apples} apples, want 1..{MAX_APPLES}")
    return {"width": width, "height": height, "rows": rows}


def resolve_map(name: str | Path) -> Path:
    """A map file: `name` itself, or the bundled assets/maps/snakebyte/NAME.txt."""
    if not isinstance(name, (str, Path)) or not str(name):
        raise MapFileError(f"map: expected a file name or a bundled map name (got {name!r})")
    p = Path(name)
    if p.is_file():
        return p
    bundled = MAP_DIR / f"{name}.txt"
    if "/" not in str(name) and bundled.is_file():
        return bundled
    have = ", ".join(sorted(q.stem for q in MAP_DIR.glob("*.txt")))
    raise MapFileError(f"map: '{name}' is neither a file nor a bundled map (bundled: {have})")


def load_map_file(path: str | Path) -> dict:
    return parse_map_text(read_layout_file(path, MapFileError, "map file"), str(Path(path)))


def map_params(layout: dict) -> dict:
    """The C parameters of a loaded map (width, height, row<y>)."""
    out: dict = {"width": layout["width"], "height": layout["height"]}
    for y, row in enumerate(layout["rows"]):
        out[f"row{y}"] = row
    return out


def map_text(words: Sequence[int]) -> str:
    """A game's start (its export at turn 0) in the file format."""
    from .view import decode_snakebyte
    v = decode_snakebyte(words)
    if v.turn != 0:
        raise InvalidArgument(f"map_text: a map is a game's start (turn 0), this is turn {v.turn}")
    grid = [["#" if v.walls[y][x] else "." for x in range(v.width)] for y in range(v.height)]
    for x, y in v.apples:
        grid[y][x] = "*"
    for a, s in enumerate(v.snakes):
        x, y = s.body[0]
        grid[y][x] = chr((ord("a") if a < v.per_player else ord("A")) + a % v.per_player)
    lines = ["snakebyte 1", f"size {v.width} {v.height}", "rows"]
    lines += ["".join(r) for r in grid]
    return "\n".join(lines) + "\n"


def save_map_file(path: str | Path, words: Sequence[int]) -> None:
    Path(path).write_text(map_text(words), encoding="utf-8")
