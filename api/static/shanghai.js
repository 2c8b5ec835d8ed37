// The demo page's Shanghai tab: a hand, the table and the upcard in, the turn's
// advice out (README: "Shanghai rummy", "What the answer means").

import { Palette, PieceField, readNumber } from "./editor.js";
import { isBusy, setBusy } from "./busy.js";
import { errorText, keyed, labelOf, pieces, sets, single, withChoices } from "./field-names.js";
import { N_, percentText, translator } from "./i18n.js";
import { RequestSlot } from "./request-slot.js";
import { postJson } from "./service.js";
import { SUITS, drawCard, drawSet, splitWords } from "./tiles.js";
import { cappedNote } from "./time-capped.js";

const ENDPOINT = "v1/shanghai/advise";
const CONTRACTS = [ // the standard contracts of hands 1-10 (solver/shanghai/contracts.py)
  { sets: [3, 3], runs: [] }, { sets: [3], runs: [4] }, { sets: [], runs: [4, 4] },
  { sets: [3, 3, 3], runs: [] }, { sets: [3], runs: [7] }, { sets: [3, 3], runs: [5] },
  { sets: [], runs: [4, 4, 4] }, { sets: [3], runs: [10] }, { sets: [3, 3, 3], runs: [5] },
  { sets: [], runs: [5, 5, 5] },
];
// README's example request (solver/shanghai/examples.py)
const EXAMPLE = {
  hand: "7H 7S 7D 3S 4S 5S JK 10C KD 9H 9C 2D",
  melds: "ann: 8H 8S 8D\nbo: JC QC KC AC",
  upcard: "6S",
  contract: "2",
  phase: "play",
};
// The status is the worst of the turn's many searches: one that stopped leaves the
// rest of the advice standing (a discard, the upcard), so say "some of it".
function statusNote(status, tr) {
  if (status === "feasible") {
    return tr.t("A search stopped at its limit: some of this advice is the best found, not proven.");
  }
  if (status === "unknown") {
    return tr.t("A search stopped at its limit before finding anything: some of this advice is not proven.");
  }
  return null;
}

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** The sizes of a custom contract; an Error naming a word that is no whole number
 * (the service would get null for it, and name the place, not the word). */
function sizes(text, tr) {
  // Full-width digits and commas (３、３) read as the service reads numbers: NFKC.
  return splitWords(text.normalize("NFKC").replace(/、/g, ",")).map((word) => {
    if (!/^\d+$/.test(word)) {
      throw new Error(tr.t("Contract sizes are whole numbers, comma-separated: '{word}' is not one.", { word }));
    }
    return Number(word);
  });
}

/** "2 sets of 3 + run of 4" (3枚セット2つ+4枚ラン): each part and the joiner are the
 * language's, so that the longest contract fits the Shanghai tab's select at 320 px in
 * Japanese too (its "第9ハンド: 3枚のセット3つ + 5枚のラン" lost "のラン"). */
export function describeContract(contract, tr) {
  const parts = [];
  const counted = (sizes, one, many) => {
    const count = new Map();
    for (const n of sizes) count.set(n, (count.get(n) ?? 0) + 1);
    for (const [n, times] of count) parts.push(times === 1 ? tr.t(one, { size: n }) : tr.t(many, { size: n, times }));
  };
  counted(contract.sets, N_("set of {size}"), N_("{times} sets of {size}"));
  counted(contract.runs, N_("run of {size}"), N_("{times} runs of {size}"));
  if (parts.length === 0) return "";
  return parts.reduce((joined, part) => tr.t("{contract} + {part}", { contract: joined, part }));
}

/** The request for the form as it stands (an Error for a custom contract it cannot send). */
function readRequest(form, fields, tr) {
  const request = {
    hand: fields.hand.words(),
    // One question at a time (docs/shanghai.md, "A turn in two phases"): without a
    // phase the service answers both for the same hand, with a note saying so.
    phase: form.phase.value,
    table: fields.melds.lines().map((line) => ({ cards: line.words, owner: line.owner })),
    down: form.down.checked,
  };
  if (form.contract.value === "custom") {
    request.contract = { sets: sizes(form["contract-sets"].value, tr), runs: sizes(form["contract-runs"].value, tr) };
  } else {
    request.hand_number = Number(form.contract.value);
  }
  const upcard = fields.upcard.words();
  if (upcard.length > 1) {
    // One card (the service's upcard is a card, not a list): joined, "6S 7S" would
    // come back as an unknown card.
    throw new Error(tr.t("The upcard is one card: '{cards}' are {count}.", { cards: upcard.join(" "), count: upcard.length }));
  }
  if (upcard.length > 0) request.upcard = upcard[0];
  const buys = readNumber(form["buys-left"], tr);
  if (buys !== null) request.buys_left = buys;
  return request;
}

export function drawMeld(name, meld, tr) {
  const cards = meld.cards.map((card, i) => drawCard(card, { as: meld.as?.[i], tr }));
  const kind = meld.kind === "set" ? tr.t("set") : meld.kind === "run" ? tr.t("run") : tr.t("meld");
  return drawSet(name, cards, tr.t("{name}: {kind} {cards}", { name, kind, cards: meld.cards.join(" ") }));
}

/** A meld and the cards laid off onto it (highlighted; a run takes them at its ends). */
function drawLayOff(name, meld, plays, tr) {
  const cards = meld.cards.map((card, i) => drawCard(card, { as: meld.as?.[i], tr }));
  const added = plays.map((play) => drawCard(play.card, { as: play.as, played: true, tr }));
  const plus = element("span", "+", "plus");
  const label = tr.t("lay {cards} off onto {name} ({meld})", {
    cards: plays.map((p) => p.card).join(" "),
    name,
    meld: meld.cards.join(" "),
  });
  return drawSet(name, [...cards, plus, ...added], label);
}

function swapText(swap, meldName, tr) {
  return tr.t("Swap your {card} for the joker in {meld} (place {place}).", {
    card: swap.give,
    meld: meldName(swap.meld),
    place: swap.position + 1,
  });
}

/** A turn's melds by their index, the ``table``'s first, then those ``laid`` this turn
 * (each {cards, as?, kind?}): ``name(index)`` ("meld 0"; a laid one by ``laidName``)
 * and ``at(index)``. */
export function turnMelds(table, laid, tr, laidName = N_("your new meld {index}")) {
  const count = table.length;
  return {
    name: (index) => (index < count ? tr.t("meld {index}", { index }) : tr.t(laidName, { index })),
    at: (index) => (index < count ? table[index] : laid[index - count]),
  };
}

/** The new melds ``laid`` (each {cards, as?, kind?}) drawn, named by ``melds``
 * (turnMelds), then what ``swaps`` give for jokers. */
export function drawLaid(laid, swaps, melds, tableCount, tr) {
  return [
    ...laid.map((meld, i) => drawMeld(melds.name(tableCount + i), meld, tr)),
    ...swaps.map((swap) => element("p", swapText(swap, melds.name, tr))),
  ];
}

/** The cards laid off (``plays``: each {card, meld, as?}) drawn on their melds
 * (``melds``: turnMelds), then what ``swaps`` give for jokers. */
export function drawLayOffs(plays, swaps, melds, tr) {
  const onto = new Map();
  for (const play of plays) onto.set(play.meld, [...(onto.get(play.meld) ?? []), play]);
  return [
    ...[...onto].map(([index, laid]) => drawLayOff(melds.name(index), melds.at(index), laid, tr)),
    ...swaps.map((swap) => element("p", swapText(swap, melds.name, tr))),
  ];
}

const OPTION_NAMES = {
  take: N_("take the upcard"),
  draw: N_("draw from the stock"),
  buy: N_("buy the upcard"),
};

/** A figure of a draw option, or "-" for none (null: see drawOptions). */
function figure(value, digits) {
  return value === null ? "-" : value.toFixed(digits);
}

/** A chance as a whole percent ("at least" when the search stopped: docs/shanghai.md). */
function chance(value, proven, tr) {
  return value === null ? "-" : percentText(value, tr, !proven);
}

/** The draw phase's options (``draw_options``): a table of the expected figures after
 * each, and what a "-" in it means (only the reasons that occur). */
function drawOptions(options, tr) {
  const table = element("table", undefined, "draw-options");
  const head = table.createTHead().insertRow();
  const titles = [tr.t("option"), tr.t("cards"), tr.t("cards still needed"), tr.t("points"),
    tr.t("go down"), tr.t("go out")];
  for (const title of titles) head.append(element("th", title));
  const body = table.createTBody();
  for (const option of options) {
    const row = body.insertRow();
    row.dataset.action = option.action;
    const cells = [
      tr.t(OPTION_NAMES[option.action] ?? option.action),
      tr.t("+{cards}", { cards: option.cards }),
      figure(option.deficiency, 2),
      figure(option.points, 1),
      chance(option.go_down, option.chances_proven, tr),
      chance(option.go_out, option.chances_proven, tr),
    ];
    for (const text of cells) row.insertCell().textContent = text;
  }
  const scroll = element("div", undefined, "table-scroll");
  scroll.append(table);
  const parts = [element("h3", tr.t("Draw options")), scroll];
  const said = [tr.t("Expected figures once the cards are in; the chances are that the play right after goes down or goes out.")];
  // Points are missing only when the unseen cards cannot supply the option's stock
  // cards (docs/shanghai.md, "Too few unseen cards"): the notes say why.
  if (options.some((o) => o.points === null)) {
    said.push(tr.t("-: too few unseen cards for the stock cards this option takes (see the notes)."));
  }
  if (options.some((o) => o.action === "buy" && o.points !== null && o.go_out === null)) {
    said.push(tr.t("-: after a buy no chances are worked out (and its cards still needed are an estimate)."));
  }
  if (options.some((o) => o.points !== null && o.deficiency === null)) {
    said.push(tr.t("-: you are down already: nothing is still needed to go down."));
  }
  if (options.some((o) => !o.chances_proven)) {
    said.push(tr.t("A search stopped at its limit (the advice's work budget or the clock, as said below): the chances count only the cards found before it."));
  }
  for (const text of said) parts.push(element("p", text, "help"));
  return parts;
}

/** The elements showing ``advice`` for ``request``, in ``tr``'s language (i18n.js). */
export function drawAdvice(advice, request, tr = translator("en")) {
  const parts = [];
  const laid = advice.go_down?.melds ?? [];
  const melds = turnMelds(request.table, laid, tr);

  const summary = { contract: describeContract(advice.contract, tr), short: advice.deficiency, points: advice.penalty };
  parts.push(
    element(
      "p",
      // null: the unseen cards cannot complete the contract, or no figure was proven.
      advice.deficiency === null
        ? tr.t("Contract: {contract}. Cards still needed: not known (the unseen cards cannot complete it, or no figure was proven before a search stopped). Your hand would cost {points} points now.", summary)
        : tr.t("Contract: {contract}. Cards still needed: {short}. Your hand would cost {points} points now.", summary),
      "summary",
    ),
  );
  if (advice.go_down) {
    parts.push(element("h3", tr.t("Go down")));
    parts.push(...drawLaid(laid, advice.go_down.swaps, melds, request.table.length, tr));
    parts.push(element("p", tr.t("Left in hand: {cards} ({points} points).", {
      cards: advice.go_down.left.join(" ") || tr.t("nothing"),
      points: advice.go_down.penalty_left,
    })));
  } else if (advice.phase !== "draw") {
    // By the play search's own status (docs/shanghai.md), never the notes' words: a
    // search a limit stopped found no way down, which is no proof there is none; only
    // "optimal" proves it ("feasible", plays found but not proven, was said as proven).
    const stopped = advice.play_status === "unknown" || advice.play_status === "feasible";
    if (request.down && stopped && !advice.lay_offs) {
      parts.push(element("p", tr.t("No plays found before the search stopped.")));
    } else if (!request.down) {
      parts.push(element("p", stopped
        ? tr.t("No way to go down found before the search stopped.")
        : tr.t("You cannot go down this turn.")));
    }
  }
  if (advice.lay_offs && (advice.lay_offs.plays.length > 0 || advice.lay_offs.swaps.length > 0)) {
    parts.push(element("h3", tr.t("Lay off")));
    parts.push(...drawLayOffs(advice.lay_offs.plays, advice.lay_offs.swaps, melds, tr));
    parts.push(element("p", advice.lay_offs.can_go_out
      ? tr.t("You go out!")
      : tr.t("Shed {points} points; left in hand: {cards}.", {
        points: advice.lay_offs.points_shed,
        cards: advice.lay_offs.left.join(" "),
      })));
  } else if (advice.lay_offs?.can_go_out) {
    // Out by going down alone: no lay-off to draw, but the turn ends the hand.
    parts.push(element("p", tr.t("You go out!")));
  }
  if (advice.discard) {
    parts.push(element("h3", tr.t("Discard")));
    parts.push(drawSet(tr.t("discard"), [drawCard(advice.discard.card, { tr })],
      tr.t("discard {card}", { card: advice.discard.card })));
    parts.push(element("p", advice.discard.reason));
  }
  if (advice.take_upcard || advice.buy) {
    parts.push(element("h3", tr.t("The upcard")));
    if (advice.take_upcard) {
      const say = advice.take_upcard.take ? tr.t("Take it.") : tr.t("Leave it.");
      parts.push(element("p", tr.t("{say} {rule}", { say, rule: advice.take_upcard.rule })));
    }
    if (advice.buy) {
      const say = advice.buy.buy ? tr.t("Buy it out of turn.") : tr.t("Do not buy it out of turn.");
      parts.push(element("p", tr.t("{say} {rule}", { say, rule: advice.buy.rule })));
    }
  }
  if (advice.draw_options?.length > 0) parts.push(...drawOptions(advice.draw_options, tr));
  if (advice.notes.length > 0) {
    const list = element("ul");
    for (const note of advice.notes) list.append(element("li", note));
    parts.push(element("h3", tr.t("Notes")), list);
  }
  const note = statusNote(advice.status, tr);
  if (note) parts.push(element("p", note, "note"));
  if (advice.time_capped) parts.push(cappedNote(tr));
  return parts;
}

/** Set up the tab; returns the function that switches its language. */
export function setUpShanghai() {
  let tr = translator("en");
  const form = document.getElementById("shanghai-form");
  const answer = document.getElementById("shanghai-answer");
  const error = document.getElementById("shanghai-error");
  const button = document.getElementById("shanghai-advise");
  const fields = {
    hand: new PieceField(form.hand, document.getElementById("hand-preview"), { draw: drawCard }),
    melds: new PieceField(form.melds, document.getElementById("melds-preview"), {
      draw: drawCard,
      owners: true,
      setName: (index, owner, tr) =>
        owner ? tr.t("meld {index} ({owner})", { index, owner }) : tr.t("meld {index}", { index }),
    }),
    upcard: new PieceField(form.upcard, document.getElementById("upcard-preview"), { draw: drawCard }),
  };
  const ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const cards = [...Object.keys(SUITS).flatMap((suit) => ranks.map((rank) => rank + suit)), "JK"];
  const palette = new Palette(
    document.getElementById("shanghai-palette"),
    cards,
    drawCard,
    Object.values(fields),
    document.getElementById("shanghai-target"),
  );
  const contracts = () => {
    const chosen = form.contract.value;
    form.contract.replaceChildren(
      ...CONTRACTS.map((contract, i) =>
        new Option(tr.t("Hand {number}: {contract}", { number: i + 1, contract: describeContract(contract, tr) }), String(i + 1))),
      new Option(tr.t("Custom contract"), "custom"),
    );
    if (chosen) form.contract.value = chosen;
  };
  contracts();
  const custom = document.getElementById("custom-contract");
  form.contract.addEventListener("change", () => {
    custom.hidden = form.contract.value !== "custom";
  });
  const slot = new RequestSlot(() => {
    setBusy(button, false);
    button.textContent = tr.t("Advise");
  });
  // The fields the service's errors name, by the labels shown ('buys_left' is
  // 'Buys left'; table[0].cards[1] is "Table melds, meld 0, card 2", table[1].owner
  // "Table melds, meld 1, owner").
  const named = {
    hand: pieces(() => labelOf(form.hand), N_("{field}, card {number}")),
    table: sets(() => labelOf(form.melds), {
      set: N_("{field}, meld {index}"),
      piece: N_("{field}, meld {index}, card {number}"),
      key: "cards",
      owner: N_("{field}, meld {index}, owner"),
    }),
    upcard: single(() => labelOf(form.upcard)),
    buys_left: single(() => labelOf(form["buys-left"])),
    hand_number: single(() => labelOf(form.contract)),
    // A custom contract's sizes: quoted as 'sets' in the service's own checks, as
    // 'contract.sets[0]' in the request's (a size too large to be a number).
    sets: single(() => labelOf(form["contract-sets"])),
    runs: single(() => labelOf(form["contract-runs"])),
    contract: keyed(() => labelOf(form.contract), {
      sets: pieces(() => labelOf(form["contract-sets"]), N_("{field}, size {number}")),
      runs: pieces(() => labelOf(form["contract-runs"]), N_("{field}, size {number}")),
    }),
  };
  // A changed position: the advice and any error, and advice still on its way, were
  // about the old one.
  form.addEventListener("input", () => {
    slot.free();
    answer.replaceChildren();
    error.replaceChildren();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (isBusy(button)) return; // the advice is on its way
    let request;
    try {
      request = readRequest(form, fields, tr);
    } catch (refusal) {
      answer.replaceChildren();
      error.textContent = refusal.message;
      return;
    }
    const mine = slot.begin(button, tr.t("Thinking\u2026"));
    const asked = tr;
    try {
      const advice = await postJson(ENDPOINT, { ...request, lang: asked.lang }, {
        signal: mine.signal,
        tr: asked,
        expected: (answer) => typeof answer.contract === "object" && Array.isArray(answer.notes),
      });
      if (!slot.holds(mine)) return;
      error.replaceChildren();
      // A note that says the phase as the request writes it says it as the page does.
      const notes = advice.notes.map((note) => withChoices(note, form.phase));
      answer.replaceChildren(...drawAdvice({ ...advice, notes }, request, asked));
    } catch (failure) {
      if (failure.name === "AbortError") return;
      answer.replaceChildren();
      error.textContent = errorText(failure, named, asked);
    } finally {
      slot.end(mine);
    }
  });
  document.getElementById("shanghai-example").addEventListener("click", () => {
    fields.hand.setText(EXAMPLE.hand);
    fields.melds.setText(EXAMPLE.melds);
    fields.upcard.setText(EXAMPLE.upcard);
    form.contract.value = EXAMPLE.contract;
    form.phase.value = EXAMPLE.phase;
    form.contract.dispatchEvent(new Event("change"));
  });
  document.getElementById("shanghai-clear").addEventListener("click", () => {
    for (const field of Object.values(fields)) field.setText("");
  });
  return (next) => {
    tr = next;
    for (const field of Object.values(fields)) field.setLanguage(tr);
    palette.render(cards, tr);
    contracts();
    // Advice and errors in the old language, and advice on its way in it: ask again.
    slot.free();
    answer.replaceChildren();
    error.replaceChildren();
  };
}
