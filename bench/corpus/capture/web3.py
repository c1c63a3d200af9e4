#!/usr/bin/env python3
"""Capture the `web3` corpus group: browser snapshots and fetched pages from real MCP servers.

Re-make everything with::

    python3 bench/corpus/capture/web3.py setup        # apt docs + chromium, npm/pip servers in /tmp/corpus-web3
    /work/main/.venv/bin/python bench/corpus/capture/web3.py capture [snapshot|fetch ...]
    python3 bench/corpus/capture/web3.py check        # records vs payloads (sizes, answers, queries)

Run ``capture`` with the project's venv python (it holds the mcp SDK client, 2.3).

Servers (each talked to over stdio with mcp.ClientSession, one session per item):
  * @playwright/mcp 0.0.83 driving Debian chromium headless (--headless --no-sandbox --isolated
    --executable-path /usr/bin/chromium) on HTML docs from Debian packages: PostgreSQL 15
    (postgresql-doc-15), the Rust 1.63 book and std docs (rust-doc), CMake 3.25 (cmake-doc) and
    the Node.js 18 API docs (nodejs-doc; unpacked with dpkg-deb into the scratch dir, not
    installed: on this machine it conflicts with the installed Node.js 20 package)
  * mcp-server-fetch 2026.10.24 (PyPI, own venv) on PostgreSQL 15, Rust book, CMake, bash and
    Node.js HTML pages, with max_length 400000

The pages are served by ``python3 -m http.server`` on 127.0.0.1:8771 from a scratch docroot of
symlinks (/tmp/corpus-web3/www/<package> -> the package's doc folder); the server is stopped at
the end of ``capture``. No normalisation is needed: the payloads hold only the local URLs.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import common
from common import sh

BASE = "/tmp/corpus-web3"
WWW = f"{BASE}/www"
PORT = 8771
HTTP = f"http://127.0.0.1:{PORT}"
PLAYWRIGHT_MCP = "@playwright/mcp@0.0.83"
FETCH_SERVER = "mcp-server-fetch==2026.10.24"
DOC_LINKS = {
    "postgresql-doc-15": "/usr/share/doc/postgresql-doc-15/html",
    "rust-doc": "/usr/share/doc/rust-doc/html",
    "cmake-doc": "/usr/share/doc/cmake-doc/html",
    "bash": "/usr/share/doc/bash",
    "nodejs": f"{BASE}/docs/nodejs-doc/usr/share/doc/nodejs/api",
}
PG = f"{HTTP}/postgresql-doc-15"
RUST = f"{HTTP}/rust-doc"
CMAKE = f"{HTTP}/cmake-doc"
NODE = f"{HTTP}/nodejs"
# cwd: @playwright/mcp writes its .playwright-mcp/ files there
SCRATCH = common.Scratch(BASE, cwd=BASE)


# ----------------------------------------------------------------------------- setup
def setup() -> None:
    os.makedirs(f"{BASE}/debs", exist_ok=True)
    sh("apt-get install -y -o DPkg::Lock::Timeout=300 chromium postgresql-doc-15 rust-doc cmake-doc bash-doc")
    # nodejs-doc conflicts with the nodesource nodejs package: unpack it, do not install it
    # (apt-get install nodejs-doc would remove the machine's Node.js 20, which playwright-mcp needs)
    sh(
        f"cd {BASE}/debs && rm -f nodejs-doc_*.deb && apt-get download nodejs-doc && rm -rf {BASE}/docs/nodejs-doc"
    )
    sh(f"mkdir -p {BASE}/docs && dpkg-deb -x {BASE}/debs/nodejs-doc_*.deb {BASE}/docs/nodejs-doc")
    sh(f"cd {BASE} && ([ -f package.json ] || npm init -y >/dev/null) && npm install {PLAYWRIGHT_MCP}")
    sh(f"python3 -m venv {BASE}/venv && {BASE}/venv/bin/pip install -q {FETCH_SERVER}")
    common.link_docroot(WWW, DOC_LINKS)


# ----------------------------------------------------------------------------- capture
def capture_snapshot() -> None:
    """Six page shapes: an index of hundreds of links, two long references, a table-heavy page,
    a search form after typing into it, and a page reached by clicking through navigation."""
    pages = [
        ("snapshot-playwright-cmake-variables-index", f"{CMAKE}/manual/cmake-variables.7.html"),
        ("snapshot-playwright-postgresql15-createtable", f"{PG}/sql-createtable.html"),
        ("snapshot-playwright-postgresql15-datetime", f"{PG}/functions-datetime.html"),
        ("snapshot-playwright-rust-std-hashmap", f"{RUST}/std/collections/struct.HashMap.html"),
    ]
    for item_id, url in pages:
        SCRATCH.save(item_id, "txt", SCRATCH.snapshot(url))
    # rustdoc search
    box = r'searchbox "Click or press[^"]*" \[ref=(e\d+)\]'
    search = SCRATCH.search(f"{RUST}/std/index.html", box, RUST_QUERY, "Results for")
    SCRATCH.save("snapshot-playwright-rust-std-search-read-to", "txt", search)
    # Node.js docs: from the API index, click the "Command-line options" link, then snapshot
    first = SCRATCH.snapshot(f"{NODE}/index.html")
    ref = common.find_ref(first, r'link "Command-line options" \[ref=(e\d+)\]')
    texts = SCRATCH.playwright(
        [
            ("browser_navigate", {"url": f"{NODE}/index.html"}),
            ("browser_click", {"element": "Command-line options link", "target": ref}),
            ("browser_snapshot", {}),
        ]
    )
    SCRATCH.save("snapshot-playwright-nodejs-cli-click", "txt", texts[-1])


RUST_QUERY = "read_to"


FETCH_PAGES = [
    ("webpage-fetch-bash-manpage", f"{HTTP}/bash/bash.html"),
    ("webpage-fetch-cmake-install", f"{CMAKE}/command/install.html"),
    ("webpage-fetch-nodejs-child-process", f"{NODE}/child_process.html"),
    ("webpage-fetch-postgresql15-client-config", f"{PG}/runtime-config-client.html"),
    ("webpage-fetch-postgresql15-release-15", f"{PG}/release-15.html"),
    ("webpage-fetch-rust-book-ownership", f"{RUST}/book/ch04-01-what-is-ownership.html"),
]


def capture_fetch() -> None:
    SCRATCH.fetch(FETCH_PAGES)


SECTIONS: dict[str, Callable[[], None]] = {
    "snapshot": capture_snapshot,
    "fetch": capture_fetch,
}


# ----------------------------------------------------------------------------- check
RULES = common.Rules(
    sizes=(8_000, 600_000),
    max_group_bytes=2_200_000,
    one_line=True,
    answer_length=(8, 90),
    query_words=(3, 10),
    note_repeats=True,
)


def check() -> int:
    """Print one line per record and every problem; return the number of problems."""
    return common.check_part("web3", RULES)


if __name__ == "__main__":
    raise SystemExit(common.main(SECTIONS, setup, check, serve=(PORT, WWW)))
