"""PettingZoo-Parallel-shaped environments over every registered game, and a
search agent usable as a policy inside them.

    from sandbox.envs import parallel_env, SearchPolicy
    env = parallel_env("maze", {"size": "small"}, render_mode="rgb_array")
    obs, infos = env.reset(seed=1)
    policy = SearchPolicy({"max_depth": 8}, iterations=500)
    while env.agents:
        actions = {a: policy(env, a) for a in env.agents}
        obs, rewards, terminations, truncations, infos = env.step(actions)
    frame = env.render()          # H x W x 3 uint8, the game's own board

Real PettingZoo and Gymnasium are an optional extra (`[pettingzoo]`): the
spaces need Gymnasium; reset/step/render work without it.
"""
from .parallel import SandboxParallelEnv, env_from_scenario, parallel_env
from .policy import SearchPolicy

__all__ = ["SandboxParallelEnv", "SearchPolicy", "env_from_scenario", "parallel_env"]
