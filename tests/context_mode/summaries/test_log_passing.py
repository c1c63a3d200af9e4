"""A passing test's line is no failure's context: a test log's summary spends its room elsewhere.

``go test -v`` prints ``=== RUN`` before every test, pytest ``-v`` a ``PASSED`` line per test,
mocha a ``✓``: shown as the lines around each failure, they had filled a third of the summary of
a run with a few failures, and pushed out its last failures' messages and its other packages'
verdicts.
"""

from __future__ import annotations

from context_mode.levels import PASSING
from tests.corpora import bench_stage1


def test_passing_lines_are_told_from_failures() -> None:
    passing = [
        "=== RUN   TestOptions",
        "--- PASS: TestA (0.00s)",
        "tests/a.py::test_b PASSED  [ 3%]",
        "    ✓ decodes GBK",
        "test number::tests::float_test ... ok",
    ]
    failing = [
        "--- FAIL: TestOptions/IgnoreSliceElements (0.00s)",
        "tests/a.py::test_c FAILED  [ 4%]",
        "    1) decodes GB18030",
        "FAIL\tpkg/cmpopts\t0.046s",
        "✓ 423 modules transformed.",  # a build's count, vite's
    ]
    assert all(PASSING.match(line) for line in passing)
    assert not any(PASSING.match(line) for line in failing)


def test_a_go_test_runs_failures_and_verdicts_come_before_its_run_lines() -> None:
    # Failed before: 33 ``=== RUN`` lines (1.7 kB) stood as the failures' context, and the last
    # failure's message and a package's cached verdict were left out (run lines now fill only the
    # room left over).
    summary = bench_stage1("test-gotest-v-go-cmp-cmpopts.txt")
    assert "reason: equal because EquateApprox(0, 0) is equivalent to ==" in summary
    assert "--- FAIL: TestOptions/EquateApprox+EquateNaNs+Transform (0.00s)" in summary
    assert "ok  \tgithub.com/google/go-cmp/cmp/internal/diff\t(cached)" in summary


def test_a_pytest_runs_hypothesis_statistics_come_before_its_passed_lines() -> None:
    # Failed before: pytest -v's PASSED lines beside each FAILED one took the room of Hypothesis'
    # shrink statistics.
    summary = bench_stage1("test-pytest-hypothesis-stats-pyrsistent-0200-edits.txt")
    assert "Tried 49 shrinks of which 24 were successful" in summary


def test_a_ci_jobs_passing_lines_are_told_by_what_follows_their_timestamp() -> None:
    # The same go test -v run as a GitHub Actions job prints it, each line after its timestamp:
    # the passing-lines rule saw the stamp, not ``=== RUN``, and the run lines took the last
    # failure's message's room again (failed before).
    from context_mode.policy import RoutingPolicy
    from context_mode.router import Summary, route
    from context_mode.types import OutputStyle
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "test-gotest-v-go-cmp-cmpopts.txt").read_text(encoding="utf-8")
    stamped = "".join(
        f"2026-12-02T15:49:{n % 60:02d}.{n:07d}Z {line}" for n, line in enumerate(text.splitlines(True))
    )
    decision = route(stamped, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="run_command")
    assert isinstance(decision, Summary)
    assert "reason: equal because EquateApprox(0, 0) is equivalent to ==" in decision.extract.text
