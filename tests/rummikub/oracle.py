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
from solver.rummikub.melds import MeldKind, read_meld
from solver.rummikub.notation import JOKER

if TYPE_CHECKING:
    from tests.rummikub.disruption_oracle import DisruptionOracle

Key = tuple[tuple[Tile, int], ...]
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


def _candidates(rules: Rules) -> dict[tuple[tuple[Tile, ...], int], int]:
    """Every valid set as (numbered tiles sorted, jokers) -> best opening value."""
    found: dict[tuple[tuple[Tile, ...], int], int] = {}
    shapes: list[list[Tile]] = list(run_shapes(rules))
    for number in range(1, rules.numbers + 1):
        for size in range(rules.min_set_len, rules.colours + 1):
            for colours in itertools.combinations(rules.colour_list, size):
                shapes.append([Tile.natural(c, number) for c in colours])
    for shape in shapes:
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
        if any(self.set_value(tiles) is None for tiles in after):
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
        value = sum(self.set_value(tiles) or 0 for tiles, _ in new_sets.elements())
        return not played or value >= self.rules.opening_threshold

    def _sets(
        self, sets: Sequence[Sequence[Tile]]
    ) -> Counter[tuple[tuple[Tile, ...], tuple[Tile, ...]]]:
        """The sets as a multiset of tile multisets; under "replace" with, for a run
        holding a joker, the numbers its tiles stand at as the table reads it (written
        low to high, or by brackets: ``J R4 R5`` and ``R4 R5 J`` differ there)."""
        found: Counter[tuple[tuple[Tile, ...], tuple[Tile, ...]]] = Counter()
        for tiles in sets:
            reading: tuple[Tile, ...] = ()
            if self.rules.joker_retrieval == "replace" and JOKER in tiles:
                meld = read_meld(tiles, self.rules)
                if meld.kind is MeldKind.RUN:
                    reading = meld.stands_for
            found[tuple(sorted(tiles)), reading] += 1
        return found


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
