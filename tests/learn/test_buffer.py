"""The replay buffer: games appended whole, a crash's tail (a torn record, a
game cut short) dropped on reopening, damage and another run's buffer
refused in one line."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.learn.buffer import FLAG_END, BufferError, Dims, ReplayBuffer, encode, new_records

DIMS = Dims(features=5, players=2, slots=3, moves=4)
HEADER = {"game": "test", "params": "p=1"}


def game_records(seed: int, turns: int = 3) -> np.ndarray:
    r = new_records(DIMS, turns)
    r["game"] = seed
    r["turn"] = np.arange(turns)
    r["features"] = seed + np.arange(5, dtype=np.float32)
    r["value"][:, 0, 1] = seed / 10
    r["value_mask"][:, 0, 1] = 1
    return r


def test_games_survive_reopening(tmp_path):
    b = ReplayBuffer(tmp_path / "b.sbxbuf", HEADER, DIMS)
    b.append_game(game_records(7))
    b.append_game(game_records(8, turns=2))
    again = ReplayBuffer(tmp_path / "b.sbxbuf", HEADER, DIMS)
    assert again.games == {7, 8} and len(again) == 5 and again.dropped == 0
    assert again.records.tobytes() == b.records.tobytes()     # NaN outcomes too
    assert list(again.records["flags"] & FLAG_END) == [0, 0, 1, 0, 1]
    assert np.array_equal(again.window(2)["game"], [8, 8])


def test_a_crash_loses_at_most_the_game_in_progress(tmp_path):
    path = tmp_path / "b.sbxbuf"
    b = ReplayBuffer(path, HEADER, DIMS)
    b.append_game(game_records(1))
    size = path.stat().st_size
    # a second game whose last record (the END one) was torn mid-write
    torn = encode(game_records(2))
    with open(path, "ab") as f:
        f.write(torn[: len(torn) - 10])
    again = ReplayBuffer(path, HEADER, DIMS)
    assert again.games == {1} and again.dropped == 3
    assert path.stat().st_size == size             # cut back to the last whole game
    again.append_game(game_records(2))
    assert ReplayBuffer(path, HEADER, DIMS).games == {1, 2}


def test_a_record_whose_bytes_changed_is_caught(tmp_path):
    path = tmp_path / "b.sbxbuf"
    b = ReplayBuffer(path, HEADER, DIMS)
    for s in (1, 2, 3):
        b.append_game(game_records(s))
    raw = bytearray(path.read_bytes())
    raw[-3 * b.dtype.itemsize - 5] ^= 0xFF     # inside game 2, before a whole game 3
    path.write_bytes(bytes(raw))
    with pytest.raises(BufferError, match="damaged"):
        ReplayBuffer(path, HEADER, DIMS)
    # the same damage in the last game: a crash's tail, that game is dropped
    b2 = ReplayBuffer(tmp_path / "c.sbxbuf", HEADER, DIMS)
    for s in (1, 2):
        b2.append_game(game_records(s))
    raw = bytearray((tmp_path / "c.sbxbuf").read_bytes())
    raw[-5] ^= 0xFF
    (tmp_path / "c.sbxbuf").write_bytes(bytes(raw))
    assert ReplayBuffer(tmp_path / "c.sbxbuf", HEADER, DIMS).games == {1}


def test_another_runs_buffer_is_refused(tmp_path):
    ReplayBuffer(tmp_path / "b.sbxbuf", HEADER, DIMS).append_game(game_records(1))
    with pytest.raises(BufferError, match="another run's positions \\(params differ\\)"):
        ReplayBuffer(tmp_path / "b.sbxbuf", {**HEADER, "params": "p=2"}, DIMS)
    with pytest.raises(BufferError, match="dims differ"):
        ReplayBuffer(tmp_path / "b.sbxbuf", HEADER, Dims(5, 2, 3, 5))
    (tmp_path / "x.sbxbuf").write_bytes(b"something else entirely")
    with pytest.raises(BufferError, match="not a replay buffer"):
        ReplayBuffer(tmp_path / "x.sbxbuf", HEADER, DIMS)
