"""The machine and software a benchmark ran on, for the record."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")
PEER_STACK = ("rummikub-solver", "cvxpy-base", "scipy", "highspy", "numpy")


def describe(peer: bool) -> dict[str, str]:
    """CPU, cores, load, OS, Python and the versions of the solvers' libraries."""
    facts = {
        "cpu": cpu_model(),
        "cores": str(os.cpu_count()),
        "load": load(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "ortools": _version("ortools"),
    }
    if peer:
        facts |= {name: _version(name) for name in PEER_STACK}
    return facts


def load() -> str:
    """Load averages over 1, 5 and 15 minutes: other work on a shared machine."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def cpu_model() -> str:
    """The CPU's name as /proc/cpuinfo gives it, with family, model and clock."""
    try:
        text = CPUINFO.read_text()
    except OSError:
        return platform.processor() or platform.machine()
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            break  # the first processor is enough
        fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name", platform.machine())
    details = [
        f"{label} {fields[key]}"
        for label, key in (("family", "cpu family"), ("model", "model"), ("stepping", "stepping"))
        if key in fields
    ]
    if "cpu MHz" in fields:
        details.append(f"{float(fields['cpu MHz']):.0f} MHz")
    return f"{name} ({', '.join(details)})" if details else name


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"
