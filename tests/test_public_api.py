"""The library's public API documents itself: every class and function a package
exports (``__all__`` of ``solver``, ``solver.rummikub`` and ``solver.shanghai``) has
a docstring of its own, so ``help()`` and the docs never show an inherited one (an
enum without its own docstring shows the ``Enum`` tutorial)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import tomllib
from pathlib import Path

import pytest

PUBLIC = ("solver", "solver.rummikub", "solver.shanghai")


def exported(package: str) -> list[tuple[str, object]]:
    """The classes and functions of the project that ``package`` exports."""
    module = importlib.import_module(package)
    found: list[tuple[str, object]] = []
    for name in module.__all__:
        value = getattr(module, name)
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__.startswith(
            "solver."
        ):
            found.append((name, value))
    return found


@pytest.mark.parametrize("package", PUBLIC)
def test_every_export_has_a_docstring_of_its_own(package: str) -> None:
    missing = [
        name
        for name, value in exported(package)
        if not (vars(value).get("__doc__") if inspect.isclass(value) else value.__doc__)
    ]
    assert not missing, f"{package} exports without a docstring: {missing}"


def test_the_library_is_marked_as_typed() -> None:
    """A user's ``mypy --strict`` reads the library's annotations only when the package
    ships a ``py.typed`` marker (PEP 561); without it every import of ``solver`` is an
    error there (``module is installed, but missing library stubs or py.typed``). The
    wheel takes every file of the package that git does not ignore (hatchling)."""
    root = Path(__file__).parents[1]
    with (root / "pyproject.toml").open("rb") as file:
        wheel = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "solver" in wheel["packages"]
    marker = root / "solver" / "py.typed"
    assert marker.is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(marker)], cwd=root, check=False
    ).returncode
    assert ignored == 1, "git ignores solver/py.typed, so the wheel would leave it out"
