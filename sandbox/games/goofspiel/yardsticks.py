"""Goofspiel's outside yardsticks, players of the game's own that a scenario
names as `controller = "equilibrium"` or `"openspiel"` (GamePlugin.policies):

- equilibrium: the exact equilibrium of goofspiel with up to 8 cards
  (equilibrium.py), bidding from its seat's optimal mixed strategy. Sound at
  any budget: nothing scores above 1/2 against it in expectation.
- openspiel: OpenSpiel's C++ MCTSBot (pyspiel, the optional `openspiel`
  extra) with its example's settings -- UCT constant 2, one random rollout
  per leaf -- but MCTS-Solver off (below), and the match's iteration budget
  as its simulations a move. OpenSpiel searches simultaneous games through their
  turn-based form, where the second mover sees the first one's bid; so the
  bot is always given the first mover's seat of a state rebuilt from the
  public history (goofspiel is symmetric in its seats), and never sees the
  bid it answers.

Both read only the public state: the bids are public in these games
(imp_info = 1 is refused).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ...native import Game, InvalidArgument
from .equilibrium import MAX_CARDS, table
from .view import decode_goofspiel

POLICIES = ("equilibrium", "openspiel")


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << (c - 1)
    return out


def policy_problem(name: str, p: Any) -> str | None:
    """Why a player `name` cannot play goofspiel of params p (None: it can)."""
    if p.players != 2:
        return f"{name} plays two-player goofspiel (this one has {p.players} players)"
    if p.imp_info:
        return f"{name} plays goofspiel with public bids (imp_info = 0)"
    if name == "equilibrium" and p.num_cards > MAX_CARDS:
        return (f"equilibrium: goofspiel is solved exactly up to {MAX_CARDS} cards (this one "
                f"has {p.num_cards})")
    if name == "openspiel":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return ("openspiel: the open_spiel package is not installed (pip install -e "
                    "\".[openspiel]\")")
    return None


class EquilibriumPolicy:
    """Bids from the exact equilibrium's mixed strategy for its seat."""

    def __init__(self, p: Any, seed: int) -> None:
        self.table = table(p.num_cards, p.points_order)
        self.rng = np.random.default_rng(seed)

    def decide(self, game: Game, agents: Sequence[int], budget: Any) -> dict[int, int | None]:
        v = decode_goofspiel(game.export())
        key = (_mask(v.hands[0]), _mask(v.hands[1]), v.points[0] - v.points[1],
               _mask((*v.unrevealed, v.prize)), v.prize)
        out: dict[int, int | None] = {}
        for a in agents:
            legal = game.legal_moves(a)
            if not legal:
                out[a] = None
                continue
            try:
                cards, probs = self.table.strategy(a, key)
            except KeyError:
                # a state whose winner is already decided: any bid will do
                out[a] = int(legal[0])
                continue
            card = int(cards[self.rng.choice(len(cards), p=probs)])
            out[a] = card - 1          # goofspiel's move id is the card's value - 1
        return out


class OpenSpielPolicy:
    """OpenSpiel's MCTSBot on the turn-based form of the same goofspiel."""

    def __init__(self, p: Any, seed: int) -> None:
        import pyspiel
        self.pyspiel = pyspiel
        game = pyspiel.load_game("goofspiel", {
            "num_cards": p.num_cards, "players": 2, "points_order": p.points_order,
            "returns_type": "win_loss"})
        self.game = pyspiel.convert_to_turn_based(game)
        self.seed = int(seed) % (2**31 - 1)
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, self.seed)
        self.bots: dict[int, Any] = {}

    def _bot(self, simulations: int):
        bot = self.bots.get(simulations)
        if bot is None:
            self.seed = (self.seed * 48271 + 1) % (2**31 - 1)
            # MCTS-Solver off: on the turn-based form the second mover sees
            # the first one's bid, so the solver "proves" every bid lost long
            # before the end and the first mover bids at random (measured:
            # 0.14 against Smitsimax at 1,000 simulations each, 0.59 off)
            bot = self.pyspiel.MCTSBot(self.game, self.evaluator, 2.0, simulations, 1000,
                                       False, self.seed, False)
            self.bots[simulations] = bot
        return bot

    def _state(self, game: Game, seat: int):
        """The public history replayed with `seat` as OpenSpiel's player 0."""
        v = decode_goofspiel(game.export())
        s = self.game.new_initial_state()
        chance = v.points_order == "random"
        for r in v.history:
            if chance:
                s.apply_action(r.prize - 1)
            s.apply_action(r.bids[seat] - 1)
            s.apply_action(r.bids[1 - seat] - 1)
        if chance:
            s.apply_action(v.prize - 1)
        return s

    def decide(self, game: Game, agents: Sequence[int], budget: Any) -> dict[int, int | None]:
        if not budget.iterations:
            raise InvalidArgument("openspiel: OpenSpiel's MCTSBot searches a number of "
                                  "simulations; give the match an iteration budget")
        out: dict[int, int | None] = {}
        for a in agents:
            legal = game.legal_moves(a)
            if len(legal) <= 1:
                # the last card: nothing to search (and pyspiel's MCTSBot
                # 2.0.2 crashes on a state with one move left)
                out[a] = int(legal[0]) if legal else None
                continue
            s = self._state(game, a)
            out[a] = int(self._bot(int(budget.iterations)).step(s))
        return out


def make_policy(name: str, p: Any, seed: int):
    if name == "equilibrium":
        return EquilibriumPolicy(p, seed)
    if name == "openspiel":
        return OpenSpielPolicy(p, seed)
    raise InvalidArgument(f"goofspiel has no player {name!r} (it has: {', '.join(POLICIES)})")


def outside_rates(searches: dict[str, Any], quick: bool) -> dict[str, Any] | None:
    """Iterations a second on goofspiel-13 positions (the start, and after 3
    and 6 rounds of random bids) of each of `searches` (name -> settings),
    and of OpenSpiel's C++ MCTSBot (simulations a second) where pyspiel is
    installed, all in one process, in turn, rounds of each; each keeps its
    median. The ratios to OpenSpiel's are what `bench` reports: a per-
    iteration cost, in one run on one machine. None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    import statistics
    import time

    from ...native import Search, SearchParams
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("goofspiel", {
        "num_cards": 13, "players": 2, "points_order": "descending",
        "returns_type": "win_loss"}))
    ours_its, theirs_sims = (4_000, 500) if quick else (40_000, 4_000)
    positions = []
    for rounds in (0, 3, 6):
        g = Game("goofspiel", {"num_cards": 13}, seed=1)
        rng = np.random.default_rng(rounds)
        for _ in range(rounds):
            g.step([int(rng.choice(g.legal_moves(a))) for a in (0, 1)])
        positions.append(g)
    pol = OpenSpielPolicy(type("P", (), {"num_cards": 13, "points_order": "descending"})(), 1)
    rates: dict[str, list[float]] = {name: [] for name in searches}
    rates["openspiel"] = []
    for _ in range(1 if quick else 3):
        for name, params in searches.items():
            for g in positions:
                with Search(g, SearchParams.coerce(params), seed=1) as s:
                    t0 = time.perf_counter()
                    s.run(iterations=ours_its)
                    rates[name].append(ours_its / (time.perf_counter() - t0))
        for g in positions:
            bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0,
                                  theirs_sims, 1000, False, 1, False)
            state = pol._state(g, 0)
            t0 = time.perf_counter()
            bot.step(state)
            rates["openspiel"].append(theirs_sims / (time.perf_counter() - t0))
    theirs = statistics.median(rates["openspiel"])
    return {"openspiel_sims_per_s": round(theirs),
            "rows": [{"name": name, "iterations_per_s": round(statistics.median(v)),
                      "ratio": round(statistics.median(v) / theirs, 2)}
                     for name, v in rates.items() if name != "openspiel"]}
