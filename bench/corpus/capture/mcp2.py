#!/usr/bin/env python3
"""Capture the `mcp2` corpus group: more real MCP servers' results over stdio, on new inputs.

Re-make everything with::

    python bench/corpus/capture/mcp2.py setup      # mcp.py's setup, then the extra sdists
    python bench/corpus/capture/mcp2.py capture [section ...]   # snapshot fetch tree source rows
    python bench/corpus/capture/mcp2.py check      # records vs payloads (sizes, answers, queries)

Run ``capture`` with the project's venv python (it holds the mcp SDK client). This script reuses
``mcp.py`` (loaded under another name, since a module called ``mcp`` would shadow the SDK): the
scratch root ``/tmp/corpus-mcp``, its installed servers, the datasets DB, the stdio client loop,
the local HTTP server on 127.0.0.1:8765 over ``/usr/share/doc`` and the path normalisation.

Servers and inputs:
  * @playwright/mcp 0.0.83 + Debian chromium on Python 3.11 HTML docs (python3.11-doc):
    the module index, the search page after a query, library/struct.html, tutorial/controlflow.html
  * mcp-server-fetch 2026.10.24 on git-config(1) (git-doc), the SQLite FAQ (sqlite3-doc),
    the logging HOWTO (python3.11-doc) and the Memcheck manual (valgrind's HTML docs)
  * @modelcontextprotocol/server-filesystem 2026.8.31 on the unpacked sdists (PyPI) of httpx
    0.28.1, attrs 26.1.0, rich 15.0.0, requests 2.34.2 and pygments 2.21.0
  * mcp-server-sqlite 2025.4.25 and mcp-alchemy 2026.10.15.202659 on the datasets DB
    (stocks from vega_datasets; countries and subdivisions from Debian iso-codes)

Only normalisation of payloads (mcp.py's): /tmp/corpus-mcp/src/<x> becomes /home/runner/work/<x>.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
# a sibling module called mcp.py must not shadow the mcp SDK package
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
CORPUS = os.path.normpath(os.path.join(HERE, ".."))
PART = os.path.join(CORPUS, "parts", "mcp2.yaml")


def load_base() -> ModuleType:
    """The `mcp` group's capture script, as a module named so it cannot shadow the SDK."""
    spec = importlib.util.spec_from_file_location("corpus_capture_mcp", os.path.join(HERE, "mcp.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


base = load_base()
BASE: str = base.BASE
SRC = f"{BASE}/src"
PYDOC = f"{base.HTTP}/python3-doc/html"
SDISTS = {
    "httpx": "0.28.1",
    "attrs": "26.1.0",
    "rich": "15.0.0",
    "requests": "2.34.2",
    "pygments": "2.21.0",
}
HTTPX = f"{SRC}/httpx-{SDISTS['httpx']}"
ATTRS = f"{SRC}/attrs-{SDISTS['attrs']}"
RICH = f"{SRC}/rich-{SDISTS['rich']}"
REQUESTS = f"{SRC}/requests-{SDISTS['requests']}"
PYGMENTS = f"{SRC}/pygments-{SDISTS['pygments']}"
# a query with a few dozen hits: Sphinx fetches each hit's source for its excerpt before it
# prints "Search finished", and a broad query ("environment variable") takes minutes
SEARCH_QUERY = "PYTHONPATH"

Call = tuple[str, dict[str, Any]]


def run(command: str, args: list[str], calls: list[Call], env: dict[str, str] | None = None) -> list[str]:
    """The text of each tool result, one stdio session of the server for all the calls."""
    results = asyncio.run(base.run_calls(command, args, calls, env=env))
    for name, _, text, is_error in results:
        if is_error:
            raise RuntimeError(f"{command} {name} failed: {text[:300]}")
    return [text for _, _, text, _ in results]


def save(item_id: str, ext: str, text: str) -> None:
    base.save(item_id, ext, text)


# ----------------------------------------------------------------------------- setup
def setup() -> None:
    """mcp.py's setup (servers, docs, datasets DB), then the extra sdists unpacked under src/."""
    base.setup()
    for name, version in SDISTS.items():
        target = f"{BASE}/sdists/{name}"
        base.sh(f"{BASE}/venv/bin/pip download -q --no-deps --no-binary :all: -d {target} {name}=={version}")
        base.sh(f"rm -rf {SRC}/{name}-{version} && tar -xzf {target}/{name}-{version}.tar.gz -C {SRC}")


# ----------------------------------------------------------------------------- capture
def playwright(calls: list[Call]) -> list[str]:
    return run("node", base.PW_ARGS, calls)


def capture_snapshot() -> None:
    """Four page shapes: a big index, search results, a reference with tables, a tutorial."""
    pages = [
        ("snapshot-playwright-python311-modindex", "py-modindex.html"),
        ("snapshot-playwright-python311-struct", "library/struct.html"),
        ("snapshot-playwright-python311-controlflow", "tutorial/controlflow.html"),
    ]
    for item_id, page in pages:
        texts = playwright([("browser_navigate", {"url": f"{PYDOC}/{page}"}), ("browser_snapshot", {})])
        save(item_id, "txt", texts[-1])
    # the search box's ref is read from a first snapshot, as an agent would
    first = playwright([("browser_navigate", {"url": f"{PYDOC}/search.html"}), ("browser_snapshot", {})])
    match = re.search(r'textbox "Search" \[ref=(e\d+)\]', first[-1])
    if not match:
        raise RuntimeError("no Search textbox in the search page snapshot")
    texts = playwright(
        [
            ("browser_navigate", {"url": f"{PYDOC}/search.html"}),
            (
                "browser_type",
                {"element": "search box", "target": match.group(1), "text": SEARCH_QUERY, "submit": True},
            ),
            ("browser_wait_for", {"text": "Search finished"}),
            ("browser_snapshot", {}),
        ]
    )
    save("snapshot-playwright-python311-search-pythonpath", "txt", texts[-1])


FETCH_PAGES = [
    ("webpage-fetch-git-config", f"{base.HTTP}/git-doc/git-config.html"),
    ("webpage-fetch-sqlite-faq", f"{base.HTTP}/sqlite3/faq.html"),
    ("webpage-fetch-python311-logging-howto", f"{PYDOC}/howto/logging.html"),
    ("webpage-fetch-valgrind-memcheck", f"{base.HTTP}/valgrind/html/mc-manual.html"),
]
FETCH_MAX_LENGTH = 400000


def capture_fetch() -> None:
    calls: list[Call] = [("fetch", {"url": url, "max_length": FETCH_MAX_LENGTH}) for _, url in FETCH_PAGES]
    texts = run(f"{BASE}/venv/bin/mcp-server-fetch", ["--allow-private-ips"], calls)
    for (item_id, _), text in zip(FETCH_PAGES, texts, strict=True):
        save(item_id, "md", text)


def filesystem(root: str, calls: list[Call]) -> list[str]:
    return run(f"{base.NODE_BIN}/mcp-server-filesystem", [root], calls)


def capture_tree() -> None:
    (tree,) = filesystem(HTTPX, [("directory_tree", {"path": HTTPX})])
    save("tree-filesystem-httpx", "json", tree)
    (found,) = filesystem(ATTRS, [("search_files", {"path": ATTRS, "pattern": "**/*"})])
    save("tree-filesystem-search-attrs", "txt", found)
    lexers = f"{PYGMENTS}/pygments/lexers"
    (sizes,) = filesystem(PYGMENTS, [("list_directory_with_sizes", {"path": lexers, "sortBy": "size"})])
    save("tree-filesystem-sizes-pygments-lexers", "txt", sizes)


HTTPX_MODULES = ["_config.py", "_exceptions.py", "_api.py", "_auth.py", "_status_codes.py", "_urls.py"]
REQUESTS_MODULES = ["adapters.py", "sessions.py", "exceptions.py", "structures.py", "status_codes.py"]


def capture_source() -> None:
    paths = [f"{HTTPX}/httpx/{name}" for name in HTTPX_MODULES]
    (text,) = filesystem(HTTPX, [("read_multiple_files", {"paths": paths})])
    save("source-filesystem-httpx-multi", "txt", text)
    paths = [f"{REQUESTS}/src/requests/{name}" for name in REQUESTS_MODULES]
    (text,) = filesystem(REQUESTS, [("read_multiple_files", {"paths": paths})])
    save("source-filesystem-requests-multi", "txt", text)
    (text,) = filesystem(RICH, [("read_text_file", {"path": f"{RICH}/rich/console.py"})])
    save("source-filesystem-rich-console", "txt", text)


STOCKS_QUERY = (
    "SELECT symbol, CAST(substr(date, -4) AS INTEGER) AS year, COUNT(*) AS months, "
    "ROUND(AVG(price), 2) AS avg_price, MIN(price) AS low, MAX(price) AS high, "
    "ROUND(MAX(price) - MIN(price), 2) AS spread "
    "FROM stocks GROUP BY symbol, year ORDER BY symbol, year"
)
SUBDIVISIONS_QUERY = (
    "SELECT c.alpha_2, c.name AS country, s.type, COUNT(*) AS subdivisions, "
    "MIN(s.code) AS first_code, MAX(s.code) AS last_code "
    "FROM subdivisions s JOIN countries c ON c.alpha_2 = substr(s.code, 1, 2) "
    "GROUP BY c.alpha_2, c.name, s.type ORDER BY c.name, subdivisions DESC, s.type"
)


def capture_rows() -> None:
    (text,) = run(
        f"{BASE}/venv-sqlite/bin/mcp-server-sqlite",
        ["--db-path", base.DB],
        [("read_query", {"query": STOCKS_QUERY})],
    )
    save("rows-sqlite-vega-stocks-yearly", "txt", text)
    (text,) = run(
        f"{BASE}/venv-alchemy/bin/mcp-alchemy",
        [],
        [("execute_query", {"query": SUBDIVISIONS_QUERY})],
        env={"DB_URL": f"sqlite:///{base.DB}", "EXECUTE_QUERY_MAX_CHARS": "400000"},
    )
    save("rows-alchemy-iso3166-subdivision-types", "txt", text)


SECTIONS: dict[str, Callable[[], None]] = {
    "snapshot": capture_snapshot,
    "fetch": capture_fetch,
    "tree": capture_tree,
    "source": capture_source,
    "rows": capture_rows,
}


# ----------------------------------------------------------------------------- check
MIN_BYTES, MAX_BYTES, MAX_GROUP_BYTES = 5_000, 400_000, 3_000_000


def check() -> int:
    """Print one line per record and every problem; return the number of problems."""
    import yaml

    with open(PART, encoding="utf-8") as handle:
        records = yaml.safe_load(handle)["items"]
    problems, total = 0, 0
    for record in records:
        with open(os.path.join(CORPUS, record["file"]), encoding="utf-8") as handle:
            text = handle.read()
        size = len(text.encode())
        total += size
        if not MIN_BYTES <= size <= MAX_BYTES:
            print("SIZE", record["id"], size)
            problems += 1
        for fact in record["facts"]:
            answer, query = str(fact["answer"]), str(fact["query"])
            if answer not in text:
                print("MISSING", record["id"], repr(answer))
                problems += 1
            elif text.count(answer) > 1:
                print("NOT UNIQUE", record["id"], repr(answer), text.count(answer))
            if answer.lower() in query.lower():
                print("QUERY HAS ANSWER", record["id"], repr(query))
                problems += 1
        print(f"{record['id']:50s} {record['kind']:9s} {record['set']:8s} {size}")
    if total > MAX_GROUP_BYTES:
        print("GROUP SIZE", total)
        problems += 1
    print(f"{len(records)} items, {total} bytes, {problems} problems")
    return problems


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "capture"
    if command == "setup":
        setup()
    elif command == "capture":
        server = base.http_server()
        try:
            for section in argv[1:] or list(SECTIONS):
                SECTIONS[section]()
        finally:
            if server:
                server.terminate()
    elif command == "check":
        return 1 if check() else 0
    else:
        print(f"unknown command {command!r} (setup, capture or check)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
