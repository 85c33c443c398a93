"""Names of things, below both the configuration and the replays: a scenario's name -> its
file (scenarios/<name>.toml), and the slug a name becomes in a file name."""
from __future__ import annotations

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
    known = ", ".join(s.stem for s in list_scenarios()) or "none"
    raise ScenarioError(f"scenario '{name_or_path}' not found (known: {known})")


def list_scenarios() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.toml"))


def slug(text: str, limit: int = 40) -> str:
    """'Four snakes, standard rules' -> 'four-snakes-standard-rules'."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-") or "match"
