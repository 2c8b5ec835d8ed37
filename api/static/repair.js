// "Repair the table": the table as it lies (loose tiles and broken sets allowed) sent
// to /v1/rummikub/repair, and the answer drawn (README: "Repair a table").

import { heading, paragraph } from "./rummikub-answer.js";
import { postJson } from "./service.js";
import { drawSet, drawTile } from "./tiles.js";

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

function table(sets, className) {
  const div = document.createElement("div");
  div.className = className;
  sets.forEach((set, place) => {
    const tiles = set.tiles.map((tile, i) => drawTile(tile, { as: set.as[i] }));
    div.append(drawSet(`set ${place}`, tiles, `set ${place}: ${set.kind} ${set.as.join(" ")}`));
  });
  return div;
}

/** The elements showing a repair answer. */
export function drawRepair(answer) {
  const arranged = answer.arrangement;
  const parts = [];
  if (answer.status === "unknown") {
    parts.push(paragraph("The time ran out before finding whether the table can be repaired.", "summary"));
  } else if (answer.repairable) {
    parts.push(paragraph("The table can be repaired: every tile fits into valid sets.", "summary"));
  } else {
    const out = arranged ? arranged.left_out.join(" ") : "";
    const fewest = answer.status === "optimal" ? "the fewest" : "the fewest found";
    parts.push(
      paragraph(`The table cannot be repaired: ${fewest} tiles that cannot be placed are ${out}.`, "summary"),
    );
  }
  if (arranged) {
    if (arranged.steps.length > 0) {
      parts.push(heading(answer.repairable ? "Steps" : "Steps to place the most tiles"));
      parts.push(steps(arranged.steps));
    }
    parts.push(heading(answer.repairable ? "Table repaired" : "The most tiles that fit"));
    parts.push(table(arranged.table, "table-repaired"));
  }
  if (answer.penalty) parts.push(paragraph(answer.penalty.text, "penalty"));
  const rescue = answer.rescue;
  if (rescue && rescue.play) {
    const play = rescue.play;
    parts.push(heading(`With your rack: play ${play.played.join(" ") || "nothing"}`));
    parts.push(steps(play.steps));
    parts.push(table(play.table, "table-rescued"));
  } else if (rescue) {
    parts.push(paragraph("No play with your rack rescues the table.", "note"));
  }
  return parts;
}

/** Wire the "Repair the table" button to the Rummikub tab's ``rack`` and ``table``
 * fields (PieceField). */
export function setUpRepair(form, rack, table) {
  const button = document.getElementById("repair-run");
  const answer = document.getElementById("repair-answer");
  const error = document.getElementById("repair-error");
  form.addEventListener("input", () => {
    answer.replaceChildren();
    error.replaceChildren();
  });
  let pending = null;
  button.addEventListener("click", async () => {
    pending?.abort();
    const mine = new AbortController();
    pending = mine;
    const request = { table: table.lines().map((line) => line.words) };
    const tiles = rack.words();
    if (tiles.length > 0) request.rack = tiles;
    button.disabled = true;
    try {
      const repaired = await postJson(ENDPOINT, request, { signal: mine.signal });
      error.replaceChildren();
      answer.replaceChildren(...drawRepair(repaired));
    } catch (failure) {
      if (failure.name === "AbortError") return;
      answer.replaceChildren();
      error.textContent = failure.message;
    } finally {
      if (pending === mine) button.disabled = false;
    }
  });
}
