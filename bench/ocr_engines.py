"""OCR engines on the paper archive: pages per second and how well they read.

Two page sets from papers-we-love (fetched apart, see docs/benchmarks.md):
- scans: pages of the three scanned papers (Flajolet–Martin 1985, Lynch's MIT report, the
  Lisp II collector), which only OCR can read — timed;
- printed: pages with a good text layer, rendered and read back — the text layer is the
  truth: word recall (the share of the layer's words, counted with repeats, that the engine
  read) and word precision (the share of the words read that the layer has). Words, not
  characters: an engine that reads two columns in another order is not wrong.
Every engine renders the same page images (pypdfium2, scale 2.0 = 144 dpi) in one process,
one after the other, so the load is shared alike; the load average is printed with the result.

    python bench/ocr_engines.py --root /work/data/pwl [--engines rapidocr-onnxruntime,tesseract]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from _common import context, cpu_seconds, emit, load_average

SCANS = [("sublinear_algorithms/1985-Flajolet-Probabilistic-counting.pdf", [1, 2, 5, 10]),
         ("distributed_systems/a-hundred-impossibility-proofs-for-distributed-computing.pdf", [2, 5, 12]),
         ("garbage_collection/the_lisp_ii_garbage_collector.pdf", [1])]
PRINTED = [("distributed_systems/zookeeper-wait-free-coordination-for-internet-scale-systems.pdf", [2]),
           ("information_theory/a-mathematical-theory-of-communication-1948.pdf", [3]),
           ("datastores/dynamo-amazons-highly-available-key-value-store.pdf", [3]),
           ("processes/communicating-sequential-processes-paper.pdf", [2])]
SCALE = 2.0


def _rapidocr(module: str) -> Callable[[Any], str]:
    engine = __import__(module, fromlist=["RapidOCR"]).RapidOCR()

    def read(image: Any) -> str:
        import numpy as np

        result, _ = engine(np.asarray(image))
        return "\n".join(str(r[1]) for r in sorted(result or [], key=lambda r: (r[0][0][1], r[0][0][0])))
    return read


def _tesseract() -> Callable[[Any], str]:
    import tesserocr

    import glob

    data = sorted(glob.glob("/usr/share/tesseract-ocr/*/tessdata"))  # Debian's tesseract-ocr-eng
    api = tesserocr.PyTessBaseAPI(path=data[-1] if data else "", lang="eng")

    def read(image: Any) -> str:
        api.SetImage(image)
        return api.GetUTF8Text()
    return read


ENGINES: dict[str, Callable[[], Callable[[Any], str]]] = {
    "rapidocr-onnxruntime": lambda: _rapidocr("rapidocr_onnxruntime"),
    "rapidocr-openvino": lambda: _rapidocr("rapidocr_openvino"),
    "tesseract": _tesseract,
}


def _words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in re.findall(r"[^\W_]{2,}", text))


def word_scores(truth: str, read: str) -> tuple[float, float]:
    """(recall, precision) of the words read against the text layer's words."""
    want, got = _words(truth), _words(read)
    same = sum((want & got).values())
    return round(same / max(1, sum(want.values())), 4), round(same / max(1, sum(got.values())), 4)


def pages(root: Path, sets: list[tuple[str, list[int]]]) -> list[tuple[str, Any, str]]:
    import pypdfium2 as pdfium

    out = []
    for rel, numbers in sets:
        doc = pdfium.PdfDocument(str(root / rel))
        for n in numbers:
            page = doc[n - 1]
            textpage = page.get_textpage()
            out.append((f"{rel} p{n}", page.render(scale=SCALE).to_pil().convert("RGB"),
                        textpage.get_text_range()))
            textpage.close()
            page.close()
        doc.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--out")
    args = ap.parse_args()
    scans, printed = pages(Path(args.root), SCANS), pages(Path(args.root), PRINTED)
    results: dict[str, Any] = {}
    for name in args.engines.split(","):
        try:
            t0 = time.perf_counter()
            read = ENGINES[name]()
            load_s = time.perf_counter() - t0
        except Exception as exc:  # noqa: BLE001 - an engine that does not install or load is a result too
            results[name] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            continue
        before = load_average()
        t0, c0 = time.perf_counter(), cpu_seconds()
        scan_text = [read(image) for _, image, _ in scans]
        seconds, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        scores = [word_scores(truth, read(image)) for _, image, truth in printed]
        results[name] = {
            "load_s": round(load_s, 1), "scan_pages": len(scans), "scan_seconds": round(seconds, 1),
            "pages_per_s": round(len(scans) / seconds, 3), "cpu_s_per_page": round(cpu / len(scans), 2),
            "scan_chars": sum(len(t) for t in scan_text),
            "printed_word_recall": [r for r, _ in scores],
            "printed_word_recall_mean": round(sum(r for r, _ in scores) / len(scores), 4),
            "printed_word_precision_mean": round(sum(p for _, p in scores) / len(scores), 4),
            "load_average": f"{before} → {load_average()}"}
    emit({"bench": "ocr_engines", "scale": SCALE, "engines": results, "context": context()}, args.out)


if __name__ == "__main__":
    main()
