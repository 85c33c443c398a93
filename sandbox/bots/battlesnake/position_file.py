"""A start position from a file: the body of a Battlesnake /move request
(the official game-state object), as a snakes state to start a match or an
analysis from (`--start-position FILE.json`)."""
from __future__ import annotations

import os
from pathlib import Path

from ...native import InvalidArgument
from ...textfile import TextFileProblem, read_small_text
from ...games.base import StartPosition
from .convert import position
from .schema import MalformedState, Unsupported, parse_body, read_state

MAX_POSITION_BYTES = 1 << 20


def read_position(path: str | os.PathLike) -> StartPosition:
    """InvalidArgument (one line naming the file) for a file that is not a
    game-state object we model."""
    p = Path(path)
    try:
        text = read_small_text(p, MAX_POSITION_BYTES)
    except TextFileProblem as exc:
        raise InvalidArgument(f"{p}: {exc}: cannot be a start position") from None
    except UnicodeDecodeError as exc:
        raise InvalidArgument(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InvalidArgument(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        st = read_state(parse_body(text))
        pos = position(st)
    except (MalformedState, Unsupported) as exc:
        raise InvalidArgument(f"{p}: {exc}") from None
    you = pos.you
    notes = (f"{p.name}: turn {st.turn}, {len(st.snakes)} snakes on {st.width}x{st.height}; "
             f"'you' ({st.you.name or st.you.id}) is agent {you}",)
    return StartPosition(game_params=pos.game_params, words=pos.words, turn=st.turn,
                         notes=notes)
