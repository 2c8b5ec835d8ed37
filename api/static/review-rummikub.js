// The Review tab's Rummikub part (review.js has what both games share): each player's
// accuracy and costliest turns, a per-turn chart, and each turn with the missed tiles
// highlighted on the rack (docs/games.md: "Game review").

import { N_ } from "./i18n.js";
import { atBest, bestLabel, element, listed, percent, playerName, summaryTable } from "./review.js";
import { playedMarks } from "./rummikub-answer.js";
import { drawSet, drawTile } from "./tiles.js";
import { cappedNote } from "./time-capped.js";

const SVG = "http://www.w3.org/2000/svg";

function unitName(objective, tr) {
  return objective === "points" ? tr.t("points") : tr.t("tiles");
}

/** Each player's figures: accuracy, tiles placed of possible, illegal and costliest turns. */
function drawSummary(review, tr) {
  const unit = unitName(review.objective, tr);
  const titles = [
    tr.t("player"), tr.t("turns at the best"), tr.t("{unit} placed / each turn's best, summed", { unit }),
    tr.t("costliest turns"), tr.t("illegal turns"), tr.t("score"),
  ];
  // Turns whose best was not proven: short of a best found, so by that much at least.
  const unproven = new Set(review.turns.filter((t) => t.best && t.best.status !== "optimal").map((t) => t.turn));
  return summaryTable(titles, review.players.map((player) => {
    // Turns left out of the figures are named, or "0 of 0 (-)" would stand unexplained.
    const unreviewed = player.unreviewed_turns.map((turn) => tr.t("turn {turn}", { turn }));
    return [
      playerName(player, tr),
      player.turns || unreviewed.length
        ? atBest(player, player.accuracy, tr) + (unreviewed.length
          ? tr.t("; ") + tr.t("not reviewed: {turns}", { turns: unreviewed.join(tr.t(", ")) })
          : "")
        // A seat the record ended before: "0 of 0 (-)" said nothing.
        : tr.t("no turns in the record"),
      // A sum over bests not proven is only at least this, and a share of it no share of
      // the best: "17 / 17 (100%)" was shown at a 1 ms limit with no best proven.
      player.proven
        ? tr.t("{placed} / {possible} ({share})", {
          placed: player.placed, possible: player.possible, share: percent(player.placed_share, tr),
        })
        : tr.t("{placed} / at least {possible} (not every best was proven)", {
          placed: player.placed, possible: player.possible,
        }),
      listed(player.costliest.map((c) => unproven.has(c.turn)
        ? tr.t("turn {turn} (at least {shortfall} short)", { turn: c.turn, shortfall: c.shortfall })
        : tr.t("turn {turn} ({shortfall} short)", { turn: c.turn, shortfall: c.shortfall })), tr),
      // Each illegal turn by its number, as the costliest are: a bare "2" read as a count.
      listed(player.illegal_turns.map((turn) => tr.t("turn {turn}", { turn })), tr),
      player.score === null ? "-" : String(player.score),
    ];
  }));
}

/** A bar chart per player with turns (the summary says a seat has none): the best
 * play's size (grey) and what was played (blue). A best the search did not prove is only
 * the best found: its bar is drawn in a dashed outline, not filled, and said so in the
 * caption and the turn's title; the tiles left are then at least the figure. */
function drawChart(review, tr) {
  const figure = element("figure", undefined, "review-chart");
  const most = Math.max(1, ...review.players.flatMap((p) => p.series.best));
  const bests = new Map(review.turns.filter((t) => t.best).map((t) => [t.turn, t.best]));
  const statuses = new Map([...bests].map(([turn, b]) => [turn, b.status]));
  const proven = new Set([...statuses].filter(([, status]) => status === "optimal").map(([turn]) => turn));
  const unit = unitName(review.objective, tr);
  for (const player of review.players.filter((p) => p.series.turn.length > 0)) {
    const { turn, played, best } = player.series;
    const width = Math.max(120, turn.length * 8);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} 40`);
    svg.setAttribute("role", "img");
    const missed = best.reduce((sum, b, i) => sum + b - played[i], 0);
    const left = review.objective === "points"
      ? tr.tn("{n} point", "{n} points", missed)
      : tr.tn("{n} tile", "{n} tiles", missed);
    const values = { player: playerName(player, tr), left };
    const allProven = turn.every((number) => proven.has(number));
    svg.setAttribute("aria-label", allProven
      ? tr.tn(
        "{player}: {n} turn, {left} short of its best play",
        "{player}: {n} turns, {left} short of each turn's best play, summed",
        turn.length, values)
      : tr.tn(
        "{player}: {n} turn, at least {left} short of its best play (not every best was proven)",
        "{player}: {n} turns, at least {left} short of each turn's best play, summed (not every best was proven)",
        turn.length, values));
    turn.forEach((number, i) => {
      const sure = proven.has(number);
      const group = document.createElementNS(SVG, "g");
      const title = document.createElementNS(SVG, "title"); // shown on hover
      const figures = { turn: number, played: played[i], best: best[i], unit };
      // A search that found no play (status unknown) counts the turn's own as its best.
      title.textContent = sure
        ? tr.t("turn {turn}: played {played}, best {best} ({unit})", figures)
        : statuses.get(number) === "unknown"
          ? tr.t("turn {turn}: played {played} ({unit}), no play found before the search stopped", figures)
          // What the search found, as the list says it: the series counts the turn's
          // own play when that is more.
          : tr.t("turn {turn}: played {played}, found {best} ({unit}), not proven the best", {
            ...figures, best: review.objective === "points" ? bests.get(number).points : bests.get(number).tiles,
          });
      group.append(title);
      for (const [value, colour, kind] of [[best[i], "#b0bec5", "best"], [played[i], "#1565c0", "played"]]) {
        const bar = document.createElementNS(SVG, "rect");
        const height = (value / most) * 38;
        bar.setAttribute("x", String(i * 8 + 1));
        bar.setAttribute("y", String(39 - height));
        bar.setAttribute("width", "6");
        bar.setAttribute("height", String(height));
        bar.dataset.bar = kind === "best" && !sure ? "found" : kind;
        if (kind === "best" && !sure) {
          // Outlined, not filled: no claim that the best is this high and no higher.
          bar.setAttribute("fill", "none");
          bar.setAttribute("stroke", "#546e7a");
          bar.setAttribute("stroke-width", "1");
          bar.setAttribute("stroke-dasharray", "2 1");
        } else {
          bar.setAttribute("fill", colour);
        }
        group.append(bar);
      }
      svg.append(group);
    });
    const caption = element("figcaption", allProven
      ? tr.t("{player}: best (grey) and played (blue), turn by turn", values)
      : tr.t("{player}: best (grey; dashed outline: the best found, not proven) and played (blue), turn by turn", values));
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
function drawTurn(turn, tr, record) {
  const colours = record?.settings?.rules?.colours; // undefined: the standard game's
  const parts = [];
  const verdict = !turn.legal
    ? tr.t("Illegal: {problems}", { problems: turn.problems.join(tr.t("; ")) })
    : !turn.best
      ? tr.t("Not reviewed: {why}", { why: turn.unreviewed })
      : turn.at_best
        ? tr.t("At the best.")
        : isShort(turn) && turn.best.status !== "optimal"
          // Short of a best found, not proven: by that much at least.
          ? tr.tn(
            "At least {shortfall} short of the best: the best play found placed {n} tile ({points}).",
            "At least {shortfall} short of the best: the best play found placed {n} tiles ({points}).",
            turn.best.tiles,
            { shortfall: turn.shortfall, points: tr.tn("{n} point", "{n} points", turn.best.points) },
          )
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
  if (turn.best?.time_capped) parts.push(cappedNote(tr));
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
    const marks = playedMarks(turn.best.table, turn.best.from_rack_places);
    turn.best.table.forEach((tiles, i) => {
      const drawn = tiles.map((tile, at) => drawTile(tile, { played: marks[i][at], tr, colours }));
      parts.push(drawSet(tr.t("set {index}", { index: i }), drawn));
    });
  }
  return parts;
}

/** The Rummikub game's part of the Review tab (review.js). */
export const RUMMIKUB_REVIEW = {
  format: "meldwise-rummikub-game",
  name: N_("Rummikub"),
  endpoint: "v1/rummikub/review",
  game: "v1/rummikub/game",
  placeholder: '{"format": "meldwise-rummikub-game", "version": 1, "turns": [...]}',
  request(parsed, tr) {
    // In Japanese the texts write the fourth colour Y (黄), as its tiles are drawn; a
    // game with a yellow of its own (6 colours or more) keeps O (as the service asks).
    return tr.lang === "ja" && (parsed?.settings?.rules?.colours ?? 4) <= 5 ? { notation: "RBYK" } : {};
  },
  expected: () => true,
  summary: (review, tr) => [drawSummary(review, tr), drawChart(review, tr)],
  label(turn, tr) {
    const action = turn.action === "play"
      ? tr.t("played {count}", { count: turn.tiles_played })
      : turn.action === "draw" ? tr.t("draw") : tr.t("pass");
    const best = turn.best ? bestLabel(turn.best, turn.best.tiles, tr) : tr.t("not reviewed");
    return tr.t("{turn}. P{player} {action} / {best}", { turn: turn.turn, player: turn.player, action, best });
  },
  mark: (turn) => (!turn.legal ? "illegal" : isShort(turn) ? "short" : null),
  missed: isShort,
  drawTurn,
};
