"""The store's files besides the tantivy index: the directory lock, spill files and the ledger file.

- ``DirectoryLock``: an ``fcntl.flock`` on ``<path>/store.lock`` holding the owner's pid; a second
  Store on the same directory (this process or another) gets ``StoreLocked`` naming that pid. The
  kernel drops the lock when its holder dies, so a SIGKILLed hub never leaves a stale lock.
- Spill files: ``<spill_dir>/<ref><ext>``, created with ``O_EXCL|O_NOFOLLOW`` and mode 0600 in a
  directory kept at mode 0700.
- The ledger file: replaced atomically (write a temporary file, then rename), so a crash leaves
  either the old or the new ledger, never a torn one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from pathlib import Path

from context_mode.errors import StoreLocked
from context_mode.types import ContentKind

SPILL_NAME = re.compile(r"(r_[0-9a-z]+)\.(?:json|md|diff|log|txt)")
_EXTENSIONS = {
    ContentKind.JSON: ".json",
    ContentKind.MARKDOWN: ".md",
    ContentKind.DIFF: ".diff",
    ContentKind.LOG: ".log",
}


class DirectoryLock:
    """An exclusive, non-blocking lock on a store directory, held until ``release()``."""

    def __init__(self, directory: Path) -> None:
        descriptor = os.open(directory / "store.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(descriptor)
            raise StoreLocked(
                f"the store directory {directory} is in use by another ctxhub (pid {owner}); "
                "give each hub its own store path or stop the other one"
            ) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        self._descriptor: int | None = descriptor

    def release(self) -> None:
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
            os.close(descriptor)


def private_directory(directory: Path) -> Path:
    """Create ``directory`` if needed, set it to mode 0700 and return it resolved."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    return directory.resolve()


def spill_path(spill_dir: Path, ref: str, kind: ContentKind) -> Path:
    return spill_dir / f"{ref}{_EXTENSIONS.get(kind, '.txt')}"


def write_spill(path: Path, data: bytes) -> None:
    """Write a new spill file (mode 0600); raises FileExistsError rather than overwrite anything."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            written = os.write(descriptor, view)
            view = view[written:]
    except BaseException:
        os.close(descriptor)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(descriptor)


def remove_spill(path: Path | None) -> None:
    if path is not None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def stray_spill_files(spill_dir: Path, keep: set[Path]) -> list[Path]:
    """Spill files (by name) in ``spill_dir`` that no live document owns."""
    with os.scandir(spill_dir) as entries:
        paths = [Path(entry.path) for entry in entries if SPILL_NAME.fullmatch(entry.name)]
    return [path for path in paths if path not in keep]


def read_ledger(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def write_ledger(path: Path, content: str) -> None:
    """Replace ``path`` atomically with ``content``."""
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(content)
    os.replace(temporary, path)
