"""`python -m sandbox strength --ladder`: each agent against itself on a
quarter of the budget, at every rung; the bigger budget really is the
agent's (its iterations per turn), seats exchanged on paired seeds, a
Markdown section and a chart, resumed logs, and every bad input as one
line. Tiny budgets only: the real ladders are a command, not a test."""
import json

import pytest

from sandbox.cli import main

SMALL = ["--only", "goofspiel13-descending", "--workers", "0", "--games", "4"]


def run(capsys, tmp_path, *argv):
    code = main(["strength", "--ladder", *SMALL, "--out", str(tmp_path / "logs"), *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_steps_are_the_agent_against_itself_on_less(tmp_path, capsys):
    md, png = tmp_path / "strength.md", tmp_path / "ladder.png"
    data = json.loads(run(capsys, tmp_path, "--ladder-iterations", "20,80,320",
                          "--ladder-ms", "1,4", "--json", "--markdown", str(md),
                          "--section", "Budget ladders", "--png", str(png)))
    steps = data["steps"]
    assert [(s["agent"], s["opponent"], s["budget"]) for s in steps] == [
        ("default", "default", {"iterations": 80, "opponent": {"iterations": 20}}),
        ("default", "default", {"iterations": 320, "opponent": {"iterations": 80}}),
        ("default", "default", {"ms": 4.0, "opponent": {"ms": 1.0}})]
    # the bigger budget is the agent's own, the smaller its opponent's
    assert (steps[0]["agent_iterations_per_turn"], steps[0]["opponent_iterations_per_turn"]) \
        == (80, 20)
    assert (steps[1]["agent_iterations_per_turn"], steps[1]["opponent_iterations_per_turn"]) \
        == (320, 80)
    assert [s["think"] for s in steps] == ["together", "together", "in_turn"]
    for s in steps:
        assert s["games"] == 4
        seats = {}
        for g in s["per_game"]:
            seats.setdefault(g["seed"], set()).add(g["seat"])
        assert seats == {1: {0, 1}, 2: {0, 1}}
    text = md.read_text()
    assert "## Budget ladders" in text and "on a quarter of it" in text
    rows = [r for r in text.splitlines() if r.startswith("| goofspiel 13")]
    assert len(rows) == 3 and "| 80 it vs 20 it |" in rows[0] and "| 4 ms vs 1 ms |" in rows[2]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # a second run finds every game in the logs and plays none
    again = json.loads(run(capsys, tmp_path, "--ladder-iterations", "20,80,320",
                           "--ladder-ms", "1,4", "--json"))
    assert again["games_from_logs"] == 12
    assert [s["per_game"] for s in again["steps"]] == [s["per_game"] for s in steps]


def test_a_step_other_than_four_times_says_so(tmp_path, capsys):
    """The legend names the smaller budget as a quarter only when every step
    is 4x: a 10 -> 80 step is an eighth."""
    md = tmp_path / "strength.md"
    run(capsys, tmp_path, "--ladder-iterations", "10,80", "--ladder-ms", "0", "--games", "2",
        "--markdown", str(md), "--section", "Budget ladders")
    text = md.read_text()
    assert "quarter" not in text and "on the smaller budget of its step" in text


def test_every_algorithm_rows(tmp_path, capsys):
    data = json.loads(run(capsys, tmp_path, "--ladder-iterations", "10,20", "--ladder-ms", "0",
                          "--every-algorithm", "--no-default", "--games", "2", "--json"))
    agents = [s["agent"] for s in data["steps"]]
    plays = {s["agent_plays"] for s in data["steps"]}
    assert len(agents) == 6 and "uct" in agents
    assert {"smitsimax", "suct/ucb1_tuned", "joint", "mcgs", "gtcfr", "uct"} <= plays | {
        p.split("/")[0] for p in plays}


@pytest.mark.parametrize("argv, words", [
    (["--ladder-iterations", "100"], ["--ladder-iterations", "two budgets"]),
    (["--ladder-iterations", "400,100"], ["--ladder-iterations", "rising"]),
    (["--ladder-iterations", "a,b"], ["--ladder-iterations", "numbers"]),
    (["--ladder-ms", "5,-20"], ["--ladder-ms", "rising"]),
    (["--ladder-iterations", "0", "--ladder-ms", "0"], ["no step"]),
    (["--opponents", "uct"], ["--opponents"]),
    (["--png", "chart.jpg"], ["PNG"]),
])
def test_bad_input_is_one_line(argv, words, tmp_path, capsys):
    code = main(["strength", "--ladder", *SMALL, "--out", str(tmp_path / "logs"), *argv])
    out, err = capsys.readouterr()
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for w in words:
        assert w in lines[0], lines[0]
    assert not (tmp_path / "logs").exists()
