"""The HTTP API's own cost, measured against a real `athena serve` process.

1. API overhead per request: GET /athena/search over a keep-alive connection against
   ``Workspace.search`` called directly in this process, same queries, same index.
2. Time to first answer chunk and full-answer time of a streamed chat in extractive mode.
3. N (default 50) chat requests at once: every status code, latency percentiles and the
   server's peak resident memory sampled while they run (a bounded chat thread pool
   should keep memory flat; anything but 200 or 429 is an error).

Index: a copy of the shared Flask docs, lexical only by default (``--embedding minilm``
to include the query embedding on both sides).

    python bench/http_api.py [--work DIR] [--queries 100] [--concurrent 50] [--embedding none]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import psutil
from _common import CORPORA, REPO, context, emit, percentile, work_dir

from athena_lab.workspace import Workspace

QUESTIONS = ["How do I register a blueprint?", "What does the application factory do?",
             "How are tests written with the test client?", "How is configuration loaded from files?",
             "How do I handle errors and return a custom error page?", "What is the request context?",
             "How do I deploy to production?", "How are signals sent?"]


def prepare(work: Path, env: dict[str, str]) -> Path:
    root = work / "flask"
    if not (root / ".athena" / "catalog.sqlite").is_file():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(CORPORA / "docs" / "flask", root)
        subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(root)], env=env, check=True,
                       capture_output=True)
    return root


class Server:
    def __init__(self, root: Path, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "serve", "--path", str(root),
                                      "--port", "0", *args], env=env, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "serving" not in line:
            raise SystemExit(f"athena serve did not start: {line}")
        printed = line.split(" at ", 1)[1].split(" ", 1)[0]
        parts = urlsplit(printed)  # the chat page's URL, http://127.0.0.1:PORT/?token=…
        self.url = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/athena"
        # athena serve generates a token and prints it in the URL; every request sends it.
        token = parse_qs(urlsplit(printed).query).get("token", [""])[0]
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def queries(root: Path, n: int) -> list[str]:
    """Section headings of the corpus, lower-cased like typed queries, repeated up to n."""
    ws = Workspace(root)
    headings = sorted({h.chunk.heading.split(" > ")[-1].lower() for h in ws.search("flask", k=100).hits
                       if h.chunk.heading})
    ws.close()
    return (headings * (n // max(1, len(headings)) + 1))[:n]


def overhead(root: Path, server: Server, qs: list[str]) -> dict[str, Any]:
    ws = Workspace(root)
    for q in qs[:10]:
        ws.search(q)
    direct = []
    for q in qs:
        t = time.perf_counter()
        ws.search(q)
        direct.append((time.perf_counter() - t) * 1e3)
    http = []
    with httpx.Client(timeout=30, headers=server.headers) as client:
        for q in qs[:10]:
            client.get(f"{server.url}/search", params={"q": q})
        for q in qs:
            t = time.perf_counter()
            r = client.get(f"{server.url}/search", params={"q": q})
            r.raise_for_status()
            if "hits" not in r.json():
                raise SystemExit(f"GET {server.url}/search did not answer with hits: {r.text[:200]}")
            http.append((time.perf_counter() - t) * 1e3)
    ws.close()
    med_d, med_h = statistics.median(direct), statistics.median(http)
    return {"queries": len(qs), "direct_search_ms_p50": round(med_d, 3), "http_search_ms_p50": round(med_h, 3),
            "http_search_ms_p95": round(percentile(http, 95), 3), "overhead_ms_p50": round(med_h - med_d, 3)}


def stream_once(client: httpx.Client, url: str, question: str) -> tuple[float, float, int]:
    """(ms to the first text shown — the sources event's quotes, or a chunk — ms to done, status)."""
    t = time.perf_counter()
    first = None
    with client.stream("POST", f"{url}/chat", json={"messages": [{"role": "user", "content": question}]}) as r:
        if r.status_code != 200:
            r.read()
            return float("nan"), (time.perf_counter() - t) * 1e3, r.status_code
        for line in r.iter_lines():
            if first is None and line in ("event: sources", "event: chunk"):
                first = (time.perf_counter() - t) * 1e3
    return first if first is not None else float("nan"), (time.perf_counter() - t) * 1e3, 200


def first_chunk(server: Server, rounds: int) -> dict[str, Any]:
    firsts, totals = [], []
    with httpx.Client(timeout=60, headers=server.headers) as client:
        stream_once(client, server.url, QUESTIONS[0])  # warm-up
        for i in range(rounds):
            f, total, status = stream_once(client, server.url, QUESTIONS[i % len(QUESTIONS)])
            if status != 200:
                raise SystemExit(f"POST {server.url}/chat answered {status}: nothing to measure")
            firsts.append(f)
            totals.append(total)
    return {"chats": rounds, "first_chunk_ms_p50": round(statistics.median(firsts), 1),
            "first_chunk_ms_p95": round(percentile(firsts, 95), 1),
            "full_answer_ms_p50": round(statistics.median(totals), 1)}


def concurrent(server: Server, n: int) -> dict[str, Any]:
    proc = psutil.Process(server.proc.pid)
    rss_before = proc.memory_info().rss / 2**20
    peak = [rss_before]
    running = threading.Event()
    running.set()

    def sample() -> None:
        while running.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss / 2**20)
            time.sleep(0.02)

    results: list[tuple[float, float, int]] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        with httpx.Client(timeout=300, headers=server.headers) as client:
            try:
                out = stream_once(client, server.url, QUESTIONS[i % len(QUESTIONS)])
            except httpx.HTTPError:
                out = (float("nan"), float("nan"), -1)
        with lock:
            results.append(out)

    sampler = threading.Thread(target=sample)
    sampler.start()
    t = time.perf_counter()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t
    running.clear()
    sampler.join()
    codes: dict[str, int] = {}
    for _, _, code in results:
        codes[str(code)] = codes.get(str(code), 0) + 1
    ok = [total for _, total, code in results if code == 200]
    return {"requests": n, "status_counts": codes, "errors": sum(v for k, v in codes.items() if k not in ("200", "429")),
            "wall_s": round(wall, 2), "latency_ms_p50": round(statistics.median(ok), 1) if ok else None,
            "latency_ms_p95": round(percentile(ok, 95), 1) if ok else None,
            "first_chunk_ms_p50": round(statistics.median([f for f, _, c in results if c == 200]), 1) if ok else None,
            "server_rss_mb_before": round(rss_before, 1), "server_rss_mb_peak": round(peak[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", help="folder for the corpus copy and its index")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--chats", type=int, default=20)
    parser.add_argument("--concurrent", type=int, default=50)
    parser.add_argument("--embedding", default="none", choices=("none", "minilm"))
    parser.add_argument("--out", help="also write the JSON result here")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATHENA_")}
    env["ATHENA_EMBEDDING__PROVIDER"] = args.embedding
    os.environ["ATHENA_EMBEDDING__PROVIDER"] = args.embedding  # the direct Workspace in this process
    root = prepare(work_dir(args.work, f"http-{args.embedding}"), env)
    result: dict[str, Any] = {"context": context(), "embedding": args.embedding, "root": str(root)}
    server = Server(root, env, "--rate-limit", "0")
    try:
        qs = queries(root, args.queries)
        result["search_overhead"] = overhead(root, server, qs)
        result["extractive_chat"] = first_chunk(server, args.chats)
    finally:
        server.stop()
    server = Server(root, env)  # default settings: 60 requests per minute per address
    try:
        result["concurrent_chats"] = concurrent(server, args.concurrent)
    finally:
        server.stop()
    emit(result, args.out)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main()
