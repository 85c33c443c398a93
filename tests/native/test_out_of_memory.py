"""Running out of memory is an OutOfMemory error, never a crash, and leaves
nothing behind. A child process caps its address space (RLIMIT_AS) at about
1 GB above what it uses, then asks for node arenas that cannot fit: a search
of 8 trees of 2^23 nodes (256 MB each) fails part-way through its trees, and
a hot-swap to that size fails part-way through resizing them."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sandbox.native import _lib

CHILD = textwrap.dedent("""
    import resource
    from sandbox.native import Game, Search, SearchParams, OutOfMemory

    def vm_bytes():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024

    g = Game("snakes", {"snakes": 8, "width": 25, "height": 9}, seed=1)
    small = SearchParams(node_cap=1024, max_depth=4)
    Search(g, small, seed=1).close()          # warm every code path up first
    base = vm_bytes()
    resource.setrlimit(resource.RLIMIT_AS, (base + 2**30, base + 2**30))
    big = SearchParams(node_cap=1 << 23, max_depth=4)

    # 20 failed creations: a leak of the trees made before the failure would
    # use up the address space after four of them
    for i in range(20):
        try:
            Search(g, big, seed=i)
            raise SystemExit("a search of 2 GB of trees fit in 1 GB")
        except OutOfMemory as exc:
            assert "out of memory" in str(exc), exc
    assert vm_bytes() < base + 2**28, (vm_bytes() - base) / 2**20

    # a hot-swap that cannot be applied: the run says so, the search keeps
    # its old cap (as C reports it) and goes on working
    s = Search(g, small, seed=1)
    s.run(iterations=100)
    s.set_params(big)
    try:
        s.run(iterations=10)
        raise SystemExit("resizing 8 trees to 256 MB each fit in 1 GB")
    except OutOfMemory as exc:
        assert "node_cap stays 1024" in str(exc), exc
    assert s.c_params().node_cap == 1024
    r = s.run(iterations=200)
    assert r.iterations > 0, r
    s.close()
    assert vm_bytes() < base + 2**28, (vm_bytes() - base) / 2**20
    print("ok")
""")


@pytest.mark.skipif(_lib.SANITIZED, reason="ASan reserves terabytes of address space: "
                                           "RLIMIT_AS cannot be used under it")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_out_of_memory_is_an_error_and_leaks_nothing():
    root = Path(__file__).resolve().parents[2]     # this tree's sandbox package
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=120, cwd=root, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
