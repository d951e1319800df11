"""A Zotero data directory for the tests: the real library of tests/fixtures/zotero (its
README says whose, and how it was trimmed) with its attachments filled from the shared
corpus (``corpus_files.CORPORA``), one attachment left missing, and one loose PDF beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

from corpus_files import CORPORA

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "zotero" / "zotero.sqlite"
HTML_PAGE = CORPORA / "docs" / "httpd-manual" / "docs" / "manual" / "programs" / "htpasswd.html.en.utf8"

# attachment file (as Zotero recorded it) ← the shared-corpus file put there
ATTACHMENTS = {
    "storage/BHZP9XFD/Feketa et al. - 2017 - Almost ISS property for feedback connected systems.pdf":
        CORPORA / "pdfs" / "paper_attention_1706.03762.pdf",
    "storage/98YDCVAD/Shiromoto et al. - 2019 - Distributed Nonlinear Control Design Using Separab.pdf":
        CORPORA / "pdfs" / "paper_s2orc_2020.acl-main.447.pdf",
    "storage/4FIABI23/Shiromoto and Manchester - 2016 - Decentralized nonlinear feedback design with separ.pdf":
        CORPORA / "pdfs" / "paper_tracemonkey_pldi09.pdf",
    "storage/VUMWQBY9/Hastie et al. - 2009 - The Elements of Statistical Learning.pdf":
        CORPORA / "pdfs" / "paper_scibert_1903.10676.pdf",
    "storage/J2X7IZA9/James et al. - 2021 - An Introduction to Statistical Learning.pdf":
        CORPORA / "pdfs" / "paper_2206.10883v3.pdf",
    "storage/7YUQC2LC/1508.html": HTML_PAGE,
}
MISSING = ("storage/RQYSJRGT/Shiromoto et al. - 2016 - Example Demonstrating the Application of Small-gain and "
           "Density Propagation Conditions for Interconnections.pdf")
LOOSE = "loose/paper_pasa.pdf"  # a PDF outside the library: its record is guessed from its pages

FEKETA = "zotero:9PWIL7JY"  # "Almost ISS property for feedback connected systems" (Attention's pages)
HASTIE = "zotero:A5A8PGIP"  # a book in collection MachineLearning, tagged "random forest" (SciBERT's pages)
JAMES = "zotero:NZHRXDXN"  # a book in MachineLearning, tagged "R" (Multi-LexSum's pages)
WITH_MISSING_PDF = "zotero:DGWB2C6B"
SNAPSHOT = "zotero:WV53G4KS"  # a preprint with an HTML snapshot


def make_library(dest: Path) -> Path:
    """``dest`` as a Zotero data directory (created); returns it."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURE, dest / "zotero.sqlite")
    for rel, source in ATTACHMENTS.items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, dest / rel)
    (dest / LOOSE).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(CORPORA / "pdfs" / "paper_pasa.pdf", dest / LOOSE)
    return dest
