"""Directory trees and path lists: totals, extensions, and every directory with its file names.

Input: a JSON tree of ``{"name", "type", "children"}`` nodes (the filesystem MCP server's
``directory_tree``; ``tree -J`` names them ``contents``), its ``list_directory`` lines (``[FILE]
a.py``, ``[DIR] src``) or one path per line (``search_files``, ``find``, ``git ls-files``;
Desktop Commander's ``📁 /src/a.py``, its session's own lines shown as they are), or test
ids (``pytest --collect-only -q``: each test file is a line of its tests, and the runner's own lines
are kept at the end); a ``git status`` goes to ``summaries.git_status``, a listing with a size on
every line (``du``, ``find -printf '%s %p'``, ``list_directory_with_sizes``) to
``summaries.sized_listing``. The summary says how many files and directories there are under which
root and which extensions, a path list's first and last lines as they are (``first: …``, ``last:
…``: a search's first and last result), a JSON tree's closing record as it is (``tree -J``'s report)
and, where its files' lines state sizes (``tree -J -s``), its biggest files' lines with their
directories (at most ``BIGGEST_SHARE`` of the budget), then one line per directory in input order:
``dir/ (N files): a.py, b.py, …`` with as many of its entries as fit (names exactly as in the
payload, a JSON tree's files as its members, ``"name": "a.py"``, with the comma that follows each
where one does, ``"name": "a.py",``, the separator then, ``list_directory``'s entries as its
lines, ``[FILE] a.py``, ``[DIR] src``; other subdirectories end in ``/``; none is named again when
it has a line of its own). In a path list (one path per line) a line that names a file opens with
its first file's whole path as the payload writes it, which names the directory too: ``(2 files)
/srv/app/doc/conf.py, cog_helpers.py`` (a path an agent can use as it is). Directory lines take at most
``DIRECTORY_SHARE`` of the budget (a line alone names no file); names are given in turns, one of
every directory before a second of any, so small and deep directories show whole and no directory
takes the budget; deepest directories are given up first when their lines do not fit. Directories
and names mentioning the call's terms come first; a name ``_COMMON`` or more shown directories hold
(``__init__.py``) comes after a directory's own names. Directories one path part apart holding the same
entries (``locale/af/LC_MESSAGES/``, ``locale/de/LC_MESSAGES/``…), ``FOLD_MIN`` or more, are one
line: ``locale/*/LC_MESSAGES/ (96 directories: af, ar, ar_DZ, …, zh_Hant; 4 files each): …``.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence

from context_mode.shapes import (
    BOX_LINE,
    GIT_ENTRY,
    LISTED_ENTRY,
    TEST_ID,
    found_files,
    is_git_status,
    is_sized_listing,
)
from context_mode.summaries import json_tree
from context_mode.summaries.drawn_tree import summarize_drawn_tree
from context_mode.summaries.extract import Extract
from context_mode.summaries.git_status import summarize_git_status
from context_mode.summaries.packing import size, split_lines
from context_mode.summaries.sized_listing import summarize_sized_listing
from context_mode.types import ContentKind

_FOUND_READ = 4000  # characters looked at for Desktop Commander's ``📁`` lines
_OWN_LINES = 8  # of its session's lines (``Total results found: 2623``; its last two, what is left
# to fetch and that it completed, among them), shown as they are
_MAX_ENTRIES = 200_000
_SIZED_SAMPLE = 16384  # characters of the start read to tell a listing with sizes
_TEST_TAIL = 2  # a test list's last lines of the runner's own (its count) kept
_MARKER = 10  # room kept per directory line for its ``, … +N`` and newline
FOLD_MIN = 4  # directories alike (one path part apart, the same entries) folded into one line
_FOLD_PARTS = 64  # a directory with more path parts than this is never folded
_FAMILY_NAMES = 4  # the differing parts of a folded family named (the first ones and the last)
DIRECTORY_SHARE = 0.6  # of the budget, at most, for directory lines; names get the rest
_END_READ = 4096  # characters read at each end for a path list's first and last lines
_COMMON = 3  # directories shown holding one name, at least, for it to come after their other names
BIGGEST_SHARE = 0.25  # of the budget, at most, for a sized JSON tree's biggest files


def summarize_tree(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Totals and per-directory listings of a tree or path list in ``budget`` bytes."""
    if _is_drawn(text):
        return summarize_drawn_tree(text, budget=budget, terms=terms)
    if is_git_status(split_lines(text[:4096])):
        return summarize_git_status(text, budget=budget, terms=terms)
    if is_sized_listing(split_lines(text[:_SIZED_SAMPLE])):
        return summarize_sized_listing(text, budget=budget, terms=terms)
    found = found_files(split_lines(text)) if "📁 " in text[:_FOUND_READ] else None
    own: list[str] = []
    if found is not None:  # Desktop Commander's file search: its paths, and its session's lines
        text = "\n".join(found[0])
        own = found[1] if len(found[1]) <= _OWN_LINES else [*found[1][: _OWN_LINES - 2], *found[1][-2:]]
    tests = _test_ids(text)
    entries, sized, spell = (tests[0], [], _as_listed) if tests else _entries(text)
    paths = not tests and spell is _as_listed and not _is_json(text)  # one path per line, as written
    if not entries:
        from context_mode.summaries.text import summarize_text

        return summarize_text(text, budget=budget, terms=terms)
    tail = tests[1] if tests else []
    if sum(size(line) + 1 for line in tail) * 2 > budget:
        tail = []  # the runner's own lines may take half the room at most
    budget -= sum(size(line) + 1 for line in tail)
    root = _root(entries)
    by_dir: dict[str, list[str]] = {}
    files = 0
    dirs = {path for path, is_dir in entries if is_dir}
    extensions: Counter[str] = Counter()
    for path, is_dir in entries:
        parent, name = os.path.split(path)
        by_dir.setdefault(parent, []).append(name + ("/" if is_dir else ""))
        if not is_dir:
            files += 1
            extensions[_extension(name)] += 1
    lowered = [t.lower() for t in terms if t]
    head = [f"{files} files, {len(dirs)} directories" + (f" under {root}" if root else "")]
    if tests:
        head = [f"{files} tests in {len(dirs)} files" + (f" under {root}" if root else "")]
    elif extensions:
        head.append("extensions: " + ", ".join(f"{ext} ×{n}" for ext, n in extensions.most_common(8)))
    if not tests:
        head.extend(own)
        head.extend(_ends(text))
        head.extend(json_tree.report(text))
        head.extend(
            json_tree.biggest(
                text,
                sized,
                budget=int(budget * BIGGEST_SHARE),
                where=lambda directory: f"{_relative(directory, root) or '.'}/",
            )
        )
    used = sum(size(line) + 1 for line in head)
    by_dir, folded = _fold(by_dir) if not tests else (by_dir, {})
    hidden = {member for members in folded.values() for member in members}
    position = {d: i for i, d in enumerate(by_dir)}

    def matches(directory: str) -> bool:
        return any(t in name.lower() for name in by_dir[directory] for t in lowered)

    # directories with a name the call asks about first, then shallow before deep
    order = sorted(by_dir, key=lambda d: (not matches(d), d.count("/"), position[d]))
    prefixes: dict[str, str] = {}
    files_in = {d: sum(not n.endswith("/") for n in names) for d, names in by_dir.items()}
    for directory in order:
        label = _relative(directory, root) or "."
        count = files_in[directory]
        prefix = f"{label} ({count} tests): " if tests else f"{label}/ ({count} files): "
        if directory in folded:
            prefix = f"{label}/ ({_family(folded[directory], directory)}; {count} files each): "
        if used + size(prefix) + _MARKER > budget * DIRECTORY_SHARE:
            continue  # the rest of the room is for names: a directory's line alone names no file
        prefixes[directory] = prefix
        used += size(prefix) + _MARKER
    # A subdirectory with its own line (or folded into a family's) is not named again in its parent's.
    elsewhere = prefixes.keys() | hidden
    # a name many directories hold (``__init__.py``, ``Makefile``) tells least of any one of them
    common = {name for name, n in Counter(n for d in prefixes for n in by_dir[d]).items() if n >= _COMMON}
    listed = {
        directory: sorted(
            (n for n in by_dir[directory] if not (n.endswith("/") and _join(directory, n) in elsewhere)),
            key=lambda n: (not any(t in n.lower() for t in lowered), n in common),
        )
        for directory in prefixes
    }
    # A directory holding only subdirectories with lines of their own says nothing more.
    for directory in [d for d, names in listed.items() if not names]:
        used -= size(prefixes.pop(directory)) + _MARKER
        del listed[directory]
    # A path list's directory opens with its first file's whole path, as the payload writes it (a
    # family's would be no line of it; a top-level file's is its name).
    opened = {
        d
        for d, names in listed.items()
        if paths and d and d not in folded and not all(n.endswith("/") for n in names)
    }
    listed = {d: _whole_first(d, names) if d in opened else names for d, names in listed.items()}
    # Such a line's count stands for its label: the label's room goes back to the names.
    counted = {d: f"({files_in[d]} files) " for d in opened}
    used -= sum(size(prefixes[d]) - size(counted[d]) for d in opened)
    # Entries quoted as the payload spells them (``"name": "a.py"``, ``[FILE] a.py``): those shown.
    shown = _fill(listed, budget - used, spell)
    lines = {d: prefixes[d] + _listing(listed[d], shown[d], spell) for d in prefixes}
    for d in opened:  # the whole path names the directory: its count goes first, no label
        if shown[d]:
            lines[d] = counted[d] + _listing(listed[d], shown[d], spell)
    body = "\n".join([*head, *(lines[d] for d in by_dir if d in lines)])
    if size(body) > budget:
        body = body.encode("utf-8")[:budget].decode("utf-8", "ignore").rsplit("\n", 1)[0]
    body = "\n".join([body, *tail])
    outline = f"tree: {head[0]}" if tests else f"tree: {files} files, {len(dirs)} directories"
    return Extract(text=body, kind=ContentKind.TREE, outline=outline, highlights=len(by_dir))


def _ends(text: str) -> list[str]:
    """A path list's first and last lines as they are (a search's first and last result); none for
    a one-line list or a JSON tree (its first and last lines are brackets; ``list_directory``'s
    ``[FILE] a.py`` opens with a bracket too and is no JSON)."""
    head, tail = text[:_END_READ].lstrip(), text[-_END_READ:].rstrip()
    first = head.split("\n", 1)[0].strip()
    last = tail.rsplit("\n", 1)[-1].strip()
    if first == last or head[:1] in "{[" and not LISTED_ENTRY.match(first):
        return []
    return [f"first: {first}", f"last: {last}"]


def _fold(by_dir: dict[str, list[str]]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Directories one path part apart that hold the same entries (``locale/af/LC_MESSAGES``,
    ``locale/de/LC_MESSAGES``, …), at least ``FOLD_MIN`` of them, as one directory with ``*`` in
    that part, where the first of them stood; returns the listing and, per folded directory, its
    members' paths (the largest families first, a directory in one family at most)."""
    families: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for directory, names in by_dir.items():
        if not directory:
            continue
        parts = directory.split("/", _FOLD_PARTS)
        if len(parts) > _FOLD_PARTS:
            continue  # no tree is this deep: a line of text read as a path (a template per part)
        signature = tuple(sorted(names))
        for at in range(len(parts)):
            if parts[at]:
                template = "/".join([*parts[:at], "*", *parts[at + 1 :]])
                families.setdefault((template, signature), []).append(directory)
    taken: set[str] = set()
    folded: dict[str, list[str]] = {}
    for (template, _), members in sorted(families.items(), key=lambda item: -len(item[1])):
        if len(members) < FOLD_MIN:
            break
        # A second family on the same template (``*/_lib`` with other files) would take its place.
        if template in by_dir or template in folded or any(member in taken for member in members):
            continue
        folded[template] = members
        taken.update(members)
    if not folded:
        return by_dir, {}
    first = {members[0]: template for template, members in folded.items()}
    listing: dict[str, list[str]] = {}
    for directory, names in by_dir.items():
        if directory in first:
            listing[first[directory]] = names
        elif directory not in taken:
            listing[directory] = names
    return listing, folded


def _family(members: Sequence[str], template: str) -> str:
    """``97 directories: af, am, ar, …, zh_Hant``: how many, and the parts that differ."""
    at = template.split("/").index("*")
    parts = [member.split("/")[at] for member in members]
    named = parts if len(parts) <= _FAMILY_NAMES else [*parts[: _FAMILY_NAMES - 1], "…", parts[-1]]
    return f"{len(parts)} directories: {', '.join(named)}"


def _is_drawn(text: str) -> bool:
    """Whether most of the first lines are drawn-tree items (``├── name``)."""
    head = [line for line in text[:8192].splitlines()[:60] if line.strip()]
    return len(head) >= 3 and sum(bool(BOX_LINE.match(line)) for line in head) * 10 >= len(head) * 7


def _test_ids(text: str) -> tuple[list[tuple[str, bool]], list[str]] | None:
    """A runner's list of test ids as entries (each test file a directory of its tests) and the
    lines that are no test id (``1937 tests collected in 2.42s``), or ``None`` for other lists."""
    lines = [line.strip() for line in text.splitlines() if line.strip()][:_MAX_ENTRIES]
    found = [TEST_ID.match(line) if "::" in line else None for line in lines]
    if not lines or sum(match is not None for match in found) * 10 < len(lines) * 9:
        return None
    entries: list[tuple[str, bool]] = []
    for match in found:
        if match is not None:
            # ``/`` inside a parameter (``[bench:a/b.log]``) is no directory of the test's.
            test = match.group("test").replace("/", "∕")
            entries.append((match.group("file") + "/" + test, False))
    files = dict.fromkeys(os.path.dirname(path) for path, _ in entries)
    others = [line for line, match in zip(lines, found, strict=True) if match is None]
    return [*((file, True) for file in files), *entries], others[-_TEST_TAIL:]


def _entries(text: str) -> tuple[list[tuple[str, bool]], list[tuple[int, str]], Callable[[str], str]]:
    """The listing's (path, is directory) entries, a JSON tree's files' (size, path) where its
    nodes state sizes (``tree -J -s``), and how the payload spells a listed name where that is
    more than the name (a directory's ending in ``/``): a JSON tree's files as its ``name``
    members (``json_tree.name_spelling``; its directories stay ``src/``), ``list_directory``'s
    entries as its lines (``[FILE] a.py``, ``[DIR] src``); other listings' names as they are."""
    if _is_json(text):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return [], [], _as_listed
        nodes = list(itertools.islice(json_tree.nodes(value), _MAX_ENTRIES))
        sized = [(stated, path) for path, is_dir, stated in nodes if stated is not None and not is_dir]
        member = json_tree.name_spelling(text)
        ending = "," if _names_end_members(text) else ""  # ``"name": "a.py",`` as its line writes it
        spell = (
            _as_listed
            if member is None
            else (lambda name: name if name.endswith("/") else member(name) + ending)
        )
        return [(path, is_dir) for path, is_dir, _ in nodes], sized, spell
    paths = [line.strip() for line in text.splitlines() if line.strip()][:_MAX_ENTRIES]
    if paths and all(LISTED_ENTRY.match(path) for path in paths[:20]):  # ``[FILE] a.py``, ``[DIR] src``
        listed = [
            (path.split("] ", 1)[1].rstrip("/"), path.startswith("[DIR]"))
            for path in paths
            if LISTED_ENTRY.match(path)
        ]
        return listed, [], _listed_entry
    if paths and all(GIT_ENTRY.match(path) for path in paths[:20]):  # ``git ls-tree -r``, ``git ls-files -s``
        found = [GIT_ENTRY.match(path) for path in paths]
        return [(entry["path"], entry["type"] == "tree") for entry in found if entry], [], _as_listed
    known = set(paths)
    prefixes = {os.path.dirname(p) for p in paths}
    return [(p.rstrip("/"), p.endswith("/") or p in prefixes) for p in paths if p in known], [], _as_listed


def _is_json(text: str) -> bool:
    """Whether the listing is a JSON tree (``list_directory``'s ``[FILE] a.py`` opens with a bracket too)."""
    stripped = text.lstrip()
    return stripped[:1] in "[{" and not LISTED_ENTRY.match(stripped)


_NAME_ENDING = re.compile(r'"name"\s*:\s*"(?:[^"\\]|\\.)*"(\s*.)')


def _names_end_members(text: str) -> bool:
    """Whether a JSON tree's ``name`` members are each followed by another member's comma
    (server-filesystem's ``{"name": …, "type": …}``), looked at in its first characters."""
    endings = [
        match.group(1).strip() for match in itertools.islice(_NAME_ENDING.finditer(text[:_END_READ]), 20)
    ]
    return bool(endings) and all(ending == "," for ending in endings)


def _listed_entry(name: str) -> str:
    """A name as ``list_directory`` lists it: ``[FILE] a.py``, ``[DIR] src`` (for ``src/``)."""
    return f"[DIR] {name[:-1]}" if name.endswith("/") else f"[FILE] {name}"


def _root(entries: list[tuple[str, bool]]) -> str:
    if len(entries) < 2:
        return ""
    common = os.path.commonpath([p for p, _ in entries]) if all(p.startswith("/") for p, _ in entries) else ""
    return common


def _relative(directory: str, root: str) -> str:
    if root and directory.startswith(root):
        return directory[len(root) :].lstrip("/")
    return directory


def _fill(listed: dict[str, list[str]], room: int, spell: Callable[[str], str]) -> dict[str, int]:
    """How many names of each directory fit in ``room`` bytes, given in turns: a name of every
    directory (in order) before a second one of any, so small and deep directories show whole
    and no directory eats the budget. A name that does not fit ends its directory's listing,
    not the others'."""
    shown = dict.fromkeys(listed, 0)
    done: set[str] = set()  # directories whose next name did not fit: their listing ends there
    turn = 0
    while room > 0:
        added = False
        for directory, names in listed.items():
            if turn < len(names) and directory not in done:
                spelled = spell(names[turn])
                cost = size(spelled) + (1 if spelled.endswith(",") else 2)  # and its separator
                if cost <= room:
                    shown[directory] += 1
                    room -= cost
                    added = True
                else:
                    done.add(directory)  # a long name left out leaves the room to shorter ones
        if not added:
            break
        turn += 1
    return shown


def _listing(names: list[str], count: int, spell: Callable[[str], str]) -> str:
    """The first ``count`` names as the payload spells them, then how many are left."""
    rest = len(names) - count
    if not count:
        return f"… {rest} entries" if rest else ""
    spelled = [spell(name) for name in names[:count]] + ([f"… +{rest}"] if rest else [])
    # a name spelled with its member's comma (``"name": "a.py",``) needs no other
    return "".join(part + ("" if part.endswith(",") else ",") + " " for part in spelled[:-1]) + spelled[-1]


def _whole_first(directory: str, names: list[str]) -> list[str]:
    """A directory's names with its first file as its whole path (``/srv/app/doc/conf.py``, a path
    list's line), so each directory line shows one path an agent can use as it is."""
    at = next(i for i, n in enumerate(names) if not n.endswith("/"))
    return [_join(directory, names[at]), *names[:at], *names[at + 1 :]]


def _as_listed(name: str) -> str:
    return name


def _join(directory: str, name: str) -> str:
    """The path of ``name`` in ``directory`` as a listing writes it (``/usr`` in ``/``, not ``//usr``)."""
    return os.path.join(directory, name.rstrip("/"))


_EXTENSION = re.compile(r"\.[A-Za-z0-9_+~-]{1,16}\Z")


def _extension(name: str) -> str:
    """The file name's extension, or ``(none)``: a "suffix" with spaces or colons is not one."""
    suffix = os.path.splitext(name)[1]
    return suffix if _EXTENSION.match(suffix) else "(none)"
