"""Reference-list passages are told apart inside the Tantivy query, not after it: BM25
ranks them among themselves when the question is who cites something; and who-cites
questions are read in the forms people ask them."""

from __future__ import annotations

from pathlib import Path

import pytest

from athena_lab.index.lexical import LexicalIndex
from athena_lab.search.cites import citing_subject

pytestmark = pytest.mark.unit


def _archive(tmp_path: Path) -> LexicalIndex:
    lexical = LexicalIndex(tmp_path / "tantivy")
    for n in range(40):  # papers whose own text is about Paxos, many times over
        lexical.add_chunk(chunk_id=f"body{n}", path=f"p{n}.pdf", doc_kind="pdf", cite_kind="pdf",
                          title=f"Paper {n}", heading="Consensus",
                          text="Paxos chooses a value. Paxos proposers and Paxos acceptors. " * 3)
    entries = ["[3] J. Gray. Notes on data base operating systems. 1978.",
               "[4] L. Lamport. The part-time parliament. Paxos. ACM TOCS, 1998. "
               "[5] B. Liskov. Viewstamped replication. [6] M. Burrows. Chubby. OSDI 2006.",
               "[7] F. Chang et al. Bigtable: a distributed storage system. OSDI 2006."]
    for n, text in enumerate(entries):
        lexical.add_chunk(chunk_id=f"ref{n}", path=f"p{n}.pdf", doc_kind="pdf", cite_kind="pdf",
                          title=f"Paper {n}", heading="References", text=text, reference=True)
    lexical.commit()
    return lexical


def test_who_cites_ranks_the_reference_lists_among_themselves(tmp_path: Path) -> None:
    lexical = _archive(tmp_path)
    whole = [h.chunk_id for h in lexical.search("Paxos", 10)]
    assert "ref1" not in whole  # ranked over the whole archive, the entry sits below 40 papers
    only = [h.chunk_id for h in lexical.search("Paxos", 10, only_references=True)]
    assert only == ["ref1"]
    cited = [h.chunk_id for h in lexical.search_identifiers(["osdi"], 10, only_references=True)]
    assert set(cited) <= {"ref1", "ref2"}


@pytest.mark.parametrize("question, subject", [
    ("Which papers cite Lamport's Paxos?", "Lamport's Paxos"),
    ("who cites the Dynamo paper", "Dynamo"),
    ("references to MapReduce", "MapReduce"),
    ("papers referencing Bayou", "Bayou"),  # the participle
    ("Do any of my papers cite Kademlia?", "Kademlia"),  # asked of the folder
    ("what in my library cites Paxos?", "Paxos"),
    ("Which papers in the archive cite Raft?", "Raft"),
    ("Which FRP papers cite Fran?", "Fran"),  # a kind of paper named before the noun
    ("Has anyone in my papers referenced Spanner?", "Spanner"),
    ("Find citations of the Bitcoin whitepaper", "Bitcoin whitepaper"),
    ("Could you please list the papers in my Zotero library that cite MapReduce?", "MapReduce"),
    ("whose reference lists include Cook 1971", "Cook 1971"),
    ("Where is Raft cited?", "Raft"),  # the passive
    ("Is Chubby cited anywhere?", "Chubby"),
    ("Knuth's The Art of Computer Programming: which papers cite it?", "Knuth's The Art of Computer Programming"),
    ("Which papers have the Bloom filter paper in their references?", "Bloom filter"),
    ("bibliographies that mention Bloom filters", "Bloom filters"),
])
def test_who_cites_questions_are_read_in_the_forms_people_ask_them(question: str, subject: str) -> None:
    assert citing_subject(question) == subject


@pytest.mark.parametrize("question", [
    "which papers discuss Byzantine fault tolerance",
    "What does the archive say about layer normalization?",
    "what is a reference counting collector?",
    "How do I reference a cell in a notebook?",
    "Which functions reference the config object?",
    "what references are there on Paxos?",  # the literature on a subject: no cited work named
    "Which papers cite it?",
    "list the references of the Dynamo paper",  # the Dynamo paper's own bibliography
    "What does the Bigtable paper cite for its SSTable format?",
    "show me the reference implementation of Paxos",
    "Where is the config file referenced in the docs?",
    "who cited the most papers",
    "A position paper on writing aids cites how often patients spot a mistake. What is the figure?",
])
def test_questions_about_content_are_no_who_cites_questions(question: str) -> None:
    assert citing_subject(question) is None


def test_a_page_of_pasted_text_is_no_who_cites_question_and_space_runs_are_one_space() -> None:
    # runs of spaces made the forms backtrack (60 s for 20,000 characters before); whitespace
    # is collapsed first, and a page is no question naming a cited work
    assert citing_subject("which papers cite x" + " " * 20000 + "y") == "x y"
    assert citing_subject("is a" + " " * 20000 + "b cited") == "a b"
    assert citing_subject("which papers cite " + "word " * 200) is None
    assert citing_subject("which papers   cite\n Paxos?") == "Paxos"
