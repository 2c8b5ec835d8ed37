// Rummikub tiles and Shanghai cards drawn as elements, each with a spoken name.
// The notation is the service's (README: "Tile notation", "Card notation"; Japanese
// input too: 赤5, Ｒ５, ジョーカー, 7♥; a joker with what it stands for, J(R6), JK(6H),
// 2C(6H), JK(8), as answers print it); the service stays the judge of what is valid,
// these only draw and name. Names follow ``options.tr`` (i18n.js). Colours follow the
// service's rule (docs/i18n.md, "Notation"; Rules.canonical): in a game with orange but
// no yellow (4 or 5 colours, the standard game included) O and Y are the same tile,
// orange, which Japanese sets and players have as yellow (黄): drawn and named yellow
// in Japanese, orange otherwise. With 6 or more colours (``options.colours``) yellow
// is a colour of its own and orange stays orange (橙) in Japanese too.

import { N_, translator } from "./i18n.js";

export const COLOURS = {
  R: N_("red"), B: N_("blue"), K: N_("black"), O: N_("orange"),
  G: N_("green"), Y: N_("yellow"), P: N_("purple"), W: N_("white"),
};
// A number as the service reads one (solver/rummikub/notation.py, Tile.parse): 1 to 26,
// leading zeros not counting (R05 and R005 are R5).
const TILE = /^([RBKOGYPW])0*([1-9]|1\d|2[0-6])$/i;
const JOKER_TILE = /^(J|JOKER|ジョーカー)$/i;
const KANJI = { 赤: "R", 青: "B", 黒: "K", 黄: "Y", 橙: "O", オレンジ: "O", 緑: "G", 紫: "P", 白: "W" };

export const SUITS = {
  S: [N_("spades"), "\u2660"], H: [N_("hearts"), "\u2665"], D: [N_("diamonds"), "\u2666"], C: [N_("clubs"), "\u2663"],
};
const RANK_NAMES = { J: N_("jack"), Q: N_("queen"), K: N_("king"), A: N_("ace") };
// A rank as the service reads one in a card (solver/shanghai/notation.py, Card.parse):
// zeros before a number's rank do not count (07H is 7H, 010S is 10S), before a letter
// they do (0TH is no card). A rank alone, what a wild card stands for in a set (JK(8)),
// is read without them.
const CARD = /^(?:0+(?=[1-9]))?(10|[2-9TJQKA])([SHDC])$/i;
const RANK = /^(10|[2-9TJQKA])$/i;
const JOKER_CARD = /^(JK|JOKER|\*|ジョーカー)$/i;
// name(meant): a joker (or wild two) written with what it stands for
const BRACKETS = /^([^()]+)\(([^()]+)\)$/;
const SUIT_SYMBOLS = {
  "\u2660": "S", "\u2664": "S", "\u2665": "H", "\u2661": "H", "\u2764": "H",
  "\u2666": "D", "\u2662": "D", "\u2663": "C", "\u2667": "C",
};
// Emoji variation selectors, which a phone adds to a suit symbol (♥ U+FE0F): no meaning.
const VARIATION_SELECTORS = /[\ufe0e\ufe0f]/g;
const ENGLISH = translator("en");

/** ``text`` with what a Japanese keyboard types folded to ASCII, as the service folds
 * it (solver/written.py, ``piece``): the Halfwidth and Fullwidth Forms block and the
 * ideographic space as NFKC reads them, and no other look-alike (a superscript ¹ is
 * no digit: NFKC of the whole text drew R¹ as R1, which the service refuses). */
function typed(text) {
  return text.replace(/[\u3000\uff01-\uffef]/g, (c) => c.normalize("NFKC")).normalize("NFC");
}

/** A tile as typed, in the service's letters: full-width to ASCII, 赤5 -> R5. */
export function readTile(text) {
  const norm = typed(text).trim();
  const bracket = BRACKETS.exec(norm); // ジョーカー(赤6) -> J(R6)
  if (bracket) return `${readTile(bracket[1])}(${readTile(bracket[2])})`;
  if (norm === "ジョーカー") return "J";
  for (const [name, letter] of Object.entries(KANJI)) {
    if (norm.startsWith(name)) return letter + norm.slice(name.length).trim();
  }
  return norm;
}

/** A card as typed, in the service's letters: full-width to ASCII, 7♥ or ♥7 -> 7H. */
export function readCard(text) {
  let norm = typed(text).replace(VARIATION_SELECTORS, "").trim();
  const bracket = BRACKETS.exec(norm); // ジョーカー(6♥) -> JK(6H)
  if (bracket) return `${readCard(bracket[1])}(${readCard(bracket[2])})`;
  if (norm === "ジョーカー") return "JK";
  if (SUIT_SYMBOLS[norm[0]]) norm = norm.slice(1) + norm[0];
  const last = norm.slice(-1);
  return SUIT_SYMBOLS[last] ? norm.slice(0, -1) + SUIT_SYMBOLS[last] : norm;
}

/** A joker written with the tile it stands for (J(R6), as answers print it): the
 * tile meant, e.g. "R6"; null for any other text (read by readTile). */
function tileMeant(text) {
  const bracket = BRACKETS.exec(text);
  return bracket && JOKER_TILE.test(bracket[1]) && TILE.test(bracket[2]) ? bracket[2] : null;
}

/** A wild card written with what it stands for (JK(6H), 2C(6H), or in a set a rank:
 * JK(8)): [the card, what it stands for]; null for any other text (read by readCard). */
function cardMeant(text) {
  const bracket = BRACKETS.exec(text);
  if (!bracket) return null;
  const [, card, meant] = bracket;
  const two = CARD.exec(card)?.[1] === "2"; // wild when the rules say so
  const stands = CARD.test(meant) || RANK.test(meant);
  return (JOKER_CARD.test(card) || two) && stands ? [card, meant] : null;
}

/** The standard game's number of colours (R B K O): the service's default. */
export const STANDARD_COLOURS = 4;

/** The colour letter a tile is drawn in, in a game of ``colours`` colours (the first
 * ones of R B K O G Y P W). */
function drawnColour(letter, tr, colours = STANDARD_COLOURS) {
  const orangeNotYellow = colours > 3 && colours <= 5; // as Rules.canonical
  if (!orangeNotYellow || (letter !== "O" && letter !== "Y")) return letter;
  return tr.lang === "ja" ? "Y" : "O";
}

/** A tile's colour written on it, so that it is not told by the colour alone (a
 * player who cannot tell red from orange): the letter of the notation (R, O), in
 * Japanese the colour's kanji, as its name says it (赤, 黄). */
function colourMark(letter, tr) {
  return tr.lang === "ja" ? tr.t(COLOURS[letter]) : letter;
}

/** "R1 r2, J" -> ["R1", "r2", "J"]: tiles or cards are separated by spaces or commas,
 * as the service splits them (solver/written.py): also the full-width comma and the
 * ideographic comma and space a Japanese keyboard types (，、and U+3000). */
export function splitWords(text) {
  return text.split(/[\s,\uff0c\u3001]+/).filter(Boolean);
}

/** "R5" -> "red 5" (赤5), "J" -> "joker"; null for anything else. ``colours``: how
 * many the game has (the fourth is named as drawnColour says). */
export function tileName(text, tr = ENGLISH, colours = STANDARD_COLOURS) {
  text = readTile(text);
  const meant = tileMeant(text);
  if (meant) return tr.t("{piece} as {meant}", { piece: tr.t("joker"), meant: tileName(meant, tr, colours) });
  if (JOKER_TILE.test(text)) return tr.t("joker");
  const match = TILE.exec(text);
  if (!match) return null;
  const colour = COLOURS[drawnColour(match[1].toUpperCase(), tr, colours)];
  return tr.t("{colour} {number}", { colour: tr.t(colour), number: Number(match[2]) });
}

/** "7H" -> "7 of hearts", "JK" -> "joker", "8" (a rank, what a wild card in a set
 * stands for) -> "any 8"; null for anything else. */
export function cardName(text, tr = ENGLISH) {
  text = readCard(text);
  const wild = cardMeant(text);
  if (wild) return tr.t("{piece} as {meant}", { piece: cardName(wild[0], tr), meant: cardName(wild[1], tr) });
  if (JOKER_CARD.test(text)) return tr.t("joker");
  const match = CARD.exec(text) ?? RANK.exec(text);
  if (!match) return null;
  const rank = match[1].toUpperCase() === "T" ? "10" : match[1].toUpperCase();
  const rankName = RANK_NAMES[rank] ? tr.t(RANK_NAMES[rank]) : rank;
  if (!match[2]) return tr.t("any {rank}", { rank: rankName });
  return tr.t("{rank} of {suit}", { rank: rankName, suit: tr.t(SUITS[match[2].toUpperCase()][0]) });
}

function cardFace(text) {
  text = readCard(text);
  const match = CARD.exec(text) ?? RANK.exec(text);
  if (!match) return text;
  const rank = match[1].toUpperCase() === "T" ? "10" : match[1].toUpperCase();
  return match[2] ? rank + SUITS[match[2].toUpperCase()][1] : rank;
}

/** The element for one tile or card: a button when ``onClick`` is given, else an
 * image with a name. ``mark``: written small under the face (a tile's colour);
 * ``as``: what a joker (or wild card) stands for; ``played``: highlighted as coming
 * from the player's rack (or hand). */
function drawPiece(kind, face, name, { classes, mark, as, asFace, asName, played, onClick, actionLabel, tr = ENGLISH }) {
  const element = document.createElement(onClick ? "button" : "span");
  element.className = [kind, ...classes].join(" ");
  const main = document.createElement("span");
  main.textContent = face;
  element.append(main);
  if (mark) {
    const small = document.createElement("span");
    small.className = "mark";
    small.textContent = mark;
    element.append(small);
  }
  let label = name;
  if (as) {
    const small = document.createElement("span");
    small.className = "as";
    small.textContent = asFace;
    element.append(small);
    label = tr.t("{piece} as {meant}", { piece: label, meant: asName });
  }
  if (played) {
    element.classList.add("played");
    label = kind === "tile"
      ? tr.t("{piece}, from your rack", { piece: label })
      : tr.t("{piece}, from your hand", { piece: label });
  }
  if (onClick) {
    element.type = "button";
    element.addEventListener("click", onClick);
    // actionLabel: a message such as "add {piece}", already in the reader's language.
    // The name is put in by a function: a replacement string would read a typed "$&"
    // or "$`" in it as a pattern.
    label = actionLabel ? actionLabel.replace("{piece}", () => label) : label;
  } else {
    element.setAttribute("role", "img");
  }
  element.setAttribute("aria-label", label);
  element.title = label;
  return element;
}

/** A Rummikub tile, e.g. drawTile("J", {as: "R6", played: true}) (or "J(R6)");
 * ``colours``: how many the game has (default the standard game's 4). */
export function drawTile(text, options = {}) {
  const tr = options.tr ?? ENGLISH;
  const colours = options.colours ?? STANDARD_COLOURS;
  text = readTile(text);
  const meant = tileMeant(text);
  if (meant) {
    text = "J";
    options = { ...options, as: options.as ?? meant };
  }
  const name = tileName(text, tr, colours);
  const match = TILE.exec(text);
  const joker = JOKER_TILE.test(text);
  const colour = match && drawnColour(match[1].toUpperCase(), tr, colours);
  const classes = joker ? ["joker"] : match ? [`c-${colour}`] : ["bad"];
  const face = joker ? "J" : match ? String(Number(match[2])) : text;
  const as = options.as && options.as.toUpperCase() !== text.toUpperCase() ? options.as : null;
  const element = drawPiece("tile", face, name ?? tr.t("not a tile: {text}", { text }), {
    ...options,
    classes,
    mark: colour && colourMark(colour, tr),
    as,
    asFace: as,
    asName: as && tileName(as, tr, colours),
  });
  element.dataset.tile = text.toUpperCase();
  return element;
}

/** A Shanghai card, e.g. drawCard("JK", {as: "6S"}) (or "JK(6S)"). */
export function drawCard(text, options = {}) {
  const tr = options.tr ?? ENGLISH;
  text = readCard(text);
  const wild = cardMeant(text);
  if (wild) {
    text = wild[0];
    options = { ...options, as: options.as ?? wild[1] };
  }
  const name = cardName(text, tr);
  const joker = JOKER_CARD.test(text);
  const suit = (CARD.exec(text) ?? [])[2]?.toUpperCase();
  const classes = joker ? ["joker"] : !name ? ["bad"] : suit === "H" || suit === "D" ? ["red"] : [];
  const as = options.as && options.as.toUpperCase() !== text.toUpperCase() ? options.as : null;
  const element = drawPiece("card", joker ? "\u2605" : cardFace(text), name ?? tr.t("not a card: {text}", { text }), {
    ...options,
    classes,
    as,
    asFace: as && cardFace(as),
    asName: as && cardName(as, tr),
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
