"""Soak: matches back to back with live hot-swaps, watching memory.

    python -m sandbox soak [--minutes N] [--turns T] [--scenario S | --rotate]

Plays the default scenario (or the one given, or every bundled scenario
without a human player in turn, with --rotate) with a small iteration budget,
match after match, until T turns in all (default 10,000) or N minutes. Every
`swap_every` turns (default 10) one search player chosen at random gets random
valid search settings through SearchController.update_settings while its
search is thinking, exactly as the app's panel sends them. The resident set
(/proc/self/statm) is sampled every `swap_every` turns after a warm-up (the
first 10% of the turns); the peak of the second half of the samples against
the peak of the first is the growth, and above `max_growth_pct` (5%) it is a
failure (exit 1). Peaks, not the first and last samples: the random settings
move the resident set by several MB either way from one swap to the next (a
tree arena touched further, root parallelism's extra tree sets, a deeper
search), so two single samples measured which settings happened to be in
force (measured: +2% to +9% over runs of the same seed). A leak raises every
later peak; a settings walk samples the same states in both halves.

Not part of the test run (a 10,000-turn soak takes about a minute); one test
runs it with a tiny budget to check that it works.
"""
from __future__ import annotations

import ctypes
import gc
import math
import os
import random
import sys
import time
import typing
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from ..config import (Scenario, ScenarioError, budget_from_flags, list_scenarios,
                     load_scenario)
from ..config.scenario import DEFAULT_SCENARIO
from ..native import InvalidArgument, SearchParams, cores
from ..sim.match import Match
from ..sim.controller import SearchController

# Valid ranges are the model's, but a few are cut down so that a soak of
# 10,000 turns measures memory, not a search that grew 64 MB trees at depth 64:
# node_cap up to 2^18 nodes per tree, max_depth up to 30.
SWAP_TRIES = 20                  # draws per swap until one C accepts for the game
SOAK_LIMITS = {"node_cap": 1 << 18, "max_depth": 30}


def _bounds(field) -> tuple[Any, Any]:
    lo = hi = None
    for m in field.metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else lo
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
    return lo, hi


def random_settings(rng: random.Random, base: SearchParams, changes: int = 3) -> SearchParams:
    """`base` with 1..`changes` knobs set to random valid values, for every
    field SearchParams declares (knobs added later join in by themselves;
    one of a kind this function does not know keeps its value)."""
    fields = SearchParams.model_fields
    picked = rng.sample(sorted(fields), k=min(len(fields), rng.randint(1, changes)))
    new: dict[str, Any] = {}
    for name in picked:
        field = fields[name]
        ann = field.annotation
        lo, hi = _bounds(field)
        if typing.get_origin(ann) is typing.Literal:
            new[name] = rng.choice(typing.get_args(ann))
        elif ann is bool:
            new[name] = rng.random() < 0.5
        elif ann is int and lo is not None and hi is not None:
            hi = min(int(hi), SOAK_LIMITS.get(name, int(hi)))
            if name == "threads":
                hi = min(hi, cores())     # C's rule: this machine's cores
            # log-uniform: small and large values both turn up
            new[name] = round(math.exp(rng.uniform(math.log(max(lo, 1)), math.log(hi))))
            new[name] = max(int(lo), min(hi, new[name]))
        elif ann is float and lo is not None and hi is not None:
            new[name] = rng.uniform(float(lo), float(hi))
    mode = new.get("parallel", base.parallel)
    if new.get("algorithm", base.algorithm) == "mcgs" and mode in ("root", "leaf"):
        mode = new["parallel"] = rng.choice(("wu_uct", "tree"))  # MCGS runs these two
    if mode != "serial":  # the parallel modes' cross-field rules
        if mode == "leaf":
            new["rollout"] = True
        if new.get("policy", base.policy) not in (
                ("ucb1", "ucb1_tuned") if mode == "root" else ("ucb1",)):
            new["policy"] = "ucb1"
        if mode != "root":
            new["backup"] = "mean"
    if (new.get("backup", base.backup) == "power"
            and new.get("policy", base.policy) != "ucb1"):
        new["backup"] = "mean"  # the cross-field rule: power is a ucb1 backup
    if (new.get("algorithm", base.algorithm) == "suct"
            and new.get("priors", base.priors) != "uniform"
            and new.get("policy", base.policy) == "ucb1_tuned"):
        new["policy"] = "ucb1"   # SUCT's prior takes UCB1-Tuned's bytes
    if (new.get("algorithm", base.algorithm) == "smitsimax"
            and new.get("priors", base.priors) != "uniform"):
        # Smitsimax's priors make UCB1 a PUCT: policy ucb1, serial or root
        if mode in ("serial", "root"):
            new["policy"] = "ucb1"
        else:
            new["priors"] = "uniform"
    return base.replace(**new)


def _malloc_trim() -> Callable[[], None]:
    """glibc's malloc_trim(0), or a no-op where there is none."""
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


_trim = _malloc_trim()


def rss_bytes() -> int:
    """The resident set after glibc has handed back the free memory it
    keeps: freed trees (a few MB each) stay resident in the allocator's
    per-thread arenas otherwise, and the soak's RSS rose about 7 MB over
    100,000 turns with nothing leaked (C create/run/destroy loops are flat
    after a trim; tracemalloc sees no Python growth). With the trim the same
    soak is flat (+0.5% over 40,000 turns)."""
    _trim()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@dataclass
class SoakResult:
    turns: int
    matches: int
    swaps: int
    swaps_confirmed: int
    seconds: float
    rss_warm: int | None
    rss_warm_turn: int
    rss_end: int
    # after the warm-up, every swap_every turns
    rss_samples: tuple[int, ...] = ()
    # --rotate: after each full cycle through the scenarios (the same point
    # of the rotation each time), after the warm-up: (turns done, RSS)
    cycle_samples: tuple[tuple[int, int], ...] = ()
    # swaps asked in a match's last turn: it ended before the search read them
    swaps_unread: int = 0

    @property
    def bytes_per_turn(self) -> float | None:
        """The least-squares slope of RSS over turns at the cycle ends (None
        with fewer than two): what a leak adds per turn, whichever scenario
        happens to run."""
        pts = self.cycle_samples
        if len(pts) < 2:
            return None
        n = len(pts)
        mt = sum(t for t, _ in pts) / n
        mr = sum(r for _, r in pts) / n
        var = sum((t - mt) ** 2 for t, _ in pts)
        return sum((t - mt) * (r - mr) for t, r in pts) / var if var > 0 else None

    @property
    def peaks(self) -> tuple[int, int] | None:
        """The highest sample of each half (None with fewer than two)."""
        s = self.rss_samples
        if len(s) < 2:
            return None
        half = (len(s) + 1) // 2   # an odd sample goes to the first half: no upward bias
        return max(s[:half]), max(s[half:])

    @property
    def growth_pct(self) -> float | None:
        pk = self.peaks
        if not pk:
            return None
        return 100.0 * (pk[1] - pk[0]) / pk[0]


# A rotation's limit: a leak of 1 KB a turn is four times it; the cycle ends'
# noise, after a trim, is a few MB over tens of thousands of turns.
MAX_BYTES_PER_TURN = 256.0


def _rotation_verdict(res: "SoakResult", n: int, limit: float, out: TextIO) -> tuple[int, "SoakResult"]:
    pts = res.cycle_samples
    slope = res.bytes_per_turn
    if slope is None:
        print(f"soak: a rotation is judged at the end of each full cycle through its {n} "
              f"scenarios after the warm-up; {len(pts)} here, two needed: run longer "
              f"(--minutes)", file=out, flush=True)
        return 2, res
    verdict = "ok" if slope <= limit else "FAILED"
    print(f"soak: rss at the end of {len(pts)} full cycles: first {pts[0][1] / 2**20:.1f} MB "
          f"(turn {pts[0][0]}), last {pts[-1][1] / 2**20:.1f} MB (turn {pts[-1][0]}); "
          f"growth {slope:+,.0f} bytes per turn (limit {limit:g}): {verdict}", file=out,
          flush=True)
    return (0 if slope <= limit else 1), res


def soak_scenarios(name: str | None, rotate: bool) -> list[Scenario]:
    if name is not None and rotate:
        raise InvalidArgument("give --scenario or --rotate, not both")
    if not rotate:
        sc = load_scenario(name or DEFAULT_SCENARIO)
        if any(p.controller == "human" for p in sc.players):
            raise InvalidArgument(f"{sc.name}: has a human player; the soak plays unattended")
        return [sc]
    out = [load_scenario(p) for p in list_scenarios()]
    return [sc for sc in out if not any(p.controller == "human" for p in sc.players)]


def run_soak(turns: int = 10_000, minutes: float | None = None, scenario: str | None = None,
             rotate: bool = False, iterations: int = 100, seed: int = 1, swap_every: int = 10,
             warmup: float = 0.1, max_growth_pct: float = 5.0,
             max_bytes_per_turn: float = MAX_BYTES_PER_TURN, leak_per_turn: int = 0,
             out: TextIO | None = None) -> tuple[int, SoakResult]:
    """Returns (exit status, result): 0 if memory held, 1 if it grew, 2 if
    the run was too short to compare. One scenario: RSS grew by at most
    max_growth_pct after the warm-up (the peaks of the two halves). A
    rotation: RSS at the end of each full cycle rose by at most
    max_bytes_per_turn per turn (a least-squares slope). The peaks of a
    rotation's halves compare whichever scenarios ran in each: measured
    +56% over 5 minutes with the RSS at the end back at the warm-up figure,
    a scenario's peak and no leak. `leak_per_turn`: keep that many bytes
    more every turn (--inject-leak), to show the check catches a leak."""
    out = out or sys.stdout
    if turns < 1:
        raise InvalidArgument("--turns must be >= 1")
    try:
        budget = budget_from_flags(iterations, None)   # its range, in the CLI's one line
    except ScenarioError as e:
        raise InvalidArgument(str(e)) from None
    if swap_every < 1:
        raise InvalidArgument("swap_every must be >= 1")
    if minutes is not None and not minutes > 0:
        raise InvalidArgument("--minutes must be > 0")
    if isinstance(leak_per_turn, bool) or not isinstance(leak_per_turn, int) \
            or not 0 <= leak_per_turn <= 1 << 20:
        raise InvalidArgument("--inject-leak must be 0..1048576 bytes per turn")
    scenarios = soak_scenarios(scenario, rotate)
    leaked: list[bytes] = []
    cycle: list[tuple[int, int]] = []
    unread = 0
    rng = random.Random(seed)
    deadline = time.monotonic() + minutes * 60 if minutes else math.inf
    warm_turn = max(1, int(turns * warmup))
    # under a time limit the warm-up is also the first `warmup` of the time
    # (a --minutes run with the default --turns never reached its turn)
    warm_at = time.monotonic() + warmup * minutes * 60 if minutes else math.inf
    t0 = time.perf_counter()
    done = matches = swaps = confirmed = 0
    rss_warm: int | None = None
    samples: list[int] = []
    report_every = max(1, turns // 10)
    names = ", ".join(sc.name for sc in scenarios)
    print(f"soak: {turns} turns or {minutes or 'no'} minutes on {names}; {iterations} iterations "
          f"per player per turn; a settings swap every {swap_every} turns", file=out, flush=True)

    while done < turns and time.monotonic() < deadline:
        sc = scenarios[matches % len(scenarios)]
        with Match(sc, seed=seed + matches, budget=budget, max_turns=sc.max_turns) as match:
            matches += 1
            searchers = [c for c in match.controllers if isinstance(c, SearchController)]
            asked: dict[int, SearchParams] = {}
            while not match.over and done < turns and time.monotonic() < deadline:
                match.start_turn()           # the searches think on their threads ...
                if searchers and done % swap_every == swap_every - 1:
                    c = rng.choice(searchers)    # ... while the panel changes one
                    for _ in range(SWAP_TRIES):
                        new = random_settings(rng, c.settings)
                        try:
                            c.update_settings(new, turn=match.turn)
                        except InvalidArgument:
                            # C refuses it for this game, as the panel would
                            # (joint-action MCTS on too many agents, a
                            # node_cap below the algorithm's worst iteration)
                            continue
                        asked[c.player] = new
                        swaps += 1
                        break
                match.complete_turn()
                if leak_per_turn:
                    leaked.append(b"x" * leak_per_turn)   # touched: resident
                for c in searchers:
                    # applied at a slice boundary and read back from C
                    if c.player in asked and c.c_confirmed == asked[c.player]:
                        confirmed += 1
                        del asked[c.player]
                done += 1
                if rss_warm is None and (done >= warm_turn or time.monotonic() >= warm_at):
                    gc.collect()
                    rss_warm = rss_bytes()
                    warm_turn = done
                if rss_warm is not None and done % swap_every == 0:
                    samples.append(rss_bytes())
                if done % report_every == 0:
                    secs = time.perf_counter() - t0
                    print(f"  turn {done:>6}: {matches} matches, {done / secs:,.0f} turns/s, "
                          f"RSS {rss_bytes() / 2**20:.1f} MB", file=out, flush=True)
            unread += len(asked)
        if len(scenarios) > 1 and matches % len(scenarios) == 0 and rss_warm is not None \
                and match.over:
            gc.collect()
            cycle.append((done, rss_bytes()))
    gc.collect()
    res = SoakResult(turns=done, matches=matches, swaps=swaps, swaps_confirmed=confirmed,
                     seconds=time.perf_counter() - t0, rss_warm=rss_warm,
                     rss_warm_turn=warm_turn, rss_end=rss_bytes(),
                     rss_samples=tuple(samples), cycle_samples=tuple(cycle),
                     swaps_unread=unread)
    unread_note = (f"; {res.swaps_unread} asked in a match's last turn, which ended before "
                   "the search read them" if res.swaps_unread else "")
    print(f"soak: turns={res.turns} matches={res.matches} swaps={res.swaps} "
          f"(read back from C: {res.swaps_confirmed}{unread_note}) time={res.seconds:.1f}s "
          f"turns/s={res.turns / max(res.seconds, 1e-9):,.0f}", file=out)
    if len(scenarios) > 1:
        return _rotation_verdict(res, len(scenarios), max_bytes_per_turn, out)
    if res.peaks is None:
        print(f"soak: fewer than two RSS samples after the warm-up (turn {warm_turn}, then "
              f"every {swap_every} turns): no growth to report (RSS {res.rss_end / 2**20:.1f} "
              "MB)", file=out, flush=True)
        return 2, res
    growth = res.growth_pct
    verdict = "ok" if growth <= max_growth_pct else "FAILED"
    first, second = res.peaks
    print(f"soak: rss warm-up={res.rss_warm / 2**20:.1f} MB (turn {warm_turn}) "
          f"end={res.rss_end / 2**20:.1f} MB; peak of the first half of the "
          f"{len(res.rss_samples)} samples={first / 2**20:.1f} MB, of the second half="
          f"{second / 2**20:.1f} MB growth={growth:+.2f}% "
          f"(limit {max_growth_pct:g}%): {verdict}", file=out, flush=True)
    return (0 if growth <= max_growth_pct else 1), res
