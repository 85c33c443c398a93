"""Nothing a bot does hangs or crashes a match: one misbehaving bot per
failure kind (tests/data/bots/), each turn's failure recorded in the
replay (agent, kind, detail), the game's default move played instead
(goofspiel has no default of its own: the first legal move, the lowest
card), and the turn back within its timeout plus a bound.

The bots of tests/data/bots answer the LAST legal move when they answer,
so a default move (the first) is told apart from an answer."""
from __future__ import annotations

import os
import time

import pytest

from sandbox.bots.process import USE_KEEPER
from sandbox.native import Game
from sandbox.replay import verify

from bot_support import bot_scenario, play_recorded

TIMEOUT_MS = 150
# a turn may overrun its bot's timeout by 50 ms (process.py); the rest is
# slack for a loaded 2-core test machine
SLACK_S = 0.05 + 0.25


def legal_at(replay, turn: int, agent: int) -> list[int]:
    """The agent's legal moves at the start of `turn`, by re-simulating."""
    h = replay.header
    with Game(h.game, h.game_params, seed=h.seed) as g:
        for line in replay.turns:
            if line.turn == turn:
                return g.legal_moves(agent)
            g.step(line.joint)
    raise AssertionError(f"turn {turn} not in the replay")


def failures(replay, turn: int):
    line = replay.by_turn[turn]
    bot = line.players[0].bot
    return [] if bot is None else [(f.agent, f.kind) for f in bot.failures]


CASES = [("crash", "exit"), ("garbage", "garbage"), ("illegal", "illegal"),
         ("too_few", "missing"), ("too_many", "extra"), ("long_line", "too_long"),
         ("slow", "timeout")]


@pytest.mark.parametrize("bot, kind", CASES)
def test_a_failed_turn_plays_the_default_move(bot, kind, tmp_path):
    sc = bot_scenario(bot, timeout_ms=TIMEOUT_MS, first_turn_ms=5000)
    result, replay, seconds = play_recorded(sc, tmp_path)
    assert result.turns == 5 and verify(replay).ok
    # turn 0 answered: the bot's own move (the last legal one)
    assert failures(replay, 0) == []
    assert replay.by_turn[0].joint[0] == legal_at(replay, 0, 0)[-1]
    assert replay.by_turn[0].players[0].bot.latency_ms is not None
    # turn 1: the failure, recorded, and the default move played
    assert failures(replay, 1) == [(0, kind)], replay.by_turn[1].players[0].bot
    line = replay.by_turn[1]
    assert line.joint[0] == legal_at(replay, 1, 0)[0]
    assert line.agent(0).chosen_by == "default"
    assert line.players[0].bot.latency_ms is None
    assert line.players[0].bot.failures[0].detail
    # never later than the timeout and the bound
    assert seconds[1] < TIMEOUT_MS / 1000 + SLACK_S, seconds
    if kind == "timeout":
        assert seconds[1] >= TIMEOUT_MS / 1000 * 0.99, seconds


def test_a_bot_that_exited_is_not_restarted(tmp_path):
    sc = bot_scenario("crash", timeout_ms=TIMEOUT_MS, first_turn_ms=5000)
    _, replay, _ = play_recorded(sc, tmp_path)
    for t in (2, 3, 4):   # every later turn: the same failure, the default move
        assert failures(replay, t) == [(0, "exit")]
        assert replay.by_turn[t].joint[0] == legal_at(replay, t, 0)[0]
    assert "exited with status 3" in replay.by_turn[1].players[0].bot.failures[0].detail


def test_a_late_reply_is_skipped_and_the_bot_back_in_step(tmp_path):
    """slow.py answers turn 1 after 0.4 s; its late answer must not be
    taken for a later turn's: once it is read and dropped, the bot's
    answers are its own moves again (the last legal move of each turn)."""
    sc = bot_scenario("slow", timeout_ms=TIMEOUT_MS, first_turn_ms=5000,
                      game_params={"num_cards": 8})
    _, replay, _ = play_recorded(sc, tmp_path)
    answered = [t for t in range(8) if not failures(replay, t)]
    assert 1 not in answered and answered[0] == 0
    assert answered[-1] == 7, [failures(replay, t) for t in range(8)]
    for t in answered:
        assert replay.by_turn[t].joint[0] == legal_at(replay, t, 0)[-1], t


def test_silence_is_a_timeout_every_turn(tmp_path):
    sc = bot_scenario("silent", timeout_ms=TIMEOUT_MS, first_turn_ms=400)
    _, replay, seconds = play_recorded(sc, tmp_path)
    assert [failures(replay, t) for t in range(5)] == [[(0, "timeout")]] * 5
    assert seconds[0] < 0.4 + SLACK_S and all(s < TIMEOUT_MS / 1000 + SLACK_S
                                                for s in seconds[1:]), seconds


def test_eliminate_forfeits_the_player(tmp_path):
    sc = bot_scenario("garbage", timeout_ms=TIMEOUT_MS, first_turn_ms=5000,
                      on_failure="eliminate")
    bots = []
    result, replay, _ = play_recorded(sc, tmp_path,
                                      on_turn=lambda m, r: bots.append(m.controllers[0].bot))
    assert replay.by_turn[1].forfeits == [0]
    assert failures(replay, 1) == [(0, "garbage")]
    for t in (2, 3, 4):      # no longer asked: no failures, the default move
        assert failures(replay, t) == []
        assert replay.by_turn[t].agent(0).chosen_by == "default"
        assert replay.by_turn[t].joint[0] == legal_at(replay, t, 0)[0]
    assert result.ranking == (1, 0) and result.winner == 1
    assert replay.result.ranking == [1, 0]
    assert bots[-1].returncode is not None          # killed when it forfeited
    rep = verify(replay)
    assert rep.ok, rep.message


def test_verify_checks_the_forfeit_ranking(tmp_path):
    """A replay whose forfeits were dropped ranks as the game does: verify
    must then refuse its result line."""
    import json
    sc = bot_scenario("garbage", timeout_ms=TIMEOUT_MS, first_turn_ms=5000,
                      on_failure="eliminate")
    play_recorded(sc, tmp_path)
    path = tmp_path / "m.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    game_ranking = None
    for obj in lines:
        obj.pop("forfeits", None)
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("".join(json.dumps(o) + "\n" for o in lines))
    from sandbox.replay import read_replay
    rep = verify(read_replay(tampered))
    h = read_replay(tampered).header
    with Game(h.game, h.game_params, seed=h.seed) as g:
        for t in read_replay(tampered).turns:
            g.step(t.joint)
        game_ranking = g.ranking()
    if game_ranking == [1, 0]:
        pytest.skip("the random player won anyway: the forfeit changes nothing here")
    assert not rep.ok and rep.problem == "result", rep.message


def test_moves_by_name_and_debug_are_kept(tmp_path):
    sc = bot_scenario("by_name", timeout_ms=1000, first_turn_ms=5000)
    _, replay, _ = play_recorded(sc, tmp_path)
    for t in range(5):
        line = replay.by_turn[t]
        legal = legal_at(replay, t, 0)
        assert line.joint[0] == legal[-1]
        dbg = line.players[0].bot.debug
        assert dbg["message"] == f"turn {t}"
        assert dbg["visits"] == {"0": {str(m): 1.0 for m in legal}}
        assert dbg["values"] == {"0": {str(m): 0.5 for m in legal}}


def test_stderr_without_end_is_drained_and_capped(tmp_path):
    from sandbox.bots.process import STDERR_LOG_CAP
    sc = bot_scenario("stderr_flood", timeout_ms=1000, first_turn_ms=5000)
    _, replay, _ = play_recorded(sc, tmp_path)
    assert all(failures(replay, t) == [] for t in range(5))
    log = tmp_path / "m.p0.stderr.log"
    assert log.is_file()
    size = log.stat().st_size
    assert STDERR_LOG_CAP <= size < STDERR_LOG_CAP + 200, size


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] == "Z"    # a zombie is dead
    except FileNotFoundError:
        return True


def test_the_bot_and_its_children_die_with_the_match(tmp_path):
    pid_file = tmp_path / "pids"
    sc = bot_scenario("fork_sleeper", timeout_ms=1000, first_turn_ms=5000,
                      env={"PID_FILE": str(pid_file)})
    play_recorded(sc, tmp_path)
    pids = [int(x) for x in pid_file.read_text().split()]
    deadline = time.monotonic() + 3
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(_gone(p) for p in pids), pids


def test_a_program_that_cannot_start_is_a_spawn_failure(tmp_path):
    """The file exists when the scenario is checked, and is gone (or not
    runnable) when the match starts: a failure, not a crash."""
    prog = tmp_path / "bot.sh"
    prog.write_text("#!/bin/sh\nexit 0\n")
    prog.chmod(0o755)
    from sandbox.config import scenario_from_dict
    sc = scenario_from_dict({"game": "goofspiel", "game_params": {"num_cards": 3}, "players": [
        {"controller": "process", "command": [str(prog)]}, {"controller": "random"}]})
    os.unlink(prog)
    _, replay, _ = play_recorded(sc, tmp_path)
    assert [failures(replay, t) for t in range(3)] == [[(0, "spawn")], [(0, "exit")],
                                                       [(0, "exit")]]


def test_a_bot_that_does_not_read_fails_in_time(tmp_path):
    """deaf.py never reads: the large maze's ~10 KB turn messages fill the
    pipe within a few turns, and that turn's write gives up at its deadline
    (a "write" failure: the input is out of step, so the bot is stopped)."""
    sc = bot_scenario("deaf", game="maze", game_params={"size": "large", "maze_seed": 1},
                      timeout_ms=TIMEOUT_MS, first_turn_ms=400)
    sc = sc.with_overrides(max_turns=25)
    _, replay, seconds = play_recorded(sc, tmp_path)
    kinds = [failures(replay, t) for t in range(25)]
    first_write = next(t for t, k in enumerate(kinds) if k == [(0, "write")])
    assert all(k == [(0, "timeout")] for k in kinds[:first_write])
    assert all(k == [(0, "exit")] for k in kinds[first_write + 1:])
    assert seconds[0] < 0.4 + SLACK_S
    assert all(s < TIMEOUT_MS / 1000 + SLACK_S for s in seconds[1:]), max(seconds)


def test_memory_mb_limits_the_bot(tmp_path):
    sc = bot_scenario("memory_hog", timeout_ms=2000, first_turn_ms=5000, memory_mb=200)
    _, replay, _ = play_recorded(sc, tmp_path)
    assert failures(replay, 0) == []
    assert failures(replay, 1) == [(0, "exit")]
    assert "exited with status 1" in replay.by_turn[1].players[0].bot.failures[0].detail


def test_cpu_s_limits_the_bot(tmp_path):
    sc = bot_scenario("cpu_hog", timeout_ms=30_000, first_turn_ms=30_000, cpu_s=1)
    _, replay, seconds = play_recorded(sc, tmp_path)
    assert failures(replay, 1) == [(0, "exit")]
    assert "SIGXCPU" in replay.by_turn[1].players[0].bot.failures[0].detail \
        or "SIGKILL" in replay.by_turn[1].players[0].bot.failures[0].detail
    # killed by its CPU limit (1 s of CPU, a few s of wall time on a loaded
    # machine), long before the 30 s timeout
    assert seconds[1] < 15.0


def test_stray_output_after_an_answer_is_dropped(tmp_path):
    sc = bot_scenario("chatty", timeout_ms=1000, first_turn_ms=5000)
    _, replay, _ = play_recorded(sc, tmp_path)
    for t in range(5):
        assert failures(replay, t) == [], t
        assert replay.by_turn[t].joint[0] == legal_at(replay, t, 0)[-1]


def test_closing_mid_turn_does_not_wait_for_the_deadline():
    """A match closed while its bot thinks (the app's quit, a restart)
    ends at once, not when the bot's turn would have timed out."""
    from sandbox.sim.match import Match
    sc = bot_scenario("silent", timeout_ms=20_000, first_turn_ms=20_000)
    m = Match(sc)
    m.start_turn()
    time.sleep(0.2)
    bot = m.controllers[0].bot
    t0 = time.monotonic()
    m.close()
    assert time.monotonic() - t0 < 2.0
    assert bot.returncode is not None


def test_a_damaged_bot_record_is_dropped_not_trusted(tmp_path):
    """Turn lines whose forfeits or failures name agents the match does not
    have (or another player's) are damaged: the reader drops them, with a
    warning, like any other line that cannot belong to the match."""
    import json
    from sandbox.replay import read_replay
    sc = bot_scenario("garbage", timeout_ms=TIMEOUT_MS, first_turn_ms=5000)
    play_recorded(sc, tmp_path)
    lines = [json.loads(x) for x in (tmp_path / "m.jsonl").read_text().splitlines()]
    lines[2]["forfeits"] = [7]
    lines[3]["players"][0]["bot"]["failures"] = [{"agent": 1, "kind": "timeout", "detail": "x"}]
    lines[4]["players"][0]["bot"]["debug"] = {"message": "\x1b[2J"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = read_replay(bad)
    assert [t.turn for t in r.turns] == [0, 4]    # turns 1-3 dropped
    whys = [str(d) for d in r.dropped]
    assert len(whys) == 3, whys
    assert "forfeits: agent 7 outside 0..1" in whys[0]
    assert "failure of another player's agent" in whys[1]
    assert "debug" in whys[2]


def test_replay_stats_counts_a_bots_answers_and_failures(tmp_path):
    from sandbox.replay import compute_stats
    sc = bot_scenario("garbage", timeout_ms=TIMEOUT_MS, first_turn_ms=5000,
                      on_failure="eliminate")
    _, replay, _ = play_recorded(sc, tmp_path)
    st = compute_stats(replay)
    b = st.bots["Bot"]
    assert b["answers"] == 1 and b["failed_turns"] == 1
    assert b["failures"] == {"garbage": 1} and b["forfeited_turn"] == 1
    assert "bot Bot: 1 answers" in st.text() and "forfeited at turn 1" in st.text()
    assert st.to_dict()["bots"]["Bot"]["failures"] == {"garbage": 1}


def test_stdout_without_end_holds_no_turn(tmp_path):
    sc = bot_scenario("stdout_flood", timeout_ms=TIMEOUT_MS, first_turn_ms=5000)
    _, replay, seconds = play_recorded(sc, tmp_path)
    assert failures(replay, 0) == []
    for t in range(1, 5):      # the flood's lines are no answers (or none came in time)
        assert failures(replay, t) in ([(0, "garbage")], [(0, "timeout")]), t
    assert all(s < TIMEOUT_MS / 1000 + SLACK_S for s in seconds[1:]), seconds


@pytest.mark.skipif(not USE_KEEPER, reason="the bot's keeper (Linux) is off here")
def test_nothing_the_bot_started_outlives_the_match_not_even_in_a_session_of_its_own(tmp_path):
    """A child in a new session and a daemonised grandchild (double fork,
    setsid) leave the bot's process group; they die with the match all the
    same."""
    pid_file = tmp_path / "pids"
    sc = bot_scenario("setsid_escape", timeout_ms=1000, first_turn_ms=10_000,
                      env={"PID_FILE": str(pid_file)})
    _, replay, _ = play_recorded(sc, tmp_path)
    assert all(failures(replay, t) == [] for t in range(5))
    pids = [int(x) for x in pid_file.read_text().split()]
    assert len(pids) == 3
    try:
        deadline = time.monotonic() + 3
        while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert all(_gone(p) for p in pids), [p for p in pids if not _gone(p)]
    finally:
        for p in pids:                        # never leave them running
            try:
                os.kill(p, 9)
            except OSError:
                pass


def test_stats_takes_a_forfeit_for_what_it_is_not_an_edited_result(tmp_path, monkeypatch):
    """A bot that would have won on points forfeits on the last turn: the
    result ranks it last, and `replay stats` must agree (it used to call the
    result line edited)."""
    from sandbox.replay.checks import consistency_warnings
    monkeypatch.setenv("HANG_AT", "4")
    sc = bot_scenario("hangs", timeout_ms=TIMEOUT_MS, first_turn_ms=5000,
                      on_failure="eliminate")
    result, replay, _ = play_recorded(sc, tmp_path)
    assert replay.by_turn[4].forfeits == [0] and result.ranking == (1, 0)
    with Game(replay.header.game, replay.header.game_params, seed=replay.header.seed) as g:
        for line in replay.turns:
            g.step(line.joint)
        assert g.ranking() == [0, 1]           # on points the bot won
    assert verify(replay).ok
    assert not any("edited" in w for w in consistency_warnings(replay)), \
        consistency_warnings(replay)


def test_stats_does_not_call_a_bots_default_moves_a_persons(tmp_path):
    from sandbox.replay.stats import compute_stats
    sc = bot_scenario("crash", timeout_ms=TIMEOUT_MS, first_turn_ms=5000)
    _, replay, _ = play_recorded(sc, tmp_path)
    assert failures(replay, 1) == [(0, "exit")]
    text = compute_stats(replay).text()
    assert "person" not in text, text


def test_the_bot_starts_with_no_signal_ignored(tmp_path):
    """Whatever the sandbox (or the bot's keeper) ignores itself, the bot's
    program starts with every signal at its default, as from a shell: the
    only ones it may find ignored are those the test run itself was started
    with ignored (SIGHUP under nohup), which a shell would pass on too."""
    out = tmp_path / "sigign"
    from sandbox.config import scenario_from_dict
    sc = scenario_from_dict({"game": "goofspiel", "game_params": {"num_cards": 3}, "players": [
        {"controller": "process", "timeout_ms": 2000, "first_turn_ms": 10_000,
         "command": ["sh", "-c", f"grep SigIgn /proc/$$/status > {out}; exec cat"]},
        {"controller": "random"}]})
    play_recorded(sc, tmp_path)
    ignored = int(out.read_text().split()[1], 16)
    assert ignored & ~_given_ignored() == 0, f"{ignored:#x}"


def _given_ignored() -> int:
    """The signals this test run was started with ignored, as a SigIgn
    mask, less those Python ignores for itself (SIGPIPE, SIGXFSZ): a parent's
    choice a bot may inherit."""
    import signal
    mask = 0
    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
                signal.SIGALRM, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
        if signal.getsignal(sig) == signal.SIG_IGN:
            mask |= 1 << (sig - 1)
    return mask
