"""The example bots: maze_bot.py beats random, and an example's relative
program path is found beside its scenario or agent file, from any folder."""
from __future__ import annotations

import os
from pathlib import Path

from sandbox.config import load_scenario
from sandbox.sim.match import Match
from sandbox.tournament.agents import load_entrant

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


def test_maze_bot_beats_random(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)            # relative paths resolve beside the file, not here
    sc = load_scenario(EXAMPLES / "maze_vs_random.toml")
    assert sc.players[0].command == [str(EXAMPLES / "maze_bot.py")]
    assert sc.players[0].cwd == str(EXAMPLES)
    wins = 0
    for seed in range(1, 7):
        # generous times: this test is about the bot's play, not its speed
        # (a loaded 2-core CI machine can stall a Python bot past 100 ms)
        s = sc.with_settings([f"game_params.maze_seed={seed}", "players.0.timeout_ms=10000",
                              "players.0.first_turn_ms=30000"])
        with Match(s, seed=seed) as m:
            res = m.play()
            infos = [r.players[0].bot for r in m.history]
        assert all(i is not None and not i.failures for i in infos)    # it never failed
        wins += res.ranking[0] < res.ranking[1]
    assert wins >= 5, wins


def test_an_agent_files_program_is_found_beside_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    e = load_entrant(str(EXAMPLES / "maze_bot_agent.toml"))
    assert e.player["controller"] == "process"
    assert e.player["command"] == [str(EXAMPLES / "maze_bot.py")]
    assert e.player["cwd"] == str(EXAMPLES)
    assert os.access(e.player["command"][0], os.X_OK)


def test_a_scenario_takes_a_process_agent_file(tmp_path):
    rel = os.path.relpath(EXAMPLES / "maze_bot_agent.toml", tmp_path)
    (tmp_path / "s.toml").write_text(
        'game = "maze"\n[game_params]\nsize = "tiny"\n'
        f'[[players]]\nagent = "{rel}"\ntimeout_ms = 500\n[[players]]\ncontroller = "random"\n')
    sc = load_scenario(tmp_path / "s.toml")
    p = sc.players[0]
    assert p.controller == "process" and p.timeout_ms == 500      # the player's key on top
    assert p.command == [str(EXAMPLES / "maze_bot.py")]


def test_play_verify_series_and_sweep_from_the_command_line(tmp_path, monkeypatch, capsys):
    from sandbox.cli import main
    monkeypatch.chdir(tmp_path)
    scen = str(EXAMPLES / "maze_vs_random.toml")
    assert main(["play", scen, "--replay-dir", str(tmp_path / "r")]) == 0
    replay = next((tmp_path / "r").glob("*.jsonl"))
    assert next((tmp_path / "r").glob("*.stderr.log")).name.startswith(replay.stem)
    assert main(["replay", "verify", str(replay)]) == 0
    assert main(["series", scen, "--games", "2", "--vary", "game_params.maze_seed"]) == 0
    assert main(["sweep", "maze_tiny_mcgs_selfplay", "--param", "c=0.5:1.5:2", "--vs",
                 str(EXAMPLES / "maze_bot_agent.toml"), "--games", "2", "--iterations", "50",
                 "--out", str(tmp_path / "sw")]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and "Bot" in out


def test_replay_research_beside_a_process_player(tmp_path, capsys):
    """A recorded match of the maze bot against a search: the search's turns
    re-search (the bot's moves stay as recorded); the bot's own turns have
    no search to re-run, which is one error line."""
    from sandbox.cli import main
    (tmp_path / "s.toml").write_text(
        f'game = "maze"\nseed = 2\n[game_params]\nsize = "small"\nmaze_seed = 2\n'
        f'[budget]\niterations = 200\nms = 0\n'
        f'[[players]]\nname = "Bot"\nagent = "{EXAMPLES / "maze_bot_agent.toml"}"\n'
        f'[[players]]\nname = "Smit"\n')
    assert main(["play", str(tmp_path / "s.toml"), "--replay-dir", str(tmp_path / "r")]) == 0
    replay = str(next((tmp_path / "r").glob("*.jsonl")))
    capsys.readouterr()
    assert main(["replay", "research", replay, "--turn", "3", "--agent", "1"]) == 0
    out = capsys.readouterr().out
    assert "as recorded" in out, out               # same settings, same seed: the same move
    assert main(["replay", "research", replay, "--turn", "3", "--agent", "0"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "played by a process player: there is no search" in err[0]
