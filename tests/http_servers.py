"""Real `athena serve` and `jupyter server` processes on 127.0.0.1 for the HTTP API tests.

    with AthenaServer(root, env=fast_env()) as server:
        server.client.get("/health")            # server.url ends in /athena; the client sends the token
        httpx.get(server.url + "/health")       # 401: athena serve needs its token by default

Each server is a subprocess started the way a user starts it; it binds a free port
(athena: --port 0, read back from its first line, with the token it generated) and is
stopped with SIGTERM.
"""

from __future__ import annotations

import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qs, urlsplit

import httpx
from httpx_sse import EventSource

from corpus_files import CORPORA, copy_flask_subset

PDF_NAME = "misc_pypdf_crazyones-pdfa.pdf"


def clean_env(**settings: str) -> dict[str, str]:
    """The test process's environment without any ATHENA_* setting, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATHENA_")}
    env.update(settings)
    return env


def fast_env(**settings: str) -> dict[str, str]:
    """Lexical search only: vectors do not matter to most API tests and cost seconds."""
    return clean_env(ATHENA_EMBEDDING__PROVIDER="none", **settings)


def make_corpus(dest: Path) -> Path:
    """Ten Flask doc pages and one small text PDF."""
    copy_flask_subset(dest)
    (dest / "papers").mkdir(exist_ok=True)
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, dest / "papers" / PDF_NAME)
    return dest


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "athena_lab.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300, check=True)


def index_folder(root: Path) -> Path:
    """``athena index ROOT`` as a user runs it; ROOT, for a fixture to return."""
    run_cli("index", str(root), env=fast_env())
    return root


def served(folder: Path, token: str) -> Iterator["AthenaServer"]:
    """A module fixture's body: ``athena serve`` on ``folder`` with a known token."""
    with AthenaServer(folder, "--token", token, env=fast_env()) as running:
        yield running


def served_with_wire_model(folder: Path, config_home: Path, reply: Any) -> Iterator[tuple["AthenaServer", Any]]:
    """A fixture's body: ``folder`` indexed and served under the user config in
    ``config_home``, its model a wire-fake OpenAI server answering with ``reply``
    (wire_servers.py); yields (the server, the model server, whose ``requests`` show what
    reached the model)."""
    from wire_servers import OpenAIWireServer

    model = OpenAIWireServer(reply)
    with model as url:
        env = fast_env(XDG_CONFIG_HOME=str(config_home), ATHENA_LLM__PROVIDER="openai", ATHENA_LLM__BASE_URL=url,
                       ATHENA_LLM__MODEL="tiny")
        run_cli("index", str(folder), env=env)
        with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
            yield server, model


def stop(proc: subprocess.Popen | None) -> None:
    """SIGTERM (a clean shutdown), then SIGKILL if it hangs."""
    if proc is None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _pump_lines(stream: Any, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)


class AthenaServer:
    def __init__(self, root: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.cmd = [sys.executable, "-m", "athena_lab.cli", "serve", "--path", str(root), "--port", "0", *args]
        self.env = env if env is not None else fast_env()
        self.url = ""
        self.page_url = ""
        self.first_line = ""
        self.token = ""  # the one it printed, or the --token it was given
        self.proc: subprocess.Popen | None = None
        self.client: httpx.Client | None = None
        self.stdout: queue.Queue[str] = queue.Queue()

    def __enter__(self) -> AthenaServer:
        self.proc = subprocess.Popen(self.cmd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        threading.Thread(target=_pump_lines, args=(self.proc.stdout, self.stdout), daemon=True).start()
        try:
            first = self.stdout.get(timeout=60)
        except queue.Empty:
            self.__exit__()
            raise RuntimeError("athena serve printed nothing within 60 s") from None
        if "serving" not in first:
            self.__exit__()
            raise RuntimeError(f"athena serve did not start: {first}{self.proc.stderr.read()}")
        self.first_line = first
        printed = first.split(" at ", 1)[1].split(" ", 1)[0]
        self.page_url = printed  # the chat page at /, with ?token= when one was generated
        self.url = printed.split("?", 1)[0].rstrip("/") + "/athena"
        self.token = parse_qs(urlsplit(printed).query).get("token", [""])[0] or self._flag("--token")
        self.client = httpx.Client(base_url=self.url, headers=self.auth)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.client is not None:
            self.client.close()
        stop(self.proc)

    @property
    def auth(self) -> dict[str, str]:
        """The header that carries this server's token (none under --no-token)."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def _flag(self, name: str) -> str:
        return self.cmd[self.cmd.index(name) + 1] if name in self.cmd else ""

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def sse_events(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """(type, data) for each event of a text/event-stream response, parsed by httpx-sse as a
    browser would (multi-line data, comments, `\r\n`), which also fails when the server
    answers with another content type instead of yielding nothing."""
    for event in EventSource(response).iter_sse():
        yield event.event, event.json()


def chat_body(question: str, **extra: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": question}], **extra}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterServer:
    """`jupyter server` with a token, root_dir ``root``; url is its base URL (no trailing /)."""

    def __init__(self, root: Path, token: str, env: dict[str, str], *args: str) -> None:
        """``args``: extra jupyter_server flags (e.g. ``--ServerApp.authorizer_class=…``)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = token
        self.cmd = [sys.executable, "-m", "jupyter_server", "--ServerApp.ip=127.0.0.1",
                    f"--ServerApp.port={self.port}", f"--IdentityProvider.token={token}", "--allow-root",
                    f"--ServerApp.root_dir={root}", "--no-browser", "--ServerApp.port_retries=0", *args]
        self.env = env
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> JupyterServer:
        self.proc = subprocess.Popen(self.cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter server exited: {self.proc.stderr.read()}")
            try:
                if httpx.get(f"{self.url}/api", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.__exit__()
        raise RuntimeError("jupyter server did not answer within 90 s")

    def __exit__(self, *exc: Any) -> None:
        stop(self.proc)


_INDEXED: dict[str, Path] = {}


def indexed_corpus(tmp_path_factory: Any) -> Path:
    """The test corpus indexed (lexical only) once per session; tests must not change it."""
    if "root" not in _INDEXED:
        root = make_corpus(tmp_path_factory.mktemp("http-corpus"))
        run_cli("index", str(root), env=fast_env())
        _INDEXED["root"] = root
    return _INDEXED["root"]
