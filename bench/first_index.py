"""First index of a folder: athena (default settings) against LlamaIndex, one after the other.

Both start from nothing: athena into a new index directory (its embedding cache empty),
LlamaIndex into a new storage folder, over the same files (the ones athena indexed), with
the same MiniLM (athena: int8 ONNX on its default runtime; LlamaIndex: sentence-transformers
on torch). Wall and CPU seconds for each; the ratio is the figure that survives the load.

    python bench/first_index.py --work /tmp/b/first --corpus docs
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time

from _common import CORPORA, REPO, context, cpu_seconds, emit, peak_rss_mb, work_dir

from athena_lab.workspace import Workspace


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", default=None)
    ap.add_argument("--corpus", default="docs", help="a folder under the corpora (docs, pdfs)")
    ap.add_argument("--peers-python", default=str(REPO / ".venv-peers" / "bin" / "python"))
    args = ap.parse_args()
    work = work_dir(args.work, "first-index")
    root = CORPORA / args.corpus
    result = context()
    index_dir = work / "athena-index"
    shutil.rmtree(index_dir, ignore_errors=True)
    ws = Workspace(root, index_dir, overrides={"multilingual.build": "off"})
    t0, c0 = time.perf_counter(), cpu_seconds()
    summary = ws.index()
    result["athena"] = {"wall_s": round(time.perf_counter() - t0, 1), "cpu_s": round(cpu_seconds() - c0, 1),
                        "files": summary.new, "chunks": summary.chunks, "embedded": summary.embedded,
                        "embedder": summary.embedder, "peak_rss_mb": round(peak_rss_mb())}
    files = sorted(ws.store.catalog.sources())
    ws.close()
    (work / "files.json").write_text(json.dumps(files))
    (work / "questions.json").write_text("[]")
    store = work / "llamaindex-store"
    shutil.rmtree(store, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.run([args.peers_python, str(REPO / "bench" / "peers" / "llamaindex_run.py"), "--root", str(root),
                           "--files", str(work / "files.json"), "--questions", str(work / "questions.json"),
                           "--store", str(store), "--out", str(work / "llamaindex.json")],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        result["llamaindex"] = {"error": proc.stderr[-2000:]}
    else:
        peer = json.loads((work / "llamaindex.json").read_text())
        peer.pop("ranks", None)
        peer["process_wall_s"] = round(time.perf_counter() - t0, 1)
        result["llamaindex"] = peer
        result["athena_over_llamaindex_wall"] = round(result["athena"]["wall_s"] / peer["index_wall_s"], 3)
        result["athena_over_llamaindex_cpu"] = round(result["athena"]["cpu_s"] / peer["index_cpu_s"], 3)
    result["load_average_end"] = context()["load_average"]
    emit(result, None)


if __name__ == "__main__":
    main()
