"""One game, one place: outside sandbox/games/, no module imports a
particular game's code or branches on a game's name. They reach games only
through the registry (sandbox.games.plugin). The default scenario's file
name (config.scenario.DEFAULT_SCENARIO) is the one allowed mention.

The protocol adapters are the other way round: a wire format belongs to one
game (Coders Strike Back's to pods, the Battlesnake API to snakes), so its
adapter in sandbox/bots/ knows that game and no other, and the game's own
package knows nothing of it (the import test keeps games below bots)."""
from __future__ import annotations

import ast
from pathlib import Path

from sandbox.games import kinds

ROOT = Path(__file__).resolve().parents[1] / "sandbox"
GAMES = ROOT / "games"
NAMES_GAMES = {ROOT / "labs" / "kinds.py"}   # the labs' one place (see above)
BOTS = ROOT / "bots"
# adapter -> the games it may know (a folder: every module in it)
ADAPTERS = {BOTS / "codingame.py": {"pods"}, BOTS / "battlesnake": {"snakes"},
            BOTS / "adapters.py": {"pods", "snakes"}}


def _adapter_games(path: Path) -> set[str]:
    for where, games in ADAPTERS.items():
        if path == where or where in path.parents:
            return games
    return set()


def violations(source: str, names: list[str], where: str = "<src>") -> list[str]:
    """Imports of sandbox.games.<name> (absolute or relative), `from
    ..games import <name>`, and string constants equal to a game's name."""
    out = []
    tree = ast.parse(source)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef,
                                    ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr)
                  and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = (node.module or "").split(".")
            if "games" in mod:
                rest = mod[mod.index("games") + 1:]
                if rest and rest[0] in names:
                    out.append(f"{where}:{node.lineno}: imports games.{'.'.join(rest)}")
                elif not rest:
                    out += [f"{where}:{node.lineno}: imports games.{a.name}"
                            for a in node.names if a.name in names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if "games" in parts and parts.index("games") + 1 < len(parts) \
                        and parts[parts.index("games") + 1] in names:
                    out.append(f"{where}:{node.lineno}: imports {a.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings and node.value in names:
            out.append(f"{where}:{node.lineno}: names the game {node.value!r}")
    return out


def test_no_module_outside_games_knows_a_game():
    names = kinds()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if GAMES in path.parents or path in NAMES_GAMES:
            continue
        known = _adapter_games(path)
        found += violations(path.read_text(encoding="utf-8"),
                            [n for n in names if n not in known],
                            str(path.relative_to(ROOT.parent)))
    assert not found, "\n".join(found)


def test_games_know_no_protocol_adapter():
    """No module of sandbox/games/ imports sandbox.bots (the adapters
    translate a game's view; the game never asks for them)."""
    found = []
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and "bots" in (node.module or "").split("."):
                found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
            elif isinstance(node, ast.Import) and any(
                    "bots" in a.name.split(".") for a in node.names):
                found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    assert not found, "games importing sandbox.bots: " + ", ".join(found)


def test_the_check_catches_each_kind_of_leak():
    """The scan above would fail on each of these (it is not vacuous)."""
    names = ["snakes", "goofspiel"]
    leaks = [
        "from ..games.snakes import MOVE_NAMES",
        "from sandbox.games.goofspiel.view import decode",
        "from ..games import snakes",
        "import sandbox.games.snakes.render",
        "if kind == 'snakes':\n    pass",
        "game: Literal['goofspiel'] = 'goofspiel'",
    ]
    for src in leaks:
        assert violations(src, names), src
    fine = ['"""Docstring that says snakes."""\nx = 1',
            "from ..games import plugin, move_names",
            "DEFAULT_SCENARIO = 'snakes_standard_4p'",
            "from ..render.grid import board_geometry"]
    for src in fine:
        assert not violations(src, names), src
