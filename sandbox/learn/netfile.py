"""The network file (sbx.h section 7, docs/learning.md): write and read it
with numpy alone, so the bench and the tests make nets without JAX.

A net is a NetSpec (what game layout it reads, its architecture) and its
tensors by name, in file order (`tensor_shapes`)."""
from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO, Callable

import numpy as np

from ..native import FeaturesLayout, SandboxError

MAGIC = b"SBXNET01"
VERSION = 1
KIND_BYTES = 32
HEADER = struct.Struct("<16i")
FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3
MAX_META = 65536


class NetFileError(SandboxError):
    """A network file that cannot be written or read (one line)."""


@dataclass(frozen=True)
class Architecture:
    """Convolutions over the board planes (0 layers: none), then dense ReLU
    layers of `hidden` units, then the two linear heads."""
    conv_layers: int = 0
    kernel: int = 0
    channels: int = 0
    dense_layers: int = 2
    hidden: int = 64

    def text(self) -> str:
        conv = (f"{self.conv_layers} conv {self.kernel}x{self.kernel}x{self.channels}, "
                if self.conv_layers else "")
        return conv + f"{self.dense_layers} dense x {self.hidden}"


@dataclass(frozen=True)
class NetSpec:
    kind: str
    players: int
    moves: int
    slots: int
    features: int
    planes: int
    height: int
    width: int
    arch: Architecture

    @property
    def value_slots(self) -> int:
        return max(1, self.slots)

    @property
    def input_size(self) -> int:
        return self.features + self.players * self.slots

    @property
    def x_width(self) -> int:
        """The first dense layer's input: x with the planes replaced by the
        convolutions' output."""
        hw = self.height * self.width
        planes = self.arch.channels * hw if self.arch.conv_layers else self.planes * hw
        return planes + (self.features - self.planes * hw) + self.players * self.slots

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "NetSpec":
        d = dict(d)
        d["arch"] = Architecture(**d["arch"])
        return cls(**d)


def default_architecture(layout: FeaturesLayout, size: str = "small",
                         dense: int | None = None, hidden: int | None = None) -> Architecture:
    """small: two 3x3 convolutions of 16 channels over board planes and one
    dense layer of 64, or two dense layers of 64 without planes; tiny: one
    dense layer of 16 (tests, a first try). `dense` and `hidden` (None: the
    size's) replace the size's dense layers and their width."""
    if size == "tiny":
        base = Architecture(0, 0, 0, 1, 16)
    elif layout.planes:
        base = Architecture(2, 3, 16, 1, 64)
    else:
        base = Architecture(0, 0, 0, 2, 64)
    layers = base.dense_layers if dense is None else dense
    width = 0 if layers == 0 else base.hidden if hidden is None else hidden
    return replace(base, dense_layers=layers, hidden=width)


def spec_for(kind: str, layout: FeaturesLayout, arch: Architecture) -> NetSpec:
    return NetSpec(kind=kind, players=layout.players, moves=layout.moves, slots=layout.slots,
                   features=layout.size, planes=layout.planes, height=layout.height,
                   width=layout.width, arch=arch)


def tensor_shapes(spec: NetSpec) -> list[tuple[str, tuple[int, ...]]]:
    """Every tensor's name and shape, in file order."""
    a = spec.arch
    out: list[tuple[str, tuple[int, ...]]] = []
    cin = spec.planes
    for i in range(a.conv_layers):
        out += [(f"conv{i}_w", (a.channels, cin, a.kernel, a.kernel)), (f"conv{i}_b", (a.channels,))]
        cin = a.channels
    width = spec.x_width
    for i in range(a.dense_layers):
        out += [(f"dense{i}_w", (width, a.hidden)), (f"dense{i}_b", (a.hidden,))]
        width = a.hidden
    nv, np_ = spec.players * spec.value_slots, spec.players * spec.moves
    out += [("value_w", (width, nv)), ("value_b", (nv,)),
            ("policy_w", (width, np_)), ("policy_b", (np_,))]
    return out


def random_params(spec: NetSpec, seed: int, bias: float = 0.0) -> dict[str, np.ndarray]:
    """He-scaled normal weights (biases `bias`): a net before training, for
    the bench and the tests."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in tensor_shapes(spec):
        if name.endswith("_b"):
            params[name] = np.full(shape, bias, dtype=np.float32)
        else:
            fan_in = int(np.prod(shape[1:])) if name.startswith("conv") else shape[0]
            params[name] = (rng.standard_normal(shape) * np.sqrt(2.0 / max(1, fan_in))
                            ).astype(np.float32)
    return params


def _fnv1a(data: bytes) -> int:
    # numpy-free but fast enough: nets are small, and this runs once per file
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def net_bytes(spec: NetSpec, params: dict[str, Any], meta: str = "") -> bytes:
    a = spec.arch
    meta_b = meta.encode("utf-8")
    if len(meta_b) > MAX_META:
        raise NetFileError(f"the meta text is {len(meta_b)} bytes (at most {MAX_META})")
    kind_b = spec.kind.encode("ascii")
    if not 0 < len(kind_b) < KIND_BYTES:
        raise NetFileError(f"game kind {spec.kind!r}: 1..{KIND_BYTES - 1} characters")
    words = [VERSION, spec.players, spec.moves, spec.slots, spec.features, spec.planes,
             spec.height, spec.width, a.conv_layers, a.kernel, a.channels, a.dense_layers,
             a.hidden, len(meta_b), 0, 0]
    parts = [MAGIC, HEADER.pack(*words), kind_b.ljust(KIND_BYTES, b"\0"), meta_b]
    for name, shape in tensor_shapes(spec):
        if name not in params:
            raise NetFileError(f"the tensor {name} is missing")
        t = np.asarray(params[name], dtype=np.float32)
        if t.shape != shape:
            raise NetFileError(f"the tensor {name} has shape {t.shape}, the spec says {shape}")
        if not np.all(np.isfinite(t)):
            raise NetFileError(f"the tensor {name} holds a value that is not finite")
        parts.append(np.ascontiguousarray(t, dtype="<f4").tobytes())
    body = b"".join(parts)
    return body + struct.pack("<Q", _fnv1a(body))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: Path, fill: Callable[[BinaryIO], None]) -> None:
    """fill(file) writes the contents to a temporary file beside `path`,
    flushed to disk, then renamed over it: a crash leaves the old file or
    the new one, never a torn one. OSError as the caller's to word."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644 & ~_umask())     # mkstemp's 0600 is for the temporary name
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_net(path: str | os.PathLike, spec: NetSpec, params: dict[str, Any],
              meta: str = "") -> Path:
    """Write atomically (write_atomically)."""
    data = net_bytes(spec, params, meta)
    out = Path(path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(out, lambda f: f.write(data))
    except OSError as exc:
        raise NetFileError(f"{out}: cannot write: {exc.strerror or exc}") from None
    return out


def read_net(path: str | os.PathLike) -> tuple[NetSpec, dict[str, np.ndarray], str]:
    """The spec, tensors and meta text of a file the C core accepts (it is
    loaded there first, so both readers refuse the same files)."""
    from ..native import Net
    with Net(path) as net:
        i = net.info
        meta = net.meta
    spec = NetSpec(kind=i.kind, players=i.players, moves=i.moves, slots=i.slots,
                   features=i.features, planes=i.planes, height=i.height, width=i.width,
                   arch=Architecture(i.conv_layers, i.kernel, i.channels, i.dense_layers,
                                     i.hidden))
    raw = Path(path).read_bytes()
    meta_bytes = HEADER.unpack_from(raw, len(MAGIC))[13]
    pos = len(MAGIC) + HEADER.size + KIND_BYTES + meta_bytes
    params = {}
    for name, shape in tensor_shapes(spec):
        n = int(np.prod(shape))
        params[name] = np.frombuffer(raw, dtype="<f4", count=n, offset=pos).reshape(shape).copy()
        pos += 4 * n
    return spec, params, meta


def weights_digest(path: str | os.PathLike) -> str:
    """A short hash of a net file's layout and weights, not of its meta
    text: the meta holds the command that trained it, which another run
    (more --generations, another --work) writes differently over the same
    weights."""
    spec, params, _ = read_net(path)
    return hashlib.sha256(net_bytes(spec, params, "")).hexdigest()[:16]
