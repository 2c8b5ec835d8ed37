"""constraints.txt pins every package of the test install at a tested version, and both
README set-up commands install with it: a new release of a dependency (a ruff with
more rules, a stricter mypy, a Starlette deprecation) reaches neither a newcomer's
install nor CI until the file is refreshed (scripts/refresh-constraints.sh)."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def read_pins(path: Path) -> dict[str, Version]:
    """The ``name==version`` lines of the pip constraints file ``path``, by the name's
    normal form; a line of another form (comments and blank lines aside) or a second
    pin of one package fails the test that reads it."""
    pins: dict[str, Version] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        pin = re.fullmatch(r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==([A-Za-z0-9.+!]+)", line)
        assert pin is not None, f"{path.name}:{number}: {line!r} is not name==version"
        name, version = pin.groups()
        normal = canonicalize_name(name)
        assert normal not in pins, f"{path.name}:{number}: {name} pinned twice"
        pins[normal] = Version(version)
    return pins


def declared(project: dict[str, Any]) -> list[Requirement]:
    """The requirements of ``project`` (pyproject's [project]) and of each of its extras,
    an extra that another names (``meldwise[bench]``) followed to its own, recursively."""
    own = canonicalize_name(project["name"])
    extras: dict[str, list[str]] = project["optional-dependencies"]
    todo = [*project["dependencies"], *(spec for specs in extras.values() for spec in specs)]
    followed: set[str] = set()
    found: dict[str, Requirement] = {}  # by what it says: an extra may be reached twice
    while todo:
        requirement = Requirement(todo.pop())
        if canonicalize_name(requirement.name) != own:
            found[str(requirement)] = requirement
            continue
        for extra in sorted(requirement.extras - followed):
            assert extra in extras, f"{requirement} names no extra of pyproject.toml"
            followed.add(extra)
            todo.extend(extras[extra])
    return list(found.values())


def test_every_dependency_is_pinned_within_what_pyproject_allows() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = read_pins(ROOT / "constraints.txt")
    wrong = []
    for requirement in declared(project):
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            wrong.append(f"{requirement}: not pinned")
        elif not requirement.specifier.contains(pin, prereleases=True):
            wrong.append(f"{requirement}: pinned at {pin}")
    assert not wrong, wrong
    assert canonicalize_name(project["name"]) not in pins  # the install's own, not a pin


def test_declared_follows_the_extras_that_an_extra_names() -> None:
    extras = {"test": ["b", "Meld.Wise[x]"], "x": ["meld_wise[y]"], "y": ["c<2"]}
    project = {"name": "meld-wise", "dependencies": ["a>=1"], "optional-dependencies": extras}
    assert sorted(str(r) for r in declared(project)) == ["a>=1", "b", "c<2"]
    extras["x"].append("meld-wise[z]")
    with pytest.raises(AssertionError, match=r"meld-wise\[z\] names no extra"):
        declared(project)


def test_both_readmes_set_up_with_the_constraints() -> None:
    """The commands CI runs (.ci/run's own extraction of README.md's test command) and
    the service's, in English and Japanese alike."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extraction = re.search(r"command=\$\(awk '([^']+)' README\.md\)", ci)
    assert extraction is not None, ".ci/run no longer extracts the command with awk"
    run = subprocess.run(
        ["awk", extraction.group(1), "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "pip install -c constraints.txt -e '.[test]' && " in run.stdout
    for readme in ("README.md", "README.ja.md"):
        text = (ROOT / readme).read_text(encoding="utf-8")
        commands = re.findall(r"^python3 -m venv .*$", text, re.MULTILINE)
        assert len(commands) == 2, (readme, commands)
        assert commands[0].endswith("pip install -c constraints.txt . && meldwise serve")
        assert commands[1] == run.stdout.strip(), readme
