"""What the locators of a local model's answers hold, its own sentences apart from the quotes under them.

`athena eval answers` counts a cited sentence as held when its locator contains it word
for word. The quotes under a local model's answer ("From the sources:") are copied, so
they are held or the locator is wrong; the model's own sentences paraphrase, so a
verbatim test says little about them. This reads the answers an eval run stored in an
index's conversations (the newest ``--last`` answers by a local model) and reports, for
each part, the share held word for word and the share whose locator holds at least half
of the sentence's content words — a test written here, apart from the product's own
support check (agent/citations.py), so it grades that check rather than repeating it.

    python bench/answer_parts.py --path $ATHENA_CORPORA/docs --index-dir /tmp/ans/doc-index --last 33
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from _common import context, emit

WORDS = re.compile(r"[^\W_]{3,}", re.UNICODE)
COMMON = set("the and for with that this from are was were you your can use used uses using into when then than "
             "also its their there which what how have has not but all any each other more most such only".split())


def content_words(text: str) -> set[str]:
    return {w.lower()[:6] for w in WORDS.findall(text) if w.lower() not in COMMON}


def parts(answer: str, lead: str) -> tuple[str, str]:
    own, _, quotes = answer.partition(lead)
    return own, quotes


def score(reader: Any, cites: dict[int, dict[str, Any]], text: str) -> tuple[int, int, int]:
    """(cited sentences, held word for word, half of their content words in the locator)."""
    from athena_lab.answer_eval import MARKER, cited_sentences, holds, sentence_locators

    cited = held = covered = 0
    for sentence, numbers in cited_sentences(text):  # the eval's own split, not the agent's
        cited += 1
        bare = MARKER.sub(" ", sentence).strip()
        words = content_words(bare)
        best_held, best_cover = False, 0.0
        for n in numbers:
            cite = cites.get(n)
            for where in sentence_locators(cite, sentence) if cite else []:
                try:
                    readings = reader.readings(cite, where)
                except (OSError, KeyError, IndexError, ValueError):
                    continue
                for located in readings:
                    best_held = best_held or holds(located, bare)
                    if words:
                        best_cover = max(best_cover, len(words & content_words(located)) / len(words))
        held += best_held
        covered += best_cover >= 0.5
    return cited, held, covered


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--path", required=True)
    ap.add_argument("--index-dir", required=True)
    ap.add_argument("--last", type=int, default=33)
    ap.add_argument("--out")
    args = ap.parse_args()
    from athena_lab.answer_eval import QUOTES_LEAD, LocatorText
    from athena_lab.workspace import Workspace

    ws = Workspace(args.path, args.index_dir)
    store = ws.conversations
    answers = []
    for item in store.list(limit=10_000):
        convo = store.get(item["id"]) or {}
        for m in convo.get("messages", []):
            if m.get("role") == "assistant" and str(m.get("mode", "")).startswith("local:"):
                answers.append(m)
    answers = answers[: args.last]  # the list is newest first
    reader = LocatorText(Path(args.path))
    totals = {"model": [0, 0, 0], "quotes": [0, 0, 0]}
    for m in answers:
        cites = {int(c["id"]): c for c in m.get("citations") or [] if c.get("id") is not None}
        # answers stored since the sources event keep the quotes apart; older ones after the lead
        own, quotes = (m["content"], m["sources"]) if m.get("sources") else parts(m.get("content") or "", QUOTES_LEAD)
        for name, text in zip(("model", "quotes"), (own, quotes)):
            for i, value in enumerate(score(reader, cites, text)):
                totals[name][i] += value
    ws.close()
    result = {**context(), "answers": len(answers)}
    for name, (cited, held, covered) in totals.items():
        result[name] = {"cited_sentences": cited, "held_word_for_word": round(held / max(1, cited), 3),
                        "locator_holds_half_its_words": round(covered / max(1, cited), 3)}
    emit(result, args.out)


if __name__ == "__main__":
    main()
