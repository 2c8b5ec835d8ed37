"""Japanese: catalogues complete and compiled, answers equal but for their text, Japanese
notation read, every error naming its culprit, the language chosen by field, header,
flag or locale."""

from __future__ import annotations

import argparse
import inspect
import io
import json
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings
from meldwise.cli import main
from meldwise.commands import COMMANDS as MELDWISE_COMMANDS
from solver import (
    MeldwiseError,
    advise_shanghai,
    repair_rummikub,
    score_rummikub,
    score_shanghai,
    solve_rummikub,
    validate_rummikub,
)
from solver.arena.runner import seats_of
from solver.cli import build_parser
from solver.commands import ARGPARSE_ERRORS
from solver.i18n import LOCALE_DIR, catalogue, from_environment, language, negotiate
from solver.rummikub.cli import _bot_request, describe_review
from solver.rummikub.game_wire import bot_rummikub, game_rummikub, review_rummikub
from solver.rummikub.notation import Colour, Tile, parse_tiles
from solver.shanghai.cli import describe_review as describe_shanghai_review
from solver.shanghai.contracts import Contract
from solver.shanghai.game_wire import game_shanghai
from solver.shanghai.notation import Card, Suit, parse_cards
from tests.api.support import SCORE, SHANGHAI_ADVISE, SOLVE, VALIDATE
from tests.rummikub.games_support import TINY_OPTIONS
from tests.rummikub.replay import replay, table_of

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = LOCALE_DIR / "ja" / "LC_MESSAGES" / "meldwise.po"
TEXT_FIELDS = {"text", "reason", "rule", "unreviewed"}
"""Response fields written for a person; "notes" and "problems" are lists of texts (a
validate answer's problems are objects with a "reason")."""
TEXT_LISTS = {"notes", "problems"}


def _source_messages() -> dict[Any, tuple[str, ...]]:
    """Every message the code says, as Babel extracts it with the project's keywords:
    (context, id) -> the English singular and plural."""
    keywords = {"_": None, "_n": (1, 2), "_p": ((1, "c"), 2), "N_": None, "Nn_": (1, 2)}
    with open(LOCALE_DIR / "babel.cfg") as config:
        from babel.messages.frontend import parse_mapping_cfg

        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    found: dict[Any, tuple[str, ...]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=keywords
    ):
        english = message if isinstance(message, tuple) else (message,)
        found[context, english[0]] = english
    return found


JAPANESE_ONLY = {"names!None:"}
"""Placeholders only the Japanese messages show: the colours' kanji names
(:func:`~solver.rummikub.notation.kanji_names`), which only Japanese players write."""


def _fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a message with their conversion and format spec (a
    translation may say one twice)."""
    return {
        f"{name}!{conversion}:{spec}"
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


def test_every_message_has_a_japanese_translation_with_the_same_placeholders() -> None:
    source = _source_messages()
    assert len(source) > 150  # the extraction found the code's messages
    with open(CATALOGUE, "rb") as file:
        catalogue = read_po(file)
    translated = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalogue}
    translated.pop((None, ""))  # the header
    missing = sorted(str(key) for key in source.keys() - translated.keys())
    assert not missing, f"messages without a Japanese entry (pybabel update): {missing}"
    stale = sorted(str(key) for key in translated.keys() - source.keys())
    assert not stale, f"Japanese entries the code no longer says: {stale}"
    for key, english in source.items():
        entry = translated[key]
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert not entry.fuzzy, f"untranslated: {key}"
        assert all(strings), f"untranslated: {key}"
        assert len(strings) == 1, f"Japanese has one plural form: {key}"
        expected = _fields(english[-1])  # a plural message is given {n}, which ja shows
        assert _fields(str(strings[0])) - JAPANESE_ONLY == expected, f"placeholders differ: {key}"


def test_the_compiled_catalogue_is_the_one_the_po_file_makes() -> None:
    with open(CATALOGUE, "rb") as file:
        catalogue = read_po(file)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    shipped = CATALOGUE.with_suffix(".mo").read_bytes()
    assert compiled.getvalue() == shipped, "run: pybabel compile -d solver/locale -D meldwise"


# --- the same answers in both languages ------------------------------------------------

ACCEPTANCE = {"rack": ["赤1", "赤2", "J"], "table": [["赤3", "赤4", "赤5"]]}
POSITIONS: list[dict[str, Any]] = [
    {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]]},
    {"rack": ["K8", "K9", "O1"], "table": [["B7", "K7", "O7", "R7"], ["R1", "R2", "R3"]]},
    {"rack": ["R6", "B6"], "table": [["R3", "R4", "R5", "R6", "R7", "R8"], ["K6", "O6", "B6"]]},
    {"rack": ["J", "O11", "O12"], "table": [["B10", "B11", "B12", "B13"]], "opened": False},
    {"rack": ["B1", "K9"], "table": [["R5", "R6", "R7"]]},
    {  # the strong bot's advice: it keeps the set of 3s and the joker back
        "rack": ["R3", "B3", "K3", "J", "R8", "B11", "O2"],
        "table": [["R5", "R6", "R7"]],
        "opponents": [{"rack_size": 9, "opened": True}],
    },
    {"rack": ["R10", "B10", "K10"], "table": [], "opened": False, "objective": "points"},
]


def _without_text(answer: Any) -> Any:
    """The answer with every text for a person left out."""
    if isinstance(answer, dict):
        return {
            key: _without_text(value)
            for key, value in answer.items()
            if key not in TEXT_FIELDS
            and not (key in TEXT_LISTS and all(isinstance(v, str) for v in value))
        }
    if isinstance(answer, list):
        return [_without_text(item) for item in answer]
    return answer


def _texts(answer: Any) -> Iterator[str]:
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in TEXT_FIELDS and isinstance(value, str):
                yield value
            elif key in TEXT_LISTS and all(isinstance(v, str) for v in value):
                yield from value
            else:
                yield from _texts(value)
    elif isinstance(answer, list):
        for item in answer:
            yield from _texts(item)


def _is_japanese(text: str) -> bool:
    return any("\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff" for c in text)


def test_a_japanese_request_gets_japanese_steps_that_replay_like_the_english_ones() -> None:
    english = solve_rummikub(ACCEPTANCE)
    japanese = solve_rummikub({**ACCEPTANCE, "lang": "ja"})
    assert _without_text(japanese) == _without_text(english)
    table = [["R3", "R4", "R5"]]
    for answer in (english, japanese):
        after, used = replay(table, ["R1", "R2", "J"], answer["steps"])
        assert after == table_of(answer["table"])
        assert used == Counter(answer["played"])
    assert japanese["steps"][0]["text"] == (
        "手持ちのR1 R2 Jをセット0に加えて、赤の1-6のランにします: R1 R2 R3 R4 R5 J(R6)。"
    )


@pytest.mark.parametrize("level", ["full", "tile", "nudge"])
def test_solving_in_japanese_changes_only_the_text(level: str) -> None:
    for position in POSITIONS:
        request = {**position, "hint_level": level}
        english = solve_rummikub(request)
        japanese = solve_rummikub({**request, "lang": "ja"})
        assert _without_text(japanese) == _without_text(english)
        texts = list(_texts(japanese))
        assert all(_is_japanese(text) for text in texts), texts
        assert len(texts) == len(list(_texts(english)))


def test_validate_score_and_shanghai_change_only_the_text() -> None:
    requests: list[tuple[Callable[[dict[str, Any]], dict[str, Any]], dict[str, Any]]] = [
        (validate_rummikub, {"rack": ["R5"], "table_before": [], "table_after": [["R5", "R6"]]}),
        (
            validate_rummikub,
            {
                "rack": ["R1", "R2", "R3"],
                "table_before": [["K7", "B7", "O7"]],
                "table_after": [["R1", "R2", "R3"], ["K7", "B7"]],
                "opened": False,
            },
        ),
        (score_rummikub, {"racks": {"ann": [], "bo": ["R5", "J"]}}),
        (score_shanghai, {"hands": {"ann": [], "bo": ["AS", "JK"]}}),
        (
            advise_shanghai,
            {
                "hand": ["7H", "7S", "7D", "JK", "10C", "AS", "2H", "3H", "4H", "5C", "9D"],
                "hand_number": 1,
                "upcard": "9C",
            },
        ),
        (
            advise_shanghai,
            {
                "hand": ["8H", "9C", "KD"],
                "hand_number": 2,
                "down": True,
                "table": [{"cards": ["8S", "8D", "8C"]}, {"cards": ["5C", "6C", "7C", "8C"]}],
                "upcard": "QD",
            },
        ),
        (  # the draw phase: take, draw or buy, with the cards seen
            advise_shanghai,
            {
                "hand": ["7H", "7S", "7D", "JK", "10C", "AS", "2H", "3H", "4H", "5C"],
                "hand_number": 1,
                "phase": "draw",
                "upcard": "9C",
                "seen": ["4C", "9D"],
                "buys_left": 0,
            },
        ),
        (  # the draw phase of a player who is down
            advise_shanghai,
            {
                "hand": ["8H", "9C", "KD"],
                "hand_number": 2,
                "phase": "draw",
                "down": True,
                "table": [{"cards": ["8S", "8D", "8C"]}, {"cards": ["5C", "6C", "7C", "8C"]}],
                "upcard": "QD",
            },
        ),
        (  # the play phase, the turn solved as a whole with the discard's danger
            advise_shanghai,
            {
                "hand": ["7H", "7S", "7D", "JK", "10C", "10D", "10S", "AS", "3H", "KD", "9D"],
                "hand_number": 1,
                "phase": "play",
                "next_player": {"down": False, "took": ["KC"]},
            },
        ),
        (  # the play phase that goes out on the table's aces
            advise_shanghai,
            {
                "hand": ["AS", "AD", "AC", "KS", "KD", "KC", "5S", "5D", "5C"],
                "hand_number": 1,
                "phase": "play",
                "table": [{"cards": ["AH", "AH", "AD"]}],
            },
        ),
        (  # a player who is down holds one card: no legal end of the turn
            advise_shanghai,
            {
                "hand": ["KD"],
                "hand_number": 2,
                "phase": "play",
                "down": True,
                "table": [{"cards": ["8S", "8D", "8C"]}, {"cards": ["5C", "6C", "7C", "8C"]}],
            },
        ),
    ]
    for function, request in requests:
        english = function(request)
        japanese = function({**request, "lang": "ja"})
        assert _without_text(japanese) == _without_text(english)
        texts = list(_texts(japanese))
        assert all(_is_japanese(text) for text in texts), texts
        assert len(texts) == len(list(_texts(english)))


def test_bots_games_and_reviews_change_only_the_text() -> None:
    position = {"rack": ["R3", "B3", "K3", "J", "R8", "B11", "O2"], "table": [["R5", "R6", "R7"]]}
    bot = {"bot": "strong", **position, "opponents": [{"rack_size": 9, "opened": True}]}
    english, japanese = bot_rummikub(bot), bot_rummikub({**bot, "lang": "ja"})
    assert _without_text(japanese) == _without_text(english)
    assert _is_japanese(japanese["reason"])
    assert "R3" not in japanese["played"]
    game = {"bots": ["strong", "greedy"], "seed": 3, "settings": TINY_OPTIONS}
    record = game_rummikub({**game, "lang": "ja"})["record"]
    assert record == game_rummikub(game)["record"]
    shanghai = {"bots": ["strong", "greedy"], "seed": 3, "settings": {"hands": 1}}
    assert game_shanghai({**shanghai, "lang": "ja"}) == game_shanghai(shanghai)
    # An illegal turn (two tiles laid as a set), then a turn facing that invalid set.
    index = next(i for i, t in enumerate(record["turns"]) if t["action"] == "play")
    turn, following = record["turns"][index], record["turns"][index + 1]
    turn["table_after"] = [*turn["table_before"], turn["rack"][:2]]
    turn.pop("played")
    following["table_before"] = turn["table_after"]
    if following["action"] != "play":
        following["table_after"] = turn["table_after"]
    english = review_rummikub({"record": record})
    japanese = review_rummikub({"record": record, "lang": "ja"})
    assert _without_text(japanese) == _without_text(english)
    texts = list(_texts(japanese))
    assert len(texts) >= 2, texts
    assert all(_is_japanese(text) for text in texts), texts
    record["turns"][0]["player"] = 9
    refused = r"^record: turns\[0\]: 2人のゲームにプレイヤー9はいません$"
    with pytest.raises(MeldwiseError, match=refused):
        review_rummikub({"record": record, "lang": "ja"})


# --- notation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("Y5", "O5"),
        ("y13", "O13"),
        ("黄1", "O1"),
        ("橙1", "O1"),
        ("オレンジ7", "O7"),
        ("赤5", "R5"),
        ("青13", "B13"),
        ("黒7", "K7"),
        ("\uff32\uff15", "R5"),  # full-width
        ("赤１２", "R12"),
        ("ジョーカー", "J"),
    ],
)
def test_japanese_tile_notation_is_read_as_the_standard_tile(written: str, meant: str) -> None:
    answer = solve_rummikub({"rack": [written], "table": [], "hint_level": "full"})
    assert answer["rack_left"] == [meant]


def test_y_is_yellow_in_a_game_where_yellow_is_a_colour() -> None:
    six = {"colours": 6}
    answer = solve_rummikub({"rack": ["Y5", "黄6", "O7"], "rules": six})
    assert answer["rack_left"] == ["O7", "Y5", "Y6"]
    assert Tile.parse("黄6") == Tile.natural(Colour.YELLOW, 6)
    with pytest.raises(MeldwiseError, match=r"'Y5'.*R B K"):
        solve_rummikub({"rack": ["Y5"], "rules": {"colours": 3}})


@pytest.mark.parametrize(
    ("colours", "names"),
    [(2, "赤・青)"), (4, "赤・青・黒・黄)"), (6, "赤・青・黒・橙・緑・黄)")],
)
def test_an_unknown_colour_is_answered_with_the_games_colours_in_kanji(
    colours: int, names: str
) -> None:
    """Orange is 黄 where yellow is no colour; the kanji once were always 赤・青・黒・黄."""
    request = {"rack": ["Z5"], "rules": {"colours": colours}, "lang": "ja"}
    with pytest.raises(MeldwiseError) as raised:
        solve_rummikub(request)
    assert str(raised.value).endswith("、または" + names)
    for name in names.rstrip(")").split("・"):  # each reads as a tile of the game
        solve_rummikub({**request, "rack": [f"{name}5"]})


def test_notation_rbyk_writes_orange_as_y_everywhere() -> None:
    request = {"rack": ["K8", "K9", "Y1"], "table": [["B7", "K7", "Y7", "R7"]]}
    standard = solve_rummikub(request)
    answer = solve_rummikub({**request, "notation": "RBYK", "lang": "ja"})
    written = json.dumps(_without_text(answer))
    assert "O" not in written.replace('"optimal"', "")
    assert written == json.dumps(_without_text(standard)).replace('"O', '"Y')
    run = solve_rummikub({"rack": ["黄8"], "table": [["Y5", "O6", "黄7"]], "notation": "RBYK"})
    assert run["steps"][0]["text"] == (
        "Add your Y8 to set 0, making the orange run 5-8: Y5 Y6 Y7 Y8."
    )
    checked = validate_rummikub(
        {
            "rack": ["黄8"],
            "table_before": [["Y5", "O6", "黄7"]],
            "table_after": [["Y5", "Y6", "Y7", "Y8"]],
            "notation": "RBYK",
        }
    )
    assert checked == {"legal": True, "played": ["Y8"], "problems": [], "consequence": None}
    with pytest.raises(MeldwiseError, match="RBYK"):
        solve_rummikub({**request, "notation": "RBYK", "rules": {"colours": 6}})


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("7♥", "7H"),
        ("10♠", "10S"),
        ("♠A", "AS"),
        ("Q♦", "QD"),
        ("\uff12♣", "2C"),  # full-width
        ("ジョーカー", "JK"),
        # A phone's emoji keyboard adds a variation selector (U+FE0F): refused once.
        ("7\u2665\ufe0f", "7H"),
        ("\u2666\ufe0fQ", "QD"),
        ("7\u2764\ufe0f", "7H"),
    ],
)
def test_shanghai_reads_suit_symbols_and_the_japanese_joker(written: str, meant: str) -> None:
    assert str(Card.parse(written)) == meant
    answer = score_shanghai({"hands": {"ann": [written]}})
    assert answer["scores"][0]["cards"] == [meant]
    assert Card.parse("♡3") == Card(3, Suit.HEARTS)


# --- errors name the culprit in Japanese -----------------------------------------------

BAD_REQUESTS: list[tuple[Any, dict[str, Any], str]] = [
    (solve_rummikub, {"rack": ["Q5"]}, "'Q5'"),
    (solve_rummikub, {"rack": ["R14"]}, "'R14'"),
    (solve_rummikub, {"rack": ["R1"], "colour": 1}, "'colour'"),
    (solve_rummikub, {"rack": ["R1", "R1", "R1"]}, "R1"),
    (solve_rummikub, {"rack": ["J", "J", "J"]}, "(J)"),
    (solve_rummikub, {"rack": ["R1"], "table": [["R1", "B2", "K3"]]}, "(R1 B2 K3)"),
    (solve_rummikub, {"rack": ["R1"], "table": [["R1", "R2"]]}, "R1 R2"),
    (solve_rummikub, {"rack": ["R1"], "rules": {"jokers": 9}}, "'jokers'"),
    (solve_rummikub, {"rack": ["R1"], "rules": {"joker": 1}}, "'joker'"),
    (solve_rummikub, {"rack": ["R1"], "hint_level": "all"}, "'all'"),
    (solve_rummikub, {"rack": ["R1"], "objective": "fun"}, "'fun'"),
    (solve_rummikub, {"rack": ["R1"], "notation": "RGB"}, "'RGB'"),
    (solve_rummikub, {"rack": ["R1"], "time_limit_ms": 0}, "'time_limit_ms'"),
    (validate_rummikub, {"rack": [], "table_before": [["R1"]], "table_after": []}, "table_before"),
    (score_rummikub, {"racks": {"ann": ["X1"]}}, "'X1'"),
    (advise_shanghai, {"hand": ["7X"], "hand_number": 1}, "'7X'"),
    (advise_shanghai, {"hand": ["7H"], "hand_number": 11}, "'hand_number'"),
    (advise_shanghai, {"hand": ["7H"], "contract": {"sets": [1]}}, "'sets'"),
    (advise_shanghai, {"hand": ["7H"], "hand_number": 1, "table": [{"cards": ["7H"]}]}, "7H"),
    (score_shanghai, {"hands": {"ann": ["JK"] * 9}}, "(JK)"),
    # "across rack and table" was left in English here, and pydantic's message for text
    # that is no valid Unicode.
    (repair_rummikub, {"table": [["R1", "R2", "R3"]], "rack": ["R1", "R1"]}, "R1"),
    (solve_rummikub, {"rack": ["R1"], "objective": "\ud800"}, "'objective'"),
    (advise_shanghai, {"hand": ["7H"], "hand_number": 1, "phase": "\udfff"}, "'phase'"),
]

ENGLISH_WORDS = re.compile(r"\b(the|across|and|must|got|of|or|is|are|with|from|should)\b")
"""Words of an English sentence (field and rule names, which stay English, are none)."""


@pytest.mark.parametrize(("function", "request_", "culprit"), BAD_REQUESTS)
def test_every_japanese_error_still_names_the_culprit(
    function: Any, request_: dict[str, Any], culprit: str
) -> None:
    with pytest.raises(MeldwiseError) as english:
        function(request_)
    with pytest.raises(MeldwiseError) as japanese:
        function({**request_, "lang": "ja"})
    assert culprit in str(english.value)
    assert culprit in str(japanese.value)
    assert _is_japanese(str(japanese.value))
    assert not ENGLISH_WORDS.search(str(japanese.value)), str(japanese.value)


CHOICES: list[tuple[Any, dict[str, Any], list[str]]] = [
    (solve_rummikub, {"rack": ["R1"], "hint_level": "x"}, ["'nudge'", "'tile'", "'full'"]),
    (solve_rummikub, {"rack": ["R1"], "objective": "x"}, ["'tiles'", "'points'"]),
    (solve_rummikub, {"rack": ["R1"], "notation": "x"}, ["'RBKO'", "'RBYK'"]),
    (advise_shanghai, {"hand": ["7H"], "hand_number": 1, "phase": "x"}, ["'draw'", "'play'"]),
    (bot_rummikub, {"rack": ["R1"], "bot": "x"}, ["'beginner'", "'greedy'", "'strong'"]),
    (game_rummikub, {"bots": ["greedy", "x"]}, ["'beginner'", "'greedy'", "'strong'"]),
    (game_rummikub, {"bots": ["greedy"] * 2, "settings": {"pool_empty": "x"}}, ["'play_on'"]),
    (game_shanghai, {"bots": ["greedy", "x"]}, ["'greedy'", "'strong'"]),
]


@pytest.mark.parametrize(("function", "request_", "values"), CHOICES)
def test_the_allowed_values_are_listed_in_the_language_of_the_sentence(
    function: Any, request_: dict[str, Any], values: list[str]
) -> None:
    # The list of choices was pydantic's English ("'a', 'b' or 'c'") inside Japanese text.
    with pytest.raises(MeldwiseError) as english:
        function(request_)
    with pytest.raises(MeldwiseError) as japanese:
        function({**request_, "lang": "ja"})
    assert all(value in str(english.value) for value in values)
    assert all(value in str(japanese.value) for value in values)
    assert " or " in str(english.value)
    assert " or " not in str(japanese.value)
    assert "のいずれか" in str(japanese.value)


def test_an_unknown_lang_is_refused_in_both_languages() -> None:
    with pytest.raises(MeldwiseError, match=r"'fr'.*'ja'"):
        solve_rummikub({"rack": ["R1"], "lang": "fr"})


# --- choosing the language -------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", "ja"),
        ("en-US,en;q=0.9,ja;q=0.8", "en"),
        ("fr-FR, ja;q=0.5", "ja"),
        ("ja;q=0, en", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("ja;q=oops", "en"),
        # * stands for every language not named: English here, ja named lower.
        ("*;q=1, ja;q=0.5", "en"),
        ("en;q=0, *", "ja"),
        # A q above 1 (or not written as RFC 9110 writes one) is no quality value.
        ("ja;q=2, en", "en"),
        ("ja;q=1.5e0", "en"),
        ("ja;q=inf", "en"),
    ],
)
def test_accept_language_negotiation(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ja_JP.eucJP"}, "ja"),
        ({"LANGUAGE": "fr:ja", "LANG": "en_GB.UTF-8"}, "ja"),
        ({}, "en"),
    ],
)
def test_the_command_line_language_follows_the_locale(environ: dict[str, str], lang: str) -> None:
    assert from_environment(environ) == lang


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, rate_limit=""))) as client:
        yield client


@pytest.mark.parametrize("tag", ["ja", "JA", "Ja", "ja-JP", "JA-jp", "ja-Jpan-JP", "EN", "en-GB"])
def test_the_body_lang_reads_a_tag_as_the_accept_language_header_does(
    client: TestClient, tag: str
) -> None:
    # A language tag is case-insensitive (BCP 47): "lang": "JA" was refused while the
    # header Accept-Language: JA was read as Japanese.
    lang = negotiate(tag)
    by_header = client.post(SOLVE, json=ACCEPTANCE, headers={"Accept-Language": tag})
    by_field = client.post(SOLVE, json={**ACCEPTANCE, "lang": tag})
    assert by_field.status_code == by_header.status_code == 200, by_field.text
    assert by_field.json() == by_header.json() == solve_rummikub({**ACCEPTANCE, "lang": lang})
    refused = client.post(SOLVE, json={"rack": ["Q5"], "lang": tag})
    assert refused.status_code == 422
    assert _is_japanese(refused.json()["detail"]) == (lang == "ja"), refused.text


@pytest.mark.parametrize("tag", ["JA", "ja-JP", "jA-x-private"])
def test_the_dict_api_and_the_command_line_read_a_lang_tag_in_any_case(
    tag: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert solve_rummikub({**ACCEPTANCE, "lang": tag}) == solve_rummikub(
        {**ACCEPTANCE, "lang": "ja"}
    )
    with pytest.raises(MeldwiseError) as refused:
        solve_rummikub({"rack": ["Q5"], "lang": tag})
    assert _is_japanese(str(refused.value))
    monkeypatch.setenv("LANGUAGE", "en")
    rack = ["solve", "--rack", "R1 R2 R3"]
    said = _said([*rack, "--lang", tag], capsys)
    assert said == _said([*rack, "--lang", "ja"], capsys)
    assert said[0] == 0
    assert _is_japanese(said[1])
    assert _said(["--lang", tag, *rack], capsys) == said


@pytest.mark.parametrize("tag", ["fr", "jaa", "j", "ja-", "ja_JP", "ja--JP", "ja-toolongsubtag"])
def test_a_tag_of_no_language_meldwise_speaks_is_refused_and_ignored_in_the_header(
    tag: str,
) -> None:
    with pytest.raises(MeldwiseError, match=r"unknown lang.*'en' or 'ja'"):
        solve_rummikub({"rack": ["R1"], "lang": tag})
    assert negotiate(tag) == "en"
    # What is not a language tag is ignored in the header, as one Meldwise does not speak.
    assert negotiate(f"{tag}, ja;q=0.5") == "ja"


def test_http_lang_field_and_accept_language(client: TestClient) -> None:
    english = client.post(SOLVE, json=ACCEPTANCE).json()
    by_field = client.post(SOLVE, json={**ACCEPTANCE, "lang": "ja"})
    by_header = client.post(SOLVE, json=ACCEPTANCE, headers={"Accept-Language": "ja-JP,ja"})
    assert "Accept-Language" in by_header.headers["vary"]
    assert by_field.json() == by_header.json() == solve_rummikub({**ACCEPTANCE, "lang": "ja"})
    assert _without_text(by_field.json()) == _without_text(english)
    field_wins = client.post(
        SOLVE, json={**ACCEPTANCE, "lang": "en"}, headers={"Accept-Language": "ja"}
    )
    assert field_wins.json() == english
    # Two header lines are one list: the first alone made this English.
    two_lines = [("Accept-Language", "en;q=0.1"), ("Accept-Language", "ja")]
    assert client.post(SOLVE, json=ACCEPTANCE, headers=two_lines).json() == by_field.json()


def test_http_errors_speak_japanese_and_name_the_culprit(client: TestClient) -> None:
    ja = {"Accept-Language": "ja"}
    cases = [
        (SOLVE, {"rack": ["Q5"]}, ja, "'Q5'"),
        (SOLVE, {"rack": ["Q5"], "lang": "ja"}, {}, "'Q5'"),
        (SOLVE, {"rack": ["R1"], "colour": 1}, ja, "'colour'"),
        (SOLVE, {"rack": ["R1"], "colour": 1, "lang": "ja"}, {}, "'colour'"),
        (SOLVE, {"rack": [5]}, ja, "rack[0]"),
        (SOLVE, {"rack": ["R1"], "time_limit_ms": 0}, ja, "time_limit_ms"),
        (SOLVE, {}, ja, "'rack'"),
        (VALIDATE, {"rack": [], "table_before": [["R1"]], "table_after": []}, ja, "table_before"),
        (SCORE, {"racks": {"ann": ["X1"]}}, ja, "'X1'"),
        (SHANGHAI_ADVISE, {"hand": ["7X"], "hand_number": 1}, ja, "'7X'"),
        (SOLVE, {"rack": ["R1"], "hint_level": "x"}, ja, "'nudge'、'tile'、'full'"),
    ]
    for path, body, headers, culprit in cases:
        response = client.post(path, json=body, headers=headers)
        assert response.status_code == 422, (body, response.text)
        detail = response.json()["detail"]
        assert culprit in detail, (body, detail)
        assert _is_japanese(detail), (body, detail)
    not_json = client.post(SOLVE, content=b"rack", headers={**ja, "Content-Type": "text/plain"})
    assert not_json.status_code == 415
    assert "'text/plain'" in not_json.json()["detail"]
    assert _is_japanese(not_json.json()["detail"])
    too_big = client.post(
        SOLVE, content=b" " * 20_000, headers={**ja, "Content-Type": "application/json"}
    )
    assert too_big.status_code == 413
    assert _is_japanese(too_big.json()["detail"])
    refused = client.post(SOLVE, json={"rack": ["R1"], "lang": "fr"})
    assert refused.status_code == 422
    assert "lang" in refused.json()["detail"]


def test_validate_lists_its_problems_in_japanese(client: TestClient) -> None:
    body = {"rack": ["R5"], "table_before": [], "table_after": [["R5", "R6"]], "lang": "ja"}
    answer = client.post(VALIDATE, json=body).json()
    assert answer["legal"] is False
    assert all(_is_japanese(p["reason"]) for p in answer["problems"])
    assert any("R6" in p["reason"] for p in answer["problems"])


def test_an_empty_set_left_on_the_table_is_named_in_japanese() -> None:
    # The name was asked for inside an f-string, which extraction skips: it had no
    # Japanese entry, and the reason read 'empty set: セットは3枚以上必要です...'.
    body = {"rack": ["R1"], "table_before": [], "table_after": [[], ["R1"]], "lang": "ja"}
    reason = validate_rummikub(body)["problems"][0]["reason"]
    assert reason.startswith("空のセット: ")
    assert not re.search("[a-z]", reason)


# --- the command line ------------------------------------------------------------------


def test_cli_lang_flag_and_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["solve", "--rack", "K8 K9 O1", "--table", "B7 K7 O7 R7 | R1 R2 R3"]
    assert main([*args, "--lang", "ja"]) == 0
    flagged = capsys.readouterr().out
    assert "2枚(17点)を出します: K8 K9" in flagged
    assert "場のセット0(7のグループ)からK7を取ります。" in flagged
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(args) == 0
    assert capsys.readouterr().out == flagged
    assert main([*args, "--lang", "en"]) == 0
    assert "Play 2 tiles, 17 points: K8 K9" in capsys.readouterr().out
    assert main(["solve", "--rack", "Q5"]) == 2
    assert "不明なタイル 'Q5'" in capsys.readouterr().err
    assert main(["game", "--bots", "greedy,greedy", "--option", "foo"]) == 2
    assert "--option は 名前=値 で指定してください(指定値: 'foo')" in capsys.readouterr().err
    assert main([*args, "--notation", "RBYK", "--lang", "en"]) == 0
    assert "0. group  R7 B7 Y7" in capsys.readouterr().out
    assert main(["shanghai", "score", "--hand", "ann=A♠ ジョーカー", "--hand", "bo="]) == 0
    assert capsys.readouterr().out == "ann: 40点  AS JK\nbo: 0点  (上がり)\n"
    advise = ["shanghai", "advise", "--hand", "9C 9D 5H", "--sets", "3", "--phase", "draw"]
    assert main([*advise, "--upcard", "9S", "--lang", "ja"]) == 0
    drawn = capsys.readouterr().out
    assert "引く前:" in drawn
    assert "9Sは不足枚数(あと必要な枚数、厳密値)を1から0にします" in drawn
    assert "  取る (+1)、不足枚数 0.00" in drawn
    play = ["shanghai", "advise", "--hand", "AS AD AC KS KD KC 5S 5D 5C", "--hand-number", "1"]
    assert main([*play, "--phase", "play", "--table", "AH AH AD", "--lang", "ja"]) == 0
    assert "手番の終わり: 上がり(0点)" in capsys.readouterr().out


def test_the_readmes_list_of_what_is_said_in_japanese_names_every_text_field() -> None:
    """README.ja.md lists the texts that come in Japanese as docs/i18n.md does: it left
    out a bot's reason, a repair's and validate's penalty texts and a review's
    unreviewed, and named the nudge, which has no text over HTTP."""
    readme = (ROOT / "README.ja.md").read_text()
    said = readme[readme.index("日本語になるのは") :].split("\n\n")[0]
    english = (ROOT / "docs" / "i18n.md").read_text()
    listed = english[english.index("What changes:") :].split("\n\n")[0]
    for field in sorted(TEXT_FIELDS | TEXT_LISTS | {"penalty.text", "consequence.text"}):
        named = re.compile(rf"[`.]{re.escape(field)}[`.\[]")
        assert named.search(listed), field
        assert named.search(said), field
    assert "ナッジ" not in said


def test_the_japanese_readme_names_every_package_the_tests_need() -> None:
    """README.md says which system packages some tests need (Chromium, redis-server,
    nginx) and that they are skipped without them; README.ja.md left out nginx, which
    tests/test_nginx.py needs."""
    install = re.compile(r"apt-get\s+install\s+-y\s+([\w-]+)")
    english = set(install.findall((ROOT / "README.md").read_text()))
    japanese = set(install.findall((ROOT / "README.ja.md").read_text()))
    assert {"chromium", "redis-server", "nginx"} <= english
    assert english - japanese == set()


def test_the_japanese_readme_names_every_route_that_takes_lang(client: TestClient) -> None:
    """README.ja.md's HTTP section listed the routes that take lang, as docs/i18n.md says
    every /v1 route does, but left out repair and Rummikub's bot, game and review."""
    readme = (ROOT / "README.ja.md").read_text()
    said = readme[readme.index("### HTTP") : readme.index("### Python")]
    routes = [path for path in client.app.openapi()["paths"] if path.startswith("/v1/")]  # type: ignore[attr-defined]
    assert len(routes) > 10
    assert [path for path in routes if f"`{path}`" not in said] == []


def test_lists_split_at_separators_typed_full_width(capsys: pytest.CaptureFixture[str]) -> None:
    """Commas, the set bar, = and : typed on a Japanese keyboard (U+FF0C, U+3001, U+FF5C,
    U+FF1D, U+FF1A) were part of the tile or name: R1,R2 typed full width was refused as
    one tile, while its NFKC form was two."""
    assert [str(t) for t in parse_tiles("\uff32\uff11\uff0c\uff32\uff12")] == ["R1", "R2"]
    assert [str(t) for t in parse_tiles("R1\u3001R2\u3000R3")] == ["R1", "R2", "R3"]
    assert [str(c) for c in parse_cards("7H\uff0c8H")] == ["7H", "8H"]
    args = ["solve", "--rack", "K8 K9", "--table", "B7 K7 O7 R7 \uff5c R1 R2 R3"]
    assert main(args) == 0
    assert "Table sets kept whole: 1" in capsys.readouterr().out
    assert main(["repair", "--table", "R1 R2 R3", "--rack", "R4\uff0cR5"]) == 0
    assert "R4 R5" in capsys.readouterr().out
    assert main(["shanghai", "score", "--hand", "太郎\uff1dAS", "--hand", "bo="]) == 0
    assert capsys.readouterr().out.startswith("太郎: 15 points  AS")
    table = ["--table", "太郎\uff1a8H 8S 8D"]
    assert main(["shanghai", "advise", "--hand", "8C 5H", "--hand-number", "1", *table]) == 0
    assert "error" not in capsys.readouterr().err


def test_japanese_errors_read_as_japanese_sentences() -> None:
    """Clauses joined with an ASCII '; ', 'one of' said of a single value, a game's
    colours listed without their kanji."""
    with pytest.raises(MeldwiseError) as raised:
        validate_rummikub({"lang": "ja"})
    missing = [f"項目 {name!r} がありません" for name in ("rack", "table_before", "table_after")]
    assert str(raised.value) == "\uff0f".join(missing)
    with pytest.raises(MeldwiseError) as raised:
        review_rummikub({"record": {"format": "x", "version": 1, "turns": []}, "lang": "ja"})
    assert "'record.format' は 'meldwise-rummikub-game' で指定してください" in str(raised.value)
    with pytest.raises(MeldwiseError) as raised:
        solve_rummikub({"rack": ["G5"], "lang": "ja"})
    assert str(raised.value).endswith("このゲームの色は R B K O(赤・青・黒・黄)です")
    with pytest.raises(MeldwiseError) as raised:
        solve_rummikub({"rack": ["R1"], "rules": {"joker_retrieval": "x"}, "lang": "ja"})
    assert "'free'、'replace' のいずれか" in str(raised.value)


def test_a_contract_and_a_tournament_error_are_said_in_japanese() -> None:
    """Illegal Shanghai moves named the contract in English ("set of 3 + set of 3"), and
    the tournament's own checks were English f-strings."""
    with language("ja"):
        assert str(Contract.for_hand(2)) == "3枚のセット + 4枚のラン"
        with pytest.raises(
            MeldwiseError, match=r'^\'bots\' にボットの名前がありません\(指定値: \[""\]\)。'
        ):
            seats_of([""], 2)


@pytest.mark.parametrize(("sizes", "word"), [({"sets": [2]}, "セット"), ({"runs": [3]}, "ラン")])
def test_a_contract_size_out_of_range_names_the_meld_in_japanese(
    sizes: dict[str, list[int]], word: str
) -> None:
    """The range was said with the field's name as an English word: 'このルールでは sets
    は3\uff5e12枚です'."""
    (name,) = sizes
    with pytest.raises(MeldwiseError) as raised:
        advise_shanghai({"hand": ["7H"], "contract": sizes, "lang": "ja"})
    said = str(raised.value)
    assert f"{name!r}" in said  # the culprit, quoted
    assert name not in said.replace(f"{name!r}", "")  # and no English word besides
    assert f"このルールでは{word}は" in said


def test_argparse_says_its_usage_errors_in_the_language_asked_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # argparse's own errors were English whatever --lang or the locale said.
    with pytest.raises(SystemExit) as exited:
        main(["solve", "--rack", "--lang", "ja"])
    assert exited.value.code == 2
    assert "エラー: 引数 --rack: 値を1つ指定してください" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    with pytest.raises(SystemExit):
        main(["solve", "--rack", "R1", "--objective", "best"])
    assert (
        "指定できない値です: 'best'('tiles', 'points' から選んでください)"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit):
        main(["solve", "--rack", "R1", "--lang", "en", "--bogus"])
    assert "error: unrecognized arguments: --bogus" in capsys.readouterr().err
    # The usage line and --help stay English; so does argparse elsewhere in the process.
    assert argparse._("expected one argument") == "expected one argument"  # type: ignore[attr-defined]


def test_argparse_errors_in_the_catalogue_are_the_ones_argparse_says() -> None:
    # Each message is looked up by argparse's own text: one it no longer says (another
    # Python) would stay English without a word.
    source = inspect.getsource(argparse)
    placeholders = re.compile(r"%(?:\([a-z_]+\))?[sr]")
    words = catalogue("ja")
    for entry in ARGPARSE_ERRORS:
        forms = (entry,) if isinstance(entry, str) else entry
        for english in forms:
            assert repr(english)[1:-1] in source, english
        japanese = words.gettext(entry) if isinstance(entry, str) else words.ngettext(*entry, 2)
        assert japanese != forms[-1]
        assert sorted(placeholders.findall(japanese)) == sorted(placeholders.findall(forms[-1]))


def test_a_command_line_without_words_says_what_it_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``meldwise`` alone crashed with a traceback (a ValueError looking for ``--lang``
    in no words) instead of argparse's usage error, in the locale's language."""
    monkeypatch.setenv("LANGUAGE", "ja")
    with pytest.raises(SystemExit) as stopped:
        main([])
    assert stopped.value.code == 2
    assert "エラー: コマンドを指定してください: solve、validate、" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "said"),
    [("", "標準入力が空です: JSONが必要です"), ("{", "標準入力は正しいJSONではありません: ")],
)
def test_standard_input_is_named_in_a_japanese_sentence_without_a_space(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str, said: str
) -> None:
    """A record piped in (meldwise game | meldwise review -) that was empty or no JSON
    was refused as '標準入力 が空です': the space a file's name needs before the particle."""
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["review", "--lang", "ja", "-"]) == 2
    assert f"エラー: {said}" in capsys.readouterr().err


def test_a_request_that_is_no_object_names_its_kind_in_japanese(client: TestClient) -> None:
    """The kind of JSON value sent was an English word in the Japanese sentence:
    "リクエストはJSONオブジェクトで送ってください(受け取ったのは array)"."""
    headers = {"Accept-Language": "ja", "Content-Type": "application/json"}
    for body, kind in (("[1]", "配列"), ('"R5"', "文字列"), ("5", "数値"), ("true", "真偽値")):
        for route in (SOLVE, SHANGHAI_ADVISE):
            detail = client.post(route, content=body, headers=headers).json()["detail"]
            assert detail == f"リクエストはJSONオブジェクトで送ってください(受け取ったのは {kind})"
    english = client.post(SOLVE, content="[1]", headers={"Content-Type": "application/json"})
    assert english.json()["detail"].endswith("got array")


def test_a_tied_discard_is_not_said_to_leave_fewer_than_every_other() -> None:
    """The phrase "the fewest any discard leaves" was translated as fewer than any discard leaves
    (どのカードを捨てた場合よりも少ない), and the same sentence then counted the
    discards tied with it."""
    hand = "7♥ 7♠ 7♦ ジョーカー 10♣ 9♥ 8♥ J♥ Q♥ K♠ 2♠ 3♠"
    request = {"hand": hand.split(), "hand_number": 1, "phase": "play", "lang": "ja"}
    request["table"] = [{"cards": ["8H", "8S", "8D"]}, {"cards": ["JC", "QC", "KC", "AC"]}]
    reason = advise_shanghai(request)["discard"]["reason"]
    assert "1枚(厳密値)足りません。どのカードを捨ててもこれより少なくはなりません。" in reason
    assert "通りの中で" in reason  # tied with others


def test_every_draw_advice_says_draw_alike_in_japanese() -> None:
    """One "Draw: ..." advice of the upcard began 引く:, the others 山札から引きます:."""
    with open(CATALOGUE, "rb") as file:
        entries = [m for m in read_po(file) if isinstance(m.id, str) and m.id.startswith("Draw: ")]
    assert len(entries) > 3
    assert all(str(m.string).startswith("山札から引きます: ") for m in entries)


@pytest.mark.parametrize("flag", [["--lan", "ja"], ["--la=ja"], ["--lang=ja"], ["--l", "ja"]])
def test_usage_errors_follow_an_abbreviated_lang_flag(
    flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse reads --lan ja as --lang ja, so the answer was Japanese while a usage
    error on the same line was said in English."""
    with pytest.raises(SystemExit):
        main(["solve", *flag, "--objective", "x"])
    assert "エラー: 引数 --objective: 指定できない値です: 'x'" in capsys.readouterr().err
    assert main(["solve", *flag, "--rack", "X1"]) == 2
    assert "不明なタイル 'X1'" in capsys.readouterr().err


@pytest.mark.parametrize("locale", ["C", "ja_JP.UTF-8"])
def test_lang_given_twice_is_refused_in_the_locales_language_when_they_disagree(
    locale: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first --lang was taken: --lang ja --lang en was refused in Japanese, and
    --lang en --lang ja in English. Two that disagree are neither: the locale speaks,
    as with no --lang; two alike speak theirs."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    english = "error: --lang is given twice; give it once"
    japanese = (
        "\u30a8\u30e9\u30fc: --lang \u304c2\u56de\u6307\u5b9a\u3055\u308c\u3066\u3044\u307e\u3059"
    )
    said = english if locale == "C" else japanese
    for first, second in (("ja", "en"), ("en", "ja")):
        with pytest.raises(SystemExit):
            main(["solve", "--rack", "R1", "--lang", first, "--lang", second])
        assert said in capsys.readouterr().err
    for lang, words in (("ja", japanese), ("en", english)):
        with pytest.raises(SystemExit):
            main(["solve", "--rack", "R1", "--lang", lang, "--lang", lang])
        assert words in capsys.readouterr().err


def _said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``meldwise ARGV``'s exit code (argparse's refusal too), stdout and stderr."""
    try:
        code = main(argv)
    except SystemExit as exited:
        code = int(exited.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _commands() -> list[str]:
    """Every command of ``meldwise``, as its usage line lists them."""
    usage = build_parser("meldwise", commands=MELDWISE_COMMANDS).format_usage()
    listed: list[str] = re.findall(r"\{([a-z,]+)\}", usage)[-1].split(",")
    assert "solve" in listed
    assert "serve" in listed
    return listed


@pytest.mark.parametrize("command", _commands())
def test_lang_before_any_command_speaks_its_usage_errors(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``meldwise --lang ja solve ...`` was refused: the parser of every command took no
    --lang, so argparse read ja as the command's name. Before any command it speaks as
    the locale would, and as the command's own --lang (where it has one) does."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    before = _said(["--lang", "ja", command, "--no-such-flag"], capsys)
    assert before[0] == 2
    assert "\u30a8\u30e9\u30fc: " in before[2]  # エラー:
    monkeypatch.setenv("LANGUAGE", "ja")
    assert _said([command, "--no-such-flag"], capsys) == before
    monkeypatch.setenv("LANGUAGE", "en")
    assert _said(["--lang", "ja", command, "--no-such-flag"], capsys) == before
    if command in ("solve", "bot", "game", "review"):  # a command with --lang of its own
        assert _said([command, "--lang", "ja", "--no-such-flag"], capsys) == before


def test_lang_before_the_command_speaks_for_it_and_its_own_wins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    args = ["solve", "--rack", "K8 K9 O1", "--table", "B7 K7 O7 R7 | R1 R2 R3"]
    own = _said([*args, "--lang", "ja"], capsys)
    assert "2\u679a(17\u70b9)\u3092\u51fa\u3057\u307e\u3059: K8 K9" in own[1]
    assert _said(["--lang", "ja", *args], capsys) == own
    assert _said(["--la=ja", *args], capsys) == own  # abbreviated, as argparse reads it
    english = _said(args, capsys)
    assert _said(["--lang", "ja", *args, "--lang", "en"], capsys) == english
    assert _said(["--lang", "en", *args, "--lang", "ja"], capsys) == own
    monkeypatch.setenv("LANGUAGE", "ja")
    assert _said(["--lang", "en", *args], capsys) == english  # the locale is the fallback
    # A command with no --lang of its own speaks the one before it; so do usage errors
    # when the command's own --lang is said twice alike, or is ill-formed.
    monkeypatch.setenv("LANGUAGE", "en")
    code, _out, err = _said(["--lang", "ja", "tournament", "--bots", ""], capsys)
    assert (code, err) == (
        2,
        "\u30a8\u30e9\u30fc: --bots \u306b\u30dc\u30c3\u30c8\u306e\u540d\u524d"
        "\u304c\u3042\u308a\u307e\u305b\u3093(\u6307\u5b9a\u5024: '')\u3002"
        "\u30dc\u30c3\u30c8\u306e\u540d\u524d\u30921\u3064\u4ee5\u4e0a"
        "\u6307\u5b9a\u3057\u3066\u304f\u3060\u3055\u3044(\u4f8b: strong)\n",
    )
    refused = _said(["--lang", "ja", "solve", "--lang", "en", "--rack"], capsys)
    assert refused[2].endswith("meldwise solve: error: argument --rack: expected one argument\n")
    bad = _said(["--lang", "ja", "solve", "--lang", "en", "--lang", "fr"], capsys)
    assert bad[2].endswith(
        "meldwise solve: error: argument --lang: invalid choice: 'fr' (choose from 'en', 'ja')\n"
    )
    twice = _said(["--lang", "ja", "solve", "--lang", "en", "--lang", "ja"], capsys)
    assert twice[2].startswith("usage: ")  # the two disagree: the one before speaks
    assert twice[2].endswith(
        "meldwise solve: \u30a8\u30e9\u30fc: --lang \u304c2\u56de\u6307\u5b9a"
        "\u3055\u308c\u3066\u3044\u307e\u3059\u30021\u56de\u3060\u3051"
        "\u6307\u5b9a\u3057\u3066\u304f\u3060\u3055\u3044\n"
    )


def test_the_reviews_summary_line_reads_as_japanese() -> None:
    """The share placed was spliced in as English (" (19%)"), then a bracket opened
    at once: 出したのは27枚 (19%)(各手番の最善手だけを合わせると145枚)."""
    game = {"bots": ["strong", "greedy"], "seed": 3, "settings": TINY_OPTIONS}
    record = game_rummikub(game)["record"]
    with language("ja"):
        said = describe_review(review_rummikub({"record": record, "lang": "ja"}))
    first = said.splitlines()[0]
    assert re.search(r"出したのは\d+枚\(\d+%\)、各手番の最善手だけを合わせると\d+枚", first), first
    english = describe_review(review_rummikub({"record": record})).splitlines()[0]
    assert re.search(r"\d+ tiles placed \(\d+%\), the best play of each turn alone \d+", english)


def test_lists_inside_japanese_sentences_are_joined_with_the_japanese_comma(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lists were joined with the ASCII ', ' inside Japanese sentences: a game's scores
    ('得点 -15, 15'), a review's turns ('振り返りできなかった手番: 1, 2'), a Shanghai
    review's places, a validate problem's jokers ('R2, R3の代わり') and the draw options."""
    assert main(["game", "--lang", "ja", "--bots", "greedy,greedy", "--seed", "1"]) == 0
    scores = re.search(r"得点 ([^。]+)。", capsys.readouterr().err)
    assert scores is not None
    assert re.fullmatch(r"-?\d+、-?\d+", scores.group(1)), scores.group(1)

    drawn = {"turn": 1, "player": 0, "rack": ["R1", "R2"], "table_before": [["K1", "K2"]],
             "action": "draw", "drawn": "R3", "table_after": [["K1", "K2"]]}  # fmt: skip
    record = {"turns": [drawn, {**drawn, "turn": 2}]}
    with language("ja"):
        said = describe_review(review_rummikub({"record": record, "lang": "ja"}))
    assert "振り返りできなかった手番: 1、2\n" in said, said

    player = {"player": 0, "name": "a", "turns": 4, "turns_at_best": 2, "points_missed": 0,
              "could_go_out": [{"hand_number": 1, "turn": 2}, {"hand_number": 2, "turn": 5}],
              "could_go_down": [], "unproven": [], "proven": True}  # fmt: skip
    review = {"turns": [{"problems": []}], "players": [player], "status": "optimal",
              "time_capped": False, "notes": []}  # fmt: skip
    with language("ja"):
        said = describe_shanghai_review(review)
    assert "  上がれた: ハンド1の2手目、ハンド2の5手目\n" in said, said

    move = {"rack": ["B9", "B10", "B11"], "table_before": [["J", "J", "R4"]],
            "table_after": [["R4", "J", "J"], ["B9", "B10", "B11"]],
            "rules": {"joker_retrieval": "replace"}, "lang": "ja"}  # fmt: skip
    (problem,) = validate_rummikub(move)["problems"]
    assert "R2、R3の代わり" in problem["reason"], problem["reason"]

    hand = "7H 7S 7D JK 10C AS 2H 3H 4H 5C 9D"
    advise = ["shanghai", "advise", "--lang", "ja", "--hand", hand, "--hand-number", "1"]
    assert main([*advise, "--upcard", "9C", "--phase", "draw"]) == 0
    options = [line for line in capsys.readouterr().out.splitlines() if "(+" in line]
    assert len(options) == 3
    assert all(", " not in line and "、不足枚数" in line for line in options), options


def test_bot_lists_split_at_commas_typed_full_width(capsys: pytest.CaptureFixture[str]) -> None:
    """--opponents and --bots split at the ASCII comma only: 9o,14 typed full width
    (as a Japanese keyboard does) was refused, and greedy、beginner was one bot name.
    A digit that int() does not read (²) passed for a number: a ValueError traceback."""

    def opponents(text: str) -> list[dict[str, Any]]:
        args = build_parser().parse_args(["bot", "--rack", "R1", "--opponents", text])
        sizes: list[dict[str, Any]] = _bot_request(args)["opponents"]
        return sizes

    assert opponents("\uff19\uff4f\uff0c\uff11\uff14") == [
        {"rack_size": 9, "opened": True},
        {"rack_size": 14, "opened": False},
    ]
    assert opponents("9o\u300114") == opponents("9o,14")
    # A superscript is no digit, as in a tile (solver.written.typed): NFKC read ² as 2.
    assert main(["bot", "--rack", "R1", "--opponents", "\u00b2"]) == 2
    assert "'\u00b2'" in capsys.readouterr().err
    assert main(["bot", "--lang", "ja", "--rack", "R1", "--opponents", "\u0669"]) == 2
    assert "--opponents は 9,14 や 9o のように" in capsys.readouterr().err
    assert main(["game", "--bots", "greedy\u3001beginner", "--seed", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["greedy", "beginner"]


def test_the_japanese_catalogues_say_opening_with_the_glossarys_word() -> None:
    """docs/i18n.md's glossary says 最初の出し for the opening: a repair request without
    table_before, and the demo page's Repair tab, said オープン, a word no other message
    uses (and that reads as a game's 'open' deal to a Japanese player)."""
    with open(CATALOGUE, "rb") as file:
        said = [str(m.string) for m in read_po(file) if m.id]
    web = json.loads((ROOT / "api" / "static" / "locale" / "ja.json").read_text())
    wrong = [text for text in [*said, *web.values()] if "オープン" in text]
    assert not wrong, wrong
    with pytest.raises(MeldwiseError, match="最初の出しを済ませていないプレイヤーの場を直すには"):
        repair_rummikub({"table": [["R1", "R2", "R3"]], "opened": False, "lang": "ja"})


def test_a_review_is_called_one_thing_in_japanese() -> None:
    """The review said 検討 in its summary and heading, 振り返り beside each turn not
    reviewed (one output: '検討できなかった手番:' over '振り返りできませんでした: ...'),
    レビュー in its answer-limit refusal, and 振り返り on the demo page's Review tab."""
    with open(CATALOGUE, "rb") as file:
        said = [str(m.string) for m in read_po(file) if m.id]
    web = json.loads((ROOT / "api" / "static" / "locale" / "ja.json").read_text())
    other = [text for text in [*said, *web.values()] if re.search("検討|レビュー|未確認", text)]
    assert not other, other
    record = {
        "turns": [
            {"turn": 1, "player": 0, "rack": ["R1", "R2"], "table_before": [["K1", "K2"]],
             "action": "draw", "drawn": "R3", "table_after": [["K1", "K2"]]},
        ]
    }  # fmt: skip
    with language("ja"):
        said_text = describe_review(review_rummikub({"record": record, "lang": "ja"}))
    assert "振り返りできなかった手番: 1\n" in said_text
    assert "\n振り返りできなかった手番:\n" in said_text


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["score", "--rack", "=R1"], "--rack は 名前=タイル の形で指定してください(指定値: '=R1')"),
        (["shanghai", "score", "--hand", "x"], "--hand は 名前=カード の形で"),
    ],
)
def test_a_player_flag_without_a_name_is_refused_in_japanese_words(
    capsys: pytest.CaptureFixture[str], words: list[str], said: str
) -> None:
    """``--rack '=R1'`` was refused as '--rack は PLAYER=TILES の形で', English words in
    a Japanese sentence, while the same command without --rack says '名前=タイル'."""
    assert main(["--lang", "ja", *words]) == 2
    assert said in capsys.readouterr().err


def test_shanghai_says_the_stock_and_the_upcard_with_the_glossarys_words() -> None:
    """Shanghai's stock is 山札 and its upcard 捨て札 (山 alone is Rummikub's pool): a
    record's stock of the wrong size said 'アップカード', a word no other message uses, and
    the Shanghai tab's phase help said '山から引くか' beside its table's '山札から引く'."""
    with open(CATALOGUE, "rb") as file:
        said = [" ".join(m.string) if isinstance(m.string, tuple) else str(m.string)
                for m in read_po(file) if m.id]  # fmt: skip
    web = json.loads((ROOT / "api" / "static" / "locale" / "ja.json").read_text())
    shanghai = [t for t in [*said, *web.values()] if re.search("捨て札|手札|メルド", t)]
    assert shanghai
    # 山 is the stock (山札), or the discard pile (捨て札の山, then その山).
    wrong = [t for t in shanghai if re.search("(?<!捨て札の)(?<!その)山(?!札)", t)]
    wrong += [t for t in [*said, *web.values()] if "アップカード" in t]
    assert not wrong, wrong


def test_japanese_counts_a_number_with_a_counter_that_reads_past_nine() -> None:
    """The counter つ reads only to 9 (10 is とお, not 10つ): the strong bot's reason said
    '手持ちだけで作れるセット10つを温存します' for a rack of 10 sets and a tile it could not
    place, and the demo page counted a contract's melds and sizes so too."""
    with open(CATALOGUE, "rb") as file:
        said = [" ".join(m.string) if isinstance(m.string, tuple) else str(m.string)
                for m in read_po(file) if m.id]  # fmt: skip
    web = json.loads((ROOT / "api" / "static" / "locale" / "ja.json").read_text())
    assert [text for text in [*said, *web.values()] if re.search(r"\}つ", text)] == []
    sets = " ".join(f"{c}{n} {c}{n + 1} {c}{n + 2}" for c in "RBK" for n in (1, 5, 9))
    answer = bot_rummikub(
        {"bot": "strong", "rack": f"{sets} O1 O2 O3 O8".split(), "table": [["R13", "B13", "K13"]],
         "opened": True, "opponents": [{"rack_size": 14, "opened": True}], "lang": "ja"}
    )  # fmt: skip
    assert "手持ちだけで作れるセット10個を温存します" in answer["reason"]


def test_names_listed_in_a_japanese_error_are_joined_with_the_japanese_comma(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's colour letters, the known rules, the known fields and the flags were
    listed with the ASCII ', ' inside Japanese sentences ('色は R, B, K, O、または...',
    '使えるルールは colours, copies, ...', '--rack, --hint は指定しないでください'), as
    the lists of the test above once were."""
    asked: list[dict[str, Any]] = [
        {"rack": ["Q1"]},
        {"rack": ["R1"], "rules": {"foo": 1}},
        {"rack": ["R1"], "bogus": 1},
    ]
    for request in asked:
        with pytest.raises(MeldwiseError) as raised:
            solve_rummikub({**request, "lang": "ja"})
        said = str(raised.value)
        assert "、" in said, said
        assert ", " not in said, said
    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    assert main(["solve", "--lang", "ja", "--json", "--rack", "R1", "--hint", "tile"]) == 2
    assert "--rack、--hint は指定しないでください" in capsys.readouterr().err


def test_a_repairs_sets_kept_are_counted_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """A repair's count of the sets kept whole had no noun or counter: 'そのまま残る1、
    動かすタイル0枚' (the English: '1 kept whole, 0 of their tiles moved')."""
    assert main(["repair", "--lang", "ja", "--table", "R1 R2 R3 | B5 B6 | B7"]) == 0
    said = capsys.readouterr().out
    assert "残すべきセットのうち: そのまま残るセット1個、動かすタイル0枚\n" in said
