// The service's errors name a request's fields as the wire writes them ('buys_left',
// table_before[0][0]: ...); a person reads them on the page by the labels shown there
// ('Buys left', "Table before the turn, set 0, tile 1: ..."), in the page's language.
// The service's words are otherwise kept.
//
// An error body is {"detail": text} alone, so the places are found in the text where
// the service writes them (solver/wire.py): quoted, 'buys_left' or 'seed'; or at the
// start of a problem, the detail's or one of those it lists (after "; ", or "／" in
// Japanese), before its colon (rack[1]: unknown tile ...) or, for a name with an
// underscore (no English word), before a space (table_before holds R4 ...). Only the
// fields given are named: a record's own keys ('rack' in record.turns[0]) stay. An
// answer's note naming a choice as the request writes it (phase 'draw') is said as
// the page shows that choice too (withChoices).

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
 * list of pieces within it, for a meld written {cards, owner} (table[0].cards[1]). */
export function sets(
  label,
  { set = N_("{field}, set {index}"), piece = N_("{field}, set {index}, tile {number}"), key = null } = {},
) {
  return (path, tr) => {
    if (path.length === 0) return label();
    const [index, ...inner] = path;
    if (typeof index !== "number") return null;
    if (key !== null && inner[0] === key) inner.shift();
    else if (key !== null && inner.length > 0) return null; // a meld's owner: as written
    if (inner.length === 0) return tr.t(set, { field: label(), index });
    if (inner.length === 1 && typeof inner[0] === "number") {
      return tr.t(piece, { field: label(), index, number: inner[0] + 1 });
    }
    return null;
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

const PATH = String.raw`((?:\[\d+\]|\.[a-z_]+)*)`;

function steps(path) {
  return [...path.matchAll(/\[(\d+)\]|\.([a-z_]+)/g)]
    .map(([, index, key]) => (index === undefined ? key : Number(index)));
}

/** ``message`` with the places of ``fields`` (a wire field name -> a namer: single,
 * pieces or sets) it names said by the page's labels, in ``tr``'s language. A quoted
 * word that ``typed`` (what the person typed, one string) holds is theirs: an unknown
 * tile 'rack' typed in the rack is not the field. */
export function withLabels(message, fields, tr, typed = "") {
  const names = Object.keys(fields).join("|");
  if (!names || typeof message !== "string") return message;
  const held = typed.toLowerCase();
  const place = new RegExp(
    String.raw`'(${names})${PATH}'|(^|; |\uff0f)(${names})${PATH}(?=:|(?<=_[a-z]*)\s)`,
    "g",
  );
  return message.replace(place, (all, quoted, quotedPath, before, bare, barePath) => {
    const field = quoted ?? bare;
    const path = quoted === undefined ? barePath : quotedPath;
    if (quoted !== undefined && held.includes(`${field}${path}`.toLowerCase())) return all;
    const label = fields[field](steps(path), tr);
    if (label === null) return all;
    return quoted !== undefined ? `'${label}'` : `${before}${label}`;
  });
}

/** The words a page shows for ``failure`` (a request's error, from postJson): a refused
 * request's (422) with the places of ``fields`` said by the page's labels (withLabels;
 * ``typed()`` gives what the person typed, asked for a 422 alone); any other failure's
 * message as it is. */
export function errorText(failure, fields, tr, typed = () => "") {
  return failure.status === 422 ? withLabels(failure.message, fields, tr, typed()) : failure.message;
}

/** ``text`` (an answer's words) with the choices of ``select`` it names as a request
 * writes them (phase 'draw') said as the page shows them ('Phase: before the draw'),
 * as the command line says its flag (--phase draw). */
export function withChoices(text, select) {
  const values = new Map([...select.options].map((option) => [option.value, option.text]));
  return text.replace(new RegExp(String.raw`\b${select.name} '([a-z_]+)'`, "g"), (all, value) =>
    values.has(value) ? `'${labelOf(select)}: ${values.get(value)}'` : all);
}
