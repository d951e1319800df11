"""BibTeX read back by three parsers, the way the tools researchers use would read it.

- **pybtex** applies BibTeX's own scanner rules (braces counted even after a backslash);
- **bibtexparser 2** is what athena writes with, and the most lenient of the three;
- **bibtexparser 1** is what many scripts and Jupyter notebooks still read with.

bibtexparser 1 and 2 are both imported as ``bibtexparser``, so 1.x cannot share this
process with the 2.x athena depends on. ``./run setup --test`` installs it into
``.venv/bibtexparser1`` (``pip install --target``), and ``parse_v1`` runs it in a
subprocess of the same interpreter with that folder first on ``sys.path``.

Each parser's entries come back in one shape — ``{"ID", "ENTRYTYPE", field: raw value}``
(the value without its outer braces), plus ``"authors"``, the names as pybtex and
bibtexparser 2 split them (bibtexparser 1 has no brace-aware splitter of its own: its raw
``author`` is compared instead) — so a test can compare them and decode them to text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pylatexenc import latex2text

REPO = Path(__file__).resolve().parents[1]
V1_DIR = REPO / ".venv" / "bibtexparser1"

_V1_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import bibtexparser
from bibtexparser.bparser import BibTexParser
assert bibtexparser.__version__.startswith("1."), bibtexparser.__version__
parser = BibTexParser(common_strings=False, interpolate_strings=False, ignore_nonstandard_types=False)
db = bibtexparser.loads(sys.stdin.read(), parser)
print(json.dumps({"entries": db.entries, "version": bibtexparser.__version__}))
"""


def _decoder() -> latex2text.LatexNodes2Text:
    """pylatexenc's TeX-to-text, taught what LaTeX prints for three text commands it gets
    wrong or does not know: ``\\textasciicircum`` is ``^`` (pylatexenc gives the modifier
    letter U+02C6), ``\\textbraceleft`` and ``\\textbraceright`` are ``{`` and ``}``."""
    db = latex2text.get_default_latex_context_db()
    db.add_context_category("ascii-text-commands", prepend=True,
                            macros=[latex2text.MacroTextSpec("textasciicircum", "^"),
                                    latex2text.MacroTextSpec("textbraceleft", "{"),
                                    latex2text.MacroTextSpec("textbraceright", "}")])
    return latex2text.LatexNodes2Text(latex_context=db, math_mode="verbatim", strict_latex_spaces=True)


DECODE = _decoder()


def text_of(tex: str) -> str:
    return DECODE.latex_to_text(tex)


def parse_pybtex(text: str) -> list[dict]:
    """BibTeX's rules; raises on the first entry BibTeX itself would stop at."""
    from pybtex.database import parse_string

    data = parse_string(text, "bibtex")
    out = []
    for key, entry in data.entries.items():
        row: dict = {"ID": key, "ENTRYTYPE": entry.type, **{k.lower(): v for k, v in entry.fields.items()}}
        if "author" in entry.persons:
            row["authors"] = [" ".join(p.first_names + p.middle_names + p.prelast_names + p.last_names)
                              for p in entry.persons["author"]]
        out.append(row)
    return out


def parse_v2(text: str) -> list[dict]:
    import bibtexparser
    from bibtexparser.middlewares.names import split_multiple_persons_names

    library = bibtexparser.parse_string(text, parse_stack=[])
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    out = []
    for entry in library.entries:
        row: dict = {"ID": entry.key, "ENTRYTYPE": entry.entry_type}
        for field in entry.fields:
            raw = field.value
            assert raw.startswith("{") and raw.endswith("}"), raw
            row[field.key] = raw[1:-1]
        if "author" in row:
            row["authors"] = split_multiple_persons_names(row["author"])
        out.append(row)
    return out


def parse_v1(text: str) -> list[dict]:
    """bibtexparser 1.x in a subprocess (see the module's docstring)."""
    assert V1_DIR.is_dir(), f"{V1_DIR} is missing: run ./run setup --test (it installs bibtexparser 1.x there)"
    done = subprocess.run([sys.executable, "-c", _V1_SCRIPT, str(V1_DIR)], input=text, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["entries"]


def parse_all(text: str) -> dict[str, list[dict]]:
    return {"pybtex": parse_pybtex(text), "bibtexparser2": parse_v2(text), "bibtexparser1": parse_v1(text)}
