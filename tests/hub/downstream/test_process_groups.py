"""A server's process group is gone when only zombies are left in it (``spawn.group_alive``).

A server that exits on EOF leaves its own children to init; the hub SIGTERMs the group and waits
for it to empty. ``killpg(pgid, 0)`` still finds a member that has died and not been reaped, and
init may take seconds to reap it, so the hub used to wait out most of its 2 s grace after every
such server (a client that closes stdin waits 2 s before SIGTERM). The scenario runs in a child
interpreter that is a child subreaper, so the orphaned member is its own unreaped zombie: the
same state init leaves it in, without the wait.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

SCENARIO = r"""
import ctypes, json, os, signal, subprocess, sys
from hub.downstream.spawn import group_alive

PR_SET_CHILD_SUBREAPER = 36
assert ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
leader = subprocess.Popen(
    [sys.executable, "-c", "import subprocess; subprocess.Popen(['sleep', '600'])"],
    start_new_session=True,
)
leader.wait()  # the leader has exited and is reaped; its sleep is now our (orphaned) child
seen = {"running": group_alive(leader.pid)}
os.killpg(leader.pid, signal.SIGTERM)
os.waitid(os.P_PGID, leader.pid, os.WEXITED | os.WNOWAIT)  # the sleep has died; not reaped
os.killpg(leader.pid, 0)  # the kernel still lists the group
seen["zombie only"] = group_alive(leader.pid)
os.waitpid(-leader.pid, 0)
seen["reaped"] = group_alive(leader.pid)
print(json.dumps(seen))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper and /proc are Linux's")
def test_a_group_whose_only_members_are_zombies_is_gone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == {"running": True, "zombie only": False, "reaped": False}
