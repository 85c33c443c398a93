"""The `depthbias` game (the tutorial's §13 depth-bias widget; rules in the
header of native/src/games/depthbias.c).

Every expectation is written out by hand from the rules, not read back from
the engine: the export words, the lengths an action may draw (all of them,
uniformly), points = L * per-turn points, the turn the episode ends on, the
moves before and after the choice. The search checks compare Smitsimax's
root means with the expectation over the uniform length, computed here from
the rules and the tutorial's backup formulas (§13: raw, gamma^(depth-1) at a
root child, score / depth)."""
from __future__ import annotations

import collections

import pytest

from sandbox.games import plugin
from sandbox.native import Game, InvalidArgument, InvalidState, Search, SearchParams

KIND = "depthbias"
SPRINT, MARCH, SIEGE, GO = 0, 1, 2, 3
# (min, max, points) per action: the documented defaults
DEFAULTS = {SPRINT: (2, 5, 10), MARCH: (6, 10, 8), SIEGE: (13, 18, 7)}
DEFAULT_PARAMS = ("sprint_min=2 sprint_max=5 sprint_points=10 march_min=6 march_max=10 "
                  "march_points=8 siege_min=13 siege_max=18 siege_points=7")
ECHO = [2, 5, 10, 6, 10, 8, 13, 18, 7]        # the parameters at the export's tail


def words(g: Game) -> list[int]:
    return [int(x) for x in g.export()]


def length_after_choice(action: int, seed: int, params: str = "") -> int:
    with Game(KIND, params, seed=seed) as g:
        g.step([action])
        return words(g)[3]


# ------------------------------------------------------------------- rules
def test_defaults_names_and_the_initial_export():
    with Game(KIND, "", seed=0) as g:
        assert g.params == DEFAULT_PARAMS
        assert g.num_agents == 1 and g.turn == 0 and not g.is_terminal
        assert [g.move_name(0, m) for m in range(5)] == ["sprint", "march", "siege", "go", "?"]
        # version, turn, choice (-1: none yet), length (0: not drawn), points
        assert words(g) == [1, 0, -1, 0, 0] + ECHO
        assert list(g.evaluate()) == [0.0] and g.ranking() == [0] and g.is_alive(0)


def test_legal_moves_before_and_after_the_choice():
    with Game(KIND, "", seed=5) as g:
        assert g.legal_moves(0) == [SPRINT, MARCH, SIEGE]
        with pytest.raises(InvalidArgument, match="move 3 is not legal"):
            g.step([GO])                       # `go` before choosing
        g.step([MARCH])
        assert g.legal_moves(0) == [GO]
        for bad in (SPRINT, MARCH, SIEGE):     # no second choice
            with pytest.raises(InvalidArgument, match=f"move {bad} is not legal"):
                g.step([bad])
        while not g.is_terminal:
            g.step([GO])
        assert g.legal_moves(0) == [] and g.is_alive(0)
        with pytest.raises(InvalidState, match="terminal"):
            g.step([GO])


@pytest.mark.parametrize("action", [SPRINT, MARCH, SIEGE])
def test_reseeded_choices_draw_every_length_of_the_range_uniformly(action):
    """The search reseeds its simulation copy before each iteration: the same
    state, reseeded, must draw L anew, within min..max, every value reached
    (an off-by-one at either end fails), about equally often."""
    lo, hi, _ = DEFAULTS[action]
    draws = 600 * (hi - lo + 1)
    counts: collections.Counter[int] = collections.Counter()
    with Game(KIND, "", seed=0) as root:
        for s in range(draws):
            with root.clone() as g:
                g.reseed(s * 7919 + 1)
                g.step([action])
                counts[words(g)[3]] += 1
    assert set(counts) == set(range(lo, hi + 1)), counts
    for length, c in counts.items():          # binomial(draws, 1/k): 600 +- ~6 sigma
        assert 450 < c < 750, (length, counts)
    # the real game draws from its own seed: different seeds, different lengths
    assert len({length_after_choice(action, s) for s in range(40)}) == hi - lo + 1


@pytest.mark.parametrize("action", [SPRINT, MARCH, SIEGE])
def test_points_and_the_end_come_exactly_at_length(action):
    lo, hi, pts = DEFAULTS[action]
    for seed in range(25):
        with Game(KIND, "", seed=seed) as g:
            rewards = [float(g.step([action])[0])]
            length = words(g)[3]
            assert lo <= length <= hi
            while g.turn < length:
                assert not g.is_terminal, (g.turn, length)
                rewards.append(float(g.step([GO])[0]))
            assert g.is_terminal
            assert rewards == [float(pts)] * length      # every turn, the choice included
            assert list(g.evaluate()) == [pts * length]
            assert words(g)[:5] == [1, length, action, length, pts * length]


def test_a_hand_computed_episode():
    """march fixed at 3 turns of 11 points: 11 + 11 + 11, over after turn 3."""
    with Game(KIND, "march_min=3 march_max=3 march_points=11", seed=9) as g:
        assert list(g.step([MARCH])) == [11.0]
        assert words(g)[:5] == [1, 1, MARCH, 3, 11]
        assert list(g.step([GO])) == [11.0] and not g.is_terminal
        assert list(g.step([GO])) == [11.0] and g.is_terminal
        assert words(g)[:5] == [1, 3, MARCH, 3, 33] and list(g.evaluate()) == [33.0]


def test_a_one_turn_action_ends_on_the_choice():
    with Game(KIND, "sprint_min=1 sprint_max=1", seed=1) as g:
        assert list(g.step([SPRINT])) == [10.0]
        assert g.is_terminal and g.turn == 1 and g.legal_moves(0) == []


def test_parameters_are_read_whatever_their_order():
    with Game(KIND, "siege_max=30 siege_min=20", seed=0) as a, \
            Game(KIND, "siege_min=20 siege_max=30", seed=0) as b:
        assert a.params == b.params and "siege_min=20 siege_max=30" in a.params


# --------------------------------------------------------------- bad input
@pytest.mark.parametrize("params, fragment", [
    ("sprint_min=0", "sprint_min"),
    ("march_max=61", "march_max"),
    ("siege_points=0", "siege_points"),
    ("sprint_points=1001", "sprint_points"),
    ("siege_min=19", "siege_min=19 is greater than siege_max=18"),
    ("sprint_min=4 sprint_max=3", "sprint_min=4 is greater than sprint_max=3"),
    ("march_min=abc", "march_min"),
    ("march_points=2.5", "march_points"),
    ("speed=3", "unknown depthbias parameter 'speed'"),
    ("sprint=3", "unknown depthbias parameter 'sprint'"),
    ("sprint_minimum=3", "unknown depthbias parameter 'sprint_minimum'"),
])
def test_bad_parameters_are_refused_with_a_message(params, fragment):
    with pytest.raises(InvalidArgument, match=fragment):
        Game(KIND, params, seed=0)


def test_the_model_refuses_what_c_refuses_with_partners_that_allow_each_bound():
    """The contract test tries each bound alone, which for a length bound
    contradicts the default partner; here each bound is tried with a partner
    that allows it: accepted by both the model and C, one past refused by both."""
    model = plugin(KIND).Params
    for a in ("sprint", "march", "siege"):
        for key, partner in ((f"{a}_min", f"{a}_max"), (f"{a}_max", f"{a}_min")):
            for bound, past in ((1, 0), (60, 61)):
                ok = model.model_validate({key: bound, partner: bound})
                with Game(KIND, ok.c_params(), seed=0) as g:
                    assert f"{key}={bound}" in g.params
                with pytest.raises(ValueError, match=key):
                    model.model_validate({key: past, partner: bound})
                with pytest.raises(InvalidArgument, match=key):
                    Game(KIND, f"{key}={past} {partner}={bound}", seed=0)
        with pytest.raises(ValueError, match=f"{a}_min=9 is greater than {a}_max=8"):
            model.model_validate({f"{a}_min": 9, f"{a}_max": 8})
    assert model().ranges() == tuple(DEFAULTS[i] for i in range(3))


@pytest.mark.parametrize("damage, fragment", [
    (lambda w: w[:-1], "13 words, a depthbias export has 14"),
    (lambda w: w + [0], "15 words"),
    (lambda w: [2] + w[1:], "unknown export version 2"),
    (lambda w: w[:5] + [3] + w[6:], "sprint 3..5 at 10 points does not match"),
    (lambda w: w[:13] + [8], "siege 13..18 at 8 points does not match"),
    (lambda w: [1, 0, 1, 7, 0] + w[5:], "before the choice"),
    (lambda w: [1, 2, -1, 0, 0] + w[5:], "before the choice"),
    (lambda w: [1, 0, -1, 0, 5] + w[5:], "before the choice"),
    (lambda w: [1, 1, 3, 5, 10] + w[5:], "choice 3 out of range"),
    (lambda w: [1, 1, -2, 5, 10] + w[5:], "before the choice"),
    (lambda w: [1, 1, MARCH, 11, 8] + w[5:], "length 11 outside march's 6..10"),
    (lambda w: [1, 1, MARCH, 5, 8] + w[5:], "length 5 outside march's 6..10"),
    (lambda w: [1, 8, MARCH, 7, 64] + w[5:], "turn 8 out of range 1..7"),
    (lambda w: [1, 2, MARCH, 7, 17] + w[5:], "17 points after 2 turns of march, the rules give 16"),
])
def test_malformed_imports_are_refused_and_change_nothing(damage, fragment):
    with Game(KIND, "", seed=3) as g:
        g.step([SIEGE])
        good = words(g)
        h = g.state_hash()
        with pytest.raises(InvalidArgument, match=fragment):
            g.import_state(damage(good))
        assert words(g) == good and g.state_hash() == h


def test_an_imported_state_plays_on_by_the_rules():
    """march, L = 7, two turns played (16 points): five more `go`s end it at 56."""
    with Game(KIND, "", seed=0) as g:
        g.import_state([1, 2, MARCH, 7, 16] + ECHO)
        assert g.turn == 2 and g.legal_moves(0) == [GO]
        for _ in range(5):
            assert not g.is_terminal
            g.step([GO])
        assert g.is_terminal and list(g.evaluate()) == [56.0]
        g.import_state([1, 0, -1, 0, 0] + ECHO)          # back to the start
        assert g.legal_moves(0) == [SPRINT, MARCH, SIEGE]


def test_the_view_decodes_the_export():
    p = plugin(KIND)
    with Game(KIND, "siege_max=25", seed=2) as g:
        v = p.decode(g.export())
        assert (v.turn, v.choice, v.length, v.points, v.over) == (0, None, None, 0, False)
        assert [(a.name, a.min, a.max, a.points) for a in v.actions] == [
            ("sprint", 2, 5, 10), ("march", 6, 10, 8), ("siege", 13, 25, 7)]
        assert v.actions[SIEGE].expected_total == 7 * (13 + 25) / 2
        g.step([SIEGE])
        v = p.decode(g.export())
        assert (v.turn, v.choice_name, v.points) == (1, "siege", 7) and 13 <= v.length <= 25
        assert p.summary(v) == {"turn": 1, "choice": "siege", "length": v.length, "points": 7}
    with pytest.raises(ValueError, match="not a depthbias export"):
        p.decode([1, 0, -1, 0, 0])


def test_keys_choose_then_go():
    p = plugin(KIND)
    with Game(KIND, "", seed=2) as g:
        v = p.decode(g.export())
        assert [p.key_move(v, 0, k).move for k in ("1", "2", "3")] == [SPRINT, MARCH, SIEGE]
        assert p.key_move(v, 0, "space").move is None         # nothing to go on with yet
        assert p.default_move(v, 0) is None                   # the choice waits for the person
        g.step([SPRINT])
        v = p.decode(g.export())
        assert p.key_move(v, 0, "space").move == GO and p.key_move(v, 0, "2").move is None
        assert p.default_move(v, 0) == GO


# ------------------------------------------------------------ the search
G97 = 0.97


def expected_root_mean(action: int, gamma: float = 1.0, normalize: bool = False) -> float:
    """A root child's mean over the uniform length L: the leaf score is
    points * L (normalised: points * L / L), taken at depth L and discounted
    once per step up to the root child at depth 1, i.e. by gamma^(L-1)."""
    lo, hi, pts = DEFAULTS[action]
    vals = [(pts if normalize else pts * L) * gamma ** (L - 1) for L in range(lo, hi + 1)]
    return sum(vals) / len(vals)


def lab_search(iterations: int = 20_000, seed: int = 1, **kw):
    """The lab's settings: depth 20 reaches every default episode's end."""
    settings = dict(max_depth=20, tree_reuse=False, random_threshold=10, gamma=1.0,
                    depth_normalize=False)
    settings.update(kw)
    with Game(KIND, "", seed=0) as g, Search(g, SearchParams(**settings), seed=seed) as s:
        s.run(iterations=iterations)
        stats = {m.move: m for m in s.root_stats(0)}
        return stats, s.best_moves()[0]


def first_by_mean(stats) -> int:
    return max(stats, key=lambda m: stats[m].mean)


@pytest.mark.parametrize("seed", [1, 2])
def test_raw_backup_ranks_siege_first(seed):
    """Tutorial §13: raw backups compare totals, and siege's long episodes
    pile up the most (about 108.5 against sprint's 35)."""
    stats, best = lab_search(seed=seed)
    assert first_by_mean(stats) == SIEGE and best == SIEGE
    assert stats[SIEGE].mean == pytest.approx(expected_root_mean(SIEGE), rel=0.01)
    assert stats[SIEGE].mean > 2.5 * stats[SPRINT].mean


@pytest.mark.parametrize("seed", [1, 2])
def test_depth_normalised_backup_ranks_sprint_first(seed):
    """score / depth is the per-turn rate, the same for every length: each
    root mean is exactly the action's points a turn."""
    stats, best = lab_search(seed=seed, depth_normalize=True)
    assert first_by_mean(stats) == SPRINT and best == SPRINT
    assert [stats[m].mean for m in (SPRINT, MARCH, SIEGE)] == [10.0, 8.0, 7.0]


def test_discounted_backup_at_097_still_ranks_siege_first():
    """gamma = 0.97 shrinks a depth-L score by 0.97^(L-1) at the root child:
    siege ~69.5, march ~51.4, sprint ~32.1 by the formula. Discounting at
    0.97 does not undo this bias; it only narrows the gap."""
    stats, best = lab_search(gamma=G97)
    want = {m: expected_root_mean(m, G97) for m in (SPRINT, MARCH, SIEGE)}
    assert max(want, key=want.get) == SIEGE
    assert first_by_mean(stats) == SIEGE and best == SIEGE
    assert stats[SIEGE].mean == pytest.approx(want[SIEGE], rel=0.01)
    assert stats[MARCH].mean == pytest.approx(want[MARCH], rel=0.15)    # ~140 visits


def test_the_real_game_keeps_its_length_under_reuse():
    """After the real choice the root's L is fixed: reseeding the search's
    copies must not redraw it (the lengths are drawn only at the choice)."""
    with Game(KIND, "", seed=4) as g, \
            Search(g, SearchParams(max_depth=20, gamma=1.0, depth_normalize=False),
                   seed=4) as s:
        g.step([SIEGE])
        s.advance([SIEGE], new_root=g)
        s.run(iterations=300)
        # every iteration plays the remaining turns of the one drawn length
        # and scores the same total
        (go,) = s.root_stats(0)
        assert go.move == GO and go.mean == 7 * words(g)[3]
