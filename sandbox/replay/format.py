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
field keeps version 1; anything else bumps FORMAT_VERSION. Optional fields
added within version 1 (older files lack them; readers fall back as noted at
each field): RootMove.policy, TreeColumns.mover, .joint and .prior, and
AgentTurn.chosen_by (who chose the move played: the player's search or random
draw, or a person who took the agent over; AgentTurn.move stays what the
player's controller decided, joint[agent] what was played), TurnLine.state
and .divergence (a pods race in the pymunk world, scenario physics =
"pymunk": the state after the step, imported instead of re-simulated, and
the world's per-agent distance from the C model's prediction),
HeaderLine.branched_from (a match branched from another replay's turn: it
starts from initial_state, imported into the game built from the header),
PlayerTurnLine.bot (a process player's latency, failures and debug),
TurnLine.forfeits (agents out of the ranking from that turn) and
TurnLine.free (free moves, FreeMove in sandbox.native: a pods pod steered
to a target point by a person or an outside bot; a versioned object whose
`moves` hold one entry per agent, the free move it played or null, and
joint[agent] is null where there is one; a reader that does not know the
field sees those agents without a move and cannot re-simulate the turn).

Consistency: a header must agree with itself (one name and one initial alive
flag per agent, every agent owned by exactly one player), or the file is
refused; turn and result lines must agree with the header
(HeaderLine.turn_problem / result_problem), or the reader drops them like
any other damaged line. Everything downstream indexes per-agent lists by
agent number and relies on this.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import numpy as np
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ..native import SNAPSHOT_DTYPE, TreeSnapshot
from ..native.snapshot import FLAG_PRIOR
from ..safetext import check_strings, unsafe_char

FORMAT_NAME = "sandbox-replay"
FORMAT_VERSION = 1
SUPPORTED_VERSIONS = (1,)

Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]


def _plain(text: str) -> str:
    why = unsafe_char(text)
    if why:
        raise ValueError(f"has {why}")
    return text


# A string a summary prints (stats, the app's tables): no control or bidi
# character, so a forged name cannot clear the screen or print a line of its
# own (sandbox.safetext).
Plain = Annotated[str, AfterValidator(_plain)]


def hash_hex(value: int) -> str:
    return f"{int(value) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


class _Line(BaseModel):
    # NaN/inf survive the round trip (as JSON's NaN/Infinity constants) rather
    # than silently turning into null.
    model_config = ConfigDict(extra="ignore", frozen=True, ser_json_inf_nan="constants")


# ------------------------------------------------------------------- header
class PlayerHeader(_Line):
    player: int
    name: Plain
    controller: Plain
    agents: list[int]
    search: dict[str, Any] | None = None      # SearchParams at the start (search players)
    budget: dict[str, Any]                    # the Budget this player actually used
    seed: int
    color: tuple[int, int, int] | None = None


class BranchOrigin(_Line):
    """Where a branched match began: the replay it was played on from, the
    turn whose start state it took, and that state's recorded hash."""
    file: str
    turn: int
    hash: Hash


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
    branched_from: BranchOrigin | None = None # a match played on from a replay's turn
                                              # (initial_state is that turn's state);
                                              # older files and fresh matches: none

    @model_validator(mode="before")
    @classmethod
    def _printable(cls, data: Any) -> Any:
        # every string of the header (names, the scenario's texts, settings)
        # may reach a terminal or the app: see sandbox.safetext
        check_strings(data)
        return data

    @model_validator(mode="after")
    def _consistent(self) -> "HeaderLine":
        # Cross-field checks: one message naming the field, raised as a
        # ValueError so the reader reports it like any other invalid header.
        n = self.num_agents
        if n < 1:
            raise ValueError(f"num_agents: {n}, a match has at least one agent")
        for name, values in (("names", self.names), ("initial_alive", self.initial_alive)):
            if len(values) != n:
                raise ValueError(f"{name}: {len(values)} entries, but num_agents is {n}")
        owner: dict[int, int] = {}
        seen: set[int] = set()
        for p in self.players:
            if p.player in seen:
                raise ValueError(f"players: player {p.player} is listed twice")
            seen.add(p.player)
            for a in p.agents:
                if not 0 <= a < n:
                    raise ValueError(f"players: player {p.player} has agent {a}, outside "
                                     f"0..{n - 1} (num_agents {n})")
                if a in owner:
                    raise ValueError(f"players: agent {a} belongs to player {owner[a]} and "
                                     f"to player {p.player}")
                owner[a] = p.player
        unowned = [a for a in range(n) if a not in owner]
        if unowned:
            raise ValueError(f"players: agent {unowned[0]} belongs to no player")
        return self

    def turn_problem(self, line: "TurnLine") -> str | None:
        """Why a turn line cannot belong to this match (None: it can)."""
        n = self.num_agents
        if len(line.joint) != n:
            return f"{len(line.joint)} moves for {n} agents"
        for name in ("alive", "scores", "rewards", "divergence"):
            if getattr(line, name) is None:
                continue
            k = len(getattr(line, name))
            if k != n:
                return f"{name}: {k} entries for {n} agents"
        if line.free is not None:
            if len(line.free.moves) != n:
                return f"free: {len(line.free.moves)} entries for {n} agents"
            for a, f in enumerate(line.free.moves):
                if f is not None and line.joint[a] is not None:
                    return f"free: agent {a} has a free move and table move {line.joint[a]}"
        for a in line.eliminated:
            if not 0 <= a < n:
                return f"eliminated: agent {a} outside 0..{n - 1}"
            if line.alive[a]:
                return f"eliminated: agent {a} is alive after the step"
        for a in line.forfeits:
            if not 0 <= a < n:
                return f"forfeits: agent {a} outside 0..{n - 1}"
        own = {p.player: set(p.agents) for p in self.players}
        seen: set[int] = set()
        for pt in line.players:
            if pt.player not in own:
                return f"players: player {pt.player} is not in the header"
            if pt.player in seen:
                return f"players: player {pt.player} appears twice"
            seen.add(pt.player)
            agents = [at.agent for at in pt.agents]
            stray = [a for a in agents if a not in own[pt.player]]
            if stray or len(set(agents)) != len(agents):
                return (f"players: player {pt.player} decides for agents {agents}; the "
                        f"header gives it {sorted(own[pt.player])}")
            if any(ch.player != pt.player for ch in pt.changes):
                return f"players: player {pt.player} holds another player's settings change"
            if pt.bot is not None and any(f.agent not in own[pt.player] for f in pt.bot.failures):
                return f"players: player {pt.player} records a failure of another player's agent"
        return None

    def result_problem(self, line: "ResultLine") -> str | None:
        """Why a result line cannot belong to this match (None: it can)."""
        n = self.num_agents
        for name in ("ranking", "names"):
            k = len(getattr(line, name))
            if k != n:
                return f"{name}: {k} entries for {n} agents"
        if line.winner is not None and not 0 <= line.winner < n:
            return f"winner: agent {line.winner} outside 0..{n - 1}"
        return None


# --------------------------------------------------------------------- turn
class RootMove(_Line):
    move: int                                 # -1: a pass node
    visits: int
    mean: float
    prob: float
    policy: float | None = None               # the policy's probability (Exp3/RM: the
                                              # average strategy); older files: none


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
    mover: list[int] | None = None            # whose move each row is, where it is not
                                              # the tree's agent (SUCT rows alternate);
                                              # none: -1 at the root, the agent below
    joint: list[list[int]] | None = None      # joint-action trees only: each agent's move
    prior: list[float] | None = None          # searches with priors only: each row's prior
                                              # (rows without one: 0, flag PRIOR clear);
                                              # older files: none

    @model_validator(mode="after")
    def _columns_agree(self) -> "TreeColumns":
        """A damaged file must not reach the tree views: every column has a
        value per row, parents come first, and bytes fit their C fields."""
        n = len(self.parent)
        for name in ("move", "visits", "mean", "prob", "flags", "mover", "joint", "prior"):
            col = getattr(self, name)
            if col is not None and len(col) != n:
                raise ValueError(f"tree: {name} has {len(col)} values for {n} rows")
        if n == 0 or self.parent[0] != -1:
            raise ValueError("tree: row 0 must be the root (parent -1)")
        if any(not 0 <= p < i for i, p in enumerate(self.parent) if i > 0):
            raise ValueError("tree: every parent must be an earlier row")
        if any(not 0 <= v <= 255 for v in self.move + self.flags):
            raise ValueError("tree: moves and flags are bytes (0..255)")
        if any(not 0 <= v < 2**31 for v in self.visits):
            raise ValueError("tree: visits out of range")
        if self.mover is not None and any(not -1 <= v <= 7 for v in self.mover):
            raise ValueError("tree: mover must be -1..7")
        if self.prior is not None and any(not 0.0 <= v <= 1.0 for v in self.prior):
            raise ValueError("tree: a prior is a probability (0..1)")
        if self.joint is not None and any(len(j) != 8 or any(not 0 <= v <= 255 for v in j)
                                          for j in self.joint):
            raise ValueError("tree: each joint row is 8 bytes")
        return self

    @staticmethod
    def _default_movers(parent, agent: int) -> list[int]:
        """One tree per agent (Smitsimax): the root is nobody's move, every
        other row the agent's. Recorded only where a tree differs."""
        return [-1 if p < 0 else agent for p in parent]

    @classmethod
    def from_snapshot(cls, snap: TreeSnapshot) -> "TreeColumns":
        rows = snap.rows
        parent = rows["parent"].tolist()
        mover = rows["agent"].tolist()
        return cls(
            parent=parent, move=rows["move"].tolist(),
            visits=rows["visits"].tolist(),
            mean=np.round(rows["mean"].astype(np.float64), 4).tolist(),
            prob=np.round(rows["prob"].astype(np.float64), 4).tolist(),
            flags=rows["flags"].tolist(), norm_min=round(float(snap.norm_min), 6),
            norm_max=round(float(snap.norm_max), 6), tree_nodes=int(snap.tree_nodes),
            mover=None if mover == cls._default_movers(parent, snap.agent) else mover,
            joint=rows["joint"].tolist() if bool((rows["joint"] != 255).any()) else None,
            prior=(np.round(rows["prior"].astype(np.float64), 5).tolist()
                   if bool((rows["flags"] & FLAG_PRIOR).any()) else None))

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
        rows["agent"] = (self.mover if self.mover is not None
                         else self._default_movers(self.parent, agent))
        rows["joint"] = self.joint if self.joint is not None else 255
        if self.prior is not None:
            rows["prior"] = self.prior
        else:   # an older file, or a tree without priors: no row claims one
            rows["flags"] &= np.uint8(0xFF ^ FLAG_PRIOR)
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
    move: int | None                          # what its player's controller decided (a
                                              # person may have played another: joint)
    nodes: int | None = None                  # nodes in the agent's tree (search players)
    root: list[RootMove] = []                 # root children when the player decided
    tree: TreeColumns | None = None           # with record_trees only
    chosen_by: Plain | None = None              # who chose the move played (joint[agent]):
                                              # search | random | person | default (a
                                              # person's agent left unsteered); older
                                              # files: none (see stats.chosen_by)


class SettingsChangeLine(_Line):
    player: int
    turn: int
    iteration: int                            # iterations into the turn when applied
    changes: dict[str, tuple[Any, Any]]       # field -> (old, new)

    @model_validator(mode="after")
    def _printable(self) -> "SettingsChangeLine":
        check_strings(self.changes, "changes")   # the app's change log prints them
        return self


class BotFailureLine(_Line):
    agent: int
    kind: Plain                               # timeout | exit | garbage | illegal | ...
    detail: Plain


class BotLine(_Line):
    """A process player's turn (docs/bots.md): how long its answer took,
    what failed (each failed agent played its default move), its debug
    object, as the protocol kept it."""
    latency_ms: float | None = Field(None, ge=0, allow_inf_nan=False)  # None: no usable reply
    failures: list[BotFailureLine] = []
    debug: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _printable(self) -> "BotLine":
        check_strings(self.debug or {}, "debug")
        return self


class PlayerTurnLine(_Line):
    player: int
    controller: Plain
    iterations: int
    sim_turns: int
    search_ms: float
    wall_ms: float
    stop_reason: Plain
    agents: list[AgentTurn]
    changes: list[SettingsChangeLine] = []
    bot: BotLine | None = None                # process players only; older files: none


FREE_VERSION = 1
FREE_KINDS = ("thrust", "boost", "shield")


class FreeMoveLine(_Line):
    """A free move as recorded (sandbox.native.FreeMove.to_json): steer to
    (x, y) with `thrust` (kind "thrust"), or a boost / shield toward it."""
    x: float
    y: float
    thrust: int | None = None
    kind: Literal["thrust", "boost", "shield"] = "thrust"

    @model_validator(mode="after")
    def _sane(self) -> "FreeMoveLine":
        import math
        for name in ("x", "y"):
            v = getattr(self, name)
            if not math.isfinite(v) or abs(v) > 1e9:
                raise ValueError(f"free move: {name} {v!r} is not a finite coordinate within 1e9")
        if self.kind == "thrust":
            if self.thrust is None or not 0 <= self.thrust <= 100_000:
                raise ValueError(f"free move: a thrust move needs a thrust >= 0 (got "
                                 f"{self.thrust!r})")
        elif self.thrust is not None:
            raise ValueError(f"free move: a {self.kind} has no thrust")
        return self

    def move(self):
        """The FreeMove to step the game with."""
        from ..native import FreeMove
        return FreeMove(self.x, self.y, self.thrust, self.kind)


class FreeMovesLine(_Line):
    """TurnLine.free: its own version (a later one is refused, not misread)
    and one entry per agent."""
    version: int
    moves: list[FreeMoveLine | None]

    @model_validator(mode="after")
    def _known(self) -> "FreeMovesLine":
        if self.version != FREE_VERSION:
            raise ValueError(f"free: version {self.version} is not {FREE_VERSION} (a newer "
                             f"sandbox wrote it)")
        return self


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
    # physics = "pymunk" pods races (not re-simulated): the state words after
    # the step, which verify() and playback import instead of stepping, and
    # per agent the world's distance from the C model's prediction of the
    # step; older files and C worlds: none
    state: list[int] | None = None
    divergence: list[float] | None = None
    # agents whose player forfeited in this turn (a process player's failure
    # with on_failure = "eliminate"): ranked below the others from here on
    # (sim.records.forfeit_ranking); older files: none
    forfeits: list[int] = []
    # free moves played this turn (see the module's notes); none: all table moves
    free: FreeMovesLine | None = None

    def played(self) -> list:
        """The joint action to step the game with: joint, with each agent's
        free move (a FreeMove) where it played one."""
        if self.free is None:
            return list(self.joint)
        return [f.move() if f is not None else m for m, f in zip(self.joint, self.free.moves)]

    def free_move(self, agent: int) -> "FreeMoveLine | None":
        return self.free.moves[agent] if self.free is not None else None

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
    names: list[Plain]


Line = Annotated[Union[HeaderLine, TurnLine, ResultLine], Field(discriminator="type")]
LINE_ADAPTER: TypeAdapter = TypeAdapter(Line)

__all__ = [
    "AgentTurn", "BotFailureLine", "BotLine", "BranchOrigin", "FREE_VERSION", "FreeMoveLine",
    "FreeMovesLine", "FORMAT_NAME", "FORMAT_VERSION", "HeaderLine", "LINE_ADAPTER", "Line",
    "PlayerHeader", "PlayerTurnLine", "ResultLine", "RootMove", "SUPPORTED_VERSIONS",
    "SettingsChangeLine", "TreeColumns", "TurnLine", "hash_hex",
]
