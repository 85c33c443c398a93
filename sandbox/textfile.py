"""Reading the small text files users hand us (scenarios, agent files, maze
and map layouts) without trusting what the path names."""
from __future__ import annotations

import os
import stat


class TextFileProblem(ValueError):
    """Why a file was not read (one line, without the path: callers name it
    their own way)."""


def read_small_text(path: str | os.PathLike, limit: int) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes. Anything
    else is refused: a FIFO would block until a writer comes, a device such
    as /dev/zero never ends, and a size from stat() says nothing for either,
    so at most limit + 1 bytes are ever read. OSError and UnicodeDecodeError
    pass through for the caller's message."""
    # opened without blocking, then checked on the open file: a check by
    # name first would leave a moment to swap a FIFO in
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise TextFileProblem(kind)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TextFileProblem(f"larger than {limit:,} bytes")
    return data.decode("utf-8")
