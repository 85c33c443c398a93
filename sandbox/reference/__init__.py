"""sandbox.reference — slow, readable pure-Python mirrors of the C core.

These modules re-implement, line for line in meaning, the C engine and search
(native/src/games/snakes.c, native/src/search/smitsimax.c + search.c) so that
tests can compare the two bit for bit and the benchmark can show what the C
core buys. Clarity comes first here; speed does not matter.

    rng        splitmix64, below(n), the FNV-1a state hash
    snakes     SnakesGame: the `snakes` game, ruleset `standard` (RULES.md §1)
    smitsimax  Smitsimax: decoupled per-agent trees over any reference game
"""
from .rng import SplitMix64, hash_words
from .smitsimax import Smitsimax
from .snakes import Snake, SnakesGame, SnakesParams, build_export, decode_export

__all__ = ["Smitsimax", "Snake", "SnakesGame", "SnakesParams", "SplitMix64", "build_export",
           "decode_export", "hash_words"]
