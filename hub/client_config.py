"""Client settings for this hub: the ``mcpServers`` block for Claude Code or Cursor, printed or merged.

Contract: ``settings_block(client, transport, ...)`` returns ``{"mcpServers": {name: entry}}``.
For stdio the entry runs this hub with absolute paths (the ``ctxhub`` executable when installed,
else this Python with ``-m hub.cli`` and ``PYTHONPATH``). For ``sse``/``http`` it holds the URL
and an ``Authorization`` header that names the token variable instead of the token: Claude Code
expands ``${VAR}`` in ``.mcp.json``, Cursor expands ``${env:VAR}`` in ``mcp.json``; no token is
ever written to disk. ``write_settings(client, block, directory)`` merges the block into
``.mcp.json`` (Claude Code) or ``.cursor/mcp.json`` (Cursor), keeping every other key and
server, and replaces the file atomically. A file that is not a JSON object raises ``ConfigError``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Literal

from hub.errors import ConfigError

Client = Literal["claude", "cursor"]
Transport = Literal["stdio", "sse", "http"]
CLIENTS: tuple[Client, ...] = ("claude", "cursor")
SERVER_NAME = "ctxhub"
SETTINGS_FILES: dict[Client, Path] = {"claude": Path(".mcp.json"), "cursor": Path(".cursor") / "mcp.json"}
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def settings_block(
    client: Client,
    transport: Transport,
    *,
    config_path: Path | None,
    host: str = "127.0.0.1",
    port: int = 8765,
    token_env: str | None = "CTXHUB_TOKEN",
    name: str = SERVER_NAME,
) -> dict[str, Any]:
    """The ``{"mcpServers": {name: ...}}`` block a client needs to reach this hub."""
    if client not in CLIENTS:
        raise ConfigError(f"unknown client {client!r}; use one of {', '.join(CLIENTS)}")
    match transport:
        case "stdio":
            entry = _stdio_entry(client, config_path)
        case "sse" | "http":
            entry = _remote_entry(client, transport, host=host, port=port, token_env=token_env)
        case _:
            raise ConfigError(f"unknown transport {transport!r}; use stdio, sse or http")
    return {"mcpServers": {name: entry}}


def url_for(transport: Transport, host: str, port: int) -> str:
    """The URL a client on this machine uses; a wildcard bind is reached through 127.0.0.1."""
    shown = "127.0.0.1" if host in WILDCARD_HOSTS else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/{'sse' if transport == 'sse' else 'mcp'}"


def settings_path(client: Client, directory: Path) -> Path:
    return directory / SETTINGS_FILES[client]


def write_settings(client: Client, block: dict[str, Any], directory: Path) -> Path:
    """Merge ``block``'s servers into the client's settings file under ``directory``; return the path."""
    path = settings_path(client, directory)
    current: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(
                f"{path}: cannot be read as JSON ({exc}); fix or move it, then run again"
            ) from exc
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: the top level is not a JSON object; fix or move it, then run again")
        current = loaded
    servers = current.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ConfigError(f"{path}: 'mcpServers' is not a JSON object; fix or move it, then run again")
    current["mcpServers"] = {**servers, **block["mcpServers"]}
    _write_atomically(path, json.dumps(current, indent=2, ensure_ascii=False) + "\n")
    return path


def _stdio_entry(client: Client, config_path: Path | None) -> dict[str, Any]:
    serve = ["serve"]
    if config_path is not None:
        serve += ["--config", str(Path(config_path).expanduser().resolve())]
    executable = _ctxhub_executable()
    if executable is not None:
        entry: dict[str, Any] = {"command": str(executable), "args": serve}
    else:  # not installed: run the package from its source tree with this interpreter
        source = Path(__file__).resolve().parents[1]
        entry = {
            "command": sys.executable,
            "args": ["-m", "hub.cli", *serve],
            "env": {"PYTHONPATH": str(source)},
        }
    return {"type": "stdio", **entry} if client == "claude" else entry


def _ctxhub_executable() -> Path | None:
    # The script next to this interpreter first: an unactivated venv is not on PATH.
    sibling = Path(sys.executable).parent / "ctxhub"
    if sibling.is_file() and os.access(sibling, os.X_OK):
        return sibling.absolute()
    found = shutil.which("ctxhub")
    return Path(found).absolute() if found else None


def _remote_entry(
    client: Client, transport: Literal["sse", "http"], *, host: str, port: int, token_env: str | None
) -> dict[str, Any]:
    entry: dict[str, Any] = {"url": url_for(transport, host, port)}
    if client == "claude":
        entry = {"type": transport, **entry}
    if token_env:
        variable = f"${{{token_env}}}" if client == "claude" else f"${{env:{token_env}}}"
        entry["headers"] = {"Authorization": f"Bearer {variable}"}
    return entry


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
