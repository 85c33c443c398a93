"""`python -m sandbox lab ...`: each lab runs small and prints its table,
writes a valid PNG, and refuses bad flags with one line and a non-zero exit."""
from __future__ import annotations

import json

import pygame
import pytest

import sandbox.games
from sandbox.cli import main

HAVE_DEPTHBIAS = "depthbias" in sandbox.games.kinds()


def _png_ok(path) -> None:
    img = pygame.image.load(str(path))
    assert img.get_size() == (1200, 800)
    # not blank: a real chart has many colours
    colours = {tuple(img.get_at((x, y)))[:3] for x in range(0, 1200, 7) for y in range(0, 800, 7)}
    assert len(colours) > 20


def test_rps(tmp_path, capsys):
    png = tmp_path / "rps.png"
    assert main(["lab", "rps", "--rounds", "20", "--iterations", "60", "--opponent", "rock",
                 "--model-history", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "RPS playground" in out and "rock paper scissors" in out
    assert out.count("\n") >= 13 and f"wrote {png}" in out
    _png_ok(png)


def test_race(tmp_path, capsys):
    png = tmp_path / "race.png"
    assert main(["lab", "race", "--game", "biased_rps", "--iterations", "1000", "--policies",
                 "ucb1,rm", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "payoff range 100" in out and "1,000 |" in out and "500 |" in out
    _png_ok(png)


def test_race_json(capsys):
    assert main(["lab", "race", "--game", "1,-1;-1,1", "--iterations", "200", "--policies",
                 "ucb1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["checkpoints"] == [100, 200] and d["a"] == [[1, -1], [-1, 1]]


def test_rps_json(capsys):
    assert main(["lab", "rps", "--rounds", "5", "--iterations", "20", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["rounds"]) == 5 and d["moves"] == ["rock", "paper", "scissors"]


@pytest.mark.skipif(not HAVE_DEPTHBIAS, reason="the depthbias game is not merged yet")
def test_depth(tmp_path, capsys):
    png = tmp_path / "depth.png"
    assert main(["lab", "depth", "--iterations", "2000", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "raw" in out and "normalised" in out and "ranking:" in out
    _png_ok(png)


BAD = [
    ["lab", "rps", "--opponent", "lizard"],
    ["lab", "rps", "--opponent", "biased:0.5,0.5"],
    ["lab", "rps", "--policy", "ucb9"],
    ["lab", "rps", "--iterations", "0"],
    ["lab", "rps", "--rounds", "-3"],
    ["lab", "rps", "--rounds", "many"],
    ["lab", "rps", "--png", "out.jpg"],
    ["lab", "rps", "--png", "/no/such/dir/out.png"],
    ["lab", "race", "--iterations", "0"],
    ["lab", "race", "--policies", "ucb1,exp4"],
    ["lab", "race", "--game", "1,2;3"],
    ["lab", "race", "--game", "1,2|3"],
    ["lab", "race", "--game", "tictactoe"],
    ["lab", "race", "--seed", "-1"],
    ["lab", "depth", "--iterations", "0"],
    ["lab", "depth", "--siege-max", "0"],
    ["lab", "bogus"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a[1:]) for a in BAD])
def test_bad_flags_one_line_nonzero(argv, capsys):
    assert main(argv) != 0
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), cap.err
    assert cap.out == ""


@pytest.mark.skipif(HAVE_DEPTHBIAS, reason="the depthbias game is here")
def test_depth_without_its_game_is_one_line(capsys):
    assert main(["lab", "depth", "--iterations", "10"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "depthbias" in err[0]
