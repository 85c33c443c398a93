"""The reference RNG and hash against published values and against C."""
import numpy as np

from sandbox.native import Game
from sandbox.games.snakes.reference import SnakesGame
from sandbox.reference.rng import MASK64, SplitMix64, hash_finish, hash_word, hash_words


def test_splitmix64_published_vectors():
    # Vigna's splitmix64.c seeded with 0, and the Rosetta Code task
    # "Pseudo-random numbers/Splitmix64" seeded with 1234567.
    r = SplitMix64(0)
    assert [r.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]


def test_state_wraps_at_64_bits():
    r = SplitMix64(MASK64)
    r.next()
    assert r.state == (MASK64 + 0x9E3779B97F4A7C15) % 2**64
    assert 0 <= r.next() <= MASK64


def test_below_is_the_high_word_times_n():
    r, check = SplitMix64(99), SplitMix64(99)
    for n in (1, 2, 3, 7, 100, 121, 2**32 - 1):
        v = r.below(n)
        assert v == ((check.next() >> 32) * n) >> 32
        assert 0 <= v < n


def test_hash_word_casts_negative_words_to_uint32():
    assert hash_word(0, -1) == hash_word(0, 0xFFFFFFFF)
    assert hash_words([1, -1]) == hash_finish(hash_word(hash_word(0xCBF29CE484222325, 1), -1))


def test_c_hash_is_fnv1a_of_the_export():
    g = Game("snakes", {"snakes": 3}, seed=5)
    for _ in range(6):
        assert g.state_hash() == hash_words(g.export())
        if g.is_terminal:
            break
        g.step([0, 3, 2])


def playout(game: SnakesGame, max_steps: int, seed: int) -> int:
    """sbx_game_playout: uniformly random legal moves drawn with below()."""
    rng = SplitMix64(seed)
    steps = 0
    while steps < max_steps and not game.is_terminal:
        joint = []
        for a in range(game.num_agents):
            moves = game.legal_moves(a)
            joint.append(moves[rng.below(len(moves))] if moves else None)
        game.step(joint)
        steps += 1
    return steps


def test_c_playout_draws_moves_like_the_reference_below():
    for seed in range(20):
        params = {"snakes": 2 + seed % 4, "width": 9, "height": 9}
        g, r = Game("snakes", params, seed=seed), SnakesGame(params, seed=seed)
        assert g.playout(200, seed * 7 + 1) == playout(r, 200, seed * 7 + 1)
        np.testing.assert_array_equal(g.export(), r.export())
