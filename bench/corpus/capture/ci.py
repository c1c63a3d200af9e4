#!/usr/bin/env python3
"""Capture script for the `ci` corpus group: build, test and lint output of several ecosystems.

Each item copies a real public project (PyPI sdist, npm tarball, Debian golang-*/librust-* source
package, Debian source package) into a scratch dir under /tmp/corpus-ci/, injects a small real bug
(recorded as `injected_change`), runs the real tool and writes its exact output as the payload.
Only normalisation: scratch-dir absolute paths -> /home/runner/work/<project>/<project>.

Usage:
    python3 capture/ci.py capture [ID ...]   # (re)make payloads (all when no id given)
    python3 capture/ci.py yaml               # write parts/ci.yaml from META + captured diffs
    python3 capture/ci.py check              # answers verbatim in payloads, queries don't contain them

Network: PyPI (pip download), npm registry (npm pack / npm install) and Debian apt only.

Prerequisites (Debian bookworm, run once):
    apt-get install golang-go golang-github-spf13-pflag-dev librust-regex-dev librust-env-logger-dev \
        librust-aho-corasick-dev librust-lazy-static-dev librust-quickcheck-dev librust-rand-dev \
        librust-serde-dev junit4 junit5 maven-debian-helper libsurefire-java libmockito-java \
        libmaven-bundle-plugin-java libmaven-javadoc-plugin-java libcommons-parent-java debhelper cmake
    a deb-src line for bookworm (for `apt-get source` of json-c and commons-io)
    python3 -m venv /tmp/corpus-ci/venv && /tmp/corpus-ci/venv/bin/pip install pytest==9.2.0 \
        mypy==2.4.1 ruff==0.17.6 simplejson
    rust toolchain with cargo + clippy (1.95 used), node 20 + npm 11
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

BASE = Path("/tmp/corpus-ci")
OUT = Path(__file__).resolve().parent.parent  # bench/corpus
DIFFS = BASE / "diffs"  # injected_change of each item, per capture
ITEMS: dict[str, callable] = {}
GOBIN = "/usr/lib/go/bin"


def item(fn):
    ITEMS[fn.__name__.replace("_", "-")] = fn
    return fn


# ---------------------------------------------------------------- helpers


def sh(cmd: str, cwd: Path | str, env: dict | None = None, timeout: int = 1800) -> str:
    """Run a shell command, stdout+stderr merged in arrival order; return its text."""
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    if env:
        e.update(env)
    p = subprocess.run(
        ["bash", "-c", cmd],
        cwd=str(cwd),
        env=e,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
    )
    text = p.stdout.decode("utf-8", "replace")
    print(f"  [{p.returncode}] {cmd[:100]} -> {len(text)} bytes", file=sys.stderr)
    return text


def fresh(name: str) -> Path:
    d = BASE / "work" / name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    return d


def edit(root: Path, rel: str, old: str, new: str) -> str:
    """Replace `old` (must occur exactly once) by `new` in root/rel; return the unified diff."""
    p = root / rel
    text = p.read_text()
    assert text.count(old) == 1, (rel, old, text.count(old))
    new_text = text.replace(old, new)
    p.write_text(new_text)
    return "".join(
        difflib.unified_diff(text.splitlines(True), new_text.splitlines(True), f"a/{rel}", f"b/{rel}", n=1)
    )


def pip_sdist(name: str, version: str, dest: Path) -> Path:
    """Download a PyPI sdist and unpack it into dest; return the project dir."""
    dl = BASE / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    found = [
        f
        for f in dl.glob("*")
        if f.name.lower().replace("_", "-").startswith(f"{name.lower().replace('_', '-')}-{version}.")
    ]
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(dl),
                f"{name}=={version}",
            ],
            check=True,
        )
        found = [
            f
            for f in dl.glob("*")
            if f.name.lower().replace("_", "-").startswith(f"{name.lower().replace('_', '-')}-{version}.")
        ]
    tarfile.open(found[0]).extractall(dest)
    return next(dest.iterdir())


def npm_pack(spec: str, dest: Path) -> Path:
    """npm pack a registry tarball and unpack it into dest/package."""
    dl = BASE / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    out = (
        subprocess.run(["npm", "pack", spec, "--silent"], cwd=dl, check=True, stdout=subprocess.PIPE)
        .stdout.decode()
        .strip()
        .splitlines()[-1]
    )
    dest.mkdir(parents=True, exist_ok=True)
    tarfile.open(dl / out).extractall(dest)
    return dest / "package"


def normalise(text: str, pairs: list[tuple[str, str]]) -> str:
    for a, b in pairs:
        text = text.replace(a, b)
    return text


def save(item_id: str, ext: str, text: str, diff: str) -> None:
    text = text.replace("/root/", "/home/runner/")  # machine home -> runner home
    path = OUT / f"{item_id}.{ext}"
    path.write_text(text, encoding="utf-8")
    DIFFS.mkdir(parents=True, exist_ok=True)
    (DIFFS / f"{item_id}.diff").write_text(diff)
    print(f"{item_id}: {len(text.encode())} bytes", file=sys.stderr)


TIMESTAMP_FILTER = r"""
import sys, datetime
# GitHub-Actions style: stamp each line with the wall clock when it arrives.
for raw in iter(sys.stdin.buffer.readline, b""):
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond * 10:07d}"[:7] + "Z "
    sys.stdout.buffer.write(stamp.encode() + raw)
    sys.stdout.buffer.flush()
"""


# ---------------------------------------------------------------- items


@item
def test_gotest_json_pflag():
    w = fresh("gopath")
    src = w / "src/github.com/spf13/pflag"
    shutil.copytree("/usr/share/gocode/src/github.com/spf13/pflag", src)
    diff = edit(src, "duration_slice.go", "\t\t*s.value = append(*s.value, out...)\n", "\t\t*s.value = out\n")
    diff += edit(src, "count.go", "\t\t*i = countValue(*i + 1)\n", "\t\t*i = countValue(*i + 2)\n")
    text = sh(
        "go test -vet=off -json ./...",
        src,
        env={
            "PATH": f"{GOBIN}:{os.environ['PATH']}",
            "GOPATH": str(w),
            "GO111MODULE": "off",
            "GOPROXY": "off",
            "GOFLAGS": "",
            "GOCACHE": str(BASE / "gocache"),
        },
    )
    text = normalise(text, [(str(src), "/home/runner/work/pflag/pflag"), (str(w), "/home/runner/go")])
    save("test-gotest-json-pflag", "log", text, diff)


VENV = BASE / "venv"  # python3 -m venv; pip install pytest mypy ruff simplejson


def pyproj(name: str, version: str, proj: str) -> tuple[Path, list[tuple[str, str]]]:
    w = fresh(proj)
    src = pip_sdist(name, version, w)
    return src, [(str(src), f"/home/runner/work/{proj}/{proj}"), (str(VENV), "/home/runner/.venv")]


@item
def test_pytest_boltons():
    src, norm = pyproj("boltons", "26.2.0", "boltons")
    diff = edit(
        src,
        "boltons/strutils.py",
        "            output += list(range(min(range_limits), max(range_limits)+1))\n",
        "            output += list(range(min(range_limits), max(range_limits)))\n",
    )
    diff += edit(
        src,
        "boltons/mathutils.py",
        "    return min(max(x, lower), upper)\n",
        "    return min(max(x, lower), upper - 1)\n",
    )
    text = sh(f"{VENV}/bin/python -m pytest -v -p no:cacheprovider", src)
    save("test-pytest-boltons", "log", normalise(text, norm), diff)


@item
def test_pytest_ci_marshmallow():
    src, norm = pyproj("marshmallow", "4.4.0", "marshmallow")
    diff = edit(
        src,
        "src/marshmallow/validate.py",
        "            value > self.max if self.max_inclusive else value >= self.max\n",
        "            value >= self.max if self.max_inclusive else value >= self.max\n",
    )
    diff += edit(
        src,
        "src/marshmallow/validate.py",
        "        if self.max is not None and length > self.max:\n",
        "        if self.max is not None and length >= self.max:\n",
    )
    (BASE / "ts.py").write_text(TIMESTAMP_FILTER)
    text = sh(
        f"{VENV}/bin/python -m pytest -v --color=yes -p no:cacheprovider 2>&1 | python3 {BASE}/ts.py",
        src,
        env={"PYTHONPATH": "src", "PYTHONUNBUFFERED": "1"},
    )
    save("test-pytest-ci-marshmallow", "log", normalise(text, norm), diff)


CARGO_ENV = {"CARGO_HOME": str(BASE / "cargo-home"), "CARGO_TERM_COLOR": "never"}
# cargo-home/config.toml: [source.crates-io] replace-with = "debian";
# [source.debian] directory = "/usr/share/cargo/registry"; [net] offline = true


def cargo_home() -> None:
    h = BASE / "cargo-home"
    h.mkdir(parents=True, exist_ok=True)
    (h / "config.toml").write_text(
        '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\n'
        'directory = "/usr/share/cargo/registry"\n[net]\noffline = true\n'
    )


def crate(name: str, proj: str) -> tuple[Path, list[tuple[str, str]]]:
    cargo_home()
    w = fresh(proj)
    src = w / proj
    shutil.copytree(f"/usr/share/cargo/registry/{name}", src)
    return src, [
        (str(src), f"/home/runner/work/{proj}/{proj}"),
        (str(BASE / "cargo-home"), "/home/runner/.cargo"),
        ("/root/.rustup", "/home/runner/.rustup"),
    ]


@item
def test_cargo_regex():
    # regex 1.7.1 from Debian librust-regex-dev (+ dev-deps librust-{lazy-static,quickcheck,rand}-dev)
    src, norm = crate("regex-1.7.1", "regex")
    diff = edit(
        src,
        "src/expand.rs",
        '            dst.push_str("$");\n            replacement = &replacement[2..];\n'
        "            continue;\n        }\n        debug_assert!(!replacement.is_empty());\n"
        "        let cap_ref = match find_cap_ref(replacement.as_bytes()) {\n",
        '            dst.push_str("$");\n            replacement = &replacement[1..];\n'
        "            continue;\n        }\n        debug_assert!(!replacement.is_empty());\n"
        "        let cap_ref = match find_cap_ref(replacement.as_bytes()) {\n",
    )
    text = sh("cargo test --no-fail-fast", src, env=CARGO_ENV)
    save("test-cargo-regex", "log", normalise(text, norm), diff)


@item
def build_cargo_env_logger():
    # env_logger 0.9.3 from Debian librust-env-logger-dev; deps regex, humantime, termcolor, atty, log
    src, norm = crate("env_logger-0.9.3", "env_logger")
    diff = edit(
        src,
        "src/filter/mod.rs",
        "                name: name.map(|s| s.to_string()),\n",
        "                name: name,\n",
    )
    diff += edit(src, "src/filter/mod.rs", "        return (dirs, None);\n", "        return dirs;\n")
    text = sh("cargo build -v", src, env=CARGO_ENV)
    save("build-cargo-env-logger", "log", normalise(text, norm), diff)


def npm_env() -> dict:
    return {"npm_config_cache": str(BASE / "npm-cache"), "NO_UPDATE_NOTIFIER": "1", "CI": "true"}


@item
def test_vitest_zod():
    # zod 3.25.76 npm tarball ships src/ with its vitest suites (src/v3/tests, src/v4/**/tests)
    w = fresh("zod")
    src = w / "zod"
    src.mkdir()
    pk = npm_pack("zod@3.25.76", w / "unpack")
    shutil.copytree(pk, src, dirs_exist_ok=True)
    sh(
        "npm install --no-save --no-audit --no-fund vitest@3.2.7 recheck@4.5.0 @web-std/file@3.0.3",
        src,
        env=npm_env(),
    )
    (src / "node_modules" / "zod").symlink_to("..")  # self-reference, as in the zod monorepo
    # the repo's vitest config resolves the "@zod/source" export condition to src/*.ts
    (src / "vitest.config.mjs").write_text(
        'import { defineConfig } from "vitest/config";\n'
        'export default defineConfig({\n  resolve: { conditions: ["@zod/source"] },\n'
        '  ssr: { resolve: { conditions: ["@zod/source"] } },\n'
        '  test: { include: ["src/**/*.test.ts"] },\n});\n'
    )
    diff = edit(
        src,
        "src/v4/core/checks.ts",
        "      if (length >= def.minimum) return;\n",
        "      if (length > def.minimum) return;\n",
    )
    diff += edit(
        src,
        "src/v3/types.ts",
        '      if (check.kind === "min") {\n        if (input.data.length < check.value) {\n',
        '      if (check.kind === "min") {\n        if (input.data.length <= check.value) {\n',
    )
    text = sh("npx vitest run --reporter=verbose", src, env=npm_env())
    save("test-vitest-zod", "log", normalise(text, [(str(src), "/home/runner/work/zod/zod")]), diff)


RTK_DEPS = (
    "@standard-schema/spec@1.1.0 @standard-schema/utils@0.3.0 immer@11.2.13 redux@5.0.1 "
    "redux-thunk@3.1.0 reselect@5.3.0 react@19.3.1 react-redux@9.3.1 @types/react@19.3.3 "
    "@types/node@25.9.9 typescript@5.9.3"
)


@item
def lint_tsc_redux_toolkit():
    # @reduxjs/toolkit 2.15.0 npm tarball ships its TypeScript sources in src/
    w = fresh("rtk")
    src = w / "redux-toolkit"
    pk = npm_pack("@reduxjs/toolkit@2.15.0", w / "unpack")
    shutil.copytree(pk, src)
    deps = w / "deps"  # the package's dependencies + peers + typescript (devDeps not needed for tsc)
    deps.mkdir()
    (deps / "package.json").write_text('{"name": "rtk-deps", "private": true}\n')
    sh(f"npm install --no-audit --no-fund {RTK_DEPS}", deps, env=npm_env())
    (src / "node_modules").symlink_to(deps / "node_modules")
    # tsconfig like the repo's: strict, bundler resolution, package self-imports mapped to src
    (src / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "target": "ES2020",
                    "module": "ESNext",
                    "moduleResolution": "Bundler",
                    "lib": ["ES2022", "DOM"],
                    "jsx": "react-jsx",
                    "strict": True,
                    "noEmit": True,
                    "skipLibCheck": True,
                    "esModuleInterop": True,
                    "paths": {
                        "@internal/*": ["./src/*"],
                        "@reduxjs/toolkit": ["./src/index.ts"],
                        "@reduxjs/toolkit/query": ["./src/query/index.ts"],
                        "@reduxjs/toolkit/query/react": ["./src/query/react/index.ts"],
                        "@reduxjs/toolkit/react": ["./src/react/index.ts"],
                    },
                },
                "include": ["src"],
            },
            indent=2,
        )
    )
    diff = edit(src, "src/createAction.ts", "  payload: P\n  type: T\n", "  payload?: P\n  type: T\n")
    diff += edit(
        src,
        "src/query/utils/isNotNullish.ts",
        "export function isNotNullish<T>(v: T | null | undefined): v is T {\n",
        "export function isNotNullish<T>(v: T | null | undefined): boolean {\n",
    )
    text = sh("npx tsc --noEmit -p .", src, env=npm_env())
    save(
        "lint-tsc-redux-toolkit",
        "log",
        normalise(text, [(str(src), "/home/runner/work/redux-toolkit/redux-toolkit")]),
        diff,
    )


NODETOOLS = BASE / "nodetools"  # npm install typescript@5.9.3 eslint@9.39.5 @eslint/js@9.39.5 globals@17.14.0


def nodetools() -> None:
    if not (NODETOOLS / "node_modules" / "eslint").exists():
        NODETOOLS.mkdir(parents=True, exist_ok=True)
        (NODETOOLS / "package.json").write_text('{"name": "nodetools", "private": true}\n')
        sh(
            "npm install --no-audit --no-fund typescript@5.9.3 tslib@2.9.1 eslint@9.39.5 "
            "@eslint/js@9.39.5 globals@17.14.0",
            NODETOOLS,
            env=npm_env(),
        )


@item
def lint_eslint_json_moment():
    # moment 2.30.1 npm tarball ships its ES-module sources in src/
    nodetools()
    w = fresh("moment")
    src = w / "moment"
    shutil.copytree(npm_pack("moment@2.30.1", w / "unpack"), src)
    (src / "node_modules").symlink_to(NODETOOLS / "node_modules")
    (src / "eslint.config.mjs").write_text(
        'import js from "@eslint/js";\nimport globals from "globals";\nexport default [\n'
        '  js.configs.recommended,\n  { files: ["src/**/*.js"], languageOptions: { ecmaVersion: 2015, '
        'sourceType: "module", globals: { ...globals.browser, ...globals.node } } },\n];\n'
    )
    diff = edit(
        src,
        "src/lib/duration/humanize.js",
        "            (seconds < thresholds.s && ['ss', seconds]) ||\n",
        "            (secnds < thresholds.s && ['ss', seconds]) ||\n",
    )
    diff += edit(
        src,
        "src/lib/moment/diff.js",
        "            output = monthDiff(this, that);\n            break;\n",
        "            output = monthDiff(this, that);\n",
    )
    text = sh("npx eslint --format json src/lib src/moment.js", src, env=npm_env())
    save(
        "lint-eslint-json-moment",
        "json",
        normalise(text, [(str(src), "/home/runner/work/moment/moment")]),
        diff,
    )


@item
def lint_eslint_jquery():
    # jquery 3.7.1 npm tarball ships its AMD sources in src/
    nodetools()
    w = fresh("jquery")
    src = w / "jquery"
    shutil.copytree(npm_pack("jquery@3.7.1", w / "unpack"), src)
    (src / "node_modules").symlink_to(NODETOOLS / "node_modules")
    (src / "eslint.config.mjs").write_text(
        'import js from "@eslint/js";\nimport globals from "globals";\nexport default [\n'
        '  js.configs.recommended,\n  {\n    files: ["src/**/*.js"],\n    languageOptions: { ecmaVersion: 5, '
        'sourceType: "script", globals: { ...globals.browser, define: "readonly", jQuery: "readonly" } },\n'
        '    rules: { eqeqeq: "error", curly: "error" },\n  },\n];\n'
    )
    diff = edit(
        src,
        "src/css.js",
        "\t\t\tval = curCSS( elem, name, styles );\n",
        "\t\t\tval = curCss( elem, name, styles );\n",
    )
    diff += edit(
        src,
        "src/ajax.js",
        '\t\t\t\tif ( status === 204 || s.type === "HEAD" ) {\n',
        '\t\t\t\tif ( status = 204 || s.type === "HEAD" ) {\n',
    )
    text = sh("npx eslint src", src, env=npm_env())
    save("lint-eslint-jquery", "txt", normalise(text, [(str(src), "/home/runner/work/jquery/jquery")]), diff)


@item
def lint_mypy_sqlparse():
    src, norm = pyproj("sqlparse", "0.6.1", "sqlparse")
    diff = edit(
        src,
        "sqlparse/sql.py",
        "            return any(pattern.search(self.normalized) for pattern in values)\n",
        "            return any(pattern.search(self.normalised) for pattern in values)\n",
    )
    diff += edit(
        src,
        "sqlparse/sql.py",
        "        return str(self.ttype).split('.')[-1]\n",
        "        return str(self.ttype).split('.')[-1] + 1\n",
    )
    text = sh(f"{VENV}/bin/mypy --strict sqlparse", src)
    save("lint-mypy-sqlparse", "txt", normalise(text, norm), diff)


@item
def lint_ruff_tabulate():
    src, norm = pyproj("tabulate", "0.10.0", "tabulate")
    diff = edit(
        src,
        "tabulate/__init__.py",
        '    fmt = "{0:>%ds}" % width\n    return fmt.format(s)\n',
        '    fmt = "{0:>%ds}" % width\n    return fmt.format(text)\n',
    )
    diff += edit(
        src,
        "tabulate/__init__.py",
        "    except ValueError:  # val is likely to be a numpy array with many elements\n",
        "    except:  # val is likely to be a numpy array with many elements\n",
    )
    text = sh(f"{VENV}/bin/ruff check --no-cache --select E,F,W,B,UP,SIM .", src)
    save("lint-ruff-tabulate", "txt", normalise(text, norm), diff)


# pip as on a stock CI runner: no machine-local config files, indexes or wheel dirs
PIP_CLEAN = {"PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": "", "PIP_NO_CACHE_DIR": "1"}


@item
def build_pip_psutil():
    src, norm = pyproj("psutil", "7.2.2", "psutil")
    diff = edit(
        src, "psutil/arch/linux/mem.c", "    if (sysinfo(&info) != 0)\n", "    if (sysinfo(info) != 0)\n"
    )
    diff += edit(
        src,
        "psutil/arch/linux/mem.c",
        "        info.freeram,  // free\n",
        "        info.free_ram,  // free\n",
    )
    w = src.parent
    sh(f"python3 -m venv {w}/venv", w)
    text = sh(f"{w}/venv/bin/pip install -v .", src, env=PIP_CLEAN)
    norm = [
        (str(w / "venv"), "/home/runner/work/psutil/venv"),
        ("/root/.pyenv/versions/", "/home/runner/.pyenv/versions/"),
    ] + norm
    save("build-pip-psutil", "log", normalise(text, norm), diff)


@item
def build_npm_node_expat():
    # node-expat 2.4.1 (npm tarball: binding.gyp + node-expat.cc + bundled libexpat), installed as a
    # patched vendored tarball into an app; its default `node-gyp rebuild` install step fails
    w = fresh("node-expat")
    pkg = w / "node-expat"
    shutil.copytree(npm_pack("node-expat@2.4.1", w / "unpack"), pkg)
    diff = edit(
        pkg,
        "node-expat.cc",
        "    info.GetReturnValue().Set(Nan::New(parser->getCurrentColumnNumber()));\n",
        "    info.GetReturnValue().Set(Nan::New(parser->getCurrentColumnNo()));\n",
    )
    diff += edit(
        pkg,
        "node-expat.cc",
        "    return XML_GetCurrentLineNumber(parser);\n",
        "    return XML_GetCurrentLineNumber(this);\n",
    )
    app = w / "feed-reader"
    (app / "vendor").mkdir(parents=True)
    sh(f"npm pack {pkg} --pack-destination {app / 'vendor'}", w, env=npm_env())
    (app / "package.json").write_text(
        json.dumps(
            {
                "name": "feed-reader",
                "version": "1.0.0",
                "private": True,
                "dependencies": {"node-expat": "file:vendor/node-expat-2.4.1.tgz"},
            },
            indent=2,
        )
        + "\n"
    )
    text = sh("npm install --foreground-scripts --verbose", app, env=npm_env())
    text = re.sub(r"/root/\.npm/_logs/", "/home/runner/.npm/_logs/", text)
    text = normalise(
        text,
        [
            (str(app), "/home/runner/work/feed-reader/feed-reader"),
            (str(BASE / "npm-cache"), "/home/runner/.npm"),
            ("/root/.cache/node-gyp", "/home/runner/.cache/node-gyp"),
        ],
    )
    save("build-npm-node-expat", "log", text, diff)


def debian_source(pkg: str, version: str, orig: str) -> Path:
    """apt-get source --download-only (needs a deb-src line for bookworm); return the orig tarball."""
    d = BASE / "debsrc"
    d.mkdir(parents=True, exist_ok=True)
    if not (d / orig).exists():
        sh(f"apt-get source --download-only {pkg}={version}", d)
    return d / orig


@item
def build_cmake_json_c():
    # json-c 0.16 (Debian source package json-c 0.16-2, upstream orig tarball); CMake + make, -Werror
    w = fresh("json-c")
    tarfile.open(debian_source("json-c", "0.16-2", "json-c_0.16.orig.tar.gz")).extractall(w)
    src = w / "json-c"
    next(w.iterdir()).rename(src)
    diff = edit(
        src,
        "json_object.c",
        "\treturn array_list_length(JC_ARRAY_C(jso)->c_array);\n",
        "\treturn array_list_length(jso);\n",
    )
    diff += edit(
        src,
        "json_object.c",
        "\treturn array_list_add(JC_ARRAY(jso)->c_array, val);\n",
        "\treturn array_list_add(JC_ARRAY(jso)->c_arr, val);\n",
    )
    text = sh("cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build -j2 -- -k", src)
    save("build-cmake-json-c", "log", normalise(text, [(str(src), "/home/runner/work/json-c/json-c")]), diff)


@item
def build_maven_commons_io():
    # Apache Commons IO 2.11.0 (Debian source package commons-io 2.11.0-2); built the Debian way,
    # offline against /usr/share/maven-repo (dh_auto_configure = mh_patchpoms, dh_auto_build = mvn)
    w = fresh("commons-io")
    tarfile.open(debian_source("commons-io", "2.11.0-2", "commons-io_2.11.0.orig.tar.gz")).extractall(w)
    src = w / "commons-io"
    next(w.iterdir()).rename(src)
    tarfile.open(BASE / "debsrc" / "commons-io_2.11.0-2.debian.tar.xz").extractall(src)
    sh("dh_auto_configure --buildsystem=maven", src)
    diff = edit(
        src,
        "src/main/java/org/apache/commons/io/FilenameUtils.java",
        "        final int index = indexOfExtension(fileName);\n        if (index == NOT_FOUND) {\n"
        "            return EMPTY_STRING;\n        }\n        return fileName.substring(index + 1);\n",
        "        final long index = indexOfExtension(fileName);\n        if (index == NOT_FOUND) {\n"
        "            return EMPTY_STRING;\n        }\n        return fileName.substring(index + 1);\n",
    )
    diff += edit(
        src,
        "src/main/java/org/apache/commons/io/IOUtils.java",
        "        long count = 0;\n        int n;\n        while (EOF != (n = inputStream.read(buffer))) {\n",
        "        long count = 0;\n        int n;\n        while (EOF != (n = inputStream.read(buffer, 0))) {\n",
    )
    text = sh("dh_auto_build --buildsystem=maven", src)
    save(
        "build-maven-commons-io",
        "log",
        normalise(text, [(str(src), "/home/runner/work/commons-io/commons-io")]),
        diff,
    )


@item
def lint_clippy_aho_corasick():
    # aho-corasick 0.7.19 from Debian librust-aho-corasick-dev
    src, norm = crate("aho-corasick-0.7.19", "aho-corasick")
    diff = edit(
        src,
        "src/packed/pattern.rs",
        "    pub fn is_empty(&self) -> bool {\n        self.len() == 0\n",
        "    pub fn is_empty(&self) -> bool {\n        self.len() < 0\n",
    )
    diff += edit(
        src,
        "src/packed/pattern.rs",
        "        self.max_pattern_id = 0;\n",
        "        self.max_pattern_id = self.max_pattern_id;\n",
    )
    text = sh("cargo clippy", src, env=CARGO_ENV)
    save("lint-clippy-aho-corasick", "log", normalise(text, norm), diff)


# ---------------------------------------------------------------- metadata
META: dict[str, dict] = {}  # filled in at the end of this file


def write_yaml():
    import yaml

    items = []
    for iid, m in META.items():
        rec = {
            "id": iid,
            "kind": m["kind"],
            "set": m["set"],
            "file": f"{iid}.{m['ext']}",
            "tool": m["tool"],
            "args": m["args"],
            "source": m["source"],
            "project": m["project"],
            "command": m["command"],
            "description": m["description"],
        }
        d = DIFFS / f"{iid}.diff"
        if d.exists() and d.read_text():
            rec["injected_change"] = d.read_text()
        rec["facts"] = m["facts"]
        items.append(rec)
    (OUT / "parts" / "ci.yaml").write_text(
        yaml.safe_dump({"items": items}, sort_keys=False, allow_unicode=True, width=100)
    )


def check() -> int:
    bad = 0
    total = 0
    hold = 0
    for iid, m in META.items():
        p = OUT / f"{iid}.{m['ext']}"
        if not p.exists():
            print(f"MISSING {p}")
            bad += 1
            continue
        text = p.read_text(encoding="utf-8")
        size = len(text.encode())
        total += size
        hold += m["set"] == "holdout"
        if not 6000 <= size <= 1_500_000:
            print(f"SIZE {iid} {size}")
            bad += 1
        if not 3 <= len(m["facts"]) <= 6:
            print(f"NFACTS {iid}")
            bad += 1
        for f in m["facts"]:
            if f["answer"] not in text:
                print(f"NOT VERBATIM {iid}: {f['answer']!r}")
                bad += 1
            if f["answer"].lower() in f["query"].lower():
                print(f"QUERY HAS ANSWER {iid}: {f['query']!r}")
                bad += 1
        print(f"{iid:45s} {m['kind']:6s} {m['set']:8s} {size:8d}")
    print(f"{len(META)} items, {hold} holdout, {total} bytes, {bad} problems")
    return bad


# ==== META BEGIN
def _f(q, a, query):
    return {"question": q, "answer": a, "query": query}


META.update(
    {
        "test-gotest-json-pflag": dict(
            kind="test",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "spf13/pflag", "job_id": "29184467301"},
            source="pflag 1.0.6~git20210604-d5e0c06 (Debian golang-github-spf13-pflag-dev, /usr/share/gocode), go 1.19",
            project="pflag",
            command="GO111MODULE=off GOPROXY=off GOPATH=<gopath> go test -vet=off -json ./...",
            description="go test -json event stream (one JSON object per line) of the whole pflag test "
            "suite, ~590 events; two tests fail in the middle (TestCount, TestDSCalledTwice) "
            "among hundreds of run/pass events, then the package fail line.",
            facts=[
                _f(
                    "Which test fails on the duration slice flag?",
                    "TestDSCalledTwice",
                    "failing test for durationSlice set twice",
                ),
                _f(
                    "What does the duration slice test report?",
                    "expected ds[0] to be 1 but got: 3",
                    "duration slice assertion output",
                ),
                _f(
                    "What is the last mismatch TestCount prints at count_test.go:52?",
                    "expected 4, got 5",
                    "count flag test expected vs got",
                ),
                _f(
                    "How long did the pflag package test run take in total (package FAIL line)?",
                    "github.com/spf13/pflag\\t0.012s",
                    "package elapsed on final fail output",
                ),
            ],
        ),
        "test-pytest-boltons": dict(
            kind="test",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "mahmoud/boltons", "job_id": "31077215840"},
            source="boltons 26.2.0 (PyPI sdist, its tests/ suite)",
            project="boltons",
            command="python -m pytest -v -p no:cacheprovider",
            description="Verbose pytest run of boltons' 519 tests; two failures around 52% and 66% "
            "(mathutils.clamp, strutils.parse_int_list), tracebacks and short summary at the end.",
            facts=[
                _f(
                    "Which mathutils test fails?",
                    "tests/test_mathutils.py::test_clamp_examples FAILED",
                    "clamp test result line",
                ),
                _f(
                    "What assertion fails in test_clamp_examples?", "assert 1 == 0", "clamp assertion message"
                ),
                _f(
                    "At which index does parse_int_list's result first differ?",
                    "At index 5 diff: 10 != 8",
                    "parse_int_list list diff detail",
                ),
                _f(
                    "Which strutils test fails?",
                    "tests/test_strutils.py::test_parse_int_list FAILED",
                    "result line of the int list parsing test",
                ),
                _f("What are the totals of the run?", "2 failed, 517 passed in 4.55s", "summary counts"),
            ],
        ),
        "test-pytest-ci-marshmallow": dict(
            kind="test",
            set="holdout",
            ext="log",
            tool="github__get_job_logs",
            args={"owner": "marshmallow-code", "repo": "marshmallow", "job_id": 31190044127},
            source="marshmallow 4.4.0 (PyPI sdist, its tests/ suite)",
            project="marshmallow",
            command="PYTHONPATH=src python -m pytest -v --color=yes -p no:cacheprovider 2>&1 | "
            "python3 ts.py   # ts.py: timestamping filter (in capture/ci.py) that prefixes each line "
            "with the real UTC wall clock as it arrives, GitHub Actions style",
            description="pytest -v of marshmallow's 1192 tests as a GitHub Actions log: every line has an "
            "ISO timestamp prefix and ANSI colours. Four validate.py failures (Range / Length "
            "boundary) near 96%, with coloured tracebacks and short summary.",
            facts=[
                _f(
                    "Which Range test fails first?",
                    "tests/test_validate.py::test_range_min",
                    "first failing validator test",
                ),
                _f(
                    "What ValidationError does test_range_max raise?",
                    "Must be greater than or equal to 1 and less than or equal to 2.",
                    "range max validator error text",
                ),
                _f(
                    "Which source line raised the Range ValidationError?",
                    "src/marshmallow/validate.py",
                    "module where range error raised",
                ),
                _f(
                    "What Range repr is in the failing frame?",
                    "<Range(min=1, max=1, min_inclusive=True, max_inclusive=True, error=None)>",
                    "self value in range call frame",
                ),
                _f(
                    "When (timestamp) did the session start line print?",
                    "2026-12-01T09:02:10.7113410Z",
                    "time of test session starts header",
                ),
            ],
        ),
        "test-cargo-regex": dict(
            kind="test",
            set="holdout",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "rust-lang/regex", "job_id": "30551218764", "step": "cargo test"},
            source="regex 1.7.1 (Debian librust-regex-dev; dev-deps from librust-{lazy-static,quickcheck,rand}-dev), "
            "cargo/rustc 1.95, offline [source] replacement to /usr/share/cargo/registry",
            project="regex",
            command="cargo test --no-fail-fast",
            description="Full cargo test of regex (12 test binaries, ~7,800 tests) after an injected bug in "
            "`$$` expansion: 5 failures repeated in five engine binaries (backtrack, default, nfa, "
            "...), each with panics and left/right diffs, then the list of failed targets.",
            facts=[
                _f(
                    'Which replace test fails with left "w2 $w1"?',
                    "replace::double_dollar",
                    "test name for escaped dollar replacement",
                ),
                _f(
                    "Where does api::expand5 panic?",
                    "panicked at tests/api.rs:179:1",
                    "panic location of expand5",
                ),
                _f(
                    "What right value does literal_dollar2 expect?",
                    'right: "b $c a"',
                    "expected value literal dollar 2",
                ),
                _f(
                    "How many tests passed in the failing default engine binary?",
                    "833 passed; 5 failed",
                    "result counts of failing binary",
                ),
                _f(
                    "Which test binary is named last in the failed targets list?",
                    "`--test nfa-utf8bytes`",
                    "final target in failed targets",
                ),
            ],
        ),
        "test-vitest-zod": dict(
            kind="test",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "colinhacks/zod", "job_id": "30990411552"},
            source="zod 3.25.76 (npm tarball, ships src/ with its vitest suites), vitest 3.2.7",
            project="zod",
            command="npx vitest run --reporter=verbose   # vitest.config.mjs resolves the @zod/source condition",
            description="Verbose vitest run (ANSI colours, CI=true) of zod's 140 test files / 1432 tests; "
            "8 failures from two injected min-length bugs (v3 ZodString, v4 core checks) with "
            "ZodError dumps, code frames and the totals block.",
            facts=[
                _f(
                    "Which v4 mini test fails?",
                    "src/v4/mini/tests/checks.test.ts",
                    "mini checks failing file",
                ),
                _f(
                    "What message does the failing v3 string check carry?",
                    '"message": "min5"',
                    "zod issue message in v3 string failure",
                ),
                _f(
                    "Which stack frame in v3 types builds the thrown error?",
                    "Object.get error [as error] src/v3/types.ts:",
                    "stack frame creating ZodError",
                ),
                _f(
                    "Which array test fails in v4 classic?",
                    "array.nonempty().max()",
                    "failing nonempty max test",
                ),
                _f(
                    "Which v4 classic lazy-schema test fails?",
                    "src/v4/classic/tests/lazy.test.ts",
                    "failing test file for lazy schemas",
                ),
            ],
        ),
        "lint-tsc-redux-toolkit": dict(
            kind="lint",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "reduxjs/redux-toolkit", "job_id": "30713344019", "step": "Type check"},
            source="@reduxjs/toolkit 2.15.0 (npm tarball, ships TypeScript sources in src/), typescript 5.9.3",
            project="redux-toolkit",
            command="npx tsc --noEmit -p .   # tsconfig: strict, Bundler resolution, self-imports mapped to src",
            description="tsc --noEmit over RTK's src after making PayloadAction.payload optional and "
            "dropping a type predicate: 30 errors (TS2345, TS2339, TS18048, TS2769, TS2488) "
            "spread over createAsyncThunk, query/core and endpointDefinitions.",
            facts=[
                _f(
                    "Which error code reports the non-iterable middleware array?",
                    "TS2488",
                    "code of Symbol.iterator error",
                ),
                _f(
                    "Where in the polling middleware is the payload possibly undefined?",
                    "src/query/core/buildMiddleware/polling.ts(69,29)",
                    "position of payload diagnostic in polling",
                ),
                _f(
                    "What property is missing on undefined in batchActions.ts line 81?",
                    "Property 'queryCacheKey' does not exist on type 'undefined'",
                    "batch actions undefined property error",
                ),
                _f(
                    "Which expression is possibly undefined in buildSlice.ts?",
                    "'action.payload' is possibly 'undefined'",
                    "possibly undefined payload diagnostic",
                ),
                _f(
                    "Where is the overload error in buildSelectors?",
                    "src/query/core/buildSelectors.ts(378,23)",
                    "no overload matches location selectors",
                ),
            ],
        ),
        "lint-eslint-json-moment": dict(
            kind="lint",
            set="dev",
            ext="json",
            tool="ci__get_job_artifact",
            args={"repo": "moment/moment", "run_id": "12203317781", "name": "eslint-report.json"},
            source="moment 2.30.1 (npm tarball, ES-module sources in src/), eslint 9.39.5 + @eslint/js recommended",
            project="moment",
            command="npx eslint --format json src/lib src/moment.js",
            description="ESLint JSON report (one line, 110 file results) on moment's src/lib; 18 messages in "
            "9 files, incl. an injected undefined variable in duration/humanize.js and a "
            "fall-through in moment/diff.js; files with problems carry their full source.",
            facts=[
                _f(
                    "Which variable is reported undefined?",
                    "'secnds' is not defined.",
                    "no-undef message in humanize",
                ),
                _f(
                    "At which line/column is the undefined variable?",
                    '"line":30,"column":14',
                    "position of undef identifier",
                ),
                _f(
                    "What does the rule about the missing break say?",
                    "Expected a 'break' statement before 'case'.",
                    "fallthrough rule message",
                ),
                _f(
                    "Which file has three unused 'config' parameters?",
                    "/home/runner/work/moment/moment/src/lib/units/hour.js",
                    "path with unused config params",
                ),
            ],
        ),
        "lint-eslint-jquery": dict(
            kind="lint",
            set="holdout",
            ext="txt",
            tool="ci__get_job_log",
            args={"repo": "jquery/jquery", "job_id": "30644871210", "step": "npm run lint"},
            source="jquery 3.7.1 (npm tarball, AMD sources in src/), eslint 9.39.5 recommended + eqeqeq + curly",
            project="jquery",
            command="npx eslint src",
            description="ESLint default (stylish) output on jQuery's src: 88 problems, mostly eqeqeq and "
            "no-unused-vars, plus an injected assignment-in-condition in ajax.js and an undefined "
            "curCss in css.js; totals at the end.",
            facts=[
                _f(
                    "What does eqeqeq report in css/showHide.js?",
                    "Expected '!==' and instead saw '!='",
                    "strict inequality lint in showHide",
                ),
                _f(
                    "What undefined identifier is reported in css.js?",
                    "'curCss' is not defined",
                    "undefined function in css module",
                ),
                _f(
                    "Which unused disable directive is warned about at 229:4?",
                    "no problems were reported from 'no-loop-func'",
                    "unused eslint-disable directive warning",
                ),
                _f("What are the totals?", "88 problems (84 errors, 4 warnings)", "problem count summary"),
            ],
        ),
        "lint-mypy-sqlparse": dict(
            kind="lint",
            set="holdout",
            ext="txt",
            tool="ci__get_job_log",
            args={"repo": "andialbrecht/sqlparse", "job_id": "30882013907", "step": "mypy"},
            source="sqlparse 0.6.1 (PyPI sdist), mypy 2.4.1",
            project="sqlparse",
            command="mypy --strict sqlparse",
            description="mypy --strict on the mostly unannotated sqlparse package: 487 errors, mostly "
            "no-untyped-def / no-untyped-call, with two injected real type errors in sql.py "
            "(a misspelt attribute and str + int) hidden among them.",
            facts=[
                _f(
                    "Which attribute typo does mypy report on Token?",
                    '"Token" has no attribute "normalised"; maybe "normalized"?',
                    "misspelt attribute in sql token",
                ),
                _f(
                    "Which line has the unsupported str + int?",
                    'sqlparse/sql.py:88: error: Unsupported operand types for + ("str" and "int")',
                    "operator error in sql module",
                ),
                _f(
                    "What is flagged in filters/tokens.py line 20?",
                    'Unsupported right operand type for in ("None")',
                    "tokens filter operand issue",
                ),
                _f(
                    "What is the final count?",
                    "Found 487 errors in 18 files (checked 21 source files)",
                    "mypy summary line",
                ),
            ],
        ),
        "lint-ruff-tabulate": dict(
            kind="lint",
            set="dev",
            ext="txt",
            tool="ci__get_job_log",
            args={"repo": "astanin/python-tabulate", "job_id": "30412290577", "step": "ruff"},
            source="tabulate 0.10.0 (PyPI sdist), ruff 0.17.6",
            project="tabulate",
            command="ruff check --no-cache --select E,F,W,B,UP,SIM .",
            description="ruff check (full output format with code frames) on tabulate: 112 diagnostics, "
            "mostly E501/B905/UP031, plus injected F821 undefined name in _padleft and E722 bare "
            "except in _bool().",
            facts=[
                _f("Which name is undefined?", "F821 Undefined name `text`", "undefined variable rule"),
                _f(
                    "Where is the undefined name?",
                    "tabulate/__init__.py:1075:23",
                    "location of undefined name",
                ),
                _f("Where is the bare except?", "tabulate/__init__.py:1455:5", "bare except position"),
                _f(
                    "What does B905 complain about?",
                    "`zip()` without an explicit `strict=` parameter",
                    "zip strict rule text",
                ),
                _f("How many errors in total?", "Found 112 errors.", "total diagnostics"),
            ],
        ),
        "lint-clippy-aho-corasick": dict(
            kind="lint",
            set="holdout",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "BurntSushi/aho-corasick", "job_id": "30177420961", "step": "clippy"},
            source="aho-corasick 0.7.19 (Debian librust-aho-corasick-dev), clippy 0.1.95",
            project="aho-corasick",
            command="cargo clippy",
            description="cargo clippy on aho-corasick 0.7: 58 style warnings from a newer clippy on old code, "
            "and two deny-by-default errors injected in packed/pattern.rs (absurd comparison, "
            "self-assignment) that fail the check.",
            facts=[
                _f(
                    "Which deny lint fires at pattern.rs:115?",
                    "clippy::absurd_extreme_comparisons",
                    "deny lint for len less than zero",
                ),
                _f(
                    "Which field is assigned to itself?",
                    "self-assignment of `self.max_pattern_id` to `self.max_pattern_id`",
                    "self assign clippy error",
                ),
                _f(
                    "Where is the unneeded return statement?",
                    "src/ahocorasick.rs:1259:21",
                    "needless return location",
                ),
                _f(
                    "Which type name is flagged for a capitalized acronym?",
                    "name `NFA` contains a capitalized acronym",
                    "upper case acronyms warning",
                ),
                _f(
                    "What is the final compile failure line?",
                    "could not compile `aho-corasick` (lib) due to 2 previous errors; 58 warnings emitted",
                    "clippy summary could not compile",
                ),
            ],
        ),
        "build-cargo-env-logger": dict(
            kind="build",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "rust-cli/env_logger", "job_id": "30029988172", "step": "cargo build"},
            source="env_logger 0.9.3 (Debian librust-env-logger-dev) with regex/humantime/termcolor/atty/log "
            "from /usr/share/cargo/registry, rustc 1.95",
            project="env_logger",
            command="cargo build -v",
            description="Verbose cargo build (full rustc command lines of every dependency) ending in two "
            "E0308 mismatched-types errors in src/filter/mod.rs, plus check-cfg warnings.",
            facts=[
                _f("Which error code fails the build?", "error[E0308]: mismatched types", "rustc error code"),
                _f(
                    "Where is the first mismatched type?",
                    "src/filter/mod.rs:304:16",
                    "location of return type mismatch",
                ),
                _f(
                    "What type was found instead of Option<String>?",
                    "found `Option<&str>`",
                    "found type in second mismatch",
                ),
                _f(
                    "Which cfg name triggers warnings?",
                    "unexpected `cfg` condition name: `rustbuild`",
                    "check cfg warning name",
                ),
                _f(
                    "Which regex version was compiled?",
                    "Compiling regex v1.7.1",
                    "regex crate version compiled",
                ),
            ],
        ),
        "build-pip-psutil": dict(
            kind="build",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "giampaolo/psutil", "job_id": "30340017265", "step": "pip install"},
            source="psutil 7.2.2 (PyPI sdist), pip 23.2.1 / setuptools 84.2.1 build isolation, gcc 12",
            project="psutil",
            command="pip install -v .   # PIP_CONFIG_FILE=/dev/null (stock pip config)",
            description="pip install -v of psutil from source: build isolation, setuptools build_ext gcc "
            "lines, then two C errors in psutil/arch/linux/mem.c and pip's "
            "failed-wheel epilogue.",
            facts=[
                _f(
                    "Which function gets an incompatible argument?",
                    "incompatible type for argument 1 of ‘sysinfo’",
                    "wrong argument type C error",
                ),
                _f(
                    "Which member does not exist?",
                    "‘struct sysinfo’ has no member named ‘free_ram’",
                    "missing struct member",
                ),
                _f(
                    "Where is the missing member error?",
                    "psutil/arch/linux/mem.c:23:14",
                    "file:line of member error",
                ),
                _f(
                    "Which PSUTIL_VERSION macro is passed to gcc?",
                    "-DPSUTIL_VERSION=722",
                    "version define on compile line",
                ),
                _f(
                    "Which package failed to build a wheel?",
                    "ERROR: Failed building wheel for psutil",
                    "failed wheel line",
                ),
            ],
        ),
        "build-npm-node-expat": dict(
            kind="build",
            set="holdout",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "example/feed-reader", "job_id": "30118406603", "step": "npm install"},
            source="node-expat 2.4.1 (npm tarball with binding.gyp, bundled libexpat), npm 11.19.1, "
            "node-gyp 12.4.0, node 20.20.2",
            project="node-expat",
            command="npm install --foreground-scripts --verbose   # app depends on file:vendor/node-expat-2.4.1.tgz",
            description="npm install --verbose of an app whose vendored node-expat fails its node-gyp "
            "rebuild: npm timing/http lines, gyp configure, libexpat compile lines, then two g++ "
            "errors in node-expat.cc, gyp ERR! stack and npm error epilogue.",
            facts=[
                _f(
                    "What conversion fails at node-expat.cc:253?",
                    "cannot convert ‘Parser*’ to ‘XML_Parser’",
                    "pointer conversion compile error",
                ),
                _f(
                    "Which member does the compiler suggest instead?",
                    "did you mean ‘getCurrentColumnNumber’?",
                    "suggested method name",
                ),
                _f("Which node-gyp version ran?", "gyp info using node-gyp@12.4.0", "node gyp version"),
                _f(
                    "Which command failed for the package?",
                    "npm error command sh -c node-gyp rebuild",
                    "failing install script",
                ),
                _f(
                    "Which make target failed?",
                    "Release/obj.target/node_expat/node-expat.o] Error 1",
                    "make object error",
                ),
            ],
        ),
        "build-cmake-json-c": dict(
            kind="build",
            set="holdout",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "json-c/json-c", "job_id": "30246691850", "step": "Build"},
            source="json-c 0.16 (Debian source package json-c 0.16-2, orig tarball), cmake 3.25, gcc 12.2",
            project="json-c",
            command="cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build -j2 -- -k",
            description="CMake configure (feature checks) and make -k build of json-c with -Werror; the shared "
            "and static targets both fail on json_object.c (incompatible pointer, missing member, "
            "return-type), other objects keep building.",
            facts=[
                _f(
                    "Which warning flag turned into the pointer error?",
                    "[-Werror=incompatible-pointer-types]",
                    "werror category for argument type",
                ),
                _f(
                    "Which struct lacks c_arr?",
                    "‘struct json_object_array’ has no member named ‘c_arr’",
                    "missing member compile error",
                ),
                _f(
                    "What does arraylist.h expect?",
                    "note: expected ‘struct array_list *’ but argument is of type ‘const struct json_object *’",
                    "expected parameter type note",
                ),
                _f(
                    "Which compiler did CMake identify?",
                    "The C compiler identification is GNU 12.2.0",
                    "compiler id in configure",
                ),
                _f(
                    "What return-type error follows json_object_array_add?",
                    "json_object.c:1481:1: error: control reaches end of non-void function [-Werror=return-type]",
                    "non-void function end diagnostic",
                ),
            ],
        ),
        "build-maven-commons-io": dict(
            kind="build",
            set="dev",
            ext="log",
            tool="ci__get_job_log",
            args={"repo": "apache/commons-io", "job_id": "30461177039", "step": "mvn package"},
            source="Apache Commons IO 2.11.0 (Debian source package commons-io 2.11.0-2), Maven 3.8.7 offline "
            "with /usr/share/maven-repo, OpenJDK 17",
            project="commons-io",
            command="dh_auto_configure --buildsystem=maven && dh_auto_build --buildsystem=maven   "
            "# = mh_patchpoms + mvn -o -s /etc/maven/settings-debian.xml package",
            description="Maven build (ANSI-coloured INFO/WARNING/ERROR) of commons-io the Debian way: "
            "effective-model warnings, plugin relocations, then maven-compiler-plugin "
            "COMPILATION ERROR in IOUtils.java and FilenameUtils.java and the Maven error epilogue.",
            facts=[
                _f(
                    "Which method call has no suitable overload?",
                    "no suitable method found for read(byte[],int)",
                    "javac overload error",
                ),
                _f(
                    "Where is the lossy conversion?",
                    "FilenameUtils.java:[1061,41]",
                    "position of long to int error",
                ),
                _f(
                    "What kind of conversion error is it?",
                    "incompatible types: possible lossy conversion from long to int",
                    "javac narrowing message",
                ),
                _f(
                    "How many source files were being compiled?",
                    "Compiling 180 source files",
                    "number of java sources",
                ),
                _f(
                    "To which version was maven-compiler-plugin relocated?",
                    "maven-compiler-plugin:jar:3.10.1",
                    "relocated compiler plugin version",
                ),
            ],
        ),
    }
)
# ==== META END


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "capture"
    if cmd == "capture":
        for iid in sys.argv[2:] or list(ITEMS):
            print(f"== {iid}", file=sys.stderr)
            ITEMS[iid]()
    elif cmd == "yaml":
        write_yaml()
    elif cmd == "check":
        sys.exit(1 if check() else 0)
