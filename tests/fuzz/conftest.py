"""Fuzz suite wiring: attribute counted calls to the running test and print
the totals at the end of the run (fuzz_support.CALLS)."""
from __future__ import annotations

import pytest
from fuzz_support import CALLS, DESELECTED, PROFILE


def pytest_deselected(items):
    DESELECTED.extend(i.nodeid for i in items if "/fuzz/" in i.nodeid.replace("\\", "/"))


@pytest.fixture(autouse=True)
def _count_calls(request):
    CALLS.current = request.node.nodeid.split("::", 1)[-1]
    yield
    CALLS.current = "?"


def pytest_terminal_summary(terminalreporter):
    if not CALLS.by_test:
        return
    tr = terminalreporter
    tr.section(f"fuzz: {CALLS.total:,} API calls (profile {PROFILE})")
    for name, n in sorted(CALLS.by_test.items(), key=lambda kv: -kv[1]):
        tr.write_line(f"  {n:>9,}  {name}")
