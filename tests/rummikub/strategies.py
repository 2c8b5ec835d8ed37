"""Hypothesis strategies: rule variants, positions under them, claimed moves and
requests with something wrong in them.

Everything is drawn piece by piece (the settings, each table set, where its jokers
stand, the rack's tiles), so a failing example shrinks to a small one: fewer sets,
shorter runs, fewer jokers, settings near their lowest values.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from benchmarks.cases import spread_jokers
from solver.rummikub import JOKER, Colour, Position, Rules, Tile
from solver.rummikub.deal import full_set
from solver.rummikub.notation import MAX_NUMBER
from tests.rummikub.disruption_oracle import disruption_oracle_for
from tests.support import examples as examples  # the variant tests' count, shared


@st.composite
def small_rules(draw: st.DrawFn, max_numbers: int = 5, max_colours: int = 3) -> Rules:
    """A small variant: numbers 3..max_numbers, colours 2..max_colours, 1-2 copies,
    and the other settings as :func:`_settings` draws them."""
    numbers = draw(st.integers(3, max_numbers))
    colours = draw(st.integers(2, max_colours))
    return _settings(draw, colours=colours, numbers=numbers, copies=draw(st.integers(1, 2)))


WIDE_TILES = 96
"""Most coloured tiles (colours x numbers x copies) of a wide variant: enough for 8
colours of 3 numbers in 4 copies, 2 colours of every number in 1 copy; the oracles'
lists of sets and partitions grow with it."""


@st.composite
def wide_rules(draw: st.DrawFn, max_tiles: int = WIDE_TILES) -> Rules:
    """A variant up to the settings' maxima (8 colours, 4 copies, 26 numbers), at most
    ``max_tiles`` coloured tiles: many colours and copies with few numbers, or many
    numbers with few colours, so that the exhaustive oracles stay tractable."""
    colours = draw(st.integers(2, len(Colour)))
    copies = draw(st.integers(1, 4))
    top = min(MAX_NUMBER, max_tiles // (colours * copies))
    numbers = draw(st.integers(3, max(3, top)))
    return _settings(draw, colours=colours, numbers=numbers, copies=copies)


def variants(max_numbers: int = 5, max_colours: int = 3) -> st.SearchStrategy[Rules]:
    """Small variants (:func:`small_rules`) half the time, wide ones the other half."""
    return st.one_of(small_rules(max_numbers, max_colours), wide_rules())


def _settings(draw: st.DrawFn, colours: int, numbers: int, copies: int) -> Rules:
    """The variant of these colours, numbers and copies, with 0-4 jokers, sets of 2 up
    to every number, any threshold and joker penalty, either joker retrieval rule, runs
    wrapping or not, 1-4 jokers a set at most."""
    return Rules(
        colours=colours,
        numbers=numbers,
        copies=copies,
        jokers=draw(st.integers(0, 4)),
        min_set_len=draw(st.integers(2, numbers)),
        opening_threshold=draw(st.integers(0, 4 * numbers)),
        joker_penalty=draw(st.sampled_from([30, 0, 1, 5])),
        joker_retrieval=draw(st.sampled_from(["free", "replace"])),
        wrap_runs=draw(st.booleans()),
        max_jokers_per_set=draw(st.integers(1, 4)),
    )


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Any variant the settings allow (up to 8 colours, 26 numbers, 4 copies).

    A binding joker limit on an extreme variant can leave the score unproven within
    its work: e.g. 2 colours of 19 numbers, runs of 14 or more going round, one joker a
    set, both runs full and a joker on the rack (status "unknown": no play found and
    none proven impossible). Measured: 3 of 2,400 examples, about 620 of them with the
    limit binding."""
    numbers = draw(st.integers(3, MAX_NUMBER))
    return Rules(
        colours=draw(st.integers(2, len(Colour))),
        numbers=numbers,
        copies=draw(st.integers(1, 4)),
        jokers=draw(st.integers(0, 4)),
        min_set_len=draw(st.integers(2, numbers)),
        opening_threshold=draw(st.integers(0, 1000)),
        joker_penalty=draw(st.integers(0, 1000)),
        joker_retrieval=draw(st.sampled_from(["free", "replace"])),
        wrap_runs=draw(st.booleans()),
        max_jokers_per_set=draw(st.integers(1, 4)),
    )


@st.composite
def shapes(draw: st.DrawFn, rules: Rules) -> list[Tile]:
    """The numbered tiles of a valid set: a run (often of every number) or a group."""
    size = rules.min_set_len
    if size > rules.colours or draw(st.booleans()):
        colour = draw(st.sampled_from(rules.colour_list))
        if draw(st.booleans()):  # filling the whole number range: no room to grow
            return [Tile.natural(colour, n) for n in range(1, rules.numbers + 1)]
        length = draw(st.integers(size, rules.numbers))
        if rules.wrap_runs and length < rules.numbers:  # any start, read round
            start = draw(st.integers(1, rules.numbers))
            top = rules.numbers
            return [Tile.natural(colour, (n - 1) % top + 1) for n in range(start, start + length)]
        start = draw(st.integers(1, rules.numbers - length + 1))
        return [Tile.natural(colour, n) for n in range(start, start + length)]
    number = draw(st.integers(1, rules.numbers))
    colours = draw(st.permutations(rules.colour_list))[: draw(st.integers(size, rules.colours))]
    return [Tile.natural(c, number) for c in sorted(colours, key=lambda c: c.index)]


@st.composite
def positions(
    draw: st.DrawFn,
    rules: Rules,
    max_sets: int = 3,
    max_rack: int = 5,
    opened: bool | None = None,
) -> Position:
    """A legal position under ``rules``: up to ``max_sets`` valid table sets, each
    with jokers standing in anywhere (a run may fill the whole number range), some
    written out of reading order; a rack of up to ``max_rack`` numbered tiles from
    what is left, and some of the jokers left. Each tile a table joker stands for
    goes to the rack half of the time: those make the hard cases."""
    pool = full_set(rules)
    jokers = pool.pop(JOKER, 0)
    table: list[list[Tile]] = []
    stood_for: list[Tile] = []
    for _ in range(draw(st.sampled_from(range(max_sets + 1)))):
        tiles = draw(shapes(rules))
        need = Counter(tiles)
        if any(pool[t] < n for t, n in need.items()):
            continue  # those tiles are used up: one set fewer
        pool.subtract(need)
        most = min(jokers, rules.max_jokers_per_set, len(tiles) - 1)
        count = draw(st.sampled_from(range(most + 1)))
        spots = draw(st.sets(st.sampled_from(range(len(tiles))), min_size=count, max_size=count))
        for spot in spots:
            pool[tiles[spot]] += 1
            stood_for.append(tiles[spot])
            tiles[spot] = JOKER
        jokers -= len(spots)
        if draw(st.booleans()):
            tiles = list(draw(st.permutations(tiles)))
        table.append(tiles)
    rack: list[Tile] = []
    for tile in stood_for:
        if pool[tile] and len(rack) < max_rack and draw(st.booleans()):
            pool[tile] -= 1
            rack.append(tile)
    rest = sorted(pool.elements())
    if rest and len(rack) < max_rack:
        size = draw(st.sampled_from(range(min(max_rack - len(rack), len(rest)) + 1)))
        picked = draw(st.sets(st.sampled_from(range(len(rest))), min_size=size, max_size=size))
        rack += [rest[i] for i in picked]
    rack = sorted(rack) + [JOKER] * draw(st.integers(0, jokers))
    if opened is None:
        opened = draw(st.booleans())
    return Position(tuple(rack), tuple(tuple(s) for s in table), opened)


@st.composite
def claimed_moves(
    draw: st.DrawFn, position: Position, rules: Rules, layouts: bool = True
) -> list[list[Tile]]:
    """A table after the move, right or wrong. Either the table and some rack tiles
    laid out anew as valid sets (any way the rules allow), or the old sets and the
    rack tiles cut into new sets, then a few changes: a set split, a tile moved to
    another set, two sets joined, a tile lost, a joker from nowhere. (Without
    ``layouts`` only the latter: listing every layout is for small variants.)"""
    rack = position.rack
    chosen: list[int] = []  # often nothing: rearranging before opening is illegal all the same
    if len(rack) > 0 and draw(st.booleans()):
        chosen = draw(st.lists(st.integers(0, len(rack) - 1), unique=True))
    played = [rack[i] for i in chosen]
    if layouts and draw(st.booleans()):
        tiles = Counter(played) + Counter(t for s in position.table for t in s)
        every = disruption_oracle_for(rules).layouts(tuple(sorted(tiles.items())))
        if every:
            return [[t for t, _ in places] for _, places in draw(st.sampled_from(every))]
    loose = list(draw(st.permutations(played)))
    after = [list(tiles) for tiles in position.table]
    while loose:
        size = draw(st.integers(1, len(loose)))
        after.append(loose[:size])
        loose = loose[size:]
    for change in draw(st.lists(st.sampled_from(CHANGES), max_size=2)):
        if not after:
            break
        one = draw(st.integers(0, len(after) - 1))
        other = draw(st.integers(0, len(after) - 1))
        cut = draw(st.integers(0, len(after[one])))
        if change == "split":
            after[one : one + 1] = [after[one][:cut], after[one][cut:]]
        elif change == "move" and cut < len(after[one]):
            after[other].append(after[one].pop(cut))
        elif change == "join" and one != other:
            after[one] += after[other]
            after[other] = []
        elif change == "lose" and cut < len(after[one]):
            after[one].pop(cut)
        elif change == "joker":
            after[one].append(JOKER)
    return [tiles for tiles in after if tiles]


CHANGES = ("split", "move", "join", "lose", "joker")


@st.composite
def dealt(draw: st.DrawFn, table: st.SearchStrategy[int], rack: st.SearchStrategy[int]) -> Position:
    """A standard game's position dealt at random (the benchmarks' deal, jokers spread
    over table, rack and pool) from a random source hypothesis shrinks."""
    rng = draw(st.randoms(use_true_random=False))
    return spread_jokers(rng, draw(table, label="table tiles"), draw(rack, label="rack tiles"))


def request_of(position: Position, rules: Rules, **extra: object) -> dict[str, object]:
    """The wire request for ``position`` under ``rules``: each tile as the wire reads
    it back, a joker with its bracket (``J(R4)``; ``str`` wrote ``J``, which the wire
    reads anew: ``R5 R6 J`` is R7)."""
    return {
        "rack": [t.written for t in position.rack],
        "table": [[t.written for t in tiles] for tiles in position.table],
        "opened": position.opened,
        "rules": rules.to_dict(),
        **extra,
    }


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=True),
    st.sampled_from(["", "x", "J", "j", " r5 ", "R0", "R27", "Z5", "R5R", "G1", "W26"]),
    st.text(max_size=4),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["numbers", "jokers", "x"]), st.integers(-1, 30), max_size=2),
)
"""Values of every JSON type, some close to what a field expects."""


@st.composite
def corrupted(draw: st.DrawFn, request: dict[str, object]) -> dict[str, object]:
    """``request`` with a few things wrong: a field dropped or replaced by junk, a
    field added, a tile or a set replaced, a rule setting out of its range."""
    request = dict(request)
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from([*request, "bogus", "rules"]))
        value = request.get(name)
        change = draw(st.sampled_from(["drop", "junk", "inner"]))
        if change == "drop":
            request.pop(name, None)
        elif change == "inner" and isinstance(value, list) and value:
            value = list(value)
            value[draw(st.integers(0, len(value) - 1))] = draw(JUNK)
            request[name] = value
        elif change == "inner" and isinstance(value, dict):
            setting = draw(st.sampled_from([*Rules.__dataclass_fields__, "bogus"]))
            request[name] = {**value, setting: draw(st.one_of(st.integers(-2, 1001), JUNK))}
        else:
            request[name] = draw(JUNK)
    return request
