"""Which config a command uses without ``--config``: ctxhub's own names only, never a generic one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hub.config import DEFAULT_CONFIG, default_config_path
from tests.conftest import REPO

UNRELATED = "database:\n  host: db.internal\n  port: 5432\n"


def _ctxhub(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CONFIG_HOME": str(cwd / "no-config-home")}
    environ.pop("CTXHUB_CONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**environ, **(env or {})},
    )


def test_a_projects_own_config_yaml_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(UNRELATED)
    (tmp_path / "out.txt").write_text("hello\n")
    routed = _ctxhub("route", "out.txt", cwd=tmp_path)
    assert routed.returncode == 0, routed.stderr
    assert "decision: Direct" in routed.stdout
    written = _ctxhub("config", "claude", "--write", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["ctxhub"]
    assert "--config" not in entry["args"]


def test_ctxhub_yaml_in_the_project_is_used_and_written_into_the_client_settings(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(UNRELATED)
    (tmp_path / "ctxhub.yaml").write_text(f"servers: {{}}\nstore: {{path: {tmp_path / 'store'}}}\n")
    listed = _ctxhub("tools", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "doc_search" in listed.stdout
    written = _ctxhub("config", "claude", "--write", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["ctxhub"]
    assert entry["args"][-2:] == ["--config", str(tmp_path / "ctxhub.yaml")]


def _names(root: Path) -> dict[str, Path]:
    paths = {
        "env": root / "elsewhere.yaml",
        "ctxhub.yaml": root / "ctxhub.yaml",
        ".ctxhub": root / ".ctxhub" / "config.yaml",
        "xdg": root / "xdg" / "ctxhub" / "config.yaml",
    }
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("servers: {}\n")
    return paths


def test_the_lookup_order_is_env_then_ctxhub_yaml_then_dot_ctxhub_then_xdg_then_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text(UNRELATED)
    paths = _names(tmp_path)
    environ = {"CTXHUB_CONFIG": str(paths["env"]), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    assert default_config_path(environ) == paths["env"]
    del environ["CTXHUB_CONFIG"]
    assert default_config_path(environ) == paths["ctxhub.yaml"]
    paths["ctxhub.yaml"].unlink()
    assert default_config_path(environ) == paths[".ctxhub"]
    paths[".ctxhub"].unlink()
    assert default_config_path(environ) == paths["xdg"]
    paths["xdg"].unlink()
    assert default_config_path(environ) == DEFAULT_CONFIG
    assert default_config_path({"HOME": str(tmp_path)}) == DEFAULT_CONFIG


def test_ctxhub_config_naming_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    result = _ctxhub("tools", cwd=tmp_path, env={"CTXHUB_CONFIG": str(tmp_path / "missing.yaml")})
    assert result.returncode == 2
    assert result.stderr.strip() == f"ctxhub: {tmp_path / 'missing.yaml'}: no such config file " + (
        "(pass --config with an existing path)"
    )
