"""sandbox.envs: the Parallel API shape over every registered game, checked
against the C game driven directly (the oracle: same joint, same rewards and
state), PettingZoo's own parallel_api_test where it is installed, and the
search policy."""
import numpy as np
import pytest

from sandbox.envs import SearchPolicy, parallel_env
from sandbox.native import Game, InvalidArgument, InvalidState, SandboxError, kinds
from sandbox.native.game import EXPORT_MAX

KINDS = kinds()


def legal(obs, agent):
    return [int(m) for m in np.flatnonzero(obs[agent]["action_mask"])]


@pytest.mark.parametrize("kind", KINDS)
def test_env_matches_the_c_game(kind):
    env = parallel_env(kind, max_cycles=60)
    obs, infos = env.reset(seed=5)
    assert env.agents == env.possible_agents[:len(env.agents)] and env.agents
    assert set(obs) == set(infos) == set(env.agents)
    twin = env.game.clone()          # the same start; stepped by hand below
    rng = np.random.default_rng(1)
    while env.agents:
        acts = {a: int(rng.choice(legal(obs, a))) for a in env.agents}
        joint = [acts.get(a) for a in env.possible_agents]
        expected = twin.step(joint)
        live = list(env.agents)
        obs, rew, term, trunc, infos = env.step(acts)
        assert set(obs) == set(rew) == set(term) == set(trunc) == set(infos) == set(live)
        words = twin.export()
        for a in live:
            i = env.agent_index[a]
            assert rew[a] == expected[i]
            assert np.array_equal(obs[a]["observation"][:len(words)], words)
            assert not obs[a]["observation"][len(words):].any()
            assert term[a] == (twin.is_terminal or not twin.is_alive(i))
            mask = obs[a]["action_mask"]
            if not term[a]:
                assert legal(obs, a) == sorted(twin.legal_moves(i))
            else:
                assert not mask.any()
        assert env.agents == [a for a in live if not (term[a] or trunc[a])]
    assert twin.is_terminal or env.cycles == 60
    twin.close()
    with pytest.raises(InvalidState):
        env.step({})


def test_an_eliminated_snake_leaves_the_agents():
    env = parallel_env("snakes")
    obs, _ = env.reset(seed=2)
    # agent_0 keeps turning into itself is not guaranteed; play until one is out
    rng = np.random.default_rng(0)
    while len(env.agents) == len(env.possible_agents):
        obs, _, term, _, _ = env.step({a: int(rng.choice(legal(obs, a))) for a in env.agents})
    out = [a for a, t in term.items() if t]
    assert out and all(a not in env.agents for a in out)
    assert all(not env.game.is_alive(env.agent_index[a]) for a in out)


def test_illegal_action_plays_the_first_legal_move():
    env = parallel_env("goofspiel")
    obs, _ = env.reset(seed=1)
    twin = env.game.clone()
    bad = next(m for m in range(16) if m not in legal(obs, "agent_0"))
    _, _, _, _, infos = env.step({"agent_0": bad})        # agent_1's move missing too
    twin.step([twin.legal_moves(0)[0], twin.legal_moves(1)[0]])
    assert infos["agent_0"]["illegal_action"] == bad
    assert infos["agent_1"]["illegal_action"] is None
    assert np.array_equal(env.game.export(), twin.export())


def test_seed_repeats_an_episode():
    def run(seed):
        env = parallel_env("maze", {"size": "tiny"})
        obs, _ = env.reset(seed=seed)
        out = [env.game.state_hash()]
        while env.agents:
            obs, *_ = env.step({a: legal(obs, a)[-1] for a in env.agents})
            out.append(env.game.state_hash())
        return out
    assert run(3) == run(3)


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "nosuch"}, "nosuch"),
    ({"kind": "maze", "game_params": {"size": "gigantic"}}, "size"),
    ({"kind": "maze", "game_params": {"nosuch": 1}}, "nosuch"),
    ({"kind": "maze", "game_params": [1]}, "mapping"),
    ({"kind": "maze", "render_mode": "human"}, "rgb_array"),
    ({"kind": "maze", "max_cycles": 0}, "max_cycles"),
    ({"kind": "maze", "obs_words": EXPORT_MAX + 1}, "obs_words"),
    ({"kind": "maze", "obs_words": 10}, "export"),
    ({"kind": "maze", "obs_words": "big"}, "obs_words"),
    ({"kind": "maze", "render_size": (0, 10)}, "render_size"),
    ({"kind": "maze", "render_size": "640x480"}, "render_size"),
    ({"kind": "maze", "max_cycles": 2.5}, "max_cycles"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(SandboxError, match=message):
        parallel_env(**kwargs)


def test_bad_steps():
    env = parallel_env("matrix")
    env.reset(seed=0)
    with pytest.raises(InvalidArgument):
        env.step({"nobody": 0})
    with pytest.raises(InvalidArgument):
        env.step({"agent_0": "rock"})
    with pytest.raises(InvalidArgument):
        env.step([0, 1])
    with pytest.raises(InvalidArgument):
        env.reset(seed=-1)


@pytest.mark.parametrize("kind", KINDS)
def test_render_is_the_games_board(kind):
    env = parallel_env(kind, render_mode="rgb_array", render_size=(200, 160))
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (160, 200, 3) and frame.dtype == np.uint8
    assert len({tuple(c) for c in frame.reshape(-1, 3)[::7]}) >= 4     # not blank
    assert parallel_env(kind).render() is None                       # no render_mode


@pytest.mark.parametrize("kind", KINDS)
def test_pettingzoo_parallel_api_test(kind):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test
    env = parallel_env(kind, render_mode="rgb_array", max_cycles=200)
    parallel_api_test(env, num_cycles=200)
    sp = env.observation_space("agent_0")
    obs, _ = env.reset(seed=0)
    assert sp.contains(obs["agent_0"])
    assert env.action_space("agent_0").n == 16


def test_search_policy_plays_the_searchs_move_and_beats_random():
    env = parallel_env("maze", {"size": "tiny"})
    policy = SearchPolicy({"max_depth": 8}, iterations=200, seed=3)
    wins = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            acts = {"agent_1": int(rng.choice(legal(obs, "agent_1")))} \
                if "agent_1" in env.agents else {}
            if "agent_0" in env.agents:
                acts["agent_0"] = policy(env, "agent_0")
                assert acts["agent_0"] in legal(obs, "agent_0")
            obs, _, _, _, infos = env.step(acts)
        wins += infos["agent_0"]["rank"] < infos["agent_1"]["rank"]
    assert wins >= 3
    # deterministic: the same state gives the same move
    env.reset(seed=9)
    assert policy(env, "agent_0") == policy(env, "agent_0")
    with pytest.raises(InvalidArgument):
        SearchPolicy({"c": -1})
    with pytest.raises(InvalidArgument):
        SearchPolicy(iterations=0)
    with pytest.raises(InvalidArgument):
        policy(env, "agent_7")
    while env.agents:
        env.step({})
    with pytest.raises(InvalidArgument, match="out of the episode"):
        policy(env, "agent_0")


def test_spaces_without_gymnasium_are_one_error(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "gymnasium", None)       # as if not installed
    env = parallel_env("matrix")
    with pytest.raises(SandboxError, match="pettingzoo"):
        env.action_space("agent_0")
    obs, _ = env.reset(seed=0)                 # the rest works without it
    env.step({a: legal(obs, a)[0] for a in env.agents})


def test_several_threads_take_turns_on_one_env():
    """Steps and resets from four threads at once: each call sees a whole
    episode state (a reset under another thread's step once raised a bare
    IndexError); the only complaint is the documented one, a step after the
    episode ended."""
    import threading

    from sandbox.envs import parallel_env
    from sandbox.native import InvalidState
    env = parallel_env("snakes", {"width": 7, "height": 7, "snakes": 4})
    env.reset(seed=1)
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        rng = np.random.default_rng(k)
        try:
            for i in range(300):
                if i % 37 == k:
                    env.reset()
                    continue
                try:
                    env.step({a: int(rng.integers(0, 4)) for a in env.possible_agents})
                except InvalidState:
                    env.reset()
        except BaseException as exc:   # anything else is the bug
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
