"""The offline answer leads with the sentence that answers (issue 21 §3): the call or setting
a how-to asks for and the code it introduces, the reason a why-question wants, the definition
a what-is question wants; never a heading, a figure's labels or a sentence cut mid-way.

The passages are the real documents' text and the similarity is the real default embedder's,
as in a turn; the follow-up runs a real turn on a real index of the Attention paper."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from athena_lab.agent.citations import EvidenceItem
from athena_lab.agent.support import unsupported_sentences
from athena_lab.agent.extractive import embedder_similarity, extractive_answer, quotable
from athena_lab.agent.passages import sentences
from corpus_files import CORPORA, FLASK_DOCS

pytestmark = pytest.mark.integration

FASTAPI_DOCS = CORPORA / "docs" / "fastapi" / "docs" / "en" / "docs"
ATTENTION = CORPORA / "pdfs" / "paper_attention_1706.03762.pdf"


@pytest.fixture(scope="module")
def similarity():
    from athena_lab.config import load_config
    from athena_lab.index.embeddings import make_embedder

    return embedder_similarity(make_embedder(load_config(".").settings.embedding))


def lines(path: Path, first: int, last: int) -> str:
    """Lines first..last (1-based, inclusive) of a real file: a chunk as the index cuts it."""
    return "\n".join(path.read_text(encoding="utf-8").splitlines()[first - 1:last])


def bullets(text: str) -> list[str]:
    return [b for b in text.split("\n- ") if b.strip()]


def test_a_how_to_answer_leads_with_the_code_that_does_it(similarity):
    """"So how do you register that blueprint? Like this::" and its code answer the question;
    the lead-in is quoted with "Like this:", which alone says nothing."""
    evidence = [EvidenceItem(1, {"path": "blueprints.rst"}, lines(FLASK_DOCS / "blueprints.rst", 87, 121)),
                EvidenceItem(2, {"path": "tutorial/blog.rst"}, lines(FLASK_DOCS / "tutorial/blog.rst", 18, 66))]
    reply = extractive_answer("How do I register a blueprint?", evidence, similarity)
    lead = bullets(reply.text)[0]
    assert lead.startswith("- So how do you register that blueprint? [1] Like this: [1]")
    assert "app.register_blueprint(simple_page)" in lead
    assert unsupported_sentences(reply.text, {i.number: i.text for i in evidence}) == []


def test_the_code_that_sets_the_name_asked_about_is_quoted(similarity):
    """"How do I set the secret key?" brings ``SECRET_KEY = '…'``, whose introducer ("Copy
    the generated value into it.") shares no word with the question, with the sentence that
    says what "it" is."""
    evidence = [EvidenceItem(1, {"path": "tutorial/deploy.rst"}, lines(FLASK_DOCS / "tutorial/deploy.rst", 51, 80)),
                EvidenceItem(2, {"path": "quickstart.rst"}, lines(FLASK_DOCS / "quickstart.rst", 762, 772))]
    reply = extractive_answer("How do I set the secret key?", evidence, similarity)
    assert "SECRET_KEY = '192b9bdd" in reply.text
    assert "Create the config.py file in the instance folder" in reply.text


def test_headings_are_never_quoted(similarity):
    """An admonition's title ("How to generate good secret keys") and a FastAPI admonition's
    ("/// note | Technical Details") are headings, not sentences."""
    quickstart = lines(FLASK_DOCS / "quickstart.rst", 762, 772)
    middleware = lines(FASTAPI_DOCS / "tutorial" / "middleware.md", 1, 24)
    said = [s.text for s in sentences(quickstart) + sentences(middleware)]
    assert not any("How to generate good secret keys" in s or "Technical Details" in s for s in said)
    assert any(s.startswith("A secret key should be as random as possible.") for s in said)
    # *emphasis* is markup, and its asterisks never make a sentence look like an author line
    assert any(s.startswith('A "middleware" is a function that works with every request before it is processed '
                            "by any specific path operation.") for s in said)
    reply = extractive_answer("How should I generate good secret keys?",
                              [EvidenceItem(1, {"path": "quickstart.rst"}, quickstart)], similarity)
    assert "How to generate good secret keys" not in reply.text and "secrets.token_hex()" in reply.text


CUT = """The two most commonly used attention functions are additive attention [2], and dot-product
attention. Dot-product attention is identical to our algorithm, except for the scaling factor.
Additive attention computes the compatibility function using a feed-forward network with

Scaled Dot-Product Attention Multi-Head Attention

Figure 2: (left) Scaled Dot-Product Attention. (right) Multi-Head Attention consists of several
attention layers running in parallel.

inside of scaled dot-product attention by masking out all values in the input of the softmax
which correspond to illegal connections."""


def test_no_quote_is_cut_mid_sentence_nor_a_figure_label_or_caption(similarity):
    reply = extractive_answer("How does additive attention compare with dot-product attention?",
                              [EvidenceItem(1, {"path": "attention.pdf"}, CUT)], similarity)
    assert "Dot-product attention is identical to our algorithm" in reply.text
    for never in ("network with [1]", "Multi-Head Attention [1]", "Figure 2", "inside of scaled"):
        assert never not in reply.text
    # a document's own reference marks go with the space before them: "attention, and"
    assert "additive attention, and dot-product" in " ".join(s.text for s in sentences(CUT))
    caption = next(s for s in sentences(CUT) if s.text.startswith("Figure 2:"))
    assert quotable(caption, "What does Figure 2 show?") and not quotable(caption, "What is attention?")


@pytest.fixture(scope="module")
def attention(tmp_path_factory):
    from athena_lab.workspace import Workspace

    root = tmp_path_factory.mktemp("attention")
    shutil.copy(ATTENTION, root / ATTENTION.name)
    ws = Workspace(root)
    ws.index()
    yield ws
    ws.close()


def test_a_definition_then_a_why_follow_up_each_lead_with_what_answers(attention):
    """"What is scaled dot-product attention?" leads with its naming and what it computes;
    "Why is it scaled?" — which names nothing itself — is picked by the words it leans on
    and leads with the reason, and the sentence that says what "this effect" is."""
    first = attention.ask("What is scaled dot-product attention?")
    lead = bullets(first.answer)[0]
    assert 'We call our particular attention "Scaled Dot-Product Attention"' in lead
    assert "We compute the dot products of the query with all keys" in lead
    follow = attention.ask("Why is it scaled?", conversation_id=first.conversation_id)
    lead = bullets(follow.answer)[0]
    assert lead.startswith("- We suspect that for large values of")
    assert "To counteract this effect, we scale the dot products" in lead
    assert follow.unsupported == []


def test_a_pdf_list_glyph_is_a_bullet_not_part_of_the_sentence():
    """PDF lists keep their "•" glyph in the text layer; quoted, it showed inside our own bullet."""
    said = sentences("Word processors grew in stages:\n• IBM MT/ST (Magnetic Tape/Selectric Typewriter): "
                     "Introduced in 1964, this machine combined IBM's Selectric typewriter with magnetic tape.")
    item = next(s for s in said if "IBM MT/ST" in s.text)
    assert item.text.startswith("IBM MT/ST") and item.listed



def test_the_how_to_bonus_of_the_best_sentence_does_not_leave_it_alone():
    """The best sentence's bonus for naming what the question asks about used to lift the
    bar the others must reach (75 % of the best score) above all of them: the sidebar's
    SECRET_KEY answer shrank to one bullet. A sentence meets the bar with or without it.
    (Fixed scores, so the arithmetic is the test: 0.8 + 0.2 + 0.1 + 0.15 for the best.)"""
    chunk = ("Use the following line to set app.secret_key in your app:\n\n"
             "```python\napp.secret_key = 'dev'\n```\n\n"
             "For a complete reference, read the Config object's documentation.")
    scores = {"Use the following": 0.8, "For a complete": 0.75}

    def fixed(question: str, texts: list[str]) -> list[float]:
        return [max([v for k, v in scores.items() if k in t], default=0.0) for t in texts]

    reply = extractive_answer("How do I set the secret key?", [EvidenceItem(1, {"path": "config.md"}, chunk)], fixed)
    assert len(bullets(reply.text)) == 2 and "For a complete reference" in reply.text
