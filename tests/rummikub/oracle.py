"""An independent, exhaustive Rummikub solver for small variants.

It shares nothing with the CP-SAT model: it lists every candidate set (every
interval of every colour and every colour subset of every number, with jokers in
every possible place), then tries every sub-multiset of the rack and searches
for a partition of the resulting table into candidate sets. Exponential, so only
for small games (few colours and numbers, racks of a handful of tiles).

It also judges a claimed move from the same list of sets (:meth:`Oracle.judge`),
to check the validator against. Under ``joker_retrieval: "replace"``, where a move's
legality depends on where each joker goes, it asks the layout oracle of
``disruption_oracle.py``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from solver.rummikub import Objective, Position, Rules, Tile
from solver.rummikub.notation import JOKER

if TYPE_CHECKING:
    from tests.rummikub.disruption_oracle import DisruptionOracle

Key = tuple[tuple[Tile, int], ...]
SetKey = tuple[tuple[Tile, ...], tuple[Tile, ...]]
"""A set's tiles sorted, and under "replace" the tiles a run with a joker reads as."""
PlayKey = tuple[int, int, int]
"""(score, -jokers played, tiles played): larger is better, in this order."""


def run_shapes(rules: Rules) -> Iterator[list[Tile]]:
    """Every run without jokers, from the rules as written: a stretch of one colour's
    numbers, L long or more; under ``wrap_runs`` any stretch of 1..N read round
    (after N comes 1), at most N long (the stretch of all N read from 1)."""
    top = rules.numbers
    for colour in rules.colour_list:
        for start in range(1, top + 1):
            last = start + top - 1 if rules.wrap_runs and start > 1 else top
            for end in range(start + rules.min_set_len - 1, last + 1):
                if end - start + 1 < top or start == 1:
                    yield [Tile.natural(colour, (n - 1) % top + 1) for n in range(start, end + 1)]


def set_shapes(rules: Rules) -> list[list[Tile]]:
    """Every set without jokers: the runs (low to high, as a run reads), then the
    groups (``min_set_len`` up to one tile per colour of one number)."""
    shapes: list[list[Tile]] = list(run_shapes(rules))
    for number in range(1, rules.numbers + 1):
        for size in range(rules.min_set_len, rules.colours + 1):
            for colours in itertools.combinations(rules.colour_list, size):
                shapes.append([Tile.natural(c, number) for c in colours])
    return shapes


def _candidates(rules: Rules) -> dict[tuple[tuple[Tile, ...], int], int]:
    """Every valid set as (numbered tiles sorted, jokers) -> best opening value."""
    found: dict[tuple[tuple[Tile, ...], int], int] = {}
    for shape in set_shapes(rules):
        value = sum(t.number for t in shape)
        for jokers in range(0, min(rules.jokers, rules.max_jokers_per_set, len(shape) - 1) + 1):
            for spots in itertools.combinations(range(len(shape)), jokers):
                naturals = tuple(sorted(t for i, t in enumerate(shape) if i not in spots))
                key = (naturals, jokers)
                found[key] = max(found.get(key, 0), value)
    return found


class Oracle:
    """Best plays by exhaustive search, for one small rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.sets = _candidates(rules)
        self.shapes = set_shapes(rules)
        self.by_lowest: dict[Tile, list[tuple[Counter[Tile], int, int]]] = {}
        for (naturals, jokers), value in self.sets.items():
            need = Counter(naturals)
            self.by_lowest.setdefault(min(naturals), []).append((need, jokers, value))
        self.best_partition = lru_cache(maxsize=None)(self._best_partition)
        self.most_placed = lru_cache(maxsize=None)(self._most_placed)

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

    def _most_placed(self, key: Key) -> int:
        """The most of these tiles that valid sets can hold, the others left out: the
        lowest numbered tile is left out, or is the lowest numbered tile of its set;
        jokers left over at the end are left out."""
        tiles = Counter(dict(key))
        naturals = sorted(t for t in tiles if not t.is_joker and tiles[t] > 0)
        if not naturals:
            return 0
        lowest = naturals[0]
        rest = tiles.copy()
        rest[lowest] -= 1
        best: int = self.most_placed(_key(rest))
        for need, jokers, _ in self.by_lowest.get(lowest, []):
            if jokers > tiles[JOKER] or any(tiles[t] < n for t, n in need.items()):
                continue
            rest = tiles.copy()
            rest.subtract(need)
            rest[JOKER] -= jokers
            best = max(best, need.total() + jokers + self.most_placed(_key(rest)))
        return best

    def fits(self, tiles: Counter[Tile]) -> bool:
        """Whether valid sets can hold every one of ``tiles``."""
        return self.best_partition(_key(tiles)) is not None

    def set_value(self, tiles: Iterable[Tile]) -> int | None:
        """The best opening value of ``tiles`` read as one set, or None if they form none."""
        tiles = list(tiles)
        naturals = tuple(sorted(t for t in tiles if not t.is_joker))
        return self.sets.get((naturals, len(tiles) - len(naturals)))

    def readings(self, tiles: Sequence[Tile]) -> list[list[Tile]]:
        """Every way ``tiles`` read as one set, each as the set's tiles without jokers
        (a run low to high): its numbered tiles each in it once, its jokers (at least
        one numbered tile, at most ``max_jokers_per_set`` jokers) standing for the rest,
        a joker written with a tile (``J(R6)``) for that tile."""
        naturals = Counter(t for t in tiles if not t.is_joker)
        meant = Counter(t.meant for t in tiles if t.is_joker and t.meant is not None)
        jokers = len(tiles) - naturals.total()
        if not naturals or jokers > self.rules.max_jokers_per_set:
            return []
        return [
            shape
            for shape in self.shapes
            if len(shape) == len(tiles)
            and not naturals - Counter(shape)
            and not meant - (Counter(shape) - naturals)
        ]

    def table_reading(self, tiles: Sequence[Tile]) -> list[Tile] | None:
        """The reading the table keeps of ``tiles`` (docs/rummikub.md, Tile notation):
        the run they make in the order written, when they make one (each joker at its
        place, ``J R4 R5`` is R3 R4 R5 and ``R4 R5 J`` R4 R5 R6); else the reading
        worth most (``K13 J J``: the group of 13s). None when they form no set."""
        readings = self.readings(tiles)
        for shape in readings:
            in_order = all(
                t == place if not t.is_joker else t.meant in (None, place)
                for t, place in zip(tiles, shape, strict=True)
            )
            if is_run(shape) and in_order:
                return shape
        return max(readings, key=lambda shape: sum(t.number for t in shape), default=None)

    def opening_value(self, tiles: Sequence[Tile]) -> int | None:
        """What a new set counts towards the opening (docs/rummikub.md, Opening): each
        joker as the tile it stands for, in the best reading, or under ``joker_retrieval:
        "replace"`` in the reading the table keeps. None when the tiles form no set."""
        if self.rules.joker_retrieval == "replace":
            shape = self.table_reading(tiles)
            return None if shape is None else sum(t.number for t in shape)
        return max((sum(t.number for t in shape) for shape in self.readings(tiles)), default=None)

    def can_play(self, position: Position, played: Counter[Tile]) -> bool:
        """Whether placing ``played`` (part of the rack) is a legal turn: after opening
        the table and ``played`` split into valid sets; before, ``played`` alone does,
        worth at least the opening threshold."""
        if not played:
            return True
        if position.opened:
            table: Counter[Tile] = Counter()
            for tiles in position.table:
                table.update(tiles)
            if self.best_partition(_key(table + played)) is None:
                return False
            if self.rules.joker_retrieval == "replace" and table[JOKER]:
                return bool(_replace_oracle(self.rules).replace_allows(position, played))
            return True
        value = self.best_partition(_key(played))
        return value is not None and value >= self.rules.opening_threshold

    def best_play(self, position: Position, objective: Objective) -> PlayKey:
        """The best (score, -jokers played, tiles played) over all legal plays: the
        score first, then the most jokers kept, then the most tiles."""
        plays = sorted(
            (self.key(played, objective), i, played)
            for i, played in enumerate(_sub_multisets(Counter(position.rack)))
        )
        for key, _, played in reversed(plays):
            if self.can_play(position, played):
                return key
        raise AssertionError("the empty play is always legal")

    def best_score(self, position: Position, objective: Objective) -> int:
        """The best objective value over all legal plays (0 when only drawing is legal)."""
        return self.best_play(position, objective)[0]

    def key(self, played: Counter[Tile], objective: Objective) -> PlayKey:
        return (self.score(played, objective), -played[JOKER], sum(played.values()))

    def score(self, played: Counter[Tile], objective: Objective) -> int:
        if objective is Objective.TILES:
            return sum(played.values())
        return sum(self.rules.value(t) * n for t, n in played.items())

    def judge(
        self,
        rack: Sequence[Tile],
        before: Sequence[Sequence[Tile]],
        after: Sequence[Sequence[Tile]],
        opened: bool,
    ) -> bool:
        """Whether turning ``before`` into ``after`` is a legal move, from the rules:
        every set after is valid, no table tile is lost, what came onto the table was
        on the rack, and a move that places nothing leaves every set as it was (no
        play); before opening, every old set is still there untouched and the new sets
        are worth at least the threshold."""
        if not all(self.readings(tiles) for tiles in after):
            return False
        old = Counter(t for tiles in before for t in tiles)
        new = Counter(t for tiles in after for t in tiles)
        played = new - old
        if old - new or played - Counter(rack):
            return False
        if not played:
            return self._sets(before) == self._sets(after)
        if opened:
            if self.rules.joker_retrieval == "replace" and old[JOKER]:
                return bool(_replace_oracle(self.rules).replace_judges(before, after, bool(played)))
            return True
        new_sets = self._sets(after)
        new_sets.subtract(self._sets(before))
        if any(n < 0 for n in new_sets.values()):
            return False  # an old set is not there as it was
        # Of sets of the same tiles (under "replace", the same reading) which are the
        # new ones is the player's to say: every choice is tried, the best counts. (The
        # first ones listed were taken, so a verdict hung on the table's order: old
        # B1 J(B2) listed before the new B1 J, worth 4 with wrap_runs, counted 3.)
        worth: dict[SetKey, list[int]] = {}
        for tiles in after:  # each as written: the order decides the reading under "replace"
            worth.setdefault(self._key_of(tiles), []).append(self.opening_value(tiles) or 0)
        value = sum(
            max(sum(chosen) for chosen in itertools.combinations(worth[key], count))
            for key, count in new_sets.items()
            if count > 0
        )
        return not played or value >= self.rules.opening_threshold

    def _sets(self, sets: Sequence[Sequence[Tile]]) -> Counter[SetKey]:
        """The sets as a multiset of tile multisets; under "replace" with, for a run
        holding a joker, the numbers its tiles stand at as the table reads it (written
        low to high, or by brackets: ``J R4 R5`` and ``R4 R5 J`` differ there)."""
        return Counter(self._key_of(tiles) for tiles in sets)

    def _key_of(self, tiles: Sequence[Tile]) -> SetKey:
        """One set as :meth:`_sets` counts it."""
        reading: tuple[Tile, ...] = ()
        if self.rules.joker_retrieval == "replace" and JOKER in tiles:
            shape = self.table_reading(tiles)
            if shape is not None and is_run(shape):
                reading = tuple(shape)
        return tuple(sorted(tiles)), reading


def is_run(shape: Sequence[Tile]) -> bool:
    """Whether a set without jokers is a run: one colour (a group has two or more)."""
    return len({t.colour for t in shape}) == 1


def _replace_oracle(rules: Rules) -> DisruptionOracle:
    """Under joker_retrieval "replace" legality depends on where each joker goes: the
    oracle of layouts and matchings judges it (imported here: it builds on this one)."""
    from tests.rummikub.disruption_oracle import disruption_oracle_for

    return disruption_oracle_for(rules)


@cache
def oracle_for(rules: Rules) -> Oracle:
    """One oracle per variant, so its partitions are cached across examples."""
    return Oracle(rules)


def _sub_multisets(counts: Counter[Tile]) -> Iterator[Counter[Tile]]:
    tiles = sorted(counts)
    for choice in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        yield Counter({t: n for t, n in zip(tiles, choice, strict=True) if n})


def _key(counts: Counter[Tile]) -> Key:
    return tuple(sorted((t, n) for t, n in counts.items() if n > 0))
