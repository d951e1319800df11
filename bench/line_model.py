"""Fit the line classifier of bench/line_classifier.py on the hand-checked records, and
measure it on labelling rounds it never saw.

    python bench/line_model.py --root ARCHIVE --papers DIR --readings DIR [--corpus DIR] --write
        fit on every dev paper and write bench/data/line_model.json
    python bench/line_model.py --root ARCHIVE --papers DIR --readings DIR --labels
        how many lines of the dev pages the gold labels title / author, and the papers
        where no title line was found

Labels are weak: for each dev paper's first page (the page ``paper_record`` reads: the
one after a repository's cover sheet), the lines whose text is part of the gold title (the
longest such run) are title lines, the lines naming a gold author's surname are author
lines, the rest other (``line_classifier.gold_labels``). Only dev rows are ever read here: the test
split stays held out. The model is a multinomial logistic regression on standardised
features, L2-penalised, fitted by Newton's method from zero weights: the same data give the
same weights, with no seed to set. ``bench/archive_metadata.py --loro``
fits it once per labelling round left out and scores that round.

``--cache FILE`` keeps the extracted pages (a pickle, outside the checkout) so a second
run skips reading the PDFs; it is keyed by the rows' paths and the OCR mode.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import line_classifier as L
import numpy as np
from _common import CORPORA, REPO
from archive_metadata import add_collection_options, collection_roots

from athena_lab.pdf.meta import cover_sheet
from athena_lab.pdf.pages import PageText

GOLD = REPO / "bench" / "data" / "archive_metadata.jsonl"

Pages = dict[str, tuple[dict[str, str], PageText | None, PageText | None]]


def gold_rows(split: str | None = "dev") -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split is None or r["split"] == split]


def row_key(row: dict[str, Any]) -> str:
    return f"{row.get('root', 'archive')}:{row['path']}"


def load_pages(rows: list[dict[str, Any]], roots: dict[str, str | None], ocr: str,
               cache: str | None = None) -> Pages:
    """Each row's info dictionary, first page and the page after a cover sheet (as
    ``archive_metadata.first_page`` reads them), from the cache when it has them."""
    from archive_metadata import first_page

    stored: Pages = {}
    path = Path(cache) if cache else None
    if path is not None and path.exists():
        stored = pickle.loads(path.read_bytes()).get(ocr, {})
    out: Pages = {}
    for row in rows:
        k = row_key(row)
        if k not in stored:
            root = roots.get(row.get("root", "")) or roots["archive"]
            stored[k] = first_page(Path(str(root)) / row["path"], row["path"], ocr)
        out[k] = stored[k]
    if path is not None:
        everything = pickle.loads(path.read_bytes()) if path.exists() else {}
        everything[ocr] = {**everything.get(ocr, {}), **stored}
        path.write_bytes(pickle.dumps(everything))
    return out


def read_page(first: PageText | None, after: PageText | None) -> PageText | None:
    """The page the record is read from: the one after a repository's cover sheet."""
    return after if after is not None and cover_sheet(first) else first


_FEATURES: dict[int, tuple[PageText | None, np.ndarray]] = {}


def page_features(page: PageText | None) -> np.ndarray:
    """``line_classifier.features`` of a page, computed once per page object in this process."""
    if id(page) not in _FEATURES:
        _FEATURES[id(page)] = (page, L.features(page))  # the page kept: its id stays its own
    return _FEATURES[id(page)][1]


def dataset(rows: list[dict[str, Any]], pages: Pages) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for row in rows:
        _, first, after = pages[row_key(row)]
        page = read_page(first, after)
        x = page_features(page)
        if not len(x):
            continue
        xs.append(x)
        ys.append(np.asarray(L.gold_labels(page, row["title"], row["authors"])))
    return np.vstack(xs), np.concatenate(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 25) -> L.Model:
    """Multinomial logistic regression, classes weighted by the inverse square root of their
    share (title and author lines are few), fitted by Newton's method from zero weights
    (the L2 penalty makes the problem strictly convex: one answer, no seed)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    n, d = z.shape
    k = len(L.CLASSES)
    onehot = np.eye(k)[y]
    counts = np.bincount(y, minlength=k).astype(float)
    weight = (1.0 / np.sqrt(np.maximum(counts, 1.0)))[y]
    weight /= weight.sum()
    theta = np.zeros((d, k))
    for _ in range(steps):
        logits = z @ theta
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = z.T @ ((p - onehot) * weight[:, None]) + l2 * theta
        hess = np.zeros((d * k, d * k))
        for a in range(k):
            for b in range(a, k):
                c = weight * p[:, a] * ((a == b) - p[:, b])
                block = (z * c[:, None]).T @ z
                hess[a * d:(a + 1) * d, b * d:(b + 1) * d] = block
                hess[b * d:(b + 1) * d, a * d:(a + 1) * d] = block.T
        hess += l2 * np.eye(d * k)
        step = np.linalg.solve(hess, grad.T.reshape(-1)).reshape(k, d).T
        theta -= step
        if np.abs(step).max() < 1e-7:
            break
    w, b = theta[:-1], theta[-1]
    return {"features": list(L.FEATURES), "classes": list(L.CLASSES),
            "mean": [round(float(v), 6) for v in mean], "scale": [round(float(v), 6) for v in scale],
            "weights": [[round(float(v), 6) for v in row] for row in w], "bias": [round(float(v), 6) for v in b]}


def fit_rows(rows: list[dict[str, Any]], pages: Pages) -> L.Model:
    x, y = dataset(rows, pages)
    return fit(x, y)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the papers-we-love checkout (its PDFs)")
    ap.add_argument("--corpus", default=str(CORPORA / "pdfs"))
    add_collection_options(ap)
    ap.add_argument("--ocr", default="auto", choices=["auto", "off"])
    ap.add_argument("--cache", help="a pickle of the extracted pages, kept between runs (outside the checkout)")
    ap.add_argument("--write", action="store_true", help="fit on all of dev and write the weights (bench/data/line_model.json)")
    ap.add_argument("--labels", action="store_true", help="count the weak labels")
    args = ap.parse_args()
    roots = {"archive": args.root, "corpus": args.corpus, **collection_roots(args)}
    rows = [r for r in gold_rows("dev") if roots.get(r.get("root", "archive"))]
    pages = load_pages(rows, roots, args.ocr, args.cache)
    if args.labels:
        x, y = dataset(rows, pages)
        print(json.dumps({"papers": len(rows), "lines": len(y),
                          **{c: int((y == i).sum()) for i, c in enumerate(L.CLASSES)}}))
        for row in rows:
            _, first, after = pages[row_key(row)]
            labels = L.gold_labels(read_page(first, after), row["title"], row["authors"])
            if 1 not in labels or 2 not in labels:
                print(f"{row['set']}: {row['path']}: title lines {labels.count(1)}, author lines {labels.count(2)}",
                      file=sys.stderr)
    if args.write:
        model = fit_rows(rows, pages)
        L.MODEL.write_text(json.dumps(model, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {L.MODEL.relative_to(REPO)} ({len(rows)} papers)")


if __name__ == "__main__":
    main()
