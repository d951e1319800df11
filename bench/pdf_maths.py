"""Maths, footnote marks and figure labels in the Attention paper, as the PDF parser gives them.

Usage:  PYTHONPATH=. python bench/pdf_maths.py [PDF]
        (default: paper_attention_1706.03762.pdf in corpora/pdfs under $ATHENA_SHARED)

Parses the paper with the product's parser (``athena_lab.ingest.parsers.pdf.parse``,
OCR off) and, for pages 3–6 (3.2 Attention to 3.5 Positional Encoding, whose formula
sits at the top of page 6), prints each passage that holds one of the checked pieces and
whether it reads as written, reads garbled, or neither. A check is *readable* when its
readable form is in a block's text (lines joined with spaces), *garbled* when one of the
garbled forms the extractor used to produce is. Run it against an older checkout (its
``PYTHONPATH``) for the before figure.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from athena_lab.ingest.parsers.pdf import PdfOptions, parse

DEFAULT = (Path(os.environ.get("ATHENA_SHARED", Path(__file__).resolve().parents[2] / "shared"))
           / "corpora" / "pdfs" / "paper_attention_1706.03762.pdf")
PAGES = (3, 4, 5, 6)


@dataclass
class Check:
    name: str
    readable: str  # a regular expression over the block text, lines joined with spaces
    garbled: tuple[str, ...]  # regular expressions of the old, broken forms


CHECKS = [
    Check("scaled dot-product formula", r"softmax\(QK\^T/√dk\)V", (r"softmax\( \)V", r"(^| )QKT( |$)")),
    Check("scale the dot products by 1/√dk", r"scale the dot products by 1/√dk\.", (r"by √ 1 ?\.", r"by √ 1$")),
    Check("scaling factor of 1/√dk", r"scaling factor of 1/√dk\.", (r"of √ 1 \.",)),
    Check("divide each by √dk", r"divide each by √dk,", (r"by √ dk",)),
    Check("dk (keys of dimension dk)", r"keys of dimension dk,", (r"dimension d k",)),
    Check("dmodel = 512", r"dmodel = 512", (r"d model = 512",)),
    Check("footnote mark after 'gradients'", r"small gradients\. To counteract", (r"gradients 4",)),
    Check("footnote 4 is its own paragraph", r"^4 ?To illustrate why the dot products", (r"\. 4To illustrate",)),
    Check("positional encoding PE(pos,2i)", r"PE\(pos,2i\) = sin\(pos/10000\^\(2i/dmodel\)\)",
          (r"P E\(pos", r"100002i/dmodel")),
    Check("sentence across the 1/√dk line", r"feed-forward network with a single hidden layer", (r"network with$",)),
    Check("figure labels not a paragraph", r"^(?!Scaled Dot-Product Attention Multi-Head Attention$)",
          (r"^Scaled Dot-Product Attention Multi-Head Attention$",)),
]


def passages(path: Path) -> list[tuple[int, str]]:
    """(page, text) of every block on the checked pages, its lines joined with spaces."""
    doc = parse(path, path.name, PdfOptions(ocr="off"))
    return [(b.page or 0, re.sub(r"\s*\n\s*", " ", b.text).strip())
            for s in doc.sections for b in s.blocks if b.page in PAGES]


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not path.is_file():
        print(f"no PDF at {path}: pass the Attention paper's path or set ATHENA_SHARED", file=sys.stderr)
        return 2
    blocks = passages(path)
    readable = garbled = 0
    for check in CHECKS:
        if check.name.startswith("figure labels"):  # holds when no block is the label line
            bad = [(p, t) for p, t in blocks if any(re.search(g, t) for g in check.garbled)]
            ok = not bad
            shown = bad[:1]
        else:
            good = [(p, t) for p, t in blocks if re.search(check.readable, t)]
            bad = [(p, t) for p, t in blocks if any(re.search(g, t) for g in check.garbled)]
            ok = bool(good)
            shown = (good or bad)[:1]
        state = "readable" if ok and not bad else "garbled" if bad else "missing"
        readable += state == "readable"
        garbled += state == "garbled"
        print(f"[{state:8}] {check.name}")
        for page, text in shown:
            print(f"           p{page}: {_around(text, check)}")
    print(f"\n{readable} readable, {garbled} garbled, {len(CHECKS) - readable - garbled} missing "
          f"of {len(CHECKS)} checks ({path.name}, pages {PAGES[0]}–{PAGES[-1]})")
    return 0


def _around(text: str, check: Check) -> str:
    """The part of a long passage around what the check looks for."""
    for pattern in (check.readable, *check.garbled):
        m = re.search(pattern, text)
        if m and m.end() > m.start():
            start = max(0, m.start() - 60)
            return ("…" if start else "") + text[start:m.end() + 60] + ("…" if m.end() + 60 < len(text) else "")
    return text[:160] + ("…" if len(text) > 160 else "")


if __name__ == "__main__":
    sys.exit(main())
