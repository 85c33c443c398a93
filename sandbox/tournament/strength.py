"""The strength table (`python -m sandbox strength`): how strong each agent
is against fixed yardstick opponents on the bundled two-player scenarios,
at equal iterations and at equal wall time.

A cell is (scenario, agent, opponent, budget). Both sides get the same
budget (the agents' own budgets are set aside). It plays `games` games: the
seeds S..S+games/2-1, each seed twice with the seats exchanged (paired
seeds: the same deal, prize order, maze or map both ways round), so neither
a seat nor a deal favours either side. A game scores 1 for a win, 0.5 for a
draw, 0 for a loss (the agent's side; teams rank by their best member, as
in `series`); the interval is series' normal-approximation 95% interval
over the seeds' mean scores (each seed's two games are one unit).

At equal wall time the two sides think in turn (Match think="in_turn"),
each search alone while the other waits, and every game of a pool of
workers (default one per core) runs one search at a time: each search has a
core, if the machine is otherwise idle. The table gives each side's mean
iterations per turn, so what equal time bought either side is visible.

Games are tournament GameJobs (sandbox.tournament.jobs) on an Executor,
each cell's results appended to its own resumable log
(`<out>/<scenario>/<agent>-vs-<opponent>-<budget>.jsonl`); the log's header
does not hold the number of games, so a larger --games later extends the
games already played.

    python -m sandbox strength [--quick] [--games N] [--only KEY,...]
        [--agent SPEC]... [--opponents uct,random] [--markdown FILE [--section TITLE]]
        [--json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from ..config import Budget, Scenario, ScenarioError
from ..native import InvalidArgument
from ..seeds import series_seed_problem
from ..sim.series import format_interval, interval_json, score_interval
from .agents import (BUILTIN, Entrant, check_entrants, load_entrant, seat_scenario,
                     unique_names, vary_scenario)
from .jobs import GameJob

# The yardstick opponents every agent is measured against.
YARDSTICKS = ("uct", "random")


@dataclass(frozen=True)
class TableScenario:
    key: str                        # the row's name and --only's word
    scenario: str                   # a bundled scenario name (or a .toml path)
    sets: tuple[str, ...] = ()      # --set style changes
    vary: str | None = None         # set to each seed (a new maze / map per seed pair)
    label: str = ""
    # each algorithm's best-setting agent file for this scenario (--every-algorithm)
    agents: tuple[str, ...] = ()


def _files(prefix: str, algorithms: str) -> tuple[str, ...]:
    return tuple(f"agents/{prefix}_{a}.toml" for a in algorithms.split())


_GOOF = _files("goofspiel13", "smitsimax suct joint mcgs gtcfr")
SCENARIOS = (
    TableScenario("goofspiel13-descending", "goofspiel_13_duel",
                  label="goofspiel 13, descending prizes", agents=_GOOF),
    TableScenario("goofspiel13-random", "goofspiel_13_duel",
                  ("game_params.points_order=random",), label="goofspiel 13, random prizes",
                  agents=_GOOF),
    TableScenario("maze-duel", "maze_medium_duel", vary="game_params.maze_seed",
                  label="maze duel (a maze per seed)",
                  agents=_files("maze_duel", "smitsimax suct joint mcgs")),
    TableScenario("snakes-duel", "snakes_duel_trees", label="snakes duel 11x11",
                  agents=_files("snakes_duel", "smitsimax suct joint mcgs gtcfr")),
    TableScenario("snakes-royale-4", "snakes_royale_2v2",
                  label="snakes royale, 4 snakes (2 a side)"),
    TableScenario("snakes-wrapped-duel", "snakes_wrapped_duel",
                  label="snakes wrapped duel 11x11"),
    TableScenario("pods-2v2", "pods_race_2v2", vary="game_params.map_seed",
                  label="pods 2v2 (a map per seed)",
                  agents=_files("pods_2v2", "smitsimax suct")),
    TableScenario("snakebyte-2v2", "snakebyte_2v2", vary="game_params.map_seed",
                  label="snakebyte 2v2 (a map per seed)",
                  agents=_files("snakebyte_2v2", "smitsimax suct joint")),
)

GAMES = 200                  # per cell (even: each seed with both seat orders)
QUICK_GAMES = 4
ITERATIONS = 1000            # the equal-iterations budget
MS = 20.0                    # the equal-wall-time budget
QUICK_ITERATIONS = 100
QUICK_MS = 2.0
MAX_GAMES = 100_000
LADDER_ITERATIONS = (1000, 4000, 16000, 64000)   # each rung 4x the one before
LADDER_MS = (5.0, 20.0, 80.0)
LADDER_GAMES = 100
DEFAULT_OUT = Path("strength")


# ------------------------------------------------------------------- agents
def describe(e: Entrant) -> str:
    """"smitsimax/ucb1", "random", "mcgs" ... (what the agent plays)."""
    p = e.player
    ctl = p.get("controller", "smitsimax")
    if ctl != "smitsimax":
        return ctl
    s = p.get("search") or {}
    alg = s.get("algorithm", "smitsimax")
    pol = s.get("policy")
    return f"{alg}/{pol}" if pol and pol != "ucb1" else alg


def default_entrant(scenario: Scenario) -> Entrant:
    """The scenario's seat-0 player as an entrant (its settings, not its
    budget: the table sets the budget)."""
    p = scenario.players[0]
    if p.controller == "human":
        raise InvalidArgument(f"{scenario.name}: player 0 is a person; the strength table "
                              "plays without people")
    keys: dict[str, Any] = {"controller": p.controller,
                            "search": p.search.model_dump(mode="json")}
    if p.weights:
        keys["weights"] = dict(p.weights)
    return Entrant("default", keys, "seat 0")


def without_budget(e: Entrant) -> Entrant:
    return Entrant(e.name, {k: v for k, v in e.player.items() if k != "budget"}, e.source)


def _shown(text: str) -> str:
    """A flag's value in a message: as typed, or quoted when it holds a
    character that is not printable (a newline would break the one line)."""
    return text if text.isprintable() else repr(text)


def load_spec(ref: str, flag: str) -> Entrant:
    """A built-in name or an agent file, its budget set aside; errors name
    the flag."""
    try:
        return without_budget(load_entrant(ref))
    except ScenarioError as exc:
        msg = str(exc)
        for prefix in (f"agent {ref!r}: ", f"agent {ref}: "):
            msg = msg.removeprefix(prefix)
        raise InvalidArgument(f"{flag} {_shown(ref)}: {msg}") from None


def parse_opponents(text: str | None) -> list[Entrant]:
    names = list(YARDSTICKS) if text is None else [t.strip() for t in text.split(",")]
    if not names or any(not n for n in names):
        raise InvalidArgument(f"--opponents: expected names separated by commas, got {text!r}")
    if len(set(names)) != len(names):
        raise InvalidArgument(f"--opponents: {text!r} names an opponent twice")
    if text is None:
        missing = [n for n in names if n not in BUILTIN]
        if missing:
            raise InvalidArgument(
                f"the yardstick {', '.join(missing)} is not a built-in agent of this build "
                f"({', '.join(BUILTIN)}); give --opponents, e.g. suct,random")
    return unique_names([load_spec(n, "--opponents") for n in names])


# -------------------------------------------------------------------- cells
@dataclass(frozen=True)
class Cell:
    table: TableScenario
    scenario: Scenario          # the table scenario with its sets applied
    agent: Entrant
    opponent: Entrant
    budget: Budget
    games: int
    seed: int = 1
    max_turns: int | None = None
    # the opponent's own budget (a budget ladder: the agent against itself
    # on less); None: the same as the agent's
    opponent_budget: Budget | None = None

    @property
    def think(self) -> str:
        # equal wall time: each search alone on the machine (series --think in_turn)
        return "in_turn" if self.budget.ms and not self.budget.iterations else "together"

    @property
    def budget_label(self) -> str:
        if self.opponent_budget is not None:
            return f"{budget_text(self.budget)} vs {budget_text(self.opponent_budget)}"
        return budget_text(self.budget)

    @property
    def budget_dict(self) -> dict[str, Any]:
        out = budget_json(self.budget)
        if self.opponent_budget is not None:
            out = {**out, "opponent": budget_json(self.opponent_budget)}
        return out

    def file_name(self) -> str:
        tag = budget_tag(self.budget)
        if self.opponent_budget is not None:
            tag += "-vs-" + budget_tag(self.opponent_budget)
        safe = lambda s: "".join(c if c.isalnum() or c in "-_." else "_" for c in s)  # noqa: E731
        return f"{safe(self.agent.name)}-vs-{safe(self.opponent.name)}-{tag}.jsonl"

    def config(self) -> dict[str, Any]:
        """What the cell's log must match to be resumed (not `games`: more
        games extend the log)."""
        out = {"scenario": self.scenario.model_dump(mode="json"), "vary": self.table.vary,
               "agent": self.agent.to_dict(), "opponent": self.opponent.to_dict(),
               "budget": self.budget.model_dump(mode="json"), "think": self.think,
               "seed": self.seed, "max_turns": self.max_turns}
        if self.opponent_budget is not None:
            out["opponent_budget"] = self.opponent_budget.model_dump(mode="json")
        return out

    def _opponent(self) -> Entrant:
        """The opponent, on its own budget where the cell gives it one."""
        if self.opponent_budget is None:
            return self.opponent
        return Entrant(self.opponent.name, {**self.opponent.player,
                                            "budget": self.opponent_budget.model_dump(
                                                mode="json")}, self.opponent.source)

    def _base(self, seed: int) -> Scenario:
        sc = vary_scenario(self.scenario, self.table.vary, seed)
        return sc.model_copy(update={"budget": self.budget})

    def check(self) -> None:
        check_entrants(self._base(self.seed), [self.agent, self._opponent()])

    def jobs(self) -> list[GameJob]:
        """Seed by seed: key "r/0" has the agent on seat 0, "r/1" on seat 1."""
        out = []
        for r in range(self.games // 2):
            seed = self.seed + r
            base = self._base(seed)
            for shift, seats in enumerate(((0, 1), (1, 0))):
                pair = [self.agent, self._opponent()]
                out.append(GameJob(f"{r}/{shift}", seat_scenario(base, [pair[k] for k in seats]),
                                   seats, seed, self.max_turns, None, self.think))
        return out


def budget_text(b: Budget) -> str:
    return f"{b.iterations:,} it" if b.iterations else f"{b.ms:g} ms"


def budget_json(b: Budget) -> dict[str, Any]:
    return {"iterations": b.iterations} if b.iterations else {"ms": b.ms}


def budget_tag(b: Budget) -> str:
    return f"it{b.iterations}" if b.iterations else f"ms{b.ms:g}"


@dataclass
class CellResult:
    cell: Cell
    games: list[dict[str, Any]] = field(default_factory=list)  # seed, seat, score
    agent_iterations: list[int] = field(default_factory=lambda: [0, 0])   # sum, turns
    opponent_iterations: list[int] = field(default_factory=lambda: [0, 0])
    seconds: float = 0.0

    def add(self, row: dict[str, Any]) -> None:
        seat = row["entrants"].index(0)          # the agent's seat in this game
        self.games.append({"seed": row["seed"], "seat": seat,
                           "score": row["scores"][seat]})
        its, turns = row.get("iterations"), row.get("search_turns")
        if its is not None and turns is not None:
            self.agent_iterations[0] += its[seat]
            self.agent_iterations[1] += turns[seat]
            self.opponent_iterations[0] += its[1 - seat]
            self.opponent_iterations[1] += turns[1 - seat]

    @property
    def scores(self) -> list[float]:
        return [g["score"] for g in self.games]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.games else math.nan

    def seed_means(self) -> list[float]:
        by: dict[int, list[float]] = {}
        for g in self.games:
            by.setdefault(g["seed"], []).append(g["score"])
        return [sum(v) / len(v) for v in by.values()]

    def interval(self) -> tuple[float, float]:
        return score_interval(self.seed_means())

    def wdl(self) -> tuple[int, int, int]:
        s = self.scores
        return (sum(x == 1.0 for x in s), sum(0.0 < x < 1.0 for x in s),
                sum(x == 0.0 for x in s))

    @staticmethod
    def _per_turn(v: list[int]) -> float | None:
        return round(v[0] / v[1], 1) if v[1] else None

    def iterations_text(self) -> str:
        """"1,000 / 1,000"; a side that never searched (random, bot): "-"."""
        return " / ".join("-" if x is None else f"{x:,.0f}" for x in
                          (self._per_turn(self.agent_iterations),
                           self._per_turn(self.opponent_iterations)))

    def to_dict(self) -> dict[str, Any]:
        c = self.cell
        w, d, l_ = self.wdl()
        return {"scenario": c.table.key, "scenario_name": c.scenario.name,
                "agent": c.agent.name, "agent_plays": describe(c.agent),
                "agent_source": c.agent.source, "opponent": c.opponent.name,
                "budget": c.budget_dict, "think": c.think, "games": len(self.games),
                "score": None if not self.games else round(self.mean, 4),
                "ci95": interval_json(*self.interval()), "wins": w, "draws": d, "losses": l_,
                "agent_iterations_per_turn": self._per_turn(self.agent_iterations),
                "opponent_iterations_per_turn": self._per_turn(self.opponent_iterations),
                "seconds": round(self.seconds, 1), "per_game": self.games}


# -------------------------------------------------------------- the machine
def machine() -> str:
    """"Intel(R) Xeon(R) ... , 2 cores, Linux 6.1, Python 3.11"."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from .executors import default_workers
    return (f"{cpu}, {default_workers()} usable cores, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}")


# ---------------------------------------------------------------- the table
def text_table(results: list[CellResult]) -> str:
    head = (f"  {'scenario':<24}{'agent':<32}{'opponent':<12}{'budget':>9}{'games':>7}"
            f"{'score':>8}  {'95% interval':<16}{'W':>5}{'D':>5}{'L':>5}  it/turn (agent/opp)")
    lines = [head]
    for r in results:
        c = r.cell
        w, d, l_ = r.wdl()
        its = r.iterations_text()
        agent = f"{c.agent.name} ({describe(c.agent)})"
        lines.append(f"  {c.table.key[:23]:<24}{agent[:31]:<32}{c.opponent.name[:11]:<12}"
                     f"{c.budget_label:>9}{len(r.games):>7}{r.mean:>8.3f}  "
                     f"{format_interval(*r.interval())}  {w:>5}{d:>5}{l_:>5}  {its}")
    return "\n".join(lines)


def load_average() -> str:
    """The 1-minute load average ("n/a" where there is none): equal wall time
    gives each search less on a busy machine."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except (AttributeError, OSError):
        return "n/a"


INTRO = ("# Strength table\n\n"
         "Each agent against each yardstick opponent, both sides on the same budget: equal "
         "iterations (both sides think together; the result does not depend on the machine) "
         "and equal wall time (both sides think in turn, each search alone; iterations per "
         "turn show what the time bought). Every seed is played twice with the seats "
         "exchanged. Score: win 1, draw 0.5, loss 0, the agent's mean; 95% interval: normal "
         "approximation over the seeds' mean scores. `default` is the scenario's seat-0 "
         "player. Written by `python -m sandbox strength` (README: *The strength table*).\n")


def run_lines(command: str, when: str, workers: str, load: str, seconds: float) -> list[str]:
    """How a run was made (machine, load, date, the command): the lines
    above a table, the strength table's and the ladder's."""
    return [f"- machine: {machine()}",
            f"- games run on: {workers}; load average at the start {load}",
            f"- date: {when} (started; took "
            + (f"{seconds:.1f} s)" if seconds < 120 else f"{seconds / 60:.1f} min)"),
            f"- regenerate: `{command}`"]


def row_figures(r: CellResult) -> tuple[str, str, str]:
    """A cell's score, 95% interval and W / D / L as a table prints them."""
    w, d, l_ = r.wdl()
    lo, hi = r.interval()
    ci = "n/a" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
    score = "n/a" if not r.games else f"{r.mean:.3f}"
    return score, ci, f"{w} / {d} / {l_}"


def table_markdown(results: list[CellResult], command: str, when: str, workers: str,
                   load: str = "n/a", seconds: float = 0.0) -> str:
    """How the run was made (machine, load, date, the command) and its table."""
    out = run_lines(command, when, workers, load, seconds) + [""]
    out.append("| scenario | agent | opponent | budget | games | score | 95% interval | W / D / L "
               "| iterations per turn (agent / opponent) |")
    out.append("|---|---|---|---:|---:|---:|---|---|---|")
    for r in results:
        c = r.cell
        score, ci, wdl = row_figures(r)
        out.append(f"| {c.table.label or c.table.key} | {c.agent.name} ({describe(c.agent)}) | "
                   f"{c.opponent.name} | {c.budget_label} | {len(r.games)} | {score} | {ci} | "
                   f"{wdl} | {r.iterations_text()} |")
    return "\n".join(out) + "\n"


def markdown(results: list[CellResult], command: str, when: str, workers: str,
             load: str = "n/a", seconds: float = 0.0) -> str:
    """The whole file: the introduction and one table."""
    return INTRO + "\n" + table_markdown(results, command, when, workers, load, seconds)


def put_section(text: str | None, title: str, table: str) -> str:
    """The Markdown file `text` with its section "## title" made of `table`
    (what table_markdown returns), the file's other sections kept as they
    are. A section already there keeps the prose that follows its table (the
    notes people wrote about it); a new one goes at the end; a missing or
    empty file gets the introduction first. The file is assembled from
    sections because they come from different runs (scenarios, budgets,
    games a cell) and each names its own regenerating command."""
    block = f"## {title}\n\n{table}"
    if not text or not text.strip():
        return INTRO + "\n" + block
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("## ")]
    mine = [i for i in starts if lines[i][3:].strip() == title]
    if not mine:
        return text.rstrip("\n") + "\n\n" + block
    a = mine[0]
    b = next((i for i in starts if i > a), len(lines))
    section = lines[a:b]
    first = next((k for k, ln in enumerate(section) if ln.startswith("|")), None)
    notes: list[str] = []
    if first is not None:
        end = first
        while end < len(section) and section[end].startswith("|"):
            end += 1
        notes = section[end:]
    while notes and not notes[-1].strip():
        notes.pop()
    if notes and notes[0].strip():   # prose written flush under the table would be
        notes = [""] + notes         # read by Markdown as one more table row
    new = block.rstrip("\n").splitlines() + notes
    rest = lines[b:]
    return "\n".join(lines[:a] + new + ([""] + rest if rest else [])) + "\n"


# ------------------------------------------------------------- command line
def add_strength_args(p: argparse.ArgumentParser) -> None:
    keys = ", ".join(t.key for t in SCENARIOS)
    p.add_argument("--quick", action="store_true",
                   help=f"a smoke run: {QUICK_GAMES} games per cell, {QUICK_ITERATIONS} "
                        f"iterations and {QUICK_MS:g} ms (unless --games/--iterations/--ms)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help=f"games per cell, even: N/2 seeds, each with both seat orders "
                        f"(default {GAMES})")
    p.add_argument("--only", action="append", default=None, metavar="SCENARIO",
                   help=f"only these scenarios (repeatable or comma-separated): {keys}; or "
                        "another two-player scenario's name or .toml")
    p.add_argument("--agent", action="append", default=[], metavar="SPEC",
                   help="add rows for this agent: a built-in name or an agent file (*.toml), "
                        "its budget set aside (repeatable; the scenario's seat-0 player, "
                        "'default', is a row unless --no-default)")
    p.add_argument("--no-default", action="store_true",
                   help="no rows for the scenario's seat-0 player: only the --agent rows "
                        "(when the default's cells are already played)")
    p.add_argument("--opponents", default=None, metavar="A,B",
                   help=f"the yardsticks (built-in names or agent files; default "
                        f"{','.join(YARDSTICKS)})")
    p.add_argument("--iterations", type=int, default=None, metavar="K",
                   help=f"the equal-iterations budget (default {ITERATIONS}; 0: no such cells)")
    p.add_argument("--ms", type=float, default=None, metavar="T",
                   help=f"the equal-wall-time budget (default {MS:g}; 0: no such cells)")
    p.add_argument("--opponent-iterations", type=int, default=None, metavar="K",
                   help="the opponents' budget in the iterations cells instead of the "
                        "agent's: an unequal-budget cell, e.g. --iterations 40000 against "
                        "an outside yardstick's 5000 (not with --ladder)")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="first seed; a cell plays seeds S..S+N/2-1 (default 1)")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop each game after N turns (default: the scenario's)")
    p.add_argument("--workers", type=int, default=None, metavar="K",
                   help="local worker processes (default: one per core; 0: in this process)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for the resumable logs, one per cell (default: strength/)")
    p.add_argument("--markdown", default=None, metavar="FILE",
                   help="also write the table as Markdown (docs/strength.md)")
    p.add_argument("--section", default=None, metavar="TITLE",
                   help="with --markdown: write the table as the file's section '## TITLE' "
                        "(replacing that section, keeping the prose below its table and the "
                        "file's other sections) instead of the whole file")
    p.add_argument("--every-algorithm", action="store_true",
                   help="add a row for each algorithm's best-setting agent file of each "
                        "scenario (agents/*.toml) and for uct")
    p.add_argument("--ladder", action="store_true",
                   help="budget ladders instead: each agent against itself on a quarter of "
                        "the budget, at each rung of --ladder-iterations and --ladder-ms "
                        f"(default {LADDER_GAMES} games a step)")
    p.add_argument("--ladder-iterations", default=None, metavar="LIST",
                   help="with --ladder: the iteration budgets, each step the next against "
                        f"the one before (default {','.join(map(str, LADDER_ITERATIONS))}; "
                        "0: none)")
    p.add_argument("--ladder-ms", default=None, metavar="LIST",
                   help="with --ladder: the wall-time budgets in ms (default "
                        f"{','.join(f'{m:g}' for m in LADDER_MS)}; 0: none)")
    p.add_argument("--png", default=None, metavar="FILE",
                   help="with --ladder: also draw score against budget, a panel per scenario "
                        "and kind of budget (*.png)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def pick_scenarios(only: list[str] | None) -> list[TableScenario]:
    if not only:
        return list(SCENARIOS)
    by_key = {t.key: t for t in SCENARIOS}
    out: list[TableScenario] = []
    for word in (w.strip() for item in only for w in item.split(",")):
        if not word:
            raise InvalidArgument("--only: an empty scenario name")
        if word in by_key:
            t = by_key[word]
        else:
            from ..config import find_scenario
            try:
                path = find_scenario(word)
            except ScenarioError:
                raise InvalidArgument(
                    f"--only {_shown(word)}: not a scenario of the table ({', '.join(by_key)}) "
                    "nor a scenario name or file") from None
            t = TableScenario(path.stem, word, label=path.stem)
        if t not in out:
            out.append(t)
    return out


def _budgets(args: argparse.Namespace) -> list[Budget]:
    from ..config.scenario import budget_from_flags
    its = args.iterations if args.iterations is not None else (
        QUICK_ITERATIONS if args.quick else ITERATIONS)
    ms = args.ms if args.ms is not None else (QUICK_MS if args.quick else MS)
    out = []
    try:
        if its != 0:
            out.append(budget_from_flags(its, None))
        if ms != 0:
            out.append(budget_from_flags(None, ms))
    except ScenarioError as e:
        raise InvalidArgument(f"{e} (0: no such cells)") from None
    if not out:
        raise InvalidArgument("--iterations 0 and --ms 0 leave no budget to play")
    return out


def _opponent_iterations(args: argparse.Namespace, budgets: list[Budget]) -> Budget | None:
    """--opponent-iterations K: the opponents' budget in the iterations
    cells (the wall-time cells stay equal), or None."""
    k = getattr(args, "opponent_iterations", None)
    if k is None:
        return None
    if not any(b.iterations for b in budgets):
        raise InvalidArgument("--opponent-iterations needs iterations cells (--iterations "
                              "is 0)")
    from ..config.scenario import budget_from_flags
    try:
        return budget_from_flags(k, None)
    except ScenarioError as e:
        raise InvalidArgument(str(e).replace("--iterations", "--opponent-iterations")) from None


def check_run_args(args: argparse.Namespace, games: int) -> None:
    if not 2 <= games <= MAX_GAMES or games % 2:
        raise InvalidArgument(f"--games must be an even number in 2..{MAX_GAMES:,} (each seed "
                              f"is played with both seat orders), got {games}")
    if series_seed_problem(args.seed):
        raise InvalidArgument(series_seed_problem(args.seed))
    if args.turns is not None and args.turns < 0:
        raise InvalidArgument("--turns must be >= 0")
    if args.workers is not None and not 0 <= args.workers <= 256:
        raise InvalidArgument("--workers must be in 0..256 (0: in this process)")


def table_rows(args: argparse.Namespace) -> list[tuple[TableScenario, Scenario, list[Entrant]]]:
    """Each scenario of --only with its rows: the scenario's seat-0 player
    (unless --no-default), each --agent and, with --every-algorithm, each
    algorithm's agent file of the scenario and uct."""
    from ..config import load_scenario
    extra = [load_spec(a, "--agent") for a in args.agent]
    every = getattr(args, "every_algorithm", False)
    if args.no_default and not extra and not every:
        raise InvalidArgument("--no-default leaves no rows: add --agent SPEC")
    out = []
    for t in pick_scenarios(args.only):
        sc = load_scenario(t.scenario)
        if t.sets:
            sc = sc.with_settings(list(t.sets))
        if len(sc.players) != 2:
            raise InvalidArgument(f"--only {t.key}: the strength table plays two-player "
                                  f"scenarios; {sc.name} has {len(sc.players)} players")
        rows = [] if args.no_default else [default_entrant(sc)]
        rows += extra
        if every:
            if not t.agents:
                raise InvalidArgument(f"--every-algorithm: {t.key} names no agent files "
                                      "(only the table's own scenarios do)")
            # found from anywhere, named as the project names it (a log made in
            # one checkout resumes in another)
            root = Path(__file__).resolve().parents[2]
            for f in t.agents:
                e = load_spec(str(root / f), "--every-algorithm")
                rows.append(Entrant(e.name, e.player, f))
            rows.append(load_spec("uct", "--every-algorithm"))
        # two agents of one name get #2 ... (rows and log files apart)
        out.append((t, sc, unique_names(rows)))
    return out


def make_cells(args: argparse.Namespace) -> list[Cell]:
    games = args.games if args.games is not None else (QUICK_GAMES if args.quick else GAMES)
    check_run_args(args, games)
    budgets = _budgets(args)
    their = _opponent_iterations(args, budgets)
    opponents = parse_opponents(args.opponents)
    cells = []
    for t, sc, rows in table_rows(args):
        for agent in rows:
            for opp in opponents:
                for b in budgets:
                    cell = Cell(t, sc, agent, opp, b, games, args.seed, args.turns,
                                opponent_budget=their if b.iterations else None)
                    try:
                        cell.check()
                    except ScenarioError as exc:
                        raise InvalidArgument(f"{t.key}: {agent.name} vs {opp.name}: "
                                              f"{exc}") from None
                    cells.append(cell)
    return cells


def check_markdown_args(args: argparse.Namespace) -> str | None:
    """--markdown names a file in an existing folder; --section (which
    needs it) is one line. Checked before hours of games, not after.
    Returns the section title, or None."""
    if args.markdown is not None:
        md = Path(args.markdown)
        if md.is_dir() or not md.parent.is_dir():
            raise InvalidArgument(f"--markdown {_shown(args.markdown)}: not a file in an existing "
                                  "folder")
    section = getattr(args, "section", None)
    if section is not None:
        if args.markdown is None:
            raise InvalidArgument("--section needs --markdown FILE (the file it goes in)")
        if not section.strip() or "\n" in section or section.lstrip().startswith("#"):
            raise InvalidArgument(f"--section: expected a one-line title without '#', "
                                  f"got {section!r}")
    return section


@dataclass
class Played:
    """What play_cells returns: each cell's result and how the run went."""
    results: list[CellResult]
    reused: int                 # games found in the logs
    total: int
    seconds: float
    executor: str
    folder: Path


def play_cells(cells: list[Cell], args: argparse.Namespace, desc: str = "strength") -> Played:
    """Plays every cell's games on a pool of workers, each cell logged to its
    own resumable file under --out, with a progress bar."""
    from .commands import Progress
    from .executors import executor_label, make_executor
    from .log import ResultLog
    from .runner import run_jobs
    from .tournament import sorted_results

    folder = Path(args.out) if args.out else DEFAULT_OUT
    jobs = [(c, c.jobs()) for c in cells]
    total = sum(len(j) for _, j in jobs)
    show = not (args.quiet or args.json) and sys.stderr.isatty()
    results: list[CellResult] = []
    reused = 0               # games found in the logs (a resumed or extended run)
    t0 = time.perf_counter()
    with make_executor(args.workers, None) as ex:
        bar = Progress(total, 0, show, desc)
        try:
            workers = args.workers if args.workers is not None else 4
            for cell, cjobs in jobs:
                log = ResultLog(folder / cell.table.key / cell.file_name(), "strength",
                                cell.config())
                try:
                    done = sorted_results(log.games, cjobs)
                    reused += len(done)
                    for _ in done:
                        bar.update()
                    if bar.bar is not None:
                        bar.bar.set_description(f"{cell.table.key} {cell.agent.name} vs "
                                                f"{cell.opponent.name} {cell.budget_label}")
                    c0 = time.perf_counter()
                    run_jobs(cjobs, ex, log, lambda _row: bar.update(),
                             in_flight=max(2, 2 * max(1, workers)))
                    res = CellResult(cell, seconds=time.perf_counter() - c0)
                    for row in sorted_results(log.games, cjobs):
                        res.add(row)
                finally:
                    log.close()
                results.append(res)
        finally:
            bar.close()
    return Played(results, reused, total, time.perf_counter() - t0,
                  executor_label(args.workers, None), folder)


def write_markdown(args: argparse.Namespace, section: str | None, whole, table: str) -> None:
    """Writes --markdown: the whole file (whole(), the introduction and the
    table) or, with --section, the file's section made of `table`."""
    from .log import LogError
    md = Path(args.markdown)
    try:
        if section is None:
            text = whole()
        else:
            old = md.read_text(encoding="utf-8") if md.exists() else None
            text = put_section(old, section.strip(), table)
        md.write_text(text, encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{args.markdown}: cannot write: "
                       f"{getattr(exc, 'strerror', None) or exc}") from None


def run_strength(args: argparse.Namespace, argv: Sequence[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    cells = make_cells(args)
    section = check_markdown_args(args)
    command = "python -m sandbox strength" + (
        " " + shlex.join(argv) if argv else "")
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = load_average()
    run = play_cells(cells, args)
    results, seconds, label = run.results, run.seconds, run.executor
    if args.markdown is not None:
        write_markdown(args, section,
                       lambda: markdown(results, command, when, label, load, seconds),
                       table_markdown(results, command, when, label, load, seconds))
    if args.json:
        data = {"machine": machine(), "date": when, "load_average": load,
                "command": command, "executor": label,
                "seconds": round(seconds, 1), "logs": str(run.folder),
                "games_from_logs": run.reused,
                "cells": [r.to_dict() for r in results]}
        print(json.dumps(data, allow_nan=False), file=out)
    else:
        print(f"strength: {len(results)} cells, seats exchanged on paired seeds "
              f"({seconds:.1f} s, {label}"
              + (f"; {run.reused} of {run.total} games from the logs in {run.folder}"
                 if run.reused else "")
              + ")", file=out)
        print(text_table(results), file=out)
        if args.markdown is not None:
            print(f"  markdown: {args.markdown}", file=out)
    return 0
