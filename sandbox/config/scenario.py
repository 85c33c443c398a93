"""Scenario files: what is played, by whom, with which search settings.

A scenario is a TOML file in scenarios/ validated by the models below
(unknown keys are errors). Errors become ScenarioError with one line naming
the field, e.g. `players.1.search.gamma: Input should be less than or equal
to 1 (got 1.5)`.
"""
from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..bots.adapters import REMOTE_PLAYERS, protocol_class
from ..games import plugin as game_plugin
from ..native import Game, SandboxError, Search, SearchParams, has_bot
from ..native.params import Float, Int
from ..safetext import unsafe_char
from ..seeds import player_seed as derived_player_seed
from ..settings.seat import weights_problem
from ..textfile import TextFileProblem, read_small_text
# DEFAULT_SCENARIO, SCENARIO_DIR, list_scenarios, MAX_*, budget_from_flags: also read from here
from ..names import DEFAULT_SCENARIO, SCENARIO_DIR, ScenarioError, find_scenario, list_scenarios
from .agent import resolve_agents
from .budget import MAX_ITERATIONS, MAX_MS, Budget, budget_from_flags
from .process import ProcessFields, resolve_net_path, resolve_process_paths
from .remote import url_problem
from .errors import one_line, parse_toml

# The largest scenario file read: a 16x16 matrix table with long names is a few
# KB; a bigger file is a mistake, and reading it whole would be the first cost.
MAX_SCENARIO_BYTES = 1 << 20
# Every search tree of a match may grow to its node cap: the worst case must
# fit in memory. Default budget: half the machine's memory, at most this.
MEMORY_BUDGET_CAP = 8 << 30


def _one_line(text: str) -> str:
    why = unsafe_char(text)
    if why:
        raise ValueError(f"must be one line of plain text: it has {why}")
    return text


def _text(text: str) -> str:
    why = unsafe_char(text, newlines=True)
    if why:
        raise ValueError(f"has {why}")
    return text


# a name shows in tables and on the one `result:` line
OneLine = Annotated[str, AfterValidator(_one_line)]


def setting_value(raw: str) -> Any:
    """The value of a command-line setting (`--set PATH=VALUE`, `replay
    research --set`, a `sweep --param` list item): a TOML value, or the bare
    text as a string. ValueError (one line) for a control character: after a
    newline TOML would read further keys and tables, which taking "v" alone
    would silently drop; and for nesting too deep to read."""
    why = unsafe_char(raw)
    if why:
        raise ValueError(f"the value has {why}")
    try:
        return tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return raw.strip()
    except (RecursionError, MemoryError):
        raise ValueError("the value is nested too deeply to read") from None


class RecordConfig(BaseModel):
    """Replay recording (sandbox.replay). On by default; the CLI's --no-record
    and --replay-dir override `enabled` and `dir`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = Field(True, description="write a replay of every match")
    dir: str = Field("replays", min_length=1, description="folder for replay files")
    record_trees: bool = Field(False, description="also store each agent's top-of-tree per turn")
    tree_nodes: Int = Field(200, ge=1, le=5000, description="nodes per stored tree")
    fsync_every: Int = Field(0, ge=0, le=1_000_000,
                             description="fsync every N turns (0: only when the match ends)")


# controllers that are a program elsewhere (sandbox.bots.adapters.REMOTE_PLAYERS):
# they need a game they play, and a url
REMOTE_CONTROLLERS = tuple(REMOTE_PLAYERS)
# in-process players a game plugin offers (GamePlugin.policies): yardsticks
POLICY_CONTROLLERS = ("equilibrium", "openspiel")


class PlayerConfig(ProcessFields):
    """One player. In a scenario file a player may also say `agent = "FILE"`:
    the agent file's settings (sandbox.config.agent) under the player's own
    keys, resolved before this model sees the player. A process player (a
    program of the user's, docs/bots.md) has the ProcessFields too."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: OneLine = Field("", max_length=40)
    agents: list[Int] | None = Field(None, description="agents this player moves (default: its index)")
    controller: Literal["smitsimax", "random", "human", "bot", "battlesnake", "process",
                        "equilibrium", "openspiel"] = Field(
        "smitsimax", description="bot: the game's own heuristic (games that have one: pods); "
                                 "battlesnake: a Battlesnake server at `url` (snakes); "
                                 "process: a program of yours (command = [...]); "
                                 "equilibrium, openspiel: outside yardsticks a game offers "
                                 "(goofspiel: an exact equilibrium, OpenSpiel's MCTS bot)")
    url: OneLine | None = Field(None, max_length=2000,
                                description="controller battlesnake: the server's address, "
                                            "http://host:port[/path]")
    timeout_ms: Float | None = Field(None, ge=1, le=60_000,
                                     description="controllers battlesnake and process: the "
                                                 "per-turn answer timeout (battlesnake: sent "
                                                 "as game.timeout, default 500; process: "
                                                 "default 100)")
    search: SearchParams = SearchParams()
    budget: Budget | None = Field(None, description="overrides the scenario budget")
    color: tuple[Int, Int, Int] | None = None
    seed: Int | None = Field(None, ge=0, lt=2**63)
    weights: dict[str, float] | None = Field(
        None, description="this player's own evaluation weights (the game's w_* parameters) "
                          "for its search; the world keeps the scenario's")

    @model_validator(mode="after")
    def _check_color(self) -> "PlayerConfig":
        if self.color is not None and any(not 0 <= c <= 255 for c in self.color):
            raise ValueError("color: each channel must be in 0..255")
        if self.controller in REMOTE_CONTROLLERS:
            if self.url is None:
                raise ValueError(f"url: controller {self.controller} needs the server's "
                                 "address, e.g. url = \"http://127.0.0.1:8000\"")
            why = url_problem(self.url)
            if why:
                raise ValueError(f"url: {why}")
        else:
            for k in ("url", "timeout_ms"):
                if k == "timeout_ms" and self.controller == "process":
                    continue          # a process player's per-turn time (docs/bots.md)
                if getattr(self, k) is not None:
                    also = " or a process player" if k == "timeout_ms" else ""
                    raise ValueError(f"{k}: only a remote player (controller "
                                     f"{' or '.join(REMOTE_CONTROLLERS)}){also} takes it")
        return self


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: OneLine = Field("unnamed scenario", max_length=80)
    description: Annotated[str, AfterValidator(_text)] = ""
    game: str = Field(description="game kind, e.g. one `python -m sandbox info` lists")
    game_params: dict[str, Any] = Field(default_factory=dict,
                                        description="checked by the game's own model and by C")
    seed: Int = Field(1, ge=0, lt=2**63)
    max_turns: Int = Field(0, ge=0, le=1_000_000, description="stop after this many turns (0: never)")
    budget: Budget = Budget()
    players: list[PlayerConfig] = Field(min_length=1, max_length=8)
    record: RecordConfig = RecordConfig()
    physics: Literal["csb", "pymunk"] = Field(
        "csb", description="csb: the C model is the world (replays re-simulate); pymunk "
        "(pods): a pymunk world moves the pods, the searches plan on the C model")
    memory_budget_mb: Int | None = Field(
        None, ge=1, le=1 << 24, description="memory all search trees of a match may take at "
        "most, in MiB (default: half the machine's memory, at most 8 GiB)")

    @model_validator(mode="after")
    def _check_against_game(self) -> "Scenario":
        try:
            plugin = game_plugin(self.game)
        except SandboxError as exc:
            raise ValueError(f"game: {exc}") from None
        try:
            params = plugin.Params.model_validate(self.game_params)
        except ValidationError as exc:
            raise ValueError(one_line(exc, prefix="game_params.")) from None
        # The C core owns the game parameter ranges: ask it too.
        try:
            with Game(self.game, params.c_params(), seed=0) as g:
                n = g.num_agents
                hidden = g.hidden_info
        except SandboxError as exc:
            msg = str(exc)  # the C message starts with the parameter's name
            key = msg.split(":", 1)[0]
            raise ValueError(f"game_params.{msg}" if key in self.game_params
                             else f"game_params: {msg}") from None
        if self.physics != "csb" and self.physics not in plugin.worlds:
            raise ValueError(f"physics: the game '{self.game}' has no world '{self.physics}' "
                             f"(it has: {', '.join(('csb', *plugin.worlds))})")
        owned: list[int] = []
        for i, p in enumerate(self.players):
            if p.controller == "bot" and not has_bot(self.game):
                raise ValueError(f"players.{i}.controller: the game '{self.game}' has no bot")
            if hidden and (p.controller in REMOTE_CONTROLLERS or (
                    p.controller == "process" and not plugin.seat_bot_views)):
                # a bot's messages would carry the whole state: only a game
                # whose seat_bot_view shows each seat its own may have them
                raise ValueError(f"players.{i}.controller: {p.controller} players cannot play "
                                 "this game: it hides information from each seat, and a bot's "
                                 "messages would show it every hand")
            problem = p.process_problem()
            if problem:
                raise ValueError(f"players.{i}.{problem}")
            if p.controller == "process" and p.protocol is not None:
                try:
                    cls = protocol_class(p.protocol, self.game)
                except ValueError as exc:
                    raise ValueError(f"players.{i}.{exc}") from None
                why = cls.setup_problem(plugin.params(self.game_params),
                                        tuple(p.agents if p.agents is not None else [i]))
                if why:
                    raise ValueError(f"players.{i}.protocol: {why}")
            if p.controller in POLICY_CONTROLLERS:
                why = plugin.policy_problem(p.controller, self.game_params)
                if why:
                    raise ValueError(f"players.{i}.controller: {why}")
            if p.controller in REMOTE_CONTROLLERS:
                remote = REMOTE_PLAYERS[p.controller]
                if self.game not in remote.games:
                    raise ValueError(f"players.{i}.controller: the game '{self.game}' has no "
                                     f"{p.controller} players (games with them: "
                                     f"{', '.join(remote.games)})")
                why = remote.setup_problem(params)
                if why:
                    raise ValueError(f"players.{i}.controller: {why}")
            if p.weights:
                why = weights_problem(self.game, self.game_params, p.weights,
                                      where=f"players.{i}.weights")
                if why:
                    raise ValueError(why)
            agents = p.agents if p.agents is not None else [i]
            for a in agents:
                if not 0 <= a < n:
                    raise ValueError(f"players.{i}.agents: agent {a} does not exist "
                                     f"(the game has {n})")
            owned += agents
        if sorted(owned) != list(range(n)):
            raise ValueError(f"players must move each of the game's {n} agents exactly "
                             f"once (they move {sorted(owned)})")
        self._check_memory(n)
        return self

    def _check_memory(self, num_agents: int) -> None:
        """A player's search keeps one tree per agent of the game, each up to
        node_cap nodes of node_bytes (C's figure): their sum over the search
        players must fit the memory budget, or a long match ends in the OOM
        killer instead of an error at load."""
        searching = [(i, p) for i, p in enumerate(self.players) if p.controller == "smitsimax"]
        if not searching:
            return
        node_bytes = _node_bytes(self.game)
        total = sum(p.search.node_cap for _, p in searching) * num_agents * node_bytes
        budget = (self.memory_budget_mb << 20 if self.memory_budget_mb is not None
                  else default_memory_budget())
        if total <= budget:
            return
        who = ", ".join(f"{i} {p.name}".rstrip() + f" (node_cap {p.search.node_cap:,})"
                        for i, p in searching)
        where = ("memory_budget_mb" if self.memory_budget_mb is not None
                 else "half the machine's memory, at most 8 GiB; set memory_budget_mb")
        raise ValueError(
            f"memory: the search trees may take {_size(total)} ({len(searching)} search "
            f"player{'s' if len(searching) != 1 else ''} x {num_agents} agent trees x node_cap "
            f"x {node_bytes} bytes; players {who}), over the budget of {_size(budget)} "
            f"({where}); lower players.N.search.node_cap")

    def game_param_string(self) -> str:
        """The C parameter string of this scenario's game (validated)."""
        return game_plugin(self.game).c_params(self.game_params)

    def player_param_string(self, i: int) -> str:
        """The C parameter string of player i's search's game: the scenario's
        game parameters with the player's own evaluation weights."""
        weights = self.players[i].weights or {}
        return game_plugin(self.game).c_params({**self.game_params, **weights})

    def player_agents(self, i: int) -> list[int]:
        p = self.players[i]
        return list(p.agents) if p.agents is not None else [i]

    def player_budget(self, i: int) -> Budget:
        return self.players[i].budget or self.budget

    def player_seed(self, i: int, match_seed: int) -> int:
        """The player's own `seed`, else one derived one-way from the match
        seed and the seat (sandbox.seeds.player_seed)."""
        p = self.players[i]
        return p.seed if p.seed is not None else derived_player_seed(match_seed, i)

    def with_overrides(self, **changes: Any) -> "Scenario":
        return scenario_from_dict({**self.model_dump(), **changes}, source="(overrides)")

    def with_settings(self, assignments: list[str]) -> "Scenario":
        """`["players.1.controller=random", "game_params.num_cards=5"]`: each
        dotted path set to a TOML value (a bare word is a string), then the
        whole scenario validated again; errors are one ScenarioError line."""
        data = self.model_dump(exclude_unset=True)
        for item in assignments:
            path, sep, raw = item.partition("=")
            keys = path.strip().split(".")
            if not sep or not all(k.strip() for k in keys):
                raise ScenarioError(f"--set {item!r}: expected PATH=VALUE, "
                                    "e.g. players.0.search.c=1.2")
            try:
                value = setting_value(raw)
            except ValueError as e:
                raise ScenarioError(f"--set {path.strip()}: {e}") from None
            node: Any = data
            for k in keys[:-1]:
                slot = _slot(node, k, path)
                node = node.setdefault(slot, {}) if isinstance(node, dict) else node[slot]
                if node is None:
                    raise ScenarioError(f"--set {path}: {k!r} is not set in this scenario")
            node[_slot(node, keys[-1], path)] = value
            if keys[0].strip() == "game_params" and len(keys) == 2 and isinstance(node, dict):
                _layout_replaces_generator(node, keys[1].strip(), self.game, value)
        return scenario_from_dict(data, source="--set")


def _layout_replaces_generator(game_params: dict[str, Any], key: str, game: str,
                               value: Any = None) -> None:
    """`--set game_params.maze_file=...` (any layout file the game names in
    GameParams.LAYOUT_FILES) on a scenario whose own layout is generated:
    the file the user names replaces the scenario's generator keys (in a
    file, both together are refused: nothing says which one is meant)."""
    try:
        drop = game_plugin(game).Params.layout_replaces(key, value)
    except SandboxError:
        return
    for k in drop:
        game_params.pop(k, None)


def _slot(node: Any, key: str, path: str) -> str | int:
    """Where `key` of a --set path lands in `node`: a dict key, or the index
    of an existing list item."""
    if isinstance(node, dict):
        return key
    if isinstance(node, list):
        if not (key.isdigit() and int(key) < len(node)):
            raise ScenarioError(f"--set {path}: no item {key!r} here")
        return int(key)
    raise ScenarioError(f"--set {path}: {key!r} is inside a value")


def default_memory_budget() -> int:
    """Half the machine's physical memory, at most MEMORY_BUDGET_CAP (8 GiB)
    where the machine does not say how much it has."""
    try:
        phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        phys = 0
    return min(phys // 2, MEMORY_BUDGET_CAP) if phys > 0 else MEMORY_BUDGET_CAP


@lru_cache(maxsize=None)
def _node_bytes(kind: str) -> int:
    """Bytes per tree node, from C (a fresh small search's stats)."""
    with Game(kind, None, seed=0) as g, Search(g, SearchParams(node_cap=1024)) as s:
        return s.stats().node_bytes


def _size(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def scenario_from_dict(data: dict[str, Any], source: str = "(scenario)",
                       base_dir: Path | None = None) -> Scenario:
    """`base_dir`: the scenario file's folder, where a player's relative
    `agent = "..."` path is looked up first (sandbox.config.agent)."""
    try:
        data = resolve_agents(data, base_dir)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None
    data = _layouts_beside(data, base_dir)
    if isinstance(data, dict) and isinstance(data.get("players"), list):
        data = {**data, "players": [resolve_net_path(resolve_process_paths(p, base_dir),
                                                     base_dir)
                                    for p in data["players"]]}
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{source}: {one_line(exc)}") from None


def _layouts_beside(data: dict[str, Any], base_dir: Path | None) -> dict[str, Any]:
    """The game's layout files (GameParams.LAYOUT_FILES) looked up beside the
    scenario file first, like a player's agent file, then from the current
    folder."""
    gp = data.get("game_params") if isinstance(data, dict) else None
    if base_dir is None or not isinstance(gp, dict):
        return data
    try:
        keys = game_plugin(data.get("game", "")).Params.LAYOUT_FILES
    except (SandboxError, TypeError):
        return data
    out = dict(gp)
    for key in keys:
        ref = gp.get(key)
        if isinstance(ref, str) and ref and not Path(ref).is_absolute():
            beside = base_dir / ref
            if beside.is_file():
                out[key] = str(beside)
    return {**data, "game_params": out} if out != gp else data


def load_scenario(name_or_path: str | Path | None = None) -> Scenario:
    path = find_scenario(name_or_path)
    if path.is_dir():
        raise ScenarioError(f"{path}: is a directory, not a scenario file")
    try:
        text = read_small_text(path, MAX_SCENARIO_BYTES)
    except TextFileProblem as exc:
        raise ScenarioError(f"{path.name}: {exc}: cannot be a scenario file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path.name}: not UTF-8 text (byte {exc.start}: "
                            f"{exc.object[exc.start:exc.start + 1]!r})") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return scenario_from_dict(parse_toml(text, path.name), source=path.name,
                              base_dir=path.resolve().parent)
