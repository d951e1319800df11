"""`athena papers`: the archive paper by paper — list, filter, ask which papers discuss
something, and export the chosen papers' citations (the paper filters, ``--collection``,
``--tag``, ``--author``, ``--year`` and ``--paper``, are cli_common.py's: `athena search` and
`athena ask` take them too). A thin skin over ``Workspace.papers`` / ``papers_about`` / ``cite``.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from athena_lab.cli_common import open_workspace, paper_filters, paper_flags, print_json

SORTS = ("title", "author", "year", "pages")


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("papers", parents=[common],
                       help="the papers (Zotero items and PDFs): list, filter, which discuss X, BibTeX")
    paper_flags(p)
    p.add_argument("--sort", choices=SORTS, default="title", help="list order (default: title)")
    p.add_argument("--desc", action="store_true", help="reverse the order (newest or longest first)")
    p.add_argument("--about", metavar="QUESTION",
                   help="which papers discuss this: the top papers, each with its best passage and page")
    p.add_argument("-k", type=int, default=5, help="with --about: how many papers (default 5)")
    p.add_argument("--cite", choices=("bibtex", "ris", "csl-json"),
                   help="print the chosen papers' citations in this format instead of the list")
    command("papers")(cmd_papers)


def cmd_papers(args: argparse.Namespace) -> int:
    from athena_lab.citations.bibliography import render

    ws = open_workspace(args)
    filters = paper_filters(args)
    if args.about:
        hits = ws.papers_about(args.about, k=args.k, **filters)
        if args.json:
            print_json(hits)
        elif not hits:
            print(f"no paper discusses {args.about!r}" + (" among the chosen papers" if filters else ""))
        for n, hit in enumerate(hits if not args.json else [], 1):
            paper, best = hit["paper"], hit["best"]
            title = paper.get("title") or paper["paths"][0]
            print(f"{n:>2}. {paper['label']}" + (f": {title}" if title != paper["label"] else ""))
            where = f"p. {best['page']}" if best.get("page") else best["label"]
            print(f"    {hit['passages']} passage(s); best, {where}: {best['snippet']}")
        return 0
    papers = ws.papers(sort=args.sort, descending=args.desc, **filters)
    if args.cite:
        print(render(ws.cite([p["id"] for p in papers]), args.cite), end="")
        return 0
    if args.json:
        print_json({"papers": papers, **ws.paper_facets()})
        return 0
    if not papers:
        print("no papers" + (" match these filters" if filters else " in this index (PDFs and Zotero items)"))
        return 0
    warned = sum(1 for p in papers if p["warnings"])
    print(f"{len(papers)} paper(s)" + (f", {warned} with warnings" if warned else ""))
    for paper in papers:
        pages = f"{paper['pages']} pp." if paper.get("pages") else "–"
        origin = {"zotero": "Zotero", "bibtex": "BibTeX file", "pdf": "from its first page",
                  "none": "no record"}[paper["record"]]
        print(f"  {paper['label']}  ({pages}; record: {origin})  [{paper['id']}]")
        if paper.get("title"):
            print(f"      {paper['title']}")
        if paper["collections"] or paper["tags"]:
            print("      " + "; ".join(filter(None, ["collections: " + ", ".join(paper["collections"])
                                                     if paper["collections"] else "",
                                                     "tags: " + ", ".join(paper["tags"]) if paper["tags"] else ""])))
        for warning in paper["warnings"]:
            print(f"      warning: {warning}")
    return 0

