"""Opening a file beneath a directory without following a symlink anywhere on the way.

Contract: ``open_beneath(root, relative, flags)`` opens ``root`` as a directory, then walks
``relative`` one component at a time from that directory's descriptor (``os.open(name,
dir_fd=...)``): every directory with ``O_NOFOLLOW | O_DIRECTORY``, the last component with
``O_NOFOLLOW`` added to ``flags``. It returns the file's descriptor (the caller closes it and
``fstat``-checks what it got). A symlink met on the way fails with ``OSError`` (``ELOOP`` or
``ENOTDIR``): ``Escape`` for those two, so the caller can say the path changed or is a link.

Why: resolving a path and opening it later (``resolve()`` then ``open``) leaves a window in which
another process can swap a directory inside the root for a symlink to ``/etc``; ``O_NOFOLLOW``
on the final open covers only the last component. Walking from the root's descriptor with
``O_NOFOLLOW`` on every component closes that window: what is opened is always beneath ``root``
as it was when the walk began. ``relative`` must be already lexically clean (no ``..``; the
callers refuse it), and may be empty (``root`` itself is opened with ``flags``).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path, PurePath

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Escape(OSError):
    """A component of the path was a symlink (or stopped being a directory) while it was opened."""


def open_beneath(root: Path, relative: PurePath | str, flags: int) -> int:
    """The descriptor of ``root / relative`` reached without following any symlink under ``root``."""
    parts = [part for part in PurePath(relative).parts if part not in ("", ".")]
    if any(part == ".." or "/" in part for part in parts):
        raise ValueError(f"{relative!s} must be a plain relative path beneath {root}")
    directory = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if not parts:
            return os.open(".", flags | os.O_CLOEXEC, dir_fd=directory)
        for part in parts[:-1]:
            try:
                step = os.open(part, _DIRECTORY_FLAGS, dir_fd=directory)
            except OSError as exc:
                _raise_escape(exc, part)
                raise
            os.close(directory)
            directory = step
        try:
            return os.open(parts[-1], flags | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=directory)
        except OSError as exc:
            _raise_escape(exc, parts[-1])
            raise
    finally:
        os.close(directory)


def _raise_escape(exc: OSError, part: str) -> None:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        raise Escape(exc.errno, f"{part!r} is a symlink or not a directory", part) from exc
