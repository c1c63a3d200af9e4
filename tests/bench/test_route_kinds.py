"""``bench/route_kinds.py`` measures the code ``PYTHONPATH`` names, so that a run beside a worktree
of another commit compares two commits (it put its own checkout first and measured it twice)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_pythonpath_names_the_code_that_is_measured(tmp_path: Path) -> None:
    other = tmp_path / "context_mode"
    other.mkdir()
    (other / "__init__.py").write_text('raise SystemExit("the code on PYTHONPATH was imported")\n')
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "route_kinds.py"), "--repeat", "1"],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "the code on PYTHONPATH was imported" in result.stderr
