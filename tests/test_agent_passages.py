"""Extractive answers that answer (issue 12 §2): sentences by meaning, the code a sentence
introduces quoted verbatim, include and directive lines never quoted, notebook code kept
as code, and the closest passage rather than a wrong "no evidence"."""

from __future__ import annotations

import pytest

from athena_lab.agent.citations import EvidenceItem
from athena_lab.agent.extractive import CLOSEST, NO_EVIDENCE, embedder_similarity, extractive_answer
from athena_lab.agent.passages import blocks, sentences

pytestmark = pytest.mark.unit

FASTAPI_CHUNK = """Use the `lifespan` parameter of the app to run code once at startup and shutdown.

You can define it with an async context manager like this:

{* ../../docs_src/events/tutorial003_py39.py hl[16,19] *}

```python
@asynccontextmanager
async def lifespan(app: FastAPI):
    ml_models["answer"] = load_model()
    yield
    ml_models.clear()
```

The code before the `yield` runs before the application starts taking requests."""

RST_CHUNK = """.. toctree::
   :maxdepth: 2

   intro

.. data:: SECRET_KEY_FALLBACKS

   A list of old secret keys that can still be used for unsigning, so keys can be rotated.

.. code-block:: python

   app.config["SECRET_KEY_FALLBACKS"] = ["old"]
"""

NOTEBOOK_CHUNK = "Smoothing the series\n\nimport pandas as pd\nframe = pd.read_csv(path)\nframe.rolling(7).median()"


def by_words(answers: dict[str, float]):
    """A stand-in embedder similarity: a fixed score for sentences containing a word."""
    def similarity(question: str, texts: list[str]) -> list[float]:
        return [max([v for k, v in answers.items() if k in t], default=0.0) for t in texts]
    return similarity


def test_include_and_directive_lines_are_never_quoted():
    text = " ".join(s.text for s in sentences(FASTAPI_CHUNK + "\n\n" + RST_CHUNK))
    assert "docs_src" not in text and "toctree" not in text and "maxdepth" not in text
    assert "SECRET_KEY_FALLBACKS: A list of old secret keys" in text  # an API entry keeps its name


def test_a_description_line_that_opens_with_a_role_is_quoted_not_taken_for_an_option():
    chunk = (".. confval:: numfig_format\n   :type: :code-py:`dict[str, str]`\n   :default: :code-py:`{}`\n\n"
             "   A dictionary mapping :code-py:`'figure'`, :code-py:`'table'`,\n"
             "   :code-py:`'code-block'` and :code-py:`'section'` to strings\n"
             "   that are used for format of figure numbers.\n")
    text = " ".join(s.text for s in sentences(chunk))
    assert ("numfig_format: A dictionary mapping 'figure', 'table', 'code-block' and 'section' to strings "
            "that are used for format of figure numbers.") in text
    assert "dict[str, str]" not in text  # the options are still left out


def test_a_sentence_that_introduces_code_brings_the_block_verbatim():
    evidence = [EvidenceItem(1, {"path": "events.md"}, FASTAPI_CHUNK)]
    reply = extractive_answer("how do I load a model at startup", evidence, by_words({"context manager": 0.8}))
    assert "- You can define it with an async context manager like this: [1]" in reply.text
    assert "```python\n@asynccontextmanager\nasync def lifespan(app: FastAPI):" in reply.text
    assert [q.text.splitlines()[0] for q in reply.quotes] == [
        "You can define it with an async context manager like this:", "@asynccontextmanager"]


def test_notebook_code_stays_a_code_block_not_a_bullet():
    kinds = [b.kind for b in blocks(NOTEBOOK_CHUNK)]
    assert kinds == ["prose", "code"]
    assert all("read_csv" not in s.text for s in sentences(NOTEBOOK_CHUNK))


def test_strong_hits_without_a_qualifying_sentence_show_the_closest_passage():
    evidence = [EvidenceItem(1, {"path": "events.md"}, FASTAPI_CHUNK)]
    reply = extractive_answer("¿cómo cargo un modelo al arrancar?", evidence, by_words({"startup": 0.3}))
    assert reply.text.startswith(CLOSEST) and "[1]" in reply.text
    from athena_lab.agent.support import unsupported_sentences

    # each quoted sentence carries its marker: a verbatim quote is never flagged
    assert unsupported_sentences(reply.text, {1: FASTAPI_CHUNK}) == []
    nothing = extractive_answer("¿cómo cargo un modelo al arrancar?", evidence, by_words({"startup": 0.1}))
    assert nothing.text == NO_EVIDENCE


def test_the_real_embedder_picks_a_sentence_asked_in_other_words():
    from athena_lab.config import load_config
    from athena_lab.index.embeddings import make_embedder

    embedder = make_embedder(load_config(".").settings.embedding)
    evidence = [EvidenceItem(1, {"path": "events.md"}, FASTAPI_CHUNK)]
    reply = extractive_answer("Where do I put code that must run when the server boots?", evidence,
                              embedder_similarity(embedder))
    assert "lifespan" in reply.text and reply.text.count("[1]") >= 1
