"""A package manifest's changed lines that say how the package is loaded and tested.

``is_manifest(path)`` says whether a changed file is an npm manifest (``package.json``);
``entry_lines(lines, start, end)`` returns the changed lines between ``start`` and ``end`` (one
file's hunks) that set what Node reads to load or run the package, at the top level (``"main"``,
``"exports"`` given as a string, ``"type"``, ``"bin"``), or its test and build commands (the
``"test"`` and ``"build"`` scripts): added before removed. A change of module format
(``"type": "module"``, ``"main": "./dist/commonjs/index.js"``) breaks whoever imports the
package, and a new test command says how its checks now run; among a manifest's dozens of
re-pinned dependencies these are what a reviewer looks for first. Bundlers' and TypeScript's
hints (``"module"``, ``"types"``) and a nested key (a conditional export's) are not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PREFIX = 400
_ENTRY = re.compile(
    r"""[+-](?:(?: {1,2}|\t)"(?:main|type|bin|exports)"|\s*"(?:test|build)")"""
    r"""\s*:\s*"[^"]"""
)


def is_manifest(path: str) -> bool:
    """Whether the file at ``path`` is an npm package manifest."""
    return path.rsplit("/", 1)[-1] == "package.json"


def entry_lines(lines: Sequence[str], start: int, end: int) -> list[int]:
    """The changed lines of ``lines[start:end]`` that set an entry point or the test or build
    command, the added ones first."""
    found = [index for index in range(start, end) if _ENTRY.match(lines[index][:_PREFIX])]
    return sorted(found, key=lambda index: (lines[index][:1] == "-", index))
