"""The settings of a player whose moves come from a program of the user's
(`controller = "process"`, docs/bots.md), shared by scenario players and
agent files, and where their relative paths are looked up."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from ..native.params import Float, Int
from ..safetext import unsafe_char

PROCESS_KEYS = ("command", "cwd", "env", "timeout_ms", "first_turn_ms", "on_failure",
                "memory_mb", "cpu_s", "protocol")
DEFAULT_TIMEOUT_MS = 100.0
DEFAULT_FIRST_TURN_MS = 2000.0


def _no_nul(text: str, what: str) -> str:
    if "\x00" in text:
        raise ValueError(f"{what} has a NUL character")
    return text


class ProcessFields(BaseModel):
    """Fields a player may set with controller = "process" (and only then)."""

    command: list[str] | None = Field(
        None, min_length=1, max_length=256,
        description="the bot's program and arguments (no shell); a relative program path "
                    "is looked up beside the scenario or agent file")
    cwd: str | None = Field(None, min_length=1,
                            description="the bot's working folder (default: the file's folder)")
    env: dict[str, str] | None = Field(None, description="added to the bot's environment")
    timeout_ms: Float | None = Field(None, ge=1, le=60_000,
                                     description="per turn (default 100)")
    first_turn_ms: Float | None = Field(None, gt=0, le=600_000,
                                        description="the first turn, start-up included "
                                                    "(default 2000)")
    on_failure: Literal["default", "eliminate"] | None = Field(
        None, description="a failed turn plays the game's default move, or forfeits")
    memory_mb: Int | None = Field(None, ge=16, le=1 << 22, description="RLIMIT_AS, MiB")
    cpu_s: Int | None = Field(None, ge=1, le=1 << 20, description="RLIMIT_CPU, seconds")
    protocol: str | None = Field(None, min_length=1, max_length=40,
                                 description='"jsonl" (default) or one of the game\'s own')

    @field_validator("command")
    @classmethod
    def _command(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        if not v[0].strip():
            raise ValueError("the program (its first item) is empty")
        for x in v:
            _no_nul(x, "an item")
        return v

    @field_validator("env")
    @classmethod
    def _env(cls, v: dict[str, str] | None) -> dict[str, str] | None:
        for k, x in (v or {}).items():
            if not k or "=" in k or unsafe_char(k) or k.strip() != k:
                raise ValueError(f"{k!r} is not an environment variable name")
            _no_nul(x, f"the value of {k}")
        return v

    def process_problem(self) -> str:
        """Why these process settings cannot start a bot ("" if they can),
        or why a non-process player has them."""
        # timeout_ms is also a remote player's (a Battlesnake server's): the
        # scenario's own checks say who may have it
        set_keys = [k for k in PROCESS_KEYS if k != "timeout_ms" and getattr(self, k) is not None]
        if getattr(self, "controller", None) != "process":
            if set_keys:
                return (f"{set_keys[0]}: only a player with controller = \"process\" takes "
                        f"it")
            return ""
        if self.command is None:
            return "command: a process player needs command = [program, args...]"
        prog = self.command[0]
        name = _short(prog)           # the message stays one readable line
        cwd = Path(self.cwd) if self.cwd else Path.cwd()
        try:
            if self.cwd and not cwd.is_dir():
                return f"cwd: {_short(self.cwd)} is not a folder"
            if os.sep in prog:
                p = Path(prog) if Path(prog).is_absolute() else cwd / prog
                if not p.is_file():
                    return f"command: program {name} not found"
                if not os.access(p, os.X_OK):
                    return f"command: program {name} is not executable"
            elif shutil.which(prog) is None:
                return f"command: program {name} not found on PATH"
        except (OSError, ValueError) as exc:     # a name too long for the system
            return f"command: program {name} cannot be looked up ({exc.__class__.__name__})"
        return ""


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def resolve_process_paths(player: Any, base_dir: Path | None) -> Any:
    """A player dict with a relative program path (one with a folder in it:
    a bare name is looked up on PATH) and a relative cwd made absolute from
    `base_dir` (the scenario or agent file's folder), and cwd defaulting to
    that folder. Anything not shaped like a process player is left alone."""
    if base_dir is None or not isinstance(player, dict) or player.get("controller") != "process":
        return player
    out = dict(player)
    cmd = out.get("command")
    if isinstance(cmd, list) and cmd and isinstance(cmd[0], str) and os.sep in cmd[0] \
            and not Path(cmd[0]).is_absolute():
        out["command"] = [os.path.normpath(base_dir.resolve() / cmd[0]), *cmd[1:]]
    cwd = out.get("cwd")
    if cwd is None:
        out["cwd"] = str(base_dir.resolve())
    elif isinstance(cwd, str) and cwd and not Path(cwd).is_absolute():
        out["cwd"] = os.path.normpath(base_dir.resolve() / cwd)
    return out


def resolve_net_path(player: Any, base_dir: Path | None) -> Any:
    """A player dict whose `search.value_net` names a file beside the
    scenario or agent file (`base_dir`) gets that file's absolute path, so
    the file plays the same from any working folder; a name not found there
    is left as written (looked up from the current folder, then refused
    when the search loads it)."""
    if base_dir is None or not isinstance(player, dict):
        return player
    search = player.get("search")
    ref = search.get("value_net") if isinstance(search, dict) else None
    if not isinstance(ref, str) or not ref or Path(ref).is_absolute():
        return player
    try:
        beside = base_dir.resolve() / ref
        found = beside.is_file()
    except (OSError, ValueError):        # a name the system cannot look up
        return player
    if not found:
        return player
    return {**player, "search": {**search, "value_net": os.path.normpath(beside)}}
