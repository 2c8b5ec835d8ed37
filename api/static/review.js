// The demo page's Review tab: a game record in (pasted, or a bot game played by the
// service), the review out: each player's accuracy and costliest turns, a per-turn
// chart, and the game turn by turn with the missed tiles highlighted
// (docs/games.md: "Game review").

import { isBusy, setBusy } from "./busy.js";
import { readNumber, rove } from "./editor.js";
import { errorText, labelOf, single } from "./field-names.js";
import { percentText, translator } from "./i18n.js";
import { RequestSlot } from "./request-slot.js";
import { playedMarks } from "./rummikub-answer.js";
import { postJson } from "./service.js";
import { drawSet, drawTile } from "./tiles.js";

const GAME = "v1/rummikub/game";
const REVIEW = "v1/rummikub/review";
const SVG = "http://www.w3.org/2000/svg";

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** A share in whole percents: 266 of 267 is "over 99%", not "100%" (percentText). */
function percent(share, tr) {
  return share === null ? "-" : percentText(share, tr);
}

function playerName(player, tr) {
  return player.name
    ? tr.t("Player {seat} ({name})", { seat: player.player, name: player.name })
    : tr.t("Player {seat}", { seat: player.player });
}

function unitName(objective, tr) {
  return objective === "points" ? tr.t("points") : tr.t("tiles");
}

/** Each player's figures: accuracy, tiles placed of possible, illegal and costliest turns. */
function drawSummary(review, tr) {
  const unit = unitName(review.objective, tr);
  const table = element("table", undefined, "review-summary");
  const head = table.createTHead().insertRow();
  const titles = [
    tr.t("player"), tr.t("turns at the best"), tr.t("{unit} placed / each turn's best, summed", { unit }),
    tr.t("costliest turns"), tr.t("illegal turns"), tr.t("score"),
  ];
  for (const title of titles) head.append(element("th", title));
  const body = table.createTBody();
  for (const player of review.players) {
    const row = body.insertRow();
    row.insertCell().textContent = playerName(player, tr);
    // Turns left out of the figures are named, or "0 of 0 (-)" would stand unexplained.
    const unreviewed = player.unreviewed_turns.map((turn) => tr.t("turn {turn}", { turn }));
    row.insertCell().textContent = tr.t("{done} of {turns} ({share})", {
      done: player.turns_at_best, turns: player.turns, share: percent(player.accuracy, tr),
    }) + (unreviewed.length
      ? tr.t("; ") + tr.t("not reviewed: {turns}", { turns: unreviewed.join(tr.t(", ")) })
      : "");
    row.insertCell().textContent =
      `${player.placed} / ${player.possible} (${percent(player.placed_share, tr)})`;
    row.insertCell().textContent =
      player.costliest
        .map((c) => tr.t("turn {turn} ({shortfall} short)", { turn: c.turn, shortfall: c.shortfall }))
        .join(tr.t(", ")) || tr.t("none");
    // Each illegal turn by its number, as the costliest are: a bare "2" read as a count.
    row.insertCell().textContent =
      player.illegal_turns.map((turn) => tr.t("turn {turn}", { turn })).join(tr.t(", ")) ||
      tr.t("none");
    row.insertCell().textContent = player.score === null ? "-" : String(player.score);
  }
  return table;
}

/** A bar chart per player: the best play's size (grey) and what was played (blue). */
function drawChart(review, tr) {
  const figure = element("figure", undefined, "review-chart");
  const most = Math.max(1, ...review.players.flatMap((p) => p.series.best));
  for (const player of review.players) {
    const { turn, played, best } = player.series;
    const width = Math.max(120, turn.length * 8);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} 40`);
    svg.setAttribute("role", "img");
    const missed = best.reduce((sum, b, i) => sum + b - played[i], 0);
    const left = review.objective === "points"
      ? tr.tn("{n} point", "{n} points", missed)
      : tr.tn("{n} tile", "{n} tiles", missed);
    svg.setAttribute("aria-label", tr.tn(
      "{player}: {n} turn, {left} left that the best plays placed",
      "{player}: {n} turns, {left} left that the best plays placed",
      turn.length,
      { player: playerName(player, tr), left },
    ));
    turn.forEach((_, i) => {
      for (const [value, colour] of [[best[i], "#b0bec5"], [played[i], "#1565c0"]]) {
        const bar = document.createElementNS(SVG, "rect");
        const height = (value / most) * 38;
        bar.setAttribute("x", String(i * 8 + 1));
        bar.setAttribute("y", String(39 - height));
        bar.setAttribute("width", "6");
        bar.setAttribute("height", String(height));
        bar.setAttribute("fill", colour);
        svg.append(bar);
      }
    });
    const caption = element("figcaption",
      tr.t("{player}: best (grey) and played (blue), turn by turn", { player: playerName(player, tr) }));
    figure.append(svg, caption);
  }
  return figure;
}

/** Whether a turn is short of a best play found (a best the search did not prove is
 * never below the turn's own play, and the turn is then not called at the best). */
function isShort(turn) {
  return Boolean(turn.best) && turn.shortfall > 0;
}

/** One turn: the rack with the missed tiles highlighted, the play, and the best play,
 * in a game of ``colours`` colours (the record's settings.rules.colours). */
function drawTurn(turn, tr, colours) {
  const parts = [];
  const verdict = !turn.legal
    ? tr.t("Illegal: {problems}", { problems: turn.problems.join(tr.t("; ")) })
    : !turn.best
      ? tr.t("Not reviewed: {why}", { why: turn.unreviewed })
      : turn.at_best
        ? tr.t("At the best.")
        : isShort(turn)
          ? tr.tn(
            "{shortfall} short of the best: the best play placed {n} tile ({points}).",
            "{shortfall} short of the best: the best play placed {n} tiles ({points}).",
            turn.best.tiles,
            { shortfall: turn.shortfall, points: tr.tn("{n} point", "{n} points", turn.best.points) },
          )
          : tr.t("Not proven at the best: the search stopped before proving the best play, and found none better.");
  const values = { turn: turn.turn, player: turn.player };
  const title =
    turn.action === "play" ? tr.t("Turn {turn}: player {player} played {tiles}", { ...values, tiles: turn.played.join(" ") })
      : turn.action === "draw" ? tr.t("Turn {turn}: player {player} drew {tile}", { ...values, tile: turn.drawn })
        : tr.t("Turn {turn}: player {player} passed (the pool was empty)", values);
  parts.push(element("h3", title));
  parts.push(element("p", verdict, turn.legal ? (isShort(turn) ? "missed-note" : "note") : "error"));
  const missed = [...turn.missed];
  const rack = turn.rack.map((tile) => {
    const index = missed.indexOf(tile);
    const drawn = drawTile(tile, { tr, colours });
    if (index >= 0) {
      missed.splice(index, 1);
      drawn.classList.add("missed");
      drawn.setAttribute("aria-label", tr.t("{piece}, missed", { piece: drawn.getAttribute("aria-label") }));
    }
    return drawn;
  });
  parts.push(drawSet(tr.t("rack"), rack, tr.t("rack before the turn: {tiles}", { tiles: turn.rack.join(" ") })));
  parts.push(element("h4", tr.t("Table after the turn")));
  turn.table_after.forEach((tiles, i) =>
    parts.push(drawSet(tr.t("set {index}", { index: i }), tiles.map((t) => drawTile(t, { tr, colours })))));
  if (isShort(turn)) {
    parts.push(element("h4", tr.t("The best play: {tiles}", { tiles: turn.best.played.join(" ") || tr.t("nothing") })));
    const marks = playedMarks(turn.best.table, turn.best.from_rack);
    turn.best.table.forEach((tiles, i) => {
      const drawn = tiles.map((tile, at) => drawTile(tile, { played: marks[i][at], tr, colours }));
      parts.push(drawSet(tr.t("set {index}", { index: i }), drawn));
    });
  }
  return parts;
}

/** Set up the tab; returns the function that switches its language. */
export function setUpReview() {
  let tr = translator("en");
  const form = document.getElementById("review-form");
  const record = form.record;
  const error = document.getElementById("review-error");
  const output = document.getElementById("review-output");
  const list = document.getElementById("review-turns");
  const detail = document.getElementById("review-turn");
  const reviewButton = document.getElementById("review-run");
  const navNote = document.getElementById("review-nav-note"); // says why a move went nowhere
  let turns = [];
  let colours; // the reviewed game's (undefined: the standard game's)
  let current = 0;

  const show = (index) => {
    current = Math.max(0, Math.min(index, turns.length - 1));
    navNote.replaceChildren();
    for (const [i, item] of [...list.children].entries()) {
      const button = item.querySelector("button");
      button.setAttribute("aria-current", String(i === current));
      button.tabIndex = i === current ? 0 : -1; // Tab comes back to the turn shown
    }
    // The list scrolls in its own box: bring the chosen turn into it (only the list,
    // as scrollIntoView would move the page too).
    const chosen = list.children[current]?.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (chosen && chosen.top < box.top) list.scrollTop -= box.top - chosen.top;
    else if (chosen && chosen.bottom > box.bottom) list.scrollTop += chosen.bottom - box.bottom;
    detail.replaceChildren(...drawTurn(turns[current], tr, colours));
  };

  // No review on screen: an error shown below the old game's would read as about it.
  const clear = () => {
    output.hidden = true;
    turns = [];
    document.getElementById("review-summary").replaceChildren();
    list.replaceChildren();
    detail.replaceChildren();
  };

  // The field each call's errors name, by its label shown ('seed' is 'シード' in
  // Japanese); a record's own keys, and anything quoted from it, stay as written.
  const gameFields = { seed: single(() => labelOf(form.seed)) };
  const reviewFields = { record: single(() => labelOf(record)) };

  /** Show ``failure`` of the game (``game``) or of the review of the record in the box. */
  const fail = (failure, game = false) => {
    if (failure.name === "AbortError") return;
    clear();
    error.textContent = errorText(failure, game ? gameFields : reviewFields, tr);
  };

  // One job at a time: a review, or a bot game and its review. A newer job, an edited
  // record or another language aborts the one in flight, so an older answer never
  // lands over a newer one (or beside a record it is not about).
  const playButton = document.getElementById("review-play");
  const slot = new RequestSlot(() => {
    setBusy(reviewButton, false);
    reviewButton.textContent = tr.t("Review");
    setBusy(playButton, false);
    playButton.textContent = tr.t("Play a bot game (strong vs greedy)");
  });

  /** Review ``parsed`` (a record) for the job ``mine`` and show the review, in ``tr``'s language. */
  const review = async (parsed, mine, tr) => {
    setBusy(reviewButton, true);
    reviewButton.textContent = tr.t("Reviewing\u2026");
    const request = { record: parsed, lang: tr.lang };
    // In Japanese the texts write the fourth colour Y (黄), as its tiles are drawn; a
    // game with a yellow of its own (6 colours or more) keeps O (as the service asks).
    if (tr.lang === "ja" && (parsed?.settings?.rules?.colours ?? 4) <= 5) request.notation = "RBYK";
    const answer = await postJson(REVIEW, request, {
      signal: mine.signal,
      tr,
      expected: (answer) => Array.isArray(answer.turns) && Array.isArray(answer.players),
    });
    if (!slot.holds(mine)) return;
    if (answer.turns.length === 0) {
      clear();
      error.textContent = tr.t("The game record has no turns: there is nothing to review.");
      return;
    }
    turns = answer.turns;
    colours = parsed?.settings?.rules?.colours;
    document.getElementById("review-summary").replaceChildren(drawSummary(answer, tr), drawChart(answer, tr));
    list.replaceChildren(...turns.map((turn, i) => {
      const item = element("li");
      const label = turn.action === "play"
        ? tr.t("played {count}", { count: turn.tiles_played })
        : turn.action === "draw" ? tr.t("draw") : tr.t("pass");
      const best = turn.best ? tr.t("best {count}", { count: turn.best.tiles }) : tr.t("not reviewed");
      const button = element("button", tr.t("{turn}. P{player} {action} / {best}", {
        turn: turn.turn, player: turn.player, action: label, best,
      }));
      button.type = "button";
      if (!turn.legal) button.classList.add("illegal");
      else if (isShort(turn)) button.classList.add("short");
      button.addEventListener("click", () => show(i));
      item.append(button);
      return item;
    }));
    // One Tab stop, not one per turn (a game has a hundred): arrows move, Enter shows.
    rove([...list.querySelectorAll("button")], 1);
    output.hidden = false;
    show(0);
  };

  /** Review the record in the box and show the review (or say why not). */
  const runReview = async () => {
    if (isBusy(reviewButton)) return; // a review is on its way
    error.replaceChildren();
    if (record.value.trim() === "") {
      // Nothing pasted: no JSON error ("Unexpected end of JSON input") for that.
      slot.free();
      clear();
      error.textContent = tr.t("There is no game record to review: paste one above, or play a bot game.");
      return;
    }
    let parsed;
    try {
      parsed = JSON.parse(record.value);
    } catch (failure) {
      slot.free();
      clear();
      // The browser's reason is in English whatever the page's language: only the
      // English page adds it.
      error.textContent = tr.lang === "en"
        ? tr.t("The game record is not valid JSON: {problem}", { problem: failure.message })
        : tr.t("The game record is not valid JSON.");
      return;
    }
    const mine = slot.begin(reviewButton); // review() says "Reviewing..."
    try {
      await review(parsed, mine, tr);
    } catch (failure) {
      fail(failure);
    } finally {
      slot.end(mine);
    }
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    runReview();
  });
  // An edited record: the review shown, and one on its way, are of the old one.
  record.addEventListener("input", () => {
    slot.free();
    clear();
    error.replaceChildren();
  });

  // A bot game played on the server, then reviewed: busy until the review is shown.
  // Enter in the seed plays the game it seeds: as the form's submit it reviewed the
  // record box instead (empty, it said the record was not valid JSON).
  form.seed.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    playButton.click();
  });
  playButton.addEventListener("click", async () => {
    if (isBusy(playButton)) return; // a game is on its way
    error.replaceChildren();
    let seed;
    try {
      // An emptied seed played seed 0, saying nothing: the seed is asked for.
      seed = readNumber(form.seed, tr, { required: true });
    } catch (refusal) {
      error.textContent = refusal.message;
      return;
    }
    const mine = slot.begin(playButton, tr.t("Playing a game\u2026"));
    const asked = tr; // the language asked in, whatever the page switches to
    let played = false; // the game is in: a failure after is its review's
    try {
      const answer = await postJson(GAME, { bots: ["strong", "greedy"], seed, lang: asked.lang }, {
        signal: mine.signal,
        tr: asked,
        expected: (answer) => typeof answer.record === "object" && answer.record !== null,
      });
      if (!slot.holds(mine)) return;
      played = true;
      record.value = JSON.stringify(answer.record);
      await review(answer.record, mine, asked);
    } catch (failure) {
      fail(failure, !played);
    } finally {
      slot.end(mine);
    }
  });
  document.getElementById("review-previous").addEventListener("click", () => show(current - 1));
  document.getElementById("review-next").addEventListener("click", () => show(current + 1));
  document.getElementById("review-next-missed").addEventListener("click", () => {
    const next = turns.findIndex((turn, i) => i > current && isShort(turn));
    if (next >= 0) show(next);
    else navNote.textContent = tr.t("No missed play after this turn.");
  });
  return (next) => {
    tr = next;
    slot.free(); // a review on its way is in the old language
    error.replaceChildren();
    output.hidden = true; // a review in the old language: review again
    turns = [];
  };
}
