"""Retrieval quality on unseen, user-style questions: athena's configurations and the peers, one run.

Question sets (``bench/data``): ``docs_questions.jsonl`` over ``corpora/docs`` (gold: file +
line span) and ``pdf_questions.jsonl`` over ``corpora/pdfs`` (gold: file + page). Each
question carries ``split`` (dev: tune freely; test: report once per kept change), ``kind``
(concept, identifier, multi-part) and ``lang``. A hit counts when it is in the gold file
and overlaps the gold lines (or includes the gold page); a multi-part question scores the
fraction of its parts found.

Peers, measured in the same run: ``bm25s`` over athena's own chunks (the ranking function
alone), and LlamaIndex BM25 + vector ``QueryFusionRetriever`` with the same MiniLM through
sentence-transformers over the same files with its default chunking (run in the peers'
venv, see ``bench/requirements-peers.txt``).

    python bench/retrieval.py --split dev                      # tune here
    python bench/retrieval.py --split test --peers bm25s,llamaindex --write-docs
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from _common import CORPORA, REPO, context, cpu_seconds, emit, parse_sets, work_dir

from athena_lab.evaluation import chunk_span, load_questions, score_questions, Span
from athena_lab.workspace import Workspace

DATA = REPO / "bench" / "data"
SETS = {
    "docs": (DATA / "docs_questions.jsonl", CORPORA / "docs"),
    "pdf": (DATA / "pdf_questions.jsonl", CORPORA / "pdfs"),
}
# name → (search mode, setting overrides). Search settings change no index: one index serves all.
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "athena hybrid (default) + multilingual vectors": ("hybrid", {}),
    "athena hybrid (default) before multilingual vectors": ("hybrid", {"multilingual.build": "off"}),
    "athena lexical only": ("lexical", {}),
    "athena vectors only (MiniLM)": ("vector", {"multilingual.build": "off"}),
}


def pdf_passwords() -> dict[str, str]:
    manifest = CORPORA / "pdfs" / "manifest.json"
    if not manifest.is_file():
        return {}
    return {m["file"]: m["password"] for m in json.loads(manifest.read_text()) if m.get("password")}


def open_index(name: str, root: Path, index_dir: Path, overrides: dict[str, Any]) -> Workspace:
    extra = {"pdf.passwords": pdf_passwords()} if name == "pdf" else {}
    return Workspace(root, index_dir, overrides={**extra, **overrides})


def timed_ranker(rank: Callable[[str], list[Span]], times: list[float]) -> Callable[[str], list[Span]]:
    def run(question: str) -> list[Span]:
        t = time.perf_counter()
        out = rank(question)
        times.append(time.perf_counter() - t)
        return out
    return run


def p50_ms(times: list[float]) -> float:
    return round(sorted(times)[len(times) // 2] * 1e3, 1) if times else float("nan")


def athena_config(ws_factory: Callable[[dict[str, Any]], Workspace], mode: str, overrides: dict[str, Any],
                  rows: list[dict[str, Any]]) -> dict[str, Any]:
    ws = ws_factory(overrides)
    try:
        ws.search("warm up", k=10, mode=mode)
        times: list[float] = []
        rank = timed_ranker(lambda q: [chunk_span(h.chunk) for h in ws.search(q, k=10, mode=mode).hits], times)
        result = score_questions(rows, rank)
        result["ms_per_query_p50"] = p50_ms(times)
        return result
    finally:
        ws.close()


def bm25s_peer(ws: Workspace, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """bm25s (Lucene BM25, English stopwords, Snowball stemmer) over athena's own chunks."""
    import bm25s

    try:
        import Stemmer
        stemmer = Stemmer.Stemmer("english")
    except ImportError:
        stemmer = None
    chunks = [ws.store.catalog.chunks_by_id([cid])[cid] for (cid,) in
              ws.store.catalog.conn.execute("SELECT chunk_id FROM chunks ORDER BY path, ordinal")]
    corpus = [f"{c.heading}\n{c.text}" for c in chunks]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(corpus, stopwords="en", stemmer=stemmer, show_progress=False),
                    show_progress=False)
    times: list[float] = []

    def rank(question: str) -> list[Span]:
        ids, _ = retriever.retrieve(bm25s.tokenize([question], stopwords="en", stemmer=stemmer,
                                                   show_progress=False), k=10, show_progress=False)
        return [chunk_span(chunks[i]) for i in ids[0]]

    result = score_questions(rows, timed_ranker(rank, times))
    result["ms_per_query_p50"] = p50_ms(times)
    return result


def llamaindex_peer(ws: Workspace, rows: list[dict[str, Any]], work: Path, peers_python: str,
                    set_name: str) -> dict[str, Any]:
    files = sorted(ws.store.catalog.sources())
    (work / f"{set_name}-files.json").write_text(json.dumps(files))
    questions = sorted({r["question"] for r in rows})
    (work / f"{set_name}-questions.json").write_text(json.dumps(questions))
    out = work / f"{set_name}-llamaindex.json"
    cmd = [peers_python, str(REPO / "bench" / "peers" / "llamaindex_run.py"), "--root", str(ws.config.root),
           "--files", str(work / f"{set_name}-files.json"), "--questions", str(work / f"{set_name}-questions.json"),
           "--store", str(work / f"{set_name}-llamaindex-store"), "--out", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": proc.stderr[-2000:]}
    data = json.loads(out.read_text())
    ranks = data.pop("ranks")

    def rank(question: str) -> list[Span]:
        return [Span(s["path"], s.get("start_line", 0), s.get("end_line", 0), tuple(s.get("pages", ())))
                for s in ranks[question]]

    result = score_questions(rows, rank)
    result.update({k: v for k, v in data.items()})
    result["ms_per_query_p50"] = data.get("query_p50_ms")
    return result


def markdown_table(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    lines = ["| system | docs R@1 | docs R@5 | docs R@10 | concept | identifier | multi-part | other-language | PDF page R@5 | PDF other-lang | ms/query (docs) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for system, sets in results.items():
        d, p = sets.get("docs", {}), sets.get("pdf", {})

        def by(r: dict, key: str) -> str:
            v = r.get("by", {}).get(key, {}).get("recall@5")
            return f"{v:.3f}" if isinstance(v, float) else "–"

        def val(r: dict, key: str) -> str:
            v = r.get(key)
            return f"{v:.3f}" if isinstance(v, float) else "–"

        lines.append(f"| {system} | {val(d, 'recall@1')} | **{val(d, 'recall@5')}** | {val(d, 'recall@10')} | "
                     f"{by(d, 'kind:concept')} | {by(d, 'kind:identifier')} | {by(d, 'kind:multi-part')} | "
                     f"{by(d, 'lang:other-language')} | **{val(p, 'recall@5')}** | {by(p, 'lang:other-language')} | "
                     f"{d.get('ms_per_query_p50', '–')} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--sets", default="docs,pdf")
    ap.add_argument("--configs", default=";".join(CONFIGS), help="semicolon-separated names from CONFIGS")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an extra configuration 'athena + KEY=VALUE' (repeatable, combined)")
    ap.add_argument("--peers", default="", help="bm25s,llamaindex")
    ap.add_argument("--multilingual", action="store_true",
                    help="build the multilingual channel too (slow the first time: see docs/embeddings.md)")
    ap.add_argument("--peers-python", default=str(REPO / ".venv-peers" / "bin" / "python"))
    ap.add_argument("--details", action="store_true", help="keep each question's ranks in the output")
    ap.add_argument("--write-docs", action="store_true", help="print the Markdown table for docs/benchmarks.md")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    work = work_dir(args.work, "retrieval")
    result: dict[str, Any] = context()
    result.update(split=args.split, systems={})
    configs = {name: CONFIGS[name] for name in args.configs.split(";") if name}
    if args.set:
        extra = parse_sets(args.set)
        configs["athena + " + ", ".join(args.set)] = ("hybrid", extra)
    peers = [p for p in args.peers.split(",") if p]
    for set_name in [s for s in args.sets.split(",") if s]:
        qfile, root = SETS[set_name]
        rows = load_questions(qfile, args.split)
        index_dir = work / set_name / "index"
        t0, c0 = time.perf_counter(), cpu_seconds()
        summary = open_index(set_name, root, index_dir,
                             {"multilingual.build": "always"} if args.multilingual else {}).index()
        result.setdefault("index", {})[set_name] = {
            "wall_s": round(time.perf_counter() - t0, 1), "cpu_s": round(cpu_seconds() - c0, 1),
            "chunks": summary.chunks, "embedded": summary.embedded, "files": summary.new + summary.changed + summary.unchanged}
        factory = lambda o, n=set_name, r=root, i=index_dir: open_index(n, r, i, o)  # noqa: E731
        for name, (mode, overrides) in configs.items():
            r = athena_config(factory, mode, overrides, rows)
            result["systems"].setdefault(name, {})[set_name] = r
            print(f"{set_name:>5} {name:<40} R@5 {r['recall@5']:.3f}  other-lang "
                  f"{r['by'].get('lang:other-language', {}).get('recall@5', 0):.3f}  p50 {r['ms_per_query_p50']} ms",
                  file=sys.stderr)
        ws = open_index(set_name, root, index_dir, {})
        try:
            if "bm25s" in peers:
                result["systems"].setdefault("bm25s over athena's chunks", {})[set_name] = bm25s_peer(ws, rows)
            if "llamaindex" in peers:
                result["systems"].setdefault("LlamaIndex BM25 + vector fusion (MiniLM)", {})[set_name] = \
                    llamaindex_peer(ws, rows, work, args.peers_python, set_name)
        finally:
            ws.close()
    if not args.details:
        for sets in result["systems"].values():
            for r in sets.values():
                r.pop("details", None)
    result["table"] = markdown_table(result["systems"])
    if args.write_docs:
        print(result["table"])
    emit(result, args.out)


if __name__ == "__main__":
    main()
