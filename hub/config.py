"""config.yaml → validated, frozen settings for the hub.

Contract: ``load_config(path)`` reads YAML with ``yaml.safe_load``, expands ``${VAR}`` and
``${VAR:-default}`` in every string, accepts downstreams under ``servers:`` or ``mcpServers:``
(the Claude Code / Cursor shape: ``command``/``args``/``env``/``cwd`` or ``url``/``headers``/``type``),
rejects unknown keys and bad values, and raises one ``ConfigError`` whose message names the file,
the key path, the bad value and the fix. ``${CTXHUB_PYTHON}`` expands to the hub's own interpreter,
so the bundled config starts Python servers from the same environment.
"""

from __future__ import annotations

import os
import re
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from context_mode.toolnames import READ_WORDS
from context_mode.types import OutputStyle
from hub.errors import ConfigError
from hub.policy_config import FeedbackSettings, FieldsSettings

DEFAULT_CONFIG = Path(__file__).with_name("default_config.yaml")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ToolSettings(_Model):
    """Per-tool settings under ``servers.<name>.tools.<glob>``."""

    mode: OutputStyle | None = None
    # off/false: never deduplicated (counted as a write); true: read-only in cache.mode; or the mode itself
    cache: bool | Literal["off", "verify", "trust"] | None = None
    summarizer: Literal["extractive", "llm"] | None = None  # llm: opt-in, needs summarizer.llm
    fields: FieldsSettings | None = None  # JSON path globs pruned before routing
    drop_empty: bool | None = None  # drop null, "", [] and {} members of JSON results
    budget: int | None = Field(default=None, ge=200)  # bytes of stage 1; null inherits
    retention_floor: float | None = Field(default=None, ge=0, le=1)  # 0 turns the floor off here

    @field_validator("mode", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("cache", mode="after")
    @classmethod
    def _off(cls, value: Any) -> Any:
        return False if value == "off" else value  # YAML reads a bare `off` as false already


class ServerConfig(_Model):
    """One downstream MCP server in the ``mcpServers`` shape."""

    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    transport: Literal["stdio", "sse", "http"] | None = Field(default=None, alias="type")
    enabled: bool = True
    disabled: bool = False
    timeout: float = Field(default=60.0, gt=0)
    startup_timeout: float = Field(default=30.0, gt=0)
    restart_delay: float = Field(default=0.5, ge=0.01, le=30.0)  # first retry; doubles up to 30 s
    namespace: str | None = None
    passthrough: bool = False  # expose tools and prompts under their own names, without '<namespace>__'
    tools: dict[str, ToolSettings] = Field(default_factory=dict)
    budget: int | None = Field(default=None, ge=200)  # bytes of stage 1 for this server's tools
    retention_floor: float | None = Field(default=None, ge=0, le=1)

    @field_validator("transport", mode="before")
    @classmethod
    def _transport_alias(cls, value: Any) -> Any:
        aliases = {"streamable-http": "http", "streamable_http": "http", "streamableHttp": "http"}
        return aliases.get(value, value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _one_kind(self) -> ServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError(
                "give either 'command' (a stdio server) or 'url' (a remote server), not both or neither"
            )
        if self.url is not None and self.transport == "stdio":
            raise ValueError("a server with a 'url' needs transport 'http' or 'sse', not 'stdio'")
        if self.command is not None and self.transport not in (None, "stdio"):
            raise ValueError(
                "a server with a 'command' is a stdio server; remove 'type'/'transport' or set it to stdio"
            )
        return self

    @property
    def kind(self) -> Literal["stdio", "sse", "http"]:
        if self.command is not None:
            return "stdio"
        if self.transport is not None:
            return self.transport
        return "sse" if self.url is not None and self.url.rstrip("/").endswith("/sse") else "http"

    @property
    def active(self) -> bool:
        return self.enabled and not self.disabled


class RoutingConfig(_Model):
    direct_max_bytes: int = Field(default=2048, ge=0)
    direct_max_code_lines: int = Field(default=30, ge=0)
    directive_threshold: int | None = Field(default=None, ge=0)  # null: AUTO output is never a Directive
    direct_hard_cap: int = Field(default=50_000, ge=1)
    summary_budget: int = Field(default=1500, ge=200)
    summary_budget_max: int = Field(default=6000, ge=200)
    error_cap: int = Field(default=4000, ge=200)
    budget: int | None = Field(default=None, ge=200)  # stage-1 bytes of every tool; null: summary_budget
    retention_floor: float | None = Field(default=None, ge=0, le=1)
    feedback: FeedbackSettings = Field(default_factory=FeedbackSettings)
    intent_argument: str = Field(default="intent", pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$|^$")
    # a result over 64 kB whose summary takes longer is answered with a Directive to its stored copy
    summary_seconds: float = Field(default=10.0, gt=0)

    @model_validator(mode="after")
    def _budget_range(self) -> RoutingConfig:
        if self.summary_budget_max < self.summary_budget:
            raise ValueError(
                f"summary_budget_max {self.summary_budget_max} is below summary_budget {self.summary_budget} "
                "(set it at least as high, or equal for a fixed budget)"
            )
        return self


class CacheConfig(_Model):
    enabled: bool = True
    ttl: float = Field(default=300.0, gt=0)
    max_entries: int = Field(default=1024, ge=1)
    # Words (or whole-name globs) of tools treated as read-only; see context_mode/toolnames.py.
    read_only: list[str] = Field(default_factory=lambda: list(READ_WORDS))
    repeat: Literal["pointer", "replay"] = "pointer"
    # verify: a repeat still calls the downstream and answers "same result" or a delta; trust: from memory
    mode: Literal["verify", "trust"] = "verify"
    delta_max_bytes: int = Field(default=4096, ge=0)  # a bigger change is routed as a first call


class StoreConfig(_Model):
    path: str | None = None
    max_bytes: int = Field(default=512 * 2**20, ge=1024)
    max_age: float | None = Field(default=None, gt=0)
    spill_dir: str | None = None
    mask_secrets: bool = True  # mask passwords, keys and tokens before anything is written to disk
    call_log: int = Field(default=10_000, ge=0)  # recent calls kept in calls.jsonl for the dashboard; 0: off


class HttpConfig(_Model):
    """``ctxhub serve --transport http|sse``: bounds of the HTTP server."""

    # concurrent /sse streams, and separately /mcp requests; 503 past it (hub/serve/http_limits.py)
    max_connections: int = Field(default=1000, ge=1, le=100_000)


class MemoryConfig(_Model):
    budget: int = Field(default=4000, ge=100)
    window: int = Field(default=20, ge=1)
    max_protected: int = Field(default=10, ge=0)
    protected_keywords: list[str] | None = None
    # Project memory: sessions of one project share decisions. The project is this name, else the
    # git root of $CTXHUB_WORKSPACE (or the working directory), else that directory.
    project: str | None = Field(default=None, min_length=1, max_length=200)
    project_budget: int = Field(default=600, ge=50)  # tokens of the block a new session opens with
    promote: Literal["protected", "pinned", "none"] = "protected"  # shared without scope="project"


class LLMConfig(_Model):
    base_url: str
    model: str
    timeout: float = Field(default=60.0, gt=0)
    api_key: str | None = None


class SummarizerConfig(_Model):
    llm: LLMConfig | None = None


class ToolSurfaceConfig(_Model):
    mode: Literal["all", "lazy", "auto"] = "auto"  # auto: lazy when more than max_tools would be listed
    max_tools: int = Field(default=40, ge=1)
    pin: list[str] = Field(default_factory=list)  # globs of exposed names always listed in full


class ReloadConfig(_Model):
    enabled: bool = True  # ctxhub serve applies valid edits of its config file while it runs
    interval: float = Field(default=1.0, gt=0, le=60)  # seconds between checks of the file


class HubConfig(_Model):
    """The whole config file."""

    servers: dict[str, ServerConfig] = Field(default_factory=dict)
    routing: RoutingConfig = Field(default_factory=RoutingConfig)
    cache: CacheConfig = Field(default_factory=CacheConfig)
    store: StoreConfig = Field(default_factory=StoreConfig)
    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    http: HttpConfig = Field(default_factory=HttpConfig)
    summarizer: SummarizerConfig = Field(default_factory=SummarizerConfig)
    tool_surface: ToolSurfaceConfig = Field(default_factory=ToolSurfaceConfig)
    reload: ReloadConfig = Field(default_factory=ReloadConfig)
    ingest_roots: list[str] = Field(default_factory=list)
    # seconds tools/prompts/resources list calls wait for servers still starting; late ones join
    # later with list_changed (hub/serve/server.py)
    list_wait: float = Field(default=2.0, ge=0, le=60)
    ingest_allow_hardlinks: bool = False  # a file with several links may be one outside the roots
    source: str = Field(default="<defaults>", exclude=True)

    @field_validator("servers")
    @classmethod
    def _server_names(cls, servers: dict[str, ServerConfig]) -> dict[str, ServerConfig]:
        for name in servers:
            if not name or "__" in name:
                raise ValueError(f"server name {name!r} must be non-empty and must not contain '__'")
        return servers

    def active_servers(self) -> dict[str, ServerConfig]:
        return {name: server for name, server in self.servers.items() if server.active}

    def store_path(self) -> Path:
        if self.store.path:
            return Path(self.store.path).expanduser()
        cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(cache_home) / "ctxhub" / "store"


def default_config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The config used without ``--config``: ``CTXHUB_CONFIG``, then a file by one of ctxhub's own names.

    Looked up in order: ``$CTXHUB_CONFIG``; ``./ctxhub.yaml``; ``./.ctxhub/config.yaml``;
    ``$XDG_CONFIG_HOME/ctxhub/config.yaml`` (``~/.config/ctxhub/config.yaml``); else the packaged
    default. A generic name such as a project's own ``./config.yaml`` is never read implicitly.
    """
    env = os.environ if environ is None else environ
    if env.get("CTXHUB_CONFIG"):
        return Path(env["CTXHUB_CONFIG"]).expanduser()
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    config_home = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    for candidate in (
        Path("ctxhub.yaml"),
        Path(".ctxhub") / "config.yaml",
        config_home / "ctxhub" / "config.yaml",
    ):
        if candidate.is_file():
            return candidate.absolute()
    return DEFAULT_CONFIG


def load_config(path: Path | str | None = None, *, environ: Mapping[str, str] | None = None) -> HubConfig:
    """Read, expand and validate a config file; raise ``ConfigError`` naming what is wrong."""
    file = Path(path) if path is not None else default_config_path()
    try:
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file (pass --config with an existing path)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot be read ({exc}); check the path and its permissions") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{file}: is not valid YAML ({exc}); fix the syntax at the line shown") from exc
    return parse_config(raw, source=str(file), environ=environ)


def parse_config(
    raw: Any, *, source: str = "<config>", environ: Mapping[str, str] | None = None
) -> HubConfig:
    """Validate an already-parsed YAML document (``None`` means all defaults)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(
            f"{source}: the top level must be a mapping of keys (servers:, routing:, …), not {_show(raw)}"
        )
    env = dict(os.environ if environ is None else environ)
    env.setdefault("CTXHUB_PYTHON", sys.executable)
    data = _expand(raw, env, source, ())
    if "mcpServers" in data:
        if "servers" in data:
            raise ConfigError(f"{source}: both 'servers' and 'mcpServers' are set; keep one of them")
        data["servers"] = data.pop("mcpServers")
    try:
        config = HubConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source)) from None
    return config.model_copy(update={"source": source})


def _expand(value: Any, env: Mapping[str, str], source: str, path: tuple[str, ...]) -> Any:
    if isinstance(value, str):

        def substitute(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(2)
            if name in env:
                return env[name]
            if default is not None:
                return default
            raise ConfigError(
                f"{source}: {'.'.join(path) or '<top>'}: ${{{name}}} is not set "
                f"(export {name}, or write ${{{name}:-default}})"
            )

        return _VAR.sub(substitute, value)
    if isinstance(value, dict):
        return {key: _expand(item, env, source, (*path, str(key))) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand(item, env, source, (*path, str(index))) for index, item in enumerate(value)]
    return value


def _describe(exc: ValidationError, source: str) -> str:
    lines = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "<top>"
        if error["type"] == "extra_forbidden":
            allowed = _allowed_keys(error["loc"][:-1])
            fix = f"remove it or use one of: {', '.join(allowed)}" if allowed else "remove it"
            lines.append(f"{source}: {where}: unknown key ({fix})")
        else:
            message = error["msg"].removeprefix("Value error, ")
            lines.append(f"{source}: {where}: {_show(error.get('input'))} is not valid: {message}")
    return "; ".join(lines)


def _allowed_keys(loc: tuple[Any, ...]) -> list[str]:
    """The keys accepted at ``loc`` (a pydantic error location), for the fix in an unknown-key error."""
    model: Any = HubConfig
    for part in loc:
        if isinstance(model, type) and issubclass(model, BaseModel):
            field = model.model_fields.get(str(part))
            if field is None:
                return []
            model = field.annotation
        else:  # a dict key or list index: descend into the container's model type
            model = next((arg for arg in getattr(model, "__args__", ()) if _is_model(arg)), None)
        if isinstance(model, types.UnionType):  # unwrap `Model | None`
            model = next((arg for arg in model.__args__ if _is_model(arg)), model)
    if _is_model(model):
        return sorted(field.alias or name for name, field in model.model_fields.items() if name != "source")
    return []


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
