"""How a goofspiel player spends its cards: the bid profile behind the
estimate diagnosis in docs/measuring-strength.md.

Plays an agent (seat 0) against an opponent (seat 1) on a goofspiel
scenario, one game per seed, and reports for each seat: its mean bid over
the first EARLY rounds, the points it won in those rounds and in the rest,
and the correlation of its early bids with the prizes they were made on
(pooled over the games). Seat 0 is always the agent: the figures describe
one side's habits, not a strength score (use `strength` for that).

    python tools/goofspiel_bids.py --agent agents/goofspiel13_mcgs.toml \\
        --set players.0.search.c_puct=4 --set players.0.search.rollout_steps=0 \\
        --set game_params.points_order=random --games 20
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox.config import Budget, load_scenario, scenario_from_dict  # noqa: E402
from sandbox.games import plugin  # noqa: E402
from sandbox.sim.match import Match  # noqa: E402
from sandbox.tournament.agents import load_entrant, seat_scenario  # noqa: E402


@dataclass(frozen=True)
class Round:
    prize: int
    winner: int          # -1: a tie
    bids: tuple[int, int]


@dataclass(frozen=True)
class SeatProfile:
    early_bid: float     # mean bid over the first `early` rounds
    early_points: float  # mean points a game won in those rounds
    late_points: float   # ... and in the rounds after them
    correlation: float   # of early bids with their prizes, pooled


def profile(games: Sequence[Sequence[Round]], seat: int, early: int) -> SeatProfile:
    """A seat's profile over finished games' rounds (a pure function: the
    test checks it on hand-made rounds)."""
    bids, prizes, ep, lp = [], [], 0.0, 0.0
    for rounds in games:
        for i, r in enumerate(rounds):
            won = r.prize if r.winner == seat else 0
            if i < early:
                bids.append(r.bids[seat])
                prizes.append(r.prize)
                ep += won
            else:
                lp += won
    n = max(len(games), 1)
    corr = float(np.corrcoef(bids, prizes)[0, 1]) if len(set(bids)) > 1 and \
        len(set(prizes)) > 1 else float("nan")
    return SeatProfile(float(np.mean(bids)) if bids else float("nan"), ep / n, lp / n, corr)


def play(scenario_name: str, sets: list[str], agent: str, opponent: str, iterations: int,
         seeds: range) -> list[list[Round]]:
    """One game per seed, the agent on seat 0; `sets` that start with
    "players." change the seated players, the others the scenario first."""
    seat_sets = [s for s in sets if s.startswith("players.")]
    base = load_scenario(scenario_name).with_settings([s for s in sets if s not in seat_sets])
    base = base.model_copy(update={"budget": Budget(iterations=iterations, ms=0)})
    sc = scenario_from_dict(seat_scenario(base, [load_entrant(agent), load_entrant(opponent)]),
                            "(bids)").with_settings(seat_sets)
    game = plugin(sc.game)
    out = []
    for seed in seeds:
        with Match(sc, seed=seed) as m:
            m.play()
            view = game.decode(m.world.export())
        out.append([Round(int(r.prize), int(r.winner), (int(r.bids[0]), int(r.bids[1])))
                    for r in view.history])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--agent", required=True, help="seat 0: an agent file or a built-in name")
    p.add_argument("--opponent", default="uct", help="seat 1 (default uct)")
    p.add_argument("--scenario", default="goofspiel_13_duel")
    p.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                   help="change the scenario after the seats are filled, "
                        "e.g. players.0.search.c_puct=4 (repeatable)")
    p.add_argument("--iterations", type=int, default=1000, help="per bid, both seats")
    p.add_argument("--games", type=int, default=20, help="seeds 1..N")
    p.add_argument("--early", type=int, default=4, help="rounds counted as early")
    a = p.parse_args(argv)
    games = play(a.scenario, a.set, a.agent, a.opponent, a.iterations, range(1, a.games + 1))
    print(f"{len(games)} games, {a.iterations:,} iterations a bid, the first {a.early} rounds "
          f"early")
    for seat, who in enumerate((a.agent, a.opponent)):
        s = profile(games, seat, a.early)
        print(f"  seat {seat} ({who}): early bid {s.early_bid:.1f}, points early "
              f"{s.early_points:.1f}, later {s.late_points:.1f}, early bids against "
              f"prizes r = {s.correlation:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
