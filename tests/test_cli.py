"""The command line, run as a user runs it (subprocesses with this Python).

Processes run in a temporary folder so that nothing they write (replays)
lands in the checkout."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAIN = str(ROOT / "main.py")
RESULT = re.compile(r"^result: winner=\S+ ranking=\S+ turns=(\d+) final_hash=([0-9a-f]{16})$")
HANG_GUARD_S = 300


def run(args: list[str], cwd: Path, env_drop: tuple[str, ...] = (),
        env_set: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in env_drop}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(env_set or {})
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD_S)


def last_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert lines, "no output"
    return lines[-1]


def assert_one_error_line(p: subprocess.CompletedProcess) -> str:
    assert p.returncode != 0
    err = p.stderr.strip().splitlines()
    assert len(err) == 1, p.stderr
    assert err[0].startswith("error:"), p.stderr
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    return err[0]


@pytest.fixture(scope="module")
def headless_runs(tmp_path_factory):
    """The three headless games the tests below compare (run once)."""
    cwd = tmp_path_factory.mktemp("cli")
    cmd = [MAIN, "--headless", "--turns", "15", "--iterations", "300"]
    return {
        "a": run(cmd + ["--seed", "4"], cwd),
        "b": run(cmd + ["--seed", "4"], cwd),
        "c": run(cmd + ["--seed", "5"], cwd),
    }


def test_headless_play_ends_with_the_result_line(headless_runs):
    p = headless_runs["a"]
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    m = RESULT.match(last_line(p.stdout))
    assert m, last_line(p.stdout)
    assert m.group(1) == "15"


def test_headless_play_is_reproducible(headless_runs):
    a, b = headless_runs["a"], headless_runs["b"]
    assert b.returncode == 0
    assert last_line(a.stdout) == last_line(b.stdout)


def test_another_seed_gives_another_game(headless_runs):
    a, c = headless_runs["a"], headless_runs["c"]
    assert c.returncode == 0
    ha = RESULT.match(last_line(a.stdout)).group(2)
    hc = RESULT.match(last_line(c.stdout)).group(2)
    assert ha != hc


def test_without_a_display_it_says_so_and_plays(tmp_path):
    p = run([MAIN, "--turns", "3", "--iterations", "100"], tmp_path,
            env_drop=("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    assert p.returncode == 0, p.stderr
    note = p.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("note:"), p.stderr
    assert "display" in note[0].lower()
    m = RESULT.match(last_line(p.stdout))
    assert m and m.group(1) == "3"


@pytest.mark.parametrize("args, words", [
    (["--headless", "--bogus"], ["--bogus"]),
    (["no_such_scenario", "--headless"], ["no_such_scenario"]),
    (["--headless", "--iterations", "0"], ["--iterations"]),
    (["--headless", "--iterations", "2000000000"], ["--iterations", "1,000,000,000"]),
    (["--headless", "--ms", "inf"], ["--ms", "600,000"]),
    (["--headless", "--ms", "nan"], ["--ms"]),
    (["--ms", "700000"], ["--ms", "600,000"]),   # the app path, before a window opens
    (["--headless", "--turns", "-1"], ["--turns"]),
    (["--headless", "--seed", "-3"], ["--seed"]),
    (["--headless", "--turns", "abc"], ["--turns"]),
    (["--headless", "--iterations", "5", "--ms", "5"], ["--ms"]),
])
def test_user_errors_are_one_line(tmp_path, args, words):
    p = run([MAIN, *args], tmp_path)
    line = assert_one_error_line(p)
    for w in words:
        assert w in line, line


def test_bad_scenario_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "snakes"\n[game_params]\nwidth = 99\n[[players]]\n[[players]]\n'
                   '[[players]]\n[[players]]\n')
    p = run([MAIN, str(bad), "--headless", "--turns", "1"], tmp_path)
    line = assert_one_error_line(p)
    assert "game_params.width" in line and "bad.toml" in line
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    line = assert_one_error_line(run([MAIN, str(broken), "--headless"], tmp_path))
    assert "broken.toml" in line


def test_module_info(tmp_path):
    p = run(["-m", "sandbox", "info"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("core ")
    assert "game 'snakes': " in p.stdout and "parameters" in p.stdout
    assert "snakes_standard_4p" in p.stdout


def test_module_play_and_bad_command(tmp_path):
    p = run(["-m", "sandbox", "play", "--turns", "2", "--iterations", "50", "--seed", "4",
             "--quiet"], tmp_path)
    assert p.returncode == 0, p.stderr
    m = RESULT.match(last_line(p.stdout))
    assert m and m.group(1) == "2"
    line = assert_one_error_line(run(["-m", "sandbox", "frobnicate"], tmp_path))
    assert "frobnicate" in line


PROFILE = re.compile(r"^frame_ms min=([\d.]+) median=([\d.]+) p95=([\d.]+)$", re.M)
PROFILE_SPEED = re.compile(r"^search_iterations_per_s ui=([\d,]+) headless=([\d,]+) "
                           r"ratio=([\d.]+) \(one match: (\d+) turns with the UI drawing, "
                           r"(\d+) with it idle\)$", re.M)
PROFILE_HEADLESS = re.compile(r"^separate_headless_match iterations_per_s=([\d,]+) turns=(\d+)$",
                              re.M)


def test_profile_frames_reports_frame_times_and_both_search_speeds(tmp_path):
    """--profile-frames runs the app (dummy video driver) with every tree view
    open, alternating with the UI idle in the same match, then a headless
    match; its lines are what the README quotes. No speed is asserted: only
    that each figure is measured and consistent."""
    p = run([MAIN, "--profile-frames", "60", "--iterations", "400", "--no-record"], tmp_path,
            env_set={"SDL_VIDEODRIVER": "dummy"})
    assert p.returncode == 0, p.stderr
    m = PROFILE.search(p.stdout)
    assert m, p.stdout
    lo, med, p95 = (float(x) for x in m.groups())
    assert 0 < lo <= med <= p95
    s = PROFILE_SPEED.search(p.stdout)
    assert s, p.stdout
    ui, headless = (int(x.replace(",", "")) for x in s.groups()[:2])
    assert ui > 0 and headless > 0
    assert abs(float(s.group(3)) - ui / headless) < 0.01
    assert int(s.group(4)) > 0 and int(s.group(5)) > 0   # turns in both modes
    h = PROFILE_HEADLESS.search(p.stdout)
    assert h, p.stdout
    assert int(h.group(1).replace(",", "")) > 0 and int(h.group(2)) >= 3
    assert "budget=400it" in p.stdout


def test_profile_frames_rejects_nonsense(tmp_path):
    assert "--profile-frames" in assert_one_error_line(
        run([MAIN, "--profile-frames", "0"], tmp_path))


CAPPED = """name = "capped"
game = "snakes"
[game_params]
width = 7
height = 7
snakes = 2
[budget]
ms = 0
iterations = 20000
[[players]]
name = "Red"
[players.search]
node_cap = 1024
tree_reuse = false
[[players]]
name = "Blue"
"""


def test_a_full_tree_is_said_on_the_console_and_in_replay_stats(tmp_path):
    """Red's search stops on its node cap every turn (1,024 nodes cannot
    hold 20,000 iterations from a fresh root; without tree reuse no turn
    starts from a kept subtree that might leave more room): the console
    says so once, when it starts, with
    the cap, then sums up; `replay stats` lists the turns."""
    sc = tmp_path / "capped.toml"
    sc.write_text(CAPPED)
    p = run([MAIN, str(sc), "--headless", "--turns", "6", "--replay-dir", str(tmp_path)],
            tmp_path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    full = [x for x in lines if "tree is full" in x]
    assert len(full) == 1, p.stdout
    assert re.match(r"^turn +0: Red's tree is full \(node cap 1,024 nodes per agent tree\): "
                    r"its search stopped after [\d,]+ iterations$", full[0]), full[0]
    assert "tree full (node cap): Red on 6 of 6 turns" in lines
    assert RESULT.match(lines[-1])
    replay = next(tmp_path.glob("*.jsonl"))
    s = run(["-m", "sandbox", "replay", "stats", str(replay)], tmp_path)
    assert s.returncode == 0 and s.stderr == ""
    assert "tree full (node cap 1,024): Red on 6 turns (0-5)" in s.stdout.splitlines()
    assert "Blue on" not in s.stdout


def test_a_string_game_parameter_cannot_smuggle_keys(tmp_path):
    """`ruleset = "standard width=7 max_turns=3"` once changed the board and
    the turn cap with exit 0; now the scenario is refused, naming the field,
    before any match (or replay file) begins."""
    sc = tmp_path / "smuggle.toml"
    sc.write_text('game = "snakes"\n[game_params]\nruleset = "standard width=7 max_turns=3"\n'
                  + "[[players]]\n" * 4)
    for args in ([MAIN, str(sc), "--headless"], ["-m", "sandbox", "play", str(sc)]):
        p = run(args, tmp_path)
        assert p.returncode == 1
        line = assert_one_error_line(p)
        assert line.startswith("error: smuggle.toml: game_params.ruleset: ")
        assert "'standard width=7 max_turns=3'" in line
    assert [x.name for x in tmp_path.iterdir()] == ["smuggle.toml"]


def test_help_says_when_each_entry_records(capsys):
    """main.py's window records by default, its --headless does not: the help
    of --no-record says so there (it said "on by default" for both)."""
    from sandbox.cli import app_main, main as cli_main
    for fn, argv in ((app_main, ["--help"]), (cli_main, ["play", "--help"])):
        with pytest.raises(SystemExit):
            fn(argv)
    out = capsys.readouterr().out
    app_help, play_help = out.split("usage: python -m sandbox play")
    assert "--headless, --screenshot and --profile-frames only with --record" in " ".join(
        app_help.split())
    assert "recording is on by default" in play_help


def test_main_py_takes_set_like_play(tmp_path):
    """main.py accepts --set as `play` does, headless and in the app: a
    5-card goofspiel ends at turn 5 (13 without the change); a replay keeps
    its recorded settings, so --set with --replay is one line."""
    sets = ["--set", "game_params.num_cards=5", "--iterations", "30"]
    p = run([MAIN, "goofspiel_13_duel", "--headless", *sets], tmp_path)
    assert p.returncode == 0, p.stderr
    assert RESULT.match(last_line(p.stdout)).group(1) == "5"
    shot = tmp_path / "shot.png"
    p = run([MAIN, "goofspiel_13_duel", "--screenshot", str(shot), *sets], tmp_path)
    assert p.returncode == 0, p.stderr
    assert "(turn 5)" in p.stdout and shot.is_file(), p.stdout
    line = assert_one_error_line(run([MAIN, "--replay", "x.jsonl", *sets], tmp_path))
    assert "--set" in line and "replay" in line


def test_play_set_changes_the_scenario_and_depth_is_the_turns_simulated(tmp_path):
    """`play --set` reaches the scenario like `series --set`; `depth` is game
    turns simulated per iteration. Oracle: textbook `uct` rolls every
    iteration out to the end of the game, so on 5-card goofspiel its first
    bid looks exactly 5 turns ahead, and the match's mean over bids 5..1 is
    3.0; a Smitsimax cut at max_depth 2 never looks further than 2."""
    p = run(["-m", "sandbox", "play", "goofspiel_13_duel", "--iterations", "200",
             "--no-record", "--set", "game_params.num_cards=5",
             "--set", "players.1.search.algorithm=uct",
             "--set", "players.0.search.max_depth=2"], tmp_path)
    assert p.returncode == 0, p.stderr
    m = RESULT.match(last_line(p.stdout))
    assert m and m.group(1) == "5"
    first = next(ln for ln in p.stdout.splitlines() if ln.startswith("turn    0:"))
    red, blue = re.search(r"depth (\S+)/(\S+)$", first).groups()
    assert float(blue) == 5.0 and 1.0 <= float(red) <= 2.0, first
    summary = next(ln for ln in p.stdout.splitlines() if ln.startswith("search: "))
    assert "Blue 200 iterations a turn, 3.00 turns deep" in summary, summary
    line = assert_one_error_line(run(["-m", "sandbox", "play", "goofspiel_13_duel",
                                      "--set", "game_params.num_cards=99"], tmp_path))
    assert "num_cards" in line
    # GT-CFR's iteration values a whole expansion's leaves: no playout depth
    p = run(["-m", "sandbox", "play", "goofspiel_13_duel", "--iterations", "30", "--turns", "1",
             "--no-record", "--set", "players.0.search.algorithm=gtcfr"], tmp_path)
    assert re.search(r"depth -/13\.0$", p.stdout, re.M), p.stdout
    assert "Red 30 iterations a turn;" in p.stdout, p.stdout
