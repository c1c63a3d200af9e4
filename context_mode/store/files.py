"""The store's files besides the tantivy index: the directory lock, spill files and the ledger file.

- ``DirectoryLock``: an ``fcntl.flock`` on ``<path>/store.lock`` holding the owner's pid; a second
  Store on the same directory (this process or another) gets ``StoreLocked`` naming that pid. The
  kernel drops the lock when its holder dies, so a SIGKILLed hub never leaves a stale lock.
- Spill files: ``<spill_dir>/<ref><ext>``, created with ``O_EXCL|O_NOFOLLOW`` and mode 0600. A
  directory the store creates gets mode 0700; one that exists (a folder shared with the user or
  with another hub) keeps its mode. Only files whose ref this store knows are ever removed.
- The ledger file: replaced atomically (write a temporary file, then rename), so a crash leaves
  either the old or the new ledger, never a torn one.
- The reservation journal (``reserved.log``): one line per ref handed out, appended with one
  ``write`` on an ``O_APPEND`` descriptor before the ref leaves ``reserve``; emptied once the
  ledger remembers every ref in it (at open and at close). After a crash, a ref in it that the
  index does not hold was handed out but never stored, so it reads as evicted, not unknown.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Callable
from pathlib import Path

from context_mode.errors import StoreLocked
from context_mode.types import ContentKind

JOURNAL_NAME = "reserved.log"
SPILL_NAME = re.compile(r"(r_[0-9a-z]+)\.(?:json|md|diff|log|txt)")
_REF_LINE = re.compile(r"r_[0-9a-z]{1,32}")
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
    """Create ``directory`` (mode 0700) if needed and return it resolved; an existing one keeps its mode."""
    try:
        directory.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        if not directory.is_dir():
            raise
    else:
        os.chmod(directory, 0o700)  # mkdir's mode is masked by the umask
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


def stray_spill_files(spill_dir: Path, keep: set[Path], owned: Callable[[str], bool]) -> list[Path]:
    """Spill files in ``spill_dir`` this store wrote (``owned(ref)``) that no live document keeps.

    A file named like a spill file whose ref the store does not know belongs to someone else (a
    second hub sharing ``spill_dir``, the user's own ``r_deadbeef.log``) and is never listed.
    """
    with os.scandir(spill_dir) as entries:
        found = [(Path(entry.path), SPILL_NAME.fullmatch(entry.name)) for entry in entries]
    return [path for path, match in found if match and path not in keep and owned(match.group(1))]


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


class Journal:
    """The reservation journal: refs appended as they are handed out (see the module doc)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._descriptor: int | None = os.open(
            path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600
        )

    def append(self, ref: str) -> None:
        if self._descriptor is not None:
            os.write(self._descriptor, f"{ref}\n".encode("ascii"))

    def refs(self) -> list[str]:
        """Every well-formed ref in the journal (a line torn by a crash is skipped)."""
        try:
            lines = self.path.read_bytes().decode("ascii", "replace").splitlines()
        except FileNotFoundError:
            return []
        return [line for line in lines if _REF_LINE.fullmatch(line)]

    def clear(self) -> None:
        if self._descriptor is not None:
            os.ftruncate(self._descriptor, 0)

    def close(self) -> None:
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is not None:
            os.close(descriptor)
