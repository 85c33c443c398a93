"""Regenerate the damaged-replay corpus, tests/data/replays_bad/.

    python tools/make_bad_replays.py            # rewrites the folder

Plays short real matches (snakes, goofspiel, matrix, depthbias, maze, pods in
the csb and the pymunk world; iteration budgets, so the moves are
reproducible), records them, then writes one damaged copy
per case below and EXPECTED.toml: for each file, what `python -m sandbox
replay verify FILE` and `... replay stats FILE` must do (exit status, the
error line's fragment, the warning lines' fragments). tests/test_corpus.py
runs them. A new game or replay format adds its own cases here.

The damage is applied to fixed turns (2, 3, 4 ...) so the expected messages
do not depend on how a match went; the files are committed, so a change of
the search algorithm does not change them (only a change of a game's rules
or state layout would, and then this script rebuilds them).
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # this checkout's sandbox, not an installed one

from sandbox.config import Budget, scenario_from_dict  # noqa: E402
from sandbox.replay import Recorder  # noqa: E402
from sandbox.sim.match import Match  # noqa: E402

OUT = ROOT / "tests" / "data" / "replays_bad"
CREATED = "2025-01-01T00:00:00+00:00"     # a fixed stamp: regenerating changes less

MATCHES = {
    "snakes": {"name": "corpus snakes", "game": "snakes",
               "game_params": {"width": 7, "height": 7, "snakes": 2}, "seed": 3,
               "max_turns": 12, "players": [{"name": "A"}, {"name": "B"}]},
    "goofspiel": {"name": "corpus goofspiel", "game": "goofspiel",
                  "game_params": {"num_cards": 5}, "seed": 3,
                  "players": [{"name": "A"}, {"name": "B"}]},
    "matrix": {"name": "corpus matrix", "game": "matrix",
               "game_params": {"preset": "biased_rps", "repeats": 4}, "seed": 3,
               "players": [{"name": "A"}, {"name": "B"}]},
    "depthbias": {"name": "corpus depthbias", "game": "depthbias", "game_params": {},
                  "seed": 3, "players": [{"name": "A"}]},
    "maze": {"name": "corpus maze", "game": "maze",
             "game_params": {"size": "tiny", "max_turns": 8}, "seed": 3,
             "players": [{"name": "A"}, {"name": "B"}]},
    "pods": {"name": "corpus pods", "game": "pods",
             "game_params": {"map": "oval", "max_turns": 8}, "seed": 3,
             "players": [{"name": "A", "agents": [0, 1]},
                         {"name": "B", "agents": [2, 3], "controller": "bot"}]},
    # the pymunk world: every turn line stores its state (not re-simulated)
    "pods_pymunk": {"name": "corpus pods pymunk", "game": "pods", "physics": "pymunk",
                    "game_params": {"map": "oval", "max_turns": 8}, "seed": 3,
                    "players": [{"name": "A", "agents": [0, 1]},
                                {"name": "B", "agents": [2, 3], "controller": "bot"}]},
    # free moves: team A's pods steered to points (FreeMove), as a person or
    # an outside bot does; the turn lines hold them in `free`
    "pods_free": {"name": "corpus pods free", "game": "pods",
                  "game_params": {"map": "oval", "max_turns": 8}, "seed": 3,
                  "players": [{"name": "A", "agents": [0, 1], "controller": "bot"},
                              {"name": "B", "agents": [2, 3], "controller": "bot"}]},
}


# process players (docs/bots.md): their turn lines hold a `bot` record
# (latency_ms, failures, debug) and, on a forfeit, `forfeits`. The bots are
# tests/data/bots' (answers with a debug object; garbage on turn 1)
BOT_DIR = ROOT / "tests" / "data" / "bots"


def _bot(name: str, **more) -> dict:
    return {"name": "Bot", "controller": "process", "timeout_ms": 5000,
            "first_turn_ms": 20000, "command": [sys.executable, str(BOT_DIR / f"{name}.py")],
            **more}


MATCHES["bots"] = {"name": "corpus bots", "game": "goofspiel", "game_params": {"num_cards": 5},
                   "seed": 3, "players": [_bot("by_name"), {"name": "B"}]}
MATCHES["bots_forfeit"] = {"name": "corpus bots forfeit", "game": "goofspiel",
                           "game_params": {"num_cards": 5}, "seed": 3,
                           "players": [_bot("garbage", on_failure="eliminate"), {"name": "B"}]}


def free_moves(view, turn: int) -> dict:
    """Team A's free moves on a turn of the pods_free match: toward the next
    checkpoint at 150, pod 0 boosting on turn 1, pod 1 shielding on turn 3."""
    from sandbox.native import FreeMove
    out = {}
    for a in (0, 1):
        x, y = view.checkpoints[view.pods[a].next_cp]
        out[a] = FreeMove(x, y, 150)
    if turn == 1:
        out[0] = FreeMove.boost(*view.checkpoints[view.pods[0].next_cp])
    if turn == 3:
        out[1] = FreeMove.shield(*view.checkpoints[view.pods[1].next_cp])
    return out


def record(kind: str, directory: Path) -> list[str]:
    """A real recorded match of `kind`, as its lines (no newlines)."""
    sc = scenario_from_dict(MATCHES[kind], source=kind)
    rec = Recorder(directory, name_hint=f"corpus-{kind}")
    with Match(sc, budget=Budget(iterations=100, ms=0), recorder=rec) as m:
        if kind == "pods_free":
            while not m.over:
                m.start_turn()
                m.complete_turn(overrides=free_moves(m.world.view(), m.turn))
        else:
            m.play()
    rec.close()
    lines = rec.path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["created"] = CREATED
    for p in header["scenario"]["players"]:
        if p.get("command"):       # no path of this machine in a committed file
            p["command"] = ["python3", Path(p["command"][-1]).name]
            p["cwd"] = "."
    return [json.dumps(header, separators=(",", ":"))] + lines[1:]


# ------------------------------------------------------------- the damage
Lines = list  # list[str]; a case may put bytes in it (non-UTF-8)


def edit(lines: Lines, index: int, fn: Callable[[dict], None]) -> None:
    obj = json.loads(lines[index])
    fn(obj)
    lines[index] = json.dumps(obj, separators=(",", ":"))   # NaN stays NaN


def turn_index(lines: Lines, turn: int) -> int:
    return next(i for i, x in enumerate(lines)
                if isinstance(x, str) and f'"type":"turn","turn":{turn},' in x)


def set_in_turn(turn: int, fn: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        edit(lines, turn_index(lines, turn), fn)
        return lines
    return damage


def set_in_header(fn: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        edit(lines, 0, fn)
        return lines
    return damage


def set_in_result(fn: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        edit(lines, len(lines) - 1, fn)
        return lines
    return damage


def contradict_winner(r: dict) -> None:
    """A winner its own ranking does not put first (alone)."""
    best = [a for a, k in enumerate(r["ranking"]) if k == 0]
    r["winner"] = (best[0] + 1) % len(r["ranking"]) if len(best) == 1 else best[0]


DEEP = 5000


@dataclass
class Case:
    name: str
    source: str                                   # which match
    what: str
    damage: Callable[[Lines], Lines]
    verify: dict = field(default_factory=dict)    # exit, error | out, warnings
    stats: dict = field(default_factory=dict)
    raw_tail: bool = True                         # end the file with a newline


def warned_turn(name: str, source: str, what: str, turn: int, fn: Callable[[dict], None],
                *warnings: str) -> Case:
    """The commonest damage: one field of one turn line made invalid. verify
    drops that line with a warning saying why, so the turn is missing from
    the file; stats reads on, with the same warning."""
    return Case(name, source, what, set_in_turn(turn, fn),
                verify={"exit": 1, "error": f"turn {turn}: missing from the file",
                        "warnings": list(warnings)},
                stats={"exit": 0, "warnings": list(warnings)})


def torn_result(lines):
    lines[-1] = lines[-1][: len(lines[-1]) // 2]
    return lines


def torn_turn(lines):
    lines.pop()                                   # the result line never came
    lines[-1] = lines[-1][:120]
    return lines


def garbage(lines):
    lines.insert(3, "garbage {{{ not json")
    lines.insert(6, b"\xff\xfe\x00 binary")
    lines.insert(8, "[1, 2, 3]")
    return lines


def swap_turns(lines):
    a, b = turn_index(lines, 3), turn_index(lines, 4)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def repeat_turn(lines):
    i = turn_index(lines, 2)
    lines.insert(i + 1, lines[i])
    return lines


def header_only(lines):
    return lines[:1]


def deep_line(lines):
    lines.insert(4, '{"type":"turn","x":' + "[" * DEEP + "]" * DEEP + "}")
    return lines


def deep_header(lines):
    lines[0] = lines[0][:-1] + ',"x":' + '{"a":' * DEEP + "1" + "}" * DEEP + "}"
    return lines


def no_header(lines):
    return lines[1:]


def extra_move(lines):
    edit(lines, turn_index(lines, 5), lambda t: t["joint"].append(0))
    return lines


def second_result(lines):
    lines.append(lines[-1])
    return lines


def absurd(lines):
    def f(t):
        t["players"][0]["iterations"] = -5
        t["players"][1]["search_ms"] = float("inf")
    edit(lines, turn_index(lines, 2), f)
    return lines


CASES = [
    Case("torn_last_line.jsonl", "snakes", "the result line cut in half (a crash while writing)",
         torn_result,
         verify={"exit": 0, "out": "12 turns verified (no result line",
                 "warnings": ["torn last line (no newline)"]},
         stats={"exit": 0, "warnings": ["torn last line (no newline)"]}, raw_tail=False),
    Case("torn_turn_line.jsonl", "snakes", "the last turn line cut, no result line",
         torn_turn,
         verify={"exit": 0, "out": "11 turns verified (no result line",
                 "warnings": ["torn last line"]},
         stats={"exit": 0, "warnings": ["torn last line"]}, raw_tail=False),
    Case("garbage_lines.jsonl", "snakes", "garbage, binary and a JSON array among the lines",
         garbage,
         verify={"exit": 1, "error": "but 3 damaged lines dropped: not the file that was recorded",
                 "warnings": ["dropped 3 lines (line 4: not JSON; line 7: not UTF-8 text; "
                              "line 9: not a JSON object)"]},
         stats={"exit": 0, "warnings": ["dropped 3 lines"]}),
    Case("other_format.jsonl", "snakes", "a header of another format",
         set_in_header(lambda h: h.update(format="chess-pgn")),
         verify={"exit": 1, "error": "not a sandbox-replay file (format 'chess-pgn')"},
         stats={"exit": 1, "error": "not a sandbox-replay file (format 'chess-pgn')"}),
    Case("unsupported_version.jsonl", "snakes", "format version 99",
         set_in_header(lambda h: h.update(version=99)),
         verify={"exit": 1, "error": "replay format version 99 is not supported (this build "
                                     "reads version 1)"},
         stats={"exit": 1, "error": "replay format version 99 is not supported"}),
    Case("version_true.jsonl", "snakes", "format version true (a bool is no version)",
         set_in_header(lambda h: h.update(version=True)),
         verify={"exit": 1, "error": "replay format version True is not supported"},
         stats={"exit": 1, "error": "replay format version True is not supported"}),
    Case("header_names_vs_num_agents.jsonl", "snakes", "three names for two agents",
         set_in_header(lambda h: h["names"].append("C")),
         verify={"exit": 1, "error": "line 1: invalid header: names: 3 entries, but num_agents "
                                     "is 2"},
         stats={"exit": 1, "error": "names: 3 entries, but num_agents is 2"}),
    Case("header_agent_owned_twice.jsonl", "snakes", "both players own agent 0",
         set_in_header(lambda h: h["players"][1].update(agents=[0, 1])),
         verify={"exit": 1, "error": "players: agent 0 belongs to player 0 and to player 1"},
         stats={"exit": 1, "error": "agent 0 belongs to player 0 and to player 1"}),
    Case("turns_out_of_order.jsonl", "snakes", "turn lines 3 and 4 swapped",
         swap_turns,
         verify={"exit": 1, "error": "turn 3: missing from the file",
                 "warnings": ["turn 3 out of order or repeated (expected 5)"]},
         stats={"exit": 0, "warnings": ["turn 3 out of order or repeated"]}),
    Case("turn_repeated.jsonl", "snakes", "turn 2's line written twice",
         repeat_turn,
         verify={"exit": 1, "error": "but 1 damaged line dropped: not the file that was recorded",
                 "warnings": ["turn 2 out of order or repeated (expected 3)"]},
         stats={"exit": 0, "warnings": ["turn 2 out of order or repeated"]}),
    Case("turn_wrong_agent_count.jsonl", "snakes", "turn 5 plays three moves for two agents",
         extra_move,
         verify={"exit": 1, "error": "turn 5: missing from the file",
                 "warnings": ["turn 5: 3 moves for 2 agents"]},
         stats={"exit": 0, "warnings": ["turn 5: 3 moves for 2 agents"]}),
    Case("result_contradicts_ranking.jsonl", "snakes", "a winner its ranking does not put first",
         set_in_result(contradict_winner),
         verify={"exit": 1, "error": "result line: ranking"},
         stats={"exit": 0, "warnings": ["result line: winner is agent", "but its ranking"]}),
    Case("result_after_result.jsonl", "snakes", "the result line written twice",
         second_result,
         verify={"exit": 1, "error": "but 1 damaged line dropped: not the file that was recorded",
                 "warnings": ["result line after the result line"]},
         stats={"exit": 0, "warnings": ["result line after the result line"]}),
    Case("forged_name_escape.jsonl", "snakes", "a player's name holds a screen-clear escape "
         "and a forged result line",
         set_in_header(lambda h: h["names"].__setitem__(0, "\x1b[2J\nresult: winner=1")),
         verify={"exit": 1, "error": "names[0]: has a control character (U+001B)"},
         stats={"exit": 1, "error": "names[0]: has a control character (U+001B)"}),
    Case("forged_name_bidi.jsonl", "snakes", "a scenario player's name with a right-to-left "
         "override",
         set_in_header(lambda h: h["scenario"]["players"][1].__setitem__("name", "\u202eB")),
         verify={"exit": 1, "error": "scenario.players[1].name: has a bidirectional"},
         stats={"exit": 1, "error": "scenario.players[1].name: has a bidirectional"}),
    Case("nan_scores.jsonl", "snakes", "turn 2's scores are NaN",
         set_in_turn(2, lambda t: t.update(scores=[float("nan")] * len(t["scores"]))),
         verify={"exit": 1, "error": "turn 2: recorded score of agent 0 is nan"},
         stats={"exit": 0, "warnings": ["turn 2: scores of agent 0 is nan"]}),
    Case("absurd_figures.jsonl", "snakes", "negative iterations, infinite search time",
         absurd,
         verify={"exit": 0, "out": "12 turns verified (complete match, stopped at its turn limit with the game not over)"},
         stats={"exit": 0, "warnings": ["turn 2: player 0: iterations -5 is absurd",
                                        "turn 2: player 1: search_ms is inf"]}),
    Case("wrong_hash.jsonl", "snakes", "turn 4's state hash changed",
         set_in_turn(4, lambda t: t.update(hash="0123456789abcdef")),
         verify={"exit": 1, "error": "turn 4: state hash differs (recorded 0123456789abcdef, "
                                     "replayed"},
         stats={"exit": 0}),
    Case("illegal_move.jsonl", "snakes", "turn 3 plays move 9",
         set_in_turn(3, lambda t: t["joint"].__setitem__(0, 9)),
         verify={"exit": 1, "error": "turn 3: recorded moves [9, "},
         stats={"exit": 0}),
    Case("initial_hash_tampered.jsonl", "snakes", "the header's initial hash changed",
         set_in_header(lambda h: h.update(initial_hash="00000000deadbeef")),
         verify={"exit": 1, "error": "initial state hash differs (recorded 00000000deadbeef"},
         stats={"exit": 0, "warnings": ["this build rebuilds another initial state"]}),
    Case("unknown_game_kind.jsonl", "snakes", "a replay of a game kind that does not exist",
         set_in_header(lambda h: h.update(game="chess")),
         verify={"exit": 1, "error": "cannot rebuild the game: unknown game kind 'chess'"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: unknown game kind 'chess'"]}),
    Case("game_params_no_longer_parse.jsonl", "snakes", "game_params the game refuses",
         set_in_header(lambda h: h.update(game_params=h["game_params"] + " width=99")),
         verify={"exit": 1, "error": "cannot rebuild the game: width"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: width"]}),
    Case("empty.jsonl", "snakes", "an empty file", lambda lines: [],
         verify={"exit": 1, "error": "empty file, not a replay"},
         stats={"exit": 1, "error": "empty file, not a replay"}, raw_tail=False),
    Case("header_only.jsonl", "snakes", "a header and nothing else", header_only,
         verify={"exit": 0, "out": "0 turns verified (no result line"},
         stats={"exit": 0, "warnings": ["no turn is recorded"]}),
    Case("no_header.jsonl", "snakes", "the header line lost", no_header,
         verify={"exit": 1, "error": "no valid replay header"},
         stats={"exit": 1, "error": "no valid replay header"}),
    Case("not_a_replay.jsonl", "snakes", "a text file",
         lambda lines: ["hello world", "this is not a replay"],
         verify={"exit": 1, "error": "not a replay file (line 1: not JSON)"},
         stats={"exit": 1, "error": "not a replay file (line 1: not JSON)"}),
    Case("deep_json_line.jsonl", "snakes", f"a line nested {DEEP} levels deep", deep_line,
         verify={"exit": 1, "error": "but 1 damaged line dropped: not the file that was recorded",
                 "warnings": ["line 5: JSON nested too deeply to read"]},
         stats={"exit": 0, "warnings": ["line 5: JSON nested too deeply to read"]}),
    Case("deep_json_header.jsonl", "snakes", f"the header nested {DEEP} levels deep",
         deep_header,
         verify={"exit": 1, "error": "no valid replay header (line 1: JSON nested too deeply"},
         stats={"exit": 1, "error": "no valid replay header (line 1: JSON nested too deeply"}),
    Case("goofspiel_num_cards_17.jsonl", "goofspiel", "goofspiel with 17 cards",
         set_in_header(lambda h: h.update(game_params="num_cards=17")),
         verify={"exit": 1, "error": "cannot rebuild the game: num_cards"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: num_cards"]}),
    Case("goofspiel_torn_last_line.jsonl", "goofspiel", "goofspiel, result line cut",
         torn_result,
         verify={"exit": 0, "out": "5 turns verified (no result line",
                 "warnings": ["torn last line"]},
         stats={"exit": 0, "warnings": ["torn last line"]}, raw_tail=False),
    Case("matrix_result_contradicts_ranking.jsonl", "matrix", "matrix, a winner its ranking "
         "does not put first", set_in_result(contradict_winner),
         verify={"exit": 1, "error": "result line: ranking"},
         stats={"exit": 0, "warnings": ["result line: winner is"]}),
    Case("matrix_illegal_move.jsonl", "matrix", "matrix, turn 1 plays action 7 of 3",
         set_in_turn(1, lambda t: t["joint"].__setitem__(1, 7)),
         verify={"exit": 1, "error": "turn 1: recorded moves"},
         stats={"exit": 0}),
    Case("depthbias_second_choice.jsonl", "depthbias", "depthbias, turn 1 chooses again "
         "(sprint) where only `go` is legal",
         set_in_turn(1, lambda t: t["joint"].__setitem__(0, 0)),
         verify={"exit": 1, "error": "turn 1: recorded moves [0]"},
         stats={"exit": 0}),
    Case("depthbias_min_above_max.jsonl", "depthbias", "depthbias with siege_min above "
         "siege_max", set_in_header(lambda h: h.update(game_params=h["game_params"]
                                                       + " siege_min=19")),
         verify={"exit": 1, "error": "cannot rebuild the game: siege_min=19 is greater than "
                                     "siege_max=18"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: siege_min=19"]}),
    Case("maze_illegal_move.jsonl", "maze", "maze, turn 1 plays move 9 of 5",
         set_in_turn(1, lambda t: t["joint"].__setitem__(0, 9)),
         verify={"exit": 1, "error": "turn 1: recorded moves"},
         stats={"exit": 0}),
    Case("maze_bad_size.jsonl", "maze", "maze of an unknown size",
         set_in_header(lambda h: h.update(game_params="size=gigantic")),
         verify={"exit": 1, "error": "cannot rebuild the game: size"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: size"]}),
    Case("pods_illegal_move.jsonl", "pods", "pods, turn 1 plays move 11 of 11",
         set_in_turn(1, lambda t: t["joint"].__setitem__(2, 11)),
         verify={"exit": 1, "error": "turn 1: recorded moves"},
         stats={"exit": 0}),
    Case("pods_unknown_map.jsonl", "pods", "pods on a map that does not exist",
         set_in_header(lambda h: h.update(game_params=h["game_params"] + " map=monaco")),
         verify={"exit": 1, "error": "cannot rebuild the game: map"},
         stats={"exit": 0, "warnings": ["cannot rebuild the game: map"]}),
    Case("pods_pymunk_state_tampered.jsonl", "pods_pymunk",
         "pods in the pymunk world, turn 3's stored state moved (its hash kept)",
         set_in_turn(3, lambda t: t["state"].__setitem__(-12, t["state"][-12] + 5)),
         verify={"exit": 1, "error": "turn 3: state hash differs"},
         stats={"exit": 0}),
    Case("pods_free_thrust_over_max.jsonl", "pods_free",
         "pods, turn 2: a free move's thrust 900 (max_thrust 200)",
         set_in_turn(2, lambda t: t["free"]["moves"][0].update(thrust=900)),
         verify={"exit": 1, "error": "thrust 900 is not a whole number in 0..200"},
         stats={"exit": 0}),
    Case("pods_free_target_moved.jsonl", "pods_free",
         "pods, turn 3: a free move's target moved (the hash kept)",
         set_in_turn(3, lambda t: t["free"]["moves"][0].update(x=t["free"]["moves"][0]["x"]
                                                               + 4000)),
         verify={"exit": 1, "error": "turn 3: state hash differs"},
         stats={"exit": 0}),
    warned_turn("pods_free_nan_target.jsonl", "pods_free", "pods, turn 2: a free move aims at NaN",
         2, lambda t: t["free"]["moves"][0].update(x=float("nan")),
         "x nan is not a finite coordinate"),
    warned_turn("pods_free_newer_version.jsonl", "pods_free",
         "pods, turn 2: free moves of a later version",
         2, lambda t: t["free"].update(version=2),
         "free: version 2 is not 1"),
    warned_turn("pods_free_wrong_count.jsonl", "pods_free", "pods, turn 4: five free entries",
         4, lambda t: t["free"]["moves"].append(None),
         "free: 5 entries for 4 agents"),
    warned_turn("pods_free_and_table_move.jsonl", "pods_free",
         "pods, turn 2: agent 0 has a free move and a table move",
         2, lambda t: t["joint"].__setitem__(0, 3),
         "free: agent 0 has a free move and table move 3"),
    Case("pods_free_field_lost.jsonl", "pods_free",
         "pods, turn 2 without its free moves (as an older reader sees it)",
         set_in_turn(2, lambda t: t.pop("free")),
         verify={"exit": 1, "error": "agent 0: no move given, but it is alive"},
         stats={"exit": 0}),
    # a process player's record (bot: latency, failures, debug; forfeits)
    warned_turn("bots_latency_negative.jsonl", "bots", "bots, turn 2: the answer took -5 ms",
         2, lambda t: t["players"][0]["bot"].update(latency_ms=-5),
         "latency_ms", "greater than or equal to 0"),
    warned_turn("bots_latency_nan.jsonl", "bots", "bots, turn 3: the answer took NaN ms",
         3, lambda t: t["players"][0]["bot"].update(latency_ms=float("nan")),
         "latency_ms", "finite number"),
    warned_turn("bots_latency_text.jsonl", "bots", "bots, turn 2: a latency that is text",
         2, lambda t: t["players"][0]["bot"].update(latency_ms="fast"),
         "latency_ms"),
    warned_turn("bots_failure_other_agent.jsonl", "bots",
         "bots, turn 2: a failure of the other player's agent",
         2, lambda t: t["players"][0]["bot"].update(
             failures=[{"agent": 1, "kind": "timeout", "detail": "no reply in time"}]),
         "records a failure of another player's agent"),
    warned_turn("bots_failure_kind_control.jsonl", "bots",
         "bots, turn 3: a failure kind with a terminal escape in it",
         3, lambda t: t["players"][0]["bot"].update(
             failures=[{"agent": 0, "kind": "time\u001b[2Jout", "detail": "x"}]),
         "kind"),
    warned_turn("bots_failures_not_a_list.jsonl", "bots", "bots, turn 2: failures as a string",
         2, lambda t: t["players"][0]["bot"].update(failures="timeout"),
         "failures"),
    warned_turn("bots_debug_not_an_object.jsonl", "bots", "bots, turn 2: debug is a list",
         2, lambda t: t["players"][0]["bot"].update(debug=[1, 2, 3]),
         "debug"),
    warned_turn("bots_debug_message_escape.jsonl", "bots",
         "bots, turn 3: a debug message that clears the terminal",
         3, lambda t: t["players"][0]["bot"]["debug"].update(
             message="\u001b[2J\u001b[Hhello"),
         "debug"),
    Case("bots_debug_too_deep.jsonl", "bots",
         "bots, turn 2: a debug object nested 5,000 levels deep",
         lambda lines: _deep_debug(lines, 2),
         verify={"exit": 1, "error": "turn 2: missing from the file",
                 "warnings": ["nested too deep"]},
         stats={"exit": 0, "warnings": ["nested too deep"]}),
    warned_turn("bots_forfeit_agent_out_of_range.jsonl", "bots_forfeit",
         "bots, turn 1: agent 7 forfeits in a 2-agent game",
         1, lambda t: t.update(forfeits=[7]),
         "forfeits: agent 7 outside 0..1"),
    Case("bots_forfeit_other_agent.jsonl", "bots_forfeit",
         "bots, turn 1: the forfeit moved to the winner (the ranking no longer follows)",
         set_in_turn(1, lambda t: t.update(forfeits=[1])),
         verify={"exit": 1, "error": "ranking"},
         stats={"exit": 0, "warnings": ["the result line was edited"]}),
    warned_turn("bots_forfeit_not_a_list.jsonl", "bots_forfeit",
         "bots, turn 1: forfeits as a number",
         1, lambda t: t.update(forfeits=0),
         "forfeits"),
    Case("pods_pymunk_state_missing.jsonl", "pods_pymunk",
         "pods in the pymunk world, turn 2 without its stored state",
         set_in_turn(2, lambda t: t.pop("state")),
         verify={"exit": 1, "error": "turn 2: no stored state"},
         stats={"exit": 0}),
]


def _deep_debug(lines: Lines, turn: int) -> Lines:
    i = turn_index(lines, turn)
    k = lines[i].index('"debug":') + len('"debug":')
    end = lines[i].index("}", k) + 1          # the debug object: no nested braces
    lines[i] = lines[i][:k] + "[" * 5000 + "]" * 5000 + lines[i][end:]
    return lines


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(value, ensure_ascii=False)   # strings, ints, lists: TOML spells them so


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        sources = {kind: record(kind, Path(tmp)) for kind in MATCHES}
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    expected = ["# The damaged-replay corpus, written by tools/make_bad_replays.py (edit the",
                "# cases there and rerun it). For each file: what `python -m sandbox replay",
                "# verify FILE` and `... replay stats FILE` do: the exit status; the one",
                "# `error:` line's fragment; every `warning:` line's fragments (none listed:",
                "# no warning); for verify's success, a fragment of its `ok:` line. `game`:",
                "# the game of the match it was made from (every game needs its own).",
                ""]
    for case in CASES:
        lines = case.damage(list(sources[case.source]))
        data = b"\n".join(x if isinstance(x, bytes) else x.encode("utf-8") for x in lines)
        if case.raw_tail and lines:
            data += b"\n"
        (OUT / case.name).write_bytes(data)
        expected += [f'["{case.name}"]', f"game = {_toml(case.source)}",
                     f"what = {_toml(case.what)}",
                     f"verify = {_toml(case.verify)}", f"stats = {_toml(case.stats)}", ""]
    (OUT / "EXPECTED.toml").write_text("\n".join(expected), encoding="utf-8")
    print(f"wrote {len(CASES)} damaged replays and EXPECTED.toml to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
