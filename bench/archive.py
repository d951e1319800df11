"""A real paper archive (papers-we-love): garbled pages found, and indexing at 1× and 4×.

The archive is fetched apart, never stored here or used in CI (docs/benchmarks.md, "A
real paper archive"); point ``--root`` at its checkout.

    python bench/archive.py garbled --root /work/data/pwl [--out FILE]
        every page read with OCR off: which pages the extractor calls garbled, against the
        pages labelled by hand in bench/data/labels/archive_garbled_labels.jsonl (precision and
        recall), and how many papers have no searchable text without OCR
    python bench/archive.py ocr --root /work/data/pwl
        the papers with pages only OCR can read, parsed with OCR on through the worker pool:
        pages read with OCR, wall and CPU seconds (OCR's pages/s, apart from indexing)
    python bench/archive.py index --root /work/data/pwl --work DIR [--copies 4] [--only] [--ocr off]
        `athena index` of the archive, then of the archive with COPIES−1 renamed copies of
        every paper added (each copy made different by a comment appended after %%EOF, so
        it is parsed and embedded again, not recognised as the same file), each in a fresh
        process: seconds, chunks/s, peak RSS of the indexer and of its PDF workers, and raw
        onnxruntime embedding of the same chunk texts in the same run
    python bench/archive.py batches --index-dir DIR
        the vectors phase's embedding calls replayed on an index's chunk texts (tokenizing
        only): the share of token positions that are real tokens, and the batch shapes,
        with texts cut by characters and by token count
    python bench/archive.py calls --index-dir DIR [--cap 2048] [--batch-size 16] [--lanes 1]
        the default embedder alone on a seeded sample of an index's chunk texts, cut into calls
        as the vectors phase cuts them with CAP padded token positions a call (EMBED_TOKENS),
        BATCH-SIZE texts an inference and LANES of OpenVINO's document lanes: texts per second
        and per CPU-second after a warm-up pass, and the process's peak RSS (run one setting
        per process, alternated)
    python bench/archive.py parse --root /work/data/pwl [--sample 25] [--seed 1] [--repeat 1]
        PDF parsing alone, OCR off, in this process: CPU milliseconds a page on a seeded
        random sample of the papers (the work the PDF workers do beside the embedder);
        run it with a git archive of another commit on PYTHONPATH to compare
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from _common import REPO, context, emit, load_average

LABELS = REPO / "bench" / "data" / "labels" / "archive_garbled_labels.jsonl"


# --- PDF parsing cost ---------------------------------------------------------------------

def parse_cost(root: Path, sample: int, seed: int, repeat: int) -> dict[str, Any]:
    """CPU seconds (``time.process_time``) to parse ``sample`` papers chosen with ``seed``,
    OCR off, ``repeat`` times; the same papers as the profile the issue's finding used."""
    import athena_lab
    from athena_lab.ingest.parsers.pdf import PdfOptions, parse

    files = sorted(root.rglob("*.pdf"))
    random.Random(seed).shuffle(files)
    files = files[:sample]
    runs = []
    for _ in range(repeat):
        cpu = time.process_time()
        pages = 0
        for f in files:
            pages += parse(f, str(f.relative_to(root)), PdfOptions(ocr="off")).pages or 0
        cpu = time.process_time() - cpu
        runs.append({"cpu_s": round(cpu, 2), "ms_per_page": round(1000 * cpu / max(pages, 1), 1)})
    return {"bench": "archive_parse_cost", "code": str(Path(athena_lab.__file__).parent),
            "files": len(files), "pages": pages, "runs": runs, "load_average": load_average()}


# --- padding of the vectors phase's batches ---------------------------------------------

def batches(index_dir: Path) -> dict[str, Any]:
    """The vectors phase's embedding calls replayed on an index's chunk texts (windows of
    EMBED_WINDOW in catalog order, then the embedder's own split into ``batch_size``):
    the share of the token positions computed that are real tokens, and the distinct
    inference shapes, for texts cut by characters (main before issue 30's token sort) and
    by token count (``plan_batches``). Tokenizing only: no inference."""
    from _common import embedding_jobs

    from athena_lab.config import load_config
    from athena_lab.index.embeddings import OnnxEmbedder, make_embedder
    from athena_lab.index.store import IndexStore
    from athena_lab.ingest.vectors import EMBED_WINDOW, embed_groups, plan_batches

    store = IndexStore(index_dir)
    try:
        texts = embedding_jobs(store.catalog)
    finally:
        store.close()
    embedder = make_embedder(load_config(".").settings.embedding)
    assert isinstance(embedder, OnnxEmbedder), "the default embedder (MiniLM) counts tokens"
    hashes = list(texts)
    tokens = dict(zip(hashes, embedder.token_lengths([texts[h] for h in hashes])))
    pad, size = embedder.pad_to, embedder.batch_size

    def replay(calls: list[list[str]]) -> dict[str, Any]:
        shapes: set[tuple[int, int]] = set()
        real = padded = 0
        for call in calls:
            order = sorted(call, key=lambda h: tokens[h])
            for start in range(0, len(order), size):
                group = order[start:start + size]
                width = -(-max(tokens[h] for h in group) // pad) * pad
                shapes.add((len(group), width))
                real, padded = real + sum(tokens[h] for h in group), padded + width * len(group)
        return {"calls": len(calls), "real_tokens": real, "positions": padded,
                "real_share": round(real / padded, 3), "shapes": len(shapes)}

    by_chars: list[list[str]] = []
    by_tokens: list[list[str]] = []
    for start in range(0, len(hashes), EMBED_WINDOW):
        window = hashes[start:start + EMBED_WINDOW]
        by_chars += embed_groups(sorted(window, key=lambda h: len(texts[h])), texts)
        by_tokens += plan_batches(embedder, window, texts, tokens)
    return {"bench": "archive_batches", "texts": len(hashes), "by_characters": replay(by_chars),
            "by_tokens": replay(by_tokens)}


# --- embedding calls: size and lanes ----------------------------------------------------

def calls(index_dir: Path, cap: int, batch_size: int, lanes: int, sample: int, passes: int) -> dict[str, Any]:
    """The vectors phase's embedding calls on ``sample`` chunk texts (seed 0, as ``raw``):
    planned with ``cap`` positions a call, embedded by ``embed_here`` with ``lanes`` document
    lanes, once to warm the shapes up and ``passes`` times measured."""
    from _common import embedding_jobs, peak_rss_mb

    from athena_lab.index import runtimes
    from athena_lab.index.embeddings import OnnxEmbedder, minilm_paths
    from athena_lab.index.store import IndexStore
    from athena_lab.ingest import vectors

    store = IndexStore(index_dir)
    try:
        texts = list(embedding_jobs(store.catalog).values())
    finally:
        store.close()
    texts = random.Random(0).sample(texts, min(sample, len(texts)))
    vectors.EMBED_TOKENS = cap
    runtimes.LANES = lanes
    model, tokenizer = minilm_paths()
    embedder = OnnxEmbedder(model, tokenizer, name="all-MiniLM-L6-v2-int8", dimensions=384, batch_size=batch_size)
    by_key = {str(i): t for i, t in enumerate(texts)}
    planned = [[by_key[k] for k in call] for call in vectors.plan_batches(embedder, list(by_key), by_key)]
    runs = []
    for n in range(passes + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in vectors.embed_here(embedder, planned):
            pass
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        if n:  # the first pass compiles every shape once
            runs.append({"seconds": round(seconds, 2), "cpu_s": round(cpu, 2),
                         "texts_per_s": round(len(texts) / seconds, 2),
                         "texts_per_cpu_s": round(len(texts) / cpu, 2)})
    return {"bench": "archive_calls", "cap": cap, "batch_size": batch_size, "lanes": embedder.lanes,
            "texts": len(texts), "calls": len(planned), "runs": runs, "peak_rss_mb": round(peak_rss_mb()),
            "load_average": load_average()}


# --- garbled pages ------------------------------------------------------------------------

def _pages(job: tuple[str, str]) -> tuple[str, list[dict[str, Any]]]:
    root, rel = job
    from athena_lab.pdf.document import open_pdf
    from athena_lab.pdf.pages import extract_page

    try:
        doc = open_pdf(Path(root) / rel, rel, None)
    except Exception as exc:  # noqa: BLE001 - a file that does not open is reported, not fatal
        return rel, [{"error": str(exc)}]
    out = []
    try:
        for i in range(len(doc)):
            page = extract_page(doc, i, "off")
            out.append({"page": i + 1, "garbled": any(w.startswith("garbled") for w in page.warnings),
                        "chars": page.chars, "source": page.source})
    finally:
        doc.close()
    return rel, out


def _labels(files: dict[str, list[dict[str, Any]]]) -> dict[tuple[str, int], bool]:
    out: dict[tuple[str, int], bool] = {}
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        pages = [p["page"] for p in files.get(label["path"], [])] if label["pages"] == "all" else label["pages"]
        for page in pages:
            if page not in label.get("except", []):
                out[(label["path"], page)] = label["garbled"]
    return out


def garbled(root: Path) -> dict[str, Any]:
    files: dict[str, list[dict[str, Any]]] = {}
    jobs = sorted((str(root), str(p.relative_to(root))) for p in root.rglob("*.pdf"))
    started = time.perf_counter()
    with Pool(2) as pool:
        for rel, pages in pool.imap_unordered(_pages, jobs):
            files[rel] = pages
    seconds = time.perf_counter() - started
    labels = _labels(files)
    said = {(rel, p["page"]): p["garbled"] for rel, pages in files.items() for p in pages if "page" in p}
    # pages not labelled by hand are clean (a random sample of 60 of them was read: none garbled)
    truth = {key: labels.get(key, False) for key in said}
    tp = sum(1 for k, v in said.items() if v and truth[k])
    fp = sorted(f"{k[0]} p{k[1]}" for k, v in said.items() if v and not truth[k])
    fn = sorted(f"{k[0]} p{k[1]}" for k, v in said.items() if not v and truth[k])
    no_text = sorted(rel for rel, pages in files.items()
                     if pages and all(p.get("chars", 0) == 0 or p.get("garbled") for p in pages))
    return {"bench": "archive_garbled", "papers": len(files), "pages": len(said),
            "labelled_garbled": sum(truth.values()), "said_garbled": sum(said.values()),
            "precision": round(tp / max(1, tp + len(fp)), 4), "recall": round(tp / max(1, tp + len(fn)), 4),
            "false_positives": fp, "false_negatives": fn,
            "papers_without_text_when_ocr_off": no_text, "seconds": round(seconds, 1)}


# --- OCR apart ---------------------------------------------------------------------------

def ocr(root: Path) -> dict[str, Any]:
    """Parse (OCR on) every paper the garbled survey or the scans need OCR for."""
    from _common import cpu_seconds

    from athena_lab.ingest.parsers.pdf import PdfOptions
    from athena_lab.ingest.pdf_pool import parse_pdfs
    from athena_lab.pdf.ocr import engine_name

    papers = sorted({json.loads(line)["path"] for line in LABELS.read_text(encoding="utf-8").splitlines()
                     if line.strip() and json.loads(line)["garbled"]}
                    | {"sublinear_algorithms/1985-Flajolet-Probabilistic-counting.pdf",
                       "distributed_systems/a-hundred-impossibility-proofs-for-distributed-computing.pdf",
                       "garbage_collection/the_lisp_ii_garbage_collector.pdf"})
    before = load_average()
    t0, c0 = time.perf_counter(), cpu_seconds(children=True)
    results = dict(parse_pdfs([(root / p, p) for p in papers], PdfOptions(ocr="auto")))
    seconds, cpu = time.perf_counter() - t0, cpu_seconds(children=True) - c0
    pages = sum(1 for doc in results.values() if not isinstance(doc, str)
                for page in doc.metadata["pages"] if page["source"] == "ocr")
    unreadable = {p: [page["page"] for page in doc.metadata["pages"] if page["source"] == "none"]
                  for p, doc in results.items() if not isinstance(doc, str)}
    return {"bench": "archive_ocr", "engine": engine_name(), "papers": len(papers),
            "errors": {p: r for p, r in results.items() if isinstance(r, str)},
            "pages_read_with_ocr": pages, "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
            "pages_per_s": round(pages / seconds, 3), "cpu_s_per_ocr_page": round(cpu / max(1, pages), 2),
            "pages_left_unreadable": {p: v for p, v in unreadable.items() if v},
            "load_average_before": before, "load_average_after": load_average()}


# --- indexing at 1x and 4x ---------------------------------------------------------------

def _copy_archive(root: Path, dest: Path, copies: int) -> int:
    """``dest`` holds the archive ``copies`` times: copy n of ``a/b.pdf`` is ``a/b.copyN.pdf``
    with "%copy N" appended, so its bytes (and hash) differ from the original's."""
    shutil.rmtree(dest, ignore_errors=True)
    count = 0
    for pdf in sorted(root.rglob("*.pdf")):
        rel = pdf.relative_to(root)
        for n in range(copies):
            target = dest / rel.parent / (rel.name if n == 0 else f"{rel.stem}.copy{n}{rel.suffix}")
            target.parent.mkdir(parents=True, exist_ok=True)
            if n == 0:
                os.link(pdf, target) if pdf.stat().st_dev == target.parent.stat().st_dev else shutil.copy(pdf, target)
            else:
                target.write_bytes(pdf.read_bytes() + f"\n%copy {n}\n".encode())
            count += 1
    return count


def _index(folder: Path, index_dir: Path, ocr: str) -> dict[str, Any]:
    """One `athena index` run in a fresh process: wall seconds, the summary, peak RSS of
    the indexer (and of the largest PDF worker: children report their own maximum), CPU
    seconds of the indexer and of its PDF workers, and for each progress phase (scan,
    parse, embed, …) when it was first and last reported, and every 10 s between: [wall s,
    indexer CPU s, PDF workers' CPU s, done, total] (the workers' CPU counts once they have
    exited, i.e. after parsing)."""
    shutil.rmtree(index_dir, ignore_errors=True)
    code = (
        "import json, resource, sys, time\n"
        "from athena_lab.config import load_config\n"
        "from athena_lab.ingest.pipeline import run_index\n"
        f"config = load_config({str(folder)!r}, index_dir={str(index_dir)!r}, "
        f"overrides={{'pdf.ocr': {ocr!r}}})\n"
        "def peak_mb():\n"
        "    # VmHWM: this program's own peak. ru_maxrss would also count the image before exec,\n"
        "    # a fork of this bench, which had held 1.3 GB once it had measured raw rates.\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            return round(int(line.split()[1]) / 1024)\n"
        "    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
        "def cpu(who):\n"
        "    u = resource.getrusage(who)\n"
        "    return round(u.ru_utime + u.ru_stime, 1)\n"
        "phases = {}\n"
        "def progress(phase, done, total):\n"
        "    now = [round(time.perf_counter() - t, 1), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN),\n"
        "           done, total]\n"
        "    entry = phases.setdefault(phase, {'first': now, 'every_10_s': []})\n"
        "    entry['last'] = now\n"
        "    if not entry['every_10_s'] or now[0] - entry['every_10_s'][-1][0] >= 10:\n"
        "        entry['every_10_s'].append(now)\n"
        "t = time.perf_counter()\n"
        "s = run_index(config, progress=progress)\n"
        "out = {'seconds': round(time.perf_counter() - t, 1), 'chunks': s.chunks, 'new': s.new,\n"
        "       'failed': s.failed, 'embedded': s.embedded, 'duplicates': getattr(s, 'duplicates', 0),\n"
        "       'cpu_s': cpu(resource.RUSAGE_SELF), 'worker_cpu_s': cpu(resource.RUSAGE_CHILDREN),\n"
        "       'phases': phases,\n"
        "       'rss_mb': peak_mb(),\n"
        "       'worker_rss_mb': round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)}\n"
        "print(json.dumps(out))\n")
    before = load_average()
    # run from the work folder: `python -c` puts the working directory first on sys.path, so
    # a PYTHONPATH pointing at another checkout (the "before" code) would lose to this one
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=index_dir.parent)
    trace = _rss_trace(proc)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"athena index failed:\n{err[-3000:]}")
    result = json.loads(out.strip().splitlines()[-1])
    result["rss_trace_mb"] = trace
    result["anon_peak_mb"] = max((anon for _, _, anon in trace), default=0)
    result["chunks_per_s"] = round(result["chunks"] / max(result["seconds"], 0.001), 2)
    result["load_average_before"], result["load_average_after"] = before, load_average()
    return result


def _rss_trace(proc: subprocess.Popen) -> list[tuple[int, int, int]]:
    """(seconds since start, resident MB of the indexer, of it anonymous MB) every 30 s while
    it runs: flat or growing, not only its peak. Resident memory counts the pages of the
    index files the process has mapped and read (Tantivy's segments), which the kernel
    takes back when it needs them; the anonymous part (resident minus file-backed) is what
    the process itself holds. Its output is one JSON line: it waits in the pipe."""
    import psutil

    started = time.monotonic()
    trace: list[tuple[int, int, int]] = []
    try:
        process = psutil.Process(proc.pid)
        while proc.poll() is None:
            memory = process.memory_info()
            trace.append((round(time.monotonic() - started), round(memory.rss / 2**20),
                          round((memory.rss - memory.shared) / 2**20)))
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
    except psutil.NoSuchProcess:
        pass
    return trace


def _raw_rate(index_dir: Path, folder: Path, sample: int, runtime: str | None = None) -> dict[str, Any]:
    """The embedder alone on a random sample of the indexed chunk texts, as bench/indexing.py
    measures it (the issue's "raw onnxruntime", 17.1 texts/s): batches of 64 in catalog
    order, nothing else running in this process."""
    from _common import cpu_seconds, embedding_jobs

    from athena_lab.config import load_config
    from athena_lab.index.embeddings import make_embedder
    from athena_lab.index.store import IndexStore

    config = load_config(str(folder), index_dir=str(index_dir),
                         overrides={"embedding.runtime": runtime} if runtime else None)
    store = IndexStore(index_dir)
    try:
        texts = list(embedding_jobs(store.catalog).values())
    finally:
        store.close()
    if sample and sample < len(texts):
        texts = random.Random(0).sample(texts, sample)
    embedder = make_embedder(config.settings.embedding)
    assert embedder is not None
    before = load_average()
    t0, c0 = time.perf_counter(), cpu_seconds()
    for start in range(0, len(texts), 64):
        embedder.embed_documents(texts[start:start + 64])
    seconds = time.perf_counter() - t0
    cpu = cpu_seconds() - c0
    info = getattr(embedder, "runtime", None)
    return {"runtime": f"{info.name} {info.precision}" if info is not None else runtime or "auto",
            "texts": len(texts), "seconds": round(seconds, 1), "chunks_per_s": round(len(texts) / seconds, 2),
            "cpu_seconds": round(cpu, 1), "chunks_per_cpu_s": round(len(texts) / cpu, 2),
            "load_average_before": before,
            "load_average_after": load_average()}


def index(root: Path, work: Path, copies: int, ocr: str, sample: int, only: bool = False) -> dict[str, Any]:
    runs: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    raw_default: dict[str, Any] = {}
    for times in [copies] if only else sorted({1, copies}):
        folder = work / f"archive-{times}x"
        files = _copy_archive(root, folder, times)
        result = _index(folder, work / f"index-{times}x", ocr)
        result["files"] = files
        if not result["chunks"]:
            raise SystemExit(f"athena index wrote no chunks for {folder}: {result}")
        runs[f"{times}x"] = result
        print(json.dumps({f"{times}x": result}), file=sys.stderr)
        if not raw:  # right after the first run: the load it ran under
            # the baseline is raw onnxruntime; the default runtime's own raw rate
            # (OpenVINO where installed) is reported beside it
            raw = _raw_rate(work / f"index-{times}x", folder, sample, "onnxruntime")
            raw_default = _raw_rate(work / f"index-{times}x", folder, sample)
            print(json.dumps({"raw": raw, "raw_default": raw_default}), file=sys.stderr)
    for result in runs.values():
        result["x_raw"] = round(result["chunks_per_s"] / raw["chunks_per_s"], 2)
        result["x_raw_default"] = round(result["chunks_per_s"] / raw_default["chunks_per_s"], 2)
    return {"bench": "archive_index", "ocr": ocr, "runs": runs, "raw_embedder": raw,
            "raw_default_runtime": raw_default}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("garbled")
    g.add_argument("--root", required=True)
    g.add_argument("--out")
    r = sub.add_parser("raw", help="the embedder alone on an index's chunk texts (wall and CPU rate)")
    r.add_argument("--root", required=True, help="the folder the index was built from")
    r.add_argument("--index-dir", required=True)
    r.add_argument("--runtime", default=None, help="embedding.runtime to force (onnxruntime, openvino)")
    r.add_argument("--raw-sample", type=int, default=1500)
    r.add_argument("--out")
    b = sub.add_parser("batches", help="padding of the vectors phase's calls, by characters and by tokens")
    b.add_argument("--index-dir", required=True)
    b.add_argument("--out")
    k = sub.add_parser("calls", help="the embedder on an index's texts, by call size and document lanes")
    k.add_argument("--index-dir", required=True)
    k.add_argument("--cap", type=int, default=2048, help="padded token positions a call (EMBED_TOKENS)")
    k.add_argument("--batch-size", type=int, default=16, help="texts an inference (embedding.batch_size)")
    k.add_argument("--lanes", type=int, default=1, help="OpenVINO document lanes (index/runtimes.py LANES)")
    k.add_argument("--sample", type=int, default=600)
    k.add_argument("--passes", type=int, default=1)
    k.add_argument("--out")
    c = sub.add_parser("parse", help="PDF parsing alone, OCR off: CPU ms a page on a seeded sample")
    c.add_argument("--root", required=True)
    c.add_argument("--sample", type=int, default=25)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--repeat", type=int, default=1)
    c.add_argument("--out")
    o = sub.add_parser("ocr")
    o.add_argument("--root", required=True)
    o.add_argument("--out")
    i = sub.add_parser("index")
    i.add_argument("--root", required=True)
    i.add_argument("--work", required=True, help="scratch folder for the copies and the indexes")
    i.add_argument("--copies", type=int, default=4)
    i.add_argument("--ocr", default="off", choices=["off", "auto"])
    i.add_argument("--raw-sample", type=int, default=2000, help="chunk texts for the raw onnxruntime rate")
    i.add_argument("--only", action="store_true", help="index only the COPIES-times archive, not 1x first")
    i.add_argument("--out")
    args = ap.parse_args()
    if args.what == "garbled":
        result = garbled(Path(args.root))
    elif args.what == "raw":
        result = {"bench": "archive_raw_embedder",
                  **_raw_rate(Path(args.index_dir), Path(args.root), args.raw_sample, args.runtime)}
    elif args.what == "batches":
        result = batches(Path(args.index_dir))
    elif args.what == "calls":
        result = calls(Path(args.index_dir), args.cap, args.batch_size, args.lanes, args.sample, args.passes)
    elif args.what == "ocr":
        result = ocr(Path(args.root))
    elif args.what == "parse":
        result = parse_cost(Path(args.root), args.sample, args.seed, args.repeat)
    else:
        result = index(Path(args.root), Path(args.work), args.copies, args.ocr, args.raw_sample, args.only)
    emit({**result, "context": context()}, args.out)


if __name__ == "__main__":
    main()
