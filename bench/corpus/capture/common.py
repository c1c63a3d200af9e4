"""What the corpus capture scripts in this folder share: MCP sessions, payload writing, the group checks.

Used by ``mcp.py``, ``mcp2.py``, ``mcp4.py``, ``web3.py`` and ``data3.py`` (``import common``, run as
scripts, so this folder is on ``sys.path``) and by the ``check`` sections of ``cli2.sh``,
``cli3.sh`` and ``cli4.sh`` (``python3 -`` with this folder put on ``sys.path``). Contract:

- Importing it drops this folder from ``sys.path`` (the sibling ``mcp.py`` must not shadow the mcp
  SDK, which ``Scratch.run`` imports lazily: only ``capture`` needs the project's venv) and makes
  the repository root importable, for ``bench.corpus.build``. It has no other side effect.
- ``Scratch`` is one group's scratch root under /tmp: its MCP stdio sessions (``run``, with the
  ``playwright``, ``snapshot``, ``search`` and ``fetch`` shapes several groups use) and its payload
  writer (``save``: the group's path rewrites, then ``bench/corpus/<id>.<ext>``). ``MCP`` is the
  root ``mcp.py setup`` makes and ``mcp2.py`` reuses.
- ``check_part`` checks ``parts/<group>.yaml`` against the payloads: every record as ``build.py``
  would write it goes through ``build.check_item`` (id, file name, kind, set, size, 3-6 facts,
  answers verbatim, queries without their answer), then through the group's own ``Rules``. It
  prints a row per record and every problem and returns the count (0: the part passes).
- ``main`` is the ``setup | capture [section ...] | check`` command line of the Python scripts.

Standard library and pyyaml only (through ``build.py``); the mcp SDK only inside ``run``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
CORPUS = os.path.normpath(os.path.join(HERE, ".."))
ROOT = os.path.normpath(os.path.join(CORPUS, "..", ".."))
if ROOT not in sys.path:
    sys.path.append(ROOT)

from bench.corpus.build import check_item, measure  # noqa: E402  (needs ROOT on sys.path)

Call = tuple[str, dict[str, Any]]
RUNNER = "/home/runner/work/"
FETCH_MAX_LENGTH = 400000


def sh(cmd: str | list[str], **kw: Any) -> subprocess.CompletedProcess[bytes]:
    """Run a shell command line (or an argv list), echoed to stderr; fail on a non-zero exit."""
    print("+", cmd if isinstance(cmd, str) else " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, shell=isinstance(cmd, str), check=True, **kw)


def playwright_args(node_bin: str) -> list[str]:
    """@playwright/mcp's command line: Debian chromium, headless, isolated, 1280x900."""
    return [
        f"{node_bin}/playwright-mcp",
        "--headless",
        "--no-sandbox",
        "--isolated",
        "--executable-path",
        "/usr/bin/chromium",
        "--viewport-size",
        "1280,900",
    ]


def find_ref(snapshot: str, pattern: str) -> str:
    """Group 1 of ``pattern`` in a page snapshot (an element's ``ref``), as an agent reads it."""
    match = re.search(pattern, snapshot)
    if not match:
        raise RuntimeError(f"no match for {pattern!r} in the snapshot")
    return match.group(1)


def link_docroot(www: str, links: Mapping[str, str]) -> None:
    """The HTTP docroot ``www``: a symlink ``www/<name>`` to each doc folder."""
    os.makedirs(www, exist_ok=True)
    for name, target in links.items():
        link = os.path.join(www, name)
        if os.path.islink(link):
            os.remove(link)
        os.symlink(target, link)


@contextlib.contextmanager
def http_server(port: int, docroot: str) -> Iterator[None]:
    """``python -m http.server`` on 127.0.0.1:port over docroot for the block (reused if the port answers)."""
    with socket.socket() as sock:
        if sock.connect_ex(("127.0.0.1", port)) == 0:
            yield
            return
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", docroot],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)
    try:
        yield
    finally:
        proc.terminate()
        proc.wait()


@dataclass(frozen=True)
class Scratch:
    """A group's scratch root and how its MCP servers run and its payloads are written."""

    root: str  # /tmp/corpus-<group>; the servers' stderr is appended to root/server-stderr.log
    rewrite: Mapping[str, str] = field(default_factory=dict)  # scratch path -> runner path, in order
    env: Mapping[str, str] = field(default_factory=dict)  # added to os.environ for every server
    cwd: str | None = None  # the servers' working dir (@playwright/mcp writes .playwright-mcp/ there)
    check: bool = True  # a tool result marked as an error raises RuntimeError (else its text is kept)

    def run(
        self,
        command: str,
        args: list[str],
        calls: list[Call],
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> list[str]:
        """The text of each call's result: one stdio session of ``command args`` for all the calls."""
        results = asyncio.run(
            self._session(command, args, calls, {**os.environ, **self.env, **(env or {})}, cwd)
        )
        for name, text, is_error in results:
            if is_error and self.check:
                raise RuntimeError(f"{command} {name} failed: {text[:400]}")
        return [text for _, text, _ in results]

    async def _session(
        self, command: str, args: list[str], calls: list[Call], env: dict[str, str], cwd: str | None
    ) -> list[tuple[str, str, bool]]:
        from mcp import ClientSession, StdioServerParameters, stdio_client

        params = StdioServerParameters(command=command, args=args, env=env, cwd=cwd or self.cwd)
        outs = []
        with open(f"{self.root}/server-stderr.log", "a") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for name, arguments in calls:
                        res = await session.call_tool(name, arguments)
                        text = "".join(c.text for c in res.content if getattr(c, "type", "") == "text")
                        is_error = getattr(res, "is_error", None) or getattr(res, "isError", None)
                        outs.append((name, text, bool(is_error)))
        return outs

    def playwright(self, calls: list[Call]) -> list[str]:
        """@playwright/mcp from root/node_modules, one browser session for the calls."""
        return self.run("node", playwright_args(f"{self.root}/node_modules/.bin"), calls)

    def snapshot(self, url: str) -> str:
        """The accessibility snapshot of a page."""
        return self.playwright([("browser_navigate", {"url": url}), ("browser_snapshot", {})])[-1]

    def search(self, url: str, box: str, text: str, done: str) -> str:
        """The snapshot after typing ``text`` into a page's search box and submitting it, once ``done``
        shows; the box's ref (group 1 of the pattern ``box``) is read from a first snapshot, as an agent would."""
        ref = find_ref(self.snapshot(url), box)
        typed = {"element": "search box", "target": ref, "text": text, "submit": True}
        return self.playwright(
            [
                ("browser_navigate", {"url": url}),
                ("browser_type", typed),
                ("browser_wait_for", {"text": done}),
                ("browser_snapshot", {}),
            ]
        )[-1]

    def fetch(self, pages: list[tuple[str, str]]) -> None:
        """mcp-server-fetch (root/venv) on each ``(item id, url)``, one session; saved as ``<id>.md``."""
        calls: list[Call] = [("fetch", {"url": url, "max_length": FETCH_MAX_LENGTH}) for _, url in pages]
        texts = self.run(f"{self.root}/venv/bin/mcp-server-fetch", ["--allow-private-ips"], calls)
        for (item_id, _), text in zip(pages, texts, strict=True):
            self.save(item_id, "md", text)

    def save(self, item_id: str, ext: str, text: str) -> None:
        """Write the payload ``bench/corpus/<item_id>.<ext>``, its scratch paths rewritten."""
        for old, new in self.rewrite.items():
            text = text.replace(old, new)
        with open(os.path.join(CORPUS, f"{item_id}.{ext}"), "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"saved {item_id}.{ext} {len(text.encode())} bytes", file=sys.stderr)


# the scratch root made by ``mcp.py setup`` and reused by ``mcp2.py``: servers, docs, datasets DB, sources
MCP = Scratch("/tmp/corpus-mcp", rewrite={f"/tmp/corpus-mcp/{d}/": RUNNER for d in ("src", "git", "data")})
MCP_PORT = 8765
MCP_HTTP = f"http://127.0.0.1:{MCP_PORT}"
MCP_DOCROOT = "/usr/share/doc"
MCP_SERVE = (MCP_PORT, MCP_DOCROOT)
MCP_DB = f"{MCP.root}/data/datasets.db"


# ----------------------------------------------------------------------------- check
@dataclass(frozen=True)
class Rules:
    """A group's own rules on its records, beyond ``build.check_item``'s (ranges inclusive)."""

    sizes: tuple[int, int]  # bytes of each payload
    max_group_bytes: int | None = None  # all the group's payloads together
    only_set: str | None = None  # every record in this set
    required: tuple[str, ...] = ()  # more keys every record fills
    no_computed: bool = False  # bytes, lines and sha256 are left to build.py
    forbidden: tuple[str, ...] = ()  # what no payload holds (unnormalised scratch paths)
    one_line: bool = False  # every answer within one line of its payload
    answer_length: tuple[int, int] | None = None  # characters
    query_words: tuple[int, int] | None = None
    max_edge_facts: int | None = None  # facts in the first/last 10 lines of a payload over 40 lines
    note_repeats: bool = False  # print (not count) answers found more than once in their payload


ROW = "{id:50s} {kind:9s} {set:8s} {size}"
SUMMARY = "{items} items, {bytes} bytes, {problems} problems"
# the cli groups' (check_cli): a row per record flagged OK or BAD with its problems, records with problems counted
CLI_ROW = "{id:42s} {kind:6s} {set:7s} {size:8d}"
CLI_SUMMARY = "{items} items, {holdout} holdout, {bytes} bytes, {problems} with problems"


def load_part(group: str) -> list[dict[str, Any]]:
    """The records of ``parts/<group>.yaml``."""
    import yaml

    with open(os.path.join(CORPUS, "parts", f"{group}.yaml"), encoding="utf-8") as handle:
        records: list[dict[str, Any]] = yaml.safe_load(handle)["items"]
    return records


def rule_problems(record: dict[str, Any], text: str, size: int, rules: Rules) -> Iterator[str]:
    """The problems of one record and its payload under the group's own rules."""
    ident = str(record.get("id"))
    low, high = rules.sizes
    if not low <= size <= high:
        yield f"{ident}: size {size} bytes, expected {low} to {high}"
    if rules.only_set and record.get("set") != rules.only_set:
        yield f"{ident}: set {record.get('set')!r}, this group is all {rules.only_set}"
    yield from (f"{ident}: missing {key!r}" for key in rules.required if not record.get(key))
    if rules.no_computed:
        computed = [key for key in ("bytes", "lines", "sha256") if key in record]
        yield from (f"{ident}: computed field {key} must not be written" for key in computed)
    yield from (f"{ident}: unnormalised path {bad!r}" for bad in rules.forbidden if bad in text)
    lines, edges = text.splitlines(), 0
    for number, fact in enumerate(record.get("facts") or [], 1):
        answer, query = str(fact.get("answer", "")), str(fact.get("query", ""))
        if rules.one_line and answer in text and not any(answer in line for line in lines):
            yield f"{ident}: fact {number} answer {answer!r} is not on one line of the payload"
        if rules.answer_length and not rules.answer_length[0] <= len(answer) <= rules.answer_length[1]:
            yield f"{ident}: fact {number} answer length {len(answer)}: {answer!r}"
        if rules.query_words and not rules.query_words[0] <= len(query.split()) <= rules.query_words[1]:
            yield f"{ident}: fact {number} query words {len(query.split())}: {query!r}"
        pos = text.find(answer) if answer else -1
        if pos >= 0:
            line = text.count("\n", 0, pos)
            edges += line < 10 or line >= len(lines) - 10
    if rules.max_edge_facts is not None and len(lines) > 40 and edges > rules.max_edge_facts:
        yield f"{ident}: {edges} facts in the first/last 10 lines"


def repeats(record: dict[str, Any], text: str) -> Iterator[str]:
    """A note per answer that occurs more than once in the payload (a fact may then be ambiguous)."""
    for fact in record.get("facts") or []:
        answer = str(fact.get("answer", ""))
        if answer and text.count(answer) > 1:
            yield f"NOT UNIQUE {record.get('id')} {answer!r} {text.count(answer)}"


def check_part(
    group: str,
    rules: Rules,
    *,
    row: str = ROW,
    summary: str = SUMMARY,
    flag_rows: bool = False,
    group_rules: Callable[[list[dict[str, Any]]], Iterable[str]] | None = None,
) -> int:
    """Check ``parts/<group>.yaml`` (see the module doc); print every row and problem, return the count.

    A row is ``row`` formatted with the record's id, kind, set and payload size; with ``flag_rows``
    it is prefixed ``OK``/``BAD`` and followed by its problems, and the count is of the records with
    problems (plus the group's problems), else each problem is a line before its row and counted."""
    records = load_part(group)
    count, total = 0, 0
    for record in records:
        path = Path(CORPUS) / str(record.get("file", ""))
        try:  # the record as build.py writes it (check_item reports a missing or non-UTF-8 payload)
            sizes = measure(path)
        except (OSError, UnicodeDecodeError):
            sizes = {}
        item = {**record, **sizes}
        problems = list(check_item(Path(CORPUS), item, minimal=False))
        size = int(sizes.get("bytes", 0))
        total += size
        if sizes:
            text = path.read_text(encoding="utf-8")
            problems.extend(rule_problems(record, text, size, rules))
            notes = list(repeats(record, text)) if rules.note_repeats else []
        else:
            notes = []
        fields = {"id": str(record.get("id")), "kind": str(record.get("kind")), "set": str(record.get("set"))}
        line = row.format(size=size, **fields)
        if flag_rows:
            print(f"{'OK ' if not problems else 'BAD'} {line}", "; ".join(problems))
            count += bool(problems)
        else:
            for message in (*problems, *notes):
                print(message)
            print(line)
            count += len(problems)
    group_problems = list(group_rules(records)) if group_rules else []
    if rules.max_group_bytes is not None and total > rules.max_group_bytes:
        group_problems.append(f"group total {total} bytes, expected at most {rules.max_group_bytes}")
    for problem in group_problems:
        print(f"BAD {problem}" if flag_rows else problem)
    count += len(group_problems)
    holdout = sum(record.get("set") == "holdout" for record in records)
    print(summary.format(items=len(records), holdout=holdout, bytes=total, problems=count))
    return count


def check_cli(
    group: str,
    rules: Rules,
    summary: str = CLI_SUMMARY,
    group_rules: Callable[[list[dict[str, Any]]], Iterable[str]] | None = None,
) -> int:
    """``check_part`` as the cli groups print it; the exit status (1 when anything failed)."""
    count = check_part(group, rules, row=CLI_ROW, summary=summary, flag_rows=True, group_rules=group_rules)
    return 1 if count else 0


def by_kind(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The records per kind, kinds sorted and each kind's records by id."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for record in sorted(records, key=lambda record: str(record["id"])):
        kinds.setdefault(str(record["kind"]), []).append(record)
    return dict(sorted(kinds.items()))


# ----------------------------------------------------------------------------- command line
def main(
    sections: Mapping[str, Callable[[], None]],
    setup: Callable[[], None],
    check: Callable[[], int],
    *,
    commands: Mapping[str, Callable[[], None]] | None = None,
    serve: tuple[int, str] | None = None,
    argv: list[str] | None = None,
) -> int:
    """``setup`` | ``capture [section ...]`` (all sections by default) | ``check`` | one of ``commands``;
    the exit status. ``serve`` is the (port, docroot) of a local HTTP server kept up while ``capture``
    runs; ``argv`` defaults to ``sys.argv[1:]``."""
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else "capture"
    actions = {"setup": setup, **(commands or {})}
    if command == "capture":
        with http_server(*serve) if serve else contextlib.nullcontext():
            for section in argv[1:] or list(sections):
                sections[section]()
    elif command == "check":
        return 1 if check() else 0
    elif command in actions:
        actions[command]()
    else:
        print(f"unknown command {command!r} ({', '.join([*actions, 'capture'])} or check)", file=sys.stderr)
        return 2
    return 0
