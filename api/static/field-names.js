// The service's errors name a request's fields as the wire writes them ('buys_left',
// table_before[0][0]: ...); a person reads them on the page by the labels shown there
// ('Buys left', "Table before the turn, set 0, tile 1: ..."), in the page's language.
// The service's words are otherwise kept.
//
// A refusal (422) lists the places its detail quotes ({"field": ["table_before", 0, 0],
// "quoted": "table_before[0][0]"}, in the order it quotes them: docs/http.md, "Errors"),
// so the page never reads them out of the words: a tile typed as "rack", or a record
// holding "seed", is never taken for the field. Only the fields given are named: a
// record's own keys ('rack' in record.turns[0]) stay. An answer's note naming a choice
// as the request writes it (phase 'draw') is said as the page shows that choice too
// (withChoices).

import { N_ } from "./i18n.js";

/** The text of ``input``'s label, as shown (its language's), or its id. */
export function labelOf(input) {
  return input.labels?.[0]?.textContent.replace(/\s+/g, " ").trim() || input.id;
}

/** A field named by its label alone (``label()``): 'seed', 'buys_left'. */
export function single(label) {
  return (path, tr) => (path.length === 0 ? label() : null);
}

/** A list of pieces (a rack, a hand): rack[1] is "Your rack, tile 2" (``piece`` names
 * the second, counted from 1). */
export function pieces(label, piece = N_("{field}, tile {number}")) {
  return (path, tr) => {
    if (path.length === 0) return label();
    if (path.length === 1 && typeof path[0] === "number") {
      return tr.t(piece, { field: label(), number: path[0] + 1 });
    }
    return null;
  };
}

/** A list of sets (melds) of pieces, counted from 0 as the page's drawing names them:
 * table_before[0][0] is "Table before the turn, set 0, tile 1". ``key``: the set's
 * list of pieces within it, for a meld written {cards, owner} (table[0].cards[1]);
 * ``owner``: how its owner is named (table[0].owner), when it has one. */
export function sets(
  label,
  {
    set = N_("{field}, set {index}"), piece = N_("{field}, set {index}, tile {number}"), key = null,
    owner = null,
  } = {},
) {
  return (path, tr) => {
    if (path.length === 0) return label();
    const [index, ...inner] = path;
    if (typeof index !== "number") return null;
    if (owner !== null && inner.length === 1 && inner[0] === "owner") return tr.t(owner, { field: label(), index });
    if (key !== null && inner[0] === key) inner.shift();
    else if (key !== null && inner.length > 0) return null; // another key of the set: as written
    if (inner.length === 0) return tr.t(set, { field: label(), index });
    if (inner.length === 1 && typeof inner[0] === "number") {
      return tr.t(piece, { field: label(), index, number: inner[0] + 1 });
    }
    return null;
  };
}

/** A JSON document pasted whole (the game record): the place "record.turns[0].rack[0]"
 * is "Game record (JSON): turns[0].rack[0]", as the service's own checks of it say
 * ("record: turns[0].rack: unknown tile ..."). Only where the path is what is quoted:
 * "missing field 'turn' in record.turns[0]" quotes the key 'turn' for that place. */
export function recordPlaces(label) {
  return (path, tr, quoted = "") => {
    if (path.length === 0) return label();
    const written = path.map((key, i) => (typeof key === "number" ? `[${key}]` : i > 0 ? `.${key}` : key)).join("");
    return quoted.replace(/^(['"])(.*)\1$/, "$2") === `record.${written}` ? `${label()}: ${written}` : null;
  };
}

/** An object of fields (``inner``: its key -> a namer): contract.sets[0] is
 * "sets of, size 1" when ``inner`` names sets so; the object itself is ``label()``. */
export function keyed(label, inner) {
  return (path, tr) => {
    if (path.length === 0) return label();
    const [key, ...rest] = path;
    return Object.hasOwn(inner, key) ? inner[key](rest, tr) : null;
  };
}

/** ``message`` with the ``places`` it quotes (a refusal's, each {field, quoted}: see
 * above) of ``fields`` (a wire field name -> a namer: single, pieces, sets or keyed) said
 * by the page's labels, in ``tr``'s language: each quoted text, found after the one
 * before it, replaced by its label (quoted as the field was: 'Buys left'). A place of
 * no field given, one the namer does not name, or one the message is about without
 * quoting it (quoted as ""), keeps the service's words. In Japanese a bare field name
 * that a sentence goes on from past a space is said as 「label」. */
export function withLabels(message, places, fields, tr) {
  if (typeof message !== "string" || !Array.isArray(places)) return message;
  let said = "";
  let start = 0;
  for (const place of places) {
    const { field, quoted } = place ?? {};
    if (!Array.isArray(field) || typeof quoted !== "string" || quoted === "") continue;
    const at = message.indexOf(quoted, start);
    if (at < 0) continue;
    const [name, ...path] = field;
    const label = Object.hasOwn(fields, name) ? fields[name](path, tr, quoted) : null;
    const end = at + quoted.length;
    if (label !== null && tr.lang === "ja" && quotedAs(quoted, label) === label && message[end] === " ") {
      // A Japanese sentence naming a field bare goes on past a space its ASCII name
      // needed ("table_before にある"): the label is bracketed instead (「手番の前の場」にある).
      said += `${message.slice(start, at)}\u300c${label}\u300d`;
      start = end + 1;
      continue;
    }
    said += message.slice(start, at) + (label === null ? quoted : quotedAs(quoted, label));
    start = end;
  }
  return said + message.slice(start);
}

/** ``label`` in the quotes ``quoted`` has ('buys_left' -> 'Buys left'), or bare. */
function quotedAs(quoted, label) {
  const mark = quoted[0];
  const quotes = quoted.length > 1 && (mark === "'" || mark === '"') && quoted.endsWith(mark);
  return quotes ? `${mark}${label}${mark}` : label;
}

/** The words a page shows for ``failure`` (a request's error, from postJson): a refused
 * request's (422) with the places it quotes of ``fields`` said by the page's labels
 * (withLabels); any other failure's message as it is. */
export function errorText(failure, fields, tr) {
  return failure.status === 422 ? withLabels(failure.message, failure.places, fields, tr) : failure.message;
}

/** ``text`` (an answer's words) with the choices of ``select`` it names as a request
 * writes them (phase 'draw') said as the page shows them ('Phase: before the draw'),
 * as the command line says its flag (--phase draw). */
export function withChoices(text, select) {
  const values = new Map([...select.options].map((option) => [option.value, option.text]));
  return text.replace(new RegExp(String.raw`\b${select.name} '([a-z_]+)'`, "g"), (all, value) =>
    values.has(value) ? `'${labelOf(select)}: ${values.get(value)}'` : all);
}
