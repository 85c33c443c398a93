"""Agent files: one player's settings as a TOML file of their own.

The arena's "Save agent" (key A) writes the chosen player's settings in force
(after any live change) to agents/<name>-<date>-<time>.toml; a scenario's
player takes them with `agent = "agents/that.toml"`, its own keys on top:

    format = 1                      # this layout; the only one so far
    description = "saved from ..."  # free text, not used
    name = "P0"
    color = [230, 80, 80]
    controller = "smitsimax"        # smitsimax | random | human | bot | battlesnake | process
                                    # | equilibrium | openspiel (a game's yardsticks)
    url = "http://127.0.0.1:8000"   # battlesnake only: the snake server to call
    timeout_ms = 500                # battlesnake and process: the per-turn answer timeout
    command = ["./bot.py"]          # process only, with cwd, env, first_turn_ms, ...
                                    # (docs/bots.md)
    [search]                        # every SearchParams knob (players.N.search)
    c = 0.7
    ...
    [budget]                        # as a player's budget table
    ms = 50.0
    [weights]                       # its own evaluation weights (the game's w_*)
    w_heading = 40.0

Every key is optional; unknown keys and bad values are errors naming the file
and the field, e.g. `players.0.agent: agents/a.toml: search.c: Input should
be less than or equal to 10 (got 50)`.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..native import SearchParams
from ..textfile import TextFileProblem, read_small_text
from ..native.params import Float, Int
from ..names import ScenarioError, slug
from .budget import Budget
from .errors import one_line, parse_toml
from .process import PROCESS_KEYS, ProcessFields, resolve_net_path, resolve_process_paths

AGENT_FORMAT = 1
AGENT_DIR = Path("agents")
MAX_AGENT_BYTES = 64 << 10   # a full agent is under 2 KB; more is not an agent file
# The player keys an agent file may hold (a player's own place in the match,
# its agents and seed, are the scenario's, not the agent's).
AGENT_KEYS = ("name", "color", "controller", "search", "budget", "weights", "url",
              *PROCESS_KEYS)


class AgentFile(ProcessFields):
    """What an agent file may say; checked before it is merged into a
    player, so an error names the agent file's own field."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1] = Field(AGENT_FORMAT, description="agent file layout version")
    description: str = Field("", max_length=400)
    name: str | None = Field(None, max_length=40)
    color: tuple[Int, Int, Int] | None = None
    controller: Literal["smitsimax", "random", "human", "bot", "battlesnake", "process",
                        "equilibrium", "openspiel"] | None = None
    url: str | None = Field(None, max_length=2000)   # controller battlesnake: its server
    timeout_ms: Float | None = Field(None, ge=1, le=60_000)
    # Checked as whole tables here; the merged player is checked again.
    search: dict[str, Any] | None = None
    budget: dict[str, Any] | None = None
    weights: dict[str, Any] | None = None     # the player's evaluation weights (w_*)

    @model_validator(mode="after")
    def _check_color(self) -> "AgentFile":
        if self.color is not None and any(not 0 <= c <= 255 for c in self.color):
            raise ValueError("color: each channel must be in 0..255")
        return self


def resolve_agent_file(ref: Any, where: str, base_dir: Path | None) -> Path:
    """The file `agent = ref` names: an absolute path as it is; a relative
    one beside the scenario file first, else from the current folder (where
    the arena saves agents/)."""
    if not isinstance(ref, str) or not ref.strip():
        raise ScenarioError(f"{where}: expected the path of an agent file (a string), "
                            f"got {ref!r}")
    p = Path(ref)
    tries = [p] if p.is_absolute() else (
        [base_dir / p] if base_dir is not None else []) + [Path.cwd() / p]
    for t in tries:
        if t.is_file():
            return t
        if t.is_dir():
            raise ScenarioError(f"{where}: {ref} is a directory, not an agent file")
        if t.exists():   # a FIFO, a device: never read
            raise ScenarioError(f"{where}: {ref} is not a regular file, not an agent file")
    looked = " and ".join(os.path.normpath(t.parent) for t in tries)
    raise ScenarioError(f"{where}: agent file {ref} not found (looked in {looked})")


def read_agent_file(path: Path, where: str, shown: str | None = None) -> dict[str, Any]:
    """The agent file's keys (validated as an AgentFile), `format` and
    `description` left out. Errors name the file as `shown` (the scenario's
    own spelling of it) and the field."""
    label = f"{where}: {shown or path}"
    try:
        text = read_small_text(path, MAX_AGENT_BYTES)
    except TextFileProblem as exc:
        raise ScenarioError(f"{label}: {exc}: cannot be an agent file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ScenarioError(f"{label}: cannot read: {exc.strerror or exc}") from None
    data = parse_toml(text, label)
    try:
        AgentFile.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{label}: {one_line(exc)}") from None
    # the search knobs are checked on their own too, so the message names the
    # agent file rather than the player the merge lands in
    try:
        SearchParams.model_validate(data.get("search") or {})
    except ValidationError as exc:
        raise ScenarioError(f"{label}: {one_line(exc, prefix='search.')}") from None
    if data.get("budget") is not None:
        try:
            Budget.model_validate(data["budget"])
        except ValidationError as exc:
            raise ScenarioError(f"{label}: {one_line(exc, prefix='budget.')}") from None
    # a process agent's program and folder are looked up beside the agent file
    data = resolve_process_paths(data, path.resolve().parent)
    data = resolve_net_path(data, path.resolve().parent)
    return {k: v for k, v in data.items() if k in AGENT_KEYS}


def merge_agent(player: dict[str, Any], agent: dict[str, Any]) -> dict[str, Any]:
    """The player's keys over the agent file's; the search, budget and
    weights tables merged key by key (a player may set only `search.c` and keep the rest)."""
    out = {**agent, **{k: v for k, v in player.items() if k != "agent"}}
    for table in ("search", "budget", "weights"):
        if isinstance(agent.get(table), dict) and isinstance(player.get(table), dict):
            out[table] = {**agent[table], **player[table]}
    return out


def resolve_agents(data: Any, base_dir: Path | None) -> Any:
    """A scenario's dict with every `players.N.agent` replaced by the file's
    settings (the player's own keys on top); anything not shaped like a
    scenario is left for validation to name."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return data
    players = []
    for i, p in enumerate(data["players"]):
        if isinstance(p, dict) and "agent" in p:
            where = f"players.{i}.agent"
            path = resolve_agent_file(p["agent"], where, base_dir)
            p = merge_agent(p, read_agent_file(path, where, p["agent"]))
        players.append(p)
    return {**data, "players": players}


# ------------------------------------------------------------------ writing
def agent_dict(controller: str, name: str, color: tuple[int, int, int] | None,
               search: SearchParams | None, budget: Any | None,
               description: str = "", weights: dict[str, float] | None = None
               ) -> dict[str, Any]:
    out: dict[str, Any] = {"format": AGENT_FORMAT}
    if description:
        out["description"] = description
    out["name"] = name
    if color is not None:
        out["color"] = [int(c) for c in color]
    out["controller"] = controller
    if search is not None:
        out["search"] = search.model_dump()
    if budget is not None:
        out["budget"] = budget.model_dump()
    if weights:
        out["weights"] = {k: float(v) for k, v in weights.items()}
    return out


def agent_toml(data: dict[str, Any]) -> str:
    """TOML text of an agent dict (scalars, one array, two tables: all an
    agent holds; the standard library reads TOML but does not write it)."""
    lines = ["# A sandbox agent: a player's settings. Use it in a scenario with",
             '#   [[players]]  agent = "agents/<this file>"',
             "# (the player's own keys override these). See README, Compare agents."]
    tables = []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            lines.append(f"{k} = {_value(v)}")
    for k, table in tables:
        lines += ["", f"[{k}]"] + [f"{kk} = {_value(vv)}" for kk, vv in table.items()]
    return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)         # shortest text that reads back as the same float
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"agent file: cannot write {type(v).__name__} {v!r}")


def save_agent(data: dict[str, Any], directory: str | os.PathLike = AGENT_DIR,
               stem: str = "agent") -> Path:
    """Write the agent to directory/<stem>-<date>-<time>[-n].toml, whole or
    not at all: a temp file renamed into place (a reader never sees half a
    file), the name claimed first so two saves in a second do not collide.
    OSError is the caller's to report."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    base = f"{slug(stem) or 'agent'}-{time.strftime('%Y%m%d-%H%M%S')}"
    text = agent_toml(data).encode("utf-8")
    for n in range(1, 1000):
        path = d / (f"{base}.toml" if n == 1 else f"{base}-{n}.toml")
        try:   # claim the name: O_EXCL fails if another save took it
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            for p in (tmp, path):
                try:
                    p.unlink()
                except OSError:
                    pass
            raise
        return path
    raise FileExistsError(f"{d}: too many agent files named {base}")
