"""A series of matches with seats rotated and paired seeds: how strong is
each player of a scenario, with a 95% interval.

Games come in groups of one seed: with P players, the group plays P games on
the same seed (the same deal, start layout, prize order ...), the players'
seats rotated one step each game, so no player keeps a seat's advantage. A
player's score in a game is the share of the other players it finished ahead
of, a tie counting half (two players: win 1, draw 0.5, loss 0). A player's
figure is its mean score; the interval is a normal-approximation 95%
interval over the groups' means (paired seeds make the groups the
independent units).

A setting the seed does not reach can vary with the groups too: `vary`
(`--vary game_params.maze_seed`) sets that scenario path to the group's seed,
so group k plays another maze (the maze's layout has its own seed, kept fixed
by the match seed) with both seat orders, still paired.

A game may count shares of turns over each match (GamePlugin.turn_stats,
e.g. pods' emergent `blocking`): they are summed over the series per player
and reported beside the scores.

    python -m sandbox series SCENARIO --games 200 [--iterations K] [--set players.1.controller=random]
        [--vary game_params.maze_seed]
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..config import Budget, Scenario, ScenarioError
from ..games import plugin
from ..native import InvalidArgument
from .match import Match

Z95 = 1.959963984540054   # the normal distribution's two-sided 95% point


def score_interval(group_means: list[float]) -> tuple[float, float]:
    """Normal-approximation 95% interval of the mean of per-group mean
    scores, clipped to [0, 1] (a score cannot leave it); (nan, nan) with
    fewer than two groups, which give no spread to measure."""
    g = group_means
    if len(g) < 2:
        return (math.nan, math.nan)
    m = sum(g) / len(g)
    sd = math.sqrt(sum((x - m) ** 2 for x in g) / (len(g) - 1))
    half = Z95 * sd / math.sqrt(len(g))
    return (max(0.0, m - half), min(1.0, m + half))


@dataclass
class PlayerScore:
    player: int
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: list[float] = field(default_factory=list)         # per game
    group_means: list[float] = field(default_factory=list)    # per seed group
    # the game's shares of turns (GamePlugin.turn_stats): name -> [held, of]
    turn_shares: dict[str, list[int]] = field(default_factory=dict)
    # what its searches did, summed over its turns (a search player's; 0
    # for random or bot players): iterations, milliseconds searched, turns
    iterations: int = 0
    search_ms: float = 0.0
    turns_played: int = 0

    def shares(self) -> dict[str, float | None]:
        return {k: (round(h / n, 4) if n else None) for k, (h, n) in self.turn_shares.items()}

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def iterations_per_turn(self) -> float | None:
        return round(self.iterations / self.turns_played, 1) if self.turns_played else None

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else math.nan

    def interval(self) -> tuple[float, float]:
        """95% interval of the mean score (normal approximation over groups)."""
        return score_interval(self.group_means)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {"player": self.player, "name": self.name, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": round(self.mean, 4),
                "ci95": interval_json(lo, hi),
                "iterations_per_turn": self.iterations_per_turn,
                "search_ms_per_turn": (round(self.search_ms / self.turns_played, 2)
                                       if self.turns_played else None),
                **({"turn_shares": self.shares()} if self.turn_shares else {})}


def interval_json(lo: float, hi: float) -> list[float] | None:
    """An interval for JSON, which has no NaN: null from one group."""
    return None if math.isnan(lo) else [round(lo, 4), round(hi, 4)]


def format_interval(lo: float, hi: float) -> str:
    """The table's interval column (14 characters): n/a from one group."""
    return f"{'n/a':<14}" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"


@dataclass
class SeriesResult:
    scenario: str
    games: int
    seconds: float
    players: list[PlayerScore]
    turns: list[int] = field(default_factory=list)
    think: str = "together"

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "games": self.games, "think": self.think,
                "seconds": round(self.seconds, 1),
                "mean_turns": round(sum(self.turns) / len(self.turns), 2) if self.turns else None,
                "players": [p.to_dict() for p in self.players]}

    def text(self) -> str:
        lines = [f"{self.scenario}: {self.games} games, seats rotated, paired seeds "
                 f"({self.seconds:.1f} s"
                 + (", players thinking in turn" if self.think == "in_turn" else "") + ")",
                 f"  {'player':<16}{'score':>8}  {'95% interval':<17}{'W':>5}{'D':>5}{'L':>5}"
                 f"{'it/turn':>11}"]
        for p in self.players:
            lo, hi = p.interval()
            it = p.iterations_per_turn
            ci = format_interval(lo, hi)
            lines.append(f"  {p.name[:16]:<16}{p.mean:>8.3f}  {ci}   "
                         f"{p.wins:>5}{p.draws:>5}{p.losses:>5}"
                         f"{'' if not it else f'{it:>11,.0f}'}")
        for p in self.players:
            for name, share in p.shares().items():
                text = "n/a" if share is None else f"{share:.3f}"
                lines.append(f"  {p.name[:16]:<16}{name} share of turns: {text}")
        return "\n".join(lines)


def seated(scenario: Scenario, shift: int) -> Scenario:
    """The scenario with player i moving the agents of seat (i + shift) % P."""
    n = len(scenario.players)
    seats = [scenario.player_agents(i) for i in range(n)]
    players = [p.model_copy(update={"agents": seats[(i + shift) % n]})
               for i, p in enumerate(scenario.players)]
    return scenario.model_copy(update={"players": players})


def game_scores(ranking: tuple[int, ...], agents: list[list[int]]) -> list[float]:
    """Each player's score: the share of other players it beat (ties half).
    A player with several agents ranks by its best agent."""
    ranks = [min(ranking[a] for a in ags) for ags in agents]
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    return [sum(1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                for j in range(n) if j != i) / (n - 1) for i in range(n)]


def vary_scenario(scenario: Scenario, vary: str | None, seed: int) -> Scenario:
    """The scenario with the path `vary` (game_params.maze_seed,
    game_params.map_seed) set to a group's or round's seed: every seat order
    of a seed plays one layout, and each seed a new one (series, tournaments,
    sweeps and the strength table vary the same way)."""
    if vary is None:
        return scenario
    return scenario.with_settings([f"{vary}={seed}"])


def _start_hash(scenario: Scenario, seed: int) -> int:
    from ..native import Game
    with Game(scenario.game, scenario.game_param_string(), seed=seed) as g:
        return g.state_hash()


def one_start_note(scenario: Scenario, vary: str | None, seeds: range) -> str | None:
    """A run without --vary whose games all start from one position (a maze
    or a map fixed by a generator seed in the scenario) measures the agents
    on that start only, however narrow its intervals: the note that says so
    and names the --vary that draws a new one per seed. None when the run
    varies, the match seed already changes the start (snakes' spawns), or
    the game has no generator seed to vary (goofspiel's fixed deck)."""
    if vary is not None or len(seeds) < 2:
        return None
    if _start_hash(scenario, seeds[0]) != _start_hash(scenario, seeds[1]):
        return None
    for name in plugin(scenario.game).Params.model_fields:
        if not name.endswith("_seed"):
            continue
        param = f"game_params.{name}"
        try:
            other = vary_scenario(scenario, param, seeds[1])
            if _start_hash(other, seeds[0]) == _start_hash(
                    vary_scenario(scenario, param, seeds[0]), seeds[0]):
                continue            # a parameter this scenario does not draw from
        except ScenarioError:
            continue
        return (f"note: every game starts from the same position ({name} = "
                f"{scenario.game_params.get(name, 'the default')}), so the scores and intervals "
                f"speak for that one start; --vary {param} plays a new one per seed")
    return None


def play_series(scenario: Scenario, games: int, seed: int = 1, budget: Budget | None = None,
                max_turns: int | None = None,
                on_game: Callable[[int, SeriesResult], None] | None = None,
                vary: str | None = None, think: str = "together") -> SeriesResult:
    n = len(scenario.players)
    if n < 2:
        raise InvalidArgument("a series needs at least two players")
    if any(p.controller == "human" for p in scenario.players):
        raise InvalidArgument("a series plays without people: this scenario has a human player")
    if games < n or games % n:
        raise InvalidArgument(f"--games must be a positive multiple of the {n} players "
                              f"(one game per seat rotation), got {games}")
    res = SeriesResult(scenario.name, 0, 0.0,
                       [PlayerScore(i, p.name or f"P{i}") for i, p in enumerate(scenario.players)],
                       think=think)
    if vary is not None:
        # checked up front: a bad path fails before the first game, and the
        # error names --vary, not the --set it is made of
        if not vary.strip() or any(ch in vary for ch in "=\n\r"):
            raise InvalidArgument(f"--vary {vary!r}: expected a scenario path such as "
                                  "game_params.maze_seed")
        try:
            vary_scenario(scenario, vary, seed)
        except ScenarioError as e:
            raise InvalidArgument(str(e).replace("--set", "--vary", 1)) from None
    stats = plugin(scenario.game).turn_stats
    t0 = time.perf_counter()
    for g in range(games // n):
        group: list[list[float]] = [[] for _ in range(n)]
        base = vary_scenario(scenario, vary, seed + g)
        for shift in range(n):
            sc = seated(base, shift)
            with Match(sc, seed=seed + g, budget=budget, max_turns=max_turns, think=think) as m:
                views: list = []
                if stats:
                    result = m.play(lambda _r: views.append(m.world.view()))
                else:
                    result = m.play()
            agents = [sc.player_agents(i) for i in range(n)]
            if stats:
                _add_shares(res, m.world.plugin.turn_shares(views), agents)
            for rec in m.history:
                for pt in rec.players:
                    if pt.iterations:
                        ps = res.players[pt.player]
                        ps.iterations += pt.iterations
                        ps.search_ms += pt.search_ms
                        ps.turns_played += 1
            scores = game_scores(result.ranking, agents)
            for i, s in enumerate(scores):
                p = res.players[i]
                p.scores.append(s)
                group[i].append(s)
                # win: ahead of everyone; loss: behind everyone; else a draw
                p.wins += s == 1.0
                p.losses += s == 0.0
                p.draws += 0.0 < s < 1.0
            res.turns.append(result.turns)
            res.games += 1
            res.seconds = time.perf_counter() - t0
            if on_game is not None:
                on_game(res.games, res)
        for i in range(n):
            res.players[i].group_means.append(sum(group[i]) / len(group[i]))
    return res


def _add_shares(res: SeriesResult, shares: dict[str, list[tuple[int, int]]],
                agents: list[list[int]]) -> None:
    """Adds one match's shares of turns to each player's totals (a player
    with several agents: its first agent's, the game gives a team's agents
    the same)."""
    for name, per_agent in shares.items():
        for i, ags in enumerate(agents):
            held, of = per_agent[ags[0]] if ags and ags[0] < len(per_agent) else (0, 0)
            tot = res.players[i].turn_shares.setdefault(name, [0, 0])
            tot[0] += held
            tot[1] += of
