"""A real JupyterLab with athena_lab's server extension, on an indexed copy of real docs,
driven by Debian's chromium through Playwright (no browser download)."""

from __future__ import annotations

import importlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from corpus_files import CORPORA  # noqa: E402
from http_servers import stop  # noqa: E402
FLASK_PAGES = ["quickstart.rst", "config.rst", "testing.rst"]
PDF_NAME = "docling_multi_page.pdf"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
HOSTILE_MD = """# Hostile page about zebra tokens

Zebra tokens rotate every night. <script>window.__athenaPwned = 'script'</script>

<img src="nope.png" onerror="window.__athenaPwned = 'onerror'"> Zebra tokens are
stored in the vault, never in the browser.

[click me](javascript:window.__athenaPwned='link')
"""


def _server_extension_module() -> str | None:
    """The module that declares athena's Jupyter server extension, if it exists yet."""
    for name in ("athena_lab.server", "athena_lab"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "_jupyter_server_extension_points"):
            return name
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(url: str, process: subprocess.Popen, log: Path, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited early:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"jupyter lab did not answer in {timeout}s:\n{log.read_text()[-4000:]}")


def _checkout_labextension(scratch: Path) -> dict[str, str]:
    """Lab loads the sidebar built in this checkout (athena_lab/labextension, what the wheel
    ships) rather than a copy an earlier install left in the environment: JUPYTER_PATH
    comes first when Lab looks for extensions."""
    built = Path(__file__).resolve().parents[2] / "athena_lab" / "labextension"
    if not (built / "package.json").is_file():
        return {}
    data = scratch / "jupyter-data"
    (data / "labextensions").mkdir(parents=True, exist_ok=True)
    link = data / "labextensions" / "athena-lab"
    if not link.exists():
        link.symlink_to(built, target_is_directory=True)
    paths = [str(data), os.environ.get("JUPYTER_PATH", "")]
    return {"JUPYTER_PATH": os.pathsep.join(p for p in paths if p)}


def index_with_cli(folder: Path) -> None:
    """Index ``folder`` the way a user does: the venv's ``athena index``."""
    athena = shutil.which("athena", path=str(Path(sys.executable).parent)) or "athena"
    done = subprocess.run([athena, "index", str(folder)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"athena index failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real folder: three Flask pages, one PDF, one hostile Markdown page, indexed."""
    root = tmp_path_factory.mktemp("lab-root")
    folder = root / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "papers").mkdir()
    for page in FLASK_PAGES:
        shutil.copy(CORPORA / "docs" / "flask" / "docs" / page, folder / "docs" / page)
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, folder / "papers" / PDF_NAME)
    (folder / "docs" / "hostile.md").write_text(HOSTILE_MD, encoding="utf-8")
    index_with_cli(folder)
    return folder


@pytest.fixture(scope="session")
def server_extension() -> str:
    module = _server_extension_module()
    if module is None:
        pytest.skip("athena_lab has no Jupyter server extension yet (no _jupyter_server_extension_points "
                    "in athena_lab.server or athena_lab): the sidebar chat has no /athena/ API to talk to")
    return module


@pytest.fixture(scope="session")
def lab(server_extension: str, corpus: Path) -> Iterator[str]:
    """A running Lab whose root is the parent of the indexed folder; yields its base URL."""
    with running_lab(server_extension, corpus, {"ATHENA_LLM__PROVIDER": "extractive"}) as url:
        yield url


@pytest.fixture(scope="session")
def start_lab(server_extension: str):
    """``start_lab(folder, settings)``: another Lab, for tests that need their own folder or
    provider (a context manager yielding its URL)."""
    return lambda folder, settings, expose_app=True: running_lab(server_extension, folder, settings, expose_app)


@contextmanager
def running_lab(module: str, folder: Path, settings: dict[str, str], expose_app: bool = True) -> Iterator[str]:
    """Lab with athena's server extension on ``folder`` (its root is the folder's parent),
    ``settings`` added to the environment; yields the /lab URL with its token. Tests read
    Lab's state through ``window.jupyterapp`` (``expose_app``); a normal install has none."""
    port, token = _free_port(), secrets.token_hex(16)
    log = folder.parent / "jupyter.log"
    # Lab's own settings (e.g. a theme a test switches to) stay with this server, not in ~/.jupyter.
    # Each Lab keeps its own settings and restored layout: one test's open tabs and theme
    # must not reappear in another test's Lab on the same folder.
    env = {**os.environ, "ATHENA_WORKSPACE__ROOT": str(folder),
           "JUPYTERLAB_SETTINGS_DIR": str(folder.parent / f"lab-settings-{port}"),
           "JUPYTERLAB_WORKSPACES_DIR": str(folder.parent / f"lab-workspaces-{port}"), **settings}
    env.update(_checkout_labextension(folder.parent))
    command = [
        sys.executable, "-m", "jupyter", "lab", "--allow-root", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={folder.parent}", f"--IdentityProvider.token={token}",
        f"--ServerApp.jpserver_extensions={{'{module}': True}}",
        f"--LabApp.expose_app_in_browser={expose_app}", "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{base}/api/status?token={token}", process, log)
        yield f"{base}/lab?token={token}"
    finally:
        stop(process)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


def open_chat(tab) -> None:
    """Show the chat the way the palette does (a sidebar click would toggle a restored panel)."""
    tab.wait_for_function("window.jupyterapp.commands.hasCommand('athena:focus-chat')")
    # Lab opens its Launcher in an empty main area a few seconds after the page loads (once
    # the file browser has listed its folder), and activating it takes the keyboard focus: a
    # test typing into the chat before then loses its keys to the Launcher.
    tab.wait_for_function("Array.from(window.jupyterapp.shell.widgets('main')).length > 0", timeout=60_000)
    tab.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    tab.evaluate("async () => { await window.jupyterapp.restored;"
                 " await window.jupyterapp.commands.execute('athena:focus-chat'); }")
    tab.locator('[data-testid="athena-input"]').wait_for(state="visible")


@pytest.fixture
def show_chat():
    """The helper that opens the chat panel, for tests that reload the page."""
    return open_chat


@pytest.fixture
def page(browser, lab: str, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser context on Lab with the athena panel open; screenshot at the end."""
    with lab_page(browser, lab, request.node.name) as tab:
        yield tab


@pytest.fixture(scope="session")
def open_lab_page(browser):
    """``open_lab_page(url, name)``: a page on another Lab (a context manager)."""
    return lambda url, name: lab_page(browser, url, name)


@contextmanager
def lab_page(browser, url: str, name: str) -> Iterator[object]:
    """A fresh browser context on the Lab at ``url`` with the athena panel open; its page
    errors in ``tab.athena_errors``; a screenshot named ``name`` when it closes."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        tab.goto(url)
        tab.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
        open_chat(tab)
        # Each test starts on a new conversation: the panel restores the one an earlier test
        # used (Lab keeps it in its state database), and New wins over that restore.
        tab.evaluate("() => window.jupyterapp.commands.execute('athena:new-conversation')")
        tab.wait_for_function("document.querySelector('[data-testid=athena-chat]').dataset.conversationId === ''")
        tab.athena_errors = errors  # type: ignore[attr-defined]
        yield tab
    finally:
        tab.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        context.close()
