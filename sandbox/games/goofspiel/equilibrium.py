"""An exact equilibrium player for small two-player goofspiel: a yardstick
that stays meaningful at any budget.

Goofspiel with N <= 8 cards, two players, bids public after each round, is
solved exactly by backward induction: at every state (both hands, the point
difference, the prizes left and the one on the table) the two bids form a
zero-sum matrix game over the children's values, solved by linear
programming (sandbox.analysis.lp). The value is the match score -- win 1,
draw 1/2, loss 0 -- whatever the game's returns_type, since a match is
scored by its ranking. A state whose winner is already decided is not
expanded. The player bids from its seat's optimal mixed strategy at the
state it is in.

An equilibrium strategy guarantees the game's value (1/2, by symmetry)
against ANY opponent in expectation, so a search's score against this
player is at most 1/2 and is a measure of how close to optimal it plays:
0.5 - score is what a best response to nothing but the search's own
mistakes would win. It never stops measuring, however long the search
thinks, unlike a sampling yardstick that runs out of things to learn.

The tables of 5 and 6 cards (descending prizes) ship in assets/equilibria;
any other is solved on first use -- seconds for 5 cards, minutes for 7,
longer for 8 -- and kept in a cache folder ($SBX_CACHE_DIR, else
~/.cache/simsearch-sandbox), written whole to a temporary file and renamed,
so an interrupted solve leaves no half table behind.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np

MAX_CARDS = 8
ORDERS = ("descending", "ascending", "random")
Key = tuple[int, int, int, int, int]   # h0, h1, diff (seat 0's lead), prizes left, prize


def _cards(mask: int) -> list[int]:
    return [c + 1 for c in range(mask.bit_length()) if mask >> c & 1]


class Solver:
    """Backward induction over every state, memoised: value (seat 0's match
    score) and both seats' optimal strategies (over their cards, ascending)."""

    def __init__(self, cards: int, order: str, progress: Callable[[int], None] | None = None):
        if not 1 <= cards <= MAX_CARDS:
            raise ValueError(f"exact goofspiel equilibria go up to {MAX_CARDS} cards, not {cards}")
        if order not in ORDERS:
            raise ValueError(f"points_order must be one of {', '.join(ORDERS)}, not {order!r}")
        self.n, self.order = cards, order
        self.value: dict[Key, float] = {}
        self.row: dict[Key, np.ndarray] = {}
        self.col: dict[Key, np.ndarray] = {}
        self.progress = progress

    def _next_prize(self, prizes: int) -> int:
        return prizes.bit_length() if self.order == "descending" else \
            (prizes & -prizes).bit_length()

    def root(self) -> float:
        full = (1 << self.n) - 1
        if self.order == "random":
            return self._chance(full, full, 0, full)
        return self.state(full, full, 0, full, self._next_prize(full))

    def _chance(self, h0: int, h1: int, diff: int, prizes: int) -> float:
        """Before a prize is drawn uniformly from those left."""
        outs = [self.state(h0, h1, diff, prizes, p) for p in _cards(prizes)]
        return sum(outs) / len(outs)

    def state(self, h0: int, h1: int, diff: int, prizes: int, prize: int) -> float:
        key = (h0, h1, diff, prizes, prize)
        hit = self.value.get(key)
        if hit is not None:
            return hit
        if h0 == 0 or abs(diff) > sum(_cards(prizes)):
            v = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
            self.value[key] = v
            return v
        from ...analysis.lp import solve_zero_sum
        rest = prizes & ~(1 << (prize - 1))
        a_cards, b_cards = _cards(h0), _cards(h1)
        table = np.zeros((len(a_cards), len(b_cards)))
        for i, a in enumerate(a_cards):
            for j, b in enumerate(b_cards):
                d = diff + (prize if a > b else -prize if a < b else 0)
                n0, n1 = h0 & ~(1 << (a - 1)), h1 & ~(1 << (b - 1))
                if rest == 0:
                    table[i, j] = self.state(n0, n1, d, 0, 0)
                elif self.order == "random":
                    table[i, j] = self._chance(n0, n1, d, rest)
                else:
                    table[i, j] = self.state(n0, n1, d, rest, self._next_prize(rest))
        sol = solve_zero_sum(table)
        self.value[key] = sol.value
        self.row[key], self.col[key] = sol.row, sol.col
        if self.progress is not None:
            self.progress(len(self.row))
        return sol.value


class EquilibriumTable:
    """Each decision state's optimal strategy for both seats."""

    def __init__(self, cards: int, order: str, keys: np.ndarray, row: np.ndarray,
                 col: np.ndarray, value: float) -> None:
        self.cards, self.order, self.value = cards, order, value
        self._at = {tuple(int(x) for x in k): i for i, k in enumerate(keys)}
        self._row, self._col = row, col

    def strategy(self, seat: int, key: Key) -> tuple[list[int], np.ndarray]:
        """(the seat's cards, ascending; the probability of bidding each)."""
        i = self._at.get(key)
        if i is None:
            raise KeyError(f"no decision state {key} in the goofspiel-{self.cards} table")
        h = key[seat]
        cards = _cards(h)
        probs = (self._row if seat == 0 else self._col)[i, :len(cards)]
        return cards, probs / probs.sum()

    @classmethod
    def from_solver(cls, s: Solver, value: float) -> "EquilibriumTable":
        keys = np.array(sorted(s.row), dtype=np.int64).reshape(-1, 5)
        row = np.zeros((len(keys), s.n))
        col = np.zeros((len(keys), s.n))
        for i, k in enumerate(map(tuple, keys)):
            row[i, :len(s.row[k])] = s.row[k]
            col[i, :len(s.col[k])] = s.col[k]
        return cls(s.n, s.order, keys, row, col, value)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(sorted(self._at, key=self._at.get), dtype=np.int64).reshape(-1, 5)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, cards=self.cards, order=self.order, keys=keys,
                                    row=self._row, col=self._col, value=self.value)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    @classmethod
    def load(cls, path: Path) -> "EquilibriumTable":
        with np.load(path, allow_pickle=False) as z:
            return cls(int(z["cards"]), str(z["order"]), z["keys"], z["row"], z["col"],
                       float(z["value"]))


# tables shipped with the project (5 and 6 cards, descending prizes),
# regenerated by `python tools/goofspiel_equilibrium.py --table DIR`
SHIPPED = Path(__file__).resolve().parents[3] / "assets" / "equilibria"


def cache_dir() -> Path:
    env = os.environ.get("SBX_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "simsearch-sandbox"


_TABLES: dict[tuple[int, str], EquilibriumTable] = {}


def table(cards: int, order: str, quiet: bool = False) -> EquilibriumTable:
    """The table of goofspiel-`cards` with that prize order: from memory,
    the cache folder, or solved now (and cached)."""
    hit = _TABLES.get((cards, order))
    if hit is not None:
        return hit
    name = f"goofspiel-equilibrium-{cards}-{order}.npz"
    path = cache_dir() / name
    t = None
    for where in (SHIPPED / name, path):
        if t is None and where.is_file():
            try:
                t = EquilibriumTable.load(where)
                if (t.cards, t.order) != (cards, order):
                    t = None
            except (OSError, ValueError, KeyError):
                t = None      # a damaged file is solved again
    if t is None:
        if not quiet:
            print(f"solving goofspiel-{cards} ({order} prizes) exactly, once; the table is "
                  f"kept in {path}", file=sys.stderr, flush=True)
        s = Solver(cards, order)
        t = EquilibriumTable.from_solver(s, s.root())
        try:
            t.save(path)
        except OSError as exc:
            print(f"note: could not keep the table ({exc}); it will be solved again",
                  file=sys.stderr)
    _TABLES[(cards, order)] = t
    return t
