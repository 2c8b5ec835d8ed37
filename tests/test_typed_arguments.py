"""The typed API refuses a wrong argument as the wire refuses a wrong field: a
:class:`~solver.errors.MeldwiseError` (a ``ValueError``) naming the argument and quoting
what came, never an ``AttributeError``, ``TypeError`` or ``IndexError`` from deep inside.
Each case is a mistake a developer calling the library makes: a string where a list
of tiles goes, ``None``, the other game's tiles or rules, a float for a ``Limit``, the
dict of a record where its typed value goes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from solver.arena import game_spec
from solver.errors import MeldwiseError, RequestError
from solver.i18n import language
from solver.rummikub import (
    Objective,
    Position,
    Rules,
    format_tiles,
    parse_tiles,
    read_meld,
    score_round,
    solve,
)
from solver.rummikub import bots as rummikub_bots
from solver.rummikub import engine as rummikub_engine
from solver.rummikub import record as rummikub_record
from solver.rummikub import review as rummikub_review
from solver.shanghai import Contract, advise, format_cards, parse_cards
from solver.shanghai import Position as ShanghaiPosition
from solver.shanghai import Rules as ShanghaiRules
from solver.shanghai import bots as shanghai_bots
from solver.shanghai import engine as shanghai_engine
from solver.shanghai import read_meld as read_shanghai_meld
from solver.shanghai import record as shanghai_record
from solver.shanghai import review as shanghai_review
from solver.shanghai.scoring import score_hands

RULES, SHANGHAI = Rules(), ShanghaiRules()
POSITION = Position.parse("R1 R2 R3")
HAND = ShanghaiPosition(tuple(parse_cards("7H 7S 7D")), Contract.for_hand(1))
TILES, CARDS = parse_tiles("R1 R2 R3"), parse_cards("7H 8H 9H")


def rummikub_record_of_one_turn() -> rummikub_record.GameRecord:
    game = rummikub_engine.Game.new(rummikub_engine.GameSettings(), seed=1)
    game.apply(rummikub_engine.Move.draw())
    return rummikub_record.read_record(rummikub_record.record_to_dict(game))


def shanghai_record_of_one_turn() -> shanghai_record.GameRecord:
    game = shanghai_engine.Game(shanghai_engine.GameSettings(players=2, hands=1), seed=1)
    game.apply(shanghai_engine.Draw(take=False))
    return shanghai_record.read_record(shanghai_record.record_to_dict(game, ["a", "b"]))


CASES: dict[str, tuple[Callable[[], object], str]] = {
    # Rummikub
    "solve a string": (lambda: solve("R1 R2 R3", RULES), "'position'"),  # type: ignore[arg-type]
    "solve rules None": (lambda: solve(POSITION, None), "'rules'"),  # type: ignore[arg-type]
    "solve Shanghai rules": (
        lambda: solve(POSITION, SHANGHAI),  # type: ignore[arg-type]
        "solver.shanghai.rules.Rules",
    ),
    "solve limit a float": (lambda: solve(POSITION, limit=2.0), "'limit'"),  # type: ignore[arg-type]
    "format_tiles a string": (lambda: format_tiles("R1 R2"), "'tiles'"),  # type: ignore[arg-type]
    "format_cards tiles": (lambda: format_cards(TILES), "'cards[0]'"),  # type: ignore[arg-type]
    "parse_tiles None": (lambda: parse_tiles(None), "'text'"),  # type: ignore[arg-type]
    "parse_tiles a number": (lambda: parse_tiles(5), "'text'"),  # type: ignore[arg-type]
    "Position.parse None": (lambda: Position.parse(None), "'rack'"),  # type: ignore[arg-type]
    "Position rack None": (lambda: Position(None), "'rack'"),  # type: ignore[arg-type]
    "Position table None": (lambda: Position((), None), "'table'"),  # type: ignore[arg-type]
    "Position table of tiles": (
        lambda: Position((), tuple(TILES)),  # type: ignore[arg-type]
        "'table[0]'",
    ),
    "read_meld a string": (lambda: read_meld("R1 R2 R3", RULES), "'tiles'"),  # type: ignore[arg-type]
    "read_meld cards": (lambda: read_meld(CARDS, RULES), "'tiles[0]'"),  # type: ignore[arg-type]
    "read_meld rules None": (lambda: read_meld(TILES, None), "'rules'"),  # type: ignore[arg-type]
    "score_round a list": (lambda: score_round([TILES], RULES), "'racks'"),  # type: ignore[arg-type]
    "score_round a rack string": (
        lambda: score_round({"ann": "R1 R2", "bo": ()}, RULES),  # type: ignore[dict-item]
        "'racks[ann]'",
    ),
    "make_bot None": (lambda: rummikub_bots.make_bot(None), "'name'"),  # type: ignore[arg-type]
    "bot move None": (
        lambda: rummikub_engine.Game.new(rummikub_engine.GameSettings(), seed=1).apply(None),  # type: ignore[arg-type]
        "NoneType",
    ),
    # A table of strings failed in the legality check (AttributeError: no 'meant').
    "bot move of strings": (
        lambda: rummikub_engine.Move.play([["R1", "R2", "R3"]]),  # type: ignore[list-item]
        "'table[0][0]'",
    ),
    "bot move a string": (
        lambda: rummikub_engine.Move("R1 R2 R3"),  # type: ignore[arg-type]
        "'table'",
    ),
    "game seed -1": (
        lambda: rummikub_engine.Game.new(rummikub_engine.GameSettings(), seed=-1),
        "'seed'",
    ),
    "game seed a string": (
        lambda: rummikub_engine.Game.new(rummikub_engine.GameSettings(), seed="7"),  # type: ignore[arg-type]
        "'seed'",
    ),
    # Shanghai's engine is made as Game(settings, seed): the seed in the deal's place.
    "game a seed for its deal": (
        lambda: rummikub_engine.Game(rummikub_engine.GameSettings(), 7),  # type: ignore[arg-type]
        "argument 'deal' must be a Deal (Game.new(settings, seed) deals one from a seed)",
    ),
    # A dict or the other game's rules where the typed value goes failed in the deal.
    "game of settings a dict": (
        lambda: rummikub_engine.Game.new({"players": 2}, seed=1),  # type: ignore[arg-type]
        "'settings'",
    ),
    "game settings of Shanghai rules": (
        lambda: rummikub_engine.GameSettings(rules=SHANGHAI),  # type: ignore[arg-type]
        "'rules'",
    ),
    "game settings None": (
        lambda: rummikub_engine.Game(
            None,  # type: ignore[arg-type]
            rummikub_engine.Deal.shuffle(rummikub_engine.GameSettings(), 1),
        ),
        "'settings'",
    ),
    "bot shown None": (lambda: rummikub_bots.make_bot("greedy").choose(None), "'view'"),  # type: ignore[arg-type]
    "view of no seat": (
        lambda: rummikub_engine.Game.new(rummikub_engine.GameSettings(), seed=1).view(9),
        "'seat'",
    ),
    "review objective unknown": (
        lambda: rummikub_review.review_game(
            rummikub_record_of_one_turn(),
            objective="most",  # type: ignore[arg-type]
        ),
        "'objective'",
    ),
    # Shanghai
    "advise a string": (lambda: advise("7H 7S 7D", SHANGHAI), "'position'"),  # type: ignore[arg-type]
    "advise Rummikub rules": (
        lambda: advise(HAND, RULES),  # type: ignore[arg-type]
        "solver.rummikub.rules.Rules",
    ),
    "advise limit a float": (lambda: advise(HAND, limit=2.0), "'limit'"),  # type: ignore[arg-type]
    "parse_cards None": (lambda: parse_cards(None), "'text'"),  # type: ignore[arg-type]
    "Shanghai Position hand None": (
        lambda: ShanghaiPosition(None, Contract.for_hand(1)),  # type: ignore[arg-type]
        "'hand'",
    ),
    # None is a down player's contract alone.
    "Shanghai Position not down, contract None": (
        lambda: ShanghaiPosition(tuple(CARDS), None),
        "'contract'",
    ),
    "Shanghai read_meld a string": (
        lambda: read_shanghai_meld("7H 8H 9H", SHANGHAI),  # type: ignore[arg-type]
        "'cards'",
    ),
    "Shanghai read_meld tiles": (
        lambda: read_shanghai_meld(TILES, SHANGHAI),  # type: ignore[arg-type]
        "'cards[0]'",
    ),
    "Shanghai read_meld rules None": (
        lambda: read_shanghai_meld(CARDS, None),  # type: ignore[arg-type]
        "'rules'",
    ),
    "score_hands a list": (lambda: score_hands([CARDS], SHANGHAI), "'hands'"),  # type: ignore[arg-type]
    "Shanghai make_bot None": (lambda: shanghai_bots.make_bot(None), "'name'"),  # type: ignore[arg-type]
    "Shanghai game seed past 2**31": (
        lambda: shanghai_engine.Game(shanghai_engine.GameSettings(players=2), seed=2**31 + 1),
        "'seed'",
    ),
    "Shanghai game settings of Rummikub rules": (
        lambda: shanghai_engine.GameSettings(rules=RULES),  # type: ignore[arg-type]
        "'rules'",
    ),
    "Shanghai game settings None": (
        lambda: shanghai_engine.Game(None, 7),  # type: ignore[arg-type]
        "'settings'",
    ),
    "Shanghai bot shown None": (
        lambda: shanghai_bots.make_bot("greedy").choose(None),  # type: ignore[arg-type]
        "'view'",
    ),
    # A card as a string failed in the engine (AttributeError, TypeError) or was judged
    # "not in hand"; Draw("no") took the upcard; melds=None was a legal play.
    "Shanghai discard a string": (
        lambda: shanghai_engine.Play(discard="7H"),  # type: ignore[arg-type]
        "'discard'",
    ),
    "Shanghai melds None": (
        lambda: shanghai_engine.Play(melds=None),  # type: ignore[arg-type]
        "'melds'",
    ),
    "Shanghai lay-off of a string": (
        lambda: shanghai_engine.LayOffMove("7H", 0),  # type: ignore[arg-type]
        "'card'",
    ),
    "Shanghai swap at a string": (
        lambda: shanghai_engine.SwapMove(0, "0", CARDS[0]),  # type: ignore[arg-type]
        "'position'",
    ),
    "Shanghai draw of a string": (
        lambda: shanghai_engine.Draw("no"),  # type: ignore[arg-type]
        "'take'",
    ),
    "Shanghai view of no seat": (
        lambda: shanghai_engine.Game(shanghai_engine.GameSettings(players=2), seed=1).view(9),
        "'seat'",
    ),
}
for _name in ("rummikub", "shanghai"):
    # The protocol's way in: the game settings must be a mapping (None was an
    # AttributeError in the settings' reading).
    CASES[f"{_name} match of settings None"] = (
        partial(game_spec(_name).new_match, 1, 2, None),  # type: ignore[arg-type]
        "'options'",
    )
for _name, _settings in (
    ("rummikub", rummikub_engine.GameSettings),
    ("shanghai", shanghai_engine.GameSettings),
):
    # The settings' own readers too (a TypeError: 'NoneType' object is not iterable).
    CASES[f"{_name} settings read from None"] = (
        partial(_settings.from_dict, None),  # type: ignore[arg-type]
        "'settings' must be an object of game settings",
    )
    CASES[f"{_name} settings read at a place from a list"] = (
        partial(_settings.read, [], "record.settings"),  # type: ignore[arg-type]
        "'record.settings' must be an object of game settings",
    )
REVIEWS: dict[str, tuple[Callable[..., object], Callable[[], object]]] = {
    "Rummikub": (rummikub_review.review_game, rummikub_record_of_one_turn),
    "Shanghai": (shanghai_review.review_game, shanghai_record_of_one_turn),
}


def reviewing(
    review: Callable[..., object], recorded: Callable[[], object], **arguments: object
) -> Callable[[], object]:
    """A call of ``review`` on the record ``recorded`` makes, with ``arguments``."""
    return lambda: review(recorded(), **arguments)


GAMES_OF_TWO: dict[str, tuple[Callable[..., object], object]] = {
    "Rummikub": (
        rummikub_record.record_to_dict,
        rummikub_engine.Game.new(rummikub_engine.GameSettings(), 1),
    ),
    "Shanghai": (
        shanghai_record.record_to_dict,
        shanghai_engine.Game.new(shanghai_engine.GameSettings(players=2, hands=1), 1),
    ),
}
for _game, (_write, _played) in GAMES_OF_TWO.items():
    # A record written with a name short, or a string of names ("ab" named two seats
    # 'a' and 'b'), was one its own read_record refuses.
    CASES[f"{_game} record_to_dict one name for two seats"] = (
        partial(_write, _played, ["ann"]),
        "'players' names 1 seat, the game has 2",
    )
    # A string where the game goes failed inside (AttributeError: no 'settings').
    CASES[f"{_game} record_to_dict of no game"] = (partial(_write, "game", ["a", "b"]), "'game'")
    CASES[f"{_game} record_to_dict a string of names"] = (
        partial(_write, _played, "ab"),
        "argument 'players' must be a list",
    )

CASES["read_record notation unknown"] = (
    partial(rummikub_record.read_record, {"turns": []}, "RBGY"),  # type: ignore[arg-type]
    "argument 'notation' must be one of 'RBKO', 'RBYK'",
)
for _game, _module in (("Rummikub", rummikub_record), ("Shanghai", shanghai_record)):
    # A record's dict where the read record goes failed inside (AttributeError).
    CASES[f"{_game} replay a dict"] = (partial(_module.replay, {"turns": []}), "'record'")

# A watcher that is no function failed at the record's first move (TypeError).
CASES["Shanghai replay watched by no function"] = (
    lambda: shanghai_record.replay(shanghai_record_of_one_turn(), watch=5),  # type: ignore[arg-type]
    "'watch'",
)

for _game, (_review, _recorded) in REVIEWS.items():
    # Both games' reviews take the same arguments, refused alike.
    CASES[f"{_game} review a dict"] = (partial(_review, {"turns": []}), "'record'")
    CASES[f"{_game} review no such player"] = (reviewing(_review, _recorded, player=9), "'player'")
    CASES[f"{_game} review limit a float"] = (reviewing(_review, _recorded, limit=2.0), "'limit'")


@pytest.mark.parametrize("case", CASES)
def test_a_wrong_argument_is_refused_by_name(case: str) -> None:
    call, named = CASES[case]
    with pytest.raises(MeldwiseError) as refused:
        call()
    assert named in str(refused.value)


def test_the_objective_is_read_alike_by_solve_and_review() -> None:
    record = rummikub_record_of_one_turn()
    review = rummikub_review.review_game(record, objective="points")  # type: ignore[arg-type]
    assert review.objective is Objective.POINTS


def test_a_records_notation_is_read_as_its_word_too() -> None:
    """``read_record(data, "RBYK")``, the notation as the wire writes it, failed with an
    ``AttributeError``; an error in the record then writes orange as ``Y``."""
    turn = {"turn": 1, "player": 0, "rack": ["O6"], "table_before": [], "action": "play"}
    turn |= {"played": ["O6"], "table_after": [["O6", "O7", "O8"]]}
    with pytest.raises(MeldwiseError, match=r"\(Y6 Y7 Y8\)"):
        rummikub_record.read_record({"turns": [turn]}, "RBYK")  # type: ignore[arg-type]


def test_a_choice_refused_says_one_of_them_in_japanese() -> None:
    # The type's sentence said "'RBKO'、'RBYK' を渡してください", without "one of".
    with language("ja"), pytest.raises(RequestError) as refused:
        rummikub_record.read_record({"turns": []}, "RBGY")  # type: ignore[arg-type]
    assert "'RBKO'、'RBYK' のいずれか" in str(refused.value)
