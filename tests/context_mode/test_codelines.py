"""count_code_lines: fenced lines always count; elsewhere only lines that look like code."""

from __future__ import annotations

import pytest

from context_mode.codelines import count_code_lines, looks_like_code


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param("def handle(request):", True, id="python-def"),
        pytest.param("class Store(Base):", True, id="python-class"),
        pytest.param("import os", True, id="import"),
        pytest.param("from pathlib import Path", True, id="from-import"),
        pytest.param("    return value", True, id="return"),
        pytest.param("if ready:", True, id="python-if"),
        pytest.param("for item in items:", True, id="python-for"),
        pytest.param("if (x > 1) {", True, id="c-if"),
        pytest.param("} else {", True, id="closing-brace"),
        pytest.param("};", True, id="brace-semicolon"),
        pytest.param("const answer = 42;", True, id="js-const"),
        pytest.param("let total = items.length", True, id="js-let"),
        pytest.param("items.map(x => x * 2)", True, id="arrow"),
        pytest.param("#include <stdio.h>", True, id="include"),
        pytest.param("public static void main(String[] args) {", True, id="java-method"),
        pytest.param("fn main() -> Result<()> {", True, id="rust-fn"),
        pytest.param("x = compute(y)", True, id="assignment"),
        pytest.param("self.cache[key] += 1", True, id="augmented-assignment"),
        pytest.param('print("hello")', True, id="call-statement"),
        pytest.param("// explain why", True, id="line-comment"),
        pytest.param('<div class="box">', True, id="html-tag"),
        pytest.param("@pytest.fixture", True, id="decorator"),
        pytest.param("        value = {'a': [1, 2]}", True, id="indented-punctuated"),
        pytest.param("", False, id="blank"),
        pytest.param("The quick brown fox jumps over the lazy dog.", False, id="prose"),
        pytest.param("If you want to use it, call the function first.", False, id="prose-starting-with-if"),
        pytest.param("For example, this works.", False, id="prose-starting-with-for"),
        pytest.param("Returns the value (or None) when done.", False, id="prose-with-parenthesis"),
        pytest.param("Note: this matters.", False, id="prose-with-colon"),
        pytest.param("2024-05-01 12:00:00 INFO server started", False, id="log-line"),
        pytest.param("[ERROR] failed to connect", False, id="bracketed-level"),
        pytest.param("\tat com.acme.App.run(App.java:42)", False, id="java-frame"),
        pytest.param('  File "app.py", line 3, in main', False, id="python-frame"),
        pytest.param("## Installation", False, id="markdown-heading"),
        pytest.param("x == y", False, id="comparison-is-not-assignment"),
    ],
)
def test_a_line_looks_like_code_by_the_documented_rules(line: str, code: bool) -> None:
    assert looks_like_code(line) is code


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("Plain prose.\nMore prose here.\n", 0, id="prose-only"),
        pytest.param("```\nanything at all\n\nmore words\n```\n", 2, id="fenced-lines-count-blank-do-not"),
        pytest.param("~~~python\nprose inside\n~~~\n", 1, id="tilde-fence"),
        pytest.param(
            "````\n```\nstill inside\n````\nafter\n", 2, id="longer-fence-closes-only-on-its-length"
        ),
        pytest.param("```\nunclosed\nto the end\n", 2, id="unclosed-fence-runs-to-the-end"),
        pytest.param("Intro.\n\ndef f():\n    return 1\n\nDone.\n", 2, id="code-outside-fences"),
        pytest.param("2024-01-01 00:00:00 INFO a\n2024-01-01 00:00:01 ERROR b\n", 0, id="log-lines"),
        pytest.param("Text.\n```js\nconst a = 1;\n```\nlet b = 2\n", 2, id="fenced-and-unfenced"),
    ],
)
def test_code_lines_are_counted(text: str, count: int) -> None:
    assert count_code_lines(text) == count


BIG_INPUTS = [  # their timing is measured in bench/pathological.py
    pytest.param("x = (" * 200_000, id="1MB-one-line"),
    pytest.param("\n".join(f"value_{i} = call({i});" for i in range(100_000)), id="100k-code-lines"),
    pytest.param("```\n" + "a\n" * 100_000, id="100k-fenced-lines"),
]


@pytest.mark.parametrize("text", BIG_INPUTS)
def test_big_inputs_are_counted(text: str) -> None:
    assert 0 <= count_code_lines(text) <= text.count("\n") + 1
