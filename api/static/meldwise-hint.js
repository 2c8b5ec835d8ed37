// <meldwise-hint>: a hint button for a Rummikub game page.
//
//   <script type="module" src="https://host/static/meldwise-hint.js"></script>
//   <meldwise-hint endpoint="https://host/v1/rummikub/solve"></meldwise-hint>
//   document.querySelector("meldwise-hint").state = {rack: ["R1", "R2", "J"],
//       table: [["R3", "R4", "R5"]], opened: true};
//
// Each press asks the service for more: first a nudge (can I play, how many
// tiles), then one tile and where it goes, then the full play and its steps. A new
// state starts again from the nudge (the same position again, equal as JSON, does
// not). The attribute hint-level="full" (or nudge, tile) asks that level on every
// press instead (such presses are no steps: once the attribute goes, presses go on
// from where the sequence was). Every answer is
// shown in the element's shadow DOM and sent as a `meldwise-hint` event (detail:
// the service's whole response); a failure is shown and sent as
// `meldwise-hint-error` (detail: {message, status, detail}). `endpoint` defaults to
// the service that served this file.
//
// The attribute lang="ja" (or the nearest ancestor's lang, as for any HTML element:
// inside a component's shadow tree, its host's and on up) makes the button, its
// messages and the service's texts Japanese (the request carries lang), with the
// fourth colour drawn yellow (黄) unless the state's rules.colours gives yellow a
// colour of its own (6 or more), and written Y in the service's texts too (the
// request carries notation "RBYK" then, unless the state gives a notation); anything
// else is English. A change of that lang later, on the element or on any ancestor
// (e.g. document.documentElement.lang = "ja"), is followed at once: the button speaks
// the new language, and a hint shown (or on its way) in the old one is dropped.
//
// The property fieldLabels ({rack: "Your rack", table: "Table sets"}: the labels of the
// page's fields for the state's rack and table, in the element's language) makes the
// service's errors name those fields so: "Your rack, tile 2: unknown tile 'Q5' ..."
// for its "rack[1]: ...", "Table sets, set 0, tile 1: ..." for "table[0][0]: ...".
//
// The attribute heading-level="2" (1 to 6; default 3, anything else too) makes the
// answer's headings ("Steps", "Table after ...") h2, so that they skip no level on
// the page around it (an h3 right under the page's h1 does); a change re-levels the
// answer shown.
//
// The attribute timeout="SECONDS" (default 35: just above the service's own default
// request timeout, MELDWISE_TIMEOUT_REQUEST_S=30, after which it answers 503) bounds
// a press: a service that has not answered by then (a hung connection) is given up,
// said so, and the button takes presses again.

import { isBusy, setBusy } from "./busy.js";
import { errorText, pieces, sets } from "./field-names.js";
import { load, loadTranslator, supported, translator } from "./i18n.js";
import { RequestSlot } from "./request-slot.js";
import { drawAnswer, isHintAnswer } from "./rummikub-answer.js";
import { DEFAULT_TIMEOUT_S, postJson, waitSeconds } from "./service.js";
import { styleSheet } from "./styles.js";
import { STANDARD_COLOURS } from "./tiles.js";

export const LEVELS = ["nudge", "tile", "full"];
const DEFAULT_ENDPOINT = new URL("../v1/rummikub/solve", import.meta.url).href;
export { DEFAULT_TIMEOUT_S };
const MAX_TIMEOUT_S = 2_147_483; // setTimeout fires at once past 2^31 - 1 ms
const DEFAULT_HEADING_LEVEL = 3; // under a page's h2, as on the demo's tabs

/** The lang of ``element``'s nearest ancestor (itself included) that has one, as
 * HTML gives elements their language: a shadow tree takes its host's (closest() alone
 * stops at the shadow root, and the element of a game's component spoke English on a
 * page in Japanese). Null when there is none. */
function nearestLang(element) {
  for (let node = element; node; node = node.getRootNode().host) {
    const found = node.closest("[lang]");
    if (found) return found.getAttribute("lang");
  }
  return null;
}

/** The element's tree and those of the shadow hosts it is in, outermost last. */
function rootsOf(element) {
  const roots = [];
  for (let root = element.getRootNode(); ; root = root.host.getRootNode()) {
    roots.push(root);
    if (!root.host) return roots;
  }
}

/** ``value`` written as JSON, or null when it cannot be (a cycle, a BigInt). */
function jsonOf(value) {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

/** What a player is told of a 429. The service's words are for the client's developer
 * ("this client sent more requests than the rate limit allows"): behind a game's own
 * route every player is that one client, and the wait is in Retry-After. They go to the
 * console, and stay in the event's detail. */
function tooMany(error, tr) {
  console.warn(`Meldwise: the service answered 429: ${error.detail}`);
  const wait = waitSeconds(error.retryAfter);
  return wait
    ? tr.t("Too many hints have been asked for just now. Try again in {wait} s.", { wait })
    : tr.t("Too many hints have been asked for just now. Try again shortly.");
}

function buttonText(level, tr) {
  if (level === "tile") return tr.t("Hint: which tile?");
  if (level === "full") return tr.t("Hint: the whole play");
  return tr.t("Hint");
}

export class MeldwiseHint extends HTMLElement {
  static observedAttributes = ["heading-level", "hint-level", "label", "lang"];

  #state = null;
  #written = null; // the state as JSON when it was set: the same position set again keeps the hint
  #next = 0; // index in LEVELS of the level the next press asks for
  // The request in flight, as the demo's tabs keep theirs (request-slot.js): a newer
  // state, press of hint() or language aborts it; the button is busy until it ends.
  #slot = new RequestSlot(() => this.#idle());
  #lang = null; // the language the element speaks, once connected
  #watch = null; // a MutationObserver of lang attributes in the element's tree
  #button;
  #answer;
  #error;

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [styleSheet()];
    this.#button = document.createElement("button");
    this.#button.type = "button";
    this.#button.className = "hint-button";
    this.#button.setAttribute("part", "button");
    // Busy, the button keeps the focus but a press waits for the answer on its way.
    this.#button.addEventListener("click", () => !isBusy(this.#button) && this.hint().catch(() => {}));
    this.#answer = document.createElement("div");
    this.#answer.className = "answer";
    this.#answer.setAttribute("part", "answer");
    this.#answer.setAttribute("role", "status");
    this.#answer.setAttribute("aria-live", "polite");
    this.#error = document.createElement("div");
    this.#error.className = "error";
    this.#error.setAttribute("part", "error");
    this.#error.setAttribute("role", "alert");
    root.append(this.#button, this.#error, this.#answer);
    this.#showButton();
    // A page may set state, endpoint or timeout before this script has loaded: take
    // those values over from the plain element, so the setters run (left there, they
    // would hide the element's own for good: a later endpoint attribute unheeded).
    // Only an upgrade finds them, when the element may gain attributes.
    for (const name of ["state", "endpoint", "timeout"]) {
      if (!Object.hasOwn(this, name)) continue;
      const early = this[name];
      delete this[name];
      this[name] = early;
    }
  }

  /** The URL of the solve endpoint. */
  get endpoint() {
    return this.getAttribute("endpoint") || DEFAULT_ENDPOINT;
  }

  set endpoint(url) {
    this.setAttribute("endpoint", url);
  }

  /** Seconds a hint may take before it is given up: the timeout attribute, a number
   * above 0 (else 35, just above the service's default request timeout). */
  get timeout() {
    const seconds = Number(this.getAttribute("timeout") ?? Number.NaN);
    return seconds > 0 ? Math.min(seconds, MAX_TIMEOUT_S) : DEFAULT_TIMEOUT_S;
  }

  set timeout(seconds) {
    this.setAttribute("timeout", String(seconds));
  }

  /** The position to hint for: a solve request without hint_level ({rack, table,
   * opened, objective, rules, time_limit_ms}; only rack is required). Assign a new
   * object for each new position: that clears the hint and starts from the nudge. The
   * same position again (equal as JSON: a game that sets it on every render) keeps
   * the hint, and one on its way. */
  get state() {
    return this.#state;
  }

  set state(value) {
    // Compared with the position as it was set (a game may change its object in
    // place and set it again: a new position).
    const written = jsonOf(value);
    const same = this.#state !== null && written !== null && written === this.#written;
    this.#state = value;
    this.#written = written;
    if (same) return;
    this.#slot.free();
    this.#next = 0;
    this.#answer.replaceChildren();
    this.#error.replaceChildren();
    this.#showButton();
  }

  /** The level the next press asks for. */
  get nextLevel() {
    const fixed = this.getAttribute("hint-level");
    return LEVELS.includes(fixed) ? fixed : LEVELS[this.#next];
  }

  /** The level of the answer's headings: the heading-level attribute, a whole number
   * from 1 to 6 (h1 to h6), else 3. */
  get headingLevel() {
    const level = Number(this.getAttribute("heading-level") ?? Number.NaN);
    return Number.isInteger(level) && level >= 1 && level <= 6 ? level : DEFAULT_HEADING_LEVEL;
  }

  /** The language the element speaks: its own or its nearest ancestor's lang (a
   * shadow root's ancestors being its host's). */
  get language() {
    return supported(nearestLang(this));
  }

  attributeChangedCallback(name) {
    if (name === "lang") this.#followLanguage();
    if (name === "heading-level") this.#relevel();
    this.#showButton();
  }

  /** The answer shown with its headings at the level asked for now. */
  #relevel() {
    const tag = `H${this.headingLevel}`;
    for (const old of this.#answer.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
      if (old.tagName === tag) continue;
      const made = document.createElement(tag);
      made.className = old.className;
      made.append(...old.childNodes);
      old.replaceWith(made);
    }
  }

  connectedCallback() {
    this.#followLanguage();
    // An ancestor's lang changes without telling the element: watch the lang
    // attributes of the tree it is in and of those its shadow hosts are in (the
    // document, and any shadow roots between).
    this.#watch = new MutationObserver(() => this.#followLanguage());
    for (const root of rootsOf(this)) {
      this.#watch.observe(root, { attributes: true, attributeFilter: ["lang"], subtree: true });
    }
  }

  disconnectedCallback() {
    this.#watch?.disconnect();
    this.#watch = null;
  }

  /** Speak the language the element has now: the button in it (once its catalogue
   * has loaded); a hint shown, or on its way, in another one is dropped. */
  #followLanguage() {
    const lang = this.language;
    if (lang === this.#lang) return;
    if (this.#lang !== null) {
      this.#slot.free();
      this.#answer.replaceChildren();
      this.#error.replaceChildren();
    }
    this.#lang = lang;
    load(lang).then(() => this.language === lang && this.#showButton(), () => {});
    this.#showButton();
  }

  /** Ask for the next hint, show it and fire `meldwise-hint`; resolves to the
   * service's response (rejects, after showing the error, when there is none). A
   * hint on its way is aborted (its call rejects with an AbortError, nothing shown):
   * unlike a press of the button, which waits for it. One the service has not
   * answered within the timeout is given up, and shown and sent as a failure. A hint
   * is on its way from the call, while its language's catalogue loads too: the
   * button is busy, and a newer state, call or language drops it (an AbortError). */
  async hint() {
    const asked = this.language;
    // Busy from the press, while the language's catalogue loads too: a second press
    // then waits as for any hint on its way (it asked again, aborting the first).
    const mine = this.#slot.begin(this.#button);
    this.setAttribute("aria-busy", "true");
    try {
      const tr = await loadTranslator(asked); // English if the catalogue fails to load
      // A newer state, call or language took over meanwhile (it freed the slot).
      if (!this.#slot.holds(mine) || this.language !== asked) {
        throw new DOMException("a newer state, call or language took over", "AbortError");
      }
      return await this.#ask(tr, mine);
    } finally {
      this.#slot.end(mine);
    }
  }

  /** Ask for the next hint in ``tr``'s language, the request ``mine`` holding the slot. */
  async #ask(tr, mine) {
    const lang = tr.lang;
    if (this.#state === null || typeof this.#state !== "object") {
      return this.#fail(new Error(tr.t("No position yet: the page sets this element's state.")), tr);
    }
    const fixed = LEVELS.includes(this.getAttribute("hint-level")); // hint-level asks every press
    const level = this.nextLevel;
    // Japanese writes the fourth colour, orange, as yellow (Y, 黄) where yellow is no
    // colour of the game (under 6 colours): the answer's codes too, as it is drawn.
    const yellow = lang === "ja" && (this.#state.rules?.colours ?? STANDARD_COLOURS) < 6;
    const notation = yellow && this.#state.notation == null ? { notation: "RBYK" } : {};
    const request = { lang, ...notation, ...this.#state, hint_level: level };
    try {
      JSON.stringify(request); // a cycle or a BigInt of the game's would fail in fetch's call
    } catch (error) {
      const said = tr.t("The page's state for this element cannot be sent as JSON: {reason}", {
        reason: error.message,
      });
      return this.#fail(new Error(said), tr);
    }
    this.#say(tr.t("Thinking\u2026"));
    try {
      // A service that never answers (a hung connection) is given up after the
      // timeout (postJson), unless a newer state or press took over.
      const answer = await postJson(this.endpoint, request, {
        signal: mine.signal,
        tr,
        expected: (answer) => isHintAnswer(answer, level),
        timeout: this.timeout,
      });
      this.#error.replaceChildren();
      this.#answer.replaceChildren(
        ...drawAnswer(answer, tr, request.rules?.colours, request.rack, this.headingLevel),
      );
      // Nothing to play: a further press could only say so again. A fixed level is
      // no step: once hint-level goes, presses go on from where the sequence was.
      if (!fixed && answer.tiles_played > 0 && this.#next < LEVELS.length - 1) this.#next += 1;
      this.dispatchEvent(
        new CustomEvent("meldwise-hint", { detail: answer, bubbles: true, composed: true }),
      );
      return answer;
    } catch (error) {
      if (error.name === "AbortError") throw error; // a newer state or press took over
      return this.#fail(error, tr);
    }
  }

  #fail(error, tr) {
    // The service's words, with the fields it names by the page's labels (a plain
    // property the page sets, fieldLabels: read here, so one set early stays).
    const { rack, table } = this.fieldLabels ?? {};
    const named = {
      ...(rack ? { rack: pieces(() => rack) } : {}),
      ...(table ? { table: sets(() => table) } : {}),
    };
    // The service's own 429 (it has a detail): a proxy's is said as the proxy's.
    const tooManyHints = error.status === 429 && error.detail !== null;
    const message = tooManyHints ? tooMany(error, tr) : errorText(error, named, tr);
    const detail = { message, status: error.status ?? null, detail: error.detail ?? null };
    this.#answer.replaceChildren();
    this.#error.textContent = message;
    this.dispatchEvent(
      new CustomEvent("meldwise-hint-error", { detail, bubbles: true, composed: true }),
    );
    throw error;
  }

  /** No request in flight: the button takes presses and names the next level. (No
   * aria-busy before the first request: the constructor may not add attributes.) */
  #idle() {
    setBusy(this.#button, false);
    if (this.getAttribute("aria-busy") === "true") this.setAttribute("aria-busy", "false");
    this.#showButton();
  }

  #showButton() {
    if (!isBusy(this.#button)) this.#say(buttonText(this.nextLevel, translator(this.language)));
  }

  /** Show ``text`` on the button; with a ``label`` attribute the button's accessible
   * name adds it ("Hint (Player 2)"), so that several elements on a page are told
   * apart by a screen reader, the visible words first. */
  #say(text) {
    this.#button.textContent = text;
    const label = this.getAttribute("label");
    if (label) this.#button.setAttribute("aria-label", `${text} (${label})`);
    else this.#button.removeAttribute("aria-label");
  }
}

if (!customElements.get("meldwise-hint")) customElements.define("meldwise-hint", MeldwiseHint);
