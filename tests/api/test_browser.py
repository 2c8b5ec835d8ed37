"""The demo page and the <meldwise-hint> element in a real headless Chromium,
against a real ``meldwise serve``: positions entered as a person would, the hint
levels pressed one after another, the drawn answer, the element's event from
another origin (CORS), and errors shown as messages. Every page must run under
the service's strict Content-Security-Policy: a violation fails the test; the
API docs page too."""

from __future__ import annotations

import copy
import json
import math
import os
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    JSHandle,
    Locator,
    Page,
    Route,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from api.settings import Settings
from api.spawn import serve
from solver.errors import MeldwiseError
from solver.rummikub.notation import Tile
from solver.shanghai.engine import GameSettings
from solver.shanghai.examples import ADVISE_REQUEST
from solver.shanghai.game_wire import game_shanghai
from solver.shanghai.notation import Card
from solver.shanghai.record import record_to_dict
from solver.shanghai.rules import Rules as ShanghaiRules
from solver.shanghai.wire import advise_shanghai
from tests.api.browser_support import (
    SOLVE,
    chromium_missing,
    enter_rummikub,
    launch,
    press_hint,
    second_origin,
)
from tests.api.support import assert_legal_response
from tests.shanghai.review_games import game as shanghai_game
from tests.shanghai.test_shanghai_record import random_game
from tests.support import spend_the_clock

HTTP_DOC = Path(__file__).parents[2] / "docs" / "http.md"
_missing = chromium_missing()
# CI installs Chromium (.ci/run), so there a missing browser is a failure, not a skip.
if _missing and os.environ.get("CI"):
    raise RuntimeError(_missing)
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("serve") / "server.log"
    with serve(workers=1, log_path=str(log)) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    refused: list[str] = []  # Chromium reports each CSP violation on the console
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert errors == [], "the page's scripts failed"
    assert refused == [], "the page broke the Content-Security-Policy"


def drawn_table(
    page: Page, selector: str = "meldwise-hint .table-after .set"
) -> list[list[tuple[str, bool]]]:
    """The table after the play as drawn (the sets ``selector`` finds): per set, each
    tile and whether it is highlighted as coming from the rack."""
    rows = page.locator(selector).evaluate_all(
        """rows => rows.map(row => [...row.querySelectorAll('.tile')].map(
               tile => [tile.dataset.tile, tile.classList.contains('played')]))"""
    )
    return [[(tile, played) for tile, played in row] for row in rows]


def highlighted(table: list[list[tuple[str, bool]]]) -> Counter[str]:
    return Counter(tile for row in table for tile, played in row if played)


def hold(page: Page, path: str, keep: Any = None) -> list[Route]:
    """Hold the page's requests to ``path`` on their way (those ``keep`` accepts, when
    given; the others go on) until the test releases them."""
    held: list[Route] = []

    def route(route: Route) -> None:
        if keep is None or keep(route.request):
            held.append(route)
        else:
            route.continue_()

    page.route(f"**{path}", route)
    return held


def wait_held(page: Page, held: list[Route]) -> None:
    for _ in range(500):  # waiting lets the route handler run
        if held:
            return
        page.wait_for_timeout(20)
    raise AssertionError("the page did not ask")


def release(page: Page, route: Route) -> None:
    """Let a held request go on to the service and wait until its answer has landed
    (a request the page has aborted meanwhile goes nowhere)."""
    request = route.request
    settled: list[bool] = []
    for event in ("requestfinished", "requestfailed"):
        page.on(event, lambda r: settled.append(True) if r is request else None)
    with suppress(PlaywrightError):  # aborted by the page: it goes nowhere
        route.continue_()
    for _ in range(3000):  # a review takes seconds
        if settled or request.failure is not None:
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(300)  # the page draws what landed


def test_the_api_docs_render_under_the_content_security_policy(service: str, page: Page) -> None:
    page.goto(f"{service}/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/v1/rummikub/solve" in paths
    assert "/v1/shanghai/advise" in paths


def test_demo_reveals_nudge_then_tile_then_the_drawn_play(service: str, page: Page) -> None:
    page.goto(service)
    # The rack by clicking palette tiles (the rack is the first target), the table typed.
    palette = page.locator("#rummikub-palette")
    for name in ("black 8", "black 9", "orange 1"):
        palette.get_by_role("button", name=f"add {name}", exact=True).click()
    expect(page.get_by_label("Your rack", exact=True)).to_have_value("K8 K9 O1")
    rack_drawn = page.locator("#rack-preview").get_by_role("button")
    expect(rack_drawn).to_have_count(3)
    expect(rack_drawn.first).to_have_accessible_name("remove black 8")
    page.get_by_label("Table sets", exact=True).fill("B7 K7 O7 R7\nR1 R2 R3")
    expect(page.locator("#table-preview .set")).to_have_count(2)

    # By hand: O1 fits nowhere (the only run is red), and K8 K9 need the K7 that the
    # group of four can spare: the best play is 2 tiles.
    request, nudge = press_hint(page)
    assert request["hint_level"] == "nudge"
    assert request["rack"] == ["K8", "K9", "O1"]
    assert request["table"] == [["B7", "K7", "O7", "R7"], ["R1", "R2", "R3"]]
    assert nudge["tiles_played"] == 2
    answer = page.locator("meldwise-hint .answer")
    expect(answer).to_have_text("You can play 2 tiles this turn.")

    request, tile = press_hint(page)
    assert request["hint_level"] == "tile"
    assert tile["tile"] in ("K8", "K9")
    expect(answer).to_contain_text(tile["text"])
    expect(
        answer.get_by_role("img", name=f"black {tile['tile'][1:]}, from your rack")
    ).to_be_visible()
    # The tile and where it goes, named as the tile is ("K8 to a new set" read its code).
    where = "to a new set" if tile["to_set"] is None else f"to set {tile['to_set']}"
    expect(answer.get_by_role("group", name=f"black {tile['tile'][1:]} {where}")).to_be_visible()

    request, full = press_hint(page)
    assert request["hint_level"] == "full"
    assert_legal_response(request, full)
    steps = answer.locator("ol.steps li")
    expect(steps).to_have_text([step["text"] for step in full["steps"]])
    table = drawn_table(page)
    assert [[tile for tile, _ in row] for row in table] == [s["tiles"] for s in full["table"]]
    assert highlighted(table) == Counter(["K8", "K9"])
    # The new run holds the K7 from the group, not highlighted, beside the rack tiles.
    run = next(row for row in table if ("K8", True) in row)
    assert sorted(run) == [("K7", False), ("K8", True), ("K9", True)]
    expect(answer.get_by_role("group", name="rack left")).to_contain_text("1")


def test_a_new_position_starts_again_from_the_nudge(service: str, page: Page) -> None:
    page.goto(service)
    enter_rummikub(page, "R1 R2 R3", "")
    press_hint(page)
    request, _ = press_hint(page)
    assert request["hint_level"] == "tile"
    page.get_by_label("Your rack", exact=True).press("End")
    page.get_by_label("Your rack", exact=True).press_sequentially(" R4")
    expect(page.locator("meldwise-hint .answer")).to_be_empty()
    request, nudge = press_hint(page)
    assert request["hint_level"] == "nudge"
    assert nudge["tiles_played"] == 4


def test_presses_at_a_fixed_hint_level_leave_the_steps_at_the_nudge(
    service: str, page: Page
) -> None:
    # hint-level="full" asks the full play on every press; those presses are no
    # steps of the nudge-tile-full sequence, which starts at the nudge once it goes.
    page.goto(service)
    hint = page.locator("meldwise-hint")
    enter_rummikub(page, "R1 R2 R3", "")
    hint.evaluate("element => element.setAttribute('hint-level', 'full')")
    for _ in range(2):
        request, _ = press_hint(page)
        assert request["hint_level"] == "full"
    hint.evaluate("element => element.removeAttribute('hint-level')")
    assert hint.evaluate("element => element.nextLevel") == "nudge"
    expect(hint.get_by_role("button")).to_have_text("Hint")
    request, _ = press_hint(page)
    assert request["hint_level"] == "nudge"


def test_an_empty_rack_is_not_told_to_draw(service: str, page: Page) -> None:
    # A player whose rack is empty has gone out: the nudge (the only answer the button
    # gives when nothing is played) and the full answer said "draw a tile".
    page.goto(service)
    hint = page.locator("meldwise-hint")
    summary = hint.locator(".answer p").first
    for rack, said in (
        ("", "Your rack is empty: there is nothing to play."),
        ("R1", "No play this turn: draw a tile."),
    ):
        enter_rummikub(page, rack, "R1 R2 R3")
        for level in ("nudge", "full"):
            hint.evaluate(f"element => element.setAttribute('hint-level', '{level}')")
            request, response = press_hint(page)
            assert (request["rack"], response["hint_level"]) == (rack.split(), level)
            assert summary.inner_text() == said, (rack, level)


def test_the_demo_works_from_the_keyboard(service: str, page: Page) -> None:
    page.goto(service)
    rack = page.get_by_label("Your rack", exact=True)
    rack.focus()
    page.keyboard.type("R1 R2")
    # The palette is one Tab stop; arrows move in it and Enter adds to the rack.
    page.locator("#rummikub-palette").get_by_role("button").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rummikub-palette button:focus")).to_have_accessible_name("add red 3")
    page.keyboard.press("Enter")
    expect(rack).to_have_value("R1 R2 R3")
    rack.focus()
    with page.expect_response(lambda r: r.url.endswith(SOLVE)):
        page.keyboard.press("Enter")
    expect(page.locator("meldwise-hint .answer")).to_have_text("You can play 3 tiles this turn.")
    # The tabs follow the arrow keys too.
    page.get_by_role("tab", name="Rummikub").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Shanghai")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_label("Your hand", exact=True)).to_be_visible()
    # End and Home go to the last tab and back to the first.
    page.keyboard.press("End")
    last = page.get_by_role("tab").last
    expect(last).to_be_focused()
    expect(last).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Home")
    expect(page.get_by_role("tab", name="Rummikub")).to_be_focused()
    expect(page.get_by_label("Your rack", exact=True)).to_be_visible()


def test_enter_in_a_field_while_the_hint_is_on_its_way_asks_once(service: str, page: Page) -> None:
    # Enter in a field is a press of the hint button, which waits while busy: each
    # Enter aborted the hint on its way and asked again, a solve more for the service.
    page.goto(service)
    held = hold(page, SOLVE)
    rack = page.get_by_label("Your rack", exact=True)
    rack.fill("R1 R2 R3")
    rack.press("Enter")
    wait_held(page, held)
    rack.press("Enter")
    rack.press("Enter")
    page.wait_for_timeout(300)
    assert len(held) == 1
    release(page, held[0])
    expect(page.locator("meldwise-hint .answer")).to_have_text("You can play 3 tiles this turn.")
    expect(page.locator("meldwise-hint")).to_have_attribute("aria-busy", "false")


def test_a_preview_is_one_tab_stop(service: str, page: Page) -> None:
    # Every drawn piece its own Tab stop made the page a long walk by keyboard: the
    # preview is one stop, arrows move in it, and a removal leaves the focus there.
    page.goto(service)
    rack = page.get_by_label("Your rack", exact=True)
    rack.fill("R1 R2 R3")
    rack.focus()
    page.keyboard.press("Tab")
    focused = page.locator("#rack-preview button:focus")
    expect(focused).to_have_accessible_name("remove red 1")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Table sets", exact=True)).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(focused).to_have_accessible_name("remove red 1")
    page.keyboard.press("ArrowRight")
    expect(focused).to_have_accessible_name("remove red 2")
    page.keyboard.press("Enter")
    expect(rack).to_have_value("R1 R3")
    expect(focused).to_have_accessible_name("remove red 3")


@pytest.mark.parametrize(
    ("rack", "table", "rack_tiles_by_set"),
    [
        # The group already holds the table's R5 and cannot take a second: the rack's
        # R5 goes on the run, and the highlight must be there, not on the group's R5.
        ("R5", "R5 B5 K5\nR6 R7 R8", {1: ["R5"]}),
        # A split: the steps say where the rack's R3 goes (checked against them below).
        ("R3 K9", "R1 R2 R3 R4 R5 R6\nK10 K11 K12\nR10 B10 O10", None),
    ],
    ids=["same-tile-in-another-set", "split"],
)
def test_highlights_mark_the_rack_tiles_where_the_steps_put_them(
    service: str, page: Page, rack: str, table: str, rack_tiles_by_set: dict[int, list[str]] | None
) -> None:
    page.goto(service)
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    enter_rummikub(page, rack, table)
    request, full = press_hint(page)
    assert_legal_response(request, full)
    if rack_tiles_by_set is None:
        # Sets keep their numbers and none is emptied here, so set n is row n.
        rack_tiles_by_set = {}
        for step in full["steps"]:
            if step["action"] in ("add", "new_set"):
                number = step["to_set"] if step["action"] == "add" else step["set"]
                rack_tiles_by_set.setdefault(number, []).extend(step["from_rack"])
    drawn = drawn_table(page)
    got = {i: sorted(t for t, played in row if played) for i, row in enumerate(drawn)}
    assert {i: tiles for i, tiles in got.items() if tiles} == {
        i: sorted(tiles) for i, tiles in rack_tiles_by_set.items()
    }


def test_highlights_tell_the_rack_joker_from_the_table_joker_beside_it(
    service: str, page: Page
) -> None:
    # The table's R3 J(R4) R5 takes the rack's J and R7: R3 J(R4) R5 J(R6) R7. The page
    # marked the first joker (the table's, which stays where it lay) as the rack's:
    # from_rack says only "J"; from_rack_places says which.
    page.goto(service)
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    enter_rummikub(page, "J R7", "R3 J(R4) R5")
    _, full = press_hint(page)
    assert full["tiles_played"] == 2
    drawn = drawn_table(page)
    assert [[played for _, played in row] for row in drawn] == [
        [place in laid["from_rack_places"] for place in range(len(laid["tiles"]))]
        for laid in full["table"]
    ]
    (laid,) = full["table"]
    assert [laid["as"][p] for p in laid["from_rack_places"] if laid["tiles"][p] == "J"] == ["R6"]
    expect(page.locator("meldwise-hint .answer .summary")).to_contain_text("joker as red 6")


def sets_by_name(region: Locator) -> dict[str, list[str]]:
    """The sets drawn in ``region`` (a Locator of a drawn table): name -> tiles."""
    rows = region.locator(".set").evaluate_all(
        """rows => rows.map(row => [row.querySelector('.set-name').textContent,
               [...row.querySelectorAll('.tile')].map(tile => tile.dataset.tile)])"""
    )
    return dict(rows)


def assert_sets_named_as_the_steps_say(region: Locator, steps: list[dict[str, Any]]) -> None:
    """Each set the steps lay tiles on ("as set 4", "to set 1") is drawn under that name
    in ``region``, holding those tiles."""
    drawn = sets_by_name(region)
    for step in steps:
        if step["action"] in ("add", "new_set"):
            number = step["to_set"] if step["action"] == "add" else step["set"]
            name = f"set {number}"
            assert name in drawn, (step["text"], drawn)
            assert not Counter(step["tiles"]) - Counter(drawn[name]), (step["text"], drawn)


def test_the_sets_drawn_are_named_as_the_steps_number_them(service: str, page: Page) -> None:
    # The steps number sets as the request's table does, new ones after; a set they
    # empty leaves the new table with the later sets a place up. The drawing named
    # them by place: "Lay down the group of 1s ... as set 4" was drawn as set 1, and a
    # repair's "Add the R4 you took to set 1, making the red run" drew set 1 as the
    # group of 7s.
    page.goto(service)
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    enter_rummikub(page, "O1 O3", "R1 R2 R3\nB1 B2 B3\nK1 K2 K3\nR9 R10 R11")
    _, full = press_hint(page)
    assert any(step["action"] == "new_set" and step["set"] == 4 for step in full["steps"])
    assert_sets_named_as_the_steps_say(page.locator("meldwise-hint .table-after"), full["steps"])

    enter_rummikub(page, "R5 K8 K9", "R4\nR1 R2 R3\nB7 K7 O7\nR7")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    body = answer.value.json()
    region = page.locator("#repair-answer")
    expect(region.locator(".table-rescued")).to_have_count(1)
    arranged, rescue = body["arrangement"], body["rescue"]["play"]
    assert len(arranged["table"]) < 4  # a set emptied
    assert_sets_named_as_the_steps_say(region.locator(".table-repaired"), arranged["steps"])
    assert_sets_named_as_the_steps_say(region.locator(".table-rescued"), rescue["steps"])


def test_the_rescue_marks_the_tiles_from_the_rack(service: str, page: Page) -> None:
    # The rescue's table drew every tile alike: which of them the rack lays could be
    # read from the steps alone. It is marked now, place by place as the answer says
    # (from_rack_places), as the full hint marks its table; the repair has no rack.
    page.goto(service)
    enter_rummikub(page, "R5 K8 K9", "R4\nR1 R2 R3\nB7 K7 O7\nR7")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    rescue = answer.value.json()["rescue"]["play"]
    assert rescue["played"]
    region = page.locator("#repair-answer")
    expect(region.locator(".table-rescued")).to_have_count(1)
    drawn = drawn_table(page, "#repair-answer .table-rescued .set")
    assert drawn == [
        [(tile, i in set_["from_rack_places"]) for i, tile in enumerate(set_["tiles"])]
        for set_ in rescue["table"]
    ]
    assert highlighted(drawn) == Counter(rescue["played"])
    assert not highlighted(drawn_table(page, "#repair-answer .table-repaired .set"))


def test_a_joker_written_with_its_tile_is_drawn_as_that_joker(service: str, page: Page) -> None:
    # J(R6), as answers print a joker (docs/rummikub.md: it pastes back), is a joker
    # standing for red 6: drawn so, not as "not a tile", and the service reads it.
    page.goto(service)
    enter_rummikub(page, "R5 R4", "J(R6) R7 R8\nジョーカー(赤9) B9 K9")
    preview = page.locator("#table-preview")
    expect(preview.locator(".tile.bad")).to_have_count(0)
    joker = preview.get_by_role("button", name="remove joker as red 6", exact=True)
    expect(joker).to_have_class(re.compile(r"\bjoker\b"))
    expect(joker.locator(".as")).to_have_text("R6")
    expect(preview.get_by_role("button", name="remove joker as red 9", exact=True)).to_be_visible()
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    request, full = press_hint(page)
    assert request["table"][0] == ["J(R6)", "R7", "R8"]
    assert full["tiles_played"] == 2


def test_opening_and_objective_go_into_the_request(service: str, page: Page) -> None:
    page.goto(service)
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    enter_rummikub(page, "R10 R11 R12 K1 K2 K3", "")
    page.get_by_label("Opening: new sets from my rack worth 30").check()
    page.get_by_label("points").check()
    request, full = press_hint(page)
    assert request["opened"] is False
    assert request["objective"] == "points"
    # 10+11+12 = 33 reaches the 30 needed; K1-K3 (6) may join: all six, 39 points.
    assert full["points_played"] == 39
    expect(page.locator("meldwise-hint .answer")).to_contain_text("Play 6 tiles (39 points)")


def test_the_plays_summary_says_what_a_joker_laid_stands_for(service: str, page: Page) -> None:
    # It said "Play 3 tiles (...): black 8, black 9, joker.": where the joker goes was
    # only in the table drawn below. Named as the answer's table lays it.
    page.goto(service)
    page.locator("meldwise-hint").evaluate("element => element.setAttribute('hint-level', 'full')")
    enter_rummikub(page, "K8 K9 J R1", "O10 O11 O12")
    _, full = press_hint(page)
    meant = [
        stands
        for laid in full["table"]
        for tile, stands in zip(laid["tiles"], laid["as"], strict=True)
        if tile == "J"
    ]
    assert "J" in full["played"]
    assert len(meant) == 1
    colour = {"R": "red", "B": "blue", "K": "black", "O": "orange"}[meant[0][0]]
    expect(page.locator("meldwise-hint .answer .summary")).to_contain_text(
        f"joker as {colour} {meant[0][1:]}."
    )


REPAIR = "/v1/rummikub/repair"


def test_repair_the_table(service: str, page: Page) -> None:
    """The table as it lies, loose tiles too, repaired: the verdict, the steps and the
    sets drawn; a table beyond repair names the tiles left out and the penalty."""
    page.goto(service)
    enter_rummikub(page, "R6", "R1 R2\nR3 B3 K3 O3\nR4 R5")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    request = answer.value.request.post_data_json
    assert request == {
        "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
        "rack": ["R6"],
        "lang": "en",
    }
    body = answer.value.json()
    region = page.locator("#repair-answer")
    expect(region).to_contain_text("The table can be repaired")
    for step in body["arrangement"]["steps"]:
        expect(region).to_contain_text(step["text"])
    repaired = region.locator(".table-repaired .set").evaluate_all(
        "rows => rows.map(row => [...row.querySelectorAll('.tile')].map(t => t.dataset.tile))"
    )
    assert repaired == [m["tiles"] for m in body["arrangement"]["table"]]
    expect(region).to_contain_text("With your rack: play R6")
    # A rack that rescues nothing: the repair's steps and table are not drawn twice.
    enter_rummikub(page, "B9", "R1 R2\nR3 B3 K3 O3\nR4 R5")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)):
        page.get_by_role("button", name="Repair the table").click()
    expect(region.get_by_role("heading", name="With your rack: play nothing")).to_be_visible()
    expect(region.locator("ol.steps")).to_have_count(1)
    expect(region.locator(".table-repaired")).to_have_count(1)
    expect(region.locator(".table-rescued")).to_have_count(0)
    # A new position clears the answer; one beyond repair says what happens.
    enter_rummikub(page, "", "R1 R2 R3 B9")
    expect(region).to_be_empty()
    with page.expect_response(lambda r: r.url.endswith(REPAIR)):
        page.get_by_role("button", name="Repair the table").click()
    expect(region).to_contain_text("tiles that cannot be placed are B9")
    expect(region).to_contain_text("draws 3 penalty tiles")
    # Nothing on the table, nothing on the rack: the service finds it "repairable".
    enter_rummikub(page, "", "")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    assert answer.value.json()["repairable"] is True
    expect(region).to_have_text("There is nothing on the table.")


def test_repair_for_a_player_who_has_not_opened_sends_the_table_before(
    service: str, page: Page
) -> None:
    # The page had no field for the table before the turn, so with "Opening" chosen
    # it could not send "opened": false: it judged the turn as an opened player's
    # ("The table can be repaired", taking the R12 from the group of 12s, which such
    # a player may not touch) and offered no rescue. docs/repair.md's worked example.
    page.goto(service)
    enter_rummikub(page, "R12 B1", "R10 R11\nR12 B12 K12 O12\nR13")
    page.get_by_label("Opening: new sets from my rack worth 30").check()
    before = page.get_by_label("Table before the turn", exact=True)
    before.focus()  # the palette fills the focused field, this one too
    expect(page.locator("#rummikub-target")).to_have_text(
        "Pieces you click go to: table before the turn"
    )
    before.fill("R12 B12 K12 O12")
    expect(page.locator("#table-before-preview .tile")).to_have_count(4)
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    assert answer.value.request.post_data_json == {
        "table": [["R10", "R11"], ["R12", "B12", "K12", "O12"], ["R13"]],
        "opened": False,
        "table_before": [["R12", "B12", "K12", "O12"]],
        "rack": ["R12", "B1"],
        "lang": "en",
    }
    region = page.locator("#repair-answer")
    expect(region).to_contain_text(
        "The table cannot be repaired: the fewest tiles that cannot be placed are R10 R11 R13."
    )
    expect(region).to_contain_text("the table goes back to how it was before the turn")
    expect(region.get_by_role("heading", name="With your rack: play R12")).to_be_visible()
    rescued = region.locator(".table-rescued .set").evaluate_all(
        "rows => rows.map(row => [...row.querySelectorAll('.tile')].map(t => t.dataset.tile))"
    )
    assert sorted(rescued) == [["R10", "R11", "R12", "R13"], ["R12", "B12", "K12", "O12"]]
    # Editing the table before is a new question: the answer goes.
    before.fill("R12 B12 K12")
    expect(region).to_be_empty()
    # Opened, the table before still goes (the arrangement closest to it).
    page.get_by_label("Opened: the table may be rearranged").check()
    before.fill("R12 B12 K12 O12")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    request = answer.value.request.post_data_json
    assert isinstance(request, dict)
    assert "opened" not in request
    assert request["table_before"] == [["R12", "B12", "K12", "O12"]]
    expect(region).to_contain_text("The table can be repaired")
    # Opening with the field left empty: the turn is judged from an empty table, and
    # the page says so.
    page.get_by_label("Opening: new sets from my rack worth 30").check()
    enter_rummikub(page, "", "R10 R11 R12")
    before.fill("")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    assert answer.value.request.post_data_json == {
        "table": [["R10", "R11", "R12"]],
        "opened": False,
        "table_before": [],
        "lang": "en",
    }
    expect(region).to_contain_text("The table can be repaired")
    expect(region).to_contain_text("from an empty table: every tile on it was laid down")
    # Clear empties the table before too.
    before.fill("R12 B12 K12")
    page.get_by_role("button", name="Clear").first.click()
    expect(before).to_have_value("")


def test_repair_in_japanese_labels_the_table_before(service: str, page: Page) -> None:
    _open_in_japanese(service, page)
    before = page.get_by_label("手番の前の場", exact=True)
    expect(before).to_have_attribute(
        "placeholder", "手番の前のセット、1行に1セット(「場を直す」で使います)"
    )
    before.fill("R12 B12 K12 Y12")
    expect(page.locator("#table-before-preview")).to_have_attribute(
        "aria-label", "手番の前の場の表示"
    )
    expect(page.locator("#table-before-preview .set-name")).to_have_text(["セット0"])


NO_ARRANGEMENT = {"arrangement": None, "penalty": None, "free_jokers": None, "rescue": None}


@pytest.mark.parametrize(
    ("status", "repairable", "summary"),
    [
        # Proven beyond repair, but the search stopped before any arrangement (the
        # service's answer to a 60-tile heap with time_limit_ms 6, its penalty left out):
        # the page said "the fewest tiles found that cannot be placed are ." with no tiles.
        (
            "feasible",
            False,
            "The table cannot be repaired, and a search stopped at its limit before finding "
            "which tiles can be placed.",
        ),
        # Not settled: repairable null (not false: no arrangement found is not none
        # existing). The page took only true or false for an answer, and said this one
        # was none it could read.
        (
            "unknown",
            None,
            "A search stopped at its limit before finding whether the table can be repaired.",
        ),
    ],
)
def test_repair_with_no_arrangement_says_what_is_known(
    service: str, page: Page, status: str, repairable: bool | None, summary: str
) -> None:
    answer = {"status": status, "repairable": repairable, "time_capped": True, **NO_ARRANGEMENT}
    page.goto(service)
    page.locator("#table").fill("R1 R2 R3")
    page.route(f"**{REPAIR}", lambda route: route.fulfill(status=200, json=answer))
    page.locator("#repair-run").click()
    expect(page.locator("#repair-answer .summary")).to_have_text(summary)
    expect(page.locator("#repair-error")).to_be_empty()


def _repaired(service: str, page: Page, rack: str, table: str) -> dict[str, Any]:
    """Repair ``table`` with ``rack`` on a fresh page; the service's answer."""
    page.goto(service)
    enter_rummikub(page, rack, table)
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.locator("#repair-run").click()
    said: dict[str, Any] = answer.value.json()
    return said


def test_repair_says_no_rack_play_rescues_the_table_only_when_proven(
    service: str, page: Page
) -> None:
    # A rescue search the limit stopped before it found a play (rescue status unknown,
    # play null: the service's answer to 22 rack tiles on 8 sets at time_limit_ms 1)
    # was said "No play with your rack rescues the table.", as a proven none is.
    proven = _repaired(service, page, "K13", "R1 R2 R3 B9")
    assert proven["rescue"] == {"status": "optimal", "play": None}
    notes = page.locator("#repair-answer .note")
    expect(notes).to_have_text("No play with your rack rescues the table.")
    stopped: dict[str, Any] = {"status": "unknown", "repairable": None, "time_capped": True}
    stopped |= {**NO_ARRANGEMENT, "rescue": {"status": "unknown", "play": None}}
    page.route(f"**{REPAIR}", lambda route: route.fulfill(status=200, json=stopped))
    page.locator("#repair-run").click()
    expect(notes.first).to_have_text(  # then the time limit's note
        "No play with your rack that rescues the table was found before the search stopped."
    )


def test_repair_says_a_rescue_not_proven_the_best_is_the_best_found(
    service: str, page: Page
) -> None:
    # A rescue whose search stopped after a play but before proving it (rescue status
    # feasible) was drawn as the one that "finds the best play", with no word that a
    # better one may exist, as a hint's play not proven has.
    real = _repaired(service, page, "R6", "R1 R2\nR3 B3 K3 O3\nR4 R5")
    assert real["rescue"]["status"] == "optimal"
    notes = page.locator("#repair-answer .note")
    expect(notes).to_have_count(0)
    found = copy.deepcopy(real)
    found["rescue"]["status"] = found["rescue"]["play"]["status"] = "feasible"
    page.route(f"**{REPAIR}", lambda route: route.fulfill(status=200, json=found))
    page.locator("#repair-run").click()
    expect(notes).to_have_text(
        "A search stopped at its limit: this is the best play found, not proven the best."
    )


def test_repair_steps_not_proven_the_calmest_say_so(service: str, page: Page) -> None:
    # An arrangement or a rescue whose disruption_proven is false (a search the clock
    # stopped) was drawn with no word that fewer tiles might move, as the CLI's was.
    request = {
        "table": [["R1", "R2"], ["R3", "B3", "K3", "O3"], ["R4", "R5"]],
        "table_before": [["R3", "B3", "K3", "O3"]],
        "rack": ["R6"],
    }
    real = httpx.post(f"{service}{REPAIR}", json=request).json()
    assert real["arrangement"]["disruption_proven"]
    assert real["rescue"]["play"]["disruption_proven"]
    answer = copy.deepcopy(real)
    answer["arrangement"]["disruption_proven"] = False
    answer["rescue"]["play"]["disruption_proven"] = False
    page.goto(service)
    enter_rummikub(page, "R6", "R1 R2\nR3 B3 K3 O3\nR4 R5")
    page.get_by_label("Table before the turn", exact=True).fill("R3 B3 K3 O3")
    page.route(f"**{REPAIR}", lambda route: route.fulfill(status=200, json=answer))
    page.locator("#repair-run").click()
    notes = page.locator("#repair-answer .note")
    expect(notes).to_have_text(
        [
            "Not proven to disturb the table least: an arrangement as good may move fewer"
            " table tiles.",
            "Not proven to disturb the table least: a play as good may move fewer table tiles.",
        ]
    )
    page.unroute(f"**{REPAIR}")
    with page.expect_response(lambda r: r.url.endswith(REPAIR)):
        page.locator("#repair-run").click()
    expect(page.locator("#repair-answer")).to_contain_text("The table can be repaired")
    expect(notes).to_have_count(0)


def test_repair_never_draws_the_answer_for_a_table_changed_since(service: str, page: Page) -> None:
    # The answer for the old table (B7 K7 cannot be placed) arrives after the table
    # was fixed: it must not be drawn under the new one.
    page.goto(service)
    enter_rummikub(page, "", "R1 R2 R3\nB7 K7")
    held = hold(page, REPAIR)
    page.get_by_role("button", name="Repair the table").click()
    wait_held(page, held)
    page.get_by_label("Table sets", exact=True).fill("R1 R2 R3")
    page.unroute(f"**{REPAIR}")
    release(page, held[0])
    region = page.locator("#repair-answer")
    expect(region).to_be_empty()
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="Repair the table").click()
    request = answer.value.request.post_data_json
    assert isinstance(request, dict)
    assert request["table"] == [["R1", "R2", "R3"]]
    expect(region).to_contain_text("The table can be repaired")


# 30 tiles against 13 groups: a search of 1 ms stops before it finds any play.
UNFINISHED_RACK = (
    "O1 O7 O4 O7 O2 O3 O13 O10 R10 R12 J O6 B3 R8 R7 O11 J R11 O5 B9 R1 K12 O8 O2 K10 K2 O5 O12"
    " B1 K6"
)
UNFINISHED = {
    "rack": UNFINISHED_RACK.split(),
    "table": [[f"{colour}{n}" for colour in "RBK"] for n in range(1, 14)],
    "time_limit_ms": 1,
}


@pytest.mark.parametrize(
    ("lang", "level", "said"),
    [
        ("en", "nudge", "No play found before the search stopped."),
        ("en", "full", "No play found before the search stopped."),
        ("ja", "nudge", "探索が止まるまでに出せる手は見つかりませんでした。"),
    ],
)
def test_a_search_stopped_before_any_play_never_says_draw(
    service: str, page: Page, lang: str, level: str, said: str
) -> None:
    # Status "unknown": the search found nothing, which is no proof that nothing
    # can be played, so telling the player to draw would be wrong (the service's tile
    # hint says the same).
    page.goto(f"{service}/?lang={lang}")
    hint = page.locator("meldwise-hint")
    expect(hint).to_have_attribute("lang", lang)
    hint.evaluate(
        "(element, state) => { element.setAttribute('hint-level', state.level);"
        " element.state = state.position; }",
        {"level": level, "position": UNFINISHED},
    )
    _, answer = press_hint(page)
    assert answer["status"] == "unknown"
    assert answer["tiles_played"] == 0
    expect(hint.locator(".summary")).to_have_text(said)
    expect(hint.locator(".answer")).not_to_contain_text("draw a tile")
    expect(hint.locator(".answer")).not_to_contain_text("山から")


def test_a_service_error_shows_its_message_by_the_input(service: str, page: Page) -> None:
    page.goto(service)
    enter_rummikub(page, "R1 Q5", "")
    with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
        page.get_by_label("Your rack", exact=True).press("Enter")  # the keyboard way to ask
    assert answer.value.status == 422
    detail = answer.value.json()["detail"]
    assert "Q5" in detail
    alert = page.locator("meldwise-hint").get_by_role("alert")
    # The service's words, its place said by the field's label.
    assert detail.startswith("rack[1]: ")
    expect(alert).to_have_text(detail.replace("rack[1]", "Your rack, tile 2"))
    expect(page.locator("meldwise-hint .answer")).to_be_empty()
    # The bad tile is drawn as one, and named.
    expect(
        page.locator("#rack-preview").get_by_role("button", name="remove not a tile: Q5")
    ).to_be_visible()
    # Fixing the input clears the message.
    enter_rummikub(page, "R1 R2 R3", "")
    expect(alert).to_be_hidden()
    expect(page.locator("meldwise-hint .error")).to_be_empty()


def open_in(page: Page, service: str, lang: str) -> None:
    """The demo page in ``lang``. The language arrives after its catalogue loads and
    clears an answer in the old one: this returns once it is applied (an error drawn
    before it would be cleared)."""
    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The server in between answered HTTP 500, not the service."),
        ("ja", "間にあるサーバーが HTTP 500 を返しました(サービスの応答ではありません)。"),
    ],
)
def test_an_error_without_a_message_is_said_in_the_pages_words(
    service: str, page: Page, lang: str, said: str
) -> None:
    # A bare 500 (no JSON detail: a server in between's, as the service's own 500 has
    # one): the browser's status text is English, and the call is no hint here
    # (Repair): the message names the server in between, in the page's language, with
    # the code.
    open_in(page, service, lang)
    page.locator("#table").fill("R1 R2 R3")
    page.route(
        f"**{REPAIR}",
        lambda route: route.fulfill(status=500, body="<h1>Internal Server Error</h1>"),
    )
    page.locator("#repair-run").click()
    expect(page.locator("#repair-error")).to_have_text(said)
    page.route(
        f"**{REPAIR}",
        lambda route: route.fulfill(
            status=503, json={"detail": BUSY_DETAIL}, headers={"Retry-After": "3"}
        ),
    )
    page.locator("#repair-run").click()
    expect(page.locator("#repair-error")).not_to_contain_text("hint")
    expect(page.locator("#repair-error")).to_contain_text("3")
    # The service shutting down (BUSY_DETAIL) answered 503 too: it was said "The service
    # is busy.", a cause the page cannot know (503 is also a lost worker, a request that
    # waited too long).
    expect(page.locator("#repair-error")).to_contain_text("503")
    expect(page.locator("#repair-error")).not_to_contain_text("busy")
    expect(page.locator("#repair-error")).not_to_contain_text("混み合って")


BUSY_DETAIL = "the server is shutting down; try again shortly"
"""A detail of the service's own 503 (it sends one with every refusal): one that is not
"busy", as the page once said of every 503."""

NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
"""nginx's own page for a 502 (its body for the service stopped behind it)."""


def hint_said_as_in_between(hint: Locator, said: str, status: int) -> JSHandle:
    """Press ``hint`` (its call answered by a server in between) and check that it says
    ``said`` and fires it with ``status`` and no service detail; return the events it
    fires (a JS array, filled as they come)."""
    events = hint.evaluate_handle(
        "element => { const seen = [];"
        " element.addEventListener('meldwise-hint-error', e => seen.push(e.detail));"
        " return seen; }"
    )
    hint.get_by_role("button").click()
    expect(hint.get_by_role("alert")).to_have_text(said)
    assert events.evaluate("seen => seen.map(d => [d.message, d.status, d.detail])") == [
        [said, status, None]
    ]
    return events


@pytest.mark.parametrize(
    ("status", "lang", "said"),
    [
        (
            502,
            "en",
            "The service could not be reached: the server in between answered HTTP 502. "
            "Try again shortly.",
        ),
        (
            503,
            "en",
            "The service could not be reached: the server in between answered HTTP 503. "
            "Try again shortly.",
        ),
        (
            504,
            "en",
            "The service did not answer in time: the server in between answered HTTP 504. "
            "Try again shortly.",
        ),
        (
            502,
            "ja",
            "サービスに届きませんでした(間にあるサーバーが HTTP 502 を返しました)。"
            "しばらくしてからもう一度お試しください。",
        ),
        (
            504,
            "ja",
            "サービスが時間内に応答しませんでした(間にあるサーバーが HTTP 504 を返しました)。"
            "しばらくしてからもう一度お試しください。",
        ),
    ],
)
def test_a_proxys_own_gateway_error_is_not_said_as_the_services(
    service: str, page: Page, status: int, lang: str, said: str
) -> None:
    # nginx in front of a stopped service answers 502 itself (504 when the service
    # is slower than its proxy_read_timeout): the page said "The service answered
    # with an error (HTTP 502)." The service never sends 502 or 504, and its own 503
    # always has a JSON detail: one without is the proxy's.
    open_in(page, service, lang)
    page.locator("#rack").fill("R1 R2 R3")
    page.route(
        f"**{SOLVE}",
        lambda route: route.fulfill(
            status=status, content_type="text/html", body=NGINX_502.replace("502", str(status))
        ),
    )
    hint = page.locator("meldwise-hint")
    events = hint_said_as_in_between(hint, said, status)
    # JSON that is not the service's error (a cloud load balancer's) is the proxy's too.
    page.route(
        f"**{SOLVE}",
        lambda route: route.fulfill(status=status, json={"error": "no healthy upstream"}),
    )
    hint.evaluate("element => element.hint().catch(() => {})")
    page.wait_for_function("seen => seen.length === 2", arg=events)
    assert events.evaluate("seen => [seen[1].message, seen[1].status]") == [said, status]
    row = next(
        line for line in HTTP_DOC.read_text().splitlines() if "`meldwise-hint-error` event" in line
    )
    if lang == "en":  # the element's words, as docs/http.md gives them
        assert said.split(":")[0] in row


NGINX_403 = NGINX_502.replace("502 Bad Gateway", "403 Forbidden")
"""nginx's own page for a 403 (a WAF or a `deny` rule in front of the service)."""

IN_BETWEEN = {
    "en": {
        "refused": "The server in between refused the request: it answered HTTP {status}, not the "
        "service.",
        "large": "The request is too large for the server in between: it answered HTTP {status}, "
        "not the service.",
        "many": "Too many requests for the server in between: it answered HTTP {status}, not the "
        "service. Try again in 7 s.",
        "many-shortly": "Too many requests for the server in between: it answered HTTP {status}, "
        "not the service. Try again shortly.",
        "failed": "The server in between answered HTTP {status}, not the service.",
    },
    "ja": {
        "refused": "間にあるサーバーがリクエストを断りました(HTTP {status}。"
        "サービスの応答ではありません)。",
        "large": "リクエストが間にあるサーバーには大きすぎました(HTTP {status}。"
        "サービスの応答ではありません)。",
        "many": "間にあるサーバーへのリクエストが多すぎます(HTTP {status}。"
        "サービスの応答ではありません)。7秒後にもう一度お試しください。",
        "many-shortly": "間にあるサーバーへのリクエストが多すぎます(HTTP {status}。"
        "サービスの応答ではありません)。しばらくしてからもう一度お試しください。",
        "failed": "間にあるサーバーが HTTP {status} を返しました(サービスの応答ではありません)。",
    },
}
"""What the page and the element say of an answer that is not the service's, by kind."""

# Each tab's request: (tab to open, how to fill it, its button, its route, its error).
TAB_REQUESTS = [
    (None, "#table", "#repair-run", REPAIR, "#repair-error"),
    (
        "#tab-shanghai",
        "#shanghai-example",
        "#shanghai-advise",
        "/v1/shanghai/advise",
        "#shanghai-error",
    ),
    ("#tab-review", "#record", "#review-run", "/v1/rummikub/review", "#review-error"),
    ("#tab-review", None, "#review-play", "/v1/rummikub/game", "#review-error"),
]


@pytest.mark.parametrize(
    ("status", "headers", "body", "lang", "kind"),
    [
        (403, {"Content-Type": "text/html"}, NGINX_403, "en", "refused"),
        (403, {}, "", "ja", "refused"),
        (429, {"Retry-After": "7"}, "", "en", "many"),
        (
            429,
            {"Retry-After": "7", "Content-Type": "text/html"},
            "<h1>Slow down</h1>",
            "ja",
            "many",
        ),
        (429, {}, "", "en", "many-shortly"),
        (
            413,
            {"Content-Type": "text/html"},
            "<h1>413 Request Entity Too Large</h1>",
            "en",
            "large",
        ),
        (413, {}, "", "ja", "large"),
        (401, {"Content-Type": "text/plain"}, "Unauthorized", "en", "refused"),
        (500, {"Content-Type": "text/html"}, "<h1>Internal Server Error</h1>", "ja", "failed"),
    ],
)
def test_a_proxys_own_refusal_is_not_said_as_the_services(
    service: str, page: Page, status: int, headers: dict[str, str], body: str, lang: str, kind: str
) -> None:
    # A WAF's 403 or a proxy's own 429 (HTML or no body, no JSON detail) was said as the
    # service's refusal: "The service answered with an error (HTTP 403).", and by the
    # element as "Too many hints have been asked for just now." Every error the service
    # sends has its JSON detail: one without is the server in between's, on every tab
    # and in the element, in the page's language.
    said = IN_BETWEEN[lang][kind].format(status=status)

    def proxy(route: Route) -> None:
        route.fulfill(status=status, headers=headers, body=body)

    open_in(page, service, lang)
    page.locator("#rack").fill("R1 R2 R3")
    page.route(f"**{SOLVE}", proxy)
    hint = page.locator("meldwise-hint")
    hint_said_as_in_between(hint, said, status)
    for tab, fill, button, path, error in TAB_REQUESTS:
        page.route(f"**{path}", proxy)
        if tab is not None:
            page.locator(tab).click()
        if fill == "#shanghai-example":
            page.locator(fill).click()
        elif fill is not None:
            page.locator(fill).fill("R1 R2 R3" if fill == "#table" else "{}")
        page.locator(button).click()
        expect(page.locator(error)).to_have_text(said)


@pytest.mark.parametrize("status", [503, 429])
def test_a_wait_given_as_a_date_is_not_said_in_seconds(
    service: str, page: Page, status: int
) -> None:
    # Retry-After may be an HTTP date (a game's proxy or CDN): a 503 said "Try again in
    # Wed, 21 Oct 2026 07:28:00 GMT s."
    date = "Wed, 21 Oct 2026 07:28:00 GMT"
    page.goto(service)
    page.locator("#rack").fill("R1 R2 R3")
    page.route(
        f"**{SOLVE}",
        lambda route: route.fulfill(
            status=status, json={"detail": BUSY_DETAIL}, headers={"Retry-After": date}
        ),
    )
    page.locator("meldwise-hint").get_by_role("button").click()
    alert = page.locator("meldwise-hint").get_by_role("alert")
    expect(alert).to_contain_text("Try again shortly.")
    expect(alert).not_to_contain_text("GMT")


def answer_200(body: dict[str, Any]) -> Callable[[Route], None]:
    """A route handler answering 200 with ``body`` (Route.fulfill's body or json)."""
    return lambda route: route.fulfill(status=200, **body)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The answer from {url} is not one the service gives (HTTP 200)."),
        ("ja", "{url} からの応答はサービスの応答ではありません(HTTP 200)。"),
    ],
)
def test_an_answer_that_is_not_the_services_is_not_drawn(
    service: str, page: Page, lang: str, said: str
) -> None:
    # An endpoint that answers 200 with something else (another address, a proxy's
    # page): HTML was said to be "an error (HTTP 200)", and JSON of another kind was
    # drawn as a hint ("No play found before the search stopped.") or a repair ("The
    # table cannot be repaired"), things nobody checked.
    open_in(page, service, lang)
    page.locator("#rack").fill("R1 R2 R3")
    page.locator("#table").fill("R5 R6 R7")
    hint = page.locator("meldwise-hint")
    for body in ({"body": "<html>a login page</html>"}, {"json": {"status": "ok"}}):
        page.route(f"**{SOLVE}", answer_200(body))
        page.route(f"**{REPAIR}", answer_200(body))
        hint.get_by_role("button").click()
        # The address the page asked, in full (it said "v1/rummikub/solve").
        expect(hint.get_by_role("alert")).to_have_text(said.format(url=f"{service}{SOLVE}"))
        expect(hint.locator(".answer")).to_be_empty()
        expect(hint).to_have_attribute("aria-busy", "false")
        page.locator("#repair-run").click()
        expect(page.locator("#repair-error")).to_have_text(said.format(url=f"{service}{REPAIR}"))
        expect(page.locator("#repair-answer")).to_be_empty()
        page.unroute(f"**{SOLVE}")
        page.unroute(f"**{REPAIR}")
    _, nudge = press_hint(page)  # the button is usable again
    assert nudge["tiles_played"] == 3


@pytest.mark.parametrize(
    ("level", "missing"),
    [
        ("nudge", ("status", "can_play", "tiles_played", "time_capped")),  # hint_level alone
        ("tile", ("text",)),
        ("full", ("steps",)),
        ("full", ("table.0.from_rack",)),  # of a set of the table after
        ("full", ("table.0.from_rack_places",)),
    ],
)
def test_a_hint_answer_without_a_field_the_service_always_gives_is_not_drawn(
    service: str, page: Page, level: str, missing: tuple[str, ...]
) -> None:
    # Another endpoint's JSON that names a hint level passed for the service's answer:
    # {"hint_level": "nudge"} alone was drawn as "No play found before the search
    # stopped.", something nobody found.
    state = {"rack": ["R1", "R2", "R3"], "table": [["R5", "R6", "R7"]]}
    real = httpx.post(f"{service}{SOLVE}", json={**state, "hint_level": level}).json()
    body = copy.deepcopy(real)
    for name in missing:
        *within, field = name.split(".")
        part = body
        for key in within:
            part = part[int(key)] if key.isdigit() else part[key]
        del part[field]
    page.goto(service)
    page.locator("#rack").fill("R1 R2 R3")
    page.locator("#table").fill("R5 R6 R7")
    hint = page.locator("meldwise-hint")
    hint.evaluate("(element, level) => element.setAttribute('hint-level', level)", level)
    page.route(f"**{SOLVE}", answer_200({"json": body}))
    hint.get_by_role("button").click()
    said = f"The answer from {service}{SOLVE} is not one the service gives (HTTP 200)."
    expect(hint.get_by_role("alert")).to_have_text(said)
    expect(hint.locator(".answer")).to_be_empty()
    page.unroute(f"**{SOLVE}")
    _, answer = press_hint(page)  # the service's own answer is drawn
    assert answer == real
    expect(hint.locator(".answer")).not_to_be_empty()
    expect(hint.get_by_role("alert")).to_be_hidden()


def test_a_full_answer_whose_table_moves_are_not_proven_the_fewest_says_so(
    service: str, page: Page
) -> None:
    # The score alone (a server with MELDWISE_DISRUPTION_CAP_MS=0, or a search the clock
    # stopped) splits R1-R5 to play R3 with no proof that no play moves fewer tiles: the
    # steps were drawn with no word that a calmer play was not searched for.
    state = {"rack": ["R3"], "table": [["R1", "R2", "R3", "R4", "R5"]]}
    score_only = httpx.post(f"{service}{SOLVE}", json={**state, "disruption_time_limit_ms": 0})
    assert score_only.json()["disruption_proven"] is False
    said = "Not proven to disturb the table least: a play as good may move fewer table tiles."
    page.goto(service)
    page.locator("#rack").fill("R3")
    page.locator("#table").fill("R1 R2 R3 R4 R5")
    hint = page.locator("meldwise-hint")
    hint.evaluate("element => element.setAttribute('hint-level', 'full')")
    page.route(f"**{SOLVE}", answer_200({"json": score_only.json()}))
    hint.get_by_role("button").click()
    expect(hint.locator(".answer .note")).to_have_text(said)
    page.unroute(f"**{SOLVE}")
    _, answer = press_hint(page)  # the service's default answer: proven, no such note
    assert answer["disruption_proven"] is True
    expect(hint.locator(".answer .summary")).to_contain_text("Play 1 tile")
    expect(hint.locator(".answer .note")).to_have_count(0)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The request to {url} failed: the service could not be reached"),
        ("ja", "{url} \u3078\u306e\u30ea\u30af\u30a8\u30b9\u30c8\u306f\u5931\u6557"),
    ],
)
def test_a_service_out_of_reach_is_named_by_its_full_address(
    service: str, page: Page, lang: str, said: str
) -> None:
    # The demo page calls the service at an address relative to itself: "Could not
    # reach the service at v1/rummikub/solve" named no address a person could try.
    # (Once the page's language is applied: the press before it, under load, drew the
    # error in English, and the language arriving then cleared it, as it should.)
    open_in(page, service, lang)
    page.locator("#rack").fill("R1 R2 R3")
    page.route(f"**{SOLVE}", lambda route: route.abort())
    page.route(f"**{REPAIR}", lambda route: route.abort())
    hint = page.locator("meldwise-hint")
    hint.get_by_role("button").click()
    expect(hint.get_by_role("alert")).to_contain_text(said.format(url=f"{service}{SOLVE}"))
    page.locator("#repair-run").click()
    expect(page.locator("#repair-error")).to_contain_text(said.format(url=f"{service}{REPAIR}"))


EMBED = """<!doctype html>
<title>A game on another origin</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint id="hint" endpoint="{service}/v1/rummikub/solve" hint-level="full"></meldwise-hint>
<meldwise-hint id="dead" endpoint="{dead}/v1/rummikub/solve"></meldwise-hint>
<script>
  // Before the element's module has run: the element must take this over.
  document.getElementById("dead").state = {state};
</script>
<script type="module">
  window.hints = [];
  window.failures = [];
  document.addEventListener("meldwise-hint", (event) => window.hints.push(event.detail));
  document.addEventListener("meldwise-hint-error", (event) => window.failures.push(event.detail));
  await customElements.whenDefined("meldwise-hint");
  const state = {state};
  document.getElementById("hint").state = state;
</script>
"""


def test_the_element_on_another_origin_fires_the_full_response(service: str, page: Page) -> None:
    state = {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"], ["K7", "B7", "O7"]]}
    with second_origin({}) as dead:
        pass  # a port that was just closed: nothing answers there
    page_html = EMBED.format(service=service, dead=dead, state=json.dumps(state))
    with second_origin({"/game.html": page_html}) as game:
        assert game != service  # another port: another origin, so CORS applies
        page.goto(f"{game}/game.html")
        element = page.locator("#hint")
        element.get_by_role("button", name="Hint: the whole play").click()
        page.wait_for_function("window.hints.length === 1")
        detail = page.evaluate("window.hints[0]")
        # The event carries the service's whole response: the same request, sent
        # directly, gets the same answer (the service is deterministic).
        direct = httpx.post(f"{service}{SOLVE}", json={**state, "hint_level": "full"}).json()
        assert detail == direct
        assert detail["tiles_played"] == 3
        expect(element.locator("ol.steps li")).to_have_count(len(direct["steps"]))

        page.locator("#dead").get_by_role("button").click()
        page.wait_for_function("window.failures.length === 1")
        failure = page.evaluate("window.failures[0]")
        assert failure["status"] == 0
        expect(page.locator("#dead").get_by_role("alert")).to_contain_text(
            f"The request to {dead}{SOLVE} failed: the service could not be reached"
        )
        assert page.evaluate("window.hints.length") == 1


UNSENT_EMBED = """<!doctype html>
<title>A game that gives the element no position it can send</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{service}{solve}"></meldwise-hint>
<script type="module">
  window.failures = [];
  document.addEventListener("meldwise-hint-error", (event) => window.failures.push(event.detail));
  {script}
</script>
"""


def press_unsent(service: str, page: Page, script: str = "") -> dict[str, Any]:
    """Press the hint of a game page whose module runs ``script``; check that no
    request was sent and return the meldwise-hint-error event's detail."""
    page_html = UNSENT_EMBED.format(service=service, solve=SOLVE, script=script)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if SOLVE in request.url else None)
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        page.locator("meldwise-hint").get_by_role("button").click()
        page.wait_for_function("window.failures.length === 1")
        failure: dict[str, Any] = page.evaluate("window.failures[0]")
    assert sent == []
    return failure


def test_a_press_before_the_page_set_a_state_sends_nothing_and_says_so(
    service: str, page: Page
) -> None:
    """docs/http.md gave the error event's status as 0 or the HTTP status; a press
    with no state yet sends no request, and its status is null, as the doc now says."""
    failure = press_unsent(service, page)
    message = "No position yet: the page sets this element's state."
    assert failure == {"message": message, "status": None, "detail": None}
    row = next(
        line for line in HTTP_DOC.read_text().splitlines() if "`meldwise-hint-error` event" in line
    )
    assert "status 0: no answer" in row
    assert "null when no request was sent" in row


def test_properties_set_before_the_element_is_defined_are_its_attributes(
    service: str, page: Page
) -> None:
    """A page that set endpoint and timeout before the element's script ran left plain
    properties that hid the element's own for good: a later endpoint attribute was
    never used (the hints went on to the first address) and neither was reflected."""
    state = {"rack": ["R1", "R2", "J"], "table": [["R3", "R4", "R5"]]}
    with second_origin({}) as dead:
        pass  # a port that was just closed: nothing answers there
    page_html = f"""<!doctype html>
<title>A game that sets the element's properties early</title>
<meldwise-hint></meldwise-hint>
<script>
  const hint = document.querySelector("meldwise-hint");
  hint.endpoint = "{dead}{SOLVE}";
  hint.timeout = 7;
  hint.state = {json.dumps(state)};
</script>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
"""
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        page.wait_for_function("customElements.get('meldwise-hint') !== undefined")
        element = page.locator("meldwise-hint")
        assert element.get_attribute("endpoint") == f"{dead}{SOLVE}"
        assert element.get_attribute("timeout") == "7"
        element.evaluate("(hint, url) => hint.setAttribute('endpoint', url)", f"{service}{SOLVE}")
        element.evaluate("(hint) => hint.setAttribute('timeout', '30')")
        assert element.evaluate("(hint) => [hint.endpoint, hint.timeout]") == [
            f"{service}{SOLVE}",
            30,
        ]
        _, response = press_hint(page)
    assert response["tiles_played"] == 3
    expect(element.get_by_role("status")).to_contain_text("You can play 3 tiles")


def test_a_state_that_is_no_json_is_not_said_to_be_a_service_out_of_reach(
    service: str, page: Page
) -> None:
    """A state the browser cannot write as JSON (here a cycle: a game's object that
    points back at itself) failed inside fetch's call and was told the player "Could
    not reach the service at ...: it is not running, or this page's origin is not
    allowed", nothing of which was checked: no request was even sent."""
    cycle = """const state = {rack: ["R1", "R2", "R3"], table: []};
  state.game = {state};
  document.querySelector("meldwise-hint").state = state;"""
    failure = press_unsent(service, page, cycle)
    assert failure["status"] is None
    assert failure["message"].startswith(
        "The page's state for this element cannot be sent as JSON: "
    ), failure
    assert "could not be reached" not in failure["message"]
    expect(page.locator("meldwise-hint").get_by_role("alert")).to_have_text(failure["message"])


RERENDERED_EMBED = """<!doctype html>
<title>A game that sets the element's state on every render</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{service}{solve}"></meldwise-hint>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  // As a framework passes a prop: a new object built on each render, the same position.
  window.render = () => {{
    document.querySelector("meldwise-hint").state = {{rack: ["R1", "R2", "R3"], table: []}};
  }};
  window.render();
</script>
"""


def test_setting_the_same_position_again_keeps_the_hint(service: str, page: Page) -> None:
    """A game that sets the state on every render (a clock ticking, a framework's new
    object for the same position) wiped the hint each time, and aborted one on its
    way: a hint slower than the renders never showed. Only a new position starts
    again from the nudge."""
    held = hold(page, SOLVE)
    with second_origin(
        {"/game.html": RERENDERED_EMBED.format(service=service, solve=SOLVE)}
    ) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")
        hint.get_by_role("button").click()
        wait_held(page, held)
        page.evaluate("window.render()")  # while the nudge is on its way
        release(page, held.pop())
        expect(hint.get_by_role("status")).to_have_text("You can play 3 tiles this turn.")
        page.evaluate("window.render()")
        expect(hint.get_by_role("status")).to_have_text("You can play 3 tiles this turn.")
        expect(hint.get_by_role("button")).to_have_text("Hint: which tile?")
        # A new position, though in the same object changed in place, starts again.
        hint.evaluate("(hint) => { hint.state.rack.push('R4'); hint.state = hint.state; }")
        expect(hint.locator(".answer")).to_be_empty()
        expect(hint.get_by_role("button")).to_have_text("Hint")


def test_the_hidden_attribute_hides_the_element(service: str, page: Page) -> None:
    """The element's own display (block, set in its shadow root over everything the
    page passes down) won over the browser's rule for hidden: a game that hid the
    hint button between its player's turns (hint.hidden = true) still showed it."""
    page_html = f"""<!doctype html>
<title>A game that hides the hint between turns</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{service}{SOLVE}" hidden></meldwise-hint>
"""
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        page.wait_for_function("customElements.get('meldwise-hint') !== undefined")
        hint = page.locator("meldwise-hint")
        expect(hint.get_by_role("button", include_hidden=True)).to_be_hidden()
        hint.evaluate("(hint) => { hint.hidden = false; }")
        expect(hint.get_by_role("button")).to_be_visible()
        hint.evaluate("(hint) => { hint.hidden = true; }")
        expect(hint.get_by_role("button", include_hidden=True)).to_be_hidden()


def test_two_labelled_elements_are_told_apart_by_their_accessible_names(
    service: str, page: Page
) -> None:
    """Two hint buttons on one page were both named "Hint": a screen reader could not
    say whose hint each was (aria-label on the element does not reach the button in
    its shadow root). The label attribute adds to the button's name, its words first,
    in the element's language and after each press."""
    page_html = f"""<!doctype html>
<title>Two players' hints</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{service}{SOLVE}" label="Player 1"></meldwise-hint>
<meldwise-hint endpoint="{service}{SOLVE}" label="プレイヤー2" lang="ja"></meldwise-hint>
<script type="module">
  for (const hint of document.querySelectorAll("meldwise-hint")) {{
    hint.state = {{rack: ["R1", "R2", "R3"], table: []}};
  }}
</script>
"""
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        first = page.get_by_role("button", name="Hint (Player 1)", exact=True)
        expect(first).to_be_visible()
        expect(first).to_have_text("Hint")
        expect(page.get_by_role("button", name="(プレイヤー2)")).to_have_count(1)
        first.click()
        expect(page.get_by_role("button", name="Hint: which tile? (Player 1)")).to_be_visible()
        hints = page.locator("meldwise-hint")
        hints.first.evaluate("(hint) => hint.removeAttribute('label')")
        expect(hints.first.get_by_role("button")).to_have_accessible_name("Hint: which tile?")


HOSTILE_EMBED = """<!doctype html>
<html dir="rtl">
<title>A dark game page whose text styles every element inherits</title>
<style>
  body {{
    white-space: nowrap; background: #111; color: #eee; text-transform: lowercase;
    letter-spacing: 0.3em; word-spacing: 1em; text-align: right; text-indent: 3em;
    line-height: 0.6; font-style: italic; font-weight: 100; font-size: 20px;
  }}
  meldwise-hint {{ width: 22em; }}
</style>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{service}/v1/rummikub/solve" hint-level="full"></meldwise-hint>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("meldwise-hint").state = {state};
</script>
</html>
"""

# The contrast (WCAG 2) of two computed colours "rgb(r, g, b)".
CONTRAST = """([fg, bg]) => {
  const lum = (c) => {
    const [r, g, b] = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_the_host_pages_inherited_text_styles_stay_out_of_the_element(
    service: str, page: Page
) -> None:
    # A game page we do not control: its body's inherited text styles reached the
    # element's shadow tree, so a long answer ran out of the element (nowrap), the set
    # names stayed #555 on the page's dark background, tile codes were lowercased and
    # a run was drawn right to left. Only the font size is the page's to give.
    state = {
        "rack": ["R1", "R2", "J", "B9", "B10", "B11", "K4", "K5"],
        "table": [["R3", "R4", "R5"], ["K7", "B7", "O7"], ["K1", "K2", "K3"]],
    }
    page_html = HOSTILE_EMBED.format(service=service, state=json.dumps(state))
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        _, full = press_hint(page)
        assert full["tiles_played"] >= 3
        hint = page.locator("meldwise-hint")
        answer = hint.locator(".answer")
        style = answer.evaluate(
            """answer => {
              const s = getComputedStyle(answer);
              return {whiteSpace: s.whiteSpace, textTransform: s.textTransform,
                      letterSpacing: s.letterSpacing, wordSpacing: s.wordSpacing,
                      textIndent: s.textIndent, fontStyle: s.fontStyle,
                      direction: s.direction, fontSize: s.fontSize};
            }"""
        )
        assert style == {
            "whiteSpace": "normal",
            "textTransform": "none",
            "letterSpacing": "normal",
            "wordSpacing": "0px",
            "textIndent": "0px",
            "fontStyle": "normal",
            "direction": "ltr",
            "fontSize": "20px",  # the page's size: the element scales with it
        }
        # The answer wraps within the element: nothing runs out to the side.
        width = hint.evaluate("element => element.getBoundingClientRect().width")
        assert answer.evaluate("a => a.scrollWidth <= a.clientWidth")
        for step in hint.locator("ol.steps li").all():
            assert step.evaluate("li => li.getBoundingClientRect().width") <= width
        # Its texts are readable on the page's dark background: colours of its own.
        for selector in (".set-name", ".summary", "ol.steps li"):
            colour = hint.locator(f".answer {selector}").first.evaluate(
                "e => getComputedStyle(e).color"
            )
            background = answer.evaluate("a => getComputedStyle(a).backgroundColor")
            assert page.evaluate(CONTRAST, [colour, background]) >= 4.5, (selector, colour)
        # Tile codes as the service writes them, and each set drawn left to right.
        drawn = hint.locator("ol.steps li").all_inner_texts()  # text-transform applied
        assert drawn == [step["text"] for step in full["steps"]]
        for row in hint.locator(".table-after .set").all():
            xs = row.locator(".tile").evaluate_all(
                "tiles => tiles.map(t => t.getBoundingClientRect().left)"
            )
            assert xs == sorted(xs), xs


def failing_embed(
    service: str, endpoint: str, title: str, *, lang: str = "en", attributes: str = ""
) -> str:
    """A game's page with one element calling ``endpoint``, which keeps the element's
    failures in ``window.failures``."""
    return f"""<!doctype html>
<html lang="{lang}">
<title>{title}</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint endpoint="{endpoint}" {attributes}></meldwise-hint>
<script type="module">
  window.failures = [];
  document.addEventListener("meldwise-hint-error", (event) => window.failures.push(event.detail));
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("meldwise-hint").state = {{rack: ["R1", "R2", "R3"], table: []}};
</script>
</html>
"""


NEVER_ANSWERS = "A game page whose hint service never answers"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The service did not answer within 1 s. Try again shortly."),
        ("ja", "サービスが1秒以内に応答しませんでした。しばらくしてからもう一度お試しください。"),
    ],
)
def test_a_hint_the_service_never_answers_is_given_up_after_the_timeout(
    service: str, page: Page, lang: str, said: str
) -> None:
    # A hung connection kept the button busy for ever: now the element gives up
    # after its timeout (here 1 s), says so and takes presses again.
    page_html = failing_embed(
        service, f"{service}{SOLVE}", NEVER_ANSWERS, lang=lang, attributes='timeout="1"'
    )
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        held = hold(page, SOLVE)
        hint = page.locator("meldwise-hint")
        hint.get_by_role("button").click()
        wait_held(page, held)
        expect(hint).to_have_attribute("aria-busy", "true")
        expect(hint.get_by_role("alert")).to_have_text(said, timeout=5000)
        expect(hint).to_have_attribute("aria-busy", "false")
        failure = page.evaluate("window.failures[0]")
        assert failure == {"message": said, "status": 0, "detail": None}
        page.unroute(f"**{SOLVE}")
        _, nudge = press_hint(page)  # the button is usable again
        assert nudge["tiles_played"] == 3
        expect(hint.locator(".error")).to_be_empty()


def test_without_a_timeout_attribute_a_hint_is_given_up_just_after_the_services_own(
    service: str, page: Page
) -> None:
    # The default is just above the service's default request timeout
    # (MELDWISE_TIMEOUT_REQUEST_S, 30 s), after which the service answers 503 itself.
    page.clock.install()
    page_html = failing_embed(service, f"{service}{SOLVE}", NEVER_ANSWERS)
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        held = hold(page, SOLVE)
        hint = page.locator("meldwise-hint")
        assert hint.evaluate("element => element.timeout") == 35
        hint.get_by_role("button").click()
        wait_held(page, held)
        page.clock.run_for(34_000)
        expect(hint).to_have_attribute("aria-busy", "true")
        page.clock.run_for(1_000)
        expect(hint.get_by_role("alert")).to_have_text(
            "The service did not answer within 35 s. Try again shortly."
        )
        expect(hint).to_have_attribute("aria-busy", "false")


@pytest.mark.parametrize(
    ("tab", "button", "path", "lang"),
    [
        (None, "#repair-run", REPAIR, "en"),
        ("#tab-shanghai", "#shanghai-advise", "/v1/shanghai/advise", "en"),
        ("#tab-review", "#review-play", "/v1/rummikub/game", "ja"),
        ("#tab-review", "#review-play", "/v1/shanghai/game", "en"),
    ],
)
def test_a_tab_request_the_service_never_answers_is_given_up_after_the_timeout(
    service: str, page: Page, tab: str | None, button: str, path: str, lang: str
) -> None:
    # The demo's Repair, Advise and Review buttons had no client timeout: a service
    # that never answered (a hung connection) kept them busy for ever. Now every
    # request of the page is given up as the hint's is (35 s), said in the page's words.
    page.clock.install()
    open_in(page, service, lang)
    if tab is not None:
        page.locator(tab).click()
    if button == "#repair-run":
        page.locator("#table").fill("R1 R2 R3")
    if button == "#shanghai-advise":
        page.locator("#shanghai-example").click()
    if path == "/v1/shanghai/game":
        page.locator("#review-form input[name=game][value=shanghai]").check()
    held = hold(page, path)
    asking = page.locator(button)
    asking.click()
    wait_held(page, held)
    page.clock.run_for(34_000)
    expect(asking).to_have_attribute("aria-disabled", "true")
    page.clock.run_for(1_000)
    error = page.locator(f"{button.split('-')[0]}-error")  # #repair-error, ...
    said = {
        "en": "The service did not answer within 35 s. Try again shortly.",
        "ja": "サービスが35秒以内に応答しませんでした。しばらくしてからもう一度お試しください。",
    }
    expect(error).to_have_text(said[lang])
    expect(asking).not_to_have_attribute("aria-disabled", "true")


PROXIED_EMBED = """<!doctype html>
<title>A game whose own server passes the hints on with its API key</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint id="proxied" endpoint="/meldwise/solve"></meldwise-hint>
<meldwise-hint id="direct" endpoint="{service}/v1/rummikub/solve"></meldwise-hint>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  for (const hint of document.querySelectorAll("meldwise-hint")) {{
    hint.state = {{rack: ["R1", "R2", "R3"], table: []}};
  }}
</script>
"""


class Answering(BaseHTTPRequestHandler):
    """A test server's handler: ``answer`` sends a whole answer; nothing is logged."""

    def answer(self, status: int, headers: list[tuple[str, str]], data: bytes) -> None:
        self.send_response(status)
        for name, value in [*headers, ("Content-Length", str(len(data)))]:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def running(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on a free loopback port for the block; yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def refusing_proxy(status: int) -> AbstractContextManager[str]:
    """A proxy on another origin that lets the preflight through (answered as the
    service answers it) and refuses the request itself with its own HTML ``status``
    and no CORS headers, as a WAF's 403 or a proxy's own 429 does."""

    class Handler(Answering):
        def do_OPTIONS(self) -> None:
            allowed = [
                ("Access-Control-Allow-Origin", self.headers["Origin"]),
                ("Access-Control-Allow-Methods", "POST"),
                ("Access-Control-Allow-Headers", "Content-Type, Accept-Language"),
            ]
            self.answer(200, allowed, b"")

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            page = f"<html><body><h1>{status}</h1></body></html>".encode()
            headers = [("Content-Type", "text/html"), ("Retry-After", "7")]
            self.answer(status, headers, page)

    return running(Handler)


@pytest.mark.parametrize("status", [403, 429])
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "The request to {url} failed: the service could not be reached, or the request"
            " was refused (by the service, whose MELDWISE_CORS_ORIGINS may not allow this"
            " page's origin, or by a server in between); the browser does not tell this"
            " page which.",
        ),
        (
            "ja",
            "{url} \u3078\u306e\u30ea\u30af\u30a8\u30b9\u30c8\u306f\u5931\u6557"
            "\u3057\u307e\u3057\u305f",
        ),
    ],
)
def test_a_refusal_the_browser_hides_is_not_said_to_be_a_service_not_running(
    service: str, page: Page, status: int, lang: str, said: str
) -> None:
    # A proxy's 403 or 429 without CORS headers reaches a page of another origin as a
    # failed fetch (status 0): the element said "Could not reach the service at ...:
    # it is not running, or this page's origin is not allowed to call it", while the
    # service ran and allowed every origin. The page cannot know which it was.
    with refusing_proxy(status) as proxy:
        page_html = failing_embed(
            service, f"{proxy}{SOLVE}", "A game whose proxy refuses its request", lang=lang
        )
        with second_origin({"/game.html": page_html}) as game:
            page.goto(f"{game}/game.html")
            page.wait_for_function("customElements.get('meldwise-hint') !== undefined")
            element = page.locator("meldwise-hint")
            element.get_by_role("button").click()
            page.wait_for_function("window.failures.length === 1")
            failure = page.evaluate("window.failures[0]")
    assert failure["status"] == 0
    assert failure["message"].startswith(said.format(url=f"{proxy}{SOLVE}")), failure
    assert "not running" not in failure["message"]
    expect(element.get_by_role("alert")).to_have_text(failure["message"])
    row = next(
        line for line in HTTP_DOC.read_text().splitlines() if "`meldwise-hint-error` event" in line
    )
    if lang == "en":  # the element's words, as docs/http.md gives them
        head, tail = said.split(" (by the service")
        assert head.format(url="https://meldwise.example/v1/rummikub/solve") in row
        assert tail.split("; ")[-1] in row


def key_adding_proxy(service: str, key: str, page_html: str) -> AbstractContextManager[str]:
    """The game's own server (docs/http.md, "With API keys"): it serves the game page,
    and passes POST /meldwise/solve on to the service's solve with its key added,
    Content-Type and Accept-Language kept, the answer's status, Retry-After and body
    as they are."""

    class Handler(Answering):
        def do_GET(self) -> None:
            self.answer(200, [("Content-Type", "text/html; charset=utf-8")], page_html.encode())

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            kept = {name: self.headers[name] for name in ("Content-Type", "Accept-Language")}
            passed = httpx.post(
                f"{service}{SOLVE}", content=body, headers={**kept, "X-API-Key": key}
            )
            headers = [("Content-Type", passed.headers["Content-Type"])]
            if "Retry-After" in passed.headers:
                headers.append(("Retry-After", passed.headers["Retry-After"]))
            self.answer(passed.status_code, headers, passed.content)

    return running(Handler)


def test_with_api_keys_the_element_works_behind_the_games_own_proxy(
    page: Page, tmp_path: Path
) -> None:
    # docs/http.md: with MELDWISE_API_KEYS the element, which sends no key, gets 401
    # calling the service itself; the game's server passing its requests on with the
    # key makes it work, the page holding no key.
    keys = {"MELDWISE_API_KEYS": "game-key"}
    with (
        serve(workers=1, log_path=str(tmp_path / "server.log"), env=keys) as (service, _),
        key_adding_proxy(service, "game-key", PROXIED_EMBED.format(service=service)) as game,
    ):
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.goto(f"{game}/game.html")
        assert "game-key" not in page.content()
        direct = page.locator("#direct")
        with page.expect_event("console"):
            direct.get_by_role("button").click()
        # The player was shown the 401's text for developers ("send it as
        # 'Authorization: Bearer KEY'"): now words for players; the developer's detail
        # goes to the console (and the meldwise-hint-error event's detail).
        expect(direct.get_by_role("alert")).to_have_text(
            "This service is not available here right now."
        )
        assert any("401: this server needs an API key" in text for text in console), console
        proxied = page.locator("#proxied")
        with page.expect_response(lambda r: r.url == f"{game}/meldwise/solve") as answer:
            proxied.get_by_role("button").click()
        assert answer.value.status == 200
        expect(proxied.locator(".answer")).to_have_text("You can play 3 tiles this turn.")
        expect(proxied.locator(".error")).to_be_empty()
        # The demo page of a keyed service says the same to its players, in Japanese too.
        _open_in_japanese(service, page)
        page.locator("#table").fill("R1 R2 R3")
        page.locator("#repair-run").click()
        expect(page.locator("#repair-error")).to_have_text(
            "このサービスは現在ここではご利用いただけません。"
        )
        hint = page.locator("meldwise-hint")
        hint.get_by_role("button").click()
        expect(hint.get_by_role("alert")).to_have_text(
            "このサービスは現在ここではご利用いただけません。"
        )


PREFIXED_GAME = """<!doctype html>
<title>A game site that serves Meldwise under /meldwise/</title>
<script type="module" src="/meldwise/static/meldwise-hint.js"></script>
<meldwise-hint></meldwise-hint>
<script type="module">
  window.hints = [];
  document.addEventListener("meldwise-hint", (event) => window.hints.push(event.detail));
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("meldwise-hint").state = {rack: ["R1", "R2", "R3"], table: []};
</script>
"""


def prefix_proxy(service: str, prefix: str) -> AbstractContextManager[str]:
    """A game site's reverse proxy (docs/service.md, "Behind nginx"): ``prefix/...`` is
    passed on to the service as ``/...`` with ``X-Forwarded-Prefix`` and
    ``X-Forwarded-For``, the answer's status, headers and body as they are; ``/`` is the
    site's own game page, and any other path is not the service's (404)."""

    class Handler(Answering):
        def do_GET(self) -> None:
            self.pass_on()

        def do_POST(self) -> None:
            self.pass_on(self.rfile.read(int(self.headers.get("Content-Length", 0))))

        def pass_on(self, body: bytes | None = None) -> None:
            if self.path == "/":
                self.answer(200, [("Content-Type", "text/html")], PREFIXED_GAME.encode())
                return
            if not self.path.startswith(f"{prefix}/"):
                self.answer(404, [("Content-Type", "text/plain")], b"not the service's")
                return
            sent = {k: v for k, v in self.headers.items() if k.lower() not in ("host",)}
            sent |= {"X-Forwarded-Prefix": prefix, "X-Forwarded-For": self.client_address[0]}
            url = service + self.path.removeprefix(prefix)
            passed = httpx.request(self.command, url, content=body, headers=sent)
            hop = ("connection", "content-length", "transfer-encoding", "content-encoding")
            kept = [(k, v) for k, v in passed.headers.items() if k.lower() not in hop]
            self.answer(passed.status_code, kept, passed.content)

    return running(Handler)


def test_under_a_proxys_path_prefix_the_page_the_docs_and_the_element_work(
    page: Page, tmp_path: Path
) -> None:
    # A game site serving Meldwise at /meldwise/ behind its proxy. /docs' "Try it out"
    # called the site's /healthz, outside the prefix: the schema named no server.
    log = str(tmp_path / "server.log")
    with ExitStack() as stack:
        service, _ = stack.enter_context(serve(1, log, {"MELDWISE_TRUSTED_PROXIES": "127.0.0.1"}))
        site = stack.enter_context(prefix_proxy(service, "/meldwise"))
        page.goto(f"{site}/meldwise/")
        enter_rummikub(page, "K8 K9 O1", "B7 K7 O7 R7")
        with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
            page.locator("meldwise-hint").get_by_role("button").click()
        assert (answer.value.url, answer.value.status) == (f"{site}/meldwise{SOLVE}", 200)

        page.goto(f"{site}/meldwise/docs")
        page.locator(".opblock-summary-path", has_text=re.compile("^/healthz$")).click()
        page.get_by_role("button", name="Try it out").click()
        with page.expect_response(lambda r: "/healthz" in r.url) as tried:
            page.get_by_role("button", name="Execute").click()
        assert (tried.value.url, tried.value.status) == (f"{site}/meldwise/healthz", 200)

        # The game's own page loads the element from the prefix: it calls the service
        # there (its default endpoint is beside its script).
        page.goto(f"{site}/")
        with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
            page.locator("meldwise-hint").get_by_role("button").click()
        assert (answer.value.url, answer.value.status) == (f"{site}/meldwise{SOLVE}", 200)
        page.wait_for_function("window.hints.length === 1")


RATE_LIMITED_EMBED = """<!doctype html>
<title>A game whose players share the service's rate limit</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint id="en" endpoint="{service}/v1/rummikub/solve"></meldwise-hint>
<meldwise-hint id="ja" lang="ja" endpoint="{service}/v1/rummikub/solve"></meldwise-hint>
<script type="module">
  window.failures = [];
  document.addEventListener("meldwise-hint-error", (event) => window.failures.push(event.detail));
  await customElements.whenDefined("meldwise-hint");
  for (const hint of document.querySelectorAll("meldwise-hint")) {{
    hint.state = {{rack: ["R1", "R2", "R3"], table: []}};
  }}
</script>
"""


def test_a_rate_limited_hint_tells_the_player_when_to_try_again(service: str, page: Page) -> None:
    """A 429 showed the player the service's words for the client's developer ("this
    client sent more requests than the rate limit allows; slow down": behind a game's
    own route every player is that one client) and not the wait its Retry-After gives,
    as a 503 does. The refusal is the service's answer with its status, Retry-After
    and body made a 429's (its CORS headers kept): a real one needs a server of its
    own, which takes seconds to start."""
    detail = "this client sent more requests than the rate limit allows; slow down"

    def refuse(route: Route) -> None:
        answer = route.fetch()
        headers = {**answer.headers, "retry-after": "7"}
        route.fulfill(response=answer, status=429, headers=headers, json={"detail": detail})

    page.route(f"**{SOLVE}", refuse)
    with second_origin({"/game.html": RATE_LIMITED_EMBED.format(service=service)}) as game:
        page.goto(f"{game}/game.html")
        english = page.locator("#en")
        english.get_by_role("button").click()
        expect(english.get_by_role("alert")).to_have_text(
            "Too many hints have been asked for just now. Try again in 7 s."
        )
        expect(english.locator(".answer")).to_be_empty()
        page.wait_for_function("window.failures.length === 1")
        failure = page.evaluate("window.failures[0]")
        assert failure["status"] == 429
        assert failure["detail"] == detail  # the service's words, for the developer
        japanese = page.locator("#ja")
        japanese.get_by_role("button").click()
        expect(japanese.get_by_role("alert")).to_have_text(
            "ヒントの依頼が多すぎます。7秒後にもう一度お試しください。"
        )


@contextmanager
def slow_body(page_html: str, body: dict[str, Any]) -> Iterator[tuple[str, threading.Event]]:
    """A server of ``page_html`` (GET) whose POST answers 200 at once but holds its JSON
    ``body`` back until the event yielded with its URL is set (a slow line: the answer's
    head is in, its body on its way)."""
    headed = threading.Event()
    go_on = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = page_html.encode()
            self.head("text/html; charset=utf-8", data)
            self.wfile.write(data)

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            data = json.dumps(body).encode()
            self.head("application/json", data)
            self.wfile.flush()
            headed.set()
            go_on.wait(timeout=10)
            with suppress(OSError):  # the browser may have hung up
                self.wfile.write(data)

        def head(self, content_type: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", go_on
        assert headed.is_set(), "the page did not ask"
    finally:
        go_on.set()
        server.shutdown()
        server.server_close()


def test_a_hint_dropped_while_its_answer_comes_in_shows_no_error(service: str, page: Page) -> None:
    # A new position while the old one's answer was half in (its head, not its body):
    # aborting the body read was taken for an answer that is not JSON, and the new
    # position was shown "The answer from ... is not one the service gives (HTTP 200)",
    # with a meldwise-hint-error event the game had no request for.
    nudge = {"status": "optimal", "hint_level": "nudge", "can_play": True, "tiles_played": 3}
    with slow_body(
        failing_embed(service, "/solve", "A game whose hints come over a slow line"),
        nudge,
    ) as (game, go_on):
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")
        with page.expect_response(lambda r: r.url == f"{game}/solve"):
            hint.get_by_role("button").click()
        hint.evaluate("element => { element.state = {rack: ['K1'], table: []}; }")
        go_on.set()
        page.wait_for_timeout(500)  # the old answer's body lands, if anywhere
        expect(hint).to_have_attribute("aria-busy", "false")
        expect(hint.locator(".error")).to_be_empty()
        expect(hint.locator(".answer")).to_be_empty()
        assert page.evaluate("window.failures") == []


JAPANESE_EMBED = """<!doctype html>
<title>A Japanese game page</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint lang="ja" endpoint="{service}/v1/rummikub/solve" hint-level="full"></meldwise-hint>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("meldwise-hint").state = {state};
</script>
"""


def drawn_colours(page: Page) -> list[list[tuple[str, str, str]]]:
    """Per set of the table after the play: each tile, its colour class and name."""
    rows = page.locator("meldwise-hint .table-after .set").evaluate_all(
        """rows => rows.map(row => [...row.querySelectorAll('.tile')].map(tile => [
               tile.dataset.tile,
               [...tile.classList].find(name => name.startsWith('c-')),
               tile.getAttribute('aria-label')]))"""
    )
    return [[(tile, colour, name) for tile, colour, name in row] for row in rows]


@pytest.mark.parametrize(
    ("colours", "o_drawn", "o_name"),
    [
        (6, "c-O", "橙"),  # yellow is a colour of its own: orange stays orange (橙)
        (4, "c-Y", "黄"),  # the standard game: Japanese players call orange 黄
    ],
)
def test_japanese_draws_orange_yellow_only_where_yellow_is_no_colour(
    service: str, page: Page, colours: int, o_drawn: str, o_name: str
) -> None:
    # docs/i18n.md, "Notation": in Japanese the fourth colour, orange, is 黄 unless the
    # game has yellow too (6 or more colours); then Y/黄 is yellow, orange only O/橙.
    state: dict[str, Any] = {
        "rack": ["O8"],
        "table": [["O5", "O6", "O7"], ["R5", "R6", "R7"]],
        "rules": {"colours": colours},
    }
    if colours >= 6:
        state["rack"].append("Y8")
        state["table"].append(["Y5", "Y6", "Y7"])
    page_html = JAPANESE_EMBED.format(service=service, state=json.dumps(state))
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
            page.locator("meldwise-hint").get_by_role("button").click()
        page.locator("meldwise-hint[aria-busy=false]").wait_for()
        full = answer.value.json()
        assert full["tiles_played"] == len(state["rack"])
        # Where orange is drawn 黄, the service writes it Y too (no "O8" beside 黄8).
        request = answer.value.request.post_data_json
        assert isinstance(request, dict)
        assert request.get("notation") == (None if colours >= 6 else "RBYK")
        written = " ".join(step["text"] for step in full["steps"])
        assert ("O8" in written) == (colours >= 6), written
        summary = page.locator("meldwise-hint .summary")
        if colours >= 6:
            expect(summary).to_have_text(f"2枚(16点)を出します: {o_name}8、黄8。")
        else:
            expect(summary).to_have_text(f"1枚(8点)を出します: {o_name}8。")
        # The service's own step names the orange run the same way.
        assert any(f"{o_name}の5-8" in step["text"] for step in full["steps"]), full["steps"]
        drawn = {tile: (colour, name) for row in drawn_colours(page) for tile, colour, name in row}
        orange = "O" if colours >= 6 else "Y"
        assert drawn[f"{orange}5"] == (o_drawn, f"{o_name}5")
        assert drawn["R5"] == ("c-R", "赤5")
        if colours >= 6:
            assert drawn["Y5"] == ("c-Y", "黄5")


def test_a_notation_the_state_gives_is_kept_in_japanese(service: str, page: Page) -> None:
    state = {"rack": ["O8"], "table": [["O5", "O6", "O7"]], "notation": "RBKO"}
    page_html = JAPANESE_EMBED.format(service=service, state=json.dumps(state))
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        request, full = press_hint(page)
        assert request["notation"] == "RBKO"
        assert full["played"] == ["O8"]


ANCESTOR_LANG_EMBED = """<!doctype html>
<html lang="en">
<title>A game page that switches language</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<div><meldwise-hint endpoint="{service}/v1/rummikub/solve"></meldwise-hint></div>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("meldwise-hint").state = {{rack: ["R1", "R2", "R3"], table: []}};
</script>
</html>
"""


def test_the_element_follows_a_language_change_of_its_ancestors(service: str, page: Page) -> None:
    # No lang of its own: the element speaks the page's, and follows it when the page
    # switches later (a hint shown in the old language is dropped).
    with second_origin({"/game.html": ANCESTOR_LANG_EMBED.format(service=service)}) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")
        expect(hint.get_by_role("button")).to_have_text("Hint")
        press_hint(page)
        expect(hint.locator(".answer")).to_have_text("You can play 3 tiles this turn.")
        page.evaluate("document.documentElement.lang = 'ja'")
        expect(hint.get_by_role("button")).to_have_text("ヒント: どのタイル\uff1f")
        expect(hint.locator(".answer")).to_be_empty()
        request, _ = press_hint(page)
        assert request["lang"] == "ja"
        assert request["hint_level"] == "tile"
        page.evaluate("document.querySelector('div').lang = 'en'")  # a nearer ancestor
        expect(hint.get_by_role("button")).to_have_text("Hint: the whole play")


@contextmanager
def japanese_on_its_way(service: str, page: Page) -> Iterator[tuple[Locator, Route, list[Any]]]:
    """The element on a game page just switched to Japanese, whose catalogue is held
    on its way: yields the element, the held catalogue request, and the solve requests
    the page sends."""
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith(SOLVE) else None)
    with second_origin({"/game.html": ANCESTOR_LANG_EMBED.format(service=service)}) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")
        expect(hint.get_by_role("button")).to_have_text("Hint")
        held = hold(page, "/static/locale/ja.json")
        page.evaluate("document.documentElement.lang = 'ja'")
        wait_held(page, held)
        yield hint, held[0], sent


def test_a_press_made_while_a_language_loads_is_dropped_when_the_language_changes(
    service: str, page: Page
) -> None:
    # Pressed while the Japanese catalogue was still on its way, then the page went
    # back to English before it came: the press went on in Japanese once it had come,
    # and the English element showed a Japanese hint.
    with japanese_on_its_way(service, page) as (hint, catalogue, sent):
        hint.get_by_role("button").click()
        page.evaluate("document.documentElement.lang = 'en'")
        release(page, catalogue)
        expect(hint.get_by_role("button")).to_have_text("Hint")
        expect(hint.locator(".answer")).to_be_empty()
        assert sent == []
        request, _ = press_hint(page)
        assert request["lang"] == "en"
        expect(hint.locator(".answer")).to_have_text("You can play 3 tiles this turn.")


def test_a_second_press_while_the_catalogue_loads_sends_no_second_request(
    service: str, page: Page
) -> None:
    # The button turned busy only once the catalogue had come: a second press while
    # it loaded asked again, and the first request went out to be aborted.
    with japanese_on_its_way(service, page) as (hint, catalogue, sent):
        button = hint.get_by_role("button")
        button.click()
        expect(button).to_have_attribute("aria-disabled", "true")
        button.click(force=True)  # a person can press a busy button (Playwright waits)
        release(page, catalogue)
        page.locator("meldwise-hint[aria-busy=false]").wait_for()
        expect(hint.locator(".answer")).to_have_text("この手番で3枚出せます。")
        assert [request["hint_level"] for request in sent] == ["nudge"]
        assert sent[0]["lang"] == "ja"


def test_a_catalogue_that_fails_to_load_leaves_the_element_english(
    service: str, page: Page
) -> None:
    # A Japanese page whose catalogue does not load: the button spoke English but the
    # hint went out in Japanese, the service's words Japanese under English labels
    # (and orange written Y, as Japanese writes it).
    page.route("**/static/locale/ja.json", lambda route: route.abort())
    japanese_page = ANCESTOR_LANG_EMBED.replace('<html lang="en">', '<html lang="ja">')
    with second_origin({"/game.html": japanese_page.format(service=service)}) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")
        expect(hint.get_by_role("button")).to_have_text("Hint")
        request, _ = press_hint(page)
        assert request["lang"] == "en"
        assert "notation" not in request
        expect(hint.locator(".answer")).to_have_text("You can play 3 tiles this turn.")


SHADOW_LANG_EMBED = """<!doctype html>
<html lang="ja">
<title>A game whose board is a component</title>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<game-board></game-board>
<script type="module">
  customElements.define("game-board", class extends HTMLElement {{
    constructor() {{
      super();
      const hint = document.createElement("meldwise-hint");
      hint.endpoint = "{service}/v1/rummikub/solve";
      this.attachShadow({{ mode: "open" }}).append(hint);
    }}
  }});
  await customElements.whenDefined("meldwise-hint");
  document.querySelector("game-board").shadowRoot.querySelector("meldwise-hint").state =
    {{rack: ["R1", "R2", "R3"], table: []}};
</script>
</html>
"""


def test_the_element_in_a_components_shadow_tree_speaks_the_pages_language(
    service: str, page: Page
) -> None:
    # A game's own component holds the button in its shadow tree: the element's
    # language is its host's, and the page's (as HTML reads lang, and :lang(ja)
    # matches); closest() stops at the shadow root, and the button spoke English.
    with second_origin({"/game.html": SHADOW_LANG_EMBED.format(service=service)}) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint")  # Playwright's locators pierce shadow roots
        expect(hint.get_by_role("button")).to_have_text("ヒント")
        request, _ = press_hint(page)
        assert request["lang"] == "ja"
        expect(hint.locator(".answer")).to_have_text("この手番で3枚出せます。")
        # A change on the page, outside the component's tree, is followed too.
        page.evaluate("document.documentElement.lang = 'en'")
        expect(hint.get_by_role("button")).to_have_text("Hint: which tile?")
        expect(hint.locator(".answer")).to_be_empty()
        page.evaluate("document.querySelector('game-board').lang = 'ja'")  # the host's own
        expect(hint.get_by_role("button")).to_have_text("ヒント: どのタイル\uff1f")


def test_refusals_before_the_body_come_in_the_elements_language(service: str, page: Page) -> None:
    # A 413 is decided before the body (and its lang) is read: only the request's
    # Accept-Language can ask for Japanese. The element sends one (a safelisted
    # value, so a cross-origin embed still works), and the refusal is in Japanese.
    state = {"rack": ["R1"] * 5000, "table": []}  # over the 16 KiB body limit
    page_html = JAPANESE_EMBED.format(service=service, state=json.dumps(state))
    with second_origin({"/game.html": page_html}) as game:
        page.goto(f"{game}/game.html")
        with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
            page.locator("meldwise-hint").get_by_role("button").click()
        assert answer.value.status == 413
        assert answer.value.request.headers["accept-language"] == "ja"
        detail = answer.value.json()["detail"]
        direct = httpx.post(
            f"{service}{SOLVE}",
            json={"lang": "ja", **state, "hint_level": "full"},
            headers={"Accept-Language": "ja"},
        )
        assert direct.status_code == 413
        assert detail == direct.json()["detail"]
        assert detail != httpx.post(f"{service}{SOLVE}", json=state).json()["detail"]
        expect(page.locator("meldwise-hint").get_by_role("alert")).to_have_text(detail)

    # The demo's own calls too: "Repair the table" in Japanese.
    _open_in_japanese(service, page)
    # Set without an input event: drawing thousands of tiles would take long.
    page.get_by_label("場のセット", exact=True).evaluate(
        "(field) => { field.value = 'R1 R2 R3\\n'.repeat(1200); }"
    )
    with page.expect_response(lambda r: r.url.endswith(REPAIR)) as answer:
        page.get_by_role("button", name="場を直す").click()
    assert answer.value.status == 413
    assert answer.value.request.headers["accept-language"] == "ja"
    expect(page.locator("#repair-error")).to_have_text(detail)


SHANGHAI_ADVISE = "/v1/shanghai/advise"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def drawn_cards(page: Page, selector: str) -> list[list[tuple[str, bool]]]:
    """Per drawn row under ``selector``: each card and whether it is highlighted."""
    rows = page.locator(selector).evaluate_all(
        """rows => rows.map(row => [...row.querySelectorAll('.card')].map(
               card => [card.dataset.card, card.classList.contains('played')]))"""
    )
    return [[(card, played) for card, played in row] for row in rows]


def _advise(page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    """Press the Shanghai tab's Advise: the request it sent and the advice (200)."""
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as answer:
        page.get_by_role("button", name="Advise").click()
    assert answer.value.status == 200
    request = answer.value.request.post_data_json
    assert isinstance(request, dict)
    advice = answer.value.json()
    assert isinstance(advice, dict)
    return request, advice


def test_shanghai_tab_draws_the_advice(service: str, page: Page) -> None:
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    # README's example turn (solver/shanghai/examples.py), typed and clicked in.
    example = ADVISE_REQUEST
    hand = " ".join(example["hand"])
    page.get_by_label("Your hand", exact=True).fill(hand)
    melds = [f"{meld['owner']}: {' '.join(meld['cards'])}" for meld in example["table"]]
    page.get_by_label("Table melds", exact=True).fill("\n".join(melds))
    page.get_by_label("Upcard", exact=True).focus()  # the palette now fills the upcard
    page.locator("#shanghai-palette").get_by_role("button", name="add 6 of spades").click()
    expect(page.get_by_label("Upcard", exact=True)).to_have_value(example["upcard"])
    page.get_by_label("Contract", exact=True).select_option(str(example["hand_number"]))
    assert example["phase"] == "play"
    expect(page.get_by_label("Phase", exact=True)).to_have_value("play")  # the default
    request, advice = _advise(page)
    fields = ("hand", "hand_number", "phase", "table", "down", "upcard")
    assert request == {name: example[name] for name in fields} | {"lang": "en"}
    # One question, the play: no upcard advice beside it, no note of a missing phase.
    assert advice["phase"] == "play"
    assert advice["take_upcard"] is None
    assert advice["buy"] is None
    assert not [note for note in advice["notes"] if "phase" in note], advice["notes"]
    shown = page.locator("#shanghai-answer")
    expect(shown).to_contain_text(f"Cards still needed: {advice['deficiency']}")

    # Hand 2 is a set of 3 and a run of 4. By hand: 7H 7S 7D is a set, and 3S 4S 5S
    # with the joker as 6S a run, so the player goes down with cards from the hand.
    go_down = advice["go_down"]
    assert go_down is not None
    rows = page.locator("#shanghai-answer .set")
    laid = drawn_cards(page, "#shanghai-answer .set[aria-label^='your new meld']")
    assert [[card for card, _ in row] for row in laid] == [m["cards"] for m in go_down["melds"]]
    for meld in go_down["melds"]:
        # What a card stands for: a card, or in a set a rank alone for a wild card.
        ranks = [stands[:-1] if stands[-1] in "SHDC" else stands for stands in meld["as"]]
        if meld["kind"] == "set":
            assert len(meld["cards"]) >= 3
            assert len(set(ranks)) == 1
        else:
            assert len(meld["cards"]) >= 4
            assert len({stands[-1] for stands in meld["as"]}) == 1
            places = [RANKS.index(rank) for rank in ranks]
            assert places == list(range(places[0], places[0] + len(places)))
    used = Counter(card for meld in go_down["melds"] for card in meld["cards"])
    assert not used - Counter(hand.split())
    # The joker is drawn as a joker, saying what it stands for.
    expect(rows.get_by_role("img", name=re.compile(r"^joker as "))).to_have_count(1)

    # Lay-offs: the laid-off cards are highlighted on the meld they go to.
    plays = advice["lay_offs"]["plays"] if advice["lay_offs"] else []
    laid_off = drawn_cards(page, "#shanghai-answer .set[aria-label^='lay ']")
    assert Counter(card for row in laid_off for card, played in row if played) == Counter(
        play["card"] for play in plays
    )
    if advice["discard"]:
        expect(shown).to_contain_text(advice["discard"]["reason"])
        expect(
            shown.get_by_role("group", name=f"discard {advice['discard']['card']}")
        ).to_be_visible()


def test_shanghai_tab_asks_before_the_draw_too(service: str, page: Page) -> None:
    # docs/shanghai.md, "A turn in two phases": before the draw the question is
    # take, draw or buy; the tab asks it when the phase says so.
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").click()
    page.get_by_label("Phase", exact=True).select_option("draw")
    request, advice = _advise(page)
    assert request["phase"] == "draw"
    assert advice["phase"] == "draw"
    assert advice["go_down"] is None
    assert advice["discard"] is None
    assert not [note for note in advice["notes"] if "phase" in note], advice["notes"]
    shown = page.locator("#shanghai-answer")
    expect(shown.get_by_role("heading", name="The upcard")).to_be_visible()
    expect(shown).to_contain_text(advice["take_upcard"]["rule"])
    expect(shown.get_by_role("heading", name="Go down")).to_have_count(0)
    expect(shown.get_by_role("heading", name="Notes")).to_have_count(0)


OPTION_NAMES = {
    "en": {"take": "take the upcard", "draw": "draw from the stock", "buy": "buy the upcard"},
    "ja": {"take": "捨て札を取る", "draw": "山札から引く", "buy": "買い(バイ)"},
}


def _option_cells(option: dict[str, Any], lang: str) -> list[str]:
    """The row the page should draw for a draw option: its figures, "-" for null."""

    def chance(value: float | None) -> str:
        # docs/shanghai.md: whole percents, never 0% or 100% of a chance between, and a
        # lower bound rounded down.
        if value is None:
            return "-"
        if not option["chances_proven"]:
            percent = math.floor(value * 100 + 1e-9)
            return f"at least {percent}%" if lang == "en" else f"{percent}%以上"
        if 0 < value < 0.005:
            return "under 1%" if lang == "en" else "1%未満"
        if 0.995 <= value < 1:
            return "over 99%" if lang == "en" else "99%超"
        return f"{math.floor(value * 100 + 0.5)}%"

    figures = [(option["deficiency"], 2), (option["points"], 1)]
    return [
        OPTION_NAMES[lang][option["action"]],
        f"+{option['cards']}",
        *("-" if value is None else f"{value:.{digits}f}" for value, digits in figures),
        chance(option["go_down"]),
        chance(option["go_out"]),
    ]


def _drawn_options(page: Page) -> list[list[str]]:
    table = page.locator("#shanghai-answer table.draw-options")
    expect(table).to_be_visible()
    rows: list[list[str]] = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"
    )
    return rows


def test_shanghai_tab_shows_the_draw_options(service: str, page: Page) -> None:
    # The answer's draw_options (take, draw, buy: the expected figures and chances)
    # were in the service's answer only, not on the page.
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").click()
    page.get_by_label("Phase", exact=True).select_option("draw")
    _, advice = _advise(page)
    options = advice["draw_options"]
    assert [o["action"] for o in options] == ["take", "draw", "buy"]
    assert _drawn_options(page) == [_option_cells(o, "en") for o in options]
    shown = page.locator("#shanghai-answer")
    expect(shown.get_by_role("heading", name="Draw options")).to_be_visible()
    expect(shown.locator("table.draw-options th")).to_have_text(
        ["option", "cards", "cards still needed", "points", "go down", "go out"]
    )
    expect(shown).to_contain_text("after a buy no chances are worked out")
    expect(shown).not_to_contain_text("too few unseen cards")
    # The play phase has no draw options, and no table.
    page.get_by_label("Phase", exact=True).select_option("play")
    _advise(page)
    expect(shown.get_by_role("heading", name="Discard")).to_be_visible()
    expect(shown.locator("table.draw-options")).to_have_count(0)


def test_shanghai_draw_options_cut_short_say_at_least(service: str, page: Page) -> None:
    # chances_proven false (a search stopped): the chances count only the cards found
    # in time, so they are "at least" (docs/shanghai.md), as the command line says.
    def cut_short(route: Route) -> None:
        answer = route.fetch().json()
        options = [{**o, "chances_proven": False} for o in answer["draw_options"]]
        route.fulfill(json={**answer, "draw_options": options})

    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").click()
    page.get_by_label("Phase", exact=True).select_option("draw")
    page.route(f"**{SHANGHAI_ADVISE}", cut_short)
    _, advice = _advise(page)
    cells = _drawn_options(page)
    assert cells == [_option_cells(o, "en") for o in advice["draw_options"]]
    assert cells[0][4].startswith("at least ")
    expect(page.locator("#shanghai-answer")).to_contain_text(
        "the chances count only the cards found before it"
    )


def test_shanghai_draw_options_of_a_player_who_is_down(service: str, page: Page) -> None:
    # Down: no deficiency and no chance to go down (null), drawn as "-" and said why.
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("3S KH QC 5D")
    page.get_by_label("Table melds", exact=True).fill("8H 8C 8D\n4D 5D 6D 7D")
    page.get_by_label("Upcard", exact=True).fill("QS")
    page.get_by_label("Contract", exact=True).select_option("3")
    page.get_by_label("Phase", exact=True).select_option("draw")
    page.get_by_label("I am down (met the contract)").check()
    request, advice = _advise(page)
    assert request["down"] is True
    options = advice["draw_options"]
    assert options
    assert all(o["deficiency"] is None and o["go_down"] is None for o in options)
    assert _drawn_options(page) == [_option_cells(o, "en") for o in options]
    shown = page.locator("#shanghai-answer")
    expect(shown).to_contain_text("-: you are down already: nothing is still needed to go down.")


def _advise_before_the_draw(
    service: str, page: Page, lang: str, hand: str, upcard: str, extra: dict[str, Any]
) -> dict[str, Any]:
    """Type ``hand`` and ``upcard`` on the Shanghai tab (``lang``), ask before the draw
    with ``extra`` added to the request the page sends (the page has no field for seen
    cards or rules), and return the advice (200)."""

    def added(route: Route) -> None:
        sent = route.request.post_data_json
        assert isinstance(sent, dict)
        route.continue_(post_data=json.dumps({**sent, **extra}))

    open_in(page, service, lang)
    page.locator("#tab-shanghai").click()
    page.locator("#hand").fill(hand)
    page.locator("#upcard").fill(upcard)
    page.locator("#phase").select_option("draw")
    page.route(f"**{SHANGHAI_ADVISE}", added)
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as answer:
        page.locator("#shanghai-advise").click()
    assert answer.value.status == 200
    advice = answer.value.json()
    assert isinstance(advice, dict)
    return advice


def test_shanghai_draw_options_without_stock_figures_in_japanese(service: str, page: Page) -> None:
    # Every other card seen (one deck, no jokers: docs/shanghai.md, "Too few unseen
    # cards"): the draw and the buy have null figures, drawn as "-" with the notes
    # saying why. The page has no field for seen cards or rules: they are added to the
    # request the page sends.
    hand, upcard = ["7S", "7H", "7D", "9S", "9H", "3C", "4C"], "9D"
    seen = [r + s for s in "SHDC" for r in RANKS if r + s not in {*hand, upcard}]

    extra = {"seen": seen, "rules": {"decks": 1, "jokers_per_deck": 0}}
    advice = _advise_before_the_draw(service, page, "ja", " ".join(hand), upcard, extra)
    options = {o["action"]: o for o in advice["draw_options"]}
    assert options["draw"]["points"] is None
    assert options["buy"]["points"] is None
    assert _drawn_options(page) == [_option_cells(o, "ja") for o in advice["draw_options"]]
    shown = page.locator("#shanghai-answer")
    expect(shown.get_by_role("heading", name="引き方の比較")).to_be_visible()
    expect(shown).to_contain_text("見えていないカードが少ないため、数値はありません(補足を参照)")
    expect(shown.get_by_role("heading", name="補足")).to_be_visible()
    for note in advice["notes"]:
        expect(shown.locator("li", has_text=note)).to_have_count(1)
    assert any("見えていないカードがありません" in note for note in advice["notes"])
    expect(shown).not_to_contain_text("null")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_shanghai_draw_options_never_round_a_chance_to_0_percent(
    service: str, page: Page, lang: str
) -> None:
    # One unseen 8 of 385 unseen cards (8 decks, the other 8s seen) lets a stock card
    # go down: 0.26%, which the page drew as "0%", as if it never could.
    seen = ["8S"] * 7 + ["8H"] * 6 + ["8D"] * 7 + ["8C"] * 8

    extra = {"seen": seen, "rules": {"decks": 8, "jokers_per_deck": 0}}
    advice = _advise_before_the_draw(service, page, lang, "7S 7H 7D 8S 8H KD 4C", "8D", extra)
    stock = next(o for o in advice["draw_options"] if o["action"] == "draw")
    assert 0 < stock["go_down"] < 0.005
    cells = _drawn_options(page)
    assert cells == [_option_cells(o, lang) for o in advice["draw_options"]]
    assert cells[1][4] == ("under 1%" if lang == "en" else "1%\u672a\u6e80")


def test_shanghai_never_draws_advice_for_a_hand_changed_since(service: str, page: Page) -> None:
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").click()
    held = hold(page, SHANGHAI_ADVISE)
    page.get_by_role("button", name="Advise").click()
    wait_held(page, held)
    page.get_by_label("Your hand", exact=True).fill("2C 3C")
    page.unroute(f"**{SHANGHAI_ADVISE}")
    release(page, held[0])  # the advice for the example's hand
    expect(page.locator("#shanghai-answer")).to_be_empty()
    request, _ = _advise(page)  # the button is free again, and asks for the new hand
    assert request["hand"] == ["2C", "3C"]
    expect(page.locator("#shanghai-answer")).to_contain_text("Cards still needed")


def test_shanghai_wild_cards_written_with_what_they_stand_for_are_drawn(
    service: str, page: Page
) -> None:
    # JK(6H), 2C(6H) and JK(8), as melds print wild cards (the service reads them).
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("9H 4H 2D 2S KS")
    page.get_by_label("Table melds", exact=True).fill(
        "ann: 5H JK(6H) 7H 8H\nbo: 3C 3D JK(3)\ncy: 4S 2C(5S) 6S 7S"
    )
    page.get_by_label("I am down (met the contract)").check()
    preview = page.locator("#melds-preview")
    expect(preview.locator(".card.bad")).to_have_count(0)
    for name in ("joker as 6 of hearts", "joker as any 3", "2 of clubs as 5 of spades"):
        expect(preview.get_by_role("button", name=f"remove {name}", exact=True)).to_be_visible()
    expect(preview.locator(".card.joker")).to_have_count(2)
    # The tab has no twos_wild: the service takes the jokers' melds, not the two's.
    page.get_by_label("Table melds", exact=True).fill("ann: 5H JK(6H) 7H 8H\nbo: 3C 3D JK(3)")
    request, _ = _advise(page)
    assert request["table"][0]["cards"] == ["5H", "JK(6H)", "7H", "8H"]


def test_shanghai_tab_says_a_player_going_out_by_going_down_goes_out(
    service: str, page: Page
) -> None:
    # "You go out!" stood only under lay-offs: a hand that goes down whole, with no
    # lay-off and no discard, was told the melds and "Left in hand: nothing" alone.
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("7H 7S 7D 8C 8D 8S")
    page.locator("#contract").select_option("1")
    _, advice = _advise(page)
    assert advice["lay_offs"]["plays"] == []
    assert advice["lay_offs"]["can_go_out"]
    assert advice["end_of_turn"]["goes_out"]
    assert advice["discard"] is None
    answer = page.locator("#shanghai-answer")
    expect(answer).to_contain_text("You go out!")
    _switch_to_japanese(page)
    _advised_request(page)
    expect(answer).to_contain_text("上がりです\uff01")


def test_the_buys_left_field_shows_its_whole_placeholder_in_either_language(
    service: str, page: Page
) -> None:
    # The field was drawn 3 characters wide: Japanese "すべて" (all) showed as "すべ".
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    room = """(e) => {
      const style = getComputedStyle(e);
      const measure = document.createElement("canvas").getContext("2d");
      measure.font = style.font;
      const inner = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return [e.placeholder, measure.measureText(e.placeholder).width, inner];
    }"""
    for language, said in (("English", "all"), ("日本語", "すべて")):
        page.get_by_role("button", name=language).click()
        # The switch loads the language's catalogue first: wait until it is applied.
        expect(page.locator("#buys-left")).to_have_attribute("placeholder", said)
        placeholder, needs, has = page.locator("#buys-left").evaluate(room)
        assert placeholder == said
        assert needs < has - 16  # the number field's spin buttons take the right end


def test_the_one_line_fields_show_their_whole_placeholder_at_400_px(
    service: str, browser: Browser
) -> None:
    # At 400 px the Japanese placeholders of the rack and the hand ran past the field's
    # end ("例: 7H 7S 7D 3S 4S 5S JK(7♥ のよ"): a one-line field cannot wrap.
    context = browser.new_context(viewport={"width": 400, "height": 900})
    page = context.new_page()
    room = """(e) => {
      const style = getComputedStyle(e);
      const measure = document.createElement("canvas").getContext("2d");
      measure.font = style.font;
      const inner = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return [e.placeholder, measure.measureText(e.placeholder).width, inner];
    }"""
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            for tab, fields in (
                ("#tab-rummikub", ["#rack"]),
                ("#tab-shanghai", ["#hand", "#upcard"]),
            ):
                page.locator(tab).click()
                for field in fields:
                    placeholder, needs, has = page.locator(field).evaluate(room)
                    assert placeholder.startswith("例" if lang == "ja" else "e.g.")
                    assert needs <= has, (lang, field, placeholder, needs, has)
    finally:
        context.close()


@pytest.mark.parametrize("width", [400, 1100])
def test_the_text_areas_show_their_whole_placeholder(
    service: str, browser: Browser, width: int
) -> None:
    # The table melds' placeholder wraps to four lines at 400 px (and its Japanese
    # lines are taller): in three rows its last line was cut off, in Japanese even on
    # a wide window. The placeholder, written in as the value, must not scroll.
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    overflow = """(e) => {
      const old = e.value;
      e.value = e.placeholder;
      const sizes = [e.scrollHeight, e.clientHeight];
      e.value = old;
      return sizes;
    }"""
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            for tab, fields in (
                ("#tab-rummikub", ["#table", "#table-before"]),
                ("#tab-shanghai", ["#melds"]),
            ):
                page.locator(tab).click()
                for field in fields:
                    needs, has = page.locator(field).evaluate(overflow)
                    assert needs <= has, (lang, field, needs, has)
    finally:
        context.close()


# What is drawn past the right edge of the shown tab's panel (its padding in), as
# "TAG#id.class: right": an element's box or a line of its text, in the hint
# element's shadow tree too. Inside a box that scrolls (a wide table), only the box
# counts.
STICKING_OUT = """() => {
  const panel = document.querySelector("main section.panel:not([hidden])");
  const box = panel.getBoundingClientRect();
  const edge = box.right - panel.clientLeft - parseFloat(getComputedStyle(panel).paddingRight);
  const deep = (root) => [...root.querySelectorAll("*")]
    .flatMap((e) => [e, ...(e.shadowRoot ? deep(e.shadowRoot) : [])]);
  const up = (e) => e.parentElement ?? e.getRootNode().host;
  const clips = (e) => getComputedStyle(e).overflowX !== "visible";
  const scrolled = (e) => {
    for (let a = up(e); a && a !== panel; a = up(a)) {
      if (clips(a)) return true;
    }
    return false;
  };
  const text = (n) => {
    const range = document.createRange();
    range.selectNodeContents(n);
    return range.getBoundingClientRect().right;
  };
  const right = (e) => Math.max(e.getBoundingClientRect().right, ...[...e.childNodes]
    .filter((n) => n.nodeType === Node.TEXT_NODE && !clips(e)).map(text));
  return deep(panel)
    .filter((e) => e.getClientRects().length > 0 && !scrolled(e) && right(e) > edge + 0.5)
    .map((e) => `${e.tagName}#${e.id}.${e.className}: ${right(e)}`);
}"""


# Whether the title's text and the language switch overlap.
TITLE_UNDER_SWITCH = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector("header h1"));
  const title = range.getBoundingClientRect();
  const switcher = document.querySelector(".language").getBoundingClientRect();
  return title.right > switcher.left && switcher.bottom > title.top && title.bottom > switcher.top;
}"""


@pytest.mark.parametrize("width", [320, 400, 1280])
def test_nothing_sticks_out_of_the_tabs_panel(service: str, browser: Browser, width: int) -> None:
    # At 400 px the palettes' 13 columns ran past the panel (the page scrolled
    # sideways), and so did the Japanese contract select (as wide as its longest
    # option) and the review tab's seed field (a number field is 20 characters wide).
    # At 320 px the English tabs ran out of the window and the language switch lay
    # over the title.
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            for tab in ("#tab-rummikub", "#tab-shanghai", "#tab-review"):
                page.locator(tab).click()
                assert page.evaluate(STICKING_OUT) == [], (lang, tab)
            # Each contract in turn, the longest too.
            page.locator("#tab-shanghai").click()
            for value in page.locator("#contract option").evaluate_all(
                "options => options.map(o => o.value)"
            ):
                page.locator("#contract").select_option(value)
                assert page.evaluate(STICKING_OUT) == [], (lang, value)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert not page.evaluate(TITLE_UNDER_SWITCH), lang
    finally:
        context.close()


def test_long_words_and_answers_stay_in_the_panel_at_400_px(service: str, browser: Browser) -> None:
    # A word typed as a piece was drawn one piece wide whatever its length, so 300
    # letters made the page 1,800 px wide; an owner's name and the error quoting
    # the word ran out too. The review's six-column summary and the draw options
    # were wider than the panel, and the review's turns column left the chosen
    # turn 72 px: a tile to a line. Then the English draw options, in a box of their
    # own, were 18 px wider than it: they scrolled sideways, the chance of going out
    # half hidden.
    context = browser.new_context(viewport={"width": 400, "height": 900})
    page = context.new_page()
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.locator("#rack").fill("R" * 300)
            with page.expect_response(lambda r: r.url.endswith(SOLVE)):
                page.locator("#rack").press("Enter")
            expect(page.locator("meldwise-hint .error")).to_contain_text("RRRR")
            assert page.evaluate(STICKING_OUT) == [], lang

            page.locator("#tab-shanghai").click()
            page.locator("#shanghai-example").click()
            page.locator("#phase").select_option("draw")
            _advised_request(page)
            expect(page.locator("#shanghai-answer .draw-options")).to_be_visible()
            assert page.evaluate(STICKING_OUT) == [], lang
            box = page.locator("#shanghai-answer .table-scroll")
            expect(box.locator("tbody tr")).to_have_count(3)
            needs, has = box.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
            assert needs <= has, (lang, needs, has)
            page.locator("#hand").fill("H" * 300)
            page.locator("#melds").fill("a" * 200 + ": 8H 8S 8D")
            with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)):
                page.locator("#shanghai-advise").click()
            expect(page.locator("#shanghai-error")).to_contain_text("HHHH")
            assert page.evaluate(STICKING_OUT) == [], lang

            page.locator("#tab-review").click()
            with page.expect_response(lambda r: r.url.endswith(REVIEW)):
                page.locator("#review-play").click()
            page.locator("#review-next-missed").click()
            expect(page.locator("#review-turn .set").first).to_be_visible()
            assert page.evaluate(STICKING_OUT) == [], lang
            turn = page.locator("#review-turn").bounding_box()
            assert turn is not None
            assert turn["width"] > 250, lang
            assert page.evaluate("document.documentElement.scrollWidth") <= 400, lang
    finally:
        context.close()


def test_review_turn_labels_are_whole_at_320_px(service: str, browser: Browser) -> None:
    # At 320 px (a small phone) the list of turns is the panel's width, and a Japanese
    # label is wider: "11. プレイヤー0 3枚出した / 最善6" lost its 6 past the box's edge
    # (a label never wraps, so that the best's figure stays beside it on a wide list).
    context = browser.new_context(viewport={"width": 320, "height": 900})
    page = context.new_page()
    try:
        for lang in ("ja", "en"):
            _open_review_of(service, page, "rummikub", lang)
            page.locator("#record").fill(json.dumps(_played_record("rummikub")))
            page.locator("#review-run").click()
            label = page.locator("#review-turns button")
            expect(label).to_have_count(1)
            needs, has = label.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
            assert needs <= has, (lang, needs, has)
    finally:
        context.close()


# A select is as wide as its longest option unless its box is narrower (max-width):
# then the option chosen is cut. Its width without that cap, and with it.
SELECT_WIDTHS = """(s) => {
  const shown = s.getBoundingClientRect().width;
  s.style.maxWidth = "none";
  const whole = s.getBoundingClientRect().width;
  s.style.maxWidth = "";
  return [whole, shown];
}"""
# The width the select's longest option needs with a Japanese font, whatever fonts
# this machine has: a kana or kanji is 1 em wide in one (Noto Sans CJK), where a
# machine without one draws a narrower box, which hid a cut contract from the test
# above. The select's own room (padding, arrow) is its width less its longest text.
# Then the width it gets when it asks for that much.
SELECT_WIDTH_IN_A_CJK_FONT = """(s) => {
  const style = getComputedStyle(s);
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = style.font;
  const wide = /[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/g; // CJK, kana, full width
  const em = parseFloat(style.fontSize);
  const width = (t) => measure.measureText(t).width;
  const texts = [...s.options].map((o) => o.text);
  const drawn = Math.max(...texts.map(width));
  const inCjk = (t) => width(t.replace(wide, "")) + (t.match(wide) ?? []).length * em;
  const needs = Math.max(...texts.map(inCjk));
  s.style.maxWidth = "none";
  const room = s.getBoundingClientRect().width - drawn;
  s.style.maxWidth = "";
  s.style.width = `${needs + room}px`;
  const gets = s.getBoundingClientRect().width;
  s.style.width = "";
  return [needs + room, gets];
}"""


@pytest.mark.parametrize("width", [320, 400])
def test_the_contract_select_shows_every_contract_whole(
    service: str, browser: Browser, width: int
) -> None:
    # At 400 px the Japanese contract select, set in monospace, was 7 px narrower than
    # its longest contract: "第9ハンド: 3枚のセット3つ + 5枚のラン" lost its last character
    # (the English one did at 320 px). At 320 px, in sans-serif, it still lost "のラン"
    # (44 px): the Japanese contracts are now worded shorter, and whole
    # ("ハンド9: 3枚セット3個+5枚ラン").
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.locator("#tab-shanghai").click()
            whole, shown = page.locator("#contract").evaluate(SELECT_WIDTHS)
            assert shown >= whole - 0.5, (lang, whole, shown)
            needs, gets = page.locator("#contract").evaluate(SELECT_WIDTH_IN_A_CJK_FONT)
            assert gets >= needs - 0.5, (lang, needs, gets)
    finally:
        context.close()


@pytest.mark.parametrize(("width", "rows"), [(400, 1), (320, 2)])
def test_the_tabs_lie_in_few_rows(service: str, browser: Browser, width: int, rows: int) -> None:
    # The Japanese Shanghai tab said the glossary's whole term, 上海ラミー(コントラクトラミー),
    # 234 px wide: the three tabs lay in three rows at 320 px and two at 400 px.
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        for lang in ("en", "ja"):
            page.goto(f"{service}/?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            tops = page.locator("[role=tab]").evaluate_all(
                "tabs => tabs.map(t => Math.round(t.getBoundingClientRect().top))"
            )
            assert len(tops) == 3, (lang, tops)
            assert len(set(tops)) <= rows, (lang, tops)
    finally:
        context.close()


def test_review_tab_keeps_the_chosen_turn_in_view_in_the_list(service: str, page: Page) -> None:
    # The turns' list scrolls in its own box: Next turn went on past its end and the
    # highlighted turn was out of sight.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="Play a bot game (strong vs greedy)").click()
    listed = page.locator("#review-turns")
    expect(listed.locator("button[aria-current=true]")).to_have_count(1)
    count = listed.locator("button").count()
    # Each press of the button, then where the turn shown lies, in the page itself:
    # a round trip from the test per turn took 12-19 s of the suite. The page's
    # handler redraws at once, so each check reads the press before it.
    out_of_view = """([list, button, presses]) => {
      const missed = [];
      for (let i = 0; i < presses; i++) {
        button.click();
        const shown = list.getBoundingClientRect();
        const chosen = list.querySelector("button[aria-current=true]").getBoundingClientRect();
        if (chosen.top < shown.top - 0.5 || chosen.bottom > shown.bottom + 0.5) missed.push(i);
      }
      return missed;
    }"""
    assert listed.evaluate("list => list.scrollHeight > list.clientHeight")  # it scrolls
    for name, end in (
        ("Next turn", listed.locator("button").last),
        ("Previous turn", listed.locator("button").first),
    ):
        button = page.get_by_role("button", name=name).element_handle()
        assert page.evaluate(out_of_view, [listed.element_handle(), button, count - 1]) == []
        expect(end).to_have_attribute("aria-current", "true")


def test_review_tabs_turns_are_one_tab_stop(service: str, page: Page) -> None:
    # Each of a game's turns was a Tab stop of its own: a hundred presses to get past
    # the list. It is one stop (the turn shown); the arrows move and Enter shows.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="Play a bot game (strong vs greedy)").click()
    turns = page.locator("#review-turns button")
    expect(turns.nth(10)).to_be_attached()  # drawn once the review's answer is read
    page.get_by_role("button", name="Next missed play").focus()
    page.keyboard.press("Tab")
    shown = page.locator("#review-turns button[aria-current=true]")
    expect(shown).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(turns.nth(2)).to_be_focused()
    page.keyboard.press("Enter")
    expect(turns.nth(2)).to_have_attribute("aria-current", "true")
    expect(page.locator("#review-turn")).to_contain_text("Turn 3")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#review-turns')") is None
    page.keyboard.press("Shift+Tab")
    expect(turns.nth(2)).to_be_focused()


def test_the_palettes_arrow_keys_follow_the_rows_drawn(service: str, browser: Browser) -> None:
    # At 400 px a suit is drawn in two rows (2-8, 9-A): Down goes to the piece drawn
    # below, as it does in the 13 columns of a wide window.
    for width, below in ((400, "add 9 of spades"), (1100, "add 2 of hearts")):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(service)
            page.locator("#tab-shanghai").click()
            palette = page.locator("#shanghai-palette")
            first = palette.get_by_role("button").first
            first.focus()
            page.keyboard.press("ArrowDown")
            focused = palette.locator("button:focus")
            expect(focused).to_have_accessible_name(below)
            here, there = first.bounding_box(), focused.bounding_box()
            assert here is not None
            assert there is not None
            assert there["y"] > here["y"], width
            assert abs(there["x"] - here["x"]) < 2, width
            page.keyboard.press("ArrowUp")
            expect(first).to_be_focused()
            page.keyboard.press("ArrowUp")  # the first row: nowhere to go
            expect(first).to_be_focused()
        finally:
            context.close()


def test_shanghai_errors_show_by_the_input(service: str, page: Page) -> None:
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("QQ 7H")
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as answer:
        page.get_by_label("Your hand", exact=True).press("Enter")
    assert answer.value.status == 422
    detail = answer.value.json()["detail"]
    assert "QQ" in detail
    assert detail.startswith("hand[0]: ")
    expect(page.locator("#shanghai-form").get_by_role("alert")).to_have_text(
        detail.replace("hand[0]", "Your hand, card 1")
    )
    expect(page.locator("#shanghai-answer")).to_be_empty()


def test_shanghai_a_meld_owners_error_names_the_meld_by_the_pages_label(
    service: str, page: Page
) -> None:
    # A name too long for a meld's owner was said "table[1].owner: a player name must
    # be 1-64 characters", the request's path where every other error of the field
    # says "Table melds, meld 1, ...".
    name = "x" * 70
    page.goto(service)
    page.locator("#tab-shanghai").click()
    page.locator("#hand").fill("7H 7S")
    page.locator("#melds").fill(f"ann: 8H 8S 8D\n{name}: 9H 9S 9D")
    detail, said = _error_said(
        page, SHANGHAI_ADVISE, page.locator("#shanghai-advise").click, "#shanghai-error"
    )
    assert detail.startswith("table[1].owner: ")
    assert said == detail.replace("table[1].owner", "Table melds, meld 1, owner")
    _switch_to_japanese(page)
    detail, said = _error_said(
        page, SHANGHAI_ADVISE, page.locator("#shanghai-advise").click, "#shanghai-error"
    )
    assert said == detail.replace("table[1].owner", "場のメルド、メルド1の持ち主")


def _error_said(
    page: Page, endpoint: str, press: Callable[[], None], alert: str
) -> tuple[str, str]:
    """Press, wait for the service's 422: its detail, and the error the page shows."""
    with page.expect_response(lambda r: r.url.endswith(endpoint)) as answer:
        press()
    assert answer.value.status == 422
    detail = answer.value.json()["detail"]
    assert isinstance(detail, str)
    expect(page.locator(alert)).not_to_be_empty()
    return detail, page.locator(alert).inner_text()


def test_a_field_named_inside_a_japanese_sentence_is_bracketed_not_spaced(
    service: str, page: Page
) -> None:
    # The service's Japanese names a field bare, a space after its ASCII name
    # ("table_before にあるR7が今の場にありません"); the page put its label there and kept
    # the space: "手番の前の場 にあるR7...". The label is bracketed as Japanese does.
    _open_in_japanese(service, page)
    page.locator("#table-before").fill("R7 B7 K7")
    page.locator("#table").fill("B7 K7 | R1")
    detail, shown = _error_said(
        page, "/v1/rummikub/repair", lambda: page.locator("#repair-run").click(), "#repair-error"
    )
    assert detail.startswith("table_before \u306b\u3042\u308bR7"), detail  # にあるR7
    assert shown == detail.replace(
        "table_before ", "\u300c\u624b\u756a\u306e\u524d\u306e\u5834\u300d"
    )


# Per language, the page's labels the errors should say for the wire's places.
PLACE_LABELS = {
    "en": {
        "rack[1]": "Your rack, tile 2",
        "rack[2]": "Your rack, tile 3",
        "table[0][2]": "Table sets, set 0, tile 3",
        "table_before[0][2]": "Table before the turn, set 0, tile 3",
        "hand[2]": "Your hand, card 3",
        "table[1].cards[2]": "Table melds, meld 1, card 3",
        "'buys_left'": "'Buys left'",
        "'contract.sets[1]'": "'sets of, size 2'",
        "'seed'": "'seed'",
        "'record'": "'Game record (JSON)'",
    },
    "ja": {
        "rack[1]": "\u3042\u306a\u305f\u306e\u624b\u6301\u3061\u306e2\u679a\u76ee",
        "rack[2]": "\u3042\u306a\u305f\u306e\u624b\u6301\u3061\u306e3\u679a\u76ee",
        "table[0][2]": "\u5834\u306e\u30bb\u30c3\u30c8\u3001\u30bb\u30c3\u30c80\u306e3\u679a\u76ee",
        "table_before[0][2]": (
            "\u624b\u756a\u306e\u524d\u306e\u5834\u3001\u30bb\u30c3\u30c80\u306e3\u679a\u76ee"
        ),
        "hand[2]": "\u3042\u306a\u305f\u306e\u624b\u672d\u306e3\u679a\u76ee",
        "table[1].cards[2]": (
            "\u5834\u306e\u30e1\u30eb\u30c9\u3001\u30e1\u30eb\u30c91\u306e3\u679a\u76ee"
        ),
        "'buys_left'": "'\u6b8b\u308a\u306e\u8cb7\u3044(\u30d0\u30a4)'",
        "'contract.sets[1]'": "'\u30bb\u30c3\u30c8\u306e\u679a\u6570\u306e2\u500b\u76ee'",
        "'seed'": "'\u30b7\u30fc\u30c9'",
        "'record'": "'\u30b2\u30fc\u30e0\u8a18\u9332(JSON)'",
    },
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_service_errors_name_the_fields_by_the_pages_labels(
    service: str, page: Page, lang: str
) -> None:
    # The service's errors named its wire fields ('buys_left', table_before[0][2]:,
    # rack[1]:), which the page shows nowhere: a person reads the labels beside the
    # fields ("Buys left", "Table before the turn, set 0, tile 3"), in either language.
    # The rest of the service's words stay, a tile typed as "rack" included.
    labels = PLACE_LABELS[lang]

    def said_by_the_page(detail: str, places: list[str]) -> str:
        for place in places:
            assert place in detail, (place, detail)
            detail = detail.replace(place, labels[place])
        return detail

    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#rack").fill("R1 Q5 rack")
    page.locator("#table").fill("R1 R2 X3")
    detail, shown = _error_said(
        page, SOLVE, lambda: page.locator("#rack").press("Enter"), "meldwise-hint .error"
    )
    assert shown == said_by_the_page(detail, ["rack[1]", "rack[2]", "table[0][2]"])
    assert "'rack'" in shown  # the tile typed, not the field

    page.locator("#rack").fill("")
    page.locator("#table").fill("R1 R2 R3")
    page.locator("#table-before").fill("R1 R2 Q3")
    detail, shown = _error_said(
        page, "/v1/rummikub/repair", lambda: page.locator("#repair-run").click(), "#repair-error"
    )
    assert shown == said_by_the_page(detail, ["table_before[0][2]"])

    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    page.locator("#buys-left").fill("9")
    advise = page.locator("#shanghai-advise").click
    detail, shown = _error_said(page, SHANGHAI_ADVISE, advise, "#shanghai-error")
    assert shown == said_by_the_page(detail, ["'buys_left'"])
    page.locator("#buys-left").fill("")
    page.locator("#hand").fill("7H 7S ZZ")
    page.locator("#melds").fill("ann: 8H 8S 8D\nbo: JC QC XC AC")
    detail, shown = _error_said(page, SHANGHAI_ADVISE, advise, "#shanghai-error")
    assert shown == said_by_the_page(detail, ["hand[2]", "table[1].cards[2]"])
    page.locator("#hand").fill("7H 7S")
    page.locator("#melds").fill("")
    page.locator("#contract").select_option("custom")
    page.locator("#contract-sets").fill("3, " + "9" * 30)  # too large to be a number
    detail, shown = _error_said(page, SHANGHAI_ADVISE, advise, "#shanghai-error")
    assert shown == said_by_the_page(detail, ["'contract.sets[1]'"])

    page.locator("#tab-review").click()
    play = page.locator("#review-play").click
    # A game's record in the box (which holds "seed" too) is not what the seed's error
    # quotes: the Japanese page said 'seed' then.
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        play()
    expect(page.locator("#review-output")).to_be_visible()
    assert '"seed"' in page.locator("#record").input_value()
    page.locator("#seed").fill("99999999999999")
    detail, shown = _error_said(page, "/v1/rummikub/game", play, "#review-error")
    assert shown == said_by_the_page(detail, ["'seed'"])
    page.locator("#record").fill("[]")
    review = page.locator("#review-run").click
    detail, shown = _error_said(page, REVIEW, review, "#review-error")
    assert shown == said_by_the_page(detail, ["'record'"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_value_that_reads_like_a_field_is_not_taken_for_it(
    service: str, page: Page, lang: str
) -> None:
    # A record typed as "record" (JSON text, but no game's record) is refused with
    # "'record' must be an object, got 'record'": the field, then the value. Reading
    # the places out of the words, the page took both for the value typed (the box
    # holds "record") and said the field as 'record', a name it shows nowhere; the
    # refusal's places say which one is the field.
    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#tab-review").click()
    page.locator("#record").fill('"record"')
    review = page.locator("#review-run").click
    detail, shown = _error_said(page, REVIEW, review, "#review-error")
    assert detail.count("'record'") == 2, detail
    assert shown == detail.replace("'record'", PLACE_LABELS[lang]["'record'"], 1)


def test_a_place_in_the_record_is_said_by_the_boxs_label(service: str, page: Page) -> None:
    # "'record.turns' must be a list" named the record by the request's field, where
    # the service's own checks of it are said "Game record (JSON): turns[0].rack: ...".
    # A place that quotes a key, not the path ("missing field 'turn' in
    # record.turns[0]"), keeps the service's words: 'turn' is no record's place.
    page.goto(service)
    page.locator("#tab-review").click()
    review = page.locator("#review-run").click
    page.locator("#record").fill('{"turns": 5}')
    detail, shown = _error_said(page, REVIEW, review, "#review-error")
    assert detail == "'record.turns' must be a list, got 5"
    assert shown == "'Game record (JSON): turns' must be a list, got 5"
    page.locator("#record").fill('{"turns": [{"turn": 1, "player": 0, "rack": [5]}]}')
    detail, shown = _error_said(page, REVIEW, review, "#review-error")
    assert "'record.turns[0].rack[0]' must be a string, got 5" in detail
    assert "missing field 'table_before' in record.turns[0]" in detail
    place = "turns[0].rack[0]"
    assert shown == detail.replace(f"record.{place}", f"Game record (JSON): {place}")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "'Phase: before the draw'"),
        ("ja", "'\u30bf\u30a4\u30df\u30f3\u30b0: \u5f15\u304f\u524d'"),
    ],
)
def test_shanghai_notes_say_the_phase_as_the_page_shows_it(
    service: str, page: Page, lang: str, said: str
) -> None:
    # A last card that may not be discarded: the note said "before the draw, ask with
    # phase 'draw'", the request's words; the page's select is "Phase", "before the
    # draw" (タイミング, 引く前). The rest of the note is the service's.
    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#tab-shanghai").click()
    page.locator("#hand").fill("7H")
    page.locator("#down").check()
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as answer:
        page.locator("#shanghai-advise").click()
    advice = answer.value.json()
    [note] = [note for note in advice["notes"] if "phase 'draw'" in note]
    notes = page.locator("#shanghai-answer li")
    expect(notes).to_have_count(len(advice["notes"]))
    expect(notes.nth(advice["notes"].index(note))).to_have_text(note.replace("phase 'draw'", said))


def cut_by_the_clock(page: Page, monkeypatch: pytest.MonkeyPatch) -> None:
    """Answer the page's advice requests as the library does on a clock already spent
    (a phase's cap is ten times its time limit, so a 1 ms limit no longer cuts a small
    turn on the service): the turn's search for plays stops before finding any."""
    spend_the_clock(monkeypatch, "solver.shanghai.wire")

    def route(route: Route) -> None:
        request = route.request.post_data_json
        assert isinstance(request, dict)
        route.fulfill(json=advise_shanghai(request))

    page.route(f"**{SHANGHAI_ADVISE}", route)


def test_shanghai_a_turn_the_clock_cut_is_not_said_to_be_impossible(
    service: str, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three sets meet hand 1's contract; the clock stopped the turn's search, and
    # the page said "You cannot go down this turn." (go_down null), and "A time limit
    # ran out before a solve found anything." beside the discard it had found.
    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("AS AD AC KS KD KC 5S 5D 5C")
    page.get_by_label("Contract", exact=True).select_option("1")
    shown = page.locator("#shanghai-answer")
    cut_by_the_clock(page, monkeypatch)
    _, advice = _advise(page)
    assert advice["play_status"] == "unknown"
    assert advice["go_down"] is None
    assert advice["discard"] is not None
    expect(shown).to_contain_text("No way to go down found before the search stopped.")
    expect(shown).not_to_contain_text("You cannot go down this turn.")
    expect(shown).to_contain_text(
        "A search stopped at its limit before finding anything: some of this advice is not proven."
    )
    expect(shown).to_contain_text(advice["discard"]["reason"])
    # A player down whose turn's search stopped: no plays found, not "none possible".
    page.get_by_label("Your hand", exact=True).fill("7H 8C")
    page.get_by_label("Table melds", exact=True).fill("ann: 8H 8S 8D")
    page.get_by_label("I am down (met the contract)").check()
    _, advice = _advise(page)
    assert (advice["play_status"], advice["lay_offs"]) == ("unknown", None)
    expect(shown).to_contain_text("No plays found before the search stopped.")
    expect(shown).not_to_contain_text("go down")
    # With the time it needs the same search is proven: a hand that cannot go down
    # is told so, and a player down with no legal end is told nothing of going down.
    page.unroute(f"**{SHANGHAI_ADVISE}")
    page.get_by_label("I am down (met the contract)").uncheck()
    _, advice = _advise(page)
    assert (advice["play_status"], advice["go_down"]) == ("optimal", None)
    expect(shown).to_contain_text("You cannot go down this turn.")
    # play_status feasible: a limit stopped the turn's search after it found plays, none
    # going down (docs/shanghai.md, play_status), no proof either: the page said "You
    # cannot go down this turn.", as of a proven turn.

    def stopped(route: Route) -> None:
        request = route.request.post_data_json
        assert isinstance(request, dict)
        answer = advise_shanghai(request)
        route.fulfill(json={**answer, "play_status": "feasible", "status": "feasible"})

    page.route(f"**{SHANGHAI_ADVISE}", stopped)
    _, advice = _advise(page)
    assert (advice["play_status"], advice["go_down"]) == ("feasible", None)
    expect(shown).to_contain_text("No way to go down found before the search stopped.")
    expect(shown).not_to_contain_text("You cannot go down this turn.")
    page.unroute(f"**{SHANGHAI_ADVISE}")
    page.get_by_label("Your hand", exact=True).fill("7H")
    page.get_by_label("I am down (met the contract)").check()
    _, advice = _advise(page)
    assert (advice["play_status"], advice["lay_offs"]) == ("optimal", None)
    expect(shown).not_to_contain_text("go down")
    expect(shown).not_to_contain_text("found before the search stopped")
    # The note as the service wrote it, the phase as the page shows it.
    note = advice["notes"][0].replace("phase 'draw'", "'Phase: before the draw'")
    expect(shown).to_contain_text(note)


def test_shanghai_an_unknown_deficiency_is_said_in_words(service: str, page: Page) -> None:
    # deficiency null (the unseen cards cannot complete the contract, or no figure
    # was proven): the page printed "Cards still needed: null".
    def unknown(route: Route) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, json={**answer.json(), "deficiency": None})

    page.goto(service)
    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("AS AD 7C KS 9D 4C 5S")
    page.route(f"**{SHANGHAI_ADVISE}", unknown)
    page.get_by_role("button", name="Advise").click()
    shown = page.locator("#shanghai-answer")
    expect(shown).to_contain_text("Cards still needed: not known (")
    expect(shown).not_to_contain_text("null")


def _open_in_japanese(service: str, page: Page) -> None:
    """Open the page in Japanese and wait until it is: the switch waits for the
    Japanese catalogue, then drops the answers and errors in the old language, so an
    action taken before it lands is lost (under load a test waited 30 s for advice
    asked in English, dropped)."""
    page.goto(f"{service}/?lang=ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def _switch_to_japanese(page: Page) -> None:
    """Press 日本語 and wait until the page is Japanese (see _open_in_japanese)."""
    page.get_by_role("button", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def _shanghai_example_in_japanese(service: str, page: Page) -> list[str]:
    """The Shanghai tab's example, on the Japanese page; the advice requests sent from
    now on (their URLs) gather in the list returned."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith(SHANGHAI_ADVISE) else None)
    _open_in_japanese(service, page)
    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    return sent


def _advised_request(page: Page) -> dict[str, Any]:
    """Press Advise: the request the page sent, once answered 200."""
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as answer:
        page.locator("#shanghai-advise").click()
    assert answer.value.status == 200
    request = answer.value.request.post_data_json
    assert isinstance(request, dict)
    return request


def test_shanghai_tab_refuses_a_custom_contract_size_that_is_no_number(
    service: str, page: Page
) -> None:
    # Number("x") would go out as null and come back as "'contract.sets[1]' must be a
    # whole number, got null": the page refuses it itself, naming the word typed.
    sent = _shanghai_example_in_japanese(service, page)
    page.get_by_label("コントラクト", exact=True).select_option("custom")
    page.locator("#contract-sets").fill("3, x")
    page.locator("#shanghai-advise").click()
    expect(page.locator("#shanghai-form").get_by_role("alert")).to_have_text(
        "コントラクトのサイズはカンマ区切りの整数で書きます。「x」は整数ではありません。"
    )
    expect(page.locator("#shanghai-advise")).to_be_enabled()
    assert sent == []
    page.locator("#contract-sets").fill("3, 3")
    request = _advised_request(page)
    assert request["contract"] == {"sets": [3, 3], "runs": [4]}
    expect(page.locator("#shanghai-error")).to_be_empty()


def test_shanghai_tab_says_a_custom_contract_size_out_of_range_in_japanese(
    service: str, page: Page
) -> None:
    # The size's field named by its label said the count twice ('セットの枚数' の枚数 2),
    # and the range used the field's English name (このルールでは sets は...).
    _shanghai_example_in_japanese(service, page)
    page.get_by_label("コントラクト", exact=True).select_option("custom")
    page.locator("#contract-sets").fill("2, 3")
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)):
        page.locator("#shanghai-advise").click()
    expect(page.locator("#shanghai-error")).to_have_text(
        "コントラクトの 'セットの枚数' に指定した 2 は範囲外です: "
        "このルールではセットは3\uff5e12枚です"
    )


def test_shanghai_tab_reads_full_width_sizes_and_refuses_two_upcards(
    service: str, page: Page
) -> None:
    sent = _shanghai_example_in_japanese(service, page)
    # The upcard is one card: "6S 7S" joined would come back as one unknown card.
    page.locator("#upcard").fill("6S 7S")
    page.locator("#shanghai-advise").click()
    expect(page.locator("#shanghai-error")).to_have_text(
        "捨て札の一番上は1枚だけです。「6S 7S」は2枚です。"
    )
    assert sent == []
    page.locator("#upcard").fill("6S")
    # Sizes typed full-width, as a Japanese keyboard does.
    page.get_by_label("コントラクト", exact=True).select_option("custom")
    page.locator("#contract-sets").fill("\uff13\u3001\uff13")
    page.locator("#contract-runs").fill("")
    request = _advised_request(page)
    assert request["contract"] == {"sets": [3, 3], "runs": []}
    assert request["upcard"] == "6S"
    expect(page.locator("#shanghai-error")).to_be_empty()


GAME = "/v1/rummikub/game"
REVIEW = "/v1/rummikub/review"


def test_a_number_field_with_no_number_typed_is_named_not_read_as_empty(
    service: str, page: Page
) -> None:
    # A number field holding "1-1" or "5e" gives the page an empty value: Buys left
    # went unsent (advice as if every buy were left) and the seed became 0, with
    # nothing said. The page names the field instead, and sends nothing.
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/v1/" in r.url else None)
    page.goto(service)
    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    page.locator("#buys-left").press_sequentially("1-1")
    page.locator("#shanghai-advise").click()
    expect(page.locator("#shanghai-error")).to_have_text(
        "Buys left: what is typed there is not a number."
    )
    page.locator("#tab-review").click()
    page.locator("#seed").fill("")
    page.locator("#seed").press_sequentially("5e")
    page.locator("#review-play").click()
    expect(page.locator("#review-error")).to_have_text("seed: what is typed there is not a number.")
    _switch_to_japanese(page)
    page.locator("#review-play").click()
    expect(page.locator("#review-error")).to_have_text(
        "シード: 入力されたものが数値ではありません。"
    )
    # An emptied seed played seed 0, saying nothing: the seed is asked for.
    page.locator("#seed").fill("")
    page.locator("#review-play").click()
    expect(page.locator("#review-error")).to_have_text(
        "\u30b7\u30fc\u30c9: \u4f55\u3082\u5165\u529b\u3055\u308c\u3066"
        "\u3044\u307e\u305b\u3093\u3002\u6570\u5024\u3092\u5165\u529b\u3057\u3066\u304f\u3060\u3055\u3044\u3002"
    )
    page.get_by_role("button", name="English").click()
    page.locator("#seed").press("Enter")
    expect(page.locator("#review-error")).to_have_text(
        "seed: nothing is typed there; type a number."
    )
    assert sent == []
    page.locator("#tab-shanghai").click()
    page.locator("#buys-left").fill("1")
    request = _advised_request(page)
    assert request["buys_left"] == 1


def test_a_number_field_never_sends_a_number_other_than_the_one_typed(
    service: str, page: Page
) -> None:
    # A whole number past 2^53 is another number once read: a seed typed
    # 12345678901234567891 was sent as 12345678901234567000 and the service's refusal
    # quoted that; 20 nines went as 21 digits, refused as "a number has 21 digits".
    # The page names the field and the number typed, and sends nothing.
    page.goto(service)
    page.locator("#tab-review").click()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/v1/" in r.url else None)
    for typed in ("12345678901234567891", "9" * 20, "1e30"):
        page.locator("#seed").fill(typed)
        page.locator("#review-play").click()
        expect(page.locator("#review-error")).to_have_text(
            f"seed: {typed} has too many digits for this page to send exactly; type at most 15."
        )
    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    page.locator("#buys-left").fill("1" * 17)
    _switch_to_japanese(page)
    page.locator("#shanghai-advise").click()
    expect(page.locator("#shanghai-error")).to_have_text(
        f"残りの買い(バイ): {'1' * 17}は桁数が多すぎて、このページからは正確に送れません。"
        "15桁までで入力してください。"
    )
    assert sent == []
    # A number as large as the page keeps exactly goes as typed (the service refuses it).
    page.locator("#tab-review").click()
    page.locator("#seed").fill(str(2**53 - 1))
    with page.expect_request(lambda r: r.url.endswith(GAME)) as asked:
        page.locator("#review-play").click()
    request = asked.value.post_data_json
    assert isinstance(request, dict)
    assert request["seed"] == 2**53 - 1


def test_review_tab_plays_a_game_and_walks_through_its_turns(service: str, page: Page) -> None:
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    page.get_by_label("seed").fill("3")
    # The game held on its way: the button says the page is busy while it is played.
    held: list[Route] = []
    page.route(f"**{GAME}", lambda route: held.append(route))
    play = page.get_by_role("button", name="Play a bot game (strong vs greedy)")
    play.click()
    busy = page.locator("#review-play")
    expect(busy).to_be_disabled()
    expect(busy).to_have_text("Playing a game\u2026")
    for _ in range(500):  # waiting lets the route handler run
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the page did not ask for a game"
    # Then the game's record is reviewed without pressing Review.
    with (
        page.expect_response(lambda r: r.url.endswith(GAME)) as game,
        page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer,
    ):
        held[0].continue_()
    assert game.value.request.post_data_json == {
        "bots": ["strong", "greedy"],
        "seed": 3,
        "lang": "en",
    }
    record = page.get_by_label("Game record (JSON)")
    assert json.loads(record.input_value()) == game.value.json()["record"]
    assert answer.value.status == 200
    expect(play).to_be_enabled()
    review = answer.value.json()
    turns = review["turns"]

    rows = page.locator(".review-summary tbody tr")
    expect(rows).to_have_count(2)
    strong = review["players"][0]
    expect(rows.first).to_contain_text(
        f"Player 0 (strong){strong['turns_at_best']} of {strong['turns']}"
    )
    expect(page.locator(".review-chart svg")).to_have_count(2)
    listed = page.locator("#review-turns button")
    expect(listed).to_have_count(len(turns))
    # Short of a best play found: a best the search did not prove is no miss.
    short = [t for t in turns if t["legal"] and t["shortfall"] > 0]
    assert short, "the strong bot holds tiles back, so some turns fall short"
    expect(page.locator("#review-turns button.short")).to_have_count(len(short))

    # The first turn is shown; "Next missed play" jumps to the next turn short of
    # the best, with the tiles the best play would have placed marked on the rack.
    detail = page.locator("#review-turn")
    expect(detail.locator("h3")).to_contain_text(f"Turn {turns[0]['turn']}:")
    target = next(t for t in turns[1:] if t["shortfall"] > 0)
    page.get_by_role("button", name="Next missed play").click()
    expect(detail.locator("h3")).to_contain_text(f"Turn {target['turn']}:")
    expect(detail).to_contain_text(f"{target['shortfall']} short of the best")
    missed = detail.locator(".tile.missed")
    expect(missed).to_have_count(len(target["missed"]))
    assert sorted(missed.evaluate_all("els => els.map(e => e.dataset.tile)")) == sorted(
        target["missed"]
    )
    index = turns.index(target)
    page.get_by_role("button", name="Previous turn").click()
    expect(detail.locator("h3")).to_contain_text(f"Turn {turns[index - 1]['turn']}:")
    expect(listed.nth(index - 1)).to_have_attribute("aria-current", "true")
    # From the last turn there is no missed play left: the page says so.
    note = page.locator("#review-nav-note")
    listed.last.click()
    page.get_by_role("button", name="Next missed play").click()
    expect(note).to_have_text("No missed play after this turn.")
    expect(listed.last).to_have_attribute("aria-current", "true")
    page.get_by_role("button", name="Previous turn").click()
    expect(note).to_be_empty()


def test_review_tab_shows_only_the_newest_jobs_review(service: str, page: Page) -> None:
    # Record A's review is slow; meanwhile a bot game (B) is played and reviewed. A's
    # review, landing last, must not be drawn beside B's record.
    record = httpx.post(
        f"{service}{GAME}", json={"bots": ["greedy", "greedy"], "seed": 1}, timeout=60
    ).json()["record"]
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    page.get_by_label("Game record (JSON)").fill(json.dumps(record))
    held = hold(page, REVIEW, lambda request: request.post_data_json["record"] == record)
    page.get_by_role("button", name="Review", exact=True).click()
    wait_held(page, held)
    page.get_by_label("seed").fill("2")
    with page.expect_response(lambda r: r.url.endswith(REVIEW), timeout=90_000) as answer:
        page.get_by_role("button", name="Play a bot game (strong vs greedy)").click()
    newest = answer.value.json()
    rows = page.locator(".review-summary tbody tr")
    expect(rows.first).to_contain_text("Player 0 (strong)")
    release(page, held[0])
    expect(rows.first).to_contain_text("Player 0 (strong)")
    expect(page.locator("#review-turns button")).to_have_count(len(newest["turns"]))
    expect(page.locator("#review-run")).to_have_text("Review")
    expect(page.locator("#review-run")).to_be_enabled()
    # An edited record: the review shown is of the old one.
    page.get_by_label("Game record (JSON)").press("End")
    page.get_by_label("Game record (JSON)").type(" ")
    expect(page.locator("#review-turns button")).to_have_count(0)
    expect(page.locator(".review-summary")).to_have_count(0)


def test_review_tab_marks_a_joker_of_the_best_play_as_played(service: str, page: Page) -> None:
    # The best play's table writes its joker J(R11), its played list plainly J: the
    # page looked the bracketed joker up among the played tiles and missed it.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    page.get_by_label("Game record (JSON)").fill(
        '{"turns": [{"turn": 1, "player": 0, "rack": ["R10", "R12", "J", "B1"], '
        '"table_before": [], "action": "draw", "drawn": "B2"}]}'
    )
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    (turn,) = answer.value.json()["turns"]
    assert turn["best"]["table"] == [["R10", "J(R11)", "R12"]]
    detail = page.locator("#review-turn")
    expect(detail.locator(".tile.played")).to_have_count(3)
    expect(detail.locator(".tile.joker.played")).to_have_count(1)


OPENED_WITH_R10_R11_R12 = {
    "turn": 1, "player": 0, "rack": ["R10", "R11", "R12", "K1"], "table_before": [],
    "action": "play", "played": ["R10", "R11", "R12"], "table_after": [["R10", "R11", "R12"]],
}  # fmt: skip


@pytest.mark.parametrize(
    ("turns", "marked"),
    [
        # Not opened: the opening run R6-R9 beside the group R6 B6 K6, which stays.
        (
            [{"turn": 1, "player": 0, "rack": ["R6", "R7", "R8", "R9", "K1"],
              "table_before": [["R6", "B6", "K6"]], "action": "draw", "drawn": "B2"}],
            [[("R6", False), ("B6", False), ("K6", False)],
             [("R6", True), ("R7", True), ("R8", True), ("R9", True)]],
        ),
        # Opened: the run R1 R2 R3 on the table takes R4, and R3 R4 R5 is new (after
        # the table's sets, which keep their places).
        (
            [OPENED_WITH_R10_R11_R12,
             {"turn": 2, "player": 0, "rack": ["R3", "R4", "R4", "R5", "K1"],
              "table_before": [["R1", "R2", "R3"], ["R10", "R11", "R12"]],
              "action": "draw", "drawn": "B2"}],
            [[("R1", False), ("R2", False), ("R3", False), ("R4", True)],
             [("R10", False), ("R11", False), ("R12", False)],
             [("R3", True), ("R4", True), ("R5", True)]],
        ),
    ],
    ids=["a set that stayed", "a set added to"],
)  # fmt: skip
def test_review_tab_marks_the_rack_tiles_of_the_best_play_not_their_copies_on_the_table(
    service: str, page: Page, turns: list[dict[str, Any]], marked: list[list[tuple[str, bool]]]
) -> None:
    # The best play's table marked the first copy of each tile played: the R6 of a
    # group already on the table, not the R6 the rack laid in a new run.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    page.get_by_label("Game record (JSON)").fill(json.dumps({"turns": turns}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    best = answer.value.json()["turns"][-1]["best"]
    assert best["table"] == [[tile for tile, _ in row] for row in marked]
    assert Counter(best["played"]) == Counter(tile for row in marked for tile, by in row if by)
    page.locator("#review-turns button").last.click()
    expect(page.locator("#review-turn h3")).to_contain_text(f"Turn {len(turns)}:")
    # The sets after the second heading, "The best play: ...".
    assert drawn_table(page, "#review-turn h4 ~ h4 ~ .set") == marked


def test_review_tab_marks_the_rack_joker_not_the_table_joker_beside_it(
    service: str, page: Page
) -> None:
    # The best play lays the rack's J beside the table's J(R4): R3 J(R4) R5 J(R6) R7.
    # The review marked the first joker, the table's, as the rack's.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    drew = {"turn": 2, "player": 0, "rack": ["J", "R7", "K1"],
            "table_before": [["R3", "J(R4)", "R5"], ["R10", "R11", "R12"]],
            "action": "draw", "drawn": "B2"}  # fmt: skip
    page.get_by_label("Game record (JSON)").fill(
        json.dumps({"turns": [OPENED_WITH_R10_R11_R12, drew]})
    )
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    best = answer.value.json()["turns"][-1]["best"]
    assert best["table"][0] == ["R3", "J(R4)", "R5", "J(R6)", "R7"]
    page.locator("#review-turns button").last.click()
    expect(page.locator("#review-turn h3")).to_contain_text("Turn 2:")
    drawn = drawn_table(page, "#review-turn h4 ~ h4 ~ .set")
    assert [[played for _, played in row] for row in drawn] == [
        [place in places for place in range(len(tiles))]
        for tiles, places in zip(best["table"], best["from_rack_places"], strict=True)
    ]
    assert best["from_rack_places"][0] == [3, 4]


def test_review_tab_says_a_turn_short_of_a_best_not_proven_is_at_least_that_short(
    service: str, page: Page
) -> None:
    # A best the search did not prove is only the best found: the turn is short of the
    # best by its shortfall at least. The page said "turn 2 (1 short)" and "1 short of
    # the best", where the command line says "at least" (a clock cut answers so; the
    # answer's best is marked not proven on its way, as the service would send it).
    opened = {"turn": 1, "player": 0, "rack": ["R10", "R11", "R12", "K1"],
              "table_before": [], "action": "play", "played": ["R10", "R11", "R12"],
              "table_after": [["R10", "R11", "R12"]]}  # fmt: skip
    drew = {"turn": 2, "player": 0, "rack": ["R13", "K1"], "table_before": [["R10", "R11", "R12"]],
            "action": "draw", "drawn": "R1", "table_after": [["R10", "R11", "R12"]]}  # fmt: skip

    def found_only(review: dict[str, Any]) -> None:
        assert review["turns"][1]["best"]["status"] == "optimal"
        review["turns"][1]["best"]["status"] = "feasible"

    said = _review_changed(service, page, "rummikub", {"turns": [opened, drew]}, found_only)
    assert said["players"][0]["costliest"][0]["turn"] == 2
    cells = page.locator(".review-summary tbody tr").nth(0).locator("td")
    expect(cells.nth(3)).to_have_text("turn 2 (at least 1 short)")
    page.get_by_role("button", name="Next missed play").click()
    expect(page.locator("#review-turn")).to_contain_text(
        "At least 1 short of the best: the best play found placed 1 tile (13 points)."
    )


def test_review_tab_chart_marks_a_best_not_proven_as_the_best_found(
    service: str, page: Page
) -> None:
    # The chart drew every turn's best as a grey bar and called it "best (grey)", a
    # best not proven too (a review at a 1-10 ms limit, a busy server): the chart said
    # the turn could place no more than the bar, which nothing proved. Its bar is now
    # an outline, its turn's title and the caption say "found", and the tiles left are
    # "at least" so many.
    drew = {"turn": 2, "player": 0, "rack": ["R13", "K1"], "table_before": [["R10", "R11", "R12"]],
            "action": "draw", "drawn": "R1", "table_after": [["R10", "R11", "R12"]]}  # fmt: skip

    def found_only(review: dict[str, Any]) -> None:
        assert review["turns"][0]["best"]["status"] == "optimal"
        assert review["turns"][1]["best"]["status"] == "optimal"
        review["turns"][1]["best"]["status"] = "feasible"
        review["players"][0]["proven"] = False

    record = {"turns": [OPENED_WITH_R10_R11_R12, drew]}
    said = _review_changed(service, page, "rummikub", record, found_only)
    series = said["players"][0]["series"]
    assert series["turn"] == [1, 2]
    best, played = series["best"], series["played"]
    chart = page.locator(".review-chart")
    bars = chart.locator("svg g")
    expect(bars).to_have_count(2)
    # Turn 1's best was proven: a filled bar, called the best.
    expect(bars.nth(0).locator("rect[data-bar=best]")).to_have_attribute("fill", "#b0bec5")
    expect(bars.nth(0).locator("title")).to_have_text(
        f"turn 1: played {played[0]}, best {best[0]} (tiles)"
    )
    # Turn 2's was not: no filled bar of a best, the best found said so.
    expect(bars.nth(1).locator("rect[data-bar=best]")).to_have_count(0)
    expect(bars.nth(1).locator("rect[data-bar=found]")).to_have_attribute("fill", "none")
    expect(bars.nth(1).locator("title")).to_have_text(
        f"turn 2: played {played[1]}, found {best[1]} (tiles), not proven the best"
    )
    expect(chart.locator("figcaption")).to_have_text(
        "Player 0: best (grey; dashed outline: the best found, not proven) and played (blue),"
        " turn by turn"
    )
    left = sum(best) - sum(played)
    expect(chart.locator("svg")).to_have_attribute(
        "aria-label",
        f"Player 0: 2 turns, at least {left} tile{'s' * (left != 1)} short of each turn's"
        " best play, summed (not every best was proven)",
    )
    page.get_by_role("button", name="日本語").click()  # drops the English review
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="振り返り", exact=True).click()
    expect(chart.locator("figcaption")).to_have_text(
        "プレイヤー0: 手番ごとの最善手(灰。破線の枠は見つかった中で最良の手で、最善とは"
        "証明されていません)と実際の手(青)"
    )
    expect(chart.locator("svg g").nth(1).locator("title")).to_contain_text(
        "最善とは証明されていません"
    )


def test_review_tab_says_a_one_tile_best_play_in_the_singular(service: str, page: Page) -> None:
    # It said "1 short of the best: the best play placed 1 tiles (13 points)."
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    opened = {"turn": 1, "player": 0, "rack": ["R10", "R11", "R12", "K1"],
              "table_before": [], "action": "play", "played": ["R10", "R11", "R12"],
              "table_after": [["R10", "R11", "R12"]]}  # fmt: skip
    drew = {"turn": 2, "player": 0, "rack": ["R13", "K1"], "table_before": [["R10", "R11", "R12"]],
            "action": "draw", "drawn": "R1", "table_after": [["R10", "R11", "R12"]]}  # fmt: skip
    page.get_by_label("Game record (JSON)").fill(json.dumps({"turns": [opened, drew]}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    assert answer.value.json()["turns"][1]["best"]["tiles"] == 1
    page.get_by_role("button", name="Next missed play").click()
    detail = page.locator("#review-turn")
    expect(detail).to_contain_text("1 short of the best: the best play placed 1 tile (13 points).")
    chart = page.locator(".review-chart svg")  # "2 turns, 1 tiles ..."
    expect(chart).to_have_attribute(
        "aria-label", "Player 0: 2 turns, 1 tile short of each turn's best play, summed"
    )
    page.get_by_role("button", name="日本語").click()  # drops the English review
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="振り返り", exact=True).click()
    page.get_by_role("button", name="次の見逃し").click()
    expect(detail).to_contain_text("最善手より1少ない手です。最善手は1枚(13点)を出しました。")
    said = "プレイヤー0: 2手。各手番の最善手に届かなかった分の合計は1枚"
    expect(chart).to_have_attribute("aria-label", said)


@pytest.mark.parametrize(("lang", "said"), [("en", "over 99%"), ("ja", "99%\u8d85")])
def test_review_tab_does_not_round_a_share_short_of_all_to_100_percent(
    service: str, page: Page, lang: str, said: str
) -> None:
    # 266 points placed of the 267 each turn's best would place (R1 missed) was drawn
    # "266 / 267 (100%)". The page has no objective for a review: the route adds it.
    runs = [f"{c}{n}" for c in "BBKKO" for n in (10, 11, 12, 13)]
    table = [["R11", "R12", "R13"], ["R2", "R3", "R4"]]
    opened = {"turn": 1, "player": 0, "rack": ["R11", "R12", "R13"],
              "table_before": [["R2", "R3", "R4"]], "action": "play",
              "table_after": table}  # fmt: skip
    drew = {"turn": 2, "player": 1, "rack": ["B1", "B2"], "table_before": table,
            "action": "draw", "drawn": "R13"}  # fmt: skip
    sets = [runs[i : i + 4] for i in range(0, 20, 4)]
    big = {"turn": 3, "player": 0, "rack": [*runs, "R1"], "table_before": table,
           "action": "play", "table_after": [*table, *sets]}  # fmt: skip

    def in_points(route: Route) -> None:
        sent = route.request.post_data_json
        assert isinstance(sent, dict)
        route.continue_(post_data=json.dumps({**sent, "objective": "points"}))

    page.goto(f"{service}/?lang={lang}")
    page.locator("#tab-review").click()
    page.route(f"**{REVIEW}", in_points)
    page.locator("#record").fill(json.dumps({"turns": [opened, drew, big]}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.locator("#review-run").click()
    player = answer.value.json()["players"][0]
    assert (player["placed"], player["possible"]) == (266, 267)
    cell = page.locator(".review-summary tbody tr").nth(0).locator("td").nth(2)
    # Japanese puts no space before the bracket, as its other cells ("2手中1手(50%)").
    expect(cell).to_have_text(f"266 / 267 ({said})" if lang == "en" else f"266 / 267({said})")


def test_review_tab_names_each_illegal_turn_by_its_number(service: str, page: Page) -> None:
    # The summary's "illegal turns" cell said "2" for a player whose one illegal turn
    # was turn 2: read as two illegal turns. It says "turn 2", as the costliest do.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    short = {"turn": 1, "player": 0, "rack": ["R1", "R2", "R3", "K5"], "table_before": [],
             "action": "play", "played": ["R1", "R2", "R3"],
             "table_after": [["R1", "R2", "R3"]]}  # fmt: skip
    broken = {"turn": 2, "player": 1, "rack": ["B1", "B2"], "table_before": [["R1", "R2", "R3"]],
              "action": "play", "table_after": [["R1", "R2", "R3"], ["B1", "B2"]]}  # fmt: skip
    page.get_by_label("Game record (JSON)").fill(json.dumps({"turns": [short, broken]}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    players = answer.value.json()["players"]
    assert [p["illegal_turns"] for p in players] == [[1], [2]]
    rows = page.locator(".review-summary tbody tr")
    expect(rows.nth(0).locator("td").nth(4)).to_have_text("turn 1")
    expect(rows.nth(1).locator("td").nth(4)).to_have_text("turn 2")
    page.get_by_role("button", name="日本語").click()
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="振り返り", exact=True).click()
    expect(rows.nth(1).locator("td").nth(4)).to_have_text("2手目")


def test_review_tab_summary_names_the_turns_it_could_not_review(service: str, page: Page) -> None:
    # A player whose turns were all left unreviewed (an invalid set left on the table)
    # read "0 of 0 (-)" with no reason in the summary; the turns are now named.
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    opened = {"turn": 1, "player": 0, "rack": ["R1", "R2", "R3", "K5"], "table_before": [],
              "action": "play", "played": ["R1", "R2", "R3"],
              "table_after": [["R1", "R2", "R3"]]}  # fmt: skip
    broken = {"turn": 2, "player": 1, "rack": ["B1", "B2", "O9"],
              "table_before": [["R1", "R2", "R3"]], "action": "play",
              "table_after": [["R1", "R2", "R3"], ["B1", "B2"]]}  # fmt: skip
    drew = {"turn": 3, "player": 0, "rack": ["K5"],
            "table_before": [["R1", "R2", "R3"], ["B1", "B2"]], "action": "draw",
            "drawn": "K6", "table_after": [["R1", "R2", "R3"], ["B1", "B2"]]}  # fmt: skip
    page.get_by_label("Game record (JSON)").fill(json.dumps({"turns": [opened, broken, drew]}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    players = answer.value.json()["players"]
    assert [p["unreviewed_turns"] for p in players] == [[3], []]
    done = page.locator(".review-summary tbody tr").nth(0).locator("td").nth(1)
    turns = players[0]["turns"]
    expect(done).to_contain_text(f"of {turns}")
    expect(done).to_contain_text("; not reviewed: turn 3")
    expect(
        page.locator(".review-summary tbody tr").nth(1).locator("td").nth(1)
    ).not_to_contain_text("not reviewed")
    page.get_by_role("button", name="日本語").click()
    with page.expect_response(lambda r: r.url.endswith(REVIEW)):
        page.get_by_role("button", name="振り返り", exact=True).click()
    expect(done).to_contain_text("\uff0f振り返りできず: 3手目")  # the Japanese "; "


def test_review_tab_says_what_is_wrong_with_a_record(service: str, page: Page) -> None:
    page.goto(service)
    page.get_by_role("tab", name="Review").click()
    record = page.get_by_label("Game record (JSON)")
    record.fill("{not json")
    page.get_by_role("button", name="Review", exact=True).click()
    alert = page.locator("#review-form").get_by_role("alert")
    expect(alert).to_contain_text("The game record is not valid JSON")
    record.fill(
        '{"turns": [{"turn": 1, "player": 0, "rack": ["Q5"], "table_before": [], '
        '"action": "draw", "drawn": "R1"}]}'
    )
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.get_by_role("button", name="Review", exact=True).click()
    assert answer.value.status == 422
    detail = answer.value.json()["detail"]
    assert detail.startswith("record: ")
    assert "Q5" in detail
    # The place the detail quotes first ('record') is said as the field's label.
    expect(alert).to_have_text(detail.replace("record", "Game record (JSON)", 1))


@pytest.mark.parametrize(
    ("game", "lang"), [("rummikub", "en"), ("shanghai", "en"), ("shanghai", "ja")]
)
def test_review_tab_says_a_seat_with_no_turn_has_none(
    service: str, page: Page, game: str, lang: str
) -> None:
    # A record that ended before a seat's first turn: the service names the seat with
    # no turns, and the page said "0 of 0 (-)" of it.
    if game == "rummikub":
        record: dict[str, Any] = {
            "turns": [{"turn": 1, "player": 0, "rack": ["R10", "R11", "R12", "K1"],
                       "table_before": [], "action": "play",
                       "table_after": [["R10", "R11", "R12"]]}]
        }  # fmt: skip
    else:
        record = copy.deepcopy(shanghai_game("small"))
        hand = record["hands"][0]
        first = next(e for e, event in enumerate(hand["events"]) if event["kind"] == "play")
        hand["events"] = hand["events"][: first + 1]
        for key in ("end", "went_out", "hands_left", "points"):
            del hand[key]
        record["hands"], record["scores"], record["winners"] = [hand], [0, 0], None
    _open_review_of(service, page, game, lang)
    page.locator("#record").fill(json.dumps(record))
    ending = REVIEW if game == "rummikub" else SHANGHAI_REVIEW
    with page.expect_response(lambda r: r.url.endswith(ending)) as answer:
        page.locator("#review-run").click()
    players = answer.value.json()["players"]
    (idle,) = [p["player"] for p in players if p["turns"] == 0]
    rows = page.locator(".review-summary tbody tr")
    expect(rows).to_have_count(len(players))
    said = "記録に手番がありません" if lang == "ja" else "no turns in the record"
    expect(rows.nth(idle).locator("td").nth(1)).to_have_text(said)
    expect(rows.nth(1 - idle).locator("td").nth(1)).to_contain_text("1")
    if game == "rummikub":  # a chart of the turns of the seat that had them alone
        expect(page.locator(".review-chart svg")).to_have_count(1)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_tab_enter_in_the_seed_plays_and_an_empty_box_is_said(
    service: str, page: Page, lang: str
) -> None:
    # Enter in the seed field submitted the form, which reviews the record box: empty,
    # the page said "The game record is not valid JSON: Unexpected end of JSON input"
    # and played nothing. Enter there plays the game of that seed; Review with an
    # empty box says there is no record, in the page's language.
    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#tab-review").click()
    page.locator("#review-run").click()
    expect(page.locator("#review-error")).to_have_text(
        "There is no game record to review: paste one above, or play a bot game."
        if lang == "en"
        else "\u632f\u308a\u8fd4\u308b\u30b2\u30fc\u30e0\u8a18\u9332\u304c\u3042\u308a\u307e"
        "\u305b\u3093\u3002\u4e0a\u306b\u8cbc\u308a\u4ed8\u3051\u308b\u304b\u3001\u30dc\u30c3"
        "\u30c8\u5bfe\u6226\u30921\u30b2\u30fc\u30e0\u884c\u3063\u3066\u304f\u3060\u3055\u3044"
        "\u3002"
    )
    page.locator("#seed").fill("7")
    with page.expect_request(lambda r: r.url.endswith("/v1/rummikub/game")) as game:
        page.locator("#seed").press("Enter")
    sent = game.value.post_data_json
    assert isinstance(sent, dict)
    assert sent["seed"] == 7
    expect(page.locator("#review-output")).to_be_visible(timeout=60_000)
    expect(page.locator("#review-error")).to_be_empty()


def test_review_tab_in_japanese_clears_the_old_review_for_a_bad_record(
    service: str, page: Page
) -> None:
    # Messages in the page's language only, and no old game's turns beside them.
    record = httpx.post(
        f"{service}{GAME}", json={"bots": ["greedy", "greedy"], "seed": 1}, timeout=60
    ).json()["record"]
    _open_in_japanese(service, page)
    page.locator("#tab-review").click()
    field = page.get_by_label("ゲーム記録(JSON)")
    review = page.locator("#review-run")
    output = page.locator("#review-output")
    alert = page.locator("#review-form").get_by_role("alert")

    def reviewed(text: str) -> None:
        field.fill(text)
        with page.expect_response(lambda r: r.url.endswith(REVIEW)):
            review.click()

    field.fill(json.dumps(record))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answered:
        review.click()
    # The texts write the fourth colour as the tiles are drawn, 黄 (Y), not O.
    sent = answered.value.request.post_data_json
    assert sent is not None
    assert sent["notation"] == "RBYK"
    said = json.dumps(answered.value.json())
    assert re.search(r"\bY\d", said)
    assert not re.search(r"\bO\d", said)
    expect(output).to_be_visible()
    expect(page.locator("#review-turn h3")).to_have_count(1)
    # The list of turns names players in Japanese too (no English "P0").
    expect(page.locator("#review-turns button").first).to_contain_text("プレイヤー")
    assert not [
        text
        for text in page.locator("#review-turns button").all_inner_texts()
        if re.search(r"\bP\d", text)
    ]

    # The service reviews a game of no turns (200, "turns": []): the page says so.
    reviewed('{"turns": []}')
    expect(alert).to_have_text("ゲーム記録に手番が1つもないため、振り返るものがありません。")
    expect(output).to_be_hidden()
    expect(page.locator("#review-turn")).to_be_empty()
    expect(page.locator("#review-turns")).to_be_empty()

    reviewed(json.dumps(record))
    expect(output).to_be_visible()
    # Not JSON: the browser's reason is English, so the Japanese page leaves it out.
    field.fill("{not json")
    review.click()
    expect(alert).to_have_text("ゲーム記録が正しいJSONではありません。")
    expect(output).to_be_hidden()


SHANGHAI_REVIEW = "/v1/shanghai/review"


def _percent(done: int, of: int) -> str:
    """A share as the page words it (i18n.js percentText, in English)."""
    if of == 0:
        return "-"
    share = 100 * done / of
    if 0 < share < 0.5:
        return "under 1%"
    if 99.5 <= share < 100:
        return "over 99%"
    return f"{math.floor(share + 0.5)}%"


def _open_review_of(service: str, page: Page, game: str, lang: str = "en") -> None:
    """Open the page in ``lang`` (waiting until it speaks it), its Review tab, and
    choose ``game`` there."""
    page.goto(f"{service}/?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#tab-review").click()
    page.locator(f"#review-form input[name=game][value={game}]").check()


def _review_shanghai(page: Page, record: Any) -> tuple[dict[str, Any], Any]:
    """Paste ``record`` into the Review tab (Shanghai chosen) and press Review; return
    the request the page sent and the service's answer."""
    page.locator("#record").fill(json.dumps(record))
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_REVIEW)) as answer:
        page.locator("#review-run").click()
    sent = answer.value.request.post_data_json
    assert isinstance(sent, dict)
    assert sent["record"] == record
    return sent, answer.value


SHANGHAI_GAME = "/v1/shanghai/game"


def test_review_tab_plays_a_shanghai_bot_game_and_reviews_it(service: str, page: Page) -> None:
    # Shanghai had no bot game on the page (its button and seed were hidden): a user
    # had to run a tournament for a record. Now it plays one as for Rummikub.
    _open_review_of(service, page, "shanghai")
    play = page.get_by_role("button", name="Play a bot game (strong vs greedy)")
    expect(play).to_be_visible()
    page.get_by_label("seed").fill("3")
    sent: list[Any] = []

    def one_hand(route: Route) -> None:
        # The page's own request, played as a game of one hand: a whole game of ten
        # is seconds, and the page does the same with either.
        sent.append(route.request.post_data_json)
        route.continue_(post_data=json.dumps({**sent[-1], "settings": {"hands": 1}}))

    page.route(f"**{SHANGHAI_GAME}", one_hand)
    with (
        page.expect_response(lambda r: r.url.endswith(SHANGHAI_GAME)) as game,
        page.expect_response(lambda r: r.url.endswith(SHANGHAI_REVIEW)) as answer,
    ):
        play.click()
    assert sent == [{"bots": ["strong", "greedy"], "seed": 3, "lang": "en"}]
    assert game.value.status == 200
    played = game.value.json()
    assert played == game_shanghai({**sent[0], "settings": {"hands": 1}})
    record = played["record"]
    assert json.loads(page.locator("#record").input_value()) == record
    assert answer.value.request.post_data_json == {"record": record, "lang": "en"}
    assert answer.value.status == 200
    review = answer.value.json()
    expect(page.locator(".review-summary tbody tr")).to_have_count(2)
    expect(page.locator("#review-turns button")).to_have_count(len(review["turns"]))
    expect(play).to_be_enabled()
    # In Japanese, the help says the record can be played here too.
    _open_review_of(service, page, "shanghai", "ja")
    expect(page.locator("#record-help [data-review-game=shanghai]")).to_have_text(
        "上海ラミーのゲーム記録を貼り付けるか(meldwise game --game shanghai やトーナメントの"
        " --records で書き出せます)、ここでボット同士に1ゲーム対戦させてください。"
    )


def _drawn_cards(region: Locator) -> list[list[str]]:
    """The cards of each set (meld, hand) drawn in ``region``."""
    rows: list[list[str]] = region.evaluate_all(
        "rows => rows.map(row => [...row.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    return rows


def _best_melds(turn: dict[str, Any]) -> list[list[str]]:
    """The melds a Shanghai turn's best play draws: its new melds, then each meld the
    lay-offs go onto with the cards laid off (in the order the lay-offs name them)."""
    best = turn["best"]
    laid = [meld["cards"] for meld in (best["go_down"] or {"melds": []})["melds"]]
    melds = [meld["cards"] for meld in turn["table"]] + laid
    onto: dict[int, list[str]] = {}
    for play in (best["lay_offs"] or {"plays": []})["plays"]:
        onto.setdefault(play["meld"], []).append(play["card"])
    return laid + [melds[index] + cards for index, cards in onto.items()]


def test_review_tab_reviews_a_shanghai_game_as_the_service_answers(
    service: str, page: Page
) -> None:
    # The lazy game's seat 0 skips a turn it could go down and one it could go out.
    record = shanghai_game("lazy")
    _open_review_of(service, page, "shanghai")
    sent, answer = _review_shanghai(page, record)
    assert sent["lang"] == "en"
    assert answer.status == 200
    review = answer.json()
    players, turns = review["players"], review["turns"]

    def places(turns: list[dict[str, int]]) -> str:
        said = (f"hand {t['hand_number']}, turn {t['turn']}" for t in turns)
        return "; ".join(said) or "none"

    rows = page.locator(".review-summary tbody tr")
    expect(rows).to_have_count(len(players))
    for row, player in zip(rows.all(), players, strict=True):
        missed = player["points_missed"]
        score = player["score"]
        expect(row.locator("td")).to_have_text([
            f"Player {player['player']} ({player['name']})",
            f"{player['turns_at_best']} of {player['turns']}"
            f" ({_percent(player['turns_at_best'], player['turns'])})",
            f"{missed} point" if missed == 1 else f"{missed} points",
            places(player["could_go_out"]),
            places(player["could_go_down"]),
            places(player["unproven"]),
            f"{score} (winner)" if player["winner"] else str(score),
        ])  # fmt: skip

    def best_said(turn: dict[str, Any]) -> str:
        best = turn["best"]
        if best is None:
            return "none found"
        word = "best" if best["status"] == "optimal" else "found"
        return f"{word} {best['points_left']}"

    listed = page.locator("#review-turns button")
    expect(listed).to_have_text([
        f"{t['hand_number']}-{t['turn']}. P{t['player']} left {t['points_left']} / {best_said(t)}"
        for t in turns
    ])  # fmt: skip
    # Each turn on one line: the list's labels wrapped ("1-4. P0 left 65 / best" over
    # "65"), the best's points read as the next line's.
    lines = listed.evaluate_all(
        """els => els.map(b => {
            const range = document.createRange();
            range.selectNodeContents(b);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        })"""
    )
    assert lines == [1] * len(turns)
    short = [i for i, t in enumerate(turns) if t["problems"]]
    assert len(short) >= 2, "seat 0 skipped going down and going out"
    expect(page.locator("#review-turns button.short")).to_have_count(len(short))

    detail = page.locator("#review-turn")
    heading = detail.locator("h3")
    first = turns[0]
    expect(heading).to_have_text(
        f"Hand {first['hand_number']}, turn {first['turn']}: player {first['player']}"
    )
    # Next missed play goes from one turn short of the best to the next: each drawn
    # as the service answered it.
    for index in short:
        turn = turns[index]
        best = turn["best"]
        page.get_by_role("button", name="Next missed play").click()
        expect(listed.nth(index)).to_have_attribute("aria-current", "true")
        expect(heading).to_have_text(
            f"Hand {turn['hand_number']}, turn {turn['turn']}: player {turn['player']}"
        )
        expect(detail.locator(".missed-note")).to_have_text(
            f"Short of the best: {'; '.join(turn['problems'])}."
        )
        assert _drawn_cards(detail.locator(".set[aria-label^='hand after the draw']")) == [
            turn["hand"]
        ]
        left = [
            f"Left in hand after the plays: {' '.join(cards) or 'nothing'} ({points} points)."
            for cards, points in (
                (turn["left"], turn["points_left"]),
                (best["left"], best["points_left"]),
            )
        ]
        expect(detail.locator("p", has_text="Left in hand after the plays")).to_have_text(left)
        expect(detail.locator("h4").last).to_have_text(
            "The best play"
            if best["status"] == "optimal"
            else "A play the search found (not proven the best)"
        )
        assert _drawn_cards(detail.locator("h4:last-of-type ~ .set")) == _best_melds(turn)
    # No missed play after the last: the page says so and stays.
    page.get_by_role("button", name="Next missed play").click()
    expect(page.locator("#review-nav-note")).to_have_text("No missed play after this turn.")
    expect(listed.nth(short[-1])).to_have_attribute("aria-current", "true")
    page.get_by_role("button", name="Previous turn").click()
    expect(listed.nth(short[-1] - 1)).to_have_attribute("aria-current", "true")
    page.get_by_role("button", name="Next turn").click()
    expect(listed.nth(short[-1])).to_have_attribute("aria-current", "true")
    # Another game chosen: the review shown is not of its record.
    page.get_by_role("radio", name="Rummikub").check()
    expect(page.locator("#review-output")).to_be_hidden()
    expect(page.locator("#review-play")).to_be_visible()


def test_review_tab_names_the_place_where_a_shanghai_record_breaks(
    service: str, page: Page
) -> None:
    record = shanghai_game("lazy")
    # A Shanghai record with Rummikub chosen: the page says which game it is, and
    # sends nothing (the service would name the command and route, not the choice here).
    _open_review_of(service, page, "rummikub")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.locator("#record").fill(json.dumps(record))
    page.locator("#review-run").click()
    alert = page.locator("#review-form").get_by_role("alert")
    expect(alert).to_have_text("This is a Shanghai game record: choose Shanghai under Game.")
    assert not [url for url in asked if "/v1/" in url]
    page.get_by_role("radio", name="Shanghai").check()
    expect(page.locator("#review-error")).to_be_empty()
    _, answer = _review_shanghai(page, record)
    output = page.locator("#review-output")
    expect(output).to_be_visible()
    # The first play discards a card its hand does not hold.
    broken = copy.deepcopy(record)
    hand = broken["hands"][0]
    at = next(i for i, event in enumerate(hand["events"]) if event["kind"] == "play")
    seat = hand["events"][at]["seat"]
    held = hand["deal"]["hands"][seat] + [
        card for event in hand["events"][:at] if event["seat"] == seat for card in event["cards"]
    ]
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hand["events"][at]["play"]["discard"] = next(
        rank + suit for rank in ranks for suit in "SHDC" if rank + suit not in held
    )
    _, answer = _review_shanghai(page, broken)
    assert answer.status == 422
    detail = answer.json()["detail"]
    assert detail.startswith(f"record: hands[0].events[{at}] (hand 1, turn ")
    expect(alert).to_have_text(detail.replace("record", "Game record (JSON)", 1))
    expect(output).to_be_hidden()  # no old review beside the error


def test_review_tab_says_a_hand_whose_contract_no_player_could_meet(
    service: str, page: Page
) -> None:
    # A game played under settings a new game is now refused (hand 3's two runs of 13
    # lay 26 cards; a hand holds at most 21): the review says so under the summary.
    settings = GameSettings(
        rules=ShanghaiRules(min_run_len=13), players=2, hands=3, max_turns=4, recorded=True
    )
    record = record_to_dict(random_game(settings, 11), ["ann", "bob"])
    _open_review_of(service, page, "shanghai")
    _sent, answer = _review_shanghai(page, record)
    notes = answer.json()["notes"]
    assert len(notes) == 1, notes
    assert notes[0].startswith("no hand can ever hold"), notes
    expect(page.locator("#review-summary p.note")).to_have_text(notes)
    _review_shanghai(page, shanghai_game("lazy"))
    expect(page.locator(".review-summary tbody tr")).to_have_count(2)
    expect(page.locator("#review-summary p.note")).to_have_count(0)


def test_review_tab_reviews_a_shanghai_game_in_japanese(service: str, page: Page) -> None:
    record = shanghai_game("lazy")
    _open_review_of(service, page, "shanghai", "ja")
    expect(page.locator("#review-form legend")).to_have_text("ゲーム")
    sent, answer = _review_shanghai(page, record)
    assert sent["lang"] == "ja"
    review = answer.json()
    expect(page.locator(".review-summary th")).to_have_text([
        "プレイヤー", "最善手どおりの手番", "最善手より手札に多く残した点数", "上がれた手番",
        "ダウンできた手番", "最善が証明されていない手番", "得点",
    ])  # fmt: skip
    player = review["players"][0]
    expect(page.locator(".review-summary tbody tr").first.locator("td").nth(1)).to_have_text(
        f"{player['turns']}手中{player['turns_at_best']}手"
        f"({_percent(player['turns_at_best'], player['turns'])})"
    )
    turn = next(t for t in review["turns"] if t["problems"])
    assert not re.search(r"[A-Za-z]{3}", "".join(turn["problems"]))  # the service's Japanese
    page.get_by_role("button", name="次の見逃し").click()
    detail = page.locator("#review-turn")
    expect(detail.locator("h3")).to_have_text(
        f"ハンド{turn['hand_number']}の{turn['turn']}手目: プレイヤー{turn['player']}"
    )
    expect(detail.locator(".missed-note")).to_have_text(
        f"最善手に届きません: {chr(0xFF0F).join(turn['problems'])}。"
    )
    expect(page.locator("#review-turns button").first).to_contain_text("プレイヤー")


def _review_changed(
    service: str, page: Page, game: str, record: Any, change: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """Review ``record`` of ``game`` on the page, the service's answer changed by
    ``change`` on its way (as a clock cut or a busy server would answer); return it."""
    path = REVIEW if game == "rummikub" else SHANGHAI_REVIEW

    def changed(route: Route) -> None:
        answer = route.fetch()
        review = answer.json()
        change(review)
        route.fulfill(response=answer, json=review)

    page.route(f"**{path}", changed)
    _open_review_of(service, page, game)
    page.locator("#record").fill(json.dumps(record))
    with page.expect_response(lambda r: r.url.endswith(path)) as answered:
        page.locator("#review-run").click()
    said: dict[str, Any] = answered.value.json()
    return said


def test_review_tab_keeps_the_shanghai_turns_a_summary_names_apart(
    service: str, page: Page
) -> None:
    # Two turns named in a cell read "hand 1, turn 8, hand 2, turn 3": four items, the
    # commas within each place and between them alike (a review at time_limit_ms 2
    # listed 26 so under "best not proven").
    two = [{"hand_number": 1, "turn": 8}, {"hand_number": 2, "turn": 3}]

    def unproven(review: dict[str, Any]) -> None:
        review["players"][0]["unproven"] = two
        review["players"][0]["proven"] = False

    _review_changed(service, page, "shanghai", shanghai_game("lazy"), unproven)
    cells = page.locator(".review-summary tbody tr").nth(0).locator("td")
    expect(cells.nth(5)).to_have_text("hand 1, turn 8; hand 2, turn 3")
    _switch_to_japanese(page)
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_REVIEW)):
        page.locator("#review-run").click()
    expect(cells.nth(5)).to_have_text(f"ハンド1の8手目{chr(0xFF0F)}ハンド2の3手目")


def _played_record(game: str) -> Any:
    """A record of ``game`` whose first turn is proven at the best: a Rummikub opening
    that places all it can, the lazy Shanghai game."""
    if game == "shanghai":
        return shanghai_game("lazy")
    turn = {"turn": 1, "player": 0, "rack": ["R10", "R11", "R12", "K1"], "table_before": [],
            "action": "play", "played": ["R10", "R11", "R12"],
            "table_after": [["R10", "R11", "R12"]]}  # fmt: skip
    return {"turns": [turn]}


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
def test_review_tab_says_a_players_figures_over_bests_not_proven_are_no_more_than_found(
    service: str, page: Page, game: str
) -> None:
    # At a 1 ms limit, no turn's best proven, the summary showed "17 / 17 (100%)": a sum
    # of the bests found is only at least the bests' sum, and a share of it is none of
    # the best. The answer's players say so (proven false), as the service would.
    record = _played_record(game)

    def unproven(review: dict[str, Any]) -> None:
        assert review["players"][0]["proven"] is True
        review["players"][0]["proven"] = False

    player = _review_changed(service, page, game, record, unproven)["players"][0]
    cells = page.locator(".review-summary tbody tr").nth(0).locator("td")
    at_best = f"{player['turns_at_best']} of {player['turns']} proven ("
    expect(cells.nth(1)).to_contain_text(at_best)
    if game == "rummikub":
        expect(cells.nth(2)).to_have_text(
            f"{player['placed']} / at least {player['possible']} (not every best was proven)"
        )
    else:
        points = f"{player['points_missed']} points"
        expect(cells.nth(2)).to_have_text(
            f"{points} beyond the plays found (not every best was proven)"
        )
    # The next player's figures were proven: said as before.
    second = page.locator(".review-summary tbody tr").nth(1).locator("td")
    if game == "shanghai":
        expect(second.nth(1)).not_to_contain_text("proven")


@pytest.mark.parametrize("game", ["rummikub", "shanghai"])
def test_review_tab_never_calls_a_best_not_proven_best_and_says_a_cut_by_the_clock(
    service: str, page: Page, game: str
) -> None:
    # A turn whose best the search did not prove (the clock cut it, on a busy
    # server): its line says what the search found, not "best", and the turn and
    # the review say the time limit cut a search, as the answer does.
    capped_note = (
        "The time limit, not the fixed work bound, cut a search short: the answer holds"
        " what that search had found by then."
    )
    record = _played_record(game)
    if game == "rummikub":
        record["turns"].append(
            {"turn": 2, "player": 1, "rack": ["B1", "B5"], "table_before": [["R10", "R11", "R12"]],
             "action": "draw", "drawn": "B9"}
        )  # fmt: skip

    def cut(review: dict[str, Any]) -> None:
        turn = review["turns"][0]
        assert turn["at_best"]
        assert turn["best"]["status"] == "optimal"
        turn["best"]["status"] = "feasible"
        turn["at_best"] = False
        if game == "rummikub":
            turn["best"]["time_capped"] = True
        else:
            turn["status"] = "feasible"
            turn["time_capped"] = True
        review["time_capped"] = True

    turn = _review_changed(service, page, game, record, cut)["turns"][0]
    shown = page.locator("#review-turns button").first
    count = turn["best"]["tiles"] if game == "rummikub" else turn["best"]["points_left"]
    expect(shown).to_contain_text(f"/ found {count}")
    expect(shown).not_to_contain_text("best")
    detail = page.locator("#review-turn")
    expect(detail).to_contain_text(
        "Not proven at the best: the search stopped before proving the best play,"
        " and found none better."
    )
    expect(detail).to_contain_text(capped_note)
    expect(page.locator("#review-summary")).to_contain_text(capped_note)
    if game == "shanghai":
        expect(detail.locator("h4").last).to_have_text(
            "A play the search found (not proven the best)"
        )
    # The next turn was not cut: only the review's note says so.
    page.get_by_role("button", name="Next turn").click()
    expect(detail).not_to_contain_text(capped_note)


def test_review_tab_lists_a_turn_whose_search_found_no_play_as_none_found(
    service: str, page: Page
) -> None:
    # A search the clock stopped before any play (status unknown) answers a best of no
    # tiles: a turn that played 3 was listed "1. P0 played 3 / found 0" (turn 22 of
    # seed 1's bot game reviewed at time_limit_ms 2), as if the search had found a play
    # of none.
    def nothing_found(review: dict[str, Any]) -> None:
        turn = review["turns"][0]
        assert turn["at_best"]
        assert turn["best"]["tiles"] == 3
        turn["at_best"] = False
        table = turn["table_before"]
        turn["best"] |= {"status": "unknown", "played": [], "tiles": 0, "points": 0,
                         "table": table, "from_rack": [[] for _ in table],
                         "from_rack_places": [[] for _ in table], "time_capped": True}  # fmt: skip
        review["players"][0]["proven"] = False
        review["time_capped"] = True

    said = _review_changed(service, page, "rummikub", _played_record("rummikub"), nothing_found)
    assert said["turns"][0]["tiles_played"] == 3
    expect(page.locator("#review-turns button").first).to_have_text("1. P0 played 3 / none found")
    # The chart's bar is the turn's own play (the best is at least that), not a find.
    expect(page.locator(".review-chart svg g title")).to_have_text(
        "turn 1: played 3 (tiles), no play found before the search stopped"
    )


def test_review_chart_titles_a_turn_by_what_the_search_found(service: str, page: Page) -> None:
    # A best found below the turn's own play (3 tiles played, a search stopped at a
    # 2-tile play) counts as the play in the series: the bar's title said "found 3",
    # a play the search never found, where the turn's line says "found 2".
    def found_less(review: dict[str, Any]) -> None:
        turn = review["turns"][0]
        assert turn["best"]["tiles"] == turn["tiles_played"] == 3
        turn["best"] |= {"status": "feasible", "tiles": 2}
        turn["at_best"] = False
        review["players"][0]["proven"] = False

    said = _review_changed(service, page, "rummikub", _played_record("rummikub"), found_less)
    assert said["players"][0]["series"]["best"] == [3]  # the service's: the play's 3
    expect(page.locator("#review-turns button").first).to_have_text("1. P0 played 3 / found 2")
    expect(page.locator(".review-chart svg g title")).to_have_text(
        "turn 1: played 3, found 2 (tiles), not proven the best"
    )


FOCUSED = """() => {
  let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return focused?.id || focused?.getAttribute("part") || focused?.tagName;
}"""


def test_buttons_keep_the_keyboard_focus_while_busy(service: str, page: Page) -> None:
    # A busy button that turned disabled dropped the focus to the page: the next
    # Enter went nowhere. Each stays focused, and Enter presses it again.
    record = httpx.post(
        f"{service}{GAME}", json={"bots": ["greedy", "greedy"], "seed": 1}, timeout=60
    ).json()["record"]
    page.goto(service)
    enter_rummikub(page, "R1 R2 R3", "R4 B4 K4")
    page.locator("meldwise-hint").get_by_role("button").focus()
    for level in ("nudge", "tile"):
        with page.expect_response(lambda r: r.url.endswith(SOLVE)) as answer:
            page.keyboard.press("Enter")
        request = answer.value.request.post_data_json
        assert isinstance(request, dict)
        assert request["hint_level"] == level
        page.locator("meldwise-hint[aria-busy=false]").wait_for()
        assert page.evaluate(FOCUSED) == "button"

    page.locator("#repair-run").focus()
    for _ in range(2):
        with page.expect_response(lambda r: r.url.endswith(REPAIR)):
            page.keyboard.press("Enter")
        expect(page.locator("#repair-answer")).to_contain_text("The table can be repaired")
        assert page.evaluate(FOCUSED) == "repair-run"

    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_role("button", name="Load an example").click()
    page.locator("#shanghai-advise").focus()
    for _ in range(2):
        with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)):
            page.keyboard.press("Enter")
        expect(page.locator("#shanghai-advise")).to_have_text("Advise")
        assert page.evaluate(FOCUSED) == "shanghai-advise"

    page.get_by_role("tab", name="Review").click()
    page.get_by_label("Game record (JSON)").fill(json.dumps(record))
    page.locator("#review-run").focus()
    for _ in range(2):
        with page.expect_response(lambda r: r.url.endswith(REVIEW)):
            page.keyboard.press("Enter")
        expect(page.locator("#review-run")).to_have_text("Review")
        assert page.evaluate(FOCUSED) == "review-run"


def test_switching_language_leaves_no_text_in_the_old_one(service: str, page: Page) -> None:
    # Answers and errors drawn in English, and advice on its way in English, are gone
    # once the page speaks Japanese: nothing is left, or drawn later, in the old one.
    page.goto(f"{service}/?lang=en")
    page.get_by_role("button", name="Load an example").first.click()
    with page.expect_response(lambda r: r.url.endswith(REPAIR)):
        page.get_by_role("button", name="Repair the table").click()
    expect(page.locator("#repair-answer")).to_contain_text("The table can be repaired")

    page.get_by_role("tab", name="Review").click()
    page.get_by_label("Game record (JSON)").fill("{not json")
    page.get_by_role("button", name="Review", exact=True).click()
    expect(page.locator("#review-error")).to_contain_text("The game record is not valid JSON")

    page.get_by_role("tab", name="Shanghai").click()
    page.get_by_label("Your hand", exact=True).fill("ZZ")
    with page.expect_response(lambda r: r.url.endswith(SHANGHAI_ADVISE)) as refused:
        page.get_by_role("button", name="Advise").click()
    assert refused.value.status == 422
    detail = refused.value.json()["detail"]
    assert detail.startswith("hand[0]: ")
    expect(page.locator("#shanghai-error")).to_have_text(
        detail.replace("hand[0]", "Your hand, card 1")
    )
    page.get_by_role("button", name="Load an example").click()
    held = hold(page, SHANGHAI_ADVISE)
    page.get_by_role("button", name="Advise").click()
    wait_held(page, held)
    _switch_to_japanese(page)
    page.unroute(f"**{SHANGHAI_ADVISE}")
    release(page, held[0])  # English advice, asked before the switch

    expect(page.locator("#shanghai-answer")).to_be_empty()
    expect(page.locator("#shanghai-error")).to_be_empty()
    expect(page.locator("#shanghai-advise")).to_have_text("アドバイス")
    expect(page.locator("#shanghai-advise")).to_be_enabled()
    expect(page.locator("#review-error")).to_be_empty()
    expect(page.locator("#repair-answer")).to_be_empty()


def test_the_language_chosen_last_stands_when_an_earlier_ones_catalogue_comes_later(
    service: str, page: Page
) -> None:
    # 日本語 pressed, then English before the Japanese catalogue had come (a slow line):
    # the page spoke English, then turned Japanese when the catalogue came, and
    # remembered Japanese for the next visit.
    page.goto(f"{service}/?lang=en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    held = hold(page, "/static/locale/ja.json")
    page.get_by_role("button", name="日本語").click()
    wait_held(page, held)
    page.get_by_role("button", name="English").click()
    release(page, held[0])
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="English")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("tab", name="Rummikub")).to_be_visible()
    assert page.evaluate("localStorage.getItem('meldwise-lang')") == "en"


def test_a_catalogue_that_fails_to_load_leaves_the_demo_english_and_is_tried_again(
    service: str, page: Page
) -> None:
    # 日本語 pressed, its catalogue failing to load: the page's strings stayed English
    # but the page said lang="ja" (the hint and the tabs asking the service in
    # Japanese) and remembered Japanese.
    page.goto(f"{service}/?lang=en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.route("**/static/locale/ja.json", lambda route: route.abort())
    with page.expect_event("requestfailed", lambda r: r.url.endswith("/locale/ja.json")):
        page.get_by_role("button", name="日本語").click()
    page.wait_for_timeout(300)  # the switch, had it gone on, would have landed
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="日本語")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('meldwise-lang')") is None
    # The next press tries again.
    page.unroute("**/static/locale/ja.json")
    page.get_by_role("button", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("tab", name="ラミィキューブ")).to_be_visible()


def test_the_demo_speaks_japanese_with_a_switch(service: str, browser: Browser) -> None:
    # A Japanese browser: the page follows it, labels and hints in Japanese, the
    # fourth colour written Y and drawn yellow (黄); the switch goes back to English.
    context = browser.new_context(locale="ja-JP", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(service)
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("button", name="日本語")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("tab", name="ラミィキューブ")).to_be_visible()
    palette = page.locator("#rummikub-palette")
    for name in ("黒8", "黒9", "黄1"):
        palette.get_by_role("button", name=f"{name}を追加", exact=True).click()
    rack = page.get_by_label("あなたの手持ち", exact=True)
    expect(rack).to_have_value("K8 K9 Y1")
    yellow = page.locator("#rack-preview .tile").nth(2)
    expect(yellow).to_have_class(re.compile(r"\bc-Y\b"))
    expect(yellow).to_have_accessible_name("黄1を取り除く")
    page.get_by_label("場のセット", exact=True).fill("B7 K7 黄7 R7\nR1 R2 R3")  # kanji typed
    expect(page.locator("#table-preview .tile.c-Y")).to_have_count(1)

    hint = page.locator("meldwise-hint")
    expect(hint.get_by_role("button")).to_have_text("ヒント")
    request, nudge = press_hint(page)
    assert request["lang"] == "ja"
    assert request["notation"] == "RBYK"
    assert request["table"] == [["B7", "K7", "黄7", "R7"], ["R1", "R2", "R3"]]
    answer = hint.locator(".answer")
    expect(answer).to_have_text(f"この手番で{nudge['tiles_played']}枚出せます。")
    expect(hint.get_by_role("button")).to_have_text("ヒント: どのタイル\uff1f")
    press_hint(page)
    _, full = press_hint(page)
    assert full["steps"][0]["text"] == "場のセット0(7のグループ)からK7を取ります。"
    expect(answer.locator("ol.steps li")).to_have_text([step["text"] for step in full["steps"]])
    expect(answer.get_by_role("heading", name="手順")).to_be_visible()
    expect(answer.get_by_role("group", name="残りの手持ち")).to_contain_text("1")
    assert full["rack_left"] == ["Y1"]

    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_label("Your rack", exact=True)).to_have_value("K8 K9 Y1")
    # In the standard game Y1 is the orange 1 (Rules.canonical): in English, orange.
    orange = page.locator("#rack-preview .tile").nth(2)
    expect(orange).to_have_class(re.compile(r"\bc-O\b"))
    expect(orange).to_have_accessible_name("remove orange 1")
    expect(hint.get_by_role("button")).to_have_text("Hint")  # a new position: the nudge
    request, _ = press_hint(page)
    assert request["lang"] == "en"
    assert "notation" not in request
    expect(answer).to_have_text("You can play 2 tiles this turn.")
    page.reload()  # the choice is remembered
    expect(page.locator("html")).to_have_attribute("lang", "en")
    context.close()
    assert errors == []


def test_fields_split_at_separators_typed_full_width(service: str, page: Page) -> None:
    # A Japanese keyboard types the comma as U+3001 or U+FF0C, the set bar as U+FF5C
    # and a meld owner's colon as U+FF1A (full width); the service splits lists
    # there (solver/written.py), but the page sent "赤5、赤6" as one tile and drew a
    # bad one. And a suit typed as an emoji (❤, or ♥ with U+FE0F) was drawn as no card.
    _open_in_japanese(service, page)
    page.locator("#rack").fill("黒8\u3001黒9\uff0c黄1")
    page.locator("#table").fill("B7 K7 黄7 R7 \uff5c R1 R2 R3")
    for preview in ("#rack-preview", "#table-preview"):
        expect(page.locator(f"{preview} .tile.bad")).to_have_count(0)
    expect(page.locator("#rack-preview .tile")).to_have_count(3)
    request, nudge = press_hint(page)
    assert request["rack"] == ["黒8", "黒9", "黄1"]
    assert request["table"] == [["B7", "K7", "黄7", "R7"], ["R1", "R2", "R3"]]
    assert nudge["tiles_played"] == 2

    page.locator("#tab-shanghai").click()
    page.locator("#hand").fill("7H\u30017S\uff0c7D 9❤ 10♥\ufe0f")
    page.locator("#melds").fill("アン\uff1a8H 8S 8D")
    for preview in ("#hand-preview", "#melds-preview"):
        expect(page.locator(f"{preview} .card.bad")).to_have_count(0)
    expect(page.locator("#hand-preview .card")).to_have_count(5)
    page.locator("#contract").select_option("1")
    request = _advised_request(page)
    assert request["hand"] == ["7H", "7S", "7D", "9❤", "10♥\ufe0f"]
    assert request["table"] == [{"cards": ["8H", "8S", "8D"], "owner": "アン"}]


def _full_width(text: str) -> str:
    """``text`` as a Japanese keyboard types it: ASCII letters and digits full width."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


def _read(parse: Callable[[str], object], text: str) -> object:
    """What the service reads ``text`` as (a wild card with what it stands for: both),
    or None when it reads no piece there."""
    name, bracket, meant = text.partition("(")
    try:
        return (parse(name), parse(meant.removesuffix(")"))) if bracket else parse(text)
    except MeldwiseError:
        return None


# Written forms, each with the canonical form the service reads it as (None: none).
_TILES_WRITTEN = [
    ("R05", "R5"),
    ("r005", "R5"),
    ("K0013", "K13"),
    ("O01", "O1"),
    ("b026", "B26"),
    ("J(R07)", "J(R7)"),
    ("R0", None),
    ("R00", None),
    ("R027", None),
    ("0R5", None),
]
_CARDS_WRITTEN = [
    ("07H", "7H"),
    ("007h", "7H"),
    ("010S", "10S"),
    ("02C", "2C"),
    ("♥07", "7H"),
    ("07♥", "7H"),
    ("JK(06H)", "JK(6H)"),
    ("02C(06H)", "2C(6H)"),
    ("00H", None),
    ("0TH", None),
    ("0AS", None),
    ("0", None),
]


def test_the_page_draws_a_piece_as_the_service_reads_it(service: str, page: Page) -> None:
    # The service reads leading zeros before a number (07H is 7H, R005 is R5: one rule,
    # solver/written.py and each game's parse), but the page drew 07H and R005 as "not a
    # card" / "not a tile". Each written form is drawn as the piece the service reads,
    # or as none when the service reads none; typed full width too.
    page.goto(service)
    for field, preview, written, parse, kind in (
        ("#rack", "#rack-preview", _TILES_WRITTEN, Tile.parse, "tile"),
        ("#hand", "#hand-preview", _CARDS_WRITTEN, Card.parse, "card"),
    ):
        if kind == "card":
            page.locator("#tab-shanghai").click()
        for text, canonical in written:
            if canonical is None:
                expected = None
            else:
                assert _read(parse, canonical) is not None, canonical
                page.locator(field).fill(canonical)
                expected = preview_name(page, preview)
            for typed in (text, _full_width(text)):
                assert _read(parse, typed) == (canonical and _read(parse, canonical)), typed
                page.locator(field).fill(typed)
                said = expected or f"remove not a {kind}: {text}"  # as folded
                assert preview_name(page, preview) == said, typed


def preview_name(page: Page, preview: str) -> str:
    """The name of the one piece a field's preview draws."""
    buttons = page.locator(preview).get_by_role("button")
    expect(buttons).to_have_count(1)
    return buttons.nth(0).get_attribute("aria-label") or ""


def test_a_piece_typed_with_dollar_signs_is_named_as_typed(service: str, page: Page) -> None:
    # "$&" or "$`" typed as a tile was read as a replacement pattern when the name was
    # put into "remove {piece}": the drawn piece was named "remove not a tile: {piece}".
    page.goto(service)
    page.locator("#rack").fill("R1 $& $`")
    names = page.locator("#rack-preview").get_by_role("button")
    expect(names).to_have_count(3)
    expect(names.nth(1)).to_have_accessible_name("remove not a tile: $&")
    expect(names.nth(2)).to_have_accessible_name("remove not a tile: $`")
    page.locator("#tab-shanghai").click()
    page.locator("#hand").fill("$&")
    expect(page.locator("#hand-preview").get_by_role("button")).to_have_accessible_name(
        "remove not a card: $&"
    )


def test_japanese_sentences_are_joined_without_english_separators(service: str, page: Page) -> None:
    # The upcard advice put an ASCII space after 。 (取らないでおきましょう。 山札から…),
    # and a review turn's problems were joined by "; " inside the Japanese text.
    _shanghai_example_in_japanese(service, page)
    page.locator("#phase").select_option("draw")
    _advised_request(page)
    expect(page.locator("#shanghai-answer")).to_contain_text("山札から引きます")
    for text in page.locator("#shanghai-answer p").all_inner_texts():
        assert "。 " not in text, text

    record = httpx.post(
        f"{service}{GAME}", json={"bots": ["greedy", "greedy"], "seed": 1}, timeout=60
    ).json()["record"]
    turn = record["turns"][1]  # the first play: an opening of two sets
    assert turn["action"] == "play"
    assert len(turn["table_after"]) == 2
    # The second set cut to two tiles: too short, and so no opening of valid sets.
    cut = turn["table_after"][1].pop()
    turn["played"].remove(cut)
    record = {**record, "turns": record["turns"][:2]}
    del record["result"]
    page.locator("#tab-review").click()
    page.get_by_label("ゲーム記録(JSON)").fill(json.dumps(record))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.locator("#review-run").click()
    problems = answer.value.json()["turns"][1]["problems"]
    assert len(problems) == 2
    page.locator("#review-turns button").nth(1).click()
    expect(page.locator("#review-turn p.error")).to_have_text(
        "ルール違反: " + "\uff0f".join(problems)
    )


CAPPED_NOTE = (
    "The time limit, not the fixed work bound, cut a search short: the answer holds"
    " what that search had found by then."
)


def _cut_by_the_clock(route: Route) -> None:
    """The service's answer as a busy server gave it (seen under load): the same, but
    a search the clock cut (``time_capped``), its status still proven."""
    answer = route.fetch()
    route.fulfill(response=answer, json={**answer.json(), "time_capped": True})


@pytest.mark.parametrize("tab", ["nudge", "tile", "full", "repair", "shanghai"])
def test_an_answer_the_clock_cut_says_so(service: str, page: Page, tab: str) -> None:
    # The body said time_capped; the page said a cut only of a status short of proven,
    # so a hint, a repair or an advice that may differ on an idle server said nothing
    # (the review's tab did). Then the same request uncut: no such note.
    page.goto(service)
    if tab == "shanghai":
        page.get_by_role("tab", name="Shanghai").click()
        page.get_by_role("button", name="Load an example").click()
        path, shown = SHANGHAI_ADVISE, page.locator("#shanghai-answer")

        def ask() -> None:
            _advise(page)

    elif tab == "repair":
        enter_rummikub(page, "R6", "R1 R2\nR3 B3 K3 O3\nR4 R5")
        page.get_by_label("Table before the turn", exact=True).fill("R3 B3 K3 O3")
        path, shown = REPAIR, page.locator("#repair-answer")

        def ask() -> None:
            with page.expect_response(lambda r: r.url.endswith(REPAIR)):
                page.locator("#repair-run").click()

    else:
        enter_rummikub(page, "R1 R2 J", "R3 R4 R5\nK7 B7 O7")
        hint = page.locator("meldwise-hint")
        hint.evaluate("(element, level) => element.setAttribute('hint-level', level)", tab)
        path, shown = SOLVE, hint.locator(".answer")

        def ask() -> None:
            press_hint(page)

    page.route(f"**{path}", _cut_by_the_clock)
    ask()
    expect(shown).to_contain_text(CAPPED_NOTE)
    page.unroute(f"**{path}")
    ask()
    expect(shown).not_to_be_empty()
    expect(shown).not_to_contain_text(CAPPED_NOTE)


# Accessibility: what a blind, keyboard-only, low-vision or colour-blind player meets.

# axe-core, the engine of automated accessibility checks, as the axe-playwright-python
# package ships it (only its script is used: it is run in the page as it is).
AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
HOST_PAGE = """<!doctype html>
<html lang="{lang}">
<head><title>A game with hint buttons</title></head>
<body><main>
<h1>A game</h1>
<script type="module" src="{service}/static/meldwise-hint.js"></script>
<meldwise-hint label="Player 1" hint-level="full" heading-level="2"></meldwise-hint>
<meldwise-hint label="Player 2" heading-level="2"></meldwise-hint>
<script type="module">
  await customElements.whenDefined("meldwise-hint");
  const [one, two] = document.querySelectorAll("meldwise-hint");
  one.state = {state};
  two.state = {{rack: ["R1", "Q5"]}};
</script>
</main></body>
</html>
"""


def axe_violations(page: Page, state: str) -> list[str]:
    """The serious and critical violations axe-core finds in ``page`` as it stands,
    and content outside every landmark (moderate to axe, but a screen reader's user
    who jumps to the main content skipped the game's tabs, which lay outside it), and
    a heading level skipped (moderate too: the answers' h3 lay under the page's h1;
    the element on a game's page is told the level by its heading-level attribute),
    each with the state of the page it was found in and the elements at fault."""
    also = {"region", "heading-order"}
    page.evaluate(AXE)
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{state}: {violation['impact']} {violation['id']} at "
        + ", ".join(str(node["target"]) for node in violation["nodes"][:4])
        for violation in found["violations"]
        if violation["impact"] in ("serious", "critical") or violation["id"] in also
    ]


def opening_record(service: str) -> dict[str, Any]:
    """A bot game's record cut after its first play: quick to review."""
    record = httpx.post(
        f"{service}{GAME}", json={"bots": ["greedy", "greedy"], "seed": 1}, timeout=60
    ).json()["record"]
    assert isinstance(record, dict)
    record = {**record, "turns": record["turns"][:4]}
    del record["result"]
    return record


def wait_drawn(page: Page, selector: str) -> None:
    """Wait until the answer or error ``selector`` finds is drawn (not empty)."""
    page.locator(f"{selector}:not(:empty)").first.wait_for()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_serious_accessibility_violations_in_any_tab_or_the_element(
    service: str, page: Page, lang: str
) -> None:
    # axe-core on each tab with its answers and with its errors shown, and on the
    # element on a game's page (one element with a full hint, one with an error): in
    # either language, no serious or critical violation (names, roles, contrast, lang,
    # duplicate ids, ARIA misuse). Each check takes seconds: few states, each showing
    # as much as it can at once.
    record = opening_record(service)
    found: list[str] = []
    open_in(page, service, lang)
    page.locator("#rummikub-example").click()
    page.locator("#table-before").fill("B7 K7 O7 R7")
    for _ in range(3):
        press_hint(page)
    page.locator("#repair-run").click()
    wait_drawn(page, "#repair-answer")
    found += axe_violations(page, "a full hint and a repair")
    page.locator("#rack").fill("R1 Q5")
    press_hint(page)
    page.locator("#repair-run").click()
    wait_drawn(page, "#repair-error")
    found += axe_violations(page, "the errors of a hint and a repair")

    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    page.locator("#phase").select_option("draw")
    page.locator("#shanghai-advise").click()
    wait_drawn(page, "#shanghai-answer")
    found += axe_violations(page, "Shanghai advice")
    page.locator("#hand").fill("ZZ 7H")
    page.locator("#shanghai-advise").click()
    wait_drawn(page, "#shanghai-error")
    found += axe_violations(page, "Shanghai's error")

    page.locator("#tab-review").click()
    page.locator("#record").fill(json.dumps(record))
    page.locator("#review-run").click()
    page.locator("#review-output:not([hidden])").wait_for()
    found += axe_violations(page, "a review")

    state = json.dumps({"rack": ["K8", "K9", "O1", "J"], "table": [["O10", "O11", "O12"]]})
    host = HOST_PAGE.format(lang=lang, service=service, state=state)
    with second_origin({"/game.html": host}) as game:
        page.goto(f"{game}/game.html")
        for hint in page.locator("meldwise-hint").all():
            hint.get_by_role("button").click()
        page.locator("meldwise-hint[aria-busy=false]").nth(1).wait_for()
        wait_drawn(page, "meldwise-hint .error")
        wait_drawn(page, "meldwise-hint .answer")
        found += axe_violations(page, "the element")
    assert found == [], "\n".join(found)


def test_the_elements_heading_level_attribute_fits_its_headings_to_the_page(
    service: str, page: Page
) -> None:
    # The answer's headings were h3 on any page: under a game page's h1 a level was
    # skipped (axe-core's heading-order), and the element could not be told otherwise.
    state = json.dumps({"rack": ["K8", "K9", "O1", "J"], "table": [["O10", "O11", "O12"]]})
    host = HOST_PAGE.format(lang="en", service=service, state=state)
    with second_origin({"/game.html": host}) as game:
        page.goto(f"{game}/game.html")
        hint = page.locator("meldwise-hint").first
        hint.evaluate("element => element.removeAttribute('heading-level')")
        hint.get_by_role("button").click()
        wait_drawn(page, "meldwise-hint .answer")
        expect(hint.locator(".answer h3")).to_have_count(3)  # as it was: Steps, Table, Rack
        skipped = axe_violations(page, "the element without heading-level")
        assert skipped, "no heading-order violation found under the page's h1"
        assert all(" heading-order " in found for found in skipped), skipped
        # Set on the element showing an answer: its headings follow at once.
        hint.evaluate("element => element.setAttribute('heading-level', '2')")
        expect(hint.locator(".answer h2")).to_have_count(3)
        expect(hint.locator(".answer h3")).to_have_count(0)
        assert axe_violations(page, "heading-level 2") == []
        # A level no heading has is none: the default, h3.
        hint.evaluate("element => element.setAttribute('heading-level', '7')")
        expect(hint.locator(".answer h3")).to_have_count(3)
        # Set before a press: the answer is drawn at that level.
        hint.evaluate("element => element.setAttribute('heading-level', '4')")
        hint.get_by_role("button").click()
        expect(hint).to_have_attribute("aria-busy", "false")
        expect(hint.locator(".answer h4")).to_have_count(3)
        expect(hint.get_by_role("heading", level=4, name="Steps")).to_be_visible()


# Each piece drawn in each of its states, with its text colour and its background:
# the tiles of all eight colours a game may have, plain, from the rack (played), missed
# (the review's rack) and not a tile; cards plain, red, played and not a card.
DRAWN_PIECES = """async () => {
  const { drawCard, drawTile } = await import("./static/tiles.js");
  const pieces = [];
  for (const colour of "RBKOGYPW") {
    for (const state of ["plain", "played", "missed"]) {
      const tile = drawTile(`${colour}10`, { colours: 8, played: state === "played" });
      if (state === "missed") tile.classList.add("missed");
      pieces.push([`${colour}10 ${state}`, tile]);
    }
  }
  pieces.push(["not a tile", drawTile("Q5")], ["joker as R6", drawTile("J(R6)")]);
  for (const text of ["7S", "7H", "JK"]) pieces.push([text, drawCard(text)]);
  pieces.push(["7H played", drawCard("7H", { played: true })], ["not a card", drawCard("ZZ")]);
  const box = document.querySelector("#rummikub-form");
  box.append(...pieces.map(([, piece]) => piece));
  const found = [];
  for (const [name, piece] of pieces) {
    const background = getComputedStyle(piece).backgroundColor;
    for (const text of piece.querySelectorAll("span")) {
      found.push([`${name}: ${text.textContent}`, getComputedStyle(text).color, background]);
    }
  }
  return found;
}"""


def test_every_piece_is_drawn_readable_on_its_background(service: str, page: Page) -> None:
    # An orange tile's number was #e65100 on the tile's #fffdf4, 3.7:1, and the yellow
    # Japanese pages draw it in #a07800, 4.0:1, a white tile's (8 colours) 3.3:1 and a
    # word that is no tile 2.8:1: under the 4.5:1 of WCAG AA for text of their size.
    # Every piece's text in every state meets it (axe-core checks only the two-digit
    # ones: it leaves one letter alone).
    open_in(page, service, "en")
    low = []
    for name, colour, background in page.evaluate(DRAWN_PIECES):
        if background == "rgba(0, 0, 0, 0)":  # a joker's gradient: checked by its ends
            ends = ["rgb(255, 233, 179)", "rgb(255, 201, 217)"]
        else:
            ends = [background]
        for end in ends:
            ratio = page.evaluate(CONTRAST, [colour, end])
            if ratio < 4.5:
                low.append(f"{name} {colour} on {end}: {ratio:.2f}")
    assert low == [], "\n".join(low)


def test_the_highlight_of_a_played_piece_stands_out_from_the_page(service: str, page: Page) -> None:
    # The outline that marks the tiles a play lays from the rack (and the cards laid
    # off) was #f2a900, 2.0:1 against the white answer: under the 3:1 that WCAG AA asks
    # of what a player must see to follow the answer (non-text contrast).
    open_in(page, service, "en")
    outlines = page.evaluate(
        """async () => {
          const { drawCard, drawTile } = await import("./static/tiles.js");
          const pieces = [drawTile("R5", { played: true }), drawCard("7H", { played: true })];
          document.querySelector("#rummikub-form").append(...pieces);
          return pieces.map((piece) => getComputedStyle(piece).outlineColor);
        }"""
    )
    background = page.locator("#panel-rummikub").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    for outline in outlines:
        assert page.evaluate(CONTRAST, [outline, background]) >= 3, outline


@pytest.mark.parametrize(
    ("lang", "marks"), [("en", ["R", "B", "K", "O"]), ("ja", ["赤", "青", "黒", "黄"])]
)
def test_a_tiles_colour_is_written_on_it_not_only_drawn(
    service: str, page: Page, lang: str, marks: list[str]
) -> None:
    # A red, an orange and a black 7 were the same "7" in three colours: a player
    # who cannot tell red from orange (or reads the page in grey) could not tell them
    # apart. Each tile also writes its colour, as the notation does (in Japanese, as
    # the names do); a Shanghai card shows its suit's symbol.
    open_in(page, service, lang)
    sevens = [
        page.locator(f"#rummikub-palette .tile.c-{colour}").nth(6).inner_text().split()
        for colour in ("R", "B", "K", "Y" if lang == "ja" else "O")
    ]
    assert sevens == [["7", mark] for mark in marks]
    page.locator("#rack").fill("R7 J(O7)")
    drawn = page.locator("#rack-preview .tile").all_inner_texts()
    assert [text.split() for text in drawn] == [["7", marks[0]], ["J", "O7"]]
    # And a screen reader hears the tile's name, a joker's with the tile it stands for.
    names = {
        "en": ["remove red 7", "remove joker as orange 7"],
        "ja": ["赤7を取り除く", "ジョーカー(黄7として)を取り除く"],
    }[lang]
    for tile, name in zip(page.locator("#rack-preview .tile").all(), names, strict=True):
        expect(tile).to_have_accessible_name(name)
    page.locator("#tab-shanghai").click()
    cards = [
        page.locator(f'#shanghai-palette [data-card="7{suit}"]').inner_text() for suit in "SHDC"
    ]
    assert cards == ["7\u2660", "7\u2665", "7\u2666", "7\u2663"]


# The element with the keyboard focus, in whatever shadow tree it is.
FOCUSED_ELEMENT = """() => {
  let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return focused;
}"""
# What shows an element's focus: its outline and its shadow.
FOCUS_STYLE = """(e) => {
  const style = getComputedStyle(e);
  return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} ${style.outlineOffset}`
    + ` / ${style.boxShadow}`;
}"""


def test_the_keyboard_focus_is_seen_on_every_control(service: str, page: Page) -> None:
    # A text field that takes the palette's pieces wears an orange outline, and a
    # field took it on focus: tabbing into the rack, the table or the hand changed
    # nothing on screen. The review's turn shown wore the focus ring's outline too,
    # so Tab landing there showed nothing new. Every control Tab reaches in each tab
    # looks different focused from what it looks once the focus has moved on.
    record = opening_record(service)
    page.goto(service)
    page.locator("#rummikub-example").click()
    page.locator("#tab-review").click()
    page.locator("#record").fill(json.dumps(record))
    page.locator("#review-run").click()
    page.locator("#review-output:not([hidden])").wait_for()
    unseen = []
    for tab in ("Rummikub", "Shanghai", "Review"):
        page.get_by_role("tab", name=tab).click()
        page.get_by_role("tab", name=tab).focus()
        walked = []
        for _ in range(60):
            page.keyboard.press("Tab")
            focused = page.evaluate_handle(FOCUSED_ELEMENT).as_element()
            if focused is None or focused.evaluate("e => e === document.body"):
                break
            walked.append((focused, focused.evaluate(FOCUS_STYLE)))
        else:
            pytest.fail(f"{tab}: Tab never left the page")  # a trap
        assert len(walked) > 5, tab
        page.get_by_role("tab", name=tab).focus()  # the focus moves on
        for control, style in walked:
            if control.evaluate(FOCUS_STYLE) == style:
                name = control.evaluate(
                    "e => e.getAttribute('aria-label') || e.id || e.textContent"
                )
                unseen.append(f"{tab}: {name.strip()[:40]} {style}")
    assert unseen == [], "\n".join(unseen)


@pytest.mark.parametrize(("lang", "said"), [("en", "illegal"), ("ja", "ルール違反")])
def test_an_illegal_turn_in_the_reviews_list_says_so_not_only_in_red(
    service: str, page: Page, lang: str, said: str
) -> None:
    # An illegal turn was marked in the list of turns by its red alone: a colour-blind
    # player, and a screen reader, met "2. P1 played 0 / best 0" as any other turn.
    opening = {"turn": 1, "player": 0, "rack": ["R1", "R2", "R3", "K5"], "table_before": [],
               "action": "play", "played": ["R1", "R2", "R3"],
               "table_after": [["R1", "R2", "R3"]]}  # fmt: skip
    broken = {"turn": 2, "player": 1, "rack": ["B1", "B2"], "table_before": [["R1", "R2", "R3"]],
              "action": "play", "table_after": [["R1", "R2", "R3"], ["B1", "B2"]]}  # fmt: skip
    open_in(page, service, lang)
    page.locator("#tab-review").click()
    for record, illegal in ((opening_record(service), False), ({"turns": [opening, broken]}, True)):
        page.locator("#record").fill(json.dumps(record))
        with page.expect_response(lambda r: r.url.endswith(REVIEW)):
            page.locator("#review-run").click()
        turns = page.locator("#review-turns button")
        expect(turns.first).to_be_visible()
        assert turns.count() == len(record["turns"])
        for turn in turns.all():
            assert (said in turn.inner_text()) == illegal, turn.inner_text()
            expect(turn).to_have_accessible_name(turn.inner_text())


# Counts the changes made to the live region ``region`` (an element) from now on.
WATCH_LIVE_REGION = """(region) => {
  window.liveWatch?.disconnect();
  window.liveChanges = 0;
  window.liveWatch = new MutationObserver((records) => { window.liveChanges += records.length; });
  window.liveWatch.observe(region, { childList: true, subtree: true, characterData: true });
}"""


def test_an_answer_comes_into_its_live_region_whole_at_once(service: str, page: Page) -> None:
    # A screen reader reads a polite live region's changes as they come: an answer put
    # in piece by piece would be read in pieces (or only its last). The hint's answer
    # and the Shanghai advice each arrive as one change of a status region. And the
    # region is there before it: the empty regions were display: none, no live region
    # to a screen reader until the answer itself showed them (often not read then).
    page.goto(service)
    page.locator("#rummikub-example").click()
    answer = page.locator("meldwise-hint").get_by_role("status")
    expect(answer).to_have_attribute("aria-live", "polite")
    for _ in range(3):
        answer.evaluate(WATCH_LIVE_REGION)
        press_hint(page)
        expect(answer).not_to_be_empty()
        assert page.evaluate("window.liveChanges") == 1
    page.locator("#tab-shanghai").click()
    page.locator("#shanghai-example").click()
    advice = page.get_by_role("status").and_(page.locator("#shanghai-answer"))
    expect(advice).to_have_attribute("aria-live", "polite")
    advice.evaluate(WATCH_LIVE_REGION)
    _advise(page)
    expect(advice).not_to_be_empty()
    assert page.evaluate("window.liveChanges") == 1


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_tab_says_a_record_of_a_newer_format_is_one(
    service: str, page: Page, lang: str
) -> None:
    """It said "'record.version' must be at most 1, got 2", as if the record were
    malformed; it is of a newer format than this Meldwise reads."""
    record = {**shanghai_game("lazy"), "version": 2}
    _open_review_of(service, page, "shanghai", lang)
    _, answer = _review_shanghai(page, record)
    assert answer.status == 422
    said = {
        "en": "the record is of a newer format (version 2) than this Meldwise reads (version 1)",
        "ja": "この記録は、この Meldwise が読む形式 (版 1) より新しい形式 (版 2) のものです",
    }
    assert said[lang] in answer.json()["detail"]
    expect(page.locator("#review-form").get_by_role("alert")).to_contain_text(said[lang])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_tab_says_a_record_over_the_body_limit_is_too_large(
    service: str, page: Page, lang: str
) -> None:
    """It showed the service's own words for any request, "the request body is larger
    than the limit of 524288 bytes": the page knows it posted a record."""
    limit = Settings().record_body_limit_bytes
    _open_review_of(service, page, "rummikub", lang)
    page.locator("#record").fill(json.dumps({"turns": [], "pad": "x" * limit}))
    with page.expect_response(lambda r: r.url.endswith(REVIEW)) as answer:
        page.locator("#review-run").click()
    assert answer.value.status == 413
    assert str(limit) in answer.value.json()["detail"]
    said = {
        "en": f"The game record is too large for the service: it reviews a record of at most"
        f" {limit} bytes.",
        "ja": "ゲーム記録がサービスには大きすぎます。"
        f"サービスが振り返る記録は{limit}バイトまでです。",
    }
    expect(page.locator("#review-form").get_by_role("alert")).to_have_text(said[lang])
