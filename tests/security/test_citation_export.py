"""Citation export cannot be injected (docs/security.md, "Citation export").

A PDF's title and author lines are whatever its maker printed (and /Title and /Author whatever it typed), and the BibTeX, RIS and CSL-JSON
athena exports are pasted into reference managers and LaTeX builds. Each test reads the
export back with a real parser — ``bibtexparser`` 2 and pybtex for BibTeX (its values decoded from TeX by
``pylatexenc``; tests/test_bibtex_parsers.py adds bibtexparser 1), a line-by-line tag count for RIS, ``json`` for CSL-JSON — and asserts one
record per source whose fields read back as written. The first two send a hostile PDF
through ``athena index`` and a real ``athena serve``'s ``/athena/cite``.
"""

from __future__ import annotations

import json
import shutil
from itertools import accumulate

import bibtexparser
import pytest
from bibtexparser.middlewares.names import split_multiple_persons_names

from athena_lab.citations.bibliography import render
from bibtex_parsers import parse_pybtex, text_of
from corpus_files import CORPORA
from http_servers import PDF_NAME, AthenaServer, fast_env, run_cli
from printed_pdf import printed_pdf

pytestmark = pytest.mark.integration

INJECTED_TITLE = ("Real Title}, url = {http://evil.example/x}}\n"
                  "@misc{injected, url={http://evil.example/}, file={/home/user/.ssh/id_rsa}")
INJECTED_AUTHOR = "Ada Lovelace\nER  - \nTY  - GEN\nTI  - Injected\nUR  - http://evil.example/\n"


def balanced(value: str) -> bool:
    """Every brace closes one opened before it, counted as BibTeX counts them: a backslash
    before a brace does not hide it (``\\{`` would end a field early in BibTeX and pybtex)."""
    depths = list(accumulate(1 if char == "{" else -1 for char in value if char in "{}"))
    return not depths or (min(depths) >= 0 and depths[-1] == 0)


def parse_bibtex(text: str) -> list[dict[str, str]]:
    """Each entry's fields as written; fails on any block bibtexparser 2 could not read, or
    on any entry BibTeX's own rules (pybtex) refuse."""
    assert len(parse_pybtex(text)) == text.count("\n@") + text.startswith("@"), text
    library = bibtexparser.parse_string(text, parse_stack=[])  # values as written, braces included
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    out = []
    for entry in library.entries:
        fields = {"ID": entry.key, "ENTRYTYPE": entry.entry_type}
        for field in entry.fields:
            raw = field.value
            assert raw.startswith("{") and raw.endswith("}") and balanced(raw), raw
            fields[field.key] = raw[1:-1]
        out.append(fields)
    return out


def authors_of(tex: str) -> list[str]:
    return [text_of(name) for name in split_multiple_persons_names(tex)]


def ris_records(text: str) -> list[list[str]]:
    """RIS split into records by its TY and ER lines, asserting they pair up."""
    records: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("TY  - "):
            assert current is None, f"a TY inside a record: {text}"
            current = [line]
        elif line.startswith("ER  -"):
            assert current is not None, f"an ER outside a record: {text}"
            records.append(current + [line])
            current = None
        elif line.strip():
            assert current is not None, f"a line outside a record: {line!r}"
            current.append(line)
    assert current is None
    return records


# End to end: a hostile PDF indexed and cited through athena serve ----------------------

@pytest.fixture(scope="module")
def hostile_pdf_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-pdf") / "docs"
    folder.mkdir()
    # A record is what the first page prints (its /Info fields only where they agree), so
    # the hostile title and author are printed: the title's two lines large, the author's
    # line (its newlines a PDF line cannot hold) under them, then a paragraph.
    lines = [(line, 22.0) for line in INJECTED_TITLE.split("\n")] + [(" ".join(INJECTED_AUTHOR.split()), 12.0)]
    lines += [("", 12.0)] + [("The problem of reaching agreement among remote processes is one of the most "
                              "fundamental problems in distributed computing.", 10.0)] * 6
    (folder / "hostile.pdf").write_bytes(printed_pdf(lines, {"Title": INJECTED_TITLE, "Author": INJECTED_AUTHOR}))
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, folder / "plain.pdf")
    run_cli("index", str(folder), env=fast_env())
    with AthenaServer(folder, "--rate-limit", "0", env=fast_env()) as server:
        yield server


def test_a_title_that_closes_its_braces_stays_one_bibtex_entry(hostile_pdf_server):
    r = hostile_pdf_server.client.get("/cite", params=[("target", "hostile.pdf"), ("target", "plain.pdf")])
    assert r.status_code == 200, r.text
    entries = parse_bibtex(r.text)
    assert len(entries) == 2, r.text
    hostile = entries[0]
    assert "injected" not in {e["ID"] for e in entries}
    assert set(hostile) <= {"ID", "ENTRYTYPE", "title", "author", "year", "file"}, hostile
    assert text_of(hostile["title"]) == " ".join(INJECTED_TITLE.split())
    assert hostile["file"] == "hostile.pdf"


def test_an_author_holding_a_ris_record_stays_one_ris_record(hostile_pdf_server):
    r = hostile_pdf_server.client.get("/cite", params={"target": "hostile.pdf", "format": "ris"})
    assert r.status_code == 200, r.text
    records = ris_records(r.text)
    assert len(records) == 1, r.text
    assert [line for line in records[0] if line.startswith("AU  - ")] == [
        "AU  - " + " ".join(INJECTED_AUTHOR.split())]
    assert not any(line.startswith(("UR  - ", "TI  - Injected")) for line in records[0])
    bib = parse_bibtex(hostile_pdf_server.client.get("/cite", params={"target": "hostile.pdf"}).text)
    assert authors_of(bib[0]["author"]) == [" ".join(INJECTED_AUTHOR.split())]


# Every field, every format ---------------------------------------------------------------

TRICKY_TITLES = [
    r"back\slash and \textbf{bold}",
    "tilde~and caret^here",
    "Percent % dollar $ hash # amp & under_score",
    "Braces {open and close} alone: } then {",
    'Quotes "double" and \'single\' and ``tex\'\' -- dashes --- here',
    "BERT: S2ORC stays capitalised, Émile Zola’s naïve café",
    "@misc{injected, title={x}}",
    "\\",
]


@pytest.mark.parametrize("title", TRICKY_TITLES)
def test_a_title_with_tex_specials_reads_back_as_written(title):
    record = {"path": "papers/a_b#c%d.pdf", "title": title, "authors": ["Ann Other"], "year": 2020}
    entries = parse_bibtex(render([record], "bibtex"))
    assert len(entries) == 1
    assert text_of(entries[0]["title"]) == title
    assert entries[0]["file"] == "papers/a_b#c%d.pdf"
    assert json.loads(render([record], "csl-json"))[0]["title"] == title
    assert f"TI  - {title}\n" in render([record], "ris")


@pytest.mark.parametrize("path", ["papers/x}, title={evil}.pdf", "papers/a\\}b.pdf", "papers/{odd.pdf"])
def test_a_file_name_with_braces_cannot_open_a_field_of_its_own(path):
    """A file's name is the folder's, untrusted: a brace or backslash in it goes to a TeX-escaped note."""
    entries = parse_bibtex(render([{"path": path, "title": "T", "year": 2020}], "bibtex"))
    assert len(entries) == 1
    assert set(entries[0]) == {"ID", "ENTRYTYPE", "title", "year", "note"}, entries[0]
    assert text_of(entries[0]["note"]) == f"file: {path}"


def test_a_title_keeps_its_capitals_in_bibtex():
    entry = parse_bibtex(render([{"path": "p.pdf", "title": "BERT meets S2ORC"}], "bibtex"))[0]
    assert entry["title"] == "{BERT meets S2ORC}"  # inner braces: styles do not lowercase it
    starts_with_command = parse_bibtex(render([{"path": "p.pdf", "title": "\\Foo"}], "bibtex"))[0]
    assert starts_with_command["title"].startswith("{{}")  # a group opening with \ would be a "special character"


def test_newlines_in_any_field_are_folded_in_every_format():
    record = {"path": "a\nb.pdf", "title": "One\r\nTwo\u2028Three", "authors": ["Ann\nOther", "Bo\tB"],
              "year": 2020, "doi": "10.1000/xyz\n", "arxiv": "1706.03762\n"}
    ris = render([record], "ris")
    assert len(ris_records(ris)) == 1
    assert "TI  - One Two Three\n" in ris and "AU  - Ann Other\n" in ris and "N1  - file: a b.pdf\n" in ris
    assert "DO  - 10.1000/xyz\n" in ris
    entry = parse_bibtex(render([record], "bibtex"))[0]
    assert text_of(entry["title"]) == "One Two Three" and authors_of(entry["author"]) == ["Ann Other", "Bo B"]
    assert entry["doi"] == "10.1000/xyz" and entry["eprint"] == "1706.03762"
    item = json.loads(render([record], "csl-json"))[0]
    assert item["title"] == "One Two Three" and item["author"][0] == {"family": "Other", "given": "Ann"}


def test_an_author_named_with_and_or_a_comma_stays_one_author():
    record = {"path": "p.pdf", "title": "T", "authors": ["Procter and Gamble", "Smith, Jr.", "others", "Ann Lee"]}
    entry = parse_bibtex(render([record], "bibtex"))[0]
    assert authors_of(entry["author"]) == ["Procter and Gamble", "Smith, Jr.", "others", "Ann Lee"]


def test_two_sources_with_the_same_key_are_told_apart():
    same = {"title": "Attention Is All You Need", "authors": ["Ashish Vaswani"], "year": 2017}
    records = [{"path": f"copy{n}.pdf", **same} for n in range(3)]
    keys = [e["ID"] for e in parse_bibtex(render(records, "bibtex"))]
    assert keys == ["vaswani2017attention", "vaswani2017attentionb", "vaswani2017attentionc"]
    assert [i["id"] for i in json.loads(render(records, "csl-json"))] == keys


@pytest.mark.parametrize("year", ["2017a", "n.d.", "", None, "20170", True, 12.5, "{2017}"])
def test_a_year_that_is_not_a_year_is_left_out_never_an_error(year):
    record = {"path": "p.pdf", "title": "T", "year": year}
    assert "year" not in parse_bibtex(render([record], "bibtex"))[0]
    assert "PY  -" not in render([record], "ris")
    assert "issued" not in json.loads(render([record], "csl-json"))[0]


@pytest.mark.parametrize("doi", ["10.1000/a}b", "10.1000/x\"y", "not-a-doi", "10.1000/a b"])
def test_an_identifier_of_the_wrong_shape_is_left_out(doi):
    record = {"path": "p.pdf", "title": "T", "doi": doi, "arxiv": "1706.03762}, url={x"}
    entry = parse_bibtex(render([record], "bibtex"))[0]
    assert "doi" not in entry and "eprint" not in entry
    assert "DO  -" not in render([record], "ris") and "UR  -" not in render([record], "ris")
