// Styles shared by the <meldwise-hint> element (in its shadow root) and the demo
// page: tiles, cards, sets and the hint's messages. One constructable sheet, so the
// element needs no second file and works from any origin.

export const CSS = `
/* The element sits in pages we do not control: of what they let it inherit, only the
   font size (the element scales with the page) and whether it is shown or takes
   clicks. A page's nowrap, letter-spacing, text-transform or right-to-left direction
   would break the answer's layout (all: initial leaves direction alone), and its text
   colour meets the answer's fixed ones: the answer has colours of its own. The
   page's rules for meldwise-hint itself still win over these. */
:host {
  all: initial; display: block; font-size: inherit; visibility: inherit; pointer-events: inherit;
  direction: ltr; font-family: system-ui, "DejaVu Sans", sans-serif; color: #222;
}
:host([hidden]) { display: none; } /* its display above would beat the browser's [hidden] */
:host .answer { background: #fff; color: #222; padding: 0.5em 0.8em; border-radius: 0.4em; }
.tile, .card {
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  box-sizing: border-box; min-width: 2.2em; height: 2.9em; margin: 0.12em; padding: 0 0.2em;
  border-radius: 0.35em; border: 1px solid #c9c1a3; background: #fffdf4;
  box-shadow: 0 2px 0 #d9d0b0; font: 700 1.1em/1 system-ui, "DejaVu Sans", sans-serif;
  vertical-align: middle; color: #222;
}
button.tile, button.card { cursor: pointer; }
button.tile:hover, button.card:hover { background: #fff6d8; }
button.tile:focus-visible, button.card:focus-visible, button:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px;
}
.tile .as, .card .as { font-size: 0.5em; font-weight: 600; color: #555; margin-top: 0.15em; }
/* A tile's colour written under its number, in its colour (tiles.js, colourMark). */
.tile .mark { font-size: 0.55em; font-weight: 600; margin-top: 0.15em; }
/* Each colour at least 4.5:1 (WCAG AA for text) on every background a tile has: its
   own, a played tile's and a missed one's. */
.tile.c-R { color: #c62828; } .tile.c-B { color: #1565c0; } .tile.c-K { color: #212121; }
.tile.c-O { color: #b84400; } .tile.c-G { color: #2a722e; } .tile.c-Y { color: #856200; }
.tile.c-P { color: #6a1b9a; } .tile.c-W { color: #546e7a; }
.tile.joker, .card.joker {
  background: linear-gradient(135deg, #ffe9b3, #ffc9d9); border-color: #b07cc6; color: #6a1b9a;
}
.card { background: #fff; border-color: #bbb; box-shadow: 0 2px 0 #ccc; }
.card.red { color: #c62828; }
/* The outline 3:1 at least on the white answer (WCAG AA, non-text contrast). */
.played {
  outline: 3px solid #b87300; outline-offset: 1px; background: #fff4c2;
}
.tile.bad, .card.bad { color: #6b6b6b; border: 2px dashed #c62828; font-size: 0.9em; max-width: 100%; }
/* A typed word that is no piece may be any length: cut to the line, whole in its name. */
.tile.bad > span, .card.bad > span { max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.set { display: flex; flex-wrap: wrap; align-items: center; margin: 0.15em 0; }
.set-name { min-width: 6.5em; font-size: 0.85em; color: #555; overflow-wrap: anywhere; }
.hint-button {
  font: 600 1em system-ui, "DejaVu Sans", sans-serif; padding: 0.5em 1.2em; border-radius: 0.4em;
  border: 1px solid #0d47a1; background: #1565c0; color: #fff; cursor: pointer;
}
.hint-button:disabled, .hint-button[aria-disabled="true"] { background: #90a4ae; border-color: #78909c; cursor: progress; }
/* An empty answer or error takes no room, but stays rendered: a live region hidden
   while empty (display: none) is none to a screen reader until the answer shows it,
   and that answer is then often not read. */
.answer:empty, .error:empty { padding: 0; margin: 0; border: none; }
.answer { margin-top: 0.6em; }
/* Any level (the element's heading-level attribute): each looks as an h3 did. */
.answer :is(h1, h2, h3, h4, h5, h6) { font-size: 1em; margin: 0.8em 0 0.3em; }
.answer ol { margin: 0.3em 0; padding-left: 1.6em; }
.answer li { margin: 0.2em 0; }
.note { color: #555; font-size: 0.9em; }
.error {
  margin-top: 0.6em; padding: 0.5em 0.8em; border-left: 4px solid #c62828;
  background: #fdecea; color: #8e1b1b; overflow-wrap: anywhere; /* it quotes what was typed */
}
`;

let sheet = null;

/** The shared sheet, made once per document. */
export function styleSheet() {
  if (sheet === null) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}
