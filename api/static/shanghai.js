// The demo page's Shanghai tab: a hand, the table and the upcard in, the turn's
// advice out (README: "Shanghai rummy", "What the answer means").

import { Palette, PieceField } from "./editor.js";
import { postJson } from "./service.js";
import { SUITS, drawCard, drawSet, splitWords } from "./tiles.js";

const ENDPOINT = "v1/shanghai/advise";
const CONTRACTS = [
  "2 sets of 3", "set of 3 + run of 4", "2 runs of 4", "3 sets of 3", "set of 3 + run of 7",
  "2 sets of 3 + run of 5", "3 runs of 4", "set of 3 + run of 10", "3 sets of 3 + run of 5",
  "3 runs of 5",
];
// README's example request (solver/shanghai/examples.py)
const EXAMPLE = {
  hand: "7H 7S 7D 3S 4S 5S JK 10C KD 9H 9C 2D",
  melds: "ann: 8H 8S 8D\nbo: JC QC KC AC",
  upcard: "6S",
  contract: "2",
};
const STATUS_NOTES = {
  feasible: "A time limit cut a solve short: this advice is the best found, not proven.",
  unknown: "A time limit ran out before a solve found anything.",
};

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function sizes(text) {
  return splitWords(text).map(Number);
}

function describeContract(contract) {
  const part = (n, kind) => `${kind} of ${n}`;
  return [...contract.sets.map((n) => part(n, "set")), ...contract.runs.map((n) => part(n, "run"))]
    .join(" + ");
}

/** The request for the form as it stands. */
function readRequest(form, fields) {
  const request = {
    hand: fields.hand.words(),
    table: fields.melds.lines().map((line) => ({ cards: line.words, owner: line.owner })),
    down: form.down.checked,
  };
  if (form.contract.value === "custom") {
    request.contract = { sets: sizes(form["contract-sets"].value), runs: sizes(form["contract-runs"].value) };
  } else {
    request.hand_number = Number(form.contract.value);
  }
  const upcard = fields.upcard.words();
  if (upcard.length > 0) request.upcard = upcard.join(" ");
  if (form["buys-left"].value !== "") request.buys_left = Number(form["buys-left"].value);
  return request;
}

function drawMeld(name, meld) {
  const cards = meld.cards.map((card, i) => drawCard(card, { as: meld.as?.[i] }));
  return drawSet(name, cards, `${name}: ${meld.kind ?? "meld"} ${meld.cards.join(" ")}`);
}

/** A meld and the cards laid off onto it (highlighted; a run takes them at its ends). */
function drawLayOff(name, meld, plays) {
  const cards = meld.cards.map((card, i) => drawCard(card, { as: meld.as?.[i] }));
  const added = plays.map((play) => drawCard(play.card, { as: play.as, played: true }));
  const plus = element("span", "+", "plus");
  const label = `lay ${plays.map((p) => p.card).join(" ")} off onto ${name} (${meld.cards.join(" ")})`;
  return drawSet(name, [...cards, plus, ...added], label);
}

function swapText(swap, meldName) {
  return `Swap your ${swap.give} for the joker in ${meldName(swap.meld)} (place ${swap.position + 1}).`;
}

/** The elements showing ``advice`` for ``request``. */
export function drawAdvice(advice, request) {
  const parts = [];
  const laid = advice.go_down?.melds ?? [];
  const tableCount = request.table.length;
  const meldName = (index) => (index < tableCount ? `meld ${index}` : `your new meld ${index}`);
  const meldAt = (index) => (index < tableCount ? request.table[index] : laid[index - tableCount]);

  parts.push(
    element(
      "p",
      `Contract: ${describeContract(advice.contract)}. Cards still needed: ${advice.deficiency}. ` +
        `Your hand would cost ${advice.penalty} points now.`,
      "summary",
    ),
  );
  if (advice.go_down) {
    parts.push(element("h3", "Go down"));
    laid.forEach((meld, i) => parts.push(drawMeld(meldName(tableCount + i), meld)));
    for (const swap of advice.go_down.swaps) parts.push(element("p", swapText(swap, meldName)));
    parts.push(element("p", `Left in hand: ${advice.go_down.left.join(" ") || "nothing"} ` +
      `(${advice.go_down.penalty_left} points).`));
  } else if (!request.down) {
    parts.push(element("p", "You cannot go down this turn."));
  }
  if (advice.lay_offs && (advice.lay_offs.plays.length > 0 || advice.lay_offs.swaps.length > 0)) {
    parts.push(element("h3", "Lay off"));
    const onto = new Map();
    for (const play of advice.lay_offs.plays) onto.set(play.meld, [...(onto.get(play.meld) ?? []), play]);
    for (const [index, plays] of onto) parts.push(drawLayOff(meldName(index), meldAt(index), plays));
    for (const swap of advice.lay_offs.swaps) parts.push(element("p", swapText(swap, meldName)));
    parts.push(element("p", advice.lay_offs.can_go_out
      ? "You go out!"
      : `Shed ${advice.lay_offs.points_shed} points; left in hand: ${advice.lay_offs.left.join(" ")}.`));
  }
  if (advice.discard) {
    parts.push(element("h3", "Discard"));
    parts.push(drawSet("discard", [drawCard(advice.discard.card)], `discard ${advice.discard.card}`));
    parts.push(element("p", advice.discard.reason));
  }
  if (advice.take_upcard || advice.buy) {
    parts.push(element("h3", "The upcard"));
    if (advice.take_upcard) {
      parts.push(element("p", `${advice.take_upcard.take ? "Take it" : "Leave it"}. ${advice.take_upcard.rule}`));
    }
    if (advice.buy) {
      parts.push(element("p", `${advice.buy.buy ? "Buy it" : "Do not buy it"} out of turn. ${advice.buy.rule}`));
    }
  }
  if (advice.notes.length > 0) {
    const list = element("ul");
    for (const note of advice.notes) list.append(element("li", note));
    parts.push(element("h3", "Notes"), list);
  }
  if (STATUS_NOTES[advice.status]) parts.push(element("p", STATUS_NOTES[advice.status], "note"));
  return parts;
}

export function setUpShanghai() {
  const form = document.getElementById("shanghai-form");
  const answer = document.getElementById("shanghai-answer");
  const error = document.getElementById("shanghai-error");
  const button = document.getElementById("shanghai-advise");
  const fields = {
    hand: new PieceField(form.hand, document.getElementById("hand-preview"), { draw: drawCard }),
    melds: new PieceField(form.melds, document.getElementById("melds-preview"), {
      draw: drawCard,
      owners: true,
      setName: (index, owner) => `meld ${index}${owner ? ` (${owner})` : ""}`,
    }),
    upcard: new PieceField(form.upcard, document.getElementById("upcard-preview"), { draw: drawCard }),
  };
  const ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const cards = [...Object.keys(SUITS).flatMap((suit) => ranks.map((rank) => rank + suit)), "JK"];
  new Palette(
    document.getElementById("shanghai-palette"),
    cards,
    drawCard,
    Object.values(fields),
    document.getElementById("shanghai-target"),
  );
  CONTRACTS.forEach((text, i) => form.contract.append(new Option(`Hand ${i + 1}: ${text}`, String(i + 1))));
  form.contract.append(new Option("Custom contract", "custom"));
  const custom = document.getElementById("custom-contract");
  form.contract.addEventListener("change", () => {
    custom.hidden = form.contract.value !== "custom";
  });
  // A changed position: the advice and any error were about the old one.
  form.addEventListener("input", () => {
    answer.replaceChildren();
    error.replaceChildren();
  });

  let pending = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    pending?.abort();
    const mine = new AbortController();
    pending = mine;
    const request = readRequest(form, fields);
    button.disabled = true;
    button.textContent = "Thinking\u2026";
    try {
      const advice = await postJson(ENDPOINT, request, { signal: mine.signal });
      error.replaceChildren();
      answer.replaceChildren(...drawAdvice(advice, request));
    } catch (failure) {
      if (failure.name === "AbortError") return;
      answer.replaceChildren();
      error.textContent = failure.message;
    } finally {
      if (pending === mine) {
        button.disabled = false;
        button.textContent = "Advise";
      }
    }
  });
  document.getElementById("shanghai-example").addEventListener("click", () => {
    fields.hand.setText(EXAMPLE.hand);
    fields.melds.setText(EXAMPLE.melds);
    fields.upcard.setText(EXAMPLE.upcard);
    form.contract.value = EXAMPLE.contract;
    form.contract.dispatchEvent(new Event("change"));
  });
  document.getElementById("shanghai-clear").addEventListener("click", () => {
    for (const field of Object.values(fields)) field.setText("");
  });
}
