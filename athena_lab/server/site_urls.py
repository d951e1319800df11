"""Citations → the docs site's own pages, from the user's ``[dropin] site_url_map``.

A docs site that embeds the drop-in wants its readers sent to its published pages,
not to a raw source viewer. The user's config maps folder-path globs to URL templates::

    [dropin.site_url_map]
    "fastapi/docs/en/docs/**.md" = "https://fastapi.example/{path}"
    "handbook/**.rst" = "https://git.example/handbook/blob/main/{file}#L{line}"

The rule, for a citation whose ``path`` matches a glob (the first match in file order wins):

- the glob's literal prefix (every segment before the first one holding ``*``, ``?`` or
  ``[``) is stripped: ``fastapi/docs/en/docs/tutorial/index.md`` → ``tutorial/index.md``;
- ``{file}`` is that rest as is; ``{path}`` drops its extension and a final ``index``
  (``tutorial/index.md`` → ``tutorial/``, ``tutorial/body.md`` → ``tutorial/body``), the
  way MkDocs, Sphinx (dirhtml) and Hugo publish pages;
- ``{line}`` is the first cited line and ``{page}`` the PDF page; a template that uses one
  the citation lacks (a notebook has no line) is skipped for that citation, so no URL
  ends in ``#L``;
- no heading anchor is guessed: every site generator slugs headings its own way, and a
  wrong ``#anchor`` is worse than the page's top.

Only ``http(s)`` results are used. Each path part is percent-encoded, so a file name cannot
add a query or change the host. The server adds the result as the citation's ``url``
(``with_site_urls``); front ends link to it, or open their own viewer when there is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping
from urllib.parse import quote, urlsplit

from athena_lab import events

_WILDCARD = re.compile(r"[*?\[]")
_FIELDS = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class SiteRule:
    glob: str
    template: str
    prefix: str  # the literal folder part the glob starts with, stripped from paths
    pattern: re.Pattern[str]


def glob_regex(glob: str) -> re.Pattern[str]:
    """``**`` crosses folders, ``*`` and ``?`` stay inside one: ``docs/**.md`` matches
    ``docs/a/b.md``; ``docs/*.md`` only ``docs/b.md``."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def compile_rules(mapping: Mapping[str, str]) -> list[SiteRule]:
    rules = []
    for glob, template in mapping.items():
        glob = glob.strip().removeprefix("./")
        parts = glob.split("/")
        literal = []
        for part in parts[:-1]:
            if _WILDCARD.search(part):
                break
            literal.append(part)
        prefix = "/".join(literal) + "/" if literal else ""
        rules.append(SiteRule(glob, template, prefix, glob_regex(glob)))
    return rules


def _page_path(rest: str) -> str:
    """``tutorial/body.md`` → ``tutorial/body``; ``tutorial/index.md`` → ``tutorial/``."""
    folder, _, name = rest.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    if stem == "index":
        return f"{folder}/" if folder else ""
    return f"{folder}/{stem}" if folder else stem


def site_url(citation: Mapping[str, Any], rules: Iterable[SiteRule]) -> str | None:
    """The docs-site URL for ``citation``, or None when no rule gives a usable one."""
    path = str(citation.get("path") or "")
    for rule in rules:
        if not rule.pattern.match(path):
            continue
        rest = path[len(rule.prefix):]
        values = {"path": quote(_page_path(rest)), "file": quote(rest),
                  "line": citation.get("start_line"), "page": citation.get("page")}
        wanted = _FIELDS.findall(rule.template)
        if any(values.get(name) is None for name in wanted):
            return None  # e.g. {line} for a notebook cell: no half-made anchor
        url = _FIELDS.sub(lambda m: str(values[m.group(1)]), rule.template)
        return url if urlsplit(url).scheme in ("http", "https") else None
    return None


def with_site_urls(citations: list[dict[str, Any]], rules: list[SiteRule]) -> list[dict[str, Any]]:
    """Copies of ``citations``, each with ``url`` where a rule maps it (the stored answer is
    left as it was: the map may change, the citation's source does not)."""
    if not rules:
        return citations
    out = []
    for citation in citations:
        url = site_url(citation, rules)
        out.append({**citation, "url": url} if url else citation)
    return out


def event_with_site_urls(event: events.Event, rules: list[SiteRule]) -> events.Event:
    """The ``citations`` event of a chat stream with URLs added; other events unchanged."""
    if event.type != "citations" or not rules:
        return event
    return events.Event("citations", {**event.data,
                                      "citations": with_site_urls(list(event.data.get("citations") or []), rules)})
