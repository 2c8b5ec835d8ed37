// Calling the Meldwise HTTP service from a browser: JSON in, JSON out, and every
// failure turned into a sentence a player can read (in ``tr``'s language, i18n.js).

import { translator } from "./i18n.js";

/** A call that did not give an answer. ``status`` is the HTTP status (0: no answer
 * at all), ``detail`` the service's own message (error bodies are {"detail": ...}; null
 * for an answer of a server in between, which has none),
 * ``places`` the places of the request it quotes (a refusal's, 422: docs/http.md,
 * "Errors"; none for any other) and ``retryAfter`` the answer's Retry-After header
 * (null when it has none). */
export class ServiceError extends Error {
  constructor(message, status, detail, places = [], retryAfter = null) {
    super(message);
    this.name = "ServiceError";
    this.status = status;
    this.detail = detail;
    this.places = places;
    this.retryAfter = retryAfter; // a 429's or 503's Retry-After, as the service gave it
  }
}

/** Seconds a call may wait for its answer (``postJson``'s ``timeout``): just above
 * the service's own default request timeout (MELDWISE_TIMEOUT_REQUEST_S=30, after
 * which it answers 503 itself). */
export const DEFAULT_TIMEOUT_S = 35;
const MAX_TIMEOUT_S = 2_147_483; // setTimeout fires at once past 2^31 - 1 ms
/** Statuses of a gateway's own failure (Bad Gateway, Service Unavailable, Gateway
 * Timeout): from a server in between, the service could not be reached through it. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** POST ``body`` as JSON to ``url``; resolve to the answer, or reject with a
 * ServiceError (an AbortError when ``signal`` aborts).
 *
 * A service that has not answered within ``timeout`` seconds (a hung connection) is
 * given up: the call rejects with a ServiceError of status 0 that says so, and the
 * button that asked takes presses again (every caller, the hint element and the
 * demo's tabs alike, has this bound).
 *
 * ``expected(answer)`` says whether a JSON answer is of the kind asked for: a 2xx
 * answer that is not JSON, or not of that kind, is no answer of the service (an
 * endpoint set to another address, a proxy's page), and drawing it would tell the
 * player things nobody checked.
 *
 * The request carries ``Accept-Language`` in ``tr``'s language: the refusals decided
 * before the body (and its ``lang``) is read, 401, 413 and 429, follow only that
 * header. A bare "en" or "ja" is a CORS-safelisted value: no preflight for it. */
export async function postJson(
  url,
  body,
  { signal, tr = translator("en"), expected = () => true, timeout = DEFAULT_TIMEOUT_S } = {},
) {
  const seconds = Math.min(timeout, MAX_TIMEOUT_S);
  const mine = new AbortController(); // aborted by ``signal``, or by the clock
  const follow = () => mine.abort(signal.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener("abort", follow, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    mine.abort();
  }, seconds * 1000);
  try {
    return await call(url, body, mine.signal, tr, expected);
  } catch (error) {
    if (!timedOut) throw error;
    throw new ServiceError(
      tr.t("The service did not answer within {seconds} s. Try again shortly.", { seconds }),
      0,
      null,
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", follow);
  }
}

async function call(url, body, signal, tr, expected) {
  // Said as the address the browser asked (the demo's "v1/rummikub/solve" is relative
  // to the page): the person reading it can try that address.
  const where = new URL(url, document.baseURI).href;
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": tr.lang },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    // The browser hides why: no connection (the service not running, no network), or
    // an answer this origin may not read (the service's refusal of an origin its
    // MELDWISE_CORS_ORIGINS does not list, or a server in between answering 403 or 429
    // without CORS headers while the service runs). Say what the page knows.
    // "The service": the same words for the hint, the repair, the advice and a review.
    throw new ServiceError(
      tr.t(
        "The request to {url} failed: the service could not be reached, or the request was refused (by the service, whose MELDWISE_CORS_ORIGINS may not allow this page's origin, or by a server in between); the browser does not tell this page which.",
        { url: where },
      ),
      0,
      null,
    );
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch (error) {
    // Aborted while the body came in (a newer request took over): no answer to describe.
    if (error.name === "AbortError") throw error;
    // not JSON: described below by the status
  }
  if (response.ok) {
    if (answer !== null && typeof answer === "object" && expected(answer)) return answer;
    throw new ServiceError(
      tr.t("The answer from {url} is not one the service gives (HTTP {status}).", { url: where, status: response.status }),
      response.status,
      null,
    );
  }
  const detail = typeof answer?.detail === "string" ? answer.detail : null;
  const wait = response.headers.get("Retry-After");
  if (detail === null) {
    // Not the service's answer: every error it sends, from the app or from its server
    // (api/errors.py, api/server.py), is JSON with a detail. A server between the page
    // and the service answered: nginx's page for a service that is stopped (502) or
    // slow (504), a WAF's 403, a proxy's own rate limit (429) or body limit (413).
    throw new ServiceError(inBetween(response.status, wait, tr), response.status, null, [], wait);
  }
  if (response.status === 401) {
    // A service with API keys (MELDWISE_API_KEYS) called without one: its message is
    // for the page's developer (send a key; docs/http.md, "With API keys"), who reads
    // it on the console and in the ServiceError's detail. The player cannot act on it.
    console.warn(`Meldwise: ${where} answered 401: ${detail}`);
    throw new ServiceError(tr.t("This service is not available here right now."), 401, detail);
  }
  if (response.status === 503) {
    // Not "busy": the service answers 503 with every place taken, but also shutting
    // down, for a worker lost or a request that waited too long (api/errors.py), and
    // its detail, in its own words, is for the developer (as the 429's).
    const seconds = waitSeconds(wait);
    const message = seconds
      ? tr.t("The service is unavailable for now (HTTP 503). Try again in {wait} s.", { wait: seconds })
      : tr.t("The service is unavailable for now (HTTP 503). Try again shortly.");
    throw new ServiceError(message, 503, detail, [], wait);
  }
  throw new ServiceError(
    detail,
    response.status,
    detail,
    Array.isArray(answer.places) ? answer.places : [],
    wait,
  );
}

/** What a player is told of an error answer that is not the service's (no JSON detail),
 * of ``status`` and Retry-After ``wait``: a server in between answered, and said so by
 * its status, the only thing known of it (its page is in its own words, often English). */
function inBetween(status, wait, tr) {
  if (status === 504) {
    return tr.t("The service did not answer in time: the server in between answered HTTP {status}. Try again shortly.", { status });
  }
  if (GATEWAY_STATUSES.has(status)) {
    return tr.t("The service could not be reached: the server in between answered HTTP {status}. Try again shortly.", { status });
  }
  if (status === 429) {
    const seconds = waitSeconds(wait);
    return seconds
      ? tr.t("Too many requests for the server in between: it answered HTTP {status}, not the service. Try again in {wait} s.", { status, wait: seconds })
      : tr.t("Too many requests for the server in between: it answered HTTP {status}, not the service. Try again shortly.", { status });
  }
  if (status === 413) {
    return tr.t("The request is too large for the server in between: it answered HTTP {status}, not the service.", { status });
  }
  if (status >= 400 && status < 500) {
    return tr.t("The server in between refused the request: it answered HTTP {status}, not the service.", { status });
  }
  return tr.t("The server in between answered HTTP {status}, not the service.", { status });
}

/** A Retry-After header's wait when it is given in seconds, else null: it may also be an
 * HTTP date (a proxy's or CDN's), which is no number of seconds to say. */
export function waitSeconds(header) {
  return /^\d+$/.test(header ?? "") ? header : null;
}
