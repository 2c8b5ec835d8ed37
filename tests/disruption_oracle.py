"""Exhaustive least-disruption search for small variants, independent of the model.

For every best play (best score, then fewest jokers, then most tiles), it
enumerates every way to lay the table out as sets (jokers at every reading),
matches each new set to at most one old set (runs to runs, groups to groups) and scores the match:

* a tile of an old run stays if the new run holds the same tile at the same
  number (a joker: a joker at the number it stood for);
* a tile of an old group stays if the new group holds it (a joker: a joker);
* a match needs at least one numbered tile that stays;
* an old set is kept when all its tiles stay.

The least disruption is the best (sets kept, -tiles moved) over all of that.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache, lru_cache

from oracle import oracle_for

from solver.rummikub import JOKER, Meld, MeldKind, Objective, Position, Rules, Tile
from solver.rummikub.melds import read_meld

# A laid set: kind, and (tile, number it stands for) per place; groups ignore readings.
Laid = tuple[MeldKind, tuple[tuple[Tile, int], ...]]


class DisruptionOracle:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.scores = oracle_for(rules)
        self.shapes: dict[Tile, list[Laid]] = {}
        for laid in self._all_sets():
            naturals = [t for t, _ in laid[1] if not t.is_joker]
            self.shapes.setdefault(min(naturals), []).append(laid)
        self.layouts = lru_cache(maxsize=None)(self._layouts)

    def _all_sets(self) -> Iterator[Laid]:
        rules = self.rules
        for colour in rules.colour_list:
            for start in range(1, rules.numbers + 1):
                for end in range(start + rules.min_set_len - 1, rules.numbers + 1):
                    yield from self._with_jokers(
                        MeldKind.RUN, [Tile.natural(colour, n) for n in range(start, end + 1)]
                    )
        for number in range(1, rules.numbers + 1):
            for size in range(rules.min_set_len, rules.colours + 1):
                for colours in itertools.combinations(rules.colour_list, size):
                    yield from self._with_jokers(
                        MeldKind.GROUP, [Tile.natural(c, number) for c in colours]
                    )

    def _with_jokers(self, kind: MeldKind, shape: list[Tile]) -> Iterator[Laid]:
        seen = set()
        for jokers in range(min(self.rules.jokers, len(shape) - 1) + 1):
            for spots in itertools.combinations(range(len(shape)), jokers):
                places = tuple((JOKER if i in spots else t, t.number) for i, t in enumerate(shape))
                if kind is MeldKind.GROUP:  # a group's jokers have no fixed colour
                    places = tuple(sorted(places, key=lambda p: p[0]))
                if places not in seen:
                    seen.add(places)
                    yield kind, places

    def _layouts(self, key: tuple[tuple[Tile, int], ...]) -> list[tuple[Laid, ...]]:
        """Every split of the tiles into sets."""
        tiles = Counter(dict(key))
        naturals = sorted(t for t in tiles if not t.is_joker and tiles[t] > 0)
        if not naturals:
            return [] if tiles[JOKER] else [()]
        found = []
        for laid in self.shapes.get(naturals[0], []):
            need = Counter(t for t, _ in laid[1])
            if any(tiles[t] < n for t, n in need.items()):
                continue
            rest = tiles - need
            for others in self.layouts(_key(rest)):
                found.append((laid, *others))
        return found

    def least_disruption(self, position: Position, objective: Objective) -> tuple[int, int]:
        """Best (sets kept, -tiles moved) over every best play (best score, then most
        jokers kept, then most tiles) and every layout of it (the player has opened)."""
        best = self.scores.best_play(position, objective)
        table = Counter(t for tiles in position.table for t in tiles)
        old = [read_meld(tiles, self.rules) for tiles in position.table]
        found: tuple[int, int] | None = None
        for played in _sub_multisets(Counter(position.rack)):
            if self.scores.key(played, objective) != best:
                continue
            if not played:
                layouts = [tuple(_as_laid(m.kind, m.tiles, m.stands_for) for m in old)]
            else:
                layouts = self.layouts(_key(table + played))
            for layout in layouts:
                score = _best_match(old, layout, sum(len(m.tiles) for m in old))
                if found is None or score > found:
                    found = score
        assert found is not None
        return found

    def disruption_of(self, position: Position, after: Sequence[Meld]) -> tuple[int, int]:
        """(sets kept, -tiles moved) of a given new table (sets as the answer reads
        them), best matched."""
        old = [read_meld(tiles, self.rules) for tiles in position.table]
        laid = tuple(_as_laid(m.kind, m.tiles, m.stands_for) for m in after)
        return _best_match(old, laid, sum(len(m.tiles) for m in old))


@cache
def disruption_oracle_for(rules: Rules) -> DisruptionOracle:
    """One oracle per variant, so its layouts are cached across examples."""
    return DisruptionOracle(rules)


def _as_laid(kind: MeldKind, tiles: Sequence[Tile], meant: Sequence[Tile]) -> Laid:
    places = tuple((t, m.number) for t, m in zip(tiles, meant, strict=True))
    if kind is MeldKind.GROUP:
        places = tuple(sorted(places, key=lambda p: p[0]))
    return kind, places


def _stays(old_kind: MeldKind, old: Laid, new: Laid) -> int:
    if old_kind is not new[0]:
        return 0
    if old_kind is MeldKind.RUN:
        colour = next(t.colour for t, _ in old[1] if not t.is_joker)
        new_colour = next(t.colour for t, _ in new[1] if not t.is_joker)
        if colour != new_colour:
            return 0
        new_places = set(new[1])
        staying = [p for p in old[1] if p in new_places]
    else:
        if old[1][0][1] != new[1][0][1]:
            return 0
        new_tiles = Counter(t for t, _ in new[1])
        staying = [p for p in old[1] if new_tiles[p[0]] > 0 and not new_tiles.subtract([p[0]])]
    if not any(not t.is_joker for t, _ in staying):
        return 0
    return len(staying)


def _best_match(old: Sequence, layout: Sequence[Laid], table_tiles: int) -> tuple[int, int]:
    olds = [_as_laid(m.kind, m.tiles, m.stands_for) for m in old]
    sizes = [len(m.tiles) for m in old]
    gains = [[_stays(m.kind, o, new) for new in layout] for m, o in zip(old, olds, strict=True)]

    @cache
    def best(i: int, used: frozenset[int]) -> tuple[int, int]:
        if i == len(olds):
            return (0, 0)
        options = [best(i + 1, used)]
        for j, gain in enumerate(gains[i]):
            if gain and j not in used:
                kept, stayed = best(i + 1, used | {j})
                options.append((kept + (gain == sizes[i]), stayed + gain))
        return max(options)

    kept, stayed = best(0, frozenset())
    return kept, -(table_tiles - stayed)


def _sub_multisets(counts: Counter[Tile]) -> Iterator[Counter[Tile]]:
    tiles = sorted(counts)
    for choice in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        yield Counter({t: n for t, n in zip(tiles, choice, strict=True) if n})


def _key(counts: Counter[Tile]) -> tuple[tuple[Tile, int], ...]:
    return tuple(sorted((t, n) for t, n in counts.items() if n > 0))
