"""Answer evaluation: does the answer state the fact, and does each citation hold its quote?

Retrieval recall says the right chunk was found; a user reads the answer. Each question
row carries short reference ``facts`` (any one counts); the answer must contain one
after normalisation. Each cited sentence of the answer is looked up in the narrowest
locator its citation gives (``evidence`` entries, else the citation's own lines, cell or
page) and must be found there: a label that says ``p. 2`` for a sentence printed on p. 3
is a wrong citation even if the chunk is right. Every question in the file has an
answer in the corpus, so a "no evidence" reply is always wrong.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from athena_lab.agent.citations import MARKER, marker_numbers, split_sentences
from athena_lab.agent.extractive import NO_EVIDENCE
from athena_lab.agent.loop import FLOOR_LEAD
from athena_lab.agent.locate import ENTRY_QUOTE
from athena_lab.agent.locate import squash as squashed  # letters and digits only: markup cannot hide a quote
from athena_lab.evaluation import QuestionFileError, read_jsonl


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
    for n, row in enumerate(read_jsonl(Path(file)), 1):
        if not isinstance(row.get("question"), str) or not row["question"].strip():
            raise QuestionFileError(f"{file}: question {n}: needs a non-empty \"question\" string")
        if not isinstance(row.get("facts"), list) or not row["facts"]:
            raise QuestionFileError(f"{file}: question {n}: needs a \"facts\" list of short strings")
        if split != "all" and row.get("split", "dev") != split:
            continue
        if set_name and row.get("set") != set_name:
            continue
        rows.append(row)
    return rows


# -- what a locator holds ---------------------------------------------------------
class LocatorText:
    """The text a citation locator points at, read from the indexed folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._pdfs: dict[str, Any] = {}
        self._chars: dict[tuple[str, int], list[Any]] = {}

    def of(self, cite: dict[str, Any], where: dict[str, Any]) -> str:
        path = self.root / cite["path"]
        if cite.get("kind") == "pdf":
            return self._pdf(path, where)
        if cite.get("kind") == "notebook":
            return self._cell(path, where)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(lines[int(where["start_line"]) - 1:int(where["end_line"])])

    def _cell(self, path: Path, where: dict[str, Any]) -> str:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first, last = int(where["cell"]), int(where.get("end_cell", where["cell"]))
        if "end_cell" not in where and "start_line" in where and "evidence_of" in where:
            source = "".join(cells[first]["source"]).splitlines()
            return "\n".join(source[int(where["start_line"]) - 1:int(where["end_line"])])
        return "\n".join("".join(c["source"]) for c in cells[first:last + 1])

    def _pdf(self, path: Path, where: dict[str, Any]) -> str:
        regions = where.get("regions") or []
        if "evidence_of" in where and regions:
            return " ".join(printed_in(self._page_chars(path, int(r.get("page", where.get("page")))), r)
                            for r in regions)
        return self._doc(path)[int(where["page"]) - 1].get_textpage().get_text_range()

    def _doc(self, path: Path) -> Any:
        import pypdfium2 as pdfium

        return self._pdfs.setdefault(str(path), pdfium.PdfDocument(str(path)))

    def _page_chars(self, path: Path, page_no: int) -> list[Any]:
        """Every character of the page with its box, in the page's displayed (top-left)
        coordinates: the space the regions are given in, /Rotate included."""
        from athena_lab.pdf.extract import page_chars

        key = (str(path), page_no)
        if key not in self._chars:
            page = self._doc(path)[page_no - 1]
            self._chars[key] = page_chars(page, page.get_textpage())
        return self._chars[key]


def printed_in(chars: list[Any], r: dict[str, Any]) -> str:
    """The text printed inside one line region, read as printed: the characters whose boxes
    lie mostly inside it (a descender or an exponent does; the line above or below does
    not), put into lines the way the extractor reads a line (left to right, right to left
    for Arabic or Hebrew).

    Not pdfium's stream order: a table row's cells can sit in the stream in any order (a
    state report puts each row's dates before its city), and the quote is right when the
    highlighted row, read as printed, holds it."""
    from athena_lab.pdf.extract import fragments
    from athena_lab.pdf.layout import reading_order

    left, right = r["x"] - 0.5, r["x"] + r["width"] + 0.5
    top, bottom = r["y"] - 0.5, r["y"] + r["height"] + 0.5
    inside = [c for c in chars if c is None or (
        left <= (c.x0 + c.x1) / 2 <= right and min(c.y1, bottom) - max(c.y0, top) >= 0.5 * (c.y1 - c.y0))]
    return " ".join(line.text for line in reading_order(fragments(inside)))


def sentence_locators(cite: dict[str, Any], sentence: str) -> list[dict[str, Any]]:
    """The locator a reader is sent to for this sentence: its evidence entry, or the citation."""
    bare = squashed(MARKER.sub(" ", sentence))
    for ev in cite.get("evidence") or []:
        if squashed(ev.get("quote", "")) and (squashed(ev["quote"]) in bare or bare in squashed(ev["quote"])):
            return [dict(ev, evidence_of=True)]
    return [cite]


def cited_sentences(answer: str) -> Iterable[tuple[str, list[int]]]:
    for sentence in split_sentences(answer):
        numbers = marker_numbers(sentence)
        if numbers:
            yield sentence, numbers


def holds(text: str, sentence: str) -> bool:
    """True when ``text`` contains the sentence; an API entry quoted as ``NAME: description``
    counts when the name comes before the description (its source may put option lines
    between them: agent/locate.py ENTRY_QUOTE)."""
    bare, inside = squashed(sentence), squashed(text)
    if bare and bare in inside:
        return True
    entry = ENTRY_QUOTE.match(sentence.strip().lstrip("-* "))  # a bullet's own mark is not quoted
    if entry is None:
        return False
    name, rest = squashed(entry.group(1)), squashed(entry.group(2))
    at = inside.find(rest) if rest else -1
    return bool(name) and at >= 0 and name in inside[:at]


def locator_holds(reader: LocatorText, cites: dict[int, dict[str, Any]], sentence: str, numbers: list[int]) -> bool:
    """True when one of the sentence's cited locators contains the whole sentence."""
    text = MARKER.sub(" ", sentence).strip()
    for n in numbers:
        cite = cites.get(n)
        if cite is None:
            continue
        for where in sentence_locators(cite, sentence):
            try:
                if holds(reader.of(cite, where), text):
                    return True
            except (OSError, KeyError, IndexError, ValueError):
                continue
    return False


# -- one run ----------------------------------------------------------------------------
def score_answer(row: dict[str, Any], answer: Any, reader: LocatorText) -> dict[str, Any]:
    text = answer.answer or ""
    cites = {int(c["id"]): c for c in answer.citations if c.get("id") is not None}
    checks = [locator_holds(reader, cites, s, ns) for s, ns in cited_sentences(text)]
    flagged = list(getattr(answer, "unsupported", None) or [])
    backed = sum(1 for sentence, _ in cited_sentences(text) if not any(f and f in sentence for f in flagged))
    return {"id": row.get("id"), "set": row.get("set"), "lang": row.get("lang", "en"),
            "fact": contains_fact(text, row["facts"]), "no_evidence": NO_EVIDENCE in text or not cites,
            # the model's own words, before the quotes that follow them (agent/loop.py FLOOR_LEAD)
            "fact_model_text": contains_fact(text.split(FLOOR_LEAD)[0], row["facts"]),
            "cited": len(checks), "held": sum(checks), "sentences": len(split_sentences(text)),
            "unsupported": len(flagged), "backed": backed, "seconds": getattr(answer, "seconds", None),
            "first_chunk_s": getattr(answer, "first_chunk_s", None), "answer": text,
            # what a model asked for itself: tool name and input, per call
            "tool_calls": [{"tool": t.get("tool"), "input": t.get("input")} for t in answer.trace if t.get("step")],
            "attributed": (getattr(answer, "done", None) or {}).get("attributed"),
            "floor": bool((getattr(answer, "done", None) or {}).get("floor"))}


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
            "answers_with_citation": sum(1 for s in scored if not s["no_evidence"]),
            "seconds_median": _median([s["seconds"] for s in scored]),
            "first_chunk_s_median": _median([s["first_chunk_s"] for s in scored])}


def timed(events: Iterable[Any]) -> Any:
    """The turn's Answer, with ``seconds`` to the end and ``first_chunk_s`` to its first text."""
    from athena_lab.models import fold
    from athena_lab.models import Answer

    answer, started, first = Answer(), time.perf_counter(), None
    for event in events:
        if first is None and event.type == "chunk" and event.data.get("content"):
            first = time.perf_counter() - started
        fold(answer, event)
        if event.type == "done":
            answer.done = dict(event.data)  # type: ignore[attr-defined]
    answer.seconds = round(time.perf_counter() - started, 2)  # type: ignore[attr-defined]
    answer.first_chunk_s = None if first is None else round(first, 2)  # type: ignore[attr-defined]
    return answer


def score_answers(rows: list[dict[str, Any]], ask: Callable[[str], Any], reader: LocatorText) -> dict[str, Any]:
    """Metrics overall and per set and language, plus each question's outcome."""
    scored = [score_answer(row, ask(row["question"]), reader) for row in rows]
    groups: dict[str, list[dict[str, Any]]] = {}
    for s in scored:
        for key in (f"set:{s['set']}", "lang:english" if s["lang"] == "en" else "lang:other-language"):
            groups.setdefault(key, []).append(s)
    result = summarise(scored)
    result["by"] = {key: summarise(group) for key, group in sorted(groups.items())}
    result["details"] = scored
    return result


def eval_answers(file: str | Path, *, root: str = ".", index_dir: str | None = None, split: str = "all",
                 set_name: str | None = None, provider: str | None = None, model: str | None = None,
                 model_path: str | None = None, details: bool = False) -> dict[str, Any]:
    """Answer the questions with the real agent loop on an existing (or fresh) index of ``root``."""
    from athena_lab.workspace import Workspace

    rows = load_answer_questions(file, split, set_name)
    ws = Workspace(root, index_dir)
    try:
        if not ws.index_dir.joinpath("catalog.sqlite").is_file():
            ws.index()
        extra = {"model_path": model_path} if model_path else {}
        result = score_answers(rows, lambda q: timed(ws.ask_events(q, provider=provider, model=model, **extra)),
                               LocatorText(Path(root)))
    finally:
        ws.close()
    result.update(split=split, set=set_name or "all", provider=provider or "configured")
    if not details:
        result.pop("details")
    return result
