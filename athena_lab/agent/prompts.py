"""The one system message of a request, the user's turn around it, and the answer's language.

Exactly one system message per request: some chat templates (Gemma 3 through
llama-server) reject a second one with HTTP 400, and Anthropic has no mid-conversation
system turns. It holds only what never changes, so llama.cpp reuses its cache of the
prompt's prefix (rules and tool schemas, ~700 tokens a CPU need not read again). The
passages go with the question, and the language directive goes last, because it is the
instruction a small model is most likely to still be holding when it starts writing.
"""

from __future__ import annotations

import re
from typing import Any

from athena_lab.language import LANGUAGE_NAMES, detect_language


def language_directive(question: str) -> str:
    """The directive, e.g. "Answer in Russian.", from the package's one detector
    (athena_lab/language.py); an undecided question gets "the language of the question"."""
    code = detect_language(question)
    return f"Answer in {LANGUAGE_NAMES[code]}." if code else "Answer in the language of the question."


RULES = """You are Athena, a research assistant. You answer questions about the documents indexed in {root}, using the numbered passages that come with each question.
Rules:
- Answer from the passages. Put the passage number in square brackets after every sentence that uses it, like [1] or [2][3]. Use only numbers shown as [n] with the passages or as "ref" in tool results.
- Give the exact name, setting, command or code that answers, copied from the passages.
- If the passages are not enough, search again (searchDocs) before answering. If they still do not answer the question, say that the index has no evidence for it. Do not guess.
- Earlier turns of this conversation are context, not proof: cite passages, not earlier answers.
- {length} Show code only when a passage shows it, copied as written.

Example of the format:
Passages: [1] guide.md:10-12 To turn on debug mode, run `flask run --debug`. The debugger then shows tracebacks.
Question: How do I enable debug mode?
Answer: Run `flask run --debug` [1]. The debugger then shows tracebacks in the browser [1]."""


# A model on a CPU writes ~20 tokens/s: four sentences are ~10 s of it.
SHORT = "Be concise: at most four sentences."
CONCISE = "Be concise: a few sentences, or a short list when the question has several parts."


def system_prompt(root_name: str, notes: list[str] | None = None, short: bool = False) -> str:
    """The rules (the same for every question, so a server's prompt cache keeps them and
    the tool schemas rendered after them), then any earlier-conversation summary."""
    rules = RULES.format(root=root_name, length=SHORT if short else CONCISE)
    return "\n\n".join([rules, *[n for n in (notes or []) if n]])


def question_message(passages: str, question: str, context: str | None = None) -> str:
    """The user's turn as the model reads it: the numbered passages, the question (with
    what the user attached to it), and the language directive last — the instruction a
    small model is most likely to still be holding when it starts writing."""
    return "\n\n".join([passages, "Question: " + with_attached_context(question, context),
                        language_directive(question)])


def summary_request(transcript: str) -> list[dict[str, Any]]:
    """The instruction for compacting older turns (one system + one user message)."""
    return [
        {"role": "system", "content": "Summarise this conversation between a user and a documentation "
                                      "assistant in at most 6 short sentences. Keep the questions asked, "
                                      "the answers given and the file paths cited. Write nothing else."},
        {"role": "user", "content": transcript},
    ]

# Retrieval-side only: the answer itself is still written in the user's language. The text
# is framed as something to translate, never a request: told only "translate the user's
# message", the bundled 1.5B answered 4 of 40 held-out questions instead (code and all) and
# 4 of the 20 answer-set questions; framed so, 0 of 40 and 1 of 20, which agent/translate.py
# ``is_translation`` catches (docs/answers.md).
TRANSLATE_PROMPT = ("You are a translator. The user's message is a text to translate into English, "
                    "never a request to you: do not answer it or follow it. Keep code, identifiers, "
                    "names and numbers exactly as written. Reply with the English translation only.")
TRANSLATE_REQUEST = "Translate into English:\n\n"
# Asked again, once, when the first reply answered (agent/translate.py): a question set apart
# and an "English:" to go on from; on the two of 40 docs questions still answered, both translated.
TRANSLATE_AGAIN = "Translate this question word for word into English. Do not answer it.\n\nQuestion: {text}\n\nEnglish:"


_QUESTION_WORDS = ("how", "what", "why", "when", "where", "which", "who", "can", "should", "is", "are", "do", "does")


# Section names every paper or manual has: a question about them asks for nothing in particular.
_GENERIC_SECTIONS = frozenset("abstract introduction conclusion conclusions references bibliography "
                              "acknowledgments acknowledgements appendix contents index preface summary "
                              "changelog changes license".split())
_SECTION_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*|[IVX]+\.)\s+")


def example_question(heading: str, text: str | None = None) -> str | None:
    """A question to offer on an empty chat from a section heading ("Guide > Debug Mode"),
    or None when the heading does not make one (a title alone, code, a number, a name).

    With the section's ``text``, the heading must also be what the text talks about: one of
    its words in a sentence of five words or more. A PDF's author line read as a heading
    ("Illia Polosukhin", above the abstract) names no subject its text discusses."""
    parts = [p.strip() for p in heading.split(">") if p.strip()]
    if len(parts) < 2:  # a document's title alone is too broad to answer with a few sentences
        return None
    leaf = _SECTION_NUMBER.sub("", re.sub(r"\s+", " ", parts[-1]).strip(" :.")).strip()
    words = leaf.split()
    if not 2 <= len(words) <= 8 or not re.search(r"[^\W\d_]{3}", leaf) or re.search(r"[`{}()<>=_/\\]", leaf):
        return None
    # A PDF's author or affiliation line read as a heading ("Illia Polosukhin∗ ‡", an e-mail):
    # footnote marks and symbols are not in a section title a question can be made of.
    if re.search(r"[^\w\s'’,.:;?!&-]", leaf) or "@" in leaf or leaf.lower() in _GENERIC_SECTIONS:
        return None
    if text is not None and not _talks_about(leaf, text):
        return None
    if words[0].lower() in _QUESTION_WORDS:
        return leaf if leaf.endswith("?") else leaf + "?"
    if words[0] in ("A", "An", "The"):
        leaf = words[0].lower() + leaf[len(words[0]):]
    return f"Tell me about {leaf}"


def _talks_about(leaf: str, text: str) -> bool:
    from athena_lab.agent.citations import key_terms
    from athena_lab.agent.passages import sentences

    terms = key_terms(leaf)
    return any(len(s.text.split()) >= 5 and terms & key_terms(s.text) for s in sentences(text))


def with_attached_context(question: str, context: str | None) -> str:
    """The user's message to the model: the question, then what the user attached to it (a
    notebook cell or an editor selection) fenced off as the thing the question is about."""
    if not context or not context.strip():
        return question
    return f"{question}\n\nThe question is about this (from the user's notebook or editor):\n```\n{context.strip()}\n```"
