"""Process tuning of a serving hub: the glibc arena cap and the frozen start-up objects.

The effects are measured by bench/memory.py (heap growth) and bench/summary_kinds.py (GC pauses).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from tests.conftest import REPO

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def _limit_in_child(env: dict[str, str]) -> str:
    code = "from hub.runtime import limit_arenas; print(limit_arenas())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.skipif(not GLIBC, reason="mallopt(M_ARENA_MAX) exists on glibc only")
def test_the_cap_takes_effect_on_glibc() -> None:
    env = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"}
    assert _limit_in_child(env) == "True"


def test_an_explicit_malloc_arena_max_is_left_alone() -> None:
    assert _limit_in_child({**os.environ, "MALLOC_ARENA_MAX": "4"}) == "False"


def test_start_up_objects_are_frozen_out_of_collections() -> None:
    code = "import gc; from hub.runtime import freeze_startup_objects; n = freeze_startup_objects(); "
    code += "print(n > 1000 and gc.get_freeze_count() == n); gc.unfreeze()"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "True"
