"""The game registry: one plugin per C game kind.

    from sandbox.games import plugin
    p = plugin("goofspiel")          # the GamePlugin of a kind
    view = p.decode(game.export())

Everything outside sandbox/games/ reaches a game only through here (a test
checks that no other module imports a particular game or branches on its
name). Adding a game: see docs/ARCHITECTURE.md, "Adding a game".
"""
from __future__ import annotations

from typing import Sequence

from ..native import InvalidArgument
from .base import (AgentFacts, AgentStatus, BenchCase, BoardContext, GameParams, GamePlugin,
                   KeyResult, move_namer, move_names)
from .depthbias import PLUGIN as _DEPTHBIAS
from .goofspiel import PLUGIN as _GOOFSPIEL
from .matrix import PLUGIN as _MATRIX
from .maze import PLUGIN as _MAZE
from .pods import PLUGIN as _PODS
from .snakes import PLUGIN as _SNAKES

# in the C registry's order (native/src/games/registry.c)
_REGISTRY: dict[str, GamePlugin] = {p.kind: p for p in (_SNAKES, _GOOFSPIEL, _MATRIX,
                                                            _DEPTHBIAS, _MAZE, _PODS)}


def plugin(kind: str) -> GamePlugin:
    try:
        return _REGISTRY[kind]
    except (KeyError, TypeError):
        known = ", ".join(_REGISTRY)
        raise InvalidArgument(f"unknown game '{kind}' (known: {known})") from None


def plugins() -> list[GamePlugin]:
    """Every registered plugin, in registration order."""
    return list(_REGISTRY.values())


def kinds() -> list[str]:
    return list(_REGISTRY)


def decode(kind: str, words: Sequence[int]):
    return plugin(kind).decode(words)


__all__ = ["AgentFacts", "AgentStatus", "BenchCase", "BoardContext", "GameParams", "GamePlugin",
           "KeyResult", "decode", "kinds", "move_namer", "move_names", "plugin", "plugins"]
