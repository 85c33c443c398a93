"""verify(): re-simulate a replay from its header and check every state hash.

A pods race in the pymunk world (scenario physics = "pymunk") is not
re-simulated (pymunk is not the C model): each turn's joint action is still
played on the C game (an illegal move is caught), then the state the turn
line stored is imported, and that state must have the turn's hash, alive
flags and scores; the checks below are the same from there.

The game is rebuilt from (kind, effective parameter string, match seed), its
initial hash compared with the header's, then every recorded joint action
(with the turn's free moves, where agents played some) is played and the hash after each step compared with the turn line's, and so
are the figures the turn line states about the new state (who is alive, the
evaluation scores); at the end the result line's ranking and winner are
compared with the replayed game's. The first difference, an illegal recorded
move or a missing turn ends the check.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..native import SandboxError
from .errors import ReplayError
from .format import hash_hex
from .reader import Replay
from .recorder import SCORE_DECIMALS
from ..sim.records import forfeit_ranking


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    turns_checked: int             # turn lines whose hash matched
    first_divergence: int | None   # the first turn that did not replay as recorded
    message: str                   # one line
    problem: str = ""              # "" | "initial" | "hash" | "illegal" | "missing" |
                                   # "figures" | "result" | "state" (a stored state
                                   # missing, refused or of another turn)
    recorded: str | None = None    # the hashes that differ
    replayed: str | None = None


def verify(replay: Replay) -> VerifyReport:
    h = replay.header
    try:
        game = replay.new_game(check=False)
    except ReplayError as exc:
        # new_game's message starts with the file name; a report's message
        # does not (the caller adds it: `error: FILE: ...`, not FILE twice)
        msg = str(exc).removeprefix(f"{replay.path}: ")
        return VerifyReport(False, 0, h.start_turn, msg, "initial")
    with game:
        got = hash_hex(game.state_hash())
        if got != h.initial_hash:
            return VerifyReport(False, 0, h.start_turn,
                                f"initial state hash differs (recorded {h.initial_hash}, "
                                f"rebuilt {got}): another game build or tampered header",
                                "initial", h.initial_hash, got)
        checked = 0
        forfeits: dict[int, int] = {}
        for line in replay.turns:
            for a in line.forfeits:
                forfeits.setdefault(a, line.turn)
            t = game.turn
            if line.turn != t:
                return VerifyReport(False, checked, t, f"turn {t}: missing from the file "
                                    f"(dropped or never written); cannot check further",
                                    "missing")
            try:
                game.step(line.played())
            except SandboxError as exc:
                return VerifyReport(False, checked, t,
                                    f"turn {t}: recorded moves {_joint(line.played())} cannot be "
                                    f"played: {exc}", "illegal")
            if replay.stored_states:
                # not re-simulated (a pymunk world): the state the turn stored
                # replaces C's step, and must be the one its hash names
                problem = _take_stored(game, line)
                if problem:
                    return VerifyReport(False, checked, t, f"turn {t}: {problem}", "state")
            got = hash_hex(game.state_hash())
            if got != line.hash:
                return VerifyReport(False, checked, t,
                                    f"turn {t}: state hash differs (recorded {line.hash}, "
                                    f"replayed {got})", "hash", line.hash, got)
            # The same state, so the same figures: a turn line whose alive
            # flags or scores differ (a NaN, an edited number) was tampered with.
            alive = game.alive
            if list(line.alive) != alive:
                return VerifyReport(False, checked, t, f"turn {t}: recorded alive "
                                    f"{_flags(line.alive)} differ from the replayed "
                                    f"{_flags(alive)}", "figures")
            # rounded as the recorder rounds them, then compared exactly
            scores = [round(float(x), SCORE_DECIMALS) for x in game.evaluate()]
            if list(line.scores) != scores:
                a = next(a for a, (x, y) in enumerate(zip(line.scores, scores)) if x != y)
                return VerifyReport(False, checked, t, f"turn {t}: recorded score of agent {a} "
                                    f"is {line.scores[a]!r}, the replayed state scores "
                                    f"{scores[a]!r}", "figures")
            checked += 1
        r = replay.result
        if r is not None:
            final = hash_hex(game.state_hash())
            if r.turns != game.turn or r.final_hash != final:
                return VerifyReport(False, checked, game.turn,
                                    f"result line: turns {r.turns}, final hash {r.final_hash}; "
                                    f"replayed turns {game.turn}, final hash {final}", "result",
                                    r.final_hash, final)
            ranking = game.ranking()
            if forfeits:    # a player that forfeited ranks below the rest
                ranking = list(forfeit_ranking(ranking, forfeits))
            best = [a for a, k in enumerate(ranking) if k == 0]
            winner = best[0] if len(best) == 1 else None
            if list(r.ranking) != ranking or r.winner != winner:
                return VerifyReport(False, checked, game.turn,
                                    f"result line: ranking {list(r.ranking)}, winner "
                                    f"{_who(r.winner)}; the replayed game ranks {ranking}, "
                                    f"winner {_who(winner)}", "result")
            if bool(r.terminal) != bool(game.is_terminal):
                # the description below rests on it: check it, not trust it
                return VerifyReport(False, checked, game.turn,
                                    f"result line: terminal {str(r.terminal).lower()}; the "
                                    f"replayed game is {'' if game.is_terminal else 'not '}over",
                                    "result")
    what = ("no result line: the match did not finish" if r is None else
            "complete match" if r.terminal else
            "complete match, stopped at its turn limit with the game not over")
    return VerifyReport(True, checked, None, f"{checked} turns verified ({what})")


def _take_stored(game, line) -> str:
    """Imports a turn line's stored state; what is wrong with it, or ""."""
    if line.state is None:
        return "no stored state (a pymunk world is verified against its stored states)"
    try:
        game.import_state(line.state)
    except SandboxError as exc:
        return f"the stored state is refused: {exc}"
    if game.turn != line.turn + 1:
        return f"the stored state is turn {game.turn}, not {line.turn + 1}"
    return ""


def _flags(alive) -> str:
    return "".join("1" if a else "0" for a in alive)


def _who(agent: int | None) -> str:
    return "none" if agent is None else str(agent)


def _joint(joint) -> str:
    return "[" + ", ".join("-" if m is None else str(m) if isinstance(m, int) else
                           f"'{m.text()}'" for m in joint) + "]"
