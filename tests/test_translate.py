"""A model's reply to "translate this question" is searched only when it is a translation:
the replies below are the bundled Qwen2.5-Coder-1.5B's, at temperature 0, to questions of
the bench's sets (docs/answers.md)."""

from __future__ import annotations

import pytest

from athena_lab.agent.translate import is_translation

pytestmark = pytest.mark.unit

TRANSLATIONS = [
    ("Quero expor exatamente os mesmos endpoints em /api/v1 e em /api/atual sem duplicar código. Dá para fazer?",
     "I want to expose exactly the same endpoints in `/api/v1` and `/api/atual` without duplicating code. "
     "Can you do that?"),
    ("Wie zeige ich Meldungen mit Kategorien an, zum Beispiel Fehler mit rotem Hintergrund?",
     "How do I display messages with categories, such as errors with a red background?"),
    ("Как вернуть код 201 из эндпоинта FastAPI, если запись создана?",
     "How to return code 201 from an endpoint in FastAPI if the record is created?"),
    ("Na tabela do documento de exemplo exportado do Google Docs, qual é a população indicada para a Áustria",
     "In the table of the example document exported from Google Docs, what is the population indicated for Austria"),
]

ANSWERS = [
    ("Geht das auch mit Templates?", "Yes, it is possible to use templates."),
    ("Quero expor exatamente os mesmos endpoints em /api/v1 e em /api/atual sem duplicar código. Dá para fazer?",
     "Yes, it is possible to expose the same endpoints in `/api/v1` and `/api/atual` without duplicating code."),
    ("Как вернуть код 201 из эндпоинта FastAPI, если запись создана?",
     "To return code 201 from an endpoint in FastAPI when a record is created, you can use the `HTTPStatus` "
     "class from the `fastapi.status` module. Here's an example: ```python from fastapi import FastAPI, status"),
    ("Des capteurs IoT nous envoient leur JSON compressé dans le corps des requêtes POST",
     "To receive the JSON data already decompressed in the body of POST requests, you can modify the endpoint "
     "functions to handle the decompression process. Here's an example of how you can achieve this: first read "
     "the body, then decompress it with zlib, then parse it with json.loads and hand it on to the function."),
]


@pytest.mark.parametrize(("question", "reply"), TRANSLATIONS)
def test_a_reply_that_translates_the_question_is_searched(question: str, reply: str) -> None:
    assert is_translation(question, reply)


@pytest.mark.parametrize(("question", "reply"), ANSWERS)
def test_a_reply_that_answers_the_question_is_not_taken_for_its_translation(question: str, reply: str) -> None:
    assert not is_translation(question, reply)
