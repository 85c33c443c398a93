"""World: the real game of a match. Headless: no pygame here.

`World` is a C game (the C model is the world, `physics = "csb"`: exact,
re-simulated by replays). `PhysicsWorld` is a world a game plugin offers
besides (its `worlds`; pods: "pymunk", sandbox/games/pods/world.py): it
moves the game and imports each turn's result into its C game, which the
searches keep planning on; it records the state it reached (replays store
it: such a world is not re-simulated) and how far the C model's prediction
of the turn was from it (the divergence)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..games import plugin
from ..games.base import WorldTurn  # noqa: F401  (re-exported: a world's turn)
from ..native import Game, InvalidArgument


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

    # what a turn record keeps besides the hash: the state words when a
    # replay cannot re-simulate the step (None: it can), the per-agent
    # divergence of the world from the C model on the last step (None: none)
    def recorded_state(self) -> list[int] | None:
        return None

    @property
    def last_divergence(self) -> tuple[float, ...] | None:
        return None

    def export(self) -> np.ndarray:
        return self.game.export()

    def import_state(self, words: Sequence[int]) -> None:
        """Start from another state of this game (a match branched from a
        replay's turn). C validates it; on a refusal the state is unchanged."""
        try:
            self.game.import_state(words)
        finally:
            self._sync()

    def view(self):
        """A decoded, immutable picture of the state for renderers."""
        return self.plugin.decode(self.game.export())

    def close(self) -> None:
        self.game.close()


class PhysicsWorld(World):
    """A world other than the C model (a game plugin's `worlds`, e.g. pods'
    "pymunk"): the plugin's physics world moves the game, and its state is
    imported into the C game after every step, which the searches keep
    planning on and which gives the rules' figures (alive, scores, ranking)."""

    def __init__(self, kind: str, params: Mapping[str, Any] | str | None, seed: int,
                 physics: str) -> None:
        super().__init__(kind, params, seed)
        if physics not in self.plugin.worlds:
            self.game.close()
            raise InvalidArgument(f"physics: the game '{kind}' has no world '{physics}' "
                                  f"(it has: {', '.join(('csb', *self.plugin.worlds))})")
        self.physics_name = physics
        self.physics = self.plugin.physics_world(physics, self.plugin.decode(self.game.export()))
        self._divergence: tuple[float, ...] | None = None
        self._state: list[int] | None = None

    def step(self, joint: Sequence[int | None]) -> np.ndarray:
        try:
            start = self.game.export()
            with self.game.clone() as predicted:
                predicted.step(joint)   # C's rules for the turn (pods: headings, thrusts)
                guess = predicted.export()
            turn = self.physics.advance(self.plugin.decode(start), self.plugin.decode(guess))
            self.game.import_state(turn.words)
            self._state = list(turn.words)
            self._divergence = tuple(turn.divergence)
            return np.asarray(turn.rewards, dtype=np.float64)
        finally:
            self._sync()

    def import_state(self, words: Sequence[int]) -> None:
        super().import_state(words)
        # the physics world starts over from the imported state
        self.physics = self.plugin.physics_world(self.physics_name,
                                                 self.plugin.decode(self.game.export()))
        self._divergence, self._state = None, None

    def recorded_state(self) -> list[int] | None:
        return self._state

    @property
    def last_divergence(self) -> tuple[float, ...] | None:
        return self._divergence


def make_world(kind: str, params: Mapping[str, Any] | str | None, seed: int,
               physics: str = "csb") -> World:
    """The world of a scenario: "csb" the C model, else a plugin's world."""
    if physics == "csb":
        return World(kind, params, seed)
    return PhysicsWorld(kind, params, seed, physics)


def turn_divergence(divergence: Sequence[float] | None) -> float | None:
    """A turn's divergence: the largest pod's (None for the C world)."""
    return None if divergence is None else max(divergence, default=0.0)


def divergence_summary(divergences: Sequence[Sequence[float] | None]) -> str | None:
    """One line about a match's per-turn divergences (None: a C world)."""
    per_turn = [turn_divergence(d) for d in divergences if d is not None]
    if not per_turn:
        return None
    off = [d for d in per_turn if d > 0]
    line = (f"world vs C model: divergence per turn (largest pod) mean "
            f"{sum(per_turn) / len(per_turn):.1f}, max {max(per_turn):.1f} over "
            f"{len(per_turn)} turns; {len(off)} turns off the C prediction")
    if off:
        line += f" (mean {sum(off) / len(off):.1f} on those)"
    return line


def divergence_note(divergence: Sequence[float] | None) -> str:
    """The board's line about a turn's divergence ("" for the C world)."""
    d = turn_divergence(divergence)
    return "" if d is None else f"world: {d:.0f} off the C model"
