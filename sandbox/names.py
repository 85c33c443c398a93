"""Names of things, below both the configuration and the replays: a scenario's name -> its
file (scenarios/<name>.toml), and the slug a name becomes in a file name."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from .native.errors import SandboxError

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_DIR = ROOT / "scenarios"
DEFAULT_SCENARIO = "snakes_standard_4p"


class ScenarioError(SandboxError, ValueError):
    """A scenario file that cannot be read or does not validate."""


def find_scenario(name_or_path: str | Path | None) -> Path:
    """A path, or a scenario name looked up in scenarios/ (".toml" optional)."""
    if name_or_path is None:
        name_or_path = DEFAULT_SCENARIO
    p = Path(name_or_path)
    if p.suffix == ".toml" and p.exists():
        return p
    candidate = SCENARIO_DIR / (p.name if p.suffix == ".toml" else f"{p.name}.toml")
    if candidate.exists():
        return candidate
    if p.suffix == ".toml" or len(p.parts) > 1:
        # a file the user wrote, not a bundled name: say the file is missing
        raise ScenarioError(f"{name_or_path}: no such scenario file")
    names = [s.stem for s in list_scenarios()]
    close = difflib.get_close_matches(p.name, names, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    known = ", ".join(names) or "none"
    raise ScenarioError(f"scenario '{name_or_path}' not found ({hint}known: {known})")


def list_scenarios() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.toml"))


def slug(text: str, limit: int = 40) -> str:
    """'Four snakes, standard rules' -> 'four-snakes-standard-rules'."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-") or "match"


def short_name(name: str) -> str:
    """A player's name without a trailing note in brackets: 'Red (Smitsimax)'
    -> 'Red' (tabs and rows are narrow; the note is the algorithm, shown
    beside them anyway)."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", name).strip() or name


def agent_labels(names: list[str] | tuple[str, ...]) -> list[str]:
    """One label per agent from its player's name (`names[a]`): a player
    with one agent keeps its name; the agents of a player with several get
    its short name and their agent number ('Red #0' ... 'Blue #7'), the
    number the tree panels' 'Agent N' uses. Four rows of 'Red (S…' could not
    be told apart."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [f"{short_name(n)} #{a}" if counts[n] > 1 else n for a, n in enumerate(names)]


def player_labels(names: list[str] | tuple[str, ...]) -> list[str]:
    """Each player's short name where the short names stay distinct, else
    the full names."""
    short = [short_name(n) for n in names]
    return short if len(set(short)) == len(short) else list(names)


def agent_phrase(names: list[str] | tuple[str, ...], agent: int) -> str:
    """How a message names an agent a person drives: 'Red #1', or 'your
    agent 1' where the player is called You ('you drive You's agent 1'
    read as if someone else's)."""
    n = names[agent]
    if short_name(n).lower() in ("you", "me"):
        return f"your agent {agent}"
    return agent_labels(names)[agent] if list(names).count(n) > 1 else f"{n}'s agent {agent}"
