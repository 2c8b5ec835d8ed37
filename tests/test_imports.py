"""The import structure and the layout rules of docs/architecture.md:

* no cycle between modules, and no package whose export hides a module of the same
  name (``solver.rummikub.solve`` once named both);
* the library (``solver``) imports nothing of the web;
* every game package holds the modules of the shared shape, under the same names;
* the service (``api``) imports the library only through its public parts: the
  packages, the kernel and each game's ``wire`` module, never a private name;
* no route module imports another (what routes share is a module of ``api``);
* no test reaches a module's private names through ``sys.modules``.

Every import statement counts, wherever it stands: at the top, under
``TYPE_CHECKING`` or inside a function (a local import that dodges a cycle is
still one).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
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


def imported(path: Path) -> set[str]:
    """Every dotted name the module at ``path`` imports: ``import a.b`` gives ``a.b``;
    ``from a.b import c`` gives ``a.b`` and ``a.b.c`` (a module or a name in it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, f"{path}: a relative import"
            base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def imports(path: Path, known: set[str]) -> set[str]:
    """The project's modules that the module at ``path`` imports."""
    return imported(path) & known


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
        "solver.rummikub",
        "solver.shanghai",
        "solver.arena",
        "api",
    ],
)
def test_no_export_hides_a_module(package: str) -> None:
    module = importlib.import_module(package)
    submodules = {info.name for info in pkgutil.iter_modules(module.__path__)}
    exported = set(getattr(module, "__all__", ()))
    assert not submodules & exported


WEB = {"api", "fastapi", "starlette", "uvicorn", "httpx", "prometheus_client", "redis", "limits"}
"""Packages of the service: the library works without any of them."""


def test_the_library_imports_nothing_of_the_web() -> None:
    offending = {
        f"{name} imports {target}"
        for name, path in modules().items()
        if name.split(".")[0] == "solver"
        for target in imported(path)
        if target.split(".")[0] in WEB
    }
    assert offending == set()


SHAPE = ("rules", "notation", "melds", "position", "model", "search", "result", "wire", "cli")
"""The modules every game holds under the same name (docs/architecture.md)."""


def games() -> list[str]:
    """The game packages: those of ``solver`` with rules."""
    return sorted(
        path.parent.name for path in (ROOT / "solver").glob("*/rules.py") if path.parent.is_dir()
    )


def test_both_games_are_found() -> None:
    assert games() == ["rummikub", "shanghai"]


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
def test_each_game_has_the_shared_shape(game: str) -> None:
    package = ROOT / "solver" / game
    missing = [name for name in SHAPE if not (package / f"{name}.py").exists()]
    assert missing == []


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
def test_the_shape_table_names_each_wire_function(game: str) -> None:
    """docs/architecture.md's `wire` row said Rummikub's wire module answers solve,
    validate and score; it answers repair too (``repair_rummikub``)."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    row = next(line for line in doc.splitlines() if line.startswith("| `wire` |"))
    column = row.split("|")[2 if game == "rummikub" else 3]
    named = set(re.findall(r"[a-z]+", column))
    source = (ROOT / "solver" / game / "wire.py").read_text()
    answered = set(re.findall(rf"^def ([a-z]+)_{game}\(", source, re.MULTILINE))
    assert named == answered


def public_parts() -> set[str]:
    """What the service may import of the library: the packages, the kernel (with the
    language a person reads, :mod:`solver.i18n`), each game's wire contracts (``wire``,
    ``game_wire``) and the CLI runner."""
    kernel = {"solver", "solver.errors", "solver.wire", "solver.cpsat", "solver.settings"}
    kernel.add("solver.i18n")
    per_game = {f"solver.{game}{part}" for game in games() for part in ("", ".wire", ".game_wire")}
    return kernel | per_game | {"solver.commands"}


GETTEXT = {("solver.i18n", name) for name in ("_", "_n", "_p")}
"""The message functions: public, though their names begin with an underscore."""


def private_uses(path: Path) -> list[str]:
    """The library's modules outside its public parts, and the private names, that
    the module at ``path`` imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "solver":
            module = node.module or ""
            if module not in public_parts():
                found.append(module)
            found += [
                f"{module}.{a.name}"
                for a in node.names
                if a.name.startswith("_") and (module, a.name) not in GETTEXT
            ]
        elif isinstance(node, ast.Import):
            found += [
                alias.name
                for alias in node.names
                if alias.name.split(".")[0] == "solver" and alias.name not in public_parts()
            ]
    return found


SERVICE_MODULES = sorted(name for name in modules() if name.split(".")[0] == "api")


@pytest.mark.parametrize("name", SERVICE_MODULES)
def test_the_service_imports_only_the_public_library(name: str) -> None:
    assert private_uses(modules()[name]) == []


def test_no_route_module_imports_another() -> None:
    """What several games' routes share lives beside them in ``api``: the Shanghai and
    whole-game routes took their answer helpers from the Rummikub routes."""
    known = set(modules())
    routes = {name for name in known if name.startswith("api.routes.")}
    offending = {
        f"{name} imports {target}"
        for name in routes
        for target in imports(modules()[name], known) & routes
        if target != name
    }
    assert offending == set()


def test_no_test_reaches_into_sys_modules_for_a_private_name() -> None:
    pattern = re.compile(r"sys\.modules\[[^]]*\]\s*\.\s*_|sys\.modules\[\"solver")
    offending = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offending == []


def test_the_service_starts_without_the_redis_extra() -> None:
    # `pip install .` (README's service command) installs no redis: api.clients imported
    # redis at its top, and `meldwise serve` stopped at start-up (ModuleNotFoundError).
    script = (
        "import sys; sys.modules['redis'] = None\n"  # as if not installed
        "from fastapi.testclient import TestClient\n"
        "from api.main import create_app\n"
        "with TestClient(create_app()) as client:\n"
        "    print(client.get('/healthz').json()['status'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
