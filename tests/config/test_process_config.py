"""Process players' settings (sandbox/config/process.py) in agent files and
scenarios: bad values are one line naming the file and the field; paths are
found beside the file that names them."""
from __future__ import annotations

import os
import sys

import pytest

from sandbox.config import load_scenario
from sandbox.names import ScenarioError
from sandbox.tournament.agents import load_entrant


def write(path, text):
    path.write_text(text)
    return path


@pytest.mark.parametrize("body, fragment", [
    ('command = ["./bot.py"]\ntimeout_ms = -5', "timeout_ms: Input should be greater than or equal to 1"),
    ('command = ["./bot.py"]\non_failure = "retry"', "on_failure: Input should be 'default' or 'eliminate'"),
    ('command = ["./bot.py"]\nenv = { "" = "x" }', "env: '' is not an environment variable name"),
    ('command = ["./bot.py"]\nmemory_mb = 1.5', "memory_mb: Input should be a valid integer"),
    ('command = ["a\\u0000b"]', "command: an item has a NUL character"),
    ('command = 3', "command: Input should be a valid list"),
])
def test_bad_agent_file_values(tmp_path, body, fragment):
    f = write(tmp_path / "a.toml", f'controller = "process"\n{body}\n')
    with pytest.raises(ScenarioError) as e:
        load_entrant(str(f))
    msg = str(e.value)
    assert fragment in msg and "a.toml" in msg and "\n" not in msg, msg


def test_a_process_key_on_a_search_player_is_refused(tmp_path):
    f = write(tmp_path / "s.toml", 'game = "goofspiel"\n[[players]]\ncommand = ["x"]\n'
                                   '[[players]]\n')
    with pytest.raises(ScenarioError, match=r'players\.0\.command: only a player with '
                                            r'controller = "process" takes it'):
        load_scenario(f)


def test_paths_resolve_beside_the_file(tmp_path, monkeypatch):
    (tmp_path / "bots").mkdir()
    bot = write(tmp_path / "bots" / "b.py", "#!/bin/sh\n")
    bot.chmod(0o755)
    (tmp_path / "data").mkdir()
    f = write(tmp_path / "s.toml", 'game = "goofspiel"\n[[players]]\ncontroller = "process"\n'
                                   'command = ["bots/b.py", "--x"]\ncwd = "data"\n'
                                   '[[players]]\ncontroller = "random"\n')
    monkeypatch.chdir("/")
    p = load_scenario(f).players[0]
    assert p.command == [str(tmp_path / "bots" / "b.py"), "--x"]
    assert p.cwd == str(tmp_path / "data")


def test_a_program_that_is_not_executable_is_refused(tmp_path):
    write(tmp_path / "b.py", "print(1)\n")
    os.chmod(tmp_path / "b.py", 0o644)
    f = write(tmp_path / "s.toml", 'game = "goofspiel"\n[[players]]\ncontroller = "process"\n'
                                   'command = ["./b.py"]\n[[players]]\ncontroller = "random"\n')
    with pytest.raises(ScenarioError, match=r"players\.0\.command: program .*b\.py is not "
                                            r"executable"):
        load_scenario(f)
    # run through an interpreter instead, it is fine
    write(f, f'game = "goofspiel"\n[[players]]\ncontroller = "process"\n'
             f'command = ["{sys.executable}", "b.py"]\n[[players]]\ncontroller = "random"\n')
    assert load_scenario(f).players[0].cwd == str(tmp_path)


def test_a_value_net_is_found_beside_the_scenario_or_agent_file(tmp_path, monkeypatch):
    """A scenario or agent file that names its network by a relative path
    plays the same from any working folder; a name not beside the file is
    left as written (the working folder's, as before)."""
    (tmp_path / "nets").mkdir()
    write(tmp_path / "nets" / "g.sbxnet", "not read here")
    f = write(tmp_path / "s.toml", 'game = "goofspiel"\n[[players]]\n[players.search]\n'
                                   'algorithm = "gtcfr"\nvalue_net = "nets/g.sbxnet"\n'
                                   '[[players]]\ncontroller = "random"\n')
    a = write(tmp_path / "a.toml", '[search]\nalgorithm = "mcgs"\nvalue_net = "nets/g.sbxnet"\n')
    elsewhere = write(tmp_path / "e.toml", '[search]\nvalue_net = "nets/absent.sbxnet"\n')
    monkeypatch.chdir("/")
    want = str(tmp_path / "nets" / "g.sbxnet")
    assert load_scenario(f).players[0].search.value_net == want
    assert load_entrant(str(a)).player["search"]["value_net"] == want
    assert load_entrant(str(elsewhere)).player["search"]["value_net"] == "nets/absent.sbxnet"
