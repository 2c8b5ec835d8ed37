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

Under ``joker_retrieval: "replace"`` only some moves are legal (see
:meth:`DisruptionOracle.replace_allows`): every old set holding a joker is matched to
a new set that keeps one of its numbered tiles where it was and, in each of its
jokers' places, a joker or the tile the joker stood for (in a group: jokers, or
numbered tiles of colours the old group lacked); jokers leave only when a rack tile
is played. The best plays and the least disruption are then taken over those moves.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from hypothesis import reject

from solver.rummikub import JOKER, Meld, MeldKind, Objective, Position, Rules, Tile
from tests.rummikub.oracle import is_run, oracle_for, run_shapes

MAX_LAYOUTS = 100_000
"""Most splits of one multiset into sets the oracle lists. Some drawn tables have so
many that a random-seed run of the least-disruption test grew to 11 GB listing them."""
MAX_TRIES = 2_000_000
"""Most sets the oracle tries while listing the splits of one multiset. A wide variant
(long runs, jokers anywhere) can hold a hundred thousand sets of one lowest tile, each
tried on every multiset the listing reaches: the validator test on wide variants at
seed 11 was still listing after 6 minutes of CPU when stopped; bounded, it rejects 2
of its 242 examples and takes 27 s. The count is of a listing from nothing, each
multiset reached counted once whether listed then or before, so whether an example
is rejected is the example's alone, not what earlier ones left in the cache."""

# A laid set: kind, and (tile, number it stands for) per place; groups ignore readings.
Laid = tuple[MeldKind, tuple[tuple[Tile, int], ...]]
# A multiset of tiles as sorted (tile, count) pairs, so it can key a cache.
Key = tuple[tuple[Tile, int], ...]


@dataclass(frozen=True)
class _Listed:
    """The splits of one multiset into sets, the multisets left after its first set
    (listed in turn), and how many sets were tried on it."""

    layouts: list[tuple[Laid, ...]]
    rests: tuple[Key, ...]
    tries: int


class DisruptionOracle:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.scores = oracle_for(rules)
        self.shapes: dict[Tile, list[Laid]] = {}
        for laid in self._all_sets():
            naturals = [t for t, _ in laid[1] if not t.is_joker]
            self.shapes.setdefault(min(naturals), []).append(laid)
        self._listed: dict[Key, _Listed] = {}
        self._judged: set[Key] = set()
        """Multisets asked for whose listing came within the bounds."""
        self.readings: dict[tuple[Tile, ...], list[Laid]] = {}
        for laids in self.shapes.values():
            for laid in laids:
                self.readings.setdefault(tuple(sorted(t for t, _ in laid[1])), []).append(laid)

    def _all_sets(self) -> Iterator[Laid]:
        rules = self.rules
        for shape in run_shapes(rules):
            yield from self._with_jokers(MeldKind.RUN, shape)
        for number in range(1, rules.numbers + 1):
            for size in range(rules.min_set_len, rules.colours + 1):
                for colours in itertools.combinations(rules.colour_list, size):
                    yield from self._with_jokers(
                        MeldKind.GROUP, [Tile.natural(c, number) for c in colours]
                    )

    def _with_jokers(self, kind: MeldKind, shape: list[Tile]) -> Iterator[Laid]:
        seen = set()
        for jokers in range(
            min(self.rules.jokers, self.rules.max_jokers_per_set, len(shape) - 1) + 1
        ):
            for spots in itertools.combinations(range(len(shape)), jokers):
                places = tuple((JOKER if i in spots else t, t.number) for i, t in enumerate(shape))
                if kind is MeldKind.GROUP:  # a group's jokers have no fixed colour
                    places = tuple(sorted(places, key=lambda p: p[0]))
                if places not in seen:
                    seen.add(places)
                    yield kind, places

    def layouts(self, key: Key) -> list[tuple[Laid, ...]]:
        """Every split of the tiles into sets. Beyond :data:`MAX_LAYOUTS` of them, or
        :data:`MAX_TRIES` sets tried, the example is rejected
        (:func:`hypothesis.reject`): too big to enumerate. The sets tried are counted
        as a listing from nothing would try them (the multisets listed before walked
        again, not tried again), so the verdict does not hang on what came before."""
        if key not in self._judged:
            self._list(key, set(), [0])
            self._judged.add(key)
        return self._listed[key].layouts

    def _list(self, key: Key, seen: set[Key], tries: list[int]) -> list[tuple[Laid, ...]]:
        """The splits of ``key``, counting in ``tries[0]`` the sets tried on each
        multiset the listing reaches and not yet ``seen`` (listed now or before)."""
        seen.add(key)
        listed = self._listed.get(key)
        if listed is not None:
            tries[0] += listed.tries
            if tries[0] > MAX_TRIES:
                reject()
            for rest in listed.rests:
                if rest not in seen:
                    self._list(rest, seen, tries)
            return listed.layouts
        tiles = Counter(dict(key))
        naturals = sorted(t for t in tiles if not t.is_joker and tiles[t] > 0)
        if not naturals:
            self._listed[key] = _Listed([] if tiles[JOKER] else [()], (), 0)
            return self._listed[key].layouts
        found = []
        rests: dict[Key, None] = {}
        shapes = self.shapes.get(naturals[0], [])
        tries[0] += len(shapes)
        if tries[0] > MAX_TRIES:
            reject()
        for laid in shapes:
            need = Counter(t for t, _ in laid[1])
            if any(tiles[t] < n for t, n in need.items()):
                continue
            rest = _key(tiles - need)
            rests[rest] = None
            # A multiset seen in this listing is counted already: its splits as they are.
            splits = self._listed[rest].layouts if rest in seen else self._list(rest, seen, tries)
            for others in splits:
                found.append((laid, *others))
            if len(found) > MAX_LAYOUTS:
                reject()
        self._listed[key] = _Listed(found, tuple(rests), len(shapes))
        return found

    def least_disruption(self, position: Position, objective: Objective) -> tuple[int, int]:
        """Best (sets kept, -tiles moved) over every best play (best score, then most
        jokers kept, then most tiles) and every layout of it (the player has opened)."""
        best = self.scores.best_play(position, objective)
        table = Counter(t for tiles in position.table for t in tiles)
        old = [self.read(tiles) for tiles in position.table]
        found: tuple[int, int] | None = None
        for played in _sub_multisets(Counter(position.rack)):
            if self.scores.key(played, objective) != best:
                continue
            layouts = [tuple(old)] if not played else self.layouts(_key(table + played))
            for layout in layouts:
                allowed = self._allowed(old, [[laid] for laid in layout], bool(played))
                score = _best_match(old, layout, table.total(), allowed)
                if score is not None and (found is None or score > found):
                    found = score
        assert found is not None
        return found

    def replace_allows(self, position: Position, played: Counter[Tile]) -> bool:
        """Whether some layout of the table and ``played`` is a legal move under
        ``joker_retrieval: "replace"`` (see the module docstring)."""
        table = Counter(t for tiles in position.table for t in tiles)
        old = [self.read(tiles) for tiles in position.table]
        return any(
            _matching(self._allowed(old, [[laid] for laid in layout], bool(played)))
            for layout in self.layouts(_key(table + played))
        )

    def most_placed_from(self, before: Sequence[Sequence[Tile]], now: Counter[Tile]) -> int:
        """The most of the tiles ``now`` (the table before and tiles laid down) that
        valid sets hold, the others left out, with the table ``before`` carried on
        legally under ``joker_retrieval: "replace"``: every sub-multiset, largest
        first, every layout of it; a tile is laid down when it holds more of a tile
        than ``before`` does. Under "free" this is the plain most placed."""
        old = [self.read(tiles) for tiles in before]
        table = Counter(t for tiles in before for t in tiles)
        subsets = sorted(_sub_multisets(now), key=lambda sub: -sub.total())
        for sub in subsets:
            if not self.scores.fits(sub):
                continue
            laid = bool(sub - table)
            for layout in self.layouts(_key(sub)):
                if _matching(self._allowed(old, [[each] for each in layout], laid)):
                    return sub.total()
        raise AssertionError("the table before, as it was, is always legal")

    def replace_judges(
        self, before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], played: bool
    ) -> bool:
        """Whether sets ``after`` (tile lists, each read as the table reads it, see
        :meth:`read`) carry the table ``before`` on legally under
        ``joker_retrieval: "replace"``."""
        old = [self.read(tiles) for tiles in before]
        options = [[self.read(tiles)] for tiles in after]
        return _matching(self._allowed(old, options, played))

    def read(self, tiles: Sequence[Tile]) -> Laid:
        """``tiles`` (a valid set) as the table reads them, from the rules text alone
        (:meth:`Oracle.table_reading <tests.rummikub.oracle.Oracle.table_reading>`):
        each numbered tile at its own number, the jokers in the places left."""
        shape = self.scores.table_reading(tiles)
        assert shape is not None, f"not a set: {tiles}"
        free = Counter(shape) - Counter(t for t in tiles if not t.is_joker)
        kind = MeldKind.RUN if is_run(shape) else MeldKind.GROUP  # a set holds a tile once:
        return _as_laid(kind, [JOKER if free[p] else p for p in shape], shape)

    def _allowed(
        self, old: Sequence[Laid], options: Sequence[Sequence[Laid]], played: bool
    ) -> list[set[int] | None] | None:
        """Per old set: the new sets (each with its readings ``options``) that may carry
        it on under "replace", or None for a set without a joker (free to go); None in
        all under "free"."""
        if self.rules.joker_retrieval != "replace":
            return None
        allowed: list[set[int] | None] = []
        for was in old:
            if JOKER not in (t for t, _ in was[1]):
                allowed.append(None)
                continue
            partners = set()
            for j, readings in enumerate(options):
                taken = [n for laid in readings if (n := _taken(was, laid)) is not None]
                if taken and (played or min(taken) == 0):
                    partners.add(j)
            allowed.append(partners)
        return allowed

    def disruption_of(self, position: Position, after: Sequence[Meld]) -> tuple[int, int]:
        """(sets kept, -tiles moved) of a given new table (sets as the answer reads
        them), best matched."""
        old = [self.read(tiles) for tiles in position.table]
        laid = tuple(_as_laid(m.kind, m.tiles, m.stands_for) for m in after)
        found = _best_match(old, laid, sum(len(tiles) for tiles in position.table))
        assert found is not None  # with no joker held in place, every set may go
        return found


@cache
def disruption_oracle_for(rules: Rules) -> DisruptionOracle:
    """One oracle per variant, so its layouts are cached across examples."""
    return DisruptionOracle(rules)


def _as_laid(kind: MeldKind, tiles: Sequence[Tile], meant: Sequence[Tile]) -> Laid:
    places = tuple((t, m.number) for t, m in zip(tiles, meant, strict=True))
    if kind is MeldKind.GROUP:
        places = tuple(sorted(places, key=lambda p: p[0]))
    return kind, places


def _stays(old: Laid, new: Laid) -> int:
    old_kind = old[0]
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


def _best_match(
    olds: Sequence[Laid],
    layout: Sequence[Laid],
    table_tiles: int,
    allowed: Sequence[set[int] | None] | None = None,
) -> tuple[int, int] | None:
    """The best (sets kept, -tiles moved) over matchings of old sets to new ones; an
    old set with an ``allowed`` entry must be matched to one of those (None: no such
    matching)."""
    sizes = [len(o[1]) for o in olds]
    gains = [[_stays(o, new) for new in layout] for o in olds]
    must = allowed or [None] * len(olds)

    @cache
    def best(i: int, used: frozenset[int]) -> tuple[int, int] | None:
        if i == len(olds):
            return (0, 0)
        options = [] if must[i] is not None else [best(i + 1, used)]
        for j, gain in enumerate(gains[i]):
            allowed_here = must[i]
            if gain and j not in used and (allowed_here is None or j in allowed_here):
                rest = best(i + 1, used | {j})
                if rest is not None:
                    options.append((rest[0] + (gain == sizes[i]), rest[1] + gain))
        found = [o for o in options if o is not None]
        return max(found) if found else None

    match = best(0, frozenset())
    if match is None:
        return None
    kept, stayed = match
    return kept, -(table_tiles - stayed)


def _matching(allowed: Sequence[set[int] | None] | None) -> bool:
    """Whether every old set with an ``allowed`` entry gets a new set of its own."""
    needs = [partners for partners in allowed or [] if partners is not None]

    def assign(i: int, used: frozenset[int]) -> bool:
        if i == len(needs):
            return True
        return any(assign(i + 1, used | {j}) for j in needs[i] if j not in used)

    return assign(0, frozenset())


def _taken(old: Laid, new: Laid) -> int | None:
    """How many jokers of ``old`` leave it when ``new`` carries it on under "replace"
    (each with the tile it stood for in its place), or None if ``new`` cannot."""
    (kind, places), (new_kind, new_places) = old, new
    if kind is not new_kind:
        return None
    naturals = [t for t, _ in places if not t.is_joker]
    new_tiles = [t for t, _ in new_places]
    if kind is MeldKind.RUN:
        if naturals[0].colour != next(t for t in new_tiles if not t.is_joker).colour:
            return None
        at = {number: tile for tile, number in new_places}
        if not any(at.get(t.number) == t for t in naturals):
            return None
        if any(t.is_joker and n not in at for t, n in places):
            return None
        return sum(t.is_joker and not at[n].is_joker for t, n in places)
    if places[0][1] != new_places[0][1] or not any(t in new_tiles for t in naturals):
        return None
    colours = {t.colour for t in naturals}
    old_jokers = len(places) - len(naturals)
    new_jokers = sum(t.is_joker for t in new_tiles)
    fresh = sum(not t.is_joker and t.colour not in colours for t in new_tiles)
    return None if old_jokers > new_jokers + fresh else max(0, old_jokers - new_jokers)


def _sub_multisets(counts: Counter[Tile]) -> Iterator[Counter[Tile]]:
    tiles = sorted(counts)
    for choice in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        yield Counter({t: n for t, n in zip(tiles, choice, strict=True) if n})


def _key(counts: Counter[Tile]) -> Key:
    return tuple(sorted((t, n) for t, n in counts.items() if n > 0))
