#!/usr/bin/env python3
"""Capture the `mcp2` corpus group: more real MCP servers' results over stdio, on new inputs.

Re-make everything with::

    python bench/corpus/capture/mcp2.py setup      # mcp.py's setup, then the extra sdists
    python bench/corpus/capture/mcp2.py capture [section ...]   # snapshot fetch tree source rows
    python bench/corpus/capture/mcp2.py check      # records vs payloads (sizes, answers, queries)

Run ``capture`` with the project's venv python (it holds the mcp SDK client). This script reuses
what ``mcp.py setup`` makes (``setup`` runs it first): the scratch root ``/tmp/corpus-mcp``, its
installed servers and the datasets DB; ``common.py`` has that root's stdio client, local HTTP
server on 127.0.0.1:8765 over ``/usr/share/doc`` and path normalisation (``common.MCP``).

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

import os
import sys
from collections.abc import Callable

import common
from common import Call, sh

SCRATCH = common.MCP
run = SCRATCH.run
save = SCRATCH.save
BASE = SCRATCH.root
SRC = f"{BASE}/src"
HTTP = common.MCP_HTTP
PYDOC = f"{HTTP}/python3-doc/html"
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


# ----------------------------------------------------------------------------- setup
def setup() -> None:
    """mcp.py's setup (servers, docs, datasets DB), then the extra sdists unpacked under src/."""
    sh([sys.executable, os.path.join(common.HERE, "mcp.py"), "setup"])
    for name, version in SDISTS.items():
        target = f"{BASE}/sdists/{name}"
        sh(f"{BASE}/venv/bin/pip download -q --no-deps --no-binary :all: -d {target} {name}=={version}")
        sh(f"rm -rf {SRC}/{name}-{version} && tar -xzf {target}/{name}-{version}.tar.gz -C {SRC}")


# ----------------------------------------------------------------------------- capture
def capture_snapshot() -> None:
    """Four page shapes: a big index, search results, a reference with tables, a tutorial."""
    pages = [
        ("snapshot-playwright-python311-modindex", "py-modindex.html"),
        ("snapshot-playwright-python311-struct", "library/struct.html"),
        ("snapshot-playwright-python311-controlflow", "tutorial/controlflow.html"),
    ]
    for item_id, page in pages:
        save(item_id, "txt", SCRATCH.snapshot(f"{PYDOC}/{page}"))
    search = SCRATCH.search(
        f"{PYDOC}/search.html", r'textbox "Search" \[ref=(e\d+)\]', SEARCH_QUERY, "Search finished"
    )
    save("snapshot-playwright-python311-search-pythonpath", "txt", search)


FETCH_PAGES = [
    ("webpage-fetch-git-config", f"{HTTP}/git-doc/git-config.html"),
    ("webpage-fetch-sqlite-faq", f"{HTTP}/sqlite3/faq.html"),
    ("webpage-fetch-python311-logging-howto", f"{PYDOC}/howto/logging.html"),
    ("webpage-fetch-valgrind-memcheck", f"{HTTP}/valgrind/html/mc-manual.html"),
]


def capture_fetch() -> None:
    SCRATCH.fetch(FETCH_PAGES)


def filesystem(root: str, calls: list[Call]) -> list[str]:
    return run(f"{BASE}/node_modules/.bin/mcp-server-filesystem", [root], calls)


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
        ["--db-path", common.MCP_DB],
        [("read_query", {"query": STOCKS_QUERY})],
    )
    save("rows-sqlite-vega-stocks-yearly", "txt", text)
    (text,) = run(
        f"{BASE}/venv-alchemy/bin/mcp-alchemy",
        [],
        [("execute_query", {"query": SUBDIVISIONS_QUERY})],
        env={"DB_URL": f"sqlite:///{common.MCP_DB}", "EXECUTE_QUERY_MAX_CHARS": "400000"},
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
RULES = common.Rules(sizes=(5_000, 400_000), max_group_bytes=3_000_000, note_repeats=True)


def check() -> int:
    """Print one line per record and every problem; return the number of problems."""
    return common.check_part("mcp2", RULES)


if __name__ == "__main__":
    raise SystemExit(common.main(SECTIONS, setup, check, serve=common.MCP_SERVE))
