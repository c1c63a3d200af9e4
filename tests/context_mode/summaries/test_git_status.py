"""``git status``: the branch and every section, runs of one state under one directory folded."""

from __future__ import annotations

import subprocess
from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.shapes import is_git_status
from context_mode.summaries.git_status import summarize_git_status
from context_mode.types import ContentKind
from tests.corpora import REPO


def test_the_git_servers_status_shows_each_section_and_folds_a_deleted_directory() -> None:
    # mcp-server-git's git_status of a dirty click checkout (4 kB): read as a table of two
    # columns named "Repository" and "status:", its first 30 lines and nothing of the rest
    # (setup.cfg's deletion, the untracked files).
    text = (REPO / "tests" / "data" / "git-mcp-status-click-dirty.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="git_status") is ContentKind.TREE
    decision = route(text, tool="git_status", arguments={"repo_path": "/srv/repo/click"})
    assert isinstance(decision, Summary)
    outline = decision.extract.outline
    assert outline.startswith(
        "git status: 4 staged (3 modified, 1 new file); 92 not staged (50 deleted, 42 modified)"
    )
    lines = decision.extract.text.splitlines()
    for line in (
        "On branch main",
        "Changes not staged for commit:",
        "Untracked files:",
        "\tdeleted:    setup.cfg",
    ):
        assert line in lines
    assert "\tdeleted:    examples/README [+38 more deleted under examples/]" in lines
    assert not any(line.startswith("  (use") for line in lines)


def test_a_real_git_status_with_nothing_to_commit_or_every_section(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": str(tmp_path)},
        )
        return done.stdout

    git("init", "-q", "-b", "main")
    for n in range(6):
        (tmp_path / "lib").mkdir(exist_ok=True)
        (tmp_path / "lib" / f"m{n}.py").write_text(f"x = {n}\n")
    (tmp_path / "README").write_text("r\n")
    git("add", ".")
    git("commit", "-qm", "one")
    clean = git("status")
    assert is_git_status(clean.splitlines())
    assert summarize_git_status(clean, budget=500).outline == "git status: clean"
    for n in range(6):
        (tmp_path / "lib" / f"m{n}.py").unlink()
    (tmp_path / "README").write_text("changed\n")
    (tmp_path / "new.txt").write_text("n\n")
    git("add", "README")
    dirty = git("status")
    extract = summarize_git_status(dirty, budget=2000, terms=("m4",))
    assert extract.outline == "git status: 1 staged; 6 not staged; 1 untracked"
    lines = extract.text.splitlines()
    assert "\tmodified:   README" in lines and "\tnew.txt" in lines
    assert "\tdeleted:    lib/m0.py [+5 more deleted under lib/]" in lines
    assert "\tdeleted:    lib/m4.py" in lines  # the call's term brings one of the folded run
