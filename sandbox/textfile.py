"""Reading the small text files users hand us (scenarios, agent files, maze
and map layouts) without trusting what the path names."""
from __future__ import annotations

import os
import stat
from typing import BinaryIO


class TextFileProblem(ValueError):
    """Why a file was not read (one line, without the path: callers name it
    their own way)."""


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """A regular file opened for binary reading; anything else is refused
    with TextFileProblem before a byte is read. A FIFO would block until a
    writer comes and a device such as /dev/zero never ends, so the file is
    opened without blocking and checked on the open descriptor (a check by
    name first would leave a moment to swap a FIFO in). OSError passes
    through for the caller's message."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise TextFileProblem(_kind(st.st_mode))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    return "not a regular file"


def read_small_text(path: str | os.PathLike, limit: int) -> str:
    """The UTF-8 text of a regular file (open_regular) of at most `limit`
    bytes: a size from stat() proves nothing, so at most limit + 1 bytes are
    ever read. OSError and UnicodeDecodeError pass through for the caller's
    message."""
    with open_regular(path) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TextFileProblem(f"larger than {limit:,} bytes")
    # utf-8-sig: a byte-order mark some editors write is not text (TOML
    # would call it a syntax error at line 1, column 1)
    return data.decode("utf-8-sig")
