// Rummikub tiles and Shanghai cards drawn as elements, each with a spoken name.
// The notation is the service's (README: "Tile notation", "Card notation"); the
// service stays the judge of what is valid, these only draw and name.

export const COLOURS = {
  R: "red", B: "blue", K: "black", O: "orange", G: "green", Y: "yellow", P: "purple", W: "white",
};
const TILE = /^([RBKOGYPW])(\d{1,2})$/i;
const JOKER_TILE = /^J$/i;

export const SUITS = { S: ["spades", "\u2660"], H: ["hearts", "\u2665"], D: ["diamonds", "\u2666"], C: ["clubs", "\u2663"] };
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };
const CARD = /^(10|[2-9TJQKA])([SHDC])$/i;
const RANK = /^(10|[2-9TJQKA])$/i;
const JOKER_CARD = /^(JK|\*)$/i;

/** "R1 r2, J" -> ["R1", "r2", "J"]: tiles or cards are separated by spaces or commas. */
export function splitWords(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** "R5" -> "red 5", "J" -> "joker"; null for anything else. */
export function tileName(text) {
  if (JOKER_TILE.test(text)) return "joker";
  const match = TILE.exec(text);
  return match ? `${COLOURS[match[1].toUpperCase()]} ${Number(match[2])}` : null;
}

/** "7H" -> "7 of hearts", "JK" -> "joker", "8" (a rank, what a wild card in a set
 * stands for) -> "8"; null for anything else. */
export function cardName(text) {
  if (JOKER_CARD.test(text)) return "joker";
  const match = CARD.exec(text) ?? RANK.exec(text);
  if (!match) return null;
  const rank = match[1].toUpperCase() === "T" ? "10" : match[1].toUpperCase();
  const rankName = RANK_NAMES[rank] ?? rank;
  return match[2] ? `${rankName} of ${SUITS[match[2].toUpperCase()][0]}` : `any ${rankName}`;
}

function cardFace(text) {
  const match = CARD.exec(text) ?? RANK.exec(text);
  if (!match) return text;
  const rank = match[1].toUpperCase() === "T" ? "10" : match[1].toUpperCase();
  return match[2] ? rank + SUITS[match[2].toUpperCase()][1] : rank;
}

/** The element for one tile or card: a button when ``onClick`` is given, else an
 * image with a name. ``as``: what a joker (or wild card) stands for; ``played``:
 * highlighted as coming from the player's rack (or hand). */
function drawPiece(kind, face, name, { classes, as, asFace, asName, played, onClick, actionLabel }) {
  const owner = kind === "tile" ? "rack" : "hand";
  const element = document.createElement(onClick ? "button" : "span");
  element.className = [kind, ...classes].join(" ");
  const main = document.createElement("span");
  main.textContent = face;
  element.append(main);
  let label = name;
  if (as) {
    const small = document.createElement("span");
    small.className = "as";
    small.textContent = asFace;
    element.append(small);
    label += ` as ${asName}`;
  }
  if (played) {
    element.classList.add("played");
    label += `, from your ${owner}`;
  }
  if (onClick) {
    element.type = "button";
    element.addEventListener("click", onClick);
    label = actionLabel ? `${actionLabel} ${label}` : label;
  } else {
    element.setAttribute("role", "img");
  }
  element.setAttribute("aria-label", label);
  element.title = label;
  return element;
}

/** A Rummikub tile, e.g. drawTile("J", {as: "R6", played: true}). */
export function drawTile(text, options = {}) {
  const name = tileName(text);
  const match = TILE.exec(text);
  const joker = JOKER_TILE.test(text);
  const classes = joker ? ["joker"] : match ? [`c-${match[1].toUpperCase()}`] : ["bad"];
  const face = joker ? "J" : match ? String(Number(match[2])) : text;
  const as = options.as && options.as.toUpperCase() !== text.toUpperCase() ? options.as : null;
  const element = drawPiece("tile", face, name ?? `not a tile: ${text}`, {
    ...options,
    classes,
    as,
    asFace: as,
    asName: as && tileName(as),
  });
  element.dataset.tile = text.toUpperCase();
  return element;
}

/** A Shanghai card, e.g. drawCard("JK", {as: "6S"}). */
export function drawCard(text, options = {}) {
  const name = cardName(text);
  const joker = JOKER_CARD.test(text);
  const suit = (CARD.exec(text) ?? [])[2]?.toUpperCase();
  const classes = joker ? ["joker"] : !name ? ["bad"] : suit === "H" || suit === "D" ? ["red"] : [];
  const as = options.as && options.as.toUpperCase() !== text.toUpperCase() ? options.as : null;
  const element = drawPiece("card", joker ? "\u2605" : cardFace(text), name ?? `not a card: ${text}`, {
    ...options,
    classes,
    as,
    asFace: as && cardFace(as),
    asName: as && cardName(as),
  });
  element.dataset.card = text.toUpperCase();
  return element;
}

/** A row of pieces with a name: one table set or meld. */
export function drawSet(name, pieces, label = name) {
  const row = document.createElement("div");
  row.className = "set";
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  const title = document.createElement("span");
  title.className = "set-name";
  title.textContent = name;
  row.append(title, ...pieces);
  return row;
}
