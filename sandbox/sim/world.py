"""World: the real game of a match (a C game; later also the pymunk world
for pods). Headless: no pygame here."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..games import decode
from ..native import Game


class World:
    def __init__(self, kind: str, params: Mapping[str, Any] | str | None, seed: int) -> None:
        self.kind = kind
        self.seed = seed
        self.game = Game(kind, params, seed=seed)

    @property
    def num_agents(self) -> int:
        return self.game.num_agents

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def is_terminal(self) -> bool:
        return self.game.is_terminal

    def step(self, joint: Sequence[int | None]) -> np.ndarray:
        return self.game.step(joint)

    def export(self) -> np.ndarray:
        return self.game.export()

    def view(self):
        """A decoded, immutable picture of the state for renderers."""
        return decode(self.kind, self.game.export())

    def close(self) -> None:
        self.game.close()
