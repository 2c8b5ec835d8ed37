"""The import structure: no cycle between modules, and no package whose export hides a
module of the same name (``solver.rummikub.solve`` once named both).

Every import statement counts, wherever it stands: at the top, under
``TYPE_CHECKING`` or inside a function (a local import that dodges a cycle is
still one).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "api", "benchmarks", "meldwise")


def modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(path: Path, known: set[str]) -> set[str]:
    """The project's modules that the module at ``path`` imports: ``from a.b import c``
    imports ``a.b``, and ``a.b.c`` too when that is a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, f"{path}: a relative import"
            base = node.module or ""
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in known)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports. A package (its ``__init__``) is a
    module like the others: one of its modules importing from the package while the
    package imports that module is a cycle."""
    found = modules()
    return {name: imports(path, set(found)) - {name} for name, path in found.items()}


def test_no_module_imports_itself_through_others() -> None:
    graph = import_graph()
    assert len(graph) > 50  # the walk found the project
    assert cycles(graph) == []


@pytest.mark.parametrize(
    "package",
    [
        "solver",
        pytest.param(
            "solver.rummikub",
            # solve.py is renamed once issue 14's rewrite of it has landed.
            marks=pytest.mark.xfail(strict=True, reason="solve() hides solve.py"),
        ),
        "solver.shanghai",
        "api",
    ],
)
def test_no_export_hides_a_module(package: str) -> None:
    module = importlib.import_module(package)
    submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
    exported = set(getattr(module, "__all__", ()))
    assert not submodules & exported
