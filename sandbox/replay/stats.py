"""Analysis of a replay: per turn and per agent figures, summaries, CSV.

Definitions (per agent, per turn, from the root children its player's search
recorded when it decided; a pass child, move -1, is left out):
  root_value         the visit-weighted mean of the root children's means,
                     sum(visits_i * mean_i) / sum(visits_i) — the search's
                     estimate of the position for that agent
  visit_entropy      Shannon entropy of the root visit distribution
                     p_i = visits_i / sum(visits), in BITS (log2): 0 when one
                     move took every visit, 2 when four moves shared them evenly
  best_visits_share  max(visits_i) / sum(visits)
  iterations         its player's search iterations that turn (shared by the
                     player's agents); search_ms is time inside C, wall_ms the
                     player's whole thinking time
  chosen_by          who chose the move played: search | random | person |
                     default (a person took the agent over and pressed no key:
                     the game's default move) | bot (the game's own heuristic
                     bot: a bot player, or a person's team mate). Files from before the field
                     existed: the player's controller, or "person" where the
                     move played is not the one the controller decided (a
                     take-over was the only way that could happen)
Figures are NaN (blank in CSV, null in JSON) where there is no search data
(random players, eliminated agents). Summaries (means, min, max) run over the
turns an agent decided while alive.

Turns are counted as the game counts them (and the arena shows them): the
decision of turn k is played by the step from turn k to turn k+1, so a snake
killed by the step of turn record k is out at turn k+1 ("out k+1", the
board at turn k+1 shows it dead, its death_turn is k+1), and a match whose
last turn record is k lasted k+1 turns (the result line's `turns`). A CSV row
is one turn's decision; its alive, score and hash columns are the state
after that turn's step.
"""
from __future__ import annotations

import csv
import math
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence, TextIO

from ..games.base import move_namer, move_names
from ..native import SandboxError
from .botstats import bot_lines, bot_stats
from .checks import consistency_warnings
from .format import RootMove, TurnLine
from .reader import Replay

NAN = float("nan")

CSV_COLUMNS = ("turn", "agent", "player", "name", "move", "move_name", "iterations", "sim_turns",
               "search_ms", "wall_ms", "root_value", "visit_entropy", "best_visits_share",
               "root_visits", "alive", "score", "hash", "chosen_by")

# colours for agents without one in the scenario
PALETTE = ((230, 80, 70), (90, 200, 90), (80, 140, 240), (235, 190, 60), (190, 110, 230),
           (70, 200, 200), (240, 140, 60), (200, 200, 200))


def _moves(root: Sequence[RootMove]) -> list[RootMove]:
    # A pass child (move -1) is no choice at the root; after tree reuse it can
    # carry visits from when the agent died deeper down. Leave it out.
    return [m for m in root if m.move >= 0]


def root_value(root: Sequence[RootMove]) -> float:
    root = _moves(root)
    total = sum(m.visits for m in root)
    if total <= 0:
        return NAN
    return sum(m.visits * m.mean for m in root) / total


def visit_entropy(root: Sequence[RootMove]) -> float:
    """Entropy of the root visit distribution, in bits."""
    root = _moves(root)
    total = sum(m.visits for m in root)
    if total <= 0:
        return NAN
    h = 0.0
    for m in root:
        if m.visits > 0:
            p = m.visits / total
            h -= p * math.log2(p)
    return h + 0.0   # no -0.0


def best_visits_share(root: Sequence[RootMove]) -> float:
    root = _moves(root)
    total = sum(m.visits for m in root)
    return max(m.visits for m in root) / total if total > 0 else NAN


@dataclass(frozen=True)
class TurnAgentRow:
    turn: int
    agent: int
    player: int
    name: str
    move: int | None
    iterations: int
    sim_turns: int
    search_ms: float
    wall_ms: float
    root_value: float
    visit_entropy: float
    best_visits_share: float
    root_visits: int
    alive: bool            # after the step
    score: float           # after the step
    hash: str              # after the step
    alive_before: bool     # when the decision was made
    chosen_by: str = ""    # who chose the move played ("" where nobody moved)
    free_move: str = ""    # a free move played (move is None): its line, '8000 4500 100'


@dataclass(frozen=True)
class SettingsChangeInfo:
    turn: int
    player: int
    iteration: int
    changes: dict[str, tuple[Any, Any]]

    def text(self) -> str:
        parts = ", ".join(f"{k} {o}->{n}" for k, (o, n) in self.changes.items())
        return f"turn {self.turn} (after {self.iteration} iterations): {parts}"


@dataclass(frozen=True)
class AgentStats:
    agent: int
    player: int
    name: str
    controller: str
    color: tuple[int, int, int]
    turns_alive: int                   # turns decided while alive
    iterations_mean: float
    iterations_min: int
    iterations_max: int
    mean_root_value: float
    mean_visit_entropy: float
    search_ms_mean: float
    search_ms_total: float
    wall_ms_mean: float
    wall_ms_total: float
    eliminated_turn: int | None        # the first turn it is out (its death_turn: k+1
                                       # when the step of turn record k killed it)
    final_score: float
    rank: int | None                   # from the result line (0 = best)
    changes: tuple[SettingsChangeInfo, ...]   # its player's settings changes
    # turns on which its player's search stopped because a tree hit the node
    # cap (it then played the best move found so far), and that cap at the start
    node_cap_turns: tuple[int, ...] = ()
    node_cap: int | None = None
    # turns decided while alive, by who chose the move played ({"search": 40,
    # "person": 12}), and the turns a person (or the default) chose it
    moves_by: dict[str, int] = field(default_factory=dict)
    person_turns: tuple[int, ...] = ()


@dataclass(frozen=True)
class Marker:
    turn: int
    kind: str        # "elimination" | "settings"
    who: int         # agent (elimination) or player (settings)
    label: str


@dataclass(frozen=True)
class ReplayStats:
    path: str
    scenario: str
    game: str
    seed: int
    num_agents: int
    turns: int                          # the match's length: the result line's `turns`
                                        # (the turn after the final step), else the turn
                                        # after the last recorded step
    turns_recorded: int                 # turn lines in the file
    start_turn: int                     # the game turn the match (its header) starts at
    first_turn: int                     # the first turn recorded
    finished: bool                      # a result line is present
    winner: int | None
    winner_name: str | None
    ranking: tuple[int, ...] | None
    placement: str | None
    dropped_lines: int
    agents: tuple[AgentStats, ...]
    rows: tuple[TurnAgentRow, ...]      # turn-major, then agent
    turn_numbers: tuple[int, ...]       # x values of the series
    markers: tuple[Marker, ...]
    # chart series keyed by label (agent name; iterations by player), search players only
    root_value: dict[str, list[float]] = field(default_factory=dict)
    iterations: dict[str, list[float]] = field(default_factory=dict)
    entropy: dict[str, list[float]] = field(default_factory=dict)
    colors: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    # figures that contradict each other or are nonsense (sandbox.replay.checks);
    # the CLI prints them as `warning:` lines, the figures are shown anyway
    warnings: tuple[str, ...] = ()
    # the result line's `terminal`: False when the match stopped at its turn
    # limit with the game not over (its winner is then who led); None
    # without a result line
    terminal: bool | None = None
    # process players (docs/bots.md), by name: answers, latency, failures, forfeit
    bots: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (NaN -> None); per-turn rows and series left out."""
        d = {k: v for k, v in asdict(self).items() if k not in ("rows", "root_value",
                                                                  "iterations", "entropy")}
        return json_clean(d)

    def text(self) -> str:
        out = [f"replay: {self.path}",
               f"match: {self.scenario} | {self.game} | seed {self.seed} | "
               f"{self.num_agents} agents | {self.turns} turns{self._recorded_note()} | "
               + ("unfinished (no result line)" if not self.finished else
                  "stopped at its turn limit, the game not over" if self.terminal is False
                  else "finished")]
        if self.finished:
            win = (f"{self.winner} ({self.winner_name})" if self.winner is not None
                   else f"player {self.winner_name}" if self.winner_name is not None
                   else "none (a tie)")
            who = "leader when stopped" if self.terminal is False else "winner"
            out.append(f"{who}: {win}   ranking {self.placement}")
        if self.dropped_lines:
            out.append(f"dropped lines: {self.dropped_lines}")
        out.append("")
        out.append(f"{'agent':>5}  {'name':<12} {'plays':<16} {'turns':>5}  "
                   f"{'iters/turn':>10} {'(min..max)':>17}  {'root value':>10}  "
                   f"{'entropy':>7}  {'ms/turn':>7}  {'total s':>7}  {'out':>5}")
        for a in self.agents:
            rng = f"{a.iterations_min}..{a.iterations_max}" if a.turns_alive else "-"
            out.append(
                f"{a.agent:>5}  {a.name[:12]:<12} {a.controller[:16]:<16} {a.turns_alive:>5}  "
                f"{_fmt(a.iterations_mean, 0):>10} {rng:>17}  {_fmt(a.mean_root_value, 3):>10}  "
                f"{_fmt(a.mean_visit_entropy, 3):>7}  {_fmt(a.wall_ms_mean, 1):>7}  "
                f"{_fmt(a.wall_ms_total / 1000.0, 2):>7}  "
                f"{'-' if a.eliminated_turn is None else a.eliminated_turn:>5}")
        out.append("(root value: visit-weighted mean of the root children; entropy of the "
                   "root visits in bits; ms: wall time thinking; out: first turn it is out)")
        seen: set[int] = set()
        for a in self.agents:
            if a.player in seen or not a.changes:
                continue
            seen.add(a.player)
            for ch in a.changes:
                out.append(f"settings {a.name}: {ch.text()}")
        if not any(a.changes for a in self.agents):
            out.append("settings changes: none")
        for a in self.agents:
            if a.person_turns and a.controller != "human":
                by = ", ".join(f"{k} {v}" for k, v in a.moves_by.items())
                out.append(f"moves of {a.name} chosen by: {by} (a person's on turns "
                           f"{_ranges(a.person_turns)})")
        full = [a for a in self.agents if a.node_cap_turns]
        for a in full:
            cap = f" {a.node_cap:,}" if a.node_cap is not None else ""
            k = len(a.node_cap_turns)
            out.append(f"tree full (node cap{cap}): {a.name} on {k} turn{'s' if k != 1 else ''}"
                       f" ({_ranges(a.node_cap_turns)})")
        if not full and any(a.controller == "smitsimax" for a in self.agents):
            out.append("tree full (node cap): never")
        out += bot_lines(self.bots)
        return "\n".join(out)

    def _recorded_note(self) -> str:
        # only where the file lacks turns the match played (dropped lines)
        expected = self.turns - self.start_turn
        return "" if self.turns_recorded == expected else \
            f" ({self.turns_recorded} of them recorded)"


def _ranges(turns: Sequence[int], limit: int = 6) -> str:
    """(3, 4, 5, 9, 11, 12) -> '3-5, 9, 11-12'; long lists cut with '...'."""
    spans: list[list[int]] = []
    for t in turns:
        if spans and t == spans[-1][1] + 1:
            spans[-1][1] = t
        else:
            spans.append([t, t])
    parts = [f"{a}-{b}" if b > a else str(a) for a, b in spans]
    return ", ".join(parts[:limit]) + (", ..." if len(parts) > limit else "")


def _fmt(x: float, nd: int) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def json_clean(v):
    """v with NaN/inf as None and keys as strings, ready for JSON."""
    if isinstance(v, float):
        return None if not math.isfinite(v) else v
    if isinstance(v, dict):
        return {str(k): json_clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_clean(x) for x in v]
    return v


def _mean(xs: Sequence[float]) -> float:
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else NAN


def agent_colors(replay: Replay) -> list[tuple[int, int, int]]:
    """Per agent: its player's scenario colour (or a palette colour); a
    player's second, third ... agents get darker shades."""
    h = replay.header
    out = [PALETTE[a % len(PALETTE)] for a in range(h.num_agents)]
    for p in h.players:
        base = tuple(p.color) if p.color is not None else PALETTE[p.player % len(PALETTE)]
        for k, a in enumerate(p.agents):
            f = 1.0 - 0.25 * k
            out[a] = tuple(max(0, min(255, int(c * f))) for c in base)
    return out


def agent_labels(replay: Replay) -> list[str]:
    """Per agent: its player's name, with ' #agent' where that is ambiguous."""
    names = list(replay.header.names)
    return [f"{x} #{a}" if names.count(x) > 1 else x for a, x in enumerate(names)]


def player_labels(replay: Replay) -> dict[int, str]:
    names = [p.name for p in replay.header.players]
    return {p.player: f"{p.name} (P{p.player})" if names.count(p.name) > 1 else p.name
            for p in replay.header.players}


def compute_stats(replay: Replay) -> ReplayStats:
    h = replay.header
    n = h.num_agents
    owner = {a: p.player for p in h.players for a in p.agents}
    ctrl = {p.player: p.controller for p in h.players}
    labels = agent_labels(replay)
    player_name = player_labels(replay)
    colors = agent_colors(replay)
    rows: list[TurnAgentRow] = []
    markers: list[Marker] = []
    changes: dict[int, list[SettingsChangeInfo]] = {p.player: [] for p in h.players}
    eliminated: dict[int, int] = {}
    turn_numbers = [t.turn for t in replay.turns]
    s_value = {a: [] for a in range(n)}
    s_entropy = {a: [] for a in range(n)}
    s_iters = {p.player: [] for p in h.players}
    capped: dict[int, list[int]] = {}     # player -> turns stopped on the node cap

    for line in replay.turns:
        alive_before = replay.alive_before(line.turn)
        for p in line.players:
            if p.stop_reason == "node_cap":
                capped.setdefault(p.player, []).append(line.turn)
            for ch in p.changes:
                info = SettingsChangeInfo(line.turn, ch.player, ch.iteration, dict(ch.changes))
                changes.setdefault(ch.player, []).append(info)
                # named: several players can change settings in one turn
                markers.append(Marker(line.turn, "settings", ch.player,
                                      f"{player_name.get(ch.player, '?')}: " +
                                      ", ".join(f"{k}={new}" for k, (_, new) in
                                                ch.changes.items())))
            any_alive = any(alive_before[a.agent] for a in p.agents if a.agent < n)
            if p.player in s_iters:
                s_iters[p.player].append(float(p.iterations) if any_alive else NAN)
        for a in range(n):
            rows.append(_row(replay, line, a, owner.get(a, -1), labels[a], alive_before[a]))
            r = rows[-1]
            s_value[a].append(r.root_value if alive_before[a] else NAN)
            s_entropy[a].append(r.visit_entropy if alive_before[a] else NAN)
        for a in line.eliminated:
            if a not in eliminated:
                # the game's death turn: the step of turn k leaves it dead at k+1
                eliminated[a] = line.turn + 1
                markers.append(Marker(line.turn + 1, "elimination", a, f"{labels[a]} out"))

    # what each search player ran: its algorithm at the start, then each
    # switch made during the match (the controller alone said "smitsimax"
    # for a player that played MCGS, or switched to it)
    for p in h.players:
        if p.search is None:
            continue
        seq = [str(p.search.get("algorithm", "smitsimax"))]
        for info in changes.get(p.player, ()):
            new = info.changes.get("algorithm")
            if new is not None and str(new[1]) != seq[-1]:
                seq.append(str(new[1]))
        ctrl[p.player] = ">".join(seq)

    result = replay.result
    last = replay.turns[-1] if replay.turns else None
    caps = {p.player: p.search.get("node_cap") for p in h.players
            if p.search is not None and isinstance(p.search.get("node_cap"), int)}
    # turns where a program (a bot, a snake server) moved the agent: its
    # "default" moves are its failures, not a person's
    by_program = {(line.turn, at.agent) for line in replay.turns for p in line.players
                  if p.bot is not None for at in p.agents}
    agents = []
    for a in range(n):
        mine = [r for r in rows if r.agent == a and r.alive_before]
        its = [r.iterations for r in mine]
        pl = owner.get(a, -1)
        agents.append(AgentStats(
            agent=a, player=pl, name=labels[a], controller=ctrl.get(pl, "?"), color=colors[a],
            turns_alive=len(mine),
            iterations_mean=sum(its) / len(its) if its else NAN,
            iterations_min=min(its) if its else 0, iterations_max=max(its) if its else 0,
            mean_root_value=_mean([r.root_value for r in mine]),
            mean_visit_entropy=_mean([r.visit_entropy for r in mine]),
            search_ms_mean=_mean([r.search_ms for r in mine]),
            search_ms_total=sum(r.search_ms for r in mine),
            wall_ms_mean=_mean([r.wall_ms for r in mine]),
            wall_ms_total=sum(r.wall_ms for r in mine),
            eliminated_turn=eliminated.get(a),
            final_score=last.scores[a] if last is not None else NAN,
            rank=result.ranking[a] if result is not None and a < len(result.ranking) else None,
            changes=tuple(changes.get(pl, ())),
            node_cap_turns=tuple(capped.get(pl, ())), node_cap=caps.get(pl),
            moves_by=_count(r.chosen_by for r in mine if r.chosen_by),
            person_turns=tuple(r.turn for r in mine if r.chosen_by == "person" or (
                r.chosen_by == "default" and (r.turn, a) not in by_program))))

    player_color = {p.player: colors[p.agents[0]] if p.agents else PALETTE[0] for p in h.players}
    label_colors = {labels[a]: colors[a] for a in range(n)}
    label_colors.update({player_name[pl]: player_color[pl] for pl in player_name})
    searching = {p.player for p in h.players if p.search is not None}  # players with search data
    winner = result.winner if result is not None else None
    winner_name = h.names[winner] if winner is not None and winner < n else None
    if result is not None and winner is None:
        # one player's agents sharing first place (a team) is that player's win
        best = {a for a, r in enumerate(result.ranking) if r == 0}
        team = [p for p in h.players if best and set(p.agents) == best]
        if len(best) > 1 and team:
            winner_name = f"{player_name.get(team[0].player, team[0].name)}, agents " \
                          + ", ".join(map(str, sorted(best)))
    return ReplayStats(
        path=str(replay.path), scenario=str(h.scenario.get("name", "?")), game=h.game,
        seed=h.seed, num_agents=n,
        # the arena's "after N turns": the game's turn counter after the final step
        turns=(result.turns if result is not None else
               replay.turns[-1].turn + 1 if replay.turns else h.start_turn),
        turns_recorded=len(replay.turns), start_turn=h.start_turn,
        first_turn=replay.turns[0].turn if replay.turns else h.start_turn,
        finished=result is not None, terminal=result.terminal if result is not None else None,
        winner=winner,
        winner_name=winner_name,
        ranking=tuple(result.ranking) if result is not None else None,
        placement=_placement(result.ranking) if result is not None else None,
        dropped_lines=replay.dropped_lines, agents=tuple(agents), rows=tuple(rows),
        turn_numbers=tuple(turn_numbers), markers=tuple(markers),
        root_value={labels[a]: s_value[a] for a in range(n) if owner.get(a) in searching},
        iterations={player_name[pl]: s_iters[pl] for pl in s_iters if pl in searching},
        entropy={labels[a]: s_entropy[a] for a in range(n) if owner.get(a) in searching},
        colors=label_colors, warnings=tuple(consistency_warnings(replay)),
        bots=bot_stats(replay))


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in items:
        out[k] = out.get(k, 0) + 1
    return out


_KIND_CHOOSER = {"smitsimax": "search", "random": "random", "human": "person"}


def chosen_by(replay: Replay, line: TurnLine, agent: int) -> str:
    """Who chose the move `agent` played at `line` (CHOOSERS; "" where it
    played none). Older files lack the field: the player's controller, or a
    person where the move played is not what the controller decided."""
    if line.joint[agent] is None and line.free_move(agent) is None:
        return ""
    at = line.agent(agent)
    if at is not None and at.chosen_by:
        return at.chosen_by
    pt = line.player_of(agent)
    kind = pt.controller if pt is not None else next(
        (p.controller for p in replay.header.players if agent in p.agents), "")
    if at is not None and at.move is not None and at.move != line.joint[agent]:
        return "person"
    return _KIND_CHOOSER.get(kind, kind)


def _row(replay: Replay, line: TurnLine, a: int, player: int, name: str,
         alive_before: bool) -> TurnAgentRow:
    p = line.player_of(a)
    at = line.agent(a)
    root = at.root if at is not None else []
    return TurnAgentRow(
        turn=line.turn, agent=a, player=player, name=name, move=line.joint[a],
        iterations=p.iterations if p else 0, sim_turns=p.sim_turns if p else 0,
        search_ms=p.search_ms if p else 0.0, wall_ms=p.wall_ms if p else 0.0,
        root_value=root_value(root), visit_entropy=visit_entropy(root),
        best_visits_share=best_visits_share(root), root_visits=sum(m.visits for m in _moves(root)),
        alive=line.alive[a], score=line.scores[a], hash=line.hash, alive_before=alive_before,
        chosen_by=chosen_by(replay, line, a),
        free_move=_free_text(line.free_move(a)))


def _free_text(f) -> str:
    return f.move().text() if f is not None else ""


def _placement(ranking: Sequence[int]) -> str:
    order = sorted(range(len(ranking)), key=lambda a: (ranking[a], a))
    out = str(order[0])
    for prev, a in zip(order, order[1:]):
        out += ("=" if ranking[a] == ranking[prev] else ">") + str(a)
    return out


def to_csv(replay: Replay, path: str | os.PathLike | TextIO,
           stats: ReplayStats | None = None) -> int:
    """One row per turn and agent (CSV_COLUMNS) to a file path or an open
    text stream (the CLI's `-`: standard output); returns the number of rows."""
    stats = stats or compute_stats(replay)
    # the moves by name as the game calls them (the id stays beside it for
    # programs): read once from the recorded game's own build
    # (a replay whose game cannot be rebuilt here still exports, unnamed)
    try:
        with replay.new_game(check=False) as g:
            names = move_names(g)
    except SandboxError:
        names = None

    def cell(r, c: str):
        if c == "move_name":
            if r.free_move:         # a free move has no id: its line names it
                return r.free_move
            if r.move is None or names is None:
                return ""
            return move_namer(names, r.agent)(r.move)
        return _cell(getattr(r, c))

    def write(f: TextIO) -> None:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for r in stats.rows:
            w.writerow([cell(r, c) for c in CSV_COLUMNS])

    if hasattr(path, "write"):
        write(path)   # type: ignore[arg-type]
    else:
        with open(path, "w", newline="", encoding="utf-8") as f:
            write(f)
    return len(stats.rows)


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        return "" if math.isnan(v) else f"{v:.6g}"
    return v
