"""A profiler's report is read as one: its totals, then where the time went (``summaries.profile``)."""

from __future__ import annotations

from context_mode.kinds import detect_kind
from context_mode.summaries import Extract, summarize
from context_mode.summaries.profile import summarize_profile
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS
from tests.verbatim import clipped_from

DATA = BENCH_CORPUS.parent.parent / "tests" / "data"


def _read(name: str, budget: int) -> tuple[str, ContentKind, Extract]:
    """A corpus payload, the kind it is taken for through a shell tool, and its summary."""
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    return text, kind, summarize(text, kind, budget=budget)


def _verbatim(text: str, source: str) -> None:
    lines = set(source.splitlines())
    for line in text.splitlines():
        assert line == "…" or clipped_from(line, lines), line


def test_a_perf_report_shows_its_totals_and_its_entries() -> None:
    # `perf report --stdio` of node running terser: 27 entries under their call graphs were "log:
    # 291 lines, 0 errors", the lines shown call-graph lines, not one entry (failed before).
    text, _, extract = _read("trace-capo-perf-report-stdio-node20-terser-5514-three-0170-minify.txt", 2500)
    assert extract.outline == "log: perf report, 27 entries, 4K of event 'cpu-clock'"
    shown = extract.text.splitlines()
    assert "# Samples: 4K of event 'cpu-clock'" in shown
    top = "     4.13%  node     node                  [.] v8::internal::compiler::GraphReducer::ReduceTop"
    assert top in shown
    assert "     0.71%  node     libc.so.6             [.] __memmove_avx512_unaligned_erms" in shown
    assert not any(line.lstrip().startswith(("|", "---")) for line in shown)  # entries before call graphs
    _verbatim(extract.text, text)
    assert len(extract.text.encode()) <= 2500


def test_a_perf_report_with_children_shows_the_costliest_by_self_too() -> None:
    # `perf report -g` sorts by children (time under a symbol); the symbols that spend it
    # themselves come in turns with them.
    text = (DATA / "perf-report-g-children-python-json-dumps.txt").read_text(encoding="utf-8")
    extract = summarize_profile(text, kind=ContentKind.LOG, budget=900)
    assert extract is not None
    shown = extract.text.splitlines()
    assert "# Samples: 454  of event 'cpu-clock:pppH'" in shown
    self_top = "     8.81%     6.83%  python3   libpython3.11.so.1.0                   [.] _PyObject_Malloc"
    self_third = "     6.39%     4.19%  python3   [kernel.kallsyms]                      [k] handle_softirqs"
    assert self_top in shown and self_third in shown
    assert shown.index(self_top) < shown.index(self_third)
    _verbatim(extract.text, text)


def test_a_line_profile_shows_each_functions_time_and_costliest_lines() -> None:
    # kernprof -lv of xmltodict's parse, stopped by an expat error: read as "table: 545 rows × 8
    # columns", its first function's argument lines shown and no function's total (failed before).
    text, kind, extract = _read(
        "trace-capq-kernprof-lv-xmltodict-0142-iso-codes-3166-2-expat-error.txt", 2600
    )
    assert extract.outline == (
        f"{kind.value}: line_profiler report, 14 functions, 9 ran; the costliest parse 0.053349 s"
    )
    shown = extract.text.splitlines()
    for line in (
        "Wrote profile results to 'convert_iso.py.lprof'",
        "Total time: 0.053349 s",
        "Function: parse at line 184",
        "   353         1      53320.4  53320.4     99.9          parser.ParseFile(xml_input)",
        "   133      3339       6236.8      1.9     44.3                  self.item = self.push_data("
        "self.item, name, item)",
        "xml.parsers.expat.ExpatError: not well-formed (invalid token): line 6747, column 32",
    ):
        assert line in shown
    assert "Function: unparse at line 454" not in shown  # it never ran
    _verbatim(extract.text, text)


def test_text_that_is_no_profile_is_left_to_its_kind() -> None:
    text = "# Overhead notes\nTimer unit: none here\n" + "line\n" * 50
    assert summarize_profile(text, kind=ContentKind.LOG, budget=1500) is None
    assert summarize_profile("     4.13%  node  [.] f\n" * 10, kind=ContentKind.LOG, budget=1500) is None


def test_a_cprofile_report_shows_the_costliest_by_own_time_and_by_calls_too() -> None:
    # python -m cProfile -s cumulative of mistune: the rows were a table's first 40, all by
    # cumulative time; a helper called 3,771 times sat in the middle (failed before).
    text, kind, extract = _read("trace-capm-cprofile-s-cumulative-mistune-340-d3-changes-md.txt", 3400)
    assert extract.outline == (
        f"{kind.value}: cProfile report, 800 functions; "
        "560891 function calls (538037 primitive calls) in 0.227 seconds"
    )
    shown = extract.text.splitlines()
    assert "   Ordered by: cumulative time" in shown
    # the costliest by own time, and the most called of the program's own functions
    assert "      857    0.020    0.000    0.025    0.000 helpers.py:144(_parse_link_href)" in shown
    assert "     3771    0.003    0.000    0.004    0.000 util.py:23(escape)" in shown
    _verbatim(extract.text, text)


def test_a_gprof_report_shows_its_flat_profile_and_its_call_graphs_callers() -> None:
    # gprof -b of brotli: a table of the flat profile's rows, the call graph's granularity and
    # who called the costliest function left out (failed before).
    text, kind, extract = _read("trace-caps-gprof-b-brotli-110-cli-q11-pycountry-iso639-json.txt", 2500)
    assert extract.outline == f"{kind.value}: gprof report, 83 functions, 6 took time"
    shown = extract.text.splitlines()
    assert " 69.57      0.64     0.64  1752376     0.00     0.00  UpdateNodes" in shown
    assert "granularity: each sample hit covers 2 byte(s) for 1.09% of 0.92 seconds" in shown
    caller = "                0.64    0.01 1752376/1752376     BrotliCreateHqZopfliBackwardReferences [4]"
    assert shown[shown.index(caller) + 1] == "[5]     70.7    0.64    0.01 1752376         UpdateNodes [5]"
    _verbatim(extract.text, text)


def test_pytest_benchmarks_tables_show_each_groups_fastest_and_slowest() -> None:
    # pytest-benchmark 5.3.1 comparing JSON codecs: six groups of six rows in a passing run were
    # "log: 80 lines, 0 errors" showing the first group only, the run's settings left out (failed
    # before).
    text, kind, extract = _read("table-capp-pytest-benchmark-531-json-codecs-npm-docs.txt", 2600)
    assert extract.outline == f"{kind.value}: pytest-benchmark report, 6 groups, 36 benchmarks"
    shown = extract.text.splitlines()
    assert any("max_time=0.5 calibration_precision=10" in line for line in shown)
    assert any(line.startswith("test_dumps[orjson-mime-db]           111.6970 (1.0)") for line in shown)
    assert any(line.startswith("test_dumps[simplejson-mime-db]     2,571.7320 (23.02)") for line in shown)
    assert "============================= 36 passed in 19.10s ==============================" in shown
    assert sum(line.startswith("Name (time in us)") for line in shown) == 1  # the header once
    _verbatim(extract.text, text)


def test_collapsed_stacks_show_the_most_sampled_by_their_leaf_frames() -> None:
    # py-spy record --format raw of pygmentize: 26 stacks of up to 3 kB each were "text: 26
    # lines", their first 700 bytes shown and no stack's leaf nor its count (failed before).
    name = "trace-capw-py-spy-040-record-raw-collapsed-pygmentize-2180-html-prometheus-changelog.txt"
    text, kind, extract = _read(name, 2800)
    assert extract.outline == f"{kind.value}: collapsed stacks, 25 stacks, 48 samples; the most sampled 14"
    leaf = "callback (pygments/lexer.py:452);get_tokens_unprocessed (pygments/lexer.py:712) 14"
    assert any(line.endswith(leaf) for line in extract.text.splitlines())
    _verbatim(extract.text, text)


def test_a_line_profile_without_its_column_header_is_no_report() -> None:
    # "Timer unit:" and "Line Contents" in the head but no line_profiler header line (an edited
    # excerpt): the reading raised StopIteration out of summarize (failed before).
    text = (
        "Timer unit: 1e-06 s\n\nTotal time: 0.5 s\nFunction: f at line 1\n\n"
        "Line #  Hits  Time  Per Hit  % Time  Line Contents (edited)\n"
        "     2         1      5.0      5.0     99.0      x = 1\n"
    )
    assert summarize_profile(text, kind=ContentKind.LOG, budget=500) is None
    assert summarize(text, ContentKind.LOG, budget=500).kind is ContentKind.LOG


def test_a_massif_report_shows_its_peak_and_where_the_peaks_memory_went() -> None:
    # valgrind's ms_print of cmark: "text: 1355 lines" of the graph and the first snapshots'
    # trees; the peak snapshot's row and its allocation tree were left out (failed before).
    text, kind, extract = _read("trace-fern-massif-ms-print-cmark-0302-node-fs-md.txt", 2500)
    assert extract.outline == f"{kind.value}: massif report, 59 snapshots, peak 2,121,024 B at snapshot 54"
    shown = extract.text.splitlines()
    assert shown[1].startswith("Command:            /tmp/scratch_capg/src/cmark-0.30.2/b/src/cmark --to html")
    assert "Number of snapshots: 59" in shown
    assert any(line.startswith("2.023^") for line in shown)  # the graph's top
    assert " 54     19,906,464        2,121,024        1,898,384       222,640            0" in shown
    assert any(line.startswith("->63.08% (1,338,000B) 0x13CE18: xcalloc") for line in shown)
    assert not any("all below ms_print's threshold" in line for line in shown)
    _verbatim(extract.text, text)
    for cut in (len(text) // 2, 4000, 2000):
        for budget in (0, 100, 700, 2500):
            part = summarize_profile(text[:cut], kind=ContentKind.TEXT, budget=budget)
            assert part is None or len(part.text.encode()) <= budget


def test_a_pprof_top_report_shows_its_totals_and_its_costliest_by_own_and_cumulative_time() -> None:
    # ``go tool pprof -top`` read as a table of two columns ("File:", "strconv.test") under its
    # first line: its rows by own time only, the benchmark that took the time below the cut (failed before)
    text = (DATA / "go-pprof-top-119-strconv-benchmarks.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.TABLE, budget=900)
    assert extract.outline == "table: pprof report, 65 functions"
    shown = extract.text.split("\n")
    assert "Duration: 10.33s, Total samples = 10.68s (103.39%)" in shown
    assert "      flat  flat%   sum%        cum   cum%" in shown
    assert "     1.71s 16.01% 16.01%      3.23s 30.24%  runtime.mallocgc" in shown  # the most own time
    assert "     0.12s  1.12% 83.80%      9.85s 92.23%  strconv_test.BenchmarkFormatFloat.func1" in shown
    assert "         0     0% 92.13%     10.17s 95.22%  testing.(*B).runN" in shown  # the most in all
