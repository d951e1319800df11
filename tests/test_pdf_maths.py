"""Maths, footnote marks and figure labels in PDF text (issue 21 §3).

Pinned on the Attention paper, whose pages 3–6 the issue quoted garbled ("we scale the
dot products by √ 1 ." for 1/√dₖ, "gradients 4 .", a sentence cut at "…feed-forward
network with", Figure 2's diagram titles quoted as a bullet), and on hand-made lines for
the rules that tell a footnote mark from an exponent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from athena_lab.document import Block, ParsedDocument
from athena_lab.index.lexical import query_words
from athena_lab.ingest.parsers.pdf import PdfOptions, parse
from athena_lab.pdf.extract import Char, Fragment
from athena_lab.pdf.layout import reading_order
from athena_lab.pdf.maths import compose
from corpus_files import CORPORA

pytestmark = pytest.mark.unit

ATTENTION = CORPORA / "pdfs" / "paper_attention_1706.03762.pdf"


@pytest.fixture(scope="module")
def attention() -> ParsedDocument:
    return parse(ATTENTION, ATTENTION.name, PdfOptions(ocr="off"))


def _blocks(doc: ParsedDocument, page: int | None = None) -> list[Block]:
    return [b for s in doc.sections for b in s.blocks if page is None or b.page == page]


def _flat(block: Block) -> str:
    return re.sub(r"\s*\n\s*", " ", block.text)


def _block_with(doc: ParsedDocument, needle: str) -> Block:
    found = [b for b in _blocks(doc) if needle in _flat(b)]
    assert found, f"no block holds {needle!r}"
    return found[0]


def test_the_scaled_dot_product_formula_reads_as_one_line(attention: ParsedDocument) -> None:
    block = _block_with(attention, "Attention(Q, K, V) = softmax(QK^T/√dk)V (1)")
    assert block.page == 4 and block.text == "Attention(Q, K, V) = softmax(QK^T/√dk)V (1)", \
        "a numbered formula is a block of its own, not the start of the next sentence"
    assert not any(_flat(b).strip() in ("QKT", "√ dk", "dk") for b in _blocks(attention, 4))


def test_the_scaling_factor_reads_one_over_root_dk(attention: ParsedDocument) -> None:
    text = " ".join(_flat(b) for b in _blocks(attention, 4))
    assert "except for the scaling factor of 1/√dk. Additive attention" in text
    assert "we scale the dot products by 1/√dk." in text
    assert "divide each by √dk," in text
    assert "√ 1" not in text


def test_a_footnote_mark_is_not_a_word_of_the_sentence(attention: ParsedDocument) -> None:
    block = _block_with(attention, "extremely small gradients. To counteract this effect")
    assert not re.search(r"gradients\s*4", _flat(block))
    note = _block_with(attention, "To illustrate why the dot products get large")
    assert _flat(note).startswith("4 To illustrate"), "the footnote keeps its number, as its own paragraph"
    assert note is not block


def test_the_sentence_around_the_fraction_is_one_paragraph(attention: ParsedDocument) -> None:
    block = _block_with(attention, "using a feed-forward network with a single hidden layer.")
    assert "scaling factor of 1/√dk" in _flat(block)


def test_exponents_and_subscripts_stay_on_their_base(attention: ParsedDocument) -> None:
    assert "PE(pos,2i) = sin(pos/10000^(2i/dmodel))" in _flat(_block_with(attention, "PE(pos,2i)"))
    assert "produce outputs of dimension dmodel = 512." in _flat(_block_with(attention, "dmodel = 512"))
    assert "W^O ∈ R^(hdv×dmodel)" in _flat(_block_with(attention, "W^O ∈"))


def test_a_search_for_dk_finds_the_subscript_as_a_word(attention: ParsedDocument) -> None:
    """d_k is written "dk", one word for the lexical index; "dₖ" would be a word of its own
    that a typed "dk" never matches."""
    words = query_words(_flat(_block_with(attention, "we scale the dot products by")))
    assert "dk" in words and "gradients" in words and "dₖ" not in " ".join(words)


def test_figure_labels_are_no_paragraph_and_captions_stay(attention: ParsedDocument) -> None:
    texts = [_flat(b).strip() for b in _blocks(attention)]
    assert "Scaled Dot-Product Attention Multi-Head Attention" not in texts
    assert any(t.startswith("Figure 2: (left) Scaled Dot-Product Attention.") for t in texts)
    headings = {h for s in attention.sections for h in s.heading_path}
    assert "Input-Input Layer5" not in headings, "labels inside Figures 4 and 5 were taken for headings"


def _line(*pieces: tuple[str, str]) -> list[Char]:
    """Characters of a 10 pt line from (text, where) pieces: "base", "sup" (7 pt, raised)
    or "sub" (7 pt, lowered); a space is a space on the base line."""
    chars: list[Char] = []
    x = 100.0
    for text, where in pieces:
        for ch in text:
            if where == "base":
                c = Char(ch, x, 100.0, x + 5, 110.0, 10.0, False, 10.0)
            elif where == "sup":
                c = Char(ch, x, 97.0, x + 3.5, 104.0, 7.0, False, 7.0)
            else:
                c = Char(ch, x, 105.0, x + 3.5, 112.0, 7.0, False, 7.0)
            chars.append(c)
            x = c.x1
    return chars


def _text(chars: list[Char]) -> str:
    return "".join(c.text for c in chars)


@pytest.mark.parametrize(("pieces", "reads"), [
    ((("as reported", "base"), ("12", "sup"), (" by all", "base")), "as reported by all"),  # a mark
    ((("then x", "base"), ("2", "sup"), (" grows", "base")), "then x^2 grows"),  # an exponent
    ((("the 10", "base"), ("th", "sup"), (" day", "base")), "the 10th day"),  # an ordinal
    ((("(Figure 4).", "base"), ("1", "sup"), (" This", "base")), "(Figure 4). This"),  # after a full stop
    ((("= cos", "base"), ("2", "sup"), ("(v)", "base")), "= cos^2(v)"),  # on a function
    ((("Kyle Lo", "base"), ("†", "sup"), (" Lucy", "base")), "Kyle Lo Lucy"),  # on a name
])
def test_a_raised_run_is_a_footnote_mark_or_an_exponent_by_what_it_follows(
        pieces: tuple[tuple[str, str], ...], reads: str) -> None:
    chars, _ = compose(_line(*pieces), [])
    assert _text(chars) == reads


def test_a_line_opening_with_a_mark_is_a_footnote_that_keeps_its_number() -> None:
    chars, note = compose(_line(("3", "sup"), ("See the appendix.", "base")), [])
    assert note and _text(chars) == "3 See the appendix."


def test_a_subscript_is_written_on_its_base_and_a_bar_makes_a_fraction() -> None:
    sub, _ = compose(_line(("keys of size d", "base"), ("k", "sub"), (" each", "base")), [])
    assert _text(sub) == "keys of size dk each"
    chars = _line(("ratio ", "base"))
    x = chars[-1].x1
    num = Char("a", x, 96.0, x + 3.5, 103.0, 7.0, False, 7.0)
    den = Char("b", x, 106.0, x + 3.5, 113.0, 7.0, False, 7.0)
    bar = (x - 0.5, 104.2, x + 4.0, 104.6)
    fraction, _ = compose(chars + [num, den], [bar])
    assert _text(fraction) == "ratio a/b"
    stacked, _ = compose(chars + [num, den], [])  # no bar: an exponent over a subscript
    assert "/" not in _text(stacked)


def test_other_corpus_pdfs_keep_their_words_apart(corpora: Path) -> None:
    """Spaces pdfium makes up are kept between words even where glyph boxes nearly touch
    (the j of "of judgment" reaches left), and footnote marks on numbers in a table go."""
    eacl = corpora / "pdfs" / "paper_2023.eacl-main.121.pdf"
    doc = parse(eacl, eacl.name, PdfOptions(ocr="off"))
    text = " ".join(_flat(b) for b in _blocks(doc))
    assert "finer granularity of judgment" in text and "ofjudgment" not in text
    gdoc = corpora / "pdfs" / "misc_pypdf_google-doc-document.pdf"
    doc = parse(gdoc, gdoc.name, PdfOptions(ocr="off"))
    text = "\n".join(b.text for b in _blocks(doc))
    assert "273.879.750 83,190,556 8,935,112" in text
    assert "1 2021 estimate" in text


def test_a_lines_type_is_its_glyphs_not_the_carets_written_around_its_scripts() -> None:
    """A CACM scan's section label ("Operating Systems" / "R.S. Gaines, Editor") set small
    beside a title's first line and read into it: the line keeps the title's 28.7 pt. The
    carets and brackets written around the label's pieces are set in their size, and were
    many enough to make the line's median 10.5 pt, so the line was no title's."""
    chars: list[Char] = []
    x = 58.0
    for text, big in (("Syst", False), ("Co", True), ("em", False), ("n", True), ("s", False),
                      ("current", True), ("Editor", False), ("Reading", True)):
        for ch in text:
            if big:
                chars.append(Char(ch, x, 74.0, x + 12, 103.0, 28.7, False, 28.7))
            else:
                chars.append(Char(ch, x, 65.0, x + 4, 75.0, 10.5, False, 10.5))
            x = chars[-1].x1
    (line,) = reading_order([Fragment(chars)])
    assert "^(Syst)" in line.text and "current" in line.text
    assert line.size == pytest.approx(28.7)
