"""Routing limits (from config.yaml ``routing:``) and the output-style tag of each tool.

Contract: ``resolve_style`` picks a tool's tag from, strongest first, the config's per-tool globs,
a hint in the downstream tool's ``_meta``, then defaults from the tool's name (a tool whose name
holds the word ``log``/``logs`` yields log content and is summarised; ``login`` is not one),
else ``AUTO``. It returns the tag and where it came from.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from context_mode.toolnames import is_log_tool
from context_mode.types import OutputStyle

META_STYLE_KEYS = (
    "ctxhub/context_mode",
    "ctxhub/output_style",
    "outputStyle",
    "output_style",
    "context_mode",
)


@dataclass(frozen=True, slots=True)
class RoutingPolicy:
    """Size limits that decide Direct, Summary and Directive (bytes are UTF-8 bytes)."""

    direct_max_bytes: int = 2048
    direct_max_code_lines: int = 30
    # None: an AUTO output is never a Directive (a Summary shows at least its first and last
    # lines); a size: above it, AUTO output in which nothing stands out becomes a Directive.
    directive_threshold: int | None = None
    direct_hard_cap: int = 50_000  # characters, as Claude Code counts before spilling to a file
    summary_budget: int = 1500  # the least a Summary's stage 1 may take…
    summary_budget_max: int = 6000  # …and the most, spent by how much distinct salient content there is
    error_cap: int = 4000
    pass_whole: bool = False  # a retention floor of 1.0: the result is never cut (context_mode.budgets)
    intent_argument: str = "intent"  # the optional argument every proxied tool gains ("": none)


@dataclass(frozen=True, slots=True)
class StyleChoice:
    style: OutputStyle
    source: str  # "config", "meta", "name" or "default"


def resolve_style(
    tool: str,
    *,
    config_modes: Mapping[str, OutputStyle] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> StyleChoice:
    """The tag for ``tool`` (the downstream's own tool name) and the source it came from."""
    for pattern, style in (config_modes or {}).items():
        if fnmatch.fnmatchcase(tool, pattern):
            return StyleChoice(style, "config")
    hint = _meta_hint(meta or {})
    if hint is not None:
        return StyleChoice(hint, "meta")
    if is_log_tool(tool):
        return StyleChoice(OutputStyle.SUMMARY, "name")
    return StyleChoice(OutputStyle.AUTO, "default")


def _meta_hint(meta: Mapping[str, Any]) -> OutputStyle | None:
    for key, value in meta.items():
        if not isinstance(value, str):
            continue
        if key in META_STYLE_KEYS or key.rsplit("/", 1)[-1] in META_STYLE_KEYS:
            try:
                return OutputStyle(value.upper())
            except ValueError:
                continue
    return None
