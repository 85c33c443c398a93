"""Seeds: the first seed of the commands that play many games, and the
seeds derived from a match seed (each player's, a public name for a match).

Series, tournaments, sweeps, the strength table and the labs play seeds S,
S+1, ... (one per game or group of games), and every one of them must stay a
valid match seed (below 2^63), so they take S below 2^62; a single match
(`play`) takes any seed up to 2^63-1.
"""
from __future__ import annotations

import hashlib

SERIES_SEED_LIMIT = 2**62
SEED_WHY = ("series, tournaments, sweeps and labs play seeds S, S+1, ..., so S stays below "
            "2^62; one match (play) takes up to 2^63-1")


def series_seed_problem(seed: object) -> str | None:
    """The one-line refusal of a first seed, or None when it is usable."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SERIES_SEED_LIMIT:
        return f"--seed must be in 0..2^62-1 (got {seed!r}): {SEED_WHY}"
    return None


# ------------------------------------------------------------ derived seeds
# A player's seed is handed to it (a bot reads it in its start message), so
# it must not give away the match seed, from which the world draws the
# referee's chance (goofspiel's random prize order, snakes' food): a keyed
# hash is one-way, where the old affine formula could be solved for the
# match seed. Each derivation has its own key, so no two share a stream.
_PLAYER_KEY = b"sandbox player seed v2"
_MATCH_ID_KEY = b"sandbox public match id v1"


def _keyed(key: bytes, *parts: int) -> bytes:
    text = ":".join(str(int(p)) for p in parts).encode("ascii")
    return hashlib.blake2b(text, digest_size=8, key=key).digest()


def player_seed(match_seed: int, seat: int) -> int:
    """Seat `seat`'s seed in the match of `match_seed` (below 2^63): the
    same for the same pair, and nothing a player can turn back into the
    match seed or another seat's seed."""
    return int.from_bytes(_keyed(_PLAYER_KEY, match_seed, seat), "little") >> 1


def public_match_id(match_seed: int) -> str:
    """A name for the match that can be shown to a player (a snake server's
    game id): stable for a seed, and not the seed."""
    return _keyed(_MATCH_ID_KEY, match_seed).hex()
