"""The bad-input corpus under tests/data, through the command line.

scenarios_bad/: malformed scenarios; `python main.py FILE --headless` and
`python -m sandbox play FILE` must each end with one `error: ...` line on
stderr holding the fragments EXPECTED.toml lists for the file, and a non-zero
status. replays_bad/: damaged replays (written by tools/make_bad_replays.py);
`python -m sandbox replay verify|stats FILE` must do what EXPECTED.toml says:
non-zero with one `error:` line where the file cannot be used, zero with
`warning:` lines where it can, never a traceback.

Every file goes through both entry functions in this process (main.py and
`python -m sandbox` are a single call of them: sandbox.cli.app_main and
sandbox.cli.main); a sample also runs as real processes, as a user runs them,
so that the ~150 cases cost seconds rather than a minute of interpreter
start-ups.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sandbox.cli import app_main, main
from sandbox.games import kinds

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SCENARIOS = DATA / "scenarios_bad"
REPLAYS = DATA / "replays_bad"
SCENARIO_EXPECTED = tomllib.loads((SCENARIOS / "EXPECTED.toml").read_text(encoding="utf-8"))
REPLAY_EXPECTED = tomllib.loads((REPLAYS / "EXPECTED.toml").read_text(encoding="utf-8"))


def check_error(rc: int, out: str, err: str, fragments: list[str], name: str) -> str:
    assert rc != 0, (name, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err + out
    assert name in lines[0], lines[0]                  # the message names the file
    for f in fragments:
        assert f in lines[0], f"{f!r} not in {lines[0]!r}"
    return lines[0]


def check_replay(rc: int, out: str, err: str, want: dict, path: str) -> None:
    """exit status; warning lines first, then at most one error line; each
    fragment where EXPECTED.toml puts it."""
    assert "Traceback" not in err + out
    assert rc == want["exit"], (rc, out, err)
    lines = err.splitlines()
    warnings = [x for x in lines if x.startswith("warning: ")]
    errors = [x for x in lines if x.startswith("error: ")]
    assert len(warnings) + len(errors) == len(lines), err          # nothing else on stderr
    for x in warnings + errors:
        assert x.split(": ", 1)[1].startswith(path), x              # each line names the file
    if want["exit"] == 0:
        assert errors == [] and out.strip(), err
        if "out" in want:
            assert out.startswith(f"ok: {path}: ") and want["out"] in out, out
    else:
        assert len(errors) == 1 and lines[-1] == errors[0], err
        assert want["error"] in errors[0], f"{want['error']!r} not in {errors[0]!r}"
    fragments = want.get("warnings", [])
    if not fragments:
        assert warnings == [], err
    for f in fragments:
        assert any(f in w for w in warnings), f"{f!r} in none of {warnings}"


# ------------------------------------------------------------------ scenarios
def test_the_scenario_corpus_is_whole():
    files = {p.name for p in SCENARIOS.iterdir() if p.name != "EXPECTED.toml"}
    assert files == set(SCENARIO_EXPECTED), "every file needs expectations, and vice versa"
    assert len(files) >= 30
    for kind in kinds():        # a new game adds its own malformed scenarios
        assert sum(n.startswith(f"{kind}_") for n in files) >= 3, kind


@pytest.mark.parametrize("name", sorted(SCENARIO_EXPECTED))
def test_bad_scenario_is_one_error_line(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)         # nothing a run might write lands in the checkout
    path = str(SCENARIOS / name)
    fragments = SCENARIO_EXPECTED[name]
    rc = app_main([path, "--headless", "--turns", "1", "--iterations", "10"])
    out, err = capsys.readouterr()
    check_error(rc, out, err, fragments, name)
    rc = main(["play", path, "--turns", "1", "--iterations", "10"])
    out, err = capsys.readouterr()
    check_error(rc, out, err, fragments, name)
    assert list(tmp_path.iterdir()) == []           # no replay of a match that never began


# -------------------------------------------------------------------- replays
def test_the_replay_corpus_is_whole():
    files = {p.name for p in REPLAYS.iterdir() if p.name != "EXPECTED.toml"}
    assert files == set(REPLAY_EXPECTED)
    assert len(files) >= 15
    games = {v["game"] for v in REPLAY_EXPECTED.values()}
    assert games >= set(kinds()), "a new game adds damaged replays of its own"


@pytest.mark.parametrize("name", sorted(REPLAY_EXPECTED))
@pytest.mark.parametrize("action", ["verify", "stats"])
def test_damaged_replay(name, action, capsys):
    path = str(REPLAYS / name)
    rc = main(["replay", action, path])
    out, err = capsys.readouterr()
    check_replay(rc, out, err, REPLAY_EXPECTED[name][action], path)


# ------------------------------------------------------- as real processes
def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("name", ["snakes_ruleset_smuggles_keys.toml", "any_deep_arrays.toml",
                                  "any_non_utf8.toml", "any_directory.toml",
                                  "matrix_rows_of_unequal_length.toml"])
def test_bad_scenarios_as_a_user_runs_them(name, tmp_path):
    path = str(SCENARIOS / name)
    p = run([str(ROOT / "main.py"), path, "--headless"], tmp_path)
    check_error(p.returncode, p.stdout, p.stderr, SCENARIO_EXPECTED[name], name)
    p = run(["-m", "sandbox", "play", path], tmp_path)
    check_error(p.returncode, p.stdout, p.stderr, SCENARIO_EXPECTED[name], name)


@pytest.mark.parametrize("name, action", [("deep_json_header.jsonl", "verify"),
                                          ("torn_last_line.jsonl", "verify"),
                                          ("nan_scores.jsonl", "stats"),
                                          ("wrong_hash.jsonl", "verify")])
def test_damaged_replays_as_a_user_runs_them(name, action, tmp_path):
    path = str(REPLAYS / name)
    p = run(["-m", "sandbox", "replay", action, path], tmp_path)
    check_replay(p.returncode, p.stdout, p.stderr, REPLAY_EXPECTED[name][action], path)
