"""An independent replayer of step-by-step instructions (wire format)."""

from __future__ import annotations

from collections import Counter
from typing import Any


class ReplayError(AssertionError):
    pass


def replay(
    table: list[list[str]],
    rack: list[str],
    steps: list[dict[str, Any]],
    in_hand: Counter[str] | None = None,
) -> tuple[list[tuple[int, Counter[str], Counter[str]]], Counter[str]]:
    """Apply ``steps`` to ``table``; return the sets in number order, each with its
    number in the steps and the rack tiles the steps laid on it (empty sets dropped),
    and the rack tiles used. Raises
    ReplayError on an impossible step, or when the tiles taken and never placed are
    not ``in_hand`` (none by default)."""
    sets: dict[int, list[str]] = {i: list(tiles) for i, tiles in enumerate(table)}
    next_index = len(table)
    held: Counter[str] = Counter()
    left = Counter(rack)
    used: Counter[str] = Counter()
    laid: dict[int, Counter[str]] = {}

    def draw(tiles: list[str], from_rack: list[str], into: int) -> None:
        from_hand = Counter(tiles) - Counter(from_rack)
        if from_hand - held:
            raise ReplayError(f"{from_hand - held} not held")
        if Counter(from_rack) - left:
            raise ReplayError(f"{Counter(from_rack) - left} not on the rack")
        held.subtract(from_hand)
        left.subtract(from_rack)
        used.update(from_rack)
        laid.setdefault(into, Counter()).update(from_rack)

    for step in steps:
        action = step["action"]
        if action == "take":
            tiles, source = step["tiles"], sets[step["from_set"]]
            if Counter(tiles) - Counter(source):
                raise ReplayError(f"take {tiles} from {source}")
            rest = Counter(source) - Counter(tiles)
            sets[step["from_set"]] = list(rest.elements())
            held.update(tiles)
        elif action == "split":
            source, cut = sets[step["set"]], step["at_index"]
            if not 0 < cut < len(source) or source[cut] != step["at"]:
                raise ReplayError(f"split {source} at {step['at']} (place {cut})")
            if step["new_set"] != next_index:
                raise ReplayError(f"split into set {step['new_set']}, expected {next_index}")
            sets[step["set"]], sets[next_index] = source[:cut], source[cut:]
            next_index += 1
        elif action == "add":
            draw(step["tiles"], step["from_rack"], step["to_set"])
            sets[step["to_set"]] = sets[step["to_set"]] + step["tiles"]
        elif action == "new_set":
            if step["set"] != next_index:
                raise ReplayError(f"new set numbered {step['set']}, expected {next_index}")
            draw(step["tiles"], step["from_rack"], next_index)
            sets[next_index] = list(step["tiles"])
            next_index += 1
        else:
            raise ReplayError(f"unknown action {action}")
        if not step.get("text"):
            raise ReplayError("a step without text")
    if +held != (in_hand or Counter()):
        raise ReplayError(f"tiles taken but never placed: {+held}, expected {in_hand}")
    return [(i, Counter(sets[i]), laid.get(i, Counter())) for i in sorted(sets) if sets[i]], used


def table_of(
    answer_table: list[dict[str, Any]],
) -> list[tuple[int, Counter[str], Counter[str]]]:
    """A wire answer's table after (a play's or a repair's) as :func:`replay` returns
    it: each set with the number and the rack tiles the answer gives it, in its order."""
    return [
        (meld["set"], Counter(meld["tiles"]), Counter(meld["from_rack"])) for meld in answer_table
    ]
