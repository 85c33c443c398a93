"""Runs last in tests/fuzz (file order): under the ci profile the suite must
have made at least CI_MIN_CALLS API calls; the per-test counts are printed in
the terminal summary under every profile."""
from __future__ import annotations

import pytest
from fuzz_support import CALLS, CI_MIN_CALLS, DESELECTED, PROFILE


def test_fuzz_made_enough_calls(request):
    fuzz_items = [i for i in request.session.items if "tests/fuzz/" in i.nodeid]
    if DESELECTED or len(fuzz_items) < 2 or request.session.testsfailed:
        pytest.skip("only meaningful when the whole fuzz suite ran and passed")
    print(f"\nfuzz: {CALLS.total:,} API calls (profile {PROFILE})")
    if PROFILE == "ci":
        assert CALLS.total >= CI_MIN_CALLS, (
            f"the ci profile made {CALLS.total:,} API calls, fewer than {CI_MIN_CALLS:,}")
    else:
        assert CALLS.total > 0
