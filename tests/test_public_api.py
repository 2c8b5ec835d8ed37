"""The library's public API documents itself: every class and function a package
exports (``__all__`` of ``solver``, ``solver.rummikub`` and ``solver.shanghai``) has
a docstring of its own, so ``help()`` and the docs never show an inherited one (an
enum without its own docstring shows the ``Enum`` tutorial)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import tomllib
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

PUBLIC = ("solver", "solver.rummikub", "solver.shanghai", "solver.arena")


def exported(package: str) -> list[tuple[str, object]]:
    """The classes and functions of the project that ``package`` exports."""
    module = importlib.import_module(package)
    found: list[tuple[str, object]] = []
    for name in module.__all__:
        value = getattr(module, name)
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__.startswith(
            "solver."
        ):
            found.append((name, value))
    return found


@pytest.mark.parametrize("package", PUBLIC)
def test_every_export_has_a_docstring_of_its_own(package: str) -> None:
    missing = [
        name
        for name, value in exported(package)
        if not (vars(value).get("__doc__") if inspect.isclass(value) else value.__doc__)
    ]
    assert not missing, f"{package} exports without a docstring: {missing}"


def test_the_library_is_marked_as_typed() -> None:
    """A user's ``mypy --strict`` reads the library's annotations only when the package
    ships a ``py.typed`` marker (PEP 561); without it every import of ``solver`` is an
    error there (``module is installed, but missing library stubs or py.typed``). The
    wheel takes every file of the package that git does not ignore (hatchling)."""
    root = Path(__file__).parents[1]
    with (root / "pyproject.toml").open("rb") as file:
        wheel = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "solver" in wheel["packages"]
    marker = root / "solver" / "py.typed"
    assert marker.is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(marker)], cwd=root, check=False
    ).returncode
    assert ignored == 1, "git ignores solver/py.typed, so the wheel would leave it out"


@pytest.mark.parametrize("package", PUBLIC)
def test_every_exported_function_says_what_it_raises(package: str) -> None:
    """Every function a package exports takes input a caller can get wrong; its
    docstring says what it raises then (a :class:`~solver.errors.MeldwiseError` kind),
    as ``help()`` is where a developer looks."""
    silent = [
        name
        for name, value in exported(package)
        if inspect.isfunction(value) and "raise" not in (value.__doc__ or "").lower()
    ]
    assert not silent, f"{package} exports functions whose docstring says nothing raised: {silent}"


COUNTERPARTS = {
    "Tile": "Card",
    "Colour": "Suit",
    "parse_tiles": "parse_cards",
    "format_tiles": "format_cards",
    "solve": "advise",
    "Play": "Advice",
    "score_round": "score_hands",
    "PlayerScore": "HandScore",
    "solve_rummikub": "advise_shanghai",
    "score_rummikub": "score_shanghai",
}
"""Each Rummikub export and the Shanghai export doing its job (the same name otherwise)."""

ONE_GAME_ONLY = {
    "rummikub": {
        "DEFAULT_DISRUPTION_TIME_LIMIT",  # the least-disruption stage
        "DEFAULT_TIME_LIMIT",
        "Objective",  # most tiles or most points: Shanghai's goals are fixed
        "Repair",
        "repair_rummikub",
        "validate_rummikub",
    },
    "shanghai": {"STANDARD_CONTRACTS", "Contract", "NextPlayer", "Phase", "TableMeld"},
}
"""What one game has and the other has no counterpart of."""


def test_both_games_export_the_same_kinds_of_thing() -> None:
    """A developer who knows one game's package finds the other's counterpart: the
    Shanghai package did not export its typed scoring (``score_hands``, ``HandScore``),
    where the Rummikub one exports ``score_round`` and ``PlayerScore``."""
    rummikub = set(importlib.import_module("solver.rummikub").__all__)
    shanghai = set(importlib.import_module("solver.shanghai").__all__)
    as_shanghai = {COUNTERPARTS.get(name, name) for name in rummikub - ONE_GAME_ONLY["rummikub"]}
    assert as_shanghai - shanghai == set()
    assert shanghai - ONE_GAME_ONLY["shanghai"] - as_shanghai == set()


@pytest.mark.parametrize("package", PUBLIC)
def test_every_exported_enum_has_a_repr_to_paste_back(package: str) -> None:
    """Python's enum repr, ``<MeldKind.RUN: 'run'>``, is no code: a ``Meld``, an
    ``Advice`` or a Shanghai ``Position`` holding one printed a repr that did not paste
    back. Each member's repr names it (``MeldKind.RUN``)."""
    for name, value in exported(package):
        if inspect.isclass(value) and issubclass(value, Enum):
            for member in value:
                assert eval(repr(member), {name: value}) is member


def test_a_meld_and_a_position_paste_back() -> None:
    from solver import rummikub, shanghai

    meld = rummikub.read_meld(rummikub.parse_tiles("R3 J R5"), rummikub.Rules())
    assert eval(repr(meld), vars(rummikub)) == meld
    cards = shanghai.parse_cards("7H 7S JK")
    table = (shanghai.TableMeld(shanghai.read_meld(cards, shanghai.Rules()), "ann"),)
    position = shanghai.Position(
        tuple(shanghai.parse_cards("8H 9H")),
        shanghai.Contract.for_hand(1),
        table,
        phase=shanghai.Phase.DRAW,
    )
    assert eval(repr(position), vars(shanghai)) == position


HANDS = {"rummikub": ("R1 R2 R3", "K7 B7 O7"), "shanghai": ("7H 7S 7D", "8H 8S 8D")}
"""A rack or hand and a table set or meld of each game, in its notation."""


def module(game: str, name: str = "") -> Any:
    """The package ``solver.<game>``, or its module ``name``."""
    return importlib.import_module(f"solver.{game}" + (f".{name}" if name else ""))


def one_draw(game: str) -> Any:
    """A two-player game of ``game`` dealt by ``Game.new(settings, seed)``, after its
    first move (a draw from the pool or the stock)."""
    engine = module(game, "engine")
    if game == "rummikub":
        played = engine.Game.new(engine.GameSettings(players=2), 1)
        played.apply(engine.Move.draw())
    else:
        played = engine.Game.new(engine.GameSettings(players=2, hands=1), 1)
        played.apply(engine.Draw(take=False))
    return played


def recorded(game: str) -> Any:
    """The record of :func:`one_draw`, written with the seats' names and read back."""
    record = module(game, "record")
    return record.read_record(record.record_to_dict(one_draw(game), ["ann", "bo"]))


def scored(game: str) -> Any:
    """``score_round`` (Rummikub) or ``score_hands`` (Shanghai): one player out."""
    package = module(game)
    score = getattr(package, COUNTERPARTS["score_round"] if game == "shanghai" else "score_round")
    left = package.parse_tiles("R1") if game == "rummikub" else package.parse_cards("AS")
    return score({"ann": left, "bo": []}, package.Rules())


SAME_CALLS: dict[str, tuple[Callable[[str], Any], type]] = {
    "Position.parse(rack)": (lambda game: module(game).Position.parse(HANDS[game][0]), object),
    "Position.parse(rack, table)": (
        lambda game: module(game).Position.parse(*HANDS[game]),
        object,
    ),
    "engine.Game.new(settings, seed)": (one_draw, object),
    "record.record_to_dict(game, players)": (
        lambda game: module(game, "record").record_to_dict(one_draw(game), ["ann", "bo"]),
        dict,
    ),
    "record.read_record(data)": (recorded, object),
    "record.replay(record)": (lambda game: module(game, "record").replay(recorded(game)), object),
    "review.review_to_dict(review)": (
        lambda game: module(game, "review").review_to_dict(
            module(game, "review").review_game(recorded(game), player=0)
        ),
        dict,
    ),
    "review.review_game(record) says what both reviews say": (
        lambda game: [
            getattr(module(game, "review").review_game(recorded(game)), name)
            for name in ("turns", "record", "player", "players", "status", "time_capped")
        ],
        list,
    ),
    "score_round / score_hands(hands, rules)": (scored, tuple),
}
"""A call that code written against one game's modules makes, and the kind of value it
answers in both games (``object``: any). They differ on purpose, each docstring saying
why: ``engine.Game(...)`` (a Rummikub round is made from its deal), ``read_record``'s
``notation`` (Rummikub's alone), ``replay``'s ``watch`` (Shanghai's alone), and
``record_to_dict``'s ``players``, which only Rummikub's format may leave out."""


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
@pytest.mark.parametrize("call", SAME_CALLS)
def test_both_games_take_the_same_call(call: str, game: str) -> None:
    """Code written against one game's modules works against the other's: Shanghai had
    no ``Position.parse``, Rummikub's ``review_to_dict`` needed the record as well as
    the review, and ``score_hands`` answered a list where ``score_round`` a tuple."""
    make, kind = SAME_CALLS[call]
    assert isinstance(make(game), kind)
