"""Source code read from files: per file its path, size and an outline of definitions.

A single file read is passed whole by the router up to ``direct_hard_cap`` (the agent asked to
see it); this summariser serves multi-file reads and files too big for that (a ``git blame``
goes to ``summaries.blame``). Per file (a header
line such as ``/path/to/file.py:`` or ``==> path <==``, else the whole text is one file) it keeps,
best first: the header line with the file's line count (a single file without one: its first
line and its opening comment's first lines), module-level definitions (classes, functions with
their signatures, shell functions ``name() {``, exported names, Go's types, C and C++ functions
at the left margin, but no ``struct point *next;`` variable), a config file's top-level keys and sections
(YAML, TOML, INI: files that define nothing), a document's headings (``README.md``,
``guide.rst``: not its examples' code), module constants (``DEFAULT_TIMEOUT = …``,
C's ``#define``, Go's package-level ``var`` / ``const`` and the names in their blocks, an
enumeration's variants: ``Failure(E),``, ``ZSTD_e_end=2``, a Python ``Enum``'s ``HTTPS = 65``, the
values a constructor sets: ``v.keyDelim = "."``, ``self.max_size = 100``, the first entries of
a table of values such a constant opens: ``"bright_magenta": 95,``), the first comments
stating a default (``Defaults to 8.``: ``summaries.definitions``), the
first messages it raises or returns as errors (``raise ValueError("…")``, ``fmt.Errorf("…")``,
``Err(Error::new(span, "…"))``), a class's constants (``private static final int SPINS = …``,
or declared ``const`` with a type: ``const int DefaultThreshold = 200;``),
nested definitions, special methods (``__eq__``, ``__repr__``: every class has them) last, and
annotations every method carries (``@Override``) not at all; then, in the room the outline
leaves, lines that say something in words (a quoted phrase of three words or more, such as the
message of ``ThrowRangeError("…")``, or a comment that is a sentence), then, in a file that
defines nothing the outline reads, its lines at the left margin and at its first indent (such a
language declares its clauses, modules and methods there: Prolog, Verilog, Raku), each file's
first before any file's later ones; each with its line number in the file. A merge conflict left in
a file (git's ``<<<<<<< HEAD`` … ``=======`` … ``>>>>>>> feature`` markers) ranks above all of
them, whole when short, else its markers and each side's first lines; the outline counts them.
A file's first
top-level definitions rank above all these; each further one a step lower, down to the nested ones
(the 40th getter says less than the file's constants). Lines mentioning the call's terms rank
higher. A single file with no outline at all (a firewall
ruleset) is shown by its head, tail and distinctive lines (``summaries.text``). Lines are verbatim;
the count and line-number annotations are in brackets, and no marker stands for the lines left
out between them (the line numbers say how many).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import FILE_HEADER, header_path
from context_mode.summaries.definitions import states_default
from context_mode.summaries.extract import Extract
from context_mode.summaries.markdown_structure import structure
from context_mode.summaries.packing import Pick, pack, split_lines
from context_mode.summaries.text import summarize_text
from context_mode.types import ContentKind

# a line that defines: a class, function, type, method; the diff summary reads changed lines by it too
DEFINITION = re.compile(
    r"(?:async\s+)?def \w|class \w|(?:export\s+)?(?:default\s+)?(?:async\s+)?function(?:\s*\*\s*|\s+)\w"
    r"|(?:export\s+)(?:const|let|var|type|interface|enum|class|abstract) \w|interface \w|type \w+\s*=|enum \w"
    r"|func \w|func \([^)]*\) \w|type \w+ (?:struct|interface)\b|sub \w"  # Perl's ``sub init {``
    # a shell function (``_filedir() {``, ``function _init_completion``), a JavaScript method
    # (``constructor() {``); ``_userland()`` over its ``{`` on the next line: ``_SHELL_FUNCTION``
    r"|(?!(?:if|for|while|switch|catch)\b)[A-Za-z_][\w:.-]*\s*\(\)\s*\{|function\s+[A-Za-z_][\w:.-]*\s*(?:\{|\Z)"
    r"|(?:pub(?:\([^)]*\))?\s+)?(?:fn|struct|enum|trait|impl|mod) \w"
    # Rust's ``const MAX: u32 = 5;``, ``static mut N: i32``: a type after a colon (C's
    # ``const void* src`` is no definition)
    r"|(?:pub(?:\([^)]*\))?\s+)?(?:const|static) (?:mut )?[A-Za-z_]\w*\s*:"
    r"|const [A-Za-z_$][\w$]*\s*="  # JavaScript's ``const isoWeekRegex = /…/;``
    r"|(?:public|private|protected|internal)\s[\w<>\[\], ]*\(|@\w+(?:\.\w+)*(?:\(|\Z)"
    # Java, C#, Kotlin: ``public final class Optional<T> {``, ``sealed interface Shape``
    r"|(?:(?:public|private|protected|internal|abstract|final|sealed|static|open|data|partial)\s+)+"
    r"(?:class|interface|enum|record|object|struct)\s+\w"
    # Lisp's defining forms (Common Lisp, Emacs Lisp, Clojure, Scheme): ``(defun parse-regex (string)``,
    # ``(defvar *allow-quoting* nil``, ``(define-condition ppcre-error (simple-error)``, ``(defn f [x]``
    r"|\((?:cl-)?def(?:un|macro|generic|method|class|struct|var|parameter|constant|system|package|subst"
    # (Scheme's ``(define (f x)`` names it inside the form)
    r"|alias|custom|face|n-?|multi|protocol|record|type|ine(?:-[a-z]+)*)\s+\(?[^\s()]"
)
# ``cat -n``'s line number before each line, or a gutter's (``bat``'s ``  12 │ ``, grep-ast's
# `` 38│`` and its `` 38█`` on a matching line): the code's own indentation comes after it.
# Desktop Commander's ``read_file`` / ``read_multiple_files`` open a file's lines with ``[Reading 1000
# lines from start (total: 1506 lines, 506 remaining)]`` (or ``from line 40``: the lines read start
# at the file's line 41) and a blank line: the file's line numbers count from below them.
_READING = re.compile(r"\[Reading \d+ lines? from (?:start|line (?P<line>\d+))\b")
_LINE_NUMBER = re.compile(r"\A *\d+(?:\t| *[│┃] ?|(?P<hit>█))")
_ELIDED = re.compile(r"\s*(?:\.{3})?⋮(?:\.{3})?\s*\Z")  # grep-ast's ``...⋮...`` between the shown lines
_NUMBERED_SAMPLE = 20  # lines looked at to tell a numbered file
# A shell function whose ``{`` opens the next line (``_userland()``): a definition, as
# ``DEFINITION``'s ``_filedir() {`` is (a call has arguments, or a ``;``).
_SHELL_FUNCTION = re.compile(r"(?!(?:if|for|while|switch|catch)\b)[A-Za-z_][\w:.-]*\s*\(\)\s*\Z")


def _numbered(lines: Sequence[str], first: int, stop: int) -> bool:
    """Whether the file's lines (``first`` to ``stop``) open with line numbers (``_LINE_NUMBER``;
    blank and elision lines aside)."""
    sample = [
        line
        for line in lines[first : min(stop, first + _NUMBERED_SAMPLE)]
        if line.strip() and not _ELIDED.match(line)
    ]
    return bool(sample) and all(_LINE_NUMBER.match(line) for line in sample)


# A C or C++ function's definition at the left margin: a type, the name, its parameters, no ``;``
# (``local block_state deflate_huff(s, flush)``, ``static int foo(int a,``, ``int Foo::bar() const {``)
_C_FUNCTION = re.compile(
    r"(?!(?:if|for|while|switch|return|else|do|case|sizeof|typedef|struct|union|enum)\b)"
    r"[A-Za-z_][\w*&:<>, ]*?[\s*&]~?[A-Za-z_][\w:]*\s*\([^;]*\Z"
)
_SIGNATURE_CHARS = 300  # a longer line is no C signature (and the lazy match above stays cheap)
# ``struct point *next;``: a variable of a struct type, not the struct's definition
_C_DECLARATION = re.compile(
    r"(?:(?:static|const|extern)\s+)*(?:struct|union|enum)\s+\w+\s+\**\s*\w+\s*(?:[;,=\[)]|\Z)"
)
# A class's constants, after their modifiers (``private static final int SPINS = 1 << 10;``), or
# declared ``const`` with their type, whatever their name's case (C#'s ``const int
# DefaultThreshold = 200;``, C++'s ``constexpr size_t kMaxDepth = 64;``, Kotlin's ``const val``)
_MEMBER_CONSTANT = re.compile(
    r"(?:(?:public|private|protected|internal|static|final|const|readonly)\s+)+(?:[\w<>\[\],.?]+\s+)?"
    r"[A-Z][A-Z0-9_]{2,}\s*(?::\s*[^=]+)?=\s*\S"
    r"|(?:(?:public|private|protected|internal|static)\s+)*(?:const|constexpr)\s+(?:[\w<>\[\],.?:]+\s+)+"
    r"[A-Za-z_]\w*\s*=\s*\S"
)
# Annotations every other method carries: they say nothing of what it does
_ROUTINE_ANNOTATION = re.compile(
    r"@(?:Override|SuppressWarnings|SafeVarargs|FunctionalInterface|Serial|jdk\.internal\.\w+|Nullable|NonNull|NotNull)\b"
)
CONSTANT = re.compile(r"[A-Z][A-Z0-9_]{2,}(?:\s*:\s*[^=]+)?\s*=\s*\S|#\s*define [A-Za-z_]\w*[ \t]+\S")
# Go's package-level ``var X = …`` / ``const X = …``, and the names in its ``var (`` / ``const (`` blocks
_GO_VALUE = re.compile(r"(?:var|const) [A-Za-z_]\w*(?: [\w.*\[\]]+)?\s+=\s+\S")
_GO_BLOCK = re.compile(r"(?:var|const) \(\Z")
_GO_BLOCK_ITEM = re.compile(r"[A-Za-z_]\w*(?: [\w.*\[\]]+)?\s+=\s+\S")
_SEPARATOR = re.compile(r"-{3,}\Z")
_SPECIAL = re.compile(r"(?:async\s+)?def __(?!init__)\w+__\(")
_SPECIAL_PRIORITY = 15.0
# A line that says something in words: a quoted phrase of three words or more, or a comment that is
# a sentence; shown in the room the outline leaves (``_FILL_PRIORITY``).
_QUOTED = re.compile(r"""(["'`])([A-Za-z][^"'`\n]{0,300})\1""")
_COMMENT_SENTENCE = re.compile(r"(?:#|//|/\*|\*|--)\s*[A-Z][^\n]{20,300}[.!?](?:\s*\*/)?\s*\Z")
_SAID_WITHIN = 1000  # characters of a line looked at
_COMMENT_STARTS = frozenset("#/*-")
_FILL_PRIORITY = 3.0
_MARGIN_PRIORITY = 1.0  # below the lines that say something in words
_MARGIN_RANKS = 400  # margin lines of a file ranked apart (later ones share the last rank)
# a line at the left margin that opens with a word or a sigil (not a closing bracket, a comment or
# an ``end``): a top-level clause, declaration or statement
_MARGIN = re.compile(r"(?![#;%]|//|/\*|--|end\b|END\b)[A-Za-z_$@:\[]\S*(?:\s|\(|\Z)")


def _first_indent(lines: Sequence[str], first: int, stop: int) -> int:
    """The smallest indentation of a non-blank line of the file (its members' level); -1 if none."""
    window = lines[first : min(stop, first + 2000)]
    indents = [len(line) - len(line.lstrip()) for line in window if line.strip()]
    return min((depth for depth in indents if depth), default=-1)


def _margin_picks(unranked: Sequence[tuple[int, int, str]], member: int, total: int) -> list[Pick]:
    """Last, in the room still left, for a file that defines nothing the outline reads: its lines
    (``unranked``: index, indent, stripped text) at the left margin, then at its first indent
    (``member``: a class's members), by their rank in the file so that each file's first ones come
    before any file's later ones (such a language declares its clauses, modules, functions and
    methods there: Prolog's, Verilog's, Raku's)."""
    picks: list[Pick] = []
    for index, depth, stripped in unranked:
        if depth not in (0, member) or not _MARGIN.match(stripped):
            continue
        level = _MARGIN_PRIORITY if depth == 0 else _MARGIN_PRIORITY / 2
        rank = min(len(picks), _MARGIN_RANKS) / (2 * _MARGIN_RANKS)
        picks.append(Pick(index, index + 1, level - rank - index / (total + 1) / 1000))
    return picks


def _says_something(line: str) -> bool:
    """Whether ``line`` (stripped) says something in words (see ``_QUOTED``, ``_COMMENT_SENTENCE``)."""
    start = line[:_SAID_WITHIN]
    if start[:1] in _COMMENT_STARTS and _COMMENT_SENTENCE.match(start):
        return True
    if '"' not in start and "'" not in start and "`" not in start:
        return False  # (most lines: no regex run)
    return any(found.group(2).count(" ") >= 2 for found in _QUOTED.finditer(start))


# A message the code raises or returns as an error (``raise ValueError("…")``, ``fmt.Errorf("…")``,
# ``Err(Error::new(span, "…"))``, ``throw new TypeError("…")``, Ruby's ``raise ArgumentError, "…"``,
# ``warnings.warn("…")``, Perl's ``die "…"``): what a user sees when it fails.
RAISED = re.compile(
    r"""(?:\braise \w[\w.]*\(|\bthrow new \w+\(|\bnew \w*Error\(|\bErr\(|\berrors\.New\(|\bfmt\.Errorf\("""
    r"""|\b(?:raise|fail) [A-Z][\w:]*,\s*|\bwarnings\.warn\(|\b(?:die|croak|confess) """  # Ruby, Python, Perl
    r"""|\bError::new\(|\b(?:bail|anyhow|panic)!\(|\bpanic\("""
    # Lisp's ``(error "…"``, ``(fatal-error "no such option: --~a" opt)``
    r"""|\((?:error|signal|user-error|[\w-]*-error\*?) (?=["(]))[^\n]{0,120}?["'`]\w"""
)
# (every alternative ends in a quoted message: a line without a quote is no RAISED line, and its
# search, tried at every position, is skipped)
_RAISED_PRIORITY = 50.0  # above methods: the first few a file raises (then half: below them)
_RAISED_PER_FILE = 12
# What a message interpolates (``#{uri.class}``, ``{name!r}``): the same message raised about
# another value is no new one
_INTERPOLATION = re.compile(r"#?\{[^{}]*\}")
# A module's constants (DEFAULT_TIMEOUT = 5) say what it does by default: above methods.
_CONSTANTS_PER_HIGHLIGHT = 8
_CONSTANT_PRIORITY = 45.0


# a config file's outline lines by its extension: YAML's top-level keys, TOML's and INI's sections
_YAML_KEY = re.compile(r"[A-Za-z_][\w.-]{0,80}:(?:\s|\Z)")
_SECTION_OR_KEY = re.compile(r"\[[^\]\n]{1,80}\]\s*\Z|[A-Za-z_][\w.-]{0,80}\s*=")
_CONFIG_KEY = {
    "yaml": _YAML_KEY,
    "yml": _YAML_KEY,
    "toml": _SECTION_OR_KEY,
    "ini": _SECTION_OR_KEY,
    "cfg": _SECTION_OR_KEY,
}


# Documents read with code (``README.md``, ``docs/usage.rst``): outlined by their headings, not by
# their examples' code. Markdown's are ``markdown_structure``'s; reStructuredText's and AsciiDoc's
# two-line titles are a line over an underline of one punctuation mark (AsciiDoc's one-line
# ``== Title`` is not read).
_MARKDOWN = frozenset("md markdown mdx".split())
_DOCUMENTS = _MARKDOWN | frozenset("rst adoc".split())
_UNDERLINE = re.compile(r"([=\-~^*+#`'\"])\1{2,}\s*\Z")


def _headings(lines: Sequence[str], first: int, stop: int, extension: str) -> list[int]:
    """The indexes of a document's heading lines (``first`` to ``stop``), in order."""
    if extension in _MARKDOWN:
        return [heading.index + first for heading in structure(lines[first:stop])[0]]
    return [
        index - 1
        for index in range(first + 1, stop)
        if (title := lines[index - 1].strip())
        and _UNDERLINE.match(lines[index])
        and not _UNDERLINE.match(title)
        and len(lines[index].rstrip()) >= len(title)
    ]


# Languages whose functions ``DEFINITION`` names: a line of theirs at the left margin that reads
# as a C signature is prose or an import (a docstring's "defined in any module (it also",
# ``from typing import (``).
_NOT_C = frozenset("py pyi js mjs cjs ts tsx jsx go rs java kt rb php lua sh".split())
# What a module exports by name: Rust's ``pub use self::prefilter::Prefilter;``, JavaScript's
# ``export { a, b } from "./x"`` / ``export * from``, CommonJS's ``module.exports = …``.
_EXPORTED = re.compile(r"pub(?:\([^)]*\))? use \S|export (?:\{|\* )|module\.exports\b|exports\.\w+\s*=")
# A module's own variable at the left margin (``options = OptionParser()``, ``_netloc_re =
# re.compile(…)``): after its constants and definitions.
_MODULE_VALUE = re.compile(r"[A-Za-z_][\w.]*(?:\s*:\s*[^=]+)?\s*=(?!=)\s*\S")
_MODULE_VALUE_PRIORITY = 35.0
# A comment or docstring stating a default ("tab_size (int, optional): … Defaults to 8.",
# "NoOptDefVal string // default value (as text)"): a file's first few, below its constants.
_STATED_PRIORITY = 42.0
_STATED_PER_FILE = 4
_TABLE_PRIORITY = 44.0  # a table's entries: just below the constants
# A file's first definitions draw its outline; past them its constants, the messages it raises and
# its enumerations' variants say more per line than its twentieth getter: each further top-level
# definition ranks a step lower, down to the nested ones'.
_DEFINITION_PRIORITY = 60.0
_DEFINITION_STEP = 1.0
_NESTED_PRIORITY = 40.0
# An enumeration's opening line (``pub enum Err<E> {``, ``typedef enum {``, ``public enum Color {``,
# Python's ``class Rcode(dns.enum.IntEnum):``): its variants are the lines one level in.
_ENUM = re.compile(r"[\w ]*\benum\b[^;{]*\{\s*\Z|class \w+\([^)]*(?:Enum|Flag)\b[^)]*\):")
# A variant: ``Failure(E),``, ``TooLarge,``, ``ZSTD_e_end=2  /* … */``, ``HTTPS = 65``, ``RED("red"),``
_VARIANT = re.compile(r"[A-Za-z_]\w*\s*(?:\(.*\)|\{.*\}|=\s*[^=\s].*)?\s*,?\s*(?:(?://|/\*|#).*)?\Z")


# An entry of a module's table of values (``"bright_magenta": 95,``, ``GUID: '258EAFA5-…',``,
# ``"ldap" => 389,``): a key, then a literal
_ENTRY = re.compile(r"""["']?[\w.$-]+["']?\s*(?::|=>|=)\s*(?:["'][^"']|-?\d|true\b|True\b|false\b|False\b)""")
_ENTRIES_PER_FILE = 16  # a table's first entries show what it maps; a long one's rest ranks lower


class _Block:
    """The enumeration or table of values a file's reading is in, if any: where it opened and
    its members' depth."""

    __slots__ = ("depth", "members", "member")

    def __init__(self, member: re.Pattern[str]) -> None:
        self.member = member  # what a member line looks like
        self.depth = -1  # the opening line's indentation; -1: in none
        self.members = -1  # the members' indentation, once the first is read

    def open(self, depth: int) -> None:
        self.depth, self.members = depth, -1

    def holds(self, stripped: str, depth: int) -> bool:
        """Whether the line is one of the open block's members (a line back at its opening's
        depth, other than its closing bracket, closes it)."""
        if _closes(self.depth, stripped, depth):
            self.depth = -1
        if self.depth < 0 or depth <= self.depth or stripped[0] in "/#*@":
            return False  # a comment, an attribute (``#[default]``, ``@Deprecated``)
        if self.members < 0:
            self.members = depth
        return depth == self.members and self.member.match(stripped) is not None


# A constructor (``def __init__(``, ``def initialize``, ``constructor(``, Go's ``func New…(``,
# Rust's ``fn new``, JavaScript's ``function State(``): the values it sets are the defaults.
_CONSTRUCTOR = re.compile(
    r"(?:async\s+)?def __init__\(|def initialize\b|constructor\s*\(|func (?:\([^)]*\) )?[Nn]ew\w*\("
    r"|(?:pub(?:\([^)]*\))? )?fn new\b|function [A-Z]\w*\s*\("
)
# A value a constructor gives a field: ``v.keyDelim = "."``, ``self.max_size = 100``, ``@port =
# 8080``, ``this.schema = options['schema'] || DEFAULT_SCHEMA``, ``maxPayload: 100 * 1024``; not
# the state it clears (``self._cache = None``, ``this.position = 0``)
_SETS_DEFAULT = re.compile(
    r"(?:(?:self|this|[a-z]\w{0,2})\.|@)\w+\s*(?::[^=]*)?=\s*(?:[^=].*\|\|\s*|[^=].*\?\?\s*)?"
    r"(?:\"[^\"]|'[^']|-?[1-9]|0[.xob]|True\b|true\b|[\w.]+\([\"'\d]|[A-Z][A-Z0-9_]{2,}\b)"
    r"|\w+:\s*(?:\"[^\"]|'[^']|-?[1-9]|true\b)"
)


def _closes(opened: int, stripped: str, depth: int) -> bool:
    """Whether a line at ``depth`` ends the block opened at depth ``opened`` (-1: none open);
    its closing bracket does not."""
    return opened >= 0 and depth <= opened and stripped[0] not in "})]"


def _is_c_function(line: str) -> bool:
    return "(" in line and len(line) <= _SIGNATURE_CHARS and _C_FUNCTION.match(line) is not None


class _FileReader:
    """One file's lines read in order: each line's rank in the outline (0 for none), and the
    definitions and constants counted. It keeps what the lines before opened: a Go ``var (``
    block, an enumeration, a table of values, a constructor."""

    def __init__(self, config: re.Pattern[str] | None, *, c_like: bool) -> None:
        self.config, self.c_like = config, c_like
        self.in_block = False  # inside a Go ``var (`` / ``const (`` block
        self.enumeration = _Block(_VARIANT)
        self.table = _Block(_ENTRY)  # a module's or class's table of values
        self.entries = 0  # its entries so far
        self.constructor = -1  # the open constructor's depth (-1: none)
        self.top = 0  # top-level definitions so far
        self.raised: set[str] = set()  # the messages raised so far
        self.keys = 0  # a config file's keys so far
        self.defaults_said = 0  # lines stating a default so far
        self.definitions = self.constants = 0

    def rank(self, stripped: str, depth: int, *, opens_below: bool = False) -> float:
        """The rank of a line (``stripped``, indented ``depth``) in the outline, 0 for none;
        ``opens_below``: the next line is a lone ``{`` (a shell function's body)."""
        if depth == 0:
            self.in_block = bool(_GO_BLOCK.match(stripped))
        # (the depth checks first: most lines are in no block)
        variant = self.enumeration.depth >= 0 and self.enumeration.holds(stripped, depth)
        variant = variant and not DEFINITION.match(stripped)
        priority = 0.0
        if self.table.depth >= 0 and self.table.holds(stripped, depth):
            self.entries += 1
            priority = _TABLE_PRIORITY if self.entries <= _ENTRIES_PER_FILE else _TABLE_PRIORITY / 2
        if self.constructor >= 0 and _closes(self.constructor, stripped, depth):
            self.constructor = -1
        valued = False  # a constant or a module's value: a table if it opens a bracket
        opens_constructor = stripped.startswith("constructor")  # JavaScript's (no DEFINITION)
        if priority:
            pass
        elif (
            variant
            or (self.constructor >= 0 and depth > self.constructor and _SETS_DEFAULT.match(stripped))
            or (self.in_block and depth and _GO_BLOCK_ITEM.match(stripped))
        ):
            priority = _CONSTANT_PRIORITY
        elif (stripped[0] == "@" or ";" in stripped) and _routine(stripped):
            pass
        elif (
            DEFINITION.match(stripped)
            or (depth == 0 and self.c_like and _is_c_function(stripped))
            or (opens_below and _SHELL_FUNCTION.match(stripped))
        ):
            opens_constructor = _CONSTRUCTOR.match(stripped) is not None
            priority = self._definition(stripped, depth)
        else:
            priority, valued = self._value(stripped, depth)
        if not priority and self.defaults_said < _STATED_PER_FILE and states_default(stripped):
            self.defaults_said += 1  # "Defaults to 8.", "the default is": a file's first few
            priority = _STATED_PRIORITY
        if valued and stripped.rstrip()[-1] in "{[(":
            self.table.open(depth)  # ``_ansi_colors = {``, ``module.exports = {``: its entries next
        if opens_constructor:
            self.constructor = depth  # the fields it sets in the next lines are defaults
        if ("num" in stripped or "Flag" in stripped) and _ENUM.match(stripped):
            self.enumeration.open(depth)  # its variants are the next lines
        return priority

    def _definition(self, stripped: str, depth: int) -> float:
        """A definition's rank: the file's first top-level ones highest, each further one a step
        lower; nested ones (and Go's methods, ``func (c *T) X``) below the module's constants."""
        self.definitions += 1
        if depth and _SPECIAL.match(stripped):
            return _SPECIAL_PRIORITY  # __eq__, __repr__: every class has them
        if depth or stripped.startswith("func ("):
            return _NESTED_PRIORITY - min(depth, 16)
        self.top += 1
        return max(_DEFINITION_PRIORITY - _DEFINITION_STEP * self.top, _NESTED_PRIORITY)

    def _value(self, stripped: str, depth: int) -> tuple[float, bool]:
        """A line that defines nothing: its rank as a constant, an exported name, a config key, a
        module's value or a message raised, and whether it is a value (that may open a table)."""
        if depth == 0 and (CONSTANT.match(stripped) or _GO_VALUE.match(stripped)):
            self.constants += 1
            return _CONSTANT_PRIORITY, True
        if depth == 0 and _EXPORTED.match(stripped):
            return _CONSTANT_PRIORITY, True
        if self.config is not None and depth == 0 and self.config.match(stripped):
            self.keys += 1  # each file's first keys before any file's tenth
            return _CONSTANT_PRIORITY - min(self.keys, 40) * 0.5, False
        if depth and "=" in stripped and _MEMBER_CONSTANT.match(stripped):
            return _CONSTANT_PRIORITY - 5.0, True  # below the module's own, above methods
        if depth == 0 and not self.c_like and _MODULE_VALUE.match(stripped):
            return _MODULE_VALUE_PRIORITY, True
        if ('"' in stripped or "'" in stripped or "`" in stripped) and RAISED.search(stripped):
            message = _INTERPOLATION.sub("", stripped)
            repeated = message in self.raised
            self.raised.add(message)
            first_few = len(self.raised) <= _RAISED_PER_FILE and not repeated
            return (_RAISED_PRIORITY if first_few else _RAISED_PRIORITY / 2), False
        return 0.0, False


# A file's opening comment (``#   bash_completion - programmable completion functions``, a
# copyright, a ``# Warning: table ip filter is managed by iptables-nft``) says what it is: its
# first lines that say something, the very first above the constants, the next below them.
_COMMENT = re.compile(r"\s*(?:#|//|/\*|\*|--|;|%|\(\*|\"\"\"|''')")
_OPENING_READ = 30
_OPENING_LINES = 6
_FIRST_LINE_PRIORITY = 52.0
_OPENING_PRIORITY = 44.0


def _opening(lines: Sequence[str], first: int, stop: int) -> list[int]:
    """The indexes of a file's opening comment lines that hold a word (at most ``_OPENING_LINES``)."""
    found: list[int] = []
    for index in range(first, min(stop, first + _OPENING_READ)):
        line = lines[index]
        if not line.strip():
            continue
        if not _COMMENT.match(line) and (found or index > first):
            break
        if any(ch.isalnum() for ch in line) and "-*-" not in line:
            found.append(index)
            if len(found) >= _OPENING_LINES:
                break
    return found


def _routine(stripped: str) -> bool:
    """An annotation every method carries (``@Override``), or a variable of a struct type
    (``struct point *next;``): no definition."""
    return (stripped[0] == "@" and _ROUTINE_ANNOTATION.match(stripped) is not None) or (
        ";" in stripped and _C_DECLARATION.match(stripped) is not None
    )


# A merge conflict left in a file: git's markers (``<<<<<<< HEAD``, ``||||||| base`` with diff3,
# ``=======``, ``>>>>>>> feature``) around each side's lines: what an agent resolving it looks for.
_CONFLICT_OPEN = re.compile(r"<{7}(?: |\Z)")
_CONFLICT_MARK = re.compile(r"(?:\|{7}|>{7})(?: |\Z)|={7}\Z")
_CONFLICT_PRIORITY = 90.0  # above every definition, below a file's header
_CONFLICT_LINES = 16  # shorter, shown whole; longer, by its markers and each side's first lines
_SIDE_LINES = 3


def _conflict_picks(lines: Sequence[str], first: int, stop: int) -> list[Pick]:
    """Each merge conflict between ``first`` and ``stop``: whole when short, else its markers and
    the first ``_SIDE_LINES`` of each side (the first conflict highest)."""
    picks: list[Pick] = []
    opened = -1
    marks: list[int] = []
    for index in range(first, stop):
        line = lines[index]
        if line[:1] == "<" and _CONFLICT_OPEN.match(line):
            opened, marks = index, [index]
        elif opened >= 0 and line[:1] in "|=>" and _CONFLICT_MARK.match(line.rstrip("\r")):
            marks.append(index)
            if line[:1] != ">":
                continue
            priority = _CONFLICT_PRIORITY - 0.1 * min(len(picks), 100)
            if index - opened < _CONFLICT_LINES:
                picks.append(Pick(opened, index + 1, priority))
            else:
                for mark in marks:
                    side = min(mark + 1 + _SIDE_LINES, index) if mark != index else index + 1
                    picks.append(Pick(mark, side, priority - (mark - opened) / (index - opened + 1)))
            opened = -1
    return picks


def summarize_source(text: str, *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """Paths, line counts and definitions of the files in ``text``, in ``budget`` bytes (a
    ``git blame``: ``summaries.blame``)."""
    from context_mode.summaries.blame import summarize_blame  # it reads definitions as this does

    lines = split_lines(text)
    blamed = summarize_blame(lines, budget=budget, terms=terms)
    if blamed is not None:
        return blamed
    headers = [i for i, line in enumerate(lines) if FILE_HEADER.match(line.rstrip())]
    starts = headers if headers else [0]
    if headers and headers[0] != 0:
        starts = [0, *headers]
    bounds = [*starts, len(lines)]
    lowered = [t.lower() for t in terms if t]
    picks: list[Pick] = []
    notes: dict[int, str] = {}
    definitions = constants = headings = outlined = conflicts = 0
    # a merge's markers somewhere (on the first line too): looked for once, not per file
    conflicted = text.startswith("<<<<<<<") or "\n<<<<<<<" in text
    for start, stop in zip(bounds, bounds[1:], strict=False):
        header = start in headers
        first = start + 1 if header else start
        if header:
            notes[start] = f"{stop - first} lines"
            picks.append(Pick(start, start + 1, 100.0))
        numbering = start if header else start - 1  # the file's line 0: its header, if any
        for pick in _conflict_picks(lines, first, stop) if conflicted else ():
            picks.append(pick)
            notes.setdefault(pick.start, f"L{pick.start - numbering}")
            conflicts += lines[pick.start].startswith("<")
        reading = _READING.match(lines[first]) if first < stop else None
        if reading:  # Desktop Commander's note over the lines it read, a blank line below it
            opening = first + 1 + (first + 1 < stop and not lines[first + 1].strip())
            numbering = opening - 1 - int(reading["line"] or 0)
            if header:
                notes[start] = f"{stop - opening} lines"
        extension = header_path(lines[start]).rsplit(".", 1)[-1].lower() if header else ""
        if extension in _DOCUMENTS:  # a document's outline is its headings, not its examples' code
            found = _headings(lines, first, stop, extension)
            headings += len(found)
            for order, index in enumerate(found):
                picks.append(Pick(index, index + 1, max(_DEFINITION_PRIORITY - order, _NESTED_PRIORITY)))
                notes[index] = f"L{index - numbering}"
            continue
        for order, index in enumerate(() if headers else _opening(lines, first, stop)):
            priority = (_OPENING_PRIORITY if order else _FIRST_LINE_PRIORITY) - order
            picks.append(Pick(index, index + 1, priority))
            if index != start:
                notes[index] = f"L{index - numbering}"
        # A config file (YAML, TOML, INI) defines nothing: its top-level keys and sections are its outline.
        reader = _FileReader(_CONFIG_KEY.get(extension), c_like=extension not in _NOT_C)
        unranked: list[tuple[int, int, str]] = []  # lines ranked nowhere: (index, indent, stripped)
        numbered = _numbered(lines, first, stop)
        for index in range(first, stop):
            line = lines[index]
            hit = False
            if numbered:  # ``cat -n``: the code after its line number
                gutter = _LINE_NUMBER.match(line)
                hit = gutter is not None and gutter["hit"] is not None
                line = line[gutter.end() :] if gutter else line
            stripped = line.lstrip()
            if not stripped or _SEPARATOR.match(stripped):
                continue
            # (``_userland()`` over its ``{``: a shell function, ``_SHELL_FUNCTION``)
            opens_below = stripped.endswith(")") and index + 1 < stop and lines[index + 1].strip() == "{"
            priority = reader.rank(stripped, len(line) - len(stripped), opens_below=opens_below)
            if hit or lowered and any(t in line.lower() for t in lowered):
                priority = max(priority, _NESTED_PRIORITY) + 30.0  # a line the tool or the call matched
            if priority:
                outlined += 1
            elif _says_something(stripped):
                # In the room the outline leaves: what the code says in words (a message it
                # throws by another name, ``ThrowTypeError("…")``; a comment's sentence).
                priority = _FILL_PRIORITY
            else:
                unranked.append((index, len(line) - len(stripped), stripped))
            if priority:
                # earlier files and lines first among equals, so every file gets its outline
                picks.append(Pick(index, index + 1, priority - index / (len(lines) + 1)))
                if index != start and index not in notes:
                    notes[index] = f"L{index - numbering}"
        if not reader.definitions:  # a language the outline does not read: its margin lines
            member = _first_indent(lines, first, stop)
            for pick in _margin_picks(unranked, member, len(lines)):
                picks.append(pick)
                if pick.start != start and pick.start not in notes:
                    notes[pick.start] = f"L{pick.start - numbering}"
        definitions += reader.definitions
        constants += reader.constants
    if not headers and not outlined:
        # One file that defines nothing (a firewall ruleset, a data file) has no outline: its
        # head, tail and distinctive lines say what it holds.
        plain = summarize_text(text, budget=budget, terms=terms)
        outline = f"source: 1 file, {len(lines)} lines, 0 definitions"
        return Extract(text=plain.text, kind=ContentKind.SOURCE, outline=outline, highlights=plain.highlights)
    # Every outline line says where it is ([L80]): the gaps between them need no marker.
    body = pack(lines, picks, budget, width=160, notes=notes, gaps="none")
    files = len(headers) or 1
    outline = (
        f"source: {files} file{'s' if files != 1 else ''}, {len(lines)} lines, {definitions} definitions"
    )
    if constants:
        outline += f", {constants} constants"
    if headings:
        outline += f", {headings} headings"
    if conflicts:
        outline += f", {conflicts} merge conflict{'s' if conflicts != 1 else ''}"
    # Files read together are each worth their header and outline, definitions or not (eight
    # Helm YAML files had been a Directive of "0 definitions"); a header's constants are its
    # outline (libpng's ``png.h``: hundreds of ``#define``s, its prototypes behind macros).
    highlights = conflicts + max(
        definitions + headings + constants // _CONSTANTS_PER_HIGHLIGHT, files if files > 1 else 0
    )
    return Extract(text=body, kind=ContentKind.SOURCE, outline=outline, highlights=highlights)
