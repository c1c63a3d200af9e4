"""A SQL script is read as its statements per table (``summaries.sql_script``)."""

from __future__ import annotations

import sqlite3

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.sql_script import summarize_sql_script
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS


def test_sqldiffs_statements_are_counted_per_table_and_each_tables_shown() -> None:
    # sqldiff between two pycountry databases: read as "table: 179 rows × 2 columns" cut at the
    # statements' parentheses, its first rows all from one table (failed before).
    path = BENCH_CORPUS / "diff-caps-sqldiff-3401-pycountry-2461-26216-iso-sqlite.diff"
    text = path.read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    extract = summarize(text, kind, budget=2500)
    assert extract.outline == f"{kind.value}: SQL script, 180 statements on 3 tables"
    shown = extract.text.splitlines()
    assert shown[0].startswith("== 180 statements · UPDATE subdivisions ×121 · INSERT INTO scripts ×44 · ")
    assert "INSERT INTO currencies(alpha_3,numeric,name) VALUES('ZWG','924','Zimbabwe Gold');" in shown
    assert "UPDATE subdivisions SET name='Viqueque' WHERE code='TL-VI';" in shown  # the last change
    lines = set(text.splitlines())
    assert all(line in lines or line == "…" for line in shown[1:])


def test_a_dump_shows_its_schema_first() -> None:
    # Python's sqlite3 iterdump (what `sqlite3 db .dump` prints): the CREATE statements rank
    # above the rows, which are counted per table.
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE pkg (name TEXT PRIMARY KEY, version TEXT, size INTEGER)")
    db.execute("CREATE TABLE dep (pkg TEXT, needs TEXT)")
    rows = [(f"lib{n:03}", f"1.{n}.0", n * 977) for n in range(120)]
    db.executemany("INSERT INTO pkg VALUES (?, ?, ?)", rows)
    db.executemany("INSERT INTO dep VALUES (?, ?)", [(f"lib{n:03}", f"lib{n + 1:03}") for n in range(40)])
    db.execute("CREATE INDEX dep_pkg ON dep (pkg)")
    text = "\n".join(db.iterdump())
    extract = summarize_sql_script(text, kind=ContentKind.TEXT, budget=1200)
    assert extract is not None
    assert extract.outline == "text: SQL script, 163 statements on 2 tables"
    shown = extract.text.splitlines()
    assert "CREATE TABLE pkg (name TEXT PRIMARY KEY, version TEXT, size INTEGER);" in shown
    assert "CREATE INDEX dep_pkg ON dep (pkg);" in shown
    assert "INSERT INTO \"pkg\" VALUES('lib119','1.119.0',116263);" in shown
    assert (
        summarize_sql_script("SELECT 1;\nselect name from t;\n" * 5, kind=ContentKind.TEXT, budget=500)
        is None
    )


def test_a_scripts_summary_stays_within_any_budget() -> None:
    # The label is derived text: a budget too small for it holds statements only (the label had
    # been added whatever the budget: 163 bytes of it over a budget of 100).
    text = (BENCH_CORPUS / "diff-caps-sqldiff-3401-pycountry-2461-26216-iso-sqlite.diff").read_text(
        encoding="utf-8"
    )
    for budget in (0, 10, 60, 100, 163, 200, 400, 1500):
        extract = summarize_sql_script(text, kind=ContentKind.TABLE, budget=budget)
        assert extract is not None and len(extract.text.encode()) <= budget
