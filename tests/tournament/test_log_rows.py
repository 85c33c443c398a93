"""A results log that was edited or damaged is refused on resume with one
line naming the file and line (rows with scores [7.0, -3.0] or [0.5, "x"]
once raised a bare ValueError / TypeError mid-table); a disk that fills
mid-run ends the command with one line, no traceback from closing the log."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.tournament.log import row_problem

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["tournament", "goofspiel_13_duel", "--agents", "random", "greedy", "--games", "4",
        "--iterations", "20", "--workers", "0", "--quiet"]


@pytest.mark.parametrize("scores, words", [([7.0, -3.0], "in 0..1"), ([0.5, "x"], "in 0..1"),
                                           ([0.5], "one per seat"), ("1,0", "one per seat"),
                                           ([float("nan"), 1.0], "in 0..1")])
def test_edited_scores_are_named_on_resume(tmp_path, capsys, scores, words):
    out = tmp_path / "t"
    assert main(ARGS + ["--out", str(out)]) == 0
    capsys.readouterr()
    log = out / "results.jsonl"
    lines = log.read_text().splitlines()
    row = json.loads(lines[2])
    row["scores"] = scores
    lines[2] = json.dumps(row)
    log.write_text("\n".join(lines) + "\n")
    assert main(ARGS + ["--out", str(out)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{log}: line 3: game " in err[0] and words in err[0], err


def test_row_problem_accepts_what_the_runner_writes():
    good = {"type": "game", "key": "0-1/3/1", "entrants": [1, 0], "seed": 3,
            "scores": [1.0, 0.0], "turns": 13, "ranking": [0, 1], "seconds": 0.1,
            "cpu_seconds": 0.1}
    assert row_problem(good) is None
    assert "turns" in row_problem({**good, "turns": -1})
    assert "entrants" in row_problem({**good, "entrants": [True, 0]})
    assert "key" in row_problem({**good, "key": 3})


@pytest.mark.parametrize("command", ["tournament", "sweep"])
def test_a_full_disk_mid_run_is_one_line(small_tmpfs, tmp_path, command):
    args = (ARGS[:5] + ["--games", "400", "--iterations", "5", "--workers", "0"]
            if command == "tournament" else
            ["sweep", "goofspiel_13_duel", "--param", "c=0.5,1,2", "--vs", "random",
             "--games", "400", "--iterations", "5", "--workers", "0"])
    mnt = small_tmpfs(8)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "sandbox", *args, "--out", str(mnt / "o")],
                       capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr, p.stderr
    errs = [ln for ln in p.stderr.splitlines() if ln.startswith("error:")]
    assert len(errs) == 1 and "No space left on device" in errs[0], p.stderr
    rows = (mnt / "o" / "results.jsonl").read_text().splitlines()
    assert all(json.loads(r) for r in rows)          # whole lines only


def test_a_tournament_is_extended_by_the_games_it_lacks(tmp_path, capsys):
    """--games 4 after --games 2 on the same folder plays the two missing
    games (it was refused as "another tournament")."""
    out = tmp_path / "t"
    args = [a for a in ARGS if a != "--quiet"]
    i = args.index("--games")
    assert main(args[:i + 1] + ["2"] + args[i + 2:] + ["--out", str(out), "--json"]) == 0
    capsys.readouterr()
    log = out / "results.jsonl"
    assert len(log.read_text().splitlines()) == 1 + 2
    assert main(args + ["--out", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 4
    assert len(log.read_text().splitlines()) == 1 + 4      # two new rows, none repeated
    keys = [json.loads(x)["key"] for x in log.read_text().splitlines()[1:]]
    assert len(set(keys)) == 4
