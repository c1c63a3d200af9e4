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

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
# keep the sibling capture/mcp.py from shadowing the mcp SDK package
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
CORPUS = os.path.normpath(os.path.join(HERE, ".."))
PART = os.path.join(CORPUS, "parts", "web3.yaml")

BASE = "/tmp/corpus-web3"
WWW = f"{BASE}/www"
PORT = 8771
HTTP = f"http://127.0.0.1:{PORT}"
NODE_BIN = f"{BASE}/node_modules/.bin"
PLAYWRIGHT_MCP = "@playwright/mcp@0.0.83"
FETCH_SERVER = "mcp-server-fetch==2026.10.24"
PW_ARGS = [
    f"{NODE_BIN}/playwright-mcp",
    "--headless",
    "--no-sandbox",
    "--isolated",
    "--executable-path",
    "/usr/bin/chromium",
    "--viewport-size",
    "1280,900",
]
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
Call = tuple[str, dict[str, Any]]


def sh(cmd: str) -> None:
    print("+", cmd, file=sys.stderr)
    subprocess.run(cmd, shell=True, check=True)


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
    os.makedirs(WWW, exist_ok=True)
    for name, target in DOC_LINKS.items():
        link = os.path.join(WWW, name)
        if os.path.islink(link):
            os.remove(link)
        os.symlink(target, link)


# ----------------------------------------------------------------------------- MCP client
async def run_calls(command: str, args: list[str], calls: list[Call]) -> list[tuple[str, str, bool]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    # cwd: @playwright/mcp writes its .playwright-mcp/ files there
    params = StdioServerParameters(command=command, args=args, env=dict(os.environ), cwd=BASE)
    outs = []
    with open(f"{BASE}/server-stderr.log", "a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for name, arguments in calls:
                    res = await session.call_tool(name, arguments)
                    text = "".join(c.text for c in res.content if getattr(c, "type", "") == "text")
                    outs.append((name, text, bool(getattr(res, "is_error", False))))
    return outs


def run(command: str, args: list[str], calls: list[Call]) -> list[str]:
    results = asyncio.run(run_calls(command, args, calls))
    for name, text, is_error in results:
        if is_error:
            raise RuntimeError(f"{command} {name} failed: {text[:400]}")
    return [text for _, text, _ in results]


def playwright(calls: list[Call]) -> list[str]:
    return run("node", PW_ARGS, calls)


def save(item_id: str, ext: str, text: str) -> None:
    path = os.path.join(CORPUS, f"{item_id}.{ext}")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"saved {item_id}.{ext} {len(text.encode())} bytes", file=sys.stderr)


def http_server() -> subprocess.Popen[bytes] | None:
    sock = socket.socket()
    try:
        sock.connect(("127.0.0.1", PORT))
        sock.close()
        return None
    except OSError:
        pass
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1", "--directory", WWW],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)
    return proc


def find_ref(snapshot: str, pattern: str) -> str:
    match = re.search(pattern, snapshot)
    if not match:
        raise RuntimeError(f"no match for {pattern!r} in the snapshot")
    return match.group(1)


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
        texts = playwright([("browser_navigate", {"url": url}), ("browser_snapshot", {})])
        save(item_id, "txt", texts[-1])
    # rustdoc search: the search box's ref is read from a first snapshot, as an agent would
    first = playwright([("browser_navigate", {"url": f"{RUST}/std/index.html"}), ("browser_snapshot", {})])
    ref = find_ref(first[-1], r'searchbox "Click or press[^"]*" \[ref=(e\d+)\]')
    texts = playwright(
        [
            ("browser_navigate", {"url": f"{RUST}/std/index.html"}),
            ("browser_type", {"element": "search box", "target": ref, "text": RUST_QUERY, "submit": True}),
            ("browser_wait_for", {"text": "Results for"}),
            ("browser_snapshot", {}),
        ]
    )
    save("snapshot-playwright-rust-std-search-read-to", "txt", texts[-1])
    # Node.js docs: from the API index, click the "Command-line options" link, then snapshot
    first = playwright([("browser_navigate", {"url": f"{NODE}/index.html"}), ("browser_snapshot", {})])
    ref = find_ref(first[-1], r'link "Command-line options" \[ref=(e\d+)\]')
    texts = playwright(
        [
            ("browser_navigate", {"url": f"{NODE}/index.html"}),
            ("browser_click", {"element": "Command-line options link", "target": ref}),
            ("browser_snapshot", {}),
        ]
    )
    save("snapshot-playwright-nodejs-cli-click", "txt", texts[-1])


RUST_QUERY = "read_to"


FETCH_PAGES = [
    ("webpage-fetch-bash-manpage", f"{HTTP}/bash/bash.html"),
    ("webpage-fetch-cmake-install", f"{CMAKE}/command/install.html"),
    ("webpage-fetch-nodejs-child-process", f"{NODE}/child_process.html"),
    ("webpage-fetch-postgresql15-client-config", f"{PG}/runtime-config-client.html"),
    ("webpage-fetch-postgresql15-release-15", f"{PG}/release-15.html"),
    ("webpage-fetch-rust-book-ownership", f"{RUST}/book/ch04-01-what-is-ownership.html"),
]
FETCH_MAX_LENGTH = 400000


def capture_fetch() -> None:
    calls: list[Call] = [("fetch", {"url": url, "max_length": FETCH_MAX_LENGTH}) for _, url in FETCH_PAGES]
    texts = run(f"{BASE}/venv/bin/mcp-server-fetch", ["--allow-private-ips"], calls)
    for (item_id, _), text in zip(FETCH_PAGES, texts, strict=True):
        save(item_id, "md", text)


SECTIONS: dict[str, Callable[[], None]] = {
    "snapshot": capture_snapshot,
    "fetch": capture_fetch,
}


# ----------------------------------------------------------------------------- check
MIN_BYTES, MAX_BYTES, MAX_GROUP_BYTES = 8_000, 600_000, 2_200_000


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
        if not record["id"].startswith(record["kind"] + "-") or not re.fullmatch(r"[a-z0-9-]+", record["id"]):
            print("ID", record["id"])
            problems += 1
        if not 3 <= len(record["facts"]) <= 6:
            print("NFACTS", record["id"], len(record["facts"]))
            problems += 1
        lines = text.splitlines()
        for fact in record["facts"]:
            answer, query = str(fact["answer"]), str(fact["query"])
            if not any(answer in line for line in lines):
                print("MISSING (not on one line)", record["id"], repr(answer))
                problems += 1
            elif text.count(answer) > 1:
                print("NOT UNIQUE", record["id"], repr(answer), text.count(answer))
            if not 8 <= len(answer) <= 90:
                print("ANSWER LENGTH", record["id"], repr(answer))
                problems += 1
            if answer.lower() in query.lower():
                print("QUERY HAS ANSWER", record["id"], repr(query))
                problems += 1
            if not 3 <= len(query.split()) <= 10:
                print("QUERY WORDS", record["id"], repr(query))
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
        server = http_server()
        try:
            for section in argv[1:] or list(SECTIONS):
                SECTIONS[section]()
        finally:
            if server:
                server.terminate()
                server.wait()
    elif command == "check":
        return 1 if check() else 0
    else:
        print(f"unknown command {command!r} (setup, capture or check)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
