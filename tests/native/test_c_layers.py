"""The C core's files depend on one another without a circle, and downwards only.

A component is a file of native/src with the header of the same name beside it (`games/emit.c`
and `games/emit.h` are one; a header alone, such as the algorithms' contract `search/search.h`,
is one by itself). Component A depends on B when a file of A includes a header of B, or when
A's object file uses a symbol (a function or a table: a vtable counts) that B's object file
defines, as `nm` reads them from each file compiled on its own. The test fails on any strongly
connected group of more than one component, naming a circle and why each step of it is there,
and on a dependency that climbs a layer: core below games below net below search.

So a registry lists what sits below it and nothing below calls back up: games/registry.c
names the game vtables and each game depends only on the contract (game.h, emit.h) and core;
search/algos.c names the algorithms and each algorithm depends only on search.h, search.c's
helpers and the games' contract.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "native" / "src"
INCLUDE = ROOT / "native" / "include"
# net: the networks read the games' features; the searches evaluate networks
LAYERS = {"core": 0, "games": 1, "net": 2, "search": 3}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

pytestmark = pytest.mark.skipif(not (shutil.which("cc") and shutil.which("nm")),
                                reason="needs a C compiler (cc) and nm to read the objects")


def component(path: Path) -> str:
    """`games/emit` for native/src/games/emit.c and emit.h."""
    return path.relative_to(SRC).with_suffix("").as_posix()


def include_edges() -> dict[str, dict[str, set[str]]]:
    edges: dict[str, dict[str, set[str]]] = {}
    for path in sorted(SRC.rglob("*.[ch]")):
        a = component(path)
        edges.setdefault(a, {})
        for name in INCLUDE_RE.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / name).resolve()
            if not target.is_relative_to(SRC) or not target.exists():
                continue   # sbx.h, the public header (-I native/include), is below everything
            b = component(target)
            if b != a:
                edges[a].setdefault(b, set()).add(f"{path.name} includes {name}")
    return edges


def object_symbols(tmp: Path) -> dict[str, tuple[set[str], set[str]]]:
    """component -> (symbols its object defines, symbols it uses), each .c compiled alone."""
    sources = sorted(SRC.rglob("*.c"))

    def one(src: Path) -> tuple[str, set[str], set[str]]:
        obj = tmp / (component(src).replace("/", "__") + ".o")
        subprocess.run(["cc", "-std=c11", "-O0", "-w", "-D_POSIX_C_SOURCE=200809L",
                        f"-I{INCLUDE}", "-c", str(src), "-o", str(obj)],
                       check=True, capture_output=True, text=True)
        out = subprocess.run(["nm", "-P", str(obj)], check=True, capture_output=True,
                             text=True).stdout
        defined, used = set(), set()
        for line in out.splitlines():
            fields = line.split()
            if len(fields) < 2:
                continue
            name, kind = fields[0], fields[1]
            if kind == "U":
                used.add(name)
            elif kind in "TDRBCV":   # global text, data, read-only data, bss, common
                defined.add(name)
        return component(src), defined, used

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return {c: (d, u) for c, d, u in pool.map(one, sources)}


def dependency_graph(tmp: Path) -> dict[str, dict[str, set[str]]]:
    edges = include_edges()
    symbols = object_symbols(tmp)
    owner = {name: c for c, (defined, _) in symbols.items() for name in defined}
    for a, (_, used) in symbols.items():
        for name in used:
            b = owner.get(name)
            if b is not None and b != a:
                edges.setdefault(a, {}).setdefault(b, set()).add(f"uses {name}")
    return edges


def reachable(edges: dict[str, dict[str, set[str]]], start: str) -> set[str]:
    """Every component reached from start by one step or more."""
    seen: set[str] = set()
    todo = list(edges.get(start, {}))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, {}))
    return seen


def strongly_connected(edges: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The groups of more than one component that reach one another (a few dozen
    components: reachability from each is cheap)."""
    reach = {node: reachable(edges, node) for node in edges}
    groups: list[list[str]] = []
    placed: set[str] = set()
    for node in sorted(edges):
        if node in placed:
            continue
        group = sorted({node} | {m for m in reach[node] if node in reach.get(m, ())})
        placed.update(group)
        if len(group) > 1:
            groups.append(group)
    return groups


def a_circle(group: list[str], edges: dict[str, dict[str, set[str]]]) -> list[str]:
    """One circle through the group's first component, each step with its reason."""
    members = set(group)
    start = group[0]
    # breadth-first back to start inside the group
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in sorted(edges.get(node, {})):
                if nxt not in members:
                    continue
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    path.reverse()
                    path.append(start)
                    return [f"{a} -> {b} ({'; '.join(sorted(edges[a][b]))})"
                            for a, b in zip(path, path[1:])]
                if nxt not in parent:
                    parent[nxt] = node
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return [" <-> ".join(group)]


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, set[str]]]:
    return dependency_graph(tmp_path_factory.mktemp("objects"))


def test_the_graph_is_read(graph: dict[str, dict[str, set[str]]]) -> None:
    # the reading itself works: includes and symbol uses both show up
    assert "core/common" in graph["games/maze"]
    assert any("uses sbx_fail" in why for why in graph["games/maze"]["core/common"])
    assert any("includes" in why for why in graph["search/gtcfr"].get("search/search", set())), \
        graph["search/gtcfr"]
    # a vtable a registry lists is a use too
    assert any("uses sbx_mcgs_vt" in why for why in graph["search/registry"]["search/mcgs"])
    every_c = {component(p) for p in SRC.rglob("*.c")}
    assert every_c <= set(graph)


def test_no_circles_between_c_files(graph: dict[str, dict[str, set[str]]]) -> None:
    circles = [[f"{len(group)} components tied: {', '.join(group)}; one circle:",
                *a_circle(group, graph)] for group in strongly_connected(graph)]
    assert not circles, "circles between native/src files:\n" + "\n\n".join(
        "\n".join(steps) for steps in circles)


def test_dependencies_go_down_the_layers(graph: dict[str, dict[str, set[str]]]) -> None:
    climbs = [f"{a} -> {b} ({'; '.join(sorted(why))})"
              for a, deps in sorted(graph.items()) for b, why in sorted(deps.items())
              if LAYERS[b.split("/")[0]] > LAYERS[a.split("/")[0]]]
    assert not climbs, "a lower layer depends on a higher one:\n" + "\n".join(climbs)


def test_the_circle_finder_finds_circles() -> None:
    edges = {"a": {"b": {"x"}}, "b": {"c": {"y"}}, "c": {"a": {"z"}}, "d": {"a": {"w"}}}
    groups = strongly_connected(edges)
    assert groups == [["a", "b", "c"]]
    assert a_circle(groups[0], edges) == ["a -> b (x)", "b -> c (y)", "c -> a (z)"]
    assert strongly_connected({"a": {"b": {"x"}}, "b": {}}) == []
