"""A coverage report alone is read as one (``summaries.coverage.summarize_coverage``)."""

from __future__ import annotations

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.coverage import summarize_coverage
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.verbatim import clipped_from

DATA = BENCH_CORPUS.parent.parent / "tests" / "data"
_C8 = BENCH_CORPUS / "table-capz-c8-1200-report-text-es-iterator-helpers-121-tape.txt"


def _verbatim(text: str, source: str) -> None:
    lines = set(source.splitlines())
    for line in text.splitlines():
        assert line.startswith("… ") or line == "…" or clipped_from(line, lines), line


def test_an_istanbul_report_shows_its_least_covered_directories_and_files_with_their_lines() -> None:
    # c8 report: read as "table: 129 rows × 6 columns", its first rows narrowed to four columns,
    # every "Uncovered Line #s" and the least covered directory left out (failed before).
    text = _C8.read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    extract = summarize(text, kind, budget=2500)
    assert extract.outline.startswith(
        f"{kind.value}: coverage report, 128 rows, 70 not fully covered; All files"
    )
    shown = extract.text.splitlines()
    assert (
        "All files                              |    85.7 |    78.14 |    69.1 |    85.7 |                   "
        in shown
    )
    assert any(
        line.startswith("File                                   | % Stmts | % Branch |") for line in shown
    )
    least = (
        " package/WrapForValidIteratorPrototype |   60.86 |      100 |      50 |   60.86 |                   "
    )
    assert least in shown
    assert any(line.startswith("  IteratorZip.js ") and line.rstrip().endswith("85-125") for line in shown)
    assert sum(1 for line in shown if line.startswith("  auto.js ")) == 1  # the same row once
    _verbatim(extract.text, text)


def test_a_coverage_py_report_shows_its_total_and_least_covered_modules() -> None:
    text = (DATA / "coverage-report-click.txt").read_text(encoding="utf-8")
    extract = summarize_coverage(text, kind=ContentKind.TABLE, budget=900)
    assert extract is not None
    assert (
        extract.outline
        == "table: coverage report, 37 rows, 27 not fully covered; TOTAL 7521 886 1578 184 86%"
    )
    shown = extract.text.splitlines()
    assert "TOTAL                               7521    886   1578    184    86%" in shown
    assert "src/click/_winconsole.py             159    159     28      0     0%   9-279" in shown
    assert any(line.startswith("src/click/_termui_impl.py            447    172") for line in shown)
    _verbatim(extract.text, text)


def test_a_test_log_with_a_coverage_table_is_no_coverage_report() -> None:
    text = (DATA / "gha-job-log-bottle-pytest.log").read_text(encoding="utf-8")
    assert summarize_coverage(text, kind=ContentKind.LOG, budget=2000) is None
    assert (
        summarize_coverage("Name  Stmts  Miss  Cover\n" + "x\n" * 50, kind=ContentKind.TEXT, budget=500)
        is None
    )


def test_a_coverage_summary_stays_within_any_budget() -> None:
    for text in (
        _C8.read_text(encoding="utf-8"),
        (DATA / "coverage-report-click.txt").read_text(encoding="utf-8"),
    ):
        for cut in (len(text), len(text) // 2, 700):
            for budget in (0, 50, 200, 900, 2500):
                extract = summarize_coverage(text[:cut], kind=ContentKind.TABLE, budget=budget)
                assert extract is None or len(extract.text.encode()) <= budget
