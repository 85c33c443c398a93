"""The first seed of the commands that play many games.

Series, tournaments, sweeps, the strength table and the labs play seeds S,
S+1, ... (one per game or group of games), and every one of them must stay a
valid match seed (below 2^63), so they take S below 2^62; a single match
(`play`) takes any seed up to 2^63-1.
"""
from __future__ import annotations

SERIES_SEED_LIMIT = 2**62
SEED_WHY = ("series, tournaments, sweeps and labs play seeds S, S+1, ..., so S stays below "
            "2^62; one match (play) takes up to 2^63-1")


def series_seed_problem(seed: object) -> str | None:
    """The one-line refusal of a first seed, or None when it is usable."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SERIES_SEED_LIMIT:
        return f"--seed must be in 0..2^62-1 (got {seed!r}): {SEED_WHY}"
    return None
