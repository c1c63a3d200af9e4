"""Which project a hub's sessions belong to: the key that names its shared memory pool.

Contract: ``resolve_project(configured, workspace)`` returns a ``Project``:

- ``configured`` (``memory.project`` in config.yaml) when given: hubs with the same name share
  one pool wherever they run;
- else the git root of ``workspace``: the nearest directory at or above it holding ``.git`` (a
  directory, or the file a git worktree or submodule has). Found by looking at the file system,
  never by running git, so it costs a few ``stat`` calls and works without git installed;
- else the resolved ``workspace`` path itself.

``Project.key`` is a file-safe name (a readable slug plus a hash of the identity), so two projects
never share a pool file even when their folders have the same name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_PROJECT_NAME = 200


@dataclass(frozen=True, slots=True)
class Project:
    """A project: what the agent sees (``name``) and what makes it unique (``identity``)."""

    name: str
    identity: str
    source: Literal["config", "git", "workspace"]

    @property
    def key(self) -> str:
        slug = _UNSAFE.sub("-", self.name).strip("-.")[:40] or "project"
        digest = hashlib.sha256(self.identity.encode("utf-8")).hexdigest()[:12]
        return f"{slug}-{digest}"


def find_git_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` that holds ``.git``, or ``None``."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def resolve_project(configured: str | None, workspace: Path) -> Project:
    """The project of a hub whose workspace is ``workspace`` (see the module contract)."""
    if configured is not None:
        name = configured.strip()
        if not name or len(name) > MAX_PROJECT_NAME:
            raise ValueError(
                f"memory.project must be 1-{MAX_PROJECT_NAME} characters, got {configured!r} "
                "(or leave it out to use the git root of the workspace)"
            )
        return Project(name, f"config:{name}", "config")
    root = workspace.expanduser().resolve()
    git_root = find_git_root(root)
    if git_root is not None:
        return Project(git_root.name or str(git_root), str(git_root), "git")
    return Project(root.name or str(root), str(root), "workspace")
