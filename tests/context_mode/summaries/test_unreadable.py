"""Binary data printed as text is left out of a summary (``summaries.unreadable``)."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries import unreadable
from context_mode.summaries.unreadable import readable

LICENSE = (Path(__file__).parents[2] / "data" / "apache-license-2.0.txt").read_bytes()


def _archive() -> str:
    """A tar of the license and its gzip, as ``cat license.tar`` prints it (bytes read as UTF-8)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name, data in (("LICENSE.gz", gzip.compress(LICENSE * 3, mtime=0)), ("LICENSE", LICENSE)):
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue().decode("utf-8", errors="replace")


def test_a_binary_printed_as_text_shows_its_readable_lines_only() -> None:
    # Before: lines of "�" and control bytes among the shown ones (the gzip's bytes), taking the
    # room of the license's lines.
    text = _archive()
    decision = route(text, tool="run_command", policy=RoutingPolicy())
    assert isinstance(decision, Summary)
    assert decision.extract.outline.endswith("unreadable lines of binary data left out)")
    shown = [line for line in decision.extract.text.split("\n") if line and not line.startswith("…")]
    assert shown
    assert all(line.count("\ufffd") * 5 < len(line) for line in shown)
    assert any("License" in line for line in shown)


def test_text_with_a_few_odd_bytes_is_left_as_it_is() -> None:
    text = LICENSE.decode("utf-8")
    assert readable(text) is None
    assert readable(text.replace("License", "Lic\ufffdnse", 2)) is None  # two odd characters


def test_the_quick_scan_looks_for_the_same_chars_as_the_line_test() -> None:
    """``readable`` first looks for each noise char with ``in`` (memchr speed, ten times the regex
    scan on a clean 1 MB log); it must look for exactly the chars the per-line test counts."""
    every = "".join(chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000)
    assert unreadable._NOISE.findall(every) == sorted(unreadable._NOISE_CHARS)
