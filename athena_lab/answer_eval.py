"""Answer evaluation: does the answer state the fact, and does each citation hold its quote?

Retrieval recall says the right chunk was found; a user reads the answer. Each question
row carries short reference ``facts`` (any one counts); the answer must contain one
after normalisation. Each cited sentence of the answer is looked up in the narrowest
locator its citation gives (``evidence`` entries, else the citation's own lines, cell or
page) and must be found there: a label that says ``p. 2`` for a sentence printed on p. 3
is a wrong citation even if the chunk is right. Every question in the file has an
answer in the corpus, so a "no evidence" reply is always wrong.

The grader does not share code with what it grades. If it split sentences with the
agent's splitter and read sources with the product's extractor, a bug there would move
the answer and its grade together and the score would not change. So it imports nothing
from ``athena_lab.agent``, ``athena_lab.pdf`` or the parsers, and keeps its own rules,
deliberately simple so a reader can check them by hand:

- **Sentences** (:func:`sentences`): fenced code blocks are dropped; each remaining line
  is read on its own, without its bullet mark (``-``, ``*``, ``+``, ``1.``, ``1)``);
  lines starting with ``#`` are headings and skipped. A sentence ends at ``.``, ``!`` or
  ``?`` followed by whitespace and a word that does not start in lower case (any markers
  right after the stop stay with it: "(e.g. What does this mean? or …)" is one), at
  ``。！？``, or at the end of the line; the stop of ``e.g.``, ``i.e.``, ``etc.``, ``vs.``,
  ``cf.``, ``et al.`` and ``No.`` ends nothing. No other abbreviations: ``Fig. 2`` is two
  sentences.
- **Markers** (:data:`MARKER`): ``[n]`` or ``[n, m]`` as docs/contract.md defines them.
- **Normalisation for quotes** (:func:`flat`): HTML entities decoded, NFKC (ligatures
  become letters), tags, reST roles (``:func:``), link targets (``<url>``, ``(url)``
  after ``[text]``) and a document's own ``[12]`` references removed, then letters and
  digits only, lowercased: markup and line breaks cannot hide a quote.
- **Normalisation for facts** (:func:`normalised`): lowercase whole words; markup,
  punctuation and case do not count, a decimal point, ``$``, ``%`` and a leading ``*`` do.
- **The cited source** (:class:`LocatorText`), read raw: a text file's lines at the cited
  range; a notebook's cell sources from the ``.ipynb`` JSON (an evidence entry's lines of
  one cell); a PDF page with pypdfium2 directly — the whole page's ``get_text_range()``,
  or for an evidence region the text inside the region two ways, ``get_text_bounded()``
  (pdfium's stream order) and the region's characters left to right as printed (a
  table's cells may sit in the stream in any order); either reading may hold the quote.
- **Held** (:func:`holds`): the flattened sentence is a substring of the flattened
  source; an API entry written ``NAME: description`` is held when the name comes before
  the description there (its source may put option lines between them).

Two counts of what a model makes up, by the eval's own rules:

- **Names not in the folder** (:class:`FolderText`, :func:`code_names`): the code names of
  the model's text (before ``From the sources:``) — every identifier-like token of inline
  code (a plain word too); in code blocks the ``dotted.names``, ``calls(``, ``CONSTANTS``,
  ``--flags`` and imported names (not every variable); in prose the ``snake_case``,
  ``dotted.names``, ``CONSTANTS``, ``--flags`` and ``file.ext`` ones. A dotted name counts by
  its parts of three characters or more, without a first part the answer's own code
  assigns or takes as a parameter (``client`` in ``client.get``). Python's keywords and
  builtins and words under three characters are not counted. A name is *not in the folder*
  when one of its parts occurs, lower-cased, in no file of the folder (read raw: every file
  that decodes as UTF-8, and each PDF's text by pypdfium2) and not in the question.
- **Supported marked sentences** (:func:`content_words`): of the model's own sentences that
  carry a marker, the share whose cited locator holds at least half of their content words
  (words of three letters or more, cut to six letters, common English words left out). A
  sentence in another language paraphrases English sources: it is reported by language.

The report also counts the product's ``unsupported`` flags that fall on a verbatim quote
(``unsupported_on_verbatim``): a flagged sentence whose flattened text is in one of the
answer's cited passages. A quote copied word for word is backed by what it was copied
from, so this should be 0.
"""

from __future__ import annotations

import ctypes
import dataclasses
import html
import json
import re
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from athena_lab.errors import QuestionFileError
from athena_lab.evaluation import read_jsonl
from athena_lab.request import AskRequest

# -- the eval's own reading of an answer (see the module docstring) ---------------------
MARKER = re.compile(r"\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]")  # docs/contract.md: [n], [n, m]
QUOTES_LEAD = "From the sources:"  # docs/answers.md: the quotes shown beside a model's own words
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_MARKERS = r"(?:\s*\[\d[\d,;\s]*\])*"
_STOP = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)(?<!\bal)(?<![Nn]o)[.!?]" + _MARKERS + r"(?=\s+(?!\[)[^a-z\s]|\s*$)|[。！？]" + _MARKERS)
_ONLY_MARKERS = re.compile(r"^(?:\[\d[\d,;\s]*\]\s*)+$")
_ROLE = re.compile(r":[\w:+.-]+:(?=`)")  # reST :func:`x`
_ANGLE = re.compile(r"<[^<>\n]*>")  # HTML tags, reST `text <target>`_
_LINK_TARGET = re.compile(r"(?<=\])\([^()\s]*\)")  # markdown [text](url)
_NUMBERED_REF = re.compile(r"\[\d[\d,;\s]*\]")  # answer markers, a document's own [12]
_NOT_LETTERS = re.compile(r"[\W_]+")
_ENTRY = re.compile(r"^([\w.:-]+): (.+)$", re.S)
MIN_FLAT = 12  # flattened characters: shorter pieces match anywhere by chance
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_FENCED_BODY = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.S)
_CODE_TOKEN = re.compile(r"(?<![\w-])--[A-Za-z][\w-]+|[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*")
# in a code block, the tokens that name an API: dotted names, calls, CONSTANTS, --flags, imports
_BLOCK_NAME = re.compile(r"(?<![\w-])--[A-Za-z][\w-]+|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|\b[A-Za-z_]\w*(?=\()"
                         r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|(?<=\bimport )\w+")
_FILE_NAME = re.compile(r"\.(?:py|toml|json|ya?ml|cfg|ini|txt|md|rst|conf|html?|js|ts|css|env|sh|xml|csv|ipynb|lock)$")
_PROSE_NAME = re.compile(r"(?<![\w-])--[a-z][\w-]+|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|\b[A-Za-z]\w*_\w+")
_URLS = re.compile(r"\b[a-z][\w+.-]*://\S+", re.I)
_DEFINES = re.compile(r"^\s*(?:def|class|async def)\s+(\w+)|^\s*(\w+)\s*(?::[^=]+)?=(?!=)|\bfor\s+(\w+)\s+in\b"
                      r"|\bas\s+(\w+)", re.M)
_PARAMS = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(([^)]*)\)", re.M)
_NOT_NAMES = frozenset(__import__("keyword").kwlist) | frozenset(dir(__import__("builtins"))) | {
    "self", "cls", "true", "false", "null", "none", "e.g", "i.e"}
CONTENT_WORD = re.compile(r"[^\W_]{3,}", re.UNICODE)
COMMON_WORDS = frozenset(
    "the and for with that this from are was were you your can use used uses using into when then than "
    "also its their there which what how have has not but all any each other more most such only".split())


def sentences(text: str) -> list[str]:
    """The answer's sentences by the eval's own rule (module docstring), markers kept."""
    out: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        line = _BULLET.sub("", line).strip()
        if not line or line.startswith("#"):
            continue
        start = 0
        pieces = []
        for stop in _STOP.finditer(line):
            pieces.append(line[start:stop.end()].strip())
            start = stop.end()
        pieces.append(line[start:].strip())
        for piece in filter(None, pieces):
            if _ONLY_MARKERS.match(piece) and out:
                out[-1] += " " + piece  # a marker that trails its sentence's stop
            else:
                out.append(piece)
    return out


def marker_numbers(sentence: str) -> list[int]:
    """The citation numbers the sentence's ``[n]`` / ``[n, m]`` markers name."""
    return [int(n) for m in MARKER.finditer(sentence) for n in re.split(r"\s*[,;]\s*", m.group(1))]


def flat(text: str) -> str:
    """Letters and digits only, lowercased, markup and link targets removed: what a quote and
    its source share however either is rendered."""
    text = unicodedata.normalize("NFKC", html.unescape(text))
    text = _NUMBERED_REF.sub(" ", _LINK_TARGET.sub("", _ANGLE.sub(" ", _ROLE.sub("", text))))
    return _NOT_LETTERS.sub("", text.lower())


def normalised(text: str) -> str:
    """Lowercase words joined with single spaces: markup, punctuation and case don't count;
    a decimal point (40.4), ``$``, ``%`` and a leading ``*`` (``*CHANGE``) do."""
    text = re.sub(r"\*{2,}|(?<!\d)\.|\.(?!\d)", " ", text.lower())
    return " ".join(re.sub(r"[^\w.$%*]+", " ", text).split())


def contains_fact(answer: str, facts: list[str]) -> bool:
    have = f" {normalised(answer)} "
    return any(f" {normalised(f)} " in have for f in facts)


def load_answer_questions(file: str | Path, split: str = "all", set_name: str | None = None) -> list[dict[str, Any]]:
    """Rows with a question and a non-empty ``facts`` list; filtered by split and set."""
    if split not in ("all", "dev", "test"):
        raise QuestionFileError(f"split {split!r}: use dev, test or all")
    rows = []
    in_split = 0
    for n, row in enumerate(read_jsonl(Path(file)), 1):
        if not isinstance(row.get("question"), str) or not row["question"].strip():
            raise QuestionFileError(f"{file}: question {n}: needs a non-empty \"question\" string")
        if not isinstance(row.get("facts"), list) or not row["facts"]:
            raise QuestionFileError(f"{file}: question {n}: needs a \"facts\" list of short strings")
        if split != "all" and row.get("split", "dev") != split:
            continue
        in_split += 1
        if set_name and row.get("set") != set_name:
            continue
        rows.append(row)
    if split != "all" and not in_split:
        # Scoring 0 questions without a word once passed for a result on this split.
        raise QuestionFileError(f"{file}: no question is marked \"split\": \"{split}\" (a row without one is dev); "
                                "mark the rows (bench/split_questions.py) or use --split all")
    return rows


# -- what a locator holds ---------------------------------------------------------
class LocatorText:
    """The text a citation locator points at, read raw from the indexed folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._pdfs: dict[str, Any] = {}
        self._chars: dict[tuple[str, int], list[tuple[float, float, float, float, str]]] = {}

    def readings(self, cite: dict[str, Any], where: dict[str, Any]) -> list[str]:
        """Every reading of the locator's text: one for text and notebooks; a PDF region's
        stream order and its left-to-right order as printed. A quote held by any counts."""
        path = self.root / cite["path"]
        if cite.get("kind") == "pdf":
            return self._pdf(path, where)
        if cite.get("kind") == "notebook":
            return [self._cell(path, where)]
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        return ["\n".join(lines[int(where["start_line"]) - 1:int(where["end_line"])])]

    def of(self, cite: dict[str, Any], where: dict[str, Any]) -> str:
        """The locator's first reading (the stream order for a PDF region)."""
        return self.readings(cite, where)[0]

    def _cell(self, path: Path, where: dict[str, Any]) -> str:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first, last = int(where["cell"]), int(where.get("end_cell", where["cell"]))
        if "end_cell" not in where and "start_line" in where and "evidence_of" in where:
            source = _source(cells[first]).splitlines()
            return "\n".join(source[int(where["start_line"]) - 1:int(where["end_line"])])
        return "\n".join(_source(c) for c in cells[first:last + 1])

    def _pdf(self, path: Path, where: dict[str, Any]) -> list[str]:
        regions = where.get("regions") or []
        if "evidence_of" in where and regions:
            pages = [int(r.get("page", where.get("page"))) for r in regions]
            stream = " ".join(self._bounded(path, p, r) for p, r in zip(pages, regions))
            printed = " ".join(self._left_to_right(path, p, r) for p, r in zip(pages, regions))
            return [stream, printed]
        pages = where.get("pages") or [where["page"]]
        return [" ".join(self._doc(path)[int(p) - 1].get_textpage().get_text_range() for p in pages)]

    def _doc(self, path: Path) -> Any:
        import pypdfium2 as pdfium

        return self._pdfs.setdefault(str(path), pdfium.PdfDocument(str(path)))

    def _bounded(self, path: Path, page_no: int, r: dict[str, Any]) -> str:
        """pdfium's ``get_text_bounded`` of the region, its corners mapped from the displayed
        top-left space (docs/contract.md) to page space by pdfium's ``FPDF_DeviceToPage``."""
        import pypdfium2.raw as pdfium_c

        page = self._doc(path)[page_no - 1]
        width, height = page.get_size()
        px, py = ctypes.c_double(), ctypes.c_double()
        xs, ys = [], []
        for dx, dy in ((r["x"], r["y"]), (r["x"] + r["width"], r["y"] + r["height"])):
            pdfium_c.FPDF_DeviceToPage(page.raw, 0, 0, int(width * _K), int(height * _K), 0,
                                       int(dx * _K), int(dy * _K), ctypes.byref(px), ctypes.byref(py))
            xs.append(px.value)
            ys.append(py.value)
        return str(page.get_textpage().get_text_bounded(min(xs), min(ys), max(xs), max(ys)))

    def _left_to_right(self, path: Path, page_no: int, r: dict[str, Any]) -> str:
        """The characters whose centres lie in the region (one printed line), left to right,
        a space where they stand apart."""
        left, right = r["x"] - 0.5, r["x"] + r["width"] + 0.5
        top, bottom = r["y"] - 0.5, r["y"] + r["height"] + 0.5
        inside = sorted(c for c in self._page_chars(path, page_no)
                        if left <= (c[0] + c[1]) / 2 <= right and top <= c[2] <= bottom)
        out, end = [], None
        for x0, x1, _, height, text in inside:
            if end is not None and x0 - end > 0.2 * height:
                out.append(" ")
            out.append(text)
            end = x1
        return "".join(out)

    def _page_chars(self, path: Path, page_no: int) -> list[tuple[float, float, float, float, str]]:
        """``(left, right, vertical centre, height, text)`` of every printed character, in
        the displayed top-left space (``FPDF_PageToDevice``: /Rotate honoured)."""
        import pypdfium2.raw as pdfium_c

        key = (str(path), page_no)
        if key in self._chars:
            return self._chars[key]
        page = self._doc(path)[page_no - 1]
        textpage = page.get_textpage()
        width, height = page.get_size()
        dx, dy = ctypes.c_int(), ctypes.c_int()

        def shown(x: float, y: float) -> tuple[float, float]:
            pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, int(width * _K), int(height * _K), 0, x, y,
                                       ctypes.byref(dx), ctypes.byref(dy))
            return dx.value / _K, dy.value / _K

        chars = []
        for i in range(textpage.count_chars()):
            text = textpage.get_text_range(i, 1)
            if not text.strip():
                continue
            a, b, c, d = textpage.get_charbox(i)
            (x0, y0), (x1, y1) = shown(a, b), shown(c, d)
            chars.append((min(x0, x1), max(x0, x1), (y0 + y1) / 2, abs(y1 - y0), text))
        self._chars[key] = chars
        return chars


_K = 100  # device units per point when mapping with pdfium: its integer rounding stays below 0.01 pt


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def sentence_locators(cite: dict[str, Any], sentence: str) -> list[dict[str, Any]]:
    """The locator a reader is sent to for this sentence: its evidence entry, or the citation."""
    bare = flat(MARKER.sub(" ", sentence))
    for ev in cite.get("evidence") or []:
        quote = flat(ev.get("quote", ""))
        if quote and (quote in bare or bare in quote):
            return [dict(ev, evidence_of=True)]
    return [cite]


def cited_sentences(answer: str) -> Iterable[tuple[str, list[int]]]:
    """The answer's sentences (the eval's own split) that carry a marker, with its numbers."""
    for sentence in sentences(answer):
        numbers = marker_numbers(sentence)
        if numbers:
            yield sentence, numbers


def holds(text: str, sentence: str) -> bool:
    """True when ``text`` contains the sentence, both flattened; an API entry quoted as
    ``NAME: description`` counts when the name comes before the description (its source
    may put option lines between them)."""
    bare, inside = flat(sentence), flat(text)
    if bare and bare in inside:
        return True
    entry = _ENTRY.match(sentence.strip().lstrip("-* "))  # a bullet's own mark is not quoted
    if entry is None:
        return False
    name, rest = flat(entry.group(1)), flat(entry.group(2))
    at = inside.find(rest) if rest else -1
    return bool(name) and at >= 0 and name in inside[:at]


def content_words(text: str) -> set[str]:
    """Words of three letters or more, lower-cased and cut to six letters, common ones left out."""
    return {w.lower()[:6] for w in CONTENT_WORD.findall(text) if w.lower() not in COMMON_WORDS}


def code_names(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The answer's code names by the eval's rule (module docstring): (name, parts to find)."""
    code = "\n".join(_FENCED_BODY.findall(text))
    prose = _FENCE.sub("\n", text)
    own = {g for m in _DEFINES.finditer(code) for g in m.groups() if g}
    own |= {p.split(":")[0].split("=")[0].strip(" *") for m in _PARAMS.finditer(code) for p in m.group(1).split(",")}
    own = {n for n in own if n and not n.isupper()}  # a CONSTANT assigned is a setting claimed
    tokens = _BLOCK_NAME.findall(_URLS.sub(" ", code))
    tokens += [t for piece in _INLINE_CODE.findall(prose) for t in _CODE_TOKEN.findall(_URLS.sub(" ", piece))]
    tokens += _PROSE_NAME.findall(_URLS.sub(" ", _INLINE_CODE.sub(" ", prose)))
    out: dict[str, tuple[str, ...]] = {}
    for token in tokens:
        if token in out or (token.lower() in _NOT_NAMES and "." not in token):
            continue
        if token.startswith("--") or _FILE_NAME.search(token):
            parts: tuple[str, ...] = (token.lower(),) if len(token) >= 3 else ()
        else:
            pieces = token.split(".")
            parts = tuple(p.lower() for n, p in enumerate(pieces)
                          if len(p) >= 3 and not (n == 0 and (p in own or p.lower() in _NOT_NAMES)))
            if len(pieces) == 1 and token in own:
                parts = ()
        if parts:
            out[token] = parts
    return list(out.items())


class FolderText:
    """Every word of a folder, read raw and lower-cased: text files that decode as UTF-8, and
    each PDF's text by pypdfium2. Read once per folder."""

    _cache: dict[str, str] = {}

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def text(self) -> str:
        key = str(self.root.resolve())
        if key not in self._cache:
            self._cache[key] = "\n".join(self._files()).lower()
        return self._cache[key]

    def _files(self) -> Iterable[str]:
        for path in sorted(self.root.rglob("*")):
            if not path.is_file() or any(part.startswith(".") for part in path.relative_to(self.root).parts):
                continue
            if path.suffix.lower() == ".pdf":
                yield self._pdf(path)
                continue
            try:
                yield path.read_bytes()[:5_000_000].decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue

    @staticmethod
    def _pdf(path: Path) -> str:
        import pypdfium2 as pdfium

        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception:  # encrypted, malformed: nothing a model could have read there
            return ""
        try:
            return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
        finally:
            doc.close()

    def missing(self, answer: str, question: str) -> list[str]:
        """The answer's code names with a part neither the folder nor the question holds."""
        asked = question.lower()
        return [name for name, parts in code_names(answer)
                if any(p not in asked and p not in self.text for p in parts)]


def _held_by(reader: LocatorText, cite: dict[str, Any], where: dict[str, Any], sentence: str) -> bool:
    try:
        return any(holds(text, sentence) for text in reader.readings(cite, where))
    except (OSError, KeyError, IndexError, ValueError, TypeError):
        return False  # a locator that names no readable place holds nothing


def locator_holds(reader: LocatorText, cites: dict[int, dict[str, Any]], sentence: str, numbers: list[int]) -> bool:
    """True when one of the sentence's cited locators contains the whole sentence."""
    text = MARKER.sub(" ", sentence).strip()
    return any(_held_by(reader, cites[n], where, text)
               for n in numbers if n in cites for where in sentence_locators(cites[n], sentence))


def verbatim_flags(reader: LocatorText, cites: dict[int, dict[str, Any]], flagged: list[str]) -> list[str]:
    """The flagged sentences found word for word (flattened) in one of the answer's cited
    passages or their evidence: a quote its own source backs, flagged all the same."""
    places = [(c, w) for c in cites.values() for w in [c] + [dict(e, evidence_of=True) for e in c.get("evidence") or []]]
    return [f for f in flagged
            if len(flat(f)) >= MIN_FLAT and any(_held_by(reader, c, w, MARKER.sub(" ", f)) for c, w in places)]


def _is_flagged(sentence: str, flagged: list[str]) -> bool:
    bare = flat(sentence)
    return any(f and (f in bare or (len(bare) >= MIN_FLAT and bare in f)) for f in map(flat, flagged))


# -- one run ----------------------------------------------------------------------------
def covered(reader: LocatorText, cites: dict[int, dict[str, Any]], sentence: str, numbers: list[int]) -> bool:
    """True when a cited locator of the sentence holds at least half of its content words."""
    words = content_words(MARKER.sub(" ", sentence))
    if not words:
        return False
    for n in numbers:
        for where in sentence_locators(cites[n], sentence) if n in cites else []:
            try:
                readings = reader.readings(cites[n], where)
            except (OSError, KeyError, IndexError, ValueError, TypeError):
                continue
            if any(len(words & content_words(text)) / len(words) >= 0.5 for text in readings):
                return True
    return False


def score_answer(row: dict[str, Any], answer: Any, reader: LocatorText) -> dict[str, Any]:
    """One question's outcome: the fact, each cited sentence's locator, the product's flags,
    the model's names not in the folder and how many of its marked sentences their source holds.

    What the reader sees is scored: the model's words and, beside them, the quotes of the
    ``sources`` event (read here as one text, the quotes after ``QUOTES_LEAD``)."""
    said = answer.answer or ""
    quotes = getattr(answer, "sources", "") or ""
    text = f"{said}\n\n{QUOTES_LEAD}\n\n{quotes}" if said and quotes else said or quotes
    cites = {int(c["id"]): c for c in answer.citations if c.get("id") is not None}
    cited = list(cited_sentences(text))
    extractive = str((getattr(answer, "done", None) or {}).get("mode", "")) == "extractive"
    # the model's own words (an older answer had the quotes under them); none in extractive mode
    own = "" if extractive else said.split(QUOTES_LEAD)[0]
    own_cited = list(cited_sentences(own))
    own_covered = [covered(reader, cites, s, ns) for s, ns in own_cited]
    invented = FolderText(reader.root).missing(own, row.get("question", ""))
    checks = [locator_holds(reader, cites, s, ns) for s, ns in cited]
    flagged = [f for f in getattr(answer, "unsupported", None) or [] if isinstance(f, str)]
    verbatim = verbatim_flags(reader, cites, flagged)
    backed = sum(1 for sentence, _ in cited if not _is_flagged(sentence, flagged))
    done = getattr(answer, "done", None) or {}
    return {"id": row.get("id"), "set": row.get("set"), "lang": row.get("lang", "en"),
            "fact": contains_fact(text, row["facts"]),
            # docs/contract.md: an answer that cites nothing, or whose search found nothing
            "no_evidence": not cites or bool(getattr(answer, "no_evidence", None)),
            # the model's own words, without the quotes beside them
            "fact_model_text": contains_fact(said if quotes else text, row["facts"]),
            "cited": len(checks), "held": sum(checks), "sentences": len(sentences(text)),
            "unsupported": len(flagged), "unsupported_verbatim": verbatim, "backed": backed,
            "seconds": getattr(answer, "seconds", None),
            "first_chunk_s": getattr(answer, "first_chunk_s", None), "answer": text,
            # what a model asked for itself: tool name and input, per call
            "tool_calls": [{"tool": t.get("tool"), "input": t.get("input")} for t in answer.trace if t.get("step")],
            "attributed": done.get("attributed"),
            "names_not_in_folder": invented, "flagged_not_found": len(done.get("not_found") or []),
            "model_marked": len(own_cited), "model_marked_covered": sum(own_covered)}


def _median(values: list[float]) -> float:
    values = sorted(v for v in values if v is not None)
    if not values:
        return 0.0
    mid = len(values) // 2
    return round(values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2, 2)


def summarise(scored: list[dict[str, Any]]) -> dict[str, Any]:
    n = max(1, len(scored))
    cited = sum(s["cited"] for s in scored)
    valid = sum(s["backed"] for s in scored)
    return {"questions": len(scored), "fact_in_answer": round(sum(s["fact"] for s in scored) / n, 4),
            "fact_in_model_text": round(sum(s["fact_model_text"] for s in scored) / n, 4),
            "locator_holds_sentence": round(sum(s["held"] for s in scored) / max(1, cited), 4),
            "cited_sentences": cited, "wrong_no_evidence": round(sum(s["no_evidence"] for s in scored) / n, 4),
            # sentences carrying a citation the support check accepts, of all the answers' sentences
            "cited_share": round(valid / max(1, sum(s["sentences"] for s in scored)), 4),
            "unsupported_per_answer": round(sum(s["unsupported"] for s in scored) / n, 3),
            "unsupported_flags": sum(s["unsupported"] for s in scored),
            # the product's flags that fall on a sentence its cited passage prints word for word
            "unsupported_on_verbatim": sum(len(s["unsupported_verbatim"]) for s in scored),
            "unsupported_on_verbatim_share": round(sum(len(s["unsupported_verbatim"]) for s in scored)
                                                   / max(1, sum(s["unsupported"] for s in scored)), 4),
            "answers_with_citation": sum(1 for s in scored if not s["no_evidence"]),
            # by the eval's own rules (module docstring): what a model wrote that the folder lacks
            "names_not_in_folder": sum(len(s["names_not_in_folder"]) for s in scored),
            "answers_with_names_not_in_folder": sum(1 for s in scored if s["names_not_in_folder"]),
            "model_marked_sentences": sum(s["model_marked"] for s in scored),
            "model_marked_supported": round(sum(s["model_marked_covered"] for s in scored)
                                            / max(1, sum(s["model_marked"] for s in scored)), 4),
            "product_not_found_flags": sum(s["flagged_not_found"] for s in scored),
            "seconds_median": _median([s["seconds"] for s in scored]),
            "first_chunk_s_median": _median([s["first_chunk_s"] for s in scored])}


@dataclass
class TurnAnswer:
    """One turn as the events of docs/contract.md give it, gathered by the eval itself."""

    answer: str = ""
    sources: str = ""  # the quotes beside a model's answer ("" in extractive mode: they are the answer)
    citations: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    no_evidence: str | None = None
    trace: list[dict[str, Any]] = field(default_factory=list)
    done: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    seconds: float | None = None
    first_chunk_s: float | None = None


def timed(events: Iterable[Any]) -> TurnAnswer:
    """The turn's answer, with ``seconds`` to the end and ``first_chunk_s`` to the first text
    the reader sees: the quotes of the ``sources`` event, or a model's first words.

    Read from the events per the contract (``sources``, ``chunk`` text, the last
    ``citations``, ``done``)."""
    answer, started = TurnAnswer(), time.perf_counter()
    for event in events:
        kind = event["type"] if isinstance(event, dict) else event.type
        data = (event.get("data") if isinstance(event, dict) else event.data) or {}
        shown = (kind == "chunk" and data.get("content")) or (kind == "sources" and data.get("answer"))
        if shown and answer.first_chunk_s is None:
            answer.first_chunk_s = round(time.perf_counter() - started, 2)
        if kind == "sources":
            # beside the model's words when they follow, else the answer itself
            if data.get("answer_follows"):
                answer.sources = data.get("answer") or ""
            else:
                answer.answer, answer.sources = data.get("answer") or "", ""
            answer.citations = list(data.get("citations") or [])
        elif kind == "chunk" and data.get("content"):
            answer.answer += data["content"]
        elif kind == "trace":
            answer.trace.append(dict(data))
        elif kind == "citations":
            answer.citations = list(data.get("citations") or [])
        elif kind == "done":
            answer.done = dict(data)
            answer.unsupported = list(data.get("unsupported") or [])
            answer.no_evidence = data.get("no_evidence")
        elif kind == "error":
            answer.error = data.get("message") or "the answer failed"
    answer.seconds = round(time.perf_counter() - started, 2)
    return answer


def score_answers(rows: list[dict[str, Any]], ask: Callable[[str], Any], reader: LocatorText) -> dict[str, Any]:
    """Metrics overall and per set and language, plus each question's outcome."""
    scored = [score_answer(row, ask(row["question"]), reader) for row in rows]
    groups: dict[str, list[dict[str, Any]]] = {}
    for s in scored:
        keys = [f"set:{s['set']}", "lang:english" if s["lang"] == "en" else "lang:other-language"]
        for key in keys + ([f"lang:{s['lang']}"] if s["lang"] != "en" else []):
            groups.setdefault(key, []).append(s)
    result = summarise(scored)
    result["by"] = {key: summarise(group) for key, group in sorted(groups.items())}
    result["details"] = scored
    return result


def saved_answers(file: str | Path) -> dict[str, TurnAnswer]:
    """Turns kept by ``--save-answers`` (or bench/answers_raw.py), by question."""
    known = {f.name for f in dataclasses.fields(TurnAnswer)}
    out: dict[str, TurnAnswer] = {}
    for n, record in enumerate(read_jsonl(Path(file)), 1):
        if not isinstance(record.get("question"), str):
            raise QuestionFileError(f"{file}: line {n}: a saved answer needs its \"question\"")
        out[record["question"]] = TurnAnswer(**{k: v for k, v in record.items() if k in known})
    return out


def eval_answers(file: str | Path, *, root: str = ".", index_dir: str | None = None, split: str = "all",
                 set_name: str | None = None, provider: str | None = None, model: str | None = None,
                 model_path: str | None = None, details: bool = False, from_answers: str | None = None,
                 save_answers: str | None = None) -> dict[str, Any]:
    """Answer the questions with the real agent loop on an existing (or fresh) index of ``root``;
    ``from_answers``: grade turns saved before instead (no index, no model); ``save_answers``:
    keep every turn as it came (JSON lines), to grade again later."""
    from athena_lab.workspace import Workspace

    rows = load_answer_questions(file, split, set_name)
    if from_answers:
        saved = saved_answers(from_answers)
        rows = [row for row in rows if row["question"] in saved]
        if not rows:
            raise QuestionFileError(f"{from_answers}: no saved answer to any question of {file} "
                                    f"(split {split}, set {set_name or 'all'})")
        result = score_answers(rows, saved.__getitem__, LocatorText(Path(root)))
        result.update(split=split, set=set_name or "all", provider=f"saved in {from_answers}")
        if not details:
            result.pop("details")
        return result
    ws = Workspace(root, index_dir)
    try:
        if not ws.index_dir.joinpath("catalog.sqlite").is_file():
            ws.index()
        def ask(question: str) -> TurnAnswer:
            answer = timed(ws.ask_events(AskRequest(question, provider=provider, model=model,
                                                    model_path=model_path or None)))
            if save_answers:
                with open(save_answers, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"question": question, **dataclasses.asdict(answer)}, ensure_ascii=False) + "\n")
            return answer

        result = score_answers(rows, ask, LocatorText(Path(root)))
    finally:
        ws.close()
    result.update(split=split, set=set_name or "all", provider=provider or "configured")
    if not details:
        result.pop("details")
    return result
