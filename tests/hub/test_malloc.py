"""The glibc arena cap that keeps a serving hub's heap flat (the effect is measured by bench/memory.py)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from tests.conftest import REPO

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def _limit_in_child(env: dict[str, str]) -> str:
    code = "from hub.malloc import limit_arenas; print(limit_arenas())"
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
