"""Extractive summaries for session memory, and the ``Summarizer`` seam an LLM client fills.

Contract: ``summarize_extractive(text, max_tokens=...)`` is deterministic. Text that already fits
is returned unchanged. Otherwise fenced code blocks are kept verbatim and in place (always: a
summary with more code than budget is longer than ``max_tokens``) and the prose around them is
split into sentences. Each is scored TF-ISF style: the length-normalised sum of its distinct
terms' frequency in the text times their inverse sentence frequency, with a bonus for file paths
and identifiers and for a paragraph's first sentence. The best sentences that fit are kept word
for word in their original order, skipping any that mostly repeat one already kept or score under
30 % of the best. Paths and identifiers from the dropped sentences are listed on a closing
"Also mentioned:" line, within a quarter of the budget.

A ``Summarizer`` returns ``None`` or an empty string to mean "use the extractive summary";
``keep_code_blocks`` re-appends any code block an abstractive summary dropped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from context_mode.tokens import DEFAULT_CHARS_PER_TOKEN, estimate_tokens


class Summarizer(Protocol):
    """Something that shortens text; ``None`` or ``""`` means the caller falls back."""

    def summarize(self, text: str, *, max_tokens: int) -> str | None: ...


CODE_BLOCK_PATTERN = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
PATH_PATTERN = re.compile(
    r"(?<![\w/.])(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+"
    r"|(?<![\w/.])[\w-]+\.(?:py|pyi|js|jsx|ts|tsx|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|sh"
    r"|md|rst|txt|toml|yaml|yml|json|jsonl|ini|cfg|sql|html|css|lock)\b"
)
IDENTIFIER_PATTERN = re.compile(
    r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(\)"  # call: parse_config(), os.path.join()
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case
    r"|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b"  # camelCase
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"  # PascalCase with two humps
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"  # CONSTANT_NAME
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])")
MENTIONS_PREFIX = "Also mentioned: "
REDUNDANT_OVERLAP = 0.5  # Jaccard overlap of content words above which a sentence repeats a kept one
MIN_RELATIVE_SCORE = 0.3  # sentences scoring below this share of the best one are never kept
_WORD = re.compile(r"[^\W\d_][\w'-]*|\d+", re.UNICODE)
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_STOPWORDS = frozenset(
    "a an and are as at be been but by can could did do does for from had has have he her his i if in "
    "into is it its just me my no not of on or our she so than that the their them then there these "
    "they this those to too up us was we were what when where which while who will with would you your "
    "also all any each more most other some such only own same very".split()
)


@dataclass(frozen=True, slots=True)
class _Sentence:
    position: int
    part: int
    paragraph: int
    first_in_paragraph: bool
    text: str


def split_code_blocks(text: str) -> list[tuple[bool, str]]:
    """Split ``text`` into ``(is_code, part)`` pieces; code pieces are whole fenced blocks."""
    parts: list[tuple[bool, str]] = []
    cursor = 0
    for match in CODE_BLOCK_PATTERN.finditer(text):
        if match.start() > cursor:
            parts.append((False, text[cursor : match.start()]))
        parts.append((True, match.group(0).strip("\n")))
        cursor = match.end()
    if cursor < len(text):
        parts.append((False, text[cursor:]))
    return parts


def terms(text: str) -> list[str]:
    """Lower-cased content words of ``text``; CJK runs count one term per character."""
    found: list[str] = []
    for word in _WORD.findall(text.lower()):
        if _CJK.search(word):
            found.extend(char for char in word if not char.isspace())
        elif word not in _STOPWORDS and (len(word) > 1 or word.isdigit()):
            found.append(word)
    return found


def key_terms(text: str, *, limit: int = 5) -> tuple[str, ...]:
    """The most frequent content words (paths and identifiers first), for labels without raw text."""
    specials = [m.group(0) for m in PATH_PATTERN.finditer(text)]
    specials += [m.group(0) for m in IDENTIFIER_PATTERN.finditer(text)]
    counts = Counter(terms(CODE_BLOCK_PATTERN.sub(" ", text)))
    ranked = sorted(counts, key=lambda term: (-counts[term], -len(term)))
    chosen: list[str] = []
    seen: list[str] = []
    for term in [*specials, *ranked]:
        folded = term.lower().removesuffix("()")
        if not any(folded in other for other in seen):
            chosen.append(term)
            seen.append(folded)
        if len(chosen) == limit:
            break
    return tuple(chosen)


def _sentences(prose_parts: list[tuple[int, str]]) -> list[_Sentence]:
    sentences: list[_Sentence] = []
    paragraph = 0
    for part, prose in prose_parts:
        for block in re.split(r"\n\s*\n", prose):
            first = True
            for line in block.splitlines():
                for piece in _SENTENCE_END.split(line):
                    if piece.strip():
                        sentences.append(_Sentence(len(sentences), part, paragraph, first, piece.strip()))
                        first = False
            paragraph += 1
    return sentences


def _score(sentences: list[_Sentence]) -> dict[int, float]:
    bags = {s.position: Counter(terms(s.text)) for s in sentences}
    in_text: Counter[str] = Counter()  # how often a term occurs in the whole text
    in_sentences: Counter[str] = Counter()  # in how many sentences it occurs
    for bag in bags.values():
        in_text.update(bag)
        in_sentences.update(bag.keys())
    total = len(sentences)
    # A term weighs its frequency in the text times its inverse sentence frequency: the text's
    # topic words, not one-off chatter, make a sentence worth keeping.
    weights = {term: in_text[term] * math.log(1 + total / in_sentences[term]) for term in in_text}
    scores: dict[int, float] = {}
    for sentence in sentences:
        bag = bags[sentence.position]
        length = sum(bag.values())
        if not length:
            scores[sentence.position] = 0.0
            continue
        score = sum(weights[term] for term in bag) / math.sqrt(length)
        if PATH_PATTERN.search(sentence.text) or IDENTIFIER_PATTERN.search(sentence.text):
            score *= 1.5
        if sentence.first_in_paragraph:
            score *= 1.2
        scores[sentence.position] = score
    return scores


def summarize_extractive(
    text: str, *, max_tokens: int, chars_per_token: float = DEFAULT_CHARS_PER_TOKEN
) -> str:
    """Keep the code blocks and the best-scoring sentences of ``text`` that fit ``max_tokens``."""

    def cost(piece: str) -> int:
        return estimate_tokens(piece, chars_per_token=chars_per_token) + 1

    if estimate_tokens(text, chars_per_token=chars_per_token) <= max_tokens:
        return text.strip()
    parts = split_code_blocks(text)
    code = [part for is_code, part in parts if is_code]
    prose = [(index, part) for index, (is_code, part) in enumerate(parts) if not is_code]
    sentences = _sentences(prose)
    budget_left = max_tokens - sum(cost(block) for block in code)
    scores = _score(sentences)
    words = {sentence.position: frozenset(terms(sentence.text)) for sentence in sentences}
    best = max(scores.values(), default=0.0)
    kept: set[int] = set()
    for position in sorted(scores, key=lambda p: (-scores[p], p)):
        sentence_cost = cost(sentences[position].text)
        if scores[position] < MIN_RELATIVE_SCORE * best:
            break  # chatter: not worth its tokens even when they are free
        if sentence_cost > budget_left or any(
            _overlap(words[position], words[other]) > REDUNDANT_OVERLAP for other in kept
        ):
            continue
        kept.add(position)
        budget_left -= sentence_cost
    output = _assemble(parts, sentences, kept)
    dropped = " ".join(s.text for s in sentences if s.position not in kept)
    mentions = [m for m in _mentions(dropped) if m not in output]
    chosen: list[str] = []
    # Names, not a second copy of the notes: at most a quarter of the budget.
    mention_budget = min(budget_left, max_tokens // 4) - cost(MENTIONS_PREFIX)
    for mention in mentions:
        mention_cost = cost(mention)
        if mention_cost > mention_budget:
            break
        chosen.append(mention)
        mention_budget -= mention_cost
    if chosen:
        output = f"{output}\n{MENTIONS_PREFIX}{', '.join(chosen)}".lstrip("\n")
    return output


def _overlap(first: frozenset[str], second: frozenset[str]) -> float:
    union = len(first | second)
    return len(first & second) / union if union else 1.0


def _assemble(parts: list[tuple[bool, str]], sentences: list[_Sentence], kept: set[int]) -> str:
    lines: list[str] = []
    for index, (is_code, part) in enumerate(parts):
        if is_code:
            lines.append(part)
            continue
        paragraphs: dict[int, list[str]] = {}
        for sentence in sentences:
            if sentence.part == index and sentence.position in kept:
                paragraphs.setdefault(sentence.paragraph, []).append(sentence.text)
        lines.extend(" ".join(texts) for texts in paragraphs.values())
    return "\n".join(lines)


def _mentions(text: str) -> list[str]:
    found = [(m.start(), m.group(0)) for m in PATH_PATTERN.finditer(text)]
    found += [(m.start(), m.group(0)) for m in IDENTIFIER_PATTERN.finditer(text)]
    unique: list[str] = []
    for _, mention in sorted(found):
        if mention not in unique:
            unique.append(mention)
    return unique


def keep_code_blocks(source: str, summary: str) -> str:
    """Append to ``summary`` every code block of ``source`` it does not already contain verbatim."""
    missing = [part for is_code, part in split_code_blocks(source) if is_code and part not in summary]
    return "\n".join([summary.rstrip(), *missing]) if missing else summary
