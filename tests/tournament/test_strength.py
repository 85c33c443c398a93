"""`python -m sandbox strength`: the table's cells, paired seeds with seats
exchanged, the interval recomputed from the games, resumed logs, and every
bad input as one line. Small runs only (opponents that exist on every
build: random, suct); the full table is a command, not a test."""
import argparse
import json
import math
import statistics

import pytest

from sandbox.cli import main
from sandbox.config import load_scenario
from sandbox.tournament.agents import BUILTIN, builtin_entrant
from sandbox.tournament.strength import SCENARIOS, Cell, add_strength_args, make_cells

Z95 = 1.959963984540054
SMALL = ["--only", "goofspiel13-descending", "--opponents", "random,suct", "--workers", "0"]


def run(capsys, tmp_path, *argv):
    code = main(["strength", "--quick", *SMALL, "--out", str(tmp_path / "logs"), *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def interval(group_means):
    m = statistics.fmean(group_means)
    half = Z95 * statistics.stdev(group_means) / math.sqrt(len(group_means))
    return max(0.0, m - half), min(1.0, m + half)


def test_the_cells_seats_and_intervals(tmp_path, capsys):
    md = tmp_path / "strength.md"
    data = json.loads(run(capsys, tmp_path, "--games", "4", "--iterations", "60", "--ms", "1",
                          "--json", "--markdown", str(md)))
    cells = data["cells"]
    # one scenario x the seat-0 player x two opponents x two budgets
    assert [(c["scenario"], c["agent"], c["opponent"], c["budget"]) for c in cells] == [
        ("goofspiel13-descending", "default", "random", {"iterations": 60}),
        ("goofspiel13-descending", "default", "random", {"ms": 1.0}),
        ("goofspiel13-descending", "default", "suct", {"iterations": 60}),
        ("goofspiel13-descending", "default", "suct", {"ms": 1.0})]
    assert [c["think"] for c in cells] == ["together", "in_turn"] * 2
    assert "strength" in data["command"] and "--games 4" in data["command"]
    for c in cells:
        games = c["per_game"]
        assert c["games"] == len(games) == 4
        # two seeds, each played once from each seat
        by_seed = {}
        for g in games:
            by_seed.setdefault(g["seed"], []).append(g)
        assert sorted(by_seed) == [1, 2]
        for pair in by_seed.values():
            assert sorted(g["seat"] for g in pair) == [0, 1]
        scores = [g["score"] for g in games]
        assert c["score"] == pytest.approx(statistics.fmean(scores), abs=1e-4)
        assert (c["wins"], c["draws"], c["losses"]) == (
            scores.count(1.0), sum(0 < s < 1 for s in scores), scores.count(0.0))
        lo, hi = interval([statistics.fmean(g["score"] for g in pair)
                           for pair in by_seed.values()])
        assert c["ci95"] == [pytest.approx(lo, abs=1e-4), pytest.approx(hi, abs=1e-4)]
        if c["budget"] == {"iterations": 60}:
            assert c["agent_iterations_per_turn"] == 60
        if c["opponent"] == "random":
            assert c["opponent_iterations_per_turn"] is None
    # the Markdown table: how it was made, and a row per cell
    text = md.read_text()
    assert text.startswith("# Strength table")
    for word in ("- machine:", "- date:", "- regenerate: `python -m sandbox strength --quick"):
        assert word in text
    rows = [r for r in text.splitlines() if r.startswith("| goofspiel 13")]
    assert len(rows) == 4
    for r, c in zip(rows, cells):
        assert f"| {c['games']} | {c['score']:.3f} |" in r
        lo, hi = c["ci95"]
        assert f"[{lo:.3f}, {hi:.3f}]" in r


def test_the_games_of_a_seed_are_mirror_images(tmp_path, capsys):
    """At equal iterations a game is a function of its seed and seating: the
    agent against a copy of itself scores, from seat 0, one minus what it
    scores from seat 1 on the same seed (without the exchange the two games
    of a seed would be one game twice)."""
    data = json.loads(run(capsys, tmp_path, "--games", "4", "--iterations", "60", "--ms", "0",
                          "--opponents", "smitsimax", "--agent", "smitsimax", "--json"))
    default, cell = data["cells"]
    assert (cell["agent"], cell["opponent"]) == ("smitsimax", "smitsimax")
    by_seed = {}
    for g in cell["per_game"]:
        by_seed.setdefault(g["seed"], {})[g["seat"]] = g["score"]
    for seats in by_seed.values():
        assert seats[0] + seats[1] == 1.0


def test_jobs_exchange_seats_and_vary_the_map():
    maze = next(t for t in SCENARIOS if t.key == "maze-duel")
    sc = load_scenario(maze.scenario)
    from sandbox.config import Budget
    from sandbox.tournament.strength import default_entrant
    cell = Cell(maze, sc, default_entrant(sc), builtin_entrant("random"),
                Budget(iterations=50, ms=0), games=6, seed=5)
    jobs = cell.jobs()
    assert [j.seed for j in jobs] == [5, 5, 6, 6, 7, 7]
    assert [j.entrants for j in jobs] == [(0, 1), (1, 0)] * 3
    for j in jobs:
        players = j.scenario["players"]
        agent_seat = j.entrants.index(0)
        assert players[agent_seat]["search"]["algorithm"] == "mcgs"     # the seat-0 player's
        assert players[1 - agent_seat]["controller"] == "random"
        assert j.scenario["game_params"]["maze_seed"] == j.seed        # a maze per seed
        assert (j.scenario["budget"]["iterations"], j.scenario["budget"]["ms"]) == (50, 0)
        assert "budget" not in players[0] or players[0]["budget"] is None


def test_agent_rows_and_their_budget_set_aside(tmp_path, capsys):
    f = tmp_path / "deep.toml"
    f.write_text('name = "deep"\n[search]\nmax_depth = 13\nc = 2.0\n'
                 '[budget]\niterations = 5000\nms = 0\n')
    data = json.loads(run(capsys, tmp_path, "--games", "2", "--iterations", "40", "--ms", "0",
                          "--opponents", "random", "--agent", str(f), "--agent", "greedy",
                          "--agent", "greedy", "--json"))
    assert [(c["agent"], c["agent_plays"]) for c in data["cells"]] == [
        ("default", "smitsimax/ucb1_tuned"), ("deep", "smitsimax"), ("greedy", "greedy"),
        ("greedy#2", "greedy")]
    logs = sorted(x.name for x in (tmp_path / "logs" / "goofspiel13-descending").iterdir())
    assert len(logs) == 4 and "greedy_2-vs-random-it40.jsonl" in logs
    # both sides on the table's budget, not the file's 5,000
    assert data["cells"][1]["agent_iterations_per_turn"] == 40


def test_no_default_plays_only_the_agent_rows(tmp_path, capsys):
    data = json.loads(run(capsys, tmp_path, "--games", "2", "--iterations", "40", "--ms", "0",
                          "--opponents", "random", "--agent", "greedy", "--no-default",
                          "--json"))
    assert [(c["agent"], c["opponent"]) for c in data["cells"]] == [("greedy", "random")]
    logs = [x.name for x in (tmp_path / "logs" / "goofspiel13-descending").iterdir()]
    assert logs == ["greedy-vs-random-it40.jsonl"]


def test_opponent_iterations_make_unequal_cells(tmp_path, capsys):
    """--opponent-iterations: the iterations cells give the opponent its own
    budget (logged under their own name), the wall-time cells stay equal."""
    data = json.loads(run(capsys, tmp_path, "--games", "2", "--iterations", "80", "--ms", "1",
                          "--opponent-iterations", "20", "--opponents", "uct", "--json"))
    by = {c["budget"]["iterations"] if "iterations" in c["budget"] else "ms": c
          for c in data["cells"]}
    assert by[80]["budget"]["opponent"] == {"iterations": 20}
    assert by[80]["agent_iterations_per_turn"] == 80
    assert by[80]["opponent_iterations_per_turn"] == 20
    assert "opponent" not in by["ms"]["budget"]
    logs = sorted(x.name for x in (tmp_path / "logs" / "goofspiel13-descending").iterdir())
    assert "default-vs-uct-it80-vs-it20.jsonl" in logs


def test_text_table_and_resume(tmp_path, capsys):
    args = ["--games", "2", "--iterations", "40", "--ms", "0", "--opponents", "random"]
    out = run(capsys, tmp_path, *args)
    lines = out.splitlines()
    assert lines[0].startswith("strength: 1 cells")
    assert lines[1].split()[:4] == ["scenario", "agent", "opponent", "budget"]
    assert lines[2].split()[:5] == ["goofspiel13-descending", "default", "(smitsimax/ucb1_tuned)",
                                    "random", "40"]
    log = tmp_path / "logs" / "goofspiel13-descending" / "default-vs-random-it40.jsonl"
    assert len(log.read_text().splitlines()) == 3         # the header and two games
    again = run(capsys, tmp_path, *args)
    assert again.splitlines()[1:] == lines[1:]            # (the first line has the time)
    assert "2 of 2 games from the logs" in again.splitlines()[0]
    assert len(log.read_text().splitlines()) == 3         # nothing played again
    data = json.loads(run(capsys, tmp_path, *args[2:], "--games", "4", "--json"))
    assert data["cells"][0]["games"] == 4                 # more games extend the log
    assert data["games_from_logs"] == 2
    assert len(log.read_text().splitlines()) == 5


@pytest.mark.parametrize("argv, words", [
    (["--only", "no_such_scenario"], ["--only no_such_scenario", "goofspiel13-descending"]),
    (["--only", "snakes_standard_4p"], ["two-player"]),
    (["--games", "0"], ["--games", "even"]),
    (["--games", "3"], ["--games", "even"]),
    (["--games", "x"], ["--games"]),
    (["--opponents", "random,nobody"], ["--opponents nobody"]),
    (["--opponents", "random,,suct"], ["--opponents"]),
    (["--opponents", "random,random"], ["twice"]),
    (["--agent", "nobody"], ["--agent nobody"]),
    (["--agent", "bot"], ["bot"]),
    (["--iterations", "0", "--ms", "0"], ["no budget"]),
    (["--iterations", "-5"], ["--iterations"]),
    (["--ms", "nan"], ["--ms"]),
    (["--seed", "-1"], ["--seed"]),
    (["--workers", "999"], ["--workers"]),
    (["--markdown", "/no/such/folder/s.md"], ["--markdown"]),
    (["--no-default"], ["--no-default", "--agent"]),
    (["--opponent-iterations", "0"], ["--opponent-iterations", "1.."]),
    (["--iterations", "0", "--opponent-iterations", "5"], ["--opponent-iterations", "0"]),
    (["--ladder", "--opponent-iterations", "5"], ["--ladder", "--opponent-iterations"]),
])
def test_bad_input_is_one_line(argv, words, tmp_path, capsys):
    code = main(["strength", "--quick", *SMALL, "--out", str(tmp_path / "logs"), *argv])
    out, err = capsys.readouterr()
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for w in words:
        assert w in lines[0], lines[0]
    assert not (tmp_path / "logs").exists()               # refused before any game


def test_default_yardsticks_are_built_in_or_one_line(capsys, monkeypatch):
    from sandbox.tournament import strength
    assert set(strength.YARDSTICKS) <= set(BUILTIN)
    monkeypatch.setattr(strength, "YARDSTICKS", ("nobody", "random"))
    code = main(["strength", "--quick", "--only", "goofspiel13-descending"])
    _, err = capsys.readouterr()
    assert code != 0 and err.count("\n") == 1 and "--opponents" in err and "nobody" in err


def test_every_table_scenario_is_two_players():
    parser = argparse.ArgumentParser()
    add_strength_args(parser)
    cells = make_cells(parser.parse_args(["--quick", "--opponents", "random"]))
    assert {c.table.key for c in cells} == {t.key for t in SCENARIOS}
    assert all(len(c.scenario.players) == 2 for c in cells)
    assert len(cells) == len(SCENARIOS) * 2          # two budgets


def test_equal_time_games_think_in_turn():
    """The ms cells' jobs ask for think="in_turn", and play_job hands the
    job's think to its Match (a bad mode is the Match's own error)."""
    import dataclasses

    from sandbox.config import Budget
    from sandbox.native import InvalidArgument
    from sandbox.tournament.jobs import play_job
    from sandbox.tournament.strength import default_entrant
    t = SCENARIOS[0]
    sc = load_scenario(t.scenario)
    ms = Cell(t, sc, default_entrant(sc), builtin_entrant("random"), Budget(ms=1), games=2)
    its = Cell(t, sc, default_entrant(sc), builtin_entrant("random"),
               Budget(iterations=20, ms=0), games=2)
    assert {j.think for j in ms.jobs()} == {"in_turn"}
    assert {j.think for j in its.jobs()} == {"together"}
    row = play_job(its.jobs()[0])
    assert row["iterations"][0] == 20 * row["search_turns"][0] and row["iterations"][1] == 0
    with pytest.raises(InvalidArgument, match="think"):
        play_job(dataclasses.replace(ms.jobs()[0], think="sideways"))


# --------------------------------------------------- docs/strength.md's sections
DOC = """# Strength table

Intro written by hand.

## Goofspiel, both orders

- machine: old
- regenerate: `old command`

| scenario | agent |
|---|---|
| old row | x |

Notes on the goofspiel table, kept.

## Exploitability

| search | mean |
|---|---:|
| uniform random | 1.500 |
"""


def test_a_section_is_replaced_and_the_rest_kept():
    from sandbox.tournament.strength import put_section
    table = "- machine: new\n\n| scenario | agent |\n|---|---|\n| new row | y |\n"
    text = put_section(DOC, "Goofspiel, both orders", table)
    assert "old row" not in text and "old command" not in text
    assert text.count("| new row | y |") == 1
    # the introduction, the notes below the replaced table and the next section, unchanged
    assert text.startswith("# Strength table\n\nIntro written by hand.\n\n## Goofspiel, both "
                           "orders\n\n- machine: new\n")
    assert "| new row | y |\n\nNotes on the goofspiel table, kept.\n\n## Exploitability\n" in text
    assert text.endswith("| uniform random | 1.500 |\n")
    assert text.count("## ") == 2
    # writing it again changes nothing (the notes are not doubled)
    assert put_section(text, "Goofspiel, both orders", table) == text


def test_notes_written_flush_under_a_table_get_their_blank_line():
    """A note typed right under the table's last row would render as one more
    row (Markdown tables end at a blank line), so rewriting the section puts
    the blank line back."""
    from sandbox.tournament.strength import put_section
    flush = DOC.replace("| old row | x |\n\nNotes", "| old row | x |\nNotes")
    table = "| scenario | agent |\n|---|---|\n| new row | y |\n"
    text = put_section(flush, "Goofspiel, both orders", table)
    assert "| new row | y |\n\nNotes on the goofspiel table, kept.\n" in text


def test_a_new_section_goes_at_the_end_and_a_new_file_gets_the_introduction():
    from sandbox.tournament.strength import INTRO, put_section
    table = "| a |\n|---|\n| 1 |\n"
    text = put_section(DOC, "Another", table)
    assert text.startswith(DOC) and text.endswith("\n\n## Another\n\n| a |\n|---|\n| 1 |\n")
    assert put_section(None, "Another", table) == INTRO + "\n## Another\n\n" + table
    assert put_section("", "Another", table) == INTRO + "\n## Another\n\n" + table


def test_the_command_writes_a_section(tmp_path, capsys):
    md = tmp_path / "strength.md"
    md.write_text(DOC)
    run(capsys, tmp_path, "--games", "2", "--iterations", "40", "--ms", "0",
        "--opponents", "random", "--markdown", str(md), "--section", "Goofspiel, both orders")
    text = md.read_text()
    assert "old row" not in text and "Notes on the goofspiel table, kept." in text
    assert text.endswith("| uniform random | 1.500 |\n")
    rows = [r for r in text.splitlines() if r.startswith("| goofspiel 13")]
    assert len(rows) == 1 and "| random | 40 it | 2 |" in rows[0]
    assert "--section 'Goofspiel, both orders'" in text       # the regenerating command


@pytest.mark.parametrize("argv, words", [
    (["--section", "Goofspiel"], ["--section", "--markdown"]),
    (["--markdown", "MD", "--section", " "], ["--section"]),
    (["--markdown", "MD", "--section", "## Goofspiel"], ["--section", "#"]),
])
def test_bad_section_is_one_line(argv, words, tmp_path, capsys):
    argv = [str(tmp_path / "s.md") if a == "MD" else a for a in argv]
    code = main(["strength", "--quick", *SMALL, "--out", str(tmp_path / "logs"), *argv])
    out, err = capsys.readouterr()
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for w in words:
        assert w in lines[0], lines[0]
    assert not (tmp_path / "logs").exists() and not (tmp_path / "s.md").exists()
