"""The deployment files of docs/deploy.md pass their tools' own checks: the systemd units
`systemd-analyze verify`, the nginx site `nginx -t`, the Caddyfile `caddy validate` — and
athena serve behind a proxy takes the client's address from the proxy's headers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, fast_env, indexed_corpus

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
                    "Restart=on-failure", "--watch", "--host 127.0.0.1"):
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
