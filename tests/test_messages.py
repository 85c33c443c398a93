"""Messages at the doors name the file, the line and what is wrong, for the
inputs that once slipped through: a byte-order mark, NaN, digits of other
scripts, and the seed limit that differs between commands."""
from __future__ import annotations

import pytest

from sandbox.cli import main
from sandbox.games.maze.mazefile import MazeFileError, parse_maze_text
from sandbox.games.snakes.mapfile import MapFileError, parse_map_text
from sandbox.textfile import read_small_text


def test_a_byte_order_mark_is_not_text(tmp_path):
    p = tmp_path / "s.toml"
    p.write_bytes(b"\xef\xbb\xbfname = 'x'\n")
    assert read_small_text(p, 1000) == "name = 'x'\n"


def test_nan_is_named_as_nan_not_as_a_range(tmp_path, capsys):
    p = tmp_path / "nan.toml"
    p.write_text('name = "x"\ngame = "matrix"\n[[players]]\nname = "a"\n[players.search]\n'
                 'c = nan\n[[players]]\nname = "b"\n')
    assert main(["play", str(p), "--turns", "1", "--no-record"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: nan.toml: players.0.search.c: must be a number, not NaN (got nan)"]


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u00b2"])   # Arabic-Indic 3, fullwidth 3, ²
def test_map_sizes_take_ascii_digits_only(digit):
    with pytest.raises(MazeFileError, match=r"^m\.txt:2: size: expected"):
        parse_maze_text(f"maze 1\nsize {digit} 3\nrows\n", "m.txt")
    with pytest.raises(MapFileError, match=r"^s\.txt:2: size: expected"):
        parse_map_text(f"snakebyte 1\nsize {digit} 6\nrows\n", "s.txt")
    with pytest.raises(MazeFileError, match=r"^m\.txt:4: row y=1 cell x=0"):
        parse_maze_text(f"maze 1\nsize 2 2\nrows\n1{digit}c 00.\n000 00c\n", "m.txt")


def test_seed_limits_say_why_they_differ(capsys):
    assert main(["series", "matrix_rps_duel", "--seed", str(2**62), "--games", "2"]) != 0
    err = capsys.readouterr().err
    assert "0..2^62-1" in err and "up to 2^63-1" in err
