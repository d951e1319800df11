"""Maths and footnote marks inside a text line: scripts, fractions, radicals.

A PDF prints ``1/√dₖ`` as three pieces — a raised small "1", a fraction bar (a path, not
text) and a lowered "√dk" — and pdfium hands them over in drawing order, so a plain left
to right reading says "√ 1" on the line and puts "dk" on a line of its own, which also
cuts the sentence around it in two. Here the characters of a line are sorted into levels
(on the line, raised, lowered) by their size and their centre against the line's, and
written back as text a reader and a keyword search can use:

* a subscript is written straight after its base: ``dk``, ``dmodel``, ``W1`` — what the
  PDF's own copy-and-paste gives and what a user types (a search for "dk" finds it; the
  lexical tokenizer would keep "dₖ" as a word of its own that "dk" never matches);
* a superscript gets a caret, in brackets when longer than one character: ``QK^T``,
  ``10000^(2i/dmodel)`` — the caret splits the word for the tokenizer, so "QK" is found;
* a raised run over a lowered run with a fraction bar between is ``num/den``;
* a radical joins the level of its radicand, so it stays next to it;
* a footnote mark (raised digits or ∗†‡ after a word) is dropped from the sentence —
  "gradients⁴" would be one unsearchable word — and a line that opens with one (the
  footnote itself) keeps it as "4 To illustrate …" so the note still names its number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .extract import Char, median

Box = tuple[float, float, float, float]  # x0, y0, x1, y1, top-left origin

#: Below this share of the line's size a character is small enough to be a script.
SCRIPT_SIZE = 0.85
#: A small character's centre this far (× line size) above/below the line's is a script.
SCRIPT_SHIFT = 0.2
#: A full-size character this far off the line's centre is a numerator or denominator.
FAR_SHIFT = 0.5
#: A nominal font size under this is a unit font scaled by the text matrix, not a size.
MIN_FONT = 3.0
#: Further than this (× line size) from the line's centre is no script of it.
MAX_SHIFT = 0.9
_MARKS = frozenset("0123456789∗*†‡§¶")
_MARK = re.compile(r"^[0-9∗*†‡§¶♦♣♠♥]+(?:[,–-][0-9∗*†‡§¶♦♣♠♥]+)*\)?$")
_BRACKETED = re.compile(r"^[\[(].*[\])]$")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
_SEPARATED_NUMBER = re.compile(r"\d[.,]\d+$")
_CLOSERS = frozenset(".,;:)]")
_RADICALS = frozenset("√∛∜")


@dataclass
class _Item:
    """A piece of the composed line: one base character, or a script run, or a fraction."""

    x0: float
    chars: list[Char]
    kind: str  # base | sup | sub | frac | mark (dropped) | lead (a footnote's own mark) | plain
    den: list[Char] | None = None


def compose(chars: list[Char], rules: list[Box]) -> tuple[list[Char], bool]:
    """The line's characters with scripts, fractions and footnote marks written as text.

    ``chars`` is the line as read left to right (spaces included); ``rules`` are thin
    horizontal strokes on the page, the only sign of a fraction bar. Returns the new
    characters and whether the line opens with a footnote mark (a footnote's first line).
    """
    printed = [c for c in chars if c.text != " "]
    if len(printed) < 2 or _plain(printed):
        return chars, False
    size, centre, font = _reference(printed)
    levels = _levels(chars, size, centre, font)
    if not any(levels):
        return chars, False
    items = _items(chars, levels, rules, size)
    opens_note = False
    if items and items[0].kind == "sup" and _is_mark(items[0].chars) and len(items) > 1:
        items[0].kind = "lead"
        opens_note = True
    return _write(items, size), opens_note


def _plain(printed: list[Char]) -> bool:
    """Every character the same size and height: no script can be in the line (most
    lines of prose; this keeps them from the slower sorting below)."""
    sizes = [c.size for c in printed]
    big = max(sizes)
    if min(sizes) < SCRIPT_SIZE * big:
        return False
    mids = [c.y0 + c.y1 for c in printed]
    return (max(mids) - min(mids)) / 2 <= SCRIPT_SHIFT * big


def _mid(c: Char) -> float:
    return (c.y0 + c.y1) / 2


def _reference(printed: list[Char]) -> tuple[float, float, float]:
    """Size and centre of the text the scripts hang off: the largest ordinary characters
    (not the median — a short line of maths has more small characters than big ones),
    letters and digits only: symbol fonts give ∈, ∑ or √ boxes twice the text's height."""
    words = [c for c in printed if c.text.isalnum()] or printed
    sizes = sorted(c.size for c in words)
    top = sizes[min(len(sizes) - 1, int(0.9 * len(sizes)))]
    normal = [c for c in words if 0.85 * top <= c.size <= 1.2 * top] or words
    return (median([c.size for c in normal]), median([(c.y0 + c.y1) / 2 for c in normal]),
            median([c.font for c in normal]))


def _small(c: Char, size: float, font: float) -> bool:
    """Set smaller than the line: by its box and, when pdfium knows it, by its font size
    (some fonts give each glyph a box of its own height, so the box alone misleads). A
    font size under 3 pt is a 1 pt font scaled by the text matrix: not used."""
    if c.size >= SCRIPT_SIZE * size:
        return False
    trusted = min(font, c.font) >= MIN_FONT  # not a 1 pt font scaled by the text matrix
    return not trusted or c.font < SCRIPT_SIZE * font


def _levels(chars: list[Char], size: float, centre: float, font: float) -> list[int]:
    """+1 raised, -1 lowered, 0 on the line; spaces take 0 and are settled later."""
    out = []
    for c in chars:
        shift = (centre - (c.y0 + c.y1) / 2) / size  # against _mid(c)
        if c.text == " " or c.text in _RADICALS or abs(shift) > MAX_SHIFT:
            out.append(0)  # further away than a script ever sits: text of its own
        elif shift > FAR_SHIFT or (shift > SCRIPT_SHIFT and _small(c, size, font)):
            out.append(1)
        elif shift < -FAR_SHIFT or (shift < -SCRIPT_SHIFT and _small(c, size, font)):
            out.append(-1)
        else:
            out.append(0)
    if not any(out):
        return out  # nothing off the line: nothing to spread, and radicals sit at 0 too
    _spread(chars, out, size, font)
    _unreached(chars, out, size)
    for i, c in enumerate(chars):  # a radical sits at its radicand's level
        if c.text in _RADICALS:
            radicand = _radicand(chars, i)
            if radicand is not None:
                out[i] = out[radicand]
    return out


def _spread(chars: list[Char], levels: list[int], size: float, font: float) -> None:
    """A small character touching a script belongs to it: the "model" of an exponent's
    d_model sits lower than the d but is no base character between two exponent pieces."""
    order = sorted((i for i, c in enumerate(chars) if c.text != " "), key=lambda i: chars[i].x0)
    for b in order:  # left to right: a script runs on to the right
        c = chars[b]
        if levels[b] != 0 or c.text in _RADICALS or not _small(c, size, font):
            continue
        touching = [a for a in order if levels[a] != 0 and abs(c.x0 - chars[a].x1) < 0.15 * size
                    and min(c.y1, chars[a].y1) > max(c.y0, chars[a].y0)]
        if touching:
            levels[b] = levels[max(touching, key=lambda a: min(c.y1, chars[a].y1) - max(c.y0, chars[a].y0))]


def _unreached(chars: list[Char], levels: list[int], size: float) -> None:
    """A script hangs off the text next to it: small text standing apart on the row (a
    label in the margin beside a large line) is text of its own, not an exponent."""
    reach = 0.6 * size
    found = [i for i, c in enumerate(chars) if levels[i] == 0 and c.text != " "]
    pending = [i for i, lv in enumerate(levels) if lv != 0]
    while found and pending:
        edge = [(chars[i].x0, chars[i].x1) for i in found]
        found = [i for i in pending
                 if any(max(chars[i].x0 - b, a - chars[i].x1) < reach for a, b in edge)]
        pending = [i for i in pending if i not in found]
    for i in pending:
        levels[i] = 0


def _radicand(chars: list[Char], i: int) -> int | None:
    """The first character under the radical's bar: it starts at the sign's right edge
    and sits inside the sign's height (the numerator over it does not)."""
    sign = chars[i]
    near = [j for j, c in enumerate(chars) if j != i and c.text != " " and sign.x1 - 2 <= c.x0 <= sign.x1 + 3]
    if not near:
        return None
    return max(near, key=lambda j: min(sign.y1, chars[j].y1) - max(sign.y0, chars[j].y0))


def _items(chars: list[Char], levels: list[int], rules: list[Box], size: float) -> list[_Item]:
    """Base characters one by one; script characters in runs (same level, no base
    character or wide gap between them), a raised run over a lowered one with a bar
    between them paired as a fraction."""
    base = [(c, lv) for c, lv in zip(chars, levels) if lv == 0]
    items = [_Item(c.x0, [c], "base") for c, _ in base]  # kept in reading order
    base_x = sorted(c.x0 for c, _ in base if c.text != " ")
    runs: dict[int, list[list[Char]]] = {1: [], -1: []}
    for level in (1, -1):
        for c in sorted((c for c, lv in zip(chars, levels) if lv == level), key=lambda c: c.x0):
            group = runs[level]
            if group and c.x0 - group[-1][-1].x1 < 0.3 * size \
                    and not any(group[-1][-1].x1 - 0.5 <= x <= c.x0 - 0.5 for x in base_x):
                group[-1].append(c)
            else:
                group.append([c])
    downs = list(runs[-1])
    scripts: list[_Item] = []
    for up in runs[1]:
        down = next((d for d in downs if _bar_between(up, d, rules)), None)
        if down is not None:
            downs.remove(down)
            scripts.append(_Item(min(up[0].x0, down[0].x0), up, "frac", down))
        else:
            scripts.append(_Item(up[0].x0, up, "sup"))
    scripts.extend(_Item(d[0].x0, d, "sub") for d in downs)
    for item in sorted(scripts, key=lambda it: it.x0):
        # before the first base character (or space) that starts right of it
        at = next((i for i, it in enumerate(items) if it.kind == "base" and it.x0 >= item.x0 - 0.5), len(items))
        items.insert(at, item)
    _drop_covered_spaces(items)
    _mark_footnotes(items)
    return items


def _bar_between(up: list[Char], down: list[Char], rules: list[Box]) -> bool:
    ux0, ux1 = min(c.x0 for c in up), max(c.x1 for c in up)
    dx0, dx1 = min(c.x0 for c in down), max(c.x1 for c in down)
    if min(ux1, dx1) - max(ux0, dx0) <= 0:
        return False
    top = median([_mid(c) for c in up])
    bottom = median([_mid(c) for c in down])
    for x0, y0, x1, y1 in rules:
        if top < (y0 + y1) / 2 < bottom and min(x1, ux1) - max(x0, ux0) > 0.5 * (ux1 - ux0) \
                and min(x1, dx1) - max(x0, dx0) > 0.3 * (dx1 - dx0):
            return True
    return False


def _drop_covered_spaces(items: list[_Item]) -> None:
    """A space the extractor put where a fraction or script now sits (the gap a display
    formula leaves for its numerator) goes: the composed piece fills it."""
    spans = [(it.x0, max(c.x1 for c in it.chars + (it.den or [])), 0.5 if it.kind == "frac" else 0.9)
             for it in items if it.kind != "base"]

    def covered(c: Char) -> bool:
        width = c.x1 - c.x0
        for a, b, share in spans:
            if width < 0.05:
                if share < 0.9 and a - 0.5 <= c.x0 <= b + 0.5:  # inside a fraction
                    return True
            elif min(c.x1, b) - max(c.x0, a) >= share * width:
                return True
        return False

    items[:] = [it for it in items if not (it.kind == "base" and it.chars[0].text == " " and covered(it.chars[0]))]


def _mark_footnotes(items: list[_Item]) -> None:
    """Raised digits or ∗†‡ right after a word (three letters or more, a two-letter name,
    a closing punctuation mark) are a footnote mark, not an exponent: x², 10⁶ and cm² have
    a short, lower-case or numeric base."""
    for i, it in enumerate(items):
        if it.kind != "sup":
            continue
        before = "".join(x.chars[0].text for x in items[:i] if x.kind == "base")
        word = before.rstrip()
        raised = "".join(c.text for c in it.chars)
        if (raised in _ORDINALS and word[-1:].isdigit()) or _BRACKETED.match(raised):
            it.kind = "plain"  # 10th, 21st; an annotation's own "[a]" reads as printed
            continue
        after = next((x.chars[0].text for x in items[i + 1:] if x.kind == "base" and x.chars[0].text != " "), "")
        function = word.split(" ")[-1]
        if not _is_mark(it.chars) or (after == "(" and items[i + 1].kind == "base"
                                      and function.isascii() and function.isalpha()):
            continue  # cos²(v), sin²(x): an exponent on a function, right before its argument
        stem = word.rstrip("".join(_CLOSERS))
        tail = stem.split(" ")[-1] if stem else ""
        if (len(tail) >= 3 and tail[-3:].isalpha()
                or (len(tail) == 2 and tail.isalpha() and tail[0].isupper() and tail[1].islower())  # Kyle Lo†
                or (word[-1:] in ".,;:" and tail)  # after a full stop or comma: (Figure 4).¹
                or (tail.isalpha() and word != stem and tail)
                or (tail[-1:].isalpha() and not tail[-1].isascii())  # 상해¹): a syllable or ideograph
                or _SEPARATED_NUMBER.search(tail)):
            it.kind = "mark"


def _is_mark(chars: list[Char]) -> bool:
    """Footnote or citation mark: digits or ∗†‡, lists and ranges of them ("4,5", "6–10",
    "∗,‡"), a closing bracket allowed ("1)")."""
    return bool(_MARK.match("".join(c.text for c in chars)))


def _write(items: list[_Item], size: float) -> list[Char]:
    out: list[Char] = []
    after_sup = False
    for i, it in enumerate(items):
        if it.kind == "base":
            if it.chars[0].text == " " and (not out or out[-1].text == " "):
                continue
            if it.chars[0].text == " " and (_dropped_mark_then_closer(items, i) or out[-1].text in _RADICALS):
                continue
            out.append(it.chars[0])
            after_sup = False
        elif it.kind == "mark":
            nxt = next((x for x in items[i + 1:] if x.kind == "base"), None)
            if nxt is not None and nxt.chars[0].text.isupper() and nxt.chars[0].text.isascii():
                if out and out[-1].text != " ":  # "AI♦University" → "AI University"
                    out.append(Char(" ", it.x0, it.chars[0].y0, it.x0, it.chars[0].y1, it.chars[0].size, False))
            elif out and out[-1].text == " ":
                out.pop()  # "gradients ⁴ ." → "gradients."
        elif it.kind == "plain":
            out.extend(it.chars)
        elif it.kind == "lead":
            out.extend(_flat(it.chars, size))
            last = it.chars[-1]
            out.append(Char(" ", last.x1, last.y0, last.x1, last.y1, last.size, last.bold))
        elif it.kind == "sup":
            out.extend(_wrap("^", _flat(it.chars, size)))
            after_sup = True
        elif it.kind == "sub":
            body = _flat(it.chars, size)
            out.extend(_wrap("_", body) if after_sup else body)
            after_sup = False
        else:  # fraction
            num, den = _flat(it.chars, size), _flat(it.den or [], size)
            out.extend(_group(num))
            first = den[0] if den else it.chars[-1]
            out.append(Char("/", first.x0, first.y0, first.x0, first.y1, first.size, first.bold))
            out.extend(_group(den))
            after_sup = False
    while out and out[-1].text == " ":
        out.pop()
    return out


def _dropped_mark_then_closer(items: list[_Item], i: int) -> bool:
    prev = next((x for x in reversed(items[:i]) if x.kind != "base" or x.chars[0].text != " "), None)
    nxt = next((x for x in items[i + 1:] if x.kind != "base" or x.chars[0].text != " "), None)
    return prev is not None and prev.kind == "mark" and nxt is not None and nxt.kind == "base" \
        and nxt.chars[0].text in _CLOSERS


def _flat(chars: list[Char], outer: float) -> list[Char]:
    """A script or a fraction part, its own scripts (the T of QKᵀ) written one level deep."""
    printed = [c for c in chars if c.text != " "]
    if len(printed) < 2:
        return printed
    size, centre, font = _reference(printed)
    levels = _levels(printed, size, centre, font)
    out: list[Char] = []
    prev = 0
    for c, level in sorted(zip(printed, levels), key=lambda p: p[0].x0):
        if level == 1 and prev != 1:
            out.append(Char("^", c.x0, c.y0, c.x0, c.y1, c.size, c.bold))
        out.append(c)
        prev = level
    return out


def _wrap(mark: str, body: list[Char]) -> list[Char]:
    if not body:
        return body
    first = body[0]
    head = Char(mark, first.x0, first.y0, first.x0, first.y1, first.size, first.bold)
    return [head] + (body if len(body) == 1 else _group(body, force=True))


def _group(body: list[Char], force: bool = False) -> list[Char]:
    """Brackets around a multi-character part: 2i/dmodel inside an exponent, a sum over a
    fraction bar. A single symbol or word stays bare: 1/√dk."""
    text = "".join(c.text for c in body)
    bare = text.replace("√", "").replace("^", "")
    if not body or (not force and (bare.isalnum() or len(body) == 1)):
        return body
    if text.startswith("(") and text.endswith(")"):
        return body
    first, last = body[0], body[-1]
    return ([Char("(", first.x0, first.y0, first.x0, first.y1, first.size, first.bold)] + body
            + [Char(")", last.x1, last.y0, last.x1, last.y1, last.size, last.bold)])
