"""The replay file format: versioned JSON Lines, one pydantic model per line.

A replay is a UTF-8 text file, one JSON object per line, each with a `type`:

    {"type": "header", "format": "sandbox-replay", "version": 1, ...}   line 1
    {"type": "turn", "turn": 0, "joint": [...], "players": [...], ...}  one per turn
    {"type": "result", "turns": 212, "ranking": [...], ...}             at the end

The header holds everything needed to re-simulate the match (game kind, the
effective game parameter string, the match seed) and to explain it (the full
scenario, every player's settings, budgets and seeds, app and core versions).
A turn line holds the joint action that was played, what each player's search
saw at its root when it decided, and the state hash after the step, so a
reader can re-simulate and check every turn. Hashes are 16 hex digits.

Compatibility: readers ignore fields they do not know, so adding an optional
field keeps version 1; anything else bumps FORMAT_VERSION.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..native import SNAPSHOT_DTYPE, TreeSnapshot

FORMAT_NAME = "sandbox-replay"
FORMAT_VERSION = 1
SUPPORTED_VERSIONS = (1,)

Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]


def hash_hex(value: int) -> str:
    return f"{int(value) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


class _Line(BaseModel):
    # NaN/inf survive the round trip (as JSON's NaN/Infinity constants) rather
    # than silently turning into null.
    model_config = ConfigDict(extra="ignore", frozen=True, ser_json_inf_nan="constants")


# ------------------------------------------------------------------- header
class PlayerHeader(_Line):
    player: int
    name: str
    controller: str
    agents: list[int]
    search: dict[str, Any] | None = None      # SearchParams at the start (search players)
    budget: dict[str, Any]                    # the Budget this player actually used
    seed: int
    color: tuple[int, int, int] | None = None


class HeaderLine(_Line):
    type: Literal["header"] = "header"
    format: Literal["sandbox-replay"] = FORMAT_NAME
    version: int = FORMAT_VERSION
    app_version: str
    core_version: str
    created: str                              # local time, ISO 8601 with offset
    scenario: dict[str, Any]                  # Scenario.model_dump(mode="json")
    scenario_source: str | None = None        # file stem or name it was loaded as
    seed: int                                 # match seed
    budget: dict[str, Any]                    # the match budget (override or scenario's)
    max_turns: int
    game: str                                 # game kind, e.g. "snakes"
    game_params: str                          # the effective C parameter string
    num_agents: int
    names: list[str]                          # per agent: its player's name
    players: list[PlayerHeader]
    start_turn: int = 0
    initial_state: list[int]                  # Game.export() words before turn 0
    initial_hash: Hash
    initial_alive: list[bool]
    record_trees: int = 0                     # nodes per stored tree, 0 = none


# --------------------------------------------------------------------- turn
class RootMove(_Line):
    move: int                                 # -1: a pass node
    visits: int
    mean: float
    prob: float


class TreeColumns(_Line):
    """The top of one agent's tree as columns (TreeSnapshot rows, parents
    before children, row 0 the root)."""
    parent: list[int]
    move: list[int]                           # 255: none (the root, pass nodes)
    visits: list[int]
    mean: list[float]
    prob: list[float]
    flags: list[int]
    norm_min: float
    norm_max: float
    tree_nodes: int                           # nodes in the whole tree

    @classmethod
    def from_snapshot(cls, snap: TreeSnapshot) -> "TreeColumns":
        rows = snap.rows
        return cls(
            parent=rows["parent"].tolist(), move=rows["move"].tolist(),
            visits=rows["visits"].tolist(),
            mean=np.round(rows["mean"].astype(np.float64), 4).tolist(),
            prob=np.round(rows["prob"].astype(np.float64), 4).tolist(),
            flags=rows["flags"].tolist(), norm_min=round(float(snap.norm_min), 6),
            norm_max=round(float(snap.norm_max), 6), tree_nodes=int(snap.tree_nodes))

    def to_snapshot(self, agent: int) -> TreeSnapshot:
        """Back to a TreeSnapshot (for the tree views); `node` is the row."""
        n = len(self.parent)
        rows = np.zeros(n, dtype=SNAPSHOT_DTYPE)
        rows["node"] = np.arange(n)
        rows["parent"] = self.parent
        rows["visits"] = self.visits
        rows["mean"] = self.mean
        rows["prob"] = self.prob
        rows["move"] = self.move
        rows["flags"] = self.flags
        depth = np.zeros(n, dtype=np.int16)
        for i, p in enumerate(self.parent):   # parents come first
            if p >= 0:
                depth[i] = depth[p] + 1
        rows["depth"] = depth
        rows.flags.writeable = False
        return TreeSnapshot(agent=agent, rows=rows, norm_min=self.norm_min,
                            norm_max=self.norm_max, tree_nodes=self.tree_nodes)


class AgentTurn(_Line):
    agent: int
    move: int | None
    nodes: int | None = None                  # nodes in the agent's tree (search players)
    root: list[RootMove] = []                 # root children when the player decided
    tree: TreeColumns | None = None           # with record_trees only


class SettingsChangeLine(_Line):
    player: int
    turn: int
    iteration: int                            # iterations into the turn when applied
    changes: dict[str, tuple[Any, Any]]       # field -> (old, new)


class PlayerTurnLine(_Line):
    player: int
    controller: str
    iterations: int
    sim_turns: int
    search_ms: float
    wall_ms: float
    stop_reason: str
    agents: list[AgentTurn]
    changes: list[SettingsChangeLine] = []


class TurnLine(_Line):
    type: Literal["turn"] = "turn"
    turn: int                                 # the game turn the decision was made in
    joint: list[int | None]
    players: list[PlayerTurnLine]
    hash: Hash                                # state hash after the step
    scores: list[float]                       # evaluation after the step
    alive: list[bool]
    eliminated: list[int]
    rewards: list[float]

    def agent(self, agent: int) -> AgentTurn | None:
        for p in self.players:
            for a in p.agents:
                if a.agent == agent:
                    return a
        return None

    def player_of(self, agent: int) -> PlayerTurnLine | None:
        for p in self.players:
            if any(a.agent == agent for a in p.agents):
                return p
        return None


# ------------------------------------------------------------------- result
class ResultLine(_Line):
    type: Literal["result"] = "result"
    turns: int
    ranking: list[int]                        # per agent, 0 = best
    winner: int | None
    final_hash: Hash
    terminal: bool
    names: list[str]


Line = Annotated[Union[HeaderLine, TurnLine, ResultLine], Field(discriminator="type")]
LINE_ADAPTER: TypeAdapter = TypeAdapter(Line)

__all__ = ["AgentTurn", "FORMAT_NAME", "FORMAT_VERSION", "HeaderLine", "LINE_ADAPTER", "Line",
           "PlayerHeader", "PlayerTurnLine", "ResultLine", "RootMove", "SUPPORTED_VERSIONS",
           "SettingsChangeLine", "TreeColumns", "TurnLine", "hash_hex"]
