"""Parameter sweeps: candidates (a base agent with some knobs changed), each
playing a fixed opponent pool with seats swapped on paired seeds, ranked by
mean score against the pool.

    --param c=0.3:1.5:7        7 values from 0.3 to 1.5 (integers: rounded, repeats dropped)
    --param max_depth=6,10,14  these values (TOML: numbers, true/false, bare words)
    --param depth=...          `depth` is max_depth; `budget.iterations` / `budget.ms` too

`budget.iterations` alone makes an iteration-only budget (ms 0). A grid
plays every combination; `--random N` draws N points instead (a range
uniformly in [lo, hi], a list by choice) from the sweep's seed. Every value
is checked by the SearchParams / Budget models before any game.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..seeds import series_seed_problem
from ..config import Budget, Scenario
from ..config.errors import one_line
from ..config.scenario import setting_value
from ..native import InvalidArgument, SearchParams
from ..sim.series import format_interval, score_interval
from .agents import (Entrant, check_entrants, check_vary, seat_scenario, unique_names,
                     vary_scenario)
from .jobs import GameJob

ALIASES = {"depth": "max_depth", "C": "c"}
MAX_POINTS = 10_000


@dataclass(frozen=True)
class Param:
    path: tuple[str, str]          # ("search", "c") or ("budget", "iterations")
    values: tuple[Any, ...]        # grid values
    span: tuple[float, float] | None = None   # a:b:n range (random draws use it)
    integer: bool = False

    @property
    def name(self) -> str:
        return self.path[1] if self.path[0] == "search" else ".".join(self.path)


def _field(name: str) -> tuple[tuple[str, str], Any]:
    name = ALIASES.get(name, name)
    if name.startswith("search."):
        name = name[len("search."):]
    if name.startswith("budget."):
        key = name[len("budget."):]
        if key not in Budget.model_fields:
            raise InvalidArgument(f"--param {name}: Budget has no field {key!r} "
                                  f"(it has {', '.join(Budget.model_fields)})")
        return ("budget", key), Budget.model_fields[key]
    if name not in SearchParams.model_fields:
        raise InvalidArgument(f"--param {name}: not a search setting (e.g. c, max_depth, gamma, "
                              "policy, algorithm; or budget.iterations)")
    return ("search", name), SearchParams.model_fields[name]


def parse_param(text: str) -> Param:
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise InvalidArgument(f"--param {text!r}: expected NAME=LO:HI:N or NAME=V1,V2,...")
    path, info = _field(name.strip())
    integer = info.annotation is int or "Int" in str(info.annotation)
    spec = spec.strip()
    if ":" in spec:
        parts = spec.split(":")
        try:
            lo, hi, n = float(parts[0]), float(parts[1]), int(parts[2])
            if len(parts) != 3:
                raise ValueError
        except (ValueError, IndexError):
            raise InvalidArgument(f"--param {text!r}: a range is LO:HI:N (numbers, N an "
                                  "integer)") from None
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi or not 1 <= n <= 1000:
            raise InvalidArgument(f"--param {text!r}: a range needs LO <= HI and N in 1..1000")
        raw = [lo + (hi - lo) * k / (n - 1) if n > 1 else lo for k in range(n)]
        # a range of one value (LO = HI) or rounding can repeat a value:
        # each candidate once
        vals = list(dict.fromkeys(int(round(v)) if integer else round(v, 10) for v in raw))
        span = (lo, hi)
    else:
        vals = []
        for tok in spec.split(","):
            try:
                v = setting_value(tok)
            except ValueError as e:
                raise InvalidArgument(f"--param {name.strip()}: {e}") from None
            if isinstance(v, (list, dict)):   # a candidate is one value
                raise InvalidArgument(f"--param {name.strip()}: {tok.strip()!r} is not one "
                                      "value (a number, true/false or a word)")
            vals.append(v)
        vals = list(dict.fromkeys(vals))
        span = None
    p = Param(path, tuple(vals), span, integer)
    for v in p.values:
        _check({p.path: v}, f"--param {p.name}={v}")
    return p


def _check(point: dict[tuple[str, str], Any], where: str, base: Entrant | None = None) -> None:
    search = dict((base.player.get("search") or {}) if base else {})
    budget = dict((base.player.get("budget") or {}) if base else {})
    for (table, key), v in point.items():
        (search if table == "search" else budget)[key] = v
    try:
        SearchParams.model_validate(search)
        if any(t == "budget" for t, _ in point):
            Budget.model_validate(budget)
    except ValidationError as exc:
        raise InvalidArgument(f"{where}: {one_line(exc)}") from None


def points(params: list[Param], random_n: int | None, seed: int) -> list[dict]:
    """The candidate settings: the grid, or `random_n` random draws."""
    if not params:
        raise InvalidArgument("a sweep needs at least one --param")
    if len({p.path for p in params}) != len(params):
        raise InvalidArgument("each --param may appear once")
    if random_n is None:
        size = math.prod(len(p.values) for p in params)
        if size > MAX_POINTS:
            raise InvalidArgument(f"the grid has {size:,} points (at most {MAX_POINTS:,}); "
                                  "use --random N")
        return [{p.path: v for p, v in zip(params, combo)}
                for combo in itertools.product(*(p.values for p in params))]
    if not 1 <= random_n <= MAX_POINTS:
        raise InvalidArgument(f"--random must be in 1..{MAX_POINTS:,}")
    rng = random.Random(seed)
    out = []
    for _ in range(random_n):
        pt = {}
        for p in params:
            if p.span is None:
                pt[p.path] = rng.choice(p.values)
            elif p.integer:
                pt[p.path] = rng.randint(math.ceil(p.span[0]), math.floor(p.span[1]))
            else:
                pt[p.path] = round(rng.uniform(*p.span), 6)
        out.append(pt)
    # a draw that repeats an earlier one would be the same candidate twice
    # (a choice or a narrow integer range): kept once, so fewer than N can
    # come out
    unique = {tuple(sorted(pt.items())): pt for pt in reversed(out)}
    return [pt for pt in out if unique.get(tuple(sorted(pt.items()))) is pt]


def candidate(base: Entrant, point: dict[tuple[str, str], Any], label: str) -> Entrant:
    player = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.player.items()}
    for (table, key), v in point.items():
        player.setdefault(table, {})
        player[table] = {**player[table], key: v}
    if player.get("controller") not in (None, "smitsimax"):
        raise InvalidArgument(f"the base agent's controller is {player['controller']!r}: "
                              "a sweep tunes a search agent")
    player["controller"] = "smitsimax"
    budget = player.get("budget")
    if isinstance(budget, dict) and "iterations" in budget and "ms" not in budget:
        # an iteration budget alone, not on top of the default 50 ms: the
        # games stay reproducible and the swept value is the one that binds
        player["budget"] = {**budget, "ms": 0}
    return Entrant(label, player, base.source)


def label(point: dict[tuple[str, str], Any]) -> str:
    return " ".join(f"{k if t == 'search' else t + '.' + k}={v:g}" if isinstance(v, float)
                    else f"{k if t == 'search' else t + '.' + k}={v}" for (t, k), v in point.items())


@dataclass(frozen=True)
class SweepSpec:
    scenario: Scenario
    base: Entrant
    params: list[Param]
    pool: list[Entrant]
    games: int                      # per candidate and opponent, even
    seed: int = 1
    random_n: int | None = None
    budget: Budget | None = None
    max_turns: int | None = None
    vary: str | None = None         # a game parameter set to each seed (a map per seed)

    def __post_init__(self) -> None:
        if len(self.scenario.players) != 2:
            raise InvalidArgument(f"a sweep plays two-player scenarios; {self.scenario.name} "
                                  f"has {len(self.scenario.players)} players")
        if not self.pool:
            raise InvalidArgument("--vs needs at least one opponent")
        if not isinstance(self.games, int) or not 2 <= self.games <= 100_000 or self.games % 2:
            raise InvalidArgument(f"--games must be an even number in 2..100,000 (each seed "
                                  f"is played with both seat orders), got {self.games}")
        if series_seed_problem(self.seed):
            raise InvalidArgument(series_seed_problem(self.seed))
        if self.max_turns is not None and (type(self.max_turns) is not int
                                           or self.max_turns < 0):
            raise InvalidArgument(f"--turns must be >= 0, got {self.max_turns!r}")

    def points(self) -> list[dict]:
        return points(self.params, self.random_n, self.seed)

    def candidates(self) -> list[Entrant]:
        out = []
        for k, pt in enumerate(self.points()):
            _check(pt, f"candidate {label(pt)}", self.base)
            out.append(candidate(self.base, pt, f"#{k} {label(pt)}"))
        return out

    def _scenario(self) -> Scenario:
        return self.scenario if self.budget is None else \
            self.scenario.model_copy(update={"budget": self.budget})

    def check(self) -> None:
        check_vary(self.scenario, self.vary, range(self.seed, self.seed + self.games // 2))
        cands = self.candidates()
        check_entrants(vary_scenario(self._scenario(), self.vary, self.seed),
                       [cands[0], *self.pool])

    def config(self) -> dict[str, Any]:
        return {"scenario": self.scenario.model_dump(mode="json"),
                "candidates": [c.to_dict() for c in self.candidates()],
                "pool": [e.to_dict() for e in self.pool], "games": self.games,
                "seed": self.seed,
                "budget": self.budget.model_dump(mode="json") if self.budget else None,
                "max_turns": self.max_turns,
                # only when set: logs written before --vary existed still resume
                **({"vary": self.vary} if self.vary else {})}

    def jobs(self) -> list[GameJob]:
        """Round by round over every candidate and opponent (a stopped sweep
        has every candidate about equally far)."""
        cands = self.candidates()
        nc = len(cands)
        sc = self._scenario()
        out = []
        for r in range(self.games // 2):
            sr = vary_scenario(sc, self.vary, self.seed + r)
            for ci, c in enumerate(cands):
                for oi, o in enumerate(self.pool):
                    for shift, seats in enumerate(((c, o), (o, c))):
                        ids = (ci, nc + oi) if shift == 0 else (nc + oi, ci)
                        out.append(GameJob(f"c{ci}-o{oi}/{r}/{shift}", seat_scenario(sr, list(seats)),
                                           ids, self.seed + r, self.max_turns))
        return out


@dataclass
class CandidateScore:
    entrant: Entrant
    point: dict
    scores: list[float]
    pair_means: list[float]
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else math.nan

    def interval(self) -> tuple[float, float]:
        return score_interval(self.pair_means)


def score_candidates(spec: SweepSpec, results: list[dict[str, Any]]) -> list[CandidateScore]:
    cands = spec.candidates()
    pts = spec.points()
    out = [CandidateScore(c, p, [], []) for c, p in zip(cands, pts)]
    units: dict[str, list[float]] = {}
    for row in results:
        ci = int(row["key"].split("-", 1)[0][1:])
        seat = row["entrants"].index(ci)
        s = row["scores"][seat]
        cs = out[ci]
        cs.scores.append(s)
        cs.wins += s == 1.0
        cs.losses += s == 0.0
        cs.draws += 0.0 < s < 1.0
        u = units.setdefault(row["key"].rsplit("/", 1)[0], [])
        u.append(s)
        if len(u) == 2:
            cs.pair_means.append(sum(u) / 2)
    return out


def table(spec: SweepSpec, scores: list[CandidateScore]) -> str:
    names = [p.name for p in spec.params]
    w = [max(len(n), 8) for n in names]
    lines = ["  " + "".join(f"{n:>{k}}  " for n, k in zip(names, w))
             + f"{'score':>7}  {'95% interval':<17}{'W':>5}{'D':>5}{'L':>5}"]
    for cs in sorted(scores, key=lambda c: -c.mean if c.scores else math.inf):
        vals = [cs.point[p.path] for p in spec.params]
        lo, hi = cs.interval()
        lines.append("  " + "".join(f"{_fmt(v):>{k}}  " for v, k in zip(vals, w))
                     + f"{cs.mean:>7.3f}  {format_interval(lo, hi)}  {cs.wins:>5}{cs.draws:>5}"
                       f"{cs.losses:>5}")
    return "\n".join(lines)


def _fmt(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def best(scores: list[CandidateScore]) -> CandidateScore | None:
    played = [c for c in scores if c.scores]
    return max(played, key=lambda c: c.mean) if played else None


def make_sweep(scenario: Scenario, base: Entrant, params: list[Param], pool: list[Entrant],
               **kw: Any) -> SweepSpec:
    spec = SweepSpec(scenario, base, params, unique_names(pool), **kw)
    spec.check()
    return spec
