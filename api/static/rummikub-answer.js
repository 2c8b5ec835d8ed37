// A Rummikub hint drawn for a person: the three hint levels of the service's
// answer (README: "Hint levels", "Steps a person can follow").

import { translator } from "./i18n.js";
import { drawSet, drawTile, tileName } from "./tiles.js";
import { cappedNote } from "./time-capped.js";

// The fields every answer of a hint level carries, and their kinds (solver/rummikub/
// wire.py: NudgeAnswer, TileAnswer, FullAnswer; advice and free_jokers only when
// asked for). "?": may be null.
const ALWAYS = { hint_level: "string", status: "string", tiles_played: "number", time_capped: "boolean" };
const LEVEL_FIELDS = {
  nudge: { can_play: "boolean" },
  tile: { can_play: "boolean", tile: "string?", to_set: "number?", text: "string" },
  full: {
    points_played: "number", played: "array", rack_left: "array", table: "array",
    sets_kept: "number", tiles_moved: "number", disruption_proven: "boolean", steps: "array",
  },
};

function kindOf(value) {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

// The fields of each set of a full answer's table (wire.py: NumberedSetOut).
const SET_FIELDS = {
  kind: "string", tiles: "array", as: "array", set: "number", from_rack: "array", from_rack_places: "array",
};

/** Whether ``value`` is an object with each of ``fields``, of its kind. */
function fits(value, fields) {
  return (
    kindOf(value) === "object" &&
    Object.entries(fields).every(([name, kind]) => {
      const found = kindOf(value[name]);
      return found === kind.replace("?", "") || (kind.endsWith("?") && found === "null");
    })
  );
}

/** Whether ``answer`` is a hint of ``level`` as the service gives one: with every
 * field that level always carries, of its kind (a full answer's sets too). Another
 * endpoint's JSON that only looks like one ({"hint_level": "nudge"} alone) was drawn
 * as "No play found". */
export function isHintAnswer(answer, level) {
  return (
    answer.hint_level === level &&
    fits(answer, { ...ALWAYS, ...LEVEL_FIELDS[level] }) &&
    (level !== "full" || answer.table.every((set) => fits(set, SET_FIELDS)))
  );
}

/** What a play's ``status`` leaves unproven, or null when it is proven. */
export function statusNote(status, tr) {
  if (status === "feasible") {
    return tr.t("A search stopped at its limit: this is the best play found, not proven the best.");
  }
  if (status === "unknown") return tr.t("A search stopped at its limit before any play was found.");
  return null;
}

export function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

/** A heading of an answer: h3 under a page's h2 (the demo's tabs), or ``level``. */
export function heading(text, level = 3) {
  const h = document.createElement(`h${level}`);
  h.textContent = text;
  return h;
}

/** Marks, set by set of ``table`` (lists of tiles), which tiles came from the rack:
 * those at ``places`` (set by set, the answer's from_rack_places). Its from_rack, the
 * tiles alone, cannot tell a joker from the rack from a table joker beside it. */
export function playedMarks(table, places) {
  return table.map((tiles, place) => tiles.map((_, i) => places[place].includes(i)));
}

/** The name of a set of a new table: its number in the steps (``set``), as they
 * speak of it ("as set 4" in a table of 4 sets). */
export function setName(set, tr) {
  return tr.t("set {index}", { index: set.set });
}

function describeSet(set, tr) {
  const kind = set.kind === "run" ? tr.t("run") : tr.t("group");
  return tr.t("{kind} {tiles}", { kind, tiles: set.as.join(" ") });
}

/** ``answer``'s table after, its tiles from the rack marked by ``marks``
 * (:func:`playedMarks`). */
function drawTable(answer, marks, tr, colours) {
  const table = document.createElement("div");
  table.className = "table-after";
  answer.table.forEach((set, place) => {
    const tiles = set.tiles.map((tile, i) =>
      drawTile(tile, { as: set.as[i], played: marks[place][i], tr, colours }),
    );
    const name = setName(set, tr);
    table.append(drawSet(name, tiles, tr.t("{set}: {meld}", { set: name, meld: describeSet(set, tr) })));
  });
  return table;
}

/** What to do when the answer places nothing: draw, unless the search stopped
 * before proving that no play exists, or the rack is empty (nothing to play, and
 * nothing to draw for), as the service's tile hint says. */
function noPlayText(status, rackEmpty, tr) {
  if (rackEmpty) return tr.t("Your rack is empty: there is nothing to play.");
  return status === "optimal"
    ? tr.t("No play this turn: draw a tile.")
    : tr.t("No play found before the search stopped.");
}

/** The tiles ``answer`` plays, each a joker written with what it stands for where
 * the table after lays it (J(R7), named "joker as red 7"; the rack's tiles there by
 * ``marks``), in ``answer.played``'s order: the summary's "joker" alone did not say
 * where it goes. */
function playedAsLaid(answer, marks) {
  const meant = answer.table.flatMap((set, place) =>
    set.tiles.flatMap((tile, i) => (marks[place][i] && set.as[i] !== tile.replace(/\(.*\)$/, "") ? [set.as[i]] : [])),
  );
  return answer.played.map((tile) => (tile === "J" && meant.length ? `J(${meant.shift()})` : tile));
}

function drawFull(answer, tr, colours, level) {
  const parts = [];
  const marks = playedMarks(
    answer.table.map((set) => set.tiles),
    answer.table.map((set) => set.from_rack_places),
  );
  if (answer.tiles_played === 0) {
    parts.push(paragraph(noPlayText(answer.status, answer.rack_left.length === 0, tr), "summary"));
  } else {
    parts.push(
      paragraph(
        tr.tn(
          "Play {n} tile ({points}): {tiles}.",
          "Play {n} tiles ({points}): {tiles}.",
          answer.tiles_played,
          {
            points: tr.tn("{n} point", "{n} points", answer.points_played),
            tiles: playedAsLaid(answer, marks).map((t) => tileName(t, tr, colours) ?? t).join(tr.t(", ")),
          },
        ),
        "summary",
      ),
    );
    parts.push(heading(tr.t("Steps"), level));
    const steps = document.createElement("ol");
    steps.className = "steps";
    for (const step of answer.steps) {
      const item = document.createElement("li");
      item.textContent = step.text;
      steps.append(item);
    }
    parts.push(steps);
  }
  parts.push(heading(tr.t("Table after (your tiles highlighted)"), level));
  parts.push(drawTable(answer, marks, tr, colours));
  if (answer.rack_left.length > 0) {
    parts.push(heading(tr.t("Rack left"), level));
    parts.push(drawSet(tr.t("rack"), answer.rack_left.map((t) => drawTile(t, { tr, colours })), tr.t("rack left")));
  }
  return parts;
}

function drawTileHint(answer, tr, colours) {
  const parts = [paragraph(answer.text, "summary")];
  if (answer.tile !== null) {
    const where = answer.to_set === null ? tr.t("to a new set") : tr.t("to set {index}", { index: answer.to_set });
    parts.push(
      // Named as the tile is (a screen reader read the code "K8" as letters).
      drawSet(where, [drawTile(answer.tile, { played: true, tr, colours })], tr.t("{tile} {where}", {
        tile: tileName(answer.tile, tr, colours) ?? answer.tile,
        where,
      })),
    );
  }
  return parts;
}

function drawNudge(answer, rack, tr) {
  const text = answer.can_play
    ? tr.tn("You can play {n} tile this turn.", "You can play {n} tiles this turn.", answer.tiles_played)
    : noPlayText(answer.status, rack?.length === 0, tr);
  return [paragraph(text, "summary")];
}

/** The elements showing ``answer`` (any hint level), in ``tr``'s language (i18n.js),
 * for a game of ``colours`` colours (the request's rules.colours; default the standard 4);
 * ``rack``, the request's, tells a nudge that it is empty (the answer does not say);
 * ``level``: its headings' (h3 by default). */
export function drawAnswer(answer, tr = translator("en"), colours = undefined, rack = undefined, level = 3) {
  const parts =
    answer.hint_level === "full"
      ? drawFull(answer, tr, colours, level)
      : answer.hint_level === "tile"
        ? drawTileHint(answer, tr, colours)
        : drawNudge(answer, rack, tr);
  for (const note of [statusNote(answer.status, tr), calmNote(answer, tr)]) {
    if (note) parts.push(paragraph(note, "note"));
  }
  // The body said the clock cut a search; the page said it only of a status short of
  // proven (a tile hint, a nudge and a proven play with table moves not proven the
  // fewest had no word, where the answer may differ on an idle server).
  if (answer.time_capped) parts.push(cappedNote(tr));
  return parts;
}

/** A full answer whose table moves are not proven the fewest (``disruption_proven``
 * false: the least-disruption search skipped, or stopped at a limit) says so, as the
 * command line does: its steps may move table tiles that need not move. */
export function calmNote(answer, tr) {
  if (answer.hint_level !== "full" || answer.disruption_proven || answer.tiles_played === 0) {
    return null;
  }
  return tr.t("Not proven to disturb the table least: a play as good may move fewer table tiles.");
}
