"""The ctxhub command line, run as a user would: check, tools, call, route, search, show, stats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, fixture_server, write_config


def ctxhub(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_check_prints_a_table_and_fails_when_a_server_cannot_start(tmp_path: Path) -> None:
    config = write_config(
        tmp_path, {"fx": fixture_server("fx"), "gone": {"command": str(tmp_path / "missing")}}
    )
    result = ctxhub("check", "--config", str(config))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["server", "transport", "status", "tools", "list", "bytes", "start-up"]
    assert any(line.startswith("fx") and " ok " in line for line in lines)
    assert any(line.startswith("gone") and "FAILED: command not found" in line for line in lines)


def test_tools_and_call_work_on_a_config(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    listed = ctxhub("tools", "--config", str(config))
    assert "fx__echo" in listed.stdout and "doc_search" in listed.stdout
    called = ctxhub("call", "fx__echo", "--args", '{"text": "hello hub"}', "--config", str(config))
    assert called.returncode == 0 and called.stdout.strip() == "hello hub"
    bad = ctxhub("call", "fx__echo", "--args", "{not json", "--config", str(config))
    assert bad.returncode == 2 and "--args is not valid JSON" in bad.stderr


def test_a_config_error_is_one_line_naming_the_key(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("servers:\n  a:\n    comand: x\n")
    result = ctxhub("check", "--config", str(config))
    assert result.returncode == 2
    assert result.stderr.startswith(f"ctxhub: {config}: servers.a.comand: unknown key")


def test_route_shows_the_decision_for_a_file(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text(
        "\n".join(
            [f"[{n}] compiling unit_{n}.c" for n in range(800)]
            + ["src/parse.c:12:5: error: expected ';' before 'return'", "make: *** [all] Error 2"]
        )
    )
    result = ctxhub("route", str(log), "--tool", "ci_log")
    assert result.returncode == 0
    assert result.stdout.startswith("decision: Summary")
    assert "src/parse.c:12:5: error: expected ';' before 'return'" in result.stdout


def test_search_show_and_stats_read_the_store_a_hub_wrote(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "app.log").write_text(
        "\n".join(
            [f"INFO request {n} served in {n % 9} ms" for n in range(3000)]
            + ["ERROR PaymentGateway timeout after 30 s for order 7731"]
        )
    )
    servers = {
        "ws": {"command": sys.executable, "args": ["-m", "tools.workspace_server", "--root", str(workspace)]}
    }
    config = write_config(tmp_path, servers)
    called = ctxhub("call", "ws__read_log", "--args", '{"path": "app.log"}', "--config", str(config))
    assert called.returncode == 0
    ref = called.stdout.split("ref ", 1)[1].split("]", 1)[0]
    found = ctxhub("search", "payment gateway timeout", "--config", str(config))
    assert "ERROR PaymentGateway timeout" in found.stdout and ref in found.stdout
    shown = ctxhub("show", f"{ref}#0", "--config", str(config))
    assert shown.stdout.startswith("INFO request 0 served")
    stats = ctxhub("stats", "--config", str(config))
    assert "refs" in stats.stdout and "ws__read_log" in stats.stdout
    unknown = ctxhub("show", "r_00000000", "--config", str(config))
    assert unknown.returncode == 2 and "unknown" in unknown.stderr
    assert json.loads((tmp_path / "store" / "stats.json").read_text())["tools"]["ws__read_log"]["calls"] == 1


def test_serve_with_stdin_at_the_null_device_ends_at_its_eof_without_a_traceback(tmp_path: Path) -> None:
    # ``ctxhub serve < /dev/null`` (a launcher that gives it no input): epoll refuses the null
    # device (EPERM), and the hub died with an exception group and status 1.
    config = write_config(tmp_path, {"fx": fixture_server("fx")})
    result = subprocess.run(
        [sys.executable, "-m", "hub.cli", "serve", "--config", str(config)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
