"""The names a model's answer uses, and which of them the folder never mentions.

A small model fills gaps with names that sound right: ``monkeypatch.undo_setattr``,
``SWAGGER_UI_ENABLED``, a ``routes.toml`` to edit. A reader cannot tell them from the
real ones, and a marker beside them reads as "the source says this". So every code name,
option, setting, directive, command, environment variable and file name in the answer is
looked up in the index (search/names.py); one that occurs nowhere in the folder and not in
the question is "not found in your documents": its sentence gets no marker and is listed
in ``done`` (``not_found``).

What counts as a name, deliberately narrow so that ordinary words are never accused:

- **In prose**, outside inline code: ``snake_case``, ``dotted.names``, ``CONSTANT_NAMES``,
  ``--flags``, ``calls()`` and file names (``routes.toml``). Not capitalised words or
  CamelCase product names ("FastAPI", "PostgreSQL"): those are prose, not code.
- **In inline code** (``…``): every identifier-like token, a plain word too (`htpasswd`).
- **In a Python block** (read with ``ast``): imported modules and names, attributes
  (``x.attr``), calls of names the block does not define, keyword arguments of such calls,
  ``CONSTANT`` strings (``os.environ["REDOC_ENABLED"]``) and constants it assigns
  (``SWAGGER_UI_ENABLED = False`` claims a setting). The example's own names — its
  variables, functions, classes, parameters, loop and ``as`` targets — are exempt
  wherever the answer uses them; a method called on them (``monkeypatch.undo_setattr``
  in ``def test(monkeypatch)``) is not.
- **In any other block** (config, shell): identifier-like tokens and, in a shell block,
  each command's program.

Python's keywords and builtins, ``self`` and ``cls`` are never checked, nor words of
fewer than three characters.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from athena_lab.agent.citations import MARKER, sentence_split

_FENCED = re.compile(r"^([ \t]*)(```|~~~)([\w+-]*)[^\n]*\n(.*?)(?:^\1\2[ \t]*$|\Z)", re.S | re.M)
_INLINE = re.compile(r"`([^`\n]+)`")
_URL = re.compile(r"\b[a-z][\w+.-]*://\S+|\bwww\.\S+", re.I)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_EXTENSIONS = ("py", "toml", "json", "yaml", "yml", "cfg", "ini", "txt", "md", "rst", "conf", "html", "htm", "js",
               "ts", "css", "env", "sh", "xml", "csv", "ipynb", "lock", "log", "htaccess", "htpasswd", "pem", "key")
_FILE = re.compile(r"(?<![\w./-])\.?[A-Za-z_][\w-]*(?:\.[\w-]+)*\.(?:" + "|".join(_EXTENSIONS) + r")\b")
# prose outside inline code: only what is unmistakably code
_PROSE = re.compile(
    r"(?<![\w-])--[a-z][\w-]+"  # --flags
    r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted.names, module.func()
    r"|\b[A-Za-z]\w*_\w+"  # snake_case, CONSTANT_NAMES
    r"|\b[A-Za-z_]\w*(?=\(\))"  # calls()
)
# inside inline code or a non-Python block: any identifier-like token
_TOKEN = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]+|[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*")
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_SHELL = ("sh", "bash", "shell", "console", "zsh", "powershell", "cmd", "bat")
_SHELL_COMMON = frozenset(
    "cd ls cp mv rm mkdir echo cat export set source sudo env touch chmod chown grep sed awk curl wget "
    "python python3 pip pip3 git npm node which kill".split())
_EXEMPT = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | {"self", "cls", "true", "false", "null", "none"}
_COMMON_WORDS = frozenset("e.g i.e etc vs".split())


@dataclass(frozen=True)
class Name:
    """A name as the answer writes it, the words the folder must hold for it, and where it stands
    (the sentence, marker-free, or the code line), verbatim."""

    written: str
    parts: tuple[str, ...]
    where: str


def answer_names(text: str) -> list[Name]:
    """Every checkable name of an answer, in order, with the example's own names left out."""
    blocks = list(_FENCED.finditer(text))
    defined: set[str] = set()
    for block in blocks:
        defined |= _defined(block.group(4))
    out: list[Name] = []
    last = 0
    for block in blocks:
        out += _prose_names(text[last:block.start()], defined)
        out += _block_names(block.group(3).lower(), block.group(4), defined)
        last = block.end()
    out += _prose_names(text[last:], defined)
    return out


def defined_in(text: str) -> set[str]:
    """The names the answer's own Python examples define (exempt from every check)."""
    return set().union(*(_defined(block.group(4)) for block in _FENCED.finditer(text)))


def sentence_names(sentence: str, defined: Iterable[str] = ()) -> list[Name]:
    """The names of one prose sentence (what attribution checks before it adds a marker)."""
    return list(_sentence_names(sentence, set(defined)))


def missing(names: list[Name], found: Callable[[list[str]], set[str]], question: str = "") -> list[Name]:
    """The names with a part the folder (``found``: which of these lower-cased words occur)
    and the question do not hold."""
    asked = question.lower()
    wanted = sorted({p for n in names for p in n.parts if p not in asked})
    present = found(wanted) if wanted else set()
    return [n for n in names if any(p not in asked and p not in present for p in n.parts)]


# -- prose ---------------------------------------------------------------------------------
def _prose_names(text: str, defined: set[str]) -> Iterator[Name]:
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line or line.startswith("#") or line.startswith("|"):
            continue
        for sentence in sentence_split(line):
            yield from _sentence_names(sentence, defined)


def _sentence_names(sentence: str, defined: set[str]) -> Iterator[Name]:
    where = _quotable(sentence)
    seen: set[str] = set()
    outside = _URL.sub(" ", _INLINE.sub(" ", sentence))
    for m in _FILE.finditer(outside):
        seen.add(m.group(0))
        yield Name(m.group(0), (m.group(0).lower(),), where)
    for m in _PROSE.finditer(_FILE.sub(" ", outside)):
        token = m.group(0).rstrip("()")
        if token.lower() not in _COMMON_WORDS and token not in seen:
            seen.add(token)
            name = _name(token, defined, where)
            if name is not None:
                yield name
    for m in _INLINE.finditer(sentence):
        code = m.group(1).strip()
        yield from _code_span(code, defined, where, seen)


def _code_span(code: str, defined: set[str], where: str, seen: set[str]) -> Iterator[Name]:
    if _URL.search(code) or code.startswith(("/", "~", "http")) or " " in code.strip() and not _looks_like_code(code):
        files = [m.group(0) for m in _FILE.finditer(code)]
        for f in files:
            if f not in seen:
                seen.add(f)
                yield Name(f, (f.lower(),), where)
        return
    try:
        tree = ast.parse(code, mode="exec")
    except (SyntaxError, ValueError):
        tree = None
    if tree is not None and not _FILE.fullmatch(code):
        for found in _python_names(tree, defined, where, code):
            if found.written not in seen:
                seen.add(found.written)
                yield found
        return
    for file in _FILE.finditer(code):
        seen.add(file.group(0))
        yield Name(file.group(0), (file.group(0).lower(),), where)
    for m in _TOKEN.finditer(_FILE.sub(" ", code)):
        token = m.group(0)
        if token not in seen:
            seen.add(token)
            name = _name(token, defined, where)
            if name is not None:
                yield name


def _looks_like_code(code: str) -> bool:
    return bool(re.search(r"[()=\[\]{}]|\.\w|_\w|--", code))


# -- blocks ----------------------------------------------------------------------------------
def _block_names(lang: str, code: str, defined: set[str]) -> Iterator[Name]:
    if lang == "" or lang.startswith("py"):
        try:
            tree = ast.parse(_unprompted(code))
        except (SyntaxError, ValueError):
            tree = None
        if tree is not None:
            yield from _python_names(tree, defined, "", code)
            return
    shell = lang in _SHELL
    seen: set[str] = set()
    for raw in code.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "//", ";", "<!--")):
            continue
        where = line
        if shell or line.startswith("$ "):
            program = re.sub(r"^\$\s+|^sudo\s+", "", line).split(" ", 1)[0]
            if re.fullmatch(r"[a-z][\w.-]{2,}", program) and program not in _SHELL_COMMON and program not in seen:
                seen.add(program)
                yield Name(program, (program.lower(),), where)
        text = _URL.sub(" ", line)
        for f in _FILE.finditer(text):
            if f.group(0) not in seen:
                seen.add(f.group(0))
                yield Name(f.group(0), (f.group(0).lower(),), where)
        for m in _TOKEN.finditer(_FILE.sub(" ", text)):
            token = m.group(0)
            if token in seen or not _codeish(token):
                continue
            seen.add(token)
            name = _name(token, defined, where)
            if name is not None:
                yield name


def _codeish(token: str) -> bool:
    """In a config or shell block, the tokens that are names: not the plain words of a value."""
    return bool(token.startswith("-") or "." in token or "_" in token or re.search(r"[a-z][A-Z]|[A-Z]{2}", token)
                or re.fullmatch(r"[A-Z][a-z]+[A-Z]\w*", token))


def _unprompted(code: str) -> str:
    """A ``>>>`` session as the code it runs."""
    if ">>> " not in code:
        return code
    return "\n".join(line[4:] for line in code.splitlines() if line.startswith((">>> ", "... ")))


def _defined(code: str) -> set[str]:
    """What a Python block defines (its own names, exempt everywhere in the answer)."""
    try:
        tree = ast.parse(_unprompted(code))
    except (SyntaxError, ValueError):  # a config or shell block defines nothing
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and not _CONSTANT.match(node.id):
            out.add(node.id)
        elif isinstance(node, ast.alias) and node.asname:
            out.add(node.asname)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _python_names(tree: ast.AST, defined: set[str], where: str, code: str) -> Iterator[Name]:
    lines = code.splitlines()

    def at(node: ast.AST) -> str:
        if where:
            return where
        number = getattr(node, "lineno", 1)
        return lines[number - 1].strip() if 0 < number <= len(lines) else ""

    seen: set[tuple[str, ...]] = set()

    def emit(written: str, parts: Iterable[str], node: ast.AST, rooted: bool = True) -> Iterator[Name]:
        """``rooted``: the first part is a name of its own (builtins exempt), not an attribute."""
        kept = tuple(p.lower() for n, p in enumerate(parts)
                     if len(p) >= 3 and (n > 0 or not rooted or p.lower() not in _EXEMPT))
        if kept and kept not in seen:
            seen.add(kept)
            yield Name(written, kept, at(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from emit(alias.name, [alias.name], node)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield from emit(node.module, [node.module], node)
            for alias in node.names:
                if alias.name != "*":
                    yield from emit(alias.name, [alias.name], node)
        elif isinstance(node, ast.Attribute):
            root, chain = _chain(node)
            if isinstance(getattr(node, "ctx", None), ast.Load) or isinstance(node.ctx, ast.Store):
                rooted = root is not None and root not in defined and root.lower() not in _EXEMPT
                yield from emit(".".join(chain) if chain else node.attr,
                                [root, node.attr] if rooted and root else [node.attr], node, rooted)
        elif isinstance(node, ast.Call):
            func = node.func
            local = isinstance(func, ast.Name) and (func.id in defined or func.id.lower() in _EXEMPT)
            if isinstance(func, ast.Name) and not local:
                yield from emit(func.id + "()", [func.id], node)
            if not local:
                for kw in node.keywords:
                    if kw.arg:
                        yield from emit(f"{kw.arg}=", [kw.arg], node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _CONSTANT.match(node.value):
            yield from emit(node.value, [node.value], node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and _CONSTANT.match(node.id):
            yield from emit(node.id, [node.id], node)


def _chain(node: ast.Attribute) -> tuple[str | None, list[str]]:
    """``a.b.c`` → ("a", ["a", "b", "c"]); a chain on a call or subscript has no root name."""
    parts: list[str] = []
    current: ast.AST = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if isinstance(current, ast.Name):
        parts.append(current.id)
        return current.id, parts[::-1]
    return None, parts[::-1]


# -- one token ---------------------------------------------------------------------------------
def _name(token: str, defined: set[str], where: str) -> Name | None:
    """The parts of a token the folder must hold: a dotted name's root unless the example
    defines it, and every attribute after it."""
    if token.startswith("-"):
        return Name(token, (token.lower(),), where) if len(token) >= 4 else None
    parts = []
    for n, piece in enumerate(token.split(".")):
        if (n == 0 and (piece in defined or piece.lower() in _EXEMPT)) or len(piece) < 3:
            continue
        parts.append(piece.lower())
    if not parts:
        return None
    return Name(token, tuple(dict.fromkeys(parts)), where)


def _quotable(sentence: str) -> str:
    pieces = [p.strip() for p in MARKER.split(sentence)[::2]]
    return max(pieces, key=len) if pieces else sentence.strip()
