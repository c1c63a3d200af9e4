"""Starting stdio downstream servers, early: before the hub has imported the MCP SDK.

Contract: ``spawn(command, args, env=..., cwd=..., errlog=...)`` starts one server in a process
group of its own, with stdin and stdout as non-blocking pipes, and returns a ``Child``. This
module imports only the standard library, so ``ctxhub serve`` can start every stdio downstream
right after reading its config (``spawn_servers``): the servers import their SDKs while the hub
imports its own, opens the store and builds its tools. ``hub.stdio_client.stdio_transport``
speaks MCP over a ``Child``'s pipes and owns it from then on (``claim``: at most one transport per
child). ``Children`` holds the early ones by server name; leaving it stops every child that no
transport claimed (stdin closed, then SIGTERM to its group, then SIGKILL), so a hub that fails
before serving leaves no process behind. Stopping a child always ends its whole process group,
even when the leader has already exited (a server that exits on EOF or crashes leaves its own
children behind otherwise). ``group_alive(pgid)`` says whether a group still has a member that
runs: its zombies count as gone, since they wait only for their parent (init, once the leader
has exited) to reap them, which may take seconds. Every child spawned and not yet stopped is
in ``live_children()``; ``signal_children(signum)`` signals all their groups at once (the hub
does on SIGTERM, so a client's short patience at shutdown is enough). On a warm start
(``spawn_servers(..., warm=...)``) the hub keeps a core for itself: its own start-up is then
what the client waits for.

A server's environment (``server_environment``) is the hub's own minus the hub's secrets
(``CTXHUB_TOKEN`` and every ``CTXHUB_*`` variable whose name says token, secret, password, key
or credential), plus the server's ``env:`` from the config, which may pass any of them on
deliberately (``env: {CTXHUB_TOKEN: "${CTXHUB_TOKEN}"}``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import subprocess
import time
import weakref
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hub.config import HubConfig, ServerConfig

log = logging.getLogger("ctxhub.spawn")
STOP_GRACE = 2.0  # seconds an unclaimed child gets after each step of stopping it
_LIVE: weakref.WeakSet[Child] = weakref.WeakSet()
_HUB_SECRET = re.compile(r"CTXHUB_(?:\w*_)?(?:TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIALS?)(?:_\w*)?")


@dataclass(eq=False)
class Child:
    """A spawned server process and its pipes (raw, non-blocking file descriptors)."""

    popen: subprocess.Popen[bytes]
    spawned_at: float = field(default_factory=time.monotonic)
    claimed: bool = False

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit status, or None while it runs (reading it reaps an exited child)."""
        return self.popen.poll()

    @property
    def stdin(self) -> int:
        assert self.popen.stdin is not None
        return self.popen.stdin.fileno()

    @property
    def stdout(self) -> int:
        assert self.popen.stdout is not None
        return self.popen.stdout.fileno()

    def claim(self) -> Child:
        """Take ownership for one transport; a second claim is a bug."""
        if self.claimed:
            raise RuntimeError(f"process {self.pid} already belongs to a transport")
        self.claimed = True
        return self

    def close_stdin(self) -> None:
        if self.popen.stdin is not None:
            with contextlib.suppress(OSError):
                self.popen.stdin.close()

    def close_stdout(self) -> None:
        if self.popen.stdout is not None:
            with contextlib.suppress(OSError):
                self.popen.stdout.close()

    def stop(self) -> None:
        """Stop it now, blocking (for children no transport took): EOF, SIGTERM, SIGKILL; then its group."""
        self.close_stdin()
        for signum in (None, signal.SIGTERM, signal.SIGKILL):
            if signum is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.pid, signum)
            try:
                self.popen.wait(STOP_GRACE)
                break
            except subprocess.TimeoutExpired:
                continue
        self.end_group()
        self.close_stdout()

    def end_group(self) -> None:
        """SIGKILL what is left of its process group (descendants that outlived the leader)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        _LIVE.discard(self)


def spawn(
    command: str,
    args: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    errlog: Any,
) -> Child:
    """Start ``command args`` with piped stdin/stdout and ``errlog`` as its stderr."""
    popen = subprocess.Popen(
        [command, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=errlog,
        env=env,
        cwd=cwd,
        bufsize=0,
        start_new_session=True,  # its own group: stopping it reaches its descendants too
    )
    child = Child(popen)
    _LIVE.add(child)
    os.set_blocking(child.stdin, False)
    os.set_blocking(child.stdout, False)
    return child


def live_children() -> list[Child]:
    """Every child spawned and not yet stopped."""
    return list(_LIVE)


def signal_children(signum: int) -> int:
    """Send ``signum`` to the process group of every live child; return how many groups got it."""
    sent = 0
    for child in live_children():
        try:
            os.killpg(child.pid, signum)
            sent += 1
        except ProcessLookupError:
            _LIVE.discard(child)
        except PermissionError:
            log.warning("no permission to signal process group %d", child.pid)
    return sent


def group_alive(pgid: int) -> bool:
    """Whether process group ``pgid`` has a member that is not a zombie (all members on non-Linux)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # unsignalable members: only ESRCH or /proc proves the group is gone
    return _running_member(pgid)


def _running_member(pgid: int) -> bool:
    """Whether /proc lists a member of group ``pgid`` that is not a zombie (True without /proc)."""
    try:
        entries = os.scandir("/proc")
    except OSError:
        return True
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rpartition(b")")[2].split()
            except OSError:
                continue  # exited meanwhile
            if len(fields) > 2 and fields[2] == str(pgid).encode() and fields[0] not in (b"Z", b"X"):
                return True
    return False


def server_environment(server: ServerConfig) -> dict[str, str]:
    """What a stdio server runs with: the hub's environment without its secrets, plus its ``env``."""
    inherited = {name: value for name, value in os.environ.items() if not is_hub_secret(name)}
    return {**inherited, **server.env}


def is_hub_secret(name: str) -> bool:
    """Whether ``name`` is one of the hub's own secrets, never passed to a downstream unasked."""
    return _HUB_SECRET.fullmatch(name.upper()) is not None


def spawn_server(server: ServerConfig, errlog: Any) -> Child:
    assert server.command is not None
    return spawn(
        server.command, list(server.args), env=server_environment(server), cwd=server.cwd, errlog=errlog
    )


class Children(Mapping[str, Child]):
    """Servers started before the hub was ready for them, by name; unclaimed ones stop on exit."""

    def __init__(self, children: dict[str, Child] | None = None) -> None:
        self._children = dict(children or {})

    def __getitem__(self, name: str) -> Child:
        return self._children[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._children)

    def __len__(self) -> int:
        return len(self._children)

    def __enter__(self) -> Children:
        return self

    def __exit__(self, *exc: object) -> None:
        for child in self._children.values():
            if not child.claimed:
                child.stop()


def spawn_servers(config: HubConfig, errlog: Any, *, warm: Collection[str] = ()) -> Children:
    """Start the enabled stdio servers now; one that cannot start is left to its supervisor to report.

    When every server is ``warm`` (its tools are cached, so the first ``tools/list`` waits for
    none of them) only as many start now as leave one core to the hub; the others start with the
    pool, once the hub is serving. Otherwise ``tools/list`` waits for the slowest one: all start.
    """
    servers = config.active_servers()
    stdio = [name for name, server in servers.items() if server.kind == "stdio"]
    if servers and set(servers) <= set(warm):
        stdio = stdio[: max(_cores() - 1, 0)]
    children: dict[str, Child] = {}
    for name in stdio:
        server = servers[name]
        try:
            children[name] = spawn_server(server, errlog)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            log.debug("could not start %s early (%s); its supervisor retries and reports it", name, exc)
    return Children(children)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1
