"""English function words that carry no meaning in a search query, and a light stemmer.

``FUNCTION_WORDS`` ("the closing time of the bug") is lowercase. A query made only of them
keeps them (``"the"`` still searches for "the"); otherwise they are dropped before ranking, so
prose that repeats "of the" does not outrank the record that holds the query's words.

``ABBREVIATIONS`` maps a word as a query spells it to the shorter forms and spellings code and
tools write it in (``argument`` -> ``arg``, ``args``; ``configuration`` -> ``config``, ``cfg``;
``colour`` -> ``color``; a plural is matched through its stem by the caller): a question asked
in full words still finds ``max_retries``,
``parseArgs`` and ``NO_COLOR``. Shortenings and spelling variants of one word, and a few groups
of words of the trade that name the same thing in a question and in a tool's output (``limit``,
``max``; ``remove``, ``delete``; ``version``, ``release``): what any developer reads as the same
thing, never a guess at what a query means. (A "count, number, total" group cost facts: "counted
array" found totals lines; "begin" for "start" found SQL's ``BEGIN;``.)

``light_stem(word, keep=)`` cuts one common English suffix (``timeouts`` -> ``timeout``,
``failing`` -> ``fail``) when at least ``keep`` + 1 letters stay: the cheap matching of the
in-memory rankers (tool search, intent terms); the store uses tantivy's stemmer instead.
"""

from __future__ import annotations

FUNCTION_WORDS = frozenset(
    "a an and are as at be been by do does for from had has have in into is it its of on or "
    "that the their then there these this those to was were what when where which while who "
    "whose why how with".split()
)


_SHORT_FORMS = {
    "address": "addr",
    "administrator": "admin",
    "application": "app",
    "argument": "arg args argv",
    "attribute": "attr attrs",
    "authentication": "auth",
    "authorization": "auth authz",
    "average": "avg mean",
    "benchmark": "bench",
    "boolean": "bool",
    "buffer": "buf",
    "changelog": "changes history news",
    "character": "char chars",
    "colour": "color",
    "color": "colour",
    "command": "cmd",
    "configuration": "config cfg conf",
    "constant": "const",
    "context": "ctx",
    "database": "db",
    "dependency": "dep deps",
    "description": "desc",
    "destination": "dest dst",
    "directory": "dir dirs folder",
    "documentation": "doc docs",
    "environment": "env",
    "error": "err errorf",
    "execute": "exec",
    "expression": "expr",
    "folder": "dir directory",
    "function": "func fn",
    "identifier": "id ident",
    "index": "idx",
    "information": "info",
    "initialize": "init",
    "initialization": "init",
    "integer": "int",
    "length": "len",
    "library": "lib libs",
    "maximum": "max",
    "memory": "mem",
    "message": "msg",
    "milliseconds": "ms",
    "minimum": "min",
    "number": "num",
    "object": "obj",
    "option": "opt opts",
    "package": "pkg",
    "parameter": "param params",
    "password": "passwd pwd",
    "performance": "perf",
    "previous": "prev",
    "process": "proc",
    "reference": "ref",
    "repository": "repo",
    "request": "req",
    "requirement": "req reqs requires",
    "response": "resp",
    "seconds": "sec secs",
    "source": "src",
    "specification": "spec",
    "statistics": "stats",
    "string": "str",
    "temperature": "temp",
    "temporary": "tmp temp",
    "timezone": "tz",
    "utility": "util utils",
    "value": "val",
    "variable": "var vars",
}
# Words of the trade that name the same thing in a question and in a tool's output (each group's
# words stand for one another): a question asks for the "limit", the output prints "max".
_SAME_THING = (
    "limit max maximum",
    "remove delete drop",
    "size bytes length",
    "version release",
    "start launch startup",
    "stop terminate shutdown kill",
    "default initial",
    "duration elapsed took",
    "memory ram rss",
    "option flag setting",
    "warning warn",
)


def _forms() -> dict[str, tuple[str, ...]]:
    """Each word's short forms, and the other words of its groups in ``_SAME_THING``."""
    forms: dict[str, list[str]] = {full: spelled.split() for full, spelled in _SHORT_FORMS.items()}
    for group in _SAME_THING:
        for word in group.split():
            forms.setdefault(word, []).extend(other for other in group.split() if other != word)
    return {full: tuple(dict.fromkeys(found)) for full, found in forms.items()}


ABBREVIATIONS: dict[str, tuple[str, ...]] = _forms()


def is_function_word(word: str) -> bool:
    """Whether ``word`` (any case) is an English function word."""
    return word.lower() in FUNCTION_WORDS


SUFFIXES = ("ing", "ies", "es", "ed", "s", "ly")


def light_stem(word: str, *, keep: int = 3) -> str:
    """``word`` (lowercase) without its first matching suffix, if more than ``keep`` letters stay."""
    for suffix in SUFFIXES:
        if len(word) > len(suffix) + keep and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
