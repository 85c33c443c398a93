"""What the three labs share: policy names, the searches' fixed settings,
reading a root strategy, choosing the move a strategy plays, checkpoints.

All per-iteration work is the C search's; these helpers run once per round
or per chunk of iterations.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..seeds import series_seed_problem
from ..native import InvalidArgument, MoveStat, Search, SearchParams
from ..native.params import POLICY

POLICIES: tuple[str, ...] = tuple(POLICY)            # ucb1, ucb1_tuned, exp3, rm, rm_plus
UCB_FAMILY = ("ucb1", "ucb1_tuned")
MAX_ITERATIONS = 10_000_000


class LabError(InvalidArgument):
    """A lab's setting the user got wrong (the CLI prints it as one line)."""


def policy_arg(name: str) -> str:
    name = name.strip()
    if name not in POLICIES:
        raise LabError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})")
    return name


# A race entry may name a variant of its policy: "rm:sampled" is RM with
# counterfactual = off (sampled regret estimates at every step), to race the
# tutorial's exact regrets against the bandit-feedback ones.
VARIANTS: dict[str, dict[str, Any]] = {
    "sampled": {"policies": ("rm", "rm_plus"), "settings": {"counterfactual": "off"}},
}


# A race entry that is a search rather than a Smitsimax policy: growing-tree
# CFR (its root average strategy is the curve; an iteration is an expansion)
GTCFR_ENTRY = "gtcfr"


def entries_arg(text: str) -> list[tuple[str, str, dict[str, Any]]]:
    """--policies for the race: (label, policy, extra settings) per entry,
    an entry being a policy name, policy:variant (see VARIANTS) or gtcfr
    (growing-tree CFR instead of Smitsimax)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        if item == GTCFR_ENTRY:
            out.append((item, item, {"algorithm": "gtcfr"}))
            continue
        name, sep, variant = (x.strip() for x in item.partition(":"))
        try:
            policy = policy_arg(name)
        except LabError as exc:
            raise LabError(f"--policies: {exc} in {item!r}") from None
        extra: dict[str, Any] = {}
        if sep:
            v = VARIANTS.get(variant)
            if v is None:
                raise LabError(f"--policies: unknown variant {variant!r} in {item!r} "
                               f"(variants: {', '.join(VARIANTS)})")
            if policy not in v["policies"]:
                raise LabError(f"--policies: {variant} applies to "
                               f"{' and '.join(v['policies'])} only (got {item!r})")
            extra = dict(v["settings"])
        out.append((f"{policy}:{variant}" if sep else policy, policy, extra))
    if not out:
        raise LabError("--policies: name at least one policy")
    labels = [e[0] for e in out]
    if len(set(labels)) != len(labels):
        raise LabError(f"--policies: a policy is named twice ({text})")
    return out


def iterations_arg(n: int, what: str = "--iterations") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_ITERATIONS:
        raise LabError(f"{what} must be 1..{MAX_ITERATIONS:,} (got {n})")
    return int(n)


def seed_arg(seed: int) -> int:
    if isinstance(seed, np.integer):
        seed = int(seed)
    if series_seed_problem(seed):
        raise LabError(series_seed_problem(seed))
    return seed


def one_shot_params(policy: str, **extra) -> SearchParams:
    """A one-shot matrix game searched to depth 1, trees never kept (every
    search here is fresh, so a policy switch can never mix statistics).
    random_threshold 0: the policy itself picks from the first visit, so
    what the lab shows is the policy's doing, not a warm-up's (callers may
    override it: see race.py)."""
    fields = {"max_depth": 1, "tree_reuse": False, "policy": policy, "random_threshold": 0,
              **extra}
    return SearchParams(**fields)


def final_move_for(policy: str) -> str:
    """Exp3 / RM play a mixed strategy (a sample of the average strategy);
    the UCB family's move is the most visited one."""
    return "argmax" if policy in UCB_FAMILY else "sample"


def strategy(stats: Sequence[MoveStat], n: int, field: str = "policy") -> np.ndarray:
    """A probability vector over moves 0..n-1 from root stats (`policy`: the
    policy's probabilities; `prob`: visit shares). Before any visit: uniform."""
    x = np.zeros(n, dtype=np.float64)
    for s in stats:
        if 0 <= s.move < n:
            x[s.move] = getattr(s, field)
    total = x.sum()
    return x / total if total > 0 else np.full(n, 1.0 / n)


def visits(stats: Sequence[MoveStat], n: int) -> np.ndarray:
    v = np.zeros(n, dtype=np.int64)
    for s in stats:
        if 0 <= s.move < n:
            v[s.move] = s.visits
    return v


def choose_move(search: Search, agent: int, n: int, final_move: str,
                rng: np.random.Generator) -> int:
    """The move the agent plays: `sample` draws from the root policy with
    the lab's own seeded generator (one draw per round); `argmax` is the C
    search's best move (most visited, ties by mean)."""
    if final_move == "sample":
        p = strategy(search.root_stats(agent), n)
        return int(rng.choice(n, p=p))
    best = search.best_moves()[agent]
    return int(best) if best is not None else 0


def checkpoints(total: int, first: int = 100) -> list[int]:
    """Log-spaced 1-2-5 checkpoints from `first` up to `total` (always
    included): 100, 200, 500, 1000, ... The first is never above the total."""
    out, decade = [], 1
    while decade * 10 <= first:
        decade *= 10
    while True:
        for m in (1, 2, 5):
            c = m * decade
            if first <= c < total:
                out.append(c)
        if decade * 10 >= total:
            break
        decade *= 10
    out.append(total)
    return sorted(set(out))
