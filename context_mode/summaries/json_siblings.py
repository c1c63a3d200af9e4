"""What tells an array's records apart, for the JSON summary's choice of what to show of each.

- ``same_keys(items)``: the keys every one of the first records holds with one value (they tell
  none apart: ``"type": "relation"``), none when that is all of them;
- ``rare_keys(records)``: for records with a field most of them share one value of
  (``"licenses": "MIT"``), the records holding a rare value of it (``"UNLICENSED"``), and the
  records holding a key few others hold (a plugin's ``"limit"`` among plugins named alone), by
  position;
- ``failed_records(records)``: the records whose status says they failed (an HTTP status of 400
  or more, ``"state": "failure"``), by position, with that status's key;
- ``repeats_another_identity(record, key, value)``: whether a string identity field is part of a
  longer identity field of the same record (a ``name`` inside its ``full_name``).

Pure; each looks at a bounded number of records and members.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from context_mode.summaries.extract import IDENTITY_KEYS

_SAME_SAMPLE = 50  # records looked at for keys of one value
_RARE_RECORDS = 8  # records needed before a value can be rare among them
_RARE_SHARE = 50  # a value at most one record in this many holds is rare
_SPARSE_SHARE = 10  # a key at most one record in this many holds is rare (most holding one key)
_MISSING = object()


def rare_keys(records: list[Any]) -> dict[int, frozenset[str]]:
    """For records (objects, at least ``_RARE_RECORDS``) with a field of few values, most records
    sharing one (``"licenses": "MIT"``): the records holding one of its rare values, by position.

    A value is rare when at most one record in ``_RARE_SHARE`` holds it (or only one does)."""
    dicts = [(position, item) for position, item in enumerate(records) if isinstance(item, dict)]
    if len(dicts) < _RARE_RECORDS:
        return {}
    counts: dict[str, Counter[Any]] = {}
    held: Counter[str] = Counter()  # the records holding each key
    for _, record in dicts:
        held.update(str(key) for key in itertools.islice(record, 100))
        for key, value in itertools.islice(record.items(), 100):
            if isinstance(value, str | int | bool) and not (isinstance(value, str) and len(value) > 60):
                counts.setdefault(str(key), Counter())[value] += 1
    limit = max(1, len(dicts) // _RARE_SHARE)
    rare_values: dict[str, set[Any]] = {}
    for key, counter in counts.items():
        total = sum(counter.values())
        if total * 2 < len(dicts) or len(counter) * 8 > total:
            continue  # a field most records lack, or one of many values: nothing is an exception
        if counter.most_common(1)[0][1] * 2 < total:
            continue  # no usual value to be an exception to
        rare = {value for value, count in counter.items() if count <= limit}
        if rare:
            rare_values[key] = rare
    # A key few records hold, where most hold the same keys (a detector's "limit" among plugins
    # named alone) sets those records apart as a rare value does.
    alike = bool(held) and held.most_common(1)[0][1] * 10 >= len(dicts) * 9  # most hold one key
    sparse = {key for key, count in held.items() if count * _SPARSE_SHARE <= len(dicts)} if alike else set()
    odd: dict[int, frozenset[str]] = {}
    for position, record in dicts:
        keys = frozenset(
            key
            for key, values in rare_values.items()
            if _hashable(record.get(key)) and record.get(key) in values
        ) | frozenset(key for key in sparse if key in record)
        if keys:
            odd[position] = keys
    return odd


_STATUS_KEYS = ("status", "status_code", "statusCode", "code", "state", "result", "conclusion", "outcome")
_FAILED_WORDS = frozenset("failure failed error errored fail".split())


def failed_records(records: list[Any]) -> dict[int, frozenset[str]]:
    """The records whose status member says they failed (an HTTP status of 400 to 599, a state
    of ``failure`` or ``error``), by position, with that member's key: among an API's answers
    or a run's steps, the failed one is what is asked about, and what it said (its message)."""
    failed: dict[int, frozenset[str]] = {}
    for position, record in enumerate(records):
        if not isinstance(record, dict):
            continue
        keys = frozenset(key for key in _STATUS_KEYS if key in record and _says_failed(record[key]))
        if keys:
            failed[position] = keys
    return failed


def _says_failed(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 400 <= value < 600
    return isinstance(value, str) and value.lower() in _FAILED_WORDS


def _hashable(value: Any) -> bool:
    return not isinstance(value, dict | list)


def same_keys(items: list[Any]) -> frozenset[str]:
    """The keys every one of the first ``_SAME_SAMPLE`` records (at least three) holds with one
    value; none when that is all of them (copies of one record: no key tells them apart)."""
    records = [item for item in itertools.islice(items, _SAME_SAMPLE) if isinstance(item, dict)]
    if len(records) < 3:
        return frozenset()
    first = records[0]
    scalars = [
        (key, value)
        for key, value in itertools.islice(first.items(), 100)
        if not isinstance(value, dict | list)
    ]
    same = frozenset(
        str(key) for key, value in scalars if all(record.get(key, _MISSING) == value for record in records)
    )
    # Records alike in every scalar may differ inside (an Elasticsearch hit's ``_source``, a
    # packet's ``layers``): their shared scalars are the envelope then, not copies.
    nested = any(isinstance(value, dict | list) for value in itertools.islice(first.values(), 100))
    return frozenset() if len(same) == len(scalars) and not nested else same


def repeats_another_identity(record: dict[Any, Any], key: str, value: Any) -> bool:
    """Whether a string identity field is part of a longer identity field of the same record."""
    if not isinstance(value, str) or not value:
        return False
    return any(
        isinstance(other, str) and len(other) > len(value) and value in other
        for other_key, other in itertools.islice(record.items(), 100)
        if other_key != key and str(other_key).lower() in IDENTITY_KEYS
    )
