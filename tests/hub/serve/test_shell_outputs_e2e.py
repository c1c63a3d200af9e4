"""Real outputs of rounds fifty-four's to fifty-eight's kinds through ``ctxhub serve``: a real MCP
client calls a real downstream server over stdio (the fixture's ``echo`` returns the output as a
tool would), and the hub's summary, its route metadata and a ``doc_search`` on the stored payload
read it as its kind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from tests.conftest import fixture_server, hub_client, text_of, write_config

pytestmark = pytest.mark.anyio

DATA = Path(__file__).parents[2] / "data"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # per module, so that ``session`` lives across the module's tests


@pytest.fixture(scope="module")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ClientSession]:
    tmp_path = tmp_path_factory.mktemp("shell-outputs")
    servers: dict[str, Any] = {"sh": fixture_server("sh", env={"FIXTURE_MARKER_DIR": str(tmp_path)})}
    async with hub_client(write_config(tmp_path, servers)) as session:
        yield session


@pytest.mark.parametrize(
    ("name", "outline", "shown", "query", "found"),
    [
        (
            "statsmodels-0.15-formulas-executed-offline.ipynb",
            "notebook: 36 cells (20 markdown, 16 code), 11 errors (NameError ×10, URLError ×1)",
            '"ename": "URLError", "evalue": "<urlopen error [Errno -2] Name or service not known>"}',
            "which cell failed to download the Guerry data",
            'dta = sm.datasets.get_rdataset(\\"Guerry\\", \\"HistData\\", cache=True)',
        ),
        (
            "postgres-15-explain-analyze-verbose-dpkg.txt",
            "query plan: 32 nodes (",
            " Execution Time: 289.654 ms",
            "rows removed by filter on files",
            "Rows Removed by Filter:",
        ),
        (
            "postgres-15-explain-analyze-verbose-correlated-subplan-debian-packages.txt",
            "query plan: 17 nodes (Seq Scan ×3, ",
            "most time of its own in Seq Scan on public.deps d (≈1273 ms over 90 loops)",
            "maintainer package count subquery",
            "Filter: (m.maintainer = p.maintainer)",
        ),
        (
            "pg_dump-15-schema-only-django-4.2-shop.sql",
            "log: SQL script, 100 statements on 15 tables",
            "    CONSTRAINT order_status_not_empty CHECK ((NOT ((status)::text = ''::text)))",
            "order line product foreign key",
            "FOREIGN KEY (product_id) REFERENCES public.orders_product(id)",
        ),
        (
            "playwright-mcp-0.0.86-snapshot-mochawesome-7.1-semver-7.6-report.txt",
            "accessibility snapshot: 220 lines, 21 headings",
            '- generic "78.57% Passing" [ref=e27]',
            "caret range on 0.x failure",
            "assert.ok(semver.satisfies('0.3.1', '^0.2.0'))",
        ),
        (
            "postgresql-15-initdb-postgresql.conf",
            "config: 815 lines, 13 settings in force, ",
            "shared_buffers = 128MB\t\t\t# min 128kB",
            "port setting",
            "#port = 5432",
        ),
        (
            "eslint-9.39-checkstyle-graceful-fs.xml",
            "lint: 90 diagnostics, 7 rules, 4 files",
            '<file name="src/graceful-fs/graceful-fs.js">',
            "fd is defined but never used",
            "&apos;fd&apos; is defined but never used.",
        ),
        (
            "ruff-junit-store-tests.xml",
            "lint: 75 diagnostics, ",
            '<failure message="Missing docstring in `__init__`">',
            "line too long in the eviction test",
            "Line too long (",
        ),
        (
            "semgrep-1.187-text-setuptools-distutils.txt",
            "lint: 21 diagnostics, 2 rules, ",
            "Ran 4 rules on 56 files: 21 findings.",
            "open without encoding upload",
            "f = open(filename, 'rb')",
        ),
        (
            "gdb-13.1-thread-apply-all-bt-python311-threads.txt",
            "log: 119 lines, ",
            'Thread 2 (Thread 0x7f528d86c6c0 (LWP 30199) "python3"):',
            "thread waiting in sleep",
            "time_sleep (self=<optimized out>, timeout_obj=<optimized out>)",
        ),
        (
            "jstack-17.0.15-deadlock-and-pool.txt",
            "log: 200 lines, ",
            "Found one Java-level deadlock:",
            "which thread holds the lock order worker waits on",
            'which is held by "billing-worker"',
        ),
        (
            "django-4.2-technical-500-typeerror.html",
            "html: ",
            "Exception Value: unsupported operand type(s) for +: &#x27;int&#x27; and &#x27;str&#x27;",
            "order_view",
            "line 14, in order_view",
        ),
        (
            "playwright-mcp-0.0.86-snapshot-django-4.2-500.txt",
            "accessibility snapshot: 688 lines, ",
            '- cell "http://127.0.0.1:8765/orders/1/" [ref=e12]',
            "exception location",
            "line 10, in order_total",
        ),
        (
            "npm-11.19-install-sqlite3-420-node-gyp-excerpt.txt",
            "log: 81 lines, 0 failed tests, 0 errors, ",
            "added 69 packages in 58s",
            "deprecated MakeCallback warning",
            "is deprecated [-Wdeprecated-declarations]",
        ),
    ],
)
async def test_a_real_output_is_read_as_its_kind_through_the_hub(
    session: ClientSession, name: str, outline: str, shown: str, query: str, found: str
) -> None:
    payload = (DATA / name).read_text(encoding="utf-8")
    with anyio.fail_after(60):
        result = await session.call_tool("sh__echo", {"text": payload})
        route = result.meta["ctxhub/route"]
        summary = text_of(result)
        reply = text_of(await session.call_tool("doc_search", {"query": query, "ref": route["ref"]}))
    assert route["mode"] == "summary" and route["original_bytes"] == len(payload.encode())
    assert summary.splitlines()[0].startswith(f"[ctxhub summary of sh__echo: {outline}")
    assert shown in summary, summary
    assert len(summary.encode()) <= route["budget"]
    assert found in reply
