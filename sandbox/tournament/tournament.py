"""Round-robin tournaments between agents on one two-player scenario.

Every pair of entrants plays `games` games: rounds of two on one seed (the
same deal, layout, prize order), seats swapped between the two, so neither a
seat nor a deal favours either side. Round r of every pairing plays seed
`seed + r`. Each game is a GameJob (sandbox.tournament.jobs) run on an
Executor; results are appended to `results.jsonl` as they arrive, so the
same command run again resumes. From the log: per entrant W/D/L and mean
score, Bradley–Terry ratings on the Elo scale with 95% intervals
(sandbox.tournament.ratings) and, with two entrants and `sprt`, an early stop.

    python -m sandbox tournament SCENARIO --agents A.toml B.toml mcgs ...
        --games N [--workers K | --dask ADDRESS] [--out DIR] [--keep-replays]
        [--sprt ELO0,ELO1] [--iterations K | --ms T] [--seed S]
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..seeds import series_seed_problem
from ..config import Budget, Scenario
from ..native import InvalidArgument
from .agents import (Entrant, check_entrants, check_vary, seat_scenario, unique_names,
                     vary_scenario)
from .jobs import GameJob
from .ratings import Ratings, SprtResult, fit_bradley_terry, sprt

MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class TournamentSpec:
    scenario: Scenario
    entrants: list[Entrant]
    games: int                      # per pairing, even
    seed: int = 1
    budget: Budget | None = None    # for entrants without a budget of their own
    max_turns: int | None = None
    sprt: tuple[float, float] | None = None
    keep_replays: bool = False
    vary: str | None = None         # a game parameter set to each seed (a map per seed)

    def __post_init__(self) -> None:
        if len(self.scenario.players) != 2:
            raise InvalidArgument(
                f"a tournament plays two-player scenarios; {self.scenario.name} has "
                f"{len(self.scenario.players)} players (compare players of it with `series`)")
        if len(self.entrants) < 2:
            raise InvalidArgument("a tournament needs at least two agents")
        if not isinstance(self.games, int) or not 2 <= self.games <= MAX_GAMES or self.games % 2:
            raise InvalidArgument(f"--games must be an even number in 2..{MAX_GAMES:,} (each "
                                  f"seed is played with both seat orders), got {self.games}")
        if series_seed_problem(self.seed):
            raise InvalidArgument(series_seed_problem(self.seed))
        if self.max_turns is not None and (type(self.max_turns) is not int
                                           or self.max_turns < 0):
            raise InvalidArgument(f"--turns must be >= 0, got {self.max_turns!r}")
        if self.sprt is not None:
            if len(self.entrants) != 2:
                raise InvalidArgument("--sprt compares two agents; give exactly two")
            e0, e1 = self.sprt
            if not (math.isfinite(e0) and math.isfinite(e1) and e0 < e1):
                raise InvalidArgument(f"--sprt ELO0,ELO1 needs ELO0 < ELO1, got {e0:g},{e1:g}")

    def seated(self, seats: list[Entrant], seed: int | None = None) -> dict[str, Any]:
        return seat_scenario(self._round_scenario(self.seed if seed is None else seed), seats)

    def _round_scenario(self, seed: int) -> Scenario:
        """The scenario every game of the round with this seed plays."""
        sc = vary_scenario(self.scenario, self.vary, seed)
        return sc if self.budget is None else sc.model_copy(update={"budget": self.budget})

    def config(self) -> dict[str, Any]:
        """What the results log must match to be resumed."""
        return {"scenario": self.scenario.model_dump(mode="json"),
                "entrants": [e.to_dict() for e in self.entrants], "games": self.games,
                "seed": self.seed,
                "budget": self.budget.model_dump(mode="json") if self.budget else None,
                "max_turns": self.max_turns,
                "sprt": list(self.sprt) if self.sprt else None,
                # only when set: logs written before --vary existed still resume
                **({"vary": self.vary} if self.vary else {})}

    def jobs(self, replay_dir: Path | None = None) -> list[GameJob]:
        """Round by round, so a stopped run has played every pairing about
        equally often (round r of every pairing before round r + 1)."""
        out = []
        pairs = list(itertools.combinations(range(len(self.entrants)), 2))
        for r in range(self.games // 2):
            base = self._round_scenario(self.seed + r)    # once a round, not once a game
            for i, j in pairs:
                for shift, seats in enumerate(((i, j), (j, i))):
                    key = f"{i}-{j}/{r}/{shift}"
                    replay = None
                    if replay_dir is not None:
                        replay = str(replay_dir / f"{i}-{j}_r{r}_s{shift}.jsonl")
                    seated = seat_scenario(base, [self.entrants[k] for k in seats])
                    out.append(GameJob(key, seated, seats, self.seed + r, self.max_turns,
                                       replay))
        return out

    def check(self) -> None:
        check_vary(self.scenario, self.vary, range(self.seed, self.seed + self.games // 2))
        check_entrants(self._round_scenario(self.seed), self.entrants)


def make_spec(scenario: Scenario, entrants: list[Entrant], **kw: Any) -> TournamentSpec:
    spec = TournamentSpec(scenario, unique_names(entrants), **kw)
    spec.check()
    return spec


# ------------------------------------------------------------------ results
@dataclass
class Standing:
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def mean(self) -> float:
        return self.score / self.games if self.games else math.nan


@dataclass
class Summary:
    names: list[str]
    standings: list[Standing]
    ratings: Ratings | None
    games: int
    expected: int
    sprt: SprtResult | None = None
    seconds: float = 0.0
    pairs: list[list[Standing]] = field(default_factory=list)   # [i][j]: i against j

    def to_dict(self) -> dict[str, Any]:
        agents = []
        for k, s in enumerate(self.standings):
            d: dict[str, Any] = {"name": s.name, "games": s.games, "wins": s.wins,
                                 "draws": s.draws, "losses": s.losses,
                                 "score": _r(s.mean)}
            if self.ratings is not None:
                lo, hi = self.ratings.interval(k)
                d.update(elo=_r(self.ratings.elo(k), 1), elo_ci95=[_r(lo, 1), _r(hi, 1)])
            agents.append(d)
        out: dict[str, Any] = {
            "games": self.games, "expected_games": self.expected,
            "seconds": round(self.seconds, 2),
            "rating": "Bradley-Terry (Newton), Elo scale, 95% Fisher-information intervals "
                      "against the field's mean; one virtual draw per pair",
            "agents": agents,
            "ranking": [self.names[i] for i in self.ratings.order()] if self.ratings else None,
            "pairs": {f"{self.names[i]} vs {self.names[j]}": {
                "wins": p.wins, "draws": p.draws, "losses": p.losses, "score": _r(p.mean)}
                for i, row in enumerate(self.pairs) for j, p in enumerate(row)
                if i < j and p.games}}
        if self.ratings is not None and len(self.names) == 2:
            d, lo, hi = self.ratings.diff(0, 1)
            out["elo_diff"] = {"value": _r(d, 1), "ci95": [_r(lo, 1), _r(hi, 1)]}
        if self.sprt is not None:
            out["sprt"] = {"llr": _r(self.sprt.llr), "bounds": [_r(self.sprt.lower),
                                                               _r(self.sprt.upper)],
                           "pairs": self.sprt.units, "decision": self.sprt.decision}
        return out

    def text(self, title: str = "") -> str:
        lines = [title] if title else []
        head = f"  {'#':>2} {'agent':<22}{'elo':>8}  {'95% interval':<18}{'score':>7}" \
               f"{'W':>6}{'D':>6}{'L':>6}"
        lines.append(head)
        order = self.ratings.order() if self.ratings else range(len(self.names))
        for rank, k in enumerate(order, start=1):
            s = self.standings[k]
            if self.ratings is not None:
                lo, hi = self.ratings.interval(k)
                elo = f"{self.ratings.elo(k):>8.0f}  [{lo:>6.0f}, {hi:>6.0f}]  "
            else:
                elo = f"{'-':>8}  {'':<18}"
            lines.append(f"  {rank:>2} {s.name[:22]:<22}{elo}{s.mean:>7.3f}"
                         f"{s.wins:>6}{s.draws:>6}{s.losses:>6}")
        if self.ratings is not None and len(self.names) == 2:
            d, lo, hi = self.ratings.diff(0, 1)
            lines.append(f"  {self.names[0]} - {self.names[1]}: {d:+.0f} Elo "
                         f"[{lo:+.0f}, {hi:+.0f}]")
        if self.sprt is not None:
            dec = {"H1": "accept H1 (the first is stronger by elo1 or more)",
                   "H0": "accept H0 (the first is not stronger by elo1)",
                   None: "undecided"}[self.sprt.decision]
            lines.append(f"  SPRT: LLR {self.sprt.llr:.2f} in [{self.sprt.lower:.2f}, "
                         f"{self.sprt.upper:.2f}] after {self.sprt.units} pairs: {dec}")
        early = (self.sprt is not None and self.sprt.decision is not None
                 and self.games < self.expected)
        lines.append(f"  {self.games} of {self.expected} games"
                     + (" (stopped by the SPRT; games already running were finished)"
                        if early else "")
                     + (f" ({self.seconds:.1f} s)" if self.seconds else ""))
        return "\n".join(lines)


def _r(x: float, nd: int = 4) -> float | None:
    return None if not math.isfinite(x) else round(x, nd)


def summarize(spec: TournamentSpec, results: list[dict[str, Any]]) -> Summary:
    names = [e.name for e in spec.entrants]
    n = len(names)
    standings = [Standing(x) for x in names]
    pairs = [[Standing(f"{names[i]} vs {names[j]}") for j in range(n)] for i in range(n)]
    games = []
    units: dict[tuple[str, int], list[float]] = {}    # (pairing, round) -> entrant 0's scores
    for row in results:
        a, b = row["entrants"]
        sa, sb = row["scores"]
        games.append((a, b, sa))
        for k, s, other in ((a, sa, b), (b, sb, a)):
            for st in (standings[k], pairs[k][other]):
                st.wins += s == 1.0
                st.losses += s == 0.0
                st.draws += 0.0 < s < 1.0
                st.score += s
        pairing, rnd, _ = row["key"].split("/")
        units.setdefault((pairing, int(rnd)), []).append(sa if a == 0 else sb)
    ratings = fit_bradley_terry(names, games) if games else None
    test = None
    if spec.sprt is not None:
        pair_means = [sum(v) / 2 for v in units.values() if len(v) == 2]
        test = sprt(pair_means, *spec.sprt)
    expected = n * (n - 1) // 2 * spec.games
    return Summary(names, standings, ratings, len(results), expected, test, pairs=pairs)


def sorted_results(log_games: dict[str, dict[str, Any]], jobs: list[GameJob]) -> list[dict]:
    """The log's results in schedule order (the order in which they arrive
    does not change any figure, but a fixed order makes files comparable)."""
    return [log_games[j.key] for j in jobs if j.key in log_games]


class SprtWatch:
    """The SPRT kept up to date game by game (run_jobs' should_stop): only
    the pairs' scores are kept, so a long run costs O(1) per game."""

    def __init__(self, spec: TournamentSpec, results: list[dict[str, Any]] = ()) -> None:
        self.spec = spec
        self.units: dict[str, list[float]] = {}
        self.means: list[float] = []
        for row in results:
            self.add(row)

    def add(self, row: dict[str, Any]) -> None:
        pairing, rnd, _ = row["key"].split("/")
        a, b = row["entrants"]
        u = self.units.setdefault(f"{pairing}/{rnd}", [])
        u.append(row["scores"][0] if a == 0 else row["scores"][1])
        if len(u) == 2:
            self.means.append(sum(u) / 2)

    def result(self) -> SprtResult | None:
        return None if self.spec.sprt is None else sprt(self.means, *self.spec.sprt)

    def decided(self) -> bool:
        r = self.result()
        return r is not None and r.decision is not None
