"""verify() and `replay verify`: re-simulation catches any tampering at the
turn where it happened."""
from __future__ import annotations

import json

from sandbox.cli import main
from sandbox.native import Game
from sandbox.replay import read_replay, verify


def _tamper(recorded, tmp_path, line_no: int, edit) -> object:
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().split(b"\n")
    obj = json.loads(lines[line_no])
    edit(obj)
    lines[line_no] = json.dumps(obj).encode()
    path.write_bytes(b"\n".join(lines))
    return path


def _other_legal_move(recorded, turn: int, agent: int) -> int:
    h = read_replay(recorded.path).header
    with Game(h.game, h.game_params, seed=h.seed) as g:
        for rec in recorded.history[:turn]:
            g.step(rec.joint)
        legal = g.legal_moves(agent)
    played = recorded.history[turn].joint[agent]
    return next(m for m in legal if m != played)


def test_tampered_move(recorded, tmp_path, capsys):
    turn, agent = 12, 0
    move = _other_legal_move(recorded, turn, agent)

    def edit(obj):
        obj["joint"][agent] = move
    path = _tamper(recorded, tmp_path, turn + 1, edit)
    report = verify(read_replay(path))
    assert not report.ok and report.first_divergence == turn and report.turns_checked == turn
    assert report.problem == "hash" and f"turn {turn}: state hash differs" in report.message

    capsys.readouterr()
    assert main(["replay", "verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: turn {turn}: state hash")


def test_illegal_move(recorded, tmp_path):
    def edit(obj):
        obj["joint"][1] = 9
    path = _tamper(recorded, tmp_path, 8, edit)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "illegal" and report.first_divergence == 7
    assert "move 9 is not legal" in report.message


def test_tampered_hash(recorded, tmp_path):
    def edit(obj):
        obj["hash"] = "0123456789abcdef"
    path = _tamper(recorded, tmp_path, 41, edit)
    report = verify(read_replay(path))
    assert not report.ok and report.first_divergence == 40 and report.recorded == "0123456789abcdef"


def test_tampered_seed(recorded, tmp_path):
    def edit(obj):
        obj["seed"] += 1
    path = _tamper(recorded, tmp_path, 0, edit)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "initial" and report.first_divergence == 0


def test_tampered_result(recorded, tmp_path):
    def edit(obj):
        obj["final_hash"] = "f" * 16
    path = _tamper(recorded, tmp_path, len(recorded.history) + 1, edit)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "result"


def test_cli_verify_ok(recorded, capsys):
    assert main(["replay", "verify", str(recorded.path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok: ") and f"{len(recorded.history)} turns verified" in out
    assert err == ""


def test_cli_warns_about_dropped_lines(recorded, tmp_path, capsys):
    path = recorded.copy_to(tmp_path)
    path.write_bytes(path.read_bytes()[:-10])
    assert main(["replay", "verify", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"warning: {path}: dropped 1 line (line "
                                f"{len(recorded.history) + 2}: torn last line (no newline))"]
    assert "did not finish" in out


def test_cli_bad_file(tmp_path, capsys):
    path = tmp_path / "v.jsonl"
    path.write_text('{"type": "header", "format": "sandbox-replay", "version": 2}\n')
    assert main(["replay", "verify", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "version 2" in err[0]
    assert main(["replay", "verify", str(tmp_path / "missing.jsonl")]) == 1
    assert main(["replay", "verify"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(x.startswith("error: ") for x in err)


def test_playback_refuses_a_diverging_file(recorded, tmp_path):
    import pytest
    from sandbox.replay import ReplayError
    turn = 12
    move = _other_legal_move(recorded, turn, 0)

    def edit(obj):
        obj["joint"][0] = move
    replay = read_replay(_tamper(recorded, tmp_path, turn + 1, edit))
    assert replay.state_at(turn).turn == turn
    with pytest.raises(ReplayError, match=f"turn {turn}: state hash differs"):
        replay.state_at(turn + 5)

    def seed(obj):
        obj["seed"] += 1
    replay = read_replay(_tamper(recorded, tmp_path, 0, seed))
    with pytest.raises(ReplayError, match="another initial state"):
        replay.state_at(0)


def test_tampered_figures_of_a_turn(recorded, tmp_path):
    """The hash covers the state; the alive flags and scores a turn line
    states about that state are checked against the replayed one too."""
    def nan_score(obj):
        obj["scores"][2] = float("nan")
    path = _tamper(recorded, tmp_path, 6, nan_score)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "figures" and report.first_divergence == 5
    assert "turn 5: recorded score of agent 2 is nan, the replayed state scores" in report.message

    def nudged(obj):
        obj["scores"][0] += 0.001
    report = verify(read_replay(_tamper(recorded, tmp_path, 3, nudged)))
    assert not report.ok and report.problem == "figures" and "agent 0" in report.message

    def revived(obj):
        obj["alive"] = [True] * len(obj["alive"])
    # a turn after someone is out, not the one that put them out (that line
    # would contradict its own `eliminated` and be dropped by the reader)
    k = next(r.turn for r in recorded.history if not all(r.alive) and not r.eliminated)
    report = verify(read_replay(_tamper(recorded, tmp_path, k + 1, revived)))
    assert not report.ok and report.problem == "figures" and "recorded alive 1111" in report.message


def test_result_line_contradicting_the_replayed_ranking(recorded, tmp_path, capsys):
    n = len(recorded.history) + 1

    def other_winner(obj):
        obj["winner"] = (obj["ranking"].index(0) + 1) % len(obj["ranking"])
    path = _tamper(recorded, tmp_path, n, other_winner)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "result"
    assert "the replayed game ranks" in report.message and "winner" in report.message
    assert main(["replay", "verify", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "result line: ranking" in err[0]

    def reranked(obj):
        obj["ranking"] = list(reversed(obj["ranking"]))
        best = [a for a, k in enumerate(obj["ranking"]) if k == 0]
        obj["winner"] = best[0] if len(best) == 1 else None
    report = verify(read_replay(_tamper(recorded, tmp_path, n, reranked)))
    assert not report.ok and report.problem == "result"


def test_cli_fails_on_garbage_lines_but_not_on_a_torn_tail(recorded, tmp_path, capsys):
    """A crash mid-write tears at most the last line: verify accepts that
    (above). A garbage line inside the file means it is not what was
    recorded: the turns that remain still replay, and verify says so and
    exits non-zero (it used to print ok)."""
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines.insert(3, b"\x00garbage")
    path.write_bytes(b"\n".join(lines))
    assert main(["replay", "verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].startswith(f"error: {path}: ")
    assert "1 damaged line dropped" in err
