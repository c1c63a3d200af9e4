"""The core stays pure (no MCP SDK, anyio, network code or ``async def``); tools never import the hub."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_importing_every_core_module_loads_no_sdk_event_loop_or_network_library() -> None:
    code = (
        "import importlib, pkgutil, sys, context_mode\n"
        "for module in pkgutil.walk_packages(context_mode.__path__, 'context_mode.'):\n"
        "    importlib.import_module(module.name)\n"
        "print(sorted(m for m in ('mcp', 'mcp_types', 'anyio', 'httpx', 'httpx2', 'socket', 'asyncio')"
        " if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert result.stdout.strip() == "[]"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_core_has_no_async_code_and_imports_point_one_way() -> None:
    for path in sorted((REPO / "context_mode").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not any(isinstance(node, ast.AsyncFunctionDef) for node in ast.walk(tree)), path
        assert not _imports(path) & {"hub", "tools", "mcp", "anyio", "httpx", "httpx2"}, path
    for path in sorted((REPO / "tools").rglob("*.py")):
        assert "hub" not in _imports(path), path


PARTS = (
    "context_mode.chunking",
    "context_mode.memory",
    "context_mode.secrets",
    "context_mode.store",
    "context_mode.summaries",
    "hub.dashboard",
    "hub.downstream",
    "hub.serve",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _part(module: str) -> str | None:
    return next((part for part in PARTS if module == part or module.startswith(part + ".")), None)


def test_no_module_reaches_into_another_parts_private_modules() -> None:
    offenders = []
    for package in ("context_mode", "hub", "tools"):
        for path in sorted((REPO / package).rglob("*.py")):
            own = _part(_module_name(path))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                targets: list[str] = []
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    targets = [node.module]
                elif isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                for target in targets:
                    part = _part(target)
                    if part is not None and part != own and target != part:
                        offenders.append(f"{_module_name(path)} imports {target} (use {part})")
    assert offenders == []


def test_every_part_is_a_package_that_states_its_contract_and_exports_a_sorted_surface() -> None:
    import importlib

    for part in PARTS:
        package = importlib.import_module(part)
        assert package.__doc__ and len(package.__doc__) > 80, part
        exported = list(package.__all__)
        assert exported == sorted(exported), part
        for name in exported:
            assert getattr(package, name) is not None, f"{part}.{name}"
