"""Hex dumps are read as the bytes of a file (``summaries.hexdump``), whatever kind they were taken for."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.hexdump import summarize_hexdump
from context_mode.types import ContentKind

# A real file with a header and readable strings in it: a tar of the Apache License (its header
# names the file; the license's words follow).
LICENSE = Path(__file__).parents[2] / "data" / "apache-license-2.0.txt"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dump")
    plain = folder / "LICENSE-2.0.txt"
    plain.write_bytes(LICENSE.read_bytes())
    tar = folder / "license.tar"
    subprocess.run(["tar", "-cf", str(tar), "-C", str(folder), plain.name], check=True)
    return tar


@pytest.mark.parametrize(
    ("command", "first"),
    [
        (["xxd"], "00000000: 4c49 4345 4e53 452d 322e 302e 7478 7400  LICENSE-2.0.txt."),
        (["hexdump", "-C"], "00000000  4c 49 43 45 4e 53 45 2d  32 2e 30 2e 74 78 74 00  |LICENSE-2.0.txt.|"),
        (
            ["od", "-A", "x", "-t", "x1z"],
            "000000 4c 49 43 45 4e 53 45 2d 32 2e 30 2e 74 78 74 00  >LICENSE-2.0.txt.<",
        ),
    ],
)
def test_a_hex_dump_shows_its_first_bytes_its_strings_and_its_end(
    archive: Path, command: list[str], first: str
) -> None:
    # Before: ``xxd``'s lines read as YAML ("yaml: 1120 lines, 1120 top-level keys"), ``hexdump -C``'s
    # and ``od``'s as a table of one or two columns.
    dump = subprocess.run([*command, str(archive)], capture_output=True, text=True, check=True).stdout
    decision = route(dump, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("hex dump: ")
    lines = decision.extract.text.split("\n")
    assert lines[0] == first
    assert dump.rstrip("\n").split("\n")[-1] in lines  # where the dump ends
    shown = [line for line in lines if not line.startswith("…")]
    assert all(line in dump.split("\n") for line in shown)
    # where the archive holds the license's words: lines whose characters read as words
    assert sum(bool(re.search(r"[A-Za-z]{6,}", line[-18:])) for line in shown[8:]) >= 5


def test_plain_hexdumps_groups_are_no_commit_list_and_text_is_no_dump() -> None:
    # ``hexdump`` without -C: ``0000010 0003 003e 0001 …``, once read as a ``git log --oneline``.
    groups = "".join(
        f"{offset:07x} 457f 464c 0102 0001 0000 0000 0000 0000\n" for offset in range(0, 4096, 16)
    )
    assert detect_kind(groups, tool_name="run_command") is not ContentKind.DIFF
    assert summarize_hexdump("plain text\n" * 50, kind=ContentKind.TEXT, budget=1000) is None
