"""A recorded match shared by the replay tests (played once per session;
tests that damage the file work on a copy in their own tmp_path)."""
from __future__ import annotations

import pytest
from replay_support import Recorded, play_recorded


@pytest.fixture(scope="session")
def recorded(tmp_path_factory) -> Recorded:
    return play_recorded(tmp_path_factory.mktemp("replays"))
