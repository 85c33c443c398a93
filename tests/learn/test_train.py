"""Self-play records and `python -m sandbox train` end to end on a tiny
config: a net the C core loads, a loss that falls, the same weights from the
same command, and a resumed run that plays and trains nothing twice."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.cli import main
from sandbox.config import load_scenario
from sandbox.learn.buffer import payload_dtype
from sandbox.learn.netfile import read_net
from sandbox.learn.selfplay import SelfPlayJob, game_dims, play_selfplay
from sandbox.native import Game, Net, _lib

# training imports JAX, whose C++ exceptions trip the ASan runtime
NO_JAX = pytest.mark.skipif(_lib.SANITIZED, reason="JAX does not load under ASan")

TINY = ["goofspiel_4_exploit", "--games", "6", "--steps", "150", "--size", "tiny",
        "--iterations", "100", "--workers", "0", "--quiet", "--batch", "32", "--lr", "0.01"]


def selfplay(name: str, sets: list[str], seed: int = 3, turns: int | None = None):
    sc = load_scenario(name)
    sc = sc.with_settings(sets) if sets else sc
    res = play_selfplay(SelfPlayJob("k", sc.model_dump(mode="json"), seed, turns))
    with Game(sc.game, sc.game_param_string(), 1) as g:
        dims = game_dims(g)
    return res, dims, np.frombuffer(res["records"], dtype=payload_dtype(dims))


def test_perfect_information_records_hold_both_players_targets():
    res, dims, recs = selfplay("goofspiel_4_exploit", ["budget.iterations=200"])
    assert res["turns"] == 4 and len(recs) == 8 and dims.slots == 0
    assert list(recs["view"]) == [0, 1] * 4 and list(recs["turn"]) == [0, 0, 1, 1, 2, 2, 3, 3]
    for r in recs:
        assert r["value_mask"].sum() == 2 and r["policy_mask"].sum() == 2
        assert np.allclose(r["policy"].sum(axis=1), 1)
        assert np.all(r["policy"][r["legal"] == 0] == 0)     # only legal moves
        assert np.all(np.isfinite(r["outcome"]))
    # the two views of a turn: the same targets, players swapped
    a, b = recs[0], recs[1]
    assert np.allclose(a["value"][::-1], b["value"]) and np.allclose(a["policy"][::-1], b["policy"])
    assert a["outcome"][0] == pytest.approx(-a["outcome"][1])   # win/loss, zero-sum


def test_hidden_information_records_hold_the_views_own_targets_and_ranges():
    res, dims, recs = selfplay("goofspiel_4_imp_info",
                               ["players.0.search.algorithm=pubcfr",
                                "players.1.search.algorithm=pubcfr", "budget.iterations=300"])
    assert dims.slots == 6
    for r in recs:
        assert r["value_mask"][0].sum() == 1 and r["value_mask"][1].sum() == 0
        assert r["policy_mask"].tolist() == [1, 0]
        assert np.allclose(r["ranges"].sum(axis=1), 1, atol=1e-5)   # pubcfr's root ranges
    # without a public-state search there are no ranges (zeros), targets as before
    _, _, plain = selfplay("goofspiel_4_imp_info", ["budget.iterations=100"])
    assert np.all(plain["ranges"] == 0) and np.all(plain["value_mask"].sum(axis=(1, 2)) == 1)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    d = tmp_path_factory.mktemp("train")
    assert main(["train", *TINY, "--out", str(d / "a.sbxnet")]) == 0
    return d


@NO_JAX
def test_train_writes_a_net_the_core_runs(trained):
    net = Net(trained / "a.sbxnet")
    g = Game("goofspiel", load_scenario("goofspiel_4_exploit").game_param_string(), 1)
    net.check_game(g)
    values, logits = net.evaluate([g])
    assert values.shape == (1, 2, 1) and logits.shape == (1, 2, 4)
    assert "python -m sandbox train goofspiel_4_exploit" in net.meta
    assert (trained / "a.png").stat().st_size > 1000


@NO_JAX
def test_the_value_loss_falls(trained):
    z = np.load(trained / "a.sbxnet.work" / "checkpoint.npz")
    losses = z["losses"]
    assert len(losses) == 150
    assert losses[-20:, 1].mean() < 0.5 * losses[:20, 1].mean()


@NO_JAX
def test_the_same_command_gives_the_same_weights_and_resumes(trained, capsys):
    _, first, _ = read_net(trained / "a.sbxnet")
    assert main(["train", *TINY, "--out", str(trained / "b.sbxnet")]) == 0
    _, second, _ = read_net(trained / "b.sbxnet")
    assert all(np.array_equal(first[k], second[k]) for k in first)
    capsys.readouterr()
    # again: nothing to play, nothing to train; the weights come from the checkpoint
    assert main(["train", *TINY, "--out", str(trained / "a.sbxnet"), "--json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    assert report["games_played"] == 0 and report["games_in_buffer"] == 6
    _, again, _ = read_net(trained / "a.sbxnet")
    assert all(np.array_equal(first[k], again[k]) for k in first)
    # two more games: only those are played
    more = [("8" if a == "6" else a) for a in TINY]
    assert main(["train", *more, "--out", str(trained / "a.sbxnet"), "--json", "--steps", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games_played"] == 2 and report["games_in_buffer"] == 8


@NO_JAX
def test_train_refusals_are_one_line(tmp_path, capsys):
    for argv, why in ((["maze_medium_duel"], "has no features"),
                      (["goofspiel_4_exploit", "--games", "-1"], "--games must be in"),
                      (["goofspiel_4_exploit", "--outcome-weight", "2"], "--outcome-weight"),
                      (["goofspiel_4_exploit", "--games", "0"], "buffer is empty")):
        assert main(["train", *argv, "--out", str(tmp_path / "x.sbxnet"), "--workers", "0",
                     "--quiet"]) != 0
        err = capsys.readouterr().err.strip()
        assert why in err and "\n" not in err, err


@NO_JAX
def test_dense_and_hidden_shape_the_net(tmp_path):
    """--dense and --hidden replace the size's dense layers: the net the
    command writes has them (read back by the core), and a width that
    cannot be had is refused in one line."""
    out = tmp_path / "w.sbxnet"
    assert main(["train", *TINY, "--dense", "2", "--hidden", "12", "--steps", "20",
                 "--out", str(out)]) == 0
    spec, _, _ = read_net(out)
    assert (spec.arch.dense_layers, spec.arch.hidden) == (2, 12)
    with Net(out) as net:                          # the core's own reading of the file
        assert (net.info.dense_layers, net.info.hidden) == (2, 12)
    assert main(["train", *TINY, "--hidden", "5000", "--out", str(out)]) != 0


def test_default_architecture_takes_dense_and_hidden():
    from sandbox.learn.netfile import Architecture, default_architecture
    with Game("snakes", "snakes=2", 1) as g:
        board = g.features_layout()
    with Game("goofspiel", "num_cards=4", 1) as g:
        flat = g.features_layout()
    assert default_architecture(board) == Architecture(2, 3, 16, 1, 64)
    assert default_architecture(board, "small", 2, 32) == Architecture(2, 3, 16, 2, 32)
    assert default_architecture(flat, "tiny", None, 32) == Architecture(0, 0, 0, 1, 32)
    assert default_architecture(flat, "small", 3) == Architecture(0, 0, 0, 3, 64)
    assert default_architecture(flat, "small", 0) == Architecture(0, 0, 0, 0, 0)
