"""The replay package's error."""
from __future__ import annotations

from ..native import SandboxError


class ReplayError(SandboxError):
    """A replay that cannot be written, read or played back; the message is
    one line naming the file."""
