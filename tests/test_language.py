"""One language detector (athena_lab/language.py) for the answer directive and retrieval:
other scripts by their letters, Latin-script languages by their stop words, one tie rule."""

from __future__ import annotations

import pytest

from athena_lab.agent.prompts import language_directive
from athena_lab.language import detect_language, query_language

pytestmark = pytest.mark.unit

BY_SCRIPT = {
    "ru": ("Как зарегистрировать blueprint в приложении Flask?", "Russian"),
    "zh": ("如何在 Flask 应用中注册蓝图？", "Chinese"),
    "ar": ("كيف أسجل blueprint في تطبيق Flask؟", "Arabic"),
    "el": ("Πώς καταχωρώ ένα blueprint σε μια εφαρμογή Flask;", "Greek"),
    "uk": ("Як зареєструвати blueprint у застосунку Flask?", "Ukrainian"),
    "ja": ("Flaskアプリでブループリントを登録するにはどうすればいいですか？", "Japanese"),
    "ko": ("Flask 앱에서 블루프린트를 어떻게 등록하나요?", "Korean"),
    "he": ("איך רושמים blueprint באפליקציית Flask?", "Hebrew"),
    "hi": ("मैं Flask ऐप में blueprint कैसे रजिस्टर करूँ?", "Hindi"),
    "th": ("ฉันจะลงทะเบียน blueprint ในแอป Flask ได้อย่างไร", "Thai"),
}


@pytest.mark.parametrize("code", sorted(BY_SCRIPT))
def test_a_question_in_another_script_is_that_language_for_retrieval_and_the_answer(code: str) -> None:
    question, name = BY_SCRIPT[code]
    assert detect_language(question) == query_language(question) == code
    assert language_directive(question) == f"Answer in {name}."


def test_a_few_letters_of_another_script_in_an_english_question_keep_it_english() -> None:
    for question in ("How do I compute Δt between two requests in a middleware?",
                     "Why does my route return π as 3.14 in the JSON response?",
                     "Where is the Русский translation of the tutorial?"):
        assert query_language(question) == "en", question
        assert language_directive(question) == "Answer in English."


def test_latin_languages_are_told_by_their_stop_words_and_letters() -> None:
    assert detect_language("¿Cómo registro un blueprint en la aplicación?") == "es"
    assert detect_language("Wie kann ich die Konfiguration laden?") == "de"
    assert detect_language("Como faço para registrar um blueprint na aplicação?") == "pt"
    assert detect_language("Come posso registrare un blueprint nella applicazione?") == "it"
    # a tie between French and Spanish stop words: "après" has a letter Spanish does not use
    assert detect_language("Comment envoyer un e-mail de notification après avoir renvoyé la réponse ?") == "fr"


def test_one_tie_rule_english_wins_ties_and_no_sign_is_undecided() -> None:
    # the retrieval side and the directive read the same answer from detect_language
    assert detect_language("How do I register a blueprint?") == "en"
    assert detect_language("the blueprint de Flask") == "en"  # one sign each: English wins the tie
    assert detect_language("the blueprint de la app") == "es"  # two Spanish signs beat one English
    assert detect_language("der Blueprint") is None  # one German sign, no English: undecided
    assert detect_language("register_blueprint") is None and query_language("register_blueprint") == "en"
    assert language_directive("register_blueprint") == "Answer in the language of the question."
    assert detect_language("???") is None and language_directive("???") == "Answer in the language of the question."
