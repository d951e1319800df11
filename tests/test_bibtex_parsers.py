"""BibTeX that BibTeX reads: every export parses with pybtex (BibTeX's own brace rules),
bibtexparser 2 and bibtexparser 1 (tests/bibtex_parsers.py), and its titles and names
decode (pylatexenc) to the text they were made from — TeX's specials, braces, accents and
apostrophes included. Escaping a brace as ``\\{`` passed bibtexparser 2 alone: pybtex
stopped with "'}' expected" and bibtexparser 1 read no entry at all."""

from __future__ import annotations

import pytest

from athena_lab.citations.bibliography import render
from bibtex_parsers import parse_all, text_of

pytestmark = pytest.mark.integration

TITLES = [
    "Braces {open and close} alone: } then {",
    r"back\slash and \textbf{bold}",
    "tilde~and caret^here",
    "Percent % dollar $ hash # amp & under_score",
    "All of them: { } \\ % # & _ ~ ^ $",
    'Quotes "double" and \'single\' and ``tex\'\' -- dashes --- here',
    "BERT: S2ORC stays capitalised, Émile Zola’s naïve café",
    "@misc{injected, title={x}}",
    "\\",
    "}",
]
NAMES = [  # (as a library records them, as they read back)
    ({"family": "Fischer", "given": "Michael J."}, "Michael J. Fischer"),
    ({"family": "O'Neil", "given": "Cathy"}, "Cathy O'Neil"),
    ({"family": "D’Agostino", "given": "Ralph"}, "Ralph D’Agostino"),
    ({"family": "Müller-Lüdenscheidt", "given": "Jürgen"}, "Jürgen Müller-Lüdenscheidt"),
    ({"family": "Gödel", "given": "Kurt"}, "Kurt Gödel"),
    ({"family": "Zoë", "given": "Ève-Marie"}, "Ève-Marie Zoë"),
    ({"literal": "Procter and Gamble"}, "Procter and Gamble"),
]
PARSERS = ("pybtex", "bibtexparser2", "bibtexparser1")


def _plain(value: str) -> str:
    return text_of(value)


@pytest.mark.parametrize("title", TITLES)
def test_a_title_with_tex_specials_parses_under_all_three_parsers_and_reads_back(title: str) -> None:
    record = {"path": "papers/a_b#c%d.pdf", "title": title, "names": [n for n, _ in NAMES], "year": 2020,
              "type": "journalArticle", "venue": "Journal of {Braces} & 100% ^Carets~", "pages": "374-382"}
    parsed = parse_all(render([record], "bibtex"))
    for parser in PARSERS:
        entries = parsed[parser]
        assert len(entries) == 1, (parser, entries)
        entry = entries[0]
        assert entry["ENTRYTYPE"].lower() == "article", (parser, entry)
        assert _plain(entry["title"]) == title, (parser, entry["title"])
        assert _plain(entry["journal"]) == "Journal of {Braces} & 100% ^Carets~", parser
        assert entry["file"] == "papers/a_b#c%d.pdf", parser  # verbatim: the .bib reader links it back
        assert entry["pages"] == "374--382", parser


def test_accented_and_apostrophised_names_read_back_under_every_parser() -> None:
    record = {"path": "p.pdf", "title": "T", "names": [n for n, _ in NAMES]}
    parsed = parse_all(render([record], "bibtex"))
    wanted = [text for _, text in NAMES]
    pybtex_names = [_plain(n) for n in parsed["pybtex"][0]["authors"]]
    assert pybtex_names == wanted
    # bibtexparser 2 splits the list and leaves each name as written ("Family, Given").
    v2 = [_plain(n) for n in parsed["bibtexparser2"][0]["authors"]]
    assert v2 == [f"{n['family']}, {n['given']}" if "family" in n else n["literal"] for n, _ in NAMES]
    # bibtexparser 1 reads the same raw list.
    assert parsed["bibtexparser1"][0]["author"] == parsed["bibtexparser2"][0]["author"]


def test_names_guessed_from_a_page_keep_their_words_under_every_parser() -> None:
    record = {"path": "p.pdf", "title": "T", "authors": ["Procter and Gamble", "Smith, Jr.", "Ann O'Lee", "Ève Zoë"]}
    parsed = parse_all(render([record], "bibtex"))
    assert [_plain(n) for n in parsed["pybtex"][0]["authors"]] == ["Procter and Gamble", "Smith, Jr.", "Ann O'Lee",
                                                                    "Ève Zoë"]
    assert [_plain(n) for n in parsed["bibtexparser2"][0]["authors"]] == ["Procter and Gamble", "Smith, Jr.",
                                                                           "Ann O'Lee", "Ève Zoë"]
    assert parsed["bibtexparser1"][0]["author"] == parsed["bibtexparser2"][0]["author"]


def test_a_title_that_closes_its_entry_stays_one_entry_under_every_parser() -> None:
    hostile = "Real Title}, url = {http://evil.example/x}} @misc{injected, url={http://evil.example/}}"
    records = [{"path": "hostile.pdf", "title": hostile, "authors": ["Ada Lovelace"]},
               {"path": "plain.pdf", "title": "Plain", "authors": ["Ann Other"], "year": 2001}]
    parsed = parse_all(render(records, "bibtex"))
    for parser in PARSERS:
        entries = parsed[parser]
        assert [e["ID"] for e in entries] == ["lovelacereal", "other2001plain"], (parser, entries)
        assert "url" not in entries[0] and _plain(entries[0]["title"]) == hostile, parser


def test_every_entry_type_a_library_record_can_have_parses_under_every_parser() -> None:
    kinds = ["journalArticle", "conferencePaper", "book", "bookSection", "thesis", "report", "manuscript",
             "preprint", "webpage", "blogPost", "document", "computerProgram"]
    records = [{"path": f"{kind}.pdf", "title": f"A {kind}", "type": kind, "names": [NAMES[0][0]], "year": 1999,
                "venue": "Venue & Co", "publisher": "ACM {Press}", "volume": "3", "issue": "4", "pages": "1-2",
                "url": "https://example.org/a_b%20c#d", "doi": "10.1145/3149.214121"} for kind in kinds]
    parsed = parse_all(render(records, "bibtex"))
    want_types = ["article", "inproceedings", "book", "incollection", "phdthesis", "techreport", "unpublished",
                  "misc", "misc", "misc", "misc", "misc"]
    for parser in PARSERS:
        assert [e["ENTRYTYPE"].lower() for e in parsed[parser]] == want_types, parser
        for entry in parsed[parser]:
            assert entry["url"] == "https://example.org/a_b%20c#d" and entry["doi"] == "10.1145/3149.214121"
            assert _plain(entry.get("publisher") or entry.get("school") or entry.get("institution")) == "ACM {Press}"
