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
from dataclasses import dataclass
from typing import Any, Callable

from athena_lab.errors import QuestionFileError
from athena_lab.workspace import Workspace


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise QuestionFileError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
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


def doc_ranking(ws: Workspace, query: str, depth: int = 100, mode: str = "hybrid") -> list[str]:
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


def open_beir_index(folder: Path, work: Path, overrides: dict[str, Any] | None = None) -> tuple[Workspace, Any, float]:
    """Write the corpus under ``work`` (first run only) and bring its index up to date.

    Returns the workspace, the index summary and the seconds the index run took.
    """
    docs_dir = work / "corpus"
    if not docs_dir.is_dir():
        write_beir_corpus(read_jsonl(folder / "corpus.jsonl"), docs_dir)
    ws = Workspace(docs_dir, work / "index", overrides=overrides)
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


QUESTION_KINDS = ("concept", "identifier", "multi-part")


@dataclass(frozen=True)
class Span:
    """What a ranked hit covers, in the terms a gold answer is written in."""

    path: str
    start_line: int = 0
    end_line: int = 0
    pages: tuple[int, ...] = ()


def chunk_span(chunk: Any) -> Span:
    pages = tuple(chunk.locator.get("pages") or ([chunk.page] if chunk.page is not None else []))
    return Span(chunk.path, chunk.start_line, chunk.end_line, pages)


def span_matches(span: Span, gold: dict[str, Any]) -> bool:
    """Same file, and the lines overlap the gold span (or the pages include the gold page)."""
    if span.path != gold["path"]:
        return False
    if "page" in gold:
        return int(gold["page"]) in span.pages
    return span.start_line <= int(gold["end_line"]) and int(gold["start_line"]) <= span.end_line


def load_questions(file: str | Path, split: str = "all") -> list[dict[str, Any]]:
    """Question rows, checked: each needs a question and gold spans; ``split`` filters."""
    if split not in ("all", "dev", "test"):
        raise QuestionFileError(f"split {split!r}: use dev, test or all")
    rows = []
    for n, row in enumerate(read_jsonl(Path(file)), 1):
        where = f"{file}: question {n}"
        if not isinstance(row.get("question"), str) or not row["question"].strip():
            raise QuestionFileError(f"{where}: needs a non-empty \"question\" string")
        gold = row.get("gold")
        if not isinstance(gold, list) or not gold:
            raise QuestionFileError(f"{where}: needs a \"gold\" list of spans ({{path, start_line, end_line}} or {{path, page}})")
        for g in gold:
            if not isinstance(g, dict) or not isinstance(g.get("path"), str):
                raise QuestionFileError(f"{where}: each gold span needs a \"path\"")
            if "page" not in g and not ("start_line" in g and "end_line" in g):
                raise QuestionFileError(f"{where}: gold span for {g['path']} needs start_line and end_line, or page")
        if split != "all" and row.get("split", "dev") != split:
            continue
        rows.append(row)
    if split != "all" and not rows:
        # Scoring 0 questions without a word once passed for a result on this split.
        raise QuestionFileError(f"{file}: no question is marked \"split\": \"{split}\" (a row without one is dev); "
                                "mark the rows (bench/split_questions.py) or use --split all")
    return rows


def question_score(spans: list[Span], gold: list[dict[str, Any]], ks: tuple[int, ...] = (1, 5, 10)) -> dict[str, Any]:
    """Recall of the question's parts at each k, reciprocal rank and right-file-at-5.

    Gold spans sharing a ``part`` are alternatives; a question asking two things has two
    parts, and finding one of them in the top k scores 0.5.
    """
    parts: dict[int, list[dict[str, Any]]] = {}
    for g in gold:
        parts.setdefault(int(g.get("part", 0)), []).append(g)
    firsts = []
    for alternatives in parts.values():
        first = next((rank for rank, span in enumerate(spans, 1)
                      if any(span_matches(span, g) for g in alternatives)), None)
        firsts.append(first)
    found = [f for f in firsts if f is not None]
    gold_paths = {g["path"] for g in gold}
    out: dict[str, Any] = {f"recall@{k}": sum(f is not None and f <= k for f in firsts) / len(firsts) for k in ks}
    out["mrr@10"] = 1.0 / min(found) if found and min(found) <= 10 else 0.0
    out["file@5"] = float(any(s.path in gold_paths for s in spans[:5]))
    out["first_ranks"] = firsts
    return out


def lang_group(row: dict[str, Any]) -> str:
    return "english" if row.get("lang", "en") == "en" else "other-language"


def score_questions(rows: list[dict[str, Any]], rank: Callable[[str], list[Span]],
                    ks: tuple[int, ...] = (1, 5, 10)) -> dict[str, Any]:
    """Metrics over all questions and per kind and language, plus each question's ranks."""
    scored = []
    for row in rows:
        s = question_score(rank(row["question"]), row["gold"], ks)
        scored.append((row, s))
    metric_names = [f"recall@{k}" for k in ks] + ["mrr@10", "file@5"]

    def mean(group: list[tuple[dict, dict]]) -> dict[str, Any]:
        n = len(group)
        out: dict[str, Any] = {m: round(sum(s[m] for _, s in group) / n, 4) if n else 0.0 for m in metric_names}
        out["questions"] = n
        return out

    groups: dict[str, list] = {}
    for row, s in scored:
        for key in (f"kind:{row.get('kind', 'concept')}", f"lang:{lang_group(row)}",
                    f"lang:{row.get('lang', 'en')}"):
            groups.setdefault(key, []).append((row, s))
    result = mean(scored)
    result["by"] = {key: mean(group) for key, group in sorted(groups.items())}
    result["details"] = [{"id": row.get("id"), "question": row["question"], "kind": row.get("kind", "concept"),
                          "lang": row.get("lang", "en"), "first_ranks": s["first_ranks"],
                          f"recall@{ks[1] if len(ks) > 1 else ks[0]}": s[f"recall@{ks[1] if len(ks) > 1 else ks[0]}"]}
                         for row, s in scored]
    return result


def workspace_ranker(ws: Workspace, mode: str = "hybrid", depth: int = 10,
                     translate: Any = None) -> Callable[[str], list[Span]]:
    return lambda question: [chunk_span(h.chunk) for h in
                             ws.search(question, k=depth, mode=mode, translate=translate).hits]


def eval_questions(file: str | Path, *, root: str = ".", index_dir: str | None = None,
                   mode: str = "hybrid", overrides: dict[str, Any] | None = None,
                   split: str = "all", details: bool = False, provider: str | None = None,
                   model: str | None = None, model_path: str | None = None) -> dict[str, Any]:
    """recall@1/5/10 (by question part), MRR@10 and right-file@5, overall and per kind and language.

    A hit counts when its file matches a gold span and its lines overlap it (or, for a
    PDF, its pages include the gold page).
    """
    rows = load_questions(file, split)
    ws = Workspace(root, index_dir, overrides=overrides)
    try:
        ws.index()  # incremental: a no-op when the folder is already indexed
        translate = None
        if (provider or model_path) and provider != "extractive":
            translate = (provider or "local", model, model_path)
        result = score_questions(rows, workspace_ranker(ws, mode, translate=translate))
    finally:
        ws.close()
    result.update(mode=mode, split=split, translated_by=provider or ("local" if model_path else None))
    if not details:
        result.pop("details")
    return result
