"""The deployment files of docs/deploy.md pass their tools' own checks: the systemd units
`systemd-analyze verify`, the nginx site `nginx -t`, the Caddyfile `caddy validate` — and
athena serve behind a proxy takes the client's address from the proxy's headers."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from http_servers import AthenaServer, fast_env, free_port, indexed_corpus, stop

pytestmark = pytest.mark.integration

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        pytest.skip(f"{name} is not installed here (./run test installs nginx and caddy from Debian)")
    return found


def test_systemd_units_verify(tmp_path: Path) -> None:
    analyze = _tool("systemd-analyze")
    athena = shutil.which("athena") or str(Path(__import__("sys").executable).parent / "athena")
    units = []
    for name in ("athena.service", "athena-reindex.service", "athena-reindex.timer"):
        text = (DEPLOY / name).read_text().replace("/opt/athena/venv/bin/athena", athena)
        (tmp_path / name).write_text(text)
        units.append(str(tmp_path / name))
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    unit = (DEPLOY / "athena.service").read_text()
    for setting in ("User=athena", "ReadOnlyPaths=/srv/docs", "StateDirectory=athena", "MemoryMax=",
                    "Restart=on-failure", "--live", "--host 127.0.0.1"):
        assert setting in unit


def test_nginx_site_passes_nginx_t(tmp_path: Path) -> None:
    nginx = _tool("nginx")
    openssl = _tool("openssl")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=docs.example.org", "-keyout", str(tmp_path / "privkey.pem"),
                    "-out", str(tmp_path / "fullchain.pem")], check=True, capture_output=True, timeout=60)
    site = (DEPLOY / "nginx.conf").read_text().replace("/etc/ssl/athena", str(tmp_path))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp_path};\n  include {tmp_path}/site.conf;\n}}\n")
    done = subprocess.run([nginx, "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "proxy_buffering off" in site, "server-sent events need the proxy to pass them on at once"


def test_caddyfile_validates(tmp_path: Path) -> None:
    caddy = _tool("caddy")
    done = subprocess.run([caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
                          capture_output=True, text=True, timeout=60, env={"HOME": str(tmp_path), "PATH": "/usr/bin"})
    assert done.returncode == 0, done.stdout + done.stderr


def test_behind_a_proxy_the_rate_limit_counts_each_client_not_the_proxy(tmp_path_factory) -> None:
    corpus = indexed_corpus(tmp_path_factory)
    env = fast_env(ATHENA_SERVER__BEHIND_PROXY="true")
    with AthenaServer(corpus, "--rate-limit", "3", env=env) as server:
        def status(client: str) -> int:
            return server.client.get("/info", headers={"X-Forwarded-For": client}).status_code

        assert [status("203.0.113.7") for _ in range(4)] == [200, 200, 200, 429]
        assert status("198.51.100.9") == 200, "another client behind the same proxy has its own budget"
        assert httpx.get(server.url + "/info").status_code == 401


# The shipped proxy configs, run for real in front of athena serve --------------------------
# Issue 22, finding 6: behind deploy/Caddyfile a client's own X-Real-Ip reached athena,
# whose tornado xheaders preferred it, so each request could name a new address and get a
# new rate-limit budget. Each test sends that attack through the real proxy.

SPOOF = [{"X-Real-Ip": f"198.51.100.{n}", "X-Forwarded-For": f"203.0.113.{n}"} for n in range(1, 5)]


def _wait_for_port(port: int, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {proc.stderr.read() if proc.stderr else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port}")


@contextlib.contextmanager
def _caddy(tmp_path: Path, upstream: int) -> Iterator[str]:
    caddy = _tool("caddy")
    port = free_port()
    site = (DEPLOY / "Caddyfile").read_text().replace("docs.example.org {", f"http://127.0.0.1:{port} {{")
    site = site.replace("127.0.0.1:4317", f"127.0.0.1:{upstream}")
    (tmp_path / "Caddyfile").write_text("{\n\tadmin off\n\tauto_https off\n}\n" + site)
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin"}
    proc = subprocess.Popen([caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, proc, "caddy")
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


@contextlib.contextmanager
def _nginx(tmp_path: Path, upstream: int) -> Iterator[str]:
    nginx, openssl = _tool("nginx"), _tool("openssl")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=docs.example.org", "-keyout", str(tmp_path / "privkey.pem"),
                    "-out", str(tmp_path / "fullchain.pem")], check=True, capture_output=True, timeout=60)
    port, plain = free_port(), free_port()
    site = (DEPLOY / "nginx.conf").read_text().replace("/etc/ssl/athena", str(tmp_path))
    site = (site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;").replace("listen [::]:443 ssl;", "")
            .replace("listen 80;", f"listen 127.0.0.1:{plain};").replace("listen [::]:80;", "")
            .replace("127.0.0.1:4317", f"127.0.0.1:{upstream}"))
    (tmp_path / "site.conf").write_text(site)
    temp = "".join(f"  {kind}_temp_path {tmp_path}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"daemon off;\nuser root;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n{temp}  include {tmp_path}/site.conf;\n}}\n")
    proc = subprocess.Popen([nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, proc, "nginx")
        yield f"https://127.0.0.1:{port}"
    finally:
        stop(proc)


def _spoofing_gets_no_new_budget(proxy_url: str, server: AthenaServer, host: str | None = None) -> None:
    headers = {**server.auth, **({"Host": host} if host else {})}
    with httpx.Client(base_url=proxy_url, verify=False, headers=headers) as client:
        codes = [client.get("/athena/info", headers=spoof).status_code for spoof in SPOOF]
    assert codes == [200, 200, 200, 429], "a client naming its own X-Real-Ip / X-Forwarded-For got a new budget"
    # Another client (another loopback address) still has its own budget behind the same proxy.
    other = httpx.HTTPTransport(local_address="127.0.0.2", verify=False)
    with httpx.Client(base_url=proxy_url, transport=other, headers=headers) as client:
        assert client.get("/athena/info").status_code == 200


def _proxied_server(tmp_path_factory) -> AthenaServer:
    env = fast_env(ATHENA_SERVER__BEHIND_PROXY="true")
    return AthenaServer(indexed_corpus(tmp_path_factory), "--rate-limit", "3", "--allow-host", "docs.example.org",
                        env=env)


def _port(server: AthenaServer) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/", 1)[0])


def test_behind_the_shipped_caddyfile_a_client_cannot_choose_its_address(tmp_path, tmp_path_factory) -> None:
    with _proxied_server(tmp_path_factory) as server, _caddy(tmp_path, _port(server)) as proxy:
        _spoofing_gets_no_new_budget(proxy, server)


def test_behind_the_shipped_nginx_site_a_client_cannot_choose_its_address(tmp_path, tmp_path_factory) -> None:
    with _proxied_server(tmp_path_factory) as server, _nginx(tmp_path, _port(server)) as proxy:
        _spoofing_gets_no_new_budget(proxy, server, host="docs.example.org")


def test_the_client_is_the_last_forwarded_hop_and_x_real_ip_is_ignored() -> None:
    from athena_lab.server.addresses import client_from_proxy

    def client(**headers: str) -> tuple[str, str]:
        return client_from_proxy({k.replace("_", "-"): v for k, v in headers.items()}, "127.0.0.1", "http")

    assert client(X_Forwarded_For="203.0.113.9, 198.51.100.7", X_Real_Ip="192.0.2.1") == ("198.51.100.7", "http")
    assert client(X_Real_Ip="192.0.2.1") == ("127.0.0.1", "http")  # not through the proxy: the peer
    assert client(X_Forwarded_For="not-an-address") == ("127.0.0.1", "http")
    assert client(X_Forwarded_Proto="http, https") == ("127.0.0.1", "https")
    assert client(X_Forwarded_Proto="gopher") == ("127.0.0.1", "http")
