"""A bot's seed tells it nothing of the referee's chance: a bot that
solves its seed for the match seed (as the affine derivation once allowed)
or takes it for the match seed, then deals goofspiel's random prize order
as the sandbox does, does no better than chance at the face-down prizes of
a hidden-information game."""
from __future__ import annotations

import json

from sandbox.seeds import player_seed

from bot_support import bot_scenario, play_recorded


def prizes_played(replay) -> list[int]:
    return [r.prize for r in replay.view_at(replay.end_turn).history]


def test_a_bot_cannot_predict_the_hidden_prizes_from_its_seed(tmp_path, monkeypatch):
    pred_file = tmp_path / "pred.json"
    monkeypatch.setenv("PRED_FILE", str(pred_file))
    right = {}
    for match_seed in (1, 2, 77):
        sc = bot_scenario("prize_oracle", game_params={"num_cards": 13, "points_order": "random",
                                                       "imp_info": 1},
                          timeout_ms=2000, first_turn_ms=10_000).with_overrides(seed=match_seed)
        (tmp_path / "m.jsonl").unlink(missing_ok=True)
        _, replay, _ = play_recorded(sc, tmp_path)
        actual = prizes_played(replay)
        assert len(actual) == 13 and sorted(actual) == list(range(1, 14))
        for guess, order in json.loads(pred_file.read_text()).items():
            # the face-down prizes: every one after the first, shown at turn 0
            right.setdefault(guess, []).append(
                sum(a == b for a, b in zip(order[1:], actual[1:])))
    # 12 face-down prizes a match: a guess at random gets one right on average
    for guess, hits in right.items():
        assert sum(hits) <= 9, (guess, hits)


def test_player_seeds_are_stable_distinct_and_in_range():
    seeds = {player_seed(m, s) for m in range(200) for s in range(8)}
    assert len(seeds) == 1600 and all(0 <= x < 2**63 for x in seeds)
    assert player_seed(5, 1) == player_seed(5, 1)
