"""sandbox.reference — slow, readable pure-Python mirrors of the C core.

These modules re-implement, line for line in meaning, the C search
(native/src/search/smitsimax.c + api.c) so that tests can compare the two
bit for bit and the benchmark can show what the C core buys. Clarity comes
first here; speed does not matter. A game's own twin lives with its plugin
(sandbox/games/<name>/reference.py, reached through GamePlugin.reference_game).

    rng        splitmix64, below(n), the FNV-1a state hash
    tree       Node, Tree, flags and the selection policies' arithmetic
    smitsimax  Smitsimax: decoupled per-agent trees over any reference game
    match      a self-play match of it, as `bench` times the C search
"""
from .rng import SplitMix64, hash_words
from .smitsimax import Smitsimax

__all__ = ["Smitsimax", "SplitMix64", "hash_words"]
