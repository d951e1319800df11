"""Whether a question leans on the one before it (agent/followup.py): a follow-up borrows
the previous question's words for its search, a question with its own subject does not —
in English, Spanish, French and German, written as people type them."""

from __future__ import annotations

import pytest

from athena_lab.agent.followup import leans_on_previous, read_question
from athena_lab.agent.memory import PastTurn, retrieval_query

pytestmark = pytest.mark.unit

BLUEPRINT = "How do I register a blueprint?"


@pytest.mark.parametrize("question", [
    "¿Cómo configuro la clave secreta?",  # the report: "la" is an article here
    "How do I set the secret key?",
    "Comment je configure la clé secrète ?",
    "Wie setze ich den geheimen Schlüssel?",  # "den geheimen Schlüssel": an article, then a noun
    "What is CSRF and how do I prevent it?",  # "it" points inside the question
    "My app crashes in production, how can I get it to email me the errors?",
    "Qu'est-ce que le CSRF et comment s'en protéger ?",
    "Was macht der HSTS-Header und wie schalte ich ihn ein?",
    "Is it possible to stream a template?",  # an "it" that points at nothing
    "Gibt es einen Decorator für Signale?",
])
def test_a_question_with_its_own_subject_stands_alone(question):
    assert not leans_on_previous(question, BLUEPRINT), read_question(question, BLUEPRINT)
    assert retrieval_query(question, [PastTurn(BLUEPRINT, "")]) == question


@pytest.mark.parametrize("previous, question", [
    (BLUEPRINT, "and how do I test it?"),
    (BLUEPRINT, "what about from inside a blueprint?"),
    ("¿Cómo organizo mi app en blueprints?", "¿y cómo lo registro en la aplicación?"),
    (BLUEPRINT, "¿Debería dejarlo activado en producción?"),  # a pronoun fused to the verb; ¿ says Spanish
    ("Comment découper mon app en blueprints ?", "et comment je l'enregistre dans l'app ?"),
    ("Comment ajouter un blueprint à la CLI ?", "Comment la tester ?"),
    ("Comment écrire une fixture pour un blueprint ?", "Et comment envoyer des données de formulaire avec ?"),
    ("Wie füge ich einem Blueprint einen Befehl hinzu?", "Wie teste ich den?"),
    ("Wie teile ich meine App in Blueprints auf?", "und wie registriere ich das in der App?"),
    ("Wie teile ich meine App in Blueprints auf?", "Warum?"),
])
def test_a_follow_up_leans_and_borrows_the_previous_questions_words(previous, question):
    assert leans_on_previous(question, previous), read_question(question, previous)
    assert "blueprint" in retrieval_query(question, [PastTurn(previous, "")]).lower()


def test_a_short_question_is_read_in_the_conversations_language():
    # "Il peut avoir son propre dossier ?" alone reads as Spanish; after a French question it is French
    reading = read_question("Il peut avoir son propre dossier de templates ?", "Comment créer un blueprint pour l'admin ?")
    assert reading.language == "fr" and reading.anaphor
