// The demo page: a position editor for each game, the <meldwise-hint> element and
// "Repair the table" for Rummikub, the advice of the Shanghai tab and the review of a Rummikub game.

import "./meldwise-hint.js";
import { Palette, PieceField } from "./editor.js";
import { setUpRepair } from "./repair.js";
import { setUpReview } from "./review.js";
import { setUpShanghai } from "./shanghai.js";
import { styleSheet } from "./styles.js";
import { COLOURS, drawTile } from "./tiles.js";

const EXAMPLE = { rack: "K8 K9 O1", table: "B7 K7 O7 R7\nR1 R2 R3" }; // README's worked example

function setUpTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const select = (tab) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab));
    // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(index + step + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  });
}

function setUpRummikub() {
  const form = document.getElementById("rummikub-form");
  const hint = document.getElementById("rummikub-hint");
  const rack = new PieceField(form.rack, document.getElementById("rack-preview"), {
    draw: drawTile,
  });
  const table = new PieceField(form.table, document.getElementById("table-preview"), {
    draw: drawTile,
    setName: (index) => `set ${index}`,
  });
  const tiles = [
    ...Object.keys(COLOURS).slice(0, 4).flatMap((colour) =>
      Array.from({ length: 13 }, (_, i) => `${colour}${i + 1}`),
    ),
    "J",
  ];
  new Palette(
    document.getElementById("rummikub-palette"),
    tiles,
    drawTile,
    [rack, table],
    document.getElementById("rummikub-target"),
  );
  // Every change is a new position: the element starts again from the nudge.
  const update = () => {
    hint.state = {
      rack: rack.words(),
      table: table.lines().map((line) => line.words),
      opened: form.opened.value === "true",
      objective: form.objective.value,
    };
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    hint.hint().catch(() => {});
  });
  document.getElementById("rummikub-example").addEventListener("click", () => {
    rack.setText(EXAMPLE.rack);
    table.setText(EXAMPLE.table);
  });
  document.getElementById("rummikub-clear").addEventListener("click", () => {
    rack.setText("");
    table.setText("");
  });
  setUpRepair(form, rack, table);
  update();
}

document.adoptedStyleSheets = [...document.adoptedStyleSheets, styleSheet()];
setUpTabs();
setUpRummikub();
setUpShanghai();
setUpReview();
