"""A build's or an install's log shows the lines stating its biggest sizes."""

from __future__ import annotations

from context_mode.summaries import summarize
from context_mode.summaries.log_sizes import largest_sized
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS


def test_a_bundles_heaviest_module_is_in_stage_one() -> None:
    # webpack --stats detailed: 700 module lines with their sizes; lodash.js, 533 KiB of the
    # 562 KiB bundle, sat in the middle and was left out (failed before).
    path = BENCH_CORPUS / "build-webpack5-stats-detailed-moment-lodash-chartjs.txt"
    extract = summarize(path.read_text(encoding="utf-8"), ContentKind.LOG, budget=2000)
    assert "./node_modules/lodash/lodash.js [2543] 533 KiB {792}" in extract.text


def test_sizes_compare_across_units_one_line_per_size() -> None:
    lines = [f"Downloading pkg{n}-1.0-py3-none-any.whl ({n * 10} kB)" for n in range(1, 10)]
    lines += ["Downloading torch-2.3.0-cp311-none-linux_x86_64.whl (779.1 MB)"]
    lines += ["Downloading numpy-2.0.0-cp311-linux_x86_64.whl (19.5 MB)", "  19.5 MB 12 MB/s eta 0:00:00"]
    lines += ["Successfully installed 11 packages", "Image size: 1.2 GiB"]
    # 1.2 GiB, 779.1 MB, 19.5 MB (once), 90 kB, 80 kB
    assert largest_sized("\n".join(lines)) == [13, 9, 10, 8, 7]


def test_a_log_stating_few_sizes_has_no_largest() -> None:
    text = "\n".join(["Downloading a.whl (779.1 MB)", "Building wheel", "Done in 3.1s"] * 2)
    assert largest_sized(text) == []
    assert largest_sized("no units here\n" * 100) == []
