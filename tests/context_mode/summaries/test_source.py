"""The source outline on a real multi-file read: module constants before every class's dunders."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.shapes import prints_source_file
from context_mode.summaries import summarize
from context_mode.summaries.packing import size
from context_mode.types import ContentKind

DATA = Path(__file__).parents[2] / "data"

TEXT = (Path(__file__).parents[2] / "data" / "read-multiple-files-httpx.txt").read_text(encoding="utf-8")


def test_module_constants_outrank_special_methods_and_gaps_are_unmarked() -> None:
    # Before: DEFAULT_* ranked below every nested def (__eq__, __repr__ of each class), and each
    # gap cost a "… N lines …" line (later a bare "…") although the [Lnn] notes say where the
    # text was cut.
    assert detect_kind(TEXT) is ContentKind.SOURCE
    extract = summarize(TEXT, ContentKind.SOURCE, budget=2000)
    lines = extract.text.splitlines()
    assert "/home/runner/work/httpx-0.28.1/httpx/_config.py: [251 lines]" in lines
    assert "DEFAULT_TIMEOUT_CONFIG = Timeout(timeout=5.0) [L246]" in lines
    assert "DEFAULT_MAX_REDIRECTS = 20 [L248]" in lines
    assert "def __repr__" not in extract.text
    assert "    def __init__( [L86]" in lines
    assert "…" not in lines and all("lines …" not in line for line in lines)
    assert size(extract.text) <= 2000


GO = """/home/runner/work/cobra/cobra.go:
package cobra

import "time"

const (
	defaultPrefixMatching  = false
	defaultCommandSorting  = true
)

// MousetrapDisplayDuration controls how long the help text is displayed.
var MousetrapDisplayDuration = 5 * time.Second

type Command struct {
	Use string
}

func (c *Command) Name() string {
	return c.Use
}

func OnInitialize(y ...func()) {
	initializers = append(initializers, y...)
}
"""


def test_a_go_outline_has_its_types_and_package_values_above_its_methods() -> None:
    lines = summarize(GO, ContentKind.SOURCE, budget=2000).text.splitlines()
    assert lines == [
        "/home/runner/work/cobra/cobra.go: [23 lines]",
        "\tdefaultPrefixMatching  = false [L6]",
        "\tdefaultCommandSorting  = true [L7]",
        # in the room the outline leaves, a comment's sentence
        "// MousetrapDisplayDuration controls how long the help text is displayed. [L10]",
        "var MousetrapDisplayDuration = 5 * time.Second [L11]",
        "type Command struct { [L13]",
        "func (c *Command) Name() string { [L17]",
        "func OnInitialize(y ...func()) { [L21]",
    ]
    small = summarize(GO, ContentKind.SOURCE, budget=160).text.splitlines()
    assert "func OnInitialize(y ...func()) { [L21]" in small
    assert "func (c *Command) Name() string { [L17]" not in small  # a method ranks as a nested one


def test_a_big_file_shows_the_messages_it_raises_beside_its_outline() -> None:
    # syn's expr.rs (120 kB): its outline of definitions took the whole budget, and none of the
    # error messages a user meets ("expected unsuffixed integer") was shown.
    import re

    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "source-filesystem-syn-expr.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.SOURCE, budget=5800)
    raised = [line for line in extract.text.splitlines() if re.search(r"\bErr\([^\n]*\"\w", line)]
    assert len(raised) >= 5, extract.text


def _outline(name: str) -> list[str]:
    text = (Path(__file__).parents[2] / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="read_multiple_files") is ContentKind.SOURCE
    return summarize(text, ContentKind.SOURCE, budget=2000).text.splitlines()


def test_c_functions_are_definitions_and_struct_variables_are_not() -> None:
    # A C function's definition (a type, then its name) matched no definition pattern: zran.c's
    # outline was its #defines and its "struct point *next;" variables, gzjoin.c's its #defines.
    lines = _outline("read-multiple-files-zlib-examples.txt")
    assert "local void gzhead(bin *in) [L204]" in lines
    assert "int deflate_index_build(FILE *in, off_t span, struct deflate_index **built) [L135]" in lines
    assert "static struct deflate_index *addpoint(struct deflate_index *index, int bits, [L89]" in lines
    assert not any(line.lstrip().startswith("struct point *") for line in lines)


def test_java_classes_and_constants_are_in_the_outline_and_routine_annotations_are_not() -> None:
    # "public final class Optional<T> {" matched no pattern (its modifiers came first), nor did a
    # class's "private static final … EMPTY = …"; every "@Override" took a line.
    lines = _outline("read-multiple-files-jdk25-util.txt")
    assert "public final class Optional<T> { [L62]" in lines
    assert "    private static final Optional<?> EMPTY = new Optional<>(null); [L66]" in lines
    assert "public final class StringJoiner { [L68]" in lines
    assert not any(line.lstrip().startswith(("@Override", "@SuppressWarnings")) for line in lines)


def test_config_files_read_together_are_outlined_by_their_top_level_keys() -> None:
    # read_multiple_files of eight Helm and Kubernetes YAML files: "0 definitions", a Directive
    # with no file named. Each file is now its path and line count with its top-level keys,
    # every file's first keys before any file's tenth.
    from context_mode.router import Summary, route
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "filesystem-helm-yaml-multi.txt").read_text(encoding="utf-8")
    decision = route(text, tool="read_multiple_files", arguments={})
    assert isinstance(decision, Summary)
    lines = decision.extract.text.splitlines()
    assert sum(line.startswith("/srv/dask_kubernetes-2026.3.0/") for line in lines) == 8
    assert "kind: DaskCluster [L2]" in lines and "kind: ClusterRole [L3]" in lines
    assert "image: [L1]" in lines


def test_documents_read_with_code_are_outlined_by_their_headings_not_their_examples() -> None:
    # A README read with its code was outlined by the lines of its examples that read as code
    # (``const program = new Command();`` ×5), not by its sections.
    readme = (
        "# mytool\n\nA tool.\n\n## Install\n\n```js\nconst program = new Command();\n```\n\n"
        "## Options\n\n```js\n# not a heading\nconst options = program.opts();\n```\n"
    )
    guide = "=====\nGuide\n=====\n\nText.\n\nUsage\n-----\n\n    def run(x):\n        pass\n"
    code = "".join(f"def step_{n}(value):\n    return value + {n}\n\n" for n in range(8))
    text = f"/p/README.md:\n{readme}\n/p/docs/guide.rst:\n{guide}\n/p/tool.py:\n{code}"
    extract = summarize(text, ContentKind.SOURCE, budget=2000)
    lines = extract.text.splitlines()
    assert ["# mytool [L1]", "## Install [L5]", "## Options [L11]"] == lines[1:4]
    assert ["Guide [L2]", "Usage [L7]"] == lines[5:7]
    assert "def step_0(value): [L1]" in lines
    assert not any("Command()" in line or "not a heading" in line or "def run" in line for line in lines)
    assert extract.outline == "source: 3 files, 56 lines, 8 definitions, 5 headings"


def test_a_c_headers_defines_are_its_outline_not_its_parameters_or_comments() -> None:
    # zstd.h: ``#define ZSTD_VERSION_MAJOR    1`` (aligned with spaces) and ``#  define
    # ZSTD_CLEVEL_DEFAULT 3`` were no constants; ``const void* src, size_t srcSize,`` (a
    # declaration's second line) read as a Rust const and a comment's "functions." as a JavaScript
    # function, and took their room.
    text = (Path(__file__).parents[2] / "data" / "zstd-h-154-head.txt").read_text(encoding="utf-8")
    lines = summarize(text, ContentKind.SOURCE, budget=2000).text.splitlines()
    assert "#define ZSTD_VERSION_MAJOR    1 [L107]" in lines
    assert "#  define ZSTD_CLEVEL_DEFAULT 3 [L129]" in lines
    assert not any(line.lstrip().startswith(("const void*", "functions.")) for line in lines)
    # JavaScript's module constants are definitions still
    js = "\n".join(["const isoWeekRegex = /(\\d{4})-?W(\\d\\d)/;", *(f"// line {n}" for n in range(400))])
    assert "const isoWeekRegex" in summarize(js, ContentKind.SOURCE, budget=300).text


def test_python_prose_and_imports_are_no_c_functions_and_module_variables_count() -> None:
    # tornado's options.py read by read_multiple_files: a docstring's "that options may be defined
    # in any module (it also enables" and "from typing import (" read as C signatures at the left
    # margin; the module's "options = OptionParser()" was not in the outline at all.
    text = (Path(__file__).parents[2] / "data" / "mcp-read-multiple-tornado-options.txt").read_text(
        encoding="utf-8"
    )
    summary = summarize(text, ContentKind.SOURCE, budget=2500).text
    assert "any module (it also enables" not in summary
    assert "from typing import (" not in summary
    assert "options = OptionParser() [L" in summary


@pytest.mark.parametrize(
    "command",
    ["cat /usr/include/libpng16/png.h", "head -n 700 png.h", "sed -n '1,700p' include/png.h", "nl -ba png.h"],
)
def test_a_header_printed_by_a_shell_command_is_source_outlined_by_its_constants(command: str) -> None:
    # ``cat png.h`` was markdown (libpng's ``#  define`` lines read as headings); once source, a
    # header of constants and macro-wrapped prototypes had "0 definitions": a Directive
    text = (DATA / "libpng-png-h-head.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command", arguments={"command": command}) is ContentKind.SOURCE
    decision = route(text, tool="run_command", arguments={"command": command})
    assert isinstance(decision, Summary), decision
    assert decision.extract.outline == "source: 1 file, 700 lines, 0 definitions, 64 constants"
    assert '#define PNG_LIBPNG_VER_STRING "1.6.39" [L281]' in decision.extract.text.split("\n")


def test_several_source_files_printed_by_cat_are_source() -> None:
    # gorilla/mux's cat mux.go route.go regexp.go middleware.go was read as a log of "24 errors"
    # (its fmt.Errorf lines); only a command printing one file counted (failed before).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "source-cat-gorilla-mux-180-debian-go.txt").read_text(encoding="utf-8")
    arguments = {"command": "cat mux.go route.go regexp.go middleware.go"}
    assert prints_source_file(arguments)
    assert detect_kind(text, tool_name="run_command", arguments=arguments) is ContentKind.SOURCE


@pytest.mark.parametrize(
    "command", ["cat README.md", "cat a.h | grep X", "tail -f app.log", "cat a.go notes.txt", "cat a.go -"]
)
def test_a_command_printing_no_source_file_gives_no_source_hint(command: str) -> None:
    assert not prints_source_file({"command": command})


def test_what_a_module_exports_by_name_is_in_its_outline() -> None:
    # memchr's memmem/mod.rs re-exports its Prefilter (``pub use self::prefilter::Prefilter;``):
    # an exported name, which the outline of definitions and constants left out
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "source-cat-memchr-250-memmem-mod-rs.txt").read_text(encoding="utf-8")
    shown = summarize(text, ContentKind.SOURCE, budget=2500).text
    assert "pub use self::prefilter::Prefilter; [L" in shown
    js = "// a comment\n" * 30 + 'export { parse, stringify } from "./core.js"\nmodule.exports = { load }\n'
    shown = summarize(js, ContentKind.SOURCE, budget=400).text
    assert 'export { parse, stringify } from "./core.js" [L31]' in shown
    assert "module.exports = { load } [L32]" in shown


def test_a_numbered_perl_file_shows_its_subs() -> None:
    # cat -n of dpkg's Dpkg/Source/Package/V2.pm: every line opened with its number and a tab, so
    # nothing sat at the left margin and no Perl "sub" was a definition (failed before: an empty
    # summary).
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "source-cat-n-dpkg-12122-source-package-v2-pm.txt").read_text(encoding="utf-8")
    summary = summarize(text, ContentKind.SOURCE, budget=1500).text
    assert "   160\tsub do_extract {" in summary and "   514\tsub do_build {" in summary


def _corpus_outline(name: str, budget: int) -> list[str]:
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    return summarize(text, ContentKind.SOURCE, budget=budget).text.splitlines()


def test_an_enumerations_variants_are_in_the_outline() -> None:
    # nom's internal.rs and error.rs: "pub enum Err<E> {" was shown, its variants never were
    # (what an agent reads an enum for).
    lines = _corpus_outline("source-fs-read-multiple-nom-711-internal-error-branch.txt", 2580)
    assert "pub enum Err<E> { [L97]" in lines
    assert "  Failure(E), [L105]" in lines
    assert "  Incomplete(Needed), [L99]" in lines


@pytest.mark.parametrize(
    ("source", "variant"),
    [
        pytest.param(
            "typedef enum {\n    ZSTD_e_continue=0, /* collect */\n"
            "    ZSTD_e_end=2  /* close */\n} ZSTD_EndDirective;\n",
            "    ZSTD_e_end=2  /* close */ [L3]",
            id="c-typedef",
        ),
        pytest.param(
            "class Rcode(dns.enum.IntEnum):\n    #: No error\n    NOERROR = 0\n    BADCOOKIE = 23\n\n"
            "    @classmethod\n    def _maximum(cls):\n        return 4095\n",
            "    BADCOOKIE = 23 [L4]",
            id="python-enum",
        ),
    ],
)
def test_variants_are_read_in_c_and_python_enumerations(source: str, variant: str) -> None:
    lines = summarize(source, ContentKind.SOURCE, budget=2000).text.splitlines()
    assert variant in lines
    assert not any("return 4095" in line for line in lines)


def test_a_files_package_values_outrank_its_later_definitions() -> None:
    # viper.go (2,141 lines, 193 definitions): its first 52 functions took the whole budget, one-line
    # wrappers (func GetInt(key string) int { return v.GetInt(key) }) before the file types it reads.
    lines = _corpus_outline("source-cat-viper-1101-viper-go.txt", 3261)
    assert any(line.startswith('var SupportedExts = []string{"json", "toml"') for line in lines)
    assert "type Viper struct { [L220]" in lines
    assert "func New() *Viper { [L267]" in lines


def test_a_ruby_files_distinct_raised_messages_outrank_its_repeated_ones() -> None:
    # addressable's uri.rb raises "Can't convert #{uri.class} into String." a dozen times: those
    # repeats took the twelve first places of its raised messages, and Ruby's
    # 'raise InvalidURIError, "…"' form was not read as one.
    lines = _corpus_outline("source-sed-addressable-281-uri-rb.txt", 2580)
    assert any("raise InvalidURIError, \"Invalid scheme format: '#{new_scheme}'\"" in line for line in lines)


def test_a_python_warning_is_a_message_the_code_gives() -> None:
    source = (
        "class parser:\n"
        "    def _build_tzaware(self, naive, res, tzinfos):\n"
        "        if res.tzname and res.tzname in time.tzname:\n"
        "            aware = naive.replace(tzinfo=tz.tzlocal())\n"
        "        else:\n"
        '            warnings.warn("tzname {tzname} identified but not understood.  "\n'
        '                          "Pass `tzinfos` argument in order to correctly "\n'
        '                          "return a timezone-aware datetime.".format(tzname=res.tzname),\n'
        "                          category=UnknownTimezoneWarning)\n"
    )
    lines = summarize(source, ContentKind.SOURCE, budget=2000).text.splitlines()
    assert '            warnings.warn("tzname {tzname} identified but not understood.  " [L6]' in lines


def test_the_values_a_constructor_sets_are_its_defaults() -> None:
    # viper.go's New() sets the key delimiter and the config file's permissions; neither was an
    # outline line (an agent asking "what is the default separator" read 52 wrappers instead).
    lines = _corpus_outline("source-cat-viper-1101-viper-go.txt", 3261)
    assert '\tv.keyDelim = "." [L269]' in lines
    assert "\tv.configPermissions = os.FileMode(0o644) [L271]" in lines
    source = (
        "class Pool:\n"
        "    def __init__(self, size=None):\n"
        "        self.max_size = 100\n"
        "        self._connections = None\n"
        '        self.name = "default-pool"\n'
        "\n"
        "    def get(self):\n"
        "        self.hits = 1\n"
    )
    assert summarize(source, ContentKind.SOURCE, budget=2000).text.splitlines() == [
        "class Pool:",
        "    def __init__(self, size=None): [L2]",
        "        self.max_size = 100 [L3]",
        '        self.name = "default-pool" [L5]',
        "    def get(self): [L7]",
    ]


def test_a_comment_stating_a_default_is_in_the_outline() -> None:
    # addressable's uri.rb documents heuristic_parse's hint in a comment: '#   Defaults to
    # <code>{:scheme => "http"}</code>.'; pflag's Flag struct says which field holds the default
    # value. Neither comment was an outline line.
    lines = _corpus_outline("source-sed-addressable-281-uri-rb.txt", 2580)
    assert '    #   Defaults to <code>{:scheme => "http"}</code>. [L175]' in lines
    source = (
        "type Flag struct {\n"
        "\tName                string              // name as it appears on command line\n"
        "\tDefValue            string              // default value (as text); for usage message\n"
        "\tChanged             bool                // If the user set the value (or if left to default)\n"
        "}\n"
    )
    lines = summarize(source, ContentKind.SOURCE, budget=2000).text.splitlines()
    assert (
        "\tDefValue            string              // default value (as text); for usage message [L3]"
        in lines
    )
    assert not any("Name " in line for line in lines)


def test_a_modules_table_of_values_shows_its_entries() -> None:
    # click's _termui_impl.py maps colour names to ANSI codes in '_ansi_colors = {', ws's
    # constants.js exports its handshake GUID in 'module.exports = {': the opening lines were
    # outlined, the entries (what an agent looks the table up for) never were.
    lines = _corpus_outline("source-filesystem-click-multi.txt", 5580)
    assert any(line.startswith('    "bright_magenta": 95, [L') for line in lines)
    source = (
        "/srv/ws/lib/constants.js:\n"
        "'use strict';\n"
        "\n"
        "module.exports = {\n"
        "  BINARY_TYPES,\n"
        "  EMPTY_BUFFER: Buffer.alloc(0),\n"
        "  GUID: '258EAFA5-E914-47DA-95CA-C5AB0DC85B11',\n"
        "  // a comment\n"
        "  kStatusCode: Symbol('status-code'),\n"
        "  NOOP: () => {}\n"
        "};\n"
    )
    # (a file that defines nothing the outline reads shows its margin and first-indent lines in
    # the room left: here the table's other entries too)
    assert summarize(source, ContentKind.SOURCE, budget=2000).text.splitlines() == [
        "/srv/ws/lib/constants.js: [10 lines]",
        "module.exports = { [L3]",
        "  BINARY_TYPES, [L4]",
        "  EMPTY_BUFFER: Buffer.alloc(0), [L5]",
        "  GUID: '258EAFA5-E914-47DA-95CA-C5AB0DC85B11', [L6]",
        "  kStatusCode: Symbol('status-code'), [L8]",
        "  NOOP: () => {} [L9]",
    ]


@pytest.mark.parametrize(
    ("line", "states"),
    [
        pytest.param("    tab_size (int, optional): Number of spaces. Defaults to 8.", True, id="docstring"),
        pytest.param(
            "\tDefValue string // default value (as text); for usage message", True, id="go-comment"
        ),
        pytest.param('    defaultPattern := "[^/]+"', False, id="a-name-only"),
        pytest.param("        return self.default_factory()", False, id="code"),
    ],
)
def test_a_line_stating_a_default_is_told_by_itself(line: str, states: bool) -> None:
    # The source outline asks line by line (the whole-text definition_lines cost 1.7 ms on a
    # 150 kB file with 291 "default"s, a fifth of the summary's time).
    from context_mode.summaries.definitions import states_default

    assert states_default(line) is states


def test_lisps_defining_forms_are_definitions() -> None:
    # read_multiple_files of Debian's cl-ppcre 2.1.1 sources: no `(defun`, `(defvar` or
    # `(define-condition` was a definition, so stage 1 was five file names in 518 bytes.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "source-capr-fs-read-multiple-cl-ppcre-211-debian-lisp.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, ContentKind.SOURCE, budget=2500)
    assert extract.outline == "source: 5 files, 712 lines, 39 definitions"
    for line in ("(defvar *allow-quoting* nil [L145]", "(define-condition ppcre-error (simple-error) [L35]"):
        assert line in extract.text.splitlines(), line


def test_a_gutters_line_numbers_are_no_code_and_its_marked_lines_come_first() -> None:
    # grep-ast over dynaconf: ` 38│` before every line and ` 38█` before the matching ones; the
    # numbers hid every definition ("7 files, 597 lines, 0 definitions", 765 bytes) and the
    # matching lines ranked as any other.
    from tests.corpora import BENCH_CORPUS

    text = (BENCH_CORPUS / "code-capr-grep-ast-090-dynaconf-335-validationerror.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize(text, ContentKind.SOURCE, budget=2500)
    assert extract.outline == "source: 7 files, 597 lines, 26 definitions"
    assert " 38█class ValidationError(Exception): [L6]" in extract.text.splitlines()
    assert ' 205█        raise ValidationError(f"Not({self._validator}) failed.") [L28]' in extract.text
    # bat's gutter too: its numbers and bar are no part of the code
    bat = "".join(f"  {n:>2}   │ def f{n}(x):\n  {n + 1:>2}   │     return x\n" for n in range(1, 20, 2))
    assert (
        summarize("a.py:\n" + bat, ContentKind.SOURCE, budget=800).outline
        == "source: 1 file, 21 lines, 10 definitions"
    )


def test_schemes_defines_and_lisps_raised_errors_are_read() -> None:
    # read_multiple_files of Guile 3.0's getopt-long.scm and command-line.scm: `(define (f x)`
    # was no definition (a function's name is inside the form) and `(error "…")` /
    # `(fatal-error "no such option: --~a" opt)` no raised message: 1120 bytes of 36 kB.
    from tests.corpora import BENCH_CORPUS

    name = "source-capt-fs-read-multiple-guile-308-getopt-long-command-line.txt"
    text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.SOURCE, budget=2700)
    assert extract.outline == "source: 2 files, 866 lines, 27 definitions"
    shown = [line.strip() for line in extract.text.splitlines()]
    assert "(define (process-options specs argument-ls stop-at-first-non-option) [L234]" in shown
    assert '(fatal-error "no such option: --~a" opt)))) [L292]' in shown


@pytest.mark.parametrize(
    ("name", "lines", "functions", "opening"),
    [
        # a ``#!/bin/sh`` script with ``## Functions to …`` comments
        (
            "dpkg-maintscript-helper-12122.sh.txt",
            667,
            ["rm_conffile() {", "finish_dir_to_symlink()"],
            "#!/bin/sh",
        ),
        # a library other scripts source: no ``#!``, its ``die () {`` and ``usage() {`` nested in an ``if``
        ("git-sh-setup-2395.sh.txt", 0, ["git_broken_path_fix () {", "die () {"], "# This shell scriplet"),
    ],
)
def test_a_shell_script_printed_by_cat_is_source_outlined_by_its_functions(
    name: str, lines: int, functions: list[str], opening: str
) -> None:
    # Its ``#`` comments read as Markdown headings: a page of "312 headings (312 h1)" showing its
    # comments, none of its functions; ``_userland()`` over its ``{`` was no definition (failed before).
    text = (DATA / name).read_text(encoding="utf-8")
    for arguments in ({"command": f"cat /usr/bin/{name}"}, {}):
        assert detect_kind(text, tool_name="run_command", arguments=arguments) is ContentKind.SOURCE
    decision = route(text, tool="run_command", arguments={"command": "cat script"})
    assert isinstance(decision, Summary), decision
    shown = [line.rsplit(" [L", 1)[0] for line in decision.extract.text.split("\n")]
    for function in functions:
        assert function in shown
    # a single file's opening comment says what it is
    assert any(line.startswith(opening) for line in shown[:3])
    if lines:
        assert decision.extract.outline.startswith(f"source: 1 file, {lines} lines, ")


def test_a_markdown_page_of_first_level_headings_and_prose_is_not_source() -> None:
    page = "\n".join(
        f"# Step {n}\n\nRun the installer and choose the defaults; it takes a minute or two.\n"
        f"Then open the settings page and check that the server is listed as running.\n"
        for n in range(1, 8)
    )
    assert detect_kind(page, tool_name="run_command") is ContentKind.MARKDOWN


def test_one_file_that_defines_nothing_is_shown_by_its_head_tail_and_distinct_lines() -> None:
    # ``nft list ruleset``-like text read as code: an outline of no definitions would show one line
    rules = ["# Warning: table ip filter is managed by iptables-nft, do not touch!", "table ip filter {"]
    for n in range(60):
        rules += [f"\tchain ufw-user-{n} {{", f"\t\ttcp dport {8000 + n} counter accept", "\t}"]
    rules.append("}")
    extract = summarize("\n".join(rules), ContentKind.SOURCE, budget=900)
    assert extract.outline == f"source: 1 file, {len(rules)} lines, 0 definitions"
    shown = extract.text.split("\n")
    assert shown[:2] == rules[:2] and len(shown) > 10


def test_a_member_declared_const_with_its_type_is_a_constant_whatever_its_names_case() -> None:
    # pythonnet's Finalizer.cs (fresh35b): ``const int DefaultThreshold = 200;`` was no constant,
    # its name not in capitals, and stage 1 left it out under 24 methods (failed before).
    methods = "\n".join(
        f"        internal void Step{n}()\n        {{\n            Run();\n        }}" for n in range(24)
    )
    text = (
        "namespace Python.Runtime\n{\n    public class Finalizer\n    {\n"
        "        const int DefaultThreshold = 200;\n"
        "        constexpr size_t kMaxDepth = 64;\n" + methods + "\n    }\n}\n"
    )
    shown = summarize(text, ContentKind.SOURCE, budget=1200).text
    assert "const int DefaultThreshold = 200;" in shown
    assert "constexpr size_t kMaxDepth = 64;" in shown


def test_the_room_an_outline_leaves_shows_what_the_code_says_in_words() -> None:
    # better-sqlite3's C++ read with read_multiple_files (32 kB, ten definitions): stage 1 was the
    # outline alone, 1 kB of its 2.6 kB budget, without the messages its ``ThrowRangeError("…")``
    # calls raise (no ``throw`` or ``raise`` for RAISED to know them by) nor its comments'
    # sentences (failed before).
    methods = "\n".join(
        f"void Statement::Step{n}() {{\n\tint rc = sqlite3_step(handle);\n\tif (rc != SQLITE_ROW) return;\n}}"
        for n in range(30)
    )
    text = (
        "// The order of these fields must exactly match their actual order.\n"
        "struct State {\n\tconst bool open;\n\tbool busy;\n};\n"
        + methods
        + "\nvoid Statement::Prepare() {\n\tif (tail != NULL) {\n"
        '\t\treturn ThrowRangeError("The supplied SQL string contains more than one statement");\n\t}\n}\n'
    )
    lines = summarize(text, ContentKind.SOURCE, budget=2500).text.splitlines()
    assert "// The order of these fields must exactly match their actual order." in lines
    assert any(
        'ThrowRangeError("The supplied SQL string contains more than one statement")' in line
        for line in lines
    )


def test_files_in_a_language_the_outline_does_not_read_show_their_margin_lines() -> None:
    # A multi-file read of Prolog (or Verilog, GAP, Raku): no definition the outline reads, so
    # the summary was the headers and a line or two, a few hundred bytes of a 1.5 kB budget.
    body = "    option(sep{n}(S), Options),\n    atom(S).\n"
    clauses = [f"csv_option({n}, Options) :-\n" + body.format(n=n) for n in range(40)]
    text = (
        "/src/csv.pl:\n:- module(csv, [csv_read_file/2]).\n\n"
        + "".join(clauses)
        + "\n---\n/src/opts.pl:\n:- use_module(library(option)).\n"
        + "".join(f"default_option(quote{n}, true).\n" for n in range(30))
    )
    extract = summarize(text, ContentKind.SOURCE, budget=1500)
    shown = extract.text
    assert ":- module(csv, [csv_read_file/2]). [L1]" in shown
    assert "csv_option(0, Options) :- [L3]" in shown
    assert "default_option(quote0, true). [L2]" in shown  # the second file's first, not only the first's
    assert len(shown.encode()) > 1000


def test_desktop_commanders_multi_file_read_is_source_with_each_files_outline() -> None:
    # A real ``read_multiple_files`` of Desktop Commander (three modules of the mcp package): per
    # file ``--- /path/stdio.py contents: ---``, then ``[Reading 355 lines from start (total: …)]``
    # and a blank line over the file's lines. Before, it read as a log ("0 failed tests, 5 errors").
    text = (DATA / "desktop-commander-read-multiple-files-mcp-client.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="read_multiple_files") is ContentKind.SOURCE
    extract = summarize(text, ContentKind.SOURCE, budget=1500)
    assert extract.outline.startswith("source: 3 files")
    lines = extract.text.splitlines()
    header = "--- /work/main/.venv/lib/python3.11/site-packages/mcp/client/sse.py contents: --- [172 lines]"
    assert header in lines
    # line numbers count from the file's first line, below Desktop Commander's note
    assert "async def sse_client( [L36]" in lines and "async def stdio_client( [L115]" in lines


def test_desktop_commanders_note_says_where_a_partial_read_starts() -> None:
    # ``read_file`` with ``offset: 600``: "[Reading 900 lines from line 600 …]": its first line is
    # the file's 601st (the definitions' numbers were 602 too low).
    text = (DATA / "desktop-commander-read-file-offset.txt").read_text(encoding="utf-8")
    body = summarize(text, ContentKind.SOURCE, budget=1500).text
    assert "    async def initialize(self) -> types.InitializeResult: [L651]" in body.splitlines()


def test_a_files_merge_conflicts_are_shown_first_with_both_sides() -> None:
    # CPython 3.11's textwrap.py after ``git merge`` (git 2.39) of two branches that changed its
    # default width and dedent's signature: two conflicts. Failed before: the outline showed one
    # side's ``def dedent`` as a definition, no marker, and did not say the file has conflicts.
    text = (DATA / "git-2.39-merge-conflict-textwrap-py311.py.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.SOURCE, budget=1500)
    assert extract.outline.endswith(", 2 merge conflicts")
    shown = extract.text.splitlines()
    for line in (
        "<<<<<<< HEAD [L112]",
        "                 width=100,",
        "                 width=88,",
        "<<<<<<< HEAD [L424]",
        "def dedent(text: str) -> str: [L425]",
        "def dedent(text, *, keep_tabs=False): [L427]",
        ">>>>>>> wrap-width",
    ):
        assert line in shown, line
    assert shown.index("<<<<<<< HEAD [L112]") < shown.index("<<<<<<< HEAD [L424]")


def test_a_long_conflict_shows_its_markers_and_each_sides_first_lines() -> None:
    ours = [f"    ours_{i} = {i}" for i in range(30)]
    theirs = [f"    theirs_{i} = {i}" for i in range(30)]
    text = "\n".join(["def f():", "<<<<<<< HEAD", *ours, "=======", *theirs, ">>>>>>> topic", "    return 1"])
    shown = summarize(text, ContentKind.SOURCE, budget=600).text.splitlines()
    assert "<<<<<<< HEAD [L2]" in shown and "======= [L33]" in shown and ">>>>>>> topic [L64]" in shown
    assert "    ours_2 = 2" in shown and "    theirs_2 = 2" in shown
    assert "    ours_3 = 3" not in shown and "    theirs_29 = 29" not in shown
    # an underline of ``=======`` with no conflict open is no marker
    assert (
        "merge conflict"
        not in summarize("Title\n=======\n\ndef g():\n    pass\n", ContentKind.SOURCE, budget=600).outline
    )


def test_a_merge_conflict_on_a_files_first_line_is_shown_and_counted() -> None:
    # git 2.39's merge of two edits to textwrap.py's first line: its ``<<<<<<< HEAD`` opens the
    # file, and the markers were looked for only after a line break: no conflict was counted.
    text = (DATA / "git-2.39-merge-conflict-first-line-textwrap-py311.py.txt").read_text(encoding="utf-8")
    extract = summarize(text, ContentKind.SOURCE, budget=1500)
    assert extract.outline.endswith(", 1 merge conflict")
    shown = extract.text.splitlines()
    assert shown[0] == "<<<<<<< HEAD [L1]"
    assert [line.split(" [L")[0] for line in shown[1:5]] == [
        '"""Text wrapping and filling (stdlib copy).',
        "=======",
        '"""Text wrapping, filling and shortening.',
        ">>>>>>> topic",
    ]
