// The demo page's position editor: text fields of tiles or cards, drawn as they
// are typed, and a palette whose pieces go into the field last focused. Names and
// labels are in the language of ``tr`` (i18n.js; ``setLanguage`` switches).

import { translator } from "./i18n.js";
import { splitWords } from "./tiles.js";

/** The button drawn in the row below ``button`` (``down`` 1) or above it (-1), the
 * nearest to it across; undefined from the last (first) row. */
function across(buttons, button, down) {
  const box = (b) => b.getBoundingClientRect();
  const centre = (b) => (box(b).left + box(b).right) / 2;
  const beyond = buttons.filter((other) => down * (box(other).top - box(button).top) > 1);
  if (beyond.length === 0) return undefined;
  const row = Math.min(...beyond.map((other) => down * box(other).top));
  return beyond
    .filter((other) => down * box(other).top - row <= 1)
    .reduce((best, other) => (Math.abs(centre(other) - centre(button)) < Math.abs(centre(best) - centre(button)) ? other : best));
}

/** Make ``buttons`` one stop for Tab (the first): the arrow keys move between
 * them (the WAI-ARIA roving tabindex). Up and Down step by ``columns``, or with
 * ``columns`` "drawn" go to the row drawn below or above: by the layout, not a
 * count, as a narrow window draws the palette's 13 columns as 7 (demo.css). */
export function rove(buttons, columns) {
  buttons.forEach((button, i) => {
    button.tabIndex = i === 0 ? 0 : -1;
    button.addEventListener("keydown", (event) => {
      const down = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      let next;
      if (step) next = buttons[i + step];
      else if (down && columns === "drawn") next = across(buttons, button, down);
      else if (down) next = buttons[i + down * columns];
      if (!next) return;
      event.preventDefault();
      button.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    });
  });
}

/** The number in a number field: null when it is empty, an Error naming the field
 * by its label when what is typed is no number (the browser then gives an empty
 * value, which read as empty would silently stand for the field's default), or when
 * it is empty and ``required`` (a field with no default: the seed). */
export function readNumber(input, tr, { required = false } = {}) {
  const field = input.labels?.[0]?.textContent?.trim() || input.id;
  if (input.validity.badInput) {
    throw new Error(tr.t("{field}: what is typed there is not a number.", { field }));
  }
  if (input.value === "" && required) {
    throw new Error(tr.t("{field}: nothing is typed there; type a number.", { field }));
  }
  if (input.value === "") return null;
  const number = Number(input.value);
  // A whole number past 2^53 (or past any, 1e400) is sent as another: a seed typed
  // 12345678901234567891 went as 12345678901234567000, and the service's refusal
  // quoted that, a number nobody typed.
  if (!Number.isFinite(number) || (Number.isInteger(number) && !Number.isSafeInteger(number))) {
    throw new Error(tr.t("{field}: {number} has too many digits for this page to send exactly; type at most 15.", {
      field, number: input.value,
    }));
  }
  return number;
}

/** One field of pieces: an <input> (one list) or a <textarea> (one list a line,
 * or separated by "|"), with its drawing in ``preview``. Clicking a drawn piece
 * removes it. The drawing is one stop for Tab (arrow keys move in it, and the focus
 * stays there after a removal). ``owners``: a line may start with "name:" (Shanghai
 * table melds). */
export class PieceField {
  constructor(input, preview, { draw, setName = null, owners = false, tr = translator("en") }) {
    this.input = input;
    this.preview = preview;
    this.draw = draw;
    this.setName = setName;
    this.owners = owners;
    this.tr = tr;
    input.addEventListener("input", () => this.redraw());
    this.redraw();
  }

  setLanguage(tr) {
    this.tr = tr;
    this.redraw();
  }

  /** The lines with words, as [{owner, words}], empty lines left out. The set bar and
   * an owner's colon may be typed full-width (｜ ：), as the service reads them. */
  lines() {
    return this.input.value
      .split(/\n|[|\uff5c]/)
      .map((line) => {
        const colon = this.owners ? line.search(/[:\uff1a]/) : -1;
        const owner = colon < 0 ? null : line.slice(0, colon).trim() || null;
        return { owner, words: splitWords(colon < 0 ? line : line.slice(colon + 1)) };
      })
      .filter((line) => line.words.length > 0);
  }

  /** Every word of the field, in order. */
  words() {
    return this.lines().flatMap((line) => line.words);
  }

  setText(text) {
    this.input.value = text;
    this.input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  /** Put ``word`` at the caret (the caret stays where it was when focus left). */
  insert(word) {
    const { value } = this.input;
    const at = this.input.selectionStart ?? value.length;
    const before = value.slice(0, at);
    const after = value.slice(at);
    const lead = before === "" || /[\s|:,\uff5c\uff1a\uff0c\u3001]$/.test(before) ? "" : " ";
    const trail = after === "" || /^\s/.test(after) ? "" : " ";
    this.setText(before + lead + word + trail + after);
    const caret = (before + lead + word).length;
    this.input.setSelectionRange(caret, caret);
  }

  #remove(lineIndex, wordIndex, place) {
    const focused = this.preview.contains(document.activeElement);
    const lines = this.lines();
    lines[lineIndex].words.splice(wordIndex, 1);
    const separator = this.input.tagName === "TEXTAREA" ? "\n" : " ";
    const text = lines
      .filter((line) => line.words.length > 0)
      .map((line) => (line.owner ? `${line.owner}: ` : "") + line.words.join(" "))
      .join(separator);
    this.setText(text);
    if (focused) {
      // The removed piece had the focus: give it to the piece now in its place.
      const pieces = this.#pieces();
      const next = pieces[Math.min(place, pieces.length - 1)] ?? this.input;
      if (next !== this.input) {
        for (const piece of pieces) piece.tabIndex = piece === next ? 0 : -1;
      }
      next.focus();
    }
  }

  #pieces() {
    return [...this.preview.querySelectorAll("button")];
  }

  redraw() {
    const lines = this.lines();
    let place = 0; // the piece's place among all of the field's
    const rows = lines.map((line, lineIndex) => {
      const row = document.createElement("div");
      row.className = "set";
      if (this.setName) {
        const name = document.createElement("span");
        name.className = "set-name";
        name.textContent = this.setName(lineIndex, line.owner, this.tr);
        row.append(name);
      }
      line.words.forEach((word, wordIndex) => {
        const at = place++;
        row.append(
          this.draw(word, {
            onClick: () => this.#remove(lineIndex, wordIndex, at),
            actionLabel: this.tr.t("remove {piece}"),
            tr: this.tr,
          }),
        );
      });
      return row;
    });
    this.preview.replaceChildren(...rows);
    rove(this.#pieces(), 1);
  }
}

/** Buttons for every piece (demo.css lays them out, a suit or colour to a row); a
 * click (or Enter) inserts the piece into the field that last had focus (marked
 * with the class "target", and named in ``caption``). The palette is one stop for
 * Tab; arrow keys move in it. */
export class Palette {
  constructor(container, pieces, draw, fields, caption) {
    this.container = container;
    this.draw = draw;
    this.fields = fields;
    this.caption = caption;
    this.target = fields[0];
    this.tr = translator("en");
    for (const field of fields) {
      field.input.addEventListener("focus", () => this.#aim(field));
    }
    this.render(pieces);
  }

  /** Draw ``pieces`` (the palette's tiles or cards as they are written when added)
   * in the language of ``tr``. */
  render(pieces, tr = this.tr) {
    this.tr = tr;
    this.#aim(this.target);
    const buttons = pieces.map((piece) =>
      this.draw(piece, { onClick: () => this.target.insert(piece), actionLabel: tr.t("add {piece}"), tr }),
    );
    rove(buttons, "drawn");
    this.container.setAttribute("role", "group");
    this.container.setAttribute("aria-label", tr.t("pieces to add; arrow keys move, Enter adds"));
    this.container.replaceChildren(...buttons);
  }

  #aim(field) {
    this.target = field;
    for (const other of this.fields) {
      other.input.classList.toggle("target", other === field);
    }
    const label = field.input.labels?.[0]?.firstChild?.textContent?.trim() ?? field.input.id;
    this.caption.textContent = this.tr.t("Pieces you click go to: {field}", { field: label.toLowerCase() });
  }
}
