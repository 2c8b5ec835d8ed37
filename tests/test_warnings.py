"""What the test run does with deprecations (pyproject.toml's ``filterwarnings``): one
that our own code runs into fails its test, and Starlette's TestClient finds the HTTP
client it asks for, so no run warns of either."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from _pytest.config import parse_warning_filter


@pytest.mark.parametrize("category", [DeprecationWarning, PendingDeprecationWarning])
def test_a_deprecation_our_code_runs_into_fails_its_test(
    category: type[Warning], pytestconfig: pytest.Config
) -> None:
    # The configured filters alone, as pytest applies them to each test (a run's -W
    # goes before them): ours is an error, another package's stays a warning.
    with warnings.catch_warnings(record=True) as shown:
        warnings.resetwarnings()
        for line in pytestconfig.getini("filterwarnings"):
            warnings.filterwarnings(*parse_warning_filter(line, escape=False))
        with pytest.raises(category, match=r"^gone soon$"):
            warnings.warn("gone soon", category, stacklevel=1)
        warnings.warn_explicit("theirs", category, "elsewhere.py", 1, module="apis.elsewhere")
    assert [str(warning.message) for warning in shown] == ["theirs"]


def test_starlettes_test_client_imports_without_a_warning() -> None:
    """Starlette 1.10's TestClient warned (StarletteDeprecationWarning) on every run:
    it runs on httpx2 and fell back to httpx, the only one the test extra installed."""
    imported = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import fastapi.testclient"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert imported.returncode == 0, imported.stderr
