"""cffi builder for the sandbox's C core (out-of-line API mode).

The cdef is the block of native/include/sbx.h between SBX_CDEF_BEGIN and
SBX_CDEF_END, so the C sources and cffi read one and the same header.
setup.py wires this in with cffi_modules=["native/build_ffi.py:ffibuilder"].
"""
from __future__ import annotations

import os
import pathlib
import re

from cffi import FFI

HERE = pathlib.Path(__file__).resolve().parent
HEADER = HERE / "include" / "sbx.h"
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in (HERE / "src").rglob("*.c"))
# every header: setuptools rebuilds only when a source or one of these is
# newer than the library, and a struct changed in a header alone (a node's
# layout in search.h, a field in sbx.h) would otherwise leave stale objects
HEADERS = sorted(str(p.relative_to(HERE.parent)) for p in HERE.rglob("*.h"))


def read_cdef() -> str:
    text = HEADER.read_text()
    match = re.search(r"/\* SBX_CDEF_BEGIN \*/(.*)/\* SBX_CDEF_END \*/", text, re.S)
    if match is None:
        raise RuntimeError(f"{HEADER}: SBX_CDEF_BEGIN/END markers not found")
    return match.group(1)


# -O3 comes after Python's own flags, so it wins. -ffp-contract=off keeps
# floating point exactly as written (no fused multiply-add), which the
# pure-Python reference and bit-identical replays rely on.
COMPILE_ARGS = ["-O3", "-std=c11", "-ffp-contract=off", "-fvisibility=hidden",
                "-Wall", "-Wextra", "-Wno-unused-parameter"]
LINK_ARGS: list[str] = ["-pthread"]

# SBX_SANITIZE=1 builds with AddressSanitizer + UBSan for the memory-safety
# check (tools/sanitize.py builds it into build/sanitize/, away from the
# normal .so, and runs tests under it). -fno-wrapv undoes Python's -fwrapv,
# which would hide signed overflow from UBSan; -fno-sanitize-recover makes
# every UBSan finding fatal (by default UBSan prints and carries on, and a
# test would pass). The build says what it is in lib.SBX_BUILD_SANITIZED, so
# tests/conftest.py can refuse to run the normal suite on it by mistake.
# SBX_SANITIZE=thread builds with ThreadSanitizer instead (tools/sanitize.py
# --tsan, into build/tsan/): the parallel search's shared trees and worker
# hand-offs. TSan and ASan cannot share a process.
SANITIZE = os.environ.get("SBX_SANITIZE", "") not in ("", "0")
if os.environ.get("SBX_SANITIZE") == "thread":
    COMPILE_ARGS += ["-fsanitize=thread", "-g", "-O1", "-fno-omit-frame-pointer"]
    LINK_ARGS += ["-fsanitize=thread"]
elif SANITIZE:
    COMPILE_ARGS += ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                     "-fno-wrapv", "-g", "-O1", "-fno-omit-frame-pointer"]
    LINK_ARGS += ["-fsanitize=address,undefined"]

ffibuilder = FFI()
# SBX_BUILD_SANITIZED is not part of the public header: it describes this
# build of the extension, not the C API.
ffibuilder.cdef(read_cdef() + "\n#define SBX_BUILD_SANITIZED ...\n")
ffibuilder.set_source(
    "sandbox.native._sbx",
    '#include "sbx.h"',
    sources=SOURCES,
    depends=HEADERS,
    include_dirs=[str(HERE / "include")],
    define_macros=[("_POSIX_C_SOURCE", "200809L"),
                   ("SBX_BUILD_SANITIZED", "1" if SANITIZE else "0")],
    extra_compile_args=COMPILE_ARGS,
    extra_link_args=LINK_ARGS,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
