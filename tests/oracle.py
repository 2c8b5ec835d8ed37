"""An independent, exhaustive Rummikub solver for small variants.

It shares nothing with the CP-SAT model: it lists every candidate set (every
interval of every colour and every colour subset of every number, with jokers in
every possible place), then tries every sub-multiset of the rack and searches
for a partition of the resulting table into candidate sets. Exponential, so only
for small games (few colours and numbers, racks of a handful of tiles).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from solver.rummikub import Objective, Position, Rules, Tile
from solver.rummikub.tiles import JOKER

Key = tuple[tuple[Tile, int], ...]


def _candidates(rules: Rules) -> dict[tuple[tuple[Tile, ...], int], int]:
    """Every valid set as (numbered tiles sorted, jokers) -> best opening value."""
    found: dict[tuple[tuple[Tile, ...], int], int] = {}
    shapes: list[list[Tile]] = []
    for colour in rules.colour_list:
        for start in range(1, rules.numbers + 1):
            for end in range(start + rules.min_set_len - 1, rules.numbers + 1):
                shapes.append([Tile.natural(colour, n) for n in range(start, end + 1)])
    for number in range(1, rules.numbers + 1):
        for size in range(rules.min_set_len, rules.colours + 1):
            for colours in itertools.combinations(rules.colour_list, size):
                shapes.append([Tile.natural(c, number) for c in colours])
    for shape in shapes:
        value = sum(t.number for t in shape)
        for jokers in range(0, min(rules.jokers, len(shape) - 1) + 1):
            for spots in itertools.combinations(range(len(shape)), jokers):
                naturals = tuple(sorted(t for i, t in enumerate(shape) if i not in spots))
                key = (naturals, jokers)
                found[key] = max(found.get(key, 0), value)
    return found


class Oracle:
    """Best plays by exhaustive search, for one small rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.by_lowest: dict[Tile, list[tuple[Counter[Tile], int, int]]] = {}
        for (naturals, jokers), value in _candidates(rules).items():
            need = Counter(naturals)
            self.by_lowest.setdefault(min(naturals), []).append((need, jokers, value))
        self.best_partition = lru_cache(maxsize=None)(self._best_partition)

    def _best_partition(self, key: Key) -> int | None:
        """Highest total value of a split of these tiles into valid sets, or None."""
        tiles = Counter(dict(key))
        naturals = sorted(t for t in tiles if not t.is_joker and tiles[t] > 0)
        if not naturals:
            return None if tiles[JOKER] else 0
        lowest = naturals[0]
        best: int | None = None
        # The lowest numbered tile is the lowest numbered tile of its own set.
        for need, jokers, value in self.by_lowest.get(lowest, []):
            if jokers > tiles[JOKER] or any(tiles[t] < n for t, n in need.items()):
                continue
            rest = tiles.copy()
            rest.subtract(need)
            rest[JOKER] -= jokers
            sub = self.best_partition(_key(rest))
            if sub is not None and (best is None or value + sub > best):
                best = value + sub
        return best

    def best_score(self, position: Position, objective: Objective) -> int:
        """The best objective value over all legal plays (0 when only drawing is legal)."""
        table: Counter[Tile] = Counter()
        for tiles in position.table:
            table.update(tiles)
        best = 0
        for played in _sub_multisets(Counter(position.rack)):
            if not played:
                continue
            score = self.score(played, objective)
            if score <= best:
                continue
            if position.opened:
                if self.best_partition(_key(table + played)) is not None:
                    best = score
            else:
                value = self.best_partition(_key(played))
                if value is not None and value >= self.rules.opening_threshold:
                    best = score
        return best

    def score(self, played: Counter[Tile], objective: Objective) -> int:
        if objective is Objective.TILES:
            return sum(played.values())
        return sum(self.rules.value(t) * n for t, n in played.items())


def _sub_multisets(counts: Counter[Tile]) -> Iterator[Counter[Tile]]:
    tiles = sorted(counts)
    for choice in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        yield Counter({t: n for t, n in zip(tiles, choice, strict=True) if n})


def _key(counts: Counter[Tile]) -> Key:
    return tuple(sorted((t, n) for t, n in counts.items() if n > 0))
