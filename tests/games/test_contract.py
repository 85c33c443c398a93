"""The contract every registered game keeps (STYLE.md: OpenSpiel's random-
simulation test over every game). Parametrised over the registry, with a
minimum count, so a game that drops out of the registry fails loudly here.

For each game and each of its example parameter sets: random play stays
legal and ends within its turn limit with well-formed scores and rankings;
export -> import -> export is the identity; the hash is stable under clone
and changes with a step; the plugin's view agrees with C; its scoreboard
facts, keys and clicks are sane (a person's input only ever gives legal
moves); the renderer draws a non-blank board at several sizes; Smitsimax
searches it; a recorded headless match verifies; the parameter model agrees
with C on defaults and ranges."""
from __future__ import annotations

import json
import math

import numpy as np
import pygame
import pytest
from annotated_types import Ge, Le

from sandbox.config import scenario_from_dict
from sandbox.games import AgentFacts, AgentStatus, BoardContext, KeyResult, plugin, plugins
from sandbox.native import Game, InvalidArgument, Search, SearchParams, kinds
from sandbox.native.game import format_params
from sandbox.replay import Recorder, read_replay, verify
from sandbox.sim.match import Match

MIN_GAMES = 6            # snakes, goofspiel, matrix, depthbias, maze, pods; raise it as games land
TURN_GUARD = 20_000      # no example may run this long

PLUGINS = plugins()
CASES = [(p.kind, i) for p in PLUGINS for i in range(len(p.examples))]


def make(kind: str, i: int, seed: int) -> Game:
    p = plugin(kind)
    return Game(kind, p.c_params(p.examples[i]), seed=seed)


def random_joint(g: Game, rng: np.random.Generator) -> list[int | None]:
    joint: list[int | None] = []
    for a in range(g.num_agents):
        legal = g.legal_moves(a)
        joint.append(int(rng.choice(legal)) if legal else None)
    return joint


def test_registry_is_complete():
    assert len(PLUGINS) >= MIN_GAMES, [p.kind for p in PLUGINS]
    # every C game has a plugin and every plugin a C game
    assert sorted(p.kind for p in PLUGINS) == sorted(kinds())
    for p in PLUGINS:
        assert p.examples and p.title and p.bench, p.kind
    with pytest.raises(InvalidArgument, match="unknown game"):
        plugin("chess")


@pytest.mark.parametrize("kind, i", CASES)
def test_random_play_invariants(kind, i):
    p = plugin(kind)
    rng = np.random.default_rng(1000 + i)
    for seed in range(12):
        with make(kind, i, seed) as g:
            n = g.num_agents
            assert 1 <= n <= 8
            steps = 0
            while not g.is_terminal:
                assert steps < TURN_GUARD, f"{kind} example {i} seed {seed} never ends"
                joint = random_joint(g, rng)
                for a, m in enumerate(joint):
                    if m is not None:
                        assert 0 <= m < 16 and g.move_name(a, m) != "?"
                turn = g.turn
                rewards = g.step(joint)
                assert g.turn == turn + 1
                assert rewards.shape == (n,) and np.all(np.isfinite(rewards))
                steps += 1
                if steps % 7 == 0:
                    check_view(p, g)
            with pytest.raises(Exception):   # a terminal state takes no step
                g.step(random_joint(g, rng))
            scores = g.evaluate()
            assert scores.shape == (n,) and np.all(np.isfinite(scores))
            ranking = g.ranking()
            assert len(ranking) == n and min(ranking) == 0
            for a, r in enumerate(ranking):
                # rank = agents strictly ahead: a well-formed competition ranking
                assert r == sum(1 for b in range(n) if ranking[b] < r), ranking
            check_view(p, g)


def check_view(p, g: Game) -> None:
    view = p.decode(g.export())
    assert p.num_agents(view) == g.num_agents
    assert view.turn == g.turn
    for a in range(g.num_agents):
        st = p.status(view, a)
        assert isinstance(st, AgentStatus) and st.alive == g.is_alive(a)
        facts = p.facts(view, a)
        assert isinstance(facts, AgentFacts) and isinstance(facts.summary, str)
        assert facts.bar is None or 0.0 <= facts.bar <= 1.0
    json.dumps(p.summary(view))


@pytest.mark.parametrize("kind, i", CASES)
def test_export_import_hash(kind, i):
    rng = np.random.default_rng(7 + i)
    with make(kind, i, 3) as g, make(kind, i, 99) as other:
        for _ in range(40):
            words = g.export()
            other.import_state(words)
            assert np.array_equal(other.export(), words)
            assert other.state_hash() == g.state_hash()
            with g.clone() as c:
                assert c.state_hash() == g.state_hash()
                assert np.array_equal(c.export(), words)
            if g.is_terminal:
                break
            h = g.state_hash()
            g.step(random_joint(g, rng))
            assert g.state_hash() != h
        # a damaged export is refused and leaves the state as it was
        h = other.state_hash()
        for bad in (words[:-1], np.concatenate([words, [0]]), [], [999] + list(words[1:])):
            with pytest.raises(InvalidArgument):
                other.import_state(bad)
            assert other.state_hash() == h


@pytest.mark.parametrize("kind", [p.kind for p in PLUGINS])
def test_human_input_gives_legal_moves(kind):
    p = plugin(kind)
    rng = np.random.default_rng(5)
    r = p.renderer([(200, 60, 60), (60, 200, 60), (60, 60, 200), (200, 200, 60)] * 2,
                   [f"P{a}" for a in range(8)])
    rect = pygame.Rect(0, 0, 320, 320)
    taken = 0
    for i in range(len(p.examples)):
        with make(kind, i, 11) as g:
            for _ in range(30):
                if g.is_terminal:
                    break
                view = p.decode(g.export())
                for a in range(g.num_agents):
                    legal = g.legal_moves(a)
                    if not legal:
                        continue
                    d = p.default_move(view, a)
                    assert d is None or 0 <= d < 16
                    for key in p.keys + ("x", "f12", "space"):
                        res = p.key_move(view, a, key, key if len(key) == 1 else "")
                        assert res is None or isinstance(res, KeyResult)
                        if res is not None and res.move is not None:
                            taken += 1
                            assert res.move in legal, (kind, key, res.move, legal)
                        elif res is not None:
                            assert res.refused
                    for x in range(5, 320, 21):
                        for y in range(5, 320, 21):
                            m = r.move_at(rect, view, (x, y), a)
                            assert m is None or m in legal, (kind, (x, y), m, legal)
                g.step(random_joint(g, rng))
    assert not p.keys or taken > 0, f"{kind}: no key ever gave a move"


@pytest.mark.parametrize("kind", [p.kind for p in PLUGINS])
@pytest.mark.parametrize("size", [(120, 120), (300, 240), (640, 480)])
def test_renderer_draws_a_board(kind, size):
    p = plugin(kind)
    with make(kind, 0, 2) as g:
        n = g.num_agents
        colors = [(230, 80, 70), (90, 200, 90), (80, 140, 240), (235, 190, 60)] * 2
        r = p.renderer(colors[:n], [f"P{a}" for a in range(n)])
        prev = p.decode(g.export())
        g.step(random_joint(g, np.random.default_rng(0)))
        view = p.decode(g.export())
        surf = pygame.Surface((size[0] + 40, size[1] + 40))
        surf.fill((0, 0, 0))
        rect = pygame.Rect(20, 20, *size)
        policies = {a: tuple((m, 1.0 / len(g.legal_moves(a))) for m in g.legal_moves(a))
                    for a in range(n)}
        for alpha in (0.0, 0.5, 1.0):
            r.draw(surf, rect, view, prev, alpha, BoardContext(highlight_agent=0,
                                                               policies=policies))
        px = pygame.surfarray.array3d(surf)
        inside = px[20:20 + size[0], 20:20 + size[1]].reshape(-1, 3)
        colours = {tuple(c) for c in inside[:: max(1, len(inside) // 4000)]}
        assert len(colours) >= 4, f"{kind}: a blank board at {size}"
        # nothing drawn outside the board's rect
        outside = np.concatenate([px[:20].reshape(-1, 3), px[-20:].reshape(-1, 3),
                                  px[:, :20].reshape(-1, 3), px[:, -20:].reshape(-1, 3)])
        assert not outside.any(), f"{kind}: drew outside its rect"


@pytest.mark.parametrize("kind, i", CASES)
def test_smitsimax_searches_every_game(kind, i):
    with make(kind, i, 4) as g, Search(g, SearchParams(max_depth=6), seed=4) as s:
        r = s.run(iterations=400)
        assert r.iterations == 400 or r.stop_reason == "terminal"
        best = s.best_moves()
        for a in range(g.num_agents):
            assert best[a] is None or best[a] in g.legal_moves(a)
        g.step(best)
        s.advance(best, new_root=g)
        assert s.run(iterations=50).iterations >= 0


@pytest.mark.parametrize("kind", [p.kind for p in PLUGINS])
def test_a_recorded_headless_match_verifies(kind, tmp_path):
    p = plugin(kind)
    with Game(kind, p.c_params(p.examples[0]), seed=0) as g:
        n = g.num_agents
    players = [{"name": f"P{a}", "search": {"max_depth": 4}} for a in range(n)]
    players[-1] = {"name": "R", "controller": "random"}
    sc = scenario_from_dict({"name": f"contract {kind}", "game": kind,
                             "game_params": dict(p.examples[0]), "seed": 3,
                             "budget": {"ms": 0, "iterations": 60}, "players": players})
    rec = Recorder(tmp_path, name_hint=kind)
    with Match(sc, recorder=rec) as m:
        result = m.play()
        final = m.world.view()
    rec.close()
    assert result.terminal
    replay = read_replay(rec.path)
    try:
        report = verify(replay)
        assert report.ok, report.message
        assert replay.result is not None and replay.result.turns == result.turns
        # the replay rebuilds the last board, decoded by the same plugin
        assert replay.view_at(result.turns) == final
    finally:
        replay.close()


@pytest.mark.parametrize("kind", [p.kind for p in PLUGINS])
def test_params_model_agrees_with_c(kind):
    """The model's defaults are C's defaults, and its numeric ranges are C's:
    each bound is accepted by both, one step past it refused by both."""
    p = plugin(kind)
    with Game(kind, "", seed=0) as g0, Game(kind, p.Params().c_params(full=True), seed=0) as g1:
        assert g1.params == g0.params
    for name, field in p.Params.model_fields.items():
        lo = next((m.ge for m in field.metadata if isinstance(m, Ge)), None)
        hi = next((m.le for m in field.metadata if isinstance(m, Le)), None)
        step = 1 if field.annotation is int else 1e-6 * max(1.0, abs(lo or 0), abs(hi or 0))
        for bound, past in ((lo, None if lo is None else lo - step),
                            (hi, None if hi is None else hi + step)):
            if bound is None:
                continue
            model = p.Params.model_validate({name: bound})
            with Game(kind, model.c_params(), seed=0):
                pass
            with pytest.raises(ValueError):
                p.Params.model_validate({name: past})
            with pytest.raises(InvalidArgument, match=name):
                Game(kind, format_params({name: past}), seed=0)


def test_finite_scores_for_every_example():
    for p in PLUGINS:
        for i in range(len(p.examples)):
            with make(p.kind, i, 0) as g:
                assert all(math.isfinite(x) for x in g.evaluate())
