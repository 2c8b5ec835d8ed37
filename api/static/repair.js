// "Repair the table": the table as it lies (loose tiles and broken sets allowed) sent
// to /v1/rummikub/repair, and the answer drawn (docs/repair.md).

import { isBusy, setBusy } from "./busy.js";
import { errorText, labelOf, pieces, sets } from "./field-names.js";
import { translator } from "./i18n.js";
import { RequestSlot } from "./request-slot.js";
import { calmNote, heading, paragraph, playedMarks, setName, statusNote } from "./rummikub-answer.js";
import { postJson } from "./service.js";
import { drawSet, drawTile } from "./tiles.js";
import { cappedNote } from "./time-capped.js";

const ENDPOINT = "v1/rummikub/repair";

function steps(list) {
  const ol = document.createElement("ol");
  ol.className = "steps";
  for (const step of list) {
    const item = document.createElement("li");
    item.textContent = step.text;
    ol.append(item);
  }
  return ol;
}

/** The sets of ``arranged`` (an arrangement or a play), each named by the number its
 * steps give it, the tiles a play lays from the rack marked (its from_rack_places). */
function table(arranged, className, tr) {
  const div = document.createElement("div");
  div.className = className;
  const marks = playedMarks(
    arranged.table.map((set) => set.tiles),
    arranged.table.map((set) => set.from_rack_places),
  );
  arranged.table.forEach((set, place) => {
    const tiles = set.tiles.map((tile, i) => drawTile(tile, { as: set.as[i], played: marks[place][i], tr }));
    const name = setName(set, tr);
    const kind = set.kind === "run" ? tr.t("run") : tr.t("group");
    div.append(drawSet(name, tiles, tr.t("{set}: {meld}", { set: name, meld: tr.t("{kind} {tiles}", { kind, tiles: set.as.join(" ") }) })));
  });
  return div;
}

/** The elements showing a repair answer, in ``tr``'s language (i18n.js). */
export function drawRepair(answer, tr = translator("en")) {
  const arranged = answer.arrangement;
  const parts = [];
  // An empty table is "repairable" to the service: say what it is instead.
  const empty = answer.repairable && arranged?.table.length === 0;
  if (answer.repairable === null) {
    // Not settled (status "unknown"): neither repairable nor beyond repair is claimed.
    parts.push(paragraph(tr.t("A search stopped at its limit before finding whether the table can be repaired."), "summary"));
  } else if (empty) {
    parts.push(paragraph(tr.t("There is nothing on the table."), "summary"));
  } else if (answer.repairable) {
    parts.push(paragraph(tr.t("The table can be repaired: every tile fits into valid sets."), "summary"));
  } else if (!arranged) {
    // Proven beyond repair, but the search stopped before finding any arrangement:
    // there are no tiles to name (the list came out empty, "... are .").
    parts.push(paragraph(
      tr.t("The table cannot be repaired, and a search stopped at its limit before finding which tiles can be placed."),
      "summary",
    ));
  } else {
    const tiles = arranged.left_out.join(" ");
    parts.push(
      paragraph(
        answer.status === "optimal"
          ? tr.t("The table cannot be repaired: the fewest tiles that cannot be placed are {tiles}.", { tiles })
          : tr.t("The table cannot be repaired: the fewest tiles found that cannot be placed are {tiles}.", { tiles }),
        "summary",
      ),
    );
  }
  if (arranged && !empty) {
    if (arranged.steps.length > 0) {
      parts.push(heading(answer.repairable ? tr.t("Steps") : tr.t("Steps to place the most tiles")));
      parts.push(steps(arranged.steps));
    }
    parts.push(heading(answer.repairable ? tr.t("Table repaired") : tr.t("The most tiles that fit")));
    parts.push(table(arranged, "table-repaired", tr));
    if (!arranged.disruption_proven && arranged.steps.length > 0) {
      // As the command line says it: these steps may move tiles that need not move.
      parts.push(paragraph(
        tr.t("Not proven to disturb the table least: an arrangement as good may move fewer table tiles."),
        "note",
      ));
    }
  }
  if (answer.penalty) parts.push(paragraph(answer.penalty.text, "penalty"));
  const rescue = answer.rescue;
  if (rescue && rescue.play) {
    const play = rescue.play;
    parts.push(heading(tr.t("With your rack: play {tiles}", { tiles: play.played.join(" ") || tr.t("nothing") })));
    // A rescue the search did not prove (status feasible) was shown as the best one.
    if (rescue.status === "feasible") parts.push(paragraph(statusNote(rescue.status, tr), "note"));
    // Playing nothing, its steps and table are the repair's, already shown above.
    if (play.played.length > 0) {
      parts.push(steps(play.steps));
      parts.push(table(play, "table-rescued", tr));
      const note = calmNote(play, tr);
      if (note) parts.push(paragraph(note, "note"));
    }
  } else if (rescue) {
    // None found is none only when proven: a search the limit stopped (status unknown)
    // said "No play ... rescues the table" as if it were.
    parts.push(paragraph(rescue.status === "optimal"
      ? tr.t("No play with your rack rescues the table.")
      : tr.t("No play with your rack that rescues the table was found before the search stopped."), "note"));
  }
  if (answer.time_capped) parts.push(cappedNote(tr));
  return parts;
}

/** Wire the "Repair the table" button to the Rummikub tab's ``rack``, ``table`` and
 * ``before`` (the table before the turn) fields (PieceField); ``language()`` gives the
 * page's current translator. Returns the function to call when the page's language
 * changes. */
export function setUpRepair(form, rack, table, before, language) {
  const button = document.getElementById("repair-run");
  const answer = document.getElementById("repair-answer");
  const error = document.getElementById("repair-error");
  const slot = new RequestSlot(() => setBusy(button, false));
  // The fields the service's errors name, by the labels shown.
  const fields = {
    rack: pieces(() => labelOf(rack.input)),
    table: sets(() => labelOf(table.input)),
    table_before: sets(() => labelOf(before.input)),
  };
  const forget = () => {
    slot.free();
    answer.replaceChildren();
    error.replaceChildren();
  };
  // A changed position: the answer, and one still on its way, are about the old one.
  form.addEventListener("input", forget);
  before.input.addEventListener("input", forget);
  button.addEventListener("click", async () => {
    if (isBusy(button)) return; // the answer is on its way
    const tr = language();
    const request = { table: table.lines().map((line) => line.words) };
    const earlier = before.lines().map((line) => line.words);
    // A player who has not opened may not touch the table: the service judges their
    // turn ("opened": false) from the table before it, which tells the tiles they
    // laid down. Left empty, that table was empty (the game's first turns).
    const opening = form.elements.namedItem("opened")?.value === "false";
    if (opening) request.opened = false;
    if (opening || earlier.length > 0) request.table_before = earlier;
    const tiles = rack.words();
    if (tiles.length > 0) request.rack = tiles;
    request.lang = tr.lang;
    if (tr.lang === "ja") request.notation = "RBYK";
    const mine = slot.begin(button);
    try {
      const repaired = await postJson(ENDPOINT, request, {
        signal: mine.signal,
        tr,
        // true, false (proven beyond repair) or null (not settled: the search stopped)
        expected: (answer) => typeof answer.repairable === "boolean" || answer.repairable === null,
      });
      if (!slot.holds(mine)) return;
      error.replaceChildren();
      const parts = drawRepair(repaired, tr);
      if (opening && earlier.length === 0 && request.table.length > 0) {
        parts.push(paragraph(tr.t("Judged as the turn of a player who has not opened, from an empty table: every tile on it was laid down this turn. If there were sets before the turn, enter them under \"Table before the turn\"."), "note"));
      }
      answer.replaceChildren(...parts);
    } catch (failure) {
      if (failure.name === "AbortError") return;
      answer.replaceChildren();
      error.textContent = errorText(failure, fields, tr);
    } finally {
      slot.end(mine);
    }
  });
  return forget; // another language: the answer (and one on its way) is in the old one
}
