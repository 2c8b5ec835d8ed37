// The language of the page and of the <meldwise-hint> element: English, or Japanese.
//
// As in the service (solver/i18n.py), the English message is the id: tr.t(message)
// looks it up in the language's catalogue, locale/<lang>.json (a JSON object from
// English message to translation, loaded once), and fills `{name}` placeholders from
// the values given. tr.tn(one, other, n) picks the English plural form by n; a
// catalogue has one entry per plural message, under its `other` form (Japanese has
// no plural). N_(message) marks a message looked up later. tests/api/test_i18n_web.py
// checks that every message of these modules and of index.html has a translation
// with the same placeholders.

export const LANGUAGES = ["en", "ja"];
export const DEFAULT_LANGUAGE = "en";
const catalogues = new Map([[DEFAULT_LANGUAGE, {}]]);
const loading = new Map();

/** Marks a message that is translated later (``tr.t(name)``): gettext's N_. */
export const N_ = (message) => message;

/** ``lang`` when the page speaks it, else English. */
export function supported(lang) {
  const code = String(lang ?? "").split(/[-_]/)[0].toLowerCase();
  return LANGUAGES.includes(code) ? code : DEFAULT_LANGUAGE;
}

/** The first language of the browser's list that we speak (English if none). */
export function browserLanguage() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

/** Load the catalogue of ``lang`` (once); resolves when its messages can be used. */
export function load(lang) {
  lang = supported(lang);
  if (catalogues.has(lang)) return Promise.resolve();
  if (!loading.has(lang)) {
    const url = new URL(`./locale/${lang}.json`, import.meta.url);
    loading.set(
      lang,
      fetch(url)
        .then((response) => {
          if (!response.ok) throw new Error(`${url}: ${response.status}`);
          return response.json();
        })
        .then((catalogue) => catalogues.set(lang, catalogue))
        .finally(() => loading.delete(lang)),
    );
  }
  return loading.get(lang);
}

/** The translator of ``lang`` once its catalogue has loaded, or English's when it fails
 * to load: then the page speaks English throughout, its requests too, rather than the
 * service's words in a language its own labels lack. A later call tries again. */
export function loadTranslator(lang) {
  return load(lang).then(
    () => translator(lang),
    () => translator(DEFAULT_LANGUAGE),
  );
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

/** The messages of ``lang`` (English until its catalogue has loaded). */
export function translator(lang) {
  lang = supported(lang);
  const catalogue = () => catalogues.get(lang) ?? {};
  return {
    lang,
    t: (message, values = {}) => fill(catalogue()[message] ?? message, values),
    tn: (one, other, n, values = {}) =>
      fill(catalogue()[other] ?? (n === 1 ? one : other), { n, ...values }),
  };
}

/** A chance or a share in whole percents, as the service words one (solver.i18n.percent_text):
 * one above 0 and below 1 is never 0% or 100% ("under 1%", "over 99%"), and a lower bound
 * (``atLeast``: what a search found in time) is rounded down, never up to more than was found. */
export function percentText(share, tr, atLeast = false) {
  const percent = share * 100;
  if (atLeast) return tr.t("at least {percent}%", { percent: Math.floor(percent + 1e-9) });
  if (percent > 0 && percent < 0.5) return tr.t("under 1%");
  if (percent >= 99.5 && percent < 100) return tr.t("over 99%");
  return tr.t("{percent}%", { percent: Math.round(percent) });
}

const originals = new WeakMap(); // element -> {text, attributes}: the English of the page

/** Translate the marked parts of ``root``: the text of every element with
 * ``data-i18n`` and its attributes named in ``data-i18n-attrs`` (space-separated);
 * the English of index.html is the message id, kept to switch back. */
export function translatePage(root, tr) {
  for (const element of root.querySelectorAll("[data-i18n], [data-i18n-attrs]")) {
    if (!originals.has(element)) {
      const attributes = {};
      for (const name of (element.dataset.i18nAttrs ?? "").split(/\s+/).filter(Boolean)) {
        attributes[name] = element.getAttribute(name);
      }
      const text = "i18n" in element.dataset ? element.textContent.replace(/\s+/g, " ").trim() : null;
      originals.set(element, { text, attributes });
    }
    const { text, attributes } = originals.get(element);
    if (text !== null) element.textContent = tr.t(text);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, tr.t(value));
  }
}
