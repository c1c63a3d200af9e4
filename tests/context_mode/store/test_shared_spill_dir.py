"""A spill directory shared with another hub or with the user: the store removes only its own files."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from context_mode.errors import RefEvicted
from context_mode.store import Store
from context_mode.types import ContentKind
from tests.conftest import REPO


def test_a_second_store_sharing_spill_dir_leaves_the_first_ones_files_and_the_users_alone(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o755)
    users_own = shared / "r_deadbeef.log"
    users_own.write_text("the user's own log\n")
    first = Store(tmp_path / "store", spill_dir=shared)
    try:
        docs = [
            first.put(f"first hub payload {n}\n" * 50, source="t", kind=ContentKind.LOG, spill_file=True)
            for n in range(3)
        ]
        with Store(tmp_path / "store-2", spill_dir=shared) as second:
            mine = second.put("second hub payload\n", source="t", kind=ContentKind.LOG, spill_file=True)
            for doc in docs:
                assert doc.spill_path is not None and doc.spill_path.exists()
    finally:
        first.close()
    with Store(tmp_path / "store", spill_dir=shared) as reopened:  # the first hub's next start
        assert reopened.text(docs[0].ref).startswith("first hub payload 0")
    assert mine.spill_path is not None and mine.spill_path.read_text() == "second hub payload\n"
    assert all(doc.spill_path is not None and doc.spill_path.exists() for doc in docs)
    assert users_own.read_text() == "the user's own log\n"
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755


def test_a_spill_dir_the_store_creates_is_private(tmp_path: Path) -> None:
    with Store(tmp_path / "store", spill_dir=tmp_path / "new" / "spill") as store:
        assert stat.S_IMODE(store.spill_dir.stat().st_mode) == 0o700


def test_the_stores_own_spill_file_left_by_a_crash_is_removed_and_its_ref_reads_evicted(
    tmp_path: Path,
) -> None:
    script = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from pathlib import Path\n"
        "from context_mode.store import Store\n"
        "from context_mode.types import ContentKind\n"
        f"store = Store(Path({str(tmp_path / 'store')!r}), spill_dir=Path({str(tmp_path / 'spill')!r}))\n"
        "reservation = store.reserve('never indexed', source='t', kind=ContentKind.LOG, spill_file=True)\n"
        "print(reservation.ref, reservation.spill_path, flush=True)\n"
        "os._exit(0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    ref, path = done.stdout.split()
    assert Path(path).exists()
    (tmp_path / "spill" / "r_0badc0de.log").write_text("someone else's")
    with Store(tmp_path / "store", spill_dir=tmp_path / "spill") as store:
        assert not Path(path).exists()
        with pytest.raises(RefEvicted):
            store.text(ref)
    assert (tmp_path / "spill" / "r_0badc0de.log").exists()
