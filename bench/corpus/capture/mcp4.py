#!/usr/bin/env python3
"""Capture the `mcp4` corpus group: a fresh, all-holdout set of real MCP server outputs.

Re-make everything with::

    python3 bench/corpus/capture/mcp4.py setup        # servers, docs and inputs into /tmp/corpus-mcp4
    /work/main/.venv/bin/python bench/corpus/capture/mcp4.py capture [section ...]
                                                      # sections: snapshot fetch rows tree source
    python3 bench/corpus/capture/mcp4.py check        # records vs payloads (sizes, answers, queries)

Run ``capture`` with the project's venv python (it holds the mcp SDK client). Every item of this
group is ``set: holdout``: the whole group is evaluation data nobody tunes on.

Setup touches nothing outside /tmp/corpus-mcp4: the Debian packages are fetched with
``apt-get download`` and unpacked with ``dpkg-deb -x`` (not installed), the npm servers go into
/tmp/corpus-mcp4/node_modules, the PyPI servers into their own venvs, the sdists come from PyPI's
JSON API (``pip download --no-binary`` would build pandas' numpy to read its metadata).

Servers and inputs (each talked to over stdio with mcp.ClientSession, one session per section):
  * @playwright/mcp 0.0.83 driving Debian chromium headless on the Apache HTTP Server 2.4 manual
    (apache2-doc, mod/mod_rewrite.html) and on the Jinja 3.1 docs (python-jinja2-doc): the Sphinx
    search page after typing a query into it
  * mcp-server-fetch 2026.10.24 (PyPI) on the Sphinx 5.3 configuration reference (sphinx-doc)
    and the zsh 5.9 manual's Options chapter (zsh-doc)
  * mcp-server-sqlite 2025.4.25 (PyPI) on Debian's pci.ids (package pci.ids) parsed into
    vendors / devices / subsystems tables; mcp-alchemy 2026.10.15.202659 (PyPI) on the
    palmerpenguins 0.1.6 (PyPI) penguins_raw.csv loaded into SQLite
  * @modelcontextprotocol/server-filesystem 2026.8.31 (npm) on the pytest 9.2.0 and pandas 3.1.1
    sdists (PyPI), on rack 2.2.22 (Ruby; Debian ruby-rack) and on Penlight 1.13.1 (Lua; Debian
    lua-penlight)

The docs are served by ``python3 -m http.server`` on 127.0.0.1:8781 from a docroot of symlinks
(/tmp/corpus-mcp4/www/<name> -> an unpacked package's HTML folder); it is stopped at the end of
``capture``. Only normalisation of payloads: /tmp/corpus-mcp4/src/<x> becomes
/home/runner/work/<x>. A re-capture reproduces every payload byte for byte except the Jinja
search snapshot, whose later refs (f1e1xx) depend on when the JS search finished rendering: keep
the committed payload (its facts cite its refs) or re-check those facts after re-capturing it.
"""

from __future__ import annotations

import csv
import glob
import json
import os
import sqlite3
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

import common
from common import sh

BASE = "/tmp/corpus-mcp4"
SRC = f"{BASE}/src"
DOCS = f"{BASE}/docs"
WWW = f"{BASE}/www"
DB = f"{BASE}/data/mcp4.db"
PORT = 8781
HTTP = f"http://127.0.0.1:{PORT}"
NODE_BIN = f"{BASE}/node_modules/.bin"
NPM_PACKAGES = ["@playwright/mcp@0.0.83", "@modelcontextprotocol/server-filesystem@2026.8.31"]
DEBS = [
    "apache2-doc",
    "python-jinja2-doc",
    "sphinx-doc",
    "zsh-doc",
    "pci.ids",
    "ruby-rack",
    "lua-penlight",
]
SDISTS = {"pytest": "9.2.0", "pandas": "3.1.1"}
PENGUINS = "palmerpenguins==0.1.6"
DOC_LINKS = {
    "apache2-doc": f"{DOCS}/apache2-doc/usr/share/doc/apache2-doc/manual",
    "jinja": f"{DOCS}/python-jinja2-doc/usr/share/doc/python-jinja2-doc/html",
    "sphinx": f"{DOCS}/sphinx-doc/usr/share/doc/sphinx-doc/html",
    "zsh": f"{DOCS}/zsh-doc/usr/share/doc/zsh-common/html",
}
PYTEST = f"{SRC}/pytest-{SDISTS['pytest']}"
PANDAS = f"{SRC}/pandas-{SDISTS['pandas']}"
RACK = f"{SRC}/rack-2.2.22"
PENLIGHT = f"{SRC}/penlight-1.13.1"
# cwd: @playwright/mcp writes its .playwright-mcp/ files there
SCRATCH = common.Scratch(BASE, rewrite={f"{SRC}/": common.RUNNER}, cwd=BASE)
run = SCRATCH.run
save = SCRATCH.save


# ----------------------------------------------------------------------------- setup
def setup() -> None:
    for d in (f"{BASE}/debs", DOCS, SRC, f"{BASE}/sdists", f"{BASE}/data"):
        os.makedirs(d, exist_ok=True)
    # chromium for playwright; libjs-sphinxdoc holds the search JS the Sphinx docs symlink to
    sh(
        "apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends --no-upgrade chromium libjs-sphinxdoc"
    )
    # docs and inputs: downloaded and unpacked, not installed (installing sphinx-doc would pull
    # python3-doc and upgrade the system python3.11)
    sh(f"cd {BASE}/debs && rm -f *.deb && apt-get download {' '.join(DEBS)}")
    for deb in sorted(glob.glob(f"{BASE}/debs/*.deb")):
        name = os.path.basename(deb).split("_")[0]
        sh(f"rm -rf {DOCS}/{name} && dpkg-deb -x {deb} {DOCS}/{name}")
    for name in ("python-jinja2-doc", "sphinx-doc"):  # _static/*.js -> ../../../../javascript/sphinxdoc
        sh(f"ln -sfn /usr/share/javascript {DOCS}/{name}/usr/share/javascript")
    common.link_docroot(WWW, DOC_LINKS)
    sh(
        f"cd {BASE} && ([ -f package.json ] || npm init -y >/dev/null) && npm install --no-audit --no-fund {' '.join(NPM_PACKAGES)}"
    )
    sh(
        f"[ -x {BASE}/venv/bin/mcp-server-fetch ] || (python3 -m venv {BASE}/venv && {BASE}/venv/bin/pip install -q mcp-server-fetch==2026.10.24)"
    )
    # mcp-server-sqlite 2025.4.25 uses the mcp 1.x low-level server API
    sh(
        f"[ -x {BASE}/venv-sqlite/bin/mcp-server-sqlite ] || (python3 -m venv {BASE}/venv-sqlite && "
        f"{BASE}/venv-sqlite/bin/pip install -q mcp-server-sqlite==2025.4.25 'mcp<2')"
    )
    sh(
        f"[ -x {BASE}/venv-alchemy/bin/mcp-alchemy ] || (python3 -m venv {BASE}/venv-alchemy && "
        f"{BASE}/venv-alchemy/bin/pip install -q mcp-alchemy==2026.10.15.202659)"
    )
    for name, version in SDISTS.items():
        tgz = f"{BASE}/sdists/{name}-{version}.tar.gz"
        if not os.path.exists(tgz):
            api = f"https://pypi.org/pypi/{name}/json"
            with urllib.request.urlopen(api) as resp:
                files = json.load(resp)["releases"][version]
            url = next(f["url"] for f in files if f["packagetype"] == "sdist")
            sh(f"curl -sSfL -o {tgz} {urllib.parse.urljoin(api, url)}")
        sh(f"rm -rf {SRC}/{name}-{version} && tar -xzf {tgz} -C {SRC}")
    sh(f"rm -rf {RACK} && cp -a {DOCS}/ruby-rack/usr/share/rubygems-integration/all/gems/rack-2.2.22 {RACK}")
    sh(
        f"rm -rf {PENLIGHT} && mkdir -p {PENLIGHT}/lua && cp -aL {DOCS}/lua-penlight/usr/share/lua/5.1/pl {PENLIGHT}/lua/pl"
    )
    sh(
        f"rm -rf {BASE}/data/penguins && {BASE}/venv/bin/pip download -q --no-deps -d {BASE}/sdists {PENGUINS}"
    )
    sh(
        f"cd {BASE}/data && python3 -m zipfile -e {BASE}/sdists/palmerpenguins-0.1.6-py3-none-any.whl penguins"
    )
    build_db()


def conv(value: str) -> Any:
    if value == "NA":
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def build_db() -> None:
    if os.path.exists(DB):
        os.remove(DB)
    con = sqlite3.connect(DB)
    # pci.ids: vendors, their devices, the devices' subsystems, and the device classes
    con.execute("CREATE TABLE vendors (vendor_id TEXT PRIMARY KEY, name TEXT)")
    con.execute(
        "CREATE TABLE devices (vendor_id TEXT, device_id TEXT, name TEXT, PRIMARY KEY (vendor_id, device_id))"
    )
    con.execute(
        "CREATE TABLE subsystems (vendor_id TEXT, device_id TEXT, subvendor_id TEXT, subdevice_id TEXT, name TEXT)"
    )
    con.execute("CREATE TABLE classes (class_id TEXT, subclass_id TEXT, name TEXT)")
    vendor = device = klass = None
    with open(f"{DOCS}/pci.ids/usr/share/misc/pci.ids", encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("C "):
                klass = line[2:4]
                vendor = None
                con.execute("INSERT INTO classes VALUES (?, NULL, ?)", (klass, line[4:].strip()))
            elif klass and line.startswith("\t") and not line.startswith("\t\t"):
                con.execute("INSERT INTO classes VALUES (?, ?, ?)", (klass, line[1:3], line[3:].strip()))
            elif klass:
                continue  # programming interfaces
            elif not line.startswith("\t"):
                vendor = line[:4]
                con.execute("INSERT INTO vendors VALUES (?, ?)", (vendor, line[4:].strip()))
            elif not line.startswith("\t\t"):
                device = line[1:5]
                con.execute("INSERT INTO devices VALUES (?, ?, ?)", (vendor, device, line[5:].strip()))
            else:
                sub = line[2:].split(None, 2)
                con.execute(
                    "INSERT INTO subsystems VALUES (?, ?, ?, ?, ?)",
                    (vendor, device, sub[0], sub[1], sub[2] if len(sub) > 2 else ""),
                )
    # palmerpenguins: both CSVs, columns as in the files
    data = f"{BASE}/data/penguins/palmerpenguins/data"
    for fname, table in [("penguins.csv", "penguins"), ("penguins-raw.csv", "penguins_raw")]:
        with open(os.path.join(data, fname), newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        cols = ", ".join('"' + c + '"' for c in rows[0])
        con.execute(f"CREATE TABLE {table} ({cols})")
        con.executemany(
            f"INSERT INTO {table} VALUES ({','.join('?' * len(rows[0]))})",
            [[conv(c) for c in r] for r in rows[1:]],
        )
    con.commit()
    con.close()


# ----------------------------------------------------------------------------- capture
APACHE = f"{HTTP}/apache2-doc/en"
JINJA = f"{HTTP}/jinja"
JINJA_QUERY = "filter"


def capture_snapshot() -> None:
    """A long module reference with directive tables, and a search page after typing into it."""
    save(
        "snapshot-playwright-apache24-mod-rewrite", "txt", SCRATCH.snapshot(f"{APACHE}/mod/mod_rewrite.html")
    )
    box = r'(?:textbox|searchbox) "[^"]*" \[ref=(e\d+)\]'
    search = SCRATCH.search(f"{JINJA}/search.html", box, JINJA_QUERY, "Search finished")
    save("snapshot-playwright-jinja-search-filter", "txt", search)


FETCH_PAGES = [
    ("webpage-fetch-sphinx-configuration", f"{HTTP}/sphinx/usage/configuration.html"),
    ("webpage-fetch-zsh-options", f"{HTTP}/zsh/Options.html"),
]


def capture_fetch() -> None:
    SCRATCH.fetch(FETCH_PAGES)


PCI_QUERY = (
    "SELECT v.vendor_id, v.name AS vendor, d.device_id, d.name AS device, COUNT(s.subdevice_id) AS subsystems "
    "FROM devices d JOIN vendors v ON v.vendor_id = d.vendor_id "
    "LEFT JOIN subsystems s ON s.vendor_id = d.vendor_id AND s.device_id = d.device_id "
    "WHERE v.vendor_id IN ('8086', '10ec', '14e4', '15b3', '1077') "
    "AND (d.name LIKE '%Ethernet%' OR d.name LIKE '%Gigabit%' OR d.name LIKE '%NetXtreme%') "
    "GROUP BY v.vendor_id, d.device_id ORDER BY v.vendor_id, d.device_id"
)
PENGUINS_QUERY = (
    'SELECT "studyName", "Sample Number", "Species", "Island", "Individual ID", "Clutch Completion", "Date Egg", '
    '"Culmen Length (mm)", "Culmen Depth (mm)", "Flipper Length (mm)", "Body Mass (g)", "Sex", '
    '"Delta 15 N (o/oo)", "Delta 13 C (o/oo)", "Comments" '
    'FROM penguins_raw WHERE "Species" LIKE \'Gentoo%\' ORDER BY "studyName", "Sample Number"'
)


def capture_rows() -> None:
    texts = run(
        f"{BASE}/venv-sqlite/bin/mcp-server-sqlite", ["--db-path", DB], [("read_query", {"query": PCI_QUERY})]
    )
    save("rows-sqlite-pci-ids-ethernet", "txt", texts[0])
    texts = run(
        f"{BASE}/venv-alchemy/bin/mcp-alchemy",
        [],
        [("execute_query", {"query": PENGUINS_QUERY})],
        env={"DB_URL": f"sqlite:///{DB}", "EXECUTE_QUERY_MAX_CHARS": "400000"},
    )
    save("rows-alchemy-palmer-penguins-gentoo", "txt", texts[0])


FS = f"{NODE_BIN}/mcp-server-filesystem"


def capture_tree() -> None:
    texts = run(
        FS,
        [PYTEST, PANDAS],
        [
            ("directory_tree", {"path": PYTEST}),
            ("search_files", {"path": f"{PANDAS}/pandas/tests", "pattern": "**/test_*.py"}),
        ],
    )
    save("tree-filesystem-pytest", "json", texts[0])
    save("tree-filesystem-search-pandas-tests", "txt", texts[1])


RACK_FILES = ["request.rb", "response.rb", "utils.rb", "builder.rb", "static.rb", "mock.rb"]


def capture_source() -> None:
    texts = run(
        FS,
        [RACK, PENLIGHT],
        [
            ("read_multiple_files", {"paths": [f"{RACK}/lib/rack/{name}" for name in RACK_FILES]}),
            ("read_text_file", {"path": f"{PENLIGHT}/lua/pl/tablex.lua"}),
        ],
    )
    save("source-filesystem-rack-multi", "txt", texts[0])
    save("source-filesystem-penlight-tablex", "txt", texts[1])


SECTIONS: dict[str, Callable[[], None]] = {
    "snapshot": capture_snapshot,
    "fetch": capture_fetch,
    "rows": capture_rows,
    "tree": capture_tree,
    "source": capture_source,
}


# ----------------------------------------------------------------------------- check
RULES = common.Rules(
    sizes=(8_000, 600_000),
    max_group_bytes=2_200_000,
    only_set="holdout",
    one_line=True,
    answer_length=(8, 90),
    query_words=(3, 10),
    note_repeats=True,
)


def check() -> int:
    """Print one line per record and every problem; return the number of problems."""
    return common.check_part("mcp4", RULES)


if __name__ == "__main__":
    raise SystemExit(common.main(SECTIONS, setup, check, commands={"build_db": build_db}, serve=(PORT, WWW)))
