"""What a review says of a record it cannot read for what the record is: of the other
game, or of a newer version of the format. The command line and HTTP say the same
sentence, in either language."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings
from meldwise.cli import main
from solver.rummikub.engine import Game, GameSettings
from solver.rummikub.record import record_to_dict
from tests.rummikub.games_support import TINY, shanghai_record

READS = {
    "meldwise-rummikub-game": (["review", "-"], "/v1/rummikub/review"),
    "meldwise-shanghai-game": (["shanghai", "review", "-"], "/v1/shanghai/review"),
}
OTHER = {
    "meldwise-rummikub-game": "meldwise-shanghai-game",
    "meldwise-shanghai-game": "meldwise-rummikub-game",
}


def rummikub_record() -> dict[str, Any]:
    game = Game.new(GameSettings(rules=TINY, players=2, hand=5), 1)
    return record_to_dict(game, ["ann", "bob"])


RECORDS = {"meldwise-rummikub-game": rummikub_record, "meldwise-shanghai-game": shanghai_record}

NEWER = {
    "en": "'record.version' is 2: the record is of a newer format (version 2) than this"
    " Meldwise reads (version 1)",
    "ja": "'record.version' が 2 です。この記録は、この Meldwise が読む形式 (版 1) より新しい形式"
    " (版 2) のものです",
}
OF_THE_OTHER_GAME = {
    "meldwise-shanghai-game": {
        "en": "'record.format' is 'meldwise-shanghai-game': a record of that game is reviewed"
        " with meldwise shanghai review (HTTP: POST /v1/shanghai/review)",
        "ja": "'record.format' が 'meldwise-shanghai-game' です。この形式の記録は"
        " meldwise shanghai review (HTTP では POST /v1/shanghai/review) で振り返ります",
    },
    "meldwise-rummikub-game": {
        "en": "'record.format' is 'meldwise-rummikub-game': a record of that game is reviewed"
        " with meldwise review (HTTP: POST /v1/rummikub/review)",
        "ja": "'record.format' が 'meldwise-rummikub-game' です。この形式の記録は"
        " meldwise review (HTTP では POST /v1/rummikub/review) で振り返ります",
    },
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1))) as client:
        yield client


def _said_alike(
    reader: str,
    record: dict[str, Any],
    lang: str,
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    """What the review of ``reader``'s format says of ``record`` in ``lang``: the same
    sentence from the command line (exit 2) and HTTP (422)."""
    argv, route = READS[reader]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    assert main([*argv, "--lang", lang]) == 2
    err = capsys.readouterr().err
    answer = client.post(route, json={"record": record, "lang": lang})
    assert answer.status_code == 422
    detail: str = answer.json()["detail"]
    assert err == {"en": "error: ", "ja": "エラー: "}[lang] + detail + "\n"
    return detail


def newer(format: str) -> tuple[str, dict[str, Any], dict[str, str]]:
    """A record of ``format`` of version 2, read by its own review: it was
    "'record.version' must be at most 1, got 2", as if the record were wrong."""
    record = {**RECORDS[format](), "version": 2}
    assert record["format"] == format
    return format, record, NEWER


def other_game(format: str) -> tuple[str, dict[str, Any], dict[str, str]]:
    """A record of ``format`` read by the other game's review: the command line said
    "reviewed with meldwise review", HTTP "'record.format' must be
    'meldwise-shanghai-game', got 'meldwise-rummikub-game'"."""
    return OTHER[format], RECORDS[format](), OF_THE_OTHER_GAME[format]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("format", sorted(READS))
@pytest.mark.parametrize("case", [newer, other_game])
def test_a_record_read_for_what_it_is_is_said_so_alike_everywhere(
    case: Any,
    format: str,
    lang: str,
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reader, record, said = case(format)
    assert _said_alike(reader, record, lang, client, monkeypatch, capsys) == said[lang]
