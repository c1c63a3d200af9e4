#!/usr/bin/env python3
"""Capture the `mcp` corpus group: real MCP servers driven through the real Python MCP client.

Re-make everything with:
    python bench/corpus/capture/mcp.py setup     # installs servers/datasets into /tmp/corpus-mcp
    python bench/corpus/capture/mcp.py capture [section ...]   # sections: snapshot fetch rows fs code git
    python bench/corpus/capture/mcp.py check     # answers verbatim in payloads, queries w/o answers

Run `capture` with the project's venv python (/work/main/.venv/bin/python, mcp SDK 2.3).

Servers (all talked to over stdio with mcp.ClientSession):
  * @playwright/mcp (npm) + Debian chromium, on Python 3.11 HTML docs (Debian python3-doc)
    served by `python3 -m http.server` on 127.0.0.1
  * mcp-server-fetch (PyPI) on git-doc / sqlite3-doc HTML pages on 127.0.0.1
  * mcp-server-sqlite (PyPI; needs mcp<2 so it has its own venv) and mcp-alchemy (PyPI) on a
    SQLite DB built from vega_datasets CSVs (PyPI) and Debian iso-codes JSON
  * @modelcontextprotocol/server-filesystem (npm) on the unpacked click 8.5.1 sdist (PyPI)
  * mcp-ripgrep (npm, over Debian ripgrep) on the click sdist and the packaging work tree
  * mcp-server-git (PyPI, in /work/main/.venv) on a git history made by committing the packaging
    sdists 20.0 .. 26.4 (PyPI) in release order; commit message = that release's CHANGELOG entry.

Only normalisation of payloads: the scratch root /tmp/corpus-mcp/<x> is rewritten to
/home/runner/work/<x>, and the local http port stays 127.0.0.1:8765.
"""

import csv
import dataclasses
import glob
import json
import os
import re
import sqlite3
import subprocess
import tarfile
import time

import common  # also keeps this file, called mcp.py, from shadowing the mcp SDK package
from common import sh

# the payload of a failed tool call is kept as it came (these captures predate the error check)
SCRATCH = dataclasses.replace(common.MCP, check=False)
run = SCRATCH.run
save = SCRATCH.save
BASE = SCRATCH.root
HTTP = common.MCP_HTTP
NODE_BIN = f"{BASE}/node_modules/.bin"
PACKAGING_VERSIONS = [
    "20.0",
    "20.1",
    "20.2",
    "20.3",
    "20.4",
    "20.8",
    "20.9",
    "21.0",
    "21.1",
    "21.2",
    "21.3",
    "22.0",
    "23.0",
    "23.1",
    "23.2",
    "24.0",
    "24.1",
    "24.2",
    "25.0",
    "26.0",
    "26.1",
    "26.2",
    "26.3",
    "26.4",
]
CLICK_VERSION = "8.5.1"


# ----------------------------------------------------------------------------- setup
def setup():
    os.makedirs(BASE, exist_ok=True)
    sh(
        "apt-get install -y -o DPkg::Lock::Timeout=300 chromium python3-doc git-doc sqlite3-doc iso-codes ripgrep"
    )
    sh(f"cd {BASE} && [ -f package.json ] || npm init -y >/dev/null")
    sh(
        f"cd {BASE} && npm install @playwright/mcp@0.0.83 @modelcontextprotocol/server-filesystem@2026.8.31 mcp-ripgrep@0.4.0"
    )
    sh(
        f"python3 -m venv {BASE}/venv && {BASE}/venv/bin/pip install -q mcp-server-fetch==2026.10.24 "
        "vega_datasets==0.9.0 flit_core setuptools wheel"
    )
    # mcp-server-sqlite 2025.4.25 uses the mcp 1.x low-level server API
    sh(
        f"python3 -m venv {BASE}/venv-sqlite && {BASE}/venv-sqlite/bin/pip install -q "
        "mcp-server-sqlite==2025.4.25 'mcp<2'"
    )
    sh(
        f"python3 -m venv {BASE}/venv-alchemy && {BASE}/venv-alchemy/bin/pip install -q "
        "mcp-alchemy==2026.10.15.202659"
    )
    os.makedirs(f"{BASE}/sdists/packaging", exist_ok=True)
    for v in PACKAGING_VERSIONS:
        sh(
            f"{BASE}/venv/bin/pip download -q --no-deps --no-binary :all: --no-build-isolation "
            f"-d {BASE}/sdists/packaging packaging=={v}"
        )
    sh(
        f"{BASE}/venv/bin/pip download -q --no-deps --no-binary :all: --no-build-isolation "
        f"-d {BASE}/sdists/click click=={CLICK_VERSION}"
    )
    build_db()
    build_git()
    unpack_click()


def build_db():
    db = DB
    os.makedirs(os.path.dirname(db), exist_ok=True)
    if os.path.exists(db):
        os.remove(db)
    con = sqlite3.connect(db)
    vd = glob.glob(f"{BASE}/venv/lib/python3*/site-packages/vega_datasets/_data")[0]
    for name, table in [
        ("airports.csv", "airports"),
        ("seattle-weather.csv", "seattle_weather"),
        ("us-employment.csv", "us_employment"),
        ("stocks.csv", "stocks"),
    ]:
        with open(os.path.join(vd, name), newline="") as f:
            rows = list(csv.reader(f))
        hdr = rows[0]

        def conv(x):
            try:
                return int(x)
            except ValueError:
                try:
                    return float(x)
                except ValueError:
                    return x

        con.execute(f"CREATE TABLE {table} ({', '.join(chr(34) + h + chr(34) for h in hdr)})")
        con.executemany(
            f"INSERT INTO {table} VALUES ({','.join('?' * len(hdr))})",
            [[conv(c) for c in r] for r in rows[1:]],
        )
    iso = "/usr/share/iso-codes/json"
    for fname, key, table in [
        ("iso_3166-1.json", "3166-1", "countries"),
        ("iso_3166-2.json", "3166-2", "subdivisions"),
        ("iso_639-3.json", "639-3", "languages"),
        ("iso_4217.json", "4217", "currencies"),
    ]:
        data = json.load(open(os.path.join(iso, fname)))[key]
        cols = []
        for d in data:
            for k in d:
                if k not in cols:
                    cols.append(k)
        con.execute(f"CREATE TABLE {table} ({', '.join(chr(34) + c + chr(34) for c in cols)})")
        con.executemany(
            f"INSERT INTO {table} VALUES ({','.join('?' * len(cols))})",
            [[d.get(c) for c in cols] for d in data],
        )
    con.commit()
    con.close()


def changelog_entry(src, version):
    """The release's own section of CHANGELOG.rst (verbatim)."""
    p = os.path.join(src, "CHANGELOG.rst")
    if not os.path.exists(p):
        return ""
    lines = open(p, encoding="utf-8").read().split("\n")
    start = None
    for i, l in enumerate(lines):
        if (
            re.match(rf"^{re.escape(version)}( |$)", l)
            and i + 1 < len(lines)
            and re.match(r"^[~\-=^]{3,}$", lines[i + 1])
        ):
            start = i
            break
    if start is None:
        return ""
    end = len(lines)
    for j in range(start + 2, len(lines)):
        if j + 1 < len(lines) and re.match(r"^[~\-=^]{3,}$", lines[j + 1]) and re.match(r"^\d", lines[j]):
            end = j
            break
    return "\n".join(lines[start:end]).strip()


def build_git():
    repo = f"{BASE}/git/packaging"
    sh(f"rm -rf {repo} && mkdir -p {repo} && git -C {repo} init -q -b main")
    for v in PACKAGING_VERSIONS:
        tgz = f"{BASE}/sdists/packaging/packaging-{v}.tar.gz"
        sh(
            f"cd {repo} && git rm -rq --ignore-unmatch . >/dev/null && find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {{}} +"
        )
        with tarfile.open(tgz) as t:
            members = t.getmembers()
            mtime = max(m.mtime for m in members)
            t.extractall(f"{BASE}/git/_x", filter="data")
        src = f"{BASE}/git/_x/packaging-{v}"
        sh(f"cp -a {src}/. {repo}/ && rm -rf {BASE}/git/_x")
        pkginfo = open(f"{repo}/PKG-INFO", encoding="utf-8").read()
        m = re.search(r"^Author-email: (.*?) <(.*?)>", pkginfo, re.M)
        if m:
            an, ae = m.group(1), m.group(2)
        else:
            an = re.search(r"^Author: (.*)$", pkginfo, re.M).group(1)
            ae = re.search(r"^Author-email: (.*)$", pkginfo, re.M).group(1)
        entry = changelog_entry(repo, v)
        msg = f"Release packaging {v}\n\n{entry}\n" if entry else f"Release packaging {v}\n"
        date = time.strftime("%Y-%m-%dT%H:%M:%S+0000", time.gmtime(mtime))
        env = dict(
            os.environ,
            GIT_AUTHOR_NAME=an,
            GIT_AUTHOR_EMAIL=ae,
            GIT_AUTHOR_DATE=date,
            GIT_COMMITTER_NAME=an,
            GIT_COMMITTER_EMAIL=ae,
            GIT_COMMITTER_DATE=date,
        )
        sh(f"cd {repo} && git add -A && git commit -q -F -", input=msg.encode(), env=env)
        sh(f"cd {repo} && git tag {v}")


def unpack_click():
    d = f"{BASE}/src"
    os.makedirs(d, exist_ok=True)
    sh(
        f"rm -rf {d}/click-{CLICK_VERSION} && tar -xzf {BASE}/sdists/click/click-{CLICK_VERSION}.tar.gz -C {d}"
    )


PY = f"{HTTP}/python3-doc/html"


def cap_snapshot():
    # big nav/index page
    save("snapshot-playwright-python311-library-index", "txt", SCRATCH.snapshot(f"{PY}/library/index.html"))
    # form-ish page: the Sphinx search page, query typed into its form and submitted
    search = SCRATCH.search(
        f"{PY}/search.html", r'textbox "Search" \[ref=(e\d+)\]', "timeout", "Search finished"
    )
    save("snapshot-playwright-python311-search", "txt", search)
    # long article
    save("snapshot-playwright-python311-argparse", "txt", SCRATCH.snapshot(f"{PY}/library/argparse.html"))
    # table-heavy page
    save("snapshot-playwright-python311-codecs", "txt", SCRATCH.snapshot(f"{PY}/library/codecs.html"))


def cap_fetch():
    SCRATCH.fetch(
        [
            ("webpage-fetch-git-rebase", f"{HTTP}/git-doc/git-rebase.html"),
            ("webpage-fetch-sqlite-pragma", f"{HTTP}/sqlite3/pragma.html"),
            ("webpage-fetch-sqlite-datatype3", f"{HTTP}/sqlite3/datatype3.html"),
        ]
    )


DB = common.MCP_DB


def cap_rows():
    sq = f"{BASE}/venv-sqlite/bin/mcp-server-sqlite"
    outs = run(
        sq,
        ["--db-path", DB],
        [
            (
                "read_query",
                {
                    "query": "SELECT iata, name, city, state, latitude, longitude FROM airports "
                    "WHERE state IN ('TX', 'CA') ORDER BY state, city, iata"
                },
            ),
            (
                "read_query",
                {
                    "query": "SELECT l.alpha_3, l.name, l.scope, l.type, l.alpha_2 FROM languages l "
                    "WHERE l.type = 'L' AND l.scope = 'I' AND l.name LIKE '%an' ORDER BY l.name"
                },
            ),
        ],
    )
    save("rows-sqlite-vega-airports", "txt", outs[0])
    save("rows-sqlite-iso639-languages", "txt", outs[1])
    al = f"{BASE}/venv-alchemy/bin/mcp-alchemy"
    outs = run(
        al,
        [],
        [
            (
                "execute_query",
                {
                    "query": "SELECT s.code, s.name, s.type, s.parent, c.name AS country "
                    "FROM subdivisions s JOIN countries c ON c.alpha_2 = substr(s.code, 1, 2) "
                    "WHERE c.alpha_2 IN ('FR', 'IT', 'ES') ORDER BY s.code"
                },
            ),
            (
                "execute_query",
                {
                    "query": "SELECT date, precipitation, temp_max, temp_min, wind, weather "
                    "FROM seattle_weather WHERE date >= '2014-01-01' AND date < '2015-01-01' ORDER BY date"
                },
            ),
        ],
        env={"DB_URL": f"sqlite:///{DB}", "EXECUTE_QUERY_MAX_CHARS": "400000"},
    )
    save("rows-alchemy-iso3166-subdivisions", "txt", outs[0])
    save("rows-alchemy-vega-seattle-weather", "txt", outs[1])


CLICK = f"{BASE}/src/click-{CLICK_VERSION}"


def cap_fs():
    fs = f"{NODE_BIN}/mcp-server-filesystem"
    outs = run(
        fs,
        [CLICK],
        [
            ("directory_tree", {"path": CLICK, "excludePatterns": ["docs/_static"]}),
            ("search_files", {"path": CLICK, "pattern": "**/*"}),
            (
                "read_multiple_files",
                {
                    "paths": [
                        f"{CLICK}/src/click/{n}"
                        for n in [
                            "decorators.py",
                            "exceptions.py",
                            "globals.py",
                            "termui.py",
                            "_termui_impl.py",
                        ]
                    ]
                },
            ),
            ("read_text_file", {"path": f"{CLICK}/src/click/core.py"}),
        ],
    )
    save("tree-filesystem-click", "json", outs[0])
    save("tree-filesystem-search-click", "txt", outs[1])
    save("source-filesystem-click-multi", "txt", outs[2])
    save("source-filesystem-click-core", "txt", outs[3])


def cap_code():
    rg = f"{NODE_BIN}/mcp-ripgrep"
    outs = run(
        rg,
        [],
        [
            (
                "search",
                {
                    "pattern": r"raise\s+(BadParameter|UsageError|NoSuchOption|BadOptionUsage|BadArgumentUsage|ClickException|Abort|Exit)\b",
                    "path": f"{CLICK}/src",
                    "context": 3,
                },
            ),
            (
                "advanced-search",
                {
                    "pattern": r"InvalidVersion|InvalidSpecifier|InvalidMarker|InvalidRequirement",
                    "path": REPO,
                    "showLineNumbers": True,
                    "fileType": "py",
                },
            ),
        ],
        cwd=BASE,
    )
    save("code-ripgrep-click-raise", "txt", outs[0])
    save("code-ripgrep-packaging-invalid", "txt", outs[1])


REPO = f"{BASE}/git/packaging"


def git_rev(tag):
    return subprocess.check_output(["git", "-C", REPO, "rev-parse", tag + "^{commit}"], text=True).strip()


def cap_git():
    gitsrv = "/work/main/.venv/bin/python"
    outs = run(
        gitsrv,
        ["-m", "mcp_server_git", "--repository", REPO],
        [
            ("git_log", {"repo_path": REPO, "max_count": 30}),
            ("git_show", {"repo_path": REPO, "revision": git_rev("22.0")}),
            ("git_diff", {"repo_path": REPO, "target": git_rev("26.3")}),
        ],
    )
    save("gitlog-git-log-packaging", "txt", outs[0])
    save("gitlog-git-show-packaging-22", "txt", outs[1])
    save("diff-git-diff-packaging-26-3-head", "diff", outs[2])


SECTIONS = {
    "snapshot": cap_snapshot,
    "fetch": cap_fetch,
    "rows": cap_rows,
    "fs": cap_fs,
    "code": cap_code,
    "git": cap_git,
}


# ----------------------------------------------------------------------------- check
RULES = common.Rules(sizes=(6000, 1_500_000))


def check():
    return common.check_part(
        "mcp", RULES, summary="{items} items, {holdout} holdout, {bytes} bytes, {problems} problems"
    )


if __name__ == "__main__":
    commands = {"build_db": build_db, "build_git": build_git, "unpack_click": unpack_click}
    raise SystemExit(common.main(SECTIONS, setup, check, commands=commands, serve=common.MCP_SERVE))
