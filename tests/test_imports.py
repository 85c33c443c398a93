"""The package's modules import one another without a circle.

Every module under sandbox/ is parsed with `ast`; every import in it counts, at module level
and inside functions alike (a function-level import hides a circle from Python's loader but
still ties the two modules: neither can be read, tested or moved without the other). The
graph's nodes are modules; `import sandbox.a.b` and `from sandbox.a import b` tie the importer
to sandbox.a.b (when it is a module), `from sandbox.a import name` to the module that
defines `name`: sandbox.a itself, or, when sandbox.a's __init__ re-exports it from one of its
parts (`from .b import name`), that part.

Importing sandbox.a.b runs sandbox/a/__init__.py first, so the importer depends on every
package above its target too, except the packages above the importer itself (Python has
run those before the importer's first line). A package's __init__ that imports its parts
therefore makes a circle as soon as anything those parts reach imports the package back, by
name or through another of its modules: that is the circle this test exists to find (a
partly run __init__ is what raises "cannot import name ... (most likely due to a circular
import)"). A compiled extension module (the cffi core) imports nothing of ours and is not a
node. Imports under `if TYPE_CHECKING:` are not counted: they name types for the
annotations and load nothing. The test fails on any strongly connected group of more than
one module and names a circle in it.
"""

from __future__ import annotations

import ast
import importlib.machinery
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "sandbox"


def module_names() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _resolve(importer: str, is_pkg: bool, level: int, module: str | None) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_pkg:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _parse(path: Path) -> ast.Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    # Drop `if TYPE_CHECKING:` blocks (annotations only).
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, [
                    child for child in block
                    if not (isinstance(child, ast.If)
                            and "TYPE_CHECKING" in ast.unparse(child.test))
                ])
    return tree


def _reexports(package: str, modules: dict[str, Path]) -> dict[str, str]:
    """name -> the part of `package` its __init__ takes it from (`from .part import name`)."""
    path = modules[package]
    if path.name != "__init__.py":
        return {}
    out: dict[str, str] = {}
    for node in _parse(path).body:
        if isinstance(node, ast.ImportFrom):
            base = _resolve(package, True, node.level, node.module)
            if base.startswith(package + ".") and base in modules:
                for alias in node.names:
                    out[alias.asname or alias.name] = base
    return out


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    is_pkg = path.name == "__init__.py"
    tree = _parse(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_pkg, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    targets.append(sub)
                    continue
                # Follow re-exports down to the part that defines the name.
                seen = set()
                while base in modules and base not in seen:
                    seen.add(base)
                    part = _reexports(base, modules).get(alias.name)
                    if part is None or part == name:
                        break
                    base = part
                targets.append(base)
        for target in targets:
            extension = _is_extension(target, modules)
            # The closest module that exists (import a.b.c of a package a.b: the package).
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if not target:
                continue
            if target != name and not extension:
                found.add(target)
            # The packages above the target run first, unless they are above the
            # importer itself (already run before it); an extension's package is
            # one of them.
            above = target if extension else target.rpartition(".")[0]
            while above:
                if not (name == above or name.startswith(above + ".")):
                    found.add(above)
                above = above.rpartition(".")[0]
    return found


def _is_extension(target: str, modules: dict[str, Path]) -> bool:
    """Whether `target` is a compiled extension module beside a package's sources."""
    package, _, leaf = target.rpartition(".")
    path = modules.get(package)
    if not leaf or path is None or path.name != "__init__.py":
        return False
    return any((path.parent / (leaf + suffix)).exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively; groups of more than one node, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return sorted(groups)


def one_cycle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A shortest circle through the group's first module, for the message."""
    members = set(group)
    start = group[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    return paths[node] + [start]
                if child not in paths:
                    paths[child] = paths[node] + [child]
                    nxt.append(child)
        frontier = nxt
    return group


def test_the_checker_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert one_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_the_checker_counts_function_level_imports(tmp_path):
    modules = {"sandbox.x": tmp_path / "x.py", "sandbox.y": tmp_path / "y.py"}
    (tmp_path / "x.py").write_text("def f():\n    from sandbox import y\n", encoding="utf-8")
    (tmp_path / "y.py").write_text("from . import x\n", encoding="utf-8")
    assert imports_of("sandbox.x", modules["sandbox.x"], modules) == {"sandbox.y"}
    assert imports_of("sandbox.y", modules["sandbox.y"], modules) == {"sandbox.x"}


def _graph_of(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    """The import graph of a made-up package: {"pkg/__init__.py": source, ...}."""
    modules: dict[str, Path] = {}
    for rel, source in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        if path.suffix == ".py":
            parts = list(Path(rel).with_suffix("").parts)
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_a_package_that_imports_its_parts_is_a_circle_when_a_part_imports_it_back(tmp_path):
    """The registry shape: pkg/__init__ imports its plugins, and something a
    plugin reaches asks the registry (by name, or through another module of
    pkg, which runs pkg/__init__ first)."""
    by_name = _graph_of(tmp_path / "a", {
        "pkg/__init__.py": "from .plugin import P\ndef plugin(): return P\n",
        "pkg/plugin.py": "from adapter import X\nP = 1\n",
        "adapter.py": "from pkg import plugin\nX = 1\n",
    })
    assert strongly_connected(by_name) == [["adapter", "pkg", "pkg.plugin"]]
    through_a_part = _graph_of(tmp_path / "b", {
        "pkg/__init__.py": "from .plugin import P\n",
        "pkg/base.py": "B = 1\n",
        "pkg/plugin.py": "from adapter import X\nP = 1\n",
        "adapter.py": "from pkg.base import B\nX = 1\n",
    })
    assert strongly_connected(through_a_part) == [["adapter", "pkg", "pkg.plugin"]]


def test_a_package_may_import_parts_that_import_one_another(tmp_path):
    """Parts of a package run after its __init__ started: a part importing a
    sibling (or a module outside that imports nothing of the package) is no
    circle, and a compiled extension beside the sources is no module."""
    graph = _graph_of(tmp_path, {
        "pkg/__init__.py": "from .a import A\nfrom .b import B\n",
        "pkg/a.py": "from pkg.b import B\nfrom ._ext import lib\nimport other\nA = 1\n",
        "pkg/b.py": "B = 1\n",
        "pkg/_ext.abi3.so": "",
        "other.py": "Y = 1\n",
    })
    assert strongly_connected(graph) == []
    assert graph["pkg.a"] == {"pkg.b", "other"}


def test_no_import_circles():
    graph = import_graph()
    assert len(graph) > 50  # the walk found the package
    groups = strongly_connected(graph)
    message = "\n".join(
        f"  {' -> '.join(one_cycle(graph, g))}   (group: {', '.join(g)})" for g in groups
    )
    assert not groups, f"import circles between modules of {PACKAGE}/:\n{message}"


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _in(modules: set[str], *rooms: str) -> list[str]:
    return sorted(m for m in modules if any(m == r or m.startswith(r + ".") for r in rooms))


def test_the_walk_from_a_scenario_to_a_search_goes_down():
    """The rooms between a scenario file and a running search, lowest
    first: games (the registry and its plugins), settings (a player's
    settings as a search receives them), config (scenarios), the sim's
    controllers. Each reaches only the rooms below it, so a setting never
    travels up and back down on its way to C."""
    graph = import_graph()
    above_games = ("sandbox.settings", "sandbox.config", "sandbox.sim", "sandbox.bots",
                   "sandbox.replay", "sandbox.tournament", "sandbox.app", "sandbox.cli")
    assert not _in(_reach(graph, "sandbox.games"), *above_games)
    assert not _in(_reach(graph, "sandbox.settings"), *above_games[1:])
    config = _reach(graph, "sandbox.config")
    assert not _in(config, "sandbox.sim", "sandbox.replay", "sandbox.tournament", "sandbox.app",
                   "sandbox.cli")
    # of sandbox.bots, only the wire formats' table (adapters.py) and what it reads
    wire = _reach(graph, "sandbox.bots.adapters") | {"sandbox.bots", "sandbox.bots.adapters"}
    assert set(_in(config, "sandbox.bots")) <= wire
    # the controllers sit below sandbox.bots' players (outside players are
    # controllers too) and the match that makes them
    controller = _reach(graph, "sandbox.sim.controller")
    assert not _in(controller, "sandbox.sim.match") and set(_in(controller, "sandbox.bots")) <= wire
    assert "sandbox.settings.seat" in controller
