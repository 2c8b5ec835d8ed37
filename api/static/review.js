// The demo page's Review tab: a game record in (pasted, or a bot game played by the
// service), the review out: each player's accuracy and costliest turns, a per-turn
// chart, and the game turn by turn with the missed tiles highlighted
// (docs/games.md: "Game review").

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

function percent(share) {
  return share === null ? "-" : `${Math.round(share * 100)}%`;
}

function playerName(player) {
  return `Player ${player.player}${player.name ? ` (${player.name})` : ""}`;
}

/** Each player's figures: accuracy, tiles placed of possible, illegal and costliest turns. */
function drawSummary(review) {
  const unit = review.objective;
  const table = element("table", undefined, "review-summary");
  const head = table.createTHead().insertRow();
  for (const title of ["player", "turns at the best", `${unit} placed / possible`, "costliest turns", "illegal turns", "score"]) {
    head.append(element("th", title));
  }
  const body = table.createTBody();
  for (const player of review.players) {
    const row = body.insertRow();
    row.insertCell().textContent = playerName(player);
    row.insertCell().textContent =
      `${player.turns_at_best} of ${player.turns} (${percent(player.accuracy)})`;
    row.insertCell().textContent =
      `${player.placed} / ${player.possible} (${percent(player.placed_share)})`;
    row.insertCell().textContent =
      player.costliest.map((c) => `turn ${c.turn} (${c.shortfall} short)`).join(", ") || "none";
    row.insertCell().textContent = player.illegal_turns.join(", ") || "none";
    row.insertCell().textContent = player.score === null ? "-" : String(player.score);
  }
  return table;
}

/** A bar chart per player: the best play's size (grey) and what was played (blue). */
function drawChart(review) {
  const figure = element("figure", undefined, "review-chart");
  const most = Math.max(1, ...review.players.flatMap((p) => p.series.best));
  for (const player of review.players) {
    const { turn, played, best } = player.series;
    const width = Math.max(120, turn.length * 8);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} 40`);
    svg.setAttribute("role", "img");
    const missed = best.reduce((sum, b, i) => sum + b - played[i], 0);
    svg.setAttribute("aria-label",
      `${playerName(player)}: ${turn.length} turns, ${missed} ${review.objective} left that the best plays placed`);
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
    const caption = element("figcaption", `${playerName(player)}: best (grey) and played (blue), turn by turn`);
    figure.append(svg, caption);
  }
  return figure;
}

/** One turn: the rack with the missed tiles highlighted, the play, and the best play. */
function drawTurn(turn) {
  const parts = [];
  const verdict = !turn.legal
    ? `Illegal: ${turn.problems.join("; ")}`
    : !turn.best
      ? `Not reviewed: ${turn.unreviewed}`
      : turn.at_best
        ? "At the best."
        : `${turn.shortfall} short of the best: the best play placed ${turn.best.tiles} tiles (${turn.best.points} points).`;
  const did =
    turn.action === "play" ? `played ${turn.played.join(" ")}`
      : turn.action === "draw" ? `drew ${turn.drawn}` : "passed (the pool was empty)";
  parts.push(element("h3", `Turn ${turn.turn}: player ${turn.player} ${did}`));
  parts.push(element("p", verdict, turn.legal ? (turn.at_best ? "note" : "missed-note") : "error"));
  const missed = [...turn.missed];
  const rack = turn.rack.map((tile) => {
    const index = missed.indexOf(tile);
    const drawn = drawTile(tile);
    if (index >= 0) {
      missed.splice(index, 1);
      drawn.classList.add("missed");
      drawn.setAttribute("aria-label", `${drawn.getAttribute("aria-label")}, missed`);
    }
    return drawn;
  });
  parts.push(drawSet("rack", rack, `rack before the turn: ${turn.rack.join(" ")}`));
  parts.push(element("h4", "Table after the turn"));
  turn.table_after.forEach((tiles, i) => parts.push(drawSet(`set ${i}`, tiles.map((t) => drawTile(t)))));
  if (turn.best && !turn.at_best) {
    parts.push(element("h4", `The best play: ${turn.best.played.join(" ") || "nothing"}`));
    const placed = [...turn.best.played];
    turn.best.table.forEach((tiles, i) => {
      const drawn = tiles.map((tile) => {
        const index = placed.indexOf(tile);
        if (index < 0) return drawTile(tile);
        placed.splice(index, 1);
        return drawTile(tile, { played: true });
      });
      parts.push(drawSet(`set ${i}`, drawn));
    });
  }
  return parts;
}

export function setUpReview() {
  const form = document.getElementById("review-form");
  const record = form.record;
  const error = document.getElementById("review-error");
  const output = document.getElementById("review-output");
  const list = document.getElementById("review-turns");
  const detail = document.getElementById("review-turn");
  const reviewButton = document.getElementById("review-run");
  let turns = [];
  let current = 0;

  const show = (index) => {
    current = Math.max(0, Math.min(index, turns.length - 1));
    for (const [i, item] of [...list.children].entries()) {
      item.querySelector("button").setAttribute("aria-current", String(i === current));
    }
    detail.replaceChildren(...drawTurn(turns[current]));
  };

  const fail = (failure) => {
    if (failure.name === "AbortError") return;
    error.textContent = failure.message;
  };

  document.getElementById("review-play").addEventListener("click", async () => {
    error.replaceChildren();
    const seed = Number(form.seed.value || 0);
    try {
      const answer = await postJson(GAME, { bots: ["strong", "greedy"], seed });
      record.value = JSON.stringify(answer.record);
    } catch (failure) {
      fail(failure);
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.replaceChildren();
    let parsed;
    try {
      parsed = JSON.parse(record.value);
    } catch (failure) {
      error.textContent = `The game record is not valid JSON: ${failure.message}`;
      return;
    }
    reviewButton.disabled = true;
    reviewButton.textContent = "Reviewing\u2026";
    try {
      const review = await postJson(REVIEW, { record: parsed });
      turns = review.turns;
      document.getElementById("review-summary").replaceChildren(drawSummary(review), drawChart(review));
      list.replaceChildren(...turns.map((turn, i) => {
        const item = element("li");
        const label = turn.action === "play" ? `played ${turn.tiles_played}` : turn.action;
        const best = turn.best ? `best ${turn.best.tiles}` : "not reviewed";
        const button = element("button", `${turn.turn}. P${turn.player} ${label} / ${best}`);
        button.type = "button";
        if (!turn.legal) button.classList.add("illegal");
        else if (!turn.at_best) button.classList.add("short");
        button.addEventListener("click", () => show(i));
        item.append(button);
        return item;
      }));
      output.hidden = false;
      show(0);
    } catch (failure) {
      fail(failure);
    } finally {
      reviewButton.disabled = false;
      reviewButton.textContent = "Review";
    }
  });
  document.getElementById("review-previous").addEventListener("click", () => show(current - 1));
  document.getElementById("review-next").addEventListener("click", () => show(current + 1));
  document.getElementById("review-next-missed").addEventListener("click", () => {
    const next = turns.findIndex((turn, i) => i > current && turn.best && !turn.at_best);
    if (next >= 0) show(next);
  });
}
