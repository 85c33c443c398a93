"""The Parallel API over the C game (the C model: pods run without the pymunk
world here).

Agents are "agent_0" ... "agent_{n-1}", the game's own agents in order.
Observation (the PettingZoo convention for legal moves):
  {"observation": the game's full export (int32, sbx.h documents each
                  game's layout), zero-padded to `obs_words` (default
                  SBX_EXPORT_MAX, the C core's bound on any export: a snake's
                  export grows with its body; pass a smaller bound you know
                  holds to save memory, a longer export then raises),
                  one read-only array shared by the agents,
   "action_mask": int8[SBX_MAX_MOVES], 1 where the move id is legal}
The games are perfect information apart from chance draws, so every agent
observes the whole state. Actions are move ids (Discrete(SBX_MAX_MOVES));
an illegal or missing action of a live agent plays its first legal move and
says so in infos[agent]["illegal_action"]. Rewards are the C step's own per
agent rewards. An agent that is out of the game (eliminated) is terminated
and leaves `agents`; all are terminated when the game ends, and truncated
after `max_cycles` steps.
"""
from __future__ import annotations

import functools
import threading
from typing import Any, Mapping

import numpy as np
from pydantic import ValidationError

from ..games import plugin
from ..native import Game, InvalidArgument, InvalidState, SandboxError
from ..native._lib import lib
from ..native.errors import one_line
from ..native.game import EXPORT_MAX

MAX_MOVES = int(lib.SBX_MAX_MOVES)
DEFAULT_MAX_CYCLES = 10_000
COLORS = [(230, 80, 70), (80, 140, 240), (90, 200, 90), (235, 190, 60),
          (190, 110, 230), (70, 200, 200), (240, 140, 60), (200, 200, 200)]


def _spaces():
    try:
        from gymnasium import spaces
    except ImportError:
        raise SandboxError("observation and action spaces need Gymnasium: pip install "
                           "'simsearch-sandbox[pettingzoo]'") from None
    return spaces


class SandboxParallelEnv:
    metadata = {"name": "sandbox_parallel_v0", "render_modes": ["rgb_array"],
                "is_parallelizable": True}

    def __init__(self, kind: str, game_params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, max_cycles: int = DEFAULT_MAX_CYCLES,
                 render_size: tuple[int, int] = (480, 480),
                 obs_words: int = EXPORT_MAX) -> None:
        p = plugin(kind)                      # an unknown game: one SandboxError line
        self.plugin = p
        self.kind = kind
        if game_params is not None and not isinstance(game_params, Mapping):
            raise InvalidArgument(f"game_params: expected a mapping, got "
                                  f"{type(game_params).__name__}")
        try:
            self.c_params = p.c_params(dict(game_params or {}))
        except ValidationError as exc:
            raise InvalidArgument(f"game_params: {one_line(exc)}") from None
        if render_mode not in (None, "rgb_array"):
            raise InvalidArgument(f"render_mode: only 'rgb_array' (or None), got {render_mode!r}")
        self.render_mode = render_mode
        if type(max_cycles) is not int or max_cycles < 1:
            raise InvalidArgument(f"max_cycles: a whole number >= 1, got {max_cycles!r}")
        self.max_cycles = max_cycles
        if not (isinstance(render_size, (tuple, list)) and len(render_size) == 2
                and all(type(v) is int and 16 <= v <= 8000 for v in render_size)):
            raise InvalidArgument(f"render_size: (width, height), each 16..8000, got "
                                  f"{render_size!r}")
        self.render_size = tuple(render_size)
        self.game = Game(kind, self.c_params, seed=0)
        n = self.game.num_agents
        self.possible_agents = [f"agent_{i}" for i in range(n)]
        self.agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        if type(obs_words) is not int or not 1 <= obs_words <= EXPORT_MAX:
            raise InvalidArgument(f"obs_words: a whole number in 1..{EXPORT_MAX}, got "
                                  f"{obs_words!r}")
        self.obs_len = obs_words
        self._padded(self.game.export())      # the start state must fit
        self.agents: list[str] = []
        # One episode, one state: calls from several threads take turns (a
        # reset replacing the game under another thread's step raised a bare
        # IndexError). Each still sees a whole step or a whole reset.
        self._lock = threading.RLock()
        self._rng = np.random.default_rng()
        self._prev_view = None
        self._renderer = None
        self.cycles = 0

    # -- the PettingZoo surface ---------------------------------------------
    @property
    def unwrapped(self) -> "SandboxParallelEnv":
        return self

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str):
        spaces = _spaces()
        i32 = np.iinfo(np.int32)
        return spaces.Dict({
            "observation": spaces.Box(i32.min, i32.max, (self.obs_len,), np.int32),
            "action_mask": spaces.Box(0, 1, (MAX_MOVES,), np.int8)})

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str):
        return _spaces().Discrete(MAX_MOVES)

    def reset(self, seed: int | None = None, options: dict | None = None):
        with self._lock:
            return self._reset(seed)

    def _reset(self, seed: int | None):
        if seed is not None:
            if type(seed) is not int or seed < 0:
                raise InvalidArgument(f"seed: a whole number >= 0, got {seed!r}")
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63 - 1))
        self.game.close()
        self.game = Game(self.kind, self.c_params, seed=game_seed)
        self.cycles = 0
        self.agents = [a for a, alive in zip(self.possible_agents, self.game.alive) if alive]
        self._prev_view = None
        words = self._padded(self.game.export())
        obs = {a: self._observe(a, words) for a in self.agents}
        return obs, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]):
        with self._lock:
            return self._step(actions)

    def _step(self, actions: Mapping[str, Any]):
        if not self.agents:
            raise InvalidState("the episode is over: call reset()")
        if not isinstance(actions, Mapping):
            raise InvalidArgument(f"actions: a dict keyed by agent, got {type(actions).__name__}")
        for a in actions:
            if a not in self.agent_index:
                raise InvalidArgument(f"actions: no agent {a!r} (agents: "
                                      f"{', '.join(self.possible_agents)})")
        live = list(self.agents)
        joint: list[int | None] = [None] * self.game.num_agents
        infos: dict[str, dict] = {a: {} for a in live}
        for a in live:
            i = self.agent_index[a]
            legal = self.game.legal_moves(i)
            m = actions.get(a)
            try:
                m = None if m is None else int(m)
            except (TypeError, ValueError):
                raise InvalidArgument(f"actions[{a!r}]: a move id, got {m!r}") from None
            if m not in legal:
                infos[a]["illegal_action"] = m
                m = legal[0]
            joint[i] = m
        self._prev_view = self.plugin.decode(self.game.export())
        step_rewards = self.game.step(joint)
        self.cycles += 1
        over = self.game.is_terminal
        alive = self.game.alive
        truncate = not over and self.cycles >= self.max_cycles
        rewards = {a: float(step_rewards[self.agent_index[a]]) for a in live}
        terms = {a: over or not alive[self.agent_index[a]] for a in live}
        truncs = {a: truncate and not terms[a] for a in live}
        words = self._padded(self.game.export())
        obs = {a: self._observe(a, words) for a in live}
        if over or truncate:
            ranking = self.game.ranking()
            for a in live:
                infos[a]["rank"] = ranking[self.agent_index[a]]
        self.agents = [a for a in live if not (terms[a] or truncs[a])]
        return obs, rewards, terms, truncs, infos

    def render(self):
        if self.render_mode is None:
            return None
        with self._lock:
            return self._render()

    def _render(self):
        import pygame
        if self._renderer is None:
            n = self.game.num_agents
            self._renderer = self.plugin.renderer(COLORS[:n] if n <= len(COLORS) else
                                                  [COLORS[i % len(COLORS)] for i in range(n)],
                                                  list(self.possible_agents))
        from ..games import BoardContext
        w, h = self.render_size
        surface = pygame.Surface((w, h))
        surface.fill((22, 24, 30))
        view = self.plugin.decode(self.game.export())
        prev = self._prev_view if self._prev_view is not None else view
        self._renderer.draw(surface, pygame.Rect(0, 0, w, h), view, prev, 1.0,
                            BoardContext(game=self.game))
        # surfarray is (x, y, rgb): the usual image order is (row, column, rgb)
        return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))

    def close(self) -> None:
        with self._lock:
            self.game.close()

    def state(self) -> np.ndarray:
        with self._lock:
            return self._padded(self.game.export())

    # -- helpers -------------------------------------------------------------
    def _padded(self, words: np.ndarray) -> np.ndarray:
        if len(words) > self.obs_len:
            raise InvalidState(f"{self.kind}: the export grew to {len(words)} words, past "
                               f"the observation's {self.obs_len}")
        out = np.zeros(self.obs_len, dtype=np.int32)
        out[:len(words)] = words
        out.flags.writeable = False
        return out

    def _observe(self, agent: str, words: np.ndarray) -> dict[str, np.ndarray]:
        i = self.agent_index[agent]
        mask = np.zeros(MAX_MOVES, dtype=np.int8)
        if self.game.is_alive(i) and not self.game.is_terminal:
            mask[self.game.legal_moves(i)] = 1
        return {"observation": words, "action_mask": mask}


def parallel_env(kind: str, game_params: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> SandboxParallelEnv:
    return SandboxParallelEnv(kind, game_params, **kwargs)


def env_from_scenario(name_or_path: str, **kwargs: Any) -> SandboxParallelEnv:
    """The env of a scenario's game and parameters (its players are not used)."""
    from ..config import load_scenario
    sc = load_scenario(name_or_path)
    if sc.max_turns and "max_cycles" not in kwargs:
        kwargs["max_cycles"] = sc.max_turns
    return SandboxParallelEnv(sc.game, sc.game_params, **kwargs)
