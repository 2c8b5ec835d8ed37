// The note every answer cut by the clock carries, in both games: a hint, a repair, a
// Shanghai advice, a review or one of its turns whose ``time_capped`` is true.

/** Said when the time limit, not the fixed work bound, cut a search (an answer's
 * ``time_capped``): the answer holds what that search had found by then. In the
 * command line's words (solver.commands.capped_note). */
export function cappedNote(tr) {
  const note = document.createElement("p");
  note.className = "note";
  note.textContent = tr.t("The time limit, not the fixed work bound, cut a search short: the answer holds what that search had found by then.");
  return note;
}
