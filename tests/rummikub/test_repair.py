"""Table repair: the verdict, the fewest tiles left out and the rescue equal an
independent exhaustive search on small variants; arrangements are legal, and the
steps replay from the messy table."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, event, given, note, settings, target
from hypothesis import strategies as st

import solver.rummikub.repair as repair_module
from meldwise.cli import main
from solver import repair_rummikub, solve_rummikub, validate_rummikub
from solver.errors import MeldwiseError
from solver.rummikub import Limit, Objective, Position, Rules, Status, Tile, parse_tiles
from solver.rummikub.deal import full_set
from solver.rummikub.layout import PlacedSet
from solver.rummikub.legality import check_play, joker_retrieval_problems, meld_problem
from solver.rummikub.melds import MeldKind, read_meld, readings
from solver.rummikub.repair import (
    _fewest_left_out,
    _Found,
    _from_heaps,
    _penalty,
    consequence,
    repair,
)
from tests.rummikub.disruption_oracle import disruption_oracle_for
from tests.rummikub.oracle import Oracle, oracle_for
from tests.rummikub.replay import replay, table_of
from tests.rummikub.strategies import claimed_moves, examples, positions, small_rules, variants


@st.composite
def messy_tables(draw: st.DrawFn, rules: Rules, before: bool | None = None) -> dict[str, Any]:
    """A repair request: a legal position's table (the table before the turn),
    with some rack tiles laid down and some table tiles moved, then the whole cut
    into heaps anywhere; the table before (unless ``before`` says) and the rack left
    are given or not."""
    position = draw(positions(rules, max_sets=3, max_rack=4, opened=True))
    rack = list(position.rack)
    chosen = draw(st.sets(st.integers(0, len(rack) - 1))) if rack else set()
    strays = [rack.pop(i) for i in sorted(chosen, reverse=True)]
    tiles = [t for tiles in position.table for t in tiles]
    if draw(st.booleans()):  # scramble everything
        heap = list(draw(st.permutations(tiles + strays)))
        table: list[list[Tile]] = []
        while heap:
            size = draw(st.integers(1, len(heap)))
            table.append(heap[:size])
            heap = heap[size:]
    else:  # strays on the sets, or a heap of their own
        table = [list(s) for s in position.table]
        for tile in strays:
            spot = draw(st.integers(0, len(table)))
            if spot == len(table):
                table.append([])
            table[spot].append(tile)
    request: dict[str, Any] = {
        "table": [[t.written for t in tiles] for tiles in table if tiles],
        "rules": rules.to_dict(),
        "time_limit_ms": 20_000,
    }
    if draw(st.booleans()) if before is None else before:
        request["table_before"] = [[t.written for t in tiles] for tiles in position.table]
    if draw(st.booleans()):
        request["rack"] = [t.written for t in rack]
        request["objective"] = draw(st.sampled_from(["tiles", "points"]))
    return request


def _tiles(sets: list[list[str]]) -> Counter[Tile]:
    return Counter(Tile.parse(t) for tiles in sets for t in tiles)


def _check_sets(table: list[dict[str, Any]], rules: Rules) -> None:
    for meld in table:
        tiles = [Tile.parse(t) for t in meld["tiles"]]
        assert readings(tiles, rules), meld


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=variants())
def test_repair_matches_exhaustive_search(data: st.DataObject, rules: Rules) -> None:
    """Whether the table can be repaired, and else the fewest tiles left out, equal an
    exhaustive search; the arrangement holds the table's tiles in valid sets (every
    one when repairable) and the steps replay to it from the mess; it is as close to
    the table before as the exhaustive least disruption; the rescue plays the best
    there is, or there is none."""
    request = data.draw(messy_tables(rules))
    note(request)
    _check_repair(request, rules)


def _replacing(rules: Rules) -> Rules:
    """``rules`` under ``joker_retrieval: "replace"``, with a joker at least."""
    return dataclasses.replace(rules, joker_retrieval="replace", jokers=max(rules.jokers, 1))


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(data=st.data(), rules=small_rules(max_numbers=5, max_colours=3).map(_replacing))
def test_repair_under_replace_matches_exhaustive_search(data: st.DataObject, rules: Rules) -> None:
    """The same under ``joker_retrieval: "replace"``, the table before given and holding
    a joker: a table beyond repair leaves out the fewest tiles an exhaustive search
    leaves out with every table joker in its set or replaced by the tile it stands for
    (not the fewest with jokers free), and its arrangement keeps that rule."""
    request = data.draw(messy_tables(rules, before=True))
    assume(any(t == "J" for tiles in request["table_before"] for t in tiles))
    note(request)
    _check_repair(request, rules)


def _check_repair(request: dict[str, Any], rules: Rules) -> None:
    answer = repair_rummikub(request)
    oracle = oracle_for(rules)
    now = _tiles(request["table"])
    before = request.get("table_before")
    assert answer["status"] == "optimal"
    assert answer["repairable"] == _fits(oracle, now, before, Counter())
    event(f"repairable: {answer['repairable']}, table before: {'table_before' in request}")

    arranged = answer["arrangement"]
    _check_sets(arranged["table"], rules)
    left_out = Counter(Tile.parse(t) for t in arranged["left_out"])
    placed = _tiles([m["tiles"] for m in arranged["table"]])
    assert placed + left_out == now
    assert bool(left_out) != answer["repairable"]
    most = oracle.most_placed(tuple(sorted(now.items())))
    new = [_written(m) for m in arranged["table"]]
    if before is not None and rules.joker_retrieval == "replace":
        # The joker rule holds (the checker, and the oracle's own judge): every table
        # joker stays in its set or has the tile it stands for in its place, and
        # leaves only when a tile is laid down. The fewest left out are counted so.
        old = [parse_tiles(s) for s in before]
        laid = bool(placed - _tiles(before))
        assert joker_retrieval_problems(old, new, laid, rules) == []
        # So does the table as the steps leave it, each joker where it lies.
        lies = _as_the_steps_leave_it(request["table"], arranged)
        assert joker_retrieval_problems(old, lies, laid, rules) == []
        assert disruption_oracle_for(rules).replace_judges(old, new, laid)
        held = disruption_oracle_for(rules).most_placed_from(old, now)
        # Steer the search to where the joker rule changes the count: the case found.
        target(float(most - held), label="tiles the joker rule leaves out")
        if held < most:
            event("beyond repair: fewer tiles fit than with jokers free")
        most = held
    assert left_out.total() == now.total() - most
    # A set no step lays out is read as it lies (a joker where it lies, not where the
    # table before had it), each tile standing for the same in its heap's reading.
    lies = _as_the_steps_leave_it(request["table"], arranged)
    for meld, tiles in zip(arranged["table"], lies, strict=True):
        reading = read_meld(tiles, rules)
        answered = read_meld(_written(meld), rules)
        assert reading.kind is answered.kind, (meld, tiles)
        if reading.kind is MeldKind.RUN:
            assert reading.stands_for == answered.stands_for, (meld, tiles)
    sets, used = replay(
        request["table"], [], arranged["steps"], Counter(str(t) for t in left_out.elements())
    )
    assert sets == table_of(arranged["table"])
    assert not used

    if answer["repairable"]:
        assert answer["penalty"] is None
        if before is not None:
            strays = tuple((now - _tiles(before)).elements())
            table_before = tuple(tuple(parse_tiles(s)) for s in before)
            # No tile added to the table before (its own tiles moved about): the repair
            # lays none, which is no play ("a play must place at least one tile").
            assert not strays or check_play(strays, table_before, new, True, rules).legal
        if before is not None and arranged["disruption_proven"]:
            position = Position(strays, table_before)
            best = disruption_oracle_for(rules).least_disruption(position, Objective.TILES)
            assert (arranged["sets_kept"], -arranged["tiles_moved"]) == best
    else:
        penalty = answer["penalty"]
        assert penalty["tiles"] == rules.penalty_tiles
        if before is not None:
            assert penalty["restore"] == before
            assert Counter(map(Tile.parse, penalty["back_to_rack"])) == now - _tiles(before)
        else:
            assert Counter(map(Tile.parse, penalty["to_pool"])) == left_out

    if "rack" in request:
        _check_rescue(request, answer["rescue"], rules, now)
    else:
        assert answer["rescue"] is None


def _written(meld: dict[str, Any]) -> list[Tile]:
    """An answer's set as a table writes it: each joker with the tile it stands for
    (``J(R1)``, as the command line writes it), so the set reads as the answer reads
    it (a plain ``J B1`` reads as the run B1 B2, not the group of 1s)."""
    return parse_tiles(
        " ".join(
            f"J({a})" if t == "J" else t for t, a in zip(meld["tiles"], meld["as"], strict=True)
        )
    )


def _fits(
    oracle: Oracle, now: Counter[Tile], before: list[list[str]] | None, played: Counter[Tile]
) -> bool:
    """Whether a legal turn places the table now and ``played``: with the table before
    known, a turn from it that plays every other tile (the joker rule applies);
    without, every tile fits into valid sets."""
    if before is None:
        return oracle.fits(now + played)
    old = tuple(tuple(parse_tiles(s)) for s in before)
    laid = now - _tiles(before) + played
    return oracle.can_play(Position(tuple(laid.elements()), old), laid)


def _check_rescue(
    request: dict[str, Any], rescue: dict[str, Any], rules: Rules, now: Counter[Tile]
) -> None:
    oracle = oracle_for(rules)
    objective = Objective(request["objective"])
    rack = [Tile.parse(t) for t in request["rack"]]
    before = request.get("table_before")
    keys = [
        oracle.key(played, objective)
        for played in _sub_multisets(Counter(rack))
        if _fits(oracle, now, before, played)
    ]
    assert rescue["status"] == "optimal"
    play = rescue["play"]
    event(f"rescue: {bool(keys)}")
    if not keys:
        assert play is None
        return
    played = Counter(Tile.parse(t) for t in play["played"])
    assert oracle.key(played, objective) == max(keys)
    _check_sets(play["table"], rules)
    if before is not None:
        laid = list((now - _tiles(before)).elements()) + rack
        after = [_written(m) for m in play["table"]]
        assert check_play(laid, [parse_tiles(s) for s in before], after, True, rules).legal
    assert _tiles([m["tiles"] for m in play["table"]]) == now + played
    sets, used = replay(request["table"], request["rack"], play["steps"])
    assert sets == table_of(play["table"])
    assert used == Counter(play["played"])


def _sub_multisets(counts: Counter[Tile]) -> list[Counter[Tile]]:
    found: list[Counter[Tile]] = [Counter()]
    for tile, count in counts.items():
        found = [c + Counter({tile: n}) for c in found for n in range(count + 1)]
    return found


def test_a_worked_repair() -> None:
    """The worked example of docs/repair.md: a run broken in two, a group robbed of a tile."""
    answer = repair_rummikub(
        {
            "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
            "table_before": [["R3", "B3", "K3", "O3"]],
        }
    )
    assert answer["repairable"] is True
    assert [m["tiles"] for m in answer["arrangement"]["table"]] == [
        ["R1", "R2", "R3", "R4", "R5"],
        ["B3", "K3", "O3"],
    ]
    assert answer["arrangement"]["tiles_moved"] == 1


def test_beyond_repair_restores_the_table_before() -> None:
    answer = repair_rummikub(
        {"table": [["R1", "R2", "R3", "B9"]], "table_before": [["R1", "R2", "R3"]]}
    )
    assert answer["repairable"] is False
    assert answer["arrangement"]["left_out"] == ["B9"]
    assert answer["penalty"]["restore"] == [["R1", "R2", "R3"]]
    assert answer["penalty"]["back_to_rack"] == ["B9"]
    assert "draws 3 penalty tiles" in answer["penalty"]["text"]


@pytest.mark.parametrize("rule", ["free", "replace"])
def test_beyond_repair_restores_each_joker_where_the_table_before_had_it(rule: str) -> None:
    # restore wrote R5 R6 J(R4) as R5 R6 J, which reads the joker as R7: pasted back,
    # another table than the one before (under "replace" the R7 could then take it).
    before = [["R5", "R6", "J(R4)"], ["J(K9)", "K10", "K11"]]
    rules = Rules(joker_retrieval=rule)
    answer = repair_rummikub(
        {"table": [*before, ["B1"]], "table_before": before, "rules": rules.to_dict()}
    )
    assert answer["repairable"] is False
    restored = answer["penalty"]["restore"]
    assert [read_meld(parse_tiles(s), rules).stands_for for s in restored] == [
        read_meld(parse_tiles(s), rules).stands_for for s in before
    ]


REVIEWED = {
    "table": [["B3", "B6"], ["O10", "R10", "B5"], ["B4", "J", "B2", "B3", "K10"]],
    "table_before": [["J", "O10", "R10", "K10"], ["B2", "B3", "B4", "B5", "B6"]],
    "rules": {"joker_retrieval": "replace"},
}
"""Found by review: a second B3 laid down, the joker of the group of 10s taken to the
blue run. With jokers free every tile fits (J B2 B3, B3 B4 B5 B6, R10 K10 O10); under
"replace" the joker leaves only for B10, which is not there."""


def test_beyond_repair_under_replace_leaves_the_joker_in_its_set() -> None:
    """The most tiles that fit were once counted with jokers free: the answer said the
    table cannot be repaired, left out no tile and moved the joker without its tile.
    Under the rule only the B3 laid down is left out, the table before as it was."""
    answer = repair_rummikub(REVIEWED)
    assert answer["status"] == "optimal"
    assert answer["repairable"] is False
    arranged = answer["arrangement"]
    assert arranged["left_out"] == ["B3"]
    assert [sorted(m["tiles"]) for m in arranged["table"]] == [
        sorted(s) for s in REVIEWED["table_before"]
    ]
    assert (arranged["sets_kept"], arranged["tiles_moved"]) == (2, 0)
    before = [parse_tiles(s) for s in REVIEWED["table_before"]]
    after = [_written(m) for m in arranged["table"]]
    rules = Rules(joker_retrieval="replace")
    assert check_play(parse_tiles("B3"), before, after, True, rules).legal
    assert answer["penalty"]["back_to_rack"] == ["B3"]
    free = repair_rummikub({**REVIEWED, "rules": {}})
    assert free["repairable"] is True


@pytest.mark.parametrize("rule", ["free", "replace"])
def test_beyond_repair_keeps_the_table_before_when_no_tile_laid_down_fits(rule: str) -> None:
    """The model of the most tiles that fit has every tile on its rack, so it cannot
    tell a tile laid down from a table tile: with no tile laid down placed (B9 fits
    nowhere) it may move the joker for R3 (R1 R2 R3 J, B3 K3 O3), which "replace"
    forbids in a turn that lays nothing down. The least-disruption stage never
    chooses that; given no work, the score stage alone did. An arrangement that holds
    no more tiles than the table before gives way to the table before, every set kept."""
    before = [parse_tiles("R1 R2 J"), parse_tiles("R3 B3 K3 O3")]
    found = repair(
        [*before, parse_tiles("B9")],
        Rules(joker_retrieval=rule),
        before,
        limit=Limit(disruption_work=0.0),
    )
    assert found.status is Status.OPTIMAL
    arranged = found.arrangement
    assert arranged is not None
    assert arranged.left_out == (Tile.parse("B9"),)
    assert [list(m.tiles) for m in arranged.table] == before
    assert (arranged.sets_kept, arranged.tiles_moved) == (2, 0)
    assert arranged.disruption_proven


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"table": [["R1", "Q2"]]}, "unknown tile 'Q2'"),
        ({"table": [["R1"]], "table_before": [["R1", "R2"]]}, "table_before: table set 0"),
        (
            {"table": [["R1", "R2", "R3"]], "table_before": [["R1", "R2", "R3"], []]},
            "table_before: table set 1",
        ),
        (
            {"table": [["R1", "R2"]], "table_before": [["R1", "R2", "R3"]]},
            "table_before holds R3, which the table now lacks",
        ),
        ({"table": [["R1", "R1", "R1"]]}, "too many copies of R1"),
        ({"table": [], "bogus": 1}, "unknown field 'bogus'"),
    ],
)
def test_bad_repair_requests_name_the_culprit(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(MeldwiseError, match=message):
        repair_rummikub(request_)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_too_many_copies_with_no_rack_are_said_to_be_on_the_table(lang: str) -> None:
    # "3 across rack and table" was said of a request with no rack, naming no field.
    for tiles, said in ((["R1", "R1", "R1"], "R1"), (["J", "J", "J", "R1"], "(J)")):
        with pytest.raises(MeldwiseError) as raised:
            repair_rummikub({"table": [tiles], "lang": lang})
        text = str(raised.value)
        assert said in text
        assert ("across rack and table" in text) is False
        assert raised.value.places == ((("table",), "table"),)
        assert "table" in text
    with pytest.raises(MeldwiseError, match="3 across rack and table") as raised:
        repair_rummikub({"table": [["R1", "R1"]], "rack": ["R1"]})


def test_library_repair_on_typed_values() -> None:
    table = [parse_tiles("R1 R2"), parse_tiles("R3")]
    answer = repair(table, Rules(), rack=parse_tiles("R4"))
    assert answer.status is Status.OPTIMAL
    assert answer.repairable
    assert answer.rescue is not None
    assert answer.rescue.tiles_played == 1
    for meld in answer.arrangement.table if answer.arrangement else ():
        assert meld_problem(meld, Rules()) is None


@pytest.mark.variants
@settings(max_examples=examples(150))
@given(data=st.data(), rules=small_rules())
def test_an_illegal_moves_consequence_matches_exhaustive_search(
    data: st.DataObject, rules: Rules
) -> None:
    """validate's consequence: an illegal move can be put right exactly when a legal
    move from the table before places every tile laid down from the rack (the
    exhaustive oracle, which knows the opening and the joker rules), else the
    penalty sends those tiles back to the rack."""
    position = data.draw(positions(rules))
    after = data.draw(claimed_moves(position, rules))
    request = {
        "rack": [t.written for t in position.rack],
        "table_before": [[t.written for t in s] for s in position.table],
        "table_after": [[t.written for t in s] for s in after],
        "opened": position.opened,
        "rules": rules.to_dict(),
    }
    note(request)
    try:
        answer = validate_rummikub(request)
    except MeldwiseError:
        assume(False)  # a joker from nowhere, beyond the game's: not a real game
    found = answer["consequence"]
    if answer["legal"]:
        assert found is None
        return
    table = Counter(t for s in position.table for t in s)
    laid = (Counter(t for s in after for t in s) - table) & Counter(position.rack)
    turn = Position(tuple(laid.elements()), position.table, position.opened)
    repairable = oracle_for(rules).can_play(turn, laid)
    assert found["status"] == "optimal"
    assert found["repairable"] == repairable
    assert found["penalty_tiles"] == (0 if repairable else rules.penalty_tiles)
    assert Counter(map(Tile.parse, found["back_to_rack"])) == (Counter() if repairable else laid)
    event(f"repairable: {repairable}, opened: {position.opened}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_table_moved_with_no_tile_laid_is_not_said_to_fit_its_laid_tiles(lang: str) -> None:
    """validate said "the tiles laid down fit into a legal move" beside "Tiles laid
    down: (none)" for a table split with no rack tile laid: a sentence about tiles
    there were none of. It says the table can go back as it was."""
    request = {
        "rack": ["R9"],
        "table_before": [["R1", "R2", "R3", "R4", "R5", "R6"]],
        "table_after": [["R1", "R2", "R3"], ["R4", "R5", "R6"]],
        "lang": lang,
    }
    answer = validate_rummikub(request)
    assert answer["played"] == []
    found = answer["consequence"]
    assert found["repairable"]
    assert found["back_to_rack"] == []
    said = {
        "en": "The move can still be put right: no tile was laid down from the rack, so the "
        "table can go back to how it was before the turn.",
        "ja": "まだ直せます。手持ちから出したタイルはないので、場を手番の前に戻せます。",
    }
    assert found["text"] == said[lang]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_tile_laid_from_elsewhere_is_not_said_to_fit(lang: str) -> None:
    """validate said "the tiles laid down fit into a legal move" under "Tiles laid down:
    R4 K1" when K1 was not on the rack: only R4 was fitted (a tile from elsewhere goes
    back where it came from), and K1 alone fits nowhere. It names the rack's tiles that
    fit and the others."""
    request = {
        "rack": ["R4"],
        "table_before": [["R1", "R2", "R3"]],
        "table_after": [["R1", "R2", "R3", "R4"], ["K1"]],
        "lang": lang,
    }
    answer = validate_rummikub(request)
    assert answer["played"] == ["R4", "K1"]
    found = answer["consequence"]
    assert found["repairable"]
    # Independent of the text: R4 alone fits (R1-R4), K1 alone fits nowhere.
    assert solve_rummikub({"rack": ["R4"], "table": [["R1", "R2", "R3"]]})["tiles_played"] == 1
    assert solve_rummikub({"rack": ["K1"], "table": [["R1", "R2", "R3"]]})["tiles_played"] == 0
    said = {
        "en": "The move can still be put right: the tile laid down from the rack, R4, fits "
        "into a legal move (K1 did not come from the rack).",
        "ja": "まだ直せます。手持ちから出したタイル(R4)は正しい手に収まります"
        "(K1は手持ちにありませんでした)。",
    }
    assert found["text"] == said[lang]
    both = {
        **request,
        "rack": ["R4", "R5"],
        "table_after": [["R1", "R2", "R3", "R4", "R5"], ["K1"]],
    }
    assert validate_rummikub({**both, "lang": "en"})["consequence"]["text"] == (
        "The move can still be put right: the tiles laid down from the rack, R4 R5, fit "
        "into a legal move (K1 did not come from the rack)."
    )


def test_a_table_moved_with_no_tile_laid_is_put_right_without_a_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no rack tile laid the table before is the move that puts it right: proven
    (OPTIMAL) with no search, where a solve of the empty rack was made first and its
    status, which a search cut short would leave unproven, was reported."""

    def no_solve(*_: Any, **__: Any) -> Any:
        raise AssertionError("a solve for a move that laid no tile")

    monkeypatch.setattr(repair_module, "solve", no_solve)
    before = [tuple(parse_tiles("R1 R2 R3 R4 R5 R6"))]
    after = [tuple(parse_tiles("R1 R2 R3")), tuple(parse_tiles("R4 R5 R6"))]
    found = consequence(parse_tiles("R9"), before, after, True, Rules())
    assert (found.status, found.repairable, found.penalty) == (Status.OPTIMAL, True, None)


SETTLED_OR_NOT = [
    # (table, table before): one that can be repaired, and three that cannot.
    ([["R1", "R2"], ["R3", "B5", "K5"], ["R5"]], None),
    ([["R1", "R2", "R3", "B9"]], None),
    ([["R1", "R2", "R3", "B9"]], [["R1", "R2", "R3"]]),
    ([["R1", "R2"], ["R3", "B3", "K3"]], [["R3", "B3", "K3"]]),
]
"""Small tables under :data:`SMALL`, checked by the exhaustive oracle."""

SMALL = Rules(colours=3, numbers=9, copies=1, jokers=0)


@pytest.mark.parametrize(("table", "before"), SETTLED_OR_NOT)
def test_repairable_is_null_when_the_search_was_cut_and_false_only_when_proven(
    monkeypatch: pytest.MonkeyPatch, table: list[list[str]], before: list[list[str]] | None
) -> None:
    """``repairable`` says what is known: true (an arrangement found), false (proven that
    none exists: the exhaustive oracle agrees) or null (the search stopped first). A
    search cut by its work said false, as if no arrangement existed, for tables that
    can be repaired as well as for those that cannot."""
    request: dict[str, Any] = {"table": table, "rules": SMALL.to_dict()}
    if before is not None:
        request["table_before"] = before
    truth = _fits(oracle_for(SMALL), _tiles(table), before, Counter())
    settled = repair_rummikub(request)
    assert (settled["status"], settled["repairable"]) == ("optimal", truth)
    # No work for any search: nothing is settled, and nothing is claimed.
    monkeypatch.setattr(repair_module, "SCORE_WORK", 0.0)
    sets = [tuple(parse_tiles(" ".join(s))) for s in table]
    old = None if before is None else [tuple(parse_tiles(" ".join(s))) for s in before]
    cut = repair(sets, SMALL, old, limit=Limit(disruption_work=0.0))
    assert (cut.status, cut.repairable, cut.penalty) == (Status.UNKNOWN, None, None)
    if before is None:  # no set to keep: the wire's request runs the score stage alone
        answer = repair_rummikub(request)
        assert (answer["status"], answer["repairable"], answer["penalty"]) == (
            "unknown",
            None,
            None,
        )


def test_a_consequence_the_work_bound_stopped_does_not_blame_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The score stage stops at its deterministic work bound as well as at the clock;
    with no work to spend the answer is unknown, and it said "Could not find out in
    time" though no clock ran out (found by the walk under load)."""
    monkeypatch.setattr("solver.rummikub.search.SCORE_WORK", 0.0)
    before = [tuple(parse_tiles("R1 R2 R3"))]
    after = [tuple(parse_tiles("R1 R2 R3 R9"))]
    found = consequence(parse_tiles("R9"), before, after, True, Rules())
    # Not settled: null, not false (false says that the move cannot be put right).
    assert (found.status, found.repairable, found.penalty) == (Status.UNKNOWN, None, None)
    assert "in time" not in found.text
    assert found.text.startswith("The search stopped before finding out")


def test_a_joker_that_must_be_laid_takes_a_place_a_rack_tile_could_fill() -> None:
    """Found by the variant test: the loose J must be laid, and only J B2 B3 B4 (the
    joker as B1) holds it, though the rack has a B1. The model once left that joker
    place out, as if the joker could go back to the rack, and found no rescue at all."""
    request = {
        "table": [["R1"], ["R2"], ["R3"], ["R4"], ["J"], ["B2"], ["B3", "B4"]],
        "rules": {"colours": 2, "numbers": 4, "copies": 1, "jokers": 1},
        "rack": ["B1"],
    }
    answer = repair_rummikub(request)
    assert answer["repairable"]
    assert answer["rescue"]["status"] == "optimal"
    assert answer["rescue"]["play"]["played"] == []  # with B1 laid the joker has no place


def test_repair_steps_leave_a_kept_set_where_it_lies() -> None:
    # The greedy match of new sets to heaps (largest overlap first) carried the run
    # R1-R7 on from the first heap and took all of R5 R6 R7, a set reported kept whole:
    # 6 tiles picked up where 5 do.
    answer = repair_rummikub(
        {"table": [["R1", "R2", "R3", "R4", "B9", "K9", "O9"], ["R5", "R6", "R7"], ["R9"]]}
    )
    steps = answer["arrangement"]["steps"]
    taken = [t for step in steps if step["action"] == "take" for t in step["tiles"]]
    assert sorted(taken) == ["R1", "R2", "R3", "R4", "R9"]
    assert answer["arrangement"]["sets_kept"] == 1


@settings(max_examples=examples(100), deadline=None)
@given(data=st.data(), rules=small_rules(max_numbers=5, max_colours=3))
def test_repair_matches_heaps_to_sets_as_an_exhaustive_search(
    data: st.DataObject, rules: Rules
) -> None:
    """Each set of the arrangement goes on from at most one heap of the table now, one
    set a heap, keeping in place as many tiles as the best of all such matchings."""
    request = data.draw(messy_tables(rules))
    note(request)
    heaps = [parse_tiles(tiles) for tiles in request["table"]]
    arranged = repair_rummikub(request)["arrangement"]
    melds = [read_meld(parse_tiles(m["tiles"]), rules) for m in arranged["table"]]
    matched = _from_heaps([PlacedSet(m, None, (), m.tiles) for m in melds], heaps)
    sets = [Counter(m.tiles) for m in melds]
    in_place = sum(len(p.stayed) for _, p in matched)
    assert in_place == _most_in_place(sets, [Counter(h) for h in heaps])


def _most_in_place(sets: list[Counter[Tile]], heaps: list[Counter[Tile]], used: int = 0) -> int:
    """The most tiles staying in their heap over every one-to-one matching of sets
    to heaps (a set may go on from none), tried one by one; ``used``: a bit per heap
    already taken."""
    if not sets:
        return 0
    first, rest = sets[0], sets[1:]
    best = _most_in_place(rest, heaps, used)
    for j, heap in enumerate(heaps):
        if not used >> j & 1:
            best = max(best, (first & heap).total() + _most_in_place(rest, heaps, used | 1 << j))
    return best


def test_the_penalty_says_a_rescue_avoids_it() -> None:
    # The penalty used to be stated flatly above a rescue that placed every tile.
    request: dict[str, Any] = {
        "table": [["R1", "R2"], ["B5", "B6", "B7"]],
        "table_before": [["B5", "B6", "B7"]],
    }
    rescued = repair_rummikub({**request, "rack": ["R3"]})
    assert rescued["rescue"]["play"]["played"] == ["R3"]
    assert rescued["penalty"]["text"].startswith(
        "Unless the rack's tiles rescue the table: No legal"
    )
    alone = repair_rummikub({**request, "rack": ["K3"]})
    assert alone["rescue"]["play"] is None
    assert alone["penalty"]["text"].startswith("No legal arrangement places every tile")


def test_a_heap_whose_brackets_fit_no_reading_is_no_set_and_gets_repaired() -> None:
    # It stopped the repair: "table set 0 (J J K7) is not a valid set" (and it was set 1).
    answer = repair_rummikub({"table": [["R1", "R2", "R3"], ["J(K5)", "J(R6)", "K7", "K8"]]})
    assert answer["repairable"] is True
    # The heap as it lies is a black run (its jokers read anew): nothing to move.
    assert [m["kind"] for m in answer["arrangement"]["table"]] == ["run", "run"]
    assert answer["arrangement"]["steps"] == []


@pytest.mark.parametrize(
    ("table", "before", "opened"),
    [
        # The joker moved from R3 to R6 at the end of the run: validate refuses that
        # table under "replace" ("its joker stood for R3"), repair said "Steps: none,
        # the table is right as it is".
        ([["R4", "R5", "J"], ["B1", "K1", "O1"]], [["J", "R4", "R5"]], True),
        # The same with a stray tile on it: "Take B9 from set 0" left R4 R5 J.
        ([["R4", "R5", "J", "B9"], ["B10", "B11"]], [["J", "R4", "R5"]], True),
        # An opening written J R9 R10 is worth 27 under "replace" (the joker is R8),
        # under the 30 needed; R9 R10 J is worth 30, and was said to be the table as it is.
        ([["J", "R9", "R10"], ["K1", "K2", "K3"]], [["K1", "K2", "K3"]], False),
    ],
)
def test_a_set_the_steps_do_not_lay_out_is_legal_where_its_jokers_lie(
    table: list[list[str]], before: list[list[str]], opened: bool
) -> None:
    rules = Rules(joker_retrieval="replace")
    request = {"table": table, "table_before": before, "opened": opened, "rules": rules.to_dict()}
    arranged = repair_rummikub(request)["arrangement"]
    assert arranged["left_out"] == []
    after = _as_the_steps_leave_it(table, arranged)
    laid = list((_tiles(table) - _tiles(before)).elements())
    check = check_play(laid, [parse_tiles(" ".join(s)) for s in before], after, opened, rules)
    assert check.legal, check.problems


def _as_the_steps_leave_it(table: list[list[str]], arranged: dict[str, Any]) -> list[list[Tile]]:
    """An arrangement's sets as its steps leave them on ``table``: a set a step adds to,
    lays down or splits is written whole by that step (as the answer reads it); any other lies
    as it was written, less the tiles taken from it (of a tile it holds more than once,
    the last ones: the steps' take keeps the first)."""
    laid_out = {step.get("to_set", step.get("set")) for step in arranged["steps"]}
    # A split's new set is a set of its own, as its step writes it.
    laid_out |= {step["new_set"] for step in arranged["steps"] if step["action"] == "split"}
    taken = {i: Counter[str]() for i in range(len(table))}
    for step in arranged["steps"]:
        if step["action"] == "take":
            taken[step["from_set"]].update(step["tiles"])
    sets = []
    for meld in arranged["table"]:
        if meld["set"] in laid_out:
            sets.append(_written(meld))
            continue
        heap = table[meld["set"]]
        staying, left = Counter(heap) - taken[meld["set"]], []
        for tile in heap:
            if staying[tile] > 0:
                staying[tile] -= 1
                left.append(tile)
        sets.append(parse_tiles(" ".join(left)))
    return sets


UNOPENED: dict[str, Any] = {
    "table": [["R10", "R11"], ["R12", "B12", "K12", "O12"], ["R13"]],
    "table_before": [["R12", "B12", "K12", "O12"]],
    "rack": ["R12", "B1"],
    "opened": False,
}
"""A player who has not opened laid R10 R11 R13 and took R12 from the group for them.
Repair judged every turn as one of a player who had opened: "repairable", the group
robbed of its R12, a move validate with ``"opened": false`` rejects ("a player who
has not opened may not touch the table"); and ``opened`` was an unknown field."""


def test_repair_for_a_player_who_has_not_opened_leaves_the_table_alone() -> None:
    answer = repair_rummikub(UNOPENED)
    assert answer["status"] == "optimal"
    assert answer["repairable"] is False
    arranged = answer["arrangement"]
    assert [m["tiles"] for m in arranged["table"]] == [["R12", "B12", "K12", "O12"]]
    assert arranged["left_out"] == ["R10", "R11", "R13"]
    assert answer["penalty"]["back_to_rack"] == ["R10", "R11", "R13"]
    # The rack's R12 makes R10-R13 (46 points) an opening of new sets alone.
    play = answer["rescue"]["play"]
    assert play["played"] == ["R12"]
    assert (play["sets_kept"], play["tiles_moved"]) == (1, 0)
    laid = parse_tiles("R10 R11 R13 R12 B1")
    before = [parse_tiles(s) for s in UNOPENED["table_before"]]
    after = [_written(m) for m in play["table"]]
    assert check_play(laid, before, after, False, Rules()).legal
    opened = repair_rummikub({**UNOPENED, "opened": True})
    assert opened["repairable"] is True  # after opening the R12 may move


def test_repair_for_a_player_who_has_not_opened_needs_the_table_before() -> None:
    with pytest.raises(MeldwiseError, match="needs the table before the turn"):
        repair_rummikub({"table": [["R10", "R11", "R12"]], "opened": False})


SMALL_FREE = Rules.from_dict(
    {"colours": 2, "numbers": 4, "copies": 1, "jokers": 2, "min_set_len": 2}
    | {"opening_threshold": 8, "max_jokers_per_set": 1}
)
"""Two colours of 1-4, sets of two, an opening of 8: ``J R4`` is the group of 4s
(8, an opening) or the run 3-4 (7, none); ``joker_retrieval`` is "free"."""


def _opening_turn(answer: dict[str, Any], request: dict[str, Any], rules: Rules) -> None:
    """``answer`` (a repair's rescue or arrangement) as written is a legal turn of a
    player who has not opened from ``request``'s table before, and no rack tile joins
    a set of the table before (that set goes on from its heap, untouched)."""
    before = [parse_tiles(" ".join(s)) for s in request["table_before"]]
    after = [_written(m) for m in answer["table"]]
    laid = tuple((_tiles(request["table"]) - _tiles(request["table_before"])).elements())
    laid += tuple(Tile.parse(t) for t in request.get("rack", ()))
    verdict = check_play(laid, before, after, False, rules)
    assert verdict.legal, verdict.problems
    kept = Counter(tuple(sorted(s)) for s in before)
    for meld in answer["table"]:
        key = tuple(sorted(Tile.parse(t) for t in meld["tiles"]))
        if kept[key] > 0:
            kept[key] -= 1
            assert meld["from_rack"] == [], meld


def test_a_rescue_before_opening_does_not_take_the_tables_joker_for_an_opening_short() -> None:
    # The player laid R4 on R3 J. The rescue laid R4 J (the rack's joker) out of the
    # table's own set: "Split set 0 before J: J R4 becomes set 1. Add your J to set
    # 0", the table's joker taken by a player who has not opened, and J R4 shown as
    # the run J(R3) R4, an opening of 7 (check_play: "the opening is worth 7 points,
    # under the 8 needed") where the model counted the group of 4s, 8.
    request = {
        "table": [["R3", "J", "R4"]],
        "table_before": [["R3", "J"]],
        "rack": ["J"],
        "opened": False,
        "rules": SMALL_FREE.to_dict(),
    }
    answer = repair_rummikub(request)
    assert answer["rescue"]["status"] == "optimal"
    _opening_turn(answer["rescue"]["play"], request, SMALL_FREE)


def test_a_set_laid_before_opening_equal_to_a_table_set_leaves_the_table_set_alone() -> None:
    # The player laid R3 R4 J, the same set as the table's R3 R4 J, which lies as
    # J(R2) R3 R4. Told apart by their melds alone, the table's set was read as one
    # of the opening (worth 9 as it lies, under the 12 the opening counted) and its
    # joker laid anew: "Take J from set 2, the red run 2-4", a table joker moved by a
    # player who has not opened, where with any other set laid the table's set is
    # answered as it lies (no step).
    request = {
        "table": [["R3", "R4"], ["J"], ["J(R2)", "R3", "R4"]],
        "table_before": [["R3", "R4", "J"]],
        "opened": False,
        "rules": {"opening_threshold": 12},
    }
    answer = repair_rummikub(request)
    assert answer["repairable"] is True
    _opening_turn(answer["arrangement"], request, Rules(opening_threshold=12))
    _table_before_untouched(request, answer["arrangement"]["steps"])
    rescue = repair_rummikub({**request, "rack": ["R5"]})["rescue"]["play"]
    _table_before_untouched(request, rescue["steps"])


def test_a_rescue_before_opening_lays_no_rack_tile_on_a_table_set_equal_to_a_new_one() -> None:
    # The player laid B1 and B2 beside the table's B1 B2 (found by the test of copied
    # sets below). The rescue's new set B1 B2 J took the table set's heap (its weight
    # tied the table set's own): "Add your J to set 1", the table's set, before opening.
    request = {
        "table": [["R1", "R2", "B2"], ["B1", "B2"], ["R1", "R2", "R3"], ["B1"]],
        "table_before": [["R1", "R2"], ["B1", "B2"], ["R1", "R2", "R3"]],
        "rack": ["J"],
        "opened": False,
        "rules": {"colours": 2, "numbers": 3, "copies": 2, "jokers": 1, "min_set_len": 2}
        | {"opening_threshold": 0},
    }
    play = repair_rummikub(request)["rescue"]["play"]
    assert play["played"] == ["J"]
    _table_before_untouched(request, play["steps"])


def test_a_copy_of_a_table_set_laid_before_opening_leaves_the_table_set_as_it_lies() -> None:
    # Under "replace" the player laid B2 J beside the table's J B2 (the run 1-2): the
    # table's set took the copy's heap (the heaps tied), so both heaps' jokers were laid
    # anew, "Take J from set 0, the blue run 1-2 ... making the group of 2s: J(R2) B2",
    # the table's joker moved by a player who has not opened.
    request = {
        "table": [["J", "B2"], ["B2", "J"], ["R1", "R2", "R3"]],
        "table_before": [["J", "B2"], ["R1", "R2", "R3"]],
        "opened": False,
        "rules": {"colours": 2, "numbers": 3, "copies": 2, "min_set_len": 2}
        | {"opening_threshold": 0, "joker_retrieval": "replace"},
    }
    answer = repair_rummikub(request)
    assert answer["repairable"] is True
    _a_turn_before_opening(request, answer["arrangement"], Counter(parse_tiles("B2 J")))


def test_a_set_laid_before_opening_is_answered_at_the_reading_the_opening_counts() -> None:
    # The player laid J R4 beside R3 J: the group of 4s, an opening of 8. The
    # arrangement answered it as it lies with its first reading, the run J(R3) R4,
    # worth 7: written so, it is no opening.
    request = {
        "table": [["R3", "J"], ["J", "R4"]],
        "table_before": [["R3", "J"]],
        "opened": False,
        "rules": SMALL_FREE.to_dict(),
    }
    answer = repair_rummikub(request)
    assert answer["repairable"] is True
    _opening_turn(answer["arrangement"], request, SMALL_FREE)


def _table_before_untouched(request: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    """No step moves a tile of a set of the table before (when each such set lies
    whole in a heap of its own of ``request``'s table; else one must be put together):
    replayed, each lies whole in a set of its own that no tile joined, the steps having
    taken only other tiles from it or split them off. Jokers are one tile here, so a
    step taking a heap's joker counts against that heap."""
    lying = {i: [Tile.parse(t) for t in heap] for i, heap in enumerate(request["table"])}
    clean = dict.fromkeys(lying, True)  # no tile joined the set
    before = [Counter(Tile.parse(t) for t in s) for s in request["table_before"]]

    def fits(sets: list[Counter[Tile]], free: set[int]) -> bool:
        if not sets:
            return True
        first, rest = sets[0], sets[1:]
        return any(
            clean[k] and not first - Counter(lying[k]) and fits(rest, free - {k}) for k in free
        )

    if not fits(before, set(lying)):
        return  # a set of the table before must be put together
    for step in steps:
        tiles = [Tile.parse(t) for t in step.get("tiles", ())]
        if step["action"] == "take":  # a take leaves the first of a tile held twice
            rest, kept = Counter(lying[step["from_set"]]) - Counter(tiles), []
            for tile in lying[step["from_set"]]:
                if rest[tile] > 0:
                    rest[tile] -= 1
                    kept.append(tile)
            lying[step["from_set"]] = kept
        elif step["action"] == "split":
            tiles, cut = lying[step["set"]], step["at_index"]
            lying[step["set"]], lying[step["new_set"]] = tiles[:cut], tiles[cut:]
            clean[step["new_set"]] = clean[step["set"]]
        else:  # add or new_set
            number = step["to_set"] if step["action"] == "add" else step["set"]
            lying[number] = lying.get(number, []) + tiles
            clean[number] = False
    assert fits(before, set(lying)), (request, steps)


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(data=st.data(), rules=variants())
def test_repair_for_a_player_who_has_not_opened_matches_exhaustive_search(
    data: st.DataObject, rules: Rules
) -> None:
    """With ``"opened": false`` the table before stays as it was: the table can be
    repaired exactly when the tiles laid down alone make an opening (the exhaustive
    oracle); beyond repair, the most tiles that fit are the table before and the
    largest opening among the tiles laid down; the rescue is the best opening that
    holds every tile laid down; every arrangement is a legal turn for that player."""
    request = {**data.draw(messy_tables(rules, before=True)), "opened": False}
    note(request)
    answer = repair_rummikub(request)
    oracle = oracle_for(rules)
    now = _tiles(request["table"])
    before = [parse_tiles(s) for s in request["table_before"]]
    strays = now - _tiles(request["table_before"])
    table = tuple(map(tuple, before))

    def opens(laid: Counter[Tile]) -> bool:
        return oracle.can_play(Position(tuple(laid.elements()), table, False), laid)

    assert answer["status"] == "optimal"
    assert answer["repairable"] == opens(strays)
    event(f"repairable: {answer['repairable']}")
    arranged = answer["arrangement"]
    left_out = Counter(Tile.parse(t) for t in arranged["left_out"])
    placed = _tiles([m["tiles"] for m in arranged["table"]])
    assert placed + left_out == now
    most = max(part.total() for part in _sub_multisets(strays) if opens(part))
    assert left_out.total() == strays.total() - most
    after = [_written(m) for m in arranged["table"]]
    laid = tuple((placed - _tiles(request["table_before"])).elements())
    assert check_play(laid, before, after, False, rules).legal
    assert (arranged["sets_kept"], arranged["tiles_moved"]) == (len(before), 0)
    sets, _used = replay(
        request["table"], [], arranged["steps"], Counter(str(t) for t in left_out.elements())
    )
    assert sets == table_of(arranged["table"])
    # Under "replace" a table set lying with its jokers elsewhere than the table before
    # had them is put back by a step (the joker's place decides the rule).
    free = rules.joker_retrieval == "free"
    if free:
        _table_before_untouched(request, arranged["steps"])
    if not answer["repairable"]:
        assert Counter(map(Tile.parse, answer["penalty"]["back_to_rack"])) == strays
    if "rack" not in request:
        return
    objective = Objective(request["objective"])
    rack = Counter(Tile.parse(t) for t in request["rack"])
    keys = [oracle.key(p, objective) for p in _sub_multisets(rack) if opens(strays + p)]
    rescue = answer["rescue"]
    assert rescue["status"] == "optimal"
    if not keys:
        assert rescue["play"] is None
        return
    play = rescue["play"]
    played = Counter(Tile.parse(t) for t in play["played"])
    assert oracle.key(played, objective) == max(keys)
    assert _tiles([m["tiles"] for m in play["table"]]) == now + played
    after = [_written(m) for m in play["table"]]
    laid = tuple((strays + rack).elements())
    assert check_play(laid, before, after, False, rules).legal
    sets, used = replay(request["table"], request["rack"], play["steps"])
    assert sets == table_of(play["table"])
    assert used == Counter(play["played"])
    if free:
        _table_before_untouched(request, play["steps"])


@st.composite
def copied_table_sets(draw: st.DrawFn) -> dict[str, Any]:
    """A repair request of a player who has not opened who laid down a copy of a
    set of the table before, on a small variant with two copies of each tile and a
    joker at least: the table set lies in its own heap, its tiles in any order and
    its jokers written with any reading of them or plain; the copy cut into heaps of
    their own or laid on a table set; a rack or not."""
    rules = draw(small_rules(max_numbers=5, max_colours=3))
    rules = dataclasses.replace(rules, copies=2, jokers=max(rules.jokers, 1))
    position = draw(positions(rules, max_sets=3, max_rack=3, opened=True))
    table = [list(tiles) for tiles in position.table]
    pool = full_set(rules) - Counter(t for tiles in table for t in tiles)
    copies = [tiles for tiles in table if not Counter(tiles) - pool]
    assume(copies)
    copied = draw(st.sampled_from(copies))
    heaps = []
    for tiles in table:
        heap = list(draw(st.permutations(tiles))) if draw(st.booleans()) else tiles
        written = draw(st.booleans())  # its jokers written with what they stand for
        if options := readings(heap, rules) if written else []:
            heap = list(draw(st.sampled_from(options)).written)
        heaps.append(heap)
    laid = list(draw(st.permutations(copied)))
    while laid:
        size = draw(st.integers(1, len(laid)))
        spot = draw(st.integers(0, len(heaps)))
        if spot == len(heaps) or draw(st.booleans()):
            heaps.append(laid[:size])
        else:
            heaps[spot] = heaps[spot] + laid[:size]
        laid = laid[size:]
    order = draw(st.permutations(range(len(heaps))))
    request: dict[str, Any] = {
        "table": [[t.written for t in heaps[i]] for i in order],
        "table_before": [[t.written for t in tiles] for tiles in table],
        "opened": False,
        "rules": rules.to_dict(),
        "time_limit_ms": 20_000,
    }
    rack = Counter(position.rack) - Counter(copied)
    if draw(st.booleans()):
        request["rack"] = [t.written for t in sorted(rack.elements())]
    return request


def _a_turn_before_opening(
    request: dict[str, Any],
    answer: dict[str, Any],
    laid: Counter[Tile],
    in_hand: Counter[Tile] | None = None,
) -> None:
    """``answer`` (a repair's arrangement or rescue) is a legal turn of a player who
    has not opened from ``request``'s table before, laying down ``laid``; its steps
    replay to it from the table now (``in_hand``: the tiles they take off it); under
    "free", or with each table set lying as written, they move no tile of one."""
    rules = Rules.from_dict(request["rules"])
    before = [parse_tiles(" ".join(s)) for s in request["table_before"]]
    after = [_written(m) for m in answer["table"]]
    verdict = check_play(tuple(laid.elements()), before, after, False, rules)
    assert verdict.legal, verdict.problems
    # The replayer counts tiles by their text: each joker as "J".
    plain = [[str(Tile.parse(t)) for t in heap] for heap in request["table"]]
    held = Counter(map(str, (in_hand or Counter()).elements()))
    sets, used = replay(plain, request.get("rack", []), answer["steps"], held)
    assert sets == table_of(answer["table"])
    assert used == Counter(answer.get("played", []))
    # Under "replace" a table set lying otherwise than it was written is put back by a
    # step (its jokers' places decide the rule); one lying as written stays.
    heaps = Counter(map(tuple, request["table"]))
    if rules.joker_retrieval == "free" or not Counter(map(tuple, request["table_before"])) - heaps:
        _table_before_untouched(request, answer["steps"])


@pytest.mark.variants
@settings(max_examples=examples(100))
@given(request=copied_table_sets())
def test_a_copy_of_a_table_set_laid_before_opening_leaves_the_table_set_alone(
    request: dict[str, Any],
) -> None:
    """A set laid down by a player who has not opened that equals a set of the table
    before (its tiles and their reading) is told apart from it by where it came from:
    the table's set goes on from its heap with no step moving its tiles (under
    "free"; under "replace" its jokers are put back where the table before had them),
    and every answer is a legal turn for that player, its steps replaying to it."""
    note(request)
    answer = repair_rummikub(request)
    strays = _tiles(request["table"]) - _tiles(request["table_before"])
    arranged = answer["arrangement"]
    if arranged is None:
        return
    event(f"repairable: {answer['repairable']}")
    left_out = Counter(Tile.parse(t) for t in arranged["left_out"])
    _a_turn_before_opening(request, arranged, strays - left_out, left_out)
    play = (answer["rescue"] or {}).get("play")
    if play is not None:
        played = Counter(Tile.parse(t) for t in play["played"])
        event("rescued")
        _a_turn_before_opening(request, play, strays + played)


def test_beyond_repair_leaves_out_a_tile_rather_than_a_joker_when_that_keeps_a_set() -> None:
    # One tile must be left out: the joker or O5. The solve's score prefers a joker
    # kept on the rack, which here left the joker out and broke the group (kept 0,
    # moved 1); leaving O5 out is as few tiles and keeps the group whole.
    answer = repair_rummikub({"table": [["R5", "B5", "K5", "J"], ["O5"]]})
    arranged = answer["arrangement"]
    assert not answer["repairable"]
    assert arranged["left_out"] == ["O5"]
    assert (arranged["sets_kept"], arranged["tiles_moved"]) == (1, 0)
    assert arranged["disruption_proven"]
    assert answer["penalty"]["to_pool"] == ["O5"]


def test_beyond_repair_a_cut_search_for_a_calmer_way_leaves_the_count_proven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search for the most tiles proves how many fit; the searches with more
    jokers placed only look for a calmer way to place as many. One of them stopped
    (its work or time spent) turned a proven count into "fewest found"."""

    def cut_after_the_first(arrange: Any, tiles: Any, reference: Any) -> Any:
        def cut(rack: Any, table: Any, must: Any, objective: Any) -> Any:
            if must:  # a search with jokers to place: stopped before it found any
                return _Found(Status.UNKNOWN, None, False)
            return arrange(rack, table, must, objective)

        return _fewest_left_out(cut, tiles, reference)

    monkeypatch.setattr("solver.rummikub.repair._fewest_left_out", cut_after_the_first)
    answer = repair_rummikub({"table": [["R5", "B5", "K5", "J"], ["O5"]]})
    assert answer["status"] == "optimal"  # one tile left out, proven the fewest
    assert len(answer["arrangement"]["left_out"]) == 1
    assert answer["arrangement"]["disruption_proven"] is False  # a calmer one not sought


def test_a_penalty_with_no_arrangement_found_names_no_tiles() -> None:
    # A search stopped before any arrangement (a big heap, a tiny time limit): the
    # text named the fewest tiles left out as "?" and to_pool said none go back.
    penalty = _penalty(Rules(), Counter(parse_tiles("R1 B5 K9")), None, None)
    assert penalty.to_pool is None
    assert "?" not in penalty.text
    assert "the search stopped before it found which" in penalty.text


def test_a_penalty_whose_fewest_left_out_is_not_proven_does_not_call_them_the_fewest() -> None:
    table = [parse_tiles("R5 B5 K5 J"), parse_tiles("O5")]
    arrangement = repair(table).arrangement
    assert arrangement is not None
    assert arrangement.left_out == (Tile.parse("O5"),)
    unproven = _penalty(Rules(), Counter(), None, arrangement, fewest=False)
    assert unproven.to_pool == arrangement.left_out
    assert "the fewest found" in unproven.text
    assert "the fewest that cannot be placed" not in unproven.text
    proven = _penalty(Rules(), Counter(), None, arrangement)
    assert "the fewest that cannot be placed is one tile, O5," in proven.text


@pytest.mark.parametrize(
    ("table", "before", "counts"),
    [
        # The worked example: the group of 3s gives its R3 up, one tile moves.
        (
            [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
            [["R3", "B3", "K3", "O3"]],
            (0, 1),
        ),
        # A loose R4 joins the run: both sets kept whole, nothing of theirs moves.
        (
            [["R1", "R2", "R3"], ["B3", "K3", "O3"], ["R4"]],
            [["R1", "R2", "R3"], ["B3", "K3", "O3"]],
            (2, 0),
        ),
        # Already right, no table before: the valid sets are the ones to keep.
        ([["R1", "R2", "R3"], ["R3", "B3", "K3", "O3"], ["K7", "K8", "K9"]], None, (3, 0)),
    ],
)
def test_a_repair_whose_calm_search_found_nothing_counts_the_arrangement_it_gives(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    table: list[list[str]],
    before: list[list[str]] | None,
    counts: tuple[int, int],
) -> None:
    """With the least-disruption search cut (it answers None), the score alone lays the
    sets out as new ones: "0 kept whole, 4 of their tiles moved" stood above steps that
    moved one tile. The counts are read from the arrangement given, and the calm is
    said not to be proven."""
    monkeypatch.setattr(repair_module, "least_disruption", lambda *args, **kwargs: None)
    request: dict[str, Any] = {"table": table}
    if before is not None:
        request["table_before"] = before
    arranged = repair_rummikub(request)["arrangement"]
    assert (arranged["sets_kept"], arranged["tiles_moved"]) == counts
    assert arranged["disruption_proven"] is False
    argv = ["repair", "--table", " | ".join(" ".join(s) for s in table)]
    if before is not None:
        argv += ["--before", " | ".join(" ".join(s) for s in before)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    kept = out.index(
        f"Of the sets to keep: {counts[0]} kept whole, {counts[1]} of their tiles moved"
    )
    assert out[kept + 1].startswith("Not proven to disturb the table least")


@pytest.mark.variants
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data(), rules=small_rules(max_numbers=5, max_colours=3))
def test_a_repair_whose_calm_search_found_nothing_counts_as_the_calm_one_would(
    data: st.DataObject, rules: Rules
) -> None:
    """The score alone's arrangement, read as the least-disruption stage reads its own:
    every set of the table before found whole (as a multiset) in a set of the answer is
    counted kept; the counts are never calmer than the exhaustive least disruption; and
    where the arrangement is the calm one's, so are its counts."""
    request = data.draw(messy_tables(rules, before=True))
    request.pop("rack", None)
    request.pop("objective", None)
    note(request)
    calm = repair_rummikub(request)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(repair_module, "least_disruption", lambda *args, **kwargs: None)
        answer = repair_rummikub(request)
    assume(answer["repairable"])
    arranged = answer["arrangement"]
    new = [Counter(m["tiles"]) for m in arranged["table"]]
    old = [Counter(s) for s in request["table_before"]]
    # A set of the table before laid out again as it was is kept (each new set keeps
    # one at most; under "replace" a set with a joker may need it to go on: R1 J J is
    # carried on only by R1 R2 R3 R4, so the R1 R2 R3 R4 of the table before is not
    # kept, as the least disruption counts it); one that no new set holds whole is
    # not, and moves a tile at least.
    as_it_was = Counter(_key(s) for s in old) & Counter(_key(s) for s in new)
    held_whole = sum(1 for s in old if any(not s - n for n in new))
    if rules.joker_retrieval == "free":
        assert as_it_was.total() <= arranged["sets_kept"]
    assert arranged["sets_kept"] <= held_whole
    assert arranged["tiles_moved"] >= len(old) - held_whole
    strays = tuple((_tiles(request["table"]) - _tiles(request["table_before"])).elements())
    table_before = tuple(tuple(parse_tiles(s)) for s in request["table_before"])
    best = disruption_oracle_for(rules).least_disruption(
        Position(strays, table_before), Objective.TILES
    )
    assert (arranged["sets_kept"], -arranged["tiles_moved"]) <= best
    if (
        sorted(map(sorted, (m["tiles"] for m in arranged["table"])))
        == sorted(map(sorted, (m["tiles"] for m in calm["arrangement"]["table"])))
        and calm["arrangement"]["disruption_proven"]
    ):
        assert (arranged["sets_kept"], arranged["tiles_moved"]) == (
            calm["arrangement"]["sets_kept"],
            calm["arrangement"]["tiles_moved"],
        )


def _key(tiles: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(tiles.items()))


REPLACE = Rules(joker_retrieval="replace").to_dict()


def test_a_take_from_a_set_with_several_jokers_names_the_joker_taken() -> None:
    """J R4 R5 J is J(R3) R4 R5 J(R6); R6 was laid down loose, and under "replace" the
    joker standing for R6 may leave for B9 O9. "Take J from set 0" did not say which:
    the first one taken leaves R4 R5 J, a joker standing for R6 (R3 uncovered)."""
    table = [["J", "R4", "R5", "J"], ["R6"], ["O9", "B9"]]
    request = {
        "table": table,
        "table_before": [["J", "R4", "R5", "J"]],
        "rules": REPLACE,
    }
    arranged = repair_rummikub(request)["arrangement"]
    takes = [s for s in arranged["steps"] if s["action"] == "take" and s["from_set"] == 0]
    assert [s["tiles"] for s in takes] == [["J"]]
    assert takes[0]["text"].startswith("Take J(R6) from set 0,")
    sets, _ = replay(table, [], arranged["steps"])
    assert sets == table_of(arranged["table"])


def test_a_take_from_a_heap_with_several_jokers_names_the_place_of_the_joker_taken() -> None:
    """A heap that does not lie as a set reads (J R4 R5 J R6 reads R4-R8) has no joker
    standing for a tile: the step names the place of the one taken, and the heap less
    that place is the set the answer keeps there."""
    table = [["J", "R4", "R5", "J", "R6"], ["O9", "B9"]]
    request = {"table": table, "table_before": [["J", "R4", "R5", "J"]], "rules": REPLACE}
    arranged = repair_rummikub(request)["arrangement"]
    takes = [s for s in arranged["steps"] if s["action"] == "take" and s["from_set"] == 0]
    assert [s["tiles"] for s in takes] == [["J"]]
    place = int(takes[0]["text"].rsplit("place ", 1)[1].rstrip("."))
    left = [t for i, t in enumerate(table[0], 1) if i != place]
    # Where no step lays set 0 out anew, it lies as the heap less the joker named: a
    # legal carrying on of J(R3) R4 R5 J(R6).
    assert all(s.get("to_set", s.get("set")) != 0 for s in arranged["steps"])
    lies = _as_the_steps_leave_it(table, arranged)
    numbers = [m["set"] for m in arranged["table"]]
    lies[numbers.index(0)] = parse_tiles(left)
    before = [parse_tiles("J R4 R5 J")]
    assert joker_retrieval_problems(before, lies, True, Rules(joker_retrieval="replace")) == []


@pytest.mark.parametrize(
    ("table", "before", "lies"),
    [
        # The joker lies at R6; any reading is legal under "free", and no step moves it.
        ([["R4", "R5", "J"]], [["J", "R4", "R5"]], ["R4", "R5", "J(R6)"]),
        # The same with a stray taken off the heap: the rest still lies as R4 R5 J(R6).
        (
            [["R4", "R5", "J", "B9"], ["K1", "K2", "K3"]],
            [["J", "R4", "R5"], ["K1", "K2", "K3"]],
            ["R4", "R5", "J(R6)"],
        ),
    ],
)
def test_a_set_no_step_touches_is_answered_as_it_lies(
    capsys: pytest.CaptureFixture[str],
    table: list[list[str]],
    before: list[list[str]],
    lies: list[str],
) -> None:
    """``repair --table "R4 R5 J" --before "J R4 R5"`` answered J(R3) R4 R5 with no
    steps, the table before's reading: a person was told the joker sits at R3 where it
    lies at R6."""
    arranged = repair_rummikub({"table": table, "table_before": before})["arrangement"]
    first = next(m for m in arranged["table"] if m["set"] == 0)
    assert _written(first) == parse_tiles(lies)
    argv = ["repair", "--table", " | ".join(map(" ".join, table))]
    assert main([*argv, "--before", " | ".join(map(" ".join, before))]) == 0
    assert f"  0. run    {' '.join(lies)}\n" in capsys.readouterr().out


@pytest.mark.parametrize("fewest", [True, False])
def test_a_penalty_says_one_tile_left_out_in_the_singular(fewest: bool) -> None:
    # "the fewest that cannot be placed, B5, go back to the pool": one tile, said as many.
    one = repair([parse_tiles("R1 R2 R3 R4"), parse_tiles("R5 B5")]).arrangement
    two = repair([parse_tiles("R1 R2 R3"), parse_tiles("K8 K9")]).arrangement
    assert one is not None
    assert len(one.left_out) == 1
    assert two is not None
    assert len(two.left_out) == 2
    singular = _penalty(Rules(), Counter(), None, one, fewest=fewest).text
    plural = _penalty(Rules(), Counter(), None, two, fewest=fewest).text
    assert f"{one.left_out[0]}" in singular
    assert "goes back to the pool" in singular
    assert " go back" not in singular
    assert "tiles that" not in singular
    assert "go back to the pool" in plural
    assert "goes back" not in plural


def test_a_heap_of_one_loose_tile_is_named_in_the_singular(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "Take K9 from set 1, the loose tiles K9."
    assert main(["repair", "--table", "R1 R2 R3 | K9", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Take K9 from set 1, the loose tile K9.\n" in out
    assert main(["repair", "--table", "R1 R2 R3 | K9 K8", "--lang", "en"]) == 0
    assert "from set 1, the loose tiles K9 K8.\n" in capsys.readouterr().out
