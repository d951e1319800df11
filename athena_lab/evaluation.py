"""Retrieval evaluation: BEIR folders (nDCG@10, recall@10/100, MRR@10) and question files.

A BEIR corpus is written out as one Markdown file per document and indexed by the real
pipeline, so the numbers measure exactly what a user's folder gets.
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from pathlib import Path
from typing import Any

from athena_lab.workspace import Athena


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
    return rows


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.strip().split("\t")
            if len(parts) < 3 or parts[0] == "query-id":
                continue
            qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    return qrels


def write_beir_corpus(corpus: list[dict[str, Any]], folder: Path) -> None:
    """One Markdown file per document: ``# title`` then the text."""
    folder.mkdir(parents=True, exist_ok=True)
    for doc in corpus:
        title = (doc.get("title") or "").strip()
        body = (doc.get("text") or "").strip()
        text = f"# {title}\n\n{body}\n" if title else f"{body}\n"
        (folder / f"{doc['_id']}.md").write_text(text, encoding="utf-8")


def ndcg_at(ranked: list[str], gold: dict[str, int], k: int) -> float:
    dcg = sum((2 ** gold.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(gold.values(), reverse=True)[:k]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], gold: dict[str, int], k: int) -> float:
    relevant = {d for d, g in gold.items() if g > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at(ranked: list[str], gold: dict[str, int], k: int) -> float:
    for i, d in enumerate(ranked[:k]):
        if gold.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def doc_ranking(ws: Athena, query: str, depth: int = 100, mode: str = "hybrid") -> list[str]:
    """Documents in the order of their best chunk (a long abstract may be several chunks)."""
    seen: dict[str, None] = {}
    for hit in ws.search(query, k=depth, mode=mode).hits:
        seen.setdefault(hit.chunk.path.rsplit("/", 1)[-1].removesuffix(".md"), None)
    return list(seen)


def beir_scores(rankings: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Mean nDCG@10, recall@10, recall@100 and MRR@10 over the ranked queries."""
    metrics = {"ndcg@10": (ndcg_at, 10), "recall@10": (recall_at, 10),
               "recall@100": (recall_at, 100), "mrr@10": (mrr_at, 10)}
    n = max(1, len(rankings))
    return {name: round(sum(fn(r, qrels[q], k) for q, r in rankings.items()) / n, 4)
            for name, (fn, k) in metrics.items()}


def open_beir_index(folder: Path, work: Path, overrides: dict[str, Any] | None = None) -> tuple[Athena, Any, float]:
    """Write the corpus under ``work`` (first run only) and bring its index up to date.

    Returns the workspace, the index summary and the seconds the index run took.
    """
    docs_dir = work / "corpus"
    if not docs_dir.is_dir():
        write_beir_corpus(read_jsonl(folder / "corpus.jsonl"), docs_dir)
    ws = Athena(docs_dir, work / "index", overrides=overrides)
    t0 = time.perf_counter()
    summary = ws.index()
    return ws, summary, time.perf_counter() - t0


def eval_beir(folder: str | Path, *, split: str = "test", index_dir: str | None = None,
              mode: str = "hybrid", limit: int = 0, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    folder = Path(folder)
    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / name).is_file():
            raise FileNotFoundError(f"{folder / name} is missing: a BEIR folder has corpus.jsonl, "
                                    "queries.jsonl and qrels/SPLIT.tsv")
    qrels = read_qrels(folder / "qrels" / f"{split}.tsv")
    queries = {q["_id"]: q["text"] for q in read_jsonl(folder / "queries.jsonl") if q["_id"] in qrels}
    ids = sorted(queries)[:limit] if limit else sorted(queries)
    work = Path(index_dir) if index_dir else Path(tempfile.mkdtemp(prefix="athena-beir-"))
    ws, summary, index_s = open_beir_index(folder, work, overrides)
    t0 = time.perf_counter()
    rankings = {qid: doc_ranking(ws, queries[qid], 100, mode) for qid in ids}
    query_s = time.perf_counter() - t0
    out: dict[str, Any] = beir_scores(rankings, qrels)
    out.update(queries=len(ids), mode=mode, embedder=summary.embedder or ws.config.settings.embedding.provider,
               index_seconds=round(index_s, 1), ms_per_query=round(query_s * 1e3 / max(1, len(ids)), 2))
    ws.close()
    return out


def eval_questions(file: str | Path, *, root: str = ".", index_dir: str | None = None,
                   mode: str = "hybrid", overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """recall@1/5/10 where a hit counts if its file matches and its lines overlap a gold span."""
    rows = read_jsonl(Path(file))
    ws = Athena(root, index_dir, overrides=overrides)
    ws.index()  # incremental: a no-op when the folder is already indexed
    hits_at = {1: 0, 5: 0, 10: 0}
    for n, row in enumerate(rows, 1):
        if "question" not in row or not isinstance(row.get("gold"), list):
            raise ValueError(f"{file}:{n}: each line needs \"question\" and a \"gold\" list")
        result = ws.search(row["question"], k=10, mode=mode)
        first = None
        for rank, hit in enumerate(result.hits, 1):
            if any(_overlaps(hit.chunk, g) for g in row["gold"]):
                first = rank
                break
        for k in hits_at:
            hits_at[k] += first is not None and first <= k
    n = max(1, len(rows))
    ws.close()
    return {"recall@1": round(hits_at[1] / n, 4), "recall@5": round(hits_at[5] / n, 4),
            "recall@10": round(hits_at[10] / n, 4), "questions": len(rows), "mode": mode}


def _overlaps(chunk: Any, gold: dict[str, Any]) -> bool:
    if chunk.path != gold.get("path"):
        return False
    if "page" in gold:
        return chunk.page is not None and int(gold["page"]) in chunk.locator.get("pages", [chunk.page])
    start, end = int(gold.get("start_line", 1)), int(gold.get("end_line", 10**9))
    return chunk.start_line <= end and start <= chunk.end_line
