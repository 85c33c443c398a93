"""Maze files: hand-made mazes as text, loaded into the game's parameters.

Format (version 1; '#' starts a comment, blank lines are ignored):

    maze 1
    size W H            2..64 each
    max_turns T         optional (else the `size` preset's limit)
    rows                then exactly H lines, the TOP row (y = H-1) first
    1c.0..1.. ...       W cells of 3 characters each, x = 0..W-1:
                          right passage, up passage: '0' wall, '1' open,
                          '2'..'9' mud costing that many turns;
                          then 'c' for a cheese or '.' for none

The right passage of the last column and the up passage of the top row must
be '0'. The maze must be connected and hold at least one cheese, none on a
player's start corner ((0,0), (W-1,H-1), (W-1,0), (0,H-1) for players 0-3).
Players start at the corners as in generated mazes.

load_maze_file(path) -> {"width", "height", "rows", "max_turns"}; every problem
is a MazeFileError naming the file, the line and the field. save_maze_file
writes a game's maze (from its export) in the same format, so a generated
maze can be saved, edited and loaded back.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...native import InvalidArgument
from ..base import read_layout_file

MAX_SIDE = 64


class MazeFileError(InvalidArgument):
    """A malformed maze file (one line: file, line number, what is wrong)."""


def _cell_ok(cell: str) -> bool:
    return len(cell) == 3 and cell[0] in DIGITS and cell[1] in DIGITS and cell[2] in "c."


# ASCII only: str.isdigit() also takes superscripts ('²', which int() then
# refuses) and other scripts' digits ('٣', which int() reads as 3)
DIGITS = "0123456789"


def _is_int(word: str) -> bool:
    return word.isascii() and word.isdigit()


def parse_maze_text(text: str, name: str = "<maze>") -> dict:
    def fail(line: int, msg: str):
        raise MazeFileError(f"{name}:{line}: {msg}")

    lines = [(i + 1, raw.split("#", 1)[0].strip()) for i, raw in enumerate(text.splitlines())]
    lines = [(n, s) for n, s in lines if s]
    if not lines or lines[0][1].split() != ["maze", "1"]:
        fail(lines[0][0] if lines else 1, "the first line must be 'maze 1'")
    width = height = None
    max_turns = None
    k = 1
    while k < len(lines):
        n, s = lines[k]
        words = s.split()
        k += 1
        if words[0] == "size":
            if len(words) != 3 or not all(_is_int(w) for w in words[1:]):
                fail(n, "size: expected 'size W H' with two integers")
            width, height = int(words[1]), int(words[2])
            if not (2 <= width <= MAX_SIDE and 2 <= height <= MAX_SIDE):
                fail(n, f"size: {width}x{height} out of range 2..{MAX_SIDE}")
        elif words[0] == "max_turns":
            if len(words) != 2 or not _is_int(words[1]) or not 1 <= int(words[1]) <= 100000:
                fail(n, "max_turns: expected an integer in 1..100000")
            max_turns = int(words[1])
        elif words == ["rows"]:
            break
        else:
            fail(n, f"unknown field '{words[0]}' (size, max_turns, rows)")
    else:
        fail(lines[-1][0], "no 'rows' line")
    if width is None:
        fail(lines[k - 1][0], "size: missing before 'rows'")
    body = lines[k:]
    if len(body) != height:
        fail(body[-1][0] if body else lines[-1][0],
             f"rows: {len(body)} row lines, the size says {height}")
    rows: list[str] = [""] * height
    cheese = 0
    for r, (n, s) in enumerate(body):
        y = height - 1 - r
        s = "".join(s.split())
        if len(s) != 3 * width:
            fail(n, f"row y={y}: {len(s)} characters, want 3 a cell = {3 * width}")
        for x in range(width):
            cell = s[3 * x:3 * x + 3]
            if not _cell_ok(cell):
                fail(n, f"row y={y} cell x={x}: '{cell}' is not <right 0-9><up 0-9><c|.>")
            if x == width - 1 and cell[0] != "0":
                fail(n, f"row y={y} cell x={x}: a right passage off the grid")
            if y == height - 1 and cell[1] != "0":
                fail(n, f"row y={y} cell x={x}: an up passage off the grid")
            cheese += cell[2] == "c"
        rows[y] = s
    if cheese == 0:
        fail(body[0][0], "rows: the maze has no cheese")
    corners = [(0, 0), (width - 1, height - 1), (width - 1, 0), (0, height - 1)]
    for p, (x, y) in enumerate(corners):
        if rows[y][3 * x + 2] == "c":
            fail(body[height - 1 - y][0], f"row y={y} cell x={x}: cheese on the start "
                                          f"corner of player {p}")
    if not _connected(rows, width, height):
        fail(body[0][0], "rows: the maze is not connected")
    return {"width": width, "height": height, "rows": rows, "max_turns": max_turns}


def _connected(rows: Sequence[str], w: int, h: int) -> bool:
    seen = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        x, y = todo.pop()
        nbs = []
        if rows[y][3 * x] != "0":
            nbs.append((x + 1, y))
        if rows[y][3 * x + 1] != "0":
            nbs.append((x, y + 1))
        if x > 0 and rows[y][3 * (x - 1)] != "0":
            nbs.append((x - 1, y))
        if y > 0 and rows[y - 1][3 * x + 1] != "0":
            nbs.append((x, y - 1))
        for nb in nbs:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == w * h


def load_maze_file(path: str | Path) -> dict:
    return parse_maze_text(read_layout_file(path, MazeFileError, "maze file"), str(Path(path)))


def layout_params(layout: dict) -> dict:
    """The C parameters of a loaded layout (width, height, row<y>, max_turns)."""
    out: dict = {"width": layout["width"], "height": layout["height"]}
    for y, row in enumerate(layout["rows"]):
        out[f"row{y}"] = row
    if layout.get("max_turns"):
        out["max_turns"] = layout["max_turns"]
    return out


def maze_text(words: Sequence[int]) -> str:
    """A game's maze (its export words) in the file format."""
    from .view import decode_maze
    v = decode_maze(words)
    lines = ["maze 1", f"size {v.width} {v.height}", f"max_turns {v.max_turns}", "rows"]
    for y in range(v.height - 1, -1, -1):
        lines.append("".join(f"{v.right[y][x]}{v.up[y][x]}{'c' if v.cheese0[y][x] else '.'}"
                             for x in range(v.width)))
    return "\n".join(lines) + "\n"


def save_maze_file(path: str | Path, words: Sequence[int]) -> None:
    Path(path).write_text(maze_text(words), encoding="utf-8")
