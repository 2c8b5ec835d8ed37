// The demo page's Review tab: a game record in (pasted, or a bot game played by the
// service), the review out: each player's figures, and the game turn by turn with the
// turns short of the best marked, for either game (docs/games.md: "Game review";
// docs/shanghai.md: "Game review").
//
// This module is the part both games share: the request, its errors, the summary's
// table, the list of turns and the moves between them. What differs, the review's
// endpoint and how a summary and a turn are drawn, is a game's part
// (review-rummikub.js, review-shanghai.js), handed to setUpReview:
//
//   {
//     endpoint,             // the review's route
//     format,               // the format its records name (record.format)
//     name,                 // the game's name, as the Game choice shows it (translated)
//     game,                 // the bot game's route, when the game has one (else null)
//     placeholder,          // the record box's placeholder (JSON: not translated)
//     request(parsed, tr),  // the request's fields beyond record and lang
//     expected(answer),     // whether an answer is the service's review
//     summary(answer, tr),  // the elements above the turns
//     label(turn, tr),      // a turn's line in the list
//     mark(turn),           // the class of its line: "illegal", "short" or null
//     missed(turn),         // whether it is short of a best play found (Next missed play)
//     drawTurn(turn, tr, parsed), // the elements of the turn shown
//   }

import { isBusy, setBusy } from "./busy.js";
import { readNumber, rove } from "./editor.js";
import { errorText, labelOf, recordPlaces, single } from "./field-names.js";
import { percentText, translator } from "./i18n.js";
import { RequestSlot } from "./request-slot.js";
import { postJson } from "./service.js";
import { cappedNote } from "./time-capped.js";

export function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** A player's turns at the best; with a best not proven (``proven`` false), those proven
 * at it: a turn not proven at the best may be at it. */
export function atBest(player, share, tr) {
  const figures = { done: player.turns_at_best, turns: player.turns, share: percent(share, tr) };
  return player.proven
    ? tr.t("{done} of {turns} ({share})", figures)
    : tr.t("{done} of {turns} proven ({share})", figures);
}

/** A share in whole percents: 266 of 267 is "over 99%", not "100%" (percentText). */
export function percent(share, tr) {
  return share === null ? "-" : percentText(share, tr);
}

export function playerName(player, tr) {
  return player.name
    ? tr.t("Player {seat} ({name})", { seat: player.player, name: player.name })
    : tr.t("Player {seat}", { seat: player.player });
}

/** ``items`` joined as a list, or "none". */
export function listed(items, tr) {
  return items.join(tr.t(", ")) || tr.t("none");
}

/** A turn's ``best`` in its list, by ``count`` (its tiles, its points left): "best"
 * only when proven, else what the search found, or none (status unknown: its count
 * is no play's, a turn that played 3 tiles was listed "found 0"). */
export function bestLabel(best, count, tr) {
  if (best.status === "unknown") return tr.t("none found");
  return best.status === "optimal" ? tr.t("best {count}", { count }) : tr.t("found {count}", { count });
}

/** A table of the players' figures: ``titles`` over ``rows`` of texts. */
export function summaryTable(titles, rows) {
  const table = element("table", undefined, "review-summary");
  const head = table.createTHead().insertRow();
  for (const title of titles) head.append(element("th", title));
  const body = table.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    for (const text of cells) row.insertCell().textContent = text;
  }
  return table;
}


/** Set up the tab for ``games`` (a game's name, as the record box's game choice
 * writes it, to its part); returns the function that switches its language. */
export function setUpReview(games) {
  let tr = translator("en");
  const form = document.getElementById("review-form");
  const record = form.record;
  const error = document.getElementById("review-error");
  const output = document.getElementById("review-output");
  const summary = document.getElementById("review-summary");
  const list = document.getElementById("review-turns");
  const detail = document.getElementById("review-turn");
  const reviewButton = document.getElementById("review-run");
  const navNote = document.getElementById("review-nav-note"); // says why a move went nowhere
  let turns = [];
  let shown; // the game part and the record of the review shown
  let parsedShown;
  let current = 0;
  const chosen = () => games[form.game.value];

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
    const picked = list.children[current]?.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (picked && picked.top < box.top) list.scrollTop -= box.top - picked.top;
    else if (picked && picked.bottom > box.bottom) list.scrollTop += picked.bottom - box.bottom;
    detail.replaceChildren(...shown.drawTurn(turns[current], tr, parsedShown));
  };

  // No review on screen: an error shown below the old game's would read as about it.
  const clear = () => {
    output.hidden = true;
    turns = [];
    summary.replaceChildren();
    list.replaceChildren();
    detail.replaceChildren();
  };

  // The field each call's errors name, by its label shown ('seed' is 'シード' in
  // Japanese; 'record.turns' "Game record (JSON): turns"); a record's own keys, and
  // anything quoted from it, stay as written.
  const gameFields = { seed: single(() => labelOf(form.seed)) };
  const reviewFields = { record: recordPlaces(() => labelOf(record)) };

  /** Show ``failure`` of the game (``game``) or of the review of the record in the box. */
  const fail = (failure, game = false) => {
    if (failure.name === "AbortError") return;
    clear();
    error.textContent = !game && failure.status === 413 && failure.detail !== null
      ? tooLarge(failure.detail, tr)
      : errorText(failure, game ? gameFields : reviewFields, tr);
  };

  /** The service's own 413 (a JSON ``detail``, naming its body limit in bytes) to a
   * review, which posted the record: the record is what is too large. Its words were
   * the service's of any request ("the request body is larger than the limit of
   * 524288 bytes"). */
  const tooLarge = (detail, tr) => {
    const limit = /\d+/.exec(detail)?.[0];
    return limit === undefined
      ? tr.t("The game record is too large for the service.")
      : tr.t("The game record is too large for the service: it reviews a record of at most {limit} bytes.", { limit });
  };

  // One job at a time: a review, or a bot game and its review. A newer job, an edited
  // record, another game or another language aborts the one in flight, so an older
  // answer never lands over a newer one (or beside a record it is not about).
  const playButton = document.getElementById("review-play");
  const slot = new RequestSlot(() => {
    setBusy(reviewButton, false);
    reviewButton.textContent = tr.t("Review");
    setBusy(playButton, false);
    playButton.textContent = tr.t("Play a bot game (strong vs greedy)");
  });

  /** Review ``parsed`` (a record of ``part``'s game) for the job ``mine`` and show the
   * review, in ``tr``'s language. */
  const review = async (part, parsed, mine, tr) => {
    setBusy(reviewButton, true);
    reviewButton.textContent = tr.t("Reviewing\u2026");
    const request = { record: parsed, lang: tr.lang, ...part.request(parsed, tr) };
    const answer = await postJson(part.endpoint, request, {
      signal: mine.signal,
      tr,
      expected: (answer) =>
        Array.isArray(answer.turns) && Array.isArray(answer.players) && part.expected(answer),
    });
    if (!slot.holds(mine)) return;
    if (answer.turns.length === 0) {
      clear();
      error.textContent = tr.t("The game record has no turns: there is nothing to review.");
      return;
    }
    turns = answer.turns;
    shown = part;
    parsedShown = parsed;
    summary.replaceChildren(...part.summary(answer, tr));
    if (answer.time_capped) summary.append(cappedNote(tr));
    list.replaceChildren(...turns.map((turn, i) => {
      const item = element("li");
      const mark = part.mark(turn);
      // An illegal turn is said, not only drawn red (a colour-blind player, a screen
      // reader); a short one's figures say it already (played 1 / best 3).
      const label = part.label(turn, tr);
      const button = element("button", mark === "illegal" ? tr.t("{label} (illegal)", { label }) : label);
      button.type = "button";
      if (mark) button.classList.add(mark);
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
      error.textContent = chosen().game
        ? tr.t("There is no game record to review: paste one above, or play a bot game.")
        : tr.t("There is no game record to review: paste one above.");
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
    // Another game's record: said here, with the choice to make (the service would
    // name the command and the route that review it, not the choice on this page).
    const other = Object.entries(games).find(([, part]) => part !== chosen() && part.format === parsed?.format);
    if (other) {
      slot.free();
      clear();
      error.textContent = tr.t("This is a {game} game record: choose {game} under Game.", { game: tr.t(other[1].name) });
      return;
    }
    const mine = slot.begin(reviewButton); // review() says "Reviewing..."
    try {
      await review(chosen(), parsed, mine, tr);
    } catch (failure) {
      fail(failure);
    } finally {
      slot.end(mine);
    }
  };

  // The game chosen: its own help and record placeholder; the bot game only for a
  // game that has one.
  const showGame = () => {
    const part = chosen();
    for (const said of document.querySelectorAll("#panel-review [data-review-game]")) {
      said.hidden = said.dataset.reviewGame !== form.game.value;
    }
    record.placeholder = part.placeholder;
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    runReview();
  });
  // An edited record, or another game: the review shown, and one on its way, are of
  // the old one.
  const drop = () => {
    slot.free();
    clear();
    error.replaceChildren();
  };
  record.addEventListener("input", drop);
  for (const choice of form.game) {
    choice.addEventListener("change", () => {
      drop();
      showGame();
    });
  }
  showGame();

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
    const part = chosen();
    if (!part.game) return; // hidden: this game has no bot game
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
      const answer = await postJson(part.game, { bots: ["strong", "greedy"], seed, lang: asked.lang }, {
        signal: mine.signal,
        tr: asked,
        expected: (answer) => typeof answer.record === "object" && answer.record !== null,
      });
      if (!slot.holds(mine)) return;
      played = true;
      record.value = JSON.stringify(answer.record);
      await review(part, answer.record, mine, asked);
    } catch (failure) {
      fail(failure, !played);
    } finally {
      slot.end(mine);
    }
  });
  document.getElementById("review-previous").addEventListener("click", () => show(current - 1));
  document.getElementById("review-next").addEventListener("click", () => show(current + 1));
  document.getElementById("review-next-missed").addEventListener("click", () => {
    const next = turns.findIndex((turn, i) => i > current && shown.missed(turn));
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
