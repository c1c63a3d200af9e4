"""Thread dumps in a log (gdb's backtraces, a JVM's thread dump, Python's), read by their threads.

An agent reads a thread dump to learn where each thread is and what it waits on: a hang, a
deadlock, a pool that never drains. A log's reading folds every thread's header into one
``[×9]`` line (they share a shape) and shows frames from the middle of the stacks.

``thread_picks(text, lines)`` are the picks of each thread, each its own news (never folded), the
first of each thread's above the second of any, a thread whose functions repeat another's (a
pool's idle workers) below every other's:

- gdb (``bt``, ``thread apply all bt``): ``info threads``' table (a row per thread and its innermost
  frame), each thread's header (``Thread 4 (Thread 0x7f52… (LWP 30201) "python3"):``), its innermost
  frames (``#0  __futex_abstimed_wait_common64 (…) at ./nptl/futex-internal.c:57``) and its
  program's innermost frame: the first that is not the C library's (``#2  0x0000555b849441ae in
  MultiThreadDistributor<…>::distribute(int) ()``); a backtrace without a header is a thread too;
- a JVM (``jstack``, ``jcmd Thread.print``, ``kill -3``): its title (``Full thread dump OpenJDK
  64-Bit Server VM (17.0.15+6 …)``) and the deadlocks it found (``Found one
  Java-level deadlock:`` and who waits on whom: ``which is held by "transfer-worker-13"``) above
  all, each thread's header (``"main" #1 prio=5 … waiting on condition``), its state (``java.lang.
  Thread.State: BLOCKED (on object monitor)``), its innermost frame, the lock it waits for (``-
  waiting to lock <0x…>``) and its program's innermost frame (the first that is not the JDK's,
  ``log_lines.LIBRARY_FRAME``); the JVM's own threads (``Reference Handler``, ``C2
  CompilerThread0``, ``GC Thread#0``…) below the program's, and below a pool's repeated stacks;
- Python (pytest-timeout's ``~~~ Stack of drainer-2 (139830981818048) ~~~``, faulthandler's
  ``Thread 0x00007ff14d2176c0 (most recent call first):``): each thread's header, its innermost
  frame and the program's innermost frame (the last that is not the standard library's or a
  site-package's), each with its source line when the dump prints it.

Linear in the lines; at most ``_THREADS`` threads are read (a dump of thousands shows its first).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.summaries.log_lines import LIBRARY_FRAME
from context_mode.summaries.packing import Pick

WIDTH = 240  # a header's, a deadlock's line
FRAME_WIDTH = 160
_THREAD_PRIORITY = 63.0  # below a Go dump's goroutine headers, above a trace's frames
_DEADLOCK_PRIORITY = 72.0  # with the errors: what is stuck, and on whom
_TABLE_PRIORITY = 60.0  # gdb's ``info threads`` rows (a thread and its innermost frame), below its headers
_INNER_FRAMES = 3  # of each gdb backtrace, its innermost frames ranked so (each one a step lower)
_FRAME_STEP = 4.0
_LATER = 8.0  # what a repeated stack loses (a JVM's own thread twice as much)
_THREADS = 200

# gdb: a thread's header, ``info threads``' rows and header, a frame (its number, then its
# function, ``0x… in`` before it when not at a line's start; a PHP frame's path, ``#0
# /var/www/a.php(42):``, ``[internal function]`` and ``{main}`` are none)
_GDB_MARK = "\n#0 "  # a backtrace has one at a line's start: one C pass finds it
_GDB_HEAD = re.compile(r"Thread \d+ \(.{0,300}\):\s*\Z")
_GDB_ROW = re.compile(r"(?:\*| ) +\d+ +Thread 0x[0-9a-f]+ \(|\s+Id\s+Target Id\s+Frame\s*\Z")
_GDB_FRAME = re.compile(r"#(\d+) +(?:0x[0-9a-f]+ in )?(?P<function>[A-Za-z_?~][^\n]*?) \(")
# a frame of the C library or the thread machinery: its function (glibc's ``__GI___poll``,
# ``start_thread``, ``clone3``, an unknown ``??``) or where it is (glibc's sources, a library in /lib)
_SYSTEM_FUNCTION = re.compile(r"__|\?\?\Z|(?:start_thread|clone3?|_start)\Z")
_SYSTEM_PLACE = re.compile(
    r"\) (?:at \.{1,2}/(?:sysdeps|nptl|csu|misc|io|posix|libio|malloc|stdlib)/|from /(?:usr/)?lib)"
)

# a JVM: a thread's header (a JVM's own threads print no ``#N``), its state, a frame, a lock line
_JVM_MARK = "java.lang.Thread.State: "
_JVM_HEAD = re.compile(r'"(?P<name>[^"\n]{1,200})" (?:#\d+ )?(?:daemon )?(?:prio=\d+ )?os_prio=')
_JVM_STATE = re.compile(r"\s+java\.lang\.Thread\.State: ")
_JVM_FRAME = re.compile(r"\s+at (?P<where>[^\s(]+)\(")
_JVM_LOCK = re.compile(r"\s+- (?:waiting to lock|waiting on|parking to wait for) ")
_JVM_OWN = re.compile(
    r"(?:Reference Handler|Finalizer|Signal Dispatcher|Service Thread|Monitor Deflation Thread"
    r"|C[12] CompilerThread\d+|Sweeper thread|Notification Thread|Common-Cleaner|Attach Listener"
    r"|VM (?:Periodic Task )?Thread|G1 .*|GC Thread#\d+|Shenandoah.*|ZGC.*|Thread-\d+ \(JVMCI\).*)\Z"
)
_JVM_TITLE = "Full thread dump "
_DEADLOCK = re.compile(r"Found (?:one|\d+) Java-level deadlocks?:")
_DEADLOCK_END = "Java stack information for the threads listed above:"


# Python: pytest-timeout's ``~~~ Stack of drainer-2 (139830981818048) ~~~`` over a traceback's
# frames (the innermost last), faulthandler's ``Thread 0x00007ff14d2176c0 (most recent call
# first):`` (``Current thread 0x…`` for the one that dumped) over ``  File "a.py", line 11 in f``
_PY_MARKS = (" Stack of ", "(most recent call first):")
_PY_HEAD = re.compile(
    r"~+ Stack of .{1,200} \(\d+\) ~+\s*\Z|(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):"
)
_PY_FRAME = re.compile(r'\s+File "(?P<file>[^"\n]+)", line \d+,? in (?P<function>\S+)')


def thread_picks(text: str, lines: Sequence[str]) -> list[Pick]:
    """The picks of a thread dump's threads (see the module doc); none for another log."""
    picks: list[Pick] = []
    if _GDB_MARK in text or text.startswith(_GDB_MARK[1:]):
        picks.extend(_gdb_picks(lines))
    if _JVM_MARK in text:
        picks.extend(_jvm_picks(lines))
    if any(mark in text for mark in _PY_MARKS):
        picks.extend(_python_picks(lines))
    return picks


def _python_picks(lines: Sequence[str]) -> list[Pick]:
    threads: list[tuple[int, list[tuple[int, str, str]]]] = []  # (header, its frames: line, file, function)
    current: list[tuple[int, str, str]] | None = None  # the frames of the thread being read
    for index, line in enumerate(lines):
        if line[:1] in ("~", "C", "T") and _PY_HEAD.match(line):
            if len(threads) >= _THREADS:
                break
            current = []
            threads.append((index, current))
        elif current is not None and line[:1] == " " and (frame := _PY_FRAME.match(line)):
            current.append((index, frame["file"], frame["function"]))
        elif not line.startswith(" "):
            current = None  # the dump's frames end at a line that is no frame's
    picks: list[Pick] = []
    seen: set[tuple[str, ...]] = set()
    for order, (head, frames) in enumerate(threads):
        if not lines[head].startswith("~"):  # faulthandler's: the innermost frame first
            frames = frames[::-1]
        signature = tuple(function for _, _, function in frames)
        base = _THREAD_PRIORITY - 0.01 * order - (_LATER if signature in seen else 0.0)
        seen.add(signature)
        picks.append(Pick(head, head + 1, base, WIDTH))
        # the innermost frame, and the program's innermost (the last that is not the library's),
        # each with its source line below it (a traceback's; faulthandler prints none)
        own = next((index for index, file, _ in reversed(frames) if not LIBRARY_FRAME.search(file)), -1)
        for index, priority in ((own, base - 0.007), (frames[-1][0] if frames else -1, base - _FRAME_STEP)):
            if index < 0:
                continue
            code = (
                index + 1 < len(lines)
                and lines[index + 1].startswith("    ")
                and not _PY_FRAME.match(lines[index + 1])
            )
            picks.append(Pick(index, index + 1 + code, priority, FRAME_WIDTH))
    return picks


def _gdb_picks(lines: Sequence[str]) -> list[Pick]:
    picks: list[Pick] = []
    table = False
    heads: list[int] = []  # per thread: its header's line, or -1
    threads: list[list[tuple[int, int, bool, str]]] = []  # per thread: (line, depth, system, function)
    for index, line in enumerate(lines):
        if line[:1] in (" ", "*") and _GDB_ROW.match(line):
            picks.append(Pick(index, index + 1, _TABLE_PRIORITY, FRAME_WIDTH))
            table = True
        elif line[:1] == "T" and _GDB_HEAD.match(line):
            if len(heads) >= _THREADS:
                break
            heads.append(index)
            threads.append([])
        elif line[:1] == "#" and (frame := _GDB_FRAME.match(line)):
            depth, function = int(frame[1]), frame["function"]
            if depth == 0 and (not heads or heads[-1] != index - 1):
                if len(heads) >= _THREADS:
                    break
                heads.append(-1)  # a backtrace of its own (``bt``), no thread's header above it
                threads.append([])
            if threads:
                system = bool(_SYSTEM_FUNCTION.match(function) or _SYSTEM_PLACE.search(line))
                threads[-1].append((index, depth, system, function))
    seen: set[tuple[str, ...]] = set()
    for order, (head, frames) in enumerate(zip(heads, threads, strict=True)):
        signature = tuple(function for _, _, _, function in frames)
        base = _THREAD_PRIORITY - 0.01 * order - (_LATER if signature in seen else 0.0)
        seen.add(signature)
        if head >= 0:
            picks.append(Pick(head, head + 1, base, WIDTH))
        own = next((index for index, depth, system, _ in frames if depth and not system), -1)
        for index, depth, _, _ in frames:
            if index == own:
                picks.append(Pick(index, index + 1, base - 0.007, FRAME_WIDTH))
            elif depth < _INNER_FRAMES:
                # (``info threads`` showed each thread's innermost frame already)
                step = _FRAME_STEP * (depth + (table and head >= 0))
                picks.append(Pick(index, index + 1, base - 0.005 - step, FRAME_WIDTH))
    return picks


def _jvm_picks(lines: Sequence[str]) -> list[Pick]:
    picks: list[Pick] = []
    threads: list[tuple[int, list[int]]] = []  # (header, its lines below it: state, frames, locks)
    current: list[int] | None = None  # the lines of the thread being read
    in_deadlock = False
    said = 0  # deadlock lines so far
    for index, line in enumerate(lines):
        if in_deadlock:
            if line.startswith(_DEADLOCK_END):
                in_deadlock = False
            elif line.strip() and not line.startswith("="):
                picks.append(Pick(index, index + 1, _DEADLOCK_PRIORITY - 0.01 * said, WIDTH))
                said += 1
            continue
        if line[:1] == '"' and _JVM_HEAD.match(line):
            if len(threads) >= _THREADS:
                break
            current = []
            threads.append((index, current))
        elif line.startswith(_JVM_TITLE):  # which JVM, which version
            picks.append(Pick(index, index + 1, _DEADLOCK_PRIORITY, WIDTH))
        elif line[:1] == "F" and _DEADLOCK.match(line):
            picks.append(Pick(index, index + 1, _DEADLOCK_PRIORITY + 0.5, WIDTH))
            in_deadlock = True
        elif current is not None and line[:1] in (" ", "\t") and line.strip():
            current.append(index)
        elif not line.strip():
            current = None  # a thread's block ends at a blank line
    seen: set[tuple[str, ...]] = set()
    for order, (head, below) in enumerate(threads):
        frames = [(index, found["where"]) for index in below if (found := _JVM_FRAME.match(lines[index]))]
        signature = tuple(where for _, where in frames)
        name = _JVM_HEAD.match(lines[head])
        own_thread = name is not None and _JVM_OWN.match(name["name"]) is not None
        later = _LATER * 2 if own_thread else _LATER if signature in seen else 0.0
        base = _THREAD_PRIORITY - 0.01 * order - later
        seen.add(signature)
        picks.append(Pick(head, head + 1, base, WIDTH))
        state = next((index for index in below if _JVM_STATE.match(lines[index])), -1)
        if state >= 0:
            picks.append(Pick(state, state + 1, base - 0.003, FRAME_WIDTH))
        own = next((index for index, where in frames if not LIBRARY_FRAME.search(where)), -1)
        if own >= 0:
            picks.append(Pick(own, own + 1, base - 0.007, FRAME_WIDTH))
        if frames and frames[0][0] != own:
            picks.append(Pick(frames[0][0], frames[0][0] + 1, base - _FRAME_STEP, FRAME_WIDTH))
        lock = next((index for index in below if _JVM_LOCK.match(lines[index])), -1)
        if lock >= 0:
            picks.append(Pick(lock, lock + 1, base - _FRAME_STEP - 0.5, FRAME_WIDTH))
    return picks
