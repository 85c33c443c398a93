"""What an exact equilibrium of goofspiel scores against the uniform random
bidder: the ceiling a sound search (one whose play converges to an
equilibrium) has against it, for small numbers of cards.

Goofspiel with N cards, two players, bids public after each round, win/loss
returns (win 1, draw 1/2, loss 0), prizes in descending order (N, N-1, ...,
1) or in random order (each round's prize drawn uniformly from those left).
Every subgame is solved exactly by backward induction: at each state the
zero-sum matrix game of the two bids over the children's values, by linear
programming (sandbox/analysis/lp.py). A game has many equilibria; the
figures here bracket all subgame-perfect ones. Against a bidder that plays
uniformly at random, it reports the score of
  best:  at every state, of the equilibrium strategies there, the one that
         scores most against random (a second LP: maximise that score over
         the strategies that still guarantee the state's value);
  worst: the one that scores least;
  lp:    the strategy the LP solver happens to return.
So no search that plays a subgame-perfect equilibrium of the whole game can
score more than `best` against random. The state is (the two hands, the
point difference, the prizes left); a state whose winner is already decided
is not expanded.

With --hidden, the bids stay hidden (imp_info = 1): there
the equilibrium is an average strategy of tabular CFR+ over the information
states (sandbox/analysis/imperfect.py) run to NashConv <= 1e-4, one
equilibrium, not a bracket; its score against random is in the `lp` column.

    python tools/goofspiel_equilibrium.py --cards 3-7
    python tools/goofspiel_equilibrium.py --cards 3-5 --order random
    python tools/goofspiel_equilibrium.py --cards 2-4 --hidden
    python tools/goofspiel_equilibrium.py --cards 5-6 --table assets/equilibria

With --table DIR it writes, for each number of cards, the equilibrium
player's table (both seats' optimal strategies at every decision state,
sandbox/games/goofspiel/equilibrium.py) to DIR: the shipped tables are made
this way.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import linprog

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox.analysis.lp import LPError, solve_zero_sum  # noqa: E402

EPS = 1e-7   # an equilibrium strategy may give up this much of the value (LP tolerance)


@dataclass(frozen=True)
class Scores:
    value: float     # the game value for the player to move first (seat 0)
    best: float      # against random: the best subgame-perfect equilibrium
    worst: float     # ... the worst one
    lp: float        # ... the one the LP solver returns


def _extreme(u: np.ndarray, value: float, gain: np.ndarray, sign: float) -> np.ndarray:
    """Of the row strategies x with (x u)_j >= value - EPS for every column
    j, the one maximising sign * (x . gain)."""
    m, n = u.shape
    res = linprog(-sign * gain, A_ub=-u.T, b_ub=-(value - EPS) * np.ones(n),
                  A_eq=np.ones((1, m)), b_eq=[1.0], bounds=[(0.0, None)] * m, method="highs")
    if res.status != 0:
        raise LPError(f"linprog: {res.message}")
    x = np.clip(res.x, 0.0, None)
    return x / x.sum()


class Solver:
    """Backward induction over goofspiel's states, memoised."""

    def __init__(self, cards: int, order: str) -> None:
        self.n = cards
        self.order = order
        self.memo: dict[tuple[int, int, int, int, int], Scores] = {}

    @staticmethod
    def _cards(mask: int) -> list[int]:
        return [c + 1 for c in range(mask.bit_length()) if mask >> c & 1]

    def root(self) -> Scores:
        full = (1 << self.n) - 1
        if self.order == "descending":
            return self.state(full, full, 0, full, self.n)
        # random order: the first prize drawn uniformly
        return self._chance(full, full, 0, full)

    def _chance(self, h0: int, h1: int, diff: int, prizes: int) -> Scores:
        """Before a prize is drawn uniformly from those left."""
        outs = [self.state(h0, h1, diff, prizes, p) for p in self._cards(prizes)]
        k = len(outs)
        return Scores(*(sum(getattr(o, f) for o in outs) / k
                        for f in ("value", "best", "worst", "lp")))

    def state(self, h0: int, h1: int, diff: int, prizes: int, prize: int) -> Scores:
        """Seat 0 holds h0, seat 1 h1, seat 0 leads by diff, the prizes not yet
        won are `prizes` (prize, the one on the table, among them)."""
        key = (h0, h1, diff, prizes, prize)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        left = sum(self._cards(prizes))
        if h0 == 0 or abs(diff) > left:
            v = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
            out = Scores(v, v, v, v)
            self.memo[key] = out
            return out
        rest = prizes & ~(1 << (prize - 1))
        a_cards, b_cards = self._cards(h0), self._cards(h1)
        m, k = len(a_cards), len(b_cards)
        table = {f: np.zeros((m, k)) for f in ("value", "best", "worst", "lp")}
        for i, a in enumerate(a_cards):
            for j, b in enumerate(b_cards):
                d = diff + (prize if a > b else -prize if a < b else 0)
                n0, n1 = h0 & ~(1 << (a - 1)), h1 & ~(1 << (b - 1))
                if rest == 0:
                    child = self.state(n0, n1, d, 0, 0)
                elif self.order == "descending":
                    child = self.state(n0, n1, d, rest, rest.bit_length())
                else:
                    child = self._chance(n0, n1, d, rest)
                for f in table:
                    table[f][i, j] = getattr(child, f)
        sol = solve_zero_sum(table["value"])
        x_best = _extreme(table["value"], sol.value, table["best"].mean(axis=1), +1.0)
        x_worst = _extreme(table["value"], sol.value, table["worst"].mean(axis=1), -1.0)
        out = Scores(value=sol.value,
                     best=float(x_best @ table["best"].mean(axis=1)),
                     worst=float(x_worst @ table["worst"].mean(axis=1)),
                     lp=float(sol.row @ table["lp"].mean(axis=1)))
        self.memo[key] = out
        return out


def hidden(cards: int, order: str = "descending") -> tuple[Scores, int]:
    """Hidden bids: CFR+'s equilibrium (NashConv <= 1e-4) and its score
    against uniformly random bids; (scores with best = worst = lp = that
    score, information states)."""
    from sandbox.analysis.imperfect import (build_info_tree, evaluate_strategy, solve_cfr,
                                            uniform_strategy)
    from sandbox.games import plugin
    from sandbox.native import Game

    game = Game("goofspiel", f"num_cards={cards} imp_info=1 points_order={order}", seed=1)
    tree = build_info_tree(game, plugin("goofspiel").info_key)
    eq = solve_cfr(tree, target=1e-4, max_iterations=50_000)
    uniform = uniform_strategy(tree)
    v = evaluate_strategy(tree, lambda seat, key: eq.strategy(seat, key) if seat == 0
                          else uniform(seat, key)).value   # returns: win 1, draw 0, loss -1
    score = (float(v[0]) + 1.0) / 2.0
    value = (float(eq.value[0]) + 1.0) / 2.0
    return Scores(value, score, score, score), sum(len(m) for m in tree.moves_at)


def _span(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    try:
        a, b = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--cards: expected N or N-M (got {text!r})") from None
    if not 1 <= a <= b <= 9:
        raise argparse.ArgumentTypeError(f"--cards: between 1 and 9 (got {text!r})")
    return list(range(a, b + 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=_span, default=_span("3-6"),
                    help="numbers of cards: N or N-M (default 3-6; 7 takes minutes)")
    ap.add_argument("--order", choices=("descending", "ascending", "random"),
                    default="descending")
    ap.add_argument("--hidden", action="store_true",
                    help="bids hidden (imp_info = 1): CFR+'s equilibrium; 4 cards take "
                         "minutes")
    ap.add_argument("--table", default=None, metavar="DIR",
                    help="write the equilibrium player's table for each number of cards "
                         "to DIR instead (descending, ascending or random order)")
    args = ap.parse_args(argv)
    if args.table is not None:
        from sandbox.games.goofspiel.equilibrium import EquilibriumTable
        from sandbox.games.goofspiel.equilibrium import Solver as TableSolver
        for n in args.cards:
            t0 = time.perf_counter()
            s = TableSolver(n, args.order)
            t = EquilibriumTable.from_solver(s, s.root())
            path = Path(args.table) / f"goofspiel-equilibrium-{n}-{args.order}.npz"
            t.save(path)
            path.chmod(0o644)
            print(f"{path}: {len(s.row):,} decision states, value {t.value:.6f} "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
        return 0
    what = "hidden bids, CFR+'s equilibrium" if args.hidden else "an equilibrium"
    print(f"goofspiel, {args.order} prizes, win/loss, {what} against the uniform "
          "random bidder (score: win 1, draw 1/2)")
    print(f"{'cards':>5}  {'value':>6}  {'best':>6}  {'worst':>6}  {'lp':>6}  {'states':>8}  "
          f"{'time':>7}")
    for n in args.cards:
        t0 = time.perf_counter()
        if args.hidden:
            r, states = hidden(n, args.order)
        else:
            s = Solver(n, args.order)
            r = s.root()
            states = len(s.memo)
        print(f"{n:>5}  {r.value:6.3f}  {r.best:6.3f}  {r.worst:6.3f}  {r.lp:6.3f}  "
              f"{states:>8,}  {time.perf_counter() - t0:6.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
