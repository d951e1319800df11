"""The author block read by a token-level CRF: which words of the lines under the title are
names (B-NAME / I-NAME / O), learned from the hand-checked records.

Bench code, not the package's: measured and not adopted (docs/pdf.md, "A model of the
author block"), so ``paper_record`` keeps the rules' name parsers and this stays here.

The line classifier (bench/line_classifier.py) found that what goes wrong in a record is
rarely which lines hold the authors but how the names on them are read: a surname that is a
particle, marks between names, a grid read as one line, a wrapped list cut. This reads the
author block word by word instead. The block is the page's lines under the title the rules
chose (``meta._title_lines``; for the training labels the lines of the gold title when they
are found) down to the first heading that ends a byline ("Abstract", "1 Introduction"), at
most 30 printed rows above the page's lower fifth (the top 45 % when no title is read). Each
line is cut into words and marks (commas, "and", superscripts, "*", "†", e-mail addresses);
each token is described by its shape (capitalised, capitals, an initial "J.", hyphenated),
``meta.py``'s lexicons (an organisation, a place, a particle, a page label), whether the
rules' name parsers read its line as names and the token inside one of them, where it sits
(first or last of its line or cell, the line's index in the block), its line's type size
against the body's, a superscript or a smaller type, bold, whether the token is part of an
e-mail address's local part printed in the block ("jsmith@" for "Smith"), and the same few
facts of the two tokens on either side. A linear-chain CRF (python-crfsuite, L-BFGS, L1 and
L2 penalties: deterministic, no seed) labels them; the names are the B/I spans in reading
order, each passed through ``meta._name`` to normalise capitals.

Labels are weak, from the gold records (``gold_tags``): a gold author's words matched in
order (an initial matches its word, case and accents ignored), else the surname with up to
three name-shaped words before it, the first carrying the given name's initial — the
bench's own scoring (surname and first initial). A page where some gold author is not found
in the block is left out of the fitting (``dataset`` counts them).

``record`` is ``paper_record`` with a reader of the names in place of the rules'
(``line_classifier.reading``); the title and the year stay the rules'. Used by
``main`` (below: leave one round out with today's rules, in-sample, ``--write``), by
``bench/author_crf_first_sight.py`` (against the rules as they were when each round was
first seen) and by tests/test_author_crf.py.

    python bench/author_crf.py --root ARCHIVE --papers DIR --readings DIR --collection DIR
        --collection2 DIR [--cache FILE] [--loro [--only SET ...]] [--insample] [--write] [--show]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pycrfsuite
from _common import CORPORA, REPO, context, emit

from athena_lab.pdf import meta
from athena_lab.pdf.layout import Line
from athena_lab.pdf.pages import PageText

MODEL = REPO / "bench" / "data" / "author_crf.crfsuite"
PARAMS = {"c1": 0.05, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True}
CONFIDENT = 0.9  # arbitration: the CRF's reading over the rules' when its labelling is this likely

# A word (letters, with inner hyphens, apostrophes and dots: "Jean-Luc", "O'Neil", "J.-P."),
# a superscript as the text layer writes it ("^(1,2)", "^a"), an e-mail address, a number, a mark
_TOKEN = re.compile(r"\{[^}]*\}\s*@\S+|\S+@\S+|\^\([^)]*\)|\^\S|(?:[^\W\d_]\.)+-?(?:[^\W\d_]\.)*|"
                    r"[^\W\d_]+(?:[-'’.][^\W\d_]+)*\.?|\d+|[^\w\s]")
_ENDS_BYLINE = re.compile(r"^(?:(?:[IVX]+|\d+)\.?\s+)?(?:abstract|summary|introduction|keywords|key words|"
                          r"index terms|contents)\b", re.I)
_FUNCTION = {"and", "by", "of", "the", "for", "in", "at", "&", "with", "von", "de", "van", "und"}


@dataclass
class Token:
    text: str
    line: int  # the line's index in the block
    start: int  # the token's offset in the line's text
    at: int  # its index among the line's tokens
    of: int  # how many tokens the line has


def block(page: PageText | None, title: list[Line]) -> list[Line]:
    """The lines of the author block: printed rows under the title (pieces of one printed
    line joined as the rules join them) down to the first heading that ends a byline, at most
    30, above the page's lower fifth; the page's upper 45 % when there is no title."""
    if page is None:
        return []
    if title:
        end = max(title, key=lambda ln: ln.bbox[3])
        top = end.bbox[3] - 0.3 * (end.bbox[3] - end.bbox[1])
        ids = {id(ln) for ln in title}
        lines = [ln for ln in page.lines if ln.bbox[1] >= top - 1 and id(ln) not in ids and ln.text.strip()]
        bottom = 0.8 * page.height
    else:
        lines = [ln for ln in page.lines if ln.text.strip()]
        bottom = 0.45 * page.height
    rows = meta._rows(meta._in_rows([ln for ln in lines if ln.bbox[1] < bottom]))
    out: list[Line] = []
    for line in rows:
        if _ENDS_BYLINE.match(line.text.strip()) or len(out) >= 30:
            break
        out.append(line)
    return out


def tokens(lines: list[Line]) -> list[Token]:
    out: list[Token] = []
    for i, line in enumerate(lines):
        found = list(_TOKEN.finditer(line.text))
        out += [Token(m.group(0), i, m.start(), k, len(found)) for k, m in enumerate(found)]
    return out


def _key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    return re.sub(r"[\W_\d]+", "", "".join(c for c in folded if not unicodedata.combining(c))).lower()


def _shape(text: str) -> str:
    if "@" in text:
        return "email"
    if text.startswith("^"):
        return "sup"
    if re.fullmatch(r"(?:[^\W\d_]\.)+-?(?:[^\W\d_]\.)*", text):
        return "initial"
    if text.isdigit():
        return "digits"
    if not any(c.isalpha() for c in text):
        return "mark"
    if text.isupper():
        return "CAPS" if len(text) > 1 else "X"
    if text[:1].isupper():
        return "Cap-" if "-" in text else "Cap"
    return "lower"


def _height(line: Line, tok: Token) -> float | None:
    if len(line.boxes) != len(line.text):
        return None
    hs = [b[3] - b[1] for b in line.boxes[tok.start:tok.start + len(tok.text)] if b[3] > b[1]]
    return sorted(hs)[len(hs) // 2] if hs else None


def _body_size(page: PageText) -> float:
    sizes = sorted(round(ln.size) for ln in page.lines for _ in ln.text if ln.text.strip())
    return float(sizes[len(sizes) // 2]) if sizes else 10.0


def features(page: PageText, lines: list[Line], toks: list[Token]) -> list[dict[str, Any]]:
    """One feature dictionary per token (crfsuite's item format)."""
    body = max(_body_size(page), 1.0)
    particles = getattr(meta, "_PARTICLES", set())
    not_name = getattr(meta, "_NOT_NAME", set())
    locals_ = [re.split(r"@", m.group(0))[0].lower() for ln in lines for m in re.finditer(r"\S+@|\{[^}]*\}\s*@", ln.text)]
    per_line: list[dict[str, Any]] = []
    parsed_words: list[set[str]] = []
    for line in lines:
        text = line.text.strip()
        names = meta._line_names(line)
        parsed_words.append({_key(w) for n in names or [] for w in n.split()})
        heights = sorted(b[3] - b[1] for b in line.boxes if b[3] > b[1])
        per_line.append({
            "L.names": names is not None, "L.n_names": str(min(len(names or []), 5)),
            "L.org": meta._org(text), "L.place": meta._place(text), "L.email": bool(meta._EMAIL.search(text)),
            "L.year": bool(meta._ANY_YEAR.search(text)), "L.size": str(round(min(line.size / body, 2.5) * 4) / 4),
            "L.bold": line.bold, "L.cells": str(min(len(line.cells), 5)), "L.ends_comma": text.endswith((",", "and")),
            "L.upper": text.isupper(), "L.long": len(text.split()) > 14,
            "_mid": heights[len(heights) // 2] if heights else line.size,
        })
    base: list[dict[str, Any]] = []
    for tok in toks:
        line = lines[tok.line]
        text = tok.text
        k = _key(text)
        shape = _shape(text)
        h = _height(line, tok)
        f: dict[str, Any] = {
            "bias": 1.0, "shape": shape, "len": str(min(len(k), 8)),
            "first": tok.at == 0, "last": tok.at == tok.of - 1,
            "line": str(min(tok.line, 8)),
            "org": shape not in ("mark", "sup", "digits") and meta._org(text),
            "place": shape not in ("mark", "sup", "digits") and meta._place(text),
            "particle": text.lower() in particles, "not_name": k in not_name,
            "function": text.lower() in _FUNCTION, "in_parsed": bool(k) and k in parsed_words[tok.line],
            "in_email": len(k) >= 3 and any(k in loc for loc in locals_),
            "small": h is not None and h < 0.8 * per_line[tok.line]["_mid"],
        }
        if shape == "mark":
            f["mark=" + text] = True
        if shape in ("lower", "mark") or text.lower() in _FUNCTION:
            f["w=" + text.lower()] = True
        f.update({k2: v for k2, v in per_line[tok.line].items() if not k2.startswith("_")})
        base.append(f)
    out = []
    for i, f in enumerate(base):
        item = dict(f)
        for d in (-2, -1, 1, 2):
            j = i + d
            if 0 <= j < len(base) and abs(toks[j].line - toks[i].line) <= 1:
                g = base[j]
                if toks[j].line != toks[i].line:
                    item[f"{d}:other_line"] = True
                for name in ("shape", "org", "place", "in_parsed", "particle", "function", "small", "in_email"):
                    item[f"{d}:{name}"] = g[name]
                if g["shape"] == "mark":
                    item[f"{d}:mark=" + toks[j].text] = True
                if toks[j].text.lower() in ("and", "&"):
                    item[f"{d}:and"] = True
            else:
                item[f"{d}:edge"] = True
        out.append({k2: (float(v) if isinstance(v, bool) else v) for k2, v in item.items()
                    if not (isinstance(v, bool) and not v)})
    return out


# --- labels -----------------------------------------------------------------------------------

def _gold_words(name: str) -> list[str]:
    words = [w for w in name.replace("(", " ").replace(")", " ").split() if _key(w)]
    if len(words) > 2 and re.fullmatch(r"Jr\.?|Sr\.?|II|III|IV", words[-1]):
        words = words[:-1]
    return words


def _word_matches(tok: str, word: str) -> bool:
    a, b = _key(tok), _key(word)
    if not a or not b:
        return False
    return a == b or (a[0] == b[0] and (len(a) == 1 or len(b) == 1))


def gold_tags(toks: list[Token], authors: list[str]) -> list[str] | None:
    """B / I / O per token from the gold authors, or None when one of them is not found."""
    tags = ["O"] * len(toks)
    words_at = [i for i, t in enumerate(toks) if _shape(t.text) not in ("mark", "sup", "digits", "email")]
    pos = 0
    for author in authors:
        gw = _gold_words(author)
        if not gw:
            continue
        span = _find(toks, words_at, gw, pos) or _find(toks, words_at, gw, 0)
        if span is None:
            return None
        for n, i in enumerate(span):
            tags[i] = "B" if n == 0 else "I"
        pos = words_at.index(span[-1]) + 1
    return tags


def _find(toks: list[Token], words_at: list[int], gw: list[str], pos: int) -> list[int] | None:
    for s in range(pos, len(words_at)):  # every word of the name, in order
        idx = words_at[s:s + len(gw)]
        if len(idx) == len(gw) and toks[idx[-1]].line - toks[idx[0]].line <= 1 and \
                all(_word_matches(toks[i].text, w) for i, w in zip(idx, gw)) and _key(toks[idx[-1]].text) == _key(gw[-1]):
            return [t for t in range(idx[0], idx[-1] + 1) if _shape(toks[t].text) not in ("mark", "sup", "digits")]
    surname, initial = _key(gw[-1]), _key(gw[0])[:1]
    for s in range(pos, len(words_at)):  # the surname, with the name-shaped words before it
        i = words_at[s]
        if _key(toks[i].text) != surname:
            continue
        before = []
        for j in reversed(words_at[max(0, s - 3):s]):
            t = toks[j]
            if toks[i].line - t.line > 1 or _shape(t.text) not in ("Cap", "Cap-", "CAPS", "X", "initial") or \
                    t.text.lower() in _FUNCTION:
                break
            before.insert(0, j)
            if _key(t.text)[:1] == initial:
                return [*before, i]
    return None


# --- the model --------------------------------------------------------------------------------

Page = tuple[PageText, list[Line]]  # a page and its title's lines


def dataset(rows: list[dict[str, Any]], page_of: Callable[[dict[str, Any]], Page | None],
            gold_title: bool = True) -> tuple[list[tuple[list[dict[str, Any]], list[str]]], int]:
    """The training sequences of ``rows`` (one per page whose gold authors are all found in
    its block), and how many pages were left out."""
    out = []
    missed = 0
    for row in rows:
        got = page_of(row)
        if got is None:
            missed += 1
            continue
        page, title = got
        if gold_title:
            title = _gold_title_lines(page, row["title"], title)
        lines = block(page, title)
        toks = tokens(lines)
        tags = gold_tags(toks, row["authors"])
        if tags is None or not toks:
            missed += 1
            continue
        out.append((features(page, lines, toks), tags))
    return out, missed


def _gold_title_lines(page: PageText, title: str | None, rules: list[Line]) -> list[Line]:
    """The title's lines for the training labels: the rules' when they spell the gold title,
    else the longest run of lines whose text is part of it (``line_classifier.gold_labels``),
    else the rules'."""
    import line_classifier as L

    gold = _key(title or "")
    if not gold or _key(" ".join(ln.text for ln in rules)) == gold:
        return rules
    labels = L.gold_labels(page, title, [])
    run = [ln for ln, label in zip(L.page_lines(page), labels) if label == L.CLASSES.index("title")]
    return run or rules


def fit(data: list[tuple[list[dict[str, Any]], list[str]]], path: Path) -> None:
    trainer = pycrfsuite.Trainer(algorithm="lbfgs", verbose=False)
    for x, y in data:
        trainer.append(x, y)
    trainer.set_params(PARAMS)
    trainer.train(str(path))


class Reader:
    """A fitted model reading the names of an author block."""

    def __init__(self, path: Path) -> None:
        self.tagger = pycrfsuite.Tagger()
        self.tagger.open(str(path))

    def tag(self, page: PageText | None, title: list[Line]) -> tuple[list[str], float]:
        """The names in the block under ``title`` and how likely the labelling is."""
        if page is None:
            return [], 0.0
        lines = block(page, title)
        toks = tokens(lines)
        if not toks:
            return [], 0.0
        tags = self.tagger.tag(features(page, lines, toks))
        return decode(toks, tags), float(self.tagger.probability(tags))

    def names(self, page: PageText | None, title: list[Line]) -> list[str]:
        return self.tag(page, title)[0]


def decode(toks: list[Token], tags: list[str]) -> list[str]:
    """The B/I spans as names, in reading order, once each."""
    spans: list[list[str]] = []
    for tok, tag in zip(toks, tags):
        if tag == "B" or (tag == "I" and not spans):
            spans.append([tok.text])
        elif tag == "I":
            spans[-1].append(tok.text)
    names: list[str] = []
    for words in spans:
        kept = [w for w in words if _shape(w) not in ("mark", "sup", "digits", "email")]
        while kept and kept[0].lower() in _FUNCTION - set(getattr(meta, "_PARTICLES", set())):
            kept.pop(0)  # "and Andrew" / "D. White": the separator is no part of the name
        text = " ".join(kept).strip(" ,")
        if not text:
            continue
        name = meta._name(text) or text
        if name not in names:
            names.append(name)
    return names[:100]


def readers(reader: Reader) -> dict[str, dict[str, Any]]:
    """"crf": the CRF's names in place of the rules'; "arbitrate": the rules' names, the CRF's
    where the rules find none or where the CRF's labelling is at least ``CONFIDENT`` likely;
    "fallback": the rules' names, the CRF's only where the rules find none."""
    import line_classifier as L

    _, rules_authors = L.rules_readers()

    def arbitrated(page: PageText | None, title: list[Line]) -> list[str]:
        rules = rules_authors(page, title)
        names, p = reader.tag(page, title)
        return names if names and (not rules or p >= CONFIDENT) else rules

    def fallback(page: PageText | None, title: list[Line]) -> list[str]:
        return rules_authors(page, title) or reader.names(page, title)

    return {"crf": {"read_authors": reader.names}, "arbitrate": {"read_authors": arbitrated},
            "fallback": {"read_authors": fallback}}


# --- leave one round out ------------------------------------------------------------------------

def evaluate(gold: list[dict[str, Any]], pages: Any, held: list[str] | None, show: bool = False) -> dict[str, Any]:
    """For each round in ``held`` (every dev round when None), the CRF fitted on all other dev
    rounds reads it, beside the rules (of whatever ``meta.py`` is imported); ``held`` empty:
    fitted on all of dev, read on all of dev (in-sample)."""
    import line_classifier as L
    import line_model
    from archive_metadata import ROUNDS, score

    def page_of(row: dict[str, Any]) -> Page | None:
        _, first, after = pages[line_model.row_key(row)]
        page = line_model.read_page(first, after)
        if page is None:
            return None
        return page, meta._title_lines(page)

    fields = ("title", "authors", "year", "all")

    def tally(rows: list[dict[str, Any]], how: dict[str, Any] | None, name: str) -> dict[str, int]:
        out = dict.fromkeys(fields, 0)
        for g in rows:
            info, first, after = pages[line_model.row_key(g)]
            got = L.record(info, first, Path(g["path"]).name, after, **(how or {}))
            verdict = score(g, got)
            for k, v in verdict.items():
                out[k] += v
            if show and not verdict["authors"]:
                print(json.dumps({"reader": name, "set": g["set"], "path": g["path"], "got": got.authors,
                                  "gold": g["authors"]}, ensure_ascii=False), file=sys.stderr)
        return out

    plans = [(r, [g for g in gold if g["set"] != r], [g for g in gold if g["set"] == r])
             for r in (held if held is not None else ROUNDS) if any(g["set"] == r for g in gold)]
    if held == []:
        plans = [("dev, fitted on all of dev", gold, gold)]
    table: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, train, test in plans:
            data, missed = dataset(train, page_of)
            path = Path(tmp) / "model.crfsuite"
            fit(data, path)
            reader = Reader(path)
            entry: dict[str, Any] = {"papers": len(test), "fitted_on": len(data), "left_out_of_fitting": missed,
                                     "rules": tally(test, None, "rules")}
            for how_name, how in readers(reader).items():
                entry[how_name] = tally(test, how, how_name)
            table[name] = entry
            print(json.dumps({name: entry}), file=sys.stderr)
    return table


def main() -> None:
    import line_model
    from archive_metadata import ROUNDS, add_collection_options, collection_roots

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the papers-we-love checkout (its PDFs)")
    ap.add_argument("--corpus", default=str(CORPORA / "pdfs"))
    add_collection_options(ap)
    ap.add_argument("--ocr", default="auto", choices=["auto", "off"])
    ap.add_argument("--cache", help="a pickle of the extracted pages kept between runs (outside the checkout)")
    ap.add_argument("--loro", action="store_true", help="leave one round out (every dev round, or --only)")
    ap.add_argument("--only", nargs="+", choices=ROUNDS)
    ap.add_argument("--insample", action="store_true", help="fit on all of dev, read all of dev")
    ap.add_argument("--write", action="store_true", help=f"fit on all of dev and write {MODEL.relative_to(REPO)}")
    ap.add_argument("--show", action="store_true", help="print every paper whose authors a reader gets wrong")
    ap.add_argument("--out")
    args = ap.parse_args()
    roots = {"archive": args.root, "corpus": args.corpus, **collection_roots(args)}
    gold = [r for r in line_model.gold_rows("dev") if roots.get(r.get("root", "archive"))]  # dev rows only, ever
    started = time.perf_counter()
    pages = line_model.load_pages(gold, roots, args.ocr, args.cache)
    result: dict[str, Any] = {}
    if args.loro:
        result["loro"] = evaluate(gold, pages, args.only, args.show)
    if args.insample:
        result["insample"] = evaluate(gold, pages, [], args.show)
    if args.write:
        def page_of(row: dict[str, Any]) -> Page | None:
            _, first, after = pages[line_model.row_key(row)]
            page = line_model.read_page(first, after)
            return None if page is None else (page, meta._title_lines(page))

        data, missed = dataset(gold, page_of)
        fit(data, MODEL)
        print(f"wrote {MODEL.relative_to(REPO)} ({len(data)} pages, {missed} left out)", file=sys.stderr)
    emit({"bench": "author_crf", **result, "params": PARAMS, "papers": len(gold),
          "seconds": round(time.perf_counter() - started, 1), "context": context()}, args.out)


if __name__ == "__main__":
    main()
