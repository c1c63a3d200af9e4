"""Counting the lines of code in a tool result (the router sends small, code-light results as is).

``count_code_lines(text)`` counts, over ``text.splitlines()``:

- every non-blank line inside a fenced block: from a line starting (after at most 3 spaces) with
  three or more backticks or tildes to the next fence line of the same character at least as long,
  or to the end of the text; the fence lines themselves do not count;
- outside fences, every line that looks like code, meaning its stripped form (of at most
  ``_PREFIX`` chars) does any of:

  - start with a declaration or statement keyword followed by code: ``def``/``class``/``fn``/
    ``func``/``function``/``struct``/``interface``/``enum``/``impl``/``trait`` and a name,
    ``import x``, ``from x import``, ``#include``/``#define``/``#!``, ``package x``,
    ``using x``, ``return``, ``yield``, ``raise``/``throw``, ``const``/``let``/``var`` x =,
    ``public``/``private``/``protected``/``static``, ``if``/``while``/``for``/``switch``/
    ``catch`` directly followed by ``(``, ``if``/``elif``/``while``/``for``/``with`` on a line
    ending in ``:``, ``else``/``try``/``finally``/``do`` with ``:`` or ``{``, ``@decorator``;
  - end with ``{``, ``}``, ``;``, ``):``, ``];``, ``},`` or ``{}`` (after trailing spaces);
  - contain ``=>``, ``->`` followed by a type or ``{``, ``::``-separated names, or ``:=``;
  - be a comment opener ``//``, ``/*``, ``*/``, or an HTML/XML tag line (``<div ...>``);
  - be an assignment ``name = value``, ``obj.attr[k] += value`` (not ``==``);
  - be a call statement ``name(...)`` or ``obj.method(...)`` alone on the line;
  - be indented by 4+ spaces or a tab and hold two or more of ``( ) [ ] { } = ; :``.

Never code: blank lines, Java stack frames (``at pkg.Class.method(File.java:12)``), Python
traceback lines (``File "x.py", line 3``), log lines that start with a timestamp or a level
(``2024-05-01 12:00:00 INFO ...``, ``[ERROR] ...``), and Markdown headings. Prose sentences
fail every rule above. The count feeds "direct when ≤ 2,048 bytes and ≤ 30 code lines".
"""

from __future__ import annotations

import re

_PREFIX = 400
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_KEYWORD = re.compile(
    r"(?:async\s+)?(?:def|class|fn|func|function\*?|struct|interface|enum|impl|trait)\s+[\w$<]"
    r"|import\s+[\w.{*\"'@]|from\s+[\w.]+\s+import\b|#(?:include|define|if|ifdef|ifndef|endif|pragma)\b|#!/"
    r"|package\s+[\w.]+;?\Z|using\s+[\w.]+;|return\b|yield\b|(?:raise|throw)\s+\w|(?:const|let|var)\s+[\w$\[{]+\s*[=:;]"
    r"|(?:public|private|protected|static)\s+\w|(?:if|while|for|switch|catch)\s*\(|(?:if|elif|while|for|with)\s.*:\Z"
    r"|(?:else|try|finally|do)\s*(?::|\{)|@[\w.]+(?:\(|\Z)"
)
_ENDING = re.compile(r"(?:[{};]|\):|\];|\},|\{\})\Z")
_OPERATOR = re.compile(r"=>|->\s*[\w{\[(]|\b\w+::\w+|:=")
_COMMENT_OR_TAG = re.compile(r"(?://|/\*|\*/)|</?[A-Za-z][\w:-]*(?:\s[^>]*)?/?>")
_ASSIGNMENT = re.compile(r"[A-Za-z_$][\w$.]*(?:\[[^\]]{0,80}\])?\s*(?:[-+*/%|&^]|<<|>>|\*\*|//)?=(?!=)\s*\S")
_CALL = re.compile(r"(?:await\s+)?[A-Za-z_$][\w$.]*\(.*\)\s*;?\Z")
_PUNCTUATION = re.compile(r"[()\[\]{}=;:]")
_NEVER = re.compile(
    r"at\s+[\w$.<>/]+\([^)]*\)\Z|File \"[^\"]*\", line \d+"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\]?\s"
    r"|#{1,6}\s"
)


def count_code_lines(text: str) -> int:
    """How many lines of ``text`` are code, by the rules in this module's docstring."""
    count = 0
    fence = ""
    for full in text.splitlines():
        line = full[:_PREFIX]
        opening = _FENCE.match(line)
        if fence:
            if (
                opening is not None
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
            ):
                fence = ""
            elif line.strip():
                count += 1
            continue
        if opening is not None:
            fence = opening.group(1)
            continue
        if looks_like_code(line):
            count += 1
    return count


def looks_like_code(line: str) -> bool:
    """Whether one line (outside a fence) looks like code."""
    stripped = line[:_PREFIX].strip()
    if not stripped or _NEVER.match(stripped):
        return False
    if _KEYWORD.match(stripped) or _ENDING.search(stripped) or _OPERATOR.search(stripped):
        return True
    if _COMMENT_OR_TAG.match(stripped) or _ASSIGNMENT.match(stripped) or _CALL.match(stripped):
        return True
    indented = line.startswith(("    ", "\t"))
    return indented and len(_PUNCTUATION.findall(stripped)) >= 2
