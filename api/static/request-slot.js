// One request at a time for a tab of the demo page (Repair, Shanghai, Review) or a
// <meldwise-hint> element: a newer request, an edited position or another language
// aborts the one in flight, so an older answer never lands over a newer one (or
// beside a position it is not about), and the button that asked is busy (busy.js)
// until its answer is in. It imports busy.js alone: the element, loaded by itself on
// a game's page, fetches it beside its own file.
//
//   const slot = new RequestSlot(() => setBusy(button, false));
//   button.addEventListener("click", async () => {
//     if (isBusy(button)) return; // the answer is on its way
//     const mine = slot.begin(button);
//     try {
//       const answer = await postJson(url, body, { signal: mine.signal, tr });
//       if (slot.holds(mine)) draw(answer);
//     } catch (failure) {
//       if (failure.name !== "AbortError") show(failure);
//     } finally {
//       slot.end(mine);
//     }
//   });

import { setBusy } from "./busy.js";

export class RequestSlot {
  #pending = null; // the AbortController of the request in flight
  #idle;

  /** ``idle()`` puts the tab's buttons back as they are with no request in flight
   * (not busy, their usual words): called whenever the slot is freed. */
  constructor(idle) {
    this.#idle = idle;
  }

  /** Start a request, aborting the one in flight: ``button`` is busy (and says
   * ``text``, when given) until the request ends. Returns the request's
   * AbortController, whose signal goes with the request. */
  begin(button, text = undefined) {
    this.free();
    const mine = new AbortController();
    this.#pending = mine;
    setBusy(button, true);
    if (text !== undefined) button.textContent = text;
    return mine;
  }

  /** Whether ``mine`` is still the request in flight (no newer one, nor free(),
   * took its place): only then may its answer be drawn. */
  holds(mine) {
    return this.#pending === mine;
  }

  /** The request ``mine`` is over (answered or failed): the slot is free again,
   * unless a newer request holds it. */
  end(mine) {
    if (this.#pending === mine) this.free();
  }

  /** Abort the request in flight, if any, and put the buttons back (``idle``). */
  free() {
    this.#pending?.abort();
    this.#pending = null;
    this.#idle();
  }
}
