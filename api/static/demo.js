// The demo page: a position editor for each game, the <meldwise-hint> element and
// "Repair the table" for Rummikub, the advice of the Shanghai tab and the review of a
// game of either.
//
// The page speaks English or Japanese: ?lang=ja, else the switch's last choice, else
// the browser's languages. In Japanese the fourth colour is 黄 (yellow): the palette
// writes it Y, drawn yellow, and answers come back in that notation (RBYK).

import "./meldwise-hint.js";
import { Palette, PieceField } from "./editor.js";
import { labelOf } from "./field-names.js";
import { browserLanguage, loadTranslator, supported, translatePage, translator } from "./i18n.js";
import { setUpRepair } from "./repair.js";
import { setUpReview } from "./review.js";
import { RUMMIKUB_REVIEW } from "./review-rummikub.js";
import { SHANGHAI_REVIEW } from "./review-shanghai.js";
import { setUpShanghai } from "./shanghai.js";
import { styleSheet } from "./styles.js";
import { COLOURS, drawTile } from "./tiles.js";

const EXAMPLES = {
  // README's worked example, and README.ja.md's in Japanese notation
  en: { rack: "K8 K9 O1", table: "B7 K7 O7 R7\nR1 R2 R3" },
  ja: { rack: "K8 K9 Y1", table: "B7 K7 Y7 R7\nR1 R2 R3" },
};
const STORED = "meldwise-lang";
const listeners = []; // called with the translator whenever the language changes

/** The page's first language: ?lang=, else the switch's last choice, else the browser's. */
function firstLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) return supported(asked);
  try {
    const stored = localStorage.getItem(STORED);
    if (stored) return supported(stored);
  } catch {
    // storage refused (privacy settings): follow the browser
  }
  return browserLanguage();
}

let asked = null; // the language last asked for

async function setLanguage(lang, remember) {
  asked = lang;
  // English if the catalogue fails to load: not remembered, the next press tries again.
  const tr = await loadTranslator(lang);
  // Another language was asked for while this one's catalogue loaded: that one stands.
  if (asked !== lang) return;
  document.documentElement.lang = tr.lang;
  document.title = tr.t("Meldwise: the best move, proven");
  translatePage(document, tr);
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === tr.lang));
  }
  if (remember && tr.lang === supported(lang)) {
    try {
      localStorage.setItem(STORED, tr.lang);
    } catch {
      // not remembered: the page still switches
    }
  }
  for (const listener of listeners) listener(tr);
}

function setUpLanguageSwitch() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.lang, true));
  }
}

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
    // Arrow keys move between tabs, Home and End to the first and last (the WAI-ARIA
    // tabs pattern).
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      const end = { Home: 0, End: tabs.length - 1 }[event.key];
      if (!step && end === undefined) return;
      event.preventDefault();
      const next = step ? tabs[(index + step + tabs.length) % tabs.length] : tabs[end];
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
    setName: (index, _owner, tr) => tr.t("set {index}", { index }),
  });
  // For the repair alone (outside the form: not part of the hint's position).
  const before = new PieceField(document.getElementById("table-before"), document.getElementById("table-before-preview"), {
    draw: drawTile,
    setName: (index, _owner, tr) => tr.t("set {index}", { index }),
  });
  // The standard game's colours; Japanese writes the fourth one Y (黄).
  const tiles = (tr) => [
    ...Object.keys(COLOURS).slice(0, 4).flatMap((colour) =>
      Array.from({ length: 13 }, (_, i) => `${tr.lang === "ja" && colour === "O" ? "Y" : colour}${i + 1}`),
    ),
    "J",
  ];
  let tr = translator("en");
  const palette = new Palette(
    document.getElementById("rummikub-palette"),
    tiles(tr),
    drawTile,
    [rack, table, before],
    document.getElementById("rummikub-target"),
  );
  // Every change is a new position: the element starts again from the nudge.
  const update = () => {
    hint.state = {
      rack: rack.words(),
      table: table.lines().map((line) => line.words),
      opened: form.opened.value === "true",
      objective: form.objective.value,
      ...(tr.lang === "ja" ? { notation: "RBYK" } : {}),
    };
  };
  listeners.push((next) => {
    tr = next;
    hint.setAttribute("lang", tr.lang);
    hint.fieldLabels = { rack: labelOf(form.rack), table: labelOf(form.table) };
    rack.setLanguage(tr);
    table.setLanguage(tr);
    before.setLanguage(tr);
    palette.render(tiles(tr), tr);
    update();
  });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  // Enter in a field presses the hint button, and as a press of the button does, it
  // waits for a hint on its way (hint() itself would abort that and ask again).
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (hint.getAttribute("aria-busy") !== "true") hint.hint().catch(() => {});
  });
  document.getElementById("rummikub-example").addEventListener("click", () => {
    rack.setText(EXAMPLES[tr.lang].rack);
    table.setText(EXAMPLES[tr.lang].table);
  });
  document.getElementById("rummikub-clear").addEventListener("click", () => {
    rack.setText("");
    table.setText("");
    before.setText("");
  });
  listeners.push(setUpRepair(form, rack, table, before, () => tr));
  update();
}

document.adoptedStyleSheets = [...document.adoptedStyleSheets, styleSheet()];
setUpTabs();
setUpLanguageSwitch();
setUpRummikub();
listeners.push(setUpShanghai());
listeners.push(setUpReview({ rummikub: RUMMIKUB_REVIEW, shanghai: SHANGHAI_REVIEW }));
setLanguage(firstLanguage(), false);
