"""Lazy exports for a part's package: a name is imported from its private module on first use.

``ctxhub serve`` starts its stdio servers before it imports the MCP SDK, so the packages whose
modules load the SDK (``hub.downstream``, ``hub.serve``) must not import them all up front.
A package assigns ``__getattr__ = lazy_exports(__name__, {name: module})``; type checkers read
the same names from the package's ``if TYPE_CHECKING:`` imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that loads ``package.<exports[name]>`` and returns its ``name``."""
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return __getattr__
