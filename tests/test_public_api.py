"""The library's public API documents itself: every class and function a package
exports (``__all__`` of ``solver``, ``solver.rummikub`` and ``solver.shanghai``) has
a docstring of its own, so ``help()`` and the docs never show an inherited one (an
enum without its own docstring shows the ``Enum`` tutorial)."""

from __future__ import annotations

import importlib
import inspect

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
