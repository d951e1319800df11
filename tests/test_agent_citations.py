"""Marker renumbering while streaming, and the unsupported-claim check."""

from __future__ import annotations

import pytest

from athena_lab.agent.citations import TurnEvidence, MarkerRewriter, cited_texts, split_sentences
from athena_lab.agent.support import unsupported_sentences
from athena_lab.agent.prompts import language_directive
from athena_lab.language import detect_language

pytestmark = pytest.mark.unit


def _evidence(*texts: str) -> TurnEvidence:
    ev = TurnEvidence()
    for n, text in enumerate(texts, 1):
        ev.add_range(f"doc{n}.md", 1, 3, text.splitlines())
    return ev


def _stream(rewriter: MarkerRewriter, text: str, size: int) -> str:
    out = "".join(rewriter.feed(text[i:i + size]) for i in range(0, len(text), size))
    return out + rewriter.flush()


def test_markers_are_renumbered_by_first_use_even_when_split_across_chunks():
    ev = _evidence("alpha", "beta", "gamma")
    for size in (1, 2, 3, 50):
        rw = MarkerRewriter(ev)
        out = _stream(rw, "Gamma first [3]. Then alpha [1, 3]. Nothing [9]. Beta [2]", size)
        assert out == "Gamma first [1]. Then alpha [2][1]. Nothing. Beta [3]", size
        assert [c["path"] for c in rw.citations()] == ["doc3.md", "doc1.md", "doc2.md"]
        assert rw.dropped == [9]


def test_markers_inside_code_are_left_alone():
    rw = MarkerRewriter(_evidence("alpha"))
    text = "Index with `items[2]` and\n```\nx = row[1]\n```\nsee [1]"
    assert _stream(rw, text, 4) == text


def test_unsupported_lists_uncited_claims_and_claims_their_evidence_lacks():
    ev = _evidence("Blueprints are registered on the application with register_blueprint.")
    rw = MarkerRewriter(ev)
    answer = _stream(rw, "Blueprints are registered with register_blueprint on the application [1]. "
                         "Flask ships a PostgreSQL cluster manager for quantum deployments [1]. "
                         "Blueprints require a Kubernetes operator to be installed. "
                         "Which one do you need? The index has no evidence about caching.", 5)
    flagged = unsupported_sentences(answer, cited_texts(rw))
    assert flagged == ["Flask ships a PostgreSQL cluster manager for quantum deployments",
                       "Blueprints require a Kubernetes operator to be installed."]
    assert all(s in answer for s in flagged)


def test_the_prompt_a_small_model_echoes_back_is_not_flagged_but_its_own_claims_are():
    # Qwen2.5-Coder 0.5B at temperature 0, asked in Spanish, answered with its prompt: the
    # passage's label, the passage (supported) and the question it was asked.
    passage = "The gateway reads its listening port from ZEPHYR_PORT. When ZEPHYR_PORT is not set, it listens on 7414."
    answer = ("Passages: [1] gateway.md:3–16 (Zephyr gateway)\n"
              "When ZEPHYR_PORT is not set, it listens on 7414 [1].\n\n"
              "Question: ¿En qué puerto escucha el gateway Zephyr cuando no se configura nada\n\n"
              "The gateway stores each request in a database for thirty days [1].")
    assert unsupported_sentences(answer, {1: passage}) == ["The gateway stores each request in a database for thirty days"]


def test_a_quoted_code_line_with_a_spaced_full_stop_is_one_sentence_and_stays_supported():
    """PDF code listings are extracted with spaced tokens (``pm . PDF2TextParser ()``): a
    full stop standing alone is not a sentence end, or half the quote loses its marker."""
    quote = "1 >>> import papermage as pm 2 >>> parser = pm . PDF2TextParser () 3 >>> doc = parser . parse (...)"
    rw = MarkerRewriter(_evidence(quote))
    answer = _stream(rw, f"- {quote} [1]\n- Then it runs PDF2ImageRasterizer to update the Document. [1]", 7)
    assert split_sentences(answer)[0] == f"{quote} [1]"
    assert unsupported_sentences(answer, cited_texts(rw)) == ["Then it runs PDF2ImageRasterizer to update the Document."]


def test_language_directive_follows_the_question():
    assert language_directive("¿Cómo registro un blueprint en la aplicación?") == "Answer in Spanish."
    assert language_directive("Comment est-ce que je configure les tests ?") == "Answer in French."
    assert language_directive("Wie kann ich die Konfiguration laden?") == "Answer in German."
    assert language_directive("How do I register a blueprint?") == "Answer in English."
    assert detect_language("register_blueprint") is None
    assert language_directive("???") == "Answer in the language of the question."


def test_a_quoted_first_sentence_and_its_sequel_each_carry_the_marker_and_neither_is_flagged():
    from athena_lab.agent.extractive import Candidate, render
    from athena_lab.agent.passages import Sentence

    first = Sentence("The WSGIMiddleware of fastapi.middleware.wsgi is now deprecated.", 1,
                     sequel="It's advised to use the a2wsgi package instead.")
    reply = render([Candidate(1, 0, first, 1.0)])
    assert reply.text == ("- The WSGIMiddleware of fastapi.middleware.wsgi is now deprecated. [1] "
                          "It's advised to use the a2wsgi package instead. [1]")
    source = {1: "The WSGIMiddleware of fastapi.middleware.wsgi is now deprecated. "
                 "It's advised to use the a2wsgi package instead."}
    assert unsupported_sentences(reply.text, source) == []


def test_an_author_line_read_as_a_heading_is_never_offered_as_an_example_question():
    from athena_lab.agent.prompts import example_question

    assert example_question("Attention Is All You Need > Illia Polosukhin∗ ‡") is None
    assert example_question("Attention Is All You Need > Google Brain avaswani@google.com") is None
    assert example_question("Paper > Noam Shazeer† Niki Parmar") is None
    assert example_question("Flask > Debug Mode") == "Tell me about Debug Mode"
    assert example_question("Guide > How do I debug an app?") == "How do I debug an app?"


def test_example_questions_of_a_paper_ask_about_its_sections_never_its_authors(tmp_path):
    """Issue 31: a folder holding the Attention paper offered only "Tell me about Illia
    Polosukhin" (an author line above the abstract, read as a heading): a people search the
    folder does not answer. Its sections are what it answers."""
    import shutil

    from athena_lab.workspace import Workspace
    from corpus_files import CORPORA

    shutil.copy(CORPORA / "pdfs" / "paper_attention_1706.03762.pdf", tmp_path / "attention.pdf")
    ws = Workspace(tmp_path, overrides={"embedding.provider": "none"})
    try:
        ws.index()
        questions = ws.example_questions()
        assert len(questions) == 4, questions  # one file, still four questions
        assert not any(name in q for q in questions for name in ("Polosukhin", "Vaswani", "Shazeer", "Kaiser"))
        assert "Tell me about Scaled Dot-Product Attention" in questions  # numbers ("3.2.1") left out
        for question in questions:
            assert ws.ask(question).citations, question  # a click always gets a cited answer
    finally:
        ws.close()


def test_a_heading_its_text_never_mentions_is_no_example_question():
    from athena_lab.agent.prompts import example_question

    abstract = ("illia.polosukhin@gmail.com\n\nAbstract\n\nThe dominant sequence transduction models are "
                "based on complex recurrent or convolutional neural networks.")
    assert example_question("Attention Is All You Need > Illia Polosukhin", abstract) is None
    debug = "Debug mode shows an interactive debugger in the browser when a request fails."
    assert example_question("Quickstart > Debug Mode", debug) == "Tell me about Debug Mode"
    assert example_question("Paper > 1 Introduction", "Recurrent neural networks, long short-term memory, are used.") is None


def test_every_sentence_of_a_closest_passage_quote_carries_its_marker_and_none_is_flagged():
    from athena_lab.agent.extractive import Candidate, closest_passage
    from athena_lab.agent.passages import Sentence

    paragraph = ["PR 10132 fixed typos in the French translations of the tutorial pages.",
                 "Portuguese translations were added for the history and design pages.",
                 "German translations of the deployment pages followed later that year."]
    best = Sentence(paragraph[1], 2, paragraph=paragraph)
    reply = closest_passage(Candidate(4, 0, best, 0.3))
    assert unsupported_sentences(reply.text, {4: " ".join(paragraph)}) == []


def test_author_affiliation_and_email_lines_are_never_quoted_as_an_answer():
    from athena_lab.agent.citations import EvidenceItem
    from athena_lab.agent.extractive import extractive_answer

    chunk = ("Ashish Vaswani∗ Google Brain avaswani@google.com Noam Shazeer∗ Google Brain noam@google.com\n\n"
             "Illia Polosukhin∗ ‡ illia.polosukhin@gmail.com\n\n"
             "The Transformer is the first transduction model relying entirely on self-attention.")
    def favours_authors(question, texts):  # an embedder that scores the author lines highest
        return [0.9 if "@" in t or "∗" in t else 0.5 for t in texts]

    reply = extractive_answer("Who wrote about the Transformer model and self-attention?",
                              [EvidenceItem(1, {"path": "attention.pdf"}, chunk)], favours_authors)
    assert "@" not in reply.text and "∗" not in reply.text
    assert "relying entirely on self-attention" in reply.text
