"""RPS playground (tutorial §9): you against an agent that runs a fresh
Smitsimax search every round.

Each round the agent searches the one-shot game (depth 1, no tree reuse,
the chosen policy and iteration budget) and plays from its root: the most
visited move for the UCB family, a sample of the policy's strategy for
Exp3 / RM (a mixed strategy is the point of RPS). With `model_history` it
searches a 3x1 game instead, whose single column is its expected payoff
against your Laplace-smoothed move frequencies so far: favour rock and the
column says paper.

Headless, "you" are a scripted opponent (Opponent): `rock`, `cycle`,
`uniform`, `biased:0.5,0.3,0.2` or a sequence `r,p,s,r` (repeated).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np

from ..native import Search
from .common import (LabError, choose_move, final_move_for, iterations_arg, one_shot_params,
                     policy_arg, seed_arg, strategy)
from .kinds import (RPS_PRESET, column_game_params, matrix_game, matrix_params,
                    payoff_tables)

MAX_ROUNDS = 100_000


def round_seed(seed: int, rnd: int) -> int:
    """The round's search seed: independent streams per (lab seed, round)."""
    return int(np.random.SeedSequence([seed, rnd]).generate_state(1, np.uint64)[0])


class Opponent:
    """A scripted "you". `names` are the game's move names (rock, paper,
    scissors); a move is named in full or by its first letter."""

    def __init__(self, pattern: str, names: Sequence[str], seed: int = 0) -> None:
        self.pattern = pattern
        self.names = list(names)
        n = len(self.names)
        self.rng = np.random.default_rng([seed, 0x5EED])
        self.probs: np.ndarray | None = None
        self.sequence: list[int] = []
        p = pattern.strip().lower()
        if p == "cycle":
            self.sequence = list(range(n))
        elif p == "uniform":
            self.probs = np.full(n, 1.0 / n)
        elif p.startswith("biased:"):
            self.probs = self._probs(p[7:], n)
        else:
            self.sequence = [self._move(tok) for tok in p.split(",")]

    def _move(self, token: str) -> int:
        t = token.strip()
        for i, name in enumerate(self.names):
            if t == name.lower() or (len(t) == 1 and t == name[0].lower()):
                return i
        raise LabError(f"--opponent {self.pattern!r}: {t!r} is not a move "
                       f"({', '.join(self.names)}, or their first letters); patterns: "
                       f"rock, cycle, uniform, biased:0.5,0.3,0.2, r,p,s,r")

    def _probs(self, text: str, n: int) -> np.ndarray:
        try:
            p = np.array([float(x) for x in text.split(",")], dtype=np.float64)
        except ValueError:
            p = np.array([])
        if p.shape != (n,) or not np.all(np.isfinite(p)) or np.any(p < 0) \
                or abs(p.sum() - 1.0) > 1e-3:
            raise LabError(f"--opponent {self.pattern!r}: biased: wants {n} probabilities "
                           f"summing to 1, e.g. biased:0.5,0.3,0.2")
        return p / p.sum()

    def move(self, rnd: int) -> int:
        if self.probs is not None:
            return int(self.rng.choice(len(self.probs), p=self.probs))
        return self.sequence[rnd % len(self.sequence)]


@dataclass(frozen=True)
class RoundRecord:
    round: int                      # 1-based
    you: int
    agent: int
    agent_payoff: float             # a[agent][you]
    outcome: int                    # +1 the agent won, 0 a tie, -1 you won
    strategy: tuple[float, ...]     # the agent's root policy this round
    column: tuple[float, ...] | None  # model-history: the searched column
    policy_in_force: str            # what C ran (a policy not built yet runs as UCB1)


class RpsLab:
    """The playground's state; one `play(your_move)` per round."""

    def __init__(self, policy: str = "ucb1", iterations: int = 1000,
                 model_history: bool = False, seed: int = 1,
                 final_move: str | None = None) -> None:
        self.policy = policy_arg(policy)
        self.iterations = iterations_arg(iterations)
        self.model_history = bool(model_history)
        self.seed = seed_arg(seed)
        self.final_move = final_move or final_move_for(self.policy)
        self.game = matrix_game(matrix_params(RPS_PRESET))
        self.a, _ = payoff_tables(self.game)
        self.n = self.a.shape[0]
        self.names = [self.game.move_name(0, m) for m in range(self.n)]
        self.rng = np.random.default_rng([self.seed, 0xA6E])
        self.reset()

    def reset(self) -> None:
        self.counts = np.zeros(self.n, dtype=np.int64)    # your moves so far
        self.rounds: list[RoundRecord] = []
        self.score = [0, 0, 0]                            # your wins, ties, agent wins

    def set(self, policy: str | None = None, iterations: int | None = None,
            model_history: bool | None = None) -> None:
        """Settings from the next round on (the score stays)."""
        if policy is not None:
            self.policy = policy_arg(policy)
            self.final_move = final_move_for(self.policy)
        if iterations is not None:
            self.iterations = iterations_arg(iterations)
        if model_history is not None:
            self.model_history = bool(model_history)

    def frequencies(self) -> np.ndarray:
        """Your Laplace-smoothed move frequencies: (n_m + 1) / (N + k)."""
        return (self.counts + 1.0) / (self.counts.sum() + self.n)

    def model_column(self) -> np.ndarray:
        """The agent's expected payoff per move against your smoothed history."""
        return self.a @ self.frequencies()

    def decide(self) -> tuple[int, np.ndarray, np.ndarray | None, str]:
        """A fresh search for the coming round: (move, strategy, column, policy in force)."""
        column = self.model_column() if self.model_history else None
        game = self.game if column is None else matrix_game(
            column_game_params(column, self.names))
        rnd = len(self.rounds)
        with Search(game, one_shot_params(self.policy), seed=round_seed(self.seed, rnd)) as s:
            s.run(iterations=self.iterations)
            strat = strategy(s.root_stats(0), self.n)
            move = choose_move(s, 0, self.n, self.final_move, self.rng)
            in_force = s.stats().policy
        if column is not None:
            game.close()
        return move, strat, column, in_force

    def play(self, you: int) -> RoundRecord:
        if not (isinstance(you, (int, np.integer)) and 0 <= you < self.n):
            raise LabError(f"your move must be 0..{self.n - 1} (got {you!r})")
        move, strat, column, in_force = self.decide()
        pay = float(self.a[move, you])
        outcome = (pay > 0) - (pay < 0)
        if outcome > 0:
            self.score[2] += 1
        elif outcome < 0:
            self.score[0] += 1
        else:
            self.score[1] += 1
        self.counts[you] += 1
        rec = RoundRecord(len(self.rounds) + 1, int(you), move, pay, outcome,
                          tuple(float(x) for x in strat),
                          None if column is None else tuple(float(x) for x in column), in_force)
        self.rounds.append(rec)
        return rec


@dataclass(frozen=True)
class RpsRow:
    round: int
    you_wins: int
    ties: int
    agent_wins: int
    strategy: tuple[float, ...]


@dataclass
class RpsReport:
    policy: str
    policy_in_force: str
    iterations: int
    model_history: bool
    opponent: str
    seed: int
    names: list[str]
    rows: list[RpsRow]
    rounds: list[RoundRecord]

    def text(self) -> str:
        head = (f"RPS playground: policy {self.policy}"
                + (f" (runs as {self.policy_in_force} in this build)"
                   if self.policy_in_force != self.policy else "")
                + f", {self.iterations:,} iterations per round, opponent {self.opponent}"
                + (", the agent models your history" if self.model_history else "")
                + f", seed {self.seed}")
        w = [max(5, len(n)) for n in self.names]
        lines = [head, "(the agent's strategy: its root policy probabilities in the last round)",
                 f"{'round':>6} {'you':>5} {'ties':>5} {'agent':>6} | "
                 + " ".join(f"{n:>{k}}" for n, k in zip(self.names, w))]
        for r in self.rows:
            lines.append(f"{r.round:6d} {r.you_wins:5d} {r.ties:5d} {r.agent_wins:6d} | "
                         + " ".join(f"{p:>{k}.3f}" for p, k in zip(r.strategy, w)))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"lab": "rps", "policy": self.policy, "policy_in_force": self.policy_in_force,
                "iterations": self.iterations, "model_history": self.model_history,
                "opponent": self.opponent, "seed": self.seed, "moves": self.names,
                "rows": [asdict(r) for r in self.rows],
                "rounds": [asdict(r) for r in self.rounds]}


def run_rps(rounds: int = 100, policy: str = "ucb1", iterations: int = 1000,
            opponent: str = "uniform", model_history: bool = False,
            seed: int = 1) -> RpsReport:
    if isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise LabError(f"--rounds must be 1..{MAX_ROUNDS:,} (got {rounds})")
    lab = RpsLab(policy, iterations, model_history, seed)
    you = Opponent(opponent, lab.names, seed)
    every = max(1, rounds // 10)
    rows = []
    for k in range(rounds):
        rec = lab.play(you.move(k))
        if rec.round % every == 0 or rec.round == rounds:
            rows.append(RpsRow(rec.round, *lab.score, rec.strategy))
    return RpsReport(lab.policy, lab.rounds[-1].policy_in_force, lab.iterations,
                     lab.model_history, opponent, lab.seed, lab.names, rows, lab.rounds)
