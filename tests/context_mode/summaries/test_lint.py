"""Lint and type-check output is recognised from its content and summarised by rule, verbatim."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from context_mode.diagnostics import clean_line, find_diagnostics
from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.packing import is_marker, size, strip_annotation
from context_mode.types import ContentKind
from tests.verbatim import clipped_from

DATA = Path(__file__).parents[2] / "data"

TSC = "\n".join(
    [
        *(
            f"src/query/core/build{i}.ts({i * 10},5): error TS2345: Argument 'X{i}' is not assignable."
            for i in range(40)
        ),
        "src/dynamicMiddleware/index.ts(90,28): error TS2488: Type 'M[] | undefined' must have a "
        "'[Symbol.iterator]()' method that returns an iterator.",
        "src/query/core/buildSlice.ts(656,17): error TS18048: 'action.payload' is possibly 'undefined'.",
        "",
        "Found 42 errors in 41 files.",
    ]
)
MYPY = "\n".join(
    [
        *(f"sqlparse/engine/f{i}.py:{i + 1}: error: Missing return statement  [return]" for i in range(30)),
        'sqlparse/lexer.py:12: error: Name "StringIO" is not defined  [name-defined]',
        "sqlparse/sql.py:7: note: See https://mypy.readthedocs.io/en/stable/x.html",
        "Found 31 errors in 31 files (checked 24 source files)",
    ]
)
RUFF_FULL_BLOCK = """UP031 Use format specifiers instead of percent format
  --> benchmark/benchmark.py:{line}:6
   |
{line} |     ("tabulate (%s)" % tabulate.__version__, "run_tabulate(table)"),
   |      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
help: Replace with format specifiers
"""
RUFF_FULL = (
    "".join(RUFF_FULL_BLOCK.format(line=n) for n in range(50, 90))
    + """F821 Undefined name `text`
    --> tabulate/__init__.py:1075:23
     |
1075 |     return text
     |            ^^^^
     |

E722 Do not use bare `except`
    --> tabulate/__init__.py:1455:5
     |

Found 42 errors.
[*] 3 fixable with `--fix`.
"""
)
CLIPPY = """    Checking aho-corasick v1.1.3 (/work/aho-corasick)
warning: this `if` has identical blocks
  --> src/util/prefilter.rs:120:9
   |
120 |         if x { a } else { a }
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else
   = note: `#[warn(clippy::if_same_then_else)]` on by default

warning: unused variable: `n`
  --> src/dfa.rs:33:13
   |
   = note: `#[warn(unused_variables)]` on by default

warning: unused variable: `n`
  --> src/nfa.rs:44:13
   |

warning: `aho-corasick` (lib) generated 3 warnings
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.31s
"""
STYLISH = "\n".join(
    [
        "/home/runner/work/jquery/src/core.js",
        *(f"  {i}:5  error  Unexpected var, use let or const instead  no-var" for i in range(10, 40)),
        "",
        "/home/runner/work/jquery/src/ajax.js",
        "  30:14  error    'secnds' is not defined                          no-undef",
        "  41:3   warning  Expected a 'break' statement before 'case'  no-fallthrough",
        "",
        "✖ 32 problems (31 errors, 1 warning)",
    ]
)


def _eslint_json() -> str:
    files = [
        {"filePath": f"/w/src/lib/f{i}.js", "messages": [], "errorCount": 0, "warningCount": 0}
        for i in range(200)
    ]
    files.append(
        {
            "filePath": "/w/src/lib/units/hour.js",
            "messages": [
                {
                    "ruleId": "no-undef",
                    "severity": 2,
                    "message": "'secnds' is not defined.",
                    "line": 30,
                    "column": 14,
                    "nodeType": "Identifier",
                }
            ],
            "errorCount": 1,
            "warningCount": 0,
        }
    )
    return json.dumps(files, separators=(",", ":"))


def _assert_verbatim(text: str, summary: str) -> None:
    lines = set(text.splitlines())
    for line in summary.split("\n"):
        shown = strip_annotation(line)
        assert is_marker(line) or clipped_from(line, lines) or clipped_from(shown, lines), line


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        pytest.param(
            TSC,
            ["TS2488", "'action.payload' is possibly 'undefined'", "Found 42 errors in 41 files."],
            id="tsc",
        ),
        pytest.param(MYPY, ['Name "StringIO" is not defined', "Found 31 errors in 31 files"], id="mypy"),
        pytest.param(
            RUFF_FULL,
            [
                "F821 Undefined name `text`",
                "tabulate/__init__.py:1075:23",
                "tabulate/__init__.py:1455:5",
                "Found 42",
            ],
            id="ruff-full",
        ),
        pytest.param(
            CLIPPY,
            [
                "this `if` has identical blocks",
                "src/util/prefilter.rs:120:9",
                "generated 3 warnings",
                "v1.1.3",
            ],
            id="clippy",
        ),
        pytest.param(
            STYLISH, ["'secnds' is not defined", "no-fallthrough", "✖ 32 problems"], id="eslint-stylish"
        ),
    ],
)
def test_lint_output_is_detected_and_every_rule_shows_up_with_the_totals(
    text: str, wanted: list[str]
) -> None:
    assert detect_kind(text) == ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=1200)
    assert extract.kind == ContentKind.LINT
    assert size(extract.text) <= 1200
    for answer in wanted:
        assert answer in extract.text
    _assert_verbatim(text, extract.text)
    assert extract.outline.startswith("lint: ")


def test_a_rule_seen_many_times_is_counted_and_a_rare_rule_is_not_crowded_out() -> None:
    extract = summarize(TSC, ContentKind.LINT, budget=600)
    assert "TS2345 ×40" in extract.text
    assert "TS2488 ×1" in extract.text


def test_rustc_names_the_lint_of_a_repeated_warning_from_its_first_note() -> None:
    rules = [d.rule for d in find_diagnostics(CLIPPY.splitlines())]
    assert rules == ["clippy::if_same_then_else", "unused_variables", "unused_variables"]


def test_an_eslint_json_report_is_lint_and_shows_its_messages_as_sent() -> None:
    text = _eslint_json()
    assert detect_kind(text) == ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=1000)
    assert '"line":30,"column":14' in extract.text
    assert "/w/src/lib/units/hour.js" in extract.text
    assert "1 problems (1 errors, 0 warnings) in 201 files" in extract.text
    for line in extract.text.split("\n"):
        assert is_marker(line) or strip_annotation(line) in text, line


def test_ci_colours_and_timestamps_do_not_hide_diagnostics_and_lines_stay_as_sent() -> None:
    stamp = "2026-11-30T10:15:02.1234567Z "
    text = "\n".join(f"{stamp}\x1b[1m{line}\x1b[0m" for line in MYPY.splitlines())
    assert clean_line(text.splitlines()[0]).startswith("sqlparse/engine/f0.py:1: error")
    assert detect_kind(text) == ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=1200)
    assert (
        f'{stamp}\x1b[1msqlparse/lexer.py:12: error: Name "StringIO" is not defined  [name-defined]'
        in extract.text
    )
    _assert_verbatim(text, extract.text)


def test_a_log_with_a_few_compiler_errors_is_not_lint() -> None:
    text = "\n".join(
        [*(f"2024-05-01 10:00:{i:02d} INFO step {i} ok" for i in range(40)), "src/a.c:3:1: error: x"]
    )
    assert detect_kind(text) != ContentKind.LINT


def test_grep_matches_with_a_space_after_the_line_number_are_not_diagnostics() -> None:
    text = "\n".join(
        f"src/packaging/version{i}.py:{i + 10}:    raise InvalidVersion(f'bad {i}')" for i in range(30)
    )
    assert find_diagnostics(text.splitlines()) == []
    assert detect_kind(text) != ContentKind.LINT


def test_shellcheck_default_format_counts_rules_and_names_files() -> None:
    from pathlib import Path

    from context_mode.diagnostics import find_diagnostics

    data = Path(__file__).parents[2] / "data"
    found = find_diagnostics((data / "shellcheck-bzip2-scripts.txt").read_text(encoding="utf-8").splitlines())
    gcc = (data / "shellcheck-gcc-bzip2-scripts.txt").read_text(encoding="utf-8")
    assert len(found) == len(gcc.splitlines())  # one problem per caret line, as -f gcc lists them
    assert {d.file for d in found} == {"/usr/bin/bzgrep", "/usr/bin/bzexe"}
    assert all(d.rule.startswith("SC") for d in found)
    assert {d.rule for d in find_diagnostics(gcc.splitlines())} == {d.rule for d in found}


def test_pylint_errors_come_before_conventions_and_refactors() -> None:
    # pylint's E0401 / E0611 were ranked with its C and R messages (every line was an "error"),
    # and the rarest rules first: a stage 1 of style notes, the import errors left out.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-pylint-tqdm.txt").read_text(encoding="utf-8")
    severities = {d.rule: d.severity for d in find_diagnostics(text.splitlines())}
    assert severities["import-error"] == "error" and severities["consider-using-f-string"] == "convention"
    assert severities["cyclic-import"] == "refactor" and severities["keyword-arg-before-vararg"] == "warning"
    summary = summarize(text, ContentKind.LINT, budget=1500).text
    assert "E0401: Unable to import 'rich.progress' (import-error)" in summary
    assert "E0611: No name '_screen_shape_linux' in module 'tqdm.utils'" in summary
    assert summary.index("== import-error") < summary.index("== logging-not-lazy")  # a warning
    assert "Your code has been rated at 8.52/10" in summary


@pytest.mark.parametrize("name", ["pylint-parseable-httpx-excerpt.txt", "pylint-msvs-httpx-excerpt.txt"])
def test_pylints_parseable_and_msvs_formats_are_lint_by_its_symbols(name: str) -> None:
    # Failed before: ``--output-format=parseable`` (``_api.py:18: [C0116(…), main] …``) read as a
    # code search of "matches", ``msvs`` (``_api.py(18): [C0116(…)main] …``) as plain text.
    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    rules = {d.rule: d.severity for d in find_diagnostics(text.splitlines())}
    assert rules["missing-function-docstring"] == "convention"
    assert rules["redefined-outer-name"] == "warning"
    problems = [line for line in text.splitlines() if not line.startswith("*************")]
    assert len(find_diagnostics(text.splitlines())) == len(problems) == 38  # all but the modules' lines
    summary = summarize(text, ContentKind.LINT, budget=1500)
    assert summary.outline.startswith("lint: 38 diagnostics")


def test_a_bracketed_code_after_a_place_is_a_diagnostics_rule() -> None:
    # ruff's ``--output-format pylint`` and MSVC's ``file(line): warning C4996: …``
    ruff = "tools/a.py:1: [CPY001] Missing copyright notice at top of file"
    msvc = r"src\main.cpp(12,5): warning C4996: 'strcpy': This function or variable may be unsafe."
    (first,) = find_diagnostics([ruff])
    assert (first.rule, first.file, first.severity) == ("CPY001", "tools/a.py", "error")
    (second,) = find_diagnostics([msvc])
    assert (second.rule, second.file, second.severity) == ("C4996", r"src\main.cpp", "warning")


def test_eslints_checkstyle_report_on_one_line_is_lint_by_rule_with_its_files() -> None:
    # Failed before: "log: 1 lines, 0 failed tests, 0 errors, 1 warning": the one line's start
    # and end, the first warning and the last file's last error cut in two.
    text = (DATA / "eslint-9.39-checkstyle-graceful-fs.xml").read_text(encoding="utf-8")
    assert len(text.splitlines()) == 1
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    summary = summarize(text, ContentKind.LINT, budget=2500)
    errors = text.count('severity="error"')
    warnings = text.count('severity="warning"')
    assert summary.outline.startswith(f"lint: {errors + warnings} diagnostics, ")
    body = summary.text.splitlines()
    assert f"{errors} errors, {warnings} warnings ==" in body[0]
    assert "no-var ×67" in body[0] and "no-unused-vars ×12" in body[0]
    # each shown element is as written, under its file's tag
    shown = [re.sub(r" \[×\d+\]\Z", "", line) for line in body if line.startswith("<error ")]
    assert shown and all(line in text for line in shown)
    assert '<file name="src/graceful-fs/graceful-fs.js">' in body
    unused = '<error line="72" column="25" severity="error" message="&apos;fd&apos; is defined but never'
    assert any(line.startswith(unused) for line in body)  # an error before the warnings' rules


def test_shellchecks_checkstyle_report_names_each_check_by_its_code() -> None:
    # Failed before: "xml: 27 lines, root <checkstyle>, 22 elements": its first errors in order.
    text = (DATA / "shellcheck-checkstyle-usr-bin-scripts.xml").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    summary = summarize(text, ContentKind.LINT, budget=1500)
    assert summary.outline == "lint: 18 diagnostics, 7 rules, 3 files"
    assert "SC2046 ×4" in summary.text and "5 warnings, 13 info ==" in summary.text
    assert "<file name='/usr/bin/git&#45;credential&#45;gcloud.sh' >" in summary.text


def test_a_code_quality_report_is_lint_by_check_name_with_each_place() -> None:
    # Failed before: "rows: 20 records × 5 columns (check_name, description, severity, …)".
    text = (DATA / "ruff-gitlab-code-quality-two-files.json").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    summary = summarize(text, ContentKind.LINT, budget=2000)
    assert summary.outline == "lint: 20 diagnostics, 10 rules, 2 files"
    assert summary.text.startswith("warning: `incorrect-blank-line-before-class` (D203)")
    assert '"location": {"positions": {"begin": {"line": ' in summary.text
    assert '{"path": "tools/feedback.py"' in summary.text


def test_semgreps_text_is_lint_by_rule_each_finding_under_its_file_the_message_once() -> None:
    # Failed before: "log: 0 failed tests, 0 errors, 0 warnings", a few findings' code lines
    # without their files or rules.
    text = (DATA / "semgrep-1.187-text-setuptools-distutils.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    found = find_diagnostics(text.splitlines())
    assert len(found) == 21  # "Ran 4 rules on 56 files: 21 findings."
    assert {d.severity for d in found} == {"warning", "info"}
    summary = summarize(text, ContentKind.LINT, budget=3000)
    body = summary.text.splitlines()
    assert "== tmp.p50.sgr.open-without-encoding ×" in summary.text
    assert body.count("          open() without an explicit encoding uses the locale's") == 1
    at = body.index("    setuptools/_distutils/command/config.py")
    assert body[at + 2] == '          106┆ with open(filename, "w") as file:'
    assert body[-1] == "Ran 4 rules on 56 files: 21 findings."


CPPCHECK = "\n".join(
    [
        "Checking src/lapi.c ...",
        "src/lapi.c:0:0: information: Too many #ifdef configurations - cppcheck only checks 12 of 66 "
        "configurations. Use --force to check all configurations. [toomanyconfigs]",
        *(f"Checking src/lapi.c: CONFIG_{i}..." for i in range(30)),
        "src/lgc.c:1056:18: warning: Uninitialized variable: *p [uninitvar]",
        "  *p = o;",
        "src/loslib.c:309:13: style: Variable 'tmr' is not assigned a value. [unassignedVariable]",
        "src/lauxlib.c:744:7: style: The scope of the variable 'c' can be reduced. [variableScope]",
        *(f"Checking src/lauxlib.c: CONFIG_{i}..." for i in range(30)),
        "34/34 files checked 100% done",
        "src/lparser.c:729:14: error: Using argument fs that points at uninitialized variable funcstate "
        "[ctuuninitvar]",
        "  Proto *f = fs->f;",
        "src/lparser.c:1959:11: note: Calling function mainfunc, 2nd argument is uninitialized",
        "  mainfunc(&lexstate, &funcstate);",
    ]
)


def test_cppcheck_is_lint_its_notes_belong_to_the_error_above_and_information_comes_last() -> None:
    # Its "Checking …" progress lines outnumber its findings; its totals line comes before the
    # whole-program findings; its severities are style, performance, portability, information.
    assert detect_kind(CPPCHECK) is ContentKind.LINT
    found = find_diagnostics(CPPCHECK.splitlines())
    assert [d.rule for d in found] == [
        "toomanyconfigs",
        "uninitvar",
        "unassignedVariable",
        "variableScope",
        "ctuuninitvar",
    ]
    assert {d.rule: d.severity for d in found}["unassignedVariable"] == "warning"
    labels = summarize(CPPCHECK, ContentKind.LINT, budget=1500).text.splitlines()
    rules = [line for line in labels if line.startswith("== ") and " ×" in line and "·" not in line]
    assert rules[0] == "== ctuuninitvar ×1 ==" and rules[-1] == "== toomanyconfigs ×1 =="


def test_tsc_pretty_output_is_lint_with_each_rule_counted() -> None:
    # tsc's default on a terminal: "src/a.ts:2:43 - error TS2322: …", a numbered code line and a
    # "~~~" line under each, in colour. It read as a log whose caret lines took the room.
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "data" / "tsc-pretty-errors.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    diagnostics = find_diagnostics(text.splitlines())
    assert len(diagnostics) == 32
    assert {d.rule for d in diagnostics} == {"TS18048", "TS2339", "TS6133", "TS2322", "TS2554"}
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline.startswith("lint: 32 diagnostics, 5 rules, 4 files")
    shown = [clean_line(strip_annotation(line)) for line in extract.text.splitlines()]
    assert "src/mod0.ts:4:51 - error TS2339: Property 'title' does not exist on type 'Item0'." in shown


@pytest.mark.parametrize(
    ("name", "outline", "shown"),
    [
        (  # it read as plain text with nothing standing out: a Directive
            "bandit-httpx.txt",
            "lint: 29 diagnostics, 3 rules, 11 files",
            [
                ">> Issue: [B324:hashlib] Use of weak SHA1 hash for security. Consider usedforsecurity=False",
                "   Location: httpx/_auth.py:309:15",
            ],
        ),
        (  # a Directive: its headers hold no message, the line below does
            "biome-lint-commander.txt",
            "lint: 20 diagnostics, 4 rules, 5 files",
            ["  × Unexpected control character in a regular expression.", "Found 7 errors."],
        ),
        (  # read as YAML: its "L:  47 | …" rows looked like keys
            "sqlfluff-postgres-extensions-excerpt.txt",
            "lint: 25 diagnostics, 5 rules, 2 files",
            ["L:  33 | P:   1 |  PRS | Line 33, Position 1: Found unparsable section: 'CREATE"],
        ),
        (  # markdownlint-cli 0.4x puts the severity before the rule: a table of its words
            "markdownlint-argparse-changelog-head.txt",
            "lint: 40 diagnostics, 5 rules, 1 file",
            [
                "npm-markdown/argparse/CHANGELOG.md:11:81 error MD013/line-length Line length "
                "[Expected: 80; Actual: 94]"
            ],
        ),
    ],
    ids=["bandit", "biome", "sqlfluff", "markdownlint-cli-0.4x"],
)
def test_security_sql_markdown_and_biome_linters_are_lint_with_their_rules_counted(
    name: str, outline: str, shown: list[str]
) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline.startswith(outline), extract.outline
    sent = extract.text.splitlines()
    lines = {*sent, *(strip_annotation(line) for line in sent)}
    for line in shown:
        assert line in lines, line


def test_clang_tidy_with_its_notes_is_lint() -> None:
    # Its cognitive-complexity notes and code lines outnumbered the warnings: a Directive of "text".
    from pathlib import Path

    name = "clang-tidy-zlib-examples-excerpt.txt"
    text = (Path(__file__).resolve().parents[2] / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline.startswith("lint: 31 diagnostics, 5 rules, 2 files"), extract.outline
    assert "Suppressed 7867 warnings (7867 in non-user code)." in extract.text


@pytest.mark.parametrize(
    ("name", "outline", "shown"),
    [
        (  # a row set of 40 records whose messages were no column it showed
            "pylint-json-httpx-excerpt.json",
            "lint: 40 diagnostics, ",
            '{"type": "error", "line": 25, "column": 0, "symbol": "import-error", '
            '"message": "Unable to import \'idna\'", "message-id": "E0401"}',
        ),
        (  # JSON: its first records whole and the others' identity fields
            "ruff-json-context-mode-head.json",
            "lint: 40 diagnostics, ",
            '{"code": "D301", "location": {"column": 1, "row": 1}, "message": "Use `r\\"\\"\\"` if any '
            'backslashes in a docstring", "severity": "error"}',
        ),
    ],
    ids=["pylint", "ruff"],
)
def test_a_json_list_of_diagnostics_is_lint_by_rule_and_file(name: str, outline: str, shown: str) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline.startswith(outline), extract.outline
    assert shown in {strip_annotation(line) for line in extract.text.splitlines()}
    assert size(extract.text) <= 2500


def test_an_error_rules_second_diagnostic_comes_before_conventions_first() -> None:
    # pylint of tabulate with a misspelt name: 28 rules, one error rule (undefined-variable: 'math'
    # and 'widht'). One diagnostic per rule per round gave the ×1 conventions and refactors the
    # room, and 'widht' never showed.
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "pylint-tabulate-undefined.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LINT, budget=2000)
    assert (
        "tabulate/__init__.py:955:25: E0602: Undefined variable 'widht' (undefined-variable)" in extract.text
    )
    assert "== nested-min-max ×1 ==" in extract.text  # rare rules still show (warnings before conventions)


def test_perlcritic_is_lint_by_its_policies_and_severities() -> None:
    # ``Git.pm:16:1: [Modules::ProhibitAutomaticExportation] … (Severity: 4)`` named neither a
    # severity word nor a rule code the diagnostics knew: the run read as a code search.
    text = (Path(__file__).parents[2] / "data" / "perlcritic-git-lwp-excerpt.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2000)
    assert extract.outline.startswith("lint: 80 diagnostics")
    # its --statistics lines are shown as printed (the commonest first), then its severest rules
    assert "102 violations of RegularExpressions::RequireExtendedFormatting." in extract.text
    assert "Git.pm:781:23: [InputOutput::ProhibitInteractiveTest] Use IO::Interactive" in extract.text


def test_perlcritics_default_format_on_one_file_is_lint_with_its_statistics() -> None:
    # ``perlcritic --statistics Template.pm``: ``[Policy] message at line 3, column 1.  (Severity:
    # 5)`` names no file; it read as a log with one warning, its 187 violations and per-policy
    # counts left out.
    text = (Path(__file__).parents[2] / "data" / "perlcritic-statistics-html-template.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2400)
    assert extract.outline == "lint: 187 diagnostics, 30 rules"
    assert "26 violations of Subroutines::RequireFinalReturn." in extract.text
    assert '[InputOutput::ProhibitTwoArgOpen] Two-argument "open" used at line 1824' in extract.text


def test_a_linters_own_statistics_are_shown_as_it_printed_them() -> None:
    # flake8 --statistics ends with its count per rule ("325   E501 line too long (80 > 79
    # characters)"): none of those lines was in stage 1, only counts the summary made itself.
    text = (Path(__file__).parents[2] / "data" / "flake8-statistics-pexpect-excerpt.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=3000).text
    for line in (
        "325   E501 line too long (80 > 79 characters)",
        "111   E302 expected 2 blank lines, found 1",
        "26    F821 undefined name 'g'",
    ):
        assert f"\n{line}\n" in body, line
    # the most common first while they fit 40% of the budget, in the tool's order
    assert "7     E999" not in body
    assert body.index("111   E302") < body.index("325   E501") < body.index("26    F821")
    assert len(body.encode()) <= 3000


def test_the_tools_own_warning_after_the_diagnostics_is_shown_and_a_file_line_once_per_rule() -> None:
    # sqlfluff: 93 diagnostics under one "== [citext--1.4.sql] FAIL" line, then its warning that
    # the dialect may be wrong. The warning was left out, and the file line repeated over every
    # row shown (failed before: 13 copies of it, no WARNING).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-sqlfluff-postgres15-citext-14.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LINT, budget=2600)
    assert "WARNING: Parsing errors found and dialect is set to 'postgres'." in extract.text
    groups = extract.text.count("\n== ") - extract.text.count("diagnostics · ")
    assert extract.text.count("== [citext--1.4.sql] FAIL") <= groups + 1
    assert size(extract.text) <= 2600


def test_files_named_by_long_absolute_paths_are_listed_by_name_under_their_shared_folder() -> None:
    # ruff's JSON names each file by its absolute path: clipped at 60 chars, every file's label
    # was the same ``/tmp/scratch/…/src/zope/interface…`` (a fresh capture's ruff report)
    folder = "/home/runner/work/zope.interface-8.7/zope.interface-8.7/src/zope/interface/"
    records = [
        {
            "code": code,
            "filename": folder + name,
            "location": {"column": 1, "row": row},
            "message": f"message {row}",
            "severity": "error",
        }
        for row, (name, code) in enumerate(
            [("declarations.py", "F401")] * 3 + [("adapter.py", "I001")] * 2 + [("ro.py", "UP032")], 1
        )
    ]
    text = json.dumps(records, indent=2)
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    label = next(line for line in extract.text.splitlines() if line.startswith("== files"))
    assert label == (
        "== files in …/zope.interface-8.7/zope.interface-8.7/src/zope/interface/: "
        "declarations.py ×3, adapter.py ×2, ro.py ×1 =="
    )


def test_tys_diagnostics_with_kebab_case_rules_are_lint() -> None:
    # ty 1.0's `ty check` on fabric 3.2.2: `error[missing-union-attribute]: …` over a `-->` line,
    # as rustc prints, but with a kebab-case rule: none was read, and the output was "markdown:
    # 304 lines, no headings"; its "Found 30 diagnostics" was no totals line.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-capo-ty-100-check-fabric-322-paramiko-invoke.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    diagnostics = find_diagnostics(text.splitlines())
    assert len(diagnostics) == 30
    assert diagnostics[0].rule == "missing-module-member" and diagnostics[0].file == "fabric/config.py"
    extract = summarize(text, ContentKind.LINT, budget=1500)
    assert extract.outline == "lint: 30 diagnostics, 11 rules, 8 files"
    assert "Found 30 diagnostics" in extract.text
    assert "missing-union-attribute ×10" in extract.text


def test_jshints_default_reporter_is_lint() -> None:
    # `jshint --verbose dist/cjs` of handlebars 4.7.8: `file: line 52, col 14, message (W004)` lines
    # and "366 errors" were "table: 366 rows × 3 columns", cut at the commas, one rule shown.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-cape-jshint-verbose-handlebars-478-dist-cjs.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=3000)
    assert extract.outline == "lint: 366 diagnostics, 11 rules, 33 files"
    assert "366 errors" in extract.text.splitlines()
    assert (
        "dist/cjs/handlebars/compiler/compiler.js: line 52, col 14, 'i' is already defined. (W004)"
        in extract.text
    )
    # one message said in many places is shown once, with its count
    assert "'exports' is not defined. (W117) [×123]" in extract.text


def test_cpplints_categories_are_its_rules() -> None:
    # cpplint --linelength=100 over pybind11 3.1.0's detail headers: `a.h:15:  message
    # [build/include_subdir] [4]` named no severity nor a rule the reader knew, so the output was a
    # code search ("212 matches in 18 files") with no count per category.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-cpplint-linelength100-pybind11-310-detail.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2000)
    assert extract.outline == "lint: 212 diagnostics, 12 rules, 18 files"
    assert "whitespace/comments ×48, build/include_order ×47" in extract.text
    assert "Total errors found: 212" in extract.text.splitlines()


def test_zizmors_one_word_rules_and_its_findings_total_are_read() -> None:
    # zizmor 1.33.1 on pytest's workflows: `warning[artipacked]` (a rule of one word) and
    # `info[superfluous-actions]` were no diagnostics, so the rules counted were 2 of 4; the closing
    # "61 findings (…)" line was no totals line and was left out (failed before).
    from tests.corpora import BENCH_CORPUS

    path = BENCH_CORPUS / "lint-capu-zizmor-1331-offline-pytest-834-workflows.txt"
    text = path.read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline == "lint: 34 diagnostics, 4 rules, 5 files"
    shown = extract.text.splitlines()
    assert "warning[artipacked]: credential persistence through GitHub Actions artifacts [×3]" in shown
    assert "info[superfluous-actions]: action functionality is already included by the runner" in shown
    assert "61 findings (27 suppressed, 12 unsafe fixes): 2 informational, 0 low, 3 medium, 29 high" in shown
    assert "   |" not in shown  # an empty gutter line says nothing


def test_deptrys_report_is_lint_with_its_whole_file_problems_counted() -> None:
    # Failed before: deptry on kedro's sdist (fresh31a) was "log: 87 lines, 1 error": its totals
    # ("Found 36 dependency issues.") were no lint totals, and its 27 problems with
    # pyproject.toml as a whole ("pyproject.toml: DEP002 'asv' defined as a dependency but not
    # used…", no line number) were no diagnostics.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-cpa-deptry-0251-no-ansi-kedro-01910-sdist.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2500)
    assert extract.outline == "lint: 36 diagnostics, 3 rules, 5 files"
    assert "== 36 diagnostics · 3 rules (DEP002 ×27, DEP003 ×5, DEP001 ×4) · 5 files ==" in extract.text
    assert extract.text.splitlines()[-2:] == [  # the tool's closing block, whole
        "Found 36 dependency issues.",
        "For more information, see the documentation: https://deptry.com/",
    ]


def test_gcc_and_clang_warnings_are_counted_by_their_flag_and_checker() -> None:
    # Failed before: scan-build's clang run over regex's C sources (fresh31a) counted its 152
    # warnings under one rule, "warning": the flag in brackets ([-Wunused-parameter]) and the
    # analyzer's checker ([core.NullDereference]) were no rule.
    from tests.corpora import BENCH_CORPUS

    name = "build-cpa-scan-build-14-alpha-security-wextra-regex-2024116-build-ext.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    extract = summarize(text, detect_kind(text, tool_name="run_command"), budget=2500)
    assert extract.outline == "lint: 152 diagnostics, 7 rules, 3 files"
    label = extract.text.splitlines()[0]
    assert label.startswith(
        "== 152 diagnostics · 7 rules (-Wunused-parameter ×96, -Wmissing-field-initializers ×43, "
    )
    assert "core.NullDereference ×2" in label
    found = find_diagnostics(["a.c:3:9: warning: unused variable 'x' [-Werror,-Wunused-variable]"])
    assert [d.rule for d in found] == ["-Werror,-Wunused-variable"]
    assert find_diagnostics(["src/a.py:12:        return [self.x]"]) == []  # a grep match of code


@pytest.mark.parametrize(
    ("name", "outline", "first"),
    [
        (
            "typos-1522-git-relnotes-2-3x.txt",
            "lint: 25 diagnostics, 1 rule, 11 files",
            ["error: `ba` should be `by`, `be` [×12]", "    ╭▸ 2.3.0.txt:262:11"],
        ),
        (
            "oxlint-160-qs-6130-lib-test.txt",
            "lint: 41 diagnostics, 2 rules, 3 files",
            [
                "  ! eslint(no-sparse-arrays): Unexpected comma in middle of array [×40]",
                "     ,-[node_modules/qs/test/parse.js:399:78]",
            ],
        ),
    ],
)
def test_diagnostics_framed_by_annotate_snippets_and_miette_are_lint(
    name: str, outline: str, first: list[str]
) -> None:
    # typos' ``╭▸ path:line:col`` under its ``error: …`` read as Markdown, oxlint's ``,-[path:line:col]``
    # under ``  ! eslint(rule): …`` as text: no diagnostics counted, no rule, no file (failed before)
    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=1200)
    assert extract.outline == outline
    shown = extract.text.split("\n")
    at = shown.index(first[0])
    assert shown[at : at + 2] == first
    assert "    │" not in shown  # an empty gutter line says nothing


def test_a_sarif_log_is_lint_read_by_rule_with_each_results_file_and_line(tmp_path: Path) -> None:
    # ``ruff check --output-format sarif`` (SARIF 2.1.0, as CodeQL, Semgrep and Trivy write it).
    # Before: a JSON skeleton, each result's location elided ("locations": ["… +1 item"]).
    import shutil
    import subprocess

    from tests.context_mode.summaries.test_corpus import assert_fits_and_is_verbatim_or_json

    ruff = Path(__file__).parents[3] / ".venv" / "bin" / "ruff"
    ruff = ruff if ruff.exists() else Path(shutil.which("ruff") or "ruff")
    source = (Path(__file__).parents[2] / "data" / "apache-license-2.0.txt").read_text(encoding="utf-8")
    words = sorted({word.lower() for word in source.split() if word.isalpha() and len(word) > 6})[:120]
    program = "import os, sys\n" + "".join(f"def {word}(x, y):\n    return x == None\n" for word in words)
    (tmp_path / "terms.py").write_text(program, encoding="utf-8")
    report = subprocess.run(
        [str(ruff), "check", "--no-cache", "--select", "E,F,ARG", "--output-format", "sarif", "terms.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert json.loads(report)["runs"][0]["results"], report[:300]
    assert detect_kind(report, tool_name="run_command") is ContentKind.LINT
    extract = summarize(report, ContentKind.LINT, budget=1400)
    assert extract.outline.startswith("lint: ")
    lines = extract.text.split("\n")
    assert any(line.startswith("== ") and "E711 ×120" in line for line in lines), lines[:3]
    assert any(
        line.startswith('{"ruleId":"F401","level":"error","message":{"text":"`os` imported') for line in lines
    )
    assert any(line.startswith('{"uri":"') and line.endswith('terms.py"') for line in lines)
    assert_fits_and_is_verbatim_or_json(report, extract)


def test_a_check_named_after_the_line_and_column_is_a_rule_proselints_report() -> None:
    # proselint 0.16's report on pip's docs (a real capture): ``path:20:4: lexical_illusions: …``,
    # ``…:25:11: typography.symbols.curly_quotes: …``; it was "code search: 120 matches".
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-cps-proselint-0160-check-pip-242-docs-topics-user-guide.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2800)
    assert extract.outline == "lint: 120 diagnostics, 11 rules, 12 files"
    assert "typography.symbols.curly_quotes ×53" in extract.text
    assert "cliches.misc.write_good: 'trial and error' is a cliché" in extract.text
    # a grep or ripgrep match whose line starts with a snake_case key is no diagnostic
    matches = [
        "conf/a.yml:3: max_size: 10",
        "src/app.py:14:5:log_level: str = 'info'",
        "src/app.py:14: retry_count: int = 3",
    ]
    assert find_diagnostics(matches) == []


def test_luacheck_reports_problems_under_each_checked_file_without_codes() -> None:
    # luacheck's default report on LDoc 1.5 (a real capture): "Checking ldoc/doc.lua  38 warnings",
    # then the file's problems indented below it, no codes; it was "log: 322 lines, 6 errors".
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-luacheck-ldoc-15.txt").read_text(encoding="utf-8")
    diagnostics = find_diagnostics(text.splitlines())
    assert len(diagnostics) == 252
    syntax = next(d for d in diagnostics if d.file == "ldoc/builtin/debug.lua")
    assert (syntax.rule, syntax.severity) == ("expected argument near", "error")  # its file: "1 error"
    assert {d.rule for d in diagnostics} >= {"unused argument", "line is too long (N > N)"}
    extract = summarize(text, ContentKind.LINT, budget=2800)
    assert extract.outline == "lint: 252 diagnostics, 25 rules, 20 files"
    assert "    ldoc/builtin/debug.lua:46:32: expected argument near 'function'" in extract.text
    # with --codes, the code is the rule; a row under no "Checking" line is none
    coded = [
        "Checking src/a.lua                 1 warning",
        "",
        "    src/a.lua:3:7: (W211) unused variable 'x'",
    ]
    assert [(d.rule, d.severity) for d in find_diagnostics(coded)] == [("W211", "warning")]
    assert find_diagnostics(coded[2:]) == []


def test_dart_sass_warnings_are_lint_located_at_their_stacks_first_line() -> None:
    # Dart Sass on Bootstrap 5.3.8's theme (a real capture): "DEPRECATION WARNING [import]: …", a
    # drawn snippet ("7 │ @import …"), then the stack ("    scss/app.scss 7:9  root stylesheet");
    # it was a log whose fold showed the snippets' caret lines and none of the locations.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "build-sass-bootstrap-538-theme-deprecations.txt").read_text(encoding="utf-8")
    diagnostics = find_diagnostics(text.splitlines())
    assert len(diagnostics) == 20
    assert {d.rule for d in diagnostics} == {"import", "if-function", "global-builtin", "color-functions"}
    assert (diagnostics[0].file, diagnostics[0].severity) == ("scss/app.scss", "warning")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=2800)
    assert extract.outline == "lint: 20 diagnostics, 4 rules, 4 files"
    assert "    scss/app.scss 7:9  root stylesheet" in extract.text.splitlines()
    assert "    node_modules/bootstrap/scss/_variables.scss 342:27  @import" in extract.text.splitlines()


def test_the_tools_short_closing_block_under_the_last_diagnostic_is_shown_whole() -> None:
    # tsc --strict on immer 10.1.1 (a real capture) closes with "Found 43 errors in 8 files." and a
    # table of errors per file; the table's rows were left out (no totals words on them).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "build-tsc-strict-immer-1011-src.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.LINT, budget=2700)
    shown = extract.text.splitlines()
    assert "    21  plugins/mapset.ts:26" in shown
    assert "     8  utils/common.ts:163" in shown
    # a last diagnostic's own snippet is no closing block (zizmor's, above, keeps its gutter out)


def test_a_messages_other_places_are_shown_from_each_file_before_a_files_second() -> None:
    # Failed before: vera++ over Lua's standard library (a real capture, fresh41c) says "closing
    # curly bracket not in the same line or column" 504 times in seven files; the rule's five
    # shown places were all in lbaselib.c, the first file, none in lstrlib.c with 456 diagnostics.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-cqc-vera-121-default-profile-lua-548-lupa-28-stdlib-c.txt").read_text(
        "utf-8"
    )
    body = summarize(text, ContentKind.LINT, budget=3300).text.splitlines()
    rule = body.index("== T011 ×504 ==")
    places = [line.split(":", 1)[0] for line in body[rule + 1 : rule + 6]]
    assert len(set(places)) == 5
    assert "lstrlib.c" in places


def test_javacs_symbol_line_is_part_of_its_diagnostic() -> None:
    # A real javac 17 run (``javac -Xlint:all``, six classes with type errors): 71 "cannot find
    # symbol" errors, each about another name on its ``  symbol:`` line three lines below. Before,
    # they folded into one row ``cannot find symbol [×71]`` and no symbol was shown.
    text = (DATA / "javac-17-xlint-all-six-classes-type-errors.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=2500).text
    lines = body.splitlines()
    header = "jv2/src/com/shop/Service0.java:6: error: cannot find symbol"
    assert lines[lines.index(header) + 1] == "  symbol:   class Foo2"
    assert "cannot find symbol [×71]" not in body
    assert sum(line.startswith("  symbol:   ") for line in lines) >= 4


def test_eslints_rows_without_a_rule_are_diagnostics() -> None:
    # A real ESLint 9 run (stylish, the default format) over CommonJS packages, 20 of whose ES
    # module files do not parse: ``  1:1  error  Parsing error: 'import' and 'export' may appear
    # only with 'sourceType: module'`` has no rule column. Before, those rows were no diagnostic:
    # the summary counted 275 of ESLint's 297 problems and never said a file failed to parse.
    text = (DATA / "eslint-9-stylish-parse-errors.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=2500).text
    assert "297 diagnostics" in body
    assert "parse ×20" in body
    assert "Parsing error: 'import' and 'export' may appear only with 'sourceType: module' [×18]" in body


def test_tscs_pretty_output_is_lint_with_its_totals() -> None:
    # A real ``tsc --pretty --checkJs`` run (colours on, as ``--pretty`` prints them in a pipe):
    # each error's quoted source line (``16     var copy = …``, its gutter a bare number) sits over
    # a ``~~~~`` line. Before, those lines made it read as a log ("0 failed tests, 84 errors"), and
    # its ``Found 93 errors in 18 files.``, above a table of 18 files, was out of the summary.
    text = (DATA / "tsc-5-pretty-checkjs.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=2500).text
    assert "93 diagnostics" in body
    assert "Found 93 errors in 18 files." in body


def test_biomes_count_of_diagnostics_not_shown_is_kept() -> None:
    # A real ``biome lint`` run: Biome prints its first 20 diagnostics and then says how many it
    # left out, far above the end (its totals and the closing ``lint ━━━`` block below). Before,
    # ``Diagnostics not shown: 237.`` and ``Checked 36 files in 26ms.`` were out of the summary.
    text = (DATA / "biome-2.6-lint-max-diagnostics.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=2000).text
    assert "Diagnostics not shown: 237." in body
    assert "Checked 36 files in 26ms. No fixes applied." in body
    assert "Found 209 warnings." in body


def test_rubocops_warnings_come_before_its_conventions() -> None:
    # A real RuboCop 1.39 run over two of Ruby's own libraries: 130 offenses under 42 cops, three
    # of them warnings (``W: Lint/AssignmentInCondition``: likely bugs), the rest conventions
    # (``C: Layout/…``, ``C: Style/…``). Before, the three warnings were ranked with the
    # conventions, rarest first, and the summary showed none of them.
    text = (DATA / "rubocop-1.39-set-ostruct.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=1500).text
    warnings = [line for line in body.splitlines() if ": W: " in line]
    assert len(warnings) == 3
    first_convention = next(i for i, line in enumerate(body.splitlines()) if ": C: " in line)
    assert all(body.splitlines().index(w) < first_convention for w in warnings)


def test_php_codesniffers_full_report_is_lint_read_by_message() -> None:
    # A real PHP_CodeSniffer run (``phpcs --standard=PSR12``, its default full report): per file a
    # ``FILE:`` line and a ``FOUND 52 ERRORS AND 4 WARNINGS AFFECTING 33 LINES`` line, then rows
    # ``  37 | ERROR   | [x] Opening brace should be on a new line``, messages wrapped onto
    # ``     |         |     …`` lines. Before, it read as a log ("0 failed tests, 4 errors").
    text = (DATA / "phpcs-3.7-psr12-full-report.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "72 diagnostics" in body
    lines = body.splitlines()
    assert lines[lines.index("FILE: /usr/share/php/PhpParser/Lexer.php") + 1] == (
        "FOUND 52 ERRORS AND 4 WARNINGS AFFECTING 33 LINES"
    )
    # a message said on several lines folds, whatever its line number, and shows its second line
    row = "  46 | ERROR   | [x] Only one argument is allowed per line in a [×18]"
    assert lines[lines.index(row) + 1] == "     |         |     multi-line function call"


def test_php_codesniffers_sniff_codes_are_its_rules() -> None:
    # ``phpcs -s`` puts each row's sniff after its message, on a line of its own when wrapped.
    text = (DATA / "phpcs-3.7-psr12-full-report-sniff-codes.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "== PSR12.Files.OpenTag.NotAlone ×1 ==" in body
    # a file's count is said once, under its first file line
    assert body.count("FOUND 52 ERRORS AND 4 WARNINGS AFFECTING 33 LINES") == 1


def test_a_messages_other_places_come_after_every_rules_own_messages() -> None:
    # phpcs over 40 files, no sniff codes: two rules (its severities). The warning's one message
    # (``Visibility must be declared on all constants…``, in ten files) took a turn for its second
    # file before the error's second most common message was shown.
    text = (DATA / "phpcs-3.7-psr12-full-report-40-files.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "| [x] There must not be a space before the colon in a [×94]" in body


def test_checkstyles_exception_on_a_file_it_cannot_parse_is_kept() -> None:
    # A real Checkstyle 8.36 run (sun_checks.xml) over 20 files, one of which does not parse: below
    # its 170 rows, a Java stack trace whose first line and last ``Caused by:`` say which file
    # was not checked and why. Before, the summary kept only the trace's last lines.
    text = (DATA / "checkstyle-8.36-sun-checks-unparsable-file.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=2000).text
    assert (
        "com.puppycrawl.tools.checkstyle.api.CheckstyleException: Exception was thrown while processing"
        " /tmp/p47/jv/Main.java"
    ) in body
    assert "Caused by: /tmp/p47/jv/Main.java:3:58: expecting SEMI, found '}'" in body


def test_shellchecks_code_line_and_levels_are_kept() -> None:
    # A real ShellCheck 0.9 run (its default tty format, in a pipe): per problem ``In path line N:``,
    # the code line, and a caret line ``^--^ SC2046 (warning): …``. Before, the code line the caret
    # points into was left out, and ``info`` and ``style`` notes ranked as warnings (SC2006's
    # backticks, ×46, before SC2046's unquoted word splitting).
    text = (DATA / "shellcheck-0.9-usr-bin-scripts.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=2000).text
    lines = body.splitlines()
    place = lines.index("In /usr/bin/gettext.sh line 88:")
    assert lines[place + 1] == '  gettext "$1" | (export PATH `envsubst --variables "$1"`; envsubst "$1")'
    assert lines[place + 2].lstrip().startswith("^-------------------------^ SC2046 (warning): ")
    assert body.index("== SC2046 ×6 ==") < body.index("== SC2003 ×3 ==")  # a warning, then style


def test_luachecks_coloured_names_do_not_split_its_rules() -> None:
    # A real luacheck 1.1 run, coloured as it prints in a pipe: a name is set in bold, not in
    # quotes (``unused loop variable ESC[0mESC[1miESC[0m``). Before, each name made a rule of
    # its own: 49 rules, the biggest "line is too long" ×15.
    text = (DATA / "luacheck-1.1-colour-penlight.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "113 diagnostics · 8 rules (unused argument ×33, shadowing upvalue on line N ×23" in body


def test_mypy_pretty_wrapped_codes_are_its_rules() -> None:
    # A real ``mypy --pretty --strict`` run (more-itertools' more.py): mypy wraps a message onto
    # the lines below, its code ending the last (``attribute "_marker"  [attr-defined]``) or
    # alone (`` [no-untyped-def]``). Before, 181 of its 272 errors had no code: one rule,
    # "error ×181", and the wrapped ends of the messages were left out.
    text = (DATA / "mypy-2.4-pretty-strict-more-itertools-more.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=2000).text
    assert "· 10 rules (no-untyped-def ×182, no-untyped-call ×57, var-annotated ×14" in body
    assert "error ×" not in body
    lines = body.splitlines()
    header = 'more_itertools/more.py:32: error: Module "more_itertools.recipes" has no'
    assert lines[lines.index(header) + 1] == 'attribute "_marker"  [attr-defined]'


def test_ruffs_grouped_output_is_lint_not_a_multi_file_read() -> None:
    # ``ruff check --select ALL --output-format grouped`` (ruff 0.17): a ``more_itertools/recipes.py:``
    # line, then its rows ``  436:5  D401 First line of docstring …`` (no colon after the column).
    # Before, the file lines made a multi-file source read of it ("0 definitions").
    text = (DATA / "ruff-0.17-grouped-more-itertools.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "== 402 diagnostics · " in body
    assert "Found 402 errors." in body


def test_github_actions_annotations_are_lint_by_the_code_in_their_title() -> None:
    # ``ruff check --output-format github`` (ruff 0.17), as linters print for CI:
    # ``::error title=ruff (PYI021),file=/…/more.pyi,line=1,col=1,…::more.pyi:1:1: PYI021 …``.
    # Before, a log with "1 error" (its first lines and its last).
    text = (DATA / "ruff-0.17-github-annotations.txt").read_text(encoding="utf-8")
    assert detect_kind(text) is ContentKind.LINT
    body = summarize(text, ContentKind.LINT, budget=1500).text
    assert "== 126 diagnostics · 21 rules (COM812 ×46, PYI063 ×23" in body


def _lint_of(name: str, budget: int = 1500) -> tuple[str, str]:
    """The summary (outline, text) of a lint report in ``tests/data``, checked to be lint, within
    its budget and verbatim (a JSON report's pieces as it spells them)."""
    from tests.context_mode.summaries.test_corpus import assert_fits_and_is_verbatim_or_json

    text = (DATA / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    extract = summarize(text, ContentKind.LINT, budget=budget)
    assert size(extract.text) <= budget
    assert_fits_and_is_verbatim_or_json(text, extract)
    return extract.outline, extract.text


def test_mypys_json_lines_are_lint_by_error_code() -> None:
    # ``mypy -O json --strict`` on bandit: one JSON object per line. It read as a log, "0 failed
    # tests, 1 error", its 120 errors' codes never counted.
    outline, text = _lint_of("mypy-o-json-strict-bandit-head.jsonl")
    assert outline.startswith("lint: 120 diagnostics, 6 rules, 10 files"), outline
    assert "no-untyped-def ×73, no-untyped-call ×35" in text
    assert '{"file": "bandit/core/constants.py"' in text.splitlines()
    assert '"message": "Need type annotation for \\"FALSE_VALUES\\"", "code": "var-annotated"' in text


def test_a_pylint_json_report_with_duplicate_code_is_lint_not_a_document() -> None:
    # pylint ``--output-format=json``: a duplicate-code message holds the 1,045 lines it found
    # twice. The report read as "json: 1 document in its strings" and showed those lines alone.
    outline, text = _lint_of("pylint-json-more-itertools-duplicate-code.json")
    assert outline.startswith("lint: 41 diagnostics, 15 rules, 2 files"), outline
    assert (
        '{"type": "error", "line": 961, "column": 4, "symbol": "no-name-in-module", "message": '
        '"No name \'batched\' in module \'itertools\'", "message-id": "E0611"}'
    ) in {strip_annotation(line) for line in text.splitlines()}


@pytest.mark.parametrize(
    ("name", "rules", "beside"),
    [
        pytest.param(  # pylint's ``json2``: ``messages`` and ``statistics``
            "pylint-json2-more-itertools-excerpt.json",
            "14 rules (missing-function-docstring ×6, no-else-return ×6",
            '"statistics": {"messageTypeCount": {"fatal": 0, "error": 2, "warning": 36,',
            id="pylint-json2",
        ),
        pytest.param(  # pyright ``--outputjson``: ``generalDiagnostics``, ``version`` and ``summary``
            "pyright-outputjson-more-itertools.json",
            "5 rules (reportPossiblyUnboundVariable ×8, reportAttributeAccessIssue ×3",
            '"version": "1.1.414", "time": "1796640415002", "summary": {"filesAnalyzed": 1, '
            '"errorCount": 14,',
            id="pyright",
        ),
        pytest.param(  # bandit ``-f json``: ``results`` (each with its code snippet) and ``metrics``
            "bandit-json-more-itertools.json",
            "2 rules (B311 ×14, B101 ×1)",
            '"_totals": {"CONFIDENCE.HIGH": 15,',
            id="bandit",
        ),
    ],
)
def test_a_report_object_holding_its_diagnostics_is_lint_with_what_it_says_beside_them(
    name: str, rules: str, beside: str
) -> None:
    # Each read as a JSON skeleton: a few messages, no rule counted, no line shown.
    _, text = _lint_of(name)
    label = text.splitlines()[0]
    assert rules in label and beside in label, label
    assert "3663 " not in label  # bandit's ``code`` member (a snippet) is no rule


def test_pyrights_diagnostics_show_where_they_start() -> None:
    _, text = _lint_of("pyright-outputjson-more-itertools.json")
    assert (
        '{"severity": "error", "message": "\\"result\\" is not a known attribute of \\"None\\"", '
        '"range": {"start": {"line": 3927, "character": 28}}, "rule": "reportOptionalMemberAccess"}'
    ) in text.splitlines()


@pytest.mark.parametrize(
    ("name", "rules", "shown"),
    [
        pytest.param(  # oxlint ``-f json``: a record's line is in ``labels[0].span``
            "oxlint-json-yargs-graceful-fs-head.json",
            "4 rules (eslint(no-unused-vars) ×20, eslint(no-func-assign) ×11",
            '{"message": "\'ReadStream\' is a function.", "code": "eslint(no-func-assign)", "severity": '
            '"warning", "labels": [{"span": {"line": 236, "column": 5}}]}',
            id="oxlint",
        ),
        pytest.param(  # Biome ``--reporter=json``: the file and line in ``location``, the rule a category
            "biome-lint-json-reporter-excerpt.json",
            "5 rules (lint/style/useTemplate ×22, lint/style/useNodejsImportProtocol ×16",
            '{"severity":"error","message":"Using == may be unsafe if you are relying on type coercion.",'
            '"category":"lint/suspicious/noDoubleEquals","location":{"start":{"line":1,"column":40205}}}',
            id="biome",
        ),
        pytest.param(  # stylelint ``-f json``: per file, ``source`` and its ``warnings``
            "stylelint-json-mdbook-css-excerpt.json",
            "9 rules (comment-empty-line-before ×17, color-function-notation ×10",
            '{"line":277,"column":18,"endLine":277,"endColumn":20,"rule":"length-zero-no-unit",'
            '"severity":"error","text":"Disallowed unit (length-zero-no-unit)"}',
            id="stylelint",
        ),
    ],
)
def test_js_linters_json_reports_are_lint_by_rule_with_each_place(name: str, rules: str, shown: str) -> None:
    # Each read as a JSON skeleton ("array of 3 items", "object of 5 keys"): a few messages, no
    # rule counted; oxlint's lines, under ``labels``, never shown.
    _, text = _lint_of(name)
    lines = text.splitlines()
    assert rules in lines[0], lines[0]
    assert shown in {strip_annotation(line) for line in lines}, lines[:12]


def test_ruffs_junit_report_is_lint_by_rule_each_test_case_with_its_failure() -> None:
    # Failed before: "log: 0 failed tests, 75 errors": each failure is below its test case's
    # ``<properties>``, not on the next line, so no test counted; its lines in order, properties too.
    text = (DATA / "ruff-junit-store-tests.xml").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    summary = summarize(text, ContentKind.LINT, budget=2500)
    assert summary.outline.startswith(f"lint: {text.count('<failure ')} diagnostics, ")
    body = summary.text.splitlines()
    assert "S101 ×29" in body[0] and "E501 ×18" in body[0]
    shown = [re.sub(r" \[×\d+\]\Z", "", line).removesuffix("…") for line in body if line.lstrip()[:1] == "<"]
    assert all(line in text for line in shown)
    case = '        <testcase name="org.ruff.D107" '
    at = next(i for i, line in enumerate(body) if line.startswith(case))
    # the rule's test case, then its failure's message (the properties between them left out)
    assert body[at + 1].lstrip().startswith('<failure message="Missing docstring in `__init__`">')
    assert not any("<propert" in line for line in body)
    # each test case names its file: the suite's line is not repeated over each rule's first
    assert not any("<testsuite " in line for line in body)


def test_eslints_junit_report_is_lint_errors_first() -> None:
    # Failed before: "log: 90 failed tests": every ``no-var`` warning in the file's order before
    # the errors below them.
    text = (DATA / "eslint-9.39-junit-graceful-fs.xml").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.LINT
    summary = summarize(text, ContentKind.LINT, budget=2500)
    assert summary.outline == "lint: 90 diagnostics, 7 rules, 4 files"
    body = summary.text.splitlines()
    assert "23 errors, 67 warnings ==" in body[0]
    labels = [line for line in body[2:] if line.startswith("== ")]
    assert labels[0] == "== no-unused-vars ×12 ==" and "== no-var ×67 ==" not in labels[:6]
    assert any("&apos;copy&apos; is already defined." in line for line in body)


def test_a_messages_fold_count_marks_its_first_place_only() -> None:
    # Failed before: each of the four places of oxlint's "Do not use `new Array(singleArgument)`."
    # shown said ``[×4]``, as if there were sixteen.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "lint-capi-oxlint-1960-mongoose-895-lib.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.LINT, budget=3000).text.splitlines()
    message = "  ! unicorn(no-new-array): Do not use `new Array(singleArgument)`."
    shown = [line for line in body if line.startswith(message)]
    assert len(shown) >= 2
    assert shown[0] == message + " [×4]" and all(line == message for line in shown[1:])
