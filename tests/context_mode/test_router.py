"""The router: one mode per result, the boundaries of each rule, and stage-1 texts that fit."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_mode.policy import RoutingPolicy
from context_mode.router import Direct, Directive, Summary, query_terms, route, summary_budget
from context_mode.stage1 import render
from context_mode.store.store import Store
from context_mode.types import ContentKind, OutputStyle
from tests.corpora import data

POLICY = RoutingPolicy()
PROSE = "The quick brown fox jumps over the lazy dog near the river bank today. "


def prose(size: int) -> str:
    text = (PROSE * (size // len(PROSE) + 1))[:size]
    return text


def code(lines: int) -> str:
    return "\n".join(f"    x{index} = compute({index});" for index in range(lines))


def failing_log(size: int) -> str:
    lines = [
        f"2026-01-01 12:00:{index % 60:02d} INFO worker {index} processed batch ok"
        for index in range(size // 50)
    ]
    lines[len(lines) // 2] = "2026-01-01 12:00:30 ERROR worker 7 crashed: ValueError: bad batch id 'b-77'"
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(prose(2048), Direct, id="2048-bytes-is-direct"),
        pytest.param(prose(2049), Summary, id="2049-bytes-is-summary"),
        pytest.param(code(30), Direct, id="30-code-lines-is-direct"),
        pytest.param(code(31), Summary, id="31-code-lines-is-summary"),
    ],
)
def test_the_direct_limits_are_inclusive(text: str, expected: type) -> None:
    assert isinstance(route(text, policy=POLICY), expected)


def test_multibyte_text_is_measured_in_utf8_bytes() -> None:
    text = "é" * 1025  # 2,050 bytes, 1,025 characters
    assert isinstance(route(text), Summary)


@pytest.mark.parametrize(
    ("style", "text", "expected"),
    [
        pytest.param(OutputStyle.DIRECT, prose(40_000), Direct, id="direct-tag-under-hard-cap"),
        pytest.param(OutputStyle.DIRECT, prose(60_000), Summary, id="direct-tag-over-hard-cap"),
        pytest.param(OutputStyle.DIRECTIVE, prose(3_000), Directive, id="directive-tag-when-not-small"),
        pytest.param(OutputStyle.DIRECTIVE, prose(100), Direct, id="directive-tag-small-stays-direct"),
        pytest.param(OutputStyle.SUMMARY, prose(30_000), Summary, id="summary-tag"),
        pytest.param(OutputStyle.SUMMARY, prose(100), Direct, id="summary-tag-small-stays-direct"),
        pytest.param(OutputStyle.AUTO, failing_log(30_000), Summary, id="auto-log-with-an-error"),
        pytest.param(OutputStyle.AUTO, prose(30_000), Summary, id="auto-big-with-nothing-standing-out"),
    ],
)
def test_each_tag_routes_as_designed(style: OutputStyle, text: str, expected: type) -> None:
    assert type(route(text, style=style, policy=POLICY)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(prose(30_000), Directive, id="big-with-nothing-standing-out"),
        pytest.param(failing_log(30_000), Summary, id="big-log-with-an-error"),
        pytest.param(prose(5_000), Summary, id="under-the-threshold"),
    ],
)
def test_a_directive_threshold_set_makes_big_auto_output_with_nothing_standing_out_a_directive(
    text: str, expected: type
) -> None:
    policy = dataclasses.replace(POLICY, directive_threshold=8192)
    assert type(route(text, policy=policy)) is expected


def test_big_auto_output_where_nothing_stands_out_shows_its_first_lines() -> None:
    # libxslt's news page fetched as Markdown: 62 kB on four lines (its HTML tables flattened), no
    # heading, nothing that stands out. It was a Directive of 355 bytes that showed none of it,
    # not even the address it was fetched from.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "webpage-fetch-libxslt-1135-news.md").read_text(encoding="utf-8")
    decision = route(text, tool="fetch")
    assert isinstance(decision, Summary)
    stage1 = render(decision, tool="fetch", ref="r_1", original_bytes=len(text.encode()), spill_path=None)
    assert "Contents of http://127.0.0.1:20000/libxslt1-dev/html/news.html:" in stage1
    assert len(stage1.encode()) <= POLICY.summary_budget


def test_error_results_keep_their_text_up_to_the_error_cap() -> None:
    assert isinstance(route("Traceback: boom\n" * 200, is_error=True), Direct)
    big = route(failing_log(20_000), is_error=True)
    assert isinstance(big, Summary) and "ValueError: bad batch id 'b-77'" in big.extract.text


def test_query_terms_come_from_search_arguments_only() -> None:
    terms = query_terms({"pattern": "getUser(ById)?", "path": "src", "q": ["alpha beta"], "limit": 5})
    assert terms == ("getUser", "ById", "alpha", "beta")


def test_a_word_too_long_to_be_a_search_term_is_data_not_a_term() -> None:
    # A 6 MB "query" was compiled into a regex by the summariser (6.5 s per call).
    huge = "z" * (6 * 2**20)
    assert query_terms({"text": huge}) == ()
    assert query_terms({"query": f"retry {'z' * 100} timeout"}) == ("retry", "timeout")


def test_a_document_passed_as_an_argument_is_the_calls_data_not_its_search() -> None:
    # Failed before: echoing (or writing, or typing) a 10 kB report made each of its words a
    # search term; every line of the result "matched" and outranked the kind's own picks (a
    # snapshot's figures and labels gave way to its lines that merely repeated the argument).
    report = data("playwright-mcp-0.0.86-snapshot-mochawesome-7.1-semver-7.6-report.txt")
    assert query_terms({"text": report}) == ()
    assert query_terms({"text": "caret range on 0.x"}) == ("caret", "range", "on", "0.x")


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT iata, name, city FROM airports WHERE state IN ('TX', 'CA') ORDER BY state, city",
        "with t as (select * from zones) select country, count(*) from t group by country",
        "PRAGMA table_info(users)",
        "  DELETE FROM jobs WHERE done = 1",
    ],
)
def test_a_sql_statement_is_not_a_search_so_its_words_are_no_terms(statement: str) -> None:
    # Its keywords and column names are in every row ("BY", "AS", "name"): as terms they picked
    # rows by noise (Belarus for BY) and showed them twice.
    assert query_terms({"query": statement}) == ()


def test_words_that_only_start_like_sql_are_still_search_terms() -> None:
    assert query_terms({"query": "select box styling"}) == ("select", "box", "styling")
    assert query_terms({"q": "show hidden files"}) == ("show", "hidden", "files")


def test_a_summary_prefers_lines_with_the_query_terms() -> None:
    lines = [f"src/module_{index}.py:{index}: value = {index}" for index in range(400)]
    lines[250] = "src/special.py:12: def locate_widget(name):"
    decision = route("\n".join(lines), arguments={"pattern": "locate_widget"})
    assert isinstance(decision, Summary) and "locate_widget" in decision.extract.text


def test_a_failing_summariser_falls_back_to_head_and_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    import context_mode.router as router

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(router, "summarize", broken)
    decision = route(failing_log(20_000), style=OutputStyle.SUMMARY)
    assert isinstance(decision, Summary)
    assert decision.extract.text.startswith("2026-01-01 12:00:00 INFO") and "lines …" in decision.extract.text


texts = st.one_of(
    st.text(max_size=6000),
    st.lists(
        st.sampled_from(["ERROR x", "ok", "  at a.b(C.java:1)", "def f():", "{", "- [ ] x", "| a | b |"]),
        max_size=800,
    ).map("\n".join),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=8),
        max_leaves=200,
    ).map(json.dumps),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, style=st.sampled_from(list(OutputStyle)), is_error=st.booleans())
def test_every_result_gets_exactly_one_mode_and_summaries_fit(
    text: str, style: OutputStyle, is_error: bool
) -> None:
    decision = route(text, style=style, is_error=is_error)
    assert isinstance(decision, Direct | Summary | Directive)
    if isinstance(decision, Direct):
        return
    stage1 = render(
        decision,
        tool="srv__tool",
        ref="r_0123abcd",
        original_bytes=len(text.encode()),
        spill_path=Path("/home/user/.cache/ctxhub/store/spill/r_0123abcd.log"),
    )
    budget = POLICY.error_cap if is_error else POLICY.summary_budget
    assert len(stage1.encode("utf-8", "surrogatepass")) <= budget
    if isinstance(decision, Summary) and decision.extract.kind is ContentKind.JSON:
        json.loads(decision.extract.text)


@settings(max_examples=40, deadline=None)
@given(text=texts)
def test_nothing_is_lost_the_full_payload_is_retrievable_by_its_ref(text: str) -> None:
    with Store(None, mask_secrets=False) as store:  # masking is tested on its own (test_secrets)
        ref = store.put(text, source="t", kind=ContentKind.TEXT).ref
        stored = store.text(ref)
    assert stored == text.encode("utf-8", "replace").decode("utf-8") or "\ufffd" in stored


def test_a_json_result_with_a_long_outline_still_fits_the_summary_budget() -> None:
    # Long non-ASCII key names make a long outline, which the stage-1 header repeats.
    name = "\U0001f600" * 40
    value = {f"{name}{i}": [{f"{name}{j}": list(range(30))} for j in range(3)] for i in range(6)}
    text = json.dumps(value, ensure_ascii=False)
    decision = route(text, style=OutputStyle.SUMMARY)
    assert isinstance(decision, Summary)
    stage1 = render(
        decision,
        tool="srv__tool",
        ref="r_0123abcd",
        original_bytes=len(text.encode()),
        spill_path=Path("/home/user/.cache/ctxhub/store/spill/r_0123abcd.log"),
    )
    assert len(decision.extract.outline.encode()) > 300
    assert len(stage1.encode()) <= POLICY.summary_budget


@pytest.mark.parametrize(
    ("size", "highlights", "expected"),
    [
        pytest.param(12_600, 20, 3000, id="a small log with many failures grows to the small cap"),
        pytest.param(8_000, 20, 2000, id="but to a quarter of itself at most"),
        pytest.param(4_000, 20, 1500, id="a tiny one keeps the minimum"),
        pytest.param(12_600, 2, 1500, id="a small log with little to show keeps the minimum"),
        pytest.param(80_000, 40, 4800, id="a big one grows to its share"),
        pytest.param(400_000, 40, 6000, id="never past the maximum"),
    ],
)
def test_the_budget_grows_with_salient_content_within_the_payloads_share(
    size: int, highlights: int, expected: int
) -> None:
    assert summary_budget(RoutingPolicy(), size, highlights) == expected


def test_a_failed_build_is_summarised_with_its_error_not_a_directive() -> None:
    text = (Path(__file__).resolve().parents[1] / "data" / "python-build-wcwidth-c-error.txt").read_text(
        encoding="utf-8"
    )
    decision = route(
        text, tool="run_command", policy=RoutingPolicy(), arguments={"command": "python -m build"}
    )
    assert isinstance(decision, Summary)
    assert "libwcwidth/src/align.c:37:14: error:" in decision.extract.text
    assert "ERROR Backend subprocess exited when trying to invoke build_wheel" in decision.extract.text


@pytest.mark.parametrize(
    ("name", "command", "shown"),
    [
        pytest.param(
            "sshd-e-failed-logins.txt",
            "/usr/sbin/sshd -D -e",
            ("Server listening on 127.0.0.1 port 18622.", "Failed publickey for deploy from 127.0.0.1"),
            id="a daemon's messages without levels or timestamps",
        ),
        pytest.param(
            "apt-cache-depends-recurse-gdb.txt",
            "apt-cache depends --recurse gdb",
            ("Depends: <libboost-regex1.74.0-icu72>",),
            id="a dependency listing",
        ),
    ],
)
def test_plain_text_in_which_nothing_stands_out_is_read_as_a_log(
    name: str, command: str, shown: tuple[str, ...]
) -> None:
    # Both were Directives showing nothing: as text, no line stood out.
    text = (Path(__file__).resolve().parents[1] / "data" / name).read_text(encoding="utf-8")
    decision = route(text, tool="run_command", policy=RoutingPolicy(), arguments={"command": command})
    assert isinstance(decision, Summary) and decision.kind is ContentKind.LOG
    assert all(line in decision.extract.text for line in shown)


def test_an_object_keyed_by_name_counts_its_records_for_the_budget() -> None:
    # ``npm ls --all --json --long``: 178 kB, every package an object keyed by its name under
    # ``dependencies``. Only arrays counted as records, so its two-item ``funding`` array was all
    # that stood out: the minimum budget, and none of the nested packages' versions.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "json-npm-ls-mcp-servers.json").read_text(encoding="utf-8")
    decision = route(text, tool="shell__run")
    assert isinstance(decision, Summary) and decision.budget > POLICY.summary_budget
    for nested in ('"_id": "@modelcontextprotocol/sdk@1.32.2"', '"_id": "pg@8.23.1"', '"node": ">=22.12.0"'):
        assert nested in decision.extract.text


def test_a_small_nested_object_takes_nothing_from_a_big_objects_budget() -> None:
    # Found in review: 600 settings and one ``exports`` object of one member counted as one
    # record (the most any container held), so the budget fell from 600 fields' to the minimum.
    settings = {f"setting_{n:03d}": f"value number {n}" for n in range(600)}
    alone = route(json.dumps(settings, indent=1), tool="x")
    settings["exports"] = {".": {"import": "./index.mjs"}}
    nested = route(json.dumps(settings, indent=1), tool="x")
    assert isinstance(alone, Summary) and isinstance(nested, Summary)
    assert nested.budget == alone.budget > POLICY.summary_budget


def test_a_big_table_whose_rows_do_not_all_fit_still_grows_its_budget_with_its_rows() -> None:
    # MariaDB's SHOW GLOBAL STATUS (562 rows of two columns padded to 50 characters, 59 kB): the
    # budget grew with the columns only when not every row fits the largest budget, so two
    # columns kept it at the minimum and stage 1 showed 7 of 562 rows (failed before).
    rule = "+" + "-" * 50 + "+" + "-" * 50 + "+"
    rows = [f"| {f'Status_variable_{n:03d}':<48} | {n * 37 % 1000:<48} |" for n in range(562)]
    text = "\n".join([rule, f"| {'Variable_name':<48} | {'Value':<48} |", rule, *rows, rule])
    decision = route(text, tool="run_command", policy=POLICY)
    assert isinstance(decision, Summary) and decision.kind is ContentKind.TABLE
    assert decision.budget > 2 * POLICY.summary_budget
    assert sum(line.startswith("| Status_variable_") for line in decision.extract.text.split("\n")) >= 20


def test_a_long_clean_log_of_many_kinds_of_line_grows_its_budget() -> None:
    # npm install --loglevel http (166 kB, no error): its budget grew with errors, failures and
    # warnings only, so a clean log of hundreds of kinds of line had the minimum (failed before).
    words = ["fetch", "reify", "build", "timing", "http", "sill", "verb", "idealTree", "placeDep", "audit"]
    lines = [
        f"npm {words[n % 10]} {words[(n // 10) % 10]}:{words[(n // 100) % 10]} step {n} took {n % 90} ms"
        for n in range(800)
    ]
    decision = route("\n".join([*lines, "added 1317 packages in 41s"]), tool="run_command", policy=POLICY)
    assert isinstance(decision, Summary) and decision.kind is ContentKind.LOG
    assert decision.budget > POLICY.summary_budget


def test_a_payload_of_many_distinct_lines_grows_its_budget_and_a_repetitive_one_does_not() -> None:
    # ``sysctl -a`` (658 keys, 23 kB): the properties reading counts its sections, one, so it
    # had the minimum budget and showed 36 of its 658 keys; now 87 (failed before). A log
    # repeating one line with a counter holds one line of content whatever its length, and keeps
    # the minimum.
    areas = ["ipv4", "ipv6", "core", "unix", "netfilter", "vm"]
    parts = ["tcp", "udp", "mem", "max", "min", "rmem"]
    ends = ["timeout", "buckets", "backlog", "retries", "window", "scale", "limit", "ratio", "pages", "bytes"]
    keys = [f"net.{area}.{part}_{end}" for area in areas for part in parts for end in ends]
    text = "\n".join(f"{key}{suffix} = {len(key) * 7}" for suffix in ("", "_default") for key in keys)
    decision = route(text, tool="run_command", policy=POLICY)
    assert isinstance(decision, Summary) and decision.budget > 1.5 * POLICY.summary_budget
    beats = [f"[12:{n % 60:02d}:01] INFO worker: heartbeat {n} sent" for n in range(len(text) // 40)]
    plain = route("\n".join(beats), tool="run_command", policy=POLICY)
    assert isinstance(plain, Summary) and plain.budget == POLICY.summary_budget


@pytest.mark.parametrize(
    ("tool", "reads"),
    [
        ("read_file", True),
        ("read_text_file", True),
        ("get_file_contents", True),
        ("fs__read_file", True),
        ("read_multiple_files", False),
        ("get_file_summary", False),
        ("get_file_info", False),
        ("get_file_watcher_status", False),
        ("get_file_history", False),
    ],
)
def test_a_tool_named_for_what_it_says_of_a_file_is_no_file_read(tool: str, reads: bool) -> None:
    from context_mode.shapes import is_file_read

    assert is_file_read(tool) is reads


def test_a_file_summary_tools_long_answer_is_summarised_not_passed_whole() -> None:
    # code-index-mcp's ``get_file_summary`` of the MCP SDK's client session: 39.7 kB of JSON (78
    # symbols with signatures and callers). Taken for a single-file read, it came back whole.
    text = (Path(__file__).parents[1] / "data" / "code-index-mcp-get-file-summary-session-py.json").read_text(
        encoding="utf-8"
    )
    decision = route(text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="get_file_summary")
    assert isinstance(decision, Summary), decision
    assert len(decision.extract.text.encode()) <= decision.budget
    assert '"file_path": "mcp/client/session.py"' in decision.extract.text
