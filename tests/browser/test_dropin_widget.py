"""The drop-in widget (docs/chat-page.md, "Drop-in") in Debian's chromium: a static
"docs site" on another local port embeds <script src=".../athena/widget.js">; a real
`athena serve` in public mode answers it. Checks: it answers, its citations link to the
site_url_map URL, styles do not leak either way, no request goes to any third host, and it
works by keyboard alone. Screenshots (light, dark, narrow) go to test-artifacts/."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from playwright.sync_api import expect  # noqa: E402

from conftest import ARTIFACTS, FLASK_PAGES  # noqa: E402
from corpus_files import CORPORA  # noqa: E402
from http_servers import AthenaServer, fast_env, free_port, run_cli  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET_JS = Path(__file__).resolve().parents[2] / "athena_lab" / "static" / "dropin" / "widget.js"
QUESTION = "How do I configure the SECRET_KEY in Flask?"
DONE = '[data-testid="answer"][aria-busy="false"]'
# The host page's worst: global rules on every element and on buttons, with !important.
HOST_CSS = """
* { font-family: serif !important; color: rgb(255, 0, 0) !important; }
button { background: rgb(0, 128, 0) !important; border-radius: 0 !important; padding: 30px !important; }
div, section { display: block; }
"""
HOST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Docs site</title>
<style>{css}</style></head><body>
<h1>My docs</h1><p id="host-text">Host paragraph.</p><button id="host-button">Host button</button>
<script src="{athena}/athena/widget.js" data-athena-url="{athena}" data-title="Ask Flask docs"
  data-accent="#7c3aed" data-placeholder="Ask about Flask" data-position="{position}"
  data-questions='["How do I configure the SECRET_KEY?", "How do I test a Flask app?"]' defer></script>
</body></html>"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="module")
def athena(tmp_path_factory: pytest.TempPathFactory):
    if not WIDGET_JS.is_file():
        pytest.skip("the widget is not built: cd labextension && npm run build:prod")
    tmp = tmp_path_factory.mktemp("dropin")
    folder = tmp / "project"
    (folder / "flask" / "docs").mkdir(parents=True)
    for page in FLASK_PAGES:
        shutil.copy(CORPORA / "docs" / "flask" / "docs" / page, folder / "flask" / "docs" / page)
    site_port = free_port()
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(f"""
[server]
cors_origins = ["http://127.0.0.1:{site_port}"]
rate_limit_per_minute = 1000
[dropin]
public = true
public_chats_per_minute = 100
[dropin.site_url_map]
"flask/docs/**.rst" = "https://flask.example/{{path}}"
""", encoding="utf-8")
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive")
    run_cli("index", str(folder), env=env)
    with AthenaServer(folder, env=env) as server:
        server.site_port = site_port
        server.site_dir = tmp / "site"
        server.site_dir.mkdir()
        yield server


@pytest.fixture(scope="module")
def site(athena):
    """The docs site: a static folder served by http.server on another port."""
    origin = athena.url.removesuffix("/athena")
    for position in ("bottom-right", "bottom-left"):
        (athena.site_dir / f"{position}.html").write_text(
            HOST_PAGE.format(css=HOST_CSS, athena=origin, position=position), encoding="utf-8")
    (athena.site_dir / "bare.html").write_text(HOST_PAGE.format(css=HOST_CSS, athena=origin, position="x")
                                               .split("<script")[0] + "</body></html>", encoding="utf-8")
    handler = functools.partial(_Quiet, directory=str(athena.site_dir))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", athena.site_port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{athena.site_port}"
    httpd.shutdown()
    httpd.server_close()


def _open(browser, url: str, **options):
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, **options})
    tab = context.new_page()
    tab.requests = []
    tab.errors = []
    tab.on("request", lambda request: tab.requests.append(request.url))
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    tab.goto(url)
    tab.locator('[data-testid="launcher"]').wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    return context, tab


def _ask(tab, question: str):
    box = tab.locator('[data-testid="input"]')
    box.fill(question)
    box.press("Enter")
    answer = tab.locator(DONE).last
    answer.wait_for(timeout=60_000)
    return answer


def test_widget_answers_with_citations_linking_to_the_docs_site(browser, athena, site):
    context, tab = _open(browser, f"{site}/bottom-right.html")
    tab.locator('[data-testid="launcher"]').click()
    answer = _ask(tab, QUESTION)
    assert "secret" in answer.locator('[data-testid="answer-body"]').inner_text().lower()
    links = answer.locator('a[data-testid="source"]')
    assert links.count() >= 1
    for i in range(links.count()):
        href = links.nth(i).get_attribute("href")
        assert href.startswith("https://flask.example/") and not href.endswith(".rst"), href
        assert links.nth(i).get_attribute("rel") == "noopener noreferrer"
    # Each page maps to its own URL on the site (which pages an answer cites is the answerer's business).
    pages = {f"https://flask.example/{page.removesuffix('.rst')}" for page in FLASK_PAGES}
    assert {links.nth(i).get_attribute("href") for i in range(links.count())} <= pages
    hosts = {urlsplit(url).netloc for url in tab.requests}
    assert hosts <= {urlsplit(site).netloc, urlsplit(athena.url).netloc}, hosts
    assert not tab.errors
    tab.screenshot(path=str(ARTIFACTS / "dropin-light.png"))
    context.close()


def test_a_visitor_is_not_shown_what_answers_for_the_owner(browser, athena, site):
    """Issue 31: the drop-in's answers said "extractive (no model)", or the owner's provider
    and model: the owner's setup, which a docs site's reader neither chose nor needs."""
    headers = []
    for scheme in ("light", "dark"):  # both pictures first, then what they must show
        context, tab = _open(browser, f"{site}/bottom-right.html", color_scheme=scheme)
        tab.locator('[data-testid="launcher"]').click()
        answer = _ask(tab, QUESTION)
        answer.locator("header").scroll_into_view_if_needed()
        tab.screenshot(path=str(ARTIFACTS / f"dropin-answer-header-{scheme}.png"))
        headers.append((answer.locator("header").inner_text(), answer.locator('[data-testid="answer-mode"]').inner_text()))
        context.close()
    for header, mode in headers:
        assert "extractive" not in header and "model" not in header and mode == "", header


def test_styles_do_not_leak_either_way(browser, athena, site):
    bare, plain = _open_bare(browser, site)
    before = _host_styles(plain)
    bare.close()
    context, tab = _open(browser, f"{site}/bottom-right.html")
    tab.locator('[data-testid="launcher"]').click()
    inside = tab.evaluate("""() => {
      const root = document.querySelector('athena-dropin').shadowRoot;
      const style = el => getComputedStyle(root.querySelector(el));
      return { launcherFont: style('[data-testid="launcher"]').fontFamily,
               launcherBg: style('[data-testid="launcher"]').backgroundColor,
               launcherPadding: style('[data-testid="launcher"]').paddingTop,
               textColour: style('.welcome').color, titleFont: style('.panel-title').fontFamily,
               starterBg: style('[data-testid="starter"]').backgroundColor };
    }""")
    assert "serif" not in inside["titleFont"].replace("sans-serif", "")
    assert "system-ui" in inside["launcherFont"]
    assert inside["launcherBg"] == "rgb(124, 58, 237)"  # data-accent, not the host's green
    assert inside["launcherPadding"] != "30px" and inside["textColour"] != "rgb(255, 0, 0)"
    assert inside["starterBg"] != "rgb(0, 128, 0)"
    assert _host_styles(tab) == before  # the widget's CSS changed nothing on the host page
    context.close()


def _open_bare(browser, site: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    tab = context.new_page()
    tab.goto(f"{site}/bare.html")
    return context, tab


def _host_styles(tab) -> dict[str, str]:
    return tab.evaluate("""() => {
      const pick = el => { const s = getComputedStyle(el);
        return [s.fontFamily, s.color, s.backgroundColor, s.padding, s.borderRadius, s.fontSize, s.margin].join('|'); };
      return { body: pick(document.body), p: pick(document.getElementById('host-text')),
               button: pick(document.getElementById('host-button')), h1: pick(document.querySelector('h1')) };
    }""")


def test_keyboard_alone_opens_asks_and_closes(browser, athena, site):
    context, tab = _open(browser, f"{site}/bottom-right.html")
    launcher = tab.locator('[data-testid="launcher"]')
    for _ in range(10):  # Tab from the top of the page until the launcher has focus
        tab.keyboard.press("Tab")
        if launcher.evaluate("el => el.getRootNode().activeElement === el"):
            break
    else:
        pytest.fail("Tab never reached the widget's button")
    tab.keyboard.press("Enter")
    box = tab.locator('[data-testid="input"]')
    tab.wait_for_function("el => el.getRootNode().activeElement === el", arg=box.element_handle())
    tab.keyboard.type(QUESTION)
    tab.keyboard.press("Enter")
    tab.locator(DONE).wait_for(timeout=60_000)
    assert launcher.get_attribute("aria-expanded") == "true"
    tab.keyboard.press("Escape")
    expect(tab.locator('[data-testid="panel"]')).to_be_hidden()
    expect(launcher).to_have_attribute("aria-expanded", "false")
    tab.wait_for_function("el => el.getRootNode().activeElement === el", arg=launcher.element_handle())
    context.close()


def test_starting_question_dark_and_narrow_screenshots(browser, athena, site):
    context, tab = _open(browser, f"{site}/bottom-left.html", color_scheme="dark")
    tab.locator('[data-testid="launcher"]').click()
    tab.screenshot(path=str(ARTIFACTS / "dropin-dark-open.png"))
    tab.locator('[data-testid="starter"]').first.click()
    tab.locator(DONE).wait_for(timeout=60_000)
    box = tab.locator('[data-testid="root"]').bounding_box()
    assert box["x"] < 100  # data-position="bottom-left"
    tab.screenshot(path=str(ARTIFACTS / "dropin-dark.png"))
    context.close()
    context, tab = _open(browser, f"{site}/bottom-right.html", viewport={"width": 380, "height": 720})
    tab.locator('[data-testid="launcher"]').click()
    _ask(tab, QUESTION)
    panel = tab.locator('[data-testid="panel"]').bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 380
    tab.screenshot(path=str(ARTIFACTS / "dropin-narrow.png"))
    context.close()


def test_widget_counts_a_long_question_and_refuses_it_before_asking(browser, athena, site):
    """Issue 21: the drop-in refuses a question over the server's limit under its box
    (it sends nothing, so the reader does not wait for a refusal)."""
    context, tab = _open(browser, f"{site}/bottom-right.html")
    tab.locator('[data-testid="launcher"]').click()
    box = tab.locator('[data-testid="input"]')
    box.fill("x" * 59000)
    counter = tab.locator('[data-testid="counter"]')
    assert "59,000 / 8,000" in counter.inner_text() and "the limit is 8,000" in counter.inner_text()
    assert tab.locator('[data-testid="send"]').is_disabled()
    box.press("Enter")
    tab.wait_for_timeout(500)
    assert not [url for url in tab.requests if url.endswith("/chat")]
    assert tab.locator('[data-testid="question"]').count() == 0
    tab.screenshot(path=str(ARTIFACTS / "dropin-counter-over-light.png"))
    tab.emulate_media(color_scheme="dark")
    tab.screenshot(path=str(ARTIFACTS / "dropin-counter-over-dark.png"))
    box.fill("How do I set the secret key?")
    assert counter.is_hidden() and tab.locator('[data-testid="send"]').is_enabled()
    context.close()


def test_without_public_mode_the_button_shows_and_says_the_cors_check_refused_it(browser, athena, site,
                                                                                tmp_path_factory):
    """Issue 21: a site embedding the widget of a server not in public mode got a 401 for
    widget.js (no button, no reason), or "Cannot reach the assistant right now". The script
    now loads, and the refusal names its cause and the settings to change, on the panel
    and on the page's console."""
    home = tmp_path_factory.mktemp("private-home")  # no [dropin] public, no cors_origins
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive")
    with AthenaServer(athena.site_dir.parent / "project", env=env) as private:
        origin = private.url.removesuffix("/athena")
        (athena.site_dir / "private.html").write_text(
            HOST_PAGE.format(css="", athena=origin, position="bottom-right"), encoding="utf-8")
        context, tab = _open(browser, f"{site}/private.html")
        console = []
        tab.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
        tab.locator('[data-testid="launcher"]').click()
        box = tab.locator('[data-testid="input"]')
        box.fill(QUESTION)
        box.press("Enter")
        error = tab.locator(".error").last
        error.wait_for(timeout=30_000)
        said = error.inner_text()
        assert "Cannot reach the assistant right now" not in said
        assert "refused this page" in said and "CORS" in said
        assert "[dropin] public = true" in said and "cors_origins" in said and "docs/chat-page.md" in said
        deadline = time.monotonic() + 10  # the console line is logged with the panel's
        while not any("[dropin] public = true" in line for line in console) and time.monotonic() < deadline:
            tab.wait_for_timeout(50)
        assert any("[dropin] public = true" in line for line in console), console
        tab.screenshot(path=str(ARTIFACTS / "dropin-not-public-light.png"))
        tab.emulate_media(color_scheme="dark")
        tab.screenshot(path=str(ARTIFACTS / "dropin-not-public-dark.png"))
        context.close()
