"""Argument checks of the ``context_*`` tools: each bad value raises ``ToolInputError`` naming it.

Contract: ``checked(run, allowed)`` rejects unknown argument names before ``run``; the readers
(``text``, ``flag``, ``limit``, ``scope``, ``refs``, ...) return the value or raise with the name,
what was given and what is accepted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tools.errors import ToolInputError

MAX_RECALL_LIMIT = 50
MAX_SUPERSEDES = 10


def checked(
    run: Callable[[dict[str, Any]], str], allowed: tuple[str, ...]
) -> Callable[[dict[str, Any]], str]:
    def checked(arguments: dict[str, Any]) -> str:
        text_keys(arguments, allowed)
        return run(arguments)

    return checked


def text_keys(arguments: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(arguments, dict):
        raise ToolInputError(f"arguments must be an object, got {type(arguments).__name__}")
    unknown = sorted(set(arguments) - set(allowed))
    if unknown:
        accepted = ", ".join(allowed) or "none"
        raise ToolInputError(f"unknown argument {shown(unknown[0])} (accepted: {accepted})")


def text(arguments: dict[str, Any], name: str) -> str:
    value = arguments.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ToolInputError(f"{name} must be a non-empty string, got {shown(value)}")
    return value


def optional_text(arguments: dict[str, Any], name: str) -> str:
    value = arguments.get(name, "")
    if not isinstance(value, str):
        raise ToolInputError(f"{name} must be a string, got {shown(value)}")
    return value


def scope(arguments: dict[str, Any]) -> str:
    value = arguments.get("scope", "session")
    if value not in ("session", "project"):
        raise ToolInputError(f"scope must be 'session' or 'project', got {shown(value)}")
    return str(value)


def refs(arguments: dict[str, Any], name: str) -> tuple[str, ...]:
    value = arguments.get(name, [])
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list)
        or len(value) > MAX_SUPERSEDES
        or not all(isinstance(item, str) and item.strip() for item in value)
    ):
        raise ToolInputError(
            f"{name} must be a list of at most {MAX_SUPERSEDES} refs like 'task-a#8', got {shown(value)}"
        )
    return tuple(item.strip() for item in value)


def flag(arguments: dict[str, Any], name: str) -> bool:
    value = arguments.get(name, False)
    if not isinstance(value, bool):
        raise ToolInputError(f"{name} must be true or false, got {shown(value)}")
    return value


def limit(arguments: dict[str, Any]) -> int:
    value = arguments.get("limit", 5)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RECALL_LIMIT:
        raise ToolInputError(f"limit must be an integer from 1 to {MAX_RECALL_LIMIT}, got {shown(value)}")
    return value


def shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)[:60]
