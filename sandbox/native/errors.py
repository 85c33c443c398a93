"""The sandbox's exception hierarchy, and the one place C status codes become
exceptions."""
from __future__ import annotations


class SandboxError(Exception):
    """Base of every error the sandbox raises on purpose."""


class InvalidArgument(SandboxError, ValueError):
    """A bad argument or parameter value (C: SBX_ERR_ARGUMENT)."""


class InvalidState(SandboxError, RuntimeError):
    """The call is not valid in the object's current state (C: SBX_ERR_STATE)."""


class ClosedError(InvalidState):
    """The object was closed; its C memory is gone."""


class OutOfMemory(SandboxError, MemoryError):
    """The C core could not allocate (C: SBX_ERR_MEMORY)."""


class InternalError(SandboxError):
    """A broken invariant inside the core: a bug (C: SBX_ERR_INTERNAL)."""


_BY_CODE: dict[int, type[SandboxError]] = {
    -1: InvalidArgument,
    -2: InvalidState,
    -3: OutOfMemory,
    -4: InternalError,
}


def error_for(code: int, message: str) -> SandboxError:
    cls = _BY_CODE.get(code, InternalError)
    return cls(message or f"C core returned status {code}")
