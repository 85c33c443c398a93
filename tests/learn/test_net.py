"""The C core's network (sbx.h section 7): its pass against the JAX model's
on random weights and inputs, batching, evaluation from games, and a loader
that refuses every damaged file in one line."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from sandbox.learn.netfile import (Architecture, net_bytes, random_params, read_net, spec_for,
                                   tensor_shapes, write_net)
from sandbox.native import Game, InvalidArgument, Net, _lib

# JAX's C++ exceptions trip the ASan runtime's interceptor: under the
# sanitizer build the C pass is checked against numpy_forward alone
NO_JAX = pytest.mark.skipif(_lib.SANITIZED, reason="JAX does not load under ASan")

CASES = {
    "goofspiel-5 hidden, mlp": ("goofspiel", "num_cards=5 imp_info=1", Architecture(0, 0, 0, 2, 32)),
    "goofspiel-4, one layer": ("goofspiel", "num_cards=4", Architecture(0, 0, 0, 1, 8)),
    "snakes duel, conv + dense": ("snakes", "snakes=2 width=7 height=7", Architecture(2, 3, 8, 1, 24)),
    "snakes duel, conv only": ("snakes", "snakes=2 width=6 height=5", Architecture(1, 5, 3, 0, 0)),
    "matrix, heads only": ("matrix", "preset=rps repeats=3", Architecture(0, 0, 0, 0, 0)),
}


def make(case: str, seed: int = 3):
    kind, params, arch = CASES[case]
    game = Game(kind, params, 1)
    spec = spec_for(kind, game.features_layout(), arch)
    return game, spec, random_params(spec, seed, bias=0.1)


def numpy_forward(spec, params, x):
    """The pass as sbx.h words it, in float64 loops a reader can check."""
    n, hw = len(x), spec.height * spec.width
    pf = spec.planes * hw
    a = spec.arch
    h = x.astype(np.float64)
    if a.conv_layers:
        c = h[:, :pf].reshape(n, spec.planes, spec.height, spec.width)
        r = (a.kernel - 1) // 2
        for i in range(a.conv_layers):
            w, b = params[f"conv{i}_w"], params[f"conv{i}_b"]
            pad = np.pad(c, ((0, 0), (0, 0), (r, r), (r, r)))
            out = np.zeros((n, a.channels, spec.height, spec.width)) + b[None, :, None, None]
            for dy in range(a.kernel):
                for dx in range(a.kernel):
                    patch = pad[:, :, dy:dy + spec.height, dx:dx + spec.width]
                    out += np.einsum("nihw,oi->nohw", patch, w[:, :, dy, dx])
            c = np.maximum(out, 0)
        h = np.concatenate([c.reshape(n, -1), h[:, pf:]], axis=1)
    for i in range(a.dense_layers):
        h = np.maximum(h @ params[f"dense{i}_w"] + params[f"dense{i}_b"], 0)
    return ((h @ params["value_w"] + params["value_b"]).reshape(n, spec.players, -1),
            (h @ params["policy_w"] + params["policy_b"]).reshape(n, spec.players, -1))


def c_and_reference(case, reference):
    """The C pass and `reference`(spec, params, x) on one case's random
    inputs (zeros among them: the pass skips them); both must agree to
    1e-5 of the outputs' scale."""
    game, spec, params = make(case)
    net = Net.from_bytes(net_bytes(spec, params))
    x = np.random.default_rng(7).standard_normal((19, spec.input_size)).astype(np.float32)
    x[::3] = np.maximum(x[::3], 0)
    values, logits = net.forward(x)
    rv, rl = (np.asarray(a) for a in reference(spec, params, x))
    assert values.shape == (19, spec.players, spec.value_slots) == rv.shape
    assert logits.shape == (19, spec.players, spec.moves) == rl.shape
    scale = max(1.0, float(np.abs(rv).max()), float(np.abs(rl).max()))
    assert np.abs(values - rv).max() <= 1e-5 * scale
    assert np.abs(logits - rl).max() <= 1e-5 * scale
    # not vacuous: other weights give other outputs
    other = Net.from_bytes(net_bytes(spec, random_params(spec, 4, bias=0.1)))
    assert np.abs(other.forward(x)[0] - values).max() > 1e-3


@pytest.mark.parametrize("case", sorted(CASES))
def test_c_pass_equals_the_written_pass(case):
    c_and_reference(case, numpy_forward)


@NO_JAX
@pytest.mark.parametrize("case", sorted(CASES))
def test_c_pass_equals_jax_pass(case):
    import jax.numpy as jnp

    from sandbox.learn.model import forward as jax_forward
    c_and_reference(case, lambda spec, params, x: jax_forward(
        spec, {k: jnp.asarray(v) for k, v in params.items()}, jnp.asarray(x)))


def test_a_state_gets_the_same_outputs_in_any_batch():
    _, spec, params = make("snakes duel, conv + dense")
    net = Net.from_bytes(net_bytes(spec, params))
    x = np.random.default_rng(1).random((21, spec.input_size), dtype=np.float32)
    values, logits = net.forward(x)
    for i in (0, 7, 8, 20):
        v1, l1 = net.forward(x[i])
        assert np.array_equal(v1, values[i]) and np.array_equal(l1, logits[i])
    v9, _ = net.forward(x[9:14])
    assert np.array_equal(v9, values[9:14])


def test_evaluate_builds_the_features_in_c():
    game, spec, params = make("goofspiel-5 hidden, mlp")
    net = Net.from_bytes(net_bytes(spec, params))
    games = [game]
    for joint in ([4, 0], [1, 3]):
        g = games[-1].clone()
        g.step(joint)
        games.append(g)
    ranges = np.random.default_rng(2).random((3, 2 * spec.slots), dtype=np.float32)
    for view in (None, 1):
        values, logits = net.evaluate(games, view=view, ranges=ranges)
        x = np.stack([np.concatenate([g.features(view), r]) for g, r in zip(games, ranges)])
        want_v, want_l = net.forward(x)
        assert np.array_equal(values, want_v) and np.array_equal(logits, want_l)
    v0, _ = net.evaluate(games)               # no ranges: zeros
    x0 = np.stack([np.concatenate([g.features(), np.zeros(2 * spec.slots, np.float32)])
                   for g in games])
    assert np.array_equal(v0, net.forward(x0)[0])


def test_a_net_for_other_parameters_is_refused_by_name():
    _, spec, params = make("goofspiel-4, one layer")
    net = Net.from_bytes(net_bytes(spec, params))
    with pytest.raises(InvalidArgument, match="takes 27 features.*has 39"):
        net.check_game(Game("goofspiel", "num_cards=6", 1))
    with pytest.raises(InvalidArgument, match="for goofspiel, the game is matrix"):
        net.evaluate([Game("matrix", None, 1)])
    net.check_game(Game("goofspiel", "num_cards=4 points_order=ascending", 1))


def test_the_file_round_trips(tmp_path):
    game, spec, params = make("snakes duel, conv + dense")
    path = write_net(tmp_path / "n.sbxnet", spec, params, meta="trained by a test ✓")
    spec2, params2, meta = read_net(path)
    assert spec2 == spec and meta == "trained by a test ✓"
    assert all(np.array_equal(params[k], params2[k]) for k in params)
    net = Net(path)
    assert net.info.parameters == sum(int(np.prod(s)) for _, s in tensor_shapes(spec))
    assert net.info.kind == "snakes" and net.info.input_size == spec.input_size
    net.close()
    assert "closed" in repr(net)


def _resum(data: bytes) -> bytes:
    """The checksum made right again after an edit, so the edit itself is
    what the loader must catch."""
    from sandbox.learn.netfile import _fnv1a
    body = data[:-8]
    return body + struct.pack("<Q", _fnv1a(body))


def test_damaged_files_are_refused_in_one_line(tmp_path):
    _, spec, params = make("goofspiel-4, one layer")
    good = net_bytes(spec, params, "m")
    Net.from_bytes(good)
    bad = {
        b"": "not a network file",
        b"SBXNET02" + good[8:]: "not a network file",
        good[:40]: "truncated",
        good[:-1]: "bytes, the header says",
        good + b"\0": "trailing bytes",
        good[:100] + bytes([good[100] ^ 1]) + good[101:]: "checksum",
        _resum(good[:8] + struct.pack("<i", 2) + good[12:]): "version 2",
        _resum(good[:12] + struct.pack("<i", 9) + good[16:]): "players 9 out of range",
        _resum(good[:64] + struct.pack("<i", 7) + good[68:]): "reserved",
        _resum(good[:72] + b"Goof" + good[76:]): "kind holds a byte",
    }
    raw = bytearray(good)
    at = 8 + 64 + 32 + 1                        # the header, the kind, the meta "m"
    for name, shape in tensor_shapes(spec):
        if name == "value_b":
            break
        at += 4 * int(np.prod(shape))
    raw[at:at + 4] = struct.pack("<f", float("nan"))
    bad[_resum(bytes(raw))] = "not a finite number"
    for data, why in bad.items():
        with pytest.raises(InvalidArgument, match=why) as err:
            Net.from_bytes(data)
        assert "\n" not in str(err.value)
    # every truncation of the file, a few bytes apart
    for cut in range(0, len(good), 7):
        with pytest.raises(InvalidArgument):
            Net.from_bytes(good[:cut])
    for path, why in ((tmp_path / "missing", "cannot open"), (tmp_path, "not a regular file")):
        with pytest.raises(InvalidArgument, match=why):
            Net(path)
    with pytest.raises(InvalidArgument, match="expected shape"):
        Net.from_bytes(good).forward(np.zeros((2, 3)))


def float32_dense_forward(spec, params, x):
    """A net without convolutions, in float32 and in the C pass's own order
    (the bias, then input 0, 1, ... one product and one add at a time), so
    the outputs must be the same bits: skipping zero inputs, alone or eight
    at once, may not change any of them."""
    def layer(h, w, b, relu):
        out = np.repeat(b[None, :].astype(np.float32), len(h), axis=0)
        for k in range(w.shape[0]):
            out = out + h[:, k:k + 1] * w[k][None, :]      # float32 throughout
        return np.maximum(out, np.float32(0)) if relu else out
    h = x.astype(np.float32)
    for i in range(spec.arch.dense_layers):
        h = layer(h, params[f"dense{i}_w"], params[f"dense{i}_b"], True)
    n = len(x)
    return (layer(h, params["value_w"], params["value_b"], False).reshape(n, spec.players, -1),
            layer(h, params["policy_w"], params["policy_b"], False).reshape(n, spec.players, -1))


def _played_states(kind, params, n, seed):
    """n states of random play: real features, mostly zero (one-hot planes)."""
    rng = np.random.default_rng(seed)
    out, game = [], Game(kind, params, seed)
    while len(out) < n:
        if game.is_terminal:
            game = Game(kind, params, int(rng.integers(1 << 30)))
        out.append(game.features())
        game.step([int(rng.choice(game.legal_moves(a))) for a in range(game.num_agents)])
    return np.stack(out).astype(np.float32)


def _bits(a):
    """The float32 bit patterns: array_equal alone would take -0.0 for 0.0."""
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


@pytest.mark.parametrize("kind, params, arch", [
    ("snakes", "snakes=2", Architecture(0, 0, 0, 1, 16)),       # the shipped snakes net's
    ("goofspiel", "num_cards=5 imp_info=1", Architecture(0, 0, 0, 2, 32)),
    ("snakes", "snakes=2 width=7 height=7", Architecture(0, 0, 0, 2, 24)),  # a tile + 8 more
])
def test_c_pass_is_the_ordered_float32_sum_bit_for_bit(kind, params, arch):
    game = Game(kind, params, 1)
    spec = spec_for(kind, game.features_layout(), arch)
    weights = random_params(spec, 5, bias=0.1)
    net = Net.from_bytes(net_bytes(spec, weights))
    x = _played_states(kind, params, 40, seed=2)
    if spec.input_size > spec.features:             # ranges: a few nonzero, some -0.0
        x = np.concatenate([x, np.zeros((len(x), spec.input_size - spec.features),
                                        np.float32)], axis=1)
        x[::2, spec.features] = 0.25
        x[1::4, spec.features + 3] = -0.0
    x[5, -1] = 1.0                                  # the last, partial run of eight
    assert (x == 0).mean() > 0.5, "the inputs must be mostly zero, as a board's are"
    want_v, want_l = float32_dense_forward(spec, weights, x)
    for batch in (1, 8, 40):                        # a state at a time, a block, several
        got = [net.forward(x[i:i + batch]) for i in range(0, len(x), batch)]
        assert np.array_equal(_bits(np.concatenate([v for v, _ in got])), _bits(want_v))
        assert np.array_equal(_bits(np.concatenate([lg for _, lg in got])), _bits(want_l))


def test_the_dense_path_is_named_and_the_scalar_one_gives_the_same_bits(tmp_path):
    """The dense layers have an AVX2 version, taken where the CPU has it;
    SBX_NO_AVX2=1 forces the plain one. Both must give the same bits, a state
    at a time (registers) and in a batch (weight rows shared)."""
    import os
    import platform
    import subprocess
    import sys

    x86 = platform.machine() in ("x86_64", "AMD64")
    _, spec, params = make("goofspiel-5 hidden, mlp")
    blob = tmp_path / "net.sbxnet"
    blob.write_bytes(net_bytes(spec, params))
    x = np.random.default_rng(3).standard_normal((17, spec.input_size)).astype(np.float32)
    x[x < 0.3] = 0.0
    np.save(tmp_path / "x.npy", x)
    script = ("import sys, numpy as np\n"
              "from sandbox.native import Net, simd_paths\n"
              "net, x = Net(sys.argv[1]), np.load(sys.argv[2])\n"
              "one = [np.concatenate([a.ravel() for a in net.forward(r)]) for r in x]\n"
              "v, l = net.forward(x)\n"
              "np.save(sys.argv[3], np.concatenate(one + [v.ravel(), l.ravel()]))\n"
              "print(simd_paths())\n")
    outs = {}
    for forced in ("1", "0"):
        p = subprocess.run([sys.executable, "-c", script, str(blob), str(tmp_path / "x.npy"),
                            str(tmp_path / f"out{forced}.npy")],
                           env={**os.environ, "SBX_NO_AVX2": forced},
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr[-2000:]
        outs[forced] = (np.load(tmp_path / f"out{forced}.npy"), p.stdout.strip())
    plain, chosen = outs["1"][1].split("; net ")[1], outs["0"][1].split("; net ")[1]
    if x86:
        assert plain == "dense: scalar (SBX_NO_AVX2)"
        assert chosen in ("dense: avx2", "dense: scalar (no AVX2)")
    else:
        assert plain == chosen == "dense: scalar (not an x86-64 build)"
    assert np.array_equal(_bits(outs["1"][0]), _bits(outs["0"][0]))
