"""Reciprocal-rank fusion: one function the product, the benchmarks and the tuning share.

BM25, cosine similarity and exact-match counts share no scale, so ranks are fused, not
scores. Each retriever contributes ``weight / (rrf_k + rank)``; a small bonus rewards a
chunk that several retrievers agree on, and a chunk whose file is hit by other strong
candidates is lifted a little (a page hit several times is more likely the right page).
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence


def fuse(ranked: Mapping[str, Sequence[str]], weights: Mapping[str, float], rrf_k: float, *,
         agreement: float = 0.0) -> dict[str, float]:
    """Fused score per chunk id, highest best.

    ``agreement`` adds that fraction of the chunk's score for every retriever beyond the
    first that ranked it: BM25 and vectors finding the same chunk is stronger evidence
    than either alone.
    """
    scores: dict[str, float] = {}
    votes: dict[str, int] = {}
    for name, ids in ranked.items():
        weight = weights.get(name, 1.0)
        if not weight:
            continue
        for rank, cid in enumerate(ids, 1):
            scores[cid] = scores.get(cid, 0.0) + weight / (rrf_k + rank)
            votes[cid] = votes.get(cid, 0) + 1
    if agreement:
        for cid, n in votes.items():
            if n > 1:
                scores[cid] *= 1.0 + agreement * (n - 1)
    return scores


def lift_by_file(scores: dict[str, float], file_of: Callable[[str], str | None], weight: float,
                 depth: int = 30) -> dict[str, float]:
    """Add ``weight`` × the scores of the other top-``depth`` chunks of the same file.

    A question about one page tends to hit several of its chunks; the page's best chunk
    should then outrank a lone chunk of similar score elsewhere.
    """
    if not weight or not scores:
        return scores
    top = sorted(scores, key=scores.__getitem__, reverse=True)[:depth]
    per_file: dict[str, float] = {}
    for cid in top:
        path = file_of(cid)
        if path is not None:
            per_file[path] = per_file.get(path, 0.0) + scores[cid]
    out = dict(scores)
    for cid in top:
        path = file_of(cid)
        if path is not None:
            out[cid] = scores[cid] + weight * (per_file[path] - scores[cid])
    return out


def order(scores: Mapping[str, float]) -> list[str]:
    return sorted(scores, key=scores.__getitem__, reverse=True)
