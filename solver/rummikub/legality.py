"""Check a claimed play against the rules, saying exactly what is wrong.

This is independent of the solver's model: it only reads sets and counts tiles.
The tests use it on every answer, and the validate endpoint offers it to players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import MeldwiseError
from solver.i18n import _, _n, listed
from solver.rummikub.melds import (
    InvalidMeld,
    Meld,
    MeldKind,
    best_value,
    read_meld,
    read_meld_or_none,
    readings,
    why_not_a_set,
)
from solver.rummikub.notation import Tile, format_tiles, format_written, spell
from solver.rummikub.rules import Rules

TileSets = Sequence[Sequence[Tile]]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a play; ``set`` indexes the table after the play, or is None."""

    set: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class Verdict:
    legal: bool
    played: tuple[Tile, ...]
    """Tiles that came onto the table (table after minus table before)."""
    problems: tuple[Problem, ...]


def check_play(
    rack: Sequence[Tile],
    table_before: TileSets,
    table_after: TileSets,
    opened: bool,
    rules: Rules,
    *,
    must_place: bool = False,
) -> Verdict:
    """Judge the move that turns ``table_before`` into ``table_after``.

    It is legal when every set after is valid, no table tile went missing, every
    new tile came from the rack, at least one rack tile was placed (a table left as it
    was, its sets and their tiles in any order, is no play instead: legal, the player
    draws; ``must_place``, for a turn that is a play, refuses that too), and, before
    opening, the old sets are untouched and the new ones are worth at least the opening
    threshold (jokers at their best reading; under ``joker_retrieval: "replace"`` at
    the reading the table keeps, :func:`read_meld`); after opening, under ``joker_retrieval:
    "replace"``, every table joker stays in its set or has the tile it stands for in its
    place (see :func:`joker_retrieval_problems`), judged beside the other problems
    unless a set after that is no valid set holds a joker or a tile of a table set
    holding one (:func:`_jokers_readable`). Under that rule a run's joker stands
    where the table reads it (:func:`read_meld`), so reading it anew (``J R4 R5`` written
    ``R4 R5 J``) is a change of the table.
    """
    # Y1 (黄1) is the standard game's orange, as in solve
    rack = rules.in_game((rack,))[0]
    table_before, table_after = rules.in_game(table_before), rules.in_game(table_after)
    problems: list[Problem] = []
    for tiles in (*table_before, *table_after, rack):
        for tile in tiles:
            try:
                rules.check_tile(tile)
            except MeldwiseError as error:
                return Verdict(False, (), (Problem(None, str(error)),))
    for index, tiles in enumerate(table_after):
        if not readings(tiles, rules):
            problems.append(Problem(index, _invalid(tiles, rules)))

    before = _count(table_before)
    after = _count(table_after)
    for tile, missing in sorted((before - after).items()):
        problems.append(
            Problem(
                None,
                _n(
                    "{tile} from the table went missing",
                    "{n}x {tile} from the table went missing",
                    missing,
                    tile=spell(tile),
                ),
            )
        )
    played = after - before
    for tile, extra in sorted((played - Counter(rack)).items()):
        problems.append(
            Problem(
                None,
                _n(
                    "{tile} played but not on the rack",
                    "{n}x {tile} played but not on the rack",
                    extra,
                    tile=spell(tile),
                ),
            )
        )
    if not played and (must_place or _sets(table_after, rules) != _sets(table_before, rules)):
        # A player whose rack is empty has gone out: there is nothing to draw for.
        problems.append(
            Problem(
                None,
                _("a play must place at least one tile from the rack; draw instead")
                if rack
                else _("a play must place at least one tile from the rack, and the rack is empty"),
            )
        )

    if not opened:
        problems += _opening_problems(table_before, table_after, bool(played), rules)
    elif rules.replace_jokers and _jokers_readable(table_before, table_after, rules):
        laid = bool(played & Counter(rack))
        problems += joker_retrieval_problems(table_before, table_after, laid, rules)
    return Verdict(not problems, tuple(sorted(played.elements())), tuple(problems))


def _jokers_readable(before: TileSets, after: TileSets, rules: Rules) -> bool:
    """Whether the joker rule can be judged beside the other problems of a move: not
    when a set after that is no valid set holds a joker (where it stands cannot be
    read) or a numbered tile of a table set that held one (whether the tile a joker
    stood for is in its place, or the set's tiles where they were, cannot be read)."""
    held = {t for tiles in before if any(t.is_joker for t in tiles) for t in tiles}
    return not any(
        held.intersection(tiles) or any(t.is_joker for t in tiles)
        for tiles in after
        if read_meld_or_none(tiles, rules) is None
    )


def joker_retrieval_problems(
    before: TileSets, after: TileSets, played: bool, rules: Rules
) -> list[Problem]:
    """Under ``joker_retrieval: "replace"``: each table set holding a joker goes on as
    a set of its own in the table after, keeping a numbered tile where it was, and each
    of its jokers stays there or has the tile it stood for in its place (in a group: a
    numbered tile of a colour the group lacked); a joker leaves only in a turn that
    plays a rack tile (which :func:`check_play` asks of any turn that changes the table).
    Reported for each set that no such set after can carry on.

    Each set, before and after, is taken as it reads (:func:`read_meld`: the tile a
    bracket gives a joker, else the run written low to high, a bracketed joker at its
    tile's place, else the reading worth most: ``J(R3) R2 J`` is R2 R3 R4), as the
    turns after read it: ``J R4 R5`` (the joker is R3) written anew as ``R4 R5 J``
    moves the joker to R6 without R3 taking its place, a re-reading the rule forbids
    (the next turn R6 could take it).

    :func:`check_play` asks it of an opened player's move whose jokers it can read
    (:func:`_jokers_readable`), beside its other problems; on its own it judges
    the joker rule for a table after that need not hold every tile (a repair's most
    tiles that fit), with ``played`` saying whether a tile not in ``before`` is laid.
    None under ``"free"``."""
    if not rules.replace_jokers:
        return []
    held = [i for i, tiles in enumerate(before) if any(t.is_joker for t in tiles)]
    if not held:
        return []
    after_readings = [read_meld_or_none(tiles, rules) for tiles in after]
    melds = [read_meld(before[index], rules) for index in held]
    partners = []
    for meld in melds:
        options = []
        for j, reading in enumerate(after_readings):
            taken = None if reading is None else jokers_taken(meld, reading)
            if taken is not None and (played or taken == 0):
                options.append(j)
        partners.append(options)
    return [_joker_problem(held[k], before[held[k]], melds[k]) for k in _unmatched(partners)]


def _joker_problem(index: int, tiles: Sequence[Tile], meld: Meld) -> Problem:
    """The problem of table set ``index`` (``tiles``, read as ``meld``) that no set
    after carries on with its jokers where they stood: a run's names what each
    joker stood for."""
    if meld.kind is MeldKind.RUN:
        meant = [m for t, m in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker]
        return Problem(
            None,
            _n(
                "table set {index} ({tiles}): its joker stood for {meant} and can leave that "
                "place only for {meant}, under joker_retrieval 'replace', in a turn that "
                "plays a rack tile",
                "table set {index} ({tiles}): its jokers stood for {meant} and can leave "
                "those places only for those tiles, under joker_retrieval 'replace', in a "
                "turn that plays a rack tile",
                len(meant),
                index=index,
                tiles=format_written(tiles),
                meant=listed(spell(m) for m in meant),
            ),
        )
    # Said of where the jokers stood, as a run's is: "lost a joker" was said too of a
    # group whose jokers are all still there, read anew as a run (J J K7).
    return Problem(
        None,
        _n(
            "table set {index} ({tiles}): its joker stood in the group of {number}s and can"
            " leave it only for a tile of a colour the group lacked, under joker_retrieval"
            " 'replace', in a turn that plays a rack tile",
            "table set {index} ({tiles}): its jokers stood in the group of {number}s and can"
            " leave it only for tiles of colours the group lacked, under joker_retrieval"
            " 'replace', in a turn that plays a rack tile",
            meld.jokers,
            index=index,
            tiles=format_written(tiles),
            number=meld.stands_for[0].number,
        ),
    )


def jokers_taken(old: Meld, new: Meld) -> int | None:
    """How many of ``old``'s jokers leave it when it goes on as ``new`` (each replaced
    by the tile it stood for), or None when ``new`` cannot carry ``old`` on so: a set
    of another kind, colour or number, with none of ``old``'s numbered tiles where they
    were, or a joker neither there nor replaced."""
    if old.kind is not new.kind or not new.tiles:
        return None
    naturals = [t for t in old.tiles if not t.is_joker]
    if old.kind is MeldKind.RUN:
        at = {meant.number: tile for tile, meant in zip(new.tiles, new.stands_for, strict=True)}
        if old.stands_for[0].colour != new.stands_for[0].colour:
            return None
        if not any(at.get(t.number) == t for t in naturals):
            return None
        taken = 0
        for tile, meant in zip(old.tiles, old.stands_for, strict=True):
            if tile.is_joker:
                there = at.get(meant.number)
                if there is None:
                    return None
                taken += not there.is_joker
        return taken
    if old.stands_for[0].number != new.stands_for[0].number:
        return None
    if not any(t in new.tiles for t in naturals):
        return None
    colours = {t.colour for t in naturals}
    fresh = sum(1 for t in new.tiles if not t.is_joker and t.colour not in colours)
    if old.jokers > new.jokers + fresh:
        return None
    return max(0, old.jokers - new.jokers)


def _unmatched(partners: list[list[int]]) -> list[int]:
    """The left nodes a maximum matching leaves out (``partners[i]``: the right nodes
    left node ``i`` may take), by augmenting paths."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in partners[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return [i for i in range(len(partners)) if not augment(i, set())]


def _opening_problems(
    before: TileSets, after: TileSets, played: bool, rules: Rules
) -> list[Problem]:
    """Before opening every old set stays as it is (moving, splitting or joining
    sets is touching the table, even with nothing played; under ``joker_retrieval:
    "replace"`` so is reading a run's joker anew, ``J R4 R5`` written ``R4 R5 J``),
    and the new sets, when there are any, reach the threshold."""
    problems: list[Problem] = []
    unmatched = _sets(after, rules)
    for index, tiles in enumerate(before):
        key = _read_key(tiles, rules)
        if unmatched[key] > 0:
            unmatched[key] -= 1
        else:
            problems.append(
                Problem(
                    None,
                    _(
                        "table set {index} ({tiles}) was changed, but a player who has not"
                        " opened may not touch the table",
                        index=index,
                        tiles=format_written(tiles),
                    ),
                )
            )
    if problems or not played:
        return problems
    # Sets of the same tiles are one set as far as the table goes (under "replace" a
    # run's reading is part of that), so which of them are the new ones is the
    # player's to say: the ones worth most, wherever the table lists them.
    # (value, index): an invalid set is worth -1, counted only when nothing else is.
    worth: dict[tuple[tuple[Tile, ...], tuple[Tile, ...]], list[tuple[int, int]]] = {}
    for index, tiles in enumerate(after):
        key = _read_key(tiles, rules)
        if unmatched[key] > 0:
            worth.setdefault(key, []).append((_opening_value(tiles, rules), index))
    value = 0
    for key, found in worth.items():
        for set_value, index in sorted(found, reverse=True)[: unmatched[key]]:
            if set_value < 0:
                return [Problem(index, _("an opening is made of valid sets only"))]
            value += set_value
    if value < rules.opening_threshold:
        problems.append(
            Problem(
                None,
                _(
                    "the opening is worth {value} points, under the {needed} needed",
                    value=value,
                    needed=rules.opening_threshold,
                ),
            )
        )
    return problems


def _opening_value(tiles: Sequence[Tile], rules: Rules) -> int:
    """What ``tiles`` count towards an opening, or -1 when they are no set. Under
    "replace" the table keeps each joker where it reads it, so the opening counts that
    reading: ``J R4 R5`` (the joker R3) is worth 12, not the 15 of R4 R5 R6, which the
    next turn would not let it be."""
    try:
        return read_meld(tiles, rules).value if rules.replace_jokers else best_value(tiles, rules)
    except InvalidMeld:
        return -1


def meld_problem(meld: Meld, rules: Rules) -> str | None:
    """Why a laid-out set is wrong (its tiles, kind and ``stands_for`` disagree or
    break the rules), or None when it is a valid set read correctly."""
    if len(meld.tiles) != len(meld.stands_for):
        return _("{set}: tiles and readings differ in length", set=format_tiles(meld.tiles))
    for tile, meant in zip(meld.tiles, meld.stands_for, strict=True):
        if meant.is_joker or (not tile.is_joker and tile != meant):
            return _(
                "{set}: {tile} cannot stand for {meant}",
                set=meld,
                tile=spell(tile),
                meant=spell(meant),
            )
        try:
            rules.check_tile(meant)
        except MeldwiseError as error:
            return f"{meld}: {error}"
    if all(tile.is_joker for tile in meld.tiles):
        return _("{set}: a set needs at least one numbered tile", set=meld)
    if meld.jokers > rules.max_jokers_per_set:
        return _n(
            "{set}: a set holds at most {n} joker (rule 'max_jokers_per_set')",
            "{set}: a set holds at most {n} jokers (rule 'max_jokers_per_set')",
            rules.max_jokers_per_set,
            set=meld,
        )
    size = len(meld.tiles)
    first = meld.stands_for[0]
    if meld.kind is MeldKind.RUN:
        assert first.colour is not None
        expected = [
            Tile.natural(first.colour, rules.run_number(first.number + i)) for i in range(size)
        ]
        if list(meld.stands_for) != expected or not rules.min_set_len <= size <= rules.numbers:
            if rules.wrap_runs:
                return _(
                    "{set}: not a run read from its start, round from the top number to 1", set=meld
                )
            return _("{set}: not a run read low to high", set=meld)
    else:
        colours = {t.colour for t in meld.stands_for}
        numbers = {t.number for t in meld.stands_for}
        if len(numbers) != 1 or len(colours) != size:
            return _("{set}: not a group of one number in distinct colours", set=meld)
        if not rules.min_set_len <= size <= rules.max_group_len:
            return _(
                "{set}: a group has {least} to {most} tiles",
                set=meld,
                least=rules.min_set_len,
                most=rules.max_group_len,
            )
    return None


def _invalid(tiles: Sequence[Tile], rules: Rules) -> str:
    # Not inside the f-string: message extraction does not look there, so "empty set"
    # had no Japanese entry and a Japanese answer said it in English.
    written = format_written(tiles) or _("empty set")
    return f"{written}: {why_not_a_set(tiles, rules)}"


def _count(sets: TileSets) -> Counter[Tile]:
    counts: Counter[Tile] = Counter()
    for tiles in sets:
        counts.update(tiles)
    return counts


def _key(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles))


def _read_key(tiles: Sequence[Tile], rules: Rules) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """:func:`_key`, and under ``joker_retrieval: "replace"`` for a run holding a
    joker what its tiles stand for as the table reads them (:func:`read_meld`): that
    reading is then part of the table (a group's jokers are not told apart, as in
    :func:`jokers_taken`)."""
    if not rules.replace_jokers or not any(t.is_joker for t in tiles):
        return _key(tiles), ()
    meld = read_meld_or_none(tiles, rules)
    if meld is None or meld.kind is not MeldKind.RUN:
        return _key(tiles), ()
    return _key(tiles), meld.stands_for


def _sets(sets: TileSets, rules: Rules) -> Counter[tuple[tuple[Tile, ...], tuple[Tile, ...]]]:
    """The sets as a multiset, each set's tiles in any order (with, under
    ``joker_retrieval: "replace"``, a run's reading, see :func:`_read_key`)."""
    return Counter(_read_key(tiles, rules) for tiles in sets)
