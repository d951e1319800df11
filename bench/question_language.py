"""How well athena tells a question's language, and how fast, beside detector libraries.

Every labelled question of bench/data (docs, answers, PDF and cross-lingual sets: en, es,
fr, de, pt, it) plus bench/data/script_questions.jsonl (Russian, Ukrainian, Chinese,
Japanese, Korean, Arabic, Persian, Greek, Hebrew, Hindi, Thai, and English questions that
quote a Greek letter), each once. A detector is right when it names the labelled language;
athena's undecided (None) counts as English, as retrieval reads it. ``langdetect`` and
``langid`` are measured when importable (not dependencies: install them elsewhere and put
them on PYTHONPATH); ``--compare FILE.py:function`` adds any other detector, e.g. an older
checkout's.

    python bench/question_language.py [--compare /tmp/old.py:query_language] [--out FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

from _common import REPO, context, emit, load_average

from athena_lab.language import detect_language

SETS = ["docs_questions.jsonl", "answer_questions.jsonl", "pdf_questions.jsonl", "crosslingual.jsonl",
        "script_questions.jsonl"]
ROUNDS = 5


def questions() -> list[tuple[str, str, str]]:
    """(set, question, language) for every labelled question, each text once."""
    seen: set[str] = set()
    out = []
    for name in SETS:
        for line in (REPO / "bench" / "data" / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("lang") and row["question"] not in seen:
                seen.add(row["question"])
                out.append((name.removesuffix(".jsonl"), row["question"], row["lang"]))
    return out


def detectors(compare: list[str]) -> dict[str, Callable[[str], str]]:
    found: dict[str, Callable[[str], str]] = {"athena": lambda q: detect_language(q) or "en"}
    try:
        import langdetect

        langdetect.DetectorFactory.seed = 0  # otherwise it answers differently run to run

        def by_langdetect(q: str) -> str:
            try:
                return langdetect.detect(q).split("-")[0]
            except langdetect.LangDetectException:
                return "?"

        found["langdetect"] = by_langdetect
    except ImportError:
        pass
    try:
        import langid

        found["langid"] = lambda q: langid.classify(q)[0]
    except ImportError:
        pass
    for spec in compare:
        path, _, name = spec.rpartition(":")
        module_spec = importlib.util.spec_from_file_location(f"compared_{len(found)}", path)
        if module_spec is None or module_spec.loader is None:
            raise SystemExit(f"--compare {spec}: cannot load {path}; expected FILE.py:function")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        function = getattr(module, name)
        found[f"{Path(path).stem}.{name}"] = lambda q, f=function: f(q) or "en"
    return found


def measure(detect: Callable[[str], str], rows: list[tuple[str, str, str]]) -> dict[str, Any]:
    detect(rows[0][1])  # load whatever it loads lazily
    per_set: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong: Counter[str] = Counter()
    times = []
    for kind, question, lang in rows:
        started = time.perf_counter()
        for _ in range(ROUNDS):
            got = detect(question)
        times.append((time.perf_counter() - started) / ROUNDS * 1e6)
        for bucket in (per_set[kind], per_lang[lang]):
            bucket[0] += got == lang
            bucket[1] += 1
        if got != lang:
            wrong[f"{lang}->{got}"] += 1
    right = sum(v[0] for v in per_lang.values())
    english = per_lang.get("en", [0, 0])
    return {
        "accuracy": round(right / len(rows), 4), "right": right, "questions": len(rows),
        "english_kept_english": f"{english[0]}/{english[1]}",
        "other_languages_right": f"{right - english[0]}/{len(rows) - english[1]}",
        "by_set": {k: f"{a}/{n}" for k, (a, n) in sorted(per_set.items())},
        "by_language": {k: f"{a}/{n}" for k, (a, n) in sorted(per_lang.items())},
        "confusions": dict(wrong.most_common(12)),
        "us_per_question_p50": round(statistics.median(times), 1),
        "us_per_question_max": round(max(times), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", action="append", default=[], help="FILE.py:function, another detector")
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = questions()
    result: dict[str, Any] = {**context(), "questions": len(rows),
                              "languages": dict(Counter(lang for _, _, lang in rows))}
    result["detectors"] = {name: measure(fn, rows) for name, fn in detectors(args.compare).items()}
    result["load_average_after"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
