"""Memory of `athena serve` on an existing index: RSS after start, after warm searches and
after a chat, and the peak (docs/deploy.md's memory budget).

    python bench/serve_memory.py --root $ATHENA_CORPORA/docs --index-dir /work/bench-ret/docs/index
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import httpx
import psutil

QUERIES = ["how do I declare a path parameter", "configure the secret key", "blueprint url prefix",
           "virtual host name based", "pydantic validator for a field", "sphinx autodoc options"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", required=True)
    ap.add_argument("--index-dir", required=True)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATHENA_")}
    proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "serve", "--path", args.root, "--index-dir",
                             args.index_dir, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        line = proc.stdout.readline()
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        base, token = url.split("/?token=") if "/?token=" in url else (url.rsplit("/athena", 1)[0], "")
        token = token.split("&")[0]
        client = httpx.Client(base_url=base + "/athena", headers={"Authorization": f"Bearer {token}"}, timeout=300)
        process = psutil.Process(proc.pid)
        rss = {"started": process.memory_info().rss}
        for q in QUERIES * 3:
            client.get("/search", params={"q": q})
        rss["after 18 searches"] = process.memory_info().rss
        client.post("/chat", json={"messages": [{"role": "user", "content": QUERIES[0]}], "stream": False})
        rss["after a chat"] = process.memory_info().rss
        peak = 0
        with open(f"/proc/{proc.pid}/status") as fh:
            for row in fh:
                if row.startswith("VmHWM:"):
                    peak = int(row.split()[1]) * 1024
        rss["peak (VmHWM)"] = peak
        print(json.dumps({k: f"{v / 2**20:.0f} MB" for k, v in rss.items()}, indent=2))
    finally:
        proc.terminate()
        proc.wait(30)


if __name__ == "__main__":
    main()
