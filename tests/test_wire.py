"""The dict-in, dict-out entry point: schema and errors that name the culprit."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pydantic
import pytest

from solver import (
    MeldwiseError,
    advise_shanghai,
    score_rummikub,
    solve_rummikub,
    validate_rummikub,
)
from solver.errors import CountError, NotationError, RequestError, RulesError, TableError
from solver.i18n import language
from solver.record import RecordError
from solver.rummikub.game_wire import bot_rummikub, game_rummikub, review_rummikub
from solver.rummikub.wire import repair_rummikub
from solver.wire import pydantic_problem

EXAMPLE = {
    "rack": ["R1", "R2", "J"],
    "table": [["R3", "R4", "R5"], ["K7", "B7", "O7"]],
    "opened": True,
    "objective": "tiles",
    "rules": {},
    "time_limit_ms": 2000,
}


def test_the_documented_example() -> None:
    response = solve_rummikub(EXAMPLE)
    assert set(response) == {
        "status",
        "hint_level",
        "tiles_played",
        "points_played",
        "played",
        "rack_left",
        "table",
        "sets_kept",
        "tiles_moved",
        "disruption_proven",
        "time_capped",
        "steps",
    }
    assert response["status"] == "optimal"
    assert response["tiles_played"] == 3
    assert response["points_played"] == 33
    assert sorted(response["played"]) == ["J", "R1", "R2"]
    assert response["rack_left"] == []
    for meld in response["table"]:
        assert set(meld) == {"kind", "tiles", "as", "set", "from_rack", "from_rack_places"}
        assert len(meld["tiles"]) == len(meld["as"])
        assert sorted(meld["tiles"][p] for p in meld["from_rack_places"]) == sorted(
            meld["from_rack"]
        )
        assert "J" not in meld["as"]
    # R1 R2 J join the two sets already there (the joker as R6 or as a colour of 7):
    # nothing moves and no new set is needed.
    assert response["sets_kept"] == 2
    assert response["tiles_moved"] == 0
    assert len(response["table"]) == 2
    assert all(step["action"] == "add" for step in response["steps"])
    # Both sets go on under their numbers in the request, the steps' "to_set", and
    # between them hold the three rack tiles.
    assert [meld["set"] for meld in response["table"]] == [0, 1]
    assert {step["to_set"] for step in response["steps"]} <= {0, 1}
    laid = [t for meld in response["table"] for t in meld["from_rack"]]
    assert sorted(laid) == ["J", "R1", "R2"]


def test_defaults_and_case_insensitive_input() -> None:
    response = solve_rummikub({"rack": ["r1", "r2", "r3"]})
    assert response["played"] == ["R1", "R2", "R3"]


@pytest.mark.parametrize(
    ("request_", "error", "culprit"),
    [
        ({"rack": ["Q5"]}, NotationError, "'Q5'"),
        ({"rack": ["R5", "R5"], "table": [["R5", "B5", "K5"]]}, CountError, "R5: 3"),
        ({"rack": ["J", "J", "J"]}, CountError, "jokers"),
        ({"rack": [], "table": [["R3", "R5", "R7"]]}, TableError, "table set 0"),
        ({"rack": [], "table": [["R1", "R2", "R3"], ["K1", "K2"]]}, TableError, "table set 1"),
        ({"rack": [], "rules": {"copies": 9}}, RulesError, "copies"),
        ({"rack": [], "rules": {"bogus": 1}}, RulesError, "bogus"),
        ({"rack": [], "colour": 1}, RequestError, "'colour'"),
        ({}, RequestError, "'rack'"),
        ({"rack": "R1 R2"}, RequestError, "rack"),
        ({"rack": [5]}, RequestError, "rack"),
        ({"rack": [], "table": [["R1", 2]]}, RequestError, "table[0][1]"),
        ({"rack": [], "opened": "yes"}, RequestError, "opened"),
        ({"rack": [], "objective": "fun"}, RequestError, "'fun'"),
        ({"rack": [], "time_limit_ms": 0}, RequestError, "time_limit_ms"),
        ({"rack": [], "time_limit_ms": "1"}, RequestError, "time_limit_ms"),
        ({"rack": ["R14"]}, NotationError, "'R14'"),
        ({"rack": [], "hint_level": "all"}, RequestError, "'all'"),
    ],
)
def test_bad_requests_name_the_culprit(
    request_: dict[str, Any], error: type[MeldwiseError], culprit: str
) -> None:
    with pytest.raises(error) as raised:
        solve_rummikub(request_)
    assert culprit in str(raised.value)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("rules", [[], False, 0, "", [1], "x", 3])
@pytest.mark.parametrize(
    "call",
    [
        lambda rules: solve_rummikub({"rack": ["R1"], "rules": rules}),
        lambda rules: validate_rummikub(
            {"rack": [], "table_before": [], "table_after": [], "rules": rules}
        ),
        lambda rules: score_rummikub({"racks": {"a": []}, "rules": rules}),
    ],
    ids=["solve", "validate", "score"],
)
def test_rules_that_are_not_an_object_are_refused(rules: Any, call: Any) -> None:
    # Empty or false values used to count as no rules at all.
    with pytest.raises(RulesError, match="rules must be an object of settings"):
        call(rules)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: solve_rummikub({"rack": ["R0"]}),
            "rack[0]: unknown tile 'R0': numbers run from 1 to 13",
        ),
        (
            lambda: solve_rummikub({"rack": ["R1", "r27"]}),
            "rack[1]: unknown tile 'r27': numbers run from 1 to 13",
        ),
        (
            # Three digits or more were once no number at all.
            lambda: solve_rummikub({"rack": ["R100"]}),
            "rack[0]: unknown tile 'R100': numbers run from 1 to 13",
        ),
        (
            lambda: solve_rummikub({"rack": ["R0"], "rules": {"numbers": 20}}),
            "rack[0]: unknown tile 'R0': numbers run from 1 to 20",
        ),
        (
            lambda: solve_rummikub({"rack": ["g5"]}),
            "rack[0]: unknown tile 'g5': this game's colours are R B K O",
        ),
        (
            lambda: solve_rummikub({"rack": ["x9"]}),
            "rack[0]: unknown tile 'x9': 'X' is not a colour (colours are R, B, K, O)",
        ),
        (
            # Rules that cannot be read: any game's colours. The rebuilt error once
            # lacked UnknownColour's letter: a TypeError (500, a CLI traceback).
            lambda: solve_rummikub({"rack": ["Z5"], "rules": {"colours": 99}}),
            "rack[0]: unknown tile 'Z5': 'Z' is not a colour (colours are R, B, K, O, G, Y,"
            " P, W); rules: rule 'colours' must be between 2 and 8, got 99",
        ),
        (
            lambda: solve_rummikub({"rack": [], "table": [["r12", "r13", "r14"]]}),
            "table[0][2]: unknown tile 'r14': numbers run from 1 to 13",
        ),
        (
            lambda: solve_rummikub({"rack": ["j"], "rules": {"jokers": 0}}),
            "rack[0]: unknown tile 'j': this game has no jokers",
        ),
        (
            # The tile a joker stands for was checked against any game: J(R14) passed.
            lambda: solve_rummikub({"rack": ["R5", "J(R14)"]}),
            "rack[1]: unknown tile 'J(R14)': numbers run from 1 to 13",
        ),
        (
            # Past any game's numbers the bracket was "no tile": 'a joker is J, or J(R6)'.
            lambda: solve_rummikub({"rack": ["J(R27)"], "rules": {"numbers": 26}}),
            "rack[0]: unknown tile 'J(R27)': numbers run from 1 to 26",
        ),
        (
            lambda: solve_rummikub({"rack": ["J(R0)"]}),
            "rack[0]: unknown tile 'J(R0)': numbers run from 1 to 13",
        ),
        (
            lambda: solve_rummikub({"rack": ["J(O5)"], "rules": {"colours": 3}}),
            "rack[0]: unknown tile 'J(O5)': this game's colours are R B K",
        ),
        (
            lambda: validate_rummikub(
                {"rack": ["R1"], "table_before": [], "table_after": [["g5"]]}
            ),
            "table_after[0][0]: unknown tile 'g5': this game's colours are R B K O",
        ),
        (
            lambda: score_rummikub({"racks": {"ann": ["R14"]}}),
            "racks.ann[0]: unknown tile 'R14': numbers run from 1 to 13",
        ),
        (
            lambda: repair_rummikub({"table": [["R1", "R2", "r14"]]}),
            "table[0][2]: unknown tile 'r14': numbers run from 1 to 13",
        ),
        (
            lambda: bot_rummikub(
                {"bot": "greedy", "rack": ["b14"], "opponents": [{"rack_size": 3}]}
            ),
            "rack[0]: unknown tile 'b14': numbers run from 1 to 13",
        ),
    ],
)
def test_a_tile_the_game_lacks_is_named_where_and_as_sent(call: Any, message: str) -> None:
    """The tile is quoted as the request wrote it, where it stands, with the game's own
    colours and numbers (R0 used to give "1 to 26", g5 and R14 lost their place and
    were quoted as 'G5' and 'R14')."""
    with pytest.raises(NotationError) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: solve_rummikub({"rack": ["Q5"], "notation": "RBYK"}),
            "rack[0]: unknown tile 'Q5': 'Q' is not a colour (colours are R, B, K, Y)",
        ),
        (
            lambda: solve_rummikub({"rack": ["G4"], "notation": "RBYK", "lang": "ja"}),
            "rack[0]: 不明なタイル 'G4': このゲームの色は R B K Y(赤・青・黒・黄)です",
        ),
        (
            lambda: solve_rummikub({"rack": ["Q5"], "notation": "RBYK", "lang": "ja"}),
            "rack[0]: 不明なタイル 'Q5': 'Q' は色ではありません"
            "(色は R、B、K、Y、または赤・青・黒・黄)",
        ),
        (
            lambda: solve_rummikub({"rack": ["Q5"], "notation": "RBYK", "rules": {"colours": 5}}),
            "rack[0]: unknown tile 'Q5': 'Q' is not a colour (colours are R, B, K, Y, G)",
        ),
        (
            lambda: validate_rummikub(
                {"rack": ["R1"], "table_before": [], "table_after": [["g5"]], "notation": "RBYK"}
            ),
            "table_after[0][0]: unknown tile 'g5': this game's colours are R B K Y",
        ),
        (
            lambda: repair_rummikub({"table": [["R1", "R2", "q4"]], "notation": "RBYK"}),
            "table[0][2]: unknown tile 'q4': 'Q' is not a colour (colours are R, B, K, Y)",
        ),
        (
            lambda: bot_rummikub(
                {
                    "bot": "greedy",
                    "rack": ["G4"],
                    "opponents": [{"rack_size": 3}],
                    "notation": "RBYK",
                }
            ),
            "rack[0]: unknown tile 'G4': this game's colours are R B K Y",
        ),
        (
            # RBYK does not fit a game with yellow: the tile error names the letters
            # as read, and the notation is refused on its own.
            lambda: solve_rummikub({"rack": ["Q4"], "notation": "RBYK", "rules": {"colours": 6}}),
            "rack[0]: unknown tile 'Q4': 'Q' is not a colour (colours are R, B, K, O, G, Y)",
        ),
    ],
)
def test_a_tile_the_game_lacks_is_named_in_the_requests_notation(call: Any, message: str) -> None:
    """Under RBYK the game's colours are named with Y for orange, as the answer writes
    them (the tiles were read before the notation: 'colours are R, B, K, O')."""
    with pytest.raises(NotationError) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda s: game_rummikub({"bots": ["greedy", "greedy"], "settings": s}),
            RulesError,
            "settings.rules: rule 'jokers' must be between 0 and 4, got 9",
        ),
        (
            lambda s: review_rummikub({"record": {"settings": s, "turns": []}}),
            RecordError,  # the settings are the record's
            "record: settings.rules: rule 'jokers' must be between 0 and 4, got 9",
        ),
    ],
    ids=["game", "review"],
)
def test_a_bad_rule_in_game_settings_names_its_place(
    call: Any, error: type[Exception], message: str
) -> None:
    """It used to say only "rule 'jokers' must be ...", not where the rule stands."""
    with pytest.raises(error) as raised:
        call({"rules": {"jokers": 9}})
    assert str(raised.value) == message


def test_rules_null_means_the_standard_rules() -> None:
    assert solve_rummikub({"rack": ["R1", "R2", "R3"], "rules": None})["tiles_played"] == 3


def test_rules_change_what_exists() -> None:
    response = solve_rummikub({"rack": ["G1", "G2", "G3"], "rules": {"colours": 5}})
    assert response["tiles_played"] == 3


def test_every_request_of_a_wire_function_takes_lang() -> None:
    import solver.rummikub.game_wire
    import solver.shanghai.wire  # noqa: F401  (the requests are Spoken's subclasses)
    from solver.wire import Spoken

    requests, todo = [], list(Spoken.__subclasses__())
    while todo:
        model = todo.pop()
        todo += model.__subclasses__()
        if not model.__subclasses__():  # a request, not a base of requests
            requests.append(model)
    assert len(requests) >= 8
    missing = [m.__name__ for m in requests if "lang" not in m.model_fields]
    assert missing == []


def _spoken_models() -> list[type[Any]]:
    import solver.rummikub.game_wire
    import solver.shanghai.wire  # noqa: F401  (the requests are Spoken's subclasses)
    from solver.wire import Spoken

    found, todo = [], list(Spoken.__subclasses__())
    while todo:
        model = todo.pop()
        todo += model.__subclasses__()
        found.append(model)
    return found


def test_a_check_across_fields_is_made_in_the_requests_language() -> None:
    """A subclass's model validator runs outside Spoken's language: a request read
    outside :func:`~solver.i18n.speaks` (over HTTP, FastAPI reads the body) with lang
    ja was refused in English."""
    from pydantic import ValidationError

    from solver.rummikub.wire import SolveRequest
    from solver.shanghai.wire import ShanghaiAdviseRequest

    asked = {"rack": ["R1"], "notation": "RBYK", "rules": {"colours": 6}, "lang": "ja"}
    with pytest.raises(ValidationError, match="RBYK") as raised:
        SolveRequest.model_validate(asked)
    assert "writes orange" not in str(raised.value)
    with pytest.raises(ValidationError, match="hand_number") as raised:
        ShanghaiAdviseRequest.model_validate({"hand": ["7H"], "lang": "ja"})
    assert "give exactly one" not in str(raised.value)
    for model in _spoken_models():
        after = [
            name
            for name, found in model.__pydantic_decorators__.model_validators.items()
            if found.info.mode == "after"
        ]
        assert after == [], f"{model.__name__}: check in check_request, in its language"


def test_text_that_is_no_valid_unicode_is_named_as_sent() -> None:
    # A key was quoted as pydantic re-encodes it (a lone surrogate as U+FFFD), and a
    # choice's value got pydantic's own English message.
    with pytest.raises(RequestError) as raised:
        score_rummikub({"racks": {"\ud800": ["R1"]}})
    assert str(raised.value).startswith("racks['\\ud800']: a player name must be printable")
    with pytest.raises(RequestError) as raised:
        solve_rummikub({"rack": ["R1"], "objective": "\ud800"})
    assert str(raised.value) == "'objective' must be valid Unicode text, got '\\ud800'"


def test_odd_inputs_are_bad_input_naming_the_field_never_another_exception() -> None:
    """A joker bracket nested five hundred deep (1.5 KB: HTTP 500) recursed past Python's
    limit; so did the error's repr of a list nested a thousand deep; a number of 5,000
    digits raised Python's own ValueError (or became its message) where it was quoted."""
    deep: Any = "R1"
    for _ in range(1000):
        deep = [deep]
    huge = 10**5000
    cases: list[tuple[Any, str]] = [
        (lambda: solve_rummikub({"rack": ["J(" * 499 + ")" * 499]}), "rack[0]: unknown tile 'J(J("),
        (lambda: solve_rummikub({"rack": [deep]}), "rack[0]: expected a tile like 'R5'"),
        (lambda: solve_rummikub({"rack": ["R1"], "time_limit_ms": huge}), "'time_limit_ms'"),
        (lambda: solve_rummikub({"rack": ["R1"], "rules": {"jokers": huge}}), "rule 'jokers'"),
        (lambda: advise_shanghai({"hand": ["7H"], "contract": {"sets": [huge]}}), "'sets' size"),
        (lambda: advise_shanghai({"hand": ["7H"], "hand_number": 1, "buys_left": huge}), "buys"),
    ]
    for call, where in cases:
        with pytest.raises(MeldwiseError) as raised:
            call()
        assert where in str(raised.value)
        assert "4300 digits" not in str(raised.value)
        assert len(str(raised.value)) < 400


def test_a_japanese_name_may_hold_the_ideographic_space() -> None:
    # U+3000 between family and given name, as Japanese writes names, was refused as
    # an invisible character while an ASCII space passed.
    name = "花子\u3000太郎"
    assert score_rummikub({"racks": {name: ["R1"], "b": []}})["players"][0]["name"] == name
    table = [{"cards": ["4S", "4H", "4D"], "owner": name}]
    advise_shanghai({"hand": ["3S"], "hand_number": 1, "table": table})
    for invisible in ("\u200b", "\u202e", "\u0000", "\u2060", "\ufeff"):
        with pytest.raises(RequestError, match="a player name must be printable"):
            score_rummikub({"racks": {name + invisible: ["R1"]}})


class _Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class _Fields(pydantic.BaseModel):
    """A field for each kind of value problem pydantic reports."""

    flag: bool = True
    strict_flag: pydantic.StrictBool = True
    count: int = 0
    strict_count: pydantic.StrictInt = 0
    ratio: float = 0.0
    name: pydantic.StrictStr = ""
    items: list[int] = []
    mapping: dict[str, int] = {}
    at_least: Annotated[int, pydantic.Field(ge=1)] = 1
    more_than: Annotated[float, pydantic.Field(gt=0)] = 1.0
    at_most: Annotated[int, pydantic.Field(le=9)] = 1
    short: Annotated[list[int], pydantic.Field(min_length=2, max_length=3)] = [1, 2]
    colour: _Colour = _Colour.RED
    format: Literal["text", "json"] = "text"
    single: Literal["only"] = "only"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("flag", "maybe"),
        ("strict_flag", 1),
        ("count", "many"),
        ("count", 1.5),
        ("count", "1" * 5000),
        ("strict_count", "1"),
        ("ratio", "x"),
        ("name", 5),
        ("format", "\ud800"),
        ("items", 5),
        ("mapping", 5),
        ("at_least", 0),
        ("more_than", 0),
        ("at_most", 10),
        ("short", [1]),
        ("short", [1, 2, 3, 4]),
        ("colour", "green"),
        ("format", "xml"),
        ("single", "other"),
    ],
)
def test_each_pydantic_problem_is_worded_of_a_field_and_alone_in_both_languages(
    field: str, value: Any
) -> None:
    """One table words pydantic's problems for a request's field and for a setting's
    value (the command line names the setting before it): each kind in both, in
    English and Japanese. A setting's number of too many digits was pydantic's
    English under a Japanese locale."""
    with pytest.raises(pydantic.ValidationError) as raised:
        _Fields.model_validate({field: value})
    (error,) = raised.value.errors()
    said = {}
    for lang in ("en", "ja"):
        with language(lang):
            for where in (field, None):
                worded = pydantic_problem(
                    error["type"], error["input"], error.get("ctx", {}), where
                )
                assert worded is not None, error["type"]
                said[lang, where] = worded
    assert said["en", field] == f"{field!r} {said['en', None]}"  # the same words, named
    assert said["ja", field].startswith(f"{field!r} ")
    assert said["ja", None] != said["en", None]
    assert any(char >= "\u3040" for char in said["ja", None])  # kana or kanji
