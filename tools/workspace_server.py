"""The bundled workspace MCP server: read-only code search and file reads confined to one root.

Run as ``python -m tools.workspace_server [--root DIR]`` (default root: the current directory); it
serves MCP over stdio and logs to stderr only. Its tools produce the large outputs the hub exists to
tame, so their text formats are a contract:

``search_code(pattern, path=".", glob=None, max_results=2000)``
    Python ``re`` search over the text files under ``path``, output like ``grep -rn -C1``: a match is
    ``rel/path:LINE:text``, a context line ``rel/path-LINE-text``, groups are separated by ``--``.
    Files are visited in sorted path order; binary files (a NUL byte in the first 8 KiB), files over
    the size cap and the directories ``.git``, ``.venv``, ``node_modules`` and ``__pycache__`` are
    skipped. ``glob`` is matched against the file name (or the relative path when it has a ``/``).
    Output lines longer than 1000 characters are cut with a ``…[+N chars]`` marker. At
    ``max_results`` matching lines the search stops with a ``[stopped at max_results=…]`` note. The
    last line is always ``N matches in M files`` (always plural, so it parses with one regex).
``read_file(path, start=1, end=None)``
    Lines ``start..end`` (1-based, inclusive) of the file, raw: no line numbers, line endings kept.
``read_log(path, tail=None)``
    The whole log, or only its last ``tail`` lines (read from the end, so huge logs are fine).

Every path is relative to the root. ``..``, absolute paths outside the root and symlinks that resolve
outside it are refused, as are non-regular files (FIFOs, devices, directories, ``/proc``) and files
over the size cap (20 MB). Files are opened from the root's directory descriptor one component at a
time without following symlinks (``tools.confined``), so a directory swapped for a symlink after
the check is refused rather than followed out of the root. Text is decoded as UTF-8 with
``errors="replace"``. A refusal reaches the client as an ``isError`` result whose message names
the path and the fix.

When its stdin closes it exits within milliseconds: ``gc.freeze`` on the way out spares the
interpreter's final collections over the SDK's objects (0.3 s, which the hub waits for at exit).

The pure part (``Workspace``, ``confine``) raises ``tools.errors.ToolInputError`` and needs no MCP;
``build_server`` imports the SDK lazily so importing this module stays cheap.
"""

from __future__ import annotations

import argparse
import fnmatch
import gc
import io
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tools.confined import Escape, open_beneath
from tools.errors import ToolInputError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

SIZE_CAP_BYTES = 20 * 1024 * 1024
SKIPPED_DIRECTORIES = frozenset({".git", ".venv", "node_modules", "__pycache__"})
SPECIAL_FILESYSTEMS = (Path("/proc"), Path("/sys"), Path("/dev"))
MAX_LINE_CHARS = 1000
_BINARY_SNIFF_BYTES = 8192
_TAIL_BLOCK_BYTES = 64 * 1024


def confine(root: Path, path: str) -> Path:
    """Resolve ``path`` against the resolved ``root``; refuse anything that lands outside it.

    Symlinks are followed before the check, so a link pointing out of the root is refused too.
    The returned path may not exist.
    """
    if "\x00" in path:
        raise ToolInputError(f"path {path!r} contains a NUL byte; pass a plain relative path")
    try:
        resolved = (root / path).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise ToolInputError(f"path {path!r} cannot be resolved ({exc}); pass another path") from exc
    if not resolved.is_relative_to(root):
        raise ToolInputError(
            f"path {path!r} is outside the workspace root {root}; pass a path relative to it"
        )
    if any(resolved.is_relative_to(special) for special in SPECIAL_FILESYSTEMS):
        raise ToolInputError(f"path {path!r} is on a special file system; pass a regular file")
    return resolved


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only, keeping each line's ending (unlike ``str.splitlines``)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


@dataclass(frozen=True, slots=True)
class Workspace:
    """The three read-only operations over one resolved root; errors are ``ToolInputError``."""

    root: Path
    size_cap: int = SIZE_CAP_BYTES

    @classmethod
    def at(cls, root: str | Path, size_cap: int = SIZE_CAP_BYTES) -> Workspace:
        resolved = Path(root).resolve()
        if not resolved.is_dir():
            raise ToolInputError(f"workspace root {resolved} is not a directory; pass an existing one")
        return cls(resolved, size_cap)

    def read_file(self, path: str, start: int = 1, end: int | None = None) -> str:
        if start < 1:
            raise ToolInputError(f"start={start} is invalid; lines are numbered from 1")
        if end is not None and end < start:
            raise ToolInputError(f"end={end} is before start={start}; pass end >= start or omit it")
        lines = split_lines(self._read_text(path))
        if start > len(lines) and lines:
            raise ToolInputError(f"start={start} is past the end of {path!r}, which has {len(lines)} lines")
        return "".join(lines[start - 1 : end])

    def read_log(self, path: str, tail: int | None = None) -> str:
        if tail is None:
            return self._read_text(path)
        if tail < 1:
            raise ToolInputError(f"tail={tail} is invalid; pass a positive line count or omit it")
        resolved = confine(self.root, path)
        with self._open_regular(path, resolved) as handle:
            size = os.fstat(handle.fileno()).st_size
            data = _read_tail_bytes(handle, size, tail, self.size_cap)
        lines = split_lines(data.decode("utf-8", errors="replace"))
        return "".join(lines[-tail:])

    def search_code(
        self, pattern: str, path: str = ".", glob: str | None = None, max_results: int = 2000
    ) -> str:
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            raise ToolInputError(
                f"pattern {pattern!r} is not a valid regular expression ({exc}); "
                "escape special characters such as ( [ . * with a backslash"
            ) from exc
        if max_results < 1:
            raise ToolInputError(f"max_results={max_results} is invalid; pass a positive number")
        base = confine(self.root, path)
        if not base.exists():
            raise ToolInputError(f"path {path!r} does not exist under the workspace root {self.root}")
        out: list[str] = []
        matches = files = 0
        for file in self._walk(base, glob):
            text = self._searchable_text(file)
            if text is None:
                continue
            lines = [line.rstrip("\r") for line in text.split("\n")]
            if lines and lines[-1] == "":
                lines.pop()
            hits = [number for number, line in enumerate(lines) if regex.search(line)]
            if not hits:
                continue
            hits = hits[: max_results - matches]
            files += 1
            matches += len(hits)
            out.extend(_format_groups(file.relative_to(self.root).as_posix(), lines, hits, bool(out)))
            if matches >= max_results:
                out.append(
                    f"[stopped at max_results={max_results} matching lines; narrow the pattern, "
                    "path or glob, or raise max_results, to see any more]"
                )
                break
        out.append(f"{matches} matches in {files} files")
        return "\n".join(out)

    def _walk(self, base: Path, glob: str | None) -> Iterator[Path]:
        if base.is_file():
            candidates = [base]
        else:
            candidates = []
            for directory, subdirectories, names in os.walk(base):
                subdirectories[:] = [d for d in subdirectories if d not in SKIPPED_DIRECTORIES]
                candidates.extend(Path(directory, name) for name in names)
        for file in sorted(candidates, key=lambda p: p.relative_to(self.root).as_posix()):
            relative = file.relative_to(self.root).as_posix()
            if glob is not None and not _matches_glob(relative, glob):
                continue
            # A symlinked file may point outside the root; search only what resolves inside it.
            if file.is_symlink() and not file.resolve().is_relative_to(self.root):
                continue
            yield file

    def _searchable_text(self, file: Path) -> str | None:
        """The file's text, or None for what a search skips (binary, special, too big, unreadable)."""
        try:
            with self._open_regular(str(file), file) as handle:
                if os.fstat(handle.fileno()).st_size > self.size_cap:
                    return None
                data = handle.read(self.size_cap + 1)
        except (ToolInputError, OSError):
            return None
        if len(data) > self.size_cap or b"\x00" in data[:_BINARY_SNIFF_BYTES]:
            return None
        return data.decode("utf-8", errors="replace")

    def _read_text(self, path: str) -> str:
        resolved = confine(self.root, path)
        with self._open_regular(path, resolved) as handle:
            too_big = os.fstat(handle.fileno()).st_size > self.size_cap
            data = b"" if too_big else handle.read(self.size_cap + 1)
        if too_big or len(data) > self.size_cap:
            raise ToolInputError(
                f"file {path!r} is over the {_describe_size(self.size_cap)} size cap; "
                "read a line range with read_file(start, end) or read_log(tail)"
            )
        return data.decode("utf-8", errors="replace")

    def _open_regular(self, path: str, resolved: Path) -> io.BufferedReader:
        """Open for reading without blocking on a FIFO, and refuse anything but a regular file."""
        try:
            descriptor = self._open_beneath_root(path, resolved)
        except FileNotFoundError as exc:
            raise ToolInputError(
                f"file {path!r} does not exist under the workspace root {self.root}; find it with this "
                "server's search_code tool (through ctxhub: <namespace>__search_code, "
                "e.g. workspace__search_code)"
            ) from exc
        except IsADirectoryError as exc:
            raise ToolInputError(f"path {path!r} is a directory; pass a file inside it") from exc
        except OSError as exc:
            raise ToolInputError(f"file {path!r} cannot be opened ({exc.strerror})") from exc
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            os.close(descriptor)
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (FIFO, socket or device)"
            raise ToolInputError(f"path {path!r} is {kind}; pass a regular file")
        return os.fdopen(descriptor, "rb")

    def _open_beneath_root(self, path: str, target: Path) -> int:
        """Open ``target`` (under the root) with no symlink followed; a link inside the root is re-resolved.

        ``search_code`` walks names as listed, so a symlinked file or directory that resolves inside
        the root is opened through its resolved path; a symlink that appears on that path as well
        is a swap in progress and is refused.
        """
        flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY
        try:
            return open_beneath(self.root, target.relative_to(self.root), flags)
        except (Escape, ValueError):
            resolved = confine(self.root, str(target))
        try:
            return open_beneath(self.root, resolved.relative_to(self.root), flags)
        except Escape as exc:
            raise ToolInputError(
                f"path {path!r} changed while it was being opened (a directory on it became a symlink); "
                "it is refused, read it again once nothing moves it"
            ) from exc


def _read_tail_bytes(handle: io.BufferedReader, size: int, lines: int, cap: int) -> bytes:
    """The end of the file holding at least ``lines`` lines (or all of it), reading at most ``cap`` bytes."""
    data = b""
    position = size
    while position > 0 and data.count(b"\n") <= lines and len(data) < cap:
        step = min(_TAIL_BLOCK_BYTES, position)
        position -= step
        handle.seek(position)
        data = handle.read(step) + data
    return data


def _describe_size(size: int) -> str:
    return f"{size // 2**20} MB" if size >= 2**20 and size % 2**20 == 0 else f"{size} bytes"


def _matches_glob(relative: str, glob: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    if "/" not in glob:
        return fnmatch.fnmatchcase(name, glob)
    return fnmatch.fnmatchcase(relative, glob) or (
        glob.startswith("**/") and fnmatch.fnmatchcase(relative, glob[3:])
    )


def _format_groups(relative: str, lines: list[str], hits: list[int], separate_first: bool) -> list[str]:
    """grep -n -C1 output for one file: match lines ``p:N:t``, context ``p-N-t``, ``--`` between groups."""
    hit_set = set(hits)
    out: list[str] = []
    last_shown = -2
    for hit in hits:
        first = max(hit - 1, last_shown + 1, 0)
        if first > last_shown + 1 and (out or separate_first):
            out.append("--")
        for number in range(first, min(hit + 2, len(lines))):
            mark = ":" if number in hit_set else "-"
            out.append(f"{relative}{mark}{number + 1}{mark}{_clip(lines[number])}")
            last_shown = number
    return out


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return f"{line[:MAX_LINE_CHARS]}…[+{len(line) - MAX_LINE_CHARS} chars]"


def build_server(workspace: Workspace) -> MCPServer:
    """The MCP server exposing ``workspace``; refusals become ``ToolError`` (an ``isError`` result)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    server: MCPServer = MCPServer(
        "workspace",
        version="0.1.0",
        instructions=f"Read-only search and reads of the files under {workspace.root}.",
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

    def search_code(pattern: str, path: str = ".", glob: str | None = None, max_results: int = 2000) -> str:
        try:
            return workspace.search_code(pattern, path, glob, max_results)
        except ToolInputError as exc:
            raise ToolError(str(exc)) from exc

    def read_file(path: str, start: int = 1, end: int | None = None) -> str:
        try:
            return workspace.read_file(path, start, end)
        except ToolInputError as exc:
            raise ToolError(str(exc)) from exc

    def read_log(path: str, tail: int | None = None) -> str:
        try:
            return workspace.read_log(path, tail)
        except ToolInputError as exc:
            raise ToolError(str(exc)) from exc

    described: list[tuple[Callable[..., str], str]] = [
        (
            search_code,
            "Regex search (Python re) of workspace files; grep -rn -C1 style lines "
            "'path:LINE:text', ending with 'N matches in M files'. glob filters file names.",
        ),
        (read_file, "Read lines start..end (1-based, inclusive) of a workspace text file."),
        (read_log, "Read a workspace log file, or only its last `tail` lines."),
    ]
    for function, description in described:
        server.add_tool(function, description=description, annotations=read_only, structured_output=False)
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.workspace_server", description="Serve a read-only workspace over MCP stdio."
    )
    parser.add_argument("--root", default=".", help="the directory the tools may read (default: .)")
    arguments = parser.parse_args(argv)
    try:
        workspace = Workspace.at(arguments.root)
    except ToolInputError as exc:
        parser.error(str(exc))
    build_server(workspace).run("stdio")
    # The interpreter's last collections walk the ~80k objects the SDK left alive: 0.3 s that the
    # client (the hub, at every exit) waits for. Nothing here needs a cycle's finalizer to run.
    gc.freeze()


if __name__ == "__main__":
    main()
