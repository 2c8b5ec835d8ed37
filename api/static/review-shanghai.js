// The Review tab's Shanghai part (review.js has what both games share): each player's
// turns at the best, points left beyond the best plays and the turns that could have
// gone out or down, and each play phase beside the best one found, with the
// shortfalls the service proved (docs/shanghai.md: "Game review"). The draw and the
// discard are not judged.

import { N_ } from "./i18n.js";
import { atBest, bestLabel, element, playerName, summaryTable } from "./review.js";
import { describeContract, drawLaid, drawLayOffs, drawMeld, turnMelds } from "./shanghai.js";
import { drawCard, drawSet } from "./tiles.js";
import { cappedNote } from "./time-capped.js";

function points(n, tr) {
  return tr.tn("{n} point", "{n} points", n);
}

/** The turns named in a player's summary ({hand_number, turn} each), apart by "; ":
 * each holds a comma, and "hand 1, turn 8, hand 2, turn 3" read as four. */
function places(turns, tr) {
  return turns.map((t) => tr.t("hand {hand}, turn {turn}", { hand: t.hand_number, turn: t.turn }))
    .join(tr.t("; ")) || tr.t("none");
}

/** Each player's figures, as the service counted them. */
function drawSummary(review, tr) {
  const titles = [
    tr.t("player"), tr.t("turns at the best"), tr.t("points left in hand beyond the best plays"),
    tr.t("could have gone out"), tr.t("could have gone down"), tr.t("best not proven"), tr.t("score"),
  ];
  return summaryTable(titles, review.players.map((player) => [
    playerName(player, tr),
    // A seat whose hand ended before its turn came: "0 of 0 (-)" said nothing.
    player.turns
      ? atBest(player, player.turns_at_best / player.turns, tr)
      : tr.t("no turns in the record"),
    // Beyond the plays found: with a best not proven, a proven one may leave fewer.
    player.proven
      ? points(player.points_missed, tr)
      : tr.t("{points} beyond the plays found (not every best was proven)", {
        points: points(player.points_missed, tr),
      }),
    places(player.could_go_out, tr),
    places(player.could_go_down, tr),
    places(player.unproven, tr),
    player.winner ? tr.t("{score} (winner)", { score: player.score }) : String(player.score),
  ]));
}

/** What the review says of the turn, and the class it is shown with. */
function verdict(turn, tr) {
  if (turn.problems.length > 0) {
    return [tr.t("Short of the best: {problems}.", { problems: turn.problems.join(tr.t("; ")) }), "missed-note"];
  }
  if (turn.at_best) return [turn.went_out ? tr.t("Went out: at the best.") : tr.t("At the best."), "note"];
  if (!turn.best) {
    return [tr.t("Not reviewed: the search stopped before finding any play."), "note"];
  }
  return [tr.t("Not proven at the best: the search stopped before proving the best play, and found none better."), "note"];
}

/** The cards left in hand after the plays (before the discard) and their points. */
function leftText(cards, n, tr) {
  return tr.t("Left in hand after the plays: {cards} ({points}).", {
    cards: cards.join(" ") || tr.t("nothing"),
    points: points(n, tr),
  });
}

/** A play phase drawn: ``play`` ({melds, swaps, plays}: the advice's form) on ``table``. */
function drawPlay(play, table, tr) {
  const melds = turnMelds(table, play.melds, tr, N_("new meld {index}"));
  const parts = [
    ...drawLaid(play.melds, play.swaps, melds, table.length, tr),
    ...drawLayOffs(play.plays, [], melds, tr),
  ];
  return parts.length > 0 ? parts : [element("p", tr.t("Laid nothing."))];
}

/** One play phase: the hand after the draw, the table, the play, and the best play
 * found when the turn is not at the best. */
function drawTurn(turn, tr) {
  const parts = [element("h3", tr.t("Hand {hand}, turn {turn}: player {player}", {
    hand: turn.hand_number, turn: turn.turn, player: turn.player,
  }))];
  const [said, className] = verdict(turn, tr);
  parts.push(element("p", said, className));
  if (turn.time_capped) parts.push(cappedNote(tr));
  parts.push(element("p", turn.down
    ? tr.t("Down before the turn.")
    : tr.t("Contract: {contract}.", { contract: describeContract(turn.contract, tr) })));
  parts.push(drawSet(tr.t("hand"), turn.hand.map((card) => drawCard(card, { tr })),
    tr.t("hand after the draw: {cards}", { cards: turn.hand.join(" ") })));
  parts.push(element("h4", tr.t("Table before the play")));
  const table = turnMelds(turn.table, [], tr);
  parts.push(...(turn.table.length > 0
    ? turn.table.map((meld, i) => drawMeld(table.name(i), meld, tr))
    : [element("p", tr.t("none"))]));
  // The record's play in the advice's form: melds of cards, swaps giving a card.
  const done = turn.play;
  parts.push(element("h4", tr.t("The play")));
  parts.push(...drawPlay({
    melds: done.melds.map((cards) => ({ cards })),
    swaps: done.swaps.map((swap) => ({ meld: swap.meld, position: swap.position, give: swap.card })),
    plays: done.lay_offs,
  }, turn.table, tr));
  parts.push(element("p", leftText(turn.left, turn.points_left, tr)));
  if (turn.went_out) parts.push(element("p", tr.t("Went out.")));
  else if (done.discard) parts.push(element("p", tr.t("Discarded {card}.", { card: done.discard })));
  const best = turn.best;
  if (best && !turn.at_best) {
    parts.push(element("h4", best.status === "optimal"
      ? tr.t("The best play")
      : tr.t("A play the search found (not proven the best)")));
    parts.push(...drawPlay({
      melds: best.go_down?.melds ?? [],
      swaps: [...best.go_down?.swaps ?? [], ...best.lay_offs?.swaps ?? []],
      plays: best.lay_offs?.plays ?? [],
    }, turn.table, tr));
    parts.push(element("p", leftText(best.left, best.points_left, tr)));
    if (best.goes_out) parts.push(element("p", tr.t("Goes out.")));
  }
  return parts;
}

/** The Shanghai game's part of the Review tab (review.js). */
export const SHANGHAI_REVIEW = {
  format: "meldwise-shanghai-game",
  name: N_("Shanghai"),
  endpoint: "v1/shanghai/review",
  game: "v1/shanghai/game",
  placeholder: '{"format": "meldwise-shanghai-game", "version": 1, "hands": [...]}',
  request: () => ({}),
  expected: (review) => review.players.every((player) => Array.isArray(player.could_go_out)),
  // The notes (the service's words, in the request's language): each hand whose
  // contract no player could ever meet under the record's settings (or whose check of
  // that did not settle), and why.
  summary: (review, tr) => [drawSummary(review, tr), ...review.notes.map((note) => element("p", note, "note"))],
  label(turn, tr) {
    const best = turn.best ? bestLabel(turn.best, turn.best.points_left, tr) : tr.t("none found");
    return tr.t("{hand}-{turn}. P{player} left {points} / {best}", {
      hand: turn.hand_number, turn: turn.turn, player: turn.player, points: turn.points_left, best,
    });
  },
  mark: (turn) => (turn.problems.length > 0 ? "short" : null),
  missed: (turn) => turn.problems.length > 0,
  drawTurn,
};
