"""`replay stats`, `export` and `plot` show recorded figures without
re-simulating; what `verify` would catch cheaply (a result line that
contradicts its ranking, NaN or absurd figures) is a `warning:` line on
stderr, and the figures are still shown."""
from __future__ import annotations

import json
import math

import pytest

from sandbox.cli import main
from sandbox.replay import compute_stats, read_replay
from sandbox.replay.checks import MAX_WARNINGS, consistency_warnings


def _damaged(recorded, tmp_path, edit) -> str:
    """A copy of the recorded replay with `edit(lines)` applied to its parsed
    lines (dicts), written back (NaN as JSON's NaN)."""
    path = recorded.copy_to(tmp_path)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    edit(lines)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(path)


def _turn(lines, k):
    return next(x for x in lines if x["type"] == "turn" and x["turn"] == k)


def _result(lines):
    return lines[-1]


def _other_winner(lines):
    r = _result(lines)
    best = r["ranking"].index(0)
    r["winner"] = (best + 1) % len(r["ranking"])


def _tie_with_a_winner(lines):
    r = _result(lines)
    r["ranking"] = [0, 0, 1, 2]
    r["winner"] = 0


def _no_best(lines):
    r = _result(lines)
    r["ranking"] = [1, 2, 3, 3]
    r["winner"] = None


def _rank_outside(lines):
    r = _result(lines)
    r["ranking"] = [0, 1, 2, 9]
    r["winner"] = 0


def _nan_scores(lines):
    for k in (3, 4, 5):
        _turn(lines, k)["scores"][1] = math.nan


def _inf_reward(lines):
    _turn(lines, 2)["rewards"][0] = math.inf


def _negative_iterations(lines):
    _turn(lines, 7)["players"][0]["iterations"] = -200


def _absurd_iterations(lines):
    _turn(lines, 7)["players"][1]["iterations"] = 10**15


def _nan_ms(lines):
    _turn(lines, 1)["players"][2]["search_ms"] = math.nan


def _negative_wall(lines):
    _turn(lines, 1)["players"][2]["wall_ms"] = -3.0


def _search_longer_than_thinking(lines):
    p = _turn(lines, 6)["players"][0]
    p["search_ms"], p["wall_ms"] = 500.0, 20.0


def _revived(lines):
    dead = next(x for x in lines if x["type"] == "turn" and x["eliminated"])
    a = dead["eliminated"][0]
    _turn(lines, dead["turn"] + 1)["alive"][a] = True


def _fewer_turns(lines):
    _result(lines)["turns"] = 3


def _final_hash(lines):
    _result(lines)["final_hash"] = "0123456789abcdef"


def _names(lines):
    _result(lines)["names"][0] = "Impostor"


def _unknown_game(lines):
    lines[0]["game"] = "chess"


def _params_no_longer_parse(lines):
    lines[0]["game_params"] += " width=99"


def _header_only(lines):
    del lines[1:]


def _bad_root(lines):
    _turn(lines, 2)["players"][0]["agents"][0]["root"][0]["prob"] = 7.5


@pytest.mark.parametrize("edit, words", [
    (_other_winner, ["result line: winner is agent", "but its ranking", "first"]),
    (_tie_with_a_winner, ["winner is agent 0", "agents 0, 1 (a tie) first"]),
    (_no_best, ["ranks no agent first"]),
    (_rank_outside, ["agent 3 ranked 9, outside 0..3"]),
    (_nan_scores, ["turn 3: scores of agent 1 is nan", "(and 2 more turns)"]),
    (_inf_reward, ["turn 2: rewards of agent 0 is inf"]),
    (_negative_iterations, ["turn 7: player 0: iterations -200 is absurd"]),
    (_absurd_iterations, ["turn 7: player 1: iterations 1000000000000000 is absurd"]),
    (_nan_ms, ["turn 1: player 2: search_ms is nan"]),
    (_negative_wall, ["turn 1: player 2: wall_ms is -3.0"]),
    (_search_longer_than_thinking, ["turn 6: player 0: search_ms 500 exceeds", "wall_ms 20"]),
    (_revived, ["alive again after being out"]),
    (_fewer_turns, ["result line: 3 turns, but the turn lines end after turn"]),
    (_final_hash, ["final hash 0123456789abcdef is not turn"]),
    (_names, ["result line: names", "Impostor", "differ from the header's"]),
    (_bad_root, ["turn 2: player 0: agent 0's root move", "prob 7.5"]),
    (_unknown_game, ["cannot rebuild the game: unknown game kind 'chess'"]),
    (_params_no_longer_parse, ["cannot rebuild the game: width"]),
    (_header_only, ["no turn is recorded"]),
], ids=lambda x: x.__name__.strip("_") if callable(x) else None)
def test_stats_export_and_plot_warn_and_still_show_the_figures(recorded, tmp_path, capsys,
                                                              edit, words):
    path = _damaged(recorded, tmp_path, edit)
    for args in (["stats"], ["stats", "--json"], ["export", "--csv", str(tmp_path / "x.csv")],
                 ["plot", "--png", str(tmp_path / "x.png"), "--size", "400x300"]):
        assert main(["replay", args[0], path, *args[1:]]) == 0, args
        out, err = capsys.readouterr()
        warnings = err.splitlines()
        assert len(warnings) == 1, err
        assert warnings[0].startswith(f"warning: {path}: "), err
        for w in words:
            assert w in warnings[0], warnings[0]
        assert out.strip(), args                        # the figures are still there
    assert (tmp_path / "x.csv").exists() and (tmp_path / "x.png").exists()
    st = json.loads(main(["replay", "stats", path, "--json"]) == 0 and capsys.readouterr().out)
    assert len(st["warnings"]) == 1


def test_an_intact_replay_has_no_warnings(recorded, capsys):
    assert consistency_warnings(read_replay(recorded.path)) == []
    assert main(["replay", "stats", str(recorded.path)]) == 0
    assert capsys.readouterr().err == ""


def test_many_kinds_of_problem_are_summed_up(recorded, tmp_path):
    def everything(lines):
        for f in (_other_winner, _nan_scores, _inf_reward, _negative_iterations, _nan_ms,
                  _negative_wall, _revived, _final_hash, _names, _bad_root):
            f(lines)
    path = _damaged(recorded, tmp_path, everything)
    ws = compute_stats(read_replay(path)).warnings
    assert len(ws) == MAX_WARNINGS and ws[-1].endswith("more kinds of problem")


def test_verify_still_fails_where_the_hashes_tell(recorded, tmp_path, capsys):
    """A final hash that contradicts the turns is a warning for stats and an
    error for verify (which re-simulates)."""
    path = _damaged(recorded, tmp_path, _final_hash)
    assert main(["replay", "verify", path]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "result line" in err[0]


def test_a_winner_edited_with_its_ranking_is_caught_by_stats(recorded, tmp_path, capsys):
    """Winner and ranking edited together agree with each other: stats
    printed them without a word (verify refused the file). Stats now plays
    the recorded moves to the end and compares the game's own ranking."""
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    result = json.loads(lines[-1])
    assert result["type"] == "result"
    n = len(result["ranking"])
    loser = max(range(n), key=lambda a: result["ranking"][a])
    result["ranking"] = [0 if a == loser else 1 for a in range(n)]
    result["winner"] = loser
    lines[-1] = json.dumps(result).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", "stats", str(path)]) == 0
    err = capsys.readouterr().err
    assert "the recorded moves, played again" in err and "was edited" in err, err
    assert main(["replay", "verify", str(path)]) == 1
