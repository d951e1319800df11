"""Issue 21: two sources in one answer never read the same in a source list."""

from __future__ import annotations

import pytest

from athena_lab.citations.labels import distinct_labels, labelled

pytestmark = pytest.mark.unit


def _pdf(n: int, pages: list[int], quote_page: int) -> dict:
    return labelled({"id": n, "kind": "pdf", "path": "papers/typewriter.pdf", "page": pages[0], "pages": pages,
                     "heading_path": "History",
                     "evidence": [{"page": quote_page, "regions": [{"page": quote_page}]}]})


def test_two_passages_quoted_on_one_page_name_the_pages_each_passage_spans():
    cites = distinct_labels([_pdf(1, [3], 3), _pdf(2, [3, 4], 3)])
    assert [c["label"] for c in cites] == ["papers/typewriter.pdf p. 3 (passage 1 of 2)",
                                           "papers/typewriter.pdf p. 3 (passage 2 of 2)"]


def test_two_quotes_narrowed_to_the_same_lines_name_their_passages_lines():
    def text(n: int, start: int, end: int) -> dict:
        return labelled({"id": n, "kind": "text", "path": "docs/config.rst", "start_line": start, "end_line": end,
                         "evidence": [{"start_line": 517, "end_line": 519}]})

    cites = distinct_labels([text(1, 500, 520), text(2, 510, 540)])
    assert [c["label"] for c in cites] == ["docs/config.rst:517\u2013519 (passage in lines 500\u2013520)",
                                           "docs/config.rst:517\u2013519 (passage in lines 510\u2013540)"]


def test_labels_that_already_differ_are_left_alone_and_relabelling_is_idempotent():
    a = labelled({"id": 1, "kind": "text", "path": "a.md", "start_line": 1, "end_line": 4})
    b = labelled({"id": 2, "kind": "text", "path": "a.md", "start_line": 9, "end_line": 12})
    assert [c["label"] for c in distinct_labels([a, b])] == ["a.md:1\u20134", "a.md:9\u201312"]
    twice = distinct_labels(distinct_labels([_pdf(1, [3], 3), _pdf(2, [3], 3)]))
    assert twice[1]["label"] == "papers/typewriter.pdf p. 3 (passage 2 of 2)"
