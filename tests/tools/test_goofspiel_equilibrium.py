"""tools/goofspiel_equilibrium.py: what an exact equilibrium of small
goofspiel scores against the uniform random bidder (docs/measuring-strength.md
quotes it). Checked against a brute force over every order the random bidder
can play its cards in, where the equilibrium is one pure strategy."""
from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "goofspiel_equilibrium.py"
spec = importlib.util.spec_from_file_location("goofspiel_equilibrium", TOOL)
eq = importlib.util.module_from_spec(spec)
sys.modules["goofspiel_equilibrium"] = eq     # its dataclasses look their module up
spec.loader.exec_module(eq)


def matching_against_random(n: int) -> float:
    """Bid the card equal to the prize (descending prizes) against each of
    the random bidder's n! card orders, all equally likely: win 1, draw 1/2."""
    total = 0.0
    orders = list(itertools.permutations(range(1, n + 1)))
    for theirs in orders:
        diff = 0
        for prize, b in zip(range(n, 0, -1), theirs):
            diff += prize if prize > b else -prize if prize < b else 0
        total += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    return total / len(orders)


@pytest.mark.parametrize("n", [2, 3])
def test_where_matching_is_the_only_equilibrium_its_score_is_the_brute_forces(n):
    r = eq.Solver(n, "descending").root()
    assert r.value == pytest.approx(0.5)          # a symmetric game
    # one equilibrium (best = worst): bidding the prize's own card
    assert r.best == pytest.approx(r.worst) == pytest.approx(r.lp)
    assert r.best == pytest.approx(matching_against_random(n))
    assert matching_against_random(3) == pytest.approx(5 / 6)    # by hand: 4 wins, 2 draws


@pytest.mark.parametrize("order, n", [("descending", 4), ("random", 3)])
def test_the_bracket_holds_and_the_game_is_fair(order, n):
    r = eq.Solver(n, order).root()
    assert r.value == pytest.approx(0.5, abs=1e-6)
    assert r.worst - 1e-6 <= r.lp <= r.best + 1e-6
    assert 0.5 < r.worst and r.best < 1.0


def test_the_command_prints_one_row_per_size(capsys):
    assert eq.main(["--cards", "2-3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:5] == ["cards", "value", "best", "worst", "lp"]
    assert [line.split()[0] for line in out[2:]] == ["2", "3"]
    with pytest.raises(SystemExit):
        eq.main(["--cards", "x"])


def test_hidden_bids_agree_with_public_bids_where_hiding_changes_nothing():
    # With two cards the second bid is forced, so hiding the first changes
    # nothing: CFR+'s equilibrium is the exact one (bid the 2 on the 2).
    r, states = eq.hidden(2)
    assert r.value == pytest.approx(0.5, abs=1e-3)
    assert r.lp == pytest.approx(eq.Solver(2, "descending").root().best, abs=1e-3)
    # each seat's information states: the start, then its bid (1 or 2) with
    # what could follow it (the 1 loses or ties, the 2 wins or ties): 5 each
    assert states == 10
