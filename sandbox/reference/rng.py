"""The C core's random numbers and state hash, in plain Python integers.

Mirrors native/src/core/common.h (sbx_rng_next, sbx_rng_below) and
native/src/games/game.h (sbx_hash_word, sbx_hash_finish). C does its
arithmetic on uint64_t, which wraps modulo 2**64; here every product and sum
is masked with MASK64 to get the same bits.
"""
from __future__ import annotations

from typing import Iterable

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1

GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB

FNV_OFFSET = 0xCBF29CE484222325   # SBX_HASH_INIT
FNV_PRIME = 0x100000001B3


class SplitMix64:
    """splitmix64 with one 64-bit word of state (sbx_rng_next)."""

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output; advances the state by the golden gamma."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n): the high 32 bits times n, shifted down 32
        (sbx_rng_below; consumes exactly one next())."""
        return ((self.next() >> 32) * (n & MASK32)) >> 32

    def copy(self) -> "SplitMix64":
        return SplitMix64(self.state)

    def __repr__(self) -> str:
        return f"SplitMix64(0x{self.state:016x})"


def hash_word(h: int, word: int) -> int:
    """One FNV-1a step over a 32-bit word; C casts the int32 to uint32 first,
    so a negative word enters as its two's complement."""
    return ((h ^ (word & MASK32)) * FNV_PRIME) & MASK64


def hash_finish(h: int) -> int:
    """The splitmix64 finaliser applied to the FNV-1a accumulator."""
    h = ((h ^ (h >> 30)) * MIX1) & MASK64
    h = ((h ^ (h >> 27)) * MIX2) & MASK64
    return h ^ (h >> 31)


def hash_words(words: Iterable[int]) -> int:
    """The state hash of an export: FNV-1a over its words, then finished."""
    h = FNV_OFFSET
    for w in words:
        h = hash_word(h, int(w))
    return hash_finish(h)
