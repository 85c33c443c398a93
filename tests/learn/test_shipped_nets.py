"""The shipped nets (assets/nets/; their commands are in docs/learning.md)
against independent oracles: the goofspiel-5 net (trained by query solving)
values positions as the exact equilibrium does, on gtcfr's side and scale:
seat 0's (v0 - v1) / 2 of win/loss returns, 2 x match score - 1; the
hidden-bid net beats the evaluation on the belief states a search asks it
about; the snakes duel net sees a trapped snake that enumeration proves
lost."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from sandbox.games.goofspiel.equilibrium import Solver
from sandbox.native import Game, Net

NETS = Path(__file__).resolve().parents[2] / "assets" / "nets"
PARAMS = "num_cards=5,points_order=descending,returns_type=win_loss"


def positions(n: int, seed: int):
    """n states of goofspiel-5, 1 to 3 random joint bids in, each with
    its exact key (hands, seat 0's lead, prizes left, the prize up)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        g = Game("goofspiel", PARAMS, seed=1)
        h, diff, prizes = [31, 31], 0, 31
        for _ in range(int(rng.integers(1, 4))):
            prize = prizes.bit_length()
            bids = [int(rng.choice(g.legal_moves(a))) for a in range(2)]
            g.step(bids)
            diff += prize * int(np.sign(bids[0] - bids[1]))
            h = [h[a] & ~(1 << bids[a]) for a in range(2)]
            prizes &= ~(1 << (prize - 1))
        yield g, (h[0], h[1], diff, prizes, prizes.bit_length())


def test_the_shipped_goofspiel5_net_gives_the_equilibrium_values():
    net = Net(NETS / "goofspiel5.sbxnet")
    exact = Solver(5, "descending")
    games, keys = zip(*positions(40, seed=3))
    values, _ = net.evaluate(list(games))
    got = 0.5 * (values[:, 0, 0] - values[:, 1, 0])           # what gtcfr reads
    want = np.array([2 * exact.state(*k) - 1 for k in keys])
    assert np.std(want) > 0.3                                  # not all draws
    assert np.mean(np.abs(got - want)) < 0.06, (got, want)
    for g in games:
        g.close()


def test_the_hidden_bid_net_values_the_belief_states_a_search_asks_it_about():
    """What a search reads: pubcfr two rounds deep *with the net*, stopped at
    1, 10 or 300 iterations, asks the net at its frontier under the ranges of
    the strategies it plays then (near uniform, then concentrated), not
    under its average strategies after a search without a net. The exact
    value of each private state is a pubcfr solve to the end of the game
    with both ranges fixed; where a seat may hold the hand, the net is
    closer to it than the game's evaluation (the value pubcfr uses without
    a net). A net trained on average-strategy ranges alone fails this (the
    first shipped one: mean error 0.39 to 0.54 against the evaluation's
    0.16 to 0.24) and misleads the search."""
    from sandbox.learn.solve import solve_belief
    from sandbox.native import Search
    path = str(NETS / "goofspiel5_hidden.sbxnet")
    net = Net(path)
    rng = np.random.default_rng(5)
    err_net, err_eval = [], []
    for trial in range(4):
        g = Game("goofspiel", "num_cards=5 imp_info=1 points_order=descending "
                 "returns_type=win_loss", seed=1)
        for _ in range(trial % 2):
            g.step([int(rng.choice(g.legal_moves(a))) for a in range(2)])
        for t in (1, 10, 300):
            with Search(g, {"algorithm": "pubcfr", "max_depth": 2, "value_net": path},
                        seed=trial) as s:
                s.run(iterations=t)
                front = [n.index for n in s.public_nodes()
                         if n.depth > 0 and not n.expanded and n.histories > 0]
                picks = rng.permutation(len(front))[:2]
                queries = [(s.node_belief(front[i], current=True), s.public_state(front[i]))
                           for i in picks]
            for belief, st in queries:
                slots = st.features_layout().slots
                exact = solve_belief(st, belief, {"algorithm": "pubcfr", "max_depth": 5}, 2000,
                                     1, slots)
                values, _ = net.evaluate([st], view=0,
                                         ranges=exact.ranges.reshape(1, -1).astype(np.float32))
                e = st.evaluate()
                u = (e[0] - e[1]) / 2
                held = (exact.mask > 0) & (exact.ranges > 1e-3)
                err_net += np.abs(values[0] - exact.values)[held].tolist()
                err_eval += np.abs(np.array([[u], [-u]]) - exact.values)[held].tolist()
                st.close()
        g.close()
    assert len(err_net) > 40
    assert np.mean(err_net) < 0.8 * np.mean(err_eval), (np.mean(err_net), np.mean(err_eval))


def _trapped_duel(trapped_seat: int) -> Game:
    """11x11, no food: one snake (9 long) walks the second row with its head
    turned up at the left edge; the other (9 long too) lies along the bottom
    row, head at (2, 0), under the first one's oldest segments. The bottom
    snake can only go left, and dies on the third move whatever it does."""
    from sandbox.games.snakes.reference import Snake, build_export
    free = Snake([(0, 2), (0, 1)] + [(x, 1) for x in range(1, 8)], 100)
    trapped = Snake([(x, 0) for x in range(2, 11)], 100)
    snakes = [trapped, free] if trapped_seat == 0 else [free, trapped]
    g = Game("snakes", {"width": 11, "height": 11, "snakes": 2, "food_spawn_chance": 0,
                        "minimum_food": 0, "initial_food": 0}, seed=0)
    g.import_state(build_export(11, 11, snakes, (), 0))
    return g


def test_the_snakes_duel_position_is_lost_for_the_trapped_snake():
    """The oracle for the next test, by enumeration: while the free snake
    walks up, every three moves of the trapped one kill it."""
    from sandbox.games.snakes.reference import UP
    from itertools import product
    for seat in (0, 1):
        for seq in product(range(4), repeat=3):
            g = _trapped_duel(seat)
            for m in seq:
                if g.is_terminal:
                    break
                joint = [None, None]
                joint[seat], joint[1 - seat] = m, UP
                g.step(joint)
            assert g.is_terminal and g.ranking()[seat] > g.ranking()[1 - seat], seq
            g.close()


def test_the_shipped_snakes_net_sees_a_trapped_snake():
    """assets/nets/snakes_duel.sbxnet (docs/learning.md) on the position
    above, both snakes the same length: in either seat the trapped snake's
    value is well below the free one's, by more than the snake evaluation
    (space and health) tells them apart. A net read with the seats swapped,
    or a damaged file, fails this."""
    net = Net(NETS / "snakes_duel.sbxnet")
    for seat in (0, 1):
        g = _trapped_duel(seat)
        values, _ = net.evaluate([g])
        v = values[0, :, 0]
        ev = g.evaluate()
        net_gap = v[1 - seat] - v[seat]
        ev_gap = ev[1 - seat] - ev[seat]
        assert net_gap > 0.5 and net_gap > ev_gap, (seat, v, ev)
        g.close()
