from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from context_mode.line_groups import distinct_lines, group_lines

# Few distinct lines (the walk of ``_firsts``) or many (its dict), digits that key alike, and
# lines that hold a newline or every mark char.
lines_strategy = st.lists(
    st.sampled_from(["a 1", "a 2", "b", "", "a 10", "x\ny 3", "\x01\x02\x03\x04\x05\x06\x07\x08 9", "é 4"])
    | st.text(alphabet="ab1 \n", max_size=6),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(lines_strategy)
def test_groups_count_and_place_every_key(lines: list[str]) -> None:
    groups = group_lines(lines, 4)
    keys = groups.keys
    assert len(keys) == len(lines)
    assert groups.sizes == Counter(keys) and list(groups.sizes) == list(dict.fromkeys(keys))
    assert groups.firsts == {key: keys.index(key) for key in keys}
    assert groups.samples == {key: len(keys) - 1 - keys[::-1].index(key) for key in keys}
    assert list(groups.samples) == list(dict.fromkeys(keys))
    assert groups.text.split("\n") == ([line[:4].replace("\n", " ") for line in lines] if lines else [""])


@settings(max_examples=300, deadline=None)
@given(lines_strategy, st.sampled_from(["a", "b ", " a", "é", "y", "ab"]))
def test_the_keys_holding_a_literal_are_those_of_the_lines_holding_it(lines: list[str], literal: str) -> None:
    groups = group_lines(lines, 4)
    assert groups.holding(literal) == {
        key for line, key in zip(lines, groups.keys, strict=True) if literal in line[:4]
    }
    assert groups.whole == all(len(line) <= 4 and "\n" not in line for line in lines)


def test_distinct_lines_count_lines_apart_from_their_digits_and_stop_at_enough() -> None:
    assert distinct_lines("a1\na22\nb\n") == 4  # "a0", "a00", "b" and the empty last line
    assert distinct_lines("step 1 ok\nstep 2 ok\nstep 3 ok") == 1
    many = "\n".join("name " + "".join(chr(97 + n // 26**k % 26) for k in range(4)) for n in range(40_000))
    assert distinct_lines(many) == 40_000
    assert 100 <= distinct_lines(many, enough=100) < 40_000  # read a piece at a time, not to its end
