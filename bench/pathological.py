"""Speed on pathological inputs: chunking and every summariser, timed here instead of in the tests.

Run: ``.venv/bin/python bench/pathological.py``. The inputs are the tests' own
(``PATHOLOGICAL_SHAPES`` in tests/context_mode/chunking/test_chunking.py; ``HARD_INPUTS`` × every
kind and ``NATIVE_INPUTS`` in tests/context_mode/summaries/test_properties.py; ``BIG_INPUTS`` of
test_codelines.py and test_kinds.py; the megabyte identifier and line of test_identifiers.py and
store/test_query.py); the tests check the output, this prints the time of each (best of
``--repeat``) against the goal the tests used to assert (chunking 3 s, a summary 1.5 s, kind
detection and code-line counting 1 s, identifiers 2 s, best lines 5 s), and exits 1 when one
misses it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from context_mode.chunking import chunk  # noqa: E402
from context_mode.codelines import count_code_lines  # noqa: E402
from context_mode.identifiers import split_identifiers  # noqa: E402
from context_mode.kinds import detect_kind  # noqa: E402
from context_mode.store.query import best_lines  # noqa: E402
from context_mode.store.terms import query_terms  # noqa: E402
from context_mode.summaries import summarize  # noqa: E402
from context_mode.types import ContentKind  # noqa: E402
from tests.context_mode.chunking.test_chunking import PATHOLOGICAL_SHAPES  # noqa: E402
from tests.context_mode.store.test_query import SPACE_PADDED  # noqa: E402
from tests.context_mode.summaries.test_properties import HARD_INPUTS, NATIVE_INPUTS  # noqa: E402
from tests.context_mode.test_codelines import BIG_INPUTS as CODE_LINE_INPUTS  # noqa: E402
from tests.context_mode.test_kinds import BIG_INPUTS as KIND_INPUTS  # noqa: E402

CHUNK_GOAL = 3.0
SUMMARY_GOAL = 1.5
DETECT_GOAL = 1.0  # detect_kind and count_code_lines on 1 MB / 100k lines
IDENTIFIER_GOAL = 2.0
BEST_LINES_GOAL = 5.0


def best(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows: list[tuple[str, float, float]] = []
    for param in PATHOLOGICAL_SHAPES:
        text, kind = param.values
        seconds = best(lambda text=text, kind=kind: chunk(text, kind), args.repeat)
        rows.append((f"chunk {param.id}", seconds, CHUNK_GOAL))
    cases = [(param.id, kind, param.values[0]) for param in HARD_INPUTS for kind in ContentKind]
    cases += [(param.id, param.values[0], param.values[1]) for param in NATIVE_INPUTS]
    for name, kind, text in cases:

        def work(text: str = text, kind: ContentKind = kind) -> object:
            return summarize(text, kind, budget=1500, terms=["x", "fail"])

        rows.append((f"summarize {kind.value} {name}", best(work, args.repeat), SUMMARY_GOAL))
    for param in CODE_LINE_INPUTS:
        text = param.values[0]
        rows.append(
            (
                f"count_code_lines {param.id}",
                best(lambda t=text: count_code_lines(t), args.repeat),
                DETECT_GOAL,
            )
        )
    for param in KIND_INPUTS:
        text = param.values[0]
        seconds = best(lambda t=text: detect_kind(t, tool_name="logs_search"), args.repeat)
        rows.append((f"detect_kind {param.id}", seconds, DETECT_GOAL))
    identifier = "getUserByIdHTTP2_" * 60_000
    rows.append(
        ("split_identifiers 1 MB", best(lambda: split_identifiers(identifier), args.repeat), IDENTIFIER_GOAL)
    )
    line = "getUserById(request_started, LocalProxy) " * 25_000
    terms = query_terms("user by id local proxy request started")
    rows.append(
        ("best_lines one 1 MB line", best(lambda: best_lines(line, terms, {}), args.repeat), BEST_LINES_GOAL)
    )
    terms = query_terms("user closed")
    rows.append(
        (
            "best_lines 20 lines padded by 1,000 spaces",
            best(lambda: best_lines(SPACE_PADDED, terms, {}), args.repeat),
            BEST_LINES_GOAL / 50,
        )
    )
    missed = 0
    print("| case | seconds | goal | met? |")
    print("|---|---|---|---|")
    for name, seconds, goal in rows:
        missed += seconds > goal
        print(f"| {name} | {seconds:.3f} | {goal} | {'yes' if seconds <= goal else '**no**'} |")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
