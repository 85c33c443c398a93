"""World: the real game of a match (a C game; later also the pymunk world
for pods). Headless: no pygame here."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..games import plugin
from ..native import Game


class World:
    def __init__(self, kind: str, params: Mapping[str, Any] | str | None, seed: int) -> None:
        self.kind = kind
        self.seed = seed
        self.plugin = plugin(kind)
        self.game = Game(kind, params, seed=seed)
        self._sync()

    def _sync(self) -> None:
        # Kept in Python: the UI reads these many times a frame, and every
        # cffi call releases the GIL and must win it back from the search
        # threads (~0.1 ms each on a busy machine). Only step() changes them.
        self._turn = self.game.turn
        self._terminal = self.game.is_terminal

    @property
    def num_agents(self) -> int:
        return self.game.num_agents

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def is_terminal(self) -> bool:
        return self._terminal

    def step(self, joint: Sequence[int | None]) -> np.ndarray:
        try:
            return self.game.step(joint)
        finally:
            self._sync()

    def export(self) -> np.ndarray:
        return self.game.export()

    def view(self):
        """A decoded, immutable picture of the state for renderers."""
        return self.plugin.decode(self.game.export())

    def close(self) -> None:
        self.game.close()
